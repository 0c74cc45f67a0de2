"""The web's games in parlour's one store (:mod:`parlour.store`): the file the arena
writes too, so that ``parlour serve --db`` and ``parlour games --db`` on one file list the
same games, a game played in the browser replays on the terminal, and a match's game opens
in the page's replay.

A web game is kept as what it showed: the table's description, every event as the pages
got it, and the result (the store's ``shown``), beside its rules, start and moves by name.
So a replay shows no more than the game did (no War stack, no seed).  A game played
elsewhere is shown in the same form, made by replaying its moves through the rules.  Games
under way are written as they go, so that a server started again brings them back.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from parlour.actors import Moved, Outcome, Reason
from parlour.core import ParlourError, game
from parlour.store import Played, Store, now
from parlour.web import views
from parlour.web.views import Json

LINK = "g"
"""A game played outside the web is linked as ``g`` and its number in the store (a web
game's link is its table's id, drawn at random)."""


def _line(record: Json) -> list[str]:
    """The moves of a shown game's line as it ended (a move taken back is not in it)."""
    moves: list[str] = []
    for event in record["log"]:
        if event.get("kind") == "moved":
            moves.append(event["move"])
        elif event.get("kind") == "taken_back":
            del moves[event["moves"] :]
    return moves


def played(record: Json) -> Played:
    """A finished web game as the store keeps it (``record``: what its pages showed)."""
    table, result = record["table"], record["result"]
    scores = result.get("scores") or next(
        (e["counts"] for e in reversed(record["log"]) if "counts" in e), [0, 0]
    )
    started = datetime.fromtimestamp(table["created"], UTC).isoformat(timespec="seconds")
    return Played(
        game=table["game"],
        options=table["options"],
        players=(table["names"][0], table["names"][1]),
        start=None if record["start"] is None else record["start"]["notation"],
        moves=tuple(_line(record)),
        winner=result["winner"],
        reason=Reason(result["reason"]).name.lower(),
        detail=result.get("detail", ""),
        scores=(scores[0], scores[1]),
        seconds=(),
        started=started,
        ended=now(),
        site="web",
        ref=table["id"],
        shown=record,
    )


def shown(row: dict[str, Any]) -> Json:
    """A stored game as a page's replay takes it: what a web game showed, and for a game
    played elsewhere the same made by replaying its moves (BadOption or BadPosition
    naming what does not replay)."""
    if row["shown"] is not None:
        found: Json = json.loads(row["shown"])
        return found
    rules = game(row["game"], **json.loads(row["options"]))
    names = (row["player0"], row["player1"])
    state = start = rules.parse(row["start"])
    log: list[Json] = []
    last: int | None = None
    for turn, name in enumerate(row["moves"].split()):
        event = Moved.replayed(state, name, turn, last)
        log.append({"type": "event", "n": turn + 1, **views.moved(event, names)})
        state, last = event.after, event.player
    reason = Reason[row["reason"].upper()]
    scores = (row["score0"], row["score1"])
    forfeit = None if reason is Reason.RULES or row["winner"] is None else 1 - row["winner"]
    outcome = Outcome(row["winner"], reason, scores, (), state, forfeit, row["detail"])
    table = {
        "id": f"{LINK}{row['id']}",
        "game": row["game"],
        "kind": "turns",
        "names": list(names),
        "options": views.public_options(rules),
        "created": datetime.fromisoformat(row["started"]).timestamp(),
        "over": True,
    }
    result = views.outcome(outcome, names)
    return {"table": table, "log": log, "result": result, "start": views.position(start)}


class Records(Store):
    """The store at ``path`` as the web reads and writes it (":memory:" keeps nothing)."""

    def keep(self, record: Json) -> None:
        """Keep a finished web game (its ``table`` and ``result`` say which and how)."""
        self.add(played(record))

    def latest(self, limit: int = 50, offset: int = 0) -> list[Json]:
        """The last games finished, wherever they were played, newest first, from the
        ``offset``-th: link, game, names, result in words."""
        games = []
        for row in self.games(limit=limit, offset=offset):
            record = self._shown(row)
            if record is None:
                continue
            games.append(
                {
                    "id": record["table"]["id"],
                    "game": row["game"],
                    "names": [row["player0"], row["player1"]],
                    "words": record["result"]["words"],
                    "finished": row["ended"],
                }
            )
        return games

    def get(self, link: str) -> Json | None:
        """The whole record of the game at ``link``, as a page's replay takes it; None if
        there is none (or it no longer replays by these rules)."""
        row = self.by_ref(link)
        if row is None and link.startswith(LINK) and link[1:].isdigit() and len(link) < 20:
            found = self.db.execute(
                "SELECT * FROM games WHERE id = ? AND ref IS NULL", (int(link[1:]),)
            ).fetchone()
            row = None if found is None else dict(found)
        return None if row is None else self._shown(row)

    @staticmethod
    def _shown(row: dict[str, Any]) -> Json | None:
        try:
            return shown(row)
        except (ParlourError, KeyError, ValueError):
            return None  # a record this version cannot replay: not offered
