"""Ayo (RULES.md section 2): perft, and a hand-checked position for each rule.

Positions are written in the game's notation: houses 0..11, owners, captured tokens,
player to move, round, starter, and ``-`` for a history holding just this position.
Every board below has 48 tokens with the captured ones; each comment traces the move by
hand, token by token.
"""

from __future__ import annotations

import numpy as np
import pytest

import parlour
from parlour.core import BadPosition, IllegalMove
from parlour.games.ayo.game import AyoGame, AyoReport, AyoState, Capture, RoundEnd
from parlour.games.ayo.kernel import (
    EV_BOARD,
    EV_PASS,
    EV_ROUND_END,
    NO_MOVES,
    OVER,
    OWNER,
    REASON_SHIFT,
    ROUND,
    ROUND_END,
    SIZE,
    STARTER,
    TO_MOVE,
    end_round,
    houses_bought,
    start_round,
)

STANDARD = "000000111111"
ELEVENTH = "the eleventh group of four was taken"


def ayo(**options: int | None) -> AyoGame:
    game = parlour.game("ayo", **options)
    assert isinstance(game, AyoGame)
    return game


def position(
    board: str,
    owners: str = STANDARD,
    captured: str = "20,20",
    mover: int = 0,
    round_: int = 1,
    starter: int = 0,
    **options: int | None,
) -> AyoState:
    return ayo(**options).parse(f"{board} {owners} {captured} {mover} {round_} {starter} -")


def played(state: AyoState, move: int) -> tuple[AyoState, AyoReport]:
    after, report = state.play_report(move)
    assert after == state.play(move)
    return after, report


def test_perft_of_rules_md() -> None:
    start = ayo(first=0).start()
    assert [parlour.perft(start, d) for d in range(5)] == [1, 6, 32, 140, 638]


def walk(state: AyoState, depth: int) -> int:
    """RULES.md's perft through the State API: a round's end is a leaf."""
    if depth == 0 or state.is_over:
        return 1
    total = 0
    for move in state.legal_moves():
        child, report = state.play_report(move)
        total += 1 if report.round_end else walk(child, depth - 1)
    return total


@pytest.mark.parametrize(
    "text",
    [
        "4,4,4,4,4,4,4,4,4,4,4,4 000000111111 0,0 1 1 1 -",
        # a low board late in round 2, where rounds end within a few plies
        "1,0,1,0,2,1,1,1,0,1,0,0 000000011111 24,16 1 2 0 -",
    ],
)
def test_kernel_perft_equals_the_state_walk(text: str) -> None:
    state = ayo().parse(text)
    for depth in range(1, 5):
        assert parlour.perft(state, depth) == walk(state, depth)


def test_start_position() -> None:
    start = ayo(first=1).start()
    assert start.board == (4,) * 12
    assert start.owners == (0,) * 6 + (1,) * 6
    assert (start.to_move, start.starter, start.round, start.scores) == (1, 1, 1, (0, 0))
    assert start.legal_moves() == (6, 7, 8, 9, 10, 11)


def test_the_first_starter_is_drawn_with_the_seed() -> None:
    starters = {seed: ayo(seed=seed).start().starter for seed in range(40)}
    assert set(starters.values()) == {0, 1}
    assert all(ayo(seed=s).start().starter == first for s, first in starters.items())


def test_owner_captures_a_four_made_by_the_sowers_own_token() -> None:
    # house 0's two tokens: house 1 3 -> 4, not the last token: its owner (player 0)
    # takes the four; house 2 0 -> 1, the last token in an empty house ends the move.
    state = position("2,3,0,0,4,0,1,0,1,0,1,0", captured="16,20")
    after, report = played(state, 0)
    assert after.board == (0, 0, 1, 0, 4, 0, 1, 0, 1, 0, 1, 0)
    assert after.scores == (20, 20)
    assert report.captures == (Capture(0, 4, 1, "owner"),)
    assert (report.relays, report.passes, report.round_end, after.to_move) == ((), (), None, 1)


def test_owner_captures_a_four_made_by_the_opponents_sowing() -> None:
    # house 4's three tokens: 5 0 -> 1; 6 3 -> 4, not the last: player 1 owns house 6 and
    # takes the four although player 0 sows; 7 0 -> 1, the last token, ends the move.
    state = position("0,4,1,0,3,0,3,0,0,0,1,0", captured="20,16")
    after, report = played(state, 4)
    assert after.board == (0, 4, 1, 0, 0, 1, 0, 1, 0, 0, 1, 0)
    assert after.scores == (20, 20)
    assert report.captures == (Capture(1, 4, 6, "owner"),)
    assert (report.stoned(0), report.stoned(1)) == (0, 4)


