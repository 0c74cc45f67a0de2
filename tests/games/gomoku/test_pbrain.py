"""``parlour pbrain``: each command of the Gomocup protocol answered exactly, malformed
lines refused with the brain still alive, ``END`` honoured at once, even mid-search."""

from __future__ import annotations

import io
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import parlour
from helpers import BOUND, PARLOUR
from parlour.games.gomoku.book import shipped
from parlour.games.gomoku.engine.levels import LARGEST_TABLE_BITS
from parlour.games.gomoku.game import GomokuState
from parlour.games.gomoku.gomocup import brain as pbrain
from parlour.games.gomoku.gomocup.brain import (
    MARGIN_SECONDS,
    MARGIN_SHARE,
    READY,
    TABLE_SHARE,
    move_seconds,
    table_bits,
)
from parlour.search.table import SLOT_BYTES


class Brain:
    """A brain process: lines sent to it, each answer read with a time limit."""

    def __init__(self, *command: str, env: dict[str, str] | None = None) -> None:
        self.process = subprocess.Popen(
            list(command),
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, *lines: str) -> None:
        assert self.process.stdin is not None
        for line in lines:
            self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def answer(self, timeout: float = 30) -> str | None:
        """The next line that answers something (not the brain's word that it is ready,
        which comes whenever its search is loaded)."""
        while (line := self.lines.get(timeout=timeout)) == f"MESSAGE {READY}":
            pass
        return line

    def ask(self, *lines: str) -> str | None:
        self.send(*lines)
        return self.answer()

    def ended_within(self, seconds: float) -> bool:
        try:
            self.process.wait(seconds)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return False
        return True


@pytest.fixture
def brain() -> Brain:
    return Brain(sys.executable, "-m", "parlour.games.gomoku.gomocup.brain")


@pytest.mark.slow
def test_each_command_gets_its_exact_answer(brain: Brain) -> None:
    about = brain.ask("ABOUT")
    assert about is not None and about.startswith('name="parlour", version="')
    assert brain.ask("BEGIN") == "ERROR no board yet: START comes first"
    assert brain.ask("START 4") == "ERROR the board size must be at least 5, not 4"
    assert brain.ask("START big") == "ERROR the board size must be a whole number, not 'big'"
    assert brain.ask("RECTSTART 15,20") == "ERROR parlour plays square boards only, not 15x20"
    assert brain.ask("RECTSTART 15,15") == "OK"
    assert brain.ask("START 15") == "OK"
    brain.send(
        "INFO timeout_turn 300",
        "INFO timeout_match 100000",
        "INFO time_left 100000",
        "INFO max_memory 83886080",
        "INFO game_type 1",
        "INFO folder /tmp",
        "INFO evaluate 3,3",
        "INFO some_key_of_a_new_manager 1",
        "",
    )  # no answer to any of these: the next line's answer comes first
    assert (
        brain.ask("INFO rule 4") == "MESSAGE parlour plays no renju or caro rule: playing freestyle"
    )
    assert brain.ask("INFO timeout_turn soon") == (
        "ERROR INFO timeout_turn must be a whole number, not 'soon'"
    )
    assert brain.ask("INFO rule 1", "BEGIN") == "7,7"  # the centre of an empty board
    assert brain.ask("TURN 7,7") == "ERROR 7,7 is taken"
    assert brain.ask("TURN 7") == "ERROR a point is x,y, not '7'"
    assert brain.ask("TURN 15,0") == (
        "ERROR a coordinate on the 15x15 board must be at most 14, not 15"
    )
    reply = brain.ask("TURN 8,8")
    assert reply is not None and reply not in ("7,7", "8,8")
    x, y = map(int, reply.split(","))
    assert 0 <= x < 15 and 0 <= y < 15
    assert brain.ask("TAKEBACK 8,8") == "OK"
    assert brain.ask("TAKEBACK 8,8") == "ERROR 8,8 holds no stone to take back"
    assert brain.ask("HELLO there") == "UNKNOWN HELLO is not a command of the Gomocup protocol"
    # its own four on column 7 (x = 7): it completes the five
    four = ["7,7,1", "7,8,1", "7,9,1", "7,10,1", "0,0,2", "1,0,2", "2,0,2"]
    assert brain.ask("BOARD", *four, "DONE") in ("7,6", "7,11")
    assert brain.ask("TURN 5,5") == "ERROR the game is over: a five is on the board"
    assert brain.ask("TAKEBACK 5,5") == "ERROR 5,5 holds no stone to take back"  # not kept
    # the opponent's four on row 0 (stones marked 2): it blocks
    assert brain.ask("BOARD", "0,0,2", "1,0,2", "2,0,2", "3,0,2", "9,9,1", "DONE") == "4,0"
    assert brain.ask("BOARD", "3,3,5", "DONE") == (
        "ERROR a stone (1 own, 2 the opponent's, 3 neither's) must be at most 3, not 5"
    )
    assert brain.ask("BOARD", "3,3,1", "3,3,2", "DONE") == "ERROR 3,3 is given twice"
    assert brain.ask("RESTART") == "OK"
    assert brain.ask("BEGIN") == "7,7"  # the board is empty again
    brain.send("END")
    assert brain.ended_within(1)
    assert brain.answer(1) is None  # nothing more was said


