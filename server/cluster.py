"""Several relay nodes sharing one Redis: room ownership, messages between nodes, shared limits.

A cluster is a set of relay processes (*nodes*) that keep their rooms in Redis
(:class:`server.redis_store.RedisRoomStore`). Every node accepts every client; for each room,
one node at a time runs the rules:

* **Owner lease.** A node owns a room while it holds the key ``P lease:CODE`` (value
  ``"NODE FENCE"``, a time to live of ``ttl`` seconds, renewed every ``ttl / 4``). Taking a
  lease is only possible when the key is gone, and takes a new *fencing token* from the
  counter ``P fence:CODE`` (one more than the last one handed out). Every write of the
  room (:class:`~server.redis_store.RedisRoomStore`) carries the writer's fence and is refused,
  inside Redis, unless the counter still equals it: once another node has taken the room over,
  the old owner can never append again, even if it was only paused and believes it still owns
  the room. Renewal succeeds exactly when nobody took the room over, so a lease that lapsed
  while Redis was away is simply set again when it comes back.
* **Takeover.** A node that finds no lease (its owner died, or stopped renewing) takes one and
  rebuilds the room from Redis (:meth:`Cluster.claim`): the document and the record, replayed
  with the rules. The record is the whole truth; what each node holds in memory is a cache.
* **Messages between nodes** (:class:`Bus`, Redis pub/sub). The owner listens on the room's
  inbox channel ``P room:CODE:in``; a node whose client is in a room it does not own holds a
  :class:`RemoteRoom` for it, whose methods (those of :class:`server.rooms.Room`) forward the
  client's messages there, in order. The owner applies them (:meth:`Cluster.handle_forward`)
  and answers each client through that client's node channel ``P node:NODE``, as a
  :class:`RemotePeer`, which a room treats like any local connection: each seat still gets
  only its own view, spectators only public information. A forwarded message nobody heard
  means the owner is gone: the client is asked to reconnect, and its ``resume`` lets a living
  node take the room over (:meth:`Cluster.wait_claim`).
* **Writes before words** (:class:`Journal`, the relay's store seam): each room's writes go to
  Redis in order, and :meth:`Journal.durable` (one room's writes: :meth:`Journal.durable_for`)
  tells the connections (and the bus) when what was written is in Redis, so that no frame
  announces what is not stored.
* **Limits** (:class:`ClusterLimits`): sliding windows counted in Redis, so that messages per
  second, rooms per minute and wrong codes or tokens per minute hold across every node.
* **Redis down** (:class:`Health`): calls fail fast with
  :class:`~server.redis_store.StoreUnavailable` (a ``server_busy`` error saying why), new rooms
  are refused, limits fall back to counting on this node alone, and everything resumes by itself
  when Redis answers again.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import json
import logging
import os
import secrets
import socket
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from redis import exceptions as redis_errors
from redis.asyncio import Redis
from redis.asyncio.client import PubSub

from server import ack_trace
from server.guessing import count_refusal
from server.redis_pipe import RedisPipe, Replies, open_pipe
from server.redis_store import (
    DEFAULT_PREFIX,
    Call,
    RedisRoomStore,
    StoreUnavailable,
    WritesRefused,
    as_text,
    connect,
    guarded,
    outcome,
    refuses_writes,
)
from server.rooms import ENTERING, dispatch
from soccerdesk.net.protocol import ProtocolError, error

log = logging.getLogger("soccerdesk.cluster")

DEFAULT_TTL = 4.0
"""Seconds an owner lease lasts without renewal: a dead node's rooms move within about this."""


def new_node_id() -> str:
    """A name for this process that no other node has had: host, process id and a random tail."""
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"


# --- owner leases --------------------------------------------------------------------------

# KEYS: lease, fence. ARGV: node, ttl ms. Returns the new fence, or false if the room has an owner.
_ACQUIRE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return false end
local fence = redis.call('INCR', KEYS[2])
redis.call('PERSIST', KEYS[2])
redis.call('SET', KEYS[1], ARGV[1] .. ' ' .. fence, 'PX', ARGV[2])
return fence
"""

# KEYS: lease1, fence1, lease2, fence2 ... ARGV: node, ttl ms, fence1, fence2 ...
# Returns one flag per room: 1 renewed, 0 taken over by another node (the fence moved on) or
# deleted (its fence retired, with a time to live).
_RENEW = """
local out = {}
for i = 1, #KEYS / 2 do
  local fence = ARGV[2 + i]
  if redis.call('GET', KEYS[2 * i]) == fence and redis.call('PTTL', KEYS[2 * i]) == -1 then
    redis.call('SET', KEYS[2 * i - 1], ARGV[1] .. ' ' .. fence, 'PX', ARGV[2])
    out[i] = 1
  else
    out[i] = 0
  end
end
return out
"""

# KEYS: lease. ARGV: "NODE FENCE". Deletes the lease only if it is still this one.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

_RENEW_BATCH = 500  # rooms renewed by one script call


class LeaseKeeper:
    """The owner leases one node holds, kept alive by :meth:`run` (see the module docstring).

    ``on_lost(code)`` is called (from :meth:`renew`) for each room another node has taken over:
    the relay drops the room from memory and asks its clients to resume (they reach the new
    owner). :meth:`fence` is what a fenced :class:`RedisRoomStore` is given as ``fence_of``.
    """

    def __init__(
        self,
        redis: Redis,
        node: str,
        prefix: str = DEFAULT_PREFIX,
        ttl: float = DEFAULT_TTL,
        on_lost: Callable[[str], None] | None = None,
    ) -> None:
        if " " in node or not node:
            raise ValueError(f"a node name has no blanks and is not empty: {node!r}")
        self.redis = redis
        self.node = node
        self.prefix = prefix
        self.ttl = ttl
        self.on_lost = on_lost
        self.held: dict[str, int] = {}
        self._acquire = redis.register_script(_ACQUIRE)
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)

    def lease_key(self, code: str) -> str:
        return f"{self.prefix}lease:{code}"

    def fence_key(self, code: str) -> str:
        return f"{self.prefix}fence:{code}"

    def fence(self, code: str) -> int | None:
        """The fencing token this node holds for ``code`` (``None``: it does not own the room)."""
        return self.held.get(code)

    @property
    def ttl_ms(self) -> int:
        return max(1, round(self.ttl * 1000))

    async def acquire(self, code: str) -> int | None:
        """Take the room's lease if nobody holds it; the new fence, or ``None`` (owned elsewhere)."""
        if code in self.held:
            return self.held[code]
        fence = await guarded(self._acquire([self.lease_key(code), self.fence_key(code)], [self.node, self.ttl_ms]))
        if fence is None:
            return None
        self.held[code] = int(fence)
        return int(fence)

    async def owner(self, code: str) -> tuple[str, int] | None:
        """Who owns the room now, as ``(node, fence)``, or ``None`` if its lease has lapsed."""
        value = await guarded(self.redis.get(self.lease_key(code)))
        if value is None:
            return None
        node, fence = as_text(value).rsplit(" ", 1)
        return node, int(fence)

    async def renew(self) -> list[str]:
        """Renew every lease held; the codes of the rooms lost (taken over by another node, or
        deleted), each told to ``on_lost``."""
        codes = list(self.held)
        lost: list[str] = []
        for start in range(0, len(codes), _RENEW_BATCH):
            batch = [code for code in codes[start : start + _RENEW_BATCH] if code in self.held]  # some may be gone
            if not batch:
                continue
            fences = [self.held[code] for code in batch]
            keys = [key for code in batch for key in (self.lease_key(code), self.fence_key(code))]
            flags = await guarded(self._renew(keys, [self.node, self.ttl_ms, *fences]))
            for code, fence, flag in zip(batch, fences, flags, strict=True):
                # A room released or re-acquired while the call ran is not lost.
                if not flag and self.held.get(code) == fence:
                    del self.held[code]
                    lost.append(code)
        for code in lost:
            log.info("room %s is no longer this node's (taken over or deleted)", code)
            if self.on_lost is not None:
                self.on_lost(code)
        return lost

    async def release(self, code: str) -> None:
        """Give the room up (it is unloaded here): another node may take it at once."""
        fence = self.held.pop(code, None)
        if fence is not None:
            await guarded(self._release([self.lease_key(code)], [f"{self.node} {fence}"]))

    async def run(self) -> None:
        """Renew every ``ttl / 4`` seconds until cancelled; Redis being away is logged, not fatal
        (nobody can take a room over while Redis is away either; the fences decide when it is back)."""
        await every(self.ttl / 4, self.renew, "cannot renew room leases")


