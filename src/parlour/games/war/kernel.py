"""War played fast: whole games in compiled code, many at once over every core.

The rules come from :mod:`parlour.games.war.rules`; this module only keeps the stacks and runs
rounds.  A game's position is one int32 array:

=============  ================================================
index          holds
=============  ================================================
0, 1           where each player's stack starts (its top) in its ring
2, 3           how many cards each player holds
4, 5, 6        rounds, battles and wars so far
7              N, the number of cards in the deck
8 .. 8+N-1     player 0's ring of N slots (its top at the slot index 0 names)
8+N .. 8+2N-1  player 1's ring
=============  ================================================

Game ``i`` of a run with seed ``s`` draws every random number from its own stream
``(s, i)``, so a run's numbers are the same whatever the number of threads, and the
actors can replay any one game of it card for card.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

import numba
import numpy as np
from numba import njit, prange

from parlour.games.war.rules import (
    CYCLE,
    ENDINGS,
    OUT_OF_CARDS,
    ROUND_LIMIT,
    SHUFFLED,
    TIE,
    WarAccount,
    WarRules,
    cards_to_put,
    compare,
    deal,
    long_game_winner,
    pick_up,
    shuffle,
    spell_deck,
    war_outcome,
)
from parlour.outcome import Outcome
from parlour.rng import rng_start

HEAD, COUNT, ROUNDS, BATTLES, WARS, SIZE, RING = 0, 2, 4, 5, 6, 7, 8
GOING = -2  # advance's answer when the game goes on (else: the winner, or TIE)
REPEAT = -3  # advance's answer when it saw the stacks repeat
RESULT_COLUMNS = ("winner", "ending", "rounds", "battles", "wars")


@njit(cache=True, nogil=True)
def new_position(size: int) -> np.ndarray:
    """An empty position for a deck of ``size`` cards."""
    position = np.zeros(RING + 2 * size, dtype=np.int32)
    position[SIZE] = size
    return position


@njit(cache=True, nogil=True)
def load(position: np.ndarray, stack0: np.ndarray, stack1: np.ndarray) -> None:
    """Set the stacks (top first) and zero the counts."""
    size = position[SIZE]
    position[:SIZE] = 0
    position[COUNT] = stack0.shape[0]
    position[COUNT + 1] = stack1.shape[0]
    position[RING : RING + stack0.shape[0]] = stack0
    position[RING + size : RING + size + stack1.shape[0]] = stack1


@njit(cache=True, nogil=True)
def card_at(position: np.ndarray, player: int, depth: int) -> int:
    """The card ``depth`` places below the top of ``player``'s stack."""
    size = position[SIZE]
    return int(position[RING + player * size + (position[HEAD + player] + depth) % size])


@njit(cache=True, nogil=True)
def advance(
    position: np.ndarray,
    table: np.ndarray,
    steps: np.ndarray,
    pickup: int,
    rng: np.ndarray,
    until: int,
    watching: bool,
    tortoise: np.ndarray,
    brent: np.ndarray,
) -> int:
    """Play rounds until the game ends or ``until`` rounds are done (0: no limit).

    A round is a battle and the wars it leads to, until someone takes the cards; then the
    table holds them in the order taken.  Returns GOING when ``until`` is reached, else
    the game's winner (TIE if both were out): the player who could still put a card.
    Then the table holds the cards put, and the last pair of ``steps`` says who was out.
    ``watching`` takes one step of Brent's cycle search after each round (``watch``) and
    returns REPEAT when it finds the stacks seen before.  All rounds run inside this one
    loop, because a call a round costs more than a round.
    """
    size = position[SIZE]
    while True:
        n, step, want = 0, 0, cards_to_put(False)
        while True:
            for player in range(2):
                k = min(want, position[COUNT + player])
                steps[2 * step + player] = k
                head = position[HEAD + player]
                base = RING + player * size
                for _ in range(k):
                    table[n] = position[base + head]
                    n += 1
                    head += 1
                    if head == size:
                        head = 0
                position[HEAD + player] = head
                position[COUNT + player] -= k
            k0, k1 = steps[2 * step], steps[2 * step + 1]
            step += 1
            if k0 == 0 or k1 == 0:
                return TIE if k0 == k1 else (1 if k0 == 0 else 0)
            position[BATTLES] += 1
            winner = compare(table[n - k1 - 1], table[n - 1])
            if winner != TIE:
                break
            position[WARS] += 1
            want = cards_to_put(True)
        if pickup == SHUFFLED:  # pick_up's first case, called direct: twice as fast
            shuffle(table, n, rng)
        else:
            pick_up(table, n, steps, step, winner, pickup, rng)
        base = RING + winner * size
        slot = position[HEAD + winner] + position[COUNT + winner]
        for i in range(n):
            if slot >= size:
                slot -= size
            position[base + slot] = table[i]
            slot += 1
        position[COUNT + winner] += n
        position[ROUNDS] += 1
        if watching and watch(position, tortoise, brent):
            return REPEAT
        if position[ROUNDS] == until:
            return GOING


