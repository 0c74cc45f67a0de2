"""The seed's computer levels: plain minimax at a fixed depth (seed 001, RULES.md section 1).

Level N looks N moves deep, where a move is one ply: an extra turn is a move of the same
player, so whether a node maximises or minimises is decided by the side to move there,
not by alternation.  Leaves (depth reached or game over) are valued by the root player's
score minus the opponent's (``state.scores``; at a game's end, the final scores).  Among
equally valued moves the first in ``legal_moves()`` order is chosen.

Generic over any :class:`~parlour.core.State`; the search issue brings the fast engines.
"""

from __future__ import annotations

import time

from parlour.core import Move, State
from parlour.search import NO_LIMIT, SearchResult, Stop
from parlour.search.limit import Limit


class Stopped(Exception):
    """A search on a :class:`Watch` was stopped."""


class Watch:
    """What a stoppable minimax looks at each node: the nodes so far and a stop, which
    ends the search (:class:`Stopped`) once set."""

    def __init__(self, stop: Stop) -> None:
        self.stop = stop
        self.nodes = 0

    def tick(self) -> None:
        self.nodes += 1
        if self.stop.is_set:
            raise Stopped


def evaluate(state: State, player: int) -> int:
    """``player``'s score minus the opponent's."""
    scores = state.scores
    return scores[player] - scores[1 - player]


def minimax(state: State, depth: int, player: int, watch: Watch | None = None) -> int:
    """The value of ``state`` for ``player`` searched ``depth`` plies deep (each node
    counted and the search stopped by ``watch``, where given)."""
    if watch is not None:
        watch.tick()
    if depth == 0 or state.is_over:
        return evaluate(state, player)
    values = (minimax(child, depth - 1, player, watch) for _, child in state.children())
    return max(values) if state.to_move == player else min(values)


def best_move(state: State, depth: int, watch: Watch | None = None) -> tuple[Move, int]:
    """The side to move's best move at ``depth`` plies (depth >= 1) and its value."""
    if depth < 1:
        raise ValueError(f"the search depth must be 1 or more, not {depth}")
    if state.is_over:
        raise ValueError("the game is over: there is no move to choose")
    player = state.to_move
    best: tuple[Move, int] | None = None
    for move, child in state.children():
        value = minimax(child, depth - 1, player, watch)
        if best is None or value > best[1]:  # strict: ties keep the earlier move
            best = (move, value)
    assert best is not None  # a state that is not over has a legal move
    return best


class SeedLevel:
    """The seed's computer at ``level``: minimax ``level`` plies deep, exactly.  Under a
    :class:`Limit` or a stop it deepens a ply at a time (1 first, which always finishes)
    and answers with the last depth it finished: the level's own move when nothing stops
    it, a shallower one when the limit's depth, its node count (the first depth that
    reaches it) or time comes first."""

    def __init__(self, level: int) -> None:
        if level < 1:
            raise ValueError(f"the search depth must be 1 or more, not {level}")
        self.level = level

    def best_move(
        self, state: State, stop: Stop | None = None, limit: Limit = NO_LIMIT
    ) -> tuple[Move, SearchResult[Move]]:
        stop = stop or Stop()
        started = time.perf_counter()
        deepest = min(self.level, limit.depth or self.level)
        watch = Watch(Stop())  # depth 1 finishes whatever the stop
        found = SearchResult(state.legal_moves()[0], 0, 0, 0, 0.0, (), False)
        with stop.until(limit.seconds) as clock:
            for depth in range(1, deepest + 1):
                try:
                    move, value = best_move(state, depth, watch)
                except Stopped:
                    break
                seconds = time.perf_counter() - started
                found = SearchResult(move, value, depth, watch.nodes, seconds, (move,), False)
                if limit.nodes is not None and watch.nodes >= limit.nodes:
                    break
                watch.stop = clock
        return found.move, found

    def warm_up(self, state: State) -> None:
        """Nothing to prepare: plain Python over the game's states."""
