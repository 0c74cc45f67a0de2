"""The ``--players`` specs every play command shares: ``human``, ``computer:LEVEL``, ``random``,
``engine[@MIB]:PATH[:ARGS]`` (an outside program, given MIB mebibytes where its protocol
takes a memory: the game's own protocol, Gomocup's for five in a row, parlour's for the
rest), ``python:MODULE:FUNCTION[:ARG]``
(a player some Python code builds, such as a benchmark's adapter of another program's bot).

``parse_players("human,computer:3")`` gives one :class:`PlayerSpec` a seat (player 0
first); :meth:`PlayerSpec.build` makes the actor of a program; :func:`seat_names` names the
seats for the screens.  A bad spec raises BadOption naming the problem (the commands'
``--players`` turns it into a one-line usage error).
"""

from __future__ import annotations

import importlib
import inspect
import os
import shlex
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import cast

from parlour.actors import Actor
from parlour.core import BadOption, game_names, parse_seconds, parse_whole, shown
from parlour.kit import check_level, kit_of, numbers_of
from parlour.players.machines import ComputerPlayer, RandomPlayer, refusal
from parlour.search import DEFAULT_LEVEL, PERFECT
from parlour.search.limit import START_SECONDS, Limit

KINDS = ("human", "computer", "random", "engine", "python")
ENGINE_SECONDS = 5.0
"""An engine's time a move when ``--time`` gives none."""
MAX_MIB = 1 << 20
"""The most memory an engine may be given, in MiB (a tebibyte)."""


@dataclass(frozen=True)
class PlayerSpec:
    """Who sits in a seat: a person, the computer at a level, or a random mover."""

    kind: str
    level: int = DEFAULT_LEVEL
    seconds: float | None = None
    """The time a move of a computer (for levels that search on a clock) or an engine."""
    command: tuple[str, ...] = ()
    """An engine's program and its arguments; a python player's module, function and
    argument ("" for none)."""
    memory: int | None = None
    """An engine's memory in MiB (0: no limit; None: the engine player's default)."""
    start_seconds: float | None = None
    """The time an engine of parlour's protocol has to start and to be ready for each game
    (None: the engine player's default)."""

    @property
    def human(self) -> bool:
        return self.kind == "human"

    def check(self, game_name: str) -> None:
        """BadOption, in the kit's words, if this is a computer at a level the game called
        ``game_name`` lacks ("ayo has levels 1-8; perfect plays kalah and mancala")."""
        if self.kind == "computer":
            check_level(game_name, self.level)

    def refusal(self, game_name: str, limit: Limit) -> str | None:
        """Why this player cannot keep to ``limit`` in the game called ``game_name`` (None
        when it can, or when only its own code can tell: a python player): a computer
        without a search by depths, an engine of a protocol of the game's own, which is
        told a time a move only."""
        if self.kind == "computer":
            return refusal(game_name, self.level, limit)
        on_clock = limit.searches or limit.left is not None
        own = self.kind == "engine" and on_clock
        if own and kit_of(game_name).engine_player(self.command, 1.0, None) is not None:
            return (
                f"{game_name}'s engines speak a protocol of their own, told a time a move "
                "only (--time): a game clock, a depth or nodes need parlour's"
            )
        return None

    def clocked(self, seconds: float | None) -> PlayerSpec:
        """This player with ``seconds`` a move if it thinks on a clock (a computer, an
        engine), else as it is."""
        return replace(self, seconds=seconds) if self.kind in ("computer", "engine") else self

    def build(self, seed: int | None = None, game_name: str | None = None) -> Actor:
        """The actor of a program seat (a person's seat is the terminal's business) in the
        game called ``game_name`` (which an engine's seat needs: its protocol is the game's)."""
        if self.kind == "computer":
            return ComputerPlayer(self.level, self.seconds)
        if self.kind == "random":
            return RandomPlayer(seed)
        if self.kind == "engine":
            return self._engine(game_name)
        if self.kind == "python":
            return build_python(self.command, seed)
        raise ValueError("a human seat has no program to build")

    def _engine(self, game_name: str | None) -> Actor:
        """An outside engine's player: the one the game's kit makes for its own protocol
        (Gomocup's, for five in a row), or parlour's engine protocol's."""
        if game_name is None:
            raise ValueError("an engine's seat needs its game, whose protocol it speaks")
        seconds = self.seconds or ENGINE_SECONDS
        memory = None if self.memory is None else self.memory << 20
        player = kit_of(game_name).engine_player(self.command, seconds, memory)
        if player is not None:
            return cast(Actor, player)
        from parlour.players.external import ProtocolPlayer

        start = START_SECONDS if self.start_seconds is None else self.start_seconds
        return ProtocolPlayer(self.command, seconds, start)

    def __str__(self) -> str:
        if self.kind == "engine":
            memory = "" if self.memory is None else f"@{self.memory}"
            program, *arguments = self.command
            tail = f":{shlex.join(arguments)}" if arguments else ""
            return f"engine{memory}:{program}{tail}"
        if self.kind == "python":
            return "python:" + ":".join(part for part in self.command if part)
        if self.kind != "computer":
            return self.kind
        level = "perfect" if self.level == PERFECT else self.level
        clock = "" if self.seconds is None else f"@{self.seconds:g}"
        return f"computer:{level}{clock}"


