"""The arena's tournament formats (round robin, gauntlet, knockout) and ``--resume ID``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from parlour import game
from parlour.arena.plan import GAUNTLET, KNOCKOUT, PAIRINGS, Plan
from parlour.arena.records import Records
from parlour.arena.worker import play_job
from parlour.cli import main

KALAH = dict(game("kalah").options)
FIELD = ("random", "computer:1", "computer:2", "computer:3", "computer:4")


def parlour(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def plan_of(players: tuple[str, ...], pairing: str, games: int = 2) -> Plan:
    return Plan("kalah", KALAH, players, games, (), 3, pairing=pairing)


def results_where(winners: dict[tuple[int, int], int | None], plan: Plan, done: Any) -> list[Any]:
    """Results of the jobs ``done``: each meeting won by ``winners[low, high]`` every game."""
    found = []
    for job in done:
        low, high = sorted(job.seats)
        winner = winners[low, high]
        seat = None if winner is None else job.seats.index(winner)
        found.append((job.pair, job.seats[0], job.seats[1], seat))
    return found


def test_a_gauntlet_plays_the_first_player_against_each_other() -> None:
    plan = plan_of(FIELD, GAUNTLET, games=4)
    jobs = list(plan.jobs())
    assert len(jobs) == plan.job_count == 4 * 4
    assert all(0 in job.seats for job in jobs)
    assert {max(job.seats) for job in jobs} == {1, 2, 3, 4}
    assert sorted(job.index for job in jobs) == list(range(16))


def test_a_knockout_bracket_gives_the_best_seeds_the_byes_and_keeps_its_numbers() -> None:
    plan = plan_of(FIELD, KNOCKOUT)
    first = list(plan.jobs())
    assert [tuple(sorted(job.seats)) for job in first] == [(3, 4), (3, 4)]
    winners: dict[tuple[int, int], int | None] = {(3, 4): 4, (0, 4): 0, (1, 2): None}
    second = list(plan.jobs(results_where(winners, plan, first)))
    assert second[:2] == first  # a round's games keep their numbers as the next comes
    assert {tuple(sorted(job.seats)) for job in second[2:]} == {(0, 4), (1, 2)}
    winners[0, 1] = 1
    final = list(plan.jobs(results_where(winners, plan, second)))
    assert {tuple(sorted(job.seats)) for job in final[len(second) :]} == {(0, 1)}  # 1 won a tie
    done = results_where(winners, plan, final)
    assert list(plan.jobs(done)) == final and len(final) == plan.job_count
    assert len({job.index for job in final}) == len(final)
    assert plan.bracket(done)[-1] == [(0, 1, 1)]


def played_out(plan: Plan) -> list[Any]:
    """The results of a knockout played round by round, the worse seed winning every game."""
    results: list[Any] = []
    played: set[int] = set()
    while new := [job for job in plan.jobs(results) if job.index not in played]:
        for job in new:
            played.add(job.index)
            results.append((job.pair, *job.seats, job.seats.index(max(job.seats))))
    return results


@pytest.mark.parametrize("size", [2, 3, 4, 6, 8])
def test_a_knockout_of_any_size_has_every_player_but_the_winner_lose_once(size: int) -> None:
    plan = plan_of(tuple(f"computer:{n}" for n in range(1, size + 1)), KNOCKOUT)
    results = played_out(plan)
    assert len(results) == plan.job_count
    bracket = plan.bracket(results)
    losers = [low for meetings in bracket for low, _, _ in meetings]
    assert sorted(losers) == list(range(size - 1))  # the worse seed won each: the last is left
    assert bracket[-1][0][2] == size - 1 and len(bracket[-1]) == 1


def test_the_pairings_the_command_offers_are_the_plans() -> None:
    result = parlour("tournament", "--help")
    assert all(name in result.output for name in PAIRINGS)


def test_a_knockout_tournament_plays_its_rounds_and_prints_its_bracket(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    players = ",".join(FIELD[:3])
    args = ["--players", players, "--format", "knockout", "--rounds", "1", "--seed", "2"]
    result = parlour("tournament", "kalah", *args, "-j", "1", "--db", str(db), "--json")
    assert result.exit_code == 0, result.output
    table = json.loads(result.output.strip().splitlines()[-1])
    bracket = table["bracket"]
    assert [len(meetings) for meetings in bracket] == [1, 1]
    assert bracket[0][0]["players"] == ["computer:1", "computer:2"]
    assert bracket[1][0]["players"][0] == "random"
    assert bracket[1][0]["winner"] in bracket[1][0]["players"]
    with Records(db) as records:
        assert len(records.results(1)) == 4 and records.match(1).finished is not None


def test_resume_takes_the_match_its_id_names(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    plan = Plan("kalah", KALAH, ("random", "random"), 2, (), 4)
    with Records(db) as records:
        for _ in range(3):
            records.new_match("match", plan)
        record = play_job(plan, next(plan.jobs()))
        records.add(record.played, 3, record.place)
        records.finish(3, None)
    resume = ["match", "kalah", "--players", "random,random", "--db", str(db), "--resume"]
    result = parlour(*resume, "1", "-j", "1")
    assert result.exit_code == 0, result.output and "Match 1:" in result.output
    with Records(db) as records:
        assert len(records.results(1)) == 2 and not records.results(2)
        assert records.match(2).finished is None
    for which, problem in [("3", "match 3 is finished"), ("9", "no match 9"), ("x", "whole")]:
        refused = parlour(*resume, which)
        assert refused.exit_code == 2 and problem in refused.output, refused.output
    other = parlour("tournament", "kalah", "--players", "random,computer:1,computer:2",
                    "--db", str(db), "--resume", "2")  # fmt: skip
    assert other.exit_code == 2 and "match 2 is not a tournament" in other.output
    latest = parlour(*resume[:-1], "--resume", "-j", "1")
    assert latest.exit_code == 0 and "Match 2:" in latest.output


def test_a_gauntlet_tournament_records_only_the_first_players_games(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    result = parlour("tournament", "kalah", "--players", ",".join(FIELD[:4]), "--format",
                     "gauntlet", "--rounds", "1", "-j", "1", "--db", str(db))  # fmt: skip
    assert result.exit_code == 0, result.output
    with Records(db) as records:
        results = records.results(1)
        assert records.match(1).plan.pairing == GAUNTLET
    assert len(results) == 6 and all(0 in (first, second) for _, first, second, _ in results)
