"""``parlour review`` and ``parlour.review``: a Kalah(3,3) game with a known blunder,
graded against values an exhaustive search written here proves."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner

import parlour
from parlour.cli import main
from parlour.core import State
from parlour.records.saved import SavedGame
from parlour.review import Value, grade, kit_valuer, review
from parlour.search import Stop

GAME = parlour.game("kalah", pits=3, seeds=3)
MOVES = [0, 1, 1, 0, 2, 2, 1, 0, 2, 1, 1, 2]
"""A game of best moves but its sixth, which loses 8 seeds against the best and turns
the first side's win (by 2 with perfect play) into a loss (6-12)."""
BLUNDER = 5


@cache
def value(notation: str) -> int:
    """The final margin of the position's side to move with perfect play: every line to
    its end (independent of the solver)."""
    state = GAME.parse(notation)
    return max(mover_value(state, state.play(move)) for move in state.legal_moves())


def mover_value(before: State, after: State) -> int:
    if after.is_over:
        return after.scores[before.to_move] - after.scores[1 - before.to_move]
    found = value(after.notation())
    return found if after.to_move == before.to_move else -found


def played() -> list[State]:
    states = [GAME.start()]
    for move in MOVES:
        states.append(states[-1].play(move))
    return states


def test_a_blunder_is_graded_with_the_seeds_it_lost() -> None:
    """Every move's value, best value and grade are the exhaustive search's; the sixth
    loses 8 seeds: a blunder."""
    states = played()
    done = review(states, MOVES, kit_valuer(Stop()))
    assert len(done.moves) == len(MOVES)
    for graded, before, after in zip(done.moves, states[:-1], states[1:], strict=True):
        best = value(before.notation())
        assert graded.exact
        assert (graded.value, graded.best) == (mover_value(before, after), best)
        assert graded.lost == best - graded.value
        assert graded.grade == grade(graded.lost)
    assert done.moves[BLUNDER].lost == 8 and done.moves[BLUNDER].grade == "blunder"
    assert [g.grade for i, g in enumerate(done.moves) if i != BLUNDER] == ["best"] * 11


def test_the_game_is_decided_after_the_last_move_that_changed_its_outcome() -> None:
    """With perfect play the first side wins from the start; the blunder hands the win to
    the other side for good: decided by the blunder, as the exhaustive outcomes say."""
    states = played()
    done = review(states, MOVES, kit_valuer(Stop()))

    def first_sides(state: State) -> int:
        if state.is_over:
            margin = state.scores[0] - state.scores[1]
        else:
            margin = value(state.notation()) * (1 if state.to_move == 0 else -1)
        return (margin > 0) - (margin < 0)

    outcomes = [first_sides(state) for state in states]
    assert outcomes[BLUNDER] != outcomes[BLUNDER + 1] == outcomes[-1]
    assert len(set(outcomes[BLUNDER + 1 :])) == 1
    assert done.decided == BLUNDER + 1


def test_an_estimate_is_marked_and_leaves_the_decision_unknown() -> None:
    """Values that are estimates make the moves inexact and the moment of decision
    unknown; a move an estimate ranks above the position's own value lost nothing."""
    states = played()
    done = review(states, MOVES, lambda state: Value(0, False))
    assert not any(g.exact for g in done.moves)
    assert done.decided is None
    assert all(g.lost == 0 for g in done.moves)


def test_parlour_review_prints_the_grades(tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    saved.write_text(SavedGame.of(GAME.start(), MOVES).to_text())
    result = CliRunner().invoke(main, ["review", str(saved)])
    assert result.exit_code == 0, result.output
    [line] = [line for line in result.output.splitlines() if "blunder" in line]
    assert line.startswith(f"{BLUNDER + 1:4d}.") and "lost 8" in line
    assert f"decided by move {BLUNDER + 1}" in result.output
    as_json = CliRunner().invoke(main, ["review", str(saved), "--json"])
    fields = json.loads(as_json.output)
    assert fields["decided"] == BLUNDER + 1
    assert [m["grade"] for m in fields["moves"]].count("blunder") == 1


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("not json", "the saved game is not JSON"),
        ('{"format": "parlour-game", "version": 1, "game": "kalah", "options": {"pits": 3,'
         ' "seeds": 3}, "start": "3,3,3/0/3,3,3/0 0", "moves": ["Z"]}', "Z"),
        ('{"format": "parlour-game", "version": 1, "game": "kalah", "options": {"pits": 3,'
         ' "seeds": 3}, "start": "3,3,3/0/3,3,3/0 0", "moves": []}', "no moves"),
    ],
)  # fmt: skip
def test_a_bad_file_is_refused_in_one_line(tmp_path: Path, text: str, words: str) -> None:
    saved = tmp_path / "game.json"
    saved.write_text(text)
    result = CliRunner().invoke(main, ["review", str(saved)])
    assert result.exit_code == 2
    assert words in result.output and "Traceback" not in result.output


def test_a_file_too_big_is_refused(tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    saved.write_bytes(b" " * (2 << 20))
    result = CliRunner().invoke(main, ["review", str(saved)])
    assert result.exit_code == 2 and "more than" in result.output


def test_a_position_not_proven_gets_the_engine_s_value(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the kit proves nothing (Kalah(6,6) in no time), the engine values the
    positions: the moves are marked inexact and the decision unknown."""
    from parlour.games.sowing.kit import SowingKit

    proved: list[State] = []

    def prove(self: SowingKit, state: State, stop: Stop) -> None:
        proved.append(state)

    monkeypatch.setattr(SowingKit, "prove", prove)
    monkeypatch.setattr(parlour.review, "ENGINE_SECONDS", 0.1)
    states = [parlour.game("kalah", seeds=6).start()]
    for move in (2, 3):
        states.append(states[-1].play(move))
    done = review(states, [2, 3], kit_valuer(Stop()))
    assert proved == states
    assert not any(g.exact for g in done.moves)
    assert done.decided is None
