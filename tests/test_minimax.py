"""The seed's levels 1-3: exact minimax values, extra turns as moves of the same player."""

from __future__ import annotations

import random

import pytest

import parlour
from helpers import random_play
from parlour.core import State
from parlour.search.minimax import best_move, minimax


def brute_force(state: State, depth: int, player: int) -> int:
    """Minimax written out from the definition, on play() and legal_moves() only."""
    if depth == 0 or state.is_over:
        mine, theirs = state.scores[player], state.scores[1 - player]
        return mine - theirs
    values = [brute_force(state.play(m), depth - 1, player) for m in state.legal_moves()]
    return max(values) if state.to_move == player else min(values)


def random_positions(count: int, seed: int = 2026) -> list[State]:
    """Positions reached by random play in both presets with varied sizes."""
    rng = random.Random(seed)
    positions: list[State] = []
    while len(positions) < count:
        name = rng.choice(["mancala", "kalah"])
        start = parlour.game(name, pits=rng.randint(2, 6), seeds=rng.randint(1, 4)).start()
        state = random_play(start, rng, rng.randint(0, 40))
        if not state.is_over:
            positions.append(state)
    return positions


POSITIONS = random_positions(200)


@pytest.mark.parametrize("level", [1, 2, 3])
def test_each_level_plays_a_move_of_exact_minimax_value_first_of_equals(level: int) -> None:
    for state in POSITIONS:
        player = state.to_move
        values = [brute_force(state.play(m), level - 1, player) for m in state.legal_moves()]
        move, value = best_move(state, level)
        assert value == max(values) == minimax(state, level, player), state.notation()
        assert move == state.legal_moves()[values.index(value)], state.notation()


def test_the_positions_cover_extra_turns_and_ends_within_the_horizon() -> None:
    extra = ends = 0
    for state in POSITIONS:
        for move in state.legal_moves():
            after = state.play(move)
            extra += after.to_move == state.to_move and not after.is_over
            ends += after.is_over
    assert extra > 50 and ends > 10


def test_an_extra_turn_is_searched_as_a_move_of_the_same_player() -> None:
    # Player 0 (bottom) to move: B (1 seed) reaches the store: extra turn, then A (2 seeds)
    # ends in the store too, so depth 2 sees both moves of player 0 and keeps +2.
    state = parlour.game("kalah", pits=2, seeds=1).parse("2,1/0/1,0/0 0")
    assert state.play(1).to_move == 0
    assert minimax(state.play(1), 1, 0) == 1 + 1
    assert best_move(state, 2) == (1, 2)
    # Alternation would have made the second ply a reply of player 1: (1, 1) at best.


def test_depth_below_one_and_finished_games_are_refused() -> None:
    state = parlour.game("mancala").start()
    with pytest.raises(ValueError, match="depth must be 1 or more"):
        best_move(state, 0)
    over = parlour.game("kalah", pits=1, seeds=1).parse("0/1/0/1 0")
    with pytest.raises(ValueError, match="game is over"):
        best_move(over, 1)


def test_seed_001_computer_position_level_values() -> None:
    """After the seed's D and A, the computer (top row) to move: its levels' choices."""
    state = parlour.game("mancala").parse("0,4,4,0,4,4/5/3,3,3,0,3,3/0 1")
    choices = [state.move_name(best_move(state, level)[0]) for level in (1, 2, 3)]
    values = [best_move(state, level)[1] for level in (1, 2, 3)]
    # Level 1: A and C both end with store 1 against 5; the tie goes to A, the first.
    assert choices == ["A", "C", "C"] and values[0] == 1 - 5
