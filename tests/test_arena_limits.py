"""The arena's time controls and limits (a game clock, a time a move, depth, nodes: the
one :class:`Limit` from the command line to the player) and its adjudication."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from parlour import game
from parlour.actors import Actor, Move, Play, TimeControl
from parlour.arena.plan import Plan
from parlour.arena.records import Records
from parlour.arena.seat import parse_time_control
from parlour.arena.worker import play_job
from parlour.cli import main
from parlour.core import BadOption
from parlour.kit import kit_of
from parlour.players.protocol import go_line, read_go
from parlour.players.specs import parse_player
from parlour.search.limit import Limit, share

KALAH = game("kalah")


def parlour(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


class Silent(Actor):
    """A player that never answers: past any clock."""

    async def receive(self, message: Any) -> None:
        pass


def silent(argument: str, seed: int | None) -> Actor:
    return Silent()


TOLD: list[Limit] = []
CLOCKS: list[tuple[float, float] | None] = []


class Telling(Actor):
    """Plays the first legal move and notes every limit its seat tells it."""

    async def receive(self, message: Any) -> None:
        match message:
            case Limit() as limit:
                TOLD.append(limit)
            case Play(view):
                CLOCKS.append(view.clock)
                self.reply(Move(view.legal_moves[0]))


def telling(argument: str, seed: int | None) -> Actor:
    return Telling()


def plan_of(players: tuple[str, ...], **settings: Any) -> Plan:
    return Plan("kalah", dict(KALAH.options), players, 2, (), 7, **settings)


def test_a_move_takes_a_twentieth_of_the_clock_and_the_increment_at_most_half() -> None:
    assert share(10, 0) == 0.5
    assert share(1, 0.1) == pytest.approx(0.15)
    assert share(0.1, 1) == pytest.approx(0.05)
    assert share(0, 0) == 0.001


def test_on_a_game_clock_a_computer_plays_as_its_level_within_its_share() -> None:
    """No time of its own on a clock (not an unlimited one): level 5 searches its own 7
    plies, stopped by its share of the clock, and keeps to the Referee's clock."""
    plan = plan_of(("computer:5", "random"), clock=(1.0, 0.0))
    assert [spec.seconds for spec in plan.specs()] == [None, None]
    timed = plan_of(("computer:5", "computer:8@0.3"), seconds=0.1)
    assert [spec.seconds for spec in timed.specs()] == [0.1, 0.3]
    for job in plan.jobs():
        assert play_job(plan, job).played.reason == "rules"


@pytest.mark.parametrize(
    ("text", "wanted"),
    [("10+0.1", TimeControl(10, 0.1)), ("5", TimeControl(5, 0)), (" 60+1 ", TimeControl(60, 1))],
)
def test_a_time_control_reads_base_and_increment(text: str, wanted: TimeControl) -> None:
    assert parse_time_control(text) == wanted
    assert parse_time_control(str(wanted)) == wanted


@pytest.mark.parametrize("text", ["", "x+1", "1+", "1+y", "-1", "0+1", "1+1+1", "inf", "1e9"])
def test_a_bad_time_control_is_named_in_one_line(text: str) -> None:
    with pytest.raises(BadOption, match="time control") as caught:
        parse_time_control(text)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("settings", "detail"),
    [({"clock": (0.2, 0.0)}, "ran out of time"), ({"seconds": 0.1}, "(0.1 s a move)")],
)
def test_an_in_process_player_past_its_time_loses_on_time(
    settings: dict[str, Any], detail: str
) -> None:
    plan = plan_of(("random", "python:test_arena_limits:silent"), **settings)
    for job in plan.jobs():
        record = play_job(plan, job).played
        silent_seat = job.seats.index(1)
        assert record.reason == "time" and detail in record.detail
        assert record.winner == 1 - silent_seat


def test_the_seat_tells_its_player_the_clock_and_the_plans_limits_each_move() -> None:
    TOLD.clear()
    CLOCKS.clear()
    plan = plan_of(("random", "python:test_arena_limits:telling"), clock=(60.0, 2.0), depth=4)
    record = play_job(plan, next(plan.jobs())).played
    assert record.reason == "rules"
    assert TOLD[0] == Limit(seconds=share(60, 2), depth=4, left=60.0, increment=2.0)
    seat = next(plan.jobs()).seats.index(1)  # one clock, the Referee's: the one told
    assert [limit.left for limit in TOLD] == [clock[seat] for clock in CLOCKS if clock]
    assert len(TOLD) == sum(1 for _ in record.moves) - _moves_of(record, 0)
    assert all(limit.left is not None and limit.left > 60.0 - 1 for limit in TOLD)
    assert any(limit.left is not None and limit.left > 60.0 for limit in TOLD[1:])


def _moves_of(record: Any, seat: int) -> int:
    """The moves of the player in ``seat`` (replayed)."""
    state, count = KALAH.start(), 0
    for name in record.moves:
        count += state.to_move == seat
        state = state.play(state.parse_move(name))
    return count


