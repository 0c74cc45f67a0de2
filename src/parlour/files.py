"""Files parlour reads, read with a size limit and, for JSON, a depth limit.

A file named on a command line may be anything: ``/dev/zero`` (endless), a gigabyte, a
binary, JSON nested a hundred thousand deep (Python's parser would recurse until it
fails), a number of five thousand digits (Python refuses to convert one).  Every file
parlour reads (saved games, records, ``.psq``) comes through :func:`read_text`, and its
JSON through :func:`read_json`, so each of these is one line naming the problem
(:class:`BadFile`) before any of it is held in memory or parsed.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from parlour.core import ParlourError

MAX_BYTES = 16 * 2**20
"""The largest file parlour reads, 16 MiB: a saved War game of 100,000 rounds is 1 MiB."""
MAX_NESTING = 32
"""The deepest nesting of JSON parlour reads: its own files nest 3 deep."""
MAX_DIGITS = 30
"""The most digits of a whole number in JSON: far beyond any option or count."""

_STRING = re.compile(r'"[^"\\]*+(?:\\.[^"\\]*+)*+"', re.DOTALL)


class BadFile(ParlourError):
    """A file that cannot be read as parlour reads it: missing, too large, not UTF-8 text,
    not JSON, or JSON nested too deep."""


def read_text(path: str, limit: int = MAX_BYTES) -> str:
    """The UTF-8 text of the file at ``path`` (``~`` expanded), at most ``limit`` bytes;
    BadFile naming the problem otherwise.  No more than ``limit + 1`` bytes are read, so
    an endless file (``/dev/zero``) is refused at once."""
    try:
        with Path(path).expanduser().open("rb") as file:
            data = file.read(limit + 1)
    except OSError as error:
        raise BadFile(f"cannot read {path}: {error.strerror or error}") from None
    if len(data) > limit:
        raise BadFile(f"{path} is larger than {limit // 2**20} MiB: not a file parlour wrote")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        byte = data[error.start]
        raise BadFile(f"{path} is not UTF-8 text (byte 0x{byte:02x} at {error.start})") from None


def parse_json(text: str, what: str) -> Any:
    """The JSON value of ``text``, ``what`` naming it in errors (BadFile): nested at most
    ``MAX_NESTING`` deep and no whole number longer than ``MAX_DIGITS`` digits, both
    checked before Python's parser could recurse or convert."""
    depth = nesting(text)
    if depth > MAX_NESTING:
        raise BadFile(f"{what} nests {depth} deep; parlour reads at most {MAX_NESTING}")
    try:
        return json.loads(text, parse_int=_whole)
    except BadFile:
        raise
    except (ValueError, RecursionError) as error:
        raise BadFile(f"{what} is not JSON: {error}") from None


def read_json(path: str, limit: int = MAX_BYTES) -> Any:
    """The JSON value in the file at ``path`` (:func:`read_text`, :func:`parse_json`)."""
    return parse_json(read_text(path, limit), path)


def nesting(text: str) -> int:
    """How deep the brackets of JSON ``text`` nest, strings left out (one pass, no
    recursion); for text that is not JSON, an estimate that the parser then refuses."""
    import numpy as np

    codes = np.frombuffer(_STRING.sub("", text).encode(), dtype=np.uint8)
    opens = (codes == ord("[")) | (codes == ord("{"))
    closes = (codes == ord("]")) | (codes == ord("}"))
    return int(np.cumsum(opens.astype(np.int64) - closes, dtype=np.int64).max(initial=0))


def _whole(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise BadFile(f"a number of more than {MAX_DIGITS} digits")
    return int(digits)
