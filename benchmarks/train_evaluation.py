"""Learn the sowing engine's horizon estimate (``parlour.games.sowing.evaluation``), one table a
rule set of ``evaluation.RULE_SETS``: kalah, and kalah with ``empty_capture=false``
(OpenSpiel's).

For each, positions of noisy self-play (a random move three times in ten, else a 2-6 ply
search), each valued by a 12-ply search; the table is the ridge fit of what that search
found beyond the store difference.  Only positions with more seeds in the pits than the
endgame table holds are kept (the search reads the others exactly).  The searches use no
learned estimate, so a run does not depend on the tables it replaces.  It prints the fit's
error on every fifth position, held out, beside that of the store difference alone, and
writes ``src/parlour/games/sowing/evaluations/`` (not under ``--quick``).

    .venv/bin/python benchmarks/train_evaluation.py [--positions 16000] [--depth 12] [--quick]
"""

from __future__ import annotations

import argparse
import random
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np
from rich.progress import Progress

from parlour.games.sowing import endgame, evaluation
from parlour.search.engine import Engine, warm_up
from record import MAX_PROCESSES, arguments, record, whole

CHUNK = 250
"""Positions a task of the process pool (the progress bar moves a chunk at a time)."""
KEPT = 0.25
"""The share of eligible positions kept, so that one game gives positions of every stage."""


def sample(label: str, count: int, depth: int, seed: int) -> np.ndarray:
    """``count`` rows: a position's board, then what a ``depth``-ply search (without the
    learned estimate) finds beyond its store difference, for its side to move."""
    game = evaluation.rule_set(label)
    rng = random.Random(seed)
    mover, judge = Engine(table_bits=18, learned=False), Engine(table_bits=22, learned=False)
    in_table = endgame.seeds_within(game.pits, endgame.MAX_ENTRIES)
    rows: list[list[int]] = []
    warm_up(game.start())
    while len(rows) < count:
        state = game.start()
        while not state.is_over and len(rows) < count:
            first, second = state.scores
            if sum(state.row(0)) + sum(state.row(1)) > in_table and rng.random() < KEPT:
                value = judge.search(state, depth=depth).value
                difference = first - second if state.to_move == 0 else second - first
                rows.append([*map(int, state.board), value - difference])
            if rng.random() < 0.3:
                move = rng.choice(state.legal_moves())
            else:
                move = mover.search(state, depth=rng.choice((2, 4, 6))).move
            state = state.play(move)
    return np.array(rows, dtype=np.int64)


def error(rows: np.ndarray, weights: np.ndarray) -> float:
    """The root mean square of targets less estimates as fitted (the mean taken out), in
    seeds."""
    gaps = rows[:, -1] - evaluation.fitted(rows[:, :-1], weights)
    return float(np.sqrt(((gaps - gaps.mean()) ** 2).mean()))


def train(label: str, count: int, depth: int, workers: int) -> tuple[np.ndarray, dict[str, float]]:
    """Sample ``count`` positions of a rule set and fit its table: the table, and the
    figures of the fit."""
    started = time.perf_counter()
    size = min(CHUNK, count)
    chunks = [(label, size, depth, seed) for seed in range(count // size)]
    parts = []
    with Progress() as progress, ProcessPoolExecutor(workers) as pool:
        task = progress.add_task(f"{label}: {depth}-ply values", total=len(chunks) * size)
        for part in pool.map(sample, *zip(*chunks, strict=True)):
            parts.append(part)
            progress.advance(task, size)
    rows = np.concatenate(parts)
    held = np.arange(len(rows)) % 5 == 0
    trial = evaluation.fit(rows[~held, :-1], rows[~held, -1].astype(np.float64))
    figures = {
        "positions": len(rows),
        "held_out": int(held.sum()),
        "error": error(rows[held], trial),
        "error_store_difference": error(rows[held], evaluation.NONE),
    }
    print(
        f"{label}: {len(rows)} positions; error on the {held.sum()} held out: "
        f"{figures['error']:.2f} seeds with the estimate, "
        f"{figures['error_store_difference']:.2f} with the store difference alone"
    )
    weights = evaluation.fit(rows[:, :-1], rows[:, -1].astype(np.float64))
    figures["seconds"] = time.perf_counter() - started
    return weights, figures


def write(label: str, weights: np.ndarray) -> None:
    """Write a rule set's table into the package."""
    game = evaluation.rule_set(label)
    path = evaluation.FOLDER / evaluation.table_name(game.pits, game.options["seeds"], game.rules)
    np.save(path, weights.astype(np.int16))
    print(f"  wrote {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=whole(), default=16000, help="positions a rule set")
    parser.add_argument("--depth", type=whole(), default=12, help="plies of the valuing search")
    parser.add_argument("--workers", type=whole(1, MAX_PROCESSES), default=2, help="processes")
    parser.add_argument("--only", choices=sorted(evaluation.RULE_SETS), help="one rule set")
    args = arguments(parser, quick={"positions": 40, "depth": 4, "workers": 1, "only": "kalah"})
    figures = {}
    for label in evaluation.RULE_SETS:
        if args.only in (None, label):
            weights, figures[label] = train(label, args.positions, args.depth, args.workers)
            if not args.quick:
                write(label, weights)
    record(args, figures)


if __name__ == "__main__":
    main()
