"""Redis persistence of rooms, for several relay nodes sharing one Redis.

The same operations as the SQLite :class:`server.store.RoomStore`, under the same names and
arguments, but ``async`` (every call is a round trip to Redis). Rooms reach it through
:class:`server.cluster.Journal`, which gives them the synchronous writes and ``durable()`` of
the relay's store seam: an action is acknowledged once it is in Redis.

What lives where (``P`` is the key prefix, ``soccerdesk:`` unless told otherwise)::

    P room:CODE            hash: one field per top-level key of the room's document, each
                           a JSON value (game, options, settings, seats, match, chat ...)
    P record:CODE:MATCH    list: the match record, one JSON ``[seat, action]`` per ply
    P rooms                sorted set: every room's code, scored by its last write (time.time())
    P fence:CODE           the room's fencing counter (see :mod:`server.cluster`); it outlives
                           a deleted room by a day
    P lease:CODE           the room's owner lease, "NODE FENCE", with a time to live

Seat tokens are never written to Redis: a seat's ``token``, if a document still has one,
is replaced by ``token_hash`` (the hex SHA-256 of the token, :func:`server.rooms.hash_token`,
the field and hash the SQLite store keeps too) before the document leaves the process, so a copy of the
database (a backup, a replica, an AOF file) cannot be used to take a seat. A relay checks a
presented token by hashing it and comparing the hashes.

Writes are *fenced*: a store built with ``fence_of`` (the node's lease keeper) sends the
fencing token this node holds for the room, and the write is refused, atomically inside
Redis, when another node has taken the room over since (:class:`NotOwner`). Appending also
checks that the record is exactly ``first_ply`` long, so the record stays one ordered list
with no gap and no ply written twice (:class:`RecordConflict`); an append repeated after a
lost reply (the same actions at the same place) is accepted once and not duplicated.

When Redis cannot be reached, every call raises :class:`StoreUnavailable`, a protocol error
(``server_busy``) with a message a player can read; the client's connection pool reconnects
by itself once Redis is back.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from redis import exceptions as redis_errors
from redis.asyncio import BlockingConnectionPool, Redis
from redis.commands.core import AsyncScript

from server.rooms import hash_token
from soccerdesk.net.protocol import ProtocolError

DEFAULT_PREFIX = "soccerdesk:"

POOL_SIZE = 512
"""Connections one node opens to Redis at most. A connection carries one call at a time, and
each room has at most one write under way (:class:`server.cluster.Journal`), so this is about
the rooms of a node writing at the same moment; beyond it calls wait for a free connection
(which is not fair to the waiters: a small pool under heavy load starves some rooms)."""


def connect(url: str, pool_size: int = POOL_SIZE, timeout: float = 2.0) -> Redis:
    """A client of ``redis://HOST:PORT/DB`` for a relay node.

    Calls share at most ``pool_size`` connections (hundreds of rooms writing at once wait
    their turn instead of opening a connection each), and every call gives up after
    ``timeout`` seconds without an answer or a free connection.
    """
    pool = BlockingConnectionPool.from_url(
        url, max_connections=pool_size, timeout=timeout, socket_timeout=timeout, socket_connect_timeout=timeout
    )
    return Redis.from_pool(pool)  # closing the client closes its connections


class StoreUnavailable(ProtocolError):
    """Redis cannot be reached (or did not answer in time); nothing was changed or read."""

    WORDS = (
        "the relay cannot reach its database right now, so it opens no new rooms and saves no moves; "
        "try again in a moment"
    )

    def __init__(self, detail: str) -> None:
        super().__init__("server_busy", self.WORDS)
        self.detail = detail


class WritesRefused(StoreUnavailable):
    """Redis answers but refuses to write (out of memory under ``noeviction``, a replica, or a
    failed snapshot save): nothing was changed."""

    WORDS = "the relay cannot save right now, so it opens no new rooms and saves no moves; try again in a moment"


def refuses_writes(exc: BaseException) -> bool:
    """Whether ``exc`` is Redis refusing a write while it answers (see :class:`WritesRefused`).
    redis-py turns the ``OOM`` and ``READONLY`` replies into errors of their own (their words
    without that prefix); a script's refusal read by :mod:`server.redis_pipe` keeps its words."""
    if isinstance(exc, (redis_errors.OutOfMemoryError, redis_errors.ReadOnlyError)):
        return True
    return isinstance(exc, redis_errors.ResponseError) and str(exc).startswith(("OOM", "READONLY", "MISCONF"))


class NotOwner(RuntimeError):
    """This node no longer owns the room (another node took it over): the write was refused."""


