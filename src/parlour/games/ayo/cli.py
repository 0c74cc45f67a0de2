"""Ayo's command: ``parlour play ayo``, seed 000's Ayo at the terminal.

By default a person (player 1, the bottom row) plays the computer at level 3, and lots
decide who starts the first round; ``--players`` seats anyone (``human``,
``computer:LEVEL``, ``random``) in either seat.  The computer's levels are plain minimax
on the captured-token difference.  The Referee tells each player ``Stoned(count)`` for
every capture, as the seed's actors do.
"""

from __future__ import annotations

import click

from parlour.cli import play
from parlour.cli._common import Seating, make_game, seating_flags


@play.command("ayo")
@seating_flags(
    order="player 1 (bottom row) first",
    level_help="The default opponent's level: 1-3 minimax that many moves ahead, 4-8 the engine.",
    first_help="Who starts the first round (default: drawn by lot).",
    option_example="max_rounds=3",
)
@click.option("--max-rounds", help="End the game after this many rounds.")
def ayo(seating: Seating, max_rounds: str | None, option_texts: tuple[str, ...]) -> None:
    """Play Ayo: fours captured while sowing, relays, houses bought."""
    seating.play(
        lambda: make_game(
            "ayo", option_texts, first=seating.first, max_rounds=max_rounds, seed=seating.seed
        ).start()
    )
