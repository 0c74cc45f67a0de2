"""Five in a row's kit: its own engine's levels (1 greedy, 2-6 threat and main
searches), the terminal screen and what a page sees."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from parlour.core import Game, State, register
from parlour.encoding import Codec
from parlour.games.gomoku.game import GomokuGame
from parlour.kit import Json, Kit, RecordForm
from parlour.search import Level, SearchResult, Stop, Thinker
from parlour.search.limit import Limit


class GomokuKit(Kit):
    @property
    def levels(self) -> tuple[Level, ...]:
        from parlour.games.gomoku.engine.levels import LEVELS

        searching = (
            Level(n, f"threats, then alpha-beta to {lv.depth} plies, {lv.seconds:g} s a move")
            for n, lv in LEVELS.items()
        )
        return (Level(1, "greedy: the move whose windows count best"), *searching)

    def title(self, game_name: str) -> str:
        return "five in a row"

    scored = False
    proven_means = "a forced win for the side to move if positive, a forced loss if negative"

    @property
    def record_forms(self) -> tuple[RecordForm, ...]:
        from parlour.games.gomoku import psq

        return (RecordForm(".psq", "Piskvork's five-in-a-row records", psq.read, psq.write),)

    def make_thinker(self, level: int, seconds: float | None) -> Thinker:
        from parlour.games.gomoku.engine import GomokuThinker

        return GomokuThinker(level, seconds)  # type: ignore[return-value]

    @property
    def analyses(self) -> bool:
        return True

    def analyze(
        self,
        state: State,
        limit: Limit,
        on_iteration: Callable[[SearchResult[Any]], None] | None,
        stop: Stop,
    ) -> SearchResult[Any]:
        from parlour.games.gomoku.engine import analyze

        return analyze(state, limit.depth, limit.seconds, on_iteration, stop)  # type: ignore[arg-type]

    def warm_up(self, state: State) -> None:
        from parlour.games.gomoku.engine import warm_up

        warm_up(state)  # type: ignore[arg-type]

    def engine_player(self, command: tuple[str, ...], seconds: float, memory: int | None) -> Any:
        """A Gomocup engine's player (``parlour.games.gomoku.gomocup.player``)."""
        from parlour.games.gomoku.gomocup.player import MAX_MEMORY, EnginePlayer

        return EnginePlayer(command, seconds, MAX_MEMORY if memory is None else memory)

    def batch(self, rules: Game, size: int, seed: int) -> Any:
        from parlour.games.gomoku.batch import GomokuBatch

        return GomokuBatch(rules, size, seed)

    def codec(self, start: State) -> Codec:
        from parlour.games.gomoku.codec import GomokuCodec

        return GomokuCodec(start)

    def screen(self, game_name: str) -> Any:
        from parlour.games.gomoku.screen import GomokuScreen

        return GomokuScreen()

    def view(self, state: State) -> Json:
        from parlour.games.gomoku.game import GomokuState

        assert isinstance(state, GomokuState)
        last = state.last_move
        return {
            "kind": "gomoku",
            "size": state.size,
            "rows": list(state.rows()),
            "last": None if last is None else state.move_name(last),
            "five": [state.move_name(p) for p in state.five()],
        }


KIT = GomokuKit()
register(
    "gomoku",
    GomokuGame,
    kit=KIT,
    summary="Five in a row: freestyle, five or more wins, 15x15",
)
