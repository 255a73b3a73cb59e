"""Helpers of the relay tests: a tiny game with secrets, relay settings, clients and bots.

"Spot kicks" is made for these tests: it has every feature the relay must handle —
a chance node (a secret card dealt to the kicker, seen by the kicker only, through an
event with an audience), a hidden card in the view, and a simultaneous secret choice
(aim and dive). The relay also serves whichever of the four real games load.
"""

from __future__ import annotations

import asyncio
import inspect
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from server.relay import RelaySettings, RunningRelay
from soccerdesk import rules
from soccerdesk.net.client import RelayClient
from soccerdesk.rules.api import CHANCE, Event, Game, IllegalAction, Option, State, uniform

TOY = "spot-kicks"


@dataclass(frozen=True, slots=True)
class Kick:
    word: str  # "deal", "aim", "dive"
    value: int

    def __str__(self) -> str:
        return f"{self.word} {self.value}"


@dataclass(frozen=True, slots=True)
class SpotState(State):
    kicker: int
    card: int | None  # the kicker's secret power card; None: not dealt yet
    aim: int | None
    dive: int | None
    goals: tuple[int, int]
    kicks: int
    rounds: int

    def current_players(self) -> tuple[int, ...]:
        if self.kicks >= 2 * self.rounds:
            return ()
        if self.card is None:
            return (CHANCE,)
        keeper = 1 - self.kicker
        return tuple(s for s, done in ((self.kicker, self.aim), (keeper, self.dive)) if done is None)

    def _legal_actions(self, seat: int) -> list[Any]:
        word = "aim" if seat == self.kicker else "dive"
        return [Kick(word, side) for side in (1, 2, 3)]

    def _chance_outcomes(self) -> list[tuple[Any, float]]:
        return uniform([Kick("deal", c) for c in (1, 2, 3)])

    def _apply(self, seat: int, action: Any, events: list[Event]) -> State:
        if seat == CHANCE:
            events.append(Event("dealt", f"card {action.value}", {"card": action.value}, audience=(self.kicker,)))
            return replace(self, card=action.value)
        events.append(Event("chosen", f"seat {seat} has chosen"))
        nxt = replace(self, aim=action.value) if action.word == "aim" else replace(self, dive=action.value)
        if nxt.aim is None or nxt.dive is None:
            return nxt
        goal = nxt.aim != nxt.dive or nxt.card == 3
        goals = list(self.goals)
        goals[self.kicker] += goal
        events.append(Event("kick", f"aim {nxt.aim}, dive {nxt.dive}, card {nxt.card}", {"goal": goal}))
        return SpotState(1 - self.kicker, None, None, None, (goals[0], goals[1]), self.kicks + 1, self.rounds)

    @property
    def score(self) -> tuple[int, int]:
        return self.goals

    def _view(self, seat: int | None) -> dict[str, Any]:
        return {
            "kicker": self.kicker,
            "card": self.card if seat == self.kicker else None,
            "mine": None if seat is None else (self.aim if seat == self.kicker else self.dive),
            "chosen": [self.aim is not None, self.dive is not None],
        }

    def _determinize(self, seat: int, rng: random.Random) -> State:
        if seat == self.kicker:
            return replace(self, dive=None if self.dive is None else rng.choice((1, 2, 3)))
        return replace(
            self,
            card=None if self.card is None else rng.choice((1, 2, 3)),
            aim=None if self.aim is None else rng.choice((1, 2, 3)),
        )


class SpotKicks(Game):
    id = TOY
    title = "Spot kicks"
    options = (Option("rounds", 3, "Kicks each", minimum=1, maximum=20),)

    def __init__(self) -> None:
        SpotState.game = self

    def _initial_state(self, options: Mapping[str, Any]) -> State:
        return SpotState(0, None, None, None, (0, 0), 0, options["rounds"])

    def parse_action(self, text: str) -> Any:
        word, _, num = text.partition(" ")
        if word in ("deal", "aim", "dive") and num in ("1", "2", "3"):
            return Kick(word, int(num))
        raise IllegalAction(f"not an action: {text!r}")


