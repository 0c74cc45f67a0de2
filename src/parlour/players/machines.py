"""Players that are programs: the computer at a level and a random mover.

Both answer ``Play`` with ``Move``.  The computer keeps one thinker (and its
transposition table) for the whole game and searches in a worker thread, its mailbox
open meanwhile: ``GameOver`` (a resignation, an abort) or its own stop ends the search
within moments, so no thread outlives the game.
"""

from __future__ import annotations

import functools
import random
from typing import Any

from parlour.actors import Actor, GameOver, Move, Play, View
from parlour.actors.runtime import Piped, Reply, in_thread
from parlour.core import State
from parlour.kit import thinker
from parlour.search import Stop, Thinker


class ComputerPlayer(Actor):
    """The computer at ``level``: the seed's plain minimax ``level`` plies deep for levels
        1-3, the game's engine above (searching ``seconds`` a move, where given; on a clock, never
    more than its :func:`share`)."""

    def __init__(self, level: int, seconds: float | None = None) -> None:
        if level < 1:
            raise ValueError(f"the computer's level must be 1 or more, not {level}")
        self.level = level
        self.seconds = seconds
        self._thinker: Thinker | None = None  # made for the game of the first Play
        self._stop = Stop()
        self._answer: Reply | None = None

    async def receive(self, message: Any) -> None:
        match message:
            case Play(view):
                if self._thinker is None:
                    self._thinker = thinker(view.state.game.name, self.level, self.seconds)
                self._stop, self._answer = Stop(), self.defer()
                think = functools.partial(_within, self._thinker, share(view))
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


def share(view: View) -> float | None:
    """The seconds a move may take on the clock of ``view`` (None: no clock): a
    thirtieth of what is left and most of the increment, never more than half of what is
    left, so that a game's worth of moves fits."""
    if view.clock is None:
        return None
    left = view.clock[view.state.to_move]
    return min(left / 30 + view.increment * 0.8, left / 2)


def _within(thinker: Thinker, seconds: float | None, state: State, stop: Stop) -> tuple[Any, Any]:
    """The thinker's move, its search stopped after ``seconds`` (None: its own time)."""
    with stop.until(seconds) as clock:
        return thinker.best_move(state, clock)


class RandomPlayer(Actor):
    """Plays a legal move at random; the same ``seed`` gives the same game."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    async def receive(self, message: Any) -> None:
        match message:
            case Play(view):
                self.reply(Move(self.rng.choice(view.legal_moves)))
