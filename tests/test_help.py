"""The ``play`` commands' help: each example of ``-o`` is an option its own game takes."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from parlour.cli import main
from parlour.core import game


@pytest.mark.parametrize("name", ["mancala", "kalah", "ayo", "gomoku"])
def test_the_option_example_is_accepted_by_the_game(name: str) -> None:
    result = CliRunner().invoke(main, ["play", name, "--help"], terminal_width=200)
    assert result.exit_code == 0
    examples = re.findall(r"e\.g\. -o (\w+)=(\w+)\.", result.output)
    assert len(examples) == 1
    key, value = examples[0]
    game(name, **{key: value})  # BadOption if the game does not take it


def test_ayo_level_help_names_its_levels() -> None:
    result = CliRunner().invoke(main, ["play", "ayo", "--help"], terminal_width=200)
    assert "1-3 minimax that many moves ahead, 4-8 the engine" in result.output
    assert "seed's lookahead" not in result.output


HELPS = [
    [],
    ["play"],
    ["simulate"],
    *(["play", name] for name in ("mancala", "kalah", "ayo", "gomoku", "war")),
    ["simulate", "war"],
]


@pytest.mark.parametrize("args", HELPS, ids=" ".join)
def test_help_speaks_of_games_not_of_the_projects_seeds(args: list[str]) -> None:
    """ "as seed 001 has it", "the seed's lookahead": the project's word for its sketches,
    which a player reads as the game's seeds or as --seed."""
    result = CliRunner().invoke(main, [*args, "--help"], terminal_width=200)
    assert result.exit_code == 0
    assert not re.search(r"seed 00\d|seed's|\(the seed\)", result.output), result.output


@pytest.mark.parametrize(
    ("name", "value", "exact", "said"),
    [
        ("kalah", 3, False, " (value +3)"),  # seeds: the game's own units
        ("gomoku", 1_000_000, True, " (a forced win)"),  # was " (value +1000000)"
        ("gomoku", -1_000_000, True, " (the other side can force a win)"),
        ("gomoku", 412, False, ""),  # the engine's estimate: no number a player knows
    ],
)
def test_a_hint_gives_a_value_only_in_the_games_units(
    name: str, value: int, exact: bool, said: str
) -> None:
    """Issue 43, 19: a five-in-a-row hint said "value +1000000", the engine's number."""
    from parlour.kit import kit_of
    from parlour.players.terminal import hint_value
    from parlour.search import SearchResult

    account = SearchResult(
        move=None, value=value, depth=1, nodes=1, seconds=0.1, pv=(), exact=exact
    )
    assert hint_value(account, kit_of(name).scored) == said
