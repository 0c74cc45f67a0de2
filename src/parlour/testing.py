"""The conformance suite, shipped: ``parlour.testing.check_game(name)`` checks that a
registered game keeps the contract of ``parlour.core`` and of its kit.

As OpenSpiel runs one battery over each of its games and PettingZoo ships
``pettingzoo.test``, a game written outside parlour is checked with the same code as
parlour's own: random games played to their end with every invariant checked at every
position (states never change, notation round-trips, every legal move is accepted and
named, every other move and junk text refused with parlour's errors), ``play_report``
against ``play``, a kernel's perft against the walk of the states, the search adapters
against the states, every level the kit lists playing a legal move, and what a
page may see of each position written as JSON.  A broken contract raises
:class:`ConformanceError` naming the game, the position and the check.
"""

from __future__ import annotations

import json
import random
from collections.abc import Hashable, Iterable
from typing import Any

import numpy as np

from parlour.core import IllegalMove, ParlourError, State, game
from parlour.kit import kit_of, thinker
from parlour.search import Stop

JUNK_MOVES: tuple[Any, ...] = (None, -1, 10**9, "x", (0,), (99, 99), 2.5)
"""Moves no game takes."""
JUNK_TEXT = ("", " ", "x", "-1", "99999999999999999999", "²", "A1,B2", "\x00", "pass pass")
"""Text no game reads as a move, nor as a position."""
PERFT_LEAVES = 5_000
"""The largest tree the walk of the states counts against a game's own perft."""
MOVES_CAP = 5_000
"""More plies than any game of parlour's takes at its shortest options: a game that does
not end by then fails."""


class ConformanceError(AssertionError):
    """A game broke the contract: the message names the game, the position and the check."""


def check_game(
    name: str, options: dict[str, Any] | None = None, games: int = 3, seconds: float = 0.05
) -> None:
    """Check the game called ``name`` (with ``options``) by ``games`` random games and its
    kit's levels at ``seconds`` a move; ConformanceError at the first broken contract."""
    start = game(name, **(options or {})).start()
    played = [random_game(start, seed) for seed in range(games)]
    for states in played:
        seen: set[Hashable] = {move for state in states for move in state.legal_moves()}
        for state in states:
            check_position(state, seen)
        end = states[-1]
        _check(end.legal_moves() == () and end.winner in (0, 1, None), end, "an end")
    for state in played[0][::9][:4]:
        check_perft(state)
        check_adapters(state)
    check_levels(played[0], seconds)


def random_game(start: State, seed: int) -> list[State]:
    """The positions of one random game from ``start`` to its end."""
    rng = random.Random(seed)
    states = [start]
    while not states[-1].is_over:
        _check(len(states) < MOVES_CAP, states[-1], f"an end within {MOVES_CAP} plies")
        states.append(states[-1].play(rng.choice(states[-1].legal_moves())))
    return states


def check_position(state: State, seen: Iterable[Hashable] = ()) -> None:
    """Every invariant of one position; ``seen`` holds moves legal elsewhere, each of
    which must be refused here unless it is legal here too."""
    before = _snapshot(state)
    again = state.game.parse(state.notation())
    _check(again == state and hash(again) == hash(state), state, "notation round-trip")
    _check(
        len(state.scores) == 2 and all(isinstance(s, int) for s in state.scores), state, "scores"
    )
    legal = state.legal_moves()
    _check(bool(legal) != state.is_over, state, "moves exactly while the game goes on")
    _check(state.winner is None or state.is_over, state, "a winner only at the end")
    for move in legal:
        child, _ = state.play_report(move)
        _check(child == state.play(move), state, f"play_report({move!r}) plays as play")
        _check(state.parse_move(state.move_name(move)) == move, state, f"name of {move!r}")
    for move in (*(set(seen) - set(legal)), *JUNK_MOVES):
        _refused(lambda m=move: state.play(m), state, f"play({move!r})", IllegalMove)
    for text in JUNK_TEXT:
        _refused(lambda t=text: state.parse_move(t), state, f"parse_move({text!r})", IllegalMove)
        _refused(lambda t=text: state.game.parse(t), state, f"parse({text!r})", ParlourError)
    json.dumps(kit_of(state.game).view(state))  # what a page sees is plain JSON
    _check(_snapshot(state) == before, state, "the state never changes")


def check_perft(state: State) -> None:
    """A game's own perft (a kernel, where it has one) counts what walking the states
    counts, to the depths whose trees are small."""
    for depth in (1, 2, 3):
        leaves = state.perft(depth)
        if leaves > PERFT_LEAVES:
            return
        _check(leaves == State.perft(state, depth), state, f"perft({depth})")


def check_adapters(state: State) -> None:
    """A game's search adapters (where it has them) see what its states see: the same
    side to move and legal moves, and after each move the position the state's own play
    leads to (its key, score, side and moves), ended exactly when the state's game is."""
    if not hasattr(state, "for_search"):
        return
    from parlour.search.engine import kernel_position

    here = kernel_position(state)
    adapters = here.kernels.game
    _check(adapters.search_to_move(here.root) == state.to_move, state, "the adapters' side")
    _check(_adapted_moves(adapters, here.root) == state.legal_moves(), state, "adapted moves")
    for move in state.legal_moves():
        child, pos, hist = state.play(move), here.root.copy(), here.hist.copy()
        ended = adapters.search_play(pos, hist, move, here.rules, np.zeros(1, np.int64))
        there = kernel_position(child)
        what = f"the adapters' play of {state.move_name(move)}"
        _check(bool(ended) == child.is_over, state, f"{what}: the end")
        if not child.is_over:
            same = [
                adapters.search_key(pos) == adapters.search_key(there.root),
                adapters.search_score(pos) == adapters.search_score(there.root),
                adapters.search_to_move(pos) == child.to_move,
                _adapted_moves(adapters, pos) == child.legal_moves(),
            ]
            _check(all(same), state, f"{what}: the position (key, score, side, moves)")


def _adapted_moves(adapters: Any, pos: np.ndarray) -> tuple[Hashable, ...]:
    out = np.zeros(pos.shape[0] + 256, dtype=np.int64)
    return tuple(int(m) for m in out[: adapters.search_moves(pos, out)])


def check_levels(states: list[State], seconds: float) -> None:
    """Every level the game's kit lists plays a legal move (one thinker a level for the
    game, as a player keeps), at the start and half way."""
    name = states[0].game.name
    for level in kit_of(name).levels:
        player = thinker(name, level.number, seconds)
        for state in (states[0], states[(len(states) - 1) // 2]):
            if not state.is_over:
                move, _ = player.best_move(state, Stop())
                _check(move in state.legal_moves(), state, f"level {level.name} plays legally")


def _snapshot(state: State) -> tuple[str, int, bool, Any, tuple[Hashable, ...]]:
    """Everything a state shows: if any of it changes, the state was mutated."""
    return state.notation(), state.to_move, state.is_over, state.scores, state.legal_moves()


def _check(ok: bool, state: State, what: str) -> None:
    if not ok:
        raise ConformanceError(f"{state.game.name}: {what} fails at {state.notation()!r}")


def _refused(call: Any, state: State, what: str, error: type[Exception]) -> None:
    """``call()`` must raise ``error`` (parlour's own), nothing else, and not return."""
    try:
        call()
    except error:
        return
    except Exception as other:
        raise ConformanceError(
            f"{state.game.name}: {what} raised {other!r}, not {error.__name__}, "
            f"at {state.notation()!r}"
        ) from other
    raise ConformanceError(f"{state.game.name}: {what} was accepted at {state.notation()!r}")
