"""Play at the terminal: the person's player and the screen, as one actor, and the runner
of a whole game.

One :class:`TerminalPlayer` owns the terminal: it draws every event (so the screen shows the
game in the order it happened) and answers ``Play`` for the seats of the people at the
keyboard; two people sharing the keyboard share it too, and when only programs play it
watches as an observer.  What it writes is the game's business: a
:class:`~parlour.players.screen.Screen` gives the texts (a module per game); what it reads
comes from :mod:`parlour.players.keyboard`, whose end of input (Ctrl-D) stops the player,
which the Referee records as the person leaving.  :func:`play_in_terminal` runs a whole
game and turns the end of input into a short message and an exit status.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol, TextIO

from parlour.actors import (
    Actor,
    GameOver,
    Illegal,
    Move,
    Moved,
    Play,
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
from parlour.players.keyboard import QUIT, QUITTED, LineSource, keyboard
from parlour.players.screen import Screen, Seat, wrapped
from parlour.players.specs import PlayerSpec, seat_names
from parlour.records.saved import Played, SavedGame
from parlour.search import Stop, Thinker

__all__ = [
    "Begin",
    "Seat",
    "TerminalPlayer",
    "Typed",
    "command_answer",
    "play_in_terminal",
    "typed",
]
"""Seat is here too: the terminal player seats people and programs by it."""

CLEAR = "\x1b[2J\x1b[H"
COMMANDS_NOTE = "(At any prompt, type help for the commands.)\n"
"""parlour's own line after a game's opening (the seeds' screens have no commands)."""
GO_ON = "(Enter to go on) "
"""With ``--clear``, the prompt before the screen is cleared for the person's turn."""
THINKING_NOTE = 0.5
"""Seconds a program may think before the screen says so (and then how long it took)."""
TICK = 0.5
"""Seconds between two updates of the line that says how far a warm-up is."""
EXIT_ABANDONED = 1  # the person left (end of input) or the terminal failed


class Warming(Protocol):
    """A warm-up going on behind the game (the computer's engine, compiled while the
    person thinks of a first move; ``parlour.cli._common.Behind``)."""

    def ready(self) -> bool:
        """Whether it is done."""

    def words(self) -> str:
        """How far it is, for a person who waits for it."""


@dataclass(frozen=True)
class Begin:
    """Told to the terminal player before the game: the game so far (a loaded game's
    moves, which a save keeps)."""

    played: Played


class TerminalPlayer(Actor):
    """The screen, and the player of every seat whose ``Seat.human`` is true.

    ``clear`` clears the screen when a person's turn begins; when a program has moved
    since, it first waits for Enter, so that the accounts of the person's move and the
    program's reply stay on the screen until read.  When only programs play, it clears
    before each move and pauses ``pause`` seconds after it: seed 001's animation (note 2).

    The person is asked in a task of the actor's own, its mailbox open meanwhile: a game
    ended while the person thinks (a resignation, an abort) takes the question back and
    shows the end.  A ``warming`` up behind the game is waited for, with a line that says
    how far it is, before a move that a program answers and before a hint: no program's
    clock starts before its engine is ready.
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
        warming: Warming | None = None,
    ) -> None:
        self.screen = screen
        self.warming = warming
        self.seats = tuple(seats)
        self.lines = lines
        self.out = out or sys.stdout
        self.clear = clear
        self.pause = pause
        self._question: asyncio.Task[None] | None = None
        self._answer: Reply | None = None
        self.quitter: int | None = None
        """The seat whose person typed quit (the player then stops)."""
        self._hint_stop = Stop()  # set when the player stops: a hint's search ends with it
        self._hinter: Thinker | None = None  # the engine of the hints, made at the first
        self._thinking: tuple[float, asyncio.TimerHandle] | None = None  # since, the note
        self._noted = False  # whether the note was shown
        self._start: State | None = None  # the position before the first move seen
        self._earlier = (0, 0)  # each player's turns before the game played here (--load)
        self._moves: list[MoveValue] = []  # every move since, for save
        self._unread = False  # a program has moved since the person's last turn (clear)

    async def receive(self, message: Any) -> None:
        match message:
            case Play(view):
                self._answer = self.defer()
                self._question = self.pipe(self._ask(view), "typed")
            case Piped("typed", None, None):
                self.stop(QUITTED if self.quitter is not None else "end of input")
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
            case Begin(played):
                self._start, self._moves = played.first, list(played.moves)
                self._earlier = played.turns()
                self._watch(played.state)
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
        view = replace(view, turn=view.turn + self._earlier[view.state.to_move])
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
            asked = typed(line, view.state)
            match asked.command:
                case "quit":
                    self.quitter = view.state.to_move
                    return None
                case "undo":
                    return Undo()
                case "hint":
                    await self._warmed()
                    self._write(await self._hint(view.state))
                case "save":
                    self._write(self._save(asked.argument, view.state))
                case None if asked.answer is None:
                    after = view.state.play(asked.move)
                    if not after.is_over and not self.seats[after.to_move].human:
                        await self._warmed()
                    return asked.move
                case _:
                    self._write(asked.answer or "")

    async def _warmed(self) -> None:
        """Wait for the warm-up behind the game, if it is not done, saying how far it is:
        at a terminal a line updated every ``TICK`` seconds, cleared at the end; else
        once."""
        if self.warming is None:
            return
        live, said = self.out.isatty(), False
        while not self.warming.ready():
            if live:
                self._write(f"\r{self.warming.words()}\x1b[K")
            elif not said:
                self._write(f"{self.warming.words()}...\n")
            said = True
            await asyncio.sleep(TICK)
        if said and live:
            self._write("\r\x1b[K")
        self.warming = None

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
        from parlour.kit import hinter, kit_of

        self._write("thinking...\n")
        if self._hinter is None:  # one for the game, its table kept from hint to hint
            self._hinter = hinter(state.game.name)
        hint = self._hinter.best_move
        move, account = await in_thread(hint, state, self._hint_stop, name="hint")
        value = hint_value(account, kit_of(state.game).scored)
        return f"Hint: {state.move_name(move)}{value}\n"

    def _save(self, path: str, state: State) -> str:
        """Write the game so far to ``path`` (:mod:`parlour.records.saved`); what happened,
        in words."""
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


def hint_value(account: object, scored: bool) -> str:
    """What a hint says of its move's value: the search's value where the scores are the
    game's units (seeds, tokens), else only a forced win or loss it proved (five in a
    row's values are the engine's own numbers, "+1000000" to a player)."""
    from parlour.search import SearchResult

    if not isinstance(account, SearchResult):
        return ""
    if scored:
        return f" (value {account.value:+d})"
    if account.exact and account.value:
        return " (a forced win)" if account.value > 0 else " (the other side can force a win)"
    return ""


@dataclass(frozen=True)
class Typed:
    """What a line typed at the prompt asks: a legal move, a command that acts (``quit``,
    ``undo``, ``hint``, ``save`` with its ``argument``), or an ``answer`` to show (a
    command's, or why the text is no legal move: ``refusal``)."""

    move: MoveValue | None = None
    command: str | None = None
    argument: str = ""
    answer: str | None = None
    refusal: IllegalMove | None = None


def typed(line: str, state: State) -> Typed:
    """What ``line``, typed at the prompt in ``state``, asks (the terminal's one reader of
    a person's line, which the fuzz suite gives its typed moves)."""
    word = line.strip().lower()
    if word in QUIT:
        return Typed(command="quit")
    if word in ("undo", "hint"):
        return Typed(command=word)
    if word.split(maxsplit=1)[:1] == ["save"]:
        return Typed(command="save", argument=line.strip()[4:].strip())
    answer = command_answer(word, state)
    if answer is not None:
        return Typed(answer=answer)
    try:
        return Typed(move=state.parse_move(line))
    except IllegalMove as error:
        return Typed(answer=f"{error.reason}\n", refusal=error)


def command_answer(word: str, state: State) -> str | None:
    """What a command typed at the prompt shows (``help``, ``rules``, ``position``), or
    None when ``word`` is no command."""
    if word in ("help", "?"):
        moves = state.legal_moves()  # none once the game is over
        example = f" (for example {state.move_name(moves[0])})" if moves else ""
        return (
            f"Type a move as the prompt asks{example}, or a command:\n"
            "  help      this list\n"
            f"  rules     the rules of {state.game.name}\n"
            "  hint      the computer's move for you, with its value\n"
            "  undo      take back your last turn and the computer's reply\n"
            "  position  this position in parlour's notation (for parlour analyze)\n"
            "  save FILE the game so far, to go on with parlour play ... --load FILE\n"
            "  quit      leave the game (Ctrl-D too; Ctrl-C at any time)\n"
        )
    if word == "rules":
        from parlour.rules_text import rendered, rules_text

        return rendered(rules_text(state.game.name))
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
    played: Played | None = None,
    warming: Warming | None = None,
) -> int:
    """Play a game at this terminal and return the exit status: the end of input ends
    it with a one-line message (no traceback); Ctrl-C is the caller's (the terminal
    given back as found), as every command's (``parlour.cli.interrupted``).  The
    programs wait for ``warming`` (see :class:`TerminalPlayer`)."""
    out = out or sys.stdout
    so_far = played or Played.at(start)
    with keyboard(out) as keys:
        game = _play_in_terminal(so_far, specs, screen, keys, seed, clear, out, warming)
        return asyncio.run(game)


