"""Connections that never finish their HTTP request (slowloris) cannot hold the relay's sockets.

Relay audit 2, finding 2: half a request and then silence was held for ever and did not count
towards the limit per address, so one address could use up the relay's file descriptors. Now a
connection has ``request_seconds`` to send its request, and an address may have at most
``ip_connections`` such connections waiting at once (protocol.md, "Limits").
"""

from __future__ import annotations

import asyncio
import errno
import logging
import socket
import time
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from relay_helpers import relay_settings

from server.entrance import QuietAcceptErrors
from server.relay import RunningRelay, start_relay
from soccerdesk.net.protocol import PROTOCOL_VERSION

HALF_A_REQUEST = b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"


@pytest.fixture
async def strict_relay(db_path: Path) -> AsyncIterator[RunningRelay]:
    relay = await start_relay(relay_settings(db_path, request_seconds=1.0, ip_connections=4))
    try:
        yield relay
    finally:
        await relay.stop()


async def half_open(relay: RunningRelay, source: str = "127.0.0.1") -> socket.socket:
    """A connection from ``source`` that sends half an upgrade request and then nothing."""
    sock = socket.socket()
    sock.bind((source, 0))
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", relay.port))
    await asyncio.get_running_loop().sock_sendall(sock, HALF_A_REQUEST)
    return sock


async def closed_within(sock: socket.socket, seconds: float) -> float | None:
    """Seconds until the relay closes ``sock`` (``None``: still open after ``seconds``)."""
    start = time.monotonic()
    try:
        async with asyncio.timeout(seconds):
            while await asyncio.get_running_loop().sock_recv(sock, 1024):
                pass
    except TimeoutError:
        return None
    except ConnectionError:
        pass
    return time.monotonic() - start


async def welcome(relay: RunningRelay, source: str = "127.0.0.1") -> str:
    """Connect from ``source`` and say hello; the type of the relay's answer."""
    connector = aiohttp.TCPConnector(local_addr=(source, 0))
    async with aiohttp.ClientSession(connector=connector) as session, session.ws_connect(relay.url) as ws:
        await ws.send_json({"type": "hello", "version": PROTOCOL_VERSION})
        answer = await ws.receive_json(timeout=5)
        return str(answer["type"])


async def test_half_a_request_is_cut_at_the_deadline_and_honest_players_still_get_in(
    strict_relay: RunningRelay,
) -> None:
    sock = await half_open(strict_relay)
    try:
        assert await welcome(strict_relay) == "welcome"  # while it waits
        took = await closed_within(sock, 5.0)
        assert took is not None and took < 2.0, took
    finally:
        sock.close()


async def test_a_connection_kept_alive_after_an_answer_has_the_same_deadline_for_its_next_request(
    strict_relay: RunningRelay,
) -> None:
    loop = asyncio.get_running_loop()
    sock = socket.socket()
    sock.setblocking(False)
    try:
        await loop.sock_connect(sock, ("127.0.0.1", strict_relay.port))
        await loop.sock_sendall(sock, b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert (await loop.sock_recv(sock, 4096)).startswith(b"HTTP/1.1 200")
        await loop.sock_sendall(sock, b"GET /health HTTP/1.1\r\n")  # and then nothing
        took = await closed_within(sock, 5.0)
        assert took is not None and took < 2.0, took
    finally:
        sock.close()


async def test_connections_waiting_for_their_request_count_towards_their_address(strict_relay: RunningRelay) -> None:
    waiting = [await half_open(strict_relay) for _ in range(4)]  # as many as an address may have
    try:
        extra = await half_open(strict_relay)
        took = await closed_within(extra, 0.5)  # closed as soon as it is accepted
        extra.close()
        assert took is not None
        assert await asyncio.gather(*(closed_within(s, 0.1) for s in waiting)) == [None] * 4  # still open
        assert await welcome(strict_relay, "127.0.0.2") == "welcome"  # another address is not held up
        waiting.pop().close()
        await asyncio.sleep(0.1)
        assert await welcome(strict_relay) == "welcome"  # a place of the address is free again
    finally:
        for sock in waiting:
            sock.close()


async def test_running_out_of_file_descriptors_is_logged_once_a_minute_not_at_every_accept(
    caplog: pytest.LogCaptureFixture,
) -> None:
    loop = asyncio.get_running_loop()
    quiet = QuietAcceptErrors(loop)
    try:
        with caplog.at_level(logging.ERROR):
            for _ in range(500):  # what asyncio reports while accept() fails with EMFILE
                loop.call_exception_handler(
                    {
                        "message": "socket.accept() out of system resource",
                        "exception": OSError(errno.EMFILE, "Too many open files"),
                    }
                )
            loop.call_exception_handler({"message": "something else went wrong"})
    finally:
        quiet.restore()
    said = [r.getMessage() for r in caplog.records]
    assert len([line for line in said if "cannot accept new connections" in line]) == 1, said
    assert any("something else went wrong" in line for line in said)  # other errors as before
    assert loop.get_exception_handler() is None
