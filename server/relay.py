"""The relay: an aiohttp WebSocket server that runs the rules for both seats.

    app = create_app(RelaySettings(db=":memory:"))
    web.run_app(app, host="127.0.0.1", port=8765)

or, embedded in another program's event loop (the desktop app hosting a LAN game,
the tests, the load benchmark)::

    relay = await start_relay(RelaySettings(host="127.0.0.1", port=0))
    print(relay.url)          # ws://127.0.0.1:PORT/ws
    await relay.stop()

One WebSocket per client at ``/ws``; ``GET /`` answers with a short text and
``GET /health`` with JSON counts. Everything a connection may say is checked against
:mod:`soccerdesk.net.protocol` before it reaches a room (:mod:`server.rooms`); every
refusal is an ``error`` or ``refused`` message and changes nothing. Flooding is
limited per connection and per client address (token buckets), and so are wrong room
codes and tokens, which makes guessing codes hopeless.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import ipaddress
import logging
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from server import ack_trace
from server.entrance import Entrance, EntranceSite, QuietAcceptErrors, entrance_middleware
from server.guessing import GUESSING, count_refusal
from server.pace import Pace
from server.rooms import UNSAVED, Hall, Room, RoomSettings, dispatch, normalize_code
from server.store import RoomStore
from server.thinker import Thinker
from soccerdesk.net.protocol import (
    MAX_FRAME_BYTES,
    PROTOCOL_VERSION,
    SUPPORTED_VERSIONS,
    ProtocolError,
    decode,
    encode,
    error,
)
from soccerdesk.rules import GAMES, get_game

if TYPE_CHECKING:  # a cluster needs Redis, the ``cluster`` extra: imported only for --redis
    from server.cluster import Cluster, ClusterLimits, RemoteRoom
    from server.node import ClusterHall

log = logging.getLogger("soccerdesk.relay")

SERVER_NAME = "soccerdesk-relay/1"


def default_db_path() -> Path:
    """The relay's SQLite file under the user data directory."""
    import platformdirs

    return Path(platformdirs.user_data_dir("soccerdesk")) / "relay.sqlite3"


@dataclass(frozen=True, slots=True)
class RelaySettings:
    """Everything an operator may tune; ``server/README.md`` explains each."""

    host: str = "127.0.0.1"
    port: int = 8765
    db: str = ""  # "" : default_db_path(); ":memory:" : no persistence
    db_sync: str = "normal"  # SQLite: "normal" survives a crash of the relay, "full" a power cut too (server.store)
    max_rooms: int = 10_000  # rooms held in memory at once
    heartbeat: float = 20.0  # seconds between WebSocket pings; a peer silent for half that after one is dropped
    message_rate: float = 20.0  # messages per second per connection (sustained)
    message_burst: int = 40
    ip_message_rate: float = 200.0  # messages per second per client address, all its connections together
    ip_message_burst: int = 400
    ip_connections: int = 32  # open connections per client address
    guesses_per_minute: int = 20  # wrong room codes per client address; wrong tokens per address and room
    rooms_per_minute: int = 30  # rooms a client address may create
    # spectates and resumes per client address: each costs a full snapshot, which late in a long
    # match holds tens of kilobytes of events (relay audit 2, measurements)
    entries_per_minute: int = 60
    flood_strikes: int = 50  # refused-for-rate messages before the connection is closed
    hard_frame_bytes: int = 4 * MAX_FRAME_BYTES  # larger frames close the connection (1009)
    send_queue: int = 1000  # frames waiting for a slow client before it is dropped
    idle_unload: float = 600.0  # seconds an empty room stays in memory
    keep_days: float = 30.0  # days an untouched room stays in the database
    sweep_every: float = 60.0
    min_seconds: int = 5  # smallest turn clock / abandonment countdown a room may ask for
    hello_timeout: float = 10.0  # seconds a new connection has to say hello before it is closed
    request_seconds: float = 10.0  # seconds a new connection has to send its HTTP request (the upgrade)
    bot_budget: float = 2.0  # seconds a relay bot may think about one move (then a random legal move)
    bot_workers: int = 1  # threads the relay's bots and replays of stored matches run in
    games: tuple[str, ...] = ()  # game ids offered; () : every registered game whose rules load
    trust_proxy: bool = False  # behind a reverse proxy on this machine: limit by X-Real-IP / X-Forwarded-For
    host_app: bool = False  # runs inside a LAN host's app: when it stops, its players are told "host_left"
    redis: str = ""  # "redis://HOST:PORT/DB": a node of a cluster, its rooms in Redis (db unused); "": SQLite
    node: str = ""  # this node's name in the cluster ("": host, process id and a random tail)
    lease_seconds: float = 4.0  # a dead node's rooms are taken over within about this

    def db_path(self) -> str:
        return self.db or str(default_db_path())


