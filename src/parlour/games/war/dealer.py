"""War as the seed designs it: a Dealer and two Players that only exchange messages.

Each :class:`Player` alone holds its stack.  The :class:`Dealer` never reads it: it deals
by telling each Player to take its cards, asks for cards (``SendCards(n)``, answered by
``Cards``, with fewer or none when the Player has fewer), compares them, tells the winner
to take the table (``TakeCards``, answered by ``Took`` once the cards are under the
stack), counts the rounds and, at the limit, asks each Player ``CountCards`` (answered by
``Count``).  Under a pickup that draws no random numbers it also asks ``WhichStack`` at
the start of each round: each Player numbers the stacks it has held, so that a pair of
numbers seen before is a cycle, and the Dealer still learns nothing about the cards.

The Dealer goes through the seed's states: pre-battle (ask for one card each, three in
a war), battle (wait for both answers, compare), post-battle (wait for the pickup; the
round limit leads to long-game) and long-game (count, and the fewer or the more wins).

The seed's race, a Player that has just won cards reporting itself empty because the
request for cards overtook the cards, cannot happen: the Dealer never has two messages
in flight to one Player.  Every message but the last ``Quit`` is an ask whose answer it
awaits before it sends that Player anything else, so even a transport that reordered
messages could not make a request overtake a pickup.

The Dealer is a :class:`~parlour.actors.host.Host`: ``StartGame`` deals and plays, its
mailbox open meanwhile, so ``Abort(why)`` ends the game at once with no winner (the
players are told ``Quit``; the observers, as every game's, ``GameOver``),
``Watch(observer)`` adds an observer and answers with the rounds so far
(:class:`SoFar`), and stopping the Dealer aborts its game.

The rules (values, the deal, the pickup orders, the generator) are those of
:mod:`parlour.games.war.rules`, the same functions the kernel runs, so a Dealer with seed s
deals and plays game i exactly as :func:`parlour.games.war.kernel.play_one` does.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from enum import Enum, auto
from typing import Any

import numpy as np

from parlour.actors.host import Host, StartGame
from parlour.actors.messages import GameOver
from parlour.actors.runtime import Actor, Ref, spawn
from parlour.games.war.rules import (
    CYCLE,
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
    war_outcome,
)
from parlour.outcome import Outcome, Reason
from parlour.rng import new_rng

# ---------------------------------------------------------------- Dealer to Player


@dataclass(frozen=True)
class SendCards:
    """Put up to ``n`` cards from the top of your stack: answer :class:`Cards`."""

    n: int


@dataclass(frozen=True)
class Cards:
    """The cards put, top first: fewer than asked (or none) when the stack ran short."""

    cards: tuple[int, ...]


@dataclass(frozen=True)
class TakeCards:
    """Put these cards under your stack, in this order: answer :class:`Took`."""

    cards: tuple[int, ...]


@dataclass(frozen=True)
class Took:
    """The cards told are under the stack now."""

    n: int


@dataclass(frozen=True)
class CountCards:
    """How many cards do you hold?  Answer :class:`Count`."""


@dataclass(frozen=True)
class Count:
    """The number of cards held."""

    n: int


@dataclass(frozen=True)
class WhichStack:
    """Which of the stacks you have held is this one?  Answer :class:`StackNumber`."""


@dataclass(frozen=True)
class StackNumber:
    """The stack's number: the same number exactly when it is the same stack as before."""

    n: int


@dataclass(frozen=True)
class Quit:
    """The game is over: stop."""


# ---------------------------------------------------------------- Dealer to observers


@dataclass(frozen=True)
class Dealt:
    """The cards are dealt: how many each player holds."""

    counts: tuple[int, int]


@dataclass(frozen=True)
class Turned:
    """One step of a round: the cards each player put (the last one face up).

    ``war`` is 0 for the battle, 1 for the first war of the round, and so on.
    """

    cards: tuple[tuple[int, ...], tuple[int, ...]]
    war: int


@dataclass(frozen=True)
class TookTable:
    """Round ``round`` is won: ``player`` took ``cards``, in this order, under its stack."""

    player: int
    cards: tuple[int, ...]
    round: int


