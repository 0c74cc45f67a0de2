"""``parlour play war`` and ``parlour simulate war``: the seed's Dealer at the terminal, and
millions of games in the compiled kernel.

``play war`` shows one game round by round as the Dealer's events arrive: both face-up
cards by name, wars with their face-down cards, who took the table and each stack's
size, then who won and why.  The seats are "Player 1" and "Player 2" on screen (seats 0
and 1 of the API).  ``simulate war`` plays many games over every core with a
progress bar and prints wins, endings and the spread of game lengths (``--json``: one
JSON object).  Both take the rule options of RULES.md section 4 as flags.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import secrets
import sys
import time
from functools import partial
from typing import TYPE_CHECKING

import click

from parlour.cli import play, simulate
from parlour.cli._common import option_flags, seconds_type, whole_type
from parlour.core import MAX_SEED
from parlour.games.war.options import OPTIONS

if TYPE_CHECKING:
    from parlour.games.war.kernel import Summary
    from parlour.games.war.rules import WarRules
    from parlour.players.keyboard import LineSource

DEFAULT_DELAY = 0.25
MAX_GAMES = 10**12
MAX_JOBS = 1024


rule_flags = option_flags(OPTIONS)
"""The options of War as flags (None: the rule set's default)."""


def make_rules(**flags: str | None) -> WarRules:
    """The rule set the flags ask for, with a fresh seed when none is given.

    A bad value is a usage error naming the option, never a traceback.
    """
    from parlour.core import BadOption
    from parlour.games.war.game import war_rules

    try:
        rules = war_rules(**{name: value for name, value in flags.items() if value is not None})
    except BadOption as error:
        raise click.UsageError(str(error)) from None
    if rules.seed is None:
        rules = dataclasses.replace(rules, seed=secrets.randbelow(2**31))
    return rules


def describe_rules(rules: WarRules) -> str:
    """The options in one line, as the flags would set them."""
    from parlour.games.war.rules import spell_deck

    deck = spell_deck(rules.deck)
    limit = "none" if rules.max_rounds is None else rules.max_rounds
    return (
        f"seed {rules.seed}, deck {deck}, pickup {rules.pickup}, max rounds {limit}, "
        f"long-game winner {rules.long_game_winner}"
    )


# ---------------------------------------------------------------- play


def _can_show_suits() -> bool:
    try:
        "♠♥♦♣".encode(sys.stdout.encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


@play.command("war")
@rule_flags
@click.option(
    "--game", "index", type=whole_type("the game", 0, MAX_SEED), default=0, help="Game of the run."
)
@click.option("--step", is_flag=True, help="Wait for Enter after each round.")
@click.option("--fast", is_flag=True, help="Print only the result.")
@click.option(
    "--delay",
    type=seconds_type(0),
    default=DEFAULT_DELAY,
    show_default=True,
    help="Seconds between rounds.",
)
@click.option("--ascii", "ascii_only", is_flag=True, help="Suits as letters: KS for K♠.")
def play_war(
    index: int,
    step: bool,
    fast: bool,
    delay: float,
    ascii_only: bool,
    **flags: str | None,
) -> None:
    """Watch a game of War: the Dealer asks two Players for cards, battle by battle.

    The higher card takes both; equal cards mean war: two cards face down and one face up
    each.  The game stops at the round limit (50 by default), and then the player with
    FEWER cards wins, this game's own rule (--long-game-winner more for the usual one).
    """
    if step and fast:
        raise click.UsageError("--step and --fast cannot go together")
    rules = make_rules(**flags)
    ascii_only = ascii_only or not _can_show_suits()
    click.echo(f"War, game {index}: {describe_rules(rules)}.")
    from parlour.cli._common import warm
    from parlour.games.war.dealer import play_war as run
    from parlour.players.keyboard import keyboard

    tiny = dataclasses.replace(rules, deck=rules.deck[:2], max_rounds=1)
    warm(lambda: asyncio.run(run(tiny, 0)), "the game")  # the Dealer's rules, compiled

    with keyboard(sys.stdout) as keys:
        outcome_line = asyncio.run(_watch(rules, index, fast, delay, ascii_only, keys, step))
    click.echo(outcome_line)
    click.echo(f"Replay it with --seed {rules.seed} --game {index}.")


async def _watch(
    rules: WarRules,
    index: int,
    fast: bool,
    delay: float,
    ascii_only: bool,
    keys: LineSource,
    step: bool,
) -> str:
    """Run the game with the table shown by an observer (waiting for ``keys`` between
    rounds with ``step``); the last line to print."""
    from parlour.actors.runtime import spawn
    from parlour.games.war.dealer import play_war as run
    from parlour.games.war.rules import describe
    from parlour.games.war.screen import WarScreen
    from parlour.players.keyboard import QUITTED

    if fast:
        return describe(await run(rules, index))
    ref = spawn(WarScreen(ascii_only, delay, keys if step else None))
    game = asyncio.ensure_future(run(rules, index, [ref]))
    stopped = await ref.join()
    if stopped.reason == QUITTED:  # q, quit or the end of input at the Enter prompt
        game.cancel()
        return "You left the game."
    return describe(await game)


# ---------------------------------------------------------------- simulate


@simulate.command("war")
@click.option(
    "--games",
    type=whole_type("the number of games", 1, MAX_GAMES),
    default=100_000,
    show_default=True,
    help="Games.",
)
@click.option(
    "--jobs",
    type=whole_type("the number of threads", 1, MAX_JOBS),
    help="Threads (default: every core).",
)
@rule_flags
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option(
    "--executor",
    type=click.Choice(["local", "ray"]),
    default="local",
    show_default=True,
    help="This machine's cores, or a Ray cluster (--jobs: its tasks at once).",
)
@click.option("--address", help="The Ray cluster's address (default: start one here).")
def simulate_war(
    games: int,
    jobs: int | None,
    as_json: bool,
    executor: str,
    address: str | None,
    **flags: str | None,
) -> None:
    """Play many games of War in the compiled kernel and print their statistics.

    The same seed gives the same numbers whatever --jobs is: each game draws from its own
    stream of the generator.  The time reported is the games' alone: the kernel is
    compiled (or loaded from numba's cache) first, on a one-round game.
    """
    import numba
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from parlour.cli._common import interruptible, warm
    from parlour.games.war.kernel import simulate as run

    rules = make_rules(**flags)
    most = numba.config.NUMBA_NUM_THREADS  # type: ignore[attr-defined]
    if address is not None and executor != "ray":
        raise click.UsageError("--address is for --executor ray")
    if jobs is not None and jobs > most and executor == "local":
        raise click.UsageError(f"--jobs can be at most {most} here (the cores numba may use)")
    tiny = dataclasses.replace(rules, deck=rules.deck[:2], max_rounds=1)
    warm(lambda: run(tiny, 1, jobs=jobs), "the simulator")  # the real run's types: its kernel
    progress = Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    started = time.perf_counter()
    with progress:
        task = progress.add_task("War", total=games)
        advance = partial(progress.advance, task)
        if executor == "ray":
            from parlour.core import ParlourError
            from parlour.games.war.cluster import simulate_on_ray as on_ray

            try:
                summary = on_ray(rules, games, advance, jobs, address)
            except ParlourError as error:
                raise click.UsageError(str(error)) from None
        else:
            summary = interruptible(lambda: run(rules, games, jobs=jobs, progress=advance))
    seconds = time.perf_counter() - started
    if as_json:
        click.echo(json.dumps(summary.as_json()))
    else:
        click.echo(report(summary, seconds))


def report(summary: Summary, seconds: float) -> str:
    """The statistics as text: wins, endings, a table of spreads and a histogram, each
    in columns as wide as their widest number."""
    from parlour.games.war.rules import player_name

    games = summary.games

    def counted(label: str, n: int) -> list[str]:
        return [label, f"{n:,}", f"({100 * n / games:.1f}%)"]

    counts = [
        counted(f"{player_name(0)} wins", summary.wins[0]),
        counted(f"{player_name(1)} wins", summary.wins[1]),
        counted("ties", summary.ties),
        counted("out of cards", summary.endings["out_of_cards"]),
        counted("round limit", summary.endings["round_limit"]),
        counted("cycles", summary.endings["cycle"]),
    ]
    spreads = [["per game", "mean", "median", "p90", "p99", "max"]] + [
        [name, f"{s['mean']:,.1f}", *(f"{s[k]:,}" for k in ("median", "p90", "p99", "max"))]
        for name, s in summary.stats.items()
    ]
    most = max((n for _, _, n in summary.lengths), default=0) or 1
    lengths = [["rounds", "games", ""]] + [
        [f"{low:,}-{high:,}", f"{n:,}", "#" * round(40 * n / most)]
        for low, high, n in summary.lengths
    ]
    rate = games / seconds if seconds > 0 else float("inf")
    return "\n".join(
        [
            f"War: {games:,} games, {describe_rules(summary.rules)}",
            "",
            *columns(counts),
            "",
            *columns(spreads),
            "",
            *columns(lengths, bar=True),
            "",
            f"time {seconds:.2f} s, {rate:,.0f} games/s",
        ]
    )


def columns(rows: list[list[str]], bar: bool = False) -> list[str]:
    """The rows as lines of columns two spaces apart, each as wide as its widest cell:
    the first column (the labels) left-aligned, the numbers right-aligned, and a ``bar``
    last column left as it is."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [row[0].ljust(widths[0])]
        cells += [cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True)]
        if bar:
            cells[-1] = row[-1]
        lines.append("  ".join(cells).rstrip())
    return lines
