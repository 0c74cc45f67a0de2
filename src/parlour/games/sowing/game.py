"""The mancala family (RULES.md section 1): the games ``mancala`` (seed 001) and ``kalah``.

One engine, every rule set.  A position is one small int16 array, the layout the kernels,
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

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit

from parlour.core import (
    BadOption,
    BadPosition,
    Game,
    IllegalMove,
    Move,
    Option,
    State,
    digits_note,
    digits_value,
    parse_numbers,
    parse_player,
    parse_whole,
    shown,
)
from parlour.games.sowing.fair_starts import FAIR_STARTS
from parlour.rng import mix

SOW_OPPONENT_STORE = 1
EMPTY_CAPTURE = 2

EXTRA_TURN = 1
CAPTURE = 2
GAME_OVER = 4

LETTERS = "ABCDEFGHIJKLMNOP"
STANDARD = "standard"
"""The ``start`` option's standard start: every pit holds the game's seeds."""

BOARD_DTYPE = np.int16
"""Enough for 16 pits of 24 seeds; the smallest type is the fastest to copy ply by ply."""


@njit(cache=True, nogil=True, inline="always")
def pit_count(board: np.ndarray) -> int:
    """P, the number of pits a side, from the length 2P+3 of one position."""
    return int((board.shape[0] - 3) // 2)


@njit(cache=True, nogil=True, inline="always")
def pit_index(player: int, column: int, pits: int) -> int:
    """The index of ``column`` in ``player``'s row."""
    return column if player == 0 else 2 * pits - column


@njit(cache=True, nogil=True, inline="always")
def store_index(player: int, pits: int) -> int:
    """The index of ``player``'s store."""
    return pits if player == 0 else 2 * pits + 1


@njit(cache=True, nogil=True, inline="always")
def in_row(index: int, player: int, pits: int) -> bool:
    """Whether ``index`` is a pit of ``player``'s row (stores are in no row)."""
    return index < pits if player == 0 else pits < index <= 2 * pits


@njit(cache=True, nogil=True, inline="always")
def _u(index: int) -> np.uint64:
    """An index numba need not check for wrap-around (negative indexes): the hot loops
    below index through this, which is worth a third of perft's time."""
    return np.uint64(index)


# The kernels work on position ``at`` of a flat buffer (perft and the search keep one
# position a ply in a single array, with no array view per node); the public wrappers below
# work on one position.


@njit(cache=True, nogil=True, inline="always")
def _over_at(buf: np.ndarray, at: int, pits: int) -> bool:
    """The game ends as soon as either row is empty."""
    empty0 = True
    empty1 = True
    for column in range(pits):
        if buf[_u(at + column)] != 0:
            empty0 = False
        if buf[_u(at + pits + 1 + column)] != 0:
            empty1 = False
    return empty0 or empty1


@njit(cache=True, nogil=True, inline="always")
def _sow_at(buf: np.ndarray, at: int, pits: int, column: int, rules: int) -> int:
    """Sow ``column`` of the side to move; return the index the last seed fell in.

    The emptied starting pit is sown into when a hand goes round; the opponent's store is
    skipped unless ``rules`` has SOW_OPPONENT_STORE.
    """
    holes = 2 * pits + 2
    player = buf[_u(at + holes)]
    skipped = -1 if rules & SOW_OPPONENT_STORE else store_index(1 - player, pits)
    i = pit_index(player, column, pits)
    seeds = buf[_u(at + i)]
    buf[_u(at + i)] = 0
    for _ in range(seeds):
        i += 1
        if i == holes:
            i = 0
        if i == skipped:  # never two in a row: the stores are apart
            i += 1
            if i == holes:
                i = 0
        buf[_u(at + i)] += 1
    return i


