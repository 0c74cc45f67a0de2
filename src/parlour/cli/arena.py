"""``parlour match``, ``parlour tournament``, ``parlour games``, ``replay`` and ``export``:
programs playing each other by the thousand, every game recorded (:mod:`parlour.arena`).

A match or tournament killed at any moment is taken up again with ``--resume``: the
latest unfinished one of the database plays the games it lacks.
"""

from __future__ import annotations

import json
import secrets
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeVar

import click
from click.core import ParameterSource

from parlour.cli import main
from parlour.cli._common import (
    EXIT_INTERRUPTED,
    Parsed,
    depth_type,
    make_game,
    option_flag,
    seconds_type,
    whole_type,
)
from parlour.core import MAX_SEED, BadOption, ParlourError, parse_whole, shown
from parlour.search.limit import MAX_NODES, START_SECONDS

if TYPE_CHECKING:
    from parlour.arena.executors import Executor
    from parlour.arena.match import Standing
    from parlour.arena.plan import Plan
    from parlour.arena.records import Records
    from parlour.core import Game

MAX_GAMES = 10**9
REFRESH = 0.1  # seconds between two updates of the progress bar


def _parse_entrants(text: str) -> tuple[str, ...]:
    """Player specs separated by commas, each a program (``human`` has no place here),
    written as parse_player reads them back."""
    from parlour.players.specs import parse_player

    specs = [parse_player(part) for part in text.split(",")]
    if any(spec.human for spec in specs):
        raise BadOption(
            "the arena's players are programs: computer:LEVEL[@SECONDS], random, "
            "engine:PATH or python:MODULE:FUNCTION[:ARG]"
        )
    names = tuple(str(spec) for spec in specs)
    if len(names) < 2:
        raise BadOption(f"give at least two players separated by commas, not {shown(text)}")
    return names


ENTRANTS = Parsed("A,B,...", _parse_entrants)


def _parse_sprt(text: str) -> Any:
    from parlour.arena.stats import parse_sprt

    return parse_sprt(text)


LATEST = "latest"
"""``--resume`` without a number: the latest unfinished match of its kind."""


def _parse_resume(text: str) -> int | str:
    return LATEST if text == LATEST else parse_whole(text, "--resume's match", 1, 2**62, BadOption)


def _parse_tc(text: str) -> Any:
    from parlour.arena.seat import parse_time_control

    return parse_time_control(text)


DB_OPTION = click.option(
    "--db", "db_path", metavar="PATH", help="The database (default: user data)."
)


def _arena_flags(func: Callable[..., Any]) -> Callable[..., Any]:
    """The flags ``match`` and ``tournament`` share."""
    flags = [
        click.argument("game_name", metavar="GAME"),
        click.option(
            "--players", required=True, type=ENTRANTS, help="Player specs separated by commas."
        ),
        click.option(
            "--openings",
            metavar="FILE|random:PLIES",
            help="Openings, each played twice with the colours swapped: a file of one "
            "opening a line (moves in the game's notation), or PLIES random moves.",
        ),
        click.option(
            "--time",
            "seconds",
            type=seconds_type(0.01),
            help="Seconds a move for the computers and engines without a time of their own.",
        ),
        click.option(
            "--tc",
            "clock",
            type=Parsed("BASE[+INC]", _parse_tc),
            help="A game clock for every player: BASE seconds, INC more a move; "
            "past it a player loses on time.",
        ),
        click.option(
            "--depth",
            type=depth_type(1),
            help="Plies the computers and engines search a move at most.",
        ),
        click.option(
            "--nodes",
            type=whole_type("the nodes", 1, MAX_NODES),
            help="Positions the computers and engines search a move at most "
            "(up to the depth that reaches them).",
        ),
        click.option(
            "--start-seconds",
            type=seconds_type(0.01),
            help="Seconds each engine has to start and to be ready for a game "
            f"(default {START_SECONDS:g}: a cold start compiles its kernels).",
        ),
        click.option(
            "--adjudicate",
            is_flag=True,
            help="End a game once the rules' count has decided it (recorded as adjudicated).",
        ),
        click.option(
            "--concurrency",
            "-j",
            type=whole_type("the concurrency", 1, 4096),
            help="Games at once (default: every core).",
        ),
        click.option("--seed", type=whole_type("the seed", 0, MAX_SEED), help="Seed of it all."),
        DB_OPTION,
        click.option(
            "--resume",
            metavar="[ID]",
            is_flag=False,
            flag_value=LATEST,
            type=Parsed("[ID]", _parse_resume),
            help="Finish the unfinished one numbered ID (alone: the latest) of the database.",
        ),
        click.option(
            "--executor",
            type=click.Choice(["local", "ray"]),
            default="local",
            show_default=True,
            help="Worker processes here, or a Ray cluster.",
        ),
        click.option("--address", help="The Ray cluster's address (default: start one here)."),
        click.option("--json", "as_json", is_flag=True, help="Print the result as JSON."),
        lambda f: option_flag(f, "seeds=3"),
    ]
    for flag in reversed(flags):
        func = flag(func)
    return func


