"""Ayo as seed 000 plays it (RULES.md section 2): the game's options, its State, the
account of a move for the screens, and the notation.

The rules themselves are compiled kernels in :mod:`parlour.games.ayo.kernel`, which the
State and the search both run; a State holds the kernels' position array (its layout is
described there) and the live part of its history.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from dataclasses import dataclass

import numpy as np

from parlour.core import (
    MAX_SEED,
    BadPosition,
    Game,
    IllegalMove,
    Move,
    Option,
    State,
    digits_note,
    digits_value,
    parse_numbers,
    parse_player,
    parse_whole,
    shown,
)
from parlour.games.ayo import kernel as ayo_kernel
from parlour.games.ayo.kernel import (
    CAPTURED,
    ELEVENTH_GROUP,
    EV_BOARD,
    EV_LAST_FOUR,
    EV_OWNER_CAPTURE,
    EV_PASS,
    EV_RELAY,
    EV_ROUND_END,
    EV_SOWER_CAPTURE,
    EVENT_WIDTH,
    HIST_FROM,
    HIST_LEN,
    HOUSES,
    MAX_KEY,
    MAX_ROUNDS,
    NO_MOVES,
    OVER,
    OWNER,
    REPETITION,
    ROUND,
    SIZE,
    STARTER,
    TO_MOVE,
    TOKENS,
    apply_move,
    deal_owners,
    has_legal_move,
    houses_bought,
    is_legal,
    legal_moves,
    perft_kernel,
    position_key,
    start_round,
)

REASONS = {
    ELEVENTH_GROUP: "the eleventh group of four was taken",
    NO_MOVES: "neither player had a legal move",
    REPETITION: "a position came back",
}


@dataclass(frozen=True)
class Capture:
    """Tokens added to a player's captured count, and how."""

    player: int
    tokens: int
    house: int | None
    """The house they were taken from; None for the last four and for a round's end."""
    kind: str
    """``owner`` (a four made by a token that was not the last, taken by the house's
    owner), ``sower`` (the last token made four), ``last four`` (with the eleventh group)
    or ``round end`` (the tokens left in the player's houses)."""


@dataclass(frozen=True)
class RoundEnd:
    """How a round ended and what it bought."""

    round: int
    reason: str
    held: tuple[int, int]
    """The tokens each player held at the end of the round."""
    houses: tuple[int, int] | None
    """The houses each player owns in the next round; None when the game is over."""


@dataclass(frozen=True)
class AyoReport:
    """What one move did: the relays, the captures (either player's), the passes and the
    end of the round, in the order they happened."""

    player: int
    house: int
    relays: tuple[tuple[int, int], ...]
    """(house, tokens taken in hand) for each relay."""
    captures: tuple[Capture, ...]
    passes: tuple[int, ...]
    """The players who had to pass after the move (the opponent plays again)."""
    round_end: RoundEnd | None

    def stoned(self, player: int) -> int:
        """The tokens added to ``player``'s captured count: the seed's ``Stoned(count)``."""
        return sum(c.tokens for c in self.captures if c.player == player)


_CAPTURE_KINDS = {
    EV_OWNER_CAPTURE: "owner",
    EV_SOWER_CAPTURE: "sower",
    EV_LAST_FOUR: "last four",
    EV_BOARD: "round end",
}


class AyoGame(Game):
    """Ayo with its options: a limit on rounds, who starts, and the seed of the draw."""

    OPTIONS = (
        Option(
            "max_rounds",
            int,
            None,
            "end the game after this many rounds",
            minimum=1,
            maximum=MAX_ROUNDS,
            nullable=True,
        ),
        Option("first", int, None, "who starts the first round (0 or 1)", 0, 1, nullable=True),
        Option(
            "seed", int, None, "seed of the draw for the first round", 0, MAX_SEED, nullable=True
        ),
    )

    @property
    def max_rounds(self) -> int:
        """The kernels' round limit: 0 for none."""
        return int(self.options["max_rounds"] or 0)

    def start(self) -> AyoState:
        """Round 1 of a new game; without ``first`` the starter is drawn by lot."""
        first = self.options["first"]
        if first is None:
            first = random.Random(self.options["seed"]).randrange(2)
        pos = np.zeros(SIZE, dtype=np.int64)
        hist = np.zeros(1, dtype=np.int64)
        pos[ROUND] = 1
        start_round(pos, hist, 6, int(first), np.zeros(1, dtype=np.int64))
        return AyoState(self, pos, hist)

    def parse(self, text: str) -> AyoState:
        """Read the notation of :meth:`AyoState.notation`."""
        return _parse(self, text)


