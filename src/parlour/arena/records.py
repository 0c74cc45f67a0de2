"""The arena's records: matches and their games in one SQLite file (WAL mode).

One process owns a match while it runs (:meth:`Records.hold`, a lock the system drops
when the process dies) and writes each game in a transaction of its own, so a match killed
at any moment leaves whole games only; the ``UNIQUE (match, job)`` key makes a game
recorded twice impossible, and resuming plays the jobs not recorded.  The schema carries a
version number (``PRAGMA user_version``); a file of another version, one that is not a
database, or one damaged (``PRAGMA quick_check`` on every open) is refused with a message
saying so, and never written.  Reading needs no right to write: the commands that only
read open the file read-only.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import sqlite3
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from importlib.metadata import version
from pathlib import Path
from typing import Any

from parlour.arena.plan import Plan
from parlour.arena.worker import GameRecord
from parlour.core import ParlourError

SCHEMA_VERSION = 1
SCHEMA = """
CREATE TABLE matches (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,              -- match or tournament
    plan TEXT NOT NULL,              -- the Plan as JSON: everything that decides the games
    created TEXT NOT NULL,
    finished TEXT,                   -- NULL while games are still to play
    verdict TEXT,                    -- the SPRT's H0/H1, where it stopped the match
    version TEXT NOT NULL            -- parlour's version and source hash that created it
);
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    match INTEGER NOT NULL REFERENCES matches(id),
    job INTEGER NOT NULL,            -- the game's number in its plan
    pair INTEGER NOT NULL,           -- games of one pair share an opening, colours swapped
    game TEXT NOT NULL,
    options TEXT NOT NULL,           -- the rule options as JSON
    player0 TEXT NOT NULL,           -- the specs by seat, player 0 (who starts) first
    player1 TEXT NOT NULL,
    entrant0 INTEGER NOT NULL,       -- their places in the plan's players
    entrant1 INTEGER NOT NULL,
    start TEXT NOT NULL,             -- the position before the opening, in the game's notation
    opening TEXT NOT NULL,           -- the opening moves, space-separated
    moves TEXT NOT NULL,             -- every move from the start (the opening's first)
    winner INTEGER,                  -- the seat that won; NULL for a draw
    reason TEXT NOT NULL,            -- the Outcome's reason: rules, time, crashed...
    detail TEXT NOT NULL,
    score0 INTEGER NOT NULL,
    score1 INTEGER NOT NULL,
    seconds TEXT NOT NULL,           -- JSON: the seconds each move after the opening took
    evaluations TEXT,                -- JSON: the engines' values a move, where known
    started TEXT NOT NULL,
    ended TEXT NOT NULL,
    version TEXT NOT NULL,
    UNIQUE (match, job)
);
"""


class RecordsError(ParlourError):
    """The database cannot be used: not a database, another schema, no such record."""


@dataclass(frozen=True)
class Match:
    id: int
    kind: str
    plan: Plan
    created: str
    finished: str | None
    verdict: str | None


def default_path() -> Path:
    """The database in the user's data folder."""
    from platformdirs import user_data_path

    return user_data_path("parlour") / "arena.sqlite3"


@cache
def code_version() -> str:
    """parlour's exact code, read once: its version and a hash of its source files
    (``0.1.0+3f2a9c01d4e7``), so that a record tells which build played it even between
    two releases, or from a checkout with changes not committed."""
    package = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for source in sorted(package.rglob("*.py")):
        digest.update(source.relative_to(package).as_posix().encode() + b"\0")
        digest.update(source.read_bytes())
    return f"{version('parlour')}+{digest.hexdigest()[:12]}"


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def database_path(text: str | Path) -> Path:
    """The database ``--db`` names, ``~`` and ``~user`` expanded; RecordsError for an
    empty name or a user that does not exist (never a folder called ``~nouser``)."""
    if not str(text).strip():
        raise RecordsError("--db needs a file name, not an empty one")
    try:
        path = Path(text).expanduser()
    except RuntimeError as error:  # no home folder for "~" or "~user"
        raise RecordsError(f"--db {text}: {error}") from None
    if str(path).startswith("~"):
        raise RecordsError(f"--db {text}: no such user {str(path).split('/')[0][1:]!r}")
    return path


