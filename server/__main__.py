"""``soccerdesk-relay``: run the relay server.

soccerdesk-relay --host 127.0.0.1 --port 8765 [--db PATH]
soccerdesk-relay --port 8765 --redis redis://127.0.0.1:6379/0   # one node of a cluster
python -m server --port 0          # any free port; the chosen one is printed
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import logging
import signal
import sys

from server.relay import NO_REDIS, RelaySettings, cluster_available, default_db_path, start_relay
from server.store import SYNC_MODES


def parse_args(argv: list[str] | None) -> RelaySettings:
    d = RelaySettings()
    p = argparse.ArgumentParser(prog="soccerdesk-relay", description="The soccerdesk relay server (WebSocket at /ws).")
    p.add_argument(
        "--host", default=d.host, help=f"address to listen on (default {d.host}; 0.0.0.0 for every interface)"
    )
    p.add_argument("--port", type=int, default=d.port, help=f"TCP port (default {d.port}; 0 picks a free one)")
    p.add_argument(
        "--db", default="", help=f"SQLite file of the rooms (default {default_db_path()}; ':memory:' keeps nothing)"
    )
    p.add_argument(
        "--db-sync",
        default=d.db_sync,
        choices=SYNC_MODES,
        help="normal (default): a commit survives a crash of the relay, a power cut may lose the last second; "
        "full: it survives a power cut too (an fsync per commit)",
    )
    p.add_argument(
        "--redis",
        default="",
        metavar="URL",
        help="redis://HOST:PORT/DB: join the cluster of relays sharing this Redis (rooms live there; --db is unused)",
    )
    p.add_argument("--node", default="", help="this node's name in the cluster (default: host, process id, random)")
    p.add_argument(
        "--lease-seconds",
        type=float,
        default=d.lease_seconds,
        help="with --redis: seconds after which a silent node's rooms are taken over by another",
    )
    p.add_argument("--max-rooms", type=int, default=d.max_rooms, help="live rooms (someone connected) at once")
    p.add_argument("--heartbeat", type=float, default=d.heartbeat, help="seconds between WebSocket pings")
    p.add_argument("--message-rate", type=float, default=d.message_rate, help="messages per second per connection")
    p.add_argument(
        "--ip-message-rate", type=float, default=d.ip_message_rate, help="messages per second per client address"
    )
    p.add_argument("--ip-connections", type=int, default=d.ip_connections, help="open connections per client address")
    p.add_argument(
        "--guesses-per-minute", type=int, default=d.guesses_per_minute, help="wrong codes/tokens per address per minute"
    )
    p.add_argument(
        "--rooms-per-minute", type=int, default=d.rooms_per_minute, help="rooms one address may create per minute"
    )
    p.add_argument(
        "--entries-per-minute",
        type=int,
        default=d.entries_per_minute,
        help="spectates and resumes one address may make per minute (each sends a whole snapshot)",
    )
    p.add_argument(
        "--hello-timeout", type=float, default=d.hello_timeout, help="seconds a new connection has to say hello"
    )
    p.add_argument(
        "--request-timeout",
        type=float,
        default=d.request_seconds,
        help="seconds a new connection has to send its whole HTTP request (the WebSocket upgrade)",
    )
    p.add_argument(
        "--bot-budget",
        type=float,
        default=d.bot_budget,
        help="seconds the relay's bot may think about one move (then it plays a random legal one)",
    )
    p.add_argument(
        "--bot-workers",
        type=int,
        default=d.bot_workers,
        help="threads for the relay's bots and for replaying stored matches",
    )
    p.add_argument("--keep-days", type=float, default=d.keep_days, help="days an untouched room stays in the database")
    p.add_argument(
        "--trust-proxy",
        action="store_true",
        help="behind a reverse proxy on this machine: count limits per X-Real-IP / X-Forwarded-For address",
    )
    p.add_argument("--log-level", default="INFO", help="DEBUG, INFO, WARNING ...")
    a = p.parse_args(argv)
    if a.redis and not cluster_available():
        p.error(NO_REDIS)
    logging.basicConfig(level=a.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    return RelaySettings(
        host=a.host,
        port=a.port,
        db=a.db,
        db_sync=a.db_sync,
        max_rooms=a.max_rooms,
        heartbeat=a.heartbeat,
        message_rate=a.message_rate,
        message_burst=max(1, int(a.message_rate * 2)),
        ip_message_rate=a.ip_message_rate,
        ip_message_burst=max(1, int(a.ip_message_rate * 2)),
        ip_connections=a.ip_connections,
        guesses_per_minute=a.guesses_per_minute,
        rooms_per_minute=a.rooms_per_minute,
        entries_per_minute=a.entries_per_minute,
        keep_days=a.keep_days,
        hello_timeout=a.hello_timeout,
        request_seconds=a.request_timeout,
        bot_budget=a.bot_budget,
        bot_workers=max(1, a.bot_workers),
        trust_proxy=a.trust_proxy,
        redis=a.redis,
        node=a.node,
        lease_seconds=a.lease_seconds,
    )


async def serve(settings: RelaySettings) -> None:
    """Run until SIGINT/SIGTERM, then close every connection and the database cleanly."""
    relay = await start_relay(settings)
    # The rules' tables and every module are loaded now and live as long as the process:
    # frozen, they are no longer traversed by each full garbage collection, which otherwise
    # paused the event loop 150-300 ms with 500 rooms held. Every action makes thousands of
    # short-lived containers (views, frames): collecting the young generation every 50,000
    # allocations instead of 700 halved the relay_load latency at 500 matches.
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)
    # The relay's bots think in a worker thread (server/thinker.py) in pure Python, holding
    # the interpreter lock; the event loop gets it back after at most one switch interval
    # each time it wakes. 1 ms instead of 5 ms keeps a bot from adding to a ping's answer.
    sys.setswitchinterval(0.001)
    where = "Redis cluster" if settings.redis else f"database {settings.db_path()}"
    print(f"soccerdesk-relay listening on {relay.url} ({where})", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):  # Windows has no signal handlers in asyncio
            loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        await relay.stop()


def main(argv: list[str] | None = None) -> int:
    settings = parse_args(argv)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(settings))
    return 0


if __name__ == "__main__":
    sys.exit(main())
