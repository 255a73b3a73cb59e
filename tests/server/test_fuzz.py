"""Hypothesis throws malformed and hostile frames at a relay mid-match: the match never changes.

The frames come from a seat's own connection (resumed with the real token, so they reach
the room), mixing raw text, binary, random JSON, near-valid messages with wrong or extra
fields, other versions, foreign tokens and codes, and oversize frames. Legal actions and
``leave`` (a resignation) are the only frames that may change a match; they are left out.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from relay_helpers import TOY, pair, relay_settings

from server.relay import HALL, start_relay
from soccerdesk.net.client import RelayClient
from soccerdesk.net.protocol import CLIENT_MESSAGES, MAX_FRAME_BYTES, PROTOCOL_VERSION

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)
field_names = st.sampled_from(
    sorted({f.name for fields in CLIENT_MESSAGES.values() for f in fields} | {"seat", "type"})
)
message_types = st.sampled_from([*sorted(set(CLIENT_MESSAGES) - {"leave"}), "teleport", "", "ACT"])
near_valid = st.builds(
    lambda kind, fields: json.dumps({"type": kind, **fields}),
    message_types,
    st.dictionaries(field_names, json_values | st.sampled_from(["aim 9", "dive 0", "deal 1", "ABCDEF"]), max_size=4),
)
frames = st.one_of(
    st.text(max_size=200),
    st.binary(max_size=100),
    json_values.map(json.dumps),
    near_valid,
    st.integers(MAX_FRAME_BYTES - 10, MAX_FRAME_BYTES * 6).map(lambda n: '{"type":"chat","text":"' + "x" * n + '"}'),
)


async def _attack(sequence: list[str | bytes]) -> None:
    relay = await start_relay(relay_settings(":memory:", games=(TOY,)))
    made: list[RelayClient] = []
    try:
        host, guest = await pair(relay, made, TOY, {"rounds": 3})
        await host.act(host.view["legal"][0], ply=host.view["ply"])  # type: ignore[index]
        await asyncio.sleep(0.02)
        room = relay.app[HALL].rooms[host.room or ""]
        legal = set(guest.view["legal"]) if guest.view else set()
        before = room.game.dump(room.state), room.result
        async with aiohttp.ClientSession() as session, session.ws_connect(relay.url) as ws:
            await ws.send_str(json.dumps({"type": "hello", "version": PROTOCOL_VERSION}))
            await ws.send_str(json.dumps({"type": "resume", "room": host.room, "token": guest.token}))
            for frame in sequence:
                if ws.closed:
                    break
                if isinstance(frame, bytes):
                    await ws.send_bytes(frame)
                elif not _would_play(frame, legal):
                    await ws.send_str(frame)
            if not ws.closed:
                await ws.send_str('{"type": "ping"}')
                async with asyncio.timeout(5):
                    async for msg in ws:  # every frame before the ping has been handled
                        if msg.type != aiohttp.WSMsgType.TEXT or json.loads(msg.data)["type"] == "pong":
                            break
        assert (room.game.dump(room.state), room.result) == before
        assert room.state.ply == 2
    finally:
        for client in made:
            await client.close()
        await relay.stop()


def _would_play(frame: str, legal: set[str]) -> bool:
    try:
        msg: Any = json.loads(frame)
    except ValueError:
        return False
    if not isinstance(msg, dict):
        return False
    action = msg.get("action")
    return msg.get("type") == "leave" or (msg.get("type") == "act" and isinstance(action, str) and action in legal)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(st.lists(frames, min_size=1, max_size=12))
def test_hostile_frames_leave_the_match_unchanged(sequence: list[str | bytes]) -> None:
    asyncio.run(_attack(sequence))
