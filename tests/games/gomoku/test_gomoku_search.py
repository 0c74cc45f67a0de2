"""The gomoku computer opponent: it finds victories by continuous fours, never misses an
immediate five or block, plays level 1 by the seed's ``sequences``, and stops on time."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

import parlour
from parlour.games.gomoku.engine import (
    LEVELS,
    MAX_LEVEL,
    GomokuThinker,
    Tables,
    find_threat,
    search,
    search_unclocked,
)
from parlour.games.gomoku.engine.alphabeta import deepen, search_root
from parlour.games.gomoku.engine.board import (
    MAX_PLY,
    NODE_LIMIT,
    NODES,
    UNSEARCHED,
    VCF_NODES,
    WIN,
    Work,
    board_key,
    five_points_near,
    nearness,
    new_stats,
    place,
    stone_key,
    window_fills,
)
from parlour.games.gomoku.engine.driver import _Search, _table
from parlour.games.gomoku.engine.levels import (
    CHECK_SHARE,
    DEFENCE_SHARE,
    LATE_MOVES,
    LEAF_VCF_NODES,
    PRUNE_MOVES,
    THREAT_NODES,
    THREAT_SECONDS,
    THREATS_SHARE,
    threat_nodes,
)
from parlour.games.gomoku.engine.patterns import (
    CLOSED_THREE,
    CLOSED_TWO,
    FIVE,
    FOUR,
    NO_POINTS,
    NONE,
    OPEN_FOUR,
    OPEN_THREE,
    OPEN_TWO,
    SURE,
    VALUE,
    classify,
    likeliest,
    likeliest_on,
    lines_of,
    lines_value,
    move_class,
    pattern_table,
    play,
    threatens,
)
from parlour.games.gomoku.engine.shapes import three_defences
from parlour.games.gomoku.engine.threats import line_vcf, threat_points, threat_search
from parlour.games.gomoku.engine.weights import HAND, weights
from parlour.games.gomoku.game import EMPTY, GomokuGame, GomokuState, window_stones
from parlour.search import SearchResult, Stop
from parlour.search.limit import Limit
from parlour.search.table import Table, new_table, store

VCF_POSITIONS = [
    # (board size, the game so far): the side to move has a VCF of at least three fours
    # and no five point on either side; found by random play near the centre
    (11, "C3 D3 C4 I3 C5 H8 I8 D6 E3 G7 E9 D7 F3 G8 F5 C8 F4 H5 G4 H9 E5"),
    (15, "G11 K5 G8 I8 H8 I10 G9 G7 J6 J7 F7 K9 F6 G6 H9 K10"),
    (9, "H8 F3 H5 D2 B2 B7 F5 E7 C3 E4 D8 E3 C4 E5 H6 F7 E6"),
    (11, "I5 I7 G7 C6 H5 H9 F9 C3 I4 E4 I8 E9 G3 D8 E6 D4 E5 G9"),
    (9, "F7 D3 F6 H2 G8 C8 B8 H8 C5 G4 F3 C6 G2 D5 H7 E4 D6 C7 D8 E8 E5 G3"),
    (15, "G7 E11 J7 K10 I10 H8 I11 J8 J11 G9 J9 I5 K7 F5 E9 G6"),
    (9, "E3 G4 B4 C8 B8 H2 B6 H6 H3 E2 F2 C2 D3 E5 G2 F5 D8 D4 D6 E8"),
    (15, "K11 H5 J9 H8 I5 I6 G9 F8 K7 F5 H9 J8 H10 K5 E11 H6 K10"),
    (15, "F10 K11 I6 F11 H9 H8 K7 E11 J6 I10 E9 H10 F8 F7 F6 E7 I7 I5"),
    (9, "E2 E4 D7 B3 H5 E8 C5 B8 E5 F4 H4 E3 D3 D5 F2 G2 G7 E6 C6 D4 G3 H8"),
    (15, "K10 H6 G8 E8 J8 J6 G10 F8 I10 F6 E9 I7 E11 J9 I8 F7 K7 J5 K9 G11 H11 K8"),
    (9, "C5 H6 F8 D6 E5 E4 G2 C4 B3 G7 E3 B6 C2 B5 F7 D8 D7 C3 G4 B7 G6 H5"),
    (11, "G6 D3 I7 H5 D9 G7 H3 F5 G8 C6 E3 F4 F9 F8 E7 G3 E6 G4 D7"),
    (9, "C6 H3 G3 B4 G2 F4 C8 F5 E6 G4 G8 B6 E7 C4 F2 D5 B8 H2 G6"),
    (11, "E4 F4 C3 I6 F7 E8 D9 G7 F5 I9 G5 G3 C5 C9 H7 D8 G9 I8 E7 E6"),
    (11, "G7 H3 C8 C4 C9 G3 I6 E7 E4 H8 I9 D3 C6 D6 E6 H9 I8 H5 E9"),
    (9, "G5 C7 G7 B7 H4 D3 E8 B4 G4 G3 E4 D4 E2 C4"),
    (9, "D3 D7 C7 D8 B3 E7 D6 H2 F2 B8 F4 E3 D5 F6 D4 D2 H4 G6"),
    (11, "E8 C7 F6 F8 E5 F7 I7 H4 H7 C5 E9 D4 F9 G7 G4 H6 H5 E4"),
    (11, "C6 C9 G6 E8 G8 E5 F5 I3 E9 F8 C7 C5 F7 C8 H4 E6 D6"),
    (9, "H8 E6 C8 C3 F7 B3 H2 B8 D3 E4 F4 F5 F3 D6 G2 D4 B7 C2 B4 D7 F6"),
    (9, "F7 H2 F2 D4 G8 E8 C3 G5 H3 F8 C7 B6 D2 E2 C6 D6 D3 F5 B7 G4"),
    (15, "I11 J7 K10 F5 J11 H5 K6 E8 I9 K7 E5 E6 H9 G7 H11 E7 E9 J9 G8"),
    (15, "F9 I11 F8 H7 I6 K11 H9 E8 K5 G8 F5 F11 I7 K9 K10 H8 J7 I10 E6 J8 G11"),
    (15, "E5 F9 G8 E8 H10 F7 I9 K9 F6 H7 F8 G5 K10 I6 J5 E9"),
    (15, "J6 H8 G7 F5 K10 E10 G5 E11 K6 K11 H11 J9 E8 H9 I7 I10 K8 F6"),
    (9, "F8 H2 D8 C3 C4 F6 E6 F2 C2 B5 D7 D6 C5 H3 G4 F5 C6"),
    (9, "G6 B3 D5 B8 E3 G2 D8 C6 E5 F7 D4 F6 H3 B5 B7 E7"),
    (11, "C3 D8 H3 H6 I3 E3 I4 F4 G4 D3 E8 E5 I7 G8"),
    (11, "D8 D5 H5 G4 C6 H3 F4 C5 I9 G8 G9 E9 C4 I8 D7 F7 D6"),
]


def replay(size: int, record: str) -> GomokuState:
    game = parlour.game("gomoku", size=size)
    assert isinstance(game, GomokuGame)
    state = game.start()
    for name in record.split():
        state = state.play(state.parse_move(name))
    return state


def five_points(state: GomokuState, player: int) -> set[tuple[int, int]]:
    """Where ``player`` would complete a five, by the rules alone."""
    as_mover = state.game.parse(str(state), to_move=player)
    return {m for m in as_mover.legal_moves() if as_mover.play(m).winner == player}


@pytest.mark.parametrize(("size", "record"), VCF_POSITIONS)
def test_level_3_wins_by_continuous_fours(size: int, record: str) -> None:
    """Every move of the attacker is a four (or the five), the defender blocks, and the
    game ends in the attacker's five: so the first move was a winning one.  Level 3's
    threat searches by their node budget, not its clock, which a loaded machine's
    compiling could use up before the VCF is found."""
    state = replay(size, record)
    attacker = state.to_move
    assert not five_points(state, attacker) and not five_points(state, 1 - attacker)
    budget = threat_nodes(LEVELS[3].seconds)
    for _ in range(size * size):
        move = search_unclocked(state, 3, 4, budget).move
        state = state.play(move)
        if state.is_over:
            break
        threats = five_points(state, attacker)
        assert threats, f"{state.move_name(move)} is not a four:\n{state.render()}"
        state = state.play(min(threats))
    assert state.winner == attacker


FORK = "\n".join(
    # X to move: G8 H8 and J9 J10 meet at J8, where one stone makes two threes; 0's four
    # stones are in the corners, out of play
    "0" + "." * 13 + "0" if row in (0, 2) else
    "." * 6 + "XX" + "." * 7 if row == 7 else
    "." * 9 + "X" + "." * 5 if row in (5, 6) else
    "." * 15
    for row in range(15)
)  # fmt: skip


def vct_search(
    state: GomokuState, depth: int, hint: int = -1, table: Table | None = None
) -> tuple[int, int]:
    """The side to move's VCT of at most ``depth`` threats (trying the point ``hint``
    first) with ``table`` (else a new one): its first point or -1, and its nodes."""
    return find_threat(state, state.to_move + 1, True, depth, table or new_table(16), hint, 10**6)


def vct_move(state: GomokuState, depth: int = 5, hint: int = -1) -> tuple[int, int] | None:
    """The side to move's five if it has one, else the first move of its VCT of at most
    ``depth`` threats (trying the point ``hint`` first), or None."""
    fives = five_points(state, state.to_move)
    if fives:
        return min(fives)
    found = vct_search(state, depth, hint)[0]
    return None if found < 0 else divmod(found, state.size)


def test_a_vct_wins_against_every_answer_on_the_threats_lines() -> None:
    """No four is to be had, so VCF finds nothing; the VCT of two threats is the fork at
    J8, and whatever the defender plays on its lines, the attacker's next move (an open
    four) and five win: checked by playing every such answer."""
    game = parlour.game("gomoku", size=15)
    assert isinstance(game, GomokuGame)
    state = game.parse(FORK)
    assert state.to_move == 0 and not five_points(state, 0)

    def wins(state: GomokuState, moves_left: int) -> bool:
        move = vct_move(state, depth=moves_left)
        if move is None:
            return False
        after = state.play(move)
        if after.winner == 0:
            return True
        return all(wins(after.play(r), moves_left - 1) for r in line_points(after, *move))

    assert vct_move(state, depth=2) == state.parse_move("J8")
    for hint in ("J8", "J11", "A2"):  # a hint that wins is taken, others change nothing
        row, col = state.parse_move(hint)
        assert vct_move(state, depth=2, hint=row * 15 + col) == state.parse_move("J8")
    assert wins(state, 2)
    assert search(state, 3).value >= 999_000  # by the VCT or the main search


def test_the_answer_to_a_threat_is_among_the_moves_that_hold() -> None:
    """X's diagonal I9-J8-K7 is an open three: 0 must take H10 or L6 (G11 or M5 leave
    X an open four), and the search says it is defending.  (With X's K8 too, X would win
    by a VCT of seven threats after either answer, so that none holds.)"""
    state = replay(15, "J8 F7 K7 I7 I9")
    assert vct_move(state.game.parse(str(state), to_move=0)) is not None
    report = search(state, 3)
    assert report.reason == "defend"
    assert state.move_name(report.move) in {"H10", "L6"}


@pytest.mark.parametrize(
    ("record", "played"),
    [
        # X wins by a VCT of four threats after D10, which a check of 3,000 nodes missed
        ("F6 H8 E7 G9 D8 C9 F10 E9 F9 F8 D7", "D10"),
        # X wins by a VCT of three threats after each of the 20 likeliest moves
        ("G6 J9 F7 I10 E8 H5 D9 C10 F9 H11 G12", "K8"),
    ],
)
def test_level_3_answers_so_that_no_vct_is_left(record: str, played: str) -> None:
    """Level 3 played ``played`` in these positions against gomokubench, and lost to a
    VCT; it now finds an answer that leaves X none (given the time to, whatever else the
    machine is doing: the level's 2 s are the budget of an idle machine)."""
    state = replay(15, record)
    assert vct_move(state.play(state.parse_move(played))) is not None
    report = search(state, 3, seconds=20)
    assert report.reason == "defend"
    assert vct_move(state.play(report.move)) is None


@st.composite
def crowded_positions(draw: st.DrawFn, before_five: bool = False) -> GomokuState:
    """The first position of a random game, played in a 6x6 corner of a 9x9 board, where
    one side has a five point (or the last one, if none ever has); ``before_five``: the
    position before that one, where neither side has."""
    state = parlour.game("gomoku", size=9).start()
    assert isinstance(state, GomokuState)
    for _ in range(30):
        moves = [m for m in state.legal_moves() if max(m) < 6]
        if not moves:
            break
        after = state.play(draw(st.sampled_from(moves)))
        if after.is_over:
            break
        if before_five and (five_points(after, 0) or five_points(after, 1)):
            break
        state = after
        if five_points(state, 0) or five_points(state, 1):
            break
    return state


@settings(max_examples=60, deadline=None)
@given(crowded_positions(), st.integers(1, MAX_LEVEL))
def test_never_misses_an_immediate_five_or_block(state: GomokuState, level: int) -> None:
    mine, theirs = five_points(state, state.to_move), five_points(state, 1 - state.to_move)
    if not (mine or theirs):
        event("nothing immediate")
        return  # the search would just take its time
    report = search(state, level)
    if mine:
        assert report.move in mine and report.reason == "five"
        assert state.play(report.move).winner == state.to_move
    else:
        assert report.move in theirs and report.reason == "block"


def test_the_table_answers_a_threat_search_it_has_seen_at_once() -> None:
    """A search that failed fails again in one node at its depth, and searches anew
    deeper; a win found is found again in one node, at its depth or more."""
    state = parlour.game("gomoku", size=15).parse(FORK)
    assert isinstance(state, GomokuState)
    table = new_table(16)
    assert vct_search(state, 1, table=table)[1] > 1  # no four to make: no VCT of one threat
    assert vct_search(state, 1, table=table) == (-1, 1)
    found, nodes = vct_search(state, 2, table=table)
    assert found == 7 * 15 + 9 and nodes > 1  # J8
    assert vct_search(state, 2, table=table) == (found, 1)
    assert vct_search(state, 3, table=table) == (found, 1)


def test_a_threat_search_never_reads_the_main_searchs_entries() -> None:
    """The table holds a proven win for every board with one stone more than a quiet
    opening's; the threat searches of that opening, which has no VCF or VCT, must still
    find none (a threat search whose tag equalled a stone's key read the entry of the
    board with that stone on E15 or F15, and played its move as a won VCT)."""
    state = replay(15, "H8 I9")
    table = new_table(18)
    key = board_key(state.board)
    for p in range(15 * 15):
        for stone in (1, 2):
            store(*table, key ^ stone_key(p, stone), 100, WIN, 0, 1, p, True, 0)
    for attacker in (1, 2):
        for threes in (False, True):
            assert find_threat(state, attacker, threes, 3, table)[0] == -1


def test_the_main_search_table_saves_nodes_and_keeps_the_best_value() -> None:
    """Iterative deepening to depth 6 with a table against one of two slots (which keeps
    next to nothing): the same best value, in fewer nodes (to depth 4, some 3,000 nodes,
    the table has too little to reuse to save any)."""
    state = replay(15, "H8 I9 I8 G8 J7 K6 H9")
    found = []
    for bits in (1, 16):
        scores, _, nodes = deepen(state, 6, new_table(bits), 10)
        found.append((int(scores.max()), nodes))
    (small_value, small_nodes), (value, nodes) = found
    assert value == small_value and nodes < small_nodes


@pytest.mark.parametrize(
    ("moves", "win"), [("F8 G7 E7 G9 E8 G8 G6 E10", "E6"), ("J8 J7 K7 K8 I6 I9 J6 L9", "I5")]
)
def test_the_main_search_sees_a_chain_of_threes_at_half_its_length(moves: str, win: str) -> None:
    """X has a VCT of threes here (0's last move lost); the answers to a three cost no
    depth, so the main search proves the win within 5 plies, ``win`` among its first
    moves (when each answer cost one, it took 8; in the second position H6 wins as fast,
    and which of the two comes first depends on the leaves' weights)."""
    state = replay(15, moves)
    scores, best_first, _ = deepen(state, 5, new_table(16), 10)
    ordered = -np.sort(-scores)  # as the moves are, best first
    won = {state.move_name(divmod(int(q), 15)) for q in best_first[ordered >= WIN - MAX_PLY]}
    assert ordered[0] >= WIN - MAX_PLY and win in won


def test_a_longer_move_gives_its_threat_searches_more_nodes() -> None:
    """A short move's threat searches get the floor, a longer one's grow with its time, so
    that they do not stop for want of nodes with time to spare; each level gets at least
    as many as the one below."""
    assert threat_nodes(THREAT_SECONDS / 10) == threat_nodes(THREAT_SECONDS) == THREAT_NODES
    assert threat_nodes(4 * THREAT_SECONDS) == 4 * THREAT_NODES
    budgets = [threat_nodes(LEVELS[level].seconds) for level in sorted(LEVELS)]
    assert budgets == sorted(budgets) and budgets[-1] > budgets[0]


def test_a_short_moves_threat_search_sees_a_vct_of_six_threats() -> None:
    """Wine (as 0) won this position by a VCT of six threats from H10, which its opponent
    must see before its move, to answer it: at 0.5 s a move, the threat searches' budget
    finds one (H10's took 47,406 nodes before the threats after the second kept to their
    lines; the driver's VCF and VCTs of 2 to 7 threats find one in about 15,000)."""
    state = replay(15, "H6 J8 I9 J10 J6 I10 I6 K6")
    found = _Search(state, LEVELS[3], 0.5, {}, Stop())
    threat, kind = found._threats(3 - found.stone, LEVELS[3].vcf_depth)
    assert threat >= 0 and kind == "vct"
    assert found.stats[VCF_NODES] < THREAT_NODES // 3


@pytest.mark.parametrize(
    ("record", "first"),
    [
        # Wine (0) won by a VCT of six threats from J11 after parlour's L7
        ("H6 J8 I9 J10 J6 I10 I6 K6 I5 J9 J7 K8 L7", "J11"),
        # Wine (X) won by a VCT of six threats from G8 after parlour's H8
        ("I10 F8 F10 E9 H11 D10 G7 G10 H9 H8", "G8"),
    ],
)
def test_a_short_moves_threat_search_sees_wines_winning_vcts(record: str, first: str) -> None:
    """Wine's VCTs in two games it won against parlour at 0.5 s a move, which took more
    than a threat search's budget at 0.5 s (60,000 nodes) while it tried every three at
    every step, and take 34,000 and 14,500 with the threes after the second kept to the
    last threat's lines, the likeliest first."""
    state = replay(15, record)
    found = _Search(state, LEVELS[3], 0.5, {}, Stop())
    threat, kind = found._threats(found.stone, LEVELS[3].vcf_depth)
    assert (state.move_name(divmod(threat, 15)), kind) == (first, "vct")


def test_a_thinker_to_the_clock_deepens_past_its_levels_depth() -> None:
    """A brain's thinker (``to_the_clock``) is bounded by its time alone: on a board where
    no five can be made any more, whose search is quickly done at every depth, it goes on
    to the deepest the search allows, where the level's thinker stops at its depth."""
    game = parlour.game("gomoku", size=5)
    assert isinstance(game, GomokuGame)
    state = game.parse("XX00X\n00XX0\nXX00X\n00XX0\n0X...", to_move=0)
    assert isinstance(state, GomokuState) and not state.is_over
    level = GomokuThinker(2, seconds=30).best_move(state, Stop())[1]
    deepest = GomokuThinker(2, seconds=30, to_the_clock=True).best_move(state, Stop())[1]
    assert (level.depth, deepest.depth) == (LEVELS[2].depth, MAX_PLY - 1)


def test_a_thinker_keeps_one_table_for_each_rule_set_and_width() -> None:
    """Kept from move to move (a search starts with what the last one found), never shared
    between thinkers (each searches in its own thread, writing without locks), sizes, five
    rules, widths or table sizes."""
    game = parlour.game("gomoku", size=15)
    state = game.start()
    assert isinstance(state, GomokuState)
    tables: Tables = {}
    table = _table(tables, state, 10, 12)
    assert _table(tables, state.play((7, 7)), 10, 12) is table
    others = [
        _table(tables, parlour.game("gomoku", size=9).start(), 10, 12),  # type: ignore[arg-type]
        _table(tables, parlour.game("gomoku", exact_five=True).start(), 10, 12),  # type: ignore[arg-type]
        _table(tables, state, 12, 12),
        _table({}, state, 10, 12),
        _table(dict(tables), state, 10, 13),
    ]
    assert all(other is not table for other in others)
    thinker = GomokuThinker(3, seconds=0.05, book=False)  # a search, not the book's move
    thinker.best_move(state.play((7, 7)), Stop())
    assert list(thinker.tables) == [(15, False, LEVELS[3].width)]


def test_a_stop_ends_a_long_search_at_once() -> None:
    """A search set to think 60 s, stopped from another thread, answers within moments."""
    state = replay(15, "H8 I9")
    stop = Stop()
    stopper = threading.Timer(0.2, stop.set)
    stopper.start()
    report = GomokuThinker(6, seconds=60).best_move(state, stop)[1]
    stopper.join()
    assert stop.is_set and report.reason == "search" and report.depth < LEVELS[6].depth


def test_a_search_stopped_before_any_move_is_searched_claims_no_value() -> None:
    """Stopped before its first move was searched (a caller's stop already set; a cold
    brain's clock running out while its kernels compile), the search still answers a
    legal move, but with no value, no depth and nothing exact: it had answered the mark
    of a move not searched (``UNSEARCHED``) as an exact value."""
    state = replay(15, "H8 G7 J9 H9")
    stop = Stop()
    stop.set()
    move, report = GomokuThinker(6, seconds=1).best_move(state, stop)
    assert move in state.legal_moves()
    assert (report.value, report.depth, report.exact) == (0, 0, False)


def shape(board: np.ndarray, point: int, stone: int, stones: int) -> bool:
    """Whether some window of five through ``point`` holds ``stones`` of ``stone`` and
    none of the opponent's, asked window by window."""
    row, col = divmod(point, board.shape[0])
    return any(
        window_stones(board, row, col, d, back, stone) == stones
        for d in range(4)
        for back in range(5)
    )


@settings(max_examples=40, deadline=None)
@given(crowded_positions(before_five=True), st.integers(1, 2))
def test_the_threat_points_are_the_fours_and_threes_the_board_shows(
    state: GomokuState, stone: int
) -> None:
    """``threat_points``, which reads the patterns, finds the points where a stone makes a
    five point (a four: those the board's ``five_points_near`` finds, under the free five
    rule the patterns are made for) and, of the others, points where it makes a three
    (``three_defences`` finds one there).  It misses the rare three whose open four
    needs a stone more than four points away (X _ X _ X _ p), which the patterns do not
    see: such a VCT is missed, never one claimed that is not."""
    board = state.board.copy()
    near = nearness(board)
    lines = lines_of(board, pattern_table(), weights())
    fours = np.empty(board.size, dtype=np.int64)
    threes = np.empty(board.size, dtype=np.int64)
    found = threat_points(board, near, lines, stone, True, -1, -1, fours, threes)
    points = np.empty(8, dtype=np.int64)
    want_fours, want_threes = set(), set()
    for p in range(board.size):
        if board.flat[p] != EMPTY or not near.flat[p]:
            continue
        place(board, near, p, stone)
        if five_points_near(board, p, stone, False, points):
            want_fours.add(p)
        elif three_defences(board, p, stone, False, points):
            want_threes.add(p)
        place(board, near, p, EMPTY)
    assert set(fours[: found[0]].tolist()) == want_fours
    assert set(threes[: found[1]].tolist()) <= want_threes


@settings(max_examples=40, deadline=None)
@given(crowded_positions(), st.integers(1, 2))
def test_the_window_fills_through_a_point_are_its_windows_counts(
    state: GomokuState, stone: int
) -> None:
    """``window_fills``, which spares a node its five points' and three's searches when
    the last move made neither: bit k for a window of k stones through the point."""
    board, n = state.board, state.size
    for p in range(board.size):
        row, col = divmod(p, n)
        counts = {
            window_stones(board, row, col, d, back, stone) for d in range(4) for back in range(5)
        }
        got = window_fills(board, p, stone)
        assert {k for k in range(6) if got >> k & 1} == counts - {-1}


def line_points(state: GomokuState, row: int, col: int) -> list[tuple[int, int]]:
    """The empty points on the four lines through (row, col), within four of it."""
    n = state.size
    return sorted(
        {
            (row + t * dr, col + t * dc)
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1))
            for t in range(-4, 5)
            if 0 <= row + t * dr < n and 0 <= col + t * dc < n
            and state.is_free(row + t * dr, col + t * dc)
        }
    )  # fmt: skip


