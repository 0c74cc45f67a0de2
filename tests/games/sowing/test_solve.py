"""The solver of the sowing games against an exhaustive search written here, independently
(plain recursion over the game's states, memoised on the notation), and ``parlour solve``."""

from __future__ import annotations

import json
import random
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import numpy as np
import pytest
from click.testing import CliRunner

import parlour
from helpers import exhaustive, mover_value
from parlour.cli import main
from parlour.core import BadOption, State
from parlour.games.sowing import endgame, evaluation
from parlour.games.sowing.game import SowingState
from parlour.games.sowing.solver import Known, PerfectThinker, Proof, Solver, prover, solve, split
from parlour.games.sowing.solver.kernel import null_window
from parlour.games.sowing.solver.prover import TO_THE_END
from parlour.games.sowing.solver.solution import least, mover_bounds, mover_held, mover_reaches
from parlour.games.sowing.solver.table import NO_MOVE, PROVEN, lookup, store
from parlour.kit import thinker
from parlour.players.specs import parse_level
from parlour.search import PERFECT, SearchResult, Stop
from parlour.search.engine import Engine, kernel_position
from parlour.search.kernel import INFO_SIZE
from parlour.search.shared import Shared
from parlour.search.table import Table, new_table


def _store(table: Table, key: np.uint64, *entry: int) -> None:
    store(*table, key, *entry)


def _lookup(table: Table, key: np.uint64, depth: int) -> tuple[int, int, int, bool]:
    return lookup(*table, key, depth)


