"""Clocks, offers and rematches through the websocket protocol (the page's messages, no
browser): a flag ends a game, take-back and draw offers accepted and refused, a rematch
with the seats swapped, and a clock brought back after a restart."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

import parlour
from parlour.actors import Move, Moved, Play, Undo, View, spawn
from parlour.web import hall
from parlour.web.tables import Choose, WebSeat
from web_tabs import Json, Tab, new_game, serving


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with serving(tmp_path / "games.sqlite") as client:
        yield client


def people(client: TestClient, **request: object) -> tuple[Json, Tab, Tab]:
    made = new_game(client, game="gomoku", options={"size": 7}, opponent="link", **request)
    return made, Tab(client, made["id"], made["token"]), Tab(client, made["id"], made["invite"])


def offer(tab: Tab) -> Json:
    """The next offer message ``tab`` is told."""
    return tab.until("offer")


def answered(tab: Tab) -> Json:
    """The next answer to an offer ``tab`` is told (its own offers' echoes passed over)."""
    while True:
        told = offer(tab)
        if told["offer"] is None:
            return told


def test_a_flag_ends_the_game_on_time_in_words(client: TestClient) -> None:
    made = new_game(
        client, game="kalah", options={"pits": 3, "seeds": 2}, level=1, minutes=0.05, first="me"
    )
    tab = Tab(client, made["id"], made["token"])
    assert tab.state["table"]["clock"] == [3.0, 0.0]
    clock = tab.until("started")["clock"]
    assert clock["running"] == 0 and 0 < clock["left"][0] <= 3 and clock["left"][1] == 3
    over = tab.until("over")["result"]  # nobody moves: seat 0's flag falls
    assert (over["reason"], over["forfeit"]) == ("ran out of time", 0)
    assert over["words"] == "Computer (level 1) wins: Player 1 ran out of time."


def test_a_move_on_a_clock_gains_its_increment(client: TestClient) -> None:
    _, x, _ = people(client, minutes=1, increment=30)
    x.move("D4")
    moved = x.until("moved")
    assert moved["clock"]["running"] == 1
    assert 60 < moved["clock"]["left"][0] <= 90 and moved["clock"]["left"][1] == 60


@pytest.mark.parametrize(
    "bad", [{"minutes": "five"}, {"minutes": 0}, {"minutes": 1, "increment": -1}]
)
def test_a_bad_clock_is_refused_by_name(client: TestClient, bad: Json) -> None:
    response = client.post("/api/games", json={"game": "kalah", **bad})
    assert response.status_code == 400
    assert "minutes" in response.json()["error"] or "increment" in response.json()["error"]


def test_take_back_offers_accepted_and_refused(client: TestClient) -> None:
    _, x, o = people(client)
    assert "no turn of yours" in x.refused(type="offer", what="takeback")
    assert "one offers takeback or draw, not 'resign'" in x.refused(type="offer", what="resign")
    x.move("D4")
    o.until("moved")
    x.send(type="offer", what="takeback")
    assert offer(o)["offer"] == {"what": "takeback", "seat": 0}
    assert "waiting for an answer" in o.refused(type="offer", what="draw")
    assert "no offer of your opponent's" in x.refused(type="answer", accept=True)
    o.send(type="answer", accept=False)
    told = answered(x)
    assert told["words"] == "Player 2 refuses the take back."
    x.send(type="offer", what="takeback")
    offer(o)
    o.send(type="answer", accept=True)
    back = x.until("taken_back")
    assert back["moves"] == 0 and back["position"]["to_move"] == 0
    assert x.sync()["now"]["moves"] == []
    x.move("C3")  # seat 0 moves again, a move of its choice
    assert o.until("moved")["move"] == "C3"


def test_a_take_back_of_a_turn_and_the_reply_on_the_offerers_turn(client: TestClient) -> None:
    _, x, o = people(client)
    x.move("D4")
    o.until("moved")
    o.move("A1")
    x.until("moved")
    x.send(type="offer", what="takeback")  # x to move: x's D4 and o's A1 go
    offer(o)
    o.send(type="answer", accept=True)
    assert x.until("taken_back")["moves"] == 0


def test_a_draw_offer_refused_then_accepted(client: TestClient) -> None:
    _, x, o = people(client)
    o.send(type="offer", what="draw")
    offer(x)
    x.send(type="answer", accept=False)
    assert answered(o)["words"] == "Player 1 refuses the draw."
    o.send(type="offer", what="draw")
    offer(x)
    x.send(type="answer", accept=True)
    over = o.until("over")["result"]
    assert over["winner"] is None and over["words"] == "A draw by agreement."


def test_offers_are_only_between_people_by_link(client: TestClient) -> None:
    made = new_game(client, game="kalah", options={"pits": 3, "seeds": 2}, level=1)
    tab = Tab(client, made["id"], made["token"])
    assert "between two people" in tab.refused(type="offer", what="draw")
    assert "true or false" in tab.refused(type="answer", accept="yes")
    assert "a rematch comes once the game is over" in tab.refused(type="rematch")


def test_a_rematch_swaps_the_seats_once_both_ask(client: TestClient) -> None:
    made, x, o = people(client, minutes=2, increment=1)
    watcher = Tab(client, made["id"])
    x.send(type="resign")
    x.until("over")
    o.until("over")
    assert "spectators only watch" in watcher.refused(type="rematch")
    x.send(type="rematch")
    assert offer(o)["offer"] == {"what": "rematch", "seat": 0}
    o.send(type="rematch")
    news = [tab.until("rematch") for tab in (x, o, watcher)]
    assert len({m["id"] for m in news}) == 1 and news[0]["id"] != made["id"]
    assert news[2]["token"] is None
    x2, o2 = (
        Tab(client, news[0]["id"], news[0]["token"]),
        Tab(client, news[1]["id"], news[1]["token"]),
    )
    assert (x2.state["you"], o2.state["you"]) == ([1], [0])
    assert x2.state["table"]["clock"] == [120.0, 1.0]
    o2.move("D4")  # the one who moved second now moves first
    assert x2.until("moved")["player"] == 0


def test_a_rematch_against_the_computer_is_one_click(client: TestClient) -> None:
    made = new_game(client, game="kalah", options={"pits": 3, "seeds": 2}, level=1)
    tab = Tab(client, made["id"], made["token"])
    tab.send(type="resign")
    tab.until("over")
    tab.send(type="rematch")
    new = tab.until("rematch")
    again = Tab(client, new["id"], new["token"])
    assert again.state["you"] == [1]
    assert again.state["table"]["names"] == ["Computer (level 1)", "Player 2"]
    tab.send(type="rematch")  # one rematch a game: asked again, the same one
    assert tab.until("rematch") == new


def test_a_clock_is_brought_back_after_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    with serving(db) as client:
        made, x, o = people(client, minutes=1, increment=30)
        x.move("D4")
        o.until("moved")
    with serving(db) as client:
        back = Tab(client, made["id"], made["invite"])
        clock = back.state["now"]["clock"]
        assert back.state["table"]["clock"] == [60.0, 30.0]
        assert 60 < clock["left"][0] <= 90 and clock["left"][1] <= 60  # the increment kept


def test_no_rematch_when_the_server_is_full(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = new_game(client, game="kalah", options={"pits": 3, "seeds": 2}, level=1)
    tab = Tab(client, made["id"], made["token"])
    tab.send(type="resign")
    tab.until("over")
    monkeypatch.setattr(hall, "MAX_TABLES", 1)
    assert "as many games as it can" in tab.refused(type="rematch")


async def test_a_choice_kept_from_before_a_move_is_void() -> None:
    """A take back accepted just as its offerer moved reaches the seat after its move:
    it is dropped at the move's event, not given at the next turn."""
    state = parlour.game("kalah", pits=3, seeds=2).start()
    seat = WebSeat(lambda why: None)
    ref = spawn(seat)
    ref.tell(Choose(Undo(0)))  # no Play yet: kept
    after, account = state.play_report(state.legal_moves()[0])
    ref.tell(Moved(0, state.legal_moves()[0], "A", state, after, account, 1, False))
    asked = asyncio.ensure_future(ref.ask(Play(View(after, after.legal_moves(), 1, False)), 5))
    ref.tell(Choose(Move(after.legal_moves()[0])))
    assert await asked == Move(after.legal_moves()[0])
    ref.stop()
