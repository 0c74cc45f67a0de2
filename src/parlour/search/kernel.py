"""The alpha-beta kernel of the engine (``parlour.search.engine``): negamax with a
transposition table, move ordering and a stop flag, compiled with numba and run without
the GIL; and plain minimax, the reference the tests hold it to.

It is written once for every game: a game's rules reach it only through the game's
search adapters (their contract: ``parlour.search.adapters``), bound by the import line
marked ``ADAPTERS`` (as ``game``).  This file is a template: :func:`parlour.search.engine.kernels`
writes a copy of it for each game, that line naming the game's module, into the cache
folder and imports it from there, so that numba compiles and caches each game's search
under its own file (numba names its cache files after the source file; functions passed
as arguments or closed over are not cached across processes).  A position is an int64
row of the search's stack, one row a ply.

Values are in the game's units (seeds, tokens), from the point of view of the side to
move.  A move that leaves the same side to move (an extra turn) does not negate the
child's value.  The transposition table stores a node's value *minus its current score*,
since in the sowing games the stores never change the future: positions that differ only
in their stores share an entry.  An entry whose subtree reached the end of every line is
marked complete; a search that used only complete values and met no depth horizon has
found the exact value with perfect play.

A game may bring knowledge beyond its rules through two more adapters: ``search_ending``
(the value of a position with at most ``ending_seeds`` seeds outside the stores, read from
an endgame table) and ``search_estimate`` (a learned estimate added at the horizon), with
``search_knowledge`` giving their arrays (the sowing games'); a game without them gets
none: ``ending_seeds`` -1 and no weights.  Nothing here names a game.
"""

from __future__ import annotations

import numpy as np
from numba import njit

import parlour.search.adapters as game  # ADAPTERS
from parlour.search.shared import Shared
from parlour.search.table import NO_MOVE, lookup, probe, store, unpack

_moves, _play, _to_move = game.search_moves, game.search_play, game.search_to_move
_score, _seeds, _stored = game.search_score, game.search_seeds, game.search_stored
_key, _order = game.search_key, game.search_order
_free_turns = getattr(game, "SEARCH_FREE_TURNS", False)


@njit(cache=True, nogil=True)
def _no_ending(pos: np.ndarray, ending: np.ndarray, choose: np.ndarray) -> int:
    return 0  # never called: a game without a table has ending_seeds -1


@njit(cache=True, nogil=True)
def _no_estimate(pos: np.ndarray, weights: np.ndarray, scratch: np.ndarray) -> int:
    return 0


_ending = getattr(game, "search_ending", _no_ending)
_estimate = getattr(game, "search_estimate", _no_estimate)

MAX_PLY = 128
MAX_MOVES = 16
INFINITY = 1 << 20
WHOLE = (-INFINITY, INFINITY)
ASPIRATION = 2
"""Each depth after the first searches first within this many seeds of the last depth's
value (a narrower window cuts more), and again on the whole window only if the value
falls outside: fewer nodes to a fixed depth than the whole window or 1 or 3 seeds, on
``benchmarks/engine_depth.py``'s positions (see benchmarks/results/engine_depth.jsonl)."""
UNTABLED = 2
"""Nodes this close to the horizon neither read nor write the transposition table: their
subtrees cost less to search again than the table's memory traffic (a fixed depth takes
less time than with 0, 1 or 3 plies; see benchmarks/results/engine_depth.jsonl)."""
TABLE_MOVE, GUESS = 1 << 62, 1 << 50
"""Move ordering's scores: the table's move first, then ``_order``'s guess, and within
one guess the moves that caused the most cut-offs so far in this iteration (weighted by
the depth left; the "history heuristic", which saves nodes and time to a fixed depth: see
benchmarks/results/engine_depth.jsonl)."""

# info array: counters shared by the kernels and read by Python between iterations.
NODES = 0
HORIZON = 1
ABORTED = 2
BEST = 3
GENERATION = 4
INFO_SIZE = 5

# the phases of the unrolled search
ENTER, NEXT, RETURN = 0, 1, 2


@njit(cache=True, nogil=True)
def _tabled(left: int, ply: int) -> bool:
    """Whether a node ``left`` plies from the horizon reads and writes the table: the root
    always (its best move), the others unless within ``UNTABLED`` plies."""
    return left > UNTABLED or ply == 0


@njit(cache=True, nogil=True)
def _sort_by_score(scores: np.ndarray, count: int, out: np.ndarray) -> None:
    """The indexes 0..count-1 into ``out``, highest score first, ties in index order: an
    insertion sort, as a node has few moves and sorting must not allocate."""
    for i in range(count):
        j = i
        while j > 0 and scores[out[j - 1]] < scores[i]:
            out[j] = out[j - 1]
            j -= 1
        out[j] = i


