"""Ayo as seed 000 plays it (RULES.md section 2): fours captured while sowing, relay
sowing, the eleventh group taking the last four, and rounds in which captured fours buy
houses.

The kernels below are the one home of the rules; the State class and the search both run
them.  A position is one int64 array of ``SIZE`` entries:

==============  ==========================================================
index           holds
==============  ==========================================================
0 .. 11         tokens in houses 0..11 (0..5 player 0's row left to right,
                6..11 player 1's row right to left: sowing goes i -> i+1)
12 .. 23        the owner (0 or 1) of each house for this round
24, 25          tokens each player has captured this round
26              the player to move (always one who has a legal move)
27              the round, from 1
28              the player who started this round
29              1 once the game is over
30, 31          the live part of the position history: ``hist[from:len]``
==============  ==========================================================

A position comes back within a round only while nothing is captured, so the history holds
the positions since the last capture, each as an exact int64 key (``position_key``).  It
is a separate array that only grows at ``hist[len]``: a depth-first search shares one
history stack across its plies, and a State keeps the live part of its own.

A move is a house number 0..11.  ``apply_move`` plays it in place and returns outcome
flags; a pass (the next player has no legal move) happens inside it, so that every
position asks the player to move for a real move.  An optional event log (``events``,
see ``_record``) tells the screens and the Referee what the move did.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from dataclasses import dataclass

import numpy as np
from numba import njit

from parlour.core import (
    MAX_SEED,
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
    register,
    shown,
)

HOUSES = 12
TOKENS = 48
OWNER = 12
CAPTURED = 24
TO_MOVE = 26
ROUND = 27
STARTER = 28
OVER = 29
HIST_FROM = 30
HIST_LEN = 31
SIZE = 32

MAX_ROUNDS = 10_000
"""The longest round limit (and the latest round a position may be in): far more rounds
than a game of Ayo plays, and a bound on every number the kernels count rounds with."""

# Outcome flags of apply_move; the reason a round ended sits in bits 4-5.
NEVER_ENDS = 1
ROUND_END = 2
GAME_OVER = 4
REASON_SHIFT = 4

# Why a round ended.
ELEVENTH_GROUP = 1
NO_MOVES = 2
REPETITION = 3

# Event kinds of the log: (kind, a, b, c).
EV_RELAY = 1  # (sower, house, tokens taken in hand)
EV_OWNER_CAPTURE = 2  # (owner, house, 4): a four made by a token that was not the last
EV_SOWER_CAPTURE = 3  # (sower, house, 4): the last token made four
EV_LAST_FOUR = 4  # (player, -1, 4): the eleventh group's taker takes the last four
EV_BOARD = 5  # (owner, -1, tokens): at a round's end, the tokens in the owner's houses
EV_PASS = 6  # (player, -1, 0): the player has no legal move, the opponent plays again
EV_ROUND_END = 7  # (reason, tokens held by player 0, by player 1)
EVENT_WIDTH = 4


@njit(cache=True, nogil=True)
def _record(events: np.ndarray, kind: int, a: int, b: int, c: int) -> None:
    """Log an event: ``events[0]`` counts them and entry n sits at ``1 + 4n``.  The count
    goes on past the array's end (nothing is stored there), so a caller with a one-entry
    array logs nothing and a caller with too small an array can tell."""
    at = 1 + EVENT_WIDTH * events[0]
    if at + EVENT_WIDTH <= events.shape[0]:
        events[at] = kind
        events[at + 1] = a
        events[at + 2] = b
        events[at + 3] = c
    events[0] += 1


@njit(cache=True, nogil=True)
def position_key(pos: np.ndarray) -> int:
    """The board and the player to move as one exact int64.

    Houses 0..10 in base 49 (a house holds at most 48); house 11 is left out because the
    tokens on the board are the same for every key compared (no capture in between), and
    owners and captures are fixed there too.  49**11 * 2 < 2**63.
    """
    key = 0
    for i in range(HOUSES - 2, -1, -1):
        key = key * (TOKENS + 1) + pos[i]
    return int(key * 2 + pos[TO_MOVE])


MAX_KEY = 2 * (TOKENS + 1) ** (HOUSES - 1) - 1
"""The largest ``position_key``."""


@njit(cache=True, nogil=True)
def _capture(pos: np.ndarray, player: int, house: int, kind: int, events: np.ndarray) -> bool:
    """``player`` takes the four in ``house``; True when that was the eleventh group, in
    which case the player has also taken the last four (board and hand) and the round is
    over."""
    pos[house] = 0
    pos[CAPTURED + player] += 4
    _record(events, kind, player, house, 4)
    if pos[CAPTURED] + pos[CAPTURED + 1] < TOKENS - 4:
        return False
    for i in range(HOUSES):
        pos[i] = 0
    pos[CAPTURED + player] += 4
    _record(events, EV_LAST_FOUR, player, -1, 4)
    return True


@njit(cache=True, nogil=True)
def sow_move(pos: np.ndarray, house: int, events: np.ndarray) -> int:
    """Sow ``house`` for the player to move, relays and captures included, in place.

    Returns 0 when the move ended normally, ROUND_END when the eleventh group was taken,
    and NEVER_ENDS (the position is then garbage) when the relays would go on for ever.
    A never-ending sowing is found with Brent's cycle detection over the relay points
    (board, house): deterministic sowing repeats such a point exactly when it loops.
    """
    sower = pos[TO_MOVE]
    saved = pos[:HOUSES].copy()
    saved_house = house
    power = 1
    steps = 0
    i = house
    hand = pos[i]
    pos[i] = 0
    while True:
        i += 1
        if i == HOUSES:
            i = 0
        pos[i] += 1
        hand -= 1
        if pos[i] == 4:
            capturer = sower if hand == 0 else pos[OWNER + i]
            kind = EV_SOWER_CAPTURE if hand == 0 else EV_OWNER_CAPTURE
            if _capture(pos, capturer, i, kind, events):
                return ROUND_END
            if hand == 0:
                return 0
        elif hand == 0:
            if pos[i] == 1:
                return 0
            if i == saved_house and _same_board(pos, saved):
                return NEVER_ENDS
            steps += 1
            if steps == power:
                saved[:] = pos[:HOUSES]
                saved_house = i
                power *= 2
                steps = 0
            hand = pos[i]
            pos[i] = 0
            _record(events, EV_RELAY, sower, i, hand)


@njit(cache=True, nogil=True)
def _same_board(pos: np.ndarray, board: np.ndarray) -> bool:
    for i in range(HOUSES):
        if pos[i] != board[i]:
            return False
    return True


@njit(cache=True, nogil=True)
def is_legal(pos: np.ndarray, player: int, house: int) -> bool:
    """Whether ``player`` may sow ``house``: owned, not empty, and the sowing ends."""
    if pos[OVER] or house < 0 or house >= HOUSES:
        return False
    if pos[OWNER + house] != player or pos[house] == 0:
        return False
    trial = pos.copy()
    trial[TO_MOVE] = player
    return sow_move(trial, house, np.zeros(1, dtype=np.int64)) != NEVER_ENDS


@njit(cache=True, nogil=True)
def has_legal_move(pos: np.ndarray, player: int) -> bool:
    """Whether ``player`` has a move; without one the player passes."""
    for house in range(HOUSES):
        if is_legal(pos, player, house):
            return True
    return False


@njit(cache=True, nogil=True)
def legal_moves(pos: np.ndarray, out: np.ndarray) -> int:
    """Write the legal houses of the player to move into ``out`` (in house order) and
    return how many there are."""
    count = 0
    for house in range(HOUSES):
        if is_legal(pos, pos[TO_MOVE], house):
            out[count] = house
            count += 1
    return count


@njit(cache=True, nogil=True)
def deal_owners(pos: np.ndarray, houses0: int) -> None:
    """Give player 0 ``houses0`` houses and player 1 the rest (RULES.md): whoever has more
    than six owns their row and the first houses of the opponent's row in sowing order."""
    for j in range(HOUSES):
        if houses0 >= 6:
            pos[OWNER + j] = 0 if j < houses0 else 1
        else:
            pos[OWNER + (6 + j) % HOUSES] = 1 if j < HOUSES - houses0 else 0


