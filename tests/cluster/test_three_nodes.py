"""Nodes on one Redis, wired as the relay is to be (``Node`` below does what relay.py will do
with a client's message): players and a spectator on different nodes play whole matches of a
real game; the owner dies mid-match and a living node takes the room over from Redis."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator
from typing import Any

import pytest

pytest.importorskip("redis", reason="the redis package is not installed (pip install redis)")

from redis.asyncio import Redis  # noqa: E402
from redis_helpers import Connection, RedisServer  # noqa: E402

from server.cluster import Cluster, RemoteRoom, cancel_and_wait  # noqa: E402
from server.rooms import Player, Room, RoomSettings, dispatch  # noqa: E402
from server.store import RoomStore  # noqa: E402
from soccerdesk.net.protocol import ProtocolError, error  # noqa: E402
from soccerdesk.rules import GAMES, get_game  # noqa: E402

GAME = "soccer-go" if "soccer-go" in GAMES else next(iter(GAMES))
CODE = "PQRSTU"


class Node:
    """One relay node, as far as rooms go: its own rooms run here, others are forwarded."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        self.journal = cluster.journal
        self.rooms: dict[str, Room] = {}
        self.clients: list[Connection] = []
        cluster.bus.on_forward = self.forwarded

    @classmethod
    async def start(cls, url: str, name: str) -> Node:
        cluster = Cluster(Redis.from_url(url, socket_timeout=1.0, socket_connect_timeout=1.0), node=name, ttl=0.6)
        await cluster.start()
        return cls(cluster)

    async def forwarded(self, code: str, body: dict[str, Any]) -> None:
        await self.cluster.handle_forward(self.rooms[code], body)

    def connect(self, name: str) -> Connection:
        """A client connecting to this node (its frames wait for this node's writes)."""
        client = Connection(name, self.journal.durable)
        self.clients.append(client)
        return client

    async def create(self, client: Connection) -> Room:
        assert await self.cluster.claim_new(CODE)
        game = get_game(GAME)
        room = self.rooms[CODE] = Room(CODE, game, game.resolve_options({}), RoomSettings(), self.journal)  # type: ignore[arg-type]
        room.seat_host(client, client.name, 0)
        return room

    async def enter(self, client: Connection, msg: dict[str, Any]) -> Room | RemoteRoom:
        """join / resume / spectate: the room here if this node owns it or takes it over, else forwarded."""
        room: Room | RemoteRoom | None = self.rooms.get(CODE)
        if room is None:
            loaded = await self.cluster.wait_claim(CODE)
            if loaded is not None:
                room = self.rooms[CODE] = Room.from_doc(*loaded, self.journal)  # type: ignore[arg-type]
            else:
                room = RemoteRoom(self.cluster.bus, CODE)
        self.message(room, client, msg)
        return room

    def message(self, room: Room | RemoteRoom, client: Connection, msg: dict[str, Any]) -> None:
        try:
            dispatch(room, client, msg)
        except ProtocolError as exc:
            client.send(error(exc.code, exc.message))

    async def die(self) -> None:
        """As a SIGKILL looks from Redis: renewals stop, connections close, nothing is released."""
        await cancel_and_wait(self.cluster._tasks)
        self.cluster._tasks.clear()  # dead: the fixture does not stop it again
        await self.cluster.bus.stop()
        await self.cluster.limits.stop()
        await self.cluster.journal.stop()
        await self.cluster.redis.aclose()

    async def quiet(self) -> None:
        await self.journal.flush()
        await self.cluster.bus.flush()
        for client in self.clients:
            await client.drained()


@pytest.fixture
async def nodes(redis_server: RedisServer) -> AsyncIterator[list[Node]]:
    made = [await Node.start(redis_server.url, name) for name in ("a", "b", "c")]
    yield made
    for node in made:
        for client in node.clients:
            client.stop()
        if node.cluster._tasks:
            await node.cluster.stop()


async def settle(nodes: list[Node], room: Room, clients: list[Connection]) -> None:
    """Until every client has the view of the room's latest ply."""
    for _ in range(500):
        for node in nodes:
            await node.quiet()
        if all((v := c.last_view()) is not None and v["ply"] == room.state.ply for c in clients):
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"frames did not arrive: {[c.last_view() and c.last_view()['ply'] for c in clients]}")


def choose(client: Connection, rng: random.Random) -> dict[str, Any]:
    """An act message chosen from the client's own latest view only."""
    view = client.last_view()
    assert view is not None and view["legal"], f"{client.name}'s frames say what it may play"
    return {"type": "act", "action": rng.choice(view["legal"]), "ply": view["ply"]}


async def play(
    nodes: list[Node],
    room: Room,
    seats: list[tuple[Node, Room | RemoteRoom, Connection]],
    watchers: list[Connection],
    rng: random.Random,
    plies: int | None = None,
) -> None:
    """Each seat plays from its own node, from its own frames, until the end (or ``plies``)."""
    clients = [client for _, _, client in seats] + watchers
    while not room.state.is_terminal() and (plies is None or room.state.ply < plies):
        to_move = room.state.current_players()
        for seat in (1, 0):
            if seat in to_move:
                node, where, client = seats[seat]
                node.message(where, client, choose(client, rng))
        await settle(nodes, room, clients)