@njit(cache=True, nogil=True)
def search_depth(
    root: np.ndarray,
    hist: np.ndarray,
    rules: int,
    depth: int,
    lower: int,
    upper: int,
    strict: bool,
    shared: Shared,
) -> int:
    """One iteration of negamax alpha-beta: the root's value at ``depth`` plies; its best
    move lands in info[BEST].

    An extra turn uses no depth where the game's ``SEARCH_FREE_TURNS`` says so (and not
    when ``strict``, whose depth is plain minimax's): the mover's turn goes on, and the
    evaluation at the horizon (the store difference, plus the estimate of ``weights``
    where there are any) is at its least telling in the middle of a turn.  Elsewhere, as
    in Ayo, where the same side moves again only when the other must pass, a move costs a
    ply whoever moves next: a player left without moves for many turns would otherwise
    give the other a tree with no horizon.

    The recursion is unrolled onto per-ply arrays (numba cannot cache recursive code):
    ``ENTER`` looks at a new node, ``NEXT`` plays its next child, ``RETURN`` hands a value
    to the parent.
    """
    tt_keys, tt_data, info, stop, ending, choose, ending_seeds, weights = shared
    stack = np.empty((MAX_PLY + 1, root.shape[0]), dtype=np.int64)
    moves = np.empty((MAX_PLY + 1, MAX_MOVES), dtype=np.int64)
    order = np.empty((MAX_PLY + 1, MAX_MOVES), dtype=np.int64)
    scores = np.empty(MAX_MOVES, dtype=np.int64)
    cutoffs = np.zeros((2, MAX_MOVES), dtype=np.int64)  # by side and move
    count = np.zeros(MAX_PLY + 1, dtype=np.int64)
    tried = np.zeros(MAX_PLY + 1, dtype=np.int64)
    alpha = np.zeros(MAX_PLY + 1, dtype=np.int64)
    beta = np.zeros(MAX_PLY + 1, dtype=np.int64)
    alpha_in = np.zeros(MAX_PLY + 1, dtype=np.int64)
    best = np.zeros(MAX_PLY + 1, dtype=np.int64)
    best_move = np.zeros(MAX_PLY + 1, dtype=np.int64)
    base = np.zeros(MAX_PLY + 1, dtype=np.int64)
    keys = np.zeros(MAX_PLY + 1, dtype=np.uint64)
    horizon_in = np.zeros(MAX_PLY + 1, dtype=np.int64)
    same_side = np.zeros(MAX_PLY + 1, dtype=np.bool_)
    leaf = np.zeros(MAX_PLY + 1, dtype=np.bool_)
    left = np.zeros(MAX_PLY + 1, dtype=np.int64)  # depth still to search at each ply
    left[0] = depth
    events = np.zeros(1, dtype=np.int64)
    scratch = np.empty(4 * MAX_MOVES, dtype=np.int64)  # the estimate's feature indexes
    stack[0, :] = root
    alpha[0], beta[0] = lower, upper
    info[HORIZON] = 0
    info[ABORTED] = 0
    total = _seeds(root)
    ply, mode, value = 0, ENTER, 0
    while True:
        if mode == ENTER:
            info[NODES] += 1
            if info[NODES] & 1023 == 0 and stop[0] != 0:
                info[ABORTED] = 1
                return 0
            pos = stack[ply]
            me = _to_move(pos)
            base[ply] = _score(pos) if me == 0 else -_score(pos)
            count[ply] = 0 if leaf[ply] else _moves(pos, moves[ply])
            mode = RETURN
            value = base[ply]
            if count[ply] == 0:
                continue
            if ply > 0 and total - _stored(pos) <= ending_seeds:
                value = base[ply] + _ending(pos, ending, choose)
                continue
            if left[ply] == 0 or ply + 1 >= MAX_PLY:
                info[HORIZON] += 1
                value = base[ply] + _estimate(pos, weights, scratch)
                continue
            tt_move, settled, stored = NO_MOVE, 0, 0
            if _tabled(left[ply], ply):
                keys[ply] = _key(pos)
                window = alpha[ply] - base[ply], beta[ply] - base[ply]
                tt_move, settled, stored = probe(
                    tt_keys, tt_data, keys[ply], left[ply], *window, strict
                )
            if settled and ply > 0:  # the root must find its best move
                info[HORIZON] += settled == 1
                value = stored + base[ply]
                continue
            # order: the table's move, then by _order's guess, then by the history of
            # cut-offs; stable (fixed order on ties)
            for i in range(count[ply]):
                move = moves[ply, i]
                guess = _order(pos, move) * GUESS + cutoffs[me, move]
                scores[i] = TABLE_MOVE if move == tt_move else guess
            _sort_by_score(scores, count[ply], order[ply])
            tried[ply] = 0
            alpha_in[ply] = alpha[ply]
            horizon_in[ply] = info[HORIZON]
            best[ply] = -INFINITY
            best_move[ply] = moves[ply, order[ply, 0]]
            mode = NEXT
        elif mode == NEXT:
            if tried[ply] == count[ply] or alpha[ply] >= beta[ply]:
                if _tabled(left[ply], ply):
                    store(
                        tt_keys,
                        tt_data,
                        keys[ply],
                        left[ply],
                        best[ply] - base[ply],
                        alpha_in[ply] - base[ply],
                        beta[ply] - base[ply],
                        best_move[ply],
                        info[HORIZON] == horizon_in[ply],
                        info[GENERATION],
                    )
                value = best[ply]
                mode = RETURN
                continue
            move = moves[ply, order[ply, tried[ply]]]
            tried[ply] += 1
            child = stack[ply + 1]
            child[:] = stack[ply]
            leaf[ply + 1] = _play(child, hist, move, rules, events)
            same_side[ply + 1] = _to_move(child) == _to_move(stack[ply])
            free = same_side[ply + 1] and _free_turns and not strict
            left[ply + 1] = left[ply] - (0 if free else 1)
            if same_side[ply + 1]:
                alpha[ply + 1], beta[ply + 1] = alpha[ply], beta[ply]
            else:
                alpha[ply + 1], beta[ply + 1] = -beta[ply], -alpha[ply]
            ply += 1
            mode = ENTER
        else:  # RETURN: the node at ``ply`` is worth ``value``
            if ply == 0:
                info[BEST] = best_move[0]
                return value
            if not same_side[ply]:
                value = -value
            ply -= 1
            if value > best[ply]:
                best[ply] = value
                best_move[ply] = moves[ply, order[ply, tried[ply] - 1]]
            alpha[ply] = max(alpha[ply], value)
            if alpha[ply] >= beta[ply]:  # a cut-off: deeper ones are worth more
                cutoffs[_to_move(stack[ply]), best_move[ply]] += left[ply] ** 2
            mode = NEXT