@njit(cache=True, nogil=True)
def houses_bought(held0: int, held1: int, starter: int) -> int:
    """Player 0's houses for the next round: a house for each full four, and the extra
    house of two remainders that make four to the larger remainder, or on a tie to the
    player who did not start the round."""
    houses0 = held0 // 4
    rest0 = held0 % 4
    rest1 = held1 % 4
    if rest0 + rest1 == 4 and (rest0 > rest1 or (rest0 == rest1 and starter == 1)):
        houses0 += 1
    return houses0


@njit(cache=True, nogil=True)
def _push_history(pos: np.ndarray, hist: np.ndarray) -> bool:
    """Append this position to the history; False (and nothing appended) if it is there
    already, which ends the round."""
    key = position_key(pos)
    for j in range(pos[HIST_FROM], pos[HIST_LEN]):
        if hist[j] == key:
            return False
    hist[pos[HIST_LEN]] = key
    pos[HIST_LEN] += 1
    return True


@njit(cache=True, nogil=True)
def _give_turn(pos: np.ndarray, player: int, events: np.ndarray) -> bool:
    """Give the move to ``player``, or to the opponent when ``player`` must pass; False
    when neither has a legal move."""
    if has_legal_move(pos, player):
        pos[TO_MOVE] = player
        return True
    if has_legal_move(pos, 1 - player):
        _record(events, EV_PASS, player, -1, 0)
        pos[TO_MOVE] = 1 - player
        return True
    return False


