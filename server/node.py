"""A relay node of a cluster: the relay's :class:`~server.rooms.Hall`, with its rooms in Redis.

``soccerdesk-relay --redis redis://HOST:PORT/DB`` builds a :class:`ClusterHall` instead of the
SQLite-backed :class:`~server.rooms.Hall`. The rooms this node owns (it holds their lease,
:mod:`server.cluster`) run here as usual, their writes going through the cluster's
:class:`~server.cluster.Journal`; a room another node owns is reached through a
:class:`~server.cluster.RemoteRoom`, which forwards the client's messages to the owner and
hands the owner's frames back to the client's connection. What this node holds in memory is a
cache: a room it loses (taken over, or a write that failed) is dropped, its clients are asked
to resume, and whichever node they reach rebuilds it from Redis.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass, field
from typing import Any

from server.cluster import (
    Cluster,
    RemoteRoom,
    RoomMissing,
    cancel_and_wait,
    every,
    peer_id,
)
from server.redis_store import StoreUnavailable, guarded
from server.rooms import ENTERING, Hall, Peer, Room, RoomSettings, new_code, normalize_code
from soccerdesk.net.protocol import ProtocolError
from soccerdesk.rules import Game

log = logging.getLogger("soccerdesk.relay")

RESUME = "this match moved to another server of the relay; reconnect to resume"


@dataclass
class ClusterHall(Hall):
    """The rooms of one node of a cluster (see the module docstring).

    ``create`` and ``find`` are awaited here (each asks Redis); everything else a room does is
    the same as on a single relay.
    """

    cluster: Cluster | None = None
    _releasing: set[str] = field(default_factory=set)
    _jobs: set[asyncio.Task[Any]] = field(default_factory=set)
    _owners: dict[str, bytes] = field(default_factory=dict)  # rooms of this node's visitors -> lease seen
    _watcher: asyncio.Task[None] | None = None

    def __post_init__(self) -> None:
        assert self.cluster is not None, "a ClusterHall needs its cluster"
        super().__post_init__()  # the journal (this hall's store) tells _write_failed
        self.cluster.on_lost = self._lost
        self.cluster.bus.on_forward = self._forwarded

    @property
    def node(self) -> Cluster:
        assert self.cluster is not None
        return self.cluster

    # --- entering -------------------------------------------------------------------------

    def prepare(self, game_id: str, options: dict[str, Any]) -> tuple[Game, dict[str, Any]]:
        """As on a single relay, and ``server_busy`` while Redis is known to be away."""
        self.node.health.check()
        return super().prepare(game_id, options)

    async def create_room(
        self, peer: Peer, game: Game, options: dict[str, Any], settings: RoomSettings, name: str, seat: int | None
    ) -> Room:
        """A new room owned by this node, for the game and options :meth:`prepare` gave
        (refused with ``server_busy`` while Redis is away)."""
        code = new_code()
        while code in self.rooms or not await self.node.claim_new(code):
            code = new_code()
        return self.open(code, game, options, settings, peer, name, seat)

    async def find_room(self, code: str) -> Room | RemoteRoom:
        """The room with ``code``: here if this node owns it (or takes it over, its owner being
        gone), else a :class:`RemoteRoom` that forwards to its owner. A room its host closed is
        found too: :func:`~server.rooms.dispatch` refuses to enter it."""
        code = normalize_code(code)
        room = self.rooms.get(code)
        if room is None:
            loading = self._loading.get(code)
            if loading is None:
                try:
                    loaded = await self.node.wait_claim(code)
                except RoomMissing:
                    raise ProtocolError("no_room", f"no room has the code {code!r}") from None
                room = self.rooms.get(code)  # it may have been loaded here while we waited
                if room is None and (loading := self._loading.get(code)) is None:
                    if loaded is None:
                        return RemoteRoom(self.node.bus, code)
                    try:
                        self._make_room()
                    except ProtocolError:
                        await self._give_up(code)
                        raise
                    loading = self._start_load(code, *loaded)
            if room is None:
                assert loading is not None
                room = await self._wait_load(code, loading)
        return room

    # --- this node's clients in rooms owned elsewhere -----------------------------------------

    def start(self) -> None:
        """Start watching the owners of the rooms this node's clients visit (see :meth:`watch_owners`)."""
        self._watcher = asyncio.get_running_loop().create_task(self._watch())

    async def _watch(self) -> None:
        await every(self.node.leases.ttl / 2, self.watch_owners, "cannot check the owners of visited rooms", log)

    async def watch_owners(self) -> None:
        """Ask this node's clients to resume when the owner of the room they visit changed or
        died: a client waiting for the other seat would otherwise never hear from its room
        again (its next message would find the owner gone, but it has none to send)."""
        visitors: dict[str, list[Peer]] = {}
        for peer in self.node.bus.local.values():
            room = getattr(peer, "room", None)
            if isinstance(room, RemoteRoom):
                visitors.setdefault(room.code, []).append(peer)
        for code in [code for code in self._owners if code not in visitors]:
            del self._owners[code]
        if not visitors:
            return
        codes = list(visitors)
        leases = await guarded(self.node.redis.mget([self.node.leases.lease_key(code) for code in codes]))
        for code, lease in zip(codes, leases, strict=True):
            if lease is not None and self._owners.setdefault(code, lease) == lease:
                continue
            self._owners.pop(code, None)
            log.info("room %s lost its owner; %d clients of this node are asked to resume", code, len(visitors[code]))
            for peer in visitors[code]:
                self.node.bus.local.pop(peer_id(peer), None)
                peer.close("server_busy", RESUME)

    # --- messages from other nodes' clients ------------------------------------------------

    async def _forwarded(self, code: str, body: dict[str, Any]) -> None:
        """A message for a room of this node from a client of another node (in order)."""
        kind = body.get("msg", {}).get("type")
        room = self.rooms.get(code)
        if room is None and (loading := self._loading.get(code)) is not None:
            with contextlib.suppress(Exception):  # a failed load is logged where it failed
                room = await asyncio.shield(loading)
        if room is None or (room.closed and kind not in ENTERING):
            # Not (or no longer) here: the client asks again and reaches whoever owns it. (A
            # room closed by its host stays here until it is unloaded: entering it is refused
            # with no_room, as on this node's own connections.)
            peer = self.node.bus.remote_peer(str(body["node"]), str(body["peer"]), int(body.get("version", 1)))
            if kind != "gone":
                peer.close("server_busy", RESUME)
            self.node.bus.forget_peer(str(body["node"]), str(body["peer"]))
            return
        await self.node.handle_forward(room, body)

    # --- rooms leaving this node --------------------------------------------------------------

    def _lost(self, code: str) -> None:
        self.drop(code, RESUME)  # its clients reconnect and resume wherever it runs now

    def _write_failed(self, code: str, exc: Exception) -> None:
        super()._write_failed(code, exc)
        self.node.journal.reset(code)
        self._spawn(self._give_up(code))

    def _unload(self, room: Room) -> None:
        super()._unload(room)  # a closed room leaves memory once the journal has deleted it
        self._spawn(self._give_up(room.code))

    async def _give_up(self, code: str) -> None:
        """Release the room's lease once its writes are done, unless it came back meanwhile."""
        if code in self._releasing:
            return
        self._releasing.add(code)
        try:
            await self.node.journal.flush(code)
            if code not in self.rooms and code not in self._loading:
                await self.node.release(code)
        except StoreUnavailable as exc:
            log.warning("room %s: its lease could not be given back (%s); it lapses by itself", code, exc.detail)
        finally:
            self._releasing.discard(code)

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._jobs.add(task)
        task.add_done_callback(self._jobs.discard)

    def sweep(self, idle_seconds: float, keep_seconds: float) -> None:
        """Unload idle rooms; delete rooms untouched for ``keep_seconds`` that nobody owns. A closed
        room stays until Redis has deleted it, and this node keeps its lease: a client of any node
        asking for it is sent here, where entering it is refused."""
        self._sweep_memory(idle_seconds)
        self._spawn(self._delete_stale(time.time() - keep_seconds))

    async def _delete_stale(self, older_than: float) -> None:
        try:
            for code in await self.node.store.stale_rooms(older_than):
                if code not in self.rooms and await self.node.leases.acquire(code) is not None:
                    await self.node.store.delete_room(code)  # the lease goes with it
                    self.node.leases.held.pop(code, None)
        except StoreUnavailable as exc:
            log.warning("old rooms not deleted this time: %s", exc.detail)

    async def close(self) -> None:
        """Stop the rooms' timers; the cluster then finishes their writes and gives them up."""
        if self._watcher is not None:
            await cancel_and_wait([self._watcher])  # before the cluster closes its Redis client
        for room in self.rooms.values():
            room.stop_timers()
        for task in list(self._jobs):
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(task, 2.0)


__all__ = ["ClusterHall"]
