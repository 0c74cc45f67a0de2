"""War's kit: no levels (its players make no choices), and how the learning frameworks
see it (``codec``)."""

from __future__ import annotations

from parlour.core import State, register
from parlour.encoding import Codec
from parlour.games.war.game import WarGame
from parlour.kit import Kit
from parlour.search import Level


class WarKit(Kit):
    @property
    def levels(self) -> tuple[Level, ...]:
        return ()

    def codec(self, start: State) -> Codec:
        from parlour.games.war.codec import WarCodec

        return WarCodec(start)


KIT = WarKit()
register("war", WarGame, "War: no choices, each move plays a round", kit=KIT)
