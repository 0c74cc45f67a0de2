"""Pieces the commands share: game options from the command line, errors as usage errors.

Every value a command reads from its command line goes through one of parlour's parsers
(:mod:`parlour.core`, :mod:`parlour.players.specs`) by way of :class:`Parsed`, so a bad
value is one line naming the problem and exit status 2, never a traceback.
"""

from __future__ import annotations

import functools
import gc
import os
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar, cast

import click

from parlour.core import (
    MAX_DEPTH,
    MAX_SEED,
    BadOption,
    BadPosition,
    Game,
    Option,
    ParlourError,
    State,
    game,
    parse_seconds,
    parse_whole,
    shown,
)
from parlour.search import DEFAULT_LEVEL

if TYPE_CHECKING:  # the players (and asyncio with them) load when a command runs
    from parlour.players.specs import PlayerSpec
    from parlour.records.saved import Played
    from parlour.search import Stop

F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")
EXIT_INTERRUPTED = 130
"""Ctrl-C's exit status, as shells report SIGINT."""
STOP_WAIT = 0.3  # seconds a stopped search is given to end before the command exits


if TYPE_CHECKING:
    ParamType = click.ParamType[Any]  # generic in the click mypy reads, not in click 8.1
else:
    ParamType = click.ParamType


class Parsed(ParamType):
    """A click type that reads its text with one of parlour's parsers, whose errors become
    click's one-line usage error.  A value that is not text (a default) passes as it is."""

    def __init__(self, name: str, parse: Callable[[str], Any]) -> None:
        self.name = name
        self.parse = parse

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if not isinstance(value, str):
            return value
        try:
            return self.parse(value)
        except ParlourError as error:
            self.fail(str(error), param, ctx)


def whole_type(what: str, minimum: int, maximum: int) -> Parsed:
    """The click type of a whole number ``minimum..maximum`` (:func:`parse_whole`)."""
    return Parsed("INTEGER", lambda text: parse_whole(text, what, minimum, maximum, BadOption))


def seconds_type(minimum: float) -> Parsed:
    """The click type of a time in seconds from ``minimum`` (:func:`parse_seconds`)."""
    return Parsed("SECONDS", lambda text: parse_seconds(text, "the time", minimum))


def depth_type(minimum: int) -> Parsed:
    """The click type of a depth in plies, ``minimum..MAX_DEPTH``."""
    return whole_type("the depth", minimum, MAX_DEPTH)


def _players(text: str) -> tuple[PlayerSpec, PlayerSpec]:
    from parlour.players.specs import parse_players

    return warm(lambda: parse_players(text), "parlour")


def _level(text: str) -> int:
    from parlour.players.specs import parse_level

    return warm(lambda: parse_level(text), "parlour")


PLAYERS = Parsed("A,B", _players)
"""The click type of ``--players``: gives a tuple of two PlayerSpecs.  Reading a level
asks every game's kit for its levels, which loads (the first time: compiles) their
engines, so it is said on screen and stopped by Ctrl-C as a warm-up is."""
LEVEL = Parsed("LEVEL", _level)
SEED = whole_type("the seed", 0, MAX_SEED)


SOWING_OPTION = "empty_capture=false"  # the help's example of an option, for the sowing games


def option_flag(func: F, example: str = SOWING_OPTION) -> F:
    """Add ``--option NAME=VALUE`` (repeatable) for any option of the game; the help shows
    ``example``, an option of the command's own game."""
    return click.option(
        "--option",
        "-o",
        "option_texts",
        multiple=True,
        metavar="NAME=VALUE",
        help=f"Set a rule option of the game (repeatable), e.g. -o {example}.",
    )(func)


def option_flags(options: Sequence[Option]) -> Callable[[F], F]:
    """Add a flag for each of a game's ``options`` (``--max-rounds`` for max_rounds), with
    the option's help and default.  A value is checked by its option when the command line
    is read (a bad one is a usage error naming the option) and passed on as the text given,
    for ``parlour.game`` to read as any option's text ("none" stays apart from a flag not
    given, which passes None: the game's default)."""

    def decorate(func: F) -> F:
        for option in reversed(options):
            func = click.option(
                "--" + option.name.replace("_", "-"),
                option.name,
                type=Parsed(option.name, functools.partial(_checked, option)),
                metavar=_metavar(option),
                help=f"{option.help[:1].upper()}{option.help[1:]}.  "
                f"[default: {_spelled(option.default)}]",
            )(func)
        return func

    return decorate


