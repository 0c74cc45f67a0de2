"""The review of a finished game: each position's value and each move's grade.

Values are for Player 1 (seat 0), in the game's units (seeds; Ayo's tokens; five in a
row: a large number for a forced win), so that a page can draw how the game swung move by
move; each is exact where the game's kit proves the position (its solver) or the game is
over, else the engine's estimate.  Each move is graded by :func:`parlour.review.review`
(best, inaccuracy, mistake, blunder, by what it lost against the best move).  The
positions are those of the game's line as it ended (a move taken back is not in it), in
the views the record kept, so that value ``i`` is the position after the ``i``-th move of
the move list and a review sees no more than the game showed.  It runs in a worker thread,
one game at a time, each position given a short time (the whole game at most ``BUDGET``
seconds).
"""

from __future__ import annotations

from parlour.core import BadOption, State, game
from parlour.kit import analyze, kit_of
from parlour.review import Value, Valuer, review
from parlour.search import Stop
from parlour.search.limit import Limit
from parlour.web.views import Json

BUDGET = 30.0
"""Seconds for a whole game at most (each position's proof and search together)."""
MOST = 0.25
"""Seconds of proof, then of search, for one position at most."""
FORCED = 4
"""Forced replies followed at most from one position (see :func:`value`)."""


def line(record: Json) -> tuple[list[Json], list[str]]:
    """The views of the positions of a recorded turn-based game's line, the start first,
    and the names of its moves: a take back drops the moves it took back."""
    if record.get("start") is None:
        raise BadOption(f"{record['table']['game']} plays itself: it has no moves of anyone's")
    views, names = [record["start"]], []
    for event in record["log"]:
        if event.get("kind") == "moved":
            views.append(event["position"])
            names.append(event["move"])
        elif event.get("kind") == "taken_back":
            del views[event["moves"] + 1 :], names[event["moves"] :]
    return views, names


def positions(record: Json) -> list[Json]:
    """The views of the positions of the game's line (see :func:`line`)."""
    return line(record)[0]


def analysis(record: Json, stop: Stop) -> Json:
    """The review of the game in ``record``: ``values`` (each position's, for Player 1),
    ``exact`` (whether each is), ``grades`` (each move's, with what it lost) and
    ``decided`` (how many moves in the outcome was settled; None where values are
    estimates)."""
    views, names = line(record)
    table = record["table"]
    rules = game(table["game"], **table["options"])
    states = [rules.parse(view["notation"]) for view in views]
    moves = [state.parse_move(name) for state, name in zip(states, names, strict=False)]
    seconds = min(MOST, BUDGET / len(states) / 2)
    valued: list[Value] = []

    def kept(state: State) -> Value:
        found = valuer(seconds, stop)(state)
        valued.append(found)
        return found

    reviewed = review(states, moves, kept)
    return {
        "values": [
            v.value if s.to_move == 0 else -v.value for s, v in zip(states, valued, strict=True)
        ],
        "exact": [v.exact for v in valued],
        "grades": [{"grade": m.grade, "lost": m.lost, "exact": m.exact} for m in reviewed.moves],
        "decided": reviewed.decided,
    }


def valuer(seconds: float, stop: Stop) -> Valuer:
    """Each position's value to its side to move: the final margin at the end, the kit's
    proof where it finds one within ``seconds``, else the engine's :func:`value` (0, an
    estimate, where that says nothing)."""

    def valued(state: State) -> Value:
        if state.is_over:
            return Value(state.scores[state.to_move] - state.scores[1 - state.to_move], True)
        with stop.until(seconds) as clock:
            proven = kit_of(state.game).prove(state, clock)
        if proven is not None:
            return Value(proven, True)
        return value(state, seconds, stop) or Value(0, False)

    return valued


def value(state: State, seconds: float, stop: Stop, forced: int = FORCED) -> Value | None:
    """The engine's value of ``state`` for its side to move.  An answer found without a
    search (depth 0, not proven: a forced reply such as five in a row's block of a five)
    says nothing of the value, so the position after that reply is valued instead, up to
    ``forced`` replies deep (None beyond, or where the reply ends the game)."""
    result = analyze(state, Limit(seconds=seconds), stop=stop)
    if result.depth > 0 or result.exact:
        return Value(result.value, result.exact)
    after = state.play(result.move)
    if after.is_over or forced == 0:
        return None
    later = value(after, seconds, stop, forced - 1)
    if later is None or after.to_move == state.to_move:
        return later
    return Value(-later.value, later.exact)
