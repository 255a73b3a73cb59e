"""What a hostile client found (issue 16), each finding reproduced against a real relay on loopback."""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import random
import sqlite3
import stat
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from relay_helpers import TOY, calls_of, new_client, pair, relay_settings, unload_room, until

from server import rooms as rooms_module
from server.guessing import tokens_key
from server.relay import CONNECTIONS, HALL, LIMITS, SHARED_LIMITS, STORE, RunningRelay, address_group, start_relay
from server.rooms import Room
from server.store import RoomStore
from server.thinker import Thinker
from soccerdesk.bots import RandomBot
from soccerdesk.net.client import RelayClient, RelayError
from soccerdesk.net.protocol import CLIENT_MESSAGES, PROTOCOL_VERSION, encode

HELLO = json.dumps({"type": "hello", "version": PROTOCOL_VERSION})


async def receive(ws: aiohttp.ClientWebSocketResponse, *kinds: str, timeout: float = 5.0) -> dict[str, Any]:
    """The next text message of one of ``kinds`` (others are skipped)."""
    async with asyncio.timeout(timeout):
        while True:
            msg = await ws.receive()
            assert msg.type == aiohttp.WSMsgType.TEXT, msg
            data: dict[str, Any] = json.loads(msg.data)
            if not kinds or data["type"] in kinds:
                return data


async def greeted(session: aiohttp.ClientSession, relay: RunningRelay) -> aiohttp.ClientWebSocketResponse:
    ws = await session.ws_connect(relay.url)
    await ws.send_str(HELLO)
    await receive(ws, "welcome")
    return ws


async def ping(ws: aiohttp.ClientWebSocketResponse) -> float:
    """Seconds from sending ``ping`` to its ``pong``."""
    start = time.perf_counter()
    await ws.send_str('{"type":"ping"}')
    await receive(ws, "pong")
    return time.perf_counter() - start


# --- 1. text that is not valid Unicode ------------------------------------------------------

LONE = "\\ud800"  # as JSON spells it: half of a UTF-16 surrogate pair, alone

SAMPLE: dict[str, dict[str, Any]] = {  # a valid value for every text field, so only the surrogate is wrong
    "hello": {"version": PROTOCOL_VERSION, "client": "x"},
    "create": {"game": TOY, "name": "x"},
    "join": {"room": "ABCDEF", "name": "x"},
    "resume": {"room": "ABCDEF", "token": "x" * 24},
    "spectate": {"room": "ABCDEF"},
    "act": {"action": "x"},
    "chat": {"text": "x"},
    "claim": {"take": "win"},
}
TEXT_FIELDS = [
    (kind, f.name) for kind, fields in CLIENT_MESSAGES.items() for f in fields if f.kind == "str" and kind in SAMPLE
]


def frame_with_lone_surrogate(kind: str, field: str) -> str:
    fields = dict(SAMPLE[kind])
    fields[field] = "evil-x"
    return encode(kind, **fields).replace("evil-x", "evil" + LONE)


def test_every_text_field_is_covered() -> None:
    assert {kind for kind, _ in TEXT_FIELDS} == set(SAMPLE)
    assert ("join", "name") in TEXT_FIELDS and ("chat", "text") in TEXT_FIELDS and ("create", "name") in TEXT_FIELDS


@pytest.mark.parametrize(
    "frame", ['{"type": "evil' + LONE + '"}', '{"type": "ping", "evil' + LONE + '": 1}'], ids=["type", "field name"]
)
async def test_a_lone_surrogate_in_the_type_or_a_field_name_is_refused_as_such(relay: RunningRelay, frame: str) -> None:
    async with aiohttp.ClientSession() as session:
        ws = await session.ws_connect(relay.url)
        await ws.send_str(HELLO)
        await receive(ws, "welcome")
        await ws.send_str(frame)
        refused = await receive(ws, "error")
        assert refused["code"] == "bad_message" and "not valid Unicode" in refused["message"], refused
        assert await ping(ws) < 5
        await ws.close()


