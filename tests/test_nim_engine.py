"""A game that lives only in the tests (tests/nim_engine.py: Nim, with its own search
adapters) played through the Referee, perft, the generic engine and ``parlour play``'s
machinery, with nothing of it in parlour/search."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

import parlour
from nim_engine import NAME, NimState, registered
from parlour.actors import Moved, Outcome, View, run_game, spawn
from parlour.core import State, perft
from parlour.kit import analyze, thinker
from parlour.players.specs import parse_players
from parlour.players.terminal import Seat, play_in_terminal
from parlour.search.engine import Engine, kernel_position
from parlour.search.limit import Limit


@pytest.fixture(autouse=True, scope="module")
def nim() -> Iterator[None]:
    with registered():
        yield


def start(heap: int) -> NimState:
    state = parlour.game(NAME, heap=heap).start()
    assert isinstance(state, NimState)
    return state


def test_parlour_search_never_names_the_test_game() -> None:
    search = Path(parlour.__file__).parent / "search"
    texts = [file.read_text() for file in search.rglob("*.py")]
    assert texts and not any(NAME in text or "nim_engine" in text for text in texts)


def test_the_engine_solves_nim_and_agrees_with_minimax() -> None:
    """A heap of a multiple of 4 is lost for the side to move; any other is won by taking
    the heap modulo 4."""
    engine = Engine(table_bits=10)
    for heap in range(1, 14):
        state = start(heap)
        result = engine.search(state, depth=30)
        assert result.exact
        assert result.value == (-1 if heap % 4 == 0 else 1)
        if heap % 4:
            assert result.move == heap % 4
        assert kernel_position(state).minimax(heap) == result.value


def test_perft_and_analyze_walk_the_test_game() -> None:
    def leaves(heap: int, depth: int) -> int:  # RULES.md's perft: an end is a leaf
        if depth == 0 or heap == 0:
            return 1
        return sum(leaves(heap - take, depth - 1) for take in range(1, min(3, heap) + 1))

    assert [perft(start(5), depth) for depth in range(4)] == [1, 3, 8, 12]
    assert all(perft(start(9), depth) == leaves(9, depth) for depth in range(8))
    assert analyze(start(9), Limit(depth=20)).move == 1


async def _computer_game(heap: int, level: int) -> Outcome:
    players = [spawn(spec.build()) for spec in parse_players(f"computer:{level},computer:{level}")]
    return await run_game(start(heap), players)


@pytest.mark.parametrize("heap", [9, 12])
def test_the_referee_runs_a_computer_game_to_the_winner_of_perfect_play(heap: int) -> None:
    outcome = asyncio.run(_computer_game(heap, 6))
    assert outcome.winner == (1 if heap % 4 == 0 else 0)
    assert sum(outcome.moves) == heap  # type: ignore[arg-type]
    assert thinker(NAME, 5).best_move(start(6), parlour.search.Stop())[0] == 2


class NimScreen:
    def opening(self, start: State, seats: Sequence[Seat]) -> str:
        return f"heap {start.render()}\n"

    def turn(self, view: View, seats: Sequence[Seat]) -> str:
        return ""

    def prompt(self, view: View, seats: Sequence[Seat]) -> str:
        return "take? "

    def moved(self, event: Moved, seats: Sequence[Seat]) -> str:
        return f"took {event.move}\n"

    def game_over(self, outcome: Outcome, seats: Sequence[Seat]) -> str:
        return f"winner {outcome.winner}\n"


def test_parlour_play_machinery_plays_it_at_the_terminal() -> None:
    out = io.StringIO()
    specs = parse_players("computer:6,computer:4")
    status = play_in_terminal(start(10), specs, NimScreen(), out=out)
    assert status == 0, out.getvalue()
    assert "took 2" in out.getvalue().splitlines()[1]  # the winning move: 10 % 4
    assert out.getvalue().rstrip().endswith("winner 0")
