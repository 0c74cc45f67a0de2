"""The five-in-a-row evaluation's weights fitted to parlour's own games (Texel's method):
positions from self-play labelled with the game's result, and a logistic regression of
the result on each position's patterns.

A leaf's value (``patterns.lines_value``) is linear in its features' counts: for each
pattern, how many (empty point, line) pairs of the side to move hold it, and for each double
threat how many empty points, by the side to move's weight, less the opponent's by the
opponent's weight.  A position's chance of being
won by the side to move is read as ``sigmoid(value / scale)``; the scale is fitted first
to the weights set by hand (``weights.HAND``), so that fitted weights stay in the same
units (the search's other values, a sure win's or a proven one's, are fixed), then the
weights with the scale held, by Newton's method on the log loss (a convex problem: a
logistic regression without intercept).

The games (``generate``): three random stones on the central 5x5 (``gomoku_selfplay``'s
openings as drawn), then the engine at its default level against itself by nodes, with
the shipped weights (``--nodes MAIN/THREATS``: the same games on any machine).  The positions
kept are the quiet ones (neither side has a five point and the side to move cannot make an
open four: its value is its patterns', not a sure win); a pattern no kept position shows
for a side (the side to move's open four or five, the opponent's five) keeps its hand
weight, and so does a double threat's (0).  One game in ten (``HELD_OUT``) is left out of
the fit and scores it, with the hand table, the shipped one, and a fit of the patterns
alone (no double threat: what the double threats add).

The positions are saved in ``--data`` (``benchmarks/data/gomoku_tune.npz``: the counts,
the results and each position's game) and read from there on the next run unless
``--regenerate``; ``--write`` writes the fitted weights to the package's table
(``parlour/games/gomoku/weights.json``).  What a table gains is measured by self-play at a
fixed node budget (``gomoku_selfplay.py --players no-late,hand --nodes ...``).

    .venv/bin/python benchmarks/gomoku_tune.py [--games 1500] [--nodes 5000/2000]
        [--parallel 2] [--seed 1] [--regenerate] [--write] [--quick]
"""

from __future__ import annotations

import argparse
import json
import os
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

import parlour
from gomoku_selfplay import openings
from parlour.games.gomoku.engine import GomokuThinker
from parlour.games.gomoku.engine.patterns import (
    DOUBLE_THREE,
    FEATURES,
    FIVE,
    NONE,
    OPEN_FOUR,
    lines_of,
    pattern_table,
)
from parlour.games.gomoku.engine.weights import HAND, WEIGHTS_FILE, as_json, weights
from parlour.games.gomoku.game import GomokuState
from parlour.search import DEFAULT_LEVEL, Stop
from record import MAX_PROCESSES, arguments, record, whole

SIZE = 15
DATA = Path(__file__).parent / "data" / "gomoku_tune.npz"
HELD_OUT = 10
"""One game in this many scores the fit and is left out of it."""
RIDGE = 1e-5
"""A small pull of each weight towards its hand value (in the loss's units, per weight
squared over the scale): it keeps a weight whose pattern is rare finite."""
FIRST_PLY = 4
"""Positions from this many stones on (the opening's three are drawn, not played)."""
MOVER, OPPONENT = 0, 1
EVERY_FEATURE = np.ones((2, FEATURES), dtype=np.int64)
"""Weights that weigh every feature, so that ``lines_of`` keeps them all, the double
threats too, whatever the table the fit starts from weighs (the counts are read, not the
value)."""


def features(state: GomokuState) -> np.ndarray | None:
    """The position's features' counts, the side to move's then the opponent's (2,
    FEATURES), or None if it is not quiet (a five point of either side, or an open four to
    make)."""
    stone = state.to_move + 1
    counts = lines_of(state.board.copy(), pattern_table(), EVERY_FEATURE).counts
    mine, theirs = counts[stone], counts[3 - stone]
    if mine[FIVE] or theirs[FIVE] or mine[OPEN_FOUR]:
        return None
    return np.stack([mine, theirs])


