"""parlour's five-in-a-row engine as a Gomocup brain: ``parlour pbrain`` (or
``pbrain-parlour``, the name Gomocup managers look for) on standard input and output.

It answers ``START``, ``RECTSTART`` (square boards only), ``RESTART``, ``BEGIN``,
``TURN``, ``BOARD`` ... ``DONE``, ``TAKEBACK``, ``INFO``, ``ABOUT`` and ``END``; anything
else is ``UNKNOWN``, a known command it cannot read ``ERROR`` with the reason, and every
line is flushed.  It thinks only on its own turn, in a thread, so ``INFO`` lines (and
``END``) are read while it does; a command that would change the board meanwhile is
refused (the manager must wait for the move).

Its own stones are X (1) and the opponent's 0 (2) whoever began: the search does not
care who moved first, and a ``BOARD`` of any stones then reads the same way.  A stone of
neither side (``BOARD``'s field 3: a continuous game's winning line, a point renju
forbids) is a wall to both: a stone that is neither side's in every line through it.

A cold start talks at once: the search's kernels (minutes to compile with an empty cache)
are loaded in a thread of their own from the brain's start, and it says ``MESSAGE``
:data:`READY` when they are; until then it answers every command, and a move that cannot
wait for them within its time is a quick one (:func:`quick_move`), not a late one.

Time: each move gets ``timeout_turn``, and no more than a share of ``time_left`` when
the match has a limit, less a safety margin for what follows the search's clock
(answering, the thread's end), counted from the moment the command that asks for the
move is read (setting the board up may wait for the rules' kernels, which a cold brain is
still loading): ``benchmarks/gomoku_vs_engine.py`` measures the time taken a move against
the limit.  Memory: the search's table, kept from move to move,
takes up to a quarter of ``max_memory`` (at most the largest worth having).
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib.metadata import version
from typing import TYPE_CHECKING, NoReturn, TextIO

import numpy as np

import parlour
from parlour.core import ParlourError, shown
from parlour.games.gomoku.engine.levels import LARGEST_TABLE_BITS
from parlour.games.gomoku.game import EMPTY, GomokuGame, GomokuState, Point, makes_five
from parlour.games.gomoku.gomocup.protocol import (
    BRAIN_NAME,
    CARO,
    EXACT_FIVE,
    MAX_BYTES,
    MAX_CODE,
    MAX_MILLISECONDS,
    OWN,
    RENJU,
    THEIRS,
    WALL,
    ProtocolError,
    parse_limit,
    parse_number,
    parse_point,
    parse_size,
    point_text,
)
from parlour.search import Stop
from parlour.search.table import SLOT_BYTES

if TYPE_CHECKING:
    from parlour.games.gomoku.engine import GomokuThinker

DEFAULT_LEVEL = 3
READY = "parlour is ready: its search is compiled"
"""The ``MESSAGE`` a brain says once its search can think (its kernels loaded)."""
FASTEST = 0.05
"""Seconds a move when ``timeout_turn`` is 0 (as fast as it can)."""
MOVES_AHEAD = 25
"""A move's share of ``time_left``: the match time left over this many moves."""
MARGIN_SHARE, MARGIN_SECONDS = 0.03, 0.04
"""The safety margin kept from a move's time: 3% of it and 0.04 s (0.055 s of 0.5 s, where
the search then has 0.445 s; 0.07 s of 1 s), for what follows the search's clock (the
answer, the thread's end, a wait for a core on a busy machine).  A larger margin leaves the search
time it could use: it thinks until the clock stops it in every move that is not forced.
``benchmarks/gomoku_vs_engine.py`` measures each move's time against the limit (how the
figures were chosen: ``benchmarks/results/gomoku_budgets.md``)."""
TABLE_SHARE = 4
"""The transposition table takes at most a quarter of ``max_memory``: the rest is the
interpreter's, numpy's and the compiled kernels' (about 180 MB at rest)."""
SMALLEST_TABLE_BITS = 10
INFO_LIMITS = {
    "timeout_turn": MAX_MILLISECONDS,
    "timeout_match": MAX_MILLISECONDS,
    "time_left": MAX_MILLISECONDS,
    "max_memory": MAX_BYTES,
}
"""The ``INFO`` keys that are limits, each with the largest value it is read as."""
INFO_CODES = ("game_type", "rule")
INFO_TEXTS = ("folder", "evaluate")
ON_A_BOARD = ("RESTART", "BEGIN", "TURN", "TAKEBACK")
"""The commands that need a board (after START) and no search under way (and ``BOARD``,
checked at its ``DONE``)."""


def move_seconds(info: dict[str, int]) -> float | None:
    """The seconds the search may take for the next move under ``info``'s limits (None:
    no limit given, the level's own time)."""
    limits = []
    if "timeout_turn" in info:
        limits.append(info["timeout_turn"] / 1000)
    if info.get("timeout_match", 0) > 0 and "time_left" in info:
        limits.append(info["time_left"] / 1000 / MOVES_AHEAD)
    if not limits:
        return None
    budget = min(limits)
    return max(FASTEST, budget * (1 - MARGIN_SHARE) - MARGIN_SECONDS)


