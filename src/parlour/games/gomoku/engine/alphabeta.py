"""Alpha-beta: principal variation search over the best-looking moves near the stones."""

from __future__ import annotations

import numpy as np
from numba import njit, types

from parlour.games.gomoku.engine.board import (
    GENERATION,
    INT,
    LATE,
    LEAF_VCF,
    MAX_PLY,
    NODE_LIMIT,
    NODES,
    PRUNE,
    UNSEARCHED,
    VCF_NODES,
    WIN,
    WORK,
    Work,
    board_key,
    five_points_near,
    nearness,
    new_stats,
    stone_key,
    window_fills,
)
from parlour.games.gomoku.engine.levels import (
    LATE_MOVES,
    LATE_PLY,
    LEAF_VCF_DEPTH,
    LEAF_VCF_FOURS,
    LEAF_VCF_NODES,
    PRUNE_MOVES,
)
from parlour.games.gomoku.engine.patterns import (
    FIVE,
    FOUR,
    LINES,
    OPEN_THREE,
    Lines,
    likeliest,
    likeliest_on,
    lines_of,
    lines_value,
    makings,
    move_class,
    pattern_table,
    play,
    threatens,
)
from parlour.games.gomoku.engine.shapes import three_defences
from parlour.games.gomoku.engine.threats import line_vcf
from parlour.games.gomoku.engine.weights import weights as default_weights
from parlour.games.gomoku.game import EMPTY, GomokuState
from parlour.search.table import Table, probe, store


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


@njit(cache=True, nogil=True)
def leaf_value(work: Work, lines: Lines, stone: int, ply: int, principal: bool) -> int:
    """A leaf's value for ``stone``, to move, neither side having a five point: a win if
    it has a VCF of at most ``LEAF_VCF_DEPTH`` fours found in ``stats[LEAF_VCF]`` nodes
    (``line_vcf``), else its patterns' value.  A VCF is a proven win, counted as won
    three plies on at least.  It is looked for only at a leaf of a ``principal``
    (whole-window) search, where ``LEAF_VCF_FOURS`` fours could be made: the null-window
    leaves are most of a search, and looking at them all cost it more than half its speed
    and lost games at 0.1 s a move (``benchmarks/results/gomoku_selfplay.jsonl``)."""
    stats = work.stats
    budget = stats[LEAF_VCF]
    if (
        budget
        and principal
        and makings(lines, stone, FOUR) >= LEAF_VCF_FOURS
        and line_vcf(work, lines, stone, LEAF_VCF_DEPTH, stats[VCF_NODES] + budget, -1)
    ):
        return max(WIN - ply - 3, WIN - MAX_PLY)
    return lines_value(lines, stone)


