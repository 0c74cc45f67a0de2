"""The sowing games' search adapters, as the engine's kernel takes them
(``parlour.search.kernel``): the rules' own (``search_moves`` ... ``search_order``, in
``game``) and what the kernel knows beyond the rules, the endgame tables (``endgame``)
and the learned estimate (``evaluation``).  A module apart from the rules, which need
neither table nor estimate."""

from __future__ import annotations

import numpy as np
from numba import njit

from parlour.games.sowing import endgame, evaluation
from parlour.games.sowing.game import (
    SEARCH_FREE_TURNS,
    pit_count,
    search_key,
    search_moves,
    search_order,
    search_play,
    search_score,
    search_seeds,
    search_stored,
    search_to_move,
)
from parlour.search.shared import NO_KNOWLEDGE, Knowledge

__all__ = [
    "SEARCH_FREE_TURNS",
    "search_ending",
    "search_estimate",
    "search_key",
    "search_knowledge",
    "search_moves",
    "search_order",
    "search_play",
    "search_score",
    "search_seeds",
    "search_stored",
    "search_to_move",
]


@njit(cache=True, nogil=True)
def search_ending(pos: np.ndarray, ending: np.ndarray, choose: np.ndarray) -> int:
    """The endgame table's value of ``pos`` (its seeds outside the stores are few enough)."""
    return int(endgame.value(pos, ending, choose))


@njit(cache=True, nogil=True)
def search_estimate(pos: np.ndarray, weights: np.ndarray, scratch: np.ndarray) -> int:
    """The learned estimate of ``pos`` at the horizon (0 without weights)."""
    return int(evaluation.estimate(pos, weights, scratch))


def search_knowledge(root: np.ndarray, rules: int, entries: int | None, learned: bool) -> Knowledge:
    """The endgame table of at most ``entries`` positions (read from the cache folder, built
    there the first time; None: ``endgame.MAX_ENTRIES``; 0: none) and, if ``learned``,
    the learned estimate that the engine reads for ``root``'s rule set."""
    pits = pit_count(root)
    seeds = int(search_seeds(root))
    known = NO_KNOWLEDGE
    if learned and seeds % (2 * pits) == 0:
        known = known._replace(weights=evaluation.weights_for(pits, seeds // (2 * pits), rules))
    if entries is None:
        entries = endgame.MAX_ENTRIES
    if not entries:
        return known
    found = endgame.table(pits, rules, min(endgame.seeds_within(pits, entries), seeds))
    return known._replace(ending=found.packed, choose=found.choose, ending_seeds=found.seeds)