class RecordConflict(RuntimeError):
    """The record in Redis is not as long as this node thought: the write was refused."""


# Each script checks the fence first: ARGV[1] is the fence this node holds ('' : unfenced).
# A fence with a time to live is retired: its room was deleted (see _DELETE).
_FENCE_CHECK = """
if ARGV[1] ~= '' and (redis.call('GET', KEYS[1]) ~= ARGV[1] or redis.call('PTTL', KEYS[1]) ~= -1) then
  return redis.error_reply('NOTOWNER the room is owned by another node now, or was deleted')
end
"""

# KEYS: fence, room hash, rooms zset. ARGV: fence, now, code, field, value, field, value ...
_SAVE = (
    _FENCE_CHECK
    + """
redis.call('DEL', KEYS[2])
redis.call('HSET', KEYS[2], unpack(ARGV, 4))
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[3])
return 1
"""
)

# KEYS: fence, record list, rooms zset. ARGV: fence, now, code, first ply, entry, entry ...
_APPEND = (
    _FENCE_CHECK
    + """
local have = redis.call('LLEN', KEYS[2])
local first = tonumber(ARGV[4])
local count = #ARGV - 4
if have ~= first then
  if have == first + count then
    local tail = redis.call('LRANGE', KEYS[2], first, -1)
    local same = true
    for i = 1, count do
      if tail[i] ~= ARGV[4 + i] then same = false end
    end
    if same then return have end
  end
  return redis.error_reply('CONFLICT the record holds ' .. have .. ' actions, not ' .. first)
end
redis.call('RPUSH', KEYS[2], unpack(ARGV, 5))
redis.call('ZADD', KEYS[3], 'XX', ARGV[2], ARGV[3])
return have + count
"""
)

# KEYS: fence, record list. ARGV: fence.
_DROP = (
    _FENCE_CHECK
    + """
return redis.call('DEL', KEYS[2])
"""
)

# KEYS: room hash, rooms zset, fence, lease. ARGV: fence ('' : only if nobody owns the room), code,
# the prefix of the room's records.
_DELETE = """
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('ZREM', KEYS[2], ARGV[2])
  return 0
end
if ARGV[1] ~= '' then
  if redis.call('GET', KEYS[3]) ~= ARGV[1] then
    return redis.error_reply('NOTOWNER the room is owned by another node now')
  end
elseif redis.call('EXISTS', KEYS[4]) == 1 then
  return redis.error_reply('NOTOWNER a node owns the room; it is not deleted')
end
local match = redis.call('HGET', KEYS[1], 'match')
if match then redis.call('DEL', ARGV[3] .. match) end
redis.call('DEL', KEYS[1], KEYS[4])
redis.call('ZREM', KEYS[2], ARGV[2])
-- The fencing counter outlives the room for a day, retired (its time to live says so: no write
-- and no renewal passes it), so a room made again under the same code never hands out a fence
-- that a node which owned the old room could still hold.
redis.call('EXPIRE', KEYS[3], 86400)
return 1
"""

# KEYS: room hash. ARGV: the prefix of the room's records. The document and its record, read
# in one step so they belong together.
_LOAD = """
local doc = redis.call('HGETALL', KEYS[1])
if #doc == 0 then return false end
local match = redis.call('HGET', KEYS[1], 'match')
return {doc, redis.call('LRANGE', ARGV[1] .. match, 0, -1)}
"""


def _hashed_seats(seats: Any) -> Any:
    """``seats`` of a room document with each plain ``token`` replaced by its hash."""
    if not isinstance(seats, list):
        return seats
    out = []
    for seat in seats:
        if isinstance(seat, dict) and "token" in seat:
            seat = {k: v for k, v in seat.items() if k != "token"} | {"token_hash": hash_token(seat["token"])}
        out.append(seat)
    return out


Call = tuple[AsyncScript, list[str], list[Any]]
"""A write to make: a registered script, its keys and its arguments."""


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


