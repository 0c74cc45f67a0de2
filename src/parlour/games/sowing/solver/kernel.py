"""The solver's kernel: a null-window alpha-beta search of a sowing position's gain, its
recursion unrolled onto per-ply arrays (as the engine's is), compiled with numba and run
without the GIL.

The future of a sowing position depends only on its pits and the side to move, so the
search works with a position's *gain*: what the side to move adds to its store difference
from here to the end with perfect play.  This is the quantity the endgame tables hold
(``parlour.games.sowing.endgame``), so a position with few seeds left in its pits is
looked up, not searched; and the transposition table (``solver.table``) is keyed on the
pits and the side to move alone, so that positions differing only in their stores share
an entry.

Each node tries, before searching any child, whether a child's bounds already in the
table prove a cut-off (enhanced transposition cut-offs), and whether the seeds left in
the pits already settle the question (a gain is never more than the seeds left, nor less
than their negative: a futility bound).  A child that ends the game or that the endgame
table holds is worth its value as soon as it is made: such children are taken first,
without a node of their own, and one of them settling the node cuts it off before
anything is searched.  The other moves are tried the table's best first, then extra
turns, then by what they take into the store.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from parlour.games.sowing import endgame, evaluation
from parlour.games.sowing import game as sowing
from parlour.games.sowing.solver.table import INF, NO_MOVE, PROVEN, lookup, store, work_of
from parlour.search.kernel import (
    ABORTED,
    BEST,
    ENTER,
    HORIZON,
    MAX_MOVES,
    NEXT,
    NODES,
    RETURN,
    _sort_by_score,
)
from parlour.search.shared import Shared

NEAR = 3
"""Nodes with at most this many seeds more than the endgame table holds neither read nor
write the transposition table (nor try their children there): their subtrees cost less
to search again than the table's cache misses."""
ETC = 8
"""Nodes with at most this many seeds more than the endgame table holds do not try their
children's bounds in the table: there a node's cut-offs pay less than its children's
cache misses."""


@njit(cache=True, nogil=True, inline="always")
def _in_pits(pos: np.ndarray, pits: int) -> int:
    return int(pos[: 2 * pits + 1].sum() - pos[pits])


@njit(cache=True, nogil=True, inline="always")
def _difference(pos: np.ndarray, pits: int, side: int) -> int:
    """``side``'s store less the other's."""
    d = pos[pits] - pos[2 * pits + 1]
    return int(d if side == 0 else -d)


@njit(cache=True, nogil=True, inline="always")
def _settled(
    child: np.ndarray, side: int, gained: int, ended: bool, ending: np.ndarray, choose: np.ndarray
) -> int:
    """What a move gaining ``gained`` is worth to ``side`` when its ``child`` ends the game
    (``ended``) or the endgame table ``ending`` holds it: no search needed."""
    if ended:
        return gained
    mover = child[child.shape[0] - 1]
    later = endgame.value(child, ending, choose)
    return int(gained + (later if mover == side else -later))


@njit(cache=True, nogil=True)
def longest(pos: np.ndarray, pits: int) -> int:
    """More plies than any line from ``pos`` lasts: every move takes seeds off the board
    or moves them nearer their store."""
    return _in_pits(pos, pits) * (pits + 1) + 2


@njit(cache=True, nogil=True, inline="always")
def _take(
    ply: int,
    i: int,
    through: int,
    best: np.ndarray,
    best_move: np.ndarray,
    alpha: np.ndarray,
    beta: np.ndarray,
    moves: np.ndarray,
    history: np.ndarray,
    info: np.ndarray,
    side: int,
) -> None:
    """The node at ``ply`` hears that its move ``i`` gains ``through``: its best so far,
    its alpha, the root's move proving a fail high and the history of cut-offs."""
    if through > best[ply]:
        best[ply] = through
        best_move[ply] = moves[ply, i]
        if ply == 0 and through >= beta[0]:
            info[BEST] = moves[0, i]
    alpha[ply] = max(alpha[ply], through)
    if alpha[ply] >= beta[ply]:
        history[side, moves[ply, i]] += 1


