"""``parlour record``: a game's record shown, and written in another form.

``parlour record FILE`` shows the game in FILE: a game saved at the terminal with
``save FILE`` (JSON), or a record in a form of a game's own, known by its suffix (five in
a row's Piskvork ``.psq``): its moves and its last position.  ``--out OUT`` also writes
it as OUT's suffix says: a game's own form, or else a saved game that ``parlour play GAME
--load`` takes up again.  ``-o NAME=VALUE`` sets a rule option that a form does not keep
(``-o exact_five=true`` for a ``.psq``).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from parlour.cli import main
from parlour.cli._common import option_flag

if TYPE_CHECKING:
    from parlour.core import Move, State


@main.command(short_help="Show a game's record (a saved game, a .psq); convert it.")
@click.argument("path", metavar="FILE")
@click.option("--out", "out", metavar="OUT", help="Write it to OUT, in the form its suffix says.")
@option_flag
def record(path: str, out: str | None, option_texts: tuple[str, ...]) -> None:
    """Show the game in FILE (a saved game, or a record in a game's own form such as
    five in a row's .psq), and with --out write it in OUT's form (.psq, or a saved game)."""
    from parlour.core import ParlourError
    from parlour.files import read_text

    try:
        start, moves = _read(read_text(path), Path(path).suffix, option_texts)
    except ParlourError as error:
        raise click.BadParameter(str(error), param_hint="FILE") from None
    names, final = [], start
    for move in moves:
        names.append(final.move_name(move))
        final = final.play(move)
    click.echo(f"{len(moves)} moves: {' '.join(names)}")
    click.echo(final.render())
    if final.is_over:
        click.echo("A draw." if final.winner is None else f"Player {final.winner + 1} wins.")
    if out is not None:
        _write(out, start, moves)
        click.echo(f"Written to {out}.")


def _read(text: str, suffix: str, option_texts: tuple[str, ...]) -> tuple[State, tuple[Move, ...]]:
    """The game in ``text`` (a saved game, or the form ``suffix`` names): where it starts
    and its moves, each checked where it is played (BadPosition if one is not legal
    there, BadOption for a suffix no game reads)."""
    from parlour.cli._common import make_game
    from parlour.core import BadOption
    from parlour.kit import record_form
    from parlour.records.saved import SavedGame

    if text.lstrip().startswith("{"):
        if option_texts:
            raise BadOption("a saved game keeps its rules: -o is for a form that does not")
        start, moves, _ = SavedGame.from_text(text).played()
        return start, moves
    name, form = record_form(suffix)
    return form.read(text, make_game(name, option_texts).options)


def _write(out: str, start: State, moves: tuple[Move, ...]) -> None:
    """The game written to ``out`` in the form its suffix says (a saved game by default)."""
    from parlour.core import BadOption, ParlourError
    from parlour.kit import kit_of, record_forms
    from parlour.records.saved import SavedGame

    suffix = Path(out).suffix.lower()
    forms = [form for form in kit_of(start.game).record_forms if form.suffix == suffix]
    try:
        if forms:
            written = forms[0].write(start, moves, None, None)
        elif any(form.suffix == suffix for _, form in record_forms()):
            raise BadOption(f"{start.game.name} keeps no {suffix} records")
        else:
            written = SavedGame.of(start, moves).to_text()
        Path(out).expanduser().write_text(written, encoding="utf-8")
    except (ParlourError, OSError) as error:
        raise click.BadParameter(str(error), param_hint="--out") from None
