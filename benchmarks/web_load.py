"""The web server under load: many games at once over websockets, random players against
each other or against the computer.

It starts ``parlour serve --no-rate-limit`` on a free port of the loopback (its own
process, a database in a temporary folder), makes ``--games`` Kalah games, for two people
by link (both seats opened over a websocket) or, with ``--level``, against the computer
at that level (one seat opened), and has each person's seat play a random legal move on
its turn after ``--think`` seconds (a person's pace).  A move's round trip is the time
from sending it to receiving its event.  At the end every game must have ended by the
rules, its moves as each seat saw them must agree with the server's, and replaying them
must give the final position: a game lost or corrupted is counted, and the script fails.
The processor time the server used from the first game made to the last ended, a move,
is the cost of a move that the machine's other load does not change much (the round
trips are the machine's as much as the server's).  The server's resident memory
(Linux's ``VmRSS``) is read when it is ready, at its
highest during the games, and ``--settle`` seconds after the last game ended: so the
memory a game holds and whether it is given back.  It stops by itself (``--limit``
seconds at most) and stops its server.

    .venv/bin/python benchmarks/web_load.py [--games 200] [--level 4] [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx2
import websockets

import parlour
from record import arguments, record


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Seat:
    """One seat's websocket: plays random legal moves, timing each move's round trip."""

    def __init__(self, url: str, token: str, rng: random.Random, think: float) -> None:
        self.url, self.token, self.rng, self.think = url, token, rng, think
        self.trips: list[float] = []
        self.moves: list[str] = []
        self.refused = 0
        self.result: dict[str, Any] | None = None

    async def play(self) -> None:
        async with websockets.connect(self.url) as ws:
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            mine: list[int] = []
            n, position, sent = 0, None, None
            while self.result is None:
                message = json.loads(await ws.recv())
                if message["type"] == "state":
                    mine, n = message["you"], message["n"]
                    position, self.moves = message["now"]["position"], message["now"]["moves"]
                elif message["type"] == "event":
                    n = message["n"]
                    if message["kind"] == "over":
                        self.result = message["result"]
                        break
                    self.moves.append(message["move"])
                    position = message["position"]
                    if sent is not None and message["player"] in mine:
                        self.trips.append(time.perf_counter() - sent)
                        sent = None
                elif message["type"] == "error":
                    self.refused += 1
                    await asyncio.sleep(0.2)
                    await ws.send(json.dumps({"type": "sync"}))
                    continue
                else:
                    continue
                if position and position["to_move"] in mine and sent is None:
                    await asyncio.sleep(self.think)
                    move = self.rng.choice(position["legal"])
                    sent = time.perf_counter()
                    await ws.send(json.dumps({"type": "move", "move": move, "at": n}))


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


async def run(args: argparse.Namespace, base: str, pid: int) -> dict[str, Any]:
    options = {"pits": args.pits, "seeds": args.seeds}
    rng = random.Random(args.seed)
    seats: list[tuple[Seat, Seat | None]] = []
    start_mb = rss_mb(pid)
    start_cpu = cpu_seconds(pid)
    highest = [start_mb]
    sampler = asyncio.get_running_loop().create_task(sample(pid, highest))
    async with httpx2.AsyncClient(base_url=base) as client:
        for _ in range(args.games):
            request: dict[str, Any] = {"game": "kalah", "options": options, "opponent": "link"}
            if args.level:
                request |= {"opponent": "computer", "level": args.level}
            made = (await client.post("/api/games", json=request)).json()
            url = base.replace("http", "ws") + f"/ws/{made['id']}"
            first = Seat(url, made["token"], random.Random(rng.random()), args.think)
            second = made["invite"] and Seat(
                url, made["invite"], random.Random(rng.random()), args.think
            )
            seats.append((first, second))
        started = time.perf_counter()
        everyone = [seat.play() for pair in seats for seat in pair if seat]
        done = await asyncio.wait_for(asyncio.gather(*everyone, return_exceptions=True), args.limit)
        seconds = time.perf_counter() - started
        cpu = cpu_seconds(pid) - start_cpu
        await asyncio.sleep(args.settle)
        sampler.cancel()
        end_mb = rss_mb(pid)
        lost = 0
        for first, second in seats:
            kept = await client.get("/api/games/" + first.url.rsplit("/", 1)[1])
            lost += not (kept.status_code == 200 and agree(options, first, second, kept.json()))
    failures = [d for d in done if isinstance(d, BaseException)]
    trips = sorted(t for pair in seats for seat in pair if seat for t in seat.trips)
    moves = sum(len(first.moves) for first, _ in seats)
    return {
        "games": args.games,
        "lost_or_corrupted": lost,
        "connection_failures": len(failures),
        "moves": moves,
        "seconds": seconds,
        "moves_per_second": moves / seconds,
        "server_cpu_ms_per_move": round(1000 * cpu / moves, 3),
        "round_trip_p50_ms": 1000 * trips[len(trips) // 2],
        "round_trip_p99_ms": 1000 * trips[min(len(trips) - 1, int(len(trips) * 0.99))],
        "refused": sum(seat.refused for pair in seats for seat in pair if seat),
        "rss_start_mb": round(start_mb, 1),
        "rss_highest_mb": round(highest[0], 1),
        "rss_end_mb": round(end_mb, 1),
        "rss_per_game_kb": round(1024 * (highest[0] - start_mb) / args.games, 1),
    }


def wait_until_ready(base: str, server: subprocess.Popen[bytes], cold: bool) -> None:
    """Wait until the server answers and (unless ``cold``) has compiled its kernels, so
    that the figures are the server's alone."""
    deadline = time.monotonic() + 120
    while True:
        try:
            if httpx2.get(base + "/api/ready").json()["ready"] or cold:
                return
        except httpx2.TransportError:
            pass
        if time.monotonic() > deadline or server.poll() is not None:
            raise SystemExit("the server did not start")
        time.sleep(0.1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--pits", type=int, default=6)
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--think", type=float, default=0.1, help="seconds before each move")
    parser.add_argument("--limit", type=float, default=300, help="seconds before giving up")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--level", type=int, default=0, help="the computer's level (0: people by link)"
    )
    parser.add_argument(
        "--settle", type=float, default=2.0, help="seconds after the games before the last RSS"
    )
    parser.add_argument(
        "--cold", action="store_true", help="start before the server has compiled its kernels"
    )
    quick = {"games": 6, "pits": 4, "seeds": 2, "think": 0.02, "limit": 60, "cold": True}
    quick |= {"settle": 0.1}
    args = arguments(parser, quick)
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        command = [sys.executable, "-c", "from parlour.cli import main; main()", "serve"]
        command += ["--port", str(port), "--db", str(Path(folder) / "games.sqlite")]
        command += ["--no-rate-limit"]
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}"
        try:
            wait_until_ready(base, server, args.cold)
            figures = asyncio.run(run(args, base, server.pid))
        finally:
            server.terminate()
            server.wait(10)
    print(
        f"{figures['games']} games at once, {figures['moves']} moves in {figures['seconds']:.1f} s:"
        f" {figures['moves_per_second']:.0f} moves/s served"
        f" ({figures['server_cpu_ms_per_move']:.2f} ms of the server's processor a move,"
        " games made and joined included); round trip p50"
        f" {figures['round_trip_p50_ms']:.1f} ms, p99 {figures['round_trip_p99_ms']:.1f} ms;"
        f" {figures['lost_or_corrupted']} games lost or corrupted, {figures['refused']} refusals;"
        f" server RSS {figures['rss_start_mb']:.0f} MB at start,"
        f" {figures['rss_highest_mb']:.0f} MB at most ({figures['rss_per_game_kb']:.0f} kB a game),"
        f" {figures['rss_end_mb']:.0f} MB after"
    )
    record(args, figures)
    if figures["lost_or_corrupted"] or figures["connection_failures"]:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
