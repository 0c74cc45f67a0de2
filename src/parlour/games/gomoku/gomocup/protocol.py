"""The Gomocup protocol's shared vocabulary (the "pbrain" protocol of Piskvork, used by
Gomocup's managers and engines): what parlour's brain (:mod:`.brain`) reads and what its
engine player (:mod:`.player`) writes, so both sides agree.

A point travels as ``x,y``: 0-based from the top-left, ``x`` the column, where parlour's
point is ``(row, column)``.  Times are milliseconds, memory bytes.  The ``rule`` number's
bit 1 asks for exactly five (an overline does not win); bits 4 (renju) and 8 (caro) ask
for rules parlour does not play.
"""

from __future__ import annotations

from parlour.core import ParlourError, shown
from parlour.games.gomoku.game import MAX_SIZE, MIN_SIZE, Point

EXACT_FIVE, CONTINUOUS, RENJU, CARO = 1, 2, 4, 8
"""The bits of ``INFO rule``."""
OWN, THEIRS = 1, 2
"""The field of a ``BOARD`` line: the brain's own stone, the opponent's."""
BRAIN_NAME = "parlour"


class ProtocolError(ParlourError):
    """A protocol line that cannot be read; the message names what is wrong."""


def parse_number(text: str, what: str) -> int:
    """A whole number (0 or more) of a protocol line."""
    text = text.strip()
    if not text.isdigit():
        raise ProtocolError(f"{what} must be a whole number, not {shown(text)}")
    return int(text)


def parse_point(text: str, size: int) -> Point:
    """``x,y`` on a ``size`` board as parlour's (row, column)."""
    parts = text.split(",")
    if len(parts) != 2:
        raise ProtocolError(f"a point is x,y, not {shown(text.strip())}")
    x, y = (parse_number(part, "a coordinate") for part in parts)
    if x >= size or y >= size:
        raise ProtocolError(f"{x},{y} is off the {size}x{size} board (0 to {size - 1})")
    return y, x


def point_text(point: Point) -> str:
    """parlour's (row, column) as the protocol's ``x,y``."""
    row, col = point
    return f"{col},{row}"


def check_size(size: int) -> None:
    """Refuse a board parlour does not play."""
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise ProtocolError(f"parlour plays boards of {MIN_SIZE} to {MAX_SIZE}, not {size}")
