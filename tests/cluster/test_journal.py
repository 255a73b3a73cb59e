"""A real room (server.rooms) of a real game kept in Redis through the Journal, the relay's store
seam: every frame a player gets goes out only after what it announces is in Redis; a room
rebuilt from Redis on another node (a takeover) has the same record; a failed write stops the
room's frames and the connections close (their clients resume)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from typing import Any

import pytest

redis_sync = pytest.importorskip("redis", reason="the redis package is not installed (pip install redis)")

from redis.asyncio import Redis  # noqa: E402
from redis_helpers import Connection, RedisServer  # noqa: E402

from server.cluster import Cluster  # noqa: E402
from server.redis_store import StoreUnavailable  # noqa: E402
from server.rooms import Room, RoomSettings  # noqa: E402
from soccerdesk.rules import GAMES, get_game  # noqa: E402

GAME = "soccer-go" if "soccer-go" in GAMES else next(iter(GAMES))


class Watch:
    """Looks in Redis as each frame goes out: what the frame announces must be stored already."""

    def __init__(self, check: redis_sync.Redis, code: str) -> None:
        self.check, self.code = check, code
        self.early: list[str] = []

    def __call__(self, connection: Connection, frame: dict[str, Any]) -> None:
        if frame["type"] in ("update", "snapshot"):
            stored = self.check.llen(f"soccerdesk:record:{self.code}:{frame['match']}")
            if stored < frame["seq"]:
                self.early.append(f"{connection.name} told of ply {frame['seq']} with {stored} stored")
        if frame["type"] == "joined" and not self.check.exists(f"soccerdesk:room:{self.code}"):
            self.early.append(f"{connection.name} joined a room not stored yet")


def play_some(room: Room, players: list[Connection], plies: int, rng: random.Random) -> None:
    """Legal actions for both seats until the match is over or ``plies`` have been played."""
    while not room.state.is_terminal() and room.state.ply < plies:
        seat = rng.choice([s for s in room.state.current_players() if s >= 0])
        action = rng.choice(room.state.legal_actions(seat))
        room.act(players[seat], str(action), room.state.ply)


async def start_match(node: Cluster, code: str, watch: Watch) -> tuple[Room, list[Connection]]:
    """A new room owned by ``node``, its store the node's Journal, with its two players seated."""
    assert await node.claim_new(code)
    journal = node.journal
    game = get_game(GAME)
    room = Room(code, game, game.resolve_options({}), RoomSettings(), journal)  # type: ignore[arg-type]
    players = [Connection("host", journal.durable, watch), Connection("guest", journal.durable, watch)]
    room.seat_host(players[0], "Host", 0)
    room.join(players[1], "Guest")
    return room, players


async def settled(node: Cluster, players: list[Connection]) -> None:
    """Until every write is done (or dropped) and every frame has gone out (or been dropped)."""
    await node.journal.flush()
    for player in players:
        await player.drained()


@pytest.fixture
async def node(redis_server: RedisServer) -> AsyncIterator[Cluster]:
    made = Cluster(Redis.from_url(redis_server.url, socket_timeout=1.0, socket_connect_timeout=1.0), ttl=1.0)
    await made.start()
    try:
        yield made
    finally:
        await made.stop()


async def test_frames_follow_their_writes_and_a_takeover_replays_the_record(
    node: Cluster, redis_server: RedisServer
) -> None:
    check = redis_sync.Redis.from_url(redis_server.url)
    try:
        code = "ABCDEF"
        watch = Watch(check, code)
        room, players = await start_match(node, code, watch)
        play_some(room, players, 60, random.Random(7))
        await settled(node, players)
        assert watch.early == []
        assert node.journal.pending(code) == 0 and node.journal.durable() is None
        for player in players:
            updates = [f for f in player.frames if f["type"] == "update"]
            assert updates and updates[-1]["seq"] == room.state.ply  # every frame went out, in the end

        # Another node takes the room over and rebuilds it from Redis: the same record.
        loaded = await node.store.load_room(code)
        assert loaded is not None
        doc, actions = loaded
        history = [[seat, str(action)] for seat, action in room.state.history()]
        assert actions == history
        rebuilt = Room.from_doc(doc, actions, node.journal)  # type: ignore[arg-type]
        assert [[s, str(a)] for s, a in rebuilt.state.history()] == history
        assert rebuilt.state.view(0) == room.state.view(0) and rebuilt.state.view(None) == room.state.view(None)
        # Tokens: only their hashes are in Redis, and they still let their seats back in.
        assert all("token" not in seat for seat in doc["seats"])
        assert rebuilt.seats[1] is not None and rebuilt.seats[1].holds(players[1].token())
    finally:
        check.close()
        for player in players:
            player.stop()


