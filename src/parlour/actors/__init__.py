"""The actor runtime and the actors that run games (see ``runtime`` for the model).

``runtime``: Actor, Ref, spawn, tell/ask, pipe/defer, Down.  ``messages``: Play, Move,
Illegal, Moved, GameOver, Forfeit, Resign, Disqualify, Abort, Watch; the game's
:class:`~parlour.outcome.Outcome` and its Reason come from :mod:`parlour.outcome`.
``host``: what the Referee and the Dealer share (StartGame).  ``referee``: the Referee of
turn-based games and ``run_game``.  ``dealer``: War's Dealer and Players.
"""

from parlour.actors.host import Host, StartGame
from parlour.actors.messages import (
    Abort,
    Agree,
    Disqualify,
    Forfeit,
    GameOver,
    Illegal,
    Move,
    Moved,
    Play,
    Resign,
    TakenBack,
    TimeControl,
    Undo,
    View,
    Watch,
    Watching,
)
from parlour.actors.referee import Referee, run_game
from parlour.actors.runtime import Actor, ActorStopped, AskTimeout, Down, Piped, Ref, spawn
from parlour.outcome import Outcome, Reason

__all__ = [
    "Abort",
    "Actor",
    "ActorStopped",
    "Agree",
    "AskTimeout",
    "Disqualify",
    "Down",
    "Forfeit",
    "GameOver",
    "Host",
    "Illegal",
    "Move",
    "Moved",
    "Outcome",
    "Piped",
    "Play",
    "Reason",
    "Ref",
    "Referee",
    "Resign",
    "StartGame",
    "TakenBack",
    "TimeControl",
    "Undo",
    "View",
    "Watch",
    "Watching",
    "run_game",
    "spawn",
]
