"""parlour's one store: a game played in the browser is listed, replayed and exported by
the arena's commands; a match's game opens in the page's replay and analysis; a store of
the arena's first schema is brought up to date with its games kept."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from starlette.testclient import TestClient

import parlour
from parlour.cli import main
from parlour.records.saved import SavedGame
from parlour.records.store import SCHEMA_VERSION, Finished, RecordsError, Store
from parlour.web.app import create_app
from web_tabs import Tab, new_game

pytestmark = pytest.mark.timeout(120)


def parlour_cli(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def web_game(db: Path) -> tuple[str, list[str]]:
    """A game of Kalah(3, 1) between two people at one screen, played to its end in the
    browser's protocol: its link and its moves."""
    with TestClient(create_app(db, warm=False)) as client:
        made = new_game(client, game="kalah", options={"pits": 3, "seeds": 1}, opponent="here")
        tab = Tab(client, made["id"], made["token"])
        while tab.result is None:
            if tab.position["legal"]:
                tab.move(tab.position["legal"][-1])
            tab.next()
        moves = [m["move"] for m in tab.seen if m.get("kind") == "moved"]
        tab.close()
    return made["id"], moves


def test_a_game_played_in_the_browser_is_listed_replayed_and_exported(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    link, moves = web_game(db)
    listed = parlour_cli("games", "--db", str(db))
    assert listed.exit_code == 0, listed.output
    assert "web" in listed.output and "kalah    Player 1 - Player 2" in listed.output
    assert f"{len(moves)} moves" in listed.output
    exported = json.loads(parlour_cli("export", "1", "--db", str(db)).output)
    assert exported["moves"] == moves and exported["ref"] == link
    assert exported["site"] == "web"
    assert exported["options"] == dict(parlour.game("kalah", pits=3, seeds=1).options)
    final = parlour.game("kalah", pits=3, seeds=1).start()
    for move in moves:
        final = final.play(final.parse_move(move))
    assert list(final.scores) == [exported["score0"], exported["score1"]]
    saved = SavedGame.from_text(
        parlour_cli("export", "1", "--format", "saved", "--db", str(db)).output
    )
    assert saved.replay() == final and saved.moves == tuple(moves)
    shown = parlour_cli("replay", "1", "--db", str(db), "--delay", "0")
    assert shown.exit_code == 0, shown.output
    assert "Recorded: rules" in shown.output and final.render() in shown.output


def test_a_matchs_game_opens_in_the_web_replay_and_analysis(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    played = parlour_cli(
        "match", "kalah", "--players", "random,random", "--games", "2", "-o", "pits=3",
        "-o", "seeds=2", "--db", str(db), "-j", "1", "--seed", "7",
    )  # fmt: skip
    assert played.exit_code == 0, played.output
    with Store(db, writable=False) as store:
        rows = {row["id"]: row for row in store.games()}
    with TestClient(create_app(db, warm=False)) as client:
        listed = client.get("/api/games").json()["finished"]
        assert [game["id"] for game in listed] == ["g2", "g1"]
        for game in listed:
            row = rows[int(game["id"][1:])]
            record = client.get(f"/api/games/{game['id']}").json()
            shown_moves = [e["move"] for e in record["log"] if e["kind"] == "moved"]
            assert shown_moves == row["moves"].split()
            assert record["start"]["notation"] == row["start"]
            final = record["log"][-1]["position"]
            assert final["over"] and final["scores"] == [row["score0"], row["score1"]]
            assert record["result"]["words"] == game["words"]
            assert record["table"]["names"] == ["random", "random"]
            high, low = max(final["scores"]), min(final["scores"])
            assert ("A draw" if high == low else f"wins, {high} to {low}.") in game["words"]
            values = client.get(f"/api/games/{game['id']}/analysis").json()["values"]
            margin = final["scores"][0] - final["scores"][1]  # the review's end: exact
            assert len(values) == len(shown_moves) + 1 and values[-1] == margin
        assert client.get("/api/games/g99").status_code == 404
        assert client.get("/api/games/g" + "9" * 40).status_code == 404


VERSION_1 = """
CREATE TABLE matches (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, plan TEXT NOT NULL,
    created TEXT NOT NULL, finished TEXT, verdict TEXT, version TEXT NOT NULL);
CREATE TABLE games (id INTEGER PRIMARY KEY, match INTEGER NOT NULL REFERENCES matches(id),
    job INTEGER NOT NULL, pair INTEGER NOT NULL, game TEXT NOT NULL, options TEXT NOT NULL,
    player0 TEXT NOT NULL, player1 TEXT NOT NULL, entrant0 INTEGER NOT NULL,
    entrant1 INTEGER NOT NULL, start TEXT NOT NULL, opening TEXT NOT NULL,
    moves TEXT NOT NULL, winner INTEGER, reason TEXT NOT NULL, detail TEXT NOT NULL,
    score0 INTEGER NOT NULL, score1 INTEGER NOT NULL, seconds TEXT NOT NULL,
    evaluations TEXT, started TEXT NOT NULL, ended TEXT NOT NULL, version TEXT NOT NULL,
    UNIQUE (match, job));
INSERT INTO matches VALUES (1, 'match', '{}', 'then', 'now', NULL, '0.1');
INSERT INTO games VALUES (1, 1, 0, 0, 'kalah', '{}', 'random', 'level 3', 0, 1,
    '4,4,4,4,4,4/0/4,4,4,4,4,4/0 0', '', 'C', NULL, 'aborted', 'stopped', 4, 0, '[0.5]',
    NULL, 'then', 'now', '0.1');
PRAGMA user_version = 1;
"""
"""The arena's store as parlour first wrote it, with one game."""


def test_a_store_of_the_first_schema_is_brought_up_to_date_with_its_games(
    tmp_path: Path,
) -> None:
    db = tmp_path / "arena.sqlite3"
    with closing(sqlite3.connect(db)) as connection:
        connection.executescript(VERSION_1)
    with pytest.raises(RecordsError, match="schema version 1, not parlour's 2: open it for"):
        Store(db, writable=False)
    with Store(db) as store:
        (row,) = store.games()
        assert (row["id"], row["match"], row["player1"], row["moves"]) == (1, 1, "level 3", "C")
        assert row["site"] == "arena" and row["ref"] is None and row["shown"] is None
        assert store.under_way() == []
    with Store(db, writable=False) as store:
        assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert [r["player0"] for r in store.games()] == ["random"]


def test_a_store_of_an_unknown_schema_is_refused_and_left_alone(tmp_path: Path) -> None:
    db = tmp_path / "other.sqlite3"
    with closing(sqlite3.connect(db)) as connection:
        connection.executescript("CREATE TABLE games (a); PRAGMA user_version = 7;")
    before = db.read_bytes()
    with pytest.raises(RecordsError, match=r"schema version 7, not parlour's 2$"):
        Store(db)
    assert db.read_bytes() == before


def test_serve_refuses_a_file_that_is_not_its_store_in_one_line(tmp_path: Path) -> None:
    db = tmp_path / "other.sqlite3"
    with closing(sqlite3.connect(db)) as connection:
        connection.executescript("CREATE TABLE games (a); PRAGMA user_version = 7;")
    result = parlour_cli("serve", "--port", "1", "--db", str(db))  # refused before listening
    errors = [line for line in result.output.splitlines() if line.startswith("Error: ")]
    assert result.exit_code == 1 and len(errors) == 1, result.output
    assert "holds schema version 7" in errors[0] and "Traceback" not in result.output


def test_a_game_that_never_showed_its_start_is_listed_but_not_replayed(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    names = ("Player 1", "Player 2")
    dealt = Finished("war", {}, names, None, (), 0, "out_of_cards", "", (52, 0), (), "then",
                     "now", site="web", ref="abc", words="Player 1 wins.")  # fmt: skip
    with Store(db) as store:
        store.add(dealt)
    assert "web        war" in parlour_cli("games", "--db", str(db)).output
    for args in (["replay", "1"], ["export", "1", "--format", "saved"]):
        refused = parlour_cli(*args, "--db", str(db))
        assert refused.exit_code == 1 and "game 1 kept no start" in refused.output, args