def play_game(job: tuple[str, int, int]) -> tuple[np.ndarray, np.ndarray]:
    """One game from ``opening`` by nodes: its quiet positions' counts (k, 2, FEATURES)
    and each one's result for the side to move (1 won, 0 lost, 0.5 drawn)."""
    opening, main, threats = job
    thinker = GomokuThinker(DEFAULT_LEVEL, to_the_clock=True, by_nodes=(main, threats))
    state = parlour.game("gomoku", size=SIZE).start()
    for name in opening.split():
        state = state.play(state.parse_move(name))
    kept: list[tuple[np.ndarray, int]] = []
    while not state.is_over:
        assert isinstance(state, GomokuState)
        found = features(state) if np.count_nonzero(state.board) >= FIRST_PLY else None
        if found is not None:
            kept.append((found, state.to_move))
        state = state.play(thinker.best_move(state, Stop())[0])
    assert isinstance(state, GomokuState)
    counts = np.array([k for k, _ in kept], dtype=np.int16).reshape(-1, 2, FEATURES)
    winner = state.winner
    results = [0.5 if winner is None else float(winner == mover) for _, mover in kept]
    return counts, np.array(results)


def generate(
    games: int, main: int, threats: int, seed: int, parallel: int
) -> dict[str, np.ndarray]:
    """The quiet positions of ``games`` games (``play_game``) from as many distinct
    openings, ``parallel`` at a time."""
    drawn = list(dict.fromkeys(openings(2 * games, seed, balanced=False)))[:games]
    jobs = [(opening, main, threats) for opening in drawn]
    with ProcessPoolExecutor(max(1, parallel)) as pool:
        played = list(pool.map(play_game, jobs, chunksize=4))
    game = np.concatenate([np.full(len(r), i, dtype=np.int32) for i, (_, r) in enumerate(played)])
    return {
        "counts": np.concatenate([c for c, _ in played]),
        "results": np.concatenate([r for _, r in played]),
        "game": game,
    }


def design(counts: np.ndarray) -> np.ndarray:
    """Each position's row of features: the value is ``design(counts) @ weights.ravel()``
    (the side to move's counts, the opponent's negated; no pattern, ``NONE``, counts
    nothing: it has no weight)."""
    rows = counts.astype(np.float64)
    rows[:, OPPONENT] *= -1
    rows[:, :, NONE] = 0
    return rows.reshape(len(counts), -1)


def log_loss(value: np.ndarray, results: np.ndarray, scale: float) -> float:
    """The mean log loss of the results given the values at ``scale``."""
    z = value / scale
    return float(np.mean(np.logaddexp(0, z) - results * z))


def fit_scale(value: np.ndarray, results: np.ndarray) -> float:
    """The scale at which the values best predict the results (golden-section search on
    the log of the scale: the loss has one minimum)."""
    low, high = np.log(1.0), np.log(1e6)
    ratio = (np.sqrt(5) - 1) / 2
    for _ in range(100):
        a, b = high - ratio * (high - low), low + ratio * (high - low)
        if log_loss(value, results, np.exp(a)) < log_loss(value, results, np.exp(b)):
            high = b
        else:
            low = a
    return float(np.exp((low + high) / 2))


