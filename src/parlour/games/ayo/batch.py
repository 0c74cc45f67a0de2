"""Many games of Ayo stepped at once (:func:`parlour.batch.batch`).

An :class:`AyoBatch` holds N games of Ayo, each row the layout of
:mod:`parlour.games.ayo.kernel`; its kernels call the game's own ``apply_move`` and
``is_legal`` on each row.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from parlour.batch import Batch
from parlour.core import Game
from parlour.games.ayo import kernel as ayo_kernel
from parlour.games.ayo.game import AyoGame

HISTORY = 64
"""An Ayo batch's room for each row's history at the start (it doubles when full)."""


@njit(cache=True, nogil=True)
def _ayo_illegal(positions: np.ndarray, moves: np.ndarray) -> int:
    """The first game whose move is not legal (finished games take any move), else -1."""
    for g in range(moves.shape[0]):
        pos = positions[g]
        if not pos[ayo_kernel.OVER] and not ayo_kernel.is_legal(
            pos, pos[ayo_kernel.TO_MOVE], moves[g]
        ):
            return g
    return -1


@njit(cache=True, nogil=True)
def _ayo_step(
    positions: np.ndarray, hist: np.ndarray, moves: np.ndarray, max_rounds: int, flags: np.ndarray
) -> None:
    """Play each live game's (legal) move with ayo_kernel.py's ``apply_move``; then move the live
    part of each history (the keys since the last capture) to the row's start, so that a
    row holds no more than a round's keys since its last capture."""
    events = np.zeros(1, dtype=np.int64)
    for g in range(moves.shape[0]):
        pos = positions[g]
        flags[g] = 0
        if pos[ayo_kernel.OVER]:
            continue
        flags[g] = ayo_kernel.apply_move(pos, hist[g], moves[g], max_rounds, events)
        first = pos[ayo_kernel.HIST_FROM]
        if first:
            live = pos[ayo_kernel.HIST_LEN] - first
            for k in range(live):
                hist[g, k] = hist[g, first + k]
            pos[ayo_kernel.HIST_FROM] = 0
            pos[ayo_kernel.HIST_LEN] = live


@njit(cache=True, nogil=True)
def _ayo_legal(positions: np.ndarray, mask: np.ndarray) -> None:
    """``mask[g, h]``: whether game g's side to move may sow house h (none once over)."""
    for g in range(mask.shape[0]):
        pos = positions[g]
        for house in range(ayo_kernel.HOUSES):
            mask[g, house] = ayo_kernel.is_legal(pos, pos[ayo_kernel.TO_MOVE], house)


class AyoBatch(Batch):
    """N games of Ayo, every one from the game's start (with its ``first``; without
    one, the starter its ``seed`` draws).

    ``positions`` is ``(N, ayo_kernel.SIZE)`` int64, each row the layout of
    :mod:`parlour.games.ayo.kernel`; ``history`` holds each row's keys since its last capture
    (``history[g, :positions[g, ayo_kernel.HIST_LEN]]``), and grows when a row needs room.
    The scores are the tokens each player holds (captured this round; at the end, held).
    """

    def __init__(self, rules: Game, size: int, seed: int = 0) -> None:
        super().__init__(size, seed)
        assert isinstance(rules, AyoGame)
        self.game = rules
        begin = rules.start()
        self.start = begin.position.copy()
        self.start_history = begin.history.copy()
        self.positions = np.tile(self.start, (size, 1))
        self.history = np.zeros((size, HISTORY), dtype=np.int64)
        self.history[:, : len(self.start_history)] = self.start_history

    def __len__(self) -> int:
        return int(self.positions.shape[0])

    def reset(self, which: np.ndarray | None = None) -> None:
        """Put every game (or those where ``which`` is true) back at the start."""
        rows = slice(None) if which is None else np.asarray(which, dtype=bool)
        self.positions[rows] = self.start
        self.history[rows, : len(self.start_history)] = self.start_history

    @property
    def to_move(self) -> np.ndarray:
        return self.positions[:, ayo_kernel.TO_MOVE]

    @property
    def scores(self) -> np.ndarray:
        return self.positions[:, ayo_kernel.CAPTURED : ayo_kernel.CAPTURED + 2]

    def legal_mask(self) -> np.ndarray:
        mask = np.empty((len(self), ayo_kernel.HOUSES), dtype=np.bool_)
        _ayo_legal(self.positions, mask)
        return mask

    @property
    def terminal(self) -> np.ndarray:
        return self.positions[:, ayo_kernel.OVER].astype(np.bool_)

    def _illegal(self, moves: np.ndarray) -> int:
        return int(_ayo_illegal(self.positions, moves))

    def _step(self, moves: np.ndarray) -> np.ndarray:
        if self.positions[:, ayo_kernel.HIST_LEN].max() >= self.history.shape[1]:
            self.history = np.pad(self.history, ((0, 0), (0, self.history.shape[1])))
        flags = np.empty(len(self), dtype=np.int64)
        _ayo_step(self.positions, self.history, moves, self.game.max_rounds, flags)
        return flags
