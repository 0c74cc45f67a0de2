"""The games, one folder a family (``sowing``, ``ayo``, ``gomoku``, ``war``), each holding
everything that is that game's: rules and kernels, search knowledge and levels, screen,
web view, codec, protocol, rules text.

Each family's ``kit`` module registers its presets with :func:`parlour.core.register`,
each with the family's kit (what the rest of parlour may ask of the game), and is named
in pyproject.toml's ``parlour.games`` entry points: a new family is a new folder here and
that one line.  The packages import nothing on their own, so that a light module
(:mod:`parlour.games.war.options`) loads without the compiled rules:
:func:`parlour.core.game` imports every family's ``kit`` the first time a game is asked
for.
"""