@njit(cache=True, nogil=True)
def watch(position: np.ndarray, tortoise: np.ndarray, brent: np.ndarray) -> bool:
    """Brent's step: whether the stacks equal the tortoise's, which moves up to here
    when ``brent[1]`` rounds have passed since it last moved, ``brent[0]`` doubling."""
    brent[1] += 1
    if same_stacks(position, tortoise):
        return True
    if brent[1] == brent[0]:
        tortoise[:] = position
        brent[0] *= 2
        brent[1] = 0
    return False


@njit(cache=True, nogil=True)
def same_stacks(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two positions hold the same two stacks (their round counts may differ)."""
    for player in range(2):
        if a[COUNT + player] != b[COUNT + player]:
            return False
        for depth in range(a[COUNT + player]):
            if card_at(a, player, depth) != card_at(b, player, depth):
                return False
    return True


@njit(cache=True, nogil=True)
def limit_result(position: np.ndarray, more_wins: bool) -> tuple[int, int]:
    """The result at the round limit (RULES.md: the option long_game_winner)."""
    return long_game_winner(position[COUNT], position[COUNT + 1], more_wins), ROUND_LIMIT


@njit(cache=True, nogil=True)
def next_round(
    position: np.ndarray, table: np.ndarray, steps: np.ndarray, pickup: int, rng: np.ndarray
) -> int:
    """One round: GOING or the game's winner."""
    return advance(position, table, steps, pickup, rng, position[ROUNDS] + 1, False, table, steps)


@njit(cache=True, nogil=True)
def start_watching(position: np.ndarray, spare: np.ndarray) -> np.ndarray:
    """Keep the deal (``spare[0]``) and put Brent's tortoise (``spare[1]``) on it; the
    search's counters: its power, and the rounds since the tortoise moved."""
    spare[0][:] = position
    spare[1][:] = position
    return np.array([1, 0], dtype=np.int64)


@njit(cache=True, nogil=True)
def settle(
    answer: int,
    position: np.ndarray,
    spare: np.ndarray,
    table: np.ndarray,
    steps: np.ndarray,
    pickup: int,
    limit: int,
    more_wins: bool,
    rng: np.ndarray,
    brent: np.ndarray,
) -> tuple[int, int]:
    """The end of a game from advance's ``answer`` when it stopped at the limit (GOING),
    a repeat or an empty stack: (winner, ending).  A shuffled pickup needs nothing more;
    a game that can cycle is one watched from its deal (``start_watching``).

    A cycle that starts before the limit is found by 3 * limit rounds (Brent's tortoise
    sits at 2**k - 1 and looks 2**k ahead), so at the limit play goes on, from a saved
    copy (``spare[2]``), only that far.
    """
    if pickup == SHUFFLED:
        if answer == GOING:
            return limit_result(position, more_wins)
        return answer, OUT_OF_CARDS
    saved, at_limit = spare[2], False
    if answer == GOING:  # at the limit, and no repeat seen yet: look on, up to 3 * limit
        saved[:] = position
        at_limit = True
        answer = advance(position, table, steps, pickup, rng, 3 * limit, True, spare[1], brent)
        if answer != REPEAT:
            position[:] = saved
            return limit_result(position, more_wins)
    if answer != REPEAT:
        return answer, OUT_OF_CARDS
    first_repeat(position, spare, table, steps, pickup, rng, brent[1])
    if limit and position[ROUNDS] >= limit:  # the repeat came at or after the limit
        if at_limit:
            position[:] = saved
        return limit_result(position, more_wins)
    return TIE, CYCLE


@njit(cache=True, nogil=True)
def first_repeat(
    position: np.ndarray,
    spare: np.ndarray,
    table: np.ndarray,
    steps: np.ndarray,
    pickup: int,
    rng: np.ndarray,
    length: int,
) -> None:
    """Move ``position`` to the first repeat of the game dealt in ``spare[0]``.

    With the cycle ``length`` known, two positions ``length`` rounds apart meet exactly
    from the cycle's start on, so they are walked from the deal in strides (fast, in one
    call each) until they meet, and the last stride again round by round.
    """
    start, behind, stride = spare[0], spare[1], 1024
    position[:] = start
    advance(position, table, steps, pickup, rng, length, False, table, steps)
    behind[:] = start
    if same_stacks(position, behind):
        return
    ahead, back = spare[3], spare[4]
    while True:
        ahead[:] = position
        back[:] = behind
        for walker in (position, behind):
            advance(walker, table, steps, pickup, rng, walker[ROUNDS] + stride, False, table, steps)
        if same_stacks(position, behind):
            break
    position[:] = ahead
    behind[:] = back
    while not same_stacks(position, behind):
        next_round(position, table, steps, pickup, rng)
        next_round(behind, table, steps, pickup, rng)


@njit(cache=True, nogil=True)
def play_game(
    deck: np.ndarray,
    seed: int,
    index: int,
    pickup: int,
    limit: int,
    more_wins: bool,
    position: np.ndarray,
    spare: np.ndarray,
    table: np.ndarray,
    steps: np.ndarray,
    rng: np.ndarray,
) -> tuple[int, int]:
    """Deal game ``index`` of run ``seed`` and play it out: (winner, ending).

    Where play is a function of the stacks (played, winner_first), the first pair of
    stacks seen twice at the start of a round ends the game as a cycle (RULES.md), unless
    the round limit comes first: found without a history, in constant memory, by Brent's
    method and a replay from the deal (:func:`settle`).

    ``position`` holds the final stacks and counts; the other arrays are work space
    (``work`` makes them).  ``limit`` 0 means no round limit.
    """
    rng_start(rng, seed, index)
    stack0, stack1 = deal(deck, rng)
    load(position, stack0, stack1)
    brent = start_watching(position, spare)
    watching = pickup != SHUFFLED  # a shuffled pickup repeats stacks without cycling
    answer = advance(position, table, steps, pickup, rng, limit, watching, spare[1], brent)
    return settle(answer, position, spare, table, steps, pickup, limit, more_wins, rng, brent)


@njit(cache=True, nogil=True)
def work(size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A position and the work space play_game needs, for a deck of ``size`` cards."""
    position = new_position(size)
    spare = np.empty((5, position.shape[0]), dtype=np.int32)
    steps = np.empty(2 * (size // 2 + 2), dtype=np.int64)  # a war step takes 1 card or more
    return position, spare, np.empty(size, np.int32), steps, np.zeros(1, np.uint64)


@njit(cache=True, nogil=True, parallel=True)
def simulate_kernel(
    deck: np.ndarray,
    seed: int,
    first: int,
    count: int,
    pickup: int,
    limit: int,
    more_wins: bool,
) -> np.ndarray:
    """Games ``first .. first+count-1`` of run ``seed``: one row of RESULT_COLUMNS each."""
    results = np.empty((count, len(RESULT_COLUMNS)), dtype=np.int32)
    size = deck.shape[0]
    blocks = min(count, 256)
    for block in prange(blocks):
        position, spare, table, steps, rng = work(size)
        for i in range(block * count // blocks, (block + 1) * count // blocks):
            winner, ending = play_game(
                deck, seed, first + i, pickup, limit, more_wins, position, spare, table, steps, rng
            )
            results[i, 0] = winner
            results[i, 1] = ending
            results[i, 2] = position[ROUNDS]
            results[i, 3] = position[BATTLES]
            results[i, 4] = position[WARS]
    return results


# ---------------------------------------------------------------- the Python side


def stacks_of(position: np.ndarray) -> tuple[tuple[int, ...], tuple[int, ...]]:
    counts = position[COUNT], position[COUNT + 1]
    stack0 = tuple(int(card_at(position, 0, d)) for d in range(counts[0]))
    return stack0, tuple(int(card_at(position, 1, d)) for d in range(counts[1]))


def play_one(rules: WarRules, index: int = 0) -> Outcome:
    """Game ``index`` of the run ``rules.seed`` (0 if unset), with its final stacks."""
    position, *rest = work(len(rules.deck))
    winner, ending = play_game(
        rules.deck_array,
        rules.seed or 0,
        index,
        rules.pickup_code,
        rules.limit,
        rules.more_wins,
        position,
        *rest,
    )
    rounds, battles, wars = (int(position[n]) for n in (ROUNDS, BATTLES, WARS))
    account = WarAccount(rounds, battles, wars, stacks_of(position))
    return war_outcome(int(ending), int(winner), account)


def play_position(
    rules: WarRules, stack0: list[int], stack1: list[int]
) -> tuple[int, tuple[tuple[int, ...], tuple[int, ...]], np.ndarray]:
    """One round from the given stacks (top first), for tests of single rules.

    Returns advance's answer (GOING, or the game's winner), the stacks after the round
    and the position.  The generator is game 0's of ``rules.seed`` (0 if unset).
    """
    position, _, table, steps, rng = work(len(stack0) + len(stack1))
    load(position, np.array(stack0, dtype=np.int32), np.array(stack1, dtype=np.int32))
    rng_start(rng, rules.seed or 0, 0)
    answer = advance(position, table, steps, rules.pickup_code, rng, 1, False, table, steps)
    return int(answer), stacks_of(position), position


def simulate(
    rules: WarRules,
    games: int,
    *,
    jobs: int | None = None,
    chunk: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> Summary:
    """Play games 0..games-1 of the run ``rules.seed`` (0 if unset) on ``jobs`` threads.

    ``progress`` is called with the number of games done after each ``chunk`` of games.
    ``jobs`` None means every core numba may use.  Without a round limit, a pickup that
    can cycle makes some games long (a deal may take millions of rounds to repeat), so
    the chunks are small there, for a progress bar that moves.
    """
    numba.set_num_threads(jobs or numba.config.NUMBA_NUM_THREADS)  # type: ignore[attr-defined]
    tally = Tally()
    for first, count in chunks(rules, games, chunk):
        tally.add(play_chunk(rules, first, count))
        if progress is not None:
            progress(count)
    return tally.summary(rules)


def chunks(rules: WarRules, games: int, chunk: int | None = None) -> list[tuple[int, int]]:
    """Games 0..games-1 as (first, count) chunks of ``chunk`` games (by default a size
    that keeps a progress bar moving under ``rules``)."""
    if chunk is None:
        chunk = 20_000 if rules.pickup_code == SHUFFLED or rules.limit else 64
    return [(first, min(chunk, games - first)) for first in range(0, games, chunk)]


def play_chunk(rules: WarRules, first: int, count: int) -> np.ndarray:
    """The kernel's results of games ``first .. first+count-1`` of the run ``rules.seed``."""
    return simulate_kernel(
        rules.deck_array,
        rules.seed or 0,
        first,
        count,
        rules.pickup_code,
        rules.limit,
        rules.more_wins,
    )


class Tally:
    """Running totals of a simulation: counts and exact distributions, as (value, games)
    pairs, so that memory grows with the distinct lengths, not with the longest game."""

    def __init__(self) -> None:
        self.games = 0
        self.winners = np.zeros(3, dtype=np.int64)  # player 0, player 1, tie
        self.endings = np.zeros(3, dtype=np.int64)
        empty = (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))
        self.spreads = {name: empty for name in RESULT_COLUMNS[2:]}

    def add(self, results: np.ndarray) -> None:
        """Count a block of kernel results."""
        self.games += results.shape[0]
        self.winners += np.bincount(results[:, 0] % 3, minlength=3)
        self.endings += np.bincount(results[:, 1], minlength=3)
        for column, name in enumerate(RESULT_COLUMNS[2:], start=2):
            old_values, old_counts = self.spreads[name]
            values = np.concatenate([old_values, results[:, column]])
            weights = np.concatenate([old_counts, np.ones(results.shape[0], dtype=np.int64)])
            distinct, where = np.unique(values, return_inverse=True)
            self.spreads[name] = (distinct, np.bincount(where, weights).astype(np.int64))

    def summary(self, rules: WarRules) -> Summary:
        """The statistics of what was counted."""
        return Summary(
            rules=rules,
            games=self.games,
            wins=(int(self.winners[0]), int(self.winners[1])),
            ties=int(self.winners[2]),
            endings={name: int(n) for name, n in zip(ENDINGS, self.endings, strict=True)},
            stats={name: _stats(*spread) for name, spread in self.spreads.items()},
            lengths=_length_histogram(*self.spreads["rounds"]),
        )


