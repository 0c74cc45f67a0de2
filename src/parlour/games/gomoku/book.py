"""The opening book of five in a row: moves chosen by parlour's own long searches of the
openings, kept as data (``book.json`` beside the rules) so that a move of a shorter
budget can play what a longer search found.

A book is built for one rule set and board size (15x15 freestyle, the shipped one's) and
finds nothing for another.  An entry is keyed by its position's canonical form, the least
of its 8 images under the square's symmetries (``canonical``), so one entry serves all
8; its move is in that frame and mapped back on lookup.  The key names the stones of the
side to move, then the opponent's (``H8 I9/H9``), not X's and 0's: a Gomocup brain's
own stones are its 1s whoever began, and the rules are the same for both.  Each entry
keeps the value and depth of the search that chose it and its seconds, so that a level
plays it only where the book's search had more time than its own
(``engine.driver.GomokuThinker``).  ``benchmarks/gomoku_book.py`` builds the book.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from parlour.core import IllegalMove
from parlour.files import BadFile, read_json
from parlour.games.gomoku.game import EMPTY, GomokuState, Point

BOOK_FILE = Path(__file__).with_name("book.json")
"""The shipped book."""
MAX_BYTES = 2**20
"""The largest book read: the shipped one is under a tenth of it."""
MAX_SECONDS = 10**6
"""The longest search an entry may claim."""
SYMMETRIES = 8
INVERSE = (0, 3, 2, 1, 4, 5, 6, 7)
"""The symmetry undoing each of ``image``'s: the quarter turns undo each other, the
half turn and the reflections themselves."""


def image(point: Point, k: int, n: int) -> Point:
    """``point`` of an ``n`` x ``n`` board under symmetry ``k`` (0 to 7): the identity, the
    three turns, then the four reflections."""
    r, c, m = point[0], point[1], n - 1
    return (
        (r, c), (c, m - r), (m - r, m - c), (m - c, r),
        (r, m - c), (m - r, c), (c, r), (m - c, m - r),
    )[k]  # fmt: skip


def _stones(state: GomokuState) -> tuple[list[Point], list[Point]]:
    """The side to move's stones and the opponent's."""
    mover = state.to_move + 1
    board = state.board
    points = [(int(r), int(c)) for r, c in zip(*board.nonzero(), strict=True)]
    return [p for p in points if board[p] == mover], [p for p in points if board[p] != mover]


def canonical(state: GomokuState) -> tuple[str, int]:
    """The key of ``state``'s position (its least image under the symmetries, as the side
    to move's stones, then the opponent's, each in order) and the symmetry that maps
    ``state`` onto it."""
    n = state.size
    mine, theirs = _stones(state)
    images = [
        (sorted(image(p, k, n) for p in mine), sorted(image(p, k, n) for p in theirs), k)
        for k in range(SYMMETRIES)
    ]
    least_mine, least_theirs, k = min(images)
    names = (" ".join(state.move_name(p) for p in side) for side in (least_mine, least_theirs))
    return "/".join(names), k


@dataclass(frozen=True)
class Entry:
    """A book move, in its key's frame, and the search that chose it."""

    move: Point
    value: int
    depth: int
    seconds: float


@dataclass(frozen=True)
class Book:
    """The entries of one rule set and board size, by canonical key."""

    size: int
    exact: bool
    entries: dict[str, Entry]

    def lookup(self, state: GomokuState) -> Entry | None:
        """The entry of ``state``'s position with its move mapped onto ``state``'s board;
        None if the book has none, or is of other rules or another size."""
        if state.size != self.size or state.game.exact != self.exact:
            return None
        key, k = canonical(state)
        entry = self.entries.get(key)
        if entry is None:
            return None
        move = image(entry.move, INVERSE[k], self.size)
        return Entry(move, entry.value, entry.depth, entry.seconds)

    def with_entry(
        self, state: GomokuState, move: Point, value: int, depth: int, seconds: float
    ) -> Book:
        """This book with ``state``'s entry (``move`` on ``state``'s board) set."""
        key, k = canonical(state)
        entry = Entry(image(move, k, self.size), value, depth, seconds)
        return Book(self.size, self.exact, {**self.entries, key: entry})


