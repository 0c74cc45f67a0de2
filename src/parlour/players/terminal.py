"""Play at the terminal: the person's player and the screen, as one actor.

One :class:`TerminalPlayer` owns the terminal: it draws every event (so the screen shows the
game in the order it happened) and answers ``Play`` for the seats of the people at the
keyboard; two people sharing the keyboard share it too, and when only programs play it
watches as an observer.  What it writes is the game's business: a :class:`Screen` gives
the texts (a module per game, e.g. ``sowing_screen``).

Input is read by a daemon thread (:class:`Keyboard`), so waiting for a person never blocks
the event loop; the end of input (Ctrl-D) stops the player, which the Referee records as
the person leaving.  :func:`play_in_terminal` runs a whole game and turns Ctrl-C and
Ctrl-D into a short message and an exit status.
"""

from __future__ import annotations

import asyncio
import os
import queue
import sys
import textwrap
import threading
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Protocol, TextIO

from parlour.actors import (
    Actor,
    GameOver,
    Illegal,
    Move,
    Moved,
    Outcome,
    Play,
    Reason,
    Ref,
    TakenBack,
    Undo,
    View,
    spawn,
)
from parlour.actors.referee import run_game
from parlour.actors.runtime import Piped, Reply, in_thread
from parlour.core import IllegalMove, State
from parlour.core import Move as MoveValue
from parlour.players.saved_game import SavedGame
from parlour.players.specs import PlayerSpec, seat_names
from parlour.search import Stop, Thinker

CLEAR = "\x1b[2J\x1b[H"
COMMANDS_NOTE = "(At any prompt, type help for the commands.)\n"
"""parlour's own line after a game's opening (the seeds' screens have no commands)."""
QUIT = ("quit", "exit", "q")
QUITTED = "quit"  # the terminal player's reason to stop when the person quits
GO_ON = "(Enter to go on) "
"""With ``--clear``, the prompt before the screen is cleared for the person's turn."""
THINKING_NOTE = 0.5
"""Seconds a program may think before the screen says so (and then how long it took)."""
EXIT_ABANDONED = 1  # the person left (end of input) or the terminal failed
EXIT_INTERRUPTED = 130  # Ctrl-C, as shells report SIGINT


@dataclass(frozen=True)
class Begin:
    """Told to the terminal player before the game: the position it starts from."""

    state: State


@dataclass(frozen=True)
class Seat:
    """A seat as the screen names it."""

    name: str
    human: bool


class Screen(Protocol):
    """The texts one game shows at the terminal."""

    def opening(self, start: State, seats: Sequence[Seat]) -> str:
        """The welcome, before anything is played."""

    def turn(self, view: View, seats: Sequence[Seat]) -> str:
        """Shown when a person's turn begins, before the first prompt."""

    def prompt(self, view: View, seats: Sequence[Seat]) -> str:
        """The question a person answers with a move."""

    def moved(self, event: Moved, seats: Sequence[Seat]) -> str:
        """Everything a move shows."""

    def game_over(self, outcome: Outcome, seats: Sequence[Seat]) -> str:
        """The end: the outcome in words."""


class BoardScreen(ABC):
    """What the screens of the board games share: a separator line where a turn or the
    end begins, the board at a person's turn, the turn line of the prompt ("Computer: 3.
    Choose ...-> ", the number counting that player's turns) and the frame of the end.

    A game's screen says how long its separator is (``width``) and writes its opening,
    its moves, its question (:meth:`question`) and its ending (:meth:`ending`); it draws
    its board by :meth:`board` where ``render`` is not the screen's picture.
    """

    width: ClassVar[int] = 43

    @property
    def separator(self) -> str:
        return "-" * self.width

    @abstractmethod
    def opening(self, start: State, seats: Sequence[Seat]) -> str:
        """The welcome, before anything is played."""

    @abstractmethod
    def moved(self, event: Moved, seats: Sequence[Seat]) -> str:
        """Everything a move shows."""

    @abstractmethod
    def question(self, view: View) -> str:
        """What the prompt asks for, after the turn line ("Select a move (A..F)")."""

    @abstractmethod
    def ending(self, outcome: Outcome, names: Sequence[str]) -> str:
        """The end in words, the players called ``names``."""

    def board(self, state: State, seats: Sequence[Seat]) -> str:
        """The board as the screen shows it."""
        return state.render()

    def turn(self, view: View, seats: Sequence[Seat]) -> str:
        return f"\n{self.separator}\n\n{self.board(view.state, seats)}\n\n"

    def prompt(self, view: View, seats: Sequence[Seat]) -> str:
        name = seats[view.state.to_move].name
        who = "" if name == "You" else f"{name}: "
        return f"{who}{view.turn}. {self.question(view)}-> "

    def game_over(self, outcome: Outcome, seats: Sequence[Seat]) -> str:
        ending = self.ending(outcome, [seat.name for seat in seats])
        return f"\n{self.separator}\n\n{ending}\n"


