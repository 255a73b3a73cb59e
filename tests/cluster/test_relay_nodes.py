"""Real relay processes (``python -m server --redis URL``) sharing a real ``redis-server``, played
by the app's own client (:class:`soccerdesk.net.client.RelayClient`, which reconnects and
resumes by itself): players on different nodes, a spectator on a third, the owner node killed
with SIGKILL mid-match, Redis killed and restarted mid-match, and nginx in front of two nodes."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

pytest.importorskip("redis", reason="the redis package is not installed (pip install redis)")

from redis_helpers import RedisServer, until  # noqa: E402
from test_nginx import RelayNode, serve_nginx  # noqa: E402

from server.redis_store import RedisRoomStore, as_text  # noqa: E402
from server.rooms import Player, Room, RoomSettings  # noqa: E402
from server.store import RoomStore  # noqa: E402
from soccerdesk.net.client import RelayClient, RelayError  # noqa: E402
from soccerdesk.net.protocol import PROTOCOL_VERSION  # noqa: E402
from soccerdesk.rules import GAMES, get_game  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
GAME = "soccer-go" if "soccer-go" in GAMES else next(iter(GAMES))
LEASE = 1.0  # seconds: a killed node's rooms move within about this


class Node(RelayNode):
    """``python -m server --redis URL`` on a free loopback port."""

    def __init__(self, redis_url: str, name: str) -> None:
        super().__init__(
            *("--redis", redis_url, "--node", name, "--lease-seconds", str(LEASE)),
            *("--message-rate", "500", "--ip-message-rate", "5000"),
        )
        self.name = name

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"


class Seat:
    """A player (or spectator) with the app's client, keeping every whole view it was sent."""

    def __init__(self, url: str, name: str) -> None:
        self.views: list[tuple[int, int, dict[str, Any]]] = []  # (match, seq, view)
        self.errors: list[dict[str, Any]] = []
        self.client = RelayClient(url, name=name, on_message=self._take, pauses=(0.2, 0.3, 0.5), heartbeat=5.0)

    def _take(self, msg: dict[str, Any]) -> None:
        if msg["type"] in ("snapshot", "update"):
            self.views.append((msg["match"], msg["seq"], msg["view"]))
        elif msg["type"] == "error":
            self.errors.append(msg)

    async def close(self) -> None:
        await self.client.close()


@pytest.fixture
def nodes(redis_server: RedisServer) -> Iterator[list[Node]]:
    made = [Node(redis_server.url, name) for name in ("a", "b", "c")]
    try:
        yield made
    finally:
        for node in made:
            node.kill()


async def start_match(host: Seat, guest: Seat) -> str:
    await host.client.connect()
    joined = await host.client.create(GAME, seat=0)
    code = str(joined["room"])
    await guest.client.connect()
    await guest.client.join(code)
    return code


async def play(players: list[Seat], rng: random.Random, plies: int | None = None) -> None:
    """Each player moves from its own latest view (and nothing else) until the end or ``plies``;
    once per view it was sent (a resumed seat's snapshot is a new view: it chooses again)."""
    sent: dict[int, int] = {}
    deadline = asyncio.get_running_loop().time() + 60.0
    while True:
        states = [p.client for p in players]
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(
                f"the match stalled: {[(c.status, c.seq, c.view and c.view.get('legal')) for c in states]}"
            )
        if all(c.result is not None for c in states) or (plies is not None and min(c.seq for c in states) >= plies):
            return
        for i, (p, c) in enumerate(zip(players, states, strict=True)):
            view = c.view
            if (
                c.status == "connected"
                and c.result is None
                and view is not None
                and view.get("legal")
                and sent.get(i) != len(p.views)
            ):
                sent[i] = len(p.views)
                await c.act(rng.choice(view["legal"]), ply=c.seq)
        await asyncio.sleep(0.005)


def check_views(record: dict[str, Any], seats: list[tuple[Seat, int | None]]) -> None:
    """Every view each client was sent is its own seat's view of that ply of the final record:
    nothing it was shown was lost or changed, and no seat saw more than its own view."""
    game = get_game(GAME)
    states = game.replay(record)
    for seat, which in seats:
        assert seat.views, "frames came"
        for match, seq, view in seat.views:
            assert match == 1
            assert view == json.loads(json.dumps(states[seq].view(which))), (which, seq)


