"""The engine player: any Gomocup engine seated by the Referee.  Brains that misbehave on
purpose lose with the reason in the Outcome and leave no process behind; parlour's own
brain plays whole games through it, both ways, with TAKEBACK, RESTART and END."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

import psutil
import pytest
from click.testing import CliRunner

import parlour
from helpers import BOUND
from parlour.actors import (
    Forfeit,
    Outcome,
    Reason,
    Referee,
    Resign,
    StartGame,
    run_game,
    spawn,
)
from parlour.actors.runtime import Piped
from parlour.cli import main
from parlour.core import BadOption
from parlour.games.gomoku.game import GomokuState
from parlour.games.gomoku.gomocup import player
from parlour.games.gomoku.gomocup.player import MAX_MEMORY, EnginePlayer
from parlour.players.machines import RandomPlayer
from parlour.players.specs import ENGINE_SECONDS, PlayerSpec, parse_player, timed

BRAIN = str(Path(__file__).parent / "brains" / "misbehaving.py")
PBRAIN = (sys.executable, "-m", "parlour.games.gomoku.gomocup.brain")


def brain_processes() -> list[psutil.Process]:
    """Every process of the misbehaving brain still running, and its children."""
    found = []
    for process in psutil.process_iter(["cmdline"]):
        cmdline = process.info["cmdline"] or []
        if any(BRAIN in part or "misbehaving-child" in part for part in cmdline):
            found.append(process)
    return found


async def play(engine: EnginePlayer, seat: int, size: int = 15) -> Outcome:
    """One game of ``engine`` in ``seat`` against a random mover; the players stopped."""
    start = parlour.game("gomoku", size=size).start()
    players = [spawn(RandomPlayer(seed=7)), spawn(engine)]
    if seat == 0:
        players.reverse()
    try:
        return await run_game(start, players)
    finally:
        for ref in players:
            ref.stop()
        await asyncio.gather(*(ref.join() for ref in players))


MISBEHAVIOURS = [
    ("crash", Reason.CRASHED, "closed its output (exit status 3)"),
    ("silent", Reason.TIME, "the engine sent no move within 1 s"),
    ("garbage", Reason.ILLEGAL, "answered 'I resign, or maybe not'"),
    ("occupied", Reason.ILLEGAL, "is taken"),
    ("offboard", Reason.ILLEGAL, "on the 15x15 board must be at most 14, not 15"),
    ("noflush", Reason.TIME, "within 1 s"),
    ("memory", Reason.MEMORY, "over its 200 MiB"),
    ("closed", Reason.CRASHED, "closed its output"),
    ("fork", Reason.TIME, "within 1 s"),
    ("error", Reason.TIME, "no move within 1 s (it said 'ERROR cannot think')"),
]


@pytest.mark.parametrize(("mode", "reason", "detail"), MISBEHAVIOURS)
async def test_a_misbehaving_engine_loses_with_the_reason_and_leaves_nothing(
    mode: str, reason: Reason, detail: str
) -> None:
    # the hoarding brain is over its memory once its 300 MB are touched, which on a loaded
    # machine may take longer than a move's second: time must not run out first there
    tolerance = 10.0 if reason is Reason.MEMORY else 0.5
    engine = EnginePlayer(
        [sys.executable, BRAIN, mode], seconds=0.5, tolerance=tolerance, memory=200 << 20
    )
    outcome = await play(engine, seat=1)
    assert (outcome.reason, outcome.forfeit, outcome.winner) == (reason, 1, 0)
    assert detail in outcome.detail
    if mode == "crash":
        assert len(outcome.moves) == 5  # its third move never came
    deadline = time.monotonic() + 1
    while brain_processes() and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    assert brain_processes() == []


async def test_a_memory_limit_of_0_is_no_limit() -> None:
    """The protocol's ``INFO max_memory 0``: the hoarding brain then loses on time only."""
    engine = EnginePlayer([sys.executable, BRAIN, "memory"], seconds=0.5, tolerance=0.5, memory=0)
    outcome = await play(engine, seat=1)
    assert (outcome.reason, outcome.forfeit) == (Reason.TIME, 1)


async def test_an_engine_that_cannot_start_loses_by_crashing() -> None:
    outcome = await play(EnginePlayer(["/nonexistent/pbrain-nothing"]), seat=0)
    assert (outcome.reason, outcome.forfeit) == (Reason.CRASHED, 0)
    assert "did not start" in outcome.detail


