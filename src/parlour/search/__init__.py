"""Game-independent search over the game core's states (``minimax``: the seed's levels).

A computer player keeps one :class:`Thinker` for a whole game (:func:`thinker`): a game
with an engine of its own (its ``Game.ENGINE`` module, imported when first needed) gets
that engine's, keeping its transposition table from move to move; every other game gets
the seed's minimax.  Each search can be ended from any thread through a :class:`Stop`.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

import numpy as np

from parlour.core import BadOption, Move, State, engine_module, game_names

SOLVED = ("kalah", "mancala")
"""The games of the perfect level (``parlour.search.solve``)."""


M = TypeVar("M")


@dataclass(frozen=True)
class SearchResult(Generic[M]):
    """What a search found, from the point of view of the side to move; every engine
    answers with one.

    ``value`` is in the game's units (seeds, tokens; five in a row: a large number for a
    forced win); ``exact`` when the value is proven (every line searched to the end of the
    game, or a forced win found); ``pv`` the expected line, the move first; ``reason`` how
    the move was found: ``search`` (the deepening), or in five in a row ``five``,
    ``block``, ``vcf`` or ``vct`` (the first move of a forced win by fours or threats) and
    ``defend`` (a move that holds against the opponent's).
    """

    move: M
    value: int
    depth: int
    nodes: int
    seconds: float
    pv: tuple[M, ...]
    exact: bool
    reason: str = "search"

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


class Stop:
    """A request to stop searching, from any thread: :meth:`set` raises every flag array
    the compiled searches poll (:meth:`attach`), including ones attached later, and sets
    the stops of the clocks running on it (:meth:`until`)."""

    def __init__(self) -> None:
        self._flags: list[np.ndarray] = []
        self._clocks: list[Stop] = []
        self._set = False
        self._lock = threading.Lock()

    def attach(self, flag: np.ndarray) -> np.ndarray:
        """Raise ``flag`` (a search's stop array) when this stop is set; returns it."""
        with self._lock:
            self._flags.append(flag)
            if self._set:
                flag.fill(1)
        return flag

    def set(self) -> None:
        """Stop every search attached, now and from now on."""
        with self._lock:
            self._set = True
            for flag in self._flags:
                flag.fill(1)
            clocks = list(self._clocks)
        for clock in clocks:
            clock.set()

    @property
    def is_set(self) -> bool:
        return self._set

    @contextmanager
    def until(self, seconds: float | None) -> Iterator[Stop]:
        """A stop for the block, set with this one or by a timer once ``seconds`` have
        passed (None: no timer): a search on a clock that its caller can still stop."""
        clock = Stop()
        with self._lock:
            self._clocks.append(clock)
        if self._set:
            clock.set()
        timer = threading.Timer(max(seconds, 0.0), clock.set) if seconds is not None else None
        if timer is not None:
            timer.daemon = True
            timer.start()
        try:
            yield clock
        finally:
            if timer is not None:
                timer.cancel()
            with self._lock:
                self._clocks.remove(clock)


class Thinker(Protocol):
    """A computer opponent at one level, for one game at a time."""

    def best_move(self, state: State, stop: Stop) -> tuple[Move, Any]:
        """The move to play in ``state`` and the engine's account of it; a search ended
        by ``stop`` returns what it has (its move is then not to be trusted)."""

    def warm_up(self, state: State) -> None:
        """Compile (and build) what this level's search needs for ``state``'s game, so
        that it happens before any clock starts; nothing where the level needs nothing."""


def thinker(game: str, level: int, seconds: float | None = None) -> Thinker:
    """The computer at ``level`` for game ``game``; ``seconds`` is a time a move for the
    levels that search on a clock (None: the level's own)."""
    module = engine_module(game)
    from parlour.players.specs import PERFECT

    if level == PERFECT:
        if game not in SOLVED:
            raise BadOption(f"the perfect level plays {' and '.join(SOLVED)}, not {game}")
        from parlour.search.solve import PerfectThinker

        return PerfectThinker(seconds)
    if module is None:
        from parlour.search.minimax import SeedLevel

        return SeedLevel(level)
    engine: Any = importlib.import_module(module)
    made: Thinker = engine.Thinker(level, seconds)
    return made


def best_move(state: State, level: int, seconds: float | None = None) -> tuple[Move, Any]:
    """The computer's move at ``level`` in ``state`` and its engine's account of it (a
    one-off thinker: a player keeps one for the game instead)."""
    return thinker(state.game.name, level, seconds).best_move(state, Stop())


def analyze(
    state: State,
    depth: int | None = None,
    seconds: float | None = None,
    on_iteration: Callable[[SearchResult[Any]], None] | None = None,
    stop: Stop | None = None,
) -> SearchResult[Any]:
    """Deepen the engine's search of ``state`` until ``depth``, ``seconds`` or a proven
    value, telling ``on_iteration`` each depth it finishes: ``parlour analyze``.  A game
    without an engine of its own is refused with BadOption."""
    engine: Any = importlib.import_module(engine_of(state.game.name))
    result: SearchResult[Any] = engine.analyze(state, depth, seconds, on_iteration, stop or Stop())
    return result


def engine_of(game: str) -> str:
    """The module of game ``game``'s own engine; BadOption for a game without one."""
    module = engine_module(game)
    if module is None:
        known = ", ".join(name for name in game_names() if engine_module(name))
        raise BadOption(f"no engine analyses {game}; the engines play {known}")
    return module


def warm_up(state: State) -> None:
    """Compile what the engine of ``state``'s game needs (and build its tables), so that it
    happens before any clock starts; nothing for a game without an engine."""
    module = type(state.game).ENGINE
    if module is not None:
        importlib.import_module(module).warm_up(state)