@njit(cache=True, nogil=True)
def start_round(
    pos: np.ndarray, hist: np.ndarray, houses0: int, starter: int, events: np.ndarray
) -> None:
    """Set up a round: four tokens in every house, the owners, nothing captured, the
    starter to move (or the opponent, if the starter has no house), and a new history
    holding just this position.  Every first sowing of the all-fours board ends, so a
    player with a house has a legal move here."""
    for i in range(HOUSES):
        pos[i] = 4
    deal_owners(pos, houses0)
    pos[CAPTURED] = 0
    pos[CAPTURED + 1] = 0
    pos[STARTER] = starter
    pos[OVER] = 0
    _give_turn(pos, starter, events)
    pos[HIST_FROM] = pos[HIST_LEN]
    _push_history(pos, hist)


@njit(cache=True, nogil=True)
def end_round(
    pos: np.ndarray, hist: np.ndarray, reason: int, max_rounds: int, events: np.ndarray
) -> int:
    """The tokens left on the board go to their houses' owners; then the game ends (a
    player holds all 48, or the last round of ``max_rounds`` (0: no limit) is played) or
    the next round is dealt, started by the other player.  Returns the outcome flags."""
    for player in range(2):
        tokens = 0
        for i in range(HOUSES):
            if pos[OWNER + i] == player:
                tokens += pos[i]
        pos[CAPTURED + player] += tokens
        if tokens:
            _record(events, EV_BOARD, player, -1, tokens)
    for i in range(HOUSES):
        pos[i] = 0
    held0 = pos[CAPTURED]
    held1 = pos[CAPTURED + 1]
    _record(events, EV_ROUND_END, reason, held0, held1)
    flags = ROUND_END | (reason << REASON_SHIFT)
    if held0 == TOKENS or held1 == TOKENS or (max_rounds > 0 and pos[ROUND] >= max_rounds):
        pos[OVER] = 1
        return flags | GAME_OVER
    pos[ROUND] += 1
    start_round(pos, hist, houses_bought(held0, held1, pos[STARTER]), 1 - pos[STARTER], events)
    return flags


@njit(cache=True, nogil=True)
def apply_move(
    pos: np.ndarray, hist: np.ndarray, house: int, max_rounds: int, events: np.ndarray
) -> int:
    """Play ``house`` for the player to move, in place: the sowing, the passes, the end of
    the round (and the deal of the next one) and of the game.

    ``hist`` needs room for one more key at ``hist[pos[HIST_LEN]]``.  Returns the outcome
    flags; NEVER_ENDS means the move is not legal and leaves ``pos`` garbage, so callers
    that have not checked the move play it on a copy.
    """
    mover = pos[TO_MOVE]
    captured = pos[CAPTURED] + pos[CAPTURED + 1]
    sown = sow_move(pos, house, events)
    if sown == NEVER_ENDS:
        return NEVER_ENDS
    if sown == ROUND_END:
        return end_round(pos, hist, ELEVENTH_GROUP, max_rounds, events)
    if not _give_turn(pos, 1 - mover, events):
        return end_round(pos, hist, NO_MOVES, max_rounds, events)
    if pos[CAPTURED] + pos[CAPTURED + 1] != captured:
        pos[HIST_FROM] = pos[HIST_LEN]
    if not _push_history(pos, hist):
        return end_round(pos, hist, REPETITION, max_rounds, events)
    return 0


