"""Room rules: chat, spectators, rematch with seats swapped, turn clocks, abandonment, leaving."""

from __future__ import annotations

import asyncio
import random

import pytest
from relay_helpers import TOY, calls_of, new_client, pair, play_to_end, unload_room, until

from server.relay import HALL, RunningRelay
from server.rooms import CODE_ALPHABET, new_code
from soccerdesk.net.client import RelayClient, RelayError


def test_join_codes_use_an_unambiguous_alphabet() -> None:
    codes = {new_code() for _ in range(200)}
    assert len(codes) == 200
    assert all(len(c) == 6 and set(c) <= set(CODE_ALPHABET) for c in codes)
    assert not set("01OIL") & set(CODE_ALPHABET)


async def test_a_create_checks_its_game_and_options_once(
    relay: RunningRelay, clients: list[RelayClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The relay checks a create's game, options and room for it before the address's room budget
    is spent, and makes the room from that one check: the options the room plays are those."""
    prepared = calls_of(relay.app[HALL], "prepare", monkeypatch)
    host = await new_client(relay, clients)
    joined = await host.create(TOY, {"rounds": 3})
    assert prepared == [(TOY, {"rounds": 3})]
    assert relay.app[HALL].rooms[joined["room"]].options["rounds"] == 3
    with pytest.raises(RelayError) as refused:
        await (await new_client(relay, clients)).create(TOY, {"rounds": "many"})
    assert refused.value.code == "bad_game" and len(prepared) == 2


async def test_host_waits_in_the_lobby_and_cannot_play_alone(relay: RunningRelay, clients: list[RelayClient]) -> None:
    host = await new_client(relay, clients, "Alice")
    joined = await host.create(TOY, seat=1)
    assert joined["seat"] == 1 and joined["host"]
    await host.next("snapshot")
    await host.act("dive 1")
    assert "waiting for an opponent" in (await host.next("refused"))["reason"]
    guest = await new_client(relay, clients, "Bob")
    await guest.join(joined["room"].lower())  # codes are read out loud: case does not matter
    presence = await host.next("presence")
    assert [p["name"] for p in presence["players"]] == ["Bob", "Alice"]
    assert all(p["connected"] for p in presence["players"])


async def test_a_third_player_is_turned_away_and_may_spectate(relay: RunningRelay, clients: list[RelayClient]) -> None:
    host, guest = await pair(relay, clients)
    third = await new_client(relay, clients)
    with pytest.raises(RelayError) as caught:
        await third.join(host.room or "")
    assert caught.value.code == "room_full"
    joined = await third.spectate(host.room or "")
    assert joined["seat"] is None and joined["token"] is None


async def test_chat_reaches_everyone_and_spectators_may_only_watch(
    relay: RunningRelay, clients: list[RelayClient]
) -> None:
    host, guest = await pair(relay, clients)
    watcher = await new_client(relay, clients)
    await watcher.spectate(host.room or "")
    await host.chat("good luck")
    for client in (guest, watcher):
        line = await client.next("chat")
        assert (line["seat"], line["name"], line["text"]) == (0, "Host", "good luck")
    for frame in ("chat", "act"):
        await watcher.send(frame, **({"text": "hi"} if frame == "chat" else {"action": "aim 1"}))
        assert (await watcher.next("error"))["code"] == "read_only"
    later = await new_client(relay, clients)
    await later.spectate(host.room or "")
    assert (await later.next("snapshot"))["chat"][-1]["text"] == "good luck"


async def test_chat_is_one_line_of_visible_text_and_empty_lines_change_nothing(
    relay: RunningRelay, clients: list[RelayClient]
) -> None:
    host, guest = await pair(relay, clients)
    # A newline could fake a second speaker; a right-to-left override reverses what follows.
    await host.chat("hi\nBob: I resign\u202e  <b>x</b>\x1b[2J")
    line = await guest.next("chat")
    assert line["text"] == "hi Bob: I resign <b>x</b> [2J"
    await host.chat("\n\u200b\t ")  # nothing visible: refused, the room's chat unchanged
    assert (await host.next("error"))["code"] == "bad_message"
    await host.send("chat", text="x" * 501)  # over the limit of the protocol
    assert (await host.next("error"))["code"] == "bad_message"
    later = await new_client(relay, clients)
    await later.spectate(host.room or "")
    assert [c["text"] for c in (await later.next("snapshot"))["chat"]] == [line["text"]]


async def test_host_may_refuse_spectators(relay: RunningRelay, clients: list[RelayClient]) -> None:
    host, guest = await pair(relay, clients)
    watcher = await new_client(relay, clients)
    await watcher.spectate(host.room or "")
    await host.allow_spectators(False)
    await until(lambda: watcher.status.startswith("lost"))
    late = await new_client(relay, clients)
    with pytest.raises(RelayError) as caught:
        await late.spectate(host.room or "")
    assert caught.value.code == "no_spectators"
    private = await new_client(relay, clients)
    room = await private.create(TOY, spectators=False)
    with pytest.raises(RelayError):
        await late.spectate(room["room"])


async def test_rematch_offer_is_seen_by_both_and_swaps_the_seats(
    relay: RunningRelay, clients: list[RelayClient]
) -> None:
    host, guest = await pair(relay, clients, TOY, {"rounds": 1})
    await play_to_end([host, guest], random.Random(9))
    host.pending(), guest.pending()
    await host.offer_rematch()
    assert (await guest.next("rematch"))["offered"] == [0]
    assert (await host.next("rematch"))["offered"] == [0]
    await guest.offer_rematch()
    await until(lambda: host.match == 2 and guest.match == 2)
    assert (host.seat, guest.seat) == (1, 0)
    assert host.result is None and guest.result is None
    result = await play_to_end([host, guest], random.Random(10))
    assert result["reason"] == "played out"


async def test_a_turn_that_runs_out_of_time_is_finished_by_the_relay_bot(
    relay: RunningRelay, clients: list[RelayClient]
) -> None:
    host, guest = await pair(relay, clients, TOY, {"rounds": 2}, turn_seconds=1)
    clock = await host.next("clock")
    assert set(clock["clock"]) == {"0", "1"} and 0 < clock["clock"]["0"] <= 1
    await host.act(host.view["legal"][0], ply=host.view["ply"])  # type: ignore[index]
    # The guest does nothing: after a second the relay decides for it and the match goes on.
    await until(lambda: guest.view is not None and guest.view["state"]["kicker"] == 1, timeout=5)


async def test_abandonment_countdown_runs_only_on_the_absent_players_turn_then_win_can_be_claimed(
    relay: RunningRelay, clients: list[RelayClient]
) -> None:
    host, guest = await pair(relay, clients, TOY, {"rounds": 3}, abandon_seconds=1)
    guest.reconnect = False
    await guest.drop()
    countdown = await host.next("countdown")
    assert countdown["countdown"]["seat"] == 1 and not countdown["countdown"]["expired"]
    with pytest.raises(RelayError):  # too early
        await host._request("claim", {"finished"}, take="win")
    expired = await host.next("countdown")
    assert expired["countdown"]["expired"]
    await host.claim("win")
    finished = await host.next("finished")
    assert finished["result"]["winner"] == 0 and finished["result"]["reason"] == "abandoned"


async def test_no_countdown_while_it_is_the_present_players_turn(
    relay: RunningRelay, clients: list[RelayClient]
) -> None:
    host, guest = await pair(relay, clients, TOY, {"rounds": 3}, abandon_seconds=1)
    await guest.act(guest.view["legal"][0], ply=guest.view["ply"])  # type: ignore[index]
    await until(lambda: host.seq == 1)
    guest.reconnect = False
    await guest.drop()  # now only the host owes a decision
    await until(lambda: not relay.app[HALL].rooms[host.room or ""].players_json()[1]["connected"])
    host.pending()
    await asyncio.sleep(1.3)  # longer than the countdown would be
    assert not [m for m in host.pending() if m["type"] == "countdown"]
    assert relay.app[HALL].rooms[host.room or ""]._countdown is None


async def test_after_abandonment_a_bot_may_take_the_absent_seat(
    relay: RunningRelay, clients: list[RelayClient]
) -> None:
    host, guest = await pair(relay, clients, TOY, {"rounds": 2}, abandon_seconds=1)
    guest.reconnect = False
    await guest.drop()
    while not (await host.next("countdown"))["countdown"]["expired"]:
        pass
    await host.claim("bot")
    result = await play_to_end([host], random.Random(1))
    assert result["reason"] == "played out"
    assert any(p["bot"] for p in host.players)


async def test_leaving_a_running_match_resigns_it(relay: RunningRelay, clients: list[RelayClient]) -> None:
    host, guest = await pair(relay, clients)
    await guest.leave()
    finished = await host.next("finished")
    assert finished["result"] == {"winner": 0, "score": [0, 0], "reason": "resigned"}


async def test_host_leaving_the_lobby_closes_the_room(relay: RunningRelay, clients: list[RelayClient]) -> None:
    host = await new_client(relay, clients)
    joined = await host.create(TOY)
    await host.leave()
    late = await new_client(relay, clients)
    with pytest.raises(RelayError) as caught:
        await late.join(joined["room"])
    assert caught.value.code == "no_room"


async def test_an_empty_room_is_unloaded_and_comes_back_from_the_store(
    relay: RunningRelay, clients: list[RelayClient]
) -> None:
    host, guest = await pair(relay, clients, TOY, {"rounds": 2})
    await host.act(host.view["legal"][0], ply=host.view["ply"])  # type: ignore[index]
    await until(lambda: guest.seq == host.seq == 2)
    tokens = (host.token or "", guest.token or "")
    code = await unload_room(relay, [host, guest])
    hall = relay.app[HALL]
    back = await new_client(relay, clients)
    await back.resume(code, tokens[1])
    snapshot = await back.next("snapshot")
    assert snapshot["seq"] == 2 and snapshot["view"]["state"]["chosen"] == [True, False]
    assert hall.rooms[code].state.ply == 2
