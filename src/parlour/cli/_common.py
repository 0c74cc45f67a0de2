"""Pieces the commands share: game options from the command line, errors as usage errors."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import click

from parlour.core import BadOption, Game, game

F = TypeVar("F", bound=Callable[..., Any])


def option_flag(func: F) -> F:
    """Add ``--option NAME=VALUE`` (repeatable) for any option of the game."""
    return click.option(
        "--option",
        "-o",
        "option_texts",
        multiple=True,
        metavar="NAME=VALUE",
        help="Set a rule option of the game (repeatable), e.g. -o empty_capture=false.",
    )(func)


def time_flag(func: F) -> F:
    """Add ``--time SECONDS``: the computer's time a move, for its engine's levels (4+)."""
    return click.option(
        "--time",
        "seconds",
        type=click.FloatRange(min=0.05),
        help="Seconds the computer thinks a move (levels above 3; default: the level's).",
    )(func)


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
