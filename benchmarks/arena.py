"""Games per second of the arena: ``parlour match kalah --players random,random`` on each
executor (local worker processes; Ray on a cluster of this machine), every game through
the Referee and recorded in SQLite, as the command does.

Each executor plays the same plan (one seed) into a database of its own; the script checks
that they recorded the same games, then prints the rates side by side.  The time counts
what the command does once its workers (or Ray) have started: the games and their records.

    .venv/bin/python benchmarks/arena.py [--games 100000] [--executors local,ray] [--quick]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from parlour import game
from parlour.arena.executors import cores, executor
from parlour.arena.match import run
from parlour.arena.plan import Plan
from parlour.arena.records import Records
from record import MAX_PROCESSES, arguments, record, whole


def rate(name: str, plan: Plan, folder: Path, concurrency: int) -> tuple[float, dict[int, str]]:
    """Games per second of executor ``name`` on ``plan``, and the moves of each game."""
    with Records(folder / f"{name}.sqlite3") as records:
        match_id = records.new_match("match", plan)
        runner = executor(name, concurrency)
        started = time.perf_counter()
        run(records, match_id, plan, runner, lambda done: None)
        seconds = time.perf_counter() - started
        games = {row["job"]: row["moves"] for row in records.games(match_id, limit=plan.games)}
    return plan.games / seconds, games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=whole(), default=100_000)
    parser.add_argument("--executors", default="local,ray")
    parser.add_argument("--concurrency", type=whole(1, MAX_PROCESSES), default=cores())
    parser.add_argument("--seed", type=whole(0), default=1)
    args = arguments(parser, {"games": 200, "executors": "local"})
    plan = Plan(
        "kalah", dict(game("kalah").options), ("random", "random"), args.games, (), args.seed
    )
    rates, played = {}, {}
    with tempfile.TemporaryDirectory() as folder:
        for name in args.executors.split(","):
            rates[name], played[name] = rate(name, plan, Path(folder), args.concurrency)
            print(f"{name}: {args.games:,} games, {rates[name]:,.0f} games/s")
    first = next(iter(played.values()))
    assert all(games == first for games in played.values()), "the executors disagree"
    assert sorted(first) == list(range(args.games))
    if "ray" in rates and "local" in rates:
        print(f"ray / local: {rates['ray'] / rates['local']:.2f}")
    record(args, {"games_per_second": rates, "games": args.games})


if __name__ == "__main__":
    main()
