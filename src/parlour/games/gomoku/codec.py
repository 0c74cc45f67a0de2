"""Five in a row as the learning frameworks see it (``parlour.encoding``)."""

from __future__ import annotations

import numpy as np

from parlour.core import Move, State
from parlour.encoding import Codec, Stepper
from parlour.games.gomoku.game import EMPTY, GomokuGame, GomokuState, makes_five


class GomokuCodec(Codec):
    """An action is ``row * size + column`` (row 0 at the top); the observation is two
    planes: the agent's stones, then the opponent's."""

    def __init__(self, start: State) -> None:
        assert isinstance(start, GomokuState)
        self.size = start.size
        self.actions = self.size * self.size
        self.max_length = self.actions
        self.high = 1
        self.shape = (self.size, self.size, 2)
        self.dtype = np.int8

    def move(self, state: State, action: int) -> Move:
        return divmod(action, self.size)

    def action(self, move: Move) -> int:
        assert isinstance(move, tuple)
        row, col = move
        return int(row) * self.size + int(col)

    def observe(self, state: State, seat: int) -> np.ndarray:
        assert isinstance(state, GomokuState)
        board = state.board
        return np.stack([board == seat + 1, board == 2 - seat], axis=-1).astype(np.int8)

    def stepper(self, state: State) -> Stepper | None:
        return GomokuStepper.of(state)


class GomokuStepper(Stepper):
    """A five-in-a-row board with stones placed in place, each move's five found by the
    rules' kernel (``makes_five``, on the move's four lines); the empty points kept as a
    list, not found again each move."""

    def __init__(
        self, game: GomokuGame, board: np.ndarray, to_move: int, empty: list[int], over: bool
    ) -> None:
        self.game, self.board, self.to_move, self.empty = game, board, to_move, empty
        self.over = over
        self.legal = [] if over else empty
        self.last: tuple[int, int] | None = None

    @classmethod
    def of(cls, state: State) -> GomokuStepper:
        assert isinstance(state, GomokuState)
        empty = np.flatnonzero(state.board.ravel() == EMPTY).tolist()
        return cls(state.game, state.board.copy(), state.to_move, empty, state.is_over)

    def apply(self, action: int) -> None:
        row, col = divmod(action, self.game.size)
        stone = self.to_move + 1
        self.board[row, col] = stone
        self.empty.remove(action)
        self.last, self.to_move = (row, col), 1 - self.to_move
        self.over = makes_five(self.board, row, col, stone, self.game.exact) or not self.empty
        self.legal = [] if self.over else self.empty

    def state(self) -> GomokuState:
        return GomokuState(self.game, self.board.copy(), self.to_move, self.last)

    def copy(self) -> GomokuStepper:
        twin = GomokuStepper(
            self.game, self.board.copy(), self.to_move, list(self.empty), self.over
        )
        twin.last = self.last
        return twin
