"""Five in a row's tactical suite: positions with a known forced win (a VCF or VCT of the
side to move) or a forced defence (the opponent has one, a few moves hold), solved by the
engine's move search at short times, with the main search's settings of each variant of
``gomoku_selfplay.VARIANTS`` side by side in one run; and the main search's nodes a
second on the same positions.

* ``win``: solved if the move's search proves a win (a VCF, a VCT, or the main search's
  value of a won position); the position was proven won by a long threat search.
* ``defend``: solved if, after the move, a long threat search (a VCF of 20 fours, VCTs
  of 2 to 7 threats, 200,000 nodes each) finds none for the opponent; the positions were
  chosen where 1 to 8 of the 40 likeliest moves hold (the holding moves are listed).

Each position is searched by a fresh thinker (the brain's level) at each of ``--depths``
and ``--threat-nodes`` (no clock: a busy machine changes nothing but the wall time);
the table gives, per variant and budget, the solved count, the nodes, and the CPU
seconds a position.  The main search's speed is
its iterative deepening to ``--depth`` on every position (``alphabeta.deepen``, width
10): nodes (the leaves' VCFs counted), seconds and nodes a second, and how often each
variant's best value agrees with the one before.  The machine's load is recorded.

    .venv/bin/python benchmarks/gomoku_tactics.py [--depths 4,6] [--threat-nodes 5000,60000]
        [--depth 6] [--variants before,no-leaf-vcf,no-reductions,after] [--positions N]
        [--quick]

The variants are ``gomoku_selfplay.VARIANTS``' settings, all with the shipped weights
(``hand``'s own table is the self-play's, not this suite's); ``no-late`` is the levels
as they play.
"""

from __future__ import annotations

import argparse
import os
import time
from dataclasses import asdict, dataclass
from functools import cache

import parlour
from gomoku_selfplay import VARIANTS
from parlour.games.gomoku import engine as gomoku
from parlour.games.gomoku.engine.alphabeta import deepen
from parlour.games.gomoku.engine.board import MAX_PLY, WIN, five_points
from parlour.games.gomoku.game import GomokuState
from parlour.search.table import new_table
from record import arguments, record, whole

SIZE = 15
SUITE = [
    # (kind, the game so far, what is known): from quick self-play games (level 2-3 at
    # 0.02-0.05 s), the lost games of gomoku_search.py and the tests' positions
    ("win", "F10 F6 K5 D8 D10 G7 E10 G10 C9", "VCT of 7 threats"),
    ("win", "I9 G6 H7 I6 F6 G7 H9 G9 G8 H8 F7 I10 F8 F9 I7 G5 K9 G4 G3 F4", "VCT of 5"),
    ("win", "F5 I11 J11 J10 K9 H10 K10 J12 K13 I12 K12 K11 I10 H9 H8", "VCT of 7"),
    ("win", "F6 F7 H10 G6 I9 E8 D9 H5 I4 H8 J8 G11 D8", "VCT of 5"),
    ("win", "K9 G11 J8 H12 L10 I7 M11 N12 K11 I13 J14 K13", "VCT of 4"),
    ("win", "K9 K11 K10 J11 L10 J10 L11 J9 J8 M11 L12 L13 L8 L9", "VCT of 8"),
    ("win", "I5 I11 F11 J12 F12 H10 G9 J10", "VCT of 7"),
    ("win", "G9 H7 F11 I8 F8 F9 E10 G6 J9 D9 H10 I11 E7 D6 E8 E9 D8 G8", "VCT of 7"),
    ("win", "G9 J6 K11 H6 I11 G6 I6 F8 J12", "VCT of 6"),
    ("win", "I7 F5 F8 F6 H8 G5", "VCT of 6"),
    ("win", "H6 E11 F8 F11 G7 E9 F6", "VCT of 6"),
    ("win", "I11 G5 J7 F6 J10 H4 E7 F4", "VCT of 7"),
    ("win", "G8 I9 H8 H10 G11 J8", "VCT from G9"),
    ("win", "F8 G7 E7 G9 E8 G8 G6 E10", "VCT from E6"),
    ("win", "J8 J7 K7 K8 I6 I9 J6 L9", "VCT from H6 or I5"),
    ("win", "H6 J8 I9 J10 J6 I10 I6 K6 I5 J9 J7 K8 L7", "Wine's VCT of 6 from J11"),
    ("win", "I10 F8 F10 E9 H11 D10 G7 G10 H9 H8", "Wine's VCT of 6 from G8"),
    ("win", "G11 K5 G8 I8 H8 I10 G9 G7 J6 J7 F7 K9 F6 G6 H9 K10", "VCF"),
    ("win", "G7 E11 J7 K10 I10 H8 I11 J8 J11 G9 J9 I5 K7 F5 E9 G6", "VCF"),
    ("win", "K11 H5 J9 H8 I5 I6 G9 F8 K7 F5 H9 J8 H10 K5 E11 H6 K10", "VCF"),
    ("win", "F10 K11 I6 F11 H9 H8 K7 E11 J6 I10 E9 H10 F8 F7 F6 E7 I7 I5", "VCF"),
    ("defend", "F10 F6 K5 D8 D10 G7 E10", "G10 C10"),
    ("defend", "I9 G6 H7 I6 F6 G7 H9 G9", "G8 G10 G5"),
    ("defend", "F5 I11 J11 J10 K9 H10 K10 J12", "K13 G9"),
    ("defend", "F6 F7 H10 G6 I9 E8", "D9 H5"),
    ("defend", "K9 G11 J8 H12 L10", "M11 I7"),
    ("defend", "K9 K11 K10 J11 L10 J10 L11", "J9 L12 I9 M13 H8 L9 M12 I8"),
    ("defend", "I5 I11 F11 J12 F12 H10", "K13 G9"),
    ("defend", "G9 H7 F11 I8 F8 F9 E10", "G6 J9 F5 K10 H10 D9"),
    ("defend", "G9 J6 K11 H6 I11 G6", "I6 F6 K6"),
    ("defend", "I7 F5 F8 F6 H8", "F4 F3 I8 G9 J6 G8 H7"),
    ("defend", "H6 E11 F8 F11 G7", "E9 I5"),
    ("defend", "I11 G5 J7 F6 J10 H4", "E7 I3"),
    ("defend", "J8 F7 K7 I7 I9", "H10 L6"),
    ("defend", "F6 H8 E7 G9 D8 C9 F10 E9 F9 F8 D7", "not D10"),
    ("defend", "G6 J9 F7 I10 E8 H5 D9 C10 F9 H11 G12", "not K8"),
]
"""Every position on 15x15.  The defences' holding moves are those the suite's reference
(``holds``) found among the 40 likeliest when the suite was made."""
REFERENCE_NODES = 200_000
LEVEL = 3
"""The level searched (its width and VCF depth): the brain's."""


