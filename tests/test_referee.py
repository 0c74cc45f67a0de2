"""The Referee on a toy game (any game of the core) and on the seed 001 sample game."""

from __future__ import annotations

import asyncio
from collections.abc import Hashable
from typing import Any

import pytest

import parlour
from parlour.actors import (
    Actor,
    Disqualify,
    GameOver,
    Illegal,
    Move,
    Moved,
    Outcome,
    Play,
    Reason,
    Referee,
    Resign,
    StartGame,
    TakenBack,
    Undo,
    View,
    Watch,
    Watching,
    run_game,
    spawn,
)
from parlour.actors.messages import Abort
from parlour.core import Game, IllegalMove, State, register, unregister
from parlour.games.sowing.game import SowingState
from parlour.kit import Kit


class NimGame(Game):
    """Take 1 to 3 from a heap; whoever takes the last one wins.  Taking 3 earns an extra move."""

    def start(self) -> NimState:
        return NimState(self, 7, 0)

    def parse(self, text: str) -> NimState:
        heap, to_move = text.split()
        return NimState(self, int(heap), int(to_move))


class NimState(State):
    game: NimGame

    def __init__(self, game: NimGame, heap: int, to_move: int, last: int | None = None) -> None:
        self.game = game
        self.heap, self._to_move, self.last = heap, to_move, last

    @property
    def to_move(self) -> int:
        return self._to_move

    def legal_moves(self) -> tuple[int, ...]:
        return tuple(n for n in (1, 2, 3) if n <= self.heap)

    def play(self, move: Any) -> NimState:
        if move not in self.legal_moves():
            raise IllegalMove(move, f"take 1 to {min(3, self.heap)}")
        mover = self._to_move
        return NimState(self.game, self.heap - move, mover if move == 3 else 1 - mover, mover)

    def play_report(self, move: Any) -> tuple[NimState, Any]:
        after = self.play(move)
        return after, ("again" if after.to_move == self.to_move else "pass")

    @property
    def is_over(self) -> bool:
        return self.heap == 0

    @property
    def winner(self) -> int | None:
        return self.last if self.is_over else None

    @property
    def scores(self) -> tuple[int, int]:
        return (1, 0) if self.winner == 0 else (0, 1) if self.winner == 1 else (0, 0)

    def render(self) -> str:
        return "|" * self.heap

    def notation(self) -> str:
        return f"{self.heap} {self._to_move}"

    def move_name(self, move: Any) -> str:
        return f"take {move}"

    def parse_move(self, text: str) -> int:
        return int(text)

    def _key(self) -> Hashable:
        return (self.heap, self._to_move)


NIM = NimGame("nim", {})


class Scripted(Actor):
    """Answers each Play with the next of its answers (a callable is called with the view)."""

    def __init__(self, answers: list[Any]) -> None:
        self.answers = list(answers)
        self.log: list[Any] = []

    async def receive(self, message: Any) -> None:
        self.log.append(message)
        match message:
            case Play(view):
                answer = self.answers.pop(0)
                self.reply(answer(view) if callable(answer) else answer)
            case "log":
                self.reply(self.log)


def moves(*values: Any) -> list[Move]:
    return [Move(v) for v in values]


async def play(
    start: State, first: list[Any], second: list[Any], **options: Any
) -> tuple[Outcome, Scripted, Scripted]:
    a, b = Scripted(first), Scripted(second)
    result = await run_game(start, [spawn(a), spawn(b)], **options)
    await asyncio.sleep(0)  # let the players take GameOver
    return result, a, b


async def test_a_game_replayed_from_its_move_names_tells_the_referees_events() -> None:
    """``Moved.replayed`` (a web game brought back, a stored game shown in the page) says
    what the Referee said, an extra move's ``again`` included."""
    first = lambda view: Move(view.legal_moves[-1])  # noqa: E731 - Kalah's F: extra moves
    result, a, _ = await play(parlour.game("kalah").start(), [first] * 99, [first] * 99)
    told = [event for event in a.log if isinstance(event, Moved)]
    assert any(event.again for event in told) and result.reason is Reason.RULES
    last = None
    for event in told:
        again = Moved.replayed(event.before, event.name, event.turn, last)
        assert again == event
        last = event.player


