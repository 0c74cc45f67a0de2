"""How long or how far a player may think about one move: :class:`Limit`, the one value
that carries a limit from a command line to a player (as python-chess's
``chess.engine.Limit`` does), and :func:`share`, the part of a game's clock a move takes.

A limit is any mix of a time for the move, a depth, a node count and the game's clock of
the side to move (time left and increment): a thinker stops at the first it reaches.
Which limits a thinker honours is its own say; a player that cannot honour one refuses it
before the game (:func:`parlour.players.machines.refusal`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

MAX_NODES = 10**15
"""The most nodes a limit may name (a search of a year or more)."""
MOVES_TO_GO = 20
"""The moves a game's time left is shared over (:func:`share`)."""
START_SECONDS = 300.0
"""Seconds an engine has by default to start and answer ``parlourok``, and ``readyok`` to
each game (``--start-seconds``): a cold start compiles its kernels and builds its tables
(a level-8 warm-up took 78 s on two cores at a load of 8), all before any clock."""


@dataclass(frozen=True)
class Limit:
    """Limits on one move's thinking; None: no limit of that kind."""

    seconds: float | None = None
    """The time for this move."""
    depth: int | None = None
    """Plies to search at most."""
    nodes: int | None = None
    """Positions to search at most (a search by depths stops after the first depth that
    reaches them)."""
    left: float | None = None
    """The time the side to move has left on its game clock (None: no game clock)."""
    increment: float = 0.0
    """What the side to move's clock gains with each move it plays."""

    def with_clock(self, left: float, increment: float) -> Limit:
        """This limit on a game clock with ``left`` seconds gaining ``increment`` a move:
        the move's time its :func:`share` of the clock (or its own time, if shorter)."""
        seconds = share(left, increment)
        if self.seconds is not None:
            seconds = min(seconds, self.seconds)
        return replace(self, seconds=seconds, left=left, increment=increment)

    @property
    def searches(self) -> bool:
        """Whether the limit asks for a search by depth or nodes."""
        return self.depth is not None or self.nodes is not None


def share(left: float, increment: float) -> float:
    """The seconds a move takes of ``left`` on a game clock gaining ``increment`` a move:
    a twentieth of what is left and the increment, never more than half of what is left
    (and at least a millisecond)."""
    return max(0.001, min(left / 2, left / MOVES_TO_GO + increment))
