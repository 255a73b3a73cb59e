"""Load test of the relay: N concurrent bot matches over real WebSockets on loopback.

    .venv/bin/python benchmarks/relay_load.py --matches 500 --duration 60
    .venv/bin/python benchmarks/relay_load.py --matches 50 --duration 10 --think 0.2 --game soccer-go
    .venv/bin/python benchmarks/relay_load.py --nodes 2 --matches 1000      # two nodes on one Redis
    .venv/bin/python benchmarks/relay_load.py --compare 500,1000 --duration 15 --rounds 3
        # side by side, in alternating slices: one node with SQLite (NORMAL, FULL), one node with
        # Redis (everysec, always), two nodes with Redis (everysec), at each count

The relay runs as its own process (``python -m server``, SQLite persistence on, in a
temporary folder) so its CPU and memory are its own; this process plays both seats of
every match. Each bot waits a think time (uniform 0.5–1.5 × ``--think`` seconds) and
then plays a random legal action of its view; a finished match is replaced by a new one,
so N matches are held all along. Traffic goes only to 127.0.0.1.

With ``--nodes N`` (or ``--redis``) the relays are N nodes of a cluster (``--redis URL``) on a
``redis-server`` started here (temporary folder, append-only file, ``--appendfsync always`` by
default, or ``everysec``: server/deploy/README.md says what each keeps); the host of match ``i`` plays through node ``i % N`` and its
guest through a node chosen so that half the matches have their players on different nodes.

Printed: matches held concurrently, actions per second, p50/p99 latency from sending an
action to receiving the update that contains it, the relay's memory per match (resident
memory with N matches held, minus at start, over N), matches finished, and what was
lost: actions never answered, unexpected errors or disconnects, matches whose two
players disagree on the final score.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from soccerdesk.net.protocol import PROTOCOL_VERSION, apply_patch  # noqa: E402
from soccerdesk.rules import GAMES  # noqa: E402

ANSWER_TIMEOUT = 5.0
HELLO = {"type": "hello", "version": PROTOCOL_VERSION, "client": "relay_load"}


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    refused: int = 0
    resent: int = 0
    errors: list[str] = field(default_factory=list)
    disconnects: int = 0
    unanswered: int = 0
    finished: int = 0
    disagreements: int = 0
    held: int = 0
    peak_held: int = 0


class Seat:
    """One player's connection: reads updates, acts after a think time, times its answers."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, stats: Stats, rng: random.Random, think: float) -> None:
        self.ws, self.stats, self.rng, self.think = ws, stats, rng, think
        self.seat: int | None = None
        self.room = ""
        self.view: dict[str, Any] | None = None
        self.result: dict[str, Any] | None = None
        self.waiting: tuple[int, float] | None = None  # (ply acted at, send time)
        self.acted_at = -1
        self.changed = asyncio.Event()
        self.resending: set[asyncio.Task[None]] = set()
        self.claim_bot = False  # claim the relay's bot for the absent opponent when its countdown ends

    async def request(self, frame: dict[str, Any], answer: str) -> dict[str, Any]:
        await self.ws.send_str(json.dumps(frame))
        while True:
            msg = await self.ws.receive(timeout=30)
            if msg.type != aiohttp.WSMsgType.TEXT:
                raise ConnectionError(f"closed while waiting for {answer}")
            data = json.loads(msg.data)
            self.take(data)
            if data["type"] == answer:
                return data
            if data["type"] == "error":
                raise ConnectionError(f"{data['code']}: {data['message']}")

    def take(self, data: dict[str, Any]) -> None:
        kind = data["type"]
        if kind == "joined":
            self.seat, self.room = data["seat"], data["room"]
        elif kind in ("snapshot", "update"):
            # Protocol 3: an update patches the view of ply "base", which this seat was sent last.
            self.view = data["view"] if "view" in data else apply_patch(self.view or {}, data["patch"])
            if self.waiting is not None and data.get("yours"):
                self.stats.latencies.append(time.perf_counter() - self.waiting[1])
                self.waiting = None
        elif kind == "refused" and "again" in data and self.waiting is not None:
            # Both seats chose at once and the other one landed first: the same choice is sent
            # again with the new ply, as the client library does (the latency counts from the first send).
            self.stats.resent += 1
            self._send_soon({"type": "act", "action": data["action"], "ply": data["again"]})
        elif kind == "refused":
            self.stats.refused += 1
            self.waiting = None
        elif kind == "finished":
            self.result = data["result"]
        elif kind == "countdown" and self.claim_bot and (data["countdown"] or {}).get("expired"):
            self.claim_bot = False
            self._send_soon({"type": "claim", "take": "bot"})
        elif kind == "error":
            self.stats.errors.append(data["code"])

    def _send_soon(self, frame: dict[str, Any]) -> None:
        task = asyncio.get_running_loop().create_task(self.ws.send_str(json.dumps(frame)))
        self.resending.add(task)
        task.add_done_callback(self.resending.discard)

    async def play(self, stop_at: float) -> None:
        """Act on the latest view after a think time; a reader task keeps the view fresh."""
        reader = asyncio.create_task(self._read())
        try:
            while self.result is None and time.monotonic() < stop_at and not reader.done():
                view = self.view
                if self.waiting is not None and time.perf_counter() - self.waiting[1] > ANSWER_TIMEOUT:
                    self.stats.unanswered += 1
                    self.waiting = None
                if (
                    self.waiting is None
                    and view is not None
                    and self.seat in view["to_move"]
                    and view["legal"]
                    and view["ply"] > self.acted_at
                ):
                    await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
                    if self.view is not view:
                        continue  # the position moved while this bot thought: decide again
                    self.acted_at = view["ply"]
                    self.waiting = (view["ply"], time.perf_counter())
                    self.stats.actions += 1
                    action = self.rng.choice(view["legal"])
                    await self.ws.send_str(json.dumps({"type": "act", "action": action, "ply": view["ply"]}))
                    continue
                self.changed.clear()
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(0.5):  # no extra task per wait, unlike wait_for
                        await self.changed.wait()
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reader

    async def _read(self) -> None:
        async for msg in self.ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                break
            self.take(json.loads(msg.data))
            self.changed.set()
        if self.result is None:
            self.stats.disconnects += 1
        self.changed.set()