def test_sower_captures_the_final_four_on_the_opponents_side() -> None:
    # house 5's two tokens: 6 0 -> 1; 7 3 -> 4 with the last token: the sower (player 0)
    # takes them, though player 1 owns house 7, and the move ends.
    state = position("4,0,0,0,0,2,0,3,0,0,2,1", captured="16,20")
    after, report = played(state, 5)
    assert after.board == (4, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 1)
    assert after.scores == (20, 20)
    assert report.captures == (Capture(0, 4, 7, "sower"),)
    assert report.relays == ()


def test_relay_sowing_of_several_hands() -> None:
    # house 0's token: 1 1 -> 2, last and neither empty nor four: take 2 from house 1;
    # 2 4 -> 5, 3 1 -> 2: take 2 from house 3; 4 0 -> 1, 5 0 -> 1, empty: the move ends.
    state = position("1,1,4,1,0,0,0,0,0,1,0,0")
    after, report = played(state, 0)
    assert report.relays == ((1, 2), (3, 2))
    assert after.board == (0, 0, 5, 0, 1, 1, 0, 0, 0, 1, 0, 0)
    assert (report.captures, after.scores, after.to_move) == ((), (20, 20), 1)


def test_a_hand_of_twelve_ends_in_its_own_emptied_house() -> None:
    # twelve tokens from house 0: one in each other house and the last back in house 0,
    # which was emptied, so the move ends; no house reaches four.
    state = position("12,0,0,0,0,0,0,0,0,0,0,0", captured="16,20")
    after, report = played(state, 0)
    assert after.board == (1,) * 12
    assert (report.relays, report.captures) == ((), ())


NEVER_ENDING = "0,2,1,0,2,1,0,1,0,2,1,2"
"""Player 1's house 11 (2 tokens) starts relays that shift the board's pattern round for
ever: 11 -> 0 1, 1 3 (relay 3) -> 2 2, 3 1, 4 3 (relay 3) -> 5 2, 6 1, 7 2 (relay 2) ->
8 1, 9 3 (relay 3) -> ..., never an empty house or a four at a hand's end."""


def test_a_never_ending_sowing_is_not_a_move() -> None:
    state = position(NEVER_ENDING, captured="16,20", mover=1)
    assert 11 not in state.legal_moves()
    assert state.legal_moves() == (7, 9, 10)
    with pytest.raises(IllegalMove, match="never end"):
        state.play(11)
    with pytest.raises(IllegalMove, match="never end"):
        state.parse_move("11")


def test_a_player_without_a_legal_move_passes() -> None:
    # house 0's token goes to empty house 1 and the move ends; player 1 owns no token,
    # so passes, and player 0 moves again.
    state = position("1,0,0,7,0,0,0,0,0,0,0,0")
    after, report = played(state, 0)
    assert report.passes == (1,)
    assert after.to_move == 0
    assert after.legal_moves() == (1, 3)


@pytest.mark.parametrize(
    ("captured", "held", "owners", "houses"),
    [
        ("20,20", (28, 20), "000000011111", (7, 5)),  # seven groups: one house of row 1
        ("24,16", (32, 16), "000000001111", (8, 4)),  # eight groups: houses 6 and 7
    ],
)
def test_the_eleventh_group_takes_the_last_four_from_hand_and_board(
    captured: str, held: tuple[int, int], owners: str, houses: tuple[int, int]
) -> None:
    # house 0's three tokens: 1 3 -> 4, not the last: player 0 takes the eleventh group,
    # and with it the last four, two still in hand and two in house 8.  The round ends.
    state = position("3,3,0,0,0,0,0,0,2,0,0,0", captured=captured)
    after, report = played(state, 0)
    assert report.captures == (Capture(0, 4, 1, "owner"), Capture(0, 4, None, "last four"))
    assert report.round_end == RoundEnd(1, ELEVENTH, held, houses)
    assert report.stoned(0) == 8
    assert after.board == (4,) * 12
    assert "".join(map(str, after.owners)) == owners
    assert (after.round, after.starter, after.to_move, after.scores) == (2, 1, 1, (0, 0))
    assert not after.is_over


