"""The web server under load: many games at once over websockets, random players against
each other or against the computer.

For each count of ``--games`` (200 and 1,000 by default) it starts a fresh ``parlour serve
--no-rate-limit`` on a free port of the loopback (its own process, a database in a
temporary folder), makes that many Kalah games, for two people by link (both seats opened
over a websocket) or, with ``--level``, against the computer at that level (one seat
opened), and, once every seat has been sent its game, has each person's seat play a
random legal move on its turn after thinking: a time drawn evenly between half and one and
a half ``--think`` seconds (1 s on average by default, a fast person's pace: a one-minute
game's; ``--think 0.1`` is a stress no person makes).  A move's acknowledgement (its round
trip) is the time from sending it to receiving its event.  At the end every game must have
ended by the rules, its moves as each seat saw them must agree with the server's, and
replaying them must give the final position: a game lost or corrupted is counted, and the
script fails.

The processor time the server used from the first game made to the last ended, a move, is
the cost of a move that the machine's other load does not change much (the round trips
are the machine's as much as the server's); the load generator's own processor time a move
is printed beside it, since both share the machine.  The generator is one process on
uvloop, each seat a bare protocol object speaking the few websocket frames it needs (no
client library, one JSON parse a message), so that it measures the server rather than
itself.  The server's resident memory (Linux's ``VmRSS``) is read when it is ready, at
its highest during the games, and ``--settle`` seconds after the last game ended (by
default long enough for the finished tables to leave the hall and their memory to be
given back): so the memory a game holds and whether it is given back.  The machine's load
average is read before and after each count.  It stops by itself (``--limit`` seconds at
most a count) and stops its servers.

    .venv/bin/python benchmarks/web_load.py [--games 200,1000] [--think 1] [--level 4] [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, cast

import httpx2
import uvloop

import parlour
from parlour.core import BadOption, parse_whole
from record import MAX_COUNT, arguments, duration, record, refusing, whole

UPGRADE = (
    "GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    "Sec-WebSocket-Key: cGFybG91ciB3ZWIgbG9hZA==\r\nSec-WebSocket-Version: 13\r\n\r\n"
)
"""A websocket's opening request (the key is any 16 bytes in base64: nothing checks it)."""
TEXT, CLOSE, PING, PONG = 0x1, 0x8, 0x9, 0xA
"""The websocket frames' opcodes this client reads or sends."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def frame(opcode: int, payload: bytes) -> bytes:
    """A final client frame: masked, as a client's must be, with the key 0 (which leaves
    the payload as it is: no byte to change)."""
    n = len(payload)
    if n < 126:
        head = bytes((0x80 | opcode, 0x80 | n))
    elif n < 1 << 16:
        head = bytes((0x80 | opcode, 0x80 | 126)) + n.to_bytes(2, "big")
    else:
        head = bytes((0x80 | opcode, 0x80 | 127)) + n.to_bytes(8, "big")
    return head + b"\0\0\0\0" + payload


class Start:
    """The moment every seat has come (been sent its game): nobody moves before it, so that
    the games are measured under way at once, not the crowd of their openings."""

    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.come: set[Seat] = set()
        self.given = False

    def came(self, seat: Seat) -> None:
        self.come.add(seat)
        if not self.given and len(self.come) == self.seats:
            self.given = True
            for each in self.come:
                each.consider()


class Seat(asyncio.Protocol):
    """One seat's websocket: plays random legal moves, timing each move's round trip.

    It reads the server's frames itself (whole, unmasked, as the server sends them), acts
    on each message in ``data_received`` and schedules its move with ``call_later``: no
    task, no coroutine, nothing awaited a message."""

    def __init__(
        self, path: str, token: str, rng: random.Random, think: float, start: Start
    ) -> None:
        self.path, self.token, self.rng, self.think = path, token, rng, think
        self.start = start
        self.trips: list[float] = []
        self.moves: list[str] = []
        self.refused = 0
        self.result: dict[str, Any] | None = None
        self.ended: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.transport: asyncio.Transport | None = None
        self.buffer = b""
        self.open = False
        self.mine: list[int] = []
        self.n = 0
        self.position: dict[str, Any] | None = None
        self.sent: float | None = None
        self.thinking = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's: not a subclass
        host = "{}:{}".format(*transport.get_extra_info("peername"))
        self.transport.write(UPGRADE.format(path=self.path, host=host).encode())

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.ended.done():
            self.ended.set_exception(ConnectionError(f"connection lost: {exc}"))

    def data_received(self, data: bytes) -> None:
        buffer = self.buffer + data
        if not self.open:
            end = buffer.find(b"\r\n\r\n")
            if end < 0:
                self.buffer = buffer
                return
            if not buffer.startswith(b"HTTP/1.1 101"):
                self._fail(f"no websocket: {buffer[:60]!r}")
                return
            self.open = True
            buffer = buffer[end + 4 :]
            self._send({"type": "hello", "token": self.token})
        at = 0
        while len(buffer) - at >= 2:
            opcode, n, head = buffer[at] & 0x0F, buffer[at + 1] & 0x7F, 2
            if n == 126:
                n, head = int.from_bytes(buffer[at + 2 : at + 4], "big"), 4
            elif n == 127:
                n, head = int.from_bytes(buffer[at + 2 : at + 10], "big"), 10
            if len(buffer) - at < head + n:
                break
            payload = buffer[at + head : at + head + n]
            at += head + n
            if opcode == TEXT:
                self._message(json.loads(payload))
            elif opcode == PING:
                self._write(frame(PONG, payload))
            elif opcode == CLOSE:
                self._fail("the server closed the connection")
        self.buffer = buffer[at:]

    def _message(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "state":
            self.mine, self.n = message["you"], message["n"]
            self.position, self.moves = message["now"]["position"], message["now"]["moves"]
            self.start.came(self)
        elif kind == "event":
            self.n = message["n"]
            if message["kind"] == "over":
                self.result = message["result"]
                self._write(frame(CLOSE, (1000).to_bytes(2, "big")))
                assert self.transport is not None
                self.transport.close()
                if not self.ended.done():
                    self.ended.set_result(None)
                return
            self.moves.append(message["move"])
            self.position = message["position"]
            if self.sent is not None and message["player"] in self.mine:
                self.trips.append(time.perf_counter() - self.sent)
                self.sent = None
        elif kind == "error":
            self.refused += 1
            self.sent = None
            asyncio.get_running_loop().call_later(0.2, self._send, {"type": "sync"})
            return
        else:
            return
        self.consider()

    def consider(self) -> None:
        """Think about a move if it is this seat's turn (once every seat has come)."""
        if (
            self.start.given
            and self.position
            and self.position["to_move"] in self.mine
            and self.sent is None
            and not self.thinking
        ):
            self.thinking = True
            delay = self.think * self.rng.uniform(0.5, 1.5)
            asyncio.get_running_loop().call_later(delay, self._move)

    def _move(self) -> None:
        self.thinking = False
        if self.result is not None or self.position is None:
            return
        move = self.rng.choice(self.position["legal"])
        self.sent = time.perf_counter()
        self._send({"type": "move", "move": move, "at": self.n})

    def _send(self, message: dict[str, Any]) -> None:
        self._write(frame(TEXT, json.dumps(message).encode()))

    def _write(self, data: bytes) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(data)

    def _fail(self, why: str) -> None:
        if not self.ended.done():
            self.ended.set_exception(ConnectionError(why))
        if self.transport is not None:
            self.transport.close()


