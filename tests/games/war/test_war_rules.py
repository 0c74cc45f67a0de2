"""War's rules (RULES.md section 4), one test a rule, on the compiled rule book and kernel."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.core import BadOption
from parlour.games.war import kernel
from parlour.games.war.game import war_rules
from parlour.games.war.rules import (
    SMALL_DECK,
    TIE,
    card_name,
    compare,
    deal,
    describe,
    long_game_winner,
    parse_card,
    shuffle,
    value,
)
from parlour.outcome import Reason
from parlour.rng import new_rng, rng_below

PLAYED = war_rules(pickup="played")
WINNER_FIRST = war_rules(pickup="winner_first")
GOING = kernel.GOING

# cards by name: rank letter + suit letter
A_C, K_C, Q_C, J_C, N9_C, N6_C = 0, 12, 11, 10, 8, 5
N2_C, N3_C, N4_C, N5_C = 1, 2, 3, 4
N6_D, N4_D, N5_D, J_D, A_D, N7_D = 18, 16, 17, 23, 13, 19


def card(text: str) -> int:
    return parse_card(text)


def test_card_values_aces_high_suits_ignored() -> None:
    assert [value(c) for c in range(13)] == [14, *range(2, 14)]
    assert value(51) == 13 and value(39) == 14
    assert compare(card("AC"), card("KS")) == 0
    assert compare(card("2H"), card("3C")) == 1
    assert compare(card("QD"), card("QS")) == TIE


def test_card_names_and_parsing() -> None:
    assert card_name(51) == "K♠" and card_name(51, ascii_only=True) == "KS"
    assert card_name(9) == "10♣" and card_name(13) == "A♦"
    assert [parse_card(t) for t in ("KS", "k♠", "10h", "51", "ad")] == [51, 51, 35, 51, 13]
    for bad in ("1S", "52", "KX", ""):
        with pytest.raises(BadOption):
            parse_card(bad)


def test_options_and_decks() -> None:
    assert war_rules().deck == tuple(range(52))
    rules = war_rules(deck="small")
    assert rules.deck == SMALL_DECK
    assert sorted(card_name(c, True) for c in SMALL_DECK) == sorted(
        ["AC", "KC", "QC", "JC", "AD", "KD", "QD", "JD"]
    )
    assert war_rules(deck="AC, KD 3 4").deck == (0, 25, 3, 4)
    assert war_rules(max_rounds="none").max_rounds is None
    assert war_rules(max_rounds="7", long_game_winner="more").limit == 7
    for bad in (
        {"deck": "AC,AC"},
        {"deck": "AC,KD,QH"},
        {"deck": "AC"},
        {"pickup": "random"},
        {"max_rounds": "0"},
        {"long_game_winner": "most"},
        {"seed": "-1"},
        {"colour": "red"},
    ):
        with pytest.raises(BadOption):
            war_rules(**bad)


def test_generator_streams_repeat_and_differ() -> None:
    draws = [[rng_below(new_rng(7, i), 1000) for _ in range(1)] for i in range(50)]
    assert len({d[0] for d in draws}) > 40  # game streams differ
    a, b = new_rng(7, 3), new_rng(7, 3)
    assert [rng_below(a, 52) for _ in range(100)] == [rng_below(b, 52) for _ in range(100)]
    rng = new_rng(1, 0)
    counts = np.bincount([rng_below(rng, 4) for _ in range(8000)], minlength=4)
    assert counts.min() > 1800 and counts.max() < 2200


def test_deal_alternates_from_the_shuffled_deck_player_0_first() -> None:
    deck = np.arange(52, dtype=np.int32)
    stack0, stack1 = deal(deck, new_rng(5, 2))
    shuffled = deck.copy()
    shuffle(shuffled, 52, new_rng(5, 2))
    assert list(stack0) == list(shuffled[0::2]) and list(stack1) == list(shuffled[1::2])
    assert sorted([*stack0, *stack1]) == list(range(52))


def test_battle_higher_card_takes_both() -> None:
    answer, stacks, position = kernel.play_position(PLAYED, [K_C, A_C], [N9_C, Q_C])
    assert answer == GOING
    assert stacks == ((A_C, K_C, N9_C), (Q_C,))
    assert position[kernel.BATTLES] == 1 and position[kernel.WARS] == 0


def test_war_two_down_one_up() -> None:
    answer, stacks, position = kernel.play_position(
        PLAYED, [N6_C, N2_C, N3_C, K_C, A_C], [N6_D, N4_D, N5_D, J_D, N7_D]
    )
    assert answer == GOING
    assert stacks == ((A_C, N6_C, N6_D, N2_C, N3_C, K_C, N4_D, N5_D, J_D), (N7_D,))
    assert (position[kernel.BATTLES], position[kernel.WARS]) == (2, 1)


def test_war_within_war() -> None:
    s0 = [N6_C, N2_C, N3_C, J_C, N4_C, N5_C, A_C]
    s1 = [N6_D, N4_D, N5_D, J_D, N7_D, N9_C, K_C]
    answer, stacks, position = kernel.play_position(PLAYED, s0, s1)
    assert answer == GOING
    played = (N6_C, N6_D, N2_C, N3_C, J_C, N4_D, N5_D, J_D, N4_C, N5_C, A_C, N7_D, N9_C, K_C)
    assert stacks == (played, ())
    assert (position[kernel.BATTLES], position[kernel.WARS]) == (3, 2)


def test_fewer_than_three_cards_go_all_in_last_face_up() -> None:
    answer, stacks, _ = kernel.play_position(PLAYED, [N6_C, N2_C, K_C], [N6_D, N4_D, N5_D, J_D])
    assert answer == GOING
    assert stacks == ((N6_C, N6_D, N2_C, K_C, N4_D, N5_D, J_D), ())


def test_out_of_cards_in_a_war_loses() -> None:
    answer, _, _ = kernel.play_position(PLAYED, [N6_C], [N6_D, N4_D])
    assert answer == 1


def test_out_of_cards_at_a_battle_loses() -> None:
    answer, _, _ = kernel.play_position(PLAYED, [A_C, K_C], [])
    assert answer == 0


def test_both_out_at_once_is_a_tie() -> None:
    answer, _, _ = kernel.play_position(PLAYED, [N6_C, N4_C], [N6_D, N4_D])
    assert answer == TIE


def test_pickup_winner_first() -> None:
    answer, stacks, _ = kernel.play_position(
        WINNER_FIRST, [N6_C, N2_C, N3_C, J_C], [N6_D, N4_D, N5_D, K_C]
    )
    assert answer == GOING
    assert stacks == ((), (N6_D, N4_D, N5_D, K_C, N6_C, N2_C, N3_C, J_C))


def test_pickup_shuffled_is_a_seeded_permutation() -> None:
    s0, s1 = [N6_C, N2_C, N3_C, J_C], [N6_D, N4_D, N5_D, K_C]
    orders = set()
    for seed in range(30):
        _, stacks, _ = kernel.play_position(war_rules(seed=seed), s0, s1)
        assert sorted(stacks[1]) == sorted(s0 + s1) and stacks[0] == ()
        again = kernel.play_position(war_rules(seed=seed), s0, s1)[1]
        assert again == stacks
        orders.add(stacks[1])
    assert len(orders) > 20


def test_long_game_winner_fewer_and_more() -> None:
    assert long_game_winner(20, 32, False) == 0 and long_game_winner(20, 32, True) == 1
    assert long_game_winner(33, 19, False) == 1 and long_game_winner(33, 19, True) == 0
    assert long_game_winner(26, 26, False) == TIE == long_game_winner(26, 26, True)


@pytest.mark.parametrize("more", ["fewer", "more"])
def test_round_limit_ends_the_game_and_counts_decide(more: str) -> None:
    seen = set()
    for index in range(40):
        outcome = kernel.play_one(war_rules(seed=3, max_rounds=9, long_game_winner=more), index)
        stacks = outcome.account.stacks
        n0, n1 = map(len, stacks)
        assert outcome.scores == (n0, n1)
        if outcome.reason is Reason.OUT_OF_CARDS:
            continue
        assert outcome.reason is Reason.ROUND_LIMIT and outcome.account.rounds == 9
        assert n0 + n1 == 52
        fewer_holder = None if n0 == n1 else (0 if n0 < n1 else 1)
        expected = fewer_holder if more == "fewer" or fewer_holder is None else 1 - fewer_holder
        assert outcome.winner == expected
        seen.add(outcome.winner)
    assert {0, 1} <= seen


def test_small_deck_games_end_and_keep_every_card() -> None:
    rules = war_rules(deck="small", max_rounds="none")
    endings = set()
    for index in range(200):
        outcome = kernel.play_one(rules, index)
        stacks = outcome.account.stacks
        endings.add(outcome.reason)
        if outcome.reason is Reason.OUT_OF_CARDS and outcome.winner is not None:
            assert len(stacks[1 - outcome.winner]) == 0
            assert len(stacks[outcome.winner]) <= 8
    assert Reason.OUT_OF_CARDS in endings


def _first_repeat(rules_pickup: str, seed: int, index: int, rounds: int) -> int | None:
    """Brute force: the first round count whose stacks were seen before (or None)."""
    rules = war_rules(seed=seed, pickup=rules_pickup)
    position, _, table, steps, rng = kernel.work(52)
    kernel.rng_start(rng, seed, index)
    kernel.load(position, *deal(rules.deck_array, rng))
    seen = {kernel.stacks_of(position): 0}
    for r in range(1, rounds + 1):
        if kernel.next_round(position, table, steps, rules.pickup_code, rng) != GOING:
            return None
        key = kernel.stacks_of(position)
        if key in seen:
            return r
        seen[key] = r
    return None


@pytest.mark.parametrize("pickup", ["played", "winner_first"])
def test_cycles_are_found_at_the_first_repeat(pickup: str) -> None:
    cycles = 0
    for index in range(12):
        outcome = kernel.play_one(war_rules(seed=1, pickup=pickup, max_rounds=400), index)
        repeat = _first_repeat(pickup, 1, index, 400)
        rounds = outcome.account.rounds
        if outcome.reason is Reason.CYCLE:
            cycles += 1
            assert repeat == rounds and outcome.winner is None
            at_limit = kernel.play_one(war_rules(seed=1, pickup=pickup, max_rounds=rounds), index)
            assert at_limit.reason is Reason.ROUND_LIMIT and at_limit.account.rounds == rounds
            # a cycle that starts before the limit is found even if it shows only after it
            for limit in (rounds + 1, rounds + 2):
                found = kernel.play_one(war_rules(seed=1, pickup=pickup, max_rounds=limit), index)
                assert (found.reason, found.account.rounds) == (Reason.CYCLE, rounds)
        else:
            assert repeat is None or repeat >= 400
    assert cycles > 0 or pickup == "winner_first"  # it cycles far less often


def test_played_pickup_finds_a_cycling_deal_without_a_limit() -> None:
    outcome = kernel.play_one(war_rules(seed=1, pickup="played", max_rounds="none"), 0)
    assert (outcome.reason, outcome.winner, outcome.account.rounds) == (Reason.CYCLE, None, 352)
    assert _first_repeat("played", 1, 0, 400) == 352
    assert describe(outcome) == "no winner: the game cycles (stacks repeat after 352 rounds)"


def test_shuffled_pickup_never_reports_a_cycle() -> None:
    summary = kernel.simulate(war_rules(seed=2, max_rounds="none", deck="small"), 2000)
    assert summary.endings["cycle"] == 0 and summary.endings["out_of_cards"] == 2000


def test_same_seed_same_numbers_whatever_the_threads_and_chunks() -> None:
    rules = war_rules(seed=11, max_rounds="none")
    one = kernel.simulate(rules, 3000, jobs=1, chunk=3000)
    two = kernel.simulate(rules, 3000, jobs=2, chunk=700)
    assert one == two
    assert one.wins[0] + one.wins[1] + one.ties == 3000


@settings(max_examples=60, deadline=None)
@given(
    st.permutations(range(12)),
    st.integers(1, 11),
    st.sampled_from(["shuffled", "winner_first", "played"]),
)
def test_a_round_keeps_every_card(cards: list[int], cut: int, pickup: str) -> None:
    s0, s1 = cards[:cut], cards[cut:]
    answer, stacks, position = kernel.play_position(war_rules(pickup=pickup), s0, s1)
    if answer == GOING:
        assert sorted(stacks[0] + stacks[1]) == sorted(cards)
        assert position[kernel.ROUNDS] == 1
        assert position[kernel.BATTLES] == position[kernel.WARS] + 1
    else:
        assert answer == TIE or len(s0 if answer == 1 else s1) > 0


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(0, 5000), min_size=1, max_size=300), st.integers(1, 7))
def test_tally_statistics_are_exact(lengths: list[int], blocks: int) -> None:
    results = np.zeros((len(lengths), len(kernel.RESULT_COLUMNS)), dtype=np.int32)
    results[:, 2] = lengths
    tally = kernel.Tally()
    for block in np.array_split(results, blocks):
        tally.add(block)
    stats = tally.summary(war_rules()).stats["rounds"]
    ordered = sorted(lengths)

    def nearest_rank(percent: int) -> int:
        return ordered[max(1, math.ceil(Fraction(percent, 100) * len(ordered))) - 1]

    assert stats["mean"] == pytest.approx(np.mean(lengths))
    assert (stats["median"], stats["p90"], stats["p99"]) == tuple(
        nearest_rank(p) for p in (50, 90, 99)
    )
    assert stats["max"] == max(lengths)
    bins = tally.summary(war_rules()).lengths
    assert sum(n for _, _, n in bins) == len(lengths)
    for low, high, n in bins:
        assert n == sum(low <= x <= high for x in lengths)
