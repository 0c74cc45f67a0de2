"""The rules engines, one module a game, each registering its presets on import.

Each game module calls :func:`parlour.core.register` for its presets; a new game is a new
module here and nothing else.  The package itself imports nothing, so that a light module
of it (:mod:`parlour.games.war_options`) loads without the compiled rules:
:func:`parlour.core.game` imports every module the first time a game is asked for.
"""
