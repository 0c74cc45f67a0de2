"""The computer opponent of five in a row: levels 1 to 6.

Level 1 is greedy: it plays the move after which the seed's ``sequences`` count is best for
it (its windows weighed against the opponent's).  Higher levels search:

1. an immediate five is played and an opponent's five point is blocked, always;
2. a VCF (victory by continuous fours: a chain of fours, each of which the opponent must
   answer on its one empty point, ending in a five or in two five points at once) is looked
   for, then a VCT (continuous threats: threes too, each answered on any of its defence
   points or by a four of the defender's first), and the first move of one played;
3. the opponent's VCF or VCT is looked for as if it moved now; if it has one, the first
   few moves (best-looking first) after which it has none are the ones searched;
4. alpha-beta with iterative deepening (principal variation search: moves after the first
   tried on a null window) over the best-looking moves near the stones, where
   a node with a five point to answer has only that move (it costs no depth), a node
   whose opponent just made a three has only its answers (the three's points or fours of
   its own; at the horizon too, where the three would be missed), and leaves are valued
   by the windows of five each side can still fill, weighed by how full, the side to
   move's twice.

One transposition table (``parlour.search.table``, keyed by the XOR of a hash of each
stone) serves the main search (values and best moves) and the threat searches (wins and
failures of each attacker's position), so that what one check proved the next reuses; a
thread keeps it from move to move.

Everything below the driver is numba code running on a copy of the rules' board array with
the rules' kernels (``makes_five``, ``run_through``); it releases the GIL, and a timer
stops it by setting ``stop[0]``.  A point is one int, ``row * N + col``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np
from numba import njit, types

from parlour.games.gomoku import (
    DC,
    DR,
    EMPTY,
    GomokuState,
    Point,
    is_five,
    makes_five,
    run_through,
    window_counts,
    window_stones,
)
from parlour.search import SearchResult, Stop
from parlour.search.table import NO_MOVE, Table, mix, new_table, probe, store

WIN = 1_000_000
"""A won position's value, less the plies it takes (so that sooner wins are preferred)."""
WEIGHT = np.array([0, 1, 10, 100, 1_000, 100_000], dtype=np.int64)
"""The value of a window of five holding k of one side's stones and no other stone."""
MOVER_WEIGHT = 2
"""At the horizon the side to move's windows count twice: it moves first, so its threes
become fours, and its fours fives, before the other side's can (it won more games against
gomoku-terminal than 1, 1.5 or 3: benchmarks/results/gomoku_vs_peers.jsonl)."""
THREAT = np.array([0, 1, 10, 100, 10_000, 1_000_000], dtype=np.int64)
"""Level 1's weights for the opponent's windows after its move: a four-window of the side
about to move is as good as a five."""

NODES, VCF_NODES, HINT, GENERATION = 0, 1, 2, 3
"""The ``stats`` array: main-search nodes, threat-search nodes, the point a threat search
tries first at its root (-1: none), a win found before being the likeliest again, and the
table generation its stores carry (the stones on the board: one a move, so that a move's
deep entries give way to the next move's)."""
MAX_PLY = 64

# The recursive kernels get explicit signatures: numba would otherwise add versions for
# literal arguments, and a cached recursive function with several versions crashes on load.
# The kernels the clock runs over get them too, so that they compile at import, not on it.
_BOARD = types.int8[:, ::1]
_NEAR = types.int16[:, ::1]
_FLAG = types.uint8[::1]
_STATS = types.int64[::1]
_INT = types.int64
_KEYS = types.uint64[::1]
_ENTRIES = types.int64[::1]


@dataclass(frozen=True)
class Level:
    """How hard a level looks: main-search depth and width, VCF depth, seconds a move."""

    depth: int
    width: int
    vcf_depth: int
    seconds: float


