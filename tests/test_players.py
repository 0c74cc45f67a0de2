"""Players: the --players specs, the programs, the terminal player and the sowing screens."""

from __future__ import annotations

import asyncio
import io
import os
import threading
import time
from typing import Any

import pytest

import parlour
from parlour.actors import (
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
    run_game,
    spawn,
)
from parlour.actors.runtime import ActorStopped
from parlour.core import BadOption, State
from parlour.games.sowing.screen import SowingScreen
from parlour.kit import kit_of, warm_up
from parlour.players import machines
from parlour.players.keyboard import Keyboard
from parlour.players.machines import ComputerPlayer, RandomPlayer
from parlour.players.specs import PlayerSpec, parse_player, parse_players, seat_names
from parlour.players.terminal import CLEAR, GO_ON, Seat, TerminalPlayer
from parlour.rules_text import rendered, rules_text
from parlour.search import Stop
from parlour.search.minimax import best_move


def view_of(state: State, turn: int = 1, again: bool = False) -> View:
    return View(state, state.legal_moves(), turn, again)


MANCALA = parlour.game("mancala")


# --- specs -------------------------------------------------------------------------------


def test_player_specs_are_parsed_with_levels_and_defaults() -> None:
    assert parse_players("human,computer:5") == (PlayerSpec("human"), PlayerSpec("computer", 5))
    assert parse_players(" Random , COMPUTER ") == (PlayerSpec("random"), PlayerSpec("computer", 3))
    assert str(parse_player("computer:2")) == "computer:2" and str(parse_player("human")) == "human"
    assert isinstance(parse_player("computer:4").build(), ComputerPlayer)
    assert isinstance(parse_player("random").build(seed=1), RandomPlayer)
    with pytest.raises(ValueError, match="human seat has no program"):
        parse_player("human").build()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("human", "give two players separated by a comma"),
        ("human,human,human", "give two players"),
        ("human,robot", "unknown player 'robot'"),
        ("human,computer:", "level must be a whole number, not ''"),
        ("human,computer:x", "level must be a whole number, not 'x'"),
        ("human,computer:0", "level must be at least 1, not 0"),
        ("human,computer:9", "level must be at most 8, not 9"),
        ("human:3,random", "only the computer has a level"),
    ],
)
def test_bad_player_specs_name_the_problem(text: str, message: str) -> None:
    with pytest.raises(BadOption, match=message):
        parse_players(text)


def test_seats_are_named_like_the_seed_or_numbered_when_alike() -> None:
    h, c, r = PlayerSpec("human"), PlayerSpec("computer"), PlayerSpec("random")
    assert seat_names((h, c)) == ("You", "Computer")
    assert seat_names((c, h)) == ("Computer", "You")
    assert seat_names((h, h)) == ("Player 1", "Player 2")
    assert seat_names((c, r)) == ("Computer 1", "Computer 2")


# --- programs ----------------------------------------------------------------------------


async def test_the_computer_answers_its_levels_move() -> None:
    state = MANCALA.parse("0,4,4,0,4,4/5/3,3,3,0,3,3/0 1")
    for level, letter in [(1, "A"), (3, "C")]:
        answer = await spawn(ComputerPlayer(level)).ask(Play(view_of(state)), timeout=10)
        assert answer == Move(best_move(state, level)[0])
        assert state.move_name(answer.move) == letter
    with pytest.raises(ValueError, match="level must be 1 or more"):
        ComputerPlayer(0)


