"""The Journal's lean connection to Redis (server.redis_pipe): writes leave in the turn after
they are made, without a task; Redis forgetting its scripts, dropping the connection or not
answering only delays them (the Journal goes through redis-py meanwhile), and the database
number of the URL is kept."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

redis_sync = pytest.importorskip("redis", reason="the redis package is not installed (pip install redis)")
pytest.importorskip("hiredis", reason="the hiredis package is not installed (pip install redis[hiredis])")

from redis.asyncio import Redis  # noqa: E402
from redis_helpers import RedisServer  # noqa: E402

from server import ack_trace  # noqa: E402
from server.cluster import Cluster  # noqa: E402
from server.redis_pipe import PipeSettings, RedisPipe  # noqa: E402
from server.redis_store import StoreUnavailable  # noqa: E402


async def started(url: str) -> Cluster:
    node = Cluster(Redis.from_url(url, socket_timeout=1.0, socket_connect_timeout=1.0), ttl=1.0)
    await node.start()
    return node


@pytest.fixture
async def node(redis_server: RedisServer) -> AsyncIterator[Cluster]:
    made = await started(redis_server.url)
    try:
        yield made
    finally:
        await made.stop()


def record(server: RedisServer, code: str, db: int = 0) -> list[bytes]:
    check = redis_sync.Redis.from_url(server.url.rsplit("/", 1)[0] + f"/{db}")
    try:
        return list(check.lrange(f"soccerdesk:record:{code}:1", 0, -1))
    finally:
        check.close()


async def test_a_write_leaves_in_the_next_turn_through_the_pipe(node: Cluster, redis_server: RedisServer) -> None:
    pipe = node.journal.pipe
    assert pipe is not None and pipe.connected
    assert await node.claim_new("ABCDEF")
    before = pipe.batches_sent
    node.journal.append_actions("ABCDEF", 1, 0, [(-1, "toss 0")])
    node.journal.append_actions("ABCDEF", 1, 1, [(0, "pass 1")])  # the room's next write waits for the first
    await asyncio.sleep(0)  # one turn of the loop: the first write is on its way, no task was needed
    assert pipe.batches_sent == before + 1
    await asyncio.wait_for(node.journal.flush(), 5.0)
    assert pipe.batches_sent == before + 2
    assert record(redis_server, "ABCDEF") == [b'[-1,"toss 0"]', b'[0,"pass 1"]']


async def test_forgotten_scripts_and_a_broken_connection_only_delay_writes(
    node: Cluster, redis_server: RedisServer
) -> None:
    pipe = node.journal.pipe
    assert pipe is not None
    assert await node.claim_new("ABCDEF")
    check = redis_sync.Redis.from_url(redis_server.url)
    try:
        check.script_flush()  # as after a restart of Redis: NOSCRIPT for every script
        node.journal.append_actions("ABCDEF", 1, 0, [(-1, "toss 0")])
        await asyncio.wait_for(node.journal.flush(), 5.0)
        # Every client's connection is cut: the pipe's too.
        check.client_setname("check")
        for client in check.client_list():
            if client["name"] != "check":
                check.client_kill_filter(_id=client["id"])
        node.journal.append_actions("ABCDEF", 1, 1, [(0, "pass 1")])
        node.journal.append_actions("ABCDEF", 1, 2, [(1, "pass 2")])
        await asyncio.wait_for(node.journal.flush(), 5.0)
        assert record(redis_server, "ABCDEF") == [b'[-1,"toss 0"]', b'[0,"pass 1"]', b'[1,"pass 2"]']
        for _ in range(100):  # and it comes back by itself
            if pipe.connected:
                break
            await asyncio.sleep(0.02)
        sent = pipe.batches_sent
        node.journal.append_actions("ABCDEF", 1, 3, [(0, "pass 3")])
        await asyncio.wait_for(node.journal.flush(), 5.0)
        assert pipe.batches_sent == sent + 1 and len(record(redis_server, "ABCDEF")) == 4
    finally:
        check.close()


async def test_the_database_of_the_url_is_used(redis_server: RedisServer) -> None:
    node = await started(redis_server.url.rsplit("/", 1)[0] + "/3")
    try:
        assert node.journal.pipe is not None
        assert await node.claim_new("ABCDEF")
        node.journal.append_actions("ABCDEF", 1, 0, [(-1, "toss 0")])
        await asyncio.wait_for(node.journal.flush(), 5.0)
        assert node.journal.pipe.batches_sent >= 1
    finally:
        await node.stop()
    assert record(redis_server, "ABCDEF", db=3) == [b'[-1,"toss 0"]'] and record(redis_server, "ABCDEF") == []


async def test_a_batch_nobody_answers_fails_after_the_time_out() -> None:
    """A server that accepts and reads but never answers: the batch fails, the connection closes."""
    received: list[bytes] = []

    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(ConnectionError):
            while data := await reader.read(1024):
                received.append(data)
        writer.close()

    server = await asyncio.start_server(silent, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    pipe = RedisPipe(PipeSettings("127.0.0.1", port, 0, None, None, timeout=0.2))
    try:
        await pipe.connect()
        answers: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        pipe.send([("PING",)], answers.set_result)
        failure = await asyncio.wait_for(answers, 2.0)
        assert isinstance(failure, StoreUnavailable) and "did not answer" in failure.detail
        assert not pipe.connected and received == [b"*1\r\n$4\r\nPING\r\n"]
        with pytest.raises(StoreUnavailable):
            pipe.send([("PING",)], answers.set_result)
    finally:
        await pipe.close()
        server.close()
        await server.wait_closed()


async def test_the_ack_trace_records_the_journals_stages(
    node: Cluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With SOCCERDESK_ACK_TRACE (here set directly), each write's stages are recorded and saved."""
    trace = ack_trace.AckTrace(str(tmp_path / "trace.json"))
    monkeypatch.setattr(ack_trace, "TRACE", trace)
    trace.start()
    assert await node.claim_new("ABCDEF")
    node.journal.append_actions("ABCDEF", 1, 0, [(-1, "toss 0")])
    node.journal.append_actions("ABCDEF", 1, 1, [(0, "pass 1")])
    await asyncio.wait_for(node.journal.flush(), 5.0)
    await asyncio.sleep(0.02)  # a few ticks of the loop-lag timer
    await trace.stop()
    saved = json.loads((tmp_path / "trace.json").read_text())
    assert [v for _, v in saved["room_queue"]] == [1, 2]  # the second waited behind the first
    assert len(saved["write_queued"]) == 2 and len(saved["write_acked"]) == 2 and len(saved["round_trip"]) == 2
    assert [v for _, v in saved["batch_size"]] == [1, 1] and saved["loop_lag"]
    first, second = (v for _, v in saved["write_acked"])
    assert 0 < first <= second
