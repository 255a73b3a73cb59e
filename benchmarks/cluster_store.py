"""What keeping rooms in Redis costs one relay node: the figures to size a cluster with.

    nice -n 10 .venv/bin/python benchmarks/cluster_store.py
    nice -n 10 .venv/bin/python benchmarks/cluster_store.py --rooms 500 --seconds 10 --matches 40

Starts its own ``redis-server`` (loopback, a temporary folder, AOF on) once per fsync policy,
and measures, side by side for ``appendfsync always`` and ``everysec``:

1. *Appends*: ``--rooms`` rooms each appending one action after another for ``--seconds``
   (no think time: the most Redis can take from one node): appends per second and p50/p99
   latency of an acknowledged append (the fenced Lua script of ``server.redis_store``); then
   the same at the issue's loads (``--paced``: 500 and 1,000 rooms, ``--think`` 1 s between
   a room's actions).
2. *Matches*: ``--matches`` whole matches of every game, real rooms (``server.rooms.Room``)
   played with random legal actions, every write through the Journal (each action awaited
   until Redis acknowledged it, as a player would wait): CPU milliseconds of this process
   per action, with Redis and with the SQLite store for the same kind of matches, and the
   bytes one match takes in Redis (``MEMORY USAGE`` of its keys) and in the AOF file.
3. *Leases and limits*: one renewal round of ``--rooms`` leases, and a limit check.

Nothing but 127.0.0.1 is used. CPU-heavy: run under ``nice``, one benchmark at a time.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from redis.asyncio import Redis  # noqa: E402

from server.cluster import Cluster  # noqa: E402
from server.rooms import Room, RoomSettings  # noqa: E402
from server.store import RoomStore  # noqa: E402
from soccerdesk.rules import GAMES, get_game  # noqa: E402

MAX_PLIES = 600  # a random match that runs longer is cut here (counted as played so far)


class RedisProcess:
    def __init__(self, fsync: str) -> None:
        server = shutil.which("redis-server")
        if server is None:
            sys.exit("redis-server is not installed (apt-get install redis-server)")
        self.dir = Path(tempfile.mkdtemp(prefix="soccerdesk-bench-redis-"))
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.process = subprocess.Popen(
            [server, "--bind", "127.0.0.1", "--port", str(self.port), "--dir", str(self.dir)]
            + ["--appendonly", "yes", "--appendfsync", fsync, "--save", "", "--logfile", ""],
            stdout=subprocess.DEVNULL,
        )
        self.url = f"redis://127.0.0.1:{self.port}/0"

    async def ready(self) -> None:
        client = Redis.from_url(self.url)
        for _ in range(200):
            try:
                await client.ping()
                break
            except OSError:
                await asyncio.sleep(0.02)
            except Exception:
                await asyncio.sleep(0.02)
        await client.aclose()

    def cpu_seconds(self) -> float:
        """CPU time the Redis server has used so far (user + system)."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def aof_bytes(self) -> int:
        return sum(p.stat().st_size for p in self.dir.rglob("*.aof"))

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)
        shutil.rmtree(self.dir, ignore_errors=True)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def appends(node: Cluster, rooms: int, seconds: float, think: float = 0.0) -> dict[str, float]:
    """``rooms`` rooms appending one action after another (``think``: mean seconds between)."""
    codes = [f"A{rooms}T{int(think * 1000)}N{i:05d}" for i in range(rooms)]
    for code in codes:
        assert await node.claim_new(code)
        await node.store.save_room(code, {"code": code, "match": 1})
    latencies: list[float] = []
    stop = time.monotonic() + seconds

    async def one_room(code: str) -> None:
        ply = 0
        rng = random.Random(code)
        if think:
            await asyncio.sleep(rng.uniform(0, think))  # the rooms do not all start at once
        while time.monotonic() < stop:
            if think:
                await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
            started = time.perf_counter()
            await node.store.append_actions(code, 1, ply, [(ply % 2, f"move {ply}")])
            latencies.append(time.perf_counter() - started)
            ply += 1

    began = time.monotonic()
    await asyncio.gather(*(one_room(code) for code in codes))
    took = time.monotonic() - began
    return {
        "appends/s": len(latencies) / took,
        "p50 ms": pct(latencies, 0.5) * 1000,
        "p99 ms": pct(latencies, 0.99) * 1000,
    }


