"""The uniform game interface every game, player and interface of parlour shares.

A :class:`Game` is a value: a rule set with its options (``parlour.game("kalah", seeds=3)``).
A :class:`State` is an immutable position of a game: ``state.play(move)`` returns a new
state and never changes the old one.  Games register themselves by name with
:func:`register`; :func:`game` looks them up and validates their options, so that a typo
in a name or an option is caught with a message that lists what exists.

Every number parlour reads from text (a position, a typed move, an option, a command
line) goes through :func:`digits_value` (mostly by way of :func:`parse_whole`) or
:func:`parse_seconds` here, with its range: the digits 0-9 alone, no sign, and a value
checked before any arithmetic sees it.  Parsers raise only parlour's errors, one line each.
"""

from __future__ import annotations

import functools
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from importlib.metadata import entry_points
from types import MappingProxyType
from typing import Any, ClassVar

Move = Hashable


class ParlourError(ValueError):
    """Base of parlour's errors: every one carries a message a person can read."""


class IllegalMove(ParlourError):
    """A move that is not legal in the state it was played in (the state is unchanged)."""

    def __init__(self, move: object, reason: str) -> None:
        super().__init__(f"illegal move {shown(move)}: {reason}")
        self.move = move
        self.reason = reason


class IllegalReplay(IllegalMove):
    """A move of a game written as move names (:func:`replay`) that is not legal where it
    comes: ``number`` counts the moves from 1."""

    def __init__(self, number: int, move: object, reason: str) -> None:
        super().__init__(move, reason)
        self.number = number

    def within(self, what: str) -> str:
        """The message for the move as a move of ``what`` ("the saved game"), the move
        cut as :func:`shown` cuts a person's text."""
        return f"move {self.number} of {what}, {shown(self.move)}: {self.reason}"


class BadPosition(ParlourError):
    """A position text (or array) that cannot be a position of the game."""


class BadOption(ParlourError):
    """An unknown game, an unknown option, or an option value out of range."""


SHOWN = 40
"""The most characters of a person's text an error message repeats."""
DIGITS = 30
"""The most digits of a number an error message repeats."""

MAX_SEED = 2**63 - 1
"""The largest seed of a random draw: the generators take 63 bits."""

MAX_DEPTH = 99
"""The deepest perft or search a command takes, in plies: far beyond any that finishes
(the engine's "to the end" is 99)."""

MAX_SECONDS = 86_400.0
"""The longest a command thinks, a day: a finite bound, so that a timer can be set."""


def shown(value: object) -> str:
    """``value`` as an error message repeats it: the repr of text, cut to ``SHOWN``
    characters, and a huge whole number by its size alone (``str`` refuses to write one
    of more than 4300 digits)."""
    if isinstance(value, int) and abs(value) >= 10**DIGITS:
        return f"a number of more than {DIGITS} digits"
    text = repr(value)
    return text if len(text) <= SHOWN else f"{text[: SHOWN - 4]}...{text[-1]}"


def digits_note(text: str) -> str:
    """What to add to "not a number" when ``text`` is a number parlour does not read:
    another script's digits (``²``, ``٣``, ``４``) or a sign; empty otherwise."""
    if any(c.isdigit() and not c.isascii() for c in text):
        return "; write numbers with the digits 0-9"
    if text[:1] in ("+", "-") and text[1:].isdigit():
        return "; write numbers without a sign (none here is negative)"
    return ""


def digits_value(text: str, cap: int) -> int | None:
    """``text`` as a whole number if it is one written with the digits 0-9 alone (no sign,
    no space, no other script's digits), else None; a value above ``cap`` comes back as
    ``cap + 1``, found by counting digits, so that a number of any length costs nothing."""
    if not (text.isascii() and text.isdigit()):
        return None
    digits = text.lstrip("0") or "0"
    if len(digits) > len(str(cap)):
        return cap + 1
    return min(int(digits), cap + 1)


ErrorType = Callable[[str], ParlourError]


def parse_whole(
    text: str, what: str, minimum: int, maximum: int, error: ErrorType = BadPosition
) -> int:
    """The whole number ``minimum..maximum`` that ``text`` writes with the digits 0-9;
    ``error`` naming ``what`` otherwise.  Every number parlour reads from text comes here,
    with its range, so no number out of range reaches arithmetic."""
    value = digits_value(text, maximum)
    if value is None:
        raise error(f"{what} must be a whole number, not {shown(text)}{digits_note(text)}")
    if value < minimum:
        raise error(f"{what} must be at least {minimum}, not {value}")
    if value > maximum:
        digits = text.lstrip("0")
        big = int(digits) if len(digits) <= DIGITS else 10**DIGITS  # shown by its size
        raise error(f"{what} must be at most {maximum}, not {shown(big)}")
    return value


