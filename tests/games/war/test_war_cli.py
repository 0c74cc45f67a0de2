"""``parlour play war`` and ``parlour simulate war``, and the statistics RULES.md expects."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest
from click.testing import CliRunner

from helpers import spawn_parlour
from parlour.actors.runtime import spawn
from parlour.cli import main
from parlour.games.war import cli as war_cli
from parlour.games.war import kernel as war_kernel
from parlour.games.war.dealer import play_war
from parlour.games.war.game import war_rules
from parlour.games.war.kernel import Summary, play_one, simulate
from parlour.games.war.options import OPTIONS
from parlour.games.war.rules import card_name, deal, describe
from parlour.games.war.screen import WarScreen
from parlour.rng import new_rng

PARLOUR = str(Path(sys.executable).parent / "parlour")


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
    assert data["options"]["deck"] == "full"  # as --deck takes it, not 52 numbers
    assert data["wins"]["player0"] + data["wins"]["player1"] + data["ties"] == 3000
    assert data["endings"] == {"out_of_cards": 3000, "round_limit": 0, "cycle": 0}
    assert set(data["stats"]) == {"rounds", "battles", "wars"}
    assert set(data["stats"]["rounds"]) == {"mean", "median", "p90", "p99", "max"}
    assert sum(b["games"] for b in data["rounds_histogram"]) == 3000


def test_simulate_text_report() -> None:
    code, out = run("simulate", "war", "--games", "500", "--seed", "2", "--pickup", "played")
    assert code == 0
    assert "Player 1 wins" in out and "Player 2 wins" in out and "player 0" not in out
    assert "round limit" in out and "cycles" in out
    assert "rounds" in out and "median" in out and "games/s" in out


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_every_option_is_a_flag_with_its_help_and_default(command: str) -> None:
    code, out = run(command, "war", "--help")
    text = " ".join(out.split())  # click wraps the help
    assert code == 0
    for option in OPTIONS:
        flag = "--" + option.name.replace("_", "-")
        default = "none" if option.default is None else str(option.default)
        words = f"{option.help[:1].upper()}{option.help[1:]}. [default: {default}]"
        assert f" {flag} " in text and words in text, option.name


@pytest.mark.parametrize("option", [option.name for option in OPTIONS])
def test_a_bad_option_value_is_refused_naming_the_option(option: str) -> None:
    code, out = run("simulate", "war", "--games", "1", f"--{option.replace('_', '-')}", "bogus")
    assert code == 2 and re.search(rf"option {option}\b", out) and "Traceback" not in out


def test_help_builds_war_flags_without_loading_the_compiled_rules() -> None:
    code = (
        "import sys; from parlour.cli import main\n"
        "try: main(['play', 'war', '--help'])\n"
        "except SystemExit: print('numba' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "--max-rounds" in done.stdout and done.stdout.splitlines()[-1] == "False"


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


def test_play_shows_cards_wars_with_the_face_down_cards_takes_and_the_end() -> None:
    # seed 3, game 0 of the full deck has a war in round 5 (see the kernel's account)
    code, out = run("play", "war", "--seed", "3", "--delay", "0", "--max-rounds", "6")
    assert code == 0
    lines = out.splitlines()
    assert "Dealt 26 and 26 cards." in lines
    assert "10♥ vs 6♦" in lines
    # the war of round 5 puts cards 6, 7 (face down) and 8 (face up) of each dealt stack
    stacks = [[card_name(int(c)) for c in s] for s in deal(war_rules().deck_array, new_rng(3, 0))]
    assert stacks[0][4:8] == ["2♦", "J♦", "Q♥", "6♥"] and stacks[1][4:8] == ["2♣", "Q♣", "A♣", "J♥"]
    assert "2♦ vs 2♣" in lines
    assert "  war! 2 face down each: [J♦ Q♥] and [Q♣ A♣], then 6♥ vs J♥" in lines
    assert "  round 5: Player 2 takes 8 cards  (stacks 24 : 28)" in lines
    outcome = play_one(war_rules(seed=3, max_rounds=6))
    assert describe(outcome) in lines
    assert describe(outcome) == (
        "Player 1 wins at the round limit of 6 rounds "
        "(Player 1 holds 23 cards, Player 2 29: fewer cards win)"
    )
    assert lines[-1] == "Replay it with --seed 3 --game 0."


async def test_a_short_war_and_an_empty_stack_on_screen(capsys: pytest.CaptureFixture[str]) -> None:
    rules = war_rules(pickup="played", max_rounds="none")
    for stacks in (([0, 5], [13, 18, 19, 20]), ([0, 5, 6, 7, 1], [13, 18, 19, 20])):
        table = spawn(WarScreen(ascii_only=True, delay=0))
        await play_war(rules, observers=[table], stacks=stacks)
        await table.join()
    lines = capsys.readouterr().out.splitlines()
    # A♣ vs A♦; Player 1 has one card left for the war: none face down, the 6♣ face up
    assert "  war! 0 and 2 face down: [] and [6D 7D], then 6C vs 8D" in lines
    assert "  round 1: Player 2 takes 6 cards  (stacks 0 : 6)" in lines
    # A♣ vs A♦, a full war of eights, then a second war Player 2 cannot put a card to
    assert "  war! 2 face down each: [6C 7C] and [6D 7D], then 8C vs 8D" in lines
    assert "  Player 2 has no card left to put" in lines


def test_simulate_table_stays_in_columns_with_huge_numbers() -> None:
    big = {"mean": 10_524_539.4, "median": 49_342, "p90": 151_700, "p99": 301_086_058}
    stats = {name: {**big, "max": 301_086_058} for name in ("rounds", "battles", "wars")}
    stats["wars"] = {"mean": 3.1, "median": 3, "p90": 5, "p99": 8, "max": 14}
    summary = Summary(
        rules=war_rules(seed=1, pickup="played", max_rounds="none"),
        games=1_234_567_890,
        wins=(1_000_000_000, 7),
        ties=234_567_883,
        endings={"out_of_cards": 1_000_000_007, "round_limit": 0, "cycle": 234_567_883},
        stats=stats,
        lengths=[(41, 822, 9), (823, 301_086_058, 1_234_567_881)],
    )
    blocks = [block.splitlines() for block in war_cli.report(summary, 2.0).split("\n\n")]
    counts, spreads, histogram = blocks[1], blocks[2], blocks[3]
    assert spreads[1] == "rounds    10,524,539.4  49,342  151,700  301,086,058  301,086,058"

    def ends(line: str) -> list[int]:
        return [m.end() for m in re.finditer(r"\S+", line)]

    # the right edges of the number columns are the same on every line
    assert len({tuple(ends(line)[-2:]) for line in counts}) == 1
    assert len({tuple(ends(line)[-5:]) for line in spreads}) == 1
    assert len({ends(line)[1] for line in histogram}) == 1
    assert counts[0].startswith("Player 1 wins") and "(81.0%)" in counts[0]
    assert histogram[2].startswith("823-301,086,058  1,234,567,881  ####")


def test_simulate_times_the_games_after_compiling(monkeypatch: pytest.MonkeyPatch) -> None:
    events: list[object] = []
    real_simulate, real_clock = war_kernel.simulate, war_cli.time.perf_counter

    def logged_simulate(rules: object, games: int, **kwargs: object) -> Summary:
        events.append(("games", games))
        return real_simulate(rules, games, **kwargs)  # type: ignore[arg-type]

    def logged_clock() -> float:
        events.append("clock")
        return real_clock()

    monkeypatch.setattr(war_kernel, "simulate", logged_simulate)
    monkeypatch.setattr(war_cli.time, "perf_counter", logged_clock)
    code, out = run("simulate", "war", "--games", "50", "--seed", "4")
    assert code == 0 and "games/s" in out
    assert events == [("games", 1), "clock", ("games", 50), "clock"]


def test_play_ascii_fast_and_step() -> None:
    code, out = run("play", "war", "--seed", "3", "--delay", "0", "--ascii", "--max-rounds", "2")
    assert code == 0 and "10H vs 6D" in out
    code, out = run("play", "war", "--seed", "3", "--fast")
    assert code == 0 and len(out.splitlines()) == 3 and "round limit of 50 rounds" in out
    code, out = run("play", "war", "--step", "--fast")
    assert code == 2 and "cannot go together" in out


def spawn_step(*args: str) -> pexpect.spawn:
    child = spawn_parlour("play", "war", "--step", *args)
    child.logfile_read = io.StringIO()
    return child


def test_step_waits_for_enter_each_round() -> None:
    child = spawn_step("--seed", "3", "--max-rounds", "3")
    for round_number in (1, 2, 3):
        child.expect_exact(f"round {round_number}: ")
        child.expect_exact("(Enter for the next round) ")
        child.sendline("")
    child.expect_exact("Replay it with --seed 3 --game 0.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_ctrl_c_at_the_enter_prompt_stops_with_one_line() -> None:
    child = spawn_step("--seed", "3")
    child.expect_exact("(Enter for the next round) ")
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    after = child.logfile_read.getvalue().rsplit("(Enter for the next round) ", 1)[1]
    assert after.split() == ["^C", "Interrupted."] or after.split() == ["Interrupted."]


@pytest.mark.parametrize("leave", ["q", "quit", "ctrl-d"])
def test_q_quit_or_ctrl_d_at_the_enter_prompt_leave_the_game(leave: str) -> None:
    child = spawn_step("--seed", "3", "--max-rounds", "none")
    child.expect_exact("(Enter for the next round) ")
    child.sendline("")
    child.expect_exact("(Enter for the next round) ")
    if leave == "ctrl-d":
        child.sendeof()
    else:
        child.sendline(leave)
    child.expect_exact("You left the game.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and "round 3:" not in child.logfile_read.getvalue()


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
