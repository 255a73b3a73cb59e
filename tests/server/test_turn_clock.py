"""The per-turn clock around simultaneous secret choices (protocol.md, "Rules of the room").

A seat's turn is an unbroken run of decisions it owes, except that a simultaneous secret
choice is a turn of its own for each seat: when one begins both seats get a fresh clock, and a
seat's choice there ends its turn. QA pass 16, finding 5: in Soccer-Go, a match of such picks,
the seat that picked last never saw its turn end, so a pass began with 2 seconds left and the
computer went on choosing for a player who was at the screen.

The toy game's kicks are all simultaneous choices (aim and dive); Soccero's turns are runs of
decisions of one seat, whose clock must still run on from one decision to the next.
"""

from __future__ import annotations

import asyncio
from typing import Any

from relay_helpers import TOY, pair, until

from server.relay import HALL, RunningRelay
from soccerdesk.net.client import RelayClient
from soccerdesk.net.protocol import turns_ended


def _kicker(client: RelayClient) -> int:
    """Who kicks now: the seats take turns, so the second kick is seat 1's."""
    view = client.view or {}
    return int(view.get("state", {}).get("kicker", -1))


def _mine(client: RelayClient) -> bool:
    view = client.view
    return view is not None and client.seat in view["to_move"] and bool(view["legal"])


async def _act(client: RelayClient) -> None:
    view = client.view
    assert view is not None
    await client.act(view["legal"][0], ply=view["ply"])


def test_the_rule_in_a_few_lines() -> None:
    """protocol.turns_ended, which the relay runs its clocks by and the app words its clock with."""
    both = frozenset({0, 1})
    # A simultaneous choice begins: a turn of its own for both seats.
    assert turns_ended(-1, [0, 1], frozenset()) == (both, both)
    # Seat 0 chooses first: its turn is over; seat 1's decision (and clock) goes on.
    assert turns_ended(0, [1], both) == (frozenset({0}), frozenset({1}))
    # Seat 1 chooses last: its turn is over too, whatever it owes next.
    assert turns_ended(1, [-1], frozenset({1})) == (frozenset({1}), frozenset())
    # Decisions of one seat in a row (Soccero's moves, the dice between them) are one turn.
    assert turns_ended(0, [0], frozenset()) == (frozenset(), frozenset())
    assert turns_ended(-1, [0], frozenset()) == (frozenset(), frozenset())


async def test_the_seat_that_picks_last_gets_a_fresh_clock_for_the_next_pick(
    relay: RunningRelay, clients: list[RelayClient]
) -> None:
    """The guest takes 1.5 s of its 5 on the first kick; the second kick gives it all 5 again
    (it had 3.5 left before: its turn never ended, for it owed a decision all along)."""
    host, guest = await pair(relay, clients, TOY, {"rounds": 3}, turn_seconds=5)
    await until(lambda: _mine(host) and _mine(guest) and bool(guest.clock))
    await _act(host)
    await asyncio.sleep(1.5)
    guest.pending()
    await _act(guest)
    await until(lambda: _kicker(guest) == 1 and _mine(guest))
    clocks = [m["clock"] for m in guest.pending() if m["type"] == "clock"]
    assert clocks, "a fresh turn is told with a clock message"
    assert set(clocks[-1]) == {"0", "1"}
    assert clocks[-1]["1"] >= 4.5 and clocks[-1]["0"] >= 4.5, clocks


async def test_the_computer_finishes_only_the_turn_whose_time_ran_out(
    relay: RunningRelay, clients: list[RelayClient]
) -> None:
    """The guest lets its first dive run out of time: the computer dives for it. The next kick is
    the guest's own again, with a fresh clock, though it owed a decision all along."""
    host, guest = await pair(relay, clients, TOY, {"rounds": 3}, turn_seconds=1)
    told: list[dict[str, Any]] = []
    await until(lambda: _mine(host) and _mine(guest))
    await _act(host)
    await until(lambda: _kicker(guest) == 1 and _mine(guest), timeout=5)  # the computer dived
    for msg in guest.pending():
        if msg["type"] in ("update", "snapshot"):
            told += [e for e in msg["events"] if e["kind"] == "computer"]
    assert [e["data"] for e in told] == [{"seat": 1, "why": "clock"}]
    room = relay.app[HALL].rooms[guest.room or ""]
    assert 1 not in room._autoplay and 1 in room._deadlines  # its own turn, timed afresh
    await _act(guest)
    update = await guest.next("update", "refused")
    assert update["type"] == "update" and update["yours"], update  # its own dive, not the computer's


async def test_a_run_of_one_seats_decisions_keeps_one_clock(relay: RunningRelay, clients: list[RelayClient]) -> None:
    """Soccero: a turn is a choice, a roll and one player-move at a time. The clock of the turn
    runs on through them; no decision of it starts the time again."""
    host, guest = await pair(relay, clients, "soccero", {"quick_setup": True, "turns": 2}, turn_seconds=60)
    room = relay.app[HALL].rooms[host.room or ""]
    in_a_row = 0
    for _ in range(8):
        await until(lambda: _mine(host) or _mine(guest))
        mover = host if _mine(host) else guest
        seat = int(mover.seat or 0)
        deadline = room._deadlines[seat]
        mover.pending()
        before = mover.seq
        await _act(mover)
        await until(lambda mover=mover, before=before: mover.seq > before)
        if _mine(mover):  # the same seat decides on: the same turn, the same clock
            in_a_row += 1
            assert room._deadlines.get(seat) == deadline, "the turn's clock started again"
            assert not [m for m in mover.pending() if m["type"] == "clock"]
    assert in_a_row >= 3, "a seat made several decisions in a row"
