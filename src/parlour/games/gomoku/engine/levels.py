"""The levels of the five-in-a-row computer that search (level 1 is greedy), and the
budgets the driver gives its threat searches."""

from __future__ import annotations

from dataclasses import dataclass

LEAF_VCF_NODES = 64
"""The nodes of the VCF the main search looks for at a leaf whose side to move could make a
four: a win of fours just past the horizon is seen as one (the driver's VCF and VCT at the
root see only those that start now).  A few dozen nodes find the short ones; the table
keeps each leaf's answer, so a leaf met again costs one probe."""
LATE_MOVES = 3
"""The moves of a node searched at full depth: each move after them that makes no four
or open three and blocks no four (``patterns.move_class``) is searched a ply shallower
first (two, after twice as many, if it touches no three either), and again at full
depth only if it then beats the best so far (late-move reductions).  A move that makes
or blocks no three, the class reduced in round 4, was 0.5% of the moves searched in a
middlegame: the reductions saved next to nothing (``benchmarks/gomoku_speed.py``: nodes
to depth with and without)."""
LATE_PLY = 2
"""The first ply reduced or pruned: the answers to the root's moves are all searched at
full depth, where a reduction's mistake costs the whole search."""
PRUNE_MOVES = 5
"""The moves of a node one ply from the horizon searched before the moves of the class
``LATE_MOVES`` reduces are left out (twice as many two plies from it): at a node with no four or
three to answer, such a move late in the order rarely changes a value its leaves'
patterns give, and leaves are most of a search's nodes (late-move pruning)."""
LEAF_VCF_DEPTH = 8
"""The fours a leaf's VCF may play."""
LEAF_VCF_FOURS = 4
"""The (point, line) pairs where the side to move could make a four that a leaf needs for
its VCF to be looked for: two threes' worth (a three has two points that make it a four).
A leaf with one three (most leaves of a middlegame) rarely has a VCF, and looking cost
the main search more than half its speed; with the two, a third of it, and the suite's
wins (``benchmarks/gomoku_tactics.py``) are proven at the same depths."""


SCREEN_NODES = 2_000
"""The opponent's threat-search nodes after each of the likeliest answers to its VCF or
VCT: an answer that still loses is mostly shown so within them (the opponent's threat
tried first), one that holds takes a whole budget (``threat_nodes``) to be shown so.
The main search chooses among the answers the screen leaves (where the first three that
held, each proven at a whole budget's cost, left it a fifth of the move's time and the
moves Rapfi chose as 0 were further down: ``benchmarks/results/gomoku_budgets.md``), and
its choice is then checked with the whole budget."""


THREATS_SHARE = 0.5
"""The part of a move's time the threat searches may take, before the main search (0.3
played no better in self-play at 0.5 s a move: ``benchmarks/results/gomoku_selfplay-notes.md``)."""


@dataclass(frozen=True)
class Level:
    """How hard a level looks: main-search depth and width, VCF depth, seconds a move, the
    main search's leaf VCF, late-move reductions and pruning (``LEAF_VCF_NODES``,
    ``LATE_MOVES``, ``PRUNE_MOVES``), the screen of the answers to a threat
    (``SCREEN_NODES``) and the threat searches' share of a move (``THREATS_SHARE``); 0
    turns any of the first four off (the screen's 0: the first ``DEFENCES``
    answers that hold), which the benchmarks do to measure what each gains."""

    depth: int
    width: int
    vcf_depth: int
    seconds: float
    leaf_vcf: int = LEAF_VCF_NODES
    late: int = 0
    """Off: the reductions and pruning by class (``LATE_MOVES``, ``PRUNE_MOVES``) reach a
    depth with fewer nodes, but gained nothing that self-play could show, by nodes or at
    0.2 s, and lost at 0.5 s a move, neither when they reduced open threes made nor since
    they spare them (``benchmarks/results/gomoku_selfplay-notes.md``): the benchmarks turn
    them on (``gomoku_selfplay.VARIANTS``' ``after``)."""
    prune: int = 0
    screen: int = SCREEN_NODES
    threats_share: float = THREATS_SHARE


LEVELS = {
    2: Level(depth=4, width=8, vcf_depth=6, seconds=1.0),
    3: Level(depth=10, width=12, vcf_depth=14, seconds=2.0),
    4: Level(depth=10, width=12, vcf_depth=14, seconds=5.0),
    5: Level(depth=12, width=14, vcf_depth=18, seconds=10.0),
    6: Level(depth=14, width=16, vcf_depth=20, seconds=20.0),
}
MAX_LEVEL = max(LEVELS)
THREAT_NODES = 60_000
"""The nodes one threat search may take (a VCF, a VCT, or the opponent's VCT after an
answer tried) in a move of ``THREAT_SECONDS`` or less, and in proportion in a longer
one, whose threat searches would otherwise stop for want of nodes with time to spare.
Too few, and an answer is taken for holding when a VCT still wins: the VCTs of
``tests/games/gomoku/test_gomoku_search.py`` (from lost games) say how many nodes the
longest known ones take; ``benchmarks/gomoku_search.py`` measures the threat search's
nodes and seconds on them (how the figure was chosen: ``benchmarks/results/gomoku_budgets.md``)."""
THREAT_SECONDS = 0.5
DEFENCES = 3
"""How many answers that hold against the opponent's threats the main search chooses among,
where no likely answer passes the screen (``SCREEN_NODES``; with none, these alone) and
every point near the stones is tried (a lone defence can lie far down the list)."""
CHECK_SHARE = 0.75
"""The part of a critical move's time (from its start) the main search may take among
the screened answers: the rest is for checking its choice (and the next best, if that
still loses)."""
DEFENCE_SHARE = 0.8
"""The part of a move's time (from its start) the answers to the opponent's VCF or VCT may
take, each tried against the opponent's threat searches: a critical move, where the
main search that follows chooses among a few answers, and an answer that holds costs a
whole threat search's budget (at 1 s a move, the threats' own share left time for one
or none after the VCTs were looked for)."""
TABLE_BITS = 18
"""The searches' transposition table: 2**18 entries (4 MiB), one a thinker for each rule
set (board size and five rule) and search width, kept from move to move: what the last
move's search found about the positions after it holds in the next one's.  A computer
player has a thinker a game, and a server plays many games at once."""
LARGEST_TABLE_BITS = 22
"""The largest table worth its memory (64 MiB), which a brain takes where its manager's
``max_memory`` leaves room (``parlour.games.gomoku.gomocup.brain``): a bigger table
keeps more of what the last moves' searches proved, and ``benchmarks/gomoku_search.py``
shows the main search needing fewer nodes with it, and next to none fewer with 2**24 slots."""


def threat_nodes(seconds: float) -> int:
    """The node budget of one threat search in a move of ``seconds``."""
    return max(THREAT_NODES, int(THREAT_NODES * seconds / THREAT_SECONDS))
