"""What a page sees of Ayo: the houses, their owners, the round and its starter, and a
move's captures, passes and round end in words."""

from __future__ import annotations

from typing import Any

from parlour.core import State
from parlour.games.ayo.game import AyoReport, AyoState
from parlour.kit import Json


def position(state: State) -> Json:
    assert isinstance(state, AyoState)
    return {
        "kind": "ayo",
        "houses": list(state.board),
        "owners": list(state.owners),
        "round": state.round,
        "starter": state.starter,
    }


def account_words(account: Any) -> list[str]:
    if not isinstance(account, AyoReport):
        return []
    words = []
    for capture in account.captures:
        where = "" if capture.house is None else f" from house {capture.house}"
        taker = f"Player {capture.player + 1}"
        words.append(f"Stoned: {taker} takes {capture.tokens}{where} ({capture.kind}).")
    words += [f"Player {p + 1} cannot move and passes." for p in account.passes]
    end = account.round_end
    if end is not None:
        words.append(
            f"Round {end.round} ends ({end.reason}): Player 1 holds {end.held[0]},"
            f" Player 2 {end.held[1]}."
        )
    return words
