"""Players that are programs: the computer at a level and a random mover.

Both answer ``Play`` with ``Move``.  The computer keeps one thinker (and its
transposition table) for the whole game and searches in a worker thread, its mailbox
open meanwhile: ``GameOver`` (a resignation, an abort) or its own stop ends the search
within moments, so no thread outlives the game.  A :class:`~parlour.search.limit.Limit`
told before a ``Play`` (the arena's seat does, from its time controls) bounds that move's
search: its time stops the search, and a depth or node count searches with the game's
engine (:func:`limited_search`).  In a game on the Referee's clock (the ``View`` says the
time left) a move takes its share of that time at most (:func:`on_clock`).
"""

from __future__ import annotations

import random
from typing import Any

from parlour.actors import Actor, GameOver, Move, Play, View
from parlour.actors.runtime import Piped, Reply, in_thread
from parlour.core import Move as MoveValue
from parlour.core import State
from parlour.kit import analyze, kit_of, no_engine, thinker
from parlour.search import SearchResult, Stop, Thinker
from parlour.search.limit import Limit


class ComputerPlayer(Actor):
    """The computer at ``level``: the seed's plain minimax ``level`` plies deep for levels
    1-3, the game's engine above (searching ``seconds`` a move, where given)."""

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
    """``mind``'s way to a move within ``limit``: its own search cut short by the limit's
    time, or the game's engine to the limit's depth or nodes."""

    def think(state: State, stop: Stop) -> tuple[MoveValue, Any]:
        with stop.until(limit.seconds) as clock:
            if limit.searches:
                return limited_search(state, limit, clock)
            move, account = mind.best_move(state, clock)
        legal = state.legal_moves()
        return (move if move in legal else legal[0]), account  # stopped before any answer

    return think


def limited_search(state: State, limit: Limit, stop: Stop) -> tuple[MoveValue, SearchResult[Any]]:
    """The move of the game's engine (its analysis, :func:`parlour.kit.analyze`) within
    ``limit``'s depth or node count, or until ``stop``: one search for every level, so a
    depth or a node count means the same whichever computer is told it."""
    result = analyze(state, limit, None, stop)
    return result.move, result


def refusal(game_name: str, limit: Limit) -> str | None:
    """Why the computer cannot keep to ``limit`` in the game called ``game_name`` (None
    when it can): a depth or a node count needs an engine that searches by depths."""
    if limit.searches and not kit_of(game_name).analyses:
        kind = "a depth" if limit.depth is not None else "a node count"
        return f"the computer cannot search {game_name} to {kind}: {no_engine(game_name)}"
    return None


class RandomPlayer(Actor):
    """Plays a legal move at random; the same ``seed`` gives the same game."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    async def receive(self, message: Any) -> None:
        match message:
            case Play(view):
                self.reply(Move(self.rng.choice(view.legal_moves)))
