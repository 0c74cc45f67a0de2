"""The main search's evaluation and move order: what each side could make on each empty
point, line by line.

For every empty point and each of the four lines through it, a side's *pattern* there is
the best shape one more stone of its on the point would make on that line, judged from
the eight points around it (four each side): a five, an open four (two five points), a
four (one), a three that one more stone makes an open four, a three that one more stone
makes a four, and the twos before them.  A point whose lines hold two such threats (two
open threes, a four and an open three, two fours) is a *double threat*: one stone there
nearly wins, as Rapfi's and Wine's evaluations judge a point by its four lines together.
A position's value is the side to move's patterns and double threats counted over the
empty points, less the opponent's, each by its weight (a table fitted to the results of
parlour's own games: ``weights``): not what a side has, but what it threatens to make,
which tells a three that can still open from one that cannot, and a point where two lines
meet from two points apart.  The moves are searched in the order of the same patterns:
what a stone makes on its point, and what the opponent's would (``likeliest``).

Each point keeps, for each line, a key of its eight neighbours (two bits each: empty,
either stone, off the board); a stone placed changes the keys of the 32 points in line
with it, and the patterns' counts (and each point's threats, for the double threats) are
kept as it is placed and lifted, so that a leaf's value costs a few multiplications.  A
table from key to pattern is made once, for both stones.  The
patterns ignore the exactly-five rule (an overline counts as a five): they only value a
position, the search itself finds the fives.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np
from numba import njit, types

from parlour.games.gomoku.engine.board import INT, place
from parlour.games.gomoku.engine.evaluation import keep_best
from parlour.games.gomoku.game import DC, DR, EMPTY

NONE, CLOSED_TWO, OPEN_TWO, CLOSED_THREE, OPEN_THREE, FOUR, OPEN_FOUR, FIVE = range(8)
"""A side's patterns on a point's line: what one more stone on the point would make."""
DOUBLE_THREE, FOUR_THREE, DOUBLE_FOUR = range(FIVE + 1, FIVE + 4)
"""A side's double threats on a point, counted over its four lines (``combo``): a stone
there would make two open threes, a four and an open three, or two fours, each nearly a
win on its own; counted beside the patterns (``Lines.counts``), as a leaf's features."""
FEATURES = DOUBLE_FOUR + 1
"""The columns of ``Lines.counts`` and of the weights: the patterns, then the double
threats (column 0, ``NONE``, is counted but has no weight)."""
FOUR_LINE = 8
"""A four's share of a point's ``Lines.threats`` code (an open three's is 1, and a point
has at most four lines of threes)."""
VALUE = np.array([0, 2, 12, 18, 96, 144, 800, 1200], dtype=np.int64)
"""The patterns' values in the move order (what a stone makes or blocks on its point), by
pattern: the proportions of Wine's evaluation (jinjiebang/wine, the Gomocup engine
``benchmarks/gomoku_vs_engine.py`` plays); the hand-set evaluation (``weights.HAND``)."""
SURE = 200_000
"""A leaf's value for the side to move when it can make an open four and the opponent has
no five point: a win but for the opponent's fours, below any proven win's value."""
OFF = 3
"""A neighbour off the board, in a key's two bits (else its cell: empty or a stone)."""
NO_POINTS = np.empty(0, dtype=np.int64)
"""No three to answer: ``likeliest`` of every move."""
NO_WEIGHTS = np.zeros((2, FEATURES), dtype=np.int64)
"""The weights of patterns counted for the threats and the move order only (no leaf is
valued): all 0."""


class Lines(NamedTuple):
    """The patterns' state of a board, kept by ``play`` as stones are placed and lifted."""

    table: np.ndarray
    """(3, 65536) int8: a stone's pattern by key (row 0 unused)."""
    keys: np.ndarray
    """(N * N * 4) int64: each point's key on each line (index ``4 * point + line``)."""
    counts: np.ndarray
    """(3, FEATURES) int64: for each stone, how many (empty point, line) pairs hold each
    pattern (columns ``NONE`` to ``FIVE``), then how many empty points hold each double
    threat (``DOUBLE_THREE`` to ``DOUBLE_FOUR``)."""
    weights: np.ndarray
    """(2, FEATURES) int64: a feature's weight in a leaf's value, for the side to move (row
    0) and for the opponent (row 1, counted against it): ``weights``."""
    threats: np.ndarray
    """(3, N * N) int64: for each stone and empty point, its lines' threats: how many hold an
    open three, plus ``FOUR_LINE`` times how many a four or better (``combo``'s code); (3,
    0) where the weights weigh no double threat (the threat searches' and the move order's
    patterns, ``NO_WEIGHTS``): then neither these codes nor the double threats' counts are
    kept, and ``play`` is a seventh faster (``gomoku_selfplay-notes.md``, round 8)."""


