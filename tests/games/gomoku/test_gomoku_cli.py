"""``parlour play gomoku`` in a pseudo-terminal: coordinates, bad input asked again, the
last stone and the five marked, the computer's games."""

from __future__ import annotations

import pexpect
from click.testing import CliRunner

from helpers import spawn_parlour, spawn_play
from parlour.cli import main


def spawn(*args: str) -> pexpect.spawn:
    return spawn_play("gomoku", *args, timeout=90)


def test_two_people_play_to_a_five_through_bad_input() -> None:
    child = spawn("--size", "7", "--players", "human,human")
    child.expect_exact("X, moving first: Player 1; 0: Player 2")
    child.expect_exact("     A  B  C  D  E  F  G\r\n  7  .  .  .  .  .  .  .  7")
    for x, o in zip(["A1", "B1", "C1", "D1"], ["A2", "B2", "C2", "D2"], strict=True):
        child.expect_exact("Player 1: ")
        child.sendline(x)
        child.expect_exact("[X]")
        child.expect_exact("Player 2: ")
        child.sendline(o)
    child.expect_exact("Player 1: 5. Your move, X (A1..G7)-> ")
    child.sendline("Z9")
    child.expect_exact("no such point on this board: type a column letter A..G")
    child.sendline("b2")
    child.expect_exact("point B2 is taken")
    child.sendline("hello")
    child.expect_exact("not a point")
    child.sendline("E1")
    child.expect_exact("  1 (X)(X)(X)(X)(X) .  .  1")
    child.expect_exact("Player 1 wins: five in a row for X!")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_the_computer_answers_and_shows_its_stone() -> None:
    child = spawn("--size", "9", "--level", "2")
    child.expect_exact("1. Your move, X (A1..I9)-> ")
    child.sendline("E5")
    child.expect(r"Computer plays 0 at ([A-I][1-9])\.")
    child.expect_exact("2. Your move, X (A1..I9)-> ")
    assert "[0]" in child.before
    child.sendeof()
    child.expect(pexpect.EOF)


def test_first_computer_gives_the_computer_x() -> None:
    child = spawn("--size", "9", "--level", "1", "--first", "computer")
    child.expect(r"Computer plays X at ([A-I][1-9])\.")
    child.expect_exact("Your move, 0 (A1..I9)-> ")
    child.sendeof()
    child.expect(pexpect.EOF)


def test_two_computers_finish_a_game() -> None:
    result = CliRunner().invoke(
        main, ["play", "gomoku", "--size", "7", "--players", "computer:1,computer:2"]
    )
    assert result.exit_code == 0
    last = result.output.rstrip().splitlines()[-1]
    assert last in {"The board is full: it is a draw."} or "wins: five in a row" in last


def test_bad_options_are_one_line_errors() -> None:
    for args, message in [
        (["--size", "4"], "option size must be at least 5, not 4"),
        (["--size", "27"], "option size must be at most 26, not 27"),
        (["--level", "9"], "Invalid value for '--level'"),
        (["--first", "human", "--players", "human,human"], "--first needs one human"),
    ]:
        result = CliRunner().invoke(main, ["play", "gomoku", *args])
        assert result.exit_code == 2 and message in result.output
        assert "Traceback" not in result.output


def test_analyze_searches_a_gomoku_position_and_names_games_without_an_engine() -> None:
    import parlour

    state = parlour.game("gomoku", size=9).start()
    for point in ("E5", "F6", "D4"):
        state = state.play(state.parse_move(point))
    args = ["analyze", "gomoku", state.notation(), "-o", "size=9", "--depth", "2"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert [line.split()[1] for line in lines if line.startswith("depth")] == ["1", "2"]
    best = next(line for line in lines if line.startswith("best move")).split()[2]
    assert state.parse_move(best) in state.legal_moves()
    war = CliRunner().invoke(main, ["analyze", "war"])
    assert war.exit_code == 2
    assert "no engine analyses war; the engines play ayo, gomoku, kalah, mancala" in war.output


def test_a_computer_thinking_more_than_half_a_second_is_said_with_its_time() -> None:
    child = spawn_parlour("play", "gomoku", "--size", "9", "--players", "computer:3,computer:3")
    child.expect_exact("Computer 2 is thinking...")  # X's first stone is instant, 0's is not
    child.expect(r" (\d+\.\d) s\r\n")
    assert float(child.match.group(1)) >= 0.5
    child.sendintr()
    child.expect(pexpect.EOF)
