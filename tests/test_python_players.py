"""Players some Python code builds (``python:MODULE:FUNCTION[:ARG]``): the spec read and
refused, and a benchmark's own player (``benchmarks/bots.py``'s Bot) playing a match on
the arena that the database records whole."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from parlour import game
from parlour.actors import Actor
from parlour.arena.executors import Local
from parlour.arena.match import play_match
from parlour.arena.plan import Plan
from parlour.arena.records import Records
from parlour.cli import main
from parlour.core import BadOption, State
from parlour.players.specs import parse_player

sys.path.insert(0, str(Path(__file__).parents[1] / "benchmarks"))  # no package
from bots import Bot


def nth_move(argument: str, seed: int | None) -> Actor:
    """A benchmark-style player: always the ``argument``-th legal move (the last if fewer)."""

    def choose(state: State) -> Any:
        moves = state.legal_moves()
        return moves[min(int(argument), len(moves) - 1)]

    return Bot(choose)


def not_a_player(argument: str, seed: int | None) -> object:
    return "a string"


def test_a_python_spec_reads_back_as_written_case_and_colons_kept() -> None:
    spec = parse_player("python:test_python_players:nth_move:2")
    assert (spec.kind, spec.command) == ("python", ("test_python_players", "nth_move", "2"))
    assert str(spec) == "python:test_python_players:nth_move:2"
    assert parse_player(str(spec)) == spec
    assert str(parse_player("python:os.path:join:a:b")) == "python:os.path:join:a:b"
    assert str(parse_player(" python:test_python_players:nth_move ")).endswith(":nth_move")
    assert isinstance(spec.build(7), Bot)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("python", "needs its builder: python:MODULE:FUNCTION"),
        ("python:", "needs a module and a function"),
        ("python:test_python_players", "needs a module and a function"),
        ("python::nth_move", "needs a module and a function"),
        ("python:no_such_module_here:f", "cannot import the module 'no_such_module_here'"),
        ("python:test_python_players:nth_mov", "has no function 'nth_mov'"),
        ("python:test_python_players:__doc__", "has no function '__doc__'"),
        ("python:os:getcwd", "python:os:getcwd cannot build a player: it must take ARG"),
    ],
)
def test_a_bad_python_spec_is_refused_naming_the_problem(text: str, message: str) -> None:
    with pytest.raises(BadOption, match=message):
        parse_player(text)


def test_play_with_a_function_that_cannot_build_a_player_is_one_line() -> None:
    result = CliRunner().invoke(main, ["play", "kalah", "--players", "python:os:getcwd,human"])
    assert result.exit_code == 2 and "cannot build a player" in result.output


def test_a_module_whose_code_fails_is_refused(tmp_path: Path, monkeypatch: Any) -> None:
    (tmp_path / "broken_players.py").write_text("raise RuntimeError('no luck')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(BadOption, match="module 'broken_players' fails: RuntimeError"):
        parse_player("python:broken_players:anything")


def test_a_builder_that_gives_no_actor_is_named() -> None:
    with pytest.raises(TypeError, match="not_a_player built 'a string', not a player actor"):
        parse_player("python:test_python_players:not_a_player").build(0)


def test_the_command_line_refuses_a_bad_python_spec_and_records_nothing(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    result = CliRunner().invoke(
        main, ["match", "kalah", "--players", "python:nowhere_at_all:f,random", "--db", str(db)]
    )
    assert result.exit_code == 2
    assert "cannot import the module 'nowhere_at_all'" in result.output
    assert not db.exists()


def test_a_benchmarks_player_plays_a_recorded_match(tmp_path: Path) -> None:
    """The python: player, built in a forked worker, makes every move of its seat (its
    rule: the last legal move) and the database holds every game whole."""
    rules = game("kalah")
    players = ("python:test_python_players:nth_move:9", "random")
    plan = Plan("kalah", dict(rules.options), players, 4, (), seed=5)
    with Records(tmp_path / "games.sqlite3") as records:
        match_id, standing = play_match(records, plan, Local(1))
        rows = list(records.games(match_id))
    assert standing.games == len(rows) == 4
    assert standing.wins + standing.losses + standing.draws == 4
    for row in rows:
        ours = 0 if row["player0"] == players[0] else 1
        assert row[f"player{ours}"] == players[0] and row["reason"] == "rules"
        state = rules.parse(row["start"])
        for name in row["moves"].split():
            move = state.parse_move(name)
            if state.to_move == ours:
                assert move == state.legal_moves()[-1]
            state = state.play(move)
        assert state.is_over and (row["winner"] is None) == (state.winner is None)
        assert state.scores == (row["score0"], row["score1"])


def test_a_player_that_fails_in_every_worker_stops_the_match_in_one_line(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    players = "python:test_python_players:not_a_player,random"
    result = CliRunner().invoke(
        main, ["match", "kalah", "--players", players, "--games", "2", "-j", "1", "--db", str(db)]
    )
    assert result.exit_code == 1, result.output
    (line,) = [text for text in result.output.splitlines() if text.startswith("Error:")]
    assert "not a player actor" in line and "0 of 2 games recorded, --resume plays the rest" in line
    assert "Traceback" not in result.output
