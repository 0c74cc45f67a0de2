"""The analysis of a finished game: the engine's value of each position it went through.

Values are for Player 1 (seat 0), in the game's units (seeds; Ayo's tokens; five in a
row: a large number for a forced win), so that a page can show how the game swung move
by move.  The positions are those of the game's line as it ended (a move taken back is
not in it), in the views the record kept, so that value ``i`` is the position after the
``i``-th move of the move list and an analysis sees no more than the game showed.  It
runs in a worker thread, one game at a time, each position searched for a short time
(the whole game for at most ``BUDGET`` seconds).
"""

from __future__ import annotations

from parlour.core import BadOption, State, game
from parlour.kit import analyze
from parlour.search import Stop
from parlour.web.views import Json

BUDGET = 30.0
"""Seconds of search for a whole game at most."""
MOST = 0.25
"""Seconds of search for one position at most."""
FORCED = 4
"""Forced replies followed at most from one position (see :func:`value`)."""


def positions(record: Json) -> list[Json]:
    """The views of the positions of a recorded turn-based game's line, the start first:
    a take back drops the positions of the moves it took back."""
    if record.get("start") is None:
        raise BadOption("War has no choices to analyse")
    line = [record["start"]]
    for event in record["log"]:
        if event.get("kind") == "moved":
            line.append(event["position"])
        elif event.get("kind") == "taken_back":
            del line[event["moves"] + 1 :]
    return line


def analysis(record: Json, stop: Stop) -> list[int | None]:
    """The value of each position of the line for Player 1 (None where the game is over)."""
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
        found = value(state, seconds, stop)
        values.append(found if found is None or state.to_move == 0 else -found)
    return values


def value(state: State, seconds: float, stop: Stop, forced: int = FORCED) -> int | None:
    """The engine's value of ``state`` for its side to move.  An answer found without a
    search (depth 0, not proven: a forced reply such as five in a row's block of a five)
    says nothing of the value, so the position after that reply is valued instead, up to
    ``forced`` replies deep (None beyond, or where the reply ends the game)."""
    result = analyze(state, seconds=seconds, stop=stop)
    if result.depth > 0 or result.exact:
        return result.value
    after = state.play(result.move)
    if after.is_over or forced == 0:
        return None
    later = value(after, seconds, stop, forced - 1)
    if later is None:
        return None
    return later if after.to_move == state.to_move else -later