def _checked(option: Option, text: str) -> str:
    """``text`` once ``option`` accepts it (BadOption naming the option otherwise)."""
    option.convert(text)
    return text


def _metavar(option: Option) -> str:
    """How the help shows an option's value: its choices, or its kind."""
    if option.choices:
        return "[" + "|".join(option.choices) + "]"
    kind = {int: "N", bool: "BOOLEAN"}.get(option.kind, "TEXT")
    return f"{kind}|none" if option.nullable else kind


def _spelled(value: Any) -> str:
    """A default as one would type it: ``none``, ``true``, ``50``."""
    if value is None or isinstance(value, bool):
        return str(value).lower()
    return str(value)


@dataclass(frozen=True)
class Seating:
    """Who sits where, as the ``play`` commands' shared flags say: the two players (player
    0 first), the seat ``--first`` names to begin (None when not given), the seed of the
    random players and whether the screen is cleared between turns."""

    specs: tuple[PlayerSpec, PlayerSpec]
    first: int | None
    seed: int | None
    clear: bool
    load: str | None = None
    """A saved game to go on with (``--load FILE``)."""

    def ready(
        self, begin: Callable[[], State], seated: tuple[PlayerSpec, PlayerSpec]
    ) -> tuple[Played, Behind | None]:
        """The game as it starts: at ``begin()``, or the saved game ``--load`` names (its
        moves kept, for the next save), with the rules compiled first (each level checked
        against the game first, in the kit's words), so that compiling never happens on a
        player's clock: all of it said on screen as it goes and stopped at once by Ctrl-C
        (:func:`warm`), a first start's compiling included.  What each computer's search
        needs (its engine, its tables) is made before the game too where a program moves
        first; where a person does, it is made :class:`Behind` the first prompt, while the
        person thinks, and the screen waits for it only if the person is quicker.
        ``seated`` are the players in their seats (the game's first seat first)."""
        from parlour.kit import prepare

        levels = [spec.level for spec in self.specs if spec.kind == "computer"]

        def compile_rules() -> Played:
            played = self.starting(begin())
            for spec in self.specs:
                try:
                    spec.check(played.state.game.name)
                except BadOption as error:
                    raise click.UsageError(str(error)) from None
            prepare(played.state, [])
            return played

        played = warm(compile_rules, "the game")
        if not levels:
            return played, None
        start = played.state
        if start.is_over or not seated[start.to_move].human:
            warm(lambda: prepare(start, levels))
            return played, None
        return played, Behind(lambda: prepare(start, levels))

    def play(
        self, begin: Callable[[], State], specs: tuple[PlayerSpec, PlayerSpec] | None = None
    ) -> NoReturn:
        """Play the game that starts at ``begin()`` (or the saved game ``--load`` names)
        at this terminal, with the game's screen, ``specs`` seated (the flags' by
        default); exit with the game's status."""
        from parlour.kit import kit_of
        from parlour.players.terminal import play_in_terminal

        seated = specs or self.specs
        played, behind = self.ready(begin, seated)
        name = played.state.game.name
        raise SystemExit(
            play_in_terminal(
                played.state,
                seated,
                kit_of(name).screen(name),
                seed=self.seed,
                clear=self.clear,
                played=played,
                warming=behind,
            )
        )

    def starting(self, start: State) -> Played:
        """The game from ``start``, or the saved game ``--load`` names, which must be a
        game of the same name (its rules are the file's)."""
        from parlour.records.saved import Played, SavedGame

        if self.load is None:
            return Played.at(start)

        try:
            saved = SavedGame.read(self.load)
            if saved.game != start.game.name:
                raise BadOption(f"{self.load} is a game of {saved.game}, not {start.game.name}")
            return saved.played()
        except ParlourError as error:
            raise click.BadParameter(str(error), param_hint="--load") from None