@pytest.mark.parametrize(
    ("limit", "line"),
    [
        (Limit(seconds=2.0), "go movetime 2"),
        (Limit(seconds=0.5, left=10.0, increment=0.1), "go time 10 increment 0.1"),
        (Limit(seconds=1.0, depth=5, nodes=1000), "go movetime 1 depth 5 nodes 1000"),
        (Limit(depth=7), "go depth 7"),
    ],
)
def test_the_go_command_carries_the_limit_both_ways(limit: Limit, line: str) -> None:
    assert go_line(limit) == line
    read = read_go(line.split()[1:])
    assert (read.depth, read.nodes, read.left) == (limit.depth, limit.nodes, limit.left)
    if limit.left is not None:
        assert read.seconds == share(limit.left, limit.increment)


@pytest.mark.parametrize("words", [["depth", "0"], ["nodes", "x"], ["depth", "99999"]])
def test_a_bad_depth_or_nodes_in_go_is_named(words: list[str]) -> None:
    with pytest.raises(BadOption, match=words[0]):
        read_go(words)


def test_a_sowing_game_is_decided_once_a_store_holds_more_than_half() -> None:
    kit = kit_of("kalah")
    assert kit.decided(KALAH.start()) is None
    decided = KALAH.parse("0,0,0,0,1,1/25/4,4,4,4,4,1/0 1")
    outcome = kit.decided(decided)
    assert outcome is not None and outcome.winner == 0 and "25 of the 48" in outcome.detail
    assert kit.decided(KALAH.parse("0,0,0,0,1,1/24/4,4,4,4,4,2/0 1")) is None
    assert kit_of("gomoku").decided(game("gomoku").start()) is None


def test_adjudication_ends_a_decided_game_and_records_it_so(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    args = ["--players", "random,random", "--games", "4", "--seed", "5", "-j", "1"]
    assert parlour("match", "kalah", *args, "--db", str(db), "--adjudicate").exit_code == 0
    assert parlour("match", "kalah", *args, "--db", str(db)).exit_code == 0
    with Records(db) as records:
        judged = list(records.games(match_id=1, limit=10))
        played = list(records.games(match_id=2, limit=10))
    assert {row["reason"] for row in played} == {"rules"}
    assert "adjudicated" in {row["reason"] for row in judged}
    for row, whole in zip(judged, played, strict=True):
        moves, all_moves = row["moves"].split(), whole["moves"].split()
        assert moves == all_moves[: len(moves)] and row["winner"] == whole["winner"]
        positions = [KALAH.start()]
        for name in all_moves:
            positions.append(positions[-1].play(positions[-1].parse_move(name)))
        first = next(
            (i for i, p in enumerate(positions) if not p.is_over and 2 * max(p.scores) > 48), None
        )
        if first is None:  # never decided before its end: played out
            assert row["reason"] == "rules" and moves == all_moves
            continue
        assert row["reason"] == "adjudicated" and len(moves) == first
        assert "adjudicated: player" in row["detail"]
        assert (row["score0"], row["score1"]) == positions[first].scores
        assert len(json.loads(row["seconds"])) == len(moves)


def test_a_game_clock_and_a_time_a_move_together_are_refused(tmp_path: Path) -> None:
    result = parlour("match", "kalah", "--players", "random,random", "--tc", "10+1",
                     "--time", "1", "--db", str(tmp_path / "a.db"))  # fmt: skip
    assert result.exit_code == 2 and "not both" in result.output
    bad = parlour("match", "kalah", "--players", "random,random", "--tc", "ten")
    assert bad.exit_code == 2 and "the time control's base" in bad.output
    assert not (tmp_path / "a.db").exists()


def test_resume_keeps_the_plans_clock_and_limits(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    plan = plan_of(("random", "random"), clock=(30.0, 1.0), depth=3, adjudicate=True)
    with Records(db) as records:
        records.new_match("match", plan)
    resume = ["match", "kalah", "--players", "random,random", "--resume", "--db", str(db)]
    result = parlour(*resume, "--tc", "5+1", "--nodes", "9")
    assert result.exit_code == 2 and "--tc, --nodes differ from the plan" in result.output
    assert parlour(*resume, "--tc", "30+1", "--depth", "3", "-j", "1").exit_code == 0
    with Records(db) as records:
        assert len(list(records.games(limit=10))) == 2


def test_an_engine_of_a_games_own_protocol_is_refused_a_clock_or_a_depth(tmp_path: Path) -> None:
    engine = parse_player("engine:/bin/cat")
    for limit in (Limit(left=5.0), Limit(depth=3), Limit(nodes=10)):
        why = engine.refusal("gomoku", limit)
        assert why is not None and "protocol of their own" in why
        assert engine.refusal("kalah", limit) is None  # parlour's protocol carries them
    assert engine.refusal("gomoku", Limit(seconds=1.0)) is None
    assert parse_player("python:test_arena_limits:silent").refusal("gomoku", Limit(depth=2)) is None
    result = parlour("match", "gomoku", "--players", "engine:/bin/cat,random", "--tc", "5",
                     "--db", str(tmp_path / "a.db"))  # fmt: skip
    assert result.exit_code == 2 and "protocol of their own" in result.output
