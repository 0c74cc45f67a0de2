"""How the searches value a position and order their moves: the windows of five each side
can still fill, weighed by how full.  Level 1 (``greedy``) plays by them alone."""

from __future__ import annotations

import numpy as np
from numba import njit

from parlour.games.gomoku import DC, DR, EMPTY, window_counts
from parlour.search.gomoku.board import BOARD, INT, NEAR, place

WEIGHT = np.array([0, 1, 10, 100, 1_000, 100_000], dtype=np.int64)
"""The value of a window of five holding k of one side's stones and no other stone."""
MOVER_WEIGHT = 2
"""At the horizon the side to move's windows count twice: it moves first, so its threes
become fours, and its fours fives, before the other side's can (it won more games against
gomoku-terminal than 1, 1.5 or 3: benchmarks/results/gomoku_vs_peers.jsonl)."""
THREAT = np.array([0, 1, 10, 100, 10_000, 1_000_000], dtype=np.int64)
"""Level 1's weights for the opponent's windows after its move: a four-window of the side
about to move is as good as a five."""


@njit(cache=True, nogil=True)
def gains(board: np.ndarray, point: int, stone: int) -> tuple[int, int, int]:
    """How much a stone on the empty ``point`` changes its owner's windows' value minus
    the other side's (its own windows grow, the other's windows through it die), for
    ``stone`` and for the opponent, and the value of the other's windows it kills (what
    the opponent's own windows lose).  One pass along each line: the nine points around
    ``point`` and the five windows of five among them, counted as they slide."""
    n = board.shape[0]
    row, col = divmod(point, n)
    mine_gain = 0
    theirs_gain = 0
    killed = 0
    for d in range(4):
        mine = 0
        theirs = 0
        off = 0  # points of the window off the board
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
            if t < 0 or off > 0:
                continue
            if theirs == 0:
                mine_gain += WEIGHT[mine + 1] - WEIGHT[mine]
            elif mine == 0:
                mine_gain += WEIGHT[theirs]
                killed += WEIGHT[theirs]
            if mine == 0:
                theirs_gain += WEIGHT[theirs + 1] - WEIGHT[theirs]
            elif theirs == 0:
                theirs_gain += WEIGHT[mine]
    return mine_gain, theirs_gain, killed


@njit(cache=True, nogil=True)
def windows_value(board: np.ndarray, stone: int) -> int:
    """The value of ``stone``'s windows, over the whole board."""
    counts = window_counts(board, stone)
    total = 0
    for k in range(1, 6):
        total += WEIGHT[k] * counts[k]
    return total


@njit(cache=True, nogil=True)
def horizon_value(value: int, own: int) -> int:
    """A leaf's value for the side to move, from its windows' value less the opponent's
    (``value``) and its own alone (``own``)."""
    return value + (MOVER_WEIGHT - 1) * own


@njit(cache=True, nogil=True)
def child_values(board: np.ndarray, q: int, stone: int, value: int, own: int) -> tuple[int, int]:
    """The ``value`` and ``own`` of the position after ``stone`` plays ``q``, for the
    opponent, who moves next (``horizon_value``'s arguments), counted incrementally: the
    opponent's own windows are ``own - value`` less those the stone kills."""
    gain, _, killed = gains(board, q, stone)
    return -(value + gain), own - value - killed


@njit(cache=True, nogil=True)
def window_gain(mine: int, theirs: int) -> int:
    """What a window of five holding ``mine`` stones of a side and ``theirs`` of the
    other's adds to ``gains``' two sums (``mine + theirs``) for each of its empty points:
    the same terms, window by window."""
    if mine + theirs >= 5:
        return 0  # no empty point
    gain = 0
    if theirs == 0:
        gain += WEIGHT[mine + 1] - WEIGHT[mine] + (WEIGHT[mine] if mine else 0)
    elif mine == 0:
        gain += WEIGHT[theirs]
    if mine == 0:
        gain += WEIGHT[theirs + 1] - WEIGHT[theirs]
    return gain


