"""Five in a row's commands: ``parlour play gomoku`` (seed 002 at the terminal) and
``parlour pbrain``, the engine as a Gomocup brain on standard input and output (also
installed as ``pbrain-parlour``, the name Gomocup managers look for).

By default a person plays X (moving first) against the computer at level 3 on a 15x15
board; ``--players`` seats anyone (``human``, ``computer:LEVEL``, ``random``), X first.
Points are typed as on a real board, column letter and row number: ``H8``.  The board is
drawn with its coordinates, the last stone in [brackets] and, at the end, the five in
(parentheses); a mistyped or taken point is explained and asked again.
"""

from __future__ import annotations

import sys

import click

from parlour.cli import main, play
from parlour.cli._common import LEVEL, Seating, make_game, seating_flags
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


@play.command("gomoku")
@seating_flags(
    order="X (first) then 0",
    level_help="The opponent's level: 1 greedy, 2-6 searching deeper and longer.",
    first_help="Who plays X and moves first (default: the person).",
    option_example="exact_five=true",
)
@click.option("--size", help="Points on a side, 5 to 26 (default 15).")
@click.option(
    "--exact-five", "exact_five", flag_value=True, default=None, help="Six or more do not win."
)
def gomoku(
    seating: Seating, size: str | None, exact_five: bool | None, option_texts: tuple[str, ...]
) -> None:
    """Play five in a row against the computer or another person."""
    specs = seating.specs if seating.first != 1 else (seating.specs[1], seating.specs[0])
    seating.play(
        lambda: make_game("gomoku", option_texts, size=size, exact_five=exact_five).start(), specs
    )
