"""parlour's games as OpenSpiel games (the extra ``parlour[openspiel]``).

Importing this module registers ``parlour_kalah``, ``parlour_mancala``, ``parlour_ayo``,
``parlour_gomoku`` and ``parlour_war`` with ``pyspiel.register_game``, so OpenSpiel's
algorithms load them by name, with parlour's options as the game's parameters
(``pyspiel.load_game("parlour_kalah(seeds=3)")``).  An option that may be "none" in
parlour (Ayo's ``max_rounds`` and ``first``, War's ``seed``) is -1 for none here.

The rules are parlour's states, the actions and observations :mod:`parlour.encoding`'s
(the agent's own side first).  Chance: Ayo without ``first`` starts with a chance node
that draws the starter; War starts with one that draws the deal (``deals`` equally likely
deals of the run ``seed``, the one random choice of a game: the pickups that shuffle draw
from that deal's own stream), and then both players act in turn each round with their
one action, each observing only its own cards (an imperfect-information game).  Returns
are +1/-1 for a win and a loss, 0 for both on a draw.

>>> import pyspiel, parlour.openspiel
>>> game = pyspiel.load_game("parlour_kalah", {"seeds": 3})
>>> game.new_initial_state().legal_actions()
[0, 1, 2, 3, 4, 5]
"""

from __future__ import annotations

from typing import Any, Generic, NamedTuple, TypeVar

import numpy as np
import pyspiel

from parlour.core import (
    BadOption,
    Game,
    Move,
    Option,
    State,
    game,
    game_names,
    game_options,
    shown,
)
from parlour.encoding import Codec
from parlour.kit import ChanceStart, kit_of

T = TypeVar("T")
_SINGLE, _ALL = pyspiel.PrivateInfoType.SINGLE_PLAYER, pyspiel.PrivateInfoType.ALL_PLAYERS
NONE = -1
"""An option's "none" among OpenSpiel's parameters, which have no null."""


def parameters(name: str) -> dict[str, Any]:
    """OpenSpiel's parameters of parlour game ``name``: its options with their defaults,
    and the kit's number of chance starts where it has one (War's ``deals``)."""
    spec = {option.name: _spiel_value(option) for option in game_options(name)}
    draws = kit_of(name).draws
    return spec if draws is None else spec | {draws[0]: draws[1]}


def _spiel_value(option: Option) -> Any:
    return NONE if option.default is None else option.default


def rules_of(name: str, params: dict[str, Any]) -> tuple[Game, ChanceStart | None]:
    """The parlour game of OpenSpiel parameters ``params``, and how its start is drawn by
    chance (None: it is given)."""
    values = {**parameters(name), **params}
    kit = kit_of(name)
    draws = None if kit.draws is None else values.pop(kit.draws[0])
    if kit.draws is not None and (not isinstance(draws, int) or draws < 1):
        raise BadOption(
            f"parameter {kit.draws[0]} must be a whole number, 1 or more, not {shown(draws)}"
        )
    options = {k: None if v == NONE and isinstance(v, int) else v for k, v in values.items()}
    rules = game(name, **options)
    return rules, kit.chance_start(rules, draws)


