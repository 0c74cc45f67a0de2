"""Proven positions kept on disk, so that a second game's replies come at once."""

from __future__ import annotations

import json
import zlib
from contextlib import suppress
from pathlib import Path

from parlour import cache
from parlour.games.sowing import game as sowing

KNOWN_MAGIC = "parlour solved positions"
DRAW = "draw? "
"""The start of the key of a fair start's verdict (``Known.verdict``)."""
KNOWN_LIMIT = 256 << 20
"""The most bytes of a file of proven positions read: more is not a file of ours."""


class Known:
    """Proven positions: for each position (rules, pits and side to move: what its future
    depends on), its gain and a move achieving it, and of fair starts' candidates
    whether each is a draw (``verdict``: a search of a board's fair starts stopped goes
    on where it stopped).  The file, in parlour's cache folder beside the version of the
    code that proved it, starts with a line holding the CRC-32 of the rest; a file that
    fails the check (damaged, cut short, edited, too big) is not trusted but started
    anew."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self.gains: dict[str, tuple[int, int]] = {}
        self.changed = False
        with suppress(OSError, ValueError):
            self.path = path or _known_file()
            with self.path.open("rb") as file:
                self.gains = _read_known(file.read(KNOWN_LIMIT + 1))

    @staticmethod
    def key(state: sowing.SowingState) -> str:
        board, pits = state.board, state.pits
        seeds = [*board[:pits], *board[pits + 1 : 2 * pits + 1]]
        return f"{state.game.rules} {state.to_move} {' '.join(str(int(n)) for n in seeds)}"

    def get(self, state: sowing.SowingState) -> tuple[int, int] | None:
        """``state``'s gain and a move achieving it, if proven before."""
        return self.gains.get(self.key(state))

    def put(self, state: sowing.SowingState, gain: int, move: int) -> None:
        self.gains[self.key(state)] = (gain, move)
        self.changed = True

    def verdict(self, state: sowing.SowingState) -> bool | None:
        """Whether ``state`` was proven a draw (None: not proven either way)."""
        held = self.gains.get(DRAW + self.key(state))
        return None if held is None else bool(held[0])

    def tell(self, state: sowing.SowingState, draw: bool) -> None:
        """Keep whether ``state`` is a draw (as a pair, as the gains are kept)."""
        self.gains[DRAW + self.key(state)] = (int(draw), 0)
        self.changed = True

    def save(self) -> None:
        """Write the positions out (whole or not at all), if any are new; without a
        writable cache folder they stay in memory."""
        if not self.changed or self.path is None:
            return
        body = json.dumps(self.gains, separators=(",", ":")).encode()
        with suppress(OSError):
            cache.write_whole(self.path, f"{KNOWN_MAGIC} {zlib.crc32(body)}\n".encode(), body)
            self.changed = False


def _known_file() -> Path:
    """The file of proven positions, in a folder of the code that proves them."""
    here = Path(__file__).parent
    sources = [*here.glob("*.py"), here.parent / "endgame.py", Path(sowing.__file__)]
    return cache.versioned("solved", cache.digest(sources, cache.PACKAGE)) / "positions.json"


def _read_known(data: bytes) -> dict[str, tuple[int, int]]:
    """The positions of a file's ``data``; ValueError if it fails its check."""
    if len(data) > KNOWN_LIMIT:
        raise ValueError("too big for a file of proven positions")
    head, _, body = data.partition(b"\n")
    if head != f"{KNOWN_MAGIC} {zlib.crc32(body)}".encode():
        raise ValueError("not a whole file of proven positions")
    return {key: (int(gain), int(move)) for key, (gain, move) in json.loads(body).items()}
