"""Endgame tables of the sowing games: the exact value of every position with few seeds
left in the pits, for the search to read instead of searching on.

The future of a sowing game depends only on the pits and the side to move (the stores
just add up), so one table serves every position whose pits hold at most ``seeds``
seeds, whatever the stores: it holds what the side to move gains over the other from
there to the end with perfect play (its store's seeds to come, less the other's).  A
position's exact value is then its store difference plus that.  The rules are the same
for both sides, so a position is worth to its side to move what its mirror image (the
rows swapped, the other side to move) is worth to that side: the table numbers the pits
as the side to move sees them, its own row first, and holds one value a position.

Positions are numbered by the combinatorial number system: the pit counts a_1..a_m
(m = 2P pits: the side to move's row, then the other's, each in sowing order) become the
strictly increasing c_i = a_1 + ... + a_i + i - 1, and the index is the sum of C(c_i, i).
The positions with at most n seeds are exactly the indexes below C(n + m, m), so a table
for n seeds starts with the table for every smaller n.

The table is built by retrograde analysis: every move either takes seeds off
the board (into a store, or by a capture) or keeps them in the mover's own row, closer to
its store.  So positions taken in order of seeds on the board, then of how far their
seeds have to go, come after all the positions their moves lead to, and each is one
maximum over its moves of values already known.  A table is built seed count by seed
count, and saved after each in parlour's cache folder (``parlour.cache``): one file for a
board and rule set, holding the biggest table built, whose prefix serves every smaller
one; a build stopped (Ctrl-C) resumes from the last count saved, and a bigger table grows
from the file.  Later processes map the file into memory, and later versions of parlour
too, once they have checked that they give the same values.  In memory and on disk a
table holds each position's value in a few bits (``packed``: five on six pits a side).
"""

from __future__ import annotations

import functools
import os
import struct
import zlib
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import AbstractContextManager, contextmanager, suppress
from dataclasses import dataclass
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from parlour import cache
from parlour.games.sowing import game as sowing
from parlour.games.sowing import packed
from parlour.games.sowing import progress as display

MAX_ENTRIES = 1 << 24
"""The largest table built unasked: 16.8M positions: on six pits a side, every position of
up to 14 seeds in the pits (6 MB), built in a few seconds."""
PROOF_SEEDS = 16
"""The table ``parlour solve`` builds where none as big is built here, by seeds in the pits
on six pits a side (``proof_seeds``: as many positions on other boards): the size whose
build and proof of Kalah(6,4) together take the least CPU on two threads, about 52 CPU
seconds (17 seeds: 54, 18: 70, 20: 177; a bigger table's build costs more than it spares
the proof: ``benchmarks/solve.py --from-nothing-seeds``)."""
BUILD_RATE = 1_000_000
"""Positions a build computes in a CPU second, about: what a build's estimate says before
it starts.  The rate falls as the counts grow (six pits a side: 1.4M to 20 seeds,
``benchmarks/solve.py --from-nothing-seeds``; 0.97M over the build from 14 to 26 seeds),
and the big builds are the ones whose wait matters: their rate, so that the estimate errs
long on a small one."""
LARGEST = 12 << 30
"""The most positions of a table built on request (``parlour solve --max-seeds``): a
build holds the table (``packed``) and, for each position of the count it builds, two
bytes (its key and its value as it is computed) and, as far as its memory allows
(``memory_needed``), four for its place in the order of building (a count's positions
numbered in 32 bits).  On six pits a side that is 30 seeds (11,058M positions, 6.9 GB at
five bits each)."""
MOST_SEEDS = (1 << packed.MOST_WIDTH) - 2
"""The most seeds in the pits of any table: a position's seeds to come fit a byte, all ones
(not computed) apart."""
UNKNOWN = -(1 << 15)
"""A gain not yet computed (a gain is at most the seeds on the board)."""
NOT_COMPUTED = (1 << packed.MOST_WIDTH) - 1
"""A position of the count a build computes whose value is not computed yet (its seeds to
come, a byte each, are at most ``MOST_SEEDS``)."""
CHUNK = 1 << 15
"""Positions a kernel takes at a time in a build, some hundredths of a second's work:
between two, Python regains control, to show progress and to stop at once on Ctrl-C."""
STEPS = (0.2, 0.05, 0.75)
"""The shares of a build's time that its three passes take, about: the keys of the
building order, the order, the values."""
BUILD_THREADS = min(2, os.cpu_count() or 1)
"""The threads of a build: two where there are two cores (positions the same distance
from their stores need none of each other's values)."""
AHEAD = 2 * BUILD_THREADS
"""The chunks a build hands its threads ahead of the one it waits for."""
LAYOUT = 4
"""The version of the table files' layout (header, checks, numbering, ``packed`` values):
a change of it starts a new folder of tables.  Layout 3 held a byte a position (the gain);
layout 2 two, one for each side to move, numbered from player 0's row, the first column
layout 3's: both are packed into this layout (``_adopt``)."""
MAGIC = f"parlour endgame{LAYOUT}".encode()
LAYOUT_3 = b"parlour endgame3"
MAGICS = (MAGIC, LAYOUT_3, b"parlour endgame2")
"""The layouts of table files read: this one, and layouts 3 and 2 (``_adopt``)."""
HEADER = struct.Struct("<16s3q")
"""A table file's header: ``MAGIC``, pits, rules and the seeds in the pits it goes to;
then the CRC-32 of the bytes of each seed count (4 bytes each, from 0 seeds: ``_spans``);
then the table (``packed``)."""
SLICE = 1 << 24
"""Positions of an older layout's table packed at a time (``_packed``): tens of megabytes."""
CRC = np.dtype("<u4")
AGREEMENT = 1 << 20
"""The positions of the table built to check that the code here gives a table file's
values (``_agrees``): on six pits a side, up to 10 seeds, a third of a second."""


