"""PettingZoo environments for every game of parlour (the extra ``parlour[envs]``).

``env(name, **options)`` is the AEC environment of any registered game with its
options (``env("kalah", seeds=3)``); ``kalah_v0``, ``mancala_v0``, ``ayo_v0``,
``gomoku_v0`` and ``war_v0`` are the same per game, as PettingZoo's own families name
them.  The rules are parlour's own states: an environment only encodes them.

PettingZoo's conventions: agents ``player_0`` and ``player_1`` (parlour's seats 0 and
1); each observation is ``{"observation": ..., "action_mask": ...}`` seen from the
agent's side; the rewards come at the end, +1 to the winner, -1 to the loser, 0 to both
on a draw, with the final margin (the agent's score minus the opponent's, as the game
counts scores) in ``infos[agent]["margin"]``.  A game cut short by its round limit (Ayo's
``max_rounds`` with nobody holding all 48 tokens, War's ``max_rounds``) ends in
``truncations``, every other end in ``terminations``; the round limit still names a
winner, so its rewards are paid.  ``render_mode="ansi"`` gives the terminal's board.

War has no choices: each round both agents act with their one action (turning up their
card), player_0 first, and the round is played when player_1 has acted; each sees only
its own cards (which cards it holds, not their order), never the opponent's.

>>> from parlour.envs import kalah_v0
>>> env = kalah_v0(render_mode="ansi")
>>> env.reset(seed=1)
>>> env.agent_selection, env.observe("player_0")["action_mask"].tolist()
('player_0', [1, 1, 1, 1, 1, 1])
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import OrderEnforcingWrapper

from parlour.core import IllegalMove, Move, State, game, shown
from parlour.games.ayo import HOUSES, TOKENS, AyoState
from parlour.games.gomoku import GomokuState
from parlour.games.sowing import SowingState
from parlour.games.war import ROUND_LIMIT
from parlour.games.war_game import ROUND, WarState

AGENTS = ("player_0", "player_1")
CARDS = 52


class Codec(ABC):
    """How one game's states meet an environment: actions as numbers, observations
    as arrays from a seat's side, and who acts next.  A codec is made from the game's
    start (``Codec(start)``), which gives the spaces' sizes."""

    actions: int
    observation: spaces.Box

    @abstractmethod
    def move(self, state: State, action: int) -> Move:
        """The move of ``action`` (legal or not: the state judges)."""

    def mask(self, state: State) -> np.ndarray:
        """The legal actions of the side to act, as 0/1 int8."""
        mask = np.zeros(self.actions, dtype=np.int8)
        mask[[self.action(m) for m in state.legal_moves()]] = 1
        return mask

    @abstractmethod
    def action(self, move: Move) -> int:
        """The action of a legal ``move``."""

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


class SowingCodec(Codec):
    """An action is a column of the agent's own row; the observation is the agent's
    pits (by column) and store, then the opponent's."""

    def __init__(self, start: State) -> None:
        assert isinstance(start, SowingState)
        self.actions = start.pits
        high = start.game.total_seeds
        self.observation = spaces.Box(0, high, (2 * start.pits + 2,), np.int16)

    def move(self, state: State, action: int) -> Move:
        return action

    def action(self, move: Move) -> int:
        assert isinstance(move, int)
        return move

    def observe(self, state: State, seat: int) -> np.ndarray:
        assert isinstance(state, SowingState)
        sides = [(*state.row(p), state.scores[p]) for p in (seat, 1 - seat)]
        return np.array(sides[0] + sides[1], dtype=np.int16)


class AyoCodec(Codec):
    """An action is a house 0..11; the observation is the twelve houses starting from
    the agent's own row (player_1's view is turned by six), which of them the agent
    owns this round, and the tokens each has captured (the agent's first)."""

    def __init__(self, start: State) -> None:
        self.actions = HOUSES
        self.observation = spaces.Box(0, TOKENS, (2 * HOUSES + 2,), np.int16)

    def move(self, state: State, action: int) -> Move:
        return action

    def action(self, move: Move) -> int:
        assert isinstance(move, int)
        return move

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
        self.observation = spaces.Box(0, 1, (self.size, self.size, 2), np.int8)

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
        self.observation = spaces.Box(0, 1, (CARDS,), np.int8)

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
        return state.result is not None and state.result[0] == ROUND_LIMIT


