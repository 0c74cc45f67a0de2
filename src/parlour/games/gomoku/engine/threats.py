"""Threat searches.  VCF: the attacker plays fours, the defender answers each on its one
five point.  VCT: threes too, the defender answering a three on one of its defence
points, or with a four of its own first."""

from __future__ import annotations

import numpy as np
from numba import njit, types

from parlour.games.gomoku.engine.board import (
    GENERATION,
    HINT,
    INT,
    KIND_SHIFT,
    STONE_BITS,
    VCF_NODES,
    WIN,
    WORK,
    Work,
    board_key,
    five_points_near,
    nearness,
    new_stats,
    stone_key,
)
from parlour.games.gomoku.engine.evaluation import keep_best
from parlour.games.gomoku.engine.patterns import (
    FIVE,
    FOUR,
    LINES,
    NO_WEIGHTS,
    OPEN_THREE,
    Lines,
    lines_of,
    makings,
    pattern_table,
    play,
    point_value,
)
from parlour.games.gomoku.engine.shapes import three_defences
from parlour.games.gomoku.game import EMPTY, GomokuState
from parlour.rng import mix
from parlour.search.table import NO_MOVE, Table, probe, store


@njit(cache=True, nogil=True)
def threat_tag(stone: int, threes: bool) -> np.uint64:
    """What a threat search of ``stone`` (a VCT if ``threes``, else a VCF) XORs into a
    board's key for its entries: kinds 1 to 4 in the top bits, and a hash below them."""
    kind = np.uint64(stone + 2 * threes)  # 1, 2 (VCF of either side), 3, 4 (VCT)
    return (kind << KIND_SHIFT) | (mix(np.uint64(stone + 4 * threes + 16)) & STONE_BITS)


FREE_THREATS = 2
"""The threats of a VCT that may be made anywhere: each one after them is a three only in
line with the attacker's last threat (in a window of five with it), or a four.  A VCT
grows from its own stones: the threes that keep to their lines cut the attacker's
choices at each step to those that build on the last, and the free threats let it open
on as many fronts.  Fewer free threats cost fewer nodes and miss the VCTs that open on
more fronts: ``benchmarks/gomoku_search.py`` measures the nodes on lost games' VCTs, and
``tests/games/gomoku/test_gomoku_search.py`` holds the VCTs that must be found (how the
figure was chosen: ``benchmarks/results/gomoku_budgets.md``)."""