@pytest.mark.parametrize(("kind", "field"), TEXT_FIELDS)
async def test_a_lone_surrogate_in_any_text_field_is_refused_and_the_room_keeps_talking(
    relay: RunningRelay, clients: list[RelayClient], kind: str, field: str
) -> None:
    host, guest = await pair(relay, clients)
    async with aiohttp.ClientSession() as session:
        ws = await session.ws_connect(relay.url)
        if kind != "hello":
            await ws.send_str(HELLO)
            await receive(ws, "welcome")
            if kind in ("act", "chat", "claim"):  # in a room, as a spectator
                await ws.send_str(encode("spectate", room=host.room))
                await receive(ws, "snapshot")
        await ws.send_str(frame_with_lone_surrogate(kind, field))
        refused = await receive(ws, "error")
        assert refused["code"] == "bad_message" and "not valid Unicode" in refused["message"], refused
        assert await ping(ws) < 5  # this connection still answers
        await ws.close()
    # ... and so does everyone in the room: a chat line reaches both players
    await guest.chat("still here")
    assert (await host.next("chat"))["text"] == "still here"


async def test_a_create_name_or_option_with_a_lone_surrogate_leaves_no_room(relay: RunningRelay) -> None:
    async with aiohttp.ClientSession() as session:
        ws = await greeted(session, relay)
        for frame in (
            frame_with_lone_surrogate("create", "name"),
            encode("create", game=TOY, options={"evil-x": 1}).replace("evil-x", "evil" + LONE),
            encode("create", game=TOY, options={"rounds": "evil-x"}).replace("evil-x", "evil" + LONE),
        ):
            await ws.send_str(frame)
            assert (await receive(ws, "error"))["code"] == "bad_message"
        await ws.close()
    assert not relay.app[HALL].rooms


async def test_a_frame_the_writer_cannot_send_closes_the_connection_loudly(
    relay: RunningRelay, clients: list[RelayClient]
) -> None:
    """Should text that cannot be sent get past the checks, the connection ends (1011), not goes silent."""
    host, guest = await pair(relay, clients)
    async with aiohttp.ClientSession() as session:
        ws = await session.ws_connect(relay.url)
        await ws.send_str(HELLO)
        await receive(ws, "welcome")
        await ws.send_str(encode("spectate", room=host.room))
        await receive(ws, "snapshot")
        room = relay.app[HALL].rooms[host.room or ""]
        (spectator,) = room.spectators
        spectator.send('{"type":"chat","seat":0,"name":"\ud800","text":"x"}')  # cannot be UTF-8
        async with asyncio.timeout(5):
            while (msg := await ws.receive()).type == aiohttp.WSMsgType.TEXT:
                pass
        assert msg.type == aiohttp.WSMsgType.CLOSE and msg.data == 1011
    await guest.chat("the players are not affected")
    assert (await host.next("chat"))["text"] == "the players are not affected"


async def test_stored_names_and_chat_are_cleaned_and_plain_tokens_hashed_when_a_room_is_loaded(
    db_path: Path, clients: list[RelayClient]
) -> None:
    """A database written by an older relay: a surrogate in a name and in chat, tokens in plain text."""
    relay = await start_relay(relay_settings(db_path))
    try:
        host, guest = await pair(relay, clients)
        code, token = host.room or "", guest.token or ""
        for client in (host, guest):
            client.reconnect = False
            await client.close()
    finally:
        await relay.stop()
    db = sqlite3.connect(db_path)
    doc = json.loads(db.execute("SELECT doc FROM rooms WHERE code = ?", (code,)).fetchone()[0])
    doc["seats"][1] = {"token": token, "name": "evil\ud800\u202e\nname", "host": False, "bot": False}
    doc["chat"] = [
        {"seat": 1, "name": "evil\ud800", "text": "hi\ud800\x00there"},
        {"seat": 1, "name": "x", "text": "\ud800"},
    ]
    with db:
        db.execute("UPDATE rooms SET doc = ? WHERE code = ?", (json.dumps(doc), code))  # \ud800 as JSON spells it
    db.close()
    relay = await start_relay(relay_settings(db_path))
    try:
        back = await new_client(relay, clients)
        await back.resume(code, token)
        snapshot = await back.next("snapshot")
        assert snapshot["players"][1]["name"] == "evil name"
        assert snapshot["chat"] == [{"seat": 1, "name": "evil", "text": "hi there"}]
        assert await back._request("ping", {"pong"})  # the connection talks
    finally:
        await relay.stop()
    stored = sqlite3.connect(db_path).execute("SELECT doc FROM rooms WHERE code = ?", (code,)).fetchone()[0]
    assert token not in stored and hashlib.sha256(token.encode()).hexdigest() in stored


