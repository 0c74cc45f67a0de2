"""What a match or a tournament plays: its settings, its openings and its list of games.

A :class:`Plan` is a value (stored as JSON with the match), and every game of it is a
:class:`Job` computed from the plan alone: who sits where, the opening, the seed of each
random player.  So the same plan gives the same games whichever executor plays them, in
whatever order, and a match resumed after a crash plays exactly the jobs not yet recorded.

Games come in pairs: one opening, played twice with the colours swapped.  A tournament
plays the same ``rounds`` openings (``rounds`` pairs of games) between each pair of players
its pairing meets: every pair (a round robin), the first player against each other (a
gauntlet), or a knockout bracket, whose next round is made from the results of the last
(:meth:`Plan.jobs` is then given the results so far).
"""

from __future__ import annotations

import itertools
import random
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from parlour.actors import TimeControl
from parlour.core import BadOption, IllegalReplay, State, replay, shown
from parlour.players.specs import PlayerSpec, parse_player
from parlour.search.limit import Limit

Openings = tuple[tuple[str, ...], ...]
Results = Iterable[tuple[int, int, int, int | None]]
"""Recorded games as ``Records.results`` gives them: pair, entrant of seat 0, entrant of
seat 1, winning seat (None: a draw)."""

ROUND_ROBIN, GAUNTLET, KNOCKOUT = "roundrobin", "gauntlet", "knockout"
PAIRINGS = (ROUND_ROBIN, GAUNTLET, KNOCKOUT)


