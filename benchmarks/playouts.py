"""Random playouts per second on OpenSpiel's Kalah rules: parlour's PettingZoo environment,
parlour.batch (compiled playouts, and stepped from Python as a learning loop steps it) and
OpenSpiel's own C++ ``mancala``, in one run on one core; and parlour's games through its
OpenSpiel adapter (``parlour_kalah``, ``parlour_gomoku``) against OpenSpiel's own
``mancala`` and ``gomoku`` driven the same way, as a ratio, two ways: from Python (a loop
of ``legal_actions``, a random choice and ``apply_action``, as a Python learning loop or
search drives a game) and from C++ (``pyspiel.evaluate_bots`` with uniform random bots,
where OpenSpiel's own game never leaves C++ and parlour's calls into Python at each
step).  Each pair is timed in alternating slices, so that a machine whose load changes
(the figures move by half under a shared load) weighs on both alike; the load average is
recorded before and after.

OpenSpiel's ``mancala`` is Kalah with 6 pits and 4 seeds where a capture needs seeds in the
opposite pit: parlour's ``kalah`` with ``empty_capture=false``.  A playout is a whole game
of uniformly random legal moves from the start.  OpenSpiel's games run in C++ from end to
end (``pyspiel.evaluate_bots`` with its uniform random bots, one call a game); the batch's
compiled playouts run ``--batch`` games side by side in one call; the batch stepped from
Python draws the moves and steps all its games once a ply (``random_moves``, ``step``,
``reset`` of the finished ones); the environment plays one game at a time through
PettingZoo's AEC interface.  Each is warmed first.  The win shares of player 0 are
printed beside the rates, as a check that all play the same game.

    .venv/bin/python benchmarks/playouts.py [--seconds 3] [--batch 256] [--quick]
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from parlour.batch import batch as batch_of
from parlour.envs import raw_env
from parlour.games.sowing.batch import SowingBatch
from record import arguments, duration, record, whole

OPTIONS: dict[str, Any] = {"empty_capture": False}
"""parlour's options for OpenSpiel's Kalah rules."""
TARGET = 2.0
"""The batch's compiled playouts against OpenSpiel's C++: at least this many times."""


def timed(play: Callable[[], tuple[int, int]], seconds: float) -> tuple[float, float]:
    """Games per second of ``play`` (which returns games played and player 0's wins)
    called for ``seconds``, and player 0's share of the wins."""
    play()  # warm: compiled, loaded
    games = wins = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        played, won = play()
        games += played
        wins += won
    return games / (time.perf_counter() - started), wins / games


def spiel_games(name: str, seed: int) -> Callable[[], tuple[int, int]]:
    """Random games of the OpenSpiel game ``name`` (OpenSpiel's own, or one of parlour's
    through its adapter), one ``evaluate_bots`` call a game."""
    import parlour.openspiel  # noqa: F401  (registers parlour's games)

    game = pyspiel.load_game(name)
    bots = [pyspiel.make_uniform_random_bot(player, seed + player) for player in range(2)]
    count = [0]

    def play() -> tuple[int, int]:
        count[0] += 1
        returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, seed + count[0])
        return 1, int(returns[0] > 0)

    return play


def spiel_driven(name: str, seed: int) -> Callable[[], tuple[int, int]]:
    """Random games of the OpenSpiel game ``name`` driven from Python, one game a call."""
    import parlour.openspiel  # noqa: F401  (registers parlour's games)

    game = pyspiel.load_game(name)
    rng = random.Random(seed)

    def play() -> tuple[int, int]:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        return 1, int(state.returns()[0] > 0)

    return play


def alternating(
    ours: Callable[[], tuple[int, int]], theirs: Callable[[], tuple[int, int]], seconds: float
) -> tuple[float, float]:
    """Games per second of ``ours`` and of ``theirs``, each timed for ``seconds`` in
    alternating slices of a tenth of it (each warmed first)."""
    ours(), theirs()
    games, spent = [0, 0], [0.0, 0.0]
    for _ in range(10):
        for side, play in enumerate((ours, theirs)):
            started = time.perf_counter()
            while time.perf_counter() - started < seconds / 10:
                games[side] += play()[0]
            spent[side] += time.perf_counter() - started
    return games[0] / spent[0], games[1] / spent[1]


