"""The computer's engines of a server, shared by its games and bounded in memory.

A game against the computer does not keep an engine of its own (a searching level's
transposition table is about :data:`ENGINE_MB`, and a thousand games would hold a
thousand): each move borrows one from the :class:`EnginePool` for the game's rules and
level, and gives it back when its search has ended.  The pool holds at most
``--max-memory`` worth of engines, lent or idle; a move that finds none free waits for
one (the wait counts on a clock, as thinking does), an idle engine of other rules is
dropped to make one of these, and an engine idle for :data:`IDLE` seconds is dropped, so
that a quiet server holds none.  An engine's table, kept from move to move and game to
game of the same rules, is as good for the next game as for the last.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from parlour.actors import Play, View
from parlour.actors.runtime import in_thread
from parlour.core import BadOption
from parlour.core import Move as MoveValue
from parlour.kit import thinker
from parlour.players.machines import ComputerPlayer, on_clock, within
from parlour.search import Stop, Thinker

ENGINE_MB = 16
"""The memory one engine is counted for: a searching level's table (2**20 entries of 16
bytes; the seed's shallow levels hold less, and are counted the same)."""
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
    """At most ``megabytes`` of engines (``//`` :data:`ENGINE_MB`); BadOption in one line
    when that is not one."""

    def __init__(self, megabytes: int) -> None:
        if megabytes < ENGINE_MB:
            raise BadOption(
                f"--max-memory {megabytes}: the computer's engines need {ENGINE_MB} MB at least"
            )
        self.capacity = megabytes // ENGINE_MB
        self.lent = 0
        self.idle: list[_Idle] = []  # the oldest first
        self._waiting: list[asyncio.Future[None]] = []

    async def borrow(self, key: Hashable, make: Callable[[], Thinker]) -> Thinker:
        """An engine for ``key`` (a game's rules and level): an idle one of that key, else
        a new one (``make``) where there is room, made by dropping the oldest idle engine
        if need be; else the next given back."""
        while True:
            mine = next((i for i in self.idle if i.key == key), None)
            if mine is not None:
                self.idle.remove(mine)
                mine.expiry.cancel()
                self.lent += 1
                return mine.engine
            if self.lent < self.capacity:
                if self.lent + len(self.idle) >= self.capacity:
                    self.idle.pop(0).expiry.cancel()  # an engine of other rules makes room
                self.lent += 1
                return make()
            waiting = asyncio.get_running_loop().create_future()
            self._waiting.append(waiting)
            try:
                await waiting
            finally:
                if waiting in self._waiting:
                    self._waiting.remove(waiting)

    def give_back(self, key: Hashable, engine: Thinker) -> None:
        """``engine`` is free again (its search has ended); the next waiting move may
        have it."""
        self.lent -= 1
        expiry = asyncio.get_running_loop().call_later(IDLE, self._drop, engine)
        self.idle.append(_Idle(key, engine, expiry))
        while self._waiting:
            waiting = self._waiting.pop(0)
            if not waiting.done():
                waiting.set_result(None)
                break

    def _drop(self, engine: Thinker) -> None:
        self.idle = [i for i in self.idle if i.engine is not engine]


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
        """Borrow an engine, search in a thread, and give the engine back once the thread
        has ended (not before: a search stopped runs on a moment)."""
        state, stop = view.state, self._stop
        key = (state.game.name, tuple(sorted(state.game.options.items())), self.level)
        engine = await self.pool.borrow(
            (key, self.seconds), lambda: thinker(state.game.name, self.level, self.seconds)
        )
        loop = asyncio.get_running_loop()
        think = within(engine, on_clock(self.limit, view))

        def search() -> tuple[MoveValue, Any]:
            try:
                move, account = think(state, stop)
                return move, account
            finally:
                with contextlib.suppress(RuntimeError):  # a closed loop: no pool any more
                    loop.call_soon_threadsafe(self.pool.give_back, (key, self.seconds), engine)

        return await in_thread(search, name=self.ref.name)
