"""``parlour serve``: every game in a browser (see :mod:`parlour.web`).

It listens on localhost by default and prints the address to open.  Games are kept in
SQLite at ``--db`` (by default in the user's data folder), the finished ones and those
under way move by move, so a server started again lists the first and brings back the
second.  Ctrl-C stops it.
"""

from __future__ import annotations

import os
import socket
import sys
import threading
import time
from typing import TYPE_CHECKING, NoReturn, TextIO

import click

from parlour.cli import main
from parlour.cli._common import EXIT_INTERRUPTED, NOTE_AFTER, TICK, seconds_type, whole_type

if TYPE_CHECKING:
    from parlour.web.app import WarmUp


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port", type=whole_type("the port", 1, 65535), default=8000, show_default=True, help="Port."
)
@click.option(
    "--db", metavar="PATH", help="parlour's store of games (the arena's too): a SQLite file."
)
@click.option(
    "--abandon",
    type=seconds_type(1),
    default=60.0,
    show_default=True,
    help="Seconds a seat may stay empty before its player forfeits.",
)
@click.option(
    "--no-rate-limit",
    is_flag=True,
    help="Let one address create games as fast as it likes (a load test on the loopback).",
)
@click.option(
    "--max-memory",
    type=whole_type("the engines' memory", 1, 2**30),
    metavar="MB",
    help="Megabytes the computer's engines share, all games together"
    " [default: a quarter of the machine's memory].",
)
def serve(
    host: str,
    port: int,
    db: str | None,
    abandon: float,
    no_rate_limit: bool,
    max_memory: int | None,
) -> None:
    """Serve the games to browsers: play the computer, a person, or watch."""
    try:
        socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as error:  # an address that names no host
        raise click.BadParameter(f"no address {host!r}: {error}", param_hint="--host") from None
    _with_c_allocator()
    if sys.stderr.isatty():  # its modules take a second or more to load on a first start
        click.echo("starting the web server...", err=True)
    try:
        import uvicorn

        from parlour.web.app import create_app
        from parlour.web.hall import freeze_start
        from parlour.web.limits import GAMES
        from parlour.web.sockets import Sockets
    except ImportError as error:
        raise click.ClickException(
            f"the web server needs parlour's web extra (pip install 'parlour[web]'): {error}"
        ) from None
    from parlour.core import ParlourError
    from parlour.records.store import database_path, default_path

    shown_host = f"[{host}]" if ":" in host else host
    try:
        path = default_path() if db is None else database_path(db)
        rate = None if no_rate_limit else GAMES
        app = create_app(path, abandon, games_rate=rate, max_memory=max_memory)
    except ParlourError as error:
        raise click.ClickException(str(error)) from None
    listening = _listen(host, port, f"{shown_host}:{port}")
    click.echo(f"parlour serves at http://{shown_host}:{port}/")
    click.echo(f"(games are kept in {path}; Ctrl-C stops the server)")
    saying = (app.state.warming, sys.stderr, sys.stderr.isatty())
    threading.Thread(target=say_warm_up, args=saying, daemon=True, name="saying").start()
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        ws=Sockets,  # a closed connection's state freed at once
        ws_max_size=16 * 1024,
        ws_per_message_deflate=False,  # small messages; compressing each is the CPU's
        timeout_graceful_shutdown=1,  # whole seconds: open websockets get one to close
    )
    freeze_start()
    try:
        uvicorn.Server(config).run(sockets=[listening])
    except KeyboardInterrupt:  # uvicorn stops gracefully, then raises the signal again
        click.echo("Stopped.", err=True)
        _leave_now()


def say_warm_up(warming: WarmUp, out: TextIO, live: bool, tick: float = TICK) -> None:
    """Say in the terminal how far the games' warm-up is (the pages say it from
    ``/api/ready``), where it takes long enough to be noticed (a first start compiles for
    minutes; a second loads from the cache in a second): at a terminal (``live``) a line
    updated every ``tick`` seconds, elsewhere a line a game; then that all is ready."""
    started = time.monotonic()
    if warming.ready.wait(NOTE_AFTER):
        return
    said = None
    while not (now := warming.progress())["ready"]:
        doing = str(now["doing"])
        line = (
            f"getting the games ready: {doing[:1].upper()}{doing[1:]}"
            f" ({now['done']} of {now['of']} done),"
            f" {time.monotonic() - started:.0f} s"
        )
        if live:
            out.write(f"\r{line}\x1b[K")
        elif now["doing"] != said:
            out.write(f"{line}\n")
        out.flush()
        said = now["doing"]
        warming.ready.wait(tick)
    ready = f"the games are ready (in {time.monotonic() - started:.1f} s)"
    out.write(f"\r{ready}\x1b[K\n" if live else f"{ready}\n")
    out.flush()


def _with_c_allocator() -> None:
    """Start this command again with C's allocator for Python's objects (glibc, on
    Linux), where it was not chosen already: a server's memory then goes back to the
    system once its games end (see :func:`parlour.web.hall.give_back`).  Python's own
    allocator keeps a region while one small object in it lives on, and a thousand games'
    events, sockets and actors leave the regions they filled each pinned by a few."""
    if not sys.platform.startswith("linux") or os.environ.get("PYTHONMALLOC"):
        return
    if "serve" not in sys.orig_argv[1:]:  # called inside another program (a test's)
        return
    os.environ["PYTHONMALLOC"] = "malloc"
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(sys.executable, [sys.executable, *sys.orig_argv[1:]])


def _listen(host: str, port: int, shown: str) -> socket.socket:
    """The server's socket, bound before anything says the server is there (a port in
    use is one line, not an address announced and then a failure)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listening = socket.socket(family, socket.SOCK_STREAM)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listening.bind((host, port))
    except OSError as error:
        listening.close()
        raise click.ClickException(f"cannot listen on {shown}: {error.strerror}") from None
    return listening


def _leave_now() -> NoReturn:
    """Exit at once with the interrupted status.  Nothing is left to save (each game's
    moves were committed as they were made), but a normal exit waits for the engines' warm-up
    thread, which may be inside numba's compiler: a second or more after Ctrl-C."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(EXIT_INTERRUPTED)
