"""Five in a row as the learning frameworks see it (``parlour.encoding``)."""

from __future__ import annotations

import numpy as np

from parlour.core import Move, State
from parlour.encoding import Codec
from parlour.games.gomoku.game import GomokuState


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
