"""Piskvork .psq records: written and read back move for move, bad records refused with
the reason, and ``parlour record`` converting between them and saved games."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

import parlour
from parlour.cli import main
from parlour.core import BadPosition
from parlour.games.gomoku.game import GomokuState
from parlour.games.gomoku.psq import from_psq, to_psq


def random_game(size: int, seed: int) -> GomokuState:
    rng = random.Random(seed)
    state = parlour.game("gomoku", size=size).start()
    while not state.is_over:
        state = state.play(rng.choice(state.legal_moves()))
    assert isinstance(state, GomokuState)
    return state


def moves_of(state: GomokuState, seed: int) -> list[tuple[int, int]]:
    """The moves of ``random_game``'s game, replayed."""
    rng = random.Random(seed)
    replay = state.game.start()
    moves = []
    while not replay.is_over:
        move = rng.choice(replay.legal_moves())
        moves.append(move)
        replay = replay.play(move)
    return moves


@pytest.mark.parametrize(("size", "seed"), [(15, 1), (7, 2), (20, 3)])
def test_a_finished_game_round_trips_through_psq(size: int, seed: int) -> None:
    final = random_game(size, seed)
    moves = moves_of(final, seed)
    times = [37 * i for i in range(len(moves))]
    text = to_psq(size, moves, ("parlour", "pbrain-wine"), times)
    lines = text.splitlines()
    assert lines[0] == f"Piskvorky {size}x{size}, 11:11, 0"
    row, col = moves[0]
    assert lines[1] == f"{col + 1},{row + 1},0"  # x (the column) first, counted from 1
    assert lines[-3:] == ["parlour", "pbrain-wine", "-1"]
    record = from_psq(text)
    assert (record.size, list(record.moves), list(record.times)) == (size, moves, times)
    assert record.names == ("parlour", "pbrain-wine")
    replayed = record.replay()
    assert (replayed.board == final.board).all() and replayed.winner == final.winner


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "not a .psq record: it begins with nothing"),
        ("Gomoku 15x15\n", "not a .psq record"),
        ("Piskvorky 15x20, 11:11, 0\n", "a 15x20 board; parlour plays square boards only"),
        ("Piskvorky 30x30, 11:11, 0\n", "the board's side must be at most 26, not 30"),
        ("Piskvorky 15x15, 11:11, 0\n16,1,0\n", "move 1's column must be at most 15, not 16"),
        ("Piskvorky ١٥x١٥, 11:11, 0\n", "the board's side must be a whole number, not '١٥'"),
        ("Piskvorky 15x15, 11:11, 0\n٨,8,0\n", "move 1's column must be a whole number"),
        ("Piskvorky 15x15, 11:11, 0\n8,８,0\n", "move 1's row must be a whole number"),
        ("Piskvorky 15x15, 11:11, 0\n8,8,٠\n", "move 1's milliseconds must be a whole"),
        (f"Piskvorky {'9' * 5000}x15, 11:11, 0\n", "at most 26, not a number of more than 30"),
        (f"Piskvorky 15x15, 11:11, 0\n{'9' * 5000},1,0\n", "move 1's column must be at most 15"),
        (f"Piskvorky 15x15, 11:11, 0\n1,1,-{'9' * 5000}\n", "at most 2147483647"),
        ("Piskvorky 15x15, 11:11, 0\n8,8,0\n8,8,0\n", "move 2 of the record: point"),
    ],
)
def test_bad_records_are_refused_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(BadPosition, match=message):
        from_psq(text).replay()


def test_parlour_record_converts_a_saved_game_to_psq_and_back(tmp_path: Path) -> None:
    final = random_game(9, 4)
    moves = moves_of(final, 4)
    psq = tmp_path / "game.psq"
    psq.write_text(to_psq(9, moves))
    saved = tmp_path / "game.json"
    result = CliRunner().invoke(main, ["record", str(psq), "--out", str(saved)])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"{len(moves)} moves: ")
    assert final.render() in result.output
    fields = json.loads(saved.read_text())
    assert fields["game"] == "gomoku" and len(fields["moves"]) == len(moves)
    again = tmp_path / "again.psq"
    result = CliRunner().invoke(main, ["record", str(saved), "--out", str(again)])
    assert result.exit_code == 0, result.output
    assert again.read_text() == psq.read_text()
    bad = tmp_path / "bad.psq"
    bad.write_text("Piskvorky 9x9, 11:11, 0\n1,1,0\n1,1,0\n")
    result = CliRunner().invoke(main, ["record", str(bad)])
    assert result.exit_code == 2 and "move 2 of the record" in result.output


def test_parlour_record_shows_any_game_and_writes_only_its_own_forms(tmp_path: Path) -> None:
    from parlour.records.saved import SavedGame

    start = parlour.game("kalah").start()
    saved = tmp_path / "kalah.json"
    saved.write_text(SavedGame.of(start, [2]).to_text())
    result = CliRunner().invoke(main, ["record", str(saved)])
    assert result.exit_code == 0 and result.stdout.startswith("1 moves: C\n"), result.output
    assert start.play(2).render() in result.output
    result = CliRunner().invoke(main, ["record", str(saved), "--out", str(tmp_path / "k.psq")])
    assert result.exit_code == 2 and "kalah keeps no .psq records" in result.output
    assert not (tmp_path / "k.psq").exists()
    text = tmp_path / "game.txt"
    text.write_text(to_psq(9, [(4, 4)]))
    result = CliRunner().invoke(main, ["record", str(text)])
    assert result.exit_code == 2 and "no game keeps records in '.txt' files" in result.output
    assert ".psq (Piskvork's five-in-a-row records)" in result.output


def test_the_rule_a_psq_does_not_keep_is_given_with_o(tmp_path: Path) -> None:
    crosses = [(4, col) for col in (0, 1, 2, 4, 5, 3)]  # the last joins six in a row
    noughts = [(8, 0), (8, 2), (8, 4), (6, 0), (6, 2), (6, 4)]  # never four in a row
    moves = [p for pair in zip(crosses, noughts, strict=True) for p in pair]
    psq = tmp_path / "six.psq"
    psq.write_text(to_psq(9, moves[:-1]))
    free = CliRunner().invoke(main, ["record", str(psq)])
    assert free.exit_code == 0 and "Player 1 wins." in free.output, free.output
    exact = CliRunner().invoke(main, ["record", str(psq), "-o", "exact_five=true"])
    assert exact.exit_code == 0 and "11 moves" in exact.output, exact.output
    assert "wins" not in exact.output  # six in a row does not win
