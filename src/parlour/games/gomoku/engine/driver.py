"""The driver, in Python: the forced moves, the threat searches, then iterative deepening
on a clock; the thinker that keeps its tables from move to move.

A move's ``SearchResult.reason`` says which of them found it: ``book`` (the opening
book's), ``five``, ``block`` (the opponent's only five point), ``vcf`` or ``vct`` (the
first move of a forced win by fours or threats), ``defend`` (a move that holds against
the opponent's) or ``search`` (the deepening)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import replace
from functools import cached_property
from typing import Any

import numpy as np

from parlour.games.gomoku.book import Book, shipped
from parlour.games.gomoku.engine.alphabeta import search_root
from parlour.games.gomoku.engine.board import (
    HINT,
    MAX_PLY,
    NODE_LIMIT,
    NODES,
    UNSEARCHED,
    VCF_NODES,
    WIN,
    Work,
    board_key,
    five_points,
    five_points_near,
    nearness,
    new_stats,
    place,
)
from parlour.games.gomoku.engine.evaluation import greedy
from parlour.games.gomoku.engine.levels import (
    CHECK_SHARE,
    DEFENCE_SHARE,
    DEFENCES,
    LEVELS,
    MAX_LEVEL,
    TABLE_BITS,
    Level,
    threat_nodes,
)
from parlour.games.gomoku.engine.patterns import (
    NO_WEIGHTS,
    likeliest_on,
    lines_of,
    pattern_table,
)
from parlour.games.gomoku.engine.threats import FREE_THREATS, threat_search
from parlour.games.gomoku.engine.weights import weights
from parlour.games.gomoku.game import EMPTY, GomokuState, Point
from parlour.search import NO_LIMIT, Counted, SearchResult, Stop, capped
from parlour.search.limit import Limit
from parlour.search.table import Table, new_table

Result = SearchResult[Point]
Tables = dict[tuple[int, bool, int], Table]
"""Transposition tables by rule set (board size, five rule) and search width."""


def _table(tables: Tables, state: GomokuState, width: int, bits: int) -> Table:
    """The table of ``tables`` for ``state``'s rules and a search ``width`` wide, of
    ``2 ** bits`` slots (a key is the same for the same points of any board size; a value
    differs under the other five rule or another width); one of another size is made
    anew."""
    rules = (state.size, state.game.exact, width)
    if rules not in tables or len(tables[rules][0]) != 1 << bits:
        tables[rules] = new_table(bits)
    return tables[rules]


class _Search:
    """One move's search: a working copy of the board, the stop flag and the counters."""

    def __init__(
        self,
        state: GomokuState,
        level: Level | None,
        seconds: float | None,
        tables: Tables,
        stop: Stop,
        on_iteration: Callable[[Result], None] | None = None,
        table_bits: int = TABLE_BITS,
    ) -> None:
        """``level`` None is level 1 (greedy); ``on_iteration`` is told each finished depth
        of the main search; the table has ``2 ** table_bits`` slots."""
        if state.is_over:
            raise ValueError("the game is over: there is no move to choose")
        self.state = state
        self.level = level
        self.on_iteration = on_iteration
        self.n = state.size
        self.exact = state.game.exact
        self.board = state.board.copy()
        self.near = nearness(self.board)
        self.stone = state.to_move + 1
        self.request = stop
        self.stop = np.zeros(1, dtype=np.uint8)  # raised by the move's clock (``run``)
        self.threats_stop = np.zeros(1, dtype=np.uint8)  # and by the threats' share of it
        stones = int(np.count_nonzero(self.board))
        leaf_vcf, late, prune = (level.leaf_vcf, level.late, level.prune) if level else (0, 0, 0)
        self.stats = new_stats(stones, leaf_vcf, late, prune=prune)
        self.main_nodes = 0  # the main search's nodes, if it stops at a count (``by_nodes``)
        self.weights = weights()  # the leaves' values (a thinker's ``weights``)
        self.seconds = seconds or (level.seconds if level else 0.0)
        self.threat_nodes = threat_nodes(self.seconds)
        self.tables = tables
        self.table_bits = table_bits
        self.clock: Stop | None = None  # the move's clock, while ``run`` runs on one
        self.started = time.perf_counter()

    @cached_property
    def work(self) -> Work:
        """What the main search works on, its table taken when a level that searches
        first needs it."""
        assert self.level is not None
        table = _table(self.tables, self.state, self.level.width, self.table_bits)
        return Work(self.board, self.near, self.exact, self.stop, self.stats, *table)

    @cached_property
    def threat_work(self) -> Work:
        """What the threat searches work on: the same, stopped at their share of time."""
        return self.work._replace(stop=self.threats_stop)

    def point(self, q: int) -> Point:
        return divmod(int(q), self.n)

    def report(self, q: int, reason: str, score: int = 0, depth: int = 0) -> Result:
        """The search's answer: a forced win or loss is exact (its value counts plies)."""
        nodes = int(self.stats[NODES] + self.stats[VCF_NODES])
        seconds = time.perf_counter() - self.started
        move = self.point(q)
        exact = abs(int(score)) >= WIN - MAX_PLY
        return SearchResult(move, int(score), depth, nodes, seconds, (move,), exact, reason)

    def run(self, clocked: bool = True) -> Result:
        """The move; not ``clocked``, with no clock at all: the threat searches stop at
        their node budgets and the main search at the level's depth, so that what it
        finds does not depend on the machine's load (``search_unclocked``)."""
        mine = five_points(self.board, self.stone, self.exact)
        if len(mine):
            return self.report(mine[0], "five", WIN)
        theirs = five_points(self.board, 3 - self.stone, self.exact)
        if len(theirs):
            return self.report(theirs[0], "block")
        if not self.near.any():
            return self.report((self.n // 2) * self.n + self.n // 2, "search")
        level = self.level
        if level is None:
            return self.report(greedy(self.board, self.near, self.stone), "search")
        if not clocked:
            return self._search(level)
        # the caller's stop, on the move's clock (and the threats' clocks within it,
        # ``_threats_until``): each stops the searches polling it and every clock within it
        with self.request.until(self.seconds) as clock:
            clock.attach(self.stop)
            self.clock = clock
            return self._search(level)

    @contextmanager
    def _threats_until(self, share: float) -> Iterator[None]:
        """The threat searches may run in the block until ``share`` of the move's time
        (from its start) has passed, or the move's clock stops them; with no clock (not
        ``clocked``), until their node budgets."""
        self.threats_stop[0] = 0
        with self._until(share, self.threats_stop):
            yield

    @contextmanager
    def _until(self, share: float, flag: np.ndarray) -> Iterator[None]:
        """``flag`` raised once ``share`` of the move's time (from its start) has passed,
        while the block runs (with no clock, never)."""
        if self.clock is None:
            yield
            return
        left = self.started + self.seconds * share - time.perf_counter()
        with self.clock.until(left) as clock:
            clock.attach(flag)
            yield

    def _threats(
        self, stone: int, depth: int, hint: int = -1, share: float = 1, nodes: int = 0
    ) -> tuple[int, str]:
        """The first move of a VCF of ``stone`` from the working board, else of a VCT (of
        at most half as many threats, shortest first, within ``share`` of a threat
        search's node budget, or of ``nodes`` if given), trying ``hint`` first, and which
        it is; -1 if neither is found in the threat searches' share of time."""
        work, stats, key = self.threat_work, self.stats, board_key(self.board)
        lines = lines_of(self.board, pattern_table(), NO_WEIGHTS)
        stats[HINT] = hint
        budget = nodes or self.threat_nodes
        limit = int(stats[VCF_NODES]) + budget
        found = threat_search(work, lines, stone, False, limit, depth, -1, -1, FREE_THREATS, key)
        if found >= 0:
            return int(found), "vcf"
        limit = int(stats[VCF_NODES]) + int(budget * share)
        for threats in range(2, depth // 2 + 1):
            found = threat_search(
                work, lines, stone, True, limit, threats, -1, -1, FREE_THREATS, key
            )
            if found >= 0 or stats[VCF_NODES] > limit:
                break
        return int(found), "vct"

    def _search(self, level: Level) -> Result:
        # our own VCT gets half the budget: a failed one would leave no time to see the
        # opponent's, which the defence needs
        with self._threats_until(level.threats_share):
            win, kind = self._threats(self.stone, level.vcf_depth, share=0.5)
            if win >= 0:
                return self.report(win, kind, WIN)
            threat = self._threats(3 - self.stone, level.vcf_depth)[0]
        if threat >= 0:  # a critical move: the answers may take more of its time
            answers: list[int] = []
            if level.screen:
                with self._threats_until(DEFENCE_SHARE):
                    answers = self._screened(level, threat)
            if answers:
                return self._defend(np.array(answers, dtype=np.int64), level, threat)
            with self._threats_until(DEFENCE_SHARE):
                defences = self._defences(level, threat)
            if defences:
                return self._deepen(np.array(defences, dtype=np.int64), level, "defend")[0]
        moves = likeliest_on(self.board, self.near, self.stone, level.width)
        return self._deepen(moves, level, "search")[0]

    def _screened(self, level: Level, threat: int) -> list[int]:
        """The main search's likeliest moves that the opponent's threat searches of the
        level's ``screen`` nodes (its ``threat`` tried first) do not show losing."""
        moves = likeliest_on(self.board, self.near, self.stone, level.width)
        kept = []
        for q in moves:
            loses = self._loses_to_threats(q, level.vcf_depth, threat, level.screen)
            if self.threats_stop[0]:
                break  # out of time for threats: the answers left are unknown
            if not loses:
                kept.append(int(q))
        return kept

    def _defend(self, answers: np.ndarray, level: Level, threat: int) -> Result:
        """The main search's choice among the screened ``answers`` until ``CHECK_SHARE``
        of the move's time, then its first in order after which the opponent's threat
        searches find no win with their whole budget (the rest of the time); the choice
        unchecked if the time runs out first.  If every one loses (to a VCT the screen
        missed), the first answer that holds further down (``_defences``), if any."""
        with self._until(CHECK_SHARE, self.stop):
            chosen, order, scores = self._deepen(answers, level, "defend")
        with self._threats_until(1.0):
            for k, q in enumerate(order):
                loses = self._loses_to_threats(q, level.vcf_depth, threat)
                if not loses or self.threats_stop[0]:
                    if k == 0:
                        return chosen
                    return self.report(q, "defend", min(int(scores[k]), chosen.value), chosen.depth)
            held = self._defences(level, threat)
        return self.report(held[0], "defend", 0, chosen.depth) if held else chosen

    def _defences(self, level: Level, threat: int) -> list[int]:
        """The first few moves after which the opponent has no VCF or VCT, from the main
        search's likeliest (twice its width), or, if none of those holds, from every point
        near the stones (a lone defence can lie further down: gomokubench won a game where
        only the 21st held).  A move that loses is usually shown so at once (the opponent's
        ``threat`` tried first), one that holds costs a whole node budget."""
        held: list[int] = []
        moves = likeliest_on(self.board, self.near, self.stone, self.n * self.n)
        for tried, q in enumerate(moves):
            if held and tried == 2 * level.width:
                break
            loses = self._loses_to_threats(q, level.vcf_depth, threat)
            if self.threats_stop[0]:
                break  # out of time for threats: that last answer is unknown
            if not loses:
                held.append(int(q))
                if len(held) == DEFENCES:
                    break
        return held

    def _loses_to_threats(self, q: int, depth: int, threat: int, nodes: int = 0) -> bool:
        """Whether the opponent still has a VCF or VCT after our move ``q`` (if ``q`` is a
        four, after the opponent's forced answer, counting our move as wasted), found
        within a threat search's budget (``nodes``, if given)."""
        place(self.board, self.near, q, self.stone)
        points = np.empty(8, dtype=np.int64)
        blocks = five_points_near(self.board, q, self.stone, self.exact, points)
        if blocks:
            place(self.board, self.near, points[0], 3 - self.stone)
        loses = self._threats(3 - self.stone, depth, threat, nodes=nodes)[0] >= 0
        if blocks:
            place(self.board, self.near, points[0], EMPTY)
        place(self.board, self.near, q, EMPTY)
        return loses

    def _deepen(
        self, moves: np.ndarray, level: Level, reason: str
    ) -> tuple[Result, np.ndarray, np.ndarray]:
        """Iterative deepening: each finished depth reorders the moves; the last finished
        depth's best move is played (or depth 1's best so far, if time ran out in it), unless
        the depth the clock stopped found a better one: the last best is searched first, so
        a move finished after it with a higher value beats it at the deeper depth too.  With
        the moves, the one played first, the others in the last finished depth's order, and
        their values there (the others' are bounds)."""
        best, score, done = moves[0], 0, 0
        scores = np.zeros(len(moves), dtype=np.int64)
        if self.main_nodes:
            self.stats[NODE_LIMIT] = self.stats[NODES] + self.stats[VCF_NODES] + self.main_nodes
        for depth in range(1, level.depth + 1):
            found = search_root(
                self.work, pattern_table(), self.weights, self.stone, moves, depth, level.width
            )
            if self.stop[0] and depth > 1:
                better = int(np.argmax(found))
                if found[0] > UNSEARCHED and found[better] > found[0]:
                    best, score = moves[better], found[better]
                break
            if found.max() == UNSEARCHED:
                break  # stopped before any move was searched: nothing is known of them
            order = np.argsort(-found, kind="stable")
            moves, scores = moves[order], found[order]
            best, score, done = moves[0], scores[0], depth
            if self.on_iteration is not None:
                self.on_iteration(self.report(best, reason, score, done))
            if abs(score) >= WIN - MAX_PLY:
                break  # a forced result: deeper cannot change it
        first = moves == best  # the move played first, the others in their order
        moves = np.concatenate((moves[first], moves[~first]))
        scores = np.concatenate((scores[first], scores[~first]))
        return self.report(best, reason, score, done), moves, scores


class GomokuThinker:
    """The computer at ``level`` (1 to 6), keeping its transposition tables from move to move:
    what the last move's search found about the positions after it holds in the next
    one's.  ``seconds`` overrides the level's time a move; ``to_the_clock`` deepens until
    the clock stops it, past the level's depth (a brain under a manager's time limit,
    where the time, not the level's depth, is what bounds it: at level 3's depth of 10 a
    search of 1.8 s often stopped in a third of its time).  ``table_bits`` sizes its
    tables (``2 ** table_bits`` slots of ``parlour.search.table.SLOT_BYTES``).  ``leaf_vcf``,
    ``late``, ``prune`` and ``screen`` override the level's settings (``Level``), for the
    benchmarks that measure what each gains.  ``by_nodes`` (main, threats) searches with
    no clock at all: each threat search to ``threats`` nodes, the main search deepening
    until it has searched ``main`` (with its leaves' VCFs): a move that is the same on a
    busy machine as on an idle one, for self-play that measures strength per node.
    ``weights`` values the main search's leaves instead of the shipped table
    (``weights``), for self-play that measures what a table gains, and
    ``threats_share`` overrides the threat searches' share of a move likewise.  ``book``
    is the opening book consulted before searching (``parlour.games.gomoku.book``): True
    the shipped one, False none, or a book of one's own (``_from_book``)."""

    def __init__(
        self,
        level: int,
        seconds: float | None = None,
        to_the_clock: bool = False,
        table_bits: int = TABLE_BITS,
        leaf_vcf: int | None = None,
        late: int | None = None,
        screen: int | None = None,
        prune: int | None = None,
        by_nodes: tuple[int, int] | None = None,
        weights: np.ndarray | None = None,
        threats_share: float | None = None,
        book: Book | bool = True,
    ) -> None:
        if not 1 <= level <= MAX_LEVEL:
            raise ValueError(f"the gomoku levels are 1 to {MAX_LEVEL}, not {level}")
        self.level = level
        self.seconds = seconds
        self.to_the_clock = to_the_clock
        self.table_bits = table_bits
        self.by_nodes = by_nodes
        self.weights = weights
        settings = (
            *(("leaf_vcf", leaf_vcf), ("late", late), ("screen", screen), ("prune", prune)),
            ("threats_share", threats_share),
        )
        self.overrides: dict[str, Any] = {k: v for k, v in settings if v is not None}
        self.tables: Tables = {}
        self.book = book

    def best_move(
        self, state: GomokuState, stop: Stop, limit: Limit = NO_LIMIT
    ) -> tuple[Point, Result]:
        """The move and what the search did, within the level's depth and time or
        ``limit``'s, the shorter (the main search to the first depth that reaches its
        node count)."""
        level = LEVELS.get(self.level)
        if level is not None:
            level = replace(level, **self.overrides)
        if level is not None and self.to_the_clock:
            level = replace(level, depth=MAX_PLY - 1)
        if level is not None:
            level = replace(level, depth=capped(level.depth, limit.depth))
        seconds = capped(self.seconds or (level.seconds if level else None), limit.seconds)
        known = self._from_book(state, level, seconds, limit)
        if known is not None:
            return known.move, known
        counting = stop.until(None) if limit.nodes is not None else nullcontext(stop)
        with counting as mine:  # a stop of its own to set at the nodes, where counted
            counted: Counted[Point] = Counted(limit, mine)
            search = _Search(state, level, seconds, self.tables, mine, counted, self.table_bits)
            if self.by_nodes is not None:
                search.main_nodes, search.threat_nodes = self.by_nodes
            if self.weights is not None:
                search.weights = self.weights
            report = counted.answer(search.run(clocked=self.by_nodes is None))
        return report.move, report

    def _from_book(
        self, state: GomokuState, level: Level | None, seconds: float | None, limit: Limit
    ) -> Result | None:
        """The book's move for ``state``, where the book's search had more time than this
        move's ``seconds`` (a book entry is a longer search, cached); None for level 1 (which
        does not search), a move by nodes or to a depth or node count (a search asked for
        as such), or a position the book lacks (of other rules, or another size)."""
        if self.book is False or level is None or seconds is None or self.by_nodes is not None:
            return None
        if limit.depth is not None or limit.nodes is not None:
            return None
        entry = (shipped() if self.book is True else self.book).lookup(state)
        if entry is None or entry.seconds <= seconds:
            return None
        move = entry.move
        exact = abs(entry.value) >= WIN - MAX_PLY
        return SearchResult(move, entry.value, entry.depth, 0, 0.0, (move,), exact, "book")

    def warm_up(self, state: GomokuState) -> None:
        """The searches' kernels; nothing for level 1, which is greedy."""
        if self.level in LEVELS:
            warm_up(state)


def warm_up(state: GomokuState) -> None:
    """Compile the search's kernels before any clock starts: a one-ply search, threats
    included, of a position two stones into a game of ``state``'s rules."""
    start = state.game.start()
    centre = start.size // 2
    two = start.play((centre, centre)).play((centre, centre + 1))
    assert isinstance(two, GomokuState)
    _Search(two, replace(LEVELS[2], depth=1), None, {}, Stop()).run()


def analyze(
    state: GomokuState,
    depth: int | None,
    seconds: float | None,
    on_iteration: Callable[[Result], None] | None,
    stop: Stop,
) -> Result:
    """The strongest level's search of ``state`` (threats first, then the deepening, to
    ``depth`` if given), for ``seconds`` (default: the level's), telling ``on_iteration``
    each depth it finishes: ``parlour analyze gomoku``."""
    level = LEVELS[MAX_LEVEL]
    if depth is not None:
        level = replace(level, depth=min(depth, MAX_PLY - 1))
    return _Search(state, level, seconds, {}, stop, on_iteration).run()


def search_unclocked(
    state: GomokuState, level: int, depth: int, threat_nodes: int, **settings: int
) -> Result:
    """The move's search at ``level`` with no clock: each threat search with a budget of
    ``threat_nodes``, then the main search to ``depth`` with the ``Level`` ``settings``
    given (``leaf_vcf``, ``late``, ``screen``).  Its nodes and result are the same on a busy machine
    as on an idle one: for the tactical suite (``benchmarks/gomoku_tactics.py``) and the
    tests."""
    chosen = replace(LEVELS[level], depth=depth, **settings)
    search = _Search(state, chosen, None, {}, Stop())
    search.threat_nodes = threat_nodes
    return search.run(clocked=False)


def search(state: GomokuState, level: int = 3, seconds: float | None = None) -> Result:
    """The computer's move at ``level`` (1 to 6) with what the search did, by a thinker of
    its own; ``seconds`` overrides the level's time a move."""
    if level not in LEVELS and level != 1:
        raise ValueError(f"the gomoku levels are 1 to {MAX_LEVEL}, not {level}")
    return GomokuThinker(level, seconds).best_move(state, Stop())[1]
