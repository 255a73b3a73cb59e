"""A match survives dropped clients and relay restarts; bad input is refused and changes nothing."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import random
import socket
from dataclasses import replace
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from relay_helpers import (
    TOY,
    new_client,
    pair,
    play_to_end,
    relay_settings,
    until,
)

from server.relay import CONNECTIONS, HALL, LIMITS, Connection, RelaySettings, RunningRelay, start_relay
from soccerdesk.net.client import RelayClient, RelayError
from soccerdesk.net.protocol import MAX_FRAME_BYTES, PROTOCOL_VERSION
from tests.relay_process import free_port, kill_process, start_relay_process

ROOT = Path(__file__).resolve().parents[2]


def match_record(relay: RunningRelay, code: str) -> dict[str, Any]:
    room = relay.app[HALL].rooms[code]
    return {"record": room.game.dump(room.state), "result": room.result, "match": room.match}


async def raw_socket(relay: RunningRelay) -> tuple[aiohttp.ClientSession, aiohttp.ClientWebSocketResponse]:
    session = aiohttp.ClientSession()
    return session, await session.ws_connect(relay.url)


async def answer(ws: aiohttp.ClientWebSocketResponse, frame: str) -> dict[str, Any]:
    await ws.send_str(frame)
    msg = await ws.receive(timeout=5)
    assert msg.type == aiohttp.WSMsgType.TEXT, msg
    return json.loads(msg.data)


# --- reconnection -------------------------------------------------------------------------


async def test_a_killed_client_resumes_with_its_token_and_gets_the_events_it_missed(
    relay: RunningRelay, clients: list[RelayClient]
) -> None:
    host, guest = await pair(relay, clients, TOY, {"rounds": 3})
    guest.reconnect = False
    room, token, seen = guest.room, guest.token, guest.seq
    assert room is not None and token is not None
    await guest.drop()
    await until(lambda: not relay.app[HALL].rooms[room].players_json()[1]["connected"])
    # While the guest is away the host makes its secret choice (a public "has chosen" event).
    await host.act(host.view["legal"][0], ply=host.view["ply"])  # type: ignore[index]
    await until(lambda: host.seq > seen)
    back = await new_client(relay, clients, "Guest again")
    joined = await back.resume(room, token, match=guest.match, seq=seen)
    assert joined["seat"] == 1
    snapshot = await back.next("snapshot")
    assert snapshot["seq"] == host.seq
    assert snapshot["events"] and all(e["ply"] > seen for e in snapshot["events"])
    assert any(e["kind"] == "chosen" for e in snapshot["events"])  # the one it missed
    result = await play_to_end([host, back], random.Random(3))
    assert result["reason"] == "played out"


async def test_automatic_reconnection_after_a_drop(relay: RunningRelay, clients: list[RelayClient]) -> None:
    statuses: list[str] = []
    host, guest = await pair(relay, clients, TOY, {"rounds": 3})
    guest.on_status = statuses.append
    await guest.drop()
    await until(lambda: statuses[-1:] == ["connected"])
    assert "reconnecting" in statuses
    result = await play_to_end([host, guest], random.Random(4))
    assert result["score"] == guest.view["score"]  # type: ignore[index]


async def test_resume_with_a_newer_connection_replaces_the_old_one(
    relay: RunningRelay, clients: list[RelayClient]
) -> None:
    host, guest = await pair(relay, clients)
    assert guest.room and guest.token
    twin = await new_client(relay, clients)
    await twin.resume(guest.room, guest.token)
    await until(lambda: guest.status.startswith("lost") or guest.status == "closed")
    assert twin.seat == 1


class _LateResumeProxy:
    """A WebSocket proxy on 127.0.0.1 in front of the relay that, once armed, holds the next
    ``resume`` it is sent until another connection sends one, then passes the held one on
    before that one (``late_first``) or after it: a resume answered late, as when a cluster
    node waits to take over a dead node's room, and handled before or after the client's next
    attempt. Like a node waiting for the room, it reads nothing more of the held connection
    meanwhile (not even its close), so a client that waited for that close to finish would
    miss its next attempt."""

    def __init__(self, relay_url: str, late_first: bool) -> None:
        self.relay_url = relay_url
        self.late_first = late_first
        self.armed = False
        self.held: tuple[aiohttp.ClientWebSocketResponse, str] | None = None
        self.runner: web.AppRunner | None = None
        self.url = ""

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/ws", self._handle)
        self.runner = web.AppRunner(app)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        self.url = f"ws://127.0.0.1:{self.runner.addresses[0][1]}/ws"

    async def stop(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()

    async def _handle(self, request: web.Request) -> web.WebSocketResponse:
        client = web.WebSocketResponse()
        await client.prepare(request)
        async with aiohttp.ClientSession() as session, session.ws_connect(self.relay_url) as upstream:

            async def down() -> None:
                async for frame in upstream:
                    if frame.type == aiohttp.WSMsgType.TEXT and not client.closed:
                        await client.send_str(frame.data)

            pump = asyncio.create_task(down())
            async for frame in client:
                if frame.type != aiohttp.WSMsgType.TEXT:
                    continue
                if json.loads(frame.data).get("type") == "resume" and self.armed:
                    if self.held is None:
                        self.held = (upstream, frame.data)
                        while self.armed:  # busy with it, as a node is: nothing more is read
                            await asyncio.sleep(0.05)
                        continue
                    late, text = self.held
                    self.armed = False
                    if not self.late_first:
                        await upstream.send_str(frame.data)
                    await asyncio.sleep(0.3)
                    await late.send_str(text)
                    if not self.late_first:
                        continue
                    await asyncio.sleep(0.3)  # the relay seats the late attempt first
                await upstream.send_str(frame.data)
            while self.held is not None and self.held[0] is upstream and self.armed:
                await asyncio.sleep(0.05)  # the held resume still reaches the relay
            await asyncio.sleep(0.5)
            pump.cancel()
        return client


@pytest.mark.parametrize("late_first", [True, False], ids=["seated-before-the-next", "seated-after-the-next"])
async def test_a_reconnection_attempt_answered_late_does_not_cost_the_seat(
    relay: RunningRelay, clients: list[RelayClient], late_first: bool
) -> None:
    """The first attempt after a drop times out waiting for its ``resume``; the relay seats
    that connection late, before or after the second attempt's ``resume``, and the later of
    the two takes the seat from the other. The ``replaced`` the relay then sends is not this
    client's seat lost to another window: the client plays on (resuming once more if the
    abandoned connection took the seat last), and reconnects by itself after a later drop."""
    proxy = _LateResumeProxy(relay.url, late_first)
    await proxy.start()
    guest = RelayClient(proxy.url, name="Guest", pauses=(0.05, 0.1, 0.2), request_timeout=0.5)
    clients.append(guest)
    try:
        host = await new_client(relay, clients, "Host")
        await guest.connect()
        joined = await host.create(TOY, {"rounds": 3}, seat=0)
        await host.next("snapshot")
        await guest.join(joined["room"])
        await guest.next("snapshot")
        statuses: list[str] = []
        guest.on_status = statuses.append

        proxy.armed = True
        await guest.drop()
        await until(lambda: not proxy.armed and statuses[-1:] == ["connected"])
        await asyncio.sleep(1.5)  # the late connection is seated, and one replaces the other
        assert guest.fatal_code is None and guest.connected, statuses
        assert statuses[-1] == "connected" and guest.seat == 1, statuses
        assert not any(s.startswith("lost") for s in statuses), statuses

        await guest.drop()  # a later drop: still reconnects by itself
        await until(lambda: statuses[-1:] == ["connected"] and guest.connected)
        result = await play_to_end([host, guest], random.Random(5))
        assert result["score"] == guest.view["score"]  # type: ignore[index]
    finally:
        await guest.close()  # before the proxy, which waits for its open connections
        await proxy.stop()


async def test_relay_killed_mid_match_restarts_and_the_match_finishes(
    tmp_path: Path, clients: list[RelayClient]
) -> None:
    """SIGKILL, not a clean stop: every accepted action was already committed to SQLite."""
    port, db = free_port(), tmp_path / "relay.sqlite3"
    proc = start_relay_process(port, db)
    try:
        url = f"ws://127.0.0.1:{port}/ws"
        host = RelayClient(url, name="Host", pauses=(0.1, 0.2, 0.3))
        guest = RelayClient(url, name="Guest", pauses=(0.1, 0.2, 0.3))
        clients.extend([host, guest])
        for c in (host, guest):
            await c.connect()
        joined = await host.create("pawn-soccer" if "pawn-soccer" in host.games else host.games[0], seat=0)
        await guest.join(joined["room"])
        await until(lambda: guest.view is not None and host.view is not None)
        rng = random.Random(5)
        for _ in range(12):  # a few decisions, then the crash
            for c in (host, guest):
                if c.view and c.seat in c.view["to_move"]:
                    await c.act(rng.choice(c.view["legal"]), ply=c.view["ply"])
            await asyncio.sleep(0.05)
        before = host.seq
        assert before > 0
        kill_process(proc)
        await until(lambda: host.status == "reconnecting" and guest.status == "reconnecting")
        proc = start_relay_process(port, db)
        await until(lambda: host.status == "connected" and guest.status == "connected", timeout=15)
        await until(lambda: host.seq >= before and guest.seq >= before)
        assert host.seq == guest.seq == before  # nothing lost, nothing replayed twice
        result = await play_to_end([host, guest], rng)
        assert result["reason"] == "played out"
    finally:
        kill_process(proc)


async def test_a_room_waiting_for_its_guest_survives_a_killed_relay(tmp_path: Path, clients: list[RelayClient]) -> None:
    """The host's room is committed when it is made: after SIGKILL and a restart the host's
    client resumes its seat by itself and the friend still joins with the code."""
    port, db = free_port(), tmp_path / "relay.sqlite3"
    proc = start_relay_process(port, db)
    try:
        url = f"ws://127.0.0.1:{port}/ws"
        host = RelayClient(url, name="Host", pauses=(0.1, 0.2, 0.3))
        clients.append(host)
        await host.connect()
        joined = await host.create("pawn-soccer" if "pawn-soccer" in host.games else host.games[0], seat=0)
        kill_process(proc)
        await until(lambda: host.status == "reconnecting")
        proc = start_relay_process(port, db)
        await until(lambda: host.status == "connected", timeout=15)
        assert host.room == joined["room"] and host.seat == 0
        guest = RelayClient(url, name="Guest", pauses=(0.1, 0.2, 0.3))
        clients.append(guest)
        await guest.connect()
        await guest.join(joined["room"])
        await until(lambda: sorted(p["name"] for p in host.players) == ["Guest", "Host"])
        await until(lambda: guest.view is not None and host.view is not None)
        assert guest.seat == 1
    finally:
        kill_process(proc)


async def test_clean_restart_in_process_keeps_rooms(db_path: Path) -> None:
    relay = await start_relay(relay_settings(db_path))
    made: list[RelayClient] = []
    try:
        host, guest = await pair(relay, made, TOY, {"rounds": 2})
        code, port = host.room, relay.port
        await host.act(host.view["legal"][0], ply=host.view["ply"])  # type: ignore[index]
        await until(lambda: guest.seq == host.seq == 1)
        started = relay.app[HALL].rooms[code].started_at  # type: ignore[index]
        assert started is not None and guest.played is not None and guest.played[0] >= 0
        await relay.stop()
        relay = await start_relay(replace(relay_settings(db_path), port=port))
        await until(lambda: host.status == guest.status == "connected", timeout=10)
        room = relay.app[HALL].rooms[code]  # type: ignore[index]
        assert room.state.ply == 1
        # The match's time played is kept too: screens that resume go on from it.
        assert room.started_at == started and room.ended_at is None
        assert (await play_to_end([host, guest], random.Random(2)))["reason"] == "played out"
        assert room.ended_at is not None and room.time_played() == round(room.ended_at - started, 1)
    finally:
        for c in made:
            await c.close()
        await relay.stop()


async def test_a_turn_clock_goes_on_after_a_restart(db_path: Path) -> None:
    """The turn clocks are stored with the room: after a restart a seat gets what was left of its
    turn (the time the relay was away included), not a fresh turn."""
    relay = await start_relay(relay_settings(db_path))
    made: list[RelayClient] = []
    try:
        host, guest = await pair(relay, made, TOY, {"rounds": 2}, turn_seconds=60)
        await until(lambda: bool(host.clock))
        code, port, before = host.room, relay.port, dict(host.clock)
        await asyncio.sleep(2.0)
        await relay.stop()
        relay = await start_relay(replace(relay_settings(db_path), port=port))
        await until(lambda: host.status == "connected", timeout=10)
        room = relay.app[HALL].rooms[code]  # type: ignore[index]
        await until(lambda: room._clock_json().keys() == before.keys())
        for seat, left in room._clock_json().items():
            assert before[seat] - 10 < left <= before[seat] - 1.5, (before, room._clock_json())
    finally:
        for c in made:
            await c.close()
        await relay.stop()


# --- bad input ------------------------------------------------------------------------------


async def test_every_kind_of_bad_input_gets_a_clear_error_and_changes_nothing(
    relay: RunningRelay, clients: list[RelayClient]
) -> None:
    host, guest = await pair(relay, clients, TOY, {"rounds": 3})
    other_host = await new_client(relay, clients)
    other = await other_host.create(TOY)
    assert host.room is not None
    before = match_record(relay, host.room)
    cases = [
        ("{not json", "malformed"),
        ("[1, 2]", "malformed"),
        ('{"type": "teleport"}', "unknown_type"),
        ('{"type": "act"}', "bad_message"),
        ('{"type": "act", "action": "aim 1", "seat": 1}', "bad_message"),  # no choosing another seat
        ('{"type": "act", "action": 7}', "bad_message"),
        ('{"type": "chat", "text": "' + "x" * 600 + '"}', "bad_message"),
        (json.dumps({"type": "chat", "text": "y" * (MAX_FRAME_BYTES + 10)}), "too_big"),
        ('{"type": "join", "room": "ABCDEF"}', "not_now"),  # already in a room
        ('{"type": "rematch"}', "not_now"),  # the match is not over
        ('{"type": "claim", "take": "win"}', "not_now"),  # nobody abandoned
        ('{"type": "spectators", "allow": false}', "not_host"),
    ]
    for frame, code in cases:
        await guest.send_raw(frame)
        msg = await guest.next("error", "refused")
        assert msg["type"] == "error" and msg["code"] == code, (frame[:60], msg)
        assert msg["message"]
    # Out of turn and illegal actions are refused by the rules, with their reason.
    await guest.act("aim 1")
    refused = await guest.next("refused")
    assert "does not decide" in refused["reason"] or "not a legal" in refused["reason"]
    await guest.act("dive 9")
    assert "not an action" in (await guest.next("refused"))["reason"]
    # A stolen token: the other room's host token does not open this room, nor this room's seats.
    thief = await new_client(relay, clients)
    with pytest.raises(RelayError) as caught:
        await thief.resume(host.room, other["token"])
    assert caught.value.code == "bad_token"
    assert match_record(relay, host.room) == before
    assert guest.connected and host.connected


async def test_oversize_frames_are_refused_and_huge_ones_close_the_connection(relay: RunningRelay) -> None:
    session, ws = await raw_socket(relay)
    try:
        await answer(ws, json.dumps({"type": "hello", "version": PROTOCOL_VERSION}))
        err = await answer(ws, json.dumps({"type": "chat", "text": "z" * (MAX_FRAME_BYTES * 2)}))
        assert err["code"] == "too_big"
        # 32 KiB exactly is not over the limit: refused, the connection stays open.
        at_limit = json.dumps({"type": "chat", "text": ""})
        at_limit = at_limit[:-2] + "z" * (MAX_FRAME_BYTES * 4 - len(at_limit)) + '"}'
        assert len(at_limit.encode()) == MAX_FRAME_BYTES * 4
        assert (await answer(ws, at_limit))["code"] == "too_big"
        await ws.send_str("q" * (MAX_FRAME_BYTES * 4 + 1))
        msg = await ws.receive(timeout=5)
        assert msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING)
        assert ws.close_code == aiohttp.WSCloseCode.MESSAGE_TOO_BIG
    finally:
        await session.close()


async def test_an_unsupported_protocol_version_is_told_so_and_closed(relay: RunningRelay) -> None:
    session, ws = await raw_socket(relay)
    try:
        first = await answer(ws, json.dumps({"type": "create", "game": TOY}))
        assert first["code"] == "not_ready"
        err = await answer(ws, json.dumps({"type": "hello", "version": PROTOCOL_VERSION + 1}))
        assert err["code"] == "version" and f"version {PROTOCOL_VERSION}" in err["message"]
        assert (await ws.receive(timeout=5)).type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
    finally:
        await session.close()


async def test_flooding_is_rate_limited_per_connection_then_cut_off(db_path: Path) -> None:
    relay = await start_relay(replace(relay_settings(db_path), message_rate=5, message_burst=10, flood_strikes=30))
    session, ws = await raw_socket(relay)
    try:
        await answer(ws, json.dumps({"type": "hello", "version": PROTOCOL_VERSION}))
        for _ in range(60):
            await ws.send_str('{"type": "ping"}')
        kinds = []
        while True:
            msg = await ws.receive(timeout=5)
            if msg.type != aiohttp.WSMsgType.TEXT:
                break
            data = json.loads(msg.data)
            kinds.append(data.get("code", data["type"]))
        assert kinds.count("pong") <= 11  # the burst, and not one more
        assert "rate_limited" in kinds
        assert ws.closed or msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
    finally:
        await session.close()
        await relay.stop()


async def test_spectating_and_resuming_are_limited_per_address(db_path: Path) -> None:
    """Relay audit 2, measurements: each spectate or resume sends a whole snapshot (tens of kB late
    in a long match), so an address watching and leaving in a loop could load the relay far more
    than its message limit suggests. Entries are limited per address; other addresses and the
    players' own messages are not affected."""
    relay = await start_relay(replace(relay_settings(db_path), entries_per_minute=3))
    made: list[RelayClient] = []
    try:
        host, guest = await pair(relay, made)
        code = host.room or ""
        watcher = await new_client(relay, made)
        for _ in range(2):
            await watcher.spectate(code)
            await watcher.leave()
        await guest.drop()  # the guest's own client resumes: the third entry of the address
        await until(lambda: guest.connected and guest.status == "connected")
        with pytest.raises(RelayError) as refused:
            await watcher.spectate(code)
        assert refused.value.code == "rate_limited" and "a minute" in refused.value.message
        await host.act((host.view or {})["legal"][0], ply=host.seq)  # playing is not held up
        await until(lambda: guest.seq == host.seq)
    finally:
        for client in made:
            await client.close()
        await relay.stop()


