"""``parlour perft``: count the leaves of a game's tree, the test of a rules engine."""

from __future__ import annotations

import time

import click

from parlour.cli import main
from parlour.cli._common import depth_type, interruptible, make_game, option_flag, warm


@main.command(short_help="Count the leaves of a game tree (rules-engine test).")
@click.argument("game_name", metavar="GAME")
@click.argument("depth", type=depth_type(0))
@click.option("--pits", help="Pits a side (sowing games).")
@click.option("--seeds", help="Seeds a pit at the start (sowing games).")
@click.option("--position", help="Start from this position (the game's notation).")
@click.option("--divide", is_flag=True, help="Also print the count below each first move.")
@option_flag
def perft(
    game_name: str,
    depth: int,
    pits: str | None,
    seeds: str | None,
    position: str | None,
    divide: bool,
    option_texts: tuple[str, ...],
) -> None:
    """Print the number of leaves of GAME's tree cut at DEPTH plies, then the time taken.

    A ply is one move of one player (an extra turn is a new ply) and a finished game is a
    leaf, as RULES.md defines it.  --divide splits the count by first move, which is how a
    rule difference between two engines is found.  A game that draws lots for its first
    player (Ayo) starts with player 0 unless -o first=1 says otherwise, as RULES.md has it.
    """
    from parlour.core import BadPosition, perft

    game = make_game(game_name, option_texts, pits=pits, seeds=seeds)
    if game.options.get("first", 0) is None:
        game = make_game(game_name, (*option_texts, "first=0"), pits=pits, seeds=seeds)
    try:
        state = game.parse(position) if position is not None else game.start()
    except BadPosition as error:
        raise click.BadParameter(str(error), param_hint="--position") from None
    # compile first, so that the time below is the count's alone
    warm(lambda: (perft(state, min(depth, 1)), next(state.children(), None)))
    started = time.perf_counter()
    if divide and depth > 0 and not state.is_over:  # a finished game is one leaf, no move
        counts = [(state.move_name(m), n) for m, n in interruptible(lambda: state.divide(depth))]
        leaves = sum(count for _, count in counts)
    else:
        counts, leaves = [], interruptible(lambda: perft(state, depth))
    seconds = time.perf_counter() - started
    click.echo(leaves)
    for name, count in counts:
        click.echo(f"{name}: {count}")
    rate = leaves / seconds if seconds > 0 else float("inf")
    click.echo(f"time {seconds:.3f} s, {rate:,.0f} leaves/s")
