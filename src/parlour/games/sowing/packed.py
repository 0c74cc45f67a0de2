"""Endgame tables' values in fewer bits: the compact form of a table, for storage.

Every seed in the pits ends in a store, so of a position with n seeds in its pits the
side to move's gain over the other, v, is its seeds to come less the other's, which add
up to n: v = 2m - n, with m (its seeds to come) in 0..n.  So m alone holds v, in as many
bits as n has: four a position up to 15 seeds (half a byte), five up to 31.  A table
packed holds each seed count's m in that many bits, the counts one after the other, each
from a whole byte.  On six pits a side the 28-seed table (5.6 GB at a byte a position)
packs into 3.5 GB, the 30-seed one (11.1 GB) into 6.9 GB.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from parlour.games.sowing import endgame

SLICE = 1 << 23
"""Positions packed or unpacked at a time (a multiple of 8, so that each slice begins on
a whole byte): the work's memory stays some tens of megabytes, whatever the table."""


def width(seeds: int) -> int:
    """The bits of a position's seeds to come, with ``seeds`` in the pits (at least one)."""
    return max(1, seeds.bit_length())


def packed_bytes(pits: int, seeds: int) -> int:
    """The bytes of the packed table of ``pits`` pits a side to ``seeds`` seeds."""
    return sum(-(-(high - low) * width(n) // 8) for n, low, high in _counts(pits, seeds))


def pack(values: np.ndarray, pits: int) -> np.ndarray:
    """The values of a table of ``pits`` pits a side (as ``endgame.build`` gives them),
    packed; ValueError if one is not a value a position can have (out of its count's
    range, or of the wrong parity)."""
    parts = []
    for n, low, high in _counts(pits, endgame.seeds_within(pits, len(values))):
        places = np.arange(width(n), dtype=np.uint64)
        for start in range(low, high, SLICE):
            gains = values[start : min(start + SLICE, high)].astype(np.int64) + n
            if gains.min() < 0 or gains.max() > 2 * n or (gains & 1).any():
                raise ValueError(f"the values of {n} seeds in the pits are not gains of {n} seeds")
            bits = ((gains >> 1).astype(np.uint64)[:, None] >> places) & np.uint64(1)
            parts.append(np.packbits(bits.astype(np.uint8).ravel(), bitorder="little"))
    return np.concatenate(parts)


def unpack(packed: np.ndarray, pits: int, seeds: int) -> np.ndarray:
    """The values of the table of ``pits`` pits a side to ``seeds`` seeds, from ``packed``
    (:func:`pack`'s); ValueError if its length is not that table's."""
    if len(packed) != packed_bytes(pits, seeds):
        raise ValueError(
            f"{len(packed):,} bytes are no packed table of {pits} pits a side to {seeds} seeds"
            f" ({packed_bytes(pits, seeds):,} bytes)"
        )
    values = np.empty(endgame.positions(pits, seeds), dtype=np.int8)
    at = 0
    for n, low, high in _counts(pits, seeds):
        bits = width(n)
        places = np.uint64(1) << np.arange(bits, dtype=np.uint64)
        for start in range(low, high, SLICE):
            stop = min(start + SLICE, high)
            size = -(-(stop - start) * bits // 8)
            flat = np.unpackbits(
                packed[at : at + size], count=(stop - start) * bits, bitorder="little"
            )
            at += size
            mine = flat.reshape(stop - start, bits).astype(np.uint64) @ places
            values[start:stop] = 2 * mine.astype(np.int64) - n
    return values


def _counts(pits: int, seeds: int) -> Iterator[tuple[int, int, int]]:
    """Each seed count to ``seeds``, with the first of its positions and the end."""
    for n in range(seeds + 1):
        yield n, endgame.positions(pits, n - 1), endgame.positions(pits, n)
