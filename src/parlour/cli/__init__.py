"""The ``parlour`` command.

Each command lives in its own module and attaches itself to the groups defined here
(``main``, ``play``, ``simulate``): the commands every game shares in this package, each
game family's own in its folder (``parlour.games.<family>.cli``), found through the
``parlour.commands`` entry points.  Both are imported at the end of this file, so a new
command is a new module and nothing else.  Modules import their heavy dependencies
(numba kernels) inside the command body, to keep ``parlour --help`` quick.
"""

import importlib
import pkgutil
from importlib.metadata import entry_points
from typing import Any

import click

from parlour.cli._common import interrupted
from parlour.core import SHOWN, shown

GIVEN = "parlour.given"
"""The key of the command line as given, in the main context's ``meta``."""


class Parlour(click.Group):
    """The ``parlour`` group: any command Ctrl-C reaches ends by
    :func:`~parlour.cli._common.interrupted`, and click's own refusals ("No such command
    ...", "Got unexpected extra argument ...") repeat a word of the command line cut as
    parlour's own messages cut it (:func:`parlour.core.shown`), not whole."""

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        given = list(args)
        try:
            ctx = super().make_context(info_name, args, parent, **extra)
        except click.UsageError as error:
            raise cut(error, given) from None
        ctx.meta[GIVEN] = given
        return ctx

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            interrupted()
        except click.UsageError as error:
            raise cut(error, ctx.meta.get(GIVEN, [])) from None


def cut(error: click.UsageError, given: list[str]) -> click.UsageError:
    """``error``, or the same refusal with each long word of ``given`` cut short."""
    message = error.format_message()
    for word in sorted(given, key=len, reverse=True):
        if len(word) > SHOWN:
            message = message.replace(word, shown(word)[1:-1])
    return error if message == error.format_message() else click.UsageError(message, error.ctx)


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
for _family in entry_points(group="parlour.commands"):
    _family.load()
