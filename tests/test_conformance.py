"""The conformance suite: every registered game keeps the contract of ``parlour.core``.

As OpenSpiel runs one battery of checks over each of its games, this runs one over each
game of ``parlour.game_names()`` (a new game is checked the moment it registers): random
games played to their end with every invariant checked at every position.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any

import pytest

import parlour
from parlour.core import IllegalMove, State
from parlour.kit import kit_of, thinker
from parlour.search import Stop

SMALL = {"gomoku": {"size": 9}, "ayo": {"max_rounds": 2, "first": 0}}
"""Options that keep a random game short; every other game plays its preset."""
JUNK: tuple[Any, ...] = (None, -1, 10**9, "x", (0,), (99, 99), 2.5)
"""Moves no game takes."""
GAMES = sorted(parlour.game_names())
PERFT_LEAVES = 5_000
"""The largest tree the slow walk of the states counts."""


def start(name: str) -> State:
    return parlour.game(name, **SMALL.get(name, {})).start()


def snapshot(state: State) -> tuple[str, int, bool, Any, tuple[Hashable, ...]]:
    """Everything a state shows: if any of it changes, the state was mutated."""
    return state.notation(), state.to_move, state.is_over, state.scores, state.legal_moves()


def random_game(name: str, seed: int) -> list[State]:
    """The positions of one random game of ``name``, from the start to the end."""
    rng = random.Random(seed)
    states = [start(name)]
    while not states[-1].is_over:
        assert len(states) < 5000, "the game does not end"
        states.append(states[-1].play(rng.choice(states[-1].legal_moves())))
    return states


@pytest.mark.parametrize("name", GAMES)
def test_random_games_keep_every_invariant(name: str) -> None:
    for seed in range(3):
        states = random_game(name, seed)
        seen: set[Hashable] = set()  # every move legal somewhere in this game
        for state in states:
            seen.update(state.legal_moves())
        for state in states:
            check_position(state, seen)
        end = states[-1]
        assert end.legal_moves() == () and end.winner in (0, 1, None)


def check_position(state: State, seen: set[Hashable]) -> None:
    before = snapshot(state)
    game = state.game
    again = game.parse(state.notation())
    assert again == state and again.to_move == state.to_move and hash(again) == hash(state)
    assert len(state.scores) == 2 and all(isinstance(s, int) for s in state.scores)
    legal = state.legal_moves()
    assert bool(legal) != state.is_over
    assert state.winner is None or state.is_over
    for move in legal:
        child = state.play(move)
        assert (child.game == game and child != state) or child.notation() != state.notation()
        assert state.parse_move(state.move_name(move)) == move
    for move in (*(seen - set(legal)), *JUNK):
        with pytest.raises(IllegalMove):
            state.play(move)
    assert snapshot(state) == before  # nothing above changed the state


@pytest.mark.parametrize("name", GAMES)
def test_the_kernel_perft_equals_the_walk_of_the_states(name: str) -> None:
    """A game's own perft (a kernel, where it has one) counts what walking the states
    with ``legal_moves`` and ``play`` counts (to the depths whose trees are small)."""
    for state in random_game(name, 7)[::9][:4]:
        for depth in (1, 2, 3):
            leaves = state.perft(depth)
            if leaves > PERFT_LEAVES:
                break
            assert leaves == State.perft(state, depth), (state.notation(), depth)


@pytest.mark.parametrize("name", GAMES)
def test_every_level_of_the_computer_plays_a_legal_move(name: str) -> None:
    states = random_game(name, 11)
    for level in (level.number for level in kit_of(name).levels):
        player = thinker(name, level, seconds=0.05)  # one thinker a game, as a player has
        for state in (states[0], states[(len(states) - 1) // 2]):  # neither is the end
            move, _ = player.best_move(state, Stop())
            assert move in state.legal_moves(), (level, state.notation())
