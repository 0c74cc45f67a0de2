"""Five in a row, RULES.md section 3: the seed's boards, its functions on hand-worked
boards, parsing, coordinates, and properties of random games."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import parlour
from parlour.core import BadPosition, IllegalMove
from parlour.games.gomoku.game import GomokuGame, GomokuState, complement

SEED_X_WINS = """\
X...0
0X.0.
..X0.
...X.
.0..X"""

SEED_0_WINS = """\
.X...X.
...0...
...0...
.X.0..X
0..0..0
...0...
...X..."""


def gomoku(**options: int | bool) -> GomokuGame:
    game = parlour.game("gomoku", **options)
    assert isinstance(game, GomokuGame)
    return game


def board(*rows: str, to_move: int | None = None, **options: int | bool) -> GomokuState:
    return gomoku(**options).parse("\n".join(rows), to_move=to_move)


def empty_with(size: int, stones: dict[tuple[int, int], str]) -> GomokuState:
    """A size x size board with the given stones, written as a position string."""
    grid = [["."] * size for _ in range(size)]
    for (r, c), symbol in stones.items():
        grid[r][c] = symbol
    return gomoku().parse("\n".join("".join(row) for row in grid))


# The seed's boards.


def test_seed_board_5x5_x_has_won_on_the_main_diagonal() -> None:
    state = gomoku().parse(SEED_X_WINS)
    assert state.winner == 0 and state.is_over and state.size == 5
    assert state.five() == ((0, 0), (1, 1), (2, 2), (3, 3), (4, 4))
    assert state.legal_moves() == ()
    assert str(state) == SEED_X_WINS == state.notation()


def test_seed_board_7x7_0_has_won_on_column_3() -> None:
    state = gomoku().parse(SEED_0_WINS)
    assert state.winner == 1 and state.is_over and state.size == 7
    assert state.five() == tuple((r, 3) for r in range(1, 6))
    assert str(state) == SEED_0_WINS
    assert state.scores == (0, 1)


def test_seed_boards_are_not_strict_legal() -> None:
    with pytest.raises(BadPosition, match="X has five but did not make the last move"):
        gomoku(strict=True).parse(SEED_X_WINS)
    with pytest.raises(BadPosition, match="X has 5 stones and 0 has 7"):
        gomoku(strict=True).parse(SEED_0_WINS)


# The seed's functions on hand-worked boards.

DIAGONALS = ("X0...", ".X0..", "..X0.", "...X0", "....X")


def test_is_free_and_complement() -> None:
    state = board(*DIAGONALS)
    assert state.is_free(0, 2) and not state.is_free(0, 0) and not state.is_free(0, 1)
    assert not state.is_free(5, 0) and not state.is_free(-1, 0)
    assert complement(0) == 1 and complement(1) == 0 and state.complement(1) == 0
    with pytest.raises(ValueError, match="0 or 1"):
        complement(2)


def test_rows_and_columns() -> None:
    state = board(*DIAGONALS)
    assert state.rows() == DIAGONALS
    assert state.columns() == ("X....", "0X...", ".0X..", "..0X.", "...0X")


def test_the_two_diagonals_and_those_above_and_below() -> None:
    state = board(*DIAGONALS)
    assert state.first_diagonal() == "XXXXX"
    assert state.above_first_diagonal() == ("0000", "...", "..", ".")
    assert state.below_first_diagonal() == ("....", "...", "..", ".")
    assert state.second_diagonal() == "..X.."
    assert state.above_second_diagonal() == (".0..", ".X.", "0.", "X")
    assert state.below_second_diagonal() == (".0..", ".X.", "0.", "X")


def test_winner_play_and_next_states() -> None:
    state = board("XXXX.", "0000.", ".....", ".....", ".....")
    assert state.to_move == 0 and state.winner is None
    won = state.play((0, 4))
    assert won.winner == 0 and won.is_over and won.last_move == (0, 4)
    assert won.rows()[0] == "XXXXX" and state.rows()[0] == "XXXX."
    nexts = state.next_states()
    assert len(nexts) == 17
    assert {s.winner for s in nexts} == {0, None}
    assert all(s.to_move == 1 for s in nexts)
    assert sum(s.winner == 0 for s in nexts) == 1


def test_sequences_xx_dot_xx_counts_one_window_of_four() -> None:
    state = board("XX.XX", ".....", ".....", ".....", ".....")
    assert state.sequences(0) == {5: 0, 4: 1, 3: 0, 2: 0}
    assert state.sequences(1) == {5: 0, 4: 0, 3: 0, 2: 0}


def test_sequences_xx0xx_counts_nothing() -> None:
    state = board("XX0XX", ".....", ".....", ".....", ".....")
    assert state.sequences(0) == {5: 0, 4: 0, 3: 0, 2: 0}
    assert state.sequences(1) == {5: 0, 4: 0, 3: 0, 2: 0}


def test_sequences_on_the_first_diagonal_direction_7x7() -> None:
    stones = {(1, 1): "X", (2, 2): "X", (3, 3): "X"}
    # windows (0,0)-(4,4) and (1,1)-(5,5) hold three, (2,2)-(6,6) two
    assert empty_with(7, stones).sequences(0) == {5: 0, 4: 0, 3: 2, 2: 1}
    blocked = empty_with(7, {**stones, (5, 5): "0"})
    assert blocked.sequences(0) == {5: 0, 4: 0, 3: 1, 2: 0}
    assert blocked.sequences(1) == {5: 0, 4: 0, 3: 0, 2: 0}


def test_sequences_on_the_second_diagonal_direction_7x7() -> None:
    stones = {(1, 5): "X", (2, 4): "X", (3, 3): "X", (4, 2): "X"}
    assert empty_with(7, stones).sequences(0) == {5: 0, 4: 2, 3: 1, 2: 0}
    assert empty_with(7, {**stones, (0, 6): "0"}).sequences(0) == {5: 0, 4: 1, 3: 1, 2: 0}
    five = empty_with(7, {**stones, (0, 6): "0", (5, 1): "X"})
    assert five.sequences(0) == {5: 1, 4: 1, 3: 0, 2: 0}
    assert five.winner == 0


def test_a_run_of_six_holds_two_fives_and_wins_only_freestyle() -> None:
    rows = ("XXXXXX.", *["......."] * 6)
    assert board(*rows).sequences(0) == {5: 2, 4: 1, 3: 0, 2: 0}
    assert board(*rows).winner == 0
    assert board(*rows, exact_five=True).winner is None
    assert board(*rows, exact_five=True).sequences(0) == {5: 2, 4: 1, 3: 0, 2: 0}


def test_exact_five_overline_by_play_does_not_win() -> None:
    state = board("XXX.XX.", "0000...", *["......."] * 5, to_move=0, exact_five=True)
    assert state.play((0, 3)).winner is None
    assert board("XXX.X..", "0000...", *["......."] * 5, exact_five=True).play((0, 3)).winner == 0


# Parsing, coordinates, errors.


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("X...0\n0X.O.\n.....\n.....\n.....", "line 2, character 4: 'O'.*digit 0"),
        ("X...0\n0X...\n..a..\n.....\n.....", "line 3, character 3: 'a'"),
        ("X...0\n0X..\n.....\n.....\n.....", "line 2 has 4 points; line 1 has 5"),
        ("X...0\n0X...\n.....\n.....", "4 lines of 5 points; it must be square"),
        ("X...0", "the board has 1 line of 5 points; it must be square"),
        ("X\n.", "the board has 2 lines of 1 point; it must be square"),
        ("X...0\n.", "line 2 has 1 point; line 1 has 5"),
        ("X..\n...\n...", "3x3; it must be 5x5"),
        ("XXXXX\n00000\n.....\n.....\n.....", "both X and 0 have five"),
        ("", "empty"),
    ],
)
def test_bad_positions_are_refused_with_the_place(text: str, message: str) -> None:
    with pytest.raises(BadPosition, match=message):
        gomoku().parse(text)


def test_side_to_move_follows_counts_or_is_given() -> None:
    assert board("X....", *["....."] * 4).to_move == 1
    assert board("X0...", *["....."] * 4).to_move == 0
    assert board("X0...", *["....."] * 4, to_move=1).to_move == 1
    with pytest.raises(BadPosition, match=r"0 \(X\) or 1"):
        board("X0...", *["....."] * 4, to_move=2)


def test_strict_refuses_unreachable_counts_and_play_after_five() -> None:
    strict = {"strict": True}
    with pytest.raises(BadPosition, match="X has 2 stones and 0 has 0"):
        board("XX...", *["....."] * 4, **strict)
    with pytest.raises(BadPosition, match="it is 0's move"):
        board("X....", *["....."] * 4, to_move=0, **strict)
    with pytest.raises(BadPosition, match="0 has five but did not make the last move"):
        board("00000", "XXXX.", "X....", "X....", ".....", **strict)
    with pytest.raises(BadPosition, match="went on after X's five"):
        board("XXXXX", "0000.", "XXXXX", "0000.", "0....", **strict)
    won = board("XXXXX", "0000.", "0X...", ".....", ".....", **strict)
    assert won.winner == 0 and won.to_move == 1


def test_a_final_newline_is_tolerated_and_the_game_takes_the_size() -> None:
    state = gomoku().parse(SEED_X_WINS + "\n")
    assert str(state) == SEED_X_WINS
    assert state.game == gomoku(size=5)


def test_coordinates_name_columns_by_letter_and_rows_from_the_bottom() -> None:
    start = gomoku().start()
    assert start.move_name((7, 7)) == "H8"
    assert start.move_name((14, 0)) == "A1"
    assert start.move_name((0, 14)) == "O15"
    assert start.parse_move(" h8 ") == (7, 7)
    assert start.parse_move("A15") == (0, 0)
    big = gomoku(size=26).start()
    assert big.move_name((0, 25)) == "Z26"
    assert big.parse_move("i1") == (25, 8)


@pytest.mark.parametrize(
    ("text", "message"),
    [("", "type a column letter A..O"), ("8H", "not a point"), ("P1", "no such point"),
     ("A16", "no such point"), ("A0", "no such point"), ("H8", "H8 is taken")],
)  # fmt: skip
def test_bad_typed_moves_say_why(text: str, message: str) -> None:
    state = gomoku().start().play((7, 7))
    with pytest.raises(IllegalMove, match=message):
        state.parse_move(text)


@pytest.mark.parametrize(("size", "example"), [(15, "like H8"), (5, "like C3"), (8, "like E4")])
def test_the_example_point_is_the_centre_of_the_board_in_play(size: int, example: str) -> None:
    with pytest.raises(IllegalMove, match=example):
        gomoku(size=size).start().parse_move("Z99")


def test_illegal_moves_are_refused_and_change_nothing() -> None:
    state = gomoku(size=5).start().play((2, 2))
    for move, reason in [((2, 2), "C3 is taken"), ((5, 0), "0 to 4"), ("C3", "pair")]:
        with pytest.raises(IllegalMove, match=reason):
            state.play(move)
    assert str(state) == ".....\n.....\n..X..\n.....\n....."
    won = gomoku().parse(SEED_X_WINS)
    with pytest.raises(IllegalMove, match="game is over"):
        won.play((0, 1))


def test_render_draws_coordinates_last_move_and_five() -> None:
    state = board("XXXX.", "0000.", ".....", ".....", ".....").play((0, 4))
    assert state.render().splitlines()[:3] == [
        "     A  B  C  D  E",
        "  5 (X)(X)(X)(X)(X) 5",
        "  4  0  0  0  0  .  4",
    ]
    assert "[X]" in gomoku(size=5).start().play((4, 0)).render()


# Properties of random games.


@st.composite
def games(draw: st.DrawFn) -> list[GomokuState]:
    """A random game as the list of its states, on a 5x5 to 8x8 board."""
    game = gomoku(size=draw(st.integers(5, 8)), exact_five=draw(st.booleans()))
    states = [game.start()]
    for pick in draw(st.lists(st.integers(0, 10**6), max_size=40)):
        moves = states[-1].legal_moves()
        if not moves:
            break
        states.append(states[-1].play(moves[pick % len(moves)]))
    return states


def all_lines(state: GomokuState) -> tuple[str, ...]:
    return (
        state.rows()
        + state.columns()
        + (state.first_diagonal(), state.second_diagonal())
        + state.above_first_diagonal()
        + state.below_first_diagonal()
        + state.above_second_diagonal()
        + state.below_second_diagonal()
    )


@settings(max_examples=150, deadline=None)
@given(st.integers(5, 8), st.data())
def test_sequences_counts_fives_exactly_when_there_is_a_five(
    size: int, data: st.DataObject
) -> None:
    cells = data.draw(
        st.lists(st.sampled_from("XX0..."), min_size=size * size, max_size=size * size)
    )
    text = "\n".join("".join(cells[r * size : (r + 1) * size]) for r in range(size))
    state = _grid_state(text)
    lines = all_lines(state)
    for player, symbol in ((0, "X"), (1, "0")):
        has_five = any(symbol * 5 in line for line in lines)
        assert (state.sequences(player)[5] > 0) == has_five


def _grid_state(text: str) -> GomokuState:
    """A state of any grid, even one where both have five (parse would refuse it)."""
    from parlour.games.gomoku.game import _grid

    game = gomoku()
    return GomokuState(game.resized(len(text.split("\n"))), _grid(text), 0)


@settings(max_examples=100, deadline=None)
@given(games())
def test_round_trip_alternation_and_win_test_through_the_move(states: list[GomokuState]) -> None:
    for before, after in itertools.pairwise(states):
        assert after.to_move == 1 - before.to_move
        added = (after.board != before.board).sum()
        assert added == 1 and after.board[after.last_move] == before.to_move + 1
    for state in states:
        xs, os = (state.board == 1).sum(), (state.board == 2).sum()
        assert xs - os == state.to_move
        again = state.game.parse(str(state))
        assert again == state and hash(again) == hash(state)
        assert again.winner == state.winner  # the whole-board test agrees with the move's
    assert all(not s.is_over for s in states[:-1])


@settings(max_examples=60, deadline=None)
@given(games())
def test_a_played_state_never_changes(states: list[GomokuState]) -> None:
    state = states[-1]
    text, board_before = str(state), state.board.copy()
    for move in state.legal_moves()[:10]:
        state.play(move)
    assert str(state) == text and (state.board == board_before).all()
    assert not state.board.flags.writeable
