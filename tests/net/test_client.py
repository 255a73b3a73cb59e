"""The client against servers that are not (or no longer) a working relay."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from aiohttp import web

from soccerdesk.net.client import RelayClient, RelayError


@pytest.fixture
async def mute_server() -> AsyncIterator[str]:
    """A WebSocket server on 127.0.0.1 that accepts and then never answers."""

    async def handler(request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        async for _ in ws:
            pass
        return ws

    app = web.Application()
    app.router.add_get("/ws", handler)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        yield f"ws://127.0.0.1:{runner.addresses[0][1]}/ws"
    finally:
        await runner.cleanup()


async def test_a_server_that_never_answers_is_reported_not_waited_for(mute_server: str) -> None:
    client = RelayClient(mute_server, request_timeout=0.3)
    try:
        with pytest.raises(RelayError) as caught:
            await client.connect()
        assert caught.value.code == "timeout" and "did not answer hello" in caught.value.message
    finally:
        await client.close()


async def test_nothing_listening_is_reported_as_unreachable() -> None:
    client = RelayClient("ws://127.0.0.1:9/ws")
    try:
        with pytest.raises(RelayError) as caught:
            await client.connect()
        assert caught.value.code == "unreachable"
    finally:
        await client.close()


async def test_acting_while_offline_is_refused_in_words() -> None:
    client = RelayClient("ws://127.0.0.1:9/ws")
    with pytest.raises(RelayError) as caught:
        await client.act("pass 1")
    assert caught.value.code == "offline"


async def test_acting_on_a_connection_that_is_closing_is_refused_in_words() -> None:
    """The relay went away and the socket is closing, but the client has not read the end yet:
    an action then is refused as offline (the screen says so, and the player acts again once
    resumed), not raised as a connection error that nobody handles."""
    from server.relay import RelaySettings, start_relay

    relay = await start_relay(RelaySettings(host="127.0.0.1", port=0, db=":memory:"))
    client = RelayClient(relay.url, reconnect=False)
    try:
        await client.connect()
        ws = client._ws
        assert ws is not None
        ws._writer.transport.close()  # how a dying relay's end looks from here, before it is read
        assert not ws.closed
        with pytest.raises(RelayError) as caught:
            await client.act("pass 1")
        assert caught.value.code == "offline"
    finally:
        await client.close()
        await relay.stop()
