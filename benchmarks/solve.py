"""The solver of the sowing games: how fast it proves Kalah(6,4) (or the main board
named), the endgame table it reads (build time, size, positions a second), how fast the
perfect level answers the main board's start (in a first game; and once the main proof
is on disk), and the proven values of Kalah(m,n) for both ``empty_capture`` rules and of
the seed's Mancala, each with a perfect first move, where a board is proven within its
time.

    .venv/bin/python benchmarks/solve.py [--pits 6] [--seeds 4] [--table-seeds 20]
        [--grid 6] [--board-seconds 60] [--main-seconds 600] [--bits 24] [--threads 1,2]
        [--next-seeds 5] [--next-seconds 600] [--first-move-seconds 0] [--checkpoint FILE]
        [--max-memory MB]
        [--reference PATH] [--reference-seeds 3,4] [--reference-table-seeds N]
        [--reference-cache 24] [--no-build]
        [--from-nothing-seeds 16] [--quick]

The table is built (within ``--max-memory``: its peak resident memory is the process's
then), and the main board proved, once for each count of threads, side by side; its
proof and reply times print as ratios to the targets (5 s and 2 s for Kalah(6,4), 60 s
for the proof of Kalah(6,5) and for Kalah(6,4) from nothing), and the main board "from
nothing": the table's build and the proof on the most threads, without proven positions
kept on disk.  The board of
``--next-seeds`` a pit (Kalah(6,5) beside Kalah(6,4)) is then proved with the same table
on the most threads, within ``--next-seconds``, and with ``--first-move-seconds`` each of
its first moves searched that long (the bounds proven of each: with ``--next-seeds 6``, a
glimpse of Kalah(6,6)), those proven kept in ``--checkpoint`` for the next run.  A board
not proven in its time prints the bounds it reached.
``--from-nothing-seeds`` (first, in a temporary cache folder) builds a table once, timed
to each size named, and proves the main board with each on the most threads: the main
board from nothing, wall and CPU seconds, by table size (``endgame.PROOF_SEEDS``, what
``parlour solve`` builds unasked, is the size of the least).  Every figure of issue 44 in
one go (one line), with the biggest table built here before (``parlour solve build kalah --max-seeds
26``, its build time and peak memory printed by that command)::

    .venv/bin/python benchmarks/solve.py --table-seeds 26 --no-build --threads 1,2
        --grid 0 --next-seeds 5 --from-nothing-seeds 15,16,17,18 --reference-seeds 4
        --reference /work/engines/kalah-ref/src/build/Mancala --reference-table-seeds 20

The published figures stand beside these (``PUBLISHED``; Rawlings 2015: (6,4) in a
fraction of a second, (6,5) in several minutes, with far bigger tables).  The grid's
boards read endgame tables of at most ``endgame.MAX_ENTRIES`` positions (quick to
build), the main board's rules and size the main table.

``--reference PATH`` times a C solver on the same positions in the same run: CMancala
(github.com/LifesLight/CMancala, MIT; built outside this repository with ``cmake ..
-DCMAKE_BUILD_TYPE=Release && make`` in its ``build`` folder), whose rules are Kalah's
without empty captures (a capture needs seeds opposite) and whose solver is one thread of
alpha-beta with a transposition table of 2**``--reference-cache`` entries, driven over its
``--api`` mode (``ROOT n``, ``SOLVE code``).  Each of ``--reference-seeds`` (Kalah(6,n)
without empty captures) is proved by it and by parlour on one thread with the main
table's seeds (that rule set's table built or read first), wall and CPU seconds side by
side (CPU: fairer on a shared machine).
"""

from __future__ import annotations

import argparse
import functools
import os
import resource
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, cast

import parlour
from parlour import cache
from parlour.games.sowing import endgame
from parlour.games.sowing.game import LETTERS, SowingState
from parlour.games.sowing.solver import Known, PerfectThinker, Proof, Solver
from parlour.search import Stop
from parlour.search.alphabeta import SEARCH_THREADS
from record import arguments, duration, record, whole