# --- limits ---------------------------------------------------------------------------------

# A sliding window counter: the count of the current fixed window plus the previous window's
# count weighted by how much of it still lies inside the sliding window. Redis's own clock
# decides the time, so the nodes' clocks do not matter.
# KEYS: the counter (a hash). ARGV: window ms, limit, mode ('take': count if allowed, 'peek':
# only say, 'add': count in any case), and how many events (1 if not given). Returns 1 if the
# events are (or would be) allowed, else 0.
_WINDOW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local n = tonumber(ARGV[4] or '1')
local index = math.floor(now / window)
local h = redis.call('HMGET', KEYS[1], 'w', 'c', 'p')
local w = tonumber(h[1]) or index
local c = tonumber(h[2]) or 0
local p = tonumber(h[3]) or 0
if w ~= index then
  if w == index - 1 then p = c else p = 0 end
  c = 0
end
local count = p * (1 - (now - index * window) / window) + c
local allowed = 0
if count + n <= limit then allowed = 1 end
if ARGV[3] == 'peek' or (ARGV[3] == 'take' and allowed == 0) then return allowed end
redis.call('HSET', KEYS[1], 'w', index, 'c', c + n, 'p', p)
redis.call('PEXPIRE', KEYS[1], 2 * window)
return allowed
"""


@dataclass
class _LocalWindow:
    """The same sliding window counted in this process, while Redis is away."""

    index: int = 0
    current: int = 0
    previous: int = 0

    def event(self, window_ms: int, limit: float, mode: str, n: int = 1) -> bool:
        now = int(time.time() * 1000)
        index = now // window_ms
        if index != self.index:
            self.previous = self.current if index == self.index + 1 else 0
            self.current, self.index = 0, index
        count = self.previous * (1 - (now - index * window_ms) / window_ms) + self.current
        allowed = count + n <= limit
        if mode == "add" or (mode == "take" and allowed):
            self.current += n
        return allowed


@dataclass(frozen=True, slots=True)
class Limit:
    """At most ``limit`` events per ``window`` seconds (sliding) per key."""

    name: str
    limit: float
    window: float

    @property
    def window_ms(self) -> int:
        return max(1, round(self.window * 1000))


class ClusterLimits:
    """Per-address limits counted in Redis, so they hold across every node.

    The same questions as the relay's per-node :class:`server.relay.AddressLimits` (``message``,
    ``may_guess``, ``wrong_guess``, ``may_create``, ``may_enter``), awaited. While Redis is away each node
    counts on its own (the limits then hold per node, as with a single relay) and says so once
    in its log.
    """

    def __init__(
        self,
        redis: Redis,
        prefix: str = DEFAULT_PREFIX,
        message_rate: float = 200.0,
        guesses_per_minute: int = 20,
        rooms_per_minute: int = 30,
        entries_per_minute: int = 60,
        message_sync: float = 0.05,
    ) -> None:
        self.redis = redis
        self.message_sync = message_sync
        self.prefix = prefix
        self.messages = Limit("msg", message_rate, 1.0)
        self.guesses = Limit("guess", guesses_per_minute, 60.0)
        self.creations = Limit("create", rooms_per_minute, 60.0)
        self.entries = Limit("enter", entries_per_minute, 60.0)
        self._window = redis.register_script(_WINDOW)
        self._local: dict[tuple[str, str], _LocalWindow] = {}
        self._local_mode = False
        self._pending: dict[str, int] = {}  # messages per address not counted in Redis yet
        self._verdicts: dict[str, bool] = {}  # addresses Redis last found over the message limit
        self._flush: asyncio.Task[None] | None = None
        self._stopped = False

    async def stop(self) -> None:
        """Stop counting messages in the background and wait until the count under way has ended.

        Called before the Redis client is closed: a count still to come would otherwise open a
        new connection after the pool was closed, and nothing would ever close it. Messages not
        counted yet are not counted any more (their node is going away).
        """
        self._stopped = True
        self._pending.clear()
        task, self._flush = self._flush, None
        if task is not None:
            await cancel_and_wait([task])

    async def event(self, limit: Limit, key: str, mode: str = "take", count: int = 1) -> bool:
        """Count (``take``: only if allowed; ``add``: always) or check (``peek``) ``count`` events."""
        if mode not in ("take", "peek", "add"):
            raise ValueError(f"mode is take, peek or add, not {mode!r}")
        try:
            allowed = await guarded(
                self._window([f"{self.prefix}limit:{limit.name}:{key}"], [limit.window_ms, limit.limit, mode, count])
            )
        except StoreUnavailable as exc:
            if not self._local_mode:
                log.warning("limits are counted on this node only until Redis answers again: %s", exc.detail)
                self._local_mode = True
            window = self._local.setdefault((limit.name, key), _LocalWindow())
            return window.event(limit.window_ms, limit.limit, mode, count)
        if self._local_mode:
            log.info("limits are counted in Redis again")
            self._local_mode = False
            self._local.clear()
        return bool(allowed)

    async def message(self, ip: str) -> bool:
        """Whether the address may send one more message (see :meth:`message_now`, which the relay uses)."""
        return await self.event(self.messages, ip)

    def message_now(self, ip: str) -> bool:
        """Whether the address may send one more message, answered at once from what Redis said
        last; the message is counted in Redis a moment later, with the others of that moment.

        A message waits for no round trip to Redis (each would add its fsync to every action):
        the messages of ``message_sync`` seconds (50 ms) are counted together, in one script call
        per address, so an address over the limit is stopped at most that long plus one round
        trip later than an exact count would stop it (at the default 200 messages/s, about ten
        messages more), and its messages are refused until Redis's window lets them in again.
        """
        if self._stopped:
            return self._verdicts.get(ip, True)
        self._pending[ip] = self._pending.get(ip, 0) + 1
        if self._flush is None:
            self._flush = asyncio.get_running_loop().create_task(self._count())
        return self._verdicts.get(ip, True)

    async def _count(self) -> None:
        await asyncio.sleep(self.message_sync)  # what comes meanwhile is counted with it
        pending, self._pending = self._pending, {}
        try:
            verdicts = await asyncio.gather(*(self.event(self.messages, ip, "take", n) for ip, n in pending.items()))
            for ip, allowed in zip(pending, verdicts, strict=True):
                if allowed:
                    self._verdicts.pop(ip, None)
                else:
                    self._verdicts[ip] = False
        finally:
            self._flush = None
            if self._pending and not self._stopped:
                self._flush = asyncio.get_running_loop().create_task(self._count())

    async def may_guess(self, ip: str) -> bool:
        return await self.event(self.guesses, ip, "peek")

    async def wrong_guess(self, ip: str) -> None:
        await self.event(self.guesses, ip, "add")

    async def may_create(self, ip: str) -> bool:
        return await self.event(self.creations, ip)

    async def may_enter(self, ip: str) -> bool:
        return await self.event(self.entries, ip)


# --- messages between nodes -------------------------------------------------------------------


class RemotePeer:
    """A client connected to another node, as a room on the owner sees it (a ``Peer``).

    ``send`` and ``close`` go, in order, to the client's node, which hands them to the
    client's connection. ``version`` and ``ip`` are the client's, as its node reported them;
    ``room`` is the code of the room its last message was for (``None``: none yet), whose
    writes its frames wait for.
    """

    __slots__ = ("bus", "node", "peer", "version", "ip", "room")

    def __init__(self, bus: Bus, node: str, peer: str, version: int, ip: str | None = None) -> None:
        self.bus, self.node, self.peer, self.version, self.ip = bus, node, peer, version, ip
        self.room: str | None = None

    def send(self, text: str) -> None:
        self.bus.post(self.node, {"peer": self.peer, "text": text}, self.room)

    def close(self, code: str, message: str) -> None:
        self.bus.post(self.node, {"peer": self.peer, "close": [code, message]}, self.room)

    def refuse(self, text: str) -> None:
        """``send`` the refusal of a ``join``, ``spectate`` or ``resume``: the client is in no room
        (its node then lets it enter another, as a single relay does after a refusal)."""
        self.bus.post(self.node, {"peer": self.peer, "text": text, "out": True}, self.room)

    def __repr__(self) -> str:
        return f"RemotePeer({self.node}/{self.peer})"


Handler = Callable[[str, dict[str, Any]], Awaitable[None] | None]


@dataclass(frozen=True, slots=True)
class _Outgoing:
    """A message waiting to be published; a forward to a room's owner also keeps its room and
    body, a frame for a client the writes it must wait for (its room's, or every room's, when it was posted)."""

    channel: str
    data: str
    code: str | None = None
    message: dict[str, Any] | None = None
    committed: asyncio.Future[None] | None = None


def _failed(committed: asyncio.Future[None] | None) -> bool:
    return committed is not None and committed.done() and committed.exception() is not None


def _resume_instead(item: _Outgoing) -> _Outgoing:
    """A frame whose writes failed, turned into a close that makes its client resume."""
    if item.code is not None or item.message is None or "text" not in item.message:
        return item
    body = {"peer": item.message["peer"], "close": ["server_busy", "the match could not be saved; reconnect to resume"]}
    return _Outgoing(item.channel, json.dumps(body, separators=(",", ":")), message=body)


def peer_id(peer: Peer) -> str:
    """A name for a connection of this node, unique while it is open."""
    return str(getattr(peer, "peer_id", None) or f"{id(peer):x}")


class RemoteRoom:
    """A room owned by another node, as the relay sees a room (:class:`server.rooms.Room`'s
    methods for what clients ask); each call forwards the client's message to the owner, whose
    answers come back to the connection through the bus.

    The client's node has checked the message (protocol, limits) before; the owner applies it.
    """

    def __init__(self, bus: Bus, code: str) -> None:
        self.bus, self.code = bus, code
        self.closed = False
        self.dropped = False  # as a Room's; the owner drops the room, not its visitors

    def _forward(self, peer: Peer, msg: dict[str, Any], stays: bool = True) -> None:
        name = peer_id(peer)
        if stays:
            self.bus.local[name] = peer
        else:
            self.bus.local.pop(name, None)
        body = {
            "node": self.bus.node,
            "peer": name,
            "version": getattr(peer, "version", 1),
            "ip": getattr(peer, "ip", None),
            "msg": msg,
        }
        self.bus.post_forward(self.code, body)

    def join(self, peer: Peer, name: str) -> None:
        self._forward(peer, {"type": "join", "room": self.code, "name": name})

    def resume(self, peer: Peer, token: str, match: int | None, seq: int | None) -> None:
        self._forward(peer, {"type": "resume", "room": self.code, "token": token, "match": match, "seq": seq})

    def spectate(self, peer: Peer) -> None:
        self._forward(peer, {"type": "spectate", "room": self.code})

    def receive(self, peer: Peer, msg: dict[str, Any]) -> None:
        """An in-room message (``act``, ``chat``, ``rematch``, ``claim``, ``spectators``,
        ``leave``), forwarded as it came: the owner's :meth:`server.rooms.Room.receive` reads it."""
        self._forward(peer, msg, stays=msg["type"] != "leave")

    def disconnected(self, peer: Peer) -> None:
        self._forward(peer, {"type": "gone"}, stays=False)


