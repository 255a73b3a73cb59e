"""A relay whose database cannot be written (a full disk, an I/O error) loses nothing acknowledged.

The disk is made full the way the relay audit did it: the relay runs in a process of its own, and
its file-size limit (``RLIMIT_FSIZE``) is lowered to one byte, so that every write SQLite makes to
its files fails (``disk I/O error``) while reads go on working. Raising the limit again is the
operator freeing space. protocol.md, "Persistence": nothing acknowledged is lost; a move that
could not be stored is never shown as played; the people in the room get ``server_busy`` and
resume once the relay can save again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import sqlite3
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from relay_helpers import TOY, new_client, relay_settings, until

from server.relay import HALL, RunningRelay, start_relay
from server.store import RoomStore, _Checkpointer
from soccerdesk.net.client import RelayClient, RelayError
from tests.relay_process import RelayProcess, disk_full, kill_process

GAME, OPTIONS = "pawn-soccer", {"quick_setup": True}


@pytest.fixture
async def relay_process(tmp_path: Path) -> AsyncIterator[RelayProcess]:
    relay = RelayProcess(tmp_path / "relay.sqlite3")
    try:
        yield relay
    finally:
        kill_process(relay.proc)


async def player(relay: RelayProcess, made: list[RelayClient], name: str) -> tuple[RelayClient, list[dict[str, Any]]]:
    """A client that reconnects by itself, and every message it was sent."""
    seen: list[dict[str, Any]] = []
    client = RelayClient(relay.url, name=name, on_message=seen.append, pauses=(0.1, 0.2, 0.3))
    made.append(client)
    await client.connect()
    return client, seen


async def play(players: list[RelayClient], rng: random.Random, moves: int) -> None:
    """``moves`` decisions, each answered before the next is made."""
    for _ in range(moves):
        await until(lambda: len({c.seq for c in players}) == 1 and bool(deciding(players)))
        mover = deciding(players)[0]
        ply = mover.seq
        await mover.act(rng.choice((mover.view or {})["legal"]), ply=ply)
        await until(lambda ply=ply: all(c.seq > ply for c in players))  # type: ignore[misc]


def deciding(players: list[RelayClient]) -> list[RelayClient]:
    """The players whose latest view asks them to decide."""
    return [c for c in players if c.view is not None and c.seat in c.view["to_move"]]


def stored_plies(db: Path, code: str) -> list[int]:
    with sqlite3.connect(db) as conn:
        return [row[0] for row in conn.execute("SELECT ply FROM actions WHERE code = ? ORDER BY ply", (code,))]


async def test_a_move_the_relay_could_not_store_is_not_played_and_nothing_acknowledged_is_lost(
    relay_process: RelayProcess, clients: list[RelayClient]
) -> None:
    host, host_seen = await player(relay_process, clients, "Host")
    guest, guest_seen = await player(relay_process, clients, "Guest")
    joined = await host.create(GAME, OPTIONS, seat=0)
    await guest.join(joined["room"])
    await until(lambda: host.view is not None and guest.view is not None)
    rng = random.Random(7)
    await play([host, guest], rng, 6)
    before = host.seq

    disk_full(relay_process.proc, True)
    mover = deciding([host, guest])[0]
    await mover.act(rng.choice((mover.view or {})["legal"]), ply=before)
    # Both players are told the relay cannot save, and neither is shown the move.
    for seen in (host_seen, guest_seen):
        await until(lambda seen=seen: any(m["type"] == "error" for m in seen))  # type: ignore[misc]
        error = next(m for m in seen if m["type"] == "error")
        assert error["code"] == "server_busy" and "cannot save" in error["message"]
    await asyncio.sleep(1.0)  # a few resumes, each refused while the disk is full
    assert host.seq == guest.seq == before
    assert not any(m["type"] == "update" and m["seq"] > before for m in host_seen + guest_seen)
    assert host.status == guest.status == "reconnecting" and host.room == guest.room == joined["room"]

    disk_full(relay_process.proc, False)
    await until(lambda: host.status == guest.status == "connected")
    assert host.seq == guest.seq == before  # back where the stored match is
    await play([host, guest], rng, 5)
    assert stored_plies(relay_process.db, joined["room"]) == list(range(host.seq))  # no gap
    seen_last = host.seq, host.view, guest.view

    relay_process.kill_and_restart()
    await until(lambda: host.status == guest.status == "reconnecting")
    await until(lambda: host.status == guest.status == "connected", timeout=15)
    assert (host.seq, host.view, guest.view) == seen_last  # the same match, not a rewritten one
    await play([host, guest], rng, 3)


async def test_a_room_that_could_not_be_stored_is_not_made_and_a_join_waits_for_the_disk(
    relay_process: RelayProcess, clients: list[RelayClient]
) -> None:
    host, _ = await player(relay_process, clients, "Host")
    guest, _ = await player(relay_process, clients, "Guest")
    disk_full(relay_process.proc, True)
    with pytest.raises(RelayError) as refused:
        await host.create(GAME, OPTIONS, seat=0)
    assert refused.value.code == "server_busy"
    assert host.room is None

    disk_full(relay_process.proc, False)
    await until(lambda: host.status == "closed" or not host.connected)
    await host.connect()
    joined = await host.create(GAME, OPTIONS, seat=0)
    disk_full(relay_process.proc, True)
    with pytest.raises(RelayError) as refused:
        await guest.join(joined["room"])
    assert refused.value.code == "server_busy"

    disk_full(relay_process.proc, False)
    await until(lambda: host.status == "connected", timeout=15)  # its connection was closed: it resumed
    await until(lambda: not guest.connected)
    await guest.connect()
    await guest.join(joined["room"])  # the seat was not given away by the failed join
    await until(lambda: host.view is not None and guest.view is not None and guest.seat == 1)

    relay_process.kill_and_restart()
    await until(lambda: host.status == guest.status == "connected", timeout=15)
    assert [p["name"] for p in host.players] == ["Host", "Guest"]


async def test_a_close_the_full_disk_kept_from_being_stored_still_holds_and_nobody_enters_the_room(
    relay_process: RelayProcess, clients: list[RelayClient]
) -> None:
    """protocol.md, "Leaving": the host's close kills the room's code, also when the disk is full.
    The room was dropped from memory and stayed stored open, so a spectator resuming and a friend
    joining later entered a room its host had closed (and had left: the app closes at once)."""
    host, _ = await player(relay_process, clients, "Host")
    watcher, watched = await player(relay_process, clients, "Watcher")
    code = (await host.create(GAME, OPTIONS, seat=0))["room"]
    await watcher.spectate(code)
    disk_full(relay_process.proc, True)
    await host.leave()  # the app's Cancel on the waiting screen: leave, then close
    await host.close()
    await until(lambda: any(m["type"] == "error" for m in watched))
    await until(lambda: watcher.status != "connected")  # the error's connection is closed
    disk_full(relay_process.proc, False)
    # The relay's error comes first and the status says "lost" when it then hangs up: wait for both.
    await until(lambda: watcher.status.startswith("lost") or watcher.status == "connected")
    assert watcher.fatal_code == "no_room" and watcher.status.startswith("lost")  # back in the room: no
    friend, _ = await player(relay_process, clients, "Friend")
    with pytest.raises(RelayError) as refused:
        await friend.join(code)
    assert refused.value.code == "no_room" and "is gone" in refused.value.message


class FullDisk:
    """A connection to the database whose checkpoints fail while ``full`` says so: one call of
    ``script`` per checkpoint tried (``True``: the disk is full), each a second after the one
    before on :attr:`now`, the checkpointer's clock. Once the script is played, ``played`` is set."""

    def __init__(self, path: str, script: list[bool]) -> None:
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)  # used in the thread
        self.script = script
        self.now = 1000.0
        self.played = threading.Event()

    def execute(self, sql: str) -> sqlite3.Cursor:
        if "wal_checkpoint(PASSIVE)" in sql and self.script:
            self.now += 1.0
            if self.script.pop(0):
                raise sqlite3.OperationalError("database or disk is full")
            if not self.script:
                self.played.set()
        return self.db.execute(sql)

    def close(self) -> None:
        self.db.close()


