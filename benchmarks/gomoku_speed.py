"""Five in a row: the main search's nodes a second and depth a second, and Rapfi's on the
same positions.

The positions: ``--positions`` of the openings of ``POSITIONS``, each as drawn and after
the plies that follow it there (fixed, the same for every version of the engine).  On each:

- *nodes to depth*: the main search's iterative deepening to ``--depth`` (no clock, no
  threat search: ``alphabeta.deepen``) with each of the self-play variants named
  (``--variants``, ``gomoku_selfplay.VARIANTS``): its nodes, the same on any machine (what
  pruning saves), and its seconds (what they cost here, with the load);
- *threat searches*: each side's VCT (``THREATS`` threats at most, ``--threat-nodes`` a
  search, a fresh table each: ``threats.find_threat``), the nodes the same on any machine,
  and their CPU seconds;
- *depth in a move*: the brain's thinker at ``--seconds`` a move (threats first, then
  deepening to the clock): the depth it finished and its nodes a second;
- with ``--rapfi COMMAND``, Rapfi (a Gomocup brain, started in its program's folder; its
  ``MESSAGE`` lines give its depth and speed) at the same seconds a move, its memory 0
  (its own default hash).

    .venv/bin/python benchmarks/gomoku_speed.py [--positions 6] [--depth 7]
        [--variants after,no-prune] [--threat-nodes 30000] [--seconds 1]
        [--rapfi COMMAND] [--quick]
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
from gomoku_selfplay import SIZE, VARIANTS
from parlour.core import replay
from parlour.games.gomoku.engine import GomokuThinker, warm_up
from parlour.games.gomoku.engine.alphabeta import deepen
from parlour.games.gomoku.engine.levels import LEVELS, MAX_LEVEL, TABLE_BITS
from parlour.games.gomoku.engine.threats import find_threat
from parlour.games.gomoku.game import GomokuState
from parlour.search import Stop
from parlour.search.table import new_table
from record import arguments, duration, record, whole

POSITIONS = (
    ("G8 H10 J8", "G9 H8 I8 F8 I10 I9 J10 K10"),
    ("J7 J6 F10", "K7 G10 H10 G11 G9 I11 E9 H11"),
    ("J8 J9 F10", "I8 F11 I9 I7 K9 L9 K10 H7"),
    ("G6 G7 I10", "H6 J9 H7 F7 H5 H4 I5 F8"),
    ("F10 H8 I8", "I9 G7 H9 H7 F7 G8 G6 F9"),
    ("F10 H8 G6", "G7 F6 H6 H7 F8 E9 I8 G8"),
)
"""The openings and the plies that make each one's middlegame: the six self-play openings
(``gomoku_selfplay.openings(6, 1)``) and eight plies of a depth-3 search's best moves
after each, as main's engine chose them at e1f92fd.  Written down, where they were drawn
afresh each run: the balanced openings and the depth-3 moves follow the engine's values,
so that a change of its move order or its evaluation changed the positions its nodes were
counted on."""
RAPFI_LINE = re.compile(r"Speed (\S+) \| Depth (\d+)-\d+ .*\| Node (\S+) \| Time (\d+)ms")
"""Rapfi's ``MESSAGE`` line of a finished depth: speed, depth, nodes, milliseconds."""


def positions(count: int) -> list[GomokuState]:
    """The first ``count`` openings of ``POSITIONS`` and their middlegames."""
    start, found = parlour.game("gomoku", size=SIZE).start(), []
    for opening, midgame in POSITIONS[:count]:
        for names in (opening, f"{opening} {midgame}"):
            state = replay(start, names.split())[-1][1]
            assert isinstance(state, GomokuState)
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


THREATS = 10
"""The threats of ``threat_speed``'s VCTs: the brain's at level 6 (half its VCF depth)."""


def threat_speed(states: list[GomokuState], nodes: int) -> dict[str, Any]:
    """Both sides' VCT on each state within ``nodes``: the nodes, the CPU seconds and
    where one was found."""
    total, found = 0, []
    started = time.process_time()
    for state in states:
        for stone in (1, 2):
            point, used = find_threat(state, stone, True, THREATS, new_table(TABLE_BITS), -1, nodes)
            total += used
            found.append(point)
    cpu = time.process_time() - started
    return {
        "nodes": total,
        "cpu_seconds": round(cpu, 3),
        "nodes_a_second": round(total / cpu) if cpu else 0,
        "found": found,
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


def consult(command: str, state: GomokuState, seconds: float) -> list[str]:
    """What a Gomocup brain (started in its program's folder, its memory 0) says before its
    move in ``state`` at ``seconds`` a move: its ``MESSAGE`` lines."""
    program = shlex.split(command)
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
    said = []
    for line in brain.stdout:
        if line.startswith("MESSAGE"):
            said.append(line.strip())
        elif "," in line:
            break
    brain.stdin.write("END\n")
    brain.stdin.flush()
    brain.wait(5)
    return said


def rapfi(command: str, states: list[GomokuState], seconds: float) -> dict[str, Any]:
    """Rapfi's last finished depth and its speed on each state at ``seconds`` a move."""
    depths, speeds = [], []
    for state in states:
        depth, speed = 0, ""
        for line in consult(command, state, seconds):
            if match := RAPFI_LINE.search(line):
                speed, depth = match.group(1), int(match.group(2))
        depths.append(depth)
        speeds.append(speed)
    return {"depths": depths, "speeds": speeds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=whole(1, len(POSITIONS)), default=len(POSITIONS))
    parser.add_argument("--depth", type=whole(), default=7)
    parser.add_argument("--variants", default="after,no-prune")
    parser.add_argument("--seconds", type=duration(), default=1.0)
    parser.add_argument("--threat-nodes", type=whole(), default=30_000)
    parser.add_argument("--rapfi", default="", help="Rapfi's pbrain command, to measure it")
    args = arguments(
        parser, quick={"positions": 1, "depth": 2, "seconds": 0.05, "threat_nodes": 500}
    )
    variants = args.variants.split(",")
    if not set(variants) <= set(VARIANTS):
        parser.error(f"--variants: of {', '.join(VARIANTS)}")
    warm_up(parlour.game("gomoku", size=SIZE).start())  # type: ignore[arg-type]
    states = positions(args.positions)
    load_before = os.getloadavg()
    figures: dict[str, Any] = {
        "to_depth": {name: to_depth(states, args.depth, name) for name in variants},
        "threats": threat_speed(states, args.threat_nodes),
        "in_a_move": in_a_move(states, args.seconds),
    }
    if args.rapfi:
        figures["rapfi"] = rapfi(args.rapfi, states, args.seconds)
    figures |= {"load_before": load_before, "load_after": os.getloadavg()}
    print(figures)
    record(args, figures)


if __name__ == "__main__":
    main()