def parse_numbers(text: str, what: str, maximum: int, count: int | None = None) -> list[int]:
    """The comma-separated counts ``0..maximum`` of a position text, ``count`` of them if
    given; BadPosition naming ``what`` otherwise."""
    parts = text.split(",")
    if count is not None and len(parts) != count:
        raise BadPosition(f"{what} must be {count} number(s), got {len(parts)}: {shown(text)}")
    return [parse_whole(part, f"each number of {what}", 0, maximum) for part in parts]


def parse_player(text: str, what: str) -> int:
    """A player number of a position text, 0 or 1; BadPosition naming ``what`` otherwise."""
    if text not in ("0", "1"):
        raise BadPosition(f"{what} must be 0 or 1, not {shown(text)}")
    return int(text)


_SECONDS = re.compile(r"[0-9]+(\.[0-9]*)?|\.[0-9]+")


def parse_seconds(text: str, what: str, minimum: float, maximum: float = MAX_SECONDS) -> float:
    """A time in seconds, ``minimum..maximum``, written with the digits 0-9 and at most one
    point (``2``, ``0.5``); BadOption naming ``what`` otherwise: never infinite, never
    "nan", so that a timer can always be set with it."""
    word = text.strip()
    if not _SECONDS.fullmatch(word):
        raise BadOption(
            f"{what} must be a number of seconds like 2 or 0.5, not {shown(text)}"
            + digits_note(word)
        )
    seconds = float(word)
    if not minimum <= seconds <= maximum:
        raise BadOption(f"{what} must be {minimum:g} to {maximum:g} seconds, not {shown(word)}")
    return seconds


_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


@dataclass(frozen=True)
class Option:
    """One knob of a game: its type, default, allowed range and help text.

    ``kind`` is ``int``, ``bool`` or ``str``; an ``int`` option has both bounds, so that
    every value is checked before it is used; ``nullable`` lets ``none`` mean "no limit".
    Values given as text (from the command line) are converted by :meth:`convert`.
    """

    name: str
    kind: type
    default: Any
    help: str
    minimum: int = 0
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    nullable: bool = False

    def __post_init__(self) -> None:
        if self.kind is int and self.maximum is None:
            raise TypeError(f"option {self.name}: a whole-number option needs a maximum")

    def convert(self, value: Any) -> Any:
        """Return ``value`` checked and converted to this option's type, or raise BadOption."""
        if isinstance(value, str):
            value = self._from_text(value.strip())
        if value is None:
            if self.nullable:
                return None
            raise BadOption(f"option {self.name} needs a value")
        if self.kind is bool:
            if not isinstance(value, bool):
                raise BadOption(f"option {self.name} must be true or false, not {shown(value)}")
            return value
        if self.kind is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise BadOption(f"option {self.name} must be a whole number, not {shown(value)}")
            return self._in_range(value)
        if not isinstance(value, str):
            raise BadOption(f"option {self.name} must be text, not {shown(value)}")
        if self.choices and value not in self.choices:
            raise BadOption(
                f"option {self.name} must be one of {', '.join(self.choices)}, not {shown(value)}"
            )
        return value

    def _in_range(self, value: int) -> int:
        assert self.maximum is not None
        if value < self.minimum:
            raise BadOption(
                f"option {self.name} must be at least {self.minimum}, not {shown(value)}"
            )
        if value > self.maximum:
            raise BadOption(
                f"option {self.name} must be at most {self.maximum}, not {shown(value)}"
            )
        return value

    def _from_text(self, text: str) -> Any:
        if self.nullable and text.lower() in {"none", "null"}:  # RULES.md: none, never ""
            return None
        if self.kind is bool:
            if text.lower() in _TRUE:
                return True
            if text.lower() in _FALSE:
                return False
            raise BadOption(f"option {self.name} must be true or false, not {shown(text)}")
        if self.kind is int:
            assert self.maximum is not None  # every whole-number option has one: __post_init__
            return parse_whole(text, f"option {self.name}", self.minimum, self.maximum, BadOption)
        return text


