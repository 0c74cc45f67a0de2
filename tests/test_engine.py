"""The alpha-beta engine: equal to plain minimax, exact values, time control, analyze."""

from __future__ import annotations

import random
from collections.abc import Hashable

import numpy as np
import pytest
from click.testing import CliRunner

import parlour
from helpers import bounded, random_play
from parlour.cli import main
from parlour.core import MAX_SECONDS, State
from parlour.games.sowing import evaluation
from parlour.games.sowing.game import SowingState
from parlour.search import SearchResult, Stop
from parlour.search import minimax as seed_minimax
from parlour.search.engine import Engine, kernel_position
from parlour.search.table import EXACT, NO_MOVE, UPPER, lookup, pack, store, unpack

RULE_SETS = [
    ("kalah", {}),
    ("mancala", {}),
    ("kalah", {"empty_capture": False}),
    ("ayo", {"first": 0, "seed": 1}),
]


def random_positions(game: parlour.Game, count: int, seed: int) -> list[State]:
    """``count`` positions of ``game`` reached by random play, none of them over."""
    rng = random.Random(seed)
    positions: list[State] = []
    while len(positions) < count:
        state = random_play(game.start(), rng, rng.randrange(0, 40))
        if not state.is_over:
            positions.append(state)
    return positions


@pytest.mark.parametrize(("name", "options"), RULE_SETS)
def test_alpha_beta_equals_plain_minimax_up_to_depth_6(name: str, options: dict) -> None:
    """On 200 random positions of each game; for Ayo through relays, captures and round
    ends (a round's end is a leaf, valued by the tokens each player then holds)."""
    engine = Engine(table_bits=16, strict=True)
    for state in random_positions(parlour.game(name, **options), 200, seed=len(name)):
        position = kernel_position(state)
        engine.clear()
        for depth in range(1, 7):
            value = engine.search(state, depth=depth).value
            assert value == position.minimax(depth), (state.notation(), depth)


