"""The web application: the page, a small JSON API, and one websocket per browser tab.

- ``GET /`` (and ``/game/ID``, ``/replay/ID``): the page, which routes itself;
- ``GET /api/catalogue``: the games and their options; ``GET /api/games``: the games
  under way and the last finished; ``POST /api/games``: a new game (see
  :mod:`parlour.web.hall`), answered with its id and the seat tokens;
  ``GET /api/games/ID``: a finished game's record, for its replay;
  ``GET /api/games/ID/analysis``: the engine's value of each of its positions;
  ``GET /api/ready``:
  whether the games' kernels are compiled (start-up compiles them in a thread);
- ``/ws/ID``: the game itself.  The tab's first message is ``hello`` with its seat token
  (none to watch); it gets the whole game (``state``), then each event as it happens
  (``event``, numbered), and ``error`` for each message refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from parlour.actors.runtime import in_thread
from parlour.core import ParlourError, game, game_names
from parlour.kit import warm_up
from parlour.search import Stop
from parlour.web import protocol
from parlour.web.analysis import analysis as analysed
from parlour.web.hall import WAIT, Hall, catalogue
from parlour.web.records import Records
from parlour.web.tables import BURST, Connection, Refused, Table

STATIC = Path(__file__).parent / "static"
HELLO_WAIT = 10.0
"""Seconds a new websocket has to say hello."""
FLOOD_CLOSE = 5 * BURST
"""Messages over the rate a connection may send before it is closed."""


def create_app(
    db: str | Path = ":memory:", abandon: float = 60.0, warm: bool = True, wait: float = WAIT
) -> Starlette:
    """The application, keeping finished games at ``db``; a seat empty ``abandon`` seconds
    forfeits, and a game whose seats are not all taken within ``wait`` seconds is called
    off.  ``warm`` compiles the games' rules and engines in a thread at start-up, so that
    the first move of the first game does not wait for the compiler."""
    hall = Hall(Records(db), abandon, wait)
    warmed = threading.Event()
    analyses: dict[str, list[int | None]] = {}
    analysing = asyncio.Lock()  # one analysis at a time: the engine's threads are few
    stop = Stop()  # set at shutdown: an analysis under way ends with the server

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if warm:
            threading.Thread(target=_warm_up, args=(warmed,), daemon=True, name="warm-up").start()
        else:
            warmed.set()
        yield
        stop.set()
        hall.close()
        await asyncio.sleep(0)  # the aborts are told before the records close
        hall.records.close()

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def games_catalogue(request: Request) -> Response:
        return JSONResponse(catalogue())

    async def games(request: Request) -> Response:
        return JSONResponse({"playing": hall.playing(), "finished": hall.records.latest()})

    async def ready(request: Request) -> Response:
        return JSONResponse({"ready": warmed.is_set()})

    async def new_game(request: Request) -> Response:
        body = await request.body()
        if len(body) > protocol.MAX_CHARS:
            limit = protocol.MAX_CHARS
            return _refusal(f"request too long: {len(body)} bytes, the limit is {limit}")
        try:
            table, token, invite = hall.create(protocol.json_object(body.decode(errors="replace")))
        except Refused as error:
            return _refusal(str(error))
        return JSONResponse({"id": table.id, "token": token, "invite": invite})

    async def record(request: Request) -> Response:
        found = hall.records.get(request.path_params["id"])
        if found is None:
            return JSONResponse({"error": "no finished game has this id"}, status_code=404)
        return JSONResponse(found)

    async def analysis(request: Request) -> Response:
        game_id = request.path_params["id"]
        if game_id in analyses:  # only a record that exists is ever analysed
            return JSONResponse({"values": analyses[game_id]})
        found = hall.records.get(game_id)
        if found is None:
            return JSONResponse({"error": "no finished game has this id"}, status_code=404)
        async with analysing:
            if game_id not in analyses:
                try:
                    values = await in_thread(analysed, found, stop, name="analysis")
                except ParlourError as error:
                    return _refusal(str(error))
                analyses[game_id] = values
        return JSONResponse({"values": analyses[game_id]})

    async def socket(websocket: WebSocket) -> None:
        await websocket.accept()
        table = hall.tables.get(websocket.path_params["id"])
        if table is None:
            found = hall.records.get(websocket.path_params["id"])
            message = {"type": "record", "record": found} if found else _no_game()
            await websocket.send_json(message)
            await websocket.close()
            return
        try:
            connection = table.join(await _hello(websocket))
        except Refused as error:
            await websocket.send_json({"type": "error", "message": str(error), "fatal": True})
            await websocket.close()
            return
        sender = asyncio.get_running_loop().create_task(_send(websocket, connection))
        try:
            await _listen(websocket, table, connection)
        finally:
            table.leave(connection)
            sender.cancel()

    routes = [
        Route("/", page),
        Route("/game/{id}", page),
        Route("/replay/{id}", page),
        Route("/api/catalogue", games_catalogue),
        Route("/api/games", games),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{id}", record),
        Route("/api/games/{id}/analysis", analysis),
        Route("/api/ready", ready),
        WebSocketRoute("/ws/{id}", socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.hall = hall
    return app


def _refusal(message: str) -> Response:
    return JSONResponse({"error": message}, status_code=400)


def _no_game() -> dict[str, Any]:
    return {"type": "error", "message": "no game has this id", "fatal": True}


async def _hello(websocket: WebSocket) -> str | None:
    """The seat token of the tab's first message (None: it watches); Refused for any
    first message but a hello."""
    try:
        text = await asyncio.wait_for(_text(websocket), HELLO_WAIT)
    except TimeoutError:
        raise Refused(f"no hello within {HELLO_WAIT:g} s") from None
    if text is None:
        raise Refused("the connection closed")
    message = protocol.parse(text)
    if message["type"] != "hello":
        raise Refused("the first message is a hello (with the seat's token, if any)")
    token: str | None = message.get("token")
    return token


async def _text(websocket: WebSocket) -> str | None:
    """The next text message; None once the connection closes; Refused for binary."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        return None
    text = message.get("text")
    if text is None:
        raise Refused("messages are JSON text, not binary")
    return str(text)


async def _listen(websocket: WebSocket, table: Table, connection: Connection) -> None:
    """Hand each message of the tab to the table until the tab goes (or floods)."""
    dropped = 0
    while True:
        try:
            text = await _text(websocket)
            if text is None:
                return
            if not connection.take_turn():
                dropped += 1
                if dropped > FLOOD_CLOSE:
                    await websocket.close(code=1008, reason="too many messages")
                    return
                raise Refused("too many messages: slow down (this one was dropped)")
            message = protocol.parse(text)
            if message["type"] == "hello":
                raise Refused("this connection has said hello already")
            table.handle(connection, message)
        except Refused as error:
            connection.send({"type": "error", "message": str(error), "n": table.n})


async def _send(websocket: WebSocket, connection: Connection) -> None:
    with contextlib.suppress(Exception):  # the tab went away: its listener ends the rest
        while True:
            await websocket.send_json(await connection.outbox.get())


def _warm_up(done: threading.Event) -> None:
    """Compile each game's rules and engine (numba; and build its endgame table), once per
    process, before anyone plays or asks for a hint."""
    for name in game_names():
        played = game(name)
        if not played.CHOICES:
            continue
        start = played.start()
        start.play_report(start.legal_moves()[0])
        warm_up(start)
    done.set()
