"""``parlour pbrain``: the five-in-a-row engine as a Gomocup brain on standard input and
output (also installed as ``pbrain-parlour``, the name Gomocup managers look for)."""

from __future__ import annotations

import sys

import click

from parlour.cli import main
from parlour.cli._common import LEVEL
from parlour.core import BadOption


@main.command(short_help="Play five in a row as a Gomocup brain on stdin/stdout.")
@click.option(
    "--level",
    type=LEVEL,
    default="3",
    show_default=True,
    help="The engine's level: its search's depth and width (the manager sets the time).",
)
def pbrain(level: int) -> None:
    """Speak the Gomocup protocol (Piskvork's pbrain protocol) on standard input and
    output: START, RECTSTART, RESTART, BEGIN, TURN, BOARD, TAKEBACK, INFO, ABOUT, END."""
    from parlour.games.gomoku.gomocup.brain import run
    from parlour.kit import check_level

    try:
        check_level("gomoku", level)
    except BadOption as error:
        raise click.UsageError(str(error)) from None
    run(level)


def brain() -> None:
    """``pbrain-parlour``: ``parlour pbrain`` under the name Gomocup managers look for,
    with the command's options, refusals and Ctrl-C (one line, exit 130)."""
    main(["pbrain", *sys.argv[1:]], prog_name="pbrain-parlour")
