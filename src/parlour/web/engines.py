"""The computer's engines of a server, shared by its games and bounded in memory.

A game against the computer does not keep an engine of its own (a searching level's
transposition table is about :data:`ENGINE_MB`, and a thousand games would hold a
thousand): each move, and each person's hint, borrows one from the :class:`EnginePool`
for the game's rules and level, and gives it back when its search has ended.  The pool
holds at most ``--max-memory`` worth of engines, lent or idle, each counted for the
memory it was found to hold when it was last given back (its arrays: the seed's shallow
levels hold none and count for :data:`LEAST_BYTES`, a searching level its table), or for
:data:`ENGINE_MB` before any engine of its kind has searched.  A move that finds no room
waits for an engine (the wait counts on a clock, as thinking does), an idle engine of
other rules is dropped to make room, and an engine idle for :data:`IDLE` seconds is
dropped, so that a quiet server holds none.  An engine's table, kept from move to move and
game to game of the same rules, is as good for the next game as for the last.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from parlour.actors import Play, View
from parlour.actors.runtime import in_thread
from parlour.core import BadOption, Game
from parlour.core import Move as MoveValue
from parlour.kit import thinker
from parlour.players.machines import ComputerPlayer, on_clock, within
from parlour.search import Stop, Thinker

ENGINE_MB = 16
"""The memory an engine of a kind not yet seen is counted for: the largest searching
level's table (2**20 entries of 16 bytes)."""
LEAST_BYTES = 1 << 16
"""The least an engine is counted for, arrays or none: its objects."""
T = TypeVar("T")
IDLE = 60.0
"""Seconds an engine stays in the pool unused before it is dropped."""


def default_megabytes() -> int:
    """A quarter of the machine's memory (where the system says it; else 1 GB)."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 1024
    return max(ENGINE_MB, total // 4 >> 20)


@dataclass
class _Idle:
    key: Hashable
    engine: Thinker
    expiry: asyncio.TimerHandle


class EnginePool:
    """At most ``megabytes`` of engines; BadOption in one line when that is less than
    :data:`ENGINE_MB` (an engine not yet measured)."""

    def __init__(self, megabytes: int) -> None:
        if megabytes < ENGINE_MB:
            raise BadOption(
                f"--max-memory {megabytes}: the computer's engines need {ENGINE_MB} MB at least"
            )
        self.budget = megabytes << 20
        self.sizes: dict[Hashable, int] = {}
        """The bytes an engine of each key held when it was last given back."""
        self.lending: list[Hashable] = []  # the key of each engine lent
        self.idle: list[_Idle] = []  # the oldest first
        self._waiting: list[asyncio.Future[None]] = []

    @property
    def lent(self) -> int:
        """How many engines are lent."""
        return len(self.lending)

    def size(self, key: Hashable) -> int:
        """The bytes an engine of ``key`` is counted for."""
        return self.sizes.get(key, ENGINE_MB << 20)

    def held(self) -> int:
        """The bytes of every engine, lent or idle, as they are counted."""
        return sum(map(self.size, self.lending)) + sum(self.size(i.key) for i in self.idle)

    async def borrow(self, key: Hashable, make: Callable[[], Thinker]) -> Thinker:
        """An engine for ``key`` (a game's rules and level): an idle one of that key, else
        a new one (``make``) where there is room, made by dropping the oldest idle engines
        if need be; else wait for an engine given back."""
        while True:
            mine = next((i for i in self.idle if i.key == key), None)
            if mine is not None:
                self.idle.remove(mine)
                mine.expiry.cancel()
                self.lending.append(key)
                return mine.engine
            lent = sum(map(self.size, self.lending))
            if not self.lending or lent + self.size(key) <= self.budget:
                while self.idle and self.held() + self.size(key) > self.budget:
                    self.idle.pop(0).expiry.cancel()  # engines of other rules make room
                self.lending.append(key)
                return make()
            waiting = asyncio.get_running_loop().create_future()
            self._waiting.append(waiting)
            try:
                await waiting
            finally:
                if waiting in self._waiting:
                    self._waiting.remove(waiting)

    def give_back(self, key: Hashable, engine: Thinker) -> None:
        """``engine`` is free again (its search has ended): measured, kept idle, and the
        next waiting move may have it or the room it leaves."""
        self.lending.remove(key)
        self.sizes[key] = max(LEAST_BYTES, arrays_bytes(engine))
        expiry = asyncio.get_running_loop().call_later(IDLE, self._drop, engine)
        self.idle.append(_Idle(key, engine, expiry))
        while self._waiting:
            waiting = self._waiting.pop(0)
            if not waiting.done():
                waiting.set_result(None)
                break

    async def search(
        self, key: Hashable, make: Callable[[], Thinker], search: Callable[[Thinker], T], name: str
    ) -> T:
        """``search(engine)`` in a thread, with an engine borrowed for ``key``, given back
        once the thread has ended (not before: a search stopped runs on a moment)."""
        engine = await self.borrow(key, make)
        loop = asyncio.get_running_loop()

        def run() -> T:
            try:
                return search(engine)
            finally:
                with contextlib.suppress(RuntimeError):  # a closed loop: no pool any more
                    loop.call_soon_threadsafe(self.give_back, key, engine)

        return await in_thread(run, name=name)

    def _drop(self, engine: Thinker) -> None:
        self.idle = [i for i in self.idle if i.engine is not engine]


def rules_of(game: Game) -> Hashable:
    """A game's rules as a pool's key: engines of the same rules share their tables."""
    return game.name, tuple(sorted(game.options.items()))


def arrays_bytes(engine: object, depth: int = 4) -> int:
    """The bytes of the arrays ``engine`` holds (its search tables), found through its
    attributes and its containers' items, ``depth`` references deep (each array once):
    what an engine holds is measured, not assumed, whatever game it plays."""
    seen: set[int] = set()

    def walk(thing: object, depth: int) -> int:
        if id(thing) in seen or depth < 0:
            return 0
        seen.add(id(thing))
        if isinstance(thing, np.ndarray):
            return int(thing.nbytes)
        if isinstance(thing, dict):
            parts: Iterable[object] = thing.values()
        elif isinstance(thing, list | tuple | set | frozenset):
            parts = thing
        elif isinstance(thing, str | bytes | int | float | type(None)):
            return 0
        else:
            slots = getattr(type(thing), "__slots__", ())
            parts = [*getattr(thing, "__dict__", {}).values()]
            parts += [getattr(thing, slot) for slot in slots if hasattr(thing, slot)]
        return sum(walk(part, depth - 1) for part in parts)

    return walk(engine, depth)


class PooledComputer(ComputerPlayer):
    """The computer at a level, its engine borrowed from ``pool`` for each move."""

    def __init__(self, level: int, seconds: float | None, pool: EnginePool) -> None:
        super().__init__(level, seconds)
        self.pool = pool

    async def receive(self, message: Any) -> None:
        if isinstance(message, Play):
            self._stop, self._answer = Stop(), self.defer()
            self.pipe(self._move(message.view), "move")
            return
        await super().receive(message)

    async def _move(self, view: View) -> tuple[MoveValue, Any]:
        """Search in a thread with an engine borrowed for this game's rules and level."""
        state, stop = view.state, self._stop
        think = on_clock(self.limit, view)

        def search(engine: Thinker) -> tuple[MoveValue, Any]:
            move, account = within(engine, think)(state, stop)
            return move, account

        return await self.pool.search(
            (rules_of(state.game), self.level, self.seconds),
            lambda: thinker(state.game.name, self.level, self.seconds),
            search,
            self.ref.name,
        )
