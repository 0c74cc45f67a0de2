"""The one store of played games: an SQLite file (WAL mode) that the arena's matches and
the web's tables write alike, so that one listing, one replay and one export serve a game
wherever it was played.

Tables (the schema below is the one statement of them):

- ``matches``: an arena match or tournament, its Plan as JSON.
- ``games``: one row a finished game.  The rules (``game``, ``options``), the position
  it started from (``start``, in the game's notation; NULL where the game did not show it,
  as War's deal) and every move by name make the game again; the players by seat, the
  result and the seconds each move took say how it went.  ``site`` says where it was
  played (``arena``, ``web``); an arena game belongs to a match (``match``, ``job``,
  ``pair``, ``entrant0/1``), a web game has the link it is found by (``ref``), its result
  in the words its pages said (``words``, for a listing) and what its pages were shown
  (``shown``, JSON), which a replay shows and nothing more.
- ``under_way``: the games a web server is playing, each written as it goes, so that a
  server started again brings them back.

The file carries its schema's version (``PRAGMA user_version``).  A file of version 1
(the arena's alone) is brought to version 2 in one transaction when opened for writing;
any other version, a file that is not a database, or one damaged (``PRAGMA quick_check``
on every open) is refused with a message saying so and never written.  Reading needs no
right to write: the commands that only read open the file read-only.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import urllib.parse
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from importlib.metadata import version
from pathlib import Path
from typing import Any, Self

from parlour.core import ParlourError

SCHEMA_VERSION = 2
GAMES = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    site TEXT NOT NULL DEFAULT 'arena', -- where it was played: arena or web
    match INTEGER REFERENCES matches(id), -- an arena game's match; NULL elsewhere
    job INTEGER,                     -- the game's number in its match's plan
    pair INTEGER,                    -- games of one pair share an opening, colours swapped
    ref TEXT UNIQUE,                 -- a web game's link; NULL elsewhere
    game TEXT NOT NULL,
    options TEXT NOT NULL,           -- the rule options as JSON
    player0 TEXT NOT NULL,           -- the players by seat, player 0 (who starts) first
    player1 TEXT NOT NULL,
    entrant0 INTEGER,                -- their places in the match's plan
    entrant1 INTEGER,
    start TEXT,                      -- the position before the opening, in the game's
                                     -- notation; NULL where the game never showed it
    opening TEXT NOT NULL,           -- the opening moves, space-separated
    moves TEXT NOT NULL,             -- every move from the start (the opening's first)
    winner INTEGER,                  -- the seat that won; NULL for a draw
    reason TEXT NOT NULL,            -- the Outcome's reason by name: rules, time, crashed...
    detail TEXT NOT NULL,
    score0 INTEGER NOT NULL,
    score1 INTEGER NOT NULL,
    seconds TEXT NOT NULL,           -- JSON: the seconds each move after the opening took
    evaluations TEXT,                -- JSON: the engines' values a move, where known
    started TEXT NOT NULL,
    ended TEXT NOT NULL,
    version TEXT NOT NULL,
    words TEXT,                      -- the result as a web game's pages said it in words
    shown TEXT,                      -- JSON: what a web game's pages were shown
    UNIQUE (match, job)
);
"""
SCHEMA = (
    """
CREATE TABLE matches (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,              -- match or tournament
    plan TEXT NOT NULL,              -- the Plan as JSON: everything that decides the games
    created TEXT NOT NULL,
    finished TEXT,                   -- NULL while games are still to play
    verdict TEXT,                    -- the SPRT's H0/H1, where it stopped the match
    version TEXT NOT NULL            -- parlour's version and source hash that created it
);
CREATE TABLE under_way (
    ref TEXT PRIMARY KEY,            -- the web game's link
    setup TEXT NOT NULL,             -- JSON: how to make the game again
    progress TEXT NOT NULL           -- JSON: its moves so far, whether it began
);
"""
    + GAMES
)
FROM_VERSION_1 = (
    "ALTER TABLE games RENAME TO games_1;"
    + GAMES
    + """
INSERT INTO games (id, match, job, pair, game, options, player0, player1, entrant0,
    entrant1, start, opening, moves, winner, reason, detail, score0, score1, seconds,
    evaluations, started, ended, version)
SELECT id, match, job, pair, game, options, player0, player1, entrant0, entrant1, start,
    opening, moves, winner, reason, detail, score0, score1, seconds, evaluations, started,
    ended, version FROM games_1;
DROP TABLE games_1;
CREATE TABLE under_way (ref TEXT PRIMARY KEY, setup TEXT NOT NULL, progress TEXT NOT NULL);
"""
)
"""Version 1 (the arena's games, each in a match) to version 2: the same rows, arena's."""
COLUMNS = (
    "site, match, job, pair, ref, game, options, player0, player1, entrant0, entrant1, "
    "start, opening, moves, winner, reason, detail, score0, score1, seconds, evaluations, "
    "started, ended, version, words, shown"
)


