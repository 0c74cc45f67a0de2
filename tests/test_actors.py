"""The actor runtime: ordering, ask/tell, timeouts, stopping and supervision."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.actors import Actor, ActorStopped, AskTimeout, Down, spawn


@dataclass(frozen=True)
class Note:
    sender: str
    number: int


class Recorder(Actor):
    """Keeps every message; answers asks with how many it has."""

    def __init__(self) -> None:
        self.seen: list[Any] = []
        self.release = asyncio.Event()
        """What a "slow" message waits for before its answer."""

    async def receive(self, message: Any) -> None:
        match message:
            case "count":
                self.reply(len(self.seen))
            case "boom":
                raise ValueError("boom")
            case "silent":
                pass
            case "leave":
                self.stop("asked to leave")
            case "slow":
                await self.release.wait()
                self.reply("done")
            case _:
                self.seen.append(message)


async def test_messages_from_each_sender_arrive_in_order_when_flooded() -> None:
    recorder = Recorder()
    ref = spawn(recorder)

    async def flood(name: str) -> None:
        for number in range(2000):
            ref.tell(Note(name, number))
            if number % 97 == 0:
                await asyncio.sleep(0)  # let the other sender interleave

    await asyncio.gather(flood("a"), flood("b"))
    assert await ref.ask("count", timeout=5) == 4000
    for name in "ab":
        assert [n.number for n in recorder.seen if n.sender == name] == list(range(2000))
    senders = [n.sender for n in recorder.seen]
    assert senders != sorted(senders), "the two floods were expected to interleave"


async def test_tell_returns_before_the_actor_runs() -> None:
    recorder = Recorder()
    ref = spawn(recorder)
    ref.tell("x")
    assert recorder.seen == []
    assert await ref.ask("count", timeout=1) == 1


async def test_reply_to_a_tell_goes_back_to_the_sender() -> None:
    asker_log = Recorder()
    asker = spawn(asker_log)
    ref = spawn(Recorder())
    ref.tell("x")
    ref.tell("count", sender=asker)
    await ref.ask("count", timeout=1)
    assert await asker.ask("count", timeout=1) == 1
    assert asker_log.seen == [1]


async def test_ask_times_out_and_a_late_answer_is_dropped() -> None:
    recorder = Recorder()
    ref = spawn(recorder)
    with pytest.raises(AskTimeout, match=r"did not answer within 0\.01 s"):
        await ref.ask("slow", timeout=0.01)
    recorder.release.set()  # the answer comes after the ask gave up
    with pytest.raises(AskTimeout):
        await ref.ask("silent", timeout=0.01)
    assert await ref.ask("count", timeout=1) == 0  # still running after the late reply


async def test_a_crash_fails_the_ask_tells_the_supervisor_and_stops_the_actor() -> None:
    supervisor_log = Recorder()
    supervisor = spawn(supervisor_log)
    ref = spawn(Recorder(), supervisor=supervisor)
    ref.tell("queued-before")
    with pytest.raises(ActorStopped) as caught:
        await ref.ask("boom", timeout=1)
    assert caught.value.reason == "crashed: ValueError: boom"
    assert isinstance(caught.value.error, ValueError)
    assert not ref.alive
    with pytest.raises(ActorStopped):
        await ref.ask("count", timeout=1)
    ref.tell("dropped")  # no error: a stopped actor's messages are dropped
    await supervisor.ask("count", timeout=1)
    (down,) = supervisor_log.seen
    assert isinstance(down, Down)
    assert down.ref is ref and down.reason == "crashed: ValueError: boom"
    assert (await ref.join()).reason == down.reason


async def test_asks_queued_behind_a_crash_fail_instead_of_hanging() -> None:
    ref = spawn(Recorder())
    ref.tell("boom")
    with pytest.raises(ActorStopped, match="crashed"):
        await ref.ask("count", timeout=1)


async def test_an_actor_that_stops_itself_fails_the_unanswered_ask_with_its_reason() -> None:
    ref = spawn(Recorder())
    with pytest.raises(ActorStopped) as caught:
        await ref.ask("leave", timeout=1)
    assert caught.value.reason == "asked to leave" and caught.value.error is None


async def test_stop_from_outside_takes_effect_after_the_queued_messages() -> None:
    supervisor_log = Recorder()
    supervisor = spawn(supervisor_log)
    recorder = Recorder()
    ref = spawn(recorder, supervisor=supervisor)
    for number in range(3):
        ref.tell(number)
    ref.stop()
    assert (await ref.join()).reason == "stopped"
    assert recorder.seen == [0, 1, 2]
    await supervisor.ask("count", timeout=1)
    assert supervisor_log.seen == [Down(ref, "stopped", None)]


async def test_an_actor_spawns_a_child_it_supervises() -> None:
    class Parent(Recorder):
        async def receive(self, message: Any) -> None:
            if message == "spawn":
                self.reply(self.spawn(Recorder()))
            else:
                await super().receive(message)

    parent_log = Parent()
    parent = spawn(parent_log)
    child = await parent.ask("spawn", timeout=1)
    child.tell("boom")
    await child.join()
    await parent.ask("count", timeout=1)
    assert [type(m) for m in parent_log.seen] == [Down]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.booleans(), max_size=60), min_size=2, max_size=4))
def test_concurrent_senders_with_any_pauses_keep_each_senders_order(
    pauses: list[list[bool]],
) -> None:
    """Each sender is its own task; ``pauses`` says after which sends it yields to the loop."""

    async def run() -> list[Any]:
        recorder = Recorder()
        ref = spawn(recorder)

        async def sender(name: str, plan: list[bool]) -> None:
            for number, pause in enumerate(plan):
                ref.tell(Note(name, number))
                if pause:
                    await asyncio.sleep(0)

        await asyncio.gather(*(sender(str(n), plan) for n, plan in enumerate(pauses)))
        await ref.ask("count", timeout=5)
        return recorder.seen

    seen = asyncio.run(run())
    assert len(seen) == sum(map(len, pauses))
    for n, plan in enumerate(pauses):
        assert [note.number for note in seen if note.sender == str(n)] == list(range(len(plan)))
