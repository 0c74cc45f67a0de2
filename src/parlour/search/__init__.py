"""Game-independent search: what every engine answers (:class:`SearchResult`), how a
search is stopped from any thread (:class:`Stop`), what a computer opponent is
(:class:`Thinker`), and the algorithms over any game's states or search adapters: the
seed's ``minimax``, the alpha-beta ``kernel`` with its ``engine`` driver, its ``table``
and ``alphabeta`` levels.  Which thinker plays a game is the game's kit's say
(:mod:`parlour.kit`); nothing here names a game.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, overload

from parlour.core import Move, State
from parlour.search.limit import Limit

if TYPE_CHECKING:  # a stop is made before any search: numpy loads with the first kernel
    import numpy as np

M = TypeVar("M")
N = TypeVar("N", int, float)


@dataclass(frozen=True)
class SearchResult(Generic[M]):
    """What a search found, from the point of view of the side to move; every engine
    answers with one.

    ``value`` is in the game's units (seeds, tokens, or a large number for a forced win
    where a game has no units); ``exact`` when the value is proven (every line searched to
    the end of the game, or a forced win found); ``pv`` the expected line, the move first;
    ``reason`` how the move was found: ``search`` (the deepening), or a word of the game's
    engine for a move it found otherwise (each engine lists its own).
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


DEFAULT_LEVEL = 3
"""The level a computer plays unless told another (``computer``, the page's table)."""

PERFECT = 100
"""``--level perfect``: the solver's level, where a game has one; a number apart from the
searching levels, which may grow."""


@dataclass(frozen=True)
class Level:
    """One level of a game's computer: its number, what it does, and whether it searches
    by depths (and so keeps to a depth or a node count: :class:`Limit`)."""

    number: int
    about: str
    depths: bool = True

    @property
    def name(self) -> str:
        """How a person writes it: ``3``, ``perfect``."""
        return "perfect" if self.number == PERFECT else str(self.number)


SEED_LEVELS = tuple(Level(n, f"the seed's minimax, {n} plies deep") for n in range(1, 9))


NO_LIMIT = Limit()
"""A move's search with nothing but its level's own limits."""


class Thinker(Protocol):
    """A computer opponent at one level, for one game at a time."""

    def best_move(self, state: State, stop: Stop, limit: Limit = NO_LIMIT) -> tuple[Move, Any]:
        """The move to play in ``state`` and the engine's account of it, searched as the
        level does but no further than ``limit`` (its depth, its time, the first depth
        that reaches its node count; a level that searches by no depths is refused a depth
        or nodes before the game); a search ended by ``stop`` returns what it has (its
        move is then not to be trusted)."""

    def warm_up(self, state: State) -> None:
        """Compile (and build) what this level's search needs for ``state``'s game, so
        that it happens before any clock starts; nothing where the level needs nothing."""


class Counted(Generic[M]):
    """A deepening search's ``on_iteration`` under ``limit``'s node count: each finished
    depth told on to ``then``, until one has searched the nodes; that one is kept
    (:meth:`answer`) and ``stop`` set, so what is searched past it goes unused and the
    answer does not depend on the machine's speed."""

    def __init__(
        self,
        limit: Limit,
        stop: Stop,
        then: Callable[[SearchResult[M]], None] | None = None,
    ) -> None:
        self.nodes, self.stop, self.then = limit.nodes, stop, then
        self.reached: SearchResult[M] | None = None

    def __call__(self, result: SearchResult[M]) -> None:
        if self.reached is not None:
            return
        if self.then is not None:
            self.then(result)
        if self.nodes is not None and result.nodes >= self.nodes:
            self.reached = result
            self.stop.set()

    def answer(self, result: SearchResult[M]) -> SearchResult[M]:
        """What the search answers: the depth that reached the nodes, else its own
        ``result``."""
        return result if self.reached is None else self.reached


@overload
def capped(own: N, cap: N | None) -> N: ...
@overload
def capped(own: N | None, cap: N | None) -> N | None: ...
def capped(own: N | None, cap: N | None) -> N | None:
    """A level's own bound (a time, a depth; None: none) under a limit's ``cap``."""
    if cap is None:
        return own
    return cap if own is None else min(own, cap)
