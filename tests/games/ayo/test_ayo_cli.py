"""``parlour play ayo`` in a pseudo-terminal, its options, ``parlour perft ayo``, and the
Referee's ``Stoned`` messages."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pexpect
from click.testing import CliRunner

import parlour
from parlour.actors import Actor, Move, Moved, Play, spawn
from parlour.actors.referee import run_game
from parlour.cli import main
from parlour.games.ayo.game import AyoState
from parlour.games.ayo.notices import Stoned, stoned_notices
from parlour.games.ayo.screen import AyoScreen
from parlour.kit import kit_of
from parlour.players.screen import Seat

PARLOUR = str(Path(sys.executable).parent / "parlour")


def words(text: str) -> list[str]:
    return text.replace("\r", "").split()


def test_two_people_play_the_first_moves() -> None:
    start = parlour.game("ayo", first=0).start()
    assert isinstance(start, AyoState)
    child = pexpect.spawn(
        PARLOUR,
        ["play", "ayo", "--players", "human,human", "-o", "first=0"],
        encoding="utf-8",
        timeout=60,
    )
    child.setwinsize(50, 120)
    child.expect_exact("Welcome to Ayo.  Player 1 owns houses 0-5 (the bottom row)")
    child.expect_exact("Player 1: 1. Choose a house (0, 1, 2, 3, 4, 5)-> ")
    seats = [Seat("Player 1", True), Seat("Player 2", True)]
    board = kit_of("ayo").screen("ayo").board
    shown = words(board(start, seats))
    assert shown == words(child.before)[-len(shown) :] and "P1" not in shown
    child.sendline("7")
    child.expect_exact("house 7 belongs to the other player")
    child.sendline("x")
    child.expect_exact("type the number of one of your houses, 0..11")
    child.sendline("0")
    child.expect_exact("Player 1 sows house 0.")
    child.expect_exact(
        "The last token fell in house 4: its 5 tokens are taken up and sown on, "
        "then house 9 (5), then house 2 (6), then house 8 (6)."
    )
    child.expect_exact("Player 2: 1. Choose a house (6, 7, 9, 10, 11)-> ")
    assert " ".join(words(board(start.play(0), seats))) in " ".join(words(child.before))
    child.sendline("7")
    child.expect_exact("Player 2 sows house 7.")
    child.expect_exact("The last token made four in house 0: Player 2 takes them.")
    child.expect_exact("Player 1: 2. Choose a house")
    assert "Player 2 captured  4" in child.before
    child.sendeof()
    child.expect_exact("Game abandoned: end of input.")
    child.expect(pexpect.EOF)


def test_bad_options_are_refused_in_one_line() -> None:
    runner = CliRunner()
    for args, message in [
        (["--players", "human"], "give two players"),
        (["--max-rounds", "0"], "0"),
        (["-o", "first=2"], "option first must be at most 1"),
        (["--players", "human,human", "--first", "human"], "one human and one computer"),
    ]:
        result = runner.invoke(main, ["play", "ayo", *args])
        assert result.exit_code == 2 and message in result.output
        assert "Traceback" not in result.output


def test_perft_command_counts_ayo() -> None:
    result = CliRunner().invoke(main, ["perft", "ayo", "4", "-o", "first=0"])
    assert result.exit_code == 0
    assert "638" in result.output.splitlines()


class FirstMover(Actor):
    """Plays the first legal move and adds up the Stoned messages it is told."""

    def __init__(self) -> None:
        self.stones: list[int] = []

    async def receive(self, message: Any) -> None:
        match message:
            case Play(view):
                self.reply(Move(view.legal_moves[0]))
            case Stoned(count):
                self.stones.append(count)


async def test_the_referee_stones_every_capture_of_a_round() -> None:
    players = [FirstMover(), FirstMover()]
    refs = [spawn(p) for p in players]
    start = parlour.game("ayo", first=1, max_rounds=1).start()
    result = await run_game(start, refs)  # the Referee asks the game for its notices
    for ref in refs:
        ref.stop()
    assert result.final and result.final.is_over and result.scores
    assert [sum(p.stones) for p in players] == list(result.scores)
    assert sum(result.scores) == 48 and all(c > 0 for p in players for c in p.stones)


def test_stoned_goes_to_the_owner_who_captures_on_the_opponents_turn() -> None:
    state = parlour.game("ayo").parse("0,4,1,0,3,0,3,0,0,0,1,0 000000111111 20,16 0 1 0 -")
    after, report = state.play_report(4)
    event = Moved(0, 4, "4", state, after, report, 1, False)
    assert stoned_notices(event) == [(1, Stoned(4))]


def screen_text(text: str, move: int, seats: tuple[Seat, Seat]) -> str:
    state = parlour.game("ayo").parse(text)
    after, report = state.play_report(move)
    return AyoScreen().moved(
        Moved(state.to_move, move, str(move), state, after, report, 1, False), seats
    )


def test_the_screen_tells_passes_and_the_round_summary() -> None:
    people = (Seat("Player 1", True), Seat("Player 2", True))
    passing = screen_text("1,0,0,7,0,0,0,0,0,0,0,0 000000111111 20,20 0 1 0 -", 0, people)
    assert "Player 2 has no legal move: the turn passes." in passing
    assert "Round 1 (started by Player 1), Player 1 to move" in passing  # the board again
    ending = screen_text("3,3,0,0,0,0,0,0,2,0,0,0 000000111111 20,20 0 1 0 -", 0, people)
    assert "House 1 made four: Player 1 takes them, as its owner." in ending
    assert "That was the eleventh group: Player 1 takes the last four tokens too." in ending
    assert "Player 1 holds 28 tokens, Player 2 20." in ending
    assert (
        "Round 2: Player 1 owns 7 houses (0-6) and Player 2 owns 5 houses (7-11); "
        "Player 2 starts." in ending
    )
    duel = (Seat("You", True), Seat("Computer", False))
    owner = screen_text("0,4,1,0,3,0,3,0,0,0,1,0 000000111111 20,16 0 1 0 -", 4, duel)
    assert "You sow house 4." in owner
    assert "House 6 made four: Computer takes them, as its owner, on the other player's turn." in (
        owner
    )


def test_an_option_set_twice_is_refused_naming_both() -> None:
    from click.testing import CliRunner

    from parlour.cli import main

    result = CliRunner().invoke(main, ["play", "ayo", "-o", "first=1", "--first", "human"])
    assert result.exit_code == 2
    assert "-o 'first=1' and --first both set first: give one" in result.output


def test_the_screen_names_the_players_one_way() -> None:
    from parlour.actors import View
    from parlour.games.ayo.screen import AyoScreen
    from parlour.players.screen import Seat

    start = parlour.game("ayo", first=0).start()
    seats = (Seat("You", True), Seat("Computer", False))
    screen = AyoScreen()
    opening = screen.opening(start, seats)
    assert opening.startswith("Welcome to Ayo.  You own houses 0-5 (the bottom row), Computer")
    turn = screen.turn(View(start, start.legal_moves(), 1, False), seats)
    assert "Round 1 (started by You), You to move" in turn
    assert "Computer captured  0" in turn and "You captured  0" in turn
    assert "Player" not in opening + turn
