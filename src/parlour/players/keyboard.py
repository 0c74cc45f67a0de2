"""The person's keyboard: lines typed at the terminal, read without blocking the event
loop.

:func:`keyboard` gives a :class:`LineEditor` at a terminal (line editing and history, the
terminal given back as found) and a :class:`Keyboard` on a pipe or a file.  Both read in a
daemon thread, so that waiting for a person never blocks the event loop, and neither dies
on bytes that are not UTF-8 text: it names them and asks again.  The end of input (Ctrl-D)
is None; ``QUIT`` are the words that leave a game.
"""

from __future__ import annotations

import asyncio
import os
import queue
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Protocol, TextIO

QUIT = ("quit", "exit", "q")
"""What a person types to leave a game."""
QUITTED = "quit"
"""The reason a player (or a watcher) stops when the person quits."""


class LineSource(Protocol):
    async def readline(self, prompt: str = "") -> str | None:
        """Show ``prompt``, then the next line typed, without its newline; None at the end
        of input."""


@contextmanager
def keyboard(out: TextIO) -> Iterator[LineSource]:
    """The person's keyboard, prompting on ``out``: with line editing and history where
    this is a terminal (:class:`LineEditor`, the terminal restored at the end), plain
    lines from a pipe or a file."""
    editor = None
    if out is sys.stdout and sys.stdin.isatty() and out.isatty():
        with suppress(ImportError, OSError):  # no readline module, or no terminal for it
            editor = LineEditor()
    if editor is None:
        yield Keyboard(out=out)
        return
    try:
        yield editor
    finally:
        editor.restore()


class Keyboard:
    """Lines from a file descriptor, read by a daemon thread into the event loop.

    The thread reads the raw descriptor (not ``sys.stdin``), so an exit while it waits
    for input never trips over the interpreter's stdin lock.
    """

    def __init__(self, fd: int = 0, out: TextIO | None = None) -> None:
        self.fd = fd
        self.out = out
        self.chunks: asyncio.Queue[bytes] = asyncio.Queue()
        self.buffer = b""
        self.thread: threading.Thread | None = None

    async def readline(self, prompt: str = "") -> str | None:
        if prompt:
            out = self.out or sys.stdout
            out.write(prompt)
            out.flush()
        if self.thread is None:
            loop = asyncio.get_running_loop()
            self.thread = threading.Thread(target=self._pump, args=(loop,), daemon=True)
            self.thread.start()
        while True:
            line = await self._line()
            if line is None:
                return None
            try:
                return line.decode().rstrip("\r")
            except UnicodeDecodeError as error:
                out = self.out or sys.stdout
                out.write(not_text(error) + (prompt.rpartition("\n")[2]))
                out.flush()

    async def _line(self) -> bytes | None:
        """The next line's bytes, without its newline; None at the end of input."""
        while b"\n" not in self.buffer:
            chunk = await self.chunks.get()
            if not chunk:
                self.chunks.put_nowait(chunk)  # the end stays the end
                if not self.buffer:
                    return None
                line, self.buffer = self.buffer, b""
                return line
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line

    def _pump(self, loop: asyncio.AbstractEventLoop) -> None:
        while True:
            try:
                chunk = os.read(self.fd, 4096)
            except OSError:
                chunk = b""
            try:
                loop.call_soon_threadsafe(self.chunks.put_nowait, chunk)
            except RuntimeError:  # the loop has closed: nobody is listening any more
                return
            if not chunk:
                return


class LineEditor:
    """Lines typed at a terminal with editing and history (Python's ``readline``): the
    arrow keys move along the line and bring back earlier lines.

    ``input`` runs in a daemon thread, one line a request, so waiting for the person never
    blocks the event loop.  readline holds the terminal in its own mode while it reads; a
    game that ends while it waits (Ctrl-C, a resignation) leaves it so, hence
    :meth:`restore`, which puts back the settings found at the start.
    """

    def __init__(self) -> None:
        import readline
        import termios

        readline.parse_and_bind("set enable-bracketed-paste off")  # no escapes on screen
        self._settings = termios.tcgetattr(sys.stdin.fileno())
        self._requests: queue.SimpleQueue[tuple[str, asyncio.Future[str | None]]]
        self._requests = queue.SimpleQueue()
        self._thread: threading.Thread | None = None

    async def readline(self, prompt: str = "") -> str | None:
        # readline redraws its prompt's last line only: the lines before go out as text.
        head, newline, last = prompt.rpartition("\n")
        if newline:
            sys.stdout.write(head + newline)
        answer: asyncio.Future[str | None] = asyncio.get_running_loop().create_future()
        if self._thread is None:
            self._thread = threading.Thread(target=self._serve, daemon=True)
            self._thread.start()
        self._requests.put((last, answer))
        return await answer

    def _serve(self) -> None:
        while True:
            prompt, answer = self._requests.get()
            line: str | None = None
            while True:
                try:
                    line = input(prompt)
                except UnicodeDecodeError as error:  # a strict stdin: asked again
                    sys.stdout.write(not_text(error))
                    continue
                except (EOFError, OSError):
                    line = None
                break
            try:
                answer.get_loop().call_soon_threadsafe(_settle, answer, line)
            except RuntimeError:  # the loop has closed: nobody is listening any more
                return

    def restore(self) -> None:
        """Put the terminal back as it was found (echo on, lines at a time)."""
        import termios

        termios.tcsetattr(sys.stdin.fileno(), termios.TCSADRAIN, self._settings)


def not_text(error: UnicodeDecodeError) -> str:
    """What a reader says of a line with bytes that are not UTF-8 text, before it asks
    again: the bytes, by their hexadecimal values."""
    bad = error.object[error.start : min(error.end, error.start + 8)]
    return f"That line has bytes that are not text ({bad.hex(' ')}): type it again.\n"


def _settle(answer: asyncio.Future[str | None], line: str | None) -> None:
    if not answer.done():  # a question taken back (the game ended) wants no answer
        answer.set_result(line)
