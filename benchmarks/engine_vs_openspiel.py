"""parlour's engine against OpenSpiel's bots on OpenSpiel's Kalah rules.

OpenSpiel's ``mancala`` is Kalah with 6 pits and 4 seeds where a capture needs seeds in the
opposite pit: parlour's ``kalah`` with ``empty_capture=false``.  Each opponent plays a
match on the arena (every game through the Referee, recorded in ``--db``: the user's
database by default, a temporary one for ``--quick``), alternating who moves first, at a
time budget per move; the bots are the arena's ``python:engine_vs_openspiel:BOT:SECONDS``
players (``mcts``, ``alphabeta``), parlour's engine ``python:bots:engine``:

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
Besides each match's standing (W-L-D, Elo), it prints the moves of each game parlour did
not win and in how many openings parlour is ahead over both sides, read from the database.
A bot plays every move in OpenSpiel's own state too and compares the boards, so a rule
difference ends the game (the bot crashes) and stops the run.  Run it with
``make bench-openspiel``, or directly:

    .venv/bin/python benchmarks/engine_vs_openspiel.py [--games 20]

(OpenSpiel is the extra ``parlour[openspiel]``, which ``make`` installs.)  ``--quick`` plays
two short games a match.
"""

from __future__ import annotations

import argparse
import random
import time
from functools import cache

import pyspiel
from open_spiel.python.algorithms import minimax as os_minimax

import bots
import parlour
from bots import Bot
from parlour.actors import Moved
from parlour.arena.plan import Plan
from parlour.games.sowing.game import SowingState
from parlour.search.engine import Engine, warm_up
from record import MAX_PROCESSES, arguments, duration, record, whole

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
OPPONENTS = {
    "mcts": "python:engine_vs_openspiel:mcts:{seconds:g}",
    "alphabeta": "python:engine_vs_openspiel:alphabeta:{seconds:g}",
    "random": "random",
}
"""The opponents' player specs (the arena's), at ``seconds`` a move."""


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


class Mirror:
    """OpenSpiel's own state of a game the arena plays, kept move by move from the
    Referee's ``Moved``, the boards compared after each move (a rule difference stops the
    game: the bot crashes, and the script counts it).  The arena starts a game after its
    opening, untold: the first position is found among ``OPENINGS`` (and the start)."""

    def __init__(self, game: pyspiel.Game) -> None:
        self.game = game
        self.state: pyspiel.State | None = None

    def at(self, ours: SowingState) -> pyspiel.State:
        if self.state is None:
            self.state = self.opening(ours)
        return self.state

    def opening(self, ours: SowingState) -> pyspiel.State:
        for book in ([], *OPENINGS):
            state, theirs = start(), self.game.new_initial_state()
            for column in book:
                theirs.apply_action(to_action(state, column))
                state = state.play(column)
            if state.notation() == ours.notation():
                return theirs
        raise ValueError(f"{ours.notation()} follows none of the openings")

    def moved(self, event: Moved) -> None:
        before, after, column = event.before, event.after, event.move
        assert isinstance(before, SowingState) and isinstance(after, SowingState)
        assert isinstance(column, int)
        theirs = self.at(before)
        theirs.apply_action(to_action(before, column))
        # OpenSpiel leaves the last seeds on the board (its returns count them): compare
        # the boards until the end, then the result
        if after.is_over:
            margin = after.scores[0] - after.scores[1]
            assert theirs.returns()[0] == (margin > 0) - (margin < 0), "the results differ"
        else:
            assert same_board(after, theirs), f"rules differ at {after.notation()}"


@cache
def spiel_game() -> pyspiel.Game:
    return pyspiel.load_game("mancala")


def mcts(argument: str, seed: int | None) -> Bot:
    """OpenSpiel's C++ MCTS bot with a random-rollout evaluator (1 rollout, UCT c=2, the
    MCTS-solver on), as many simulations as fit in ``argument`` seconds a move."""
    game, mirror = spiel_game(), Mirror(spiel_game())
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed or 0)
    bot = pyspiel.MCTSBot(
        game,
        evaluator,
        2.0,
        10_000_000,
        1000,
        True,
        seed or 0,
        False,
        pyspiel.ChildSelectionPolicy.UCT,
        float(argument),
    )

    def choose(ours: SowingState) -> int:
        return to_column(ours, bot.mcts_search(mirror.at(ours)).best_child().action)

    return Bot(choose, mirror.moved)