async def test_a_failed_write_stops_the_rooms_frames(node: Cluster, redis_server: RedisServer) -> None:
    check = redis_sync.Redis.from_url(redis_server.url, socket_timeout=0.2, socket_connect_timeout=0.2)
    failures: list[tuple[str, Exception]] = []
    node.journal.on_failure = lambda c, e: failures.append((c, e))
    node.journal.retry_for = 0.5  # Redis stays away longer than that
    try:
        code = "GHJKMN"
        room, players = await start_match(node, code, Watch(check, code))
        await settled(node, players)
        stored = room.state.ply
        seen = [len(player.frames) for player in players]

        redis_server.kill()
        play_some(room, players, stored + 6, random.Random(3))  # the room runs ahead of Redis
        assert room.state.ply > stored
        await asyncio.wait_for(settled(node, players), 10.0)
        assert [code for code, _ in failures] == [code] and isinstance(failures[0][1], StoreUnavailable)
        assert node.journal.failed(code)
        # Nothing of what was not stored reached anyone; their connections closed instead.
        assert [len(player.frames) for player in players] == seen
        assert all(player.closed is not None and player.closed[0] == "internal" for player in players)
        room.act(players[0], "anything", None)  # later writes of the failed room are ignored
        assert node.journal.pending(code) == 0 and node.journal.durable() is None

        redis_server.start()
        loaded = await node.store.load_room(code)  # the room as Redis has it: what was acknowledged
        assert loaded is not None and len(loaded[1]) == stored
        node.journal.reset(code)
        rebuilt = Room.from_doc(*loaded, node.journal)  # type: ignore[arg-type]
        assert rebuilt.state.ply == stored
    finally:
        check.close()
        for player in players:
            player.stop()


async def test_a_short_redis_restart_only_delays_the_frames(node: Cluster, redis_server: RedisServer) -> None:
    check = redis_sync.Redis.from_url(redis_server.url, socket_timeout=0.2, socket_connect_timeout=0.2)
    failures: list[tuple[str, Exception]] = []
    node.journal.on_failure = lambda c, e: failures.append((c, e))
    try:
        code = "PQRSTU"
        watch = Watch(check, code)
        room, players = await start_match(node, code, watch)
        play_some(room, players, 10, random.Random(5))
        await settled(node, players)  # the frames too: the watch looks in Redis as each goes out
        redis_server.kill()
        play_some(room, players, 20, random.Random(6))  # moves made while Redis is down
        await asyncio.sleep(0.3)
        assert node.journal.pending(code) > 0  # waiting, not failed
        redis_server.start()
        await asyncio.wait_for(settled(node, players), 10.0)
        assert failures == [] and watch.early == []
        assert all(player.closed is None for player in players)
        assert [f for f in players[0].frames if f["type"] == "update"][-1]["seq"] == room.state.ply
        loaded = await node.store.load_room(code)
        assert loaded is not None and loaded[1] == [[s, str(a)] for s, a in room.state.history()]
    finally:
        check.close()
        for player in players:
            player.stop()


async def test_durable_covers_the_writes_made_before_it(node: Cluster) -> None:
    """Two rooms writing at once: a future covers every write made before it was asked for."""
    journal = node.journal
    for code in ("AAAAAA", "BBBBBB"):
        assert await node.claim_new(code)
    assert journal.durable() is None
    journal.save_room("AAAAAA", {"code": "AAAAAA", "match": 1})
    first = journal.durable()
    assert first is not None and journal.durable() is first  # asked again with nothing new: the same
    journal.save_room("BBBBBB", {"code": "BBBBBB", "match": 1})
    journal.append_actions("AAAAAA", 1, 0, [(-1, "toss 0")])
    second = journal.durable()
    assert second is not None and second is not first
    await asyncio.wait_for(first, 5.0)
    assert await node.store.has_room("AAAAAA")
    await asyncio.wait_for(second, 5.0)
    loaded = await node.store.load_room("AAAAAA")
    assert loaded is not None and loaded[1] == [[-1, "toss 0"]] and await node.store.has_room("BBBBBB")
    assert journal.durable() is None
