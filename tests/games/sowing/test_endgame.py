"""Endgame tables of the sowing games: the numbering of positions, the values, the files
that keep them, and the engine reading them."""

from __future__ import annotations

import io
import itertools
import os
import random
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from functools import partial
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import parlour
from helpers import default_ctrl_c, random_play
from parlour.games.sowing import endgame, packed, progress
from parlour.games.sowing.game import SowingGame, SowingState
from parlour.games.sowing.solver import PerfectThinker
from parlour.search.engine import Engine, kernel_position

PITS = 3
SEEDS = 9
CHOOSE = endgame.binomials(SEEDS + 2 * PITS, 2 * PITS)


def in_pits(state: SowingState) -> int:
    """The seeds left in the pits (not in the stores)."""
    return sum(state.row(0)) + sum(state.row(1))


def pits_board(pits: tuple[int, ...], stores: tuple[int, int] = (0, 0)) -> np.ndarray:
    """A kernel position (player 0 to move) with these pits, in the order the table numbers
    them: player 0's row, then player 1's in sowing order."""
    half = len(pits) // 2
    return np.array([*pits[:half], stores[0], *pits[half:], stores[1], 0], dtype=np.int64)


def test_the_positions_of_up_to_n_seeds_are_numbered_0_to_their_count() -> None:
    boards = [p for p in itertools.product(range(SEEDS + 1), repeat=2 * PITS) if sum(p) <= SEEDS]
    numbers = sorted(endgame.index(pits_board(p), CHOOSE) for p in boards)
    assert numbers == list(range(comb(SEEDS + 2 * PITS, 2 * PITS)))
    fewer = [endgame.index(pits_board(p), CHOOSE) for p in boards if sum(p) < SEEDS]
    assert max(fewer) == comb(SEEDS - 1 + 2 * PITS, 2 * PITS) - 1  # a smaller table's prefix


@pytest.mark.slow
@settings(deadline=None)  # the first example compiles the kernels
@given(
    st.lists(st.integers(0, SEEDS), min_size=2 * PITS, max_size=2 * PITS).filter(
        lambda pits: sum(pits) <= SEEDS
    ),
    st.integers(0, 9),
)
def test_a_number_gives_back_its_pits_whatever_the_stores(pits: list[int], store: int) -> None:
    board = pits_board(tuple(pits), (store, 2 * store))
    number = endgame.index(board, CHOOSE)
    assert number == endgame.index(pits_board(tuple(pits)), CHOOSE)
    back = np.zeros(2 * PITS + 3, dtype=np.int64)
    endgame._unindex(number, PITS, CHOOSE, back)
    assert np.array_equal(back, pits_board(tuple(pits)))


@given(
    st.lists(st.integers(0, SEEDS), min_size=2 * PITS, max_size=2 * PITS).filter(
        lambda pits: sum(pits) <= SEEDS
    )
)
def test_a_position_is_numbered_as_its_side_to_move_sees_it(pits: list[int]) -> None:
    """With player 1 to move, the number is that of the mirror image (rows swapped) with
    player 0 to move: one value serves both, as the rules are the same for both sides."""
    board = pits_board(tuple(pits))
    board[-1] = 1
    mirror = pits_board((*pits[PITS:], *pits[:PITS]))
    assert endgame.index(board, CHOOSE) == endgame.index(mirror, CHOOSE)


@pytest.mark.slow
@pytest.mark.parametrize(
    "options",
    [
        {"pits": 3},
        {"pits": 4, "empty_capture": False},
        {"pits": 4, "sow_opponent_store": True},
    ],
)
def test_a_table_value_is_the_exact_search_s_less_the_stores(options: dict) -> None:
    """On random positions with few seeds left in the pits: the strict engine searches to
    the end of every line without any table, and its exact value must be the store
    difference plus the table's gain, for the side to move."""
    game = parlour.game("kalah", **options)
    assert isinstance(game, SowingGame)
    pits = options["pits"]
    found = endgame.table(pits, game.rules, SEEDS)
    rng = random.Random(pits)
    checked = 0
    while checked < 60:
        state = random_play(game.start(), rng, rng.randrange(10, 60))
        assert isinstance(state, SowingState)
        if state.is_over or in_pits(state) > SEEDS:
            continue
        exact = Engine(table_bits=14, strict=True).search(state, depth=99)
        gain = endgame.value(kernel_position(state).root, found.packed, found.choose)
        mine, theirs = state.scores[state.to_move], state.scores[1 - state.to_move]
        assert exact.exact
        assert exact.value == mine - theirs + gain
        checked += 1


