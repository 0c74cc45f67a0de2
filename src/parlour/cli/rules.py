"""``parlour rules [GAME]``: the rules of a game, written for players.

With no game it lists the games, one line each.  The text is Markdown, drawn by rich: in
colour on a terminal, as plain text to a pipe or a file.
"""

from __future__ import annotations

import sys

import click

from parlour.cli import main


@main.command(short_help="The rules of a game, written for players.")
@click.argument("game_name", metavar="GAME", required=False)
def rules(game_name: str | None) -> None:
    """Print the rules of GAME (its board, a move, the end, its options and how to type
    moves in ``parlour play``), or list the games when none is given."""
    from parlour.core import BadOption
    from parlour.rules_text import rendered, rule_games, rules_text

    if game_name is None:
        games = rule_games()
        width = max(map(len, games))
        for name, summary in games.items():
            click.echo(f"{name:<{width}}  {summary}")
        click.echo("\nparlour rules GAME prints the rules of one of them.")
        return
    try:
        text = rules_text(game_name.lower())
    except BadOption as error:
        click.echo(f"Error: {error}", err=True)  # one line: no usage text to hide it
        raise SystemExit(2) from None
    if sys.stdout.isatty():
        from rich.console import Console
        from rich.markdown import Markdown

        Console().print(Markdown(text))
    else:
        click.echo(rendered(text), nl=False)
