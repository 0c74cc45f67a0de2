"""Fair starts (``parlour solve fair``): each proven a draw by an exhaustive search written
here, every other start as near not a draw, on small boards."""

from __future__ import annotations

import itertools
import json
import re
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner

import parlour
from parlour.cli import main
from parlour.core import BadOption, State
from parlour.games.sowing.fair_starts import FAIR_STARTS
from parlour.games.sowing.game import SowingState
from parlour.games.sowing.solver import Solver
from parlour.games.sowing.solver.fair import fair_starts, is_draw, redistributions
from parlour.search import Stop

BOARDS = [{"pits": 2, "seeds": 2}, {"pits": 3, "seeds": 2}, {"pits": 2, "seeds": 3}]


@cache
def value(game: parlour.Game, notation: str) -> int:
    """The final margin of the position's side to move with perfect play: every line to
    its end (independent of the solver)."""
    state = game.parse(notation)
    best = None
    for move in state.legal_moves():
        after = state.play(move)
        if after.is_over:
            found = after.scores[state.to_move] - after.scores[1 - state.to_move]
        else:
            found = value(game, after.notation())
            found = found if after.to_move == state.to_move else -found
        best = found if best is None else max(best, found)
    assert best is not None
    return best


def seeds_moved(state: State, start: State) -> int:
    here, there = (*state.row(0), *state.row(1)), (*start.row(0), *start.row(1))  # type: ignore[attr-defined]
    return sum(abs(a - b) for a, b in zip(here, there, strict=True)) // 2


@pytest.mark.parametrize("options", BOARDS)
def test_the_fair_starts_are_exactly_the_draws_a_seed_or_two_away(options: dict) -> None:
    game = parlour.game("kalah", **options)
    start: SowingState = game.start()  # type: ignore[assignment]
    fair = fair_starts(start, 2, Solver(bits=14, table_seeds=2), Stop())
    candidates = redistributions(start, 2)
    assert fair, "no fair start on this board"
    draws = [s for s in candidates if s.legal_moves() and value(game, s.notation()) == 0]
    assert [s.notation() for s in fair] == [s.notation() for s in draws]
    assert all(value(game, s.notation()) == 0 for s in fair)


def test_the_redistributions_are_every_start_one_or_two_seeds_away() -> None:
    """Kalah(3,2): one seed from any of six pits to any other (30), then two: every
    vector of pits of the same total one or two seeds away, each once, nearest first,
    stores kept."""
    start: SowingState = parlour.game("kalah", pits=3, seeds=2).start()  # type: ignore[assignment]
    found = redistributions(start, 2)
    moved = [seeds_moved(state, start) for state in found]
    assert moved == sorted(moved) and set(moved) == {1, 2}
    assert moved.count(1) == 6 * 5
    assert len({state.notation() for state in found}) == len(found)
    assert all(state.scores == (0, 0) and state.to_move == 0 for state in found)
    near = {
        pits
        for pits in itertools.product(range(5), repeat=6)
        if sum(pits) == 12 and sum(abs(n - 2) for n in pits) in (2, 4)
    }
    assert {(*state.row(0), *state.row(1)) for state in found} == near


def test_parlour_solve_fair_lists_them() -> None:
    result = CliRunner().invoke(main, ["solve", "fair", "kalah", "--pits", "2", "--seeds", "2"])
    assert result.exit_code == 0, result.output
    game = parlour.game("kalah", pits=2, seeds=2)
    listed = [line for line in result.output.splitlines() if "/" in line]
    assert listed and all(value(game, notation) == 0 for notation in listed)
    as_json = CliRunner().invoke(
        main, ["solve", "fair", "kalah", "--pits", "2", "--seeds", "2", "--json"]
    )
    fields = json.loads(as_json.output.splitlines()[-1])
    assert fields["fair"] == listed and fields["proven"] == fields["candidates"]


