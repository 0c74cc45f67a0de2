"""A game's kit owns its levels: every interface (the play commands, the arena, the Gomocup
brain, the web's tables, the Python API) refuses a level the game lacks with the same
words, before any game starts.  (That the Referee tells a game's notices whoever runs
it: tests/games/ayo/test_ayo_cli.py, which passes none.)"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

import parlour
from parlour.cli import main
from parlour.core import BadOption
from parlour.kit import check_level, kit_of, refusal, thinker
from parlour.search import PERFECT
from parlour.web.app import create_app

AYO_PERFECT = "ayo has levels 1-8; perfect plays kalah and mancala"
GOMOKU_PERFECT = "gomoku has levels 1-6; perfect plays kalah and mancala"


def test_each_game_lists_the_levels_its_computer_really_has() -> None:
    names = {name: [level.name for level in kit_of(name).levels] for name in parlour.game_names()}
    assert names["kalah"] == names["mancala"] == [*map(str, range(1, 9)), "perfect"]
    assert names["ayo"] == [str(n) for n in range(1, 9)]
    assert names["gomoku"] == [str(n) for n in range(1, 7)]
    assert names["war"] == []
    assert all(level.about for name in names for level in kit_of(name).levels)


@pytest.mark.parametrize(
    ("game", "level", "words"),
    [
        ("ayo", PERFECT, AYO_PERFECT),
        ("gomoku", PERFECT, GOMOKU_PERFECT),
        ("gomoku", 7, "gomoku has levels 1-6, not 7"),
        ("gomoku", 8, "gomoku has levels 1-6, not 8"),
        ("kalah", 9, "kalah has levels 1-8 and perfect, not 9"),
        ("war", 3, "war has no levels: its players make no choices"),
    ],
)
def test_a_level_the_game_lacks_is_refused_in_the_kits_words(
    game: str, level: int, words: str
) -> None:
    assert refusal(game, level) == words
    with pytest.raises(BadOption, match=words):
        check_level(game, level)
    with pytest.raises(BadOption, match=words):
        thinker(game, level)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["play", "ayo", "--level", "perfect"], AYO_PERFECT),
        (["play", "gomoku", "--level", "perfect"], GOMOKU_PERFECT),
        (["play", "gomoku", "--level", "7"], "gomoku has levels 1-6, not 7"),
        (["play", "ayo", "--players", "human,computer:perfect"], AYO_PERFECT),
        (["pbrain", "--level", "8"], "gomoku has levels 1-6, not 8"),
    ],
)
def test_the_commands_refuse_the_level_in_one_line(args: list[str], words: str) -> None:
    result = CliRunner().invoke(main, args, input="")
    assert result.exit_code == 2, result.output
    assert words in result.output and "Traceback" not in result.output


def test_a_match_refuses_the_level_before_it_records_anything(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    args = ["match", "ayo", "--players", "computer:perfect,random", "--games", "2"]
    result = CliRunner().invoke(main, [*args, "--db", str(db)])
    assert result.exit_code == 2, result.output
    assert AYO_PERFECT in result.output and "Traceback" not in result.output
    assert not db.exists()


def test_the_web_refuses_a_table_at_a_level_the_game_lacks(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "web.db", abandon=10, warm=False)) as client:
        for request, words in [
            ({"game": "ayo", "opponent": "computer", "level": "perfect"}, AYO_PERFECT),
            ({"game": "gomoku", "opponent": "computer", "level": 7}, "gomoku has levels 1-6"),
        ]:
            response = client.post("/api/games", json=request)
            assert response.status_code == 400 and words in response.json()["error"]
        made = client.post("/api/games", json={"game": "kalah", "level": "perfect"})
        assert made.status_code == 200, made.json()


PREPARED_PLAY = """
import sys
from numba.core import event
import parlour
from parlour import kit

class Compiles(event.Listener):
    def __init__(self):
        self.names = []
    def on_start(self, ev):
        self.names.append(str(ev.data["dispatcher"]))
    def on_end(self, ev):
        pass

state = parlour.game(sys.argv[1]).start()
kit.prepare(state, [1])
heard = Compiles()
event.register("numba:compile", heard)
for _ in range(300):
    if state.is_over:
        break
    state = state.play(state.legal_moves()[-1])
print(len(heard.names), heard.names[:3])
"""


@pytest.mark.slow
@pytest.mark.parametrize("name", ["kalah", "ayo", "gomoku"])
def test_a_prepared_game_compiles_nothing_more_while_it_is_played(
    name: str, tmp_path: Path
) -> None:
    """After ``kit.prepare`` a whole game played compiles no kernel (an engine process
    compiled Kalah's ``apply_move`` on its clock, as the preparation played its one move
    by ``play_report`` alone): a fresh numba cache, so nothing is loaded from before."""
    done = subprocess.run(
        [sys.executable, "-c", PREPARED_PLAY, name],
        env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    assert done.stdout.split(maxsplit=1)[0] == "0", done.stdout
