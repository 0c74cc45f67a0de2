"""The arena's records: matches and their games, in parlour's one store
(:mod:`parlour.records.store`).

One process owns a match while it runs (:meth:`Records.hold`, a lock the system drops
when the process dies) and writes each game in a transaction of its own, so a match killed
at any moment leaves whole games only; the store's ``UNIQUE (match, job)`` key makes a
game recorded twice impossible, and resuming plays the jobs not recorded.
"""

from __future__ import annotations

import fcntl
import json
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from parlour.arena.plan import Plan
from parlour.records.store import RecordsError, Store, code_version, now


@dataclass(frozen=True)
class Match:
    id: int
    kind: str
    plan: Plan
    created: str
    finished: str | None
    verdict: str | None


class Records(Store):
    """An open store, with the arena's matches; ``writable`` False opens it read-only."""

    def __init__(self, path: str | Path, writable: bool = True) -> None:
        super().__init__(path, writable)
        self.holds: dict[int, int] = {}  # match -> the descriptor of its lock

    def close(self) -> None:
        for held in self.holds.values():
            os.close(held)
        self.holds = {}
        super().close()

    def hold(self, match_id: int) -> None:
        """Take match ``match_id`` for this process until :meth:`close` (or its end):
        RecordsError if another process holds it.  The lock is a byte of the file beside
        the database (``-lock``), so the system drops it with a process killed outright."""
        lock = self.path.with_name(self.path.name + "-lock")
        try:
            held = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as error:
            raise RecordsError(f"cannot lock match {match_id}: {error}") from None
        try:
            fcntl.lockf(held, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, match_id)
        except OSError:
            os.close(held)
            raise RecordsError(
                f"match {match_id} of {self.path} is being played by another process"
            ) from None
        self.holds[match_id] = held

    def new_match(self, kind: str, plan: Plan) -> int:
        with self.db:
            cursor = self.db.execute(
                "INSERT INTO matches (kind, plan, created, version) VALUES (?, ?, ?, ?)",
                (kind, json.dumps(plan.as_json()), now(), code_version()),
            )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def match(self, match_id: int) -> Match:
        row = self.db.execute("SELECT * FROM matches WHERE id = ?", (match_id,)).fetchone()
        if row is None:
            raise RecordsError(f"no match {match_id} in {self.path}")
        return self._match(row)

    def last_unfinished(self, kind: str) -> Match | None:
        row = self.db.execute(
            "SELECT * FROM matches WHERE kind = ? AND finished IS NULL ORDER BY id DESC LIMIT 1",
            (kind,),
        ).fetchone()
        return None if row is None else self._match(row)

    def _match(self, row: sqlite3.Row) -> Match:
        try:
            plan = Plan.from_json(json.loads(row["plan"]))
        except (ValueError, TypeError, KeyError) as error:
            raise RecordsError(f"match {row['id']} of {self.path} is damaged: {error}") from None
        return Match(row["id"], row["kind"], plan, row["created"], row["finished"], row["verdict"])

    def finish(self, match_id: int, verdict: str | None) -> None:
        with self.db:
            self.db.execute(
                "UPDATE matches SET finished = ?, verdict = ? WHERE id = ?",
                (now(), verdict, match_id),
            )

    def done_jobs(self, match_id: int) -> set[int]:
        rows = self.db.execute("SELECT job FROM games WHERE match = ?", (match_id,))
        return {row[0] for row in rows}

    def results(self, match_id: int) -> list[tuple[int, int, int, int | None]]:
        """(pair, entrant of seat 0, entrant of seat 1, winning seat) of each game."""
        rows = self.db.execute(
            "SELECT pair, entrant0, entrant1, winner FROM games WHERE match = ? ORDER BY job",
            (match_id,),
        )
        return [(r[0], r[1], r[2], r[3]) for r in rows]
