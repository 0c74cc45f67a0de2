"""Endgame tables of the sowing games: the numbering of positions, the values, and the
engine reading them."""

from __future__ import annotations

import itertools
import random
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import parlour
from helpers import random_play
from parlour.games.sowing import SowingGame, SowingState
from parlour.search import endgame
from parlour.search.engine import Engine, kernel_position

PITS = 3
SEEDS = 9
CHOOSE = endgame.binomials(SEEDS + 2 * PITS, 2 * PITS)


def in_pits(state: SowingState) -> int:
    """The seeds left in the pits (not in the stores)."""
    return sum(state.row(0)) + sum(state.row(1))


def pits_board(pits: tuple[int, ...], stores: tuple[int, int] = (0, 0)) -> np.ndarray:
    """A kernel position (player 0 to move) with these pits, in the order the table numbers
    them: player 0's row, then player 1's in sowing order."""
    half = len(pits) // 2
    return np.array([*pits[:half], stores[0], *pits[half:], stores[1], 0], dtype=np.int64)


def test_the_positions_of_up_to_n_seeds_are_numbered_0_to_their_count() -> None:
    boards = [p for p in itertools.product(range(SEEDS + 1), repeat=2 * PITS) if sum(p) <= SEEDS]
    numbers = sorted(endgame.index(pits_board(p), CHOOSE) for p in boards)
    assert numbers == list(range(comb(SEEDS + 2 * PITS, 2 * PITS)))
    fewer = [endgame.index(pits_board(p), CHOOSE) for p in boards if sum(p) < SEEDS]
    assert max(fewer) == comb(SEEDS - 1 + 2 * PITS, 2 * PITS) - 1  # a smaller table's prefix


@pytest.mark.slow
@settings(deadline=None)  # the first example compiles the kernels
@given(
    st.lists(st.integers(0, SEEDS), min_size=2 * PITS, max_size=2 * PITS).filter(
        lambda pits: sum(pits) <= SEEDS
    ),
    st.integers(0, 9),
)
def test_a_number_gives_back_its_pits_whatever_the_stores(pits: list[int], store: int) -> None:
    board = pits_board(tuple(pits), (store, 2 * store))
    number = endgame.index(board, CHOOSE)
    assert number == endgame.index(pits_board(tuple(pits)), CHOOSE)
    back = np.zeros(2 * PITS + 3, dtype=np.int64)
    endgame._unindex(number, PITS, CHOOSE, back)
    assert np.array_equal(back, pits_board(tuple(pits)))


@pytest.mark.slow
@pytest.mark.parametrize(
    "options",
    [
        {"pits": 3},
        {"pits": 4, "empty_capture": False},
        {"pits": 4, "sow_opponent_store": True},
    ],
)
def test_a_table_value_is_the_exact_search_s_less_the_stores(options: dict) -> None:
    """On random positions with few seeds left in the pits: the strict engine searches to
    the end of every line without any table, and its exact value must be the store
    difference plus the table's gain, for the side to move."""
    game = parlour.game("kalah", **options)
    assert isinstance(game, SowingGame)
    pits = options["pits"]
    found = endgame.table(pits, game.rules, SEEDS)
    rng = random.Random(pits)
    checked = 0
    while checked < 60:
        state = random_play(game.start(), rng, rng.randrange(10, 60))
        assert isinstance(state, SowingState)
        if state.is_over or in_pits(state) > SEEDS:
            continue
        exact = Engine(table_bits=14, strict=True).search(state, depth=99)
        number = endgame.index(kernel_position(state).root, found.choose)
        mine, theirs = state.scores[state.to_move], state.scores[1 - state.to_move]
        assert exact.exact
        assert exact.value == mine - theirs + found.values[number, state.to_move]
        checked += 1


def test_a_wrong_building_order_is_refused() -> None:
    """The build checks that every value it reads is known: in reverse order the first
    position's moves lead to positions not yet built."""
    count = comb(SEEDS + 2 * PITS, 2 * PITS)
    order = endgame._order(count, PITS, CHOOSE, SEEDS)
    values = np.full((count, 2), endgame.UNKNOWN, dtype=np.int8)
    assert not endgame._fill(order[::-1].copy(), PITS, 0, CHOOSE, values)


@pytest.mark.slow
def test_the_engine_reads_the_table_and_agrees_with_the_search_without_it() -> None:
    """From positions of Kalah with 16-22 seeds left in the pits, a search with a table of
    up to 14 seeds finds the exact value sooner (in fewer nodes) and the same value as the
    search without one."""
    game = parlour.game("kalah", empty_capture=False)
    rng = random.Random(2)
    compared = 0
    while compared < 5:
        state = random_play(game.start(), rng, rng.randrange(20, 40))
        assert isinstance(state, SowingState)
        if state.is_over or not 16 <= in_pits(state) <= 22:
            continue
        alone = Engine(table_bits=20, endgame_entries=0).search(state, depth=99)
        helped = Engine(table_bits=20).search(state, depth=99)
        assert alone.exact and helped.exact
        assert helped.value == alone.value
        assert helped.nodes < alone.nodes
        compared += 1


def test_tables_fit_their_budget() -> None:
    assert endgame.seeds_within(6, endgame.MAX_ENTRIES) == 14  # C(26, 12) <= 2**24 < C(27, 12)
    assert endgame.seeds_within(3, 100) == 3  # C(9, 6) = 84 <= 100 < C(10, 6) = 210