class ParlourGame(pyspiel.Game):  # type: ignore[misc, unused-ignore]
    """One parlour game as OpenSpiel sees it; a subclass a game (see :func:`register`)."""

    NAME = ""
    TYPE: Any = None

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        rules, chance = rules_of(self.NAME, dict(params or {}))
        start = rules.start()
        encoding = kit_of(start.game).codec(start)
        info = pyspiel.GameInfo(
            num_distinct_actions=encoding.actions,
            max_chance_outcomes=0 if chance is None else chance.outcomes,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=encoding.max_length,
        )
        super().__init__(self.TYPE, info, dict(params or {}))
        self.rules = rules
        self.chance = chance
        self.codec = encoding
        self.shared = Shared(self)
        """The game as its states hold it (never copied by a clone)."""
        self.start: Shared[State | None] = Shared(None if chance else start)
        """The state every game begins in (None: a chance node draws it), shared."""
        self.stepper = None if chance else encoding.stepper(start)
        """Its stepper, copied for each game (None: no stepper, or a chance start)."""
        self.cut = None if encoding.bounded else encoding.max_length
        """The length a game is cut at, unfinished (a draw), where the rules have none."""

    def new_initial_state(self) -> ParlourSpielState:
        return ParlourSpielState(self)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its name and parameters, loaded again through OpenSpiel."""
        return _load, (self.NAME, self.get_parameters())

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        return Observer(self.codec, iig_obs_type)


def _load(name: str, params: dict[str, Any]) -> ParlourGame:
    game: ParlourGame = pyspiel.load_game(f"parlour_{name}", params)
    return game


def _replayed(spiel_game: ParlourGame, actions: list[int]) -> ParlourSpielState:
    state = spiel_game.new_initial_state()
    for action in actions:
        state.apply_action(action)
    return state


class Shared(Generic[T]):
    """What OpenSpiel's clone of a state shares with the original instead of copying
    (the clone deep-copies a Python state's attributes): parlour's states and games are
    immutable values, and a game's options cannot be copied that way."""

    __slots__ = ("value",)

    def __init__(self, value: T) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, Any]) -> Shared[T]:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (OpenSpiel's serialization pickles a state's attributes): a parlour
        state as its game's name, options and notation, which round-trips."""
        value = self.value
        if isinstance(value, State):
            rules = value.game
            return _shared_state, (rules.name, dict(rules.options), value.notation())
        return Shared, (value,)


def _shared_state(name: str, options: dict[str, Any], notation: str) -> Shared[State]:
    return Shared(game(name, **options).parse(notation))


UNMADE: Shared[State | None] = Shared(None)
"""A stepper's state not made yet (made again when asked)."""


class Step(NamedTuple):
    """One action and the player who took it (chance: -1), as OpenSpiel's PlayerAction."""

    player: int
    action: int


