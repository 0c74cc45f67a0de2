"""What the transposition table saves the five-in-a-row searches, side by side in one run.

* The main search: iterative deepening to ``--depth`` over the best-looking moves of
  positions from the computer's own games (level 3 at 0.03 s a move from random two-stone
  openings), with a table of two slots (next to none), a computer player's and a brain's
  (``LARGEST_TABLE_BITS``); it prints nodes, seconds, the ratios, and how often the best
  values agree (a deeper entry may stand in for a shallower search: the table's values
  are at least as deep).
* The threat search: the opponent's VCT, deepened one threat at a time, in three positions
  from lost benchmark games (each had a VCT of 4-6 threats that the 0.04-s search missed),
  with a table of two slots and with the real one.

    .venv/bin/python benchmarks/gomoku_search.py [--depth 5] [--games 8] [--quick]
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

import parlour
from parlour.games.gomoku import engine as gomoku
from parlour.games.gomoku.engine.alphabeta import deepen
from parlour.games.gomoku.engine.board import five_points
from parlour.games.gomoku.engine.levels import LARGEST_TABLE_BITS, TABLE_BITS
from parlour.games.gomoku.game import GomokuState
from parlour.search.table import Table, new_table
from record import arguments, record, whole

SIZE = 15
WIDTH = 10
LOST = [  # the moves of a lost game up to parlour's (0's) losing move; X has a VCT
    "G8 I9 H8 H10 G11 J8",
    "F8 G7 E7 G9 E8 G8 G6 E10",
    "J8 J7 K7 K8 I6 I9 J6 L9",
]


def self_play_positions(games: int, seed: int = 5) -> list[GomokuState]:
    """Every fourth position of ``games`` quick games of the computer against itself."""
    rng = random.Random(seed)
    centre = [(SIZE // 2 + dr, SIZE // 2 + dc) for dr in range(-2, 3) for dc in range(-2, 3)]
    positions = []
    for _ in range(games):
        state = parlour.game("gomoku", size=SIZE).start()
        for point in rng.sample(centre, 2):
            state = state.play(point)
        assert isinstance(state, GomokuState)
        while not state.is_over and np.count_nonzero(state.board) < 40:
            state = state.play(gomoku.search(state, 3, seconds=0.03).move)
            if np.count_nonzero(state.board) % 4 == 0 and not state.is_over:
                positions.append(state)
    return positions


def best_and_nodes(state: GomokuState, depth: int, table: Table) -> tuple[int, int]:
    """The main search's iterative deepening to ``depth``: the best value and the nodes."""
    scores, _, nodes = deepen(state, depth, table, WIDTH)
    return int(scores.max()), nodes


def main_search(positions: list[GomokuState], depth: int) -> dict[str, object]:
    """Deepening on every quiet position with a table of two slots (next to none), a
    computer player's and a brain's."""
    quiet = [
        s for s in positions if not any(len(five_points(s.board, stone, False)) for stone in (1, 2))
    ]
    results = {}
    for bits in (1, TABLE_BITS, LARGEST_TABLE_BITS):
        started = time.perf_counter()
        found = [best_and_nodes(state, depth, new_table(bits)) for state in quiet]
        results[bits] = (found, time.perf_counter() - started)
    plain, plain_s = results[1]
    plain_nodes = sum(n for _, n in plain)
    print(f"main search, depth {depth}, {len(quiet)} positions:")
    print(f"  {'two slots':<12} {plain_nodes:>10,} nodes {plain_s:7.2f} s")
    figures: dict[str, object] = {
        "positions": len(quiet),
        "two_slots": {"nodes": plain_nodes, "seconds": plain_s},
    }
    for bits in (TABLE_BITS, LARGEST_TABLE_BITS):
        tabled, seconds = results[bits]
        same = sum(a == b for (a, _), (b, _) in zip(plain, tabled, strict=True))
        nodes = sum(n for _, n in tabled)
        print(
            f"  {f'2**{bits} slots':<12} {nodes:>10,} nodes {seconds:7.2f} s: "
            f"{plain_nodes / nodes:.2f}x fewer nodes, {plain_s / seconds:.2f}x less time "
            f"than two slots ({same} same best values)"
        )
        figures[f"table_2**{bits}"] = {"nodes": nodes, "seconds": seconds, "same_best_values": same}
    return figures


def threat_search() -> list[dict[str, object]]:
    print("threat search, the opponent's VCT deepened a threat at a time:")
    figures = []
    for opening in LOST:
        state = parlour.game("gomoku", size=SIZE).start()
        for name in opening.split():
            state = state.play(state.parse_move(name))
        assert isinstance(state, GomokuState)
        line = []
        for bits in (1, TABLE_BITS):
            table, nodes, found = new_table(bits), 0, -1
            started = time.perf_counter()
            for threats in range(2, 8):
                found, used = gomoku.find_threat(state, 1, True, threats, table)
                nodes += used
                if found >= 0:
                    break
            seconds = time.perf_counter() - started
            point = state.move_name(divmod(found, SIZE)) if found >= 0 else "none"
            found_at = f"{point} at {threats}"
            line.append(f"{2**bits:>6} slots: {found_at}, {nodes:>7,} nodes {seconds:.3f} s")
            figures.append(
                {
                    "after": opening,
                    "slots": 2**bits,
                    "found": found_at,
                    "nodes": nodes,
                    "seconds": seconds,
                }
            )
        print(f"  after {opening}:\n    " + "\n    ".join(line))
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=whole(), default=5)
    parser.add_argument("--games", type=whole(), default=8)
    args = arguments(parser, quick={"depth": 2, "games": 1})
    warm = self_play_positions(1)  # compiles everything first
    deepen(warm[0], 2, new_table(4), WIDTH)
    gomoku.find_threat(warm[0], 1, True, 2, new_table(4))
    main = main_search(self_play_positions(args.games), args.depth)
    record(args, {"main_search": main, "threat_search": threat_search()})


if __name__ == "__main__":
    main()
