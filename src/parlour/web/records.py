"""Finished games, kept in SQLite (standard library, WAL mode) so that a server started
again, after a crash too, still lists them and can replay each from its link.

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
)
"""


class Records:
    """The finished games at ``path`` (":memory:" for none kept)."""

    def __init__(self, path: str | Path) -> None:
        self._db = sqlite3.connect(str(path), check_same_thread=False)
        self._db.execute("pragma journal_mode=wal")
        self._db.execute(SCHEMA)
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

    def close(self) -> None:
        self._db.close()