class Quiet:
    version = 2
    ip = "127.0.0.1"

    def send(self, text: str) -> None:
        pass

    def close(self, code: str, message: str) -> None:
        pass


async def play(room: Room, peers: list[Any], rng: random.Random, flush: Any) -> int:
    room.seat_host(peers[0], "Host", 0)
    room.join(peers[1], "Guest")
    await flush()
    while not room.state.is_terminal() and room.state.ply < MAX_PLIES:
        seat = rng.choice([s for s in room.state.current_players() if s >= 0])
        room.act(peers[seat], str(rng.choice(room.state.legal_actions(seat))), room.state.ply)
        await flush()  # the player waits for the acknowledgement
    return room.state.ply


async def matches_redis(node: Cluster, redis: RedisProcess, count: int) -> dict[str, dict[str, float]]:
    out = {}
    journal = node.journal
    for number, game_id in enumerate(GAMES):
        game = get_game(game_id)
        codes = [f"M{number}{i:04d}" for i in range(count)]
        for code in codes:
            assert await node.claim_new(code)
        aof_before = redis.aof_bytes()
        cpu, redis_cpu = time.process_time(), redis.cpu_seconds()

        async def one(code: str, seed: int, game: Any = game) -> int:
            room = Room(code, game, game.resolve_options({}), RoomSettings(), journal)  # type: ignore[arg-type]
            peers = [Quiet(), Quiet()]
            return await play(room, peers, random.Random(seed), lambda: journal.flush(code))

        plies = sum(await asyncio.gather(*(one(code, i) for i, code in enumerate(codes))))
        cpu, redis_cpu = time.process_time() - cpu, redis.cpu_seconds() - redis_cpu
        await asyncio.sleep(1.1)  # everysec: let the AOF catch up before it is measured
        sizes = []
        for code in codes:
            keys = [node.store.room_key(code), node.store.record_key(code, 1), node.store.fence_key(code)]
            keys.append(node.store.lease_key(code))
            sizes.append(sum([(await node.redis.memory_usage(k)) or 0 for k in keys]))
        out[game_id] = {
            "plies/match": plies / count,
            "cpu ms/action": cpu * 1000 / plies,
            "redis cpu ms/action": redis_cpu * 1000 / plies,
            "redis bytes/match": statistics.mean(sizes),
            "aof bytes/match": (redis.aof_bytes() - aof_before) / count,
        }
    return out


async def matches_sqlite(count: int) -> dict[str, float]:
    out = {}
    with tempfile.TemporaryDirectory() as folder:
        store = RoomStore(Path(folder) / "relay.sqlite3")
        for game_id in GAMES:
            game = get_game(game_id)
            cpu = time.process_time()
            plies = 0
            for i in range(count):
                room = Room(f"S{i:05d}", game, game.resolve_options({}), RoomSettings(), store)
                plies += await play(room, [Quiet(), Quiet()], random.Random(i), _nothing)
            out[game_id] = (time.process_time() - cpu) * 1000 / plies
        store.close()
    return out


async def _nothing() -> None:
    await asyncio.sleep(0)


async def leases_and_limits(node: Cluster, rooms: int) -> dict[str, float]:
    for i in range(rooms):
        await node.leases.acquire(f"L{i:05d}")
    rounds = []
    for _ in range(10):
        started = time.perf_counter()
        await node.leases.renew()
        rounds.append(time.perf_counter() - started)
    checks = []
    for i in range(2000):
        started = time.perf_counter()
        await node.limits.message(f"198.51.100.{i % 200}")
        checks.append(time.perf_counter() - started)
    return {
        f"renew {len(node.leases.held)} leases ms": statistics.median(rounds) * 1000,
        "limit check p50 ms": pct(checks, 0.5) * 1000,
        "limit check p99 ms": pct(checks, 0.99) * 1000,
    }


