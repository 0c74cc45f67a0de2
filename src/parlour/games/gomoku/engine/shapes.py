"""Shapes: whether a stone makes a three, and how a three is answered."""

from __future__ import annotations

import numpy as np
from numba import njit

from parlour.games.gomoku.game import DC, DR, EMPTY, is_five, run_through, window_stones


@njit(cache=True, nogil=True)
def makes_open_four(board: np.ndarray, point: int, d: int, stone: int, exact: bool) -> bool:
    """Whether ``stone`` on the empty ``point`` would have two five points on line ``d``
    near it: a four the opponent cannot block with one stone."""
    n = board.shape[0]
    row, col = divmod(point, n)
    board[row, col] = stone
    fives = 0
    for u in range(-4, 5):
        r = row + u * DR[d]
        c = col + u * DC[d]
        if (
            u != 0
            and 0 <= r < n
            and 0 <= c < n
            and board[r, c] == EMPTY
            and is_five(run_through(board, r, c, d, stone), exact)
        ):
            fives += 1
    board[row, col] = EMPTY
    return fives >= 2


@njit(cache=True, nogil=True)
def three_defences(board: np.ndarray, last: int, stone: int, exact: bool, out: np.ndarray) -> int:
    """If ``stone``'s move ``last`` made a three (one more stone of it makes an open four),
    the points that answer it: the empty points of its windows through ``last`` on that
    line holding three of its stones and nothing else, since a stone anywhere else leaves
    the open four to be made.  Stored in ``out``; their number (0: no three)."""
    n = board.shape[0]
    row, col = divmod(last, n)
    empties = np.empty(10, dtype=np.int64)  # the two empty points of each window
    found = 0
    for d in range(4):
        count = 0
        three = False
        for back in range(5):
            if window_stones(board, row, col, d, back, stone) != 3:
                continue
            r0 = row - back * DR[d]
            c0 = col - back * DC[d]
            for i in range(5):
                q = (r0 + i * DR[d]) * n + c0 + i * DC[d]
                if board[q // n, q % n] == EMPTY:
                    empties[count] = q
                    count += 1
                    three = three or makes_open_four(board, q, d, stone, exact)
        if not three:
            continue
        for i in range(count):
            seen = False
            for j in range(found):
                seen = seen or out[j] == empties[i]
            if not seen and found < out.shape[0]:
                out[found] = empties[i]
                found += 1
    return found
