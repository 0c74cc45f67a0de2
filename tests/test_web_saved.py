"""A web game as parlour's saved game (what ``parlour play GAME --load FILE`` reads), and
the rules of each game as the page shows them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

import parlour
from parlour.records.saved import SavedGame
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


def test_a_five_in_a_row_game_downloads_as_psq_and_comes_back_by_upload(
    client: TestClient,
) -> None:
    made = new_game(client, game="gomoku", options={"size": 9}, opponent="here")
    tab = Tab(client, made["id"], made["token"])
    line = ["E5", "A1", "E6", "A2", "E7", "A3", "E8", "A4", "E9"]
    for move in line:
        tab.move(move)
        tab.until("moved")
    response = client.get(f"/api/games/{made['id']}/form")
    assert response.status_code == 200
    assert f"parlour-gomoku-{made['id']}.psq" in response.headers["content-disposition"]
    assert response.text.startswith("Piskvorky 9x9")
    replayed = client.post("/api/upload?name=game.PSQ", content=response.text.encode())
    assert replayed.status_code == 200
    record = replayed.json()
    assert [e["move"] for e in record["log"]] == [
        "E5",
        "A1",
        "E6",
        "A2",
        "E7",
        "A3",
        "E8",
        "A4",
        "E9",
    ]
    assert record["result"]["words"] == "Player 1 wins."
    assert record["log"][-1]["position"]["notation"] == tab.position["notation"]
    review = client.post("/api/upload/analysis?name=game.psq", content=response.text.encode())
    assert review.status_code == 200 and len(review.json()["grades"]) == 9
    kalah = new_game(client, game="kalah", opponent="here")
    refused = client.get(f"/api/games/{kalah['id']}/form")
    assert refused.status_code == 400 and "kalah has no record form" in refused.json()["error"]


def test_a_saved_game_uploaded_replays_unfinished(client: TestClient) -> None:
    start = parlour.game("kalah", pits=3, seeds=2).start()
    saved = SavedGame.of(start, [start.parse_move("A")]).to_text()
    record = client.post("/api/upload?name=mine.json", content=saved.encode()).json()
    assert record["start"]["notation"] == start.notation() and len(record["log"]) == 1
    assert record["result"]["words"] == "No winner: the file ends before the game does."
    assert client.get("/api/games/upload").status_code == 404  # nothing kept


@pytest.mark.parametrize(
    ("name", "body", "words"),
    [
        ("notes.txt", b"E5", "no game keeps records in '.txt' files"),
        ("deep.json", b"[" * 1000, "the file nests 1000 deep"),
        ("bad.json", b'{"format": "parlour-game", "version": 1}', 'needs "game"'),
        ("binary.psq", b"\xff\xfe", "not text"),
        ("empty.psq", b"", "the file is empty"),
        ("big.json", b" " * (64 * 1024 + 1), "the file is too long"),
        ("illegal.psq", b"Piskvorky 9x9, 1:1, 0\n5,5,0\n5,5,0\n", "move 2"),
    ],
)
def test_a_bad_file_is_refused_in_words(
    client: TestClient, name: str, body: bytes, words: str
) -> None:
    for path in ("/api/upload", "/api/upload/analysis"):
        refused = client.post(f"{path}?name={name}", content=body)
        assert refused.status_code == 400
        assert words in refused.json()["error"]
