"""War's kit: no levels (its players make no choices), the table on screen."""

from __future__ import annotations

from parlour.core import register
from parlour.games.war.game import WarGame
from parlour.kit import Kit
from parlour.search import Level


class WarKit(Kit):
    @property
    def levels(self) -> tuple[Level, ...]:
        return ()


KIT = WarKit()
register("war", WarGame, "War: no choices, each move plays a round", kit=KIT)