@pytest.mark.parametrize("options", BOARDS)
def test_a_draw_is_told_from_a_value_either_side_of_it(options: dict) -> None:
    """``is_draw`` against the exhaustive values, on every start a seed or two away:
    draws, wins and losses alike."""
    game = parlour.game("kalah", **options)
    solver = Solver(bits=14, table_seeds=2)
    values = set()
    for state in redistributions(game.start(), 2):  # type: ignore[arg-type]
        if state.legal_moves():
            values.add(value(game, state.notation()))
            assert is_draw(solver, state, Stop()) == (value(game, state.notation()) == 0)
    assert min(values) < 0 < max(values)


def test_parlour_solve_fair_moves_as_many_seeds_as_asked() -> None:
    result = CliRunner().invoke(
        main, ["solve", "fair", "kalah", "--pits", "3", "--seeds", "2", "--moved", "1"]
    )
    assert result.exit_code == 0, result.output
    start = parlour.game("kalah", pits=3, seeds=2).start()
    listed = [line for line in result.output.splitlines() if "/" in line]
    assert listed and all(
        seeds_moved(parlour.game("kalah", pits=3, seeds=2).parse(n), start) == 1 for n in listed
    )
    assert "among 30 starts one seed from the standard one" in result.output
    refused = CliRunner().invoke(main, ["solve", "fair", "kalah", "--moved", "3"])
    assert refused.exit_code == 2 and "--moved" in refused.output


def test_parlour_solve_fair_needs_a_game() -> None:
    result = CliRunner().invoke(main, ["solve", "fair"])
    assert result.exit_code == 2 and "name the game" in result.output


SHIPPED_EXHAUSTIVELY = [
    {"pits": 3, "seeds": 3},
    {"pits": 3, "seeds": 4},
    {"pits": 3, "seeds": 3, "empty_capture": False},
]


@pytest.mark.slow
@pytest.mark.parametrize("options", SHIPPED_EXHAUSTIVELY)
def test_the_shipped_fair_starts_of_a_small_board_are_exactly_its_draws(options: dict) -> None:
    """Every start a seed or two away is a draw (by the exhaustive search here) exactly
    where ``start=fair:N`` lists it, in the order of the redistributions."""
    game = parlour.game("kalah", **options)
    start: SowingState = game.start()  # type: ignore[assignment]
    count = len(FAIR_STARTS[(game.pits, game.options["seeds"], game.rules)])  # type: ignore[attr-defined]
    fair = [
        parlour.game("kalah", **options, start=f"fair:{n}").start() for n in range(1, count + 1)
    ]
    draws = [
        s.notation()
        for s in redistributions(start, 2)
        if s.legal_moves() and value(game, s.notation()) == 0
    ]
    assert [s.notation() for s in fair] == draws


@pytest.mark.slow
def test_each_shipped_fair_start_of_kalah_6_3_is_proven_a_draw() -> None:
    """Too big for the exhaustive search here: each is proven by the solver's MTD(f), not
    the two windows that found it (``is_draw``)."""
    solver = Solver(bits=20)
    count = len(FAIR_STARTS[(6, 3, 2)])
    for n in range(1, count + 1):
        start = parlour.game("kalah", pits=6, seeds=3, start=f"fair:{n}").start()
        proof = solver.prove(start, stop=Stop())  # type: ignore[arg-type]
        assert proof.exact and proof.lower == 0, start.notation()


@pytest.mark.parametrize("key", sorted(FAIR_STARTS))
def test_each_shipped_fair_start_is_a_seed_or_two_from_the_standard_one(
    key: tuple[int, int, int],
) -> None:
    pits, seeds, _ = key
    rows = [
        tuple(map(int, row.split(","))) for start in FAIR_STARTS[key] for row in start.split("/")
    ]
    assert all(len(row) == pits for row in rows)
    starts = list(zip(rows[::2], rows[1::2], strict=True))
    assert len(set(starts)) == len(starts)
    for mover, other in starts:
        assert sum(mover) + sum(other) == 2 * pits * seeds
        moved = sum(abs(n - seeds) for n in (*mover, *other)) // 2
        assert moved in (1, 2)


