"""The actor runtime and the actors that run games (see ``runtime`` for the model).

``runtime``: Actor, Ref, spawn, tell/ask, pipe/defer, Down.  ``messages``: Play, Move,
Illegal, Moved, GameOver, Outcome and its Reason, Resign, Abort, Watch.  ``referee``: the
Referee of turn-based games and ``run_game``.
"""

from parlour.actors.messages import (
    Abort,
    GameOver,
    Illegal,
    Move,
    Moved,
    Outcome,
    Play,
    Reason,
    Resign,
    View,
    Watch,
    Watching,
)
from parlour.actors.referee import Referee, StartGame, run_game
from parlour.actors.runtime import Actor, ActorStopped, AskTimeout, Down, Piped, Ref, spawn

__all__ = [
    "Abort",
    "Actor",
    "ActorStopped",
    "AskTimeout",
    "Down",
    "GameOver",
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
    "View",
    "Watch",
    "Watching",
    "run_game",
    "spawn",
]
