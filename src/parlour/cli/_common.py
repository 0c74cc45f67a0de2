"""Pieces the commands share: game options from the command line, errors as usage errors."""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import click

from parlour.core import BadOption, Game, game
from parlour.players.specs import DEFAULT_LEVEL, MAX_LEVEL, PLAYERS, PlayerSpec, timed

F = TypeVar("F", bound=Callable[..., Any])


SOWING_OPTION = "empty_capture=false"  # the help's example of an option, for the sowing games


def option_flag(func: F, example: str = SOWING_OPTION) -> F:
    """Add ``--option NAME=VALUE`` (repeatable) for any option of the game; the help shows
    ``example``, an option of the command's own game."""
    return click.option(
        "--option",
        "-o",
        "option_texts",
        multiple=True,
        metavar="NAME=VALUE",
        help=f"Set a rule option of the game (repeatable), e.g. -o {example}.",
    )(func)


@dataclass(frozen=True)
class Seating:
    """Who sits where, as the ``play`` commands' shared flags say: the two players (player
    0 first), the seat ``--first`` names to begin (None when not given), the seed of the
    random players and whether the screen is cleared between turns."""

    specs: tuple[PlayerSpec, PlayerSpec]
    first: int | None
    seed: int | None
    clear: bool


def seating_flags(
    order: str, level_help: str, first_help: str, option_example: str = SOWING_OPTION
) -> Callable[[F], F]:
    """Add the flags every ``play`` command shares (``--players``, ``--level``, ``--first``,
    ``--seed``, ``--clear``, ``--time``, ``--option``); the command gets one ``seating``
    and ``option_texts`` in their place.  ``order`` names the seats for ``--players``."""

    def decorate(func: F) -> F:
        @functools.wraps(func)
        def command(
            players: tuple[PlayerSpec, PlayerSpec] | None,
            level: int,
            first: str | None,
            seed: int | None,
            clear: bool,
            seconds: float | None,
            **rest: Any,
        ) -> Any:
            specs = timed(players or (PlayerSpec("human"), PlayerSpec("computer", level)), seconds)
            starter = None if first is None else _seat_of(specs, first == "human")
            return func(seating=Seating(specs, starter, seed, clear), **rest)

        flags = [
            click.option(
                "--players",
                type=PLAYERS,
                help=f"Who plays, {order}: human, computer:LEVEL or random each.",
            ),
            click.option(
                "--level",
                type=click.IntRange(1, MAX_LEVEL),
                default=DEFAULT_LEVEL,
                show_default=True,
                help=level_help,
            ),
            click.option("--first", type=click.Choice(["human", "computer"]), help=first_help),
            click.option(
                "--seed", type=int, help="Seed of the random players and draws, to replay a game."
            ),
            click.option(
                "--clear",
                is_flag=True,
                help="Clear the screen between turns and pause after the computer's moves.",
            ),
            click.option(
                "--time",
                "seconds",
                type=click.FloatRange(min=0.05),
                help="Seconds the computer thinks a move (its engine's levels; default: the "
                "level's).",
            ),
            lambda func: option_flag(func, option_example),
        ]
        for flag in reversed(flags):
            command = flag(command)
        return cast(F, command)

    return decorate


def _seat_of(specs: tuple[PlayerSpec, PlayerSpec], human: bool) -> int:
    """The one seat of a person (or of a program), for ``--first``."""
    seats = [n for n, spec in enumerate(specs) if spec.human == human]
    if len(seats) != 1:
        raise click.UsageError("--first needs one human and one computer player")
    return seats[0]


def make_game(name: str, option_texts: Iterable[str] = (), **explicit: Any) -> Game:
    """The game ``name`` with ``NAME=VALUE`` texts and explicit flags (None = not given).

    Any BadOption becomes a click usage error, so the command prints one line and exits 2.
    """
    options: dict[str, Any] = {k: v for k, v in explicit.items() if v is not None}
    for text in option_texts:
        key, sep, value = text.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(f"expected NAME=VALUE, got {text!r}", param_hint="--option")
        options[key.strip()] = value
    try:
        return game(name, **options)
    except BadOption as error:
        raise click.UsageError(str(error)) from None


@contextmanager
def warming_up(what: str = "the engine") -> Iterator[None]:
    """Say "warming up" on stderr if the block (a first, compiling call of the numba
    kernels) takes long enough to be noticed; say nothing when the kernels are cached."""
    timer = threading.Timer(0.4, lambda: click.echo(f"warming up {what}...", err=True))
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