async def test_a_good_engine_plays_on_and_its_notes_are_not_moves() -> None:
    """The well-behaved test brain (first free point, a MESSAGE before each move) plays
    to the end of a game on a small board, and is told END then."""
    engine = EnginePlayer([sys.executable, BRAIN, "good"], seconds=1)
    outcome = await play(engine, seat=0, size=7)
    assert outcome.reason == Reason.RULES
    assert len(outcome.moves) >= 9
    assert brain_processes() == []


def listening(heard: Path) -> list[str]:
    """parlour's brain, what it is told kept in ``heard``."""
    return ["sh", "-c", f"tee {heard} | {' '.join(PBRAIN)}"]


async def test_parlour_brain_plays_whole_games_both_ways(tmp_path: Path) -> None:
    """parlour's brain against a random mover: it wins as X and as 0, in one process kept
    from game to game (RESTART)."""
    heard = tmp_path / "heard.txt"
    # a generous tolerance: a busy machine may slow the brain, and no test fails on a timing
    engine = EnginePlayer(listening(heard), seconds=0.3, tolerance=10, keep=True)
    ref = spawn(engine)
    random_ref = spawn(RandomPlayer(seed=3))
    try:
        for seat in (0, 1):
            players = [random_ref, ref] if seat == 1 else [ref, random_ref]
            start = parlour.game("gomoku", size=15).start()
            outcome = await run_game(start, players)
            assert (outcome.reason, outcome.winner) == (Reason.RULES, seat)
            final = outcome.final
            assert isinstance(final, GomokuState)
            assert sorted(final.five()) and final.board[final.five()[0]] == seat + 1
        assert len(engine.times) >= 5  # each of its moves timed, for the match's figures
        # and its CPU (the brain's process, under the shell that pipes to it) counted
        assert len(engine.cpu_times) == len(engine.times) and min(engine.cpu_times) >= 0
        assert sum(engine.cpu_times) > 0
        process = engine._process
        assert process is not None
    finally:
        ref.stop()
        random_ref.stop()
        await ref.join()
    assert process.poll() is not None  # killed as the player stopped
    told = heard.read_text().splitlines()
    assert told[:2] == ["START 15", "INFO timeout_turn 300"] and told[6] == "ABOUT"
    assert told[7:9] == ["INFO time_left 2147483647", "BEGIN"]
    assert told.count("RESTART") == 1 and told.count("START 15") == 1


async def test_parlour_brain_follows_a_take_back_and_leaves_on_end(tmp_path: Path) -> None:
    """A person's take-back reaches the brain as TAKEBACK (each answered OK, else the
    engine would lose), the game goes on, and END ends the process within a second."""
    heard = tmp_path / "heard.txt"
    engine = EnginePlayer(listening(heard), seconds=0.3, tolerance=10)
    person = Undoer()
    refs = [spawn(person), spawn(engine)]
    start = parlour.game("gomoku", size=15).start()
    try:
        outcome = await run_game(start, refs, undo=True)
        assert outcome.reason == Reason.RULES and outcome.winner == 1
        assert person.undone
        process = engine._process
        deadline = time.monotonic() + BOUND
        while process is not None and process.poll() is None and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        assert process is None or process.poll() is not None
        told = heard.read_text().splitlines()
        assert told[0] == "START 15" and "INFO timeout_turn 300" in told
        takebacks = [line for line in told if line.startswith("TAKEBACK ")]
        assert len(takebacks) == 2 and told[-1] == "END"
    finally:
        for ref in refs:
            ref.stop()


class Undoer(RandomPlayer):
    """A random mover that takes back its turn once, on its third."""

    def __init__(self) -> None:
        super().__init__(seed=11)
        self.undone = False

    async def receive(self, message: object) -> None:
        from parlour.actors import Play, Undo

        match message:
            case Play(view) if view.turn == 3 and not self.undone:
                self.undone = True
                self.reply(Undo())
            case _:
                await super().receive(message)


def test_engine_specs_keep_the_path_and_split_the_arguments(tmp_path: Path) -> None:
    spec = parse_player(f"Engine:{sys.executable}:{BRAIN} 'good'")
    assert spec.command == (sys.executable, BRAIN, "good")
    assert str(spec) == f"engine:{sys.executable}:{BRAIN} good" and parse_player(str(spec)) == spec
    assert timed((spec, PlayerSpec("human")), 0.5)[0].seconds == 0.5
    engine = spec.build(None, "gomoku")
    assert isinstance(engine, EnginePlayer) and engine.seconds == ENGINE_SECONDS
    assert engine.memory == MAX_MEMORY
    for memory in (256, 0):
        spec = parse_player(f"engine@{memory}:{sys.executable}:{BRAIN} good")
        assert str(spec) == f"engine@{memory}:{sys.executable}:{BRAIN} good"
        assert parse_player(str(spec)) == spec
        engine = spec.build(None, "gomoku")
        assert isinstance(engine, EnginePlayer) and engine.memory == memory << 20
    script = tmp_path / "pbrain-text"
    script.write_text("not a program")
    for text, message in [
        ("engine:", "needs the engine's program"),
        ("engine", "needs its program"),
        (f"engine:{tmp_path / 'absent'}", "is not a program that can be run"),
        (f"engine:{script}", "is not a program that can be run"),
        (f"engine:{sys.executable}:'unclosed", "No closing quotation"),
        (f"engine@lots:{sys.executable}", "an engine's memory in MiB must be a whole number"),
        (f"engine@٢٥٦:{sys.executable}", "write numbers with the digits 0-9"),
        (f"engine@{'9' * 5000}:{sys.executable}", "must be at most 1048576"),
    ]:
        with pytest.raises(BadOption, match=message):
            parse_player(text)