def table_bits(info: dict[str, int]) -> int:
    """The size of the search's table (``2 **`` this many slots) under ``info``'s
    ``max_memory`` (none or 0: no limit, the largest worth having)."""
    limit = info.get("max_memory", 0)
    bits = LARGEST_TABLE_BITS
    while limit > 0 and bits > SMALLEST_TABLE_BITS and SLOT_BYTES << bits > limit // TABLE_SHARE:
        bits -= 1
    return bits


@dataclass
class Brain:
    """The protocol's state: the board (its stones in the order given), the limits and
    the thinking thread; :meth:`handle` takes one line."""

    out: TextIO
    level: int = DEFAULT_LEVEL
    size: int = 0
    stones: dict[Point, int] = field(default_factory=dict)
    info: dict[str, int] = field(default_factory=dict)
    texts: dict[str, str] = field(default_factory=dict)
    board_lines: list[str] | None = None  # the lines of a BOARD being read
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _busy: bool = False  # thinking of a move
    _stop: Stop = field(default_factory=Stop)
    _thinker: GomokuThinker | None = None  # the search, once loaded
    ready: threading.Event = field(default_factory=threading.Event)
    """Set once the search is loaded: until then a move may be a quick one."""
    clock: Callable[[], float] = time.perf_counter
    """The seconds a move's time is counted on (a test's own clock)."""

    def __post_init__(self) -> None:
        threading.Thread(target=self._load, daemon=True).start()

    def _load(self) -> None:
        """Compile the rules' kernels (which reading a board needs), then load the
        search's and warm it up, off every clock."""
        start = self._game(15).start().play((7, 7))
        assert isinstance(start, GomokuState)
        from parlour.games.gomoku.engine import GomokuThinker

        thinker = GomokuThinker(self.level, to_the_clock=True)  # the time is the limit
        thinker.warm_up(start)
        self._thinker = thinker
        self.say(f"MESSAGE {READY}")  # before any move it thinks of
        self.ready.set()

    def say(self, line: str) -> None:
        with self._lock:
            self.out.write(line + "\n")
            self.out.flush()

    def handle(self, line: str) -> bool:
        """Answer one line; False after ``END``.  A line that cannot be read (or a board
        that cannot be played on) is answered ``ERROR`` with the reason, and the brain
        reads on."""
        words = line.strip().split(None, 1)
        if not words:
            return True
        command = words[0].upper()
        if command == "END" and self.board_lines is None:
            self._stop.set()
            return False
        try:
            if self.board_lines is not None:
                self._board_line(line.strip())
            else:
                self._command(command, words[1] if len(words) > 1 else "")
        except ParlourError as error:
            self.say(f"ERROR {error}")
        return True

    def _command(self, command: str, rest: str) -> None:
        if command in ON_A_BOARD:
            self._started()
            self._idle()
        match command:
            case "START":
                self._start(parse_size(rest))
            case "RECTSTART":
                width, _, height = rest.partition(",")
                w, h = parse_size(width), parse_size(height)
                if w != h:
                    raise ProtocolError(f"parlour plays square boards only, not {w}x{h}")
                self._start(w)
            case "RESTART":
                self.stones.clear()
                self.say("OK")
            case "BEGIN":
                if self.stones:
                    raise ProtocolError("BEGIN is for an empty board; use TURN or BOARD")
                self._think()
            case "TURN":
                point = self._free(rest)
                self.stones[point] = THEIRS
                try:
                    self._think()
                except ProtocolError:  # a refused TURN leaves the board as it was
                    del self.stones[point]
                    raise
            case "BOARD":
                self.board_lines = []  # read to its DONE, and answered once there
            case "TAKEBACK":
                point = parse_point(rest, self.size)
                if point not in self.stones:
                    raise ProtocolError(f"{point_text(point)} holds no stone to take back")
                del self.stones[point]
                self.say("OK")
            case "INFO":
                self._info(rest)
            case "ABOUT":
                about = f'name="{BRAIN_NAME}", version="{version("parlour")}"'
                self.say(f'{about}, author="the parlour authors", country="-"')
            case _:
                self.say(f"UNKNOWN {shown(command)[1:-1]} is not a command of the Gomocup protocol")

    def _start(self, size: int) -> None:
        self._idle()
        self.size = size
        self.stones.clear()
        self.say("OK")

    def _started(self) -> None:
        if not self.size:
            raise ProtocolError("no board yet: START comes first")

    def _free(self, text: str) -> Point:
        point = parse_point(text, self.size)
        if point in self.stones:
            raise ProtocolError(f"{point_text(point)} is taken")
        return point

    def _board_line(self, line: str) -> None:
        """A line of ``BOARD``: ``x,y,field`` or ``DONE``, where the board is answered
        once: a move, or the one ``ERROR`` of a bad line (the whole board dropped, the
        board before it standing), of a board before ``START``, or of a board that holds
        a five or is full (kept: a ``TAKEBACK`` may follow)."""
        assert self.board_lines is not None
        if line.upper() != "DONE":
            self.board_lines.append(line)
            return
        lines, self.board_lines = self.board_lines, None
        self._started()
        self._idle()
        stones: dict[Point, int] = {}
        for text in lines:
            where, _, owner = text.rpartition(",")
            point = parse_point(where, self.size)
            if point in stones:
                raise ProtocolError(f"{point_text(point)} is given twice")
            what = "a stone (1 own, 2 the opponent's, 3 neither's)"
            stones[point] = parse_number(owner, what, OWN, WALL)
        self.stones = stones
        self._think()

    def _info(self, rest: str) -> None:
        key, _, value = rest.strip().partition(" ")
        key = key.lower()
        if key in INFO_TEXTS:
            self.texts[key] = value.strip()
        elif key in INFO_LIMITS:
            text = value.strip()
            overdrawn = key == "time_left" and text.startswith("-")  # some managers say so
            limit = parse_limit(text[overdrawn:], f"INFO {key}", INFO_LIMITS[key])
            self.info[key] = 0 if overdrawn else limit
        elif key in INFO_CODES:
            number = self.info[key] = parse_number(value, f"INFO {key}", 0, MAX_CODE)
            if key == "rule" and number & (RENJU | CARO):
                self.say("MESSAGE parlour plays no renju or caro rule: playing freestyle")
        # other keys are the manager's own business: the protocol says to ignore them

    def _game(self, size: int) -> GomokuGame:
        exact = bool(self.info.get("rule", 0) & EXACT_FIVE)
        made = parlour.game("gomoku", size=size, exact_five=exact)
        assert isinstance(made, GomokuGame)
        return made

    def _think(self) -> None:
        """Answer a move for the board as it stands, from a thread of its own, within the
        move's time counted from now."""
        asked = self.clock()
        board = np.zeros((self.size, self.size), dtype=np.int8)
        for (row, col), who in self.stones.items():
            board[row, col] = who
        state = GomokuState(self._game(self.size), board, 0)
        if state.winner is not None:
            raise ProtocolError("the game is over: a five is on the board")
        if state.is_over:
            raise ProtocolError("the board is full")
        self._stop, self._busy = Stop(), True
        limits = (move_seconds(self.info), table_bits(self.info), asked)
        threading.Thread(target=self._move, args=(state, self._stop, *limits), daemon=True).start()

    def _move(
        self, state: GomokuState, stop: Stop, seconds: float | None, bits: int, asked: float
    ) -> None:
        """Think of a move within ``seconds`` of the moment ``asked`` (None: the level's
        own time) with a table of ``2 ** bits`` slots, then say it: a quick one if the
        search is not loaded in time."""

        def left() -> float | None:
            return None if seconds is None else seconds - (self.clock() - asked)

        if not self.ready.wait(left()):
            point = quick_move(state)
        else:
            assert self._thinker is not None
            rest = left()
            self._thinker.seconds = None if rest is None else max(FASTEST, rest)
            self._thinker.table_bits = bits
            point, _ = self._thinker.best_move(state, stop)
        if not stop.is_set:
            self.stones[point] = OWN
            self._busy = False  # before the answer, which the next command may follow
            self.say(point_text(point))

    def _idle(self) -> None:
        """Refuse to change the board while a move is being thought of."""
        if self._busy:
            raise ProtocolError("still thinking of a move: wait for it")


