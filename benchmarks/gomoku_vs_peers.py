"""parlour's five-in-a-row opponent against the 'hard' AIs of two PyPI packages, on 15x15.

* gomoku-terminal's ``GomokuAI("hard")``: threat checks, then minimax 2-3 plies over the
  20 best-looking points near the stones;
* gomokubench's ``hard`` level: minimax 3 plies over its 12 best-looking moves.

A match on the arena for each peer (the peers are players ``python:gomoku_vs_peers:peer:
NAME``, every game through the Referee and recorded in ``--db``; the user's database by
default, a temporary one for ``--quick``).  Each pair of games starts from the same random
two stones near the centre (one each) and is played once from each side, so colours
alternate; both then play to the end (five or a full board).  parlour plays at its default
level on a clock of ``--seconds`` a move; the mean times a move of both sides come from the
database.  The peers go into their own environment, never into parlour's dependencies:

    python3 -m venv benchmarks/.venv-gomoku
    benchmarks/.venv-gomoku/bin/pip install gomoku-terminal gomokubench -e .
    benchmarks/.venv-gomoku/bin/python benchmarks/gomoku_vs_peers.py [--games 20] [--seeds 10]

A match of 20 games is noisy (at 97% a game, 19 or more wins in about 9 matches of 10):
``--seeds N`` plays N matches from consecutive seeds and totals them.

``--quick`` plays two short games a peer.  Where the peers are not installed it plays them
against ``STAND_IN``, parlour's own level 1: that runs this script's code, and measures
nothing of the peers'.
"""

from __future__ import annotations

import argparse
import random
from typing import Any

import numpy as np

import bots
import parlour
from parlour.arena.plan import Plan
from parlour.games.gomoku.game import GomokuState, Point
from parlour.players.specs import DEFAULT_LEVEL
from record import MAX_PROCESSES, arguments, duration, record, whole

try:
    from gomoku.ai import GomokuAI
    from gomoku.board import Board
    from libs.ai import get_best_move, resolve_ai_settings
    from libs.board import BoardState

    INSTALLED = True
except ImportError:  # --quick plays STAND_IN
    INSTALLED = False

SIZE = 15


def terminal_hard(state: GomokuState) -> Point:
    """gomoku-terminal's hard AI (its board is 20x20 by a class constant: set to ours)."""
    Board.SIZE = SIZE
    board = Board()
    for r, c in zip(*np.nonzero(state.board), strict=True):
        board.place_stone(int(r), int(c), int(state.board[r, c]))  # 1 black, 2 white
    move = GomokuAI("hard").get_move(board, state.to_move + 1)
    assert move is not None
    return int(move[0]), int(move[1])


def bench_hard(state: GomokuState) -> Point:
    """gomokubench's hard level (black is 1, white -1; ``color`` is the last mover's)."""
    values = np.where(state.board == 1, 1, np.where(state.board == 2, -1, 0))
    mover = 1 if state.to_move == 0 else -1
    board = BoardState(SIZE, values=values, color=-mover)
    if state.last_move is not None:
        board.last_move = state.last_move
    settings = resolve_ai_settings("hard")
    move, _ = get_best_move(
        board,
        settings["depth"],
        mover == 1,
        candidate_count=settings["candidate_count"],
        random_top_n=settings["random_top_n"],
    )
    return int(move[0]), int(move[1])


CHOOSERS = {"terminal": terminal_hard, "bench": bench_hard}


def peer(argument: str, seed: int | None) -> bots.Bot:
    """The player of a peer's AI: ``terminal`` or ``bench`` (the arena's ``python:`` spec)."""
    return bots.Bot(CHOOSERS[argument])


PEERS = {
    "gomoku-terminal hard": "python:gomoku_vs_peers:peer:terminal",
    "gomokubench hard": "python:gomoku_vs_peers:peer:bench",
}
STAND_IN = "stand-in: parlour level 1"
OPPONENTS = {**PEERS, STAND_IN: "computer:1"}


