"""The mancala family (RULES.md section 1): the games ``mancala`` (seed 001) and ``kalah``.

One engine, every rule set.  A position is one small int32 array, the layout the kernels,
the State class and the search all share:

=============  =========================================================
index          holds
=============  =========================================================
0 .. P-1       player 0's pits, columns A.. left to right (bottom row)
P              player 0's store (right)
P+1 .. 2P      player 1's pits in sowing order: index 2P - c is column c
2P+1           player 1's store (left)
2P+2           the player to move
=============  =========================================================

so sowing is simply "the next index, modulo 2P+2", and the pit opposite index i is 2P - i.
A move is a column 0..P-1 of the mover's own row (column A = 0 as player 0 sees the board,
for both rows, as in the seed).  The rule switches travel as one int of flags so that
every kernel has a single signature.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

import numpy as np
from numba import njit

from parlour.core import BadPosition, Game, IllegalMove, Move, Option, State, register

SOW_OPPONENT_STORE = 1
EMPTY_CAPTURE = 2

EXTRA_TURN = 1
CAPTURE = 2
GAME_OVER = 4

LETTERS = "ABCDEFGHIJKLMNOP"


@njit(cache=True, nogil=True)
def pit_count(board: np.ndarray) -> int:
    """P, the number of pits a side, from the array's length 2P+3."""
    return (board.shape[0] - 3) // 2


@njit(cache=True, nogil=True)
def pit_index(player: int, column: int, pits: int) -> int:
    """The array index of ``column`` in ``player``'s row."""
    return column if player == 0 else 2 * pits - column


@njit(cache=True, nogil=True)
def store_index(player: int, pits: int) -> int:
    """The array index of ``player``'s store."""
    return pits if player == 0 else 2 * pits + 1


@njit(cache=True, nogil=True)
def in_row(index: int, player: int, pits: int) -> bool:
    """Whether array ``index`` is a pit of ``player``'s row (stores are in no row)."""
    return index < pits if player == 0 else pits < index <= 2 * pits


@njit(cache=True, nogil=True)
def row_is_empty(board: np.ndarray, player: int) -> bool:
    """Whether every pit of ``player``'s row is empty."""
    pits = pit_count(board)
    first = 0 if player == 0 else pits + 1
    for i in range(first, first + pits):
        if board[i] != 0:
            return False
    return True


@njit(cache=True, nogil=True)
def is_over(board: np.ndarray) -> bool:
    """The game ends as soon as either row is empty."""
    return row_is_empty(board, 0) or row_is_empty(board, 1)


@njit(cache=True, nogil=True)
def is_legal(board: np.ndarray, column: int) -> bool:
    """Whether the side to move may sow ``column``."""
    pits = pit_count(board)
    if column < 0 or column >= pits or is_over(board):
        return False
    return board[pit_index(board[2 * pits + 2], column, pits)] > 0


@njit(cache=True, nogil=True)
def sow(board: np.ndarray, column: int, rules: int) -> int:
    """Sow ``column`` of the side to move in place; return the index the last seed fell in.

    The emptied starting pit is sown into when a hand goes round; the opponent's store is
    skipped unless ``rules`` has SOW_OPPONENT_STORE.
    """
    pits = pit_count(board)
    holes = 2 * pits + 2
    player = board[holes]
    skipped = -1 if rules & SOW_OPPONENT_STORE else store_index(1 - player, pits)
    i = pit_index(player, column, pits)
    seeds = board[i]
    board[i] = 0
    while seeds > 0:
        i += 1
        if i == holes:
            i = 0
        if i != skipped:
            board[i] += 1
            seeds -= 1
    return i


@njit(cache=True, nogil=True)
def settle(board: np.ndarray, last: int, rules: int) -> int:
    """After a sowing that ended in ``last``: capture or extra turn, then the end check.

    Returns the outcome flags (EXTRA_TURN, CAPTURE, GAME_OVER), with the captured column
    in bits 8-15 and the number of captured seeds from bit 16, for the screens.
    """
    pits = pit_count(board)
    holes = 2 * pits + 2
    player = board[holes]
    store = store_index(player, pits)
    outcome = 0
    if last == store:
        outcome = EXTRA_TURN
    elif board[last] == 1 and in_row(last, player, pits):
        opposite = 2 * pits - last
        if board[opposite] > 0 or rules & EMPTY_CAPTURE:
            captured = board[last] + board[opposite]
            board[store] += captured
            board[last] = 0
            board[opposite] = 0
            column = last if player == 0 else 2 * pits - last
            outcome = CAPTURE | (column << 8) | (captured << 16)
    if is_over(board):
        for owner in range(2):
            own_store = store_index(owner, pits)
            for column in range(pits):
                i = pit_index(owner, column, pits)
                board[own_store] += board[i]
                board[i] = 0
        return outcome | GAME_OVER
    if not outcome & EXTRA_TURN:
        board[holes] = 1 - player
    return outcome


@njit(cache=True, nogil=True)
def apply_move(board: np.ndarray, column: int, rules: int) -> int:
    """Play a legal move in place: the sowing, then capture or extra turn, then the end."""
    return settle(board, sow(board, column, rules), rules)


