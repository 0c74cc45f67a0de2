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
    pit_count,
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

    def observed(self, stepper: Stepper, seat: int) -> np.ndarray:
        """From the stepper's board, which is laid out as a state's."""
        assert isinstance(stepper, SowingStepper)
        seen: np.ndarray = stepper.board[self.sides[seat]]
        return seen

    def stepper(self, state: State) -> Stepper | None:
        return SowingStepper.of(state)


TO_MOVE, OVER = 1 << 16, 1 << 17
"""A stepper's settled position as one number: the bits of the columns the side to move
may sow (at most 16 pits a side), the side to move times ``TO_MOVE``, ``OVER`` once over."""


@njit(cache=True, nogil=True)
def _settled(board: np.ndarray, over: bool) -> int:
    """``board`` settled (no column sowable once ``over``)."""
    columns = 0
    if not over:
        for column in range(pit_count(board)):
            if sowable(board, column):
                columns |= 1 << column
    return columns + TO_MOVE * int(board[-1]) + OVER * over


@njit(cache=True, nogil=True)
def _sow_settled(board: np.ndarray, column: int, rules: int) -> int:
    """``column`` sown by the rules' kernel, then :func:`_settled`: one compiled call a
    move, its one array the board."""
    return _settled(board, apply_move(board, column, rules) & GAME_OVER != 0)


class _Columns(dict[int, list[int]]):
    """The list of the columns in a number's bits, made once for each number: a stepper's
    :attr:`~parlour.encoding.Stepper.legal` (shared, so never changed)."""

    def __missing__(self, bits: int) -> list[int]:
        self[bits] = columns = [column for column in range(16) if bits >> column & 1]
        return columns


_COLUMNS = _Columns()


class SowingStepper(Stepper):
    """A sowing game's board sown in place by the rules' kernel (``apply_move``)."""

    def __init__(self, game: SowingGame, board: np.ndarray) -> None:
        self.game, self.board, self.rules = game, board, game.rules
        self._settle(_settled(board, bool(is_over(board))))

    @classmethod
    def of(cls, state: State) -> SowingStepper:
        assert isinstance(state, SowingState)
        return cls(state.game, state.board.copy())

    def _settle(self, settled: int) -> None:
        self.over = settled >= OVER
        self.to_move = settled >> 16 & 1
        self.legal = _COLUMNS[settled & 0xFFFF]

    def apply(self, action: int) -> None:
        settled = _sow_settled(self.board, action, self.rules)
        self.over, self.to_move = settled >= OVER, settled >> 16 & 1
        self.legal = _COLUMNS[settled & 0xFFFF]

    def state(self) -> SowingState:
        return SowingState(self.game, self.board.copy())

    def copy(self) -> SowingStepper:
        twin = object.__new__(SowingStepper)
        twin.game, twin.board, twin.rules = self.game, self.board.copy(), self.rules
        twin.over, twin.to_move, twin.legal = self.over, self.to_move, self.legal
        return twin