async def test_connections_and_code_guesses_are_limited_per_address(db_path: Path) -> None:
    relay = await start_relay(
        replace(relay_settings(db_path), ip_connections=3, guesses_per_minute=4, rooms_per_minute=2)
    )
    made: list[RelayClient] = []
    try:
        guesser = await new_client(relay, made)
        codes = []
        for code in ("AAAAAA", "BBBBBB", "CCCCCC", "DDDDDD", "EEEEEE"):
            with pytest.raises(RelayError) as caught:
                await guesser.join(code)
            codes.append(caught.value.code)
        assert codes[:4] == ["no_room"] * 4 and codes[4] == "rate_limited"
        # A create refused for its game or its options makes no room and spends no budget.
        for game, options in (("no-such-game", {}), ("pawn-soccer", {"goals": "many"})):
            with pytest.raises(RelayError) as bad:
                await guesser.create(game, options)
            assert bad.value.code == "bad_game"
        await guesser.create(TOY)
        await guesser.leave()
        await guesser.create(TOY)
        await guesser.leave()
        with pytest.raises(RelayError) as spam:
            await guesser.create(TOY)
        assert spam.value.code == "rate_limited"
        await new_client(relay, made)
        await new_client(relay, made)
        with pytest.raises(RelayError) as refused:
            await new_client(relay, made)
        assert refused.value.code in ("rate_limited", "closed")
    finally:
        for c in made:
            await c.close()
        await relay.stop()


