"""A host who leaves before anyone joined closes the room for good (protocol.md, "Leaving":
"the room is closed and its code is dead"). QA pass 16, finding 3: the code still worked, and a
friend who joined it started a match against a host who was gone."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from relay_helpers import TOY, new_client, relay_settings, until

from server.relay import HALL, RunningRelay, start_relay
from server.rooms import dispatch, gone_words
from soccerdesk.net.client import RelayClient, RelayError
from soccerdesk.net.protocol import ProtocolError


async def test_a_join_of_a_closed_room_says_the_room_is_gone(relay: RunningRelay, clients: list[RelayClient]) -> None:
    host = await new_client(relay, clients, "Host")
    code = (await host.create(TOY))["room"]
    watcher = await new_client(relay, clients)
    await watcher.spectate(code)
    await host.leave()
    closed = await watcher.next("error")  # a spectator of the lobby is told, and let go
    assert closed["code"] == "no_room"
    for enter in ("join", "spectate"):
        late = await new_client(relay, clients, "Late")
        with pytest.raises(RelayError) as caught:
            await getattr(late, enter)(code)
        assert caught.value.code == "no_room"
        assert caught.value.message == f"room {code} is gone: its host closed it before anyone joined"
    # The host may open another room on the same connection at once.
    assert (await host.create(TOY))["room"] != code


async def test_a_closed_room_stays_closed_after_a_restart_and_is_then_forgotten(db_path: Path) -> None:
    relay = await start_relay(relay_settings(db_path))
    made: list[RelayClient] = []
    try:
        host = await new_client(relay, made, "Host")
        code = (await host.create(TOY))["room"]
        await host.leave()
        await host.close()
        port = relay.port
        await relay.stop()  # before the sweep forgets the room: it is still in the database
        relay = await start_relay(replace(relay_settings(db_path), port=port))
        late = await new_client(relay, made, "Late")
        with pytest.raises(RelayError) as caught:
            await late.join(code)
        assert caught.value.code == "no_room" and "is gone" in caught.value.message
        hall = relay.app[HALL]
        hall.sweep(idle_seconds=0, keep_seconds=86400)  # a closed room is deleted at the sweep
        assert code not in hall.rooms and not hall.store.has_room(code)
    finally:
        for client in made:
            await client.close()
        await relay.stop()


class Knocker:
    """A connection as a room sees it, keeping whatever it is sent."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    def send(self, text: str) -> None:
        self.sent.append(text)

    def close(self, code: str, message: str) -> None:
        self.sent.append(f"closed: {code}")


async def test_every_way_into_a_closed_room_is_refused_in_one_place(
    relay: RunningRelay, clients: list[RelayClient]
) -> None:
    """dispatch, which every entering message passes (a relay's own connections, a cluster
    owner's, and those another node forwards), refuses a room its host closed: no_room, and
    the room is left as it was (no spectator added, no seat taken)."""
    host = await new_client(relay, clients, "Host")
    joined = await host.create(TOY)
    await host.leave()
    room = relay.app[HALL].rooms[joined["room"]]
    await until(lambda: room.closed)
    seats, spectators = list(room.seats), set(room.spectators)
    for msg in (
        {"type": "join", "room": room.code, "name": "Late"},
        {"type": "spectate", "room": room.code},
        {"type": "resume", "room": room.code, "token": joined["token"]},
    ):
        knocker = Knocker()
        with pytest.raises(ProtocolError) as caught:
            dispatch(room, knocker, msg)
        assert caught.value.code == "no_room" and caught.value.message == gone_words(room.code)
        assert knocker.sent == [] and room.seats == seats and room.spectators == spectators