async def one_match(
    session: aiohttp.ClientSession,
    urls: tuple[str, str],
    game: str,
    stats: Stats,
    rng: random.Random,
    think: float,
    stop_at: float,
) -> None:
    """A match whose host plays through ``urls[0]`` and guest through ``urls[1]``."""
    host_ws = await session.ws_connect(urls[0], heartbeat=30)
    guest_ws = await session.ws_connect(urls[1], heartbeat=30)
    host, guest = Seat(host_ws, stats, rng, think), Seat(guest_ws, stats, rng, think)
    try:
        for seat in (host, guest):
            await seat.request(HELLO, "welcome")
        await host.request({"type": "create", "game": game, "seat": 0}, "snapshot")
        await guest.request({"type": "join", "room": host.room}, "snapshot")
        stats.held += 1
        stats.peak_held = max(stats.peak_held, stats.held)
        await asyncio.gather(host.play(stop_at), guest.play(stop_at))
        stats.held -= 1
        if host.result is not None and guest.result is not None:
            stats.finished += 1
            if host.result != guest.result:
                stats.disagreements += 1
    finally:
        await host_ws.close()
        await guest_ws.close()


async def bot_match(
    session: aiohttp.ClientSession,
    urls: tuple[str, str],
    game: str,
    stats: Stats,
    rng: random.Random,
    think: float,
    stop_at: float,
) -> None:
    """A match against the relay's bot: the guest joins and goes for good; once its abandonment
    countdown (5 s) has run out, the host lets the relay's bot play it, and plays on."""
    host = Seat(await session.ws_connect(urls[0], heartbeat=30), stats, rng, think)
    guest_ws = await session.ws_connect(urls[1], heartbeat=30)
    guest = Seat(guest_ws, stats, rng, think)
    try:
        for seat in (host, guest):
            await seat.request(HELLO, "welcome")
        await host.request({"type": "create", "game": game, "seat": 0, "abandon_seconds": 5}, "snapshot")
        await guest.request({"type": "join", "room": host.room}, "snapshot")
        await guest_ws.close()
        host.claim_bot = True
        stats.held += 1
        await host.play(stop_at)
        stats.held -= 1
        stats.finished += host.result is not None
    finally:
        await host.ws.close()


