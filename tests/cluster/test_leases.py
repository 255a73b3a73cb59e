"""Owner leases and fencing against a real redis-server: only the lease holder appends, a node
that stopped renewing (or was killed) loses its rooms to another node, which replays the
record from Redis, and the old owner can never write again."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("redis", reason="the redis package is not installed (pip install redis)")

from redis.asyncio import Redis  # noqa: E402
from redis_helpers import RedisServer  # noqa: E402

from server.cluster import Cluster, LeaseKeeper, RoomMissing, RoomMoving  # noqa: E402
from server.redis_store import NotOwner, RedisRoomStore  # noqa: E402

REPO = Path(__file__).resolve().parents[2]


def doc(code: str) -> dict[str, Any]:
    return {"code": code, "game": "soccer-go", "match": 1, "seats": [None, None], "chat": []}


def node(client: Redis, name: str, ttl: float = 0.5) -> tuple[LeaseKeeper, RedisRoomStore]:
    keeper = LeaseKeeper(client, name, ttl=ttl)
    return keeper, RedisRoomStore(client, fence_of=keeper.fence)


async def test_only_the_lease_holder_writes(redis_client: Redis) -> None:
    keeper_a, store_a = node(redis_client, "a")
    keeper_b, store_b = node(redis_client, "b")
    with pytest.raises(NotOwner, match="holds no lease"):
        await store_a.save_room("ABCDEF", doc("ABCDEF"))
    assert await keeper_a.acquire("ABCDEF") == 1
    assert await keeper_a.acquire("ABCDEF") == 1  # already held: the same fence
    assert await keeper_b.acquire("ABCDEF") is None
    assert await keeper_b.owner("ABCDEF") == ("a", 1)
    await store_a.save_room("ABCDEF", doc("ABCDEF"))
    await store_a.append_actions("ABCDEF", 1, 0, [(-1, "toss 0")])
    with pytest.raises(NotOwner):
        await store_b.append_actions("ABCDEF", 1, 1, [(0, "pass 1")])
    with pytest.raises(NotOwner):
        await store_b.save_room("ABCDEF", doc("ABCDEF") | {"chat": ["not mine"]})
    loaded = await store_a.load_room("ABCDEF")
    assert loaded == (doc("ABCDEF"), [[-1, "toss 0"]])

    # Released: another node takes the room at once, with a higher fence.
    await keeper_a.release("ABCDEF")
    assert await keeper_b.acquire("ABCDEF") == 2
    await store_b.append_actions("ABCDEF", 1, 1, [(0, "pass 1")])
    # A stale lease record on node a (as if it still believed it owned the room) is refused.
    keeper_a.held["ABCDEF"] = 1
    with pytest.raises(NotOwner, match="owned by another node"):
        await store_a.append_actions("ABCDEF", 1, 2, [(1, "pass 2")])
    assert await redis_client.llen("soccerdesk:record:ABCDEF:1") == 2


async def test_takeover_after_the_owner_stops_renewing(redis_client: Redis) -> None:
    lost: list[str] = []
    # Node b starts first, so that a's lease (1.5 s) surely still runs when b first asks, even
    # on a slow machine (tracemalloc on and other jobs running made 0.4 s too short).
    cluster_b = Cluster(Redis.from_url(_url(redis_client)), node="b", ttl=0.4)
    await cluster_b.start()
    keeper_a, store_a = node(redis_client, "a", ttl=1.5)
    keeper_a.on_lost = lost.append
    try:
        assert await keeper_a.acquire("ABCDEF") == 1
        await store_a.save_room("ABCDEF", doc("ABCDEF"))
        await store_a.append_actions("ABCDEF", 1, 0, [(-1, "toss 0"), (0, "pass 1")])
        # Node a freezes (a long pause, a dead process): it stops renewing, believing it owns the room.
        assert await cluster_b.claim("ABCDEF") is None  # the lease still runs
        # wait_claim gives up (None) unless the lease lapses within its timeout.
        loaded = await cluster_b.wait_claim("ABCDEF", timeout=5.0)
        assert loaded == (doc("ABCDEF"), [[-1, "toss 0"], [0, "pass 1"]])  # rebuilt from the record
        assert cluster_b.leases.fence("ABCDEF") == 2
        await cluster_b.store.append_actions("ABCDEF", 1, 2, [(1, "pass 2")])

        # Node a wakes up: its writes are refused, and its next renewal tells it the room is gone.
        with pytest.raises(NotOwner):
            await store_a.append_actions("ABCDEF", 1, 2, [(1, "pass 9")])
        with pytest.raises(NotOwner):
            await store_a.save_room("ABCDEF", doc("ABCDEF") | {"chat": ["stale"]})
        assert await keeper_a.renew() == ["ABCDEF"] and lost == ["ABCDEF"]
        assert keeper_a.fence("ABCDEF") is None
        assert await cluster_b.store.load_room("ABCDEF") == (
            doc("ABCDEF"),
            [[-1, "toss 0"], [0, "pass 1"], [1, "pass 2"]],
        )
    finally:
        await cluster_b.stop()


async def test_a_renewed_lease_is_kept(redis_client: Redis) -> None:
    keeper_a, _ = node(redis_client, "a", ttl=0.5)
    keeper_b, _ = node(redis_client, "b", ttl=0.5)
    assert await keeper_a.acquire("ABCDEF") == 1
    renewing = asyncio.create_task(keeper_a.run())
    try:
        for _ in range(8):  # 1.2 s, more than twice the lease's life
            await asyncio.sleep(0.15)
            assert await keeper_b.acquire("ABCDEF") is None
    finally:
        renewing.cancel()
    assert await keeper_a.renew() == []
    assert await keeper_b.owner("ABCDEF") == ("a", 1)


async def test_a_lapsed_lease_nobody_took_is_renewed(redis_client: Redis) -> None:
    """Redis away longer than the lease (or a pause): the owner keeps the room if nobody took it."""
    keeper_a, store_a = node(redis_client, "a", ttl=0.2)
    assert await keeper_a.acquire("ABCDEF") == 1
    await asyncio.sleep(0.3)
    assert await keeper_a.owner("ABCDEF") is None
    await store_a.save_room("ABCDEF", doc("ABCDEF"))  # the fence still holds: nobody took over
    assert await keeper_a.renew() == []
    assert await keeper_a.owner("ABCDEF") == ("a", 1)


async def test_a_killed_node_loses_its_rooms_within_the_lease(redis_client: Redis, redis_server: RedisServer) -> None:
    """A real node process holding a room, killed with SIGKILL: another node takes the room over."""
    script = (
        "import asyncio, sys\n"
        "from redis.asyncio import Redis\n"
        "from server.cluster import Cluster\n"
        "async def main():\n"
        "    cluster = Cluster(Redis.from_url(sys.argv[1]), node='doomed', ttl=1.0)\n"
        "    await cluster.start()\n"
        "    assert await cluster.claim_new('ABCDEF')\n"
        "    await cluster.store.save_room('ABCDEF', {'code': 'ABCDEF', 'match': 1})\n"
        "    await cluster.store.append_actions('ABCDEF', 1, 0, [(-1, 'toss 0'), (0, 'pass 1')])\n"
        "    print('owned', flush=True)\n"
        "    await asyncio.sleep(60)\n"
        "asyncio.run(main())\n"
    )
    process = subprocess.Popen(
        [sys.executable, "-c", script, redis_server.url], cwd=REPO, stdout=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout is not None
        assert process.stdout.readline().strip() == "owned"
        survivor = Cluster(Redis.from_url(redis_server.url), node="survivor", ttl=1.0)
        await survivor.start()
        try:
            await asyncio.sleep(1.5)  # the living node keeps renewing its lease
            assert await survivor.claim("ABCDEF") is None
            assert await survivor.leases.owner("ABCDEF") == ("doomed", 1)
            process.kill()
            process.wait(10)
            # A few seconds at most (the lease lasts 1 s); wait_claim gives up with None after 5 s.
            loaded = await survivor.wait_claim("ABCDEF", timeout=5.0)
            assert loaded == ({"code": "ABCDEF", "match": 1}, [[-1, "toss 0"], [0, "pass 1"]])
            assert await survivor.leases.owner("ABCDEF") == ("survivor", 2)
        finally:
            await survivor.stop()
    finally:
        process.kill()
        process.wait(10)
        if process.stdout is not None:
            process.stdout.close()


def _url(client: Redis) -> str:
    kwargs = client.connection_pool.connection_kwargs
    return f"redis://{kwargs['host']}:{kwargs['port']}/{kwargs.get('db', 0)}"


async def test_a_node_stopping_gives_its_rooms_up_at_once(redis_server: RedisServer) -> None:
    """SIGTERM (Cluster.stop): the rooms are free for another node without waiting for the lease."""
    leaving = Cluster(Redis.from_url(redis_server.url), node="leaving", ttl=30.0)
    staying = Cluster(Redis.from_url(redis_server.url), node="staying", ttl=30.0)
    await leaving.start()
    await staying.start()
    try:
        assert await leaving.claim_new("ABCDEF")
        await leaving.store.save_room("ABCDEF", doc("ABCDEF"))
        assert await staying.claim("ABCDEF") is None
        await leaving.stop()
        assert await staying.claim("ABCDEF") == (doc("ABCDEF"), [])
        assert await staying.leases.owner("ABCDEF") == ("staying", 2)
    finally:
        await staying.stop()


async def test_wait_claim_tells_a_missing_a_live_and_a_silent_owner(redis_server: RedisServer) -> None:
    a = Cluster(Redis.from_url(redis_server.url), node="a", ttl=0.5)
    b = Cluster(Redis.from_url(redis_server.url), node="b", ttl=0.5)
    await a.start()
    await b.start()
    try:
        with pytest.raises(RoomMissing):
            await b.wait_claim("NOROOM")
        assert await a.claim_new("ABCDEF")
        await a.store.save_room("ABCDEF", doc("ABCDEF"))
        assert await b.wait_claim("ABCDEF") is None  # a listens on the room's inbox: forward to it
        # a keeps its lease but no longer listens (its subscription broke): b waits, then says so.
        await a.bus.leave_room("ABCDEF")
        with pytest.raises(RoomMoving) as moving:
            await b.wait_claim("ABCDEF", timeout=0.3)
        assert moving.value.code == "server_busy" and "try again" in moving.value.message
    finally:
        await a.stop()
        await b.stop()


async def test_a_node_told_of_a_lost_room_stops_listening_to_it(redis_server: RedisServer) -> None:
    a = Cluster(Redis.from_url(redis_server.url), node="a", ttl=30.0)
    b = Cluster(Redis.from_url(redis_server.url), node="b", ttl=30.0)
    lost: list[str] = []
    a.on_lost = lost.append
    await a.start()
    await b.start()
    try:
        assert await a.claim_new("ABCDEF")
        await a.store.save_room("ABCDEF", doc("ABCDEF"))
        await a.redis.delete("soccerdesk:lease:ABCDEF")  # as if a's lease had lapsed during a pause
        assert await b.claim("ABCDEF") == (doc("ABCDEF"), [])
        assert await a.leases.renew() == ["ABCDEF"] and lost == ["ABCDEF"]
        for _ in range(100):  # a unsubscribes in the background
            if await b.bus.forward("ABCDEF", {"ping": True}) == 1 and "ABCDEF" not in a.bus.rooms:
                break
            await asyncio.sleep(0.02)
        assert await a.redis.pubsub_numsub("soccerdesk:room:ABCDEF:in") == [(b"soccerdesk:room:ABCDEF:in", 1)]
    finally:
        await a.stop()
        await b.stop()


async def test_a_room_is_deleted_by_its_owner_or_once_nobody_owns_it(redis_client: Redis) -> None:
    keeper_a, store_a = node(redis_client, "a", ttl=30.0)
    keeper_b, store_b = node(redis_client, "b", ttl=30.0)
    sweeper = RedisRoomStore(redis_client, fence_of=lambda code: None)  # a node owning nothing
    for code in ("ABCDEF", "GHJKMN"):
        assert await keeper_a.acquire(code)
        await store_a.save_room(code, doc(code))
        await store_a.append_actions(code, 1, 0, [(-1, "toss 0")])
    with pytest.raises(NotOwner):  # a lives and owns the room: nobody else deletes it
        await sweeper.delete_room("ABCDEF")
    with pytest.raises(NotOwner):
        await store_b.delete_room("ABCDEF")
    await store_a.delete_room("ABCDEF")  # the owner may (a room closed by its players)
    assert not await store_b.has_room("ABCDEF")
    await store_a.delete_room("ABCDEF")  # gone already: no error
    with pytest.raises(NotOwner, match="deleted"):  # its fence is retired: no write brings it back
        await store_a.append_actions("ABCDEF", 1, 1, [(0, "pass 1")])
    assert await keeper_a.renew() == ["ABCDEF"]  # nor any renewal
    await keeper_a.release("GHJKMN")
    await sweeper.delete_room("GHJKMN")  # nobody owns it (a stale room): anyone may
    assert await store_b.room_count() == 0
    assert not await redis_client.exists("soccerdesk:record:GHJKMN:1", "soccerdesk:record:ABCDEF:1")
    # The fences outlive the rooms (a day), so a room made again under a code starts higher.
    assert await keeper_b.acquire("ABCDEF") == 2
