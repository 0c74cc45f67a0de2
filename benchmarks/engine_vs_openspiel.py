"""parlour's engine against OpenSpiel's bots on OpenSpiel's Kalah rules.

OpenSpiel's ``mancala`` is Kalah with 6 pits and 4 seeds where a capture needs seeds in the
opposite pit: parlour's ``kalah`` with ``empty_capture=false``.  Both sides play from the
start, alternating who moves first, at a time budget per move:

* OpenSpiel's C++ MCTS bot with a random-rollout evaluator (1 rollout, UCT c=2, the
  MCTS-solver on), given as many simulations as fit in the budget (its wall-clock limit);
* OpenSpiel's (Python) alpha-beta search on the store difference, deepened one ply at a
  time while the next depth is expected to fit in the budget (it takes the deepest
  finished depth).

Each pair of games starts from the same opening of four plies (``OPENINGS``), played once
from each side.  The openings are random plies that an engine search of 20 plies, then
one of 30 s and one of 120 s (the endgame table's exact values at the leaves) value level
(0) for either side, so that no pair starts lopsided (``--find-openings N --seed S`` finds
more: a few minutes each on one core).  Each longer check is there because the shorter
ones had let in openings it found lopsided (the find-openings records in
``benchmarks/results/engine_vs_openspiel.jsonl``); the games take the list as checked.
Besides the games (with the moves of each one parlour did not win), it prints each pair's
total margin (both sides of one opening).
Every move is played in both engines' states and the boards are compared, so a rule
difference would stop the run.  Run it with ``make bench-openspiel``, or directly:

    .venv/bin/python benchmarks/engine_vs_openspiel.py [--games 20]

(OpenSpiel is the extra ``parlour[openspiel]``, which ``make`` installs.)  ``--quick`` plays
two short games a match.
"""

from __future__ import annotations

import argparse
import itertools
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypedDict

import pyspiel
from open_spiel.python.algorithms import minimax as os_minimax

import parlour
from parlour.games.sowing import SowingState
from parlour.search.engine import Engine, warm_up
from record import arguments, record

PITS = 6
OPENING_PLIES = 4
OPENING_DEPTH = 20
OPENING_MARGIN = 0
CHECK_SECONDS = (30.0, 120.0)
"""The searches that check an opening after the 20-ply one, in turn."""
OPENINGS = [  # from --find-openings (their values and depths are in its records)
    [3, 5, 0, 2],
    [0, 4, 2, 1],
    [3, 2, 2, 1],
    [4, 4, 0, 2],
    [2, 0, 5, 2],
    [3, 1, 1, 4],
    [2, 4, 1, 5],
    [2, 1, 3, 1],
    [0, 4, 3, 1],
    [5, 3, 3, 4],
]
OPPONENTS = ("mcts", "alphabeta", "random")


def to_action(state: SowingState, column: int) -> int:
    """OpenSpiel's action for sowing ``column``: its board is player 1's store, player 0's
    pits 1..6, player 0's store, then player 1's pits in sowing order (8 is column F)."""
    return 1 + column if state.to_move == 0 else 2 * PITS + 1 - column


def to_column(state: SowingState, action: int) -> int:
    return action - 1 if state.to_move == 0 else 2 * PITS + 1 - action


def same_board(ours: SowingState, theirs: pyspiel.State) -> bool:
    holes = board_from_openspiel(theirs)
    row0 = holes[1 : PITS + 1]
    row1 = [holes[2 * PITS + 1 - c] for c in range(PITS)]
    stores = (holes[PITS + 1], holes[0])
    return list(ours.row(0)) == row0 and list(ours.row(1)) == row1 and ours.scores == stores


def board_from_openspiel(state: pyspiel.State) -> list[int]:
    """The 14 holes in OpenSpiel's order (the first entries of its observation)."""
    return [int(v) for v in state.observation_tensor(0)[: 2 * PITS + 2]]


@dataclass
class Side:
    """A player's tally: moves made, work done (nodes or simulations) and time spent."""

    name: str
    unit: str
    work: int = 0
    seconds: float = 0.0
    depths: list[int] = field(default_factory=list)

    def rate(self) -> str:
        per_second = self.work / self.seconds if self.seconds else 0.0
        return f"{per_second:,.0f} {self.unit}/s"


class EngineOptions(TypedDict):
    """parlour's engine as the command line sets it."""

    threads: int
    learned: bool


def parlour_mover(
    seconds: float, side: Side, options: EngineOptions
) -> Callable[[SowingState, pyspiel.State], int]:
    engine = Engine(table_bits=22, **options)

    def move(ours: SowingState, theirs: pyspiel.State) -> int:
        result = engine.search(ours, seconds=seconds)
        side.work += result.nodes
        side.seconds += result.seconds
        side.depths.append(result.depth)
        return result.move

    return move


