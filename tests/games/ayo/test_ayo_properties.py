"""Ayo's invariants, checked with hypothesis: tokens conserved, owners dealt, states never
changed, notation round-trips, exactly the legal moves accepted, and the kernel's sowing
equal to a plain transcription of RULES.md section 2."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import event, example, given, settings
from hypothesis import strategies as st

import parlour
from parlour.core import IllegalMove
from parlour.games.ayo.game import AyoState
from parlour.games.ayo.kernel import CAPTURED, NEVER_ENDS, OWNER, SIZE, TO_MOVE, sow_move

SETTINGS = settings(max_examples=25, deadline=None)


def deal(houses0: int) -> tuple[int, ...]:
    """RULES.md's owners when player 0 has ``houses0`` houses: the player with more than
    six owns their row and the opponent's first houses in sowing order."""
    if houses0 >= 6:
        return (0,) * houses0 + (1,) * (12 - houses0)
    return (1,) * (6 - houses0) + (0,) * houses0 + (1,) * 6


@SETTINGS
@given(first=st.integers(0, 1), data=st.data())
def test_random_play_keeps_every_invariant(first: int, data: st.DataObject) -> None:
    state = parlour.game("ayo", first=first, max_rounds=2).start()
    assert isinstance(state, AyoState)
    for _ in range(data.draw(st.integers(1, 60))):
        if state.is_over:
            break
        assert sum(state.board) + sum(state.scores) == 48
        assert state.owners == deal(state.owners.count(0))
        assert state.round > 1 or state.owners == (0,) * 6 + (1,) * 6
        assert state.game.parse(state.notation()) == state
        check_moves(state)
        state = state.play(data.draw(st.sampled_from(state.legal_moves())))
    assert sum(state.board) + sum(state.scores) == 48


def check_moves(state: AyoState) -> None:
    """Every legal move is played and every other move refused, the state untouched."""
    text, legal = state.notation(), state.legal_moves()
    assert legal and len(set(legal)) == len(legal)
    others: list[Any] = [h for h in range(-1, 13) if h not in legal]
    for move in [*others, "3", None, True, 2.5]:
        try:
            state.play(move)
        except IllegalMove as error:
            assert error.move == move and error.reason
        else:
            raise AssertionError(f"{move!r} was accepted")
    for move in legal:
        after = state.play(move)
        assert after is not state and sum(after.board) + sum(after.scores) == 48
        assert state.parse_move(state.move_name(move)) == move
    assert state.notation() == text


def reference_sowing(
    board: list[int], owners: list[int], captured: list[int], sower: int, house: int
) -> tuple[list[int], list[int]] | None:
    """RULES.md's move steps 1-7, token by token; None if the relays never end.  Checks
    that board + hand + captured stay 48 at every token."""
    board, captured = board.copy(), captured.copy()
    seen: set[tuple[tuple[int, ...], int]] = set()
    i = house
    while (tuple(board), i) not in seen:
        seen.add((tuple(board), i))
        hand, board[i] = board[i], 0
        while hand:
            i = (i + 1) % 12
            board[i] += 1
            hand -= 1
            assert sum(board) + hand + sum(captured) == 48
            if board[i] == 4:
                taker = sower if hand == 0 else owners[i]
                captured[taker] += 4
                board[i] = 0
                if sum(captured) == 44:  # the eleventh group: the last four with it
                    captured[taker] += sum(board) + hand
                    return [0] * 12, captured
                if hand == 0:
                    return board, captured
        if board[i] == 1:
            return board, captured
    return None


def playable(board: list[int]) -> list[int]:
    """``board`` changed a little so that it can occur in a round: 8 to 48 tokens in
    whole fours."""
    board = board.copy()
    while sum(board) % 4 or sum(board) > 48:
        board[board.index(max(board))] -= 1
    board[0] += max(0, 8 - sum(board))
    return board


@settings(max_examples=300, deadline=None)
@example(board=[0, 2, 1, 0, 2, 1, 0, 1, 0, 2, 1, 2], houses0=6, sower=1, fours0=4)  # never ends
@example(board=[3, 3, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0], houses0=6, sower=0, fours0=5)  # eleventh
@given(
    board=st.lists(st.integers(0, 3) | st.integers(0, 13), min_size=12, max_size=12).map(playable),
    houses0=st.integers(0, 12),
    sower=st.integers(0, 1),
    fours0=st.integers(0, 10),
)
def test_kernel_sowing_equals_the_reference(
    board: list[int], houses0: int, sower: int, fours0: int
) -> None:
    total = sum(board)
    fours0 = min(fours0, (48 - total) // 4)
    captured = [4 * fours0, 48 - total - 4 * fours0]
    owners = list(deal(houses0))
    pos = np.zeros(SIZE, dtype=np.int64)
    pos[:12], pos[OWNER : OWNER + 12], pos[CAPTURED : CAPTURED + 2] = board, owners, captured
    pos[TO_MOVE] = sower
    for house in range(12):
        if board[house] == 0:
            continue
        trial = pos.copy()
        outcome = sow_move(trial, house, np.zeros(1, dtype=np.int64))
        expected = reference_sowing(board, owners, captured, sower, house)
        if expected is None:
            event("never ends")
            assert outcome == NEVER_ENDS
        else:
            event("eleventh group" if expected[0] == [0] * 12 else "ends")
            assert outcome != NEVER_ENDS
            assert (list(trial[:12]), list(trial[CAPTURED : CAPTURED + 2])) == expected