@pytest.mark.slow
def test_end_while_thinking_exits_at_once(brain: Brain) -> None:
    """A brain told to think for a day ends on END: its search does not keep it."""
    assert brain.ask("START 15") == "OK"
    brain.send("INFO timeout_turn 86400000", "TURN 7,7")  # thinking from this line on
    assert brain.ask("TURN 8,8") == "ERROR still thinking of a move: wait for it"
    brain.send("END")
    assert brain.ended_within(BOUND)
    assert brain.answer(1) is None  # it ended without a move


def test_a_moves_time_keeps_a_margin_within_each_limit() -> None:
    assert move_seconds({}) is None  # no limit given: the level's own time
    assert move_seconds({"timeout_turn": 5000}) == pytest.approx(
        5 * (1 - MARGIN_SHARE) - MARGIN_SECONDS
    )
    per_match = {"timeout_turn": 5000, "timeout_match": 60000, "time_left": 10000}
    assert (move_seconds(per_match) or 99) < 10 / 25  # a share of the time left
    assert move_seconds({"timeout_turn": 0}) == pytest.approx(0.05)  # as fast as it can
    unlimited_match = {"timeout_turn": 1000, "timeout_match": 0, "time_left": 10}
    assert move_seconds(unlimited_match) == move_seconds({"timeout_turn": 1000})
    # the margin is a small part of a short move: the search itself gets 89% of 0.5 s
    assert 0.44 <= (move_seconds({"timeout_turn": 500}) or 0) < 0.45


class Recorder:
    """A stand-in for the brain's thinker: the seconds it is given for each move."""

    def __init__(self) -> None:
        self.seconds: float | None = None
        self.table_bits = 0
        self.given: list[float | None] = []

    def best_move(self, state: GomokuState, stop: object) -> tuple[tuple[int, int], None]:
        self.given.append(self.seconds)
        return (0, 0), None


@pytest.mark.parametrize(("spent", "searched"), [(0.3, 0.93 - 0.3), (2.0, pbrain.FASTEST)])
def test_a_moves_time_counts_from_the_command_that_asks_for_it(
    monkeypatch: pytest.MonkeyPatch, spent: float, searched: float
) -> None:
    """What passes between the TURN read and the search's start (the board set up, a
    cold brain's kernels loading) is the move's time: the search gets what is left (a
    first move took 1.27 s of a 1 s limit when it got the whole)."""
    readings = iter([0.0])  # the clock when TURN is read, then ``spent`` later ever after
    out = io.StringIO()
    brain = pbrain.Brain(out, clock=lambda: next(readings, spent))
    assert brain.ready.wait(BOUND)
    thinker = Recorder()
    monkeypatch.setattr(brain, "_thinker", thinker)
    for line in ("START 15", "INFO timeout_turn 1000", "TURN 7,7"):
        brain.handle(line)
    deadline = time.perf_counter() + BOUND
    while brain._busy and time.perf_counter() < deadline:
        time.sleep(0.01)
    assert out.getvalue().splitlines()[-1] == "0,0"
    assert move_seconds({"timeout_turn": 1000}) == pytest.approx(0.93)
    assert thinker.given == [pytest.approx(searched)]