class TokenBucket:
    """``rate`` tokens per second up to ``burst``; :meth:`take` spends one if there is one."""

    __slots__ = ("rate", "burst", "tokens", "stamp")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst, self.tokens, self.stamp = rate, burst, float(burst), time.monotonic()

    def available(self) -> float:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        return self.tokens

    def take(self) -> bool:
        if self.available() >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def full(self) -> bool:
        return self.available() >= self.burst


@dataclass
class AddressLimits:
    """Per client address: open connections, message rate and wrong guesses."""

    settings: RelaySettings
    connections: dict[str, int] = field(default_factory=dict)
    messages: dict[str, TokenBucket] = field(default_factory=dict)
    guesses: dict[str, TokenBucket] = field(default_factory=dict)  # by address, and by "address room"
    creations: dict[str, TokenBucket] = field(default_factory=dict)
    entries: dict[str, TokenBucket] = field(default_factory=dict)

    def admit(self, ip: str) -> bool:
        if self.connections.get(ip, 0) >= self.settings.ip_connections:
            return False
        self.connections[ip] = self.connections.get(ip, 0) + 1
        return True

    def release(self, ip: str) -> None:
        left = self.connections.get(ip, 0) - 1
        if left > 0:
            self.connections[ip] = left
        else:
            self.connections.pop(ip, None)

    def message(self, ip: str) -> bool:
        bucket = self.messages.get(ip)
        if bucket is None:
            bucket = self.messages[ip] = TokenBucket(self.settings.ip_message_rate, self.settings.ip_message_burst)
        return bucket.take()

    def may_guess(self, key: str) -> bool:
        """Whether ``key`` (an address: room codes; ``"address room"``: tokens) may guess again."""
        bucket = self.guesses.get(key)
        return bucket is None or bucket.available() >= 1.0

    def wrong_guess(self, key: str) -> None:
        _per_minute(self.guesses, key, self.settings.guesses_per_minute)

    def may_create(self, ip: str) -> bool:
        return _per_minute(self.creations, ip, self.settings.rooms_per_minute)

    def may_enter(self, ip: str) -> bool:
        """Whether the address may ``spectate`` or ``resume`` once more (each a full snapshot)."""
        return _per_minute(self.entries, ip, self.settings.entries_per_minute)

    def prune(self) -> None:
        """Forget addresses with nothing to remember (full buckets, no connections)."""
        for table in (self.messages, self.guesses, self.creations, self.entries):
            for ip in [ip for ip, b in table.items() if b.full() and ip not in self.connections]:
                del table[ip]


def _per_minute(table: dict[str, TokenBucket], ip: str, per_minute: int) -> bool:
    """Take one of ``ip``'s ``per_minute`` (a bucket of as many, one back every ``60 / per_minute`` s)."""
    bucket = table.get(ip)
    if bucket is None:
        bucket = table[ip] = TokenBucket(per_minute / 60.0, per_minute)
    return bucket.take()


