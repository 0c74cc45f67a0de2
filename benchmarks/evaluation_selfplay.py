"""The sowing engine with its learned horizon estimate against the same engine without it
(the store difference alone), at a time a move, from both sides of random openings.

Each opening (four random plies) is played twice, each engine once as player 0; two games
run at a time, one a core.  It prints the learned engine's wins, losses and draws and its
total margin in seeds.

    .venv/bin/python benchmarks/evaluation_selfplay.py [--openings 30] [--seconds 0.3]
        [--rules openspiel-kalah] [--seed 11] [--quick]
"""

from __future__ import annotations

import argparse
import random
from concurrent.futures import ProcessPoolExecutor

from rich.progress import Progress

from parlour.core import State
from parlour.search import evaluation
from parlour.search.engine import Engine, warm_up
from record import arguments, record


def opening(rules: str, seed: int) -> State:
    rng = random.Random(seed)
    state: State = evaluation.rule_set(rules).start()
    for _ in range(4):
        state = state.play(rng.choice(state.legal_moves()))
    return state


def game(rules: str, seed: int, learned_side: int, seconds: float) -> int:
    """The learned engine's final margin in one game from opening ``seed``."""
    start = opening(rules, seed)
    warm_up(start)
    engines = [Engine(learned=side == learned_side) for side in (0, 1)]
    state = start
    while not state.is_over:
        state = state.play(engines[state.to_move].search(state, seconds=seconds).move)
    first, second = state.scores
    return first - second if learned_side == 0 else second - first


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--openings", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=0.3, help="a move")
    parser.add_argument("--rules", choices=sorted(evaluation.RULE_SETS), default="openspiel-kalah")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--workers", type=int, default=2, help="games at a time")
    args = arguments(parser, quick={"openings": 1, "seconds": 0.01, "workers": 1})
    rng = random.Random(args.seed)
    seeds = [rng.randrange(1 << 30) for _ in range(args.openings)]
    jobs = [(args.rules, seed, side, args.seconds) for seed in seeds for side in (0, 1)]
    margins = []
    with Progress() as progress, ProcessPoolExecutor(args.workers) as pool:
        task = progress.add_task("games", total=len(jobs))
        for margin in pool.map(game, *zip(*jobs, strict=True)):
            margins.append(margin)
            progress.advance(task)
    wins = sum(m > 0 for m in margins)
    losses = sum(m < 0 for m in margins)
    draws = len(margins) - wins - losses
    print(
        f"{args.rules}, {len(margins)} games at {args.seconds} s a move: learned estimate "
        f"{wins} wins, {losses} losses, {draws} draws against the "
        f"store difference alone; margin {sum(margins):+d} seeds"
    )
    record(args, {"wins": wins, "losses": losses, "draws": draws, "margin": sum(margins)})


if __name__ == "__main__":
    main()
