"""Seed 001's screens for the mancala family (``mancala``, ``kalah``) at the terminal.

The seed shows: a separator when a turn begins; for a person, the board and
``1. Select a move (A..F)->`` (the number counts that person's turns), then
``You get another move ->`` after an extra turn; for the computer ``Computer chooses C``
and ``Computer gets another move.``; after every sowing the board as sown, and when seeds
are captured ``Squares in column D are captured.`` and the board after the capture.
"""

from __future__ import annotations

from collections.abc import Sequence

from parlour.actors import Moved, Outcome, View
from parlour.core import State
from parlour.games.sowing.game import LETTERS, SowReport
from parlour.players.screen import BoardScreen, Seat, final_words


class SowingScreen(BoardScreen):
    """The texts of seed 001 (see the module's docstring); the Screen of the sowing games."""

    def opening(self, start: State, seats: Sequence[Seat]) -> str:
        title = start.game.name.capitalize()
        first = seats[start.to_move]
        humans = [seat for seat in seats if seat.human]
        if len(humans) == 1:
            mine = seats.index(humans[0])
            against = "where you are playing against a computer opponent"
            goes = "you get to go first" if first.human else f"the {first.name.lower()} goes first"
            rows = f"Your holes are on the {_row(mine)} row and {goes}."
        else:
            against = "for two players" if humans else "between two computer players"
            rows = (
                f"{seats[0].name}'s holes are on the bottom row, {seats[1].name}'s on the top "
                f"row, and {first.name} goes first."
            )
        return f"Welcome to the game of {title}, {against}.  {rows}\n"

    def prompt(self, view: View, seats: Sequence[Seat]) -> str:
        """The seed's prompt, or after an extra turn its "You get another move ->"."""
        if not view.again:
            return super().prompt(view, seats)
        name = seats[view.state.to_move].name
        who = "You get" if name == "You" else f"{name} gets"
        return f"\n{who} another move -> "

    def question(self, view: View) -> str:
        last = LETTERS[int(view.state.game.options["pits"]) - 1]
        return f"Select a move (A..{last})"

    def moved(self, event: Moved, seats: Sequence[Seat]) -> str:
        report: SowReport = event.account
        seat = seats[event.player]
        lines = []
        if not seat.human:
            if not event.again:
                lines.append(f"\n{self.separator}\n")
            lines.append(f"{seat.name} chooses {event.name}\n")
        lines.append(f"\n{report.sown.render()}\n")
        if report.capture_column is not None:
            column = LETTERS[report.capture_column]
            lines.append(f"\nSquares in column {column} are captured.\n")
        if report.game_over:  # the board after the collection, which the capture's would hide
            lines.append(
                "\nA row is empty: the game is over, and each row's seeds go to its store.\n"
            )
        if report.capture_column is not None or report.game_over:
            lines.append(f"\n{event.after.render()}\n")
        elif report.extra_turn and not seat.human:
            lines.append(f"\n{seat.name} gets another move.\n")
        return "".join(lines)

    def ending(self, outcome: Outcome, names: Sequence[str]) -> str:
        assert outcome.scores is not None  # a Referee's outcome has them
        score = f"{names[0]} {outcome.scores[0]}, {names[1]} {outcome.scores[1]}."
        return final_words(outcome, names, "Final score:", score)


def _row(player: int) -> str:
    return "bottom" if player == 0 else "top"
