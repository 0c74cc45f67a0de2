"""Whoever answers ``Play``: people at the terminal, the computer's levels, a random mover.

``machines``: ComputerPlayer(level), RandomPlayer(seed).  ``terminal``: TerminalPlayer
(screen and keyboard), ``play_in_terminal`` and ``BoardScreen``, the base of the board
games' screens: ``sowing_screen``, ``ayo_screen``, ``gomoku_screen``.  ``war_screen``:
War's table, an observer of the Dealer.  ``specs``: the ``--players`` specs.
"""

from parlour.players.machines import ComputerPlayer, RandomPlayer
from parlour.players.specs import PlayerSpec, parse_players

__all__ = ["ComputerPlayer", "PlayerSpec", "RandomPlayer", "parse_players"]
