"""The Referee: runs any turn-based game of the game core between two player actors.

It knows the players only by their mailboxes.  For each move it asks the player to move
``Play(view)``, checks the ``Move`` it answers (an illegal one gets ``Illegal(reason)``
and a new ``Play``, up to ``retries`` times), applies it with ``State.play_report`` and
tells every player and observer ``Moved`` with the game's account of the move.  A player
that does not answer within ``move_time``, crashes or leaves forfeits.  At the end it
tells everyone ``GameOver(outcome)`` and answers the ``StartGame`` ask with the
:class:`~parlour.actors.messages.Outcome`.

The Referee is a :class:`~parlour.actors.host.Host`: its mailbox stays open while the
game runs, so ``Resign(seat)``, ``Disqualify(seat, reason, detail)``, ``Agree()`` (a
draw the players agreed) and ``Abort(why)`` end the game at once (the move being
waited for is dropped, and every player is told ``GameOver``), ``Watch(observer)`` adds
an observer and answers with the game so far (:class:`Watching`), and stopping the
Referee aborts its game.

A game on a clock (:class:`~parlour.actors.messages.TimeControl`) counts each player's
time from the ``Play`` to its answer; a player whose time runs out loses on time (the
flag), whatever ``move_time`` says, and each move made gains the increment.

Games with more to tell say so in their kit (:attr:`parlour.kit.Kit.notices`): a function
from each ``Moved`` event to extra ``(player, message)`` pairs that the Referee sends
after it (Ayo's ``Stoned``); the Referee asks the game itself, so no caller can forget.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from parlour.actors.host import Host, StartGame
from parlour.actors.messages import (
    Agree,
    Disqualify,
    Forfeit,
    GameOver,
    Illegal,
    Move,
    Moved,
    Play,
    Resign,
    TakenBack,
    TimeControl,
    Undo,
    View,
    Watching,
)
from parlour.actors.runtime import ActorStopped, AskTimeout, Ref, spawn
from parlour.core import IllegalMove, State
from parlour.core import Move as MoveValue
from parlour.kit import kit_of
from parlour.outcome import Outcome, Reason


class _TakeBack(Exception):
    """The player to move answered ``undo``."""

    def __init__(self, undo: Undo) -> None:
        super().__init__(undo)
        self.undo = undo


@dataclass(frozen=True)
class _Before:
    """The game before a move: the position, who moved last and the turns counted."""

    state: State
    last_mover: int | None
    turns: tuple[int, int]


class Referee(Host[Outcome]):
    """Plays ``start`` out between ``players`` (player 0's mailbox first).

    ``move_time`` is each move's limit in seconds (None: no limit); ``retries`` is how
    many illegal answers a player may give for one move before it forfeits; with ``undo``
    a player may answer ``Undo()`` to take back its last turn and the replies since (a
    person against the computer), or ``Undo(seat)`` the other's (people who agreed).
    ``clock`` puts the game on a clock.  The same mailbox may sit in both seats (two people at
    one terminal) and may also observe: each mailbox gets each event once.
    """

    def __init__(
        self,
        start: State,
        players: Sequence[Ref],
        observers: Sequence[Ref] = (),
        *,
        move_time: float | None = None,
        retries: int = 3,
        undo: bool = False,
        clock: TimeControl | None = None,
    ) -> None:
        if len(players) != 2:
            raise ValueError(f"a game needs 2 players, not {len(players)}")
        super().__init__(observers)
        self.players = tuple(players)
        self.move_time = move_time
        self.retries = retries
        self.notices = kit_of(start.game).notices
        self.undo = undo
        self.clock = clock
        self.left: list[float] | None = None
        """Each seat's time left on the clock (None: no clock)."""
        if clock is not None:
            self.left = list(clock.left or (clock.base, clock.base))
        self.state = start
        self.moves: list[MoveValue] = []
        self._history: list[_Before] = []  # the game before each move, for Undo

    async def react(self, message: Any) -> None:
        match message:
            case Resign(seat) if seat in (0, 1):
                self.finish(self._outcome(1 - seat, Reason.RESIGNED, "resigned", seat))
            case Disqualify(seat, reason, detail) if seat in (0, 1):
                self.finish(self._outcome(1 - seat, reason, detail, seat))
            case Agree():
                self.finish(self._outcome(None, Reason.AGREED, "agreed to a draw"))

    def aborted(self, why: str) -> Outcome:
        return self._outcome(None, Reason.ABORTED, why)

    def announce(self, outcome: Outcome) -> None:
        self._broadcast(GameOver(outcome))

    def so_far(self) -> Watching:
        return Watching(self.state, tuple(self.moves), self.outcome)

    async def play(self) -> Outcome:
        """Play the game to its end (or a forfeit): the outcome, not yet told."""
        turns = [0, 0]
        last_mover: int | None = None
        while not self.state.is_over:
            state = self.state
            player = state.to_move
            before = _Before(state, last_mover, (turns[0], turns[1]))
            again = player == last_mover
            turns[player] += 0 if again else 1
            increment = self.clock.increment if self.clock is not None else 0.0
            view = View(state, state.legal_moves(), turns[player], again, self._left(), increment)
            asked = time.monotonic()
            try:
                try:
                    move, after, account = await self._next_move(player, view, asked)
                except _TakeBack as back:
                    self._spend(player, asked, 0.0)
                    before = self._take_back(player, back.undo, before)
                    self.state, last_mover, turns = before.state, before.last_mover, [*before.turns]
                    continue
                self._spend(player, asked, increment)
            except Forfeit as forfeit:
                return self._outcome(1 - player, forfeit.reason, forfeit.detail, player)
            self._history.append(before)
            self.moves.append(move)
            name = state.move_name(move)
            event = Moved(
                player, move, name, state, after, account, turns[player], again, self._left()
            )
            self._broadcast(event)
            for seat, notice in self.notices(event) if self.notices else ():
                self.players[seat].tell(notice, self.ref)
            self.state, last_mover = after, player
        return self._outcome(self.state.winner, self.state.end_reason, "game over")

    def _take_back(self, player: int, undo: Undo, now: _Before) -> _Before:
        """Where the game goes back to when ``player`` answers ``undo``: the start of the
        last turn of the seat it names (every move since is dropped and everyone told), or
        ``now`` when it has none (and ``player`` is told why)."""
        seat = player if undo.seat is None else undo.seat
        starts = [i for i, b in enumerate(self._history) if b.state.to_move == seat != b.last_mover]
        if not starts:
            whose = "of yours" if seat == player else "of the other player's"
            self.players[player].tell(Illegal(undo, f"there is no turn {whose} to take back"))
            return now
        back = starts[-1]
        before = self._history[back]
        del self._history[back:], self.moves[back:]
        self._broadcast(TakenBack(seat, before.state, len(self.moves), self._left()))
        return before

    def _left(self) -> tuple[float, float] | None:
        return None if self.left is None else (self.left[0], self.left[1])

    def _spend(self, player: int, asked: float, increment: float) -> None:
        """Take the time since ``asked`` off ``player``'s clock (a flag if none is left),
        then give it ``increment``."""
        if self.left is None:
            return
        self.left[player] -= time.monotonic() - asked
        if self.left[player] <= 0:
            self.left[player] = 0.0
            raise Forfeit(Reason.TIME, "ran out of time")
        self.left[player] += increment

    async def _next_move(self, player: int, view: View, asked: float) -> tuple[Any, State, Any]:
        """Ask ``player`` (first asked at ``asked``) until it answers a legal move: (move,
        new state, account)."""
        ref, reason = self.players[player], ""
        for _ in range(self.retries + 1):
            answer = await self._ask(ref, Play(view), self._time_left(player, asked))
            match answer:
                case Undo() if self.undo:
                    raise _TakeBack(answer)
                case Undo():
                    move, reason = answer, "taking moves back is not allowed in this game"
                case Move(move):
                    try:
                        return (move, *view.state.play_report(move))
                    except IllegalMove as error:
                        reason = error.reason
                case _:
                    move, reason = answer, f"expected a Move, got {type(answer).__name__}"
            ref.tell(Illegal(move, reason), self.ref)
        raise Forfeit(Reason.ILLEGAL, f"made {self.retries + 1} illegal moves ({reason})")

    def _time_left(self, player: int, asked: float) -> float | None:
        """What ``player``, asked at ``asked``, has left on its clock (None: no clock)."""
        if self.left is None:
            return None
        return max(self.left[player] - (time.monotonic() - asked), 0.0)

    async def _ask(self, ref: Ref, play: Play, clock: float | None) -> Any:
        """``ref``'s answer to ``play``, within ``move_time`` and the ``clock`` left."""
        flag = clock is not None and (self.move_time is None or clock < self.move_time)
        try:
            return await ref.ask(play, clock if flag else self.move_time)
        except AskTimeout:
            if flag:
                raise Forfeit(Reason.TIME, "ran out of time") from None
            raise Forfeit(Reason.TIME, f"ran out of time ({self.move_time:g} s)") from None
        except ActorStopped as stopped:
            if isinstance(stopped.error, Forfeit):  # the player's own verdict on itself
                raise stopped.error from None
            if stopped.error is not None:
                raise Forfeit(Reason.CRASHED, stopped.reason) from None
            raise Forfeit(Reason.LEFT, f"left the game ({stopped.reason})") from None

    def _outcome(
        self, winner: int | None, reason: Reason, detail: str, forfeit: int | None = None
    ) -> Outcome:
        """The outcome of the game as it stands."""
        state = self.state
        moves = tuple(self.moves)
        account = state.end_account
        return Outcome(winner, reason, state.scores, moves, state, forfeit, detail, account)

    def _broadcast(self, message: Any) -> None:
        """Tell every player and observer, each mailbox once."""
        for ref in {id(r): r for r in (*self.players, *self.observers)}.values():
            ref.tell(message, self.ref)


async def run_game(
    start: State,
    players: Sequence[Ref],
    observers: Sequence[Ref] = (),
    *,
    move_time: float | None = None,
    retries: int = 3,
    undo: bool = False,
    clock: TimeControl | None = None,
) -> Outcome:
    """Start a Referee for one game, wait for its outcome, and stop it."""
    referee = spawn(
        Referee(
            start,
            players,
            observers,
            move_time=move_time,
            retries=retries,
            undo=undo,
            clock=clock,
        )
    )
    try:
        outcome: Outcome = await referee.ask(StartGame())
    finally:
        referee.stop()
    return outcome
