"""Endgame tables of the sowing games: the exact value of every position with few seeds
left in the pits, for the search to read instead of searching on.

The future of a sowing game depends only on the pits and the side to move (the stores
just add up), so one table serves every position whose pits hold at most ``seeds``
seeds, whatever the stores: it holds, for each side to move, what that side gains over
the other from there to the end with perfect play (its store's seeds to come, less the
other's).  A position's exact value is then its store difference plus that.

Positions are numbered by the combinatorial number system: the pit counts a_1..a_m
(m = 2P pits) become the strictly increasing c_i = a_1 + ... + a_i + i - 1, and the index
is the sum of C(c_i, i).  The positions with at most n seeds are exactly the indexes below
C(n + m, m), so a table for n seeds starts with the table for every smaller n.

The table is built by retrograde analysis: every move either takes seeds off
the board (into a store, or by a capture) or keeps them in the mover's own row, closer to
its store.  So positions taken in order of seeds on the board, then of how far their
seeds have to go, come after all the positions their moves lead to, and each is one
maximum over its moves of values already known.  Building one takes seconds, so it is
done once a machine: the table is saved in parlour's cache folder (``parlour.cache``) and
later processes map the file into memory.
"""

from __future__ import annotations

import functools
import struct
import sys
import time
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from parlour import cache
from parlour.games import sowing

MAX_ENTRIES = 1 << 24
"""The largest table built: 16.8M positions, two bytes each (one a side to move): on six
pits a side, every position of up to 14 seeds in the pits, built in a few seconds."""
LARGEST = 1 << 28
"""The largest table built on request (``parlour solve --max-seeds``): 268M positions, half
a gigabyte on disk and some five more of memory while it is built."""
UNKNOWN = -128
"""A value not yet computed (a position's gain is at most the seeds on the board)."""
CHUNK = 1 << 15
"""Positions a kernel takes at a time in a build, some hundredths of a second's work:
between two, Python regains control, to show progress and to stop at once on Ctrl-C."""
STEPS = (0.2, 0.05, 0.75)
"""The shares of a build's time that its three passes take, about: the keys of the
building order, the order, the values."""
PATIENCE = 0.5
"""Seconds of building after which a progress bar shows."""
MAGIC = b"parlour endgame\n"
HEADER = struct.Struct("<16s5q")
"""A table file's header: ``MAGIC``, pits, rules, seeds, positions, the values' CRC-32;
the values follow, two bytes a position."""


@dataclass(frozen=True)
class EndgameTable:
    """The values of every position with at most ``seeds`` seeds in its pits:
    ``values[index, side]`` for the side to move, and the binomial coefficients
    ``choose[n, k]`` that number the positions."""

    seeds: int
    values: np.ndarray
    choose: np.ndarray


def binomials(n: int, k: int) -> np.ndarray:
    """C(i, j) for i <= n and j <= k, as int64."""
    return np.array([[comb(i, j) for j in range(k + 1)] for i in range(n + 1)], dtype=np.int64)


def check_size(pits: int, seeds: int) -> None:
    """ValueError, naming the count, if the table of ``pits`` pits a side to ``seeds`` seeds
    holds more than ``LARGEST`` positions."""
    count = comb(seeds + 2 * pits, 2 * pits)
    if count > LARGEST:
        raise ValueError(
            f"an endgame table of {pits} pits a side to {seeds} seeds holds {count:,} positions;"
            f" at most {LARGEST:,} are built (up to {seeds_within(pits, LARGEST)} seeds)"
        )


def seeds_within(pits: int, entries: int) -> int:
    """The most seeds in the pits whose table of ``pits`` pits a side has at most
    ``entries`` positions."""
    seeds = 0
    while comb(seeds + 1 + 2 * pits, 2 * pits) <= entries:
        seeds += 1
    return seeds


@njit(cache=True, nogil=True, inline="always")
def index(pos: np.ndarray, choose: np.ndarray) -> int:
    """The number of the pits of ``pos`` (stores and side to move ignored)."""
    pits = sowing.pit_count(pos)
    total, at, i = 0, 0, 0
    for hole in range(2 * pits + 1):
        if hole == pits:
            continue
        total += pos[hole]
        i += 1
        at += choose[total + i - 1, i]
    return at