LEVELS = {
    2: Level(depth=4, width=8, vcf_depth=6, seconds=1.0),
    3: Level(depth=10, width=10, vcf_depth=14, seconds=2.0),
    4: Level(depth=10, width=12, vcf_depth=14, seconds=5.0),
    5: Level(depth=12, width=14, vcf_depth=18, seconds=10.0),
    6: Level(depth=14, width=16, vcf_depth=20, seconds=20.0),
}
MAX_LEVEL = max(LEVELS)
VCF_NODE_LIMIT = 20_000
VCT_NODE_LIMIT = 20_000
DEFENCES = 3
"""How many answers that hold against the opponent's threats the main search chooses among."""
VCT_DEFENCE_NODES = 20_000
"""The VCT node budget when checking whether a move holds against the opponent's threats,
within the threat searches' share of the clock: a smaller one (3,000) took for holding an
answer after which gomokubench won by a VCT of four threats (``tests/test_gomoku_search.py``;
the games won with each: benchmarks/results/gomoku_vs_peers.jsonl)."""
THREATS_SHARE = 0.5
"""The part of a move's time the threat searches may take, before the main search."""
TABLE_BITS = 18
"""The searches' transposition table: 2**18 entries (4 MiB), one a thinker for each rule
set (board size and five rule) and search width, kept from move to move: what the last
move's search found about the positions after it holds in the next one's."""


# Board helpers: the board is the rules' (N, N) array; ``near`` counts the stones within
# two points of each point, the candidate moves being the empty points with company.


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
def threat_tag(stone: int, threes: bool) -> np.uint64:
    """What a threat search of ``stone`` (a VCT if ``threes``, else a VCF) XORs into a
    board's key for its entries: kinds 1 to 4 in the top bits, and a hash below them."""
    kind = np.uint64(stone + 2 * threes)  # 1, 2 (VCF of either side), 3, 4 (VCT)
    return (kind << KIND_SHIFT) | (mix(np.uint64(stone + 4 * threes + 16)) & STONE_BITS)


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
def five_points(board: np.ndarray, stone: int, exact: bool) -> np.ndarray:
    """Every empty point where ``stone`` completes a five (a whole-board scan)."""
    n = board.shape[0]
    found = []
    for r in range(n):
        for c in range(n):
            if board[r, c] == EMPTY and makes_five(board, r, c, stone, exact):
                found.append(r * n + c)
    return np.array(found, dtype=np.int64)


@njit(types.int64[::1](_BOARD, _NEAR, _INT, _INT), cache=True, nogil=True)
def candidates(board: np.ndarray, near: np.ndarray, stone: int, width: int) -> np.ndarray:
    """The ``width`` best-looking empty points near stones for ``stone`` to play, best
    first: by what the move gains plus what the opponent would gain there.  None when
    the board is full (or empty: the driver plays the centre)."""
    n = board.shape[0]
    width = max(1, width)
    points = np.empty(width, dtype=np.int64)
    scores = np.empty(width, dtype=np.int64)
    count = 0
    for r in range(n):
        for c in range(n):
            if board[r, c] != EMPTY or near[r, c] == 0:
                continue
            mine, theirs, _ = gains(board, r * n + c, stone)
            score = mine + theirs
            if count == width and score <= scores[count - 1]:
                continue
            # insert, keeping the best ``width`` in order (first found first among equals)
            i = count if count < width else width - 1
            while i > 0 and scores[i - 1] < score:
                points[i], scores[i] = points[i - 1], scores[i - 1]
                i -= 1
            points[i], scores[i] = r * n + c, score
            count = min(count + 1, width)
    return points[:count]


# Shapes: where fours and threes can be made, and how a three is answered.


@njit(cache=True, nogil=True)
def shape(board: np.ndarray, point: int, stone: int, stones: int) -> bool:
    """Whether some window of five through the empty ``point`` holds ``stones`` of
    ``stone`` and nothing of the opponent's: with 3, the only places a four can be made;
    with 2, the only places a three can."""
    row, col = divmod(point, board.shape[0])
    for d in range(4):
        for back in range(5):
            if window_stones(board, row, col, d, back, stone) == stones:
                return True
    return False


