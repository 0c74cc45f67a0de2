"""The ``--players`` specs every play command shares: ``human``, ``computer:LEVEL``, ``random``.

``parse_players("human,computer:3")`` gives one :class:`PlayerSpec` a seat (player 0
first); :meth:`PlayerSpec.build` makes the actor of a program; :func:`seat_names` names the
seats for the screens.  A bad spec raises BadOption naming the problem (the commands'
``--players`` turns it into a one-line usage error).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from parlour.actors import Actor
from parlour.core import BadOption, parse_whole, shown
from parlour.players.machines import ComputerPlayer, RandomPlayer

DEFAULT_LEVEL = 3
MAX_LEVEL = 8  # 1-3 the seed's minimax, above it the game's engine (parlour.search)
KINDS = ("human", "computer", "random")
PERFECT = 100
"""``--level perfect``: the sowing games' perfect player (parlour.search.solve); a number
apart from the levels, which may grow."""


@dataclass(frozen=True)
class PlayerSpec:
    """Who sits in a seat: a person, the computer at a level, or a random mover."""

    kind: str
    level: int = DEFAULT_LEVEL
    seconds: float | None = None
    """The computer's time a move (``--time``), for levels that search on a clock."""

    @property
    def human(self) -> bool:
        return self.kind == "human"

    def build(self, seed: int | None = None) -> Actor:
        """The actor of a program seat (a person's seat is the terminal's business)."""
        if self.kind == "computer":
            return ComputerPlayer(self.level, self.seconds)
        if self.kind == "random":
            return RandomPlayer(seed)
        raise ValueError("a human seat has no program to build")

    def __str__(self) -> str:
        level = "perfect" if self.level == PERFECT else self.level
        return f"computer:{level}" if self.kind == "computer" else self.kind


def parse_player(text: str) -> PlayerSpec:
    """One spec: ``human``, ``random``, ``computer`` (level 3) or ``computer:LEVEL``."""
    kind, sep, level_text = text.strip().lower().partition(":")
    if kind not in KINDS:
        raise BadOption(
            f"unknown player {shown(text.strip())}; the players are human, computer:LEVEL, random"
        )
    if not sep:
        return PlayerSpec(kind)
    if kind != "computer":
        raise BadOption(f"only the computer has a level, not {shown(text.strip())}")
    return PlayerSpec(kind, parse_level(level_text))


def parse_level(text: str) -> int:
    """The computer's level, 1 to MAX_LEVEL (``--level``, and ``computer:LEVEL``), or
    ``perfect`` (PERFECT: the sowing games' solver, where it proves in time)."""
    if text.strip().lower() == "perfect":
        return PERFECT
    return parse_whole(text, "the computer's level", 1, MAX_LEVEL, BadOption)


def parse_players(text: str) -> tuple[PlayerSpec, PlayerSpec]:
    """Two specs separated by a comma, player 0's first."""
    parts = text.split(",")
    if len(parts) != 2:
        raise BadOption(
            f"give two players separated by a comma, e.g. human,computer:3; got {shown(text)}"
        )
    return parse_player(parts[0]), parse_player(parts[1])


def timed(
    specs: tuple[PlayerSpec, PlayerSpec], seconds: float | None
) -> tuple[PlayerSpec, PlayerSpec]:
    """The specs with every computer given ``seconds`` a move (None: the level's own)."""
    first, second = (replace(s, seconds=seconds) if s.kind == "computer" else s for s in specs)
    return first, second


def seat_names(specs: tuple[PlayerSpec, PlayerSpec]) -> tuple[str, str]:
    """How the screens call each seat: the seed's "You" and "Computer" when there is one of
    each, numbered names ("Player 2", "Computer 1") when two of a kind share the board."""
    names = []
    for seat, spec in enumerate(specs):
        alike = sum(s.human == spec.human for s in specs) == 2
        if spec.human:
            names.append(f"Player {seat + 1}" if alike else "You")
        else:
            names.append(f"Computer {seat + 1}" if alike else "Computer")
    return names[0], names[1]
