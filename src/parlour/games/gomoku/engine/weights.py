"""The evaluation's weights: what each pattern (``patterns``) on an empty point's line, and
each double threat on an empty point, is worth in a leaf's value, for the side to move and
for the opponent.

They are data, not code: ``weights.json`` beside the rules (``WEIGHTS_FILE``), fitted by
``benchmarks/gomoku_tune.py`` to the results of parlour's own games (Texel's method: a
logistic regression of each quiet position's result on its features' counts), read once a
process and handed to the kernels as an array, so that a table tried needs no recompile.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from parlour.files import BadFile, read_json
from parlour.games.gomoku.engine.patterns import FEATURES, VALUE

WEIGHTS_FILE = Path(__file__).parents[1] / "weights.json"
"""The shipped table."""
MAX_BYTES = 4096
"""The largest weights file read: the table is a few hundred bytes."""
MAX_WEIGHT = 10**6
"""The largest weight a file may give (in size): far above a four's, far below a win's."""
NAMES = (
    *("closed_two", "open_two", "closed_three", "open_three", "four", "open_four", "five"),
    *("double_three", "four_three", "double_four"),
)
"""The features' names in the file, in the order of ``patterns.CLOSED_TWO`` to ``FIVE``
(the patterns), then ``DOUBLE_THREE`` to ``DOUBLE_FOUR`` (the double threats)."""
SIDES = ("mover", "opponent")
"""The file's two tables: the side to move's patterns, the opponent's."""
HAND = np.zeros((2, FEATURES), dtype=np.int64)
HAND[:, : len(VALUE)] = [VALUE * 6 // 5, VALUE]
"""The weights set by hand before any were fitted: the move order's values, the side to
move's counting a fifth more (it plays first, so its threats are nearer); no double
threat's."""


def as_json(weights: np.ndarray) -> dict[str, dict[str, int]]:
    """``weights`` as the file holds them."""
    return {
        side: {name: int(weights[row, p + 1]) for p, name in enumerate(NAMES)}
        for row, side in enumerate(SIDES)
    }


def from_json(data: Any, what: str) -> np.ndarray:
    """The (2, FEATURES) weights of the file's JSON ``data`` (``what`` names it); BadFile
    naming the problem if it is not two tables of the ten features' whole numbers."""
    if not isinstance(data, dict) or set(data) != set(SIDES):
        raise BadFile(f"{what}: not an object of {' and '.join(SIDES)}")
    weights = np.zeros((2, FEATURES), dtype=np.int64)
    for row, side in enumerate(SIDES):
        table = data[side]
        if not isinstance(table, dict) or set(table) != set(NAMES):
            raise BadFile(f"{what}: {side} must give exactly {', '.join(NAMES)}")
        for p, name in enumerate(NAMES):
            value = table[name]
            if type(value) is not int or abs(value) > MAX_WEIGHT:
                raise BadFile(f"{what}: {side}.{name} is not a whole number of ±{MAX_WEIGHT}")
            weights[row, p + 1] = value
    return weights


def load_weights(path: Path) -> np.ndarray:
    """The weights in the file at ``path`` (at most ``MAX_BYTES``)."""
    return from_json(read_json(str(path), MAX_BYTES), str(path))


@cache
def weights() -> np.ndarray:
    """The shipped weights (``WEIGHTS_FILE``), read once a process."""
    return load_weights(WEIGHTS_FILE)