async def test_a_game_runs_to_the_end_with_events_to_both_players() -> None:
    # 7: player 0 takes 3 (extra move), takes 1 -> 3 left; player 1 takes 3 and wins.
    result, a, b = await play(NIM.start(), moves(3, 1), moves(3))
    assert result.winner == 1 and result.forfeit is None and result.reason is Reason.RULES
    assert result.moves == (3, 1, 3) and result.final.heap == 0  # type: ignore[union-attr]
    assert result.scores == (0, 1)
    plays = [m.view for m in a.log if isinstance(m, Play)]
    assert [(v.turn, v.again, v.legal_moves) for v in plays] == [
        (1, False, (1, 2, 3)),
        (1, True, (1, 2, 3)),
    ]
    events = [m for m in b.log if isinstance(m, Moved)]
    assert [(e.player, e.move, e.name, e.account, e.turn, e.again) for e in events] == [
        (0, 3, "take 3", "again", 1, False),
        (0, 1, "take 1", "pass", 1, True),
        (1, 3, "take 3", "again", 1, False),
    ]
    assert events[1].before == events[0].after
    for log in (a.log, b.log):
        assert log[-1] == GameOver(result)
        assert sum(isinstance(m, Moved) for m in log) == 3


async def test_an_illegal_move_is_refused_with_the_reason_and_asked_again() -> None:
    result, a, _ = await play(NIM.start(), [Move(5), "nonsense", Move(2)], moves(3, 2))
    illegal = [m for m in a.log if isinstance(m, Illegal)]
    assert illegal == [Illegal(5, "take 1 to 3"), Illegal("nonsense", "expected a Move, got str")]
    assert result.moves == (2, 3, 2)
    # Each Illegal comes before the next Play of the same move.
    kinds = [type(m).__name__ for m in a.log[:5]]
    assert kinds == ["Play", "Illegal", "Play", "Illegal", "Play"]


async def test_too_many_illegal_moves_forfeit() -> None:
    result, _, b = await play(NIM.start(), moves(9, 9, 9), [], retries=2)
    assert result.forfeit == 0 and result.winner == 1
    assert result.reason is Reason.ILLEGAL
    assert result.detail == "made 3 illegal moves (take 1 to 3)"
    assert result.moves == ()
    assert b.log == [GameOver(result)]


class Crasher(Actor):
    async def receive(self, message: Any) -> None:
        if isinstance(message, Play):
            raise RuntimeError("out of cheese")


class Sleeper(Actor):
    async def receive(self, message: Any) -> None:
        if isinstance(message, Play):
            await asyncio.sleep(3600)


class Leaver(Actor):
    async def receive(self, message: Any) -> None:
        if isinstance(message, Play):
            self.stop("end of input")


@pytest.mark.parametrize(
    ("player", "reason", "detail"),
    [
        (Crasher, Reason.CRASHED, "crashed: RuntimeError: out of cheese"),
        (Sleeper, Reason.TIME, "ran out of time (0.05 s)"),
        (Leaver, Reason.LEFT, "left the game (end of input)"),
    ],
)
async def test_a_player_that_crashes_hangs_or_leaves_forfeits(
    player: type[Actor], reason: Reason, detail: str
) -> None:
    a = Scripted(moves(1))
    loser = spawn(player())
    result = await run_game(NIM.start(), [spawn(a), loser], move_time=0.05)
    assert (result.winner, result.forfeit, result.reason, result.detail) == (0, 1, reason, detail)
    assert result.moves == (1,)
    # The process is fine: the winner still works and another game runs.
    again = await run_game(NIM.parse("1 0"), [spawn(Scripted(moves(1))), spawn(Scripted([]))])
    assert again.winner == 0


async def test_a_player_already_gone_forfeits_at_once() -> None:
    gone = spawn(Scripted([]))
    gone.stop()
    await gone.join()
    result = await run_game(NIM.start(), [gone, spawn(Scripted([]))])
    assert result.forfeit == 0 and result.reason is Reason.LEFT
    assert result.detail == "left the game (stopped)"


async def test_one_mailbox_in_both_seats_and_observers_get_each_event_once() -> None:
    both = Scripted(moves(2, 2, 2, 1))
    watcher = Scripted([])
    result = await run_game(NIM.start(), [spawn(both)] * 2, [spawn(watcher)])
    await asyncio.sleep(0)
    assert result.moves == (2, 2, 2, 1) and result.winner == 1
    for log in (both.log, watcher.log):
        assert sum(isinstance(m, Moved) for m in log) == 4
        assert sum(isinstance(m, GameOver) for m in log) == 1


def _took_three(event: Moved) -> list[tuple[int, Any]]:
    return [(event.player, ("took", event.move))] if event.move == 3 else []


