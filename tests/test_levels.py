"""The computer's levels: the seed's minimax for 1-3, the engine above, a time a move."""

from __future__ import annotations

import pytest

import parlour
from parlour.core import BadOption
from parlour.kit import best_move
from parlour.players.machines import ComputerPlayer
from parlour.players.specs import PlayerSpec, parse_player, timed
from parlour.search import SearchResult, minimax
from parlour.search.alphabeta import LEVEL_DEPTHS
from parlour.search.engine import Engine


@pytest.mark.parametrize("name", ["mancala", "kalah", "ayo"])
def test_seed_levels_stay_plain_minimax(name: str) -> None:
    state = parlour.game(name).start().play(2) if name != "ayo" else parlour.game(name).start()
    for level in (1, 2, 3):  # the engine's account would show its line, not the move alone
        move, account = best_move(state, level)
        assert isinstance(account, SearchResult) and account.pv == (move,)
        assert (move, account.value, account.depth) == (*minimax.best_move(state, level), level)


def test_engine_levels_search_deeper_and_on_a_clock() -> None:
    state = parlour.game("kalah").start()
    depth = LEVEL_DEPTHS[4]
    move, result = best_move(state, 4)
    assert isinstance(result, SearchResult) and result.depth == depth
    assert move == Engine().search(state, depth=depth).move
    _, timed_result = best_move(state, 8, 0.2)
    assert isinstance(timed_result, SearchResult) and timed_result.depth > depth
    with pytest.raises(BadOption, match="kalah has levels 1-8 and perfect, not 9"):
        best_move(state, 9)


def test_specs_carry_the_level_and_the_time() -> None:
    assert parse_player("computer:8") == PlayerSpec("computer", 8)
    with pytest.raises(BadOption, match="at most 8, not 9"):  # no game has a level 9
        parse_player("computer:9")
    specs = timed((PlayerSpec("human"), PlayerSpec("computer", 8)), 0.5)
    assert specs == (PlayerSpec("human"), PlayerSpec("computer", 8, 0.5))
    player = specs[1].build()
    assert isinstance(player, ComputerPlayer) and player.seconds == 0.5