PROOF_TARGETS = {4: 5.0, 5: 60.0}
"""Seconds to prove Kalah(6,4) and Kalah(6,5) on this machine, by seeds a pit (issue 44)."""
FROM_NOTHING_TARGET = 60.0
"""Seconds to build a table and prove Kalah(6,4) with it, no proven position kept."""
PUBLISHED = {
    (6, 4): (10, "Irving, Donkers and Uiterwijk 2000"),
    (6, 5): (12, "Irving, Donkers and Uiterwijk 2000"),
    (6, 6): (2, "Rawlings 2015"),
}
"""The first player's margin in Kalah(m,n) with empty captures, as published, by (m, n)."""
REPLY_TARGET = 2.0
"""Seconds of the perfect level's reply from Kalah(6,4)'s start (issue 24)."""


def proved(
    state: SowingState,
    table_seeds: int,
    seconds: float,
    bits: int = 22,
    known: Known | None = None,
    threads: int = 1,
) -> Proof:
    """``state`` solved by ``threads`` threads with a fresh transposition table of 2**bits
    slots, within ``seconds``."""
    solver = Solver(bits=bits, table_seeds=table_seeds, threads=threads, known=known)
    return solver.prove(state, stop=Stop(), seconds=seconds)


def reply(state: SowingState, table_seeds: int, known: Known) -> tuple[float, bool]:
    """The perfect level's time to answer ``state`` (warmed up first, as a player is),
    reading and keeping proven positions in ``known``, and whether its move is proven
    (else searched)."""
    thinker = PerfectThinker()
    thinker.solver = Solver(bits=22, table_seeds=table_seeds, threads=SEARCH_THREADS, known=known)
    thinker.warm_up(state)
    began = time.perf_counter()
    _, account = thinker.best_move(state, Stop())
    return time.perf_counter() - began, isinstance(account, Proof)


def how(proven: bool) -> str:
    return "proven" if proven else "searched"


def table_seeds(board: SowingState, main: SowingState, seeds: int) -> int:
    """The seeds of ``board``'s endgame table: ``seeds`` for the main board's size and
    rules (its table is built), at most ``endgame.MAX_ENTRIES`` positions for the others."""
    if (board.pits, board.game.rules) == (main.pits, main.game.rules):
        return seeds
    return min(seeds, endgame.seeds_within(board.pits, endgame.MAX_ENTRIES))


def shown(proof: Proof) -> str:
    if proof.exact:
        return f"{proof.lower:+d} {LETTERS[proof.move]}"
    return f"[{proof.lower:+d},{proof.upper:+d}]"


def timed(proof: Proof, target: float | None, first: Proof, cpu: float) -> str:
    """A proof's time (``cpu`` seconds of CPU) and nodes, against ``target`` (if any) and the
    ``first`` proof's."""
    against = f" ({proof.seconds / target:.2f} of the {target:.0f} s target)" if target else ""
    return (
        f"{shown(proof)} in {proof.seconds:.2f} s ({cpu:.2f} s CPU){against}, {proof.nodes:,} nodes"
        f" ({proof.nodes / proof.seconds:,.0f}/s); {first.seconds / proof.seconds:.2f}x as fast"
        " as the first"
    )