def test_a_wrong_building_order_is_refused() -> None:
    """The build checks that every value it reads is known: in reverse order the first
    position of a seed count (the farthest from the stores) has moves that lead to
    positions of that count not yet built."""
    low, high = endgame.positions(PITS, SEEDS - 1), endgame.positions(PITS, SEEDS)
    fewer = endgame.build(PITS, 0, SEEDS - 1, lambda done: None)
    table = packed.empty(high, endgame.width(PITS))
    table[: len(fewer)] = fewer
    keys = np.empty(high - low, dtype=endgame.key_type(PITS, SEEDS))
    endgame._keys(0, high - low, low, PITS, CHOOSE, keys)
    counts = np.bincount(keys, minlength=SEEDS * PITS + 1)
    order = endgame._order(keys, np.cumsum(counts) - counts, 0, len(keys), lambda done: None)
    backwards = order[::-1].copy()
    current = np.full(high - low, endgame.NOT_COMPUTED, dtype=np.uint8)
    fill = (low, SEEDS, PITS, 0, CHOOSE, table)
    assert not endgame._fill(0, high - low, backwards, *fill, current.copy())
    assert endgame._fill(0, high - low, order, *fill, current)
    assert endgame.NOT_COMPUTED not in current


@pytest.mark.slow
def test_the_engine_reads_the_table_and_agrees_with_the_search_without_it() -> None:
    """From positions of Kalah with 16-22 seeds left in the pits, a search with a table of
    up to 14 seeds finds the exact value sooner (in fewer nodes) and the same value as the
    search without one."""
    game = parlour.game("kalah", empty_capture=False)
    rng = random.Random(2)
    compared = 0
    while compared < 5:
        state = random_play(game.start(), rng, rng.randrange(20, 40))
        assert isinstance(state, SowingState)
        if state.is_over or not 16 <= in_pits(state) <= 22:
            continue
        alone = Engine(table_bits=20, endgame_entries=0).search(state, depth=99)
        helped = Engine(table_bits=20).search(state, depth=99)
        assert alone.exact and helped.exact
        assert helped.value == alone.value
        assert helped.nodes < alone.nodes
        compared += 1


def test_tables_fit_their_budget() -> None:
    assert endgame.seeds_within(6, endgame.MAX_ENTRIES) == 14  # C(26, 12) <= 2**24 < C(27, 12)
    assert endgame.seeds_within(3, 100) == 3  # C(9, 6) = 84 <= 100 < C(10, 6) = 210


def rules_of(**options: object) -> int:
    """The kernels' rule flags of Kalah with ``options``."""
    game = parlour.game("kalah", **options)
    assert isinstance(game, SowingGame)
    return game.rules


RULES = rules_of()
SMALL = (3, RULES, 6)
"""A table quick to build: 3 pits a side, up to 6 seeds."""


@pytest.fixture
def own_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Callable[[], list[float]]]:
    """A fresh cache folder and process cache of tables; returns a function that lists
    the builds since (each the share done at its last report)."""
    monkeypatch.setenv("PARLOUR_CACHE_DIR", str(tmp_path))
    endgame.forget()
    builds: list[float] = []
    real = endgame.build

    def counted(*args: Any, **kwargs: Any) -> np.ndarray:
        builds.append(0.0)
        values = real(*args, **kwargs)
        builds[-1] = 1.0
        return values

    monkeypatch.setattr(endgame, "build", counted)
    yield lambda: builds
    endgame.forget()


def test_a_table_is_built_once_then_read_from_its_file(own_cache: Callable[[], list]) -> None:
    built = endgame.table(*SMALL)
    assert own_cache() == [1.0] and endgame._file(*SMALL[:2]).is_file()
    endgame.forget()  # as a new process would
    read = endgame.table(*SMALL)
    assert own_cache() == [1.0]
    assert isinstance(read.packed, np.memmap)
    assert np.array_equal(read.packed, built.packed) and read.seeds == built.seeds


