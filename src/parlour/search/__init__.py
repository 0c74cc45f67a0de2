"""Game-independent search over the game core's states (``minimax``: the seed's levels).

:func:`best_move` is what a computer player calls: a game with an engine of its own (named
in :data:`ENGINES`, imported when first needed) gets it; every other game gets minimax.
"""

from __future__ import annotations

import importlib
from typing import Any

from parlour.core import Move, State

ENGINES = {
    "gomoku": "parlour.search.gomoku",
    "mancala": "parlour.search.engine",
    "kalah": "parlour.search.engine",
    "ayo": "parlour.search.engine",
}
"""Game name -> the module whose ``best_move(state, level, seconds)`` plays it."""


def best_move(state: State, level: int, seconds: float | None = None) -> tuple[Move, Any]:
    """The computer's move at ``level`` in ``state`` and its engine's account of it;
    ``seconds`` is a time a move for engines that search on a clock."""
    module = ENGINES.get(state.game.name)
    if module is None:
        from parlour.search import minimax

        return minimax.best_move(state, level)
    engine: Any = importlib.import_module(module)
    return engine.best_move(state, level, seconds)
