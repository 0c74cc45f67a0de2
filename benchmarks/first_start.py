"""What a person waits for when parlour starts the first time, timed through a
pseudo-terminal as the person sees it: ``make play``'s timeline to its first prompt (each
phase, what the screen said, the longest silence), Ctrl-C at that prompt, the second
start, and the first starts of ``parlour play ayo``, ``play gomoku``, ``serve`` (until the
page answers, and until its warm-up says ready) and ``pbrain`` (until START's OK).

    .venv/bin/python benchmarks/first_start.py [--fresh-clone] [--quick]

By default each first start has a cache of its own, empty (``PARLOUR_CACHE_DIR``,
``NUMBA_CACHE_DIR``: no kernel compiled, no endgame table), with this checkout's venv.
``--fresh-clone`` starts from nothing, as a new user does: a clone of this commit, a home
and caches of its own, so ``make play`` also makes the venv and installs with pip (from
the package index, as configured: a minute or more).  ``--quick`` (for the tests) starts
``play kalah`` and ``pbrain`` with the caches as they are and records nothing.  Run it on
an idle machine: the figures are the machine's load as much as parlour's (the record
keeps the load at start and end).
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from contextlib import suppress
from pathlib import Path
from typing import Any

import pexpect

from record import arguments, record

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from helpers import default_ctrl_c  # noqa: E402

PROMPT = "-> "
"""How every game's prompt for a move ends."""
BOUND = 900
"""Seconds a start may take before the run gives up on it."""
KEY = 40
"""Characters of a line (its numbers aside) that name its phase: lines that share them
(a ticking count, a warm-up's kernels) are one phase of the timeline."""
TOGETHER = 0.05
"""Seconds within which lines are shown together (a board): one phase, named by the first."""


class Watched:
    """A program in a pseudo-terminal, with everything it printed and when."""

    def __init__(self, command: str, args: list[str], env: dict[str, str], cwd: Path) -> None:
        self.started = time.monotonic()
        self.child = pexpect.spawn(
            command,
            args,
            env=env,
            cwd=str(cwd),
            encoding="utf-8",
            timeout=BOUND,
            preexec_fn=default_ctrl_c,  # Ctrl-C as a person's terminal has it
        )
        self.chunks: list[tuple[float, str]] = []

    @property
    def text(self) -> str:
        return "".join(chunk for _, chunk in self.chunks)

    def until(self, pattern: str, bound: float = BOUND) -> float:
        """Read until the screen so far matches ``pattern`` (a regular expression):
        the seconds since the start (an error if it ended or took ``bound``)."""
        deadline = time.monotonic() + bound
        while not re.search(pattern, self.text):
            if time.monotonic() > deadline:
                raise TimeoutError(f"no {pattern!r} within {bound} s: {self.text[-300:]!r}")
            try:
                chunk = self.child.read_nonblocking(65536, timeout=0.1)
            except pexpect.TIMEOUT:
                continue
            self.chunks.append((time.monotonic() - self.started, chunk))
        return time.monotonic() - self.started

    def timeline(self) -> dict[str, Any]:
        """The phases of what the screen said, as [first, last second, first line], and the
        longest silence: its seconds, and the line after which it fell."""
        phases: list[list[Any]] = []
        gaps: list[tuple[float, str]] = []
        last, line = 0.0, ""
        for at, chunk in self.chunks:
            gaps.append((at - last, line))
            last = at
            for piece in re.split(r"[\r\n]+", chunk):
                piece = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", piece).strip()
                if not piece:
                    continue
                line = piece
                key = re.sub(r"\d+", "N", piece)[:KEY]
                if phases and (phases[-1][3] == key or at - phases[-1][1] < TOGETHER):
                    phases[-1][1] = round(at, 2)
                else:
                    phases.append([round(at, 2), round(at, 2), piece[:120], key])
        silence, after = max(gaps, default=(0.0, ""))
        return {
            "phases": [phase[:3] for phase in phases],
            "longest silence": round(silence, 2),
            "silent after": after[:120],
        }

    def interrupt(self) -> dict[str, Any]:
        """Ctrl-C: the seconds to the end and the exit status."""
        pressed = time.monotonic()
        self.child.sendintr()
        self.child.expect(pexpect.EOF, timeout=30)
        seconds = time.monotonic() - pressed
        self.child.close()
        status = self.child.exitstatus
        return {  # make ends by the signal itself (its recipe's shell outlives it)
            "seconds": round(seconds, 3),
            "status": status if status is not None else f"signal {self.child.signalstatus}",
        }

    def end(self) -> None:
        if self.child.isalive():
            self.child.kill(signal.SIGKILL)
        self.child.close()


def environment(home: Path, fresh: bool) -> dict[str, str]:
    """The environment of a start: a cache of its own under ``home`` if ``fresh``."""
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR",)}
    if fresh:
        env.update(
            PARLOUR_CACHE_DIR=str(home / "cache" / "parlour"),
            XDG_CACHE_HOME=str(home / "cache"),
            XDG_DATA_HOME=str(home / "data"),
        )
    return env