def as_json(book: Book) -> dict[str, Any]:
    """``book`` as its file holds it (the moves by name, the entries in key order)."""
    start = _start(book.size, book.exact)
    return {
        "rules": {"size": book.size, "exact_five": book.exact},
        "entries": {
            key: {
                "move": start.move_name(entry.move),
                "value": entry.value,
                "depth": entry.depth,
                "seconds": entry.seconds,
            }
            for key, entry in sorted(book.entries.items())
        },
    }


def from_json(data: Any, what: str) -> Book:
    """The book of the file's JSON ``data`` (``what`` names it); BadFile naming the first
    problem: rules that are not a size and a five rule, an entry whose key is no canonical
    position, whose move is not an empty point, or whose figures are not numbers."""
    if not isinstance(data, dict) or set(data) != {"rules", "entries"}:
        raise BadFile(f"{what}: not an object of rules and entries")
    rules, entries = data["rules"], data["entries"]
    if not isinstance(rules, dict) or set(rules) != {"size", "exact_five"}:
        raise BadFile(f"{what}: rules must give exactly size and exact_five")
    size, exact = rules["size"], rules["exact_five"]
    if type(size) is not int or type(exact) is not bool:
        raise BadFile(f"{what}: rules: size is a whole number and exact_five true or false")
    try:
        start = _start(size, exact)
    except ValueError as error:
        raise BadFile(f"{what}: rules: {error}") from None
    if not isinstance(entries, dict):
        raise BadFile(f"{what}: entries must be an object of positions")
    return Book(
        size, exact, {key: _entry(start, key, value, what) for key, value in entries.items()}
    )


def _entry(start: GomokuState, key: str, data: Any, what: str) -> Entry:
    """The entry ``data`` of ``key``, checked against the position ``key`` names."""
    where = f"{what}: entry {key!r}"
    if not isinstance(data, dict) or set(data) != {"move", "value", "depth", "seconds"}:
        raise BadFile(f"{where} must give exactly move, value, depth and seconds")
    state = _position(start, key, where)
    try:
        move = state.parse_move(str(data["move"]))
    except IllegalMove:
        raise BadFile(f"{where}: its move {data['move']!r} is not an empty point") from None
    value, depth, seconds = data["value"], data["depth"], data["seconds"]
    if type(value) is not int or type(depth) is not int or depth < 0:
        raise BadFile(f"{where}: value and depth must be whole numbers, depth 0 or more")
    if type(seconds) not in (int, float) or not 0 < seconds <= MAX_SECONDS:
        raise BadFile(f"{where}: seconds must be a number above 0 and at most {MAX_SECONDS}")
    return Entry(move, value, depth, float(seconds))


def _position(start: GomokuState, key: str, where: str) -> GomokuState:
    """The position ``key`` names, the side to move's stones first; BadFile unless it is
    a key ``canonical`` gives."""
    mine, slash, theirs = key.partition("/")
    board = start.board.copy()
    try:
        for stone, names in ((1, mine), (2, theirs)):
            for name in names.split():
                point = start.parse_move(name)
                if board[point] != EMPTY:
                    raise IllegalMove(name, "given twice")
                board[point] = stone
    except IllegalMove:
        raise BadFile(f"{where}: not a position (the mover's points/the opponent's)") from None
    state = GomokuState(start.game, board, 0)
    if not slash or canonical(state)[0] != key:
        raise BadFile(f"{where}: not a canonical key (its least image, points in order)")
    return state


def _start(size: int, exact: bool) -> GomokuState:
    import parlour

    start = parlour.game("gomoku", size=size, exact_five=exact).start()
    assert isinstance(start, GomokuState)
    return start


def load_book(path: Path) -> Book:
    """The book in the file at ``path`` (at most ``MAX_BYTES``)."""
    return from_json(read_json(str(path), MAX_BYTES), str(path))


@cache
def shipped() -> Book:
    """The shipped book (``BOOK_FILE``), read once a process."""
    return load_book(BOOK_FILE)
