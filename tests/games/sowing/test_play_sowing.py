"""``parlour play mancala`` in a pseudo-terminal: seed 001's screens, bad input, Ctrl-D, Ctrl-C."""

from __future__ import annotations

import pexpect
import pytest
from click.testing import CliRunner

from helpers import spawn_play, transcript
from parlour.cli import main

# Seed 001's sample screens, from "Welcome" to the second prompt, one seed paragraph a
# string (the seed's own spacing is lost in its text; the words and the boards are not).
SEED_001 = (
    "Welcome to the game of Mancala, where you are playing against a computer opponent.  "
    "Your holes are on the bottom row and you get to go first.",
    "-------------------------------------------",
    "A B C D E F ----------------------------- ----| 3 | 3 | 3 | 3 | 3 | 3 |---- | 0 | | 0 | "
    "----| 3 | 3 | 3 | 3 | 3 | 3 |---- ----------------------------- A B C D E F "
    "1. Select a move (A..F)-> D",
    "A B C D E F ----------------------------- ----| 3 | 3 | 3 | 3 | 3 | 3 |---- | 0 | | 1 | "
    "----| 3 | 3 | 3 | | 4 | 4 |---- ----------------------------- A B C D E F "
    "You get another move -> A",
    "A B C D E F ----------------------------- ----| 3 | 3 | 3 | 3 | 3 | 3 |---- | 0 | | 1 | "
    "----| | 4 | 4 | 1 | 4 | 4 |---- ----------------------------- A B C D E F "
    "Squares in column D are captured.",
    "A B C D E F ----------------------------- ----| 3 | 3 | 3 | | 3 | 3 |---- | 0 | | 5 | "
    "----| | 4 | 4 | | 4 | 4 |---- ----------------------------- A B C D E F",
    "------------------------------------------- Computer chooses C",
    "A B C D E F ----------------------------- ----| 4 | 4 | | | 3 | 3 |---- | 1 | | 5 | "
    "----| | 4 | 4 | | 4 | 4 |---- ----------------------------- A B C D E F "
    "Computer gets another move. Computer chooses F",
    "A B C D E F ----------------------------- ----| 4 | 4 | 1 | 1 | 4 | |---- | 1 | | 5 | "
    "----| | 4 | 4 | | 4 | 4 |---- ----------------------------- A B C D E F "
    "Squares in column C are captured.",
    "A B C D E F ----------------------------- ----| 4 | 4 | | 1 | 4 | |---- | 6 | | 5 | "
    "----| | 4 | | | 4 | 4 |---- ----------------------------- A B C D E F",
    "-------------------------------------------",
    "A B C D E F ----------------------------- ----| 4 | 4 | | 1 | 4 | |---- | 6 | | 5 | "
    "----| | 4 | | | 4 | 4 |---- ----------------------------- A B C D E F",
    "2. Select a move (A..F)->",
)
BOARD_WORDS = 2 * 6 + 2 * 7 + 2 * 7 + 4 + 2  # letters, two rows of cells, stores, rules


def words(text: str) -> list[str]:
    return text.replace("\r", "").split()


def spawn(*args: str) -> pexpect.spawn:
    return spawn_play("mancala", *args)


def boards(paragraphs: tuple[str, ...]) -> list[list[str]]:
    """The boards of the seed's screens, as word lists."""
    found = []
    for paragraph in paragraphs:
        w = paragraph.split()
        if w[:6] == list("ABCDEF"):
            found.append(w[: w.index("F", 6) + 1])
    return found


