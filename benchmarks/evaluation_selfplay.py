"""The sowing engine with its learned horizon estimate against the same engine without it
(the store difference alone), at a time a move, from both sides of random openings.

A match on the arena (``bots.engine``: ``learned@SECONDS`` against ``plain@SECONDS``):
each opening (four random plies) is played twice, each engine once as player 0, on
``--workers`` processes; every game is recorded in the database (``--db``; the user's by
default, a temporary one for ``--quick``).  It prints the learned engine's wins, losses
and draws and its total margin in seeds, read from the database.

    .venv/bin/python benchmarks/evaluation_selfplay.py [--openings 30] [--seconds 0.3]
        [--rules openspiel-kalah] [--seed 11] [--db PATH] [--quick]
"""

from __future__ import annotations

import argparse

import bots
from parlour.arena.plan import Plan, random_openings
from parlour.games.sowing import evaluation
from record import MAX_PROCESSES, arguments, duration, record, whole

OPENING_PLIES = 4


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--openings", type=whole(), default=30)
    parser.add_argument("--seconds", type=duration(), default=0.3, help="a move")
    parser.add_argument("--rules", choices=sorted(evaluation.RULE_SETS), default="openspiel-kalah")
    parser.add_argument("--seed", type=whole(0), default=11)
    parser.add_argument(
        "--workers", type=whole(1, MAX_PROCESSES), default=2, help="games at a time"
    )
    parser.add_argument("--db", help="the arena's database (default: the user's)")
    args = arguments(parser, {"openings": 1, "seconds": 0.01, "workers": 1})
    rules = evaluation.rule_set(args.rules)
    players = tuple(f"python:bots:engine:{kind}@{args.seconds:g}" for kind in ("learned", "plain"))
    openings = random_openings(rules.start(), OPENING_PLIES, args.openings, args.seed)
    plan = Plan(rules.name, dict(rules.options), players, 2 * args.openings, openings, args.seed)
    with bots.database(args.db, args.quick) as records:
        match_id, standing = bots.play(records, plan, args.workers, "learned against plain")
        margin = sum(bots.margin(row, 0) for row in bots.games(records, match_id))
    print(
        f"{args.rules}, {standing.games} games at {args.seconds} s a move: learned estimate "
        f"{standing.wins} wins, {standing.losses} losses, {standing.draws} draws against the "
        f"store difference alone; margin {margin:+d} seeds (match {match_id})"
    )
    figures = {"wins": standing.wins, "losses": standing.losses, "draws": standing.draws}
    record(args, {**figures, "margin": margin, "elo": standing.as_json()["elo"]})


if __name__ == "__main__":
    main()
