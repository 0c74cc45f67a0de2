"""parlour's five-in-a-row opponent against the 'hard' AIs of two PyPI packages, on 15x15.

* gomoku-terminal's ``GomokuAI("hard")``: threat checks, then minimax 2-3 plies over the
  20 best-looking points near the stones;
* gomokubench's ``hard`` level: minimax 3 plies over its 12 best-looking moves.

Each pair of games starts from the same random two stones near the centre (one each) and
is played once from each side, so colours alternate; both then play to the end (five or a
full board).  parlour plays at its default level on a clock set before each move from the
peer's mean time a move so far in the match (see ``Tally.budget``; never more than the
level's own time), so that parlour's mean time a move stays within the peer's.  The peers
go into their own environment, never into parlour's dependencies:

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
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

import parlour
from parlour.games.gomoku import GomokuState, Point
from parlour.players.specs import DEFAULT_LEVEL
from parlour.search import Stop
from parlour.search.gomoku import LEVELS, Thinker, search
from record import arguments, record

try:
    from gomoku.ai import GomokuAI
    from gomoku.board import Board
    from libs.ai import get_best_move, resolve_ai_settings
    from libs.board import BoardState

    INSTALLED = True
except ImportError:  # --quick plays STAND_IN
    INSTALLED = False

SIZE = 15
SHARE = 0.95
Peer = Callable[[GomokuState], Point]


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


def parlour_greedy(state: GomokuState) -> Point:
    """parlour's level 1 (greedy): ``--quick``'s peer where the peers are not installed."""
    return search(state, 1).move


PEERS: dict[str, Peer] = {"gomoku-terminal hard": terminal_hard, "gomokubench hard": bench_hard}
STAND_IN = "stand-in: parlour level 1"
OPPONENTS = {**PEERS, STAND_IN: parlour_greedy}


@dataclass
class Tally:
    wins: int = 0
    losses: int = 0
    draws: int = 0
    ours: list[float] = field(default_factory=list)
    theirs: list[float] = field(default_factory=list)

    def mean(self, times: list[float]) -> float:
        return sum(times) / len(times) if times else 0.0

    def figures(self) -> dict[str, float]:
        """The match's result and mean times a move, for its record."""
        return {
            "wins": self.wins,
            "losses": self.losses,
            "draws": self.draws,
            "parlour_seconds": self.mean(self.ours),
            "peer_seconds": self.mean(self.theirs),
        }

    def budget(self) -> float:
        """parlour's time for its next move: the peer's mean time a move so far in the
        match, less a little, corrected by a quarter of what parlour is ahead or behind
        the peer's total: every move gets about the peer's average (the peer thinks less
        in the opening than later), and parlour's mean stays within the peer's."""
        bank = sum(self.theirs) - sum(self.ours)
        return max(0.01, SHARE * self.mean(self.theirs) + bank / 4)


def opening(rng: random.Random) -> list[Point]:
    """Two stones, one each, within two points of the centre."""
    centre = SIZE // 2
    points = [(centre + dr, centre + dc) for dr in range(-2, 3) for dc in range(-2, 3)]
    return rng.sample(points, 2)


def play(peer: Peer, parlour_plays: int, start: list[Point], tally: Tally, level: int) -> None:
    state = parlour.game("gomoku", size=SIZE).start()
    assert isinstance(state, GomokuState)
    for move in start:
        state = state.play(move)
    played: list[str] = []
    thinker = Thinker(level)  # one for the game, as a player keeps it
    while not state.is_over:
        started = time.perf_counter()
        if state.to_move == parlour_plays:
            thinker.seconds = min(LEVELS[level].seconds, tally.budget())
            move = thinker.best_move(state, Stop())[0]
            tally.ours.append(time.perf_counter() - started)
        else:
            move = peer(state)
            tally.theirs.append(time.perf_counter() - started)
        played.append(state.move_name(move))
        state = state.play(move)
    if state.winner is None:
        tally.draws += 1
    elif state.winner == parlour_plays:
        tally.wins += 1
    else:
        tally.losses += 1
        opened = " ".join(state.move_name(p) for p in start)
        print(
            f"  lost as {'X0'[parlour_plays]}, from {opened}: {' '.join(played)}\n{state.render()}",
            flush=True,
        )


def match(name: str, seed: int, games: int, level: int) -> Tally:
    """``games`` games against the peer ``name`` from the openings of ``seed``; prints
    each game's running score, each lost game and the match's line."""
    rng = random.Random(seed)
    tally = Tally()
    for game in range(games):
        if game % 2 == 0:
            start = opening(rng)
        play(OPPONENTS[name], game % 2, start, tally, level)
        print(f"  game {game + 1}: {tally.wins}-{tally.losses}-{tally.draws}", flush=True)
    print(
        f"{name}, seed {seed}: parlour level {level} wins {tally.wins}, losses "
        f"{tally.losses}, draws {tally.draws}; mean time a move: parlour "
        f"{tally.mean(tally.ours):.3f} s, peer {tally.mean(tally.theirs):.3f} s",
        flush=True,
    )
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games against each peer")
    parser.add_argument("--level", type=int, default=DEFAULT_LEVEL)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--seeds", type=int, default=1, help="matches from seeds SEED, SEED+1, ... (totals)"
    )
    parser.add_argument("--peer", choices=sorted(OPPONENTS), action="append", help="(default: all)")
    quick = {"games": 2, "level": 2, "peer": None if INSTALLED else [STAND_IN]}
    args = arguments(parser, quick)
    peers = args.peer or list(PEERS)
    if not INSTALLED and set(peers) & set(PEERS):
        parser.error("the peers are not installed: see this script's docstring")
    warm = parlour.game("gomoku").start().play((7, 7))
    assert isinstance(warm, GomokuState)
    search(warm, args.level, seconds=0.1)  # compile
    figures = {}
    for name in peers:
        seeds = range(args.seed, args.seed + args.seeds)
        tallies = [match(name, seed, args.games, args.level) for seed in seeds]
        figures[name] = [tally.figures() for tally in tallies]
        if len(tallies) > 1:
            wins = [t.wins for t in tallies]
            target = args.games - args.games // 20  # 19 of 20, the target
            reached = sum(w >= target for w in wins)
            print(
                f"{name}, seeds {seeds[0]}-{seeds[-1]}: {sum(wins)} wins of "
                f"{args.games * len(tallies)}; {reached} of {len(tallies)} matches at "
                f"{target} or more",
                flush=True,
            )
    record(args, figures)


if __name__ == "__main__":
    main()
