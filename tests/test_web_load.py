"""What keeps a busy server's moves cheap and its memory bounded: an event written as JSON
once for all its watchers and kept as that text, games' progress written to the store in
batches, a finished game's table (and the memory it held) gone once it leaves the hall, and
a closed connection's state freed at once."""

from __future__ import annotations

import asyncio
import gc
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx2
import numpy as np
import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

import parlour.web.engines
import parlour.web.hall
import parlour.web.tables
from helpers import default_ctrl_c
from parlour.cli import main
from parlour.core import BadOption, game
from parlour.kit import thinker
from parlour.players.specs import PlayerSpec
from parlour.search import Stop
from parlour.web.app import create_app
from parlour.web.engines import ENGINE_MB, LEAST_BYTES, EnginePool, arrays_bytes
from parlour.web.records import Records
from parlour.web.sockets import Sockets
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


def test_a_tables_events_are_kept_as_the_text_sent(tmp_path: Path) -> None:
    """A game's log holds each event as the text its pages were sent (the same string):
    nothing in it for the cyclic collector to walk, however long the game; its values
    come back for the record."""
    with TestClient(create_app(tmp_path / "games.sqlite", warm=False)) as client:
        made = new_game(client, game="kalah", opponent="here")
        table = client.app.state.hall.tables[made["id"]]  # type: ignore[attr-defined]
        tab = Tab(client, made["id"], made["token"])
        sent = []
        for _ in range(6):
            tab.move(tab.position["legal"][0])
            sent.append(tab.until("moved"))
        assert table.n == 6 and not any(gc.is_tracked(event) for event in table.events)
        assert table.log() == sent and table.log(2) == sent[-2:]
        assert table.record()["log"] == sent
        close_all()


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
    server = subprocess.Popen(
        command, env=environment, stdout=subprocess.PIPE, text=True, preexec_fn=default_ctrl_c
    )
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


class Engine:
    """An engine as far as the pool can tell: a name, and a table of ``megabytes``."""

    def __init__(self, name: str, megabytes: int) -> None:
        self.name = name
        self.tables = {"main": (np.zeros(megabytes << 20, dtype=np.uint8),)}


