"""The web server's protocol, through starlette's test client: whole games of each kind,
every kind of bad message (refused with a message, nothing changed), two seats and a
spectator, reconnection, a flood, a seat left empty, the records after a restart."""

from __future__ import annotations

import io
import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

import parlour
from parlour.cli.serve import say_warm_up
from parlour.kit import analyze, kit_of
from parlour.outcome import Reason
from parlour.search.limit import Limit
from parlour.web import protocol
from parlour.web.app import WarmUp, create_app
from parlour.web.views import Json
from web_tabs import Tab, new_game, serving

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with serving(db, abandon=10) as test_client:
        yield test_client


def play_out(tabs: dict[int, Tab], watcher: Tab) -> dict[str, object]:
    """The seats of ``tabs`` each play their first legal move until the game ends (the
    other seat's moves come from the server); the result, as ``watcher`` sees it."""
    moved_at = -1  # the event after which a move was sent: one move a position
    while watcher.result is None:
        seat = watcher.position["to_move"]
        if seat in tabs and moved_at != watcher.n:
            tab = tabs[seat]
            while tab.n < watcher.n:
                tab.next()
            tab.move(watcher.position["legal"][0])
            moved_at = watcher.n
        assert watcher.next()["type"] != "error"
    return watcher.result


@pytest.mark.parametrize(
    ("game", "options"),
    [("kalah", {}), ("mancala", {"pits": 4}), ("ayo", {"max_rounds": 1}), ("gomoku", {"size": 7})],
)
def test_a_whole_game_against_the_computer(
    client: TestClient, game: str, options: dict[str, int]
) -> None:
    made = new_game(client, game=game, options=options, opponent="computer", level=1)
    assert made["invite"] is None
    tab = Tab(client, made["id"], made["token"])
    assert tab.state["you"] == [0] and tab.state["table"]["undo"]
    play_out({0: tab}, tab)
    over = tab.seen[-1]
    assert over["kind"] == "over" and over["result"]["reason"] == "the rules"
    final = tab.sync()["now"]["position"]
    if game != "gomoku" and over["result"]["winner"] is not None:  # "... wins, 30 to 18."
        high, low = sorted(final["scores"], reverse=True)
        assert f"wins, {high} to {low}." in over["result"]["words"]
    moves = [m["move"] for m in tab.seen if m.get("kind") == "moved"]
    assert tab.sync()["now"]["moves"] == moves
    assert tab.sync()["now"]["position"]["over"]
    tab.close()


@pytest.mark.parametrize(
    ("game", "first", "seat", "to_move"),
    [
        ("kalah", "them", 0, 1),
        ("kalah", "me", 0, 0),
        ("gomoku", "them", 1, 0),
        ("gomoku", "me", 0, 0),
    ],
)
def test_who_moves_first(
    client: TestClient, game: str, first: str, seat: int, to_move: int
) -> None:
    """A game with a "first" option is told who begins, the creator at seat 0; in five in a
    row X (seat 0) always begins, so the creator who lets "them" begin sits at seat 1."""
    made = new_game(client, game=game, options={}, opponent="link", first=first)
    tab = Tab(client, made["id"], made["token"])
    assert tab.state["you"] == [seat]
    assert tab.position["to_move"] == to_move
    tab.close()


def test_two_seats_and_a_spectator(client: TestClient) -> None:
    made = new_game(client, game="gomoku", options={"size": 7}, opponent="link")
    assert made["invite"] and made["invite"] != made["token"]
    x, o = Tab(client, made["id"], made["token"]), Tab(client, made["id"], made["invite"])
    watcher = Tab(client, made["id"])
    assert (x.state["you"], o.state["you"], watcher.state["you"]) == ([0], [1], [])
    assert "spectators only watch" in watcher.refused(type="move", move="D4", at=0)
    assert "not your turn" in o.refused(type="move", move="D4", at=0)
    assert "do not hold the seat" in o.refused(type="move", move="D4", at=0, seat=0)
    result = play_out({0: x, 1: o}, watcher)
    assert result["reason"] == "the rules"
    events = [m for m in watcher.seen if m["type"] == "event"]
    while o.n < watcher.n:
        o.next()
    assert [m for m in o.seen if m["type"] == "event"] == events
    assert "the game is over" in x.refused(type="move", move="A1", at=x.n)
    for tab in (x, o, watcher):
        tab.close()