def test_the_default_game_reproduces_seed_001_word_for_word() -> None:
    child = spawn()
    child.expect_exact("1. Select a move (A..F)-> ")
    child.sendline("D")
    child.expect_exact("You get another move -> ")
    child.sendline("A")
    child.expect_exact("2. Select a move (A..F)-> ")
    assert words(transcript(child)) == words(" ".join(SEED_001))
    child.sendeof()
    child.expect_exact("Game abandoned: end of input.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1


def test_two_people_type_d_a_c_f_then_bad_input_is_explained_and_asked_again() -> None:
    child = spawn("--players", "human,human")
    for prompt, letter in [
        ("Player 1: 1. Select a move (A..F)-> ", "D"),
        ("Player 1 gets another move -> ", "A"),
        ("Player 2: 1. Select a move (A..F)-> ", "C"),
        ("Player 2 gets another move -> ", "F"),
    ]:
        child.expect_exact(prompt)
        child.sendline(letter)
    prompt = "Player 1: 2. Select a move (A..F)-> "
    child.expect_exact(prompt)
    seen = words(transcript(child))
    expected = boards(SEED_001)
    # Every board of the seed's screens, in order, and the two captures.
    at = 0
    for board in expected:
        at = next(i for i in range(at, len(seen)) if seen[i : i + len(board)] == board) + 1
    text = " ".join(seen)
    assert "Squares in column D are captured." in text
    assert "Squares in column C are captured." in text
    assert "Welcome to the game of Mancala, for two players." in text
    for typed, reason in [
        ("Z", "not a pit: type a letter A..F"),
        ("", "type a pit letter A..F"),
        ("A", "pit A is empty; choose a pit with seeds"),
        ("9", "no such pit: the pits are A..F"),
        ("B C", "not a pit: type a letter A..F"),
    ]:
        child.sendline(typed)
        child.expect_exact(reason)
        child.expect_exact(prompt)
    child.sendline("b")  # lower case is fine: B is sown
    child.expect_exact("Player 2: 2. Select a move (A..F)-> ")
    child.sendintr()
    child.expect_exact("Interrupted.")
    child.expect(pexpect.EOF)
    assert "Traceback" not in (child.before or "")
    child.close()
    assert child.exitstatus == 130


def test_a_whole_game_between_programs_ends_with_the_score() -> None:
    result = CliRunner().invoke(
        main, ["play", "kalah", "--players", "computer:2,random", "--seed", "7", "--pits", "4"]
    )
    assert result.exit_code == 0, result.output
    assert "Welcome to the game of Kalah, between two computer players." in result.output
    assert "A row is empty: the game is over" in result.output
    last = result.output.strip().splitlines()[-1]
    assert last.startswith("Final score: Computer 1 ") and "Computer 2" in last


def test_the_computer_can_move_first_and_the_person_keeps_the_bottom_row() -> None:
    child = spawn("--first", "computer", "--level", "1")
    said = "Your holes are on the bottom row and the computer goes first."
    child.expect(r"\s+".join(said.replace(".", r"\.").split()))  # folded where it is long
    child.expect_exact("|  3 |  3 |  3 |  3 |  3 |  3 |")  # the starting board, then its move
    child.expect_exact("Computer chooses ")
    child.expect_exact("1. Select a move (A..F)-> ")
    child.sendeof()
    child.expect(pexpect.EOF)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "human"], "give two players separated by a comma"),
        (["--players", "human,wizard"], "unknown player 'wizard'"),
        (
            ["--players", "computer:9,human"],
            "the computer's level must be at most 8, not 9",
        ),
        (["--players", "random:2,human"], "only the computer has a level"),
        (["--players", "human,human", "--first", "computer"], "--first needs one human"),
        (["--level", "0"], "Invalid value for '--level'"),
        (["--pits", "0"], "option pits must be at least 1"),
        (["-o", "empty_capture=maybe"], "option empty_capture must be true or false"),
    ],
)
def test_bad_options_are_refused_in_one_line(args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["play", "mancala", *args])
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_the_opening_names_the_commands_and_quit_leaves_the_game() -> None:
    child = spawn()
    child.expect_exact("(At any prompt, type help for the commands.)")
    child.expect_exact("1. Select a move (A..F)-> ")
    child.sendline("quit")
    child.expect_exact("You left the game.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_undo_against_the_computer_goes_back_to_before_the_persons_move() -> None:
    child = spawn_play("kalah", "--level", "1")
    child.expect_exact("1. Select a move (A..F)-> ")
    child.sendline("A")
    child.expect_exact("2. Select a move (A..F)-> ")
    child.sendline("undo")
    child.expect_exact("Your last turn is taken back.")
    child.expect_exact("1. Select a move (A..F)-> ")
    child.sendline("position")
    child.expect_exact("4,4,4,4,4,4/0/4,4,4,4,4,4/0 0")
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_quit_in_a_game_between_two_people_names_who_left() -> None:
    """ "You left the game." said nothing of who, with two people at the keyboard."""
    child = spawn("--players", "human,human")
    child.expect_exact("Player 1: 1. Select a move (A..F)-> ")
    child.sendline("b")
    child.expect_exact("Player 2: 1. Select a move (A..F)-> ")
    child.sendline("quit")
    child.expect_exact("Player 2 left the game.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