class Steps(list[tuple[int, int]]):
    """A state's actions from the start, each with the player who took it (a pair, made a
    :class:`Step` only when asked, as a step costs less so): its history, kept here
    because a step taken from Python goes nowhere near OpenSpiel's C++ (whose own history
    then lags behind).  A clone copies it, items and all shared (they are numbers),
    rather than deep-copying each one."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Steps:
        return Steps(self)


class ParlourSpielState(pyspiel.State):  # type: ignore[misc, unused-ignore]
    """An OpenSpiel state holding a parlour state, and the seat to act; where the game's
    codec has a :class:`~parlour.encoding.Stepper`, that is stepped instead, in place by
    the game's compiled kernels, and the parlour state made only when asked (an
    observation, a string, the returns)."""

    def __init__(self, spiel_game: ParlourGame) -> None:
        super().__init__(spiel_game)
        self._game = spiel_game.shared
        self._steps = Steps()
        start = spiel_game.start  # the game's, shared: a state made once for every game
        self._state: Shared[State | None] = start
        stepper = spiel_game.stepper
        self._stepper = None if stepper is None else stepper.copy()
        self.seat = 0 if start.value is None else start.value.to_move

    def _begin(self, start: State) -> None:
        """Play from ``start``, drawn at the chance node before it."""
        self._state = Shared(start)
        self._stepper = self.codec.stepper(start)
        self.seat = start.to_move

    @property
    def spiel_game(self) -> ParlourGame:
        return self._game.value

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its game and the actions from the start (chance outcomes too)."""
        return _replayed, (self.spiel_game, self.history())

    def history(self) -> list[int]:
        return [action for _, action in self._steps]

    def full_history(self) -> list[Step]:
        return [Step(*step) for step in self._steps]

    def history_str(self) -> str:
        return ", ".join(str(action) for _, action in self._steps)

    def move_number(self) -> int:
        return len(self._steps)

    def is_initial_state(self) -> bool:
        return not self._steps

    @property
    def codec(self) -> Codec:
        return self.spiel_game.codec

    @property
    def state(self) -> State | None:
        """The parlour state; None before the chance node at the start."""
        if self._state.value is None and self._stepper is not None:
            self._state = Shared(self._stepper.state())
        return self._state.value

    def current_player(self) -> int:
        stepper = self._stepper
        if stepper is not None:
            return int(pyspiel.PlayerId.TERMINAL) if stepper.over else stepper.to_move
        if self.state is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self._over():
            return int(pyspiel.PlayerId.TERMINAL)
        return self.seat

    def _over(self) -> bool:
        """Whether the game of a state (a stepper's is its own) is over: by its rules, or
        cut at the game's declared maximum length where the rules have no bound."""
        state, cut = self.state, self.spiel_game.cut
        return state is not None and (
            state.is_over or (cut is not None and len(self._steps) >= cut)
        )

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions (of ``player``, if given): with a stepper, answered from it
        without the way through OpenSpiel's C++ and back that other calls take."""
        stepper = self._stepper
        if stepper is not None and player in (None, stepper.to_move):
            return list(stepper.legal)
        found: list[int] = super().legal_actions(*(() if player is None else (player,)))
        return found

    def _legal_actions(self, player: int) -> list[int]:
        if self._stepper is not None:
            return self._stepper.legal
        assert self.state is not None
        if self._over():
            return []
        return [int(a) for a in np.flatnonzero(self.codec.mask(self.state))]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        chance = self.spiel_game.chance
        assert chance is not None  # a chance node only where the start is drawn
        return [(outcome, 1.0 / chance.outcomes) for outcome in range(chance.outcomes)]

    def apply_action(self, action: int) -> None:
        """Play ``action``: a legal one of a stepper here, without the way through
        OpenSpiel's C++ and back (two calls into Python) that the others take."""
        stepper = self._stepper
        if stepper is not None and action in stepper.legal:
            self._steps.append((stepper.to_move, int(action)))
            stepper.apply(action)
            self._state = UNMADE
        else:
            super().apply_action(action)

    def _apply_action(self, action: int) -> None:
        """Play ``action`` as OpenSpiel's C++ asks (its algorithms, ``evaluate_bots``)."""
        player, stepper = self.current_player(), self._stepper
        if stepper is not None and action in stepper.legal:
            stepper.apply(action)
            self._state = UNMADE
        elif self.state is None:
            assert self.spiel_game.chance is not None
            self._begin(self.spiel_game.chance.start(int(action)))
        else:  # no stepper (or an illegal action, which the state refuses in its words)
            after, self.seat = self.codec.act(self.state, self.seat, int(action))
            self._state = Shared(after)
        self._steps.append((player, int(action)))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            assert self.spiel_game.chance is not None
            return f"{self.spiel_game.chance.word} {action}"
        assert self.state is not None
        move: Move = self.codec.move(self.state, action)
        return self.state.move_name(move)

    def is_terminal(self) -> bool:
        if self._stepper is not None:
            return self._stepper.over
        return self._over()

    def returns(self) -> list[float]:
        winner = None if self.state is None else self.state.winner
        if winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if winner == 0 else [-1.0, 1.0]

    def __str__(self) -> str:
        return "(chance)" if self.state is None else self.state.notation()


