"""``benchmarks/solve.py`` builds its endgame table once, timed, and the proofs read it."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

from parlour.games.sowing import endgame

BENCHMARKS = Path(__file__).parents[1] / "benchmarks"


@pytest.mark.slow
def test_the_benchmark_builds_its_table_once_with_an_empty_cache(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PARLOUR_CACHE_DIR", str(tmp_path))
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    spec = importlib.util.spec_from_file_location("solve", BENCHMARKS / "solve.py")
    assert spec is not None and spec.loader is not None
    solve = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(solve)
    builds = []
    build = endgame.build

    def counted(*args: object, **options: object) -> object:
        builds.append(args[:3])
        return build(*args, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(endgame, "build", counted)
    endgame.forget()
    quick = ["--quick", "--grid", "0", "--next-seeds", "0", "--threads", "1"]
    quick += ["--from-nothing-seeds", ""]  # its builds are in a folder of their own
    monkeypatch.setattr(sys, "argv", ["solve.py", *quick])
    solve.main()
    # Kalah(3,3)'s table to 6 seeds: the timed build alone (other boards have tables too)
    assert builds.count((3, 2, 6)) == 1


def benchmark() -> Any:
    """The benchmark's module (which imports its neighbour ``record``)."""
    spec = importlib.util.spec_from_file_location("solve", BENCHMARKS / "solve.py")
    assert spec is not None and spec.loader is not None
    sys.path.insert(0, str(BENCHMARKS))
    try:
        solve = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(solve)
    finally:
        sys.path.remove(str(BENCHMARKS))
    return solve


def test_from_nothing_builds_once_in_a_folder_of_its_own_and_proves_with_each_size() -> None:
    """``--from-nothing-seeds``: one build, timed to each size, then a proof with each;
    the cache folder's tables are left as they were."""
    held = endgame.built_seeds(3, 2)
    args = argparse.Namespace(
        pits=3, seeds=3, from_nothing_seeds=[6, 4], bits=16, threads=[1], main_seconds=60.0
    )
    figures = benchmark().by_table_size(args)
    assert list(figures) == ["4", "6"]
    assert figures["4"]["proof"].startswith("+2 ")  # Kalah(3,3)'s value, and a best move
    assert figures["6"]["proof"].startswith("+2 ")
    assert figures["4"]["build_cpu_seconds"] <= figures["6"]["build_cpu_seconds"]
    assert endgame.built_seeds(3, 2) == held


def test_the_reference_is_driven_over_its_api_mode(tmp_path: Path) -> None:
    """``--reference``: the solver's start from ``ROOT n``, its value from ``SOLVE code``
    (a stand-in speaking CMancala's API mode, which checks what it is sent)."""
    solve = benchmark()
    stand_in = tmp_path / "Mancala"
    stand_in.write_text(
        "#!/bin/sh\n"
        '[ "$1 $2 $3" = "--api --cache 20" ] || exit 1\n'
        'read root; [ "$root" = "ROOT 3" ] || exit 1\n'
        "echo OK CODE 0060606\n"
        'read solve; [ "$solve" = "SOLVE 0060606" ] || exit 1\n'
        "echo OK EVAL 2 MOVE 4 NEXT_CODE 0080808 TURN -1\n"
        "read quit\n"
    )
    stand_in.chmod(0o755)
    found = solve.reference_proof(stand_in, 3, 20)
    assert found["value"] == 2 and found["seconds"] >= 0 and found["cpu_seconds"] >= 0


def test_first_moves_proven_are_kept_for_the_next_run(tmp_path: Path) -> None:
    """``--checkpoint``: a second run takes the first moves the first proved from the file."""
    args = argparse.Namespace(
        pits=3, next_seeds=3, bits=16, table_seeds=6, threads=[1], first_move_seconds=60.0,
        checkpoint=tmp_path / "moves.json",
    )  # fmt: skip
    solve = benchmark()
    first = solve.first_move_bounds(args)
    assert all(low == high for low, high in (f["bounds"] for f in first.values()))
    assert all(f["nodes"] > 0 for f in first.values())
    again = solve.first_move_bounds(args)
    assert [f["bounds"] for f in again.values()] == [f["bounds"] for f in first.values()]
    assert all(f["nodes"] == 0 for f in again.values())
