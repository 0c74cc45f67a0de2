"""``parlour play war`` and ``parlour simulate war``, and the statistics RULES.md expects."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from parlour.cli import main
from parlour.games.war import war_rules
from parlour.games.war_kernel import play_one, simulate


def run(*args: str, stdin: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), input=stdin)
    return result.exit_code, result.output


def test_simulate_json_is_the_same_whatever_the_jobs() -> None:
    base = ("simulate", "war", "--games", "3000", "--seed", "8", "--max-rounds", "none", "--json")
    # stdout alone: stderr may carry a progress bar or a "warming up" note
    results = [CliRunner().invoke(main, [*base, "--jobs", jobs]) for jobs in ("1", "2")]
    assert results[0].exit_code == 0 and results[0].stdout == results[1].stdout
    data = json.loads(results[0].stdout)
    assert data["games"] == 3000 and data["options"]["seed"] == 8
    assert data["wins"]["player0"] + data["wins"]["player1"] + data["ties"] == 3000
    assert data["endings"] == {"out_of_cards": 3000, "round_limit": 0, "cycle": 0}
    assert set(data["stats"]) == {"rounds", "battles", "wars"}
    assert set(data["stats"]["rounds"]) == {"mean", "median", "p90", "p99", "max"}
    assert sum(b["games"] for b in data["rounds_histogram"]) == 3000


def test_simulate_text_report() -> None:
    code, out = run("simulate", "war", "--games", "500", "--seed", "2", "--pickup", "played")
    assert code == 0
    assert "player 0 wins" in out and "round limit" in out and "cycles" in out
    assert "rounds" in out and "median" in out and "games/s" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--pickup", "random"), "option pickup must be one of"),
        (("--max-rounds", "0"), "max_rounds must be at least 1"),
        (("--max-rounds", "many"), "max_rounds must be a whole number"),
        (("--deck", "AC,AC"), "deck lists a card twice"),
        (("--deck", "AC,XX"), "'XX' is not a card"),
        (("--long-game-winner", "most"), "long_game_winner must be one of"),
        (("--seed", "x"), "seed must be a whole number"),
        (("--jobs", "99"), "--jobs can be at most"),
        (("--games", "0"), "Invalid value for '--games'"),
    ],
)
def test_simulate_refuses_bad_options(args: tuple[str, ...], message: str) -> None:
    code, out = run("simulate", "war", *args)
    assert code == 2 and message in out and "Traceback" not in out


def test_play_shows_cards_wars_takes_and_the_end() -> None:
    # seed 3, game 0 of the full deck has a war in round 5 (see the kernel's account)
    code, out = run("play", "war", "--seed", "3", "--delay", "0", "--max-rounds", "6")
    assert code == 0
    lines = out.splitlines()
    assert "Dealt 26 and 26 cards." in lines
    assert "10♥ vs 6♦" in lines
    assert "  war! 2 face down each, then 6♥ vs J♥" in lines
    assert "  round 5: player 1 takes 8 cards  (stacks 24 : 28)" in lines
    outcome = play_one(war_rules(seed=3, max_rounds=6))
    assert outcome.describe() in lines
    assert lines[-1] == "Replay it with --seed 3 --game 0."


def test_play_ascii_fast_and_step() -> None:
    code, out = run("play", "war", "--seed", "3", "--delay", "0", "--ascii", "--max-rounds", "2")
    assert code == 0 and "10H vs 6D" in out
    code, out = run("play", "war", "--seed", "3", "--fast")
    assert code == 0 and len(out.splitlines()) == 3 and "round limit of 50 rounds" in out
    code, out = run("play", "war", "--seed", "3", "--step", "--max-rounds", "3", stdin="\n\n\n")
    assert code == 0 and out.count("Enter for the next round") == 3
    code, out = run("play", "war", "--step", "--fast")
    assert code == 2 and "cannot go together" in out


def test_play_small_deck_ends_out_of_cards() -> None:
    code, out = run("play", "war", "--seed", "1", "--deck", "small", "--delay", "0")
    assert code == 0 and ("out of cards" in out or "round limit" in out)
    assert out.count(" vs ") >= 1


def test_statistics_near_rules_md() -> None:
    """RULES.md: without a limit, mean about 350 rounds, median about 265, wins even."""
    summary = simulate(war_rules(seed=12345, max_rounds="none"), 40_000)
    rounds = summary.stats["rounds"]
    assert 335 < rounds["mean"] < 365
    assert 250 <= rounds["median"] <= 280
    assert abs(summary.wins[0] - summary.wins[1]) < 0.03 * summary.games
