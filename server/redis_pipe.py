"""A lean connection to Redis for the cluster's writes (:class:`server.cluster.Journal`).

redis-py's asyncio client spends, for every pipeline, a task to write the commands (its socket
write time-out goes through :func:`asyncio.wait_for`), a checkout from the connection pool with
its lock and a probe of the socket, and a task switch per reply: the writes of one loop turn
left the process two or three turns after they were made, and each turn of a busy loop is
milliseconds. This connection is an :class:`asyncio.Protocol`: :meth:`RedisPipe.send` packs
the commands (hiredis) and hands them to the socket at once, in the caller's turn; replies are
parsed (hiredis) as they arrive, and each batch's callback runs in the turn its last reply
came in, in the order the batches were sent. No task, no pool.

It is used only where it can be: a plain TCP ``redis://`` URL and the ``hiredis`` package
installed (:func:`pipe_settings`); otherwise the Journal sends through redis-py as before. It
carries only writes whose replies it hands back as they are (errors as
:class:`redis.exceptions.ResponseError`); it never retries: a batch that gets no answer within
the time-out, or whose connection breaks, is failed with
:class:`~server.redis_store.StoreUnavailable`, and the Journal makes its writes again (each can
be made again safely).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from redis import exceptions as redis_errors
from redis.asyncio import Redis
from redis.asyncio.connection import Connection as TcpConnection

from server.redis_store import StoreUnavailable

try:
    import hiredis

    HAVE_HIREDIS = True
except ImportError:  # hiredis comes with redis[hiredis], the cluster's extra
    HAVE_HIREDIS = False

log = logging.getLogger("soccerdesk.cluster")

Replies = list[Any] | StoreUnavailable
"""What a batch's callback is given: one reply per command (an error reply as a
:class:`redis.exceptions.ResponseError`), or the failure of the whole batch."""


@dataclass(frozen=True)
class PipeSettings:
    host: str
    port: int
    db: int
    username: str | None
    password: str | None
    timeout: float


def pipe_settings(redis: Redis) -> PipeSettings | None:
    """Where the client ``redis`` connects, if a :class:`RedisPipe` can connect there too
    (plain TCP, hiredis installed); ``None`` otherwise."""
    pool = redis.connection_pool
    if not HAVE_HIREDIS or pool.connection_class is not TcpConnection:
        return None
    kw = pool.connection_kwargs
    timeout = kw.get("socket_timeout") or 2.0
    return PipeSettings(
        host=str(kw.get("host", "localhost")),
        port=int(kw.get("port", 6379)),
        db=int(kw.get("db", 0) or 0),
        username=kw.get("username"),
        password=kw.get("password"),
        timeout=float(timeout),
    )


@dataclass
class _Batch:
    size: int
    done: Callable[[Replies], None]
    replies: list[Any]
    timer: asyncio.TimerHandle | None


class _Link(asyncio.Protocol):
    """One TCP connection of a pipe (a new one after each reconnection, so that the end of an
    old connection cannot touch the new one)."""

    def __init__(self, pipe: RedisPipe) -> None:
        self.pipe = pipe
        self.transport: asyncio.Transport | None = None
        self.reader: Any = hiredis.Reader(replyError=redis_errors.ResponseError)
        self.ready = False  # logged in and on its database: open to the Journal's batches

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        if self.pipe._link is self:
            self.pipe._received(self, data)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.pipe._link is self:
            self.pipe._drop(StoreUnavailable(f"the connection to Redis broke: {exc or 'closed by Redis'}"))


class RedisPipe:
    """One connection carrying batches of commands, in order (see the module docstring)."""

    def __init__(self, settings: PipeSettings) -> None:
        self.settings = settings
        self.batches_sent = 0
        self._link: _Link | None = None
        self._pending: deque[_Batch] = deque()
        self._connecting: asyncio.Task[None] | None = None
        self._closed = False

    @property
    def connected(self) -> bool:
        link = self._link
        return link is not None and link.ready and link.transport is not None and not link.transport.is_closing()

    # --- connecting ------------------------------------------------------------------------------

    async def connect(self) -> None:
        """Connect (and log in, and choose the database); raises :class:`StoreUnavailable`."""
        if self._closed:
            raise StoreUnavailable("the connection to Redis was closed")
        if self.connected:
            return
        s = self.settings
        loop = asyncio.get_running_loop()
        link = _Link(self)
        try:
            async with asyncio.timeout(s.timeout):
                await loop.create_connection(lambda: link, s.host, s.port)
        except (OSError, TimeoutError) as exc:
            raise StoreUnavailable(f"cannot connect to Redis at {s.host}:{s.port}: {exc}") from exc
        if self._closed:  # closed meanwhile
            assert link.transport is not None
            link.transport.close()
            raise StoreUnavailable("the connection to Redis was closed")
        self._drop(StoreUnavailable("the connection to Redis was replaced"))
        self._link = link
        setup: list[Sequence[Any]] = []
        if s.password:
            setup.append(("AUTH", s.username, s.password) if s.username else ("AUTH", s.password))
        if s.db:
            setup.append(("SELECT", s.db))
        if setup:
            answered: asyncio.Future[Replies] = loop.create_future()

            def answer(replies: Replies) -> None:
                if not answered.done():
                    answered.set_result(replies)

            self.send(setup, answer)
            replies = await answered
            if isinstance(replies, StoreUnavailable):
                raise replies
            refused = [r for r in replies if isinstance(r, redis_errors.ResponseError)]
            if refused:
                self._drop(StoreUnavailable(f"Redis refused the connection: {refused[0]}"))
                raise StoreUnavailable(f"Redis refused the connection: {refused[0]}")
        link.ready = True

    def reconnect_soon(self) -> None:
        """Start connecting again in the background (once at a time); failures are quiet, as
        the caller goes on through redis-py meanwhile."""
        if self._closed or self.connected or (self._connecting is not None and not self._connecting.done()):
            return

        async def again() -> None:
            with contextlib.suppress(StoreUnavailable):
                await self.connect()

        self._connecting = asyncio.get_running_loop().create_task(again())

    async def close(self) -> None:
        """Close for good: batches still waiting fail, nothing is sent any more."""
        self._closed = True
        if self._connecting is not None:
            self._connecting.cancel()
            await asyncio.wait([self._connecting])
        self._drop(StoreUnavailable("the connection to Redis was closed"))

    # --- sending ---------------------------------------------------------------------------------

    def send(self, commands: Sequence[Sequence[Any]], done: Callable[[Replies], None]) -> None:
        """Write ``commands`` now; ``done(replies)`` once every reply is in (or the batch failed).

        Raises :class:`StoreUnavailable` at once if not connected (nothing was sent).
        """
        transport = self._link.transport if self._link is not None else None
        if transport is None or transport.is_closing():
            raise StoreUnavailable("not connected to Redis")
        data = b"".join(hiredis.pack_command(tuple(command)) for command in commands)
        timer = asyncio.get_running_loop().call_later(self.settings.timeout, self._timed_out)
        self._pending.append(_Batch(len(commands), done, [], timer))
        self.batches_sent += 1
        transport.write(data)

    def _timed_out(self) -> None:
        self._drop(StoreUnavailable(f"Redis did not answer within {self.settings.timeout:g} s"))

    def _drop(self, exc: StoreUnavailable) -> None:
        """Close the connection and fail every batch waiting on it."""
        link, self._link = self._link, None
        if link is not None and link.transport is not None:
            link.transport.close()
        pending, self._pending = self._pending, deque()
        for batch in pending:
            _finish(batch, exc)

    # --- replies -------------------------------------------------------------------------------

    def _received(self, link: _Link, data: bytes) -> None:
        reader = link.reader
        try:
            reader.feed(data)
            while (reply := reader.gets()) is not False:
                if not self._pending:
                    raise StoreUnavailable("Redis sent a reply nobody asked for")
                batch = self._pending[0]
                batch.replies.append(reply)
                if len(batch.replies) == batch.size:
                    self._pending.popleft()
                    _finish(batch, batch.replies)
                    if self._link is not link:  # dropped meanwhile: what is left is not ours
                        return
        except hiredis.ProtocolError as exc:
            self._drop(StoreUnavailable(f"bad reply from Redis: {exc}"))
        except StoreUnavailable as exc:
            self._drop(exc)


def _finish(batch: _Batch, replies: Replies) -> None:
    if batch.timer is not None:
        batch.timer.cancel()
    try:
        batch.done(replies)
    except Exception:  # the connection must outlive a failing callback
        log.exception("handling replies from Redis failed")


async def open_pipe(redis: Redis) -> RedisPipe | None:
    """A connected :class:`RedisPipe` to where ``redis`` connects, or ``None`` where none can be
    made (see :func:`pipe_settings`). Raises :class:`StoreUnavailable` if Redis does not answer."""
    settings = pipe_settings(redis)
    if settings is None:
        return None
    pipe = RedisPipe(settings)
    await pipe.connect()
    return pipe


__all__ = ["PipeSettings", "RedisPipe", "Replies", "open_pipe", "pipe_settings"]
