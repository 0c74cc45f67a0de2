"""Many sowing games stepped at once, for learning loops (``parlour.batch``).

A :class:`SowingBatch` holds N positions of one mancala-family game (``kalah``,
``mancala`` or any of their options) as one ``(N, 2P+3)`` int16 array, the layout of
:mod:`parlour.games.sowing.game`; an :class:`AyoBatch` holds N games of Ayo.  Each steps all
its games in one compiled call: the kernels here only loop over the games and call the
game's own rule kernels on each row (``sowing.py``'s flat ``_at`` kernels, which take a
position's offset in one buffer; ``ayo_kernel.py``'s ``apply_move`` and ``is_legal``), so there
is no second copy of a rule.  Everything a loop needs comes back as arrays: legal-move
masks, the side to move, which games are over, the rewards and the final margins.

>>> from parlour.batch import SowingBatch
>>> batch = SowingBatch("kalah", 3)
>>> batch.legal_mask().sum(axis=1).tolist()
[6, 6, 6]
>>> batch.step([2, 2, 0]).tolist()  # column C ends in the store: an extra turn
[1, 1, 0]
>>> batch.to_move.tolist()
[0, 0, 1]
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

import numpy as np
from numba import njit

from parlour.core import BadOption, IllegalMove, game
from parlour.games.ayo import kernel as ayo_kernel
from parlour.games.ayo.game import AyoGame
from parlour.games.sowing.game import (
    SowingGame,
    SowingState,
    _over_at,
    _play_at,
    pit_index,
)
from parlour.games.war.rules import new_rng, rng_below

NO_MOVE = -1
"""The move of a finished game in a step (any move is ignored there)."""
PLAYOUT_CHUNK = 16
"""Random games a row of a batch plays in one compiled call of ``playouts``."""
HISTORY = 64
"""An Ayo batch's room for each row's history at the start (it doubles when full)."""


@njit(cache=True, nogil=True)
def _illegal_at(flat: np.ndarray, width: int, moves: np.ndarray) -> int:
    """The first game whose move is not legal (finished games take any move), else -1."""
    pits = (width - 3) // 2
    for g in range(moves.shape[0]):
        at = g * width
        if _over_at(flat, at, pits):
            continue
        column = moves[g]
        if column < 0 or column >= pits:
            return g
        if flat[at + pit_index(flat[at + width - 1], column, pits)] == 0:
            return g
    return -1


@njit(cache=True, nogil=True)
def _step(flat: np.ndarray, width: int, moves: np.ndarray, rules: int, flags: np.ndarray) -> None:
    """Play each live game's (legal) move; ``flags`` gets each move's outcome flags."""
    pits = (width - 3) // 2
    for g in range(moves.shape[0]):
        at = g * width
        flags[g] = 0 if _over_at(flat, at, pits) else _play_at(flat, at, pits, moves[g], rules)


@njit(cache=True, nogil=True)
def _legal(flat: np.ndarray, width: int, mask: np.ndarray) -> None:
    """``mask[g, c]``: whether game g's side to move may sow column c (none once over)."""
    pits = (width - 3) // 2
    for g in range(mask.shape[0]):
        at = g * width
        over = _over_at(flat, at, pits)
        player = flat[at + width - 1]
        for c in range(pits):
            mask[g, c] = not over and flat[at + pit_index(player, c, pits)] > 0


@njit(cache=True, nogil=True)
def _playouts(
    start: np.ndarray, flat: np.ndarray, games: int, rules: int, rng: np.ndarray
) -> np.ndarray:
    """Random moves in every row until ``games`` games have ended, a row starting a new
    game from ``start`` as soon as its game ends (or at once, if it is over already); the
    wins of player 0, of player 1, and the draws among them.  The games still going on
    then stay in the rows, for the next call to go on with."""
    width = start.shape[0]
    pits = (width - 3) // 2
    rows = flat.shape[0] // width
    tally = np.zeros(3, dtype=np.int64)
    for g in range(rows):
        if _over_at(flat, g * width, pits):
            flat[g * width : (g + 1) * width] = start
    finished = 0
    moves = np.empty(rows, dtype=np.int64)
    mask = np.empty((rows, pits), dtype=np.bool_)
    while finished < games:
        _legal(flat, width, mask)
        _pick(mask, rng, moves)
        for g in range(rows):
            at = g * width
            if _play_at(flat, at, pits, moves[g], rules) & 4:  # GAME_OVER
                margin = flat[at + pits] - flat[at + 2 * pits + 1]
                tally[0 if margin > 0 else (1 if margin < 0 else 2)] += 1
                flat[at : at + width] = start
                finished += 1
                if finished == games:
                    break
    return tally


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


