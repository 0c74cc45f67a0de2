"""``parlour play mancala`` and ``parlour play kalah``: seed 001 at the terminal.

By default a person (bottom row, moving first) plays the computer at level 3; ``--players``
seats anyone (``human``, ``computer:LEVEL``, ``random``) in either seat.
"""

from __future__ import annotations

from typing import Any

import click

from parlour.cli import play
from parlour.cli._common import make_game, option_flag, time_flag, warming_up
from parlour.players.specs import DEFAULT_LEVEL, MAX_LEVEL, PLAYERS, PlayerSpec, timed


def _command(name: str, summary: str) -> None:
    """Attach ``play NAME``: both sowing games take the same options."""

    @play.command(name, help=summary)
    @click.option(
        "--players",
        "players",
        type=PLAYERS,
        help="Who plays, player 1 (bottom row) first: human, computer:LEVEL or random each.",
    )
    @click.option(
        "--level",
        type=click.IntRange(1, MAX_LEVEL),
        default=DEFAULT_LEVEL,
        show_default=True,
        help="The default opponent's level: 1-3 the seed's lookahead, 4-8 the engine.",
    )
    @click.option(
        "--first",
        type=click.Choice(["human", "computer"]),
        help="Who moves first (default: player 1, the bottom row).",
    )
    @click.option("--pits", type=int, help="Pits a side.")
    @click.option("--seeds", type=int, help="Seeds in each pit at the start.")
    @click.option("--seed", type=int, help="Seed of the random players, to replay a game.")
    @click.option(
        "--clear",
        is_flag=True,
        help="Clear the screen between turns and pause after the computer's moves.",
    )
    @time_flag
    @option_flag
    def command(
        players: tuple[PlayerSpec, PlayerSpec] | None,
        level: int,
        first: str | None,
        pits: int | None,
        seeds: int | None,
        seed: int | None,
        clear: bool,
        seconds: float | None,
        option_texts: tuple[str, ...],
    ) -> None:
        from parlour.players.sowing_screen import SowingScreen
        from parlour.players.terminal import play_in_terminal

        specs = timed(players or (PlayerSpec("human"), PlayerSpec("computer", level)), seconds)
        start: Any = make_game(name, option_texts, pits=pits, seeds=seeds).start()
        if first is not None:
            start = _first_mover(start, _seat_of(specs, first == "human"))
        with warming_up():  # compile the rules before the first screen
            start.play_report(start.legal_moves()[0])
        code = play_in_terminal(start, specs, SowingScreen(), seed=seed, clear=clear)
        raise SystemExit(code)


def _seat_of(specs: tuple[PlayerSpec, PlayerSpec], human: bool) -> int:
    """The one seat of a person (or of a program), for ``--first``."""
    seats = [n for n, spec in enumerate(specs) if spec.human == human]
    if len(seats) != 1:
        raise click.UsageError("--first needs one human and one computer player")
    return seats[0]


def _first_mover(start: Any, player: int) -> Any:
    """The start position with ``player`` to move (the notation ends with the mover)."""
    board, _ = start.notation().rsplit(" ", 1)
    return start.game.parse(f"{board} {player}")


_command("mancala", "Play Mancala as seed 001 has it: 3 seeds a pit, sowing through both stores.")
_command("kalah", "Play Kalah: 4 seeds a pit, the opponent's store skipped.")
