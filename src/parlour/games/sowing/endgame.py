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
too, once they have checked that they give the same values.
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
from parlour.games.sowing import progress as display

MAX_ENTRIES = 1 << 24
"""The largest table built unasked: 16.8M positions, a byte each: on six pits a side, every
position of up to 14 seeds in the pits, built in a few seconds."""
LARGEST = 12 << 30
"""The largest table built on request (``parlour solve --max-seeds``): 12,885M positions, a
byte each; a build holds a byte more for each position of the count it builds (its key)
and, as far as its memory allows (``memory_needed``), four for its place in the order of
building (a count's positions numbered in 32 bits).  On six pits a side that is 30 seeds
(11,058M positions, 11.1 GB on disk, built within 14.2 GB; 29 seeds within 10.2 GB)."""
UNKNOWN = -128
"""A value not yet computed (a position's gain is at most the seeds on the board)."""
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
LAYOUT = 3
"""The version of the table files' layout (header, checks, numbering, a byte a position):
a change of it starts a new folder of tables.  Layout 2 held two values a position, one
for each side to move, numbered from player 0's row: its first column is layout 3
(``_adopt``)."""
MAGIC = f"parlour endgame{LAYOUT}".encode()
MAGICS = (MAGIC, b"parlour endgame2")
"""The layouts of table files read: this one, and layout 2 (``_adopt``)."""
HEADER = struct.Struct("<16s3q")
"""A table file's header: ``MAGIC``, pits, rules and the seeds in the pits it goes to;
then the CRC-32 of the values of each seed count (4 bytes each, from 0 seeds); then the
values, a byte a position, in the numbering's order."""
CRC = np.dtype("<u4")
AGREEMENT = 1 << 20
"""The positions of the table built to check that the code here gives a table file's
values (``_agrees``): on six pits a side, up to 10 seeds, a third of a second."""


@dataclass(frozen=True)
class EndgameTable:
    """The values of every position with at most ``seeds`` seeds in its pits:
    ``values[index(pos, choose)]`` for its side to move, and the binomial coefficients
    ``choose[n, k]`` that number the positions."""

    seeds: int
    values: np.ndarray
    choose: np.ndarray


def binomials(n: int, k: int) -> np.ndarray:
    """C(i, j) for i <= n and j <= k, as int64."""
    return np.array([[comb(i, j) for j in range(k + 1)] for i in range(n + 1)], dtype=np.int64)


def positions(pits: int, seeds: int) -> int:
    """The positions of ``pits`` pits a side with at most ``seeds`` seeds in the pits (none
    for a negative count): the table's length."""
    return comb(seeds + 2 * pits, 2 * pits) if seeds >= 0 else 0


def check_size(pits: int, seeds: int) -> None:
    """ValueError, naming the count, if the table of ``pits`` pits a side to ``seeds`` seeds
    holds more than ``LARGEST`` positions."""
    count = positions(pits, seeds)
    largest = max(seeds_within(pits, LARGEST), 0)
    while positions(pits, largest) - positions(pits, largest - 1) >= 1 << 32:
        largest -= 1  # a count's positions are numbered in 32 bits
    if seeds > largest:
        raise ValueError(
            f"an endgame table of {pits} pits a side to {seeds} seeds holds {count:,} positions;"
            f" at most {min(LARGEST, positions(pits, largest)):,} are built"
            f" (up to {largest} seeds)"
        )


def seeds_within(pits: int, entries: int) -> int:
    """The most seeds in the pits whose table of ``pits`` pits a side has at most
    ``entries`` positions."""
    seeds = 0
    while positions(pits, seeds + 1) <= entries:
        seeds += 1
    return seeds


@njit(cache=True, nogil=True, inline="always")
def index(pos: np.ndarray, choose: np.ndarray) -> int:
    """The number of the pits of ``pos`` as its side to move sees them, its own row first
    (stores ignored): a position and its mirror image share a number."""
    pits = sowing.pit_count(pos)
    own = 0 if pos[2 * pits + 2] == 0 else pits + 1
    other = pits + 1 - own
    total, at = 0, 0
    for i in range(1, 2 * pits + 1):
        total += pos[own + i - 1 if i <= pits else other + i - 1 - pits]
        at += choose[total + i - 1, i]
    return at


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
        if not sowing.sowable(pos, column):
            continue
        child[:] = pos
        over = sowing.apply_move(child, column, rules) & sowing.GAME_OVER
        gain = child[store] - child[sowing.store_index(1 - side, pits)]
        if not over:
            later = values[index(child, choose)]
            if later == UNKNOWN:
                return UNKNOWN
            gain += later if child[2 * pits + 2] == side else -later
        best = max(best, gain)
    return best