class RecordsError(ParlourError):
    """The store cannot be used: not a database, another schema, no such record."""


@dataclass(frozen=True)
class Finished:
    """A finished game as the store keeps it, wherever it was played.  ``moves`` are by
    name from ``start`` (the opening's first); ``seconds`` the time each move after the
    opening took; ``reason`` the Outcome's reason by name (``rules``, ``time``...)."""

    game: str
    options: dict[str, Any]
    players: tuple[str, str]
    start: str | None
    moves: tuple[str, ...]
    winner: int | None
    reason: str
    detail: str
    scores: tuple[int, int]
    seconds: tuple[float, ...]
    started: str
    ended: str
    opening: tuple[str, ...] = ()
    site: str = "arena"
    ref: str | None = None
    words: str | None = None
    """The result as the pages said it (a web game); None elsewhere."""
    shown: Any = None
    """What the pages showed (a web game), as JSON; None elsewhere."""


@dataclass(frozen=True)
class InMatch:
    """Where an arena game sits in its match: its job (the game's number in the plan),
    its pair, and the players' places in the plan by seat."""

    job: int
    pair: int
    entrants: tuple[int, int]


def default_path() -> Path:
    """The store in the user's data folder."""
    from platformdirs import user_data_path

    return user_data_path("parlour") / "arena.sqlite3"


