"""``parlour play war`` and ``parlour simulate war``: the seed's Dealer at the terminal, and
millions of games in the compiled kernel.

``play war`` shows one game round by round as the Dealer's events arrive: both face-up
cards by name, wars with their face-down cards, who took the table and each stack's
size, then who won and why.  ``simulate war`` plays many games over every core with a
progress bar and prints wins, endings and the spread of game lengths (``--json``: one
JSON object).  Both take the rule options of RULES.md section 4 as flags.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import secrets
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from parlour.actors.runtime import Actor
from parlour.cli import play, simulate
from parlour.cli._common import seconds_type, whole_type
from parlour.core import MAX_SEED

if TYPE_CHECKING:
    from parlour.games.war import WarRules
    from parlour.games.war_kernel import Summary

DEFAULT_DELAY = 0.25
MAX_GAMES = 10**12
MAX_JOBS = 1024


def rule_flags(func: Callable[..., Any]) -> Callable[..., Any]:
    """The options of War as flags (None: the rule set's default)."""
    flags = [
        click.option("--seed", help="Seed of the random generator (default: a fresh one)."),
        click.option(
            "--deck", help="full (default), small (A K Q J of clubs, diamonds) or cards: AC,KD,..."
        ),
        click.option(
            "--pickup",
            help="Order of the won cards: shuffled (default), winner_first or played.",
        ),
        click.option("--max-rounds", help="Rounds before the game stops (default 50; none)."),
        click.option(
            "--long-game-winner", help="Who wins at the round limit: fewer (default) or more."
        ),
    ]
    for flag in reversed(flags):
        func = flag(func)
    return func


def make_rules(**flags: str | None) -> WarRules:
    """The rule set the flags ask for, with a fresh seed when none is given.

    A bad value is a usage error naming the option, never a traceback.
    """
    from parlour.core import BadOption
    from parlour.games.war import war_rules

    try:
        rules = war_rules(**{name: value for name, value in flags.items() if value is not None})
    except BadOption as error:
        raise click.UsageError(str(error)) from None
    if rules.seed is None:
        rules = dataclasses.replace(rules, seed=secrets.randbelow(2**31))
    return rules


def describe_rules(rules: WarRules) -> str:
    """The options in one line, as the flags would set them."""
    from parlour.games.war import FULL_DECK, SMALL_DECK, card_name

    named = {FULL_DECK: "full", SMALL_DECK: "small"}
    deck = named.get(rules.deck) or ",".join(card_name(c, ascii_only=True) for c in rules.deck)
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
    FEWER cards wins, the seed's own rule (--long-game-winner more for the usual one).
    """
    if step and fast:
        raise click.UsageError("--step and --fast cannot go together")
    rules = make_rules(**flags)
    ascii_only = ascii_only or not _can_show_suits()
    click.echo(f"War, game {index}: {describe_rules(rules)}.")
    try:
        outcome_line = asyncio.run(_watch(rules, index, fast, step, delay, ascii_only))
    except KeyboardInterrupt:
        click.echo("\nStopped.")
        sys.exit(130)
    click.echo(outcome_line)
    click.echo(f"Replay it with --seed {rules.seed} --game {index}.")


async def _watch(
    rules: WarRules, index: int, fast: bool, step: bool, delay: float, ascii_only: bool
) -> str:
    """Run the game with the table shown by an observer; the last line to print."""
    from parlour.actors.dealer import play_war as run
    from parlour.actors.runtime import spawn

    if fast:
        outcome = await run(rules, index)
        return outcome.describe()
    table = TableView(ascii_only, step, delay)
    ref = spawn(table)
    outcome = await run(rules, index, [ref])
    await ref.join()
    return outcome.describe()


class TableView(Actor):
    """Prints the Dealer's events as they come, pausing after each round.

    It keeps each stack's size from the events alone (dealt, put, taken): like the
    Dealer, it never looks at a Player's stack.
    """

    def __init__(self, ascii_only: bool, step: bool, delay: float) -> None:
        self._ascii, self._step, self._delay = ascii_only, step, delay
        self._counts = [0, 0]

    async def receive(self, message: Any) -> None:
        from parlour.actors.dealer import Dealt, Finished, TookTable, Turned

        match message:
            case Dealt(counts):
                self._counts = list(counts)
                click.echo(f"Dealt {counts[0]} and {counts[1]} cards.\n")
            case Turned(cards, war):
                self._counts[0] -= len(cards[0])
                self._counts[1] -= len(cards[1])
                click.echo(self._turned(cards, war))
            case TookTable(player, cards, round_number):
                self._counts[player] += len(cards)
                click.echo(
                    f"  round {round_number}: player {player} takes {len(cards)} cards"
                    f"  (stacks {self._counts[0]} : {self._counts[1]})"
                )
                await self._pause()
            case Finished():
                click.echo("")
                self.stop("finished")

    def _turned(self, cards: tuple[tuple[int, ...], tuple[int, ...]], war: int) -> str:
        from parlour.games.war import card_name

        if not cards[0] or not cards[1]:
            out = [p for p in (0, 1) if not cards[p]]
            who = "both players have" if len(out) == 2 else f"player {out[0]} has"
            return f"  {who} no card left to put"
        up = " vs ".join(card_name(c[-1], self._ascii) for c in cards)
        if war == 0:
            return f"{up}"
        down = [len(c) - 1 for c in cards]
        face_down = (
            f"{down[0]} face down each"
            if down[0] == down[1]
            else (f"{down[0]} and {down[1]} face down")
        )
        return f"  war{'' if war == 1 else f' #{war}'}! {face_down}, then {up}"

    async def _pause(self) -> None:
        if self._step:
            await asyncio.get_running_loop().run_in_executor(None, _wait_for_enter)
        elif self._delay:
            await asyncio.sleep(self._delay)


def _wait_for_enter() -> None:
    with contextlib.suppress(EOFError):  # no more input: go on without pausing
        input("  (Enter for the next round) ")


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
def simulate_war(games: int, jobs: int | None, as_json: bool, **flags: str | None) -> None:
    """Play many games of War in the compiled kernel and print their statistics.

    The same seed gives the same numbers whatever --jobs is: each game draws from its own
    stream of the generator.
    """
    import numba
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from parlour.games.war_kernel import simulate as run

    rules = make_rules(**flags)
    most = numba.config.NUMBA_NUM_THREADS  # type: ignore[attr-defined]
    if jobs is not None and jobs > most:
        raise click.UsageError(f"--jobs can be at most {most} here (the cores numba may use)")
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
        summary = run(rules, games, jobs=jobs, progress=lambda n: progress.advance(task, n))
    seconds = time.perf_counter() - started
    if as_json:
        click.echo(json.dumps(summary.as_json()))
    else:
        click.echo(report(summary, seconds))


def report(summary: Summary, seconds: float) -> str:
    """The statistics as text: wins, endings, a table of spreads and a histogram."""
    games = summary.games

    def share(n: int) -> str:
        return f"{n:>12,}  ({100 * n / games:5.1f}%)"

    lines = [
        f"War: {games:,} games, {describe_rules(summary.rules)}",
        "",
        f"player 0 wins {share(summary.wins[0])}",
        f"player 1 wins {share(summary.wins[1])}",
        f"ties          {share(summary.ties)}",
        f"out of cards  {share(summary.endings['out_of_cards'])}",
        f"round limit   {share(summary.endings['round_limit'])}",
        f"cycles        {share(summary.endings['cycle'])}",
        "",
        f"{'per game':<10}{'mean':>9}{'median':>8}{'p90':>8}{'p99':>8}{'max':>9}",
    ]
    for name, stats in summary.stats.items():
        lines.append(
            f"{name:<10}{stats['mean']:>9.1f}{stats['median']:>8}{stats['p90']:>8}"
            f"{stats['p99']:>8}{stats['max']:>9}"
        )
    lines += ["", "rounds        games"]
    most = max((n for _, _, n in summary.lengths), default=0) or 1
    for low, high, n in summary.lengths:
        bar = "#" * round(40 * n / most)
        lines.append(f"{low:>5}-{high:<6}{n:>10,}  {bar}")
    rate = games / seconds if seconds > 0 else float("inf")
    lines += ["", f"time {seconds:.2f} s, {rate:,.0f} games/s"]
    return "\n".join(lines)
