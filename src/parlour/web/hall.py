"""The tables of one server: games made from the lobby's requests, listed, found, and
written to the records when they end.

A request to make a game is a JSON object (the lobby's form)::

    {"game": "kalah", "options": {"pits": 6}, "opponent": "computer", "level": 3,
     "seconds": null, "first": "me", "minutes": 5, "increment": 3}

``opponent`` is ``computer`` (at ``level``, one of the game's levels as the catalogue
lists them, a number or ``perfect``; ``seconds`` a move where the level searches),
``link`` (a person who gets the invitation link) or ``here`` (two people at one screen);
``first`` is ``me`` or ``them``; ``minutes`` (and ``increment``, seconds a move gains)
put the game on a clock, for people and computer alike.  War needs none of these: it is
dealt and watched.  Every value goes through parlour's own parsers, so a bad one is
refused with their message.
"""

from __future__ import annotations

import asyncio
import ctypes
import gc
import secrets
import sys
from typing import Any

from parlour.actors import TimeControl
from parlour.core import BadOption, ParlourError, game, game_names, game_options, parse_seconds
from parlour.kit import check_level, kit_of
from parlour.players.specs import PlayerSpec, parse_level
from parlour.search import DEFAULT_LEVEL
from parlour.web.engines import EnginePool, default_megabytes
from parlour.web.limits import HINTS, PerAddress
from parlour.web.records import Records
from parlour.web.tables import LINGER, Refused, Table, TurnTable, WatchedTable
from parlour.web.views import SECRET_OPTIONS, Json

OPPONENTS = ("computer", "link", "here")
MAX_TABLES = 2000
"""Games a server runs at once; one more is refused until some end."""
WAIT = 600.0
"""Seconds a game waits for its seats to be taken (the link to be opened; a game of War:
its first watcher) before it is called off, so that games nobody came to do not fill the
server."""
PAGE = 20
"""Games the lobby lists at once, in each list (more on asking for the next page)."""
TRIM = 60.0
"""Seconds after a finished game leaves the hall before the memory games freed is given
back to the system (at most once in that time: its full collection pauses the server for
a moment proportional to the games under way; see :func:`give_back`)."""
FLUSH = 0.25
"""Seconds a move waits to be written to the records with every other game's moves of
that time: one transaction a quarter of a second on a busy server, not one a move (a crash
loses at most that; a server stopped by Ctrl-C writes them all first)."""


def catalogue() -> list[Json]:
    """Every game with its summary, its options (the seeds aside), the levels its
    computer has (each with what it does) and the suffixes of its own record forms, for
    the lobby."""
    games = []
    for name, summary in game_names().items():
        options = [
            {
                "name": o.name,
                "kind": o.kind.__name__,
                "default": o.default,
                "help": o.help,
                "minimum": o.minimum,
                "maximum": o.maximum,
                "choices": list(o.choices),
                "nullable": o.nullable,
            }
            for o in game_options(name)
            if o.name not in SECRET_OPTIONS
        ]
        levels = [
            {"number": level.number, "name": level.name, "about": level.about}
            for level in kit_of(name).levels
        ]
        forms = [form.suffix for form in kit_of(name).record_forms]
        games.append(
            {
                "name": name,
                "title": kit_of(name).title(name),
                "watched": kit_of(name).watched,
                "summary": summary,
                "options": options,
                "levels": levels,
                "forms": forms,
            }
        )
    return games


