"""War games per second: the numba kernel on every core, the actors, and plain Python.

All three play the same games (game i of one seed), under the defaults with no round
limit: the kernel (``parlour simulate war``), the seed's Dealer and two Player actors,
and the kernel's own rule code run as plain Python (``NUMBA_DISABLE_JIT=1``, in a child
process).  Each is warmed first (compiled, or its imports loaded); the run checks that
the three agree on every game both played, then prints the rates side by side, and the
statistics beside the ones RULES.md expects (mean about 350 rounds, median about 265).

    .venv/bin/python benchmarks/war.py [--games 1000000] [--seconds 3] [--seed 1] [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import time

import numba

from parlour.games.war.dealer import play_war
from parlour.games.war.game import war_rules
from parlour.games.war.kernel import Summary, play_one, simulate
from parlour.outcome import Outcome
from record import arguments, duration, record, whole

PLAIN_PYTHON = """
import json, sys, time, warnings
warnings.simplefilter("ignore", RuntimeWarning)  # uint64 arithmetic wraps, as compiled
from parlour.games.war.game import war_rules
from parlour.games.war.kernel import play_one
rules = war_rules(seed=int(sys.argv[1]), max_rounds="none")
play_one(rules, 0)
started, games = time.perf_counter(), []
while time.perf_counter() - started < float(sys.argv[2]):
    o = play_one(rules, len(games))
    a = o.account
    games.append([o.winner, o.reason, a.rounds, a.battles, a.wars])
print(json.dumps({"seconds": time.perf_counter() - started, "games": games}))
"""


def kernel_rate(seed: int, games: int, jobs: int) -> tuple[float, Summary]:
    """Games per second of ``parlour simulate war`` on ``jobs`` threads, and its summary."""
    rules = war_rules(seed=seed, max_rounds="none")
    simulate(rules, 2_000, jobs=jobs)  # compile (or load from the cache) and start threads
    started = time.perf_counter()
    summary = simulate(rules, games, jobs=jobs, chunk=200_000)
    return games / (time.perf_counter() - started), summary


def actor_rate(seed: int, seconds: float) -> tuple[float, list[Outcome]]:
    """Games per second of the Dealer and Players, one game after another."""
    rules = war_rules(seed=seed, max_rounds="none")

    async def run() -> tuple[float, list[Outcome]]:
        await play_war(rules, 0)  # warm
        outcomes: list[Outcome] = []
        started = time.perf_counter()
        while time.perf_counter() - started < seconds:
            outcomes.append(await play_war(rules, len(outcomes)))
        return len(outcomes) / (time.perf_counter() - started), outcomes

    return asyncio.run(run())


def python_rate(seed: int, seconds: float) -> tuple[float, list[list[int]]]:
    """Games per second of the same rule code, interpreted."""
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    done = subprocess.run(
        [sys.executable, "-c", PLAIN_PYTHON, str(seed), str(seconds)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    result = json.loads(done.stdout)
    return len(result["games"]) / result["seconds"], result["games"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=whole(), default=1_000_000, help="games for the kernel")
    parser.add_argument("--seconds", type=duration(), default=3.0, help="time for the slow ones")
    parser.add_argument("--seed", type=whole(0), default=1)
    args = arguments(parser, quick={"games": 2000, "seconds": 0.2})
    cores = numba.config.NUMBA_NUM_THREADS  # type: ignore[attr-defined]

    plain, plain_games = python_rate(args.seed, args.seconds)
    actors, actor_games = actor_rate(args.seed, args.seconds)
    single, _ = kernel_rate(args.seed, args.games // 4, 1)
    kernel, summary = kernel_rate(args.seed, args.games, cores)

    rules = war_rules(seed=args.seed, max_rounds="none")
    for index, outcome in enumerate(actor_games):
        assert outcome == play_one(rules, index), f"actors and kernel differ on game {index}"
    for index, row in enumerate(plain_games):
        o = play_one(rules, index)
        a = o.account
        assert row == [o.winner, o.reason, a.rounds, a.battles, a.wars], f"game {index} differs"

    print(f"War, defaults with max_rounds=none, seed {args.seed}: games per second (warm)")
    print(f"  kernel, {cores} threads   {kernel:>12,.0f}   target 100,000")
    print(f"  kernel, 1 thread    {single:>12,.0f}   x{kernel / single:.2f} for {cores} threads")
    print(f"  actors              {actors:>12,.1f}   kernel is x{kernel / actors:,.0f}")
    print(f"  plain Python        {plain:>12,.1f}   kernel is x{kernel / plain:,.0f}")
    print(f"  (actors checked on {len(actor_games)} games, plain Python on {len(plain_games)})")
    rounds, wins = summary.stats["rounds"], summary.wins
    print(
        f"rounds a game: mean {rounds['mean']:.1f} (RULES.md: about 350), median "
        f"{rounds['median']} (about 265); player 0 wins {100 * wins[0] / args.games:.1f}%"
    )
    rates = {"kernel": kernel, "kernel_1_thread": single, "actors": actors, "python": plain}
    figures = {
        "games_per_second": rates,
        "threads": cores,
        "checked": {"actors": len(actor_games), "python": len(plain_games)},
        "rounds": {"mean": rounds["mean"], "median": rounds["median"]},
        "player_0_wins": wins[0] / args.games,
    }
    record(args, figures)


if __name__ == "__main__":
    main()