def test_the_eleventh_group_taken_by_the_owner_on_the_opponents_turn() -> None:
    # house 4's three tokens: 5 0 -> 1; 6 3 -> 4, not the last: player 1 owns house 6 and
    # takes the eleventh group, then the last four (house 5, the hand, house 10's two).
    # Player 1 then holds 28: seven houses, their row and house 0 (sowing order).
    state = position("0,0,0,0,3,0,3,0,0,0,2,0")
    after, report = played(state, 4)
    assert report.captures == (Capture(1, 4, 6, "owner"), Capture(1, 4, None, "last four"))
    assert report.round_end == RoundEnd(1, ELEVENTH, (20, 28), (5, 7))
    assert after.owners == (1, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1)
    assert after.to_move == 1


def test_twelve_groups_win_the_game() -> None:
    state = position("3,3,0,0,0,0,0,0,2,0,0,0", captured="40,0")
    after, report = played(state, 0)
    assert report.round_end == RoundEnd(1, ELEVENTH, (48, 0), None)
    assert after.is_over and after.winner == 0 and after.scores == (48, 0)
    assert after.legal_moves() == ()
    with pytest.raises(IllegalMove, match="over"):
        after.play(0)


REPEATING = "0,1,0,1,0,2,0,1,1,1,0,1"
"""Round 2, player 0 owns every house (player 1 always passes).  House 5: 6 0 -> 1, 7 1 -> 2
(relay 2): 8 -> 2, 9 -> 2 (relay): 10 -> 1, 11 -> 2 (relay): 0 -> 1, 1 -> 2 (relay):
2 -> 1, 3 -> 2 (relay): 4 -> 1, 5 -> 1, the emptied house: the move ends.  Then house 8
the same way, ten houses further on: the board comes back exactly."""


def test_a_repeated_position_ends_the_round() -> None:
    state = position(REPEATING, owners="0" * 12, round_=2)
    middle, report = played(state, 5)
    assert middle.board == (1, 0, 1, 0, 1, 1, 1, 0, 2, 0, 1, 0)
    assert report.relays == ((7, 2), (9, 2), (11, 2), (1, 2), (3, 2))
    assert (report.passes, report.round_end, middle.to_move) == ((1,), None, 0)
    after, report = played(middle, 8)
    # the board's eight tokens go to their houses' owner, player 0: 28 against 20
    assert report.captures == (Capture(0, 8, None, "round end"),)
    assert report.round_end == RoundEnd(2, "a position came back", (28, 20), (7, 5))
    assert (after.round, after.starter, after.to_move) == (3, 1, 1)


def test_neither_player_moving_ends_the_round_with_the_board_to_the_owners() -> None:
    # No position of up to 20 tokens on the board leaves both players without a legal
    # move (an exhaustive search found none), so the kernel's round end is called as
    # apply_move calls it then: the three tokens of player 0's houses and the five of
    # player 1's go to them, 23 against 25: remainders 3 and 1 buy player 0 a sixth house.
    state = position("1,0,2,0,0,0,0,3,0,2,0,0")
    pos, hist = state.position.copy(), np.zeros(2, dtype=np.int64)
    hist[0] = state.history[0]
    events = np.zeros(1 + 4 * 8, dtype=np.int64)
    outcome = end_round(pos, hist, NO_MOVES, 0, events)
    assert outcome == ROUND_END | NO_MOVES << REASON_SHIFT
    assert events[0] == 3
    assert list(events[1:13]) == [EV_BOARD, 0, -1, 3, EV_BOARD, 1, -1, 5, EV_ROUND_END, 2, 23, 25]
    assert list(pos[:12]) == [4] * 12 and list(pos[OWNER : OWNER + 12]) == [0] * 6 + [1] * 6
    assert (pos[ROUND], pos[STARTER], pos[TO_MOVE], pos[OVER]) == (2, 1, 1, 0)


def test_the_last_round_of_max_rounds_ends_the_game_and_may_draw() -> None:
    state = position("3,3,0,0,0,0,0,0,2,0,0,0", captured="16,24", max_rounds=1)
    after, report = played(state, 0)
    assert report.round_end == RoundEnd(1, ELEVENTH, (24, 24), None)
    assert after.is_over and after.winner is None and after.scores == (24, 24)
    assert "game over: a draw" in after.render()


def test_the_history_only_spans_positions_since_the_last_capture() -> None:
    state = position("2,3,0,0,4,0,1,0,1,0,1,0", captured="16,20")
    after = state.play(0)
    assert len(after.history) == 1  # the capture made every earlier position impossible
    assert len(after.play(6).history) == 2


