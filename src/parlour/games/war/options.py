"""War's options (RULES.md section 4), in a module that loads no compiled code.

The command line builds ``parlour play war``'s and ``simulate war``'s flags from this
table, so ``--help`` answers without waiting for numba; :mod:`parlour.games.war.rules` and
:class:`~parlour.games.war.game.WarGame` read the same table.
"""

from __future__ import annotations

from parlour.core import MAX_SEED, Option

PICKUPS = ("shuffled", "winner_first", "played")
MAX_ROUNDS = 100_000_000
"""The longest round limit: the kernel counts rounds in 32 bits and looks on to three times
the limit for a cycle."""

OPTIONS = (
    Option(
        "deck",
        str,
        "full",
        "full (52 cards), small (A K Q J of clubs and diamonds) or a list of cards like AC,KD",
    ),
    Option(
        "pickup",
        str,
        "shuffled",
        "order the winner puts the won cards under their stack",
        choices=PICKUPS,
    ),
    Option(
        "max_rounds",
        int,
        50,
        "rounds before the game stops (none: no limit)",
        minimum=1,
        maximum=MAX_ROUNDS,
        nullable=True,
    ),
    Option(
        "long_game_winner",
        str,
        "fewer",
        "who wins at the round limit: fewer cards (this game's rule) or more (the usual one)",
        choices=("fewer", "more"),
    ),
    Option(
        "seed",
        int,
        None,
        "seed of the random generator (none: a fresh one)",
        maximum=MAX_SEED,
        nullable=True,
    ),
)
