"""Piskvork's ``.psq`` records of five-in-a-row games, written and read.

A record is a header naming the board, ``Piskvorky 15x15, 11:11, 0``, one line a move
in the order played, ``x,y,ms`` (the column and row counted from 1 at the top-left, and
the milliseconds the move took), then the two players' names and ``-1``.  Readers (and
Piskvork) take the moves up to the first line that is not one, so the lines after them
may differ between tools.  The record keeps no rule: the five rule is the reader's.
Every number is read by :func:`parlour.core.parse_whole`: digits of another script, or a
number of any length out of range, are refused with the line that has them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from parlour.core import BadPosition, IllegalMove, State, game, parse_whole, shown
from parlour.games.gomoku.game import MAX_SIZE, MIN_SIZE, GomokuGame, GomokuState, Point

_HEADER = re.compile(r"\s*Piskvorky\s+(\d+)x(\d+)\b", re.IGNORECASE)
_MOVE = re.compile(r"\s*(\d+),(\d+),(-?)(\d+)\s*$")
"""A header and a move line, their digits of any script (\\d), which ``parse_whole``
then reads or refuses by name."""
MAX_MS = 2**31 - 1
"""The most milliseconds a move line may say (a C ``int``, as Piskvork writes them)."""


@dataclass(frozen=True)
class PsqRecord:
    """A game as a ``.psq`` holds it: the board size, the moves (parlour's points, in
    order), each move's milliseconds and the players' names (empty when not given)."""

    size: int
    moves: tuple[Point, ...]
    times: tuple[int, ...]
    names: tuple[str, ...] = ()

    def replay(self, exact_five: bool = False) -> GomokuState:
        """The position after the moves, under the five rule given (BadPosition if a move
        is not legal where it is, as a taken point or a move after the five)."""
        rules = game("gomoku", size=self.size, exact_five=exact_five)
        assert isinstance(rules, GomokuGame)
        state = rules.start()
        for number, point in enumerate(self.moves, 1):
            try:
                state = state.play(point)
            except IllegalMove as error:
                raise BadPosition(f"move {number} of the record: {error.reason}") from None
        return state


def to_psq(
    size: int,
    moves: Sequence[Point],
    names: tuple[str, str] = ("X", "0"),
    times: Sequence[int] | None = None,
) -> str:
    """The ``.psq`` text of a game on a ``size`` board played by ``moves`` from the empty
    board (player 0, ``X``, first), with each move's milliseconds (0 when not given)."""
    spent = list(times) if times is not None else [0] * len(moves)
    if len(spent) != len(moves):
        raise ValueError(f"{len(moves)} moves but {len(spent)} times")
    lines = [f"Piskvorky {size}x{size}, 11:11, 0"]
    lines += [f"{col + 1},{row + 1},{ms}" for (row, col), ms in zip(moves, spent, strict=True)]
    lines += [*names, "-1"]
    return "\n".join(lines) + "\n"


def from_psq(text: str) -> PsqRecord:
    """The record in ``text``; BadPosition naming what is wrong (no header, a board
    parlour does not play, a move off the board)."""
    lines = text.splitlines()
    header = _HEADER.match(lines[0]) if lines else None
    if header is None:
        first = shown(lines[0][:40]) if lines else "nothing"
        raise BadPosition(f"not a .psq record: it begins with {first}, not 'Piskvorky NxN'")
    width, height = (
        parse_whole(side, "the board's side", MIN_SIZE, MAX_SIZE) for side in header.groups()
    )
    if width != height:
        raise BadPosition(f"a {width}x{height} board; parlour plays square boards only")
    moves: list[Point] = []
    times: list[int] = []
    rest = lines[1:]
    for number, line in enumerate(rest, 1):
        found = _MOVE.match(line)
        if found is None:
            break
        x, y = (
            parse_whole(found[i], f"move {number}'s {axis}", 1, width)
            for i, axis in ((1, "column"), (2, "row"))
        )
        ms = parse_whole(found[4], f"move {number}'s milliseconds", 0, MAX_MS)
        moves.append((y - 1, x - 1))
        times.append(-ms if found[3] else ms)
    names = tuple(line.strip() for line in rest[len(moves) : len(moves) + 2] if line.strip())
    return PsqRecord(width, tuple(moves), tuple(times), tuple(n for n in names if n != "-1"))


def read(text: str, options: Mapping[str, Any]) -> tuple[GomokuState, tuple[Point, ...]]:
    """The start and the moves of the record in ``text`` under the rule ``options`` the
    record does not keep (the board's size is the record's), every move checked (the
    errors of :func:`from_psq` and :meth:`PsqRecord.replay`)."""
    record = from_psq(text)
    rules = game("gomoku", **{**options, "size": record.size})
    assert isinstance(rules, GomokuGame)
    record.replay(rules.options["exact_five"])
    return rules.start(), record.moves


def write(
    start: State,
    moves: Sequence[Any],
    names: tuple[str, str] | None = None,
    seconds: Sequence[float] | None = None,
) -> str:
    """The ``.psq`` text of the game played from ``start`` (an empty board: BadPosition
    otherwise) by ``moves``, the players called ``names`` (X and 0 if None), each move's
    ``seconds`` (0 if None)."""
    assert isinstance(start, GomokuState)
    if start.board.any():
        raise BadPosition("a .psq record starts from an empty board")
    times = None if seconds is None else [round(1000 * s) for s in seconds]
    return to_psq(start.size, moves, names or ("X", "0"), times)
