"""The conformance suite (``parlour.testing``, shipped in the package) over every
registered game and the game that lives only in the tests: a new game is checked the
moment it registers, and a broken contract is caught by name."""

from __future__ import annotations

from typing import Any

import pytest

import parlour
from nim_engine import NAME, registered
from parlour.core import IllegalMove
from parlour.games.sowing.game import SowingState
from parlour.testing import ConformanceError, check_game, check_position

SMALL: dict[str, dict[str, Any]] = {
    "gomoku": {"size": 9},
    "ayo": {"max_rounds": 2, "first": 0},
    "kalah": {"pits": 4, "seeds": 3},
}
"""Options that keep a random game (and the perfect level's proofs) short."""


@pytest.mark.parametrize("name", sorted(parlour.game_names()))
def test_every_registered_game_keeps_the_contract(name: str) -> None:
    check_game(name, SMALL.get(name))


def test_a_game_of_the_tests_alone_goes_through_the_same_suite() -> None:
    with registered():
        check_game(NAME, {"heap": 9})


def test_the_suite_catches_a_move_accepted_that_is_not_legal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = parlour.game("kalah").start()
    with pytest.raises(IllegalMove):
        state.play(99)
    play = SowingState.play

    def lenient(self: SowingState, move: Any) -> SowingState:  # forgets to refuse pit 99
        return self if move == 99 else play(self, move)

    monkeypatch.setattr(SowingState, "play", lenient)
    with pytest.raises(ConformanceError, match=r"kalah: play\(99\) was accepted"):
        check_position(state, {99})