def _itself(seat: Seat) -> Seat:
    """The protocol factory of a seat made already."""
    return seat


def rss_mb(pid: int) -> float:
    """The resident memory of process ``pid`` in MB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise SystemExit("no VmRSS: the memory figures need Linux's /proc")


def cpu_seconds(pid: int) -> float:
    """The processor time process ``pid`` has used so far, user and system (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def agree(options: dict[str, int], first: Seat, second: Seat | None, kept: dict[str, Any]) -> bool:
    """Whether a game ended by the rules, both seats (where both are people) saw the same
    moves, and those moves replayed from the start give the last position the server
    kept."""
    if first.result is None or first.result["reason"] != "the rules":
        return False
    if second is not None and first.moves != second.moves:
        return False
    state = parlour.game("kalah", **options).start()
    for name in first.moves:
        state = state.play(state.parse_move(name))
    positions = [event["position"] for event in kept["log"] if "position" in event]
    return bool(state.notation() == positions[-1]["notation"])


async def sample(pid: int, highest: list[float]) -> None:
    """Keep the server's highest resident memory in ``highest[0]`` until cancelled."""
    while True:
        highest[0] = max(highest[0], rss_mb(pid))
        await asyncio.sleep(0.25)


def percentile(sorted_values: list[float], fraction: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * fraction))]


