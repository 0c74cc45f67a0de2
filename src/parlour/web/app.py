"""The web application: the page, a small JSON API, and one websocket per browser tab.

- ``GET /`` (and ``/game/ID``, ``/replay/ID``): the page, which routes itself;
- ``GET /api/catalogue``: the games, their options and their computer's levels;
  ``GET /api/games?page=N``: a page of the games under way and of the last finished;
  ``POST /api/games``: a new game (see :mod:`parlour.web.hall`), answered with its id
  and the seat tokens (at most :data:`~parlour.web.limits.GAMES` per client address,
  else 429 with ``Retry-After``);
  ``GET /api/games/ID``: a finished game's record, for its replay;
  ``GET /api/games/ID/analysis``: its review, each position's value and each move's grade;
  ``GET /api/games/ID/saved``: the game (finished or under way) as parlour's saved game,
  which ``parlour play GAME --load FILE`` takes up; ``GET /api/games/ID/form``: the same
  in the game's own record form (five in a row's ``.psq``), where it has one;
  ``POST /api/upload?name=FILE``: a game file (saved game or record form, by its name's
  suffix; its bytes the body) as a replay's record, and ``POST
  /api/upload/analysis?name=FILE`` its review (see :mod:`parlour.web.upload`; uploads
  and reviews are rated per client address);
  ``GET /api/rules/GAME``: the rules of the game, the Markdown parlour's rules text is
  written in (the page lays it out);
  ``GET /api/ready``: whether the games' engines are compiled, and how far that is
  (start-up compiles them in a thread);
- ``/ws/ID``: the game itself.  The tab's first message is ``hello`` with its seat token
  (none to watch); it gets the whole game (``state``), then each event as it happens
  (``event``, numbered), and ``error`` for each message refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from parlour.actors.runtime import in_thread
from parlour.core import BadOption, ParlourError, game, game_names, parse_whole
from parlour.kit import kit_of, prepare
from parlour.rules_text import rules_text
from parlour.search import Stop
from parlour.web import protocol
from parlour.web.analysis import analysis as analysed
from parlour.web.engines import EnginePool, default_megabytes
from parlour.web.hall import PAGE, WAIT, Hall, catalogue
from parlour.web.limits import GAMES, REVIEWS, UPLOADS, PerAddress, retry_after
from parlour.web.records import Records
from parlour.web.saved import in_form, saved_game
from parlour.web.tables import BURST, Connection, Refused, Table
from parlour.web.upload import MAX_BYTES, uploaded
from parlour.web.views import Json

STATIC = Path(__file__).parent / "static"
HELLO_WAIT = 10.0
"""Seconds a new websocket has to say hello."""
FLOOD_CLOSE = 5 * BURST
"""Messages over the rate a connection may send before it is closed."""


def create_app(
    db: str | Path = ":memory:",
    abandon: float = 60.0,
    warm: bool = True,
    wait: float = WAIT,
    games_rate: tuple[float, float] | None = GAMES,
    max_memory: int | None = None,
) -> Starlette:
    """The application, keeping finished games at ``db``; a seat empty ``abandon`` seconds
    forfeits, and a game whose seats are not all taken within ``wait`` seconds is called
    off.  ``warm`` compiles the games' rules and engines in a thread at start-up, so that
    the first move of the first game does not wait for the compiler.  ``games_rate``
    (rate a second, burst) bounds the games each client address creates (None: no bound,
    for a load test on the loopback).  ``max_memory`` (MB) bounds the computer's engines
    (None: a quarter of the machine's memory; BadOption when too small for one)."""
    engines = EnginePool(default_megabytes() if max_memory is None else max_memory)
    hall = Hall(Records(db), abandon, wait, engines)
    creating = None if games_rate is None else PerAddress(*games_rate)
    warming = WarmUp()
    analyses: dict[str, Json] = {}
    reviewing = PerAddress(*REVIEWS)  # reviews of files (a stored game's is kept)
    uploading = PerAddress(*UPLOADS)
    analysing = asyncio.Lock()  # one analysis at a time: the engine's threads are few
    stop = Stop()  # set at shutdown: an analysis under way ends with the server

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hall.restore()
        if warm:
            threading.Thread(target=warming.run, daemon=True, name="warm-up").start()
        else:
            warming.skip()
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
        try:
            page = parse_whole(
                request.query_params.get("page", "0"), "the page", 0, 10**6, BadOption
            )
        except ParlourError as error:
            return _refusal(str(error))
        playing, more_playing = hall.playing(page)
        finished = hall.records.latest(PAGE + 1, page * PAGE)
        return JSONResponse(
            {
                "page": page,
                "playing": playing,
                "finished": finished[:PAGE],
                "more": more_playing or len(finished) > PAGE,
            }
        )

    async def ready(request: Request) -> Response:
        return JSONResponse(warming.progress())

    async def new_game(request: Request) -> Response:
        wait = creating.take(_address(request)) if creating else 0
        if wait:
            return _too_many("new games", wait)
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

    def download(
        request: Request, write: Callable[[Json], tuple[str, str]], media_type: str
    ) -> Response:
        """The game's record so far (under way or finished) as a file to save, written by
        ``write`` (its suffix and text; Refused where it cannot be)."""
        game_id = request.path_params["id"]
        table = hall.tables.get(game_id)
        found = table.record() if table is not None else hall.records.get(game_id)
        if found is None:
            return JSONResponse({"error": "no game has this id"}, status_code=404)
        try:
            suffix, text = write(found)
        except Refused as error:
            return _refusal(str(error))
        name = f"parlour-{found['table']['game']}-{game_id}{suffix}"
        headers = {"Content-Disposition": f'attachment; filename="{name}"'}
        return Response(text, media_type=media_type, headers=headers)

    async def saved(request: Request) -> Response:
        return download(request, lambda found: (".json", saved_game(found)), "application/json")

    async def own_form(request: Request) -> Response:
        return download(request, in_form, "text/plain")

    async def upload(request: Request) -> Response:
        wait = uploading.take(_address(request))
        if wait:
            return _too_many("files", wait)
        try:
            return JSONResponse(uploaded(*await _file(request)))
        except Refused as error:
            return _refusal(str(error))

    async def upload_analysis(request: Request) -> Response:
        wait = reviewing.take(_address(request))
        if wait:
            return _too_many("reviews", wait)
        try:
            found = uploaded(*await _file(request))
        except Refused as error:
            return _refusal(str(error))
        async with analysing:
            try:
                return JSONResponse(await in_thread(analysed, found, stop, name="analysis"))
            except ParlourError as error:
                return _refusal(str(error))

    async def rules_page(request: Request) -> Response:
        name = request.path_params["game"]
        if name not in game_names():
            return JSONResponse({"error": f"no game called {name!r:.40}"}, status_code=404)
        try:
            return JSONResponse({"markdown": rules_text(name)})
        except BadOption as error:
            return _refusal(str(error))

    async def analysis(request: Request) -> Response:
        game_id = request.path_params["id"]
        if game_id in analyses:  # only a record that exists is ever analysed
            return JSONResponse(analyses[game_id])
        found = hall.records.get(game_id)
        if found is None:
            return JSONResponse({"error": "no finished game has this id"}, status_code=404)
        async with analysing:
            if game_id not in analyses:
                try:
                    reviewed = await in_thread(analysed, found, stop, name="analysis")
                except ParlourError as error:
                    return _refusal(str(error))
                analyses[game_id] = reviewed
        return JSONResponse(analyses[game_id])

    async def socket(websocket: WebSocket) -> None:
        await websocket.accept()
        table = hall.tables.get(websocket.path_params["id"])
        if table is None:
            found = hall.records.get(websocket.path_params["id"])
            await _last_word(
                websocket, {"type": "record", "record": found} if found else _no_game()
            )
            return
        try:
            address = websocket.client.host if websocket.client else ""
            connection = table.join(await _hello(websocket), address)
        except Refused as error:
            await _last_word(websocket, {"type": "error", "message": str(error), "fatal": True})
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
        Route("/api/games/{id}/saved", saved),
        Route("/api/games/{id}/form", own_form),
        Route("/api/upload", upload, methods=["POST"]),
        Route("/api/upload/analysis", upload_analysis, methods=["POST"]),
        Route("/api/rules/{game}", rules_page),
        Route("/api/ready", ready),
        WebSocketRoute("/ws/{id}", socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.hall = hall
    app.state.warming = warming
    return app


async def _file(request: Request) -> tuple[str, bytes]:
    """The name and the bytes of a file sent as a request's body, read no further than
    the limit (Refused beyond it)."""
    name = request.query_params.get("name", "")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BYTES:
            raise Refused(f"the file is too long: the limit is {MAX_BYTES} bytes")
    return name, body


def _address(request: Request) -> str:
    """The client's address, whose rates a request counts against."""
    return request.client.host if request.client else ""


def _too_many(what: str, wait: float) -> Response:
    """The refusal of a request over its address's rate, with the seconds to wait."""
    seconds = retry_after(wait)
    return JSONResponse(
        {"error": f"too many {what} from your address: try again in {seconds} s"},
        status_code=429,
        headers={"Retry-After": str(seconds)},
    )


def _refusal(message: str) -> Response:
    return JSONResponse({"error": message}, status_code=400)


def _no_game() -> dict[str, Any]:
    return {
        "type": "error",
        "message": "This game is not on the server any more (it may have been restarted):"
        " start a new one from the lobby.",
        "fatal": True,
    }


async def _last_word(websocket: WebSocket, message: Json) -> None:
    """Send ``message`` and close, unless the tab has gone already (then nothing to say)."""
    with contextlib.suppress(Exception):  # a closed socket: nobody to tell
        await websocket.send_json(message)
        await websocket.close()


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
            refusal = {"type": "error", "message": str(error), "n": table.n}
            if error.retry_after is not None:
                refusal["retry_after"] = error.retry_after
            connection.send(refusal)


async def _send(websocket: WebSocket, connection: Connection) -> None:
    with contextlib.suppress(Exception):  # the tab went away: its listener ends the rest
        while True:
            await websocket.send_text(await connection.outbox.get())


class WarmUp:
    """Compiling each game's rules and engine (numba; and building its endgame table),
    once per process, before anyone plays or asks for a hint, in a thread; its progress
    for the pages (``/api/ready``), which say that the server is getting ready instead of
    waiting in silence."""

    def __init__(self) -> None:
        self.names = [name for name in game_names() if game(name).CHOICES]
        self.done = 0
        self.ready = threading.Event()

    def run(self) -> None:
        for name in self.names:
            prepare(game(name).start())
            self.done += 1
        self.ready.set()

    def skip(self) -> None:
        """Ready at once (a test's server, whose engines compile when first used)."""
        self.done = len(self.names)
        self.ready.set()

    def progress(self) -> Json:
        """Whether all is ready, how many games are, of how many, and which comes next."""
        ready = self.ready.is_set()
        name = self.names[min(self.done, len(self.names) - 1)]
        doing = None if ready else kit_of(name).title(name)
        return {"ready": ready, "done": self.done, "of": len(self.names), "doing": doing}