@njit(cache=True, nogil=True)
def perft_kernel(pos: np.ndarray, hist: np.ndarray, depth: int, max_rounds: int) -> int:
    """RULES.md's perft for Ayo (a pass costs no ply, a round's end is a leaf), as an
    explicit-stack depth-first walk.  ``hist`` needs room for ``depth`` more keys."""
    if depth == 0 or pos[OVER]:
        return 1
    stack = np.empty((depth + 1, SIZE), dtype=np.int64)
    next_house = np.zeros(depth + 1, dtype=np.int64)
    events = np.zeros(1, dtype=np.int64)
    stack[0, :] = pos
    level = 0
    leaves = 0
    while level >= 0:
        house = next_house[level]
        if house >= HOUSES:
            level -= 1
            continue
        next_house[level] = house + 1
        here = stack[level]
        if here[OWNER + house] != here[TO_MOVE] or here[house] == 0:
            continue
        child = stack[level + 1]
        child[:] = here
        outcome = apply_move(child, hist, house, max_rounds, events)
        if outcome & NEVER_ENDS:
            continue
        if level + 1 == depth or outcome & ROUND_END:
            leaves += 1
        else:
            level += 1
            next_house[level] = 0
    return leaves


# ---------------------------------------------------------------------------------------
# The Python face: game, state, and the account of a move.

REASONS = {
    ELEVENTH_GROUP: "the eleventh group of four was taken",
    NO_MOVES: "neither player had a legal move",
    REPETITION: "a position came back",
}


@dataclass(frozen=True)
class Capture:
    """Tokens added to a player's captured count, and how."""

    player: int
    tokens: int
    house: int | None
    """The house they were taken from; None for the last four and for a round's end."""
    kind: str
    """``owner`` (a four made by a token that was not the last, taken by the house's
    owner), ``sower`` (the last token made four), ``last four`` (with the eleventh group)
    or ``round end`` (the tokens left in the player's houses)."""


@dataclass(frozen=True)
class RoundEnd:
    """How a round ended and what it bought."""

    round: int
    reason: str
    held: tuple[int, int]
    """The tokens each player held at the end of the round."""
    houses: tuple[int, int] | None
    """The houses each player owns in the next round; None when the game is over."""


@dataclass(frozen=True)
class AyoReport:
    """What one move did: the relays, the captures (either player's), the passes and the
    end of the round, in the order they happened."""

    player: int
    house: int
    relays: tuple[tuple[int, int], ...]
    """(house, tokens taken in hand) for each relay."""
    captures: tuple[Capture, ...]
    passes: tuple[int, ...]
    """The players who had to pass after the move (the opponent plays again)."""
    round_end: RoundEnd | None

    def stoned(self, player: int) -> int:
        """The tokens added to ``player``'s captured count: the seed's ``Stoned(count)``."""
        return sum(c.tokens for c in self.captures if c.player == player)


_CAPTURE_KINDS = {
    EV_OWNER_CAPTURE: "owner",
    EV_SOWER_CAPTURE: "sower",
    EV_LAST_FOUR: "last four",
    EV_BOARD: "round end",
}


class AyoGame(Game):
    """Ayo with its options: a limit on rounds, who starts, and the seed of the draw."""

    OPTIONS = (
        Option(
            "max_rounds",
            int,
            None,
            "end the game after this many rounds",
            minimum=1,
            maximum=MAX_ROUNDS,
            nullable=True,
        ),
        Option("first", int, None, "who starts the first round (0 or 1)", 0, 1, nullable=True),
        Option(
            "seed", int, None, "seed of the draw for the first round", 0, MAX_SEED, nullable=True
        ),
    )

    @property
    def max_rounds(self) -> int:
        """The kernels' round limit: 0 for none."""
        return int(self.options["max_rounds"] or 0)

    def start(self) -> AyoState:
        """Round 1 of a new game; without ``first`` the starter is drawn by lot."""
        first = self.options["first"]
        if first is None:
            first = random.Random(self.options["seed"]).randrange(2)
        pos = np.zeros(SIZE, dtype=np.int64)
        hist = np.zeros(1, dtype=np.int64)
        pos[ROUND] = 1
        start_round(pos, hist, 6, int(first), np.zeros(1, dtype=np.int64))
        return AyoState(self, pos, hist)

    def parse(self, text: str) -> AyoState:
        """Read the notation of :meth:`AyoState.notation`."""
        return _parse(self, text)


