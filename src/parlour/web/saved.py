"""A game of the web as a file: parlour's saved game (``parlour play GAME --load FILE``
takes it up at the terminal).

The saved game is made from what the game showed (its record, or a table's so far): the
rule options a page may see, the start in the game's notation and the line's moves (a
move taken back is not in it).  It is replayed before it is given, so a file the terminal
would refuse is never offered.
"""

from __future__ import annotations

from parlour.core import BadOption, BadPosition
from parlour.players.saved_game import SavedGame
from parlour.web.analysis import line
from parlour.web.tables import Refused
from parlour.web.views import Json


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