@njit(cache=True, nogil=True, inline="always")
def _settle_at(buf: np.ndarray, at: int, pits: int, last: int, rules: int) -> int:
    """After a sowing that ended in ``last``: capture or extra turn, then the end check.

    Returns the outcome flags (EXTRA_TURN, CAPTURE, GAME_OVER), with the captured column
    in bits 8-15 and the number of captured seeds from bit 16, for the screens.
    """
    holes = 2 * pits + 2
    player = buf[_u(at + holes)]
    store = at + store_index(player, pits)
    outcome = 0
    if last == store - at:
        outcome = EXTRA_TURN
    elif buf[_u(at + last)] == 1 and in_row(last, player, pits):
        opposite = at + 2 * pits - last
        if buf[_u(opposite)] > 0 or rules & EMPTY_CAPTURE:
            captured = buf[_u(at + last)] + buf[_u(opposite)]
            buf[_u(store)] += captured
            buf[_u(at + last)] = 0
            buf[_u(opposite)] = 0
            column = last if player == 0 else 2 * pits - last
            outcome = CAPTURE | (column << 8) | (captured << 16)
    if _over_at(buf, at, pits):
        for column in range(pits):
            buf[_u(at + pits)] += buf[_u(at + column)]
            buf[_u(at + column)] = 0
            buf[_u(at + 2 * pits + 1)] += buf[_u(at + pits + 1 + column)]
            buf[_u(at + pits + 1 + column)] = 0
        return outcome | GAME_OVER
    if not outcome & EXTRA_TURN:
        buf[_u(at + holes)] = 1 - player
    return outcome


@njit(cache=True, nogil=True, inline="always")
def _play_at(buf: np.ndarray, at: int, pits: int, column: int, rules: int) -> int:
    """Play a legal move: the sowing, then capture or extra turn, then the end check."""
    return _settle_at(buf, at, pits, _sow_at(buf, at, pits, column, rules), rules)


@njit(cache=True, nogil=True, inline="always")
def _sowable_at(buf: np.ndarray, at: int, pits: int, column: int) -> bool:
    """The rule of a legal move: the mover's pit in ``column`` holds seeds (the position at
    ``at``, which must not be over)."""
    return bool(buf[_u(at + pit_index(buf[_u(at + 2 * pits + 2)], column, pits))] > 0)


@njit(cache=True, nogil=True)
def is_over(board: np.ndarray) -> bool:
    """Whether the game of this position has ended (either row empty)."""
    return _over_at(board, 0, pit_count(board))


@njit(cache=True, nogil=True)
def sowable(board: np.ndarray, column: int) -> bool:
    """Whether sowing ``column`` is legal in a position that is not over."""
    return _sowable_at(board, 0, pit_count(board), column)


@njit(cache=True, nogil=True)
def sow(board: np.ndarray, column: int, rules: int) -> int:
    """Sow ``column`` in place; the index of the last seed (see ``settle``)."""
    return _sow_at(board, 0, pit_count(board), column, rules)


@njit(cache=True, nogil=True)
def settle(board: np.ndarray, last: int, rules: int) -> int:
    """Capture or extra turn, then the end check, after ``sow``; the outcome flags."""
    return _settle_at(board, 0, pit_count(board), last, rules)


@njit(cache=True, nogil=True)
def apply_move(board: np.ndarray, column: int, rules: int) -> int:
    """Play a legal move in place; the outcome flags."""
    return _play_at(board, 0, pit_count(board), column, rules)


@njit(cache=True, nogil=True)
def perft_kernel(start: tuple[int, ...], depth: int, rules: int) -> int:
    """RULES.md's perft, as an explicit-stack depth-first walk (no recursion, no allocation
    per node): ply d's position lies at ``d * n`` of one buffer and ``nextcol[d]`` is the
    next move to try there.

    The start comes as a tuple because a tuple's length is known when numba compiles: the
    board size becomes a constant, its loops are unrolled, and perft runs a third faster
    (one compiled version per board size)."""
    n = len(start)
    pits = (n - 3) // 2
    buf = np.empty((depth + 1) * n, dtype=BOARD_DTYPE)
    for k in range(n):
        buf[k] = start[k]
    if depth == 0 or _over_at(buf, 0, pits):
        return 1
    nextcol = np.zeros(depth + 1, dtype=np.int64)
    level = 0
    leaves = 0
    while level >= 0:
        column = nextcol[_u(level)]
        if column >= pits:
            level -= 1
            continue
        nextcol[_u(level)] = column + 1
        here = level * n
        if not _sowable_at(buf, here, pits, column):
            continue
        for k in range(n):
            buf[_u(here + n + k)] = buf[_u(here + k)]
        if _play_at(buf, here + n, pits, column, rules) & GAME_OVER or level + 1 == depth:
            leaves += 1
        else:
            level += 1
            nextcol[_u(level)] = 0
    return leaves


# The search's adapters (parlour.search.kernel): one signature in every game; the module
# ``adapters`` hands them to the engine with the endgame tables and the learned estimate.

ADAPTERS = "parlour.games.sowing.adapters"

