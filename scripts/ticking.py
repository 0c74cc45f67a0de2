"""Run a step of ``make play``'s setting up (making the venv, pip's install) so that the
screen is never silent for more than a second: the step's own output as it comes, and
while it says nothing a line that ticks twice a second with what is going on and for how
long, wiped as soon as the step speaks again.

    python3 scripts/ticking.py WORDS COMMAND [ARGUMENTS...]

At a terminal the step runs in a pseudo-terminal of its own (so pip still draws its
progress bars); elsewhere (a log, a pipe) it runs as it is.  The exit status is the
step's; Ctrl-C ends both with status 130.  Only the standard library: it runs before
parlour, or the venv, exists.
"""

from __future__ import annotations

import fcntl
import os
import pty
import select
import subprocess
import sys
import termios
import time

SILENCE = 0.5
"""Seconds of silence before (and between) two ticks: with the start of this script
itself, the screen is never silent for a second."""


def run(words: str, command: list[str]) -> int:
    """``command`` in a pseudo-terminal, its output copied to ours, ``words`` ticking
    through its silences; its exit status."""
    leader, follower = pty.openpty()
    try:  # the same width as ours, for pip's bars
        size = fcntl.ioctl(sys.stdout.fileno(), termios.TIOCGWINSZ, b"\0" * 8)
        fcntl.ioctl(follower, termios.TIOCSWINSZ, size)
    except OSError:
        pass
    child = subprocess.Popen(command, stdout=follower, stderr=follower)
    os.close(follower)
    out = sys.stdout.buffer
    started = heard = time.monotonic()
    ticking = False
    while True:
        readable, _, _ = select.select([leader], [], [], 0.1)
        now = time.monotonic()
        if readable:
            try:
                data = os.read(leader, 65536)
            except OSError:  # the step has ended and closed its side
                data = b""
            if not data:
                break
            out.write((b"\r\x1b[K" if ticking else b"") + data)
            ticking, heard = False, now
        elif now - heard >= SILENCE:
            out.write(f"\r{words}: {now - started:.0f} s\x1b[K".encode())
            ticking, heard = True, now
        else:
            continue
        out.flush()
    if ticking:
        out.write(b"\r\x1b[K")
        out.flush()
    os.close(leader)
    return child.wait()


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print("usage: ticking.py WORDS COMMAND [ARGUMENTS...]", file=sys.stderr)
        return 2
    words, command = argv[0], argv[1:]
    if not sys.stdout.isatty():
        return subprocess.call(command)
    return run(words, command)


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:  # the step had it too (one process group): it ends as well
        print(file=sys.stderr)
        sys.exit(130)
