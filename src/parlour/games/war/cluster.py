"""``parlour simulate war --executor ray``: the same chunks of games as on this machine's
cores (so the same statistics for the same seed), one task of the arena's Ray executor a
chunk, each on one core of a worker."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from parlour.arena.executors import Ray
from parlour.games.war.kernel import Summary, Tally, chunks, play_chunk
from parlour.games.war.rules import WarRules


def _chunk(rules: WarRules, first: int, count: int) -> np.ndarray:
    """A chunk of games on one core of a Ray worker."""
    import numba

    numba.set_num_threads(1)
    return play_chunk(rules, first, count)


def simulate_on_ray(
    rules: WarRules,
    games: int,
    progress: Callable[[int], None],
    concurrency: int | None = None,
    address: str | None = None,
) -> Summary:
    """``games`` games of ``rules`` played on a Ray cluster (``address``; None: one of its
    own), ``progress`` told each chunk's count as it comes."""
    ray = Ray(concurrency, address)
    tally = Tally()
    try:
        for results in ray.stream(_chunk, ((rules, *c) for c in chunks(rules, games))):
            tally.add(results)
            progress(len(results))
    finally:
        ray.close()
    return tally.summary(rules)