CUT_OFF_SECONDS = 1.0  # the longest a close frame to a client that reads nothing may take


@dataclass(frozen=True, slots=True)
class _Close:
    code: str
    message: str


class Connection:
    """One client WebSocket: a :class:`server.rooms.Peer` with an ordered send queue."""

    def __init__(
        self,
        ws: web.WebSocketResponse,
        ip: str,
        settings: RelaySettings,
        durable: Callable[[], asyncio.Future[None] | None] | None = None,
        durable_for: Callable[[str], asyncio.Future[None] | None] | None = None,
        transport: asyncio.Transport | None = None,
    ) -> None:
        """``durable()``: a future to wait for before sending (the store's pending commit), or ``None``;
        ``durable_for(code)``, if given, the same for the writes of one room only (a cluster node's);
        ``transport``: the socket's, cut when the client reads nothing (``None``: only closed)."""
        self.ws = ws
        self.transport = transport
        self.durable = durable
        self.durable_for = durable_for
        self.ip = ip
        self.settings = settings
        self.bucket = TokenBucket(settings.message_rate, settings.message_burst)
        self.greeted = False
        self.version = PROTOCOL_VERSION  # what its hello named (rooms send version 2 messages by it)
        self.room: Room | RemoteRoom | None = None
        self.strikes = 0
        self._warnings = Pace(1.0)  # of messages over the rate limit
        # Each frame waits for the commit of the writes made before it was queued (if any).
        self._queue: asyncio.Queue[tuple[str | _Close | None, asyncio.Future[None] | None]] = asyncio.Queue()
        self._queued_at: deque[float] = deque()  # when each text frame was queued (ack_trace on only)
        self._writer = asyncio.create_task(self._write())
        self._closing = False
        self._abort: asyncio.Task[Any] | None = None

    def send(self, text: str) -> None:
        if self._closing:
            return
        if self._queue.qsize() >= self.settings.send_queue:
            # The client reads nothing (the writer is stuck waiting for it): queueing a polite
            # error behind a thousand frames would never be read either, so hang up at once.
            # Its seat waits; a resume brings a full snapshot.
            log.warning("dropping %s: it does not read its messages", self.ip)
            self._closing = True
            self._writer.cancel()
            self._abort = asyncio.get_running_loop().create_task(self._cut_off())
            return
        self._queue.put_nowait((text, self._commit()))
        if ack_trace.TRACE is not None:
            self._queued_at.append(time.perf_counter())

    async def _cut_off(self) -> None:
        """Hang up on a client that reads nothing, so that its reader ends and its seat counts as
        away at once (the opponent is told; the abandonment countdown may start).

        A close frame is sent only if it can reach the client: behind a full socket it would
        wait for ever (and aiohttp stops the heartbeat when a close begins), so then the
        connection is cut, as it is if the close takes more than ``CUT_OFF_SECONDS``.
        """
        transport = self.transport
        if transport is None or not transport.get_write_buffer_size():
            try:
                async with asyncio.timeout(CUT_OFF_SECONDS):
                    await self.ws.close(code=1008, message=b"not reading; reconnect to resume")
                return
            except TimeoutError:
                pass
        if transport is not None:
            transport.abort()

    def _commit(self) -> asyncio.Future[None] | None:
        """The store's pending commit a frame queued now must wait for (``None``: nothing pending).

        On a cluster node, a frame of a connection in a room waits for that room's writes only,
        and one in a room owned by another node for none (the owner waited before sending it);
        a frame before the connection is in a room (entering one) waits for every write.
        """
        room = self.room
        if self.durable_for is not None and room is not None:
            return self.durable_for(room.code) if isinstance(room, Room) else None  # else a RemoteRoom
        return None if self.durable is None else self.durable()

    def close(self, code: str, message: str) -> None:
        """Send ``error`` ``code`` and close; later messages to this connection are dropped."""
        if not self._closing:
            self._closing = True
            self._queue.put_nowait((_Close(code, message), self._commit()))

    async def _write(self) -> None:
        """Send what is queued, in order. Any failure ends the connection, loudly: a writer
        that stopped quietly would leave the client waiting for frames that never come."""
        while True:
            item, committed = await self._queue.get()
            if item is None:
                return
            try:
                # Nothing is acknowledged before it is committed: the frame may tell of an
                # action written in this turn of the loop, committed at the start of the next.
                # A frame queued while nothing was waiting to be committed goes at once.
                if committed is not None:
                    if not committed.done():
                        await asyncio.wait([committed])  # neither raises its failure nor cancels it
                    if committed.exception() is not None:
                        # The writes this frame tells of are lost: it is not sent, and neither is
                        # anything after it. The client resumes from what is stored.
                        self._closing = True
                        item = _Close("server_busy", UNSAVED)
                if isinstance(item, _Close):
                    await self.ws.send_str(error(item.code, item.message))
                    await self.ws.close(code=1000 if item.code == "replaced" else 1008, message=item.code.encode())
                    return
                if ack_trace.TRACE is not None and self._queued_at:
                    ack_trace.TRACE.add("frame_wait", time.perf_counter() - self._queued_at.popleft())
                await self.ws.send_str(item)
            except (ConnectionError, RuntimeError):
                return  # the socket is gone: the reader ends the connection
            except Exception:
                log.exception("sending to %s failed; closing the connection", self.ip)
                self._closing = True
                with contextlib.suppress(Exception):
                    await self.ws.close(code=1011, message=b"internal: the relay could not send a message")
                return

    async def finish(self) -> None:
        """Stop the writer after what is queued has been sent (or the socket died)."""
        self._queue.put_nowait((None, None))
        # asyncio.wait neither raises the writer's end nor its cancellation (a client that
        # read nothing was cut off): either way it is over, or stopped after a second.
        await asyncio.wait({self._writer}, timeout=1.0)
        self._writer.cancel()
        if self._abort is not None:
            with contextlib.suppress(Exception):
                await self._abort

    def flooding(self) -> None:
        """A message over the rate limit: warn at most once a second, close after many."""
        self.strikes += 1
        if self.strikes >= self.settings.flood_strikes:
            self.close("rate_limited", "too many messages; the connection is closed")
            return
        if self._warnings.happened():
            self.send(error("rate_limited", "too many messages; this one was ignored"))


