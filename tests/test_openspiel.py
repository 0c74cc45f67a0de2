"""The OpenSpiel games: OpenSpiel's random-simulation test and its MCTS bot on each, and
the parameters meaning parlour's options."""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pyspiel")

import pyspiel
from open_spiel.python.algorithms import mcts, minimax

import parlour
from parlour.kit import analyze
from parlour.openspiel import GAME_CLASSES
from parlour.search.limit import Limit

GAMES = tuple(GAME_CLASSES)

SMALL: dict[str, dict[str, Any]] = {
    "kalah": {"pits": 4, "seeds": 2},
    "mancala": {"pits": 4, "seeds": 2},
    "ayo": {"max_rounds": 1},
    "gomoku": {"size": 5},
    "war": {"deck": "small", "max_rounds": 10, "deals": 20},
}


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_random_simulations(name: str) -> None:
    spiel = pyspiel.load_game(f"parlour_{name}", SMALL[name])
    pyspiel.random_sim_test(spiel, num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("name", GAMES)
def test_games_and_states_pickle_and_serialize_to_equal_ones(name: str) -> None:
    spiel = pyspiel.load_game(f"parlour_{name}", SMALL[name])
    state, rng = spiel.new_initial_state(), np.random.RandomState(1)
    for _ in range(5):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    again = pickle.loads(pickle.dumps(state))
    assert str(pickle.loads(pickle.dumps(spiel))) == str(spiel)
    assert again.history() == state.history() and again.state == state.state
    game_again, state_again = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(spiel, state)
    )
    assert str(game_again) == str(spiel) and state_again.state == state.state


@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=pytest.mark.slow) if n == "ayo" else n for n in GAMES]
)
def test_openspiel_mcts_plays_a_legal_game(name: str) -> None:
    """MCTS (random rollouts) against a random mover; every action is legal, and replayed
    on parlour's own state it reaches the same end and the same returns."""
    spiel = pyspiel.load_game(f"parlour_{name}", SMALL[name])
    rng = np.random.RandomState(4)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = mcts.MCTSBot(spiel, 1.4, 12, evaluator, random_state=rng)
    state = spiel.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            action = int(rng.choice(outcomes, p=probabilities))
        elif state.current_player() == 0:
            action = bot.step(state)
        else:
            action = int(rng.choice(state.legal_actions()))
        assert state.is_chance_node() or action in state.legal_actions()
        state.apply_action(action)
    final = state.state
    assert final.is_over
    expected = {None: [0.0, 0.0], 0: [1.0, -1.0], 1: [-1.0, 1.0]}[final.winner]
    assert state.returns() == expected


def test_parameters_are_parlours_options() -> None:
    spiel = pyspiel.load_game("parlour_kalah(seeds=3,pits=5)")
    state = spiel.new_initial_state()
    assert state.state == parlour.game("kalah", seeds=3, pits=5).start()
    assert spiel.num_distinct_actions() == 5
    state.apply_action(2)  # column C: 3 seeds, the last in the store
    assert state.current_player() == 0
    assert str(state) == parlour.game("kalah", seeds=3, pits=5).start().play(2).notation()
    ayo = pyspiel.load_game("parlour_ayo")
    assert ayo.new_initial_state().is_chance_node()  # no first: the starter is drawn
    assert not pyspiel.load_game("parlour_ayo(first=1)").new_initial_state().is_chance_node()
    for bad in ("parlour_war(deals=0)", "parlour_kalah(pits=0)"):
        with pytest.raises(parlour.BadOption):
            pyspiel.load_game(bad)


def test_war_observations_hide_the_opponents_cards() -> None:
    spiel = pyspiel.load_game("parlour_war", {"deck": "small"})
    state = spiel.new_initial_state()
    state.apply_action(3)  # deal 3
    for seat in (0, 1):
        seen = np.flatnonzero(state.observation_tensor(seat)).tolist()
        assert sorted(seen) == sorted(state.state.stacks[seat])
    assert state.observation_string(0) != state.observation_string(1)


@pytest.mark.parametrize("seeds", [2, 3])
def test_openspiel_alpha_beta_solves_small_kalah_as_parlours_engine_does(seeds: int) -> None:
    """OpenSpiel's alpha-beta search to the end on parlour_kalah: the game's value (win,
    loss or draw for the first player) is the sign of parlour's engine's exact value."""
    spiel = pyspiel.load_game("parlour_kalah", {"pits": 3, "seeds": seeds})
    value, _ = minimax.alpha_beta_search(spiel, maximum_depth=100)
    result = analyze(parlour.game("kalah", pits=3, seeds=seeds).start(), Limit(depth=60))
    assert result.exact
    assert value == np.sign(result.value)


def _api_case(name: str) -> type:
    """OpenSpiel's own API test (``integration_tests/api_test.py``, its checks on sampled
    states) for ``parlour_NAME`` with small parameters, as a test class pytest collects."""
    from open_spiel.integration_tests import api_test

    spiel = pyspiel.load_game(f"parlour_{name}", SMALL[name])
    body = {"game_name": f"parlour_{name}", "game": spiel}
    return type(f"TestOpenSpielApi_{name}", (api_test.EnforceAPIOnPartialTreeBase,), body)


for _name in GAMES:
    globals()[f"TestOpenSpielApi_{_name}"] = _api_case(_name)


@pytest.mark.parametrize(
    ("name", "params"),
    [("war", {"deck": "small", "max_rounds": 3, "deals": 3}), ("kalah", {"pits": 2, "seeds": 2})],
)
def test_information_states_have_perfect_recall(name: str, params: dict[str, Any]) -> None:
    """OpenSpiel's own check over the whole tree: one information state, one history of
    the player's own information states and actions."""
    from open_spiel.integration_tests.api_test import _assert_is_perfect_recall

    seen = _assert_is_perfect_recall(pyspiel.load_game(f"parlour_{name}", params))
    assert seen  # some information states were checked


def test_war_information_states_are_each_players_own() -> None:
    spiel = pyspiel.load_game("parlour_war", {"deck": "small", "max_rounds": 5})
    state = spiel.new_initial_state()
    state.apply_action(3)
    for _ in range(4):
        state.apply_action(0)
    mine, theirs = state.information_state_string(0), state.information_state_string(1)
    assert mine != theirs and "played 0" in mine
    for card in state.state.stacks[1]:
        if card not in state.state.stacks[0]:
            from parlour.games.war.rules import card_name

            assert card_name(card, ascii_only=True) not in mine.splitlines()[-1].split()
    public = make_observation_of(spiel, public=True, private=pyspiel.PrivateInfoType.NONE)
    assert public.string_from(state, 0) == public.string_from(state, 1)


def make_observation_of(spiel: Any, public: bool, private: Any) -> Any:
    from open_spiel.python.observation import make_observation

    kind = pyspiel.IIGObservationType(
        public_info=public, perfect_recall=False, private_info=private
    )
    return make_observation(spiel, kind)


def test_a_perfect_information_game_has_no_private_observation() -> None:
    spiel = pyspiel.load_game("parlour_kalah", SMALL["kalah"])
    state = spiel.new_initial_state()
    private = make_observation_of(
        spiel, public=False, private=pyspiel.PrivateInfoType.SINGLE_PLAYER
    )
    public = make_observation_of(spiel, public=True, private=pyspiel.PrivateInfoType.NONE)
    assert private.string_from(state, 0) == "" and public.string_from(state, 0)
    assert public.string_from(state, 0) == public.string_from(state, 1)
