"""parlour's engine protocol: any parlour game between a manager and an engine program,
one line a command on the engine's standard input, one line an answer on its output.

In the spirit of UCI and Gomocup, in parlour's own words: the rules are a game's name and
options as ``parlour.game`` reads them, a position is the game's notation, a move is the
game's own move name (``state.move_name``).  Nothing here names a game: the engine side
reaches a game's levels and thinker through :mod:`parlour.kit`.

=================================  ==========================================================
manager to engine                  engine's answer
=================================  ==========================================================
``parlour 1``                      ``id name NAME``, then ``parlourok``
``game NAME [KEY=VALUE ...]``      ``readyok`` once ready to play (the rules of the games
                                   to come; compiling and tables happen before it, an
                                   ``info string TEXT`` line every few seconds meanwhile)
``newgame``                        ``readyok`` (a new game of the same rules: forget the last)
``position NOTATION``              nothing (the position to think about)
``go [movetime S] [time S]         ``info depth D value V nodes N`` lines, then
[increment S] [depth D]            ``bestmove MOVE``
[nodes N]``
``stop``                           the ``bestmove`` of the search under way, at once
``isready``                        ``readyok`` (once every command before it is done)
``quit``                           the engine ends
=================================  ==========================================================

``time`` is what the engine has left for the game, ``increment`` what it gains a move,
``movetime`` its time for this move, ``depth`` and ``nodes`` how far it may search (a
search by depths stops after the first depth that reaches the nodes).  Anything the
engine cannot do is answered ``error TEXT`` (one line), and the engine goes on; a manager
ignores lines it does not know, as UCI's do.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from parlour import kit
from parlour.core import (
    MAX_DEPTH,
    BadOption,
    Game,
    ParlourError,
    State,
    game,
    parse_seconds,
    parse_whole,
)
from parlour.kit import check_level, thinker
from parlour.players.machines import refusal as machine_refusal
from parlour.players.machines import within
from parlour.search import SearchResult, Stop, Thinker
from parlour.search.limit import MAX_NODES, Limit

VERSION = "1"
PROGRESS_SECONDS = 5.0
"""Seconds between an engine's ``info string`` lines while it prepares a game."""
GO_WORDS = ("movetime", "time", "increment", "depth", "nodes")


def option_text(value: Any) -> str:
    """An option's value as ``parlour.game`` reads it back (``none``, ``true``, ``4``)."""
    if value is None or isinstance(value, bool):
        return str(value).lower()
    return str(value)


def game_line(rules: Game) -> str:
    """The ``game`` command of ``rules``."""
    options = " ".join(f"{k}={option_text(v)}" for k, v in sorted(rules.options.items()))
    return f"game {rules.name} {options}".rstrip()


def read_game(words: Sequence[str]) -> Game:
    """The rules a ``game`` command's words name (BadOption naming what is wrong)."""
    if not words:
        raise BadOption("game needs the game's name")
    options = {}
    for word in words[1:]:
        key, sep, value = word.partition("=")
        if not sep or not key:
            raise BadOption(f"game options are KEY=VALUE, not {word!r}")
        options[key] = value
    return game(words[0], **options)


def go_line(limit: Limit) -> str:
    """The ``go`` command of ``limit``: its game clock where it has one, else its time
    for the move, and its depth and nodes."""
    words = ["go"]
    if limit.left is not None:
        words += ["time", f"{limit.left:g}", "increment", f"{limit.increment:g}"]
    elif limit.seconds is not None:
        words += ["movetime", f"{limit.seconds:g}"]
    if limit.depth is not None:
        words += ["depth", str(limit.depth)]
    if limit.nodes is not None:
        words += ["nodes", str(limit.nodes)]
    return " ".join(words)


def read_go(words: Sequence[str]) -> Limit:
    """The limit of a ``go`` command's words (BadOption naming a bad one); its time for
    the move is ``movetime``, or its share of ``time`` and ``increment``."""
    if len(words) % 2:
        raise BadOption(f"go takes NAME VALUE pairs: {', '.join(GO_WORDS)}")
    given: dict[str, str] = {}
    for name, value in zip(words[::2], words[1::2], strict=True):
        if name not in GO_WORDS:
            raise BadOption(f"go knows {', '.join(GO_WORDS)}, not {name!r}")
        given[name] = value
    limit = Limit(
        depth=_whole(given, "depth", MAX_DEPTH),
        nodes=_whole(given, "nodes", MAX_NODES),
    )
    if "movetime" in given:
        return replace(limit, seconds=parse_seconds(given["movetime"], "movetime", 0.001))
    if "time" in given:
        left = parse_seconds(given["time"], "time", 0)
        gain = parse_seconds(given.get("increment", "0"), "increment", 0)
        return limit.with_clock(left, gain)
    return limit