def test_the_brain_thinks_to_the_clock() -> None:
    """Under a manager's time limit the time is what bounds a move, not the level's depth."""
    import io

    brain = pbrain.Brain(io.StringIO())
    brain.handle("START 15")
    assert brain.ready.wait(BOUND)
    assert brain._thinker is not None and brain._thinker.to_the_clock


def test_the_table_takes_what_max_memory_leaves_room_for() -> None:
    assert table_bits({}) == table_bits({"max_memory": 0}) == LARGEST_TABLE_BITS
    assert table_bits({"max_memory": 2**40}) == LARGEST_TABLE_BITS  # no bigger than pays
    for limit in (350_000_000, 83_886_080, 10**6):
        bits = table_bits({"max_memory": limit})
        assert SLOT_BYTES << bits <= limit // TABLE_SHARE < SLOT_BYTES << (bits + 1)


def _answered(brain: pbrain.Brain, out: io.StringIO, line: str) -> str:
    """The first line the in-process ``brain`` (saying into ``out``) says after ``line``:
    waited for as a new line, since the brain is no longer busy just before it says it."""
    said = len(out.getvalue().splitlines())
    brain.handle(line)
    deadline = time.perf_counter() + BOUND
    while len(lines := out.getvalue().splitlines()) == said:
        assert time.perf_counter() < deadline, f"no answer to {line!r}"
        time.sleep(0.01)
    return lines[said]


def test_the_brain_searches_with_the_table_its_memory_allows() -> None:
    out = io.StringIO()
    brain = pbrain.Brain(out)
    for line in ("START 15", "INFO max_memory 83886080", "INFO timeout_turn 100"):
        brain.handle(line)
    assert brain.ready.wait(BOUND)  # the search thinks, not the quick move
    assert _answered(brain, out, "BEGIN") == "7,7"
    _answered(brain, out, "TURN 10,10")  # not in the opening book: a search
    assert brain._thinker is not None
    (keys, entries), *_ = brain._thinker.tables.values()
    assert len(keys) == len(entries) == 1 << table_bits({"max_memory": 83886080}) == 1 << 20


def test_the_brain_answers_an_opening_from_the_book() -> None:
    """The book's searches had more time than a move of 0.1 s: the brain plays the book's
    reply to a first stone at once, as its own thinker reads it."""
    out = io.StringIO()
    brain = pbrain.Brain(out)
    for line in ("START 15", "INFO timeout_turn 100"):
        brain.handle(line)
    assert brain.ready.wait(BOUND)  # the thinker answers, not the quick move
    said = _answered(brain, out, "TURN 7,6")
    board = parlour.game("gomoku").start().play((6, 7))  # x 7, y 6: row 6, column 7
    assert isinstance(board, GomokuState)
    entry = shipped().lookup(board)
    assert entry is not None
    row, col = entry.move
    assert said == f"{col},{row}"


def test_the_parlour_command_serves_the_brain() -> None:
    brain = Brain(PARLOUR, "pbrain")
    assert brain.ask("START 9") == "OK"
    brain.send("END")
    assert brain.ended_within(1)


