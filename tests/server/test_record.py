"""Protocol 2: the whole match record once a match is over, for saving and the replay."""

from __future__ import annotations

import json
import random

import aiohttp
from relay_helpers import new_client, pair, play_to_end, until

from server.relay import HALL, RunningRelay
from soccerdesk.net.client import RelayClient
from soccerdesk.net.protocol import PROTOCOL_VERSION, SUPPORTED_VERSIONS
from soccerdesk.rules import get_game


async def test_players_get_the_record_before_finished_and_version_1_clients_are_not_sent_it(
    relay: RunningRelay, clients: list[RelayClient]
) -> None:
    assert PROTOCOL_VERSION >= 2 and 1 in SUPPORTED_VERSIONS
    host, guest = await pair(relay, clients)
    async with aiohttp.ClientSession() as session, session.ws_connect(relay.url) as old:
        await old.send_str(json.dumps({"type": "hello", "version": 1}))
        assert json.loads((await old.receive(timeout=5)).data)["version"] == 1  # the relay speaks it back
        await old.send_str(json.dumps({"type": "spectate", "room": host.room}))
        assert host.record is None  # nothing is revealed while the match runs
        result = await play_to_end([host, guest], random.Random(5))
        await until(lambda: guest.result is not None)
        room = relay.app[HALL].rooms[host.room or ""]
        for client in (host, guest):
            # "record" comes right before "finished": it is there when the result is.
            assert client.record == room.game.dump(room.state) and client.record_match == 1
            assert get_game(client.record["game"]).load(client.record).is_terminal()
        assert result["winner"] in (0, 1, None)
        kinds = []
        while "finished" not in kinds:
            kinds.append(json.loads((await old.receive(timeout=5)).data)["type"])
        assert "record" not in kinds  # a version 1 client gets only version 1 messages

    late = await new_client(relay, clients)
    await late.spectate(host.room or "")
    await until(lambda: late.record is not None)  # a finished match's record follows the snapshot
    assert late.record == host.record
