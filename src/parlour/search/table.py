"""The transposition table the searches share: two int arrays the kernels read and write.

An entry is packed in one int64: value (32 bits, offset), depth (8 bits), bound (2 bits),
best move (10 bits: a pit or a board point below ``NO_MOVE``, the largest board having
676), complete (1 bit: every line below reached an end within that depth, so the value
holds at any greater depth too) and generation (8 bits: which search wrote it).  The key
is stored XORed with the entry, so that an entry half-written by another search thread
reads as no entry.  Each key has a pair of slots: one kept for its depth while its search
lasts, one always replaced, so that deep results survive the flood of shallow ones.
"""

from __future__ import annotations

import numpy as np
from numba import njit

EXACT, LOWER, UPPER = 0, 1, 2
NO_MOVE = 1023
VALUE_OFFSET = 1 << 31
Table = tuple[np.ndarray, np.ndarray]
"""The keys and the entries."""
SLOT_BYTES = 16
"""A slot's memory: its key and its entry, 8 bytes each."""


def new_table(bits: int) -> Table:
    """An empty table of ``2 ** bits`` slots: its keys and its entries."""
    return np.zeros(1 << bits, dtype=np.uint64), np.zeros(1 << bits, dtype=np.int64)


@njit(cache=True, nogil=True)
def pack(
    value: int, depth: int, bound: int, move: int, complete: bool, generation: int
) -> np.int64:
    return np.int64(
        (value + VALUE_OFFSET)
        | (min(depth, 255) << 32)
        | (bound << 40)
        | (move << 42)
        | (complete << 52)
        | ((generation & 0xFF) << 53)
    )


@njit(cache=True, nogil=True)
def unpack(entry: int) -> tuple[int, int, int, int, int, int]:
    """``pack``'s fields back: value, depth, bound, move, complete, generation (mod 256)."""
    return (
        (entry & 0xFFFFFFFF) - VALUE_OFFSET,
        (entry >> 32) & 0xFF,
        (entry >> 40) & 3,
        (entry >> 42) & 0x3FF,
        (entry >> 52) & 1,
        (entry >> 53) & 0xFF,
    )


@njit(cache=True, nogil=True)
def probe(
    tt_keys: np.ndarray,
    tt_data: np.ndarray,
    key: np.uint64,
    depth: int,
    alpha: int,
    beta: int,
    strict: bool,
) -> tuple[int, int, int]:
    """Look ``key`` up for a node searched ``depth`` deep in the window (alpha, beta):
    (the table's move or NO_MOVE, 1 if the entry settles the node (2 if it does with an
    exact value) else 0, the stored value)."""
    found, entry = lookup(tt_keys, tt_data, key)
    if not found:
        return NO_MOVE, 0, 0
    value, stored_depth, bound, move, complete, _ = unpack(entry)
    # a deeper value is better, but only one of this very depth (or an exact one) keeps the
    # search's value that of plain minimax at this depth: ``strict`` asks for that
    usable = stored_depth == depth if strict else stored_depth >= depth
    if not (usable or (complete and stored_depth <= depth)):
        return move, 0, 0
    if bound == EXACT or (bound == LOWER and value >= beta) or (bound == UPPER and value <= alpha):
        return move, 1 + complete, value
    return move, 0, 0


@njit(cache=True, nogil=True)
def store(
    tt_keys: np.ndarray,
    tt_data: np.ndarray,
    key: np.uint64,
    depth: int,
    value: int,
    alpha: int,
    beta: int,
    move: int,
    complete: bool,
    generation: int,
) -> None:
    """Keep a node's ``value``, found in the window (alpha, beta), and its best move."""
    bound = UPPER if value <= alpha else (LOWER if value >= beta else EXACT)
    entry = pack(value, depth, bound, move, complete, generation)
    slot = pair(tt_keys, key)
    kept = tt_data[slot]
    _, kept_depth, _, _, _, kept_generation = unpack(kept)
    if (
        (tt_keys[slot] ^ np.uint64(kept)) != key
        and kept_depth > depth
        and kept_generation == generation & 0xFF
    ):
        slot += 1  # another node's deeper entry from this search: use the other slot
    tt_data[slot] = entry
    tt_keys[slot] = key ^ np.uint64(entry)


@njit(cache=True, nogil=True)
def pair(tt_keys: np.ndarray, key: np.uint64) -> np.int64:
    """The first of the two slots where ``key`` may stand."""
    return np.int64(key & np.uint64(tt_keys.shape[0] - 2))


@njit(cache=True, nogil=True)
def lookup(tt_keys: np.ndarray, tt_data: np.ndarray, key: np.uint64) -> tuple[bool, int]:
    """The table's entry for ``key``, if it holds one."""
    slot = pair(tt_keys, key)
    for s in range(slot, slot + 2):
        entry = tt_data[s]
        if (tt_keys[s] ^ np.uint64(entry)) == key:
            return True, entry
    return False, tt_data[slot]
