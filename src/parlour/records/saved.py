"""A game saved at the terminal (``save FILE``) and taken up again (``parlour play GAME
--load FILE``).

The file is JSON, small enough to read and write by hand::

    {"format": "parlour-game", "version": 1, "game": "kalah",
     "options": {"pits": 6, "seeds": 4, ...}, "start": "4,4,4,4,4,4/0/4,4,4,4,4,4/0 0",
     "moves": ["C", "F"]}

the rule set (the game and its options), the position the moves start from in the game's
notation, and the moves as a person types them.  Loading replays the moves, so a file
whose rules, position or moves are not the game's is refused with the reason.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from parlour.core import BadPosition, IllegalReplay, Move, State, game, replay, shown
from parlour.files import parse_json, read_text

FORMAT, VERSION = "parlour-game", 1


class Played(NamedTuple):
    """A game so far as the game takes it: where it began, its moves, where they lead."""

    first: State
    moves: tuple[Move, ...]
    state: State

    @classmethod
    def at(cls, state: State) -> Played:
        """A game that begins at ``state``, nothing played yet."""
        return cls(state, (), state)

    def turns(self) -> tuple[int, int]:
        """The turns each player has had in the moves, less one under way at the end (its
        player to move again, as after a Kalah move into the store): what a game played
        on from here adds to its own count of turns, so that a loaded game goes on
        counting where it was saved."""
        turns, state, last = [0, 0], self.first, None
        for move in self.moves:
            if state.to_move != last:
                turns[state.to_move] += 1
            last, state = state.to_move, state.play(move)
        if last is not None and last == state.to_move and not state.is_over:
            turns[last] -= 1
        return turns[0], turns[1]


@dataclass(frozen=True)
class SavedGame:
    """A game so far: the rule set, the position it starts from and the moves since."""

    game: str
    options: dict[str, Any]
    start: str
    moves: tuple[str, ...]

    @classmethod
    def of(cls, start: State, moves: Sequence[Move]) -> SavedGame:
        """The game played from ``start`` by ``moves``."""
        names, state = [], start
        for move in moves:
            names.append(state.move_name(move))
            state = state.play(move)
        return cls(start.game.name, dict(start.game.options), start.notation(), tuple(names))

    def to_text(self) -> str:
        fields = {"format": FORMAT, "version": VERSION, **self.__dict__, "moves": list(self.moves)}
        return json.dumps(fields, indent=1) + "\n"

    @classmethod
    def read(cls, path: str) -> SavedGame:
        """The saved game in the file at ``path``, read within parlour's limits
        (:mod:`parlour.files`); BadFile or BadPosition naming what is wrong."""
        return cls.from_text(read_text(path), path)

    @classmethod
    def from_text(cls, text: str, what: str = "the saved game") -> SavedGame:
        """The saved game in ``text`` (``what`` names it); BadPosition naming what is
        wrong (BadFile for JSON nested too deep or a number too long to be one)."""
        fields = parse_json(text, what)
        if not isinstance(fields, dict) or fields.get("format") != FORMAT:
            raise BadPosition(f'not a saved game: no "format": "{FORMAT}"')
        if fields.get("version") != VERSION:
            raise BadPosition(
                f"a saved game of version {shown(fields.get('version'))}, not {VERSION}"
            )
        name, options = fields.get("game"), fields.get("options")
        start, moves = fields.get("start"), fields.get("moves")
        if not (isinstance(name, str) and isinstance(options, dict) and isinstance(start, str)):
            raise BadPosition('a saved game needs "game", "options" and "start"')
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise BadPosition('a saved game\'s "moves" are a list of moves as typed')
        return cls(name, options, start, tuple(moves))

    def replay(self) -> State:
        """The position after the moves: BadOption or BadPosition if the file's rules or
        position are not the game's, BadPosition if a move is not legal where it is."""
        return self.played()[2]

    def played(self) -> Played:
        """The start, the moves as the game takes them, and the position after them (the
        errors of :meth:`replay`)."""
        start = game(self.game, **self.options).parse(self.start)
        try:
            played = replay(start, self.moves)
        except IllegalReplay as error:
            raise BadPosition(error.within("the saved game")) from None
        moves = tuple(move for move, _ in played)
        return Played(start, moves, played[-1][1] if played else start)
