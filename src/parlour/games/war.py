"""War (RULES.md section 4, seed 004): the rule book both the kernel and the actors play by.

War has no moves to choose, so it is not a :class:`parlour.core.State`; it is a set of
options (:class:`WarRules`, checked with the core's :class:`Option` specs) and the rules as
small compiled functions on cards and arrays.  Everything the two implementations share
lives here and only here: the card values, the random generator with one stream a game,
the deal, the comparison of face-up cards, the number of cards a step puts, the pickup
orders and the long-game winner.  :mod:`parlour.games.war_kernel` plays whole games with
them in a loop; :mod:`parlour.actors.dealer` plays them as the seed's Dealer and Players.

A card is an int 0..51: suit ``c // 13`` (clubs, diamonds, hearts, spades) and rank
``c % 13`` (ace, two, ..., king).  The random generator is splitmix64 kept in a
one-element ``uint64`` array, so that the compiled code and plain Python share it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import njit

from parlour.core import MAX_SEED, BadOption, Option, digits_note, digits_value, shown

FULL_DECK = tuple(range(52))
SMALL_DECK = (0, 10, 11, 12, 13, 23, 24, 25)  # A, J, Q, K of clubs, then of diamonds
WAR_CARDS = 3  # cards each player puts in a war: two face down, one face up
TIE = -1  # the "winner" of a tied comparison or a drawn game
MAX_ROUNDS = 100_000_000
"""The longest round limit: the kernel counts rounds in 32 bits and looks on to three times
the limit for a cycle."""

PICKUPS = ("shuffled", "winner_first", "played")
SHUFFLED, WINNER_FIRST, PLAYED = range(3)

# How a game ended (with its winner, TIE for a draw), and the names of the endings.
OUT_OF_CARDS, ROUND_LIMIT, CYCLE = range(3)
ENDINGS = ("out_of_cards", "round_limit", "cycle")
ABORTED = len(ENDINGS)  # the Dealer was told to end the game: an ending of the actors alone

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = "♣♦♥♠"
ASCII_SUITS = "CDHS"

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S27, _S30, _S31, _S32 = np.uint64(27), np.uint64(30), np.uint64(31), np.uint64(32)


# ---------------------------------------------------------------- the random generator


@njit(cache=True, nogil=True)
def _mix(z: np.uint64) -> np.uint64:
    """splitmix64's finaliser: a bijection of 64-bit words that scrambles every bit."""
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@njit(cache=True, nogil=True)
def rng_start(rng: np.ndarray, seed: int, index: int) -> None:
    """Start game ``index``'s own stream of the run ``seed``.

    One stream a game (not one a thread) is what makes a run's numbers the same whatever
    the number of threads, and lets the actors replay any single game of a run.
    """
    rng[0] = _mix(np.uint64(seed) ^ _mix(np.uint64(index) * _GAMMA + _GAMMA))


@njit(cache=True, nogil=True)
def rng_below(rng: np.ndarray, n: int) -> np.int64:
    """A random int in 0..n-1 (multiply-shift of the high 32 bits: bias below n / 2**32)."""
    rng[0] += _GAMMA
    high = _mix(rng[0]) >> _S32
    return np.int64((high * np.uint64(n)) >> _S32)


def new_rng(seed: int, index: int) -> np.ndarray:
    """A generator array for plain Python callers, started on game ``index`` of ``seed``."""
    rng = np.zeros(1, dtype=np.uint64)
    rng_start(rng, seed, index)
    return rng


# ---------------------------------------------------------------- cards and the rules


@njit(cache=True, nogil=True)
def value(card: int) -> int:
    """The card's value in a comparison: two is 2, ..., king 13, and the ace is highest, 14."""
    rank = card % 13
    return 14 if rank == 0 else rank + 1


@njit(cache=True, nogil=True)
def compare(up0: int, up1: int) -> int:
    """The player whose face-up card is higher, or TIE (suits never matter)."""
    v0, v1 = value(up0), value(up1)
    if v0 == v1:
        return TIE
    return 0 if v0 > v1 else 1


@njit(cache=True, nogil=True)
def cards_to_put(war: bool) -> int:
    """How many cards a step asks of each player: one for a battle, three in a war.

    A player with fewer puts all it has; the last card put is the face-up one.
    """
    return WAR_CARDS if war else 1


