"""How a build of an endgame table shows its progress on standard error, wherever it is
built (``parlour solve``, the perfect level's first move in ``parlour play``, the web
server's warm-up): a build of minutes never runs in silence."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from parlour.kit import doing

PATIENCE = 0.5
"""Seconds of building after which the progress shows (a quick build shows nothing)."""
EVERY = 1.0
"""Seconds between two lines where standard error is not a terminal (a log)."""


@contextmanager
def shown(description: str) -> Iterator[Callable[[float], None]]:
    """A display of the build ``description`` names (``endgame.Progress``), once it has
    taken ``PATIENCE`` seconds: at a terminal a progress bar, elsewhere a line each
    ``EVERY`` seconds with the share done and the time so far; within a warm-up whose
    line is on screen, that line says it (``kit.doing``)."""
    with doing(f"building the {description}") as told:
        if told is not None:
            yield told
            return
    terminal = sys.stderr.isatty()
    begun = time.monotonic()
    said = begun
    bar: Any = None

    def report(done: float) -> None:
        nonlocal bar, said
        now = time.monotonic()
        if now - begun <= PATIENCE:
            return
        if not terminal:
            if now - said >= EVERY:
                said = now
                print(f"{description}: {done:.0%}, {now - begun:.0f} s", file=sys.stderr)
            return
        if bar is None:
            from rich.console import Console
            from rich.progress import Progress

            bar = Progress(console=Console(stderr=True), transient=True)
            bar.add_task(description, total=1.0)
            bar.start()
        bar.update(bar.task_ids[0], completed=done)

    try:
        yield report
    finally:
        if bar is not None:
            bar.stop()
