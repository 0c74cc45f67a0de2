"""The web's games in parlour's one store (:mod:`parlour.records.store`): the file the arena
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
from parlour.core import ParlourError, State, game, replay
from parlour.records.store import Finished, RecordsError, Store, now
from parlour.web import views
from parlour.web.analysis import line
from parlour.web.views import Json

LINK = "g"
"""A game played outside the web is linked as ``g`` and its number in the store (a web
game's link is its table's id, drawn at random)."""


def played(record: Json) -> Finished:
    """A finished web game as the store keeps it (``record``: what its pages showed)."""
    table, result = record["table"], record["result"]
    scores = result.get("scores") or next(
        (e["counts"] for e in reversed(record["log"]) if "counts" in e), [0, 0]
    )
    started = datetime.fromtimestamp(table["created"], UTC).isoformat(timespec="seconds")
    return Finished(
        game=table["game"],
        options=table["options"],
        players=(table["names"][0], table["names"][1]),
        start=None if record["start"] is None else record["start"]["notation"],
        moves=() if record["start"] is None else tuple(line(record)[1]),
        winner=result["winner"],
        reason=Reason(result["reason"]).name.lower(),
        detail=result.get("detail", ""),
        scores=(scores[0], scores[1]),
        seconds=(),
        started=started,
        ended=now(),
        site="web",
        ref=table["id"],
        words=result["words"],
        shown=record,
    )


def link(row: dict[str, Any]) -> str:
    """The link of a stored game: a web game's own, ``g`` and its number for others."""
    return str(row["ref"]) if row["ref"] is not None else f"{LINK}{row['id']}"


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
    table = {
        "id": link(row),
        "game": row["game"],
        "kind": "turns",
        "names": list(names),
        "options": views.public_options(rules),
        "created": datetime.fromisoformat(row["started"]).timestamp(),
        "over": True,
    }
    result = _result(row, state)
    return {"table": table, "log": log, "result": result, "start": views.position(start)}


def _result(row: dict[str, Any], final: State) -> Json:
    """The end of a game played elsewhere, as a page says it (``final``: its last
    position)."""
    reason = Reason[row["reason"].upper()]
    scores = (row["score0"], row["score1"])
    forfeit = None if reason is Reason.RULES or row["winner"] is None else 1 - row["winner"]
    outcome = Outcome(row["winner"], reason, scores, (), final, forfeit, row["detail"])
    return views.outcome(outcome, (row["player0"], row["player1"]))


def words(row: dict[str, Any]) -> str:
    """A stored game's result in words: as a web game's pages said it, else made from the
    position its moves reach (the errors of :func:`shown`)."""
    if row["words"] is not None:
        return str(row["words"])
    start = game(row["game"], **json.loads(row["options"])).parse(row["start"])
    played = replay(start, row["moves"].split())
    final: str = _result(row, played[-1][1] if played else start)["words"]
    return final


class Records(Store):
    """The store at ``path`` as the web reads and writes it (":memory:" keeps nothing)."""

    def keep(self, record: Json) -> None:
        """Keep a finished web game (its ``table`` and ``result`` say which and how)."""
        self.add(played(record))

    def latest(self, limit: int = 50, offset: int = 0) -> list[Json]:
        """The last games finished, wherever they were played, newest first, from the
        ``offset``-th: link, game, names, result in words (a game this version no longer
        replays is left out)."""
        games = []
        for row in self.games(limit=limit, offset=offset):
            try:
                said = words(row)
            except (ParlourError, KeyError, ValueError):
                continue
            games.append(
                {
                    "id": link(row),
                    "game": row["game"],
                    "names": [row["player0"], row["player1"]],
                    "words": said,
                    "finished": row["ended"],
                }
            )
        return games

    def get(self, ref: str) -> Json | None:
        """The whole record of the game at link ``ref``, as a page's replay takes it; None
        if there is none (or it no longer replays by these rules)."""
        row = self.by_ref(ref)
        if row is None and ref.startswith(LINK) and ref[1:].isdigit() and len(ref) < 20:
            try:
                row = self.game(int(ref[1:]))
            except RecordsError:
                return None
            if row["ref"] is not None:  # a web game is found by its own link only
                return None
        return None if row is None else self._shown(row)

    @staticmethod
    def _shown(row: dict[str, Any]) -> Json | None:
        try:
            return shown(row)
        except (ParlourError, KeyError, ValueError):
            return None  # a record this version cannot replay: not offered