def position(moves: str) -> GomokuState:
    state = parlour.game("gomoku", size=SIZE).start()
    for name in moves.split():
        state = state.play(state.parse_move(name))
    assert isinstance(state, GomokuState)
    return state


def has_threat(state: GomokuState, stone: int) -> bool:
    """The reference: whether ``stone`` has a VCF of 20 fours or a VCT of 2 to 7 threats
    on ``state``'s board, as if it moved, in ``REFERENCE_NODES`` each."""
    if gomoku.find_threat(state, stone, False, 20, new_table(18), nodes=REFERENCE_NODES)[0] >= 0:
        return True
    return any(
        gomoku.find_threat(state, stone, True, threats, new_table(18), nodes=REFERENCE_NODES)[0]
        >= 0
        for threats in range(2, 8)
    )


@cache
def holds(moves: str, move: tuple[int, int]) -> bool:
    """Whether the side to move's ``move`` leaves the opponent no threat (``has_threat``);
    a four of it counts as answered, the move then wasted."""
    state = position(moves)
    stone = state.to_move + 1
    after = state.play(move)
    if after.is_over:
        return True
    assert isinstance(after, GomokuState)
    mine = five_points(after.board, stone, False)
    if len(mine) >= 2:
        return True
    if len(mine) == 1:
        blocked = after.play(divmod(int(mine[0]), SIZE))
        assert isinstance(blocked, GomokuState)
        after = blocked
    as_if = after.game.parse(str(after), to_move=2 - stone)
    assert isinstance(as_if, GomokuState)
    return not has_threat(as_if, 3 - stone)


@dataclass(frozen=True)
class Solved:
    """One position's search: the move, whether it solved the position, nodes, CPU s."""

    move: str
    solved: bool
    nodes: int
    cpu: float


def solve(kind: str, moves: str, depth: int, threat_nodes: int, variant: str) -> Solved:
    """One position's move search with no clock (``search_unclocked``: each threat search
    in ``threat_nodes``, the main search to ``depth``)."""
    state = position(moves)
    cpu = time.thread_time()
    result = gomoku.search_unclocked(state, LEVEL, depth, threat_nodes, **VARIANTS[variant])
    cpu = time.thread_time() - cpu
    solved = result.value >= WIN - MAX_PLY if kind == "win" else holds(moves, result.move)
    return Solved(state.move_name(result.move), bool(solved), result.nodes, cpu)