SEARCH_FREE_TURNS = True
"""An extra turn costs the search no depth (``parlour.search.kernel.search_depth`` says
why)."""


@njit(cache=True, nogil=True)
def search_moves(pos: np.ndarray, out: np.ndarray) -> int:
    """Write the legal moves of ``pos`` into ``out``; their count (0 at the end)."""
    pits = pit_count(pos)
    if is_over(pos):
        return 0
    count = 0
    for column in range(pits):
        if _sowable_at(pos, 0, pits, column):
            out[count] = column
            count += 1
    return count


@njit(cache=True, nogil=True)
def search_play(
    pos: np.ndarray, hist: np.ndarray, move: int, rules: int, events: np.ndarray
) -> bool:
    """Play ``move`` in place; True when the game is over (no history, no events)."""
    return (apply_move(pos, move, rules) & GAME_OVER) != 0


@njit(cache=True, nogil=True)
def search_to_move(pos: np.ndarray) -> int:
    return int(pos[pos.shape[0] - 1])


@njit(cache=True, nogil=True)
def search_score(pos: np.ndarray) -> int:
    """Player 0's store minus player 1's: the evaluation, and the exact value at the end."""
    pits = pit_count(pos)
    return int(pos[pits] - pos[2 * pits + 1])


@njit(cache=True, nogil=True)
def search_seeds(pos: np.ndarray) -> int:
    """The seeds in the pits and the stores: what the endgame tables count down from."""
    return int(pos[: pos.shape[0] - 1].sum())


@njit(cache=True, nogil=True)
def search_stored(pos: np.ndarray) -> int:
    """The seeds in the stores: the rest are in the pits, which the endgame tables value."""
    pits = pit_count(pos)
    return int(pos[pits] + pos[2 * pits + 1])


@njit(cache=True, nogil=True)
def search_key(pos: np.ndarray) -> np.uint64:
    """A 64-bit hash of what decides the future: the pits and the side to move, not the
    stores (the search stores values relative to the store difference)."""
    pits = pit_count(pos)
    h = mix(np.uint64(search_to_move(pos) + 1))
    for i in range(2 * pits + 1):
        if i != pits:
            h = mix(h + np.uint64(pos[i]) + np.uint64(i << 8))
    return h


