"""Ayo's kernels: perft leaves per second from the start (player 0 to move), and moves per
second through the State API (what the seed's minimax levels pay per node).

    .venv/bin/python benchmarks/ayo_perft.py [--depth 9] [--moves 20000] [--quick]
"""

from __future__ import annotations

import argparse
import random
import time

import parlour
from record import arguments, record, whole


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=whole(), default=9)
    parser.add_argument("--moves", type=whole(), default=20000)
    args = arguments(parser, quick={"depth": 4, "moves": 2000})

    start = parlour.game("ayo", first=0).start()
    parlour.perft(start, 2)  # compile (or load from the cache) before timing
    perft = []
    for depth in range(1, args.depth + 1):
        started = time.perf_counter()
        leaves = parlour.perft(start, depth)
        seconds = time.perf_counter() - started
        rate = leaves / seconds if seconds > 0 else float("inf")
        print(f"perft {depth:>2} {leaves:>12,} leaves  {seconds:8.3f} s  {rate:>12,.0f} leaves/s")
        perft.append({"depth": depth, "leaves": leaves, "seconds": seconds})

    rng = random.Random(1)
    state, played = start, 0
    started = time.perf_counter()
    while played < args.moves:
        state = start if state.is_over else state.play(rng.choice(state.legal_moves()))
        played += 1
    seconds = time.perf_counter() - started
    print(f"State.play with legal_moves: {played / seconds:,.0f} random moves/s")
    record(args, {"perft": perft, "state_moves_per_second": played / seconds})


if __name__ == "__main__":
    main()
