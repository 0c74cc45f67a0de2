"""The Referee: runs any turn-based game of the game core between two player actors.

It knows the players only by their mailboxes.  For each move it asks the player to move
``Play(view)``, checks the ``Move`` it answers (an illegal one gets ``Illegal(reason)``
and a new ``Play``, up to ``retries`` times), applies it with ``State.play_report`` and
tells every player and observer ``Moved`` with the game's account of the move.  A player
that does not answer within ``move_time``, crashes or leaves forfeits.  At the end it
tells everyone ``GameOver(result)`` and answers the ``StartGame`` ask with the
:class:`~parlour.actors.messages.Result`.

Games with more to tell hook in with ``notices``: a function from each ``Moved`` event
to extra ``(player, message)`` pairs that the Referee sends after it (Ayo's ``Stoned``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from parlour.actors.messages import GameOver, Illegal, Move, Moved, Play, Result, View
from parlour.actors.runtime import Actor, ActorStopped, AskTimeout, Ref, spawn
from parlour.core import IllegalMove, State
from parlour.core import Move as MoveValue

Notices = Callable[[Moved], Iterable[tuple[int, Any]]]


@dataclass(frozen=True)
class StartGame:
    """Ask the Referee to play the game; the answer is the Result."""


class _Forfeit(Exception):
    """The player to move loses by forfeit, for ``why``."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


class Referee(Actor):
    """Plays ``start`` out between ``players`` (player 0's mailbox first).

    ``move_time`` is each move's limit in seconds (None: no limit); ``retries`` is how
    many illegal answers a player may give for one move before it forfeits.  The same
    mailbox may sit in both seats (two people at one terminal) and may also observe: each
    mailbox gets each event once.
    """

    def __init__(
        self,
        start: State,
        players: Sequence[Ref],
        observers: Sequence[Ref] = (),
        *,
        move_time: float | None = None,
        retries: int = 3,
        notices: Notices | None = None,
    ) -> None:
        if len(players) != 2:
            raise ValueError(f"a game needs 2 players, not {len(players)}")
        self.start = start
        self.players = tuple(players)
        self.audience = tuple({id(r): r for r in (*players, *observers)}.values())
        self.move_time = move_time
        self.retries = retries
        self.notices = notices

    async def receive(self, message: Any) -> None:
        match message:
            case StartGame():
                self.reply(await self.run())

    async def run(self) -> Result:
        """Play the game to its end (or a forfeit) and return the result."""
        state, moves = self.start, list[MoveValue]()
        turns = [0, 0]
        last_mover: int | None = None
        while not state.is_over:
            player = state.to_move
            again = player == last_mover
            turns[player] += 0 if again else 1
            view = View(state, state.legal_moves(), turns[player], again)
            try:
                move, after, account = await self._next_move(player, view)
            except _Forfeit as forfeit:
                return self._finish(
                    Result(1 - player, state.scores, forfeit.why, tuple(moves), state, player)
                )
            moves.append(move)
            name = state.move_name(move)
            event = Moved(player, move, name, state, after, account, turns[player], again)
            self._broadcast(event)
            for seat, notice in self.notices(event) if self.notices else ():
                self.players[seat].tell(notice, self.ref)
            state, last_mover = after, player
        return self._finish(Result(state.winner, state.scores, "game over", tuple(moves), state))

    async def _next_move(self, player: int, view: View) -> tuple[Any, State, Any]:
        """Ask ``player`` until it answers a legal move: (move, new state, account)."""
        ref, reason = self.players[player], ""
        for _ in range(self.retries + 1):
            answer = await self._ask(ref, Play(view))
            match answer:
                case Move(move):
                    try:
                        return (move, *view.state.play_report(move))
                    except IllegalMove as error:
                        reason = error.reason
                case _:
                    move, reason = answer, f"expected a Move, got {type(answer).__name__}"
            ref.tell(Illegal(move, reason), self.ref)
        raise _Forfeit(f"made {self.retries + 1} illegal moves ({reason})")

    async def _ask(self, ref: Ref, play: Play) -> Any:
        try:
            return await ref.ask(play, self.move_time)
        except AskTimeout:
            raise _Forfeit(f"ran out of time ({self.move_time:g} s)") from None
        except ActorStopped as stopped:
            if stopped.error is not None:
                raise _Forfeit(stopped.reason) from None
            raise _Forfeit(f"left the game ({stopped.reason})") from None

    def _broadcast(self, message: Any) -> None:
        for ref in self.audience:
            ref.tell(message, self.ref)

    def _finish(self, result: Result) -> Result:
        self._broadcast(GameOver(result))
        return result


async def run_game(
    start: State,
    players: Sequence[Ref],
    observers: Sequence[Ref] = (),
    *,
    move_time: float | None = None,
    retries: int = 3,
    notices: Notices | None = None,
) -> Result:
    """Start a Referee for one game, wait for its result, and stop it."""
    referee = spawn(
        Referee(start, players, observers, move_time=move_time, retries=retries, notices=notices)
    )
    try:
        result: Result = await referee.ask(StartGame())
    finally:
        referee.stop()
    return result
