"""Two clients play whole matches through a real relay on 127.0.0.1."""

from __future__ import annotations

import random

from conftest import TOY, pair, play_to_end

from server.relay import RunningRelay
from soccerdesk.net.client import RelayClient


async def test_two_clients_play_the_toy_game_to_the_end(relay: RunningRelay, clients: list[RelayClient]) -> None:
    host, guest = await pair(relay, clients, TOY, {"rounds": 4})
    result = await play_to_end([host, guest], random.Random(1))
    assert result["reason"] == "played out"
    assert host.view is not None and host.view["terminal"]
    assert host.view["score"] == guest.view["score"] == result["score"]
