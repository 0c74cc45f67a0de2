"""The rules engines, one module a game.  Importing this package registers every game.

Each module calls :func:`parlour.core.register` for its presets; a new game is a new
module here and nothing else.
"""

import importlib
import pkgutil

for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")
