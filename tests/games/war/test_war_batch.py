"""War in batches: every game ends as the whole-game kernel (``parlour simulate war``)
ends the deal of that index, and steps round for round as the states do."""

from __future__ import annotations

import numpy as np
import pytest

import parlour
from parlour.batch import batch
from parlour.games.war import kernel
from parlour.games.war.batch import OVER, WarBatch
from parlour.games.war.game import ROUND, WarGame
from parlour.games.war.rules import CYCLE, ROUND_LIMIT, TIE

Ending = tuple[int, int, int, int, int]
"""How a game ended: winner, ending, rounds, battles, wars."""

SMALL = "AC,KD,QC,JD,10C,9D,8C,7D,6C,5D"  # ten cards: short games, cycles under `played`


def whole_game(rules: WarGame, index: int) -> Ending:
    """Deal ``index`` of the run played out by the kernel simulate uses: (winner, ending,
    rounds, battles, wars)."""
    war = rules.rules
    position, *rest = kernel.work(len(war.deck))
    winner, ending = kernel.play_game(
        war.deck_array, war.seed or 0, index, war.pickup_code, war.limit, war.more_wins,
        position, *rest,
    )  # fmt: skip
    return int(winner), int(ending), *counted(position)


def counted(position: np.ndarray) -> tuple[int, int, int]:
    """The rounds, battles and wars a position has seen."""
    return int(position[kernel.ROUNDS]), int(position[kernel.BATTLES]), int(position[kernel.WARS])


def war_batch(size: int, **options: object) -> WarBatch:
    games = batch("war", size, 0, **options)
    assert isinstance(games, WarBatch)
    return games


def play_out(games: WarBatch) -> dict[int, Ending]:
    """Step every game to its end (each ends once, flagged so): what each ended with."""
    ended: dict[int, Ending] = {}
    while not games.terminal.all():
        going = ~games.terminal
        flags = games.step(games.random_moves())
        assert ((flags == OVER) == (going & games.terminal)).all()
        for g in np.flatnonzero(flags == OVER):
            winner, ending = games.results[g]
            ended[int(g)] = (int(winner), int(ending), *counted(games.positions[g]))
    return ended


@pytest.mark.parametrize(
    "options",
    [
        {"seed": 3},
        {"seed": 4, "long_game_winner": "more", "max_rounds": 20},
        {"seed": 5, "deck": SMALL, "pickup": "played", "max_rounds": None},
        {"seed": 6, "deck": SMALL, "pickup": "winner_first", "max_rounds": 7},
        {"seed": 7, "deck": SMALL, "pickup": "played", "max_rounds": 9},
    ],
)
def test_each_game_ends_as_the_whole_game_kernel_ends_its_deal(options: dict[str, object]) -> None:
    rules = parlour.game("war", **options)
    assert isinstance(rules, WarGame)
    games = war_batch(12, **options)
    ended = play_out(games)
    assert ended == {i: whole_game(rules, i) for i in range(12)}
    winners = games.results[:, 0]
    expected = np.where(winners == TIE, 0, 1 - 2 * winners)
    assert games.rewards()[:, 0].tolist() == expected.tolist()
    assert (games.rewards()[:, 1] == -games.rewards()[:, 0]).all()
    games.reset(np.arange(12) % 2 == 0)  # the even games get the run's deals 12..17
    assert games.dealt == 18 and games.terminal.tolist() == [False, True] * 6
    again = play_out(games)
    assert again == {2 * k: whole_game(rules, 12 + k) for k in range(6)}


def test_the_batch_reaches_every_ending_the_rules_have() -> None:
    """The cases above are not all alike: cycles, round limits and emptied stacks."""
    endings = set()
    for options in ({"seed": 5, "max_rounds": None}, {"seed": 7, "max_rounds": 9}):
        games = war_batch(40, deck=SMALL, pickup="played", **options)
        play_out(games)
        endings |= set(games.results[:, 1].tolist())
    assert {CYCLE, ROUND_LIMIT} <= endings and len(endings) == 3


def test_a_round_of_the_batch_is_a_round_of_the_state() -> None:
    rules = parlour.game("war", seed=11, max_rounds=None)
    assert isinstance(rules, WarGame)
    games = war_batch(3, seed=11, max_rounds=None)
    states = [rules.deal(i) for i in range(3)]
    for _ in range(40):
        for g, state in enumerate(states):
            assert kernel.stacks_of(games.positions[g]) == state.stacks
            assert games.scores[g].tolist() == [len(stack) for stack in state.stacks]
        games.step([0, 0, 0])
        states = [s if s.is_over else s.play(ROUND) for s in states]


def test_a_move_other_than_the_round_refuses_the_step() -> None:
    games = war_batch(2, seed=1)
    before = games.positions.copy()
    with pytest.raises(parlour.IllegalMove, match="game 1"):
        games.step([0, 1])
    assert (games.positions == before).all()
    assert games.legal_mask().tolist() == [[True], [True]]
    with pytest.raises(parlour.BadOption, match="holds War, not kalah"):
        WarBatch(parlour.game("kalah"), 2)
