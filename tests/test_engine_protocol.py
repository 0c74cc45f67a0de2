"""parlour's engine protocol (parlour.players.protocol): the engine's side line by line, and
matches between engine processes (``parlour engine``) in Kalah and Ayo, each engine kept
from game to game and an engine that breaks the protocol losing its game."""

from __future__ import annotations

import json
import queue
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from helpers import PARLOUR, four_stored_games
from parlour import game
from parlour.arena.records import Records
from parlour.cli import main
from parlour.players.protocol import Server, game_line, go_line, read_game, read_go


def talk(level: int = 2) -> tuple[Server, queue.Queue[str]]:
    said: queue.Queue[str] = queue.Queue()
    return Server(said.put, level), said


def next_line(said: queue.Queue[str], starting: str) -> str:
    """The next line said that starts with ``starting`` (a minute at most)."""
    while not (line := said.get(timeout=60)).startswith(starting):
        pass
    return line


def test_the_engine_answers_each_command_and_plays_a_legal_move() -> None:
    server, said = talk()
    server.handle("parlour 1")
    assert [said.get_nowait(), said.get_nowait()] == ["id name parlour", "parlourok"]
    state = game("kalah").start().play(game("kalah").start().legal_moves()[0])
    for line in (game_line(state.game), f"position {state.notation()}", "go movetime 0.1"):
        server.handle(line)
    assert said.get_nowait() == "readyok"
    move = next_line(said, "bestmove").split()[1]
    assert state.parse_move(move) in state.legal_moves()
    assert server.handle("quit") is False


def test_the_engine_prepares_the_game_and_its_level_before_it_is_ready(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``game`` compiles what the game's play needs (its rules' kernels: a cold engine
    compiled them on its first move, past a 0.05 s limit) and the level's search, through
    the kit's one preparation, before ``readyok``."""
    from parlour import kit

    prepared: list[tuple[str, list[int]]] = []
    monkeypatch.setattr(
        kit, "prepare", lambda state, levels: prepared.append((state.notation(), list(levels)))
    )
    server, said = talk(level=4)
    server.handle("game kalah seeds=3")
    assert said.get_nowait() == "readyok"
    assert prepared == [(game("kalah", seeds=3).start().notation(), [4])]


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("bogus", "error unknown command 'bogus'"),
        ("go", "error go before a position"),
        ("game", "error game needs the game's name"),
        ("game chess", "error unknown game"),
        ("game kalah seeds", "error game options are KEY=VALUE"),
        ("go movetime soon", "error movetime must be a number of seconds"),
        ("go ply 3", "error go knows movetime, time, increment, depth, nodes, not 'ply'"),
        ("position 1/2/3", "error expected"),
    ],
)
def test_a_bad_command_is_one_error_line_and_the_engine_goes_on(line: str, problem: str) -> None:
    server, said = talk()
    server.handle("game kalah" if line.startswith("position") else "")
    while not said.empty():
        said.get_nowait()
    assert server.handle(line) is True
    answer = said.get_nowait()
    assert answer.startswith(problem) and "\n" not in answer and said.empty()


def test_stop_ends_a_search_with_its_best_move() -> None:
    server, said = talk(level=8)
    server.handle("game ayo")
    server.handle("go movetime 3600")
    server.handle("stop")
    move = next_line(said, "bestmove").split()[1]
    start = server.state  # the engine's own draw of who begins
    assert start is not None and start.parse_move(move) in start.legal_moves()


def test_time_left_and_increment_give_a_share_of_the_time() -> None:
    assert read_go(["time", "40", "increment", "1"]).seconds == 3.0
    assert read_go(["time", "1"]).seconds == 0.05
    assert go_line(read_go(["movetime", "2"])) == "go movetime 2"
    rules = game("kalah", seeds=3)
    assert read_game(game_line(rules).split()[1:]) == rules


def engine_script(folder: Path, log: Path, level: int) -> str:
    """An engine program: ``parlour engine --level LEVEL`` that notes its process id."""
    script = folder / f"engine{level}"
    script.write_text(f"#!/bin/sh\necho $$ >> {log}\nexec {PARLOUR} engine --level {level}\n")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return f"engine:{script}"


@pytest.mark.parametrize("name", ["kalah", "ayo"])
def test_two_engine_processes_play_a_match_each_kept_for_every_game(
    tmp_path: Path, name: str
) -> None:
    db, log = tmp_path / "arena.db", tmp_path / "started"
    players = f"{engine_script(tmp_path, log, 2)},{engine_script(tmp_path, log, 4)}"
    recorded = four_stored_games(name, players, 0.05, db)
    for row in recorded:
        state = game(name, **json.loads(row["options"])).parse(row["start"])
        for move in row["moves"].split():
            state = state.play(state.parse_move(move))
        assert state.is_over and row["reason"] == "rules" and row["winner"] == state.winner
    assert len(log.read_text().split()) == 2  # one process an engine, for all four games


