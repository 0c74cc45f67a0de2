"""A web game as parlour's saved game (what ``parlour play GAME --load FILE`` reads), and
the rules of each game as the page shows them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

import parlour
from parlour.players.saved_game import SavedGame
from parlour.rules_text import rules_text
from web_tabs import Tab, new_game, serving


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with serving(tmp_path / "games.sqlite") as client:
        yield client


@pytest.mark.parametrize(
    ("name", "options"), [("kalah", {"pits": 3, "seeds": 2}), ("ayo", {}), ("gomoku", {"size": 7})]
)
def test_a_game_under_way_and_finished_downloads_as_a_saved_game(
    client: TestClient, name: str, options: dict[str, int]
) -> None:
    made = new_game(client, game=name, options=options, opponent="here")
    tab = Tab(client, made["id"], made["token"])
    for _ in range(3):
        tab.move(tab.position["legal"][0])
        tab.until("moved")
    response = client.get(f"/api/games/{made['id']}/saved")
    assert response.status_code == 200
    assert f"parlour-{name}-{made['id']}.json" in response.headers["content-disposition"]
    saved = SavedGame.from_text(response.text)
    assert len(saved.moves) == 3
    assert saved.replay().notation() == tab.position["notation"]
    tab.send(type="resign")
    tab.until("over")
    finished = SavedGame.from_text(client.get(f"/api/games/{made['id']}/saved").text)
    assert finished == saved
    assert "seed" not in finished.options  # never shown


def test_a_saved_game_leaves_out_the_moves_taken_back(client: TestClient) -> None:
    made = new_game(client, game="kalah", options={"pits": 3, "seeds": 2}, level=1)
    tab = Tab(client, made["id"], made["token"])
    tab.move("C")
    tab.until("moved")
    while tab.position["to_move"] != 0:
        tab.next()
    tab.send(type="undo", at=tab.n)
    tab.until("taken_back")
    saved = SavedGame.from_text(client.get(f"/api/games/{made['id']}/saved").text)
    assert saved.moves == () and saved.replay() == parlour.game("kalah", pits=3, seeds=2).start()


def test_no_saved_game_for_war_or_an_unknown_id(client: TestClient) -> None:
    assert client.get("/api/games/nothing/saved").status_code == 404
    war = new_game(client, game="war", options={"deck": "small"})
    Tab(client, war["id"]).until("over")
    refused = client.get(f"/api/games/{war['id']}/saved")
    assert refused.status_code == 400
    assert (
        refused.json()["error"]
        == "this game cannot be saved: war plays itself: it has no moves of anyone's"
    )


def test_the_rules_of_each_game_are_its_rules_text(client: TestClient) -> None:
    for name in parlour.game_names():
        assert client.get(f"/api/rules/{name}").json()["markdown"] == rules_text(name)
    assert client.get("/api/rules/chess").status_code == 404
