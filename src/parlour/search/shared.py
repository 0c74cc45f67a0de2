"""What the engine's kernel (``parlour.search.kernel``) shares with its driver and helper
threads, passed as one argument: numba compiles a NamedTuple of arrays into plain fields,
so grouping them costs nothing at run time."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class Shared(NamedTuple):
    """The arrays one search reads and writes besides its own stacks."""

    keys: np.ndarray
    """The transposition table's keys (``parlour.search.table``), shared by every thread."""
    data: np.ndarray
    """Its entries."""
    info: np.ndarray
    """The counters the driver reads between iterations (``kernel.NODES`` ...)."""
    stop: np.ndarray
    """The stop flag the kernel polls."""
    ending: np.ndarray
    """An endgame table's values (``parlour.games.sowing.endgame``), or a dummy."""
    choose: np.ndarray
    """Its binomials."""
    ending_seeds: int
    """The seeds outside the stores at or below which it values a position (-1: none)."""
    weights: np.ndarray
    """The learned estimate's weights (``parlour.games.sowing.evaluation``; empty: none)."""


class Knowledge(NamedTuple):
    """What the kernel knows of a game beyond its rules (the last four fields of
    :class:`Shared`), from the ``search_knowledge`` of the game's adapter module where it
    has one: the sowing games' endgame tables and learned estimate."""

    ending: np.ndarray
    choose: np.ndarray
    ending_seeds: int
    weights: np.ndarray


NO_KNOWLEDGE = Knowledge(
    np.zeros(1, dtype=np.int8), np.zeros((1, 1), dtype=np.int64), -1, np.zeros(0, np.int64)
)
"""A search that reads no table and estimates nothing at its horizon."""
