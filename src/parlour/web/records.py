"""Finished games, kept in SQLite (standard library, WAL mode) so that a server started
again, after a crash too, still lists them and can replay each from its link; and the
games under way, each written as it is made and at each move (what it is, who sits
where, its seats' tokens, the moves of its line), so that such a server brings them back.

A record is what the game showed: the table's description, every event as the pages got
it, and the result.  So a replay shows no more than the game did (no War stack, no seed).
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

from parlour.web.views import Json

SCHEMA = """
create table if not exists games (
    id text primary key,
    game text not null,
    names text not null,
    words text not null,
    finished real not null,
    record text not null
);
create table if not exists under_way (
    id text primary key,
    setup text not null,
    moves text not null
)
"""


class Records:
    """The finished games at ``path`` (":memory:" for none kept)."""

    def __init__(self, path: str | Path) -> None:
        self._db = sqlite3.connect(str(path), check_same_thread=False)
        self._db.execute("pragma journal_mode=wal")
        self._db.executescript(SCHEMA)
        self._db.commit()

    def add(self, record: Json) -> None:
        """Keep a finished game (its ``table`` and ``result`` say which and how)."""
        table = record["table"]
        row = (
            table["id"],
            table["game"],
            json.dumps(table["names"]),
            record["result"]["words"],
            time.time(),
            json.dumps(record),
        )
        with self._db:
            self._db.execute("insert or replace into games values (?, ?, ?, ?, ?, ?)", row)

    def latest(self, limit: int = 50, offset: int = 0) -> list[Json]:
        """The last games finished, newest first, from the ``offset``-th: id, game, names,
        result in words."""
        rows = self._db.execute(
            "select id, game, names, words, finished from games"
            " order by finished desc limit ? offset ?",
            (limit, offset),
        )
        return [
            {"id": i, "game": g, "names": json.loads(n), "words": w, "finished": f}
            for i, g, n, w, f in rows
        ]

    def get(self, game_id: str) -> Json | None:
        """The whole record of one game, or None."""
        row = self._db.execute("select record from games where id = ?", (game_id,)).fetchone()
        if row is None:
            return None
        found: Json = json.loads(row[0])
        return found

    def begin(self, game_id: str, setup: Json) -> None:
        """Keep a game under way: ``setup`` says how to make it again."""
        with self._db:
            self._db.execute(
                "insert or replace into under_way values (?, ?, ?)",
                (game_id, json.dumps(setup), json.dumps({"moves": [], "started": False})),
            )

    def moved(self, game_id: str, progress: Json) -> None:
        """How far a game under way is: the moves of its line, whether it started."""
        with self._db:
            self._db.execute(
                "update under_way set moves = ? where id = ?", (json.dumps(progress), game_id)
            )

    def drop(self, game_id: str) -> None:
        """A game no longer under way (it ended, or was called off)."""
        with self._db:
            self._db.execute("delete from under_way where id = ?", (game_id,))

    def under_way(self) -> list[tuple[str, Json, Json]]:
        """Every game kept as under way: its id, setup and progress."""
        rows = self._db.execute("select id, setup, moves from under_way")
        return [(i, json.loads(setup), json.loads(moves)) for i, setup, moves in rows]

    def close(self) -> None:
        self._db.close()