def test_level_1_is_greedy_on_the_sequences_count() -> None:
    """Level 1's move is the best near point by the sequences-based score, worked out
    here from ``state.sequences`` alone."""
    state = replay(15, "H8 H9 I9 G7 J10 K11 I8 J8")
    weights = {5: 100_000, 4: 1_000, 3: 100, 2: 10}
    threats = {5: 1_000_000, 4: 10_000, 3: 100, 2: 10}
    me = state.to_move

    def score(move: tuple[int, int]) -> int:
        after = state.play(move)
        mine, theirs = after.sequences(me), after.sequences(1 - me)
        return sum(weights[k] * mine[k] - threats[k] * theirs[k] for k in weights)

    near = [
        (r, c)
        for r, c in state.legal_moves()
        if (state.board[max(0, r - 2) : r + 3, max(0, c - 2) : c + 3] != 0).any()
    ]
    best = max(score(m) for m in near)
    chosen = search(state, 1).move
    assert chosen in near and score(chosen) == best


def test_a_search_reports_its_depth_and_nodes() -> None:
    state = replay(15, "H8 H9 I9 G7 J10 K11")
    report = search(state, 3)
    assert isinstance(report, SearchResult) and report.reason in {"search", "defend"}
    assert 1 <= report.depth <= 10 and report.nodes > 10
    assert state.is_free(*report.move)


