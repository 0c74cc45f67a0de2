"""The mancala family of RULES.md section 1: test vectors, hand-checked rules, properties."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import parlour
from parlour.games.sowing.game import SowingGame, SowingState


def sowing(name: str, **options: int | bool) -> SowingGame:
    """``parlour.game`` for the sowing presets, typed as what it is."""
    game = parlour.game(name, **options)
    assert isinstance(game, SowingGame)
    return game


PERFT = {
    ("mancala", True): [6, 35, 182, 904, 4231, 19276],
    ("kalah", True): [6, 35, 185, 942, 4685, 23169],
    ("kalah", False): [6, 35, 185, 942, 4690, 23233],
}


@pytest.mark.parametrize(("name", "empty_capture"), list(PERFT))
def test_perft_tables_of_rules_md(name: str, empty_capture: bool) -> None:
    start = sowing(name, empty_capture=empty_capture).start()
    assert [parlour.perft(start, d) for d in range(1, 7)] == PERFT[name, empty_capture]
    assert parlour.perft(start, 0) == 1


def test_kernel_perft_equals_the_generic_python_walk() -> None:
    start = sowing("mancala").start()
    for depth in range(5):
        assert parlour.State.perft(start, depth) == parlour.perft(start, depth)


def seed_board(top: str, bottom: str, store1: int, store0: int) -> str:
    """The seed's picture of a position, as the text board draws it."""

    def cells(row: str) -> str:
        return "".join(f"|{'' if c == '_' else c:>3} " for c in row.split())

    return "\n".join(
        [
            "          A    B    C    D    E    F",
            "     -----------------------------",
            f"----{cells(top)}|----",
            f"|{store1:>3} |                             |{store0:>3} |",
            f"----{cells(bottom)}|----",
            "     -----------------------------",
            "          A    B    C    D    E    F",
        ]
    )


def test_render_is_the_seed_board() -> None:
    expected = """\
          A    B    C    D    E    F
     -----------------------------
----|  3 |  3 |  3 |  3 |  3 |  3 |----
|  0 |                             |  0 |
----|  3 |  3 |  3 |  3 |  3 |  3 |----
     -----------------------------
          A    B    C    D    E    F"""
    assert sowing("mancala").start().render() == expected


def test_seed_001_sample_game_board_by_board() -> None:
    """RULES.md's test vector: D (extra turn), A (captures D), C (extra turn), F (captures C)."""
    state = sowing("mancala").start()
    steps = [
        # move, board after sowing, extra turn, captured column, board after the move
        ("D", ("3 3 3 3 3 3", "3 3 3 _ 4 4", 0, 1), True, None, None),
        ("A", ("3 3 3 3 3 3", "_ 4 4 1 4 4", 0, 1), False, 3, ("3 3 3 _ 3 3", "_ 4 4 _ 4 4", 0, 5)),
        ("C", ("4 4 _ _ 3 3", "_ 4 4 _ 4 4", 1, 5), True, None, None),
        ("F", ("4 4 1 1 4 _", "_ 4 4 _ 4 4", 1, 5), False, 2, ("4 4 _ 1 4 _", "_ 4 _ _ 4 4", 6, 5)),
    ]
    movers = [0, 0, 1, 1]
    for (letter, sown, extra, column, after), mover in zip(steps, movers, strict=True):
        assert state.to_move == mover
        state, report = state.play_report(state.parse_move(letter))
        assert report.sown.render() == seed_board(*sown)
        assert report.extra_turn is extra
        assert report.capture_column == column
        assert state.render() == seed_board(*(after or sown))
    assert state.scores == (5, 6)
    assert state.row(1) == (4, 4, 0, 1, 4, 0)
    assert state.row(0) == (0, 4, 0, 0, 4, 4)
    assert state.to_move == 0


def test_capture_reports_the_seeds_moved() -> None:
    state = sowing("mancala").start()
    state = state.play(3)
    _, report = state.play_report(0)
    assert (report.capture_column, report.captured) == (3, 4)


def test_empty_capture_rule_switch() -> None:
    # player 0 sows A (1 seed) into empty B; the pit opposite B is empty.
    text = "1,0,1,1,1,1/1/1,0,1,1,1,1/1 0"
    with_capture = sowing("kalah", seeds=1).parse(text).play(0)
    assert with_capture.row(0)[:2] == (0, 0) and with_capture.scores[0] == 2
    without = sowing("kalah", seeds=1, empty_capture=False).parse(text).play(0)
    assert without.row(0)[:2] == (0, 1) and without.scores[0] == 1
    assert without.to_move == 1