def learned_estimate(state: SowingState) -> int:
    """The learned estimate of ``state`` for its side to move, from its rule set's table
    and the definition in ``parlour.games.sowing.evaluation``'s docstring, written out plainly:
    each pit of each row by its distance to its owner's store, alone and with the pit
    opposite (0 where the rule set has no table)."""
    game = state.game
    weights = evaluation.weights_of(game)
    if not len(weights):
        return 0
    bins, facing_bins, pits = evaluation.SEED_BINS, evaluation.FACING_BINS, game.pits
    total = 0
    for row, player in enumerate((state.to_move, 1 - state.to_move)):
        seeds = state.row(player)  # by column: A is 6 pits from player 0's store, 1 from 1's
        facing = state.row(1 - player)
        for column in range(pits):
            distance = pits - column if player == 0 else column + 1
            slot = row * pits + distance - 1
            mine, theirs = min(seeds[column], bins - 1), min(facing[column], facing_bins - 1)
            total += weights[slot * bins + mine]
            total += weights[2 * pits * bins + (slot * bins + mine) * facing_bins + theirs]
    return (int(total) + evaluation.UNIT // 2) // evaluation.UNIT


def best_turn(state: SowingState, learned: bool = False) -> int:
    """What the side to move gains over the other in its best whole turn (its moves until
    the turn passes or the game ends): the store difference, plus (``learned``) the learned
    estimate of where the turn passes."""
    me = state.to_move
    values = []
    for move in state.legal_moves():
        child = state.play(move)
        if not child.is_over and child.to_move == me:
            values.append(best_turn(child, learned))
            continue
        first, second = child.scores
        horizon = 0 if child.is_over or not learned else -learned_estimate(child)
        values.append((first - second if me == 0 else second - first) + horizon)
    return max(values)


@pytest.mark.parametrize(("name", "options"), RULE_SETS[:3])
def test_an_extra_turn_uses_no_depth(name: str, options: dict) -> None:
    """One ply of a loose search is the mover's best whole turn (so two plies after an
    extra turn), valued at the horizon by the store difference, and by the learned
    estimate too in a learned engine, on 200 random positions of each sowing game; a strict
    one stops at the first move."""
    loose = Engine(table_bits=16, endgame_entries=0, learned=False)
    learned = Engine(table_bits=16, endgame_entries=0)
    differ = 0
    for state in random_positions(parlour.game(name, **options), 200, seed=3):
        assert isinstance(state, SowingState)
        plain = best_turn(state)
        assert loose.search(state, depth=1).value == plain, state.notation()
        value = learned.search(state, depth=1).value
        assert value == best_turn(state, learned=True), state.notation()
        differ += value != plain
    assert differ > 0 or name == "mancala"  # Mancala has no table
    start = parlour.game("kalah").start()  # C ends in the store: 1, and another move
    assert isinstance(start, SowingState)
    strict = Engine(table_bits=16, strict=True).search(start, depth=1).value
    assert (strict, loose.search(start, depth=1).value) == (1, best_turn(start))
    assert best_turn(start) > 1


def test_a_pass_in_ayo_costs_a_ply() -> None:
    """Player 1 owns one house, holding one token: after three of player 0's eight moves
    player 1 must pass and player 0 moves again.  Each such move costs a ply, as any other:
    one ply is the root and its eight children, valued as plain minimax values them (a
    free pass would give a tree with no horizon, and depth 1, which no clock stops, would
    never end: hence ``bounded``)."""
    state = parlour.game("ayo").parse(
        "2,0,8,8,0,0,2,7,2,7,7,1 000000000001 0,4 0 5 0 1140032000749682198"
    )
    assert [state.play(move).to_move for move in state.legal_moves()].count(0) == 3
    found = bounded(lambda: Engine(table_bits=16).search(state, depth=1))
    assert isinstance(found, SearchResult)
    assert found.nodes == 1 + len(state.legal_moves())
    assert found.value == kernel_position(state).minimax(1)


def test_the_compiled_reference_is_the_seeds_minimax() -> None:
    """The numba minimax the engine is held to agrees with the plain-Python seed levels."""
    for state in random_positions(parlour.game("mancala"), 30, seed=7):
        position = kernel_position(state)
        for depth in (1, 2, 3):
            assert seed_minimax.best_move(state, depth)[1] == position.minimax(depth)


@pytest.mark.slow
def test_kalah_4_3_is_a_first_player_win_by_8() -> None:
    """Irving, Donkers and Uiterwijk (2000): Kalah(4,3) = +8."""
    result = Engine(table_bits=18).search(parlour.game("kalah", pits=4, seeds=3).start(), depth=99)
    assert result.exact and result.value == 8


@pytest.mark.parametrize(("pits", "seeds", "value"), [(4, 1, 2), (4, 2, 6), (5, 1, 0), (6, 1, 2)])
def test_small_kalah_values_of_the_literature(pits: int, seeds: int, value: int) -> None:
    result = Engine(table_bits=18).search(parlour.game("kalah", pits=pits, seeds=seeds).start())
    assert result.exact and result.value == value


def test_a_forced_win_is_found_at_the_right_depth() -> None:
    """Player 0 wins by 4 with C, a line 6 plies deep; shallower searches see no win, and
    at 7 plies every line has reached the end."""
    state = parlour.game("kalah", pits=4, seeds=2).parse("0,0,1,4/2/0,0,6,0/3 0")
    engine = Engine(table_bits=16, strict=True)
    for depth in range(1, 6):
        assert engine.search(state, depth=depth).value <= 0
    six = engine.search(state, depth=6)
    assert (six.move, six.value, six.exact) == (2, 4, False)
    seven = engine.search(state, depth=7)
    assert (seven.move, seven.value, seven.exact) == (2, 4, True)
    assert seed_minimax.best_move(state, 7) == (2, 4)


def test_a_loose_engine_agrees_where_values_are_exact() -> None:
    """Using deeper results changes values at a fixed depth, never exact ones."""
    state = parlour.game("kalah", pits=4, seeds=2).parse("0,0,1,4/2/0,0,6,0/3 0")
    result = Engine(table_bits=16).search(state)
    assert (result.move, result.value, result.exact) == (2, 4, True)


def test_helper_threads_share_the_table_and_keep_exact_values() -> None:
    engine = Engine(table_bits=18, threads=2)
    assert engine.search(parlour.game("kalah", pits=4, seeds=3).start()).value == 8
    state = parlour.game("kalah", pits=4, seeds=2).parse("0,0,1,4/2/0,0,6,0/3 0")
    engine.clear()
    result = engine.search(state)
    assert (result.move, result.value, result.exact) == (2, 4, True)
    strict = Engine(table_bits=16, strict=True, threads=2)
    for position in random_positions(parlour.game("mancala"), 20, seed=11):
        strict.clear()
        assert strict.search(position, depth=6).value == kernel_position(position).minimax(6)


@pytest.mark.slow
def test_the_principal_variation_is_legal_and_starts_with_the_move() -> None:
    result = Engine().search(parlour.game("kalah").start(), depth=8)
    assert result.pv[0] == result.move and len(result.pv) >= 2
    state = parlour.game("kalah").start()
    for move in result.pv:
        state = state.play(move)  # raises IllegalMove if the variation were wrong


def test_a_search_on_a_clock_ends_when_its_stop_is_set() -> None:
    """A search on a clock polls its stop: set once depth 4 is done (as its timer would),
    the search returns within the next iteration or so with what it found, its move legal
    and its value not claimed exact, though its clock had a day to run (a search that
    did not poll would hang: ``bounded`` fails it).  How closely a search keeps a time
    limit is a benchmark's figure, not a test's."""
    engine = Engine()
    state = parlour.game("kalah").start()
    stop = Stop()
    depths: list[int] = []

    def iteration(result: SearchResult[int]) -> None:
        depths.append(result.depth)
        if result.depth == 4:
            stop.set()

    found = bounded(
        lambda: engine.search(state, seconds=MAX_SECONDS, on_iteration=iteration, stop=stop)
    )
    assert isinstance(found, SearchResult)
    result: SearchResult[int] = found
    assert depths[:4] == [1, 2, 3, 4] and 4 <= result.depth <= 6
    assert not result.exact and result.move in state.legal_moves()


def test_a_clock_stops_with_the_stop_it_runs_on() -> None:
    """A search's clock (``Stop.until``) is set, and its flags raised, when its caller's
    stop is, before the clock starts or while it runs; the caller's stays as it was when
    the clock is set alone."""
    caller = Stop()
    with caller.until(None) as clock:
        flag = clock.attach(np.zeros(1, dtype=np.int64))
        assert not clock.is_set and flag[0] == 0
        caller.set()
        assert clock.is_set and flag[0] == 1
    with caller.until(None) as later:
        assert later.is_set
    free = Stop()
    with free.until(None) as clock:
        clock.set()
    assert not free.is_set


def test_a_finished_game_has_nothing_to_search() -> None:
    over = parlour.game("kalah", pits=1, seeds=1).start().play(0)
    with pytest.raises(ValueError, match="over"):
        Engine().search(over, depth=3)


def test_analyze_prints_the_exact_value_of_kalah_4_3() -> None:
    args = ["analyze", "kalah", "--pits", "4", "--seeds", "3", "--depth", "99"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert any(line.startswith("best move") and "value +8" in line for line in lines)
    assert lines[-1].startswith("exact:") and "value +8" in lines[-1]
    assert lines[0].startswith("depth   1")


def test_analyze_refuses_bad_input() -> None:
    runner = CliRunner()
    bad_position = runner.invoke(main, ["analyze", "kalah", "1,2,3"])
    assert bad_position.exit_code == 2 and "POSITION" in bad_position.output
    over = runner.invoke(main, ["analyze", "kalah", "0,0,0,0,0,0/20/0,0,0,0,0,0/28 0"])
    assert over.exit_code == 2 and "over" in over.output
    bad_time = runner.invoke(main, ["analyze", "kalah", "--time", "0"])
    assert bad_time.exit_code == 2


@pytest.mark.parametrize(
    "fields", [(-1_000_000, 0, UPPER, NO_MOVE, 1, 255), (999_999, 255, EXACT, 624, 0, 7)]
)
def test_an_entry_keeps_every_field_at_its_extremes(fields: tuple[int, ...]) -> None:
    """Values of a won game, the deepest depth, a board point of 25 x 25 and no move."""
    value, depth, bound, move, complete, generation = fields
    assert unpack(int(pack(value, depth, bound, move, bool(complete), generation))) == fields


def test_a_deep_entry_outlives_shallow_ones_of_its_search_only() -> None:
    """One slot pair: a deep result stays while shallow ones of the same search come and
    go beside it; a later search may replace it."""
    keys = np.zeros(2, dtype=np.uint64)
    data = np.zeros(2, dtype=np.int64)
    deep, shallow, other = np.uint64(2), np.uint64(4), np.uint64(6)  # one pair, all three
    store(keys, data, deep, 12, 5, -99, 99, 1, False, 1)
    store(keys, data, shallow, 2, 7, -99, 99, 3, False, 1)
    store(keys, data, other, 3, 9, -99, 99, 4, False, 1)
    assert lookup(keys, data, deep)[0] and lookup(keys, data, other)[0]
    assert not lookup(keys, data, shallow)[0]  # the always-replaced slot moved on
    value, depth, bound, move, _, generation = unpack(lookup(keys, data, deep)[1])
    assert (value, depth, bound, move, generation) == (5, 12, EXACT, 1, 1)
    store(keys, data, shallow, 2, 7, -99, 99, 3, False, 2)  # the next search
    assert lookup(keys, data, shallow)[0] and not lookup(keys, data, deep)[0]


def final_margin(state: State, player: int) -> int:
    """``state``'s final margin with perfect play, for ``player``."""
    if state.is_over:
        assert isinstance(state, SowingState)
        return state.scores[player] - state.scores[1 - player]
    value = Engine(table_bits=14).search(state).value
    return value if state.to_move == player else -value


def test_a_solved_position_on_a_clock_leaves_the_opponent_most_ways_to_err() -> None:
    """On a clock, among the moves that keep a solved position's value, the engine takes
    one after which the most of the opponent's replies give some of it away (a move that
    keeps the turn leaves none); worked out here from exact values alone."""
    game = parlour.game("kalah", pits=4, seeds=2)
    changed = 0
    for state in random_positions(game, 40, seed=5):
        value = Engine(table_bits=14).search(state).value
        errors: dict[Hashable, int] = {}
        for move in state.legal_moves():
            child = state.play(move)
            if final_margin(child, state.to_move) == value:
                keeps_turn = child.is_over or child.to_move == state.to_move
                replies = () if keeps_turn else child.legal_moves()
                errors[move] = sum(
                    final_margin(child.play(r), state.to_move) > value for r in replies
                )
        chosen = Engine(table_bits=16).search(state, seconds=10)
        assert chosen.value == value and chosen.move in errors
        assert errors[chosen.move] == max(errors.values()), (state.notation(), errors)
        changed += chosen.move != Engine(table_bits=16).search(state).move
    assert changed > 0  # the choice among equals did change some moves


def test_a_kernel_is_new_when_its_adapters_or_their_rules_change_not_the_screen() -> None:
    """The sowing games' adapters hand on the rules' functions and read the endgame
    tables: those files make the kernel's hash; the screen and the view do not."""
    from parlour.games.sowing import adapters
    from parlour.search.engine import adapter_sources

    names = {path.name for path in adapter_sources(adapters)}
    assert {"adapters.py", "game.py", "endgame.py", "evaluation.py"} <= names
    assert not names & {"screen.py", "view.py", "kit.py", "solver"}