async def _play_in_terminal(
    played: Played,
    specs: tuple[PlayerSpec, PlayerSpec],
    screen: Screen,
    keys: LineSource,
    seed: int | None,
    clear: bool,
    out: TextIO,
    warming: Warming | None,
) -> int:
    start = played.state
    seats = [Seat(name, spec.human) for name, spec in zip(seat_names(specs), specs, strict=True)]
    player = TerminalPlayer(screen, seats, keys, out, clear=clear, warming=warming)
    terminal = spawn(player)
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
            turn = 1 + played.turns()[start.to_move]
            out.write(screen.turn(View(start, start.legal_moves(), turn, False), seats))
    terminal.tell(Begin(played))
    against_a_program = any(spec.human for spec in specs) and not all(s.human for s in specs)
    await run_game(start, players, [terminal], undo=against_a_program)
    for ref in {id(r): r for r in (*players, terminal)}.values():
        ref.stop()
    stopped = await terminal.join()  # after the terminal has shown the end
    if stopped.reason == QUITTED and player.quitter is not None:
        out.write(f"\n{seats[player.quitter].name} left the game.\n")
        return 0
    if stopped.reason != "stopped":
        out.write(f"\nGame abandoned: {stopped.reason}.\n")
        return EXIT_ABANDONED
    return 0
