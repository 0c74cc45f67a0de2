"""The sowing games as the learning frameworks see them (``parlour.encoding``)."""

from __future__ import annotations

import numpy as np
from numba import njit

from parlour.core import State
from parlour.encoding import Codec, Stepper
from parlour.games.sowing.game import (
    GAME_OVER,
    SowingGame,
    SowingState,
    apply_move,
    is_over,
    pit_index,
    sowable,
    store_index,
)

MAX_MOVES = 1000
"""The longest sowing game the frameworks are told of (OpenSpiel's own ``mancala``
bound)."""


class SowingCodec(Codec):
    """An action is a column of the agent's own row; the observation is the agent's
    pits (by column) and store, then the opponent's."""

    def __init__(self, start: State) -> None:
        assert isinstance(start, SowingState)
        pits = start.pits
        self.actions = pits
        self.high = start.game.total_seeds
        self.shape = (2 * pits + 2,)
        self.dtype = np.int16
        self.max_length = MAX_MOVES
        self.rows = [np.array([pit_index(p, c, pits) for c in range(pits)]) for p in (0, 1)]
        """Each player's pits in the board array, by column."""
        side = [[*self.rows[p], store_index(p, pits)] for p in (0, 1)]
        self.sides = [np.array(side[p] + side[1 - p]) for p in (0, 1)]
        """Each seat's observation as indexes of the board array (its own side first)."""

    def mask(self, state: State) -> np.ndarray:
        """The columns of the mover's row that hold seeds (array indexing, for speed)."""
        assert isinstance(state, SowingState)
        if state.is_over:
            return np.zeros(self.actions, dtype=np.int8)
        mask: np.ndarray = (state.board[self.rows[state.to_move]] > 0).astype(np.int8)
        return mask

    def observe(self, state: State, seat: int) -> np.ndarray:
        assert isinstance(state, SowingState)
        seen: np.ndarray = state.board[self.sides[seat]]
        return seen

    def stepper(self, state: State) -> Stepper | None:
        return SowingStepper.of(state)


@njit(cache=True, nogil=True)
def _settled(board: np.ndarray, over: bool, out: np.ndarray) -> int:
    """The columns the side to move may sow, into ``out`` (none once ``over``), with the
    side to move: ``count + 256 * to_move``."""
    count = 0
    for column in range(out.shape[0]):
        if not over and sowable(board, column):
            out[count] = column
            count += 1
    return count + 256 * int(board[-1])


@njit(cache=True, nogil=True)
def _sow_settled(board: np.ndarray, column: int, rules: int, out: np.ndarray) -> int:
    """``column`` sown by the rules' kernel, then :func:`_settled`, plus 512 if the game
    is over: one compiled call a move."""
    over = apply_move(board, column, rules) & GAME_OVER != 0
    return _settled(board, over, out) + 512 * over


class SowingStepper(Stepper):
    """A sowing game's board sown in place by the rules' kernel (``apply_move``)."""

    def __init__(self, game: SowingGame, board: np.ndarray) -> None:
        self.game, self.board, self.rules = game, board, game.rules
        self._columns = np.empty(game.pits, dtype=np.int64)
        over = bool(is_over(board))
        self._settle(_settled(board, over, self._columns) + 512 * over)

    @classmethod
    def of(cls, state: State) -> SowingStepper:
        assert isinstance(state, SowingState)
        return cls(state.game, state.board.copy())

    def _settle(self, settled: int) -> None:
        self.over = settled >= 512
        self.to_move = (settled >> 8) & 1
        self.legal = self._columns.tolist()[: settled & 255]

    def apply(self, action: int) -> None:
        self._settle(_sow_settled(self.board, action, self.rules, self._columns))

    def state(self) -> SowingState:
        return SowingState(self.game, self.board.copy())

    def copy(self) -> SowingStepper:
        return SowingStepper(self.game, self.board.copy())
