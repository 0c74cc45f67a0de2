"""The exact value of a sowing game's position: a solver for Kalah, Mancala and their kin.

One job a module: ``table`` (the bounds kept in the transposition table), ``kernel`` (the
compiled null-window search), ``prover`` (MTD(f) and the :class:`Solver`), ``split`` (a
window's lines searched by several threads), ``known`` (proven positions on disk),
``solution`` (a position's and its moves' values) and ``perfect`` (the perfect level).
"""

from parlour.games.sowing.solver.known import Known
from parlour.games.sowing.solver.perfect import PerfectThinker
from parlour.games.sowing.solver.prover import Proof, Solver
from parlour.games.sowing.solver.solution import (
    Solution,
    bounds_for,
    mover_bounds,
    proven,
    solve,
)
from parlour.games.sowing.solver.table import bits_within

__all__ = [
    "Known",
    "PerfectThinker",
    "Proof",
    "Solution",
    "Solver",
    "bits_within",
    "bounds_for",
    "mover_bounds",
    "proven",
    "solve",
]
