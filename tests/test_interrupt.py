"""Ctrl-C while the computer thinks ends every ``parlour play`` game at once.

Each game seats two computers told to think a minute a move, so Ctrl-C lands in a search
that would otherwise run for a minute; the program must stop it and exit with the short
message, status 130 and no traceback, well before that minute is out.
"""

from __future__ import annotations

import io
import os
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pexpect
import pytest

from helpers import PARLOUR, default_ctrl_c, spawn_parlour

THINK = "60"  # seconds a move: far beyond the time allowed to exit below
EXIT_WITHIN = 20  # seconds: the test's bound for the exit, a third of a single think


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "level", "opening"),
    [
        ("kalah", 8, "between two computer players"),
        ("gomoku", 6, "Five in a row"),
        ("ayo", 8, "Welcome to Ayo"),
    ],
)
def test_ctrl_c_during_a_computer_move_exits_at_once(game: str, level: int, opening: str) -> None:
    players = f"computer:{level},computer:{level}"
    args = ["play", game, "--players", players, "--time", THINK]
    child = spawn_parlour(*args, timeout=180)
    child.expect(opening)  # the engine is warm: from here on, a computer is thinking
    child.sendintr()
    child.expect(pexpect.EOF, timeout=EXIT_WITHIN)
    child.close()
    assert child.exitstatus == 130
    assert "Interrupted." in child.before and "Aborted" not in child.before
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