# --- 2. room squatting ------------------------------------------------------------------------


async def test_rooms_left_empty_or_closed_hold_no_slot(db_path: Path) -> None:
    """Two addresses' worth of rooms made and left do not fill a small relay."""
    relay = await start_relay(replace(relay_settings(db_path), max_rooms=3))
    made: list[RelayClient] = []
    try:
        squatter = await new_client(relay, made)
        for _ in range(3):  # closed at once
            await squatter.create(TOY)
            await squatter.leave()
        for _ in range(3):  # left open, nobody in them
            lonely = await new_client(relay, made)
            await lonely.create(TOY)
            lonely.reconnect = False
            await lonely.close()
        await until(lambda: relay.app[HALL].live_rooms() == 0)
        host = await new_client(relay, made)
        await host.create(TOY)  # not server_busy
        assert len(relay.app[HALL].rooms) <= 3  # empty rooms made way in memory too
    finally:
        for c in made:
            await c.close()
        await relay.stop()


async def test_live_rooms_are_capped_and_so_are_rooms_loaded_from_the_store(db_path: Path) -> None:
    relay = await start_relay(replace(relay_settings(db_path), max_rooms=2))
    made: list[RelayClient] = []
    try:
        hosts = [await new_client(relay, made) for _ in range(3)]
        parked = await hosts[0].create(TOY)
        hosts[0].reconnect = False
        await hosts[0].close()  # the room is empty (not live), and stays in the store
        hall = relay.app[HALL]
        await until(lambda: hall.live_rooms() == 0)
        hall.sweep(idle_seconds=0, keep_seconds=86400)
        assert parked["room"] not in hall.rooms
        await hosts[1].create(TOY)
        await hosts[2].create(TOY)
        extra = await new_client(relay, made)
        with pytest.raises(RelayError) as busy:
            await extra.create(TOY)
        assert busy.value.code == "server_busy"
        with pytest.raises(RelayError) as reload:  # the cap holds for a room that must be reloaded too
            await extra.resume(parked["room"], parked["token"])
        assert reload.value.code == "server_busy" and parked["room"] not in hall.rooms
        await hosts[2].leave()  # a slot frees: the parked room comes back
        await extra.resume(parked["room"], parked["token"])
        assert hall.live_rooms() == 2
    finally:
        for c in made:
            await c.close()
        await relay.stop()