@dataclass(frozen=True)
class SoFar:
    """The answer to ``Watch``: the rounds, battles and wars played so far and, once the
    game has ended, its outcome (the Dealer never sees the stacks, so it cannot tell)."""

    rounds: int
    battles: int
    wars: int
    outcome: Outcome | None


# ---------------------------------------------------------------- the actors


class Player(Actor):
    """Holds its own stack and does what the Dealer says; nothing else sees the stack."""

    def __init__(self) -> None:
        self._stack: deque[int] = deque()
        self._numbers: dict[tuple[int, ...], int] = {}

    @property
    def stack(self) -> tuple[int, ...]:
        """The stack, top first: for whoever owns this Player object, never the Dealer."""
        return tuple(self._stack)

    async def receive(self, message: Any) -> None:
        match message:
            case SendCards(n):
                put = tuple(self._stack.popleft() for _ in range(min(n, len(self._stack))))
                self.reply(Cards(put))
            case TakeCards(cards):
                self._stack.extend(cards)
                self.reply(Took(len(cards)))
            case CountCards():
                self.reply(Count(len(self._stack)))
            case WhichStack():
                stack = tuple(self._stack)
                self.reply(StackNumber(self._numbers.setdefault(stack, len(self._numbers))))
            case Quit():
                self.stop("quit")


class Phase(Enum):
    """The Dealer's states, the seed's."""

    PRE_BATTLE = auto()
    BATTLE = auto()
    POST_BATTLE = auto()
    LONG_GAME = auto()


