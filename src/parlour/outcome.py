"""How a game ended, in one vocabulary for every game: :class:`Outcome` and its :class:`Reason`.

The Referee's turn-based games and the Dealer's War end with the same type: the winner
(seat 0 or 1, None for a draw or an aborted game) and the reason.  What only some games
know rides along: the moves and final position of a game a Referee ran, the scores where
they were counted, and a game's own account of its end (War's rounds, battles and wars).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from parlour.core import Move, Reason, State

__all__ = ["Outcome", "Reason"]


@dataclass(frozen=True)
class Outcome:
    """How a game ended.

    ``winner`` is None for a draw (and for an aborted game); ``forfeit`` is the player who
    lost other than by the rules (resigned, timed out, crashed, left, illegal moves), else
    None; ``detail`` says it in words ("ran out of time (5 s)", the reason for an abort).
    ``scores`` are each player's score as the game counts it at the end (War: the cards
    each holds), None where whoever ran the game did not count them (a Dealer never sees
    the stacks); they follow from the rest, so they take no part in equality.  ``moves``
    and ``final`` are the moves played and the position the game stopped in, where a
    Referee ran it (War's Dealer has neither).  ``account`` is the game's own account of
    its end, as ``Moved.account`` is of a move: War's
    :class:`~parlour.games.war.rules.WarAccount`; None for games with nothing more to tell.
    """

    winner: int | None
    reason: Reason
    scores: tuple[int, int] | None = field(default=None, compare=False)
    moves: tuple[Move, ...] = ()
    final: State | None = None
    forfeit: int | None = None
    detail: str = ""
    account: Any = None
