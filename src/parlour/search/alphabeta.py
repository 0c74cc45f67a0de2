"""The levels of the engine (``parlour.search.engine``) for every game that has search
adapters: the seed's minimax for 1-3, alpha-beta to a depth or on a clock above."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from parlour.core import State
from parlour.search import NO_LIMIT, SEED_LEVELS, Counted, Level, Stop, capped
from parlour.search.limit import Limit
from parlour.search.minimax import SeedLevel

if TYPE_CHECKING:
    from parlour.search.engine import Engine


SEED_LEVELS_COUNT = 3
"""Levels 1-3 are the seed's plain minimax at that depth (exactly, ties and all)."""

LEVEL_DEPTHS = {4: 4, 5: 7, 6: 10}
LEVEL_SECONDS = {7: 1.0, 8: 1.5}
"""Levels above the seed's: alpha-beta to a depth (extra turns free: Kalah's level 6
answers within about 0.15 s), or, for the strongest, for a time (deepening until it runs
out or the value is exact, on two threads where there are two cores); 8 answers in under
2 seconds."""

STRONGEST = max(LEVEL_SECONDS)
SEARCH_THREADS = min(2, os.cpu_count() or 1)
"""The threads of a search on a clock: two where there are two cores."""


def levels() -> tuple[Level, ...]:
    """The levels this engine plays, each with what it does (a game's kit lists them)."""
    seed = SEED_LEVELS[:SEED_LEVELS_COUNT]
    deep = tuple(Level(n, f"alpha-beta {d} plies deep") for n, d in LEVEL_DEPTHS.items())
    timed = tuple(Level(n, f"alpha-beta for {s:g} s a move") for n, s in LEVEL_SECONDS.items())
    return seed + deep + timed


class AlphaBetaThinker:
    """The computer at ``level`` in a game with search adapters, keeping one engine (and its
    transposition table) from move to move: the seed's minimax for levels 1-3, the engine
    above.  ``seconds`` (the ``--time`` of ``parlour play``) lets the engine's levels
    search for that long instead; the seed's levels stay exact minimax."""

    def __init__(self, level: int, seconds: float | None = None) -> None:
        if level > SEED_LEVELS_COUNT and level not in LEVEL_DEPTHS | LEVEL_SECONDS:
            raise ValueError(f"the levels are 1 to {STRONGEST}, not {level}")
        self.seed_level = SeedLevel(level) if level <= SEED_LEVELS_COUNT else None
        self.depth = LEVEL_DEPTHS.get(level) if seconds is None else None
        self.seconds = seconds if seconds is not None else LEVEL_SECONDS.get(level)
        self.threads = SEARCH_THREADS if self.seconds is not None else 1
        self.engine: Engine | None = None  # made at the first search: its table is big

    def best_move(self, state: State, stop: Stop, limit: Limit = NO_LIMIT) -> tuple[int, object]:
        """The move and the search's account of it, searched to the level's depth or for
        its time, but no further than ``limit``'s."""
        if self.seed_level is not None:
            move, found = self.seed_level.best_move(state, stop, limit)
            return int(move), found  # type: ignore[call-overload]
        if self.engine is None:
            from parlour.search.engine import Engine

            self.engine = Engine(threads=self.threads)
        depth, seconds = capped(self.depth, limit.depth), capped(self.seconds, limit.seconds)
        with stop.until(None) as mine:
            counted: Counted[int] = Counted(limit, mine)
            result = self.engine.search(state, depth, seconds, on_iteration=counted, stop=mine)
        return result.move, counted.answer(result)

    def warm_up(self, state: State) -> None:
        """The engine's kernels and endgame table; nothing for the seed's levels."""
        if self.seed_level is None:
            from parlour.search.engine import warm_up

            warm_up(state)
