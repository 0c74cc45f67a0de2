"""Bad input typed at the prompt of each terminal game (issue 19): other scripts' digits,
a sign, an empty line, a huge number, a wrong letter.  Each is explained in one line and
the same prompt comes back; then a legal move is played as usual."""

from __future__ import annotations

import os
import subprocess

import pexpect
import pytest

from helpers import PARLOUR, default_ctrl_c, spawn_play

HUGE = "9" * 100
"""A number far beyond 64 bits (a pseudo-terminal's line holds 4095 characters at most)."""
FOREIGN = "; write numbers with the digits 0-9"
SIGNED = "; write numbers without a sign (none here is negative)"

KALAH = "type a letter A..F"
AYO = "type the number of one of your houses, 0..11"
GOMOKU = "type a column letter A..I and a row number 1..9, like E5"


@pytest.mark.parametrize(
    ("game", "args", "prompt", "typed", "move"),
    [
        (
            "kalah",
            [],
            "Player 1: 1. Select a move (A..F)-> ",
            [
                ("²", f"not a pit: {KALAH}{FOREIGN}"),
                ("٣", f"not a pit: {KALAH}{FOREIGN}"),
                ("４", f"not a pit: {KALAH}{FOREIGN}"),
                ("+4", f"not a pit: {KALAH}{SIGNED}"),
                ("", "type a pit letter A..F"),
                (HUGE, "no such pit: the pits are A..F"),
                ("Z", f"not a pit: {KALAH}"),
            ],
            ("a", "Player 2: 1. Select a move (A..F)-> "),
        ),
        (
            "ayo",
            ["-o", "first=0"],
            "Player 1: 1. Choose a house (0, 1, 2, 3, 4, 5)-> ",
            [
                ("²", f"{AYO}{FOREIGN}"),
                ("٣", f"{AYO}{FOREIGN}"),
                ("-0", f"{AYO}{SIGNED}"),
                ("", AYO),
                (HUGE, AYO),
                ("x", AYO),
                ("7", "house 7 belongs to the other player"),
            ],
            ("0", "Player 2: 1. Choose a house (6, 7, 9, 10, 11)-> "),
        ),
        (
            "gomoku",
            ["--size", "9"],
            "Player 1: 1. Your move, X (A1..I9)-> ",
            [
                ("E²", f"not a point: {GOMOKU}{FOREIGN}"),
                ("٣", f"not a point: {GOMOKU}{FOREIGN}"),
                ("E+4", f"not a point: {GOMOKU}{SIGNED}"),
                ("", GOMOKU),
                (f"E{HUGE}", f"no such point on this board: {GOMOKU}"),
                ("Z5", f"no such point on this board: {GOMOKU}"),
                ("ñ5", f"not a point: {GOMOKU}"),
            ],
            ("e5", "Player 2: 1. Your move, 0 (A1..I9)-> "),
        ),
    ],
)
def test_bad_input_is_explained_and_asked_again(
    game: str,
    args: list[str],
    prompt: str,
    typed: list[tuple[str, str]],
    move: tuple[str, str],
) -> None:
    child = spawn_play(game, "--players", "human,human", *args)
    child.expect_exact(prompt)
    for text, explanation in typed:
        child.sendline(text)
        child.expect_exact(f"{explanation}\r\n{prompt}")
    legal, answer = move
    child.sendline(legal)
    child.expect_exact(answer)
    child.sendeof()
    child.expect_exact("Game abandoned: end of input.")
    child.expect(pexpect.EOF)
    assert "Traceback" not in (child.logfile_read.getvalue() if child.logfile_read else "")
    child.close()
    assert child.exitstatus == 1


NOT_TEXT = "That line has bytes that are not text (ff): type it again."
KALAH_PROMPT = "Player 1: 1. Select a move (A..F)-> "


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8:surrogateescape"])
def test_bytes_that_are_not_text_are_named_and_asked_again(encoding: str) -> None:
    """At a terminal whose stdin decodes strictly (PYTHONIOENCODING=utf-8, as a UTF-8
    locale gives) the line editor once died on the byte 0xFF and the prompt never came
    back; now the bytes are named and the prompt comes back."""
    child = pexpect.spawn(
        PARLOUR,
        ["play", "kalah", "--players", "human,human"],
        timeout=60,
        preexec_fn=default_ctrl_c,
        env={**os.environ, "PYTHONIOENCODING": encoding},
    )
    child.expect_exact(KALAH_PROMPT.encode())
    child.send(b"\xff\xfe\r")
    if encoding == "utf-8":
        child.expect_exact(f"{NOT_TEXT}\r\n".encode())
    child.expect_exact(KALAH_PROMPT.encode())
    child.send(b"a\r")
    child.expect_exact(b"Player 2: 1.")
    child.sendeof()
    child.expect(pexpect.EOF)
    assert b"Traceback" not in child.before


def test_bytes_that_are_not_text_from_a_pipe_are_named_and_asked_again() -> None:
    typed = b"\xff\xfe\na\nquit\n"
    result = subprocess.run(
        [PARLOUR, "play", "kalah", "--players", "human,human"],
        input=typed,
        capture_output=True,
        timeout=60,
        check=False,
    )
    out = result.stdout.decode()
    assert f"{KALAH_PROMPT}{NOT_TEXT}\n{KALAH_PROMPT}" in out and "Player 2: 1." in out
    assert result.returncode == 0 and b"Traceback" not in result.stderr
