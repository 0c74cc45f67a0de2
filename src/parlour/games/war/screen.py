"""Seed 004's screen for War at the terminal: an observer of the Dealer.

Each battle's face-up cards by name (``K♠ vs 9♦``), a war's face-down cards in
[brackets], who took the table and each stack's size, a pause after each round.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any, TextIO

from parlour.actors.messages import GameOver
from parlour.actors.runtime import Actor
from parlour.games.war.dealer import Dealt, TookTable, Turned
from parlour.games.war.rules import card_name, player_name
from parlour.players.keyboard import QUIT, QUITTED, LineSource


class WarScreen(Actor):
    """Prints the Dealer's events as they come, pausing after each round: ``delay``
    seconds, or until Enter when given the ``keys`` typed.

    It keeps each stack's size from the events alone (dealt, put, taken): like the
    Dealer, it never looks at a Player's stack.
    """

    def __init__(
        self,
        ascii_only: bool,
        delay: float,
        keys: LineSource | None = None,
        out: TextIO | None = None,
    ) -> None:
        self._ascii, self._delay, self._keys = ascii_only, delay, keys
        self._out = out or sys.stdout
        self._counts = [0, 0]

    async def receive(self, message: Any) -> None:
        match message:
            case Dealt(counts):
                self._counts = list(counts)
                self._echo(f"Dealt {counts[0]} and {counts[1]} cards.\n")
            case Turned(cards, war):
                self._counts[0] -= len(cards[0])
                self._counts[1] -= len(cards[1])
                self._echo(self._turned(cards, war))
            case TookTable(player, cards, round_number):
                self._counts[player] += len(cards)
                self._echo(
                    f"  round {round_number}: {player_name(player)} takes {len(cards)} cards"
                    f"  (stacks {self._counts[0]} : {self._counts[1]})"
                )
                await self._pause()
            case GameOver():
                self._echo("")
                self.stop("finished")

    def _turned(self, cards: tuple[tuple[int, ...], tuple[int, ...]], war: int) -> str:
        """The step's line: ``A♠ vs 8♣`` for the battle; in a war the face-down cards too,
        each player's in [brackets], Player 1's first, as they went on the table."""
        if not cards[0] or not cards[1]:
            out = [p for p in (0, 1) if not cards[p]]
            who = "both players have" if len(out) == 2 else f"{player_name(out[0])} has"
            return f"  {who} no card left to put"
        up = " vs ".join(card_name(c[-1], self._ascii) for c in cards)
        if war == 0:
            return up
        down = [c[:-1] for c in cards]
        counts = (
            f"{len(down[0])} face down each"
            if len(down[0]) == len(down[1])
            else f"{len(down[0])} and {len(down[1])} face down"
        )
        shown = " and ".join(
            "[" + " ".join(card_name(c, self._ascii) for c in d) + "]" for d in down
        )
        return f"  war{'' if war == 1 else f' #{war}'}! {counts}: {shown}, then {up}"

    async def _pause(self) -> None:
        """Wait for Enter (q, quit or the end of input stop the screen, and the watcher
        the game), or ``delay`` seconds."""
        if self._keys is not None:
            line = await self._keys.readline("  (Enter for the next round) ")
            if line is None or line.strip().lower() in QUIT:
                self.stop(QUITTED)
        elif self._delay:
            await asyncio.sleep(self._delay)

    def _echo(self, text: str) -> None:
        self._out.write(text + "\n")
        self._out.flush()
