"""War as a game of parlour: ``parlour.game("war", ...)`` like every other game.

War has no choices, so its states are the deal and the position after each round: the
one legal move, ``round``, plays the next round (a battle and the wars it leads to),
with the same compiled rules the kernel runs (:func:`war_kernel.next_round`).  So every
tool that walks states (the conformance suite, a Referee, perft, research environments)
walks War too, while the Dealer and its Players still play it as the seed's actors.

A state ends as the kernel ends a game: a player out of cards; the round limit (fewer or
more cards win); or, under a pickup that draws no random numbers, the stacks of a round's
start seen before (a cycle, no winner).  The state remembers the pairs of stacks it has
seen for that last check; its notation does not (it would hold every round), so a
position read from text starts that memory afresh.

Notation: ``CARDS/CARDS ROUNDS BATTLES WARS GENERATOR END``: each stack top first as card
names joined by commas (``-`` for an empty one), the counters, the generator's state in
hexadecimal, and ``-`` while the game goes on, else the ending and the winner
(``cycle:-``, ``out_of_cards:0``, ``round_limit:1``).
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Mapping
from typing import Any

import numpy as np

from parlour.core import BadPosition, Game, IllegalMove, State, parse_whole, shown
from parlour.games.war import kernel
from parlour.games.war.options import OPTIONS
from parlour.games.war.rules import (
    CYCLE,
    ENDING_REASONS,
    ENDINGS,
    OUT_OF_CARDS,
    ROUND_LIMIT,
    SHUFFLED,
    TIE,
    Stacks,
    WarAccount,
    WarRules,
    card_name,
    deal,
    ended,
    long_game_winner,
    new_rng,
    parse_card,
    parse_deck,
    player_name,
    spell_deck,
)
from parlour.outcome import Reason

ROUND = "round"
"""War's one move: play the next round."""
MAX_COUNT = 10**12  # rounds, battles or wars a position may have counted
_HEX = re.compile(r"[0-9a-f]{1,16}")
Result = tuple[Reason, int | None]
"""How a state ended: War's Reason and the winner (None for a draw)."""


class WarGame(Game):
    """War's rule set (its options are :data:`parlour.games.war.options.OPTIONS`)."""

    OPTIONS = OPTIONS
    CHOICES = False

    def __init__(self, name: str, options: Mapping[str, Any]) -> None:
        """The deck is read here (BadOption for a bad one) and kept in one spelling, so
        that equal rule sets are equal games: ``full``, ``small`` or card names."""
        deck = parse_deck(options["deck"])
        super().__init__(name, {**options, "deck": spell_deck(deck)})
        self.rules = WarRules(
            deck=deck,
            pickup=options["pickup"],
            max_rounds=options["max_rounds"],
            long_game_winner=options["long_game_winner"],
            seed=options["seed"],
        )
        """The rule set as the kernel and the Dealer take it."""

    def start(self) -> WarState:
        """Game 0 of the run ``seed`` (0 if unset), dealt."""
        return self.deal(0)

    def deal(self, index: int) -> WarState:
        """Game ``index`` of the run ``seed``, dealt as the kernel and the Dealer deal it."""
        rules = self.rules
        rng = new_rng(rules.seed or 0, index)
        stack0, stack1 = deal(rules.deck_array, rng)
        stacks = (tuple(int(c) for c in stack0), tuple(int(c) for c in stack1))
        return WarState(self, stacks, (0, 0, 0), int(rng[0]), None)

    def parse(self, text: str) -> WarState:
        fields = text.split()
        if len(fields) != 6:
            raise BadPosition(
                "expected 'CARDS/CARDS ROUNDS BATTLES WARS GENERATOR END', "
                f"got {len(fields)} field(s)"
            )
        stacks = self._parse_stacks(fields[0])
        rounds, battles, wars = (
            parse_whole(text, f"the {what}", 0, MAX_COUNT)
            for text, what in zip(fields[1:4], ("rounds", "battles", "wars"), strict=True)
        )
        generator = _parse_generator(fields[4])
        result = _parse_end(fields[5])
        return WarState(self, stacks, (rounds, battles, wars), generator, result)

    def _parse_stacks(self, text: str) -> Stacks:
        halves = text.split("/")
        if len(halves) != 2:
            raise BadPosition(f"expected two stacks separated by '/', got {len(halves)}")
        try:
            stack0, stack1 = (
                () if half == "-" else tuple(parse_card(card) for card in half.split(","))
                for half in halves
            )
        except ValueError as error:  # BadOption: a card that is not one
            raise BadPosition(str(error)) from None
        cards = stack0 + stack1
        deck = self.rules.deck
        if len(set(cards)) != len(cards) or not set(cards) <= set(deck):
            raise BadPosition("the stacks must hold cards of the deck, each at most once")
        return stack0, stack1


