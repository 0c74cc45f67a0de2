"""The seed's computer levels: plain minimax at a fixed depth (seed 001, RULES.md section 1).

Level N looks N moves deep, where a move is one ply: an extra turn is a move of the same
player, so whether a node maximises or minimises is decided by the side to move there,
not by alternation.  Leaves (depth reached or game over) are valued by the root player's
score minus the opponent's (``state.scores``; at a game's end, the final scores).  Among
equally valued moves the first in ``legal_moves()`` order is chosen.

Generic over any :class:`~parlour.core.State`; the search issue brings the fast engines.
"""

from __future__ import annotations

from parlour.core import Move, State


def evaluate(state: State, player: int) -> int:
    """``player``'s score minus the opponent's."""
    scores = state.scores
    return scores[player] - scores[1 - player]


def minimax(state: State, depth: int, player: int) -> int:
    """The value of ``state`` for ``player`` searched ``depth`` plies deep."""
    if depth == 0 or state.is_over:
        return evaluate(state, player)
    values = (minimax(child, depth - 1, player) for _, child in state.children())
    return max(values) if state.to_move == player else min(values)


def best_move(state: State, depth: int) -> tuple[Move, int]:
    """The side to move's best move at ``depth`` plies (depth >= 1) and its value."""
    if depth < 1:
        raise ValueError(f"the search depth must be 1 or more, not {depth}")
    if state.is_over:
        raise ValueError("the game is over: there is no move to choose")
    player = state.to_move
    best: tuple[Move, int] | None = None
    for move, child in state.children():
        value = minimax(child, depth - 1, player)
        if best is None or value > best[1]:  # strict: ties keep the earlier move
            best = (move, value)
    assert best is not None  # a state that is not over has a legal move
    return best


class SeedLevel:
    """The seed's computer at ``level``: minimax ``level`` plies deep (a few milliseconds
    in the games it plays, so a stop is not waited for)."""

    def __init__(self, level: int) -> None:
        if level < 1:
            raise ValueError(f"the search depth must be 1 or more, not {level}")
        self.level = level

    def best_move(self, state: State, stop: object = None) -> tuple[Move, int]:
        return best_move(state, self.level)

    def warm_up(self, state: State) -> None:
        """Nothing to prepare: plain Python over the game's states."""
