"""Whoever answers ``Play``: people at the terminal, the computer's levels, a random mover.

``machines``: ComputerPlayer(level), RandomPlayer(seed).  ``terminal``: TerminalPlayer
(screen and keyboard) and ``play_in_terminal``.  ``specs``: the ``--players`` specs.
Screens of the games at the terminal: ``sowing_screen``.
"""

from parlour.players.machines import ComputerPlayer, RandomPlayer
from parlour.players.specs import PlayerSpec, parse_players

__all__ = ["ComputerPlayer", "PlayerSpec", "RandomPlayer", "parse_players"]
