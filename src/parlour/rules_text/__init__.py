"""The rules of each game written for players: one Markdown file a game, next to this module.

The files ship inside the package, so ``parlour rules GAME`` and the ``rules`` command at a
game's prompt show them from any installed copy; the repository's ``docs/rules/README.md``
links to these same files.  A file starts with a ``# Title`` line, a blank line and a
one-line summary.
"""

from __future__ import annotations

from importlib import resources

from parlour.core import BadOption, shown


def rule_games() -> dict[str, str]:
    """Each game that has rules text, with its one-line summary, in name order."""
    files = [f for f in resources.files(__name__).iterdir() if f.name.endswith(".md")]
    pages = {f.name.removesuffix(".md"): f.read_text(encoding="utf-8") for f in files}
    return {name: _summary(pages[name]) for name in sorted(pages)}


def rules_text(name: str) -> str:
    """The rules of game ``name`` as Markdown; BadOption naming the games if it has none."""
    games = rule_games()
    if name not in games:  # never a path: no file outside this folder, no name too long
        raise BadOption(f"no rules for {shown(name)}; the games are: {', '.join(games)}")
    return (resources.files(__name__) / f"{name}.md").read_text(encoding="utf-8")


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