LINES = types.NamedTuple(  # type: ignore[no-untyped-call, unused-ignore]
    (types.int8[:, ::1], INT[::1], INT[:, ::1], INT[:, ::1], INT[:, ::1]), Lines
)
"""``Lines``' numba type, for the signatures."""


@njit(cache=True, nogil=True)
def line_fives(line: np.ndarray) -> tuple[bool, int]:
    """On a line of nine (0 empty, 1 the side's stone, 2 blocked) whose middle holds the
    side's stone: whether a window of five through the middle is full, and how many empty
    points complete one (a window holding four of the side's and an empty point)."""
    full = False
    points = 0
    seen = 0  # bit i: point i completes a window
    for start in range(5):
        mine = 0
        empty = -1
        for i in range(start, start + 5):
            if line[i] == 2:
                mine = -1
                break
            if line[i] == 1:
                mine += 1
            else:
                empty = i
        if mine == 5:
            full = True
        elif mine == 4 and not seen & (1 << empty):
            seen |= 1 << empty
            points += 1
    return full, points


@njit(cache=True, nogil=True)
def classify(line: np.ndarray) -> int:
    """The pattern of a side on the middle of a line of nine (0 empty, 1 its stone, 2
    blocked) whose middle is empty: what its stone there makes, or could make with one
    or two more stones on the line."""
    line[4] = 1
    full, points = line_fives(line)
    best = FIVE if full else OPEN_FOUR if points >= 2 else FOUR if points == 1 else NONE
    for e in range(9):
        if best >= FOUR:
            break
        if line[e] != 0:
            continue
        line[e] = 1
        points = line_fives(line)[1]
        if points >= 2:
            best = OPEN_THREE
        elif points == 1:
            best = max(best, CLOSED_THREE)
        elif best < CLOSED_THREE:
            for f in range(e + 1, 9):
                if line[f] != 0:
                    continue
                line[f] = 1
                points = line_fives(line)[1]
                line[f] = 0
                best = max(best, OPEN_TWO if points >= 2 else CLOSED_TWO if points else NONE)
        line[e] = 0
    line[4] = 0
    return best


@njit(cache=True, nogil=True)
def make_table() -> np.ndarray:
    """Each stone's pattern by key: the patterns of the 3^8 lines a side can see (its
    stones, empty, blocked), then each key read as a line by each stone."""
    by_line = np.empty(3**8, dtype=np.int8)
    line = np.zeros(9, dtype=np.int64)
    for index in range(3**8):
        rest = index
        for slot in range(8):
            line[slot if slot < 4 else slot + 1] = rest % 3
            rest //= 3
        by_line[index] = classify(line)
    table = np.zeros((3, 1 << 16), dtype=np.int8)
    for stone in (1, 2):
        for key in range(1 << 16):
            index = 0
            for slot in range(7, -1, -1):
                cell = (key >> (2 * slot)) & 3
                index = 3 * index + (0 if cell == EMPTY else 1 if cell == stone else 2)
            table[stone, key] = by_line[index]
    return table


@cache
def pattern_table() -> np.ndarray:
    """The table, made once a process (a few milliseconds)."""
    return make_table()


@njit(cache=True, nogil=True, inline="always")
def slot(offset: int) -> int:
    """The key's slot of the neighbour ``offset`` points along the line (-4..4, not 0)."""
    return offset + 4 if offset < 0 else offset + 3


def combo(code: int) -> int:
    """The double threat of a point whose lines' threats are ``code`` (``Lines.threats``),
    else ``NONE``."""
    fours, threes = divmod(code, FOUR_LINE)
    if fours >= 2:
        return DOUBLE_FOUR
    if fours and threes:
        return FOUR_THREE
    return DOUBLE_THREE if threes >= 2 else NONE


COMBOS = np.array([combo(code) for code in range(5 * FOUR_LINE)], dtype=np.int64)
"""``combo`` of each code, read by the kernels."""
SHARES = np.array([FOUR_LINE if p >= FOUR else p == OPEN_THREE for p in range(8)], dtype=np.int64)
"""A pattern's share of its point's code: 1 an open three, ``FOUR_LINE`` a four or better."""


