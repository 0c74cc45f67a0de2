"""Running a plan: its games through an executor, each recorded as it ends, and the
standings they make (a match's W-L-D and SPRT, a round robin's crosstable and ratings).

:func:`run` is the loop of the one process that owns the database: it plays the jobs not
yet recorded (all of them for a new match, the rest for a resumed one), records each game
in its own transaction, tells ``shown`` the standing after each, and stops when every game
is in, when the SPRT decides, or on Ctrl-C (the games being played are dropped whole).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from parlour.arena import stats
from parlour.arena.executors import Executor
from parlour.arena.plan import KNOCKOUT, Job, Plan
from parlour.arena.records import Records

ANCHOR = "computer:1"
ANCHOR_ELO = 1000.0
"""The seed's level 1 is rated 1000 in every tournament it plays in."""


@dataclass
class Standing:
    """Player 0's results against player 1 in a match (entrants, whatever their seats)."""

    wins: int = 0
    losses: int = 0
    draws: int = 0
    pairs: dict[int, list[float]] = field(default_factory=lambda: defaultdict(list))
    sprt: stats.Sprt | None = None
    finished: list[int] = field(default_factory=lambda: [0] * 5)
    """The finished pairs counted by their points, 0, 1/2, 1, 3/2, 2: kept as each pair's
    second game comes, so the SPRT after every game costs no walk over all the pairs."""

    def add(self, pair: int, seats: tuple[int, int], winner: int | None) -> None:
        if winner is None:
            self.draws, points = self.draws + 1, 0.5
        elif seats[winner] == 0:
            self.wins, points = self.wins + 1, 1.0
        else:
            self.losses, points = self.losses + 1, 0.0
        self.pairs[pair].append(points)
        if len(self.pairs[pair]) == 2:
            self.finished[round(2 * sum(self.pairs[pair]))] += 1

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    @property
    def score(self) -> float:
        return (self.wins + self.draws / 2) / self.games if self.games else 0.5

    def pentanomial(self) -> list[int]:
        """The finished pairs counted by their points: 0, 1/2, 1, 3/2, 2."""
        return list(self.finished)

    def elo(self) -> stats.Estimate:
        """The Elo difference with its 95% interval: of the finished game pairs
        (pentanomial) once there are any, of the games (trinomial) before."""
        if any(self.finished):
            return stats.elo_of_pairs(self.finished)
        return stats.elo_of_games(self.wins, self.losses, self.draws)

    @property
    def draw_ratio(self) -> float:
        return self.draws / self.games if self.games else 0.0

    def llr(self) -> float | None:
        return None if self.sprt is None else self.sprt.llr(self.pentanomial())

    def verdict(self) -> str | None:
        llr = self.llr()
        return None if llr is None or self.sprt is None else self.sprt.verdict(llr)

    def line(self) -> str:
        """The standing in one line, as the progress bar shows it."""
        text = (
            f"W-L-D {self.wins}-{self.losses}-{self.draws}  score {self.score:.3f}  "
            f"Elo {self.elo()}  "
            f"LOS {100 * stats.los(self.wins, self.losses):.1f}%"
        )
        llr = self.llr()
        if llr is not None and self.sprt is not None:
            low, high = self.sprt.bounds
            text += f"  LLR {llr:.2f} ({low:.2f}, {high:.2f})"
        return text

    def as_json(self) -> dict[str, Any]:
        estimate = self.elo()
        summary: dict[str, Any] = {
            "games": self.games,
            "wins": self.wins,
            "losses": self.losses,
            "draws": self.draws,
            "score": self.score,
            "elo": _finite(estimate.elo),
            "elo_low": _finite(estimate.low),
            "elo_high": _finite(estimate.high),
            "los": stats.los(self.wins, self.losses),
            "draw_ratio": self.draw_ratio,
            "pentanomial": self.pentanomial(),
        }
        if self.sprt is not None:
            summary["llr"] = self.llr()
            summary["bounds"] = list(self.sprt.bounds)
            summary["verdict"] = self.verdict()
        return summary


def _finite(value: float) -> float | None:
    return value if np.isfinite(value) else None


