"""Gomocup engines in the arena (``engine:`` players of five in a row): each kept running
from game to game (a new game is the engine's to begin), started before its first move's
clock, so that a slow start is never a move's thinking time."""

from __future__ import annotations

import stat
import sys
from pathlib import Path

from helpers import four_stored_games

BRAIN = """\
import os, sys, time
with open({log!r}, "a") as log:
    log.write(f"{{os.getpid()}}\\n")
size, taken = 15, set()

def say(line):
    print(line, flush=True)

def move():
    for y in range(size):
        for x in range(size):
            if (x, y) not in taken:
                taken.add((x, y))
                return f"{{x}},{{y}}"

def point(text):
    x, y = text.split(",")[:2]
    return int(x), int(y)

lines = iter(sys.stdin)
for line in lines:
    word, _, rest = line.strip().partition(" ")
    word = word.upper()
    if word == "START":
        time.sleep({start})  # loading its tables
        say("OK")
    elif word == "RESTART":
        taken.clear()
        say("OK")
    elif word == "ABOUT":
        say('name="stand-in"')
    elif word == "BEGIN":
        say(move())
    elif word == "TURN":
        taken.add(point(rest))
        say(move())
    elif word == "TAKEBACK":
        taken.discard(point(rest))
        say("OK")
    elif word == "BOARD":
        taken.clear()
        for stone in lines:
            if stone.strip().upper() == "DONE":
                break
            taken.add(point(stone))
        say(move())
    elif word == "END":
        break
"""


def brain(folder: Path, name: str, log: Path, start: float) -> str:
    """A Gomocup brain that notes each start of its process in ``log`` and takes
    ``start`` seconds to answer ``START``; it plays the first free point."""
    script = folder / name
    script.write_text(f"#!{sys.executable}\n" + BRAIN.format(log=str(log), start=start))
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return f"engine:{script}"


def test_gomocup_engines_are_kept_for_every_game_and_start_off_the_clock(
    tmp_path: Path,
) -> None:
    db, log = tmp_path / "arena.db", tmp_path / "started"
    slow = brain(tmp_path, "slow", log, 2.0)  # past its first move's time and tolerance
    players = f"{slow},{brain(tmp_path, 'quick', log, 0)}"
    recorded = four_stored_games("gomoku", players, 0.5, db)
    assert all(row["reason"] == "rules" for row in recorded), [r["detail"] for r in recorded]
    assert len(log.read_text().split()) == 2  # one process an engine, for all four games