@dataclass(frozen=True)
class EndgameTable:
    """The values of every position with at most ``seeds`` seeds in its pits, ``packed``
    (``value(pos, packed, choose)`` for its side to move), and the binomial coefficients
    ``choose[n, k]`` that number the positions."""

    seeds: int
    packed: np.ndarray
    choose: np.ndarray


def binomials(n: int, k: int) -> np.ndarray:
    """C(i, j) for i <= n and j <= k, as int64."""
    return np.array([[comb(i, j) for j in range(k + 1)] for i in range(n + 1)], dtype=np.int64)


def positions(pits: int, seeds: int) -> int:
    """The positions of ``pits`` pits a side with at most ``seeds`` seeds in the pits (none
    for a negative count): the table's length."""
    return comb(seeds + 2 * pits, 2 * pits) if seeds >= 0 else 0


def largest(pits: int) -> int:
    """The most seeds in the pits of a table of ``pits`` pits a side built: at most
    ``LARGEST`` positions and ``MOST_SEEDS``, each count's positions numbered in 32 bits."""
    most = 0
    while most < MOST_SEEDS and positions(pits, most + 1) <= LARGEST:
        most += 1
    while positions(pits, most) - positions(pits, most - 1) >= 1 << 32:
        most -= 1
    return most


WIDTHS = np.array(
    [packed.width(largest(pits)) if pits else 0 for pits in range(len(sowing.LETTERS) + 1)]
)
"""The bits of a position in the tables of each board, by pits a side (to the most the
game has): one width whatever the table's size (``packed``)."""


def width(pits: int) -> int:
    """The bits of a position in the tables of ``pits`` pits a side."""
    return int(WIDTHS[pits])


def table_bytes(pits: int, seeds: int) -> int:
    """The bytes of the table of ``pits`` pits a side to ``seeds`` seeds, in memory and on
    disk (its header apart)."""
    return packed.size(positions(pits, seeds), width(pits))


def check_size(pits: int, seeds: int) -> None:
    """ValueError, naming the count, if the table of ``pits`` pits a side to ``seeds`` seeds
    is bigger than any built (``largest``)."""
    count = positions(pits, seeds)
    most = largest(pits)
    if seeds > most:
        raise ValueError(
            f"an endgame table of {pits} pits a side to {seeds} seeds holds {count:,} positions;"
            f" at most {positions(pits, most):,} are built (up to {most} seeds)"
        )


def proof_seeds(pits: int) -> int:
    """The seeds of the table ``parlour solve`` reads unasked on ``pits`` pits a side, where
    none bigger is built: that of as many positions as ``PROOF_SEEDS`` on six (within the
    largest built)."""
    return min(seeds_within(pits, positions(6, PROOF_SEEDS)), largest(pits))


