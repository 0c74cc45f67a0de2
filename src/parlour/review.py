"""A finished game reviewed: each move's value against the best move's, in the game's
units, exact where the game's kit proves the position (its solver) and the engine's
estimate where it does not, each move graded by what it lost, and the moment the game
was decided.

The review values each position of the game once, for its side to move: a move's value
to its mover is the next position's (negated where the turn passes), and what it lost is
the position's value less that.  The game is decided after the last move that changed
its outcome with perfect play from there (a win, a draw or a loss for the first side).
It reaches a game only through its kit (``parlour.kit``): the web's replay and
``parlour review`` use it alike.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from parlour.core import BadOption, Move, State
from parlour.kit import kit_of
from parlour.search import Stop
from parlour.search.limit import Limit

GRADES = ((0, "best"), (1, "inaccuracy"), (3, "mistake"), (6, "blunder"))
"""Each grade and the least a move of it lost against the best move (seeds, tokens)."""
PROOF_SECONDS = 2.0
"""The time a position's proof takes at most before the engine values it instead."""
ENGINE_SECONDS = 1.0
"""The engine's time on a position its kit does not prove."""


@dataclass(frozen=True)
class Value:
    """A position's value to its side to move, and whether it is exact (proven, or the
    game's end) rather than the engine's estimate."""

    value: int
    exact: bool


@dataclass(frozen=True)
class Graded:
    """A move of the game: who played it, its value to them and the best move's (the
    position's value), what it lost, its grade, and whether both values are exact."""

    ply: int
    mover: int
    move: Move
    name: str
    value: int
    best: int
    lost: int
    grade: str
    exact: bool


@dataclass(frozen=True)
class Review:
    """The graded moves, and how many moves in the game was decided (0: from the start;
    None where the values along the way do not say, as where a value is an estimate)."""

    moves: tuple[Graded, ...]
    decided: int | None


Valuer = Callable[[State], Value]


def grade(lost: int) -> str:
    """The grade of a move that lost ``lost`` against the best."""
    return [name for least, name in GRADES if lost >= least][-1]


def review(states: Sequence[State], moves: Sequence[Move], valuer: Valuer) -> Review:
    """The review of the game that went through ``states`` by ``moves`` (one fewer),
    valuing each position by ``valuer``."""
    if len(states) != len(moves) + 1:
        raise ValueError("a game's positions are one more than its moves")
    values = [valuer(state) for state in states]
    graded = []
    for ply, (move, before, after) in enumerate(zip(moves, states[:-1], states[1:], strict=True)):
        mover = before.to_move
        now = values[ply + 1].value
        value = now if after.is_over or after.to_move == mover else -now
        best = max(values[ply].value, value)  # an estimate may rank a move above its best
        exact = values[ply].exact and values[ply + 1].exact
        lost = best - value
        graded.append(
            Graded(ply, mover, move, before.move_name(move), value, best, lost, grade(lost), exact)
        )
    return Review(tuple(graded), _decided(states, values))


def _decided(states: Sequence[State], values: Sequence[Value]) -> int | None:
    """The moves after which the outcome with perfect play (for the first side) stayed
    what it was at the end; None unless every value from there on is exact."""
    pairs = zip(states, values, strict=True)
    outcomes = [_sign(_first_sides(state, value.value)) for state, value in pairs]
    at = len(states) - 1
    while at > 0 and outcomes[at - 1] == outcomes[-1]:
        at -= 1
    return at if all(value.exact for value in values[at:]) else None


def _first_sides(state: State, value: int) -> int:
    """``value`` (to ``state``'s side to move) to the first side; at the end, its margin."""
    if state.is_over:
        return state.scores[0] - state.scores[1]
    return value if state.to_move == 0 else -value


def _sign(n: int) -> int:
    return (n > 0) - (n < 0)


def kit_valuer(stop: Stop, proof_seconds: float = PROOF_SECONDS) -> Valuer:
    """The game's own values of its positions: its kit's proof where it has a solver that
    proves the position within ``proof_seconds``, else its engine's estimate; BadOption
    for a game with neither."""

    def value(state: State) -> Value:
        if state.is_over:
            return Value(state.scores[state.to_move] - state.scores[1 - state.to_move], True)
        kit = kit_of(state.game)
        with stop.until(proof_seconds) as clock:
            proven = kit.prove(state, clock)
        if proven is not None:
            return Value(proven, True)
        if not kit.analyses:
            raise BadOption(f"{state.game.name} has no engine to review a game with")
        found = kit.analyze(state, Limit(seconds=ENGINE_SECONDS), None, stop)
        return Value(found.value, found.exact)

    return value
