"""The learned estimate of the sowing games: its fit, its tables and their files."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

import parlour
from helpers import random_play
from parlour.games.sowing import evaluation
from parlour.games.sowing.game import SowingState


def sowing_positions(count: int, seed: int) -> list[SowingState]:
    """Positions of Kalah reached by random play, over or not."""
    rng = random.Random(seed)
    game = parlour.game("kalah")
    states = [random_play(game.start(), rng, rng.randrange(0, 50)) for _ in range(count)]
    return [state for state in states if isinstance(state, SowingState)]


@pytest.mark.slow
def test_a_fit_recovers_the_estimates_it_was_fitted_to() -> None:
    """Targets made by a known table are found again: the fitted table's estimates on new
    positions (in seeds, as fitted: before the search's share and rounding) match the known
    table's to within a seed almost always (up to the one constant the fit leaves out)."""
    rng = np.random.default_rng(5)
    known = rng.integers(-3 * evaluation.SCALE, 3 * evaluation.SCALE, evaluation.weight_count(6))

    def seeds(states: list[SowingState], weights: np.ndarray) -> np.ndarray:
        return evaluation.fitted(np.array([state.board for state in states]), weights)

    training, fresh = sowing_positions(6000, seed=1), sowing_positions(300, seed=2)
    boards = np.array([state.board for state in training])
    fitted = evaluation.fit(boards, seeds(training, known), ridge=0.1)
    gap = seeds(fresh, fitted) - seeds(fresh, known)
    gap = np.abs(gap - np.median(gap))
    assert (gap <= 1).mean() > 0.95 and gap.mean() < 0.2  # rare features are seldom seen
    assert np.abs(seeds(fresh, known)).max() > 5  # the known table is no flat one


@pytest.mark.parametrize("label", sorted(evaluation.RULE_SETS))
def test_every_rule_set_named_has_its_table(label: str) -> None:
    game = evaluation.rule_set(label)
    weights = evaluation.weights_of(game)
    assert weights.shape == (evaluation.weight_count(game.pits),)
    assert np.abs(weights).max() > 0


def test_a_table_of_the_wrong_size_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    np.save(tmp_path / evaluation.table_name(3, 2, 0), np.zeros(10, dtype=np.int16))
    monkeypatch.setattr(evaluation, "FOLDER", tmp_path)
    evaluation.weights_for.cache_clear()
    try:
        with pytest.raises(ValueError, match=r"sowing-3x2-rules0\.npy: 10 weights, not 864"):
            evaluation.weights_for(3, 2, 0)
        assert evaluation.weights_for(3, 3, 0) is evaluation.NONE  # no file: no estimate
    finally:
        evaluation.weights_for.cache_clear()