CODECS: dict[type[State], Any] = {
    SowingState: SowingCodec,
    AyoState: AyoCodec,
    GomokuState: GomokuCodec,
    WarState: WarCodec,
}


class ParlourEnv(AECEnv):  # type: ignore[misc]
    """The AEC environment of one parlour game (see the module's docstring)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, name: str, render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be 'ansi' or None, not {shown(render_mode)}")
        self.game = game(name, **options)
        self.drawn = {"seed"} & {o.name for o in self.game.OPTIONS} - set(options)
        """The game's random draw, taken from the environment's generator at each reset
        unless the options fix it."""
        self.metadata = {**ParlourEnv.metadata, "name": f"{name}_v0"}  # type: ignore[misc]
        self.render_mode = render_mode
        self.state: State = self.game.start()
        self.codec = CODECS[type(self.state)](self.state)
        self.possible_agents = list(AGENTS)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": self.codec.observation,
                    "action_mask": spaces.Box(0, 1, (self.codec.actions,), np.int8),
                }
            )
            for agent in AGENTS
        }
        self.action_spaces = {agent: spaces.Discrete(self.codec.actions) for agent in AGENTS}
        self.np_random, _ = seeding.np_random(None)
        self._seat = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; with ``seed``, the same game (deal, first player) every time."""
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        rules = self.game
        if self.drawn:
            draw = int(self.np_random.integers(2**62))
            rules = game(self.game.name, **{**self.game.options, "seed": draw})
        self.state = rules.start()
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        self._seat = self.state.to_move
        self.agent_selection = AGENTS[self._seat]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = AGENTS.index(agent)
        acting = seat == self._seat and not self.state.is_over
        mask = self.codec.mask(self.state) if acting else np.zeros(self.codec.actions, np.int8)
        return {"observation": self.codec.observe(self.state, seat), "action_mask": mask}

    def step(self, action: int) -> None:
        """The agent to act plays ``action``; IllegalMove (and nothing changed) when its
        action mask does not allow it."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._clear_rewards()
        self._cumulative_rewards[agent] = 0
        self.state, self._seat = self.codec.act(self.state, self._seat, int(action))
        self.agent_selection = AGENTS[self._seat]
        if self.state.is_over:
            self._finish()
        self._accumulate_rewards()

    def _finish(self) -> None:
        winner = self.state.winner
        cut = self.codec.truncated(self.state)
        scores = self.state.scores
        for seat, agent in enumerate(AGENTS):
            self.rewards[agent] = 0 if winner is None else (1 if winner == seat else -1)
            self.infos[agent] = {"margin": scores[seat] - scores[1 - seat]}
            self.terminations[agent] = not cut
            self.truncations[agent] = cut

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return self.state.render()

    def close(self) -> None:
        pass


def raw_env(name: str, render_mode: str | None = None, **options: Any) -> ParlourEnv:
    """The environment without PettingZoo's wrappers."""
    return ParlourEnv(name, render_mode, **options)


def env(name: str, render_mode: str | None = None, **options: Any) -> AECEnv:
    """The AEC environment of game ``name`` with ``options``, wrapped as PettingZoo's own
    environments are (calls out of order are refused)."""
    return OrderEnforcingWrapper(raw_env(name, render_mode, **options))


def kalah_v0(render_mode: str | None = None, **options: Any) -> AECEnv:
    return env("kalah", render_mode, **options)


def mancala_v0(render_mode: str | None = None, **options: Any) -> AECEnv:
    return env("mancala", render_mode, **options)


def ayo_v0(render_mode: str | None = None, **options: Any) -> AECEnv:
    return env("ayo", render_mode, **options)


def gomoku_v0(render_mode: str | None = None, **options: Any) -> AECEnv:
    return env("gomoku", render_mode, **options)


def war_v0(render_mode: str | None = None, **options: Any) -> AECEnv:
    return env("war", render_mode, **options)
