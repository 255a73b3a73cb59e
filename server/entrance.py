"""Connections between TCP accept and the relay's handlers: a deadline and a cap per address.

aiohttp reads a connection's HTTP request (for the relay, the WebSocket upgrade) before any
handler of the relay sees it, and gives that no deadline of its own: a client that sends half a
request and then nothing (*slowloris*) would hold its connection, and a file descriptor, for
ever, and the relay's limits per address, counted in its handlers, would never see it. The
:class:`Entrance` watches every connection from the moment it is accepted:

* it has ``request_seconds`` to bring its whole request to a handler (and, on a connection kept
  alive after a plain HTTP answer, its next one), or it is cut;
* an address may have at most ``per_address`` connections waiting so at once; one more is closed
  as soon as it is accepted (an address whose connections are exempt, the relay's own reverse
  proxy, is not capped here: the proxy holds the clients' half-sent requests and its header
  time-outs deal with them).

A WebSocket, once upgraded, is counted by the relay's own limit of connections per address.

:class:`QuietAcceptErrors` keeps a relay that has run out of file descriptors from writing the
event loop's report of each failed ``accept()`` (thousands a second): it says so once a minute.
"""

from __future__ import annotations

import asyncio
import errno
import logging
from collections.abc import Callable
from typing import Any

from aiohttp import web

from server.pace import Pace

log = logging.getLogger("soccerdesk.relay")


class Entrance:
    """Connections accepted whose HTTP request has not reached a handler yet (see the module docstring).

    ``address_of(ip)`` is what the limit counts as one client (an IPv6 /64, say); ``exempt(address)``
    says whose connections are not capped.
    """

    def __init__(
        self,
        request_seconds: float,
        per_address: int,
        address_of: Callable[[str], str],
        exempt: Callable[[str], bool] = lambda address: False,
    ) -> None:
        self.request_seconds = request_seconds
        self.per_address = per_address
        self.address_of = address_of
        self.exempt = exempt
        self.addresses: dict[asyncio.BaseTransport, str] = {}  # every connection let in, while open
        self.waiting: dict[asyncio.BaseTransport, asyncio.TimerHandle] = {}  # those without a request yet
        self.by_address: dict[str, int] = {}
        self.refused = 0  # connections closed at accept, since the last warning
        self.cut = 0  # connections cut at their deadline, since the last warning
        self._warnings = Pace(60.0)

    def protocol(self, inner: asyncio.Protocol) -> asyncio.Protocol:
        """``inner`` (aiohttp's handler of one connection) behind the entrance."""
        return _Watched(self, inner)

    def arrived(self, transport: asyncio.BaseTransport) -> bool:
        """A connection was accepted: start its deadline, or say ``False`` if its address has too
        many connections waiting already (the caller closes it)."""
        peer = transport.get_extra_info("peername")
        address = self.address_of(str(peer[0])) if isinstance(peer, tuple) and peer else "unknown"
        if not self.exempt(address) and self.by_address.get(address, 0) >= self.per_address:
            self.refused += 1
            self._warn(f"{address} has {self.per_address} connections that have not sent their request yet")
            return False
        self.addresses[transport] = address
        self._wait(transport)
        return True

    def request_read(self, transport: asyncio.BaseTransport) -> None:
        """The connection's request has reached a handler: its deadline is over."""
        deadline = self.waiting.pop(transport, None)
        if deadline is None:
            return
        deadline.cancel()
        address = self.addresses[transport]
        count = self.by_address[address] - 1
        if count:
            self.by_address[address] = count
        else:
            del self.by_address[address]

    def answered(self, transport: asyncio.BaseTransport) -> None:
        """A plain HTTP request was answered; a connection kept alive gets a deadline for its next one."""
        if transport in self.addresses and transport not in self.waiting and not transport.is_closing():
            self._wait(transport)

    def closed(self, transport: asyncio.BaseTransport) -> None:
        self.request_read(transport)
        self.addresses.pop(transport, None)

    def _wait(self, transport: asyncio.BaseTransport) -> None:
        address = self.addresses[transport]
        self.waiting[transport] = asyncio.get_running_loop().call_later(self.request_seconds, self._too_slow, transport)
        self.by_address[address] = self.by_address.get(address, 0) + 1

    def _too_slow(self, transport: asyncio.BaseTransport) -> None:
        self.cut += 1
        self._warn(f"{self.addresses.get(transport, '?')} sent no whole request within {self.request_seconds:g} s")
        self.closed(transport)
        transport.close()

    def _warn(self, latest: str) -> None:
        """One line a minute at most, whatever the number of connections refused or cut."""
        if not self._warnings.happened():
            return
        log.warning(
            "connections refused at accept: %d, cut for not sending their request in time: %d (latest: %s)",
            self.refused,
            self.cut,
            latest,
        )
        self.refused = self.cut = 0


class _Watched(asyncio.Protocol):
    """aiohttp's protocol of one connection, told of it only if the entrance lets it in."""

    def __init__(self, entrance: Entrance, inner: asyncio.Protocol) -> None:
        self.entrance, self.inner = entrance, inner
        self.transport: asyncio.BaseTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        if not self.entrance.arrived(transport):
            transport.close()  # aiohttp never hears of it
            return
        self.transport = transport
        self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received()

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.transport is None:
            return
        self.entrance.closed(self.transport)
        self.inner.connection_lost(exc)


class EntranceSite(web.BaseSite):
    """aiohttp's TCP site, each connection behind an :class:`Entrance`."""

    def __init__(self, runner: web.BaseRunner, host: str, port: int, entrance: Entrance) -> None:
        super().__init__(runner)
        self._host, self._port, self.entrance = host, port, entrance

    @property
    def name(self) -> str:
        host = f"[{self._host}]" if ":" in self._host else self._host
        return f"http://{host}:{self._port}"

    async def start(self) -> None:
        await super().start()
        server = self._runner.server
        assert server is not None
        self._server = await asyncio.get_running_loop().create_server(
            lambda: self.entrance.protocol(server()), self._host, self._port, reuse_address=True
        )


def entrance_middleware(entrance: Entrance) -> Any:
    """Tells ``entrance`` when a request has reached a handler, and when a plain one was answered."""

    @web.middleware
    async def request_read(request: web.Request, handler: Any) -> web.StreamResponse:
        transport = request.transport
        if transport is None:
            return await handler(request)
        entrance.request_read(transport)
        response = await handler(request)
        if not isinstance(response, web.WebSocketResponse):
            entrance.answered(transport)
        return response

    return request_read


class QuietAcceptErrors:
    """The event loop's handler of errors while the relay runs, with one change: ``accept()``
    failing for want of file descriptors (or memory) is said once a minute, not at each try."""

    OUT_OF = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)

    def __init__(self, loop: asyncio.AbstractEventLoop, every: float = 60.0) -> None:
        self.loop = loop
        self.previous = loop.get_exception_handler()
        self.failures = Pace(every)
        loop.set_exception_handler(self)

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        if isinstance(exc, OSError) and exc.errno in self.OUT_OF and "accept" in str(context.get("message", "")):
            failed = self.failures.happened()
            if failed:
                log.error(
                    "cannot accept new connections: %s (%d times since the last report); "
                    "raise the relay's open-file limit or find who holds its connections",
                    exc.strerror or exc,
                    failed,
                )
            return
        if self.previous is not None:
            self.previous(loop, context)
        else:
            loop.default_exception_handler(context)

    def restore(self) -> None:
        if self.loop.get_exception_handler() is self:
            self.loop.set_exception_handler(self.previous)


__all__ = ["Entrance", "EntranceSite", "QuietAcceptErrors", "entrance_middleware"]