@dataclass
class Bus:
    """Redis pub/sub between the nodes (see the module docstring).

    ``on_forward(code, message)`` runs on the owner for each message forwarded to one of its
    rooms (:meth:`Cluster.handle_forward` does what the relay needs). On a client's node, each
    frame (``text``) or close (``close``: code and message) the owner sends a client is handed
    to that client's connection, registered in :attr:`local` by :class:`RemoteRoom` (or to
    ``on_deliver(peer, message)`` if set); a frame marked ``out`` refused the client entry, and
    the connection is then in no room. A message posted with :meth:`post_forward` that no
    owner heard (the owner died) closes its client's connection with ``server_busy``: the app
    reconnects, and its ``resume`` lets a living node take the room over. When the subscription
    comes back after a Redis outage, frames sent meanwhile were lost: every connection in
    :attr:`local` is closed the same way (its client resumes with a full snapshot), and
    ``on_reconnect()`` is told.
    """

    redis: Redis
    node: str
    prefix: str = DEFAULT_PREFIX
    on_forward: Handler | None = None
    on_deliver: Handler | None = None
    on_reconnect: Callable[[], None] | None = None
    durable: Callable[[], asyncio.Future[None] | None] | None = None
    durable_for: Callable[[str], asyncio.Future[None] | None] | None = None
    rooms: set[str] = field(default_factory=set)  # inboxes listened to (rooms owned here)
    local: dict[str, Peer] = field(default_factory=dict)  # this node's clients in rooms owned elsewhere
    _remote: dict[tuple[str, str], RemotePeer] = field(default_factory=dict)
    _outbox: asyncio.Queue[_Outgoing] = field(default_factory=asyncio.Queue)
    _pubsub: PubSub | None = None
    _tasks: list[asyncio.Task[None]] = field(default_factory=list)
    _subscribed: asyncio.Event = field(default_factory=asyncio.Event)

    def node_channel(self, node: str) -> str:
        return f"{self.prefix}node:{node}"

    def inbox(self, code: str) -> str:
        return f"{self.prefix}room:{code}:in"

    async def start(self) -> None:
        """Subscribe to this node's channel and start the listener and the sender."""
        self._tasks = [asyncio.create_task(self._listen()), asyncio.create_task(self._send())]
        await self._subscribed.wait()

    async def stop(self) -> None:
        await cancel_and_wait(self._tasks)
        self._tasks = []
        await self._drop_pubsub()

    async def listen_room(self, code: str) -> None:
        """Listen to the room's inbox (this node has just become its owner)."""
        self.rooms.add(code)
        if self._pubsub is not None:
            await guarded(self._pubsub.subscribe(self.inbox(code)))

    async def leave_room(self, code: str) -> None:
        self.rooms.discard(code)
        if self._pubsub is not None:
            with contextlib.suppress(StoreUnavailable):
                await guarded(self._pubsub.unsubscribe(self.inbox(code)))

    async def forward(self, code: str, message: dict[str, Any]) -> bool:
        """Send a client's message to the room's owner; ``False``: no owner is listening."""
        return bool(await guarded(self.redis.publish(self.inbox(code), json.dumps(message, separators=(",", ":")))))

    def remote_peer(self, node: str, peer: str, version: int, ip: str | None = None) -> RemotePeer:
        """The one :class:`RemotePeer` for a client of another node (the same object each time)."""
        remote = self._remote.get((node, peer))
        if remote is None:
            remote = self._remote[(node, peer)] = RemotePeer(self, node, peer, version, ip)
        remote.version, remote.ip = version, ip
        return remote

    def forget_peer(self, node: str, peer: str) -> RemotePeer | None:
        return self._remote.pop((node, peer), None)

    def post(self, node: str, message: dict[str, Any], room: str | None = None) -> None:
        """Queue a message for a node's channel (sent in order by the sender task), to go once
        the writes of ``room`` made so far are in Redis (``durable_for``; without a room, once
        every write made so far is: ``durable``)."""
        data = json.dumps(message, separators=(",", ":"))
        if room is not None and self.durable_for is not None:
            committed = self.durable_for(room)
        else:
            committed = self.durable() if self.durable is not None else None
        self._outbox.put_nowait(_Outgoing(self.node_channel(node), data, message=message, committed=committed))

    def post_forward(self, code: str, message: dict[str, Any]) -> None:
        """Queue a client's message for the room's owner (in order with everything posted)."""
        data = json.dumps(message, separators=(",", ":"))
        self._outbox.put_nowait(_Outgoing(self.inbox(code), data, code, message))

    async def flush(self) -> None:
        """Wait until every posted message has been published (or given up on)."""
        await self._outbox.join()

    async def _send(self) -> None:
        """Publish queued messages in order, many per round trip when they pile up.

        Frames for clients wait, as a connection's do, until the writes of their room made before
        they were posted are in Redis (``durable_for``); if those writes failed, the client is
        asked to resume instead.
        """
        while True:
            batch = [await self._outbox.get()]
            while not self._outbox.empty() and len(batch) < 256:
                batch.append(self._outbox.get_nowait())
            try:
                waits = {item.committed for item in batch if item.committed is not None}
                if waits:
                    await asyncio.wait(waits)
                    batch = [_resume_instead(item) if _failed(item.committed) else item for item in batch]
                pipe = self.redis.pipeline(transaction=False)
                for item in batch:
                    pipe.publish(item.channel, item.data)
                heard = await guarded(pipe.execute())
                for item, listeners in zip(batch, heard, strict=True):
                    if item.code is not None and item.message is not None and not listeners:
                        self._unheard(item.code, item.message)
            except StoreUnavailable as exc:
                # Lost. A client whose message to its room's owner was lost is asked to resume
                # now (its node's subscription may already be back, and nothing else would tell
                # it). A client whose frame was lost is asked to resume too, by a close sent
                # again until Redis takes it: its node's subscription broke as well, but may have
                # come back (and asked its clients to resume) before this publish failed.
                log.warning("%d messages to other nodes lost: %s", len(batch), exc.detail)
                lost: dict[str, set[str]] = {}
                for item in batch:
                    if item.code is not None and item.message is not None:
                        self._unheard(item.code, item.message)
                    elif item.message is not None and "peer" in item.message:
                        lost.setdefault(item.channel, set()).add(str(item.message["peer"]))
                if lost:
                    await self._resume_lost(lost)
            finally:
                for _ in batch:
                    self._outbox.task_done()
            stop_if_cancelled()

    async def _resume_lost(self, lost: dict[str, set[str]], patience: float = 10.0) -> None:
        """Ask the clients of frames that were lost (by node channel) to resume, trying again
        while Redis does not answer, for at most ``patience`` seconds. A close their node sees
        twice, or for a connection gone, is ignored there."""
        close = ["server_busy", "the relay lost touch with its database; resume"]
        delay = 0.05
        deadline = time.monotonic() + patience
        while True:
            pipe = self.redis.pipeline(transaction=False)
            for channel, peers in lost.items():
                for peer in sorted(peers):
                    pipe.publish(channel, json.dumps({"peer": peer, "close": close}, separators=(",", ":")))
            try:
                await guarded(pipe.execute())
                return
            except StoreUnavailable as exc:
                if time.monotonic() + delay > deadline:
                    count = sum(len(peers) for peers in lost.values())
                    log.warning("could not ask %d clients of other nodes to resume: %s", count, exc.detail)
                    return
            await asyncio.sleep(delay)
            delay = min(1.0, delay * 2)

    def _unheard(self, code: str, message: dict[str, Any]) -> None:
        """Nobody owns the room any more: its client reconnects and resumes (see the class)."""
        peer = self.local.pop(str(message.get("peer")), None)
        if peer is not None and message.get("msg", {}).get("type") != "gone":
            moving = RoomMoving(code)
            peer.close(moving.code, moving.message)

    def _deliver(self, peer_id: str, body: dict[str, Any]) -> None:
        peer = self.local.get(peer_id)
        if peer is None:
            return  # the connection ended meanwhile
        if "text" in body:
            peer.send(body["text"])
        if body.get("out"):  # the owner refused to let it in (RemotePeer.refuse)
            del self.local[peer_id]
            if isinstance(getattr(peer, "room", None), RemoteRoom):
                peer.room = None  # type: ignore[attr-defined]
        if "close" in body:
            del self.local[peer_id]
            peer.close(*body["close"])

    async def _drop_pubsub(self) -> None:
        pubsub, self._pubsub = self._pubsub, None
        if pubsub is not None:
            with contextlib.suppress(Exception):
                await pubsub.aclose()

    async def _subscribe(self) -> PubSub:
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(self.node_channel(self.node), *(self.inbox(code) for code in self.rooms))
        return pubsub

    async def _listen(self) -> None:
        delay = 0.05
        first = True
        while True:
            try:
                self._pubsub = await self._subscribe()
                stop_if_cancelled()
                self._subscribed.set()
                if not first:
                    log.info("messages between nodes flow again; %d clients are asked to resume", len(self.local))
                    for name in list(self.local):
                        self._deliver(
                            name, {"close": ["server_busy", "the relay lost touch with its database; resume"]}
                        )
                    if self.on_reconnect is not None:
                        self.on_reconnect()
                first, delay = False, 0.05
                while True:
                    message = await self._pubsub.get_message(timeout=1.0)
                    stop_if_cancelled()
                    if message is not None:
                        await self._handle(message)
            except (redis_errors.ConnectionError, redis_errors.TimeoutError, OSError) as exc:
                stop_if_cancelled()
                log.warning("messages between nodes interrupted (%s); retrying in %.2f s", exc, delay)
                await self._drop_pubsub()
                first = False
                await asyncio.sleep(delay)
                delay = min(2.0, delay * 2)

    async def _handle(self, message: dict[str, Any]) -> None:
        channel = as_text(message["channel"])
        try:
            body = json.loads(message["data"])
            if body.get("ping"):  # a node checking that this room's owner listens: publishing answered it
                return
            handler: Handler | None
            if channel == self.node_channel(self.node):
                handler, key = self.on_deliver or self._deliver, body["peer"]
            else:
                handler, key = self.on_forward, channel[len(self.prefix) + len("room:") : -len(":in")]
            if handler is not None:
                result = handler(key, body)
                if result is not None:
                    await result
        except Exception:  # one bad message must not stop the bus
            log.exception("message on %s failed", channel)


