"""The games the server runs: one table each, with its Referee (or its show) and its seats.

A :class:`TurnTable` runs a turn-based game through an ordinary
:class:`~parlour.actors.Referee`: a person's seat is a :class:`WebSeat`, a Player actor
whose moves come from the browser; a computer's seat is the actor
:meth:`PlayerSpec.build` makes (its engine searches in a worker thread, off the event
loop).  A :class:`WatchedTable` runs a game that plays itself (its kit's show: War's
Dealer and two Players), watched by everyone.  Either way the table listens as an
observer, numbers the events and sends each to every connection; every connection's
messages come through :meth:`Table.handle`, which refuses anything not allowed (naming
why) and changes nothing then.

Each person's seat has a secret token (:attr:`TurnTable.tokens`); a connection that holds
none watches.  A game may be on a clock (kept by the Referee; the table shows each
seat's time left and counts the running side's down), and two people by link make offers
to each other: to take a move back, to draw, and after the game a rematch, seats swapped
(the hall makes it, :attr:`TurnTable.on_rematch`).  Once every seat has been taken, a
seat left without a connection for ``abandon`` seconds forfeits (the Outcome says so).  A
game that ends is written to the :class:`~parlour.web.records.Records` and its table is
dropped a little later.
"""

from __future__ import annotations

import asyncio
import functools
import json
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from parlour.actors import (
    Abort,
    Actor,
    Agree,
    Disqualify,
    GameOver,
    Illegal,
    Move,
    Moved,
    Play,
    Reason,
    Ref,
    Referee,
    Resign,
    StartGame,
    TakenBack,
    TimeControl,
    Undo,
    spawn,
)
from parlour.actors.runtime import Reply
from parlour.core import Game, IllegalMove, State, shown
from parlour.kit import hinter, kit_of
from parlour.players.specs import PlayerSpec
from parlour.search import SearchResult, Stop
from parlour.web import views
from parlour.web.engines import ENGINE_MB, EnginePool, PooledComputer, rules_of
from parlour.web.limits import HINTS, Bucket, PerAddress, retry_after
from parlour.web.views import Json

RATE, BURST = 10.0, 20
"""A connection may send ``RATE`` messages a second on average, ``BURST`` at once."""
WATCHED_TAIL = 60
"""Events of a watched game a watcher who joins late is sent (War's have thousands)."""
LINGER = 30.0
"""Seconds a finished table stays in the hall (a late watcher sees its end) before the
records alone hold it; a page still connected keeps it, to ask for a rematch."""
OFFERS = ("takeback", "draw")
"""What one person may offer the other during a game (a rematch comes after it)."""
ANSWERED = {"takeback": "the take back", "draw": "the draw"}
"""An offer as its answer names it ("Player 2 refuses the take back.")."""