def test_the_table_s_values_are_not_written_back(own_cache: Callable[[], list]) -> None:
    endgame.table(*SMALL)
    endgame.forget()
    path = endgame._file(*SMALL[:2])
    saved = path.read_bytes()
    endgame.table(*SMALL).packed[:] = 0
    assert path.read_bytes() == saved


def truncate(data: bytearray) -> bytes:
    return bytes(data[:-1])


def flip(data: bytearray) -> bytes:
    data[endgame.HEADER.size + len(data) // 3] ^= 1
    return bytes(data)


def misname(data: bytearray) -> bytes:
    return bytes(data.replace(endgame.MAGIC, b"parlour endgame0", 1))


def empty(data: bytearray) -> bytes:
    return b""


def test_a_table_checked_once_is_read_unchecked_until_its_file_is_written(
    own_cache: Callable[[], list], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Checking every count's CRC-32 of a big table takes seconds: a file checked once is
    read without checking again while it is the same file, and checked again (and built
    again, if damaged) once written."""
    endgame.table(*SMALL)
    checked: list[int] = []
    real = endgame._checks

    def counted(table: np.ndarray, pits: int, seeds: int) -> np.ndarray:
        checked.append(seeds)
        return real(table, pits, seeds)

    monkeypatch.setattr(endgame, "_checks", counted)
    for _ in range(3):
        endgame.forget()
        endgame.table(*SMALL)
    assert len(checked) == 1
    endgame.forget()
    endgame.table(*SMALL[:2], SMALL[2] - 1)  # a smaller table: within what was checked
    assert len(checked) == 1
    path = endgame._file(*SMALL[:2])
    path.write_bytes(flip(bytearray(path.read_bytes())))
    later = path.stat().st_mtime_ns + 10**9  # as a write a second after the check would be
    os.utime(path, ns=(later, later))
    endgame.forget()
    endgame.table(*SMALL)
    assert own_cache() == [1.0, 1.0]


@pytest.mark.parametrize("damage", [truncate, flip, misname, empty])
def test_a_damaged_table_file_is_built_again(
    own_cache: Callable[[], list], damage: Callable[[bytearray], bytes]
) -> None:
    whole = endgame.table(*SMALL).packed.copy()
    path = endgame._file(*SMALL[:2])
    saved = path.read_bytes()
    path.write_bytes(damage(bytearray(saved)))
    endgame.forget()
    again = endgame.table(*SMALL)
    assert own_cache() == [1.0, 1.0]
    assert np.array_equal(again.packed, whole)
    assert path.read_bytes() == saved


def test_a_table_outlives_a_change_of_the_code_that_leaves_its_values(
    own_cache: Callable[[], list], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table file of another version of the code is checked once against a small table
    the code here builds (``_agrees``), then kept: not built, not written again."""
    endgame.table(*SMALL)
    path = endgame._file(*SMALL[:2])
    written = endgame._signature(path)
    monkeypatch.setattr(endgame, "_code", lambda: "0123456789abcdef")
    agreed: list[bool] = []
    real = endgame._agrees

    def told(*args: Any) -> bool:
        agreed.append(real(*args))
        return agreed[-1]

    monkeypatch.setattr(endgame, "_agrees", told)
    for _ in range(3):
        endgame.forget()
        endgame.table(*SMALL)
    assert agreed == [True]
    assert endgame._signature(path) == written
    assert len(own_cache()) == 2  # the table, then the check's small one


def test_a_table_the_code_here_would_not_give_is_built_again(
    own_cache: Callable[[], list], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A whole file (its checksums right) of a version of the code whose values differ
    from this one's, as after a change of the rules, is not trusted."""
    pits, rules, seeds = SMALL
    whole = endgame.table(*SMALL).packed.copy()
    other = whole.copy()
    other[endgame.positions(pits, 2)] += 1
    code = endgame._code
    monkeypatch.setattr(endgame, "_code", lambda: "fedcba9876543210")
    endgame.save(other, seeds, pits, rules)
    monkeypatch.setattr(endgame, "_code", code)
    endgame.forget()
    assert np.array_equal(endgame.table(*SMALL).packed, whole)
    assert len(own_cache()) == 3  # the table, the check's, the table again
    endgame.forget()
    kept = endgame._load(pits, rules, seeds)
    assert kept is not None and np.array_equal(kept.packed, whole)


def test_a_table_left_in_an_older_version_s_folder_is_moved_and_kept(
    own_cache: Callable[[], list], tmp_path: Path
) -> None:
    """Tables were once kept in a folder of the code's version: the biggest of a board's
    left there is moved into the tables' folder, not built again, and another board's
    or another layout's file stays where it is."""
    pits, rules, seeds = SMALL
    whole = endgame.table(*SMALL).packed.copy()
    endgame.table(pits, rules_of(empty_capture=False), seeds)
    path = endgame._file(pits, rules)
    smaller = endgame.build(pits, rules, seeds - 1, lambda done: None)
    older, oldest, layout = (tmp_path / "endgame" / name for name in ["0a1b", "2c3d", "layout-1"])
    for folder in (older, oldest, layout):
        folder.mkdir()
    os.replace(path, older / path.name)
    left = endgame._signature(older / path.name)
    (layout / path.name).write_bytes(misname(bytearray((older / path.name).read_bytes())))
    endgame.save(smaller, seeds - 1, pits, rules)
    os.replace(path, oldest / path.name)
    endgame.forget()
    assert np.array_equal(endgame.table(*SMALL).packed, whole)
    assert len(own_cache()) == 4  # two tables, the smaller one and the check's
    assert endgame._signature(path) == left and not (older / path.name).exists()
    assert (oldest / path.name).is_file() and (layout / path.name).is_file()
    assert endgame._file(pits, rules_of(empty_capture=False)).is_file()


def layout_2_file(cache: Path, name: str, both: np.ndarray, checks: np.ndarray) -> Path:
    """A table file of layout 2 (a column a side to move) of ``SMALL``'s board and rules,
    holding ``both`` under the checksums ``checks``, left in an older version's folder of
    the ``cache``: its path."""
    pits, rules, seeds = SMALL
    older = cache / "endgame" / "0a1b"
    older.mkdir()
    header = endgame.HEADER.pack(b"parlour endgame2", pits, rules, seeds)
    (older / name).write_bytes(header + checks.tobytes() + both.tobytes())
    return older / name


def test_a_table_of_layout_2_gives_its_first_column(
    own_cache: Callable[[], list], tmp_path: Path
) -> None:
    """Layout 2 held a value for each side to move, numbered from player 0's row: its
    column for player 0 is layout 3's table, copied from an older version's folder (and
    checked) rather than built again, and the old file removed."""
    pits, rules, seeds = SMALL
    whole = endgame.table(*SMALL).packed.copy()
    path = endgame._file(pits, rules)
    path.unlink()
    gains = endgame.unpacked(whole, pits, seeds).astype(np.int8)
    both = np.stack([gains, -gains], axis=1)
    older = layout_2_file(tmp_path, path.name, both, endgame._byte_checks(both, pits))
    endgame.forget()
    assert np.array_equal(endgame.table(*SMALL).packed, whole)
    assert len(own_cache()) == 2  # the table, and the check's small one
    assert endgame.built_seeds(pits, rules) == seeds
    assert not older.exists()  # copied, it is of no more use


def test_a_table_of_layout_3_is_packed_into_this_layout(
    own_cache: Callable[[], list], tmp_path: Path
) -> None:
    """Layout 3 held a byte a position (its gain): a file of it, in its layout's folder,
    is packed (its checksums checked first) rather than built again, the packed table
    smaller than the old one, and the old file removed."""
    pits, rules, seeds = 6, RULES, 5
    whole = endgame.table(pits, rules, seeds).packed.copy()
    path = endgame._file(pits, rules)
    path.unlink()
    gains = endgame.unpacked(whole, pits, seeds).astype(np.int8)
    older = tmp_path / "endgame" / "layout-3" / path.name
    older.parent.mkdir()
    header = endgame.HEADER.pack(endgame.LAYOUT_3, pits, rules, seeds)
    older.write_bytes(header + endgame._byte_checks(gains, pits).tobytes() + gains.tobytes())
    endgame.forget()
    assert np.array_equal(endgame.table(pits, rules, seeds).packed, whole)
    assert len(own_cache()) == 2  # the table, and the check's small one
    assert not older.exists()
    assert len(whole) == -(-endgame.positions(pits, seeds) * 5 // 8) + 1  # five bits each


def test_a_damaged_table_of_layout_2_is_not_taken_over(
    own_cache: Callable[[], list], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A layout-2 file's own checksums are checked before its column is copied (the copy
    gets checksums of its own): a damaged value above the counts the code checks again
    would otherwise be trusted."""
    monkeypatch.setattr(endgame, "AGREEMENT", endgame.positions(SMALL[0], 2))
    pits, rules, seeds = SMALL
    whole = endgame.table(*SMALL).packed.copy()
    path = endgame._file(pits, rules)
    path.unlink()
    gains = endgame.unpacked(whole, pits, seeds).astype(np.int8)
    both = np.stack([gains, gains], axis=1)
    checks = endgame._byte_checks(both, pits)
    both[-1, 0] -= 2  # in the last count, after its checksum (a gain it could be)
    older = layout_2_file(tmp_path, path.name, both, checks)
    endgame.forget()
    assert np.array_equal(endgame.table(*SMALL).packed, whole)
    assert older.is_file()  # not taken, so left as it was


def test_the_solver_reads_the_largest_table_built_here_by_default(
    own_cache: Callable[[], list], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With no table on disk, the solver's default is the largest of MAX_ENTRIES positions
    (2 seeds here); once a bigger one is built, that one; a file whose header names
    another board, none."""
    from parlour.games.sowing.solver import Solver

    monkeypatch.setattr(endgame, "MAX_ENTRIES", endgame.positions(3, 2))
    state = parlour.game("kalah", pits=3, seeds=3).start()
    assert endgame.built_seeds(*SMALL[:2]) == -1
    assert Solver(bits=4).knowledge(state).seeds == 2  # type: ignore[arg-type]
    endgame.table(*SMALL)
    assert endgame.built_seeds(*SMALL[:2]) == SMALL[2]
    assert Solver(bits=4).knowledge(state).seeds == SMALL[2]  # type: ignore[arg-type]
    path = endgame._file(*SMALL[:2])
    path.write_bytes(misname(bytearray(path.read_bytes())))
    assert endgame.built_seeds(*SMALL[:2]) == -1


def test_one_file_serves_a_board_s_tables_and_grows_from_where_it_was(
    own_cache: Callable[[], list], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each rule set and board has a file of its own; a smaller table than the file's is
    its prefix, read without a build, and a bigger one is built on from it."""
    pits, rules, seeds = SMALL
    other_rules = rules_of(empty_capture=False)
    assert (
        len({endgame._file(*key) for key in [(pits, rules), (pits, other_rules), (4, rules)]}) == 3
    )
    whole = endgame.table(*SMALL).packed.copy()
    endgame.forget()
    smaller = endgame.table(pits, rules, seeds - 2)
    assert own_cache() == [1.0]
    fewer = endgame.positions(pits, seeds - 2)
    assert np.array_equal(
        endgame.unpacked(smaller.packed, pits, seeds - 2),
        endgame.unpacked(whole, pits, seeds)[:fewer],
    )
    known: list[int] = []
    real = endgame.build

    def told(*args: Any, **kwargs: Any) -> np.ndarray:
        known.append(args[4].seeds)
        return real(*args, **kwargs)

    monkeypatch.setattr(endgame, "build", told)
    bigger = endgame.table(pits, rules, seeds + 1)
    assert known == [seeds]
    assert np.array_equal(bigger.packed, real(pits, rules, seeds + 1, lambda done: None))
    endgame.forget()
    held = endgame._load(pits, rules, 99)
    assert held is not None and held.seeds == seeds + 1


class Stopped(Exception):
    """A build stopped halfway (as Ctrl-C stops one)."""


def test_a_stopped_build_resumes_from_the_last_seed_count_done(
    own_cache: Callable[[], list], monkeypatch: pytest.MonkeyPatch
) -> None:
    pits, rules, seeds = SMALL

    def stop_halfway(done: float) -> None:
        if done > 0.5:
            raise Stopped

    with pytest.raises(Stopped):
        endgame.build(
            pits, rules, seeds, stop_halfway, None, partial(endgame.save, pits=pits, rules=rules)
        )
    kept = endgame._load(pits, rules, seeds)
    assert kept is not None and 0 <= kept.seeds < seeds
    whole = endgame.build(pits, rules, seeds, lambda done: None)
    assert np.array_equal(
        endgame.unpacked(kept.packed, pits, kept.seeds),
        endgame.unpacked(whole, pits, seeds)[: endgame.positions(pits, kept.seeds)],
    )
    shares: list[float] = []
    real = endgame.build

    def resumed(
        pits: int,
        rules: int,
        seeds: int,
        report: Callable[[float], None],
        known: endgame.EndgameTable,
        counted: Callable[[np.ndarray, int], None],
        memory: int | None,
    ) -> np.ndarray:
        assert known.seeds == kept.seeds
        return real(pits, rules, seeds, shares.append, known, counted, memory=memory)

    monkeypatch.setattr(endgame, "build", resumed)
    again = endgame.table(*SMALL)
    assert np.array_equal(again.packed, whole)
    assert shares == sorted(shares) and shares[-1] == pytest.approx(1.0)


def test_the_engine_builds_no_bigger_table_than_the_game_needs(
    own_cache: Callable[[], list], tmp_path: Path
) -> None:
    """Kalah with three pits of one seed never has more than 6 seeds in its pits: the
    engine's table stops there, though its budget would hold many more."""
    state = parlour.game("kalah", pits=3, seeds=1).start()
    Engine(table_bits=10).search(state, depth=2)
    assert endgame.seeds_within(3, endgame.MAX_ENTRIES) > 6
    assert [p.name for p in tmp_path.glob("endgame/*/*-rules")] == [endgame._file(*SMALL[:2]).name]
    held = endgame._load(*SMALL[:2], 99)
    assert held is not None and held.seeds == SMALL[2]


INTERRUPTED = """
import sys
from parlour.games.sowing import endgame, progress

real = endgame.build

def announced(pits, rules, seeds, report, *rest, **named):
    def told(done):
        print("building", flush=True)
        report(done)
        sys.stdin.readline()  # the test's signal comes while this waits
    return real(pits, rules, seeds, told, *rest, **named)

endgame.build = announced
endgame.table(6, {rules}, 14)
"""


def test_ctrl_c_stops_a_build_and_leaves_no_file(tmp_path: Path) -> None:
    """A build interrupted between two chunks ends the process on KeyboardInterrupt,
    with nothing in the tables' folder before its first seed count is done."""
    child = subprocess.Popen(
        [sys.executable, "-c", INTERRUPTED.format(rules=RULES)],
        env={**os.environ, "PARLOUR_CACHE_DIR": str(tmp_path)},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=default_ctrl_c,
    )
    assert child.stdout is not None and child.stdin is not None
    assert child.stdout.readline() == "building\n"
    child.send_signal(signal.SIGINT)
    _, errors = child.communicate(timeout=60)
    assert "KeyboardInterrupt" in errors
    assert child.returncode != 0
    assert [p for p in (tmp_path / "endgame").rglob("*") if p.is_file()] == []


def test_a_build_reports_its_progress_chunk_by_chunk() -> None:
    """Python regains control after every chunk of a build (to show progress, and to
    stop on Ctrl-C): the reports rise to the whole, in three steps of at most ``CHUNK``
    positions (the last cut, too, where the distance from the stores changes)."""
    shares: list[float] = []
    endgame.build(4, RULES, 8, shares.append)
    counts = [endgame.positions(4, n) - endgame.positions(4, n - 1) for n in range(9)]
    assert len(shares) >= sum(3 * -(-count // endgame.CHUNK) for count in counts)
    assert shares == sorted(shares) and shares[-1] == pytest.approx(1.0)


def test_a_build_on_two_threads_gives_one_thread_s_values(monkeypatch: pytest.MonkeyPatch) -> None:
    """The threads share out the positions of each distance from the stores, which need
    none of each other's values: the table is the same, in chunks small enough that
    every distance is spread over both threads."""
    monkeypatch.setattr(endgame, "CHUNK", 64)
    one = endgame.build(4, RULES, 8, lambda done: None, threads=1)
    assert np.array_equal(endgame.build(4, RULES, 8, lambda done: None, threads=2), one)
    assert endgame.NOT_COMPUTED not in one[:-1]  # the spare byte apart


def test_a_build_in_pieces_within_a_small_memory_gives_the_whole_build_s_values(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Within the least memory a build needs, each count's order of building is made a
    chunk of places at a time (a pass over the count's keys each): the values are those
    of the build that holds each count's order whole, on one thread or two."""
    monkeypatch.setattr(endgame, "CHUNK", 64)
    whole = endgame.build(4, RULES, 8, lambda done: None)
    pieces: list[int] = []
    real = endgame._order

    def order(keys: np.ndarray, begins: np.ndarray, low: int, high: int, report: Any) -> Any:
        pieces.append(high - low)
        return real(keys, begins, low, high, report)

    monkeypatch.setattr(endgame, "_order", order)
    least = endgame.memory_needed(4, 8)
    for threads in (1, 2):
        pieces.clear()
        built = endgame.build(4, RULES, 8, lambda done: None, threads=threads, memory=least)
        assert np.array_equal(built, whole)
        largest = endgame.positions(4, 8) - endgame.positions(4, 7)
        assert pieces.count(64) == largest // 64  # the largest count, a chunk at a time
    pieces.clear()
    assert np.array_equal(endgame.build(4, RULES, 8, lambda done: None, memory=1 << 30), whole)
    assert len(pieces) == 9  # room for every count's order whole: a piece a count


def test_a_build_in_less_than_the_least_memory_is_refused_in_one_line() -> None:
    least = endgame.memory_needed(6, 20)
    count = endgame.positions(6, 20) - endgame.positions(6, 19)
    table = endgame.table_bytes(6, 20)  # five bits a position
    assert least == table + 2 * count + 4 * endgame.CHUNK  # keys and values of a byte
    with pytest.raises(ValueError, match="needs at least 297 MB to build") as refused:
        endgame.build(6, RULES, 20, lambda done: None, memory=least - 1)
    assert "\n" not in str(refused.value)
    endgame.check_memory(6, 20, least)  # enough
    endgame.check_memory(6, 20, None)  # no limit


def test_tables_up_to_30_seeds_on_six_pits_are_built_each_count_numbered_in_32_bits() -> None:
    endgame.check_size(6, 30)
    with pytest.raises(ValueError, match="to 31 seeds holds 15,"):
        endgame.check_size(6, 31)
    with pytest.raises(ValueError, match=r"up to 20 seeds\)"):
        endgame.check_size(8, 21)  # within LARGEST, but its last count is 2^32 or more
    count = endgame.positions(8, 21) - endgame.positions(8, 20)
    assert endgame.positions(8, 21) <= endgame.LARGEST and count >= 1 << 32


def test_a_count_s_keys_take_a_byte_where_its_distances_fit_one() -> None:
    assert endgame.key_type(6, 42) == np.uint8  # a distance is at most the seeds x pits
    assert endgame.key_type(6, 43) == np.uint16
    assert endgame.key_type(16, 15) == np.uint8
    assert endgame.key_type(16, 16) == np.uint16


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("stream", "patience", "shown"),
    [
        (Terminal, 0.0, "endgame table"),  # a bar
        (Terminal, 60.0, None),  # a quick build shows nothing
        (io.StringIO, 0.0, "endgame table: 50%, 0 s\nendgame table: 100%, 0 s\n"),  # a log
        (io.StringIO, 60.0, None),
    ],
)
def test_a_long_build_shows_its_progress_on_standard_error(
    monkeypatch: pytest.MonkeyPatch, stream: type[io.StringIO], patience: float, shown: str | None
) -> None:
    """At a terminal a bar, elsewhere a line each ``EVERY`` seconds (here: each report)."""
    errors = stream()
    monkeypatch.setattr(sys, "stderr", errors)
    monkeypatch.setattr(progress, "PATIENCE", patience)
    monkeypatch.setattr(progress, "EVERY", 0.0)
    with progress.shown("endgame table") as report:
        report(0.5)
        report(1.0)
    if shown is None:
        assert errors.getvalue() == ""
    else:
        assert shown in errors.getvalue()


def test_a_build_nobody_asked_for_shows_its_progress(
    own_cache: Callable[[], list], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The perfect level's first table, built as it warms up (in ``parlour play``, or the
    web server's warm-up), says how far it is as ``parlour solve`` does."""
    errors = io.StringIO()
    monkeypatch.setattr(sys, "stderr", errors)
    monkeypatch.setattr(progress, "PATIENCE", 0.0)
    monkeypatch.setattr(progress, "EVERY", 0.0)
    PerfectThinker(1.0).warm_up(parlour.game("kalah", pits=3, seeds=1).start())
    lines = errors.getvalue().splitlines()
    assert own_cache() == [1.0]
    assert lines[-1].startswith("endgame table: 3 pits a side, up to 6 seeds: 100%")
