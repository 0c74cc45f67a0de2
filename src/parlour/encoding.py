"""How parlour's games meet the learning frameworks (:mod:`parlour.envs` for PettingZoo,
:mod:`parlour.openspiel` for OpenSpiel): actions as numbers, observations as arrays from
a seat's side, who acts next, and whether an end was a round limit.  One home for these
encodings, so that both adapters see a game the same way; neither framework is imported
here.

Each game's codec lives in its folder (``games/<family>/codec.py``) and is reached through
its kit (``parlour.kit.kit_of(game).codec(start)``); this module holds what every codec
shares.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

import numpy as np

from parlour.core import Move, State


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
    max_length: int
    """The longest game the frameworks are told of, in actions (a game with no limit of
    its own is bounded by the longest it could have)."""
    bounded = True
    """Whether the rules end every game within :attr:`max_length`; where they do not
    (Ayo, whose rounds end only when a position comes back), OpenSpiel's adapter ends a
    game there, unfinished, as OpenSpiel's own games do at their length limits."""
    hidden = False
    """Whether a seat's observation hides part of the position (War's stacks)."""
    simultaneous = False
    """Whether both seats act in every round, as at once (War's cards turned up)."""

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

    def observed(self, stepper: Stepper, seat: int) -> np.ndarray:
        """What ``seat`` sees of ``stepper``'s position (as :meth:`observe` of its State,
        which a codec may skip making)."""
        return self.observe(stepper.state(), seat)

    def act(self, state: State, seat: int, action: int) -> tuple[State, int]:
        """The state after ``seat`` acts and the seat to act next."""
        after = state.play(self.move(state, action))
        return after, after.to_move

    def truncated(self, state: State) -> bool:
        """Whether a finished game was cut short by a limit rather than played out."""
        return False

    def stepper(self, state: State) -> Stepper | None:
        """``state`` as a :class:`Stepper` where the game has one (its kernels stepping a
        position in place, for the adapters' loops); None: the adapters step states."""
        return None

    def seen(self, state: State, seat: int) -> str:
        """What ``seat`` sees, as text: the board, where nothing is hidden."""
        return state.render()

    def public(self, state: State) -> str:
        """What every seat sees alike, as text: the board where nothing is hidden; nothing
        by default where something is (a game with hidden parts may say more)."""
        return "" if self.hidden else state.render()


class Stepper(ABC):
    """One game's position stepped in place by the game's own compiled kernels, without
    a State made at each move: what the adapters step where a game's codec gives one
    (:meth:`Codec.stepper`), a random game through them then running at about the speed
    of OpenSpiel's own C++ games (``benchmarks/playouts.py``).  Only a game played in
    turns, whose seat to act is its side to move, has one.  The caller checks an action
    against :attr:`legal` before :meth:`apply`; the State of the position is made only
    when asked (:meth:`state`)."""

    to_move: int
    legal: list[int]
    """The actions of the side to move, ascending (none once the game is over): a list a
    stepper may share with others, so never changed by its reader."""
    over: bool

    @classmethod
    @abstractmethod
    def of(cls, state: State) -> Stepper:
        """``state`` to be stepped (a copy of its board: the state stays as it is)."""

    @classmethod
    def restored(cls, name: str, options: dict[str, Any], notation: str) -> Stepper:
        """The stepper a pickle keeps: the position of game ``name`` with ``options``
        written ``notation``."""
        from parlour.core import game

        return cls.of(game(name, **options).parse(notation))

    @abstractmethod
    def apply(self, action: int) -> None:
        """Play ``action``, one of :attr:`legal`."""

    @abstractmethod
    def state(self) -> State:
        """The position as a State."""

    @abstractmethod
    def copy(self) -> Stepper:
        """An independent copy (what OpenSpiel's clone of a state takes)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Stepper:
        return self.copy()

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its position's game, options and notation (OpenSpiel's serialization
        pickles a state's attributes; a game's options do not pickle)."""
        state = self.state()
        return type(self).restored, (state.game.name, dict(state.game.options), state.notation())
