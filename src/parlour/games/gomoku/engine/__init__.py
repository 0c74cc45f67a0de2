"""The computer opponent of five in a row: levels 1 to 6.

Level 1 is greedy: it plays the move after which the seed's ``sequences`` count is best for
it (its windows weighed against the opponent's).  Higher levels play an opening of the
book (``parlour.games.gomoku.book``) from it, where the book's search had more time than
the move has; elsewhere they search:

1. an immediate five is played and an opponent's five point is blocked, always;
2. a VCF (victory by continuous fours: a chain of fours, each of which the opponent must
   answer on its one empty point, ending in a five or in two five points at once) is looked
   for, then a VCT (continuous threats: threes too, each answered on any of its defence
   points or by a four of the defender's first; the threes after the first two in line
   with the attacker's last threat, the likeliest first), and the first move of one
   played;
3. the opponent's VCF or VCT is looked for as if it moved now; if it has one (a critical
   move: the answers may take most of its time), the likeliest moves after which a short
   threat search finds it none are the ones searched (``levels.SCREEN_NODES``), and the
   main search's choice is then checked with a whole threat search (the next best if it
   still loses; ``levels.CHECK_SHARE``); where none passes the screen, the first few
   moves near the stones after which it has none (``levels.DEFENCES``);
4. alpha-beta with iterative deepening (principal variation search: moves after the first
   tried on a null window, at the root too) over the best-looking moves near the
   stones, where a node with a five point to answer has only that move (it costs no
   depth), a node whose opponent just made a three has only its answers (the three's
   points or fours of its own, which cost no depth either: a sequence of threes is seen
   as far as one of fours, and a three at the horizon is never missed), where a level
   asks for it (``Level.late``, ``Level.prune``: off, for want of a measured gain) the
   moves after a node's first few that make no four or open three and block no four
   (``patterns.move_class``), from the second ply on (``levels.LATE_PLY``), are searched
   a ply shallower first, two if they touch no three either (late-move reductions), or
   left out one or two plies from the horizon (late-move pruning), and
   leaves are won where the side to move has a VCF (looked for on the patterns at the
   principal line's leaves, where it could make two threes' worth of fours), else valued
   by the patterns each side could make on the empty points (a four, an open three...:
   ``patterns``), each by its weight for the side to move or for the opponent (a table
   fitted to the results of the engine's own games: ``weights``), and a side to move
   that can make an open four as all but won.

One transposition table (``parlour.search.table``, keyed by the XOR of a hash of each
stone) serves the main search (values and best moves) and the threat searches (wins and
failures of each attacker's position), so that what one check proved the next reuses; a
thread keeps it from move to move.

The threat searches read the same patterns the main search keeps (``patterns.play``): a
four or a three is a point whose pattern on some line says so, found in one pass.

Everything below the driver is numba code running on a copy of the rules' board array with
the rules' kernels (``makes_five``, ``run_through``); it releases the GIL, and a timer
stops it by setting ``stop[0]``.  A point is one int, ``row * N + col``.

The modules: ``board`` (the working board, keys, five points), ``evaluation`` (windows'
values: level 1), ``patterns`` (the main search's values, the order of every move
searched, the threat searches' threats), ``weights`` (the patterns' values, read from
the package's ``weights.json``), ``shapes`` (threes and their answers),
``threats`` (VCF and VCT), ``alphabeta`` (the principal variation search),
``levels`` and ``driver`` (the move's search on a clock, the thinker).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from parlour.games.gomoku.engine.levels import LEVELS, MAX_LEVEL, Level

if TYPE_CHECKING:
    from parlour.games.gomoku.engine.driver import (
        GomokuThinker,
        Result,
        Tables,
        analyze,
        search,
        search_unclocked,
        warm_up,
    )
    from parlour.games.gomoku.engine.threats import find_threat

__all__ = [
    "LEVELS",
    "MAX_LEVEL",
    "GomokuThinker",
    "Level",
    "Result",
    "Tables",
    "analyze",
    "find_threat",
    "search",
    "search_unclocked",
    "warm_up",
]


def __getattr__(name: str) -> Any:
    """The driver's and the threat search's names, loaded on first use: loading them
    compiles the kernels (minutes with an empty cache), which the levels alone (what an
    interface asks to check a level) do not need."""
    if name == "find_threat":
        from parlour.games.gomoku.engine import threats

        return threats.find_threat
    if name in __all__:
        from parlour.games.gomoku.engine import driver

        return getattr(driver, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
