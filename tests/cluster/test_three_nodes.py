"""Three nodes on one Redis: the room runs on its owner (node a, where the host plays), the guest
plays from node b and a spectator watches from node c, both through the bus. The guest chooses
only from what its own frames show; every view each one gets is the one its seat may see."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator
from typing import Any

import pytest

pytest.importorskip("redis", reason="the redis package is not installed (pip install redis)")

from redis.asyncio import Redis  # noqa: E402
from redis_helpers import RedisServer  # noqa: E402

from server.cluster import Cluster, GatedPeer, Journal  # noqa: E402
from server.rooms import Room, RoomSettings  # noqa: E402
from soccerdesk.net.protocol import ProtocolError, error  # noqa: E402
from soccerdesk.rules import GAMES, get_game  # noqa: E402

GAME = "soccer-go" if "soccer-go" in GAMES else next(iter(GAMES))
CODE = "PQRSTU"


class Client:
    """A client's connection on its own node: the frames it was sent."""

    def __init__(self) -> None:
        self.version = 2
        self.ip = "198.51.100.9"
        self.frames: list[dict[str, Any]] = []

    def send(self, text: str) -> None:
        self.frames.append(json.loads(text))

    def close(self, code: str, message: str) -> None:
        self.frames.append({"type": "closed", "code": code})

    def last_view(self) -> dict[str, Any] | None:
        views = [f for f in self.frames if f["type"] in ("update", "snapshot")]
        return views[-1]["view"] if views else None


class Owner:
    """What the relay does on the node that owns the room: forwarded messages to the room."""

    def __init__(self, node: Cluster, room: Room, journal: Journal) -> None:
        self.node, self.room, self.journal = node, room, journal
        self.peers: dict[tuple[str, str], GatedPeer] = {}
        node.bus.on_forward = self.forwarded

    def forwarded(self, code: str, body: dict[str, Any]) -> None:
        assert code == self.room.code
        key = (body["node"], body["peer"])
        peer = self.peers.get(key)
        if peer is None:
            remote = self.node.bus.remote_peer(body["node"], body["peer"], body["version"], body.get("ip"))
            peer = self.peers[key] = self.journal.peer(code, remote)
        msg = body["msg"]
        try:
            if msg["type"] == "join":
                self.room.join(peer, msg.get("name", ""))
            elif msg["type"] == "spectate":
                self.room.spectate(peer)
            elif msg["type"] == "act":
                self.room.act(peer, msg["action"], msg.get("ply"))
        except ProtocolError as exc:
            peer.send(error(exc.code, exc.message))


async def joined_node(url: str, name: str, clients: dict[str, Client]) -> Cluster:
    """A node whose bus hands the owner's frames to its local clients."""
    node = Cluster(Redis.from_url(url, socket_timeout=1.0, socket_connect_timeout=1.0), node=name, ttl=1.0)
    node.bus.on_deliver = lambda peer, body: clients[peer].send(body["text"]) if "text" in body else None
    await node.start()
    return node


@pytest.fixture
async def cluster(redis_server: RedisServer) -> AsyncIterator[list[Cluster]]:
    nodes = [Cluster(Redis.from_url(redis_server.url), node="a", ttl=1.0)]
    await nodes[0].start()
    yield nodes
    for node in nodes:
        await node.stop()


async def test_players_on_two_nodes_and_a_spectator_on_a_third(
    cluster: list[Cluster], redis_server: RedisServer
) -> None:
    owner_node = cluster[0]
    guest, spectator = Client(), Client()
    cluster.append(await joined_node(redis_server.url, "b", {"1": guest}))
    cluster.append(await joined_node(redis_server.url, "c", {"1": spectator}))
    node_b, node_c = cluster[1], cluster[2]

    # The host creates the room on node a.
    assert await owner_node.claim_new(CODE)
    journal = Journal(owner_node.store)
    game = get_game(GAME)
    room = Room(CODE, game, game.resolve_options({}), RoomSettings(), journal)  # type: ignore[arg-type]
    owner = Owner(owner_node, room, journal)
    host = Client()
    host_peer = journal.peer(CODE, host)
    room.seat_host(host_peer, "Host", 0)

    async def settled() -> None:
        """Until every frame of every node has arrived."""
        for _ in range(400):
            await journal.flush()
            await owner_node.bus.flush()
            views = [c.last_view() for c in (host, guest, spectator)]
            if all(v is not None and v["ply"] == room.state.ply for v in views):
                return
            await asyncio.sleep(0.01)
        raise AssertionError("frames did not arrive")

    # Nodes b and c forward their clients' messages: the owner listens on the room's inbox.
    def forward(node: Cluster, msg: dict[str, Any]) -> Any:
        return node.bus.forward(CODE, {"node": node.node, "peer": "1", "version": 2, "ip": "198.51.100.9", "msg": msg})

    assert await forward(node_b, {"type": "join", "room": CODE, "name": "Guest"})
    assert await forward(node_c, {"type": "spectate", "room": CODE})
    await settled()
    assert guest.frames[0]["type"] == "joined" and guest.frames[0]["seat"] == 1 and guest.frames[0]["token"]
    assert spectator.frames[0]["type"] == "joined" and spectator.frames[0]["token"] is None

    # Play to the end: the host on node a, the guest from node b choosing from its own frames only.
    rng = random.Random(11)
    while not room.state.is_terminal():
        to_move = room.state.current_players()
        if 1 in to_move:
            view = guest.last_view()
            assert view is not None and view["legal"], "the guest's frames say what it may play"
            assert await forward(node_b, {"type": "act", "action": rng.choice(view["legal"]), "ply": view["ply"]})
        if 0 in to_move:
            room.act(host_peer, str(rng.choice(room.state.legal_actions(0))), room.state.ply)
        await settled()

    assert sum(1 for seat, _ in room.state.history() if seat == 1) > 10  # the guest did play
    for client in (host, guest, spectator):
        assert [f["result"] for f in client.frames if f["type"] == "finished"] == [room.result]

    # Every view anyone got is its own seat's view of that ply, as the record replays it.
    states = game.replay(game.dump(room.state))
    for client, seat in ((host, 0), (guest, 1), (spectator, None)):
        views = [f for f in client.frames if f["type"] in ("update", "snapshot")]
        assert len(views) > 5
        for frame in views:
            assert frame["view"] == json.loads(json.dumps(states[frame["seq"]].view(seat))), (seat, frame["seq"])
        assert all(f["type"] != "error" for f in client.frames), client.frames
        assert not any(f.get("token") for f in client.frames if f["type"] != "joined")
    assert not any(f.get("token") for f in spectator.frames)

    assert set(owner.peers) == {("b", "1"), ("c", "1")}  # the owner met the others only as remote peers

    # What Redis holds is the record the room played.
    await journal.flush()
    loaded = await owner_node.store.load_room(CODE)
    assert loaded is not None
    assert loaded[1] == [[seat, str(action)] for seat, action in room.state.history()]
