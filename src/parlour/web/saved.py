"""A game of the web as a file: parlour's saved game (``parlour play GAME --load FILE``
takes it up at the terminal), or in its game's own record form (five in a row's
``.psq``, which other programs read).

The saved game is made from what the game showed (its record, or a table's so far): the
rule options a page may see, the start in the game's notation and the line's moves (a
move taken back is not in it).  It is replayed before it is given, so a file the terminal
would refuse is never offered.
"""

from __future__ import annotations

from parlour.core import BadOption, BadPosition, ParlourError, game, replay
from parlour.kit import kit_of
from parlour.records.saved import SavedGame
from parlour.web.analysis import line
from parlour.web.tables import Refused
from parlour.web.views import Json


def in_form(record: Json) -> tuple[str, str]:
    """The suffix and the text of the game in ``record`` in its game's own record form
    (five in a row's ``.psq``); Refused where the game has none or the form cannot
    hold this game."""
    table = record["table"]
    forms = kit_of(table["game"]).record_forms
    if not forms:
        raise Refused(f"{table['game']} has no record form but parlour's saved game")
    try:
        views, names = line(record)
        start = game(table["game"], **table["options"]).parse(views[0]["notation"])
        played = replay(start, names)
        moves = [move for move, _ in played]
        text = forms[0].write(start, moves, (table["names"][0], table["names"][1]), None)
    except ParlourError as error:
        raise Refused(f"this game cannot be written as {forms[0].suffix}: {error}") from None
    return forms[0].suffix, text


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