def test_the_clock_stops_a_deep_search() -> None:
    state = replay(15, "H8 H9 I9 G7 J10 K11 G9 J8")
    report = search(state, MAX_LEVEL, seconds=0.3)
    assert report.depth < LEVELS[MAX_LEVEL].depth  # the clock stopped it, not the depth
    assert state.is_free(*report.move)


def test_a_stopped_root_search_leaves_the_move_it_cut_short_unvalued() -> None:
    state = replay(15, "H8 H9 I9 G7 J10 K11 G9 J8")
    board, stone = state.board.copy(), state.to_move + 1
    near = nearness(board)
    moves = likeliest_on(board, near, stone, 4)
    stats = new_stats(int(np.count_nonzero(board)), 0, 0)
    work = Work(board, near, False, np.ones(1, dtype=np.uint8), stats, *new_table(4))
    scores = search_root(work, pattern_table(), weights(), stone, moves, 4, 10)
    assert stats[NODES] == 1 and list(scores) == [UNSEARCHED] * len(moves)


@pytest.mark.parametrize("moves", ["H8 H9 I9 G7 J10 K11 G9 J8", "H8 I9 J8 G8 I7 H10 K7"])
def test_the_root_searches_later_moves_on_a_null_window_and_keeps_the_best_value(
    moves: str,
) -> None:
    """Each root move after the first is asked only whether it beats the best so far, and
    searched on the whole window above it if it does: the best value and move are those of
    each move searched alone on the whole window, and every other value is at most it."""
    state = replay(15, moves)
    board, stone = state.board.copy(), state.to_move + 1
    moves_searched = likeliest_on(board, nearness(board), stone, 8)

    def root(points: np.ndarray) -> np.ndarray:
        work = Work(board, nearness(board), False, np.zeros(1, dtype=np.uint8),
                    new_stats(0, 0, 0), *new_table(18))  # fmt: skip
        return search_root(work, pattern_table(), weights(), stone, points, 3, 10)

    scores = root(moves_searched)
    alone = [int(root(moves_searched[i : i + 1])[0]) for i in range(len(moves_searched))]
    best = int(np.argmax(scores))
    assert scores[best] == max(alone) == alone[best]
    assert all(score <= scores[best] for score in scores)


