"""SQLite persistence of rooms, so a relay restart loses no match.

Two tables: ``rooms`` holds one JSON document per room (game, options, settings, seat
tokens, names, result, chat: what changes rarely) and ``actions`` holds the current
match's action list, one row per ply, appended as the match goes. A room is restored
by replaying its actions with the rules (``game.load``), which also rebuilds the event
log that reconnecting clients are sent. The dice are not stored as an RNG state: the
relay draws each chance outcome from ``random.Random`` seeded with the room's secret
``chance_seed`` and the ply (see :func:`server.rooms.chance_rng`), so the seed and the
ply are the whole RNG state.

The database runs in WAL mode with ``synchronous=NORMAL``: each commit is durable
against a crash of the relay process (an operating-system crash may lose the last
fraction of a second).

Seat tokens are stored only as hashes (:func:`server.rooms.hash_token`), and the file
(with its ``-wal`` and ``-shm`` companions) is readable by its owner only: mode 0600,
set when the relay creates it and tightened when it opens an older, looser one.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

_SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    doc TEXT NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS actions (
    code TEXT NOT NULL,
    match INTEGER NOT NULL,
    ply INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (code, match, ply)
);
"""


def private_file(path: str) -> None:
    """Create ``path`` readable and writable by its owner only (mode 0600), or make it so."""
    os.close(os.open(path, os.O_CREAT | os.O_RDWR, 0o600))
    os.chmod(path, 0o600)


class RoomStore:
    """Rooms and their action lists in one SQLite file (``":memory:"`` for a throwaway relay)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(path).parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            private_file(self.path)
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)
        if self.path != ":memory:":
            for suffix in ("-wal", "-shm"):  # SQLite gives them the database's mode; older ones may be looser
                with contextlib.suppress(FileNotFoundError):
                    os.chmod(self.path + suffix, 0o600)

    def close(self) -> None:
        self._db.close()

    def save_room(self, code: str, doc: dict[str, Any]) -> None:
        """Write (or replace) a room's document."""
        self._db.execute(
            "INSERT OR REPLACE INTO rooms (code, doc, updated) VALUES (?, ?, ?)",
            (code, json.dumps(doc, separators=(",", ":")), time.time()),
        )

    def append_actions(self, code: str, match: int, first_ply: int, actions: Iterable[tuple[int, str]]) -> None:
        """Append ``(seat, action text)`` rows numbered from ``first_ply``, in one transaction."""
        rows = [(code, match, first_ply + i, seat, text) for i, (seat, text) in enumerate(actions)]
        if not rows:
            return
        with self._db:
            self._db.execute("BEGIN")
            self._db.executemany(
                "INSERT OR REPLACE INTO actions (code, match, ply, seat, action) VALUES (?, ?, ?, ?, ?)", rows
            )
            self._db.execute("UPDATE rooms SET updated = ? WHERE code = ?", (time.time(), code))

    def drop_match(self, code: str, match: int) -> None:
        """Forget the action list of an earlier match of a room (after a rematch began)."""
        self._db.execute("DELETE FROM actions WHERE code = ? AND match = ?", (code, match))

    def load_room(self, code: str) -> tuple[dict[str, Any], list[list[Any]]] | None:
        """A room's document and its current match's ``[seat, action]`` list, or ``None``."""
        row = self._db.execute("SELECT doc FROM rooms WHERE code = ?", (code,)).fetchone()
        if row is None:
            return None
        doc = json.loads(row[0])
        actions = self._db.execute(
            "SELECT seat, action FROM actions WHERE code = ? AND match = ? ORDER BY ply", (code, doc["match"])
        ).fetchall()
        return doc, [[seat, action] for seat, action in actions]

    def delete_room(self, code: str) -> None:
        with self._db:
            self._db.execute("BEGIN")
            self._db.execute("DELETE FROM rooms WHERE code = ?", (code,))
            self._db.execute("DELETE FROM actions WHERE code = ?", (code,))

    def has_room(self, code: str) -> bool:
        return self._db.execute("SELECT 1 FROM rooms WHERE code = ?", (code,)).fetchone() is not None

    def stale_rooms(self, older_than: float) -> list[str]:
        """Codes of rooms not touched since ``older_than`` (a ``time.time()`` value)."""
        return [r[0] for r in self._db.execute("SELECT code FROM rooms WHERE updated < ?", (older_than,))]

    def room_count(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM rooms").fetchone()[0])
