"""War's Dealer and Players: the same games as the kernel, and the seed's race made impossible."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from parlour.actors.host import StartGame
from parlour.actors.messages import Abort, GameOver, Watch
from parlour.actors.runtime import Actor, Ref, spawn
from parlour.games.war import kernel
from parlour.games.war.dealer import (
    CountCards,
    Dealer,
    Dealt,
    Phase,
    Player,
    Quit,
    SendCards,
    TakeCards,
    TookTable,
    Turned,
    WhichStack,
    play_war,
)
from parlour.games.war.game import war_rules
from parlour.games.war.rules import describe
from parlour.outcome import Reason


@pytest.mark.slow
async def test_a_thousand_seeds_play_the_same_games_as_the_kernel() -> None:
    rules = war_rules(seed=20261130)
    endings = set()
    for index in range(1000):
        actors = await play_war(rules, index)
        compiled = kernel.play_one(rules, index)
        assert actors == compiled, index  # winner, reason, rounds, battles, wars
        assert actors.account.stacks == compiled.account.stacks, index
        assert actors.scores == compiled.scores, index
        endings.add(actors.reason)
    assert endings == {Reason.OUT_OF_CARDS, Reason.ROUND_LIMIT}


@pytest.mark.parametrize(
    "options",
    [
        {"max_rounds": "none"},
        {"pickup": "played", "max_rounds": 300},
        {"pickup": "winner_first", "max_rounds": 300},
        {"long_game_winner": "more", "max_rounds": 20},
        {"deck": "small", "max_rounds": "none", "pickup": "winner_first"},
        {"deck": "small", "max_rounds": "none"},
    ],
)
async def test_every_option_plays_the_same_games_as_the_kernel(options: dict[str, Any]) -> None:
    rules = war_rules(seed=5, **options)
    for index in range(25):
        actors = await play_war(rules, index)
        compiled = kernel.play_one(rules, index)
        assert actors == compiled and actors.account.stacks == compiled.account.stacks, index


async def test_the_dealer_reports_a_cycle_under_played_pickup() -> None:
    rules = war_rules(seed=1, pickup="played", max_rounds="none")
    outcome = await play_war(rules, 0)
    assert (outcome.reason, outcome.winner, outcome.account.rounds) == (Reason.CYCLE, None, 352)


class Recorder(Actor):
    """Keeps every event it is told; answers "events" with them (after every event told
    before the ask, which its mailbox delivers first)."""

    def __init__(self) -> None:
        self.events: list[Any] = []

    async def receive(self, message: Any) -> None:
        if message == "events":
            self.reply(self.events)
        else:
            self.events.append(message)


async def test_observers_see_the_whole_game_in_order() -> None:
    ref = spawn(Recorder())
    rules = war_rules(seed=9, max_rounds=30)
    outcome = await play_war(rules, 4, [ref])
    events = await ref.ask("events", timeout=5)
    assert isinstance(events[0], Dealt) and events[0].counts == (26, 26)
    assert isinstance(events[-1], GameOver) and events[-1].outcome == outcome
    counts = list(events[0].counts)
    for event in events[1:-1]:
        if isinstance(event, Turned):
            counts[0] -= len(event.cards[0])
            counts[1] -= len(event.cards[1])
        else:
            assert isinstance(event, TookTable)
            counts[event.player] += len(event.cards)
    stacks = outcome.account.stacks
    assert outcome.scores and counts == [len(stacks[0]), len(stacks[1])] == list(outcome.scores)
    assert sum(isinstance(e, TookTable) for e in events) == outcome.account.rounds
    assert sum(isinstance(e, Turned) for e in events) == outcome.account.battles


class Shuffling(Ref):
    """A transport that delays every message by a random time, so that messages to one
    Player may arrive in any order, as the seed warns they may."""

    def __init__(self, inner: Ref, log: list[tuple[str, str, int]], rand: random.Random) -> None:
        super().__init__(inner.name)
        self._inner, self._log, self._rand = inner, log, rand
        self._in_flight = 0

    def _delay(self) -> float:
        return self._rand.random() * 0.002

    def tell(self, message: Any, sender: Ref | None = None) -> None:
        self._log.append((self.name, type(message).__name__, self._in_flight))
        asyncio.get_running_loop().call_later(self._delay(), self._inner.tell, message, sender)

    async def ask(self, message: Any, timeout: float | None = None) -> Any:
        self._log.append((self.name, type(message).__name__, self._in_flight))
        self._in_flight += 1
        try:
            await asyncio.sleep(self._delay())
            return await self._inner.ask(message, timeout)
        finally:
            self._in_flight -= 1


async def _stressed(rules: Any, index: int, dealer: type[Dealer], seed: int) -> Any:
    log: list[tuple[str, str, int]] = []
    rand = random.Random(seed)
    outcome = await play_war(
        rules, index, dealer=dealer, transport=lambda ref: Shuffling(ref, log, rand)
    )
    return outcome, log


async def test_no_request_can_overtake_a_pickup_even_when_messages_are_reordered() -> None:
    rules = war_rules(seed=3, deck="small", max_rounds="none")
    for index in range(60):
        outcome, log = await _stressed(rules, index, Dealer, index)
        assert outcome == kernel.play_one(rules, index), index
        # by construction: no message is sent to a Player while another is on its way
        assert all(in_flight == 0 for _, _, in_flight in log)
        kinds = {kind for _, kind, _ in log}
        assert kinds <= {"TakeCards", "SendCards", "CountCards", "WhichStack", "Quit"}


class TellingDealer(Dealer):
    """A Dealer that tells the winner to take the cards instead of waiting for the pickup:
    the race the seed warns about.  The stress test must catch it."""

    async def _post_battle(self) -> Phase:
        original = self._players[self._taker].ask

        async def tell_only(message: Any, timeout: float | None = None) -> Any:
            self._players[self._taker].tell(message)

        self._players[self._taker].ask = tell_only  # type: ignore[method-assign]
        try:
            return await super()._post_battle()
        finally:
            self._players[self._taker].ask = original  # type: ignore[method-assign]


async def test_the_stress_test_catches_a_dealer_that_does_not_wait_for_the_pickup() -> None:
    rules = war_rules(seed=3, deck="small", max_rounds="none")
    wrong = 0
    for index in range(60):
        outcome, _ = await _stressed(rules, index, TellingDealer, index)
        wrong += outcome != kernel.play_one(rules, index)
    assert wrong > 0


async def test_a_player_that_won_with_its_last_card_is_not_out() -> None:
    # player 0 puts its only card, the ace, and wins; it must be asked again with 2 cards
    rules = war_rules(pickup="played", max_rounds="none")
    outcome = await play_war(rules, stacks=([0], [12, 11]))
    assert (outcome.winner, outcome.reason, outcome.account.rounds) == (0, Reason.OUT_OF_CARDS, 2)
    assert outcome.account.stacks == ((0, 11), ())  # the king stayed on the table of round 3
    assert describe(outcome) == "Player 1 wins: Player 2 is out of cards, after 2 rounds"


async def test_players_answer_every_message() -> None:
    from parlour.games.war.dealer import Cards, Count, Player, StackNumber, Took

    player = spawn(Player())
    assert await player.ask(TakeCards((5, 6, 7))) == Took(3)
    assert await player.ask(SendCards(2)) == Cards((5, 6))
    assert await player.ask(CountCards()) == Count(1)
    first = await player.ask(WhichStack())
    assert await player.ask(SendCards(3)) == Cards((7,))
    assert await player.ask(SendCards(1)) == Cards(())
    assert await player.ask(WhichStack()) == StackNumber(1)
    await player.ask(TakeCards((7,)))
    assert await player.ask(WhichStack()) == first == StackNumber(0)
    player.tell(Quit())
    assert (await player.join()).reason == "quit"


class Aborter(Actor):
    """An observer that, after round 5, watches as a late observer would, then aborts."""

    def __init__(self) -> None:
        self.dealer: Ref | None = None
        self.seen: Any = None
        self.events: list[Any] = []

    async def receive(self, message: Any) -> None:
        self.events.append(message)
        if isinstance(message, TookTable) and message.round == 5 and self.dealer:
            self.seen = await self.dealer.ask(Watch(spawn(Recorder())))
            self.dealer.tell(Abort("enough"))


async def test_a_running_game_is_watched_and_aborted_and_nothing_is_left_running() -> None:
    before = asyncio.all_tasks()
    rules = war_rules(seed=3, max_rounds="none")
    players = [spawn(Player()), spawn(Player())]
    aborter = Aborter()
    dealer = spawn(Dealer(rules, players, [spawn(aborter)]))
    aborter.dealer = dealer
    outcome = await dealer.ask(StartGame())
    assert (outcome.winner, outcome.reason, outcome.detail) == (None, Reason.ABORTED, "enough")
    assert aborter.seen.outcome is None and 5 <= aborter.seen.rounds <= outcome.account.rounds
    assert aborter.events[-1] == GameOver(outcome)
    rounds = outcome.account.rounds
    assert describe(outcome) == f"no winner: the game was aborted after {rounds} rounds"
    for player in players:
        assert (await player.join()).reason == "quit"
    assert await dealer.ask(StartGame()) == outcome  # asked again: the same outcome
    dealer.stop()
    await dealer.join()
    for ref in (*players, dealer):
        assert not ref.alive
    await asyncio.sleep(0)
    names = {task.get_name() for task in asyncio.all_tasks() - before}
    assert all(name.startswith(("Aborter", "Recorder")) for name in names), names
