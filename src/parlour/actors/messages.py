"""The messages of turn-based play, in the seeds' words (Play, Move, GameOver).

Referee to the player to move: :class:`Play` (an ask; the answer is a :class:`Move`), and
:class:`Illegal` when the move it answered was refused (a new Play follows).  Referee to
every player and observer: :class:`Moved` after each move and :class:`GameOver` at the end.
Anyone to a Referee (or Dealer) while its game runs: :class:`Resign`, :class:`Forfeit`,
:class:`Abort`, :class:`Watch`.  All are immutable values, so one message can go to many actors.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from parlour.core import Move as MoveValue
from parlour.core import State
from parlour.outcome import Outcome, Reason


@dataclass(frozen=True)
class View:
    """What a player needs to choose a move.

    ``turn`` counts the turns of the player to move (1 for its first turn); ``again`` is
    true when the move is an extra move of a turn (the player moved just before).  In a
    game on a clock, ``clock`` is each seat's time left in seconds as the player is asked,
    and ``increment`` what a move gains (a player budgets its thinking by them).
    """

    state: State
    legal_moves: tuple[MoveValue, ...]
    turn: int
    again: bool
    clock: tuple[float, float] | None = None
    increment: float = 0.0


@dataclass(frozen=True)
class TimeControl:
    """A game's clock: ``base`` seconds for each seat, ``increment`` seconds gained with
    each move made; ``left`` each seat's time left where the game resumes part-way."""

    base: float
    increment: float = 0.0
    left: tuple[float, float] | None = None

    def __str__(self) -> str:
        """``BASE+INC`` in seconds, as fastchess and cutechess write a time control."""
        return f"{self.base:g}+{self.increment:g}"


@dataclass(frozen=True)
class Play:
    """Your move: answer with :class:`Move`."""

    view: View


@dataclass(frozen=True)
class Move:
    """A player's choice, in the game's move values (``state.legal_moves()``)."""

    move: MoveValue


@dataclass(frozen=True)
class Undo:
    """A player's answer to :class:`Play` asking to take back the last turn of ``seat``
    (None: its own) and the replies since (where the Referee allows it); ``seat`` is
    asked next (people who agreed to take a move back: the player to move answers for
    the other)."""

    seat: int | None = None


@dataclass(frozen=True)
class TakenBack:
    """Told to every player and observer: ``player``'s last turn and every move since were
    taken back; the game goes on from ``state``, with ``moves`` moves played (and, on a
    clock, ``clock`` each seat's time left)."""

    player: int
    state: State
    moves: int
    clock: tuple[float, float] | None = None


@dataclass(frozen=True)
class Illegal:
    """The move answered was refused, and why; the same player is asked again."""

    move: Any
    reason: str


@dataclass(frozen=True)
class Moved:
    """What happened in a move, told to every player and observer.

    ``account`` is the game's own account of the move (``State.play_report``): extra
    turn, captures, end of game; None for games with nothing to tell.  ``clock`` is each
    seat's time left after the move (its increment given), in a game on a clock.
    """

    player: int
    move: MoveValue
    name: str
    before: State
    after: State
    account: Any
    turn: int
    again: bool
    clock: tuple[float, float] | None = None

    @classmethod
    def replayed(cls, before: State, name: str, turn: int, last_mover: int | None) -> Moved:
        """The event of the move called ``name`` in ``before``, as the Referee told it
        when it was played (``last_mover`` made the move before: None at the start), for
        a game shown again from its moves by name."""
        move = before.parse_move(name)
        after, account = before.play_report(move)
        again = before.to_move == last_mover
        return cls(before.to_move, move, name, before, after, account, turn, again)


@dataclass(frozen=True)
class Agree:
    """The players agreed to end the game as a draw (their offer made and accepted
    outside the Referee)."""


class Forfeit(Exception):
    """The player to move loses other than by the rules, for ``reason`` (``detail`` in
    words): the Referee's own verdicts, and what a player actor raises when it cannot go
    on (an outside engine that crashed, answered late or garbage), which the Referee
    turns into the game's outcome."""

    def __init__(self, reason: Reason, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


@dataclass(frozen=True)
class GameOver:
    """The game has ended: sent to every player and observer."""

    outcome: Outcome


@dataclass(frozen=True)
class Resign:
    """``seat`` gives the game up: the other player wins."""

    seat: int


@dataclass(frozen=True)
class Disqualify:
    """``seat`` loses now, for ``reason`` (``detail`` in words), by a decision from outside
    the game: a web seat left empty too long.  (A player that cannot go on raises
    :class:`Forfeit` itself instead.)"""

    seat: int
    reason: Reason
    detail: str


@dataclass(frozen=True)
class Abort:
    """End the game now, with no winner, for ``why``."""

    why: str


@dataclass(frozen=True)
class Watch:
    """Join as an observer (a Ref, told every event from now on); the answer (to an ask,
    or told back to the sender) is :class:`Watching`."""

    observer: Any


@dataclass(frozen=True)
class Watching:
    """The game as a late observer finds it: the position, the moves so far and, once
    it has ended, its outcome."""

    state: State
    moves: tuple[MoveValue, ...]
    outcome: Outcome | None