def opening(rng: random.Random) -> tuple[str, ...]:
    """Two stones, one each, within two points of the centre (their names)."""
    centre = SIZE // 2
    points = [(centre + dr, centre + dc) for dr in range(-2, 3) for dc in range(-2, 3)]
    state = parlour.game("gomoku", size=SIZE).start()
    names = []
    for point in rng.sample(points, 2):
        names.append(state.move_name(point))
        state = state.play(point)
    return tuple(names)


def lost(row: dict[str, Any]) -> str:
    """A game parlour lost: its side, opening, moves after it and the board at the end."""
    state = parlour.game("gomoku", size=SIZE).parse(row["start"])
    for name in row["moves"].split():
        state = state.play(state.parse_move(name))
    opened, moves = row["opening"], row["moves"].split()[len(row["opening"].split()) :]
    side = "X0"[bots.seat_of(row, 0)]
    return f"  lost as {side}, from {opened}: {' '.join(moves)}\n{state.render()}"


def match(name: str, seed: int, args: argparse.Namespace) -> dict[str, float]:
    """``args.games`` games against the peer ``name`` from the openings of ``seed`` on the
    arena; prints each lost game and the match's line; the match's figures."""
    rng = random.Random(seed)
    clock = "" if args.seconds is None else f"@{args.seconds:g}"
    players = (f"computer:{args.level}{clock}", OPPONENTS[name])
    openings = tuple(opening(rng) for _ in range((args.games + 1) // 2))
    rules = parlour.game("gomoku", size=SIZE)
    plan = Plan("gomoku", dict(rules.options), players, args.games, openings, seed)
    with bots.database(args.db, args.quick) as records:
        match_id, standing = bots.play(records, plan, args.workers, name)
        rows = bots.games(records, match_id)
    for row in rows:
        if row["winner"] is not None and row[f"entrant{row['winner']}"] == 1:
            print(lost(row), flush=True)
    ours, theirs = bots.entrant_seconds(rows)
    figures = {
        "wins": standing.wins,
        "losses": standing.losses,
        "draws": standing.draws,
        "parlour_seconds": float(np.mean(ours)) if ours else 0.0,
        "peer_seconds": float(np.mean(theirs)) if theirs else 0.0,
    }
    reasons = sorted({row["reason"] for row in rows})
    print(
        f"{name}, seed {seed}: parlour level {args.level} wins {standing.wins}, losses "
        f"{standing.losses}, draws {standing.draws} (ended by {', '.join(reasons)}); mean time "
        f"a move: parlour {figures['parlour_seconds']:.3f} s, peer {figures['peer_seconds']:.3f} s",
        flush=True,
    )
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=whole(), default=20, help="games against each peer")
    parser.add_argument("--level", type=whole(), default=DEFAULT_LEVEL)
    parser.add_argument(
        "--seconds", type=duration(), help="parlour's time a move (default: its level's)"
    )
    parser.add_argument("--seed", type=whole(0), default=1)
    parser.add_argument(
        "--seeds", type=whole(), default=1, help="matches from seeds SEED, SEED+1, ... (totals)"
    )
    parser.add_argument("--peer", choices=sorted(OPPONENTS), action="append", help="(default: all)")
    parser.add_argument(
        "--workers", type=whole(1, MAX_PROCESSES), default=1, help="games at a time"
    )
    parser.add_argument("--db", help="the arena's database (default: the user's)")
    quick = {"games": 2, "level": 2, "seconds": 0.2, "peer": None if INSTALLED else [STAND_IN]}
    args = arguments(parser, quick)
    peers = args.peer or list(PEERS)
    if not INSTALLED and set(peers) & set(PEERS):
        parser.error("the peers are not installed: see this script's docstring")
    figures = {}
    for name in peers:
        seeds = range(args.seed, args.seed + args.seeds)
        matches = [match(name, seed, args) for seed in seeds]
        figures[name] = matches
        if len(matches) > 1:
            wins = [m["wins"] for m in matches]
            target = args.games - args.games // 20  # 19 of 20, the target
            reached = sum(w >= target for w in wins)
            print(
                f"{name}, seeds {seeds[0]}-{seeds[-1]}: {sum(wins)} wins of "
                f"{args.games * len(matches)}; {reached} of {len(matches)} matches at "
                f"{target} or more",
                flush=True,
            )
    record(args, figures)


if __name__ == "__main__":
    main()
