"""A first start never leaves a person in silence and shows the first prompt early (issue
43): ``make play``'s setting up ticks through pip's silences (``scripts/ticking.py``), and
the computer's engine warms up behind the first prompt while the person thinks, the move
the computer answers waiting for it with a line that says how far it is."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from unittest import mock

import pexpect
import pytest

import parlour
from helpers import PARLOUR, default_ctrl_c
from parlour.actors import Play, spawn
from parlour.games.sowing.screen import SowingScreen
from parlour.players import terminal
from parlour.players.terminal import Seat, TerminalPlayer
from test_players import SEATS, Lines, view_of

ROOT = Path(__file__).resolve().parents[1]
MANCALA = parlour.game("mancala")


class Warming:
    """A warm-up behind the game that is done once asked ``calls`` times."""

    def __init__(self, calls: int) -> None:
        self.calls = calls
        self.asked = 0

    def ready(self) -> bool:
        self.asked += 1
        return self.asked > self.calls

    def words(self) -> str:
        return f"the computer is still warming up: {self.asked} kernels compiled"


def waiting(warming: Warming, *lines: str) -> tuple[Any, io.StringIO]:
    out = io.StringIO()
    player = TerminalPlayer(SowingScreen(), SEATS, Lines(out, *lines), out, warming=warming)
    return spawn(player), out


async def test_a_move_the_computer_answers_waits_for_its_warm_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The move is handed on only once the warm-up is done (the computer's clock would
    otherwise count its compiling), the screen saying so once where it is no terminal."""
    monkeypatch.setattr(terminal, "TICK", 0)
    warming = Warming(3)
    ref, out = waiting(warming, "B")
    answer = await ref.ask(Play(view_of(MANCALA.start())), timeout=10)
    assert answer.move == 1 and warming.asked == 4
    assert out.getvalue().count("the computer is still warming up: 1 kernels compiled...\n") == 1


async def test_a_move_that_gives_the_person_another_does_not_wait(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(terminal, "TICK", 0)
    warming = Warming(3)
    ref, out = waiting(warming, "D")  # 3 seeds from D: the last into the store
    answer = await ref.ask(Play(view_of(MANCALA.start())), timeout=10)
    assert answer.move == 3 and warming.asked == 0 and "warming" not in out.getvalue()


async def test_between_two_people_nothing_waits() -> None:
    warming = Warming(10**9)  # never ready: a wait would never end
    out = io.StringIO()
    people = (Seat("Player 1", True), Seat("Player 2", True))
    ref = spawn(TerminalPlayer(SowingScreen(), people, Lines(out, "B"), out, warming=warming))
    answer = await ref.ask(Play(view_of(MANCALA.start())), timeout=10)
    assert answer.move == 1 and warming.asked == 0


TICKING = [sys.executable, str(ROOT / "scripts" / "ticking.py"), "pip is at work"]
QUIET_STEP = ["sh", "-c", "echo one; sleep 2.5; echo two; exit 3"]
"""A step that says a line, is silent for 2.5 s, says another and fails."""


def test_a_silent_step_of_the_setting_up_ticks_until_it_speaks_again() -> None:
    child = pexpect.spawn(TICKING[0], [*TICKING[1:], *QUIET_STEP], encoding="utf-8", timeout=30)
    child.expect(pexpect.EOF)
    child.close()
    said = child.before
    assert child.exitstatus == 3
    one, two = said.index("one"), said.index("two")
    ticks = [said.find(f"\rpip is at work: {n} s\x1b[K") for n in (1, 2)]
    assert all(one < tick < two for tick in ticks), repr(said)
    assert said[two - 4 : two] == "\r\x1b[K"  # the tick wiped before the step speaks


def test_elsewhere_than_a_terminal_the_step_runs_as_it_is() -> None:
    done = subprocess.run([*TICKING, *QUIET_STEP], capture_output=True, text=True, timeout=30)
    assert (done.returncode, done.stdout) == (3, "one\ntwo\n")


@pytest.mark.slow
def test_a_first_start_prompts_before_the_engine_is_ready_and_the_reply_waits_for_it(
    tmp_path: Path,
) -> None:
    """With no compiled kernel cached, the board and the prompt come once the rules are
    compiled; the computer's engine (level 4: compiled kernels) warms up behind them, and
    the person's first move is answered once it is ready, the screen saying how far."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "PARLOUR_CACHE_DIR": str(tmp_path)}
    child = pexpect.spawn(
        PARLOUR,
        ["play", "kalah", "--level", "4"],
        env=env,
        encoding="utf-8",
        timeout=300,
        preexec_fn=default_ctrl_c,
    )
    child.expect(r"warming up the game: ready in")
    child.expect_exact("Select a move (A..F)-> ")
    assert "warming up the engine" not in child.before
    child.sendline("A")
    child.expect(r"the computer is still warming up[^\r]* (\d+) kernels? compiled")
    child.expect("Computer chooses")
    child.expect_exact("-> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.slow
def test_the_first_start_benchmark_times_each_start_to_its_prompt() -> None:
    """``benchmarks/first_start.py --quick``: ``play`` to its prompt twice, each with its
    timeline and Ctrl-C there, and the brain's answers."""
    from test_benchmarks import quick

    _, figures = quick("first_start")
    for start in ("make play", "make play, second start"):
        timed = figures[start]
        assert all(first <= last <= timed["prompt"] for first, last, _ in timed["phases"])
        assert 0 <= timed["longest silence"] <= timed["prompt"]
        assert timed["ctrl-c"]["status"] == 130
    assert 0 < figures["pbrain"]["about"] <= figures["pbrain"]["start ok"]
    assert len(figures["load"]) == 2


@pytest.mark.parametrize(
    ("args", "behind"),
    [
        (["play", "kalah", "--level", "4"], True),
        (["play", "kalah", "--level", "4", "--first", "computer"], False),
        (["play", "kalah", "--players", "human,human"], False),
        (["play", "gomoku", "--level", "2"], True),
        (["play", "gomoku", "--level", "2", "--first", "computer"], False),  # seats swapped
    ],
)
def test_the_engine_warms_up_behind_the_prompt_only_where_a_person_moves_first(
    args: list[str], behind: bool
) -> None:
    """Where a program moves first its engine is ready before the game (its clock would
    count the compiling); between people there is nothing to warm up."""
    from click.testing import CliRunner

    from parlour.cli import main
    from parlour.cli._common import Behind

    given: dict[str, Any] = {}

    def play(*_: Any, warming: Any = None, **__: Any) -> int:
        given["warming"] = warming
        return 0

    with mock.patch("parlour.players.terminal.play_in_terminal", play):
        result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert isinstance(given["warming"], Behind) == behind
    if behind:
        deadline = time.monotonic() + 120
        while not given["warming"].ready() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert given["warming"].ready()


def test_a_warm_up_behind_that_fails_fails_where_the_game_waits_for_it() -> None:
    from parlour.cli._common import Behind

    def fail() -> None:
        raise OSError("no room for the table")

    behind = Behind(fail)
    deadline = time.monotonic() + 10
    with pytest.raises(OSError, match="no room"):
        while time.monotonic() < deadline:
            behind.ready()
    assert behind.words().startswith("the computer is still warming up")