async def test_a_stored_match_is_replayed_in_a_worker_not_on_the_event_loop(
    relay: RunningRelay, clients: list[RelayClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    host, guest = await pair(relay, clients)
    token = guest.token or ""
    code = await unload_room(relay, [host, guest])
    replayed_in: list[threading.Thread] = []
    original = Room.from_doc.__func__  # type: ignore[attr-defined]

    def from_doc(cls: type[Room], *args: Any) -> Room:
        replayed_in.append(threading.current_thread())
        return original(cls, *args)

    monkeypatch.setattr(Room, "from_doc", classmethod(from_doc))
    back = await new_client(relay, clients)
    await back.resume(code, token)
    assert replayed_in and replayed_in[0] is not threading.main_thread()


async def test_a_slow_load_answers_server_busy_and_the_next_try_finds_the_room(
    relay: RunningRelay, clients: list[RelayClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    host, guest = await pair(relay, clients)
    token = guest.token or ""
    code = await unload_room(relay, [host, guest])
    original = Room.from_doc.__func__  # type: ignore[attr-defined]

    def slow_from_doc(cls: type[Room], *args: Any) -> Room:
        time.sleep(0.6)  # a long record replaying in the worker
        return original(cls, *args)

    monkeypatch.setattr(Room, "from_doc", classmethod(slow_from_doc))
    monkeypatch.setattr(relay.app[HALL], "load_budget", 0.2)
    back = await new_client(relay, clients)
    async with aiohttp.ClientSession() as session:
        bystander = await greeted(session, relay)
        with pytest.raises(RelayError) as busy:
            await back.resume(code, token)
        assert busy.value.code == "server_busy" and "being loaded" in busy.value.message
        assert await ping(bystander) < 0.3  # the loop was free all along
        await bystander.close()
    await until(lambda: code in relay.app[HALL].rooms)
    await back.resume(code, token)


@pytest.mark.parametrize(
    ("address", "group"),
    [
        ("2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"),
        ("2001:db8:1:2::1", "2001:db8:1:2::/64"),
        ("2001:db8:1:3::1", "2001:db8:1:3::/64"),
        ("::ffff:192.0.2.7", "192.0.2.7"),
        ("192.0.2.7", "192.0.2.7"),
        ("::1", "::1"),
        ("fe80::1%eth0", "fe80::/64"),
        ("unknown", "unknown"),
    ],
)
def test_ipv6_clients_are_counted_by_their_64_network(address: str, group: str) -> None:
    assert address_group(address) == group


async def test_the_limits_group_a_forwarded_ipv6_64(db_path: Path) -> None:
    relay = await start_relay(replace(relay_settings(db_path), ip_connections=1, trust_proxy=True))
    try:
        async with aiohttp.ClientSession() as session:
            first = await session.ws_connect(relay.url, headers={"X-Real-IP": "2001:db8:5:6::1"})
            same_64 = await session.ws_connect(relay.url, headers={"X-Real-IP": "2001:db8:5:6::2"})
            await first.send_str(HELLO)
            assert (await receive(first))["type"] == "welcome"
            assert (await receive(same_64))["code"] == "rate_limited"
            for ws in (first, same_64):
                await ws.close()
    finally:
        await relay.stop()


# --- 3. bots think off the event loop -----------------------------------------------------------


class SlowBot(RandomBot):
    """A bot that keeps the CPU busy (pure Python, holding the interpreter) before a random move."""

    seconds = 1.5

    def decide(self, state: Any, seat: int, rng: random.Random) -> Any:
        end = time.perf_counter() + self.seconds
        n = 0
        while time.perf_counter() < end:
            n += 1
        return super().decide(state, seat, rng)


async def bot_takes_seat_1(relay: RunningRelay, clients: list[RelayClient]) -> RelayClient:
    """Host against the relay's bot (the guest left; the host claimed a bot for its seat)."""
    host, guest = await pair(relay, clients, TOY, {"rounds": 20}, abandon_seconds=1)
    guest.reconnect = False
    await guest.drop()
    while not (await host.next("countdown"))["countdown"]["expired"]:
        pass
    await host.claim("bot")
    return host


async def test_a_slow_bot_does_not_delay_a_bystanders_ping(
    relay: RunningRelay, clients: list[RelayClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rooms_module, "_bot_for", lambda game_id: SlowBot(game_id))
    host = await bot_takes_seat_1(relay, clients)
    room = relay.app[HALL].rooms[host.room or ""]
    await until(lambda: room._thinking is not None)  # the bot owes its aim or dive now
    async with aiohttp.ClientSession() as session:
        bystander = await greeted(session, relay)
        started = time.perf_counter()
        pings = [await ping(bystander) for _ in range(10)]
        assert room._thinking is not None and time.perf_counter() - started < SlowBot.seconds  # still thinking
        await bystander.close()
    # A bot on the loop would hold a ping for the rest of its 1.5 s; in the worker, pings go on.
    assert max(pings) < SlowBot.seconds / 3 and sorted(pings)[5] < 0.1, pings


async def test_a_bot_out_of_time_plays_a_random_legal_move(
    db_path: Path, clients: list[RelayClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rooms_module, "_bot_for", lambda game_id: SlowBot(game_id))
    monkeypatch.setattr(SlowBot, "seconds", 3.0)
    relay = await start_relay(replace(relay_settings(db_path), bot_budget=0.3))
    try:
        host = await bot_takes_seat_1(relay, clients)
        room = relay.app[HALL].rooms[host.room or ""]
        before = room.state.ply
        await until(lambda: room._thinking is not None)
        started = time.perf_counter()
        await until(lambda: any(seat == 1 for seat, _ in room.state.history()[before:]), timeout=2.5)
        assert time.perf_counter() - started < 2.5  # well before the bot's 3 s
    finally:
        await relay.stop()


async def test_the_bots_moves_are_counted_against_the_address_that_set_them_going() -> None:
    spent: list[str] = []
    budget = {"198.51.100.9": 2}

    def charge(address: str) -> bool:
        if budget[address] <= 0:
            return False
        budget[address] -= 1
        spent.append(address)
        return True

    thinker = Thinker(workers=1, budget=5.0, charge=charge)
    try:
        assert await thinker.run(sum, [1, 2], address="198.51.100.9") == 3
        assert await thinker.run(sum, [3], address="198.51.100.9") == 3
        waiting = asyncio.create_task(thinker.run(sum, [4], address="198.51.100.9"))
        await asyncio.sleep(0.2)
        assert not waiting.done()  # the address has no message left: the bot waits for it
        budget["198.51.100.9"] = 1
        assert await waiting == 4
        assert spent == ["198.51.100.9"] * 3
        assert await thinker.run(sum, [5]) == 5  # work nobody set going is not charged
    finally:
        thinker.close()


async def test_a_long_replay_does_not_make_a_bot_wait_past_its_budget() -> None:
    thinker = Thinker(workers=1, budget=0.5)
    try:
        replay = asyncio.create_task(thinker.run(time.sleep, 1.0, budget=0))  # no budget: a replay
        await asyncio.sleep(0.05)
        assert await thinker.run(sum, [1, 2]) == 3  # would time out if it queued behind the replay
        await replay
    finally:
        thinker.close()


async def test_a_bot_driven_by_one_address_spends_its_message_budget(
    relay: RunningRelay, clients: list[RelayClient]
) -> None:
    host = await bot_takes_seat_1(relay, clients)
    limits = relay.app[LIMITS]
    bucket = limits.messages["127.0.0.1"]
    room = relay.app[HALL].rooms[host.room or ""]
    await until(lambda: room.state.current_players() == (0,) or 0 in room.state.current_players())
    before = bucket.available()
    ply = room.state.ply
    await host.act(room.state.view(0)["legal"][0], ply=ply)
    await until(lambda: room.state.ply > ply + 1 and room._thinking is None)
    # the host's act, and at least one bot move it caused, each took one message
    assert bucket.available() <= before - 2 + bucket.rate * 0.5


# --- 4. tokens hashed, database private ---------------------------------------------------------


async def test_tokens_are_stored_only_as_hashes(db_path: Path, clients: list[RelayClient]) -> None:
    relay = await start_relay(relay_settings(db_path))
    try:
        host, guest = await pair(relay, clients)
        tokens = [host.token or "", guest.token or ""]
    finally:
        await relay.stop()
    raw = b"".join(
        Path(f"{db_path}{suffix}").read_bytes() for suffix in ("", "-wal") if Path(f"{db_path}{suffix}").exists()
    )
    for token in tokens:
        assert token.encode() not in raw
        assert hashlib.sha256(token.encode()).hexdigest().encode() in raw


def test_the_database_is_created_private_and_an_older_one_is_tightened(tmp_path: Path) -> None:
    fresh = tmp_path / "new" / "relay.sqlite3"
    RoomStore(fresh).close()
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o600
    old = tmp_path / "old.sqlite3"
    RoomStore(old).close()
    for path in tmp_path.glob("old.sqlite3*"):
        os.chmod(path, 0o644)
    store = RoomStore(old)
    store.save_room("ABCDEF", {"x": 1})
    for path in tmp_path.glob("old.sqlite3*"):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    store.close()


# --- 5. wrong tokens limited per address and room -------------------------------------------------


async def test_a_nat_neighbour_guessing_tokens_locks_nobody_out(db_path: Path) -> None:
    relay = await start_relay(replace(relay_settings(db_path), guesses_per_minute=3))
    made: list[RelayClient] = []
    try:
        host, guest = await pair(relay, made)
        other_host, other_guest = await pair(relay, made)
        neighbour = await new_client(relay, made)  # the same address (127.0.0.1), as behind a NAT
        codes = []
        for i in range(5):
            with pytest.raises(RelayError) as caught:
                await neighbour.resume(host.room or "", f"guessed-token-{i:02d}")
            codes.append(caught.value.code)
        assert codes[:3] == ["bad_token"] * 3 and set(codes[3:]) == {"rate_limited"}
        # The owner of that very room, with the right token, still gets back in ...
        room, token = guest.room or "", guest.token or ""
        guest.reconnect = False
        await guest.close()
        back = await new_client(relay, made)
        await back.resume(room, token)
        # ... and a player of another room on the same address has a budget of its own.
        typist = await new_client(relay, made)
        with pytest.raises(RelayError) as typo:
            await typist.resume(other_host.room or "", "not-my-token-at-all")
        assert typo.value.code == "bad_token"
        await typist.resume(other_guest.room or "", other_guest.token or "")
    finally:
        for c in made:
            await c.close()
        await relay.stop()


async def test_a_right_resume_asks_no_limit_and_a_wrong_one_does(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whether a resume is answered rate_limited matters only when it is refused: the right code
    and token get in without asking the address's guesses (on a cluster node a look-up in Redis)."""
    relay = await start_relay(relay_settings(db_path))
    made: list[RelayClient] = []
    try:
        host, guest = await pair(relay, made)  # the guest's join asks: a room code may be guessed
        room, token = guest.room or "", guest.token or ""
        guest.reconnect = False
        await guest.close()
        asked = calls_of(relay.app[SHARED_LIMITS], "may_guess", monkeypatch)
        await (await new_client(relay, made)).resume(room, token)
        assert asked == []
        with pytest.raises(RelayError) as wrong:
            await (await new_client(relay, made)).resume(room, "not-the-token-of-anyone")
        assert wrong.value.code == "bad_token"
        assert asked == [("127.0.0.1",), (tokens_key("127.0.0.1", room),)]
    finally:
        for c in made:
            await c.close()
        await relay.stop()


# --- 6. hello timeout ------------------------------------------------------------------------------


async def test_a_connection_that_never_says_hello_is_closed(db_path: Path) -> None:
    relay = await start_relay(replace(relay_settings(db_path), hello_timeout=0.3))
    try:
        async with aiohttp.ClientSession() as session:
            silent = await session.ws_connect(relay.url)
            talker = await greeted(session, relay)
            told = await receive(silent, "error")
            assert told["code"] == "timeout" and "hello" in told["message"]
            assert (await silent.receive(timeout=5)).type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
            await asyncio.sleep(0.4)
            assert await ping(talker) < 5  # one that said hello stays
            await talker.close()
        await until(lambda: not relay.app[CONNECTIONS])
    finally:
        await relay.stop()


async def test_a_second_hello_is_refused_and_changes_nothing(relay: RunningRelay) -> None:
    async with aiohttp.ClientSession() as session:
        ws = await greeted(session, relay)
        await ws.send_str(json.dumps({"type": "hello", "version": 1}))
        refused = await receive(ws, "error")
        assert refused["code"] == "not_now" and f"protocol {PROTOCOL_VERSION}" in refused["message"]
        assert await ping(ws) < 5
        await ws.close()


# --- 7. names cleaned like chat ----------------------------------------------------------------------


async def test_names_are_one_line_of_visible_text(relay: RunningRelay, clients: list[RelayClient]) -> None:
    host = await new_client(relay, clients, "Ann\u202egro\x00ot\nline")
    joined = await host.create(TOY)
    guest = await new_client(relay, clients, "\u200b\u2028")  # nothing visible: the default name
    await guest.join(joined["room"])
    presence = await host.next("presence")
    assert [p["name"] for p in presence["players"]] == ["Ann gro ot line", "Guest"] or [
        p["name"] for p in presence["players"]
    ] == ["Guest", "Ann gro ot line"]


# --- 8. the ply rule ----------------------------------------------------------------------------------


async def test_an_act_for_a_future_ply_is_told_so(relay: RunningRelay, clients: list[RelayClient]) -> None:
    host, _ = await pair(relay, clients)
    view = host.view or {}
    await host.act(view["legal"][0], ply=view["ply"] + 3)
    refused = await host.next("refused")
    assert f"ply {view['ply'] + 3} has not been reached" in refused["reason"] and "moved on" not in refused["reason"]


async def test_a_decision_never_lands_on_a_position_it_was_not_made_for(
    relay: RunningRelay, clients: list[RelayClient]
) -> None:
    """Spot kicks: aim and dive are one simultaneous secret choice, then the relay deals a card."""
    host, guest = await pair(relay, clients)
    start = (host.view or {})["ply"]
    assert set((host.view or {})["to_move"]) == {0, 1}
    room = relay.app[HALL].rooms[host.room or ""]
    # Both choose at ply `start`; the host's lands first. The guest's, made for ply `start`,
    # does not land at `start + 1`: it is told it may send the same choice again.
    await host.act("aim 1", ply=start)
    await until(lambda: guest.seq == start + 1)
    guest.pending()
    resend = guest._resend
    guest._resend = lambda refused: False  # type: ignore[method-assign]  # see the relay's answer itself
    await guest.act("dive 2", ply=start)
    race = await guest.next("refused")
    assert f"chosen at ply {start}" in race["reason"] and f"again with ply {start + 1}" in race["reason"]
    assert race["again"] == start + 1
    assert room.state.ply == start + 1 and room.state.current_players() == (1,)
    # The client library sends such a choice again by itself and passes no refusal on.
    guest._resend = resend  # type: ignore[method-assign]
    await guest.act("dive 2", ply=start)
    await until(lambda: host.seq > start + 2)  # the kick was taken; the relay dealt the next card
    assert [m for m in guest.pending() if m["type"] == "refused"] == []
    assert (1, "dive 2") in [(seat, str(a)) for seat, a in room.state.history()[start : start + 2]]
    # A resend of the host's choice (ply `start`) is refused: its position changed since.
    host.pending()
    await host.act("dive 1", ply=start)
    refused = await host.next("refused")
    assert f"chosen at ply {start}" in refused["reason"] and "choose again" in refused["reason"]
    # A double click: the second act, for the ply the first one already answered, is refused.
    now = (guest.view or {})["ply"]
    legal = (guest.view or {})["legal"]
    await guest.act(legal[0], ply=now)
    await until(lambda: guest.seq == now + 1)
    guest.pending()
    await guest.act(legal[0], ply=now)
    assert "choose again" in (await guest.next("refused"))["reason"]
    assert room.state.ply == now + 1


# --- 9. updates as small as the change ----------------------------------------------------------------


async def test_soccer_go_sends_its_card_table_once_and_updates_are_patches(
    relay: RunningRelay, clients: list[RelayClient]
) -> None:
    host, guest = await pair(relay, clients, "soccer-go")
    frames: list[str] = []
    async with aiohttp.ClientSession() as session:
        ws = await greeted(session, relay)
        await ws.send_str(encode("spectate", room=host.room))
        snapshot = await receive(ws, "snapshot")
        assert snapshot["view"]["state"]["cards"]  # the whole table, once
        room = relay.app[HALL].rooms[host.room or ""]
        rng = random.Random(3)

        def settled() -> bool:  # both have the view, nothing in the background (no choice sent again)
            same = (host.view or {})["ply"] == room.state.ply == (guest.view or {})["ply"]
            return same and not host._background and not guest._background

        for _ in range(6):
            for client in (host, guest):
                view = client.view or {}
                if client.seat in view["to_move"] and view["legal"]:
                    ply = view["ply"]
                    await client.act(rng.choice(view["legal"]), ply=ply)
                    await until(lambda ply=ply: room.state.ply > ply and settled())  # type: ignore[misc]
        with_table = len(encode("update", view=room.state.view(None)))
        while (msg := await ws.receive(timeout=0.5)).type == aiohttp.WSMsgType.TEXT:
            frames.append(msg.data)
            if json.loads(msg.data)["type"] == "update" and json.loads(msg.data)["seq"] == room.state.ply:
                break
        await ws.close()
    updates = [json.loads(f) for f in frames if json.loads(f)["type"] == "update"]
    assert updates and all("view" not in u and "patch" in u for u in updates)
    assert all('"cards"' not in f for f in frames if '"update"' in f)
    assert max(len(f) for f in frames if '"update"' in f) < with_table / 3
    # The client library still hands the app the whole view, the one the relay computed.
    for client in (host, guest):
        assert client.view == room.state.view(client.seat)


async def test_a_version_2_connection_still_gets_whole_views(relay: RunningRelay, clients: list[RelayClient]) -> None:
    host, guest = await pair(relay, clients)
    async with aiohttp.ClientSession() as session:
        ws = await session.ws_connect(relay.url)
        await ws.send_str(json.dumps({"type": "hello", "version": 2}))
        await receive(ws, "welcome")
        await ws.send_str(encode("spectate", room=host.room))
        await receive(ws, "snapshot")
        await host.act((host.view or {})["legal"][0], ply=(host.view or {})["ply"])
        update = await receive(ws, "update")
        assert "patch" not in update and update["view"] == relay.app[HALL].rooms[host.room or ""].state.view(None)
        await ws.close()


# --- speed without losing anything: commits batched per turn of the loop --------------------------


async def test_an_update_is_sent_only_once_its_action_is_committed(
    relay: RunningRelay, clients: list[RelayClient], db_path: Path
) -> None:
    """Writes are committed once per turn of the event loop, and acknowledged only after that.

    Here the commit is held back 0.2 s: no update may overtake it.
    """
    host, guest = await pair(relay, clients)
    store = relay.app[STORE]

    def slow_schedule() -> None:
        if store._committed is None:
            loop = asyncio.get_running_loop()
            store._committed = loop.create_future()
            loop.call_later(0.2, store.flush)

    store._schedule = slow_schedule  # type: ignore[method-assign]
    seen: list[tuple[int, int]] = []

    def count_stored(msg: dict[str, Any]) -> None:
        if msg["type"] == "update":  # another connection to the file sees what the relay committed
            with sqlite3.connect(db_path) as db:
                stored = db.execute("SELECT COUNT(*) FROM actions WHERE code = ?", (host.room,)).fetchone()[0]
            seen.append((msg["seq"], stored))

    host.on_message = count_stored
    rng = random.Random(2)
    for _ in range(6):
        view = guest.view or {}
        if guest.seat in view["to_move"]:
            await guest.act(rng.choice(view["legal"]), ply=view["ply"])
        view = host.view or {}
        if host.seat in view["to_move"]:
            await host.act(rng.choice(view["legal"]), ply=view["ply"])
        await until(lambda: host.seq == guest.seq and bool(seen) and seen[-1][0] == host.seq)
    assert seen and all(stored >= seq for seq, stored in seen), seen