HALL = web.AppKey("hall", Hall)
SETTINGS = web.AppKey("settings", RelaySettings)
LIMITS = web.AppKey("limits", AddressLimits)
CONNECTIONS: web.AppKey[set[Connection]] = web.AppKey("connections")
STORE = web.AppKey("store", RoomStore)  # a single relay's (no --redis)
CLUSTER: web.AppKey[Cluster] = web.AppKey("cluster")  # a cluster node's (--redis)
NODE: web.AppKey[ClusterHall] = web.AppKey("node")  # a cluster node's hall (--redis)
GAME_LIST: web.AppKey[list[str]] = web.AppKey("games")
ENTRANCE = web.AppKey("entrance", Entrance)


def available_games(wanted: tuple[str, ...] = ()) -> list[str]:
    """Ids of the games (``wanted``, or every registered one) whose rules load.

    A game whose module fails to load is left out with a warning, so one broken game
    does not keep the relay from serving the others.
    """
    found = []
    for game_id in wanted or GAMES:
        try:
            get_game(game_id)
        except Exception as exc:
            log.warning("game %s is not available: %s", game_id, exc)
            continue
        found.append(game_id)
    return found


def create_app(settings: RelaySettings | None = None) -> web.Application:
    """The relay as an aiohttp application (store opened on startup, closed on cleanup)."""
    settings = settings or RelaySettings()
    # Connections are watched from TCP accept (server.entrance) when start_relay serves the app.
    entrance = Entrance(
        settings.request_seconds,
        settings.ip_connections,
        address_group,
        exempt=lambda address: settings.trust_proxy and from_this_machine(address),
    )
    app = web.Application(middlewares=[entrance_middleware(entrance)])
    app[ENTRANCE] = entrance
    app[SETTINGS] = settings
    app[LIMITS] = AddressLimits(settings)
    app[CONNECTIONS] = set()
    app[GAME_LIST] = available_games(settings.games)
    app.router.add_get("/", _index)
    app.router.add_get("/health", _health)
    app.router.add_get("/ws", _websocket)
    app.cleanup_ctx.append(_hall_context)
    app.on_shutdown.append(_close_connections)
    return app