def test_a_person_or_the_computer_plays_an_engine_from_the_command_line() -> None:
    args = ["--size", "9", "--players", f"computer:2,engine:{sys.executable}:{BRAIN} good"]
    result = CliRunner().invoke(main, ["play", "gomoku", *args, "--time", "0.2"])
    assert result.exit_code == 0, result.output
    assert result.output.rstrip().splitlines()[-1].startswith("Computer 1 wins: five in a row")
    assert brain_processes() == []
    wrong = CliRunner().invoke(main, ["play", "gomoku", "--players", "human,engine:/nowhere"])
    assert wrong.exit_code == 2 and "'/nowhere' is not a program" in wrong.output


async def test_a_game_ended_while_the_engine_thinks_kills_it_and_the_player_lives_on() -> None:
    """A resignation while the engine thinks: its move is not waited for, the engine is
    killed, and the player (which may play on with a new engine) has not crashed."""
    engine = spawn(EnginePlayer([sys.executable, BRAIN, "silent"], seconds=30, keep=True))
    other = spawn(RandomPlayer(seed=1))
    referee = spawn(Referee(parlour.game("gomoku").start(), [engine, other]))
    game = asyncio.ensure_future(referee.ask(StartGame()))
    deadline = time.monotonic() + 10
    while not brain_processes() and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    assert brain_processes()  # thinking (silently)
    referee.tell(Resign(1))
    outcome = await asyncio.wait_for(game, 5)
    assert (outcome.reason, outcome.winner) == (Reason.RESIGNED, 0)
    # The cancelled turn may finish all the same (asyncio.wait_for on Python 3.11), with
    # the engine killed under it: its late failure is no forfeit of the next game's.
    engine.tell(Piped("move", error=Forfeit(Reason.CRASHED, "the engine closed its input")))
    for _ in range(5):
        await asyncio.sleep(0)  # the actor's task takes the message
    deadline = time.monotonic() + 1
    while brain_processes() and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    assert brain_processes() == [] and engine.alive
    for ref in (engine, other, referee):
        ref.stop()


async def test_a_line_missed_after_the_engines_move_is_the_time_left_not_the_turn() -> None:
    """An engine that misses the line that follows its move (answering it ERROR) plays
    on: the turn comes after ``INFO time_left``, which is the line missed, and its ERROR
    is not taken for a move."""
    engine = EnginePlayer([sys.executable, BRAIN, "race"], seconds=0.5, tolerance=BOUND)
    outcome = await play(engine, seat=1, size=7)
    assert outcome.reason == Reason.RULES and len(outcome.moves) >= 9


async def test_an_engines_setting_up_is_its_starts_time_not_its_first_moves() -> None:
    """An engine that takes 2 s to set itself up after ``INFO max_memory`` (more than its
    move's time and tolerance) plays on: its start ends when it answers ABOUT."""
    engine = EnginePlayer([sys.executable, BRAIN, "slowstart"], seconds=0.5, tolerance=0.5)
    outcome = await play(engine, seat=0, size=7)
    assert outcome.reason == Reason.RULES and len(outcome.moves) >= 9


@pytest.mark.parametrize("mode", ["noabout", "lateabout"])
async def test_an_engine_that_answers_about_late_or_never_plays_on(
    monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    """An engine that gives no answer to ABOUT within its wait plays all the same, and
    its answer, should it come while it thinks of a move, is no move (Wine's build here
    never answers ABOUT, and forfeited every game after 30 s)."""
    monkeypatch.setattr(player, "ABOUT_SECONDS", 0.5)
    engine = EnginePlayer([sys.executable, BRAIN, mode], seconds=0.5, tolerance=BOUND)
    outcome = await play(engine, seat=0, size=7)
    assert outcome.reason == Reason.RULES and outcome.forfeit is None
    assert len(outcome.moves) >= 9