@pytest.mark.parametrize(
    ("held0", "held1", "starter", "houses0"),
    [
        (24, 24, 0, 6),
        (28, 20, 1, 7),
        (27, 21, 0, 7),  # remainders 3 and 1 make four: the larger remainder's house
        (21, 27, 0, 5),
        (26, 22, 0, 6),  # equal remainders: the player who did not start the round
        (26, 22, 1, 7),
        (22, 26, 0, 5),
        (46, 2, 1, 12),
        (2, 46, 1, 1),
        (48, 0, 0, 12),
    ],
)
def test_houses_bought_with_remainders(held0: int, held1: int, starter: int, houses0: int) -> None:
    assert houses_bought(held0, held1, starter) == houses0


def test_a_starter_without_houses_passes_at_the_round_start() -> None:
    # player 0 holds 47 and player 1 one token: remainders 3 and 1 give player 0 the
    # extra house, so all twelve; player 1 starts the round, has nothing, and passes.
    pos = np.zeros(SIZE, dtype=np.int64)
    hist = np.zeros(1, dtype=np.int64)
    events = np.zeros(1 + 4 * 4, dtype=np.int64)
    start_round(pos, hist, houses_bought(47, 1, 0), 1, events)
    assert list(pos[OWNER : OWNER + 12]) == [0] * 12
    assert (pos[STARTER], pos[TO_MOVE]) == (1, 0)
    assert list(events[:5]) == [1, EV_PASS, 1, -1, 0]


def test_the_starter_alternates_and_max_rounds_ends_the_game() -> None:
    state = ayo(first=1, max_rounds=3).start()
    rng = np.random.default_rng(4)
    starters = {}
    while not state.is_over:
        starters[state.round] = state.starter
        state = state.play(int(rng.choice(state.legal_moves())))
    assert starters == {1: 1, 2: 0, 3: 1}
    assert state.round == 3 and sum(state.scores) == 48 and state.board == (0,) * 12
    mine, theirs = state.scores
    assert state.winner == (None if mine == theirs else int(theirs > mine))


def test_round_events_account_for_each_move_of_the_round() -> None:
    state = position("2,3,0,0,4,0,1,0,1,0,1,0", captured="16,20")
    after = state.play(0).play(6)
    assert [r.house for r in after.round_events] == [0, 6]
    assert after.round_events[0].captures == (Capture(0, 4, 1, "owner"),)


def test_notation_round_trips_and_bad_positions_are_refused() -> None:
    state = ayo(first=0).start().play(2).play(8)
    assert state.game.parse(state.notation()) == state
    bad = {
        "4,4 000000111111 0,0 0 1 0 -": "12 number",
        "4,4,4,4,4,4,4,4,4,4,4,5 000000111111 0,0 0 1 0 -": "49 tokens",
        "4,4,4,4,4,4,4,4,4,4,4,4 00000011111x 0,0 0 1 0 -": "owners",
        "4,4,4,4,4,4,4,4,4,4,4,4 000000111111 0,0 2 1 0 -": "to move",
        "4,4,4,4,4,4,4,4,4,4,4,4 000000111111 0,0 0 0 0 -": "round 0",
        "4,4,4,4,4,4,4,4,4,4,4,4 000000111111 0,0 0 1 0 5": "history",
        "4,4,4,4,4,4,4,4,4,4,4,4 000000111111 0,0 0": "7 fields",
        "4,4,4,4,4,4,4,4,4,4,4,4 000011111111 0,0 0 1 0 -": "owners",
        "0,0,0,0,0,0,0,0,0,0,0,1 000000111111 27,20 0 1 0 -": "whole fours",
        "0,0,0,0,0,0,4,4,0,0,0,0 000000111111 20,20 0 1 0 -": "no legal move",
    }
    for text, reason in bad.items():
        with pytest.raises(BadPosition, match=reason):
            ayo().parse(text)


def test_moves_typed_by_a_person() -> None:
    state = ayo(first=0).start()
    assert state.parse_move(" 3 ") == 3
    for text, reason in {"x": "number", "": "number", "7": "belongs", "12": "0..11"}.items():
        with pytest.raises(IllegalMove, match=reason):
            state.parse_move(text)
    assert state.move_name(3) == "3"


def test_render_draws_the_seeds_board_with_owners_and_captures() -> None:
    expected = """\
Round 2 (started by Player 2), Player 2 to move
        11     10      9      8      7      6
      +------+------+------+------+------+------+
  P2  |  4   |  4   |  4   |  4   |  4   |  4 P1|  Player 2 captured  0
      +------+------+------+------+------+------+
  P1  |  4   |  4   |  4   |  4   |  4   |  4   |  Player 1 captured  0
      +------+------+------+------+------+------+
         0      1      2      3      4      5"""
    assert position("4," * 11 + "4", "000000011111", "0,0", 1, 2, 1).render() == expected
