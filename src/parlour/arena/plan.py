"""What a match or a tournament plays: its settings, its openings and its list of games.

A :class:`Plan` is a value (stored as JSON with the match), and every game of it is a
:class:`Job` computed from the plan alone: who sits where, the opening, the seed of each
random player.  So the same plan gives the same games whichever executor plays them, in
whatever order, and a match resumed after a crash plays exactly the jobs not yet recorded.

Games come in pairs: one opening, played twice with the colours swapped.  A tournament
plays every pair of players the same ``rounds`` openings (``rounds`` pairs a pair).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from parlour.arena.seat import TimeControl
from parlour.core import MAX_SECONDS, BadOption, IllegalReplay, State, replay, shown
from parlour.players.specs import PlayerSpec, parse_player
from parlour.search.limit import Limit

Openings = tuple[tuple[str, ...], ...]


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
        """The players as they play: each on a clock with the plan's time unless it has its
        own (on a game clock, a time no move reaches: the clock's share stops each one)."""
        specs = [parse_player(text) for text in self.players]
        seconds = MAX_SECONDS if self.clock is not None else self.seconds
        return [s.clocked(seconds) if s.seconds is None else s for s in specs]

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
        """The games of the plan: ``games`` for each pair of players."""
        return self.games * len(self.players) * (len(self.players) - 1) // 2

    def jobs(self) -> Iterator[Job]:
        """Every game of the plan, numbered from 0: pairs of players in turn (a, b), each
        pair's games two by two from one opening, the first of each two with a first.
        Made as they are wanted, so that a match of a million games starts at once."""
        pairs = list(itertools.combinations(range(len(self.players)), 2))
        index = 0
        for k in range(self.games):
            opening = self.openings[(k // 2) % len(self.openings)] if self.openings else ()
            for a, b in pairs:
                seats = (a, b) if k % 2 == 0 else (b, a)
                yield Job(index, k // 2, seats, opening)
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
