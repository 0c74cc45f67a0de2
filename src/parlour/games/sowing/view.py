"""What a page sees of a sowing game: the pits by letter and each row's seeds, and a
move's captures and extra turn in words (``parlour.web.views`` adds what every game
shows)."""

from __future__ import annotations

from typing import Any

from parlour.core import State
from parlour.games.sowing.game import LETTERS, SowingState, SowReport
from parlour.kit import Json


def position(state: State) -> Json:
    assert isinstance(state, SowingState)
    return {
        "kind": "sowing",
        "letters": LETTERS[: state.pits],
        "rows": [list(state.row(0)), list(state.row(1))],
    }


def account_words(who: str, account: Any) -> list[str]:
    words: list[str] = []
    if not isinstance(account, SowReport):
        return words
    if account.capture_column is not None:
        pit = LETTERS[account.capture_column]
        seeds = "seed" if account.captured == 1 else "seeds"
        words.append(f"{who} captures {account.captured} {seeds} at pit {pit}.")
    if account.extra_turn:
        words.append(f"Last seed in the store: {who} moves again.")
    return words


def account_positions(account: Any) -> dict[str, State]:
    """The position after the sowing, before its capture: the page's seed-by-seed
    animation."""
    return {"sown": account.sown} if isinstance(account, SowReport) else {}
