"""The server's bounds: a finished game's engines freed at once (no reference cycle
keeps them), the rates of new games, hints and uploads per client address, games nobody came to
called off (War too), the lobby's lists paged, the levels each game really has, and the
warm-up's progress."""

from __future__ import annotations

import gc
import time
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from parlour.kit import kit_of
from parlour.web.app import create_app
from parlour.web.hall import PAGE
from parlour.web.limits import GAMES, HINTS, UPLOADS
from web_tabs import Tab, new_game, serving

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with serving(tmp_path / "games.sqlite") as test_client:
        yield test_client


def eventually(condition: Callable[[], bool], seconds: float = 10.0) -> bool:
    """Whether ``condition`` holds within ``seconds`` (polled)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def test_a_finished_games_engines_are_freed_without_a_collection(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hint's thinker is gone once the game is over, and the computer's once the
    engine pool drops it unused, with the collector off: nothing but plain references
    held them."""
    made: list[weakref.ref[Any]] = []

    def watched(make: Callable[..., Any]) -> Callable[..., Any]:
        def making(*args: Any) -> Any:
            thinker = make(*args)
            made.append(weakref.ref(thinker))
            return thinker

        return making

    import parlour.web.engines
    import parlour.web.tables

    monkeypatch.setattr(parlour.web.engines, "IDLE", 0.05)
    monkeypatch.setattr(parlour.web.engines, "thinker", watched(parlour.web.engines.thinker))
    monkeypatch.setattr(parlour.web.tables, "hinter", watched(parlour.web.tables.hinter))
    options = {"pits": 4, "seeds": 2}
    request = {"opponent": "computer", "level": 4, "first": "them"}
    game = new_game(client, game="kalah", options=options, **request)
    gc.disable()
    try:
        tab = Tab(client, game["id"], game["token"])
        while tab.position["to_move"] != 0:
            tab.next()  # the computer has moved: its thinker exists
        tab.send(type="hint")
        tab.until("hint")
        assert len(made) == 2 and made[1]() is not None  # the computer's, the hint's
        tab.send(type="resign")
        tab.until("over")
        assert eventually(lambda: all(ref() is None for ref in made))
        tab.close()
    finally:
        gc.enable()


def test_new_games_are_rate_limited_per_address(client: TestClient) -> None:
    burst = int(GAMES[1])
    for _ in range(burst):
        new_game(client, game="war")
    refused = client.post("/api/games", json={"game": "war"})
    assert refused.status_code == 429
    assert 1 <= int(refused.headers["Retry-After"]) <= 3 + 1
    assert "too many new games" in refused.json()["error"]


def test_uploads_are_rate_limited_per_address(client: TestClient) -> None:
    """Each file is replayed by the rules: one address sends a burst of them, then waits
    (a refused file is counted too: reading it was the server's work)."""
    for _ in range(int(UPLOADS[1])):
        assert client.post("/api/upload?name=notes.txt", content=b"x").status_code == 400
    refused = client.post("/api/upload?name=notes.txt", content=b"x")
    assert refused.status_code == 429
    assert 1 <= int(refused.headers["Retry-After"]) <= 1 / UPLOADS[0] + 1
    assert "too many files" in refused.json()["error"]


def test_hints_are_rate_limited_per_address_and_one_at_a_time(client: TestClient) -> None:
    options = {"pits": 3, "seeds": 1}  # solved at once: each hint is quick
    made = new_game(client, game="kalah", options=options, opponent="computer", level=1)
    tab = Tab(client, made["id"], made["token"])
    tab.send(type="hint")
    assert "being searched already" in tab.refused(type="hint")
    tab.until("hint")
    for _ in range(int(HINTS[1]) - 1):
        tab.send(type="hint")
        tab.until("hint")
    tab.send(type="hint")
    refused = tab.until("error")
    assert "too many hints" in refused["message"] and refused["retry_after"] >= 1
    tab.close()


def test_no_hint_in_a_game_between_people(client: TestClient) -> None:
    for opponent in ("link", "here"):
        made = new_game(client, game="kalah", opponent=opponent)
        tab = Tab(client, made["id"], made["token"])
        assert not tab.state["table"]["hint"]
        assert "no hints in a game between people" in tab.refused(type="hint")
        tab.close()