class RedisRoomStore:
    """Rooms and their records in Redis; see the module docstring.

    ``fence_of(code)`` gives the fencing token this node holds for a room (``None``: it owns
    no lease for it, and writes are refused without asking Redis). Without ``fence_of``
    writes are not fenced, which is right only for a single relay.
    """

    def __init__(
        self,
        redis: Redis,
        prefix: str = DEFAULT_PREFIX,
        fence_of: Callable[[str], int | None] | None = None,
    ) -> None:
        self.redis = redis
        self.prefix = prefix
        self.fence_of = fence_of
        self._save = redis.register_script(_SAVE)
        self._append = redis.register_script(_APPEND)
        self._drop = redis.register_script(_DROP)
        self._delete = redis.register_script(_DELETE)
        self._load = redis.register_script(_LOAD)

    @classmethod
    def from_url(
        cls, url: str, prefix: str = DEFAULT_PREFIX, fence_of: Callable[[str], int | None] | None = None
    ) -> RedisRoomStore:
        """A store on ``redis://HOST:PORT/DB`` (see :func:`connect`)."""
        return cls(connect(url), prefix, fence_of)

    async def close(self) -> None:
        await self.redis.aclose()

    async def load_scripts(self) -> None:
        """Have Redis know the write scripts, so that writes sent by their hash alone (the
        cluster's pipe, server/redis_pipe.py) are not refused the first time."""
        for script in (self._save, self._append, self._drop, self._delete):
            script.sha = as_text(await guarded(self.redis.script_load(script.script)))

    # --- keys ---------------------------------------------------------------------------

    def room_key(self, code: str) -> str:
        return f"{self.prefix}room:{code}"

    def record_key(self, code: str, match: int) -> str:
        return f"{self.prefix}record:{code}:{match}"

    def fence_key(self, code: str) -> str:
        return f"{self.prefix}fence:{code}"

    def lease_key(self, code: str) -> str:
        return f"{self.prefix}lease:{code}"

    @property
    def rooms_key(self) -> str:
        return f"{self.prefix}rooms"

    def _fence(self, code: str) -> str:
        if self.fence_of is None:
            return ""
        fence = self.fence_of(code)
        if fence is None:
            raise NotOwner(f"this node holds no lease on room {code}")
        return str(fence)

    # --- the operations of server.store.RoomStore -----------------------------------------

    # The writes are built as calls (a script, its keys, its arguments) so that they can be
    # made one at a time (the async methods below) or many in one round trip (:meth:`run_batch`,
    # which the cluster's Journal uses). The fence is read when the call is built.

    def save_call(self, code: str, doc: dict[str, Any]) -> Call:
        """Write (or replace) a room's document (seat tokens hashed, see the module docstring)."""
        return self.save_fields_call(code, self.doc_fields(doc))

    @staticmethod
    def doc_fields(doc: dict[str, Any]) -> list[str]:
        """A room's document as it is stored: field, JSON value, field, JSON value ... (encoded
        now, so a write queued for later keeps the document as it was)."""
        fields: list[str] = []
        for key, value in doc.items():
            fields += [key, _dumps(_hashed_seats(value) if key == "seats" else value)]
        if not fields:
            raise ValueError("a room document has at least its code")
        return fields

    def save_fields_call(self, code: str, fields: list[str]) -> Call:
        """:meth:`save_call` of a document already encoded by :meth:`doc_fields`."""
        keys = [self.fence_key(code), self.room_key(code), self.rooms_key]
        return self._save, keys, [self._fence(code), time.time(), code, *fields]

    def append_call(self, code: str, match: int, first_ply: int, actions: Iterable[tuple[int, str]]) -> Call | None:
        """Append ``(seat, action text)`` entries as plies ``first_ply``, ``first_ply + 1`` ...

        Atomic: all or none. Refused (:class:`RecordConflict`) unless the record holds exactly
        ``first_ply`` actions, or already ends with these very actions (a repeated call).
        ``None`` when there is nothing to append.
        """
        entries = [_dumps([seat, text]) for seat, text in actions]
        if not entries:
            return None
        keys = [self.fence_key(code), self.record_key(code, match), self.rooms_key]
        return self._append, keys, [self._fence(code), time.time(), code, first_ply, *entries]

    def drop_call(self, code: str, match: int) -> Call:
        """Forget the record of an earlier match of a room (after a rematch began)."""
        return self._drop, [self.fence_key(code), self.record_key(code, match)], [self._fence(code)]

    def delete_call(self, code: str) -> Call:
        """Delete a room, its record and lease (its fence is retired): the owner may, or anyone
        once nobody owns it. A room already gone is no error."""
        fence = "" if self.fence_of is None else str(self.fence_of(code) or "")
        keys = [self.room_key(code), self.rooms_key, self.fence_key(code), self.lease_key(code)]
        return self._delete, keys, [fence, code, f"{self.prefix}record:{code}:"]

    async def save_room(self, code: str, doc: dict[str, Any]) -> None:
        await self.run(self.save_call(code, doc))

    async def append_actions(self, code: str, match: int, first_ply: int, actions: Iterable[tuple[int, str]]) -> None:
        await self.run(self.append_call(code, match, first_ply, actions))

    async def drop_match(self, code: str, match: int) -> None:
        await self.run(self.drop_call(code, match))

    async def delete_room(self, code: str) -> None:
        await self.run(self.delete_call(code))

    async def run(self, call: Call | None) -> Any:
        """Make one write built by a ``*_call`` method (``None``: nothing to do)."""
        if call is None:
            return None
        script, keys, args = call
        return await guarded(script(keys, args))

    async def run_batch(self, calls: list[Call]) -> list[Any]:
        """Make many writes in one round trip (a pipeline, not a transaction), in order: each
        one's result, or the error it met (:class:`NotOwner`, :class:`RecordConflict` ...).

        Raises :class:`StoreUnavailable` when Redis did not answer; some of the writes may then
        have been made, which is harmless: every write can be made again (see the module
        docstring). Scripts Redis has forgotten (it restarted) are loaded and their writes sent again.
        """
        results: list[Any] = [None] * len(calls)
        todo = list(range(len(calls)))
        for attempt in range(2):
            pipe = self.redis.pipeline(transaction=False)
            for i in todo:
                script, keys, args = calls[i]
                pipe.evalsha(script.sha, len(keys), *keys, *args)
            replies = await guarded(pipe.execute(raise_on_error=False))
            missing = []
            for i, reply in zip(todo, replies, strict=True):
                if isinstance(reply, redis_errors.NoScriptError) and attempt == 0:
                    missing.append(i)
                else:
                    results[i] = outcome(reply)
            if not missing:
                break
            for script in {id(calls[i][0]): calls[i][0] for i in missing}.values():
                script.sha = as_text(await guarded(self.redis.script_load(script.script)))
            todo = missing
        return results

    async def load_room(self, code: str) -> tuple[dict[str, Any], list[list[Any]]] | None:
        """A room's document and its current match's ``[seat, action]`` list, or ``None``."""
        found = await read(lambda: self._load([self.room_key(code)], [f"{self.prefix}record:{code}:"]))
        if not found:
            return None
        flat, entries = found
        doc = {as_text(flat[i]): json.loads(flat[i + 1]) for i in range(0, len(flat), 2)}
        return doc, [json.loads(entry) for entry in entries]

    async def has_room(self, code: str) -> bool:
        return bool(await read(lambda: self.redis.exists(self.room_key(code))))

    async def stale_rooms(self, older_than: float) -> list[str]:
        """Codes of rooms not written since ``older_than`` (a ``time.time()`` value)."""
        codes = await read(lambda: self.redis.zrangebyscore(self.rooms_key, "-inf", f"({older_than}"))
        return [as_text(code) for code in codes]

    async def room_count(self) -> int:
        return int(await read(lambda: self.redis.zcard(self.rooms_key)))


