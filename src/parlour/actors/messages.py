"""The messages of turn-based play, in the seeds' words (Play, Move, GameOver).

Referee to the player to move: :class:`Play` (an ask; the answer is a :class:`Move`), and
:class:`Illegal` when the move it answered was refused (a new Play follows).  Referee to
every player and observer: :class:`Moved` after each move and :class:`GameOver` at the end.
All are immutable values, so one message can go to many actors.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from parlour.core import Move as MoveValue
from parlour.core import State


@dataclass(frozen=True)
class View:
    """What a player needs to choose a move.

    ``turn`` counts the turns of the player to move (1 for its first turn); ``again`` is
    true when the move is an extra move of a turn (the player moved just before).
    """

    state: State
    legal_moves: tuple[MoveValue, ...]
    turn: int
    again: bool


@dataclass(frozen=True)
class Play:
    """Your move: answer with :class:`Move`."""

    view: View


@dataclass(frozen=True)
class Move:
    """A player's choice, in the game's move values (``state.legal_moves()``)."""

    move: MoveValue


@dataclass(frozen=True)
class Illegal:
    """The move answered was refused, and why; the same player is asked again."""

    move: Any
    reason: str


@dataclass(frozen=True)
class Moved:
    """What happened in a move, told to every player and observer.

    ``account`` is the game's own account of the move (``State.play_report``): extra
    turn, captures, end of game; None for games with nothing to tell.
    """

    player: int
    move: MoveValue
    name: str
    before: State
    after: State
    account: Any
    turn: int
    again: bool


@dataclass(frozen=True)
class Result:
    """How a game ended.

    ``winner`` is None for a draw; ``forfeit`` is the player who lost by forfeit (timeout,
    crash, disconnection, too many illegal moves), else None; ``reason`` is "game over" or
    what the forfeiting player did, in words ("ran out of time (5 s)").
    """

    winner: int | None
    scores: tuple[int, int]
    reason: str
    moves: tuple[MoveValue, ...]
    final: State
    forfeit: int | None = None


@dataclass(frozen=True)
class GameOver:
    """The game has ended: sent to every player and observer."""

    result: Result