@pytest.mark.parametrize(
    ("stopped_at", "played"), [([4, 9, UNSEARCHED], 1), ([4, 2, UNSEARCHED], 0)]
)
def test_a_move_found_better_before_the_clock_stopped_a_depth_is_played(
    monkeypatch: pytest.MonkeyPatch, stopped_at: list[int], played: int
) -> None:
    """The deepening keeps the last finished depth's best move unless the depth the clock
    stopped found one that beats it (the best is searched first): ``stopped_at`` are the
    values of the moves, in the last depth's order, when the clock stops depth 2."""
    state = replay(15, "H8 H9 I9 G7")
    found = _Search(state, LEVELS[3], 5, {}, Stop())
    moves = np.array([100, 101, 102], dtype=np.int64)

    def search_root(work: Work, table: np.ndarray, values: np.ndarray, stone: int,
                    tried: np.ndarray, depth: int, width: int) -> np.ndarray:  # fmt: skip
        if depth == 1:
            return np.array([1, 3, 2], dtype=np.int64)  # moves 101, 102, 100 after it
        found.stop.fill(1)
        assert list(tried) == [101, 102, 100]
        return np.array(stopped_at, dtype=np.int64)

    monkeypatch.setattr("parlour.games.gomoku.engine.driver.search_root", search_root)
    report, order, _ = found._deepen(moves, LEVELS[3], "search")
    assert report.move == found.point([101, 102, 100][played]) and report.depth == 1
    assert order[0] == [101, 102, 100][played] and sorted(order) == [100, 101, 102]