def suite(
    positions: list[tuple[str, str, str]],
    budgets: list[tuple[int, int]],
    variants: list[str],
) -> dict[str, object]:
    """Each position searched by each variant at each (threat nodes, depth) of
    ``budgets``: the table, and the solved counts, nodes and CPU seconds."""
    figures: dict[str, object] = {}
    for threat_nodes, depth in budgets:
        print(
            f"the suite, threat searches of {threat_nodes:,} nodes, main search to depth "
            f"{depth} (solved, nodes, CPU ms a position):"
        )
        rows = {
            v: [solve(kind, moves, depth, threat_nodes, v) for kind, moves, _ in positions]
            for v in variants
        }
        print(f"  {'position':<44}" + "".join(f"{v:>22}" for v in variants))
        for i, (kind, moves, _) in enumerate(positions):
            cells = "".join(
                f" {'+' if r.solved else '-'} {r.nodes:>9,} {1000 * r.cpu:>7.0f}"
                for r in (rows[v][i] for v in variants)
            )
            print(f"  {kind + ' ' + moves[-37:]:<44}{cells}")
        summary = {}
        for v in variants:
            found = rows[v]
            solved = {
                k: sum(r.solved for r, p in zip(found, positions, strict=True) if p[0] == k)
                for k in ("win", "defend")
            }
            nodes = sum(r.nodes for r in found)
            cpu = sum(r.cpu for r in found)
            summary[v] = {
                "solved": solved,
                "nodes": nodes,
                "cpu": cpu,
                "positions": [asdict(r) for r in found],
            }
            print(
                f"  {v:<14} solved {solved['win']} wins and {solved['defend']} defences of "
                f"{len(positions)}: {nodes:,} nodes, {cpu:.2f} CPU s"
            )
        figures[f"{threat_nodes} threat nodes, depth {depth}"] = summary
    return figures


def speed(
    positions: list[tuple[str, str, str]], depth: int, variants: list[str]
) -> dict[str, object]:
    """The main search's deepening to ``depth`` on every position with neither side's
    five point: nodes, seconds, nodes a second, best values agreeing with the first's."""
    states = [position(moves) for _, moves, _ in positions]
    quiet = [s for s in states if not any(len(five_points(s.board, k, False)) for k in (1, 2))]
    figures: dict[str, object] = {}
    first: list[int] | None = None
    print(f"the main search to depth {depth} on {len(quiet)} positions:")
    for v in variants:
        settings = VARIANTS[v]
        nodes, values = 0, []
        wall, cpu = time.perf_counter(), time.thread_time()
        for state in quiet:
            main = settings["leaf_vcf"], settings["late"], settings["prune"]  # the main search's
            scores, _, used = deepen(state, depth, new_table(18), 10, *main)
            nodes += used
            values.append(int(scores.max()))
        wall, cpu = time.perf_counter() - wall, time.thread_time() - cpu
        first = values if first is None else first
        same = sum(a == b for a, b in zip(first, values, strict=True))
        figures[v] = {
            "nodes": nodes,
            "seconds": wall,
            "cpu": cpu,
            "nodes_a_second": nodes / cpu,
            "same_best_values": same,
        }
        print(
            f"  {v:<14} {nodes:>11,} nodes {wall:7.2f} s (CPU {cpu:6.2f} s), "
            f"{nodes / cpu:>9,.0f} nodes a CPU second, {same} best values as {variants[0]}'s"
        )
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depths", default="4,6", help="the suite's main-search depths")
    parser.add_argument(
        "--threat-nodes", default="5000,60000", help="the suite's threat-search budgets"
    )
    parser.add_argument("--depth", type=whole(), default=6, help="the speed's depth")
    parser.add_argument("--variants", default="before,no-leaf-vcf,no-reductions,after")
    parser.add_argument("--positions", type=whole(), default=len(SUITE), help="of each kind")
    quick = {
        "depths": "2",
        "threat_nodes": "2000",
        "depth": 2,
        "variants": "before,after",
        "positions": 1,
    }
    args = arguments(parser, quick=quick)
    variants = args.variants.split(",")
    if not set(variants) <= set(VARIANTS):
        parser.error(f"--variants: some of {', '.join(VARIANTS)}")
    budgets = [
        (int(nodes), int(depth))
        for nodes in args.threat_nodes.split(",")
        for depth in args.depths.split(",")
    ]
    kinds = ("win", "defend")
    positions = [p for kind in kinds for p in [q for q in SUITE if q[0] == kind][: args.positions]]
    gomoku.warm_up(position(""))
    load_before = os.getloadavg()
    figures = {
        "suite": suite(positions, budgets, variants),
        "main_search": speed(positions, args.depth, variants),
        "load_before": load_before,
        "load_after": os.getloadavg(),
    }
    record(args, figures)


if __name__ == "__main__":
    main()
