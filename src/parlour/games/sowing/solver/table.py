"""The solver's transposition table: bounds of a position's gain, in the layout of
``parlour.search.table`` (its keys and entries, each key XORed with its entry so that a
slot half written by another search thread matches no key, two slots a key).

An entry (one int64) holds a lower and an upper bound (16 bits each, offset), the best
move (4 bits), the work its search cost (6 bits: log2 of its nodes) and the depth it was
searched to (PROVEN: to the end of the game).  A pair's first slot is kept for the entry
that cost the most work.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from parlour.search.table import SLOT_BYTES, Table, pair

NO_MOVE = 15
OFFSET = 1 << 15
INF = OFFSET - 1
"""Bounds are kept in 16 bits each, offset: a gain is at most the seeds in play, and INF
stands for no bound."""
WORK_BITS = 6
PROVEN = 255
"""The depth of an entry whose bounds hold to the end of the game."""


def bits_within(megabytes: int) -> int:
    """The most bits of a transposition table whose slots fit in ``megabytes``."""
    return int((megabytes * (1 << 20) // SLOT_BYTES).bit_length() - 1)


def interleaved(bits: int) -> Table:
    """An empty table of ``2 ** bits`` slots whose keys and entries are views of one
    array, each slot's key beside its entry, so that a probe reads one cache line (the
    solver's probes miss the cache far more often than the engine's)."""
    slots = np.zeros((1 << bits, 2), dtype=np.uint64)
    return slots[:, 0], slots[:, 1].view(np.int64)


@njit(cache=True, nogil=True, inline="always")
def _pack(lower: int, upper: int, move: int, work: int, depth: int) -> np.int64:
    return np.int64(
        (lower + OFFSET) | ((upper + OFFSET) << 16) | (move << 32) | (work << 36) | (depth << 42)
    )


@njit(cache=True, nogil=True, inline="always")
def unpack(entry: np.int64) -> tuple[int, int, int, int, int]:
    """An entry's lower and upper bounds, move, work and depth."""
    e = np.int64(entry)
    return (
        int(e & 0xFFFF) - OFFSET,
        int((e >> 16) & 0xFFFF) - OFFSET,
        int((e >> 32) & 0xF),
        int((e >> 36) & 0x3F),
        int(e >> 42),
    )


@njit(cache=True, nogil=True)
def lookup(
    keys: np.ndarray, data: np.ndarray, key: np.uint64, depth: int
) -> tuple[int, int, int, bool]:
    """The bounds (lower, upper) kept for ``key`` from a search at least ``depth`` deep
    (else none: -INF, INF), its best move (NO_MOVE if none) and whether the bounds are
    proven."""
    slot = pair(keys, key)
    for s in range(slot, slot + 2):
        entry = data[s]
        if keys[s] ^ np.uint64(entry) == key:
            lower, upper, move, _, deep = unpack(entry)
            if deep >= depth or deep == PROVEN:
                return lower, upper, move, deep == PROVEN
            return -INF, INF, move, False
    return -INF, INF, NO_MOVE, False


@njit(cache=True, nogil=True)
def store(
    keys: np.ndarray,
    data: np.ndarray,
    key: np.uint64,
    lower: int,
    upper: int,
    move: int,
    work: int,
    depth: int,
) -> None:
    """Keep a node's bounds from a search ``depth`` deep (PROVEN: to the end): a deeper
    entry for the same key stands, one as deep is tightened, a shallower one replaced.  A
    new key takes the first slot if it cost at least as much work as its holder."""
    slot = pair(keys, key)
    for s in range(slot, slot + 2):
        entry = data[s]
        if keys[s] ^ np.uint64(entry) == key:
            old_lower, old_upper, _, old_work, old_depth = unpack(entry)
            if old_depth > depth:
                return
            if old_depth == depth:
                lower, upper = max(lower, old_lower), min(upper, old_upper)
            _write(keys, data, s, key, _pack(lower, upper, move, max(work, old_work), depth))
            return
    if work < unpack(data[slot])[3]:
        slot += 1
    _write(keys, data, int(slot), key, _pack(lower, upper, move, work, depth))


@njit(cache=True, nogil=True, inline="always")
def _write(keys: np.ndarray, data: np.ndarray, slot: int, key: np.uint64, entry: np.int64) -> None:
    data[slot] = entry
    keys[slot] = key ^ np.uint64(entry)


@njit(cache=True, nogil=True, inline="always")
def work_of(nodes: int) -> int:
    """The work field of a search of ``nodes`` nodes: their log2, capped to its bits."""
    work = 0
    while nodes > 1 and work < (1 << WORK_BITS) - 1:
        nodes >>= 1
        work += 1
    return work
