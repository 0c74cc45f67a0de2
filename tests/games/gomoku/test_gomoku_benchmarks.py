"""Five in a row's benchmarks: the tactical suite and the self-play run with ``--quick``
(tests/test_benchmarks.py's way: each must still run, and record nothing), and the engine
match's CPU report."""

from __future__ import annotations

import importlib

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