def _parse_generator(text: str) -> int:
    if _HEX.fullmatch(text) is None:
        raise BadPosition(f"the generator must be 1 to 16 hexadecimal digits, not {shown(text)}")
    return int(text, 16)


def _parse_end(text: str) -> Result | None:
    """``-``, or ``ENDING:WINNER`` (``-`` for no winner)."""
    if text == "-":
        return None
    ending, _, winner = text.partition(":")
    if ending not in ENDINGS or winner not in ("0", "1", "-"):
        raise BadPosition(
            "the end must be -, or an ending and a winner like cycle:- or out_of_cards:0, "
            f"not {shown(text)}"
        )
    return ENDING_REASONS[ENDINGS.index(ending)], None if winner == "-" else int(winner)


class WarState(State):
    """A War position: both stacks (top first), the rounds, battles and wars played, the
    generator's state and, once over, the ending and winner."""

    game: WarGame

    def __init__(
        self,
        game: WarGame,
        stacks: Stacks,
        counters: tuple[int, int, int],
        generator: int,
        result: Result | None,
        seen: frozenset[Stacks] = frozenset(),
    ) -> None:
        self.game = game
        self.stacks = stacks
        self.counters = counters
        self.generator = generator
        self.result = result
        self.seen = seen | {stacks} if game.rules.pickup_code != SHUFFLED else seen

    @property
    def to_move(self) -> int:
        return 0  # nobody chooses: the one move is the next round

    @property
    def rounds(self) -> int:
        return self.counters[0]

    def legal_moves(self) -> tuple[str, ...]:
        return () if self.is_over else (ROUND,)

    def play(self, move: Any) -> WarState:
        if self.is_over:
            raise IllegalMove(move, "the game is over")
        if move != ROUND:
            raise IllegalMove(move, f"War's one move is {ROUND!r}: play the next round")
        rules = self.game.rules
        position, _, table, steps, rng = kernel.work(len(rules.deck))
        kernel.load(position, *(np.array(s, dtype=np.int32) for s in self.stacks))
        position[kernel.ROUNDS : kernel.WARS + 1] = self.counters
        rng[0] = np.uint64(self.generator)
        winner = int(kernel.next_round(position, table, steps, rules.pickup_code, rng))
        stacks = kernel.stacks_of(position)
        counters = (
            int(position[kernel.ROUNDS]),
            int(position[kernel.BATTLES]),
            int(position[kernel.WARS]),
        )
        result = self._ending(winner, stacks, counters[0])
        return WarState(self.game, stacks, counters, int(rng[0]), result, self.seen)

    def _ending(self, winner: int, stacks: Stacks, rounds: int) -> Result | None:
        """How the game ends after a round, in the kernel's order: out of cards, the round
        limit, a cycle; None while it goes on."""
        rules = self.game.rules
        if winner != kernel.GOING:
            return ended(OUT_OF_CARDS, winner)
        if rules.limit and rounds >= rules.limit:
            counts = len(stacks[0]), len(stacks[1])
            return ended(ROUND_LIMIT, int(long_game_winner(*counts, rules.more_wins)))
        if stacks in self.seen:
            return ended(CYCLE, TIE)
        return None

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def winner(self) -> int | None:
        return None if self.result is None else self.result[1]

    @property
    def end_reason(self) -> Reason:
        """Out of cards, the round limit or a cycle, as the Dealer and the kernel say."""
        return super().end_reason if self.result is None else self.result[0]

    @property
    def end_account(self) -> WarAccount | None:
        """The rounds, battles and wars played and the final stacks, once over."""
        return None if self.result is None else WarAccount(*self.counters, self.stacks)

    @property
    def scores(self) -> tuple[int, int]:
        """The cards each player holds."""
        return len(self.stacks[0]), len(self.stacks[1])

    def render(self) -> str:
        counts = ", ".join(
            f"{player_name(seat)} {len(stack)} cards" for seat, stack in enumerate(self.stacks)
        )
        played = f"after {self.rounds} round{'' if self.rounds == 1 else 's'}"
        return f"{counts}, {played}"

    def notation(self) -> str:
        stacks = "/".join(",".join(card_name(c, True) for c in s) or "-" for s in self.stacks)
        counters = " ".join(str(n) for n in self.counters)
        if self.result is None:
            end = "-"
        else:
            reason, winner = self.result
            end = f"{ENDINGS[ENDING_REASONS.index(reason)]}:{'-' if winner is None else winner}"
        return f"{stacks} {counters} {self.generator:x} {end}"

    def move_name(self, move: Any) -> str:
        return str(move)

    def parse_move(self, text: str) -> str:
        if text.strip().lower() != ROUND:
            raise IllegalMove(text, f"War's one move is {ROUND!r}: play the next round")
        if self.is_over:
            raise IllegalMove(text, "the game is over")
        return ROUND

    def _key(self) -> Hashable:
        return self.stacks, self.counters, self.generator, self.result