class AyoState(State):
    """A position of Ayo: the kernels' array, the round's position history (both
    read-only) and, for the screens, the accounts of this round's moves."""

    __slots__ = ("_hist", "_pos", "game", "round_events")

    def __init__(
        self,
        game: AyoGame,
        pos: np.ndarray,
        hist: np.ndarray,
        round_events: tuple[AyoReport, ...] = (),
    ) -> None:
        pos.flags.writeable = False
        hist.flags.writeable = False
        self.game: AyoGame = game
        self._pos = pos
        self._hist = hist
        self.round_events = round_events
        """The account of each move of this round so far (empty for a parsed position)."""

    @property
    def position(self) -> np.ndarray:
        """The kernels' array (read-only)."""
        return self._pos

    @property
    def history(self) -> np.ndarray:
        """The keys of this round's positions since its last capture (read-only)."""
        return self._hist

    @property
    def board(self) -> tuple[int, ...]:
        """Tokens in houses 0..11."""
        return tuple(int(v) for v in self._pos[:HOUSES])

    @property
    def owners(self) -> tuple[int, ...]:
        """The owner of each house 0..11 this round."""
        return tuple(int(v) for v in self._pos[OWNER : OWNER + HOUSES])

    @property
    def round(self) -> int:
        return int(self._pos[ROUND])

    @property
    def starter(self) -> int:
        """Who started this round."""
        return int(self._pos[STARTER])

    def for_search(self, room: int) -> tuple[str, np.ndarray, np.ndarray, int]:
        """What the engine's kernel takes (parlour.search.engine.Searchable): the kernel
        module's adapters, the position, the history with ``room`` for a search's plies,
        and the round limit."""
        hist = np.zeros(len(self.history) + room, dtype=np.int64)
        hist[: len(self.history)] = self.history
        return ayo_kernel.__name__, self.position.copy(), hist, self.game.max_rounds

    @property
    def to_move(self) -> int:
        return int(self._pos[TO_MOVE])

    @property
    def is_over(self) -> bool:
        return bool(self._pos[OVER])

    @property
    def scores(self) -> tuple[int, int]:
        """Tokens each player has captured this round (at the game's end: holds)."""
        return int(self._pos[CAPTURED]), int(self._pos[CAPTURED + 1])

    @property
    def winner(self) -> int | None:
        if not self.is_over:
            return None
        mine, theirs = self.scores
        return None if mine == theirs else (0 if mine > theirs else 1)

    def legal_moves(self) -> tuple[int, ...]:
        out = np.empty(HOUSES, dtype=np.int64)
        return tuple(int(h) for h in out[: legal_moves(self._pos, out)])

    def play(self, move: Move) -> AyoState:
        return self.play_report(move)[0]

    def play_report(self, move: Move) -> tuple[AyoState, AyoReport]:
        house = self._checked(move)
        pos = self._pos.copy()
        hist = np.empty(len(self._hist) + 1, dtype=np.int64)
        hist[:-1] = self._hist
        events = np.zeros(1 + EVENT_WIDTH * 64, dtype=np.int64)
        while True:
            apply_move(pos, hist, house, self.game.max_rounds, events)
            if 1 + EVENT_WIDTH * events[0] <= len(events):
                break
            events = np.zeros(1 + EVENT_WIDTH * int(events[0]), dtype=np.int64)
            pos[:] = self._pos
            hist[:-1] = self._hist
        report = _report(self, house, events)
        if pos[OVER]:  # as the notation has it: no player to move, no history
            pos[TO_MOVE] = 0
            pos[HIST_FROM] = pos[HIST_LEN]
        live = hist[pos[HIST_FROM] : pos[HIST_LEN]].copy()
        pos[HIST_LEN] -= pos[HIST_FROM]
        pos[HIST_FROM] = 0
        log = () if report.round_end else (*self.round_events, report)
        return AyoState(self.game, pos, live, log), report

    def _checked(self, move: Move) -> int:
        """The house of ``move`` once it is known to be legal, or IllegalMove saying why."""
        if self.is_over:
            raise IllegalMove(move, "the game is over")
        if not isinstance(move, int | np.integer) or isinstance(move, bool):
            raise IllegalMove(move, "a move is a house number 0..11")
        house = int(move)
        if not 0 <= house < HOUSES:
            raise IllegalMove(move, "the houses are 0..11")
        if self._pos[OWNER + house] != self.to_move:
            raise IllegalMove(move, f"house {house} belongs to the other player")
        if self._pos[house] == 0:
            raise IllegalMove(move, f"house {house} is empty")
        if not is_legal(self._pos, self.to_move, house):
            raise IllegalMove(move, f"the sowing from house {house} would never end")
        return house

    def perft(self, depth: int) -> int:
        hist = np.empty(len(self._hist) + depth + 1, dtype=np.int64)
        hist[: len(self._hist)] = self._hist
        return int(perft_kernel(self._pos.copy(), hist, depth, self.game.max_rounds))

    def divide(self, depth: int) -> list[tuple[Move, int]]:
        """A first move that ends the round is one leaf, as in ``perft``."""
        counts: list[tuple[Move, int]] = []
        for move in self.legal_moves():
            child, report = self.play_report(move)
            counts.append((move, 1 if report.round_end else child.perft(depth - 1)))
        return counts

    def move_name(self, move: Move) -> str:
        return str(int(move))  # type: ignore[call-overload]

    def parse_move(self, text: str) -> int:
        """A house number 0..11, as the board labels the houses."""
        word = text.strip()
        house = digits_value(word, HOUSES)
        if house is None or house >= HOUSES:
            raise IllegalMove(
                text, f"type the number of one of your houses, 0..11{digits_note(word)}"
            )
        return self._checked(house)

    def notation(self) -> str:
        """``board owners captured to-move round starter history``: houses 0..11 by
        commas, twelve owner digits, the captured tokens ``c0,c1``, the player to move (``-``
        once the game is over), the round, its starter, and the history keys (``-``: none; read as
        this position alone while the game goes on).
        """
        board = ",".join(map(str, self.board))
        owners = "".join(map(str, self.owners))
        captured = "{},{}".format(*self.scores)
        mover = "-" if self.is_over else str(self.to_move)
        hist = ",".join(str(int(k)) for k in self._hist) or "-"
        return f"{board} {owners} {captured} {mover} {self.round} {self.starter} {hist}"

    def render(self) -> str:
        """The seed's board: player 1's row above (houses 11 to 6), player 0's below (0 to
        5), house numbers outside, a house owned by the other row's player marked with its
        owner, the captured tokens beside the rows.  People count players from 1, as the
        seed's h2g2 rules do: "P1" is player 0 (the bottom row), "P2" player 1."""
        top = list(range(HOUSES - 1, 5, -1))
        bottom = list(range(6))

        def numbers(houses: list[int]) -> str:
            return "      " + "".join(f"{h:^7}" for h in houses)

        def cells(houses: list[int], row_player: int) -> str:
            text = []
            for h in houses:
                mark = f"P{self.owners[h] + 1}" if self.owners[h] != row_player else "  "
                text.append(f"|{self.board[h]:>3} {mark}")
            return "".join(text) + "|"

        rule = "      " + "+------" * 6 + "+"
        c0, c1 = self.scores
        if not self.is_over:
            status = f"Player {self.to_move + 1} to move"
        elif self.winner is None:
            status = "game over: a draw"
        else:
            status = f"game over: Player {self.winner + 1} wins"
        lines = [
            f"Round {self.round} (started by Player {self.starter + 1}), {status}",
            numbers(top),
            rule,
            f"  P2  {cells(top, 1)}  Player 2 captured {c1:>2}",
            rule,
            f"  P1  {cells(bottom, 0)}  Player 1 captured {c0:>2}",
            rule,
            numbers(bottom),
        ]
        return "\n".join(line.rstrip() for line in lines)

    def _key(self) -> Hashable:
        return self._pos.tobytes() + self._hist.tobytes()


