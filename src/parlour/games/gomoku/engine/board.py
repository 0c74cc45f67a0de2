"""The searches' working board: what they share, the stones' keys and the five points.

The board is a copy of the rules' (N, N) array; ``near`` counts the stones within two
points of each point, the candidate moves being the empty points with company.  A point
is one int, ``row * N + col``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, types

from parlour.games.gomoku.game import DC, DR, EMPTY, is_five, makes_five, run_through
from parlour.rng import mix

WIN = 1_000_000
"""A won position's value, less the plies it takes (so that sooner wins are preferred)."""
UNSEARCHED = -WIN - 1
"""Below any value a search returns: the open end of a full window, and the value of a
root move the stop cut short or never reached (``alphabeta.search_root``)."""
MAX_PLY = 64

NODES, VCF_NODES, HINT, GENERATION, LEAF_VCF, LATE, PRUNE, NODE_LIMIT = range(8)
"""The ``stats`` array: main-search nodes, threat-search nodes, the point a threat search
tries first at its root (-1: none), a win found before being the likeliest again, the
table generation its stores carry (the stones on the board: one a move, so that a move's
deep entries give way to the next move's), three settings of the main search: the nodes
of the VCF it looks for at a leaf (0: none), the moves of a node searched at full depth
before the quiet ones are searched a ply shallower first (0: none) and the moves of a
node near the horizon searched before its quiet ones are left out (``levels.PRUNE``;
0: none), and the count of both kinds of nodes at which the main search stops as if its
clock had (0: none; a search by nodes, the same on any machine)."""


def new_stats(
    generation: int, leaf_vcf: int, late: int, hint: int = -1, prune: int = 0
) -> np.ndarray:
    """A fresh ``stats`` array: no nodes yet, and the settings given."""
    return np.array([0, 0, hint, generation, leaf_vcf, late, prune, 0], dtype=np.int64)


class Work(NamedTuple):
    """What a search works on besides its own arguments, passed to the kernels as one
    argument: numba compiles a NamedTuple of arrays into plain fields, so grouping them
    costs nothing at run time."""

    board: np.ndarray
    """The working copy of the board, changed and restored as moves are tried."""
    near: np.ndarray
    """The stones within two points of each point, kept with the board by ``place``."""
    exact: bool
    """The five rule: exactly five stones win (an overline does not)."""
    stop: np.ndarray
    """The stop flag the kernels poll."""
    stats: np.ndarray
    """The counters and settings the driver reads and writes (``NODES`` ...)."""
    keys: np.ndarray
    """The transposition table's keys (``parlour.search.table``)."""
    data: np.ndarray
    """Its entries."""


# The recursive kernels get explicit signatures: numba would otherwise add versions for
# literal arguments, and a cached recursive function with several versions crashes on load.
# The kernels the clock runs over get them too, so that they compile at import, not on it.
BOARD = types.int8[:, ::1]
NEAR = types.int16[:, ::1]
INT = types.int64
WORK = types.NamedTuple(  # type: ignore[no-untyped-call, unused-ignore]
    (BOARD, NEAR, types.boolean, types.uint8[::1], INT[::1], types.uint64[::1], INT[::1]),
    Work,
)
"""``Work``'s numba type, for the signatures."""


@njit(cache=True, nogil=True)
def place(board: np.ndarray, near: np.ndarray, point: int, stone: int) -> None:
    """Put ``stone`` on ``point`` (stone > 0), or lift it (stone == 0), keeping ``near``."""
    n = board.shape[0]
    row, col = divmod(point, n)
    step = 1 if stone != EMPTY else -1
    board[row, col] = stone
    for r in range(max(0, row - 2), min(n, row + 3)):
        for c in range(max(0, col - 2), min(n, col + 3)):
            near[r, c] += step


@njit(cache=True, nogil=True)
def nearness(board: np.ndarray) -> np.ndarray:
    """The ``near`` array of a board: stones within two points of each point."""
    n = board.shape[0]
    near = np.zeros((n, n), dtype=np.int16)
    for r in range(n):
        for c in range(n):
            if board[r, c] != EMPTY:
                for rr in range(max(0, r - 2), min(n, r + 3)):
                    for cc in range(max(0, c - 2), min(n, c + 3)):
                        near[rr, cc] += 1
    return near