def test_the_engine_pool_lends_at_most_its_memory_and_reuses_engines() -> None:
    made: list[str] = []

    def make(name: str, megabytes: int = ENGINE_MB) -> Callable[[], Any]:
        def making() -> Any:
            made.append(name)
            return Engine(name, megabytes)

        return making

    async def lend() -> None:
        pool = EnginePool(2 * ENGINE_MB + ENGINE_MB // 2)  # room for two engines
        a = await pool.borrow("a", make("a"))
        b = await pool.borrow("b", make("b"))
        third = asyncio.ensure_future(pool.borrow("a", make("a2")))
        await asyncio.sleep(0)
        assert not third.done()  # both lent: the move waits
        pool.give_back("a", a)
        again = await third
        assert again is a and made == ["a", "b"]  # the same engine, not a new one
        pool.give_back("a", again)
        c = await pool.borrow("c", make("c"))
        assert made[-1] == "c" and pool.idle == [] and pool.lent == 2  # the idle "a" dropped
        pool.give_back("b", b)
        pool.give_back("c", c)

    asyncio.run(lend())


def holding(megabytes: int) -> Callable[[], Any]:
    """Makes an engine whose table is of ``megabytes``."""
    return lambda: Engine("engine", megabytes)


def test_the_engine_pool_counts_each_engine_for_what_it_holds() -> None:
    """An engine with no table (the seed's shallow levels) counts for little once
    measured: many are lent at once where only one searching level's would be."""

    async def lend() -> None:
        pool = EnginePool(ENGINE_MB)
        first = await pool.borrow("seed", holding(0))
        waiting = asyncio.ensure_future(pool.borrow("seed", holding(0)))
        await asyncio.sleep(0)
        assert not waiting.done()  # not measured yet: counted as a searching level's
        pool.give_back("seed", first)
        assert pool.sizes["seed"] == LEAST_BYTES
        lent = [await waiting] + [await pool.borrow("seed", holding(0)) for _ in range(99)]
        assert pool.lent == 100 and pool.held() == 100 * LEAST_BYTES
        for engine in lent:
            pool.give_back("seed", engine)
        deep = await pool.borrow("deep", holding(8))
        pool.give_back("deep", deep)
        assert pool.sizes["deep"] == 8 << 20  # its table, measured

    asyncio.run(lend())


def test_real_engines_are_measured_by_their_tables() -> None:
    """Kalah's level 1 (the seed's minimax) holds no table; level 4 its engine's."""
    shallow, deep = thinker("kalah", 1), thinker("kalah", 4)
    state = game("kalah", pits=3, seeds=2).start()
    for engine in (shallow, deep):
        engine.best_move(state, Stop())
    assert arrays_bytes(shallow) == 0
    assert arrays_bytes(deep) >= 1 << 20


def test_too_little_memory_for_one_engine_is_refused_in_one_line(tmp_path: Path) -> None:
    with pytest.raises(BadOption, match="--max-memory 8: the computer's engines need 16 MB"):
        EnginePool(8)
    db = str(tmp_path / "games.sqlite")
    result = CliRunner().invoke(main, ["serve", "--max-memory", "8", "--db", db])
    assert result.exit_code == 1
    assert result.output == "Error: --max-memory 8: the computer's engines need 16 MB at least\n"


def test_games_against_the_computer_share_one_engine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[Any] = []
    make = parlour.web.engines.thinker

    def counted(*arguments: Any) -> Any:
        made.append(arguments)
        return make(*arguments)

    monkeypatch.setattr(parlour.web.engines, "thinker", counted)
    app = create_app(tmp_path / "games.sqlite", warm=False, max_memory=ENGINE_MB)
    with TestClient(app) as client:
        request = {"game": "kalah", "options": {"pits": 3, "seeds": 2}, "level": 4}
        tabs = []
        for _ in range(3):
            game = new_game(client, first="them", **request)
            tabs.append(Tab(client, game["id"], game["token"]))
        for tab in tabs:
            while tab.position["to_move"] != 0 and tab.result is None:
                tab.next()  # each computer has moved
        assert len(made) == 1  # one engine, lent to each game in turn
        close_all()


def websockets_states() -> int:
    """How many websocket connections' states (the websockets library's, which uvicorn
    serves with) the collector sees alive."""
    return sum(type(o).__name__ == "ServerProtocol" for o in gc.get_objects())


def test_a_closed_connections_state_is_freed_at_once(tmp_path: Path) -> None:
    """The websockets library's state of a connection is freed as soon as the connection
    is lost, with the cyclic collector off (see :mod:`parlour.web.sockets`)."""
    import uvicorn
    import websockets.sync.client

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    app = create_app(tmp_path / "games.sqlite", warm=False)
    config = uvicorn.Config(app, port=port, log_level="warning", ws=Sockets)
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    gc.disable()
    try:
        assert eventually(lambda: running.started)
        made = httpx2.post(f"http://127.0.0.1:{port}/api/games", json={"game": "kalah"}).json()
        before = websockets_states()
        for _ in range(3):
            with websockets.sync.client.connect(f"ws://127.0.0.1:{port}/ws/{made['id']}") as ws:
                ws.send(json.dumps({"type": "hello", "token": made["token"]}))
                assert '"type":"state"' in str(ws.recv())
        table = app.state.hall.tables[made["id"]]
        assert eventually(lambda: not table.connections)
        assert eventually(lambda: websockets_states() == before)
    finally:
        gc.enable()
        running.should_exit = True
        thread.join(10)


def test_hints_borrow_the_pools_engines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two games' hints, one after the other, are searched by one engine, the pool's: no
    game keeps a hint engine of its own."""
    made: list[str] = []
    make = parlour.web.tables.hinter

    def counted(name: str) -> Any:
        made.append(name)
        return make(name)

    monkeypatch.setattr(parlour.web.tables, "hinter", counted)
    with TestClient(create_app(tmp_path / "games.sqlite", warm=False)) as client:
        hall = client.app.state.hall  # type: ignore[attr-defined]
        request = {"game": "kalah", "options": {"pits": 3, "seeds": 1}, "level": 1}
        for _ in range(2):
            made_game = new_game(client, **request)
            tab = Tab(client, made_game["id"], made_game["token"])
            tab.send(type="hint")
            assert tab.until("hint")["move"] in tab.position["legal"]
        assert made == ["kalah"]
        assert eventually(lambda: any(i.key[1] == "hint" for i in hall.engines.idle))
        close_all()
