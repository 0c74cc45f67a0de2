"""The sowing games as the learning frameworks see them (``parlour.encoding``)."""

from __future__ import annotations

import numpy as np

from parlour.core import State
from parlour.encoding import Codec
from parlour.games.sowing.game import SowingState, pit_index, store_index

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