class Records:
    """An open database of matches and games; ``writable`` False opens it read-only (it
    must exist, and nothing is written to it, not even its journal mode)."""

    def __init__(self, path: str | Path, writable: bool = True) -> None:
        self.path = database_path(path)
        self.holds: dict[int, int] = {}  # match -> the descriptor of its lock
        try:
            if writable:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self.db = sqlite3.connect(self.path, timeout=30)
            else:
                if not self.path.is_file():
                    raise RecordsError(f"no database at {self.path}")
                uri = "file:" + urllib.parse.quote(str(self.path.absolute())) + "?mode=ro"
                self.db = sqlite3.connect(uri, timeout=30, uri=True)
        except (OSError, sqlite3.Error) as error:
            raise RecordsError(f"cannot open the database {self.path}: {error}") from None
        self.db.row_factory = sqlite3.Row
        try:
            self._prepare(writable)
        except sqlite3.DatabaseError as error:
            self.db.close()
            what = "is damaged" if "malformed" in str(error) else "is not a parlour database"
            raise RecordsError(f"{self.path} {what} ({error})") from None
        except RecordsError:
            self.db.close()
            raise

    def _prepare(self, writable: bool) -> None:
        if writable:
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
        found = self.db.execute("PRAGMA user_version").fetchone()[0]
        tables = {r[0] for r in self.db.execute("SELECT name FROM sqlite_master")}
        problems = [r[0] for r in self.db.execute("PRAGMA quick_check(1)")]
        if problems != ["ok"]:
            raise RecordsError(
                f"{self.path} is damaged ({' '.join(problems[0].split())}): parlour leaves "
                "it as it is; keep a copy, and record into another --db"
            )
        if found == 0 and not tables and writable:
            with self.db:
                self.db.executescript(SCHEMA + f"PRAGMA user_version={SCHEMA_VERSION};")
        elif found != SCHEMA_VERSION or not {"matches", "games"} <= tables:
            raise RecordsError(
                f"{self.path} holds schema version {found}, not parlour's {SCHEMA_VERSION}"
            )

    def close(self) -> None:
        for held in self.holds.values():
            os.close(held)
        self.holds = {}
        self.db.close()

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

    def __enter__(self) -> Records:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

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

    def add(self, match_id: int, plan: Plan, record: GameRecord) -> None:
        """Record one game, whole or not at all."""
        with self.db:
            self.db.execute(
                "INSERT INTO games (match, job, pair, game, options, player0, player1, "
                "entrant0, entrant1, start, opening, moves, winner, reason, detail, score0, "
                "score1, seconds, started, ended, version) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    match_id,
                    record.index,
                    record.pair,
                    plan.game,
                    json.dumps(plan.options),
                    *record.players,
                    *record.seats,
                    record.start,
                    " ".join(record.opening),
                    " ".join(record.moves),
                    record.winner,
                    record.reason,
                    record.detail,
                    *record.scores,
                    json.dumps(record.seconds),
                    record.started,
                    record.ended,
                    code_version(),
                ),
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

    def game(self, game_id: int) -> dict[str, Any]:
        row = self.db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise RecordsError(f"no game {game_id} in {self.path}")
        return dict(row)

    def games(
        self,
        match_id: int | None = None,
        player: str | None = None,
        game: str | None = None,
        limit: int = 50,
    ) -> Iterator[dict[str, Any]]:
        """The games that pass the filters, the newest first."""
        where: list[str] = []
        values: list[Any] = []
        if match_id is not None:
            where.append("match = ?")
            values.append(match_id)
        if player is not None:
            where.append("(player0 = ? OR player1 = ?)")
            values += [player, player]
        if game is not None:
            where.append("game = ?")
            values.append(game)
        sql = "SELECT * FROM games" + (" WHERE " + " AND ".join(where) if where else "")
        for row in self.db.execute(sql + " ORDER BY id DESC LIMIT ?", (*values, limit)):
            yield dict(row)
