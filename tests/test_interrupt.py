"""Ctrl-C while the computer thinks ends every ``parlour play`` game at once.

Each game seats two computers told to think a minute a move, so Ctrl-C lands in a search
that would otherwise run for a minute; the program must stop it and exit with the short
message, status 130 and no traceback, well before that minute is out.
"""

from __future__ import annotations

import pexpect
import pytest

from helpers import spawn_parlour
from parlour.kit import kit_of
from parlour.search import PERFECT

THINK = "60"  # seconds a move: far beyond the time allowed to exit below
EXIT_WITHIN = 20  # seconds: the test's bound for the exit, a third of a single think


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "opening"),
    [
        ("kalah", "between two computer players"),
        ("gomoku", "Five in a row"),
        ("ayo", "Welcome to Ayo"),
    ],
)
def test_ctrl_c_during_a_computer_move_exits_at_once(game: str, opening: str) -> None:
    top = max(level.number for level in kit_of(game).levels if level.number != PERFECT)
    args = ["play", game, "--players", f"computer:{top},computer:{top}", "--time", THINK]
    child = spawn_parlour(*args, timeout=180)
    child.expect(opening)  # the engine is warm: from here on, a computer is thinking
    child.sendintr()
    child.expect(pexpect.EOF, timeout=EXIT_WITHIN)
    child.close()
    assert child.exitstatus == 130
    assert "Interrupted: the game is abandoned." in child.before
    assert "Traceback" not in child.before


def test_ctrl_c_during_analyze_stops_the_search_and_exits() -> None:
    """A search to depth 60 would run for hours; Ctrl-C after its first depths ends it."""
    child = spawn_parlour("analyze", "kalah", "--depth", "60")
    child.expect("depth   5", timeout=180)
    child.sendintr()
    child.expect(pexpect.EOF, timeout=EXIT_WITHIN)
    child.close()
    assert child.exitstatus == 130
    assert "Interrupted." in child.before and "Traceback" not in child.before
