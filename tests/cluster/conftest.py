"""Fixtures of the cluster tests: a real ``redis-server`` on a free loopback port.

Each test gets its own server in its own temporary directory, with the append-only file on
and ``appendfsync always``: Redis writes and fsyncs each command to the AOF before it answers,
so whatever a client was told is stored survives a ``SIGKILL`` of the server (and a power cut).
That is the strongest guarantee the relay can give players ("an action is acknowledged once it
is in Redis"), and the tests check it; ``everysec``, which server/deploy/README.md offers as the
counterpart of a single relay's SQLite default, may lose the last second of acknowledged writes
when the machine fails (and, while the disk stalls, when Redis is killed).

The tests are skipped, saying why, only where ``redis-server`` is not installed (Debian
package ``redis-server``; ``.ci/run`` installs it when it runs as root).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from redis_helpers import RedisServer, running_redis


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    with running_redis(tmp_path) as server:
        yield server


@pytest.fixture
async def redis_client(redis_server: RedisServer) -> AsyncIterator[object]:
    """An asyncio client of the test's server (closed at the end)."""
    from redis.asyncio import Redis

    client = Redis.from_url(redis_server.url, socket_timeout=2.0, socket_connect_timeout=2.0)
    try:
        yield client
    finally:
        await client.aclose()