async def test_a_create_refused_as_server_busy_spends_no_room_budget(db_path: Path) -> None:
    """A full relay makes no room, so the address's budget of rooms is untouched: once a slot
    frees, the address may create as many rooms as before (the app retries server_busy)."""
    relay = await start_relay(replace(relay_settings(db_path), max_rooms=1, rooms_per_minute=2))
    made: list[RelayClient] = []
    try:
        first = await new_client(relay, made)
        await first.create(TOY)
        waiting = await new_client(relay, made)
        for _ in range(3):
            with pytest.raises(RelayError) as busy:
                await waiting.create(TOY)
            assert busy.value.code == "server_busy"
        await first.leave()  # the room is closed: its slot is free
        await waiting.create(TOY)  # the second room of the address's two
        await waiting.leave()
        with pytest.raises(RelayError) as spent:
            await waiting.create(TOY)
        assert spent.value.code == "rate_limited"
    finally:
        for c in made:
            await c.close()
        await relay.stop()


async def test_behind_a_proxy_limits_count_per_forwarded_address(db_path: Path) -> None:
    relay = await start_relay(replace(relay_settings(db_path), ip_connections=1, trust_proxy=True))
    hello = json.dumps({"type": "hello", "version": PROTOCOL_VERSION})
    try:
        async with aiohttp.ClientSession() as session:
            first = await session.ws_connect(relay.url, headers={"X-Real-IP": "198.51.100.1"})
            second = await session.ws_connect(relay.url, headers={"X-Real-IP": "198.51.100.2"})
            third = await session.ws_connect(relay.url, headers={"X-Real-IP": "198.51.100.1"})
            assert (await answer(first, hello))["type"] == "welcome"
            assert (await answer(second, hello))["type"] == "welcome"
            refused = json.loads((await third.receive(timeout=5)).data)
            assert refused["code"] == "rate_limited"
            for ws in (first, second, third):
                await ws.close()
    finally:
        await relay.stop()


