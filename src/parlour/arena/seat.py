"""What the arena puts between the Referee and each player: the limits the player is
told before each move, its time a move, and adjudication.

A :class:`Seat` is an actor in the Referee's player list that passes every message on to
its player.  Before each ``Play`` it tells the player the move's
:class:`~parlour.search.limit.Limit`: the plan's depth and nodes, with the player's time a
move or, in a game on a clock, its share of the time the ``View`` says it has left (the
one share: :func:`parlour.players.machines.on_clock`).  The game's clock is the Referee's
(one timer: it flags a player whose time runs out, whatever kind it is); a time a move is
the seat's, which waits for the answer no longer than that and a margin.  A player past
its time loses on time (``time``), in-process players as outside engines.  With
adjudication on, a position the game's kit calls decided
(:meth:`parlour.kit.Kit.decided`) ends the game before its player is asked.
"""

from __future__ import annotations

import time
from typing import Any

from parlour.actors import Actor, Play, Ref, TimeControl
from parlour.actors.messages import Abort, Forfeit
from parlour.actors.runtime import ActorStopped, AskTimeout, Piped, Reply
from parlour.core import parse_seconds
from parlour.kit import kit_of
from parlour.outcome import Outcome, Reason
from parlour.players.machines import on_clock
from parlour.search.limit import Limit

MARGIN = 0.2
"""Seconds an in-process player may take over its time before it loses on time (the
event loop and the search's stop take a moment, more on a busy machine)."""


def parse_time_control(text: str) -> TimeControl:
    """``BASE`` or ``BASE+INC`` in seconds (BadOption naming the problem)."""
    base, plus, increment = text.strip().partition("+")
    return TimeControl(
        parse_seconds(base, "the time control's base", 0.01),
        parse_seconds(increment, "the time control's increment", 0) if plus else 0.0,
    )


class Seat(Actor):
    """The seat of ``player`` (a running player actor): told ``fixed`` limits each move
    (with its share of the game's clock, in a game on one), losing on time ``margin``
    seconds past its time a move; with ``adjudicate``, a decided position ends the game
    (:attr:`decided`) through :attr:`referee`, which the caller sets once the Referee is
    running."""

    def __init__(
        self, player: Ref, fixed: Limit, margin: float = MARGIN, adjudicate: bool = False
    ) -> None:
        self.player = player
        self.fixed = fixed
        self.margin = margin
        self.adjudicate = adjudicate
        self.referee: Ref | None = None
        self.decided: Outcome | None = None
        self._answer: Reply | None = None
        self._began = 0.0
        self._allowed: float | None = None

    async def receive(self, message: Any) -> None:
        match message:
            case Play(view):
                if self.adjudicate and self._adjudicated(view.state):
                    return
                limit = on_clock(self.fixed, view)
                self._allowed = None if view.clock is not None else limit.seconds
                self.player.tell(limit, self.ref)
                self._answer, self._began = self.defer(), time.perf_counter()
                timeout = None if self._allowed is None else self._allowed + self.margin
                self.pipe(self.player.ask(message, timeout), "answer")
            case Piped("answer", answer, None):
                self._charge(time.perf_counter() - self._began)
                if self._answer is not None:
                    self._answer.send(answer)
            case Piped("answer", _, AskTimeout()):
                raise self._late()
            case Piped("answer", _, ActorStopped() as stopped):
                if isinstance(stopped.error, Forfeit):
                    raise stopped.error
                if stopped.error is not None:
                    raise Forfeit(Reason.CRASHED, stopped.reason)
                raise Forfeit(Reason.LEFT, f"left the game ({stopped.reason})")
            case Piped("answer", _, BaseException() as error):
                raise error
            case _:
                self.player.tell(message, self.sender)

    def _charge(self, seconds: float) -> None:
        """A forfeit for a move that took ``seconds``, past its time a move."""
        if self._allowed is not None and seconds > self._allowed + self.margin:
            raise self._late()

    def _late(self) -> Forfeit:
        return Forfeit(Reason.TIME, f"ran out of time ({self._allowed:g} s a move)")

    def _adjudicated(self, state: Any) -> bool:
        """Whether the game's kit calls ``state`` decided: if so the game ends (aborted, to
        the Referee; the arena records the decided outcome) and its player is not asked."""
        decided = kit_of(state.game).decided(state)
        if decided is None or self.referee is None:
            return False
        self.decided = decided
        self.referee.tell(Abort(f"adjudicated: {decided.detail}"), self.ref)
        return True
