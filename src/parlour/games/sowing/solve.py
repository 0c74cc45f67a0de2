"""The exact value of a sowing game's position: a solver for Kalah, Mancala and their kin.

The future of a sowing position depends only on its pits and the side to move, so the
solver works with a position's *gain*: what the side to move adds to its store difference
from here to the end with perfect play (the exact value is the store difference plus the
gain).  This is the quantity the endgame tables hold (``parlour.games.sowing.endgame``), so a
position with few seeds left in its pits is looked up, not searched; and the
transposition table is keyed on the pits and the side to move alone, so that positions
differing only in their stores share an entry.

The value is found by MTD(f): a sequence of null-window alpha-beta searches, each asking
"is the gain at least t?", each answer narrowing the interval the value lies in, until the
interval is one value.  The first guess comes from a short search of the engine
(``parlour.search.engine``).  Each node tries, before searching any child, whether a
child's bounds already in the table prove a cut-off (enhanced transposition cut-offs),
and whether the seeds left in the pits already settle the question (a gain is never more
than the seeds left, nor less than their negative: a futility bound).  A child that
ends the game or that the endgame table holds is worth its value as soon as it is made:
such children are taken first, without a node of their own, and one of them settling
the node cuts it off before anything is searched.  The other moves are tried the table's
best first, then extra turns, then by what they take into the store.

The search polls a stop flag; stopped, it still knows an interval holding the value.
"""

from __future__ import annotations

import json
import threading
import time
import zlib
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import cast

import numpy as np
from numba import njit

from parlour import cache
from parlour.core import State
from parlour.games.sowing import endgame, evaluation
from parlour.games.sowing import game as sowing
from parlour.search import Stop, engine
from parlour.search.alphabeta import SEARCH_THREADS
from parlour.search.engine import Engine, kernel_position, set_trap
from parlour.search.kernel import (
    ABORTED,
    BEST,
    ENTER,
    HORIZON,
    INFO_SIZE,
    MAX_MOVES,
    NEXT,
    NODES,
    RETURN,
    _sort_by_score,
)

NO_MOVE = 15
OFFSET = 1 << 15
INF = OFFSET - 1
"""Bounds are kept in 16 bits each, offset: a gain is at most the seeds in play, and INF
stands for no bound."""
WORK_BITS = 6
PROVEN = 255
"""The depth of an entry whose bounds hold to the end of the game."""
NEAR = 3
"""Nodes with at most this many seeds more than the endgame table holds neither read nor
write the transposition table (nor try their children there): their subtrees cost less
to search again than the table's cache misses."""
ETC = 8
"""Nodes with at most this many seeds more than the endgame table holds do not try their
children's bounds in the table: there a node's cut-offs pay less than its children's
cache misses."""
DEEPENING = 12
"""The deepening's last depth before the search to the end: its heuristic value is the
end's first guess, and its table's moves the end's move ordering."""
TO_THE_END = 1 << 30
"""A depth no line reaches (``longest``): the search to the end of the game."""
SPLIT_NODES = 200_000
"""The nodes a proof searches in one thread before it splits its windows between threads,
a tenth of a second's work: a proof shorter than that is over before a split would pay."""


@njit(cache=True, nogil=True, inline="always")
def _pack(lower: int, upper: int, move: int, work: int, depth: int) -> np.uint64:
    return np.uint64(
        (lower + OFFSET) | ((upper + OFFSET) << 16) | (move << 32) | (work << 36) | (depth << 42)
    )


@njit(cache=True, nogil=True, inline="always")
def _unpack(packed: np.uint64) -> tuple[int, int, int, int, int]:
    """An entry's lower and upper bounds, move, work and depth."""
    e = np.int64(packed)  # under 2**50: read as a signed number, as numba reads literals
    return (
        int(e & 0xFFFF) - OFFSET,
        int((e >> 16) & 0xFFFF) - OFFSET,
        int((e >> 32) & 0xF),
        int((e >> 36) & 0x3F),
        int(e >> 42),
    )


