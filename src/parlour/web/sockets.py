"""The server's websocket connections: uvicorn's (over the websockets library's protocol),
with the state of each freed as soon as its connection is lost.

The websockets library parses a connection's stream in a generator that refers to the
connection's state, and waits in it for more data; uvicorn never tells it that the stream
ended, so each closed connection's state is a reference cycle that only a full pass of the
cyclic collector frees.  A server in its stride allocates about as much as it frees, so
such passes are rare and, at a thousand games, long (hundreds of thousands of objects to
walk): closed connections piled up, pinning the memory pages that held them.  Closing the
parser when the connection is lost breaks the cycle, and reference counting frees the
state at once.
"""

from __future__ import annotations

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol


class Sockets(WebSocketsSansIOProtocol):
    """uvicorn's websockets protocol (``uvicorn.Config(ws=Sockets)``) whose parser is
    closed when its connection is lost."""

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        self.conn.parser.close()