@dataclass(frozen=True)
class Plan:
    """A match (two players) or a round robin (more): everything that decides its games."""

    game: str
    options: dict[str, Any]
    players: tuple[str, ...]
    """The player specs, as ``parse_player`` reads them."""
    games: int
    """Games a pair of players plays (twice the openings, both colours each)."""
    openings: tuple[tuple[str, ...], ...]
    """The opening moves in the game's notation; game pair ``k`` plays opening ``k % len``."""
    seed: int
    seconds: float | None = None
    """A time a move for every player on a clock (a computer, an engine) without a time of
    its own (``--time``)."""
    sprt: tuple[float, ...] | None = None
    """ELO0, ELO1, ALPHA, BETA of a match that stops on the SPRT's verdict."""
    clock: tuple[float, float] | None = None
    """Each player's game clock: base and increment in seconds (``--tc BASE+INC``)."""
    depth: int | None = None
    """The plies every computer and engine searches each move at most (``--depth``)."""
    nodes: int | None = None
    """The positions every computer and engine searches each move at most (``--nodes``)."""
    adjudicate: bool = False
    """Whether a game its rules' count has decided ends there (``--adjudicate``)."""
    pairing: str = ROUND_ROBIN
    """Who meets whom: one of :data:`PAIRINGS` (``--format``)."""
    start_seconds: float | None = None
    """The time each engine has to start and to be ready for a game (``--start-seconds``;
    None: the engine player's default): the machine's, not the games', so a resumed
    match may change it."""

    def as_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Plan:
        data = dict(data)
        data["players"] = tuple(data["players"])
        data["openings"] = tuple(tuple(o) for o in data["openings"])
        data["sprt"] = None if data.get("sprt") is None else tuple(data["sprt"])
        data["clock"] = None if data.get("clock") is None else tuple(data["clock"])
        return cls(**data)

    def specs(self) -> list[PlayerSpec]:
        """The players as they play: each with the plan's time a move unless it has its own
        (on a game clock none: each plays as its level does, never past its share of the
        time it has left, which its seat tells it every move)."""
        specs = [parse_player(text) for text in self.players]
        specs = [s.clocked(self.seconds) if s.seconds is None else s for s in specs]
        return [replace(s, start_seconds=self.start_seconds) for s in specs]

    @property
    def limit(self) -> Limit:
        """What every move is limited to besides each player's own time: the depth and
        the nodes."""
        return Limit(depth=self.depth, nodes=self.nodes)

    @property
    def time_control(self) -> TimeControl | None:
        return None if self.clock is None else TimeControl(*self.clock)

    @property
    def job_count(self) -> int:
        """The games of the plan: ``games`` for each pair of players that meets (in a
        knockout, each game eliminates one player of all but the winner)."""
        size = len(self.players)
        meetings = {ROUND_ROBIN: size * (size - 1) // 2, GAUNTLET: size - 1, KNOCKOUT: size - 1}
        return self.games * meetings[self.pairing]

    def jobs(self, results: Results = ()) -> Iterator[Job]:
        """Every game of the plan, numbered from 0: pairs of players in turn (a, b), each
        pair's games two by two from one opening, the first of each two with a first.
        Made as they are wanted, so that a match of a million games starts at once.  A
        knockout's are those of its rounds up to the first that ``results`` leave
        undecided (:meth:`bracket`)."""
        if self.pairing == KNOCKOUT:
            index = pair = 0
            for meetings in self.bracket(results):
                yield from _round_jobs(self, [(a, b) for a, b, _ in meetings], index, pair)
                index += self.games * len(meetings)
                pair += (self.games + 1) // 2
            return
        players = range(len(self.players))
        if self.pairing == GAUNTLET:
            yield from _round_jobs(self, [(0, b) for b in players[1:]])
        else:
            yield from _round_jobs(self, list(itertools.combinations(players, 2)))

    def bracket(self, results: Results) -> list[list[tuple[int, int, int | None]]]:
        """A knockout's rounds so far: each meeting's two players (the better seed first)
        and its winner (None until all its games are in), up to the first round not
        decided.  Seeds are the order of ``players``; the best seeds get the byes of a
        field that is not a power of two; the better seed goes through on a tie."""
        points: defaultdict[tuple[int, int, int], float] = defaultdict(float)  # entrant's points
        for _, first, second, winner in results:
            low, high = sorted((first, second))
            for seat, entrant in enumerate((first, second)):
                points[low, high, entrant] += 0.5 if winner is None else float(winner == seat)
        field = len(self.players)
        alive: list[int | None] = [s if s < field else None for s in _seeding(field)]
        rounds = []
        while len(alive) > 1:
            meetings, going_on = [], []
            for a, b in zip(alive[::2], alive[1::2], strict=True):
                if a is None or b is None:
                    going_on.append(b if a is None else a)
                    continue
                low, high = sorted((a, b))
                mine, theirs = points[low, high, low], points[low, high, high]
                done = mine + theirs >= self.games
                winner = (low if mine >= theirs else high) if done else None
                meetings.append((low, high, winner))
                going_on.append(winner)
            rounds.append(meetings)
            if any(winner is None for _, _, winner in meetings):
                break
            alive = going_on
        return rounds


def _seeding(size: int) -> list[int]:
    """The seeds in bracket order for a field of ``size`` (byes as seeds past it): 1
    against the last, and the best two apart until the final."""
    order = [0]
    while len(order) < size:
        order = [seed for s in order for seed in (s, 2 * len(order) - 1 - s)]
    return order


def _round_jobs(
    plan: Plan, pairs: Sequence[tuple[int, int]], index: int = 0, pair: int = 0
) -> Iterator[Job]:
    """The games of ``pairs`` of players in turn, numbered from ``index``, their pairs of
    games (one opening, both colours) from ``pair``."""
    for k in range(plan.games):
        opening = plan.openings[(k // 2) % len(plan.openings)] if plan.openings else ()
        for a, b in pairs:
            seats = (a, b) if k % 2 == 0 else (b, a)
            yield Job(index, pair + k // 2, seats, opening)
            index += 1


@dataclass(frozen=True)
class Job:
    """One game of a plan: its number, its pair of games, the players' indices in the
    plan by seat (player 0 first) and the opening moves."""

    index: int
    pair: int
    seats: tuple[int, int]
    opening: tuple[str, ...]

    def seed(self, plan_seed: int, seat: int) -> int:
        """The seed of the random player in ``seat`` (a stable hash of the three)."""
        return random.Random(f"{plan_seed}/{self.index}/{seat}").getrandbits(32)


def start_after(start: State, opening: Sequence[str]) -> State:
    """The position after the ``opening`` moves (IllegalMove naming the bad one)."""
    try:
        played = replay(start, opening)
    except IllegalReplay as error:
        raise BadOption(error.within(f"the opening {shown(' '.join(opening))}")) from None
    state = played[-1][1] if played else start
    if state.is_over:
        raise BadOption(f"the opening {shown(' '.join(opening))} ends the game")
    return state


def random_openings(start: State, plies: int, count: int, seed: int) -> Openings:
    """``count`` openings of up to ``plies`` random moves each (none ending the game)."""
    rng = random.Random(f"{seed}/openings")
    return tuple(_random_opening(start, plies, rng) for _ in range(count))


def _random_opening(start: State, plies: int, rng: random.Random) -> tuple[str, ...]:
    state, names = start, []
    for _ in range(plies):
        going_on = [m for m in state.legal_moves() if not state.play(m).is_over]
        if not going_on:
            break
        move = rng.choice(going_on)
        names.append(state.move_name(move))
        state = state.play(move)
    return tuple(names)


def read_openings(path: str, start: State) -> Openings:
    """The openings of a file: one a line, moves in the game's notation separated by
    spaces; blank lines and ``#`` comments are skipped.  Every move is checked."""
    try:
        lines = Path(path).expanduser().read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise BadOption(f"cannot read the openings: {error}") from None
    openings = []
    for number, line in enumerate(lines, 1):
        moves = tuple(line.partition("#")[0].split())
        if not moves:
            continue
        try:
            start_after(start, moves)
        except BadOption as error:
            raise BadOption(f"{path}, line {number}: {error}") from None
        openings.append(moves)
    if not openings:
        raise BadOption(f"{path} holds no opening")
    return tuple(openings)


def openings_of(text: str | None, start: State, pairs: int, seed: int) -> Openings:
    """The openings ``--openings`` names: ``random:PLIES`` (one for each pair of games, at
    most a thousand, then used again) or a file; none when not given."""
    if text is None:
        return ()
    kind, sep, plies = text.partition(":")
    if kind == "random" and sep:
        from parlour.core import parse_whole

        count = parse_whole(plies, "the plies of a random opening", 1, 60, BadOption)
        return random_openings(start, count, max(1, min(pairs, 1000)), seed)
    return read_openings(text, start)
