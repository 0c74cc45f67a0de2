"""Ayo as the learning frameworks see it (``parlour.encoding``)."""

from __future__ import annotations

import numpy as np

from parlour.core import State
from parlour.encoding import Codec
from parlour.games.ayo.game import AyoState
from parlour.games.ayo.kernel import HOUSES, MAX_ROUNDS, TOKENS

MAX_MOVES_A_ROUND = 2000
"""The longest round the frameworks are told of: a round ends when a position comes back,
and random play repeats one far sooner."""
MAX_MOVES = 25_000
"""The longest game the frameworks are told of (OpenSpiel's adapter cuts a game there):
60 random games of the default rules took 2,062 moves on average, 8,694 at most."""


class AyoCodec(Codec):
    """An action is a house 0..11; the observation is the twelve houses starting from
    the agent's own row (player_1's view is turned by six), which of them the agent
    owns this round, and the tokens each has captured (the agent's first)."""

    bounded = False

    def __init__(self, start: State) -> None:
        rounds = start.game.options["max_rounds"] or MAX_ROUNDS
        self.max_length = min(MAX_MOVES_A_ROUND * int(rounds), MAX_MOVES)
        self.actions = HOUSES
        self.high = TOKENS
        self.shape = (2 * HOUSES + 2,)
        self.dtype = np.int16

    def observe(self, state: State, seat: int) -> np.ndarray:
        assert isinstance(state, AyoState)
        turn = 6 * seat
        board = np.roll(np.array(state.board), -turn)
        mine = np.roll(np.array(state.owners) == seat, -turn)
        captured = state.scores[seat], state.scores[1 - seat]
        return np.concatenate([board, mine, captured]).astype(np.int16)

    def truncated(self, state: State) -> bool:
        return TOKENS not in state.scores
