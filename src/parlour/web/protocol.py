"""The messages a browser may send, checked before any table sees them.

Each is one JSON object with a ``type``; the first is ``hello`` (with the seat's
``token``, if the sender holds one), the others act on the game: a move, an undo (against
the computer), resign, a hint, sync; between people by link an ``offer`` (``what``:
``takeback`` or ``draw``) and its ``answer`` (``accept``: true or false); after the game a
``rematch``.  The fields of each type
are listed in :data:`FIELDS` (``at`` is the number of the last event the sender has seen, so that a
move chosen on an old view is refused).  Anything else (text too long, not JSON, not an
object, an unknown type, a missing or mistyped field) is refused with a message naming the
problem.
"""

from __future__ import annotations

import json
from typing import Any

from parlour.core import shown
from parlour.web.tables import Refused
from parlour.web.views import Json

MAX_CHARS = 1000
"""The longest message taken, in characters (a move is a few)."""
FIELDS: dict[str, dict[str, type]] = {
    "hello": {},
    "move": {"move": str, "at": int},
    "undo": {"at": int},
    "resign": {},
    "hint": {},
    "sync": {},
    "offer": {"what": str},
    "answer": {"accept": bool},
    "rematch": {},
}
OPTIONAL: dict[str, type] = {"seat": int, "token": str}


def parse(text: str) -> Json:
    """The message in ``text``, or Refused saying what is wrong with it."""
    if len(text) > MAX_CHARS:
        raise Refused(f"message too long: {len(text)} characters, the limit is {MAX_CHARS}")
    message = json_object(text)
    kind = message.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:
        known = ", ".join(FIELDS)
        raise Refused(f"unknown message type {shown(kind)}; the types are: {known}")
    for name, wanted in FIELDS[kind].items():
        if name not in message:
            raise Refused(f"a {kind} message needs {name!r}")
        _check(kind, name, message[name], wanted)
    for name, wanted in OPTIONAL.items():
        if message.get(name) is not None:
            _check(kind, name, message[name], wanted)
    if message.get("seat") not in (None, 0, 1):
        raise Refused(f"no seat {shown(message['seat'])}: the seats are 0 and 1")
    return message


def json_object(text: str) -> Json:
    """The JSON object in ``text``, or Refused saying why it is none."""
    try:
        value: Any = json.loads(text)
    except ValueError as error:
        raise Refused(f"not JSON: {error}") from None
    if not isinstance(value, dict):
        raise Refused(f"a message is a JSON object, not {type(value).__name__}")
    return value


def _check(kind: str, name: str, value: Any, wanted: type) -> None:
    if isinstance(value, bool) is not (wanted is bool) or not isinstance(value, wanted):
        what = {int: "a whole number", bool: "true or false"}.get(wanted, "text")
        raise Refused(f"{name!r} of a {kind} message must be {what}, not {value!r:.40}")
