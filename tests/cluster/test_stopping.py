"""A node stops in bounded time and leaves nothing open: its background loops end on the first
cancel even when the cancel comes while they talk to Redis, and once its client is closed no
call opens a new connection."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random

import pytest

redis_sync = pytest.importorskip("redis", reason="the redis package is not installed (pip install redis)")

from redis.asyncio import Redis  # noqa: E402
from redis_helpers import RedisServer  # noqa: E402

from server.cluster import Cluster, Health, LeaseKeeper, cancel_and_wait, every  # noqa: E402
from server.redis_store import StoreUnavailable  # noqa: E402


def clients_of(server: RedisServer) -> list[str]:
    """The addresses of the clients connected to the server, this check's own left out."""
    check = redis_sync.Redis.from_url(server.url)
    try:
        check.client_setname("check")
        return [c["addr"] for c in check.client_list() if c["name"] != "check"]
    finally:
        check.close()


async def test_loops_end_on_one_cancel_even_mid_call(redis_client: Redis) -> None:
    """Python 3.11's wait_for, which redis-py writes through, can lose a cancel that comes as a
    write ends; the loops ask after each call, so one cancel is enough, wherever it lands."""
    rng = random.Random(11)
    keeper = LeaseKeeper(redis_client, "a", ttl=0.004)  # renews every millisecond
    assert await keeper.acquire("ABCDEF") == 1
    loops = [lambda: Health(redis_client, every=0.0).run(), keeper.run]
    for i in range(120):
        task = asyncio.create_task(loops[i % 2]())
        await asyncio.sleep(rng.random() * 0.01)
        task.cancel()
        done, _ = await asyncio.wait([task], timeout=2.0)
        assert done, f"round {i}: the loop went on after it was cancelled"
        assert task.cancelled()


async def test_a_periodic_loop_logs_redis_away_and_goes_on_until_cancelled(caplog: pytest.LogCaptureFixture) -> None:
    """Lease renewal and a node's watch of visited rooms share one loop (``every``): a turn that
    finds Redis away is logged under the caller's logger and the next turn comes all the same."""
    turns: list[int] = []

    async def work() -> None:
        turns.append(len(turns))
        if len(turns) == 1:
            raise StoreUnavailable("Redis went away")

    logger = logging.getLogger("soccerdesk.relay")
    with caplog.at_level(logging.WARNING, logger="soccerdesk.relay"):
        task = asyncio.create_task(every(0.0, work, "cannot check the owners of visited rooms", logger))
        while len(turns) < 3:
            await asyncio.sleep(0)
        task.cancel()
        await asyncio.wait([task], timeout=2.0)
    assert task.cancelled()
    said = [(r.name, r.getMessage()) for r in caplog.records]
    assert said == [("soccerdesk.relay", "cannot check the owners of visited rooms: Redis went away")]


async def test_cancel_and_wait_cancels_again_and_never_hangs() -> None:
    """A task that ignores its first cancel is cancelled again; one that ignores every cancel is
    left after the patience runs out, instead of hanging the caller."""

    async def deaf_once() -> None:
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.sleep(10)
        await asyncio.sleep(10)

    heard = asyncio.Event()  # the one way to stop the second task

    async def deaf() -> None:
        while not heard.is_set():
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.sleep(10)

    once = asyncio.create_task(deaf_once())
    await asyncio.sleep(0)
    await asyncio.wait_for(cancel_and_wait([once]), 2.0)
    assert once.cancelled()

    never = asyncio.create_task(deaf())
    await asyncio.sleep(0)
    started = asyncio.get_running_loop().time()
    await asyncio.wait_for(cancel_and_wait([never], patience=0.5), 2.0)
    assert not never.done() and asyncio.get_running_loop().time() - started < 1.5
    heard.set()
    never.cancel()
    await asyncio.wait_for(never, 2.0)


async def test_a_stopped_node_leaves_no_connection(redis_server: RedisServer) -> None:
    """Stopping with a message count still to go out and a write under way: afterwards Redis has
    no client of the node, even after the moment the count would have been sent."""
    node = Cluster(Redis.from_url(redis_server.url, socket_timeout=1.0, socket_connect_timeout=1.0), ttl=1.0)
    await node.start()
    assert await node.claim_new("ABCDEF")
    node.journal.save_room("ABCDEF", {"code": "ABCDEF", "match": 1})
    assert node.limits.message_now("203.0.113.7")
    await asyncio.wait_for(node.stop(), 15.0)
    await asyncio.sleep(0.2)
    assert clients_of(redis_server) == []
    check = redis_sync.Redis.from_url(redis_server.url)
    try:
        assert check.exists("soccerdesk:room:ABCDEF") == 1  # the write under way was finished first
        assert check.exists("soccerdesk:lease:ABCDEF") == 0  # and the room given up
    finally:
        check.close()
