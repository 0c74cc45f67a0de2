"""A game's kit: what the rest of parlour may ask of a game, in one place.

Every game family hands the interfaces (the terminal, the web, the arena, the Gomocup
brain, the research API) one :class:`Kit`, its Game class's ``KIT``: the levels it really
has (each with a number, a name and what it does), a thinker for each, its analysis and
warm-up, its terminal screen, what a page may see of a position and of a move, and what
its Referee tells the players besides the moves.  The interfaces reach a game only
through these functions, so a level a game lacks is refused at every boundary with the
same line (:func:`check_level`), and no generic layer names a game.

A game without a kit of its own (a game of the tests) gets the base :class:`Kit`: the
seed's minimax at levels 1-8, nothing else.  A kit imports its game's heavy modules (the
compiled engines, the screens) when first asked, so registering a game stays light.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from parlour.core import BadOption, Game, Move, State, game_names, registered_kit, shown
from parlour.outcome import Outcome
from parlour.search import (
    NO_LIMIT,
    PERFECT,
    SEED_LEVELS,
    Counted,
    Level,
    SearchResult,
    Stop,
    Thinker,
    alphabeta,
)
from parlour.search.limit import Limit

if TYPE_CHECKING:  # the learning frameworks' codecs (numpy) load with the first one asked
    from parlour.encoding import Codec

Json = dict[str, Any]
Notices = Callable[[Any], list[tuple[int, Any]]]
"""The Referee's hook: from each ``Moved`` event, the (seat, message) pairs to tell."""

HINT_LEVEL, HINT_SECONDS = 5, 1.0
"""The hint a person asks for (the terminal's ``hint``, the page's Hint button): level 5
on a clock of one second."""


@dataclass(frozen=True)
class RecordForm:
    """A file form of a game's own for its records (five in a row's Piskvork ``.psq``),
    which ``parlour record`` reads and writes and ``parlour export`` writes: ``suffix``
    names its files; ``read`` takes the text and the rule options the form does not keep,
    and gives the start and the moves (BadPosition naming what is wrong); ``write`` takes
    the start, the moves, the players' names and each move's seconds (None: the form's
    own defaults), BadPosition for a game the form cannot hold."""

    suffix: str
    about: str
    read: Callable[[str, Mapping[str, Any]], tuple[State, tuple[Move, ...]]]
    write: Callable[[State, Sequence[Move], tuple[str, str] | None, Sequence[float] | None], str]


@dataclass(frozen=True)
class ChanceStart:
    """A start drawn by chance (Ayo's first player by lot, War's deal), as a research
    API's chance node offers it: ``outcomes`` equally likely draws, each named ``word``
    and its number ("deal 3"), ``start(outcome)`` the position it draws."""

    word: str
    outcomes: int
    start: Callable[[int], State]


class Show(Protocol):
    """A game that plays itself while a page watches (War: its Dealer and two players, no
    choices): the actors are the game's own, and each of their messages comes to the
    ``listener`` it was made with, which asks the show what a page may see of it."""

    kind: str
    """The page's drawing of the game."""

    def begin(self) -> None:
        """Start the game (when its first watcher comes)."""

    def abort(self, why: str) -> None:
        """End the game now with no winner."""

    def stop(self) -> None:
        """Stop the game's actors (once it is over)."""

    def event(self, message: Any) -> Json | None:
        """What a page is shown of one of the actors' messages (None: nothing)."""

    def outcome(self, result: Outcome) -> Json:
        """The end of the game as the page tells it, in words."""

    def snapshot(self) -> Json:
        """What the table shows now, for a page that joins late."""