@njit(cache=True, nogil=True)
def fullest_windows(board: np.ndarray, stone: int, out: np.ndarray) -> None:
    """For every point p, ``out[p]``: the most stones of ``stone`` in a window of five
    through p holding none of the opponent's (-1: no such window).  One sweep over the
    board's windows: a threat search asks this of every point at every node, which
    ``shape`` point by point does several times over."""
    n = board.shape[0]
    out[:] = -1
    for d in range(4):
        dr, dc = DR[d], DC[d]
        for r0 in range(n):
            for c0 in range(n):
                if not (0 <= r0 + 4 * dr < n and 0 <= c0 + 4 * dc < n):
                    continue
                # ``window_stones``'s count, inlined: called here, the threat search runs
                # about 25% slower
                mine = 0
                for i in range(5):
                    cell = board[r0 + i * dr, c0 + i * dc]
                    if cell == stone:
                        mine += 1
                    elif cell != EMPTY:
                        mine = -1
                        break
                for i in range(5):
                    p = (r0 + i * dr) * n + c0 + i * dc
                    out[p] = max(out[p], mine)


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


@njit(cache=True, nogil=True)
def answers(
    board: np.ndarray, near: np.ndarray, stone: int, defences: np.ndarray, width: int
) -> np.ndarray:
    """The moves of ``stone`` against a three: the ``defences``, and its own fours, best
    first, at most ``width``."""
    ordered = candidates(board, near, stone, board.shape[0] ** 2)
    moves = np.empty(min(width, ordered.shape[0]), dtype=np.int64)
    count = 0
    for q in ordered:
        if count == moves.shape[0]:
            break
        wanted = shape(board, q, stone, 3)
        for p in defences:
            wanted = wanted or p == q
        if wanted:
            moves[count] = q
            count += 1
    return moves[:count]


# Threat searches.  VCF: the attacker plays fours, the defender answers each on its one
# five point.  VCT: threes too, the defender answering a three on one of its defence
# points, or with a four of its own first.


