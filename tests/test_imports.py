"""What the ``parlour`` command loads before its first line (issue 43): a command's words
come before numpy and numba, which take a third of a second or more to import on a
loaded machine, and before the players and the actor runtime (asyncio); each command
loads what it needs when it runs.  ``python -X importtime -c 'import parlour.cli'``
measures it."""

from __future__ import annotations

import subprocess
import sys

import pytest

HEAVY = ("numpy", "numba", "asyncio", "parlour.players", "parlour.actors")
"""Modules the command line itself does without."""


def loaded_after(code: str) -> set[str]:
    """The modules of ``HEAVY`` a fresh interpreter has loaded after running ``code``."""
    script = f"{code}\nimport sys\nprint(' '.join(m for m in {HEAVY!r} if m in sys.modules))"
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True
    )
    return set(done.stdout.split())


def test_the_command_line_loads_no_numpy_numba_or_players() -> None:
    assert loaded_after("import parlour.cli") <= {"asyncio"}  # War's module, not its own


@pytest.mark.parametrize("args", [["--help"], ["play", "--help"], ["play", "kalah", "--help"]])
def test_help_loads_no_numpy_numba_or_players(args: list[str]) -> None:
    code = f"from parlour.cli import main\ntry:\n    main({args!r})\nexcept SystemExit:\n    pass"
    assert not loaded_after(code) & {"numpy", "numba", "parlour.players"}


def test_playing_loads_the_players_when_it_runs() -> None:
    """The lazy imports are still made: a ``--players`` value is read by the players'
    parser (a bad one refused in its words)."""
    code = (
        "from parlour.cli import main\n"
        "try:\n    main(['play', 'kalah', '--players', 'human,nobody'])\n"
        "except SystemExit:\n    pass"
    )
    assert "parlour.players" in loaded_after(code)
