"""Seed 002's screens for five in a row at the terminal.

A separator and the board when a person's turn begins, with its coordinates, the last
stone in [brackets] and, at the end, the five in (parentheses); the prompt names the
stone to play and the range of points (``1. Your move, X (A1..O15)->``); a program's move
in words (``Computer plays 0 at H9.``).
"""

from __future__ import annotations

from collections.abc import Sequence

from parlour.actors import Moved, Outcome, Reason, View
from parlour.core import State
from parlour.players.screen import BoardScreen, Seat, act, final_words

STONES = ("X", "0")


class GomokuScreen(BoardScreen):
    """The texts of ``parlour play gomoku``: a Screen of the terminal player."""

    def opening(self, start: State, seats: Sequence[Seat]) -> str:
        size = start.game.options["size"]
        rule = "exactly five" if start.game.options["exact_five"] else "five or more"
        players = f"X, moving first: {seats[0].name}; 0: {seats[1].name}"
        centre = start.move_name((size // 2, size // 2))
        return (
            f"Five in a row on a {size}x{size} board: {rule} stones in a row, a column or a "
            f"diagonal win.  {players}.  Type a point as its column letter and row number, "
            f"like {centre}.\n"
        )

    def question(self, view: View) -> str:
        state = view.state
        last = state.move_name((0, int(state.game.options["size"]) - 1))
        return f"Your move, {STONES[state.to_move]} (A1..{last})"

    def moved(self, event: Moved, seats: Sequence[Seat]) -> str:
        """A program's move in words, and the board unless a person's turn or the end
        shows it next; a person's own move needs no words."""
        seat = seats[event.player]
        if seat.human:
            return ""
        after = event.after
        text = f"\n{act(seat.name, 'plays', 'play')} {STONES[event.player]} at {event.name}.\n"
        if not (after.is_over or seats[after.to_move].human):
            text += f"\n{after.render()}\n"
        return text

    def ending(self, outcome: Outcome, names: Sequence[str]) -> str:
        """The final board, then who won: the five, a full board, or how else it ended."""
        assert outcome.final is not None  # a Referee's outcome has it
        board = f"{outcome.final.render()}\n\n"
        if outcome.reason is not Reason.RULES:
            return board + final_words(outcome, names, "", "")
        if outcome.winner is None:
            return f"{board}The board is full: it is a draw."
        winner = names[outcome.winner]
        five = f"five in a row for {STONES[outcome.winner]}"
        return f"{board}{'You win' if winner == 'You' else f'{winner} wins'}: {five}!"
