"""Ayo's kit: the alpha-beta engine's levels over its search adapters, the ``Stoned``
notices its Referee tells, the terminal screen and what a page sees."""

from __future__ import annotations

from typing import Any

from parlour.core import Game, State, game, register
from parlour.encoding import Codec
from parlour.games.ayo.game import AyoGame
from parlour.kit import AlphaBetaKit, ChanceStart, Json


def _stoned(event: Any) -> list[tuple[int, Any]]:
    from parlour.games.ayo.notices import stoned_notices

    return stoned_notices(event)


class AyoKit(AlphaBetaKit):
    notices = staticmethod(_stoned)

    def codec(self, start: State) -> Codec:
        from parlour.games.ayo.codec import AyoCodec

        return AyoCodec(start)

    def chance_start(self, rules: Game, draws: int | None) -> ChanceStart | None:
        """The first player drawn by lot, unless the options name one."""
        if rules.options["first"] is not None:
            return None
        return ChanceStart(
            "first", 2, lambda first: game(rules.name, **{**rules.options, "first": first}).start()
        )

    def batch(self, rules: Game, size: int, seed: int) -> Any:
        from parlour.games.ayo.batch import AyoBatch

        return AyoBatch(rules, size, seed)

    def screen(self, game_name: str) -> Any:
        from parlour.games.ayo.screen import AyoScreen

        return AyoScreen()

    def view(self, state: State) -> Json:
        from parlour.games.ayo import view

        return view.position(state)

    def account_words(self, who: str, account: Any) -> list[str]:
        from parlour.games.ayo import view

        return view.account_words(account)


KIT = AyoKit()
register(
    "ayo",
    AyoGame,
    kit=KIT,
    summary="Ayo: fours captured while sowing, relays, houses bought",
)
