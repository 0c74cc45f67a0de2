"""The solver's proofs: MTD(f) over the kernel's null-window searches, by one thread or
by several splitting the root's lines (``solver.split``).

The value is found by MTD(f): a sequence of null-window alpha-beta searches, each asking
"is the gain at least t?", each answer narrowing the interval the value lies in, until the
interval is one value.  The first guess comes from a deepening of the same searches to
``DEEPENING`` plies, its value at the horizon the learned estimate.  The search polls a
stop flag; stopped, it still knows an interval holding the value.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from parlour.games.sowing import endgame, evaluation
from parlour.games.sowing import game as sowing
from parlour.games.sowing.solver.kernel import _difference, _in_pits, null_window
from parlour.games.sowing.solver.known import Known
from parlour.games.sowing.solver.split import Lines, lines, split
from parlour.games.sowing.solver.table import INF, PROVEN, interleaved, lookup
from parlour.search import Stop
from parlour.search.engine import kernel_position
from parlour.search.kernel import ABORTED, BEST, HORIZON, INFO_SIZE, NODES
from parlour.search.shared import Shared
from parlour.search.table import SLOT_BYTES, Table

DEEPENING = 12
"""The deepening's last depth before the search to the end: its heuristic value is the
end's first guess, and its table's moves the end's move ordering."""
TO_THE_END = 1 << 30
"""A depth no line reaches (``kernel.longest``): the search to the end of the game."""
SPLIT_NODES = 200_000
"""The nodes a proof searches in one thread before it splits its windows between threads,
a tenth of a second's work: a proof shorter than that is over before a split would pay."""


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