@njit(cache=True, nogil=True)
def in_line(p: int, q: int, n: int) -> bool:
    """Whether the points ``p`` and ``q`` share a window of five (of a board ``n`` wide)."""
    dr = abs(p // n - q // n)
    dc = abs(p % n - q % n)
    return (dr == 0 or dc == 0 or dr == dc) and max(dr, dc) <= 4


@njit(cache=True, nogil=True)
def threat_points(
    board: np.ndarray,
    near: np.ndarray,
    lines: Lines,
    stone: int,
    threes: bool,
    threat: int,
    hint: int,
    fours: np.ndarray,
    others: np.ndarray,
) -> tuple[int, int]:
    """The points where ``stone`` makes a four (on any line: its pattern ``FOUR`` or
    better) and, if ``threes``, a three (``OPEN_THREE``, and no four), the three only in
    line with ``threat`` when that is >= 0; into ``fours`` and ``others``, best first by
    what the stone makes there (``point_value``: a point where two lines cross first),
    ``hint`` before all; their numbers.  One pass over the patterns ``play`` keeps,
    where counting each window at each node cost the search most of its time."""
    n = board.shape[0]
    table, keys = lines.table, lines.keys
    scores = np.empty(n * n, dtype=np.int64)
    more = np.empty(n * n, dtype=np.int64)
    found = 0
    also = 0
    for p in range(n * n):
        if near[p // n, p % n] == 0 or board[p // n, p % n] != EMPTY:
            continue
        best = 0
        for d in range(4):
            best = max(best, table[stone, keys[4 * p + d]])
        if best < OPEN_THREE or (best < FOUR and not threes):
            continue
        worth = WIN if p == hint else point_value(lines, p, stone)
        if best >= FOUR:
            found = keep_best(fours, scores, found, n * n, p, worth)
        elif threat < 0 or in_line(p, threat, n):
            also = keep_best(others, more, also, n * n, p, worth)
    return found, also


@njit(cache=True, nogil=True)
def forced_block(work: Work, lines: Lines, stone: int, last: int, points: np.ndarray) -> int:
    """The point ``stone`` (the attacker, to move) must take after the defender's move
    ``last`` (-1: none): the defender's one five point, which a stone of the attacker's
    blocks; -1 if the defender has none, -2 if it has two (the attacker cannot block
    both).  A defender's answer that makes a four of its own ends a chain of threats only
    where the attacker's block is no threat: where it is a four too (a counter-four
    answered by a four), the chain goes on from it (a VCF of Rapfi's that the threat
    searches missed, so that a move that lost to it was taken for one that held)."""
    if last < 0 or not lines.counts[3 - stone, FIVE]:
        return -1
    found = five_points_near(work.board, last, 3 - stone, work.exact, points)
    if found >= 2:
        return -2
    return int(points[0]) if found == 1 else -1


@njit(
    INT(WORK, LINES, INT, types.boolean, INT, INT, INT, INT, INT, types.uint64),
    cache=True,
    nogil=True,
)
def threat_search(
    work: Work,
    lines: Lines,
    stone: int,
    threes: bool,
    limit: int,
    depth: int,
    last: int,
    threat: int,
    free: int,
    key: np.uint64,
) -> int:
    """A VCT of ``stone`` within ``depth`` of its moves (a VCF if not ``threes``) from the
    board whose key is ``key`` and whose patterns are ``lines`` (kept by ``play``).

    With ``last`` >= -1 the attacker is to move, the defender's last move being ``last``
    (-1 at the root): the first move of a VCT, or -1.  With ``last`` = -2 - p the defender
    is to move against the attacker's three made at p: 1 if every answer still loses to a
    VCT, else -1.  (One argument for both, because numba cannot cache a recursive call
    with a constant argument.)  ``threat`` is the attacker's last threat (-1 at the
    root) and ``free`` the threats it may still make anywhere (``FREE_THREATS`` at the
    root); past them its threes keep to ``threat``'s lines.  The attacker's fours, and
    the defender's answers, are all tried.  ``work`` holds the board, the table and the
    counters.  It gives up (-1) past ``limit`` nodes, so it never claims a win the
    answers counted escape: a defence that makes a five point of the defender's ends the
    chain (the attacker would have to answer it), unless the attacker's one answer to it
    is a threat of its own, then the only move tried (``forced_block``).

    The attacker's nodes go into the table: a win (with its move) holds at any depth, so
    a longer one found before may be returned; a finished failure holds for no more
    threats than it had (a failure is that of the threats tried: a VCT whose later
    threes leave their lines is missed, never one claimed that is not)."""
    board, near, exact, stop, stats, tt_keys, tt_data = work
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
            play(board, near, lines, q, 3 - stone)
            child = key ^ stone_key(q, 3 - stone)
            held = threat_search(work, lines, stone, threes, limit, depth, q, threat, free, child)
            play(board, near, lines, q, EMPTY)
            if held < 0:
                return -1
        fours, count = points, 0
        if makings(lines, 3 - stone, FOUR):  # else it has no four to make
            fours = np.empty(n * n, dtype=np.int64)
            count = threat_points(board, near, lines, 3 - stone, False, -1, -1, fours, fours)[0]
        for k in range(count):
            f = fours[k]
            play(board, near, lines, f, 3 - stone)
            found = five_points_near(board, f, 3 - stone, exact, points)
            held = found >= 2
            if found == 1:  # the attacker blocks; the three still stands, or not
                q = points[0]
                play(board, near, lines, q, stone)
                child = key ^ stone_key(f, 3 - stone) ^ stone_key(q, stone)
                held = (
                    threat_search(
                        work, lines, stone, threes, limit, depth, last, threat, free, child
                    )
                    < 0
                )
                play(board, near, lines, q, EMPTY)
            play(board, near, lines, f, EMPTY)
            if held:
                return -1
        return 1
    block = forced_block(work, lines, stone, last, points)
    if block == -2:
        return -1
    if not makings(lines, stone, OPEN_THREE if threes else FOUR):
        return -1  # no threat to make
    node = key ^ threat_tag(stone, threes)
    known, settled, stored = probe(tt_keys, tt_data, node, depth, 0, 1, False)
    if settled:
        return known if stored > 0 else -1
    hint = stats[HINT] if last == -1 else -1
    fours = np.empty(n * n, dtype=np.int64)
    others = np.empty(n * n, dtype=np.int64)
    in_line_of = threat if free == 0 else -1  # past the free threats, threes keep to it
    counts = threat_points(board, near, lines, stone, threes, in_line_of, hint, fours, others)
    left = max(0, free - 1)  # the free threats after this one
    for kind in range(2):  # fours before threes
        moves = fours if kind == 0 else others
        for k in range(counts[kind]):
            p = int(moves[k])
            if block >= 0 and p != block:
                continue
            play(board, near, lines, p, stone)
            child = key ^ stone_key(p, stone)
            won = False
            if kind == 0:
                found = five_points_near(board, p, stone, exact, points)
                won = found >= 2
                if found == 1:
                    q = points[0]
                    play(board, near, lines, q, 3 - stone)
                    child ^= stone_key(q, 3 - stone)
                    won = (
                        threat_search(
                            work, lines, stone, threes, limit, depth - 1, q, p, left, child
                        )
                        >= 0
                    )
                    play(board, near, lines, q, EMPTY)
            elif three_defences(board, p, stone, exact, points):
                won = (
                    threat_search(
                        work, lines, stone, threes, limit, depth - 1, -2 - p, p, left, child
                    )
                    >= 0
                )
            play(board, near, lines, p, EMPTY)
            if won:
                store(tt_keys, tt_data, node, depth, 1, 0, 1, p, True, stats[GENERATION])
                return p
    if not (stop[0] or stats[VCF_NODES] > limit):  # a failure that was not cut short
        store(tt_keys, tt_data, node, depth, 0, 0, 1, NO_MOVE, False, stats[GENERATION])
    return -1


@njit(types.boolean(WORK, LINES, INT, INT, INT, INT), cache=True, nogil=True)
def line_vcf(work: Work, lines: Lines, stone: int, depth: int, limit: int, only: int) -> bool:
    """Whether ``stone``, to move, has a VCF of at most ``depth`` fours, the opponent
    having no five point but ``only`` (-1: none), the one point a four may then be made
    on (``forced_block``): the main search's VCF at its leaves, found in ``limit`` of the
    threat searches' nodes at most (no means none found).

    Cheaper than ``threat_search``'s VCF by far, since it reads the patterns ``play`` keeps
    (a four is a point whose pattern is ``FOUR`` or better on a line, found in one pass)
    instead of counting every window at every node.  The five points are counted on the
    board, under the game's five rule: two after a four win; a defence that makes a five
    point of the defender's ends the line unless the attacker's block is a four too."""
    board, near, exact, stop, stats = work.board, work.near, work.exact, work.stop, work.stats
    stats[VCF_NODES] += 1
    if stop[0] or depth <= 0 or stats[VCF_NODES] > limit or not makings(lines, stone, FOUR):
        return False
    n = board.shape[0]
    table, keys = lines.table, lines.keys
    points = np.empty(8, dtype=np.int64)
    for p in range(n * n):
        if near[p // n, p % n] == 0 or board[p // n, p % n] != EMPTY or 0 <= only != p:
            continue
        four = False
        for d in range(4):
            four = four or table[stone, keys[4 * p + d]] >= FOUR
        if not four:
            continue
        play(board, near, lines, p, stone)
        found = five_points_near(board, p, stone, exact, points)
        won = found >= 2
        if found == 1:
            q = points[0]
            play(board, near, lines, q, 3 - stone)
            block = forced_block(work, lines, stone, q, points)
            if block != -2:
                won = line_vcf(work, lines, stone, depth - 1, limit, block)
            play(board, near, lines, q, EMPTY)
        play(board, near, lines, p, EMPTY)
        if won:
            return True
    return False


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
    stats = new_stats(0, 0, 0, hint)
    work = Work(board, nearness(board), state.game.exact, stop, stats, *table)
    lines = lines_of(board, pattern_table(), NO_WEIGHTS)
    key = board_key(board)
    found = threat_search(work, lines, stone, threes, nodes, depth, -1, -1, FREE_THREATS, key)
    return int(found), int(stats[VCF_NODES])
