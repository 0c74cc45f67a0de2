"""Shapes: where fours and threes can be made, and how a three is answered."""

from __future__ import annotations

import numpy as np
from numba import njit

from parlour.games.gomoku.engine.evaluation import WEIGHT
from parlour.games.gomoku.game import DC, DR, EMPTY, is_five, run_through, window_stones


@njit(cache=True, nogil=True)
def fullest_windows(board: np.ndarray, stone: int, out: np.ndarray, worth: np.ndarray) -> None:
    """For every point p, ``out[p]``: the most stones of ``stone`` in a window of five
    through p holding none of the opponent's, where that is 1 or more (-1 where it is 0,
    or there is no such window); and ``worth[p]``: those windows' values (``WEIGHT``)
    summed, by which a threat search orders its threats, the points where several of the
    attacker's lines cross (a double threat's) first.  A threat search asks this of every
    point at every node, and wants only the points of windows with two stones or more,
    which asking each point's windows finds several times over; so only the windows through
    ``stone``'s stones are counted, each once (from its first stone), not every window
    of the board (a game's first 20 stones leave most windows empty)."""
    n = board.shape[0]
    out[:] = -1
    worth[:] = 0
    for r in range(n):
        for c in range(n):
            if board[r, c] != stone:
                continue
            for d in range(4):
                dr, dc = DR[d], DC[d]
                for back in range(5):
                    r0, c0 = r - back * dr, c - back * dc
                    if not (0 <= r0 < n and 0 <= c0 < n and 0 <= r0 + 4 * dr < n):
                        continue
                    if not 0 <= c0 + 4 * dc < n:
                        continue
                    # ``window_stones``'s count, inlined (called, the search runs slower)
                    mine = 0
                    for i in range(5):
                        cell = board[r0 + i * dr, c0 + i * dc]
                        if cell == stone:
                            if i < back:  # counted from that earlier stone
                                mine = -1
                                break
                            mine += 1
                        elif cell != EMPTY:
                            mine = -1
                            break
                    if mine < 0:
                        continue
                    for i in range(5):
                        q = (r0 + i * dr) * n + c0 + i * dc
                        out[q] = max(out[q], mine)
                        worth[q] += WEIGHT[mine]


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
