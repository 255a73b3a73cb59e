"""Redis killed (SIGKILL) in the middle of a match and started again from its append-only file:
nothing acknowledged is lost, the node refuses new rooms meanwhile, and recovers by itself."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("redis", reason="the redis package is not installed (pip install redis)")

from redis.asyncio import Redis  # noqa: E402
from redis_helpers import RedisServer  # noqa: E402

from server.cluster import Cluster  # noqa: E402
from server.redis_store import StoreUnavailable  # noqa: E402

PLIES = 300


async def test_nothing_acknowledged_is_lost(redis_server: RedisServer) -> None:
    node = Cluster(Redis.from_url(redis_server.url, socket_timeout=1.0, socket_connect_timeout=1.0), ttl=1.0)
    await node.start()
    try:
        assert await node.claim_new("ABCDEF")
        await node.store.save_room("ABCDEF", {"code": "ABCDEF", "match": 1, "seats": [None, None]})
        acknowledged: list[list[object]] = []
        refused = 0

        async def play() -> None:
            """Append one action per ply, as a room would, retrying a ply until it is stored."""
            nonlocal refused
            while len(acknowledged) < PLIES:
                ply = len(acknowledged)
                entry = (ply % 2, f"move {ply}")
                try:
                    await node.store.append_actions("ABCDEF", 1, ply, [entry])
                except StoreUnavailable:
                    refused += 1
                    await asyncio.sleep(0.02)
                    continue
                acknowledged.append(list(entry))

        player = asyncio.create_task(play())
        while len(acknowledged) < 100:
            await asyncio.sleep(0.001)
        redis_server.kill()
        before_kill = list(acknowledged)

        # Redis is away: the node says so and opens no room.
        assert not await node.health.probe()
        with pytest.raises(StoreUnavailable) as refusal:
            await node.claim_new("GHJKMN")
        assert refusal.value.code == "server_busy" and "database" in refusal.value.message
        await asyncio.sleep(0.3)
        assert len(acknowledged) - len(before_kill) <= 1  # at most the append in flight at the kill

        redis_server.start()
        await asyncio.wait_for(player, 30.0)
        assert await node.health.probe()
        assert await node.claim_new("GHJKMN")  # new rooms again

        loaded = await node.store.load_room("ABCDEF")
        assert loaded is not None
        assert loaded[1][: len(before_kill)] == before_kill  # every action acknowledged before the kill
        assert loaded[1] == acknowledged == [[ply % 2, f"move {ply}"] for ply in range(PLIES)]
        assert refused >= 1  # the outage was met, not missed
        # The lease may have lapsed while Redis was away; nobody took the room, so it is still ours.
        await node.leases.renew()
        assert await node.leases.owner("ABCDEF") == (node.node, 1)
    finally:
        await node.stop()
