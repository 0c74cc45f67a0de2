"""Where a lost five-in-a-row game went wrong: replays the games ``gomoku_vs_peers.py`` or
``gomoku_vs_engine.py`` printed as lost and, at each of parlour's moves, shows what a short
and a long search choose, the long search's score, and whether the opponent then has a
VCF or VCT (with a large node budget).  It reports the first move before which the long
search's score fell to ``FELL`` or below (the game was lost there, or a move or two
before: what parlour played, what the long search preferred) and stops at the first
move after which the opponent has a threat sequence.

``--judge ENGINE`` also asks a stronger engine (a Gomocup brain that says its score in its
``MESSAGE`` lines as Rapfi does: ``Eval 120``, ``Eval -M22`` for a loss proven in 22 plies)
for its score after each of parlour's moves, and reports where that fell to ``FELL``: a
slide over many moves tells a weak evaluation, a sudden fall into a proven loss that no
threat search sees, a horizon.

    benchmarks/.venv-gomoku/bin/python benchmarks/gomoku_vs_peers.py ... > out.txt
    .venv/bin/python benchmarks/gomoku_vs_engine.py ENGINE ... > out.txt
    .venv/bin/python benchmarks/gomoku_lost_games.py out.txt [--short 0.025] [--long 4]
        [--nodes 200000] [--games N] [--judge ENGINE] [--judge-seconds 0.3] [--quick]
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterable, Iterator

import parlour
from gomoku_speed import consult
from parlour.games.gomoku import engine as gomoku
from parlour.games.gomoku.engine.board import five_points
from parlour.games.gomoku.game import GomokuState
from parlour.search.table import new_table
from record import arguments, duration, record, whole

SIZE = 15
LOST = re.compile(r"lost as ([X0]), from (\S+ \S+): (.*)")
"""A game lost as ``gomoku_vs_peers.py`` prints it: parlour's stone, the opening's two
stones, the moves after them."""
LOST_TO_ENGINE = re.compile(r"game +\d+: parlour ([X0]) lost \([^)]*\) in \d+ s: (.*)")
"""... as ``gomoku_vs_engine.py`` prints it: parlour's stone, every move from the opening's
three stones on."""
ENGINE_OPENING = 3
FELL = -300
"""A long search's score (for parlour, to move) at which the game is taken as lost."""
JUDGED = re.compile(r"Eval ([+-]?)(M?)(\d+)")
"""A score in an engine's ``MESSAGE`` line, for the side to move: a number, or ``M`` and the
plies of a proven win (``-M``: a proven loss)."""
PROVEN = 1_000_000
"""The judge's proven win as a score (its loss: minus this)."""


def lost_games(lines: Iterable[str]) -> Iterator[tuple[str, int, list[str]]]:
    """Each lost game in ``lines``: parlour's stone, the opening's stones and every move."""
    for line in lines:
        if found := LOST.search(line):
            seat, opening, moves = found.groups()
            yield seat, 2, f"{opening} {moves}".split()
        elif found := LOST_TO_ENGINE.search(line):
            seat, moves = found.groups()
            yield seat, ENGINE_OPENING, moves.split()


def opponent_threat(state: GomokuState, stone: int, nodes: int) -> str:
    """``stone``'s VCF, else its VCT of up to 7 threats, as the kind and first point (each
    search within ``nodes``).  Where the other side has a five point, ``stone`` must block
    it first (a four elsewhere would lose to that five): only a sequence that starts with
    the block counts (the block tried first), and none against two five points."""
    blocks = five_points(state.board, 3 - stone, state.game.exact)
    forced = len(blocks) > 0 and not len(five_points(state.board, stone, state.game.exact))
    if forced and len(blocks) > 1:
        return ""
    hint = int(blocks[0]) if forced else -1
    table = new_table(20)
    for threes, depths in ((False, [20]), (True, range(2, 8))):
        for depth in depths:
            found = gomoku.find_threat(state, stone, threes, depth, table, hint, nodes)[0]
            if found >= 0 and (found == hint or not forced):
                kind = f"VCT of {depth}" if threes else "VCF"
                return f"{kind} from {state.move_name(divmod(found, SIZE))}"
    return ""