def act(name: str, third: str, second: str) -> str:
    """``name`` and the verb that agrees with it: "Computer takes", "You take"."""
    return f"You {second}" if name == "You" else f"{name} {third}"


def how_it_ended(outcome: Outcome, names: Sequence[str], ended: str) -> str | None:
    """How a game ended other than by its rules, in a sentence ("Computer forfeits: ran
    out of time (5 s).", "You resign."); ``ended`` when the rules ended it; None when it
    was aborted (nobody wins, there is nothing more to say)."""
    if outcome.reason is Reason.ABORTED:
        return None
    if outcome.forfeit is None:
        return ended
    name = names[outcome.forfeit]
    if outcome.reason is Reason.RESIGNED:
        return f"{act(name, 'resigns', 'resign')}."
    return f"{name} forfeits: {outcome.detail}."


def final_words(outcome: Outcome, names: Sequence[str], ended: str, score: str) -> str:
    """The last sentence of a game: how it ended (``ended`` by the rules), the ``score``
    and who won, the seed's "You win!" when the person did."""
    how = how_it_ended(outcome, names, ended)
    if how is None:
        return f"The game was aborted: {outcome.detail}."
    if outcome.winner is None:
        verdict = "It is a draw."
    else:
        winner = names[outcome.winner]
        verdict = "You win!" if winner == "You" else f"{winner} wins."
    return " ".join(part for part in (how, score, verdict) if part)


class LineSource(Protocol):
    async def readline(self, prompt: str = "") -> str | None:
        """Show ``prompt``, then the next line typed, without its newline; None at the end
        of input."""


@contextmanager
def keyboard(out: TextIO) -> Iterator[LineSource]:
    """The person's keyboard, prompting on ``out``: with line editing and history where
    this is a terminal (:class:`LineEditor`, the terminal restored at the end), plain
    lines from a pipe or a file."""
    editor = None
    if out is sys.stdout and sys.stdin.isatty() and out.isatty():
        with suppress(ImportError, OSError):  # no readline module, or no terminal for it
            editor = LineEditor()
    if editor is None:
        yield Keyboard(out=out)
        return
    try:
        yield editor
    finally:
        editor.restore()


class Keyboard:
    """Lines from a file descriptor, read by a daemon thread into the event loop.

    The thread reads the raw descriptor (not ``sys.stdin``), so an exit while it waits
    for input never trips over the interpreter's stdin lock.
    """

    def __init__(self, fd: int = 0, out: TextIO | None = None) -> None:
        self.fd = fd
        self.out = out
        self.chunks: asyncio.Queue[bytes] = asyncio.Queue()
        self.buffer = b""
        self.thread: threading.Thread | None = None

    async def readline(self, prompt: str = "") -> str | None:
        if prompt:
            out = self.out or sys.stdout
            out.write(prompt)
            out.flush()
        if self.thread is None:
            loop = asyncio.get_running_loop()
            self.thread = threading.Thread(target=self._pump, args=(loop,), daemon=True)
            self.thread.start()
        while b"\n" not in self.buffer:
            chunk = await self.chunks.get()
            if not chunk:
                self.chunks.put_nowait(chunk)  # the end stays the end
                if not self.buffer:
                    return None
                line, self.buffer = self.buffer, b""
                return line.decode(errors="replace")
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line.decode(errors="replace").rstrip("\r")

    def _pump(self, loop: asyncio.AbstractEventLoop) -> None:
        while True:
            try:
                chunk = os.read(self.fd, 4096)
            except OSError:
                chunk = b""
            try:
                loop.call_soon_threadsafe(self.chunks.put_nowait, chunk)
            except RuntimeError:  # the loop has closed: nobody is listening any more
                return
            if not chunk:
                return