def mcts_mover(
    game: pyspiel.Game, seconds: float, seed: int, side: Side
) -> Callable[[SowingState, pyspiel.State], int]:
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    bot = pyspiel.MCTSBot(
        game,
        evaluator,
        2.0,
        10_000_000,
        1000,
        True,
        seed,
        False,
        pyspiel.ChildSelectionPolicy.UCT,
        seconds,
    )

    def move(ours: SowingState, theirs: pyspiel.State) -> int:
        started = time.perf_counter()
        root = bot.mcts_search(theirs)
        side.seconds += time.perf_counter() - started
        side.work += root.explore_count
        return to_column(ours, root.best_child().action)

    return move


def alphabeta_mover(
    game: pyspiel.Game, seconds: float, side: Side
) -> Callable[[SowingState, pyspiel.State], int]:
    def move(ours: SowingState, theirs: pyspiel.State) -> int:
        me = theirs.current_player()
        calls = [0]

        def value(state: pyspiel.State) -> float:
            calls[0] += 1
            holes = board_from_openspiel(state)
            difference = holes[PITS + 1] - holes[0]
            return float(difference if me == 0 else -difference)

        started = time.perf_counter()
        best, depth, last = None, 0, 0.0
        while True:
            t0 = time.perf_counter()
            _, action = os_minimax.alpha_beta_search(game, theirs.clone(), value, depth + 1, me)
            last = time.perf_counter() - t0
            best, depth = action, depth + 1
            spent = time.perf_counter() - started
            # the next depth costs several times the last one: start it only if it fits
            if spent + 4 * last > seconds or depth >= 30:
                break
        side.seconds += time.perf_counter() - started
        side.work += calls[0]
        side.depths.append(depth)
        return to_column(ours, best)

    return move


def random_mover(seed: int, side: Side) -> Callable[[SowingState, pyspiel.State], int]:
    """A random legal move, from the random stream ``seed``."""
    rng = random.Random(seed)

    def move(ours: SowingState, theirs: pyspiel.State) -> int:
        started = time.perf_counter()
        column = rng.choice(ours.legal_moves())
        side.seconds += time.perf_counter() - started
        side.work += 1
        return column

    return move


def start() -> SowingState:
    """The start of OpenSpiel's Kalah in parlour."""
    state = parlour.game("kalah", empty_capture=False).start()
    assert isinstance(state, SowingState)
    return state


def find_openings(
    count: int, seed: int, depth: int, checks: list[float]
) -> list[dict[str, object]]:
    """``count`` different openings of ``OPENING_PLIES`` random plies (from the random
    stream ``seed``) that leave a balanced position, so that a pair of games starts fair
    whichever side parlour takes: an engine search of ``depth`` plies values it within
    ``OPENING_MARGIN`` seeds (level), and then each search of ``checks`` seconds does too.
    Each is printed with its value as it is found; their moves, values and depths."""
    rng = random.Random(seed)
    seen: list[list[int]] = []
    found: list[dict[str, object]] = []
    while len(seen) < count:
        state = start()
        moves: list[int] = []
        for _ in range(OPENING_PLIES):
            if state.is_over:
                break
            moves.append(rng.choice(state.legal_moves()))
            state = state.play(moves[-1])
        if state.is_over or moves in seen:
            continue
        deep = Engine().search(state, depth=depth)
        if abs(deep.value) > OPENING_MARGIN:
            continue
        for seconds in checks:  # the longer checks only for what passed the shorter
            deep = Engine().search(state, seconds=seconds)
            if abs(deep.value) > OPENING_MARGIN:
                break
        else:
            seen.append(moves)
            found.append({"moves": moves, "value": deep.value, "depth": deep.depth})
            print(f"    {moves},  # {deep.value:+d} at {deep.depth} plies", flush=True)
    return found


def play_game(
    movers: tuple[Callable[..., int], Callable[..., int]], game: pyspiel.Game, book: list[int]
) -> tuple[tuple[int, int], str]:
    """Play one game from the opening ``book`` (both bots are deterministic: without
    openings every game of a seat would be the same); the final stores (player 0, 1) and
    the moves (named as ``parlour play`` names them)."""
    ours = start()
    theirs = game.new_initial_state()
    played: list[str] = []
    for ply in itertools.count():
        if ours.is_over:
            break
        column = book[ply] if ply < len(book) else movers[ours.to_move](ours, theirs)
        theirs.apply_action(to_action(ours, column))
        played.append(ours.move_name(column))
        ours = ours.play(column)
        # OpenSpiel leaves the last seeds on the board (its returns count them): compare
        # the boards until the end, then the result
        assert ours.is_over or same_board(ours, theirs), f"rules differ at {ours.notation()}"
    assert theirs.is_terminal()
    margin = ours.scores[0] - ours.scores[1]
    assert theirs.returns()[0] == (margin > 0) - (margin < 0), "the results differ"
    return ours.scores, " ".join(played)


