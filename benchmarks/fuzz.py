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

    .venv/bin/python benchmarks/fuzz.py [--inputs 100000] [--boundary NAME ...] [--jobs N] [--quick]

Each boundary's inputs are shared by ``--jobs`` processes (every core by default), each
drawing its own with a hypothesis seed of its own, the suite loaded once a process; the
figures add theirs up, with the boundary's seconds from start to end and the machine's
load (the one-minute average) at both.  Most of an input's time is hypothesis drawing it
(a random game played to a position, a few milliseconds); the check is the rest.  A run at
the default volume takes hours even on two cores; ``--boundary`` runs some of them.

    .venv/bin/python benchmarks/fuzz.py --boundary cards "terminal bytes" --jobs 2
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, given, seed, settings

from record import MAX_PROCESSES, arguments, record, whole

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


def fuzz(strategy: Any, check: Any, inputs: int, stream: int = 0) -> dict[str, Any]:
    """``inputs`` inputs of ``strategy`` through ``check``, drawn by the hypothesis seed
    ``stream``: the counts and a first case of each kind of failure."""
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
    )(seed(stream)(given(strategy)(one)))
    started, used = time.perf_counter(), time.process_time()
    run()
    return {
        "inputs": counts["inputs"],
        **{k: counts[k] for k in KINDS},
        "seconds": time.perf_counter() - started,
        "cpu seconds": time.process_time() - used,
        **first,
    }


def part(name: str, inputs: int, stream: int) -> dict[str, Any]:
    """One process's share of the boundary ``name`` (the suite loaded once a process)."""
    if str(TESTS) not in sys.path:
        sys.path.insert(0, str(TESTS))
    from test_fuzz import BOUNDARIES

    strategy, check = BOUNDARIES[name]
    return fuzz(strategy, check, inputs, stream)


def shared(pool: ProcessPoolExecutor, name: str, inputs: int, jobs: int) -> dict[str, Any]:
    """``inputs`` inputs of the boundary ``name``, shared by ``jobs`` processes of
    ``pool``: their counts added up, the first failing case of each kind kept, the
    seconds from start to end and the load at both."""
    load = os.getloadavg()[0]
    started = time.perf_counter()
    shares = [inputs // jobs + (k < inputs % jobs) for k in range(jobs)]
    parts = list(pool.map(part, [name] * jobs, shares, range(jobs)))
    total: dict[str, Any] = {"inputs": sum(p["inputs"] for p in parts)}
    total.update({k: sum(p[k] for p in parts) for k in (*KINDS, "cpu seconds")})
    total["seconds"] = time.perf_counter() - started
    total["load"] = [load, os.getloadavg()[0]]
    for p in reversed(parts):
        total.update({k: v for k, v in p.items() if k.startswith("first of")})
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=whole(), default=100_000, help="inputs a boundary")
    parser.add_argument("--boundary", nargs="+", help="the boundaries' names (all if none)")
    parser.add_argument(
        "--jobs",
        type=whole(1, MAX_PROCESSES),
        default=os.cpu_count() or 1,
        help="processes (every core)",
    )
    args = arguments(parser, quick={"inputs": 5, "boundary": list(QUICK)})
    sys.path.insert(0, str(TESTS))
    from test_fuzz import BOUNDARIES

    names = args.boundary or list(BOUNDARIES)
    unknown = sorted(set(names) - set(BOUNDARIES))
    if unknown:
        parser.error(f"no boundary {', '.join(unknown)}; they are: {', '.join(BOUNDARIES)}")
    figures = {}
    # spawned, not forked: a fork would copy the compiled kernels' thread pools mid-state
    with ProcessPoolExecutor(args.jobs, mp_context=get_context("spawn")) as pool:
        for name in names:
            figures[name] = shared(pool, name, args.inputs, args.jobs)
            counts = "  ".join(f"{figures[name][k]} {k}" for k in KINDS)
            took = f"{figures[name]['seconds']:.0f} s ({figures[name]['cpu seconds']:.0f} s of CPU)"
            print(f"{name}: {figures[name]['inputs']} inputs  {counts}  {took}", flush=True)
    record(args, figures)


if __name__ == "__main__":
    main()