async def every(period: float, work: Callable[[], Awaitable[Any]], failing: str, logger: logging.Logger = log) -> None:
    """Await ``work()`` every ``period`` seconds until cancelled. Redis being away is logged
    (``failing`` says what could not be done), not fatal: the next turn tries again."""
    while True:
        await asyncio.sleep(period)
        try:
            await work()
        except StoreUnavailable as exc:
            logger.warning("%s: %s", failing, exc.detail)
        stop_if_cancelled()


def stop_if_cancelled() -> None:
    """Raise :class:`asyncio.CancelledError` if the running task has been asked to stop.

    On Python 3.11, :func:`asyncio.wait_for` loses a cancel that arrives in the loop turn in
    which the work it waits for ends (3.12 rewrote it on :func:`asyncio.timeout`), and redis-py
    sends every command through it (the socket's write time-out): a background loop cancelled
    while it talks to Redis sees its call succeed and would go on for ever. Each such loop asks
    after its calls; :func:`cancel_and_wait` also cancels again a task that is still running.
    """
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError


async def cancel_and_wait(tasks: Iterable[asyncio.Task[Any]], patience: float = 10.0) -> None:
    """Cancel background tasks and wait until each has ended.

    A task that lost its cancel (see :func:`stop_if_cancelled`) is cancelled again every 0.2 s;
    after ``patience`` seconds, tasks still running are logged and left, so that stopping never
    hangs. A task that ended with an error (not a cancel) is logged.
    """
    tasks = list(tasks)
    pending = {task for task in tasks if not task.done()}
    for task in pending:
        task.cancel()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + patience
    while pending:
        left = deadline - loop.time()
        if left <= 0:
            log.error("%d background tasks did not stop when cancelled: %s", len(pending), pending)
            break
        _, pending = await asyncio.wait(pending, timeout=min(0.2, left))
        for task in pending:
            task.cancel()
    for task in tasks:
        if task.done() and not task.cancelled() and task.exception() is not None:
            log.error("background task %s failed", task.get_name(), exc_info=task.exception())