async def stored(url: str, code: str) -> tuple[dict[str, Any], list[list[Any]]]:
    store = RedisRoomStore.from_url(url)
    try:
        loaded = await store.load_room(code)
    finally:
        await store.close()
    assert loaded is not None
    return loaded


def single_relay_record(doc: dict[str, Any], record: list[list[Any]]) -> list[list[Any]]:
    """The record one relay (SQLite, one process) makes of the same players' moves and seeds."""
    game = get_game(GAME)
    room = Room(doc["code"], game, doc["options"], RoomSettings(), RoomStore(":memory:"))
    room.chance_seed = doc["chance_seed"]
    room.state = game.new_match(seed=doc["record_seed"], **doc["options"])
    room.started = True

    class Quiet:
        def send(self, text: str) -> None:
            pass

        def close(self, code: str, message: str) -> None:
            pass

    peers = [Quiet(), Quiet()]
    room.seats = [Player("x", "one", True, peers[0]), Player("y", "two", False, peers[1])]
    room._advance([])
    for seat, action in record:
        if seat >= 0:
            room.act(peers[seat], action, None)
    return [[s, str(x)] for s, x in room.state.history()]


async def test_players_on_two_nodes_and_a_spectator_on_a_third(nodes: list[Node], redis_server: RedisServer) -> None:
    a, b, c = nodes
    host, guest, watcher = Seat(a.url, "Host"), Seat(b.url, "Guest"), Seat(c.url, "Watcher")
    try:
        code = await start_match(host, guest)
        await watcher.client.connect()
        joined = await watcher.client.spectate(code)
        assert joined["token"] is None and joined["seat"] is None
        await play([host, guest], random.Random(3))
        await until(lambda: watcher.client.record is not None, what="the spectator's record")
        record = host.client.record
        assert record is not None and record == guest.client.record == watcher.client.record
        assert sum(1 for seat, _ in record["actions"] if seat == 1) > 5  # the guest, on node b, did play
        check_views(record, [(host, 0), (guest, 1), (watcher, None)])
        assert not host.errors and not guest.errors and not watcher.errors
        doc, actions = await stored(redis_server.url, code)
        assert actions == record["actions"] and doc["result"] == host.client.result
    finally:
        for seat in (host, guest, watcher):
            await seat.close()


async def test_owner_killed_mid_match_players_resume_elsewhere(nodes: list[Node], redis_server: RedisServer) -> None:
    a, b, c = nodes
    host, guest = Seat(a.url, "Host"), Seat(b.url, "Guest")
    try:
        code = await start_match(host, guest)  # node a owns the room (it was created there)
        rng = random.Random(8)
        await play([host, guest], rng, plies=30)
        await until(lambda: host.client.seq == guest.client.seq, what="both at the same ply")
        _, before = await stored(redis_server.url, code)
        assert len(before) >= host.client.seq  # what was shown is stored

        host.client.url = c.url  # the load balancer sends the host's reconnection to node c
        a.kill()
        await play([host, guest], rng)  # both reconnect and resume by themselves, and finish

        record = host.client.record
        assert record is not None and record == guest.client.record
        assert record["actions"][: len(before)] == before  # nothing acknowledged was lost
        check_views(record, [(host, 0), (guest, 1)])
        doc, actions = await stored(redis_server.url, code)
        assert actions == record["actions"]
        assert single_relay_record(doc, actions) == actions
    finally:
        for seat in (host, guest):
            await seat.close()


async def test_redis_killed_and_restarted_mid_match(nodes: list[Node], redis_server: RedisServer) -> None:
    a, b, _ = nodes
    host, guest = Seat(a.url, "Host"), Seat(b.url, "Guest")
    try:
        code = await start_match(host, guest)
        rng = random.Random(21)
        await play([host, guest], rng, plies=20)
        redis_server.kill()  # SIGKILL: only what the append-only file holds comes back
        await asyncio.sleep(0.5)
        redis_server.start()
        await play([host, guest], rng)
        record = host.client.record
        assert record is not None and record == guest.client.record
        check_views(record, [(host, 0), (guest, 1)])  # every view shown is in the final record
        _, actions = await stored(redis_server.url, code)
        assert actions == record["actions"]
    finally:
        for seat in (host, guest):
            await seat.close()


