"""A recorded game shown again on the terminal, through the Referee and the game's own
screen: two players that answer each ``Play`` with the next recorded move (after a
pause, so a person can follow), and the terminal as the one observer.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from typing import Any, TextIO

from parlour.actors import Actor, Move, Play, Ref, run_game, spawn
from parlour.actors.runtime import Piped, Reply
from parlour.core import BadOption, IllegalReplay, State, game, replay
from parlour.kit import kit_of
from parlour.players.terminal import Seat, TerminalPlayer


class Script(Actor):
    """Plays the moves of a recorded game (in the game's notation) one by one, ``delay``
    seconds each; leaves the game when none is left (a game that ended by a forfeit)."""

    def __init__(self, moves: Sequence[str], delay: float) -> None:
        self.moves = list(moves)
        self.delay = delay
        self._answer: Reply | None = None

    async def receive(self, message: Any) -> None:
        match message:
            case Play(view) if self.moves:
                move = view.state.parse_move(self.moves.pop(0))
                self._answer = self.defer()
                self.pipe(asyncio.sleep(self.delay, Move(move)), "pause")
            case Play():
                self.stop("the record has no more moves")
            case Piped("pause", Move() as move, None) if self._answer is not None:
                self._answer.send(move)


class _NoKeys:
    """The replay asks nobody for a move."""

    async def readline(self, prompt: str = "") -> str | None:
        return None


def replay_game(row: dict[str, Any], delay: float, out: TextIO) -> int:
    """Show the game of a database row (``Records.game``); the exit status.  Every move
    is checked by the rules as it is replayed (IllegalMove for a damaged record)."""
    start = game(row["game"], **json.loads(row["options"])).parse(row["start"])
    moves = row["moves"].split()
    seats = movers(start, moves)
    try:
        asyncio.run(_replay(start, row, moves, seats, delay, out))
    except KeyboardInterrupt:
        out.write("\nInterrupted.\n")
        return 130
    out.write(f"\nRecorded: {row['reason']} ({row['detail']}), {row['score0']}-{row['score1']}.\n")
    return 0


def movers(start: State, moves: Sequence[str]) -> list[int]:
    """The player of each move (which also checks every move by the rules)."""
    try:
        played = replay(start, moves)
    except IllegalReplay as error:
        raise BadOption(error.within("the record")) from None
    return [before.to_move for before in [start, *(after for _, after in played[:-1])]]


async def _replay(
    start: State,
    row: dict[str, Any],
    moves: Sequence[str],
    movers: Sequence[int],
    delay: float,
    out: TextIO,
) -> None:
    screen = kit_of(start.game).screen(start.game.name)
    seats = [Seat(row["player0"], False), Seat(row["player1"], False)]
    terminal = spawn(TerminalPlayer(screen, seats, _NoKeys(), out))
    out.write(screen.opening(start, seats))
    players: list[Ref] = [
        spawn(Script([m for m, p in zip(moves, movers, strict=True) if p == seat], delay))
        for seat in (0, 1)
    ]
    await run_game(start, players, [terminal])
    for ref in (*players, terminal):
        ref.stop()
    await terminal.join()