@main.command("match")
@_arena_flags
@click.option(
    "--games",
    type=whole_type("the number of games", 1, MAX_GAMES),
    default=100,
    show_default=True,
    help="Games to play.",
)
@click.option(
    "--sprt",
    type=Parsed("ELO0,ELO1[,ALPHA,BETA]", _parse_sprt),
    help="Stop when the SPRT on game pairs accepts Elo = ELO0 or ELO1 (alpha, beta 0.05).",
)
def match(games: int, sprt: Any, **flags: Any) -> None:
    """Two programs play GAME against each other; every game is recorded.

    Shows W-L-D, the score, the Elo difference of the first player with its 95%
    interval, the likelihood of superiority and, with --sprt, the log-likelihood ratio.
    """
    if len(flags["players"]) != 2:
        raise click.UsageError(
            f"a match is between two players, not {len(flags['players'])}: "
            "three or more play a round robin (parlour tournament)"
        )
    bounds = None if sprt is None else (sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta)
    with _Session("match", games, bounds, flags) as (records, match_id, plan, runner):
        from parlour.arena.match import play_match

        _, standing = _play(
            records,
            match_id,
            plan,
            flags,
            lambda shown: play_match(records, plan, runner, shown, match_id),
        )
        _show_match(match_id, plan, standing, flags["as_json"])


@main.command("tournament")
@_arena_flags
@click.option(
    "--rounds",
    type=whole_type("the rounds", 1, MAX_GAMES),
    default=10,
    show_default=True,
    help="Openings every pair of players plays, each with both colours.",
)
@click.option(
    "--format",
    "pairing",
    type=click.Choice(["roundrobin", "gauntlet", "knockout"]),
    default="roundrobin",
    show_default=True,
    help="Every pair of players, the first against each other, or a knockout bracket "
    "(seeded in the order given; a tie goes to the better seed).",
)
def tournament(rounds: int, **flags: Any) -> None:
    """A tournament of GAME: every pair of players that meets plays the same openings,
    both colours each.

    Prints the crosstable and Bradley-Terry ratings with 95% margins, computer:1 at 1000
    (and a knockout's bracket).
    """
    players = flags["players"]
    if len(players) < 3:
        raise click.UsageError("a tournament needs three players or more (two: parlour match)")
    if len(set(players)) != len(players):
        raise click.UsageError(f"each player once in a tournament: {','.join(players)}")
    with _Session("tournament", 2 * rounds, None, flags) as (records, match_id, plan, runner):
        from parlour.arena.match import run

        _play(
            records,
            match_id,
            plan,
            flags,
            lambda shown: run(records, match_id, plan, runner, lambda n: shown(n, None)),
        )
        _show_table(match_id, plan, records.results(match_id), flags["as_json"])