class Reason(StrEnum):
    """Why a game ended: by its rules, or how a player (or the outside) ended it."""

    RULES = "the rules"
    """The rules ended it: five in a row, a row without seeds, all tokens taken..."""
    OUT_OF_CARDS = "out of cards"
    """War: a player had no card to put."""
    ROUND_LIMIT = "round limit"
    """War: the round limit came, and the cards held decided."""
    CYCLE = "cycle"
    """War: the stacks at a round's start repeated, so the game would never end."""
    RESIGNED = "resigned"
    TIME = "ran out of time"
    ILLEGAL = "illegal moves"
    CRASHED = "crashed"
    LEFT = "left the game"
    ABORTED = "aborted"
    AGREED = "agreed"
    """The players agreed to a draw."""
    MEMORY = "used too much memory"
    """An outside engine went over its memory limit."""


class Game(ABC):
    """A rule set with its options.  Two games are equal when their names and options are."""

    OPTIONS: ClassVar[tuple[Option, ...]] = ()
    CHOICES: ClassVar[bool] = True
    """Whether its players choose their moves (War's only turn up cards): a game without
    choices has no engine to warm up and nothing for an arena to compare."""

    def __init__(self, name: str, options: Mapping[str, Any]) -> None:
        self.name = name
        self.options: Mapping[str, Any] = MappingProxyType(dict(options))

    @classmethod
    def option(cls, name: str) -> Option:
        """The declared option called ``name``, or BadOption listing the known ones."""
        for option in cls.OPTIONS:
            if option.name == name:
                return option
        known = ", ".join(o.name for o in cls.OPTIONS) or "none"
        raise BadOption(f"unknown option {shown(name)}; the options are: {known}")

    @abstractmethod
    def start(self) -> State:
        """The position a game of this rule set starts from."""

    @abstractmethod
    def parse(self, text: str) -> State:
        """Read a position in this game's compact notation; BadPosition if it cannot be one."""

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Game)
            and self.name == other.name
            and dict(self.options) == dict(other.options)
        )

    def __hash__(self) -> int:
        return hash((self.name, tuple(sorted(self.options.items()))))

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"parlour.game({self.name!r}, {opts})"


class State(ABC):
    """An immutable position.  Subclasses keep their data private and never mutate it."""

    game: Game

    @property
    @abstractmethod
    def to_move(self) -> int:
        """The player (0 or 1) whose turn it is."""

    @abstractmethod
    def legal_moves(self) -> tuple[Move, ...]:
        """The moves of the side to move, in a fixed order (empty when the game is over)."""

    @abstractmethod
    def play(self, move: Move) -> State:
        """The state after ``move``; IllegalMove (and no change) if it is not legal."""

    @property
    @abstractmethod
    def is_over(self) -> bool:
        """Whether the game has ended."""

    @property
    @abstractmethod
    def winner(self) -> int | None:
        """0 or 1 when the game is over and won; None while it goes on or for a draw."""

    @property
    def end_reason(self) -> Reason:
        """Which rule ended the game, once it is over: ``Reason.RULES`` unless the game
        names its endings (War: out of cards, the round limit, a cycle)."""
        return Reason.RULES

    @property
    def end_account(self) -> Any:
        """The game's own account of its end, once it is over (``Outcome.account``): None
        unless the game tells more than its winner and scores (War: its rounds, battles,
        wars and final stacks)."""
        return None

    @property
    @abstractmethod
    def scores(self) -> tuple[int, int]:
        """Each player's score as the game counts it (seeds in store, tokens captured...)."""

    @abstractmethod
    def render(self) -> str:
        """The text board as the game's seed draws it."""

    @abstractmethod
    def notation(self) -> str:
        """Compact text that ``game.parse`` reads back to an equal state."""

    @abstractmethod
    def move_name(self, move: Move) -> str:
        """How a person writes ``move`` (a pit letter, a coordinate)."""

    @abstractmethod
    def parse_move(self, text: str) -> Move:
        """The legal move a person typed, or IllegalMove explaining why it is not one."""

    @abstractmethod
    def _key(self) -> Hashable:
        """The data that makes two states of the same game equal."""

    def play_report(self, move: Move) -> tuple[State, Any]:
        """The state after ``move`` and the game's account of what happened in it.

        The account (extra turn, captures, ...) is what the Referee's ``Moved`` event and
        the screens show; games with something to tell override this.  Default: None.
        """
        return self.play(move), None

    def children(self) -> Iterator[tuple[Move, State]]:
        """Each legal move with the state it leads to."""
        for move in self.legal_moves():
            yield move, self.play(move)

    def perft(self, depth: int) -> int:
        """Leaves of the game tree cut at ``depth`` plies (RULES.md); games may override."""
        if depth == 0 or self.is_over:
            return 1
        return sum(child.perft(depth - 1) for _, child in self.children())

    def divide(self, depth: int) -> list[tuple[Move, int]]:
        """perft split by first move (depth >= 1), as chess engines print it; the counts
        add up to ``perft(depth)``.  Games whose moves can end a subtree early override."""
        return [(move, child.perft(depth - 1)) for move, child in self.children()]

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.game == other.game and self._key() == other._key()

    def __hash__(self) -> int:
        return hash((self.game, self._key()))

    def __str__(self) -> str:
        return self.notation()

    def __repr__(self) -> str:
        return f"<{self.game.name} {self.notation()!r}>"