DRIVERS = {"python": spiel_driven, "evaluate_bots": spiel_games}
"""How the games through OpenSpiel are driven: from Python, or by OpenSpiel's C++."""
ADAPTED = {
    "kalah": ("parlour_kalah(empty_capture=False)", "mancala"),
    "five_in_a_row": ("parlour_gomoku", "gomoku"),
}
"""Each game: parlour's through the adapter, and OpenSpiel's own of the same rules."""


def batch_playouts(size: int, seed: int) -> Callable[[], tuple[int, int]]:
    batch = batch_of("kalah", size, seed, **OPTIONS)
    assert isinstance(batch, SowingBatch)

    def play() -> tuple[int, int]:
        tally = batch.playouts(20 * size)
        return int(tally.sum()), int(tally[0])

    return play


def batch_steps(size: int, seed: int) -> Callable[[], tuple[int, int]]:
    """The learning loop's shape: a ply of every game a call, finished games restarted."""
    batch = batch_of("kalah", size, seed, **OPTIONS)
    assert isinstance(batch, SowingBatch)

    def play() -> tuple[int, int]:
        batch.step(batch.random_moves())
        done = batch.terminal
        wins = int((batch.rewards()[done, 0] > 0).sum())
        batch.reset(done)
        return int(done.sum()), wins

    return play


def env_game(seed: int) -> Callable[[], tuple[int, int]]:
    env = raw_env("kalah", **OPTIONS)
    rng = np.random.default_rng(seed)

    def play() -> tuple[int, int]:
        env.reset()
        while not env.terminations[env.agent_selection]:
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask))))
        return 1, int(env.rewards["player_0"] > 0)

    return play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=duration(), default=3.0, help="time for each way")
    parser.add_argument("--batch", type=whole(), default=256, help="games in the batch")
    parser.add_argument("--seed", type=whole(0), default=1)
    args = arguments(parser, quick={"seconds": 0.2, "batch": 16})
    load_before = os.getloadavg()[0]
    ways = {
        "openspiel_cpp": spiel_games("mancala", args.seed),
        "batch_playouts": batch_playouts(args.batch, args.seed),
        "batch_steps": batch_steps(args.batch, args.seed),
        "pettingzoo_env": env_game(args.seed),
    }
    rates: dict[str, float] = {}
    shares: dict[str, float] = {}
    for name, play in ways.items():
        rates[name], shares[name] = timed(play, args.seconds)
    base = rates["openspiel_cpp"]
    print(f"Random playouts a second, OpenSpiel's Kalah rules, one core, batch of {args.batch}")
    for name, rate in rates.items():
        print(
            f"  {name:<16} {rate:>12,.0f}   x{rate / base:6.2f} OpenSpiel's C++"
            f"   player 0 wins {100 * shares[name]:.1f}%"
        )
    ratio = rates["batch_playouts"] / base
    print(f"batch / OpenSpiel C++: x{ratio:.2f} (target x{TARGET:g})")
    adapted: dict[str, dict[str, dict[str, float]]] = {}
    print("Random games a second through OpenSpiel, parlour's adapter against OpenSpiel's own")
    for name, (ours, theirs) in ADAPTED.items():
        adapted[name] = {}
        for driver, games in DRIVERS.items():
            mine, own = alternating(games(ours, args.seed), games(theirs, args.seed), args.seconds)
            adapted[name][driver] = {"parlour": mine, "openspiel": own, "ratio": mine / own}
            print(
                f"  {name:<14} {driver:<14} {mine:>10,.1f} against {own:>10,.1f}"
                f"   x{mine / own:.3f} (within 3x: x0.333 or more)"
            )
    load = [load_before, os.getloadavg()[0]]
    print(f"load average before and after: {load[0]:.2f}, {load[1]:.2f}")
    record(
        args,
        {
            "games_per_second": rates,
            "player_0_wins": shares,
            "batch_ratio": ratio,
            "adapters": adapted,
            "load": load,
        },
    )


if __name__ == "__main__":
    main()
