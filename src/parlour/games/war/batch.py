"""Many games of War played at once, a round a step (:func:`parlour.batch.batch`).

Nobody chooses in War: each game's one action, 0, plays its next round, as a state's one
move does.  The batch's deals are the games of the run its rules' ``seed`` makes, in
order: the first N at the start, then the next one each time a game is put back
(:meth:`WarBatch.reset`), dealt and played by the kernels of
:mod:`parlour.games.war.kernel`, so that every game ends as ``parlour simulate war`` ends
the game of that index, round for round.  A game whose play can cycle keeps its deal and
Brent's search beside its position and ends at the first repeat of its stacks (seen some
rounds later, and wound back to it).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from parlour.batch import Batch
from parlour.core import BadOption, Game
from parlour.games.war import kernel
from parlour.games.war.game import WarGame
from parlour.games.war.rules import SHUFFLED, TIE, deal
from parlour.rng import rng_start

OVER = 1
"""A step's flag for a round that ended its game."""


@njit(cache=True, nogil=True)
def _deal(
    deck: np.ndarray,
    run: int,
    index: int,
    which: np.ndarray,
    positions: np.ndarray,
    spares: np.ndarray,
    brents: np.ndarray,
    rngs: np.ndarray,
    over: np.ndarray,
) -> int:
    """Deal the games of run ``run`` from ``index`` on to the games ``which`` marks, each
    watched from its deal; the index of the next deal."""
    for g in range(positions.shape[0]):
        if not which[g]:
            continue
        rng_start(rngs[g], run, index)
        index += 1
        stack0, stack1 = deal(deck, rngs[g])
        kernel.load(positions[g], stack0, stack1)
        brents[g][:] = kernel.start_watching(positions[g], spares[g])
        over[g] = False
    return index


@njit(cache=True, nogil=True)
def _round(
    positions: np.ndarray,
    spares: np.ndarray,
    brents: np.ndarray,
    rngs: np.ndarray,
    over: np.ndarray,
    results: np.ndarray,
    pickup: int,
    limit: int,
    more_wins: bool,
    flags: np.ndarray,
) -> None:
    """A round of each live game; where it ends the game, its (winner, ending) into
    ``results`` and OVER into ``flags``."""
    table = np.empty(positions.shape[1], np.int32)
    steps = np.empty(positions.shape[1] + 4, np.int64)
    watching = pickup != SHUFFLED
    for g in range(positions.shape[0]):
        flags[g] = 0
        if over[g]:
            continue
        position, spare, brent, rng = positions[g], spares[g], brents[g], rngs[g]
        until, tortoise = position[kernel.ROUNDS] + 1, spare[1]
        answer = kernel.advance(
            position, table, steps, pickup, rng, until, watching, tortoise, brent
        )
        if answer == kernel.GOING and position[kernel.ROUNDS] != limit:
            continue
        winner, ending = kernel.settle(
            answer, position, spare, table, steps, pickup, limit, more_wins, rng, brent
        )
        results[g, 0], results[g, 1] = winner, ending
        over[g] = True
        flags[g] = OVER


class WarBatch(Batch):
    """N games of one War rule set, each an int32 position of :mod:`parlour.games.war.
    kernel`'s layout (a row of ``positions``).  The scores are the cards each player
    holds; the rewards follow the rules' winner (a cycle, or a tie at the round limit,
    is a draw whatever the cards)."""

    def __init__(self, rules: Game, size: int, seed: int = 0) -> None:
        super().__init__(size, seed)
        if not isinstance(rules, WarGame):
            raise BadOption(f"a WarBatch holds War, not {rules.name}")
        self.game = rules
        position = kernel.new_position(len(rules.rules.deck))
        self.positions = np.tile(position, (size, 1))
        self._spares = np.empty((size, 5, position.shape[0]), dtype=np.int32)
        self._brents = np.zeros((size, 2), dtype=np.int64)
        self._rngs = np.zeros((size, 1), dtype=np.uint64)
        self._over = np.zeros(size, dtype=np.bool_)
        self.results = np.zeros((size, 2), dtype=np.int64)
        """Each finished game's winner (TIE for a draw) and ending (``rules.ENDINGS``)."""
        self.dealt = 0
        """How many deals of the run this batch has made (the next one's index)."""
        self.reset()

    def __len__(self) -> int:
        return int(self.positions.shape[0])

    def reset(self, which: np.ndarray | None = None) -> None:
        """Deal the run's next games to every game (or those where ``which`` is true)."""
        marked = np.ones(len(self), np.bool_) if which is None else np.asarray(which, bool)
        rules = self.game.rules
        arrays = (self.positions, self._spares, self._brents, self._rngs, self._over)
        self.dealt = int(_deal(rules.deck_array, rules.seed or 0, self.dealt, marked, *arrays))

    @property
    def to_move(self) -> np.ndarray:
        return np.zeros(len(self), dtype=np.int8)

    def legal_mask(self) -> np.ndarray:
        """The one action, the next round, while a game goes on."""
        mask: np.ndarray = np.logical_not(self._over)[:, None]
        return mask

    @property
    def scores(self) -> np.ndarray:
        counts: np.ndarray = self.positions[:, kernel.COUNT : kernel.COUNT + 2]
        return counts.copy()

    @property
    def terminal(self) -> np.ndarray:
        """A stack emptied, a cycle, or the round limit."""
        return self._over.copy()

    def rewards(self) -> np.ndarray:
        """+1/-1 to the rules' winner and loser of each finished game, 0 elsewhere."""
        winner = self.results[:, 0]
        won = np.where(self._over & (winner != TIE), 1 - 2 * winner, 0)
        return np.stack([won, -won], axis=1).astype(np.int8)

    def _illegal(self, moves: np.ndarray) -> int:
        wrong = np.flatnonzero(np.logical_not(self._over) & (moves != 0))
        return int(wrong[0]) if wrong.size else -1

    def _step(self, moves: np.ndarray) -> np.ndarray:
        flags = np.empty(len(self), dtype=np.int64)
        rules = self.game.rules
        arrays = (self.positions, self._spares, self._brents, self._rngs, self._over)
        _round(*arrays, self.results, rules.pickup_code, rules.limit, rules.more_wins, flags)
        return flags
