"""Games under way survive a restart: the server started again with the same database
brings each back, its seats' links still valid, its moves replayed, the computer's seat
playing on; a game of War is not kept (no deal is)."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from parlour.web.app import create_app
from web_tabs import Tab, close_all, new_game

pytestmark = pytest.mark.timeout(60)


def test_games_under_way_come_back_after_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    with TestClient(create_app(db, warm=False)) as client:
        people = new_game(client, game="gomoku", options={"size": 9}, opponent="link")
        x, o = (
            Tab(client, people["id"], people["token"]),
            Tab(client, people["id"], people["invite"]),
        )
        for tab, move in ((x, "E5"), (o, "A1"), (x, "E6")):
            tab.move(move)
            for seat in (x, o):
                seat.until("moved")
        computer = new_game(client, game="kalah", opponent="computer", level=1)
        me = Tab(client, computer["id"], computer["token"])
        me.move("A")  # the last seed in the store: Player 1 moves again
        me.until("moved")
        me.move("B")
        while me.position["to_move"] != 0:
            me.next()
        before = me.sync()["now"]
        war = new_game(client, game="war")
        close_all()
    with TestClient(create_app(db, warm=False)) as client:
        playing = {g["id"] for g in client.get("/api/games").json()["playing"]}
        assert playing == {people["id"], computer["id"]}  # War is not kept
        assert client.get(f"/api/games/{war['id']}").status_code == 404
        o = Tab(client, people["id"], people["invite"])
        assert o.state["you"] == [1] and o.state["now"]["moves"] == ["E5", "A1", "E6"]
        x = Tab(client, people["id"], people["token"])
        o.move("A2")
        assert x.until("moved")["move"] == "A2"
        me = Tab(client, computer["id"], computer["token"])
        assert me.state["now"] == before
        me.move(me.position["legal"][0])
        me.until("moved")
        while me.position["to_move"] != 0 and me.result is None:
            me.next()  # the computer's seat plays on
        assert len(me.sync()["now"]["moves"]) > len(before["moves"]) + 1
        close_all()


def test_a_game_that_ended_is_not_brought_back(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    with TestClient(create_app(db, warm=False)) as client:
        made = new_game(client, game="kalah", opponent="here")
        tab = Tab(client, made["id"], made["token"])
        tab.send(type="resign")
        tab.until("over")
        close_all()
    with TestClient(create_app(db, warm=False)) as client:
        assert client.get("/api/games").json()["playing"] == []
        assert client.get(f"/api/games/{made['id']}").status_code == 200
