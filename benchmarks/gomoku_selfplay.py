"""Self-play of five in a row: the engine with a main-search setting changed against the
engine without it, through ``parlour match gomoku`` (every game refereed and recorded).

Each player is ``python:gomoku_selfplay:player:NAME@SECONDS``, a brain's thinker (the
default level, deepening to the clock) with the settings of ``VARIANTS[NAME]``: ``after``
(leaf VCF, reductions and pruning: ``LATE_MOVES``, ``PRUNE_MOVES``), ``before`` (none of
them), ``no-leaf-vcf``, ``no-reductions``, ``no-prune``, ``no-late`` (no reductions or
pruning: the engine's levels as they are), ``hand`` (the same, its leaves valued by
the weights set by hand, ``weights.HAND``, not the shipped table: what tuning gained),
``round6`` (the same with round 6's fitted table, no double threat weighed:
``benchmarks/data/gomoku_weights_round6.json``), ``threats-0.3`` (the threat searches
stopped at 0.3 of the move, not ``THREATS_SHARE``), ``no-screen`` (a threat answered by
the first three moves that hold), ``no-book`` (``no-late`` without the opening book,
which every other player consults: ``parlour.games.gomoku.book``); or
``NAME#MAIN/THREATS`` (``--nodes MAIN/THREATS``), the same by nodes, with no clock: each
threat search to THREATS nodes and the main search until it has searched MAIN, a game
that is the same on a busy machine as on an idle one (so that ``-j 2`` is fair there:
``--parallel``).
The openings are three stones on the central 5x5 (``--seed``), those nearest to even of
several drawn (``--openings balanced``, the default: ``openings``), each
played twice with the colours swapped; one game at a time (``-j 1``), so that on a busy
machine both sides share the same load.  The match stops when the SPRT (Elo 0 against
``--elo``) decides, or after ``--games``.  The record holds the match's JSON (W-L-D,
Elo with its interval, the LLR) and the machine's load before and after.

    .venv/bin/python benchmarks/gomoku_selfplay.py [--players after,before]
        [--seconds 0.1 | --nodes 100000/20000] [--games 200] [--elo 30] [--seed 1]
        [--openings balanced|random] [--parallel 1] [--quick]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import parlour
from bots import Bot
from parlour.games.gomoku.engine import GomokuThinker
from parlour.games.gomoku.engine.alphabeta import deepen
from parlour.games.gomoku.engine.levels import (
    LATE_MOVES,
    LEAF_VCF_NODES,
    PRUNE_MOVES,
    SCREEN_NODES,
)
from parlour.games.gomoku.engine.weights import HAND, load_weights
from parlour.games.gomoku.game import GomokuState
from parlour.search import DEFAULT_LEVEL, Stop
from parlour.search.table import new_table
from record import MAX_PROCESSES, arguments, duration, record, whole

SIZE = 15
AFTER = {
    "leaf_vcf": LEAF_VCF_NODES,
    "late": LATE_MOVES,
    "prune": PRUNE_MOVES,
    "screen": SCREEN_NODES,
}
VARIANTS: dict[str, dict[str, Any]] = {
    "after": AFTER,
    "before": {**AFTER, "leaf_vcf": 0, "late": 0, "prune": 0},
    "no-leaf-vcf": {**AFTER, "leaf_vcf": 0},
    "no-reductions": {**AFTER, "late": 0},
    "no-prune": {**AFTER, "prune": 0},
    "no-late": {**AFTER, "late": 0, "prune": 0},
    "no-screen": {**AFTER, "screen": 0},
    "hand": {**AFTER, "late": 0, "prune": 0},
    "round6": {**AFTER, "late": 0, "prune": 0},
    "threats-0.3": {**AFTER, "late": 0, "prune": 0, "threats_share": 0.3},
    "no-book": {**AFTER, "late": 0, "prune": 0, "book": False},
}
"""The settings of each player (``Level.leaf_vcf``, ``late``, ``prune``, ``screen`` and
``threats_share``, and the thinker's ``book``); ``no-screen`` answers a threat as the
engine did before the screen: the first three answers that hold, each proven with a whole
threat search."""
TABLES = {
    "hand": lambda: HAND,
    "round6": lambda: load_weights(Path(__file__).parent / "data" / "gomoku_weights_round6.json"),
}
"""The players whose leaves are valued by another table than the shipped one."""
POOL = 8
"""Openings drawn for each kept by ``openings(balanced=True)``."""
BALANCE_DEPTH = 4
"""The depth of the main search that values an opening (``balance``): a few milliseconds
an opening."""


@cache
def _warm() -> None:
    """The kernels, once a worker, off every player's clock."""
    from parlour.games.gomoku.engine import warm_up

    warm_up(parlour.game("gomoku", size=SIZE).start())  # type: ignore[arg-type]


def player(argument: str, seed: int | None) -> Bot:
    """The brain's thinker with ``VARIANTS[NAME]``'s settings, ``NAME@SECONDS`` a move or
    ``NAME#MAIN/THREATS`` nodes (no clock)."""
    by_time = "@" in argument
    name, _, budget = argument.partition("@" if by_time else "#")
    main, _, threats = budget.partition("/")
    if name not in VARIANTS or not (by_time or (main.isdigit() and threats.isdigit())):
        raise ValueError(
            f"player: NAME@SECONDS or NAME#MAIN/THREATS, NAME one of {', '.join(VARIANTS)}"
        )
    _warm()
    by_nodes = None if by_time else (int(main), int(threats))
    table = TABLES.get(name)
    thinker = GomokuThinker(
        DEFAULT_LEVEL, float(budget) if by_time else None, to_the_clock=True,
        by_nodes=by_nodes, weights=table() if table else None, **VARIANTS[name],
    )  # fmt: skip
    return Bot(lambda state: thinker.best_move(state, Stop())[0])


def openings(count: int, seed: int, balanced: bool = True) -> list[str]:
    """``count`` openings of three stones on distinct points of the central 5x5; if
    ``balanced``, the ``count`` of ``POOL`` times as many whose main-search value
    (``balance``) is nearest to even.  A three-stone opening favours X, most by a few
    hundred: from those, each side wins its game as X and the pair of games played with
    the colours swapped tells the players apart only when one wins both."""
    rng = random.Random(seed)
    start = parlour.game("gomoku", size=SIZE).start()
    centre = SIZE // 2
    points = [(centre + dr, centre + dc) for dr in range(-2, 3) for dc in range(-2, 3)]
    drawn = [
        " ".join(start.move_name(p) for p in rng.sample(points, 3))
        for _ in range(count * POOL if balanced else count)
    ]
    if not balanced:
        return drawn
    unique = list(dict.fromkeys(drawn))
    return sorted(unique, key=lambda opening: abs(balance(opening)))[:count]


def balance(opening: str) -> int:
    """The main search's value of ``opening`` for the side to move, to ``BALANCE_DEPTH``
    over its 10 likeliest moves (no clock: the same on any machine)."""
    state = parlour.game("gomoku", size=SIZE).start()
    for name in opening.split():
        state = state.play(state.parse_move(name))
    assert isinstance(state, GomokuState)
    scores = deepen(state, BALANCE_DEPTH, new_table(16), 10)[0]
    return int(scores.max())


def match(
    players: list[str],
    budget: str,
    games: int,
    elo: float,
    seed: int,
    balanced: bool,
    parallel: int = 1,
) -> Any:
    """``parlour match gomoku`` of the two variants, ``parallel`` games at a time, each
    move's ``budget`` (``@SECONDS`` or ``#MAIN/THREATS``): its JSON."""
    specs = ",".join(f"python:gomoku_selfplay:player:{name}{budget}" for name in players)
    parlour_command = str(Path(sys.executable).parent / "parlour")
    with tempfile.TemporaryDirectory() as folder:
        book = Path(folder) / "openings.txt"
        book.write_text("\n".join(openings((games + 1) // 2, seed, balanced)) + "\n")
        command = [
            parlour_command, "match", "gomoku", "--players", specs, "--games", str(games),
            "--openings", str(book), "-j", str(parallel), "--seed", str(seed),
            "--sprt", f"0,{elo:g}", "--db", str(Path(folder) / "match.sqlite3"), "--json",
        ]  # fmt: skip
        here = str(Path(__file__).parent)
        path = os.pathsep.join(filter(None, [here, os.environ.get("PYTHONPATH", "")]))
        done = subprocess.run(
            command, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": path}
        )
    if done.returncode:
        raise SystemExit(f"parlour match failed: {done.stderr.strip()}")
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="after,before")
    parser.add_argument("--seconds", type=duration(), default=0.1)
    parser.add_argument(
        "--nodes", default="", help="MAIN/THREATS: each move by nodes, not --seconds"
    )
    parser.add_argument(
        "--parallel",
        type=whole(1, MAX_PROCESSES),
        default=1,
        help="games at once (fair on a busy machine by nodes)",
    )
    parser.add_argument("--games", type=whole(), default=200)
    parser.add_argument("--elo", type=whole(1, 1000), default=30)
    parser.add_argument("--seed", type=whole(0), default=1)
    parser.add_argument(
        "--openings",
        choices=("balanced", "random"),
        default="balanced",
        help="the openings nearest to even of several drawn (default), or as drawn",
    )
    args = arguments(parser, quick={"games": 2, "seconds": 0.02})
    players = args.players.split(",")
    if len(players) != 2 or not set(players) <= set(VARIANTS):
        parser.error(f"--players: two of {', '.join(VARIANTS)}")
    main, _, threats = args.nodes.partition("/")
    if args.nodes and not (main.isdigit() and threats.isdigit()):
        parser.error("--nodes: MAIN/THREATS, two whole numbers")
    budget = f"#{args.nodes}" if args.nodes else f"@{args.seconds:g}"
    load_before = os.getloadavg()
    balanced = args.openings == "balanced"
    result = match(players, budget, args.games, args.elo, args.seed, balanced, args.parallel)
    figures = {"match": result, "load_before": load_before, "load_after": os.getloadavg()}
    print(json.dumps(figures, indent=1))
    record(args, figures)


if __name__ == "__main__":
    main()