class Hall:
    """The server's tables, by id, and its records of finished games."""

    def __init__(
        self,
        records: Records,
        abandon: float = 60.0,
        wait: float = WAIT,
        engines: EnginePool | None = None,
    ) -> None:
        self.records = records
        self.engines = engines or EnginePool(default_megabytes())
        """The computer's engines, shared by every game."""
        self.abandon = abandon
        self.wait = wait
        self.tables: dict[str, Table] = {}
        self.hint_rate = PerAddress(*HINTS)
        self._moved: dict[str, TurnTable] = {}  # games whose moves the records lack yet
        self._flush: asyncio.TimerHandle | None = None
        self._trim: asyncio.TimerHandle | None = None

    def create(self, request: Any) -> tuple[Table, str | None, str | None]:
        """A new table for ``request``: (table, the creator's token, the invitation's
        token); Refused naming what is wrong with the request."""
        if not isinstance(request, dict):
            raise Refused("a new game is a JSON object")
        if len(self.tables) >= MAX_TABLES:
            raise Refused("the server runs as many games as it can: try again later")
        name = request.get("game")
        options = request.get("options") or {}
        if not isinstance(name, str) or not isinstance(options, dict):
            raise Refused('a new game needs "game" (a name) and "options" (an object)')
        hidden = SECRET_OPTIONS & set(options)
        if hidden:
            raise Refused(f"option {min(hidden)} is drawn by the server")
        table_id = secrets.token_urlsafe(9)
        try:
            options, mine = self._order(name, options, request.get("first"))
            rules = game(name, **options)
            if kit_of(rules).watched:
                return self._add(WatchedTable(table_id, rules)), None, None
            specs, names = self._seats(name, mine, request)
            clock = _clock(request)
        except ParlourError as error:
            raise Refused(str(error)) from None
        shared = request.get("opponent") == "here"
        table = TurnTable(
            table_id,
            rules.start(),
            specs,
            names,
            shared=shared,
            abandon=self.abandon,
            hint_rate=self.hint_rate,
            engines=self.engines,
            clock=clock,
        )
        tokens = list(table.tokens)
        mine_token = next(t for t, seats in table.tokens.items() if mine in seats)
        invite = next((t for t in tokens if t != mine_token), None)
        self._begin(table)
        return self._add(table), mine_token, invite

    def _begin(self, table: TurnTable) -> None:
        """Keep ``table``'s setup in the records, to bring it back after a restart."""
        clock = table.clock
        setup = {
            "game": table.game.name,
            "options": dict(table.game.options),
            "specs": [[spec.kind, spec.level, spec.seconds] for spec in table.specs],
            "names": list(table.names),
            "tokens": {token: sorted(seats) for token, seats in table.tokens.items()},
            "created": table.created,
            "clock": None if clock is None else [clock.base, clock.increment],
        }
        self.records.begin(table.id, setup)

    def _rematch(self, table: TurnTable) -> dict[str, str]:
        """A new game like ``table``'s, its players' seats swapped (each person's new
        token under their old one; the new game's id under ``""``); Refused when the
        server runs as many games as it can."""
        if len(self.tables) >= MAX_TABLES:
            raise Refused("the server runs as many games as it can: try again later")
        specs = table.specs[::-1]
        names = [
            n if s.kind == "computer" else f"Player {seat + 1}"
            for seat, (n, s) in enumerate(zip(table.names[::-1], specs, strict=True))
        ]
        swapped = {
            secrets.token_urlsafe(18): frozenset(1 - s for s in seats)
            for seats in table.tokens.values()
        }
        new = TurnTable(
            secrets.token_urlsafe(9),
            table.game.start(),
            (specs[0], specs[1]),
            (names[0], names[1]),
            abandon=self.abandon,
            hint_rate=self.hint_rate,
            engines=self.engines,
            tokens=swapped,
            clock=None
            if table.clock is None
            else TimeControl(table.clock.base, table.clock.increment),
        )
        self._begin(new)
        self._add(new)
        made = {"": new.id}
        for old, seats in table.tokens.items():
            made[old] = next(t for t, s in swapped.items() if s == frozenset(1 - x for x in seats))
        return made

    def restore(self) -> None:
        """Bring back the games the records keep as under way (the server stopped, or
        crashed, while they went on): the same seats' tokens, the moves replayed, the
        game begun again where it had begun (the computer's seat thinking again)."""
        for game_id, setup, progress in self.records.under_way():
            try:
                rules = game(setup["game"], **setup["options"])
            except (ParlourError, KeyError, TypeError):
                self.records.drop(game_id)  # a game this version no longer makes
                continue
            specs = [PlayerSpec(kind, level, seconds) for kind, level, seconds in setup["specs"]]
            tokens = {token: frozenset(seats) for token, seats in setup["tokens"].items()}
            base, increment = setup.get("clock") or (None, 0.0)
            left = progress.get("clock")
            clock = (
                None if base is None else TimeControl(base, increment, left and (left[0], left[1]))
            )
            table = TurnTable(
                game_id,
                rules.start(),
                (specs[0], specs[1]),
                (setup["names"][0], setup["names"][1]),
                abandon=self.abandon,
                hint_rate=self.hint_rate,
                engines=self.engines,
                tokens=tokens,
                moves=progress["moves"],
                clock=clock,
            )
            table.created = setup["created"]
            table.started = progress["started"]
            self._add(table)
            table.resume()

    def _call_off(self, table: Table) -> None:
        """Abort ``table`` if nobody came (its seats never all taken, no one watched its
        game of War); it leaves no record."""
        if not table.started:
            table.abort(f"nobody came within {self.wait:g} s")
            self.tables.pop(table.id, None)

    def _order(self, name: str, options: dict[str, Any], first: Any) -> tuple[dict[str, Any], int]:
        """The options and the creator's seat for who moves first ("me", "them", or None for
        the game's default).  A game with a ``first`` option is told, the creator sitting at
        the bottom row (seat 0); where seat 0 always begins (five in a row's X), the creator
        takes seat 1 to let "them" begin."""
        if first not in (None, "me", "them"):
            raise Refused(f'"first" is "me" or "them", not {first!r:.40}')
        if first is None:
            return options, 0
        if any(option.name == "first" for option in game_options(name)):
            return {**options, "first": 0 if first == "me" else 1}, 0
        return options, 1 if first == "them" else 0

    def _seats(
        self, name: str, mine: int, request: Json
    ) -> tuple[tuple[PlayerSpec, PlayerSpec], Any]:
        """The players of seats 0 and 1 of a game of ``name`` and their names, the
        creator in seat ``mine`` (a computer at a level the game lacks is refused)."""
        opponent = request.get("opponent", "computer")
        if opponent not in OPPONENTS:
            raise BadOption(f"the opponent is one of {', '.join(OPPONENTS)}, not {opponent!r:.40}")
        person = PlayerSpec("human")
        if opponent == "computer":
            level = parse_level(str(request.get("level", DEFAULT_LEVEL)))
            seconds = request.get("seconds")
            time = None if seconds is None else parse_seconds(str(seconds), "the time", 0.05, 60)
            other = PlayerSpec("computer", level, time)
            label = f"Computer (level {check_level(name, level).name})"
        else:
            other, label = person, ""
        specs = [person, person]
        specs[1 - mine] = other
        names = [f"Player {seat + 1}" for seat in (0, 1)]
        if label:
            names[1 - mine] = label
        return (specs[0], specs[1]), (names[0], names[1])

    def _add(self, table: Table) -> Table:
        self.tables[table.id] = table
        table.on_end = self._ended
        if isinstance(table, TurnTable):
            table.on_change = self._changed
            table.on_rematch = self._rematch
        table.call_off = asyncio.get_running_loop().call_later(self.wait, self._call_off, table)
        return table

    def _changed(self, table: TurnTable) -> None:
        """Write ``table``'s progress with the next batch (see :data:`FLUSH`)."""
        if self._flush is None:
            self._flush = asyncio.get_running_loop().call_later(FLUSH, self.flush)
        self._moved[table.id] = table

    def flush(self) -> None:
        """Write the progress of every game that moved since the last batch."""
        if self._flush is not None:
            self._flush.cancel()
        moved, self._moved, self._flush = self._moved, {}, None
        if moved:
            self.records.moved({ref: table.progress() for ref, table in moved.items()})

    def _ended(self, table: Table) -> None:
        self._moved.pop(table.id, None)
        self.records.drop(table.id)
        if table.started:
            self.records.keep(table.record())
        asyncio.get_running_loop().call_later(LINGER, self._gone, table.id)

    def _gone(self, table_id: str) -> None:
        """A finished game leaves the hall; its memory goes back to the system soon."""
        self.tables.pop(table_id, None)
        if self._trim is None:
            self._trim = asyncio.get_running_loop().call_later(TRIM, self._trimmed)

    def _trimmed(self) -> None:
        self._trim = None
        give_back()

    def playing(self, page: int = 0) -> tuple[list[Json], bool]:
        """One page of the games under way, newest first, and whether more follow."""
        tables = sorted(self.tables.values(), key=lambda t: -t.created)
        under_way = [t for t in tables if t.result is None]
        shown = under_way[page * PAGE : (page + 1) * PAGE]
        return [_listed(t) for t in shown], len(under_way) > (page + 1) * PAGE

    def close(self) -> None:
        """The server is stopping: each turn-based game under way is kept to be brought
        back, each game of War aborted (a deal is not kept)."""
        for table in list(self.tables.values()):
            if table.result is not None:
                continue
            if isinstance(table, TurnTable):
                table.suspend()
            else:
                table.abort("the server stopped")
        self.flush()