@njit(cache=True, nogil=True)
def _pick(mask: np.ndarray, rng: np.ndarray, moves: np.ndarray) -> None:
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
        """The generator of :meth:`random_moves` (war.py's splitmix stream)."""

    @abstractmethod
    def __len__(self) -> int: ...

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
        _pick(self.legal_mask(), self.rng, moves)
        return moves


class SowingBatch(Batch):
    """N positions of one sowing game (``kalah``, ``mancala``, any options).

    ``boards`` is the ``(N, 2P+3)`` int16 array of :mod:`parlour.games.sowing.game` (pits,
    stores, the side to move); rows may be read freely and written with positions of
    the game.  The scores are the stores.
    """

    def __init__(self, name: str | SowingGame, size: int, seed: int = 0, **options: object) -> None:
        super().__init__(size, seed)
        rules = game(name, **options) if isinstance(name, str) else name
        if not isinstance(rules, SowingGame):
            raise BadOption(f"a SowingBatch holds sowing games (kalah, mancala), not {rules.name}")
        self.game = rules
        self.start = rules.start().board.copy()
        self.width = len(self.start)
        self._flat = np.tile(self.start, size)
        self.boards = self._flat.reshape(size, self.width)

    def __len__(self) -> int:
        return int(self.boards.shape[0])

    @property
    def pits(self) -> int:
        return self.game.pits

    def reset(self, which: np.ndarray | None = None) -> None:
        """Put every game (or those where ``which`` is true) back at the start."""
        self.boards[slice(None) if which is None else np.asarray(which, dtype=bool)] = self.start

    @property
    def to_move(self) -> np.ndarray:
        """The side to move of each game (an int16 view)."""
        return self.boards[:, -1]

    @property
    def scores(self) -> np.ndarray:
        return self.boards[:, [self.pits, 2 * self.pits + 1]]

    def legal_mask(self) -> np.ndarray:
        mask = np.empty((len(self), self.pits), dtype=np.bool_)
        _legal(self._flat, self.width, mask)
        return mask

    @property
    def terminal(self) -> np.ndarray:
        """A row empty (its seeds then collected)."""
        return np.logical_not(self.legal_mask().any(axis=1))

    def _illegal(self, moves: np.ndarray) -> int:
        return int(_illegal_at(self._flat, self.width, moves))

    def _step(self, moves: np.ndarray) -> np.ndarray:
        flags = np.empty(len(self), dtype=np.int64)
        _step(self._flat, self.width, moves, self.game.rules, flags)
        return flags

    def playouts(self, games: int) -> np.ndarray:
        """Play random moves in every row, in compiled code, until ``games`` games have
        ended, each row starting a new game from the start when its game ends (or at once,
        if it is over): the wins of player 0, of player 1, and the draws.  The games still
        going on stay in the rows, where the next call goes on with them.  The work goes
        in chunks of PLAYOUT_CHUNK games a row, a few milliseconds each, so that Ctrl-C
        stops any number of playouts at once."""
        tally = np.zeros(3, dtype=np.int64)
        while games > tally.sum():
            chunk = min(games - int(tally.sum()), PLAYOUT_CHUNK * len(self))
            tally += _playouts(self.start, self._flat, chunk, self.game.rules, self.rng)
        return tally

    def state(self, index: int) -> SowingState:
        """Game ``index`` as a State (a copy)."""
        return SowingState(self.game, self.boards[index].copy())


class AyoBatch(Batch):
    """N games of Ayo, every one from the game's start (with its ``first``; without
    one, the starter its ``seed`` draws).

    ``positions`` is ``(N, ayo_kernel.SIZE)`` int64, each row the layout of
    :mod:`parlour.games.ayo.kernel`; ``history`` holds each row's keys since its last capture
    (``history[g, :positions[g, ayo_kernel.HIST_LEN]]``), and grows when a row needs room.
    The scores are the tokens each player holds (captured this round; at the end, held).
    """

    def __init__(self, size: int, seed: int = 0, **options: object) -> None:
        super().__init__(size, seed)
        rules = game("ayo", **options)
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