def estimate(
    pits: int, seeds: int, held: int, threads: int = BUILD_THREADS
) -> tuple[int, float, int]:
    """The positions to compute, the seconds (about: ``BUILD_RATE``, the threads busy) and
    the bytes on disk of a build of the table of ``pits`` pits a side to ``seeds`` seeds on
    ``threads`` threads, from ``held`` seeds built (-1: none)."""
    todo = positions(pits, seeds) - positions(pits, held)
    return todo, todo / (BUILD_RATE * threads), table_bytes(pits, seeds)


def seeds_within(pits: int, entries: int) -> int:
    """The most seeds in the pits whose table of ``pits`` pits a side has at most
    ``entries`` positions."""
    seeds = 0
    while positions(pits, seeds + 1) <= entries:
        seeds += 1
    return seeds


@njit(cache=True, nogil=True, inline="always")
def numbered(pos: np.ndarray, choose: np.ndarray) -> tuple[int, int]:
    """The number of the pits of ``pos`` as its side to move sees them, its own row first
    (stores ignored: a position and its mirror image share a number), and its seeds in
    the pits."""
    pits = sowing.pit_count(pos)
    own = 0 if pos[2 * pits + 2] == 0 else pits + 1
    other = pits + 1 - own
    total, at = 0, 0
    for i in range(1, 2 * pits + 1):
        total += pos[own + i - 1 if i <= pits else other + i - 1 - pits]
        at += choose[total + i - 1, i]
    return at, total


@njit(cache=True, nogil=True, inline="always")
def index(pos: np.ndarray, choose: np.ndarray) -> int:
    """The number of the pits of ``pos`` in a table (``numbered``)."""
    return numbered(pos, choose)[0]


@njit(cache=True, nogil=True, inline="always")
def value(pos: np.ndarray, table: np.ndarray, choose: np.ndarray) -> int:
    """What the side to move of ``pos`` gains from there with perfect play, read from the
    packed ``table`` (which holds its seeds in the pits)."""
    number, seeds = numbered(pos, choose)
    return 2 * packed.read(table, WIDTHS[sowing.pit_count(pos)], number) - seeds


@njit(cache=True, nogil=True)
def _unindex(number: int, pits: int, choose: np.ndarray, pos: np.ndarray) -> None:
    """Write the pits numbered ``number`` into ``pos`` (the inverse of ``index`` with
    player 0 to move)."""
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


def key_type(pits: int, seeds: int) -> np.dtype:
    """The type of a count's keys (``_keys``): a byte where its distances fit one (at
    most the seeds times the pits: up to 42 seeds on six pits a side), else two."""
    return np.dtype(np.uint8 if seeds * pits <= np.iinfo(np.uint8).max else np.uint16)


@njit(cache=True, nogil=True)
def _keys(
    start: int, stop: int, first: int, pits: int, choose: np.ndarray, keys: np.ndarray
) -> None:
    """The distances of the positions ``start`` to ``stop`` - 1 of a seed count (offsets
    from its ``first`` position), into ``keys``: the building order of the count.  A
    count's build holds a key for each of its positions, as small as they fit
    (``key_type``)."""
    pos = np.zeros(2 * pits + 3, dtype=np.int64)
    for offset in range(start, stop):
        _unindex(first + offset, pits, choose, pos)
        keys[offset] = _distance(pos, pits)


@njit(cache=True, nogil=True)
def _place(
    start: int,
    stop: int,
    keys: np.ndarray,
    starts: np.ndarray,
    low: int,
    order: np.ndarray,
) -> None:
    """Put the positions ``start`` to ``stop`` - 1 of a seed count (offsets from its first)
    whose place in the building order falls in ``order`` (the piece of that order from
    place ``low``): each goes at the next place of its key (``starts``: where each key's
    next position goes, moved on for every position, in the piece or not)."""
    high = low + len(order)
    for offset in range(start, stop):
        key = keys[offset]
        place = starts[key]
        starts[key] = place + 1
        if low <= place < high:
            order[place - low] = offset


