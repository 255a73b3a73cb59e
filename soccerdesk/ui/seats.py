"""The online seats this computer keeps, to take them back after a crash or from another window.

A seat is remembered (its relay, room, token and player's name) when its player joins a room or
both seats of a room the player created are taken, one settings key per seat; beside it, a line
about its match as last seen here ("Soccer-Go with Bob, 1–0", " (over)" added once it ended).
The online dialog resumes them; the home screen shows those whose match was not seen to end
(:func:`waiting_matches`). The window that plays a seat holds its :class:`SeatLock`.

Only Qt's core and the settings: the home screen reads these without loading the network code.
"""

from __future__ import annotations

import hashlib
import logging
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QLockFile, QObject, QTimer

log = logging.getLogger("soccerdesk.online")


@dataclass(frozen=True)
class RememberedSeat:
    """A seat this computer took in an online match: enough to resume it after a crash."""

    url: str
    room: str
    token: str
    name: str

    def line(self) -> str:
        return f"{self.url} {self.room} {self.token} {self.name}"

    @property
    def key(self) -> str:
        """This seat's name among the settings' keys (see :func:`remember_seat`)."""
        return _seat_key(self.room, self.token)


REMEMBERED_SEATS = 6
"""Online seats kept for resuming, newest first."""

SEATS_GROUP = "online/seat"
"""One key per remembered seat (``ROOM-tokenp``), its value ``"<time> <url> <room> <token> <name>"``."""


def _seat_key(room: str, token: str) -> str:
    """How one seat is named among the settings' keys: per seat, for two windows that share the
    settings play the two seats of one room (a token's first characters tell seats apart)."""
    return f"{room}-{token[:6]}"


def _parse_seat(line: str) -> RememberedSeat | None:
    parts = line.strip().split(" ", 3)
    if len(parts) < 3 or not all(parts[:3]):
        return None
    return RememberedSeat(parts[0], parts[1], parts[2], parts[3] if len(parts) > 3 else "")


def _stored_seats(settings: Any) -> list[tuple[float, RememberedSeat]]:
    """Every seat kept under :data:`SEATS_GROUP`, with when it was remembered, newest first."""
    found: list[tuple[float, RememberedSeat]] = []
    for key in settings.keys(SEATS_GROUP):
        stamp, _, line = str(settings.get(f"{SEATS_GROUP}/{key}", "") or "").partition(" ")
        seat = _parse_seat(line)
        try:
            when = float(stamp)
        except ValueError:
            continue
        if seat is not None:
            found.append((when, seat))
    found.sort(key=lambda entry: entry[0], reverse=True)
    return found


def _old_seats(settings: Any) -> list[RememberedSeat]:
    """Seats kept by earlier versions, newest first: all in one line (``online/seats``), which two
    windows on one profile wrote over each other's, and before that ``online/last``."""
    lines = [*str(settings.get("online/seats", "") or "").split("\n"), str(settings.get("online/last", "") or "")]
    return [seat for seat in map(_parse_seat, lines) if seat is not None]


def remembered_seats(settings: Any) -> list[RememberedSeat]:
    """The online seats to offer for resuming, newest first: this window's and those another
    window on the same profile took, read afresh from the settings' file."""
    settings.reload()
    seats: list[RememberedSeat] = []
    for seat in [seat for _, seat in _stored_seats(settings)] + _old_seats(settings):
        if all((s.room, s.token) != (seat.room, seat.token) for s in seats):
            seats.append(seat)
    return seats[:REMEMBERED_SEATS]


def remember_seat(settings: Any, seat: RememberedSeat) -> None:
    """Keep ``seat`` first among the seats to resume.

    Each seat is a key of its own, written only by the window that took (or resumed) it: two
    windows on one profile are two processes, and a list of seats in one key was written whole
    by each, so the last writer dropped the other's seat, and its player could no longer get
    back into a running match (QA pass 16). The settings merge key by key, so both are kept.
    Seats beyond the newest :data:`REMEMBERED_SEATS` are forgotten; nothing else is removed.
    """
    settings.reload()  # what the other window wrote since: its seats count among the newest
    _move_old_seats(settings)
    settings.set(f"{SEATS_GROUP}/{seat.key}", f"{time.time():.6f} {seat.line()}")
    for _, stale in _stored_seats(settings)[REMEMBERED_SEATS:]:
        _drop_seat(settings, stale)
    # Written now, not when Qt gets round to it: a window killed a moment later keeps its seat,
    # and the other window sees it the next time it looks.
    settings.reload()


def forget_seat(settings: Any, seat: RememberedSeat) -> None:
    """No longer offer ``seat`` (its room is gone from the relay, or the token holds no seat
    there): its key and the line about its match are removed, for every window on the profile."""
    settings.reload()
    _move_old_seats(settings)
    _drop_seat(settings, seat)
    settings.reload()


def _drop_seat(settings: Any, seat: RememberedSeat) -> None:
    """Remove ``seat``'s key and the line about its match."""
    settings.remove(f"{SEATS_GROUP}/{seat.key}")
    settings.remove(about_key(seat.room, seat.token))


