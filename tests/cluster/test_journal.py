"""A real room (server.rooms) of a real game kept in Redis through the Journal: every frame a
player gets is sent only after what it announces is in Redis; a room rebuilt from Redis on
another node (a takeover) has the same record; a failed write stops the room's frames."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest

redis_sync = pytest.importorskip("redis", reason="the redis package is not installed (pip install redis)")

from redis.asyncio import Redis  # noqa: E402
from redis_helpers import RedisServer  # noqa: E402

from server.cluster import Cluster, Journal  # noqa: E402
from server.redis_store import StoreUnavailable  # noqa: E402
from server.rooms import Room, RoomSettings  # noqa: E402
from soccerdesk.rules import GAMES, get_game  # noqa: E402

GAME = "soccer-go" if "soccer-go" in GAMES else next(iter(GAMES))


class Client:
    """A connection as a room sees it, which checks Redis as each frame arrives."""

    def __init__(self, name: str, check: redis_sync.Redis, code: str) -> None:
        self.name, self.check, self.code = name, check, code
        self.version = 2
        self.ip = "203.0.113.7"
        self.frames: list[dict[str, Any]] = []
        self.closed: tuple[str, str] | None = None
        self.early: list[str] = []  # frames that arrived before what they announce was stored

    def send(self, text: str) -> None:
        frame = json.loads(text)
        if frame["type"] in ("update", "snapshot"):
            # What this frame announces is in Redis already.
            stored = self.check.llen(f"soccerdesk:record:{self.code}:{frame['match']}")
            if stored < frame["seq"]:
                self.early.append(f"{self.name} told of ply {frame['seq']} with {stored} stored")
        if frame["type"] == "joined" and not self.check.exists(f"soccerdesk:room:{self.code}"):
            self.early.append(f"{self.name} joined a room not stored yet")
        self.frames.append(frame)

    def close(self, code: str, message: str) -> None:
        self.closed = (code, message)


def play_some(room: Room, peers: list[Any], plies: int, rng: random.Random) -> None:
    """Legal actions for both seats until the match is over or ``plies`` have been played."""
    while not room.state.is_terminal() and room.state.ply < plies:
        seat = rng.choice([s for s in room.state.current_players() if s >= 0])
        action = rng.choice(room.state.legal_actions(seat))
        room.act(peers[seat], str(action), room.state.ply)


async def start_match(
    node: Cluster, journal: Journal, code: str, check: redis_sync.Redis
) -> tuple[Room, list[Client], list[Any]]:
    """A new room owned by ``node`` with its two players seated; the match has begun."""
    assert await node.claim_new(code)
    game = get_game(GAME)
    room = Room(code, game, game.resolve_options({}), RoomSettings(), journal)  # type: ignore[arg-type]
    clients = [Client("host", check, code), Client("guest", check, code)]
    peers = [journal.peer(code, client) for client in clients]
    room.seat_host(peers[0], "Host", 0)
    room.join(peers[1], "Guest")
    return room, clients, peers


@pytest.fixture
async def node(redis_server: RedisServer) -> Any:
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
        journal = Journal(node.store)
        room, clients, peers = await start_match(node, journal, code, check)
        play_some(room, peers, 60, random.Random(7))
        await journal.flush()
        assert journal.pending(code) == 0
        for client in clients:
            assert client.early == []
            updates = [f for f in client.frames if f["type"] == "update"]
            assert updates and updates[-1]["seq"] == room.state.ply  # every frame arrived, in the end

        # Another node takes the room over and rebuilds it from Redis: the same record.
        loaded = await node.store.load_room(code)
        assert loaded is not None
        doc, actions = loaded
        history = [[seat, str(action)] for seat, action in room.state.history()]
        assert actions == history
        rebuilt = Room.from_doc(doc, actions, journal)  # type: ignore[arg-type]
        assert [[s, str(a)] for s, a in rebuilt.state.history()] == history
        assert rebuilt.state.view(0) == room.state.view(0) and rebuilt.state.view(None) == room.state.view(None)
        # Tokens: only their hashes are in Redis, and they still let their seats back in.
        assert all("token" not in seat for seat in doc["seats"])
        token = clients[1].frames[0]["token"]
        assert rebuilt.seats[1] is not None and rebuilt.seats[1].holds(token)
    finally:
        check.close()


async def test_a_failed_write_stops_the_rooms_frames(node: Cluster, redis_server: RedisServer) -> None:
    check = redis_sync.Redis.from_url(redis_server.url, socket_timeout=0.2, socket_connect_timeout=0.2)
    failures: list[tuple[str, Exception]] = []
    try:
        code = "GHJKMN"
        journal = Journal(node.store, on_failure=lambda c, e: failures.append((c, e)))
        room, clients, peers = await start_match(node, journal, code, check)
        await journal.flush()
        stored = room.state.ply
        seen = [len(client.frames) for client in clients]

        redis_server.kill()
        play_some(room, peers, stored + 6, random.Random(3))  # the room runs ahead of Redis
        assert room.state.ply > stored
        await asyncio.wait_for(journal.flush(), 10.0)
        assert [code for code, _ in failures] == [code] and isinstance(failures[0][1], StoreUnavailable)
        assert journal.failed(code)
        # Nothing of what was not stored reached anyone.
        assert [len(client.frames) for client in clients] == seen
        room.act(peers[0], "anything", None)  # later steps of the failed room are ignored
        assert journal.pending(code) == 0

        redis_server.start()
        loaded = await node.store.load_room(code)  # the room as Redis has it: what was acknowledged
        assert loaded is not None and len(loaded[1]) == stored
        journal.reset(code)
        rebuilt = Room.from_doc(*loaded, journal)  # type: ignore[arg-type]
        assert rebuilt.state.ply == stored
    finally:
        check.close()
