"""Nodes and time of the sowing engine to a fixed depth, on random Kalah positions.

A fixed depth makes two versions of the search comparable where a clock would not (their
nodes at a depth differ only by pruning and move ordering): run it on each, e.g. on a
second worktree with ``PYTHONPATH=<worktree>/src NUMBA_CACHE_DIR=<own dir>``, with a
``--note`` saying which, and compare their records in benchmarks/results/engine_depth.jsonl.

    .venv/bin/python benchmarks/engine_depth.py [--depth 16] [--positions 40] [--quick]
"""

from __future__ import annotations

import argparse
import random
import time

import parlour
from parlour.core import State
from parlour.search.engine import Engine, warm_up
from record import arguments, record, whole


def positions(count: int, seed: int) -> list[State]:
    """``count`` positions of OpenSpiel's Kalah after 4-29 random plies, none over."""
    rng = random.Random(seed)
    found: list[State] = []
    while len(found) < count:
        state = parlour.game("kalah", empty_capture=False).start()
        for _ in range(rng.randrange(4, 30)):
            if state.is_over:
                break
            state = state.play(rng.choice(state.legal_moves()))
        if not state.is_over:
            found.append(state)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--depth", type=whole(), default=16)
    parser.add_argument("--positions", type=whole(), default=40)
    parser.add_argument("--seed", type=whole(0), default=7)
    args = arguments(parser, quick={"depth": 6, "positions": 4})
    states = positions(args.positions, args.seed)
    warm_up(states[0])
    nodes, started = 0, time.perf_counter()
    for state in states:
        nodes += Engine().search(state, depth=args.depth).nodes
    seconds = time.perf_counter() - started
    print(
        f"depth {args.depth}, {args.positions} positions: {nodes:,} nodes in {seconds:.2f} s"
        f" ({nodes / seconds:,.0f} nodes/s)"
    )
    record(args, {"nodes": nodes, "seconds": seconds, "nodes_per_second": nodes / seconds})


if __name__ == "__main__":
    main()