@njit(cache=True, nogil=True)
def _unindex(number: int, pits: int, choose: np.ndarray, pos: np.ndarray) -> None:
    """Write the pits numbered ``number`` into ``pos`` (the inverse of ``index``)."""
    c = choose.shape[0] - 1
    higher, previous = 0, 0
    for i in range(2 * pits, 0, -1):
        while choose[c, i] > number:
            c -= 1
        number -= choose[c, i]
        hole = i - 1 if i <= pits else i
        if i < 2 * pits:
            pos[higher] = previous - c - 1
        higher, previous = hole, c
        c -= 1
    pos[higher] = previous


@njit(cache=True, nogil=True)
def _distance(pos: np.ndarray, pits: int) -> int:
    """How far the seeds in the pits have to go to their stores, in all."""
    far = 0
    for column in range(pits):
        far += (pos[column] + pos[pits + 1 + column]) * (pits - column)
    return far


@njit(cache=True, nogil=True)
def _keys(
    start: int, stop: int, pits: int, choose: np.ndarray, span: int, keys: np.ndarray
) -> None:
    """The building order's key of the positions numbered ``start`` to ``stop`` - 1: seeds
    in the pits, then distance (``span`` distances a seed count)."""
    pos = np.zeros(2 * pits + 3, dtype=np.int64)
    for number in range(start, stop):
        _unindex(number, pits, choose, pos)
        keys[number] = pos[: 2 * pits + 1].sum() * span + _distance(pos, pits)


@njit(cache=True, nogil=True)
def _place(start: int, stop: int, keys: np.ndarray, starts: np.ndarray, order: np.ndarray) -> None:
    """Put the positions numbered ``start`` to ``stop`` - 1 in ``order`` at the next place
    of their key (``starts``: where each key's next position goes)."""
    for number in range(start, stop):
        order[starts[keys[number]]] = number
        starts[keys[number]] += 1


@njit(cache=True, nogil=True)
def _gain(
    pos: np.ndarray, child: np.ndarray, rules: int, choose: np.ndarray, values: np.ndarray
) -> int:
    """What the side to move of ``pos`` (whose stores are empty) gains with its best move,
    from the values of the positions its moves lead to (UNKNOWN if one of them is not
    known yet); ``child`` is room for them.  A position with an empty row is over: each
    side keeps its row."""
    pits = sowing.pit_count(pos)
    side = pos[2 * pits + 2]
    store = sowing.store_index(side, pits)
    if sowing.is_over(pos):
        theirs = 0
        for column in range(pits):
            theirs += pos[sowing.pit_index(1 - side, column, pits)]
        return int(pos[: 2 * pits + 1].sum() - 2 * theirs)
    best = UNKNOWN
    for column in range(pits):
        if pos[sowing.pit_index(side, column, pits)] == 0:
            continue
        child[:] = pos
        over = sowing.apply_move(child, column, rules) & sowing.GAME_OVER
        gain = child[store] - child[sowing.store_index(1 - side, pits)]
        if not over:
            later = values[index(child, choose), child[2 * pits + 2]]
            if later == UNKNOWN:
                return UNKNOWN
            gain += later if child[2 * pits + 2] == side else -later
        best = max(best, gain)
    return best


@njit(cache=True, nogil=True)
def _fill(order: np.ndarray, pits: int, rules: int, choose: np.ndarray, values: np.ndarray) -> bool:
    """Compute every position's values in ``order``; False if one needed a value not yet
    known (rules for which the order does not hold)."""
    pos = np.zeros(2 * pits + 3, dtype=np.int64)
    child = np.zeros(2 * pits + 3, dtype=np.int64)
    for number in order:
        _unindex(number, pits, choose, pos)
        for side in range(2):
            pos[2 * pits + 2] = side
            values[number, side] = _gain(pos, child, rules, choose, values)
            if values[number, side] == UNKNOWN:
                return False
    return True


def build(pits: int, rules: int, seeds: int, report: Callable[[float], None]) -> np.ndarray:
    """The values of the endgame table of ``pits`` pits a side under ``rules``, to
    ``seeds`` seeds in the pits, by retrograde analysis; ``report`` hears the share done
    after each of its chunks."""
    count = comb(seeds + 2 * pits, 2 * pits)
    choose = binomials(seeds + 2 * pits, 2 * pits)
    order = _order(count, pits, choose, seeds, report)
    values = np.full((count, 2), UNKNOWN, dtype=np.int8)
    for start, stop in _chunks(count, 2, report):
        if not _fill(order[start:stop], pits, rules, choose, values):
            raise ValueError(f"no endgame table for sowing rules {rules}: a move left seeds behind")
    return values


