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
from parlour.games.sowing.solver.solution import bounds_for, least, mover_held, mover_reaches
from parlour.games.sowing.solver.table import INF
from parlour.search import NO_LIMIT, Stop, capped
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
move against the moves proven best (all of it where nothing is proven of any move)."""


class PerfectThinker:
    """The perfect level of the sowing games: a position it proves in time gets a move
    keeping the game's value, chosen among those for the most ways the opponent's reply
    can lose value (the engine's :func:`set_trap`, from proven values).  A position too
    big to prove in time gets the strongest search for what is left of the move's time
    (half of it where something is proven of a move), which says so in its account; its
    move is played only where it is worth as much as any move proven so far (by this
    proof's lower bound, or by what the solver holds from earlier proofs), or the rest of
    the time proves it so (else the move proven best is).  Proof, trap, search and check
    share one clock, the move's time, and the search's threads (two where there are two
    cores).  The solver's table is kept from move to move (the proof of one move holds
    most of the next's), and the positions it proves from game to game, on disk
    (``Known``)."""

    def __init__(self, seconds: float | None = None) -> None:
        self.seconds = seconds if seconds is not None else PERFECT_SECONDS
        self.solver: Solver | None = None
        self.engine: Engine | None = None

    def warm_up(self, state: State) -> None:
        """Compile (or load) the solver's kernels and the engine's, its helper threads'
        too, and read (or build) the tables, so that none of it happens on a move's clock
        (the first search cut short by a proof used to spend it there)."""
        self._solver().warm_up(cast(sowing.SowingState, state))
        self._engine().search(state, depth=1)

    def _engine(self) -> Engine:
        if self.engine is None:
            self.engine = Engine(threads=SEARCH_THREADS)
        return self.engine

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
                held = self._held(position, proof)
                left = deadline - time.perf_counter()
                share = SEARCH_SHARE if held else 1.0
                move, account = self._search(position, clock, left * share)
                return self._kept(position, held, move, clock), account
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

    def _held(self, state: sowing.SowingState, proof: Proof) -> dict[int, tuple[int, int]]:
        """What is proven of each move of ``state`` (those of which something is): the
        bounds the solver holds (``mover_held``: proofs of earlier moves and games, the
        endgame table, the game's end), the move achieving ``proof``'s lower bound at
        least that."""
        solver = self._solver()
        held = {}
        for move in map(int, state.legal_moves()):
            bounds = mover_held(solver, state, move)
            if bounds is not None:
                held[move] = bounds
        if proof.lower > least(state):
            low, high = held.get(proof.move, (proof.lower, INF))
            held[proof.move] = (max(low, proof.lower), high)
        return held

    def _kept(
        self, state: sowing.SowingState, held: dict[int, tuple[int, int]], move: int, clock: Stop
    ) -> int:
        """The search's ``move``, unless another move is proven (``held``) to be worth more
        than ``move`` is: then the move proven best, unless the rest of the clock proves
        that ``move`` is worth as much.  A search cut short by the clock never gives away
        value already proven."""
        if not held:
            return move
        target, best = max((low, m) for m, (low, _) in held.items())
        low, high = held.get(move, (-INF, INF))
        if low >= target:
            return move
        if high < target:
            return best
        keeps = mover_reaches(self._solver(), state, move, target, clock)
        return move if keeps else best

    def _search(self, state: sowing.SowingState, stop: Stop, seconds: float) -> tuple[int, object]:
        """The strongest search's move within ``seconds``, its account saying the proof
        ran out of time."""
        found = self._engine().search(state, seconds=max(seconds, 0.0), stop=stop)
        return found.move, replace(found, reason="search: too big to prove in time")