@njit(cache=True, nogil=True)
def _gain(
    pos: np.ndarray,
    child: np.ndarray,
    rules: int,
    choose: np.ndarray,
    table: np.ndarray,
    current: np.ndarray,
    first: int,
) -> int:
    """What the side to move of ``pos`` (whose stores are empty) gains with its best move,
    from the values of the positions its moves lead to (UNKNOWN if one of them is not
    known yet): those of fewer seeds in the pits from the packed ``table``, those of as
    many (numbered from ``first``) from the seeds to come of ``current``; ``child`` is
    room for them.  A position with an empty row is over: each side keeps its row."""
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
        if not sowing.sowable(pos, column):
            continue
        child[:] = pos
        over = sowing.apply_move(child, column, rules) & sowing.GAME_OVER
        gain = child[store] - child[sowing.store_index(1 - side, pits)]
        if not over:
            number, seeds = numbered(child, choose)
            if number >= first:
                mine = current[number - first]
                if mine == NOT_COMPUTED:
                    return UNKNOWN
                later = 2 * int(mine) - seeds
            else:
                later = 2 * packed.read(table, WIDTHS[pits], number) - seeds
            gain += later if child[2 * pits + 2] == side else -later
        best = max(best, gain)
    return best


@njit(cache=True, nogil=True)
def _fill(
    start: int,
    stop: int,
    order: np.ndarray,
    first: int,
    seeds: int,
    pits: int,
    rules: int,
    choose: np.ndarray,
    table: np.ndarray,
    current: np.ndarray,
) -> bool:
    """Compute the values of the positions ``order[start:stop]`` of ``seeds`` seeds in the
    pits (offsets from the first, numbered ``first``), player 0 to move, into ``current``
    (their seeds to come, a byte each: threads may write side by side, as they may not
    in the packed ``table``); False if one needed a value not yet known (rules for which
    the order does not hold)."""
    pos = np.zeros(2 * pits + 3, dtype=np.int64)
    child = np.zeros(2 * pits + 3, dtype=np.int64)
    for k in range(start, stop):
        offset = int(order[k])
        _unindex(first + offset, pits, choose, pos)
        gain = _gain(pos, child, rules, choose, table, current, first)
        if gain == UNKNOWN:
            return False
        current[offset] = (gain + seeds) >> 1
    return True


def build(
    pits: int,
    rules: int,
    seeds: int,
    report: Callable[[float], None],
    known: EndgameTable | None = None,
    counted: Callable[[np.ndarray, int], None] = lambda table, seeds: None,
    threads: int = BUILD_THREADS,
    memory: int | None = None,
) -> np.ndarray:
    """The endgame table of ``pits`` pits a side under ``rules``, to ``seeds`` seeds in
    the pits, packed, by retrograde analysis, seed count by seed count on from ``known``
    (a smaller table: the prefix), on ``threads`` threads, holding at most ``memory``
    bytes (None: no limit; ``check_memory``); ``counted`` hears the table to n seeds as
    each count n is done, and ``report`` the share of the build done after each of its
    chunks."""
    check_size(pits, seeds)
    check_memory(pits, seeds, memory)
    table = packed.empty(positions(pits, seeds), width(pits))
    choose = binomials(seeds + 2 * pits, 2 * pits)
    first = 0
    if known is not None:
        # its bytes but the spare one: bits beyond its positions are written over below
        table[: len(known.packed) - 1] = known.packed[:-1]
        first = known.seeds + 1
    begun, todo = positions(pits, first - 1), positions(pits, seeds) - positions(pits, first - 1)
    with _threads(threads) as pool:
        for n in range(first, seeds + 1):
            low, high = positions(pits, n - 1), positions(pits, n)

            def share(done: float, low: int = low, high: int = high) -> None:
                """Report that a share ``done`` of the count is built."""
                report((low - begun + done * (high - low)) / todo)

            piece = _piece(pits, seeds, n, memory)
            _build_count(pool, pits, rules, n, choose, table, share, piece)
            counted(table[: table_bytes(pits, n)], n)
    return table


ORDER_BYTES = np.dtype(np.uint32).itemsize
"""The bytes of a place in a count's building order (a position's offset in its count)."""


def memory_needed(pits: int, seeds: int) -> int:
    """The least memory in bytes a build of the table of ``pits`` pits a side to ``seeds``
    seeds holds: the table (``packed``), the keys and values (a byte each) of its largest
    count and a chunk of that count's building order (which is built piece by piece
    within the memory given: ``_piece``)."""
    most = positions(pits, seeds) - positions(pits, seeds - 1)
    count = (key_type(pits, seeds).itemsize + 1) * most
    return table_bytes(pits, seeds) + count + ORDER_BYTES * min(CHUNK, most)


