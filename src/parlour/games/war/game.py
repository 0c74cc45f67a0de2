"""War as a game of parlour: ``parlour.game("war", ...)`` like every other game.

War has no choices, so its states are the deal and the position after each round: the
one legal move, ``round``, plays the next round (a battle and the wars it leads to),
with the same compiled rules the kernel runs (:func:`kernel.next_round`).  So every
tool that walks states (the conformance suite, a Referee, perft, research environments)
walks War too, while the Dealer and its Players still play it as the seed's actors.

A state ends as the kernel ends a game: a player out of cards; the round limit (fewer or
more cards win); or, under a pickup that draws no random numbers, the stacks of a round's
start seen before (a cycle, no winner).  For that last check the states of one game share
a memory of the stacks seen and the round each was first seen at (:class:`Seen`), so a
round costs the same at round 100,000 as at round 1; the notation does not hold it (it
would hold every round), so a position read from text starts that memory afresh.

A position read from text is one the rules can reach: while the game goes on (and at the
round limit or a cycle) the stacks hold every card of the deck exactly once; out of
cards, the loser's stack is empty (the cards on the table are in no stack); the counters
fit the kernel's 32 bits with room to play on (:data:`MAX_COUNT`), and a round is a
battle and the wars it leads to (battles = rounds + wars); the ending is the one the
position has (the round limit at the limit, a cycle under a pickup that can cycle).

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
    parse_card,
    parse_deck,
    player_name,
    spell_deck,
)
from parlour.outcome import Reason
from parlour.rng import new_rng

ROUND = "round"
"""War's one move: play the next round."""
MAX_COUNT = 10**9
"""The most rounds, battles or wars a position may have counted: the kernel counts in
32 bits (up to 2,147,483,647), and this leaves room for a billion rounds more."""
_HEX = re.compile(r"[0-9a-f]{1,16}")
Result = tuple[Reason, int | None]
"""How a state ended: War's Reason and the winner (None for a draw)."""
Seen = dict[Stacks, int]
"""The stacks seen in a game, each with the round it was first seen at."""


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
        odd = next((c for c in text if c.isspace() and c not in " \t\r\n"), None)
        if odd is not None:
            raise BadPosition(f"separate the fields with spaces, not {odd!r}")
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
        if battles != rounds + wars:
            raise BadPosition(
                f"{battles} battles in {rounds} rounds with {wars} wars: each round is one "
                "battle and the wars it leads to (battles = rounds + wars)"
            )
        generator = _parse_generator(fields[4])
        result = _parse_end(fields[5])
        self._check_reachable(stacks, rounds, result)
        return WarState(self, stacks, (rounds, battles, wars), generator, result)

    def _check_reachable(self, stacks: Stacks, rounds: int, result: Result | None) -> None:
        """BadPosition unless the rules can reach these stacks, rounds and ending."""
        rules, (stack0, stack1) = self.rules, stacks
        reason, winner = result or (None, None)
        if reason is Reason.OUT_OF_CARDS:
            losers = (0, 1) if winner is None else (1 - winner,)
            if any(stacks[loser] for loser in losers):
                raise BadPosition(
                    f"out of cards, but {' and '.join(player_name(n) for n in losers)} holds cards"
                )
            return  # the cards put in the last round are on the table, in no stack
        missing = len(rules.deck) - len(stack0) - len(stack1)
        if missing:
            raise BadPosition(
                f"the stacks must hold every card of the deck ({len(rules.deck)}); "
                f"{missing} missing"
            )
        if rules.limit and rounds > rules.limit:
            raise BadPosition(f"{rounds} rounds played, past the round limit of {rules.limit}")
        if reason is None and rules.limit and rounds == rules.limit:
            raise BadPosition(f"the round limit of {rules.limit} is reached: the game is over")
        if reason is Reason.ROUND_LIMIT:
            due = int(long_game_winner(len(stack0), len(stack1), rules.more_wins))
            if rounds != rules.limit:
                raise BadPosition(f"the round limit ends a game at round {rules.limit or 'none'}")
            if winner != (None if due == TIE else due):
                raise BadPosition(
                    f"at the round limit {'nobody' if due == TIE else player_name(due)} wins here"
                )
        can_cycle = rules.pickup_code != SHUFFLED and rounds >= 2 and stack0 and stack1
        if reason is Reason.CYCLE and (winner is not None or not can_cycle):
            raise BadPosition(
                "a cycle ends only a game whose pickup is not shuffled, after two rounds at "
                "least, with cards in both stacks"
            )

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
        seen: Seen | None = None,
    ) -> None:
        self.game = game
        self.stacks = stacks
        self.counters = counters
        self.generator = generator
        self.result = result
        self.seen: Seen = {} if seen is None else seen
        """The stacks seen so far in this game and the round each was first seen at,
        shared by its states (a pickup that draws no random numbers makes a game one line
        of states from its first, so what is seen at a later round never misleads)."""
        if game.rules.pickup_code != SHUFFLED:
            self.seen.setdefault(stacks, counters[0])

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
        if self.seen.get(stacks, rounds) < rounds:
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


def war_rules(**options: Any) -> WarRules:
    """The rule set with ``options`` (values may be text, as the command line gives them):
    ``parlour.game("war", **options).rules``.  An unknown option or a bad value raises
    BadOption naming it."""
    from parlour.core import game  # the registry: the preset's options under these

    war = game("war", **options)
    assert isinstance(war, WarGame)
    return war.rules
