"""What a solver says of a position and of its moves: bounds for either side, and a
position solved with a perfect line."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass

from parlour.games.sowing import game as sowing
from parlour.games.sowing.solver.known import Known
from parlour.games.sowing.solver.prover import DEEPENING, Proof, Solver
from parlour.search import Stop


@dataclass(frozen=True)
class Solution:
    """A position solved (or as far as time allowed): the root's proof, a perfect line
    (as far as it is proven), and each first move's bounds for the side to move."""

    proof: Proof
    line: tuple[int, ...]
    moves: dict[int, tuple[int, int]]
    nodes: int
    seconds: float


def mover_bounds(
    solver: Solver, state: sowing.SowingState, move: int, stop: Stop, guess: int | None = None
) -> tuple[int, int]:
    """What ``move`` is worth to ``state``'s side to move: bounds (one value once proven)."""
    return bounds_for(solver, state.play(move), state.to_move, stop, guess)


def bounds_for(
    solver: Solver, state: sowing.SowingState, side: int, stop: Stop, guess: int | None = None
) -> tuple[int, int]:
    """What ``state`` is worth to ``side`` (``guess`` a first guess of it): bounds (one
    value once proven)."""
    if state.is_over:
        margin = state.scores[side] - state.scores[1 - side]
        return margin, margin
    same = state.to_move == side
    proof = solver.prove(state, guess if guess is None or same else -guess, stop)
    return (proof.lower, proof.upper) if same else (-proof.upper, -proof.lower)


def mover_held(solver: Solver, state: sowing.SowingState, move: int) -> tuple[int, int] | None:
    """What ``move`` is worth to ``state``'s side to move by what ``solver`` already holds
    (``Solver.held``: no search), or None if it holds nothing of it."""
    after = state.play(move)
    held = solver.held(after)
    if held is None or after.to_move == state.to_move:
        return held
    return -held[1], -held[0]


def mover_reaches(
    solver: Solver, state: sowing.SowingState, move: int, target: int, stop: Stop
) -> bool | None:
    """Whether ``move`` is worth at least ``target`` to ``state``'s side to move (None if
    ``stop`` comes before the answer)."""
    after, side = state.play(move), state.to_move
    if after.is_over:
        return after.scores[side] - after.scores[1 - side] >= target
    if after.to_move == side:
        return solver.reaches(after, target, stop)
    theirs = solver.reaches(after, 1 - target, stop)  # they reach more than -target
    return None if theirs is None else not theirs


def least(state: sowing.SowingState) -> int:
    """What ``state`` is worth at the least to its side to move: its store difference if
    every seed left in the pits went to the other side (a bound no proof needs)."""
    side = state.to_move
    left = state.game.total_seeds - state.scores[0] - state.scores[1]
    return state.scores[side] - state.scores[1 - side] - left


@functools.cache
def _reviewer() -> Solver:
    """The solver of reviews and hints, its tables kept from position to position and the
    positions it proves kept on disk (``Known``)."""
    return Solver(bits=20, known=Known())


def proven(state: sowing.SowingState, stop: Stop) -> int | None:
    """``state``'s value to its side to move if proven before ``stop`` (else None)."""
    solver = _reviewer()
    proof = solver.prove(state, stop=stop)
    if solver.known is not None:
        solver.known.save()
    return proof.lower if proof.exact else None


def solve(
    state: sowing.SowingState,
    solver: Solver,
    stop: Stop,
    tell: Callable[[str], None] = lambda _: None,
) -> Solution:
    """Prove ``state``'s value, then each first move's, then follow proven moves to the
    end for a perfect line; whatever ``stop`` cuts short stays a bound.  ``tell`` hears
    the words of each step as it begins (a proof may take minutes: a display says them);
    the nodes counted are those of every proof made."""
    began, searched = time.perf_counter(), solver.searched

    def deepened(depth: int, lower: int, upper: int) -> None:
        ahead = "to the end" if depth >= DEEPENING else f"{depth + 1} plies deep"
        tell(f"proving the position: [{lower:+d},{upper:+d}] proven, searching {ahead}")

    tell("proving the position")
    proof = solver.prove(state, stop=stop, on_depth=deepened)
    moves = {}
    legal = [int(move) for move in state.legal_moves()]
    for i, move in enumerate(legal):
        tell(f"the value of each first move: {sowing.LETTERS[move]} ({i + 1} of {len(legal)})")
        moves[move] = mover_bounds(solver, state, move, stop, proof.lower)
    line: list[int] = []
    here, value = state, proof.lower
    while proof.exact and not here.is_over and not stop.is_set:
        tell(f"a perfect line: {len(line)} moves proven")
        step = solver.prove(here, value, stop)
        if not step.exact:
            break
        line.append(step.move)
        after = here.play(step.move)
        value = step.lower if after.to_move == here.to_move else -step.lower
        here = after
    nodes = solver.searched - searched
    return Solution(proof, tuple(line), moves, nodes, time.perf_counter() - began)