async def run(fsync: str, args: argparse.Namespace) -> dict[str, Any]:
    redis = RedisProcess(fsync)
    try:
        await redis.ready()
        node = Cluster.from_url(redis.url, node=f"bench-{fsync}", ttl=30.0)
        await node.start()
        try:
            result: dict[str, Any] = {"appends": await appends(node, args.rooms, args.seconds)}
            result["paced"] = {n: await appends(node, n, args.paced_seconds, args.think) for n in args.paced}
            result["matches"] = await matches_redis(node, redis, args.matches)
            result["leases"] = await leases_and_limits(node, args.rooms)
        finally:
            await node.stop()
        return result
    finally:
        redis.stop()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rooms", type=int, default=500, help="rooms appending at once (default 500)")
    p.add_argument("--seconds", type=float, default=10.0, help="seconds of appending (default 10)")
    p.add_argument("--matches", type=int, default=20, help="whole matches per game (default 20)")
    p.add_argument("--paced", type=int, nargs="*", default=[500, 1000], help="rooms at once with think time")
    p.add_argument("--think", type=float, default=1.0, help="mean seconds between a paced room's actions")
    p.add_argument("--paced-seconds", type=float, default=20.0, help="seconds of each paced run (default 20)")
    args = p.parse_args()
    print(
        f"redis-server: {subprocess.run(['redis-server', '--version'], capture_output=True, text=True).stdout.strip()}"
    )
    print(f"cpu: {os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f} at start")
    sys.stdout.flush()
    results = {fsync: asyncio.run(run(fsync, args)) for fsync in ("always", "everysec")}
    sqlite = asyncio.run(matches_sqlite(args.matches))

    print(f"\n1. appends, {args.rooms} rooms at once, {args.seconds:.0f} s, no think time")
    print(f"{'appendfsync':<12}{'appends/s':>12}{'p50 ms':>10}{'p99 ms':>10}")
    for fsync, r in results.items():
        a = r["appends"]
        print(f"{fsync:<12}{a['appends/s']:>12.0f}{a['p50 ms']:>10.2f}{a['p99 ms']:>10.2f}")

    print(f"\n1b. appends with think time ({args.think} s mean), {args.paced_seconds:.0f} s each")
    print(f"{'appendfsync':<12}{'rooms':>7}{'appends/s':>12}{'p50 ms':>10}{'p99 ms':>10}")
    for fsync, r in results.items():
        for n, a in r["paced"].items():
            print(f"{fsync:<12}{n:>7}{a['appends/s']:>12.0f}{a['p50 ms']:>10.2f}{a['p99 ms']:>10.2f}")

    print(f"\n2. whole matches, {args.matches} per game, random legal play (at most {MAX_PLIES} plies)")
    head = (
        f"{'game':<18}{'plies':>7}{'node cpu ms/action':>20}{'(sqlite)':>10}{'redis cpu ms/action':>21}"
        f"{'redis B/match':>15}{'aof B/match':>13}"
    )
    for fsync, r in results.items():
        print(f"appendfsync {fsync}:\n{head}")
        for game_id, m in r["matches"].items():
            print(
                f"{game_id:<18}{m['plies/match']:>7.0f}{m['cpu ms/action']:>20.3f}{sqlite[game_id]:>10.3f}"
                f"{m['redis cpu ms/action']:>21.3f}"
                f"{m['redis bytes/match']:>15.0f}{m['aof bytes/match']:>13.0f}"
            )

    print("\n3. leases and limits")
    for fsync, r in results.items():
        print(f"appendfsync {fsync}: " + ", ".join(f"{k} {v:.2f}" for k, v in r["leases"].items()))
    print(f"\nload average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
