"""The games, one folder a family (``sowing``, ``ayo``, ``gomoku``, ``war``), each holding
everything that is that game's: rules and kernels, search knowledge and levels, screen,
web view, codec, protocol, rules text.

Each family's ``game`` module calls :func:`parlour.core.register` for its presets and
gives its Game class the family's kit (``kit``: what the rest of parlour may ask of the
game); a new family is a new folder here and nothing else.  The packages import nothing
on their own, so that a light module (:mod:`parlour.games.war.options`) loads without the
compiled rules: :func:`parlour.core.game` imports every family's ``game`` the first time
a game is asked for.
"""
