"""Players that are programs: the computer at a level and a random mover.

Both answer ``Play`` with ``Move``.  The computer keeps one thinker (and its
transposition table) for the whole game and searches in a worker thread, its mailbox
open meanwhile: ``GameOver`` (a resignation, an abort) or its own stop ends the search
within moments, so no thread outlives the game.  A :class:`~parlour.search.limit.Limit`
told before a ``Play`` (the arena's seat does, from its time controls) bounds that move's
search: the level searches as it does, but no deeper than the limit's depth, no longer
than its time, and no further than the first depth that reaches its node count
(``Thinker.best_move``).  In a game on the Referee's clock (the ``View`` says the time
left) a move takes its share of that time at most (:func:`on_clock`).
"""

from __future__ import annotations

import random
from typing import Any

from parlour.actors import Actor, GameOver, Move, Play, View
from parlour.actors.runtime import Piped, Reply, in_thread
from parlour.core import Move as MoveValue
from parlour.core import State
from parlour.kit import kit_of, thinker
from parlour.search import Stop, Thinker
from parlour.search.limit import Limit


class ComputerPlayer(Actor):
    """The computer at ``level`` of the game's kit (searching ``seconds`` a move, where
    given), each move within the :class:`Limit` it was last told."""

    def __init__(self, level: int, seconds: float | None = None) -> None:
        if level < 1:
            raise ValueError(f"the computer's level must be 1 or more, not {level}")
        self.level = level
        self.seconds = seconds
        self.limit = Limit()
        self._thinker: Thinker | None = None  # made for the game of the first Play
        self._stop = Stop()
        self._answer: Reply | None = None

    async def prepare(self, start: State) -> None:
        """The thinker made and warmed up (compiled, its tables built) before the clock
        starts, in a thread: a game's clock counts thinking, not compiling."""
        mind = self._mind(start)
        await in_thread(mind.warm_up, start, name="computer warm-up")

    def _mind(self, state: State) -> Thinker:
        if self._thinker is None:
            self._thinker = thinker(state.game.name, self.level, self.seconds)
        return self._thinker

    async def receive(self, message: Any) -> None:
        match message:
            case Limit() as limit:
                self.limit = limit
            case Play(view):
                self._stop, self._answer = Stop(), self.defer()
                think = within(self._mind(view.state), on_clock(self.limit, view))
                self.pipe(in_thread(think, view.state, self._stop, name=self.ref.name), "move")
            case Piped("move", (move, _), None):
                if self._answer is not None:
                    self._answer.send(Move(move))
            case Piped("move", _, BaseException() as error):
                raise error
            case GameOver():
                self._stop.set()

    def stopping(self) -> None:
        self._stop.set()
        self._thinker = self._answer = None  # the answer refers back: free the engine now


def on_clock(limit: Limit, view: View) -> Limit:
    """``limit`` with the move's share of the time left in ``view``, in a game on the
    Referee's clock; ``limit`` itself otherwise."""
    if view.clock is None:
        return limit
    return limit.with_clock(view.clock[view.state.to_move], view.increment)


def within(mind: Thinker, limit: Limit) -> Any:
    """``mind``'s way to a move within ``limit``: its own search, kept to the limit (and
    cut short by its time, whatever the thinker does with it)."""

    def think(state: State, stop: Stop) -> tuple[MoveValue, Any]:
        with stop.until(limit.seconds) as clock:
            move, account = mind.best_move(state, clock, limit)
        legal = state.legal_moves()
        return (move if move in legal else legal[0]), account  # stopped before any answer

    return think


def refusal(game_name: str, level: int, limit: Limit) -> str | None:
    """Why the computer at ``level`` cannot keep to ``limit`` in the game called
    ``game_name`` (None when it can, or when the game has no such level, which
    :func:`~parlour.kit.check_level` refuses): a depth or a node count needs a level that
    searches by depths."""
    found = [known for known in kit_of(game_name).levels if known.number == level]
    if limit.searches and found and not found[0].depths:
        kind = "a depth" if limit.depth is not None else "a node count"
        return (
            f"level {found[0].name} of {game_name} cannot keep to {kind}: it plays "
            f"{found[0].about}, not a search by depths"
        )
    return None


class RandomPlayer(Actor):
    """Plays a legal move at random; the same ``seed`` gives the same game."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    async def receive(self, message: Any) -> None:
        match message:
            case Play(view):
                self.reply(Move(self.rng.choice(view.legal_moves)))