def fit_weights(
    counts: np.ndarray, results: np.ndarray, scale: float, start: np.ndarray
) -> np.ndarray:
    """The weights (2, FEATURES) minimising the log loss at ``scale`` plus ``RIDGE`` towards
    ``start``, by Newton's method (each step halved until the loss falls: far from the
    minimum a full step can overshoot); a weight whose pattern no position shows keeps
    ``start``'s."""
    x = design(counts)  # the value at ``scale`` is ``x @ w``, ``w`` the weights / scale
    free = np.flatnonzero(np.abs(x).sum(axis=0) > 0)
    x, prior = x[:, free], start.ravel()[free].astype(np.float64) / scale
    ridge = RIDGE * len(results)

    def loss(w: np.ndarray) -> float:
        z = x @ w
        return float(
            np.sum(np.logaddexp(0, z) - results * z) + ridge / 2 * np.sum((w - prior) ** 2)
        )

    w = prior.copy()
    for _ in range(100):
        p = 1 / (1 + np.exp(-(x @ w)))
        gradient = x.T @ (p - results) + ridge * (w - prior)
        hessian = (x * (p * (1 - p))[:, None]).T @ x + ridge * np.eye(len(w))
        step = np.linalg.solve(hessian, gradient)
        now = loss(w)
        while loss(w - step) > now and np.abs(step).max() > 1e-12:
            step /= 2
        w -= step
        if np.abs(step).max() < 1e-10:
            break
    fitted = start.astype(np.float64).ravel()
    fitted[free] = w * scale
    return fitted.reshape(start.shape)


def tune(data: dict[str, np.ndarray]) -> dict[str, object]:
    """The fit on the games not held out, and its loss on those held out beside the hand
    table's, the shipped one's and a fit's of the patterns alone."""
    counts, results, game = data["counts"], data["results"], data["game"]
    test = game % HELD_OUT == 0
    train = ~test
    hand_value = design(counts) @ HAND.ravel()
    scale = fit_scale(hand_value[train], results[train])

    def fit(features: np.ndarray) -> np.ndarray:
        fitted = fit_weights(features[train], results[train], scale, HAND)
        return np.rint(fitted).astype(np.int64)

    patterns_only = counts.copy()
    patterns_only[:, :, DOUBLE_THREE:] = 0
    tables = {"hand": HAND, "shipped": weights(), "patterns": fit(patterns_only)}
    tuned = tables["tuned"] = fit(counts)
    loss = {
        name: round(log_loss((design(counts) @ table.ravel())[test], results[test], scale), 5)
        for name, table in tables.items()
    }
    return {
        "positions": len(results),
        "games": int(game.max() + 1) if len(game) else 0,
        "scale": round(scale, 2),
        "held_out_loss": {**loss, "even": round(float(np.log(2)), 5)},
        "weights": as_json(tuned),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=whole(), default=1500)
    parser.add_argument("--nodes", default="5000/2000", help="MAIN/THREATS nodes a move")
    parser.add_argument("--parallel", type=whole(1, MAX_PROCESSES), default=2)
    parser.add_argument("--seed", type=whole(0), default=1)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--regenerate", action="store_true", help="play the games again")
    parser.add_argument("--write", action="store_true", help=f"write {WEIGHTS_FILE.name}")
    args = arguments(parser, quick={"games": 2, "nodes": "500/200", "parallel": 1})
    main_nodes, _, threat_nodes = args.nodes.partition("/")
    if not (main_nodes.isdigit() and threat_nodes.isdigit()):
        parser.error("--nodes: MAIN/THREATS, two whole numbers")
    load_before = os.getloadavg()
    if args.quick or args.regenerate or not args.data.exists():
        data = generate(args.games, int(main_nodes), int(threat_nodes), args.seed, args.parallel)
        if not args.quick:
            args.data.parent.mkdir(parents=True, exist_ok=True)
            np.savez_compressed(
                args.data, counts=data["counts"], results=data["results"], game=data["game"]
            )
    else:
        with np.load(args.data) as stored:
            data = {name: stored[name] for name in ("counts", "results", "game")}
    figures = {**tune(data), "load_before": load_before, "load_after": os.getloadavg()}
    print(json.dumps(figures, indent=1))
    if args.write and not args.quick:
        WEIGHTS_FILE.write_text(json.dumps(figures["weights"], indent=1) + "\n")
    record(args, figures)


if __name__ == "__main__":
    main()
