"""``parlour engine``: any parlour game's computer as an engine program speaking parlour's
engine protocol (:mod:`parlour.players.protocol`) on standard input and output, for an arena
(``engine:PATH:engine --level 6``) or any manager that speaks it."""

from __future__ import annotations

import os
import sys

import click

from parlour.cli import main
from parlour.cli._common import LEVEL
from parlour.search import DEFAULT_LEVEL


@main.command(short_help="Play any game as an engine on stdin/stdout (parlour's protocol).")
@click.option(
    "--level",
    type=LEVEL,
    default=str(DEFAULT_LEVEL),
    show_default=True,
    help="The computer's level (the manager sets the game and the time).",
)
def engine(level: int) -> None:
    """Speak parlour's engine protocol on standard input and output: parlour, game,
    newgame, position, go, stop, isready, quit (see parlour.players.protocol)."""
    from parlour.players.protocol import Server

    def write(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    server = Server(write, level)
    for line in sys.stdin:
        if not server.handle(line):
            break
    server.finish()
    sys.stdout.flush()
    os._exit(0)  # no interpreter teardown for a manager to wait for