KIND_SHIFT = np.uint64(61)
STONE_BITS = np.uint64((1 << 61) - 1)
"""A key's top three bits say what kind of entry it is, the other 61 hash the stones: a
stone's part has the top bits clear, so every board's key (the XOR of its stones' parts)
has them clear too, and each threat search's tag sets its own kind there.  Keys of two
kinds can then never meet, whatever the stones (a tag that was a hash of a small number
could equal a stone's part, and a threat search read the main search's entry of the
board with one stone more as a proven win)."""


@njit(cache=True, nogil=True)
def stone_key(point: int, stone: int) -> np.uint64:
    """A stone's part of a position's key (the XOR of its stones' parts: the side to move
    follows from the stones); its kind bits are clear (the main search's kind)."""
    return mix(np.uint64(point * 4 + stone)) & STONE_BITS


@njit(cache=True, nogil=True)
def board_key(board: np.ndarray) -> np.uint64:
    """The key of a whole board, from which the searches keep it move by move."""
    n = board.shape[0]
    key = np.uint64(0)
    for p in range(n * n):
        if board[p // n, p % n] != EMPTY:
            key ^= stone_key(p, board[p // n, p % n])
    return key


@njit(cache=True, nogil=True)
def five_points_near(
    board: np.ndarray, point: int, stone: int, exact: bool, out: np.ndarray
) -> int:
    """The empty points on the four lines through ``point``, within four of it, where
    ``stone`` completes a five; stored in ``out``, their number returned (at most 8)."""
    n = board.shape[0]
    row, col = divmod(point, n)
    found = 0
    for d in range(4):
        for t in range(-4, 5):
            r = row + t * DR[d]
            c = col + t * DC[d]
            if t == 0 or not (0 <= r < n and 0 <= c < n) or board[r, c] != EMPTY:
                continue
            if is_five(run_through(board, r, c, d, stone), exact):
                q = r * n + c
                seen = False
                for i in range(found):
                    seen = seen or out[i] == q
                if not seen and found < out.shape[0]:
                    out[found] = q
                    found += 1
    return found


@njit(cache=True, nogil=True)
def window_fills(board: np.ndarray, point: int, stone: int) -> int:
    """Which fills the windows of five through ``point`` have: bit k is set if one of
    them holds k of ``stone``'s stones and none of the opponent's.  One sliding pass
    along each line: a node asks it before the costlier ``five_points_near`` (which
    finds a five point only in a window of four) and ``three_defences`` (only in one of
    three), and at most nodes the last move has made neither."""
    n = board.shape[0]
    row, col = divmod(point, n)
    fills = 0
    for d in range(4):
        mine = 0
        theirs = 0
        off = 0
        for t in range(-4, 5):
            r = row + t * DR[d]
            c = col + t * DC[d]
            if not (0 <= r < n and 0 <= c < n):
                off += 1
            elif board[r, c] == stone:
                mine += 1
            elif board[r, c] != EMPTY:
                theirs += 1
            if t >= 1:  # the point leaving the window that ends at t
                r = row + (t - 5) * DR[d]
                c = col + (t - 5) * DC[d]
                if not (0 <= r < n and 0 <= c < n):
                    off -= 1
                elif board[r, c] == stone:
                    mine -= 1
                elif board[r, c] != EMPTY:
                    theirs -= 1
            if t >= 0 and off == 0 and theirs == 0:
                fills |= 1 << mine
    return fills


@njit(cache=True, nogil=True)
def five_points(board: np.ndarray, stone: int, exact: bool) -> np.ndarray:
    """Every empty point where ``stone`` completes a five (a whole-board scan)."""
    n = board.shape[0]
    found = []
    for r in range(n):
        for c in range(n):
            if board[r, c] == EMPTY and makes_five(board, r, c, stone, exact):
                found.append(r * n + c)
    return np.array(found, dtype=np.int64)