@njit(cache=True, nogil=True)
def shuffle(cards: np.ndarray, n: int, rng: np.ndarray) -> None:
    """Fisher-Yates shuffle of ``cards[:n]`` in place, drawing n-1 numbers."""
    for i in range(n - 1, 0, -1):
        j = rng_below(rng, i + 1)
        cards[i], cards[j] = cards[j], cards[i]


@njit(cache=True, nogil=True)
def deal(deck: np.ndarray, rng: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each player's stack, top first: the deck shuffled and dealt alternately, 0 first."""
    cards = deck.copy()
    shuffle(cards, cards.shape[0], rng)
    return cards[0::2], cards[1::2]


@njit(cache=True, nogil=True)
def pick_up(
    table: np.ndarray,
    n: int,
    steps: np.ndarray,
    n_steps: int,
    winner: int,
    pickup: int,
    rng: np.ndarray,
) -> None:
    """Put the round's ``n`` cards on ``table`` in the order the winner puts them under.

    The table holds the cards in the order put: at each step of the round (the battle,
    then each war) player 0's cards, then player 1's; ``steps[2s]`` and ``steps[2s+1]``
    are how many cards each player put at step s.  That is the ``played`` order;
    ``winner_first`` moves the winner's cards (in the order put) before the loser's;
    ``shuffled`` shuffles the played order with the game's generator.
    """
    if pickup == SHUFFLED:
        shuffle(table, n, rng)
    elif pickup == WINNER_FIRST:  # a stable partition in place: no allocation here
        k, at = 0, 0
        for s in range(2 * n_steps):  # steps alternate player 0, player 1
            if s % 2 == winner:
                for i in range(at, at + steps[s]):
                    card = table[i]
                    for j in range(i, k, -1):
                        table[j] = table[j - 1]
                    table[k] = card
                    k += 1
            at += steps[s]


@njit(cache=True, nogil=True)
def long_game_winner(count0: int, count1: int, more_wins: bool) -> int:
    """The winner at the round limit: fewer cards wins (the seed), or more; equal ties."""
    if count0 == count1:
        return TIE
    return 0 if (count0 > count1) == more_wins else 1


# ---------------------------------------------------------------- names on screen


def player_name(seat: int) -> str:
    """How a screen names seat 0 or 1: people count players from 1 ("Player 1")."""
    return f"Player {seat + 1}"


def card_name(card: int, ascii_only: bool = False) -> str:
    """``K♠`` (or ``KS`` where the terminal cannot show suits)."""
    suits = ASCII_SUITS if ascii_only else SUITS
    return RANKS[card % 13] + suits[card // 13]


_CARD = re.compile(r"(?ai)(a|[2-9]|10|j|q|k)([cdhs♣♦♥♠])")


def parse_card(text: str) -> int:
    """A card from its number (``51``) or its name (``KS``, ``K♠``, ``10h``)."""
    text = text.strip()
    card = digits_value(text, len(FULL_DECK) - 1)
    if card is not None:
        if card < len(FULL_DECK):
            return card
        raise BadOption(f"card {shown(text)} is out of range: cards are 0 to 51")
    match = _CARD.fullmatch(text)
    if match is None:
        raise BadOption(
            f"{shown(text)} is not a card: write a number 0..51 or a name like KS or 10H"
            + digits_note(text)
        )
    rank, suit = match.group(1).upper(), match.group(2).upper()
    suit_index = ASCII_SUITS.index(suit) if suit in ASCII_SUITS else SUITS.index(suit)
    return suit_index * 13 + RANKS.index(rank)


def parse_deck(text: str) -> tuple[int, ...]:
    """``full``, ``small`` or a list of distinct cards with an even count (2 or more)."""
    named = {"full": FULL_DECK, "small": SMALL_DECK}.get(text.strip().lower())
    if named is not None:
        return named
    cards = [parse_card(part) for part in re.split(r"[\s,]+", text.strip()) if part]
    if len(set(cards)) != len(cards):
        raise BadOption("option deck lists a card twice")
    if len(cards) < 2 or len(cards) % 2:
        raise BadOption(f"option deck needs an even number of cards, 2 or more, not {len(cards)}")
    return tuple(cards)


def spell_deck(deck: tuple[int, ...]) -> str:
    """How ``parse_deck`` reads ``deck`` back, one spelling a deck: ``full``, ``small`` or
    card names (``AC,KD``)."""
    named = {FULL_DECK: "full", SMALL_DECK: "small"}.get(deck)
    return named or ",".join(card_name(card, ascii_only=True) for card in deck)


# ---------------------------------------------------------------- options


OPTIONS = (
    Option("deck", str, "full", "full (52 cards), small (A K Q J of clubs and diamonds) or a list"),
    Option(
        "pickup",
        str,
        "shuffled",
        "order the winner puts the won cards under their stack",
        choices=PICKUPS,
    ),
    Option(
        "max_rounds",
        int,
        50,
        "rounds before the game stops (none: no limit)",
        minimum=1,
        maximum=MAX_ROUNDS,
        nullable=True,
    ),
    Option(
        "long_game_winner",
        str,
        "fewer",
        "who wins at the round limit: fewer cards (the seed) or more",
        choices=("fewer", "more"),
    ),
    Option(
        "seed",
        int,
        None,
        "seed of the random generator (none: a fresh one)",
        maximum=MAX_SEED,
        nullable=True,
    ),
)


@dataclass(frozen=True)
class WarRules:
    """A War rule set: the options of RULES.md section 4, already checked."""

    deck: tuple[int, ...] = FULL_DECK
    pickup: str = "shuffled"
    max_rounds: int | None = 50
    long_game_winner: str = "fewer"
    seed: int | None = None

    @property
    def pickup_code(self) -> int:
        """The pickup order as the kernels take it."""
        return PICKUPS.index(self.pickup)

    @property
    def limit(self) -> int:
        """The round limit as the kernels take it (0: none)."""
        return self.max_rounds or 0

    @property
    def more_wins(self) -> bool:
        """Whether more cards win at the round limit."""
        return self.long_game_winner == "more"

    @property
    def deck_array(self) -> np.ndarray:
        """The deck in its given order, as the kernels take it."""
        return np.array(self.deck, dtype=np.int32)


def war_rules(**options: Any) -> WarRules:
    """The rule set with ``options`` (values may be text, as the command line gives them):
    ``parlour.game("war", **options).rules``.  An unknown option or a bad value raises
    BadOption naming it."""
    from parlour.core import game
    from parlour.games.war_game import WarGame

    war = game("war", **options)
    assert isinstance(war, WarGame)
    return war.rules


@dataclass(frozen=True)
class Outcome:
    """How one game ended: its winner (TIE for a draw), the ending, and its counts.

    ``stacks`` are the two final stacks, top first, and ``counts`` their sizes; either is
    None where whoever played the game did not learn it (the Dealer counts the cards only
    at the round limit).  Cards left on the table when a game ends are in no stack.
    """

    winner: int
    ending: int
    rounds: int
    battles: int
    wars: int
    stacks: tuple[tuple[int, ...], tuple[int, ...]] | None = field(default=None, compare=False)
    counts: tuple[int, int] | None = field(default=None, compare=False)

    def describe(self) -> str:
        """One line saying who won and why, the players named as on screen."""
        if self.ending == ABORTED:
            return f"no winner: the game was aborted after {self.rounds} rounds"
        if self.ending == CYCLE:
            return f"no winner: the game cycles (stacks repeat after {self.rounds} rounds)"
        who = "a tie" if self.winner == TIE else f"{player_name(self.winner)} wins"
        if self.ending == OUT_OF_CARDS:
            why = (
                "both out of cards"
                if self.winner == TIE
                else f"{player_name(1 - self.winner)} is out of cards"
            )
            return f"{who}: {why}, after {self.rounds} round{'' if self.rounds == 1 else 's'}"
        counts = self.counts or (self.stacks and (len(self.stacks[0]), len(self.stacks[1])))
        if not counts:
            return f"{who} at the round limit of {self.rounds} rounds"
        held = f"{player_name(0)} holds {counts[0]} cards, {player_name(1)} {counts[1]}"
        if self.winner != TIE:
            fewer = counts[self.winner] < counts[1 - self.winner]
            held += f": {'fewer' if fewer else 'more'} cards win"
        return f"{who} at the round limit of {self.rounds} rounds ({held})"
