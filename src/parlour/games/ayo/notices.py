"""Ayo's own message (seed 000): ``Stoned(count)``, told to a player whenever tokens are
added to that player's captured count.

The Referee derives it from each move's account through the ``notices`` of Ayo's kit
(``parlour.games.ayo.kit``), which it asks for itself.  A capture on the opponent's turn
(the owner of a house made up to four) stones the owner; the last four and the tokens a
round's end gives to house owners stone their taker too.  ``GameOver(result)`` ends the
game as for every game.
"""

from __future__ import annotations

from dataclasses import dataclass

from parlour.actors.messages import Moved
from parlour.games.ayo.game import AyoReport


@dataclass(frozen=True)
class Stoned:
    """``count`` tokens were added to your captured count."""

    count: int


def stoned_notices(event: Moved) -> list[tuple[int, Stoned]]:
    """One ``Stoned`` for each capture of the move, to the seat that took the tokens, in
    the order they were taken."""
    report = event.account
    if not isinstance(report, AyoReport):
        return []
    return [(capture.player, Stoned(capture.tokens)) for capture in report.captures]