@njit(cache=True, nogil=True, inline="always")
def shift_threats(lines: Lines, stone: int, point: int, change: int) -> None:
    """``stone``'s threats on the empty ``point`` changed by ``change`` (``SHARES``), and the
    double threats' counts with them."""
    code = lines.threats[stone, point]
    was = COMBOS[code]
    code += change
    lines.threats[stone, point] = code
    now = COMBOS[code]
    if was != now:
        if was != NONE:
            lines.counts[stone, was] -= 1
        if now != NONE:
            lines.counts[stone, now] += 1


@njit(cache=True, nogil=True)
def count(lines: Lines, point: int, sign: int) -> None:
    """Add (``sign`` 1) or take away (-1) the empty ``point``'s patterns on its four
    lines, and its double threats (its threats' codes made afresh, or cleared)."""
    table, keys, counts = lines.table, lines.keys, lines.counts
    tracked = lines.threats.shape[1] > 0
    for stone in (1, 2):
        code = 0
        for d in range(4):
            pattern = table[stone, keys[4 * point + d]]
            counts[stone, pattern] += sign
            code += SHARES[pattern]
        if tracked:
            double = COMBOS[code]
            if double != NONE:
                counts[stone, double] += sign
            lines.threats[stone, point] = code if sign > 0 else 0


@njit(LINES(types.int8[:, ::1], types.int8[:, ::1], INT[:, ::1]), cache=True, nogil=True)
def lines_of(board: np.ndarray, table: np.ndarray, weights: np.ndarray) -> Lines:
    """The patterns' state of ``board``, counted afresh, valued by ``weights``: the double
    threats kept only if ``weights`` weighs them (``Lines.threats``)."""
    n = board.shape[0]
    keys = np.zeros(n * n * 4, dtype=np.int64)
    counts = np.zeros((3, FEATURES), dtype=np.int64)
    tracked = n * n if np.any(weights[:, FIVE + 1 :]) else 0
    lines = Lines(table, keys, counts, weights, np.zeros((3, tracked), dtype=np.int64))
    for p in range(n * n):
        row, col = divmod(p, n)
        for d in range(4):
            key = 0
            for offset in range(-4, 5):
                if offset == 0:
                    continue
                r, c = row + offset * DR[d], col + offset * DC[d]
                cell = int(board[r, c]) if 0 <= r < n and 0 <= c < n else OFF
                key |= cell << (2 * slot(offset))
            keys[4 * p + d] = key
        if board[row, col] == EMPTY:
            count(lines, p, 1)
    return lines


@njit(cache=True, nogil=True)
def play(board: np.ndarray, near: np.ndarray, lines: Lines, point: int, stone: int) -> None:
    """``place`` (``stone`` 0 lifts), keeping ``lines``: the point's own patterns leave
    the counts while it holds a stone, and each point in line with it, within four, has its
    key changed and, if empty, the patterns its new key changes counted again."""
    n = board.shape[0]
    if stone != EMPTY:
        count(lines, point, -1)
    place(board, near, point, stone)
    table, keys, counts = lines.table, lines.keys, lines.counts
    row, col = divmod(point, n)
    tracked = lines.threats.shape[1] > 0
    for d in range(4):
        dr, dc = DR[d], DC[d]
        for offset in range(-4, 5):
            r, c = row + offset * dr, col + offset * dc
            if offset == 0 or not (0 <= r < n and 0 <= c < n):
                continue
            i = 4 * (r * n + c) + d
            shift = 2 * slot(-offset)  # where ``point`` sits in the key
            old = keys[i]
            new = (old & ~(3 << shift)) | (stone << shift)
            keys[i] = new
            if board[r, c] != EMPTY:
                continue
            for side in (1, 2):
                was, now = table[side, old], table[side, new]
                if was != now:
                    counts[side, was] -= 1
                    counts[side, now] += 1
                    change = SHARES[now] - SHARES[was] if tracked else 0
                    if change:
                        shift_threats(lines, side, r * n + c, change)
    if stone == EMPTY:
        count(lines, point, 1)


@njit(cache=True, nogil=True, inline="always")
def makings(lines: Lines, stone: int, least: int) -> int:
    """How many (empty point, line) pairs hold a pattern of ``stone``'s from ``least`` to
    ``FIVE``: the patterns' columns of ``Lines.counts``, not the double threats after
    them (``makings(lines, stone, FOUR)``: the fours it could make)."""
    return int(lines.counts[stone, least : FIVE + 1].sum())


@njit(cache=True, nogil=True)
def threatens(lines: Lines, stone: int) -> bool:
    """Whether ``stone`` has a five point or a point that makes an open four (a three)
    anywhere: if not, it has neither a four nor a three to answer.  The patterns count an
    overline as a five, so under the exactly-five rule this may say yes where there is
    none, never no where there is one."""
    counts = lines.counts
    return bool(counts[stone, FIVE] or counts[stone, OPEN_FOUR])


