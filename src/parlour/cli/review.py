"""``parlour review FILE``: a saved game's moves, each with its value against the best."""

from __future__ import annotations

import json
from pathlib import Path

import click

from parlour.cli import main
from parlour.cli._common import interruptible, seconds_type, warming_up

MOST_BYTES = 1 << 20
"""The largest file read as a saved game: a game of thousands of moves is far smaller."""
BARS = "▁▂▃▄▅▆▇█"


@main.command(short_help="Grade each move of a saved game against the best move.")
@click.argument("path", metavar="FILE")
@click.option(
    "--time",
    "seconds",
    type=seconds_type(0.01),
    help="Seconds a position's proof takes at most before the engine values it (2).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the review as one JSON object.")
def review(path: str, seconds: float | None, as_json: bool) -> None:
    """Review the game saved in FILE (``save FILE`` at the terminal): each move with its
    value to the side that played it and the best move's, exact where the game's solver
    proves the position and the engine's estimate (marked ~) where it does not; what it
    lost against the best move and its grade (best, inaccuracy, mistake, blunder); the
    move after which the game was decided, and the value over the game, for the first
    side, as a line of bars."""
    from parlour.core import ParlourError
    from parlour.kit import warm_up
    from parlour.records.saved import SavedGame
    from parlour.review import PROOF_SECONDS, Review, kit_valuer
    from parlour.review import review as reviewed
    from parlour.search import Stop

    try:
        with Path(path).expanduser().open("rb") as file:
            data = file.read(MOST_BYTES + 1)
        if len(data) > MOST_BYTES:
            raise click.BadParameter(f"more than {MOST_BYTES:,} bytes", param_hint="FILE")
        start, moves, _ = SavedGame.from_text(data.decode()).played()
    except (OSError, UnicodeDecodeError, ParlourError) as error:
        raise click.BadParameter(str(error), param_hint="FILE") from None
    states = [start]
    for move in moves:
        states.append(states[-1].play(move))
    if not moves:
        raise click.BadParameter("the saved game has no moves to review", param_hint="FILE")
    with warming_up("the solver"):
        warm_up(start)
    stop = Stop()
    valuer = kit_valuer(stop, seconds if seconds is not None else PROOF_SECONDS)
    try:
        done: Review = interruptible(lambda: reviewed(states, moves, valuer), stop)
    except ParlourError as error:
        raise click.UsageError(str(error)) from None
    if as_json:
        fields = [{**graded.__dict__, "move": graded.name} for graded in done.moves]
        click.echo(json.dumps({"moves": fields, "decided": done.decided}))
        return
    for graded in done.moves:
        mark = "" if graded.exact else "~"
        lost = f"lost {mark}{graded.lost}" if graded.lost else ""
        line = (
            f"{graded.ply + 1:4d}. player {graded.mover + 1} {graded.name:>4}  "
            f"{mark}{graded.value:+d} (best {mark}{graded.best:+d})  {graded.grade:10} {lost}"
        )
        click.echo(line.rstrip())
    if done.decided is None:
        click.echo("decided: not known (some values are the engine's estimates)")
    elif done.decided == 0:
        click.echo("decided from the start: nobody changed the outcome of perfect play")
    else:
        click.echo(f"decided by move {done.decided}: the outcome of perfect play from then on")
    click.echo(
        "value for player 1: " + _bars([g.best if g.mover == 0 else -g.best for g in done.moves])
    )


def _bars(values: list[int]) -> str:
    """``values`` as a line of bars, lowest to highest."""
    low, high = min(values), max(values)
    span = max(high - low, 1)
    bars = "".join(BARS[(value - low) * (len(BARS) - 1) // span] for value in values)
    return f"{bars}  ({low:+d} to {high:+d})"