class TellingKit(Kit):
    """A kit whose game tells the taker of three after each such move."""

    notices = staticmethod(_took_three)


async def test_the_referee_sends_the_kits_notices_after_each_event() -> None:
    a, b = Scripted(moves(3, 3)), Scripted(moves(1))
    register("telling-nim", NimGame, "Nim whose kit tells the taker of three", kit=TellingKit())
    try:
        await run_game(NimGame("telling-nim", {}).start(), [spawn(a), spawn(b)])
    finally:
        unregister("telling-nim")
    await asyncio.sleep(0)
    assert [m for m in a.log if isinstance(m, tuple)] == [("took", 3), ("took", 3)]
    assert not any(isinstance(m, tuple) for m in b.log)
    first = next(i for i, m in enumerate(a.log) if isinstance(m, Moved))
    assert a.log[first + 1] == ("took", 3)


async def test_seed_001_sample_game_through_the_referee() -> None:
    """RULES.md section 1: D (extra turn), A (capture D), C (extra turn), F (capture C)."""
    game = parlour.game("mancala")

    def by_letter(letter: str) -> Any:
        def choose(view: View) -> Move:
            return Move(view.state.parse_move(letter))

        return choose

    human = Scripted([by_letter("D"), by_letter("A")])
    computer = Scripted([by_letter("C"), by_letter("F")])
    watcher = Scripted([])
    # The human's script ends after the seed's sample: its next Play crashes it.
    result = await run_game(game.start(), [spawn(human), spawn(computer)], [spawn(watcher)])
    assert result.forfeit == 0 and result.detail.startswith("crashed: IndexError")
    assert result.moves == (3, 0, 2, 5)
    events = [m for m in watcher.log if isinstance(m, Moved)]
    assert [(e.player, e.name, e.turn, e.again) for e in events] == [
        (0, "D", 1, False),
        (0, "A", 1, True),
        (1, "C", 1, False),
        (1, "F", 1, True),
    ]
    reports = [e.account for e in events]
    assert [r.extra_turn for r in reports] == [True, False, True, False]
    assert [r.capture_column for r in reports] == [None, 3, None, 2]
    assert [r.captured for r in reports] == [0, 4, 0, 5]
    assert not any(r.game_over for r in reports)
    assert [e.after.scores for e in events] == [(1, 0), (5, 0), (5, 1), (5, 6)]
    # The board the seed prints before "Squares in column D are captured.": D holds 1.
    assert reports[1].sown.row(0) == (0, 4, 4, 1, 4, 4)
    assert reports[1].sown.row(1) == (3, 3, 3, 3, 3, 3)
    final = events[-1].after
    assert isinstance(final, SowingState)
    assert final.row(1) == (4, 4, 0, 1, 4, 0)
    assert final.row(0) == (0, 4, 0, 0, 4, 4)
    assert final.notation() == "0,4,0,0,4,4/5/4,4,0,1,4,0/6 0"
    assert [m.view.turn for m in human.log if isinstance(m, Play)] == [1, 1, 2]


# --- a Referee is an actor while its game runs ----------------------------------------


class Ponderer(Actor):
    """A player that thinks until told otherwise: it keeps each Play unanswered (its mailbox
    open meanwhile), answers ``("answer", move)`` when told so, and leaves at GameOver."""

    def __init__(self) -> None:
        self.log: list[Any] = []
        self.asked = asyncio.Event()
        self.pending: Any = None

    async def receive(self, message: Any) -> None:
        self.log.append(message)
        match message:
            case Play():
                self.pending = self.defer()
                self.asked.set()
            case ("answer", move):
                self.pending.send(Move(move))
            case GameOver():
                self.stop("game over")


async def test_a_third_actor_resigns_a_running_game_and_nothing_is_left_running() -> None:
    before = asyncio.all_tasks()
    thinker, other = Ponderer(), Scripted([])
    players = [spawn(thinker), spawn(other)]
    referee = spawn(Referee(NIM.start(), players))
    game = asyncio.ensure_future(referee.ask(StartGame()))
    await thinker.asked.wait()  # player 0 is thinking: the game is running

    class Second(Actor):  # a third actor (a web page's button, say) resigns for player 0
        async def receive(self, message: Any) -> None:
            referee.tell(Resign(0), self.ref)

    spawn(Second()).tell("go")
    outcome = await game
    assert (outcome.winner, outcome.forfeit, outcome.reason) == (1, 0, Reason.RESIGNED)
    assert outcome.moves == () and outcome.final == NIM.start()
    assert thinker.log[-1] == GameOver(outcome) and other.log == [GameOver(outcome)]
    thinker.pending.send(Move(1))  # a late answer changes nothing
    assert await referee.ask(StartGame()) == outcome
    for ref in (referee, *players):
        ref.stop()
        await ref.join()
    await asyncio.sleep(0)  # the Second actor's task ends once its message is handled
    leftover = {t for t in asyncio.all_tasks() - before if not t.get_name().startswith("Second")}
    assert not leftover


