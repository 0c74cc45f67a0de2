"""Every benchmark runs once with ``--quick`` (tiny arguments, nothing recorded), so that none
rots (each run is ``slow``: a process that compiles or loads its kernels); and the record a
real run appends to ``benchmarks/results``."""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import parlour
from helpers import exhaustive, mover_value
from parlour.search.engine import Engine

ROOT = Path(__file__).parents[1]
BENCHMARKS = ROOT / "benchmarks"
PEERS = BENCHMARKS / ".venv-gomoku" / "bin" / "python"
WATCHED = [BENCHMARKS / "results", ROOT / "src" / "parlour" / "search" / "evaluations"]
"""What a quick run must leave as it was: the results and the learned tables."""


def load(name: str) -> ModuleType:
    """A module of ``benchmarks/`` (a script that imports ``record`` needs ``BENCHMARKS`` on
    the path)."""
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


RECORD = load("record")


def snapshot() -> dict[Path, str]:
    return {
        path: hashlib.sha256(path.read_bytes()).hexdigest()
        for folder in WATCHED
        for path in sorted(folder.glob("*"))
    }


def quick(script: str, *extra: str, python: Path | str = sys.executable) -> tuple[str, Any]:
    """Run ``script`` with ``--quick``: what it printed and the figures of the record it did
    not write (it must exit 0 and leave ``WATCHED`` as it was)."""
    before = snapshot()
    done = subprocess.run(
        [str(python), str(BENCHMARKS / f"{script}.py"), "--quick", *extra],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert snapshot() == before
    prefix = RECORD.UNRECORDED
    lines = [line for line in done.stdout.splitlines() if line.startswith(prefix)]
    assert len(lines) == 1, done.stdout
    return done.stdout, json.loads(lines[0].removeprefix(prefix))["figures"]


@pytest.mark.slow
def test_perft_counts_as_the_kernel_does() -> None:
    printed, figures = quick("perft")
    assert figures["leaves"] == parlour.game("kalah").start().perft(5)
    assert "parlour / C" in printed
    assert all(rate > 0 for rate in figures["leaves_per_second"].values())


@pytest.mark.slow
def test_ayo_perft() -> None:
    _, figures = quick("ayo_perft")
    start = parlour.game("ayo", first=0).start()
    assert [row["depth"] for row in figures["perft"]] == [1, 2, 3, 4]
    assert [row["leaves"] for row in figures["perft"]] == [start.perft(d) for d in range(1, 5)]
    assert figures["state_moves_per_second"] > 0


@pytest.mark.slow
def test_engine_depth_counts_the_engines_nodes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The nodes two versions compare are the engine's own on the script's positions."""
    _, figures = quick("engine_depth", "--positions", "3")
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    states = load("engine_depth").positions(3, 7)
    assert figures["nodes"] == sum(Engine().search(s, depth=6).nodes for s in states)


@pytest.mark.slow
def test_engine_vs_openspiel_finds_a_level_opening() -> None:
    _, figures = quick("engine_vs_openspiel", "--opponents", "random", "--find-openings", "1")
    [opening] = figures["openings"]
    assert len(opening["moves"]) == 4
    assert opening["value"] == 0


@pytest.mark.slow
def test_engine_vs_openspiel() -> None:
    """Both bots and the random mover, every move compared on both boards."""
    _, figures = quick("engine_vs_openspiel")
    assert set(figures) == {"mcts", "alphabeta", "random"}
    for result in figures.values():
        assert result["wins"] + result["losses"] + result["draws"] == 2


@pytest.mark.slow
def test_playouts_rates_of_every_way() -> None:
    """The four ways play the same game: each one's share of player 0's wins is near the
    others' (about 48% on OpenSpiel's Kalah rules)."""
    printed, figures = quick("playouts")
    assert set(figures["games_per_second"]) == {
        "openspiel_cpp",
        "batch_playouts",
        "batch_steps",
        "pettingzoo_env",
    }
    assert all(rate > 0 for rate in figures["games_per_second"].values())
    assert all(0.2 < share < 0.8 for share in figures["player_0_wins"].values())
    assert "batch / OpenSpiel C++" in printed


@pytest.mark.slow
def test_evaluation_selfplay() -> None:
    _, figures = quick("evaluation_selfplay")
    assert figures["wins"] + figures["losses"] + figures["draws"] == 2


@pytest.mark.slow
def test_train_evaluation_writes_no_table() -> None:
    printed, figures = quick("train_evaluation")
    assert figures["kalah"]["positions"] == 40
    assert figures["kalah"]["held_out"] == 8
    assert "wrote" not in printed


@pytest.mark.slow
def test_war_rates_and_agreement() -> None:
    """The script itself checks the actors and plain Python against the kernel."""
    _, figures = quick("war")
    assert figures["checked"]["actors"] > 0 and figures["checked"]["python"] > 0
    assert all(rate > 0 for rate in figures["games_per_second"].values())
    assert 0 < figures["player_0_wins"] < 1


@pytest.mark.slow
def test_gomoku_search_finds_each_threat_with_either_table() -> None:
    _, figures = quick("gomoku_search")
    assert figures["main_search"]["positions"] > 0
    found: dict[str, set[str]] = {}
    for row in figures["threat_search"]:
        found.setdefault(row["after"], set()).add(row["found"])
    assert len(found) == 3
    assert all(len(points) == 1 and "none" not in next(iter(points)) for points in found.values())


@pytest.mark.slow
def test_gomoku_lost_games_finds_the_losing_move(tmp_path: Path) -> None:
    """The first lost game of ``gomoku_search.py``: after J8, X has a VCT from G9."""
    output = tmp_path / "out.txt"
    output.write_text("  game 1: 0-1-0\n  lost as 0, from G8 I9: H8 H10 G11 J8 G9\n")
    _, figures = quick("gomoku_lost_games", str(output))
    [game] = figures["games"]
    assert (game["ply"], game["move"]) == (5, "J8")
    assert re.fullmatch(r"VCT of \d from G9", game["threat"])


def test_gomoku_lost_games_reads_both_benchmarks_lost_games_and_no_other(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``gomoku_vs_peers.py`` names a two-stone opening apart; ``gomoku_vs_engine.py`` gives
    every move from the opening's three stones on.  Won games and other lines are not read."""
    lines = [
        "  lost as 0, from G8 I9: H8 H10 G11",
        "  game  3: parlour X lost (the rules) in 41 s: H8 G7 J9 K10 L11",
        "  game 12: parlour 0 won (the rules) in 20 s: H8 G7 J9 K10",
        "  game 13: parlour 0 lost (time: 1.4 s) in 9 s: H8 G7 J9 K10",
        "parlour vs rapfi at 1 s a move: 0-2-0 (W-L-D) on the board",
    ]
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    found = list(load("gomoku_lost_games").lost_games(lines))
    assert found == [
        ("0", 2, ["G8", "I9", "H8", "H10", "G11"]),
        ("X", 3, ["H8", "G7", "J9", "K10", "L11"]),
        ("0", 3, ["H8", "G7", "J9", "K10"]),
    ]


