"""Each level's own thinker keeps to a :class:`Limit` (its depth, its time, the first
depth that reaches its node count) on top of what the level does: a depth caps a level,
never replaces it, so two levels under one limit play as those levels do."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from click.testing import CliRunner

from nim_engine import NimGame
from parlour import game
from parlour.actors import Move, Play, spawn
from parlour.actors.messages import View
from parlour.cli import main
from parlour.core import State, register, unregister
from parlour.kit import Kit, analyze, thinker
from parlour.players.machines import ComputerPlayer, refusal
from parlour.players.specs import parse_player
from parlour.search import PERFECT, SearchResult, Stop
from parlour.search.alphabeta import LEVEL_DEPTHS
from parlour.search.limit import Limit
from parlour.search.minimax import SeedLevel, best_move

KALAH = game("kalah")
START = KALAH.start()


def searched(level: int, limit: Limit, state: State = START, name: str = "kalah") -> Any:
    """The account of level ``level``'s move in ``state`` under ``limit``."""
    _, account = thinker(name, level).best_move(state, Stop(), limit)
    assert isinstance(account, SearchResult)
    return account


@pytest.mark.parametrize("level", [1, 2, 3])
def test_a_seed_level_keeps_its_own_depth_under_a_deeper_limit(level: int) -> None:
    account = searched(level, Limit(depth=6))
    assert (account.move, account.value, account.depth) == (*best_move(START, level), level)


def test_a_seed_level_stops_at_a_shallower_depth_and_at_its_nodes() -> None:
    shallow = searched(3, Limit(depth=2))
    assert (shallow.move, shallow.value, shallow.depth) == (*best_move(START, 2), 2)
    assert searched(3, Limit(nodes=1)).depth == 1  # depth 1 already searched one node
    first = searched(1, Limit())
    assert searched(3, Limit(nodes=first.nodes + 1)).depth == 2


def test_a_seed_level_stopped_answers_its_first_depth() -> None:
    """A stop (a clock's, a resignation's) ends the seed's minimax with the last depth it
    finished: depth 1, which always finishes (level 8 of a sowing game is millions of
    positions in Python, which the stop never waits for)."""
    stop = Stop()
    stop.set()
    move, account = SeedLevel(8).best_move(START, stop)
    assert isinstance(account, SearchResult) and account.depth == 1
    assert move == best_move(START, 1)[0]


def test_a_seed_level_on_a_clock_stops_before_its_depth() -> None:
    _, account = SeedLevel(8).best_move(START, Stop(), Limit(seconds=0.05))
    assert isinstance(account, SearchResult) and 1 <= account.depth < 8


def test_two_engine_levels_under_one_depth_search_as_their_levels_do() -> None:
    """Level 4 is alpha-beta 4 plies deep: a limit of 6 leaves it at 4, where level 8 (on
    a clock) goes to 6; under 3 plies both search 3, and the seed's level 2 stays 2."""
    assert searched(4, Limit(depth=6)).depth == LEVEL_DEPTHS[4]
    assert searched(8, Limit(depth=6)).depth == 6
    assert searched(4, Limit(depth=3)).depth == searched(8, Limit(depth=3)).depth == 3
    level2 = searched(2, Limit(depth=3))
    assert level2.depth == 2 and level2.move == best_move(START, 2)[0]


def test_an_engine_level_stops_at_the_first_depth_that_reaches_its_nodes() -> None:
    one = searched(8, Limit(nodes=1))
    assert one.depth == 1
    assert searched(8, Limit(nodes=one.nodes + 1)).depth == 2
    assert searched(5, Limit(nodes=one.nodes + 1)).depth == 2


def test_analysis_keeps_to_a_node_count_as_the_levels_do() -> None:
    one = analyze(START, Limit(nodes=1))
    assert one.depth == 1
    assert analyze(START, Limit(nodes=one.nodes + 1)).depth == 2


def test_the_computer_told_a_depth_plays_its_own_levels_move() -> None:
    """computer:4 under a depth of 6 plays level 4's move, not a 6-ply analysis."""

    async def asked(level: int, limit: Limit) -> Any:
        player = spawn(ComputerPlayer(level))
        player.tell(limit)
        answer = await player.ask(Play(View(START, START.legal_moves(), 1, False)), 600)
        player.stop()
        return answer

    level4, _ = thinker("kalah", 4).best_move(START, Stop())
    assert asyncio.run(asked(4, Limit(depth=6))) == Move(level4)
    assert asyncio.run(asked(2, Limit(depth=6))) == Move(best_move(START, 2)[0])


def test_a_five_in_a_row_level_keeps_to_a_depth_and_nodes() -> None:
    gomoku = game("gomoku", size=9)
    state = gomoku.start().play((4, 4)).play((3, 3))
    thinker("gomoku", 3).warm_up(state)  # compiled before the level's 2 s start
    deep = searched(3, Limit(depth=2, seconds=30), state, "gomoku")
    assert deep.reason == "search" and deep.depth == 2
    one = searched(3, Limit(nodes=1, seconds=30), state, "gomoku")
    assert one.reason == "search" and one.depth == 1


def test_only_a_level_that_searches_by_no_depths_refuses_a_depth() -> None:
    assert refusal("kalah", 4, Limit(depth=3)) is None
    assert refusal("kalah", PERFECT, Limit(seconds=1)) is None
    why = refusal("kalah", PERFECT, Limit(nodes=10))
    assert why is not None and "level perfect of kalah cannot keep to a node count" in why
    words = "match kalah --players computer:perfect,random --depth 2 --db /nonexistent/x.db"
    result = CliRunner().invoke(main, words.split())
    assert result.exit_code == 2 and "cannot keep to a depth" in result.output


def test_a_game_with_the_seeds_levels_alone_searches_to_a_depth() -> None:
    """The base kit's levels are the seed's minimax, which searches by depths: a game with
    no engine of its own plays under ``--depth``."""
    register("plain-nim", NimGame, "Nim without an engine (tests only)", kit=Kit())
    try:
        assert parse_player("computer:3").refusal("plain-nim", Limit(depth=2)) is None
        start = game("plain-nim").start()
        assert searched(3, Limit(depth=2), start, "plain-nim").depth == 2
    finally:
        unregister("plain-nim")
