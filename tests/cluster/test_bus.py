"""Messages between nodes over real Redis pub/sub: a client's message reaches the room's owner,
the owner's frames reach that client's node in order, and the bus comes back by itself after
Redis was restarted."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

pytest.importorskip("redis", reason="the redis package is not installed (pip install redis)")

from redis import exceptions as redis_errors  # noqa: E402
from redis.asyncio import Redis  # noqa: E402
from redis_helpers import RedisServer  # noqa: E402

from server.cluster import Bus, RemotePeer, RemoteRoom  # noqa: E402
from server.redis_store import StoreUnavailable  # noqa: E402


class Watcher:
    """A connection of a client node (what RemoteRoom forwards for)."""

    version = 2
    ip = "198.51.100.3"

    def __init__(self) -> None:
        self.closed: tuple[str, str] | None = None

    def send(self, text: str) -> None:
        pass

    def close(self, code: str, message: str) -> None:
        self.closed = (code, message)


class Node:
    """A bus with what it received: forwarded messages (as owner) and deliveries (as a client's node)."""

    def __init__(self, url: str, name: str) -> None:
        self.redis = Redis.from_url(url, socket_timeout=1.0, socket_connect_timeout=1.0)
        self.forwarded: asyncio.Queue[tuple[str, dict[str, Any]]] = asyncio.Queue()
        self.delivered: asyncio.Queue[tuple[str, dict[str, Any]]] = asyncio.Queue()
        self.reconnects = 0
        self.bus = Bus(
            self.redis,
            name,
            on_forward=lambda code, body: self.forwarded.put_nowait((code, body)),
            on_deliver=lambda peer, body: self.delivered.put_nowait((peer, body)),
            on_reconnect=self._reconnected,
        )

    def _reconnected(self) -> None:
        self.reconnects += 1

    async def close(self) -> None:
        await self.bus.stop()
        await self.redis.aclose()


@pytest.fixture
async def nodes(redis_server: RedisServer) -> AsyncIterator[tuple[Node, Node]]:
    a, b = Node(redis_server.url, "a"), Node(redis_server.url, "b")
    await a.bus.start()
    await b.bus.start()
    try:
        yield a, b
    finally:
        await a.close()
        await b.close()


async def next_item(queue: asyncio.Queue[tuple[str, dict[str, Any]]]) -> tuple[str, dict[str, Any]]:
    return await asyncio.wait_for(queue.get(), 5.0)


async def test_forward_to_the_owner_and_frames_back_in_order(nodes: tuple[Node, Node]) -> None:
    owner, other = nodes
    act = {"node": "b", "peer": "7", "version": 2, "msg": {"type": "act", "action": "pass 1", "ply": 9}}
    assert not await other.bus.forward("ABCDEF", act)  # nobody owns the room yet: nobody listened

    await owner.bus.listen_room("ABCDEF")
    assert await other.bus.forward("ABCDEF", act)
    assert await next_item(owner.forwarded) == ("ABCDEF", act)
    # A ping through the inbox is answered by the publish count alone; the owner is not bothered.
    assert await other.bus.forward("ABCDEF", {"node": "b", "ping": True})

    # The owner answers the client of node b through a RemotePeer, in order.
    peer = owner.bus.remote_peer("b", "7", 2)
    assert isinstance(peer, RemotePeer) and owner.bus.remote_peer("b", "7", 2) is peer
    for i in range(300):
        peer.send(f'{{"type":"update","seq":{i}}}')
    peer.close("replaced", "this seat was resumed from another connection")
    for i in range(300):
        assert await next_item(other.delivered) == ("7", {"peer": "7", "text": f'{{"type":"update","seq":{i}}}'})
    assert await next_item(other.delivered) == (
        "7",
        {"peer": "7", "close": ["replaced", "this seat was resumed from another connection"]},
    )
    assert owner.forwarded.empty() and owner.delivered.empty() and other.forwarded.empty()

    await owner.bus.leave_room("ABCDEF")
    assert not await other.bus.forward("ABCDEF", act)
    assert owner.bus.forget_peer("b", "7") is peer


async def test_the_bus_comes_back_after_redis_restarts(nodes: tuple[Node, Node], redis_server: RedisServer) -> None:
    owner, other = nodes
    await owner.bus.listen_room("ABCDEF")
    watching = Watcher()
    RemoteRoom(other.bus, "ABCDEF").spectate(watching)  # a client of b in a room owned by a
    await other.bus.flush()
    assert (await next_item(owner.forwarded))[1]["msg"]["type"] == "spectate" and other.bus.local
    redis_server.kill()
    with pytest.raises(StoreUnavailable, match="database"):
        await other.bus.forward("ABCDEF", {"node": "b", "peer": "1", "msg": {}})
    redis_server.start()

    # Both nodes subscribe again by themselves (their own channel and the rooms they own), and say so.
    async def settled() -> None:
        while not (owner.reconnects and other.reconnects and await other.bus.forward("ABCDEF", {"ping": True})):
            await asyncio.sleep(0.05)

    await asyncio.wait_for(settled(), 10.0)
    # Frames to b's client may have been lost meanwhile: it is asked to resume.
    assert watching.closed is not None and watching.closed[0] == "server_busy" and not other.bus.local
    body = {"node": "b", "peer": "1", "version": 2, "msg": {"type": "chat", "text": "still here?"}}
    assert await other.bus.forward("ABCDEF", body)
    assert await next_item(owner.forwarded) == ("ABCDEF", body)
    owner.bus.remote_peer("b", "1", 2).send("yes")
    assert await next_item(other.delivered) == ("1", {"peer": "1", "text": "yes"})


async def test_a_lost_frame_asks_its_client_to_resume(
    nodes: tuple[Node, Node], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A frame whose publish fails (a pooled connection Redis closed when it restarted) cannot be
    told apart from one delivered or not: its client is asked to resume, even when its node's
    subscription came back before the publish failed (and so will not ask it again)."""
    owner, other = nodes
    real = owner.redis.pipeline
    broken: list[bool] = []

    def once_broken(*args: Any, **kwargs: Any) -> Any:
        pipe = real(*args, **kwargs)
        if not broken:
            broken.append(True)

            async def fail(*_: Any, **__: Any) -> Any:
                raise redis_errors.ConnectionError("Connection closed by server.")

            pipe.execute = fail
        return pipe

    monkeypatch.setattr(owner.redis, "pipeline", once_broken)
    peer = owner.bus.remote_peer("b", "7", 2)
    peer.send('{"type":"update","seq":1}')
    peer.send('{"type":"update","seq":2}')  # in the same lost batch, or after the close
    peer_id, body = await next_item(other.delivered)
    assert broken and peer_id == "7" and body["close"][0] == "server_busy"