async def test_a_silent_client_is_dropped_by_the_heartbeat_and_its_seat_waits(db_path: Path) -> None:
    """A client whose network went away answers no ping: the relay notices within a heartbeat or two."""
    relay = await start_relay(replace(relay_settings(db_path), heartbeat=0.3))
    made: list[RelayClient] = []
    try:
        host = await new_client(relay, made, "Host")
        joined = await host.create(TOY, seat=0)
        async with aiohttp.ClientSession() as session:
            ghost = await session.ws_connect(relay.url, autoping=False)  # will never answer a ping
            await ghost.send_str(json.dumps({"type": "hello", "version": PROTOCOL_VERSION}))
            await ghost.send_str(json.dumps({"type": "join", "room": joined["room"], "name": "Ghost"}))
            await until(lambda: len(host.players) == 2 and host.players[1]["connected"])
            await until(lambda: not host.players[1]["connected"], timeout=5)
            assert host.players[1]["name"] == "Ghost"  # the seat is kept for its token
            await ghost.close()
    finally:
        for c in made:
            await c.close()
        await relay.stop()


class StuckSocket:
    """A WebSocket whose client reads nothing: every send waits for ever."""

    def __init__(self) -> None:
        self.sent = 0
        self.closed_with: int | None = None

    async def send_str(self, text: str) -> None:
        self.sent += 1
        await asyncio.Event().wait()

    async def close(self, code: int, message: bytes) -> bool:
        self.closed_with = code
        return True


