"""The sowing games' kit: the alpha-beta engine's levels over their search adapters and
the perfect level of the solver, the terminal screen and what a page sees."""

from __future__ import annotations

from typing import Any

from parlour.core import Game, Reason, State, register
from parlour.encoding import Codec
from parlour.games.sowing.game import SowingGame
from parlour.kit import AlphaBetaKit, Json
from parlour.outcome import Outcome
from parlour.search import PERFECT, Level, Stop, Thinker


class SowingKit(AlphaBetaKit):
    @property
    def levels(self) -> tuple[Level, ...]:
        proves = "the solver's move where it proves the position in time"
        perfect = Level(PERFECT, proves, depths=False)
        return (*super().levels, perfect)

    def make_thinker(self, level: int, seconds: float | None) -> Thinker:
        if level == PERFECT:
            from parlour.games.sowing.solver import PerfectThinker

            return PerfectThinker(seconds)
        return super().make_thinker(level, seconds)

    def prove(self, state: State, stop: Stop) -> int | None:
        from parlour.games.sowing.solver import proven

        return proven(state, stop)  # type: ignore[arg-type]

    def decided(self, state: State) -> Outcome | None:
        """Decided once a store holds more than half the seeds: stores never give seeds
        back, and the side with more seeds at the end wins."""
        total = state.game.total_seeds  # type: ignore[attr-defined]
        for player, seeds in enumerate(state.scores):
            if 2 * seeds > total and not state.is_over:
                detail = f"player {player + 1} holds {seeds} of the {total} seeds"
                return Outcome(player, Reason.RULES, state.scores, detail=detail)
        return None

    def codec(self, start: State) -> Codec:
        from parlour.games.sowing.codec import SowingCodec

        return SowingCodec(start)

    def batch(self, rules: Game, size: int, seed: int) -> Any:
        from parlour.games.sowing.batch import SowingBatch

        return SowingBatch(rules, size, seed)

    def screen(self, game_name: str) -> Any:
        from parlour.games.sowing.screen import SowingScreen

        return SowingScreen()

    def view(self, state: State) -> Json:
        from parlour.games.sowing import view

        return view.position(state)

    def account_words(self, who: str, account: Any) -> list[str]:
        from parlour.games.sowing import view

        return view.account_words(who, account)

    def account_positions(self, account: Any) -> dict[str, State]:
        from parlour.games.sowing import view

        return view.account_positions(account)


KIT = SowingKit()
register(
    "mancala",
    SowingGame,
    kit=KIT,
    summary="Mancala: 3 seeds a pit, sowing through both stores",
    seeds=3,
    sow_opponent_store=True,
)
register(
    "kalah",
    SowingGame,
    kit=KIT,
    summary="Kalah as solved by Irving, Donkers and Uiterwijk: 4 seeds a pit",
)