def to_prompt(command: str, args: list[str], env: dict[str, str], cwd: Path) -> dict[str, Any]:
    """A start until its first prompt, with its timeline, then Ctrl-C there."""
    watched = Watched(command, args, env, cwd)
    try:
        seconds = watched.until(re.escape(PROMPT) + r"$")
        figures = {"prompt": round(seconds, 2), **watched.timeline()}
        figures["ctrl-c"] = watched.interrupt()
        return figures
    finally:
        watched.end()


def pbrain(parlour: str, env: dict[str, str]) -> dict[str, Any]:
    """``parlour pbrain``'s first start: the seconds to ABOUT's answer and START's OK."""
    watched = Watched(parlour, ["pbrain"], env, ROOT)
    try:
        watched.child.sendline("ABOUT")
        about = watched.until(r"name=")
        watched.child.sendline("START 15")
        ok = watched.until(r"\bOK\b")
        watched.child.sendline("END")
        return {"about": round(about, 2), "start ok": round(ok, 2)}
    finally:
        watched.end()


def serve(parlour: str, env: dict[str, str]) -> dict[str, Any]:
    """``parlour serve``'s first start: the seconds to the page answering, and to the
    server's warm-up saying it is ready (``/api/ready``)."""
    port = str(8000 + os.getpid() % 1000)
    watched = Watched(parlour, ["serve", "--port", port], env, ROOT)
    address = f"http://127.0.0.1:{port}"
    try:
        page = poll(f"{address}/", lambda body: b"<html" in body.lower(), watched)
        ready = poll(f"{address}/api/ready", lambda body: b'"ready":true' in body, watched)
        return {"page": round(page, 2), "ready": round(ready, 2), **watched.timeline()}
    finally:
        watched.end()


def poll(url: str, done: Any, watched: Watched) -> float:
    """Ask ``url`` every tenth of a second until its answer is ``done``: the seconds since
    the start of ``watched``."""
    deadline = time.monotonic() + BOUND
    while time.monotonic() < deadline:
        with suppress(pexpect.TIMEOUT, pexpect.EOF):  # its terminal kept drained
            chunk = watched.child.read_nonblocking(65536, timeout=0)
            watched.chunks.append((time.monotonic() - watched.started, chunk))
        if not watched.child.isalive():
            raise RuntimeError(f"the server ended: {watched.text[-300:]!r}")
        try:
            with urllib.request.urlopen(url, timeout=5) as answer:
                if done(answer.read().replace(b" ", b"")):
                    return time.monotonic() - watched.started
        except OSError:
            pass
        time.sleep(0.1)
    raise TimeoutError(f"{url} did not answer within {BOUND} s")


class Shown(dict[str, Any]):
    """The figures, each printed as soon as it is measured (a run takes minutes)."""

    def __setitem__(self, name: str, value: Any) -> None:
        super().__setitem__(name, value)
        if isinstance(value, dict):
            value = {k: v for k, v in value.items() if k != "phases"}
        print(f"{name}: {value}", flush=True)


def clone(into: Path) -> Path:
    """A fresh clone of this commit (its committed files only) in ``into``."""
    where = into / "parlour"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(where)], check=True)
    return where


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--fresh-clone", action="store_true", help="from a fresh clone, venv and home"
    )
    args = arguments(parser, quick={})
    load = os.getloadavg()[0]
    figures = Shown()
    with tempfile.TemporaryDirectory(prefix="first-start-") as folder:
        home = Path(folder)
        fresh = not args.quick
        if args.fresh_clone:
            where = clone(home)
            env = {**environment(home, fresh=True), "HOME": str(home / "home")}
            (home / "home").mkdir()
            parlour = str(where / ".venv" / "bin" / "parlour")
            figures["make play"] = to_prompt("make", ["-s", "play"], env, where)
            figures["make play, second start"] = to_prompt("make", ["-s", "play"], env, where)
            # the web server's packages (make serve's), installed before its start is timed
            subprocess.run(["make", "-s", ".venv/.installed-serve"], cwd=where, env=env, check=True)
        else:
            where = ROOT
            parlour = str(Path(sys.executable).parent / "parlour")
            env = environment(home / "play", fresh)
            starts = ["play", "kalah"] if args.quick else ["play", "mancala", "--level", "8"]
            figures["make play"] = to_prompt(parlour, starts, env, where)
            figures["make play, second start"] = to_prompt(parlour, starts, env, where)
        if not args.quick:
            for game in ("ayo", "gomoku"):
                env = environment(home / game, fresh)
                play = ["play", game, "--first", "human"]
                figures[f"play {game}"] = to_prompt(parlour, play, env, where)
            figures["serve"] = serve(parlour, environment(home / "serve", fresh))
        figures["pbrain"] = pbrain(parlour, environment(home / "pbrain", fresh))
    figures["load"] = [load, os.getloadavg()[0]]
    record(args, figures)


if __name__ == "__main__":
    main()