@njit(cache=True, nogil=True)
def _fill(
    start: int,
    stop: int,
    order: np.ndarray,
    first: int,
    pits: int,
    rules: int,
    choose: np.ndarray,
    values: np.ndarray,
) -> bool:
    """Compute the values of the positions ``order[start:stop]`` (offsets from the
    position numbered ``first``), player 0 to move; False if one needed a value not yet
    known (rules for which the order does not hold)."""
    pos = np.zeros(2 * pits + 3, dtype=np.int64)
    child = np.zeros(2 * pits + 3, dtype=np.int64)
    for k in range(start, stop):
        number = first + int(order[k])
        _unindex(number, pits, choose, pos)
        values[number] = _gain(pos, child, rules, choose, values)
        if values[number] == UNKNOWN:
            return False
    return True


def build(
    pits: int,
    rules: int,
    seeds: int,
    report: Callable[[float], None],
    known: np.ndarray | None = None,
    counted: Callable[[np.ndarray, int], None] = lambda values, seeds: None,
    threads: int = BUILD_THREADS,
    memory: int | None = None,
) -> np.ndarray:
    """The values of the endgame table of ``pits`` pits a side under ``rules``, to
    ``seeds`` seeds in the pits, by retrograde analysis, seed count by seed count on from
    ``known`` (a smaller table's values: the prefix), on ``threads`` threads, holding at
    most ``memory`` bytes (None: no limit; ``check_memory``); ``counted`` hears the
    values to n seeds as each count n is done, and ``report`` the share of the build done
    after each of its chunks."""
    check_memory(pits, seeds, memory)
    values = np.full(positions(pits, seeds), UNKNOWN, dtype=np.int8)
    choose = binomials(seeds + 2 * pits, 2 * pits)
    first = 0
    if known is not None:
        values[: len(known)] = known
        first = seeds_within(pits, len(known)) + 1
    begun, todo = positions(pits, first - 1), len(values) - positions(pits, first - 1)
    with _threads(threads) as pool:
        for n in range(first, seeds + 1):
            low, high = positions(pits, n - 1), positions(pits, n)

            def share(done: float, low: int = low, high: int = high) -> None:
                """Report that a share ``done`` of the count is built."""
                report((low - begun + done * (high - low)) / todo)

            piece = _piece(pits, seeds, n, memory)
            _build_count(pool, pits, rules, n, choose, values, share, piece)
            counted(values[:high], n)
    return values


ORDER_BYTES = np.dtype(np.uint32).itemsize
"""The bytes of a place in a count's building order (a position's offset in its count)."""


def memory_needed(pits: int, seeds: int) -> int:
    """The least memory in bytes a build of the table of ``pits`` pits a side to ``seeds``
    seeds holds: its values (a byte each), the keys of its largest count and a chunk of
    that count's building order (which is built piece by piece within the memory
    given: ``_piece``)."""
    largest = positions(pits, seeds) - positions(pits, seeds - 1)
    keys = key_type(pits, seeds).itemsize * largest
    return positions(pits, seeds) + keys + ORDER_BYTES * min(CHUNK, largest)


def check_memory(pits: int, seeds: int, memory: int | None) -> None:
    """ValueError, naming the least it needs, if the table of ``pits`` pits a side to
    ``seeds`` seeds cannot be built within ``memory`` bytes (None: no limit)."""
    needed = memory_needed(pits, seeds)
    if memory is not None and memory < needed:
        raise ValueError(
            f"an endgame table of {pits} pits a side to {seeds} seeds needs at least"
            f" {-(-needed // (1 << 20)):,} MB to build (its values, a byte a position, and its"
            f" largest count's keys); {memory // (1 << 20):,} MB given"
        )