async def bystander(session: aiohttp.ClientSession, url: str, stop_at: float, rtts: list[float]) -> None:
    """A connection in no room that sends ping every 0.05 s and times each pong."""
    async with session.ws_connect(url, heartbeat=30) as ws:
        await ws.send_str(json.dumps(HELLO))
        await ws.receive(timeout=30)
        while time.monotonic() < stop_at - 1.0:
            await asyncio.sleep(0.05)
            sent = time.perf_counter()
            await ws.send_str('{"type":"ping"}')
            while json.loads((await ws.receive(timeout=30)).data)["type"] != "pong":
                pass
            rtts.append(time.perf_counter() - sent)


async def match_slot(
    session: aiohttp.ClientSession,
    urls: tuple[str, str],
    games: list[str],
    index: int,
    stats: Stats,
    think: float,
    start_at: float,
    stop_at: float,
    against_bot: bool = False,
) -> None:
    """Keep one match running in this slot until the end: a finished match is replaced."""
    rng = random.Random(index)
    await asyncio.sleep(max(0.0, start_at - time.monotonic()))
    n = 0
    while time.monotonic() < stop_at - 1.0:
        game = games[(index + n) % len(games)]
        n += 1
        try:
            await (bot_match if against_bot else one_match)(session, urls, game, stats, rng, think, stop_at)
        except (ConnectionError, aiohttp.ClientError, TimeoutError) as exc:
            stats.errors.append(f"{type(exc).__name__}: {exc}")
            await asyncio.sleep(0.5)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def start_redis(directory: str, fsync: str = "always", nice: int | None = None) -> tuple[subprocess.Popen[bytes], str]:
    """A ``redis-server`` on a free loopback port with its data in ``directory``; it and its URL.

    ``nice``: the niceness it runs at (``None``: this process's, which it inherits)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        ["redis-server", "--bind", "127.0.0.1", "--port", str(port), "--dir", directory, "--appendonly", "yes",
         "--appendfsync", fsync, "--save", "", "--logfile", ""],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        preexec_fn=None if nice is None else (lambda: os.nice(nice - os.nice(0))),
    )  # fmt: skip
    for _ in range(500):
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5) as s:
            s.sendall(b"PING\r\n")
            if s.recv(64).startswith(b"+PONG"):
                return server, f"redis://127.0.0.1:{port}/0"
        time.sleep(0.02)
    server.kill()
    raise RuntimeError("redis-server did not start")


def redis_info(url: str) -> dict[str, str]:
    """``INFO`` of the benchmark's Redis, as text fields."""
    host, port = url.removeprefix("redis://").split("/", 1)[0].split(":")
    with socket.create_connection((host, int(port)), timeout=5) as s:
        s.sendall(b"INFO\r\n")
        data = b""
        while not data.endswith(b"\r\n") or data.count(b"\r\n") < 2 or len(data) < int(data[1 : data.index(b"\r\n")]):
            data += s.recv(65536)
    return dict(line.split(":", 1) for line in data.decode().splitlines()[1:] if ":" in line)


def start_relay(
    args: argparse.Namespace, db: str, redis_url: str, trace: str = ""
) -> tuple[subprocess.Popen[str], str]:
    """One relay process (a cluster node if ``redis_url``); it and its WebSocket URL. ``trace``:
    a file where it writes the times of its acknowledgement path (server/ack_trace.py)."""
    store = ["--redis", redis_url] if redis_url else ["--db", db]
    if not redis_url and args.db_sync != "normal":  # an older tree's relay may not know the option
        store += ["--db-sync", args.db_sync]
    relay = subprocess.Popen(
        [sys.executable, *(["-m", "cProfile", "-o", args.profile] if args.profile else []), "-m", "server", "--host", "127.0.0.1", "--port", "0", *store,
         "--ip-connections", str(4 * args.matches + 100), "--rooms-per-minute", str(100 * args.matches), "--message-rate", "100",
         "--ip-message-rate", str(max(1000, 100 * args.matches)), "--log-level", "WARNING"],
        cwd=args.relay_root or ROOT, stdout=subprocess.PIPE, text=True,
        env={**os.environ, "SOCCERDESK_ACK_TRACE": trace} if trace else None,
    )  # fmt: skip
    assert relay.stdout is not None
    line = relay.stdout.readline()
    return relay, line.split(" on ", 1)[1].split(" ", 1)[0]