def _report(state: AyoState, house: int, events: np.ndarray) -> AyoReport:
    """Turn the kernel's event log into the account of the move."""
    relays: list[tuple[int, int]] = []
    captures: list[Capture] = []
    passes: list[int] = []
    round_end: RoundEnd | None = None
    held: tuple[int, int] = (0, 0)
    for n in range(int(events[0])):
        kind, a, b, c = (int(v) for v in events[1 + EVENT_WIDTH * n : 1 + EVENT_WIDTH * (n + 1)])
        if kind == EV_RELAY:
            relays.append((b, c))
        elif kind in _CAPTURE_KINDS:
            captures.append(Capture(a, c, b if b >= 0 else None, _CAPTURE_KINDS[kind]))
        elif kind == EV_PASS:
            passes.append(a)
        elif kind == EV_ROUND_END:
            held = (b, c)
            round_end = RoundEnd(state.round, REASONS[a], held, None)
    if round_end is not None and not _over_after(held, state):
        houses0 = int(houses_bought(held[0], held[1], state.starter))
        round_end = RoundEnd(round_end.round, round_end.reason, held, (houses0, HOUSES - houses0))
    return AyoReport(state.to_move, house, tuple(relays), tuple(captures), tuple(passes), round_end)


def _over_after(held: tuple[int, int], state: AyoState) -> bool:
    """Whether a round of ``state`` that ended with ``held`` ends the game."""
    limit = state.game.max_rounds
    return TOKENS in held or (limit > 0 and state.round >= limit)


