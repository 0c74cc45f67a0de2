"""Where the games are played: local worker processes, or the tasks of a Ray cluster.

An executor takes a plan and the jobs still to play and yields their records as they
finish, in whatever order; :meth:`Executor.close` stops everything at once (the games
being played are dropped, never recorded).  Both run the same :func:`play_job`, so the
same plan gives the same games on either.  A worker that dies (``kill -9``, a lost node)
costs the game it was playing, which is played again: never the match.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import socket
import sys
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any, Protocol, TypeVar

from parlour.arena.plan import Job, Plan
from parlour.arena.worker import GameRecord, play_job, release
from parlour.core import BadOption, ParlourError, parse_whole, shown

T = TypeVar("T")

RETRIES = 2
"""Times a game is played again after its worker died under it, before the match stops
(resumable) on a game that kills whatever plays it."""
PROBE_SECONDS = 3.0
"""How long ``--address`` is given to answer before it is called unreachable."""


class ArenaError(ParlourError):
    """The games cannot go on (a game that kills its workers, a cluster lost): the match
    stops with what it recorded, to resume."""


class Executor(Protocol):
    def run(self, plan: Plan, jobs: Iterable[Job]) -> Iterator[GameRecord]:
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


@dataclass(frozen=True)
class _Failed:
    """A game whose play raised (a bug, not a player's fault: those end as outcomes)."""

    index: int
    error: str


def _serve(connection: Connection) -> None:
    """A local worker's life: the plan once, then jobs one at a time, each answered with
    its record (or what went wrong); None or a closed pipe ends it."""
    _worker_starts()
    plan: Plan | None = None
    while True:
        try:
            message = connection.recv()
        except (EOFError, OSError):
            return
        if message is None:
            release()
            return
        if isinstance(message, Plan):
            plan = message
            continue
        assert plan is not None, "a job before its plan"
        try:
            answer: GameRecord | _Failed = play_job(plan, message)
        except Exception as error:  # reported to the owner, which stops the match
            answer = _Failed(message.index, f"{type(error).__name__}: {error}")
        connection.send(answer)


@dataclass
class _Worker:
    process: BaseProcess
    connection: Connection
    job: Job | None = None


class Local:
    """``concurrency`` worker processes of this machine, each kept for every game it
    plays (its compiled kernels stay warm) and sent the plan once.

    Workers come from a fork server, a fresh interpreter that has imported the worker's
    modules: a plain fork would copy this process's threads' locks (numba's thread pool,
    a server's, a progress bar's) in whatever state they are, and a worker could wait on
    one for ever.  Each worker holds one game at a time, so a worker that dies is known
    by its process and its game is given to a new one (RETRIES times at most).
    """

    def __init__(self, concurrency: int) -> None:
        self.context = multiprocessing.get_context("forkserver")
        self.context.set_forkserver_preload(["parlour.arena.worker"])
        self.concurrency = concurrency
        self.workers: list[_Worker] = []

    def _start(self, plan: Plan) -> _Worker:
        ours, theirs = self.context.Pipe()
        process = self.context.Process(target=_serve, args=(theirs,), daemon=True)
        process.start()
        theirs.close()
        ours.send(plan)
        return _Worker(process, ours)

    def run(self, plan: Plan, jobs: Iterable[Job]) -> Iterator[GameRecord]:
        self.close()
        waiting, deaths = _Queue(jobs), Counter[int]()
        self.workers = [self._start(plan) for _ in range(self.concurrency)]
        for worker in self.workers:
            _give(worker, waiting)
        while busy := [w for w in self.workers if w.job is not None]:
            ready = set(wait([w.connection for w in busy] + [w.process.sentinel for w in busy]))
            for worker in busy:
                if worker.connection not in ready and worker.process.sentinel not in ready:
                    continue
                answer, job = _answer(worker), worker.job
                assert job is not None
                if answer is None:  # the worker died: its game goes to a new one
                    deaths[job.index] += 1
                    if deaths[job.index] > RETRIES:
                        raise ArenaError(f"game {job.index} killed {RETRIES + 1} workers")
                    waiting.again.append(job)
                    self._replace(worker, plan)
                elif isinstance(answer, _Failed):
                    raise ArenaError(f"game {answer.index} failed: {answer.error}")
                _give(worker, waiting)
                if answer is not None:
                    yield answer

    def _replace(self, worker: _Worker, plan: Plan) -> None:
        _end(worker)
        fresh = self._start(plan)
        worker.process, worker.connection = fresh.process, fresh.connection

    def close(self) -> None:
        for worker in self.workers:
            _end(worker)
        self.workers = []


class _Queue:
    """The jobs to give out: those to play again first, then the plan's, as they come."""

    def __init__(self, jobs: Iterable[Job]) -> None:
        self.fresh = iter(jobs)
        self.again: deque[Job] = deque()

    def next(self) -> Job | None:
        return self.again.popleft() if self.again else next(self.fresh, None)


def _give(worker: _Worker, waiting: _Queue) -> None:
    """The next job to ``worker``, if any is waiting."""
    worker.job = waiting.next()
    if worker.job is not None:
        with contextlib.suppress(OSError):  # it died: the next wait sees its sentinel
            worker.connection.send(worker.job)


def _answer(worker: _Worker) -> GameRecord | _Failed | None:
    """What ``worker`` sent back, or None if it died first."""
    try:
        if worker.connection.poll():
            answer: GameRecord | _Failed = worker.connection.recv()
            return answer
    except (EOFError, OSError):
        pass
    return None


def _end(worker: _Worker) -> None:
    worker.process.kill()
    worker.process.join()
    worker.connection.close()


class Ray:
    """The tasks of a Ray cluster: the one at ``address``, or (None) a cluster of this
    machine started for the run and ended with it, on 127.0.0.1 only (a process that has
    already joined one keeps it).  Each game is a task of one core; ``concurrency`` of
    them at a time (default: twice the cluster's cores, so that no core waits for the
    next), results streaming back as they finish.  A task whose worker dies is run again
    (RETRIES times); a cluster that goes away stops the match in one line, to resume."""

    def __init__(self, concurrency: int | None, address: str | None = None) -> None:
        try:
            import ray as module
        except ImportError:
            raise BadOption("--executor ray needs Ray: pip install 'parlour[ray]'") from None
        ray: Any = module
        self.ray = ray
        self.started = False
        if not ray.is_initialized():
            if address is not None:
                _reachable(address)
            self._join(address, concurrency)
        cluster = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self.window = concurrency or 2 * cluster
        self.pending: list[Any] = []

    def _join(self, address: str | None, concurrency: int | None) -> None:
        own = {"address": "local", "_node_ip_address": "127.0.0.1", "num_cpus": concurrency}
        where: dict[str, Any] = own if address is None else {"address": address}
        try:
            self.ray.init(**where, log_to_driver=False, include_dashboard=False)
        except Exception as error:  # Ray's own words, on one line
            where_text = "this machine" if address is None else address
            raise BadOption(
                f"cannot join the Ray cluster at {where_text}: {_first_line(error)}"
            ) from None
        self.started = address is None

    def run(self, plan: Plan, jobs: Iterable[Job]) -> Iterator[GameRecord]:
        plan_ref = self.ray.put(plan)
        yield from self.stream(play_job, ((plan_ref, job) for job in jobs))

    def stream(self, func: Callable[..., T], calls: Iterable[tuple[Any, ...]]) -> Iterator[T]:
        """``func(*call)`` of each call as a task, the results as they finish."""
        ray = self.ray
        task = ray.remote(num_cpus=1, max_retries=RETRIES)(func)
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
            try:
                result: T = ray.get(done[0])
            except ray.exceptions.RayTaskError as error:
                raise ArenaError(f"a game failed: {_first_line(error.cause)}") from None
            except ray.exceptions.RayError as error:
                raise ArenaError(f"the Ray cluster lost a game: {_first_line(error)}") from None
            yield result

    def close(self) -> None:
        for ref in self.pending:
            self.ray.cancel(ref, force=True)
        self.pending = []
        if self.started:
            self.ray.shutdown()
            self.started = False


def _first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[0] if lines else ''}"


def _reachable(address: str) -> None:
    """BadOption, in one line and within PROBE_SECONDS, unless something listens at
    ``address`` (``HOST:PORT`` or ``ray://HOST:PORT``; ``auto`` is Ray's to find)."""
    if address == "auto":
        return
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not host:
        raise BadOption(f"--address takes HOST:PORT or ray://HOST:PORT, not {shown(address)}")
    number = parse_whole(port, "the cluster's port", 1, 65535, BadOption)
    try:
        socket.create_connection((host.strip("[]"), number), PROBE_SECONDS).close()
    except OSError as error:
        raise BadOption(f"no Ray cluster answers at {address}: {error}") from None


def executor(
    name: str, concurrency: int | None, address: str | None = None, work: int | None = None
) -> Executor:
    """The executor ``--executor`` names.  Locally, as many workers as ``concurrency``
    asks (None: every core) but never more than the cores, nor than the ``work`` (games)
    there is to do."""
    if name == "ray":
        return Ray(concurrency, address)
    if address is not None:
        raise BadOption("--address is for --executor ray")
    wanted = min(concurrency or cores(), cores())
    return Local(max(1, wanted if work is None else min(wanted, work)))
