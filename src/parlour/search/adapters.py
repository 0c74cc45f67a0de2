"""The search adapters' contract: what a game's adapter module gives the alpha-beta kernel
(``parlour.search.kernel``), one signature in every game, shown here by the adapters of
a game of one finished position.  The kernel's template binds this module where it is
read as plain Python (its constants, its minimax for the tests); each game's own kernel
is a copy bound to the game's adapters (``parlour.search.engine.kernels``).

Required: ``search_moves(pos, out) -> count``, ``search_play(pos, hist, move, rules,
events) -> ended``, ``search_to_move(pos)``, ``search_score(pos)`` (player 0's score
minus player 1's), ``search_seeds(pos)``, ``search_stored(pos)``, ``search_key(pos)`` and
``search_order(pos, move)``.  Optional: ``SEARCH_FREE_TURNS`` (an extra turn costs no
depth), ``search_ending(pos, ending, choose)`` and ``search_estimate(pos, weights,
scratch)`` with ``search_knowledge(root, rules, entries, learned)`` giving their arrays.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def search_moves(pos: np.ndarray, out: np.ndarray) -> int:
    return 0


@njit(cache=True, nogil=True)
def search_play(
    pos: np.ndarray, hist: np.ndarray, move: int, rules: int, events: np.ndarray
) -> bool:
    return True


@njit(cache=True, nogil=True)
def search_to_move(pos: np.ndarray) -> int:
    return 0


@njit(cache=True, nogil=True)
def search_score(pos: np.ndarray) -> int:
    return 0


@njit(cache=True, nogil=True)
def search_seeds(pos: np.ndarray) -> int:
    return 0


@njit(cache=True, nogil=True)
def search_stored(pos: np.ndarray) -> int:
    return 0


@njit(cache=True, nogil=True)
def search_key(pos: np.ndarray) -> np.uint64:
    return np.uint64(1)


@njit(cache=True, nogil=True)
def search_order(pos: np.ndarray, move: int) -> int:
    return 0
