"""The ``parlour`` command.

Each command lives in its own module of this package and attaches itself to the groups
defined here (``main``, ``play``, ``simulate``); every module is imported at the end of
this file, so a new command is a new module and nothing else.  Modules import their heavy
dependencies (numba kernels) inside the command body, to keep ``parlour --help`` quick.
"""

import importlib
import pkgutil
from typing import Any

import click

from parlour.cli._common import interrupted


class Parlour(click.Group):
    """The ``parlour`` group: any command Ctrl-C reaches ends by
    :func:`~parlour.cli._common.interrupted`."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            interrupted()


@click.group(cls=Parlour, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="parlour")
def main() -> None:
    """parlour: Ayo, Mancala/Kalah, five in a row and War against strong opponents."""


@main.group()
def play() -> None:
    """Play a game in the terminal (against the computer by default)."""


@main.group()
def simulate() -> None:
    """Play many games between programs and print statistics."""


for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")
