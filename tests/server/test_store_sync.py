"""How durable a single relay's SQLite commits are: ``--db-sync normal`` (the default: a commit
survives a crash of the relay process) or ``full`` (an fsync per commit: it survives a power cut)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from server.__main__ import parse_args
from server.store import RoomStore


def synchronous_of(store: RoomStore) -> int:
    return int(store._db.execute("PRAGMA synchronous").fetchone()[0])


@pytest.mark.parametrize(("mode", "pragma"), [("normal", 1), ("full", 2)])
def test_the_store_runs_with_the_sync_mode_asked_for(tmp_path: Path, mode: str, pragma: int) -> None:
    store = RoomStore(tmp_path / "relay.sqlite3", mode)
    try:
        assert synchronous_of(store) == pragma
        assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        store.save_room("ABCDEF", {"code": "ABCDEF", "match": 1})
        store.append_actions("ABCDEF", 1, 0, [(0, "kick")])
    finally:
        store.close()
    # What was committed is there for another connection, whichever mode wrote it.
    with sqlite3.connect(tmp_path / "relay.sqlite3") as db:
        assert db.execute("SELECT seat, action FROM actions WHERE code = 'ABCDEF'").fetchall() == [(0, "kick")]


def test_normal_is_the_default_and_nothing_else_is_taken(tmp_path: Path) -> None:
    store = RoomStore(tmp_path / "relay.sqlite3")
    try:
        assert store.synchronous == "normal" and synchronous_of(store) == 1
    finally:
        store.close()
    with pytest.raises(ValueError, match="synchronous"):
        RoomStore(tmp_path / "other.sqlite3", "off")


def test_the_relay_takes_db_sync_from_its_command_line() -> None:
    assert parse_args(["--db-sync", "full"]).db_sync == "full"
    assert parse_args([]).db_sync == "normal"
    with pytest.raises(SystemExit):
        parse_args(["--db-sync", "off"])