@pytest.fixture(autouse=True)
def split_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A proof of two threads splits its first window here, as only a long one would."""
    monkeypatch.setattr(prover, "SPLIT_NODES", 0)


BOARDS = [
    {"pits": 3, "seeds": 3},
    {"pits": 3, "seeds": 3, "empty_capture": False},
    {"pits": 4, "seeds": 1},
    {"pits": 2, "seeds": 5},
]


def midgame(game: parlour.Game, plies: int, seed: int) -> SowingState:
    """A position some random moves into a game (not over)."""
    rng = random.Random(seed)
    state: SowingState = game.start()  # type: ignore[assignment]
    for _ in range(plies):
        after = state.play(rng.choice(state.legal_moves()))
        if after.is_over:
            break
        state = after
    return state


@pytest.mark.slow
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("options", BOARDS)
def test_the_solver_finds_the_exhaustive_value(options: dict, threads: int) -> None:
    """With two threads, the root's lines to where its turn passes are searched side by
    side: the same values."""
    game = parlour.game("kalah", **options)
    solver = Solver(bits=14, table_seeds=3, threads=threads)  # a small table: the search works
    for state in [game.start(), *(midgame(game, 4, seed) for seed in range(4))]:
        proof = solver.prove(state)  # type: ignore[arg-type]
        assert proof.exact
        assert proof.lower == exhaustive(state)


@pytest.mark.parametrize("helping", [False, True])
def test_a_null_window_search_tells_which_side_of_it_the_value_lies(helping: bool) -> None:
    """Helping (each node's moves after the first in reverse order) or not, a search to the
    end fails high exactly when the gain is at least the window's top."""
    game = parlour.game("kalah", pits=3, seeds=3)
    ending = endgame.table(3, game.rules, 2)  # type: ignore[attr-defined]
    weights = evaluation.weights_of(game)  # type: ignore[arg-type]
    for state in [game.start(), *(midgame(game, 3, seed) for seed in range(3))]:
        root = kernel_position(state).root
        mine, theirs = state.scores[state.to_move], state.scores[1 - state.to_move]
        gain = exhaustive(state) - (mine - theirs)
        for top in range(gain - 2, gain + 3):
            keys, data = new_table(12)
            info = np.zeros(INFO_SIZE, dtype=np.int64)
            stop = np.zeros(1, dtype=np.int64)
            shared = Shared(
                keys, data, info, stop, ending.packed, ending.choose, ending.seeds, weights
            )
            found = null_window(root, game.rules, top - 1, top, TO_THE_END, shared, helping)  # type: ignore[attr-defined]
            assert (found >= top) == (gain >= top)


@pytest.mark.slow
def test_the_seed_mancala_sowing_through_both_stores_is_solved() -> None:
    game = parlour.game("mancala", pits=3, seeds=2)
    proof = Solver(bits=14, table_seeds=2).prove(game.start())  # type: ignore[arg-type]
    assert proof.exact and proof.lower == exhaustive(game.start())


@pytest.mark.slow
def test_a_perfect_line_and_the_first_moves_keep_the_value() -> None:
    game = parlour.game("kalah", pits=3, seeds=3)
    start: SowingState = game.start()  # type: ignore[assignment]
    found = solve(start, Solver(bits=14, table_seeds=2), Stop())
    value = exhaustive(start)
    assert found.proof.lower == found.proof.upper == value
    for move, bounds in found.moves.items():
        assert bounds == (mover_value(start, start.play(move)),) * 2
    assert max(bounds[0] for bounds in found.moves.values()) == value
    here = start
    for move in found.line:
        here = here.play(move)
    assert here.is_over
    assert mover_value(start, here) == value


class Counting(Solver):
    """A solver that keeps the nodes of each proof it returns."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.proofs: list[int] = []

    def prove(self, *args: Any, **kwargs: Any) -> Proof:
        proof = super().prove(*args, **kwargs)
        self.proofs.append(proof.nodes)
        return proof


def test_solve_says_each_step_as_it_begins_and_counts_every_proof_s_nodes() -> None:
    """``parlour solve`` said nothing for the 15 s of Kalah(6,4)'s first moves' proofs on
    a fresh cache, and its count of nodes left those proofs out."""
    start: SowingState = parlour.game("kalah", pits=3, seeds=3).start()  # type: ignore[assignment]
    told: list[str] = []
    solver = Counting(bits=14, table_seeds=2)
    found = solve(start, solver, Stop(), told.append)
    assert found.nodes == sum(solver.proofs) and len(solver.proofs) > 1 + len(found.moves)
    assert told[0] == "proving the position"
    assert any(words.startswith("proving the position: [") for words in told)
    legal = [int(move) for move in start.legal_moves()]
    firsts = [words for words in told if words.startswith("the value of each first move")]
    assert firsts == [
        f"the value of each first move: {'ABC'[move]} ({i + 1} of {len(legal)})"
        for i, move in enumerate(legal)
    ]
    assert told[-1].startswith("a perfect line: ") and told.index(firsts[-1]) < len(told) - 1


@pytest.mark.parametrize("threads", [1, 2])
def test_a_stopped_solver_gives_bounds_holding_the_value(threads: int) -> None:
    game = parlour.game("kalah", pits=3, seeds=3)
    stop = Stop()
    stop.set()
    solver = Solver(bits=14, table_seeds=2, threads=threads)
    proof = solver.prove(game.start(), stop=stop)  # type: ignore[arg-type]
    value = exhaustive(game.start())
    assert proof.lower <= value <= proof.upper
    assert not proof.exact


@pytest.mark.slow
def test_parlour_solve_prints_the_proven_value_as_json() -> None:
    result = CliRunner().invoke(
        main, ["solve", "kalah", "--pits", "3", "--seeds", "2", "--memory", "1", "--json"]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)  # a first run's "warming up" note goes to stderr
    value = exhaustive(parlour.game("kalah", pits=3, seeds=2).start())
    assert report["proven"] and report["value"] == value
    assert report["table_slots"] == (1 << 20) // 16  # --memory 1: one megabyte
    assert max(bounds[0] for bounds in report["moves"].values()) == value


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["solve", "kalah", "1,2/0/3 0", "--pits", "3"], "POSITION"),
        (["solve", "gomoku"], "gomoku"),
        (["solve", "build"], "name the game"),
        (["solve", "build", "kalah", "--max-seeds", "40"], "holds 206,379,406,870 positions"),
        (["solve", "kalah", "--max-seeds", "40"], "are built (up to 30 seeds)"),
        (["solve", "kalah", "--threads", "0"], "the number of threads"),
        (["solve", "kalah", "--memory", "0"], "the megabytes"),
        (["solve", "kalah", "--memory", "1T"], "the megabytes"),
        (["solve", "kalah", "--max-memory", "0"], "the megabytes"),
        (
            ["solve", "build", "kalah", "--max-seeds", "20", "--max-memory", "296"],
            "needs at least 297 MB to build",
        ),
        (["solve", "kalah", "--max-seeds", "20", "--max-memory", "296"], "(--max-memory)"),
    ],
)
def test_parlour_solve_refuses_bad_input_naming_it(args: list[str], named: str) -> None:
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2
    assert named in result.output


def test_parlour_solve_build_builds_within_its_memory_and_says_its_peak() -> None:
    least = endgame.memory_needed(4, 9)
    megabytes = -(-least // (1 << 20))
    args = ["solve", "build", "kalah", "--pits", "4", "--max-seeds", "9"]
    result = CliRunner().invoke(main, [*args, "--max-memory", str(megabytes)])
    assert result.exit_code == 0, result.output
    assert "up to 9 seeds: 24,310 positions" in result.output
    assert re.search(r"peak resident memory [\d,]+ MB", result.output)


@pytest.mark.slow
def test_the_perfect_level_never_gives_away_value() -> None:
    perfect = thinker("kalah", PERFECT, seconds=5.0)
    assert isinstance(perfect, PerfectThinker)
    game = parlour.game("kalah", pits=3, seeds=3)
    for seed in range(6):
        state = midgame(game, seed % 3 * 2, seed)
        move, account = perfect.best_move(state, Stop())
        assert isinstance(account, Proof) and account.exact
        assert mover_value(state, state.play(move)) == exhaustive(state)


def test_the_perfect_level_is_for_the_sowing_games() -> None:
    assert parse_level(" Perfect") == PERFECT
    with pytest.raises(BadOption, match="gomoku has levels 1-6; perfect plays kalah and mancala"):
        thinker("gomoku", PERFECT)


@pytest.mark.slow
def test_a_position_too_big_to_prove_gets_the_search_on_what_is_left_of_the_clock(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The proof gives up at a share of the move's time, and the strongest search gets
    what is left of that one clock, not a clock of its own: together they take no more
    than the move's time.  Its account says why it searched."""
    proofs: list[Proof] = []
    given: list[float | None] = []
    prove, search = Solver.prove, Engine.search

    def proving(self: Solver, *args: Any, **kwargs: Any) -> Proof:
        proofs.append(prove(self, *args, **kwargs))
        return proofs[-1]

    def searching(self: Engine, state: State, *args: Any, **kwargs: Any) -> SearchResult[int]:
        given.append(kwargs.get("seconds"))
        return search(self, state, *args, **kwargs)

    monkeypatch.setattr(Solver, "prove", proving)
    monkeypatch.setattr(Engine, "search", searching)
    thinker = PerfectThinker(seconds=0.5)
    start = parlour.game("kalah", seeds=6).start()
    thinker.warm_up(start)
    given.clear()
    move, account = thinker.best_move(start, Stop())
    assert isinstance(account, SearchResult) and "too big to prove" in account.reason
    assert move in range(6)
    [proof], [seconds] = proofs, given
    assert not proof.exact
    assert seconds is not None and seconds <= max(thinker.seconds - proof.seconds, 0.0)


def test_a_proven_entry_answers_a_search_of_any_depth() -> None:
    """Kalah(6,4)'s lines run to 338 plies, deeper than the depth a proven entry holds."""
    table = new_table(2)
    _store(table, np.uint64(6), 3, 5, 2, 1, PROVEN)
    assert _lookup(table, np.uint64(6), 400) == (3, 5, 2, True)
    _store(table, np.uint64(10), 3, 5, 2, 1, 7)
    assert _lookup(table, np.uint64(10), 8)[:2] == (-32767, 32767)


def test_an_error_in_a_search_thread_is_the_proof_s(monkeypatch: pytest.MonkeyPatch) -> None:
    """A thread of a split window that fails leaves the window without an answer: the
    proof raises its error instead of answering from the other threads' lines."""
    real = split.null_window

    def broken(*args: Any) -> int:
        if threading.current_thread() is not threading.main_thread():  # a line's search
            raise MemoryError("no room")
        return int(real(*args))

    monkeypatch.setattr(split, "null_window", broken)
    state: SowingState = parlour.game("kalah", pits=3, seeds=3).start()  # type: ignore[assignment]
    with pytest.raises(MemoryError, match="no room"):
        Solver(bits=10, table_seeds=2, threads=2).prove(state)


def test_a_slot_half_written_by_another_thread_matches_no_key() -> None:
    """A slot's key is kept XORed with its entry: a slot whose entry another thread wrote
    after its key (or before) answers neither key."""
    table = new_table(2)
    _store(table, np.uint64(6), 3, 5, 2, 1, PROVEN)
    entry = table[1][2]
    _store(table, np.uint64(10), -4, 8, 1, 1, PROVEN)
    table[1][2] = entry  # the entry of key 6 beside the key of key 10
    assert _lookup(table, np.uint64(6), 1)[2] == NO_MOVE
    assert _lookup(table, np.uint64(10), 1)[2] == NO_MOVE


def test_a_bucket_keeps_the_costlier_entry_first_and_each_key_apart() -> None:
    """Keys 2**63 + 4, 4 and 8 share a bucket (two slots): each reads its own entry; a new
    key cheaper than the first slot's takes the second, one as costly takes the first."""
    table = new_table(2)
    high, low, third = np.uint64(2**63 + 4), np.uint64(4), np.uint64(8)
    _store(table, low, -3, -3, 1, 5, PROVEN)
    _store(table, high, 7, 9, 4, 2, 3)
    assert _lookup(table, high, 3) == (7, 9, 4, False)
    assert _lookup(table, low, 50) == (-3, -3, 1, True)
    _store(table, third, 0, 1, 0, 1, 1)
    assert _lookup(table, high, 3)[2] == NO_MOVE  # the second slot's: gone
    assert _lookup(table, low, 50) == (-3, -3, 1, True)
    _store(table, high, 7, 9, 4, 6, 3)
    assert _lookup(table, low, 50)[2] == NO_MOVE  # the first slot's: to a costlier entry
    assert _lookup(table, high, 3) == (7, 9, 4, False)
    assert _lookup(table, third, 1) == (0, 1, 0, False)


@pytest.mark.slow
def test_positions_of_many_seeds_get_the_endgame_table_s_value() -> None:
    """Kalah(6,4) positions of 10 to 12 seeds, solved over a 1-seed table (every cut-off,
    the table's and each child's, in play), against the 12-seed table's exact gain."""
    game = parlour.game("kalah")
    full = endgame.table(6, game.rules, 12)  # type: ignore[attr-defined]
    rng = random.Random(12)
    solver, split = Solver(bits=16, table_seeds=1), Solver(bits=16, table_seeds=1, threads=2)
    for _ in range(12):
        pits = [0] * 12
        for _ in range(rng.randint(10, 12)):
            pits[rng.randrange(12)] += 1
        side = rng.randrange(2)
        root = np.array([*pits[:6], 0, *pits[6:], 0, side], dtype=np.int64)
        state = SowingState(game, root.astype(game.start().board.dtype))  # type: ignore[arg-type, attr-defined]
        if state.is_over:
            continue
        for proof in solver.prove(state), split.prove(state):
            assert proof.exact
            assert proof.lower == endgame.value(root, full.packed, full.choose)


def some_positions() -> list[SowingState]:
    game = parlour.game("kalah", pits=3, seeds=2)
    start: SowingState = game.start()  # type: ignore[assignment]
    return [start, *(midgame(game, plies, 3) for plies in (2, 3))]


def test_a_solver_chooses_its_endgame_table_once_a_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every proof asks for the table; the file's header is read for the first alone."""
    asked: list[tuple[int, int]] = []
    real = endgame.built_seeds

    def counted(pits: int, rules: int) -> int:
        asked.append((pits, rules))
        return real(pits, rules)

    monkeypatch.setattr(endgame, "built_seeds", counted)
    solver = Solver(bits=14)
    states = some_positions()
    proofs = [solver.prove(state) for state in states]
    assert len(asked) == 1
    assert [(p.lower, p.upper) for p in proofs] == [(exhaustive(s),) * 2 for s in states]


def test_proven_positions_are_kept_on_disk_for_the_next_solver(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PARLOUR_CACHE_DIR", str(tmp_path))
    first = Known()
    for state in some_positions():
        Solver(bits=14, table_seeds=2, known=first).prove(state)
    first.save()
    again = Solver(bits=14, table_seeds=2, known=Known())
    for state in some_positions():
        proof = again.prove(state)
        assert proof.nodes == 0
        assert proof.lower == proof.upper == exhaustive(state)
        assert mover_value(state, state.play(proof.move)) == exhaustive(state)


@pytest.mark.parametrize("damage", [lambda b: b[:-3], lambda b: b.replace(b":[", b":[1")])
def test_a_damaged_file_of_proven_positions_is_not_trusted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: Callable[[bytes], bytes]
) -> None:
    monkeypatch.setenv("PARLOUR_CACHE_DIR", str(tmp_path))
    known = Known()
    state = some_positions()[1]
    Solver(bits=14, table_seeds=2, known=known).prove(state)
    known.save()
    assert known.path is not None
    known.path.write_bytes(damage(known.path.read_bytes()))
    again = Known()
    proof = Solver(bits=14, table_seeds=2, known=again).prove(state)
    assert proof.nodes > 0 and proof.lower == exhaustive(state)
    again.save()
    reread = Solver(bits=14, table_seeds=2, known=Known()).prove(state)
    assert reread.nodes == 0 and reread.lower == proof.lower


@pytest.mark.slow
def test_the_perfect_level_answers_a_second_game_from_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PARLOUR_CACHE_DIR", str(tmp_path))
    state = some_positions()[2]
    first_move, _ = PerfectThinker(seconds=5.0).best_move(state, Stop())
    move, account = PerfectThinker(seconds=5.0).best_move(state, Stop())
    assert isinstance(account, Proof) and account.nodes == 0
    assert move == first_move
    assert mover_value(state, state.play(move)) == exhaustive(state)


@pytest.mark.parametrize(("command", "what"), [("analyze", "search"), ("solve", "solve")])
def test_a_searching_command_refuses_a_bad_or_finished_position(command: str, what: str) -> None:
    over = CliRunner().invoke(main, [command, "kalah", "0,0,0,0,0,0/24/0,0,0,0,0,0/24 0"])
    assert over.exit_code == 2
    assert f"the game is over in this position: there is nothing to {what}" in over.output
    bad = CliRunner().invoke(main, [command, "kalah", "0,0,0,x"])
    assert bad.exit_code == 2 and "Invalid value for POSITION" in bad.output


FALLBACK = "5,4,0,4,1,5/1/1,0,3,3,3,4/2 0"
"""A Kalah(6,3) position where a search one ply deep plays D (worth -18 to its side to
move) and perfect play F (worth -12)."""


def perfect_with_fallback(monkeypatch: pytest.MonkeyPatch, lower: int) -> PerfectThinker:
    """A perfect level whose proof stops at [lower, lower + 6] (F achieving ``lower``), as
    a proof cut short by the clock does, and whose search is one ply deep."""

    def proving(self: Solver, state: SowingState, *args: Any, **kwargs: Any) -> Proof:
        return Proof(lower, lower + 6, 5, 0, 0.0, 8)

    def searching(
        self: PerfectThinker, state: SowingState, stop: Stop, seconds: float
    ) -> tuple[int, object]:
        found = Engine().search(state, depth=1)
        return found.move, found

    monkeypatch.setattr(Solver, "prove", proving)
    monkeypatch.setattr(PerfectThinker, "_search", searching)
    thinker = PerfectThinker(seconds=60.0)  # the check needs a fraction of a second
    thinker.solver = Solver(bits=14, table_seeds=8)
    return thinker


def test_the_perfect_level_never_plays_a_search_s_move_below_the_proven_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where the proof stops with -12 proven (F), the search's D (worth -18) is refused for
    F: the fallback of a proof cut short keeps the value already proven."""
    state: SowingState = parlour.game("kalah", pits=6, seeds=3).parse(FALLBACK)  # type: ignore[assignment]
    assert Engine().search(state, depth=1).move == 3  # the search alone gives 6 seeds away
    solver = Solver(bits=16, table_seeds=8)  # held to the exhaustive values above
    assert mover_bounds(solver, state, 3, Stop()) == (-18, -18)
    assert mover_bounds(solver, state, 5, Stop()) == (-12, -12)
    move, account = perfect_with_fallback(monkeypatch, -12).best_move(state, Stop())
    assert move == 5
    assert isinstance(account, SearchResult)


def test_the_search_s_move_stands_where_it_keeps_the_proven_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where the proof's bound is -18, the search's D keeps it: its move is played."""
    state: SowingState = parlour.game("kalah", pits=6, seeds=3).parse(FALLBACK)  # type: ignore[assignment]
    move, _ = perfect_with_fallback(monkeypatch, -18).best_move(state, Stop())
    assert move == 3


def test_the_perfect_level_never_plays_a_move_worse_than_one_proven_before(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A proof cut short with nothing of its own proven (its bounds the least and the
    most), where an earlier proof left F proven -12 and D -18 in the solver's table: the
    search's D is refused for F.  The fallback used to play the search's move whenever the
    proof's own bound was the least."""
    state: SowingState = parlour.game("kalah", pits=6, seeds=3).parse(FALLBACK)  # type: ignore[assignment]
    solver = Solver(bits=16, table_seeds=8)
    assert solver.held(state.play(5)) is None  # nothing proven yet
    nothing = Proof(least(state), -least(state), 0, 0, 0.0, 8)
    fresh = PerfectThinker()
    fresh.solver = solver
    assert fresh._held(state, nothing) == {}  # so the search would get all the time left
    assert mover_bounds(solver, state, 5, Stop()) == (-12, -12)
    assert mover_bounds(solver, state, 3, Stop()) == (-18, -18)
    assert mover_held(solver, state, 5) == (-12, -12)
    assert mover_held(solver, state, 3) == (-18, -18)
    perfect = perfect_with_fallback(monkeypatch, least(state))
    perfect.solver = solver
    move, account = perfect.best_move(state, Stop())
    assert move == 5
    assert isinstance(account, SearchResult)


@pytest.mark.parametrize("options", BOARDS[:2])
def test_what_a_solver_holds_of_a_position_holds_its_value(options: dict) -> None:
    """``Solver.held`` against the exhaustive values: nothing before a proof (beyond the
    endgame table's and the game's end), bounds holding each move's value after it."""
    game = parlour.game("kalah", **options)
    for state in [game.start(), *(midgame(game, 3, seed) for seed in range(3))]:
        solver = Solver(bits=14, table_seeds=2)
        children = [cast(SowingState, state.play(move)) for move in state.legal_moves()]
        before = [solver.held(child) for child in children]
        for child, held in zip(children, before, strict=True):
            few = sum(child.row(0)) + sum(child.row(1)) <= 2
            assert (held is not None) == (child.is_over or few)
        proof = solver.prove(state, stop=Stop())  # type: ignore[arg-type]
        assert mover_held(solver, state, proof.move) is not None  # type: ignore[arg-type]
        for move in state.legal_moves():
            held = mover_held(solver, state, move)  # type: ignore[arg-type]
            if held is not None:
                assert held[0] <= mover_value(state, state.play(move)) <= held[1]


@pytest.mark.parametrize("options", BOARDS[:2])
def test_a_move_reaches_a_target_exactly_when_its_value_does(options: dict) -> None:
    """``mover_reaches`` against the exhaustive values, both sides of each move's value
    (extra turns, hand-overs and game ends alike)."""
    game = parlour.game("kalah", **options)
    solver = Solver(bits=14, table_seeds=2)
    for state in [game.start(), *(midgame(game, 4, seed) for seed in range(4))]:
        for move in state.legal_moves():
            value = mover_value(state, state.play(move))
            for target in (value - 1, value, value + 1):
                reached = mover_reaches(solver, state, move, target, Stop())  # type: ignore[arg-type]
                assert reached == (value >= target)


@pytest.mark.slow
def test_the_perfect_level_benchmark_finds_no_value_given_away() -> None:
    """``benchmarks/perfect.py --quick``: Kalah(4,2), one balanced opening from both
    seats; the perfect level ends each game with at least the opening's proven value."""
    from test_benchmarks import quick

    printed, figures = quick("perfect")
    games = figures["games"]
    assert [game["perfect_seat"] for game in games] == [0, 1]
    assert figures["moves_checked"] == sum(game["moves_checked"] for game in games) > 0
    assert figures["moves_losing_value"] == 0
    assert all(game["margin"] >= game["opening_value"] for game in games)
    assert all(abs(game["opening_value"]) <= 2 for game in games)  # balanced
    assert "0 gave value away" in printed


@pytest.mark.parametrize("pits", [4, 5, 6])
def test_parlour_solve_reads_unasked_the_table_of_the_shortest_build_and_proof(pits: int) -> None:
    seeds = endgame.proof_seeds(pits)
    most = endgame.positions(6, endgame.PROOF_SEEDS)
    assert endgame.positions(pits, seeds) <= most < endgame.positions(pits, seeds + 1)


def test_parlour_solve_says_what_a_build_will_take_before_it_starts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from parlour.games.sowing import cli

    held = endgame.built_seeds(6, 2)
    assert held < endgame.PROOF_SEEDS  # the session's own cache folder
    cli._say_build(6, 2, endgame.PROOF_SEEDS)
    said = capsys.readouterr().err
    todo = endgame.positions(6, endgame.PROOF_SEEDS) - endgame.positions(6, held)
    size = -(-endgame.table_bytes(6, endgame.PROOF_SEEDS) // (1 << 20))
    assert f"up to {endgame.PROOF_SEEDS} seeds" in said
    assert f"{todo:,} positions, {size:,} MB on disk, about " in said
    cli._say_build(6, 2, max(held, 0))  # built: nothing to say
    assert capsys.readouterr().err == ""
