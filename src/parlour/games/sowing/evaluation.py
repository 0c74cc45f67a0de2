"""A learned estimate of what a sowing position's pits are worth beyond its store
difference, which the engine adds where its horizon stops it (``Engine(learned=False)``
leaves it out).

The store difference is the exact value at the end of a game, but at the horizon it
misses what is about to happen: a pit one sowing from an extra turn, a loaded pit across
from an empty one.  The estimate, for the side to move, sums table entries ("n-tuple"
features, as in the evaluations learned for Othello and 2048): for each pit of each row,
one weight for its seeds by its distance to its owner's store, and one for its seeds
together with those of the pit opposite (where captures come from).  Six pits a side
make 24 entries of 1,728 weights.

The weights are fitted by ridge regression (:func:`fit`) to what a deep search finds
beyond the store difference, on positions of noisy self-play: ``benchmarks/
train_evaluation.py`` writes one table a rule set into ``evaluations/`` beside this file,
in 1/``SCALE`` seeds.  A rule set without a table (another board, seed count or rule
switch) has no estimate: the store difference alone.

The engine with the estimate wins more games than without it, against itself
(``benchmarks/evaluation_selfplay.py``) and, counted at half (``SHRINK``), against
OpenSpiel's bots (``benchmarks/engine_vs_openspiel.py``); their records are in
``benchmarks/results/``, and the fit's held-out error in ``train_evaluation.jsonl`` there.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
from numba import njit

import parlour
from parlour.games.sowing import game as sowing

SEED_BINS = 16
"""A pit's seeds as a weight's index: 0 to 15, and 15 for more (rare, and alike)."""
FACING_BINS = 8
"""The opposite pit's seeds in a pair's index: 0 to 7, and 7 for more."""
SCALE = 16
"""Weights are integers in 1/16 seeds; the estimate is rounded to whole seeds, the unit
of every value the search compares and stores."""
SHRINK = 2
"""The search counts 1/SHRINK of the fitted estimate: in full it overvalued some
positions by several seeds at the horizon of a 1-s search, and lost games to OpenSpiel's
MCTS that the store difference alone did not (benchmarks/results/engine_vs_openspiel.jsonl)."""
UNIT = SCALE * SHRINK
"""Summed weights that make one seed of the estimate."""
FOLDER = Path(__file__).with_name("evaluations")
NONE = np.zeros(0, dtype=np.int64)
"""No table: the search's estimate is 0."""
RULE_SETS = {
    "kalah": ("kalah", {}),
    "openspiel-kalah": ("kalah", {"empty_capture": False}),
}
"""The rule sets with a table (each a game name and its options), by a short name.
Mancala's, fitted as well, won no more games than the store difference alone in
``benchmarks/evaluation_selfplay.py`` (its record in benchmarks/results/), so it has none
(an entry here fits and measures it again)."""


def rule_set(label: str) -> sowing.SowingGame:
    """The game of one of ``RULE_SETS``."""
    name, options = RULE_SETS[label]
    game = parlour.game(name, **options)
    assert isinstance(game, sowing.SowingGame)
    return game


def weight_count(pits: int) -> int:
    """Weights of a table for ``pits`` pits a side."""
    return 2 * pits * SEED_BINS * (1 + FACING_BINS)


@njit(cache=True, nogil=True)
def features(pos: np.ndarray, out: np.ndarray) -> None:
    """Write the weight indexes of ``pos``, seen by its side to move, into ``out``: for the
    mover's row then the other's (``row``), each pit at distance 1..P from its store
    (``d``), the pit alone, then the pit and the pit opposite."""
    pits = sowing.pit_count(pos)
    mover = pos[2 * pits + 2]
    pairs = 2 * pits * SEED_BINS
    for row in range(2):
        owner = mover if row == 0 else 1 - mover
        for d in range(pits):
            hole = sowing.store_index(owner, pits) - 1 - d
            seeds = min(pos[hole], SEED_BINS - 1)
            facing = min(pos[2 * pits - hole], FACING_BINS - 1)
            slot = row * pits + d
            out[slot] = slot * SEED_BINS + seeds
            out[2 * pits + slot] = pairs + (slot * SEED_BINS + seeds) * FACING_BINS + facing


@njit(cache=True, nogil=True)
def estimate(pos: np.ndarray, weights: np.ndarray, scratch: np.ndarray) -> int:
    """What ``pos``'s pits are worth to its side to move beyond the store difference, in
    whole seeds (0 without ``weights``); ``scratch`` is room for the 4P feature indexes."""
    if weights.shape[0] == 0:
        return 0
    features(pos, scratch)
    total = 0
    for i in range(4 * sowing.pit_count(pos)):
        total += weights[scratch[i]]
    return (total + UNIT // 2) // UNIT


def design(positions: np.ndarray) -> np.ndarray:
    """The 0/1 matrix of ``positions``' features (one row a position), for fitting."""
    pits = sowing.pit_count(positions[0])
    rows = np.zeros((len(positions), weight_count(pits)), dtype=np.float64)
    indexes = np.empty(4 * pits, dtype=np.int64)
    for n, pos in enumerate(positions):
        features(pos.astype(np.int64), indexes)
        rows[n, indexes] = 1.0
    return rows


def fitted(positions: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """The estimates of ``positions`` (one row a position) in seeds, as ``fit`` makes them:
    before the search's share (``SHRINK``) and rounding; 0 without ``weights``."""
    if not len(weights):
        return np.zeros(len(positions))
    estimates: np.ndarray = design(positions) @ weights / SCALE
    return estimates


def fit(positions: np.ndarray, targets: np.ndarray, ridge: float = 3.0) -> np.ndarray:
    """Weights (in 1/SCALE seeds) whose estimates come nearest, in least squares, to
    ``targets`` (each position's value beyond its store difference, for the side to
    move); ``ridge`` keeps the weights of rarely seen features near 0.  The mean target,
    the same for every position, is left out: it changes no choice."""
    rows = design(positions)
    centred = targets - targets.mean()
    normal = rows.T @ rows + ridge * np.eye(rows.shape[1])
    weights = np.linalg.solve(normal, rows.T @ centred)
    return np.round(weights * SCALE).astype(np.int64)


def table_name(pits: int, seeds: int, rules: int) -> str:
    """The file of a rule set's table: pits a side, seeds a pit at the start, rule flags."""
    return f"sowing-{pits}x{seeds}-rules{rules}.npy"


@cache
def weights_for(pits: int, seeds: int, rules: int) -> np.ndarray:
    """The learned table of a rule set, or ``NONE`` if there is none."""
    path = FOLDER / table_name(pits, seeds, rules)
    if not path.exists():
        return NONE
    weights: np.ndarray = np.load(path).astype(np.int64)
    if weights.shape != (weight_count(pits),):
        raise ValueError(f"{path.name}: {weights.shape[0]} weights, not {weight_count(pits)}")
    return weights


def weights_of(game: sowing.SowingGame) -> np.ndarray:
    """The learned table of ``game``'s rule set, or ``NONE`` if there is none."""
    return weights_for(game.pits, game.options["seeds"], game.rules)