# --- writes before words ------------------------------------------------------------------------


class Peer(Protocol):
    """A connection as :mod:`server.rooms` sees it (``send``, ``close``; maybe ``version``, ``ip``)."""

    def send(self, text: str) -> None: ...

    def close(self, code: str, message: str) -> None: ...


class Journal:
    """The rooms' writes to Redis behind the relay's store seam (:class:`server.rooms.Store`):
    the write methods are synchronous, as :mod:`server.rooms` calls them, and :meth:`durable`
    says when what was written is stored.

    Each room's writes go to Redis in the order the room made them, one after another; the
    writes of different rooms go together: what every room wrote during one turn of the event
    loop is sent in one pipelined round trip at the start of the next turn (as SQLite commits
    them), one write of a room in each batch, so a room's next write is sent only once its
    previous one is acknowledged. The batches go through :attr:`pipe`
    (:class:`server.redis_pipe.RedisPipe`, set by :meth:`Cluster.start`): written to the socket
    in that turn, and settled in the turn the replies arrive, with no task in between. Without
    a pipe, or while it reconnects, or to load scripts Redis forgot, they go through redis-py
    (:meth:`RedisRoomStore.run_batch`), at most ``lanes`` batches at once. :meth:`durable` is a future done
    once every write made so far, of any room, is acknowledged by Redis (``None`` if none is
    waiting); :meth:`durable_for` the same for one room's writes. The relay's connections wait on
    them before they send a frame, and so does the :class:`Bus` for clients of other nodes, so
    nothing is announced before it is in Redis.

    While Redis does not answer, a write is tried again for ``retry_for`` seconds (every write
    can be repeated safely: an append already made is recognised), so a restart of Redis only
    delays the frames. If a write fails for good (Redis away longer,
    :class:`~server.redis_store.NotOwner`, a conflict), the room in memory is ahead of Redis:
    its later writes are dropped, the futures that covered the write fail (the connections
    waiting on them close, and their clients reconnect and resume), and ``on_failure(code,
    error)`` tells the relay, which says so in its log and drops the room from memory (a resume
    rebuilds it from Redis; a room its host closed is kept) and then calls :meth:`reset`.
    """

    def __init__(
        self,
        store: RedisRoomStore,
        on_failure: Callable[[str, Exception], None] | None = None,
        retry_for: float = 5.0,
        lanes: int = 2,
        batch_size: int = 1000,
    ) -> None:
        self.store = store
        self.on_failure = on_failure
        self.on_refused: Callable[[str], None] | None = None  # told when Redis refuses a write (Health)
        self.retry_for = retry_for
        self.lanes = lanes
        self.batch_size = batch_size
        self._queues: dict[str, deque[tuple[int, Callable[..., Call | None], tuple[Any, ...]]]] = {}
        self._ready: dict[str, None] = {}  # rooms whose next write waits for a batch, in order
        self._sending: set[str] = set()  # rooms with a write in a batch under way
        self._since: dict[str, float] = {}  # rooms whose next write Redis has not answered: since when
        self._batches: set[asyncio.Task[None]] = set()
        self.pipe: RedisPipe | None = None  # the lean connection for the writes (see server.redis_pipe)
        self._retries: set[asyncio.TimerHandle] = set()  # piped batches waiting to try again
        self._stopped = False
        self._pump_soon = False
        self._pause = 0.05  # before trying again while Redis does not answer (doubles, up to 1 s)
        self._failed: set[str] = set()
        self._next = 0  # number of the next write
        self._open: set[int] = set()  # writes not acknowledged (nor dropped) yet
        self._lowest: list[int] = []  # a heap of the open writes (and some done ones, skipped)
        self._waiters: deque[tuple[int, asyncio.Future[None]]] = deque()  # (last write covered, future)
        self._room_waiters: dict[str, deque[tuple[int, asyncio.Future[None]]]] = {}  # the same, per room
        self._queued_at: dict[int, float] = {}  # when each write was made (ack_trace on only)

    # --- the writes a room makes ------------------------------------------------------------

    def save_room(self, code: str, doc: dict[str, Any]) -> None:
        # Encoded as it is now (once): the room goes on changing while the write waits its turn.
        self._write(code, self.store.save_fields_call, (code, self.store.doc_fields(doc)))

    def append_actions(self, code: str, match: int, first_ply: int, actions: Iterable[tuple[int, str]]) -> None:
        self._write(code, self.store.append_call, (code, match, first_ply, list(actions)))

    def drop_match(self, code: str, match: int) -> None:
        self._write(code, self.store.drop_call, (code, match))

    def delete_room(self, code: str) -> None:
        self._write(code, self.store.delete_call, (code,))

    def durable(self) -> asyncio.Future[None] | None:
        """A future done when every write made so far is in Redis, or ``None`` if it already is."""
        if not self._open:
            return None
        last = self._next - 1
        if self._waiters and self._waiters[-1][0] == last and not self._waiters[-1][1].done():
            return self._waiters[-1][1]
        future = asyncio.get_running_loop().create_future()
        self._waiters.append((last, future))
        return future

    def durable_for(self, code: str) -> asyncio.Future[None] | None:
        """A future done when every write of room ``code`` made so far is in Redis (``None``: it is).

        A frame about one room depends on that room's writes only: waiting for these instead of
        :meth:`durable` keeps a slow write of one room from holding up every other room's frames.
        """
        queue = self._queues.get(code)
        if not queue:
            return None
        last = queue[-1][0]
        waiters = self._room_waiters.setdefault(code, deque())
        if waiters and waiters[-1][0] == last:
            return waiters[-1][1]
        future = asyncio.get_running_loop().create_future()
        waiters.append((last, future))
        return future

    def _room_done(self, code: str, number: int, exc: Exception | None = None) -> None:
        """Room ``code``'s writes up to ``number`` are done (or, with ``exc``, every one failed)."""
        waiters = self._room_waiters.get(code)
        while waiters and (exc is not None or waiters[0][0] <= number):
            future = waiters.popleft()[1]
            if not future.done():
                if exc is None:
                    future.set_result(None)
                else:
                    future.set_exception(exc)
                    future.exception()  # retrieved: the connections waiting on it close
        if not waiters:
            self._room_waiters.pop(code, None)

    # --- for the relay and the tests --------------------------------------------------------

    def pending(self, code: str) -> int:
        """Writes of the room not done yet."""
        return len(self._queues.get(code, ()))

    def failed(self, code: str) -> bool:
        return code in self._failed

    async def flush(self, code: str | None = None) -> None:
        """Wait until every write made so far (of one room, or all) is done or dropped."""
        while True:
            future = self.durable() if code is None else self.durable_for(code)
            if future is None:
                return
            await asyncio.wait([future])

    def reset(self, code: str) -> None:
        """Forget a failed room: its next writes are made again (it was reloaded from Redis)."""
        self._failed.discard(code)

    async def stop(self) -> None:
        """Cancel the batches under way and close the pipe (before the Redis client is closed;
        :meth:`flush` first for the writes to finish): a batch retrying after the client was
        closed would open a connection that nothing closes."""
        self._stopped = True
        for handle in self._retries:
            handle.cancel()
        self._retries.clear()
        await cancel_and_wait(list(self._batches))
        if self.pipe is not None:
            await self.pipe.close()

    # --- the queues and the batches ---------------------------------------------------------------

    def _write(self, code: str, call: Callable[..., Call | None], args: tuple[Any, ...]) -> None:
        if code in self._failed:
            return
        number = self._next
        self._next += 1
        self._open.add(number)
        heapq.heappush(self._lowest, number)
        queue = self._queues.get(code)
        if queue is None:
            queue = self._queues[code] = deque()
        queue.append((number, call, args))
        if ack_trace.TRACE is not None:
            self._queued_at[number] = time.perf_counter()
            ack_trace.TRACE.add("room_queue", len(queue))
        if code not in self._sending:
            self._ready[code] = None
            self._schedule()

    def _schedule(self) -> None:
        """Send a batch once this turn of the event loop is over (its other writes go with it)."""
        if not self._pump_soon:
            self._pump_soon = True
            asyncio.get_running_loop().call_soon(self._pump)

    def _pump(self) -> None:
        self._pump_soon = False
        if self._stopped:
            return
        while self._ready:
            pipe = self.pipe
            piped = pipe is not None and pipe.connected
            if not piped and len(self._batches) >= self.lanes:
                break  # through redis-py: at most `lanes` batches at once; on the pipe, no limit
            codes = []
            for code in self._ready:
                codes.append(code)
                if len(codes) >= self.batch_size:
                    break
            for code in codes:
                del self._ready[code]
                self._sending.add(code)
            if piped:
                assert pipe is not None
                self._send_piped(pipe, codes)
                continue
            if pipe is not None:
                pipe.reconnect_soon()  # meanwhile through redis-py, which reconnects by itself
            self._start_batch(codes)

    def _start_batch(self, codes: list[str]) -> None:
        task = asyncio.get_running_loop().create_task(self._batch(codes))
        self._batches.add(task)
        task.add_done_callback(self._batch_ended)

    def _batch_ended(self, task: asyncio.Task[None]) -> None:
        self._batches.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a batch of writes to Redis failed unexpectedly", exc_info=task.exception())
        if self._ready:
            self._schedule()

    def _build(self, codes: list[str]) -> tuple[dict[str, Any], list[Call], list[str]]:
        """The calls of one write of each room in ``codes`` (its oldest): the outcomes known
        without Redis, the calls to make and the rooms they are for."""
        outcomes: dict[str, Any] = {}
        calls: list[Call] = []
        sent: list[str] = []
        for code in codes:
            _, make, args = self._queues[code][0]
            try:
                call = make(*args)  # reads the fence this node holds now
            except Exception as exc:  # NotOwner: this node holds no lease on the room
                outcomes[code] = exc
                continue
            if call is None:
                outcomes[code] = None
            else:
                calls.append(call)
                sent.append(code)
        if ack_trace.TRACE is not None:
            now = time.perf_counter()
            for code in codes:
                made = self._queued_at.get(self._queues[code][0][0])
                if made is not None:
                    ack_trace.TRACE.add("write_queued", now - made)
            ack_trace.TRACE.add("batch_size", len(calls))
        return outcomes, calls, sent

    def _send_piped(self, pipe: RedisPipe, codes: list[str]) -> None:
        """Hand the batch to the pipe now; its replies settle it in the turn they arrive."""
        outcomes, calls, sent = self._build(codes)
        if not calls:
            self._after(codes, outcomes, pump=False)  # the pump under way goes on with the next rooms
            return
        commands = [("EVALSHA", script.sha, len(keys), *keys, *args) for script, keys, args in calls]
        started = time.perf_counter()
        try:
            pipe.send(commands, lambda replies: self._piped_replies(codes, outcomes, sent, replies, started))
        except StoreUnavailable:  # the connection broke since it was checked: through redis-py
            self._start_batch(codes)

    def _piped_replies(
        self, codes: list[str], outcomes: dict[str, Any], sent: list[str], replies: Replies, started: float
    ) -> None:
        if self._stopped:
            return
        if ack_trace.TRACE is not None:
            ack_trace.TRACE.add("round_trip", time.perf_counter() - started)
        if isinstance(replies, StoreUnavailable):
            results: list[Any] = [replies] * len(sent)
        elif any(isinstance(r, redis_errors.ResponseError) and str(r).startswith("NOSCRIPT") for r in replies):
            # Redis restarted and forgot the scripts: redis-py loads them and makes these writes
            # again (each can be made twice).
            self._start_batch(codes)
            return
        else:
            results = [outcome(r) for r in replies]
        outcomes.update(zip(sent, results, strict=True))
        self._after(codes, outcomes)

    def _after(self, codes: list[str], outcomes: dict[str, Any], pump: bool = True) -> None:
        """Settle a piped batch; its rooms' next writes go at once (or after a pause, if Redis
        did not answer), unless ``pump`` is false (a pump is under way)."""
        if self._settle(codes, outcomes):
            pause, self._pause = self._pause, min(1.0, self._pause * 2)
            handle: asyncio.TimerHandle | None = None

            def retry() -> None:
                self._retries.discard(handle)
                self._release(codes)
                self._pump()

            handle = asyncio.get_running_loop().call_later(pause, retry)
            self._retries.add(handle)
            return
        self._release(codes)
        if pump:
            self._pump()
        elif self._ready:
            self._schedule()

    def _release(self, codes: list[str]) -> None:
        """The batch of ``codes`` is over: rooms with more writes are ready for the next."""
        for code in codes:
            self._sending.discard(code)
            queue = self._queues.get(code)
            if queue:
                self._ready[code] = None
            elif queue is not None:
                del self._queues[code]

    async def _batch(self, codes: list[str]) -> None:
        """One write of each room in ``codes`` (its oldest), sent to Redis in one round trip
        through redis-py (when the pipe cannot be used)."""
        outcomes, calls, sent = self._build(codes)
        started = time.perf_counter()
        try:
            try:
                results = await self.store.run_batch(calls) if calls else []
            except StoreUnavailable as exc:
                results = [exc] * len(calls)
            if ack_trace.TRACE is not None:
                ack_trace.TRACE.add("round_trip", time.perf_counter() - started)
            outcomes.update(zip(sent, results, strict=True))
            again = self._settle(codes, outcomes)
            if again:
                await asyncio.sleep(self._pause)
                self._pause = min(1.0, self._pause * 2)
        finally:
            self._release(codes)

    def _settle(self, codes: list[str], outcomes: dict[str, Any]) -> bool:
        """Take each room's outcome; whether some rooms are to try again (Redis did not answer)."""
        now = time.monotonic()
        again = False
        for code in codes:
            queue = self._queues[code]
            number = queue[0][0]
            outcome = outcomes[code]
            if isinstance(outcome, StoreUnavailable):
                since = self._since.setdefault(code, now)
                if now + self._pause <= since + self.retry_for:
                    again = True
                    continue
            if isinstance(outcome, Exception):
                self._since.pop(code, None)
                self._fail(code, number, queue, outcome)
                continue
            self._since.pop(code, None)
            self._pause = 0.05
            queue.popleft()
            if ack_trace.TRACE is not None and (made := self._queued_at.pop(number, None)) is not None:
                ack_trace.TRACE.add("write_acked", time.perf_counter() - made)
            self._done(number)
            self._room_done(code, number)
        return again

    def _done(self, number: int) -> None:
        self._open.discard(number)
        while self._lowest and self._lowest[0] not in self._open:
            heapq.heappop(self._lowest)
        lowest_open = self._lowest[0] if self._lowest else self._next
        while self._waiters and self._waiters[0][0] < lowest_open:
            future = self._waiters.popleft()[1]
            if not future.done():
                future.set_result(None)

    def _fail(self, code: str, number: int, queue: deque[Any], exc: Exception) -> None:
        detail = exc.detail if isinstance(exc, StoreUnavailable) else str(exc)
        if self.on_failure is None:  # else the relay says what becomes of the room (it may keep it)
            log.error("room %s: a write to Redis failed (%s)", code, detail)
        if self.on_refused is not None and refuses_writes(exc):
            self.on_refused(detail)
        self._failed.add(code)
        self._room_done(code, number, exc)
        for waiting, future in self._waiters:
            if waiting >= number and not future.done():
                future.set_exception(exc)
                future.exception()  # retrieved: the connections waiting on it close
        dropped = [n for n, _, _ in queue]
        queue.clear()
        for n in dropped:
            self._done(n)
        if self.on_failure is not None:
            self.on_failure(code, exc)