class Kit:
    """What a game hands the rest of parlour.  The defaults serve a game with nothing of
    its own: the seed's minimax at every level, no engine, no screen, no notices."""

    notices: Notices | None = None
    scored = True
    """Whether the scores say how a game was won (seeds, tokens), as the end's words do."""
    proven_means = (
        "every line was searched to the end of the game: the final margin with perfect play"
    )
    """What an exact value of the game's analysis means, as ``parlour analyze`` says it."""

    def title(self, game_name: str) -> str:
        """What people call the game called ``game_name`` (five in a row's "gomoku")."""
        return game_name

    @property
    def levels(self) -> tuple[Level, ...]:
        """The levels the game's computer plays, weakest first."""
        return SEED_LEVELS

    @property
    def record_forms(self) -> tuple[RecordForm, ...]:
        """The game's own record files, beside parlour's saved games (JSON)."""
        return ()

    def make_thinker(self, level: int, seconds: float | None) -> Thinker:
        """The computer at ``level`` (one of :attr:`levels`), ``seconds`` a move for the
        levels on a clock (None: the level's own)."""
        from parlour.search.minimax import SeedLevel

        return SeedLevel(level)

    @property
    def analyses(self) -> bool:
        """Whether an engine of the game's own analyses its positions (:meth:`analyze`)."""
        return False

    def analyze(
        self,
        state: State,
        limit: Limit,
        on_iteration: Callable[[SearchResult[Any]], None] | None,
        stop: Stop,
    ) -> SearchResult[Any]:
        """Deepen the engine's search of ``state`` within ``limit``'s time and depth
        (``parlour analyze``; :func:`analyze` keeps to its node count)."""
        raise BadOption(no_engine(state.game.name))

    def prove(self, state: State, stop: Stop) -> int | None:
        """``state``'s value to its side to move with perfect play, where the game has a
        solver and it proves the value before ``stop`` (None otherwise)."""
        return None

    def warm_up(self, state: State) -> None:
        """Compile (and build) what the engine needs for ``state``'s game before any clock
        starts; nothing where there is nothing to compile."""

    def decided(self, state: State) -> Outcome | None:
        """How the game of ``state`` (not over) ends whatever is played, where its rules'
        count already says so: what an arena may adjudicate (None: not decided)."""
        return None

    def engine_player(self, command: tuple[str, ...], seconds: float, memory: int | None) -> Any:
        """The player of an outside engine (``command``: its program and arguments) that
        speaks a protocol of the game's own, ``seconds`` a move, ``memory`` bytes (None:
        the player's default); None where engines speak parlour's engine protocol
        (:mod:`parlour.players.protocol`)."""
        return None

    def codec(self, start: State) -> Codec:
        """How the learning frameworks see the game ``start`` begins (``parlour.encoding``)."""
        raise BadOption(f"{start.game.name} has no encoding for the learning frameworks")

    draws: tuple[str, int] | None = None
    """The research API's parameter for how many starts a chance start draws from, with
    its default (War's ``deals``), for a game whose every start is drawn."""

    def chance_start(self, rules: Game, draws: int | None) -> ChanceStart | None:
        """How the start of ``rules`` is drawn by chance, where it is (None: it is
        given); ``draws``: the value of the :attr:`draws` parameter."""
        return None

    def batch(self, rules: Game, size: int, seed: int) -> Any:
        """``size`` games of ``rules`` stepped at once (a :class:`parlour.batch.Batch`)."""
        known = ", ".join(name for name in game_names() if _batches(name))
        raise BadOption(f"{rules.name} has no batches; parlour steps {known} in batches")

    def screen(self, game_name: str) -> Any:
        """A new terminal screen for the game (BadOption where it has none)."""
        raise BadOption(f"{game_name} has no screen of its own")

    def view(self, state: State) -> Json:
        """What a page may see of ``state``'s board beyond what every game shows (its
        ``kind`` and the board's own fields)."""
        return {}

    def account_words(self, who: str, account: Any) -> list[str]:
        """What a move did beyond the move itself, one sentence each (``who``: the mover
        as the screens name it)."""
        return []

    watched = False
    """Whether the game plays itself, watched, where others are played by turns: its
    :meth:`show` is what a page runs in place of a Referee."""

    def show(self, game: Game, listener: Any) -> Show:
        """A new game of ``game`` playing itself, its messages told to ``listener`` (an
        actor's Ref); only a :attr:`watched` game has one."""
        raise BadOption(f"{game.name} is played by turns, not watched")

    def account_positions(self, account: Any) -> dict[str, State]:
        """Positions within a move that a page may see besides the one after it (the
        sowing games' position before the capture, for the seed-by-seed animation)."""
        return {}


