"""What several test modules need: positions reached by random play, a call bounded in
time, ``parlour play`` in a pseudo-terminal, and a game's exact values by a plain
exhaustive search (written here, independently of parlour's solver)."""

from __future__ import annotations

import io
import json
import random
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pexpect

from parlour.core import ParlourError, State
from parlour.players.terminal import COMMANDS_NOTE

PARLOUR = str(Path(sys.executable).parent / "parlour")
"""The ``parlour`` command of this environment."""

T = TypeVar("T")
BOUND = 60.0
"""Seconds a call may take before it counts as a hang."""


def random_play(state: State, rng: random.Random, plies: int) -> State:
    """``state`` after up to ``plies`` random legal moves (fewer if the game ends)."""
    for _ in range(plies):
        if state.is_over:
            break
        state = state.play(rng.choice(state.legal_moves()))
    return state


def bounded(call: Callable[[], T]) -> T | ParlourError:
    """``call()``'s value or the ParlourError it raised; any other exception is raised
    again here, and a call that has not returned within BOUND seconds fails as a hang."""
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(call())
        except BaseException as error:  # handed to the test's thread
            outcome.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(BOUND)
    assert outcome, f"hang: no answer within {BOUND} s"
    if isinstance(outcome[0], BaseException) and not isinstance(outcome[0], ParlourError):
        raise outcome[0]
    return outcome[0]


def default_ctrl_c() -> None:
    """For a child process's ``preexec_fn``: Ctrl-C's signal at its default, as a person's
    terminal has it, even where the tests run with it ignored (a background job)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def spawn_parlour(*args: str, timeout: int = 60) -> pexpect.spawn:
    """``parlour ARGS`` in a pseudo-terminal, as a person starts it."""
    return pexpect.spawn(
        PARLOUR, list(args), encoding="utf-8", timeout=timeout, preexec_fn=default_ctrl_c
    )


def spawn_play(game: str, *args: str, timeout: int = 60) -> pexpect.spawn:
    """``parlour play GAME ARGS`` in a pseudo-terminal; ``child.logfile_read`` keeps all it
    printed (see ``transcript``)."""
    child = spawn_parlour("play", game, *args, timeout=timeout)
    child.logfile_read = io.StringIO()
    return child


def transcript(child: pexpect.spawn) -> str:
    """All the child printed, less the "warming up" note that a cold numba cache adds
    (it goes to stderr, which the pseudo-terminal mixes in) and parlour's note on the
    commands (the seeds' screens have none)."""
    log = child.logfile_read
    assert isinstance(log, io.StringIO)
    lines = log.getvalue().replace("\r", "").split("\n")
    noted = COMMANDS_NOTE.strip()
    kept = (line for line in lines if not line.startswith("warming up ") and line != noted)
    return "\n".join(kept)


def mover_value(before: State, after: State) -> int:
    """The final margin with perfect play from ``after``, for ``before``'s side to move."""
    if after.is_over:
        mine, theirs = after.scores if before.to_move == 0 else after.scores[::-1]
        return mine - theirs
    value = exhaustive(after)
    return value if after.to_move == before.to_move else -value


VALUES: dict[tuple[str, str], int] = {}
"""The exhaustive values found so far, by game and position, for every test."""


def exhaustive(state: State) -> int:
    """The final margin of ``state``'s side to move with perfect play: every line to its
    end, each position valued once (a plain recursion, deep enough for these boards)."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))
    key = (repr(sorted(state.game.options.items())), state.notation())
    if key not in VALUES:
        best = None
        for move in state.legal_moves():
            child = state.play(move)
            found = mover_value(state, child)
            best = found if best is None else max(best, found)
        assert best is not None
        VALUES[key] = best
    return VALUES[key]


def four_stored_games(name: str, players: str, seconds: float, db: Path) -> list[Any]:
    """``parlour match`` of four games of ``name`` between ``players`` (a spec each, with a
    comma) at ``seconds`` a move, one at a time, stored at ``db``: the rows stored, once
    the command has said four games."""
    from click.testing import CliRunner

    from parlour.arena.records import Records
    from parlour.cli import main

    result = CliRunner().invoke(main, [
        "match", name, "--players", players, "--games", "4", "--time", str(seconds),
        "-j", "1", "--db", str(db), "--json",
    ])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert json.loads(result.output.splitlines()[-1])["games"] == 4
    with Records(db) as records:
        recorded = list(records.games(limit=10))
    assert len(recorded) == 4
    return recorded
