"""Every example of the README runs: each ``parlour`` command of its shell blocks, and its
Python block.

The commands are read from the README itself, so an example that fails, hangs, or is
added with no way to run it here fails this test.  Each runs under a time bound, in a
short form where the README's command is interactive:

- ``parlour play ...`` runs as a process of its own (it reads the keyboard itself), with
  ``quit`` and then the end of input typed.  A game with a person must show its first
  prompt and end there; a game between programs plays to its end.  ``play war`` gets
  ``--delay 0``: its pauses between rounds are the only slow part.
- Every other command runs in this process through click's CliRunner, so that what a
  process builds once (the engine's endgame table) is built once for all of them.
- The Python block runs as it is, in this process; the learning agents' one needs extras,
  which the README names before it.
- The Gomocup block runs line by line in a shell, as written, in a folder of its own
  with the repository's ``.venv``: the brain is asked ``ABOUT``, each game against the
  engine (parlour's own brain) is left at the first prompt.

The shell blocks hold ``parlour`` and ``make`` lines only; the ``make`` lines (``make
play``, ``make test``, ``make serve``) set everything up and are not run here.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import time
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from helpers import PARLOUR, default_ctrl_c
from parlour.cli import main

README = Path(__file__).resolve().parent.parent / "README.md"
TIME_BOUND = 90  # seconds for any one example, on a busy machine

_FENCED = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
_TEXT = README.read_text(encoding="utf-8")
_BLOCKS = _FENCED.findall(_TEXT)
_SHELL_BLOCKS = [
    [line for line in body.splitlines() if shlex.split(line, comments=True)]
    for language, body in _BLOCKS
    if language in ("", "sh", "console")
]
SHELL = [shlex.split(line, comments=True) for block in _SHELL_BLOCKS for line in block]
[GOMOCUP] = [block for block in _SHELL_BLOCKS if any("pbrain" in line for line in block)]
"""The Gomocup block: its lines run in turn, in a shell, as a person types them (each
file one writes is read by the next)."""
COMMANDS = [
    shlex.split(line, comments=True)
    for block in _SHELL_BLOCKS
    if block is not GOMOCUP
    for line in block
    if line.startswith("parlour ")
]
PYTHON = [body for language, body in _BLOCKS if language == "python"]


def test_the_readme_has_its_examples() -> None:
    assert all(words[0] in ("parlour", "make") for words in SHELL), SHELL
    played = {words[2] for words in COMMANDS if words[1] == "play"}
    assert played == {"mancala", "kalah", "ayo", "gomoku", "war"}
    assert {words[1] for words in COMMANDS} >= {"play", "rules", "simulate", "perft", "analyze"}
    assert len(PYTHON) == 2  # the API, and the adapters for learning agents


@pytest.mark.parametrize(
    "words", [w for w in COMMANDS if w[1] == "play"], ids=lambda words: " ".join(words[1:])
)
def test_play_example(words: list[str]) -> None:
    args = words[1:] + (["--delay", "0"] if words[2] == "war" else [])
    done = subprocess.run(
        [PARLOUR, *args],
        input="quit\n",
        capture_output=True,
        text=True,
        timeout=TIME_BOUND,
        check=False,
    )
    assert "Traceback" not in done.stderr, done.stderr
    players = args[args.index("--players") + 1] if "--players" in args else "human,computer"
    if words[2] != "war" and "human" in players:
        assert done.returncode in (0, 1), done.stdout + done.stderr  # 1: left at the prompt
        assert "-> " in done.stdout, done.stdout
    else:
        assert done.returncode == 0, done.stdout + done.stderr
        assert " wins" in done.stdout or "draw" in done.stdout or "tie" in done.stdout


@pytest.mark.timeout(TIME_BOUND, method="thread")
@pytest.mark.parametrize(
    "words",
    [w for w in COMMANDS if w[1] not in ("play", "serve")],
    ids=lambda words: " ".join(words[1:]),
)
def test_command_example(words: list[str]) -> None:
    result = CliRunner().invoke(main, words[1:])
    assert result.exit_code == 0, f"{result.output}\n{result.exception!r}"
    assert result.output.strip()


@pytest.mark.timeout(TIME_BOUND, method="thread")
def test_python_example(capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(PYTHON[0], str(README), "exec"), {"__name__": "readme"})
    printed = capsys.readouterr().out
    assert "SearchResult(" in printed and printed.count("\n") >= 2


def test_gomocup_examples_run_as_written(tmp_path: Path) -> None:
    """Each line in a shell, in a folder as the repository's (its ``.venv`` there): the
    brain answers ``ABOUT``, each game against the engine reaches the person's prompt, the
    record is exported, read and written both ways."""
    (tmp_path / ".venv").symlink_to(Path(PARLOUR).parents[1])
    path = f"{Path(PARLOUR).parent}:{os.environ['PATH']}"
    for line in GOMOCUP:
        words = shlex.split(line, comments=True)
        typed = {"pbrain": "ABOUT\nEND\n", "play": "quit\n"}.get(words[1], "")
        done = subprocess.run(
            line,
            shell=True,
            input=typed,
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env={**os.environ, "PATH": path},
            timeout=TIME_BOUND,
            check=False,
        )
        said = done.stdout + done.stderr
        assert "Traceback" not in said and "Error" not in said, f"{line}\n{said}"
        if words[1] == "play":
            assert done.returncode in (0, 1) and "-> " in done.stdout, f"{line}\n{said}"
        else:
            assert done.returncode == 0, f"{line}\n{said}"
        if words[1] == "pbrain":
            assert 'name="parlour"' in done.stdout
    assert (tmp_path / "game.psq").read_text().startswith("Piskvorky 15x15")
    assert json.loads((tmp_path / "game.json").read_text())["game"] == "gomoku"


def test_the_learning_example_says_what_it_needs() -> None:
    """The extras its imports need, named just before it, as ``make play`` installs none."""
    before = _TEXT[: _TEXT.index(PYTHON[1])].rsplit("##", 1)[1]
    assert "`.venv/bin/pip install -e '.[envs,openspiel]'`" in before
    extras = tomllib.loads((README.parent / "pyproject.toml").read_text())["project"]
    needs = extras["optional-dependencies"]
    assert any(d.startswith("pettingzoo") for d in needs["envs"])
    assert any(d.startswith("open_spiel") for d in needs["openspiel"])


def test_learning_example(capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(PYTHON[1], str(README), "exec"), {"__name__": "readme"})
    assert capsys.readouterr().out == "(1024, 6) 0 (1024, 2)\n"


@pytest.mark.slow
@pytest.mark.parametrize(
    "words", [w for w in COMMANDS if w[1] == "serve"], ids=lambda words: " ".join(words[1:])
)
def test_serve_example(words: list[str], tmp_path: Path) -> None:
    """The server prints its address, serves the page there, and Ctrl-C stops it."""
    import httpx2

    server = subprocess.Popen(
        [PARLOUR, *words[1:]],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        preexec_fn=default_ctrl_c,
    )
    try:
        assert server.stdout is not None
        address = server.stdout.readline().split()[-1]
        assert address.startswith("http://127.0.0.1:")
        for _ in range(100):
            try:
                page = httpx2.get(address)
                break
            except httpx2.TransportError:
                time.sleep(0.1)
        assert page.status_code == 200 and "parlour" in page.text
    finally:
        server.send_signal(signal.SIGINT)
        _, errors = server.communicate(timeout=TIME_BOUND)
    assert server.returncode == 130 and "Traceback" not in errors, errors


def test_make_play_says_each_step_of_its_setting_up_before_it_starts(tmp_path: Path) -> None:
    """``make play`` on a fresh clone was silent while it made the venv and while pip ran
    (with ``--quiet``): a line now says each step before it starts, and pip shows its own
    progress.  Here a stand-in Python records each step as it runs."""
    fake = tmp_path / "python3"
    fake.write_text(
        "#!/bin/sh\n"  # scripts/ticking.py WORDS COMMAND: the command, untouched here
        'case "$1" in *ticking.py) shift 2; exec "$@";; esac\n'
        # `python3 -m venv VENV`: a venv whose python and parlour say each call
        'echo "venv made"; mkdir -p "$3/bin"\n'
        'printf \'#!/bin/sh\\necho "pip $*"\\n\' > "$3/bin/python"\n'
        'printf \'#!/bin/sh\\necho "parlour $*"\\n\' > "$3/bin/parlour"\n'
        'chmod +x "$3/bin/python" "$3/bin/parlour"\n'
    )
    fake.chmod(0o755)
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run(
        ["make", "-s", "-C", str(root), "play", f"PYTHON={fake}", f"VENV={tmp_path / 'v'}"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    lines = done.stdout.splitlines()
    said = [i for i, line in enumerate(lines) if line.startswith("setting up parlour: ")]
    assert [lines[i + 1].split()[0] for i in said[:2]] == ["venv", "pip"], lines
    assert "(about half a minute" in lines[said[0]] and "--quiet" not in done.stdout
    assert lines[-1] == "parlour play mancala --level 8"
