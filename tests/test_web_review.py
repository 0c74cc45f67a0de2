"""The review of a finished game: the analysis follows the game's line whatever take
backs happened (value ``i`` is the position after the ``i``-th move of the list), and a
lost position is not called even where the engine answers without a search."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

import parlour
from parlour.kit import analyze
from parlour.search import Stop
from parlour.search.limit import Limit
from parlour.web.analysis import positions, value
from web_tabs import Tab, new_game, serving

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with serving(tmp_path / "games.sqlite") as test_client:
        yield test_client


def my_turn(tab: Tab) -> None:
    while tab.position["to_move"] != 0 and tab.result is None:
        tab.next()


def test_the_analysis_follows_the_line_after_a_take_back(client: TestClient) -> None:
    options = {"pits": 3, "seeds": 2}  # solved at once: each value is exact
    made = new_game(client, game="kalah", options=options, opponent="computer", level=1)
    tab = Tab(client, made["id"], made["token"])
    for _ in range(2):  # two turns played, the second taken back, then played on
        my_turn(tab)
        tab.move(tab.position["legal"][-1])
        tab.until("moved")
    my_turn(tab)
    tab.send(type="undo", at=tab.n)
    tab.until("taken_back")
    while tab.result is None:
        my_turn(tab)
        if tab.result is None:
            tab.move(tab.position["legal"][0])
            tab.until("moved")
    moves = tab.sync()["now"]["moves"]
    record = client.get(f"/api/games/{made['id']}").json()
    assert any(event["kind"] == "taken_back" for event in record["log"])
    line = [parlour.game("kalah", **options).start()]
    for move in moves:
        line.append(line[-1].play(line[-1].parse_move(move)))
    assert [view["notation"] for view in positions(record)] == [s.notation() for s in line]
    values = client.get(f"/api/games/{made['id']}/analysis").json()["values"]
    end = line[-1].scores
    assert len(values) == len(moves) + 1 and values[-1] == end[0] - end[1]
    for state, found in zip(line[:-1], values, strict=False):
        engine = analyze(state, Limit(seconds=0.25)).value
        assert found == (engine if state.to_move == 0 else -engine)
    tab.close()


def test_a_lost_five_in_a_row_position_is_not_even(client: TestClient) -> None:
    """After H8 A1 H9 A3 H10 A5 H11, O must block an open four at one end and X plays
    five at the other: the engine answers O's turn with a block, unsearched (value 0)."""
    rules = parlour.game("gomoku")
    state = rules.start()
    for move in ["H8", "A1", "H9", "A3", "H10", "A5", "H11"]:
        state = state.play(state.parse_move(move))
    lost = value(state, 0.25, Stop())
    assert lost is not None and lost.value < 0  # O to move: lost
    made = new_game(client, game="gomoku", opponent="here")
    tab = Tab(client, made["id"], made["token"])
    for move in ["H8", "A1", "H9", "A3", "H10", "A5", "H11", "H12", "H7"]:
        tab.move(move)
        tab.until("moved")
    assert tab.until("over")["result"]["winner"] == 0
    values = client.get(f"/api/games/{made['id']}/analysis").json()["values"]
    assert len(values) == 10 and values[7] is not None and values[7] > 0  # for Player 1
    tab.close()


BLUNDER = ["B", "D", "D", "C", "A", "B", "B", "B", "A"]
"""A game of Kalah with 4 pits of 3 seeds whose 6th move loses 6 seeds against the best
(a blunder) and whose 3rd loses 4 (a mistake), every position proven by the solver."""


def test_the_review_grades_a_known_blunder(client: TestClient) -> None:
    made = new_game(client, game="kalah", options={"pits": 4, "seeds": 3}, opponent="here")
    tab = Tab(client, made["id"], made["token"])
    for move in BLUNDER:
        tab.move(move)
        tab.until("moved")
    assert tab.until("over")
    reviewed = client.get(f"/api/games/{made['id']}/analysis").json()
    grades = [g["grade"] for g in reviewed["grades"]]
    assert grades == ["best"] * 2 + ["mistake"] + ["best"] * 2 + ["blunder"] + ["best"] * 3
    assert [g["lost"] for g in reviewed["grades"]][2::3] == [4, 6, 0]
    assert all(reviewed["exact"]) and reviewed["decided"] is not None
    tab.close()