@njit(cache=True, nogil=True)
def principal_variation(
    root: np.ndarray,
    hist: np.ndarray,
    rules: int,
    tt_keys: np.ndarray,
    tt_data: np.ndarray,
    out: np.ndarray,
) -> int:
    """Follow the table's best moves from ``root``; the number of moves written to ``out``."""
    pos = root.copy()
    moves = np.empty(MAX_MOVES, dtype=np.int64)
    events = np.zeros(1, dtype=np.int64)
    length = 0
    while length < out.shape[0]:
        count = _moves(pos, moves)
        found, entry = lookup(tt_keys, tt_data, _key(pos))
        if count == 0 or not found:
            break
        move = unpack(entry)[3]
        legal = False
        for i in range(count):
            if moves[i] == move:
                legal = True
        if not legal:
            break
        out[length] = move
        length += 1
        if _play(pos, hist, move, rules, events):
            break
    return length


@njit(cache=True, nogil=True)
def minimax(root: np.ndarray, hist: np.ndarray, rules: int, depth: int) -> int:
    """Plain minimax (no pruning, no table) to ``depth`` plies, from the side to move's
    point of view: the independent reference the tests hold the alpha-beta search to."""
    stack = np.empty((depth + 1, root.shape[0]), dtype=np.int64)
    moves = np.empty((depth + 1, MAX_MOVES), dtype=np.int64)
    count = np.zeros(depth + 1, dtype=np.int64)
    tried = np.zeros(depth + 1, dtype=np.int64)
    best = np.zeros(depth + 1, dtype=np.int64)
    events = np.zeros(1, dtype=np.int64)
    stack[0, :] = root
    ply = 0
    count[0] = _moves(root, moves[0]) if depth > 0 else 0
    best[0] = -INFINITY
    while True:
        pos = stack[ply]
        me = _to_move(pos)
        if count[ply] == 0:  # a leaf: its score is its value
            value = _score(pos) if me == 0 else -_score(pos)
        elif tried[ply] < count[ply]:
            child = stack[ply + 1]
            child[:] = pos
            ended = _play(child, hist, moves[ply, tried[ply]], rules, events)
            tried[ply] += 1
            ply += 1
            count[ply] = _moves(child, moves[ply]) if ply < depth and not ended else 0
            tried[ply] = 0
            best[ply] = -INFINITY
            continue
        else:
            value = best[ply]
        if ply == 0:
            return value
        ply -= 1
        if _to_move(stack[ply]) != me:
            value = -value
        best[ply] = max(best[ply], value)