async def test_a_client_that_reads_nothing_is_cut_off_instead_of_filling_memory() -> None:
    stuck = StuckSocket()
    conn = Connection(stuck, "192.0.2.1", replace(RelaySettings(), send_queue=5))  # type: ignore[arg-type]
    conn.send('{"type":"pong"}')
    await asyncio.sleep(0)  # the writer takes it and waits for the client, which never reads
    for _ in range(50):
        conn.send('{"type":"pong"}')
    await asyncio.sleep(0.01)
    assert stuck.closed_with == 1008  # hung up at once, not after the backlog
    assert stuck.sent == 1 and conn._queue.qsize() <= 5  # nothing more was queued
    await conn.finish()


class DeafClient:
    """A WebSocket client on a raw socket with a tiny receive buffer: after its first
    messages it reads nothing at all (a frozen app whose machine still acknowledges TCP)."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.unread = b""

    @classmethod
    async def connect(cls, relay: RunningRelay) -> DeafClient:
        loop = asyncio.get_running_loop()
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.setblocking(False)
        await loop.sock_connect(sock, (relay.host, relay.port))
        key = base64.b64encode(os.urandom(16)).decode()
        await loop.sock_sendall(
            sock,
            f"GET /ws HTTP/1.1\r\nHost: {relay.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode(),
        )
        client = cls(sock)
        while b"\r\n\r\n" not in client.unread:
            client.unread += await loop.sock_recv(sock, 4096)
        assert client.unread.startswith(b"HTTP/1.1 101"), client.unread
        client.unread = client.unread.split(b"\r\n\r\n", 1)[1]
        return client

    async def send(self, msg: dict[str, Any]) -> None:
        data, mask = json.dumps(msg).encode(), os.urandom(4)
        assert len(data) < 126
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        await asyncio.get_running_loop().sock_sendall(self.sock, bytes([0x81, 0x80 | len(data)]) + mask + masked)

    async def receive(self, kind: str) -> dict[str, Any]:
        """Read frames (text frames under 64 KiB only) until one of type ``kind``."""
        while True:
            while len(self.unread) < 4 or len(self.unread) < 4 + self._length():
                more = await asyncio.get_running_loop().sock_recv(self.sock, 65536)
                assert more, "the relay hung up"
                self.unread += more
            size = self._length()
            frame, self.unread = self.unread[4 : 4 + size], self.unread[4 + size :]
            msg = json.loads(frame)
            if msg["type"] == kind:
                return dict(msg)

    def _length(self) -> int:
        size = self.unread[1] & 0x7F
        if size < 126:  # a two-byte header: put it in the four-byte shape
            self.unread = self.unread[:2] + b"\x00\x00" + self.unread[2:]
            self.unread = self.unread[:1] + bytes([126]) + size.to_bytes(2, "big") + self.unread[4:]
            return size
        assert size == 126
        return int.from_bytes(self.unread[2:4], "big")

    def close(self) -> None:
        self.sock.close()


async def test_a_client_that_reads_nothing_counts_as_away_at_once(
    db_path: Path, clients: list[RelayClient], caplog: pytest.LogCaptureFixture
) -> None:
    """Once its frames pile up behind a full socket, the client is cut off for real: its opponent
    is told at once that the seat is away (the abandonment countdown may start), instead of a
    close frame waiting behind the backlog for ever with the heartbeat stopped."""
    relay = await start_relay(relay_settings(db_path, send_queue=50, heartbeat=60.0))
    deaf = await DeafClient.connect(relay)
    try:
        await deaf.send({"type": "hello", "version": PROTOCOL_VERSION})
        await deaf.send({"type": "create", "game": TOY, "seat": 0, "name": "Frozen"})
        code = (await deaf.receive("joined"))["room"]
        await deaf.receive("snapshot")
        # The relay's side of the socket gets a small buffer too, so that it fills quickly.
        for conn in relay.app[CONNECTIONS]:
            conn.ws.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        guest = await new_client(relay, clients, "Guest")
        await guest.join(code)
        await until(lambda: guest.players and guest.players[0]["connected"])
        line = "x" * 480
        for i in range(2000):  # about 1 MB, far more than both socket buffers hold
            await guest.chat(f"{i} {line}")
            if i % 20 == 0:
                await asyncio.sleep(0.01)
            if "does not read" in caplog.text:
                break
        else:
            raise AssertionError("the relay never gave up on the client that reads nothing")
        await until(lambda: not guest.players[0]["connected"], timeout=3.0)
        assert relay.app[LIMITS].connections == {"127.0.0.1": 1}  # the guest's only
    finally:
        deaf.close()
        await relay.stop()
