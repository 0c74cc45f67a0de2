"""Five in a row: the main search's nodes a second and depth a second, and Rapfi's on the
same positions.

The positions: ``--positions`` of the self-play openings (``gomoku_selfplay.openings``),
each as drawn and after ``MIDGAME`` more plies of a depth-3 search's best moves (no clock,
no leaf VCF, reductions or pruning: the same positions on any machine and any setting).  On each:

- *nodes to depth*: the main search's iterative deepening to ``--depth`` (no clock, no
  threat search: ``alphabeta.deepen``) with each of the self-play variants named
  (``--variants``, ``gomoku_selfplay.VARIANTS``): its nodes, the same on any machine (what
  pruning saves), and its seconds (what they cost here, with the load);
- *depth in a move*: the brain's thinker at ``--seconds`` a move (threats first, then
  deepening to the clock): the depth it finished and its nodes a second;
- with ``--rapfi COMMAND``, Rapfi (a Gomocup brain, started in its program's folder; its
  ``MESSAGE`` lines give its depth and speed) at the same seconds a move, its memory 0
  (its own default hash).

    .venv/bin/python benchmarks/gomoku_speed.py [--positions 6] [--depth 7]
        [--variants after,no-prune] [--seconds 1] [--rapfi COMMAND] [--quick]
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import time
from pathlib import Path
from typing import Any

import parlour
from gomoku_selfplay import SIZE, VARIANTS, openings
from parlour.games.gomoku.engine import GomokuThinker, warm_up
from parlour.games.gomoku.engine.alphabeta import deepen
from parlour.games.gomoku.engine.levels import LEVELS, MAX_LEVEL, TABLE_BITS
from parlour.games.gomoku.game import GomokuState
from parlour.search import Stop
from parlour.search.table import new_table
from record import arguments, record

MIDGAME = 8
"""The plies played from an opening to make its midgame position."""
RAPFI_LINE = re.compile(r"Speed (\S+) \| Depth (\d+)-\d+ .*\| Node (\S+) \| Time (\d+)ms")
"""Rapfi's ``MESSAGE`` line of a finished depth: speed, depth, nodes, milliseconds."""


def positions(count: int) -> list[GomokuState]:
    """``count`` openings and their midgames (see the module's text)."""
    found = []
    for opening in openings(count, 1):
        state = parlour.game("gomoku", size=SIZE).start()
        for name in opening.split():
            state = state.play(state.parse_move(name))
        assert isinstance(state, GomokuState)
        found.append(state)
        for _ in range(MIDGAME):
            moves = deepen(state, 3, new_table(16), 10, 0, 0, 0)[1]
            played = state.play(divmod(int(moves[0]), SIZE))
            assert isinstance(played, GomokuState)
            if played.is_over:
                break
            state = played
        found.append(state)
    return found


def to_depth(states: list[GomokuState], depth: int, variant: str) -> dict[str, Any]:
    """The nodes and seconds of the main search to ``depth`` on each state, by ``variant``."""
    settings = VARIANTS[variant]
    width = LEVELS[MAX_LEVEL].width
    nodes, seconds = [], []
    for state in states:
        started = time.process_time()
        found = deepen(
            state, depth, new_table(TABLE_BITS), width,
            settings["leaf_vcf"], settings["late"], settings["prune"],
        )  # fmt: skip
        seconds.append(time.process_time() - started)
        nodes.append(found[2])
    total, cpu = sum(nodes), sum(seconds)
    return {
        "nodes": nodes,
        "total_nodes": total,
        "cpu_seconds": round(cpu, 3),
        "nodes_a_second": round(total / cpu) if cpu else 0,
    }


def in_a_move(states: list[GomokuState], seconds: float) -> dict[str, Any]:
    """The depth the brain's thinker finishes in ``seconds`` on each state, and its speed."""
    depths, speeds = [], []
    for state in states:
        thinker = GomokuThinker(MAX_LEVEL, seconds, to_the_clock=True)
        result = thinker.best_move(state, Stop())[1]
        depths.append(result.depth)
        speeds.append(round(result.nodes / max(result.seconds, 1e-9)))
    return {"depths": depths, "nodes_a_second": speeds}


def rapfi(command: str, states: list[GomokuState], seconds: float) -> dict[str, Any]:
    """Rapfi's last finished depth and its speed on each state at ``seconds`` a move."""
    depths, speeds = [], []
    program = shlex.split(command)
    for state in states:
        brain = subprocess.Popen(
            program, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            cwd=Path(program[0]).parent,
        )  # fmt: skip
        assert brain.stdin is not None and brain.stdout is not None
        stones = [(p, int(state.board[p]) - 1) for p in zip(*state.board.nonzero(), strict=True)]
        mine = state.to_move
        lines = [f"START {SIZE}", "INFO max_memory 0", f"INFO timeout_turn {int(seconds * 1000)}"]
        lines += ["INFO timeout_match 0", "BOARD"]
        lines += [f"{c},{r},{1 if who == mine else 2}" for (r, c), who in stones] + ["DONE"]
        brain.stdin.write("\n".join(lines) + "\n")
        brain.stdin.flush()
        depth, speed = 0, ""
        for line in brain.stdout:
            if line.startswith("MESSAGE"):
                if match := RAPFI_LINE.search(line):
                    speed, depth = match.group(1), int(match.group(2))
            elif "," in line:
                break
        brain.stdin.write("END\n")
        brain.stdin.flush()
        brain.wait(5)
        depths.append(depth)
        speeds.append(speed)
    return {"depths": depths, "speeds": speeds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--depth", type=int, default=7)
    parser.add_argument("--variants", default="after,no-prune")
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--rapfi", default="", help="Rapfi's pbrain command, to measure it")
    args = arguments(parser, quick={"positions": 1, "depth": 2, "seconds": 0.05})
    variants = args.variants.split(",")
    if not set(variants) <= set(VARIANTS):
        parser.error(f"--variants: of {', '.join(VARIANTS)}")
    warm_up(parlour.game("gomoku", size=SIZE).start())  # type: ignore[arg-type]
    states = positions(args.positions)
    load_before = os.getloadavg()
    figures: dict[str, Any] = {
        "to_depth": {name: to_depth(states, args.depth, name) for name in variants},
        "in_a_move": in_a_move(states, args.seconds),
    }
    if args.rapfi:
        figures["rapfi"] = rapfi(args.rapfi, states, args.seconds)
    figures |= {"load_before": load_before, "load_after": os.getloadavg()}
    print(figures)
    record(args, figures)


if __name__ == "__main__":
    main()
