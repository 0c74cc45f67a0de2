"""A player that is an outside engine program speaking parlour's engine protocol
(:mod:`parlour.players.protocol`), for any game: ``engine:PATH[:ARGS]``.

An engine is started once and kept from game to game (``newgame`` between them) by the
process that plays them: engines wait, idle, in :data:`_IDLE` until a player of the same
command takes one.  :meth:`ProtocolPlayer.prepare` starts (or takes) the engine and gives
it the rules before the game, so its start is never counted as thinking time.  On its
turn the player sends the position and ``go`` with the move's limit (the
:class:`~parlour.search.limit.Limit` its seat told it: ``movetime S``, or on a game clock
``time LEFT increment INC``, with any ``depth`` and ``nodes``), and wants ``bestmove``
within its time (a move's, or all it has left) and a tolerance: late, garbage, an illegal
move, a crash or a closed output ends the game, the engine losing with that reason
(:class:`parlour.actors.Forfeit`), and the engine is killed, never kept.  An engine dies
with the process that started it.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import os
import signal
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Protocol, runtime_checkable

from parlour.actors import Actor, GameOver, Move, Play
from parlour.actors.messages import Forfeit
from parlour.actors.runtime import Piped, Reply
from parlour.core import Game, IllegalMove, ParlourError, State, shown
from parlour.outcome import Reason
from parlour.players.protocol import game_line, go_line
from parlour.search.limit import START_SECONDS, Limit

TOLERANCE = 1.0
"""Seconds an engine may take over its time a move before it loses on time."""
MAX_LINE = 1 << 16
"""The longest line an engine may send."""


@runtime_checkable
class Prepared(Protocol):
    """A player with something to do before the game's clock starts."""

    async def prepare(self, start: State) -> None: ...


@runtime_checkable
class Kept(Protocol):
    """A player that, its ``keep`` set, plays game after game as one actor (an engine of
    a protocol of its game's own kept running, a new game its to begin: Gomocup's
    ``RESTART``), where a process plays many (the arena's workers)."""

    keep: bool


class EngineProcess:
    """One running engine program and the rules it was last given."""

    def __init__(self, command: tuple[str, ...], process: asyncio.subprocess.Process) -> None:
        self.command = command
        self.process = process
        self.rules: Game | None = None
        self.loop = asyncio.get_running_loop()

    @classmethod
    async def start(cls, command: tuple[str, ...], seconds: float) -> EngineProcess:
        """The engine started, given ``seconds`` to answer ``parlourok`` (killed if not)."""
        try:
            process = await asyncio.create_subprocess_exec(
                *command,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.DEVNULL,
                start_new_session=True,  # Ctrl-C at the terminal is parlour's, not the engine's
                preexec_fn=dies_with_parent,
                limit=MAX_LINE,
            )
        except OSError as error:
            raise Forfeit(Reason.CRASHED, f"the engine did not start: {error}") from None
        engine = cls(command, process)
        engine.write("parlour 1")
        try:
            await engine.expect("parlourok", seconds)
        except Forfeit:
            engine.kill()
            raise
        return engine

    def write(self, line: str) -> None:
        stdin = self.process.stdin
        assert stdin is not None
        if stdin.is_closing():
            raise Forfeit(Reason.CRASHED, "the engine closed its input")
        stdin.write(f"{line}\n".encode())

    async def line(self, deadline: float, what: str) -> str:
        """The engine's next line before ``deadline`` (a perf_counter time)."""
        stdout = self.process.stdout
        assert stdout is not None
        left = deadline - time.perf_counter()
        try:
            raw = await asyncio.wait_for(stdout.readline(), max(left, 0.0))
        except TimeoutError:
            raise Forfeit(Reason.TIME, f"the engine sent no {what} in time") from None
        except ValueError:  # a line over MAX_LINE
            raise Forfeit(Reason.ILLEGAL, "the engine sent a line too long") from None
        if not raw:
            raise Forfeit(Reason.CRASHED, f"the engine closed its output ({self._exit()})")
        return raw.decode("utf-8", "replace").strip()

    async def expect(self, word: str, seconds: float) -> list[str]:
        """The lines up to one that is ``word`` within ``seconds``; an ``error`` line
        before it is a forfeit, and each ``info string`` line the engine's progress, shown
        on standard error (one that takes a while to start says what it is doing)."""
        deadline, lines = time.perf_counter() + seconds, []
        while (line := await self.line(deadline, word)) != word:
            words = line.split()
            if words[:1] == ["error"]:
                raise Forfeit(Reason.ILLEGAL, f"the engine refused: {shown(line)}")
            if words[:2] == ["info", "string"]:
                print(f"{self.name}: {' '.join(words[2:])[:200]}", file=sys.stderr, flush=True)
            lines.append(line)
        return lines

    @property
    def name(self) -> str:
        """The engine as a person reads it: its program's name."""
        return os.path.basename(self.command[0])

    async def ready(self, rules: Game, seconds: float) -> None:
        """The engine set for a new game of ``rules`` within ``seconds``."""
        self.write(game_line(rules) if rules != self.rules else "newgame")
        self.rules = None  # until the engine is ready: asked again if it is not
        await self.expect("readyok", seconds)
        self.rules = rules

    def _exit(self) -> str:
        code = self.process.returncode
        return "still running" if code is None else f"exit status {code}"

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.process.kill()