class Observer:
    """OpenSpiel's observer (its PyObserver interface): what a seat sees, by the codec, of
    the kind OpenSpiel asks (``pyspiel.IIGObservationType``; None: the default, what the
    seat sees now).  Public information is what every seat sees alike (the codec's
    :meth:`~parlour.encoding.Codec.public`); a seat's private information what only it
    sees (nothing, in a game with nothing hidden); all players' private information is
    what each sees; with perfect recall, the information state: what the seat saw at
    each step from the start (one row of the tensor a step, the start's chance node the
    first, the rows past the last step zero), with the actions it took (in the text)."""

    def __init__(self, encoding: Codec, kind: Any = None) -> None:
        self.codec = encoding
        self.public = True if kind is None else bool(kind.public_info)
        self.private = _SINGLE if kind is None else kind.private_info
        self.recall = False if kind is None else bool(kind.perfect_recall)
        self.step = self._size()
        steps = recalled_steps(encoding) if self.recall else 1
        self.tensor = np.zeros(steps * self.step, np.float32)
        shape = encoding.shape if self.step and self.private != _ALL else (self.step,)
        self.dict = {"observation": self.tensor.reshape(steps, *shape) if self.recall else
                     self.tensor.reshape(shape)}  # fmt: skip

    def _size(self) -> int:
        """A step's size: the codec's observation where it shows what is asked."""
        one = int(np.prod(self.codec.shape))
        if self.private == _ALL:
            return 2 * one if self.codec.hidden else one
        if self.private == _SINGLE:
            return one if (self.codec.hidden or self.public) else 0
        return 0 if self.codec.hidden else one  # public only: the board, if nothing is hidden

    def set_from(self, spiel_state: ParlourSpielState, player: int) -> None:
        self.tensor.fill(0)
        if not self.step:
            return
        if not self.recall:
            self._fill(self.tensor, spiel_state.state, player)
            return
        rows = self.tensor.reshape(-1, self.step)
        replayed = spiel_state.spiel_game.new_initial_state()
        for row, action in zip(rows, spiel_state.history(), strict=False):
            self._fill(row, replayed.state, player)
            replayed.apply_action(action)
        self._fill(rows[len(spiel_state.history())], spiel_state.state, player)

    def _fill(self, row: np.ndarray, state: State | None, player: int) -> None:
        """What ``player`` sees of ``state`` (nothing at the chance node before the start)."""
        if state is None:
            return
        if self.private == _ALL and self.codec.hidden:
            seats = [self.codec.observe(state, seat).ravel() for seat in (player, 1 - player)]
            row[:] = np.concatenate(seats)
        else:
            row[:] = self.codec.observe(state, player).ravel()

    def string_from(self, spiel_state: ParlourSpielState, player: int) -> str:
        if not self.recall:
            return self._seen(spiel_state.state, player)
        steps, replayed = [], spiel_state.spiel_game.new_initial_state()
        for action in spiel_state.history():
            mover = replayed.current_player()
            steps.append(self._seen(replayed.state, player))
            if mover == player:
                steps.append(f"played {action}")
            replayed.apply_action(action)
        steps.append(self._seen(spiel_state.state, player))
        return "\n".join(steps)

    def _seen(self, state: State | None, player: int) -> str:
        """What ``player`` sees of ``state`` now, of this observer's kind."""
        if state is None:  # the draw at the start: public, and nobody's own
            return "(chance)" if self.public or self.private == _ALL else ""
        codec = self.codec
        if self.private == _ALL:
            return " | ".join(codec.seen(state, seat) for seat in (0, 1))
        mine = codec.seen(state, player) if self.private == _SINGLE and codec.hidden else ""
        shared = codec.public(state) if self.public else ""
        return " | ".join(part for part in (shared, mine) if part)


RECALLED_VALUES = 1 << 17
"""The largest information-state tensor a game provides (at its preset): every step's
observation, a row each, for the longest game (a game longer than that, such as Ayo of
25,000 moves, has information-state strings only)."""


def recalled_steps(encoding: Codec) -> int:
    """The rows of an information-state tensor: the start's chance node and every step."""
    return encoding.max_length + 2


def register(name: str) -> type[ParlourGame]:
    """Register parlour game ``name`` as OpenSpiel's ``parlour_NAME``."""
    chance = rules_of(name, {})[1]
    codec = encode(name)
    hidden = codec.hidden
    recalled = recalled_steps(codec) * int(np.prod(codec.shape)) <= RECALLED_VALUES
    spiel_type = pyspiel.GameType(
        short_name=f"parlour_{name}",
        long_name=f"parlour {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
            if chance is not None
            else pyspiel.GameType.ChanceMode.DETERMINISTIC
        ),
        information=(
            pyspiel.GameType.Information.IMPERFECT_INFORMATION
            if hidden
            else pyspiel.GameType.Information.PERFECT_INFORMATION
        ),
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=recalled,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters(name),
    )
    title = f"Parlour{name.title()}Game"
    cls = type(title, (ParlourGame,), {"NAME": name, "TYPE": spiel_type, "__module__": __name__})
    globals()[title] = cls  # found by its name, as pickle looks a class up
    pyspiel.register_game(spiel_type, cls)
    return cls


def encode(name: str) -> Codec:
    """The encoding of game ``name`` at its preset's start (BadOption where it has none)."""
    start = game(name).start()
    return kit_of(start.game).codec(start)


def _encoded(name: str) -> bool:
    """Whether game ``name`` has an encoding for the learning frameworks (its kit's)."""
    try:
        encode(name)
    except BadOption:
        return False
    return True


GAME_CLASSES = {name: register(name) for name in game_names() if _encoded(name)}