def _move_old_seats(settings: Any) -> None:
    """Give each seat of an earlier version's list (:func:`_old_seats`) a key of its own, behind
    the seats kept since, and drop the list."""
    old = _old_seats(settings)
    if not old:
        return
    kept = {s.key for _, s in _stored_seats(settings)}
    for age, earlier in enumerate(old):
        if earlier.key not in kept:
            settings.set(f"{SEATS_GROUP}/{earlier.key}", f"{-age} {earlier.line()}")
    settings.remove("online/seats")
    settings.remove("online/last")


SEAT_LOCK_RETRY_MS = 500
"""How often a window that took a seat over tries again for its lock, until the other lets go."""


def seat_lock_path(data_dir: Path, room: str, token: str) -> Path:
    """The lock file of one online seat in the app's data folder: named by the room and a hash
    of the token (a token is the seat: it is never written where a file name would show it)."""
    digest = hashlib.sha256(token.encode()).hexdigest()[:16]
    code = "".join(c for c in room if c.isalnum())[:16] or "room"
    return data_dir / "online-seats" / f"{code}-{digest}.lock"


class SeatLock(QObject):
    """The lock of one online seat, held by the window that plays it (see :func:`seat_lock_path`).

    Two windows on one profile are two processes: the one that resumes a seat asks first
    whether to take it over when :meth:`try_take` finds another running soccerdesk holding
    it. The lock of a process that is gone is taken over (:func:`~soccerdesk.ui.session.hold_lock`).
    :meth:`keep_trying` holds it at once or as soon as the other window lets go (it does when
    the relay tells it that its seat was taken), so a third window is asked as well.
    """

    def __init__(self, path: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.path = path
        self._lock: QLockFile | None = None
        self._retry = QTimer(self)
        self._retry.setInterval(SEAT_LOCK_RETRY_MS)
        self._retry.timeout.connect(self._try_again)

    @property
    def held(self) -> bool:
        return self._lock is not None

    def try_take(self) -> int | None:
        """Take the lock unless another running soccerdesk holds it: ``None`` then, else that
        process's id (0 when not known). A folder that cannot hold locks counts as free (said in
        the log): the seat is played, nobody is asked."""
        from soccerdesk.ui.session import LockHeld, hold_lock  # (not at start-up: the home screen reads seats)

        if self._lock is None:
            try:
                self._lock = hold_lock(self.path)
            except LockHeld as exc:
                return exc.pid
            except OSError as exc:
                log.warning("the seat's lock cannot be taken: %s", exc)
        return None

    def keep_trying(self) -> None:
        """Hold the lock: now, or as soon as the window that holds it lets go."""
        if self.try_take() is not None:
            self._retry.start()

    def _try_again(self) -> None:
        if self.try_take() is None:
            self._retry.stop()

    def release(self) -> None:
        """Let go (also of trying): another window may take the seat without being asked."""
        self._retry.stop()
        if self._lock is not None:
            self._lock.unlock()
            self._lock = None


def about_key(room: str, token: str) -> str:
    """Where the line about one seat's match is kept (per seat, as the seat itself)."""
    return f"online/about/{_seat_key(room, token)}" if room and token else ""


def seat_words(settings: Any, seat: RememberedSeat) -> str:
    """Which match a remembered seat is: the game, the opponent and the score as last seen here,
    the room and the player ("Soccer-Go with Bob, 0–0 — room W5VRX7 as Alice")."""
    about = str(settings.get(about_key(seat.room, seat.token), "") or "")
    return f"{about + ' — ' if about else ''}room {seat.room} as {seat.name or 'unnamed'}"


OVER = " (over)"
"""How the line about a seat's match (:func:`about_key`) ends once the match is seen to end
(full time, resigned, abandoned)."""


def remember_about(settings: Any, key: str, text: str) -> None:
    """Keep a line about a seat's match (``key``: :func:`about_key`) for "Resume a match…"."""
    if key and settings.get(key, "") != text:
        settings.set(key, text)


@dataclass(frozen=True)
class WaitingMatch:
    """An online match this computer keeps a seat in and has not seen end: the relay may be
    waiting for its player (unless it ended or the room went while nobody here looked).

    ``about``: the game, the opponent and the score as last seen here ("Soccer-Go with Bob,
    1–0"; empty when no position of it was ever shown). ``elsewhere``: another soccerdesk window
    on this computer plays it now (resuming it here takes it over, asked first).
    """

    seat: RememberedSeat
    about: str
    elsewhere: bool


def waiting_matches(settings: Any, data_dir: Path) -> list[WaitingMatch]:
    """The remembered seats whose match was not seen to end, newest first; those this process
    plays now are left out (the window that plays one does not offer to resume it).

    Read from the settings and the seats' lock files only: nothing is asked of any relay, so a
    match that ended or a room that went meanwhile is listed until its resume says so.
    """
    found: list[WaitingMatch] = []
    for seat in remembered_seats(settings):
        about = str(settings.get(about_key(seat.room, seat.token), "") or "")
        if about.endswith(OVER):
            continue
        holder = seat_holder(data_dir, seat)
        if holder == os.getpid():
            continue
        found.append(WaitingMatch(seat, about, holder is not None))
    return found


def seat_holder(data_dir: Path, seat: RememberedSeat) -> int | None:
    """The process id of the running soccerdesk that holds ``seat``'s lock now (0 when not known),
    or ``None`` when none does. Looking takes the free lock for a moment and lets it go."""
    lock = SeatLock(seat_lock_path(data_dir, seat.room, seat.token))
    try:
        return lock.try_take()
    finally:
        lock.release()
