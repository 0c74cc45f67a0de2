"""The search engine of the sowing games: negamax alpha-beta with iterative deepening, a
transposition table, move ordering and a stop flag, compiled with numba and run without
the GIL.

It is written once for every game whose rules are numba kernels; the few places where a
game's rules are needed go through the adapter functions at the top (``_moves``,
``_play``, ``_score``, ``_key``, ``_order``), which dispatch on a game number.  A position
is an int64 row of the search's stack, one row a ply.

Values are in seeds (or tokens), from the point of view of the side to move.  An extra
turn is a move of the same player: the child's value is negated only when the side to
move changes.  The transposition table stores a node's value *minus its current score
difference*, since the stores never change the future of a sowing game: positions that
differ only in their stores share an entry.  An entry whose subtree reached the end of
every line is marked complete; a search that used only complete values and met no
depth horizon has found the exact value with perfect play.

The sowing games also read an endgame table (``parlour.search.endgame``): a position with
few enough seeds left in its pits is valued exactly, from the table, without searching on.
A position at the horizon is worth its store difference plus, where the rule set has one,
a learned estimate of what its pits hold (``parlour.search.evaluation``).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import cast

import numpy as np
from numba import njit

from parlour.core import State
from parlour.games import ayo, ayo_kernel, sowing
from parlour.search import SearchResult, Stop, endgame, evaluation
from parlour.search.table import NO_MOVE, lookup, mix, new_table, probe, store, unpack

SOWING, AYO = 0, 1

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
def _moves(game: int, pos: np.ndarray, out: np.ndarray) -> int:
    """Write the legal moves of ``pos`` into ``out``; their count (0 at the end)."""
    if game == AYO:
        return 0 if pos[ayo_kernel.OVER] else ayo_kernel.legal_moves(pos, out)
    pits = sowing.pit_count(pos)
    if sowing.is_over(pos):
        return 0
    player = pos[2 * pits + 2]
    count = 0
    for column in range(pits):
        if pos[sowing.pit_index(player, column, pits)] > 0:
            out[count] = column
            count += 1
    return count


@njit(cache=True, nogil=True)
def _play(
    game: int, pos: np.ndarray, hist: np.ndarray, move: int, rules: int, events: np.ndarray
) -> bool:
    """Play ``move`` in place; True when the search should stop there: the game is over,
    or (Ayo) the round is, whose deal the evaluation then values."""
    if game == AYO:
        return (ayo_kernel.apply_move(pos, hist, move, rules, events) & ayo_kernel.ROUND_END) != 0
    return (sowing.apply_move(pos, move, rules) & sowing.GAME_OVER) != 0


@njit(cache=True, nogil=True)
def _to_move(game: int, pos: np.ndarray) -> int:
    return int(pos[ayo_kernel.TO_MOVE] if game == AYO else pos[pos.shape[0] - 1])


@njit(cache=True, nogil=True)
def _score(game: int, pos: np.ndarray) -> int:
    """Player 0's score minus player 1's: the evaluation, and the exact value at the end.

    Sowing games: the stores.  Ayo: the tokens each player would hold if the round ended
    now (captured, and those in the houses they own), which carries over from one round to
    the next: a new round's deal (four tokens a house) is worth what bought it.
    """
    if game == AYO:
        held = pos[ayo_kernel.CAPTURED] - pos[ayo_kernel.CAPTURED + 1]
        for house in range(ayo_kernel.HOUSES):
            held += pos[house] if pos[ayo_kernel.OWNER + house] == 0 else -pos[house]
        return int(held)
    pits = sowing.pit_count(pos)
    return int(pos[pits] - pos[2 * pits + 1])


@njit(cache=True, nogil=True)
def _seeds(game: int, pos: np.ndarray) -> int:
    """The seeds of a sowing game, in the pits and the stores (Ayo: 0)."""
    return 0 if game == AYO else int(pos[: pos.shape[0] - 1].sum())


@njit(cache=True, nogil=True)
def _stored(game: int, pos: np.ndarray) -> int:
    """The seeds in a sowing game's stores (Ayo: 0): the rest are in the pits."""
    if game == AYO:
        return 0
    pits = sowing.pit_count(pos)
    return int(pos[pits] + pos[2 * pits + 1])


