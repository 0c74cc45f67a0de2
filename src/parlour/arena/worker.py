"""One game of a plan, played through the Referee: what every executor runs.

:func:`play_job` is a plain function of values (a plan and a job in, a
:class:`GameRecord` out), so a process pool or a Ray task can run it anywhere.  Each
process keeps one event loop and the numba kernels it has compiled (or loaded from
numba's cache) between games: only its first game of a kind pays for them.  It keeps the
engines of a protocol of their game's own (Gomocup's) running from game to game too, a
new game theirs to begin.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import cache
from typing import Any

from parlour.actors import Actor, GameOver, Moved, Ref, Referee, spawn
from parlour.actors.host import StartGame
from parlour.actors.messages import Forfeit
from parlour.arena.plan import Job, Plan, start_after
from parlour.arena.seat import MARGIN, Seat
from parlour.core import State, game
from parlour.outcome import Outcome
from parlour.players.external import TOLERANCE, Kept, Prepared
from parlour.players.specs import PlayerSpec
from parlour.records.store import Finished, InMatch


@dataclass(frozen=True)
class GameRecord:
    """A game of a match as a worker hands it back: the game as the store keeps it (the
    moves from the start, the opening's first; the seconds each move after the opening
    took, as the Referee saw it) and its place in the match."""

    played: Finished
    place: InMatch


class _Clock(Actor):
    """An observer of the Referee that notes when each move arrives."""

    def __init__(self) -> None:
        self.names: list[str] = []
        self.seconds: list[float] = []
        self._last = time.perf_counter()

    async def receive(self, message: Any) -> None:
        match message:
            case Moved(name=name):
                now = time.perf_counter()
                self.names.append(name)
                self.seconds.append(round(now - self._last, 6))
                self._last = now
            case GameOver():
                self.stop()


@cache
def _loop() -> asyncio.AbstractEventLoop:
    """This process's event loop, kept for all its games."""
    return asyncio.new_event_loop()


@cache
def _start(name: str, options: tuple[tuple[str, Any], ...]) -> State:
    return game(name, **dict(options)).start()


def play_job(plan: Plan, job: Job) -> GameRecord:
    """Play ``job`` of ``plan`` to its end and return its record."""
    first = _start(plan.game, tuple(sorted(plan.options.items())))
    return _loop().run_until_complete(_play(plan, job, first))


async def _play(plan: Plan, job: Job, first: State) -> GameRecord:
    start = start_after(first, job.opening)
    seats = [await _seat(plan, job, seat, start) for seat in range(2)]
    clock = _Clock()
    watcher = spawn(clock)
    seated = [spawn(seat) for seat in seats]
    referee = spawn(Referee(start, seated, [watcher], clock=plan.time_control))
    for seat in seats:
        seat.referee = referee
    started = _now()
    kept = [player for _, player in _KEPT.values()]
    gone = [seat.player for seat in seats if seat.player not in kept]
    try:
        outcome: Outcome = await referee.ask(StartGame())
    finally:
        referee.stop()
        for seat in seats:
            seat.ref.stop()
        for seat in seats:  # a seat passes GameOver on before its player is stopped
            await seat.ref.join()
        for player in gone:
            player.stop()
    await watcher.join()
    for player in gone:
        await player.join()
    decided = next((seat.decided for seat in seats if seat.decided is not None), None)
    reason = outcome.reason.name.lower() if decided is None else "adjudicated"
    outcome = outcome if decided is None else replace(decided, detail=outcome.detail)
    assert outcome.scores is not None  # a Referee's outcome has them, and so has a verdict
    played = Finished(
        game=plan.game,
        options=dict(plan.options),
        players=(plan.players[job.seats[0]], plan.players[job.seats[1]]),
        start=first.notation(),
        moves=(*job.opening, *clock.names),
        winner=outcome.winner,
        reason=reason,
        detail=outcome.detail,
        scores=outcome.scores,
        seconds=tuple(clock.seconds),
        started=started,
        ended=_now(),
        opening=job.opening,
    )
    return GameRecord(played, InMatch(job.index, job.pair, job.seats))


_KEPT: dict[tuple[str, str, str, int], tuple[Actor, Ref]] = {}
"""The players of this process kept from game to game (:class:`Kept`: engines of their
game's own protocol, kept running), each its actor (to prepare for its next game) and
its address, by game, options, spec and place in the plan."""


async def _seat(plan: Plan, job: Job, seat: int, start: State) -> Seat:
    """The seat of ``seat``'s player, its player running and prepared (an engine started,
    a computer's search compiled) before any clock starts."""
    who = job.seats[seat]
    spec = plan.specs()[who]
    actor, player = _player(plan, who, spec, job.seed(plan.seed, seat))
    if isinstance(actor, Prepared):  # an engine's start is no move's thinking time
        with contextlib.suppress(Forfeit):  # the game's to say, at the engine's turn
            await actor.prepare(start)
    seconds = spec.seconds if spec.seconds is not None else plan.seconds
    return Seat(
        player,
        replace(plan.limit, seconds=seconds),
        TOLERANCE if spec.kind == "engine" else MARGIN,
        plan.adjudicate,
    )


def _player(plan: Plan, who: int, spec: PlayerSpec, seed: int) -> tuple[Actor, Ref]:
    """Player ``who`` of ``plan`` running: the one kept from its last game, or a new one
    (kept from now on if it can be)."""
    key = (plan.game, repr(sorted(plan.options.items())), repr(spec), who)
    kept = _KEPT.pop(key, None)
    if kept is not None and kept[1].alive:  # else it left its last game: a new one
        _KEPT[key] = kept
        return kept
    actor = spec.build(seed, plan.game)
    player = spawn(actor)
    if isinstance(actor, Kept):
        actor.keep = True
        _KEPT[key] = actor, player
    return actor, player


def release() -> None:
    """Stop the players kept in this process (their engines ended)."""
    players = [player for _, player in _KEPT.values()]
    _KEPT.clear()
    for player in players:
        player.stop()
    if players:
        _loop().run_until_complete(asyncio.gather(*(player.join() for player in players)))


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")