@njit(INT(WORK, LINES, INT, INT, INT, INT, INT, INT, INT, types.uint64), cache=True, nogil=True)
def negamax(
    work: Work,
    lines: Lines,
    width: int,
    stone: int,
    depth: int,
    alpha: int,
    beta: int,
    ply: int,
    last: int,
    key: np.uint64,
) -> int:
    """The value for ``stone`` (to move) of the position, whose patterns are ``lines``
    and whose table key is ``key``, after the opponent's move ``last``.

    Neither side has a five point but those ``last`` made: the root answers every five
    point it finds, and each node answers the opponent's at once (a single one is the only
    move, two or more are lost), so a side never comes to move with a five point of its
    own.  That is why only the lines through ``last`` are looked at.  Moves after the
    first are tried with a null window first (principal variation search), the table's
    move first of all.  ``width`` moves at most are searched at a node, unless they all
    lose by force: then every point near the stones, so that a loss (and one ply up, a win)
    is never claimed where a move ranked lower holds.
    """
    board, near, exact, stop, stats, tt_keys, tt_data = work
    stats[NODES] += 1
    if 0 < stats[NODE_LIMIT] <= stats[NODES] + stats[VCF_NODES]:
        stop[0] = 1
    if stop[0]:
        return 0
    points = np.empty(8, dtype=np.int64)
    # the opponent's five points are all on windows through ``last`` (see above), holding
    # four of its stones; its three too, holding three.  Where its patterns show neither a
    # five point nor an open four anywhere (at most nodes), there is none to look for
    fills = window_fills(board, last, 3 - stone) if threatens(lines, 3 - stone) else 0
    threats = five_points_near(board, last, 3 - stone, exact, points) if fills & 16 else 0
    if threats >= 2:
        return -(WIN - ply - 1)
    defences = 0
    if threats == 1:
        depth += 1  # the only move, so it costs no depth
    elif ply >= MAX_PLY:
        return lines_value(lines, stone)
    else:
        defences = three_defences(board, last, 3 - stone, exact, points) if fills & 8 else 0
        if defences:  # the answers to a three cost no depth, as a four's answer does:
            depth += 1  # a chain of threes is seen twice as far, and never cut off
        elif depth <= 0:
            return leaf_value(work, lines, stone, ply, beta - alpha > 1)
    window = (to_table(alpha, ply), to_table(beta, ply))
    known, settled, stored = probe(tt_keys, tt_data, key, depth, *window, False)
    if settled:
        return from_table(stored, ply)
    # the table's move is tried before the others are found: when it cuts the node off,
    # as it mostly does where the table has one, the scoring of every point near the
    # stones that finding them takes (most of a node's cost) is saved
    n = board.shape[0]
    first = -1
    if threats == 1:
        moves = points[:1].copy()
    elif 0 <= known < n * n and board[known // n, known % n] == EMPTY:
        first = known
        moves = points[:0]  # found after it, if it does not cut off
    else:
        moves = likeliest(board, near, lines, stone, width, points[:defences])
        if moves.shape[0] == 0:
            return 0  # the board is full: a draw
    generated = first < 0
    widened = False
    late = stats[LATE]
    # near the horizon, a node with nothing to answer searches its quiet moves only
    # after the first ``prune`` a ply of depth left (late-move pruning)
    prune = stats[PRUNE] * depth if depth <= 2 and not defences and threats == 0 else 0
    alpha_in = alpha
    best = UNSEARCHED
    best_move = first
    searched = 0
    i = -1 if first >= 0 else 0
    while True:
        if i < 0:
            q = first
        else:
            if not generated:
                moves = likeliest(board, near, lines, stone, width, points[:defences])
                generated = True
            if i >= moves.shape[0]:
                # every move looked at loses by force: no proof while a point near the
                # stones beyond the ``width`` likeliest is left, which may hold (such a
                # node was taken for lost, and a win claimed one ply up, that a move
                # ranked below the width refuted).  So they are all tried, the first
                # ones again (from the table, mostly)
                if widened or threats == 1 or moves.shape[0] < width or best > -WIN + MAX_PLY:
                    break
                moves = likeliest(board, near, lines, stone, n * n, points[:defences])
                widened = True
                i = 0
                continue
            q = moves[i]
            if q == first:
                i += 1
                continue
        # a late move that makes no four or open three and blocks no four is left out
        # near the horizon (late-move pruning), else searched shallower first: a ply, two
        # if it touches no three either (late-move reductions; at a node with no four or
        # three to answer, deep enough that the reduced search still looks past a reply,
        # and ``LATE_PLY`` from the root at least)
        late_move = (
            not defences
            and ply >= LATE_PLY
            and (0 < prune <= searched or (0 < late <= searched and depth >= 3))
        )
        kind = move_class(lines, q, stone) if late_move else FIVE  # none asked: no lookups
        reduced = 0
        if kind < FOUR and 0 < prune <= searched:
            i += 1
            continue
        if kind < FOUR and 0 < late <= searched and depth >= 3:
            reduced = 1 + (kind < OPEN_THREE and searched >= 2 * late and depth >= 4)
        play(board, near, lines, q, stone)
        child_key = key ^ stone_key(q, stone)
        score = alpha + 1
        if reduced:
            score = -negamax(
                work, lines, width, 3 - stone, depth - 1 - reduced, -alpha - 1, -alpha, ply + 1, q,
                child_key,
            )  # fmt: skip
        # after the first move, a null window: does q beat the best so far?  Only if it
        # does, inside (alpha, beta), is it searched again on the whole window
        if score > alpha:
            score = -negamax(
                work, lines, width, 3 - stone, depth - 1,
                -alpha - 1 if searched else -beta, -alpha, ply + 1, q, child_key,
            )  # fmt: skip
        if searched and alpha < score < beta:
            score = -negamax(
                work, lines, width, 3 - stone, depth - 1, -beta, -alpha, ply + 1, q,
                child_key,
            )  # fmt: skip
        play(board, near, lines, q, EMPTY)
        if stop[0]:
            return 0
        searched += 1
        if score > best:
            best, best_move = score, q
        if best > alpha:
            alpha = best
        if alpha >= beta:
            break
        i += 1
    window = (to_table(alpha_in, ply), to_table(beta, ply))
    generation = stats[GENERATION]
    store(tt_keys, tt_data, key, depth, to_table(best, ply), *window, best_move, False, generation)
    return best


@njit(
    INT[::1](WORK, types.int8[:, ::1], INT[:, ::1], INT, INT[::1], INT, INT),
    cache=True,
    nogil=True,
)
def search_root(
    work: Work,
    table: np.ndarray,
    weights: np.ndarray,
    stone: int,
    moves: np.ndarray,
    depth: int,
    width: int,
) -> np.ndarray:
    """The values of ``moves`` for ``stone`` searched ``depth`` plies deep, the first
    exactly and the others as bounds (a move no better than the best so far gets the best
    or less), each after the first on a null window first (is it better than the best so
    far?), and on the whole window above the best only if it is.  The position has no five
    point of either side; ``table`` is the patterns', ``weights`` their values at the
    leaves (``weights``).  Stopped, the moves not searched to
    the end, the one the stop cut short among them, are worth ``UNSEARCHED``."""
    board, near, stop = work.board, work.near, work.stop
    lines = lines_of(board, table, weights)
    key = board_key(board)
    scores = np.full(moves.shape[0], UNSEARCHED, dtype=np.int64)
    alpha = UNSEARCHED
    for i in range(moves.shape[0]):
        q = moves[i]
        play(board, near, lines, q, stone)
        child = key ^ stone_key(q, stone)
        score = alpha + 1
        if i:
            score = -negamax(
                work, lines, width, 3 - stone, depth - 1, -alpha - 1, -alpha, 1, q, child
            )
        if score > alpha:
            score = -negamax(
                work, lines, width, 3 - stone, depth - 1, UNSEARCHED, -alpha, 1, q, child
            )
        scores[i] = score
        play(board, near, lines, q, EMPTY)
        if stop[0]:
            scores[i] = UNSEARCHED
            break
        alpha = max(alpha, scores[i])
    return scores


def deepen(
    state: GomokuState,
    depth: int,
    table: Table,
    width: int,
    leaf_vcf: int = LEAF_VCF_NODES,
    late: int = LATE_MOVES,
    prune: int = PRUNE_MOVES,
    weights: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, int]:
    """The main search's iterative deepening from ``state`` to ``depth`` over its ``width``
    likeliest moves, with no clock and no threat search (but a leaf's VCF of ``leaf_vcf``
    nodes, reductions after ``late`` moves and pruning after ``prune``; leaves valued by
    ``weights``, by default the shipped ones): the last depth's
    scores, the moves best first, and the nodes (the main search's and its leaves' VCFs').
    For analysis and tests: a move's search goes through the driver, which adds the clock
    and the threats."""
    board, stone = state.board.copy(), state.to_move + 1
    near = nearness(board)
    moves = likeliest_on(board, near, stone, width)
    stop, stats = np.zeros(1, dtype=np.uint8), new_stats(0, leaf_vcf, late, prune=prune)
    work = Work(board, near, state.game.exact, stop, stats, *table)
    scores = np.zeros(0, dtype=np.int64)
    values = default_weights() if weights is None else weights
    for d in range(1, depth + 1):
        scores = search_root(work, pattern_table(), values, stone, moves, d, width)
        moves = moves[np.argsort(-scores, kind="stable")]
    return scores, moves, int(stats[NODES] + stats[VCF_NODES])