class AlphaBetaKit(Kit):
    """The kit of a game with search adapters (``State.for_search``): the seed's minimax
    at 1-3 and the alpha-beta engine above (``parlour.search.alphabeta``), which also
    analyses its positions."""

    @property
    def levels(self) -> tuple[Level, ...]:
        return alphabeta.levels()

    def make_thinker(self, level: int, seconds: float | None) -> Thinker:
        return alphabeta.AlphaBetaThinker(level, seconds)

    @property
    def analyses(self) -> bool:
        return True

    def analyze(
        self,
        state: State,
        limit: Limit,
        on_iteration: Callable[[SearchResult[Any]], None] | None,
        stop: Stop,
    ) -> SearchResult[Any]:
        from parlour.search import engine

        return engine.analyze(state, limit.depth, limit.seconds, on_iteration, stop)

    def warm_up(self, state: State) -> None:
        from parlour.search import engine

        engine.warm_up(state)


def no_engine(game_name: str) -> str:
    """Why ``parlour analyze`` refuses the game called ``game_name``."""
    known = ", ".join(name for name in game_names() if kit_of(name).analyses)
    return f"no engine analyses {game_name}; the engines play {known}"


def kit_of(which: Game | str) -> Kit:
    """The kit of a game, or of the game called ``which``: the one it was registered
    with, or the base kit."""
    name = which if isinstance(which, str) else which.name
    kit = registered_kit(name)
    return kit if isinstance(kit, Kit) else BASE


BASE = Kit()


def _batches(name: str) -> bool:
    """Whether the game called ``name`` has batches of its own."""
    return type(kit_of(name)).batch is not Kit.batch


def record_forms() -> list[tuple[str, RecordForm]]:
    """Every game's own record forms, each with the game's name."""
    return [(name, form) for name in game_names() for form in kit_of(name).record_forms]


def record_form(suffix: str) -> tuple[str, RecordForm]:
    """The game and the record form whose files end in ``suffix`` (``.psq``, any case);
    BadOption naming the forms there are otherwise."""
    forms = record_forms()
    for name, form in forms:
        if form.suffix == suffix.lower():
            return name, form
    known = ", ".join(sorted({f"{form.suffix} ({form.about})" for _, form in forms}))
    raise BadOption(
        f"no game keeps records in {shown(suffix or 'a file without a suffix')} files; "
        f"parlour reads saved games (JSON) and {known or 'no other form'}"
    )


def check_level(game_name: str, number: int) -> Level:
    """Level ``number`` of the game called ``game_name``; BadOption otherwise, in the
    words every interface uses: "ayo has levels 1-8; perfect plays kalah and mancala"."""
    kit = kit_of(game_name)
    for level in kit.levels:
        if level.number == number:
            return level
    raise BadOption(refusal(game_name, number))


def refusal(game_name: str, number: int) -> str:
    """Why ``game_name`` has no level ``number``: the levels it has, and where the perfect
    level plays when that was asked."""
    levels = kit_of(game_name).levels
    if not levels:
        return f"{game_name} has no levels: its players make no choices"
    numbers = sorted(level.number for level in levels if level.number != PERFECT)
    text = f"{game_name} has levels {numbers[0]}-{numbers[-1]}"
    if any(level.number == PERFECT for level in levels):
        return f"{text} and perfect, not {level_name(number)}"
    if number == PERFECT:
        perfect = [n for n in game_names() if PERFECT in numbers_of(n)]
        return f"{text}; perfect plays {' and '.join(perfect)}" if perfect else text
    return f"{text}, not {level_name(number)}"