def _order(
    count: int, pits: int, choose: np.ndarray, seeds: int, report: Callable[[float], None]
) -> np.ndarray:
    """The positions in the order of building: by seeds in the pits, then by distance (a
    counting sort: the keys are few); the first two steps of a build."""
    span = seeds * pits + 1
    keys = np.empty(count, dtype=np.int64)
    for start, stop in _chunks(count, 0, report):
        _keys(start, stop, pits, choose, span, keys)
    counts = np.bincount(keys, minlength=(seeds + 1) * span)
    starts = np.cumsum(counts) - counts
    order = np.empty(count, dtype=np.int64)
    for start, stop in _chunks(count, 1, report):
        _place(start, stop, keys, starts, order)
    return order


def _chunks(count: int, step: int, report: Callable[[float], None]) -> Iterator[tuple[int, int]]:
    """The ranges of positions of step ``step`` of a build over ``count`` positions,
    ``CHUNK`` at a time, reporting the share of the build done after each."""
    before = sum(STEPS[:step])
    for start in range(0, count, CHUNK):
        stop = min(start + CHUNK, count)
        yield start, stop
        report(before + STEPS[step] * stop / count)


@functools.cache
def table(pits: int, rules: int, seeds: int) -> EndgameTable:
    """The endgame table of ``pits`` pits a side under ``rules``, to ``seeds`` seeds in
    the pits: read from the cache folder, or built (with a progress bar if that takes a
    while) and saved there; once a process.  Ctrl-C stops a build between two chunks,
    before anything is written."""
    values = _load(pits, rules, seeds)
    if values is None:
        with _progress_bar(f"endgame table: {pits} pits a side, up to {seeds} seeds") as report:
            values = build(pits, rules, seeds, report)
        with suppress(OSError):  # without a writable cache, the next process builds it again
            _save(values, pits, rules, seeds)
    return EndgameTable(seeds, values, binomials(seeds + 2 * pits, 2 * pits))


def _file(pits: int, rules: int, seeds: int) -> Path:
    """Where the table is kept: in a folder of the version of the code that builds it
    (the values come from this module's kernels and the rules'), named by its key."""
    version = cache.digest([Path(__file__), Path(sowing.__file__)], cache.PACKAGE)
    return cache.versioned("endgame", version) / f"sowing-{pits}-pits-{rules}-rules-{seeds}-seeds"


def _header(values: np.ndarray, pits: int, rules: int, seeds: int) -> bytes:
    """The header of the file of these values."""
    return HEADER.pack(MAGIC, pits, rules, seeds, len(values), zlib.crc32(values.data))


def _save(values: np.ndarray, pits: int, rules: int, seeds: int) -> None:
    """Write the table, whole or not at all (``cache.write_whole``)."""
    cache.write_whole(_file(pits, rules, seeds), _header(values, pits, rules, seeds), values.data)


def _load(pits: int, rules: int, seeds: int) -> np.ndarray | None:
    """The table's values mapped from its file, or None if there is no file or it is not
    whole: its header must name this table and the file's size fit it, and the checksum
    of the values (CRC-32: it catches a damaged disk's errors, for a fraction of a
    cryptographic hash's time) match.  The mapping is copy-on-write: the array is
    writable, as the kernels take it, but nothing goes back to the file."""
    count = comb(seeds + 2 * pits, 2 * pits)
    try:
        path = _file(pits, rules, seeds)
        with path.open("rb") as file:
            header = file.read(HEADER.size)
        if len(header) != HEADER.size or path.stat().st_size != HEADER.size + 2 * count:
            return None
        values = np.memmap(path, np.int8, "c", HEADER.size, (count, 2))
    except OSError:
        return None
    return values if _header(values, pits, rules, seeds) == header else None


@contextmanager
def _progress_bar(description: str) -> Iterator[Callable[[float], None]]:
    """A ``report`` for :func:`build` that shows a progress bar on standard error once the
    build has taken ``PATIENCE`` seconds, if standard error is a terminal."""
    shown = sys.stderr.isatty()
    begun = time.monotonic()
    bar: Any = None

    def report(done: float) -> None:
        nonlocal bar
        if bar is None and shown and time.monotonic() - begun > PATIENCE:
            from rich.console import Console
            from rich.progress import Progress

            bar = Progress(console=Console(stderr=True), transient=True)
            bar.add_task(description, total=1.0)
            bar.start()
        if bar is not None:
            bar.update(bar.task_ids[0], completed=done)

    try:
        yield report
    finally:
        if bar is not None:
            bar.stop()