@pytest.mark.slow
def test_a_fair_start_of_a_bigger_board_is_proven_a_draw_for_either_first_mover() -> None:
    """Kalah(5,3)'s last fair start, proven by the solver, whoever moves first: the first
    mover gets the row it would have moved from as player 0."""
    last = len(FAIR_STARTS[(5, 3, parlour.game("kalah").rules)])  # type: ignore[attr-defined]
    for first in (0, 1):
        game = parlour.game("kalah", pits=5, seeds=3, first=first, start=f"fair:{last}")
        start: SowingState = game.start()  # type: ignore[assignment]
        assert start.to_move == first
        proof = Solver(bits=18, table_seeds=10).prove(start, stop=Stop())
        assert proof.exact and proof.lower == 0
    standard = parlour.game("kalah", pits=5, seeds=3).start()
    assert Solver(bits=18, table_seeds=10).prove(standard, stop=Stop()).lower != 0  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"start": "fair"}, "must be standard or fair:N, not 'fair'"),
        ({"start": "random"}, "must be standard or fair:N"),
        ({"pits": 4, "seeds": 3, "start": "fair:0"}, "must be at least 1"),
        ({"pits": 4, "seeds": 3, "start": "fair:110"}, "must be at most 109"),
        ({"pits": 4, "seeds": 3, "start": "fair:x"}, "the N of option start=fair:N"),
        ({"seeds": 5, "start": "fair:1"}, "no fair start is known for 6 pits of 5 seeds"),
        ({"start": "fair:4"}, "must be at most 3"),  # Kalah(6,4)'s three
    ],
)
def test_a_start_that_is_not_known_is_refused_naming_it(options: dict, named: str) -> None:
    with pytest.raises(BadOption, match=re.escape(named)):
        parlour.game("kalah", **options)


def test_parlour_play_starts_from_a_fair_start() -> None:
    game = parlour.game("kalah", pits=4, seeds=3, start="fair:2")
    assert game.start().notation() == "3,3,3,4/0/3,2,3,3/0 0"
    assert parlour.game("kalah", pits=4, seeds=3).start().notation() == "3,3,3,3/0/3,3,3,3/0 0"
    result = CliRunner().invoke(
        main,
        ["play", "kalah", "--pits", "4", "--seeds", "3", "-o", "start=fair:200"],
    )
    assert result.exit_code == 2 and "must be at most 109" in result.output


def test_a_search_of_fair_starts_stopped_goes_on_where_it_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each verdict is kept with the proven positions (a checkpoint): a second search
    reading the file proves only the starts the first did not, and finds the same."""
    from parlour.games.sowing.solver import Known
    from parlour.games.sowing.solver import fair as fair_module

    start = parlour.game("kalah", pits=3, seeds=2).start()
    path = tmp_path / "positions.json"
    searched: list[str] = []
    real = fair_module.is_draw

    def counted(solver: Solver, state: SowingState, stop: Stop) -> bool | None:
        searched.append(state.notation())
        return real(solver, state, stop)

    monkeypatch.setattr(fair_module, "is_draw", counted)
    stop = Stop()
    first = Solver(bits=14, table_seeds=2, known=Known(path))

    def halt(state: SowingState, verdict: bool | None) -> None:
        if len(searched) == 10:
            stop.set()

    fair_starts(start, 1, first, stop, halt)  # type: ignore[arg-type]
    assert first.known is not None
    first.known.save()
    done = list(searched)
    searched.clear()
    again = Solver(bits=14, table_seeds=2, known=Known(path))
    found = fair_starts(start, 1, again, Stop())  # type: ignore[arg-type]
    assert len(done) == 10 and searched and not set(done) & set(searched)
    whole = fair_starts(start, 1, Solver(bits=14, table_seeds=2), Stop())  # type: ignore[arg-type]
    assert [s.notation() for s in found] == [s.notation() for s in whole]
