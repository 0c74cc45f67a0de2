"""How parlour's games meet the learning frameworks (:mod:`parlour.envs` for PettingZoo,
:mod:`parlour.openspiel` for OpenSpiel): actions as numbers, observations as arrays from
a seat's side, who acts next, and whether an end was a round limit.  One home for these
encodings, so that both adapters see a game the same way; neither framework is imported
here.

War has no choices: each round both seats act with their one action (turning up their
card), seat 0 first, and the round is played when seat 1 has acted; a seat sees only
which cards it holds (not their order), never the opponent's.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

import numpy as np

from parlour.core import IllegalMove, Move, State
from parlour.games.ayo.game import AyoState
from parlour.games.ayo.kernel import HOUSES, TOKENS
from parlour.games.gomoku.game import GomokuState
from parlour.games.sowing.game import SowingState, pit_index, store_index
from parlour.games.war.game import ROUND, WarState
from parlour.games.war.rules import card_name
from parlour.outcome import Reason

CARDS = 52


class Codec(ABC):
    """How one game's states meet an environment: actions as numbers, observations
    as arrays from a seat's side, and who acts next.  A codec is made from the game's
    start (``Codec(start)``), which gives the spaces' sizes."""

    actions: int
    """How many actions there are (numbered from 0)."""
    shape: tuple[int, ...]
    """The observation's shape; its values lie in ``0..high``."""
    high: int
    dtype: Any

    @abstractmethod
    def __init__(self, start: State) -> None:
        """The encoding of the game ``start`` is the start of (its sizes)."""

    def move(self, state: State, action: int) -> Move:
        """The move of ``action`` (legal or not: the state judges); by default the action
        is the move (a pit's column, a house)."""
        return action

    def mask(self, state: State) -> np.ndarray:
        """The legal actions of the side to act, as 0/1 int8."""
        mask = np.zeros(self.actions, dtype=np.int8)
        mask[[self.action(m) for m in state.legal_moves()]] = 1
        return mask

    def action(self, move: Move) -> int:
        """The action of a legal ``move`` (by default the move itself)."""
        assert isinstance(move, int)
        return move

    @abstractmethod
    def observe(self, state: State, seat: int) -> np.ndarray:
        """What ``seat`` sees of ``state``, from its side."""

    def act(self, state: State, seat: int, action: int) -> tuple[State, int]:
        """The state after ``seat`` acts and the seat to act next."""
        after = state.play(self.move(state, action))
        return after, after.to_move

    def truncated(self, state: State) -> bool:
        """Whether a finished game was cut short by a limit rather than played out."""
        return False

    def seen(self, state: State, seat: int) -> str:
        """What ``seat`` sees, as text: the board, where nothing is hidden."""
        return state.render()


class SowingCodec(Codec):
    """An action is a column of the agent's own row; the observation is the agent's
    pits (by column) and store, then the opponent's."""

    def __init__(self, start: State) -> None:
        assert isinstance(start, SowingState)
        pits = start.pits
        self.actions = pits
        self.high = start.game.total_seeds
        self.shape = (2 * pits + 2,)
        self.dtype = np.int16
        self.rows = [np.array([pit_index(p, c, pits) for c in range(pits)]) for p in (0, 1)]
        """Each player's pits in the board array, by column."""
        side = [[*self.rows[p], store_index(p, pits)] for p in (0, 1)]
        self.sides = [np.array(side[p] + side[1 - p]) for p in (0, 1)]
        """Each seat's observation as indexes of the board array (its own side first)."""

    def mask(self, state: State) -> np.ndarray:
        """The columns of the mover's row that hold seeds (array indexing, for speed)."""
        assert isinstance(state, SowingState)
        if state.is_over:
            return np.zeros(self.actions, dtype=np.int8)
        mask: np.ndarray = (state.board[self.rows[state.to_move]] > 0).astype(np.int8)
        return mask

    def observe(self, state: State, seat: int) -> np.ndarray:
        assert isinstance(state, SowingState)
        seen: np.ndarray = state.board[self.sides[seat]]
        return seen


class AyoCodec(Codec):
    """An action is a house 0..11; the observation is the twelve houses starting from
    the agent's own row (player_1's view is turned by six), which of them the agent
    owns this round, and the tokens each has captured (the agent's first)."""

    def __init__(self, start: State) -> None:
        self.actions = HOUSES
        self.high = TOKENS
        self.shape = (2 * HOUSES + 2,)
        self.dtype = np.int16

    def observe(self, state: State, seat: int) -> np.ndarray:
        assert isinstance(state, AyoState)
        turn = 6 * seat
        board = np.roll(np.array(state.board), -turn)
        mine = np.roll(np.array(state.owners) == seat, -turn)
        captured = state.scores[seat], state.scores[1 - seat]
        return np.concatenate([board, mine, captured]).astype(np.int16)

    def truncated(self, state: State) -> bool:
        return TOKENS not in state.scores


class GomokuCodec(Codec):
    """An action is ``row * size + column`` (row 0 at the top); the observation is two
    planes: the agent's stones, then the opponent's."""

    def __init__(self, start: State) -> None:
        assert isinstance(start, GomokuState)
        self.size = start.size
        self.actions = self.size * self.size
        self.high = 1
        self.shape = (self.size, self.size, 2)
        self.dtype = np.int8

    def move(self, state: State, action: int) -> Move:
        return divmod(action, self.size)

    def action(self, move: Move) -> int:
        assert isinstance(move, tuple)
        row, col = move
        return int(row) * self.size + int(col)

    def observe(self, state: State, seat: int) -> np.ndarray:
        assert isinstance(state, GomokuState)
        board = state.board
        return np.stack([board == seat + 1, board == 2 - seat], axis=-1).astype(np.int8)


class WarCodec(Codec):
    """One action, turning up one's card; the observation is which of the 52 cards the
    agent holds (its stack's order and the opponent's cards stay hidden)."""

    def __init__(self, start: State) -> None:
        self.actions = 1
        self.high = 1
        self.shape = (CARDS,)
        self.dtype = np.int8

    def move(self, state: State, action: int) -> Move:
        return ROUND if action == 0 else action

    def action(self, move: Move) -> int:
        return 0

    def observe(self, state: State, seat: int) -> np.ndarray:
        assert isinstance(state, WarState)
        held = np.zeros(CARDS, dtype=np.int8)
        held[list(state.stacks[seat])] = 1
        return held

    def act(self, state: State, seat: int, action: int) -> tuple[State, int]:
        if action != 0:
            raise IllegalMove(action, "War's one action is 0: turn up your card")
        if seat == 0:
            return state, 1
        return state.play(ROUND), 0

    def truncated(self, state: State) -> bool:
        assert isinstance(state, WarState)
        return state.result is not None and state.result[0] is Reason.ROUND_LIMIT

    def seen(self, state: State, seat: int) -> str:
        assert isinstance(state, WarState)
        return " ".join(sorted(card_name(c, ascii_only=True) for c in state.stacks[seat]))


CODECS: dict[type[State], type[Codec]] = {
    SowingState: SowingCodec,
    AyoState: AyoCodec,
    GomokuState: GomokuCodec,
    WarState: WarCodec,
}


def codec(start: State) -> Codec:
    """The encoding of the game ``start`` is a position of."""
    return CODECS[type(start)](start)