def spawn_cold(tmp_path: Path, *args: str) -> pexpect.spawn:
    """``parlour ARGS`` in a pseudo-terminal as on a fresh clone: no compiled kernel
    cached, no endgame table."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "PARLOUR_CACHE_DIR": str(tmp_path)}
    return pexpect.spawn(
        PARLOUR, list(args), env=env, encoding="utf-8", timeout=180, preexec_fn=default_ctrl_c
    )


@pytest.mark.slow
@pytest.mark.parametrize(  # the computer first: its engine warms up before the first prompt
    "args",
    [
        ["play", "kalah", "--first", "computer"],
        ["play", "gomoku", "--level", "4", "--first", "computer"],  # its engine: many kernels
    ],
)
def test_a_first_start_says_how_far_it_is_and_ctrl_c_ends_it(
    tmp_path: Path, args: list[str]
) -> None:
    """The minutes of compiling of a first start are on screen, kernel by kernel (they
    were silent for up to 47 s), and Ctrl-C ends them with parlour's line and status 130
    (it was click's "Aborted!" and 1, after the compile under way)."""
    child = spawn_cold(tmp_path, *args)
    counted = r"warming up (?:the )?\S+ \(compiled once, then cached\): (\d+) kernels? compiled"
    child.expect(counted)
    first = int(child.match.group(1))
    while int(child.match.group(1)) == first:  # it counts on
        child.expect(counted)
    child.sendintr()
    child.expect(pexpect.EOF, timeout=EXIT_WITHIN)
    child.close()
    assert child.exitstatus == 130
    assert child.before.replace("\r", "").rstrip().endswith("Interrupted.")
    assert "Aborted" not in child.before and "Traceback" not in child.before


@pytest.mark.parametrize(
    ("args", "running"),
    [
        (
            ["simulate", "war", "--games", "1000", "--pickup", "played", "--max-rounds", "none"],
            "War",
        ),
    ],
)
def test_ctrl_c_ends_a_long_computation_at_once(args: list[str], running: str) -> None:
    """Uncapped simulations ran on for minutes after Ctrl-C (the kernel held the main
    thread); every computation now ends with parlour's line and status 130."""
    child = spawn_parlour(*args, timeout=180)
    child.expect(running)
    child.sendintr()
    child.expect(pexpect.EOF, timeout=EXIT_WITHIN)
    child.close()
    assert child.exitstatus == 130
    assert "Interrupted." in child.before and "Traceback" not in child.before


@pytest.mark.slow
def test_ctrl_c_of_make_play_shows_parlours_one_line_alone() -> None:
    """make reports a recipe that Ctrl-C killed (``make: *** [Makefile:N: play]
    Interrupt``): the recipe's shell outlives it, so parlour's line is the last word."""
    root = Path(__file__).resolve().parents[1]
    stamp = ".venv/.installed-play"  # taken as made: this venv has parlour installed
    bin_folder = f"BIN={Path(PARLOUR).parent}"
    child = pexpect.spawn(
        "make",
        ["-s", "-o", stamp, "play", bin_folder],
        cwd=root,
        encoding="utf-8",
        timeout=180,
        preexec_fn=default_ctrl_c,
    )
    child.expect(r"\S")  # parlour has started: a warm-up line, or the board
    child.sendintr()
    child.expect(pexpect.EOF, timeout=EXIT_WITHIN)
    child.close()
    assert "Interrupted." in child.before and "***" not in child.before, child.before


def test_serve_says_it_is_starting_before_it_loads_the_web_server() -> None:
    """The web server's modules take a second or more to load on a first start: at a
    terminal a line comes first (here the loading fails at once, so the order shows)."""
    script = "import sys; sys.modules['uvicorn'] = None; from parlour.cli import main; main()"
    child = pexpect.spawn(
        sys.executable, ["-c", script, "serve", "--port", "8765"], encoding="utf-8", timeout=60
    )
    child.expect(pexpect.EOF)
    said = child.before
    assert "starting the web server..." in said and "needs parlour's web extra" in said
    assert said.index("starting the web server") < said.index("needs parlour's web extra")


def test_parlour_solve_at_a_terminal_says_it_is_starting_before_it_loads_the_solver() -> None:
    """A second start of ``parlour solve`` showed nothing for 1.3 s: the solver's modules
    load before any line of its own."""
    child = spawn_parlour(
        "solve", "kalah", "--pits", "3", "--seeds", "2", "--memory", "1", timeout=600
    )  # a fresh machine compiles the solver first
    child.expect(pexpect.EOF)
    said = child.before
    assert said.startswith("\rstarting the solver"), said[:80]
    assert "value " in said and said.index("starting the solver") < said.index("value ")


class Terminal(io.StringIO):
    """Standard error as a terminal (the warm-up line updates only there)."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("between", [True, False])
def test_a_warm_up_line_counts_the_seconds_between_compiles_unless_told_to_wait(
    between: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A first start's endgame table (mancala --level 8) is built between two compiles,
    with no bar of its own: 14 s with nothing on screen, where the line waited for one."""
    from parlour.cli._common import TICK, warming_up

    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)

    def lines() -> int:
        return screen.getvalue().count("(compiled once, then cached)")

    def wait(until: Callable[[], bool], seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while not until() and time.monotonic() < deadline:
            time.sleep(0.05)

    with warming_up("the engine", between=between):  # nothing compiles in the block
        wait(lambda: lines() >= 1, 30)
        if between:
            wait(lambda: lines() >= 3, 30)
        else:
            wait(lambda: False, 4 * TICK)  # four ticks: the line must not move
    assert lines() >= 3 if between else lines() == 1, screen.getvalue()


def test_a_status_line_shows_the_latest_step_at_a_terminal_and_is_wiped_at_the_end(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A long command (``parlour solve``) shows what it is doing; a log hears nothing."""
    from parlour.cli._common import status

    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    with status("proving the position") as tell:
        tell("the value of each first move: B (2 of 6)")
        deadline = time.monotonic() + 30
        while "B (2 of 6), " not in screen.getvalue() and time.monotonic() < deadline:
            time.sleep(0.05)
    shown = screen.getvalue()
    assert "\rthe value of each first move: B (2 of 6), " in shown, shown
    assert re.search(r"B \(2 of 6\), \d+ s\x1b\[K", shown), shown
    assert shown.endswith("\r\x1b[K")  # the result that follows stands alone
    log = io.StringIO()
    monkeypatch.setattr(sys, "stderr", log)
    with status("proving the position") as tell:
        tell("the value of each first move: A (1 of 6)")
    assert log.getvalue() == ""


def test_ctrl_c_of_pbrain_parlour_is_parlours_one_line_and_130() -> None:
    """``pbrain-parlour`` (the name Gomocup managers start) died of the signal with a
    KeyboardInterrupt traceback; it is ``parlour pbrain`` under that name now."""
    child = pexpect.spawn(
        str(Path(PARLOUR).parent / "pbrain-parlour"),
        encoding="utf-8",
        timeout=60,
        preexec_fn=default_ctrl_c,
    )
    child.sendline("START 15")
    child.expect_exact("OK")
    child.sendintr()
    child.expect(pexpect.EOF, timeout=EXIT_WITHIN)
    child.close()
    assert child.exitstatus == 130, (child.exitstatus, child.signalstatus)
    assert "Interrupted." in child.before and "Traceback" not in child.before


def test_a_warm_up_line_says_the_step_a_game_is_taking_and_how_far(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A first ``play mancala --level 8`` drew the endgame table's bar and the warm-up
    line over each other on one line (the bar at 0% for seconds while the build's kernels
    compiled, its time to go in thousands of hours): within a warm-up the table's build
    now says itself in the line, by the kit's hook, with the share done."""
    from parlour.cli._common import warming_up
    from parlour.games.sowing import progress
    from parlour.kit import doing

    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    monkeypatch.setattr(progress, "PATIENCE", 0.0)  # the bar would show at once
    with doing("outside") as outside:
        assert outside is None  # no warm-up line: the caller shows its own progress
    said = "warming up the engine: building the endgame table: 6 pits a side, 25% done"
    table = progress.shown("endgame table: 6 pits a side")
    with warming_up("the engine", between=True), table as report:
        report(0.25)
        deadline = time.monotonic() + 30
        while said not in screen.getvalue() and time.monotonic() < deadline:
            time.sleep(0.05)
    assert said in screen.getvalue(), screen.getvalue()
    assert "━" not in screen.getvalue()  # no bar of its own


def test_the_warm_up_line_names_parlours_kernels_only() -> None:
    """The line said "now _kind_to_byte_width", "now impl", "now <lambda>": numba's own
    helpers, compiled within parlour's kernels, are no names for a player."""
    from types import SimpleNamespace

    from parlour.cli._common import Compiling
    from parlour.games.sowing import game as sowing

    def event(func: object) -> SimpleNamespace:
        return SimpleNamespace(data={"dispatcher": SimpleNamespace(py_func=func)})

    def impl() -> None:  # a helper of numba's, as numba names its own
        pass

    impl.__module__ = "numba.cpython.listobj"
    compiling = Compiling()
    heard = compiling.listener()
    kernel = next(
        f for f in vars(sowing).values() if callable(f) and f.__module__ == sowing.__name__
    )
    heard.on_start(event(kernel))
    heard.on_start(event(impl))
    assert compiling.current == kernel.__name__
    assert f"now {kernel.__name__}," in compiling.words("the engine", 1.0)
    heard.on_end(event(impl))
    heard.on_end(event(kernel))
    heard.on_start(event(impl))
    assert compiling.current == ""
    assert "now" not in compiling.words("the engine", 1.0)