def test_the_first_move_is_the_centre_and_a_finished_game_is_refused() -> None:
    start = parlour.game("gomoku").start()
    assert isinstance(start, GomokuState)
    assert search(start, 3).move == (7, 7)
    with pytest.raises(ValueError, match="levels are 1 to 6"):
        search(start, 9)
    won = replay(5, "A1 A2 B1 B2 C1 C2 D1 D2 E1")
    with pytest.raises(ValueError, match="game is over"):
        search(won, 3)


@settings(max_examples=40, deadline=None)
@given(crowded_positions(), st.lists(st.integers(0, 80), min_size=1, max_size=6))
def test_the_patterns_kept_move_by_move_are_those_counted_afresh(
    state: GomokuState, picks: list[int]
) -> None:
    """The search keeps each point's keys and the patterns' counts as it places
    and lifts stones; after any stones placed, and after they are lifted again, they must
    equal those of the board counted anew."""
    board = state.board.copy()
    near, table = nearness(board), pattern_table()
    lines = lines_of(board, table, weights())
    placed: list[int] = []
    for pick in picks:
        empties = np.flatnonzero(board.ravel() == 0)
        if not len(empties):
            break
        point = int(empties[pick % len(empties)])
        play(board, near, lines, point, 1 + len(placed) % 2)
        placed.append(point)
    for got, want in zip(lines, lines_of(board, table, weights()), strict=True):
        assert np.array_equal(got, want)
    for point in reversed(placed):
        play(board, near, lines, point, 0)
    assert np.array_equal(board, state.board)
    for got, want in zip(lines, lines_of(state.board.copy(), table, weights()), strict=True):
        assert np.array_equal(got, want)


@settings(deadline=None)  # its first example compiles the kernels
@given(crowded_positions(), st.booleans())
def test_a_side_whose_patterns_threaten_nothing_has_no_four_or_three(
    state: GomokuState, exact: bool
) -> None:
    """The search looks for the opponent's five points and three through its last move
    only where its patterns show a five point or an open four somewhere: where they show
    neither, no stone of it may have made a four or a three (under either five rule)."""
    board, out = state.board.copy(), np.empty(8, dtype=np.int64)
    lines = lines_of(board, pattern_table(), weights())
    for stone in (1, 2):
        made = [
            int(q) for q in np.flatnonzero(board.ravel() == stone)
            if five_points_near(board, int(q), stone, exact, out)
            or three_defences(board, int(q), stone, exact, out)
        ]  # fmt: skip
        event("a four or a three" if made else "neither")
        assert threatens(lines, stone) or not made


@settings(max_examples=40, deadline=None)
@given(crowded_positions(before_five=True), st.integers(0, 80))
def test_a_quiet_move_is_worth_the_value_of_the_patterns_after_it(
    state: GomokuState, pick: int
) -> None:
    """One ply deep, a move that makes no four and no three is valued by the patterns
    after it, for the opponent, who moves next: kept down the search, here counted anew."""
    empties = state.legal_moves()
    if not empties:
        return
    row, col = empties[pick % len(empties)]
    board, stone, point = state.board.copy(), state.to_move + 1, row * state.size + col
    after, out = board.copy(), np.empty(8, dtype=np.int64)
    after[row, col] = stone
    if five_points_near(after, point, stone, False, out) or three_defences(
        after, point, stone, False, out
    ):
        event("a four or a three: searched on")
        return
    stop, stats = np.zeros(1, dtype=np.uint8), new_stats(0, 0, 0)
    moves = np.array([point], dtype=np.int64)
    near, table = nearness(board), new_table(4)
    work = Work(board, near, False, stop, stats, *table)
    score = search_root(work, pattern_table(), weights(), stone, moves, 1, 10)[0]
    assert score == -lines_value(lines_of(after, pattern_table(), weights()), 3 - stone)


PATTERNS = [
    # (the line of nine, the side's stones x, blocked o; the middle empty): the pattern a
    # stone of the side in the middle makes
    ("xxxx.....", FIVE),
    ("xx.....xx", CLOSED_THREE),  # xx..X: one stone more makes a four, never an open one
    (".xxx.....", OPEN_FOUR),
    ("oxxx.....", FOUR),
    (".xxx....o", OPEN_FOUR),
    (".x.x.x...", FOUR),  # x.xXx: one five point
    ("..xx.....", OPEN_THREE),
    ("o.xx.....", OPEN_THREE),  # o.xxX.. still opens to .xxxx. on the right
    ("..xx.o...", CLOSED_THREE),
    ("...x.x...", OPEN_THREE),
    ("...x.....", OPEN_TWO),
    ("..ox.....", CLOSED_TWO),  # oxX: the fours it can grow to are all blocked on one side
    ("...x.o...", CLOSED_TWO),
    ("o.x.....o", OPEN_TWO),
    ("ooo.....o", NONE),
    ("oxx..o...", NONE),  # no window of five through the middle is free of o
    (".........", NONE),
]


@pytest.mark.parametrize(("line", "pattern"), PATTERNS)
def test_a_stone_makes_the_pattern_of_its_line(line: str, pattern: int) -> None:
    cells = np.array([".xo".index(ch) for ch in line], dtype=np.int64)
    assert classify(cells) == pattern
    assert cells.tolist() == [".xo".index(ch) for ch in line]  # left as it was


def test_the_table_reads_each_key_alike_for_either_stone() -> None:
    """A key read for X is the key with the stones swapped read for 0; an off-board
    neighbour blocks like an opponent's stone."""
    table = pattern_table()
    keys = np.arange(1 << 16)
    cells = [(keys >> (2 * slot)) & 3 for slot in range(8)]
    swapped = sum((np.choose(c, [0, 2, 1, 3]) << (2 * slot)) for slot, c in enumerate(cells))
    assert np.array_equal(table[1], table[2][swapped])
    off = sum((np.where(c == 2, 3, c) << (2 * slot)) for slot, c in enumerate(cells))
    assert np.array_equal(table[1], table[1][off])