@njit(cache=True, nogil=True)
def null_window(
    root: np.ndarray,
    rules: int,
    lower: int,
    upper: int,
    depth: int,
    shared: Shared,
    helping: bool,
) -> int:
    """Fail-soft alpha-beta of ``root``'s gain in the window (lower, upper) (MTD(f) calls
    it with upper = lower + 1), ``depth`` plies deep (an extra turn free), on ``shared``'s
    transposition table, endgame table and stop flag; a node at the horizon is worth the
    learned estimate of ``shared.weights`` and counts in info[HORIZON]: a search that met
    none proved its bound.  The root's move proving a fail high lands in info[BEST].

    A search ``helping`` another of the same position on the same table tries each node's
    moves after the first in reverse order: where every move must be searched, the two
    work from either end and each finds the other's proofs in the table; where the first
    move cuts off, both take it.

    The recursion is unrolled onto per-ply arrays, as in the engine: ``ENTER`` looks at a
    node, ``NEXT`` searches its next child, ``RETURN`` hands a gain to the parent.
    """
    keys, data, info, stop = shared.keys, shared.data, shared.info, shared.stop
    ending, choose, ending_seeds = shared.ending, shared.choose, shared.ending_seeds
    weights = shared.weights
    pits = sowing.pit_count(root)
    width = root.shape[0]
    most = longest(root, pits)
    stack = np.empty((most, width), dtype=np.int64)
    children = np.empty((most, MAX_MOVES, width), dtype=np.int64)
    gained = np.zeros((most, MAX_MOVES), dtype=np.int64)  # the move's store difference
    turn = np.zeros((most, MAX_MOVES), dtype=np.bool_)  # the move keeps the turn
    ended = np.zeros((most, MAX_MOVES), dtype=np.bool_)
    known = np.zeros((most, MAX_MOVES), dtype=np.bool_)  # the move's worth is exact, here:
    worth = np.zeros((most, MAX_MOVES), dtype=np.int64)  # the game ends or the table holds it
    # each child's seeds in the pits and, once its bounds were looked up, its key: its
    # node, if searched, needs not find them again
    child_left = np.zeros((most, MAX_MOVES), dtype=np.int64)
    child_key = np.zeros((most, MAX_MOVES), dtype=np.uint64)
    child_keyed = np.zeros((most, MAX_MOVES), dtype=np.bool_)
    moves = np.zeros((most, MAX_MOVES), dtype=np.int64)
    order = np.zeros((most, MAX_MOVES), dtype=np.int64)
    scores = np.zeros(MAX_MOVES, dtype=np.int64)
    history = np.zeros((2, MAX_MOVES), dtype=np.int64)
    count = np.zeros(most, dtype=np.int64)
    tried = np.zeros(most, dtype=np.int64)
    alpha = np.zeros(most, dtype=np.int64)
    beta = np.zeros(most, dtype=np.int64)
    alpha_in = np.zeros(most, dtype=np.int64)
    best = np.zeros(most, dtype=np.int64)
    best_move = np.zeros(most, dtype=np.int64)
    hashes = np.zeros(most, dtype=np.uint64)
    keyed = np.zeros(most, dtype=np.bool_)  # hashes[ply] holds the node's key
    lefts = np.zeros(most, dtype=np.int64)  # the node's seeds in the pits
    started = np.zeros(most, dtype=np.int64)
    horizon_in = np.zeros(most, dtype=np.int64)
    left_depth = np.zeros(most, dtype=np.int64)
    tabled = np.zeros(most, dtype=np.bool_)
    scratch = np.empty(4 * MAX_MOVES, dtype=np.int64)
    stack[0, :] = root
    lefts[0] = _in_pits(root, pits)
    alpha[0], beta[0] = lower, upper
    left_depth[0] = depth
    info[ABORTED] = 0
    info[HORIZON] = 0
    ply, mode, value = 0, ENTER, 0
    while True:
        if mode == ENTER:
            info[NODES] += 1
            if info[NODES] & 1023 == 0 and stop[0] != 0:
                info[ABORTED] = 1
                return 0
            pos = stack[ply]
            side = pos[width - 1]
            mode = RETURN
            left = lefts[ply]
            if ply > 0 and left <= alpha[ply]:  # futility: no more than every seed left
                value = left
                continue
            if ply > 0 and -left >= beta[ply]:
                value = -left
                continue
            if left_depth[ply] == 0:
                info[HORIZON] += 1
                value = min(max(evaluation.estimate(pos, weights, scratch), -left), left)
                continue
            r = left_depth[ply]
            tabled[ply] = ply == 0 or left > ending_seeds + NEAR
            low, high, tt_move, sure = -INF, INF, NO_MOVE, True
            if tabled[ply]:
                if not keyed[ply]:
                    hashes[ply] = sowing.search_key(pos)
                low, high, tt_move, sure = lookup(keys, data, hashes[ply], r)
            if ply > 0 and (low >= beta[ply] or high <= alpha[ply] or low == high):
                value = low if low >= beta[ply] or low == high else high
                info[HORIZON] += not sure  # a bound of a shallower search
                continue
            count[ply] = 0
            cut = False
            before = _difference(pos, pits, side)
            for column in range(pits):
                if pos[sowing.pit_index(side, column, pits)] == 0:
                    continue
                i = count[ply]
                child = children[ply, i]
                child[:] = pos
                ended[ply, i] = (sowing.apply_move(child, column, rules) & sowing.GAME_OVER) != 0
                turn[ply, i] = child[width - 1] == side and not ended[ply, i]
                gained[ply, i] = _difference(child, pits, side) - before
                moves[ply, i] = column
                count[ply] += 1
                # a child the game ends in or the table holds is worth its value at once,
                # and may settle this node before any other child is searched
                child_left[ply, i] = _in_pits(child, pits)
                child_keyed[ply, i] = False
                known[ply, i] = ended[ply, i] or child_left[ply, i] <= ending_seeds
                if known[ply, i]:
                    worth[ply, i] = _settled(
                        child, side, gained[ply, i], ended[ply, i], ending, choose
                    )
                    if ply > 0 and worth[ply, i] >= beta[ply]:
                        value = worth[ply, i]
                        cut = True
                        break
                # enhanced transposition cut-off: a child's bounds may settle this node
                if (
                    ply > 0
                    and left > ending_seeds + ETC
                    and not ended[ply, i]
                    and child_left[ply, i] > ending_seeds + NEAR
                ):
                    child_key[ply, i] = sowing.search_key(child)
                    child_keyed[ply, i] = True
                    c_low, c_high, _, sure = lookup(
                        keys, data, child_key[ply, i], r - (0 if turn[ply, i] else 1)
                    )
                    through = gained[ply, i] + (c_low if turn[ply, i] else -c_high)
                    if through >= beta[ply]:
                        value = through
                        info[HORIZON] += not sure
                        cut = True
                        break
                scores[i] = (
                    (1 << 50 if known[ply, i] else 0)
                    + (1 << 40 if column == tt_move else 0)
                    + (1 << 30 if turn[ply, i] else 0)
                    + (gained[ply, i] << 20)
                    + history[side, column]
                )
            if cut:
                continue
            _sort_by_score(scores, count[ply], order[ply])
            if helping:
                a, b = 1, count[ply] - 1
                while a < b:
                    order[ply, a], order[ply, b] = order[ply, b], order[ply, a]
                    a, b = a + 1, b - 1
            tried[ply] = 0
            alpha_in[ply] = alpha[ply]
            best[ply] = -INF
            best_move[ply] = moves[ply, order[ply, 0]]
            started[ply] = info[NODES]
            horizon_in[ply] = info[HORIZON]
            mode = NEXT
        elif mode == NEXT:
            if tried[ply] == count[ply] or alpha[ply] >= beta[ply]:
                b = best[ply]
                if tabled[ply]:
                    proven = info[HORIZON] == horizon_in[ply]
                    store(
                        keys,
                        data,
                        hashes[ply],
                        b if b > alpha_in[ply] else -INF,
                        b if b < beta[ply] else INF,
                        best_move[ply],
                        work_of(info[NODES] - started[ply]),
                        PROVEN if proven else min(left_depth[ply], PROVEN - 1),
                    )
                value = b
                mode = RETURN
                continue
            i = order[ply, tried[ply]]
            tried[ply] += 1
            if known[ply, i]:
                _take(
                    ply,
                    i,
                    worth[ply, i],
                    best,
                    best_move,
                    alpha,
                    beta,
                    moves,
                    history,
                    info,
                    stack[ply, width - 1],
                )
                continue
            stack[ply + 1, :] = children[ply, i]
            lefts[ply + 1] = child_left[ply, i]
            keyed[ply + 1] = child_keyed[ply, i]
            hashes[ply + 1] = child_key[ply, i]
            g = gained[ply, i]
            if turn[ply, i]:
                alpha[ply + 1], beta[ply + 1] = alpha[ply] - g, beta[ply] - g
                left_depth[ply + 1] = left_depth[ply]
            else:
                alpha[ply + 1], beta[ply + 1] = g - beta[ply], g - alpha[ply]
                left_depth[ply + 1] = left_depth[ply] - 1
            ply += 1
            mode = ENTER
        else:  # RETURN: the node at ``ply`` gains ``value``
            if ply == 0:
                return value
            ply -= 1
            i = order[ply, tried[ply] - 1]
            through = gained[ply, i] + (value if turn[ply, i] else -value)
            _take(
                ply,
                i,
                through,
                best,
                best_move,
                alpha,
                beta,
                moves,
                history,
                info,
                stack[ply, width - 1],
            )
            mode = NEXT
