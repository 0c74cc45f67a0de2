"""A player that is any Gomocup engine: a subprocess spoken to in the Gomocup protocol.

The Referee seats it like any other player: it answers ``Play`` with ``Move``.  On its
first turn it starts the engine (``START``, then ``INFO`` lines: the turn's time limit,
no match limit, the memory limit, the five rule, and ``ABOUT``, whose answer says the
engine has taken them in: the time it takes to set itself up, such as a hash table of the
memory given, is its start's, not its first move's; an engine that does not answer
``ABOUT`` within :data:`ABOUT_SECONDS` plays on all the same, its answer, should it come
later, taken for no move); on each turn it tells the engine
what happened since (``BEGIN`` on an empty board, ``TURN`` with the opponent's move, or,
after a take-back or on joining a game under way, the whole ``BOARD`` in the order the
stones were played: some engines ignore the colour field and alternate from the first
stone), after ``INFO time_left`` as Gomocup managers send it (an engine that misses a
line arriving just after its own move then misses that one, not the move).

It keeps the engine honest: no move within the turn's limit and a tolerance, a crash, a
closed output, garbage, a taken or off-board point, or more memory than allowed (the
engine and its children, measured with psutil while it thinks) ends the game, the
engine losing with that reason in the Outcome (:class:`parlour.actors.Forfeit`).  An
``ERROR`` line is never a move: it is the engine's protocol error, answering a line it
could not take; the engine may still move in time (the line was an ``INFO``), and if it
does not, the Outcome says what it answered.  The
engine's process and its children are killed when the player stops, whatever happened;
at the end of a game it is told ``END`` and given a moment to leave first.
"""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import threading
import time
from collections.abc import Sequence
from typing import IO, Any

import psutil

from parlour.actors import Actor, GameOver, Illegal, Move, Moved, Play, TakenBack
from parlour.actors.messages import Forfeit, View
from parlour.actors.runtime import Piped, Reply
from parlour.core import IllegalMove, State, shown
from parlour.games.gomoku.game import EMPTY, GomokuState, Point
from parlour.games.gomoku.gomocup.protocol import (
    EXACT_FIVE,
    OWN,
    THEIRS,
    ProtocolError,
    parse_point,
    point_text,
)
from parlour.outcome import Reason
from parlour.players.external import dies_with_parent

TOLERANCE = 1.0
"""Seconds an engine may take over the turn's limit before it loses on time (a process's
start, the pipes, a busy machine)."""
START_SECONDS = 30.0
"""Seconds an engine has to answer ``START`` (it may load tables)."""
ABOUT_SECONDS = 5.0
"""Seconds an engine's start waits for its answer to ``ABOUT`` (Rapfi's, setting up a hash
table of 1 GiB, came after 2.3 s); some engines never answer it (Wine's build here), and
play on after this wait."""
MAX_MEMORY = 1 << 30
"""The memory an engine and its children may use, in bytes, unless its player is given
another (``engine@MIB:PATH``): ``INFO max_memory``, 0 as the protocol has it for no limit."""
END_SECONDS = 1.0
"""How long an engine told ``END`` has to leave before it is killed."""
POLL = 0.05
"""Seconds between two looks at the engine's memory while it thinks."""
TAKEBACKS = 2
"""The most stones taken back one by one (a turn and its reply); more, and the whole
board is sent instead."""
NOTES = ("MESSAGE", "DEBUG", "SUGGEST")
"""Lines an engine may print besides its answer: shown to nobody, never an answer."""
ERRORS = ("ERROR", "UNKNOWN")
"""Lines in which an engine says it could not take a line: never an answer, but kept for
the Outcome of a turn that then gets none."""
NO_MATCH_LIMIT = 2**31 - 1
"""``INFO time_left`` in a match without a limit: the most a C ``int`` holds, as managers
send it."""
TIME_LEFT = f"INFO time_left {NO_MATCH_LIMIT}"


