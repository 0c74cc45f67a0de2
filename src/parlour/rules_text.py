"""The rules of each game written for players: one Markdown file a game, ``GAME.md`` in its
family's folder (``parlour/games/sowing/kalah.md``).

The files ship inside the package, so ``parlour rules GAME`` and the ``rules`` command at a
game's prompt show them from any installed copy; the repository's ``docs/rules/README.md``
links to these same files.  The families are found as the registry finds them (the
``parlour.games`` entry points), without loading their rules.  A file starts with a
``# Title`` line, a blank line and a one-line summary.
"""

from __future__ import annotations

from importlib import resources
from importlib.metadata import entry_points
from importlib.resources.abc import Traversable

from parlour.core import GAMES_GROUP, BadOption, shown


def _files() -> dict[str, Traversable]:
    """Each game's rules file by the game's name, from every family's folder."""
    files: dict[str, Traversable] = {}
    for family in entry_points(group=GAMES_GROUP):
        folder = resources.files(family.module.rpartition(".")[0])
        pages = (f for f in folder.iterdir() if f.name.endswith(".md"))
        files |= {f.name.removesuffix(".md"): f for f in pages}
    return files


def rule_games() -> dict[str, str]:
    """Each game that has rules text, with its one-line summary, in name order."""
    files = _files()
    return {name: _summary(files[name].read_text(encoding="utf-8")) for name in sorted(files)}


def rules_text(name: str) -> str:
    """The rules of game ``name`` as Markdown; BadOption naming the games if it has none."""
    files = _files()
    if name not in files:  # never a path: only the families' files, by name
        games = ", ".join(sorted(files))
        raise BadOption(f"no rules for {shown(name)}; the games are: {games}")
    return files[name].read_text(encoding="utf-8")


def rendered(text: str, width: int = 88) -> str:
    """Markdown ``text`` as plain text a person reads (headings, lists and code blocks
    laid out by rich, no ``#`` or ``**`` left), ``width`` columns wide: for a pipe, a file
    and the ``rules`` command at a game's prompt."""
    import io

    from rich.console import Console
    from rich.markdown import Markdown

    out = io.StringIO()
    Console(file=out, width=width, color_system=None, force_terminal=False).print(Markdown(text))
    return "\n".join(line.rstrip() for line in out.getvalue().splitlines()) + "\n"


def _summary(text: str) -> str:
    """The text's first paragraph (the one after the title) on one line."""
    paragraph = text.split("\n\n")[1]
    return " ".join(paragraph.split())
