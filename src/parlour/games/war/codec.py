"""War as the learning frameworks see it (``parlour.encoding``): no choices, so each
round both seats act with their one action (turning up their card), seat 0 first, and the
round is played when seat 1 has acted; a seat sees only which cards it holds (not their
order), never the opponent's."""

from __future__ import annotations

import numpy as np

from parlour.core import IllegalMove, Move, Reason, State
from parlour.encoding import Codec
from parlour.games.war.game import ROUND, WarState
from parlour.games.war.options import MAX_ROUNDS
from parlour.games.war.rules import card_name

CARDS = 52


class WarCodec(Codec):
    """One action, turning up one's card; the observation is which of the 52 cards the
    agent holds (its stack's order and the opponent's cards stay hidden)."""

    hidden = True
    simultaneous = True

    def __init__(self, start: State) -> None:
        assert isinstance(start, WarState)
        self.max_length = 2 * int(start.game.rules.max_rounds or MAX_ROUNDS)
        self.actions = 1
        self.high = 1
        self.shape = (CARDS,)
        self.dtype = np.int8

    def move(self, state: State, action: int) -> Move:
        return ROUND if action == 0 else action

    def action(self, move: Move) -> int:
        return 0

    def observe(self, state: State, seat: int) -> np.ndarray:
        assert isinstance(state, WarState)
        held = np.zeros(CARDS, dtype=np.int8)
        held[list(state.stacks[seat])] = 1
        return held

    def act(self, state: State, seat: int, action: int) -> tuple[State, int]:
        if action != 0:
            raise IllegalMove(action, "War's one action is 0: turn up your card")
        if seat == 0:
            return state, 1
        return state.play(ROUND), 0

    def truncated(self, state: State) -> bool:
        assert isinstance(state, WarState)
        return state.result is not None and state.result[0] is Reason.ROUND_LIMIT

    def seen(self, state: State, seat: int) -> str:
        assert isinstance(state, WarState)
        return " ".join(sorted(card_name(c, ascii_only=True) for c in state.stacks[seat]))