class EnginePlayer(Actor):
    """The engine started by ``command`` (its path and arguments), given ``seconds`` a
    move and ``memory`` bytes.  With ``keep``, one engine plays game after game (told
    ``RESTART`` for each, its moves' times kept in :attr:`times`) until the player stops;
    else each game's end is the engine's."""

    def __init__(
        self,
        command: Sequence[str],
        seconds: float = 5.0,
        memory: int = MAX_MEMORY,
        tolerance: float = TOLERANCE,
        keep: bool = False,
    ) -> None:
        self.command = tuple(command)
        self.keep = keep
        self.seconds = seconds
        self.memory = memory
        self.tolerance = tolerance
        self._process: subprocess.Popen[bytes] | None = None
        self._lines: asyncio.Queue[str | None] = asyncio.Queue()
        self._moves: list[Point] = []  # the game's moves, from Moved and TakenBack
        self._sent: list[Point] = []  # the stones the engine knows, in play order
        self._answer: Reply | None = None
        self._thinking: asyncio.Task[None] | None = None  # the turn under way
        self._errors: list[str] = []  # the engine's ERROR lines of the turn under way
        self._about_due = False  # its answer to ABOUT, not come in time, may come yet
        self.times: list[float] = []  # seconds each move took, for the record
        self.cpu_times: list[float] = []  # the CPU seconds the engine used for each

    async def receive(self, message: Any) -> None:
        match message:
            case Play(view):
                self._answer = self.defer()
                self._thinking = self.pipe(self._turn(view), "move")
            case Piped("move", point, error):
                self._answered(point, error)
            case Moved(move=(int() as row, int() as col)):
                self._moves.append((row, col))
            case TakenBack(moves=moves):
                del self._moves[moves:]
            case Illegal(move, reason):
                raise Forfeit(Reason.ILLEGAL, f"the engine played {move}: {reason}")
            case GameOver():
                self._moves, self._answer = [], None
                if self._thinking is not None and not self._thinking.done():
                    self._thinking.cancel()  # a resignation, an abort: its move is not wanted
                    self._kill()  # nor the engine still thinking of it
                elif not self.keep:
                    self.pipe(self._end(), "end")

    async def prepare(self, start: State) -> None:
        """The engine started (``START``, ``INFO``, ``ABOUT``) before the game's clock (one
        that fails is started again at its turn, which says why)."""
        if self._process is None and isinstance(start, GomokuState):
            try:
                await self._start(start)
            except Forfeit:
                self._kill()
                raise

    def stopping(self) -> None:
        self._kill()

    def _answered(self, point: Point, error: BaseException | None) -> None:
        """The turn's end: its move sent, or the engine's failure its forfeit.  A turn the
        game's end cancelled is dropped (on Python 3.11 ``asyncio.wait_for`` may finish a
        cancelled wait all the same, and the turn go on with the engine killed)."""
        answer, self._answer = self._answer, None
        if answer is None:
            return
        if isinstance(error, Forfeit):
            raise error
        if error is not None:
            raise Forfeit(Reason.CRASHED, f"the engine failed: {error}")
        answer.send(Move(point))

    # The engine's turn.

    async def _turn(self, view: View) -> Point:
        state = view.state
        if not isinstance(state, GomokuState):
            raise Forfeit(Reason.CRASHED, "a Gomocup engine plays five in a row only")
        if self._process is None:
            await self._start(state)
        await self._tell(state, self._stones(state))
        started, cpu = time.perf_counter(), _cpu(self._process)
        line = await self._read(self.seconds + self.tolerance, "move")
        self.times.append(time.perf_counter() - started)
        self.cpu_times.append(_cpu(self._process) - cpu)
        try:
            point = parse_point(line, state.size)
            state.play(point)
        except (ProtocolError, IllegalMove) as error:
            reason = error.reason if isinstance(error, IllegalMove) else str(error)
            raise Forfeit(Reason.ILLEGAL, f"the engine answered {shown(line)}: {reason}") from None
        self._sent.append(point)
        return point

    async def _tell(self, state: GomokuState, stones: list[Point]) -> None:
        """Bring the engine to ``stones`` (in play order) and ask for its move: ``BEGIN``
        on an empty board, ``TURN`` with the one new stone (after a ``TAKEBACK`` of each
        stone it has that the game no longer has, if no more than ``TAKEBACKS``), else
        the whole ``BOARD``; ``RESTART`` first when it has stones of another game."""
        sent = self._sent
        kept = 0  # the stones the engine has that the game still has, from the first
        while kept < min(len(sent), len(stones)) and sent[kept] == stones[kept]:
            kept += 1
        self._sent = list(stones)
        if sent and not kept:  # a new game
            await self._confirmed("RESTART")
            sent = []
        if not stones:
            self._write(TIME_LEFT, "BEGIN")
        elif len(stones) == kept + 1 and len(sent) - kept <= TAKEBACKS:
            for point in reversed(sent[kept:]):
                await self._confirmed(f"TAKEBACK {point_text(point)}")
            self._write(TIME_LEFT, f"TURN {point_text(stones[-1])}")
        else:
            own = state.to_move + 1
            fields = (OWN if state.board[p] == own else THEIRS for p in stones)
            lines = (f"{point_text(p)},{f}" for p, f in zip(stones, fields, strict=True))
            self._write(TIME_LEFT, "BOARD", *lines, "DONE")

    async def _confirmed(self, command: str) -> None:
        """Send ``command``, which the engine must answer ``OK``."""
        self._write(command)
        answer = await self._read(self.seconds + self.tolerance, f"answer to {command}")
        if answer.upper() != "OK":
            detail = f"the engine answered {shown(answer)} to {command}, not OK"
            raise Forfeit(Reason.ILLEGAL, detail)

    def _stones(self, state: GomokuState) -> list[Point]:
        """The stones on the board in the order they were played: the moves seen, after
        any stones the game began with (or had before this player joined), those taken
        X, 0, X... as the protocol's alternation wants."""
        played = [p for p in self._moves if state.board[p] != EMPTY]
        seen = set(played)
        n = state.size
        earlier = [
            [(r, c) for r in range(n) for c in range(n) if state.board[r, c] == stone]
            for stone in (1, 2)
        ]
        xs, os = ([p for p in group if p not in seen] for group in earlier)
        ordered = [p for pair in zip(xs, os, strict=False) for p in pair]
        ordered += xs[len(os) :] + os[len(xs) :]
        return ordered + played

    async def _start(self, state: GomokuState) -> None:
        try:
            process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                start_new_session=True,  # Ctrl-C at the terminal is parlour's, not the engine's
                preexec_fn=dies_with_parent,  # a kept engine too, its process killed outright
            )
        except OSError as error:
            raise Forfeit(Reason.CRASHED, f"the engine did not start: {error}") from None
        self._process, self._sent = process, []
        assert process.stdout is not None
        loop = asyncio.get_running_loop()
        reader = (process.stdout, self._lines, loop)
        threading.Thread(target=_read_lines, args=reader, daemon=True).start()
        self._write(f"START {state.size}")
        answer = await self._read(START_SECONDS, "OK to START")
        if answer.strip().upper() != "OK":
            raise Forfeit(Reason.CRASHED, f"the engine refused START: {shown(answer)}")
        rule = EXACT_FIVE if state.game.exact else 0
        self._write(
            f"INFO timeout_turn {round(self.seconds * 1000)}",
            "INFO timeout_match 0",
            f"INFO max_memory {self.memory}",
            "INFO game_type 1",
            f"INFO rule {rule}",
            "ABOUT",
        )
        try:
            await self._read(ABOUT_SECONDS, "answer to ABOUT", any_answer=True)
        except Forfeit as late:
            if late.reason != Reason.TIME:
                raise
            self._about_due = True

    def _write(self, *lines: str) -> None:
        """Send lines; an engine that has closed its input has crashed."""
        process = self._process
        assert process is not None and process.stdin is not None
        try:
            process.stdin.write("".join(f"{line}\n" for line in lines).encode())
            process.stdin.flush()
        except OSError:
            raise Forfeit(Reason.CRASHED, self._gone("closed its input")) from None

    async def _read(self, seconds: float, what: str, any_answer: bool = False) -> str:
        """The engine's next line that is not a note (nor an error, unless ``any_answer``),
        within ``seconds``, its memory watched meanwhile."""
        deadline = time.perf_counter() + seconds
        self._errors = []
        while True:
            left = deadline - time.perf_counter()
            if left <= 0:
                detail = f"the engine sent no {what} within {seconds:g} s"
                said = "; ".join(shown(error) for error in self._errors)
                raise Forfeit(Reason.TIME, detail + (f" (it said {said})" if said else ""))
            try:
                line = await asyncio.wait_for(self._lines.get(), min(left, POLL))
            except TimeoutError:
                self._check_memory()
                continue
            if line is None:
                raise Forfeit(Reason.CRASHED, self._gone("closed its output"))
            word = line.split()[0].upper() if line.strip() else ""
            if self._about_due and "=" in line:  # key="value" pairs: ABOUT's late answer
                self._about_due = False
            elif word in ERRORS and not any_answer:
                self._errors.append(line.strip())
            elif word and word not in NOTES:
                return line.strip()

    def _check_memory(self) -> None:
        used = _memory(self._process) if self.memory else 0
        if used > self.memory:
            detail = f"the engine used {used >> 20} MiB, over its {self.memory >> 20} MiB"
            raise Forfeit(Reason.MEMORY, detail)

    def _gone(self, what: str) -> str:
        """What happened to an engine that stopped talking: its exit, if it has one."""
        process = self._process
        code = None
        if process is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                code = process.wait(0.2)
        return f"the engine {what}" + ("" if code is None else f" (exit status {code})")

    async def _end(self) -> None:
        """The game is over: ``END``, a moment to leave, then the kill anyway."""
        process = self._process
        if process is None or process.stdin is None:
            return
        with contextlib.suppress(Forfeit):
            self._write("END")
        with contextlib.suppress(OSError):
            process.stdin.close()  # and the end of its input, for engines that wait for it
        for _ in range(round(END_SECONDS / POLL)):
            if process.poll() is not None:
                break
            await asyncio.sleep(POLL)
        self._kill()

    def _kill(self) -> None:
        """The engine and every process it started, gone."""
        process, self._process = self._process, None
        if process is None:
            return
        with contextlib.suppress(psutil.Error):
            family = [psutil.Process(process.pid)]
            family += family[0].children(recursive=True)
            for member in family:
                with contextlib.suppress(psutil.Error):
                    member.kill()
        process.kill()
        process.wait()
        for pipe in (process.stdin, process.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()


def _family(process: subprocess.Popen[bytes] | None) -> list[psutil.Process]:
    """``process`` and its children (none once it is gone)."""
    if process is None:
        return []
    try:
        family = psutil.Process(process.pid)
        return [family, *family.children(recursive=True)]
    except psutil.Error:
        return []


def _memory(process: subprocess.Popen[bytes] | None) -> int:
    """Bytes resident in ``process`` and its children (0 once it is gone)."""
    used = 0
    for member in _family(process):
        with contextlib.suppress(psutil.Error):
            used += member.memory_info().rss
    return used


def _cpu(process: subprocess.Popen[bytes] | None) -> float:
    """The CPU seconds (user and system) ``process`` and its children have used so far
    (0 once it is gone): on a busy machine an engine's time a move on the wall clock
    says little of the work it did."""
    used = 0.0
    for member in _family(process):
        with contextlib.suppress(psutil.Error):
            times = member.cpu_times()
            used += times.user + times.system
    return used


def _read_lines(
    stream: IO[bytes], lines: asyncio.Queue[str | None], loop: asyncio.AbstractEventLoop
) -> None:
    """The engine's output, line by line, into ``lines`` (None at its end): a thread of
    its own, which ends when the engine's output closes."""
    with contextlib.suppress(OSError, ValueError):
        for raw in stream:
            text = raw.decode("utf-8", "replace")
            with contextlib.suppress(RuntimeError):  # a closed loop: nobody reads any more
                loop.call_soon_threadsafe(lines.put_nowait, text)
    with contextlib.suppress(RuntimeError):
        loop.call_soon_threadsafe(lines.put_nowait, None)