class LineEditor:
    """Lines typed at a terminal with editing and history (Python's ``readline``): the
    arrow keys move along the line and bring back earlier lines.

    ``input`` runs in a daemon thread, one line a request, so waiting for the person never
    blocks the event loop.  readline holds the terminal in its own mode while it reads; a
    game that ends while it waits (Ctrl-C, a resignation) leaves it so, hence
    :meth:`restore`, which puts back the settings found at the start.
    """

    def __init__(self) -> None:
        import readline
        import termios

        readline.parse_and_bind("set enable-bracketed-paste off")  # no escapes on screen
        self._settings = termios.tcgetattr(sys.stdin.fileno())
        self._requests: queue.SimpleQueue[tuple[str, asyncio.Future[str | None]]]
        self._requests = queue.SimpleQueue()
        self._thread: threading.Thread | None = None

    async def readline(self, prompt: str = "") -> str | None:
        # readline redraws its prompt's last line only: the lines before go out as text.
        head, newline, last = prompt.rpartition("\n")
        if newline:
            sys.stdout.write(head + newline)
        answer: asyncio.Future[str | None] = asyncio.get_running_loop().create_future()
        if self._thread is None:
            self._thread = threading.Thread(target=self._serve, daemon=True)
            self._thread.start()
        self._requests.put((last, answer))
        return await answer

    def _serve(self) -> None:
        while True:
            prompt, answer = self._requests.get()
            try:
                line: str | None = input(prompt)
            except (EOFError, OSError):
                line = None
            try:
                answer.get_loop().call_soon_threadsafe(_settle, answer, line)
            except RuntimeError:  # the loop has closed: nobody is listening any more
                return

    def restore(self) -> None:
        """Put the terminal back as it was found (echo on, lines at a time)."""
        import termios

        termios.tcsetattr(sys.stdin.fileno(), termios.TCSADRAIN, self._settings)


def _settle(answer: asyncio.Future[str | None], line: str | None) -> None:
    if not answer.done():  # a question taken back (the game ended) wants no answer
        answer.set_result(line)