@pytest.fixture
def nginx(tmp_path: Path, nodes: list[Node]) -> Iterator[int]:
    """nginx with the shipped configuration in front of nodes a and b; its port."""
    with serve_nginx(tmp_path, [node.port for node in nodes[:2]]) as port:
        yield port


@pytest.fixture
async def through(nginx: int) -> AsyncIterator[str]:
    url = f"ws://127.0.0.1:{nginx}/ws"
    probe = RelayClient(url, reconnect=False)
    try:
        for _ in range(100):  # nginx may need a moment to listen
            try:
                await probe.connect()
                break
            except RelayError:
                await asyncio.sleep(0.05)
    finally:
        await probe.close()
    yield url


async def test_nginx_create_kill_a_node_resume(through: str, nodes: list[Node], redis_server: RedisServer) -> None:
    host, guest = Seat(through, "Host"), Seat(through, "Guest")
    try:
        code = await start_match(host, guest)
        rng = random.Random(30)
        await play([host, guest], rng, plies=16)
        owner = await lease_holder(redis_server.url, code)
        next(node for node in nodes if node.name == owner).kill()
        await play([host, guest], rng)
        record = host.client.record
        assert record is not None and record == guest.client.record
        check_views(record, [(host, 0), (guest, 1)])
        assert await lease_holder(redis_server.url, code) != owner
    finally:
        for seat in (host, guest):
            await seat.close()


async def lease_holder(url: str, code: str) -> str:
    from redis.asyncio import Redis

    redis = Redis.from_url(url)
    try:
        value = await redis.get(f"soccerdesk:lease:{code}")
    finally:
        await redis.aclose()
    assert value is not None
    return as_text(value).rsplit(" ", 1)[0]


async def test_limits_hold_across_nodes(redis_server: RedisServer) -> None:
    """Rooms per minute from one address: counted in Redis, so two nodes together allow no more."""
    made = [
        RelayNode("--redis", redis_server.url, "--rooms-per-minute", "3", "--lease-seconds", str(LEASE))
        for _ in range(2)
    ]
    clients = [RelayClient(f"ws://127.0.0.1:{node.port}/ws", reconnect=False) for node in made for _ in range(2)]
    try:
        answers = []
        for client in clients:  # two on each node, one after another, from the same address
            await client.connect()
            try:
                answers.append((await client.create(GAME))["type"])
            except RelayError as exc:
                answers.append(exc.code)
        assert answers == ["joined", "joined", "joined", "rate_limited"]
    finally:
        for client in clients:
            await client.close()
        for node in made:
            node.kill()


async def test_redis_down_new_rooms_refused_then_back(nodes: list[Node], redis_server: RedisServer) -> None:
    a = nodes[0]
    client = RelayClient(a.url, reconnect=False)
    try:
        await client.connect()
        redis_server.kill()
        with pytest.raises(RelayError) as refused:
            await client.create(GAME)
        assert refused.value.code == "server_busy" and "database" in str(refused.value)
        async with aiohttp.ClientSession() as session:
            for _ in range(100):  # the node notices within a second or two
                async with session.get(f"http://127.0.0.1:{a.port}/health") as response:
                    if response.status == 503:
                        assert (await response.json())["redis"] == "down"
                        break
                await asyncio.sleep(0.1)
            else:
                raise AssertionError("/health did not say Redis is down")
            redis_server.start()
            for _ in range(100):  # and recovers by itself
                async with session.get(f"http://127.0.0.1:{a.port}/health") as response:
                    if response.status == 200:
                        break
                await asyncio.sleep(0.1)
        assert (await client.create(GAME))["type"] == "joined"
    finally:
        await client.close()


async def health_of(port: int, session: aiohttp.ClientSession) -> tuple[int, str]:
    async with session.get(f"http://127.0.0.1:{port}/health") as response:
        return response.status, str((await response.json())["redis"])