_IDLE: list[EngineProcess] = []
"""Engines of this process waiting for their next game."""


def dies_with_parent() -> None:
    """In the engine's process: its end when the process that started it ends."""
    if sys.platform == "linux":
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


async def _engine(command: tuple[str, ...], seconds: float) -> EngineProcess:
    """An idle engine of ``command`` on this event loop, or a new one (given ``seconds``
    to start)."""
    loop = asyncio.get_running_loop()
    for engine in list(_IDLE):
        if engine.loop is not loop or engine.process.returncode is not None:
            _IDLE.remove(engine)  # of a loop gone, or dead: of no use any more
            engine.kill()
        elif engine.command == command:
            _IDLE.remove(engine)
            return engine
    return await EngineProcess.start(command, seconds)


class ProtocolPlayer(Actor):
    """The engine ``command`` (its path and arguments) given ``seconds`` a move, and
    ``start_seconds`` to start and to be ready for each game."""

    def __init__(
        self, command: Sequence[str], seconds: float, start_seconds: float = START_SECONDS
    ) -> None:
        self.command = tuple(command)
        self.seconds = seconds
        self.start_seconds = start_seconds
        self.limit = Limit(seconds=seconds)
        self.engine: EngineProcess | None = None
        self._answer: Reply | None = None
        self._thinking: asyncio.Task[Any] | None = None

    async def prepare(self, start: State) -> None:
        if self.engine is None:
            self.engine = await _engine(self.command, self.start_seconds)
        await self.engine.ready(start.game, self.start_seconds)

    async def receive(self, message: Any) -> None:
        match message:
            case Limit() as limit:
                self.limit = (
                    limit if limit.seconds is not None else replace(limit, seconds=self.seconds)
                )
            case Play(view):
                self._answer = self.defer()
                self._thinking = self.pipe(self._turn(view.state), "move")
            case Piped("move", move, error):
                self._answered(move, error)
            case GameOver():
                self._answer = None
                if self._thinking is not None and not self._thinking.done():
                    self._thinking.cancel()  # its move is not wanted, nor the engine
                    self._drop()
                elif self.engine is not None:
                    _IDLE.append(self.engine)
                    self.engine = None

    def stopping(self) -> None:
        self._drop()

    def _drop(self) -> None:
        if self.engine is not None:
            self.engine.kill()
            self.engine = None

    def _answered(self, move: Any, error: BaseException | None) -> None:
        answer, self._answer = self._answer, None
        if answer is None:
            return
        if error is not None:
            self._drop()
            if isinstance(error, Forfeit):
                raise error
            raise Forfeit(Reason.CRASHED, f"the engine failed: {error}")
        answer.send(Move(move))

    async def _turn(self, state: State) -> Any:
        await self.prepare_once(state)
        engine = self.engine
        assert engine is not None
        engine.write(f"position {state.notation()}")
        limit = self.limit
        engine.write(go_line(limit))
        allowed = limit.left if limit.left is not None else limit.seconds or self.seconds
        deadline = time.perf_counter() + allowed + TOLERANCE
        while not (line := await engine.line(deadline, "bestmove")).startswith("bestmove"):
            if line.split()[:1] == ["error"]:
                raise Forfeit(Reason.ILLEGAL, f"the engine answered {shown(line)}")
        name = line.removeprefix("bestmove").strip()
        try:
            move = state.parse_move(name)
            state.play(move)
        except (IllegalMove, ParlourError) as error:
            raise Forfeit(Reason.ILLEGAL, f"the engine played {shown(name)}: {error}") from None
        return move

    async def prepare_once(self, state: State) -> None:
        """The engine and the rules, where the game began without :meth:`prepare` (a
        player seated by a command that does not prepare its players)."""
        if self.engine is None or self.engine.rules != state.game:
            await self.prepare(state)