def quick_move(state: GomokuState) -> Point:
    """A move found without the search (for a brain whose search is still compiling): a
    five of the side to move, else a block of the opponent's, else the free point with the
    most stones next to it, nearest the centre."""
    board, exact, stone = state.board, state.game.exact, state.to_move + 1
    free = state.legal_moves()
    for who in (stone, 3 - stone):
        for row, col in free:
            if makes_five(board, row, col, who, exact):
                return row, col
    centre = state.size // 2

    def liking(point: Point) -> tuple[int, int]:
        row, col = point
        around = board[max(row - 1, 0) : row + 2, max(col - 1, 0) : col + 2]
        return int(np.count_nonzero(around != EMPTY)), -max(abs(row - centre), abs(col - centre))

    return max(free, key=liking)


def serve(source: TextIO, out: TextIO, level: int = DEFAULT_LEVEL) -> None:
    """Read commands from ``source`` until ``END`` (or its end), answering on ``out``;
    a search still under way is stopped."""
    brain = Brain(out, level)
    while (line := source.readline()) and brain.handle(line):
        pass
    brain._stop.set()


def run(level: int = DEFAULT_LEVEL) -> NoReturn:
    """The brain on standard input and output, then the process's end at once, a search
    thread or not (no interpreter teardown to wait for: a manager counts the time until
    the brain is gone)."""
    serve(sys.stdin, sys.stdout, level)
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    run()