class AyoState(State):
    """A position of Ayo: the kernels' array, the round's position history (both
    read-only) and, for the screens, the accounts of this round's moves."""

    __slots__ = ("_hist", "_pos", "game", "round_events")

    def __init__(
        self,
        game: AyoGame,
        pos: np.ndarray,
        hist: np.ndarray,
        round_events: tuple[AyoReport, ...] = (),
    ) -> None:
        pos.flags.writeable = False
        hist.flags.writeable = False
        self.game: AyoGame = game
        self._pos = pos
        self._hist = hist
        self.round_events = round_events
        """The account of each move of this round so far (empty for a parsed position)."""

    @property
    def position(self) -> np.ndarray:
        """The kernels' array (read-only)."""
        return self._pos

    @property
    def history(self) -> np.ndarray:
        """The keys of this round's positions since its last capture (read-only)."""
        return self._hist

    @property
    def board(self) -> tuple[int, ...]:
        """Tokens in houses 0..11."""
        return tuple(int(v) for v in self._pos[:HOUSES])

    @property
    def owners(self) -> tuple[int, ...]:
        """The owner of each house 0..11 this round."""
        return tuple(int(v) for v in self._pos[OWNER : OWNER + HOUSES])

    @property
    def round(self) -> int:
        return int(self._pos[ROUND])

    @property
    def starter(self) -> int:
        """Who started this round."""
        return int(self._pos[STARTER])

    @property
    def to_move(self) -> int:
        return int(self._pos[TO_MOVE])

    @property
    def is_over(self) -> bool:
        return bool(self._pos[OVER])

    @property
    def scores(self) -> tuple[int, int]:
        """Tokens each player has captured this round (at the game's end: holds)."""
        return int(self._pos[CAPTURED]), int(self._pos[CAPTURED + 1])

    @property
    def winner(self) -> int | None:
        if not self.is_over:
            return None
        mine, theirs = self.scores
        return None if mine == theirs else (0 if mine > theirs else 1)

    def legal_moves(self) -> tuple[int, ...]:
        out = np.empty(HOUSES, dtype=np.int64)
        return tuple(int(h) for h in out[: legal_moves(self._pos, out)])

    def play(self, move: Move) -> AyoState:
        return self.play_report(move)[0]

    def play_report(self, move: Move) -> tuple[AyoState, AyoReport]:
        house = self._checked(move)
        pos = self._pos.copy()
        hist = np.empty(len(self._hist) + 1, dtype=np.int64)
        hist[:-1] = self._hist
        events = np.zeros(1 + EVENT_WIDTH * 64, dtype=np.int64)
        while True:
            apply_move(pos, hist, house, self.game.max_rounds, events)
            if 1 + EVENT_WIDTH * events[0] <= len(events):
                break
            events = np.zeros(1 + EVENT_WIDTH * int(events[0]), dtype=np.int64)
            pos[:] = self._pos
            hist[:-1] = self._hist
        report = _report(self, house, events)
        if pos[OVER]:  # as the notation has it: no player to move, no history
            pos[TO_MOVE] = 0
            pos[HIST_FROM] = pos[HIST_LEN]
        live = hist[pos[HIST_FROM] : pos[HIST_LEN]].copy()
        pos[HIST_LEN] -= pos[HIST_FROM]
        pos[HIST_FROM] = 0
        log = () if report.round_end else (*self.round_events, report)
        return AyoState(self.game, pos, live, log), report

    def _checked(self, move: Move) -> int:
        """The house of ``move`` once it is known to be legal, or IllegalMove saying why."""
        if self.is_over:
            raise IllegalMove(move, "the game is over")
        if not isinstance(move, int | np.integer) or isinstance(move, bool):
            raise IllegalMove(move, "a move is a house number 0..11")
        house = int(move)
        if not 0 <= house < HOUSES:
            raise IllegalMove(move, "the houses are 0..11")
        if self._pos[OWNER + house] != self.to_move:
            raise IllegalMove(move, f"house {house} belongs to the other player")
        if self._pos[house] == 0:
            raise IllegalMove(move, f"house {house} is empty")
        if not is_legal(self._pos, self.to_move, house):
            raise IllegalMove(move, f"the sowing from house {house} would never end")
        return house

    def perft(self, depth: int) -> int:
        hist = np.empty(len(self._hist) + depth + 1, dtype=np.int64)
        hist[: len(self._hist)] = self._hist
        return int(perft_kernel(self._pos.copy(), hist, depth, self.game.max_rounds))

    def divide(self, depth: int) -> list[tuple[Move, int]]:
        """A first move that ends the round is one leaf, as in ``perft``."""
        counts: list[tuple[Move, int]] = []
        for move in self.legal_moves():
            child, report = self.play_report(move)
            counts.append((move, 1 if report.round_end else child.perft(depth - 1)))
        return counts

    def move_name(self, move: Move) -> str:
        return str(int(move))  # type: ignore[call-overload]

    def parse_move(self, text: str) -> int:
        """A house number 0..11, as the board labels the houses."""
        word = text.strip()
        house = digits_value(word, HOUSES)
        if house is None or house >= HOUSES:
            raise IllegalMove(
                text, f"type the number of one of your houses, 0..11{digits_note(word)}"
            )
        return self._checked(house)

    def notation(self) -> str:
        """``board owners captured to-move round starter history``: houses 0..11 by
        commas, twelve owner digits, the captured tokens ``c0,c1``, the player to move (``-``
        once the game is over), the round, its starter, and the history keys (``-``: none; read as
        this position alone while the game goes on).
        """
        board = ",".join(map(str, self.board))
        owners = "".join(map(str, self.owners))
        captured = "{},{}".format(*self.scores)
        mover = "-" if self.is_over else str(self.to_move)
        hist = ",".join(str(int(k)) for k in self._hist) or "-"
        return f"{board} {owners} {captured} {mover} {self.round} {self.starter} {hist}"

    def render(self) -> str:
        """The seed's board: player 1's row above (houses 11 to 6), player 0's below (0 to
        5), house numbers outside, a house owned by the other row's player marked with its
        owner, the captured tokens beside the rows.  People count players from 1, as the
        seed's h2g2 rules do: "P1" is player 0 (the bottom row), "P2" player 1."""
        top = list(range(HOUSES - 1, 5, -1))
        bottom = list(range(6))

        def numbers(houses: list[int]) -> str:
            return "      " + "".join(f"{h:^7}" for h in houses)

        def cells(houses: list[int], row_player: int) -> str:
            text = []
            for h in houses:
                mark = f"P{self.owners[h] + 1}" if self.owners[h] != row_player else "  "
                text.append(f"|{self.board[h]:>3} {mark}")
            return "".join(text) + "|"

        rule = "      " + "+------" * 6 + "+"
        c0, c1 = self.scores
        if not self.is_over:
            status = f"Player {self.to_move + 1} to move"
        elif self.winner is None:
            status = "game over: a draw"
        else:
            status = f"game over: Player {self.winner + 1} wins"
        lines = [
            f"Round {self.round} (started by Player {self.starter + 1}), {status}",
            numbers(top),
            rule,
            f"  P2  {cells(top, 1)}  Player 2 captured {c1:>2}",
            rule,
            f"  P1  {cells(bottom, 0)}  Player 1 captured {c0:>2}",
            rule,
            numbers(bottom),
        ]
        return "\n".join(line.rstrip() for line in lines)

    def _key(self) -> Hashable:
        return self._pos.tobytes() + self._hist.tobytes()