async def test_the_computer_thinks_off_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search waits for the event loop to release it: it can only be released if the
    loop goes on while the search runs in its thread (on the loop it would wait out its
    10 s and fail)."""
    started, released = threading.Event(), threading.Event()

    class Waiting:
        def best_move(self, state: State, stop: Stop, limit: Any = None) -> tuple[Any, int]:
            started.set()
            assert released.wait(10), "the event loop stood still while the search ran"
            return state.legal_moves()[0], 0

    monkeypatch.setattr(machines, "thinker", lambda *args: Waiting())
    asking = asyncio.ensure_future(
        spawn(ComputerPlayer(3)).ask(Play(view_of(MANCALA.start())), timeout=20)
    )
    deadline = time.monotonic() + 10
    while not started.is_set() and time.monotonic() < deadline:
        await asyncio.sleep(0.01)  # the loop runs: the search has not blocked it
    released.set()
    answer = await asking
    assert started.is_set() and answer.move in MANCALA.start().legal_moves()


async def test_the_computer_keeps_one_engine_and_a_game_over_stops_its_search() -> None:
    """Told to think a minute a move, the computer is stopped by GameOver (a resignation,
    an abort) within moments, answers with what it has, keeps its engine (and table) for
    the next move, and leaves no thread behind when it stops."""
    start = parlour.game("kalah").start()
    warm_up(start)  # compiling and the endgame table are no part of the stop's time
    computer = ComputerPlayer(8, seconds=60)
    ref = spawn(computer)
    engines = []
    for state in (start, start.play(2)):
        thinking = asyncio.ensure_future(ref.ask(Play(view_of(state)), timeout=20))
        await asyncio.sleep(0)  # the Play is in the mailbox ahead of the GameOver
        ref.tell(GameOver(Outcome(None, Reason.ABORTED, (0, 0), (), state, None, "test")))
        answer = await thinking
        assert answer.move in state.legal_moves()
        engines.append(computer._thinker.engine)  # type: ignore[union-attr]
    assert engines[0] is engines[1] is not None
    ref.stop()
    await ref.join()
    for thread in threading.enumerate():
        if thread.name == ref.name:
            thread.join(5)
    assert not any(thread.name == ref.name for thread in threading.enumerate())


async def test_random_players_play_legal_moves_and_replay_with_the_same_seed() -> None:
    async def game(seed: int) -> Outcome:
        players = [spawn(RandomPlayer(seed)), spawn(RandomPlayer(seed + 1))]
        return await run_game(parlour.game("kalah", pits=4).start(), players)

    first, second, other = await game(5), await game(5), await game(6)
    assert first.reason is Reason.RULES and first.final and first.final.is_over
    assert first.moves == second.moves
    assert first.moves != other.moves
    assert first.scores and sum(first.scores) == 2 * 4 * 4


# --- the terminal player -----------------------------------------------------------------


class Lines:
    """Typed lines for the terminal player, its prompts written to ``out``; None is the
    end of input."""

    def __init__(self, out: io.StringIO, *lines: str | None) -> None:
        self.out = out
        self.lines = list(lines)

    async def readline(self, prompt: str = "") -> str | None:
        self.out.write(prompt)
        return self.lines.pop(0)


SEATS = (Seat("You", True), Seat("Computer", False))


def terminal(*lines: str | None, clear: bool = False) -> tuple[Any, io.StringIO]:
    out = io.StringIO()
    ref = spawn(
        TerminalPlayer(SowingScreen(), SEATS, Lines(out, *lines), out, clear=clear, pause=0)
    )
    return ref, out


async def test_the_person_is_asked_again_after_bad_input_until_a_legal_move() -> None:
    ref, out = terminal("", "K", "9", "d")
    state = MANCALA.parse("0,4,4,4,3,3/0/3,3,3,3,3,3/0 0")
    answer = await ref.ask(Play(view_of(state)), timeout=2)
    assert answer == Move(3)
    text = out.getvalue()
    prompt = "1. Select a move (A..F)-> "
    assert text.count(prompt) == 4
    for reason in [
        "type a pit letter A..F",
        "not a pit: type a letter A..F",
        "no such pit: the pits are A..F",
    ]:
        assert f"{prompt}{reason}\n" in text
    assert text.startswith("\n" + "-" * 43 + "\n\n" + state.render() + "\n\n")


async def test_an_empty_pit_is_refused_and_an_extra_move_has_its_own_prompt() -> None:
    ref, out = terminal("A", "B")
    state = MANCALA.parse("0,4,4,4,3,3/0/3,3,3,3,3,3/0 0")
    answer = await ref.ask(Play(view_of(state, turn=2, again=True)), timeout=2)
    assert answer == Move(1)
    assert out.getvalue() == (
        "\nYou get another move -> pit A is empty; choose a pit with seeds\n"
        "\nYou get another move -> "
    )


async def test_the_end_of_input_stops_the_terminal_player() -> None:
    ref, _ = terminal(None)
    with pytest.raises(ActorStopped) as stopped:
        await ref.ask(Play(view_of(MANCALA.start())), timeout=2)
    assert stopped.value.reason == "end of input" and stopped.value.error is None
    assert not ref.alive


async def test_illegal_and_game_over_are_shown() -> None:
    ref, out = terminal()
    start = MANCALA.start()
    ref.tell(Illegal(7, "no such pit"))
    ref.tell(GameOver(Outcome(1, Reason.RULES, (10, 26), (), start)))
    ref.tell(GameOver(Outcome(0, Reason.TIME, (3, 0), (), start, 1, "ran out of time (5 s)")))
    ref.tell(GameOver(Outcome(None, Reason.RULES, (18, 18), (), start)))
    ref.stop()
    await ref.join()
    assert out.getvalue() == (
        "no such pit\n"
        f"\n{'-' * 43}\n\nFinal score: You 10, Computer 26. Computer wins.\n"
        f"\n{'-' * 43}\n\nComputer forfeits: ran out of time (5 s). You 3, Computer 0. You win!\n"
        f"\n{'-' * 43}\n\nFinal score: You 18, Computer 18. It is a draw.\n"
    )


def moved(state: State, move: int, turn: int = 1, again: bool = False) -> Moved:
    after, account = state.play_report(move)
    return Moved(state.to_move, move, state.move_name(move), state, after, account, turn, again)


async def test_with_clear_a_reply_stays_on_screen_until_enter_then_the_turn_is_cleared() -> None:
    ref, out = terminal("", "A", clear=True)
    state = MANCALA.parse("0,4,4,0,4,4/5/3,3,3,0,3,3/0 1")
    ref.tell(moved(state, 1))  # the computer's reply to the person's move
    after = moved(state, 1).after
    answer = await ref.ask(Play(view_of(after)), timeout=2)
    ref.stop()
    await ref.join()
    assert answer == Move(0)
    reply, _, turn = out.getvalue().partition(GO_ON)
    assert "Computer chooses B" in reply and CLEAR not in reply
    assert turn.startswith(CLEAR) and turn.count(CLEAR) == 1
    assert after.render() in turn


async def test_with_clear_and_only_programs_each_move_is_cleared_then_shown() -> None:
    out = io.StringIO()
    programs = (Seat("Player 1", False), Seat("Player 2", False))
    screen = TerminalPlayer(SowingScreen(), programs, Lines(out), out, clear=True, pause=0)
    ref = spawn(screen)
    state = MANCALA.parse("0,4,4,0,4,4/5/3,3,3,0,3,3/0 1")
    ref.tell(moved(state, 2))
    ref.stop()
    await ref.join()
    text = out.getvalue()
    assert text.startswith(CLEAR + "\n" + "-" * 43 + "\nPlayer 2 chooses C\n\n")
    assert text.endswith("\nPlayer 2 gets another move.\n")


async def test_the_end_of_a_game_shows_the_collection() -> None:
    ref, out = terminal()
    # Player 0 sows its last seed into its store: its row is empty, the game ends.
    state = MANCALA.parse("0,0,0,0,0,1/20/1,2,3,0,0,0/9 0")
    event = moved(state, 5)
    assert event.account.game_over and event.after.scores == (21, 15)
    ref.tell(event)
    ref.stop()
    await ref.join()
    text = out.getvalue()
    assert "A row is empty: the game is over" in text
    assert text.endswith(event.after.render() + "\n")
    assert "gets another move" not in text and "chooses" not in text


def test_the_opening_says_who_plays_which_row_and_who_goes_first() -> None:
    screen = SowingScreen()
    start = MANCALA.start()
    second = parlour.game("kalah").parse("4,4,4,4,4,4/0/4,4,4,4,4,4/0 1")
    assert screen.opening(start, SEATS) == (
        "Welcome to the game of Mancala, where you are playing against a computer opponent.  "
        "Your holes are on the bottom row and you get to go first.\n"
    )
    assert screen.opening(second, SEATS).endswith(
        "Your holes are on the bottom row and the computer goes first.\n"
    )
    assert screen.opening(second, SEATS[::-1]).startswith("Welcome to the game of Kalah,")
    assert "Your holes are on the top row and you get to go first." in screen.opening(
        second, SEATS[::-1]
    )
    two = (Seat("Player 1", True), Seat("Player 2", True))
    assert screen.opening(start, two) == (
        "Welcome to the game of Mancala, for two players.  Player 1's holes are on the bottom "
        "row, Player 2's on the top row, and Player 1 goes first.\n"
    )


def test_the_keyboard_reads_lines_from_a_descriptor_to_the_end() -> None:
    read_fd, write_fd = os.pipe()
    os.write(write_fd, b"D\nA\r\n\nlast")
    os.close(write_fd)

    async def lines() -> list[str | None]:
        keyboard = Keyboard(read_fd)
        return [await keyboard.readline() for _ in range(6)]

    try:
        assert asyncio.run(lines()) == ["D", "A", "", "last", None, None]
    finally:
        os.close(read_fd)


class Silent:
    """A keyboard nobody types on: it prompts on ``out``, says it was called, then waits
    for ever."""

    def __init__(self, out: io.StringIO) -> None:
        self.out = out
        self.asked = asyncio.Event()

    async def readline(self, prompt: str = "") -> str | None:
        self.out.write(prompt)
        self.asked.set()
        await asyncio.Event().wait()
        return None


async def test_a_game_ended_while_the_person_thinks_takes_the_question_back() -> None:
    out = io.StringIO()
    keyboard = Silent(out)
    person = TerminalPlayer(SowingScreen(), SEATS, keyboard, out)
    screen = spawn(person)
    referee = spawn(Referee(MANCALA.start(), [screen, spawn(ComputerPlayer(1))]))
    game = asyncio.ensure_future(referee.ask(StartGame()))
    await keyboard.asked.wait()  # the person is being asked
    referee.tell(Resign(1))
    outcome = await game
    assert (outcome.winner, outcome.reason) == (0, Reason.RESIGNED)
    screen.stop()  # after the GameOver already in its mailbox
    await screen.join()
    text = out.getvalue()
    assert text.endswith(
        f"(A..F)-> \n\n{'-' * 43}\n\nComputer resigns. You 0, Computer 0. You win!\n"
    )
    assert person._question is not None and person._question.cancelled()


async def test_commands_at_the_prompt_are_answered_and_the_prompt_comes_back() -> None:
    ref, out = terminal("help", " Rules ", "position", "D")
    state = MANCALA.parse("0,4,4,4,3,3/0/3,3,3,3,3,3/0 0")
    answer = await ref.ask(Play(view_of(state)), timeout=2)
    assert answer == Move(3)
    text = out.getvalue()
    assert text.count("1. Select a move (A..F)-> ") == 4
    assert "Type a move as the prompt asks (for example B), or a command:" in text
    assert "  rules     the rules of mancala\n" in text
    assert rendered(rules_text("mancala")) in text
    assert f"-> {state.notation()}\n" in text


@pytest.mark.parametrize("word", ["quit", "Exit", "q"])
async def test_quit_stops_the_terminal_player_as_the_person_leaving(word: str) -> None:
    ref, _ = terminal(word)
    with pytest.raises(ActorStopped) as stopped:
        await ref.ask(Play(view_of(MANCALA.start())), timeout=2)
    assert stopped.value.reason == "quit" and stopped.value.error is None


async def test_a_hint_is_the_engines_move_with_its_value() -> None:
    ref, out = terminal("hint", "C")
    state = parlour.game("kalah").start()
    assert await ref.ask(Play(view_of(state)), timeout=60) == Move(2)
    hint = next(line for line in out.getvalue().splitlines() if line.startswith("Hint: "))
    name, value = hint.removeprefix("Hint: ").split(" (value ")
    assert (
        state.parse_move(name) in state.legal_moves() and value.rstrip(")").lstrip("+-").isdigit()
    )


async def test_undo_at_the_prompt_asks_the_referee_and_the_screen_says_so() -> None:
    ref, out = terminal("undo")
    assert await ref.ask(Play(view_of(MANCALA.start())), timeout=2) == Undo()
    ref.tell(TakenBack(0, MANCALA.start(), 0))
    ref.stop()
    await ref.join()
    assert out.getvalue().endswith("\nYour last turn is taken back.\n")


def test_long_lines_of_prose_are_folded_and_short_ones_kept() -> None:
    from parlour.players.screen import wrapped

    welcome = "word " * 40
    board = "|  4 |" * 10
    text = wrapped(f"{welcome.strip()}\n{board}\n", width=60)
    lines = text.split("\n")
    assert all(len(line) <= 60 for line in lines[:-2]) and len(lines) > 3
    assert lines[-2] == board and lines[-1] == ""
    assert text.split() == (welcome + board).split()


async def test_a_capture_that_ends_the_game_says_both_before_the_last_board() -> None:
    ref, out = terminal()
    state = MANCALA.parse("0,0,0,0,1,0/20/1,2,3,0,0,3/6 0")  # E's seed captures F's: row empty
    event = moved(state, 4)
    assert event.account.capture_column == 5 and event.account.game_over
    ref.tell(event)
    ref.stop()
    await ref.join()
    text = out.getvalue()
    captured = text.index("Squares in column F are captured.\n")
    over = text.index("\nA row is empty: the game is over")
    assert captured < over and text.endswith(f"\n{event.after.render()}\n")
    assert text.count(event.after.render()) == 1


@pytest.mark.parametrize(
    ("name", "screen", "noticed"),
    [
        ("mancala", "SowingScreen", False),
        ("kalah", "SowingScreen", False),
        ("ayo", "AyoScreen", True),
        ("gomoku", "GomokuScreen", False),
    ],
)
def test_each_board_game_names_its_screen_and_its_referees_notices(
    name: str, screen: str, noticed: bool
) -> None:
    from parlour.players.screen import BoardScreen

    kit = kit_of(name)
    shown = kit.screen(name)
    assert isinstance(shown, BoardScreen) and type(shown).__name__ == screen
    assert (kit.notices is not None) == noticed


def test_war_has_no_board_screen_to_replay_on() -> None:
    with pytest.raises(BadOption, match="war has no screen of its own"):
        kit_of("war").screen("war")


def test_the_computer_on_a_clock_takes_a_share_of_its_time_never_half_of_it() -> None:
    from parlour.search.limit import Limit

    start = MANCALA.start()
    moves = start.legal_moves()
    assert machines.on_clock(Limit(), view_of(start)) == Limit()  # no clock: its own time
    roomy = View(start, moves, 1, False, (60.0, 60.0), 3.0)
    assert machines.on_clock(Limit(), roomy).seconds == pytest.approx(60 / 20 + 3)
    assert machines.on_clock(Limit(seconds=1.0), roomy).seconds == 1.0  # its own is shorter
    short = View(start, moves, 1, False, (1.0, 60.0), 3.0)
    assert machines.on_clock(Limit(), short).seconds == 0.5  # never more than half its time
