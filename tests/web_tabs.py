"""A browser tab as the protocol tests drive it: starlette's test client over the websocket."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from parlour.web.app import create_app

Json = dict[str, Any]


class Tab:
    """One websocket to a game: says hello with ``token`` (None: watches), then keeps the
    last event number and position it has seen, as the page does."""

    def __init__(self, client: TestClient, game_id: str, token: str | None = None) -> None:
        self._context = client.websocket_connect(f"/ws/{game_id}")
        self.ws = self._context.__enter__()
        OPEN.append(self)
        self.ws.send_json({"type": "hello", "token": token})
        self.seen: list[Json] = []
        self.state = self.next()
        assert self.state["type"] == "state", self.state

    def next(self) -> Json:
        message: Json = self.ws.receive_json()
        self.seen.append(message)
        if message["type"] == "state":
            self.n = message["n"]
            self.position = message["now"].get("position")
            self.result = message["result"]
        elif message["type"] == "event":
            assert message["n"] == self.n + 1, "events come numbered, none missed"
            self.n = message["n"]
            self.position = message.get("position", self.position)
            if message["kind"] == "over":
                self.result = message["result"]
        return message

    def until(self, kind: str) -> Json:
        """Read messages until one of ``kind`` ("error", "hint", or an event's kind)."""
        while True:
            message = self.next()
            if kind in (message["type"], message.get("kind")):
                return message

    def send(self, **message: Any) -> None:
        self.ws.send_json(message)

    def refused(self, **message: Any) -> str:
        """Send ``message``; the error it gets."""
        self.send(**message)
        return str(self.until("error")["message"])

    def move(self, name: str) -> None:
        self.send(type="move", move=name, at=self.n)

    def sync(self) -> Json:
        """Ask for the whole game again: the fresh state."""
        self.send(type="sync")
        return self.until("state")

    def close(self) -> None:
        if self in OPEN:
            OPEN.remove(self)
            self._context.__exit__(None, None, None)


OPEN: list[Tab] = []
"""The tabs not closed yet: a test's client closes them when the test ends, even a failed
one (an open websocket would keep the client from stopping)."""


def close_all() -> None:
    for tab in list(OPEN):
        tab.close()


def new_game(client: TestClient, **request: Any) -> Json:
    response = client.post("/api/games", json=request)
    assert response.status_code == 200, response.text
    made: Json = response.json()
    return made


@contextmanager
def serving(db: Path, **settings: Any) -> Iterator[TestClient]:
    """The web app on store ``db`` (``settings`` as ``create_app`` takes them; never warmed
    up), its tabs closed when the block ends."""
    with TestClient(create_app(db, warm=False, **settings)) as client:
        try:
            yield client
        finally:
            close_all()
