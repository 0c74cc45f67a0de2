"""Five in a row (RULES.md section 3, seed 002): the game ``gomoku`` on any N x N board.

A position is an (N, N) int8 array, row 0 at the top: 0 for an empty point, 1 for a stone
of player 0 (``X``) and 2 for a stone of player 1 (``0``), so a player's stone is
``player + 1``.  The kernels below are the rules themselves (the win test through one
point, the whole-board five, the seed's ``sequences`` count); the search in
:mod:`parlour.games.gomoku.engine` runs the same kernels.  The win rule travels as one flag,
``exact`` (an overline of six or more does not win), so every kernel has one signature.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np
from numba import njit

from parlour.core import (
    BadPosition,
    Game,
    IllegalMove,
    Move,
    Option,
    State,
    digits_note,
    digits_value,
    shown,
)

EMPTY = 0
SYMBOLS = ".X0"
"""The seed's characters, indexed by the array's cell values."""
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
"""Column letters as on a real board and in Gomocup records, no letter skipped."""
MIN_SIZE = 5
MAX_SIZE = len(LETTERS)

DR = (0, 1, 1, 1)
DC = (1, 0, 1, -1)
"""The four line directions: row, column, first diagonal (down-right), second (down-left)."""

Point = tuple[int, int]


@njit(cache=True, nogil=True)
def run_through(board: np.ndarray, row: int, col: int, d: int, stone: int) -> int:
    """The length of the run of ``stone`` through (row, col) in direction ``d``, counting
    (row, col) itself as ``stone`` whatever it holds (so it also asks "what if I played")."""
    n = board.shape[0]
    dr = DR[d]
    dc = DC[d]
    length = 1
    r = row + dr
    c = col + dc
    while 0 <= r < n and 0 <= c < n and board[r, c] == stone:
        length += 1
        r += dr
        c += dc
    r = row - dr
    c = col - dc
    while 0 <= r < n and 0 <= c < n and board[r, c] == stone:
        length += 1
        r -= dr
        c -= dc
    return length


@njit(cache=True, nogil=True)
def is_five(length: int, exact: bool) -> bool:
    """Whether a run of ``length`` wins: five or more, or exactly five under ``exact``."""
    return length == 5 if exact else length >= 5


@njit(cache=True, nogil=True)
def makes_five(board: np.ndarray, row: int, col: int, stone: int, exact: bool) -> bool:
    """Whether ``stone`` at (row, col) completes a five: the win test after a move, which
    looks only at the four lines through that move."""
    for d in range(4):
        if is_five(run_through(board, row, col, d, stone), exact):
            return True
    return False


@njit(cache=True, nogil=True)
def find_five(board: np.ndarray, stone: int, exact: bool) -> int:
    """A winning run of ``stone`` anywhere on the board, as ``(row * N + col) * 4 + d`` of
    its first point and direction, or -1: the whole-board test a parsed position needs."""
    n = board.shape[0]
    for row in range(n):
        for col in range(n):
            if board[row, col] != stone:
                continue
            for d in range(4):
                r = row - DR[d]
                c = col - DC[d]
                if 0 <= r < n and 0 <= c < n and board[r, c] == stone:
                    continue  # not the first point of its run
                if is_five(run_through(board, row, col, d, stone), exact):
                    return int((row * n + col) * 4 + d)
    return -1


@njit(cache=True, nogil=True)
def window_stones(board: np.ndarray, row: int, col: int, d: int, back: int, stone: int) -> int:
    """How many of ``stone`` the window of five on line ``d`` through (row, col) holds,
    the window beginning ``back`` points behind it; -1 where the window leaves the board
    or holds an opponent's stone, so that it can never make a five."""
    n = board.shape[0]
    r0 = row - back * DR[d]
    c0 = col - back * DC[d]
    r4 = r0 + 4 * DR[d]
    c4 = c0 + 4 * DC[d]
    if not (0 <= r0 < n and 0 <= c0 < n and 0 <= r4 < n and 0 <= c4 < n):
        return -1
    mine = 0
    for i in range(5):
        cell = board[r0 + i * DR[d], c0 + i * DC[d]]
        if cell == stone:
            mine += 1
        elif cell != EMPTY:
            return -1
    return mine


@njit(cache=True, nogil=True)
def window_counts(board: np.ndarray, stone: int) -> np.ndarray:
    """The seed's ``sequences``: ``counts[k]`` is the number of windows of five consecutive
    points (rows, columns, both diagonals) holding exactly k stones of ``stone`` and 5-k
    empty points, for k = 0..5 (RULES.md reports k = 2..5)."""
    n = board.shape[0]
    counts = np.zeros(6, dtype=np.int64)
    for d in range(4):
        for row in range(n):
            for col in range(n):
                mine = window_stones(board, row, col, d, 0, stone)
                if mine >= 0:
                    counts[mine] += 1
    return counts


