"""Players that are programs: the seed's computer levels and a random mover.

Both answer ``Play`` with ``Move`` and ignore everything else.  The search runs in a worker
thread (``asyncio.to_thread``), so the Referee and the screen stay responsive meanwhile.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

from parlour.actors import Actor, Move, Play
from parlour.search import best_move


class ComputerPlayer(Actor):
    """The computer at ``level``: the seed's plain minimax ``level`` plies deep for levels
    1-3, the game's engine above (searching ``seconds`` a move, where given)."""

    def __init__(self, level: int, seconds: float | None = None) -> None:
        if level < 1:
            raise ValueError(f"the computer's level must be 1 or more, not {level}")
        self.level = level
        self.seconds = seconds

    async def receive(self, message: Any) -> None:
        match message:
            case Play(view):
                move, _ = await asyncio.to_thread(best_move, view.state, self.level, self.seconds)
                self.reply(Move(move))


class RandomPlayer(Actor):
    """Plays a legal move at random; the same ``seed`` gives the same game."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    async def receive(self, message: Any) -> None:
        match message:
            case Play(view):
                self.reply(Move(self.rng.choice(view.legal_moves)))