def _listed(table: Table) -> Json:
    """A game under way as the lobby lists it: with each seat's time left now, where it
    is on a clock."""
    clock = table.clock_now() if isinstance(table, TurnTable) else None
    return table.info() | ({"left": clock["left"]} if clock else {})


def give_back() -> None:
    """Give the memory the process has freed back to the system.  CPython hands a freed
    game's many small blocks back to C's allocator, but glibc's keeps them in its heaps,
    interleaved with what lives on, and returns little by itself: without this a server's
    resident memory stays at its highest, whatever games ended (nothing elsewhere).

    A full collection comes first: a server in its stride allocates about as much as it
    frees, so that the collector seldom makes a full pass by itself, and what cyclic
    garbage the games left (a closed connection's state was the most of it: see
    :mod:`parlour.web.sockets`) would pin the pages it lies in.  Measured with
    ``benchmarks/web_load.py``, 1,000 games: the memory after the games 9-11% above the
    start with it, 23% without.  The objects of the start are frozen out of its sight
    (:func:`freeze_start`), so it walks only what the games made."""
    gc.collect()
    if _LIBC is not None:
        _LIBC.malloc_trim(0)


def freeze_start() -> None:
    """Keep what exists now (before any game: the modules, the compiled kernels' objects,
    the application) out of every later collection, which then walks only the objects the
    games made: the full passes the collector makes as a server's games grow in number are
    shorter (``parlour serve`` calls it as it starts serving)."""
    gc.collect()
    gc.freeze()


def _glibc() -> ctypes.CDLL | None:
    """The C library where it is glibc (the one with ``malloc_trim``), else None."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None)
        libc.malloc_trim.argtypes = [ctypes.c_size_t]
    except (OSError, AttributeError):
        return None
    return libc


_LIBC = _glibc()


def _clock(request: Json) -> TimeControl | None:
    """The clock the request asks for (``minutes`` each, ``increment`` seconds a move), or
    None for a game without one."""
    minutes = request.get("minutes")
    if minutes is None:
        return None
    base = parse_seconds(str(minutes), "the clock's minutes", 0.05, 600) * 60
    increment = parse_seconds(str(request.get("increment") or 0), "the increment", 0, 60)
    return TimeControl(base, increment)
