"""The windows of five each side can still fill, weighed by how full: how level 1
(``greedy``) plays; and ``keep_best``, the searches' list of their best moves."""

from __future__ import annotations

import numpy as np
from numba import njit

from parlour.games.gomoku.engine.board import place
from parlour.games.gomoku.game import EMPTY, window_counts

WEIGHT = np.array([0, 1, 10, 100, 1_000, 100_000], dtype=np.int64)
"""The value of a window of five holding k of one side's stones and no other stone."""
THREAT = np.array([0, 1, 10, 100, 10_000, 1_000_000], dtype=np.int64)
"""Level 1's weights for the opponent's windows after its move: a four-window of the side
about to move is as good as a five."""


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
