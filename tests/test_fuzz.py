"""Every door text comes in by, fuzzed (issue 19): positions, typed moves, game options,
War's cards, decks and rules, the player specs, and the command lines of ``perft``,
``analyze``, ``simulate`` and ``play``; and the boundaries of issue 43: War positions
(reachable ones only), saved games (nested, huge, cut, of another game), ``.psq`` records,
the bytes the terminal's reader is given, the Gomocup protocol's lines and the names
``parlour rules`` is given.

Each parser is fed valid texts, near-valid ones (a valid text with one mutation: a number
out of range, huge, signed or in another script's digits, a field missing or doubled, a
wrong separator, a total off by one) and arbitrary text.  Its answer must be a value that
reads back equal (a state's notation, a move's name, an option's text) or the parser's own
error in one line (BadPosition, IllegalMove, BadOption; a command's "Error:" line and exit
status 2) that repeats no more of the person's text than ``core.shown`` keeps, never
another exception; and it must come back.  Every call runs in a daemon
thread: one that has not returned within ``helpers.BOUND`` seconds is a hang (a parse takes
microseconds; the bound only tells a hang from an answer, so it is generous).

Each test's examples are its weight times the profile's ``max_examples``: about 2,500
inputs in all by default, 100,000 with ``--hypothesis-profile=long`` (tests/conftest.py).
The twelve reproductions of the issue are named tests at the end.  ``BOUNDARIES`` names
each boundary with its inputs and its check: ``benchmarks/fuzz.py`` runs them at volume
(10^5 inputs each), counting each kind of failure.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable
from functools import partial
from typing import Any, cast
from unittest import mock

import click
import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, assume, event, example, given, settings
from hypothesis import strategies as st

import parlour
from helpers import BOUND, bounded, random_play
from parlour.cli import main
from parlour.core import SHOWN, BadOption, BadPosition, Game, IllegalMove, ParlourError, State
from parlour.games.war.game import war_rules
from parlour.games.war.rules import FULL_DECK, card_name, parse_card, parse_deck
from parlour.players.specs import parse_players
from parlour.players.terminal import Typed, command_answer, typed
from parlour.rules_text import rule_games


def budget(weight: float) -> settings:
    """``weight`` times the profile's examples; no deadline (``bounded`` watches instead)."""
    return settings(
        max_examples=max(1, round(weight * settings().max_examples)),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


Check = Callable[[Any], None]
BOUNDARIES: dict[str, tuple[st.SearchStrategy[Any], Check]] = {}
"""Each boundary the suite fuzzes, by name: its inputs and the check of one (also run by
``benchmarks/fuzz.py``, at volume)."""


def boundary(name: str, inputs: st.SearchStrategy[Any], weight: float) -> Callable[[Check], Check]:
    """The test of ``check`` on ``inputs``, ``weight`` times the profile's examples (those
    ``@example`` names first), registered as the boundary ``name``."""

    def fuzzed(check: Check) -> Check:
        BOUNDARIES[name] = (inputs, check)
        return budget(weight)(given(inputs)(check))

    return fuzzed


def refused(outcome: object, error: type[ParlourError], text: str = "") -> bool:
    """Whether ``outcome`` is ``error`` with a one-line message that repeats no more of
    ``text`` (what the person gave) than ``core.shown`` keeps; False for a value."""
    if not isinstance(outcome, ParlourError):
        return False
    wrong = f"refusal: {type(outcome).__name__} where {error.__name__} is due"
    assert isinstance(outcome, error), wrong
    message = str(outcome)
    assert message and "\n" not in message and len(message) < 400, f"refusal: {message}"
    assert not repeated(text, message), f"refusal repeats the text uncut: {message}"
    return True


def repeated(text: str, message: str) -> bool:
    """Whether ``message`` holds ``2 * SHOWN`` characters or more of ``text`` in one piece
    (it then holds one of the ``SHOWN``-character pieces that start at a multiple of
    ``SHOWN``), where ``core.shown`` keeps fewer than ``SHOWN``."""
    return any(text[at : at + SHOWN] in message for at in range(0, len(text) - SHOWN + 1, SHOWN))


def answered(outcome: object, error: type[ParlourError], text: str = "") -> bool:
    """``refused``, counted in hypothesis's statistics (``--hypothesis-show-statistics``)."""
    no = refused(outcome, error, text)
    event("refused" if no else "read")
    return no


# ---------------------------------------------------------------- texts and mutations

NUMBERS = (
    "0",
    "1",
    "-1",
    "-0",
    "+4",
    "²",
    "٣",
    "４",
    "①",
    "፰",
    "٤٨",
    "32768",
    "65536",
    "4611686018427387904",
    "9" * 25,
    "1" * 5000,
    "1e3",
    "4.0",
    "0x10",
    "4_0",
    " 4",
    "inf",
    "nan",
)
"""What a number of a valid text is replaced by: ends of ranges, overflows, signs, other
scripts' digits (which ``int`` and ``str.isdigit`` accept), and other ways to write one."""
PIECES = (",", "/", " ", "\n", ":", "=", ";", "-", "X", "x", ".", "none", "\x00", "\t", "")
"""Separators and stray characters a mutation inserts or swaps in."""
ALPHABET = "0123456789,/ -X.\n:=abcdhs²٣４"
"""The characters of the notations, and a few digits from other scripts."""


@st.composite
def mutated(draw: st.DrawFn, texts: st.SearchStrategy[str]) -> str:
    """A text of ``texts`` with one mutation."""
    text = draw(texts)
    how = draw(st.sampled_from(["number", "number", "delete", "insert", "swap", "double", "cut"]))
    runs = [m.span() for m in re.finditer(r"[0-9]+", text)]
    if how == "number" and runs:
        start, end = draw(st.sampled_from(runs))
        n = int(text[start:end])
        new = draw(st.sampled_from([str(n + 1), str(max(n - 1, 0)), *NUMBERS]))
        return text[:start] + new + text[end:]
    if how == "delete" and text:
        at = draw(st.integers(0, len(text) - 1))
        return text[:at] + text[at + draw(st.integers(1, 20)) :]
    separators = [i for i, c in enumerate(text) if c in PIECES]
    if how == "swap" and separators:
        at = draw(st.sampled_from(separators))
        return text[:at] + draw(st.sampled_from(PIECES)) + text[at + 1 :]
    fields = text.split(" ")
    if how == "double" and len(fields) > 1:
        at = draw(st.integers(0, len(fields) - 1))
        return " ".join(fields[: at + 1] + fields[at:])
    if how == "cut":
        return text[: draw(st.integers(0, len(text)))]
    at = draw(st.integers(0, len(text)))
    return text[:at] + draw(st.sampled_from(NUMBERS + PIECES)) + text[at:]


def inputs(valid: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """Valid texts, near-valid ones and arbitrary ones."""
    return st.one_of(
        valid,
        mutated(valid),
        mutated(valid),
        st.text(ALPHABET, max_size=60),
        st.text(max_size=30),
    )


# ---------------------------------------------------------------- states

VARIANTS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("kalah", {}),
    ("kalah", {"pits": 4, "seeds": 3}),
    ("kalah", {"pits": 16, "seeds": 24}),
    ("mancala", {}),
    ("mancala", {"empty_capture": False}),
    ("ayo", {"first": 0}),
    ("ayo", {"max_rounds": 1, "seed": 3}),
    ("ayo", {"max_rounds": 3, "first": 1}),
    ("gomoku", {"size": 5}),
    ("gomoku", {"size": 9, "strict": True}),
    ("gomoku", {"size": 7, "exact_five": True}),
)
"""Rule sets the fuzz plays: presets, the largest sowing board, round limits, strictness."""
GAMES = tuple(parlour.game(name, **options) for name, options in VARIANTS)
ENGINE_GAMES = tuple(g for g in GAMES if g.name != "gomoku" and g.options.get("pits", 6) == 6)


@st.composite
def states(draw: st.DrawFn, games: tuple[Game, ...] = GAMES) -> State:
    """A position reached by random play (finished games included)."""
    game = draw(st.sampled_from(games))
    rng = random.Random(draw(st.integers(0, 2**32)))
    return random_play(game.start(), rng, draw(st.integers(0, 250)))


@st.composite
def positions(draw: st.DrawFn) -> tuple[Game, str]:
    """A game and a position text for it: a notation of its own, or of another game."""
    state = draw(states())
    game = draw(st.one_of(st.just(state.game), st.sampled_from(GAMES)))
    return game, draw(inputs(st.just(state.notation())))


def check_position(game: Game, text: str) -> None:
    outcome = bounded(lambda: game.parse(text))
    if not answered(outcome, BadPosition, text):
        assert isinstance(outcome, State)
        assert outcome.game.parse(outcome.notation()) == outcome
        if not outcome.is_over:
            assert outcome.legal_moves()


@boundary("positions", positions(), 6)
@example((GAMES[5], "4,4,4,4,4,4,4,4,4,4,4,4 000000111111 0,0 0 1 0 -"))
def test_position_texts_read_back_or_are_refused(case: tuple[Game, str]) -> None:
    check_position(*case)


# ---------------------------------------------------------------- typed moves


@st.composite
def typed_moves(draw: st.DrawFn) -> tuple[State, str]:
    state = draw(states())
    names = [state.move_name(m) for m in state.legal_moves()] or ["A", "0", "H8"]
    return state, draw(inputs(st.sampled_from(names)))


@boundary("typed moves", typed_moves(), 5)
@example((GAMES[0].start(), "²"))
@example((GAMES[5].start(), "٣"))
@example((GAMES[8].start(), "C²"))
@example((GAMES[0].start(), "1" * 5000))
@example((GAMES[0].start(), " Quit "))
@example((GAMES[0].start(), "save"))
@example((GAMES[8].start(), "position"))
@example((random_play(GAMES[8].start(), random.Random(1), 10**4), "?"))  # help, the game over
def test_typed_moves_are_legal_moves_or_refused(case: tuple[State, str]) -> None:
    """Read as the terminal reads a person's line (``players.terminal.typed``): a legal
    move, a command for its own word, or the move's refusal in one line."""
    from parlour.players.keyboard import QUIT

    state, text = case
    asked = bounded(lambda: typed(text, state))
    assert isinstance(asked, Typed)
    word = text.strip().lower()
    event(asked.command or ("refused" if asked.refusal else "answered" if asked.answer else "move"))
    if asked.command is not None:
        commands = {"quit": word in QUIT, "undo": word == "undo", "hint": word == "hint"}
        assert commands.get(asked.command, word.split()[:1] == ["save"])
    elif asked.refusal is not None:
        assert refused(asked.refusal, IllegalMove, text)
        assert asked.answer == f"{asked.refusal.reason}\n"
    elif asked.answer is not None:
        assert asked.answer == command_answer(word, state)
    else:
        assert asked.move in state.legal_moves()
        assert state.parse_move(state.move_name(asked.move)) == asked.move


# ---------------------------------------------------------------- game options


def option_text(value: object) -> str:
    """An option's value as the command line writes it."""
    return "none" if value is None else str(value).lower()


@st.composite
def valid_option(draw: st.DrawFn, option: parlour.Option) -> str:
    if option.kind is bool:
        return draw(st.sampled_from(["true", "false", "yes", "no", "on", "off", "1", "0"]))
    if option.choices:
        return draw(st.sampled_from(option.choices))
    if option.kind is int:
        assert option.maximum is not None
        text = str(draw(st.integers(option.minimum, option.maximum)))
        return draw(st.sampled_from([text, "none"])) if option.nullable else text
    return draw(st.sampled_from(["full", "small", "AC,KD", "2H 3H 4H 5H"]))


@st.composite
def game_options(draw: st.DrawFn) -> tuple[str, dict[str, str]]:
    name = draw(st.sampled_from(sorted(parlour.game_names())))
    chosen = draw(st.lists(st.sampled_from(parlour.game_options(name)), unique=True))
    options = {o.name: draw(inputs(valid_option(o))) for o in chosen}
    if draw(st.booleans()):
        name = draw(inputs(st.just(name)))
    if draw(st.booleans()):
        options[draw(inputs(st.sampled_from(["pits", "seeds", "size", "max_rounds"])))] = "4"
    return name, options


@boundary("game options", game_options(), 3)
@example(("kalah", {"pits": "1" * 5000}))
@example(("ayo", {"max_rounds": "9223372036854775808"}))
def test_games_with_text_options_read_back_or_are_refused(case: tuple[str, dict[str, str]]) -> None:
    name, options = case
    outcome = bounded(lambda: parlour.game(name, **options))
    if not answered(outcome, BadOption, " ".join([name, *options, *options.values()])):
        assert isinstance(outcome, Game)
        again = {key: option_text(value) for key, value in outcome.options.items()}
        assert parlour.game(name, **again) == outcome
        outcome.start()


@pytest.mark.parametrize(
    "value",
    [10**5000, -(10**40), 2**63, True, 4.0, "4", None, [4]],
    ids=["huge", "negative", "2**63", "bool", "float", "text", "None", "list"],
)
def test_games_with_python_values_take_only_whole_numbers_in_range(value: object) -> None:
    outcome = bounded(lambda: parlour.game("kalah", pits=value))
    assert refused(outcome, BadOption) or outcome == parlour.game("kalah", pits=4)


# ---------------------------------------------------------------- War

CARD_NAMES = [
    text
    for card in FULL_DECK
    for text in (card_name(card), card_name(card, ascii_only=True).lower(), str(card))
]


@boundary("cards", inputs(st.sampled_from(CARD_NAMES)), 2)
@example("²")
@example("ＫS")
@example("KS")
def test_cards_read_back_or_are_refused(text: str) -> None:
    outcome = bounded(lambda: parse_card(text))
    if not answered(outcome, BadOption, text):
        assert isinstance(outcome, int) and 0 <= outcome < len(FULL_DECK)
        for name in (card_name(outcome), card_name(outcome, ascii_only=True), str(outcome)):
            assert parse_card(name) == outcome


@st.composite
def deck_texts(draw: st.DrawFn) -> str:
    cards = draw(st.lists(st.sampled_from(CARD_NAMES), min_size=1, max_size=20))
    return draw(st.sampled_from([",", " ", ", "])).join(cards)


@boundary("decks", inputs(st.one_of(deck_texts(), st.sampled_from(["full", "small"]))), 2)
@example("², 3")
def test_decks_read_back_or_are_refused(text: str) -> None:
    outcome = bounded(lambda: parse_deck(text))
    if not answered(outcome, BadOption, text):
        assert isinstance(outcome, tuple) and len(set(outcome)) == len(outcome)
        assert len(outcome) % 2 == 0 and len(outcome) >= 2
        assert parse_deck(",".join(card_name(c, ascii_only=True) for c in outcome)) == outcome


WAR_OPTIONS = ("deck", "pickup", "max_rounds", "long_game_winner", "seed")


@st.composite
def war_options(draw: st.DrawFn) -> dict[str, Any]:
    from parlour.games.war.options import OPTIONS

    chosen = draw(st.lists(st.sampled_from(OPTIONS), unique=True))
    options: dict[str, Any] = {o.name: draw(inputs(valid_option(o))) for o in chosen}
    if draw(st.booleans()):
        options[draw(st.sampled_from(WAR_OPTIONS))] = draw(
            st.one_of(st.integers(), st.booleans(), st.none(), st.floats(), st.just(10**5000))
        )
    return options


@boundary("War rules", war_options(), 2)
@example({"deck": 5})
@example({"deck": True})
def test_war_rules_read_back_or_are_refused(options: dict[str, Any]) -> None:
    outcome = bounded(lambda: war_rules(**options))
    if not answered(outcome, BadOption):
        assert not isinstance(outcome, ParlourError)
        deck = ",".join(card_name(c, ascii_only=True) for c in outcome.deck)
        texts = {name: option_text(getattr(outcome, name)) for name in WAR_OPTIONS}
        assert war_rules(**{**texts, "deck": deck}) == outcome


# ---------------------------------------------------------------- player specs

SPECS = [
    "human,computer:3",
    "random,human",
    "computer:8,computer:1",
    "human,human",
    "computer,random",
]


@boundary("player specs", inputs(st.sampled_from(SPECS)), 2)
@example("human,computer:²")
@example("human,computer:+4")
@example("python:" + "m" * 100 + ",human")  # the spec quoted whole
def test_player_specs_read_back_or_are_refused(text: str) -> None:
    outcome = bounded(lambda: parse_players(text))
    if not answered(outcome, BadOption, text):
        assert not isinstance(outcome, ParlourError)
        first, second = outcome
        assert parse_players(f"{first},{second}") == outcome


# ---------------------------------------------------------------- command lines


def command(args: list[str]) -> Result:
    """``parlour ARGS`` by click's runner: exit status 0, or 2 with an "Error:" line."""
    result = bounded(lambda: CliRunner().invoke(main, args))
    assert isinstance(result, Result)
    assert result.exit_code in (0, 2), f"{args!r}: exit {result.exit_code}: {result.exception!r}"
    if result.exit_code == 2:
        assert any(line.startswith("Error: ") for line in result.output.splitlines())
        uncut = [arg for arg in args if repeated(arg, result.output)]
        assert not uncut, f"refusal repeats the text uncut: {result.output}"
    assert "Traceback" not in result.output
    return result


@st.composite
def mutated_args(draw: st.DrawFn, args: list[str]) -> list[str]:
    """``args`` as given, or with one token mutated, dropped, doubled or added."""
    how = draw(st.sampled_from(["none", "token", "token", "token", "drop", "double", "add"]))
    at = draw(st.integers(1, len(args) - 1))
    if how == "token":
        return [*args[:at], draw(mutated(st.just(args[at]))), *args[at + 1 :]]
    if how == "drop":
        return args[:at] + args[at + 1 :]
    if how == "double":
        return args[: at + 1] + args[at:]
    if how == "add":
        return [*args[:at], draw(st.text(ALPHABET, max_size=10)), *args[at:]]
    return args


def option_args(game: Game) -> list[str]:
    """``-o NAME=VALUE`` for each option of ``game``."""
    return [a for k, v in game.options.items() for a in ("-o", f"{k}={option_text(v)}")]


@st.composite
def perft_commands(draw: st.DrawFn) -> tuple[list[str], int | None]:
    """A perft command line, and its count when it is unchanged."""
    state = draw(states(GAMES[:8] + GAMES[8:9]))  # gomoku on 5x5 alone: perft is Python there
    depth = draw(st.integers(0, 2))
    args = ["perft", state.game.name, str(depth), "--position", state.notation()]
    args += option_args(state.game) + draw(st.sampled_from([[], ["--divide"]]))
    changed = draw(mutated_args(args))
    # a digit inserted into the depth ("12", "20") asks a count that takes hours, which
    # is no hang: the command is right to start it (and Ctrl-C stops it)
    asked = changed[2] if len(changed) > 2 else ""
    assume(not (asked.isascii() and asked.isdigit() and len(asked) < 9 and 3 < int(asked) <= 99))
    return changed, parlour.perft(state, depth) if changed == args else None


@boundary("parlour perft", perft_commands(), 1.2)
@example((["perft", "kalah", "99999999999999999999"], None))
@example((["perft", "kalah", "٣"], None))
@example((["perft", "kalah", "9" * 5001], None))
@example((["perft", "kalah", "1", "7" * 100], None))  # click's messages quoted it whole
@example((["perft", "kalah", "1", "--" + "7" * 100], None))
@example((["p" * 100, "kalah"], None))
def test_perft_counts_or_refuses_in_one_line(case: tuple[list[str], int | None]) -> None:
    args, leaves = case
    result = command(args)
    event(f"exit {result.exit_code}")
    if leaves is not None:
        assert result.exit_code == 0 and result.stdout.split()[0] == str(leaves)


@st.composite
def analyze_commands(draw: st.DrawFn) -> list[str]:
    state = draw(states(ENGINE_GAMES))
    depth = str(draw(st.integers(1, 3)))
    args = ["analyze", state.game.name, state.notation(), "--depth", depth, "--time", "0.05"]
    return draw(mutated_args(args + option_args(state.game)))


@boundary("parlour analyze", analyze_commands(), 0.3)
@example(["analyze", "kalah", "--time", "inf"])
@example(["analyze", "kalah", "--time", "nan"])
@example(["analyze", "kalah", "--time", "1e9999"])
@example(["analyze", "-h", "kalah", "--depth", "1"])
@example(["analyze", "ayo", "2,0,8,8,0,0,2,7,2,7,7,1 000000000001 0,4 0 5 0 1140032000749682198"])
def test_analyze_answers_or_refuses_in_one_line(args: list[str]) -> None:
    result = command(args)
    event(f"exit {result.exit_code}")
    if result.exit_code == 0:  # an answer, or the help a stray -h asks for
        assert "best move " in result.output or result.output.startswith("Usage: ")


@st.composite
def simulate_commands(draw: st.DrawFn) -> list[str]:
    deck = draw(st.sampled_from(["full", "small", "AC,KD,2H,3S"]))
    args = ["simulate", "war", "--games", "3", "--jobs", "1", "--deck", deck]
    args += ["--seed", str(draw(st.integers(0, 2**63 - 1)))]
    args += ["--max-rounds", str(draw(st.integers(1, 100)))]
    args += ["--pickup", draw(st.sampled_from(["shuffled", "winner_first", "played"]))]
    args += ["--long-game-winner", draw(st.sampled_from(["fewer", "more"]))]
    return draw(mutated_args(args))


@boundary("parlour simulate", simulate_commands(), 0.5)
@example(["simulate", "war", "--deck", "5"])
def test_simulate_answers_or_refuses_in_one_line(args: list[str]) -> None:
    result = command(args)
    event(f"exit {result.exit_code}")
    if result.exit_code == 0:
        assert "games" in result.output


PLAY = {
    "kalah": ["--players", "human,human", "--seed", "1", "--pits", "4", "--seeds", "3"],
    "mancala": ["--players", "human,human", "--time", "0.5", "--level", "2", "-o", "pits=5"],
    "ayo": ["--players", "human,human", "--max-rounds", "3", "-o", "first=0"],
    "gomoku": ["--players", "human,human", "--size", "9", "--exact-five"],
    "war": ["--fast", "--delay", "0", "--seed", "3", "--game", "4", "--max-rounds", "30"],
}


@boundary(
    "parlour play",
    st.sampled_from(sorted(PLAY)).flatmap(lambda g: mutated_args(["play", g, *PLAY[g]])),
    1,
)
@example(["play", "kalah", "--level", "٣"])
@example(["play", "ayo", "--max-rounds", "9223372036854775808"])
def test_play_sets_up_or_refuses_in_one_line(args: list[str]) -> None:
    """``play`` commands set up their game and stop before the first prompt."""
    with mock.patch("parlour.players.terminal.play_in_terminal", lambda *_, **__: 0):
        event(f"exit {command(args).exit_code}")


# ---------------------------------------------------------------- issue 43's boundaries

WAR_GAMES = (
    parlour.game("war", deck="small", pickup="played", max_rounds="none"),
    parlour.game("war", deck="small", pickup="winner_first", max_rounds=7),
    parlour.game("war", deck="AS,KS,QS,JS,10S,9S", max_rounds=20, seed=4),
    parlour.game("war", max_rounds=40, seed=9),
)
"""War's rule sets the fuzz plays: both pickups that can cycle, a round limit, a full deck."""
SMALL_WAR = "AC,JC,QC,KC/AD,JD,QD,KD"


def check_war_position(game: Game, text: str) -> None:
    """A War position read is one the rules can reach (issue 43, 14): every card once
    while the game goes on, counters that fit the kernel, battles = rounds + wars."""
    from parlour.games.war.game import MAX_COUNT, WarState

    outcome = bounded(lambda: game.parse(text))
    if answered(outcome, BadPosition, text):
        return
    assert isinstance(outcome, WarState)
    assert outcome.game.parse(outcome.notation()) == outcome
    rounds, battles, wars = outcome.counters
    assert max(outcome.counters) <= MAX_COUNT and battles == rounds + wars
    cards = outcome.stacks[0] + outcome.stacks[1]
    if outcome.end_reason.name != "OUT_OF_CARDS":
        assert sorted(cards) == sorted(outcome.game.rules.deck)
    if not outcome.is_over:  # a round, or the end when a player has no card to put
        assert outcome.play("round").rounds - rounds in (0, 1)


@boundary(
    "War positions",
    st.sampled_from(WAR_GAMES)
    .flatmap(
        lambda game: st.tuples(
            st.just(game),
            st.integers(0, 2**32).map(
                lambda n: random_play(game.start(), random.Random(n), n % 300).notation()
            ),
        )
    )
    .flatmap(lambda case: st.tuples(st.just(case[0]), inputs(st.just(case[1])))),
    4,
)
@example((WAR_GAMES[0], "QC,AD,JC/KC,JD,AC,KD 0 0 0 64f8006e9238cdb0 -"))  # 7 of 8 cards
@example((WAR_GAMES[3], "AS/KS 0 0 0 1 -"))  # 2 of 52
@example((WAR_GAMES[1], f"{SMALL_WAR} 55 55 0 1 -"))  # 48 rounds past a limit of 7
@example((WAR_GAMES[0], f"{SMALL_WAR} 3 3 0 1 out_of_cards:1"))  # both hold cards
@example((WAR_GAMES[0], f"{SMALL_WAR} 0 0 0 1 cycle:-"))  # a cycle at round 0
@example((WAR_GAMES[0], f"{SMALL_WAR}\xa00 0 0 1 -"))  # a non-breaking space
@example((WAR_GAMES[0], f"{SMALL_WAR} 2147483647 2147483647 0 1 -"))  # wraps in int32
@example((WAR_GAMES[0], f"{SMALL_WAR} 0 2147483648 0 1 -"))  # beyond int32
def test_war_positions_are_reachable_or_refused(case: tuple[Game, str]) -> None:
    check_war_position(*case)


@st.composite
def saved_games(draw: st.DrawFn) -> str:
    """A saved game's text: of a game played at random, mutated, nested or cut."""
    from parlour.records.saved import SavedGame

    state = draw(states())
    rng = random.Random(draw(st.integers(0, 2**32)))
    start = state.game.start()
    moves, here = [], start
    for _ in range(draw(st.integers(0, 40))):
        if here.is_over:
            break
        move = rng.choice(here.legal_moves())
        moves.append(move)
        here = here.play(move)
    text = SavedGame.of(start, moves).to_text()
    depth = draw(st.integers(1, 200))
    return draw(
        st.one_of(
            st.just(text),
            mutated(st.just(text)),
            st.just(text.replace('"moves": [', '"moves": ' + "[" * depth, 1)),
            st.just(text.replace('"version": 1', '"version": ' + "9" * depth * 25, 1)),
            st.text(ALPHABET + '[]{}"', max_size=80),
        )
    )


def check_saved_game(text: str) -> None:
    from parlour.records.saved import SavedGame

    outcome = bounded(lambda: SavedGame.from_text(text).replay())
    if not answered(outcome, ParlourError, text):
        assert isinstance(outcome, State)


@boundary("saved games", saved_games(), 3)
@example("[" * 100_000 + "]" * 100_000)  # issue 43, 5: RecursionError
@example('{"a":' * 50_000 + "1" + "}" * 50_000)
@example('{"format": "parlour-game", "version": ' + "9" * 5000 + "}")  # Python's digit limit
@example('{"format": "parlour-game", "version": "' + "9" * 5000 + '"}')  # quoted whole
def test_saved_games_replay_or_are_refused(text: str) -> None:
    check_saved_game(text)


@st.composite
def psq_records(draw: st.DrawFn) -> str:
    """A ``.psq`` record of a five-in-a-row game played at random, mutated or cut."""
    from parlour.games.gomoku.psq import to_psq

    state = draw(states(tuple(g for g in GAMES if g.name == "gomoku")))
    start = state.game.start()
    rng = random.Random(draw(st.integers(0, 2**32)))
    moves, here = [], start
    for _ in range(draw(st.integers(0, 30))):
        if here.is_over:
            break
        move = rng.choice(here.legal_moves())
        moves.append(move)
        here = here.play(move)
    points = [cast("tuple[int, int]", move) for move in moves]
    return draw(inputs(st.just(to_psq(start.game.options["size"], points))))


def check_psq(text: str) -> None:
    from parlour.games.gomoku.psq import from_psq

    outcome = bounded(lambda: from_psq(text).replay())
    if not answered(outcome, BadPosition, text):
        assert isinstance(outcome, State)


@boundary(".psq records", psq_records(), 3)
@example("Piskvorky 15x15, 11:11, 0\n" + "9" * 5000 + ",3,0\n")  # issue 43, 4
@example("Piskvorky " + "9" * 5000 + "x15, 11:11, 0\n")
@example("Piskvorky 15x15, 11:11, 0\n3,3," + "9" * 5000 + "\n")
def test_psq_records_replay_or_are_refused(text: str) -> None:
    check_psq(text)


def read_lines(data: bytes) -> tuple[list[str | None], str]:
    """The lines the terminal's pipe reader gives for ``data`` (to the end of input), and
    what it wrote meanwhile."""
    import asyncio
    import io
    import os

    from parlour.players.keyboard import Keyboard

    read, write = os.pipe()
    os.write(write, data)  # a pipe holds 64 KiB: the fuzz's inputs are smaller
    os.close(write)
    out = io.StringIO()

    async def lines() -> list[str | None]:
        keys, got = Keyboard(read, out), list[str | None]()
        while not got or got[-1] is not None:
            got.append(await keys.readline("> "))
        return got

    try:
        return asyncio.run(lines()), out.getvalue()
    finally:
        os.close(read)


@boundary("terminal bytes", st.lists(st.binary(max_size=40), max_size=6), 2)
@example([b"\xff"])  # issue 43, 9: the line reader died on it
@example([b"\xc3", b"a\xe2\x82"])
def test_the_terminals_reader_names_bytes_that_are_not_text(lines: list[bytes]) -> None:
    data = b"\n".join(lines)
    got, said = read_lines(data)
    texts = [line for line in got if line is not None]
    assert got[-1] is None and all(isinstance(line, str) for line in texts)
    unreadable = 0
    for raw in data.split(b"\n"):
        try:
            raw.decode()
        except UnicodeDecodeError:
            unreadable += 1
    assert said.count("not text") == unreadable


@boundary("parlour rules", inputs(st.sampled_from(sorted(rule_games()))), 0.5)
@example("k" * 300)  # a traceback: a file name too long
@example("../__init__")  # a path, not a game
@example("--")
def test_rules_of_a_game_or_a_refusal_in_one_line(name: str) -> None:
    result = command(["rules", name])
    event(f"exit {result.exit_code}")
    asked = name.lower() in rule_games() or name.startswith("-")  # -h, or -- before none
    assert result.exit_code == 2 or asked


LINES = (
    "START 15",
    "START 5",
    "RECTSTART 20,20",
    "RESTART",
    "BEGIN",
    "TURN 7,7",
    "TURN 2,3",
    "TAKEBACK 7,7",
    "BOARD\n7,7,1\n8,8,2\n0,0,3\nDONE",
    "INFO timeout_turn 0",
    "INFO time_left -5",
    "INFO max_memory 70000000",
    "INFO rule 1",
    "ABOUT",
    "END",
)
"""Lines of the Gomocup protocol (a ``BOARD`` with its stones and ``DONE``)."""


class QuickThinker:
    """The brain's search as a quick move: the protocol, not the search, is fuzzed."""

    seconds: float | None = None
    table_bits = 0

    def best_move(self, state: Any, stop: Any) -> tuple[tuple[int, int], None]:
        from parlour.games.gomoku.gomocup.brain import quick_move

        return quick_move(state), None


def talk(lines: list[str]) -> list[tuple[str, list[str]]]:
    """Each of ``lines`` (then ``END``) given to a brain whose search is quick, with what
    the brain answered to it (its move included)."""
    import io

    from parlour.games.gomoku.gomocup.brain import Brain

    out = io.StringIO()
    with mock.patch.object(Brain, "_load", lambda _: None):  # no search to load
        brain = Brain(out)
    brain._thinker = cast("Any", QuickThinker())
    brain.ready.set()
    said: list[tuple[str, list[str]]] = []
    for line in [*lines, "END"]:
        start = len(out.getvalue())
        going = bounded(partial(brain.handle, line))
        deadline = time.monotonic() + BOUND
        while brain._busy and time.monotonic() < deadline:  # the move, from its thread
            time.sleep(0.001)
        assert not brain._busy, f"hang: no move after {line!r}"
        said.append((line, out.getvalue()[start:].splitlines()))
        if going is False:
            break
    return said


ANSWER = re.compile(r"OK|\d+,\d+|(ERROR|UNKNOWN|MESSAGE) .+|name=.+")


@boundary("Gomocup protocol", st.lists(inputs(st.sampled_from(LINES)), max_size=8), 2)
@example(["START ²"])  # issue 43, 1 to 3 (crashes before the first round)
@example(["START " + "9" * 5000])
@example(["START 15", "INFO timeout_turn 100000000000000000000", "TURN 7,7"])
@example(["START ١٥", "TURN １٥,2"])
@example(["START 15", "TAKEBACK " + "0" * 100 + "3,3"])  # the point quoted whole
@example(["START 15", "TURN 7,7", "TURN " + "0" * 100 + "7,7"])
@example(["START 15", "BOARD", "0" * 100 + "1,1,1", "1,1,2", "DONE"])
@example(["X" * 100])
def test_the_brain_answers_each_line_in_one_line(lines: list[str]) -> None:
    from parlour.games.gomoku.gomocup.protocol import MAX_SIZE

    for line, answers in talk([part for text in lines for part in text.split("\n")]):
        for answer in answers:
            assert ANSWER.fullmatch(answer), f"{line!r}: {answer!r}"
            assert not repeated(line, answer), f"refusal repeats the text uncut: {answer}"
            if re.fullmatch(r"\d+,\d+", answer):
                assert all(int(n) < MAX_SIZE for n in answer.split(","))


WEB_MESSAGES = (
    '{"type": "hello"}',
    '{"type": "hello", "token": "abc", "seat": 1}',
    '{"type": "move", "move": "C", "at": 3}',
    '{"type": "undo", "at": 12}',
    '{"type": "resign"}',
    '{"type": "hint", "seat": 0}',
    '{"type": "sync"}',
)
"""Messages a browser sends the server."""
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=6,
)