def test_two_people_at_one_screen_hold_both_seats(client: TestClient) -> None:
    made = new_game(client, game="kalah", options={"pits": 3, "seeds": 2}, opponent="here")
    tab = Tab(client, made["id"], made["token"])
    assert tab.state["you"] == [0, 1] and not tab.state["table"]["hint"]
    assert play_out({0: tab, 1: tab}, tab)["reason"] == "the rules"


def test_at_one_screen_the_last_turn_is_taken_back_whoever_made_it(client: TestClient) -> None:
    made = new_game(client, game="kalah", options={"pits": 3, "seeds": 2}, opponent="here")
    tab = Tab(client, made["id"], made["token"])
    assert tab.state["table"]["undo"]
    assert "no move to take back" in tab.refused(type="undo", at=tab.n)
    start = tab.position
    tab.move("A")  # Player 1's seeds end in a pit: Player 2 to move
    tab.until("moved")
    assert tab.position["to_move"] == 1
    tab.move("A")
    tab.until("moved")
    tab.send(type="undo", at=tab.n)  # Player 1 to move takes back Player 2's move
    back = tab.until("taken_back")
    assert back["moves"] == 1 and back["position"]["to_move"] == 1
    tab.send(type="undo", at=tab.n)  # and then Player 1's own
    assert tab.until("taken_back")["position"] == start


def test_war_is_watched_to_the_end_and_shows_nothing_hidden(client: TestClient) -> None:
    made = new_game(client, game="war", options={"deck": "small", "max_rounds": 200})
    tab = Tab(client, made["id"])
    over = tab.until("over")
    kinds = {m["kind"] for m in tab.seen if m["type"] == "event"}
    assert {"dealt", "turned", "took", "over"} >= kinds >= {"dealt", "turned", "over"}
    for event in tab.seen:
        if event.get("kind") == "turned":  # face up: one card each; the rest only counted
            assert all(card is None or isinstance(card, str) for card in event["up"])
            assert all(isinstance(n, int) for n in event["down"])
        if event.get("kind") == "took":
            assert isinstance(event["cards"], int)
    text = json.dumps(tab.seen)
    assert "seed" not in text and "stack" not in text
    last = [m for m in tab.seen if "counts" in m][-1]["counts"]
    assert over["result"]["words"].endswith(".")
    if over["result"]["reason"] == Reason.OUT_OF_CARDS:
        assert 0 in last
    tab.close()


def test_bad_messages_are_refused_and_change_nothing(client: TestClient) -> None:
    made = new_game(client, game="kalah", opponent="computer", level=1)
    tab = Tab(client, made["id"], made["token"])
    before = tab.sync()
    long = json.dumps({"type": "move", "move": "A" * protocol.MAX_CHARS, "at": 0})
    cases = [
        ("{not json", "not JSON"),
        ("[1, 2]", "JSON object"),
        ('{"type": "castle"}', "unknown message type"),
        ('{"move": "A", "at": 0}', "unknown message type"),
        ('{"type": "move", "at": 0}', "needs 'move'"),
        ('{"type": "move", "move": 3, "at": 0}', "must be text"),
        ('{"type": "move", "move": "A", "at": true}', "whole number"),
        ('{"type": "move", "move": "A", "at": 0, "seat": 5}', "no seat 5"),
        ('{"type": "move", "move": "Q", "at": 0}', "not a pit"),
        ('{"type": "move", "move": "A", "at": 7}', "stale"),
        ('{"type": "undo", "at": 0}', "no turn of yours"),
        ('{"type": "hello"}', "said hello already"),
        (long, "too long"),
    ]
    for text, words in cases:
        tab.ws.send_text(text)
        assert words in tab.until("error")["message"], text
    tab.ws.send_text(json.dumps({"type": "move", "move": "Q" * 900, "at": 0}))
    refusal = tab.until("error")["message"]
    assert "not a pit" in refusal and len(refusal) < 200  # the move repeated cut short
    tab.ws.send_bytes(b"\x00")
    assert "not binary" in tab.until("error")["message"]
    after = tab.sync()
    assert after["n"] == before["n"] == 0 and after["now"] == before["now"]
    tab.move("C")  # the game still goes on
    assert tab.until("moved")["move"] == "C"
    tab.close()