# --- Redis's health ------------------------------------------------------------------------------


class Health:
    """Whether Redis answers and takes writes, checked every ``every`` seconds by :meth:`run`
    (with a write of ``probe_key``, which expires by itself; without one, a ``PING``), and
    marked down at once by :meth:`writes_refused` when a room's write is refused.

    A node refuses new rooms at once while Redis is known to be away or to refuse writes
    (:meth:`check`), instead of making each client wait for a time-out or lose its room, and its
    ``/health`` says so (503), so that a load balancer sends players elsewhere; it notices the
    return by itself.
    """

    def __init__(self, redis: Redis, every: float = 1.0, probe_key: str = "") -> None:
        self.redis = redis
        self.every = every
        self.probe_key = probe_key
        self.up = True
        self.refusing = False  # down because Redis refuses writes (it answers)
        self.since = time.monotonic()

    def check(self) -> None:
        """Raise :class:`StoreUnavailable` if Redis is known to be away (:class:`WritesRefused`
        if it answers but refuses writes)."""
        if not self.up:
            seconds = time.monotonic() - self.since
            if self.refusing:
                raise WritesRefused(f"Redis has refused writes for {seconds:.0f} s")
            raise StoreUnavailable(f"Redis has not answered for {seconds:.0f} s")

    def writes_refused(self, detail: str) -> None:
        """A write was refused: down until a write succeeds again (the next probe's, say)."""
        self._turn(False, True, detail)

    async def probe(self) -> bool:
        try:
            if self.probe_key:
                await guarded(self.redis.set(self.probe_key, str(time.time()), px=int(self.every * 10_000)))
            else:
                await guarded(self.redis.ping())
            self._turn(True, False, "")
        except StoreUnavailable as exc:
            self._turn(False, isinstance(exc, WritesRefused), exc.detail)
        return self.up

    def _turn(self, up: bool, refusing: bool, detail: str) -> None:
        if up == self.up and refusing == self.refusing:
            return
        self.up, self.refusing, self.since = up, refusing, time.monotonic()
        if up:
            log.info("Redis answers and takes writes again")
        elif refusing:
            log.error("Redis refuses writes (%s): new rooms are refused until it takes them", detail)
        else:
            log.error("Redis does not answer: new rooms are refused until it does")

    async def run(self) -> None:
        while True:
            await self.probe()
            stop_if_cancelled()
            await asyncio.sleep(self.every)


