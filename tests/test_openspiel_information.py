"""OpenSpiel information-state tensors: what the seat saw at each step, a row a step, for
the games whose longest game keeps the tensor small (all but Ayo)."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pyspiel")

import pyspiel

import parlour.openspiel  # noqa: F401  (registers parlour's games)
from parlour.openspiel import RECALLED_VALUES


def played(name: str, moves: int, seed: int = 5) -> tuple[object, object, list[object]]:
    """The game, a state ``moves`` random steps in, and the parlour states on the way."""
    spiel = pyspiel.load_game(name)
    state = spiel.new_initial_state()
    rng = random.Random(seed)
    seen = [state.state]
    for _ in range(moves):
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        seen.append(state.state)
    return spiel, state, seen


@pytest.mark.parametrize("name", ["parlour_kalah", "parlour_gomoku(size=7)", "parlour_war"])
def test_each_row_is_what_the_seat_saw_at_that_step(name: str) -> None:
    spiel, state, seen = played(name, 9)
    codec = spiel.codec  # type: ignore[attr-defined]
    for player in (0, 1):
        rows = np.array(state.information_state_tensor(player))  # type: ignore[attr-defined]
        rows = rows.reshape(spiel.information_state_tensor_shape()[0], -1)  # type: ignore[attr-defined]
        for step, position in enumerate(seen):
            wanted = 0 if position is None else codec.observe(position, player).ravel()
            assert (rows[step] == wanted).all()
        assert not rows[len(seen) :].any()


def test_war_information_states_hide_the_opponents_cards() -> None:
    _, state, _ = played("parlour_war(deck=small,max_rounds=5)", 5)
    mine = state.information_state_tensor(0)  # type: ignore[attr-defined]
    theirs = state.information_state_tensor(1)  # type: ignore[attr-defined]
    assert mine != theirs


def test_a_game_too_long_for_a_tensor_has_strings_only() -> None:
    ayo = pyspiel.load_game("parlour_ayo")
    assert not ayo.get_type().provides_information_state_tensor
    assert ayo.get_type().provides_information_state_string
    kalah = pyspiel.load_game("parlour_kalah")
    assert np.prod(kalah.information_state_tensor_shape()) <= RECALLED_VALUES
