"""The evaluation's double threats (``patterns.DOUBLE_THREE``, ``FOUR_THREE``,
``DOUBLE_FOUR``): the points where one stone makes two threats, counted as the patterns are
kept, and checked against a plain count of each point's four lines."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_gomoku_search import crowded_positions

from parlour.games.gomoku.engine.board import nearness
from parlour.games.gomoku.engine.patterns import (
    DOUBLE_FOUR,
    DOUBLE_THREE,
    FIVE,
    FOUR,
    FOUR_THREE,
    NO_WEIGHTS,
    OPEN_THREE,
    classify,
    lines_of,
    lines_value,
    pattern_table,
    play,
)
from parlour.games.gomoku.engine.weights import weights
from parlour.games.gomoku.game import DC, DR, GomokuState

DOUBLES = (DOUBLE_THREE, FOUR_THREE, DOUBLE_FOUR)


def plain_doubles(board: np.ndarray, stone: int) -> dict[int, set[tuple[int, int]]]:
    """Each double threat's points for ``stone``, found line by line in plain Python: the
    pattern a stone there makes on each line of nine (``classify``), the double threat
    read from how many are open threes and how many fours or better."""
    n = board.shape[0]
    found: dict[int, set[tuple[int, int]]] = {kind: set() for kind in DOUBLES}
    for row in range(n):
        for col in range(n):
            if board[row, col]:
                continue
            made = []
            for d in range(4):
                line = np.zeros(9, dtype=np.int64)
                for offset in range(-4, 5):
                    r, c = row + offset * DR[d], col + offset * DC[d]
                    inside = 0 <= r < n and 0 <= c < n
                    cell = board[r, c] if inside else -1
                    line[offset + 4] = 0 if cell == 0 else 1 if cell == stone else 2
                made.append(classify(line))
            fours, threes = sum(p >= FOUR for p in made), made.count(OPEN_THREE)
            if fours >= 2:
                found[DOUBLE_FOUR].add((row, col))
            elif fours and threes:
                found[FOUR_THREE].add((row, col))
            elif threes >= 2:
                found[DOUBLE_THREE].add((row, col))
    return found


def board_of(rows: list[str]) -> np.ndarray:
    """A 15x15 board whose top left corner is ``rows`` (x, o, or . for empty)."""
    board = np.zeros((15, 15), dtype=np.int8)
    for r, row in enumerate(rows):
        board[r, : len(row)] = [".xo".index(ch) for ch in row]
    return board


HAND_MADE = [
    # (the corner, the double threat x's stone on the point marked by its row and column
    # would make, the point); every other point of x's makes one threat at most
    (["", "", "", "", "....x", "....x", "", ".....xx"], DOUBLE_THREE, (7, 4)),
    (["", "", "", "", "....x", "....x", "", ".....xxxo"], FOUR_THREE, (7, 4)),
    (["", "", "", "....o", "....x", "....x", "....x", ".....xxxo"], DOUBLE_FOUR, (7, 4)),
]


@pytest.mark.parametrize(("rows", "kind", "point"), HAND_MADE)
def test_a_point_where_a_stone_makes_two_threats_is_counted_as_its_double_threat(
    rows: list[str], kind: int, point: tuple[int, int]
) -> None:
    board = board_of(rows)
    counts = lines_of(board, pattern_table(), weights()).counts
    assert plain_doubles(board, 1) == {k: {point} if k == kind else set() for k in DOUBLES}
    assert [counts[1, k] for k in DOUBLES] == [int(k == kind) for k in DOUBLES]
    assert [counts[2, k] for k in DOUBLES] == [0, 0, 0]


def test_a_double_threat_is_gone_when_its_point_is_taken_or_a_line_blocked() -> None:
    """The four-three of x at H8's corner: taken by o, or its three blocked, no double
    threat is left (counted afresh; kept as stones come and go, by the property below)."""
    rows = HAND_MADE[1][0]
    for row, col in [(7, 4), (3, 4)]:  # the point itself, the three's open end
        board = board_of(rows)
        board[row, col] = 2
        counts = lines_of(board, pattern_table(), weights()).counts
        assert [counts[1, k] for k in DOUBLES] == [0, 0, 0]


@settings(max_examples=60, deadline=None)
@given(crowded_positions())
def test_the_double_threats_counted_are_those_of_a_plain_count(state: GomokuState) -> None:
    """On crowded boards (kept counts equal counted-afresh ones by
    ``test_the_patterns_kept_move_by_move_are_those_counted_afresh``)."""
    board = state.board.copy()
    counts = lines_of(board, pattern_table(), weights()).counts
    for stone in (1, 2):
        plain = plain_doubles(board, stone)
        assert [counts[stone, k] for k in DOUBLES] == [len(plain[k]) for k in DOUBLES]


@settings(max_examples=40, deadline=None)
@given(crowded_positions(), st.lists(st.integers(0, 80), min_size=1, max_size=8))
def test_patterns_that_weigh_no_double_threat_keep_none_and_the_same_patterns(
    state: GomokuState, picks: list[int]
) -> None:
    """The threat searches' patterns (``NO_WEIGHTS``) keep no double threats, which they
    never read, and the same pattern counts as the main search's, stone by stone placed
    and lifted: the threat searches find what they found, a stone faster."""
    boards = state.board.copy(), state.board.copy()
    nears = nearness(boards[0]), nearness(boards[1])
    kept = lines_of(boards[0], pattern_table(), weights())
    bare = lines_of(boards[1], pattern_table(), NO_WEIGHTS)
    free = [p for p in range(81) if not state.board[divmod(p, 9)]]
    placed = list(dict.fromkeys(free[i % len(free)] for i in picks)) if free else []
    for moves, stones in ((placed, [1 + k % 2 for k in range(len(placed))]),
                          (placed[::-1], [0] * len(placed))):  # fmt: skip
        for point, stone in zip(moves, stones, strict=True):
            play(boards[0], nears[0], kept, point, stone)
            play(boards[1], nears[1], bare, point, stone)
            assert np.array_equal(kept.counts[:, : FIVE + 1], bare.counts[:, : FIVE + 1])
            assert not bare.counts[:, FIVE + 1 :].any() and bare.threats.shape[1] == 0
    assert np.array_equal(boards[1], state.board)


def test_a_leaf_values_each_sides_double_threats_by_their_weights() -> None:
    """o to move against x's four-three point: each double threat weighs as the table says,
    x's against o."""
    board = board_of(HAND_MADE[1][0])
    board[0, 0] = 2  # o's stone, so that o is to move
    table = np.zeros_like(weights())
    table[1, FOUR_THREE] = 500
    table[0, DOUBLE_THREE] = 3
    lines = lines_of(board, pattern_table(), table)
    assert lines_value(lines, 2) == -500
    table[1, FOUR_THREE] = 0
    assert lines_value(lines, 2) == 0