def check_memory(pits: int, seeds: int, memory: int | None) -> None:
    """ValueError, naming the least it needs, if the table of ``pits`` pits a side to
    ``seeds`` seeds cannot be built within ``memory`` bytes (None: no limit)."""
    needed = memory_needed(pits, seeds)
    if memory is not None and memory < needed:
        raise ValueError(
            f"an endgame table of {pits} pits a side to {seeds} seeds needs at least"
            f" {-(-needed // (1 << 20)):,} MB to build (the table, and its largest count's keys"
            f" and values); {memory // (1 << 20):,} MB given"
        )


def _piece(pits: int, seeds: int, count: int, memory: int | None) -> int:
    """The places of the building order of the positions of ``count`` seeds held at once,
    in a build of the table to ``seeds`` seeds within ``memory`` bytes: the whole count
    where they fit (or with no limit), else what is left beside the table and the
    count's keys and values (at least a chunk)."""
    size = positions(pits, count) - positions(pits, count - 1)
    if memory is None:
        return size
    held = table_bytes(pits, seeds) + (key_type(pits, count).itemsize + 1) * size
    return max(min(size, CHUNK), min(size, (memory - held) // ORDER_BYTES))


@contextmanager
def _threads(threads: int) -> Iterator[ThreadPoolExecutor]:
    """A pool of ``threads`` threads, whose chunks not begun are dropped on an error (as
    Ctrl-C's), so that it stops at once."""
    pool = ThreadPoolExecutor(threads)
    try:
        yield pool
    finally:
        pool.shutdown(cancel_futures=True)


def _build_count(
    pool: ThreadPoolExecutor,
    pits: int,
    rules: int,
    seeds: int,
    choose: np.ndarray,
    table: np.ndarray,
    share: Callable[[float], None],
    piece: int,
) -> None:
    """The values of the positions of ``seeds`` seeds in the pits, into the packed
    ``table``: their distances from the stores (keys), then, a ``piece`` of places at a
    time, their order by distance and the values of the positions there (a byte each
    until the count is done), those of each distance (which need none of each other's
    values) on the pool's threads; ``share(done)`` hears the share of the count done.
    Pieces smaller than the count cost a pass over its keys each, but hold four bytes a
    position fewer."""
    low, high = positions(pits, seeds - 1), positions(pits, seeds)
    size = high - low
    keys = np.empty(size, dtype=key_type(pits, seeds))
    current = np.full(size, NOT_COMPUTED, dtype=np.uint8)
    for stop, _ in _spread(pool, _keys, _chunks(0, size), low, pits, choose, keys):
        share(STEPS[0] * stop / size)
    counts = np.bincount(keys, minlength=seeds * pits + 1)
    begins = np.cumsum(counts) - counts
    for start, stop in _chunks(0, size, piece):
        begun = STEPS[0] + (STEPS[1] + STEPS[2]) * start / size
        ordered = STEPS[1] * (stop - start) / size

        def placed(done: int, begun: float = begun, ordered: float = ordered) -> None:
            share(begun + ordered * done / size)

        order = _order(keys, begins, start, stop, placed)
        for chunks in _distances(begins, counts, start, stop):
            fill = (order, low, seeds, pits, rules, choose, table, current)
            for end, whole in _spread(pool, _fill, chunks, *fill):
                if not whole:
                    raise ValueError(
                        f"no endgame table for sowing rules {rules}: a move left seeds behind"
                    )
                share(begun + ordered + STEPS[2] * end / size)
    for start, stop in _chunks(0, size, CHUNK << 6):  # a fraction of a second each
        packed.put(table, width(pits), low + start, current[start:stop])


def _spread(
    pool: ThreadPoolExecutor, kernel: Callable[..., Any], ranges: list[tuple[int, int]], *args: Any
) -> Iterator[tuple[int, Any]]:
    """``kernel(start, stop, *args)`` for each of ``ranges`` on the pool's threads, a few
    ahead (``AHEAD``): the end of each range and its result, in turn, as each is done.
    Only those few are left to finish when Ctrl-C ends the process (which waits for the
    pool's work queued)."""
    running: deque[tuple[int, Future[Any]]] = deque()
    for start, stop in ranges:
        running.append((stop, pool.submit(kernel, start, stop, *args)))
        if len(running) > AHEAD:
            end, future = running.popleft()
            yield end, future.result()
    for end, future in running:
        yield end, future.result()


def _order(
    keys: np.ndarray, begins: np.ndarray, low: int, high: int, report: Callable[[int], None]
) -> np.ndarray:
    """The places ``low`` to ``high`` - 1 of the order of building of a seed count: the
    offsets of its positions from its first, by their ``keys`` (distances from the stores,
    each beginning at its place in ``begins``: a counting sort), placed in one pass over
    the keys; ``report`` hears how many keys are passed after each chunk."""
    order = np.empty(high - low, dtype=np.uint32)
    starts = begins.copy()
    for start, stop in _chunks(0, len(keys)):
        _place(start, stop, keys, starts, low, order)
        report(stop)
    return order


def _distances(
    begins: np.ndarray, counts: np.ndarray, low: int, high: int
) -> list[list[tuple[int, int]]]:
    """The ranges of the piece of the building order from place ``low`` to ``high``
    (counted from the piece's first) of each distance in turn, in chunks: a distance's
    positions begin at its place in ``begins`` and number ``counts``."""
    groups = []
    for begin, count in zip(begins.tolist(), counts.tolist(), strict=True):
        start, stop = max(begin, low), min(begin + count, high)
        if start < stop:
            groups.append(_chunks(start - low, stop - low))
    return groups


def _chunks(low: int, high: int, size: int | None = None) -> list[tuple[int, int]]:
    """The ranges from ``low`` to ``high``, ``size`` at a time (by default ``CHUNK``: the
    pieces of a build's steps, between which Python regains control, to show progress
    and to stop at once on Ctrl-C)."""
    step = size or CHUNK
    return [(start, min(start + step, high)) for start in range(low, high, step)]


Progress = Callable[[str], AbstractContextManager[Callable[[float], None]]]
"""A display of a build's progress (``progress.shown``, by default): given what is built,
a context whose value hears the share of the build done after each chunk."""
_TABLES: dict[tuple[int, int, int], EndgameTable] = {}
"""The tables read or built in this process."""


def table(
    pits: int,
    rules: int,
    seeds: int,
    progress: Progress | None = None,
    memory: int | None = None,
) -> EndgameTable:
    """The endgame table of ``pits`` pits a side under ``rules``, to ``seeds`` seeds in
    the pits: read from the cache folder, or built there within ``memory`` bytes (None:
    no limit), its progress shown by ``progress`` (by default on standard error:
    ``progress.shown``), from as far as the file went; once a process.  Ctrl-C stops a
    build between two chunks, the seed counts done kept."""
    key = (pits, rules, seeds)
    if key in _TABLES:
        return _TABLES[key]
    found = _load(pits, rules, seeds)
    if found is None or found.seeds < seeds:
        resumed = "" if found is None else f", from {found.seeds + 1}"
        shown = progress or display.shown
        with shown(f"endgame table: {pits} pits a side, up to {seeds} seeds{resumed}") as report:
            saved = functools.partial(save, pits=pits, rules=rules)
            built = build(pits, rules, seeds, report, found, saved, memory=memory)
        found = EndgameTable(seeds, built, binomials(seeds + 2 * pits, 2 * pits))
    _TABLES[key] = found
    return found


def forget() -> None:
    """Drop the tables this process read or built (the next ask reads the file again)."""
    _TABLES.clear()


def _file(pits: int, rules: int) -> Path:
    """Where the tables of a board and rule set are kept, named by their key: in a folder
    of the file layout, not of the code, so that a table (hours of building, for the
    biggest) outlives a change of the code that leaves its values as they were
    (``_agrees``).  A table left in the folder of an older version is moved here
    (``_adopt``)."""
    return cache.versioned("endgame", f"layout-{LAYOUT}") / f"sowing-{pits}-pits-{rules}-rules"


@functools.cache
def _code() -> str:
    """The version of the code the values come from: this module's kernels and the rules'."""
    return cache.digest([Path(__file__), Path(sowing.__file__)], cache.PACKAGE)


def _adopt(path: Path, pits: int, rules: int) -> None:
    """Bring into ``path`` the biggest table of this board and rule set left in another
    folder of tables by an older version of parlour (which kept them in a folder of its
    code's or of an older layout): moved if of this layout, else packed (once its own
    checksums hold: the table gets new ones), the old file then removed (of no use to
    this version).  It is then checked like any file read (``_load``): its values
    against the code here, as the old file does not say which code gave them."""
    found = []
    for other in path.parent.parent.glob(f"*/{path.name}"):
        with suppress(OSError), other.open("rb") as file:
            header = file.read(HEADER.size)
            found += [(_header_seeds(header, pits, rules, m), m, other) for m in MAGICS]
    held, magic, best = max(found, default=(-1, MAGIC, path))
    with suppress(OSError, ValueError):  # another process may have moved it first
        if held >= 0 and magic == MAGIC:
            os.replace(best, path)
        elif held >= 0:
            columns = 1 if magic == LAYOUT_3 else 2  # layout 2: a column for each side
            shape = (positions(pits, held), columns)
            old = np.memmap(best, np.int8, "r", _values_start(held), shape)
            checks = np.fromfile(best, CRC, held + 1, offset=HEADER.size)
            if np.array_equal(_byte_checks(old, pits), checks):
                _write(path, _packed(old[:, 0], pits, held), held, pits, rules)
                best.unlink()


def _packed(values: np.ndarray, pits: int, seeds: int) -> np.ndarray:
    """The table of ``pits`` pits a side to ``seeds`` seeds whose gains are ``values`` (a
    byte each, as tables of layouts 2 and 3 held them), packed a slice at a time;
    ValueError at one no position can have."""
    table = packed.empty(positions(pits, seeds), width(pits))
    for n in range(seeds + 1):
        low, high = positions(pits, n - 1), positions(pits, n)
        for start in range(low, high, SLICE):
            stop = min(start + SLICE, high)
            if not packed.store(table, width(pits), start, n, np.array(values[start:stop])):
                raise ValueError(f"a value of {n} seeds in the pits is no gain of {n} seeds")
    return table


def _values_start(seeds: int) -> int:
    """Where a table file's values begin, after its header and the checksums of its
    ``seeds + 1`` counts (of every layout)."""
    return HEADER.size + CRC.itemsize * (seeds + 1)


def unpacked(table: np.ndarray, pits: int, seeds: int) -> np.ndarray:
    """The gains of every position of the packed ``table`` of ``pits`` pits a side to
    ``seeds`` seeds, a number each (int64), in the numbering's order."""
    gains = np.empty(positions(pits, seeds), dtype=np.int64)
    for n in range(seeds + 1):
        low, high = positions(pits, n - 1), positions(pits, n)
        packed.load(table, width(pits), low, n, gains[low:high])
    return gains


def _agrees(table: np.ndarray, held: int, pits: int, rules: int) -> bool:
    """Whether the code here gives the values of a table (to ``held`` seeds) built by
    other code: a table built now to ``AGREEMENT`` positions (a fraction of a second)
    equals its prefix.  A change of the rules or of the numbering shows in the smallest
    counts."""
    seeds = min(seeds_within(pits, AGREEMENT), held)
    built = build(pits, rules, seeds, lambda done: None)
    return bool(np.array_equal(unpacked(built, pits, seeds), unpacked(table, pits, seeds)))


def _spans(pits: int, seeds: int) -> Iterator[tuple[int, int]]:
    """The bytes of a packed table holding the positions of each seed count to ``seeds``
    (from the byte of its first bit to that of its last: a count shares a byte with its
    neighbours where a position's bits do not end on a byte)."""
    bits = width(pits)
    for n in range(seeds + 1):
        yield positions(pits, n - 1) * bits // 8, -(-positions(pits, n) * bits // 8)


def _checks(table: np.ndarray, pits: int, seeds: int) -> np.ndarray:
    """The CRC-32 of the bytes of each seed count of the packed ``table`` (``_spans``)."""
    return np.array(
        [zlib.crc32(table[low:high].data) for low, high in _spans(pits, seeds)], dtype=CRC
    )


def _byte_checks(values: np.ndarray, pits: int) -> np.ndarray:
    """The CRC-32 of the values of each seed count of ``values``, a table of layouts 2 or
    3 (a byte a position, and for each position a row of columns)."""
    seeds = seeds_within(pits, len(values))
    return np.array(
        [
            zlib.crc32(values[positions(pits, n - 1) : positions(pits, n)].data)
            for n in range(seeds + 1)
        ],
        dtype=CRC,
    )


def _write(path: Path, table: np.ndarray, seeds: int, pits: int, rules: int) -> None:
    """Write the packed ``table`` to ``seeds`` seeds into ``path``, whole or not at all
    (``cache.write_whole``)."""
    header = HEADER.pack(MAGIC, pits, rules, seeds)
    cache.write_whole(path, header, _checks(table, pits, seeds).data, table.data)


def save(table: np.ndarray, seeds: int, pits: int, rules: int) -> None:
    """Write the packed ``table`` to ``seeds`` seeds, stamped as the values of the code
    here; without a writable cache folder, the next process builds it again."""
    with suppress(OSError):
        path = _file(pits, rules)
        _write(path, table, seeds, pits, rules)
        _stamp(path).write_text(f"{_signature(path)} -1 {_code()}")


def _load(pits: int, rules: int, seeds: int) -> EndgameTable | None:
    """The table to ``seeds`` seeds (or to as many as its file holds, if fewer) mapped
    from its file, or None if there is no file or it is not to be trusted: its header
    must name this board and rule set, the file's size fit the seeds it names, the
    checksum of each seed count read match (CRC-32: it catches a damaged disk's errors,
    for a fraction of a cryptographic hash's time), and the code here give its values
    (``_agrees``); each check is made once for a file as it is (``_checked``).  The
    mapping is copy-on-write: the array is writable, as the kernels take it, but nothing
    goes back to the file."""
    try:
        path = _file(pits, rules)
        if not path.exists():
            _adopt(path, pits, rules)
        with path.open("rb") as file:
            held = _header_seeds(file.read(HEADER.size), pits, rules)
            if held < 0:
                return None
            checks = np.frombuffer(file.read(CRC.itemsize * (held + 1)), dtype=CRC)
        start = _values_start(held)
        if len(checks) != held + 1 or path.stat().st_size != start + table_bytes(pits, held):
            return None
        read, (checked, code), here = min(seeds, held), _checked(path), _code()
        mapped = max(read, min(held, seeds_within(pits, AGREEMENT)))  # what the checks read
        table = np.memmap(path, np.uint8, "c", start, table_bytes(pits, mapped))
        if checked < mapped and not np.array_equal(
            _checks(table, pits, mapped), checks[: mapped + 1]
        ):
            return None
        if code != here and not _agrees(table, mapped, pits, rules):
            return None
        if (checked, code) != (max(checked, mapped), here):
            _stamp(path).write_text(f"{_signature(path)} {max(checked, mapped)} {here}")
    except OSError:
        return None
    choose = binomials(read + 2 * pits, 2 * pits)
    return EndgameTable(read, table[: table_bytes(pits, read)], choose)


def _stamp(path: Path) -> Path:
    """The file saying, of the table file ``path`` as it is (``_signature``), to how many
    seeds it was checked and which version of the code gives its values (``_code``)."""
    return path.with_name(path.name + ".checked")


def _signature(path: Path) -> str:
    """What changes when a file is written: its size, time of change and inode."""
    status = path.stat()
    return f"{status.st_size} {status.st_mtime_ns} {status.st_ino}"


def _checked(path: Path) -> tuple[int, str]:
    """The seeds to which the table file ``path``, as it is, was checked (-1: not checked)
    and the version of the code known to give its values ("": none): checking every
    count's CRC-32 of a big table takes seconds, and its agreement with the code a table
    built, so each is done once, until the file is written again or the code changes."""
    try:
        signature, seeds, code = _stamp(path).read_text().rsplit(" ", 2)
        if signature == _signature(path):
            return int(seeds), code
    except (OSError, ValueError):
        pass
    return -1, ""


def built_seeds(pits: int, rules: int) -> int:
    """The seeds in the pits that the table file of a board and rule set goes to, as its
    header says (-1 without one): the largest table built here (``parlour solve build``),
    which the solver reads by default.  Its values are checked when read (``table``)."""
    try:
        with _file(pits, rules).open("rb") as file:
            return _header_seeds(file.read(HEADER.size), pits, rules)
    except OSError:
        return -1


def _header_seeds(header: bytes, pits: int, rules: int, layout: bytes = MAGIC) -> int:
    """The seeds a table file's ``header`` names, if it is one of this board and rule set,
    of the ``layout`` its magic names (else -1)."""
    if len(header) != HEADER.size:
        return -1
    magic, held_pits, held_rules, seeds = HEADER.unpack(header)
    ours = (magic, held_pits, held_rules) == (layout, pits, rules)
    return int(seeds) if ours and seeds >= 0 else -1
