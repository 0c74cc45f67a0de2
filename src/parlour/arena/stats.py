"""The arena's statistics: Elo from a score, LOS, SPRT on game pairs, Bradley-Terry ratings.

Elo differences use the logistic model (a score ``s`` is ``400 log10(s / (1 - s))``
points), the one fastchess and fishtest report.  Intervals are 95% (1.96 standard
errors) from the variance of the results themselves; game pairs (the same opening, colours
swapped) are scored as one sample of the pentanomial distribution (0, 1/4, 1/2, 3/4, 1
points a game), which keeps the openings' bias out of the variance.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

Z95 = 1.959963984540054  # the two-sided 95% quantile of the normal distribution
ELO_PER_NAT = 400 / math.log(10)  # Elo points in one unit of the logistic's argument


def elo(score: float) -> float:
    """The Elo difference of an expected ``score`` (0 < score < 1; +-inf at the ends)."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def expected_score(difference: float) -> float:
    """The expected score of a player ``difference`` Elo points stronger."""
    return 1 / (1 + 10 ** (-difference / 400))


@dataclass(frozen=True)
class Estimate:
    """An Elo difference with its 95% interval (``low``, ``high``)."""

    elo: float
    low: float
    high: float

    @property
    def margin(self) -> float:
        """Half the interval's width, the "+-" that is printed."""
        return (self.high - self.low) / 2

    def __str__(self) -> str:
        """As the arena prints it: "+70.4 ± 70.8" while both ends are finite, the ends
        themselves when one is not, and what an infinite estimate means (a score of 1 or
        0 says the one player is stronger, not by how much)."""
        if math.isinf(self.elo):
            return f"{_signed(self.elo)} (every game {'won' if self.elo > 0 else 'lost'})"
        if math.isfinite(self.margin):
            return f"{_signed(self.elo)} ± {self.margin:.1f}"
        return f"{_signed(self.elo)} ({_signed(self.low)} to {_signed(self.high)})"


def _signed(value: float) -> str:
    """``+12.3``, ``+0.0`` (never ``-0.0``), ``+inf``."""
    if not math.isfinite(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value + 0.0:+.1f}"


def _estimate(points: Sequence[float], counts: Sequence[int]) -> Estimate:
    """The Elo of samples worth ``points`` (scores a game) seen ``counts`` times each."""
    n = sum(counts)
    if n == 0:
        return Estimate(0.0, -math.inf, math.inf)
    mean = sum(p * c for p, c in zip(points, counts, strict=True)) / n
    variance = sum(c * (p - mean) ** 2 for p, c in zip(points, counts, strict=True)) / n
    error = math.sqrt(variance / n)
    return Estimate(elo(mean), elo(mean - Z95 * error), elo(mean + Z95 * error))


def elo_of_games(wins: int, losses: int, draws: int) -> Estimate:
    """The Elo difference of a W-L-D record, each game a sample (trinomial)."""
    return _estimate((1.0, 0.0, 0.5), (wins, losses, draws))


PAIR_POINTS = (0.0, 0.25, 0.5, 0.75, 1.0)
"""A pair's score a game: 0, 1/2, 1, 3/2 or 2 points out of 2."""
REGULARIZE = 1e-3


def elo_of_pairs(pentanomial: Sequence[int]) -> Estimate:
    """The Elo difference of game pairs counted by their points (0, 1/2, 1, 3/2, 2), each
    pair one sample (pentanomial): the interval fastchess prints for paired games, which
    leaves the openings' bias out of the variance."""
    return _estimate(PAIR_POINTS, pentanomial)


def los(wins: int, losses: int) -> float:
    """The likelihood of superiority: the chance the first player is the stronger, from
    its wins and losses (draws tell nothing about it)."""
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1 + math.erf((wins - losses) / math.sqrt(2 * (wins + losses))))


