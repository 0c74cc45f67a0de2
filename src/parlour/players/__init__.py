"""Whoever answers ``Play``: people at the terminal, the computer's levels, a random mover.

``machines``: ComputerPlayer(level), RandomPlayer(seed).  ``terminal``: TerminalPlayer
(the screen and the person's moves) and ``play_in_terminal``; ``screen``: the Screen
protocol and ``BoardScreen``, the base of the board games' screens (each in its game's
folder); ``keyboard``: the lines a person types; ``specs``: the ``--players`` specs.
(``save`` and ``--load`` write and read :mod:`parlour.records.saved`.)
"""

from parlour.players.machines import ComputerPlayer, RandomPlayer
from parlour.players.specs import PlayerSpec, parse_players

__all__ = ["ComputerPlayer", "PlayerSpec", "RandomPlayer", "parse_players"]
