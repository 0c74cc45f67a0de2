"""PettingZoo environments for every game of parlour (the extra ``parlour[envs]``).

``env(name, **options)`` is the AEC environment of any registered game with its
options (``env("kalah", seeds=3)``); the modules ``parlour.envs.kalah_v0``,
``mancala_v0``, ``ayo_v0``, ``gomoku_v0`` and ``war_v0`` are the same per game, laid out
as PettingZoo's own families are, each with ``env``, ``raw_env`` and ``parallel_env``
(``war_v0.parallel_env()``: War's seats act at once; a game played in turns has no
parallel environment).  An illegal action raises IllegalMove, or with ``illegal_reward``
ends the game as PettingZoo's board games do (``env("kalah", illegal_reward=-1)``).
``max_cycles`` cuts a game short once each agent has had that many turns on average (a
War round, or two plies), as PettingZoo's ``max_cycles`` does.  The rules are parlour's
own states: an environment only encodes them.

PettingZoo's conventions: agents ``player_0`` and ``player_1`` (parlour's seats 0 and
1); each observation is ``{"observation": ..., "action_mask": ...}`` seen from the
agent's side; the rewards come at the end, +1 to the winner, -1 to the loser, 0 to both
on a draw, with the final margin (the agent's score minus the opponent's, as the game
counts scores) in ``infos[agent]["margin"]``.  A game cut short by its round limit (Ayo's
``max_rounds`` with nobody holding all 48 tokens, War's ``max_rounds``) ends in
``truncations``, every other end in ``terminations``; the round limit still names a
winner, so its rewards are paid, where ``max_cycles`` names none (0 to both).
``render_mode="ansi"`` gives the terminal's board, ``"human"`` prints it.

The encodings (actions, observations, War's turns and hidden cards) are
:mod:`parlour.encoding`'s.

>>> from parlour.envs import kalah_v0
>>> env = kalah_v0.env(render_mode="ansi")
>>> env.reset(seed=1)
>>> env.agent_selection, env.observe("player_0")["action_mask"].tolist()
('player_0', [1, 1, 1, 1, 1, 1])
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import OrderEnforcingWrapper, TerminateIllegalWrapper

from parlour.core import State, game, shown
from parlour.kit import kit_of

AGENTS = ("player_0", "player_1")


class ParlourEnv(AECEnv):  # type: ignore[misc, unused-ignore]
    """The AEC environment of one parlour game (see the module's docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        name: str,
        render_mode: str | None = None,
        max_cycles: int | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        if render_mode not in (None, *ParlourEnv.metadata["render_modes"]):
            raise ValueError(
                f"render_mode must be 'ansi', 'human' or None, not {shown(render_mode)}"
            )
        self.game = game(name, **options)
        self.drawn = {"seed"} & {o.name for o in self.game.OPTIONS} - set(options)
        """The game's random draw, taken from the environment's generator at each reset
        unless the options fix it."""
        named = {**ParlourEnv.metadata, "name": f"{name}_v0"}
        self.metadata = named  # type: ignore[misc, unused-ignore]
        self.render_mode = render_mode
        self.max_steps = None if max_cycles is None else max_cycles * len(AGENTS)
        """The actions after which a game is cut short (None: never)."""
        self.steps = 0
        start = self.game.start()
        self.codec = kit_of(start.game).codec(start)
        self._begin(start)
        observation = spaces.Box(0, self.codec.high, self.codec.shape, self.codec.dtype)
        self.possible_agents = list(AGENTS)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": observation,
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
        self._begin(rules.start())
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        self.steps = 0
        self._seat = self.state.to_move
        self.agent_selection = AGENTS[self._seat]

    def _begin(self, start: State) -> None:
        """Play from ``start``: stepped by the game's compiled kernels where its codec has
        a stepper (the state then made only when asked), else by its states."""
        self._made: State | None = start
        self._stepper = self.codec.stepper(start)

    @property
    def state(self) -> State:
        """The parlour state of the game."""
        if self._made is None:
            assert self._stepper is not None
            self._made = self._stepper.state()
        return self._made

    @state.setter
    def state(self, value: State) -> None:
        self._begin(value)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat, stepper = AGENTS.index(agent), self._stepper
        mask = np.zeros(self.codec.actions, np.int8)
        if seat == self._seat and not self.ended:
            if stepper is None:
                mask = self.codec.mask(self.state)
            else:
                mask[stepper.legal] = 1
        if stepper is None:
            return {"observation": self.codec.observe(self.state, seat), "action_mask": mask}
        return {"observation": self.codec.observed(stepper, seat), "action_mask": mask}

    def step(self, action: int) -> None:
        """The agent to act plays ``action``; IllegalMove (and nothing changed) when its
        action mask does not allow it."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._clear_rewards()
        self._cumulative_rewards[agent] = 0
        stepper = self._stepper
        if stepper is not None and action in stepper.legal:
            stepper.apply(int(action))
            self._made, self._seat = None, stepper.to_move
        else:  # no stepper (or an illegal action, which the state refuses in its words)
            self._made, self._seat = self.codec.act(self.state, self._seat, int(action))
        self.agent_selection = AGENTS[self._seat]
        self.steps += 1
        if self.state.is_over if stepper is None else stepper.over:
            self._finish(self.state.winner, self.codec.truncated(self.state))
        elif self.steps == self.max_steps:
            self._finish(None, True)
        self._accumulate_rewards()

    @property
    def ended(self) -> bool:
        """Whether the game ended, by its rules or cut short."""
        return any(self.terminations.values()) or any(self.truncations.values())

    def _finish(self, winner: int | None, cut: bool) -> None:
        """The end: ``winner``'s rewards (None: a draw, or no winner named), every
        agent's margin, and a termination or (``cut`` short) a truncation."""
        scores = self.state.scores
        for seat, agent in enumerate(AGENTS):
            self.rewards[agent] = 0 if winner is None else (1 if winner == seat else -1)
            self.infos[agent] = {"margin": scores[seat] - scores[1 - seat]}
            self.terminations[agent] = not cut
            self.truncations[agent] = cut

    def render(self) -> str | None:
        """The terminal's board: returned (``ansi``) or printed (``human``)."""
        if self.render_mode == "human":
            print(self.state.render())
        return self.state.render() if self.render_mode == "ansi" else None

    def close(self) -> None:
        pass


class ParlourParallelEnv(ParallelEnv):  # type: ignore[misc, unused-ignore]
    """The parallel environment of a game whose seats act at once (War: both turn up a
    card each round): each step takes every agent's action, played in seat order through
    the AEC environment's rules."""

    def __init__(
        self,
        name: str,
        render_mode: str | None = None,
        max_cycles: int | None = None,
        **options: Any,
    ) -> None:
        self.aec = ParlourEnv(name, render_mode, max_cycles, **options)
        if not self.aec.codec.simultaneous:
            raise ValueError(
                f"{name} is played in turns: its environment is the AEC one (env), "
                "as PettingZoo's own turn-based games are"
            )
        self.metadata = self.aec.metadata
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        self.observation_spaces = self.aec.observation_spaces
        self.action_spaces = self.aec.action_spaces

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        self.aec.reset(seed, options)
        self.agents = list(AGENTS)
        return self._observations(), {agent: {} for agent in AGENTS}

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        """Each agent's observation, every agent's mask its legal actions (all act)."""
        state, codec = self.aec.state, self.aec.codec
        mask = np.zeros(codec.actions, np.int8) if self.aec.ended else codec.mask(state)
        seen = {agent: codec.observe(state, seat) for seat, agent in enumerate(AGENTS)}
        return {agent: {"observation": seen[agent], "action_mask": mask} for agent in AGENTS}

    def step(self, actions: dict[str, int]) -> tuple[Any, ...]:
        """Every agent's action, played in seat order; what each observes and earns."""
        aec = self.aec
        rewards = dict.fromkeys(AGENTS, 0.0)
        for _ in AGENTS:
            if aec.ended:
                break
            aec.step(actions[aec.agent_selection])
            for agent in AGENTS:
                rewards[agent] += aec.rewards[agent]
        ended = aec.ended
        terminations, truncations = dict(aec.terminations), dict(aec.truncations)
        infos = {agent: dict(aec.infos[agent]) for agent in AGENTS}
        observations = self._observations()
        if ended:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        pass


def raw_env(name: str, render_mode: str | None = None, **options: Any) -> ParlourEnv:
    """The environment without PettingZoo's wrappers."""
    return ParlourEnv(name, render_mode, **options)


def env(
    name: str,
    render_mode: str | None = None,
    illegal_reward: float | None = None,
    **options: Any,
) -> AECEnv:
    """The AEC environment of game ``name`` with ``options``, wrapped as PettingZoo's own
    environments are (calls out of order are refused).  With ``illegal_reward`` an
    illegal action ends the game, its agent earning that (PettingZoo's board games give
    -1: its ``TerminateIllegalWrapper``); without, it raises IllegalMove and nothing
    changes."""
    inner: AECEnv = raw_env(name, render_mode, **options)
    if illegal_reward is not None:
        inner = TerminateIllegalWrapper(inner, illegal_reward)
    return OrderEnforcingWrapper(inner)


def parallel_env(name: str, render_mode: str | None = None, **options: Any) -> ParallelEnv:
    """The parallel environment of game ``name``, where its seats act at once (War);
    ValueError for a game played in turns."""
    return ParlourParallelEnv(name, render_mode, **options)


def makers(
    name: str,
) -> tuple[Callable[..., AECEnv], Callable[..., ParlourEnv], Callable[..., ParallelEnv]]:
    """The ``env``, ``raw_env`` and ``parallel_env`` of the game called ``name``: what its
    module (``parlour.envs.kalah_v0``) holds."""
    return (
        functools.partial(env, name),
        functools.partial(raw_env, name),
        functools.partial(parallel_env, name),
    )
