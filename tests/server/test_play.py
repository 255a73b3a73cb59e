"""Whole matches through a real relay on 127.0.0.1: two players, a spectator, every game.

Each client is driven by a bot that picks among the legal action texts of its own view
(a client never has more). Afterwards every view and event any client received is
compared with what the rules allow that seat to know, replaying the match the relay
holds: a seat's messages carry exactly ``view(seat)`` and the events visible to it; a
spectator's exactly ``view(None)`` and public events.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from relay_helpers import TOY, new_client, pair, play_to_end, until

from server.relay import HALL, RunningRelay
from server.rooms import _event_json
from soccerdesk.net.client import RelayClient
from soccerdesk.rules import GAMES, get_game


def _loadable(game_id: str) -> bool:
    try:
        get_game(game_id)
    except Exception:
        return False
    return True


def check_nothing_hidden_leaked(relay: RunningRelay, code: str, client: RelayClient, seat: int | None) -> int:
    """Every snapshot/update ``client`` received equals what ``seat`` may know. Returns how many."""
    room = relay.app[HALL].rooms[code]
    states = room.game.replay(room.game.dump(room.state))
    checked = 0
    for msg in client.pending():
        if msg["type"] not in ("snapshot", "update") or msg["match"] != room.match:
            continue
        assert msg["view"] == states[msg["seq"]].view(seat), f"view at ply {msg['seq']} is not view({seat})"
        for event in msg["events"]:
            told = (_event_json(event["ply"], ev) for ev in states[event["ply"]].events if ev.visible_to(seat))
            allowed = [{k: v for k, v in said.items() if k != "ply"} for said in told]
            assert {k: v for k, v in event.items() if k != "ply"} in allowed, f"event {event} is not for seat {seat}"
        checked += 1
    return checked


async def _full_match(relay: RunningRelay, clients: list[RelayClient], game: str, options: dict[str, Any]) -> None:
    host, guest = await pair(relay, clients, game, options)
    assert host.room is not None
    watcher = await new_client(relay, clients, "Watcher")
    await watcher.spectate(host.room)
    result = await play_to_end([host, guest], random.Random(7), timeout=45)
    await until(lambda: watcher.result is not None)
    assert result["reason"] == "played out"
    assert result["details"] == relay.app[HALL].rooms[host.room].state.result_details()  # e.g. a shootout's score
    assert result["score"] == host.view["score"] == guest.view["score"] == watcher.view["score"]  # type: ignore[index]
    for client, seat in ((host, 0), (guest, 1), (watcher, None)):
        assert check_nothing_hidden_leaked(relay, host.room, client, seat) > 0


async def test_toy_match_with_a_spectator_who_never_sees_the_secret_card(
    relay: RunningRelay, clients: list[RelayClient]
) -> None:
    await _full_match(relay, clients, TOY, {"rounds": 5})


@pytest.mark.parametrize("game", GAMES)
async def test_full_match_of_each_game_through_the_relay(
    relay: RunningRelay, clients: list[RelayClient], game: str
) -> None:
    if not _loadable(game):
        pytest.skip(f"the rules of {game} do not load yet")
    await _full_match(relay, clients, game, {})


async def test_welcome_lists_the_games_and_join_codes_are_short_and_distinct(
    relay: RunningRelay, clients: list[RelayClient]
) -> None:
    client = await new_client(relay, clients)
    assert TOY in client.games
    codes = set()
    for _ in range(5):
        host = await new_client(relay, clients)
        joined = await host.create(TOY)
        codes.add(joined["room"])
        assert len(joined["room"]) == 6 and joined["token"] and len(joined["token"]) >= 20
    assert len(codes) == 5


def test_a_private_event_names_its_audience_and_reaches_only_it() -> None:
    """The wire form of an event: a secret told to one seat says so (``audience``), so a client
    can leave its public twin out of that seat's log; a public event carries no audience."""
    state = get_game("big-time-soccer").new_match(seed=3)
    rng = random.Random(3)
    private = public = None
    while (private is None or public is None) and state.ply < 200:
        seat = state.current_players()[0]
        if seat < 0:
            outcomes = state.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = rng.choice(state.legal_actions(seat))
        state = state.apply(seat, action)
        for event in state.events:
            said = _event_json(state.ply, event)
            if event.audience is None:
                assert "audience" not in said
                public = said
            else:
                assert said["audience"] == list(event.audience)
                assert not event.visible_to(None)  # never sent to a spectator
                private = said
    assert private is not None and public is not None


async def test_a_cup_shootout_is_sent_from_its_start_then_its_kicks(
    relay: RunningRelay, clients: list[RelayClient]
) -> None:
    """The relay draws a whole shootout at once; its start goes out in an update of its own, so
    a screen shows the shootout's board (0/0) under the kicks, not the position before it."""
    from tests.match_positions import cup_match_before_its_shootout

    host, guest = await pair(relay, clients, "big-time-soccer", {"mode": "cup"})
    room = relay.app[HALL].rooms[host.room]
    record, decision = cup_match_before_its_shootout()
    room.state = room.game.replay(record)[-1]  # the match played so far (the test's shortcut)
    host.pending(), guest.pending()
    await host.act(decision, ply=room.state.ply)
    await until(lambda: host.result is not None and guest.result is not None)
    for client in (host, guest):
        updates = [msg for msg in client.pending() if msg["type"] == "update"]
        phases = [(msg["view"]["state"]["phase"], msg["view"]["state"]["shootout"]) for msg in updates]
        assert phases[-2] == ("shootout", {"goals": [0, 0], "kicks": [0, 0]}), phases
        assert phases[-1][0] == "over" and len(updates) == 2
        assert [msg["yours"] for msg in updates] == [client is host, False]
    assert host.result["details"] == room.state.result_details() and "shootout" in host.result["details"]
