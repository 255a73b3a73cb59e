"""The Redis room store against a real redis-server: the same answers as the SQLite store,
tokens kept only as hashes, and a record that stays one ordered list."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest

pytest.importorskip("redis", reason="the redis package is not installed (pip install redis)")

from redis.asyncio import Redis  # noqa: E402
from redis_helpers import RedisServer  # noqa: E402

from server.redis_store import RecordConflict, RedisRoomStore, connect, hash_token  # noqa: E402
from server.store import RoomStore  # noqa: E402

TOKENS = ["hZAc92Qg7miL0QFlixNwi8Ru", "tyRIeyOv3dNgOlOjT9pRzZKB"]


def room_doc(code: str, match: int = 1, chat: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A document shaped like ``server.rooms.Room.to_doc``."""
    return {
        "code": code,
        "game": "soccer-go",
        "options": {"rounds": 2, "extra_time": True, "power_cards": True},
        "settings": {"spectators": True, "turn_seconds": None, "abandon_seconds": 120},
        "seats": [
            {"token": TOKENS[0], "name": "Alice", "host": True, "bot": False},
            {"token": TOKENS[1], "name": "Bob", "host": False, "bot": False},
        ],
        "match": match,
        "chance_seed": 8_123_456_789_012_345_678,
        "record_seed": 1234,
        "result": None,
        "rematch": [],
        "chat": chat or [{"seat": 0, "name": "Alice", "text": "good luck"}],
        "started": True,
    }


