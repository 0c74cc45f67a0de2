"""A game that lives only in the test suite, with search adapters of its own: Nim on one
heap, take 1 to 3, whoever takes the last one wins.  tests/test_nim_engine.py plays it
through everything a registered game goes through, parlour/search untouched.

A position is ``[heap, to move]``; a move is how many to take.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
from numba import njit

from parlour.core import (
    BadPosition,
    Game,
    IllegalMove,
    Option,
    State,
    parse_player,
    parse_whole,
    register,
    unregister,
)
from parlour.kit import AlphaBetaKit
from parlour.rng import mix

NAME = "test-nim"


@njit(cache=True, nogil=True)
def search_moves(pos: np.ndarray, out: np.ndarray) -> int:
    count = 0
    for take in range(1, min(3, pos[0]) + 1):
        out[count] = take
        count += 1
    return count


@njit(cache=True, nogil=True)
def search_play(
    pos: np.ndarray, hist: np.ndarray, move: int, rules: int, events: np.ndarray
) -> bool:
    pos[0] -= move
    pos[1] = 1 - pos[1]
    return bool(pos[0] == 0)


@njit(cache=True, nogil=True)
def search_to_move(pos: np.ndarray) -> int:
    return int(pos[1])


@njit(cache=True, nogil=True)
def search_score(pos: np.ndarray) -> int:
    """At the end, +1 when player 0 took the last one (player 1 is to move), else -1."""
    if pos[0] != 0:
        return 0
    return 1 if pos[1] == 1 else -1


@njit(cache=True, nogil=True)
def search_seeds(pos: np.ndarray) -> int:
    return 0


@njit(cache=True, nogil=True)
def search_stored(pos: np.ndarray) -> int:
    return 0


@njit(cache=True, nogil=True)
def search_key(pos: np.ndarray) -> np.uint64:
    return mix(np.uint64(2 * pos[0] + pos[1] + 1))


@njit(cache=True, nogil=True)
def search_order(pos: np.ndarray, move: int) -> int:
    return 0


class NimGame(Game):
    OPTIONS = (Option("heap", int, 10, "counters on the heap", minimum=1, maximum=99),)

    def start(self) -> NimState:
        return NimState(self, int(self.options["heap"]), 0)

    def parse(self, text: str) -> NimState:
        fields = text.split()
        if len(fields) != 2:
            raise BadPosition(f"a Nim position is a heap and a side, not {text!r:.40}")
        heap = parse_whole(fields[0], "the heap", 0, 99)
        return NimState(self, heap, parse_player(fields[1], "the side to move"))


class NimState(State):
    game: NimGame

    def __init__(self, game: NimGame, heap: int, to_move: int) -> None:
        self.game, self.heap, self._to_move = game, heap, to_move

    @property
    def to_move(self) -> int:
        return self._to_move

    def legal_moves(self) -> tuple[int, ...]:
        return tuple(n for n in (1, 2, 3) if n <= self.heap)

    def play(self, move: Any) -> NimState:
        if move not in self.legal_moves():
            raise IllegalMove(move, f"take 1 to {min(3, self.heap)}")
        return NimState(self.game, self.heap - move, 1 - self._to_move)

    def for_search(self, room: int) -> tuple[str, np.ndarray, np.ndarray, int]:
        pos = np.array([self.heap, self._to_move], dtype=np.int64)
        return __name__, pos, np.zeros(1, dtype=np.int64), 0

    @property
    def is_over(self) -> bool:
        return self.heap == 0

    @property
    def winner(self) -> int | None:
        return 1 - self._to_move if self.is_over else None

    @property
    def scores(self) -> tuple[int, int]:
        return (1, 0) if self.winner == 0 else (0, 1) if self.winner == 1 else (0, 0)

    def render(self) -> str:
        return "|" * self.heap

    def notation(self) -> str:
        return f"{self.heap} {self._to_move}"

    def move_name(self, move: Any) -> str:
        return str(move)

    def parse_move(self, text: str) -> int:
        try:
            move = parse_whole(text.strip(), "a move", 1, 3, BadPosition)
        except BadPosition as error:
            raise IllegalMove(text, str(error)) from None
        if move not in self.legal_moves():
            raise IllegalMove(move, f"the heap holds {self.heap}")
        return move

    def _key(self) -> Hashable:
        return (self.heap, self._to_move)


@contextmanager
def registered() -> Iterator[None]:
    """``test-nim`` as a game of parlour, for the time of a ``with`` (so that no other
    test's list of games meets it)."""
    register(NAME, NimGame, "Nim on one heap, take 1 to 3 (tests only)", kit=AlphaBetaKit())
    try:
        yield
    finally:
        unregister(NAME)