# --- one node ---------------------------------------------------------------------------------------


class RoomMissing(LookupError):
    """No room has this code in Redis."""


class RoomMoving(ProtocolError):
    """The room's owner stopped answering and its lease has not lapsed yet: try again shortly.

    A ``server_busy`` error: the app reconnects and resumes by itself after it.
    """

    def __init__(self, code: str) -> None:
        super().__init__("server_busy", f"room {code} is moving to another server; try again in a few seconds")


class Cluster:
    """What one node needs to take part: its store, leases, bus, limits and Redis's health.

    ``Cluster.from_url("redis://HOST:PORT/DB")``, then ``await start()`` and ``await stop()``.
    ``on_lost(code)`` is told when another node has taken a room of this one over (the relay
    drops the room from memory and asks its clients to resume).
    """

    def __init__(
        self,
        redis: Redis,
        node: str | None = None,
        prefix: str = DEFAULT_PREFIX,
        ttl: float = DEFAULT_TTL,
        limits: ClusterLimits | None = None,
    ) -> None:
        self.redis = redis
        self.node = node or new_node_id()
        self.prefix = prefix
        self.leases = LeaseKeeper(redis, self.node, prefix, ttl, on_lost=self._lost)
        self.store = RedisRoomStore(redis, prefix, fence_of=self.leases.fence)
        self.bus = Bus(redis, self.node, prefix)
        self.journal = Journal(self.store)
        self.bus.durable = self.journal.durable
        self.bus.durable_for = self.journal.durable_for
        self.limits = limits or ClusterLimits(redis, prefix)
        self.health = Health(redis, probe_key=f"{prefix}health:{self.node}")
        self.journal.on_refused = self.health.writes_refused
        self.on_lost: Callable[[str], None] | None = None
        self._visitors: dict[tuple[str, str], str] = {}  # (node, peer) of other nodes' clients -> room
        self._tasks: list[asyncio.Task[None]] = []

    @classmethod
    def from_url(cls, url: str, **kwargs: Any) -> Cluster:
        """A node on ``redis://HOST:PORT/DB`` (see :func:`server.redis_store.connect`)."""
        return cls(connect(url), **kwargs)

    async def start(self) -> None:
        """Check that Redis answers (a node does not start without it), then start the tasks."""
        await guarded(self.redis.ping())
        if self.journal.pipe is None:
            self.journal.pipe = await open_pipe(self.redis)  # None: the writes go through redis-py
            await self.store.load_scripts()
        await self.bus.start()
        self._tasks = [asyncio.create_task(self.leases.run()), asyncio.create_task(self.health.run())]

    async def stop(self) -> None:
        """Finish the rooms' writes and messages, give every room up (others may take them at
        once) and close the connection."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.journal.flush(), 5.0)
        await cancel_and_wait(self._tasks)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.bus.flush(), 2.0)
        for code in list(self.leases.held):
            with contextlib.suppress(StoreUnavailable, TimeoutError):
                await asyncio.wait_for(self.release(code), 5.0)
        await self.bus.stop()
        # Nothing may use the client once it is closed: a call made after would open a new
        # connection that is never closed (a ResourceWarning when it is collected).
        await self.limits.stop()
        await self.journal.stop()
        await cancel_and_wait(self._tasks)  # background work started meanwhile (wrong guesses counted)
        await self.redis.aclose()

    def _lost(self, code: str) -> None:
        self._background(self.bus.leave_room(code))
        for key in [key for key, room in self._visitors.items() if room == code]:
            del self._visitors[key]
            self.bus.forget_peer(*key)
        if self.on_lost is not None:
            self.on_lost(code)

    async def claim(self, code: str) -> tuple[dict[str, Any], list[list[Any]]] | None:
        """Own the room if nobody does: its document and record from Redis, to replay.

        ``None`` if another node owns it (forward to it) or the room does not exist (the
        lease is given back at once). If Redis fails meanwhile, the lease is given back too.
        """
        if await self.leases.acquire(code) is None:
            return None
        try:
            loaded = await self.store.load_room(code)
            if loaded is not None:
                await self.bus.listen_room(code)
        except BaseException:
            with contextlib.suppress(StoreUnavailable):
                await self.release(code)
            raise
        if loaded is None:
            await self.leases.release(code)
        return loaded

    async def claim_new(self, code: str) -> bool:
        """Own a room about to be created under ``code``; ``False`` if the code is taken."""
        self.health.check()
        if await self.store.has_room(code) or await self.leases.acquire(code) is None:
            return False
        try:
            await self.bus.listen_room(code)
        except BaseException:
            with contextlib.suppress(StoreUnavailable):
                await self.release(code)
            raise
        return True

    async def wait_claim(
        self, code: str, timeout: float | None = None
    ) -> tuple[dict[str, Any], list[list[Any]]] | None:
        """Like :meth:`claim`, but waits while the room's owner is silent (a dead node's lease
        lapses within ``ttl``).

        The room, to replay (this node owns it now); ``None`` if its owner is alive (it
        listens on the room's inbox: forward to it). Raises :class:`RoomMissing` if there is no
        such room, :class:`RoomMoving` if the owner is still silent after ``timeout`` seconds
        (1.5 ``ttl`` by default).
        """
        deadline = time.monotonic() + (self.leases.ttl * 1.5 if timeout is None else timeout)
        while True:
            loaded = await self.claim(code)
            if loaded is not None:
                return loaded
            if await self.leases.owner(code) is None and not await self.store.has_room(code):
                raise RoomMissing(code)
            if await self.bus.forward(code, {"node": self.node, "ping": True}):
                return None
            if time.monotonic() >= deadline:
                raise RoomMoving(code)
            await asyncio.sleep(self.leases.ttl / 8)

    async def handle_forward(self, room: Any, body: dict[str, Any]) -> None:
        """On the owner: a message forwarded by the client's node, applied to ``room``.

        The client is a :class:`RemotePeer`, the same object for every message of that
        connection; a refusal goes back to it as an ``error``. Wrong codes and tokens are counted
        as on a single relay (:func:`count_refusal`) before the answer goes: a wrong ``resume``
        from an address out of guesses is told ``rate_limited``. A ``join``, ``spectate`` or
        ``resume`` of a room its host closed gets ``no_room``, as on the owner's own connections.
        """
        key = (str(body["node"]), str(body["peer"]))
        msg = body["msg"]
        peer = self.bus.remote_peer(key[0], key[1], int(body.get("version", 1)), body.get("ip"))
        peer.room = room.code  # its frames wait for this room's writes only
        self._visitors[key] = room.code
        if msg["type"] in ("leave", "gone"):
            self._visitors.pop(key, None)
            self.bus.forget_peer(*key)
        try:
            dispatch(room, peer, msg)  # a room its host closed is not entered: no_room
        except ProtocolError as exc:
            if body.get("ip"):
                exc = await count_refusal(self.limits, exc, msg["type"], str(body["ip"]), room.code)
            if msg["type"] in ENTERING:
                peer.refuse(error(exc.code, exc.message))
                self._visitors.pop(key, None)
                self.bus.forget_peer(*key)
            else:
                peer.send(error(exc.code, exc.message))

    def _background(self, work: Awaitable[Any]) -> None:
        async def run() -> None:
            with contextlib.suppress(StoreUnavailable):
                await work

        self._tasks = [task for task in self._tasks if not task.done()]
        self._tasks.append(asyncio.get_running_loop().create_task(run()))

    async def release(self, code: str) -> None:
        """Give a room up (unloaded here): its inbox, then its lease."""
        await self.bus.leave_room(code)
        await self.leases.release(code)


__all__ = [
    "DEFAULT_TTL",
    "Bus",
    "cancel_and_wait",
    "every",
    "Cluster",
    "ClusterLimits",
    "Health",
    "Journal",
    "LeaseKeeper",
    "Limit",
    "peer_id",
    "RemotePeer",
    "RemoteRoom",
    "RoomMissing",
    "RoomMoving",
    "new_node_id",
    "stop_if_cancelled",
]
