"""parlour's five-in-a-row engine against any Gomocup engine, on 15x15, both through the
engine player: parlour plays as its own brain
(``parlour.games.gomoku.gomocup.brain`` in a process of its own), so both sides get the
same protocol, the same ``INFO timeout_turn`` and the same
referee.

Each opening (three stones, X 0 X, on random points of the central 5x5 from ``--seed``)
is played twice, each side playing X once; both then play to the end (five, a full
board, or a forfeit: a move later than the limit and a second, a crash...).  It prints
W-L-D from parlour's side of the games decided on the board and, apart, the forfeits of
each side (a forfeit is no win: an engine that cannot keep to the protocol or its limits
says nothing of its strength), the score with a 95% interval (normal, on the games'
scores) with and without the forfeited games, the time parlour took a move (mean and
maximum) against the limit, and both sides' CPU seconds a move (the engine process's and
its children's), said to be uneven when one side had more than 1.5x the other's.

    .venv/bin/python benchmarks/gomoku_vs_engine.py ENGINE [--games 20]
        [--time-per-move 1] [--engine-time-per-move S] [--seed 1] [--level 3]
        [--tolerance S] [--memory MIB] [--parallel 1] [--brain COMMAND]

``--engine-time-per-move`` gives the engine a time of its own (parlour keeps
``--time-per-move``): Rapfi at 0.1 s against parlour at 1 s, for one.

ENGINE is the engine's program (and its arguments, one string as a shell splits them),
built outside this repository.  Wine (github.com/jinjiebang/wine, MIT), for one: its
sources are UTF-16 with Windows line ends and need ``<cstring>`` with a current g++::

    cd wine && mkdir src && for f in pbrain-wine/*.cpp pbrain-wine/*.h; do
        iconv -f UTF-16 -t UTF-8 "$f" | sed 's/\\r$//' > src/$(basename "$f"); done
    sed -i '1i #include <cstring>' src/*.cpp
    g++ -std=c++11 -O2 -w src/AI.cpp src/Board.cpp src/main.cpp -o pbrain-wine

Wine times its moves in CPU time, so on a busy machine it takes longer by the clock on
the wall: ``--tolerance`` gives it room.  ``--parallel 2`` plays two games at once, each
by engines of its own, which on two cores halves a match's time: one side of a game
thinks at a time, so two games keep two cores busy without either side waiting for a
core.  ``--quick`` plays two games at once at 0.3 s a move (the tests play it against
parlour's own ``pbrain-parlour``).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import random
import shlex
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import parlour
from parlour.actors import Outcome, Ref, run_game, spawn
from parlour.games.gomoku.game import GomokuState
from parlour.games.gomoku.gomocup.player import MAX_MEMORY, TOLERANCE, EnginePlayer
from record import MAX_PROCESSES, arguments, duration, record, whole

SIZE = 15


def openings(count: int, seed: int) -> list[list[tuple[int, int]]]:
    """``count`` openings of three stones on distinct points of the central 5x5."""
    rng = random.Random(seed)
    centre = SIZE // 2
    points = [(centre + dr, centre + dc) for dr in range(-2, 3) for dc in range(-2, 3)]
    return [rng.sample(points, 3) for _ in range(count)]


def interval(scores: list[float]) -> tuple[float, float, float]:
    """The mean score and its 95% interval (normal approximation, clipped to 0..1)."""
    n = len(scores)
    mean = sum(scores) / n
    spread = math.sqrt(sum((s - mean) ** 2 for s in scores) / max(1, n - 1))
    half = 1.96 * spread / math.sqrt(n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


@dataclass
class Side:
    """One side's engine, kept from game to game (and started again after a forfeit,
    which ends its player), and the seconds each of its moves took."""

    command: list[str]
    seconds: float
    tolerance: float
    memory: int = MAX_MEMORY
    player: EnginePlayer | None = None
    ref: Ref | None = None
    times: list[float] = field(default_factory=list)
    cpu_times: list[float] = field(default_factory=list)

    def seat(self) -> Ref:
        if self.ref is None or not self.ref.alive:
            self.player = EnginePlayer(
                self.command, self.seconds, self.memory, self.tolerance, keep=True
            )
            self.times = self.times + self.player.times
            self.player.times = self.times  # one list for every player of the side
            self.cpu_times = self.cpu_times + self.player.cpu_times
            self.player.cpu_times = self.cpu_times
            self.ref = spawn(self.player)
        return self.ref

    async def leave(self) -> None:
        if self.ref is not None:
            self.ref.stop()
            await self.ref.join()


def seconds_a_move(times: list[float]) -> dict[str, float] | None:
    """The mean and the longest of a side's times a move (None: it made no move)."""
    return {"mean": sum(times) / len(times), "max": max(times)} if times else None