def test_a_side_to_move_that_can_make_an_open_four_is_all_but_won() -> None:
    """X to move with a three open at both ends: ``SURE``; with 0 to move instead, 0 must
    answer, and the value is its patterns' counts by the weights less X's."""
    state = replay(15, "H8 A1 I8 A2 J8")  # X: H8 I8 J8
    board = state.board.copy()
    lines = lines_of(board, pattern_table(), weights())
    assert lines_value(lines, 1) == SURE
    mover, opponent = weights() @ lines.counts[2], weights() @ lines.counts[1]
    assert lines_value(lines, 2) == mover[0] - opponent[1] < 0


def defences(row: str, last: int) -> set[int]:
    """The answers to X's three in a 15-point row (the middle row of 15x15), or none."""
    board = np.zeros((15, 15), dtype=np.int8)
    board[7] = [".X0".index(ch) for ch in row]
    out = np.empty(8, dtype=np.int64)
    found = three_defences(board, 7 * 15 + last, 1, False, out)
    return {int(q) - 7 * 15 for q in out[:found]}


def test_the_answers_to_a_three_are_the_points_of_its_windows() -> None:
    assert defences("......XXX......", 7) == {4, 5, 9, 10}
    assert defences("......XX.X.....", 7) == {5, 8, 10}  # the split three
    assert defences(".....0XXX......", 7) == set()  # blocked: only a simple four to make
    assert defences("......XX.......", 7) == set()


def point_value(board: np.ndarray, point: int, stone: int) -> int:
    """``stone``'s patterns on the empty ``point``, each line read from the board and
    classified (not through the keys and the table), summed as ``likeliest`` sums them."""
    n = board.shape[0]
    row, col = divmod(point, n)
    patterns = []
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        line = np.zeros(9, dtype=np.int64)
        for i, t in enumerate(range(-4, 5)):
            r, c = row + t * dr, col + t * dc
            inside = 0 <= r < n and 0 <= c < n
            line[i] = 2 if not inside or board[r, c] not in (0, stone) else int(board[r, c] != 0)
        patterns.append(classify(line))
    double = sum(p >= OPEN_THREE for p in patterns) >= 2
    return int(sum(VALUE[p] for p in patterns)) + (int(VALUE[OPEN_FOUR]) if double else 0)