async def test_redis_refusing_writes_closes_the_room_with_server_busy_and_health_says_down(
    nodes: list[Node], redis_server: RedisServer
) -> None:
    """Relay audit 2, finding 3: Redis out of memory (``noeviction``) refuses the move's write.
    The move is not played; everyone in the room gets ``server_busy`` and close 1008 (not a bare
    1011), a ``resume`` meanwhile gets ``server_busy`` (not ``internal``), and ``/health`` says
    Redis is down (503) until it takes writes again; then the players resume where the match was."""
    import redis.asyncio as aioredis

    a = nodes[0]
    host, guest = Seat(a.url, "Host"), Seat(a.url, "Guest")
    redis = aioredis.from_url(redis_server.url)
    try:
        async with aiohttp.ClientSession() as session:
            code = await start_match(host, guest)
            rng = random.Random(4)
            await play([host, guest], rng, plies=6)
            before = host.client.seq
            async with session.ws_connect(a.url) as watcher:
                await watcher.send_json({"type": "hello", "version": PROTOCOL_VERSION})
                await watcher.send_json({"type": "spectate", "room": code})
                while (await watcher.receive_json(timeout=5))["type"] != "snapshot":
                    pass
                await redis.config_set("maxmemory-policy", "noeviction")
                await redis.config_set("maxmemory", 1)  # below what Redis holds: every write is refused
                mover = next(s.client for s in (host, guest) if s.client.seat in (s.client.view or {})["to_move"])
                await mover.act(rng.choice((mover.view or {})["legal"]), ply=before)
                said = await watcher.receive_json(timeout=10)
                while said["type"] in ("presence", "clock"):  # the spectator arriving
                    said = await watcher.receive_json(timeout=10)
                assert said["type"] == "error" and said["code"] == "server_busy", said  # no update before it
                assert (await watcher.receive()).type == aiohttp.WSMsgType.CLOSE and watcher.close_code == 1008
            for seat in (host, guest):
                await until(lambda seat=seat: any(e["code"] == "server_busy" for e in seat.errors), what="told")
            assert (await health_of(a.port, session)) == (503, "down")
            # The players' clients try to resume meanwhile: refused with server_busy, nothing else.
            await until(lambda: len(host.errors) >= 2, what="a resume refused")
            assert {e["code"] for e in host.errors + guest.errors} == {"server_busy"}
            assert host.client.seq == guest.client.seq == before

            await redis.config_set("maxmemory", 0)
            await until(lambda: host.client.status == guest.client.status == "connected", what="resumed")
            assert host.client.seq == guest.client.seq == before  # the refused move was not played
            for _ in range(50):  # the next probe's write goes through
                if await health_of(a.port, session) == (200, "up"):
                    break
                await asyncio.sleep(0.1)
            assert await health_of(a.port, session) == (200, "up")
            await play([host, guest], rng, plies=before + 4)
    finally:
        await redis.config_set("maxmemory", 0)
        await redis.aclose()
        for seat in (host, guest):
            await seat.close()


async def test_turn_clock_goes_on_after_a_takeover(nodes: list[Node]) -> None:
    """The turn clock is stored with the room: after the owner dies, the new owner runs what was
    left of the turn, not a fresh one."""
    a, b, c = nodes
    host, guest = Seat(a.url, "Host"), Seat(b.url, "Guest")
    try:
        await host.client.connect()
        code = str((await host.client.create(GAME, seat=0, turn_seconds=60))["room"])
        await guest.client.connect()
        await guest.client.join(code)
        await until(lambda: bool(host.client.clock), what="the clock starts")
        before, seen = dict(host.client.clock), len(host.views)
        await asyncio.sleep(3.0)
        host.client.url = c.url
        a.kill()
        await until(lambda: host.client.status == "reconnecting", what="the host notices")
        await until(lambda: len(host.views) > seen and bool(host.client.clock), what="resumed with a clock")
        after = host.client.clock
        assert after.keys() == before.keys()
        for who, left in after.items():
            assert left <= before[who] - 2.5, (before, after)  # about 3 s (and the takeover) went by
            assert left >= before[who] - 15, (before, after)
    finally:
        for seat in (host, guest):
            await seat.close()