def test_bad_requests_for_a_game_are_refused(client: TestClient) -> None:
    for request, words in [
        ({"game": "chess"}, "unknown game"),
        ({"game": "kalah", "options": {"pits": 99}}, "at most"),
        ({"game": "war", "options": {"seed": 1}}, "drawn by the server"),
        ({"game": "kalah", "opponent": "computer", "level": 12}, "level"),
        ({"game": "kalah", "opponent": "martian"}, "opponent"),
        ({"game": "kalah", "first": "never"}, '"first"'),
    ]:
        response = client.post("/api/games", json=request)
        assert response.status_code == 400 and words in response.json()["error"], request
    assert client.post("/api/games", content=b"x" * 5000).status_code == 400
    with client.websocket_connect("/ws/nothing") as ws:
        assert "not on the server" in ws.receive_json()["message"]


def test_a_wrong_token_is_refused(client: TestClient) -> None:
    made = new_game(client, game="kalah", opponent="link")
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        ws.send_json({"type": "hello", "token": "guessed"})
        assert "token" in ws.receive_json()["message"]


def test_reconnection_gives_a_fresh_state_with_the_missed_event(client: TestClient) -> None:
    made = new_game(client, game="kalah", options={"pits": 4, "seeds": 3}, opponent="link")
    first, second = Tab(client, made["id"], made["token"]), Tab(client, made["id"], made["invite"])
    first.move("A")  # three seeds to B, C, D: Player 2 to move
    first.until("moved")
    at = first.n
    first.close()
    second.until("moved")
    second.move("B")
    missed = second.until("moved")
    again = Tab(client, made["id"], made["token"])  # the same seat, the missed event in its state
    assert again.state["you"] == [0]
    assert again.state["n"] == at + 1 == missed["n"]
    assert again.state["now"]["moves"] == ["A", "B"]
    assert again.position == missed["position"]
    assert "stale" in again.refused(type="move", move="B", at=at)
    again.move("B")
    assert second.until("moved")["n"] == at + 2


def test_a_flood_is_cut_short_and_the_game_goes_on(client: TestClient) -> None:
    made = new_game(client, game="kalah", opponent="computer", level=1)
    tab = Tab(client, made["id"], made["token"])
    for _ in range(60):
        tab.send(type="sync")
    errors = []
    for _ in range(60):
        message = tab.next()
        if message["type"] == "error":
            errors.append(message["message"])
    assert errors and all("too many messages" in e for e in errors)
    deadline = time.monotonic() + 5
    tab.move("C")
    while (answer := tab.next())["type"] == "error":  # dropped: until the rate refills
        assert "too many messages" in answer["message"]
        assert time.monotonic() < deadline, "the rate never refilled"
        time.sleep(0.05)
        tab.move("C")
    assert answer["kind"] == "moved" and answer["move"] == "C"
    tab.close()


def test_a_seat_left_empty_forfeits(db: Path) -> None:
    with TestClient(create_app(db, abandon=0.3, warm=False)) as client:
        made = new_game(client, game="kalah", opponent="link")
        stays = Tab(client, made["id"], made["token"])
        goes = Tab(client, made["id"], made["invite"])
        goes.close()
        over = stays.until("over")["result"]
        assert over["reason"] == "left the game" and over["forfeit"] == 1 and over["winner"] == 0
        assert "empty for 0.3 s" in over["words"]
        stays.close()


def test_finished_games_are_listed_and_replayed_after_a_restart(db: Path) -> None:
    with TestClient(create_app(db, warm=False)) as client:
        made = new_game(client, game="kalah", options={"pits": 3, "seeds": 1}, opponent="here")
        tab = Tab(client, made["id"], made["token"])
        tab.send(type="resign")
        tab.until("over")
        log = [m for m in tab.seen if m["type"] == "event"]
        tab.close()
    with TestClient(create_app(db, warm=False)) as client:
        listed = client.get("/api/games").json()["finished"]
        assert [game["id"] for game in listed] == [made["id"]]
        assert "resigned" in listed[0]["words"]
        record = client.get(f"/api/games/{made['id']}").json()
        assert record["log"] == log and record["result"]["forfeit"] == 0
        with client.websocket_connect(f"/ws/{made['id']}") as ws:
            assert ws.receive_json()["record"]["log"] == log
        assert client.get("/api/games/unknown").status_code == 404
        values = client.get(f"/api/games/{made['id']}/analysis").json()["values"]
        assert len(values) == 1 and isinstance(values[0], int)  # the start; resigned at once