async def _hall_context(app: web.Application) -> AsyncIterator[None]:
    settings = app[SETTINGS]
    thinker = Thinker(settings.bot_workers, settings.bot_budget, charge=app[LIMITS].message)
    if settings.redis:
        from server.node import ClusterHall

        app[CLUSTER] = cluster = _cluster(settings)
        await cluster.start()
        node = ClusterHall(cluster.journal, max_rooms=settings.max_rooms, thinker=thinker, cluster=cluster)  # type: ignore[arg-type]
        node.start()
        app[NODE] = node
        hall: Hall = node
        log.info("relay node %s, rooms in Redis at %s", cluster.node, _without_password(settings.redis))
    else:
        app[STORE] = store = RoomStore(settings.db_path(), settings.db_sync)
        hall = Hall(store, max_rooms=settings.max_rooms, thinker=thinker)
        log.info("relay store: %s (synchronous=%s)", store.path, store.synchronous)
    app[HALL] = hall
    app[SHARED_LIMITS] = app[CLUSTER].limits if settings.redis else _LocalLimits(app[LIMITS])
    sweeper = asyncio.create_task(_sweep(app))
    if ack_trace.TRACE is not None:
        ack_trace.TRACE.start()
    try:
        yield
    finally:
        sweeper.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sweeper
        if ack_trace.TRACE is not None:
            await ack_trace.TRACE.stop()
        hall.forget_refused()  # before the relay goes
        if NODE in app:
            await app[NODE].close()
            thinker.close()
            await app[CLUSTER].stop()
        else:
            for room in hall.rooms.values():
                room.stop_timers()
            thinker.close()
            app[STORE].close()
        hall.closes_lost()


NO_REDIS = "--redis needs the redis package, which the cluster extra installs: pip install 'soccerdesk[cluster]'"


def cluster_available() -> bool:
    """Whether this installation can run a cluster node (``--redis``): the ``cluster`` extra is in."""
    return importlib.util.find_spec("redis") is not None


def _cluster(settings: RelaySettings) -> Cluster:
    """This node's part in the cluster on ``settings.redis``; limits counted in Redis."""
    if not cluster_available():
        raise RuntimeError(NO_REDIS)
    from server.cluster import Cluster, ClusterLimits
    from server.redis_store import connect

    redis = connect(settings.redis)
    limits = ClusterLimits(
        redis,
        message_rate=settings.ip_message_rate,
        guesses_per_minute=settings.guesses_per_minute,
        rooms_per_minute=settings.rooms_per_minute,
        entries_per_minute=settings.entries_per_minute,
    )
    return Cluster(redis, node=settings.node or None, ttl=settings.lease_seconds, limits=limits)


def _without_password(url: str) -> str:
    """A Redis URL fit for a log line (a password in it is left out)."""
    head, at, tail = url.rpartition("@")
    return f"{head.split('//', 1)[0]}//***@{tail}" if at else url


async def _sweep(app: web.Application) -> None:
    settings = app[SETTINGS]
    while True:
        await asyncio.sleep(settings.sweep_every)
        try:
            app[HALL].sweep(settings.idle_unload, settings.keep_days * 86400)
            app[LIMITS].prune()
        except Exception:  # a sweep failing must not stop the next one
            log.exception("room sweep failed")