@cache
def code_version() -> str:
    """parlour's exact code, read once: its version and a hash of its source files
    (``0.1.0+3f2a9c01d4e7``), so that a record tells which build played it even between
    two releases, or from a checkout with changes not committed."""
    package = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for source in sorted(package.rglob("*.py")):
        digest.update(source.relative_to(package).as_posix().encode() + b"\0")
        digest.update(source.read_bytes())
    return f"{version('parlour')}+{digest.hexdigest()[:12]}"


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def database_path(text: str | Path) -> Path:
    """The store ``--db`` names, ``~`` and ``~user`` expanded; RecordsError for an
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


class Store:
    """An open store; ``writable`` False opens it read-only (it must exist, and nothing is
    written to it, not even its journal mode).  ``":memory:"`` keeps nothing."""

    def __init__(self, path: str | Path, writable: bool = True) -> None:
        self.path = Path(path) if str(path) == ":memory:" else database_path(path)
        try:
            self.db = self._connect(writable)
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

    def _connect(self, writable: bool) -> sqlite3.Connection:
        if str(self.path) == ":memory:":
            return sqlite3.connect(":memory:", check_same_thread=False)
        if writable:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            return sqlite3.connect(self.path, timeout=30, check_same_thread=False)
        if not self.path.is_file():
            raise RecordsError(f"no database at {self.path}")
        uri = "file:" + urllib.parse.quote(str(self.path.absolute())) + "?mode=ro"
        return sqlite3.connect(uri, timeout=30, uri=True, check_same_thread=False)

    def _prepare(self, writable: bool) -> None:
        """Check the file, then make or update its schema; the journal mode is set last,
        so that a file refused is left as it was, to the byte."""
        found = self.db.execute("PRAGMA user_version").fetchone()[0]
        tables = {r[0] for r in self.db.execute("SELECT name FROM sqlite_master")}
        problems = [r[0] for r in self.db.execute("PRAGMA quick_check(1)")]
        if problems != ["ok"]:
            raise RecordsError(
                f"{self.path} is damaged ({' '.join(problems[0].split())}): parlour leaves "
                "it as it is; keep a copy, and record into another --db"
            )
        if found == 0 and not tables and writable:
            self._change(SCHEMA)
        elif found == 1 and {"matches", "games"} <= tables and writable:
            self._change(FROM_VERSION_1)
        elif found != SCHEMA_VERSION or not {"matches", "games", "under_way"} <= tables:
            raise RecordsError(
                f"{self.path} holds schema version {found}, not parlour's {SCHEMA_VERSION}"
                + (": open it for writing once to bring it up to date" if found == 1 else "")
            )
        if writable:
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")

    def _change(self, script: str) -> None:
        """Run ``script`` and set the version, all in one transaction."""
        try:
            self.db.executescript(f"BEGIN;{script};PRAGMA user_version={SCHEMA_VERSION};COMMIT;")
        except sqlite3.Error:
            if self.db.in_transaction:
                self.db.rollback()
            raise

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # Finished games.

    def add(self, played: Finished, match: int | None = None, place: InMatch | None = None) -> int:
        """Keep a finished game (an arena game: of ``match``, at ``place`` in it), whole
        or not at all, and give its id.  A web game kept
        again under the same link replaces it; an arena game recorded twice is refused by
        the ``UNIQUE (match, job)`` key (sqlite3.IntegrityError)."""
        where = (match, place.job, place.pair) if place else (None, None, None)
        entrants = place.entrants if place else (None, None)
        row = (
            played.site,
            *where,
            played.ref,
            played.game,
            json.dumps(played.options),
            *played.players,
            *entrants,
            played.start,
            " ".join(played.opening),
            " ".join(played.moves),
            played.winner,
            played.reason,
            played.detail,
            *played.scores,
            json.dumps(played.seconds),
            None,
            played.started,
            played.ended,
            code_version(),
            played.words,
            None if played.shown is None else json.dumps(played.shown),
        )
        marks = ", ".join("?" * len(row))
        verb = "INSERT" if played.ref is None else "INSERT OR REPLACE"
        with self.db:
            cursor = self.db.execute(f"{verb} INTO games ({COLUMNS}) VALUES ({marks})", row)
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def game(self, game_id: int) -> dict[str, Any]:
        """The row of game ``game_id``; RecordsError if there is none."""
        row = self.db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise RecordsError(f"no game {game_id} in {self.path}")
        return dict(row)

    def by_ref(self, ref: str) -> dict[str, Any] | None:
        """The row of the web game whose link is ``ref``, or None."""
        row = self.db.execute("SELECT * FROM games WHERE ref = ?", (ref,)).fetchone()
        return None if row is None else dict(row)

    def games(
        self,
        match_id: int | None = None,
        player: str | None = None,
        game: str | None = None,
        limit: int = 50,
        offset: int = 0,
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
        query = sql + " ORDER BY id DESC LIMIT ? OFFSET ?"
        for row in self.db.execute(query, (*values, limit, offset)):
            yield dict(row)

    # Games under way (a web server's).

    def begin(self, ref: str, setup: Any) -> None:
        """Keep a game under way: ``setup`` says how to make it again."""
        progress = json.dumps({"moves": [], "started": False})
        with self.db:
            self.db.execute(
                "INSERT OR REPLACE INTO under_way VALUES (?, ?, ?)",
                (ref, json.dumps(setup), progress),
            )

    def moved(self, progress: Mapping[str, Any]) -> None:
        """How far games under way are, each by its link (the moves of its line, whether
        it began), in one transaction: a busy server writes many games' moves at once."""
        rows = [(json.dumps(done), ref) for ref, done in progress.items()]
        with self.db:
            self.db.executemany("UPDATE under_way SET progress = ? WHERE ref = ?", rows)

    def drop(self, ref: str) -> None:
        """A game no longer under way (it ended, or was called off)."""
        with self.db:
            self.db.execute("DELETE FROM under_way WHERE ref = ?", (ref,))

    def under_way(self) -> list[tuple[str, Any, Any]]:
        """Every game kept as under way: its link, setup and progress."""
        rows = self.db.execute("SELECT ref, setup, progress FROM under_way")
        return [(ref, json.loads(setup), json.loads(progress)) for ref, setup, progress in rows]