@njit(cache=True, nogil=True)
def search_order(pos: np.ndarray, move: int) -> int:
    """A guess of how good ``move`` is, for trying it early: an extra turn first, then a
    capture, then the rest (from the seed count, without playing the move)."""
    pits = pit_count(pos)
    player = pos[2 * pits + 2]
    start = pit_index(player, move, pits)
    seeds = pos[start]
    to_store = store_index(player, pits) - start
    if seeds == to_store:
        return 2
    land = start + seeds
    if seeds < to_store and pos[land] == 0:
        return 1
    return 0


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
        Option("first", int, 0, "who moves first: 0 (the bottom row) or 1", 0, 1),
        Option(
            "start",
            str,
            STANDARD,
            "the start: standard, or fair:N, the board's N-th fair start (a seed or two"
            " moved, a draw with perfect play: parlour solve fair)",
        ),
    )

    def __init__(self, name: str, options: Mapping[str, Any]) -> None:
        super().__init__(name, options)
        self._pits_at_start = self._starting_pits()

    def _starting_pits(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The rows at the start, the first mover's first, each in its sowing order (as
        the mover sees it, whoever moves first): the standard ones, or a fair start's
        (``start=fair:N``); BadOption naming what is wrong with the start asked for."""
        pits, seeds = self.pits, int(self.options["seeds"])
        asked = str(self.options["start"]).strip()
        if asked == STANDARD:
            return (seeds,) * pits, (seeds,) * pits
        kind, colon, number = asked.partition(":")
        if kind != "fair" or not colon:
            raise BadOption(f"option start must be standard or fair:N, not {shown(asked)}")
        fair = FAIR_STARTS.get((pits, seeds, self.rules), ())
        if not fair:
            known = [f"{p} pits of {s}" for p, s, rules in FAIR_STARTS if rules == self.rules]
            raise BadOption(
                f"no fair start is known for {pits} pits of {seeds} seeds under these rules"
                f" (known: {', '.join(known) or 'none'}; parlour solve fair finds them)"
            )
        nth = parse_whole(number, "the N of option start=fair:N", 1, len(fair), BadOption)
        mover, other = fair[nth - 1].split("/")
        return _counts(mover), _counts(other)

    @property
    def pits(self) -> int:
        return int(self.options["pits"])

    @property
    def total_seeds(self) -> int:
        """The seeds of the whole game: no pit or store holds more, so a position's counts
        fit the board's 16 bits and its sum is exact."""
        return 2 * self.pits * int(self.options["seeds"])

    @property
    def rules(self) -> int:
        """The rule switches as the kernels' flags."""
        return SOW_OPPONENT_STORE * bool(self.options["sow_opponent_store"]) + EMPTY_CAPTURE * bool(
            self.options["empty_capture"]
        )

    def start(self) -> SowingState:
        board = np.zeros(2 * self.pits + 3, dtype=BOARD_DTYPE)
        first = int(self.options["first"])
        for row, player in zip(self._pits_at_start, (first, 1 - first), strict=True):
            begin = 0 if player == 0 else self.pits + 1  # the row's first pit in sowing order
            board[begin : begin + self.pits] = row
        board[-1] = first
        return SowingState(self, board)

    def parse(self, text: str) -> SowingState:
        """Read ``A,B,../S0/A,B,../S1 P``: player 0's pits by column, store, player 1's pits
        by column, store, and the player to move (``0`` or ``1``)."""
        fields = text.split()
        if len(fields) != 2:
            raise BadPosition(
                f"expected '<pits>/<store>/<pits>/<store> <to move>', got {shown(text)}"
            )
        parts = fields[0].split("/")
        if len(parts) != 4:
            raise BadPosition(
                f"expected 4 parts separated by '/', got {len(parts)} in {shown(text)}"
            )
        board = np.zeros(2 * self.pits + 3, dtype=BOARD_DTYPE)
        seeds = self.total_seeds
        for player in range(2):
            row = parse_numbers(parts[2 * player], f"player {player}'s pits", seeds)
            if len(row) != self.pits:
                raise BadPosition(
                    f"player {player}'s row has {len(row)} pits; this game has {self.pits}"
                )
            for column, count in enumerate(row):
                board[pit_index(player, column, self.pits)] = count
            (store,) = parse_numbers(parts[2 * player + 1], f"player {player}'s store", seeds, 1)
            board[store_index(player, self.pits)] = store
        board[-1] = parse_player(fields[1], "the player to move")
        self._check(board)
        return SowingState(self, board)

    def _check(self, board: np.ndarray) -> None:
        total = int(board[:-1].sum())
        if total != self.total_seeds:
            raise BadPosition(f"the position holds {total} seeds; this game has {self.total_seeds}")
        seeds_in_rows = board[: self.pits].any() or board[self.pits + 1 : 2 * self.pits + 1].any()
        if is_over(board) and seeds_in_rows:
            raise BadPosition("one row is empty but the other's seeds were not collected")


def _counts(row: str) -> tuple[int, ...]:
    """A row of ``FAIR_STARTS`` as counts."""
    return tuple(int(seeds) for seeds in row.split(","))


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

    def for_search(self, room: int) -> tuple[str, np.ndarray, np.ndarray, int]:
        """What the engine's kernel takes (parlour.search.engine.Searchable): the sowing
        games' adapters, the board as int64, no history, and the rule flags."""
        return ADAPTERS, self._board.astype(np.int64), np.zeros(1, dtype=np.int64), self.game.rules

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
        return tuple(c for c in range(self.pits) if sowable(self._board, c))

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
        if not sowable(self._board, int(move)):
            raise IllegalMove(move, f"pit {LETTERS[int(move)]} is empty")
        return self._board.copy(), int(move)

    def perft(self, depth: int) -> int:
        return int(perft_kernel(tuple(self._board.tolist()), depth, self.game.rules))

    def move_name(self, move: Move) -> str:
        return LETTERS[int(move)]  # type: ignore[call-overload]

    def parse_move(self, text: str) -> int:
        """A pit letter (``D`` or ``d``) or a pit's number counted from 1 (``4`` for D), as a
        person counts them, of the mover's row."""
        word = text.strip()
        pits = LETTERS[: self.pits]
        last = pits[-1]
        if not word:
            raise IllegalMove(text, f"type a pit letter A..{last}")
        number = digits_value(word, self.pits)
        column = None if number is None else number - 1
        if column is None and len(word) == 1 and word.isascii() and word.upper() in pits:
            column = LETTERS.index(word.upper())
        if column is None:
            raise IllegalMove(text, f"not a pit: type a letter A..{last}{digits_note(word)}")
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