@main.command("standings")
@click.argument("match_id", type=whole_type("the match", 1, 2**62), metavar="ID")
@DB_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the standings as JSON.")
def standings(match_id: int, db_path: str | None, as_json: bool) -> None:
    """The standings of a recorded match or tournament, finished or not, as its end
    prints them: a match's W-L-D, Elo, LOS and pairs; a tournament's crosstable, ratings
    and each pair of players' results."""
    from parlour.arena.match import standing_of

    with _open(db_path, writable=False) as records:
        try:
            found = records.match(match_id)
        except ParlourError as error:
            raise click.ClickException(str(error)) from None
        if found.kind == "match":
            _show_match(match_id, found.plan, standing_of(records, match_id, found.plan), as_json)
        else:
            _show_table(match_id, found.plan, records.results(match_id), as_json)


def _show_match(match_id: int, plan: Plan, standing: Standing, as_json: bool) -> None:
    if as_json:
        summary = standing.as_json()
        click.echo(json.dumps({"match": match_id, "players": plan.players, **summary}))
    else:
        _print_match(match_id, plan, standing, standing.verdict())


def _show_table(
    match_id: int, plan: Plan, results: list[tuple[int, int, int, int | None]], as_json: bool
) -> None:
    from parlour.arena.match import pairs_of, table_of
    from parlour.arena.plan import KNOCKOUT

    table, pairs = table_of(plan.players, results), pairs_of(plan.players, results)
    bracket = plan.bracket(results) if plan.pairing == KNOCKOUT else None
    if as_json:
        found = _table_json(match_id, table, pairs)
        if bracket is not None:
            found["bracket"] = [
                [{"players": [plan.players[a], plan.players[b]], "winner": _name(plan, w)}
                 for a, b, w in meetings]
                for meetings in bracket
            ]  # fmt: skip
        click.echo(json.dumps(found))
        return
    _print_table(match_id, table, pairs)
    for number, meetings in enumerate(bracket or (), 1):
        click.echo(f"Round {number}:")
        for a, b, winner in meetings:
            points = f"{table.points[a, b]:g}-{table.points[b, a]:g}"
            through = "not decided" if winner is None else f"{plan.players[winner]} goes through"
            click.echo(f"  {plan.players[a]} - {plan.players[b]}: {points}, {through}")


def _name(plan: Plan, entrant: int | None) -> str | None:
    return None if entrant is None else plan.players[entrant]


