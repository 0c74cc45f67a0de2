"""Many games stepped at once, for learning loops (``parlour.batch``).

A game that can be stepped in batches (every game: War's one move plays a round) hands one
from its kit: :func:`batch` gives N
games of it as arrays, every game stepped by one compiled call of the game's own rule
kernels (no second copy of a rule).  Everything a loop needs comes back as arrays:
legal-move masks, the side to move, which games are over, the rewards and the final
margins.  :class:`Batch` is what every game's batch shares.

>>> from parlour.batch import batch
>>> games = batch("kalah", 3)
>>> games.legal_mask().sum(axis=1).tolist()
[6, 6, 6]
>>> games.step([2, 2, 0]).tolist()  # column C ends in the store: an extra turn
[1, 1, 0]
>>> games.to_move.tolist()
[0, 0, 1]
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

import numpy as np
from numba import njit

from parlour.core import BadOption, IllegalMove, game
from parlour.kit import kit_of
from parlour.rng import new_rng, rng_below

NO_MOVE = -1
"""The move of a finished game in a step (any move is ignored there)."""


def batch(name: str, size: int, seed: int = 0, /, **options: object) -> Batch:
    """``size`` games of the game called ``name`` (with its ``options``, five in a row's
    ``size`` among them), from its start; ``seed`` draws :meth:`Batch.random_moves`.
    BadOption for a game without batches."""
    rules = game(name, **options)
    found: Batch = kit_of(rules).batch(rules, size, seed)
    return found


@njit(cache=True, nogil=True)
def pick_moves(mask: np.ndarray, rng: np.ndarray, moves: np.ndarray) -> None:
    """A uniformly drawn true column of each row of ``mask`` (NO_MOVE for a row of none)."""
    for g in range(mask.shape[0]):
        count = 0
        for c in range(mask.shape[1]):
            count += mask[g, c]
        moves[g] = -1
        if count == 0:
            continue
        pick = rng_below(rng, count)
        for c in range(mask.shape[1]):
            if mask[g, c]:
                if pick == 0:
                    moves[g] = c
                    break
                pick -= 1


class Batch(ABC):
    """N positions of one game, all stepped by one compiled call; what every batch
    shares.  Rewards come at the end: +1 to the player with the larger score, -1 to the
    other, 0 to both on a draw (and while the game goes on)."""

    def __init__(self, size: int, seed: int) -> None:
        if size < 1:
            raise BadOption(f"a batch holds at least one game, not {size}")
        self.rng = new_rng(seed, 0)
        """The generator of :meth:`random_moves` (:mod:`parlour.rng`)."""

    @abstractmethod
    def __len__(self) -> int: ...

    @abstractmethod
    def reset(self, which: np.ndarray | None = None) -> None:
        """Put every game (or those where ``which`` is true) back at the start."""

    @property
    @abstractmethod
    def to_move(self) -> np.ndarray:
        """The side to move of each game."""

    @abstractmethod
    def legal_mask(self) -> np.ndarray:
        """``(N, actions)`` bools: the moves the side to move may play (none once over)."""

    @property
    @abstractmethod
    def scores(self) -> np.ndarray:
        """Each game's two scores as the game counts them, ``(N, 2)``."""

    @property
    @abstractmethod
    def terminal(self) -> np.ndarray:
        """Which games are over."""

    @abstractmethod
    def _illegal(self, moves: np.ndarray) -> int:
        """The first game whose move is illegal, else -1."""

    @abstractmethod
    def _step(self, moves: np.ndarray) -> np.ndarray:
        """Play legal moves; the outcome flags."""

    def margins(self) -> np.ndarray:
        """Player 0's score minus player 1's, for every game (final once it is over)."""
        scores = self.scores.astype(np.int64)
        return np.subtract(scores[:, 0], scores[:, 1])

    def rewards(self) -> np.ndarray:
        """``(N, 2)`` rewards of players 0 and 1: +1/-1/0 in finished games, 0 elsewhere."""
        won = np.sign(self.margins()) * self.terminal
        return np.stack([won, -won], axis=1).astype(np.int8)

    def step(self, moves: Sequence[int] | np.ndarray) -> np.ndarray:
        """Play one move in every live game (a finished game ignores its move); each
        game's outcome flags, as the game's ``apply_move`` returns them.  An illegal move
        refuses the whole step, leaving every game unchanged."""
        moves = np.asarray(moves, dtype=np.int64)
        if moves.shape != (len(self),):
            raise BadOption(f"a step takes {len(self)} moves, one a game, not {moves.shape}")
        bad = self._illegal(moves)
        if bad >= 0:
            raise IllegalMove(int(moves[bad]), f"not legal in game {bad}")
        return self._step(moves)

    def random_moves(self) -> np.ndarray:
        """A uniformly drawn legal move for each game (NO_MOVE where it is over)."""
        moves = np.empty(len(self), dtype=np.int64)
        pick_moves(self.legal_mask(), self.rng, moves)
        return moves
