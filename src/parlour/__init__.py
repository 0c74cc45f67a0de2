"""parlour: the traditional games of West Africa and the schoolroom, with strong opponents.

>>> import parlour
>>> state = parlour.game("kalah").start()
>>> parlour.perft(state, 2)
35
"""

from parlour.core import (
    BadOption,
    BadPosition,
    Game,
    IllegalMove,
    Option,
    ParlourError,
    State,
    game,
    game_names,
    game_options,
    perft,
)

__all__ = [
    "BadOption",
    "BadPosition",
    "Game",
    "IllegalMove",
    "Option",
    "ParlourError",
    "State",
    "game",
    "game_names",
    "game_options",
    "perft",
]