def test_checkpoints_failing_on_a_full_disk_are_logged_when_they_start_once_a_minute_and_when_they_work_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """server/README.md, a full disk: the relay's log is not flooded by the checkpoint every second."""
    store = RoomStore(tmp_path / "relay.sqlite3")
    store.save_room("ABCDEF", {"code": "ABCDEF", "match": 1})
    # 150 s of a full disk (a checkpoint a second), space again, then the disk full once more for 3 s.
    disk = FullDisk(store.path, [True] * 150 + [False] * 5 + [True] * 3 + [False])
    with caplog.at_level(logging.INFO, logger="soccerdesk.relay"):
        checkpointer = _Checkpointer(store.path, every=0, clock=lambda: disk.now, connect=lambda path: disk)
        try:
            assert disk.played.wait(30)
        finally:
            checkpointer.stop()
            store.close()
    said = [r.getMessage() for r in caplog.records if "checkpoint" in r.getMessage()]
    assert said == [
        f"checkpoints of {store.path} fail: database or disk is full (said again at most once a minute while they do)",
        f"checkpoints of {store.path} still fail: database or disk is full (60 failed since the last report)",
        f"checkpoints of {store.path} still fail: database or disk is full (60 failed since the last report)",
        f"checkpoints of {store.path} work again",
        f"checkpoints of {store.path} fail: database or disk is full (said again at most once a minute while they do)",
        f"checkpoints of {store.path} work again",
    ]


