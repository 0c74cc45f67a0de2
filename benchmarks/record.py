"""What every benchmark shares: its command line's ``--quick`` and ``--note``, the readers of its
numbers (``whole``, ``duration``: parlour's own, as every command's), and the record
of a run, appended to ``benchmarks/results/NAME.jsonl`` (NAME the script's).

A record is one JSON object a line: the date (UTC), the commit of the code measured (short
hash, "+dirty" when its tracked files have changes), the machine's core count, the
arguments, the note and the figures the script printed.  JSON lines rather than one JSON
list a file, because a run then appends a line and never rewrites the file: nothing
recorded before can be lost to a run that fails while writing, and git shows each run as a
line added.  The records seeded from the figures that docstrings and commit messages
held before these files also name their ``source``, and leave what was not kept null.
``--quick`` runs the script with tiny arguments so that the tests can check it
still works; it records nothing and prints the record it would have written instead.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import parlour
from parlour.core import MAX_SECONDS, BadOption, parse_seconds, parse_whole

RESULTS = Path(__file__).with_name("results")
UNRECORDED = "--quick, not recorded: "
"""The start of the line that prints a quick run's record (the tests read what follows)."""
EXCLUDE = ":(top,exclude)benchmarks/results"
"""Not a change to the code measured: a run's own record leaves the next run's tree clean."""


T = TypeVar("T")
MAX_COUNT = 10**12
"""The largest whole number a benchmark's option takes unless it says less: far above any
count a run could reach, and no number past it reaches arithmetic."""
MAX_PROCESSES = 1024
"""The most processes, threads or games at once an option may ask for."""


def refusing(read: Callable[[str], T]) -> Callable[[str], T]:
    """``read`` as an option's ``type``: its refusal (``BadOption``) becomes argparse's,
    which names the option."""

    def checked(text: str) -> T:
        try:
            return read(text)
        except BadOption as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    return checked


def whole(minimum: int = 1, maximum: int = MAX_COUNT) -> Callable[[str], int]:
    """An option's ``type``: a whole number ``minimum..maximum`` read by parlour's one number
    reader (``core.parse_whole``)."""
    return refusing(lambda text: parse_whole(text, "the value", minimum, maximum, BadOption))


def duration(minimum: float = 0.0, maximum: float = MAX_SECONDS) -> Callable[[str], float]:
    """An option's ``type``: a time in seconds, ``minimum..maximum``, read by
    ``core.parse_seconds`` (never negative, infinite or "nan")."""
    return refusing(lambda text: parse_seconds(text, "the value", minimum, maximum))


def arguments(parser: argparse.ArgumentParser, quick: dict[str, Any]) -> argparse.Namespace:
    """The command line, with ``--quick`` (whose defaults are ``quick``, each of which the
    command line still overrides) and ``--note``."""
    parser.add_argument(
        "--quick",
        action="store_true",
        help="tiny arguments, to check the script works; records nothing",
    )
    parser.add_argument("--note", default="", help="what this run measures, for its record")
    args = parser.parse_args()
    if args.quick:
        parser.set_defaults(**quick)
        args = parser.parse_args()
    return args


def record(
    args: argparse.Namespace,
    figures: dict[str, Any],
    script: str = sys.argv[0],
    folder: Path = RESULTS,
) -> None:
    """Append a run's record to ``folder``/NAME.jsonl (NAME ``script``'s), or print it under
    ``--quick``."""
    settings = {k: v for k, v in vars(args).items() if k not in ("quick", "note")}
    line = json.dumps(
        {
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
            "commit": commit(),
            "cores": os.cpu_count(),
            "arguments": settings,
            "note": args.note,
            "figures": rounded(figures),
        },
        default=str,
    )
    if args.quick:
        print(UNRECORDED + line)
        return
    path = folder / f"{Path(script).stem}.jsonl"
    folder.mkdir(exist_ok=True)
    with path.open("a") as results:
        results.write(line + "\n")
    print(f"recorded in {path}")


def rounded(figures: Any) -> Any:
    """``figures`` with each float to four significant digits (what a timing is worth)."""
    if isinstance(figures, float):
        return float(f"{figures:.4g}")
    if isinstance(figures, dict):
        return {key: rounded(value) for key, value in figures.items()}
    if isinstance(figures, list | tuple):
        return [rounded(value) for value in figures]
    return figures


def commit() -> str:
    """The short hash of parlour's checkout (the code measured, which ``PYTHONPATH`` may take
    from another worktree), with "+dirty" when tracked files other than the results have
    changes; "unknown" outside git."""
    where = Path(parlour.__file__).parent
    try:
        head = git(where, "rev-parse", "--short", "HEAD")
        changes = git(where, "status", "--porcelain", "--untracked-files=no", "--", ":/", EXCLUDE)
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+dirty" if changes else "")


def git(where: Path, *command: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(where), *command], capture_output=True, text=True, check=True
    )
    return done.stdout.strip()
