"""Saving a game at the prompt and going on with it: ``save FILE`` and ``--load FILE``."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pexpect
import pytest
from click.testing import CliRunner

import parlour
from helpers import spawn_play
from parlour.cli import main
from parlour.core import BadOption, BadPosition
from parlour.files import BadFile
from parlour.records.saved import SavedGame


@pytest.mark.parametrize(
    ("name", "options"),
    [("kalah", {"seeds": 3}), ("ayo", {"max_rounds": 2, "first": 1}), ("gomoku", {"size": 9})],
)
def test_a_saved_game_replays_to_the_same_position(name: str, options: dict[str, int]) -> None:
    start = parlour.game(name, **options).start()
    rng, moves, state = random.Random(3), [], start
    for _ in range(12):
        if state.is_over:
            break
        move = rng.choice(state.legal_moves())
        moves.append(move)
        state = state.play(move)
    saved = SavedGame.from_text(SavedGame.of(start, moves).to_text())
    assert saved.replay() == state and saved.game == name and len(saved.moves) == len(moves)
    assert SavedGame.of(state, []).replay() == state  # a loaded game saved again at once


def text_of(**fields: object) -> str:
    base = {"format": "parlour-game", "version": 1, "game": "kalah", "options": {}}
    return json.dumps({**base, "start": parlour.game("kalah").start().notation(), **fields})


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        ("{", BadFile, "the saved game is not JSON"),
        ('{"format": "other"}', BadPosition, "not a saved game"),
        (text_of(version=2), BadPosition, "version 2, not 1"),
        (text_of(moves="CF"), BadPosition, "a list of moves"),
        (text_of(moves=["C", "Z"]), BadPosition, "move 2 of the saved game, 'Z': not a pit"),
        (text_of(moves=["Z" * 5000]), BadPosition, r"move 1 of the saved game, 'ZZZ\w*\.\.\.': "),
        (text_of(moves=[], options={"pits": 99}), BadOption, "pits must be at most 16"),
        (text_of(moves=[], start="4,4/0/4,4/0 0"), BadPosition, "row has 2 pits; this game has 6"),
    ],
)
def test_bad_saved_games_are_refused_with_the_reason(
    text: str, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message) as refusal:
        SavedGame.from_text(text).replay()
    assert len(str(refusal.value)) < 200  # a person's long text is repeated cut short


def test_save_at_the_prompt_then_load_goes_on_from_the_same_position(tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    child = spawn_play("kalah", "--players", "human,human")
    for move in ("C", "F", "A"):  # C ends in the store: the same player plays F
        child.expect_exact("-> ")
        child.sendline(move)
    child.expect_exact("-> ")
    child.sendline("position")
    child.expect(r"(\S+/\S+/\S+/\S+ [01])\r\n")
    position = child.match.group(1)
    child.sendline(f"save {saved}")
    child.expect_exact(f"Saved 3 moves to {saved}")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert json.loads(saved.read_text())["moves"] == ["C", "F", "A"]
    again = spawn_play("kalah", "--players", "human,human", "--load", str(saved))
    again.expect_exact("Player 1: 2. ")  # the turns go on counting: not 1 again
    again.expect_exact("-> ")
    again.sendline("position")
    again.expect_exact(position)
    again.sendline(f"save {saved}.again")  # the loaded game's moves are kept
    again.expect_exact(f"Saved 3 moves to {saved}.again")
    again.sendline("quit")
    again.expect(pexpect.EOF)
    assert json.loads(Path(f"{saved}.again").read_text()) == json.loads(saved.read_text())


@pytest.mark.parametrize(
    ("moves", "turns"),
    [("", (0, 0)), ("C", (0, 0)), ("CF", (1, 0)), ("CFA", (1, 1)), ("CFAB", (1, 1))],
)
def test_a_loaded_game_counts_the_turns_it_holds(moves: str, turns: tuple[int, int]) -> None:
    """A turn under way at the end (C ends in the store: the same player moves again) is
    the one its player goes on with, not one more."""
    start = parlour.game("kalah").start()
    state, taken = start, []
    for name in moves:
        move = state.parse_move(name)
        taken.append(move)
        state = state.play(move)
    played = SavedGame.of(start, taken).played()
    assert played.turns() == turns


def test_load_refuses_a_file_of_another_game(tmp_path: Path) -> None:
    saved = tmp_path / "kalah.json"
    saved.write_text(SavedGame.of(parlour.game("kalah").start(), [2]).to_text())
    result = CliRunner().invoke(main, ["play", "gomoku", "--load", str(saved)])
    assert result.exit_code == 2 and "is a game of kalah, not gomoku" in result.output
    result = CliRunner().invoke(main, ["play", "kalah", "--load", str(tmp_path / "none")])
    assert result.exit_code == 2 and "No such file" in result.output
