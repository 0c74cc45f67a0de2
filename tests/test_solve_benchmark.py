"""``benchmarks/solve.py`` builds its endgame table once, timed, and the proofs read it."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

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
    monkeypatch.setattr(sys, "argv", ["solve.py", *quick])
    solve.main()
    # Kalah(3,3)'s table to 6 seeds: the timed build alone (other boards have tables too)
    assert builds.count((3, 2, 6)) == 1