def complement(player: int) -> int:
    """The opponent of ``player`` (the seed's ``complement``)."""
    if player not in (0, 1):
        raise ValueError(f"a player is 0 or 1, not {player!r}")
    return 1 - player


class GomokuGame(Game):
    """Five in a row on an N x N board; ``gomoku`` is its freestyle preset."""

    OPTIONS = (
        Option("size", int, 15, "points on a side", minimum=MIN_SIZE, maximum=MAX_SIZE),
        Option(
            "exact_five",
            bool,
            False,
            "only exactly five wins; an overline of six or more does not (Gomocup standard)",
        ),
        Option(
            "strict",
            bool,
            False,
            "positions read from text must be reachable: stone counts, nothing after a five",
        ),
    )

    @property
    def size(self) -> int:
        return int(self.options["size"])

    @property
    def exact(self) -> bool:
        """The win rule as the kernels' flag."""
        return bool(self.options["exact_five"])

    def start(self) -> GomokuState:
        return GomokuState(self, np.zeros((self.size, self.size), dtype=np.int8), 0)

    def resized(self, size: int) -> GomokuGame:
        """This rule set on a ``size`` x ``size`` board."""
        if size == self.size:
            return self
        return type(self)(self.name, {**self.options, "size": size})

    def parse(self, text: str, to_move: int | None = None) -> GomokuState:
        """Read the seed's string: rows of ``X``, ``0`` and ``.`` joined by ``\\n``, top row
        first (one final newline is tolerated).  Any board size from 5 up is read; the
        state's game is this one on that size.  ``to_move`` gives the side to move; without
        it, X moves when X has no more stones than 0.  BadPosition names what is wrong."""
        board = _grid(text)
        game = self.resized(board.shape[0])
        x_five = find_five(board, 1, game.exact) >= 0
        o_five = find_five(board, 2, game.exact) >= 0
        if x_five and o_five:
            raise BadPosition("both X and 0 have five in a row; at most one player can have won")
        xs, os = int((board == 1).sum()), int((board == 2).sum())
        if to_move is None:
            to_move = 0 if xs <= os else 1
        elif to_move not in (0, 1):
            raise BadPosition(f"the player to move is 0 (X) or 1 (0), not {shown(to_move)}")
        if self.options["strict"]:
            _check_reachable(board, xs, os, to_move, game.exact)
        return GomokuState(game, board, to_move)