def _parse(game: AyoGame, text: str) -> AyoState:
    fields = text.split()
    if len(fields) != 7:
        raise BadPosition(
            "expected 7 fields 'board owners captured to-move round starter history', "
            f"got {len(fields)} in {shown(text)}"
        )
    board, owners, captured, mover, round_, starter, keys = fields
    if len(owners) != HOUSES or set(owners) - {"0", "1"}:
        raise BadPosition(f"the owners must be 12 digits 0 or 1, not {shown(owners)}")
    pos = np.zeros(SIZE, dtype=np.int64)
    pos[:HOUSES] = parse_numbers(board, "the board", TOKENS, HOUSES)
    pos[OWNER : OWNER + HOUSES] = [int(c) for c in owners]
    pos[CAPTURED : CAPTURED + 2] = parse_numbers(captured, "the captured tokens", TOKENS, 2)
    pos[OVER] = mover == "-"
    pos[TO_MOVE] = 0 if mover == "-" else parse_player(mover, "the player to move")
    pos[ROUND] = parse_whole(round_, "the round", 0, MAX_ROUNDS)
    pos[STARTER] = parse_player(starter, "the round's starter")
    if keys == "-":  # no earlier position: the history is this position alone
        hist = np.array([] if pos[OVER] else [position_key(pos)], dtype=np.int64)
    else:
        hist = np.array(parse_numbers(keys, "the history", MAX_KEY), dtype=np.int64)
    pos[HIST_LEN] = len(hist)
    _check(game, pos, hist)
    return AyoState(game, pos, hist)


def _check(game: AyoGame, pos: np.ndarray, hist: np.ndarray) -> None:
    """Refuse a position the game cannot reach, naming what is wrong.  Every number is
    in range already (``_parse``), so the sums below are exact and the legal-move test
    sows 48 tokens at most."""
    tokens = int(pos[:HOUSES].sum() + pos[CAPTURED] + pos[CAPTURED + 1])
    if tokens != TOKENS:
        raise BadPosition(f"the position holds {tokens} tokens; Ayo has {TOKENS}")
    if pos[ROUND] < 1 or (game.max_rounds and pos[ROUND] > game.max_rounds):
        raise BadPosition(f"round {pos[ROUND]} is not a round of this game")
    dealt = pos.copy()
    houses0 = HOUSES - int(pos[OWNER : OWNER + HOUSES].sum())
    deal_owners(dealt, 6 if pos[ROUND] == 1 else houses0)
    if (dealt[OWNER : OWNER + HOUSES] != pos[OWNER : OWNER + HOUSES]).any():
        raise BadPosition(
            "the owners must be each player's own row in round 1, and later a deal: a player "
            "with more than six houses owns their row and the next houses in sowing order"
        )
    if pos[OVER]:
        if pos[:HOUSES].any() or len(hist):
            raise BadPosition("a finished game has no tokens on the board and no history")
        if TOKENS not in pos[CAPTURED : CAPTURED + 2] and pos[ROUND] != game.max_rounds:
            last = f"round {game.max_rounds}" if game.max_rounds else "none in this game"
            raise BadPosition(
                "a game is over only when a player holds all 48 tokens or after its last "
                f"round ({last})"
            )
        return
    if pos[CAPTURED] % 4 or pos[CAPTURED + 1] % 4 or pos[CAPTURED] + pos[CAPTURED + 1] > 40:
        raise BadPosition("during a round each player captures whole fours, ten at most")
    if not has_legal_move(pos, int(pos[TO_MOVE])):
        raise BadPosition(f"player {pos[TO_MOVE]} is to move but has no legal move")
    if not len(hist) or hist[-1] != position_key(pos):
        raise BadPosition("the history must end with the key of this position")
    if len(set(hist.tolist())) != len(hist):
        raise BadPosition("the history keys must be distinct")