@njit(cache=True, nogil=True)
def lines_value(lines: Lines, stone: int) -> int:
    """A leaf's value for ``stone``, to move: ``SURE`` if it can make an open four (or a
    five) and the opponent has no five point, else its features' counts (patterns and
    double threats) by their weights less the opponent's by theirs."""
    counts, weights = lines.counts, lines.weights
    if counts[stone, FIVE] or (counts[stone, OPEN_FOUR] and not counts[3 - stone, FIVE]):
        return SURE
    value = 0
    for feature in range(1, FEATURES):
        value += weights[0, feature] * counts[stone, feature]
        value -= weights[1, feature] * counts[3 - stone, feature]
    return int(value)


@njit(cache=True, nogil=True)
def point_value(lines: Lines, point: int, stone: int) -> int:
    """What ``stone`` on the empty ``point`` would make: its patterns' values there, and
    an open four's more if two of its lines would hold a three or better (a double
    threat)."""
    table, keys = lines.table, lines.keys
    value = 0
    threats = 0
    for d in range(4):
        pattern = table[stone, keys[4 * point + d]]
        value += VALUE[pattern]
        threats += pattern >= OPEN_THREE
    return value + (VALUE[OPEN_FOUR] if threats >= 2 else 0)


@njit(cache=True, nogil=True)
def move_score(lines: Lines, point: int, stone: int) -> int:
    """How good a move ``point`` looks for ``stone``: what it would make there, twice, and
    what the opponent would (``point_value`` of each), read in one pass over the point's
    four keys (the move order's score of every point near the stones, at every node
    that generates its moves: the main search's costliest part)."""
    table, keys = lines.table, lines.keys
    mine = theirs = 0
    my_threats = their_threats = 0
    for d in range(4):
        key = keys[4 * point + d]
        made, blocked = table[stone, key], table[3 - stone, key]
        mine += VALUE[made]
        theirs += VALUE[blocked]
        my_threats += made >= OPEN_THREE
        their_threats += blocked >= OPEN_THREE
    if my_threats >= 2:
        mine += VALUE[OPEN_FOUR]
    if their_threats >= 2:
        theirs += VALUE[OPEN_FOUR]
    return 2 * mine + theirs


@njit(cache=True, nogil=True)
def move_class(lines: Lines, point: int, stone: int) -> int:
    """The strongest pattern ``stone`` on the empty ``point`` makes or blocks on any of its
    lines, an open three made counting as a four (a threat the opponent must answer, as a
    four is): below ``FOUR``, a move that makes no threat and takes no point where the
    opponent would make a four, which the search may reduce or, near its horizon, leave
    out (below ``OPEN_THREE``, one that touches no three either: reduced the most)."""
    table, keys = lines.table, lines.keys
    strongest = 0
    for d in range(4):
        key = keys[4 * point + d]
        made = table[stone, key]
        strongest = max(strongest, FOUR if made == OPEN_THREE else made, table[3 - stone, key])
    return strongest


@njit(cache=True, nogil=True)
def likeliest(
    board: np.ndarray,
    near: np.ndarray,
    lines: Lines,
    stone: int,
    width: int,
    defences: np.ndarray,
) -> np.ndarray:
    """The ``width`` best-looking empty points near stones for ``stone``, best first: by
    what it would make there, twice, and what the opponent would (so blocks count too).
    Against a three (``defences``: the points that answer it, else empty) only those and
    ``stone``'s fours are wanted."""
    n = board.shape[0]
    width = max(1, width)
    points = np.empty(width, dtype=np.int64)
    scores = np.empty(width, dtype=np.int64)
    table, keys = lines.table, lines.keys
    count = 0
    for p in range(n * n):
        if near[p // n, p % n] == 0 or board[p // n, p % n] != EMPTY:
            continue
        if defences.shape[0]:
            wanted = False
            for q in defences:
                wanted = wanted or q == p
            for d in range(4):
                wanted = wanted or table[stone, keys[4 * p + d]] >= FOUR
            if not wanted:
                continue
        count = keep_best(points, scores, count, width, p, move_score(lines, p, stone))
    return points[:count]


def likeliest_on(board: np.ndarray, near: np.ndarray, stone: int, width: int) -> np.ndarray:
    """``likeliest`` on a board whose patterns are not kept (counted afresh), with no three
    to answer: the moves the driver searches, in the main search's order."""
    lines = lines_of(board, pattern_table(), NO_WEIGHTS)
    return likeliest(board, near, lines, stone, width, NO_POINTS)
