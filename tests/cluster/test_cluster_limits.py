"""Limits counted in Redis hold across nodes; while Redis is away each node counts alone."""

from __future__ import annotations

import asyncio
import logging

import pytest

pytest.importorskip("redis", reason="the redis package is not installed (pip install redis)")

from redis.asyncio import Redis  # noqa: E402
from redis_helpers import RedisServer  # noqa: E402

from server.cluster import ClusterLimits, Limit  # noqa: E402


def two_nodes(url: str, **limits: float) -> tuple[ClusterLimits, ClusterLimits]:
    """The limits of two nodes, each with its own connection to Redis."""
    return (
        ClusterLimits(Redis.from_url(url, socket_timeout=1.0, socket_connect_timeout=1.0), **limits),
        ClusterLimits(Redis.from_url(url, socket_timeout=1.0, socket_connect_timeout=1.0), **limits),
    )


async def close(*nodes: ClusterLimits) -> None:
    """As a node stops: the background count first, then the client (and its pool)."""
    for limits in nodes:
        await limits.stop()
        await limits.redis.aclose()


async def test_room_creations_are_counted_across_nodes(redis_server: RedisServer) -> None:
    a, b = two_nodes(redis_server.url, rooms_per_minute=5)
    try:
        answers = [await (a if i % 2 else b).may_create("203.0.113.7") for i in range(5)]
        assert answers == [True] * 5
        assert not await a.may_create("203.0.113.7")
        assert not await b.may_create("203.0.113.7")
        assert await b.may_create("198.51.100.1")  # another address has its own count
    finally:
        await close(a, b)


async def test_spectates_and_resumes_are_counted_across_nodes(redis_server: RedisServer) -> None:
    """Each sends a whole snapshot: an address's entries per minute hold across the nodes together."""
    a, b = two_nodes(redis_server.url, entries_per_minute=4)
    try:
        assert [await (a if i % 2 else b).may_enter("203.0.113.7") for i in range(4)] == [True] * 4
        assert not await a.may_enter("203.0.113.7") and not await b.may_enter("203.0.113.7")
        assert await a.may_enter("198.51.100.1")
    finally:
        await close(a, b)


async def test_wrong_guesses_are_counted_across_nodes(redis_server: RedisServer) -> None:
    a, b = two_nodes(redis_server.url, guesses_per_minute=3)
    try:
        for node in (a, b, a):
            assert await node.may_guess("203.0.113.7")
            await node.wrong_guess("203.0.113.7")
        assert not await a.may_guess("203.0.113.7")
        assert not await b.may_guess("203.0.113.7")
        # Asking does not count: the count stays at the limit.
        assert await a.redis.hget("soccerdesk:limit:guess:203.0.113.7", "c") == b"3"
    finally:
        await close(a, b)


async def test_message_rate_slides_across_nodes(redis_server: RedisServer) -> None:
    a, b = two_nodes(redis_server.url, message_rate=10)
    try:
        sent = await asyncio.gather(*((a if i % 2 else b).message("203.0.113.7") for i in range(14)))
        assert sent.count(True) == 10 and sent.count(False) == 4
        await asyncio.sleep(2.1)  # two windows later nothing of the burst is remembered
        assert await a.message("203.0.113.7") and await b.message("203.0.113.7")
    finally:
        await close(a, b)


async def test_bad_mode_is_refused(redis_client: Redis) -> None:
    limits = ClusterLimits(redis_client)
    with pytest.raises(ValueError, match="take, peek or add"):
        await limits.event(Limit("msg", 1, 1.0), "x", "spend")


async def test_limits_count_on_the_node_while_redis_is_away(
    redis_server: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    server = redis_server
    a, b = two_nodes(server.url, rooms_per_minute=3)
    try:
        assert await a.may_create("203.0.113.7")
        server.kill()
        with caplog.at_level(logging.WARNING, logger="soccerdesk.cluster"):
            # Each node now counts alone, with the same limit: three each, then refused.
            assert [await a.may_create("203.0.113.7") for _ in range(4)] == [True, True, True, False]
            assert [await b.may_create("203.0.113.7") for _ in range(4)] == [True, True, True, False]
        assert sum("counted on this node only" in r.getMessage() for r in caplog.records) == 2  # once per node
        server.start()
        # Back in Redis (the AOF kept the one creation counted before): the shared count resumes.
        assert [await a.may_create("203.0.113.7") for _ in range(3)] == [True, True, False]
        assert not await b.may_create("203.0.113.7")
    finally:
        await close(a, b)


async def test_messages_counted_in_batches_stop_a_flood_across_nodes(redis_server: RedisServer) -> None:
    """message_now answers at once and counts in Redis a turn later: an address over the limit
    on two nodes together is refused on both within one round trip."""
    a, b = two_nodes(redis_server.url, message_rate=10)
    try:
        first = [a.message_now("203.0.113.7") for _ in range(6)] + [b.message_now("203.0.113.7") for _ in range(6)]
        assert first == [True] * 12  # nothing known yet: let through, counted in the background
        for _ in range(50):
            await asyncio.sleep(0.02)
            if not a.message_now("203.0.113.7") and not b.message_now("203.0.113.7"):
                break
        else:
            raise AssertionError("the flood was not stopped")
        assert a.message_now("198.51.100.1")  # another address is not affected
        count = await a.redis.hget("soccerdesk:limit:msg:203.0.113.7", "c")
        assert count is not None and int(count) <= 10  # refused batches are not counted
    finally:
        await close(a, b)


async def test_a_stopped_node_leaves_no_connection_open(redis_server: RedisServer) -> None:
    """A count still to come when the node stops is dropped, not sent on a closed client (which
    would open a connection that nothing closes): Redis sees no client of the nodes after."""
    import redis as redis_sync

    a, b = two_nodes(redis_server.url, message_rate=10, message_sync=0.05)
    assert await a.may_create("203.0.113.7") and await b.may_create("203.0.113.7")  # both connected
    assert a.message_now("203.0.113.7") and b.message_now("203.0.113.7")  # counts pending
    await close(a, b)
    a.message_now("203.0.113.7")  # after stop: answered, but nothing is counted any more
    await asyncio.sleep(0.2)  # past the moment the counts would have gone out
    check = redis_sync.Redis.from_url(redis_server.url)
    try:
        check.client_setname("check")
        others = [c["addr"] for c in check.client_list() if c["name"] != "check"]
        assert others == []
    finally:
        check.close()
