"""The engine's driver: iterative deepening over the alpha-beta kernel
(``parlour.search.kernel``, compiled once for each game from its search adapters), with
aspiration windows, a transposition table kept between searches, helper threads, a stop
flag, and what a game's adapters know beyond its rules (the sowing games' endgame
tables and learned estimate).  Its levels are in
``parlour.search.alphabeta``.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import importlib.util
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from types import ModuleType
from typing import Protocol, cast

import numpy as np

from parlour import cache
from parlour.core import Move, State
from parlour.search import SearchResult, Stop
from parlour.search.kernel import (
    ABORTED,
    ASPIRATION,
    BEST,
    GENERATION,
    HORIZON,
    INFO_SIZE,
    MAX_PLY,
    NODES,
    WHOLE,
)
from parlour.search.shared import NO_KNOWLEDGE, Knowledge, Shared
from parlour.search.table import new_table


class Searchable(Protocol):
    """A state the engine searches: one whose game has search adapters (see
    ``parlour.search.kernel``)."""

    def for_search(self, room: int) -> tuple[str, np.ndarray, np.ndarray, int]:
        """The module of the game's search adapters, the position as an int64 array, the
        history buffer (with ``room`` for a search's plies) and the rule flags."""


@dataclass(frozen=True)
class KernelPosition:
    """A state as the kernels take it: its game's compiled search (:func:`kernels`), the
    int64 position, the history buffer and the rule flags."""

    adapters: str
    root: np.ndarray
    hist: np.ndarray
    rules: int

    @property
    def kernels(self) -> ModuleType:
        return kernels(self.adapters)

    def minimax(self, depth: int) -> int:
        """Plain minimax's value at ``depth`` plies, for the side to move."""
        return int(self.kernels.minimax(self.root, self.hist, self.rules, depth))


def kernel_position(state: State) -> KernelPosition:
    """``state`` for the kernels; TypeError for a game without search adapters."""
    if not hasattr(state, "for_search"):
        raise TypeError(f"the engine does not play {state.game.name}")
    return KernelPosition(*cast(Searchable, state).for_search(MAX_PLY + 1))


TEMPLATE = Path(__file__).with_name("kernel.py")
ADAPTERS = "import parlour.search.adapters as game  # ADAPTERS"


@functools.cache
def kernels(adapters: str) -> ModuleType:
    """The alpha-beta kernel bound to the search adapters of module ``adapters``: the
    template ``kernel.py`` written, with its ``ADAPTERS`` line naming that module and a
    hash of the adapters' sources (:func:`adapter_sources`), into the kernels' cache
    folder (``cache.kernel_file``: a changed template or adapter makes a new file, never a
    stale kernel), and imported from there, so that numba caches each game's kernel by its
    own file."""
    source = TEMPLATE.read_text().replace(ADAPTERS, f"import {adapters} as game", 1)
    try:
        module = importlib.import_module(adapters)
    except ImportError:
        raise TypeError(f"no module {adapters} holds search adapters") from None
    name = "parlour_kernel_" + adapters.replace(".", "_")
    sources = b"".join(path.read_bytes() for path in adapter_sources(module))
    adapter_hash = hashlib.blake2b(sources, digest_size=8).hexdigest()
    adapted = f"{source}\n# {adapters}: {adapter_hash}\n"  # new when the adapters change
    try:
        path = cache.kernel_file(f"{name}.py", adapted)
    except OSError:  # no writable cache: a folder of this process's own
        path = Path(tempfile.mkdtemp(prefix="parlour-kernels-")) / f"{name}.py"
        path.write_text(adapted)
    made = importlib.util.spec_from_file_location(name, path)
    assert made is not None and made.loader is not None
    kernel = importlib.util.module_from_spec(made)
    sys.modules[name] = kernel
    made.loader.exec_module(kernel)
    return kernel


def adapter_sources(adapters: ModuleType) -> list[Path]:
    """The files of the adapter module and of the modules of its package or parlour's it
    takes names from (the rules whose functions it hands on or calls, the tables it
    reads): numba caches a kernel by
    its own file and does not see a change in another, so a change in any of these must
    make a new kernel file.  The rest of the game's folder (its screen, its view) is left
    out, so that changing it compiles nothing."""
    named = {adapters.__name__}
    for value in vars(adapters).values():
        owner = (
            value.__name__ if isinstance(value, ModuleType) else getattr(value, "__module__", None)
        )
        if isinstance(owner, str) and owner.split(".")[0] == adapters.__name__.split(".")[0]:
            named.add(owner)
    files = (getattr(sys.modules.get(owner), "__file__", None) for owner in named)
    return sorted(Path(file) for file in files if file)


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
        endgame_entries: int | None = None,
        learned: bool = True,
    ) -> None:
        """A table of 2**table_bits entries.  A ``strict`` engine's value at depth d is
        exactly plain minimax's at depth d (it counts every ply, and uses the table's values
        only from searches of that same depth); otherwise an extra turn uses no depth (in
        the games whose adapters say ``SEARCH_FREE_TURNS``) and deeper results are used too,
        which plays better.
        ``threads`` above 1 adds helper searches that fill the shared table ahead of the
        main one ("lazy SMP"): deeper in the same time, at the price of a choice among equal
        moves that may vary from run to run.  A game's endgame tables (where its adapters
        bring them) hold at most ``endgame_entries`` positions (None: the game's own
        default; 0: none; a strict engine reads none either).  A ``learned`` engine (the
        default) adds the game's learned estimate at its horizon, where it has one;
        without it, or in a strict engine, a position at the horizon is worth its score
        alone."""
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
        self.generation += 1  # the trap's solves below belong to this search too
        with (stop or Stop()).until(seconds) as clock:
            flag = clock.attach(np.zeros(1, dtype=np.int64))
            result = self._deepen(state, limit, flag, on_iteration)
            if seconds is not None and result.exact:
                result = self._set_trap(state, result, flag)
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
        """What the search reads for ``position``'s game beyond its rules (endgame tables
        read from the cache folder or built there the first time, a learned estimate):
        what the adapter module's ``search_knowledge`` gives, or nothing for a game without
        one, a strict engine (whose values are minimax's at its depth) and an engine told
        to use none."""
        known = getattr(importlib.import_module(position.adapters), "search_knowledge", None)
        if known is None or self.strict:
            return NO_KNOWLEDGE
        found: Knowledge = known(position.root, position.rules, self.endgame_entries, self.learned)
        return found

    def _set_trap(
        self, state: State, result: SearchResult[int], stop: np.ndarray
    ) -> SearchResult[int]:
        """The solved ``result`` with its move replaced by :func:`set_trap`'s, if any
        (every value there is exact: solving is quick, the table holds the root's proof)."""
        sign = 1 if state.to_move == 0 else -1

        def worth(position: State) -> int | None:
            margin = self._margin(position, stop)
            return None if margin is None else sign * margin

        best = set_trap(state, result.value, worth, lambda: bool(stop[0]))
        if best is None or best == result.move:
            return result
        return replace(result, move=cast(int, best), pv=(cast(int, best),))

    def _margin(self, state: State, stop: np.ndarray) -> int | None:
        """Player 0's final margin with perfect play from ``state``, or None if time ran out
        before the search proved it."""
        if state.is_over:
            position = kernel_position(state)
            return int(position.kernels.game.search_score(position.root))
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
            position.kernels.search_depth(
                position.root,
                position.hist if hist is None else hist,
                position.rules,
                depth,
                window[0],
                window[1],
                self.strict,
                Shared(self.tt_keys, self.tt_data, info, stop, *knowledge),
            )
        )

    def _result(
        self, position: KernelPosition, value: int, depth: int, info: np.ndarray, started: float
    ) -> SearchResult[int]:
        pv = np.empty(depth, dtype=np.int64)
        length = position.kernels.principal_variation(
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


def set_trap(
    state: State,
    value: int,
    worth: Callable[[State], int | None],
    stopped: Callable[[], bool],
) -> Move | None:
    """Among the moves of ``state`` worth ``value`` to its side to move, the one after
    which the most of the opponent's replies lose that side's opponent something: against
    a player that can err, a won or drawn position is best steered where erring is easy.
    ``worth`` is a position's final margin for ``state``'s side to move with perfect play
    (None if not found in time); a move ending the game or keeping the turn sets no trap.
    None if no move leaves a losing reply, among those looked at before ``stopped()``."""
    best, most = None, 0
    for move in state.legal_moves():
        child = state.play(move)
        if child.is_over or child.to_move == state.to_move or worth(child) != value:
            continue
        replies = [worth(child.play(reply)) for reply in child.legal_moves()]
        if stopped():
            break
        errors = sum(found is not None and found > value for found in replies)
        if errors > most:
            best, most = move, errors
    return best


def analyze(
    state: State,
    depth: int | None,
    seconds: float | None,
    on_iteration: Callable[[SearchResult[int]], None] | None,
    stop: Stop,
) -> SearchResult[int]:
    """A deepening search of ``state`` with a big table, telling ``on_iteration`` each
    depth it finishes: ``parlour analyze`` of a game with search adapters."""
    engine = Engine(table_bits=22)
    return engine.search(state, depth, seconds, on_iteration=on_iteration, stop=stop)


def warm_up(state: State) -> None:
    """Compile (or load) the engine's kernels and read (or build) the endgame table of
    ``state``'s game, so that neither happens on a player's clock (a one-ply search with
    a tiny table)."""
    Engine(table_bits=4).search(state, depth=1)
