"""parlour.batch: N games stepped at once (Kalah, Mancala, Ayo, each from its kit) agree
with the State objects move for move."""

from __future__ import annotations

import random

import numpy as np
import pytest

import parlour
from nim_engine import NAME, registered
from parlour.batch import batch as batch_of
from parlour.games.ayo import kernel as ayo_kernel
from parlour.games.ayo.batch import AyoBatch
from parlour.games.ayo.game import AyoState
from parlour.games.sowing.batch import SowingBatch
from parlour.games.sowing.game import GAME_OVER


def sowing(name: str, size: int, seed: int = 0, **options: object) -> SowingBatch:
    """A batch of a sowing game, as ``parlour.batch.batch`` gives it."""
    found = batch_of(name, size, seed, **options)
    assert isinstance(found, SowingBatch)
    return found


@pytest.mark.parametrize(
    ("name", "options"),
    [("kalah", {}), ("mancala", {}), ("kalah", {"pits": 4, "seeds": 3, "empty_capture": False})],
)
def test_batch_agrees_with_the_states_move_for_move(name: str, options: dict[str, int]) -> None:
    size = 16
    batch = sowing(name, size, 3, **options)
    states = [sowing(name, 1, **options).state(0) for _ in range(size)]
    chooser = random.Random(7)
    finished = 0
    while finished < 2 * size:
        mask = batch.legal_mask()
        for g, state in enumerate(states):
            assert batch.state(g) == state
            assert mask[g].nonzero()[0].tolist() == list(state.legal_moves())
        assert batch.terminal.tolist() == [s.is_over for s in states]
        moves = [chooser.choice(s.legal_moves()) if not s.is_over else -1 for s in states]
        flags = batch.step(moves)
        states = [s if s.is_over else s.play(m) for s, m in zip(states, moves, strict=True)]
        ended = (flags & GAME_OVER).astype(bool)
        assert ended.tolist() == [
            bool(m >= 0 and s.is_over) for s, m in zip(states, moves, strict=True)
        ]
        for k in np.flatnonzero(ended):
            winner = states[k].winner
            expected = [0, 0] if winner is None else ([1, -1] if winner == 0 else [-1, 1])
            assert batch.rewards()[k].tolist() == expected
            assert batch.margins()[k] == states[k].scores[0] - states[k].scores[1]
            finished += 1
        batch.reset(ended)
        states = [batch.game.start() if e else s for s, e in zip(states, ended, strict=True)]
    assert batch.rewards().tolist() == [[0, 0]] * size  # every game restarted or going on


def test_an_illegal_move_refuses_the_whole_step() -> None:
    batch = sowing("kalah", 2)
    batch.step([0, 1])
    before = batch.boards.copy()
    with pytest.raises(parlour.IllegalMove, match="game 1"):
        batch.step([0, 6])  # kalah has columns 0..5
    batch.boards[0] = batch.game.parse("0,0,0,0,0,1/20/4,4,4,4,4,3/4 0").board
    before = batch.boards.copy()
    with pytest.raises(parlour.IllegalMove, match="game 0"):
        batch.step([0, 0])  # pit A of game 0 is empty
    assert (batch.boards == before).all()
    assert (batch.boards == before).all()
    with (
        registered(),
        pytest.raises(
            parlour.BadOption, match=rf"{NAME} has no batches; parlour steps .*gomoku.*war"
        ),
    ):
        batch_of(NAME, 2)
    with pytest.raises(parlour.BadOption, match="sowing games"):
        SowingBatch(parlour.game("ayo"), 2)


def test_random_moves_are_legal_and_playouts_count_every_game() -> None:
    batch = sowing("kalah", 8, 1)
    for _ in range(30):
        moves = batch.random_moves()
        mask = batch.legal_mask()
        live = ~batch.terminal
        assert all(mask[g, moves[g]] for g in np.flatnonzero(live))
        assert (moves[~live] == -1).all()
        batch.step(moves)
    tally = sowing("kalah", 8, 1).playouts(1000)  # in chunks of 128
    assert tally.sum() == 1000 and tally[0] > 300 and tally[1] > 300


def test_ayo_batch_agrees_with_the_states_move_for_move() -> None:
    size = 6
    batch = batch_of("ayo", size, 2, max_rounds=2, first=1)
    assert isinstance(batch, AyoBatch)
    batch.history = batch.history[:, :1].copy()  # the rows' histories must grow as they go
    start = parlour.game("ayo", max_rounds=2, first=1).start()
    assert isinstance(start, AyoState)
    states = [start] * size
    chooser = random.Random(11)
    ended_games = 0
    while ended_games < size:
        mask = batch.legal_mask()
        for g, state in enumerate(states):
            # The kernels' layout up to the history bounds (the batch keeps them its way).
            if not state.is_over:
                assert (
                    batch.positions[g, : ayo_kernel.HIST_FROM]
                    == state.position[: ayo_kernel.HIST_FROM]
                ).all()
            assert mask[g].nonzero()[0].tolist() == list(state.legal_moves())
        assert batch.terminal.tolist() == [s.is_over for s in states]
        moves = [chooser.choice(s.legal_moves()) if not s.is_over else -1 for s in states]
        flags = batch.step(moves)
        before = states
        states = [s if s.is_over else s.play(m) for s, m in zip(states, moves, strict=True)]
        for g, (old, new) in enumerate(zip(before, states, strict=True)):
            if new.is_over and not old.is_over:
                assert flags[g] & ayo_kernel.GAME_OVER
                assert batch.scores[g].tolist() == list(new.scores)
                winner = new.winner
                expected = [0, 0] if winner is None else ([1, -1] if winner == 0 else [-1, 1])
                assert batch.rewards()[g].tolist() == expected
                ended_games += 1
    batch.reset()
    assert (batch.positions == batch.start).all() and not batch.terminal.any()
    drawn = batch.random_moves()
    assert all(batch.legal_mask()[g, m] for g, m in enumerate(drawn))


@pytest.mark.parametrize("options", [{"size": 7}, {"size": 9, "exact_five": True}])
def test_gomoku_batch_agrees_with_the_states_move_for_move(options: dict[str, object]) -> None:
    from parlour.games.gomoku.batch import OVER, GomokuBatch

    size = 6
    games = batch_of("gomoku", size, 2, **options)
    assert isinstance(games, GomokuBatch)
    rules, side = games.game, games.game.size
    states = [rules.start()] * size
    ended = 0
    while ended < 12:
        mask = games.legal_mask()
        for g, state in enumerate(states):
            assert games.state(g) == state
            wanted = [not state.is_over and state.is_free(*divmod(a, side)) for a in range(side**2)]
            assert mask[g].tolist() == wanted
        assert games.terminal.tolist() == [s.is_over for s in states]
        moves = games.random_moves()
        flags = games.step(moves)
        states = [
            s if s.is_over else s.play(divmod(int(m), side))
            for s, m in zip(states, moves, strict=True)
        ]
        for g, state in enumerate(states):
            if flags[g] == OVER:
                assert state.is_over
                won = (
                    [0, 0] if state.winner is None else [1 - 2 * state.winner, 2 * state.winner - 1]
                )
                assert games.rewards()[g].tolist() == won
                assert games.scores[g].tolist() == list(state.scores)
        done = games.terminal
        ended += int(done.sum())
        games.reset(done)
        states = [rules.start() if d else s for s, d in zip(states, done, strict=True)]
    with pytest.raises(parlour.IllegalMove):
        games.step([side**2] * size)  # off the board