def judged(judge: str, state: GomokuState, seconds: float) -> int | None:
    """The ``judge`` engine's last score for the side to move in ``state`` (a proven result
    as ``PROVEN``), None if it said none."""
    score = None
    for line in consult(judge, state, seconds):
        if found := JUDGED.search(line):
            sign, proven, number = found.groups()
            score = (PROVEN if proven else int(number)) * (-1 if sign == "-" else 1)
    return score


def replay(
    seat: int,
    opening: int,
    moves: list[str],
    short: float,
    long: float,
    nodes: int,
    judge: str = "",
    judge_seconds: float = 0.3,
) -> dict[str, object]:
    """Replay a lost game (``opening`` stones placed, then ``moves``) to parlour's first
    move after which the opponent has a threat sequence: that move's ply, name and the
    threat (none found: ply -1), and where the long search's score first fell to ``FELL``
    (none: an empty dict), and the ``judge``'s too (asked for ``judge_seconds`` after each
    of parlour's moves, if given)."""
    state = parlour.game("gomoku", size=SIZE).start()
    assert isinstance(state, GomokuState)
    fell: dict[str, object] = {}
    judge_fell: dict[str, object] = {}
    for ply, name in enumerate(moves):
        after = state.play(state.parse_move(name))
        assert isinstance(after, GomokuState)
        if ply >= opening and state.to_move == seat:
            quick = gomoku.search(state, 3, seconds=short)
            slow = gomoku.search(state, gomoku.MAX_LEVEL, seconds=long)
            threat = opponent_threat(after, 2 - seat, nodes)
            theirs = judged(judge, after, judge_seconds) if judge else None
            ours = None if theirs is None else -theirs
            print(
                f"  ply {ply}: played {name}; {short} s: {state.move_name(quick.move)} "
                f"({quick.reason}), {long} s: {state.move_name(slow.move)} ({slow.reason}, "
                f"depth {slow.depth}, {slow.value:+d}); then the opponent has "
                f"{threat or 'nothing found'}"
                + ("" if ours is None else f"; the judge: {ours:+d}"),
                flush=True,
            )
            if not fell and slow.value <= FELL:
                preferred = state.move_name(slow.move)
                fell = {"ply": ply, "played": name, "value": slow.value, "preferred": preferred}
            if not judge_fell and ours is not None and ours <= FELL:
                judge_fell = {"ply": ply, "played": name, "value": ours}
            if threat:
                where = {"ply": ply, "move": name, "threat": threat}
                return {**where, "fell": fell, "judge_fell": judge_fell}
        state = after
    return {"ply": -1, "move": "", "threat": "", "fell": fell, "judge_fell": judge_fell}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", help="what gomoku_vs_peers.py or gomoku_vs_engine.py printed")
    parser.add_argument("--short", type=duration(), default=0.025, help="seconds (default 0.025)")
    parser.add_argument("--long", type=duration(), default=4.0, help="seconds (default 4)")
    parser.add_argument("--nodes", type=whole(), default=200_000, help="a threat search's budget")
    parser.add_argument("--games", type=whole(0), default=0, help="the first N lost games (0: all)")
    parser.add_argument("--judge", default="", help="a stronger engine's command, for its scores")
    parser.add_argument(
        "--judge-seconds", type=duration(0.01), default=0.3, help="the judge's time a position"
    )
    args = arguments(parser, quick={"short": 0.01, "long": 0.05, "nodes": 50_000})
    try:
        with open(args.output) as lines:
            games = list(lost_games(lines))
    except OSError as error:
        parser.error(f"cannot read {args.output}: {error.strerror}")
    if not games:
        parser.error(f"no lost game in {args.output}")
    found = []
    for seat, opening, moves in games[: args.games or None]:
        stones = " ".join(moves[:opening])
        print(f"lost as {seat}, from {stones}: {' '.join(moves[opening:])}")
        where = replay(
            "X0".index(seat), opening, moves, args.short, args.long, args.nodes,
            args.judge, args.judge_seconds,
        )  # fmt: skip
        found.append({"lost_as": seat, "opening": stones, **where})
    record(args, {"games": found})


if __name__ == "__main__":
    main()