async def test_a_player_on_another_node_resigns(nodes: list[Node], redis_server: RedisServer) -> None:
    """Match → Resign… through a cluster: the resigner is on a node that does not own the room.
    ``leave`` then ``resume`` cross to the owner in the order sent; both players get the result
    at once, the resigner keeps its seat (a rematch may be offered), and Redis holds the end."""
    a, b, _c = nodes
    host, guest = Seat(a.url, "Host"), Seat(b.url, "Guest")
    try:
        code = await start_match(host, guest)
        owner = await lease_holder(redis_server.url, code)
        resigner, winner = (guest, host) if owner == "a" else (host, guest)
        await play([host, guest], random.Random(5), plies=4)
        assert host.client.result is None
        await resigner.client.resign()
        for seat in (host, guest):
            await until(lambda seat=seat: seat.client.result is not None, what="the result")
            assert seat.client.result is not None
            assert seat.client.result["reason"] == "resigned"
            assert seat.client.result["winner"] == (0 if winner is host else 1)
        assert resigner.client.room == code and resigner.client.status == "connected"
        assert resigner.client.token is not None and not resigner.errors and not winner.errors
        await resigner.client.send("rematch")  # still seated: the room takes its offer
        await asyncio.sleep(0.3)
        assert not resigner.errors
        doc, actions = await stored(redis_server.url, code)
        assert doc["result"] == host.client.result and actions == host.client.record["actions"]
    finally:
        for seat in (host, guest):
            await seat.close()


class Visitor:
    """A raw WebSocket client of one node: what the relay answers each message, word for word."""

    def __init__(self, session: aiohttp.ClientSession, url: str) -> None:
        self.session, self.url = session, url
        self.ws: aiohttp.ClientWebSocketResponse | None = None

    async def open(self) -> Visitor:
        self.ws = await self.session.ws_connect(self.url)
        assert (await self.ask({"type": "hello", "version": PROTOCOL_VERSION}))["type"] == "welcome"
        return self

    async def ask(self, msg: dict[str, Any]) -> dict[str, Any]:
        """The answer to ``msg`` (``joined``, ``welcome``, ``pong`` or ``error``); a close fails the test."""
        assert self.ws is not None
        await self.ws.send_json(msg)
        while True:
            frame = await self.ws.receive(timeout=10)
            assert frame.type == aiohttp.WSMsgType.TEXT, f"the node hung up: {frame}"
            answer = json.loads(frame.data)
            if answer["type"] in ("joined", "welcome", "pong", "error"):
                return dict(answer)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


def two_nodes(redis_url: str, guesses_per_minute: int = 20) -> list[RelayNode]:
    """Nodes a and b, allowing ``guesses_per_minute`` wrong room codes (and tokens of each room)."""
    options = ("--redis", redis_url, "--lease-seconds", str(LEASE), "--guesses-per-minute", str(guesses_per_minute))
    return [RelayNode(*options, "--node", name) for name in ("a", "b")]


async def test_wrong_tokens_through_another_node_count_per_room_not_per_address(redis_server: RedisServer) -> None:
    """A wrong ``resume`` reaching the owner through another node is counted as on a single relay:
    against the address and room (then ``rate_limited``), not against the address's wrong room
    codes, which would lock everyone behind that address out of every room of the cluster."""
    a, b = made = two_nodes(redis_server.url, guesses_per_minute=3)
    visitors: list[Visitor] = []
    try:
        async with aiohttp.ClientSession() as session:

            async def visit(node: RelayNode) -> Visitor:
                visitors.append(await Visitor(session, f"ws://127.0.0.1:{node.port}/ws").open())
                return visitors[-1]

            guarded = await (await visit(a)).ask({"type": "create", "game": GAME, "seat": 0})
            other = await (await visit(a)).ask({"type": "create", "game": GAME, "seat": 0})
            wrong = {"type": "resume", "room": guarded["room"], "token": "x" * 24}
            answers = [(await (await visit(b)).ask(wrong))["code"] for _ in range(4)]
            assert answers == ["bad_token"] * 3 + ["rate_limited"]
            # The address's room codes are untouched: another room, and this one, may be entered.
            assert (await (await visit(b)).ask({"type": "join", "room": other["room"]}))["type"] == "joined"
            assert (await (await visit(b)).ask({"type": "spectate", "room": guarded["room"]}))["type"] == "joined"
            # The right token always gets in, limited or not.
            right = dict(wrong, token=guarded["token"])
            assert (await (await visit(b)).ask(right))["type"] == "joined"
    finally:
        for visitor in visitors:
            await visitor.close()
        for node in made:
            node.kill()