def alphabeta(argument: str, seed: int | None) -> Bot:
    """OpenSpiel's (Python) alpha-beta search on the store difference, deepened one ply at
    a time while the next depth is expected to fit in ``argument`` seconds a move."""
    game, mirror, seconds = spiel_game(), Mirror(spiel_game()), float(argument)

    def choose(ours: SowingState) -> int:
        theirs = mirror.at(ours)
        me = theirs.current_player()

        def value(state: pyspiel.State) -> float:
            holes = board_from_openspiel(state)
            difference = holes[PITS + 1] - holes[0]
            return float(difference if me == 0 else -difference)

        started = time.perf_counter()
        best, depth = None, 0
        while True:
            t0 = time.perf_counter()
            _, best = os_minimax.alpha_beta_search(game, theirs.clone(), value, depth + 1, me)
            last, depth = time.perf_counter() - t0, depth + 1
            # the next depth costs several times the last one: start it only if it fits
            if time.perf_counter() - started + 4 * last > seconds or depth >= 30:
                return to_column(ours, best)

    return Bot(choose, mirror.moved)


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


def match(opponent: str, args: argparse.Namespace) -> dict[str, object]:
    """Two games from each opening of ``OPENINGS`` (as many as ``args.games`` takes),
    parlour first in one and second in the other, against ``opponent``, on the arena;
    prints the games parlour did not win and the totals, and returns them."""
    kind = "learned" if args.learned else "plain"
    players = (
        f"python:bots:engine:{kind}@{args.seconds:g}",
        OPPONENTS[opponent].format(seconds=args.seconds),
    )
    openings = tuple(names(book) for book in OPENINGS[: (args.games + 1) // 2])
    rules = start().game
    plan = Plan("kalah", dict(rules.options), players, 2 * len(openings), openings, args.seed)
    with bots.database(args.db, args.quick) as records:
        match_id, standing = bots.play(records, plan, args.workers, f"parlour against {opponent}")
        rows = bots.games(records, match_id)
    if crashed := [row["detail"] for row in rows if row["reason"] != "rules"]:
        raise SystemExit(f"games ended other than by the rules: {crashed}")
    pair_margins = [0] * len(openings)
    for row in rows:
        margin = bots.margin(row, 0)
        pair_margins[row["pair"]] += margin
        if margin <= 0:
            seat = bots.seat_of(row, 0)
            print(f"  parlour as player {seat}, margin {margin:+d}; moves {row['moves']}")
    print(f"parlour vs OpenSpiel {opponent}: {standing.line()}")
    won_pairs = sum(m > 0 for m in pair_margins)
    print(f"  openings: parlour ahead over both sides in {won_pairs} of {len(pair_margins)}")
    ours, theirs = bots.entrant_seconds(rows)
    return {
        "wins": standing.wins,
        "losses": standing.losses,
        "draws": standing.draws,
        "pair_margins": pair_margins,
        "parlour_seconds": sum(ours) / max(1, len(ours)),
        f"{opponent}_seconds": sum(theirs) / max(1, len(theirs)),
    }


def names(book: list[int]) -> tuple[str, ...]:
    """An opening's moves in the game's notation."""
    state, played = start(), []
    for column in book:
        played.append(state.move_name(column))
        state = state.play(column)
    return tuple(played)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=whole(1, 2 * len(OPENINGS)), default=20, help="two an opening"
    )
    parser.add_argument("--seconds", type=duration(), default=1.0)
    parser.add_argument("--opponents", default="mcts,alphabeta")
    parser.add_argument(
        "--workers", type=whole(1, MAX_PROCESSES), default=1, help="games at a time"
    )
    parser.add_argument("--db", help="the arena's database (default: the user's)")
    parser.add_argument(
        "--learned",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="parlour adds its learned estimate at the horizon (parlour.games.sowing.evaluation)",
    )
    parser.add_argument(
        "--find-openings",
        type=whole(),
        metavar="N",
        help="print N balanced openings (checked by searches of "
        f"{' and '.join(map(str, CHECK_SECONDS))} s) for OPENINGS, and stop",
    )
    parser.add_argument(
        "--seed", type=whole(0), default=0, help="the random stream of --find-openings and the bots"
    )
    parser.add_argument(
        "--check-depth", type=whole(), default=OPENING_DEPTH, help="--find-openings' first search"
    )
    parser.add_argument(
        "--check-seconds",
        type=duration(),
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
    warm_up(start())
    if args.find_openings:
        found = find_openings(args.find_openings, args.seed, args.check_depth, args.check_seconds)
        record(args, {"openings": found})
        return
    print(
        f"{args.games + args.games % 2} games a match, {args.seconds} s a move, sides "
        "alternating" + ("" if args.learned else ", no learned estimate")
    )
    record(args, {name: match(name, args) for name in opponents})


if __name__ == "__main__":
    main()
