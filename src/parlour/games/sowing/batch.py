"""Many games of a sowing game stepped at once (:func:`parlour.batch.batch`).

A :class:`SowingBatch` holds N positions of one mancala-family game (``kalah``,
``mancala`` or any of their options) as one ``(N, 2P+3)`` int16 array, the layout of
:mod:`parlour.games.sowing.game`.  Its kernels only loop over the games and call the
game's own flat ``_at`` kernels on each row (they take a position's offset in one buffer).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from parlour.batch import Batch, pick_moves
from parlour.core import BadOption, Game
from parlour.games.sowing.game import (
    SowingGame,
    SowingState,
    _over_at,
    _play_at,
    pit_index,
)

PLAYOUT_CHUNK = 16
"""Random games a row of a batch plays in one compiled call of ``playouts``."""


@njit(cache=True, nogil=True)
def _illegal_at(flat: np.ndarray, width: int, moves: np.ndarray) -> int:
    """The first game whose move is not legal (finished games take any move), else -1."""
    pits = (width - 3) // 2
    for g in range(moves.shape[0]):
        at = g * width
        if _over_at(flat, at, pits):
            continue
        column = moves[g]
        if column < 0 or column >= pits:
            return g
        if flat[at + pit_index(flat[at + width - 1], column, pits)] == 0:
            return g
    return -1


@njit(cache=True, nogil=True)
def _step(flat: np.ndarray, width: int, moves: np.ndarray, rules: int, flags: np.ndarray) -> None:
    """Play each live game's (legal) move; ``flags`` gets each move's outcome flags."""
    pits = (width - 3) // 2
    for g in range(moves.shape[0]):
        at = g * width
        flags[g] = 0 if _over_at(flat, at, pits) else _play_at(flat, at, pits, moves[g], rules)


@njit(cache=True, nogil=True)
def _legal(flat: np.ndarray, width: int, mask: np.ndarray) -> None:
    """``mask[g, c]``: whether game g's side to move may sow column c (none once over)."""
    pits = (width - 3) // 2
    for g in range(mask.shape[0]):
        at = g * width
        over = _over_at(flat, at, pits)
        player = flat[at + width - 1]
        for c in range(pits):
            mask[g, c] = not over and flat[at + pit_index(player, c, pits)] > 0


@njit(cache=True, nogil=True)
def _playouts(
    start: np.ndarray, flat: np.ndarray, games: int, rules: int, rng: np.ndarray
) -> np.ndarray:
    """Random moves in every row until ``games`` games have ended, a row starting a new
    game from ``start`` as soon as its game ends (or at once, if it is over already); the
    wins of player 0, of player 1, and the draws among them.  The games still going on
    then stay in the rows, for the next call to go on with."""
    width = start.shape[0]
    pits = (width - 3) // 2
    rows = flat.shape[0] // width
    tally = np.zeros(3, dtype=np.int64)
    for g in range(rows):
        if _over_at(flat, g * width, pits):
            flat[g * width : (g + 1) * width] = start
    finished = 0
    moves = np.empty(rows, dtype=np.int64)
    mask = np.empty((rows, pits), dtype=np.bool_)
    while finished < games:
        _legal(flat, width, mask)
        pick_moves(mask, rng, moves)
        for g in range(rows):
            at = g * width
            if _play_at(flat, at, pits, moves[g], rules) & 4:  # GAME_OVER
                margin = flat[at + pits] - flat[at + 2 * pits + 1]
                tally[0 if margin > 0 else (1 if margin < 0 else 2)] += 1
                flat[at : at + width] = start
                finished += 1
                if finished == games:
                    break
    return tally


class SowingBatch(Batch):
    """N positions of one sowing game (``kalah``, ``mancala``, any options).

    ``boards`` is the ``(N, 2P+3)`` int16 array of :mod:`parlour.games.sowing.game` (pits,
    stores, the side to move); rows may be read freely and written with positions of
    the game.  The scores are the stores.
    """

    def __init__(self, rules: Game, size: int, seed: int = 0) -> None:
        super().__init__(size, seed)
        if not isinstance(rules, SowingGame):
            raise BadOption(f"a SowingBatch holds sowing games (kalah, mancala), not {rules.name}")
        self.game = rules
        self.start = rules.start().board.copy()
        self.width = len(self.start)
        self._flat = np.tile(self.start, size)
        self.boards = self._flat.reshape(size, self.width)

    def __len__(self) -> int:
        return int(self.boards.shape[0])

    @property
    def pits(self) -> int:
        return self.game.pits

    def reset(self, which: np.ndarray | None = None) -> None:
        """Put every game (or those where ``which`` is true) back at the start."""
        self.boards[slice(None) if which is None else np.asarray(which, dtype=bool)] = self.start

    @property
    def to_move(self) -> np.ndarray:
        """The side to move of each game (an int16 view)."""
        return self.boards[:, -1]

    @property
    def scores(self) -> np.ndarray:
        return self.boards[:, [self.pits, 2 * self.pits + 1]]

    def legal_mask(self) -> np.ndarray:
        mask = np.empty((len(self), self.pits), dtype=np.bool_)
        _legal(self._flat, self.width, mask)
        return mask

    @property
    def terminal(self) -> np.ndarray:
        """A row empty (its seeds then collected)."""
        return np.logical_not(self.legal_mask().any(axis=1))

    def _illegal(self, moves: np.ndarray) -> int:
        return int(_illegal_at(self._flat, self.width, moves))

    def _step(self, moves: np.ndarray) -> np.ndarray:
        flags = np.empty(len(self), dtype=np.int64)
        _step(self._flat, self.width, moves, self.game.rules, flags)
        return flags

    def playouts(self, games: int) -> np.ndarray:
        """Play random moves in every row, in compiled code, until ``games`` games have
        ended, each row starting a new game from the start when its game ends (or at once,
        if it is over): the wins of player 0, of player 1, and the draws.  The games still
        going on stay in the rows, where the next call goes on with them.  The work goes
        in chunks of PLAYOUT_CHUNK games a row, a few milliseconds each, so that Ctrl-C
        stops any number of playouts at once."""
        tally = np.zeros(3, dtype=np.int64)
        while games > tally.sum():
            chunk = min(games - int(tally.sum()), PLAYOUT_CHUNK * len(self))
            tally += _playouts(self.start, self._flat, chunk, self.game.rules, self.rng)
        return tally

    def state(self, index: int) -> SowingState:
        """Game ``index`` as a State (a copy)."""
        return SowingState(self.game, self.boards[index].copy())