@pytest.mark.slow
def test_gomoku_lost_games_of_an_engine_match_find_the_losing_move(tmp_path: Path) -> None:
    """The game of the test above as ``gomoku_vs_engine.py`` prints it: the same move; where
    the long search's score fell, it fell at that move or before, to ``FELL`` or below."""
    output = tmp_path / "out.txt"
    output.write_text("  game  1: parlour 0 lost (the rules) in 9 s: G8 I9 H8 H10 G11 J8 G9\n")
    _, figures = quick("gomoku_lost_games", str(output))
    [game] = figures["games"]
    assert (game["ply"], game["move"], game["opening"]) == (5, "J8", "G8 I9 H8")
    fell = game["fell"]
    assert not fell or (fell["ply"] <= 5 and fell["value"] <= -300)


def test_gomoku_lost_games_sees_no_threat_of_a_side_that_must_block_a_five(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """After X's F11 (F8 F9 F11 F12: a five point at F10) 0 must block: its four at J12
    would lose to X's five, so no VCF of 0's starts there (the tool said "VCF from J12",
    and took the move for the one that lost the game); one that starts with the block
    still counts."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    tool = load("gomoku_lost_games")
    state = parlour.game("gomoku", size=15).start()
    for name in [
        "H6",
        "G9",
        "H8",
        "I9",
        "F9",
        "G8",
        "G6",
        "G11",
        "G10",
        "H10",
        "F12",
        "I11",
        "F8",
        "J11",
        "F11",
    ]:
        state = state.play(state.parse_move(name))
    assert tool.opponent_threat(state, 2, 50_000) == ""
    blocked = state.play(state.parse_move("F10")).play(state.parse_move("A1"))
    assert tool.opponent_threat(blocked, 2, 50_000).startswith("VCF")
    # a block that is itself a threat starts one: X's E1 blocks 0's A1-D1 and makes two fours
    forced = parlour.game("gomoku", size=15).start()
    for name in ["E2", "A1", "E3", "B1", "E4", "C1", "F2", "D1", "G3", "N14", "H4", "O15"]:
        forced = forced.play(forced.parse_move(name))
    assert tool.opponent_threat(forced, 1, 50_000) == "VCF from E1"


@pytest.mark.slow
def test_gomoku_lost_games_reports_where_a_judges_score_fell(tmp_path: Path) -> None:
    """``--judge``: a stand-in that scores a position a hundred a stone for its side to move
    (X after 0's move at ply 3, four stones: -400 for 0), so that the judge's score for
    parlour fell at its first move, two before the threat its own search finds."""
    output = tmp_path / "out.txt"
    output.write_text("  game  1: parlour 0 lost (the rules) in 9 s: G8 I9 H8 H10 G11 J8 G9\n")
    brain = Path(__file__).parent / "games" / "gomoku" / "brains" / "misbehaving.py"
    judge = shlex.join([sys.executable, str(brain), "rapfi"])
    printed, figures = quick("gomoku_lost_games", str(output), "--judge", judge)
    [game] = figures["games"]
    assert game["judge_fell"] == {"ply": 3, "played": "H10", "value": -400}
    assert (game["ply"], game["move"]) == (5, "J8") and "the judge: -600" in printed


@pytest.mark.slow
def test_gomoku_vs_peers_stand_in() -> None:
    _, figures = quick("gomoku_vs_peers", "--peer", "stand-in: parlour level 1")
    [tally] = figures["stand-in: parlour level 1"]
    assert tally["wins"] + tally["losses"] + tally["draws"] == 2


@pytest.mark.skipif(
    not PEERS.exists(), reason="the peers are not in benchmarks/.venv-gomoku (see the script)"
)
@pytest.mark.slow
def test_gomoku_vs_peers() -> None:
    _, figures = quick("gomoku_vs_peers", python=PEERS)
    assert set(figures) == {"gomoku-terminal hard", "gomokubench hard"}
    for [tally] in figures.values():
        assert tally["wins"] + tally["losses"] + tally["draws"] == 2


def test_a_run_appends_its_record(tmp_path: Path) -> None:
    for depth in (3, 4):
        args = argparse.Namespace(depth=depth, quick=False, note="a test")
        RECORD.record(args, {"nodes": 2 / 3}, script="x/engine_depth.py", folder=tmp_path)
    lines = (tmp_path / "engine_depth.jsonl").read_text().splitlines()
    first, second = map(json.loads, lines)
    assert [first["arguments"], second["arguments"]] == [{"depth": 3}, {"depth": 4}]
    assert first["note"] == "a test" and first["figures"] == {"nodes": 0.6667}
    assert re.fullmatch(r"[0-9a-f]{7,}(\+dirty)?|unknown", first["commit"])
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", first["date"])
    assert first["cores"] >= 1


def test_quick_arguments_yield_to_the_command_line(monkeypatch: pytest.MonkeyPatch) -> None:
    for argv, depth in ((["--quick"], 2), (["--quick", "--depth", "5"], 5), ([], 16)):
        parser = argparse.ArgumentParser()
        parser.add_argument("--depth", type=int, default=16)
        parser.add_argument("--positions", type=int, default=40)
        monkeypatch.setattr(sys, "argv", ["engine_depth.py", *argv])
        args = RECORD.arguments(parser, quick={"depth": 2})
        assert (args.depth, args.positions, args.quick) == (depth, 40, bool(argv))


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("-1", "--games: the value must be a whole number"),  # argparse's int took it
        ("0", "--games: the value must be at least 1"),
        ("1e3", "--games: the value must be a whole number"),
        ("9" * 40, "--games: the value must be at most"),  # capped before arithmetic
        ("١٢", "--games: the value must be a whole number"),  # another script's digits
    ],
)
def test_a_benchmarks_count_is_read_by_parlours_number_reader(
    text: str, problem: str, capsys: pytest.CaptureFixture[str]
) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=RECORD.whole(1, 100))
    with pytest.raises(SystemExit) as refused:
        parser.parse_args(["--games", text])
    assert refused.value.code == 2 and problem in capsys.readouterr().err
    assert parser.parse_args(["--games", "007"]).games == 7


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("200,-1", "must be a whole number"),
        ("200,0", "must be at least 1"),
        ("1e3", "must be a whole number"),
    ],
)
def test_web_loads_game_counts_are_read_by_parlours_number_reader(
    text: str, problem: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=RECORD.refusing(load("web_load").counts))
    with pytest.raises(SystemExit) as refused:
        parser.parse_args(["--games", text])
    assert refused.value.code == 2 and f"each count {problem}" in capsys.readouterr().err
    assert parser.parse_args(["--games", "200,1000"]).games == [200, 1000]


@pytest.mark.parametrize("text", ["-0.5", "nan", "inf", "1e9", "0x10", "2 s", "99999"])
def test_a_benchmarks_time_is_read_by_parlours_seconds_reader(
    text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=RECORD.duration(0.0, 3600.0))
    with pytest.raises(SystemExit) as refused:
        parser.parse_args(["--seconds", text])
    assert (
        refused.value.code == 2
        and "argument --seconds: the value must be" in capsys.readouterr().err
    )
    assert parser.parse_args(["--seconds", "0.25"]).seconds == 0.25


PBRAIN = Path(sys.executable).parent / "pbrain-parlour"


@pytest.mark.skipif(
    not PBRAIN.exists(), reason="no Gomocup engine: pbrain-parlour is not installed"
)
@pytest.mark.slow
def test_gomoku_vs_engine_against_parlours_own_brain() -> None:
    """Two games through the engine player against parlour's own brain (any Gomocup
    engine's path serves: this one is always installed with parlour)."""
    printed, figures = quick("gomoku_vs_engine", str(PBRAIN))
    assert figures["wins"] + figures["losses"] + figures["draws"] == 2
    assert figures["forfeits"] == []  # who broke the rules, if anyone did, and how
    low, high = figures["interval_95"]
    assert 0 <= low <= figures["score"] <= high <= 1
    assert figures["parlour_seconds_a_move"]["max"] > 0
    assert "(W-L-D)" in printed


@pytest.mark.slow
def test_web_load_loses_no_game() -> None:
    """The script fails by itself on a game lost or corrupted; its figures add up."""
    _, figures = quick("web_load")
    assert figures["lost_or_corrupted"] == 0 and figures["connection_failures"] == 0
    assert figures["moves"] > figures["games"] and figures["moves_per_second"] > 0
    assert 0 < figures["round_trip_p50_ms"] <= figures["round_trip_p99_ms"]


@pytest.mark.slow
def test_arena_rates_agree_on_the_games() -> None:
    printed, figures = quick("arena")
    assert figures["games"] == 200 and figures["games_per_second"]["local"] > 0
    assert "local: 200 games" in printed


@pytest.mark.slow
def test_solve_proves_the_small_kalah_boards_as_an_exhaustive_search() -> None:

    _, figures = quick("solve")
    assert figures["table_positions"] == 924  # C(6 + 6, 6): 6 pits, up to 6 seeds
    assert set(figures["table_build_seconds_by_threads"]) == {"1", "2"}  # side by side
    for empty_capture in (True, False):
        for pits in (1, 2):
            row = figures["grid"][f"empty_capture={empty_capture} pits={pits}"]
            for seeds, shown in enumerate(row, start=1):
                game = parlour.game("kalah", pits=pits, seeds=seeds, empty_capture=empty_capture)
                value, move = shown.split()
                start = game.start()
                assert int(value) == exhaustive(start)
                assert mover_value(start, start.play("ABCDEF".index(move))) == int(value)
    main = parlour.game("kalah", pits=3, seeds=3).start()
    assert figures["main"]["value"].split()[0] == f"{exhaustive(main):+d}"
    by_threads = figures["main_by_threads"]
    assert set(by_threads) == {"1", "2"}
    assert {proof["value"] for proof in by_threads.values()} == {figures["main"]["value"]}
    following = parlour.game("kalah", pits=3, seeds=4).start()  # the next board, Kalah(3,4)
    assert figures["next"]["value"].split()[0] == f"{exhaustive(following):+d}"
