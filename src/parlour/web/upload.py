"""A game file a person brings to the page, to replay and analyse: parlour's saved game
(JSON, as the page and ``parlour play``'s ``save`` write it) or a game's own record form
(five in a row's ``.psq``), told apart by the file's name.

The file is read within limits (:data:`MAX_BYTES`; JSON no deeper than parlour's files
allow) and its moves replayed by the rules, so a file that is not a game, or whose moves
are not legal, is refused in words and nothing of it is kept.  The game becomes a record
as a replay takes it (:func:`parlour.web.records.shown`): it ends by the rules where its
last position is over, and otherwise where the file stops.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import PurePath
from typing import Any

from parlour.core import Move, ParlourError, State
from parlour.files import BadFile
from parlour.kit import record_form
from parlour.records.saved import SavedGame
from parlour.web.records import shown
from parlour.web.tables import Refused
from parlour.web.views import Json

MAX_BYTES = 64 * 1024
"""The largest file taken: a long game of any of parlour's games is a few kilobytes."""
UPLOADED = "upload"
"""The id a replayed file goes by (it is no game of the server's)."""
SAVED = ".json"


def uploaded(name: str, body: bytes) -> Json:
    """The record of the game in the file called ``name`` whose bytes are ``body``, as a
    replay takes it; Refused naming what is wrong with it."""
    if len(body) > MAX_BYTES:
        raise Refused(f"the file is too long: {len(body)} bytes, the limit is {MAX_BYTES}")
    try:
        text = body.decode()
    except UnicodeDecodeError:
        raise Refused("the file is not text (UTF-8): not a game's record") from None
    suffix = PurePath(name).suffix.lower()
    try:
        start, moves = _read(suffix, text)
        names = []
        state = start
        for move in moves:
            names.append(state.move_name(move))
            state = state.play(move)
    except (ParlourError, RecursionError) as error:
        raise Refused(f"{name[:60]} is not a game parlour can replay: {error}") from None
    return shown(_row(start, names, state))


def _read(suffix: str, text: str) -> tuple[State, tuple[Move, ...]]:
    """The start and the moves of the file's game (parlour's errors naming the problem)."""
    if suffix == SAVED:
        played = SavedGame.from_text(text, "the file").played()
        return played.first, played.moves
    _, form = record_form(suffix)
    if not text.strip():
        raise BadFile("the file is empty")
    return form.read(text, {})


def _row(start: State, names: list[str], final: State) -> dict[str, Any]:
    """The game as the store would keep one played elsewhere, for :func:`shown`."""
    over = final.is_over
    return {
        "shown": None,
        "id": None,
        "ref": UPLOADED,
        "game": start.game.name,
        "options": json.dumps(dict(start.game.options)),
        "player0": "Player 1",
        "player1": "Player 2",
        "start": start.notation(),
        "moves": " ".join(names),
        "started": datetime.now(UTC).isoformat(timespec="seconds"),
        "reason": "rules" if over else "aborted",
        "winner": final.winner if over else None,
        "score0": final.scores[0],
        "score1": final.scores[1],
        "detail": "" if over else "the file ends before the game does",
    }
