"""``parlour play gomoku``: five in a row (seed 002) at the terminal.

By default a person plays X (moving first) against the computer at level 3 on a 15x15
board; ``--players`` seats anyone (``human``, ``computer:LEVEL``, ``random``), X first.
Points are typed as on a real board, column letter and row number: ``H8``.  The board is
drawn with its coordinates, the last stone in [brackets] and, at the end, the five in
(parentheses); a mistyped or taken point is explained and asked again.
"""

from __future__ import annotations

from collections.abc import Sequence

import click

from parlour.actors import Moved, Result, View
from parlour.cli import play
from parlour.cli._common import Seating, make_game, seating_flags, warming_up
from parlour.core import State
from parlour.players.terminal import Seat, act

SEPARATOR = "-" * 43
STONES = ("X", "0")


class GomokuScreen:
    """The texts of ``parlour play gomoku``: a Screen of the terminal player."""

    def opening(self, start: State, seats: Sequence[Seat]) -> str:
        size = start.game.options["size"]
        rule = "exactly five" if start.game.options["exact_five"] else "five or more"
        players = f"X, moving first: {seats[0].name}; 0: {seats[1].name}"
        return (
            f"Five in a row on a {size}x{size} board: {rule} stones in a row, a column or a "
            f"diagonal win.  {players}.  Type a point as its column letter and row number, "
            "like H8.\n"
        )

    def turn(self, view: View, seats: Sequence[Seat]) -> str:
        return f"\n{SEPARATOR}\n\n{view.state.render()}\n\n"

    def prompt(self, view: View, seats: Sequence[Seat]) -> str:
        state = view.state
        name = seats[state.to_move].name
        who = "" if name == "You" else f"{name}: "
        last = state.move_name((0, int(state.game.options["size"]) - 1))
        return f"{who}{view.turn}. Your move, {STONES[state.to_move]} (A1..{last})-> "

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

    def game_over(self, result: Result, seats: Sequence[Seat]) -> str:
        names = [seat.name for seat in seats]
        board = f"\n{SEPARATOR}\n\n{result.final.render()}\n\n"
        if result.forfeit is not None:
            return f"{board}{names[result.forfeit]} forfeits: {result.reason}.\n"
        if result.winner is None:
            return f"{board}The board is full: it is a draw.\n"
        winner = names[result.winner]
        five = f"five in a row for {STONES[result.winner]}"
        return f"{board}{'You win' if winner == 'You' else f'{winner} wins'}: {five}!\n"


@play.command("gomoku")
@seating_flags(
    order="X (first) then 0",
    level_help="The opponent's level: 1 greedy, 2-6 searching deeper and longer (7-8 play as 6).",
    first_help="Who plays X and moves first (default: the person).",
)
@click.option("--size", help="Points on a side, 5 to 26 (default 15).")
@click.option(
    "--exact-five", "exact_five", flag_value=True, default=None, help="Six or more do not win."
)
def gomoku(
    seating: Seating, size: str | None, exact_five: bool | None, option_texts: tuple[str, ...]
) -> None:
    """Play five in a row (seed 002) against the computer or another person."""
    from parlour.players.terminal import play_in_terminal

    specs = seating.specs if seating.first != 1 else (seating.specs[1], seating.specs[0])
    start = make_game("gomoku", option_texts, size=size, exact_five=exact_five).start()
    with warming_up():  # compile the rules and the engine before the first screen
        import parlour.search.gomoku  # noqa: F401

        start.play(start.legal_moves()[0])
    screen = GomokuScreen()
    raise SystemExit(play_in_terminal(start, specs, screen, seed=seating.seed, clear=seating.clear))