def standing_of(records: Records, match_id: int, plan: Plan) -> Standing:
    """The standing of a match from its recorded games."""
    standing = Standing(sprt=None if plan.sprt is None else stats.Sprt(*plan.sprt))
    for pair, first, second, winner in records.results(match_id):
        standing.add(pair, (first, second), winner)
    return standing


def run(
    records: Records,
    match_id: int,
    plan: Plan,
    executor: Executor,
    shown: Callable[[int], None],
    standing: Standing | None = None,
) -> str | None:
    """Play the plan's games not yet recorded; ``shown(done)`` after each.  Returns the
    SPRT's verdict if it stopped the match.  The match is marked finished when every
    game is in or the SPRT decided; Ctrl-C leaves it to resume."""
    done = records.done_jobs(match_id)
    verdict = standing.verdict() if standing is not None else None
    try:
        for jobs in _rounds(records, match_id, plan, done):
            if verdict is not None:
                break
            for record in executor.run(plan, jobs):
                records.add(record.played, match_id, record.place)
                done.add(record.place.job)
                if standing is not None:
                    standing.add(record.place.pair, record.place.entrants, record.played.winner)
                    verdict = standing.verdict()
                shown(len(done))
                if verdict is not None:
                    break
    finally:
        executor.close()
    records.finish(match_id, verdict)
    return verdict


def _rounds(records: Records, match_id: int, plan: Plan, done: set[int]) -> Iterator[Iterator[Job]]:
    """The games still to play, a round at a time: all of them at once (made as they are
    wanted) where the plan knows them all, a knockout's next games once the last round's
    results are in."""
    if plan.pairing != KNOCKOUT:
        yield (job for job in plan.jobs() if job.index not in done)
        return
    while jobs := [job for job in plan.jobs(records.results(match_id)) if job.index not in done]:
        yield iter(jobs)


def play_match(
    records: Records,
    plan: Plan,
    executor: Executor,
    shown: Callable[[int, Standing], None] = lambda done, standing: None,
    match_id: int | None = None,
) -> tuple[int, Standing]:
    """The arena's entry point for a match: play ``plan`` into ``records`` (a new match,
    or the games ``match_id`` lacks) on ``executor``, telling ``shown`` the games done and
    the standing after each; the match's id and its standing.  The standing is read back
    from the database, so what a caller reports is what was recorded."""
    if match_id is None:
        match_id = records.new_match("match", plan)
    standing = standing_of(records, match_id, plan)
    run(records, match_id, plan, executor, lambda done: shown(done, standing), standing)
    return match_id, standing_of(records, match_id, plan)


def pairs_of(
    players: tuple[str, ...], results: Iterable[tuple[int, int, int, int | None]]
) -> dict[tuple[int, int], Standing]:
    """Each pair of players' standing (the first's results against the second, i < j)
    from a round robin's games (pair, entrant of seat 0, entrant of seat 1, winner)."""
    standings: dict[tuple[int, int], Standing] = {}
    for pair, first, second, winner in results:
        low, high = sorted((first, second))
        seats = (0, 1) if first == low else (1, 0)
        standings.setdefault((low, high), Standing()).add(pair, seats, winner)
    return dict(sorted(standings.items()))


@dataclass(frozen=True)
class Crosstable:
    """A round robin's results: ``points[i, j]`` player i scored against j in
    ``games[i, j]`` games, and each player's rating."""

    players: tuple[str, ...]
    points: np.ndarray
    games: np.ndarray
    ratings: list[stats.Rating]
    anchor: str


def table_of(
    players: tuple[str, ...], results: Iterable[tuple[int, int, int, int | None]]
) -> Crosstable:
    """The crosstable and Bradley-Terry ratings of the games (pair, entrant of seat 0,
    entrant of seat 1, winning seat), anchored at ``computer:1`` = 1000 if it played,
    else at the first player."""
    size = len(players)
    points, games = np.zeros((size, size)), np.zeros((size, size))
    for _, first, second, winner in results:
        games[first, second] += 1
        games[second, first] += 1
        if winner is None:
            points[first, second] += 0.5
            points[second, first] += 0.5
        else:
            points[(first, second)[winner], (second, first)[winner]] += 1
    anchor = players.index(ANCHOR) if ANCHOR in players else 0
    ratings = stats.bradley_terry(points, games, anchor, ANCHOR_ELO)
    return Crosstable(players, points, games, ratings, players[anchor])