async def run(args: argparse.Namespace, games: int, port: int, pid: int) -> dict[str, Any]:
    options = {"pits": args.pits, "seeds": args.seeds}
    rng = random.Random(args.seed)
    loop = asyncio.get_running_loop()
    seats: list[tuple[Seat, Seat | None]] = []
    start_mb = rss_mb(pid)
    highest = [start_mb]
    sampler = loop.create_task(sample(pid, highest))
    load_before = os.getloadavg()[0]
    base = f"http://127.0.0.1:{port}"
    async with httpx2.AsyncClient(base_url=base) as client:
        start_cpu, own_cpu = cpu_seconds(pid), time.process_time()
        start = Start(games if args.level else 2 * games)
        for _ in range(games):
            request: dict[str, Any] = {"game": "kalah", "options": options, "opponent": "link"}
            if args.level:
                request |= {"opponent": "computer", "level": args.level}
            made = (await client.post("/api/games", json=request)).json()
            path = f"/ws/{made['id']}"
            first = Seat(path, made["token"], random.Random(rng.random()), args.think, start)
            second = made["invite"] and Seat(
                path, made["invite"], random.Random(rng.random()), args.think, start
            )
            seats.append((first, second))
        started = time.perf_counter()
        everyone = [seat for pair in seats for seat in pair if seat]
        for seat in everyone:
            await loop.create_connection(functools.partial(_itself, seat), "127.0.0.1", port)
        done = await asyncio.wait_for(
            asyncio.gather(*(seat.ended for seat in everyone), return_exceptions=True),
            args.limit,
        )
        seconds = time.perf_counter() - started
        cpu, own = cpu_seconds(pid) - start_cpu, time.process_time() - own_cpu
        load_after = os.getloadavg()[0]
        await asyncio.sleep(args.settle)
        sampler.cancel()
        end_mb = rss_mb(pid)
        lost = 0
        for first, second in seats:
            kept = await client.get("/api/games/" + first.path.rsplit("/", 1)[1])
            lost += not (kept.status_code == 200 and agree(options, first, second, kept.json()))
    failures = [d for d in done if isinstance(d, BaseException)]
    trips = sorted(t for seat in everyone for t in seat.trips)
    moves = sum(len(first.moves) for first, _ in seats)
    return {
        "games": games,
        "think_seconds": args.think,
        "lost_or_corrupted": lost,
        "connection_failures": len(failures),
        "moves": moves,
        "seconds": seconds,
        "moves_per_second": moves / seconds,
        "server_cpu_ms_per_move": round(1000 * cpu / moves, 3),
        "generator_cpu_ms_per_move": round(1000 * own / moves, 3),
        "round_trip_p50_ms": 1000 * percentile(trips, 0.5),
        "round_trip_p99_ms": 1000 * percentile(trips, 0.99),
        "round_trip_max_ms": 1000 * trips[-1],
        "refused": sum(seat.refused for seat in everyone),
        "rss_start_mb": round(start_mb, 1),
        "rss_highest_mb": round(highest[0], 1),
        "rss_end_mb": round(end_mb, 1),
        "rss_per_game_kb": round(1024 * (highest[0] - start_mb) / games, 1),
        "rss_after_vs_start_percent": round(100 * (end_mb - start_mb) / start_mb, 1),
        "load_before": load_before,
        "load_after": load_after,
    }