def test_the_likeliest_moves_are_the_near_points_by_their_patterns() -> None:
    """``likeliest`` reads each point's patterns through its keys; the order is that of
    the patterns read from the board, twice the side's and once the opponent's (ties in
    the board's order), on boards of several sizes."""
    rng = np.random.default_rng(7)
    for _ in range(150):
        n = int(rng.choice([7, 9, 15, 19]))
        board = np.zeros((n, n), dtype=np.int8)
        for _ in range(rng.integers(1, n * n // 2)):
            row, col = rng.integers(0, n, 2)
            board[row, col] = rng.integers(1, 3)
        near, stone, width = nearness(board), int(rng.integers(1, 3)), int(rng.integers(1, 30))
        empty = [p for p in range(n * n) if board.flat[p] == 0 and near.flat[p] > 0]
        scores = {
            p: 2 * point_value(board, p, stone) + point_value(board, p, 3 - stone) for p in empty
        }
        expected = sorted(empty, key=lambda p: -scores[p])
        lines = lines_of(board, pattern_table(), weights())
        assert likeliest(board, near, lines, stone, width, NO_POINTS).tolist() == expected[:width]


def test_the_moves_against_a_three_are_the_likeliest_defences_and_fours() -> None:
    """``likeliest`` against a three: of its whole order, the defence points and the
    points that make a four (or a five, which the random boards allow), the first
    ``width`` of them (it filters before it scores)."""
    rng = np.random.default_rng(23)
    for _ in range(300):
        board = np.zeros((15, 15), dtype=np.int8)
        for _ in range(rng.integers(4, 40)):
            row, col = rng.integers(4, 11, 2)
            board[row, col] = rng.integers(1, 3)
        near, lines = nearness(board), lines_of(board, pattern_table(), weights())
        empty = np.flatnonzero((board.ravel() == 0) & (near.ravel() > 0))
        points = rng.choice(empty, size=min(len(empty), 3), replace=False).astype(np.int64)
        stone, width = int(rng.integers(1, 3)), int(rng.integers(1, 16))
        ordered = likeliest(board, near, lines, stone, 15 * 15, NO_POINTS)
        assert sorted(ordered.tolist()) == empty.tolist()
        fours = [q for q in ordered if shape(board, q, stone, 3) or shape(board, q, stone, 4)]
        wanted = [int(q) for q in ordered if q in points or q in fours]
        assert likeliest(board, near, lines, stone, width, points).tolist() == wanted[:width]


def test_the_computer_players_of_gomoku_use_this_engine() -> None:
    """``parlour.kit.best_move`` (the ComputerPlayer's call) plays gomoku with it, at its
    top level; a level above the top one is refused, never played as another."""
    from parlour.core import BadOption
    from parlour.kit import best_move

    state = replay(9, "D5 A1 E5 A2 F5")
    for level in (7, 8):
        with pytest.raises(BadOption, match=f"gomoku has levels 1-6, not {level}"):
            best_move(state, level, 0.5)
    move, report = best_move(state, MAX_LEVEL, 0.5)
    assert isinstance(report, SearchResult) and move == report.move
    assert state.move_name(move) in {"C5", "G5"}  # X's open three D5-F5 answered


def test_analyze_reports_each_depth_and_a_forced_win_as_proven() -> None:
    from parlour.kit import analyze

    state = replay(15, "H8 I9 G7")
    depths: list[int] = []
    result = analyze(state, Limit(depth=3), on_iteration=lambda r: depths.append(r.depth))
    assert depths == [1, 2, 3] and result.depth == 3 and state.is_free(*result.move)
    assert result.pv == (result.move,) and not result.exact and result.reason == "search"
    four = replay(15, "H8 A1 I8 A2 J8 A3 K8 A5")
    win = analyze(four, Limit(seconds=1))
    assert win.reason == "five" and win.exact and four.play(win.move).winner == 0


@pytest.fixture
def clocks(monkeypatch: pytest.MonkeyPatch) -> list[float | None]:
    """The seconds of every ``Stop.until`` clock made while the test runs, in turn."""
    made: list[float | None] = []
    until = Stop.until

    def counted(stop: Stop, seconds: float | None) -> Any:
        made.append(seconds)
        return until(stop, seconds)

    monkeypatch.setattr(Stop, "until", counted)
    return made


def test_a_move_is_timed_by_the_callers_stop_alone(clocks: list[float | None]) -> None:
    """One timer mechanism: the move's clock and its threats' shares are ``Stop.until``
    clocks within the caller's stop (so setting it stops both), no timer of the driver's;
    a share counts from the move's start."""
    state = replay(15, "H8 H9 I9 G7 J10 K11 G9 J8")
    search(state, 3, seconds=0.2)
    assert len(clocks) == 2 and clocks[0] == 0.2
    assert clocks[1] is not None and clocks[1] <= 0.2 * THREATS_SHARE


def test_a_thinker_gives_its_threat_searches_the_share_it_is_told(
    clocks: list[float | None],
) -> None:
    """``threats_share`` (the self-play's ``threats-0.3``) replaces ``THREATS_SHARE``."""
    state = replay(15, "H8 H9 I9 G7 J10 K11 G9 J8")
    GomokuThinker(3, 0.2, threats_share=0.05).best_move(state, Stop())
    assert len(clocks) == 2 and clocks[0] == 0.2
    assert clocks[1] is not None and clocks[1] < 0.2 * THREATS_SHARE / 2


def test_a_critical_moves_answers_get_more_time_than_the_threats_share() -> None:
    """Where the opponent has a VCF or VCT, the answers tried against it may search until
    ``DEFENCE_SHARE`` of the move, past the threats' share, whose clock has stopped;
    the move's clock stops them as it stops everything."""
    search = _Search(replay(15, "H8 H9"), LEVELS[3], 60.0, {}, Stop())
    search.clock = Stop()
    pause = threading.Event()
    with search._threats_until(0.0):  # a share already spent
        for _ in range(500):
            if search.threats_stop[0] or pause.wait(0.01):
                break
        assert search.threats_stop[0]
    with search._threats_until(DEFENCE_SHARE):
        assert not search.threats_stop[0]
        search.clock.set()
        assert search.threats_stop[0]


@settings(max_examples=60, deadline=None)
@given(crowded_positions(before_five=True), st.booleans(), st.integers(1, 2), st.integers(1, 6))
def test_the_leaves_vcf_finds_what_the_threat_search_finds(
    state: GomokuState, exact: bool, stone: int, depth: int
) -> None:
    """``line_vcf``, which reads the patterns the main search keeps, and the threat search's
    VCF, which counts windows, agree on every position with no five point: a VCF of
    ``depth`` fours or none (given nodes enough), under either five rule."""
    board = state.board.copy()
    lines = lines_of(board, pattern_table(), weights())
    work = Work(board, nearness(board), exact, np.zeros(1, dtype=np.uint8), new_stats(0, 0, 0),
                *new_table(12))  # fmt: skip
    found = line_vcf(work, lines, stone, depth, 10**8, -1)
    assert np.array_equal(board, state.board)  # every stone tried was lifted again
    assert np.array_equal(lines.keys, lines_of(board, pattern_table(), weights()).keys)
    key = board_key(board)
    event("a VCF" if found else "none")
    assert found == (threat_search(work, lines, stone, False, 10**8, depth, -1, -1, 0, key) >= 0)


@pytest.mark.parametrize(
    ("moves", "depth"),
    [
        # the side to move has a VCT of 5 or 6 threats (found by a long threat search); a
        # leaf's VCF shows the main search the win at depth 4 or 5, which without one it
        # does not see by depth 5
        ("I9 G6 H7 I6 F6 G7 H9 G9 G8 H8 F7 I10 F8 F9 I7 G5 K9 G4 G3 F4", 4),
        ("I7 F5 F8 F6 H8 G5", 5),
        # a VCF: the leaves see it one ply deep, the plain search at depth 3
        ("F10 K11 I6 F11 H9 H8 K7 E11 J6 I10 E9 H10 F8 F7 F6 E7 I7 I5", 1),
    ],
)
def test_a_leafs_vcf_shows_the_main_search_a_win_past_its_horizon(moves: str, depth: int) -> None:
    """Valued by the hand table, so that a refit of the shipped one, which changes the
    principal line (whose leaves alone look for a VCF), does not change the positions'
    lesson (with round 7's table the second shows its win at depth 6 either way)."""
    state = replay(15, moves)
    with_vcf, _, _ = deepen(state, depth, new_table(18), 10, LEAF_VCF_NODES, 0, weights=HAND)
    without, _, _ = deepen(state, depth, new_table(18), 10, 0, 0, weights=HAND)
    assert with_vcf.max() >= WIN - MAX_PLY > without.max()


def test_a_moves_class_is_the_strongest_pattern_it_makes_or_blocks() -> None:
    """X's open two H8 I8: G8 and J8 make it an open three, a threat of a four's class
    for X, and a block of a three for 0; F8 a three with a gap, no less for 0 to block;
    H3, far away, touches nothing.  X's three F10 G10 H10 (0's stones after it): E10 and
    I10 make a four, for X or for 0 blocking."""
    state = replay(15, "H8 A1 I8 A15")
    lines = lines_of(state.board.copy(), pattern_table(), weights())
    for name, least in (("G8", OPEN_THREE), ("J8", OPEN_THREE), ("F8", CLOSED_THREE)):
        row, col = state.parse_move(name)
        assert least <= move_class(lines, row * 15 + col, 2) < FOUR, name
    for name in ("G8", "J8"):
        row, col = state.parse_move(name)
        assert move_class(lines, row * 15 + col, 1) == FOUR, name
    row, col = state.parse_move("H3")
    assert move_class(lines, row * 15 + col, 1) < CLOSED_THREE
    state = replay(15, "F10 A1 G10 A15 H10 O1")
    lines = lines_of(state.board.copy(), pattern_table(), weights())
    for name in ("E10", "I10"):
        row, col = state.parse_move(name)
        for stone in (1, 2):
            assert move_class(lines, row * 15 + col, stone) >= FOUR, (name, stone)


def test_late_move_reductions_and_pruning_save_nodes_and_keep_the_wins() -> None:
    """Deepening to depth 6 takes fewer nodes when the late moves that make or block no
    four are searched shallower first; on the second position, fewer still when those
    near the horizon are left out (not on every position: the values the pruning changes
    change the order the next depth searches in).  A VCT position is still proven won."""
    for moves, pruned in (("H8 I9 I8 G8 J7 K6 H9", False), ("H8 I9 J8 G8 I7 H10 K7", True)):
        state = replay(15, moves)
        nodes = [
            deepen(state, 6, new_table(18), 16, 0, late, prune)[2]
            for late, prune in ((0, 0), (LATE_MOVES, 0), (LATE_MOVES, PRUNE_MOVES))
        ]
        assert nodes[1] < nodes[0] and (nodes[2] < nodes[1] or not pruned), (moves, nodes)
    won = replay(15, "J8 J7 K7 K8 I6 I9 J6 L9")
    assert deepen(won, 5, new_table(18), 10, 0, LATE_MOVES, PRUNE_MOVES)[0].max() >= WIN - MAX_PLY


def test_a_search_by_nodes_stops_at_its_count_and_is_the_same_every_time() -> None:
    """A thinker by nodes (no clock) plays the same move with the same nodes twice; its
    main search stops once it has searched its count (with its leaves' VCFs), as a clock
    would stop it: a bigger count searches more nodes and no shallower."""
    state = replay(15, "H8 I9 I8 G8 J7 K6 H9 H7")

    def by_nodes(main: int) -> SearchResult[tuple[int, int]]:
        thinker = GomokuThinker(6, to_the_clock=True, by_nodes=(main, 2_000))
        return thinker.best_move(state, Stop())[1]

    small, again, big = by_nodes(20_000), by_nodes(20_000), by_nodes(200_000)
    assert (small.move, small.nodes, small.value) == (again.move, again.nodes, again.value)
    assert small.nodes < big.nodes and small.depth <= big.depth
    board = state.board.copy()
    stats = new_stats(0, LEAF_VCF_NODES, LATE_MOVES, prune=PRUNE_MOVES)
    stats[NODE_LIMIT] = 5_000
    work = Work(board, nearness(board), False, np.zeros(1, dtype=np.uint8), stats,
                *new_table(16))  # fmt: skip
    moves = likeliest_on(board, work.near, 1, 16)
    search_root(work, pattern_table(), weights(), 1, moves, 30, 16)
    assert work.stop[0] and 5_000 <= stats[NODES] + stats[VCF_NODES] <= 5_000 + LEAF_VCF_NODES


def test_a_leafs_vcf_proves_a_win_the_threat_searches_budget_missed() -> None:
    """0 wins here by a VCT of five threats, which threat searches of 5,000 nodes (a move
    on a busy machine) miss; the main search to depth 5 then proves it with a leaf's VCF
    (from H7), not without one."""
    state = replay(15, "F6 F7 H10 G6 I9 E8 D9 H5 I4 H8 J8 G11 D8")
    found = search_unclocked(state, 3, 5, 5_000)
    assert found.value >= WIN - MAX_PLY and state.move_name(found.move) == "H7"
    assert search_unclocked(state, 3, 5, 5_000, leaf_vcf=0).value < WIN - MAX_PLY


SUITE_WINS = [
    # from benchmarks/gomoku_tactics.py's suite: the side to move wins by a VCT (the
    # numbers of threats a long threat search found), or a VCF
    ("I9 G6 H7 I6 F6 G7 H9 G9 G8 H8 F7 I10 F8 F9 I7 G5 K9 G4 G3 F4", "vct"),
    ("K9 G11 J8 H12 L10 I7 M11 N12 K11 I13 J14 K13", "vct"),
    ("F8 G7 E7 G9 E8 G8 G6 E10", "vct"),
    ("F10 K11 I6 F11 H9 H8 K7 E11 J6 I10 E9 H10 F8 F7 F6 E7 I7 I5", "vcf"),
]
SUITE_DEFENCES = [
    # the opponent has a VCT if it moves; the moves that hold, by a long threat search
    ("F6 F7 H10 G6 I9 E8", {"D9", "H5"}),
    ("K9 G11 J8 H12 L10", {"M11", "I7"}),
    ("H6 E11 F8 F11 G7", {"E9", "I5"}),
]


@pytest.mark.parametrize(("moves", "kind"), SUITE_WINS)
def test_the_suites_wins_are_proven_by_a_short_moves_search(moves: str, kind: str) -> None:
    """With a 0.5-s move's threat budget and the main search to depth 4, free of any
    clock: the win is found and proven (its first move the threat search's)."""
    state = replay(15, moves)
    found = search_unclocked(state, 3, 4, THREAT_NODES)
    assert found.value >= WIN - MAX_PLY and found.reason == kind


@pytest.mark.parametrize(("moves", "holding"), SUITE_DEFENCES)
def test_the_suites_defences_are_found_by_a_short_moves_search(
    moves: str, holding: set[str]
) -> None:
    """The same search defends with one of the few moves that hold (the others leave the
    opponent a VCT)."""
    state = replay(15, moves)
    found = search_unclocked(state, 3, 4, THREAT_NODES)
    assert found.reason == "defend" and state.move_name(found.move) in holding


# Rapfi's game 19 as X against parlour (seed 1 at 1 s a move), to 0's K11 at ply 32: X
# wins by K9 (a four on row 9, and a three on the diagonal J8 L10), 0's block M9 makes a
# four of 0's (M7 to M10), and X's block at M11 is X's open four on that diagonal
COUNTER_FOUR = (
    "J7 J6 F10 K7 I5 L6 K8 I6 K6 K5 L4 M5 J8 L5 J5 M7 N8 L7 L8 M8 H8 I8 M6 K10 L9 M10 "
    "J9 J11 I9 H9 L10 K11"
)


def test_a_vcf_goes_on_when_the_block_of_a_counter_four_is_a_four() -> None:
    """A defender's block that makes a four of its own ends a VCF only where the
    attacker's answer to it is no four: here it is one, and both the threat search and
    the leaves' VCF find the win (both missed it, and parlour took K11 for a defence)."""
    state = replay(15, COUNTER_FOUR)
    assert state.to_move == 0
    found, _ = find_threat(state, 1, False, 20, new_table(16))
    assert found >= 0 and state.move_name(divmod(found, 15)) == "K9"
    board = state.board.copy()
    lines = lines_of(board, pattern_table(), weights())
    work = Work(board, nearness(board), False, np.zeros(1, dtype=np.uint8), new_stats(0, 0, 0),
                *new_table(12))  # fmt: skip
    assert line_vcf(work, lines, 1, 2, 10**6, -1)  # two fours: K9, then the open four M11
    assert not line_vcf(work, lines, 1, 1, 10**6, -1)


@pytest.mark.parametrize(("moves", "holding"), SUITE_DEFENCES)
def test_the_screen_keeps_the_answers_that_hold_and_drops_most_that_lose(
    moves: str, holding: set[str]
) -> None:
    """A critical move's main search chooses among the likeliest answers that a short
    threat search does not show losing: the ones that hold are among them, and most of
    those that lose are not (their loss is shown within the screen's nodes)."""
    state = replay(15, moves)
    search = _Search(state, LEVELS[3], None, {}, Stop())
    threat = search._threats(3 - search.stone, LEVELS[3].vcf_depth)[0]
    assert threat >= 0
    likeliest_moves = likeliest_on(search.board, search.near, search.stone, LEVELS[3].width)
    names = {state.move_name(search.point(q)) for q in likeliest_moves}
    kept = {state.move_name(search.point(q)) for q in search._screened(LEVELS[3], threat)}
    assert holding & names <= kept < names
    assert len(kept) <= len(names) // 2
    assert np.array_equal(search.board, state.board)  # every answer tried was lifted again


def test_a_critical_moves_search_leaves_time_to_check_its_choice(
    clocks: list[float | None],
) -> None:
    """Against a threat the clocks within the move's are, in turn: the threats' share,
    the screen's (``DEFENCE_SHARE``), the main search's among the answers left
    (``CHECK_SHARE``: its stop flag raised then), and the check of its choice, to the
    move's end; each counted from the move's start."""
    moves, holding = SUITE_DEFENCES[0]
    state = replay(15, moves)
    report = search(state, 3, seconds=1.0)
    assert report.reason == "defend" and state.move_name(report.move) in holding
    assert len(clocks) == 5 and clocks[0] == 1.0
    shares = [THREATS_SHARE, DEFENCE_SHARE, CHECK_SHARE, 1.0]
    assert all(c is not None and c <= share for c, share in zip(clocks[1:], shares, strict=True))


def test_a_node_is_lost_only_if_its_moves_beyond_the_width_lose_too() -> None:
    """A game lost to Rapfi (round 7): after X's I8 every one of O's 16 likeliest answers
    loses by force, but I7, ranked below them, holds (searched 40 wide, it is O's best,
    and no threat sequence of X's follows it).  A search 16 wide took the position for
    lost, and so one ply up X's I8 for a forced win, reported as exact: a node whose
    likeliest moves all lose now tries the rest before it says so."""
    state = replay(15, "F6 G10 F9 E10 F8 F10 H10 H8 G9 E7 E9 D10 C10 D9 I9 H9 I8")
    wide = deepen(state, 7, new_table(20), 40)
    assert state.move_name(divmod(int(wide[1][0]), 15)) == "I7"
    assert wide[0][0] > -(WIN - MAX_PLY)
    narrow = deepen(state, 7, new_table(20), 16)
    assert "I7" not in {state.move_name(divmod(int(q), 15)) for q in narrow[1]}
    assert narrow[0][0] > -(WIN - MAX_PLY)