def _report(state: AyoState, house: int, events: np.ndarray) -> AyoReport:
    """Turn the kernel's event log into the account of the move."""
    relays: list[tuple[int, int]] = []
    captures: list[Capture] = []
    passes: list[int] = []
    round_end: RoundEnd | None = None
    held: tuple[int, int] = (0, 0)
    for n in range(int(events[0])):
        kind, a, b, c = (int(v) for v in events[1 + EVENT_WIDTH * n : 1 + EVENT_WIDTH * (n + 1)])
        if kind == EV_RELAY:
            relays.append((b, c))
        elif kind in _CAPTURE_KINDS:
            captures.append(Capture(a, c, b if b >= 0 else None, _CAPTURE_KINDS[kind]))
        elif kind == EV_PASS:
            passes.append(a)
        elif kind == EV_ROUND_END:
            held = (b, c)
            round_end = RoundEnd(state.round, REASONS[a], held, None)
    if round_end is not None and not _over_after(held, state):
        houses0 = int(houses_bought(held[0], held[1], state.starter))
        round_end = RoundEnd(round_end.round, round_end.reason, held, (houses0, HOUSES - houses0))
    return AyoReport(state.to_move, house, tuple(relays), tuple(captures), tuple(passes), round_end)


def _over_after(held: tuple[int, int], state: AyoState) -> bool:
    """Whether a round of ``state`` that ended with ``held`` ends the game."""
    limit = state.game.max_rounds
    return TOKENS in held or (limit > 0 and state.round >= limit)