@st.composite
def web_messages(draw: st.DrawFn) -> str:
    """A browser's message: as sent, mutated, or with a field of any JSON value."""
    text = draw(inputs(st.sampled_from(WEB_MESSAGES)))
    if draw(st.booleans()):
        field = draw(st.sampled_from(["type", "move", "at", "seat", "token"]))
        message = {"type": "move", "move": "C", "at": 1, field: draw(JSON_VALUES)}
        text = json.dumps(message)
    return text


@boundary("web messages", web_messages(), 1)
@example('{"type": {}}')  # a TypeError: not a type's name
@example('{"type": "' + "x" * 900 + '"}')  # quoted whole
@example('{"type": "hello", "seat": ' + "9" * 900 + "}")
def test_web_messages_are_read_or_refused_in_one_line(text: str) -> None:
    from parlour.web.protocol import FIELDS, parse
    from parlour.web.tables import Refused

    def read() -> object:
        try:
            return parse(text)
        except Refused as error:  # the sender is told its message: checked as parlour's
            return ParlourError(str(error))

    outcome = bounded(read)
    if not answered(outcome, ParlourError, text):
        assert isinstance(outcome, dict) and outcome["type"] in FIELDS


# ---------------------------------------------------------------- the issue's twelve

B = 2**62
HANG = f"{B},{B},48,0,0,0,0,0,0,0,0,0 000000111111 {B},{B} 0 1 0 -"
"""Issue 19's first reproduction: the total passes after a 64-bit overflow, then the
legal-move test would sow 2**62 tokens."""


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (  # 1: a hang in the legal-move test, after the total overflowed
            lambda: parlour.game("ayo").parse(HANG),
            BadPosition,
            f"each number of the board must be at most 48, not {B}",
        ),
        (  # 2: a board whose 64-bit sum wraps to 48
            lambda: parlour.game("ayo").parse(
                f"{B},{B},{B},{B},48,0,0,0,0,0,0,0 000000111111 0,0 0 1 0 -"
            ),
            BadPosition,
            f"each number of the board must be at most 48, not {B}",
        ),
        (  # 2: beyond 64 bits
            lambda: parlour.game("ayo").parse(
                f"4,4,4,4,4,4,4,4,4,4,4,4 000000111111 0,0 0 {2**70} 0 -"
            ),
            BadPosition,
            f"the round must be at most 10000, not {2**70}",
        ),
        (  # 3: beyond the sowing board's 16 bits
            lambda: parlour.game("kalah").parse("40000,0,0,0,0,0/0/0,0,0,0,0,0/0 0"),
            BadPosition,
            "each number of player 0's pits must be at most 48, not 40000",
        ),
        (  # 4: digits int() does not read
            lambda: parlour.game("kalah").start().parse_move("²"),
            IllegalMove,
            "not a pit: type a letter A..F; write numbers with the digits 0-9",
        ),
        (
            lambda: parlour.game("ayo", first=0).start().parse_move("1" * 5000),
            IllegalMove,
            "type the number of one of your houses, 0..11",
        ),
        (
            lambda: parlour.game("gomoku").start().parse_move("H²"),
            IllegalMove,
            "like H8; write numbers with the digits 0-9",
        ),
        (
            lambda: parse_card("①"),
            BadOption,
            "'①' is not a card: write a number 0..51 or a name like KS or 10H; write numbers "
            "with the digits 0-9",
        ),
        (  # 7: a round limit beyond 64 bits
            lambda: parlour.game("ayo", max_rounds=2**63),
            BadOption,
            "option max_rounds must be at most 10000, not 9223372036854775808",
        ),
        (  # 10: unreachable finished games
            lambda: parlour.game("ayo").parse("0,0,0,0,0,0,0,0,0,0,0,0 000000111111 24,24 - 1 0 -"),
            BadPosition,
            "a game is over only when a player holds all 48 tokens or after its last round "
            "(none in this game)",
        ),
        (
            lambda: parlour.game("ayo", max_rounds=3).parse(
                "0,0,0,0,0,0,0,0,0,0,0,0 000000111111 24,24 - 1 0 -"
            ),
            BadPosition,
            "after its last round (round 3)",
        ),
        (  # 11: War's options are type-checked
            lambda: war_rules(deck=5),
            BadOption,
            "option deck must be text, not 5",
        ),
        (
            lambda: war_rules(deck=True),
            BadOption,
            "option deck must be text, not True",
        ),
        (  # 12: too long a number to write in the message
            lambda: parlour.game("kalah", pits=10**5000),
            BadOption,
            "option pits must be at most 16, not a number of more than 30 digits",
        ),
    ],
)
def test_the_issues_reproductions_are_refused_in_one_line(
    call: Callable[[], object], error: type[ParlourError], message: str
) -> None:
    outcome = bounded(call)
    assert refused(outcome, error)
    assert message in str(outcome)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (  # 1
            ["perft", "ayo", "1", "--position", HANG],
            f"Invalid value for --position: each number of the board must be at most 48, not {B}",
        ),
        (  # 3
            ["analyze", "kalah", "40000,0,0,0,0,0/0/0,0,0,0,0,0/0 0"],
            "Invalid value for POSITION: each number of player 0's pits must be at most 48",
        ),
        (  # 5
            ["analyze", "kalah", "--time", "inf"],
            "Invalid value for '--time': the time must be a number of seconds like 2 or 0.5, "
            "not 'inf'",
        ),
        (["analyze", "kalah", "--time", "90000"], "the time must be 0.01 to 86400 seconds"),
        (  # 6
            ["perft", "kalah", "99999999999999999999"],
            "Invalid value for 'DEPTH': the depth must be at most 99, not 99999999999999999999",
        ),
        (  # 7
            ["perft", "ayo", "2", "-o", "max_rounds=9223372036854775808"],
            "Error: option max_rounds must be at most 10000, not 9223372036854775808",
        ),
        (  # the leniencies: only the digits 0-9, no sign
            ["perft", "kalah", "٣"],
            "the depth must be a whole number, not '٣'; write numbers with the digits 0-9",
        ),
        (
            ["perft", "kalah", "+4"],
            "the depth must be a whole number, not '+4'; write numbers without a sign",
        ),
        (["play", "kalah", "--pits", "４"], "option pits must be a whole number, not '４'"),
        (  # RULES.md: max_rounds = none plays to the end; an empty value is no value
            ["simulate", "war", "--max-rounds", "", "--pickup", "played"],
            "option max_rounds must be a whole number, not ''",
        ),
        (["play", "ayo", "-o", "max_rounds="], "option max_rounds must be a whole number, not ''"),
    ],
)
def test_the_issues_command_lines_are_refused_in_one_line(args: list[str], message: str) -> None:
    result = command(args)
    assert result.exit_code == 2 and message in result.output


