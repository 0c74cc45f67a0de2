"""The perfect level of the sowing games: the solver's move where it proves the position
in time."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import cast

from parlour.core import State
from parlour.games.sowing import game as sowing
from parlour.games.sowing.solver.known import Known
from parlour.games.sowing.solver.prover import Proof, Solver
from parlour.games.sowing.solver.solution import bounds_for, least, mover_reaches
from parlour.search import NO_LIMIT, Stop, capped, engine
from parlour.search.alphabeta import SEARCH_THREADS
from parlour.search.engine import Engine, set_trap
from parlour.search.limit import Limit

PERFECT_SECONDS = 1.5
"""The perfect level's time a move (proof, then trap or search), unless given one: it
answers within 2 seconds."""
PROOF_SHARE = 2 / 3
"""The share of the move's time after which the proof gives up, the rest of it left to
the search that replaces it (or to the trap, once proven)."""
SEARCH_SHARE = 1 / 2
"""The share of what the proof leaves that the search takes, the rest left to check its
move against the proof's lower bound."""


class PerfectThinker:
    """The perfect level of the sowing games: a position it proves in time gets a move
    keeping the game's value, chosen among those for the most ways the opponent's reply
    can lose value (the engine's :func:`set_trap`, from proven values).  A position too
    big to prove in time gets the strongest search for part of what is left of the
    move's time, which says so in its account; its move is played only where the rest of
    the time proves that it keeps the lower bound the proof reached (else the move
    achieving that bound is).  Proof, trap, search and check share one clock, the move's
    time, and the search's threads (two where there are two cores).  The solver's table
    is kept from move to move (the proof of one move holds most of the next's), and the
    positions it proves from game to game, on disk (``Known``)."""

    def __init__(self, seconds: float | None = None) -> None:
        self.seconds = seconds if seconds is not None else PERFECT_SECONDS
        self.solver: Solver | None = None
        self.engine: Engine | None = None

    def warm_up(self, state: State) -> None:
        engine.warm_up(state)
        self._solver().warm_up(cast(sowing.SowingState, state))

    def _solver(self) -> Solver:
        if self.solver is None:
            self.solver = Solver(bits=22, threads=SEARCH_THREADS, known=Known())
        return self.solver

    def best_move(self, state: State, stop: Stop, limit: Limit = NO_LIMIT) -> tuple[int, object]:
        """The move and its account: the proof, or the search's result when too big; all
        within the level's time or ``limit``'s, the shorter."""
        position = cast(sowing.SowingState, state)
        solver = self._solver()
        seconds = capped(self.seconds, limit.seconds)
        deadline = time.perf_counter() + seconds
        with stop.until(seconds) as clock:
            proof = solver.prove(position, stop=clock, seconds=seconds * PROOF_SHARE)
            if not proof.exact:
                left = deadline - time.perf_counter()
                move, account = self._search(position, clock, left * SEARCH_SHARE)
                return self._kept(position, proof, move, clock), account
            try:
                return self._trap(position, proof, clock), proof
            finally:
                if solver.known is not None:
                    solver.known.save()

    def _trap(self, state: sowing.SowingState, proof: Proof, clock: Stop) -> int:
        """The move of :func:`set_trap` among those worth ``proof``'s value (the proof's
        own if none sets a trap before ``clock`` stops)."""
        solver = self._solver()

        def worth(position: State) -> int | None:
            position = cast(sowing.SowingState, position)
            low, high = bounds_for(solver, position, state.to_move, clock, proof.lower)
            return low if low == high else None

        best = set_trap(state, proof.lower, worth, lambda: clock.is_set)
        return proof.move if best is None else cast(int, best)

    def _kept(self, state: sowing.SowingState, proof: Proof, move: int, clock: Stop) -> int:
        """The search's ``move`` if it is proven to keep ``proof``'s lower bound (or the
        bound is one every move keeps), else the proof's move, which keeps it: a search
        cut short by the clock never gives away value already proven."""
        if move == proof.move or proof.lower <= least(state):
            return move
        keeps = mover_reaches(self._solver(), state, move, proof.lower, clock)
        return move if keeps else proof.move

    def _search(self, state: sowing.SowingState, stop: Stop, seconds: float) -> tuple[int, object]:
        """The strongest search's move within ``seconds``, its account saying the proof
        ran out of time."""
        if self.engine is None:
            self.engine = Engine(threads=SEARCH_THREADS)
        found = self.engine.search(state, seconds=max(seconds, 0.0), stop=stop)
        return found.move, replace(found, reason="search: too big to prove in time")
