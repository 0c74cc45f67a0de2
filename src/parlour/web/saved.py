"""A game of the web as a file: parlour's saved game (``parlour play GAME --load FILE``
takes it up at the terminal), and the rules of each game as a page shows them.

The saved game is made from what the game showed (its record, or a table's so far): the
rule options a page may see, the start in the game's notation and the line's moves (a
move taken back is not in it).  It is replayed before it is given, so a file the terminal
would refuse is never offered.
"""

from __future__ import annotations

import functools

from parlour.core import BadOption, BadPosition
from parlour.players.saved_game import SavedGame
from parlour.rules_text import rendered, rules_text
from parlour.web.analysis import line
from parlour.web.tables import Refused
from parlour.web.views import Json

WIDTH = 72
"""Columns of the rules' text (a page wraps longer lines)."""


def saved_game(record: Json) -> str:
    """The saved game's text of the game in ``record``; Refused saying why there is none."""
    table = record["table"]
    try:
        views, names = line(record)
        saved = SavedGame(table["game"], table["options"], views[0]["notation"], tuple(names))
        saved.replay()
    except (BadOption, BadPosition) as error:
        raise Refused(f"this game cannot be saved: {error}") from None
    return saved.to_text()


@functools.cache
def rules(name: str) -> str:
    """The rules of game ``name`` as plain text (BadOption for a game without rules)."""
    return rendered(rules_text(name), WIDTH)
