"""SQLite persistence of rooms, so a relay restart loses no match.

Two tables: ``rooms`` holds one JSON document per room (game, options, settings, seat
tokens, names, result, chat: what changes rarely) and ``actions`` holds the current
match's action list, one row per ply, appended as the match goes. A room is restored
by replaying its actions with the rules (``game.load``), which also rebuilds the event
log that reconnecting clients are sent. The dice are not stored as an RNG state: the
relay draws each chance outcome from ``random.Random`` seeded with the room's secret
``chance_seed`` and the ply (see :func:`server.rooms.chance_rng`), so the seed and the
ply are the whole RNG state.

The database runs in WAL mode. With ``synchronous="normal"`` (the default) a commit is
written to the log file (``write(2)``) before it returns, so it survives a crash or a
``SIGKILL`` of the relay process, but the log is synced to disk only at each checkpoint
(every second, :class:`_Checkpointer`): a power cut or an operating-system crash may lose
the last second or so of acknowledged moves. ``synchronous="full"`` syncs the log at every
commit (one batch per turn of the event loop), so an acknowledged move survives a power cut
too, at the cost of an ``fsync`` per batch (``soccerdesk-relay --db-sync full``).

Seat tokens are stored only as hashes (:func:`server.rooms.hash_token`), and the file
(with its ``-wal`` and ``-shm`` companions) is readable by its owner only: mode 0600,
set when the relay creates it and tightened when it opens an older, looser one.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from server.pace import Pace

log = logging.getLogger("soccerdesk.relay")

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


SYNC_MODES = ("normal", "full")
"""What ``synchronous`` a :class:`RoomStore` may run with (see the module docstring)."""


def private_file(path: str) -> None:
    """Create ``path`` readable and writable by its owner only (mode 0600), or make it so."""
    os.close(os.open(path, os.O_CREAT | os.O_RDWR, 0o600))
    os.chmod(path, 0o600)


class _Checkpointer(threading.Thread):
    """Checkpoints the write-ahead log every ``every`` seconds, off the event loop.

    Checkpoints that fail (a full disk) are logged when they start failing, then at most once a
    minute of ``clock`` while they go on failing, and once when they work again."""

    def __init__(
        self,
        path: str,
        every: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
        connect: Callable[[str], sqlite3.Connection] = lambda path: sqlite3.connect(path, isolation_level=None),
    ) -> None:
        super().__init__(name="relay-checkpoint", daemon=True)
        self.path, self.every, self.connect = path, every, connect
        self.failures = Pace(60.0, clock)
        self._stop_event = threading.Event()
        self.start()

    def run(self) -> None:
        db = self.connect(self.path)
        try:
            while not self._stop_event.wait(self.every):
                self.checkpoint(db)
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the relay is stopping: leave a short log
        except sqlite3.Error as exc:
            log.warning("last checkpoint of %s failed: %s", self.path, exc)
        finally:
            db.close()

    def checkpoint(self, db: sqlite3.Connection) -> None:
        try:
            db.execute("PRAGMA wal_checkpoint(PASSIVE)")  # never waits for or blocks a writer
        except sqlite3.Error as exc:
            starting = not self.failures.happening
            failed = self.failures.happened()
            if starting:
                log.warning(
                    "checkpoints of %s fail: %s (said again at most once a minute while they do)", self.path, exc
                )
            elif failed:
                log.warning(
                    "checkpoints of %s still fail: %s (%d failed since the last report)", self.path, exc, failed
                )
            return
        if self.failures.happening:
            log.info("checkpoints of %s work again", self.path)
            self.failures.reset()

    def stop(self) -> None:
        self._stop_event.set()
        self.join(timeout=10)


class RoomStore:
    """Rooms and their action lists in one SQLite file (``":memory:"`` for a throwaway relay)."""

    def __init__(
        self,
        path: str | Path,
        synchronous: str = "normal",
    ) -> None:
        """:attr:`on_failure` ``(code, error)``, once set, is told of each room whose writes a
        failed commit lost (see :meth:`flush`); the relay's :class:`server.rooms.Hall` sets it,
        says so in its log and drops the room from memory (or keeps a room its host closed)."""
        if synchronous not in SYNC_MODES:
            raise ValueError(f"synchronous is one of {', '.join(SYNC_MODES)}, not {synchronous!r}")
        self.path = str(path)
        self.synchronous = synchronous
        if self.path != ":memory:":
            Path(path).parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            private_file(self.path)
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={synchronous.upper()}")
        self._db.executescript(_SCHEMA)
        self._checkpointer: _Checkpointer | None = None
        if self.path != ":memory:":
            # A checkpoint copies the log into the database and syncs it to disk: tens of
            # milliseconds on a busy disk, which the event loop must not wait for. It runs
            # in a thread of its own, with a connection of its own, and never blocks writers.
            self._db.execute("PRAGMA wal_autocheckpoint=0")
            self._checkpointer = _Checkpointer(self.path)
        self.on_failure: Callable[[str, Exception], None] | None = None
        self._docs: dict[str, str] = {}
        self._drops: list[tuple[str, int]] = []  # (code, match) of earlier matches to forget
        self._rows: list[tuple[str, int, int, int, str]] = []
        self._touched: set[str] = set()
        self._committed: asyncio.Future[None] | None = None
        if self.path != ":memory:":
            for suffix in ("-wal", "-shm"):  # SQLite gives them the database's mode; older ones may be looser
                with contextlib.suppress(FileNotFoundError):
                    os.chmod(self.path + suffix, 0o600)

    def close(self) -> None:
        self.flush()
        if self._checkpointer is not None:
            self._checkpointer.stop()
        self._db.close()

    # Writes are batched: what the event loop's callbacks write during one turn of the loop
    # is committed in one transaction at the start of the next turn (not one per action).
    # Nothing is acknowledged before it is committed: the relay's connections send a frame
    # only once durable() says every write made before the frame was queued is committed.

    def save_room(self, code: str, doc: dict[str, Any]) -> None:
        """Write (or replace) a room's document (committed with the next batch)."""
        self._docs[code] = json.dumps(doc, separators=(",", ":"))
        self._schedule()

    def append_actions(self, code: str, match: int, first_ply: int, actions: Iterable[tuple[int, str]]) -> None:
        """Append ``(seat, action text)`` rows numbered from ``first_ply`` (committed with the next batch)."""
        rows = [(code, match, first_ply + i, seat, text) for i, (seat, text) in enumerate(actions)]
        if rows:
            self._rows.extend(rows)
            self._touched.add(code)
            self._schedule()

    def durable(self) -> asyncio.Future[None] | None:
        """A future done when everything written so far is committed, or ``None`` if it is already."""
        return self._committed

    def durable_for(self, code: str) -> asyncio.Future[None] | None:
        """:meth:`durable`: one commit holds every room's writes."""
        return self._committed

    def _schedule(self) -> None:
        if self._committed is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a script, a test of the store): commit at once
            self.flush()
            return
        self._committed = loop.create_future()
        loop.call_soon(self.flush)

    def flush(self) -> None:
        """Commit every pending write in one transaction.

        A commit that fails (a full disk, an I/O error) stores none of them, and they are not
        tried again: the rooms that wrote them are ahead of the database in memory. The future
        of :meth:`durable` fails, so that no frame telling of those writes is sent (the
        connections waiting on it are closed with ``server_busy``), and ``on_failure`` is told
        of each of those rooms, so that the relay forgets them: a ``resume`` then rebuilds
        each from what the database holds, which is exactly what was acknowledged.
        """
        docs, drops, rows, touched, committed = self._docs, self._drops, self._rows, self._touched, self._committed
        self._docs, self._drops, self._rows, self._touched, self._committed = {}, [], [], set(), None
        if not docs and not drops and not rows:
            if committed is not None and not committed.done():
                committed.set_result(None)
            return
        now = time.time()
        try:
            with self._db:
                self._db.execute("BEGIN")
                self._db.executemany("DELETE FROM actions WHERE code = ? AND match = ?", drops)
                self._db.executemany(
                    "INSERT OR REPLACE INTO rooms (code, doc, updated) VALUES (?, ?, ?)",
                    [(code, doc, now) for code, doc in docs.items()],
                )
                self._db.executemany(
                    "INSERT OR REPLACE INTO actions (code, match, ply, seat, action) VALUES (?, ?, ?, ?, ?)", rows
                )
                self._db.executemany(
                    "UPDATE rooms SET updated = ? WHERE code = ?", [(now, code) for code in touched - docs.keys()]
                )
        except Exception as exc:
            lost = sorted(docs.keys() | touched | {code for code, _ in drops})
            # Each room's fate is said by on_failure's owner (the hall), which may keep a room.
            log.error("committing %d room documents and %d actions failed (%s)", len(docs), len(rows), exc)
            if committed is not None and not committed.done():
                committed.set_exception(exc)
                committed.exception()  # retrieved: the connections waiting on it close (server_busy)
            if self.on_failure is None:
                raise
            for code in lost:
                self.on_failure(code, exc)
            return
        if committed is not None and not committed.done():
            committed.set_result(None)

    def drop_match(self, code: str, match: int) -> None:
        """Forget the action list of an earlier match of a room (after a rematch began), in the
        same commit as the room's next document, which names the new match."""
        self._rows = [row for row in self._rows if row[0] != code or row[1] != match]
        self._drops.append((code, match))
        self._schedule()

    def load_room(self, code: str) -> tuple[dict[str, Any], list[list[Any]]] | None:
        """A room's document and its current match's ``[seat, action]`` list, or ``None``."""
        self.flush()
        row = self._db.execute("SELECT doc FROM rooms WHERE code = ?", (code,)).fetchone()
        if row is None:
            return None
        doc = json.loads(row[0])
        actions = self._db.execute(
            "SELECT seat, action FROM actions WHERE code = ? AND match = ? ORDER BY ply", (code, doc["match"])
        ).fetchall()
        return doc, [[seat, action] for seat, action in actions]

    def delete_room(self, code: str) -> None:
        self.flush()
        with self._db:
            self._db.execute("BEGIN")
            self._db.execute("DELETE FROM rooms WHERE code = ?", (code,))
            self._db.execute("DELETE FROM actions WHERE code = ?", (code,))

    def has_room(self, code: str) -> bool:
        self.flush()
        return self._db.execute("SELECT 1 FROM rooms WHERE code = ?", (code,)).fetchone() is not None

    def stale_rooms(self, older_than: float) -> list[str]:
        """Codes of rooms not touched since ``older_than`` (a ``time.time()`` value)."""
        self.flush()
        return [r[0] for r in self._db.execute("SELECT code FROM rooms WHERE updated < ?", (older_than,))]

    def room_count(self) -> int:
        self.flush()
        return int(self._db.execute("SELECT COUNT(*) FROM rooms").fetchone()[0])
