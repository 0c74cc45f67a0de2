"""The Gomocup protocol's shared vocabulary (the "pbrain" protocol of Piskvork, used by
Gomocup's managers and engines): what parlour's brain (:mod:`.brain`) reads and what its
engine player (:mod:`.player`) writes, so both sides agree.

A point travels as ``x,y``: 0-based from the top-left, ``x`` the column, where parlour's
point is ``(row, column)``.  Times are milliseconds, memory bytes.  The ``rule`` number's
bit 1 asks for exactly five (an overline does not win); bits 4 (renju) and 8 (caro) ask
for rules parlour does not play.  Every number is read by :func:`parlour.core.parse_whole`
(the digits 0-9 only, in a range), so that no line can reach arithmetic with a number
out of range, or written in another script's digits.
"""

from __future__ import annotations

from parlour.core import MAX_SECONDS, ParlourError, digits_value, parse_whole, shown
from parlour.games.gomoku.game import MAX_SIZE, MIN_SIZE, Point

EXACT_FIVE, CONTINUOUS, RENJU, CARO = 1, 2, 4, 8
"""The bits of ``INFO rule``."""
OWN, THEIRS, WALL = 1, 2, 3
"""The field of a ``BOARD`` line: the brain's own stone, the opponent's, and (in a
continuous game, or on a point renju forbids) a stone of neither side, which blocks both."""
BRAIN_NAME = "parlour"
MAX_MILLISECONDS = round(MAX_SECONDS * 1000)
"""The longest time a limit holds: a larger one (a manager's "no limit" of 2**31 - 1 ms,
or any number of digits) is read as this, which every timer can be set with."""
MAX_BYTES = 1 << 62
"""The largest memory limit read; a larger one is read as this."""
MAX_CODE = 2**31 - 1
"""The largest ``INFO game_type`` or ``rule`` (a C ``int``, as managers send them)."""


class ProtocolError(ParlourError):
    """A protocol line that cannot be read; the message names what is wrong."""


def parse_number(text: str, what: str, minimum: int, maximum: int) -> int:
    """A whole number ``minimum..maximum`` of a protocol line."""
    return parse_whole(text.strip(), what, minimum, maximum, ProtocolError)


def parse_limit(text: str, what: str, cap: int) -> int:
    """A limit (milliseconds, bytes): a whole number, one above ``cap`` read as ``cap``."""
    value = digits_value(text.strip(), cap)
    return cap if value is not None and value > cap else parse_number(text, what, 0, cap)


def parse_size(text: str) -> int:
    """A board size parlour plays."""
    return parse_number(text, "the board size", MIN_SIZE, MAX_SIZE)


def parse_point(text: str, size: int) -> Point:
    """``x,y`` on a ``size`` board as parlour's (row, column)."""
    parts = text.split(",")
    if len(parts) != 2:
        raise ProtocolError(f"a point is x,y, not {shown(text.strip())}")
    what = f"a coordinate on the {size}x{size} board"
    x, y = (parse_number(part, what, 0, size - 1) for part in parts)
    return y, x


def point_text(point: Point) -> str:
    """parlour's (row, column) as the protocol's ``x,y``."""
    row, col = point
    return f"{col},{row}"
