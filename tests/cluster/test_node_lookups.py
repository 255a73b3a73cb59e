"""Two relay nodes in this process on a real ``redis-server``: what a create and a resume ask of
a node's hall and of the cluster's limits (each limit a look-up in Redis), counted on each node,
through the room's owner and through another node."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import aiohttp
import pytest

pytest.importorskip("redis", reason="the redis package is not installed (pip install redis)")

from redis_helpers import RedisServer  # noqa: E402

from server.guessing import tokens_key  # noqa: E402
from server.relay import HALL, SHARED_LIMITS, RelaySettings, RunningRelay, start_relay  # noqa: E402
from soccerdesk.net.protocol import PROTOCOL_VERSION  # noqa: E402
from soccerdesk.rules import GAMES  # noqa: E402
from tests.server.relay_helpers import calls_of  # noqa: E402

GAME = "soccer-go" if "soccer-go" in GAMES else next(iter(GAMES))
IP = "127.0.0.1"
Connect = Callable[[RunningRelay], Awaitable[aiohttp.ClientWebSocketResponse]]


@pytest.fixture
async def nodes(redis_server: RedisServer) -> AsyncIterator[list[RunningRelay]]:
    made: list[RunningRelay] = []
    try:
        for name in ("a", "b"):
            settings = RelaySettings(port=0, redis=redis_server.url, node=name, lease_seconds=1.0)
            made.append(await start_relay(settings))
        yield made
    finally:
        for node in made:
            await node.stop()


async def ask(ws: aiohttp.ClientWebSocketResponse, msg: dict[str, Any]) -> dict[str, Any]:
    """The answer to ``msg``: ``welcome``, ``joined`` or ``error``."""
    await ws.send_json(msg)
    while True:
        frame = await ws.receive(timeout=10)
        assert frame.type == aiohttp.WSMsgType.TEXT, f"the node hung up: {frame}"
        answer: dict[str, Any] = json.loads(frame.data)
        if answer["type"] in ("welcome", "joined", "error"):
            return answer


@pytest.fixture
async def connect() -> AsyncIterator[Connect]:
    """A new connection to a node, greeted (all closed at the end)."""
    async with aiohttp.ClientSession() as session:
        sockets: list[aiohttp.ClientWebSocketResponse] = []

        async def greeted(node: RunningRelay) -> aiohttp.ClientWebSocketResponse:
            sockets.append(ws := await session.ws_connect(node.url))
            assert (await ask(ws, {"type": "hello", "version": PROTOCOL_VERSION}))["type"] == "welcome"
            return ws

        yield greeted
        for ws in sockets:
            await ws.close()


async def test_only_a_wrong_resume_asks_the_limits(
    nodes: list[RunningRelay], connect: Connect, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A resume with the right token, on the owner or through another node, asks neither node's
    limits; a wrong one is asked about once, by the owner, which answers it."""
    a, b = nodes
    created = await ask(await connect(a), {"type": "create", "game": GAME, "seat": 0})
    code, token = created["room"], created["token"]
    on_a = calls_of(a.app[SHARED_LIMITS], "may_guess", monkeypatch)
    on_b = calls_of(b.app[SHARED_LIMITS], "may_guess", monkeypatch)
    for node in (b, a):  # through another node, then on the owner
        back = await ask(await connect(node), {"type": "resume", "room": code, "token": token})
        assert back["type"] == "joined", back
    assert on_a == [] and on_b == []
    wrong = await ask(await connect(b), {"type": "resume", "room": code, "token": "x" * 24})
    assert wrong["code"] == "bad_token"
    assert on_a == [(IP,), (tokens_key(IP, code),)] and on_b == []


async def test_a_create_checks_its_game_and_room_once(
    nodes: list[RunningRelay], connect: Connect, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A node checks a create's game, options and room for it before the address's room budget is
    spent, and makes the room from that one check."""
    a, _ = nodes
    prepared = calls_of(a.app[HALL], "prepare", monkeypatch)
    created = await ask(await connect(a), {"type": "create", "game": GAME, "options": {}, "seat": 0})
    assert created["type"] == "joined" and prepared == [(GAME, {})]
    refused = await ask(await connect(a), {"type": "create", "game": GAME, "options": {"no-such-option": 1}})
    assert refused["code"] == "bad_game" and len(prepared) == 2
