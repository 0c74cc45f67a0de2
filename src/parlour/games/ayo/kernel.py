"""The rules of Ayo as seed 000 plays it (RULES.md section 2), compiled: fours captured
while sowing, relay sowing, the eleventh group taking the last four, and rounds in which
captured fours buy houses.

These kernels are the one home of the rules; :mod:`parlour.games.ayo.game` (the State) and
the search both run them.  A position is one int64 array of ``SIZE`` entries:

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

import numpy as np
from numba import njit

from parlour.rng import mix

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


# The search's adapters (parlour.search.kernel): one signature in every game.


@njit(cache=True, nogil=True)
def search_moves(pos: np.ndarray, out: np.ndarray) -> int:
    """Write the legal moves of ``pos`` into ``out``; their count (0 at the end)."""
    return 0 if pos[OVER] else legal_moves(pos, out)


@njit(cache=True, nogil=True)
def search_play(
    pos: np.ndarray, hist: np.ndarray, move: int, rules: int, events: np.ndarray
) -> bool:
    """Play ``move`` in place; True when the round is over, whose deal the evaluation then
    values (``rules``: the round limit)."""
    return (apply_move(pos, hist, move, rules, events) & ROUND_END) != 0


@njit(cache=True, nogil=True)
def search_to_move(pos: np.ndarray) -> int:
    return int(pos[TO_MOVE])


@njit(cache=True, nogil=True)
def search_score(pos: np.ndarray) -> int:
    """The tokens player 0 would hold if the round ended now (captured, and those in the
    houses they own) minus player 1's, which carries over from one round to the next: a
    new round's deal (four tokens a house) is worth what bought it."""
    held = pos[CAPTURED] - pos[CAPTURED + 1]
    for house in range(HOUSES):
        held += pos[house] if pos[OWNER + house] == 0 else -pos[house]
    return int(held)


@njit(cache=True, nogil=True)
def search_seeds(pos: np.ndarray) -> int:
    """No endgame table counts Ayo's tokens."""
    return 0


@njit(cache=True, nogil=True)
def search_stored(pos: np.ndarray) -> int:
    return 0


@njit(cache=True, nogil=True)
def search_key(pos: np.ndarray) -> np.uint64:
    """A 64-bit hash of what decides the future: houses, owners, captures (the eleventh
    group depends on them), the side to move and the round, not the history bounds."""
    h = mix(np.uint64(search_to_move(pos) + 1))
    for i in range(HIST_FROM):
        h = mix(h + np.uint64(pos[i]) + np.uint64(i << 8))
    return h


@njit(cache=True, nogil=True)
def search_order(pos: np.ndarray, move: int) -> int:
    """A guess of how good ``move`` is, for trying it early: a last token that makes four
    first."""
    land = (move + pos[move]) % HOUSES
    return 1 if pos[move] < HOUSES and pos[land] == 3 else 0