class FillingDb:
    """The store's database connection, whose writes fail while :attr:`full` (a full disk), or
    only those of room :attr:`full_for`; reads go on working. :attr:`refused` counts the writes
    it refused."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.full = False
        self.full_for: str | None = None
        self.refused = 0

    def __enter__(self) -> sqlite3.Connection:
        return self.db.__enter__()

    def __exit__(self, *exc: Any) -> Any:
        return self.db.__exit__(*exc)

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        self._check(sql, args)
        return self.db.execute(sql, *args)

    def executemany(self, sql: str, rows: Any) -> sqlite3.Cursor:
        rows = list(rows)
        self._check(sql, rows)
        return self.db.executemany(sql, rows)

    def _check(self, sql: str, args: Any) -> None:
        if sql.lstrip().upper().startswith(("SELECT", "BEGIN")):
            return
        if self.full or (self.full_for is not None and self.full_for in repr(args)):
            self.refused += 1
            raise sqlite3.OperationalError("database or disk is full")

    def close(self) -> None:
        self.db.close()


@contextlib.asynccontextmanager
async def filling_relay(
    db_path: Path, sweep_every: float
) -> AsyncIterator[tuple[RunningRelay, FillingDb, list[RelayClient]]]:
    """A relay whose store's database is a :class:`FillingDb`, and a list for its clients (closed,
    then the relay stopped, at the end)."""
    relay = await start_relay(relay_settings(db_path, sweep_every=sweep_every))
    made: list[RelayClient] = []
    try:
        store = relay.app[HALL].store
        db = store._db = FillingDb(store._db)  # type: ignore[attr-defined]
        yield relay, db, made
    finally:
        for client in made:
            await client.close()
        await relay.stop()


async def test_a_close_the_store_refused_is_kept_holds_up_no_other_room_and_the_room_goes_once_it_can(
    db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """server/README.md, a full disk; protocol.md, "Leaving": a host's close that could not be
    stored (nor the room deleted) is kept in memory (a join is told the room is gone, not
    ``server_busy``), the delete tried again at each sweep, said once when it fails and once when
    it goes; the rooms after it are swept all the same, and no sweep logs the failure again."""
    async with filling_relay(db_path, sweep_every=0.02) as (relay, db, made):
        hall = relay.app[HALL]
        store = hall.store
        first, second = await new_client(relay, made, "First"), await new_client(relay, made, "Second")
        stuck = (await first.create(TOY))["room"]
        other = (await second.create(TOY))["room"]
        with caplog.at_level(logging.INFO, logger="soccerdesk.relay"):
            db.full_for = stuck
            await first.leave()  # both rooms are closed before anyone joined: the sweep deletes them
            await first.close()  # as the app does
            await second.leave()
            await until(lambda: db.refused >= 6)  # the close, then a delete at each of five sweeps
            assert other not in hall.rooms and not store.has_room(other)
            assert stuck in hall.rooms and not store.load_room(stuck)[0]["closed"]  # type: ignore[index]
            late = await new_client(relay, made, "Late")
            with pytest.raises(RelayError) as caught:
                await late.join(stuck)
            assert caught.value.code == "no_room" and "is gone" in caught.value.message
            db.full_for = None
            await until(lambda: not store.has_room(stuck) and stuck not in hall.rooms)
        said = [r.getMessage() for r in caplog.records if stuck in r.getMessage()]
        assert said == [
            f"room {stuck}, closed by its host, could not be deleted (database or disk is full); "
            "it is kept closed in memory and tried again at each sweep",
            f"room {stuck}, closed by its host, is deleted",
        ]
        commits = [r for r in caplog.records if r.getMessage().startswith("committing")]
        assert len(commits) == 1  # the close's own commit; the sweeps after it say nothing
        assert not [r for r in caplog.records if r.getMessage() == "room sweep failed"]


async def test_a_close_and_a_sweep_in_the_same_turn_on_a_full_disk_leave_the_room_closed_for_everyone(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """protocol.md, "Leaving": the host's close kills the room's code. A sweep in the turn of the
    close, before its commit, took the room out of memory; the close's commit then failed (a full
    disk), the room stayed stored open, and a friend joining later entered it."""
    async with filling_relay(db_path, sweep_every=3600) as (relay, db, made):  # the test sweeps
        hall = relay.app[HALL]
        host = await new_client(relay, made, "Host")
        code = (await host.create(TOY))["room"]
        room = hall.rooms[code]
        receive = room.receive

        def receive_then_sweep(peer: Any, msg: dict[str, Any]) -> None:
            receive(peer, msg)
            if msg["type"] == "leave":
                hall.sweep(60, 3600)  # the relay's sweeper, in the same turn

        monkeypatch.setattr(room, "receive", receive_then_sweep)
        db.full = True
        await host.leave()
        await host.close()
        early = await new_client(relay, made, "Early")
        with pytest.raises(RelayError) as refused:
            await early.join(code)
        assert refused.value.code == "no_room" and "is gone" in refused.value.message
        db.full = False
        hall.sweep(60, 3600)
        friend = await new_client(relay, made, "Friend")
        with pytest.raises(RelayError) as refused:
            await friend.join(code)
        assert refused.value.code == "no_room"
        assert not hall.store.has_room(code)


async def test_a_relay_stopped_while_the_disk_is_still_full_says_which_closes_it_lost(
    db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """server/README.md, a full disk: a relay stopped while the disk is still full forgets a close
    it could not store (the room comes back open after a restart), and its log names the room."""
    with caplog.at_level(logging.INFO, logger="soccerdesk.relay"):
        async with filling_relay(db_path, sweep_every=3600) as (relay, db, made):
            host = await new_client(relay, made, "Host")
            code = (await host.create(TOY))["room"]
            db.full = True
            await host.leave()
            await host.close()
            await until(lambda: db.refused >= 1)
    said = [r.getMessage() for r in caplog.records if r.getMessage().startswith(f"room {code}: its host's close")]
    assert said == [
        f"room {code}: its host's close is lost (the store refused it until the relay stopped); "
        "it may come back open after a restart"
    ]
    again = RoomStore(db_path)  # as the relay restarted finds it
    try:
        assert not again.load_room(code)[0]["closed"]  # type: ignore[index]
    finally:
        again.close()