@pytest.mark.parametrize("request_", [{"game": "war"}, {"game": "kalah", "opponent": "link"}])
def test_a_game_nobody_came_to_is_called_off_and_not_kept(
    tmp_path: Path, request_: dict[str, str]
) -> None:
    with TestClient(create_app(tmp_path / "games.sqlite", warm=False, wait=0.2)) as client:
        made = new_game(client, **request_)
        hall = client.app.state.hall  # type: ignore[attr-defined]
        assert made["id"] in hall.tables
        assert eventually(lambda: made["id"] not in hall.tables)
        assert client.get(f"/api/games/{made['id']}").status_code == 404
        listed = client.get("/api/games").json()
        assert listed["playing"] == listed["finished"] == []


def test_the_lobbys_lists_are_paged(tmp_path: Path) -> None:
    app = create_app(tmp_path / "games.sqlite", warm=False, games_rate=None)
    with TestClient(app) as client:
        ids = [new_game(client, game="kalah", opponent="link")["id"] for _ in range(PAGE + 3)]
        first = client.get("/api/games").json()
        second = client.get("/api/games?page=1").json()
        assert len(first["playing"]) == PAGE and first["more"]
        assert len(second["playing"]) == 3 and not second["more"]
        listed = [g["id"] for g in first["playing"] + second["playing"]]
        assert listed == ids[::-1]  # newest first, each once
        refused = client.get("/api/games?page=x")
        assert refused.status_code == 400 and "the page" in refused.json()["error"]


def test_the_lobby_offers_the_levels_each_game_has(client: TestClient) -> None:
    for entry in client.get("/api/catalogue").json():
        levels = kit_of(entry["name"]).levels
        assert entry["levels"] == [
            {"number": level.number, "name": level.name, "about": level.about} for level in levels
        ]
    perfect = new_game(client, game="kalah", options={"pits": 3, "seeds": 1}, level="perfect")
    tab = Tab(client, perfect["id"], perfect["token"])
    assert tab.state["table"]["names"] == ["Player 1", "Computer (level perfect)"]
    tab.close()
    refused = client.post("/api/games", json={"game": "ayo", "level": "perfect"})
    assert refused.status_code == 400 and "ayo has levels" in refused.json()["error"]


def test_ready_says_how_far_the_warm_up_is(client: TestClient) -> None:
    ready = client.get("/api/ready").json()
    assert ready["ready"] and ready["done"] == ready["of"] > 0 and ready["doing"] is None


def test_the_lobby_lists_each_games_clock_and_time_left(client: TestClient) -> None:
    clocked = new_game(client, game="kalah", opponent="computer", level=1, minutes=5, increment=3)
    plain = new_game(client, game="kalah", opponent="link")
    me = Tab(client, clocked["id"], clocked["token"])
    me.move("C")  # the last seed in the store: Player 1 moves again
    me.until("moved")
    listed = {g["id"]: g for g in client.get("/api/games").json()["playing"]}
    assert listed[clocked["id"]]["clock"] == [300.0, 3.0]
    mine, theirs = listed[clocked["id"]]["left"]
    assert 290 < mine <= 303 and theirs == 300.0  # my time runs, and gained the increment
    assert listed[plain["id"]]["clock"] is None and "left" not in listed[plain["id"]]
    me.close()


def test_the_lobby_names_each_game_as_people_do_and_says_which_play_themselves(
    client: TestClient,
) -> None:
    """The page names no game itself: the catalogue and each table say what people call
    a game and whether it plays itself (nobody to seat: War)."""
    catalogue = {entry["name"]: entry for entry in client.get("/api/catalogue").json()}
    assert catalogue["gomoku"]["title"] == "five in a row"
    assert catalogue["kalah"]["title"] == "kalah"
    assert [name for name, entry in catalogue.items() if entry["watched"]] == ["war"]
    made = new_game(client, game="gomoku", options={"size": 7})
    tab = Tab(client, made["id"], made["token"])
    assert tab.state["table"]["title"] == "five in a row"
    tab.close()