def test_an_engine_that_plays_an_illegal_move_loses_that_game(tmp_path: Path) -> None:
    liar = tmp_path / "liar"
    liar.write_text(
        f"#!{sys.executable}\n"
        "import sys\n"
        "answers = {'parlour': ['parlourok'], 'game': ['readyok'], 'newgame': ['readyok'],\n"
        "           'go': ['info depth 1 value 0 nodes 1', 'bestmove Z']}\n"
        "for line in sys.stdin:\n"
        "    for answer in answers.get(line.split()[0] if line.split() else '', []):\n"
        "        print(answer, flush=True)\n"
    )
    liar.chmod(liar.stat().st_mode | stat.S_IEXEC)
    db = tmp_path / "arena.db"
    result = CliRunner().invoke(main, [
        "match", "kalah", "--players", f"engine:{liar},random", "--games", "2", "-j", "1",
        "--db", str(db),
    ])  # fmt: skip
    assert result.exit_code == 0, result.output
    with Records(db) as records:
        recorded = list(records.games(limit=10))
    assert len(recorded) == 2
    for row in recorded:
        assert row["reason"] == "illegal" and "'Z'" in row["detail"]
        assert row[f"player{row['winner']}"] == "random"


def test_go_to_a_depth_answers_that_depths_search() -> None:
    server, said = talk(level=4)
    server.handle("game kalah")
    server.handle("position " + game("kalah").start().notation())
    server.handle("go depth 2")
    info = next_line(said, "info")
    assert info.split()[:3] == ["info", "depth", "2"]
    assert next_line(said, "bestmove").startswith("bestmove ")


SLOW = """\
import sys, time
from parlour import game
rules = state = None
for line in sys.stdin:
    command, _, rest = line.strip().partition(" ")
    if command == "parlour":
        print("id name slow", "parlourok", sep="\\n", flush=True)
    elif command == "game":
        rules = game(rest.split()[0], **dict(w.split("=") for w in rest.split()[1:]))
        rules.start().play(rules.start().legal_moves()[0])  # its kernels loaded: no clock yet
        for second in range({seconds}):
            print(f"info string building its tables: {{second}} s", flush=True)
            time.sleep(1)
        print("readyok", flush=True)
    elif command == "newgame":
        print("readyok", flush=True)
    elif command == "position":
        state = rules.parse(rest)
    elif command == "go":
        print("bestmove", state.move_name(state.legal_moves()[0]), flush=True)
    elif command == "quit":
        break
"""


def slow_engine(folder: Path, seconds: int) -> str:
    """An engine that takes ``seconds`` to be ready for a game, saying so meanwhile."""
    script = folder / "slow"
    script.write_text(f"#!{sys.executable}\n" + SLOW.format(seconds=seconds))
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return f"engine:{script}"


@pytest.mark.parametrize(("start_seconds", "reason"), [("1", "time"), ("60", "rules")])
def test_an_engine_has_the_start_seconds_to_be_ready_and_shows_its_progress(
    tmp_path: Path, start_seconds: str, reason: str
) -> None:
    """A slow start within ``--start-seconds`` costs no game (nor any move's time), and
    its ``info string`` lines are shown meanwhile; past them, the engine's games are lost."""
    db = tmp_path / "arena.db"
    result = subprocess.run(
        [
            PARLOUR, "match", "kalah", "--players", f"{slow_engine(tmp_path, 3)},random",
            "--games", "2", "--time", "0.2", "-j", "1", "--start-seconds", start_seconds,
            "--db", str(db),
        ],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "slow: building its tables: 0 s" in result.stderr
    with Records(db) as records:
        recorded = list(records.games(limit=10))
    assert len(recorded) == 2, recorded
    assert {row["reason"] for row in recorded} == {reason}, [row["detail"] for row in recorded]


def test_the_engine_tells_its_progress_while_it_prepares(monkeypatch: pytest.MonkeyPatch) -> None:
    from parlour.players import protocol

    monkeypatch.setattr(protocol, "PROGRESS_SECONDS", 0.01)
    monkeypatch.setattr(protocol.kit, "prepare", lambda *_: time.sleep(0.2))  # a slow one
    server, said = talk(level=2)
    server.handle("game kalah")
    lines = [said.get(timeout=60) for _ in range(said.qsize())]
    assert lines[-1] == "readyok" and len(lines) > 2
    assert all(line.startswith("info string preparing kalah level 2: ") for line in lines[:-1])


def test_on_a_game_clock_the_engine_plays_as_its_level_within_its_share() -> None:
    """As an in-process computer does: level 4 searches its own 4 plies on a clock of ten
    minutes (not its share of 30 s by depths), as under a time a move it searches for it."""
    server, said = talk(level=4)
    server.handle("game kalah")
    server.handle("go time 600 increment 0")
    depth = int(next_line(said, "info").split()[2])
    assert depth <= 4 and next_line(said, "bestmove")