def seating_flags(
    order: str, level_help: str, first_help: str, option_example: str = SOWING_OPTION
) -> Callable[[F], F]:
    """Add the flags every ``play`` command shares (``--players``, ``--level``, ``--first``,
    ``--seed``, ``--clear``, ``--time``, ``--load``, ``--option``); the command gets one
    ``seating``
    and ``option_texts`` in their place.  ``order`` names the seats for ``--players``."""

    def decorate(func: F) -> F:
        @functools.wraps(func)
        def command(
            players: tuple[PlayerSpec, PlayerSpec] | None,
            level: int,
            first: str | None,
            seed: int | None,
            clear: bool,
            seconds: float | None,
            load: str | None,
            **rest: Any,
        ) -> Any:
            from parlour.players.specs import PlayerSpec, timed

            specs = timed(players or (PlayerSpec("human"), PlayerSpec("computer", level)), seconds)
            starter = None if first is None else _seat_of(specs, first == "human")
            return func(seating=Seating(specs, starter, seed, clear, load), **rest)

        flags = [
            click.option(
                "--players",
                type=PLAYERS,
                help=f"Who plays, {order}: human, computer:LEVEL or random each.",
            ),
            click.option(
                "--level",
                type=LEVEL,
                default=DEFAULT_LEVEL,
                show_default=True,
                help=level_help,
            ),
            click.option("--first", type=click.Choice(["human", "computer"]), help=first_help),
            click.option(
                "--seed", type=SEED, help="Seed of the random players and draws, to replay a game."
            ),
            click.option(
                "--load",
                metavar="FILE",
                help="Go on with a game saved at the prompt (save FILE); its rules are the file's.",
            ),
            click.option(
                "--clear",
                is_flag=True,
                help="Clear the screen at your turn (after Enter, once you have read the "
                "computer's reply); watching programs, clear and pause at each move.",
            ),
            click.option(
                "--time",
                "seconds",
                type=seconds_type(0.05),
                help="Seconds the computer thinks a move (its engine's levels; default: the "
                "level's).",
            ),
            lambda func: option_flag(func, option_example),
        ]
        for flag in reversed(flags):
            command = flag(command)
        return cast(F, command)

    return decorate


def _seat_of(specs: tuple[PlayerSpec, PlayerSpec], human: bool) -> int:
    """The one seat of a person (or of a program), for ``--first``."""
    seats = [n for n, spec in enumerate(specs) if spec.human == human]
    if len(seats) != 1:
        raise click.UsageError("--first needs one human and one computer player")
    return seats[0]


def make_game(name: str, option_texts: Iterable[str] = (), **explicit: Any) -> Game:
    """The game ``name`` with ``NAME=VALUE`` texts and explicit flags (None = not given).

    Any BadOption becomes a click usage error, so the command prints one line and exits 2;
    so does an option set both by ``-o`` and by its own flag (``-o first=1 --first human``).
    """
    options: dict[str, Any] = {k: v for k, v in explicit.items() if v is not None}
    for text in option_texts:
        key, sep, value = text.partition("=")
        key = key.strip()
        if not sep or not key:
            raise click.BadParameter(
                f"expected NAME=VALUE, got {shown(text)}", param_hint="--option"
            )
        if explicit.get(key) is not None:
            flag = "--" + key.replace("_", "-")
            raise click.UsageError(f"-o {shown(text)} and {flag} both set {key}: give one")
        options[key] = value
    try:
        return game(name, **options)
    except BadOption as error:
        raise click.UsageError(str(error)) from None


def position_to_search(game: Game, position: str | None, what: str) -> State:
    """The POSITION argument read in ``game`` (its start if not given), for a command that
    searches from it (``what`` it does there, as "search"): a bad position, or one whose
    game is over, is a usage error naming the problem."""
    try:
        state = game.parse(position) if position is not None else game.start()
    except BadPosition as error:
        raise click.BadParameter(str(error), param_hint="POSITION") from None
    if state.is_over:
        raise click.UsageError(f"the game is over in this position: there is nothing to {what}")
    return state