@njit(cache=True, nogil=True)
def _lookup(table: np.ndarray, key: np.uint64, depth: int) -> tuple[int, int, int, bool]:
    """The bounds (lower, upper) kept for ``key`` from a search at least ``depth`` deep
    (else none: -INF, INF), its best move (NO_MOVE if none) and whether the bounds are
    proven.  A bucket is two slots, the first kept for the entry that cost the most work;
    a slot is a row of the table, its key (XORed with its entry, so that a slot half
    written by another search thread matches no key) beside its entry, so that a probe
    reads one cache line."""
    slot = np.int64(key & np.uint64(table.shape[0] - 2))
    for s in range(slot, slot + 2):
        entry = table[s, 1]
        if table[s, 0] ^ entry == key:
            lower, upper, move, _, deep = _unpack(entry)
            if deep >= depth or deep == PROVEN:
                return lower, upper, move, deep == PROVEN
            return -INF, INF, move, False
    return -INF, INF, NO_MOVE, False


@njit(cache=True, nogil=True)
def _store(
    table: np.ndarray,
    key: np.uint64,
    lower: int,
    upper: int,
    move: int,
    work: int,
    depth: int,
) -> None:
    """Keep a node's bounds from a search ``depth`` deep (PROVEN: to the end): a deeper
    entry for the same key stands, one as deep is tightened, a shallower one replaced.  A
    new key takes the first slot if it cost at least as much work as its holder."""
    slot = np.int64(key & np.uint64(table.shape[0] - 2))
    for s in range(slot, slot + 2):
        entry = table[s, 1]
        if table[s, 0] ^ entry == key:
            old_lower, old_upper, _, old_work, old_depth = _unpack(entry)
            if old_depth > depth:
                return
            if old_depth == depth:
                lower, upper = max(lower, old_lower), min(upper, old_upper)
            _write(table, s, key, _pack(lower, upper, move, max(work, old_work), depth))
            return
    if work < _unpack(table[slot, 1])[3]:
        slot += 1
    _write(table, int(slot), key, _pack(lower, upper, move, work, depth))


