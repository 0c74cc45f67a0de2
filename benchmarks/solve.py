"""The solver of the sowing games: how fast it proves Kalah(6,4), the endgame table it
reads (build time, size, positions a second), and the proven values of Kalah(m,n) for
both ``empty_capture`` rules and of the seed's Mancala, each with a perfect first move,
where a board is proven within its time.

    .venv/bin/python benchmarks/solve.py [--pits 6] [--seeds 4] [--table-seeds 20]
        [--grid 6] [--board-seconds 60] [--bits 24] [--perfect-seeds 3] [--quick]

A board not proven in ``--board-seconds`` prints the bounds it reached.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import Any, cast

import parlour
from parlour.games.sowing import LETTERS, SowingState
from parlour.search import Stop, endgame
from parlour.search.solve import Known, PerfectThinker, Proof, Solver
from record import arguments, record


def proved(state: SowingState, table_seeds: int, seconds: float, bits: int = 22) -> Proof:
    """``state`` solved with a fresh transposition table of 2**bits slots, within ``seconds``."""
    solver = Solver(bits=bits, table_seeds=table_seeds)
    return solver.prove(state, stop=Stop(), seconds=seconds)


def replies(state: SowingState, folder: Path) -> tuple[float, float]:
    """The perfect level's time to answer ``state`` in a first game, and in a second game
    (a new player, as in a new process) that finds the positions proven on disk."""
    times = []
    for _ in range(2):
        thinker = PerfectThinker()
        thinker.solver = Solver(bits=22, known=Known(folder / "positions.json"))
        began = time.perf_counter()
        thinker.best_move(state, Stop())
        times.append(time.perf_counter() - began)
    return times[0], times[1]


def shown(proof: Proof) -> str:
    if proof.exact:
        return f"{proof.lower:+d} {LETTERS[proof.move]}"
    return f"[{proof.lower:+d},{proof.upper:+d}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pits", type=int, default=6, help="pits a side of the main board")
    parser.add_argument("--seeds", type=int, default=4, help="seeds a pit of the main board")
    parser.add_argument("--table-seeds", type=int, default=20, help="the endgame table's seeds")
    parser.add_argument("--grid", type=int, default=6, help="Kalah(m,n) for m, n up to this")
    parser.add_argument("--board-seconds", type=float, default=60.0, help="time a grid board")
    parser.add_argument("--main-seconds", type=float, default=600.0, help="time the main board")
    parser.add_argument("--mancala-pits", type=int, default=6, help="pits of the seed's Mancala")
    parser.add_argument("--bits", type=int, default=24, help="the main board's table: 2**bits")
    parser.add_argument("--perfect-seeds", type=int, default=3, help="seeds of the perfect level's")
    args = arguments(
        parser,
        quick={
            "pits": 3,
            "seeds": 3,
            "table_seeds": 6,
            "grid": 2,
            "board_seconds": 20.0,
            "main_seconds": 60.0,
            "mancala_pits": 3,
            "perfect_seeds": 2,
            "bits": 16,
        },
    )
    start = cast(SowingState, parlour.game("kalah", pits=args.pits, seeds=args.seeds).start())
    game = start.game
    built = time.perf_counter()
    values = endgame.build(args.pits, game.rules, args.table_seeds, lambda done: None)
    build_seconds = time.perf_counter() - built
    positions = len(values)
    print(
        f"endgame table {args.pits} pits, {args.table_seeds} seeds: {positions:,} positions, "
        f"{values.nbytes:,} bytes, built in {build_seconds:.1f} s "
        f"({positions / build_seconds:,.0f} positions/s)"
    )
    endgame.table(args.pits, game.rules, args.table_seeds)  # saved for the solves below
    main_proof = proved(start, args.table_seeds, args.main_seconds, args.bits)
    print(
        f"Kalah({args.pits},{args.seeds}): {shown(main_proof)} in {main_proof.seconds:.2f} s, "
        f"{main_proof.nodes:,} nodes ({main_proof.nodes / main_proof.seconds:,.0f}/s)"
    )
    perfect = parlour.game("kalah", pits=args.pits, seeds=args.perfect_seeds).start()
    with tempfile.TemporaryDirectory() as folder:
        first, second = replies(cast(SowingState, perfect), Path(folder))
    print(
        f"perfect level on Kalah({args.pits},{args.perfect_seeds}): first game's reply "
        f"{first:.2f} s, second game's {second:.3f} s (proven positions from disk)"
    )
    grid: dict[str, Any] = {}
    for empty_capture in (True, False):
        for pits in range(1, args.grid + 1):
            row = []
            for seeds in range(1, args.grid + 1):
                board = parlour.game("kalah", pits=pits, seeds=seeds, empty_capture=empty_capture)
                seeds_in_table = min(args.table_seeds, endgame.seeds_within(pits, 1 << 22))
                row.append(shown(proved(board.start(), seeds_in_table, args.board_seconds)))  # type: ignore[arg-type]
            grid[f"empty_capture={empty_capture} pits={pits}"] = row
            print(f"empty_capture={empty_capture!s:5} m={pits}: " + "  ".join(row))
    mancala = parlour.game("mancala", pits=args.mancala_pits)
    mancala_proof = proved(mancala.start(), args.table_seeds, args.main_seconds)  # type: ignore[arg-type]
    print(f"Mancala ({args.mancala_pits} pits, 3 seeds, both stores): {shown(mancala_proof)}")
    record(
        args,
        {
            "table_positions": positions,
            "table_bytes": values.nbytes,
            "table_build_seconds": build_seconds,
            "table_positions_per_second": positions / build_seconds,
            "main": {"value": shown(main_proof), "seconds": main_proof.seconds},
            "main_nodes": main_proof.nodes,
            "perfect_first_reply_seconds": first,
            "perfect_second_reply_seconds": second,
            "grid": grid,
            "mancala": shown(mancala_proof),
        },
    )


if __name__ == "__main__":
    main()