class Dealer(Host[Outcome]):
    """Deals and runs one game of War between two Player mailboxes (player 0's first).

    It plays game ``index`` of the run ``rules.seed`` (0 if unset): the generator, the
    deal and the pickups are the kernel's.  ``stacks`` deals these stacks (top first)
    instead, for tests of single situations.  Observers are told every event.
    """

    def __init__(
        self,
        rules: WarRules,
        players: Sequence[Ref],
        observers: Sequence[Ref] = (),
        *,
        index: int = 0,
        stacks: tuple[Sequence[int], Sequence[int]] | None = None,
    ) -> None:
        super().__init__(observers)
        self._rules = rules
        self._players = tuple(players)
        self._rng = new_rng(rules.seed or 0, index)
        self._stacks = stacks
        self._table: list[int] = []  # this round's cards in the order put
        self._steps: list[int] = []  # cards put by player 0, player 1, at each step
        self._answers: Awaitable[list[Cards]] | None = None
        self._taker = 0
        self._rounds = self._battles = self._wars = 0
        self._seen: set[tuple[int, int]] = set()
        self._outcome: Outcome | None = None  # decided by the rules, not yet told

    def aborted(self, why: str) -> Outcome:
        return Outcome(None, Reason.ABORTED, detail=why, account=self._account())

    def announce(self, outcome: Outcome) -> None:
        for player in self._players:
            player.tell(Quit())
        self._tell(GameOver(outcome))

    def so_far(self) -> SoFar:
        return SoFar(self._rounds, self._battles, self._wars, self.outcome)

    async def play(self) -> Outcome:
        """The whole game: deal, then the seed's states until there is an outcome."""
        await self._deal()
        states: dict[Phase, Callable[[], Awaitable[Phase]]] = {
            Phase.PRE_BATTLE: self._pre_battle,
            Phase.BATTLE: self._battle,
            Phase.POST_BATTLE: self._post_battle,
            Phase.LONG_GAME: self._long_game,
        }
        phase = Phase.PRE_BATTLE
        while self._outcome is None:
            phase = await states[phase]()
        return self._outcome

    async def _deal(self) -> None:
        """Shuffle and deal (unless the stacks were given), by telling each to take them."""
        stacks = self._stacks or deal(self._rules.deck_array, self._rng)
        hands = [tuple(int(card) for card in stack) for stack in stacks]
        await self._ask_both([TakeCards(hands[0]), TakeCards(hands[1])])
        self._tell(Dealt((len(hands[0]), len(hands[1]))))

    async def _pre_battle(self) -> Phase:
        """Ask for cards: one each for a battle, three each when the pile holds a war."""
        if not self._table and self._rules.pickup_code != SHUFFLED and await self._repeated():
            self._end(CYCLE, TIE)
            return Phase.PRE_BATTLE
        n = cards_to_put(bool(self._table))
        self._answers = self._ask_both([SendCards(n), SendCards(n)])
        return Phase.BATTLE

    async def _repeated(self) -> bool:
        """Whether this pair of stacks was seen at the start of an earlier round."""
        numbers = await self._ask_both([WhichStack(), WhichStack()])
        pair = (numbers[0].n, numbers[1].n)
        if pair in self._seen:
            return True
        self._seen.add(pair)
        return False

    async def _battle(self) -> Phase:
        """Wait for both players' cards; an empty answer ends the game, else compare."""
        assert self._answers is not None
        cards = [answer.cards for answer in await self._answers]
        self._table += [*cards[0], *cards[1]]
        self._steps += [len(cards[0]), len(cards[1])]
        self._tell(Turned((cards[0], cards[1]), len(self._steps) // 2 - 1))
        if not cards[0] or not cards[1]:
            self._end(OUT_OF_CARDS, TIE if cards[0] == cards[1] else (1 if not cards[0] else 0))
            return Phase.BATTLE
        self._battles += 1
        winner = compare(cards[0][-1], cards[1][-1])
        if winner == TIE:
            self._wars += 1
            return Phase.PRE_BATTLE
        self._taker = int(winner)
        return Phase.POST_BATTLE

    async def _post_battle(self) -> Phase:
        """Give the winner the table and wait until it has picked the cards up."""
        table = np.array(self._table, dtype=np.int32)
        steps = np.array(self._steps, dtype=np.int64)
        pickup = self._rules.pickup_code
        pick_up(table, table.size, steps, steps.size // 2, self._taker, pickup, self._rng)
        cards = tuple(int(card) for card in table)
        await self._players[self._taker].ask(TakeCards(cards))
        self._rounds += 1
        self._table, self._steps = [], []
        self._tell(TookTable(self._taker, cards, self._rounds))
        return Phase.LONG_GAME if self._rounds == self._rules.max_rounds else Phase.PRE_BATTLE

    async def _long_game(self) -> Phase:
        """At the round limit: count both stacks; fewer (or more) cards wins."""
        counts = await self._ask_both([CountCards(), CountCards()])
        n0, n1 = counts[0].n, counts[1].n
        winner = long_game_winner(n0, n1, self._rules.more_wins)
        self._end(ROUND_LIMIT, int(winner), (n0, n1))
        return Phase.LONG_GAME

    def _ask_both(self, messages: Sequence[Any]) -> Awaitable[list[Any]]:
        """Ask each player its message at once; the answers in player order."""
        return asyncio.gather(*(p.ask(m) for p, m in zip(self._players, messages, strict=True)))

    def _end(self, ending: int, winner: int, counts: tuple[int, int] | None = None) -> None:
        """The rules end the game: ``ending`` and ``winner`` in the compiled rules' codes."""
        self._outcome = war_outcome(ending, winner, self._account(), counts)

    def _account(self) -> WarAccount:
        return WarAccount(self._rounds, self._battles, self._wars)

    def _tell(self, event: Any) -> None:
        for observer in self.observers:
            observer.tell(event)


async def play_war(
    rules: WarRules,
    index: int = 0,
    observers: Sequence[Ref] = (),
    *,
    stacks: tuple[Sequence[int], Sequence[int]] | None = None,
    dealer: type[Dealer] = Dealer,
    transport: Callable[[Ref], Ref] | None = None,
) -> Outcome:
    """Play game ``index`` of the run ``rules.seed`` with a Dealer and two Players.

    The outcome carries the final stacks (and so the scores), read from the Players here,
    after the game.
    ``dealer`` and ``transport`` (a wrapper around each Player's address) are for tests
    that put the Dealer's protocol under stress.
    """
    players = (Player(), Player())
    refs = [spawn(player, name=f"Player-{seat}") for seat, player in enumerate(players)]
    wrapped = [transport(ref) for ref in refs] if transport else refs
    dealer_ref = spawn(dealer(rules, wrapped, observers, index=index, stacks=stacks))
    try:
        outcome: Outcome = await dealer_ref.ask(StartGame())
    finally:
        dealer_ref.stop()
    for ref in refs:
        await ref.join()
    stacks = players[0].stack, players[1].stack
    account = dataclasses.replace(outcome.account, stacks=stacks)
    return dataclasses.replace(outcome, scores=(len(stacks[0]), len(stacks[1])), account=account)
