"""What a game shows at the terminal: the seats as a screen names them, the texts a
game's screen gives (:class:`Screen`), and what the board games' screens share
(:class:`BoardScreen`, and the sentences of a game's end).  A game's own screen lives in
its folder (``parlour.games.<family>.screen``); :mod:`parlour.players.terminal` shows it.
"""

from __future__ import annotations

import textwrap
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Protocol

from parlour.actors import Moved, Outcome, Reason, View
from parlour.core import State


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


def wrapped(text: str, width: int = 88) -> str:
    """``text`` with each line of prose folded to ``width`` columns (a welcome is one long
    line a paragraph; boards and short lines are left as they are)."""
    return "\n".join(
        textwrap.fill(line, width) if len(line) > width else line for line in text.split("\n")
    )
