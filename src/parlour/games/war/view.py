"""War as a page watches it: a Dealer and its two Players play at once, and the page is
shown only what the table shows (the face-up cards, how many lie face down, how many each
stack holds), never a stack's order or the deal's seed, which is drawn here and kept.
The show counts each stack from the events, as the Dealer does."""

from __future__ import annotations

import dataclasses
import secrets
from typing import Any

from parlour.actors import Abort, Outcome, Ref, StartGame, spawn
from parlour.games.war import rules as war
from parlour.games.war.dealer import Dealer, Dealt, Player, TookTable, Turned
from parlour.games.war.game import WarGame
from parlour.kit import Json


class WarShow:
    """One game of War under way for a page; ``listener`` hears the Dealer's events."""

    kind = "war"

    def __init__(self, game: WarGame, listener: Ref) -> None:
        self.counts = [0, 0]
        self.rounds = 0
        self.last: Json | None = None
        self.players = [spawn(Player()) for _ in (0, 1)]
        rules = dataclasses.replace(game.rules, seed=secrets.randbits(63))
        self.dealer = spawn(Dealer(rules, self.players, [listener]))

    def begin(self) -> None:
        self.dealer.tell(StartGame())

    def abort(self, why: str) -> None:
        self.dealer.tell(Abort(why))

    def stop(self) -> None:
        for ref in (self.dealer, *self.players):
            ref.stop()

    def event(self, message: Any) -> Json | None:
        """The event with the stacks' sizes after it (a late watcher starts from there)."""
        event = _event(message)
        if event is None:
            return None
        match event["kind"]:
            case "dealt":
                self.counts = list(event["counts"])
            case "turned":
                self.counts = [c - p for c, p in zip(self.counts, event["put"], strict=True)]
                self.last = event
            case "took":
                self.counts[event["player"]] += event["cards"]
                self.rounds = event["round"]
        return event | {"counts": list(self.counts)}

    def outcome(self, result: Outcome) -> Json:
        """Who won, why, how long it lasted, and in words."""
        account: war.WarAccount = result.account
        words = war.describe(result)
        return {
            "winner": result.winner,
            "reason": result.reason.value,
            "rounds": account.rounds,
            "battles": account.battles,
            "wars": account.wars,
            "words": words[:1].upper() + words[1:] + ".",
        }

    def snapshot(self) -> Json:
        return {"counts": list(self.counts), "rounds": self.rounds, "last": self.last}


def _event(message: Any) -> Json | None:
    match message:
        case Dealt(counts):
            return {"kind": "dealt", "counts": list(counts)}
        case Turned(cards, step):
            return {
                "kind": "turned",
                "war": step,
                "up": [war.card_name(c[-1]) if c else None for c in cards],
                "down": [max(len(c) - 1, 0) for c in cards],
                "put": [len(c) for c in cards],
            }
        case TookTable(player, cards, rounds):
            return {"kind": "took", "player": player, "cards": len(cards), "round": rounds}
    return None
