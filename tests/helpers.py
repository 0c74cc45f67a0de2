"""What several test modules need: positions reached by random play."""

from __future__ import annotations

import random

from parlour.core import State


def random_play(state: State, rng: random.Random, plies: int) -> State:
    """``state`` after up to ``plies`` random legal moves (fewer if the game ends)."""
    for _ in range(plies):
        if state.is_over:
            break
        state = state.play(rng.choice(state.legal_moves()))
    return state