async def run(args: argparse.Namespace) -> dict[str, Any]:
    games = list(GAMES) if args.game == "all" else [args.game]
    tmp = tempfile.TemporaryDirectory()
    nodes = max(1, args.nodes)
    redis_server, redis_url = (
        start_redis(tmp.name, args.appendfsync, args.redis_nice) if args.redis or nodes > 1 else (None, "")
    )
    relays: list[subprocess.Popen[str]] = []
    report: dict[str, Any] = {}
    try:
        urls = []
        for n in range(nodes):
            trace = str(Path(tmp.name) / f"trace{n}.json") if args.trace else ""
            relay, node_url = start_relay(args, args.db or str(Path(tmp.name) / f"relay{n}.sqlite3"), redis_url, trace)
            relays.append(relay)
            urls.append(node_url)
        relay = relays[0]
        url = urls[0]
        await asyncio.sleep(0.5)
        base_rss = [rss_kib(r.pid) for r in relays]
        redis_base = int(redis_info(redis_url)["used_memory"]) if redis_url else 0
        stats = Stats()
        connector = aiohttp.TCPConnector(limit=0)
        now = time.monotonic()
        ramp = min(10.0, args.matches * 0.01)
        stop_at = now + ramp + args.duration
        rss_held: list[list[int]] = []
        async with aiohttp.ClientSession(connector=connector) as session:
            slots = [
                asyncio.create_task(
                    match_slot(
                        session,
                        (urls[i % nodes], urls[(i + i // nodes) % nodes]),
                        games,
                        i,
                        stats,
                        args.think,
                        now + ramp * i / args.matches,
                        stop_at,
                    )
                )
                for i in range(args.matches)
            ]
            bot_stats = Stats()
            slots.extend(
                asyncio.create_task(
                    match_slot(
                        session,
                        (urls[i % nodes],) * 2,
                        games,
                        10_000 + i,
                        bot_stats,
                        args.bot_think,
                        now,
                        stop_at,
                        True,
                    )
                )
                for i in range(args.bot_matches)
            )
            pings: list[float] = []
            slots.append(asyncio.create_task(bystander(session, url, stop_at, pings)))
            measured_from = now + ramp + 2.0
            actions_at_start = 0
            latencies_from = pings_from = bot_actions_from = 0
            cpu_from = ([cpu_seconds(r.pid) for r in relays], cpu_seconds(os.getpid()), redis_cpu(redis_server))
            while time.monotonic() < stop_at:
                await asyncio.sleep(1.0)
                if time.monotonic() >= measured_from and not actions_at_start:
                    actions_at_start, latencies_from = stats.actions, len(stats.latencies)
                    pings_from, bot_actions_from = len(pings), bot_stats.actions
                    measured_from = time.monotonic()
                    cpu_from = ([cpu_seconds(r.pid) for r in relays], cpu_seconds(os.getpid()), redis_cpu(redis_server))
                if stats.held >= args.matches * 0.98:
                    rss_held.append([rss_kib(r.pid) for r in relays])
            measured = time.monotonic() - measured_from
            relay_cpus = [(cpu_seconds(r.pid) - c) / measured for r, c in zip(relays, cpu_from[0], strict=True)]
            relay_cpu = sum(relay_cpus)
            players_cpu = (cpu_seconds(os.getpid()) - cpu_from[1]) / measured
            redis_cores = (redis_cpu(redis_server) - cpu_from[2]) / measured
            redis_used = int(redis_info(redis_url)["used_memory"]) if redis_url else 0
            load = os.getloadavg()[0]
            actions_measured = stats.actions - actions_at_start
            await asyncio.gather(*slots, return_exceptions=True)
        lat = sorted(stats.latencies[latencies_from:]) or [float("nan")]
        ping = sorted(pings[pings_from:]) or [float("nan")]
        peak_rss_nodes = (
            [max(col) for col in zip(*rss_held, strict=True)] if rss_held else [rss_kib(r.pid) for r in relays]
        )
        peak_rss = sum(peak_rss_nodes)
        report = {
            "setup": f"{nodes} node{'s' if nodes > 1 else ''} "
            + (f"Redis {args.appendfsync}" if redis_url else f"SQLite {args.db_sync}"),
            "nodes": nodes,
            "store": "redis" if redis_url else "sqlite",
            "node_rss_held_mib": [round(k / 1024, 1) for k in peak_rss_nodes],
            "node_cpu_cores": [round(c, 2) for c in relay_cpus],
            "relay_cpu_ms_per_action": round(1000 * relay_cpu * measured / max(1, actions_measured), 3),
            "redis_cpu_cores": round(redis_cores, 2),
            "redis_cpu_ms_per_action": round(1000 * redis_cores * measured / max(1, actions_measured), 3),
            "redis_used_mib": round(redis_used / 2**20, 1),
            "redis_bytes_per_held_match": round((redis_used - redis_base) / max(1, stats.peak_held)),
            "matches": args.matches,
            "concurrent_matches_held": stats.peak_held,
            "duration_s": round(measured, 1),
            "actions_per_s": round(actions_measured / measured, 1) if measured > 0 else 0.0,
            "latency_p50_ms": round(1000 * lat[len(lat) // 2], 2),
            "latency_p99_ms": round(1000 * lat[min(len(lat) - 1, int(len(lat) * 0.99))], 2),
            "latency_mean_ms": round(1000 * statistics.fmean(lat), 2),
            "latency_samples": len(lat),
            "bystander_ping_p50_ms": round(1000 * ping[len(ping) // 2], 2),
            "bystander_ping_p99_ms": round(1000 * ping[min(len(ping) - 1, int(len(ping) * 0.99))], 2),
            "bystander_ping_samples": len(ping),
            "bot_matches": args.bot_matches,
            "actions_against_bots": bot_stats.actions - bot_actions_from,
            "relay_rss_start_mib": round(sum(base_rss) / 1024, 1),
            "relay_rss_held_mib": round(peak_rss / 1024, 1),
            "relay_kib_per_match": round((peak_rss - sum(base_rss)) / max(1, stats.peak_held), 1),
            "matches_finished": stats.finished,
            "refused": stats.refused,
            "resent_after_a_race": stats.resent,
            "unanswered_actions": stats.unanswered,
            "errors": len(stats.errors),
            "error_kinds": sorted(set(stats.errors))[:5],
            "disconnects": stats.disconnects,
            "score_disagreements": stats.disagreements,
            "relay_cpu_cores": round(relay_cpu, 2),
            "bots_cpu_cores": round(players_cpu, 2),
            "load_average": round(load, 1),
            "think_s": args.think,
            "games": games,
            "cpus": os.cpu_count(),
            "measured_window": [measured_from, measured_from + measured],
            "relay_root": args.relay_root,
        }
        return report
    finally:
        for relay in relays:
            relay.terminate()
            relay.wait(timeout=10)
            if relay.stdout is not None:
                relay.stdout.close()
        if redis_server is not None:
            redis_server.terminate()
            redis_server.wait(timeout=10)
        if args.trace and report:
            report["trace"] = trace_summary(
                [Path(tmp.name) / f"trace{n}.json" for n in range(nodes)], report["measured_window"]
            )
        tmp.cleanup()


def trace_summary(files: list[Path], window: list[float]) -> dict[str, dict[str, float]]:
    """Per stage of the relays' acknowledgement path (server/ack_trace.py), over the measured
    window: samples, p50, p99 and max (milliseconds; batch_size as a count)."""
    samples: dict[str, list[float]] = {}
    for file in files:
        if not file.exists():
            continue
        for stage, rows in json.loads(file.read_text()).items():
            samples.setdefault(stage, []).extend(v for t, v in rows if window[0] <= t <= window[1])
    out = {}
    for stage, values in sorted(samples.items()):
        values.sort()
        scale = 1.0 if stage in ("batch_size", "room_queue") else 1000.0
        if values:
            out[stage] = {
                "n": len(values),
                "p50": round(scale * values[len(values) // 2], 3),
                "p99": round(scale * values[min(len(values) - 1, int(len(values) * 0.99))], 3),
                "max": round(scale * values[-1], 3),
            }
    return out


def redis_cpu(server: subprocess.Popen[bytes] | None) -> float:
    return 0.0 if server is None else cpu_seconds(server.pid)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--matches", type=int, default=500, help="matches held at once (default 500)")
    p.add_argument("--duration", type=float, default=60.0, help="seconds of measurement after the ramp-up")
    p.add_argument("--think", type=float, default=1.0, help="mean seconds a bot waits before each action")
    p.add_argument("--game", default="all", help=f"a game id or 'all' (rotates: {', '.join(GAMES)})")
    p.add_argument(
        "--db", default="", help="the relay's database (default: a file in a temporary folder; ':memory:' for none)"
    )
    p.add_argument(
        "--bot-matches",
        type=int,
        default=0,
        help="more matches, each against the relay's own bot (the host plays; the relay's bot thinks for the other seat)",
    )
    p.add_argument(
        "--relay-root",
        default="",
        help="run the relay of another soccerdesk tree (an older commit, to compare; with --protocol it speaks)",
    )
    p.add_argument(
        "--protocol", type=int, default=PROTOCOL_VERSION, help="the protocol version the bots say hello with"
    )
    p.add_argument(
        "--bot-think",
        type=float,
        default=1.0,
        help="mean seconds the players of --bot-matches wait before each action (default 1.0)",
    )
    p.add_argument("--nodes", type=int, default=1, help="relay processes; more than one are a cluster on Redis")
    p.add_argument("--redis", action="store_true", help="keep the rooms in Redis even with one node")
    p.add_argument(
        "--appendfsync",
        default="always",
        choices=("always", "everysec", "no"),
        help="the benchmark's Redis: when its append-only file is synced to disk (default always; see server/deploy/README.md)",
    )
    p.add_argument(
        "--redis-nice",
        type=int,
        default=None,
        help="the niceness the benchmark's redis-server runs at (default: this script's); 0 runs it as a "
        "service of its own would, when the script itself runs under nice",
    )
    p.add_argument(
        "--db-sync",
        default="normal",
        choices=("normal", "full"),
        help="the SQLite relay's --db-sync: normal (a commit survives a crash of the relay) or full (a power cut too)",
    )
    p.add_argument(
        "--compare",
        default="",
        metavar="COUNTS",
        help="e.g. 500,1000: at each count, the --setups side by side, in alternating slices of --duration seconds",
    )
    p.add_argument(
        "--setups",
        default=",".join(DEFAULT_SETUPS),
        help="with --compare: [NODES]STORE-SYNC, e.g. sqlite-normal, redis-everysec, sqlite-full, redis-always, "
        f"2redis-everysec (default {','.join(DEFAULT_SETUPS)})",
    )
    p.add_argument(
        "--rounds",
        type=int,
        default=3,
        help="with --compare: slices of each setup, alternating (the setups' order turns each round)",
    )
    p.add_argument(
        "--trace",
        action="store_true",
        help="the relays record their acknowledgement path (server/ack_trace.py); its stages' percentiles are printed",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--profile", default="", help="run the relay under cProfile and write its statistics to this file")
    args = p.parse_args(argv)
    HELLO["version"] = args.protocol
    # The bots' process is tuned like the relay's (server/__main__.py), so its garbage
    # collections do not show up as relay latency.
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)
    if args.compare:
        return compare(args, [int(n) for n in args.compare.split(",")], parse_setups(args.setups))
    report = asyncio.run(run(args))
    if args.json:
        print(json.dumps(report))
    else:
        lost = report["unanswered_actions"] + report["disconnects"] + report["score_disagreements"]
        print(f"concurrent matches held : {report['concurrent_matches_held']} of {report['matches']} asked")
        print(
            f"actions per second      : {report['actions_per_s']} (over {report['duration_s']} s, think {args.think} s)"
        )
        print(f"action -> update latency: p50 {report['latency_p50_ms']} ms, p99 {report['latency_p99_ms']} ms "
              f"({report['latency_samples']} samples)")  # fmt: skip
        print(f"bystander ping          : p50 {report['bystander_ping_p50_ms']} ms, p99 "
              f"{report['bystander_ping_p99_ms']} ms ({report['bystander_ping_samples']} samples; "
              f"{report['bot_matches']} matches against the relay's bot, {report['actions_against_bots']} actions)")  # fmt: skip
        print(f"relay memory            : {report['relay_rss_start_mib']} MiB idle, {report['relay_rss_held_mib']} MiB "
              f"held, {report['relay_kib_per_match']} KiB per match")  # fmt: skip
        print(f"cpu                     : relay {report['relay_cpu_cores']} cores, bots {report['bots_cpu_cores']} cores, "
              f"machine load average {report['load_average']} on {report['cpus']} cores")  # fmt: skip
        print(f"nodes                   : {report['setup']}: RSS {report['node_rss_held_mib']} MiB, CPU "
              f"{report['node_cpu_cores']} cores, {report['relay_cpu_ms_per_action']} CPU ms per action; Redis "
              f"{report['redis_cpu_cores']} cores ({report['redis_cpu_ms_per_action']} ms per action), "
              f"{report['redis_used_mib']} MiB, {report['redis_bytes_per_held_match']} bytes per held match")  # fmt: skip
        print(f"matches finished        : {report['matches_finished']}")
        print(f"lost                    : {lost} (unanswered {report['unanswered_actions']}, disconnects "
              f"{report['disconnects']}, score disagreements {report['score_disagreements']}); refused "
              f"{report['refused']} (resent after a race {report['resent_after_a_race']}), errors {report['errors']} "
              f"{report['error_kinds']}")  # fmt: skip
        met = report["concurrent_matches_held"] >= 500 and report["latency_p99_ms"] <= 100 and lost == 0
        print(f"target (>= 500 held, p99 <= 100 ms, nothing lost): {'met' if met else 'NOT met'}")
    return 0


# SQLite NORMAL and Redis everysec both keep an acknowledged action through a crash of the
# process that holds it (a power cut may lose the last second); SQLite FULL and Redis always
# through a power cut too (server/README.md, "How durable"). Each pair is compared like for like.
DEFAULT_SETUPS = ("sqlite-normal", "redis-everysec", "sqlite-full", "redis-always", "2redis-everysec")
PAIRS = (("redis-everysec", "sqlite-normal"), ("redis-always", "sqlite-full"))


def pairs(setups: list[Setup]) -> list[tuple[str, str]]:
    """The like-for-like pairs among ``setups`` (one node each): every Redis setup with the SQLite
    setup of the same promise, of the same tree if there is one, else of this tree."""
    out = []
    for setup in setups:
        if not setup.redis or setup.nodes != 1:
            continue
        match = next((b for a, b in PAIRS if a == f"redis-{setup.sync}"), None)
        candidates = [s for s in setups if not s.redis and f"sqlite-{s.sync}" == match]
        same = [s for s in candidates if s.root == setup.root] or [s for s in candidates if not s.root]
        if same:
            out.append((setup.name, same[0].name))
    return out


@dataclass(frozen=True)
class Setup:
    name: str  # as given: [NODES]STORE-SYNC[@TREE]
    nodes: int
    redis: bool
    sync: str
    root: str = ""  # the soccerdesk tree whose relay runs ("": this one)


def parse_setups(text: str) -> list[Setup]:
    setups = []
    for name in text.split(","):
        match = re.fullmatch(r"(\d*)(sqlite|redis)-(\w+)(?:@(.+))?", name.strip())
        if match is None:
            raise SystemExit(
                f"a setup is [NODES]sqlite-normal|full or [NODES]redis-always|everysec|no, then @TREE or not: {name!r}"
            )
        nodes, store, sync = int(match[1] or 1), match[2], match[3]
        if sync not in (("normal", "full") if store == "sqlite" else ("always", "everysec", "no")):
            raise SystemExit(f"{store} has no sync mode {sync!r}")
        if store == "sqlite" and nodes != 1:
            raise SystemExit("SQLite is one relay: several nodes need Redis")
        setups.append(Setup(name.strip(), nodes, store == "redis", sync, match[4] or ""))
    return setups


def compare(args: argparse.Namespace, counts: list[int], setups: list[Setup]) -> int:
    """At each count, ``--rounds`` short slices of every setup, alternating (the order turns
    by one each round), so that the machine's changing load falls on every setup alike; then
    per setup the median of its slices' figures, and for each like-for-like pair the median of
    the per-round ratios of their p99s."""
    slices: dict[tuple[int, str], list[dict[str, Any]]] = {}
    for count in counts:
        for round_ in range(args.rounds):
            turn = round_ % len(setups)
            for setup in setups[turn:] + setups[:turn]:
                one = argparse.Namespace(
                    **{
                        **vars(args),
                        "matches": count,
                        "nodes": setup.nodes,
                        "redis": setup.redis,
                        "appendfsync": setup.sync if setup.redis else args.appendfsync,
                        "db_sync": args.db_sync if setup.redis else setup.sync,
                        "relay_root": setup.root or args.relay_root,
                    }
                )
                load_before = os.getloadavg()[0]
                report = asyncio.run(run(one))
                report.update(round=round_, setup_name=setup.name, load_before=round(load_before, 1))
                slices.setdefault((count, setup.name), []).append(report)
                print(json.dumps(report), flush=True)
    print()
    print(f"{args.rounds} alternating slices per setup, {args.duration:g} s measured each, think {args.think:g} s; "
          "figures are medians of the slices (p99: median, and min-max of the slices)")  # fmt: skip
    print(f"{'setup':<22}{'asked':>6}{'held':>6}{'moves/s':>9}{'p50 ms':>8}{'p99 ms':>8}  {'p99 min-max':<15}"
          f"{'ping p99':>9}{'lost':>5}{'err':>5}  {'RSS per node MiB':<18}{'CPU per node':<14}{'ms/act':>7}"
          f"{'Redis ms/act':>13}{'Redis B/match':>14}  {'load':<9}")  # fmt: skip
    med = statistics.median
    for (count, _), rows in slices.items():
        first = rows[0]
        lost = sum(r["unanswered_actions"] + r["disconnects"] + r["score_disagreements"] for r in rows)
        p99s = [r["latency_p99_ms"] for r in rows]
        loads = [x for r in rows for x in (r["load_before"], r["load_average"])]
        rss = [f"{med(col):.0f}" for col in zip(*(r["node_rss_held_mib"] for r in rows), strict=True)]
        cpu = [f"{med(col):.2f}" for col in zip(*(r["node_cpu_cores"] for r in rows), strict=True)]
        print(f"{first['setup']:<22}{count:>6}{min(r['concurrent_matches_held'] for r in rows):>6}"
              f"{med(r['actions_per_s'] for r in rows):>9.1f}{med(r['latency_p50_ms'] for r in rows):>8.1f}"
              f"{med(p99s):>8.1f}  {f'{min(p99s):.1f}-{max(p99s):.1f}':<15}"
              f"{med(r['bystander_ping_p99_ms'] for r in rows):>9.1f}{lost:>5}{sum(r['errors'] for r in rows):>5}  "
              f"{'/'.join(rss):<18}{'/'.join(cpu):<14}{med(r['relay_cpu_ms_per_action'] for r in rows):>7.2f}"
              f"{med(r['redis_cpu_ms_per_action'] for r in rows):>13.2f}"
              f"{med(r['redis_bytes_per_held_match'] for r in rows):>14.0f}  {min(loads):.1f}-{max(loads):.1f}")  # fmt: skip
    print()
    if args.trace:
        print(
            "the relays' acknowledgement path (server/ack_trace.py), ms: median over the slices of each stage's p50 / p99"
        )
        for (count, name), rows in slices.items():
            stages = sorted({stage for r in rows for stage in r.get("trace", {})})
            parts = []
            for stage in stages:
                got = [r["trace"][stage] for r in rows if stage in r.get("trace", {})]
                parts.append(f"{stage} {med(g['p50'] for g in got):.2f}/{med(g['p99'] for g in got):.2f}")
            print(f"  {name:<30}{count:>6}  " + ", ".join(parts))
        print()
    for count in counts:
        for redis, sqlite in pairs(setups):
            a, b = slices.get((count, redis)), slices.get((count, sqlite))
            if not a or not b:
                continue
            ratios = [x["latency_p99_ms"] / y["latency_p99_ms"] for x, y in zip(a, b, strict=True)]
            print(f"{count} matches: p99 of {redis} / p99 of {sqlite}, per round: "
                  f"{', '.join(f'{r:.2f}' for r in ratios)}; median {med(ratios):.2f} "
                  f"(goal: at most 1.20 at 500 matches)")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