def _piece(pits: int, seeds: int, count: int, memory: int | None) -> int:
    """The places of the building order of the positions of ``count`` seeds held at once,
    in a build of the table to ``seeds`` seeds within ``memory`` bytes: the whole count
    where they fit (or with no limit), else what is left beside the values and the
    count's keys (at least a chunk)."""
    size = positions(pits, count) - positions(pits, count - 1)
    if memory is None:
        return size
    held = positions(pits, seeds) + key_type(pits, count).itemsize * size
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
    values: np.ndarray,
    share: Callable[[float], None],
    piece: int,
) -> None:
    """The values of the positions of ``seeds`` seeds in the pits, into ``values``: their
    distances from the stores (keys), then, a ``piece`` of places at a time, their order
    by distance and the values of the positions there, those of each distance (which
    need none of each other's values) on the pool's threads; ``share(done)`` hears the
    share of the count done.  Pieces smaller than the count cost a pass over its keys
    each, but hold four bytes a position fewer."""
    low, high = positions(pits, seeds - 1), positions(pits, seeds)
    size = high - low
    keys = np.empty(size, dtype=key_type(pits, seeds))
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
            for end, whole in _spread(pool, _fill, chunks, order, low, pits, rules, choose, values):
                if not whole:
                    raise ValueError(
                        f"no endgame table for sowing rules {rules}: a move left seeds behind"
                    )
                share(begun + ordered + STEPS[2] * end / size)


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
    values = _load(pits, rules, seeds)
    if values is None or len(values) < positions(pits, seeds):
        resumed = "" if values is None else f", from {seeds_within(pits, len(values)) + 1}"
        shown = progress or display.shown
        with shown(f"endgame table: {pits} pits a side, up to {seeds} seeds{resumed}") as report:
            saved = functools.partial(save, pits=pits, rules=rules)
            values = build(pits, rules, seeds, report, values, saved, memory=memory)
    _TABLES[key] = EndgameTable(seeds, values, binomials(seeds + 2 * pits, 2 * pits))
    return _TABLES[key]


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
    code's): moved if of this layout, its first column copied if of layout 2 (once its
    own checksums hold: the copy gets new ones), the old file then removed (twice the
    size of the copy, and of no use to this version).  It is then checked like any file
    read (``_load``)."""
    found = []
    for other in path.parent.parent.glob(f"*/{path.name}"):
        with suppress(OSError), other.open("rb") as file:
            header = file.read(HEADER.size)
            found += [(_header_seeds(header, pits, rules, m), m == MAGIC, other) for m in MAGICS]
    held, current, best = max(found, default=(-1, False, path))
    with suppress(OSError, ValueError):  # another process may have moved it first
        if held >= 0 and current:
            os.replace(best, path)
        elif held >= 0:
            both = np.memmap(best, np.int8, "r", _values_start(held), (positions(pits, held), 2))
            checks = np.fromfile(best, CRC, held + 1, offset=HEADER.size)
            if np.array_equal(_checks(both, pits), checks):
                values = np.ascontiguousarray(both[:, 0])
                header = HEADER.pack(MAGIC, pits, rules, held)
                cache.write_whole(path, header, _checks(values, pits).data, values.data)
                best.unlink()


def _values_start(seeds: int) -> int:
    """Where a table file's values begin, after its header and the checksums of its
    ``seeds + 1`` counts (of every layout)."""
    return HEADER.size + CRC.itemsize * (seeds + 1)


def _agrees(values: np.ndarray, pits: int, rules: int) -> bool:
    """Whether the code here gives the values of a table built by other code: a table built
    now to ``AGREEMENT`` positions (a fraction of a second) equals its prefix.  A change of
    the rules or of the numbering shows in the smallest counts."""
    seeds = min(seeds_within(pits, AGREEMENT), seeds_within(pits, len(values)))
    return bool(
        np.array_equal(
            build(pits, rules, seeds, lambda done: None), values[: positions(pits, seeds)]
        )
    )


def _checks(values: np.ndarray, pits: int) -> np.ndarray:
    """The CRC-32 of the values of each seed count of ``values`` (a table's)."""
    seeds = seeds_within(pits, len(values))
    return np.array(
        [
            zlib.crc32(values[positions(pits, n - 1) : positions(pits, n)].data)
            for n in range(seeds + 1)
        ],
        dtype=CRC,
    )


def save(values: np.ndarray, seeds: int, pits: int, rules: int) -> None:
    """Write the table to ``seeds`` seeds, whole or not at all (``cache.write_whole``),
    stamped as the values of the code here; without a writable cache folder, the next
    process builds it again."""
    with suppress(OSError):
        path = _file(pits, rules)
        cache.write_whole(
            path, HEADER.pack(MAGIC, pits, rules, seeds), _checks(values, pits).data, values.data
        )
        _stamp(path).write_text(f"{_signature(path)} -1 {_code()}")


def _load(pits: int, rules: int, seeds: int) -> np.ndarray | None:
    """The table's values to ``seeds`` seeds (or to as many as its file holds, if fewer)
    mapped from its file, or None if there is no file or it is not to be trusted: its
    header must name this board and rule set, the file's size fit the seeds it names, the
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
        if len(checks) != held + 1 or path.stat().st_size != start + positions(pits, held):
            return None
        read, (checked, code), here = min(seeds, held), _checked(path), _code()
        mapped = max(read, min(held, seeds_within(pits, AGREEMENT)))  # what the checks read
        values = np.memmap(path, np.int8, "c", start, positions(pits, mapped))
        if checked < mapped and not np.array_equal(_checks(values, pits), checks[: mapped + 1]):
            return None
        if code != here and not _agrees(values, pits, rules):
            return None
        if (checked, code) != (max(checked, mapped), here):
            _stamp(path).write_text(f"{_signature(path)} {max(checked, mapped)} {here}")
    except OSError:
        return None
    return values[: positions(pits, read)]


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