async def _close_connections(app: web.Application) -> None:
    connections = app[CONNECTIONS]
    host_left = app[SETTINGS].host_app
    for conn in list(connections):
        if host_left:  # a LAN host's app is closing: no relay will come back, so say so
            with contextlib.suppress(ConnectionError, RuntimeError):
                await conn.ws.send_str(error("host_left", "the host has closed the game"))
        await conn.ws.close(code=1001, message=b"relay shutting down")


async def _index(request: web.Request) -> web.Response:
    return web.Response(text=f"{SERVER_NAME}: connect a soccerdesk client to /ws (protocol {PROTOCOL_VERSION})\n")


async def _health(request: web.Request) -> web.Response:
    app = request.app
    hall = app[HALL]
    body: dict[str, Any] = {
        "rooms": len(hall.rooms),
        "live_rooms": hall.live_rooms(),
        "connections": len(app[CONNECTIONS]),
        "protocol": PROTOCOL_VERSION,
    }
    if CLUSTER in app:
        cluster = app[CLUSTER]
        body.update(node=cluster.node, redis="up" if cluster.health.up else "down")
        if not cluster.health.up:  # a load balancer's health check sends new players elsewhere
            return web.json_response(body, status=503)
    return web.json_response(body)


async def _websocket(request: web.Request) -> web.WebSocketResponse:
    app = request.app
    settings, limits = app[SETTINGS], app[LIMITS]
    # aiohttp refuses a frame of max_msg_size bytes or more; ours closes only frames over the limit.
    ws = web.WebSocketResponse(heartbeat=settings.heartbeat, max_msg_size=settings.hard_frame_bytes + 1)
    await ws.prepare(request)
    ip = client_address(request, settings.trust_proxy)
    if not limits.admit(ip):
        await ws.send_str(
            error("rate_limited", f"too many connections from your address (at most {settings.ip_connections})")
        )
        await ws.close(code=1008, message=b"rate_limited")
        return ws
    hall = app[HALL]
    conn = Connection(
        ws,
        ip,
        settings,
        hall.store.durable,
        app[CLUSTER].journal.durable_for if CLUSTER in app else None,
        request.transport,
    )
    app[CONNECTIONS].add(conn)
    silent = asyncio.get_running_loop().call_later(settings.hello_timeout, _hello_timed_out, conn)
    try:
        async for msg in ws:
            if msg.type == WSMsgType.TEXT:
                await _receive(app, conn, msg.data)
            elif msg.type == WSMsgType.BINARY:
                conn.send(error("malformed", "the relay reads text frames of JSON only"))
            elif msg.type == WSMsgType.ERROR:
                log.info("connection from %s failed: %s", ip, ws.exception())
                break
    finally:
        silent.cancel()
        app[CONNECTIONS].discard(conn)
        limits.release(ip)
        if conn.room is not None:
            conn.room.disconnected(conn)
        await conn.finish()
    return ws


def _hello_timed_out(conn: Connection) -> None:
    if not conn.greeted:
        conn.close("timeout", f"no hello within {conn.settings.hello_timeout:g} s; the connection is closed")


def client_address(request: web.Request, trust_proxy: bool) -> str:
    """The address the per-address limits count against (see :func:`address_group`).

    Behind a reverse proxy every connection comes from the proxy; with ``trust_proxy`` the
    address the proxy reports is used instead, but only when the connection really comes
    from this machine (a remote client cannot forge its way around the limits).
    """
    peer = request.remote or "unknown"
    if trust_proxy and from_this_machine(peer):
        real = request.headers.get("X-Real-IP") or request.headers.get("X-Forwarded-For", "").split(",")[-1]
        if real.strip():
            return address_group(real.strip())
    return address_group(peer)


def from_this_machine(address: str) -> bool:
    """Whether a connection from ``address`` comes from this machine (a reverse proxy's)."""
    return address in ("127.0.0.1", "::1")


