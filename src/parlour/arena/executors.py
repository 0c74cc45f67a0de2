"""Where the games are played: local worker processes, or the tasks of a Ray cluster.

An executor takes a plan and the jobs still to play and yields their records as they
finish, in whatever order; :meth:`Executor.close` stops everything at once (the games
being played are dropped, never recorded).  Both run the same :func:`play_job`, so the
same plan gives the same games on either.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from parlour.arena.plan import Job, Plan
from parlour.arena.worker import GameRecord, play_job
from parlour.core import BadOption

if TYPE_CHECKING:
    import numpy as np

    from parlour.games.war.kernel import Summary
    from parlour.games.war.rules import WarRules

T = TypeVar("T")


class Executor(Protocol):
    def run(self, plan: Plan, jobs: Sequence[Job]) -> Iterator[GameRecord]:
        """The records of ``jobs``, as they finish."""

    def close(self) -> None:
        """Stop every game at once."""


def cores() -> int:
    """The cores this process may use (the default concurrency)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


PR_SET_PDEATHSIG = 1  # Linux's prctl option: a signal for this process when its parent dies


def _worker_starts() -> None:
    """A worker leaves Ctrl-C to the process that owns it (and the database), and on Linux
    ends with it, even when that process is killed outright (kill -9)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform == "linux":
        ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


class Local:
    """``concurrency`` worker processes of this machine, each kept for every game it
    plays (its compiled kernels stay warm).

    Workers come from a fork server, a fresh interpreter that has imported the worker's
    modules: a plain fork would copy this process's threads' locks (numba's thread pool,
    a server's, a progress bar's) in whatever state they are, and a worker could wait on
    one for ever.
    """

    def __init__(self, concurrency: int) -> None:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["parlour.arena.worker"])
        self.pool = context.Pool(concurrency, _worker_starts)

    def run(self, plan: Plan, jobs: Sequence[Job]) -> Iterator[GameRecord]:
        yield from self.pool.imap_unordered(partial(play_job, plan), jobs, chunksize=1)

    def close(self) -> None:
        self.pool.terminate()
        self.pool.join()


class Ray:
    """The tasks of a Ray cluster (``address``; None: a cluster of this machine started
    for the run, or the one this process has already joined), one core a game; twice
    ``concurrency`` (default: the cluster's cores) are given out at a time, so that no
    core waits for the next, and results stream back as they finish."""

    def __init__(self, concurrency: int | None, address: str | None = None) -> None:
        try:
            import ray as module
        except ImportError:
            raise BadOption("--executor ray needs Ray: pip install 'parlour[ray]'") from None
        ray: Any = module
        self.ray = ray
        if not ray.is_initialized():
            ray.init(address=address, log_to_driver=False, include_dashboard=False)
        self.window = 2 * (concurrency or max(1, int(ray.cluster_resources().get("CPU", 1))))
        self.pending: list[Any] = []

    def run(self, plan: Plan, jobs: Sequence[Job]) -> Iterator[GameRecord]:
        plan_ref = self.ray.put(plan)
        yield from self.stream(play_job, ((plan_ref, job) for job in jobs))

    def stream(self, func: Callable[..., T], calls: Iterable[tuple[Any, ...]]) -> Iterator[T]:
        """``func(*call)`` of each call as a task, the results as they finish."""
        ray = self.ray
        task = ray.remote(num_cpus=1, max_retries=0)(func)
        waiting = iter(calls)
        for call in waiting:
            self.pending.append(task.remote(*call))
            if len(self.pending) >= self.window:
                break
        while self.pending:
            done, self.pending = ray.wait(self.pending, num_returns=1)
            for call in waiting:
                self.pending.append(task.remote(*call))
                break
            yield ray.get(done[0])

    def close(self) -> None:
        for ref in self.pending:
            self.ray.cancel(ref, force=True)
        self.pending = []


def executor(name: str, concurrency: int | None, address: str | None = None) -> Executor:
    """The executor ``--executor`` names; ``concurrency`` None: every core it has."""
    if name == "ray":
        return Ray(concurrency, address)
    if address is not None:
        raise BadOption("--address is for --executor ray")
    return Local(concurrency or cores())


def _war_chunk(rules: WarRules, first: int, count: int) -> np.ndarray:
    """A chunk of War games on one core of a Ray worker."""
    import numba

    from parlour.games.war.kernel import play_chunk

    numba.set_num_threads(1)
    return play_chunk(rules, first, count)


def simulate_war(
    rules: WarRules,
    games: int,
    progress: Callable[[int], None],
    concurrency: int | None = None,
    address: str | None = None,
) -> Summary:
    """``parlour simulate war`` on a Ray cluster: the same chunks of games as on this
    machine's cores (so the same statistics for the same seed), one task a chunk."""
    from parlour.games.war.kernel import Tally, chunks

    ray = Ray(concurrency, address)
    tally = Tally()
    try:
        for results in ray.stream(_war_chunk, ((rules, *c) for c in chunks(rules, games))):
            tally.add(results)
            progress(len(results))
    finally:
        ray.close()
    return tally.summary(rules)