def as_text(value: bytes | str) -> str:
    """A Redis reply (bytes) as text."""
    return value.decode("utf-8") if isinstance(value, bytes) else value


async def guarded(pending: Awaitable[Any]) -> Any:
    """Await a Redis call, turning its failures into this module's errors."""
    try:
        return await pending
    except (redis_errors.ConnectionError, redis_errors.TimeoutError, OSError) as exc:
        raise StoreUnavailable(str(exc)) from exc
    except redis_errors.ResponseError as exc:
        if refuses_writes(exc):
            raise WritesRefused(str(exc)) from exc
        refused = refusal(exc)
        if refused is exc:
            raise
        raise refused from None


async def read(call: Callable[[], Awaitable[Any]]) -> Any:
    """A read (which changes nothing, so may be made twice) made again at once if its
    connection turns out broken: after Redis restarted, the pool may still hold connections
    the old server closed, and the first call on each fails though Redis answers."""
    try:
        return await guarded(call())
    except StoreUnavailable as exc:
        if not isinstance(exc.__cause__, redis_errors.ConnectionError):
            raise
        return await guarded(call())


def outcome(reply: Any) -> Any:
    """A script's reply in a pipeline as the write's result: a refusal as this module's error
    (:func:`refusal`), anything else as it is."""
    return refusal(reply) if isinstance(reply, redis_errors.ResponseError) else reply


def refusal(exc: redis_errors.ResponseError) -> Exception:
    """A script's refusal as this module's error (any other error as it is)."""
    text = str(exc)
    if text.startswith("NOTOWNER"):
        return NotOwner(text.removeprefix("NOTOWNER "))
    if text.startswith("CONFLICT"):
        return RecordConflict(text.removeprefix("CONFLICT "))
    return exc


__all__ = [
    "Call",
    "DEFAULT_PREFIX",
    "guarded",
    "outcome",
    "refusal",
    "NotOwner",
    "RecordConflict",
    "RedisRoomStore",
    "StoreUnavailable",
    "as_text",
    "connect",
    "hash_token",
]