@dataclass(frozen=True)
class _Entry:
    cls: type[Game]
    preset: Mapping[str, Any]
    summary: str
    kit: Any


_REGISTRY: dict[str, _Entry] = {}


def register(name: str, cls: type[Game], summary: str, kit: Any = None, **preset: Any) -> None:
    """Make ``name`` a game: ``cls`` with the option defaults of ``preset``, and ``kit``
    what it hands the rest of parlour (a :class:`parlour.kit.Kit`; None: the base one)."""
    for key in preset:
        cls.option(key)
    _REGISTRY[name] = _Entry(cls, MappingProxyType(preset), summary, kit)


def unregister(name: str) -> None:
    """Make ``name`` no game again (a game registered for a while, as the tests do)."""
    _REGISTRY.pop(name, None)


def registered_kit(name: str) -> Any:
    """The kit game ``name`` was registered with (None: none of its own, or no game of
    that name: a Game made by hand, as the tests make them)."""
    _load_games()
    entry = _REGISTRY.get(name)
    return None if entry is None else entry.kit


def game_names() -> dict[str, str]:
    """Every registered game name with its one-line summary."""
    _load_games()
    return {name: entry.summary for name, entry in sorted(_REGISTRY.items())}


def game_options(name: str) -> tuple[Option, ...]:
    """The options of game ``name`` with this preset's defaults."""
    entry = _entry(name)
    return tuple(
        Option(**{**o.__dict__, "default": entry.preset.get(o.name, o.default)})
        for o in entry.cls.OPTIONS
    )


def game(name: str, **options: Any) -> Game:
    """The game called ``name`` with ``options`` over its preset's defaults.

    Option values may be given as text (``"true"``, ``"4"``, ``"none"``), as the command
    line does.  An unknown name or option raises BadOption listing what exists.
    """
    entry = _entry(name)
    values = {o.name: entry.preset.get(o.name, o.default) for o in entry.cls.OPTIONS}
    for key, value in options.items():
        values[key] = entry.cls.option(key).convert(value)
    return entry.cls(name, values)


def _entry(name: str) -> _Entry:
    _load_games()
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        raise BadOption(f"unknown game {shown(name)}; the games are: {known}") from None


GAMES_GROUP = "parlour.games"
"""The entry points naming the modules that register game families (pyproject.toml's
``[project.entry-points."parlour.games"]``: parlour's own, and any other package's)."""


@functools.cache
def _load_games() -> None:
    """Import each game family's registering module, once, when a game is first asked
    for (kept lazy: numba is slow to load)."""
    for family in entry_points(group=GAMES_GROUP):
        family.load()


def replay(start: State, names: Sequence[str]) -> list[tuple[Move, State]]:
    """Each move that ``names`` write (as a person types them), played from ``start``,
    with the state after it: the one replay of a game written as move names (saved games,
    openings, records).  IllegalReplay with the move's number if one is not legal, or
    comes after the end."""
    state, played = start, []
    for number, name in enumerate(names, 1):
        try:
            move = state.parse_move(name)
            state = state.play(move)
        except IllegalMove as error:
            raise IllegalReplay(number, name, error.reason) from None
        played.append((move, state))
    return played


def perft(state: State, depth: int) -> int:
    """The number of leaves of ``state``'s game tree cut at ``depth`` plies (RULES.md)."""
    if depth < 0:
        raise ValueError(f"perft depth must be 0 or more, not {depth}")
    return state.perft(depth)