class _Session:
    """The database open, the plan to play (a new one from the flags, or with ``--resume``
    the latest unfinished one of its kind, which the flags must describe) and the executor
    to play it, started before a new match is recorded (so that a cluster that cannot be
    reached leaves no empty match behind)."""

    def __init__(
        self, kind: str, games: int, sprt: tuple[float, ...] | None, flags: dict[str, Any]
    ) -> None:
        self.kind, self.games, self.sprt, self.flags = kind, games, sprt, flags
        self.runner: Executor | None = None

    def __enter__(self) -> tuple[Records, int, Plan, Executor]:
        from parlour.arena.plan import Plan, openings_of

        flags = self.flags
        if flags["executor"] != "ray" and flags["address"] is not None:
            raise click.UsageError("--address is for --executor ray")
        game = make_game(flags["game_name"], flags["option_texts"])
        if not game.CHOICES:
            raise click.UsageError(
                f"{game.name} has no choices to compare: see parlour simulate {game.name}"
            )
        self._check_players(game.name)
        self.records = _open(flags["db_path"])
        try:
            if flags["resume"] is not None:
                match_id, plan = self._resumed(game.name, flags["players"], flags["resume"])
                self._unchanged(match_id, plan, game)
                if flags["start_seconds"] is not None:  # the machine's, not the games'
                    plan = replace(plan, start_seconds=flags["start_seconds"])
                self.records.hold(match_id)
                work = plan.job_count - len(self.records.done_jobs(match_id))
                return self.records, match_id, plan, self._runner(work)
            seed = flags["seed"] if flags["seed"] is not None else secrets.randbelow(2**31)
            if game.options.get("seed", 0) is None:  # a game that draws lots: the plan's
                game = make_game(game.name, (*flags["option_texts"], f"seed={seed}"))
            pairs = (self.games + 1) // 2
            openings = openings_of(flags["openings"], game.start(), pairs, seed)
            plan = Plan(
                game.name,
                dict(game.options),
                flags["players"],
                self.games,
                openings,
                seed,
                flags["seconds"],
                self.sprt,
                None if flags["clock"] is None else (flags["clock"].base, flags["clock"].increment),
                flags["depth"],
                flags["nodes"],
                flags["adjudicate"],
                flags.get("pairing", "roundrobin"),
                flags["start_seconds"],
            )
            runner = self._runner(plan.job_count)
            match_id = self.records.new_match(self.kind, plan)
            self.records.hold(match_id)
        except ParlourError as error:
            self.records.close()
            raise click.UsageError(str(error)) from None
        return self.records, match_id, plan, runner

    def _check_players(self, game_name: str) -> None:
        """A usage error for a player the game lacks, a time a move with a game clock, or
        a depth or nodes the computer cannot search to in this game."""
        from parlour.players.specs import parse_player
        from parlour.search.limit import Limit

        flags = self.flags
        if flags["clock"] is not None and flags["seconds"] is not None:
            raise click.UsageError("give a time a move (--time) or a game clock (--tc), not both")
        left = None if flags["clock"] is None else flags["clock"].base
        limit = Limit(depth=flags["depth"], nodes=flags["nodes"], left=left)
        for text in flags["players"]:
            spec = parse_player(text)
            try:
                spec.check(game_name)
            except ParlourError as error:
                raise click.UsageError(str(error)) from None
            why = spec.refusal(game_name, limit)
            if why is not None:
                raise click.UsageError(why)

    def _unchanged(self, match_id: int, plan: Plan, game: Game) -> None:
        """RecordsError naming each option given with ``--resume`` that the stored plan
        contradicts: a match goes on as it was started, or its games would not add up."""
        from parlour.arena.plan import openings_of
        from parlour.records.store import RecordsError

        flags, context = self.flags, click.get_current_context()
        count = "--games" if self.kind == "match" else "--rounds"
        stored: dict[str, tuple[str, Any, Callable[[], Any]]] = {
            count: (count.strip("-"), plan.games, lambda: self.games),
            "--sprt": ("sprt", plan.sprt, lambda: self.sprt),
            "--time": ("seconds", plan.seconds, lambda: flags["seconds"]),
            "--tc": ("clock", plan.time_control, lambda: flags["clock"]),
            "--depth": ("depth", plan.depth, lambda: flags["depth"]),
            "--nodes": ("nodes", plan.nodes, lambda: flags["nodes"]),
            "--adjudicate": ("adjudicate", plan.adjudicate, lambda: flags["adjudicate"]),
            "--format": ("pairing", plan.pairing, lambda: flags.get("pairing")),
            "--seed": ("seed", plan.seed, lambda: flags["seed"]),
            "--option": ("option_texts", plan.options, lambda: dict(game.options)),
            "--openings": (
                "openings",
                plan.openings,
                lambda: openings_of(
                    flags["openings"], game.start(), (plan.games + 1) // 2, plan.seed
                ),
            ),
        }
        given = [
            flag
            for flag, (name, value, wanted) in stored.items()
            if context.get_parameter_source(name) not in (None, ParameterSource.DEFAULT)
            and wanted() != value
        ]
        if given:
            raise RecordsError(
                f"{', '.join(given)} differ{'s' if len(given) == 1 else ''} from the plan of "
                f"{self.kind} {match_id}, which --resume plays as it was started: leave "
                f"{'it' if len(given) == 1 else 'them'} out"
            )

    def _runner(self, work: int) -> Executor:
        """The executor the flags name, for ``work`` games (said on stderr when it starts
        a Ray cluster of its own)."""
        from parlour.arena.executors import Ray, executor

        flags = self.flags
        self.runner = executor(flags["executor"], flags["concurrency"], flags["address"], work)
        if isinstance(self.runner, Ray) and self.runner.started:
            click.echo("Started a Ray cluster of this machine for this run.", err=True)
        return self.runner

    def _resumed(self, game: str, players: tuple[str, ...], which: int | str) -> tuple[int, Plan]:
        """The match ``--resume`` names (an id, or the latest unfinished of its kind), if
        it is unfinished and of this kind, game and players."""
        from parlour.records.store import RecordsError

        if which == LATEST:
            found = self.records.last_unfinished(self.kind)
            if found is None:
                raise RecordsError(f"no unfinished {self.kind} in {self.records.path} to resume")
        else:
            found = self.records.match(int(which))
            if found.kind != self.kind:
                raise RecordsError(f"{found.kind} {found.id} is not a {self.kind}")
            if found.finished is not None:
                raise RecordsError(f"{self.kind} {found.id} is finished: nothing to resume")
        if (found.plan.game, found.plan.players) != (game, players):
            raise RecordsError(
                f"the unfinished {self.kind} {found.id} is {found.plan.game} between "
                f"{','.join(found.plan.players)}, not what the command line says"
            )
        return found.id, found.plan

    def __exit__(self, *_: object) -> None:
        if self.runner is not None:
            self.runner.close()
        self.records.close()