def test_a_finished_game_is_analysed_move_by_move(client: TestClient) -> None:
    made = new_game(client, game="kalah", options={"pits": 3, "seeds": 2}, opponent="here")
    tab = Tab(client, made["id"], made["token"])
    play_out({0: tab, 1: tab}, tab)
    reviewed = client.get(f"/api/games/{made['id']}/analysis").json()
    values, final = reviewed["values"], tab.position["scores"]
    assert len(values) == len(tab.sync()["now"]["moves"]) + 1 == len(reviewed["grades"]) + 1
    assert values[-1] == final[0] - final[1] and all(reviewed["exact"])  # the end's margin
    start = parlour.game("kalah", pits=3, seeds=2).start()  # the value for Player 1 (seat 0)
    assert values[0] == analyze(start, Limit(seconds=0.25)).value  # Kalah(3,2) is solved at once
    war = new_game(client, game="war", options={"deck": "small"})
    watcher = Tab(client, war["id"])
    watcher.until("over")
    refused = client.get(f"/api/games/{war['id']}/analysis")
    assert refused.status_code == 400 and "war plays itself" in refused.json()["error"]


def test_a_hint_and_a_takeback_against_the_computer(client: TestClient) -> None:
    options = {"pits": 4, "seeds": 2}  # a small endgame table to build for the hint
    made = new_game(client, game="kalah", options=options, opponent="computer", level=1)
    tab = Tab(client, made["id"], made["token"])
    tab.send(type="hint")
    hints = [tab.until("hint")]
    tab.send(type="hint")  # asked again: the table's one engine, its table kept
    hints.append(tab.until("hint"))
    assert all(hint["move"] in tab.position["legal"] for hint in hints)
    assert hints[0]["value"] == hints[1]["value"] is not None  # solved: the same value
    tab.move("A")
    tab.until("moved")
    while tab.position["to_move"] != 0:
        tab.next()
    tab.send(type="undo", at=tab.n)
    back = tab.until("taken_back")
    assert back["moves"] == 0 and back["position"]["rows"] == [[2] * 4, [2] * 4]
    assert tab.sync()["now"]["moves"] == []
    tab.close()


def test_a_game_nobody_comes_to_is_called_off(db: Path) -> None:
    with TestClient(create_app(db, warm=False, wait=0.3)) as client:
        made = new_game(client, game="kalah", opponent="link")
        waiting = Tab(client, made["id"], made["token"])
        assert not waiting.state["table"]["started"]
        over = waiting.until("over")["result"]
        assert over["winner"] is None and "nobody came" in over["words"]
        assert made["id"] not in [game["id"] for game in client.get("/api/games").json()["playing"]]
        waiting.close()


class Stepping(WarmUp):
    """A warm-up that gets a game ready each time its progress is looked at."""

    def progress(self) -> Json:
        now = super().progress()
        self.done += 1
        if self.done == len(self.names):
            self.ready.set()
        return now


@pytest.mark.parametrize("live", [False, True])
def test_serve_says_in_the_terminal_how_far_the_games_warm_up_is(live: bool) -> None:
    """A first start's minutes of compiling are said where the server was started, a game
    at a time, then that all is ready (the page says it too, from /api/ready)."""
    out = io.StringIO()
    warming = Stepping()
    say_warm_up(warming, out, live, tick=0)
    lines = out.getvalue().replace("\r", "\n").replace("\x1b[K", "").split("\n")
    lines = [line for line in lines if line]
    titles = [kit_of(name).title(name) for name in warming.names]
    assert len(titles) >= 4
    for done, (line, title) in enumerate(zip(lines, titles, strict=False)):
        named = title[:1].upper() + title[1:]  # Kalah, Five in a row: as the page names them
        assert line.startswith(f"getting the games ready: {named} ({done} of {len(titles)} done)")
    assert len(lines) == len(titles) + 1 and lines[-1].startswith("the games are ready (in ")


def test_serve_says_nothing_of_a_warm_up_that_is_quick() -> None:
    out = io.StringIO()
    warming = WarmUp()
    warming.skip()
    say_warm_up(warming, out, live=True)
    assert out.getvalue() == ""