async def test_a_room_closed_before_anyone_joined_is_gone_through_every_node(redis_server: RedisServer) -> None:
    """docs/protocol.md, Leaving: a join, spectate or resume of a room its host closed gets
    ``no_room`` ("… is gone"), through a node that does not own the room as through its owner,
    and the connection stays open and free to enter another room (not ``server_busy`` and a
    close, which sends a client round in vain reconnecting to a room that is no more)."""
    a, b = made = two_nodes(redis_server.url)
    visitors: list[Visitor] = []
    try:
        async with aiohttp.ClientSession() as session:
            host = await Visitor(session, f"ws://127.0.0.1:{a.port}/ws").open()
            visitors.append(host)
            joined = await host.ask({"type": "create", "game": GAME, "seat": 0})
            assert host.ws is not None
            await host.ws.send_json({"type": "leave"})
            code = joined["room"]
            for node in (b, a):
                for msg in (
                    {"type": "join", "room": code},
                    {"type": "spectate", "room": code},
                    {"type": "resume", "room": code, "token": joined["token"]},
                ):
                    visitor = await Visitor(session, f"ws://127.0.0.1:{node.port}/ws").open()
                    visitors.append(visitor)
                    answer = await visitor.ask(msg)
                    assert answer["code"] == "no_room", (node.process.args, msg, answer)
                    assert answer["message"] == f"room {code} is gone: its host closed it before anyone joined"
                    # Still connected, and in no room (a refusal on a single relay leaves it so).
                    assert (await visitor.ask({"type": "create", "game": GAME}))["type"] == "joined"
    finally:
        for visitor in visitors:
            await visitor.close()
        for node in made:
            node.kill()


async def test_a_close_redis_refused_still_holds_and_nobody_enters_the_room_through_any_node(
    nodes: list[Node], redis_server: RedisServer
) -> None:
    """docs/protocol.md, Leaving: the host's close kills the room's code, also when Redis refuses
    the write. The owner dropped the room and it stayed stored open, so a spectator
    on another node resumed into it and a friend on a third joined a room its host had closed."""
    import redis.asyncio as aioredis

    a, b, c = nodes
    host, watcher, friend = Seat(a.url, "Host"), Seat(b.url, "Watcher"), Seat(c.url, "Friend")
    redis = aioredis.from_url(redis_server.url)
    try:
        await host.client.connect()
        code = str((await host.client.create(GAME, seat=0))["room"])
        await watcher.client.connect()
        await watcher.client.spectate(code)
        # No replica answers, so Redis refuses every write (NOREPLICAS): out of memory it would
        # not, as the room's save deletes before it writes, and Redis lets a script that began
        # writing finish.
        await redis.config_set("min-replicas-to-write", 1)
        await host.client.leave()  # the app's Cancel on the waiting screen: leave, then close
        await host.client.close()
        await until(lambda: bool(watcher.errors), what="the spectator is told")
        await redis.config_set("min-replicas-to-write", 0)
        await until(lambda: watcher.client.fatal_code is not None or watcher.client.status == "connected", what="end")
        assert watcher.client.fatal_code == "no_room", watcher.errors  # not back in the room
        await friend.client.connect()
        with pytest.raises(RelayError) as refused:
            await friend.client.join(code)
        assert refused.value.code == "no_room" and "is gone" in refused.value.message
    finally:
        await redis.config_set("min-replicas-to-write", 0)
        await redis.aclose()
        for seat in (host, watcher, friend):
            await seat.close()