@pytest.mark.parametrize(("first", "houses"), [([], range(6)), (["-o", "first=1"], range(6, 12))])
def test_ayo_perft_divides_from_player_0_unless_told(first: list[str], houses: range) -> None:
    """8: RULES.md's Ayo perft starts with player 0, never by lot (three runs, three lots)."""
    for _ in range(3):
        lines = command(["perft", "ayo", "2", "--divide", *first]).stdout.splitlines()
        assert lines[0] == "32"
        assert [int(line.split(":")[0]) for line in lines[1:-1]] == list(houses)


@pytest.mark.parametrize("max_rounds", [None, 1, 2])
def test_finished_ayo_games_read_back(max_rounds: int | None) -> None:
    """9: the notation of a finished game reads back to an equal state."""
    for seed in range(5):
        state = parlour.game("ayo", max_rounds=max_rounds, seed=seed).start()
        state = random_play(state, random.Random(seed), 100_000)
        assert state.is_over and state.notation().endswith(" -")
        assert state.game.parse(state.notation()) == state


# ---------------------------------------------------------------- the volume run


@pytest.mark.slow
def test_the_volume_run_fuzzes_each_boundary_it_is_given() -> None:
    """``benchmarks/fuzz.py --quick``: its boundaries, each input counted once whichever
    of the two processes drew it, none failing."""
    from test_benchmarks import quick

    _, figures = quick("fuzz", "--jobs", "2")
    assert set(figures) == {"typed moves", "saved games", "Gomocup protocol"}
    for counts in figures.values():
        assert counts["inputs"] == 5 and len(counts["load"]) == 2
        assert counts["crashes"] == counts["hangs"] == counts["invalid accepted"] == 0


