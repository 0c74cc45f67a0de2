"""Build five in a row's opening book (``parlour.games.gomoku.book``, shipped as
``src/parlour/games/gomoku/book.json``): each opening position searched by parlour's
strongest level for ``--seconds``, deepening to the clock, with the largest table.

The positions, in a fixed order that no benchmark's seed changes, each once (an opening
that is an image of one before it under the square's symmetries is the same entry):
the empty board (X's first move), 0's reply to each first move of X on the central 5x5,
X's second move after the centre and each reply of 0 next to it, then 0's reply to
every X-0-X opening of the central 5x5 (the openings of ``gomoku_selfplay.py`` and
``gomoku_vs_engine.py``).  It is resumable: each entry is written as it is found (the
whole file, atomically), a position whose entry had at least ``--seconds`` is skipped,
and a longer search replaces a shorter one; Ctrl-C keeps what is done.  ``--positions``
builds only the first so many; ``--quick`` the first three at 0.05 s, into a file of its
own (``--out``, by default a temporary one) and not the shipped book.

    .venv/bin/python benchmarks/gomoku_book.py [--seconds 3] [--positions N]
        [--out src/parlour/games/gomoku/book.json] [--quick]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import parlour
from parlour.cache import write_whole
from parlour.cli._common import interruptible
from parlour.files import BadFile
from parlour.games.gomoku.book import (
    BOOK_FILE,
    MAX_SECONDS,
    Book,
    as_json,
    canonical,
    load_book,
)
from parlour.games.gomoku.game import GomokuState
from parlour.search import Stop
from record import arguments, duration, record, whole

SIZE = 15
CENTRE = SIZE // 2
CENTRAL = [(CENTRE + dr, CENTRE + dc) for dr in range(-2, 3) for dc in range(-2, 3)]
"""The central 5x5, row by row."""


def positions() -> Iterator[GomokuState]:
    """The book's positions in order, each position (up to symmetry) once."""
    start = parlour.game("gomoku", size=SIZE).start()
    assert isinstance(start, GomokuState)
    centre = (CENTRE, CENTRE)
    next_to = [(CENTRE + dr, CENTRE + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)]
    lines: list[tuple[tuple[int, int], ...]] = [()]
    lines += [(x,) for x in CENTRAL]
    lines += [(centre, o) for o in next_to if o != centre]
    lines += [
        (x1, o, x2)
        for x1 in CENTRAL
        for o in CENTRAL
        for x2 in CENTRAL
        if len({x1, o, x2}) == 3 and x1 < x2
    ]
    seen: set[str] = set()
    for line in lines:
        state = start
        for point in line:
            state = state.play(point)
        key = canonical(state)[0]
        if key not in seen:
            seen.add(key)
            yield state


def build(path: Path, seconds: float, count: int | None) -> dict[str, Any]:
    """Search the first ``count`` positions (all if None) missing from the book at
    ``path`` or searched there for less than ``seconds``, writing each entry as found."""
    from parlour.games.gomoku.engine import GomokuThinker
    from parlour.games.gomoku.engine.levels import LARGEST_TABLE_BITS, MAX_LEVEL

    try:
        book = load_book(path)
    except BadFile:
        if path.exists():
            raise
        book = Book(SIZE, False, {})
    thinker = GomokuThinker(
        MAX_LEVEL, seconds, to_the_clock=True, table_bits=LARGEST_TABLE_BITS, book=False
    )
    todo = list(positions())[:count]
    cpu, searched = time.process_time(), 0
    for n, state in enumerate(todo, 1):
        known = book.lookup(state)
        key = canonical(state)[0]
        if known is not None and known.seconds >= seconds:
            continue
        stop = Stop()  # Ctrl-C stops the search at once (and its entry is not kept)
        move, result = interruptible(partial(thinker.best_move, state, stop), stop)
        book = book.with_entry(state, move, result.value, result.depth, seconds)
        write_whole(path, (json.dumps(as_json(book), indent=1) + "\n").encode())
        searched += 1
        print(
            f"{n}/{len(todo)} {key}: {state.move_name(move)}"
            f" value {result.value} depth {result.depth} ({result.reason})",
            flush=True,
        )
    return {
        "positions": len(todo),
        "searched": searched,
        "entries": len(book.entries),
        "cpu_seconds": time.process_time() - cpu,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # a search's time up to the longest an entry may claim: a book it writes, its reader takes
    parser.add_argument(
        "--seconds", type=duration(0.01, MAX_SECONDS), default=3.0, help="a position's search"
    )
    parser.add_argument(
        "--positions", type=whole(1, 10**6), default=None, help="only the first so many"
    )
    parser.add_argument("--out", type=Path, default=None, help="the book written")
    args = arguments(parser, quick={"seconds": 0.05, "positions": 3})
    with tempfile.TemporaryDirectory() as folder:
        out = args.out or (Path(folder) / "book.json" if args.quick else BOOK_FILE)
        load_before = os.getloadavg()
        try:
            figures = build(out, args.seconds, args.positions)
        except KeyboardInterrupt:
            print(f"stopped: the entries found are kept in {out}", file=sys.stderr)
            raise SystemExit(130) from None
        except BadFile as error:
            raise SystemExit(f"gomoku_book: {error}") from None
    figures |= {"load_before": load_before, "load_after": os.getloadavg()}
    print(json.dumps(figures, indent=1))
    record(args, figures)


if __name__ == "__main__":
    main()
