"""The actor runtime: asyncio tasks with mailboxes, the seeds' ``react { case ... }``.

An :class:`Actor` owns its state and changes it only while it handles a message; the
outside world holds its :class:`Ref` (its address) and can only send it messages:

- ``ref.tell(message)`` puts the message in the mailbox and returns at once (the mailbox
  is unbounded, so the sender never waits);
- ``await ref.ask(message, timeout)`` sends and waits for the actor's :meth:`Actor.reply`,
  raising :class:`AskTimeout` when none comes in time and :class:`ActorStopped` when the
  actor stops (or crashes) before replying.

Each actor handles one message at a time, in arrival order, so two messages from one
sender to one actor arrive in the order sent and none is lost while the actor runs.

An actor never waits inside :meth:`Actor.receive` for something slow (a game, a search,
another actor's answer): it hands the wait to :meth:`Actor.pipe`, which runs it as a task
of the actor's own and tells the actor :class:`Piped` with the result when it is done, so
the mailbox stays open meanwhile (a game can be resigned or aborted while it runs, a
search stopped).  An ask it cannot answer at once is answered later through
:meth:`Actor.defer`.

An actor stops when it calls :meth:`Actor.stop`, when someone calls :meth:`Ref.stop`
(after the messages already queued), or when :meth:`Actor.receive` raises.  Then its
piped tasks are cancelled, :meth:`Actor.stopping` runs (to stop worker threads), every
ask still waiting on it fails with :class:`ActorStopped` (carrying the reason), later
messages to it are dropped (asks fail at once), and its supervisor, the actor that
spawned it if any, is told :class:`Down` with the reason and the error.

Usage (inside a running event loop)::

    class Echo(Actor):
        async def receive(self, message: object) -> None:
            match message:
                case str(text):
                    self.reply(text.upper())

    echo = spawn(Echo())
    assert await echo.ask("hi", timeout=1) == "HI"
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

_names = itertools.count(1)
T = TypeVar("T")


class ActorStopped(RuntimeError):
    """The actor asked is not running (any more): ``reason`` says why it stopped."""

    def __init__(self, name: str, reason: str, error: BaseException | None = None) -> None:
        super().__init__(f"actor {name} stopped: {reason}")
        self.reason = reason
        self.error = error


class AskTimeout(TimeoutError):
    """No reply came within the ask's time limit."""


@dataclass(frozen=True)
class Down:
    """Told to a supervisor when an actor it spawned stops; ``error`` is None unless it crashed."""

    ref: Ref
    reason: str
    error: BaseException | None = None


@dataclass(frozen=True)
class Piped:
    """Told to an actor when a wait it handed to :meth:`Actor.pipe` is over: ``value`` is
    the awaitable's result, or ``error`` what it raised; ``tag`` is the pipe's own."""

    tag: Any
    value: Any = None
    error: BaseException | None = None


@dataclass(eq=False)
class _Envelope:
    message: Any
    sender: Ref | None
    reply_to: asyncio.Future[Any] | None


_STOP = object()  # queued by Ref.stop: the actor stops when it reaches it


@dataclass(eq=False)
class _Mailbox:
    queue: asyncio.Queue[_Envelope] = field(default_factory=asyncio.Queue)
    stopped: ActorStopped | None = None


class Ref:
    """The address of an actor: all that others may hold of it."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._mailbox = _Mailbox()
        self._done: asyncio.Future[ActorStopped] = asyncio.get_running_loop().create_future()

    def __repr__(self) -> str:
        return f"<Ref {self.name}>"

    @property
    def alive(self) -> bool:
        """Whether the actor still takes messages."""
        return self._mailbox.stopped is None

    def tell(self, message: Any, sender: Ref | None = None) -> None:
        """Queue ``message`` without waiting; dropped if the actor has stopped."""
        if self.alive:
            self._mailbox.queue.put_nowait(_Envelope(message, sender, None))

    async def ask(self, message: Any, timeout: float | None = None) -> Any:
        """Send ``message`` and wait for the reply (AskTimeout, ActorStopped)."""
        stopped = self._mailbox.stopped
        if stopped is not None:
            raise ActorStopped(self.name, stopped.reason, stopped.error)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._mailbox.queue.put_nowait(_Envelope(message, None, future))
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            raise AskTimeout(f"{self.name} did not answer within {timeout:g} s") from None

    def stop(self) -> None:
        """Stop the actor once it has handled the messages queued before this call."""
        if self.alive:
            self._mailbox.queue.put_nowait(_Envelope(_STOP, None, None))

    async def join(self) -> ActorStopped:
        """Wait until the actor has stopped; the value says why."""
        return await asyncio.shield(self._done)


class Reply:
    """An answer owed to a message, given after :meth:`Actor.receive` has returned."""

    def __init__(self, envelope: _Envelope, owner: Actor) -> None:
        self._envelope = envelope
        self._owner = owner

    def send(self, message: Any) -> None:
        """Answer: the ask's result, or a tell back to the sender (once; later calls do
        nothing)."""
        if self._owner._deferred.pop(id(self._envelope), None) is not None:
            _answer(self._envelope, message, self._owner.ref)


class Actor:
    """Base of every actor: subclasses implement :meth:`receive` with a ``match``.

    While a message is handled, :attr:`sender` is the Ref it came from (None for asks and
    anonymous tells) and :meth:`reply` answers it.  :attr:`ref` is the actor's own address,
    set by :func:`spawn`.
    """

    ref: Ref
    sender: Ref | None = None
    _current: _Envelope | None = None
    _stop_reason: str | None = None
    _deferred: dict[int, _Envelope]  # answers owed (defer), failed if the actor stops first
    _piped: set[asyncio.Task[None]]  # the actor's own tasks (pipe), cancelled when it stops

    async def receive(self, message: Any) -> None:
        """Handle one message; raising stops the actor and tells its supervisor."""
        raise NotImplementedError

    def reply(self, message: Any) -> None:
        """Answer the message being handled: the ask's result, or a tell back to its sender."""
        envelope = self._current
        if envelope is None:
            raise RuntimeError("reply() outside of receive()")
        _answer(envelope, message, self.ref)

    def defer(self) -> Reply:
        """The answer to the message being handled, to give later with ``Reply.send``; an
        ask left unanswered when the actor stops fails with :class:`ActorStopped`."""
        envelope = self._current
        if envelope is None:
            raise RuntimeError("defer() outside of receive()")
        self._deferred[id(envelope)] = envelope
        return Reply(envelope, self)

    def pipe(self, awaitable: Awaitable[Any], tag: Any = None) -> asyncio.Task[None]:
        """Wait for ``awaitable`` in a task of this actor's, which tells the actor
        ``Piped(tag, value)`` (or ``Piped(tag, error=...)``) when it is done.  The task is
        cancelled when the actor stops; cancel it yourself to drop the wait (then no
        Piped comes)."""

        async def wait() -> None:
            try:
                value = await awaitable
            except asyncio.CancelledError:
                raise
            except Exception as error:
                self.ref.tell(Piped(tag, error=error))
            else:
                self.ref.tell(Piped(tag, value))

        task = asyncio.get_running_loop().create_task(wait(), name=f"{self.ref.name}:{tag}")
        self._piped.add(task)
        task.add_done_callback(self._piped.discard)
        return task

    def stopping(self) -> None:
        """Called once as the actor stops, after its piped tasks are cancelled: stop any
        worker thread here (it must not outlive the actor)."""

    def stop(self, reason: str = "stopped") -> None:
        """Stop after the current message; an ask it leaves unanswered fails with ``reason``."""
        self._stop_reason = reason

    def spawn(self, actor: Actor, name: str | None = None) -> Ref:
        """Start ``actor`` supervised by this one (this one is told :class:`Down`)."""
        return spawn(actor, name=name, supervisor=self.ref)