class Answers(io.StringIO):
    """An in-process brain's output, each line it says kept in a queue to wait on."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: queue.Queue[str] = queue.Queue()

    def write(self, text: str) -> int:
        for line in text.splitlines():
            if line != f"MESSAGE {READY}":  # said whenever the search is loaded
                self.lines.put(line)
        return len(text)


def talk(*lines: str) -> list[str | None]:
    """An in-process brain told ``lines``, one at a time: the answer to each (None for a
    line not answered), the moves waited for."""
    out = Answers()
    brain = pbrain.Brain(out)
    said: list[str | None] = []
    for line in lines:
        brain.handle(line)
        try:
            said.append(out.lines.get(timeout=BOUND if brain._busy else 0))
        except queue.Empty:
            said.append(None)
    brain._stop.set()
    return said


def test_numbers_in_other_scripts_or_of_any_length_are_refused_and_the_brain_reads_on() -> None:
    digits = "; write numbers with the digits 0-9"
    said = talk(
        "START ١٥",
        "RECTSTART ١٥,١٥",
        "START 15",
        "TURN ²,3",
        "TURN １５,2",
        "BOARD",
        "٣,3,1",
        "DONE",
        "BOARD",
        "3,3,²",
        "DONE",
        "INFO timeout_turn ²",
        "INFO rule " + "9" * 5000,
        "TAKEBACK 3,99999999999999999999999",
        "BEGIN",
    )
    assert said == [
        f"ERROR the board size must be a whole number, not '١٥'{digits}",
        f"ERROR the board size must be a whole number, not '١٥'{digits}",
        "OK",
        f"ERROR a coordinate on the 15x15 board must be a whole number, not '²'{digits}",
        f"ERROR a coordinate on the 15x15 board must be a whole number, not '１５'{digits}",
        None,
        None,
        f"ERROR a coordinate on the 15x15 board must be a whole number, not '٣'{digits}",
        None,
        None,
        "ERROR a stone (1 own, 2 the opponent's, 3 neither's) must be a whole number, "
        f"not '²'{digits}",
        f"ERROR INFO timeout_turn must be a whole number, not '²'{digits}",
        "ERROR INFO rule must be at most 2147483647, not a number of more than 30 digits",
        "ERROR a coordinate on the 15x15 board must be at most 14, not 99999999999999999999999",
        "7,7",
    ]


def test_a_limit_too_long_for_a_timer_is_read_as_the_longest_one() -> None:
    """A limit of any size (a manager's "no limit", 5,000 digits) is held as a day, which
    a timer can be set with."""
    out = Answers()
    brain = pbrain.Brain(out)
    for line in ("START 15", "INFO timeout_turn 100000000000000000000", "INFO max_memory 9"):
        brain.handle(line)
    brain.handle("INFO timeout_match -5")
    assert out.lines.get(timeout=1) == "OK"
    assert out.lines.get(timeout=1).startswith("ERROR INFO timeout_match must be a whole")
    brain.handle("INFO time_left -5")  # overdrawn, as some managers say it: nothing left
    assert brain.info == {"timeout_turn": 86_400_000, "max_memory": 9, "time_left": 0}
    brain.handle("INFO time_left " + "9" * 5000)
    assert brain.info["time_left"] == 86_400_000
    assert (move_seconds(brain.info) or 0) <= 86_400  # its clocks are set for a day at most


def test_a_board_that_holds_a_five_or_is_full_is_answered_and_the_brain_reads_on() -> None:
    five = ["3,7,1", "4,7,1", "5,7,1", "6,7,1", "7,7,1", "0,0,2"]
    full = [f"{x},{y},{1 + (x // 2 + y) % 2}" for x in range(5) for y in range(5)]
    said = talk(
        "START 15", "BOARD", *five, "DONE", "TAKEBACK 7,7", "TURN 0,1",
        "START 5", "BOARD", *full, "DONE", "ABOUT",
    )  # fmt: skip
    assert said[8:11] == [
        "ERROR the game is over: a five is on the board",
        "OK",  # the board given is kept: a take-back may follow
        "2,7" if said[10] == "2,7" else "7,7",  # its four made five again
    ]
    assert said[-2] == "ERROR the board is full"
    assert str(said[-1]).startswith('name="parlour"')


def test_a_board_before_start_is_answered_once() -> None:
    said = talk("BOARD", "7,7,1", "8,8,2", "DONE", "START 15")
    assert said == [None, None, None, "ERROR no board yet: START comes first", "OK"]


def test_a_stone_of_neither_side_is_a_wall_to_both() -> None:
    """``BOARD``'s field 3: a point no one may play that breaks the lines through it."""
    opponent_four = ["3,7,2", "4,7,2", "5,7,2", "6,7,2"]
    said = talk(
        "START 15",
        "BOARD", *opponent_four, "7,7,3", "DONE",  # blocked at one end: block the other
        "BOARD", "3,7,3", "4,7,3", "5,7,3", "6,7,3", "8,8,1", "DONE",  # no four of anyone
    )  # fmt: skip
    assert said[7] == "2,7"
    assert said[-1] not in (None, "2,7", "7,7") and not str(said[-1]).startswith("ERROR")


@pytest.mark.slow
def test_the_command_lives_through_malformed_lines() -> None:
    """``parlour pbrain`` given the lines that once killed it: every one answered, no
    traceback, and it leaves on END with status 0."""
    lines = ["START 15", "TURN ²,3", "INFO timeout_turn " + "9" * 5000, "BOARD", "3,7,1"]
    lines += ["4,7,1", "5,7,1", "6,7,1", "7,7,1", "0,0,2", "DONE", "ABOUT", "END"]
    done = subprocess.run(
        [PARLOUR, "pbrain"], input="\n".join(lines) + "\n", capture_output=True, text=True,
        timeout=BOUND,
    )  # fmt: skip
    answers = done.stdout.splitlines()
    assert done.returncode == 0  # and nothing on stderr but a slow start's warm-up line
    assert all(line.startswith("warming up") for line in done.stderr.splitlines())
    assert [line.split()[0] for line in answers] == ["OK", "ERROR", "ERROR", 'name="parlour",']


def test_a_brain_says_when_its_search_is_ready() -> None:
    out = io.StringIO()
    brain = pbrain.Brain(out)
    assert brain.ready.wait(BOUND)
    assert out.getvalue().splitlines() == [f"MESSAGE {READY}"]


@pytest.mark.parametrize(
    ("moves", "expected"),
    [
        ("H8 A1 H9 A2 H10 A3 H11 B5", {"H7", "H12"}),  # its own four: the five
        ("A1 H8 A2 H9 A3 H10 B5 H11", {"H7", "H12"}),  # the opponent's four: blocked
        ("H8", {"G7", "G8", "G9", "H7", "H9", "J7", "J8", "J9"}),  # next to the stone
        ("", {"H8"}),  # the centre of an empty board
    ],
)
def test_a_quick_move_takes_a_five_blocks_one_or_keeps_company(
    moves: str, expected: set[str]
) -> None:
    state = parlour.game("gomoku").start()
    for name in moves.split():
        state = state.play(state.parse_move(name))
    assert isinstance(state, GomokuState)
    assert state.move_name(pbrain.quick_move(state)) in expected


COMPILING = 900.0
"""Seconds a cold brain may take to compile its search before the test counts a hang."""


@pytest.mark.slow
def test_a_cold_brain_answers_about_start_and_a_move_before_its_search_is_compiled(
    tmp_path: Path,
) -> None:
    """With an empty kernel cache, ABOUT, START and the first move are answered before
    the brain says its search is ready (the compiling takes minutes), which it then
    says, and its next move is the search's."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    brain = Brain(sys.executable, "-m", "parlour.games.gomoku.gomocup.brain", env=env)
    brain.send("ABOUT", "START 15", "INFO timeout_turn 1000", "BEGIN")
    said = [brain.lines.get(timeout=COMPILING) for _ in range(4)]
    assert str(said[0]).startswith('name="parlour"')
    assert said[1:] == ["OK", "7,7", f"MESSAGE {READY}"]
    reply = brain.ask("TURN 8,8")
    assert reply is not None and reply not in ("7,7", "8,8")
    brain.send("END")
    assert brain.ended_within(BOUND)
