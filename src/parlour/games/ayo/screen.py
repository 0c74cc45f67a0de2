"""Ayo's screens at the terminal (seed 000): the board as the seed draws it, a short account
of what each move did (the relays, every capture and who got it, the passes), and between
rounds a summary of the tokens held and the houses they bought.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from parlour.actors import Moved, Outcome, View
from parlour.core import State
from parlour.games.ayo.game import AyoReport, AyoState, Capture
from parlour.players.screen import BoardScreen, Seat, act, final_words


class AyoScreen(BoardScreen):
    """The texts of ``parlour play ayo``; the Screen of Ayo."""

    width = 52

    def opening(self, start: State, seats: Sequence[Seat]) -> str:
        assert isinstance(start, AyoState)
        return (
            f"Welcome to Ayo.  {act(seats[0].name, 'owns', 'own')} houses 0-5 (the bottom row), "
            f"{seats[1].name} houses 6-11 (the top row).  Sowing goes from house to house "
            "anticlockwise; a house made up to four is captured by its owner, or by the "
            "sower with the last token of a hand, and a last token in a house that is "
            "neither empty nor four is taken up and sown on.  Each four captured buys a "
            "house for the next round.  "
            f"{act(seats[start.starter].name, 'starts', 'start')} the first round.\n"
        )

    def board(self, state: State, seats: Sequence[Seat]) -> str:
        """The board as the game draws it, its players called as on the rest of the screen
        ("You to move", "Computer captured 8"), the rows too ("You", "Computer" where the
        drawing says P1 and P2), the grid moved right to keep the columns."""
        names = [seat.name for seat in seats]
        width = max(map(len, names))
        lines = re.sub(r"Player ([12])", lambda m: names[int(m.group(1)) - 1], state.render())
        first, *grid = lines.split("\n")
        rows = {"  P1  ": names[0], "  P2  ": names[1]}
        return "\n".join(
            [first]
            + [
                f"  {rows[line[:6]]:<{width}}  {line[6:]}"
                if line[:6] in rows
                else " " * (width - 2) + line
                for line in grid
            ]
        )

    def question(self, view: View) -> str:
        houses = ", ".join(view.state.move_name(m) for m in view.legal_moves)
        return f"Choose a house ({houses})"

    def moved(self, event: Moved, seats: Sequence[Seat]) -> str:
        report: AyoReport = event.account
        after = event.after
        assert isinstance(after, AyoState)
        names = [seat.name for seat in seats]
        lines = [] if seats[event.player].human else [f"\n{self.separator}\n"]
        lines.append(f"{act(names[event.player], 'sows', 'sow')} house {report.house}.\n")
        if report.relays:
            (house, tokens), *more = report.relays
            then = "".join(f", then house {h} ({n})" for h, n in more)
            lines.append(
                f"  The last token fell in house {house}: its {tokens} tokens are taken up "
                f"and sown on{then}.\n"
            )
        lines.extend(f"  {_capture(c, names, event.player)}\n" for c in report.captures)
        lines.extend(
            f"  {act(names[p], 'has', 'have')} no legal move: the turn passes.\n"
            for p in report.passes
        )
        if report.round_end is not None:
            end = report.round_end
            held = (
                f"{act(names[0], 'holds', 'hold')} {end.held[0]} tokens, {names[1]} {end.held[1]}"
            )
            lines.append(f"\nRound {end.round} is over: {end.reason}.  {held}.\n")
            if end.houses is not None:
                owned = " and ".join(
                    f"{act(names[p], 'owns', 'own')} {_houses(after.owners, p)}" for p in range(2)
                )
                lines.append(f"Round {after.round}: {owned}; {names[after.starter]} starts.\n")
        # a person's new turn shows the board; a move again (after a pass) does not
        shown_next = (
            not after.is_over and seats[after.to_move].human and after.to_move != event.player
        )
        if not shown_next:
            lines.append(f"\n{self.board(after, seats)}\n")
        return "".join(lines)

    def ending(self, outcome: Outcome, names: Sequence[str]) -> str:
        assert outcome.scores is not None  # a Referee's outcome has them
        score = (
            f"{act(names[0], 'holds', 'hold')} {outcome.scores[0]} tokens, "
            f"{names[1]} {outcome.scores[1]}."
        )
        return final_words(outcome, names, "The game is over.", score)


def _capture(capture: Capture, names: Sequence[str], sower: int) -> str:
    """One capture in words, naming who got the tokens."""
    who = names[capture.player]
    if capture.kind == "owner":
        whose = "" if capture.player == sower else ", on the other player's turn"
        takes = act(who, "takes", "take")
        return f"House {capture.house} made four: {takes} them, as its owner{whose}."
    if capture.kind == "sower":
        return (
            f"The last token made four in house {capture.house}: {act(who, 'takes', 'take')} them."
        )
    if capture.kind == "last four":
        return f"That was the eleventh group: {act(who, 'takes', 'take')} the last four tokens too."
    whose = "your" if who == "You" else "their"
    return f"{act(who, 'gets', 'get')} the {capture.tokens} tokens left in {whose} houses."


def _houses(owners: tuple[int, ...], player: int) -> str:
    """The houses ``player`` owns, in sowing order from their own row ("6-11, 0")."""
    first = 0 if player == 0 else 6
    mine = [h % 12 for h in range(first, first + 12) if owners[h % 12] == player]
    if not mine:
        return "no house"
    runs: list[list[int]] = []
    for house in mine:
        if runs and house == runs[-1][-1] + 1:
            runs[-1].append(house)
        else:
            runs.append([house])
    text = ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)
    count = len(mine)
    return f"{count} house{'s' if count > 1 else ''} ({text})"