@njit(cache=True, nogil=True)
def line_gains(
    board: np.ndarray,
    stone: int,
    r: int,
    c: int,
    dr: int,
    dc: int,
    out: np.ndarray,
    cells: np.ndarray,
    window_gains: np.ndarray,
) -> None:
    """Adds to ``out``, at each point of the line from (r, c) in direction (dr, dc) to
    the board's edge, the ``window_gain`` of the line's windows of five through it: the
    line read once into ``cells`` (the stone as 1, the other's as 8, so that a window's
    sum holds both counts), each window's gain into ``window_gains``, and each point's
    sum of the five windows through it slid along the line."""
    n = board.shape[0]
    length = 0
    while 0 <= r + length * dr < n and 0 <= c + length * dc < n:
        cell = board[r + length * dr, c + length * dc]
        cells[length] = 0 if cell == EMPTY else (1 if cell == stone else 8)
        length += 1
    if length < 5:
        return
    window = cells[0] + cells[1] + cells[2] + cells[3]
    for j in range(length - 4):
        window += cells[j + 4]
        window_gains[j] = window_gain(window & 7, window >> 3)
        window -= cells[j]
    total = 0  # the gains of the windows through point i: those beginning at i-4 to i
    for i in range(length):
        if i < length - 4:
            total += window_gains[i]
        if i >= 5:
            total -= window_gains[i - 5]
        out[(r + i * dr) * n + c + i * dc] += total


@njit(cache=True, nogil=True, inline="always")
def keep_best(
    points: np.ndarray, scores: np.ndarray, count: int, width: int, point: int, score: int
) -> int:
    """Insert ``point`` into the ``count`` best kept so far (best first, first found first
    among equals, at most ``width``), if it is good enough; the new count."""
    if count == width and score <= scores[count - 1]:
        return count
    i = count if count < width else width - 1
    while i > 0 and scores[i - 1] < score:
        points[i], scores[i] = points[i - 1], scores[i - 1]
        i -= 1
    points[i], scores[i] = point, score
    return min(count + 1, width)


@njit(INT[::1](BOARD, NEAR, INT, INT), cache=True, nogil=True)
def candidates(board: np.ndarray, near: np.ndarray, stone: int, width: int) -> np.ndarray:
    """The ``width`` best-looking empty points near stones for ``stone`` to play, best
    first: by what the move gains plus what the opponent would gain there (``gains``'
    first two sums).  None when the board is full (or empty: the driver plays the
    centre).  The sums are found window by window along each line that holds a point
    near the stones (each window's part added to its five points), not point by point
    (each point's twenty windows counted afresh): a fifth of the board's reads."""
    n = board.shape[0]
    top, bottom, left, right = n, -1, n, -1
    for r in range(n):
        for c in range(n):
            if near[r, c] and board[r, c] == EMPTY:
                top, bottom = min(top, r), max(bottom, r)
                left, right = min(left, c), max(right, c)
    sums = np.zeros(n * n, dtype=np.int64)
    cells = np.empty(n, dtype=np.int64)
    window_gains = np.empty(n, dtype=np.int64)
    line = (sums, cells, window_gains)
    for r in range(top, bottom + 1):
        line_gains(board, stone, r, 0, 0, 1, *line)
    for c in range(left, right + 1):
        line_gains(board, stone, 0, c, 1, 0, *line)
    for k in range(-(n - 1), n):  # the diagonals, by column minus row
        if left - bottom <= k <= right - top:
            line_gains(board, stone, max(0, -k), max(0, k), 1, 1, *line)
    for k in range(2 * n - 1):  # the antidiagonals, by row plus column
        if top + left <= k <= bottom + right:
            line_gains(board, stone, max(0, k - n + 1), min(k, n - 1), 1, -1, *line)
    width = max(1, width)
    points = np.empty(width, dtype=np.int64)
    scores = np.empty(width, dtype=np.int64)
    count = 0
    for r in range(top, bottom + 1):
        for c in range(left, right + 1):
            if board[r, c] != EMPTY or near[r, c] == 0:
                continue
            count = keep_best(points, scores, count, width, r * n + c, sums[r * n + c])
    return points[:count]


@njit(cache=True, nogil=True)
def greedy(board: np.ndarray, near: np.ndarray, stone: int) -> int:
    """Level 1: the point after which the ``sequences`` counts are best for ``stone``."""
    n = board.shape[0]
    best = -1
    best_score = 0
    for p in range(n * n):
        if board[p // n, p % n] != EMPTY or near[p // n, p % n] == 0:
            continue
        place(board, near, p, stone)
        mine = window_counts(board, stone)
        theirs = window_counts(board, 3 - stone)
        place(board, near, p, EMPTY)
        score = 0
        for k in range(2, 6):
            score += WEIGHT[k] * mine[k] - THREAT[k] * theirs[k]
        if best < 0 or score > best_score:
            best, best_score = p, score
    return best if best >= 0 else (n // 2) * n + n // 2