@dataclass(frozen=True)
class Sprt:
    """A sequential probability ratio test of H0: Elo = ``elo0`` against H1: Elo =
    ``elo1``, with error rates ``alpha`` (accepting H1 wrongly) and ``beta``."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    @property
    def bounds(self) -> tuple[float, float]:
        """The LLR below which H0 is accepted, and above which H1."""
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def llr(self, pentanomial: Sequence[int]) -> float:
        """The log-likelihood ratio of the pairs seen (counts of 0, 1/2, 1, 3/2, 2 points).

        Each hypothesis is the most likely pentanomial distribution whose mean is its
        expected score (the generalized likelihood ratio fishtest and fastchess use).  A
        kind of pair not seen counts as REGULARIZE pairs, as theirs do, so that every
        hypothesis fits from the first pair on."""
        n = sum(pentanomial)
        if n == 0:
            return 0.0
        counts = np.array([c or REGULARIZE for c in pentanomial], dtype=float)
        freqs = counts / counts.sum()
        points = np.array(PAIR_POINTS)
        likely0 = _closest(freqs, points, expected_score(self.elo0))
        likely1 = _closest(freqs, points, expected_score(self.elo1))
        return float(n * np.sum(freqs * np.log(likely1 / likely0)))

    def verdict(self, llr: float) -> str | None:
        """ "H0" or "H1" once the LLR has crossed a bound, else None."""
        low, high = self.bounds
        if llr <= low:
            return "H0"
        if llr >= high:
            return "H1"
        return None


def _closest(freqs: np.ndarray, points: np.ndarray, mean: float) -> np.ndarray:
    """The distribution on ``points`` with expectation ``mean`` that makes ``freqs`` most
    likely: ``freqs / (1 + x (points - mean))``, the Lagrange multiplier ``x`` found by
    bisection where every probability stays positive (the sum is then 1)."""
    shifted = points - mean
    if shifted.min() >= 0 or shifted.max() <= 0:  # the mean is outside the points seen
        raise ValueError(f"no distribution on {points} has mean {mean}")
    low, high = -1 / shifted.max(), -1 / shifted.min()
    for _ in range(200):
        x = (low + high) / 2
        if np.sum(freqs * shifted / (1 + x * shifted)) > 0:
            low = x
        else:
            high = x
    closest: np.ndarray = freqs / (1 + x * shifted)
    return closest


def parse_sprt(text: str) -> Sprt:
    """``ELO0,ELO1[,ALPHA,BETA]`` (the command line's ``--sprt``)."""
    from parlour.core import BadOption, shown

    parts = text.split(",")
    if len(parts) not in (2, 4):
        raise BadOption(f"--sprt takes ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA, not {shown(text)}")
    try:
        values = [float(p) for p in parts]
    except ValueError:
        raise BadOption(f"--sprt takes numbers, not {shown(text)}") from None
    if not all(math.isfinite(v) for v in values):
        raise BadOption(f"--sprt takes finite numbers, not {shown(text)}")
    if values[0] >= values[1]:
        raise BadOption(f"--sprt needs ELO0 < ELO1, not {shown(text)}")
    if len(values) == 4 and not all(0 < v < 0.5 for v in values[2:]):
        raise BadOption(f"--sprt's ALPHA and BETA lie between 0 and 0.5, not {shown(text)}")
    return Sprt(*values)


@dataclass(frozen=True)
class Rating:
    """A player's rating and its 95% margin (relative to the anchor, whose margin is 0)."""

    elo: float
    margin: float


def bradley_terry(
    points: np.ndarray, games: np.ndarray, anchor: int = 0, anchor_elo: float = 0.0
) -> list[Rating]:
    """The ratings that make a round robin most likely (Bradley-Terry, the Elo model).

    ``points[i, j]`` is what player i scored against j (a draw half a point, so the model
    is Elo's own: draws count as half a win each way), ``games[i, j]`` (= ``games[j, i]``)
    the games they played.  Every pair that met also gets one virtual draw, a weak prior
    that keeps a player who won every game at a finite rating.  Player ``anchor`` is held at
    ``anchor_elo``; the margins come from the inverse of the likelihood's curvature
    (Fisher information) with the anchor fixed.  Newton's method converges in a few steps.
    """
    size = len(points)
    met = games > 0
    wins = points + 0.5 * met
    played = games + met
    free = [i for i in range(size) if i != anchor]
    rating = np.zeros(size)
    for _ in range(100):
        expected = 1 / (1 + np.exp(rating[None, :] - rating[:, None]))
        gradient = (wins - played * expected).sum(axis=1)
        weight = played * expected * (1 - expected)
        hessian = weight - np.diag(weight.sum(axis=1))
        reduced = hessian[np.ix_(free, free)]
        step = np.linalg.solve(reduced, gradient[free])
        rating[free] -= step
        if np.max(np.abs(step)) < 1e-10:
            break
    expected = 1 / (1 + np.exp(rating[None, :] - rating[:, None]))
    weight = played * expected * (1 - expected)
    information = (np.diag(weight.sum(axis=1)) - weight)[np.ix_(free, free)]
    variance = np.zeros(size)
    variance[free] = np.diag(np.linalg.inv(information))
    return [
        Rating(anchor_elo + ELO_PER_NAT * float(r), Z95 * ELO_PER_NAT * math.sqrt(float(v)))
        for r, v in zip(rating, variance, strict=True)
    ]