T = TypeVar("T")
Shown = Callable[[int, "Standing | None"], None]


def _play(
    records: Records,
    match_id: int,
    plan: Plan,
    flags: dict[str, Any],
    games: Callable[[Shown], T],
) -> T:
    """``games(shown)``: the plan's missing games played under a progress bar (``shown``
    moves it, with the standing when there is one); Ctrl-C stops at once, and so does
    an executor that cannot go on, in one line, the match left to resume."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    total = plan.job_count
    progress = Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=flags["as_json"],
    )

    last: list[Any] = [0.0, 0, None]  # when the bar was drawn, and what it is to show

    def shown(done: int, standing: Standing | None, final: bool = False) -> None:
        """The bar and the standing, at most ten times a second (games may end faster),
        and always at the end (an SPRT's stop, the last game)."""
        now = time.monotonic()
        last[1:] = done, standing
        if now - last[0] >= REFRESH or done == total or final:
            last[0] = now
            line = standing.line() if standing else ""
            progress.update(task, completed=done, description=line)

    with progress:
        task = progress.add_task("", total=total)
        shown(len(records.done_jobs(match_id)), None)
        try:
            result = games(shown)
            shown(last[1], last[2], final=True)
            return result
        except KeyboardInterrupt:
            progress.stop()
            done = len(records.done_jobs(match_id))
            click.echo(
                f"\nInterrupted: {done} of {total} games recorded; --resume plays the rest.",
                err=True,
            )
            raise SystemExit(EXIT_INTERRUPTED) from None
        except ParlourError as error:
            progress.stop()
            done = len(records.done_jobs(match_id))
            raise click.ClickException(
                f"{error}; {done} of {total} games recorded, --resume plays the rest"
            ) from None


def _print_match(match_id: int, plan: Plan, standing: Standing, verdict: str | None) -> None:
    from parlour.arena.stats import los

    estimate = standing.elo()
    first, second = plan.players
    lines = [
        f"Match {match_id}: {first} against {second}, {plan.game}, {standing.games} games",
        f"  W-L-D   {standing.wins}-{standing.losses}-{standing.draws} (for {first})",
        f"  score   {standing.score:.3f}",
        f"  Elo     {estimate} (95%)",
        f"  LOS     {100 * los(standing.wins, standing.losses):.1f}%",
        f"  draws   {100 * standing.draw_ratio:.1f}%",
        f"  pairs   {standing.pentanomial()} (0, 1/2, 1, 3/2, 2 points)",
    ]
    llr = standing.llr()
    if llr is not None and standing.sprt is not None:
        low, high = standing.sprt.bounds
        accepted = {"H0": f"H0 (Elo {standing.sprt.elo0:g})", "H1": f"H1 ({standing.sprt.elo1:g})"}
        lines.append(
            f"  LLR     {llr:.2f} ({low:.2f}, {high:.2f}): "
            + (accepted[verdict] + " accepted" if verdict else "no verdict yet")
        )
    click.echo("\n".join(lines))


def _table_json(
    match_id: int, table: Any, pairs: dict[tuple[int, int], Standing]
) -> dict[str, Any]:
    return {
        "tournament": match_id,
        "players": list(table.players),
        "points": table.points.tolist(),
        "games": table.games.tolist(),
        "ratings": {
            p: [r.elo, r.margin] for p, r in zip(table.players, table.ratings, strict=True)
        },
        "anchor": table.anchor,
        "pairs": [
            {"players": [table.players[i], table.players[j]], **standing.as_json()}
            for (i, j), standing in pairs.items()
        ],
    }


def _print_table(match_id: int, table: Any, pairs: dict[tuple[int, int], Standing]) -> None:
    """The crosstable (points out of games, row against column), the ratings, and each
    pair of players' results as a match's (fastchess's per-pair table)."""
    from rich.console import Console
    from rich.table import Table

    from parlour.arena.stats import los

    grid = Table(title=f"Tournament {match_id}: points of the row's player against the column's")
    grid.add_column("player")
    for n, _ in enumerate(table.players, 1):
        grid.add_column(str(n), justify="right")
    grid.add_column("rating", justify="right")
    order = sorted(range(len(table.players)), key=lambda i: -table.ratings[i].elo)
    for i in order:
        cells = [
            "-" if i == j else f"{table.points[i, j]:g}/{table.games[i, j]:g}"
            for j in range(len(table.players))
        ]
        rating = table.ratings[i]
        grid.add_row(
            f"{i + 1}. {table.players[i]}", *cells, f"{rating.elo:.0f} ± {rating.margin:.0f}"
        )
    Console().print(grid)
    click.echo(f"Bradley-Terry (Elo) ratings, {table.anchor} held at 1000; 95% margins.")
    each = Table(title="Each pair: the first player's results against the second")
    for heading in ("pair", "W-L-D", "draws", "Elo (95%)", "LOS", "pairs 0-2 points"):
        each.add_column(heading, justify="left" if heading == "pair" else "right")
    for (i, j), standing in pairs.items():
        each.add_row(
            f"{i + 1} - {j + 1}",
            f"{standing.wins}-{standing.losses}-{standing.draws}",
            f"{100 * standing.draw_ratio:.0f}%",
            str(standing.elo()),
            f"{100 * los(standing.wins, standing.losses):.1f}%",
            " ".join(map(str, standing.pentanomial())),
        )
    Console().print(each)


def _open(db_path: str | None, writable: bool = True) -> Records:
    """The database ``--db`` names (None: the user's), read-only unless ``writable``."""
    from parlour.arena.records import Records
    from parlour.records.store import default_path

    try:
        return Records(default_path() if db_path is None else db_path, writable)
    except ParlourError as error:
        raise click.ClickException(str(error)) from None


@main.command("games")
@DB_OPTION
@click.option("--match", "match_id", type=whole_type("the match", 1, 2**62), help="Its games only.")
@click.option("--player", help="Games of this player spec only.")
@click.option("--game", "game_name", help="Games of this game only.")
@click.option("--limit", type=whole_type("the limit", 1, 10**9), default=50, show_default=True)
def games(
    db_path: str | None, match_id: int | None, player: str | None, game_name: str | None, limit: int
) -> None:
    """List the recorded games, the newest first."""
    with _open(db_path, writable=False) as records:
        for row in records.games(match_id, player, game_name, limit):
            winner = "draw" if row["winner"] is None else row[f"player{row['winner']}"]
            plies = len(row["moves"].split())
            where = row["site"] if row["match"] is None else f"match {row['match']}"
            click.echo(
                f"{row['id']:>7}  {where:<10} {row['game']:<8} "
                f"{row['player0']} - {row['player1']}: {row['score0']}-{row['score1']}, "
                f"{winner if row['winner'] is None else winner + ' wins'} "
                f"({row['reason']}), {plies} moves"
            )


def _game_row(records: Records, game_id: int) -> dict[str, Any]:
    try:
        return records.game(game_id)
    except ParlourError as error:
        raise click.ClickException(str(error)) from None


def _start(row: dict[str, Any]) -> str:
    """The position a stored game started from, for the commands that replay its moves
    (a game that never showed it, as War's deal, is refused in one line)."""
    if row["start"] is None:
        raise click.ClickException(f"game {row['id']} kept no start (its deal was never shown)")
    return str(row["start"])


@main.command("replay")
@click.argument("game_id", type=whole_type("the game", 1, 2**62), metavar="ID")
@DB_OPTION
@click.option(
    "--delay", type=seconds_type(0), default=0.5, show_default=True, help="Seconds a move."
)
def replay(game_id: int, db_path: str | None, delay: float) -> None:
    """Show a recorded game on the terminal, move by move."""
    from parlour.arena.replay import replay_game

    with _open(db_path, writable=False) as records:
        row = _game_row(records, game_id)
    _start(row)
    try:
        code = replay_game(row, delay, sys.stdout)
    except ParlourError as error:
        raise click.ClickException(f"game {game_id} does not replay: {error}") from None
    raise SystemExit(code)


def _export_json(row: dict[str, Any]) -> str:
    data = dict(row)
    for key in ("options", "seconds", "evaluations", "shown"):
        if data[key] is not None:
            data[key] = json.loads(data[key])
    data["opening"] = data["opening"].split()
    data["moves"] = data["moves"].split()
    return json.dumps(data, indent=2)


def _export_saved(row: dict[str, Any]) -> str:
    """The game as a saved game, which ``parlour play GAME --load`` takes up at its end."""
    from parlour.records.saved import SavedGame

    moves = tuple(row["moves"].split())
    return SavedGame(row["game"], json.loads(row["options"]), _start(row), moves).to_text()


_EXPORTERS: dict[str, Callable[[dict[str, Any]], str]] = {
    "json": _export_json,
    "saved": _export_saved,
}
"""The forms of ``parlour export`` for every game: a new one is a function of the row
and an entry.  A game's own forms (five in a row's ``psq``) come from its kit."""


def _export_own(row: dict[str, Any], form_name: str) -> str:
    """The game in a record form of its own game's (``psq``: Piskvork's, for five in a
    row), the opening's moves at 0 s."""
    from parlour.core import game, replay
    from parlour.kit import kit_of

    rules = game(row["game"], **json.loads(row["options"]))
    forms = [form for form in kit_of(rules).record_forms if form.suffix == "." + form_name]
    if not forms:
        own = ", ".join(form.suffix[1:] for form in kit_of(rules).record_forms)
        raise click.ClickException(
            f"game {row['id']} ({row['game']}) is written as {', '.join(_EXPORTERS)}"
            + (f" or {own}" if own else "")
            + f", not {form_name!r:.40}"
        )
    start = rules.parse(_start(row))
    moves = [move for move, _ in replay(start, row["moves"].split())]
    spent = json.loads(row["seconds"])
    seconds = [0.0] * (len(moves) - len(spent)) + spent
    return forms[0].write(start, moves, (row["player0"], row["player1"]), seconds).rstrip("\n")


@main.command("export")
@click.argument("game_id", type=whole_type("the game", 1, 2**62), metavar="ID")
@DB_OPTION
@click.option(
    "--format",
    "form",
    default="json",
    show_default=True,
    help="json, saved (a saved game for play --load), or the game's own form (psq).",
)
def export(game_id: int, db_path: str | None, form: str) -> None:
    """Write a recorded game to standard output."""
    with _open(db_path, writable=False) as records:
        row = _game_row(records, game_id)
    exporter = _EXPORTERS.get(form)
    click.echo(exporter(row) if exporter else _export_own(row, form))