def _parse(game: AyoGame, text: str) -> AyoState:
    fields = text.split()
    if len(fields) != 7:
        raise BadPosition(
            "expected 7 fields 'board owners captured to-move round starter history', "
            f"got {len(fields)} in {shown(text)}"
        )
    board, owners, captured, mover, round_, starter, keys = fields
    if len(owners) != HOUSES or set(owners) - {"0", "1"}:
        raise BadPosition(f"the owners must be 12 digits 0 or 1, not {shown(owners)}")
    pos = np.zeros(SIZE, dtype=np.int64)
    pos[:HOUSES] = parse_numbers(board, "the board", TOKENS, HOUSES)
    pos[OWNER : OWNER + HOUSES] = [int(c) for c in owners]
    pos[CAPTURED : CAPTURED + 2] = parse_numbers(captured, "the captured tokens", TOKENS, 2)
    pos[OVER] = mover == "-"
    pos[TO_MOVE] = 0 if mover == "-" else parse_player(mover, "the player to move")
    pos[ROUND] = parse_whole(round_, "the round", 0, MAX_ROUNDS)
    pos[STARTER] = parse_player(starter, "the round's starter")
    if keys == "-":  # no earlier position: the history is this position alone
        hist = np.array([] if pos[OVER] else [position_key(pos)], dtype=np.int64)
    else:
        hist = np.array(parse_numbers(keys, "the history", MAX_KEY), dtype=np.int64)
    pos[HIST_LEN] = len(hist)
    _check(game, pos, hist)
    return AyoState(game, pos, hist)


def _check(game: AyoGame, pos: np.ndarray, hist: np.ndarray) -> None:
    """Refuse a position the game cannot reach, naming what is wrong.  Every number is
    in range already (``_parse``), so the sums below are exact and the legal-move test
    sows 48 tokens at most."""
    tokens = int(pos[:HOUSES].sum() + pos[CAPTURED] + pos[CAPTURED + 1])
    if tokens != TOKENS:
        raise BadPosition(f"the position holds {tokens} tokens; Ayo has {TOKENS}")
    if pos[ROUND] < 1 or (game.max_rounds and pos[ROUND] > game.max_rounds):
        raise BadPosition(f"round {pos[ROUND]} is not a round of this game")
    dealt = pos.copy()
    houses0 = HOUSES - int(pos[OWNER : OWNER + HOUSES].sum())
    deal_owners(dealt, 6 if pos[ROUND] == 1 else houses0)
    if (dealt[OWNER : OWNER + HOUSES] != pos[OWNER : OWNER + HOUSES]).any():
        raise BadPosition(
            "the owners must be each player's own row in round 1, and later a deal: a player "
            "with more than six houses owns their row and the next houses in sowing order"
        )
    if pos[OVER]:
        if pos[:HOUSES].any() or len(hist):
            raise BadPosition("a finished game has no tokens on the board and no history")
        if TOKENS not in pos[CAPTURED : CAPTURED + 2] and pos[ROUND] != game.max_rounds:
            last = f"round {game.max_rounds}" if game.max_rounds else "none in this game"
            raise BadPosition(
                "a game is over only when a player holds all 48 tokens or after its last "
                f"round ({last})"
            )
        return
    if pos[CAPTURED] % 4 or pos[CAPTURED + 1] % 4 or pos[CAPTURED] + pos[CAPTURED + 1] > 40:
        raise BadPosition("during a round each player captures whole fours, ten at most")
    if not has_legal_move(pos, int(pos[TO_MOVE])):
        raise BadPosition(f"player {pos[TO_MOVE]} is to move but has no legal move")
    if not len(hist) or hist[-1] != position_key(pos):
        raise BadPosition("the history must end with the key of this position")
    if len(set(hist.tolist())) != len(hist):
        raise BadPosition("the history keys must be distinct")


register("ayo", AyoGame, "Ayo of seed 000: fours captured while sowing, relays, houses bought")