def test_kalah_skips_the_opponents_store_mancala_does_not() -> None:
    # 8 seeds from F: own store, the 6 pits of the top row, then the opponent's store...
    text = "0,0,0,0,0,8/0/1,1,1,1,0,0/0 0"
    kalah = sowing("kalah", seeds=1).parse(text).play(5)
    # ...skipped in kalah: the 8th seed lands in the empty A and captures A and the 2 opposite
    # (1 + 1 + 2 in the store); player 0's row is then empty and player 1 collects 8.
    assert kalah.notation() == "0,0,0,0,0,0/4/0,0,0,0,0,0/8 0"
    text = "1,0,0,0,0,8/0/1,1,1,0,0,0/0 0"
    mancala, report = sowing("mancala", seeds=1).parse(text).play_report(5)
    assert mancala.scores == (1, 1)  # one seed dropped in the opponent's store
    assert report.capture_column is None and mancala.to_move == 1


def test_a_lap_sows_the_emptied_start_pit_and_can_capture_there() -> None:
    # 13 seeds in A in kalah: 12 holes without the opponent's store, the 13th lands in A.
    state = sowing("kalah", seeds=2).parse("13,0,0,0,0,0/0/1,1,1,1,1,1/5 0")
    after, report = state.play_report(0)
    assert report.capture_column == 0
    assert report.captured == 1 + 2  # the seed in A and the 2 opposite (1 + 1 from the lap)
    assert after.scores == (1 + 3, 5)
    assert after.row(0) == (0, 1, 1, 1, 1, 1)


def test_last_seed_in_opponents_store_passes_the_turn() -> None:
    state = sowing("mancala", pits=2, seeds=2).parse("1,4/0/1,1/1 0")
    after, report = state.play_report(1)
    assert after.scores == (1, 2)
    assert after.row(1) == (2, 2)
    assert after.to_move == 1 and not report.extra_turn


def test_the_game_ends_when_a_row_empties_even_after_an_extra_turn() -> None:
    state = sowing("kalah", pits=2, seeds=1).parse("0,1/0/1,1/1 0")
    after, report = state.play_report(1)
    assert report.extra_turn and report.game_over
    assert after.is_over and after.scores == (1, 3)
    assert after.winner == 1
    assert after.legal_moves() == ()


def test_draw_has_no_winner() -> None:
    state = sowing("kalah", pits=1, seeds=1).start()
    after = state.play(0)
    assert after.is_over and after.scores == (1, 1) and after.winner is None


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "expected"),
        ("3,3,3,3,3,3/0/3,3,3,3,3,3/0", "expected"),
        ("3,3,3,3,3/0/3,3,3,3,3,3/0 0", "has 5 pits"),
        ("3,3,3,3,3,3/0/3,3,3,3,3,3/1 0", "seeds"),
        ("3,3,3,3,3,x/0/3,3,3,3,3,3/0 0", "whole number"),
        ("3,3,3,3,3,-3/6/3,3,3,3,3,3/0 0", "negative"),
        ("3,3,3,3,3,3/0/3,3,3,3,3,3/0 2", "0 or 1"),
        ("0,0,0,0,0,0/0/3,3,3,3,3,3/18 0", "collected"),
        ("3,3,3,3,3,3/0,0/3,3,3,3,3,3/0 0", r"must be 1 number\(s\), got 2"),
        ("3,3,3,3,3,3/0/3,3,3,3,3,3 0", "4 parts"),
    ],
)
def test_bad_positions_are_refused_by_name(text: str, problem: str) -> None:
    with pytest.raises(parlour.BadPosition, match=problem):
        sowing("mancala").parse(text)


@pytest.mark.parametrize(
    ("typed", "problem"),
    [("", "type a pit"), ("Z", "not a pit"), ("7", "no such pit"), ("AB", "not a pit")],
)
def test_bad_typed_moves_name_the_problem(typed: str, problem: str) -> None:
    with pytest.raises(parlour.IllegalMove, match=problem):
        sowing("mancala").start().parse_move(typed)