def check_views(game: Any, room: Room, seats: list[tuple[Connection, int | None]], since: int = 0) -> None:
    """Every view each client got is its own seat's view of that ply, as the record replays it."""
    states = game.replay(game.dump(room.state))
    for client, seat in seats:
        for frame in client.views():
            if frame["seq"] >= since:
                assert frame["view"] == json.loads(json.dumps(states[frame["seq"]].view(seat))), (seat, frame["seq"])
        assert all(f["type"] != "error" for f in client.frames), client.frames


async def test_players_on_two_nodes_and_a_spectator_on_a_third(nodes: list[Node]) -> None:
    a, b, c = nodes
    host, guest, spectator = a.connect("Host"), b.connect("Guest"), c.connect("Spectator")
    room = await a.create(host)
    guest_room = await b.enter(guest, {"type": "join", "room": CODE, "name": "Guest"})
    spectator_room = await c.enter(spectator, {"type": "spectate", "room": CODE})
    assert isinstance(guest_room, RemoteRoom) and isinstance(spectator_room, RemoteRoom)
    await settle(nodes, room, [host, guest, spectator])
    assert guest.frames[0]["type"] == "joined" and guest.frames[0]["seat"] == 1 and guest.frames[0]["token"]
    assert spectator.frames[0]["type"] == "joined" and spectator.frames[0]["token"] is None

    await play(nodes, room, [(a, room, host), (b, guest_room, guest)], [spectator], random.Random(11))

    assert sum(1 for seat, _ in room.state.history() if seat == 1) > 10  # the guest did play
    for client in (host, guest, spectator):
        assert [f["result"] for f in client.frames if f["type"] == "finished"] == [room.result]
    check_views(get_game(GAME), room, [(host, 0), (guest, 1), (spectator, None)])
    assert not any(f.get("token") for f in spectator.frames)
    loaded = await a.cluster.store.load_room(CODE)
    assert loaded is not None
    assert loaded[1] == [[seat, str(action)] for seat, action in room.state.history()]


async def test_the_owner_dies_mid_match_and_another_node_takes_over(nodes: list[Node]) -> None:
    a, b, c = nodes
    host, guest = a.connect("Host"), b.connect("Guest")
    room = await a.create(host)
    guest_room = await b.enter(guest, {"type": "join", "room": CODE, "name": "Guest"})
    await settle(nodes, room, [host, guest])
    rng = random.Random(5)
    await play(nodes, room, [(a, room, host), (b, guest_room, guest)], [], rng, plies=40)
    acknowledged = [[seat, str(action)] for seat, action in room.state.history()]

    # Node a dies. The guest's next move is heard by nobody: node b closes its connection
    # (server_busy, the app reconnects by itself).
    await a.die()
    b.message(
        guest_room, guest, choose(guest, rng) if 1 in room.state.current_players() else {"type": "chat", "text": "hi"}
    )
    await b.quiet()
    assert guest.closed is not None and guest.closed[0] == "server_busy"

    # Both reconnect through the load balancer with their tokens: the guest to node b, which takes
    # the room over from Redis once a's lease has lapsed; the host to node c, which forwards to b.
    guest2, host2 = b.connect("Guest"), c.connect("Host")
    took = await b.enter(guest2, {"type": "resume", "room": CODE, "token": guest.token(), "match": 1, "seq": 0})
    assert isinstance(took, Room) and b.cluster.leases.fence(CODE) == 2
    assert [[s, str(x)] for s, x in took.state.history()] == acknowledged  # nothing acknowledged lost
    host_room = await c.enter(host2, {"type": "resume", "room": CODE, "token": host.token(), "match": 1, "seq": 0})
    assert isinstance(host_room, RemoteRoom)
    await settle([b, c], took, [host2, guest2])
    assert host2.frames[0]["seat"] == 0 and guest2.frames[0]["seat"] == 1

    await play([b, c], took, [(c, host_room, host2), (b, took, guest2)], [], rng)
    assert [f["result"] for f in host2.frames if f["type"] == "finished"] == [took.result]
    check_views(get_game(GAME), took, [(host2, 0), (guest2, 1)])

    # The record is the one a single relay would have made of the same moves: the same players'
    # moves, fed to one room with the same seeds, give the same record, dice included.
    loaded = await b.cluster.store.load_room(CODE)
    assert loaded is not None
    doc, record = loaded
    assert record == [[seat, str(action)] for seat, action in took.state.history()]
    game = get_game(GAME)
    single = Room(CODE, game, doc["options"], RoomSettings(), RoomStore(":memory:"))
    single.chance_seed = doc["chance_seed"]
    single.state = game.new_match(seed=doc["record_seed"], **doc["options"])
    single.started = True
    seats = [b.connect("one"), b.connect("two")]
    single.seats = [Player("x", "one", True, seats[0]), Player("y", "two", False, seats[1])]
    single._advance([])
    for seat, action in record:
        if seat >= 0:
            single.act(seats[seat], action, None)
    assert [[s, str(x)] for s, x in single.state.history()] == record
