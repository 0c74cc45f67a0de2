"""What the Referee and the Dealer share: an actor that hosts one game.

The game runs in a task of the host's own (:meth:`Actor.pipe`), so the host's mailbox
stays open while it runs.  ``StartGame`` starts it (an ask, answered with the outcome
when the game ends, however it ends; asked again later, the same outcome at once),
``Abort(why)`` ends it at once with no winner, ``Watch(observer)`` adds an observer and
answers with the game so far, and a host stopped in the middle of its game aborts it, so
that nobody waits on it.  The end is told once, whichever comes first.
"""

from __future__ import annotations

import asyncio
from abc import abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from parlour.actors.messages import Abort, Watch
from parlour.actors.runtime import Actor, Piped, Ref, Reply

OutcomeT = TypeVar("OutcomeT")  # the hosted game's outcome


@dataclass(frozen=True)
class StartGame:
    """Ask the host to play its game; the answer is the outcome."""


class Host(Actor, Generic[OutcomeT]):
    """Base of the actors that run a game: subclasses say how to play it (:meth:`play`),
    what an abort gives (:meth:`aborted`), how the end is told (:meth:`announce`), what a
    late observer is shown (:meth:`so_far`), and handle their own messages in
    :meth:`react`."""

    def __init__(self, observers: Sequence[Ref]) -> None:
        self.observers = tuple(observers)
        self.outcome: OutcomeT | None = None  # set once, when the end is told
        self._game: asyncio.Task[None] | None = None
        self._waiting: list[Reply] = []  # the StartGame asks, answered at the end

    @abstractmethod
    async def play(self) -> OutcomeT:
        """Play the game to its end: the outcome, not yet told."""

    @abstractmethod
    def aborted(self, why: str) -> OutcomeT:
        """The outcome of the game ended now, for ``why``, with no winner."""

    @abstractmethod
    def announce(self, outcome: OutcomeT) -> None:
        """Tell the players and observers that the game has ended."""

    @abstractmethod
    def so_far(self) -> Any:
        """What a late observer is answered: the game so far."""

    async def react(self, message: Any) -> None:
        """Handle a message of the subclass's own (none by default)."""

    async def receive(self, message: Any) -> None:
        match message:
            case StartGame():
                if self.outcome is not None:
                    self.reply(self.outcome)
                    return
                self._waiting.append(self.defer())
                if self._game is None:
                    self._game = self.pipe(self.play(), "game")
            case Piped("game", outcome, None):
                self.finish(outcome)
            case Piped("game", _, BaseException() as error):
                raise error  # a bug of the rules: the host crashes with it (and aborts)
            case Abort(why):
                self.finish(self.aborted(why))
            case Watch(observer):
                if all(observer is not ref for ref in self.observers):
                    self.observers += (observer,)
                self.reply(self.so_far())
            case _:
                await self.react(message)

    def stopping(self) -> None:
        self.finish(self.aborted(f"the {type(self).__name__.lower()} stopped"))

    def finish(self, outcome: OutcomeT) -> None:
        """End the game with ``outcome`` unless it has ended: drop what the game waits for,
        tell everyone, answer every ``StartGame``."""
        if self.outcome is not None:
            return
        self.outcome = outcome
        if self._game is not None:
            self._game.cancel()
        self.announce(outcome)
        for reply in self._waiting:
            reply.send(outcome)
        self._waiting.clear()