def interrupted() -> NoReturn:
    """End the command after Ctrl-C: parlour's one line and exit status 130, the one home
    of both for every command (click would say "Aborted!" and exit 1).

    The command's own ``with`` blocks have ended by now (the terminal is given back as
    found); the exit is immediate, since a normal one waits for every worker thread (an
    endgame table's step, a simulation's chunk), seconds or minutes after Ctrl-C."""
    click.echo("\nInterrupted.", err=True)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(EXIT_INTERRUPTED)


def interruptible(call: Callable[[], T], stop: Stop | None = None) -> T:
    """``call()``, run in a daemon thread while this one waits, so that Ctrl-C ends the
    command at once even while a compiled kernel, which never looks at
    signals, is counting.  A search given its ``stop`` is stopped first, so that it ends
    with the command."""
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(call())
        except BaseException as error:  # raised again in the command's thread
            outcome.append(error)

    worker = threading.Thread(target=run, daemon=True)
    try:
        worker.start()
        while worker.is_alive():
            worker.join(0.1)
    except KeyboardInterrupt:
        if stop is not None:
            stop.set()
            worker.join(STOP_WAIT)
        raise  # the command ends as every command does on Ctrl-C (interrupted)
    if isinstance(outcome[0], BaseException):
        raise outcome[0]
    return cast(T, outcome[0])


NOTE_AFTER = 0.4
"""Seconds a warm-up may take before the screen says so (a cached one never does)."""
TICK = 0.5
"""Seconds between two updates of the warm-up's line at a terminal."""


class Compiling:
    """What numba is compiling, heard from its compile events: how many kernels are done
    and those under way (a kernel compiles the kernels it calls within its own compile)."""

    def __init__(self) -> None:
        self.done = 0
        self.under_way: list[str] = []

    def listener(self) -> Any:
        """numba's listener that tells this of each compile (numba loads here: a second or
        more of a first start, said on screen as the rest is)."""
        from numba.core.event import Listener

        compiling = self

        class Heard(Listener):
            def on_start(self, event: Any) -> None:
                func = getattr(event.data.get("dispatcher"), "py_func", None)
                ours = getattr(func, "__module__", "").startswith("parlour.")
                compiling.under_way.append(getattr(func, "__name__", "") if ours else "")

            def on_end(self, event: Any) -> None:
                compiling.done += 1
                if compiling.under_way:
                    compiling.under_way.pop()

        return Heard()

    @property
    def current(self) -> str | None:
        """The kernel of parlour's own being compiled (the innermost; numba's own helpers,
        ``impl``, ``<lambda>``, are no names for a player), "" while numba compiles only
        its own, None between two compiles."""
        if not self.under_way:
            return None
        return next((name for name in reversed(self.under_way) if name), "")

    def words(self, what: str, seconds: float) -> str:
        """The line that says how far the warm-up of ``what`` is (:meth:`progress`)."""
        return f"warming up {what}{self.progress(seconds)}"

    def progress(self, seconds: float) -> str:
        """How far a warm-up is, after its name: the step of a game's own under way
        (``kit.doing``: building a table, and how far), or else the compiling."""
        from parlour.kit import step

        doing = step()
        if doing is not None:
            words, share = doing
            far = "" if share is None else f", {share:.0%} done"
            kernels = "" if self.current is None else f" (compiling its kernels: {self.done} done)"
            return f": {words}{far}{kernels}, {seconds:.0f} s"
        now = f", now {self.current}" if self.current else ""
        plural = "" if self.done == 1 else "s"
        return (
            f" (compiled once, then cached): {self.done} kernel{plural} "
            f"compiled{now}, {seconds:.0f} s"
        )


@contextmanager
def listening(compiling: Compiling) -> Iterator[None]:
    """``compiling`` told of numba's compiles while the block runs."""
    from numba.core import event as numba_event

    events: Any = numba_event  # untyped
    listener = compiling.listener()
    events.register("numba:compile", listener)
    try:
        yield
    finally:
        events.unregister("numba:compile", listener)