def _whole(given: dict[str, str], name: str, most: int) -> int | None:
    return None if name not in given else parse_whole(given[name], name, 1, most, BadOption)


def info_line(account: Any) -> str | None:
    """The ``info`` line of a thinker's account of its move, where it is a search's."""
    if isinstance(account, SearchResult):
        return f"info depth {account.depth} value {account.value} nodes {account.nodes}"
    return None


class Server:
    """The engine's side: reads commands with :meth:`handle`, writes answers with
    ``write`` (from this thread or the search's), thinks at ``level`` of the game's kit."""

    def __init__(self, write: Callable[[str], None], level: int, name: str = "parlour") -> None:
        self._lock = threading.Lock()
        self._write = write
        self.level = level
        self.name = name
        self.rules: Game | None = None
        self.state: State | None = None
        self._thinkers: dict[float | None, Thinker] = {}
        self._stop = Stop()
        self._search: threading.Thread | None = None

    def say(self, line: str) -> None:
        with self._lock:
            self._write(line)

    def handle(self, line: str) -> bool:
        """Do one command; False once told to quit."""
        command, *words = line.split() or [""]
        try:
            return self._do(command, words, line)
        except ParlourError as error:
            self.say(f"error {' '.join(str(error).split())}")
            return True

    def _do(self, command: str, words: list[str], line: str) -> bool:
        if command not in ("", "parlour", "isready"):
            self.finish()  # every other command ends the search under way
        match command:
            case "":
                pass
            case "parlour":
                self.say(f"id name {self.name}")
                self.say("parlourok")
            case "game":
                rules = read_game(words)
                check_level(rules.name, self.level)
                self.rules, self.state, self._thinkers = rules, rules.start(), {}
                self._prepare(rules)
                self.say("readyok")
            case "newgame":
                self.state = None if self.rules is None else self.rules.start()
                self.say("readyok")
            case "position":
                if self.rules is None:
                    raise BadOption("position before game: the rules first")
                self.state = self.rules.parse(line.split(None, 1)[1] if words else "")
            case "go":
                self._go(read_go(words))
            case "isready":
                self.say("readyok")
            case "stop":
                pass
            case "quit":
                return False
            case _:
                raise BadOption(f"unknown command {command[:40]!r}")
        return True

    def _prepare(self, rules: Game) -> None:
        """The rules' kernels and the level's search made ready (no clock runs yet), an
        ``info string`` line every :data:`PROGRESS_SECONDS` saying so meanwhile."""
        done = threading.Event()

        def progress() -> None:
            began = time.monotonic()
            while not done.wait(PROGRESS_SECONDS):
                waited = time.monotonic() - began
                self.say(f"info string preparing {rules.name} level {self.level}: {waited:.0f} s")

        thread = threading.Thread(target=progress, daemon=True)
        thread.start()
        try:
            kit.prepare(rules.start(), [self.level])
        finally:
            done.set()
            thread.join()

    def _go(self, limit: Limit) -> None:
        state = self.state
        if self.rules is None or state is None:
            raise BadOption("go before a position")
        if state.is_over:
            raise BadOption("the game is over in this position")
        why = machine_refusal(self.rules.name, self.level, limit)
        if why is not None:
            raise BadOption(why)
        own = None if limit.left is not None else limit.seconds  # on a clock: the level's
        mind = self._thinkers.get(own)
        if mind is None:
            mind = self._thinkers[own] = thinker(self.rules.name, self.level, own)
        self._stop = Stop()
        self._search = threading.Thread(
            target=self._think, args=(within(mind, limit), state, self._stop), daemon=True
        )
        self._search.start()

    def _think(
        self, think: Callable[[State, Stop], tuple[Any, Any]], state: State, stop: Stop
    ) -> None:
        try:
            move, account = think(state, stop)
        except ParlourError as error:
            self.say(f"error {' '.join(str(error).split())}")
            return
        info = info_line(account)
        if info is not None:
            self.say(info)
        self.say(f"bestmove {state.move_name(move)}")

    def finish(self) -> None:
        """Stop the search under way, its ``bestmove`` said."""
        if self._search is not None:
            self._stop.set()
            self._search.join()
            self._search = None
