"""``parlour analyze``: what the engine thinks of a position, deepening as it goes."""

from __future__ import annotations

from typing import Any

import click

from parlour.cli import main
from parlour.cli._common import (
    depth_type,
    interruptible,
    make_game,
    option_flag,
    position_to_search,
    seconds_type,
    warm,
)


@main.command(short_help="Best move and value of a position, by the engine.")
@click.argument("game_name", metavar="GAME")
@click.argument("position", required=False)
@click.option(
    "--time", "seconds", type=seconds_type(0.01), help="Seconds to think (a day at most)."
)
@click.option(
    "--depth",
    type=depth_type(1),
    help="Plies to search, an extra turn free (99: to the end).",
)
@click.option("--pits", help="Pits a side (sowing games).")
@click.option("--seeds", help="Seeds a pit at the start (sowing games).")
@option_flag
def analyze(
    game_name: str,
    position: str | None,
    seconds: float | None,
    depth: int | None,
    pits: str | None,
    seeds: str | None,
    option_texts: tuple[str, ...],
) -> None:
    """Search POSITION (the game's notation; the start by default) and print the best
    move, its value, the depth, nodes, nodes per second and the principal variation.

    The value is for the side to move: in seeds (tokens in Ayo), or in five in a row a
    large number for a forced win.  When it is proven (every line searched to the end of
    the game, or a forced win found), it says so.  Without --time or --depth the search
    thinks for 3 seconds.
    """
    from parlour.kit import analyze, kit_of, no_engine, warm_up
    from parlour.search import SearchResult, Stop
    from parlour.search.limit import Limit

    limit = Limit(seconds=3.0 if seconds is None and depth is None else seconds, depth=depth)
    game = make_game(game_name, option_texts, pits=pits, seeds=seeds)
    if not kit_of(game).analyses:
        raise click.UsageError(no_engine(game.name))
    state = position_to_search(game, position, "search")

    def line(result: SearchResult[Any]) -> str:
        pv = " ".join(state_names(result.pv))
        return (
            f"depth {result.depth:>3}  value {result.value:+d}  nodes {result.nodes:,}  "
            f"nps {result.nodes_per_second:,.0f}  pv {pv}"
        )

    def state_names(moves: tuple[object, ...]) -> list[str]:
        names, here = [], state
        for move in moves:
            names.append(here.move_name(move))
            here = here.play(move)
        return names

    warm(lambda: warm_up(state))
    stop = Stop()
    result = interruptible(lambda: analyze(state, limit, lambda r: click.echo(line(r)), stop), stop)
    click.echo(
        f"best move {state.move_name(result.move)}  value {result.value:+d}  "
        f"depth {result.depth}  nodes {result.nodes:,}  time {result.seconds:.2f} s  "
        f"nps {result.nodes_per_second:,.0f}"
    )
    click.echo(f"pv {' '.join(state_names(result.pv))}")
    if result.exact:
        click.echo(f"exact: value {result.value:+d} is proven: {kit_of(game).proven_means}")