@njit(cache=True, nogil=True)
def _key(game: int, pos: np.ndarray) -> np.uint64:
    """A 64-bit hash of everything that decides the future.  Sowing games: the pits and
    the side to move, not the stores.  Ayo: houses, owners, captures (the eleventh group
    depends on them), the side to move and the round, not the history bounds."""
    if game == AYO:
        first, last, skipped = 0, ayo_kernel.HIST_FROM, -1
    else:
        pits = sowing.pit_count(pos)
        first, last, skipped = 0, 2 * pits + 1, pits
    h = mix(np.uint64(_to_move(game, pos) + 1))
    for i in range(first, last):
        if i != skipped:
            h = mix(h + np.uint64(pos[i]) + np.uint64(i << 8))
    return h


@njit(cache=True, nogil=True)
def _order(game: int, pos: np.ndarray, move: int) -> int:
    """A guess of how good ``move`` is, for trying it early.  Sowing games: an extra turn
    first, then a capture, then the rest (from the seed count, without playing the move).
    Ayo: a last token that makes four first."""
    if game == AYO:
        land = (move + pos[move]) % ayo_kernel.HOUSES
        return 1 if pos[move] < ayo_kernel.HOUSES and pos[land] == 3 else 0
    pits = sowing.pit_count(pos)
    player = pos[2 * pits + 2]
    start = sowing.pit_index(player, move, pits)
    seeds = pos[start]
    to_store = sowing.store_index(player, pits) - start
    if seeds == to_store:
        return 2
    land = start + seeds
    if seeds < to_store and pos[land] == 0:
        return 1
    return 0


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
    game: int,
    root: np.ndarray,
    hist: np.ndarray,
    rules: int,
    depth: int,
    lower: int,
    upper: int,
    tt_keys: np.ndarray,
    tt_data: np.ndarray,
    info: np.ndarray,
    stop: np.ndarray,
    strict: bool,
    ending: np.ndarray,
    choose: np.ndarray,
    ending_seeds: int,
    weights: np.ndarray,
) -> int:
    """One iteration of negamax alpha-beta: the root's value at ``depth`` plies; its best
    move lands in info[BEST].

    An extra turn uses no depth (unless ``strict``, whose depth is plain minimax's): the
    mover's turn goes on, and the evaluation at the horizon (the store difference, plus the
    estimate of ``weights`` where there are any) is at its least telling in the middle of a
    turn.

    The recursion is unrolled onto per-ply arrays (numba cannot cache recursive code):
    ``ENTER`` looks at a new node, ``NEXT`` plays its next child, ``RETURN`` hands a value
    to the parent.
    """
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
    total = _seeds(game, root)
    ply, mode, value = 0, ENTER, 0
    while True:
        if mode == ENTER:
            info[NODES] += 1
            if info[NODES] & 1023 == 0 and stop[0] != 0:
                info[ABORTED] = 1
                return 0
            pos = stack[ply]
            me = _to_move(game, pos)
            base[ply] = _score(game, pos) if me == 0 else -_score(game, pos)
            count[ply] = 0 if leaf[ply] else _moves(game, pos, moves[ply])
            mode = RETURN
            value = base[ply]
            if count[ply] == 0:
                continue
            if ply > 0 and total - _stored(game, pos) <= ending_seeds:
                value = base[ply] + ending[endgame.index(pos, choose), me]
                continue
            if left[ply] == 0 or ply + 1 >= MAX_PLY:
                info[HORIZON] += 1
                value = base[ply] + evaluation.estimate(pos, weights, scratch)
                continue
            tt_move, settled, stored = NO_MOVE, 0, 0
            if _tabled(left[ply], ply):
                keys[ply] = _key(game, pos)
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
                guess = _order(game, pos, move) * GUESS + cutoffs[me, move]
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
            leaf[ply + 1] = _play(game, child, hist, move, rules, events)
            same_side[ply + 1] = _to_move(game, child) == _to_move(game, stack[ply])
            left[ply + 1] = left[ply] - (0 if same_side[ply + 1] and not strict else 1)
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
                cutoffs[_to_move(game, stack[ply]), best_move[ply]] += left[ply] ** 2
            mode = NEXT