def test_the_volume_run_counts_each_kind_of_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    """A failing input is counted by its kind and the next one is still checked."""
    from test_benchmarks import BENCHMARKS, load

    monkeypatch.syspath_prepend(str(BENCHMARKS))
    volume = load("fuzz")

    def check(n: int) -> None:
        assert n != 1, "hang: no answer"
        assert n != 2, "refusal: two lines"
        assert n != 3, "reads back otherwise"
        if n == 4:
            raise KeyError(n)

    counts = volume.fuzz(st.integers(0, 4), check, 200)
    assert counts["inputs"] >= 5  # each of the five values at least once
    assert [counts[kind] for kind in volume.KINDS] == [1, 1, 1, 1]
    assert "KeyError(4)" in counts["first of crashes"]
    assert counts["first of hangs"].startswith("1 -> ")


def test_every_number_of_every_command_goes_through_parlours_reader() -> None:
    """15: ``parlour solve --max-seeds ٣`` was read as 3 by click's own integer type (and
    a solve started); every number a command takes is read by ``core.parse_whole`` or
    ``parse_seconds``, which refuse other scripts' digits, signs and such."""

    def numbers(command: click.Command, path: str) -> list[str]:
        if isinstance(command, click.Group):
            return [n for name, c in command.commands.items() for n in numbers(c, f"{path} {name}")]
        plain = (click.types.IntParamType, click.types.FloatParamType)
        return [f"{path} --{p.name}" for p in command.params if isinstance(p.type, plain)]

    assert numbers(main, "parlour") == []
    result = command(["solve", "kalah", "--max-seeds", "٣"])
    assert result.exit_code == 2 and "write numbers with the digits 0-9" in result.output
