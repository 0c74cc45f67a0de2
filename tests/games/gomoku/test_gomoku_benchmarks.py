"""Five in a row's benchmarks: the tactical suite and the self-play run with ``--quick``
(tests/test_benchmarks.py's way: each must still run, and record nothing), and the engine
match's CPU report."""

from __future__ import annotations

import importlib
import shlex
import sys
from pathlib import Path

import pytest

from test_benchmarks import BENCHMARKS, quick


@pytest.mark.slow
def test_the_tactical_suite_compares_the_settings_on_the_same_positions() -> None:
    printed, figures = quick("gomoku_tactics")
    table = figures["suite"]["2000 threat nodes, depth 2"]
    assert set(table) == {"before", "after"}
    for found in table.values():  # one win and one defence, each searched by both
        assert len(found["positions"]) == 2 and found["nodes"] > 0
        assert set(found["solved"]) == {"win", "defend"}
    speed = figures["main_search"]
    assert speed["after"]["same_best_values"] <= 2 and speed["before"]["nodes"] > 0
    assert "solved" in printed and "nodes a CPU second" in printed


@pytest.mark.slow
def test_the_self_play_plays_through_parlour_match() -> None:
    _, figures = quick("gomoku_selfplay")
    match = figures["match"]
    assert match["games"] == 2 and match["wins"] + match["losses"] + match["draws"] == 2
    assert match["players"][0].startswith("python:gomoku_selfplay:player:after@")
    assert len(figures["load_before"]) == 3


@pytest.mark.slow
def test_the_self_play_by_nodes_plays_the_same_games_twice() -> None:
    """By nodes (no clock), two games in parallel: the same moves, so the same score,
    however busy the machine."""
    runs = [quick("gomoku_selfplay", "--nodes", "3000/1000", "--parallel", "2") for _ in "ab"]
    first, second = (figures["match"] for _, figures in runs)
    assert first["players"][0] == "python:gomoku_selfplay:player:after#3000/1000"
    assert (first["wins"], first["losses"], first["draws"]) == (
        second["wins"], second["losses"], second["draws"]
    )  # fmt: skip


@pytest.mark.slow
def test_the_speed_benchmark_counts_nodes_to_a_depth_and_asks_rapfi_where_told() -> None:
    """Nodes to depth by setting, the same on any machine, fewer with the reductions and
    pruning; a stand-in Rapfi (a brain that prints Rapfi's ``MESSAGE`` lines) read."""
    brain = Path(__file__).with_name("brains") / "misbehaving.py"
    stand_in = shlex.join([sys.executable, str(brain), "rapfi"])
    _, figures = quick(
        "gomoku_speed", "--depth", "4", "--variants", "after,before", "--rapfi", stand_in
    )
    after, before = figures["to_depth"]["after"], figures["to_depth"]["before"]
    assert 0 < after["total_nodes"] < before["total_nodes"]
    assert len(figures["in_a_move"]["depths"]) == len(after["nodes"]) == 2
    # the stand-in's depth is its stones: an opening's three, its midgame's 8 plies more
    assert figures["rapfi"] == {"depths": [3, 11], "speeds": ["500K", "500K"]}


@pytest.mark.slow
def test_the_engine_plays_at_its_own_time_when_given_one(tmp_path: Path) -> None:
    """``--engine-time-per-move``: the engine is told its own time a move, parlour keeps
    ``--time-per-move``'s (the engine here is parlour's own brain, what it is told kept)."""
    heard = tmp_path / "heard.txt"
    brain = shlex.join([str(Path(sys.executable).parent / "parlour"), "pbrain"])
    engine = shlex.join(["sh", "-c", f"tee -a {shlex.quote(str(heard))} | {brain}"])
    timing = ("--engine-time-per-move", "0.1", "--tolerance", "10")  # a cold brain, a busy core
    printed, figures = quick("gomoku_vs_engine", engine, *timing)
    assert figures["wins"] + figures["losses"] + figures["draws"] == 2
    told = heard.read_text().splitlines()
    assert "INFO timeout_turn 100" in told and "INFO timeout_turn 300" not in told
    assert "at 0.3 s a move (the engine 0.1 s)" in printed


@pytest.mark.slow
def test_another_brain_plays_parlours_side_with_the_engines_limits(tmp_path: Path) -> None:
    """``--brain``: the program given plays parlour's side, told the engine's memory limit
    (here parlour's own brain under a tee that keeps what it is told)."""
    heard = tmp_path / "heard.txt"
    brain = shlex.join([str(Path(sys.executable).parent / "parlour"), "pbrain", "--level", "2"])
    seated = shlex.join(["sh", "-c", f"tee -a {shlex.quote(str(heard))} | {brain}"])
    extra = ("--brain", seated, "--memory", "300", "--tolerance", "10")
    _, figures = quick("gomoku_vs_engine", brain, *extra)
    assert figures["wins"] + figures["losses"] + figures["draws"] == 2
    told = heard.read_text().splitlines()
    assert f"INFO max_memory {300 << 20}" in told and "INFO timeout_turn 300" in told


def test_the_cpu_report_says_when_one_side_had_much_more(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    cpu_report = importlib.import_module("gomoku_vs_engine").cpu_report
    even, line = cpu_report([0.2, 0.4], [0.3, 0.3])
    assert even["ratio"] == pytest.approx(1.0) and "uneven" not in line
    uneven, line = cpu_report([0.1, 0.1], [0.3, 0.5])
    assert uneven["ratio"] == pytest.approx(4.0) and "uneven" in line
    assert cpu_report([0.1], [])[0]["ratio"] is None  # the engine made no move


def test_the_balanced_openings_are_the_drawn_ones_nearest_to_even(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Of ``POOL`` times as many drawn (the same draws as the random openings'), the
    ones kept are distinct and none is further from even than one left out."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    selfplay = importlib.import_module("gomoku_selfplay")
    kept = selfplay.openings(3, 7)
    drawn = selfplay.openings(3 * selfplay.POOL, 7, balanced=False)
    assert len(set(kept)) == 3 and set(kept) <= set(drawn)
    assert drawn[:3] == selfplay.openings(3, 7, balanced=False)
    worst = max(abs(selfplay.balance(opening)) for opening in kept)
    assert all(abs(selfplay.balance(o)) >= worst for o in set(drawn) - set(kept))


@pytest.mark.slow
def test_the_tuning_fits_the_weights_to_its_games_and_writes_nothing() -> None:
    """Two games' quiet positions fitted: the figures say how many, and the held-out loss
    of each table; the shipped table is left as it was (``--quick`` writes nothing)."""
    from parlour.games.gomoku.engine.weights import NAMES, WEIGHTS_FILE

    shipped = WEIGHTS_FILE.read_bytes()
    _, figures = quick("gomoku_tune", "--write")
    assert figures["games"] == 2 and figures["positions"] > 10 and figures["scale"] > 0
    assert set(figures["held_out_loss"]) == {"hand", "shipped", "patterns", "tuned", "even"}
    assert set(figures["weights"]["mover"]) == set(NAMES)
    assert WEIGHTS_FILE.read_bytes() == shipped