def _count(n: int, noun: str) -> str:
    """``1 line``, ``4 lines``."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _grid(text: str) -> np.ndarray:
    """The board array of a position string, or BadPosition naming the line and character."""
    if not text.strip():
        raise BadPosition("the position is empty; expected rows of X, 0 and . joined by newlines")
    lines = text.removesuffix("\n").split("\n")
    n = len(lines[0])
    for r, line in enumerate(lines):
        if len(line) != n:
            raise BadPosition(f"line {r + 1} has {_count(len(line), 'point')}; line 1 has {n}")
        for c, char in enumerate(line):
            if char not in SYMBOLS:
                hint = " (the second player is the digit 0)" if char in "Oo" else ""
                raise BadPosition(
                    f"line {r + 1}, character {c + 1}: {char!r} is not X, 0 or .{hint}"
                )
    if len(lines) != n:
        shape = f"{_count(len(lines), 'line')} of {_count(n, 'point')}"
        raise BadPosition(f"the board has {shape}; it must be square")
    if not MIN_SIZE <= n <= MAX_SIZE:
        raise BadPosition(f"the board is {n}x{n}; it must be {MIN_SIZE}x{MIN_SIZE} to 26x26")
    codes = np.frombuffer(text.replace("\n", "").encode("ascii"), dtype=np.uint8)
    board = np.zeros(n * n, dtype=np.int8)
    board[codes == ord("X")] = 1
    board[codes == ord("0")] = 2
    return board.reshape(n, n)


def _check_reachable(board: np.ndarray, xs: int, os: int, to_move: int, exact: bool) -> None:
    """``strict``: refuse what no legal game reaches: counts, side to move, play after five."""
    if xs - os not in (0, 1):
        raise BadPosition(f"X has {xs} stones and 0 has {os}; X must have as many or one more")
    if to_move != xs - os:
        raise BadPosition(f"with {xs} X and {os} 0 stones it is {SYMBOLS[xs - os + 1]}'s move")
    for stone in (1, 2):
        if find_five(board, stone, exact) < 0:
            continue
        if stone != 2 - to_move:
            raise BadPosition(f"{SYMBOLS[stone]} has five but did not make the last move")
        if not any(_five_gone(board, r, c, stone, exact) for r, c in np.argwhere(board == stone)):
            raise BadPosition(f"the game went on after {SYMBOLS[stone]}'s five")


def _five_gone(board: np.ndarray, row: int, col: int, stone: int, exact: bool) -> bool:
    """Whether lifting the stone at (row, col) leaves ``stone`` without a five, that is,
    whether it can have been the winning (last) move."""
    lifted = board.copy()
    lifted[row, col] = EMPTY
    return bool(find_five(lifted, stone, exact) < 0 and makes_five(lifted, row, col, stone, exact))


class GomokuState(State):
    """A position of five in a row: a read-only board array, the side to move, its game.

    Two states are equal when board and side to move are; the last move is remembered only
    for the screens.
    """

    __slots__ = ("_board", "_last", "_legal", "_to_move", "_winner", "game")

    def __init__(
        self, game: GomokuGame, board: np.ndarray, to_move: int, last: Point | None = None
    ) -> None:
        board.flags.writeable = False
        self.game: GomokuGame = game
        self._board = board
        self._to_move = to_move
        self._last = last
        self._winner = self._find_winner()
        self._legal: tuple[Point, ...] | None = None  # found when first asked

    def _find_winner(self) -> int | None:
        if self._last is not None:  # a played move: only its lines can hold a new five
            stone = int(self._board[self._last])
            return (
                stone - 1 if makes_five(self._board, *self._last, stone, self.game.exact) else None
            )
        for stone in (1, 2):
            if find_five(self._board, stone, self.game.exact) >= 0:
                return stone - 1
        return None

    @property
    def board(self) -> np.ndarray:
        """The kernels' (N, N) int8 array (read-only): 0 empty, 1 for X, 2 for 0."""
        return self._board

    @property
    def size(self) -> int:
        return self.game.size

    @property
    def last_move(self) -> Point | None:
        """The move that made this state, when it was made by ``play``."""
        return self._last

    @property
    def to_move(self) -> int:
        return self._to_move

    @property
    def winner(self) -> int | None:
        """The player with five in a row (the seed's ``winner``, for either player)."""
        return self._winner

    @property
    def is_over(self) -> bool:
        return self._winner is not None or not (self._board == EMPTY).any()

    @property
    def scores(self) -> tuple[int, int]:
        """1 for the winner, 0 otherwise."""
        return (int(self._winner == 0), int(self._winner == 1))

    complement = staticmethod(complement)

    def is_free(self, row: int, col: int) -> bool:
        """Whether (row, col) is on the board and empty."""
        return 0 <= row < self.size and 0 <= col < self.size and self._board[row, col] == EMPTY

    def legal_moves(self) -> tuple[Point, ...]:
        """Every empty point, row by row from the top (none once the game is over)."""
        if self._legal is None:
            free = np.argwhere(self._board == EMPTY).tolist()
            self._legal = () if self.is_over else tuple((r, c) for r, c in free)
        return self._legal

    def play(self, move: Move) -> GomokuState:
        """The seed's ``update``, checked: a stone of the side to move on an empty point."""
        row, col = self._checked(move)
        board = self._board.copy()
        board[row, col] = self._to_move + 1
        return GomokuState(self.game, board, 1 - self._to_move, (row, col))

    def _checked(self, move: Move) -> Point:
        """The point of ``move`` once it is known to be legal, or IllegalMove saying why."""
        if self.is_over:
            raise IllegalMove(move, "the game is over")
        row, col = self._checked_point(move)
        if not self.is_free(row, col):
            raise IllegalMove(move, f"point {self.move_name((row, col))} is taken")
        return row, col

    def _checked_point(self, move: Move) -> Point:
        """``move`` as a (row, column) pair on this board, or IllegalMove."""
        if not (
            isinstance(move, tuple)
            and len(move) == 2
            and all(isinstance(v, int | np.integer) and not isinstance(v, bool) for v in move)
        ):
            raise IllegalMove(move, "a move is a (row, column) pair of whole numbers")
        row, col = int(move[0]), int(move[1])
        if not (0 <= row < self.size and 0 <= col < self.size):
            raise IllegalMove(move, f"rows and columns are 0 to {self.size - 1}")
        return row, col

    def next_states(self) -> tuple[GomokuState, ...]:
        """The seed's ``next``: every state one move later."""
        return tuple(self.play(move) for move in self.legal_moves())

    def sequences(self, player: int) -> dict[int, int]:
        """The seed's ``sequences`` as RULES.md defines it: for k = 5, 4, 3, 2, the number of
        windows of five points holding k of ``player``'s stones and 5-k empty points."""
        complement(player)  # refuses anything but 0 and 1
        counts = window_counts(self._board, player + 1)
        return {k: int(counts[k]) for k in (5, 4, 3, 2)}

    def five(self) -> tuple[Point, ...]:
        """The points of the winning run (empty while nobody has won)."""
        if self._winner is None:
            return ()
        found = find_five(self._board, self._winner + 1, self.game.exact)
        start, d = divmod(found, 4)
        row, col = divmod(start, self.size)
        length = run_through(self._board, row, col, d, self._winner + 1)
        return tuple((row + i * DR[d], col + i * DC[d]) for i in range(length))

    # The seed's lines, each a string of X, 0 and . (top to bottom, left to right).

    def _line(self, points: Any) -> str:
        return "".join(SYMBOLS[self._board[r, c]] for r, c in points)

    def rows(self) -> tuple[str, ...]:
        """The rows, top first."""
        return tuple(self._line((r, c) for c in range(self.size)) for r in range(self.size))

    def columns(self) -> tuple[str, ...]:
        """The columns, left first, each read top to bottom (the seed's ``getColumns``)."""
        return tuple(self._line((r, c) for r in range(self.size)) for c in range(self.size))

    def first_diagonal(self) -> str:
        """The main diagonal, top-left to bottom-right."""
        return self._diagonal_of(0, 0, 1)

    def second_diagonal(self) -> str:
        """The other main diagonal, top-right to bottom-left."""
        return self._diagonal_of(0, self.size - 1, -1)

    def above_first_diagonal(self) -> tuple[str, ...]:
        """The diagonals parallel to the first and above it, nearest first, however short."""
        return tuple(self._diagonal_of(0, k, 1) for k in range(1, self.size))

    def below_first_diagonal(self) -> tuple[str, ...]:
        """The diagonals parallel to the first and below it, nearest first."""
        return tuple(self._diagonal_of(k, 0, 1) for k in range(1, self.size))

    def above_second_diagonal(self) -> tuple[str, ...]:
        """The diagonals parallel to the second and above it, nearest first."""
        return tuple(self._diagonal_of(0, self.size - 1 - k, -1) for k in range(1, self.size))

    def below_second_diagonal(self) -> tuple[str, ...]:
        """The diagonals parallel to the second and below it, nearest first."""
        return tuple(self._diagonal_of(k, self.size - 1, -1) for k in range(1, self.size))

    def _diagonal_of(self, row: int, col: int, dc: int) -> str:
        length = min(self.size - row, col + 1 if dc < 0 else self.size - col)
        return self._line((row + i, col + i * dc) for i in range(length))

    # Text.

    def move_name(self, move: Move) -> str:
        """``H8``: the column letter and the row number counted from 1 at the bottom."""
        row, col = self._checked_point(move)
        return f"{LETTERS[col]}{self.size - row}"

    def parse_move(self, text: str) -> Point:
        """The point a person typed as ``H8`` (any case), if the side to move may play it."""
        word = text.strip()
        last = LETTERS[self.size - 1]
        centre = f"{LETTERS[self.size // 2]}{self.size - self.size // 2}"
        usage = f"type a column letter A..{last} and a row number 1..{self.size}, like {centre}"
        if not word:
            raise IllegalMove(text, usage)
        letter, number = word[0].upper(), digits_value(word[1:], self.size)
        if not (word[0].isascii() and letter in LETTERS) or number is None:
            number_text = word[1:] if word[0].isalpha() else word
            raise IllegalMove(text, f"not a point: {usage}{digits_note(number_text)}")
        col, row = LETTERS.index(letter), self.size - number
        if not (col < self.size and 0 <= row < self.size):
            raise IllegalMove(text, f"no such point on this board: {usage}")
        if self.is_over:
            raise IllegalMove(text, "the game is over")
        if not self.is_free(row, col):
            raise IllegalMove(text, f"point {self.move_name((row, col))} is taken")
        return row, col

    def notation(self) -> str:
        """The seed's string: rows of X, 0 and . joined by newlines, no trailing newline."""
        return "\n".join(self.rows())

    def render(self) -> str:
        """The board with coordinates; the last move in [brackets], a five in (parentheses)."""
        five = set(self.five())
        letters = ("    " + "".join(f" {LETTERS[c]} " for c in range(self.size))).rstrip()
        lines = [letters]
        for r in range(self.size):
            cells = []
            for c in range(self.size):
                symbol = SYMBOLS[self._board[r, c]]
                if (r, c) in five:
                    cells.append(f"({symbol})")
                elif (r, c) == self._last:
                    cells.append(f"[{symbol}]")
                else:
                    cells.append(f" {symbol} ")
            number = self.size - r
            lines.append(f"{number:>3} {''.join(cells)} {number}")
        lines.append(letters)
        return "\n".join(lines)

    def _key(self) -> Hashable:
        return self._board.tobytes(), self._to_move