def address_group(address: str) -> str:
    """What the limits count as one client: an IPv4 address, or an IPv6 /64 network.

    One IPv6 subscriber usually gets a whole /64 (2**64 addresses), so counting single
    IPv6 addresses would let one client pose as countless. An IPv4 address written as
    IPv6 (``::ffff:192.0.2.1``) counts as that IPv4 address. Anything else counts as itself.
    """
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        if ip.is_loopback:
            return str(ip)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


async def _receive(app: web.Application, conn: Connection, text: str) -> None:
    """One text frame: rate-limited, decoded, dispatched; every failure answered with an error."""
    if not conn.bucket.take() or not _shared(app).message_now(conn.ip):
        conn.flooding()
        return
    try:
        await _dispatch(app, conn, decode(text))
    except ProtocolError as exc:
        if exc.code == "version":  # nothing else can be understood: say why and hang up
            conn.close("version", exc.message)
        else:
            conn.send(error(exc.code, exc.message))
    except Exception:
        log.exception("message from %s failed", conn.ip)
        conn.send(error("internal", "the relay failed to handle that message; the match is unchanged"))


async def _dispatch(app: web.Application, conn: Connection, msg: dict[str, Any]) -> None:
    kind = msg["type"]
    settings = app[SETTINGS]
    if kind == "hello":
        if conn.greeted:
            raise ProtocolError("not_now", f"this connection already said hello (protocol {conn.version})")
        if msg["version"] not in SUPPORTED_VERSIONS:
            raise ProtocolError(
                "version",
                f"this relay speaks protocol version {PROTOCOL_VERSION} (and older: "
                f"{', '.join(map(str, SUPPORTED_VERSIONS[:-1]))}), your client {msg['version']}; "
                "update soccerdesk to play here",
            )
        conn.greeted = True
        conn.version = msg["version"]
        conn.send(encode("welcome", version=conn.version, server=SERVER_NAME, games=app[GAME_LIST]))
        return
    if kind == "ping":
        conn.send(encode("pong"))
        return
    if not conn.greeted:
        raise ProtocolError("not_ready", f"send hello with protocol version {PROTOCOL_VERSION} first")
    room = conn.room
    if kind in ("create", "join", "resume", "spectate"):
        if room is not None:
            raise ProtocolError("not_now", f"this connection is already in room {room.code}")
        conn.room = await _enter(app, conn, msg, settings)
        return
    if room is None or room.closed:
        conn.room = None
        raise ProtocolError("not_ready", "create, join, resume or spectate a room first")
    room.receive(conn, msg)  # a room of another node forwards it to its owner
    if kind == "leave":
        conn.room = None


