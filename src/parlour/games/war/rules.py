"""War (RULES.md section 4, seed 004): the rule book both the kernel and the actors play by.

A rule set (:class:`WarRules`, its options those of :mod:`parlour.games.war.options`) and
the rules as small compiled functions on cards and arrays.  Everything the kernel and the
actors share lives here and only here: the card values, the deal (from one random stream
a game, :mod:`parlour.rng`), the comparison of face-up cards, the number of cards a step
puts, the pickup orders, the long-game winner, and how a game's end is told (an
:class:`~parlour.outcome.Outcome` with War's :class:`WarAccount`).
:mod:`parlour.games.war.kernel` plays whole games with them in a loop;
:mod:`parlour.games.war.dealer` plays them as the seed's Dealer and Players;
:mod:`parlour.games.war.game` makes War a ``parlour.game`` whose one move plays a round.

A card is an int 0..51: suit ``c // 13`` (clubs, diamonds, hearts, spades) and rank
``c % 13`` (ace, two, ..., king).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from parlour.core import BadOption, digits_note, digits_value, shown
from parlour.games.war.options import PICKUPS
from parlour.outcome import Outcome, Reason
from parlour.rng import rng_below

FULL_DECK = tuple(range(52))
SMALL_DECK = (0, 10, 11, 12, 13, 23, 24, 25)  # A, J, Q, K of clubs, then of diamonds
WAR_CARDS = 3  # cards each player puts in a war: two face down, one face up
TIE = -1  # the compiled rules' "winner" of a tied comparison or a drawn game (None outside)
SHUFFLED, WINNER_FIRST, PLAYED = range(3)  # the kernels' codes of war_options.PICKUPS

# How a game ended, as the compiled rules count it: the ending codes, their names (in
# notation and in ``simulate war``'s counts), and the Reason each is outside the kernels.
OUT_OF_CARDS, ROUND_LIMIT, CYCLE = range(3)
ENDINGS = ("out_of_cards", "round_limit", "cycle")
ENDING_REASONS = (Reason.OUT_OF_CARDS, Reason.ROUND_LIMIT, Reason.CYCLE)

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = "♣♦♥♠"
ASCII_SUITS = "CDHS"

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
    try:
        cards = [parse_card(part) for part in re.split(r"[\s,]+", text.strip()) if part]
    except BadOption as error:
        raise BadOption(f"option deck: {error}") from None
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


# ---------------------------------------------------------------- the rule set


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


# ---------------------------------------------------------------- how a game ended

Stacks = tuple[tuple[int, ...], tuple[int, ...]]


@dataclass(frozen=True)
class WarAccount:
    """War's account of a game's end (``Outcome.account``): the rounds, battles and wars
    played and, where whoever played the game saw them, the final stacks, top first (a
    Dealer never does).  Cards left on the table when a game ends are in no stack."""

    rounds: int
    battles: int
    wars: int
    stacks: Stacks | None = field(default=None, compare=False)


def ended(ending: int, winner: int) -> tuple[Reason, int | None]:
    """The compiled rules' ending code and winner (0, 1 or TIE) in the one vocabulary:
    the Reason, and the winner with None for a draw."""
    return ENDING_REASONS[ending], None if winner == TIE else winner


def war_outcome(
    ending: int, winner: int, account: WarAccount, counts: tuple[int, int] | None = None
) -> Outcome:
    """The Outcome of a game the compiled rules ended (codes as :func:`ended` takes them).
    ``counts``, the cards each holds, are its scores (counted from the stacks if known)."""
    if counts is None and account.stacks is not None:
        counts = len(account.stacks[0]), len(account.stacks[1])
    reason, who = ended(ending, winner)
    return Outcome(who, reason, counts, account=account)


def describe(outcome: Outcome) -> str:
    """One line saying who won a game of War and why, the players named as on screen."""
    account: WarAccount = outcome.account
    rounds, winner = account.rounds, outcome.winner
    plural = "" if rounds == 1 else "s"
    if outcome.reason is Reason.ABORTED:
        return f"no winner: the game was aborted after {rounds} round{plural}"
    if outcome.reason is Reason.CYCLE:
        return f"no winner: the game cycles (stacks repeat after {rounds} round{plural})"
    who = "a tie" if winner is None else f"{player_name(winner)} wins"
    if outcome.reason is Reason.OUT_OF_CARDS:
        why = (
            "both out of cards" if winner is None else f"{player_name(1 - winner)} is out of cards"
        )
        return f"{who}: {why}, after {rounds} round{plural}"
    counts = outcome.scores
    if counts is None:
        return f"{who} at the round limit of {rounds} rounds"
    held = f"{player_name(0)} holds {counts[0]} cards, {player_name(1)} {counts[1]}"
    if winner is not None:
        fewer = counts[winner] < counts[1 - winner]
        held += f": {'fewer' if fewer else 'more'} cards win"
    return f"{who} at the round limit of {rounds} rounds ({held})"