def test_typed_moves_accept_letters_and_pit_numbers_from_1() -> None:
    state = sowing("mancala").start()
    assert state.parse_move("d") == state.parse_move(" D ") == state.parse_move("4") == 3
    assert state.parse_move("1") == 0 and state.parse_move("6") == 5
    for typed in ("0", "7"):
        with pytest.raises(parlour.IllegalMove, match=r"no such pit: the pits are A\.\.F"):
            state.parse_move(typed)
    empty = state.play(3).play(0)  # player 1 to move... A of player 0 is now empty
    assert empty.to_move == 1
    back = sowing("mancala").parse("0,4,4,0,4,4/5/3,3,3,0,3,3/0 0")
    with pytest.raises(parlour.IllegalMove, match="pit A is empty"):
        back.parse_move("A")
    with pytest.raises(parlour.IllegalMove, match="empty"):
        back.play(0)


def test_unknown_games_and_options_list_what_exists() -> None:
    with pytest.raises(parlour.BadOption, match=r"the games are: .*kalah.*mancala"):
        parlour.game("chess")
    with pytest.raises(parlour.BadOption, match="the options are: pits, seeds"):
        parlour.game("kalah", stones=3)
    with pytest.raises(parlour.BadOption, match="at least 1"):
        parlour.game("kalah", pits=0)
    with pytest.raises(parlour.BadOption, match="true or false"):
        parlour.game("kalah", empty_capture="maybe")
    assert parlour.game("kalah", empty_capture="no").options["empty_capture"] is False


def test_presets_differ_only_in_their_knobs() -> None:
    mancala, kalah = parlour.game("mancala"), parlour.game("kalah")
    assert mancala.options["seeds"] == 3 and mancala.options["sow_opponent_store"] is True
    assert kalah.options["seeds"] == 4 and kalah.options["sow_opponent_store"] is False
    assert parlour.game("kalah", seeds=4) == kalah
    assert mancala != kalah and hash(parlour.game("kalah")) == hash(kalah)


games: st.SearchStrategy[tuple[str, dict[str, int | bool]]] = st.sampled_from(
    [
        ("mancala", {}),
        ("kalah", {}),
        ("kalah", {"empty_capture": False}),
        ("kalah", {"pits": 4, "seeds": 3}),
        ("mancala", {"pits": 3, "seeds": 8}),
    ]
)


@st.composite
def positions(draw: st.DrawFn) -> SowingState:
    """A position reached by random legal play from the start of a random rule set."""
    name, options = draw(games)
    state = sowing(name, **options).start()
    for _ in range(draw(st.integers(0, 60))):
        if state.is_over:
            break
        state = state.play(draw(st.sampled_from(state.legal_moves())))
    return state


def total_seeds(state: SowingState) -> int:
    return sum(state.row(0)) + sum(state.row(1)) + sum(state.scores)


@settings(max_examples=150, deadline=None)
@given(positions(), st.data())
def test_properties_over_random_play(state: SowingState, data: st.DataObject) -> None:
    game = state.game
    assert total_seeds(state) == 2 * game.pits * game.options["seeds"]
    assert game.parse(state.notation()) == state
    assert hash(game.parse(state.notation())) == hash(state)
    for line in state.render().splitlines():
        assert "  0 |" not in line.replace(f"|{state.scores[0]:>3} |", "").replace(
            f"|{state.scores[1]:>3} |", ""
        )
    before = (state.notation(), state.board.tobytes())
    for move in state.legal_moves():
        child = state.play(move)
        assert total_seeds(child) == total_seeds(state)
    assert (state.notation(), state.board.tobytes()) == before
    bad = data.draw(st.integers(-3, game.pits + 3).filter(lambda m: m not in state.legal_moves()))
    with pytest.raises(parlour.IllegalMove):
        state.play(bad)
    assert (state.notation(), state.board.tobytes()) == before
    with pytest.raises(ValueError, match="read-only"):
        state.board[0] = 99


def test_states_are_values() -> None:
    start = sowing("kalah").start()
    assert start.play(2) == start.play(2)
    assert len({start.play(2), start.play(2), start.play(3)}) == 2
    assert start != sowing("kalah", empty_capture=False).start()
    assert str(start) == start.notation() == "4,4,4,4,4,4/0/4,4,4,4,4,4/0 0"


def test_who_moves_first_is_an_option_of_the_game() -> None:
    first = parlour.game("kalah", first=1)
    start = first.start()
    assert start.to_move == 1 and start.notation() == "4,4,4,4,4,4/0/4,4,4,4,4,4/0 1"
    assert first.parse(start.notation()) == start and first != parlour.game("kalah")
    assert parlour.game("mancala").start().to_move == 0
    with pytest.raises(parlour.BadOption, match="first must be at most 1"):
        parlour.game("kalah", first=2)