async def _enter(
    app: web.Application, conn: Connection, msg: dict[str, Any], settings: RelaySettings
) -> Room | RemoteRoom:
    hall, node, limits = app[HALL], app.get(NODE), _shared(app)
    kind = msg["type"]
    if kind == "create":
        # A create refused for its game or options, or for want of room on the relay (server_busy),
        # makes no room, so it spends none of the address's room budget: those are checked first.
        offered = app[GAME_LIST]
        if msg["game"] not in offered:
            raise ProtocolError("bad_game", f"no game {msg['game']!r} here; this relay has {', '.join(offered)}")
        game, options = hall.prepare(msg["game"], msg.get("options", {}))
        if not await limits.may_create(conn.ip):
            raise ProtocolError("rate_limited", "too many rooms created from your address; wait a minute")
        room_settings = RoomSettings(
            spectators=msg.get("spectators", True),
            turn_seconds=_at_least(msg.get("turn_seconds"), settings.min_seconds),
            abandon_seconds=_at_least(msg.get("abandon_seconds"), settings.min_seconds) or 120,
        )
        args = (conn, game, options, room_settings, msg.get("name", ""), msg.get("seat"))
        if node is not None:
            return await node.create_room(*args)
        return hall.create(*args)
    # Wrong room codes are limited per address (codes are short enough to guess at); wrong
    # tokens per address and room, so a neighbour behind the same NAT guessing tokens of
    # one room does not lock anyone out of another. A resume with the right code and token
    # always gets in: a 144-bit token cannot be guessed, and a limited address is told
    # rate_limited whatever else is wrong, so the answers say nothing about the code.
    # A resume through a node that does not own the room is answered, and counted, by the
    # owner (Cluster.handle_forward), the same way.
    code = normalize_code(msg["room"])
    if kind != "resume" and not await limits.may_guess(conn.ip):
        raise ProtocolError("rate_limited", GUESSING)
    if kind in ("spectate", "resume") and not await limits.may_enter(conn.ip):
        raise ProtocolError(
            "rate_limited",
            f"rooms watched or resumed from your address: at most {settings.entries_per_minute} a minute; wait a moment",
        )
    try:
        room: Room | RemoteRoom
        if node is not None:
            room = await node.find_room(code)
        else:
            room = await hall.find(code)
        # A room of another node: the message goes to its owner, whose answers (and
        # refusals) come back to this connection through the cluster's bus.
        dispatch(room, conn, msg)
    except ProtocolError as exc:
        answer = await count_refusal(limits, exc, kind, conn.ip, code)
        if answer is not exc:
            raise answer from None
        raise
    return room


class _LocalLimits:
    """A single relay's :class:`AddressLimits` behind the awaited questions of a cluster's
    :class:`server.cluster.ClusterLimits`, so that the relay asks both the same way."""

    def __init__(self, limits: AddressLimits) -> None:
        self.limits = limits

    def message_now(self, ip: str) -> bool:
        return self.limits.message(ip)

    async def may_guess(self, key: str) -> bool:
        return self.limits.may_guess(key)

    async def wrong_guess(self, key: str) -> None:
        self.limits.wrong_guess(key)

    async def may_create(self, ip: str) -> bool:
        return self.limits.may_create(ip)

    async def may_enter(self, ip: str) -> bool:
        return self.limits.may_enter(ip)


SHARED_LIMITS: web.AppKey[_LocalLimits | ClusterLimits] = web.AppKey("shared_limits")


def _shared(app: web.Application) -> _LocalLimits | ClusterLimits:
    """The limits that count per client address: this relay's, or the whole cluster's."""
    return app[SHARED_LIMITS]


def _at_least(value: int | None, low: int) -> int | None:
    return None if value is None else max(low, value)


@dataclass
class RunningRelay:
    """A relay started by :func:`start_relay`: its address and how to stop it."""

    runner: web.AppRunner
    host: str
    port: int
    accept_errors: QuietAcceptErrors | None = None

    @property
    def app(self) -> web.Application:
        return self.runner.app

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"ws://{host}:{self.port}/ws"

    async def stop(self) -> None:
        await self.runner.cleanup()
        if self.accept_errors is not None:
            self.accept_errors.restore()


async def start_relay(settings: RelaySettings) -> RunningRelay:
    """Start the relay in the running event loop; ``settings.port`` 0 picks a free port."""
    app = create_app(settings)
    runner = web.AppRunner(app, handle_signals=False, access_log=None)
    await runner.setup()
    site = EntranceSite(runner, settings.host, settings.port, app[ENTRANCE])
    await site.start()
    port = runner.addresses[0][1]  # the real port when settings.port is 0
    return RunningRelay(runner, settings.host, port, QuietAcceptErrors(asyncio.get_running_loop()))


__all__ = [
    "CONNECTIONS",
    "HALL",
    "LIMITS",
    "SETTINGS",
    "Connection",
    "RelaySettings",
    "RunningRelay",
    "TokenBucket",
    "available_games",
    "create_app",
    "default_db_path",
    "start_relay",
]