def parse_player(text: str) -> PlayerSpec:
    """One spec: ``human``, ``random``, ``computer`` (level 3), ``computer:LEVEL``,
    ``computer:LEVEL@SECONDS`` (a time a move, for the levels that search on a clock), or
    ``engine[@MIB]:PATH[:ARGS]``, or ``python:MODULE:FUNCTION[:ARG]``."""
    if text.strip().lower().startswith(("engine:", "engine@")):
        return parse_engine(text.strip()[len("engine") :])
    if text.strip().lower().startswith("python:"):
        return parse_python(text.strip()[len("python:") :])
    kind, sep, level_text = text.strip().lower().partition(":")
    if kind not in KINDS:
        raise BadOption(
            f"unknown player {shown(text.strip())}; the players are human, computer:LEVEL, "
            "random, engine:PATH, python:MODULE:FUNCTION"
        )
    if kind in ("engine", "python"):
        raise BadOption(
            "an engine needs its program: engine:PATH[:ARGS]"
            if kind == "engine"
            else "a python player needs its builder: python:MODULE:FUNCTION[:ARG]"
        )
    if not sep:
        return PlayerSpec(kind)
    if kind != "computer":
        raise BadOption(f"only the computer has a level, not {shown(text.strip())}")
    level_text, at, seconds_text = level_text.partition("@")
    seconds = parse_seconds(seconds_text, "the computer's time a move", 0.01) if at else None
    return PlayerSpec(kind, parse_level(level_text), seconds)


def parse_engine(text: str) -> PlayerSpec:
    """``[@MIB]:PATH[:ARGS]``: an engine's memory in MiB (0: no limit), its program,
    which must be there to run, and its arguments (split as a shell would).  The program's
    path is what comes before the first colon after it, so a path with a colon in it
    cannot be named here."""
    memory_text, _, text = text.partition(":")
    memory = None
    if memory_text:
        memory = parse_whole(memory_text[1:], "an engine's memory in MiB", 0, MAX_MIB, BadOption)
    path, _, args = text.partition(":")
    if not path.strip():
        raise BadOption("engine:PATH needs the engine's program, e.g. engine:./pbrain-wine")
    program = os.path.expanduser(path.strip())
    if not (os.path.isfile(program) and os.access(program, os.X_OK)):
        raise BadOption(f"the engine {shown(path.strip())} is not a program that can be run")
    try:
        arguments = shlex.split(args)
    except ValueError as error:
        raise BadOption(f"the engine's arguments {shown(args)}: {error}") from None
    return PlayerSpec("engine", command=(program, *arguments), memory=memory)


def parse_python(text: str) -> PlayerSpec:
    """``MODULE:FUNCTION[:ARG]``: a player that ``FUNCTION(ARG, seed)`` of the importable
    ``MODULE`` builds (ARG "" when not given; ``seed`` the seat's random seed).  The
    module is imported and the function looked up here, so that a spec that cannot build
    its player is refused before any game; the arena's workers import it again (the local
    ones start with this process's ``sys.path``; a Ray cluster needs the module on its own)."""
    module_name, _, rest = text.partition(":")
    function_name, _, argument = rest.partition(":")
    module_name, function_name = module_name.strip(), function_name.strip()
    if not module_name or not function_name:
        raise BadOption(
            f"{shown('python:' + text)} needs a module and a function: python:MODULE:FUNCTION[:ARG]"
        )
    function = getattr(_module(module_name), function_name, None)
    if not callable(function):
        raise BadOption(f"the module {module_name} has no function {shown(function_name)}")
    _check_builder(f"python:{module_name}:{function_name}", function)
    return PlayerSpec("python", command=(module_name, function_name, argument))


def _module(name: str) -> object:
    try:
        return importlib.import_module(name)
    except ImportError as error:
        raise BadOption(f"cannot import the module {shown(name)}: {error}") from None
    except Exception as error:  # the module's own code failed: say so, never crash
        raise BadOption(f"the python player's module {shown(name)} fails: {error!r}") from None


def _check_builder(name: str, function: Callable[..., object]) -> None:
    """BadOption unless ``function`` takes the two arguments a builder is given (ARG and
    the seed): ``python:os:getcwd`` is refused here, not in a traceback at the first game.
    A function whose signature Python cannot tell is taken on trust."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return
    try:
        signature.bind("", 0)
    except TypeError as error:
        raise BadOption(
            f"{name} cannot build a player: it must take ARG and a seed ({error})"
        ) from None


def build_python(command: tuple[str, ...], seed: int | None) -> Actor:
    """The actor ``FUNCTION(ARG, seed)`` of ``MODULE`` builds (checked to be one), from
    the spec's (MODULE, FUNCTION, ARG)."""
    module, function, argument = command
    player = getattr(importlib.import_module(module), function)(argument, seed)
    if not isinstance(player, Actor):
        raise TypeError(f"python:{module}:{function} built {player!r}, not a player actor")
    return player


def parse_level(text: str) -> int:
    """The computer's level (``--level``, and ``computer:LEVEL``): 1 to the most any game
    has, or ``perfect`` (PERFECT: a solver's, where the game has one).  Which levels a
    game has is its kit's say (:meth:`PlayerSpec.check`)."""
    if text.strip().lower() == "perfect":
        return PERFECT
    return parse_whole(text, "the computer's level", 1, max_level(), BadOption)


def max_level() -> int:
    """The strongest searching level of any game (the kits' levels, perfect apart)."""
    return max(n for name in game_names() for n in numbers_of(name) if n != PERFECT)


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
    """The specs with every computer and engine given ``seconds`` a move (None: the
    level's own, or an engine's default)."""
    first, second = (s.clocked(seconds) for s in specs)
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
