"""War's kit: no levels (its players make no choices), how the learning frameworks see
it (``codec``), and the game a page watches (``show``)."""

from __future__ import annotations

from typing import Any

from parlour.core import Game, State, register
from parlour.encoding import Codec
from parlour.games.war.game import WarGame
from parlour.kit import ChanceStart, Kit, Show
from parlour.search import Level


class WarKit(Kit):
    @property
    def levels(self) -> tuple[Level, ...]:
        return ()

    def codec(self, start: State) -> Codec:
        from parlour.games.war.codec import WarCodec

        return WarCodec(start)

    def batch(self, rules: Game, size: int, seed: int) -> Any:
        from parlour.games.war.batch import WarBatch

        return WarBatch(rules, size, seed)

    draws = ("deals", 1000)

    def chance_start(self, rules: Game, draws: int | None) -> ChanceStart | None:
        """One of ``draws`` deals of the run the options' seed makes."""
        assert isinstance(rules, WarGame) and draws is not None
        return ChanceStart("deal", draws, rules.deal)

    watched = True

    def show(self, game: Game, listener: Any) -> Show:
        from parlour.games.war.view import WarShow

        assert isinstance(game, WarGame)
        return WarShow(game, listener)


KIT = WarKit()
register("war", WarGame, "War: no choices, each move plays a round", kit=KIT)
