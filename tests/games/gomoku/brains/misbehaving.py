"""A Gomocup brain for the tests that misbehaves on purpose, as its one argument says:

- ``crash``: exits (status 3) on its third move;
- ``silent``: never answers a move;
- ``garbage``: answers a move with text that is no move;
- ``occupied``: plays the point its opponent just played;
- ``offboard``: plays a point off the board;
- ``noflush``: never flushes its answers (so they never leave its buffer);
- ``memory``: takes 300 MB, then thinks on;
- ``closed``: closes its output;
- ``fork``: starts a child process that sleeps, then never answers;
- ``error``: answers a move with ``ERROR`` and no move;
- ``race``: misses the line that follows each of its moves (as an engine still busy with
  its move may), answering it ``ERROR Unknown command``, and plays on;
- ``slowstart``: takes 2 s to set itself up after ``INFO max_memory`` (as an engine
  allocating its hash table), then plays properly;
- ``noabout``: never answers ``ABOUT`` (as Wine's build here), and plays properly;
- ``lateabout``: answers ``ABOUT`` after 1.5 s, and plays properly;
- ``rapfi``: says before each move, as Rapfi does, ``MESSAGE Speed ... | Depth D-E | Eval
  V ...``, its depth D the stones it was given and its score V a hundred times as many;
- ``good``: plays the first free point from the top-left, properly.

Every other mode answers ``ABOUT`` at once; every mode ignores ``INFO``.

Standard library only, so that it runs as a plain script.
"""

import os
import subprocess
import sys
import time

MODE = sys.argv[1]
if MODE == "noflush":  # block-buffered whatever PYTHONUNBUFFERED says
    sys.stdout = open(1, "w", buffering=1 << 16, closefd=False)  # noqa: SIM115
size = 15
stones: set[tuple[int, int]] = set()
moves = 0
hoard: list[bytearray] = []
missing = False  # the race: the next line is missed


def say(text: str) -> None:
    sys.stdout.write(text + "\n")
    if MODE != "noflush":
        sys.stdout.flush()


def answer(last: tuple[int, int] | None) -> None:
    global moves, missing
    moves += 1
    if MODE == "crash" and moves == 3:
        sys.exit(3)
    if MODE == "silent":
        return
    if MODE == "fork":
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        return
    if MODE == "memory":
        hoard.append(bytearray(300 << 20))
        for i in range(0, len(hoard[0]), 4096):
            hoard[0][i] = 1
        time.sleep(60)
    if MODE == "closed":
        sys.stdout.close()
        os.close(1)
        time.sleep(60)
    if MODE == "error":
        say("ERROR cannot think")
        return
    if MODE == "garbage":
        say("I resign, or maybe not")
        return
    if MODE == "occupied" and last is not None:
        say(f"{last[0]},{last[1]}")
        return
    if MODE == "offboard":
        say(f"{size},{size + 3}")
        return
    if MODE == "rapfi":
        depth = len(stones)
        score = 100 * depth
        say(f"MESSAGE Speed 500K | Depth {depth}-{depth + 4} | Eval {score} | Node 1M | Time 900ms")
    free = next((x, y) for y in range(size) for x in range(size) if (x, y) not in stones)
    stones.add(free)
    say("MESSAGE thinking hard")
    say(f"{free[0]},{free[1]}")
    missing = MODE == "race"


for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    command = words[0].upper()
    if missing:
        missing = False
        say(f"ERROR Unknown command: {line.strip()}")
    elif command == "START":
        size = int(words[1])
        stones.clear()
        say("OK")
        sys.stdout.flush()  # one of the two answers "noflush" remembers to flush
    elif command == "RESTART":
        stones.clear()
        say("OK")
    elif command == "BEGIN":
        answer(None)
    elif command == "TURN":
        x, y = map(int, words[1].split(","))
        stones.add((x, y))
        answer((x, y))
    elif command == "BOARD":
        stones.clear()
        last = None
        for row in sys.stdin:
            if row.strip().upper() == "DONE":
                break
            x, y, _ = map(int, row.split(","))
            stones.add((x, y))
            last = (x, y)
        answer(last)
    elif command == "TAKEBACK":
        x, y = map(int, words[1].split(","))
        stones.discard((x, y))
        say("OK")
    elif command == "ABOUT" and MODE == "noabout":
        pass
    elif command == "ABOUT":
        if MODE == "lateabout":
            time.sleep(1.5)
        say(f'name="misbehaving", version="1", author="{MODE}"')
        sys.stdout.flush()  # and its start's end
    elif command == "INFO" and words[1:2] == ["max_memory"] and MODE == "slowstart":
        time.sleep(2)
    elif command == "END":
        break
