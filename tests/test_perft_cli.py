"""``parlour perft``: the count on its own first line, --divide, and bad input refused."""

from __future__ import annotations

import _thread
import signal
import threading

import pytest
from click.testing import CliRunner

import parlour
from parlour.cli import main
from parlour.cli._common import interruptible


def run(*args: str) -> tuple[int, list[str]]:
    """Exit code and printed lines (errors included; a "warming up" note is not)."""
    result = CliRunner().invoke(main, list(args))
    lines = result.stdout.splitlines() if result.exit_code == 0 else result.output.splitlines()
    return result.exit_code, lines


def test_count_first_then_time() -> None:
    code, lines = run("perft", "kalah", "5")
    assert code == 0
    assert lines[0] == "4685"
    assert lines[1].startswith("time ") and "leaves/s" in lines[1]


def test_options_reach_the_rules() -> None:
    assert run("perft", "kalah", "5", "-o", "empty_capture=false")[1][0] == "4690"
    assert run("perft", "mancala", "6")[1][0] == "19276"
    assert run("perft", "kalah", "2", "--pits", "1", "--seeds", "1")[1][0] == "1"


def test_divide_splits_the_count_by_first_move() -> None:
    code, lines = run("perft", "mancala", "4", "--divide")
    assert code == 0 and lines[0] == "904"
    per_move = dict(line.split(": ") for line in lines[1:7])
    assert list(per_move) == list("ABCDEF")
    assert sum(map(int, per_move.values())) == 904


def test_position_option() -> None:
    code, lines = run("perft", "kalah", "1", "--position", "0,0,0,0,0,4/20/4,4,4,4,4,4/0 0")
    assert code == 0 and lines[0] == "1"


def test_bad_input_gives_one_clear_error() -> None:
    for args, problem in [
        (("perft", "chess", "2"), "unknown game 'chess'"),
        (("perft", "kalah", "2", "-o", "stones=3"), "unknown option 'stones'"),
        (("perft", "kalah", "2", "-o", "pits"), "expected NAME=VALUE"),
        (("perft", "kalah", "-1"), "-1"),
        (("perft", "kalah", "2", "--pits", "0"), "at least 1"),
        (("perft", "kalah", "2", "--position", "1/2 0"), "expected 4 parts"),
        (
            ("perft", "war", "1", "--position", "AS/KS 0 2147483648 0 1 -", "-o", "deck=AS,KS"),
            "the battles must be at most 1000000000",
        ),
        (("perft", "war", "2", "--position", "AS/KS 0 0 0 1 -"), "50 missing"),
    ]:
        code, lines = run(*args)
        assert code == 2, args
        assert problem in "\n".join(lines), (args, lines)


def test_divide_counts_a_round_ending_first_move_as_one_leaf() -> None:
    """In this Ayo position house 0 takes the eleventh group: the round ends there."""
    position = "1,3,0,0,0,1,0,0,0,1,1,1 000000011111 28,12 0 6 1 199398148368401,162841360355995694"
    code, lines = run("perft", "ayo", "3", "--position", position, "--divide")
    assert code == 0 and lines[0] == "18"
    counts = dict(line.split(": ") for line in lines[1:] if ": " in line)
    assert sum(map(int, counts.values())) == 18
    state = parlour.game("ayo").parse(position)
    ender = state.legal_moves()[0]
    assert state.play_report(ender)[1].round_end is not None
    assert counts[state.move_name(ender)] == "1"


def test_ctrl_c_ends_a_count_at_once() -> None:
    """The count runs in a thread of its own (a compiled kernel never looks at signals):
    Ctrl-C while it runs reaches the command at once (which ends with status 130)."""
    started, never = threading.Event(), threading.Event()

    def count() -> int:
        started.set()
        never.wait()
        return 0

    def press_ctrl_c() -> None:
        started.wait()
        _thread.interrupt_main()

    threading.Thread(target=press_ctrl_c, daemon=True).start()
    # Ctrl-C's signal as a person's terminal has it, even where the suite runs with it
    # ignored (a background job), which would make interrupt_main do nothing
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            interruptible(count)  # returns at once: count never does
    finally:
        signal.signal(signal.SIGINT, previous)
    never.set()
