"""The uniform game interface every game, player and interface of parlour shares.

A :class:`Game` is a value: a rule set with its options (``parlour.game("kalah", seeds=3)``).
A :class:`State` is an immutable position of a game: ``state.play(move)`` returns a new
state and never changes the old one.  Games register themselves by name with
:func:`register`; :func:`game` looks them up and validates their options, so that a typo
in a name or an option is caught with a message that lists what exists.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar

Move = Hashable


class ParlourError(ValueError):
    """Base of parlour's errors: every one carries a message a person can read."""


class IllegalMove(ParlourError):
    """A move that is not legal in the state it was played in (the state is unchanged)."""

    def __init__(self, move: object, reason: str) -> None:
        super().__init__(f"illegal move {move!r}: {reason}")
        self.move = move
        self.reason = reason


class BadPosition(ParlourError):
    """A position text (or array) that cannot be a position of the game."""


class BadOption(ParlourError):
    """An unknown game, an unknown option, or an option value out of range."""


def parse_numbers(text: str, what: str, count: int | None = None) -> list[int]:
    """The comma-separated whole numbers (none negative) of a position text, ``count`` of
    them if given; BadPosition naming ``what`` otherwise."""
    try:
        values = [int(v) for v in text.split(",")]
    except ValueError:
        raise BadPosition(f"{what} must be whole numbers separated by commas: {text!r}") from None
    if any(v < 0 for v in values):
        raise BadPosition(f"{what} cannot be negative: {text!r}")
    if count is not None and len(values) != count:
        raise BadPosition(f"{what} must be {count} number(s), got {len(values)}: {text!r}")
    return values


def parse_player(text: str, what: str) -> int:
    """A player number of a position text, 0 or 1; BadPosition naming ``what`` otherwise."""
    if text not in ("0", "1"):
        raise BadPosition(f"{what} must be 0 or 1, not {text!r}")
    return int(text)


_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


@dataclass(frozen=True)
class Option:
    """One knob of a game: its type, default, allowed range and help text.

    ``kind`` is ``int``, ``bool`` or ``str``; ``nullable`` lets ``none`` mean "no limit".
    Values given as text (from the command line) are converted by :meth:`convert`.
    """

    name: str
    kind: type
    default: Any
    help: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    nullable: bool = False

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
                raise BadOption(f"option {self.name} must be true or false, not {value!r}")
            return value
        if self.kind is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise BadOption(f"option {self.name} must be a whole number, not {value!r}")
            if self.minimum is not None and value < self.minimum:
                raise BadOption(f"option {self.name} must be at least {self.minimum}, not {value}")
            if self.maximum is not None and value > self.maximum:
                raise BadOption(f"option {self.name} must be at most {self.maximum}, not {value}")
            return value
        if self.choices and value not in self.choices:
            raise BadOption(
                f"option {self.name} must be one of {', '.join(self.choices)}, not {value!r}"
            )
        return value

    def _from_text(self, text: str) -> Any:
        if self.nullable and text.lower() in {"none", "null", ""}:
            return None
        if self.kind is bool:
            if text.lower() in _TRUE:
                return True
            if text.lower() in _FALSE:
                return False
            raise BadOption(f"option {self.name} must be true or false, not {text!r}")
        if self.kind is int:
            try:
                return int(text)
            except ValueError:
                raise BadOption(
                    f"option {self.name} must be a whole number, not {text!r}"
                ) from None
        return text


class Game(ABC):
    """A rule set with its options.  Two games are equal when their names and options are."""

    OPTIONS: ClassVar[tuple[Option, ...]] = ()

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
        raise BadOption(f"unknown option {name!r}; the options are: {known}")

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


_REGISTRY: dict[str, _Entry] = {}


def register(name: str, cls: type[Game], summary: str, **preset: Any) -> None:
    """Make ``name`` a game: ``cls`` with the option defaults of ``preset``."""
    for key in preset:
        cls.option(key)
    _REGISTRY[name] = _Entry(cls, MappingProxyType(preset), summary)


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
        raise BadOption(f"unknown game {name!r}; the games are: {known}") from None


def _load_games() -> None:
    """Import the game modules, which register themselves (kept lazy: numba is slow to load)."""
    import parlour.games  # noqa: F401


def perft(state: State, depth: int) -> int:
    """The number of leaves of ``state``'s game tree cut at ``depth`` plies (RULES.md)."""
    if depth < 0:
        raise ValueError(f"perft depth must be 0 or more, not {depth}")
    return state.perft(depth)
