"""Where a lost five-in-a-row game went wrong: replays the games ``gomoku_vs_peers.py``
printed as lost and, at each of parlour's moves, shows what a short and a long search
choose and whether the opponent then has a VCF or VCT (with a large node budget); it
stops at the first move after which the opponent has one.

    benchmarks/.venv-gomoku/bin/python benchmarks/gomoku_vs_peers.py ... > out.txt
    .venv/bin/python benchmarks/gomoku_lost_games.py out.txt [--short 0.025] [--long 4]
        [--nodes 200000] [--quick]
"""

from __future__ import annotations

import argparse
import re

import parlour
from parlour.games.gomoku import engine as gomoku
from parlour.games.gomoku.game import GomokuState
from parlour.search.table import new_table
from record import arguments, record

SIZE = 15
LOST = re.compile(r"lost as ([X0]), from (\S+ \S+): (.*)")


def opponent_threat(state: GomokuState, stone: int, nodes: int) -> str:
    """``stone``'s VCF, else its VCT of up to 7 threats, as the kind and first point (each
    search within ``nodes``)."""
    table = new_table(20)
    for threes, depths in ((False, [20]), (True, range(2, 8))):
        for depth in depths:
            found = gomoku.find_threat(state, stone, threes, depth, table, nodes=nodes)[0]
            if found >= 0:
                kind = f"VCT of {depth}" if threes else "VCF"
                return f"{kind} from {state.move_name(divmod(found, SIZE))}"
    return ""


def replay(seat: int, moves: list[str], short: float, long: float, nodes: int) -> dict[str, object]:
    """Replay a lost game to parlour's first move after which the opponent has a threat
    sequence: that move's ply, name and the threat (none found: ply -1)."""
    state = parlour.game("gomoku", size=SIZE).start()
    assert isinstance(state, GomokuState)
    for ply, name in enumerate(moves):
        move = state.parse_move(name)
        if ply >= 2 and state.to_move == seat:
            quick = gomoku.search(state, 3, seconds=short)
            slow = gomoku.search(state, gomoku.MAX_LEVEL, seconds=long)
            threat = opponent_threat(state.play(move), 2 - seat, nodes)
            print(
                f"  ply {ply}: played {name}; {short} s: {state.move_name(quick.move)} "
                f"({quick.reason}), {long} s: {state.move_name(slow.move)} ({slow.reason}, "
                f"depth {slow.depth}, {slow.value:+d}); then the opponent has "
                f"{threat or 'nothing found'}",
                flush=True,
            )
            if threat:
                return {"ply": ply, "move": name, "threat": threat}
        state = state.play(move)
    return {"ply": -1, "move": "", "threat": ""}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", help="what gomoku_vs_peers.py printed")
    parser.add_argument("--short", type=float, default=0.025, help="seconds (default 0.025)")
    parser.add_argument("--long", type=float, default=4.0, help="seconds (default 4)")
    parser.add_argument("--nodes", type=int, default=200_000, help="a threat search's budget")
    args = arguments(parser, quick={"short": 0.01, "long": 0.05, "nodes": 50_000})
    try:
        with open(args.output) as lines:
            games = [m for m in map(LOST.search, lines) if m]
    except OSError as error:
        parser.error(f"cannot read {args.output}: {error.strerror}")
    if not games:
        parser.error(f"no lost game in {args.output}")
    found = []
    for game in games:
        seat, opening, moves = game.groups()
        print(f"lost as {seat}, from {opening}: {moves}")
        plies = f"{opening} {moves}".split()
        where = replay("X0".index(seat), plies, args.short, args.long, args.nodes)
        found.append({"lost_as": seat, "opening": opening, **where})
    record(args, {"games": found})


if __name__ == "__main__":
    main()
