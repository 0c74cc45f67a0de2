"""``parlour play ayo``: seed 000's Ayo at the terminal.

By default a person (player 1, the bottom row) plays the computer at level 3, and lots
decide who starts the first round; ``--players`` seats anyone (``human``,
``computer:LEVEL``, ``random``) in either seat.  The computer's levels are plain minimax
on the captured-token difference.  The Referee tells each player ``Stoned(count)`` for
every capture, as the seed's actors do.
"""

from __future__ import annotations

import click

from parlour.cli import play
from parlour.cli._common import make_game, option_flag, time_flag, warming_up
from parlour.cli.play_sowing import _seat_of
from parlour.players.specs import DEFAULT_LEVEL, MAX_LEVEL, PLAYERS, PlayerSpec, timed


@play.command("ayo")
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
    help="Who starts the first round (default: drawn by lot).",
)
@click.option(
    "--max-rounds", type=click.IntRange(min=1), help="End the game after this many rounds."
)
@click.option(
    "--seed", type=int, help="Seed of the draw for the first round and of random players."
)
@click.option("--clear", is_flag=True, help="Clear the screen between turns.")
@time_flag
@option_flag
def ayo(
    players: tuple[PlayerSpec, PlayerSpec] | None,
    level: int,
    first: str | None,
    max_rounds: int | None,
    seed: int | None,
    clear: bool,
    seconds: float | None,
    option_texts: tuple[str, ...],
) -> None:
    """Play Ayo as seed 000 has it: fours captured while sowing, relays, houses bought."""
    from parlour.actors.ayo import stoned_notices
    from parlour.players.ayo_screen import AyoScreen
    from parlour.players.terminal import play_in_terminal

    specs = timed(players or (PlayerSpec("human"), PlayerSpec("computer", level)), seconds)
    starter = None if first is None else _seat_of(specs, first == "human")
    game = make_game("ayo", option_texts, first=starter, max_rounds=max_rounds, seed=seed)
    start = game.start()
    with warming_up():  # compile the rules before the first screen
        start.play_report(start.legal_moves()[0])
    code = play_in_terminal(
        start, specs, AyoScreen(), seed=seed, clear=clear, notices=stoned_notices
    )
    raise SystemExit(code)