def wait_until_ready(base: str, server: subprocess.Popen[bytes], cold: bool) -> None:
    """Wait until the server answers and (unless ``cold``) has compiled its kernels, so
    that the figures are the server's alone."""
    deadline = time.monotonic() + 300
    while True:
        try:
            if httpx2.get(base + "/api/ready").json()["ready"] or cold:
                return
        except httpx2.TransportError:
            pass
        if time.monotonic() > deadline or server.poll() is not None:
            raise SystemExit("the server did not start")
        time.sleep(0.1)


def served(args: argparse.Namespace, games: int) -> dict[str, Any]:
    """The figures of ``games`` games at once on a server of their own."""
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        command = [sys.executable, "-c", "from parlour.cli import main; main()", "serve"]
        command += ["--port", str(port), "--db", str(Path(folder) / "games.sqlite")]
        command += ["--no-rate-limit"]
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        try:
            wait_until_ready(f"http://127.0.0.1:{port}", server, args.cold)
            return uvloop.run(run(args, games, port, server.pid))
        finally:
            server.terminate()
            server.wait(10)


def said(f: dict[str, Any], settle: float) -> str:
    """A count's figures in one line, for the note."""
    return (
        f"{f['games']} games at once ({f['think_seconds']:g} s think on average),"
        f" {f['moves']} moves in {f['seconds']:.1f} s: {f['moves_per_second']:.0f} moves/s"
        f" served; a move's round trip p50 {f['round_trip_p50_ms']:.1f} ms,"
        f" p99 {f['round_trip_p99_ms']:.1f} ms, max {f['round_trip_max_ms']:.0f} ms;"
        f" processor a move: server {f['server_cpu_ms_per_move']:.2f} ms (games made and"
        f" joined included), load generator {f['generator_cpu_ms_per_move']:.2f} ms;"
        f" {f['lost_or_corrupted']} games lost or corrupted, {f['refused']} refusals;"
        f" server RSS {f['rss_start_mb']:.0f} MB at start, {f['rss_highest_mb']:.0f} MB at"
        f" most ({f['rss_per_game_kb']:.0f} kB a game), {f['rss_end_mb']:.0f} MB"
        f" {settle:g} s after the games ({f['rss_after_vs_start_percent']:+.0f}%);"
        f" load average {f['load_before']:.1f} before, {f['load_after']:.1f} at the end"
        f" ({os.cpu_count()} cores)"
    )


def counts(text: str) -> list[int]:
    """The counts of games of ``--games`` (``200,1000``), each one at least."""
    return [parse_whole(part, "each count", 1, MAX_COUNT, BadOption) for part in text.split(",")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=refusing(counts), default=[200, 1000], help="counts, with commas"
    )
    parser.add_argument("--pits", type=whole(), default=6)
    parser.add_argument("--seeds", type=whole(), default=4)
    parser.add_argument(
        "--think", type=duration(), default=1.0, help="seconds before each move, on average"
    )
    parser.add_argument("--limit", type=duration(), default=600, help="seconds before giving up")
    parser.add_argument("--seed", type=whole(0), default=1)
    parser.add_argument(
        "--level", type=whole(0), default=0, help="the computer's level (0: people by link)"
    )
    parser.add_argument(
        "--settle",
        type=duration(),
        default=100.0,
        help="seconds after the games before the last RSS",
    )
    parser.add_argument(
        "--cold", action="store_true", help="start before the server has compiled its kernels"
    )
    quick = {"games": [6], "pits": 4, "seeds": 2, "think": 0.02, "limit": 60, "cold": True}
    quick |= {"settle": 0.1}
    args = arguments(parser, quick)
    failed = False
    for games in args.games:
        figures = served(args, games)
        print(said(figures, args.settle), flush=True)
        record(args, figures)
        failed |= bool(figures["lost_or_corrupted"] or figures["connection_failures"])
    if failed:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
