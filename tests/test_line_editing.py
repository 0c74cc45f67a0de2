"""The prompt at a terminal edits lines and keeps their history (readline), and gives the
terminal back as it found it however the game ends."""

from __future__ import annotations

import pexpect
import pytest

from helpers import PARLOUR, default_ctrl_c, spawn_play

pytestmark = pytest.mark.slow

LEFT, UP = "\x1b[D", "\x1b[A"
START = "4,4,4,4,4,4/0/4,4,4,4,4,4/0 0"


def test_arrow_keys_edit_the_line_and_bring_back_the_last_one() -> None:
    child = spawn_play("kalah", "--players", "human,human")
    child.expect_exact("-> ")
    child.send(f"elp{LEFT * 3}h\r")  # "help", its first letter put in last
    child.expect_exact("Type a move as the prompt asks")
    child.expect_exact("-> ")
    child.send("position\r")
    child.expect_exact(f"{START}\r\n")
    child.expect_exact("-> ")
    child.send(f"{UP}\r")  # the line before: position again
    child.expect_exact(f"{START}\r\n")
    child.expect_exact("-> ")
    child.sendeof()
    child.expect(pexpect.EOF)


@pytest.mark.parametrize("leave", ["ctrl-c", "quit"])
def test_the_terminal_is_given_back_as_found(leave: str) -> None:
    """``stty`` after the game shows echo and whole lines on, however the game ended (the
    shell outlives Ctrl-C by its trap; the game gets the signal at its default)."""
    command = f"trap : INT; {PARLOUR} play kalah --players human,human; stty -a"
    child = pexpect.spawn(
        "sh", ["-c", command], encoding="utf-8", timeout=60, preexec_fn=default_ctrl_c
    )
    child.expect_exact("-> ")
    if leave == "ctrl-c":
        child.sendintr()
    else:
        child.sendline("quit")
    child.expect_exact("speed")  # stty's first line
    child.expect(pexpect.EOF)
    settings = child.before.split()
    assert "icanon" in settings and "echo" in settings
    assert "-icanon" not in settings and "-echo" not in settings
