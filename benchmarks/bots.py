"""What the match scripts share: outside programs as parlour players, and a match played on
the arena (every game through the Referee, recorded in SQLite) whose figures are read
back from the database.

A script names its players as specs (``parse_player``): parlour's own (``computer:5@0.3``,
``random``) or ``python:MODULE:FUNCTION[:ARG]``, a function of a module of this folder
that builds the player (:class:`Bot` wraps a plain function of the position).  A spec is
a string, so the match's plan, its record and a resumed run all name the same players,
and each worker process (started with the script's ``sys.path``) builds them anew for
every game.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

from rich.progress import Progress

from parlour.actors import Actor, Move, Moved, Play
from parlour.actors.runtime import Piped, Reply, in_thread
from parlour.arena import replay
from parlour.arena.executors import Local
from parlour.arena.match import Standing, play_match
from parlour.arena.plan import Plan
from parlour.arena.records import Records
from parlour.core import State, game
from parlour.records.store import default_path
from parlour.search.engine import Engine, warm_up


class Bot(Actor):
    """A player whose move ``choose(state)`` returns, computed in a thread of its own (the
    mailbox stays open: a game that ends meanwhile ends the player).  ``moved`` hears each
    move of the game, for a bot that keeps its own copy of the position."""

    def __init__(
        self, choose: Callable[[Any], Any], moved: Callable[[Moved], None] | None = None
    ) -> None:
        self.choose = choose
        self.moved = moved
        self._answer: Reply | None = None

    async def receive(self, message: Any) -> None:
        match message:
            case Play(view):
                self._answer = self.defer()
                self.pipe(in_thread(self.choose, view.state, name=self.ref.name), "move")
            case Piped("move", move, None) if self._answer is not None:
                self._answer.send(Move(move))
            case Piped("move", _, BaseException() as error):
                raise error
            case Moved() if self.moved is not None:
                self.moved(message)


@cache
def _warm(rules: str) -> None:
    """The engine's kernels and endgame table, once a worker, off every player's clock."""
    warm_up(game(rules).start())


def engine(argument: str, seed: int | None) -> Bot:
    """parlour's sowing engine, ``learned@SECONDS`` with its learned horizon estimate or
    ``plain@SECONDS`` with the store difference alone, searching SECONDS a move."""
    kind, _, seconds = argument.partition("@")
    if kind not in ("learned", "plain"):
        raise ValueError(f"engine: learned@SECONDS or plain@SECONDS, not {argument!r}")
    search = Engine(table_bits=22, learned=kind == "learned").search

    def choose(state: State) -> Any:
        _warm(state.game.name)
        return search(state, seconds=float(seconds)).move

    return Bot(choose)


@contextmanager
def database(path: str | None, quick: bool) -> Iterator[Records]:
    """The arena's database: ``path``, else a temporary one for a quick run (which
    records nothing), else the user's (where ``parlour games`` lists the matches)."""
    with tempfile.TemporaryDirectory() as folder:
        where = Path(folder) / "quick.sqlite3" if quick and path is None else path
        with Records(where or default_path()) as records:
            yield records


def play(records: Records, plan: Plan, workers: int, title: str) -> tuple[int, Standing]:
    """Play ``plan`` as a new match on ``workers`` local processes under a progress bar;
    its id and its standing (player 0 against player 1), as recorded."""
    total = plan.job_count
    with Progress() as progress:
        task = progress.add_task(title, total=total)

        def shown(done: int, standing: Standing) -> None:
            progress.update(task, completed=done, description=f"{title}: {standing.line()}")

        match_id, standing = play_match(records, plan, Local(workers), shown)
    print(f"match {match_id} in {records.path}: {standing.line()}")
    return match_id, standing


def games(records: Records, match_id: int) -> list[dict[str, Any]]:
    """The match's games in the order of its plan."""
    rows = records.games(match_id, limit=2**31)
    return sorted(rows, key=lambda row: int(row["job"]))


def seat_of(row: dict[str, Any], entrant: int) -> int:
    """The seat the plan's player ``entrant`` held in the game ``row``."""
    return 0 if row["entrant0"] == entrant else 1


def movers(row: dict[str, Any]) -> list[int]:
    """The seat that made each move after the opening (the rules tell: extra turns)."""
    start = game(row["game"], **json.loads(row["options"])).parse(row["start"])
    return replay.movers(start, row["moves"].split())[len(row["opening"].split()) :]


def entrant_seconds(rows: list[dict[str, Any]]) -> tuple[list[float], list[float]]:
    """The seconds of every move each of the plan's two players made in ``rows``."""
    spent: tuple[list[float], list[float]] = ([], [])
    for row in rows:
        for seconds, mover in zip(json.loads(row["seconds"]), movers(row), strict=True):
            spent[row[f"entrant{mover}"]].append(seconds)
    return spent


def margin(row: dict[str, Any], entrant: int) -> int:
    """The plan's player ``entrant``'s score less its opponent's in the game ``row``."""
    ours, theirs = (row["score0"], row["score1"])[:: 1 if seat_of(row, entrant) == 0 else -1]
    return int(ours - theirs)
