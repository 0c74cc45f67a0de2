"""The steppers (a game's position stepped in place by its compiled kernels) play the
states' game exactly, and OpenSpiel's adapter through them is the adapter through states:
the same legal actions, positions, ends and refusals."""

from __future__ import annotations

import copy
import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pyspiel")

import pyspiel

import parlour.openspiel  # noqa: F401  (registers parlour's games)
from parlour.core import IllegalMove, State, game
from parlour.encoding import Stepper
from parlour.kit import kit_of

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("kalah", {}),
    ("kalah", {"empty_capture": False, "pits": 4, "seeds": 3}),
    ("mancala", {}),
    ("gomoku", {"size": 7}),
    ("gomoku", {"size": 9, "exact_five": True}),
]


def stepper_of(state: State) -> Stepper:
    found = kit_of(state.game).codec(state).stepper(state)
    assert found is not None
    return found


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_a_stepper_plays_the_states_game(name: str, options: dict[str, Any]) -> None:
    rules = game(name, **options)
    codec = kit_of(rules).codec(rules.start())
    rng = random.Random(7)
    for _ in range(20):
        state = rules.start()
        stepper = stepper_of(state)
        while True:
            assert stepper.legal == np.flatnonzero(codec.mask(state)).tolist()
            assert (stepper.over, stepper.state(), stepper.to_move) == (
                state.is_over,
                state,
                state.to_move,
            )
            if state.is_over:
                break
            action = rng.choice(stepper.legal)
            twin = stepper.copy()
            stepper.apply(action)
            state = state.play(codec.move(state, action))
            assert twin.state() != stepper.state()  # a copy is not stepped with it
        assert stepper.state().winner == state.winner


@pytest.mark.parametrize("name", ["parlour_kalah", "parlour_gomoku(size=7)"])
def test_the_adapter_through_a_stepper_clones_pickles_and_refuses_as_states(name: str) -> None:
    spiel = pyspiel.load_game(name)
    state = spiel.new_initial_state()
    rng = random.Random(3)
    for _ in range(5):
        state.apply_action(rng.choice(state.legal_actions()))
    clone = state.clone()
    copied = copy.deepcopy(state)
    first = state.legal_actions()[0]
    state.apply_action(first)
    assert clone.legal_actions() == copied.legal_actions() and first in clone.legal_actions()
    assert str(clone) != str(state) and str(clone) == str(copied)
    again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(spiel, state))[1]
    assert str(again) == str(state) and again.legal_actions() == state.legal_actions()
    assert again.legal_actions(state.current_player()) == state.legal_actions()
    assert again.legal_actions(1 - state.current_player()) == []
    for refused in (spiel.num_distinct_actions(), *(set(range(6)) - set(state.legal_actions()))):
        with pytest.raises(IllegalMove):
            state.apply_action(refused)
    assert state.legal_actions() == again.legal_actions()  # nothing changed


@pytest.mark.parametrize("name", ["parlour_kalah", "parlour_gomoku(size=7)", "parlour_war"])
def test_a_game_stepped_from_python_has_the_history_of_one_stepped_by_openspiels_cpp(
    name: str,
) -> None:
    """A step from Python skips OpenSpiel's C++ (and so its own history): the history,
    full history, move number and serialization are the adapter's, and agree with those
    of the same game stepped through the C++ ``ApplyAction``."""
    spiel = pyspiel.load_game(name)
    python, cpp = spiel.new_initial_state(), spiel.new_initial_state()
    rng = random.Random(5)
    assert python.is_initial_state() and python.move_number() == 0
    for _ in range(12):
        if python.is_terminal():
            break
        moves = python.chance_outcomes() if python.is_chance_node() else None
        action = moves[0][0] if moves else rng.choice(python.legal_actions())
        python.apply_action(action)
        pyspiel.State.apply_action(cpp, action)  # the C++ way: OpenSpiel's own history
    assert python.history() == cpp.history() == pyspiel.State.history(cpp)
    assert python.history_str() == cpp.history_str() == pyspiel.State.history_str(cpp)
    assert python.move_number() == cpp.move_number() == pyspiel.State.move_number(cpp)
    assert [(s.player, s.action) for s in python.full_history()] == [
        (s.player, s.action) for s in pyspiel.State.full_history(cpp)
    ]
    assert not python.is_initial_state()
    clone = python.clone()
    again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(spiel, python))[1]
    if not python.is_terminal():
        python.apply_action(python.legal_actions()[0])
    assert clone.history() == again.history() == cpp.history() != python.history()


def test_a_steppers_shared_legal_actions_are_never_changed_by_a_reader() -> None:
    """A sowing stepper's legal list is shared by every position with those columns: the
    adapter hands out copies."""
    state = pyspiel.load_game("parlour_kalah").new_initial_state()
    state.legal_actions().clear()
    other = pyspiel.load_game("parlour_kalah").new_initial_state()
    assert state.legal_actions() == other.legal_actions() == [0, 1, 2, 3, 4, 5]


def test_a_stepper_is_observed_as_its_state() -> None:
    rules = game("kalah")
    codec = kit_of(rules).codec(rules.start())
    stepper, rng = stepper_of(rules.start()), random.Random(2)
    while not stepper.over:
        for seat in (0, 1):
            assert (codec.observed(stepper, seat) == codec.observe(stepper.state(), seat)).all()
        stepper.apply(rng.choice(stepper.legal))


def test_ayo_declares_a_sane_length_and_is_cut_there_unfinished() -> None:
    """Ayo's rounds end only when a position comes back, so its rules bound no game: its
    declared length is a cut, where the game ends unfinished (a draw), as OpenSpiel's own
    games end at their limits."""
    spiel = pyspiel.load_game("parlour_ayo(first=0)")
    assert 5_000 <= spiel.max_game_length() <= 100_000
    assert pyspiel.load_game("parlour_ayo(first=0,max_rounds=1)").max_game_length() == 2_000
    spiel.cut = 30  # a short cut, to reach it
    state, rng = spiel.new_initial_state(), random.Random(1)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.move_number() == 30 and not state.state.is_over
    assert state.legal_actions() == [] and state.returns() == [0.0, 0.0]
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