def spawn(actor: Actor, *, name: str | None = None, supervisor: Ref | None = None) -> Ref:
    """Start ``actor`` as a task of the running loop and return its address."""
    ref = Ref(name or f"{type(actor).__name__}-{next(_names)}")
    actor.ref = ref
    actor._deferred, actor._piped = {}, set()
    task = asyncio.get_running_loop().create_task(_run(actor, supervisor), name=ref.name)
    _tasks.add(task)
    task.add_done_callback(_tasks.discard)
    return ref


_tasks: set[asyncio.Task[None]] = set()  # strong references, so no running actor is collected


async def _run(actor: Actor, supervisor: Ref | None) -> None:
    """The actor's life: take messages one by one until it stops, then clean up."""
    mailbox = actor.ref._mailbox
    reason, error = "stopped", None
    envelope: _Envelope | None = None
    try:
        while actor._stop_reason is None:
            envelope = await mailbox.queue.get()
            if envelope.message is _STOP:
                break
            actor._current, actor.sender = envelope, envelope.sender
            await actor.receive(envelope.message)
            actor._current = actor.sender = None
        else:
            reason = actor._stop_reason
    except asyncio.CancelledError:
        reason = "cancelled"
        raise
    except Exception as exc:
        reason, error = f"crashed: {type(exc).__name__}: {exc}", exc
    finally:
        stopped = ActorStopped(actor.ref.name, reason, error)
        mailbox.stopped = stopped
        for task in list(actor._piped):
            task.cancel()
        actor.stopping()
        if envelope is not None and id(envelope) not in actor._deferred:
            _fail(envelope, stopped)  # the ask being handled, if it got no answer
        for owed in actor._deferred.values():
            _fail(owed, stopped)
        actor._deferred.clear()
        while not mailbox.queue.empty():
            _fail(mailbox.queue.get_nowait(), stopped)
        actor.ref._done.set_result(stopped)
        if supervisor is not None:
            supervisor.tell(Down(actor.ref, reason, error), actor.ref)


def in_thread(func: Callable[..., T], *args: Any, name: str) -> asyncio.Future[T]:
    """Call ``func(*args)`` in a thread of its own; the future takes its result (or its
    error).  Unlike the loop's executor, whose threads idle on after their work, the thread
    ends with the call: an actor that stops its work in ``stopping`` leaves no thread."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()

    def settle(value: Any, error: BaseException | None) -> None:
        if future.done():  # the waiter was cancelled
            return
        if error is None:
            future.set_result(value)
        else:
            future.set_exception(error)

    def run() -> None:
        value, error = None, None
        try:
            value = func(*args)
        except BaseException as exc:
            error = exc
        with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
            loop.call_soon_threadsafe(settle, value, error)

    threading.Thread(target=run, name=name).start()
    return future


def _answer(envelope: _Envelope, message: Any, me: Ref) -> None:
    """Answer ``envelope``: an ask's result (unless it timed out), else a tell back."""
    if envelope.reply_to is not None:
        if not envelope.reply_to.done():  # an ask that timed out takes no late answer
            envelope.reply_to.set_result(message)
    elif envelope.sender is not None:
        envelope.sender.tell(message, me)


def _fail(envelope: _Envelope, stopped: ActorStopped) -> None:
    """An ask the actor will never answer fails, so nobody waits on an actor that is gone."""
    if envelope.reply_to is not None and not envelope.reply_to.done():
        envelope.reply_to.set_exception(stopped)