@njit(cache=True, nogil=True)
def perft_kernel(board: np.ndarray, depth: int, rules: int) -> int:
    """RULES.md's perft, as an explicit-stack depth-first walk (no recursion, no allocation
    per node): ``stack[d]`` is the board at ply d and ``nextcol[d]`` the next move to try."""
    if depth == 0 or is_over(board):
        return 1
    pits = pit_count(board)
    stack = np.empty((depth + 1, board.shape[0]), dtype=board.dtype)
    nextcol = np.zeros(depth + 1, dtype=np.int64)
    stack[0, :] = board
    level = 0
    leaves = 0
    while level >= 0:
        column = nextcol[level]
        if column >= pits:
            level -= 1
            continue
        nextcol[level] = column + 1
        here = stack[level]
        if here[pit_index(here[2 * pits + 2], column, pits)] == 0:
            continue
        child = stack[level + 1]
        child[:] = here
        outcome = apply_move(child, column, rules)
        if level + 1 == depth or outcome & GAME_OVER:
            leaves += 1
        else:
            level += 1
            nextcol[level] = 0
    return leaves


@dataclass(frozen=True)
class SowReport:
    """What a move did, for the Referee's ``Moved`` event and the seed's screens."""

    sown: SowingState
    """The position right after the sowing, before any capture or end-of-game collection."""
    extra_turn: bool
    capture_column: int | None
    captured: int
    game_over: bool


class SowingGame(Game):
    """A rule set of the mancala family; ``mancala`` and ``kalah`` are its presets."""

    OPTIONS = (
        Option("pits", int, 6, "pits a side", minimum=1, maximum=len(LETTERS)),
        Option("seeds", int, 4, "seeds in each pit at the start", minimum=1, maximum=24),
        Option(
            "sow_opponent_store",
            bool,
            False,
            "drop a seed in the opponent's store when sowing past it",
        ),
        Option(
            "empty_capture",
            bool,
            True,
            "a last seed in an own empty pit is captured even when the pit opposite is empty",
        ),
    )

    @property
    def pits(self) -> int:
        return int(self.options["pits"])

    @property
    def rules(self) -> int:
        """The rule switches as the kernels' flags."""
        return SOW_OPPONENT_STORE * bool(self.options["sow_opponent_store"]) + EMPTY_CAPTURE * bool(
            self.options["empty_capture"]
        )

    def start(self) -> SowingState:
        board = np.zeros(2 * self.pits + 3, dtype=np.int32)
        for player in range(2):
            for column in range(self.pits):
                board[pit_index(player, column, self.pits)] = self.options["seeds"]
        return SowingState(self, board)

    def parse(self, text: str) -> SowingState:
        """Read ``A,B,../S0/A,B,../S1 P``: player 0's pits by column, store, player 1's pits
        by column, store, and the player to move (``0`` or ``1``)."""
        fields = text.split()
        if len(fields) != 2:
            raise BadPosition(f"expected '<pits>/<store>/<pits>/<store> <to move>', got {text!r}")
        parts = fields[0].split("/")
        if len(parts) != 4:
            raise BadPosition(f"expected 4 parts separated by '/', got {len(parts)} in {text!r}")
        board = np.zeros(2 * self.pits + 3, dtype=np.int32)
        for player in range(2):
            row = _numbers(parts[2 * player], f"player {player}'s pits")
            if len(row) != self.pits:
                raise BadPosition(
                    f"player {player}'s row has {len(row)} pits; this game has {self.pits}"
                )
            for column, seeds in enumerate(row):
                board[pit_index(player, column, self.pits)] = seeds
            (store,) = _numbers(parts[2 * player + 1], f"player {player}'s store", count=1)
            board[store_index(player, self.pits)] = store
        if fields[1] not in ("0", "1"):
            raise BadPosition(f"the player to move must be 0 or 1, not {fields[1]!r}")
        board[-1] = int(fields[1])
        self._check(board)
        return SowingState(self, board)

    def _check(self, board: np.ndarray) -> None:
        total = 2 * self.pits * int(self.options["seeds"])
        if int(board[:-1].sum()) != total:
            raise BadPosition(
                f"the position holds {int(board[:-1].sum())} seeds; this game has {total}"
            )
        if is_over(board) and not (row_is_empty(board, 0) and row_is_empty(board, 1)):
            raise BadPosition("one row is empty but the other's seeds were not collected")


def _numbers(text: str, what: str, count: int | None = None) -> list[int]:
    try:
        values = [int(v) for v in text.split(",")]
    except ValueError:
        raise BadPosition(f"{what} must be whole numbers separated by commas: {text!r}") from None
    if any(v < 0 for v in values):
        raise BadPosition(f"{what} cannot be negative: {text!r}")
    if count is not None and len(values) != count:
        raise BadPosition(f"{what} must be one number: {text!r}")
    return values