class Refused(Exception):
    """A message the table will not act on; the text says why (to the sender alone), and
    ``retry_after`` the seconds to wait where the refusal is a rate's."""

    def __init__(self, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


@dataclass(eq=False)
class Connection:
    """One browser tab: the seats its token holds, its client's address, its outgoing
    messages, its rate."""

    seats: frozenset[int]
    address: str = ""
    outbox: asyncio.Queue[str] = field(default_factory=asyncio.Queue)
    """Messages as the JSON text sent: an event is written once for all its watchers."""
    rate: Bucket = field(default_factory=lambda: Bucket(RATE, BURST))

    def send(self, message: Json) -> None:
        self.outbox.put_nowait(text(message))

    def take_turn(self) -> bool:
        """Whether one more message is within the rate."""
        return self.rate.take() == 0


class _Listener(Actor):
    """The table's ear at its Referee or Dealer: every event, handed to the table."""

    def __init__(self, hear: Callable[[Any], None]) -> None:
        self.hear = hear

    async def receive(self, message: Any) -> None:
        self.hear(message)


@dataclass(frozen=True)
class Choose:
    """Told by the table to a :class:`WebSeat`: the answer its person gave (``Move`` or
    ``Undo``), already checked against the position."""

    answer: Move | Undo


class WebSeat(Actor):
    """A person in a browser: answers ``Play`` with what the table passes on.

    A choice may come before the ``Play`` it answers (the browser saw the position first);
    it is kept and given at the ``Play``, unless a move is made meanwhile (a take back
    accepted just as its offerer moved: void).  A refusal by the Referee (which the table's own
    checks make rare) goes back to the table.
    """

    def __init__(self, refused: Callable[[str], None]) -> None:
        self.refused = refused
        self._answer: Reply | None = None
        self._early: Move | Undo | None = None

    async def receive(self, message: Any) -> None:
        match message:
            case Play():
                self._answer = self.defer()
                if self._early is not None:
                    self._give(self._early)
            case Choose(answer):
                self._give(answer)
            case Illegal(_, reason):
                self.refused(reason)
            case Moved():  # a choice kept from before a move was made on an older board
                self._early = None
            case GameOver():
                self._answer = self._early = None

    def _give(self, answer: Move | Undo) -> None:
        if self._answer is None:
            self._early = answer
            return
        self._answer.send(answer)
        self._answer = self._early = None


class Table:
    """One game on the server: its events, numbered from 1, and its connections."""

    kind = ""

    def __init__(self, table_id: str, game: Game, names: tuple[str, str]) -> None:
        self.id = table_id
        self.game = game
        self.names = names
        self.created = time.time()
        self.events: list[str] = []
        """Each event as the JSON text its connections were sent: a finished game's
        events held as text take a fraction of the memory of their values, and the
        cyclic collector has nothing in them to walk (a thousand games' logs would make
        each of its full passes long)."""
        self.moved_seats: set[int] = set()
        """The seats that made a move of the log (a take back leaves them in it)."""
        self.connections: set[Connection] = set()
        self.result: Json | None = None
        self.started = False
        """Whether anyone came: every seat taken (a game of War: its first watcher)."""
        self.on_end: Callable[[Table], None] = lambda table: None
        self.call_off: asyncio.TimerHandle | None = None
        """The hall's timer that calls the game off if nobody comes; cancelled at the end
        (a timer holds its table)."""

    @property
    def n(self) -> int:
        """The number of the last event (0 before the first)."""
        return len(self.events)

    def log(self, last: int = 0) -> list[Json]:
        """The events as values (the ``last`` few, where it is given)."""
        return [json.loads(event) for event in self.events[-last:]]

    def info(self) -> Json:
        """The table as the lobby lists it."""
        return {
            "id": self.id,
            "game": self.game.name,
            "title": kit_of(self.game).title(self.game.name),
            "kind": self.kind,
            "names": list(self.names),
            "options": views.public_options(self.game),
            "created": self.created,
            "over": self.result is not None,
            "forms": [form.suffix for form in kit_of(self.game).record_forms],
        }

    def publish(self, event: Json) -> None:
        """Number ``event``, keep it, and send it to every connection."""
        event = {"type": "event", "n": self.n + 1, **event}
        if event.get("kind") == "moved":
            self.moved_seats.add(event["player"])
        self.events.append(self.broadcast(event))

    def broadcast(self, message: Json) -> str:
        """Send ``message`` to every connection, written as JSON once for all of them (the
        text answered)."""
        written = text(message)
        for connection in self.connections:
            connection.outbox.put_nowait(written)
        return written

    def fresh(self, connection: Connection) -> Json:
        """The whole game as it stands, for a connection that joins or fell behind."""
        return {
            "type": "state",
            "n": self.n,
            "table": self.info(),
            "you": sorted(connection.seats),
            "now": self.snapshot(),
            "result": self.result,
        }

    def snapshot(self) -> Json:
        """What the board shows now."""
        raise NotImplementedError

    def record(self) -> Json:
        """The finished game as the records keep it: everything that was shown."""
        return {"table": self.info(), "log": self.log(), "result": self.result, "start": None}

    def join(self, token: str | None, address: str = "") -> Connection:
        """A new connection for ``token`` (None: a spectator) from the client at
        ``address``, sent the whole game first; Refused for a token that holds no seat
        here."""
        return self._connect(frozenset(), address)

    def _connect(self, seats: frozenset[int], address: str) -> Connection:
        connection = Connection(seats, address)
        self.connections.add(connection)
        connection.send(self.fresh(connection))
        return connection

    def leave(self, connection: Connection) -> None:
        self.connections.discard(connection)

    def handle(self, connection: Connection, message: Json) -> None:
        """Act on a message of ``connection`` (already checked to be well-formed), or
        raise Refused saying why nothing was done."""
        if message["type"] == "sync":
            connection.send(self.fresh(connection))
            return
        raise Refused("spectators only watch: this connection holds no seat")

    def abort(self, why: str) -> None:
        """End the game now with no winner (the server is stopping, or nobody came)."""

    def _ended(self, result: Json) -> None:
        self.result = result
        if self.call_off is not None:
            self.call_off.cancel()
        self.publish({"kind": "over", "result": result})
        self.on_end(self)


class TurnTable(Table):
    """A turn-based game (Mancala, Kalah, Ayo, five in a row) through a Referee."""

    kind = "turns"

    def __init__(
        self,
        table_id: str,
        start: State,
        specs: tuple[PlayerSpec, PlayerSpec],
        names: tuple[str, str],
        *,
        shared: bool = False,
        abandon: float = 60.0,
        hint_rate: PerAddress | None = None,
        tokens: dict[str, frozenset[int]] | None = None,
        moves: Sequence[str] = (),
        clock: TimeControl | None = None,
        engines: EnginePool | None = None,
    ) -> None:
        super().__init__(table_id, start.game, names)
        self.start = self.state = start
        self.specs = specs
        self.clock = clock
        self.left = list(clock.left or (clock.base, clock.base)) if clock else None
        """Each seat's time left at the last move (None: no clock)."""
        self._since = time.monotonic()  # when the side to move's time began to run
        self.offer: Json | None = None
        """The offer one person made the other and is waiting for: what and by which seat."""
        self.on_rematch: Callable[[TurnTable], dict[str, str]] = lambda table: {}
        """Makes the rematch (the hall); answers the new game's id under ``""`` and each
        old token's new token (Refused when the server is full)."""
        self.rematch: dict[str, str] | None = None
        """The rematch once made (one a game): the new game's id and tokens."""
        self.moves: list[str] = []
        self.movers: list[int] = []  # the seat of each move of the list
        self.abandon = abandon
        self.on_change: Callable[[TurnTable], None] = lambda table: None
        """Told at each move and take back, and when the game starts (the hall keeps it)."""
        self._suspended = False
        people = [seat for seat, spec in enumerate(specs) if spec.human]
        groups = [frozenset(people)] if shared else [frozenset({s}) for s in people]
        self.tokens = tokens or {secrets.token_urlsafe(18): group for group in groups}
        for name in moves:  # a game brought back after a restart: its line replayed
            last = self.movers[-1] if self.movers else None
            self._hear(Moved.replayed(self.state, name, len(self.moves), last))
        self._base = len(self.moves)  # the Referee's moves count from here
        self.joined: set[int] = set()
        self._timers: dict[int, asyncio.TimerHandle] = {}
        self._hint_stop = Stop()
        self._hint_rate = hint_rate or PerAddress(*HINTS)
        self._engines = engines or EnginePool(ENGINE_MB)  # the hints' engines too
        self._hinting = False  # one hint searched at a time
        self._listener = spawn(_Listener(self._hear))
        refs: list[Ref] = []
        for seat, spec in enumerate(specs):
            actor: Actor
            if spec.human:
                actor = WebSeat(functools.partial(self._refused, seat))
            elif spec.kind == "computer" and engines is not None:
                assert spec.level is not None
                actor = PooledComputer(spec.level, spec.seconds, engines)
            else:
                actor = spec.build(None, start.game.name)
            refs.append(spawn(actor, name=f"{table_id}-seat{seat}"))
        self.players = tuple(refs)
        computer = any(spec.kind == "computer" for spec in specs)
        self.hint = computer and bool(people)
        """Whether a person plays the computer: only then are there hints (in a game
        between people, the engine's help would be cheating)."""
        self.shared = len(people) == 2 and len(self.tokens) == 1
        """Whether two people play at one screen (one token holds both seats)."""
        self.undo = self.hint or self.shared
        """Whether moves are taken back at will: against the computer (the person's last
        turn and the computer's replies since) and at one screen (the last turn made)."""
        self.offers = len(self.tokens) == 2
        """Whether two people by link play: they take moves back and draw by offers."""
        referee = Referee(self.state, refs, [self._listener], undo=bool(people), clock=clock)
        self.referee = spawn(referee, name=f"{table_id}-referee")
        if not people:
            self._begin()

    def info(self) -> Json:
        clock = None if self.clock is None else [self.clock.base, self.clock.increment]
        return super().info() | {
            "undo": self.undo,
            "hint": self.hint,
            "offers": self.offers,
            "started": self.started,
            "clock": clock,
        }

    def record(self) -> Json:
        return super().record() | {"start": views.position(self.start)}

    def snapshot(self) -> Json:
        return {
            "position": views.position(self.state),
            "moves": list(self.moves),
            "movers": list(self.movers),
            "clock": self.clock_now(),
            "offer": self.offer,
        }

    def clock_now(self) -> Json | None:
        """Each seat's time left now and the seat whose time runs (None: no clock)."""
        if self.left is None:
            return None
        running = self.state.to_move if self.started and self.result is None else None
        left = list(self.left)
        if running is not None:
            left[running] = max(left[running] - (time.monotonic() - self._since), 0.0)
        return {"left": [round(t, 2) for t in left], "running": running}

    def join(self, token: str | None, address: str = "") -> Connection:
        if token is None:
            return super().join(None, address)
        seats = self.tokens.get(token)
        if seats is None:
            raise Refused("this link's seat token is not one of this game's")
        connection = self._connect(seats, address)
        for seat in seats:
            timer = self._timers.pop(seat, None)
            if timer is not None:
                timer.cancel()
        self.joined |= seats
        if not self.started and self.joined >= self._people():
            self._begin()
        return connection

    def leave(self, connection: Connection) -> None:
        super().leave(connection)
        if self.result is not None or not self.started:
            return
        held = set().union(*(c.seats for c in self.connections))
        loop = asyncio.get_running_loop()
        for seat in connection.seats - held:
            if seat not in self._timers:
                self._timers[seat] = loop.call_later(self.abandon, self._forfeit, seat)

    def handle(self, connection: Connection, message: Json) -> None:
        kind = message["type"]
        if kind == "sync" or not connection.seats:
            super().handle(connection, message)
            return
        if kind == "rematch":
            self._rematch(connection)
            return
        if self.result is not None:
            raise Refused("the game is over")
        if kind in ("offer", "answer"):
            self._offers(connection, message)
            return
        if kind == "resign":
            self.referee.tell(Resign(self._seat(connection, message, to_move=False)))
            return
        if kind == "hint":
            self._hint(connection, self._seat(connection, message))
            return
        seat = self._seat(connection, message)
        self._check_current(message)
        if kind == "undo":
            self.players[seat].tell(Choose(self._undo(seat)))
            return
        try:
            move = self.state.parse_move(message["move"])
        except IllegalMove as error:
            raise Refused(f"{shown(message['move'])}: {error.reason}") from None
        self.players[seat].tell(Choose(Move(move)))

    def abort(self, why: str) -> None:
        self.referee.tell(Abort(why))

    def _undo(self, seat: int) -> Undo:
        """What ``seat``, to move, answers to take a turn back: at one screen the last
        turn made, whoever made it; against the computer its own last turn; Refused
        where there is none, or between people by link (they offer it)."""
        if not self.undo:
            raise Refused("between people by link a take back is offered, not taken")
        if self.shared:
            if not self.movers:
                raise Refused("there is no move to take back")
            return Undo(self.movers[-1])
        if seat not in self.moved_seats:
            raise Refused("there is no turn of yours to take back")
        return Undo()

    def _offers(self, connection: Connection, message: Json) -> None:
        """An offer to the other person (``offer``: to take back a move, a draw) or the
        answer to theirs (``answer``: accepted or not), told to every connection."""
        if not self.offers:
            raise Refused("offers are between two people playing by link")
        if not self.started:
            raise Refused("the game has not started: your opponent has not come yet")
        seat = min(connection.seats)
        if message["type"] == "offer":
            what = message["what"]
            if what not in OFFERS:
                raise Refused(f"one offers {' or '.join(OFFERS)}, not {what!r:.40}")
            if self.offer is not None:
                raise Refused(f"{self.names[self.offer['seat']]} is waiting for an answer already")
            if what == "takeback" and seat not in self.moved_seats:
                raise Refused("there is no turn of yours to take back")
            self._tell_offer({"what": what, "seat": seat})
            return
        offer = self.offer
        if offer is None or offer["seat"] == seat:
            raise Refused("there is no offer of your opponent's to answer")
        accept = message["accept"]
        verb = "accepts" if accept else "refuses"
        self._tell_offer(None, f"{self.names[seat]} {verb} {ANSWERED[offer['what']]}.")
        if not accept:
            return
        if offer["what"] == "draw":
            self.referee.tell(Agree())
        else:  # the seat to move answers its Play for both: the offerer's turn is undone
            self.players[self.state.to_move].tell(Choose(Undo(offer["seat"])))

    def _tell_offer(self, offer: Json | None, words: str = "") -> None:
        self.offer = offer
        self.broadcast({"type": "offer", "offer": offer, "words": words})

    def _rematch(self, connection: Connection) -> None:
        """A rematch, seats swapped: made at once against the computer or at one screen,
        between people by link once both have asked; every connection is sent the new
        game's id (and its token, to a player)."""
        if self.result is None:
            raise Refused("a rematch comes once the game is over")
        if not connection.seats:
            raise Refused("spectators only watch: this connection holds no seat")
        seat = min(connection.seats)
        if self.rematch is not None:  # made already: this page goes there too
            self._send_rematch(connection)
            return
        if self.offers and (self.offer is None or self.offer["seat"] == seat):
            self._tell_offer({"what": "rematch", "seat": seat})
            return
        self.rematch = self.on_rematch(self)
        self.offer = None
        for other in self.connections:
            self._send_rematch(other)

    def _send_rematch(self, connection: Connection) -> None:
        """Send ``connection`` to the rematch: its id, and the new token of its seats."""
        assert self.rematch is not None
        made = self.rematch
        token = next((made[t] for t, s in self.tokens.items() if s == connection.seats), None)
        connection.send({"type": "rematch", "id": made[""], "token": token})

    def _people(self) -> set[int]:
        return set().union(*self.tokens.values())

    def _begin(self) -> None:
        """Start the game (every seat has been taken); the pages are told (no event: the
        game's events are its moves)."""
        self.started = True
        self._since = time.monotonic()
        self.referee.tell(StartGame())
        self.broadcast({"type": "started", "clock": self.clock_now()})
        self.on_change(self)

    def _seat(self, connection: Connection, message: Json, to_move: bool = True) -> int:
        """The seat a message acts for: its ``seat`` if given, else the one to move (or the
        connection's only seat); Refused when the connection does not hold it, or when it
        is not that seat's turn."""
        seat = message.get("seat")
        if seat is None:
            mover = self.state.to_move
            seat = mover if mover in connection.seats else min(connection.seats)
        if seat not in connection.seats:
            raise Refused(f"you do not hold the seat of {self.names[seat]}")
        if to_move and seat != self.state.to_move:
            raise Refused(f"it is not your turn: {self.names[self.state.to_move]} is to move")
        return int(seat)

    def _check_current(self, message: Json) -> None:
        """Refuse a move or undo sent from a view older than the game (its ``at``)."""
        if message["at"] != self.n:
            raise Refused(
                f"stale: your view is at event {message['at']}, the game at event {self.n};"
                " look again and choose again"
            )

    def _hint(self, connection: Connection, seat: int) -> None:
        """The engine's move for ``seat``, searched in a thread; sent to this connection.
        Refused between people, while a hint is being searched, and over the rate of the
        client's address (the engine's threads are the server's)."""
        if not self.hint:
            raise Refused("no hints in a game between people")
        if self._hinting:
            raise Refused("a hint is being searched already: its answer comes in a moment")
        wait = self._hint_rate.take(connection.address)
        if wait:
            seconds = retry_after(wait)
            raise Refused(f"too many hints: the next one in {seconds} s", seconds)
        state = self.state
        self._hinting = True

        async def think() -> None:
            try:
                move, account = await self._engines.search(
                    (rules_of(state.game), "hint"),
                    functools.partial(hinter, state.game.name),
                    lambda engine: engine.best_move(state, self._hint_stop),
                    "hint",
                )
            except Exception as error:  # an engine's failure is the hint's alone
                connection.send({"type": "error", "message": f"no hint: {error}"})
                return
            finally:
                self._hinting = False
            value = account.value if isinstance(account, SearchResult) else None
            connection.send(
                {"type": "hint", "seat": seat, "move": state.move_name(move), "value": value}
            )

        task = asyncio.get_running_loop().create_task(think())
        _background.add(task)
        task.add_done_callback(_background.discard)

    def _forfeit(self, seat: int) -> None:
        self._timers.pop(seat, None)
        detail = f"left the game (the seat was empty for {self.abandon:g} s)"
        self.referee.tell(Disqualify(seat, Reason.LEFT, detail))

    def _refused(self, seat: int, why: str) -> None:
        for connection in self.connections:
            if seat in connection.seats:
                connection.send({"type": "error", "message": why})

    def progress(self) -> Json:
        """How far the game is, as the hall keeps it to bring it back after a restart."""
        clock = self.clock_now()
        return {
            "moves": list(self.moves),
            "started": self.started,
            "clock": None if clock is None else clock["left"],
        }

    def resume(self) -> None:
        """Go on with a game brought back after a restart: begun again if it had begun,
        each person's seat given ``abandon`` seconds to come back."""
        if not self.started:
            return
        self._begin()
        loop = asyncio.get_running_loop()
        for seat in self._people():
            self._timers[seat] = loop.call_later(self.abandon, self._forfeit, seat)

    def suspend(self) -> None:
        """Stop the game's actors without ending it (the server stops; the hall keeps the
        game, to bring it back)."""
        self._suspended = True
        self._stop()

    def _hear(self, message: Any) -> None:
        if self._suspended:
            return
        match message:
            case Moved() as event:
                self.state = event.after
                self.moves.append(event.name)
                self.movers.append(event.player)
                self._clocked(event.clock)
                if self.offer is not None:  # an offer stands for the position it was made in
                    self._tell_offer(None)
                self.publish(views.moved(event, self.names) | {"clock": self.clock_now()})
                self.on_change(self)
            case TakenBack() as event:
                self.state = event.state
                kept = self._base + event.moves
                del self.moves[kept:]
                del self.movers[kept:]
                self._clocked(event.clock)
                self.publish(views.taken_back(event) | {"moves": kept, "clock": self.clock_now()})
                self.on_change(self)
            case GameOver(outcome):
                self.state = outcome.final or self.state
                if self.left is not None and outcome.reason is Reason.TIME:
                    self.left[self.state.to_move] = 0.0  # the flag: none left
                self._stop()
                self.offer = None
                self._ended(views.outcome(outcome, self.names))

    def _clocked(self, left: tuple[float, float] | None) -> None:
        """The clock as the Referee tells it at a move; the side to move's time runs."""
        if left is not None:
            self.left = list(left)
        self._since = time.monotonic()

    def _stop(self) -> None:
        """Stop the actors and a hint under way: a finished game holds no search table
        (its engines were the pool's; the records keep what it showed)."""
        self._hint_stop.set()
        for timer in self._timers.values():
            timer.cancel()
        for ref in (*self.players, self.referee, self._listener):
            ref.stop()


class WatchedTable(Table):
    """A game that plays itself (the kit's :class:`~parlour.kit.Show`: War's Dealer and
    its players), everyone watching; the first watcher starts it."""

    def __init__(self, table_id: str, game: Game) -> None:
        super().__init__(table_id, game, ("Player 1", "Player 2"))
        self._listener = spawn(_Listener(self._hear))
        self.show = kit_of(game).show(game, self._listener)
        self.kind = self.show.kind

    def join(self, token: str | None, address: str = "") -> Connection:
        """A watcher (nobody holds a seat); the first one starts the game."""
        if not self.started and self.result is None:
            self.started = True
            self.show.begin()
        return super().join(token, address)

    def snapshot(self) -> Json:
        """What the table shows now and the last ``WATCHED_TAIL`` events (a page shows
        the game at its own pace; a late watcher starts from there, not from a start long
        past)."""
        return self.show.snapshot() | {"log": self.log(WATCHED_TAIL)}

    def abort(self, why: str) -> None:
        self.show.abort(why)

    def _hear(self, message: Any) -> None:
        if isinstance(message, GameOver):
            self.show.stop()
            self._listener.stop()
            self._ended(self.show.outcome(message.outcome))
            return
        event = self.show.event(message)
        if event is not None:
            self.publish(event)


def text(message: Json) -> str:
    """A message as the JSON text a websocket sends (compact: no spaces)."""
    return json.dumps(message, separators=(",", ":"))


_background: set[asyncio.Task[None]] = set()  # hints under way, kept from the collector