def relay_settings(db: Path | str, **changes: Any) -> RelaySettings:
    # Bots play far faster than people: the message limits are raised here and tested on their own.
    base = RelaySettings(
        host="127.0.0.1",
        port=0,
        db=str(db),
        heartbeat=5.0,
        min_seconds=1,
        games=(TOY, *rules.GAMES),
        message_rate=5000,
        message_burst=5000,
        ip_message_rate=20000,
        ip_message_burst=20000,
    )
    return replace(base, **changes)


async def new_client(relay: RunningRelay, made: list[RelayClient], name: str = "", **kw: Any) -> RelayClient:
    client = RelayClient(relay.url, name=name, pauses=(0.05, 0.1, 0.2), **kw)
    made.append(client)
    await client.connect()
    return client


async def pair(
    relay: RunningRelay, made: list[RelayClient], game: str = TOY, options: dict[str, Any] | None = None, **create: Any
) -> tuple[RelayClient, RelayClient]:
    """Host (seat 0) and guest (seat 1) in a new room, both past their first snapshot."""
    host = await new_client(relay, made, "Host")
    guest = await new_client(relay, made, "Guest")
    joined = await host.create(game, options or {}, seat=create.pop("seat", 0), **create)
    await host.next("snapshot")
    await guest.join(joined["room"])
    await guest.next("snapshot")
    return host, guest


async def unload_room(relay: RunningRelay, players: list[RelayClient]) -> str:
    """Every player drops for good, then the relay unloads their room from memory; returns its code."""
    from server.relay import HALL

    code = players[0].room or ""
    for client in players:
        client.reconnect = False
        await client.drop()
    hall = relay.app[HALL]
    await until(lambda: not hall.rooms[code].has_peers())
    hall.sweep(idle_seconds=0, keep_seconds=86400)
    assert code not in hall.rooms
    return code


def calls_of(owner: Any, method: str, monkeypatch: Any) -> list[tuple[Any, ...]]:
    """The arguments of each call of ``owner.method`` from now on (each call still goes through):
    what a relay asks of its hall or its limits, each question on a cluster node maybe a look-up
    in Redis."""
    made: list[tuple[Any, ...]] = []
    real = getattr(owner, method)
    if inspect.iscoroutinefunction(real):

        async def awaited(*args: Any) -> Any:
            made.append(args)
            return await real(*args)

        monkeypatch.setattr(owner, method, awaited)
    else:

        def called(*args: Any) -> Any:
            made.append(args)
            return real(*args)

        monkeypatch.setattr(owner, method, called)
    return made


async def until(predicate: Callable[[], bool], timeout: float = 10.0) -> None:
    """Wait (without consuming messages) until ``predicate()`` holds."""
    async with asyncio.timeout(timeout):
        while not predicate():
            await asyncio.sleep(0.005)


async def play_to_end(
    players: list[RelayClient], rng: random.Random, max_actions: int = 20_000, timeout: float = 60.0
) -> dict[str, Any]:
    """Bots on the clients: each picks uniformly among the legal action texts of its view.

    Returns the ``finished`` result. Every action is sent with the ply it was chosen at,
    so a decision never lands on a position it was not made for.
    """
    async with asyncio.timeout(timeout):
        for _ in range(max_actions):
            for client in players:
                view = client.view
                if client.result is not None:
                    continue
                if view is not None and client.seat in view["to_move"] and view["legal"]:
                    await client.act(rng.choice(view["legal"]), ply=view["ply"])
            if all(c.result is not None for c in players):
                return players[0].result or {}
            await _wait_for_change(players)
    raise AssertionError("the match did not end")


async def _wait_for_change(players: list[RelayClient]) -> None:
    before = [(c.seq, c.result is not None) for c in players]
    for _ in range(2000):
        await asyncio.sleep(0.002)
        if [(c.seq, c.result is not None) for c in players] != before:
            return
    # nothing changed for 4 s: let the caller try again (a refused stale action, say)
