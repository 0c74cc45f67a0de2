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

The table is built at first use by retrograde analysis: every move either takes seeds off
the board (into a store, or by a capture) or keeps them in the mover's own row, closer to
its store.  So positions taken in order of seeds on the board, then of how far their
seeds have to go, come after all the positions their moves lead to, and each is one
maximum over its moves of values already known.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from math import comb

import numpy as np
from numba import njit

from parlour.games import sowing

MAX_ENTRIES = 1 << 24
"""The largest table built: 16.8M positions, two bytes each (one a side to move): on six
pits a side, every position of up to 14 seeds in the pits, built in a few seconds."""
UNKNOWN = -128
"""A value not yet computed (a position's gain is at most the seeds on the board)."""


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
def _order(count: int, pits: int, choose: np.ndarray, seeds: int) -> np.ndarray:
    """The positions in the order of building: by seeds in the pits, then by distance (a
    counting sort: the keys are few)."""
    span = seeds * pits + 1
    keys = np.empty(count, dtype=np.int64)
    starts = np.zeros((seeds + 1) * span + 1, dtype=np.int64)
    pos = np.zeros(2 * pits + 3, dtype=np.int64)
    for number in range(count):
        _unindex(number, pits, choose, pos)
        keys[number] = pos[: 2 * pits + 1].sum() * span + _distance(pos, pits)
        starts[keys[number] + 1] += 1
    starts = np.cumsum(starts)
    order = np.empty(count, dtype=np.int64)
    for number in range(count):
        order[starts[keys[number]]] = number
        starts[keys[number]] += 1
    return order


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
        return pos[: 2 * pits + 1].sum() - 2 * theirs
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


@cache
def table(pits: int, rules: int, seeds: int) -> EndgameTable:
    """The endgame table of ``pits`` pits a side under ``rules``, to ``seeds`` seeds in
    the pits (built once a process)."""
    count = comb(seeds + 2 * pits, 2 * pits)
    choose = binomials(seeds + 2 * pits, 2 * pits)
    values = np.full((count, 2), UNKNOWN, dtype=np.int8)
    order = _order(count, pits, choose, seeds)
    if not _fill(order, pits, rules, choose, values):
        raise ValueError(f"no endgame table for sowing rules {rules}: a move left seeds behind")
    return EndgameTable(seeds, values, choose)