class TerminalPlayer(Actor):
    """The screen, and the player of every seat whose ``Seat.human`` is true.

    ``clear`` clears the screen when a person's turn begins; when a program has moved
    since, it first waits for Enter, so that the accounts of the person's move and the
    program's reply stay on the screen until read.  When only programs play, it clears
    before each move and pauses ``pause`` seconds after it: seed 001's animation (note 2).

    The person is asked in a task of the actor's own, its mailbox open meanwhile: a game
    ended while the person thinks (a resignation, an abort) takes the question back and
    shows the end.
    """

    def __init__(
        self,
        screen: Screen,
        seats: Sequence[Seat],
        lines: LineSource,
        out: TextIO | None = None,
        *,
        clear: bool = False,
        pause: float = 1.5,
    ) -> None:
        self.screen = screen
        self.seats = tuple(seats)
        self.lines = lines
        self.out = out or sys.stdout
        self.clear = clear
        self.pause = pause
        self._question: asyncio.Task[None] | None = None
        self._answer: Reply | None = None
        self._quitting = False
        self._hint_stop = Stop()  # set when the player stops: a hint's search ends with it
        self._hinter: Thinker | None = None  # the engine of the hints, made at the first
        self._thinking: tuple[float, asyncio.TimerHandle] | None = None  # since, the note
        self._noted = False  # whether the note was shown
        self._start: State | None = None  # the position before the first move seen
        self._moves: list[MoveValue] = []  # every move since, for save
        self._unread = False  # a program has moved since the person's last turn (clear)

    async def receive(self, message: Any) -> None:
        match message:
            case Play(view):
                self._answer = self.defer()
                self._question = self.pipe(self._ask(view), "typed")
            case Piped("typed", None, None):
                self.stop(QUITTED if self._quitting else "end of input")
            case Piped("typed", Undo() as undo, None):
                if self._answer is not None:
                    self._answer.send(undo)
            case Piped("typed", move, None):
                if self._answer is not None:
                    self._answer.send(Move(move))
            case Piped("typed", _, BaseException() as error):
                raise error
            case Illegal(_, reason):
                self._write(f"{reason}\n")
            case TakenBack(player, _, moves):
                del self._moves[moves:]
                self._write(f"\n{self._name_of(player)} last turn is taken back.\n")
            case Begin(state):
                self._start = state
                self._watch(state)
            case Moved() as event:
                self._unwatch()
                self._start = self._start or event.before
                self._moves.append(event.move)
                animated = self.clear and not any(seat.human for seat in self.seats)
                if animated and not event.again:
                    self._write(CLEAR)
                self._write(self.screen.moved(event, self.seats))
                if animated:
                    await asyncio.sleep(self.pause)
                self._unread = not self.seats[event.player].human
                self._watch(event.after)
            case GameOver(outcome):
                self._unwatch()
                self._hint_stop.set()
                if self._question is not None and not self._question.done():
                    self._question.cancel()
                    self._write("\n")  # the prompt's line is left unanswered
                self._write(self.screen.game_over(outcome, self.seats))

    async def _ask(self, view: View) -> Any:
        """Prompt until the person types a legal move: that move; None at the end of input
        or when the person quits (the player then stops).  Commands are answered and the
        prompt comes back."""
        if self.clear and not view.again:
            if self._unread and await self.lines.readline(GO_ON) is None:
                return None
            self._unread = False
            self._write(CLEAR)
        if not view.again:
            self._write(self.screen.turn(view, self.seats))
        while True:
            line = await self.lines.readline(self.screen.prompt(view, self.seats))
            if line is None:
                return None
            word = line.strip().lower()
            if word in QUIT:
                self._quitting = True
                return None
            if word == "undo":
                return Undo()
            if word == "hint":
                self._write(await self._hint(view.state))
                continue
            if word.split(maxsplit=1)[:1] == ["save"]:
                self._write(self._save(line.strip()[4:].strip(), view.state))
                continue
            answer = command_answer(word, view.state)
            if answer is not None:
                self._write(answer)
                continue
            try:
                return view.state.parse_move(line)
            except IllegalMove as error:
                self._write(f"{error.reason}\n")

    def _watch(self, state: State) -> None:
        """When a program is to move, say so if it thinks longer than ``THINKING_NOTE``."""
        if state.is_over or self.seats[state.to_move].human:
            return
        loop = asyncio.get_running_loop()
        name = self.seats[state.to_move].name
        self._thinking = (loop.time(), loop.call_later(THINKING_NOTE, self._note, name))

    def _note(self, name: str) -> None:
        self._write(f"{name} is thinking...")
        self._noted = True

    def _unwatch(self) -> None:
        """The program has moved: how long it took, if the screen said it was thinking."""
        if self._thinking is None:
            return
        since, note = self._thinking
        note.cancel()
        if self._noted:
            self._write(f" {asyncio.get_running_loop().time() - since:.1f} s\n")
        self._thinking, self._noted = None, False

    def _name_of(self, player: int) -> str:
        """``Your`` or ``Player 2's``: the possessive of a seat's name."""
        name = self.seats[player].name
        return "Your" if name == "You" else f"{name}'s"

    async def _hint(self, state: State) -> str:
        """The computer's move for the person, searched for ``parlour.kit.HINT_SECONDS`` beside the
        mailbox (a game ended meanwhile stops it)."""
        from parlour.kit import hinter
        from parlour.search import SearchResult

        self._write("thinking...\n")
        if self._hinter is None:  # one for the game, its table kept from hint to hint
            self._hinter = hinter(state.game.name)
        hint = self._hinter.best_move
        move, account = await in_thread(hint, state, self._hint_stop, name="hint")
        value = f" (value {account.value:+d})" if isinstance(account, SearchResult) else ""
        return f"Hint: {state.move_name(move)}{value}\n"

    def _save(self, path: str, state: State) -> str:
        """Write the game so far to ``path`` (see ``saved_game``); what happened, in words."""
        if not path:
            return "save needs a file name: save FILE\n"
        saved = SavedGame.of(self._start or state, self._moves)
        try:
            Path(path).expanduser().write_text(saved.to_text(), encoding="utf-8")
        except OSError as error:
            return f"cannot save to {path}: {error.strerror or error}\n"
        return (
            f"Saved {len(saved.moves)} moves to {path}; parlour play ... --load {path} goes on.\n"
        )

    def stopping(self) -> None:
        self._hint_stop.set()
        if self._thinking is not None:
            self._thinking[1].cancel()

    def _write(self, text: str) -> None:
        self.out.write(text)
        self.out.flush()


