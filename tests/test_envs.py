"""The PettingZoo environments: PettingZoo's own API and seed tests for every game, and
what its tests cannot know (rewards, margins, truncations, hidden cards, the board)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo import AECEnv
from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, render_test, seed_test

import parlour
from parlour.envs import (
    AGENTS,
    ParlourEnv,
    ayo_v0,
    env,
    gomoku_v0,
    kalah_v0,
    mancala_v0,
    raw_env,
    war_v0,
)
from parlour.games.gomoku.game import GomokuState
from parlour.games.sowing.game import SowingState
from parlour.games.war.game import WarState

MAKERS: dict[str, Callable[[], AECEnv]] = {
    "kalah": kalah_v0.env,
    "mancala": mancala_v0.env,
    "ayo": functools.partial(ayo_v0.env, max_rounds=2),
    "gomoku": functools.partial(gomoku_v0.env, size=7),
    "war": functools.partial(war_v0.env, deck="small", max_rounds=30),
}


@pytest.mark.parametrize("name", MAKERS)
def test_pettingzoo_api_and_seed_tests(name: str) -> None:
    api_test(MAKERS[name](), num_cycles=200)
    seed_test(MAKERS[name], num_cycles=200)


@pytest.mark.parametrize("name", MAKERS)
def test_pettingzoo_render_test_in_every_mode(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    render_test(MAKERS[name])
    capsys.readouterr()
    shown = raw_env(name, render_mode="human")
    shown.reset(seed=1)
    assert shown.render() is None
    assert capsys.readouterr().out == shown.state.render() + "\n"


def play_out(name: str, seed: int, **options: object) -> tuple[ParlourEnv, list[int]]:
    """A random game through the environment, and the actions played."""
    game_env = raw_env(name, render_mode="ansi", **options)
    game_env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actions = []
    while not (game_env.terminations["player_0"] or game_env.truncations["player_0"]):
        mask = game_env.observe(game_env.agent_selection)["action_mask"]
        legal = sorted(game_env.codec.action(m) for m in game_env.state.legal_moves())
        assert np.flatnonzero(mask).tolist() == legal
        action = int(rng.choice(np.flatnonzero(mask)))
        actions.append(action)
        game_env.step(action)
    return game_env, actions


@pytest.mark.parametrize("name", ["kalah", "mancala"])
def test_a_sowing_game_through_the_env_is_the_states_game(name: str) -> None:
    game_env, actions = play_out(name, 5)
    state = parlour.game(name).start()
    for action in actions:
        state = state.play(action)
    assert game_env.state == state and state.is_over
    assert game_env.render() == state.render()
    margin = state.scores[0] - state.scores[1]
    assert game_env.infos["player_0"]["margin"] == margin == -game_env.infos["player_1"]["margin"]
    assert game_env.rewards["player_0"] == np.sign(margin) == -game_env.rewards["player_1"]
    assert game_env.terminations["player_1"] and not game_env.truncations["player_1"]
    seen = game_env.observe("player_1")["observation"]
    assert isinstance(state, SowingState)
    assert seen.tolist() == [*state.row(1), state.scores[1], *state.row(0), state.scores[0]]


def test_ayo_round_limit_is_a_truncation_with_the_rounds_winner() -> None:
    game_env, _ = play_out("ayo", 2, max_rounds=1)
    state = game_env.state
    assert 48 not in state.scores  # one round never captures every token from the start
    assert game_env.truncations == {"player_0": True, "player_1": True}
    assert not any(game_env.terminations.values())
    expected = 0 if state.winner is None else (1 if state.winner == 0 else -1)
    assert game_env.rewards["player_0"] == expected


def test_war_agents_see_only_their_own_cards_and_the_limit_truncates() -> None:
    game_env, actions = play_out("war", 3, max_rounds=1)  # 52 cards: nobody runs out
    assert actions == [0, 0]  # player_0 turns up, then player_1, then the round is played
    state = game_env.state
    assert isinstance(state, WarState)
    assert state.rounds == 1 and all(state.stacks)
    for seat, agent in enumerate(("player_0", "player_1")):
        seen = game_env.observe(agent)["observation"]
        assert sorted(np.flatnonzero(seen).tolist()) == sorted(state.stacks[seat])
    assert game_env.truncations["player_0"] and not game_env.terminations["player_0"]
    fewer = 0 if len(state.stacks[0]) < len(state.stacks[1]) else 1  # the seed's rule
    assert game_env.rewards[("player_0", "player_1")[fewer]] == 1


def test_war_observation_hides_the_opponents_cards() -> None:
    a, b = (raw_env("war", deck="small", seed=1) for _ in range(2))
    a.reset()
    b.reset()
    # Same cards for player 0, player 1's stack reordered: player 0 sees no difference.
    b.state = b.game.parse(a.state.notation().replace(*_swap_first_two(a.state.notation())))
    assert b.state != a.state
    assert (a.observe("player_0")["observation"] == b.observe("player_0")["observation"]).all()


def _swap_first_two(notation: str) -> tuple[str, str]:
    stack1 = notation.split()[0].split("/")[1]
    first, second, *rest = stack1.split(",")
    return stack1, ",".join([second, first, *rest])


def test_gomoku_actions_are_points_and_a_bad_one_is_refused() -> None:
    game_env = raw_env("gomoku", size=5)
    game_env.reset()
    game_env.step(7)  # row 1, column 2
    assert isinstance(game_env.state, GomokuState)
    assert game_env.state.board[1, 2] == 1
    assert game_env.observe("player_1")["observation"][1, 2].tolist() == [0, 1]
    with pytest.raises(parlour.IllegalMove):
        game_env.step(7)
    assert game_env.agent_selection == "player_1"


def test_a_seeded_reset_repeats_the_draw() -> None:
    firsts = set()
    for seed in range(6):
        game_env = env("ayo")
        game_env.reset(seed=seed)
        again = env("ayo")
        again.reset(seed=seed)
        assert game_env.unwrapped.state == again.unwrapped.state
        firsts.add(game_env.agent_selection)
    assert firsts == {"player_0", "player_1"}


def test_war_has_a_parallel_environment_that_passes_pettingzoos_test() -> None:
    parallel_api_test(war_v0.parallel_env(deck="small", max_rounds=30), num_cycles=100)
    parallel_api_test(war_v0.parallel_env(max_cycles=5), num_cycles=100)
    game_env = war_v0.parallel_env(deck="small", max_rounds=30)
    observations, _ = game_env.reset(seed=3)
    seen = {agent: observations[agent]["observation"].copy() for agent in AGENTS}
    steps = 0
    while game_env.agents:
        observations, rewards, terminations, truncations, _ = game_env.step(
            dict.fromkeys(game_env.agents, 0)
        )
        steps += 1
    turns = raw_env("war", deck="small", max_rounds=30)
    turns.reset(seed=3)
    for _ in range(2 * steps):  # the same game, each seat acting in turn
        turns.step(0)
    state = game_env.aec.state
    assert isinstance(state, WarState) and state.is_over and state == turns.state
    assert any(terminations.values()) or any(truncations.values())
    assert sum(rewards.values()) == 0 and seen["player_0"].sum() == seen["player_1"].sum()


def test_a_game_played_in_turns_has_no_parallel_environment() -> None:
    with pytest.raises(ValueError, match="played in turns"):
        kalah_v0.parallel_env()


def test_each_family_is_a_module_with_pettingzoos_three_makers() -> None:
    import parlour.envs.gomoku_v0

    for family in (kalah_v0, mancala_v0, ayo_v0, gomoku_v0, war_v0):
        assert isinstance(family, ModuleType)
        assert isinstance(family.env(), AECEnv) and isinstance(family.raw_env(), ParlourEnv)
    assert parlour.envs.gomoku_v0 is gomoku_v0
    assert kalah_v0.raw_env().metadata["name"] == "kalah_v0"


def test_war_passes_pettingzoos_max_cycles_test() -> None:
    max_cycles_test(war_v0)


@pytest.mark.parametrize("cycles", [1, 3])
def test_max_cycles_cuts_a_game_in_turns_short_with_no_winner(cycles: int) -> None:
    game_env = raw_env("ayo", max_cycles=cycles)
    game_env.reset(seed=2)
    steps = 0
    while not game_env.ended:
        mask = game_env.observe(game_env.agent_selection)["action_mask"]
        game_env.step(int(np.flatnonzero(mask)[0]))
        steps += 1
    assert steps == 2 * cycles and not game_env.state.is_over
    assert all(game_env.truncations.values()) and not any(game_env.terminations.values())
    assert game_env.rewards == dict.fromkeys(AGENTS, 0)
    assert not game_env.observe(game_env.agent_selection)["action_mask"].any()


@pytest.mark.parametrize("name", ["kalah", "gomoku"])
def test_an_illegal_action_ends_the_game_with_the_illegal_reward(name: str) -> None:
    small: dict[str, Any] = {"size": 7} if name == "gomoku" else {}
    api_test(env(name, illegal_reward=-1, **small))
    game_env = env(name, illegal_reward=-1)
    game_env.reset(seed=1)
    while (mask := game_env.observe(game_env.agent_selection)["action_mask"]).all():
        game_env.step(int(np.flatnonzero(mask)[0]))  # until an action is not allowed
    loser = game_env.agent_selection
    game_env.step(int(np.flatnonzero(mask == 0)[0]))
    winner = AGENTS[1 - AGENTS.index(loser)]
    assert game_env.terminations[loser] and game_env.rewards[loser] == -1
    assert game_env.terminations[winner] and game_env.rewards[winner] == 0
