"""The relay tells who decided: a decision its bot made for a seat is told as the computer's.

protocol.md, "Per-turn clock" and "Abandonment": the relay's bot may decide for a seat whose
turn clock ran out, or for an absent player after the opponent chose "computer plays on".
Every such decision comes after a public ``computer`` event (``data``: ``seat``, ``why``
``clock`` or ``away``) that names no choice, so a secret pick stays secret.
"""

from __future__ import annotations

from typing import Any

from relay_helpers import TOY, new_client, pair, unload_room, until

from server.relay import RunningRelay
from soccerdesk.net.client import RelayClient


def _events(client: RelayClient) -> list[dict[str, Any]]:
    return [e for m in client.pending() if m["type"] in ("update", "snapshot") for e in m["events"]]


async def test_a_decision_made_because_the_clock_ran_out_is_told_as_the_computers(
    relay: RunningRelay, clients: list[RelayClient]
) -> None:
    host, guest = await pair(relay, clients, TOY, {"rounds": 2}, turn_seconds=1)
    host.pending(), guest.pending()
    await host.act(host.view["legal"][0], ply=host.view["ply"])  # type: ignore[index]
    # The guest (the keeper) does not dive: after a second the relay's bot dives for it.
    await until(lambda: guest.view is not None and guest.view["state"]["kicker"] == 1, timeout=5)
    for client in (host, guest):
        events = _events(client)
        told = [i for i, e in enumerate(events) if e["kind"] == "computer"]
        assert told, events
        first = events[told[0]]
        assert first["data"] == {"seat": 1, "why": "clock"}
        assert first["text"] == "Time ran out: the computer chooses for Seat 1."
        assert "audience" not in first  # everyone reads it...
        assert events[told[0] + 1]["text"] == "seat 1 has chosen"  # ...right before the decision it tells of
    # The line says who decided, never what: the dive is told only with the kick's reveal.
    assert not any("dive" in e["text"] for e in _events(host) if e["kind"] == "computer")


async def test_the_computers_moves_for_an_absent_player_are_told_and_kept_across_a_restart(
    relay: RunningRelay, clients: list[RelayClient]
) -> None:
    host, guest = await pair(relay, clients, TOY, {"rounds": 2}, abandon_seconds=1)
    code, token = host.room or "", guest.token or ""
    guest.reconnect = False
    await guest.drop()
    await until(lambda: bool(host.countdown and host.countdown["expired"]), timeout=5)
    host.pending()
    await host.claim("bot")
    await host.act(host.view["legal"][0], ply=host.view["ply"])  # type: ignore[index]
    await until(lambda: host.view is not None and host.view["state"]["kicker"] == 1, timeout=5)
    said = [e for e in _events(host) if e["kind"] == "computer"]
    assert said and said[0]["data"] == {"seat": 1, "why": "away"}
    assert said[0]["text"] == "The computer plays for Seat 1, who is away."

    # The relay forgets the room in memory; the absent player comes back to a room read from the
    # database, and is still told which moves the computer made for them.
    await unload_room(relay, [host])
    back = await new_client(relay, clients, "Guest")
    await back.resume(code, token)
    snapshot = await back.next("snapshot")
    events = snapshot["events"]
    marks = [i for i, e in enumerate(events) if e["kind"] == "computer"]
    assert [events[i]["data"] for i in marks] == [{"seat": 1, "why": "away"}] * len(marks) and marks
    assert all(events[i + 1]["kind"] == "chosen" and events[i + 1]["ply"] == events[i]["ply"] for i in marks)