def wrapped(text: str, width: int = 88) -> str:
    """``text`` with each line of prose folded to ``width`` columns (a welcome is one long
    line a paragraph; boards and short lines are left as they are)."""
    return "\n".join(
        textwrap.fill(line, width) if len(line) > width else line for line in text.split("\n")
    )


def command_answer(word: str, state: State) -> str | None:
    """What a command typed at the prompt shows (``help``, ``rules``, ``position``), or
    None when ``word`` is no command."""
    if word in ("help", "?"):
        example = state.move_name(state.legal_moves()[0])
        return (
            f"Type a move as the prompt asks (for example {example}), or a command:\n"
            "  help      this list\n"
            f"  rules     the rules of {state.game.name}\n"
            "  hint      the computer's move for you, with its value\n"
            "  undo      take back your last turn and the computer's reply\n"
            "  position  this position in parlour's notation (for parlour analyze)\n"
            "  save FILE the game so far, to go on with parlour play ... --load FILE\n"
            "  quit      leave the game (Ctrl-D too; Ctrl-C at any time)\n"
        )
    if word == "rules":
        from parlour.rules_text import rules_text

        return rules_text(state.game.name)
    if word == "position":
        return f"{state.notation()}\n"
    return None


def play_in_terminal(
    start: State,
    specs: tuple[PlayerSpec, PlayerSpec],
    screen: Screen,
    *,
    seed: int | None = None,
    clear: bool = False,
    out: TextIO | None = None,
) -> int:
    """Play a game at this terminal and return the exit status.

    Ctrl-C and the end of input end it with a one-line message (no traceback).
    """
    out = out or sys.stdout
    try:
        with keyboard(out) as keys:
            game = _play_in_terminal(start, specs, screen, keys, seed, clear, out)
            return asyncio.run(game)
    except KeyboardInterrupt:
        out.write("\nInterrupted: the game is abandoned.\n")
        return EXIT_INTERRUPTED


async def _play_in_terminal(
    start: State,
    specs: tuple[PlayerSpec, PlayerSpec],
    screen: Screen,
    keys: LineSource,
    seed: int | None,
    clear: bool,
    out: TextIO,
) -> int:
    seats = [Seat(name, spec.human) for name, spec in zip(seat_names(specs), specs, strict=True)]
    terminal = spawn(TerminalPlayer(screen, seats, keys, out, clear=clear))
    players: list[Ref] = [
        terminal
        if spec.human
        else spawn(spec.build(None if seed is None else seed + n, start.game.name))
        for n, spec in enumerate(specs)
    ]
    out.write(wrapped(screen.opening(start, seats)))
    if any(spec.human for spec in specs):
        out.write(COMMANDS_NOTE)
        if not start.is_over and not seats[start.to_move].human:  # the board before it moves
            out.write(screen.turn(View(start, start.legal_moves(), 1, False), seats))
    terminal.tell(Begin(start))
    against_a_program = any(spec.human for spec in specs) and not all(s.human for s in specs)
    await run_game(start, players, [terminal], undo=against_a_program)
    for ref in {id(r): r for r in (*players, terminal)}.values():
        ref.stop()
    stopped = await terminal.join()  # after the terminal has shown the end
    if stopped.reason == QUITTED:
        out.write("\nYou left the game.\n")
        return 0
    if stopped.reason != "stopped":
        out.write(f"\nGame abandoned: {stopped.reason}.\n")
        return EXIT_ABANDONED
    return 0
