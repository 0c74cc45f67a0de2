"""The evaluation's weights: the shipped table as the package reads it, a bad file refused
with a message naming it, the kernels valuing a leaf by the table they are given, and the
tuning's fit (``benchmarks/gomoku_tune.py``) recovering weights it is built from."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

import parlour
from parlour.files import BadFile
from parlour.games.gomoku.engine.patterns import (
    DOUBLE_THREE,
    FEATURES,
    FIVE,
    OPEN_FOUR,
    OPEN_THREE,
    lines_of,
    lines_value,
    pattern_table,
)
from parlour.games.gomoku.engine.weights import (
    HAND,
    MAX_BYTES,
    NAMES,
    WEIGHTS_FILE,
    as_json,
    from_json,
    load_weights,
    weights,
)
from test_benchmarks import BENCHMARKS


def test_the_weights_loaded_are_the_files() -> None:
    data = json.loads(WEIGHTS_FILE.read_text())
    loaded = weights()
    assert loaded.shape == (2, FEATURES) and loaded.dtype == np.int64
    assert loaded[:, 0].tolist() == [0, 0]  # no pattern, no value
    for row, side in enumerate(("mover", "opponent")):
        assert loaded[row, 1:].tolist() == [data[side][name] for name in NAMES]
    assert np.array_equal(from_json(as_json(HAND), "hand"), HAND)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("{", "is not JSON"),
        ("[1, 2]", "not an object of mover and opponent"),
        ('{"mover": {}, "opponent": {}}', "mover must give exactly closed_two"),
        ("EXTRA", "opponent must give exactly"),
        ("FLOAT", "mover.open_three is not a whole number"),
        ("HUGE", "opponent.four is not a whole number"),
        ("OLD", "mover must give exactly .*double_three, four_three, double_four"),
        (" " * (MAX_BYTES + 1), "is larger than"),
    ],
)
def test_a_bad_weights_file_is_refused_with_a_message_naming_it(
    tmp_path: Path, text: str, problem: str
) -> None:
    good = as_json(HAND)
    edited = {
        "EXTRA": {**good, "opponent": {**good["opponent"], "six": 1}},
        "FLOAT": {**good, "mover": {**good["mover"], "open_three": 96.5}},
        "HUGE": {**good, "opponent": {**good["opponent"], "four": 10**7}},
        "OLD": {side: {k: table[k] for k in NAMES[:FIVE]} for side, table in good.items()},
    }
    path = tmp_path / "weights.json"
    path.write_text(json.dumps(edited[text]) if text in edited else text)
    with pytest.raises(BadFile, match=problem) as refused:
        load_weights(path)
    assert str(path) in str(refused.value) and "\n" not in str(refused.value)


def test_a_leaf_is_valued_by_the_weights_the_kernels_are_given() -> None:
    """0 to move against X's open three: 0's patterns by row 0, X's by row 1, whatever the
    table; the same board with other weights, another value."""
    state = parlour.game("gomoku").start()
    for name in ["H8", "A1", "I8", "A2", "J8"]:
        state = state.play(state.parse_move(name))
    board = state.board.copy()  # type: ignore[attr-defined]
    only_threes = np.zeros((2, FEATURES), dtype=np.int64)
    only_threes[1, OPEN_FOUR] = 7  # X's points that make an open four: its three's two
    only_threes[0, OPEN_THREE] = 1
    lines = lines_of(board, pattern_table(), only_threes)
    counts = lines.counts
    assert counts[1, OPEN_FOUR] == 2
    assert lines_value(lines, 2) == counts[2, OPEN_THREE] - 7 * 2
    hand = lines_of(board, pattern_table(), HAND)
    assert lines_value(hand, 2) == HAND[0] @ counts[2] - HAND[1] @ counts[1]


@pytest.fixture
def tune(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    return importlib.import_module("gomoku_tune")


def synthetic(known: np.ndarray, scale: float, positions: int) -> tuple[np.ndarray, np.ndarray]:
    """Random quiet positions' counts, and for each the chance that ``known`` at ``scale``
    gives the side to move (a result drawn as often as that chance says, on average)."""
    rng = np.random.default_rng(3)
    counts = rng.integers(0, 4, size=(positions, 2, FEATURES))
    counts[:, :, 0] = 0
    counts[:, 0, OPEN_FOUR : FIVE + 1] = 0  # never in a quiet position
    counts[:, 1, FIVE] = 0
    value = counts[:, 0] @ known[0] - counts[:, 1] @ known[1]
    return counts, 1 / (1 + np.exp(-value / scale))


def test_the_scale_fitted_is_the_one_the_results_were_drawn_at(tune: ModuleType) -> None:
    counts, chances = synthetic(HAND, 400.0, 500)
    value = tune.design(counts) @ HAND.ravel()
    assert tune.fit_scale(value, chances) == pytest.approx(400.0, rel=1e-3)


def test_the_fit_recovers_known_weights(tune: ModuleType) -> None:
    """Weights far from the hand table's, results at their chances: the fit finds them
    (the ridge's pull towards the start moves none by more than a fraction of a point);
    the patterns no quiet position shows keep the start's."""
    known = HAND.copy()
    known[0, 1:OPEN_FOUR] = [5, 30, 10, 250, 60]
    known[1, 1:FIVE] = [1, 20, 25, 60, 100, 1500]
    known[:, DOUBLE_THREE:] = [[150, 400, 700], [120, 300, 650]]
    counts, chances = synthetic(known, 1000.0, 4000)
    fitted = tune.fit_weights(counts, chances, 1000.0, HAND)
    assert np.abs(fitted - known).max() < 1.0
    assert fitted[0, OPEN_FOUR] == HAND[0, OPEN_FOUR] and fitted[1, FIVE] == HAND[1, FIVE]


def test_the_tuning_counts_the_double_threats_of_its_positions(tune: ModuleType) -> None:
    """X to move with two twos crossing at J8 (H8 I8 across, J9 J10 down): its stone there
    makes two open threes, a double three the tuning's counts must show, though the hand
    table it starts from weighs none (the patterns keep them only where weights do)."""
    state = parlour.game("gomoku").start()
    for name in ("H8", "A1", "I8", "A3", "J9", "A5", "J10", "O15"):
        state = state.play(state.parse_move(name))
    counts = tune.features(state)
    assert counts is not None and counts[0, DOUBLE_THREE] >= 1
