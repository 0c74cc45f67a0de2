"""A proof's null-window search split between threads: each line of the root's side to
move through its own extra turns to where the turn passes is a search of its own, on the
one transposition table; the threads take them in turn, the costliest so far first, and
one failing high answers for the root and stops the rest."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from parlour.games.sowing import endgame
from parlour.games.sowing import game as sowing
from parlour.games.sowing.solver.kernel import _difference, _in_pits, _settled, null_window
from parlour.games.sowing.solver.table import INF
from parlour.search import Stop
from parlour.search.kernel import ABORTED, BEST, HORIZON, INFO_SIZE, NODES
from parlour.search.shared import Shared


class Search(Protocol):
    """What a split needs of the proof's search it splits (``prover.Search``)."""

    rules: int
    threads: int
    shared: Shared
    info: np.ndarray
    clock: Stop
    costs: list[int]
    """The nodes searched in each line so far: the costliest are taken first."""


@dataclass(frozen=True)
class Handover:
    """A line of the root's side to move through its own extra turns to a position where
    the turn passes: its first move, what it gained on the way, and that position."""

    first: int
    gained: int
    position: np.ndarray


Lines = tuple[list[tuple[int, int]], list[Handover]]
"""A root's lines: (first move, worth) of those whose worth is known at once, and those
that hand the turn over."""


def lines(root: np.ndarray, rules: int, ending: endgame.EndgameTable) -> Lines:
    """Every line of ``root``'s side to move through its own extra turns: those that end
    the game or reach the endgame table, worth known at once, as (first move, worth), and
    those that hand the turn over."""
    pits, width = sowing.pit_count(root), root.shape[0]
    side = root[width - 1]
    before = _difference(root, pits, side)
    worths: list[tuple[int, int]] = []
    handovers: list[Handover] = []

    def walk(pos: np.ndarray, first: int) -> None:
        for column in range(pits):
            if pos[sowing.pit_index(side, column, pits)] == 0:
                continue
            child = pos.copy()
            over = bool(sowing.apply_move(child, column, rules) & sowing.GAME_OVER)
            line = column if first < 0 else first
            gained = _difference(child, pits, side) - before
            if over or _in_pits(child, pits) <= ending.seeds:
                worth = _settled(child, side, gained, over, ending.packed, ending.choose)
                worths.append((line, int(worth)))
            elif child[width - 1] == side:
                walk(child, line)
            else:
                handovers.append(Handover(line, gained, child))

    walk(root, -1)
    return worths, handovers


def split(search: Search, lower: int, upper: int, depth: int, root_lines: Lines) -> int:
    """``null_window`` of ``search``'s root in (lower, upper) by its solver's threads:
    each of ``root_lines`` that hands the turn over a search of its own (``Race``).  The
    lines' nodes and horizons add up in ``search.info``, as the one search's would."""
    worths, handovers = root_lines
    info = search.info
    best, move = max(((worth, first) for first, worth in worths), default=(-INF, -1))
    info[ABORTED] = info[HORIZON] = 0
    if best >= upper:
        info[BEST] = move
        return best
    race = Race(search, lower, upper, depth, handovers, best, move)
    threads = [threading.Thread(target=race.run, daemon=True) for _ in range(search.threads)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if race.errors:
        raise race.errors[0]
    info[NODES] += race.nodes
    info[HORIZON] = race.horizon
    info[ABORTED] = race.best < upper and race.stopped
    if race.best >= upper:
        info[BEST] = race.move
    return race.best


class Race:
    """The searches of one split window (``split``): lines taken in turn, the
    costliest so far first; a thread finding none left helps one still running (a
    second search of it, ``helping``), and whichever of the two ends first answers for
    it and stops the other."""

    def __init__(
        self,
        search: Search,
        lower: int,
        upper: int,
        depth: int,
        handovers: list[Handover],
        best: int,
        move: int,
    ) -> None:
        self.search, self.lower, self.upper, self.depth = search, lower, upper, depth
        self.best, self.move = best, move
        self.todo = sorted(range(len(handovers)), key=lambda i: -search.costs[i])
        self.handovers = handovers
        self.running: dict[int, list[np.ndarray]] = {}
        self.nodes = self.horizon = 0
        self.stopped = False
        self.errors: list[BaseException] = []
        self.lock = threading.Lock()

    def run(self) -> None:
        """A thread's work: lines until none is left (an error kept for ``split``, the
        others stopped, as the window has no answer)."""
        try:
            self._search_lines()
        except BaseException as error:
            with self.lock:
                self.errors.append(error)
                self._halt_all()

    def _search_lines(self) -> None:
        figures = np.zeros(INFO_SIZE, dtype=np.int64)
        while (taken := self._take()) is not None:
            i, halt, helping = taken
            line, search = self.handovers[i], self.search
            figures[:] = 0
            shared = search.shared._replace(info=figures, stop=halt)
            value = null_window(
                line.position, search.rules, line.gained - self.upper,
                line.gained - self.lower, self.depth - 1, shared, helping,
            )  # fmt: skip
            self._end(i, int(value), figures)

    def _take(self) -> tuple[int, np.ndarray, bool] | None:
        """The next line to search (its number, its stop flag, whether helping), or None
        when the window is answered or stopped."""
        with self.lock:
            if self.best >= self.upper or self.search.clock.is_set or self.errors:
                self.stopped |= self.search.clock.is_set
                return None
            helping = not self.todo
            if helping:
                alone = [i for i, runs in self.running.items() if len(runs) == 1]
                if not alone:
                    return None
                i = alone[0]
            else:
                i = self.todo.pop(0)
            halt = self.search.clock.attach(np.zeros(1, dtype=np.int64))
            self.running.setdefault(i, []).append(halt)
            return i, halt, helping

    def _end(self, i: int, value: int, figures: np.ndarray) -> None:
        """A search of line ``i`` ended with ``value`` (its figures in ``figures``)."""
        with self.lock:
            self.nodes += int(figures[NODES])
            self.search.costs[i] += int(figures[NODES])
            if i not in self.running:  # answered by the other search of it
                return
            if figures[ABORTED]:
                self.stopped |= self.search.clock.is_set
                return
            for halt in self.running.pop(i):
                halt.fill(1)
            self.horizon += int(figures[HORIZON])
            line = self.handovers[i]
            through = line.gained - value
            if through > self.best:
                self.best, self.move = through, line.first
            if self.best >= self.upper:
                self._halt_all()

    def _halt_all(self) -> None:
        """Stop every search running (the lock held)."""
        for runs in self.running.values():
            for halt in runs:
                halt.fill(1)
