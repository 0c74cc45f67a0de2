"""The sowing games' commands: ``parlour play mancala`` and ``parlour play kalah`` (seed
001 at the terminal: by default a person, bottom row and moving first, plays the computer
at level 3; ``--players`` seats anyone, ``human``, ``computer:LEVEL``, ``random``, in
either seat), and ``parlour solve``: the exact value of a position, and the endgame
tables."""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from typing import TYPE_CHECKING, Any, cast

import click

from parlour.cli import main, play
from parlour.cli._common import (
    Seating,
    interruptible,
    make_game,
    option_flag,
    position_to_search,
    seating_flags,
    seconds_type,
    status,
    warming_up,
    whole_type,
)

if TYPE_CHECKING:
    from parlour.games.sowing.game import SowingState

BUILD, FAIR = "build", "fair"
FAIR_MOVED = 2
"""The seeds a fair start moves at most from the standard one by default (FairKalah's one
or two)."""
MAX_THREADS = 64
MEMORY = 1024
"""The transposition table's megabytes by default: 2^26 slots, which hold Kalah(6,4)'s
proof many times over and cost Kalah(6,5)'s a third more nodes than 2^28."""


@main.command(short_help="Prove the exact value of a Kalah or Mancala position.")
@click.argument("game_name", metavar="GAME")
@click.argument("position", required=False)
@click.option("--time", "seconds", type=seconds_type(0.01), help="Seconds at most (a day at most).")
@click.option("--pits", help="Pits a side.")
@click.option("--seeds", help="Seeds a pit at the start.")
@click.option(
    "--max-seeds",
    type=whole_type("the endgame table's seeds", 0, 40),
    help="Seeds in the pits the endgame table holds (default: the largest built here by"
    " `solve build`, at least the largest of 2^24 positions).",
)
@click.option(
    "--threads",
    type=whole_type("the number of threads", 1, MAX_THREADS),
    help="Threads of the search (default: two where there are two cores).",
)
@click.option(
    "--memory",
    type=whole_type("the megabytes", 1, 1 << 20),
    default=MEMORY,
    show_default=True,
    help="Megabytes of the transposition table (rounded down to a power of two).",
)
@click.option(
    "--max-memory",
    type=whole_type("the megabytes", 1, 1 << 30),
    help="Megabytes an endgame table's build may hold (default: half the machine's memory).",
)
@click.option(
    "--moved",
    type=whole_type("the seeds moved", 1, FAIR_MOVED),
    default=str(FAIR_MOVED),
    show_default=True,
    help="Seeds a fair start moves at most from the standard one (solve fair).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
@option_flag
def solve(
    game_name: str,
    position: str | None,
    seconds: float | None,
    pits: str | None,
    seeds: str | None,
    max_seeds: int | None,
    threads: int | None,
    memory: int,
    max_memory: int | None,
    moved: int,
    as_json: bool,
    option_texts: tuple[str, ...],
) -> None:
    """Prove the value of POSITION (the game's notation; the start by default): the final
    margin of the side to move with perfect play, a perfect line, the value of each first
    move, nodes, time and the endgame table used.  Stopped by --time or Ctrl-C before a
    proof, it says so and prints the bounds it proved.  The positions it proves are kept
    in the cache folder, where the perfect level of ``parlour play`` finds them.

    ``parlour solve build GAME --pits P --max-seeds K`` builds (or checks) the endgame
    table of every position with at most K seeds in the pits, with a progress bar,
    within --max-memory (its peak resident memory said at the end).

    ``parlour solve fair GAME`` proves each start one or two seeds (--moved) moved from
    the standard one (from a pit to another, either side's) and lists those that are
    draws with perfect play: fair starts.
    """
    build_memory = _build_memory(max_memory)
    if game_name == BUILD:
        _build(position, pits, seeds, max_seeds, build_memory, option_texts)
        return
    if game_name == FAIR:
        _fair(position, pits, seeds, option_texts, seconds, memory, moved, as_json)
        return
    if sys.stderr.isatty():  # the solver's modules take most of a second to load
        click.echo("\rstarting the solver\x1b[K", err=True, nl=False)
    from parlour.games.sowing.solver import Known, Solver, bits_within, solve
    from parlour.search import Stop
    from parlour.search.alphabeta import SEARCH_THREADS

    game = make_game(game_name, option_texts, pits=pits, seeds=seeds)
    _check_solved(game.name)
    state = position_to_search(game, position, "solve")
    sowing = cast("SowingState", state)
    _check_size(sowing.pits, max_seeds)
    try:
        solver = Solver(
            bits_within(memory),
            max_seeds if max_seeds is not None else _default_seeds(sowing),
            threads or SEARCH_THREADS,
            Known(),
            build_memory=build_memory,
        )
    except MemoryError:
        raise click.UsageError(f"no {memory:,} MB to be had for --memory") from None
    most = solver.table_seeds_for(sowing)
    _check_memory(sowing.pits, sowing.game.rules, most, build_memory)
    _say_build(sowing.pits, sowing.game.rules, most)
    with warming_up("the solver"):
        solver.warm_up(state)  # type: ignore[arg-type]
    stop = Stop()
    with stop.until(seconds) as clock, status("proving the position") as tell:
        found = interruptible(lambda: solve(state, solver, clock, tell), stop)  # type: ignore[arg-type]
    if solver.known is not None:
        solver.known.save()
    proof = found.proof
    names = [_name(m) for m in found.line]
    report: dict[str, Any] = {
        "position": state.notation(),
        "proven": proof.exact,
        "value": proof.lower if proof.exact else None,
        "lower": proof.lower,
        "upper": proof.upper,
        "best": _name(proof.move) if proof.exact else None,
        "line": names,
        "moves": {_name(m): list(b) for m, b in found.moves.items()},
        "nodes": found.nodes,
        "seconds": round(found.seconds, 3),
        "table_seeds": proof.table_seeds,
        "table_slots": len(solver.table[0]),
    }
    if as_json:
        click.echo(json.dumps(report))
        return
    if proof.exact:
        click.echo(f"value {proof.lower:+d} (proven: the final margin with perfect play)")
    else:
        click.echo(
            f"stopped before a proof: the value lies in [{proof.lower:+d}, {proof.upper:+d}]"
        )
    if proof.exact:
        click.echo(f"best move {report['best']}  line {' '.join(names)}")
    click.echo("moves " + "  ".join(f"{m} {_bounds(b)}" for m, b in report["moves"].items()))
    click.echo(
        f"nodes {found.nodes:,}  time {found.seconds:.2f} s  "
        f"endgame table: up to {proof.table_seeds} seeds in the pits  "
        f"transposition table: {solver.table_bytes >> 20:,} MB"
    )


def _name(move: int) -> str:
    from parlour.games.sowing.game import LETTERS

    return LETTERS[move]


def _default_seeds(state: SowingState) -> int:
    """The endgame table's seeds unasked: the largest built here, or else the size whose
    build and proof are the shortest (``endgame.proof_seeds``)."""
    from parlour.games.sowing import endgame

    pits, rules = state.pits, state.game.rules
    return max(endgame.built_seeds(pits, rules), endgame.proof_seeds(pits))


def _say_build(pits: int, rules: int, seeds: int) -> None:
    """Say on standard error what a build of the endgame table to ``seeds`` seeds will
    take, before it starts (its progress shows as it goes): nothing if it is built, or
    quick."""
    from parlour.games.sowing import endgame
    from parlour.games.sowing.progress import PATIENCE

    held = endgame.built_seeds(pits, rules)
    todo, seconds, size = endgame.estimate(pits, seeds, held)
    if held >= seeds or seconds < PATIENCE:
        return
    click.echo(
        f"the endgame table to build ({pits} pits a side, up to {seeds} seeds; kept in the"
        f" cache folder): {todo:,} positions, {-(-size // (1 << 20)):,} MB on"
        f" disk, about {seconds:.0f} s",
        err=True,
    )


def _check_solved(name: str) -> None:
    from parlour.kit import numbers_of, refusal
    from parlour.search import PERFECT

    if PERFECT not in numbers_of(name):
        raise click.UsageError(
            refusal(name, PERFECT).replace("; perfect plays", "; the solver plays")
        )


def _check_size(pits: int, seeds: int | None) -> None:
    """A usage error for an endgame table too big to build here."""
    from parlour.games.sowing import endgame

    try:
        endgame.check_size(pits, seeds or 0)
    except ValueError as error:
        raise click.UsageError(str(error)) from None


def _build_memory(megabytes: int | None) -> int:
    """The bytes a table's build may hold: ``megabytes``, or half the machine's memory."""
    if megabytes is not None:
        return megabytes << 20
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2


def _check_memory(pits: int, rules: int, seeds: int, memory: int) -> None:
    """A usage error for a table to build (not built here yet) that needs more than
    ``memory`` bytes."""
    from parlour.games.sowing import endgame

    if endgame.built_seeds(pits, rules) < seeds:
        try:
            endgame.check_memory(pits, seeds, memory)
        except ValueError as error:
            raise click.UsageError(f"{error} (--max-memory)") from None


def _bounds(bounds: tuple[int, int]) -> str:
    low, high = bounds
    return f"{low:+d}" if low == high else f"[{low:+d},{high:+d}]"


def _build(
    name: str | None,
    pits: str | None,
    seeds: str | None,
    max_seeds: int | None,
    memory: int,
    option_texts: tuple[str, ...],
) -> None:
    """``parlour solve build GAME``: the endgame table, built and saved within ``memory``
    bytes, or found whole; its peak resident memory said."""
    from parlour.games.sowing import endgame

    if name is None:
        raise click.UsageError("name the game whose tables to build: parlour solve build kalah")
    game = make_game(name, option_texts, pits=pits, seeds=seeds)
    _check_solved(game.name)
    count = game.pits  # type: ignore[attr-defined]
    most = max_seeds if max_seeds is not None else endgame.seeds_within(count, endgame.MAX_ENTRIES)
    _check_size(count, most)
    rules = game.rules  # type: ignore[attr-defined]
    _check_memory(count, rules, most, memory)
    _say_build(count, rules, most)
    began = time.perf_counter()
    built = interruptible(lambda: endgame.table(count, rules, most, memory=memory))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss >> 10  # kilobytes on Linux
    click.echo(
        f"endgame table: {count} pits a side, up to {built.seeds} seeds: "
        f"{endgame.positions(count, built.seeds):,} positions, {built.packed.nbytes:,} bytes, "
        f"{time.perf_counter() - began:.1f} s, peak resident memory {peak:,} MB"
    )


def _fair(
    name: str | None,
    pits: str | None,
    seeds: str | None,
    option_texts: tuple[str, ...],
    seconds: float | None,
    memory: int,
    moved: int,
    as_json: bool,
) -> None:
    """``parlour solve fair GAME``: the starts up to ``moved`` seeds from the standard one
    that are draws with perfect play."""
    from parlour.games.sowing.solver import Known, Solver, bits_within
    from parlour.games.sowing.solver.fair import fair_starts, redistributions
    from parlour.search import Stop

    if name is None:
        raise click.UsageError("name the game whose fair starts to find: parlour solve fair kalah")
    game = make_game(name, option_texts, pits=pits, seeds=seeds)
    _check_solved(game.name)
    start = game.start()
    solver = Solver(bits_within(memory), known=Known())
    with warming_up("the solver"):
        solver.warm_up(start)  # type: ignore[arg-type]
    verdicts: list[bool | None] = []

    def told(_: object, verdict: bool | None) -> None:
        verdicts.append(verdict)
        if solver.known is not None:
            solver.known.save()  # each verdict on disk at once: a checkpoint

    stop = Stop()
    began = time.perf_counter()
    with stop.until(seconds) as clock:
        fair = interruptible(
            lambda: fair_starts(start, moved, solver, clock, told),  # type: ignore[arg-type]
            stop,
        )
    if solver.known is not None:
        solver.known.save()
    candidates = len(redistributions(start, moved))  # type: ignore[arg-type]
    proven = sum(verdict is not None for verdict in verdicts)
    spent = time.perf_counter() - began
    if as_json:
        report = {"fair": [state.notation() for state in fair], "candidates": candidates}
        click.echo(json.dumps({**report, "proven": proven, "seconds": round(spent, 3)}))
        return
    click.echo(
        f"{len(fair)} fair starts (draws with perfect play) among {candidates} starts "
        f"{'one seed' if moved == 1 else 'one or two seeds'} from the standard one; "
        f"{proven} proven in {spent:.1f} s"
        + ("" if proven == candidates else " (stopped before the rest)")
    )
    for state in fair:
        click.echo(state.notation())


def _command(name: str, summary: str) -> None:
    """Attach ``play NAME``: both sowing games take the same options."""

    @play.command(name, help=summary)
    @seating_flags(
        order="player 1 (bottom row) first",
        level_help="The computer's level: 1-3 looks that many moves ahead, 4-8 searches "
        "deeper (8 the strongest), perfect never misses a win.",
        first_help="Who moves first (default: player 1, the bottom row).",
    )
    @click.option("--pits", help="Pits a side.")
    @click.option("--seeds", help="Seeds in each pit at the start.")
    def command(
        seating: Seating, pits: str | None, seeds: str | None, option_texts: tuple[str, ...]
    ) -> None:
        seating.play(
            lambda: make_game(
                name, option_texts, pits=pits, seeds=seeds, first=seating.first
            ).start()
        )


_command("mancala", "Play Mancala: 3 seeds a pit, sown through both stores.")
_command("kalah", "Play Kalah: 4 seeds a pit, the opponent's store skipped.")