class SowingState(State):
    """A position of a mancala-family game: a read-only board array and its game."""

    __slots__ = ("_board", "game")

    def __init__(self, game: SowingGame, board: np.ndarray) -> None:
        board.flags.writeable = False
        self.game: SowingGame = game
        self._board = board

    @property
    def board(self) -> np.ndarray:
        """The kernels' array (read-only); copy it before handing it to a kernel that sows."""
        return self._board

    @property
    def pits(self) -> int:
        return self.game.pits

    def row(self, player: int) -> tuple[int, ...]:
        """The seeds in ``player``'s pits, column A first."""
        return tuple(int(self._board[pit_index(player, c, self.pits)]) for c in range(self.pits))

    @property
    def to_move(self) -> int:
        return int(self._board[-1])

    @property
    def is_over(self) -> bool:
        return bool(is_over(self._board))

    @property
    def scores(self) -> tuple[int, int]:
        return int(self._board[self.pits]), int(self._board[2 * self.pits + 1])

    @property
    def winner(self) -> int | None:
        if not self.is_over:
            return None
        mine, theirs = self.scores
        return None if mine == theirs else (0 if mine > theirs else 1)

    def legal_moves(self) -> tuple[int, ...]:
        if self.is_over:
            return ()
        return tuple(c for c, seeds in enumerate(self.row(self.to_move)) if seeds > 0)

    def play(self, move: Move) -> SowingState:
        board, column = self._checked_copy(move)
        apply_move(board, column, self.game.rules)
        return SowingState(self.game, board)

    def play_report(self, move: Move) -> tuple[SowingState, SowReport]:
        board, column = self._checked_copy(move)
        last = sow(board, column, self.game.rules)
        sown = SowingState(self.game, board.copy())
        outcome = settle(board, last, self.game.rules)
        captured = outcome >> 16
        report = SowReport(
            sown=sown,
            extra_turn=bool(outcome & EXTRA_TURN),
            capture_column=(outcome >> 8) & 0xFF if outcome & CAPTURE else None,
            captured=captured,
            game_over=bool(outcome & GAME_OVER),
        )
        return SowingState(self.game, board), report

    def _checked_copy(self, move: Move) -> tuple[np.ndarray, int]:
        """A writable copy of the board and the column, once ``move`` is known to be legal."""
        if self.is_over:
            raise IllegalMove(move, "the game is over")
        if not isinstance(move, int | np.integer) or isinstance(move, bool):
            raise IllegalMove(move, "a move is a column number")
        if not 0 <= move < self.pits:
            raise IllegalMove(move, f"the columns are 0 to {self.pits - 1}")
        if self._board[pit_index(self.to_move, int(move), self.pits)] == 0:
            raise IllegalMove(move, f"pit {LETTERS[int(move)]} is empty")
        return self._board.copy(), int(move)

    def perft(self, depth: int) -> int:
        return int(perft_kernel(self._board.copy(), depth, self.game.rules))

    def move_name(self, move: Move) -> str:
        return LETTERS[int(move)]  # type: ignore[call-overload]

    def parse_move(self, text: str) -> int:
        """A pit letter (``D`` or ``d``) or a column number (``3``) of the mover's row."""
        word = text.strip()
        last = LETTERS[self.pits - 1]
        if not word:
            raise IllegalMove(text, f"type a pit letter A..{last}")
        if word.isdigit():
            column = int(word)
        elif len(word) == 1 and word.upper() in LETTERS[: self.pits]:
            column = LETTERS.index(word.upper())
        else:
            raise IllegalMove(text, f"not a pit: type a letter A..{last}")
        if not 0 <= column < self.pits:
            raise IllegalMove(text, f"no such pit: the pits are A..{last}")
        if self.is_over:
            raise IllegalMove(text, "the game is over")
        if column not in self.legal_moves():
            raise IllegalMove(text, f"pit {LETTERS[column]} is empty; choose a pit with seeds")
        return column

    def notation(self) -> str:
        parts = []
        for player in range(2):
            parts.append(",".join(map(str, self.row(player))))
            parts.append(str(self.scores[player]))
        return "/".join(parts) + f" {self.to_move}"

    def render(self) -> str:
        """Seed 001's board: player 1's row on top, stores at the sides, empty pits blank."""
        width = 5 * self.pits - 1
        letters = " " * 10 + "    ".join(LETTERS[: self.pits])
        rule = " " * 5 + "-" * width

        def cells(player: int) -> str:
            return "".join(f"|{n or '':>3} " for n in self.row(player))

        store0, store1 = self.scores
        return "\n".join(
            [
                letters,
                rule,
                f"----{cells(1)}|----",
                f"|{store1:>3} |{' ' * width}|{store0:>3} |",
                f"----{cells(0)}|----",
                rule,
                letters,
            ]
        )

    def _key(self) -> Hashable:
        return self._board.tobytes()


register(
    "mancala",
    SowingGame,
    "Mancala of seed 001: 3 seeds a pit, sowing through both stores",
    seeds=3,
    sow_opponent_store=True,
)
register("kalah", SowingGame, "Kalah as solved by Irving, Donkers and Uiterwijk: 4 seeds a pit")