@dataclass
class Solver:
    """A solver for one sowing game, keeping its transposition table (2**bits slots of
    ``SLOT_BYTES``) and its endgame table from position to position, and, if given ``known``, the
    positions it proves."""

    bits: int = 24
    table_seeds: int | None = None
    """The endgame table's seeds in the pits (None: the largest built here, by ``parlour solve
    build``, or else the largest of ``endgame.MAX_ENTRIES`` positions)."""
    threads: int = 1
    """The threads of each search: above one, the root's lines to where its turn passes are
    searched side by side, on the one transposition table."""
    known: Known | None = None
    progress: endgame.Progress | None = None
    """How a build of the endgame table shows its progress (None: on standard error,
    ``progress.shown``)."""
    build_memory: int | None = None
    """The bytes a build of the endgame table may hold (None: no limit)."""
    searched: int = field(init=False, default=0)
    """The nodes of every search this solver made: a command's total over its proofs."""
    table: Table = field(init=False)
    endings: dict[sowing.SowingGame, endgame.EndgameTable] = field(init=False)
    """The endgame table of each game solved, chosen (and read or built) once: every
    proof asks for it, a perfect move's trap hundreds of times."""

    def __post_init__(self) -> None:
        self.table = interleaved(self.bits)
        self.endings = {}

    def knowledge(self, state: sowing.SowingState) -> endgame.EndgameTable:
        """The endgame table the search reads for ``state``'s game (built the first time)."""
        game = state.game
        if game not in self.endings:
            most = self.table_seeds_for(state)
            self.endings[game] = endgame.table(
                state.pits, game.rules, most, self.progress, self.build_memory
            )
        return self.endings[game]

    def table_seeds_for(self, state: sowing.SowingState) -> int:
        """The seeds in the pits of the endgame table read for ``state``'s game: as asked,
        or else the largest built here, at least that of ``endgame.MAX_ENTRIES``
        positions, and no more than the game's seeds."""
        seeds = self.table_seeds
        if seeds is None:
            seeds = max(
                endgame.seeds_within(state.pits, endgame.MAX_ENTRIES),
                endgame.built_seeds(state.pits, state.game.rules),
            )
        return min(seeds, state.game.total_seeds)

    def warm_up(self, state: sowing.SowingState) -> None:
        """Build the endgame table and compile the search (a one-node search at depth 0)
        and the table's probe from Python (``held``), so that none happens on a move's
        clock."""
        ending = self.knowledge(state)
        shared = self.shared(ending, state.game, np.zeros(1, dtype=np.int64))
        null_window(kernel_position(state).root, state.game.rules, -1, 0, 0, shared, False)
        self.held(state)

    @property
    def table_bytes(self) -> int:
        return len(self.table[0]) * SLOT_BYTES

    def shared(
        self, ending: endgame.EndgameTable, game: sowing.SowingGame, stop: np.ndarray
    ) -> Shared:
        """What a search of ``game`` shares with the kernel: this solver's transposition
        table, a fresh count of its figures, the stop flag ``stop``, ``ending`` and the
        game's learned estimate."""
        keys, data = self.table
        info = np.zeros(INFO_SIZE, dtype=np.int64)
        weights = evaluation.weights_of(game)
        return Shared(keys, data, info, stop, ending.packed, ending.choose, ending.seeds, weights)

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
            search = Search(self, root, state.game, ending, clock)
            while low < high and not search.info[ABORTED]:
                f, low, high, move = search.deepen(f, depth, (low, high, move))
                if on_depth is not None:
                    on_depth(depth, low + base, high + base)
                depth = depth + 1 if depth < DEEPENING else TO_THE_END
        self.searched += int(search.info[NODES])
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

    def held(self, state: sowing.SowingState) -> tuple[int, int] | None:
        """Bounds of ``state``'s value to its side to move from what this solver already
        holds, without a search: the game's end, a position proven before (``known``),
        the endgame table or a proven entry of the transposition table (None if none of
        them says anything)."""
        if state.is_over:
            margin = state.scores[state.to_move] - state.scores[1 - state.to_move]
            return margin, margin
        root = kernel_position(state).root
        pits = state.pits
        base, left = _difference(root, pits, state.to_move), _in_pits(root, pits)
        found = self.known.get(state) if self.known is not None else None
        if found is not None:
            return found[0] + base, found[0] + base
        ending = self.knowledge(state)
        if left <= ending.seeds:
            gain = int(endgame.value(root, ending.packed, ending.choose))
            return gain + base, gain + base
        low, high, _, sure = lookup(*self.table, np.uint64(sowing.search_key(root)), PROVEN)
        if not sure or (low <= -left and high >= left):
            return None
        return max(low, -left) + base, min(high, left) + base

    def reaches(self, state: sowing.SowingState, target: int, stop: Stop) -> bool | None:
        """Whether ``state`` (not over) is worth at least ``target`` to its side to move,
        by one null-window search to the end (None if ``stop`` comes first): cheaper than
        a proof of the value, enough to check a move against a proven bound."""
        ending = self.knowledge(state)
        root = kernel_position(state).root
        base = _difference(root, state.pits, state.to_move)
        found = self.known.get(state) if self.known is not None else None
        if found is not None:
            return found[0] + base >= target
        search = Search(self, root, state.game, ending, stop)
        gain = search.window(target - base - 1, target - base, TO_THE_END)
        self.searched += int(search.info[NODES])
        return None if search.info[ABORTED] else gain >= target - base


class Search:
    """One proof's searches: MTD(f) at each depth of the deepening, each of its null-window
    searches by ``solver.threads`` threads on the solver's table (``split``)."""

    def __init__(
        self,
        solver: Solver,
        root: np.ndarray,
        game: sowing.SowingGame,
        ending: endgame.EndgameTable,
        clock: Stop,
    ) -> None:
        self.solver, self.root, self.rules = solver, root, game.rules
        self.threads = solver.threads
        self.ending, self.clock = ending, clock
        self.shared = solver.shared(ending, game, clock.attach(np.zeros(1, dtype=np.int64)))
        self.info = self.shared.info
        self.lines: Lines | None = None
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
        if self.threads > 1 and self.info[NODES] >= SPLIT_NODES and self.lines is None:
            self.lines = lines(self.root, self.rules, self.ending)
            self.costs = [0] * len(self.lines[1])
        if self.lines is None:
            return int(null_window(self.root, self.rules, lower, upper, depth, self.shared, False))
        return split(self, lower, upper, depth, self.lines)