CPU_RATIO = 1.5
"""A match where one side used more than this many times the other's CPU a move is
said to be uneven (Wine's clock counts CPU time, parlour's the wall's)."""


def cpu_report(ours: list[float], theirs: list[float]) -> tuple[dict[str, Any], str]:
    """Both sides' CPU seconds a move (mean and max) and their ratio, and a line saying
    so, with a warning when one side had more than ``CPU_RATIO`` times the other's."""
    mine, other = seconds_a_move(ours), seconds_a_move(theirs)
    if mine is None or other is None or not mine["mean"] or not other["mean"]:
        return {"parlour": mine, "engine": other, "ratio": None}, "CPU a move: not measured"
    ratio = other["mean"] / mine["mean"]
    line = (
        f"CPU a move: parlour {mine['mean']:.2f} s (max {mine['max']:.2f}), engine "
        f"{other['mean']:.2f} s (max {other['max']:.2f}), the engine {ratio:.2f}x parlour's"
    )
    if not 1 / CPU_RATIO <= ratio <= CPU_RATIO:
        line += f": uneven, one side had more than {CPU_RATIO:g}x the other's CPU"
    return {"parlour": mine, "engine": other, "ratio": ratio}, line


async def match(
    engine: list[str],
    games: int,
    seconds: float,
    engine_seconds: float,
    seed: int,
    level: int,
    tolerance: float,
    memory: int,
    parallel: int = 1,
    brain: list[str] | None = None,
) -> Any:
    brain_memory = memory  # another brain has the engine's limits, parlour's its own
    if brain is None:
        brain = [str(Path(sys.executable).parent / "parlour"), "pbrain", "--level", str(level)]
        brain_memory = MAX_MEMORY
    tables = [
        (
            Side(brain, seconds, TOLERANCE, brain_memory),
            Side(engine, engine_seconds, tolerance, memory),
        )
        for _ in range(parallel)
    ]
    tally: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    scores: list[float] = []
    board_scores: list[float] = []  # the games decided on the board, no forfeit
    lost_as: Counter[str] = Counter()
    forfeits: list[str] = []
    pairs = (games + 1) // 2
    # every opening once with parlour X (seat 0), then with it 0
    queue = [(stones, n // pairs) for n, stones in enumerate(openings(pairs, seed) * 2)][:games]

    async def play(ours: Side, theirs: Side) -> None:
        """Play the queue's games at one table, one after another."""
        while queue:
            stones, seat = queue.pop(0)
            start = parlour.game("gomoku", size=SIZE).start()
            for point in stones:
                start = start.play(point)
            players = [ours.seat(), theirs.seat()]
            if seat == 1:
                players.reverse()
            started = time.perf_counter()
            outcome: Outcome = await run_game(start, players)
            score = 0.5 if outcome.winner is None else float(outcome.winner == seat)
            scores.append(score)
            result = {1.0: "wins", 0.0: "losses", 0.5: "draws"}[score]
            reasons[outcome.reason.value] += 1
            if outcome.forfeit is not None:  # a forfeit is no win or loss on the board
                who = "parlour" if outcome.forfeit == seat else "engine"
                forfeits.append(f"{who}: {outcome.detail}")
                tally[f"{who}_forfeits"] += 1
            else:
                board_scores.append(score)
                tally[result] += 1
                if score == 0:
                    lost_as["X" if seat == 0 else "0"] += 1
            final = outcome.final
            assert isinstance(final, GomokuState)
            names = " ".join(final.move_name(m) for m in (*stones, *outcome.moves))
            print(
                f"  game {len(scores):>2}: parlour {'X0'[seat]} "
                f"{['lost', 'drew', 'won'][int(score * 2)]} ({outcome.reason.value}"
                f"{': ' + outcome.detail if outcome.forfeit is not None else ''}) "
                f"in {time.perf_counter() - started:.0f} s: {names}",
                flush=True,
            )

    try:
        await asyncio.gather(*(play(*table) for table in tables))
    finally:
        await asyncio.gather(*(side.leave() for table in tables for side in table))
    mean, low, high = interval(scores)
    board = interval(board_scores) if board_scores else None
    ours_times, theirs_times = ([t for table in tables for t in table[i].times] for i in (0, 1))
    ours_cpu, theirs_cpu = ([t for table in tables for t in table[i].cpu_times] for i in (0, 1))
    ours_seconds = seconds_a_move(ours_times) or {"mean": 0.0, "max": 0.0}
    cpu, cpu_line = cpu_report(ours_cpu, theirs_cpu)
    kinds = ("wins", "losses", "draws", "engine_forfeits", "parlour_forfeits")
    figures = {
        **{k: tally[k] for k in kinds},
        "score": mean,
        "interval_95": [low, high],
        "score_on_the_board": None if board is None else board[0],
        "interval_95_on_the_board": None if board is None else list(board[1:]),
        "losses_as": dict(lost_as),
        "reasons": dict(reasons),
        "forfeits": forfeits,
        "parlour_seconds_a_move": ours_seconds,
        "engine_seconds_a_move": seconds_a_move(theirs_times),
        "cpu_a_move": cpu,
    }
    on_the_board = "no game" if board is None else f"{board[0]:.0%} ({board[1]:.0%}-{board[2]:.0%})"
    engine_time = "" if engine_seconds == seconds else f" (the engine {engine_seconds:g} s)"
    print(
        f"parlour vs {shlex.join(engine)} at {seconds:g} s a move{engine_time}: "
        f"{tally['wins']}-{tally['losses']}-{tally['draws']} (W-L-D) on the board, "
        f"{tally['engine_forfeits']} forfeits by the engine and {tally['parlour_forfeits']} by "
        f"parlour; score {mean:.0%} (95%: {low:.0%}-{high:.0%}), on the board alone "
        f"{on_the_board}; parlour's time a move: mean {ours_seconds['mean']:.2f} s, "
        f"max {ours_seconds['max']:.2f} s (limit {seconds:g} s); {cpu_line}"
    )
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("engine", metavar="ENGINE", help="the engine's program and arguments")
    parser.add_argument("--games", type=whole(), default=20)
    parser.add_argument("--time-per-move", dest="seconds", type=duration(), default=1.0)
    parser.add_argument(
        "--engine-time-per-move",
        dest="engine_seconds",
        type=duration(),
        default=None,
        help="the engine's seconds a move (default: --time-per-move's)",
    )
    parser.add_argument("--seed", type=whole(0), default=1)
    parser.add_argument("--level", type=whole(), default=3, help="parlour's level (depth, width)")
    parser.add_argument(
        "--tolerance",
        type=duration(),
        default=TOLERANCE,
        help="seconds the engine may go over a move's limit (one that counts CPU time, "
        "as Wine does, takes longer on a busy machine); parlour gets the default",
    )
    parser.add_argument(
        "--memory",
        type=whole(0),
        default=MAX_MEMORY >> 20,
        help="MiB the engine may use (INFO max_memory; over it, it forfeits; 0: no limit)",
    )
    parser.add_argument(
        "--parallel",
        type=whole(1, MAX_PROCESSES),
        default=1,
        help="games played at once, each by its own two engines (on a machine of at least "
        "as many cores: only one side of a game thinks at a time)",
    )
    parser.add_argument(
        "--brain",
        help="the program (and arguments) that plays parlour's side instead of parlour's own "
        "brain, with the engine's --memory: an engine against itself says how far the "
        "openings favour X",
    )
    args = arguments(parser, quick={"games": 2, "seconds": 0.3, "parallel": 2})
    figures = asyncio.run(
        match(
            shlex.split(args.engine),
            args.games,
            args.seconds,
            args.seconds if args.engine_seconds is None else args.engine_seconds,
            args.seed,
            args.level,
            args.tolerance,
            args.memory << 20,
            args.parallel,
            shlex.split(args.brain) if args.brain else None,
        )
    )
    record(args, figures)


if __name__ == "__main__":
    main()