def match(
    opponent: str,
    books: list[list[int]],
    seconds: float,
    game: pyspiel.Game,
    options: EngineOptions,
) -> dict[str, object]:
    """Two games from each opening of ``books``, parlour first in one and second in the
    other, against ``opponent``; prints each game and the totals, and returns them."""
    ours, theirs = Side("parlour", "nodes"), Side(opponent, "")
    wins = losses = draws = 0
    pair_margins: list[int] = []
    for number in range(2 * len(books)):
        if opponent == "mcts":
            theirs.unit = "simulations"
            other = mcts_mover(game, seconds, seed=number, side=theirs)
        elif opponent == "alphabeta":
            theirs.unit = "leaf evaluations"
            other = alphabeta_mover(game, seconds, theirs)
        else:
            theirs.unit = "moves"
            other = random_mover(number, theirs)
        mine = parlour_mover(seconds, ours, options)
        seat = number % 2  # parlour moves first in even games
        movers = (mine, other) if seat == 0 else (other, mine)
        scores, moves = play_game(movers, game, books[number // 2])  # each opening, both sides
        margin = scores[seat] - scores[1 - seat]
        wins += margin > 0
        losses += margin < 0
        draws += margin == 0
        if seat == 0:
            pair_margins.append(margin)
        else:
            pair_margins[-1] += margin
        print(
            f"  game {number + 1:>2}: parlour as player {seat}, "
            f"stores {scores[0]}-{scores[1]}, margin {margin:+d}"
            + (f"; moves {moves}" if margin <= 0 else ""),
            flush=True,
        )
    print(f"parlour vs OpenSpiel {opponent}: {wins} wins, {losses} losses, {draws} draws")
    won_pairs = sum(m > 0 for m in pair_margins)
    print(f"  openings: parlour ahead over both sides in {won_pairs} of {len(pair_margins)}")
    print(f"  parlour  {ours.rate()}, depths {min(ours.depths)}-{max(ours.depths)}")
    depths = f", depths {min(theirs.depths)}-{max(theirs.depths)}" if theirs.depths else ""
    print(f"  {opponent:<8} {theirs.rate()}{depths}", flush=True)
    return {
        "wins": wins,
        "losses": losses,
        "draws": draws,
        "pair_margins": pair_margins,
        "parlour_nodes": ours.work,
        "parlour_depths": [min(ours.depths), max(ours.depths)],
        f"{opponent}_{theirs.unit.replace(' ', '_')}": theirs.work,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--opponents", default="mcts,alphabeta")
    parser.add_argument(
        "--threads", type=int, default=1, help="parlour's search threads (OpenSpiel's use one)"
    )
    parser.add_argument(
        "--learned",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="parlour adds its learned estimate at the horizon (parlour.search.evaluation)",
    )
    parser.add_argument(
        "--find-openings",
        type=int,
        metavar="N",
        help="print N balanced openings (checked by searches of "
        f"{' and '.join(map(str, CHECK_SECONDS))} s) for OPENINGS, and stop",
    )
    parser.add_argument("--seed", type=int, default=0, help="the random stream of --find-openings")
    parser.add_argument(
        "--check-depth", type=int, default=OPENING_DEPTH, help="--find-openings' first search"
    )
    parser.add_argument(
        "--check-seconds",
        type=float,
        nargs="*",
        default=list(CHECK_SECONDS),
        help="--find-openings' searches after the first, in turn",
    )
    quick = {"games": 2, "seconds": 0.05, "check_depth": 6, "check_seconds": [0.05]}
    quick["opponents"] = ",".join(OPPONENTS)
    args = arguments(parser, quick)
    opponents = args.opponents.split(",")
    if unknown := set(opponents) - set(OPPONENTS):
        parser.error(
            f"--opponents: no {', '.join(sorted(unknown))} (one of {', '.join(OPPONENTS)})"
        )
    game = pyspiel.load_game("mancala")
    warm_up(start())
    if args.find_openings:
        found = find_openings(args.find_openings, args.seed, args.check_depth, args.check_seconds)
        record(args, {"openings": found})
        return
    if args.games > 2 * len(OPENINGS):
        parser.error(f"--games: at most {2 * len(OPENINGS)}, two games an opening")
    books = OPENINGS[: (args.games + 1) // 2]
    print(
        f"{2 * len(books)} games a match, {args.seconds} s a move, sides alternating, "
        f"parlour on {args.threads} thread(s)" + ("" if args.learned else ", no learned estimate")
    )
    options: EngineOptions = {"threads": args.threads, "learned": args.learned}
    record(args, {name: match(name, books, args.seconds, game, options) for name in opponents})


if __name__ == "__main__":
    main()
