"""What several test modules need: positions reached by random play, and ``parlour play``
in a pseudo-terminal."""

from __future__ import annotations

import io
import random
import signal
import sys
from pathlib import Path

import pexpect

from parlour.core import State
from parlour.players.terminal import COMMANDS_NOTE

PARLOUR = str(Path(sys.executable).parent / "parlour")
"""The ``parlour`` command of this environment."""


def random_play(state: State, rng: random.Random, plies: int) -> State:
    """``state`` after up to ``plies`` random legal moves (fewer if the game ends)."""
    for _ in range(plies):
        if state.is_over:
            break
        state = state.play(rng.choice(state.legal_moves()))
    return state


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