def reference_proof(binary: Path, seeds: int, cache: int) -> dict[str, Any]:
    """CMancala's proof of Kalah(6, ``seeds``) without empty captures from its start: its
    value, wall seconds of the proof and CPU seconds of its whole process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with subprocess.Popen(
        [str(binary), "--api", "--cache", str(cache)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    ) as solver:
        assert solver.stdin is not None and solver.stdout is not None
        solver.stdin.write(f"ROOT {seeds}\n")
        solver.stdin.flush()
        code = solver.stdout.readline().split()[-1]  # OK CODE <code>
        began = time.perf_counter()
        solver.stdin.write(f"SOLVE {code}\n")
        solver.stdin.flush()
        answer = solver.stdout.readline().split()  # OK EVAL <value> MOVE <pit> ...
        seconds = time.perf_counter() - began
        solver.stdin.write("QUIT\n")
        solver.stdin.flush()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return {"value": int(answer[2]), "seconds": seconds, "cpu_seconds": cpu}


def against_reference(args: argparse.Namespace) -> dict[str, Any]:
    """Each of ``--reference-seeds`` proved by the reference solver and by parlour (one
    thread, a fresh transposition table of 2**``--bits`` slots, the main table's seeds)."""
    figures: dict[str, Any] = {}
    for seeds in args.reference_seeds:
        start = parlour.game("kalah", pits=6, seeds=seeds, empty_capture=False).start()
        state = cast(SowingState, start)
        seeds_read = args.reference_table_seeds or args.table_seeds
        endgame.table(6, state.game.rules, seeds_read)  # built or read, untimed
        cpu = time.process_time()
        proof = proved(state, seeds_read, args.main_seconds, args.bits)
        cpu = time.process_time() - cpu
        theirs = reference_proof(args.reference, seeds, args.reference_cache)
        print(
            f"Kalah(6,{seeds}) without empty captures: parlour {shown(proof)} in "
            f"{proof.seconds:.2f} s ({cpu:.2f} s CPU), {proof.nodes:,} nodes; reference "
            f"{theirs['value']:+d} in {theirs['seconds']:.2f} s ({theirs['cpu_seconds']:.2f} s"
            f" CPU): parlour's CPU {cpu / theirs['cpu_seconds']:.2f} of the reference's"
            + ("" if proof.exact else " (not proven in its time: at least that)"),
            flush=True,
        )
        figures[str(seeds)] = {
            "parlour": {
                "value": shown(proof),
                "seconds": proof.seconds,
                "cpu_seconds": cpu,
                "nodes": proof.nodes,
            },
            "reference": theirs,
        }
    return figures


def by_table_size(args: argparse.Namespace) -> dict[str, Any]:
    """The main board from nothing with each endgame table of ``--from-nothing-seeds``: one
    build on the most threads into a temporary cache folder (the cache's own tables left
    alone), the wall and CPU seconds to each seed count noted as it is saved, then the
    main board proved on the most threads with each size's table (a fresh transposition
    table, nothing proven kept): which size makes build and proof the shortest."""
    start = cast(SowingState, parlour.game("kalah", pits=args.pits, seeds=args.seeds).start())
    rules, sizes = start.game.rules, sorted(args.from_nothing_seeds)
    reached: dict[int, tuple[float, float]] = {}  # wall and CPU seconds by seeds
    with tempfile.TemporaryDirectory() as folder, _cache_folder(folder):
        endgame.build(args.pits, rules, 0, lambda done: None)  # its kernels loaded, untimed
        began, cpu = time.perf_counter(), time.process_time()

        def counted(values: Any, seeds: int) -> None:
            endgame.save(values, seeds, args.pits, rules)
            reached[seeds] = (time.perf_counter() - began, time.process_time() - cpu)

        endgame.build(args.pits, rules, sizes[-1], lambda done: None, counted=counted)
        figures: dict[str, Any] = {}
        for seeds in sizes:
            solver = Solver(bits=args.bits, table_seeds=seeds, threads=args.threads[-1])
            solver.warm_up(start)  # the table read and the search compiled, untimed
            cpu = time.process_time()
            proof = solver.prove(start, stop=Stop(), seconds=args.main_seconds)
            cpu = time.process_time() - cpu
            wall, build_cpu = reached[seeds]
            print(
                f"Kalah({args.pits},{args.seeds}) from nothing with a {seeds}-seed table: build "
                f"{wall:.1f} s ({build_cpu:.1f} s CPU), proof {shown(proof)} in "
                f"{proof.seconds:.1f} s ({cpu:.1f} s CPU), {proof.nodes:,} nodes: "
                f"{wall + proof.seconds:.1f} s in all ({build_cpu + cpu:.1f} s CPU; "
                f"{(wall + proof.seconds) / FROM_NOTHING_TARGET:.2f} of the "
                f"{FROM_NOTHING_TARGET:.0f} s target)",
                flush=True,
            )
            figures[str(seeds)] = {
                "build_seconds": wall,
                "build_cpu_seconds": build_cpu,
                "proof": shown(proof),
                "proof_seconds": proof.seconds,
                "proof_cpu_seconds": cpu,
                "nodes": proof.nodes,
            }
        endgame.forget()
    return figures


@contextmanager
def _cache_folder(folder: str) -> Iterator[None]:
    """Tables read and built in ``folder`` for a while (the kernels stay where they are)."""
    before = os.environ.get(cache.ENVIRONMENT)
    os.environ[cache.ENVIRONMENT] = folder
    endgame.forget()
    try:
        yield
    finally:
        if before is None:
            del os.environ[cache.ENVIRONMENT]
        else:
            os.environ[cache.ENVIRONMENT] = before
        endgame.forget()


def first_move_bounds(args: argparse.Namespace) -> dict[str, Any]:
    """Each first move of the next board's start searched within ``--first-move-seconds``
    (one solver on the most threads, its tables kept from move to move): the bounds it
    proved of each, its nodes and their rate (a glimpse of a proof too long to run)."""
    start = cast(SowingState, parlour.game("kalah", pits=args.pits, seeds=args.next_seeds).start())
    known = Known(args.checkpoint) if args.checkpoint else None
    solver = Solver(
        bits=args.bits, table_seeds=args.table_seeds, threads=args.threads[-1], known=known
    )
    figures: dict[str, Any] = {}
    for move in start.legal_moves():
        after = start.play(move)
        with Stop().until(args.first_move_seconds) as clock:
            proof = solver.prove(after, stop=clock)
        if known is not None:
            known.save()  # a move proven is kept: the next run takes it from the file
        same = after.to_move == start.to_move
        low, high = (proof.lower, proof.upper) if same else (-proof.upper, -proof.lower)
        letter = LETTERS[int(move)]
        print(
            f"Kalah({args.pits},{args.next_seeds}) first move {letter}: [{low:+d},{high:+d}] in "
            f"{proof.seconds:.1f} s, {proof.nodes:,} nodes"
            f" ({proof.nodes / max(proof.seconds, 1e-6):,.0f}/s)",
            flush=True,
        )
        figures[letter] = {"bounds": [low, high], "seconds": proof.seconds, "nodes": proof.nodes}
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pits", type=whole(), default=6, help="pits a side of the main board")
    parser.add_argument("--seeds", type=whole(), default=4, help="seeds a pit of the main board")
    parser.add_argument("--table-seeds", type=whole(), default=20, help="the endgame table's seeds")
    parser.add_argument(
        "--grid", type=whole(0), default=6, help="Kalah(m,n) for m, n up to this (0: none)"
    )
    parser.add_argument("--board-seconds", type=duration(), default=60.0, help="time a grid board")
    parser.add_argument(
        "--main-seconds", type=duration(), default=600.0, help="time the main board"
    )
    parser.add_argument(
        "--mancala-pits", type=whole(), default=6, help="pits of the seed's Mancala"
    )
    parser.add_argument(
        "--no-build",
        action="store_true",
        help="read the main table from the cache folder (built there if missing), untimed",
    )
    parser.add_argument(
        "--bits", type=whole(1, 40), default=24, help="the main board's table: 2**bits"
    )
    parser.add_argument(
        "--next-seeds", type=whole(0), default=5, help="seeds a pit of the next board (0: none)"
    )
    parser.add_argument(
        "--next-seconds", type=duration(), default=600.0, help="time the next board"
    )
    parser.add_argument(
        "--first-move-seconds",
        type=duration(),
        default=0.0,
        help="then each first move of the next board searched this long (0: none)",
    )
    parser.add_argument(
        "--checkpoint",
        type=Path,
        help="a file keeping the first moves proven (--first-move-seconds): a run goes on"
        " where the last stopped",
    )
    parser.add_argument(
        "--max-memory",
        type=whole(),
        help="megabytes the endgame table's build may hold (default: no limit)",
    )
    parser.add_argument(
        "--reference", type=Path, help="a CMancala binary to time beside parlour (see above)"
    )
    parser.add_argument(
        "--reference-seeds",
        type=lambda text: [int(n) for n in text.split(",")],
        default=[3, 4],
        help="the boards the reference proves: seeds a pit of Kalah(6,n), comma-separated",
    )
    parser.add_argument(
        "--reference-table-seeds",
        type=whole(),
        help="parlour's endgame table beside the reference (its rules' own; default: the main"
        " table's seeds)",
    )
    parser.add_argument(
        "--reference-cache",
        type=whole(1, 40),
        default=24,
        help="the reference's table: 2**N entries",
    )
    parser.add_argument(
        "--threads",
        type=lambda text: [int(n) for n in text.split(",")],
        default=[1, 2],
        help="the main board's proofs: threads of each, comma-separated",
    )
    parser.add_argument(
        "--from-nothing-seeds",
        type=lambda text: [int(n) for n in text.split(",") if n],
        default=[endgame.PROOF_SEEDS],
        help="the main board from nothing (a build in a temporary folder, then the proof)"
        " with each of these tables, comma-separated (empty: none)",
    )
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
            "bits": 16,
            "next_seeds": 4,
            "next_seconds": 20.0,
            "from_nothing_seeds": [4, 6],
        },
    )
    nothing = args.from_nothing_seeds and by_table_size(args)
    nothing_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss << 10
    start = cast(SowingState, parlour.game("kalah", pits=args.pits, seeds=args.seeds).start())
    game = start.game
    builds: dict[int, float] = {}  # seconds by threads
    if args.no_build:
        values = endgame.table(args.pits, game.rules, args.table_seeds).packed
    memory = args.max_memory and args.max_memory << 20
    # the last build saved count by count (as ``endgame.table`` saves one) for the solves
    # below to read, unless the cache folder holds as big a table already
    kept = endgame.built_seeds(args.pits, game.rules) >= args.table_seeds
    saved = functools.partial(endgame.save, pits=args.pits, rules=game.rules)
    for threads in [] if args.no_build else args.threads:
        began = time.perf_counter()
        values = endgame.build(
            args.pits,
            game.rules,
            args.table_seeds,
            lambda done: None,
            counted=saved if threads == args.threads[-1] and not kept else lambda v, n: None,
            threads=threads,
            memory=memory,
        )
        builds[threads] = time.perf_counter() - began
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss << 10  # the build's, mostly
    build_seconds = builds.get(args.threads[-1])
    positions = endgame.positions(args.pits, args.table_seeds)
    print(
        f"endgame table {args.pits} pits, {args.table_seeds} seeds: {positions:,} positions, "
        f"{values.nbytes:,} bytes, "
        + (
            "; ".join(
                f"built on {threads} thread(s) in {seconds:.1f} s "
                f"({positions / seconds:,.0f} positions/s)"
                for threads, seconds in builds.items()
            )
            or "read from the cache folder"
        )
        + f"; peak resident memory {peak >> 20:,} MB"
    )
    target = PROOF_TARGETS.get(args.seeds) if args.pits == 6 else None
    with tempfile.TemporaryDirectory() as folder:
        fresh, known = Known(Path(folder) / "fresh.json"), Known(Path(folder) / "known.json")
        first, first_proven = reply(start, args.table_seeds, fresh)
        proofs = {}
        cpus: dict[int, float] = {}  # CPU seconds of each proof, by threads
        for threads in args.threads:  # the last one's proof kept on disk for the reply
            last = threads == args.threads[-1]
            cpu = time.process_time()
            proof = proved(
                start, args.table_seeds, args.main_seconds, args.bits, known if last else None,
                threads,
            )  # fmt: skip
            proofs[threads], cpus[threads] = proof, time.process_time() - cpu
            first_proof = proofs[args.threads[0]]
            print(f"Kalah({args.pits},{args.seeds}), {threads} thread(s): ", end="")
            print(timed(proof, target, first_proof, cpus[threads]), flush=True)
        main_proof = proofs[args.threads[-1]]
        published, source = PUBLISHED.get((args.pits, args.seeds), (None, ""))
        reproduced = all(p.exact and p.lower == published for p in proofs.values())
        if published is not None:
            print(f"published: {published:+d} ({source}), reproduced: {reproduced}")
        again, again_proven = reply(start, args.table_seeds, known)
    from_nothing = (build_seconds or 0.0) + main_proof.seconds
    print(
        f"Kalah({args.pits},{args.seeds}) from nothing (the table built, then proved on "
        f"{args.threads[-1]} thread(s)): {from_nothing:.1f} s"
        + ("" if builds else " (the table read, not built)")
    )
    following = None
    if args.next_seeds:
        bigger = parlour.game("kalah", pits=args.pits, seeds=args.next_seeds).start()
        next_cpu = time.process_time()
        following = proved(
            cast(SowingState, bigger), args.table_seeds, args.next_seconds, args.bits,
            threads=args.threads[-1],
        )  # fmt: skip
        next_cpu = time.process_time() - next_cpu
        print(f"Kalah({args.pits},{args.next_seeds}), {args.threads[-1]} thread(s): ", end="")
        next_target = PROOF_TARGETS.get(args.next_seeds) if args.pits == 6 else None
        print(timed(following, next_target, following, next_cpu), flush=True)
    first_moves = args.next_seeds and args.first_move_seconds and first_move_bounds(args)
    print(
        f"perfect level's reply from the start: {first:.2f} s, {how(first_proven)} "
        f"({first / REPLY_TARGET:.2f} of the {REPLY_TARGET:.0f} s target); "
        f"{again:.2f} s, {how(again_proven)}, with the main proof on disk (the trap takes "
        "the rest of the move's time)"
    )
    reference = args.reference and against_reference(args)
    grid: dict[str, Any] = {}
    for empty_capture in (True, False):
        for pits in range(1, args.grid + 1):
            row = []
            for seeds in range(1, args.grid + 1):
                board = parlour.game("kalah", pits=pits, seeds=seeds, empty_capture=empty_capture)
                if board == game:
                    row.append(shown(main_proof))
                    continue
                in_table = table_seeds(board.start(), start, args.table_seeds)  # type: ignore[arg-type]
                row.append(shown(proved(board.start(), in_table, args.board_seconds)))  # type: ignore[arg-type]
            grid[f"empty_capture={empty_capture} pits={pits}"] = row
            print(f"empty_capture={empty_capture!s:5} m={pits}: " + "  ".join(row), flush=True)
    mancala = parlour.game("mancala", pits=args.mancala_pits)
    in_table = table_seeds(mancala.start(), start, args.table_seeds)  # type: ignore[arg-type]
    mancala_proof = proved(mancala.start(), in_table, args.main_seconds)  # type: ignore[arg-type]
    print(f"Mancala ({args.mancala_pits} pits, 3 seeds, both stores): {shown(mancala_proof)}")
    record(
        args,
        {
            "table_positions": positions,
            "table_bytes": values.nbytes,
            "table_build_seconds": build_seconds,
            "table_build_seconds_by_threads": {str(t): s for t, s in builds.items()},
            "table_positions_per_second": build_seconds and positions / build_seconds,
            "table_build_peak_bytes": peak,
            "table_build_memory_limit": memory,
            "main": {"value": shown(main_proof), "seconds": main_proof.seconds},
            "main_nodes": main_proof.nodes,
            "main_published": published,
            "main_reproduced": published is not None and reproduced,
            "main_by_threads": {
                str(threads): {
                    "seconds": proof.seconds,
                    "cpu_seconds": cpus[threads],
                    "nodes": proof.nodes,
                    "value": shown(proof),
                }
                for threads, proof in proofs.items()
            },
            "perfect_start_reply_seconds": first,
            "perfect_start_reply_proven": first_proven,
            "perfect_start_reply_known_seconds": again,
            "perfect_start_reply_known_proven": again_proven,
            "main_from_nothing_seconds": from_nothing,
            "from_nothing_by_table_seeds": nothing,
            "from_nothing_peak_bytes": nothing_peak,
            "next": following
            and {
                "seeds": args.next_seeds,
                "value": shown(following),
                "seconds": following.seconds,
                "cpu_seconds": next_cpu,
                "nodes": following.nodes,
            },
            "next_first_moves": first_moves,
            "reference": reference,
            "grid": grid,
            "mancala": shown(mancala_proof),
        },
    )


if __name__ == "__main__":
    main()