def numbers_of(game_name: str) -> tuple[int, ...]:
    """The level numbers of the game called ``game_name``."""
    return tuple(level.number for level in kit_of(game_name).levels)


def level_name(number: int) -> str:
    """How a person writes level ``number``."""
    return "perfect" if number == PERFECT else shown(number)


def thinker(game_name: str, level: int, seconds: float | None = None) -> Thinker:
    """The computer at ``level`` for the game called ``game_name`` (a level it lacks is
    refused with :func:`check_level`'s words); ``seconds`` a move for the levels that
    search on a clock (None: the level's own)."""
    check_level(game_name, level)
    return kit_of(game_name).make_thinker(level, seconds)


def hinter(game_name: str) -> Thinker:
    """The thinker of a person's hint in the game called ``game_name``."""
    return kit_of(game_name).make_thinker(HINT_LEVEL, HINT_SECONDS)


def best_move(state: State, level: int, seconds: float | None = None) -> tuple[Move, Any]:
    """The computer's move at ``level`` in ``state`` and its engine's account of it (a
    one-off thinker: a player keeps one for the game instead)."""
    return thinker(state.game.name, level, seconds).best_move(state, Stop())


def analyze(
    state: State,
    limit: Limit = NO_LIMIT,
    on_iteration: Callable[[SearchResult[Any]], None] | None = None,
    stop: Stop | None = None,
) -> SearchResult[Any]:
    """Deepen the engine's search of ``state`` until ``limit`` (its time, its depth, the
    first depth whose search reached its node count: that depth's result, what was
    searched beyond it unused) or a proven value, telling ``on_iteration`` each depth it
    finishes: ``parlour analyze``.  A game without an engine of its own is refused with
    BadOption."""
    with (stop or Stop()).until(None) as mine:
        counted: Counted[Any] = Counted(limit, mine, on_iteration)
        return counted.answer(kit_of(state.game).analyze(state, limit, counted, mine))


def prepare(state: State, levels: Iterable[int] | None = None) -> None:
    """Compile what playing ``state``'s game needs before any clock starts: its rules'
    kernels (one move played, as the players play it and as the Referee reports it) and
    what the computer at each of ``levels`` needs (its engine, its tables; None: the
    game's engine, as a hint or an analysis needs it)."""
    if not state.is_over:
        move = state.legal_moves()[0]
        state.play(move)
        state.play_report(move)
    if levels is None:
        warm_up(state)
    for level in levels or ():
        thinker(state.game.name, level).warm_up(state)


def warm_up(state: State) -> None:
    """Compile what the engine of ``state``'s game needs (and build its tables), so that it
    happens before any clock starts; nothing for a game without an engine."""
    kit_of(state.game).warm_up(state)


Step = list[Any]
"""A warm-up's step under way: its words and the share of it done (None: not known)."""
_STEPS: list[Step] = []
_SHOWN: list[bool] = []


@contextmanager
def showing() -> Iterator[None]:
    """While the block runs, a warm-up's line is on screen (the command line's): a game's
    long steps say themselves there (:func:`doing`), not with a display of their own."""
    _SHOWN.append(True)
    try:
        yield
    finally:
        _SHOWN.pop()


@contextmanager
def doing(words: str) -> Iterator[Callable[[float], None] | None]:
    """Tell the warm-up's line that the block is ``words`` ("building the endgame table"),
    where a line is shown (:func:`showing`): the value is then what hears the share done;
    None otherwise (the caller shows its progress its own way)."""
    if not _SHOWN:
        yield None
        return
    step: Step = [words, None]
    _STEPS.append(step)
    try:
        yield lambda share: step.__setitem__(1, share)
    finally:
        _STEPS.remove(step)


def step() -> tuple[str, float | None] | None:
    """The words of the warm-up's step under way and the share of it done (None: no step
    of a game's own; compiling, say)."""
    steps = list(_STEPS)
    return (steps[-1][0], steps[-1][1]) if steps else None
