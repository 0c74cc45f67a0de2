"""The arena's statistics against values worked out here, independently of the module."""

from __future__ import annotations

import math
import statistics

import numpy as np
import pytest

from parlour.arena import stats
from parlour.core import BadOption


def logistic_elo(score: float) -> float:
    return 400 * math.log10(score / (1 - score))


def test_60_40_0_is_70_elo_with_the_interval_of_its_games() -> None:
    results = [1.0] * 60 + [0.0] * 40
    mean = statistics.fmean(results)
    error = statistics.pstdev(results) / math.sqrt(len(results))
    z = statistics.NormalDist().inv_cdf(0.975)
    estimate = stats.elo_of_games(60, 40, 0)
    assert estimate.elo == pytest.approx(70.437, abs=1e-3)
    assert estimate.low == pytest.approx(logistic_elo(mean - z * error))
    assert estimate.high == pytest.approx(logistic_elo(mean + z * error))
    assert 2.0 < estimate.low < 3.5 and 143 < estimate.high < 144


def test_draws_count_half_a_point_and_narrow_the_interval() -> None:
    drawn = stats.elo_of_games(50, 30, 20)
    assert drawn.elo == pytest.approx(logistic_elo(0.6))
    assert drawn.margin < stats.elo_of_games(60, 40, 0).margin


def test_los_is_the_normal_chance_of_more_wins_than_losses() -> None:
    expected = statistics.NormalDist().cdf((60 - 40) / math.sqrt(60 + 40))
    assert stats.los(60, 40) == pytest.approx(expected)
    assert stats.los(5, 5) == 0.5


def test_llr_on_two_kinds_of_pairs_is_the_ratio_of_the_only_fitting_distributions() -> None:
    # With pairs worth 1/4 and 3/4 a game only, the distribution of mean s on them is
    # ((3/4 - s) / (1/2), (s - 1/4) / (1/2)): the likelihood ratio follows by hand (the
    # 1/1000 of a pair the kinds not seen count for changes it by less than 1e-6).
    counts = [0, 3000, 0, 5000, 0]
    s0, s1 = 0.5, 1 / (1 + 10 ** (-10 / 400))

    def likelihood(s: float) -> float:
        return 3000 * math.log((0.75 - s) / 0.5) + 5000 * math.log((s - 0.25) / 0.5)

    sprt = stats.Sprt(0, 10)
    assert sprt.llr(counts) == pytest.approx(likelihood(s1) - likelihood(s0), rel=1e-5)
    assert sprt.llr([0, 0, 0, 3, 0]) > 0 and sprt.llr([0, 3, 0, 0, 0]) < 0


def test_the_fitted_pentanomial_has_the_hypothesis_mean() -> None:
    freqs = np.array([3, 10, 40, 30, 17]) / 100
    points = np.array(stats.PAIR_POINTS)
    for mean in (0.45, 0.5, 0.55, 0.6):
        fitted = stats._closest(freqs, points, mean)
        assert fitted.sum() == pytest.approx(1)
        assert fitted @ points == pytest.approx(mean)
        assert (fitted > 0).all()


def test_sprt_bounds_and_verdicts() -> None:
    sprt = stats.Sprt(0, 5, 0.05, 0.05)
    low, high = sprt.bounds
    assert low == pytest.approx(math.log(0.05 / 0.95)) and high == pytest.approx(-low)
    strong = [0, 10, 100, 300, 100]
    assert sprt.llr(strong) > high and sprt.verdict(sprt.llr(strong)) == "H1"
    assert sprt.verdict(sprt.llr([100, 300, 100, 10, 0])) == "H0"
    assert sprt.verdict(0.0) is None


@pytest.mark.parametrize(
    ("text", "problem"),
    [("5", "ELO0,ELO1"), ("0,x", "numbers"), ("5,0", "ELO0 < ELO1"), ("0,5,0.7,0.1", "0.5")],
)
def test_bad_sprt_settings_are_named(text: str, problem: str) -> None:
    with pytest.raises(BadOption, match=problem):
        stats.parse_sprt(text)


def test_bradley_terry_of_two_players_is_the_score_with_one_virtual_draw() -> None:
    points = np.array([[0.0, 7.0], [3.0, 0.0]])
    games = np.array([[0.0, 10.0], [10.0, 0.0]])
    ratings = stats.bradley_terry(points, games, anchor=1, anchor_elo=1000)
    share = 7.5 / 11
    assert ratings[1] == stats.Rating(1000, 0)
    assert ratings[0].elo == pytest.approx(1000 + logistic_elo(share), abs=1e-6)
    information = 11 * share * (1 - share)
    margin = 1.959964 * 400 / math.log(10) / math.sqrt(information)
    assert ratings[0].margin == pytest.approx(margin, rel=1e-5)


def test_bradley_terry_orders_a_round_robin_and_keeps_a_perfect_player_finite() -> None:
    points = np.array([[0, 10, 10], [0, 0, 6], [0, 4, 0]], dtype=float)
    games = np.array([[0, 10, 10], [10, 0, 10], [10, 10, 0]], dtype=float)
    top, middle, bottom = stats.bradley_terry(points, games, anchor=2, anchor_elo=0)
    assert top.elo > middle.elo > bottom.elo == 0
    assert math.isfinite(top.elo) and top.margin > middle.margin > 0


@pytest.mark.parametrize(
    ("wins", "losses", "draws", "shown"),
    [
        (2, 0, 0, "+inf (every game won)"),
        (0, 3, 0, "-inf (every game lost)"),
        (60, 40, 0, "+70.4 ± 70.6"),
        (3, 1, 0, "+190.8 (-126.4 to +inf)"),
    ],
)
def test_an_estimate_is_shown_without_nan(wins: int, losses: int, draws: int, shown: str) -> None:
    assert str(stats.elo_of_games(wins, losses, draws)) == shown


def test_pairs_give_the_pentanomial_interval_of_their_scores() -> None:
    counts = [1, 3, 9, 6, 4]  # pairs worth 0, 1/2, 1, 3/2, 2 points: k/4 a game
    scores = [k / 4 for k, count in enumerate(counts) for _ in range(count)]
    mean = statistics.fmean(scores)
    error = statistics.pstdev(scores) / math.sqrt(len(scores))
    z = statistics.NormalDist().inv_cdf(0.975)
    estimate = stats.elo_of_pairs(counts)
    assert estimate.elo == pytest.approx(logistic_elo(mean))
    assert estimate.low == pytest.approx(logistic_elo(mean - z * error))
    assert estimate.high == pytest.approx(logistic_elo(mean + z * error))


def test_a_match_of_pairs_shows_the_pentanomial_interval_not_the_games() -> None:
    from parlour.arena.match import Standing

    standing = Standing()
    # The winning seat of each pair's two games, player 0 first in the first game.
    kinds = [(0, 0)] * 10 + [(0, 1)] * 6 + [(1, 0)] * 4  # split, won twice, lost twice
    for pair, (first, second) in enumerate(kinds):
        standing.add(pair, (0, 1), first)
        standing.add(pair, (1, 0), second)
    assert standing.pentanomial() == [4, 0, 10, 0, 6]
    assert (standing.wins, standing.losses, standing.draws) == (22, 18, 0)
    assert standing.elo() == stats.elo_of_pairs([4, 0, 10, 0, 6])
    assert standing.elo() != stats.elo_of_games(22, 18, 0)


def test_an_even_score_is_never_shown_as_minus_zero() -> None:
    assert str(stats.Estimate(-0.0, -1.0, 1.0)) == "+0.0 ± 1.0"
