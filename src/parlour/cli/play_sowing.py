"""``parlour play mancala`` and ``parlour play kalah``: seed 001 at the terminal.

By default a person (bottom row, moving first) plays the computer at level 3; ``--players``
seats anyone (``human``, ``computer:LEVEL``, ``random``) in either seat.
"""

from __future__ import annotations

import click

from parlour.cli import play
from parlour.cli._common import Seating, make_game, seating_flags


def _command(name: str, summary: str) -> None:
    """Attach ``play NAME``: both sowing games take the same options."""

    @play.command(name, help=summary)
    @seating_flags(
        order="player 1 (bottom row) first",
        level_help="The computer's level: 1-3 looks that many moves ahead, 4-8 searches "
        "deeper (8 the strongest), perfect never misses a win.",
        first_help="Who moves first (default: player 1, the bottom row).",
    )
    @click.option("--pits", help="Pits a side.")
    @click.option("--seeds", help="Seeds in each pit at the start.")
    def command(
        seating: Seating, pits: str | None, seeds: str | None, option_texts: tuple[str, ...]
    ) -> None:
        seating.play(
            lambda: make_game(
                name, option_texts, pits=pits, seeds=seeds, first=seating.first
            ).start()
        )


_command("mancala", "Play Mancala: 3 seeds a pit, sown through both stores.")
_command("kalah", "Play Kalah: 4 seeds a pit, the opponent's store skipped.")