@njit(
    _INT(_BOARD, _NEAR, _INT, types.boolean, types.boolean, _INT, _INT, _FLAG, _STATS, _INT,
         _KEYS, _ENTRIES, types.uint64),
    cache=True,
    nogil=True,
)  # fmt: skip
def threat_search(
    board: np.ndarray,
    near: np.ndarray,
    stone: int,
    exact: bool,
    threes: bool,
    depth: int,
    last: int,
    stop: np.ndarray,
    stats: np.ndarray,
    limit: int,
    tt_keys: np.ndarray,
    tt_data: np.ndarray,
    key: np.uint64,
) -> int:
    """A VCT of ``stone`` within ``depth`` of its moves (a VCF if not ``threes``) from the
    board whose key is ``key``.

    With ``last`` >= -1 the attacker is to move, the defender's last move being ``last``
    (-1 at the root): the first move of a VCT, or -1.  With ``last`` = -2 - p the defender
    is to move against the attacker's three made at p: 1 if every answer still loses to a
    VCT, else -1.  (One argument for both, because numba cannot cache a recursive call
    with a constant argument.)  It gives up (-1) past ``limit`` nodes, so it never claims
    a win the answers counted escape: a defence that makes a five point of the
    defender's ends the chain (the attacker would have to answer it).

    The attacker's nodes go into the table: a win (with its move) holds at any depth, so
    a longer one found before may be returned; a finished failure holds for no more
    threats than it had."""
    stats[VCF_NODES] += 1
    if stop[0] or depth <= 0 or stats[VCF_NODES] > limit:
        return -1
    n = board.shape[0]
    points = np.empty(8, dtype=np.int64)
    three = -2 - last
    if three >= 0:  # the defender's turn: each defence point, then each four of its own
        defences = three_defences(board, three, stone, exact, points)
        if defences == 0:
            return -1  # a counter-four blocked it: the attacker has lost the initiative
        for i in range(defences):
            q = points[i]
            place(board, near, q, 3 - stone)
            child = key ^ stone_key(q, 3 - stone)
            held = (
                threat_search(
                    board, near, stone, exact, threes, depth, q, stop, stats, limit,
                    tt_keys, tt_data, child,
                )
                < 0
            )  # fmt: skip
            place(board, near, q, EMPTY)
            if held:
                return -1
        fullest = np.empty(n * n, dtype=np.int64)
        fullest_windows(board, 3 - stone, fullest)
        for f in range(n * n):
            if board[f // n, f % n] != EMPTY or fullest[f] < 3:
                continue
            place(board, near, f, 3 - stone)
            found = five_points_near(board, f, 3 - stone, exact, points)
            held = found >= 2
            if found == 1:  # the attacker blocks; the three still stands, or not
                q = points[0]
                place(board, near, q, stone)
                child = key ^ stone_key(f, 3 - stone) ^ stone_key(q, stone)
                held = (
                    threat_search(
                        board, near, stone, exact, threes, depth, last, stop, stats, limit,
                        tt_keys, tt_data, child,
                    )
                    < 0
                )  # fmt: skip
                place(board, near, q, EMPTY)
            place(board, near, f, EMPTY)
            if held:
                return -1
        return 1
    if last >= 0 and five_points_near(board, last, 3 - stone, exact, points):
        return -1
    node = key ^ threat_tag(stone, threes)
    known, settled, stored = probe(tt_keys, tt_data, node, depth, 0, 1, False)
    if settled:
        return known if stored > 0 else -1
    hint = stats[HINT] if last == -1 else -1
    fullest = np.empty(n * n, dtype=np.int64)
    fullest_windows(board, stone, fullest)
    for stones in range(3, 1 if threes else 2, -1):  # fours (3 stones) before threes (2)
        for k in range(-1, n * n):
            p = hint if k < 0 else k  # the hint first
            if p < 0 or (k >= 0 and p == hint):
                continue
            if board[p // n, p % n] != EMPTY or fullest[p] != stones:
                continue
            place(board, near, p, stone)
            child = key ^ stone_key(p, stone)
            won = False
            if stones == 3:
                found = five_points_near(board, p, stone, exact, points)
                won = found >= 2
                if found == 1:
                    q = points[0]
                    place(board, near, q, 3 - stone)
                    won = (
                        threat_search(
                            board, near, stone, exact, threes, depth - 1, q, stop, stats,
                            limit, tt_keys, tt_data, child ^ stone_key(q, 3 - stone),
                        )
                        >= 0
                    )  # fmt: skip
                    place(board, near, q, EMPTY)
            elif three_defences(board, p, stone, exact, points):
                won = (
                    threat_search(
                        board, near, stone, exact, threes, depth - 1, -2 - p, stop, stats,
                        limit, tt_keys, tt_data, child,
                    )
                    >= 0
                )  # fmt: skip
            place(board, near, p, EMPTY)
            if won:
                store(tt_keys, tt_data, node, depth, 1, 0, 1, p, True, stats[GENERATION])
                return p
    if not (stop[0] or stats[VCF_NODES] > limit):  # a failure that was not cut short
        store(tt_keys, tt_data, node, depth, 0, 0, 1, NO_MOVE, False, stats[GENERATION])
    return -1


def find_threat(
    state: GomokuState,
    stone: int,
    threes: bool,
    depth: int,
    table: Table,
    hint: int = -1,
    nodes: int = 10**8,
) -> tuple[int, int]:
    """One threat search of ``stone`` on ``state``'s board, with no clock: the first point
    of a VCT of at most ``depth`` threats (a VCF if not ``threes``), trying ``hint``
    first, or -1; and the nodes it took.  For analysis and tests: a move's search goes
    through the driver, which shares its counters and clock between searches."""
    board = state.board.copy()
    stop = np.zeros(1, dtype=np.uint8)
    stats = np.array([0, 0, hint, 0], dtype=np.int64)
    found = threat_search(
        board, nearness(board), stone, state.game.exact, threes, depth, -1, stop, stats,
        nodes, *table, board_key(board),
    )  # fmt: skip
    return int(found), int(stats[VCF_NODES])


# Alpha-beta.


@njit(cache=True, nogil=True)
def to_table(score: int, ply: int) -> int:
    """A node's score as the table keeps it: a win counted from the node, not the root."""
    if abs(score) < WIN - MAX_PLY:
        return score
    return score + ply if score > 0 else score - ply


@njit(cache=True, nogil=True)
def from_table(score: int, ply: int) -> int:
    """``to_table`` undone: a win counted from the root again."""
    return to_table(score, -ply)


@njit(
    _INT(_BOARD, _NEAR, _INT, _INT, _INT, _INT, _INT, _INT, _INT, _INT, types.boolean, _INT,
         _FLAG, _STATS, _KEYS, _ENTRIES, types.uint64),
    cache=True,
    nogil=True,
)  # fmt: skip
def negamax(
    board: np.ndarray,
    near: np.ndarray,
    stone: int,
    value: int,
    own: int,
    depth: int,
    alpha: int,
    beta: int,
    ply: int,
    last: int,
    exact: bool,
    width: int,
    stop: np.ndarray,
    stats: np.ndarray,
    tt_keys: np.ndarray,
    tt_data: np.ndarray,
    key: np.uint64,
) -> int:
    """The value for ``stone`` (to move) of the position, whose windows' value for it is
    ``value`` (its own windows alone: ``own``) and whose table key is ``key``, after the
    opponent's move ``last``.

    Neither side has a five point but those ``last`` made: the root answers every five
    point it finds, and each node answers the opponent's at once (a single one is the only
    move, two or more are lost), so a side never comes to move with a five point of its
    own.  That is why only the lines through ``last`` are looked at.  Moves after the
    first are tried with a null window first (principal variation search), the table's
    move first of all.
    """
    stats[NODES] += 1
    if stop[0]:
        return 0
    points = np.empty(8, dtype=np.int64)
    threats = five_points_near(board, last, 3 - stone, exact, points)
    if threats >= 2:
        return -(WIN - ply - 1)
    defences = 0
    if threats == 1:
        depth += 1  # the only move, so it costs no depth
    elif ply >= MAX_PLY:
        return horizon_value(value, own)
    else:
        defences = three_defences(board, last, 3 - stone, exact, points)
        if defences:  # answered even at the horizon, where the three would be missed
            depth = max(depth, 1)
        elif depth <= 0:
            return horizon_value(value, own)
    window = (to_table(alpha, ply), to_table(beta, ply))
    known, settled, stored = probe(tt_keys, tt_data, key, depth, *window, False)
    if settled:
        return from_table(stored, ply)
    if threats == 1:
        moves = points[:1].copy()
    else:
        if defences:
            moves = answers(board, near, stone, points[:defences], width)
        else:
            moves = candidates(board, near, stone, width)
        if moves.shape[0] == 0:
            return 0  # the board is full: a draw
        for i in range(1, moves.shape[0]):  # the table's move first
            if moves[i] == known:
                moves[1 : i + 1] = moves[:i].copy()
                moves[0] = known
                break
    alpha_in = alpha
    best = -WIN - 1
    best_move = moves[0]
    for i in range(moves.shape[0]):
        q = moves[i]
        child, child_own = child_values(board, q, stone, value, own)
        place(board, near, q, stone)
        child_key = key ^ stone_key(q, stone)
        # after the first move, a null window: does q beat the best so far?  Only if it
        # does, inside (alpha, beta), is it searched again on the whole window
        score = -negamax(
            board, near, 3 - stone, child, child_own, depth - 1, -alpha - 1 if i else -beta,
            -alpha, ply + 1, q, exact, width, stop, stats, tt_keys, tt_data, child_key,
        )  # fmt: skip
        if i and alpha < score < beta:
            score = -negamax(
                board, near, 3 - stone, child, child_own, depth - 1, -beta, -alpha, ply + 1,
                q, exact, width, stop, stats, tt_keys, tt_data, child_key,
            )  # fmt: skip
        place(board, near, q, EMPTY)
        if stop[0]:
            return 0
        if score > best:
            best, best_move = score, q
        if best > alpha:
            alpha = best
        if alpha >= beta:
            break
    window = (to_table(alpha_in, ply), to_table(beta, ply))
    generation = stats[GENERATION]
    store(tt_keys, tt_data, key, depth, to_table(best, ply), *window, best_move, False, generation)
    return best


@njit(
    _STATS(_BOARD, _NEAR, _INT, types.int64[::1], _INT, types.boolean, _INT, _FLAG, _STATS,
           _KEYS, _ENTRIES),
    cache=True,
    nogil=True,
)  # fmt: skip
def search_root(
    board: np.ndarray,
    near: np.ndarray,
    stone: int,
    moves: np.ndarray,
    depth: int,
    exact: bool,
    width: int,
    stop: np.ndarray,
    stats: np.ndarray,
    tt_keys: np.ndarray,
    tt_data: np.ndarray,
) -> np.ndarray:
    """The values of ``moves`` for ``stone`` searched ``depth`` plies deep, the first
    exactly and the others as bounds (a move no better than the best so far gets the best).
    The position has no five point of either side."""
    own = windows_value(board, stone)
    value = own - windows_value(board, 3 - stone)
    key = board_key(board)
    scores = np.full(moves.shape[0], -WIN - 1, dtype=np.int64)
    alpha = -WIN - 1
    for i in range(moves.shape[0]):
        q = moves[i]
        child, child_own = child_values(board, q, stone, value, own)
        place(board, near, q, stone)
        scores[i] = -negamax(
            board, near, 3 - stone, child, child_own, depth - 1, -WIN - 1, -alpha, 1, q,
            exact, width, stop, stats, tt_keys, tt_data, key ^ stone_key(q, stone),
        )  # fmt: skip
        place(board, near, q, EMPTY)
        if stop[0]:
            break
        alpha = max(alpha, scores[i])
    return scores


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


# The driver, in Python: the forced moves, the VCFs, then iterative deepening on a clock.


Result = SearchResult[Point]
Tables = dict[tuple[int, bool, int], Table]
"""Transposition tables by rule set (board size, five rule) and search width."""


def _table(tables: Tables, state: GomokuState, width: int) -> Table:
    """The table of ``tables`` for ``state``'s rules and a search ``width`` wide (a key is
    the same for the same points of any board size; a value differs under the other five
    rule or another width)."""
    rules = (state.size, state.game.exact, width)
    if rules not in tables:
        tables[rules] = new_table(TABLE_BITS)
    return tables[rules]


class _Search:
    """One move's search: a working copy of the board, the stop flag and the counters."""

    def __init__(
        self,
        state: GomokuState,
        level: Level | None,
        seconds: float | None,
        tables: Tables,
        stop: Stop,
        on_iteration: Callable[[Result], None] | None = None,
    ) -> None:
        """``level`` None is level 1 (greedy); ``on_iteration`` is told each finished depth
        of the main search."""
        if state.is_over:
            raise ValueError("the game is over: there is no move to choose")
        self.state = state
        self.level = level
        self.on_iteration = on_iteration
        self.n = state.size
        self.exact = state.game.exact
        self.board = state.board.copy()
        self.near = nearness(self.board)
        self.stone = state.to_move + 1
        self.stop = stop.attach(np.zeros(1, dtype=np.uint8))
        self.threats_stop = stop.attach(np.zeros(1, dtype=np.uint8))  # the threats' share
        self.stats = np.array([0, 0, -1, np.count_nonzero(self.board)], dtype=np.int64)
        self.seconds = seconds
        self.tables = tables
        self.started = time.perf_counter()

    @cached_property
    def table(self) -> Table:
        """The table, taken when a level that searches first needs it."""
        assert self.level is not None
        return _table(self.tables, self.state, self.level.width)

    def point(self, q: int) -> Point:
        return divmod(int(q), self.n)

    def report(self, q: int, reason: str, score: int = 0, depth: int = 0) -> Result:
        """The search's answer: a forced win or loss is exact (its value counts plies)."""
        nodes = int(self.stats[NODES] + self.stats[VCF_NODES])
        seconds = time.perf_counter() - self.started
        move = self.point(q)
        exact = abs(int(score)) >= WIN - MAX_PLY
        return SearchResult(move, int(score), depth, nodes, seconds, (move,), exact, reason)

    def run(self) -> Result:
        mine = five_points(self.board, self.stone, self.exact)
        if len(mine):
            return self.report(mine[0], "five", WIN)
        theirs = five_points(self.board, 3 - self.stone, self.exact)
        if len(theirs):
            return self.report(theirs[0], "block")
        if not self.near.any():
            return self.report((self.n // 2) * self.n + self.n // 2, "search")
        level = self.level
        if level is None:
            return self.report(greedy(self.board, self.near, self.stone), "search")
        seconds = self.seconds or level.seconds
        timers = [
            threading.Timer(seconds, self.stop.fill, (1,)),
            threading.Timer(seconds * THREATS_SHARE, self.threats_stop.fill, (1,)),
        ]
        for timer in timers:
            timer.start()
        try:
            return self._search(level)
        finally:
            for timer in timers:
                timer.cancel()

    def _threats(
        self, stone: int, depth: int, hint: int = -1, vct_nodes: int = VCT_NODE_LIMIT
    ) -> tuple[int, str]:
        """The first move of a VCF of ``stone`` from the working board, else of a VCT (of
        at most half as many threats, shortest first, within ``vct_nodes``), trying
        ``hint`` first, and which it is; -1 if neither is found in the threat searches'
        share of time."""
        args = (self.board, self.near, stone, self.exact)
        stop, stats = self.threats_stop, self.stats
        table = (*self.table, board_key(self.board))
        stats[HINT] = hint
        limit = int(stats[VCF_NODES]) + VCF_NODE_LIMIT
        found = threat_search(*args, False, depth, -1, stop, stats, limit, *table)
        if found >= 0:
            return int(found), "vcf"
        limit = int(stats[VCF_NODES]) + vct_nodes
        for threats in range(2, depth // 2 + 1):
            found = threat_search(*args, True, threats, -1, stop, stats, limit, *table)
            if found >= 0 or stats[VCF_NODES] > limit:
                break
        return int(found), "vct"

    def _search(self, level: Level) -> Result:
        # our own VCT gets half the budget: a failed one would leave no time to see the
        # opponent's, which the defence needs
        win, kind = self._threats(self.stone, level.vcf_depth, vct_nodes=VCT_NODE_LIMIT // 2)
        if win >= 0:
            return self.report(win, kind, WIN)
        threat = self._threats(3 - self.stone, level.vcf_depth)[0]
        if threat >= 0:
            defences = self._defences(level, threat)
            if defences:
                return self._deepen(np.array(defences, dtype=np.int64), level, "defend")
        moves = candidates(self.board, self.near, self.stone, level.width)
        return self._deepen(moves, level, "search")

    def _defences(self, level: Level, threat: int) -> list[int]:
        """The first few moves after which the opponent has no VCF or VCT, from the main
        search's likeliest (twice its width), or, if none of those holds, from every point
        near the stones (a lone defence can lie further down: gomokubench won a game where
        only the 21st held).  A move that loses is usually shown so at once (the opponent's
        ``threat`` tried first), one that holds costs a whole (smaller) node budget."""
        held: list[int] = []
        moves = candidates(self.board, self.near, self.stone, self.n * self.n)
        for tried, q in enumerate(moves):
            if held and tried == 2 * level.width:
                break
            loses = self._loses_to_threats(q, level.vcf_depth, threat)
            if self.threats_stop[0]:
                break  # out of time for threats: that last answer is unknown
            if not loses:
                held.append(int(q))
                if len(held) == DEFENCES:
                    break
        return held

    def _loses_to_threats(self, q: int, depth: int, threat: int) -> bool:
        """Whether the opponent still has a VCF or VCT after our move ``q`` (if ``q`` is a
        four, after the opponent's forced answer, counting our move as wasted)."""
        place(self.board, self.near, q, self.stone)
        points = np.empty(8, dtype=np.int64)
        blocks = five_points_near(self.board, q, self.stone, self.exact, points)
        if blocks:
            place(self.board, self.near, points[0], 3 - self.stone)
        loses = self._threats(3 - self.stone, depth, threat, VCT_DEFENCE_NODES)[0] >= 0
        if blocks:
            place(self.board, self.near, points[0], EMPTY)
        place(self.board, self.near, q, EMPTY)
        return loses

    def _deepen(self, moves: np.ndarray, level: Level, reason: str) -> Result:
        """Iterative deepening: each finished depth reorders the moves; the last finished
        depth's best move is played (or depth 1's best so far, if time ran out in it)."""
        best, score, done = moves[0], 0, 0
        for depth in range(1, level.depth + 1):
            scores = search_root(
                self.board, self.near, self.stone, moves, depth, self.exact,
                level.width, self.stop, self.stats, *self.table,
            )  # fmt: skip
            if self.stop[0] and depth > 1:
                break
            order = np.argsort(-scores, kind="stable")
            moves, scores = moves[order], scores[order]
            best, score, done = moves[0], scores[0], depth
            if self.on_iteration is not None:
                self.on_iteration(self.report(best, reason, score, done))
            if abs(score) >= WIN - MAX_PLY:
                break  # a forced result: deeper cannot change it
        return self.report(best, reason, score, done)


class Thinker:
    """The computer at ``level`` (1 to 6; above 6 plays as 6, since ``--players`` levels
    are shared by all the games), keeping its transposition tables from move to move:
    what the last move's search found about the positions after it holds in the next
    one's.  ``seconds`` overrides the level's time a move."""

    def __init__(self, level: int, seconds: float | None = None) -> None:
        if level < 1:
            raise ValueError(f"the gomoku levels are 1 to {MAX_LEVEL}, not {level}")
        self.level = min(level, MAX_LEVEL)
        self.seconds = seconds
        self.tables: Tables = {}

    def best_move(self, state: GomokuState, stop: Stop) -> tuple[Point, Result]:
        """The move and what the search did."""
        level = LEVELS.get(self.level)
        report = _Search(state, level, self.seconds, self.tables, stop).run()
        return report.move, report

    def warm_up(self, state: GomokuState) -> None:
        """The searches' kernels; nothing for level 1, which is greedy."""
        if self.level in LEVELS:
            warm_up(state)


def warm_up(state: GomokuState) -> None:
    """Compile the search's kernels before any clock starts: a one-ply search, threats
    included, of a position two stones into a game of ``state``'s rules."""
    start = state.game.start()
    centre = start.size // 2
    two = start.play((centre, centre)).play((centre, centre + 1))
    assert isinstance(two, GomokuState)
    _Search(two, replace(LEVELS[2], depth=1), None, {}, Stop()).run()


def analyze(
    state: GomokuState,
    depth: int | None,
    seconds: float | None,
    on_iteration: Callable[[Result], None] | None,
    stop: Stop,
) -> Result:
    """The strongest level's search of ``state`` (threats first, then the deepening, to
    ``depth`` if given), for ``seconds`` (default: the level's), telling ``on_iteration``
    each depth it finishes: ``parlour analyze gomoku``."""
    level = LEVELS[MAX_LEVEL]
    if depth is not None:
        level = replace(level, depth=min(depth, MAX_PLY - 1))
    return _Search(state, level, seconds, {}, stop, on_iteration).run()


def search(state: GomokuState, level: int = 3, seconds: float | None = None) -> Result:
    """The computer's move at ``level`` (1 to 6) with what the search did, by a thinker of
    its own; ``seconds`` overrides the level's time a move."""
    if level not in LEVELS and level != 1:
        raise ValueError(f"the gomoku levels are 1 to {MAX_LEVEL}, not {level}")
    return Thinker(level, seconds).best_move(state, Stop())[1]
