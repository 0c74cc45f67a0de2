"""parlour: the traditional games of West Africa and the schoolroom, with strong opponents.

>>> import parlour
>>> state = parlour.game("kalah").start()
>>> parlour.perft(state, 2)
35
"""

from parlour import cache

cache.use_for_kernels()  # before anything imports numba, which reads its settings then

from parlour.core import (  # noqa: E402
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
