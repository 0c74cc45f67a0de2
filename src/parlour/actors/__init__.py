"""The actor runtime and the actors that run games (see ``runtime`` for the model).

``runtime``: Actor, Ref, spawn, tell/ask, Down.  ``messages``: Play, Move, Illegal, Moved,
GameOver, Result.  ``referee``: the Referee of turn-based games and ``run_game``.
"""

from parlour.actors.messages import GameOver, Illegal, Move, Moved, Play, Result, View
from parlour.actors.referee import Referee, StartGame, run_game
from parlour.actors.runtime import Actor, ActorStopped, AskTimeout, Down, Ref, spawn

__all__ = [
    "Actor",
    "ActorStopped",
    "AskTimeout",
    "Down",
    "GameOver",
    "Illegal",
    "Move",
    "Moved",
    "Play",
    "Ref",
    "Referee",
    "Result",
    "StartGame",
    "View",
    "run_game",
    "spawn",
]
