"""``parlour record``: five-in-a-row games as Piskvork ``.psq`` records, read and written.

``parlour record FILE`` shows the game in FILE (a ``.psq`` record, or a game saved at the
terminal with ``save FILE``): its moves and its last position.  ``--out OUT`` also
writes it as OUT's extension says: ``.psq`` a Piskvork record, anything else a saved game
that ``parlour play gomoku --load`` takes up again.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, cast

import click

from parlour.cli import main

if TYPE_CHECKING:
    from parlour.games.gomoku.game import GomokuState, Point


@main.command(short_help="Show a five-in-a-row record (.psq or saved game); convert it.")
@click.argument("path", metavar="FILE")
@click.option("--out", "out", metavar="OUT", help="Write it to OUT (.psq: a Piskvork record).")
@click.option("--exact-five", is_flag=True, help="Six or more do not win (.psq keeps no rule).")
def record(path: str, out: str | None, exact_five: bool) -> None:
    """Show the five-in-a-row game in FILE (a .psq record or a saved game), and with
    --out write it as a .psq record or as a saved game."""
    from parlour.core import ParlourError
    from parlour.files import read_text
    from parlour.games.gomoku.psq import to_psq
    from parlour.players.saved_game import SavedGame

    try:
        text = read_text(path)
        start, moves, state = _read(text, exact_five)
    except ParlourError as error:
        raise click.BadParameter(str(error), param_hint="FILE") from None
    click.echo(f"{len(moves)} moves: {' '.join(map(state.move_name, moves))}")
    click.echo(state.render())
    if state.winner is not None:
        click.echo(f"{'X0'[state.winner]} has five in a row.")
    if out is None:
        return
    if out.lower().endswith(".psq"):
        if start.board.any():
            raise click.BadParameter("a .psq record starts from an empty board", param_hint="FILE")
        written = to_psq(start.size, moves)
    else:
        written = SavedGame.of(start, moves).to_text()
    try:
        Path(out).expanduser().write_text(written, encoding="utf-8")
    except OSError as error:
        raise click.BadParameter(str(error), param_hint="--out") from None
    click.echo(f"Written to {out}.")


def _read(text: str, exact_five: bool) -> tuple[GomokuState, list[Point], GomokuState]:
    """The game in ``text`` (a saved game, JSON, or a .psq): where it starts, its moves and
    the position after them (BadPosition if a move is not legal where it is)."""
    from parlour.core import BadPosition, game
    from parlour.games.gomoku.game import GomokuState
    from parlour.games.gomoku.psq import from_psq
    from parlour.players.saved_game import SavedGame

    if not text.lstrip().startswith("{"):
        psq = from_psq(text)
        start = game("gomoku", size=psq.size, exact_five=exact_five).start()
        assert isinstance(start, GomokuState)
        return start, list(psq.moves), psq.replay(exact_five)
    saved = SavedGame.from_text(text)
    begun, played, final = saved.played()
    if not isinstance(begun, GomokuState) or not isinstance(final, GomokuState):
        raise BadPosition(f"a saved game of {saved.game}; a record is of five in a row")
    return begun, [cast("Point", move) for move in played], final
