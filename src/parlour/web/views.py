"""What the browser is shown: positions and events as plain JSON values.

Everything a page learns of a game goes through this module, so it is the one place to
check that nothing hidden leaves the server: a position is drawn from what the board shows
(pits, stores, houses and their owners, stones), moves by their names as a person types
them, and War only by what the table shows (the face-up cards, how many cards lie face
down, how many each stack holds) — never a stack's order, and no random seed (options
named ``seed`` are left out of every view).
"""

from __future__ import annotations

from typing import Any

from parlour.actors import Moved, Outcome, Reason, TakenBack
from parlour.core import Game, State
from parlour.kit import kit_of

Json = dict[str, Any]
SECRET_OPTIONS = frozenset({"seed"})
"""Options the server draws itself and never shows: the seed of Ayo's lots and War's deal."""


def public_options(game: Game) -> Json:
    """The rule options of ``game`` a page may see (all but the seeds)."""
    return {k: v for k, v in game.options.items() if k not in SECRET_OPTIONS}


def position(state: State) -> Json:
    """The board as it stands, the side to move and its legal moves by name."""
    over = state.is_over
    view: Json = {
        "to_move": None if over else state.to_move,
        "over": over,
        "winner": state.winner if over else None,
        "legal": [] if over else [state.move_name(m) for m in state.legal_moves()],
        "notation": state.notation(),
    }
    return view | board(state)


def board(state: State) -> Json:
    """What the board shows and nothing more: a position a move passes through (a
    sowing before its capture), which the page animates but nobody plays from."""
    return {"scores": list(state.scores)} | kit_of(state.game).view(state)


def moved(event: Moved, names: tuple[str, str]) -> Json:
    """A move: who played what, the position after it, and the game's account in words
    (with the sowing's intermediate position, for the page's seed-by-seed animation)."""
    view: Json = {
        "kind": "moved",
        "player": event.player,
        "move": event.name,
        "again": event.again,
        "words": account_words(event, names),
        "position": position(event.after),
    }
    positions = kit_of(event.after.game).account_positions(event.account)
    return view | {name: board(state) for name, state in positions.items()}


def account_words(event: Moved, names: tuple[str, str]) -> list[str]:
    """What the move did beyond the move itself, one sentence each, the mover called by
    the name of its seat ("Computer (level 3) captures ...")."""
    who = names[event.player]
    return kit_of(event.after.game).account_words(who, event.account)


def taken_back(event: TakenBack) -> Json:
    return {
        "kind": "taken_back",
        "player": event.player,
        "moves": event.moves,
        "position": position(event.state),
    }


def outcome(result: Outcome, names: tuple[str, str]) -> Json:
    """The end of a turn-based game in words: who won and how ("Player 1 wins, 30 to
    18.", "Computer (level 3) wins: Player 1 resigned.")."""
    final, scores = result.final, result.scores
    assert final is not None and scores is not None  # a Referee's outcome has both
    if result.forfeit is not None:
        how = f": {names[result.forfeit]} {result.detail}"
    elif result.reason is Reason.ABORTED:
        how = f": {result.detail}"
    elif result.reason is Reason.AGREED:
        how = " by agreement"
    elif not kit_of(final.game).scored:
        how = ""
    else:  # the seeds (tokens) each took
        order = (1, 0) if result.winner == 1 else (0, 1)
        how = ", {} to {}".format(*(scores[seat] for seat in order))
    if result.winner is None:
        words = f"No winner{how}." if result.reason is Reason.ABORTED else f"A draw{how}."
    else:
        words = f"{names[result.winner]} wins{how}."
    return {
        "winner": result.winner,
        "reason": result.reason.value,
        "forfeit": result.forfeit,
        "detail": result.detail,
        "scores": list(scores),
        "words": words,
    }