@njit(cache=True, nogil=True)
def principal_variation(
    game: int,
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
        count = _moves(game, pos, moves)
        found, entry = lookup(tt_keys, tt_data, _key(game, pos))
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
        if _play(game, pos, hist, move, rules, events):
            break
    return length


@njit(cache=True, nogil=True)
def minimax(game: int, root: np.ndarray, hist: np.ndarray, rules: int, depth: int) -> int:
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
    count[0] = _moves(game, root, moves[0]) if depth > 0 else 0
    best[0] = -INFINITY
    while True:
        pos = stack[ply]
        me = _to_move(game, pos)
        if count[ply] == 0:  # a leaf: its score is its value
            value = _score(game, pos) if me == 0 else -_score(game, pos)
        elif tried[ply] < count[ply]:
            child = stack[ply + 1]
            child[:] = pos
            ended = _play(game, child, hist, moves[ply, tried[ply]], rules, events)
            tried[ply] += 1
            ply += 1
            count[ply] = _moves(game, child, moves[ply]) if ply < depth and not ended else 0
            tried[ply] = 0
            best[ply] = -INFINITY
            continue
        else:
            value = best[ply]
        if ply == 0:
            return value
        ply -= 1
        if _to_move(game, stack[ply]) != me:
            value = -value
        best[ply] = max(best[ply], value)


@dataclass(frozen=True)
class KernelPosition:
    """A state as the kernels take it: the game number, the int64 position, the history
    buffer (Ayo's repetition keys, with room for a search's plies) and the rule flags."""

    game: int
    root: np.ndarray
    hist: np.ndarray
    rules: int

    def minimax(self, depth: int) -> int:
        """Plain minimax's value at ``depth`` plies, for the side to move."""
        return int(minimax(self.game, self.root, self.hist, self.rules, depth))


def kernel_position(state: State) -> KernelPosition:
    """``state`` for the kernels; TypeError for a game the engine does not play."""
    if isinstance(state, sowing.SowingState):
        no_history = np.zeros(1, dtype=np.int64)
        return KernelPosition(SOWING, state.board.astype(np.int64), no_history, state.game.rules)
    if isinstance(state, ayo.AyoState):
        hist = np.zeros(len(state.history) + MAX_PLY + 1, dtype=np.int64)
        hist[: len(state.history)] = state.history
        return KernelPosition(AYO, state.position.copy(), hist, state.game.max_rounds)
    raise TypeError(f"the engine does not play {state.game.name}")


Knowledge = tuple[np.ndarray, np.ndarray, int, np.ndarray]
"""What ``search_depth`` knows of a game beyond its rules: an endgame table (values,
binomials, seeds in the pits) and the learned estimate's weights."""
NO_ENDING = (np.zeros((1, 2), dtype=np.int8), np.zeros((1, 1), dtype=np.int64), -1)


class Engine:
    """An alpha-beta searcher with its own transposition table, kept between searches.

    ``search`` runs iterative deepening until ``depth`` or ``seconds`` (whichever comes
    first) or until the value is exact; the compiled search runs without the GIL, and a
    timer thread stops it through a flag array.
    """

    def __init__(
        self,
        table_bits: int = 20,
        strict: bool = False,
        threads: int = 1,
        endgame_entries: int = endgame.MAX_ENTRIES,
        learned: bool = True,
    ) -> None:
        """A table of 2**table_bits entries.  A ``strict`` engine's value at depth d is
        exactly plain minimax's at depth d (it counts every ply, and uses the table's values
        only from searches of that same depth); otherwise an extra turn uses no depth and
        deeper results are used too, which plays better.
        ``threads`` above 1 adds helper searches that fill the shared table ahead of the
        main one ("lazy SMP"): deeper in the same time, at the price of a choice among equal
        moves that may vary from run to run.  The sowing games' endgame tables hold at most
        ``endgame_entries`` positions (0: none; a strict engine reads none either).  A
        ``learned`` engine (the default) adds the learned estimate at its horizon, for the
        rule sets that have one; without it, or in a strict engine, a position at the
        horizon is worth its store difference alone (see ``parlour.search.evaluation``)."""
        self.strict = strict
        self.learned = learned
        self.threads = threads
        self.endgame_entries = endgame_entries
        self.tt_keys, self.tt_data = new_table(table_bits)
        self.generation = 0  # counts the searches, whose deep entries the next may replace

    def clear(self) -> None:
        self.tt_keys[:] = 0
        self.tt_data[:] = 0

    def search(
        self,
        state: State,
        depth: int | None = None,
        seconds: float | None = None,
        on_iteration: Callable[[SearchResult[int]], None] | None = None,
        stop: Stop | None = None,
    ) -> SearchResult[int]:
        """The best move of ``state`` (which must have one) and what the search found.

        On a clock (``seconds``), a position solved before time is up spends the rest
        choosing, among the moves that keep its exact value, the one that leaves the
        opponent most ways to go wrong (:meth:`_set_trap`).  Setting ``stop`` ends the
        search within a few thousand nodes, with the last depth it finished."""
        if state.is_over or not state.legal_moves():
            raise ValueError("the game is over: there is no move to search")
        limit = MAX_PLY - 1 if depth is None else max(1, min(depth, MAX_PLY - 1))
        self._knowledge(kernel_position(state))  # a first use builds the tables, off the clock
        flag = (stop or Stop()).attach(np.zeros(1, dtype=np.int64))
        self.generation += 1  # the trap's solves below belong to this search too
        timer = threading.Timer(seconds, flag.fill, args=(1,)) if seconds is not None else None
        if timer is not None:
            timer.daemon = True
            timer.start()
        try:
            result = self._deepen(state, limit, flag, on_iteration)
            if timer is not None and result.exact:
                result = self._set_trap(state, result, flag)
        finally:
            if timer is not None:
                timer.cancel()
        return result

    def _deepen(
        self,
        state: State,
        limit: int,
        stop: np.ndarray,
        on_iteration: Callable[[SearchResult[int]], None] | None = None,
    ) -> SearchResult[int]:
        """Iterative deepening to ``limit`` plies, until the value is exact or ``stop`` is
        set (depth 1 always finishes, so that there is a move to give)."""
        position = kernel_position(state)
        knowledge = self._knowledge(position)
        info = np.zeros(INFO_SIZE, dtype=np.int64)
        info[GENERATION] = self.generation
        started = time.perf_counter()
        result: SearchResult[int] | None = None
        helpers_stop = np.zeros(1, dtype=np.int64)
        helpers = [
            threading.Thread(
                target=self._help, args=(position, knowledge, limit, helpers_stop, n), daemon=True
            )
            for n in range(1, self.threads)
        ]
        for helper in helpers:
            helper.start()
        try:
            for d in range(1, limit + 1):
                flag = stop if d > 1 else np.zeros(1, dtype=np.int64)
                window = WHOLE
                if result is not None:  # aspiration: the last value, give or take a little
                    window = (result.value - ASPIRATION, result.value + ASPIRATION)
                value = self._iterate(position, knowledge, d, window, info, flag)
                if not info[ABORTED] and not window[0] < value < window[1]:
                    value = self._iterate(position, knowledge, d, WHOLE, info, flag)
                if info[ABORTED] and result is not None:
                    break
                result = self._result(position, value, d, info, started)
                if on_iteration is not None:
                    on_iteration(result)
                if result.exact or info[ABORTED]:
                    break
        finally:
            helpers_stop.fill(1)
            for helper in helpers:
                helper.join()
        assert result is not None
        return result

    def _knowledge(self, position: KernelPosition) -> Knowledge:
        """The endgame table (read from the cache folder, built there the first time) and
        the learned estimate the search reads for ``position``'s game, or none: Ayo, a
        strict engine (whose values are minimax's at its depth), or an engine without
        them."""
        if position.game != SOWING or self.strict:
            return (*NO_ENDING, evaluation.NONE)
        pits = sowing.pit_count(position.root)
        seeds = int(_seeds(SOWING, position.root))
        weights = evaluation.NONE
        if self.learned and seeds % (2 * pits) == 0:
            weights = evaluation.weights_for(pits, seeds // (2 * pits), position.rules)
        if not self.endgame_entries:
            return (*NO_ENDING, weights)
        found = endgame.table(
            pits, position.rules, min(endgame.seeds_within(pits, self.endgame_entries), seeds)
        )
        return found.values, found.choose, found.seeds, weights

    def _set_trap(
        self, state: State, result: SearchResult[int], stop: np.ndarray
    ) -> SearchResult[int]:
        """Among the moves worth the solved ``result``'s value, the one after which the
        most of the opponent's replies lose it something: against a player that can err, a
        drawn or won position is best steered where erring is easy.  Every value here is
        exact (solving is quick: the table holds the root's proof); if time runs out
        first, ``result`` stands."""
        sign = 1 if state.to_move == 0 else -1
        best, most = result.move, 0
        for move in state.legal_moves():
            child = state.play(move)
            if self._margin(child, stop) != sign * result.value:
                continue
            if child.is_over or child.to_move == state.to_move:
                continue
            margins = [self._margin(child.play(reply), stop) for reply in child.legal_moves()]
            if stop[0]:
                return result
            errors = sum(sign * m > result.value for m in margins if m is not None)
            if errors > most:
                best, most = cast(int, move), errors  # the sowing games' moves are ints
        return result if best == result.move else replace(result, move=best, pv=(best,))

    def _margin(self, state: State, stop: np.ndarray) -> int | None:
        """Player 0's final margin with perfect play from ``state``, or None if time ran out
        before the search proved it."""
        if state.is_over:
            position = kernel_position(state)
            return int(_score(position.game, position.root))
        found = self._deepen(state, MAX_PLY - 1, stop)
        if not found.exact:
            return None
        return found.value if state.to_move == 0 else -found.value

    def _help(
        self,
        position: KernelPosition,
        knowledge: Knowledge,
        limit: int,
        stop: np.ndarray,
        number: int,
    ) -> None:
        """A helper thread: deepen from one ply ahead of the main search (odd helpers two),
        filling the shared table, until told to stop."""
        info = np.zeros(INFO_SIZE, dtype=np.int64)
        info[GENERATION] = self.generation
        hist = position.hist.copy()  # the kernels write the history beyond its live part
        for d in range(1 + number % 2 + 1, limit + 1):
            self._iterate(position, knowledge, d, WHOLE, info, stop, hist)
            if info[ABORTED]:
                break

    def _iterate(
        self,
        position: KernelPosition,
        knowledge: Knowledge,
        depth: int,
        window: tuple[int, int],
        info: np.ndarray,
        stop: np.ndarray,
        hist: np.ndarray | None = None,
    ) -> int:
        """One iteration of the compiled search at ``depth`` within ``window``; ``hist``
        replaces the position's history (a helper thread's own copy)."""
        return int(
            search_depth(
                position.game,
                position.root,
                position.hist if hist is None else hist,
                position.rules,
                depth,
                window[0],
                window[1],
                self.tt_keys,
                self.tt_data,
                info,
                stop,
                self.strict,
                *knowledge,
            )
        )

    def _result(
        self, position: KernelPosition, value: int, depth: int, info: np.ndarray, started: float
    ) -> SearchResult[int]:
        pv = np.empty(depth, dtype=np.int64)
        length = principal_variation(
            position.game,
            position.root,
            position.hist.copy(),
            position.rules,
            self.tt_keys,
            self.tt_data,
            pv,
        )
        moves = tuple(int(m) for m in pv[:length])
        best = int(info[BEST])
        if not moves or moves[0] != best:
            moves = (best,)
        return SearchResult(
            move=best,
            value=int(value),
            depth=depth,
            nodes=int(info[NODES]),
            seconds=time.perf_counter() - started,
            pv=moves,
            exact=info[HORIZON] == 0 and info[ABORTED] == 0,
        )


def analyze(
    state: State,
    depth: int | None,
    seconds: float | None,
    on_iteration: Callable[[SearchResult[int]], None] | None,
    stop: Stop,
) -> SearchResult[int]:
    """A deepening search of ``state`` with a big table, telling ``on_iteration`` each
    depth it finishes: ``parlour analyze`` of the sowing games and Ayo."""
    engine = Engine(table_bits=22)
    return engine.search(state, depth, seconds, on_iteration=on_iteration, stop=stop)


def warm_up(state: State) -> None:
    """Compile (or load) the engine's kernels and read (or build) the endgame table of
    ``state``'s game, so that neither happens on a player's clock (a one-ply search with
    a tiny table)."""
    Engine(table_bits=4).search(state, depth=1)


SEED_LEVELS = 3
"""Levels 1-3 are the seed's plain minimax at that depth (exactly, ties and all)."""

LEVEL_DEPTHS = {4: 4, 5: 7, 6: 10}
LEVEL_SECONDS = {7: 1.0, 8: 1.5}
"""Levels above the seed's: alpha-beta to a depth (extra turns free: Kalah's level 6
answers within about 0.15 s), or, for the strongest, for a time (deepening until it runs
out or the value is exact, on two threads where there are two cores); 8 answers in under
2 seconds."""

STRONGEST = max(LEVEL_SECONDS)


class Thinker:
    """The computer at ``level`` in the sowing games and Ayo, keeping one engine (and its
    transposition table) from move to move: the seed's minimax for levels 1-3, the engine
    above.  ``seconds`` (the ``--time`` of ``parlour play``) lets the engine's levels
    search for that long instead; the seed's levels stay exact minimax."""

    def __init__(self, level: int, seconds: float | None = None) -> None:
        if level > SEED_LEVELS and level not in LEVEL_DEPTHS and level not in LEVEL_SECONDS:
            raise ValueError(f"the levels are 1 to {STRONGEST}, not {level}")
        from parlour.search.minimax import SeedLevel

        self.seed_level = SeedLevel(level) if level <= SEED_LEVELS else None
        self.depth = LEVEL_DEPTHS.get(level) if seconds is None else None
        self.seconds = seconds if seconds is not None else LEVEL_SECONDS.get(level)
        self.threads = min(2, os.cpu_count() or 1) if self.seconds is not None else 1
        self.engine: Engine | None = None  # made at the first search: its table is big

    def best_move(self, state: State, stop: Stop) -> tuple[int, object]:
        """The move and the search's account of it (minimax's value at the seed's levels)."""
        if self.seed_level is not None:
            move, value = self.seed_level.best_move(state)
            return int(move), value  # type: ignore[call-overload]
        if self.engine is None:
            self.engine = Engine(threads=self.threads)
        result = self.engine.search(state, depth=self.depth, seconds=self.seconds, stop=stop)
        return result.move, result

    def warm_up(self, state: State) -> None:
        """The engine's kernels and endgame table; nothing for the seed's levels."""
        if self.seed_level is None:
            warm_up(state)