@njit(cache=True, nogil=True, inline="always")
def _write(table: np.ndarray, slot: int, key: np.uint64, entry: np.uint64) -> None:
    table[slot, 1] = entry
    table[slot, 0] = key ^ entry


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
    later = ending[endgame.index(child, choose)]
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
    table: np.ndarray,
    info: np.ndarray,
    stop: np.ndarray,
    ending: np.ndarray,
    choose: np.ndarray,
    ending_seeds: int,
    weights: np.ndarray,
    helping: bool,
) -> int:
    """Fail-soft alpha-beta of ``root``'s gain in the window (lower, upper) (MTD(f) calls
    it with upper = lower + 1), ``depth`` plies deep (an extra turn free); a node at the
    horizon is worth the learned estimate of ``weights`` and counts in info[HORIZON]: a
    search that met none proved its bound.  The root's move proving a fail high lands in
    info[BEST].

    A search ``helping`` another of the same position on the same table tries each node's
    moves after the first in reverse order: where every move must be searched, the two
    work from either end and each finds the other's proofs in the table; where the first
    move cuts off, both take it.

    The recursion is unrolled onto per-ply arrays, as in the engine: ``ENTER`` looks at a
    node, ``NEXT`` searches its next child, ``RETURN`` hands a gain to the parent.
    """
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
                low, high, tt_move, sure = _lookup(table, hashes[ply], r)
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
                    c_low, c_high, _, sure = _lookup(
                        table, child_key[ply, i], r - (0 if turn[ply, i] else 1)
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
                    work = 0
                    spent = info[NODES] - started[ply]
                    while spent > 1 and work < (1 << WORK_BITS) - 1:
                        spent >>= 1
                        work += 1
                    proven = info[HORIZON] == horizon_in[ply]
                    _store(
                        table,
                        hashes[ply],
                        b if b > alpha_in[ply] else -INF,
                        b if b < beta[ply] else INF,
                        best_move[ply],
                        work,
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


@dataclass(frozen=True)
class Proof:
    """What the solver found of a position, in seeds, for its side to move: the value lies
    in [lower, upper] (one value once proven); ``move`` achieves ``lower``."""

    lower: int
    upper: int
    move: int
    nodes: int
    seconds: float
    table_seeds: int

    @property
    def exact(self) -> bool:
        return self.lower == self.upper


KNOWN_MAGIC = "parlour solved positions"


class Known:
    """Proven positions kept on disk, so that a second game's replies come at once: for
    each position (rules, pits and side to move: what its future depends on), its gain
    and a move achieving it.  The file, in parlour's cache folder beside the version of
    the code that proved it, starts with a line holding the CRC-32 of the rest; a file
    that fails the check (damaged, cut short, edited) is not trusted but started anew."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self.gains: dict[str, tuple[int, int]] = {}
        self.changed = False
        with suppress(OSError, ValueError):
            self.path = path or _known_file()
            self.gains = _read_known(self.path.read_bytes())

    @staticmethod
    def key(state: sowing.SowingState) -> str:
        board, pits = state.board, state.pits
        seeds = [*board[:pits], *board[pits + 1 : 2 * pits + 1]]
        return f"{state.game.rules} {state.to_move} {' '.join(str(int(n)) for n in seeds)}"

    def get(self, state: sowing.SowingState) -> tuple[int, int] | None:
        """``state``'s gain and a move achieving it, if proven before."""
        return self.gains.get(self.key(state))

    def put(self, state: sowing.SowingState, gain: int, move: int) -> None:
        self.gains[self.key(state)] = (gain, move)
        self.changed = True

    def save(self) -> None:
        """Write the positions out (whole or not at all), if any are new; without a
        writable cache folder they stay in memory."""
        if not self.changed or self.path is None:
            return
        body = json.dumps(self.gains, separators=(",", ":")).encode()
        with suppress(OSError):
            cache.write_whole(self.path, f"{KNOWN_MAGIC} {zlib.crc32(body)}\n".encode(), body)
            self.changed = False


def _known_file() -> Path:
    """The file of proven positions, in a folder of the code that proves them."""
    here = Path(__file__)
    sources = [here, here.parent / "endgame.py", Path(sowing.__file__)]
    return cache.versioned("solved", cache.digest(sources, cache.PACKAGE)) / "positions.json"


def _read_known(data: bytes) -> dict[str, tuple[int, int]]:
    """The positions of a file's ``data``; ValueError if it fails its check."""
    head, _, body = data.partition(b"\n")
    if head != f"{KNOWN_MAGIC} {zlib.crc32(body)}".encode():
        raise ValueError("not a whole file of proven positions")
    return {key: (int(gain), int(move)) for key, (gain, move) in json.loads(body).items()}


SLOT_BYTES = 16
"""A transposition table's slot: a key XORed with its entry, and the entry (``_lookup``)."""


def bits_within(megabytes: int) -> int:
    """The most bits of a transposition table whose slots fit in ``megabytes``."""
    return int((megabytes * (1 << 20) // SLOT_BYTES).bit_length() - 1)


@dataclass
class Solver:
    """A solver for one sowing game, keeping its transposition table (2**bits slots of 16
    bytes) and its endgame table from position to position, and, if given ``known``, the
    positions it proves."""

    bits: int = 24
    table_seeds: int | None = None
    """The endgame table's seeds in the pits (None: the largest built here, by ``parlour solve
    build``, or else the largest of ``endgame.MAX_ENTRIES`` positions)."""
    threads: int = 1
    """The threads of each search: above one, the root's lines to where its turn passes are
    searched side by side, on the one transposition table."""
    known: Known | None = None
    table: np.ndarray = field(init=False)
    endings: dict[sowing.SowingGame, endgame.EndgameTable] = field(init=False)
    """The endgame table of each game solved, chosen (and read or built) once: every
    proof asks for it, a perfect move's trap hundreds of times."""

    def __post_init__(self) -> None:
        self.table = np.zeros((1 << self.bits, SLOT_BYTES // 8), dtype=np.uint64)
        self.endings = {}

    def knowledge(self, state: sowing.SowingState) -> endgame.EndgameTable:
        """The endgame table the search reads for ``state``'s game (built the first time)."""
        game = state.game
        if game not in self.endings:
            seeds = self.table_seeds
            if seeds is None:
                seeds = max(
                    endgame.seeds_within(state.pits, endgame.MAX_ENTRIES),
                    endgame.built_seeds(state.pits, game.rules),
                )
            self.endings[game] = endgame.table(state.pits, game.rules, min(seeds, game.total_seeds))
        return self.endings[game]

    def warm_up(self, state: sowing.SowingState) -> None:
        """Build the endgame table and compile the search (a one-node search at depth 0),
        so that neither happens on a move's clock."""
        ending = self.knowledge(state)
        null_window(
            kernel_position(state).root, state.game.rules, -1, 0, 0, self.table,
            np.zeros(INFO_SIZE, dtype=np.int64), np.zeros(1, dtype=np.int64), ending.values,
            ending.choose, ending.seeds, evaluation.weights_of(state.game), False,
        )  # fmt: skip

    def prove(
        self,
        state: sowing.SowingState,
        guess: int | None = None,
        stop: Stop | None = None,
        seconds: float | None = None,
        on_depth: Callable[[int, int, int], None] | None = None,
    ) -> Proof:
        """MTD(f) on ``state`` (not over) from ``guess`` (the value for its side to move;
        None: the engine's short search), until proven, or until ``stop`` or ``seconds``."""
        if state.is_over or not state.legal_moves():
            raise ValueError("the game is over: there is nothing to solve")
        began = time.perf_counter()
        ending = self.knowledge(state)
        root = kernel_position(state).root
        pits = state.pits
        base = _difference(root, pits, state.to_move)
        found = self.known.get(state) if self.known is not None else None
        if found is not None:
            gain, move = found
            spent = time.perf_counter() - began
            return Proof(gain + base, gain + base, move, 0, spent, ending.seeds)
        left = _in_pits(root, pits)
        low, high, move = -left, left, int(state.legal_moves()[0])
        f = 0 if guess is None else min(max(guess - base, low), high)
        depth = 1
        with (stop or Stop()).until(seconds) as clock:
            search = _Search(self, root, state.game, ending, clock)
            while low < high and not search.info[ABORTED]:
                f, low, high, move = search.deepen(f, depth, (low, high, move))
                if on_depth is not None:
                    on_depth(depth, low + base, high + base)
                depth = depth + 1 if depth < DEEPENING else TO_THE_END
        if low == high and self.known is not None:
            self.known.put(state, int(low), int(move))
        return Proof(
            int(low) + base,
            int(high) + base,
            int(move),
            int(search.info[NODES]),
            time.perf_counter() - began,
            ending.seeds,
        )


@dataclass(frozen=True)
class _Handover:
    """A line of the root's side to move through its own extra turns to a position where
    the turn passes: its first move, what it gained on the way, and that position."""

    first: int
    gained: int
    position: np.ndarray


def _lines(
    root: np.ndarray, rules: int, ending: endgame.EndgameTable
) -> tuple[list[tuple[int, int]], list[_Handover]]:
    """Every line of ``root``'s side to move through its own extra turns: those that end
    the game or reach the endgame table, worth known at once, as (first move, worth), and
    those that hand the turn over."""
    pits, width = sowing.pit_count(root), root.shape[0]
    side = root[width - 1]
    before = _difference(root, pits, side)
    worths: list[tuple[int, int]] = []
    handovers: list[_Handover] = []

    def walk(pos: np.ndarray, first: int) -> None:
        for column in range(pits):
            if pos[sowing.pit_index(side, column, pits)] == 0:
                continue
            child = pos.copy()
            over = bool(sowing.apply_move(child, column, rules) & sowing.GAME_OVER)
            line = column if first < 0 else first
            gained = _difference(child, pits, side) - before
            if over or _in_pits(child, pits) <= ending.seeds:
                worth = _settled(child, side, gained, over, ending.values, ending.choose)
                worths.append((line, int(worth)))
            elif child[width - 1] == side:
                walk(child, line)
            else:
                handovers.append(_Handover(line, gained, child))

    walk(root, -1)
    return worths, handovers


class _Search:
    """One proof's searches: MTD(f) at each depth of the deepening, each of its null-window
    searches by ``solver.threads`` threads on the solver's table."""

    def __init__(
        self,
        solver: Solver,
        root: np.ndarray,
        game: sowing.SowingGame,
        ending: endgame.EndgameTable,
        clock: Stop,
    ) -> None:
        self.solver, self.root, self.rules = solver, root, game.rules
        self.ending, self.clock = ending, clock
        self.weights = evaluation.weights_of(game)
        self.info = np.zeros(INFO_SIZE, dtype=np.int64)
        self.flag = clock.attach(np.zeros(1, dtype=np.int64))
        self.lines: tuple[list[tuple[int, int]], list[_Handover]] | None = None
        """The root's lines to where its turn passes, once its windows are split."""
        self.costs: list[int] = []
        """The nodes searched in each line so far: the costliest are taken first."""

    def deepen(self, f: int, depth: int, proven: tuple[int, int, int]) -> tuple[int, int, int, int]:
        """MTD(f) at ``depth`` from the guess ``f``: its value there, and the proven bounds
        and move (``proven``: lower, upper, the move achieving lower) tightened by those of
        its searches that met no horizon."""
        info = self.info
        low, high = -INF, INF
        proven_low, proven_high, move = proven
        while low < high:
            gamma = f + 1 if f == low else f
            info[BEST] = -1
            g = self.window(gamma - 1, gamma, depth)
            if info[ABORTED]:
                break
            exact = info[HORIZON] == 0
            if g >= gamma:
                low = g
                if exact and g > proven_low:
                    proven_low, move = g, int(info[BEST])
            else:
                high = g
                if exact:
                    proven_high = min(proven_high, g)
            f = g
        return f, proven_low, proven_high, move

    def window(self, lower: int, upper: int, depth: int) -> int:
        """``null_window`` of the root, its figures in ``info``: split between the threads
        once the proof has searched ``SPLIT_NODES`` nodes (a split costs each line a search
        of its own, more than a small proof's whole work)."""
        if self.solver.threads > 1 and self.info[NODES] >= SPLIT_NODES and self.lines is None:
            self.lines = _lines(self.root, self.rules, self.ending)
            self.costs = [0] * len(self.lines[1])
        if self.lines is None:
            return int(
                null_window(
                    self.root, self.rules, lower, upper, depth, self.solver.table, self.info,
                    self.flag, self.ending.values, self.ending.choose, self.ending.seeds,
                    self.weights, False,
                )
            )  # fmt: skip
        return self._split(lower, upper, depth, *self.lines)

    def _split(
        self,
        lower: int,
        upper: int,
        depth: int,
        worths: list[tuple[int, int]],
        handovers: list[_Handover],
    ) -> int:
        """``null_window`` of the root by threads: each line of the root's side to where
        the turn passes is a null-window search of its own (``_Race``), the threads taking
        them in turn and, when none is left, helping those still running; one failing
        high answers for the root and stops the rest.  The lines' nodes and horizons add
        up in ``info``, as the one search's would."""
        info = self.info
        best, move = max(((worth, first) for first, worth in worths), default=(-INF, -1))
        info[ABORTED] = info[HORIZON] = 0
        if best >= upper:
            info[BEST] = move
            return best
        race = _Race(self, lower, upper, depth, handovers, best, move)
        threads = [
            threading.Thread(target=race.run, daemon=True) for _ in range(self.solver.threads)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if race.errors:
            raise race.errors[0]
        info[NODES] += race.nodes
        info[HORIZON] = race.horizon
        info[ABORTED] = race.best < upper and race.stopped
        if race.best >= upper:
            info[BEST] = race.move
        return race.best


class _Race:
    """The searches of one split window (``_Search._split``): lines taken in turn, the
    costliest so far first; a thread finding none left helps one still running (a
    second search of it, ``helping``), and whichever of the two ends first answers for
    it and stops the other."""

    def __init__(
        self,
        search: _Search,
        lower: int,
        upper: int,
        depth: int,
        handovers: list[_Handover],
        best: int,
        move: int,
    ) -> None:
        self.search, self.lower, self.upper, self.depth = search, lower, upper, depth
        self.best, self.move = best, move
        self.todo = sorted(range(len(handovers)), key=lambda i: -search.costs[i])
        self.handovers = handovers
        self.running: dict[int, list[np.ndarray]] = {}
        self.nodes = self.horizon = 0
        self.stopped = False
        self.errors: list[BaseException] = []
        self.lock = threading.Lock()

    def run(self) -> None:
        """A thread's work: lines until none is left (an error kept for ``_split``, the
        others stopped, as the window has no answer)."""
        try:
            self._search_lines()
        except BaseException as error:
            with self.lock:
                self.errors.append(error)
                self._halt_all()

    def _search_lines(self) -> None:
        figures = np.zeros(INFO_SIZE, dtype=np.int64)
        while (taken := self._take()) is not None:
            i, halt, helping = taken
            line, search = self.handovers[i], self.search
            figures[:] = 0
            value = null_window(
                line.position, search.rules, line.gained - self.upper,
                line.gained - self.lower, self.depth - 1, search.solver.table, figures, halt,
                search.ending.values, search.ending.choose, search.ending.seeds,
                search.weights, helping,
            )  # fmt: skip
            self._end(i, int(value), figures)

    def _take(self) -> tuple[int, np.ndarray, bool] | None:
        """The next line to search (its number, its stop flag, whether helping), or None
        when the window is answered or stopped."""
        with self.lock:
            if self.best >= self.upper or self.search.clock.is_set or self.errors:
                self.stopped |= self.search.clock.is_set
                return None
            helping = not self.todo
            if helping:
                alone = [i for i, runs in self.running.items() if len(runs) == 1]
                if not alone:
                    return None
                i = alone[0]
            else:
                i = self.todo.pop(0)
            halt = self.search.clock.attach(np.zeros(1, dtype=np.int64))
            self.running.setdefault(i, []).append(halt)
            return i, halt, helping

    def _end(self, i: int, value: int, figures: np.ndarray) -> None:
        """A search of line ``i`` ended with ``value`` (its figures in ``figures``)."""
        with self.lock:
            self.nodes += int(figures[NODES])
            self.search.costs[i] += int(figures[NODES])
            if i not in self.running:  # answered by the other search of it
                return
            if figures[ABORTED]:
                self.stopped |= self.search.clock.is_set
                return
            for halt in self.running.pop(i):
                halt.fill(1)
            self.horizon += int(figures[HORIZON])
            line = self.handovers[i]
            through = line.gained - value
            if through > self.best:
                self.best, self.move = through, line.first
            if self.best >= self.upper:
                self._halt_all()

    def _halt_all(self) -> None:
        """Stop every search running (the lock held)."""
        for runs in self.running.values():
            for halt in runs:
                halt.fill(1)


@dataclass(frozen=True)
class Solution:
    """A position solved (or as far as time allowed): the root's proof, a perfect line
    (as far as it is proven), and each first move's bounds for the side to move."""

    proof: Proof
    line: tuple[int, ...]
    moves: dict[int, tuple[int, int]]
    nodes: int
    seconds: float


def mover_bounds(
    solver: Solver, state: sowing.SowingState, move: int, stop: Stop, guess: int | None = None
) -> tuple[int, int]:
    """What ``move`` is worth to ``state``'s side to move: bounds (one value once proven)."""
    return bounds_for(solver, state.play(move), state.to_move, stop, guess)


def bounds_for(
    solver: Solver, state: sowing.SowingState, side: int, stop: Stop, guess: int | None = None
) -> tuple[int, int]:
    """What ``state`` is worth to ``side`` (``guess`` a first guess of it): bounds (one
    value once proven)."""
    if state.is_over:
        margin = state.scores[side] - state.scores[1 - side]
        return margin, margin
    same = state.to_move == side
    proof = solver.prove(state, guess if guess is None or same else -guess, stop)
    return (proof.lower, proof.upper) if same else (-proof.upper, -proof.lower)


def solve(state: sowing.SowingState, solver: Solver, stop: Stop) -> Solution:
    """Prove ``state``'s value, then each first move's, then follow proven moves to the
    end for a perfect line; whatever ``stop`` cuts short stays a bound."""
    began = time.perf_counter()
    proof = solver.prove(state, stop=stop)
    nodes = proof.nodes
    moves = {}
    for move in state.legal_moves():
        moves[int(move)] = mover_bounds(solver, state, int(move), stop, proof.lower)
    line: list[int] = []
    here, value = state, proof.lower
    while proof.exact and not here.is_over and not stop.is_set:
        step = solver.prove(here, value, stop)
        nodes += step.nodes
        if not step.exact:
            break
        line.append(step.move)
        after = here.play(step.move)
        value = step.lower if after.to_move == here.to_move else -step.lower
        here = after
    return Solution(proof, tuple(line), moves, nodes, time.perf_counter() - began)


PERFECT_SECONDS = 1.5
"""The perfect level's time a move (proof, then trap or search), unless given one: it
answers within 2 seconds."""
PROOF_SHARE = 2 / 3
"""The share of the move's time after which the proof gives up, the rest of it left to
the search that replaces it (or to the trap, once proven)."""


class PerfectThinker:
    """The perfect level of the sowing games: a position it proves in time gets a move
    keeping the game's value, chosen among those for the most ways the opponent's reply
    can lose value (the engine's :func:`set_trap`, from proven values); a position too big
    to prove in time gets the strongest search for what is left of the move's time, which
    says so in its account.  Proof, trap and search share one clock: the move's time,
    and the search's threads (two where there are two cores).  The solver's table is kept
    from move to move (the proof of one move holds most of the next's), and the positions
    it proves from game to game, on disk (``Known``)."""

    def __init__(self, seconds: float | None = None) -> None:
        self.seconds = seconds if seconds is not None else PERFECT_SECONDS
        self.solver: Solver | None = None
        self.engine: Engine | None = None

    def warm_up(self, state: State) -> None:
        engine.warm_up(state)
        self._solver().warm_up(cast(sowing.SowingState, state))

    def _solver(self) -> Solver:
        if self.solver is None:
            self.solver = Solver(bits=22, threads=SEARCH_THREADS, known=Known())
        return self.solver

    def best_move(self, state: State, stop: Stop) -> tuple[int, object]:
        """The move and its account: the proof, or the search's result when too big."""
        position = cast(sowing.SowingState, state)
        solver = self._solver()
        deadline = time.perf_counter() + self.seconds
        with stop.until(self.seconds) as clock:
            proof = solver.prove(position, stop=clock, seconds=self.seconds * PROOF_SHARE)
            if not proof.exact:
                return self._search(position, clock, deadline - time.perf_counter())
            try:
                return self._trap(position, proof, clock), proof
            finally:
                if solver.known is not None:
                    solver.known.save()

    def _trap(self, state: sowing.SowingState, proof: Proof, clock: Stop) -> int:
        """The move of :func:`set_trap` among those worth ``proof``'s value (the proof's
        own if none sets a trap before ``clock`` stops)."""
        solver = self._solver()

        def worth(position: State) -> int | None:
            position = cast(sowing.SowingState, position)
            low, high = bounds_for(solver, position, state.to_move, clock, proof.lower)
            return low if low == high else None

        best = set_trap(state, proof.lower, worth, lambda: clock.is_set)
        return proof.move if best is None else cast(int, best)

    def _search(self, state: sowing.SowingState, stop: Stop, seconds: float) -> tuple[int, object]:
        """The strongest search's move within ``seconds``, its account saying the proof
        ran out of time."""
        if self.engine is None:
            self.engine = Engine(threads=SEARCH_THREADS)
        found = self.engine.search(state, seconds=max(seconds, 0.0), stop=stop)
        return found.move, replace(found, reason="search: too big to prove in time")
