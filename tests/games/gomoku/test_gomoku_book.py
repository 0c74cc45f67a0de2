"""The opening book: one entry for the 8 images of a position, its move mapped back onto
each, nothing for other rules or another size, a bad file refused with a message, the
builder's entries found, and a level playing the book's move without searching."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import parlour
from helpers import BOUND
from parlour.files import BadFile
from parlour.games.gomoku.book import (
    MAX_BYTES,
    SYMMETRIES,
    Book,
    as_json,
    canonical,
    from_json,
    image,
    load_book,
    shipped,
)
from parlour.games.gomoku.engine import GomokuThinker
from parlour.games.gomoku.game import GomokuGame, GomokuState, Point
from parlour.search import Stop
from test_benchmarks import BENCHMARKS, load, quick

N = 15


def _game(size: int = N, exact: bool = False) -> GomokuGame:
    game = parlour.game("gomoku", size=size, exact_five=exact)
    assert isinstance(game, GomokuGame)
    return game


def _position(points: list[Point], game: GomokuGame | None = None) -> GomokuState:
    state = (game or _game()).start()
    for point in points:
        state = state.play(point)
    return state


def _image(state: GomokuState, k: int) -> GomokuState:
    """``state`` under symmetry ``k``."""
    board = np.zeros_like(state.board)
    for row, col in zip(*state.board.nonzero(), strict=True):
        board[image((int(row), int(col)), k, N)] = state.board[row, col]
    return GomokuState(state.game, board, state.to_move)


near_centre = st.tuples(st.integers(3, 11), st.integers(3, 11))


@settings(max_examples=80, deadline=None)
@given(st.lists(near_centre, max_size=8, unique=True), near_centre, st.integers(0, 7))
def test_one_entry_serves_all_8_images_and_its_move_is_mapped_onto_each(
    points: list[Point], move: Point, k: int
) -> None:
    state = _position(points)
    if move in points:
        move = next(p for p in state.legal_moves())
    book = Book(N, False, {}).with_entry(state, move, 7, 5, 3.0)
    assert len(book.entries) == 1
    key = canonical(state)[0]
    images = [_image(state, j) for j in range(SYMMETRIES)]
    assert all(canonical(other)[0] == key for other in images)
    other = images[k]
    entry = book.lookup(other)
    assert entry is not None and (entry.value, entry.depth, entry.seconds) == (7, 5, 3.0)
    assert entry.move in other.legal_moves()
    if len({other.board.tobytes() for other in images}) == SYMMETRIES:
        assert entry.move == image(move, k, N)  # no symmetry of its own: the one image
    else:  # the position's own symmetries may take it to another, equivalent point
        assert canonical(other.play(entry.move))[0] == canonical(state.play(move))[0]
    assert from_json(json.loads(json.dumps(as_json(book))), "test") == book


def test_a_book_finds_nothing_for_other_rules_or_another_size() -> None:
    line = [(7, 7), (7, 8), (8, 8)]
    book = Book(N, False, {}).with_entry(_position(line), (6, 6), 0, 4, 3.0)
    assert book.lookup(_position(line)) is not None
    assert book.lookup(_position(line, _game(exact=True))) is None
    assert book.lookup(_position(line, _game(size=19))) is None


def _refused(tmp_path: Path, text: str | bytes) -> str:
    path = tmp_path / "book.json"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    with pytest.raises(BadFile) as refused:
        load_book(path)
    message = str(refused.value)
    assert "\n" not in message
    return message


def test_a_malformed_or_oversized_book_is_refused_with_a_message(tmp_path: Path) -> None:
    good = {"move": "G9", "value": 0, "depth": 4, "seconds": 3.0}
    rules = {"size": 15, "exact_five": False}

    def book(entries: object, rules: object = rules) -> str:
        return json.dumps({"rules": rules, "entries": entries})

    assert "larger than" in _refused(tmp_path, b" " * (MAX_BYTES + 1))
    assert "not JSON" in _refused(tmp_path, "{")
    assert "rules and entries" in _refused(tmp_path, "[]")
    assert "rules:" in _refused(tmp_path, book({}, {"size": 3, "exact_five": False}))
    assert "not a canonical key" in _refused(tmp_path, book({"A1/": good}))  # A15 is less
    assert "not a position" in _refused(tmp_path, book({"Z99/": good}))
    assert "not an empty point" in _refused(tmp_path, book({"/A15": {**good, "move": "A15"}}))
    assert "seconds" in _refused(tmp_path, book({"/A15": {**good, "seconds": -1}}))
    assert "exactly move" in _refused(tmp_path, book({"/A15": {"move": "G9"}}))
    path = tmp_path / "fine.json"
    path.write_text(book({"/A15": good}))
    assert load_book(path).entries["/A15"].move == (6, 6)


def test_the_shipped_book_holds_every_position_the_builder_lists(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The first move, the replies to the first moves of the central 5x5, and 0's reply
    to every X-0-X opening there (those of the benchmarks' matches), each a legal move."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))  # the builder imports its ``record``
    book = shipped()
    assert (book.size, book.exact) == (N, False)
    listed = list(load("gomoku_book").positions())
    assert len(listed) == len(book.entries) == 913
    for state in listed:
        entry = book.lookup(state)
        assert entry is not None and entry.move in state.legal_moves()


def test_a_level_plays_the_books_move_without_searching() -> None:
    """An entry of a longer search than the move's is played as it is, at no node; a
    shorter one is not (the level searches)."""
    state = _position([(7, 7), (6, 8), (9, 10)])  # of no symmetry of its own
    longer = Book(N, False, {}).with_entry(state, (0, 0), 12, 9, 100.0)
    flipped = _image(state, 5)
    move, result = GomokuThinker(3, book=longer).best_move(flipped, Stop())
    assert move == image((0, 0), 5, N) and result.reason == "book" and result.nodes == 0
    assert (result.value, result.depth) == (12, 9)
    shorter = Book(N, False, {}).with_entry(state, (0, 0), 12, 9, 0.01)
    move, result = GomokuThinker(2, seconds=0.05, book=shorter).best_move(flipped, Stop())
    assert result.reason != "book" and move != image((0, 0), 5, N)


@pytest.mark.slow
def test_the_builders_quick_run_writes_entries_the_lookup_finds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(BENCHMARKS))  # the builder imports its ``record``
    out = tmp_path / "book.json"
    _, figures = quick("gomoku_book", "--out", str(out))
    assert figures["entries"] == figures["searched"] == 3
    book = load_book(out)
    for state in list(load("gomoku_book").positions())[:3]:
        entry = book.lookup(state)
        assert entry is not None and entry.seconds == 0.05
        assert entry.move in state.legal_moves()


@pytest.mark.parametrize(
    ("flags", "problem"),
    [
        (["--seconds", "0"], "--seconds: the value must be 0.01 to"),  # was: the level's own 20 s
        (
            ["--seconds", "-1"],
            "--seconds: the value must be a number",
        ),  # was: a book it cannot read
        (["--positions", "0"], "--positions: the value must be at least 1"),
    ],
)
def test_the_builder_refuses_a_time_or_count_its_book_cannot_hold(
    tmp_path: Path, flags: list[str], problem: str
) -> None:
    out = tmp_path / "book.json"
    builder = str(BENCHMARKS / "gomoku_book.py")
    ran = subprocess.run(
        [sys.executable, builder, *flags, "--out", str(out)],
        capture_output=True, text=True, timeout=BOUND, check=False,
    )  # fmt: skip
    assert ran.returncode == 2 and problem in ran.stderr
    assert not out.exists()