def hashed(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` as the Redis store gives it back: each seat's token replaced by its hash."""
    seats = [
        {k: v for k, v in seat.items() if k != "token"} | {"token_hash": hash_token(seat["token"])}
        for seat in doc["seats"]
    ]
    return doc | {"seats": seats}


async def everything_stored(redis: Redis) -> str:
    """Every key and value in the database, as one text (to look for what must not be there)."""
    parts = []
    async for key in redis.scan_iter():
        kind = (await redis.type(key)).decode()
        if kind == "string":
            parts.append(str(await redis.get(key)))
        elif kind == "hash":
            parts.append(str(await redis.hgetall(key)))
        elif kind == "list":
            parts.append(str(await redis.lrange(key, 0, -1)))
        elif kind == "zset":
            parts.append(str(await redis.zrange(key, 0, -1)))
        parts.append(key.decode())
    return "\n".join(parts)


async def test_round_trip_matches_the_sqlite_store(redis_client: Redis, tmp_path: Any) -> None:
    redis_store = RedisRoomStore(redis_client)
    sqlite_store = RoomStore(tmp_path / "relay.sqlite3")
    try:
        steps: list[tuple[str, tuple[Any, ...]]] = [
            ("save_room", ("ABCDEF", room_doc("ABCDEF"))),
            ("append_actions", ("ABCDEF", 1, 0, [(-1, "toss 0"), (-1, "deal 3 5 7")])),
            ("append_actions", ("ABCDEF", 1, 2, [(0, "pass 1")])),
            ("save_room", ("GHJKMN", room_doc("GHJKMN"))),
            ("append_actions", ("GHJKMN", 1, 0, [(-1, "toss 1")])),
            ("save_room", ("ABCDEF", room_doc("ABCDEF", chat=[{"seat": 1, "name": "Bob", "text": "ünïcode ⚽"}]))),
        ]
        for name, args in steps:
            getattr(sqlite_store, name)(*args)
            await getattr(redis_store, name)(*args)
        for code in ("ABCDEF", "GHJKMN"):
            expected = sqlite_store.load_room(code)
            assert expected is not None
            assert await redis_store.load_room(code) == (hashed(expected[0]), expected[1])
        assert await redis_store.load_room("ABCDEF") == (
            hashed(room_doc("ABCDEF", chat=[{"seat": 1, "name": "Bob", "text": "ünïcode ⚽"}])),
            [[-1, "toss 0"], [-1, "deal 3 5 7"], [0, "pass 1"]],
        )
        assert await redis_store.has_room("ABCDEF") and sqlite_store.has_room("ABCDEF")
        assert not await redis_store.has_room("ZZZZZZ") and not sqlite_store.has_room("ZZZZZZ")
        assert await redis_store.load_room("ZZZZZZ") is None
        assert await redis_store.room_count() == sqlite_store.room_count() == 2

        # A rematch: match 2 starts, the record of match 1 is dropped.
        for store_call in (sqlite_store.save_room, redis_store.save_room):
            result = store_call("ABCDEF", room_doc("ABCDEF", match=2))
            if result is not None:
                await result
        sqlite_store.drop_match("ABCDEF", 1)
        await redis_store.drop_match("ABCDEF", 1)
        sqlite_store.append_actions("ABCDEF", 2, 0, [(-1, "toss 1")])
        await redis_store.append_actions("ABCDEF", 2, 0, [(-1, "toss 1")])
        expected = sqlite_store.load_room("ABCDEF")
        assert expected is not None and expected[1] == [[-1, "toss 1"]]
        assert await redis_store.load_room("ABCDEF") == (hashed(expected[0]), expected[1])
        assert not await redis_client.exists("soccerdesk:record:ABCDEF:1")

        # Staleness, by the time of the last write.
        later = time.time() + 1
        assert (
            sorted(await redis_store.stale_rooms(later))
            == sorted(sqlite_store.stale_rooms(later))
            == [
                "ABCDEF",
                "GHJKMN",
            ]
        )
        assert await redis_store.stale_rooms(time.time() - 60) == sqlite_store.stale_rooms(time.time() - 60) == []

        sqlite_store.delete_room("GHJKMN")
        await redis_store.delete_room("GHJKMN")
        assert await redis_store.load_room("GHJKMN") is None
        assert await redis_store.room_count() == sqlite_store.room_count() == 1
        assert not await redis_client.exists("soccerdesk:record:GHJKMN:1", "soccerdesk:room:GHJKMN")
    finally:
        sqlite_store.close()


async def test_seat_tokens_never_reach_redis(redis_client: Redis) -> None:
    store = RedisRoomStore(redis_client)
    await store.save_room("ABCDEF", room_doc("ABCDEF"))
    await store.append_actions("ABCDEF", 1, 0, [(-1, "toss 0")])
    stored = await everything_stored(redis_client)
    assert "Alice" in stored  # the scan does see the documents
    for token in TOKENS:
        assert token not in stored
        assert hash_token(token) in stored
    loaded = await store.load_room("ABCDEF")
    assert loaded is not None
    assert [seat["token_hash"] for seat in loaded[0]["seats"]] == [hash_token(t) for t in TOKENS]
    # A document saved again from a loaded one (hashes, no tokens) keeps the hashes.
    await store.save_room("ABCDEF", loaded[0])
    assert await store.load_room("ABCDEF") == loaded


async def test_the_record_stays_one_ordered_list(redis_client: Redis) -> None:
    store = RedisRoomStore(redis_client)
    await store.save_room("ABCDEF", room_doc("ABCDEF"))
    await store.append_actions("ABCDEF", 1, 0, [(-1, "toss 0"), (0, "pass 1")])

    # A gap, or a ply written twice with another action: refused, nothing changes.
    with pytest.raises(RecordConflict, match="holds 2 actions, not 3"):
        await store.append_actions("ABCDEF", 1, 3, [(1, "pass 2")])
    with pytest.raises(RecordConflict, match="holds 2 actions, not 1"):
        await store.append_actions("ABCDEF", 1, 1, [(1, "pass 9")])
    with pytest.raises(RecordConflict):
        await store.append_actions("ABCDEF", 1, 0, [(-1, "toss 1"), (0, "pass 1")])
    # The same append repeated (its reply was lost on the way): accepted once, not duplicated.
    await store.append_actions("ABCDEF", 1, 0, [(-1, "toss 0"), (0, "pass 1")])
    await store.append_actions("ABCDEF", 1, 1, [(0, "pass 1")])
    raw = await redis_client.lrange("soccerdesk:record:ABCDEF:1", 0, -1)
    assert [json.loads(entry) for entry in raw] == [[-1, "toss 0"], [0, "pass 1"]]
    await store.append_actions("ABCDEF", 1, 2, [(1, "pass 2")])
    loaded = await store.load_room("ABCDEF")
    assert loaded is not None and loaded[1] == [[-1, "toss 0"], [0, "pass 1"], [1, "pass 2"]]
    await store.append_actions("ABCDEF", 1, 3, [])  # nothing to append: no call, no change
    assert await redis_client.llen("soccerdesk:record:ABCDEF:1") == 3


async def test_prefixes_keep_two_relays_apart(redis_client: Redis) -> None:
    one, two = RedisRoomStore(redis_client, prefix="a:"), RedisRoomStore(redis_client, prefix="b:")
    await one.save_room("ABCDEF", room_doc("ABCDEF"))
    assert await one.has_room("ABCDEF") and not await two.has_room("ABCDEF")
    assert await two.room_count() == 0


async def test_many_rooms_writing_at_once_share_a_few_connections(redis_server: RedisServer) -> None:
    client = connect(redis_server.url, pool_size=4, timeout=30.0)  # 300 calls share 4: a slow machine waits
    store = RedisRoomStore(client)
    try:
        codes = [f"R{i:05d}" for i in range(300)]
        await asyncio.gather(*(store.save_room(code, room_doc(code)) for code in codes))
        for ply in range(3):
            await asyncio.gather(*(store.append_actions(code, 1, ply, [(ply % 2, f"move {ply}")]) for code in codes))
        assert await store.room_count() == 300
        loaded = await store.load_room("R00123")
        assert loaded is not None and loaded[1] == [[0, "move 0"], [1, "move 1"], [0, "move 2"]]
        clients = await client.client_list()
        assert len(clients) <= 4 + 1  # the pool's connections (and the one asking)
    finally:
        await client.aclose()