@contextmanager
def warming_up(what: str = "the engine", between: bool = False) -> Iterator[None]:
    """Say on stderr how the block (a first, compiling call of the numba kernels) goes,
    once it takes long enough to be noticed: at a terminal a line updated every ``TICK``
    seconds with the kernels compiled and the one under way, ending with the time it took
    (elsewhere one line); nothing when the kernels are cached.  Between two compiles the
    line goes on counting the seconds if ``between``, and a game's own long step says
    itself in it (``kit.doing``: an endgame table built on the way, and how far) where it
    would draw a bar of its own; else the line waits while something else draws
    (``parlour solve``'s progress bar, with its time to go).

    Afterwards the objects made so far (numba's, by the hundred thousand) are moved out of
    the garbage collector's sight: they live as long as the program, and the collection at
    exit would otherwise walk them all, a sixth of a second more before Ctrl-C ends it."""
    from parlour.kit import showing, step

    compiling, finished = Compiling(), threading.Event()
    started = time.monotonic()
    err = sys.stderr
    live = err.isatty()

    def talk() -> None:
        if finished.wait(NOTE_AFTER):
            return
        if not live:
            click.echo(f"warming up {what}...", err=True)
            return
        said = False
        while not finished.is_set():
            if compiling.current is not None or between or step() or not said:
                err.write(f"\r{compiling.words(what, time.monotonic() - started)}\x1b[K")
                err.flush()
                said = True
            finished.wait(TICK)

    talker = threading.Thread(target=talk, daemon=True, name="warming-up")
    talker.start()
    try:
        with listening(compiling), showing() if live and between else nullcontext():
            yield
    finally:
        finished.set()
        talker.join()
        seconds = time.monotonic() - started
        if live and seconds > NOTE_AFTER:
            err.write(f"\rwarming up {what}: ready in {seconds:.1f} s\x1b[K\n")
            err.flush()
        gc.freeze()


@contextmanager
def status(first: str) -> Iterator[Callable[[str], None]]:
    """A line on stderr, at a terminal, saying what a long command is doing (``first``,
    to begin with): the block calls the value with the words of each step as it begins,
    and the line shows the latest with the seconds so far, at once and every ``TICK``
    seconds; it is wiped at the end, for the result to stand alone.  Elsewhere (a log)
    nothing is said: the result follows."""
    words, finished = [first], threading.Event()
    started = time.monotonic()
    err = sys.stderr
    live = err.isatty()

    def talk() -> None:
        while not finished.is_set():
            err.write(f"\r{words[0]}, {time.monotonic() - started:.0f} s\x1b[K")
            err.flush()
            finished.wait(TICK)
        err.write("\r\x1b[K")
        err.flush()

    talker = threading.Thread(target=talk, daemon=True, name="status")
    if live:
        talker.start()
    try:
        yield lambda said: words.__setitem__(0, said)
    finally:
        finished.set()
        if live:
            talker.join()


def warm(call: Callable[[], T], what: str = "the engine") -> T:
    """``call()``, a first call that compiles (or builds) what a command needs: run so
    that Ctrl-C ends the command at once (:func:`interruptible`), saying how it goes
    (:func:`warming_up`)."""
    with warming_up(what, between=True):
        return interruptible(call)


class Behind:
    """A warm-up run in a thread of its own while the game goes on (the computer's engine,
    compiled and its tables built while the person thinks of a first move), which says
    how far it is where someone waits for it (``players.terminal``); its own progress
    goes to those words, never to the screen under the prompt (``kit.showing``)."""

    def __init__(self, call: Callable[[], object]) -> None:
        self.compiling = Compiling()
        self.started = time.monotonic()
        self._done = threading.Event()
        self._error: BaseException | None = None
        threading.Thread(target=self._run, args=(call,), daemon=True, name="warm-up").start()

    def _run(self, call: Callable[[], object]) -> None:
        from parlour.kit import showing

        try:
            with listening(self.compiling), showing():
                call()
        except BaseException as error:  # raised again where the game waits for it
            self._error = error
        finally:
            gc.freeze()  # as warming_up does
            self._done.set()

    def ready(self) -> bool:
        """Whether the warm-up is done (its error, if it failed, raised here)."""
        if self._done.is_set() and self._error is not None:
            raise self._error
        return self._done.is_set()

    def words(self) -> str:
        """How far the warm-up is, for a person who waits for it."""
        seconds = time.monotonic() - self.started
        return f"the computer is still warming up{self.compiling.progress(seconds)}"