async def test_a_forfeit_from_outside_ends_the_game_for_the_seat_not_to_move() -> None:
    thinker, other = Ponderer(), Scripted([])
    referee = spawn(Referee(NIM.start(), [spawn(thinker), spawn(other)]))
    game = asyncio.ensure_future(referee.ask(StartGame()))
    await thinker.asked.wait()  # player 0 thinks; player 1's seat is left empty meanwhile
    referee.tell(Disqualify(1, Reason.LEFT, "left the game (the seat was empty for 60 s)"))
    outcome = await game
    assert (outcome.winner, outcome.forfeit, outcome.reason) == (0, 1, Reason.LEFT)
    assert outcome.detail == "left the game (the seat was empty for 60 s)"
    assert thinker.log[-1] == GameOver(outcome)
    referee.stop()
    await referee.join()


async def test_an_abort_ends_the_game_with_no_winner_and_a_late_watcher_sees_it_so_far() -> None:
    thinker = Ponderer()
    referee = spawn(Referee(NIM.start(), [spawn(Scripted(moves(1))), spawn(thinker)]))
    game = asyncio.ensure_future(referee.ask(StartGame()))
    await thinker.asked.wait()  # player 0 took 1: player 1 thinks
    watcher = Scripted([])
    seen = await referee.ask(Watch(spawn(watcher)))
    assert seen == Watching(NIM.parse("6 1"), (1,), None)
    thinker.pending.send(Move(2))  # the watcher sees the moves from now on
    await thinker.asked.wait()
    referee.tell(Abort("the server is shutting down"))
    outcome = await game
    assert (outcome.winner, outcome.forfeit, outcome.reason) == (None, None, Reason.ABORTED)
    assert outcome.detail == "the server is shutting down"
    await asyncio.sleep(0)
    assert [type(m).__name__ for m in watcher.log] == ["Moved", "GameOver"]
    assert watcher.log[-1] == GameOver(outcome)
    late = await referee.ask(Watch(spawn(Scripted([]))))
    assert late.outcome == outcome and late.moves == (1, 2)


async def test_a_stopped_referee_aborts_its_game_and_answers_the_start() -> None:
    thinker = Ponderer()
    referee = spawn(Referee(NIM.start(), [spawn(thinker), spawn(Scripted([]))]))
    game = asyncio.ensure_future(referee.ask(StartGame()))
    await thinker.asked.wait()
    referee.stop()
    outcome = await game
    assert outcome.reason is Reason.ABORTED and outcome.winner is None
    assert thinker.log[-1] == GameOver(outcome)


async def test_undo_takes_back_the_players_last_turn_and_the_replies() -> None:
    # 7: player 0 takes 1, player 1 takes 1; player 0 takes its turn back (to 7), takes 2,
    # player 1 takes 1, player 0 takes 1, player 1 takes the last 3 and wins.
    result, a, b = await play(
        NIM.start(), [Move(1), Undo(), Move(2), Move(1)], moves(1, 1, 3), undo=True
    )
    assert result.moves == (2, 1, 1, 3) and result.winner == 1
    for log in (a.log, b.log):
        [back] = [m for m in log if isinstance(m, TakenBack)]
        assert back == TakenBack(0, NIM.start(), 0)
    plays = [m.view for m in a.log if isinstance(m, Play)]
    assert [(v.state.notation(), v.turn) for v in plays] == [
        ("7 0", 1),
        ("5 0", 2),
        ("7 0", 1),
        ("4 0", 2),
    ]


async def test_undo_with_no_turn_to_take_back_or_not_allowed_is_refused() -> None:
    result, a, _ = await play(NIM.start(), [Undo(), Move(3), Move(3), Move(1)], [], undo=True)
    assert Illegal(Undo(), "there is no turn of yours to take back") in a.log
    assert result.moves == (3, 3, 1) and result.winner == 0
    result, a, _ = await play(NIM.start(), [Undo(), Move(3), Move(3), Move(1)], [])
    assert Illegal(Undo(), "taking moves back is not allowed in this game") in a.log
    assert result.moves == (3, 3, 1)
