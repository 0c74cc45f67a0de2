"""What keeps a busy server's moves cheap and its memory bounded: an event written as JSON
once for all its watchers, games' progress written to the store in batches, and a
finished game's table (and the memory it held) gone once it leaves the hall."""

from __future__ import annotations

import asyncio
import gc
import os
import signal
import socket
import subprocess
import sys
import weakref
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

import parlour.web.hall
from parlour.core import game
from parlour.players.specs import PlayerSpec
from parlour.web.app import create_app
from parlour.web.records import Records
from parlour.web.tables import TurnTable
from test_web_limits import eventually
from web_tabs import Tab, close_all, new_game

pytestmark = pytest.mark.timeout(60)


def test_an_event_is_written_once_for_all_its_watchers() -> None:
    async def watched() -> list[str]:
        people = (PlayerSpec("human"), PlayerSpec("human"))
        table = TurnTable("t", game("kalah").start(), people, ("Player 1", "Player 2"))
        watchers = [table.join(None) for _ in range(3)]
        for connection in watchers:
            connection.outbox.get_nowait()  # the whole game, each its own
        table.publish({"kind": "note"})
        table.abort("the test is over")
        return [connection.outbox.get_nowait() for connection in watchers]

    texts = asyncio.run(watched())
    assert texts[0] == '{"type":"event","n":1,"kind":"note"}'
    assert all(text is texts[0] for text in texts)  # the same text, not three copies


def test_moves_are_written_in_one_batch_and_all_of_them_at_a_stop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two games' moves wait for the batch (made longer than the test here) and are
    written in one transaction when the server stops: none is lost."""
    monkeypatch.setattr(parlour.web.hall, "FLUSH", 3600.0)
    batches: list[set[str]] = []
    write = Records.moved

    def counted(self: Records, progress: dict[str, Any]) -> None:
        batches.append(set(progress))
        write(self, progress)

    monkeypatch.setattr(Records, "moved", counted)
    db = tmp_path / "games.sqlite"
    with TestClient(create_app(db, warm=False)) as client:
        games = [new_game(client, game="kalah", opponent="here") for _ in range(2)]
        for made in games:
            tab = Tab(client, made["id"], made["token"])
            tab.move("A")
            tab.until("moved")
        assert batches == []  # not one write a move
        close_all()
    assert batches == [{made["id"] for made in games}]
    with Records(db) as records:
        kept = {ref: progress["moves"] for ref, _, progress in records.under_way()}
    assert kept == {made["id"]: ["A"] for made in games}


def test_a_finished_table_is_freed_without_a_collection_and_memory_given_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(parlour.web.hall, "LINGER", 0.05)
    monkeypatch.setattr(parlour.web.hall, "TRIM", 0.05)
    trims: list[None] = []
    monkeypatch.setattr(parlour.web.hall, "give_back", lambda: trims.append(None))
    with TestClient(create_app(tmp_path / "games.sqlite", warm=False)) as client:
        hall = client.app.state.hall  # type: ignore[attr-defined]
        made = new_game(client, game="kalah", opponent="here")
        table = weakref.ref(hall.tables[made["id"]])
        gc.disable()
        try:
            tab = Tab(client, made["id"], made["token"])
            tab.move("A")
            tab.until("moved")
            tab.send(type="resign")
            tab.until("over")
            tab.close()
            assert eventually(lambda: table() is None)
        finally:
            gc.enable()
        assert eventually(lambda: trims == [None])


def test_giving_memory_back_is_safe_to_call() -> None:
    parlour.web.hall.give_back()  # glibc's malloc_trim, or nothing elsewhere


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's allocator: Linux")
def test_parlour_serve_runs_on_cs_allocator(tmp_path: Path) -> None:
    """Started without ``PYTHONMALLOC``, the server starts itself again with it (so that
    its memory can go back to the system), and Ctrl-C still ends it with status 130."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-c", "from parlour.cli import main; main()", "serve"]
    command += ["--port", str(port), "--db", str(tmp_path / "games.sqlite")]
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONMALLOC"}
    server = subprocess.Popen(command, env=environment, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None and "serves at" in server.stdout.readline()
        said = Path(f"/proc/{server.pid}/environ").read_bytes().split(b"\0")
        assert b"PYTHONMALLOC=malloc" in said
        server.send_signal(signal.SIGINT)
        assert server.wait(30) == 130
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
