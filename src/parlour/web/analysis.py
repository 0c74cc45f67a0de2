"""The analysis of a finished game: the engine's value of each position it went through.

Values are for Player 1 (seat 0), in the game's units (seeds; Ayo's tokens; five in a
row: a large number for a forced win), so that a page can show how the game swung move
by move.  The positions are those the record kept (each view's notation), so an analysis
sees no more than the game showed.  It runs in a worker thread, one game at a time, each
position searched for a short time (the whole game for at most ``BUDGET`` seconds).
"""

from __future__ import annotations

from parlour.core import BadOption, game
from parlour.kit import analyze
from parlour.search import Stop
from parlour.web.views import Json

BUDGET = 30.0
"""Seconds of search for a whole game at most."""
MOST = 0.25
"""Seconds of search for one position at most."""


def positions(record: Json) -> list[Json]:
    """The views of every position of a recorded turn-based game, the start first."""
    if record.get("start") is None:
        raise BadOption("War has no choices to analyse")
    return [record["start"], *(e["position"] for e in record["log"] if "position" in e)]


def analysis(record: Json, stop: Stop) -> list[int | None]:
    """The value of each position for Player 1 (None where the game is over)."""
    views = positions(record)
    table = record["table"]
    rules = game(table["game"], **table["options"])
    seconds = min(MOST, BUDGET / len(views))
    values: list[int | None] = []
    for view in views:
        state = rules.parse(view["notation"])
        if state.is_over or stop.is_set:
            values.append(None)
            continue
        value = analyze(state, seconds=seconds, stop=stop).value
        values.append(value if state.to_move == 0 else -value)
    return values
