"""The perfect level of Kalah against level 8: does it ever give value away?

From every balanced opening of two plies (each player's first move, or the first
player's two where the first earns an extra turn: those whose proven value is within
``--balance`` of a draw), the perfect level plays level 8 from both seats, both at
``--seconds`` a move.  Each of the perfect level's moves is checked against the proven
value of its position (a solver of its own, without a clock): a move whose proven value
is below the position's gave value away (the goal is none).  It prints each game's margin
for the perfect level, the moves checked and those that gave value away, with how much.

    .venv/bin/python benchmarks/perfect.py [--pits 6] [--seeds 3] [--seconds 0.5]
        [--balance 2] [--openings 6] [--quick]
"""

from __future__ import annotations

import argparse
import time
from dataclasses import asdict, dataclass
from typing import cast

import parlour
from parlour.games.sowing.game import LETTERS, SowingState
from parlour.games.sowing.solver import Solver
from parlour.kit import thinker
from parlour.search import PERFECT, Stop
from record import arguments, duration, record, whole

RIVAL = 8
"""The engine's level the perfect level plays."""


def proven(solver: Solver, state: SowingState, side: int) -> int:
    """The final margin of ``side`` from ``state`` with perfect play."""
    if state.is_over:
        mine, theirs = state.scores if side == 0 else state.scores[::-1]
        return mine - theirs
    proof = solver.prove(state, stop=Stop())
    assert proof.exact
    return proof.lower if state.to_move == side else -proof.lower


def openings(start: SowingState, solver: Solver, balance: int) -> list[tuple[int, ...]]:
    """The two-ply openings whose proven value for the first player is within ``balance``
    of a draw, the most balanced first."""
    found = []
    for first in start.legal_moves():
        after = start.play(first)
        for second in [] if after.is_over else after.legal_moves():
            there = after.play(second)
            if not there.is_over:
                value = proven(solver, cast(SowingState, there), start.to_move)
                if abs(value) <= balance:
                    found.append((abs(value), (first, second)))
    return [moves for _, moves in sorted(found)]


def play(
    start: SowingState, moves: tuple[int, ...], perfect_seat: int, seconds: float, judge: Solver
) -> Played:
    """One game from ``moves`` with the perfect level in ``perfect_seat``: its margin, its
    moves checked, and those that gave value away (ply, move, value lost)."""
    state = start
    for move in moves:
        state = cast(SowingState, state.play(move))
    players = {
        perfect_seat: thinker("kalah", PERFECT, seconds),
        1 - perfect_seat: thinker("kalah", RIVAL, seconds),
    }
    for player in players.values():
        player.warm_up(state)
    opened = proven(judge, state, perfect_seat)
    checked, ply, spent = 0, len(moves), 0.0
    lost: list[tuple[int, str, int]] = []
    while not state.is_over:
        mover = state.to_move
        began = time.perf_counter()
        chosen, _ = players[mover].best_move(state, Stop())
        move = cast(int, chosen)
        after = cast(SowingState, state.play(move))
        if mover == perfect_seat:
            spent += time.perf_counter() - began
            checked += 1
            before_value = proven(judge, state, mover)
            after_value = proven(judge, after, mover)
            if after_value < before_value:
                lost.append((ply, LETTERS[move], before_value - after_value))
        state, ply = after, ply + 1
    mine, theirs = state.scores if perfect_seat == 0 else state.scores[::-1]
    opening = " ".join(LETTERS[m] for m in moves)
    seconds = spent / max(checked, 1)
    return Played(opening, perfect_seat, opened, mine - theirs, checked, lost, seconds)


@dataclass
class Played:
    """A game's figures: the opening's proven value and the final margin for the perfect
    level, its moves checked, those that gave value away (ply, move, value lost), and its
    mean seconds a move.  A perfect level's margin is at least the opening's value."""

    opening: str
    perfect_seat: int
    opening_value: int
    margin: int
    moves_checked: int
    moves_losing_value: list[tuple[int, str, int]]
    seconds_a_move: float


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pits", type=whole(), default=6, help="pits a side")
    parser.add_argument("--seeds", type=whole(), default=3, help="seeds a pit")
    parser.add_argument("--seconds", type=duration(), default=0.5, help="seconds a move, each side")
    parser.add_argument("--balance", type=whole(0), default=2, help="an opening's largest |value|")
    parser.add_argument("--openings", type=whole(), default=6, help="openings played, each twice")
    args = arguments(parser, quick={"pits": 4, "seeds": 2, "seconds": 0.1, "openings": 1})
    start = cast(SowingState, parlour.game("kalah", pits=args.pits, seeds=args.seeds).start())
    judge = Solver(bits=22)
    chosen = openings(start, judge, args.balance)[: args.openings]
    games = []
    for moves in chosen:
        for seat in (0, 1):
            games.append(play(start, moves, seat, args.seconds, judge))
            game = games[-1]
            print(
                f"opening {game.opening}, perfect level in seat {seat}: proven "
                f"{game.opening_value:+d}, margin {game.margin:+d}, {game.moves_checked} moves "
                "checked "
                f"({game.seconds_a_move:.2f} s each), value given away: "
                f"{game.moves_losing_value or 'never'}",
                flush=True,
            )
    away = sum(len(game.moves_losing_value) for game in games)
    checked = sum(game.moves_checked for game in games)
    print(f"{len(games)} games, {checked} moves checked, {away} gave value away")
    figures = {"games": [asdict(game) for game in games], "moves_checked": checked}
    record(args, {**figures, "moves_losing_value": away})


if __name__ == "__main__":
    main()
