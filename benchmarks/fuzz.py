"""The fuzz suite's boundaries at volume: each boundary of ``tests/test_fuzz.py``
(``BOUNDARIES``: positions, typed moves, options, War, player specs, the command lines,
saved games, ``.psq`` records, the terminal's bytes, the Gomocup protocol) given
``--inputs`` generated inputs (10^5 by default; the test suite gives each a few hundred),
each checked by the suite's own check of one input.

A failure does not stop a boundary, as it stops a test: each input is counted as passed,
a crash (an exception other than parlour's errors), a hang (no answer within the suite's
``helpers.BOUND`` seconds), a bad refusal (a message of more than one line, of the wrong
error, or repeating a person's text uncut) or an invalid input accepted (a value that
does not read back, or is not what the rules allow).  The first input of each kind is
kept, cut short, to reproduce it.  The figures per boundary: inputs, crashes, hangs, bad
refusals, invalid accepted, seconds.

    .venv/bin/python benchmarks/fuzz.py [--inputs 100000] [--boundary NAME ...] [--quick]

A run at the default volume takes hours on one core (the command lines are the slow
ones, a process's work each); ``--boundary`` runs some of them.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings

from record import arguments, record

TESTS = Path(__file__).resolve().parents[1] / "tests"
KINDS = ("crashes", "hangs", "bad refusals", "invalid accepted")
QUICK = ("typed moves", "saved games", "Gomocup protocol")
"""The boundaries of ``--quick``: one of each kind, none that starts a command."""
SHOWN = 200
"""The most characters of a failing input (and of its error) a record keeps."""


def kind(error: BaseException) -> str:
    """Which of ``KINDS`` a check's error is (the suite's assertions say which)."""
    if not isinstance(error, AssertionError):
        return "crashes"
    said = str(error)
    if said.startswith("hang"):
        return "hangs"
    return "bad refusals" if said.startswith("refusal") else "invalid accepted"


def fuzz(strategy: Any, check: Any, inputs: int) -> dict[str, Any]:
    """``inputs`` inputs of ``strategy`` through ``check``: the counts and a first case of
    each kind of failure."""
    counts: Counter[str] = Counter()
    first: dict[str, str] = {}

    def one(case: Any) -> None:
        counts["inputs"] += 1
        try:
            check(case)
        except Exception as error:  # counted, never raised: hypothesis would stop
            what = kind(error)
            counts[what] += 1
            first.setdefault(f"first of {what}", f"{case!r:.{SHOWN}} -> {error!r:.{SHOWN}}")

    run = settings(
        max_examples=inputs,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )(given(strategy)(one))
    started = time.perf_counter()
    run()
    seconds = time.perf_counter() - started
    return {
        "inputs": counts["inputs"],
        **{k: counts[k] for k in KINDS},
        "seconds": seconds,
        **first,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=100_000, help="inputs a boundary")
    parser.add_argument("--boundary", nargs="+", help="the boundaries' names (all if none)")
    args = arguments(parser, quick={"inputs": 5, "boundary": list(QUICK)})
    sys.path.insert(0, str(TESTS))
    from test_fuzz import BOUNDARIES

    names = args.boundary or list(BOUNDARIES)
    unknown = sorted(set(names) - set(BOUNDARIES))
    if unknown:
        parser.error(f"no boundary {', '.join(unknown)}; they are: {', '.join(BOUNDARIES)}")
    figures = {}
    for name in names:
        figures[name] = fuzz(*BOUNDARIES[name], args.inputs)
        counts = "  ".join(f"{figures[name][k]} {k}" for k in KINDS)
        print(f"{name}: {figures[name]['inputs']} inputs  {counts}", flush=True)
    record(args, figures)


if __name__ == "__main__":
    main()
