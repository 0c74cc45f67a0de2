"""Endgame tables' values in a few bits a position: the form a table takes in memory and
on disk.

Every seed in the pits ends in a store, so of a position with n seeds in its pits the
side to move's gain over the other, v, is its seeds to come less the other's, which add
up to n: v = 2m - n, with m (its seeds to come) in 0..n.  So a table holds m alone, in a
width of bits fixed for a board (``width``: enough for the most seeds any table of the
board holds), all ones standing for a position not yet computed: five bits a position on
six pits a side (up to 30 seeds), where a byte held v, so 5/8 of the memory and the disk.
One width a board, whatever the table's seeds, so that a bigger table grows from a
smaller one's bytes: position i's bits begin at bit ``i * width``, low bits first, and a
read takes two bytes and a shift (a table ends with one spare byte for the last read).
Writes are not atomic: two threads never write positions sharing a byte.
"""

from __future__ import annotations

import numpy as np
from numba import njit

MOST_WIDTH = 8
"""The widest a position gets: a read takes two bytes from where its bits begin."""


def width(most: int) -> int:
    """The bits a position of a table of up to ``most`` seeds in the pits takes: room for
    its seeds to come, 0..most, and all ones."""
    bits = (most + 1).bit_length()
    if bits > MOST_WIDTH:
        raise ValueError(f"tables of {most} seeds in the pits need {bits} bits a position")
    return bits


def size(positions: int, bits: int) -> int:
    """The bytes of a table of ``positions`` positions, ``bits`` each, with its spare byte."""
    return (positions * bits + 7) // 8 + 1


def empty(positions: int, bits: int) -> np.ndarray:
    """A table of ``positions`` positions, ``bits`` each, none computed (all ones)."""
    return np.full(size(positions, bits), 0xFF, dtype=np.uint8)


@njit(cache=True, nogil=True, inline="always")
def read(table: np.ndarray, bits: int, i: int) -> int:
    """Position ``i``'s seeds to come (all ones: not computed)."""
    at = i * bits
    byte = at >> 3
    word = np.int64(table[byte]) | (np.int64(table[byte + 1]) << 8)
    return int((word >> (at & 7)) & ((1 << bits) - 1))


@njit(cache=True, nogil=True, inline="always")
def write(table: np.ndarray, bits: int, i: int, mine: int) -> None:
    """Set position ``i``'s seeds to come to ``mine``."""
    at = i * bits
    byte, shift = at >> 3, at & 7
    word = np.int64(table[byte]) | (np.int64(table[byte + 1]) << 8)
    word = (word & ~(((1 << bits) - 1) << shift)) | (np.int64(mine) << shift)
    table[byte] = word & 0xFF
    table[byte + 1] = (word >> 8) & 0xFF


@njit(cache=True, nogil=True)
def put(table: np.ndarray, bits: int, first: int, mine: np.ndarray) -> None:
    """Write the seeds to come ``mine`` at the positions from ``first`` on."""
    for j in range(len(mine)):
        write(table, bits, first + j, mine[j])


@njit(cache=True, nogil=True)
def store(table: np.ndarray, bits: int, first: int, seeds: int, values: np.ndarray) -> bool:
    """Write ``values`` (gains, as ``endgame`` computes them, of positions of ``seeds``
    seeds in the pits) at the positions from ``first`` on; False, leaving the rest
    unwritten, at one that is not a gain of that many seeds (out of range, or of the wrong
    parity)."""
    for j in range(len(values)):
        doubled = int(values[j]) + seeds
        if doubled < 0 or doubled > 2 * seeds or doubled & 1:
            return False
        write(table, bits, first + j, doubled >> 1)
    return True


@njit(cache=True, nogil=True)
def load(table: np.ndarray, bits: int, first: int, seeds: int, values: np.ndarray) -> None:
    """The gains of the positions from ``first`` on (of ``seeds`` seeds in the pits), into
    ``values`` (int64)."""
    for j in range(len(values)):
        values[j] = 2 * read(table, bits, first + j) - seeds