@dataclass(frozen=True)
class Summary:
    """What ``parlour simulate war`` prints: wins, endings, and the spread of game lengths."""

    rules: WarRules
    games: int
    wins: tuple[int, int]
    ties: int
    endings: dict[str, int]
    stats: dict[str, dict[str, float]]
    lengths: list[tuple[int, int, int]]  # (from, to inclusive, games) of rounds

    def as_json(self) -> dict[str, object]:
        """The summary as plain JSON values; the options as the flags take them (the deck
        as ``full``, ``small`` or card names, not 52 numbers)."""
        return {
            "games": self.games,
            "options": {
                "deck": spell_deck(self.rules.deck),
                "pickup": self.rules.pickup,
                "max_rounds": self.rules.max_rounds,
                "long_game_winner": self.rules.long_game_winner,
                "seed": self.rules.seed,
            },
            "wins": {"player0": self.wins[0], "player1": self.wins[1]},
            "ties": self.ties,
            "endings": self.endings,
            "stats": self.stats,
            "rounds_histogram": [
                {"from": low, "to": high, "games": n} for low, high, n in self.lengths
            ],
        }


def _stats(values: np.ndarray, counts: np.ndarray) -> dict[str, float]:
    """Mean, median, 90th and 99th percentiles (nearest rank) and maximum."""
    total = int(counts.sum())
    if total == 0:
        return {"mean": 0.0, "median": 0, "p90": 0, "p99": 0, "max": 0}
    cumulative = np.cumsum(counts)

    def rank(percent: int) -> int:  # the value of the ceil(percent% of total)-th game
        return int(values[np.searchsorted(cumulative, max(1, -(-percent * total // 100)))])

    return {
        "mean": float(np.dot(values, counts) / total),
        "median": rank(50),
        "p90": rank(90),
        "p99": rank(99),
        "max": int(values[-1]),
    }


def _length_histogram(values: np.ndarray, counts: np.ndarray) -> list[tuple[int, int, int]]:
    """Games by rounds in about eight bins from the shortest game to the longest.

    Equal bins where lengths are close (a round limit); doubling bins where the longest
    game is many times the shortest, as without a limit.
    """
    if values.size == 0:
        return []
    shortest, longest = int(values[0]), int(values[-1])
    if longest < 4 * max(shortest, 1):
        width = -(-(longest - shortest + 1) // 8)
        edges = list(range(shortest, longest + width + 1, width))
    else:
        edges = [shortest, shortest + max(1, -(-longest // 128))]
        while edges[-1] <= longest:
            edges.append(edges[-1] + 2 * (edges[-1] - edges[-2]))
    cumulative = np.concatenate([[0], np.cumsum(counts)])
    at = np.searchsorted(values, edges)
    return [
        (low, high - 1, int(cumulative[at[i + 1]] - cumulative[at[i]]))
        for i, (low, high) in enumerate(itertools.pairwise(edges))
        if low <= longest
    ]
