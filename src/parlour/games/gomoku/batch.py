"""Many games of five in a row stepped at once (:func:`parlour.batch.batch`).

A :class:`GomokuBatch` holds N boards of one rule set as one ``(N, size, size)`` int8
array, the layout of :mod:`parlour.games.gomoku.game` (0 empty, 1 for X, 2 for 0), with
each game's side to move and winner.  An action is a point, ``row * size + col``.  Its
kernels only loop over the games and call the rules' own win test (``makes_five``, on
the four lines through the move).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from parlour.batch import Batch
from parlour.core import BadOption, Game
from parlour.games.gomoku.game import EMPTY, GomokuGame, GomokuState, makes_five

NOBODY = -1
"""The winner of a game going on, or drawn (the board full)."""
OVER = 1
"""A step's flag for a move that ended its game."""


@njit(cache=True, nogil=True)
def _illegal_at(boards: np.ndarray, over: np.ndarray, moves: np.ndarray) -> int:
    """The first game whose move is not an empty point (finished games take any), else -1."""
    size = boards.shape[1]
    for g in range(moves.shape[0]):
        if over[g]:
            continue
        point = moves[g]
        if point < 0 or point >= size * size or boards[g, point // size, point % size] != EMPTY:
            return g
    return -1


@njit(cache=True, nogil=True)
def _step(
    boards: np.ndarray,
    to_move: np.ndarray,
    winner: np.ndarray,
    over: np.ndarray,
    empty: np.ndarray,
    moves: np.ndarray,
    exact: bool,
    flags: np.ndarray,
) -> None:
    """Each live game's (legal) move played: its stone placed, a five its player's win, a
    full board a draw; ``flags`` gets OVER where the move ended the game."""
    size = boards.shape[1]
    for g in range(moves.shape[0]):
        flags[g] = 0
        if over[g]:
            continue
        row, col, stone = moves[g] // size, moves[g] % size, to_move[g] + 1
        boards[g, row, col] = stone
        empty[g] -= 1
        if makes_five(boards[g], row, col, stone, exact):
            winner[g] = to_move[g]
            over[g] = True
        elif empty[g] == 0:
            over[g] = True
        to_move[g] = 1 - to_move[g]
        flags[g] = OVER if over[g] else 0


class GomokuBatch(Batch):
    """N boards of one five-in-a-row rule set (any size, exact five or not).

    ``boards`` is the ``(N, size, size)`` int8 array of the rules' kernels; the scores are
    1 for the winner, 0 otherwise, as a state's.
    """

    def __init__(self, rules: Game, size: int, seed: int = 0) -> None:
        super().__init__(size, seed)
        if not isinstance(rules, GomokuGame):
            raise BadOption(f"a GomokuBatch holds five in a row, not {rules.name}")
        self.game = rules
        side = rules.size
        self.boards = np.zeros((size, side, side), dtype=np.int8)
        self._to_move = np.zeros(size, dtype=np.int8)
        self.winner = np.full(size, NOBODY, dtype=np.int8)
        """Each game's winner (NOBODY while it goes on, and for a draw)."""
        self._over = np.zeros(size, dtype=np.bool_)
        self._empty = np.full(size, side * side, dtype=np.int64)

    def __len__(self) -> int:
        return int(self.boards.shape[0])

    def reset(self, which: np.ndarray | None = None) -> None:
        """Put every game (or those where ``which`` is true) back at the start."""
        rows = slice(None) if which is None else np.asarray(which, dtype=bool)
        self.boards[rows] = EMPTY
        self._to_move[rows] = 0
        self.winner[rows] = NOBODY
        self._over[rows] = False
        self._empty[rows] = self.game.size**2

    @property
    def to_move(self) -> np.ndarray:
        return self._to_move

    @property
    def scores(self) -> np.ndarray:
        return np.stack([self.winner == 0, self.winner == 1], axis=1).astype(np.int8)

    def legal_mask(self) -> np.ndarray:
        """Each game's empty points, by action (none once over)."""
        free = (self.boards == EMPTY).reshape(len(self), -1)
        mask: np.ndarray = np.logical_and(free, np.logical_not(self._over)[:, None])
        return mask

    @property
    def terminal(self) -> np.ndarray:
        """A five made, or the board full."""
        return self._over.copy()

    def _illegal(self, moves: np.ndarray) -> int:
        return int(_illegal_at(self.boards, self._over, moves))

    def _step(self, moves: np.ndarray) -> np.ndarray:
        flags = np.empty(len(self), dtype=np.int64)
        board, turn, won, over, empty = (
            self.boards,
            self._to_move,
            self.winner,
            self._over,
            self._empty,
        )
        _step(board, turn, won, over, empty, moves, self.game.exact, flags)
        return flags

    def state(self, index: int) -> GomokuState:
        """Game ``index`` as a State (a copy; its last move unknown, so its five is
        looked for on the whole board)."""
        return GomokuState(self.game, self.boards[index].copy(), int(self._to_move[index]))
