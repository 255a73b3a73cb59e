"""A host's close on a cluster node whose Redis refuses the write (no replica answers:
``NOREPLICAS``): two relay nodes in this process on a real ``redis-server``."""

from __future__ import annotations

import asyncio
import logging

import aiohttp
import pytest

pytest.importorskip("redis", reason="the redis package is not installed (pip install redis)")

from redis.asyncio import Redis  # noqa: E402
from redis_helpers import RedisServer, until  # noqa: E402
from test_node_lookups import ask  # noqa: E402

from server.redis_store import RedisRoomStore  # noqa: E402
from server.relay import HALL, RelaySettings, start_relay  # noqa: E402
from soccerdesk.net.protocol import PROTOCOL_VERSION  # noqa: E402
from soccerdesk.rules import GAMES  # noqa: E402

GAME = "soccer-go" if "soccer-go" in GAMES else next(iter(GAMES))


async def test_a_close_redis_refused_is_kept_its_delete_tried_at_each_sweep_and_the_room_is_gone_through_every_node(
    redis_server: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    """docs/protocol.md, Leaving; server/README.md: the owner keeps a close Redis refused (and the
    room's lease), so a join through another node is told the room is gone; each sweep tries the
    delete again, and once Redis takes it the room is deleted. The log says so once when Redis
    refuses and once when the room goes, not at each sweep."""
    a = await start_relay(RelaySettings(port=0, redis=redis_server.url, node="a", lease_seconds=1.0, sweep_every=0.05))
    b = await start_relay(RelaySettings(port=0, redis=redis_server.url, node="b", lease_seconds=1.0))
    redis = Redis.from_url(redis_server.url)
    store = RedisRoomStore.from_url(redis_server.url)
    try:
        async with aiohttp.ClientSession() as session:
            sockets = []
            for node in (a, b):
                sockets.append(ws := await session.ws_connect(node.url))
                assert (await ask(ws, {"type": "hello", "version": PROTOCOL_VERSION}))["type"] == "welcome"
            host, friend = sockets
            code = (await ask(host, {"type": "create", "game": GAME, "seat": 0}))["room"]
            with caplog.at_level(logging.INFO, logger="soccerdesk.relay"):
                await redis.config_set("min-replicas-to-write", 1)  # every write is refused
                await host.send_json({"type": "leave"})
                await host.close()  # as the app does

                await until(lambda: any("could not be deleted" in r.getMessage() for r in caplog.records))
                await asyncio.sleep(0.3)  # some sweeps, each trying again
                await redis.config_set("min-replicas-to-write", 0)

                async def deleted() -> bool:
                    return code not in a.app[HALL].rooms and not await store.has_room(code)

                await until(deleted, what="the room deleted")
            answer = await ask(friend, {"type": "join", "room": code})
            assert answer["code"] == "no_room", answer
            said = [r.getMessage() for r in caplog.records if code in r.getMessage()]
            assert len(said) == 2 and said[1] == f"room {code}, closed by its host, is deleted", said
            assert said[0].startswith(f"room {code}, closed by its host, could not be deleted (NOREPLICAS"), said
    finally:
        await redis.config_set("min-replicas-to-write", 0)
        await redis.aclose()
        await store.close()
        for node in (a, b):
            await node.stop()
