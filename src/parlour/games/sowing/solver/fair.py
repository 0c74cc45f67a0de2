"""Fair starts: starting positions a redistribution of a seed or two away from a sowing
game's standard start that are draws with perfect play, so that the first move does not
decide the game (the idea of Neller's FairKalah, Computers and Games 2022)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from parlour.games.sowing import game as sowing
from parlour.games.sowing.solver.prover import Solver
from parlour.search import Stop

Pits = tuple[int, ...]


def redistributions(start: sowing.SowingState, most: int) -> list[sowing.SowingState]:
    """Every position of ``start``'s pits with one to ``most`` seeds moved from a pit to
    another (either side's: the fewest moves that make it), stores and side to move as at
    ``start``, nearest first, then in the order of their pits."""
    pits = start.pits
    begin: Pits = (*start.row(0), *start.row(1))
    seen, layer, found = {begin}, [begin], []
    for _ in range(most):
        layer = sorted({moved for here in layer for moved in _moved(here)} - seen)
        seen.update(layer)
        found.extend(layer)
    stores = start.scores
    return [
        start.game.parse(
            f"{','.join(map(str, here[:pits]))}/{stores[0]}/"
            f"{','.join(map(str, here[pits:]))}/{stores[1]} {start.to_move}"
        )
        for here in found
    ]


def _moved(here: Pits) -> Iterator[Pits]:
    """``here`` with one seed moved from a pit to another."""
    for source, seeds in enumerate(here):
        if seeds == 0:
            continue
        for target in range(len(here)):
            if target != source:
                moved = list(here)
                moved[source] -= 1
                moved[target] += 1
                yield tuple(moved)


def is_draw(solver: Solver, state: sowing.SowingState, stop: Stop) -> bool | None:
    """Whether ``state`` (not over) is a draw with perfect play (None if ``stop`` comes
    first): two null-window searches to the end, "more than 0?" then "at least 0?" (the
    second only where the first says no), where a proof of the value takes a sequence of
    them, narrowing on values that are no draw (about a third fewer nodes here)."""
    above = solver.reaches(state, 1, stop)
    if above is None or above:
        return None if above is None else False
    return solver.reaches(state, 0, stop)


def fair_starts(
    start: sowing.SowingState,
    most: int,
    solver: Solver,
    stop: Stop,
    on_each: Callable[[sowing.SowingState, bool | None], None] | None = None,
) -> list[sowing.SowingState]:
    """The redistributions of ``start`` (:func:`redistributions`) proven draws, in their
    order; each verdict (:func:`is_draw`: None if ``stop`` came first) told to
    ``on_each``, and kept in the solver's proven positions (``Known.tell``), where a
    later search finds it (a checkpoint).  Those not proven before ``stop`` are left
    out."""
    fair = []
    known = solver.known
    for state in redistributions(start, most):
        if stop.is_set:
            break
        if state.is_over or not state.legal_moves():
            continue  # every seed of the side to move moved away: no game to start
        draw = None if known is None else known.verdict(state)
        if draw is None:
            draw = is_draw(solver, state, stop)
            if known is not None and draw is not None:
                known.tell(state, draw)
        if on_each is not None:
            on_each(state, draw)
        if draw:
            fair.append(state)
    return fair
