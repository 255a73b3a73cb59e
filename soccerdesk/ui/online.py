"""Network play in the app: host a LAN game, join one, or play through an online relay.

The main window calls :func:`open_online_dialog` with ``kind`` ``"host"``, ``"join"`` or
``"online"``. The dialog collects what it needs, talks to the relay through
:class:`~soccerdesk.net.client.RelayClient` on the app's one (qasync) event loop, shows
the lobby (the code to give a friend, who is here, the connection) and, once both seats
are taken, hands the window a :class:`RemoteSession` through ``window.show_session``.

* **Host a LAN game** starts the same relay as ``soccerdesk-relay`` inside this process
  (:func:`server.relay.start_relay`, listening on every interface), creates the room,
  shows this computer's address and the code, and announces the game on the local
  network (mDNS) so a friend can pick it from a list.
* **Join** lists the games announced on the LAN, or takes ``host:port`` and a code; it
  can also take back the seat of the last online match (its token is remembered).
* **Play online** uses a relay URL kept in the settings (``online/relay_url``).

Who opens a room (Host, or Play online's Create a room) says which side they play: Home, Away,
or "Toss for it" (the relay tosses); the choice is kept for next time (``online/side``).

Join and Play online offer to resume a remembered seat (:mod:`soccerdesk.ui.seats`), and so
does the home screen, through :func:`open_online_dialog`'s ``resume``; a resume the relay
answers with a room or token it no longer has forgets the seat. The window that plays a seat
holds its :class:`SeatLock` (a lock file in the data folder); resuming a seat whose lock another
running soccerdesk holds asks first ("Take it over here" or "Cancel"), as the relay gives the
seat to the newest connection and the other window stops playing (``taken_over``).

:class:`RemoteSession` implements the :class:`~soccerdesk.ui.session.MatchSession`
contract for a match held by a relay. Besides the contract's signals it has
``claim_offered(str name)`` — the opponent's abandonment countdown ran out; the window
may call :meth:`RemoteSession.claim` with ``"win"`` or ``"bot"`` — ``chat_received(name,
text)``, ``timer_changed(kind, words, seconds)`` (the turn clock and the abandonment
countdown, which the match screen counts down), ``host_left(text)`` (a LAN guest's
host closed the game) and ``taken_over(text)`` (another window resumed this screen's seat: the
match is played there now). The match screen shows a chat box and the timers for a session
that has these signals, and asks ``busy_text()`` who it is waiting for. The window's
**Match → Resign…** asks ``can_resign()`` whether to offer it and calls ``resign()``; the
result's **Rematch** may ask ``can_rematch()`` (a spectator may not offer one) and
``rematch_words()`` why not.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QObject, QSize, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from server.relay import RelaySettings, RunningRelay, start_relay
from soccerdesk.learn.words import RULES_SIDE_NAMES, name_seats
from soccerdesk.net.client import RECONNECT_PAUSES, RelayClient, RelayError
from soccerdesk.net.discovery import LanAnnouncer, LanBrowser, LanGame, lan_addresses
from soccerdesk.net.protocol import MAX_CHAT_CHARS, turns_ended, typed_code
from soccerdesk.rules import GAMES, Game, get_game
from soccerdesk.ui.home import OptionsForm, sentence, side_box  # the relay words its messages in lower case
from soccerdesk.ui.match_view import ending_words, retold, short_name
from soccerdesk.ui.placement import FRAME_ROOM
from soccerdesk.ui.questions import ask_first
from soccerdesk.ui.seats import (
    OVER,
    RememberedSeat,
    SeatLock,
    about_key,
    forget_seat,
    remember_about,
    remember_seat,
    remembered_seats,
    seat_lock_path,
    seat_words,
)
from soccerdesk.ui.session import APP_KEY, MatchSession, Player
from soccerdesk.ui.settings import AppSettings

log = logging.getLogger("soccerdesk.online")

DEFAULT_RELAY_URL = "ws://127.0.0.1:8765/ws"
LAN_PORT = 8765
CHAT_REMEMBERED = 50
"""Chat lines a session remembers to skip them in a reconnection's history (the relay keeps 50)."""
LAN_RECONNECT_PAUSES = (0.2, 0.5, 1.0, 2.0, 3.0)
LAN_RECONNECT_TRIES = 6
"""A LAN game lives in the host's app: when it has not answered these tries (about 10 s), the
host has left, and trying on would only keep the guest waiting."""
WAITING_WORDS = "Waiting for your friend to join…"
"""What the lobby says while the room waits for the second player (also once reconnected)."""
SEAT_GONE = ("no_room", "bad_token")
"""The relay's answers to ``resume`` that mean the seat is gone for good: the room is no more (its
host closed it, or the relay forgot it), or the token holds no seat there."""
CLOCK_CHOICES = (("No clock", None), ("30 s a turn", 30), ("60 s a turn", 60), ("2 min a turn", 120))
SIDE_KEPT = ("home", "away", "toss")
"""The host's "You play" choices as the settings keep them (``online/side``), in the drop-down's
order. Never chosen yet: the toss, as before the choice was offered. (The home screen's own "You
play" is the seat against the computer, and reads Home until changed: no wish about a friend.)"""


class FormScroll(QScrollArea):
    """A dialog's form, whole where the screen has room for it and scrolled where it has not (a
    1024 × 600 laptop and Pawn Soccer's options): it asks for the form's own size, and never
    scrolls sideways."""

    def __init__(self, form: QWidget) -> None:
        super().__init__()
        self.setWidget(form)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the form's fields are the Tab stops
        form.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt API)
        if watched is self.widget() and event.type() == QEvent.Type.LayoutRequest:
            self.updateGeometry()  # the form asks for another size (another game's options): so does this
        return super().eventFilter(watched, event)

    def _bar(self) -> int:
        return self.verticalScrollBar().sizeHint().width()

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt API)
        form = self.widget().sizeHint()
        return QSize(form.width() + self._bar(), form.height())

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt API)
        return QSize(self.widget().minimumSizeHint().width() + self._bar(), super().minimumSizeHint().height())


def _right(button: QPushButton) -> QWidget:
    """A row holding ``button`` at its right end."""
    row = QWidget()
    box = QHBoxLayout(row)
    box.setContentsMargins(0, 0, 0, 0)
    box.addStretch(1)
    box.addWidget(button)
    return row


def _spawn(coro: Coroutine[Any, Any, Any], tasks: set[asyncio.Task[Any]]) -> asyncio.Task[Any] | None:
    """Run ``coro`` on the app's loop, keeping a reference until it is done.

    Without a running loop (the app is quitting) nothing is run: sockets close with the
    process, and the relay treats that as a dropped connection.
    """
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        coro.close()
        return None
    task = loop.create_task(coro)
    tasks.add(task)
    task.add_done_callback(tasks.discard)
    return task


@dataclass
class HostedGame:
    """A LAN host's in-process relay and its mDNS announcement; stopped with the session."""

    relay: RunningRelay
    announcer: LanAnnouncer | None = None

    async def stop(self) -> None:
        if self.announcer is not None:
            await self.announcer.stop()
        await self.relay.stop()


def parse_address(text: str) -> str:
    """A relay URL from what a user types: ``host``, ``host:port``, ``[v6]:port``, or an address
    as a browser shows it (``ws://``, ``wss://``, also ``http://`` and ``https://``, which are
    read as ``ws://`` and ``wss://``; a path ``/ws`` is added when it is not there).

    Raises ``ValueError`` saying, in words, what is wrong with ``text``.
    """
    text = text.strip()
    if not text:
        raise ValueError("type the host's address, such as 192.168.1.20:8765")
    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "", text
    scheme = scheme.lower()
    # A relay's page is what a browser shows at http(s)://HOST:PORT/; its players connect to the
    # same place with ws(s)://, so an address copied from the browser's bar is taken as meant.
    secure = {"": False, "ws": False, "http": False, "wss": True, "https": True}.get(scheme)
    if secure is None:
        raise ValueError(
            f"{text!r} is not a relay's address: type host:port (such as 192.168.1.20:8765), "
            "or an address that begins with ws:// or wss://"
        )
    where, slash, path = rest.partition("/")
    if not where:
        raise ValueError(f"{text!r} names no computer: type host:port, such as 192.168.1.20:8765")
    if where.startswith("["):
        inside, _, after = where[1:].partition("]")
        host, port = f"[{inside}]", after.removeprefix(":")
    elif where.count(":") == 1:
        host, port = where.split(":")
    elif ":" in where:
        host, port = f"[{where}]", ""  # a bare IPv6 address
    else:
        host, port = where, ""
    if not host or host == "[]":
        raise ValueError(f"{text!r} names no computer: type host:port, such as 192.168.1.20:8765")
    if not port and not scheme:
        port = str(LAN_PORT)  # a relay's own default; a URL without a port means the scheme's (80, 443)
    if port and (not port.isdigit() or not 0 < int(port) < 65536):
        raise ValueError(f"{port!r} is not a port number")
    path = "/" + path.strip("/") if slash and path.strip("/") else ""
    if not path.endswith("/ws"):
        path += "/ws"
    return f"{'wss' if secure else 'ws'}://{host}{':' + port if port else ''}{path}"


# --- the session ------------------------------------------------------------------------


class RemoteSession(MatchSession):
    """A match held by a relay, played from this screen (one seat) or watched.

    Signals: those of :class:`MatchSession`, plus ``claim_offered(str name)`` when the
    opponent's abandonment countdown has run out, ``chat_received``, ``timer_changed`` and
    ``host_left`` (see the module docstring), and ``chat_unsent(text, why)`` for a line that could
    not be sent (the screen gives it back to the player). A move or chat line made while the
    client reconnects is kept and sent once the seat is resumed (or said not played, and why). ``busy(True)`` here means the *remote
    player* is deciding (a person, not the computer); ``status`` names them ("Waiting for
    Bob") and reports the connection ("Connection lost — reconnecting…", "Connected again"),
    the opponent's presence, an absent opponent's countdown and rematch offers.
    ``record()`` is ``None`` while the match runs (the relay holds it and its secrets); once
    it is over, a relay of protocol 2 sends the whole record, and ``record()`` gives it for
    saving and the replay. :meth:`resign` gives the match up (the ``finished`` that follows
    says ``resigned`` on both screens); ``status`` tells when :meth:`can_resign` may change.
    """

    claim_offered = Signal(str)
    host_left = Signal(str)  # a LAN guest's words for it: the host's app is gone, the match cannot go on
    taken_over = Signal(str)  # another window (or computer) resumed this seat: the match goes on there
    chat_received = Signal(str, str)  # name, text (plain text: show it as such)
    chat_unsent = Signal(str, str)  # text, why: a line that did not go (the relay is away); give it back
    timer_changed = Signal(str, str, float)  # which ("clock"/"away"), its words, seconds left (< 0: none)
    labels_changed = Signal(object)  # (str, str): the sides as the scoreboard names them ("Bob (computer)")
    chat_limit = MAX_CHAT_CHARS

    def __init__(
        self,
        game: Game,
        client: RelayClient,
        *,
        hosted: HostedGame | None = None,
        on_rematch: Callable[[RemoteSession], None] | None = None,
        events: list[dict[str, Any]] | None = None,
        lan_guest: bool = False,
        about: Callable[[str], None] | None = None,
        seat_lock: SeatLock | None = None,
        back: bool = False,
        parent: QObject | None = None,
    ) -> None:
        """``events``: what the client was told before this session existed (the log's start).
        ``back``: the player resumed their seat (after a crash, or from another window): the
        status says they are back in the match, not that the opponent is here.

        ``lan_guest``: the relay is a LAN host's app; when its client gives up reconnecting,
        ``host_left`` says the host has left. ``about``: told the match in a line as it goes
        ("Soccer-Go with Alice, 1–0"), for the list of matches to resume. ``seat_lock``: the
        seat's lock, held from :meth:`start` until the screen closes or the seat is taken over
        (a rematch's session goes on holding it).
        """
        super().__init__(game, parent)
        self.lan_guest = lan_guest
        self.about = about
        self.client = client
        self.hosted = hosted
        self.on_rematch = on_rematch
        self.seat_lock = seat_lock
        self.match = client.match
        self._seat = client.seat
        self._names = self._read_names()
        self._pending: list[dict[str, Any]] = list(events or [])
        self._chat_shown: list[dict[str, Any]] = []  # the latest chat lines emitted, oldest first
        self._started = False
        self._closed = False
        self._handed_over = False
        self._finished_sent = False
        self._resigning = False  # a resignation is on its way to the relay
        # The action sent and the ply it was sent with, until the relay answers it.
        self._in_flight: tuple[str, int] | None = None
        # What the player did while the relay was away, sent once it is back (QA online audit 1):
        # the move (its text and the ply of the view it was chosen on), the chat lines, the move
        # sent so on resuming until the relay answers it (see _on_message), and what the
        # status says of it.
        self._held: tuple[str, int] | None = None
        self._held_why = KEPT  # what the status says of it while the connection is down
        self._held_chat: list[str] = []
        self._held_sent: str | None = None
        self._held_news = ""
        self._labels = self._read_labels()
        # Seats whose turn clock ran out while they still owe decisions of that turn: the relay's
        # bot plays the rest of it (protocol.md, "Per-turn clock"); as the relay keeps it.
        self._autoplayed: set[int] = set()
        self._clock_ends: dict[int, float] = {}  # seat -> time.monotonic() its turn clock runs out
        self._clock_ply = -1  # the ply of the view shown when the relay last told the clocks
        self._clock_words = ""  # what this screen calls its own clock now ("Your turn", "Rest of your turn")
        # Where the turns of the clock end, as the relay counts them (protocol.turns_ended): the
        # seats deciding in the latest view, those of them making a simultaneous secret choice,
        # and the seats whose turn that view ended (their next decision has a fresh clock).
        view = client.view or {}
        self._deciding = [s for s in view.get("to_move", ()) if s in (0, 1)]
        self._picking = frozenset(self._deciding) if len(self._deciding) == 2 else frozenset[int]()
        self._turn_over: frozenset[int] = frozenset()
        self._same_decision = False  # the latest view leaves this seat's decision as it was
        self._replaced = ""  # why this screen no longer plays: another connection took the seat
        self._computer_note = ""  # what the computer did for a seat in the latest update, in words
        # Whether the opponent was connected as last told to this screen (None: not yet, or not since
        # this screen's own connection came back), and what the status says of it: that they are
        # here only when they came back while this screen was there (QA online audit 5).
        self._opponent_here: bool | None = None
        self._presence_news = "Back in the match" if back else ""
        # How the screen tells an event (its board's words: zones named as it labels them, a card's
        # "then Pass" as "(next: Pass)"); the match screen sets it, else the rules' own text.
        self.event_words: Callable[[dict[str, Any]], str] | None = None
        self._ending = ""  # how a match that did not reach full time ended, in words
        self._tasks: set[asyncio.Task[Any]] = set()
        client.on_message = self._on_message
        client.on_status = self._on_connection

    # --- the contract -----------------------------------------------------------------

    def _time_from_relay(self) -> None:
        """The time played by the relay's count: the same for both players, and a resumed
        screen goes on from it instead of from 00:00 (a relay that does not tell: our own)."""
        if self.client.played is None:
            return
        seconds, told = self.client.played
        over = self.client.result is not None
        self._time_played_is(seconds if over else seconds + time.monotonic() - told, over)

    def start(self) -> None:
        self._started = True
        if self.seat_lock is not None:
            self.seat_lock.keep_trying()
        self._time_from_relay()
        self._show_chat(self.client.chat_lines)  # what was said before this screen opened
        self._on_clock(self.client.clock)
        self._on_countdown(self.client.countdown)
        view = self.client.view
        if view is not None:
            self._show(view, self._pending, fresh=True)
            self._pending = []
        result = self.client.result
        if result is not None:
            self._finish(result)

    def submit(self, action_text: str) -> None:
        view = self.client.view
        if self._closed:
            return
        if self._seat is None:
            self._refuse("spectators only watch")
            return
        if self._replaced:
            self._refuse(self._replaced)
            return
        if not self.client.connected and not self._reconnecting():
            self._refuse(self.offline_words())
            return
        if self.client.result is not None:  # also when it ended early (resigned, abandoned)
            self._refuse("the match is over")
            return
        if view is None or self._seat not in view["to_move"]:
            self._refuse("the match is over" if view and view["terminal"] else "wait: it is not your turn")
            return
        if self._seat in self._autoplayed:
            self._refuse("your time ran out: the computer plays the rest of this turn")
            return
        if self._in_flight is not None or self._held is not None:
            # A second decision before the relay answered the first: it was chosen on a
            # position this seat has already answered, so the relay would refuse it.
            self._refuse("wait: your last move is on its way")
            return
        self._held_news = ""
        if not self.client.connected:
            self._hold(action_text, view["ply"])
            return
        self._in_flight = (action_text, view["ply"])
        _spawn(self._send_act(action_text, view["ply"]), self._tasks)

    async def _send_act(self, action: str, ply: int) -> None:
        try:
            await self.client.act(action, ply=ply)
        except RelayError as exc:
            self._in_flight = None
            if self._closed:
                return
            if exc.code == "offline" and self._reconnecting():
                self._hold(action, ply)  # the connection went as it was sent: it goes once back
            else:
                self._held_sent = None
                self._refuse(exc.message)

    def _decides(self, view: dict[str, Any]) -> bool:
        """Whether this screen's player decides in ``view`` (not the computer for them)."""
        return self._seat is not None and self._seat in view.get("to_move", ()) and self._seat not in self._autoplayed

    def _reconnecting(self) -> bool:
        """Whether the connection is down and the client is getting it back by itself (it has
        not given up, and the seat was not taken over).

        Not the client's ``"reconnecting"`` status alone: for a turn of the event loop after the
        socket closes (the relay stopping, say) the status still says ``"connected"``, until the
        client says ``"reconnecting"`` or, when the relay hung up for good, ``"lost: …"``. A move
        made in that turn is kept like one made a moment later. (``"connecting"`` is the first
        connection, made before any session exists.)"""
        status = self.client.status
        return not self.client.connected and not status.startswith("lost") and status != "closed"

    def _hold(self, action: str, ply: int, why: str | None = None) -> None:
        """Keep a move chosen while the relay is away (or one it could not save: ``why`` says
        which); :meth:`_play_held` sends it once the resumed snapshot is in. The board offers
        nothing more meanwhile."""
        self._held, self._held_why = (action, ply), why or KEPT
        self._offer_nothing()
        self.status.emit(self.offline_words() or self._held_why)

    def _play_held(self, view: dict[str, Any], events: list[dict[str, Any]]) -> None:
        """Back after a lost connection (the snapshot ``view`` and the ``events`` missed): send
        the move kept meanwhile, or say why it is not played. A move that may still stand is
        sent with the ply it was chosen on, so the relay's ply rule judges it (a race with the
        other seat's secret choice is sent again by the client; anything else is refused)."""
        if self._held is None:
            return
        action, ply = self._held
        self._held = None
        why = self._why_held_is_stale(view, events, action)
        if why:
            self._held_news = f"{HELD_NOT_PLAYED}: {why}"
        else:
            self._held_news = "Your kept move was sent"
            self._held_sent = action
            self._in_flight = (action, ply)
            _spawn(self._send_act(action, ply), self._tasks)
        self.status.emit(self._with_move(""))

    def _why_held_is_stale(self, view: dict[str, Any], events: list[dict[str, Any]], action: str) -> str:
        """Why the move kept while the relay was away cannot be played now ("" when it may)."""
        if self.client.result is not None or view["terminal"]:
            return "the match is over"
        for event in events:
            data = event.get("data") or {}
            if event.get("kind") == "computer" and data.get("seat") == self._seat:
                if data.get("why") == "clock":
                    return "your time ran out meanwhile, and the computer chose for you"
                return "the computer played for you meanwhile"
        if not self._decides(view):
            return "the match moved on meanwhile, and it is not your turn now"
        if action not in view["legal"]:
            return "the position changed meanwhile; choose again"
        return ""

    def local_seats(self) -> tuple[int, ...]:
        return () if self._seat is None else (self._seat,)

    def player_names(self) -> tuple[str, str]:
        """The players' own names (the log and the record tell of them by these)."""
        return self._names

    def side_labels(self) -> tuple[str, str]:
        """The sides as the scoreboard shows them now: a seat the relay's bot plays after an
        abandonment says so ("Bob (computer)"); see ``labels_changed``."""
        return self._labels

    def viewer(self) -> int | None:
        return self._seat

    def record(self) -> dict[str, Any] | None:
        """The match record, once the match is over and the relay sent it (protocol 2); else ``None``.

        Saved like a local match's record: the players are named, this screen's seat as
        the human and the other as remote.
        """
        data = self.client.record
        if data is None or self.client.record_match != self.match:
            return None
        record = dict(data)
        result = self.client.result or {}
        record[APP_KEY] = {
            "players": [
                Player("human" if seat in self.local_seats() else "remote", self._names[seat]).to_json()
                for seat in (0, 1)
            ],
            "score": list(result.get("score", ())),
            "over": True,  # also when it ended early (resigned, abandoned): it is replayed, not resumed
            "result": result,
            "saved": time.time(),
        }
        return record

    def rematch(self) -> MatchSession | None:
        """Offer a rematch; when the opponent agrees, ``on_rematch`` gets the new session."""
        if not self.can_rematch():
            self._refuse(self.rematch_words())
            return None
        _spawn(self._send(self.client.offer_rematch()), self._tasks)
        return None

    def can_rematch(self) -> bool:
        """Whether this screen may offer a rematch: a player's may, a spectator's may not
        (protocol.md: spectators may not act), nor one whose seat another window took."""
        return self._seat is not None and not self._replaced

    def rematch_words(self) -> str:
        """Why :meth:`can_rematch` is false, in words ("" when it is true)."""
        if self._replaced:
            return self._replaced
        if self._seat is None:
            return "Only the players can ask for a rematch; if they play one, it is shown here."
        return ""

    def close(self) -> None:
        """Leave the screen. The seat is kept: the token is remembered, the match can be resumed."""
        if self._closed:
            return
        self._closed = True
        if not self._handed_over:
            self._let_go_of_seat()
            _spawn(self._shutdown(), _BACKGROUND)

    # --- extras of a remote match ----------------------------------------------------------

    def busy_text(self) -> str:
        """What the match screen shows while ``busy``: a remote person decides, not the computer.

        Everyone who decides now is named: a spectator waits for both players at once when they
        make a secret choice together, as the board says ("Waiting for Alice and Bob")."""
        if not self.client.connected:
            return "Reconnecting"
        view = self.client.view or {}
        deciding = [s for s in view.get("to_move", ()) if s in (0, 1) and s != self._seat]
        if self._seat in self._autoplayed and self._seat in view.get("to_move", ()):
            return "Time ran out: the computer is finishing your turn"
        if not deciding:
            return "The relay is dealing"  # chance steps: the relay rolls and deals
        said = [self._deciding_words(seat) for seat in deciding]
        plain = [short_name(self._names[seat]) for seat in deciding]
        if len(said) == 2 and said == [f"{name} is deciding" for name in plain]:
            return f"{plain[0]} and {plain[1]} are deciding"
        return "; ".join(said)

    def _deciding_words(self, seat: int) -> str:
        name = short_name(self._names[seat])
        player = next((p for p in self.client.players if p["seat"] == seat), {})
        if player.get("bot"):
            return f"The computer is deciding for {name}"
        if seat in self._autoplayed:
            return f"Time ran out: the computer is finishing {name}'s turn"
        if player.get("name") and not player.get("connected"):
            return f"Waiting for {name} to come back"
        return f"{name} is deciding"

    def claim(self, take: str) -> None:
        """``"win"``: end the match as won; ``"bot"``: let the relay's bot play the absent seat."""
        _spawn(self._send(self.client.claim(take)), self._tasks)

    def pause_clock(self) -> None:
        """Nothing: the match goes on at the relay, and its time with it."""

    def can_resign(self) -> bool:
        """Whether :meth:`resign` may be offered now: this screen plays a seat of a match still
        being played, and the relay can be told (the connection is up)."""
        view = self.client.view
        return (
            self._started
            and not self._closed
            and not self._resigning
            and self._seat is not None
            and self.client.connected
            and self.client.result is None
            and view is not None
            and not view["terminal"]
        )

    def resign(self) -> None:
        """Give up the match: the opponent wins at once (protocol.md, "Leaving"). The relay's
        ``finished`` (``resigned``) ends it on both screens; the seat stays this screen's, for the
        result and a rematch."""
        if not self.can_resign():
            self._refuse("the match is over" if self.client.result is not None else "you cannot resign now")
            return
        self._resigning = True
        _spawn(self._send_resignation(), self._tasks)

    async def _send_resignation(self) -> None:
        try:
            await self.client.resign()
        except RelayError as exc:
            if self.client.result is not None:
                # Resigned; only taking the seat back failed (a dropped connection resumes it).
                log.info("resigned, but the seat was not taken back: %s", exc)
                return
            self._resigning = False  # not resigned after all (the connection went): play on
            if not self._closed:
                self._refuse(exc.message)

    def chat(self, text: str) -> None:
        """Say ``text`` to the room; it comes back through ``chat_received`` like every line."""
        if self._seat is None:
            self._refuse("spectators only watch")
            return
        if self._replaced:
            self._refuse(self._replaced)
            return
        text = text.strip()[: self.chat_limit]
        if not text:
            return
        if not self.client.connected:
            self._hold_chat(text)
            return
        _spawn(self._send_chat([text]), self._tasks)

    def _hold_chat(self, text: str) -> None:
        """Keep a line said while the relay is away (a few at most); it goes once it is back."""
        if not self._reconnecting() or len(self._held_chat) >= HELD_CHAT_LINES:
            self.chat_unsent.emit(text, self._unsent_words())
            return
        self._held_chat.append(text)
        self.status.emit(f"{RECONNECTING} Your chat line is kept: it goes once the connection is back.")

    async def _send_chat(self, lines: list[str]) -> None:
        """Say ``lines`` in order; those that cannot go are kept again, or given back."""
        for i, text in enumerate(lines):
            try:
                await self.client.chat(text)
            except RelayError:  # the connection went while it was on its way
                if not self._closed:
                    for line in lines[i:]:
                        self._hold_chat(line)
                return

    def _give_back_held(self) -> str:
        """The relay is gone for good: the kept chat lines go back to the box, and the words for
        a kept move that will not be sent ("" when there is none)."""
        if self._held_chat:
            lines, self._held_chat = self._held_chat, []
            self.chat_unsent.emit(" ".join(lines), self._unsent_words())
        if self._held is None:
            return ""
        self._held = None
        return " (your kept move was not sent)"

    def _unsent_words(self) -> str:
        if self.client.status.startswith("lost"):
            return "Not sent: the connection to the relay is closed."
        return "Not sent: the connection to the relay is lost. Press Enter again once it is back."

    # --- from the relay ---------------------------------------------------------------------

    def _on_message(self, msg: dict[str, Any]) -> None:
        if self._closed:
            return
        kind = msg["type"]
        if kind == "snapshot" and msg["match"] > self.match:
            self._new_match()
            return
        unsaved = self._in_flight if kind == "error" and msg["code"] == "server_busy" else None
        # What answers the act on its way: its own update, its refusal or an error; or a snapshot,
        # which answers a resume (the relay answers an act on its connection before anything
        # sent after it, so once a snapshot is in, nothing more about an act will come). The
        # opponent's move landing meanwhile answers nothing: the kept move sent on resuming
        # (_held_sent, always the act on its way) is still told as such when it is refused.
        answered = kind == "snapshot" or kind == "update" and msg["yours"] or kind in ("refused", "error")
        if kind == "update" and not msg["yours"]:
            self._held_news = ""  # told until something else happens
        refused = ""
        if answered:
            self._in_flight = None
            if self._held_sent is not None and kind == "refused":
                refused = self._held_news = f"{HELD_NOT_PLAYED}: {msg['reason']}"
            self._held_sent = None
        if kind in ("snapshot", "update"):
            if msg["match"] != self.match:
                return
            self._follow_turns(msg["view"], fresh=kind == "snapshot")
            if kind == "snapshot":
                self._time_from_relay()
            if not self._started:
                self._pending.extend(msg["events"])
                return
            self._show(msg["view"], msg["events"], fresh=kind == "snapshot")
            if kind == "snapshot":  # back after a lost connection: the timers as they stand now
                self._show_chat(msg["chat"])  # and what was said meanwhile
                self._on_clock(msg["clock"])
                self._on_countdown(msg["countdown"])
                self._play_held(msg["view"], msg["events"])
        elif kind == "refused":
            self._refuse(refused or msg["reason"])
        elif kind == "error":
            if msg["code"] in ("rate_limited", "not_now", "read_only"):
                self._refuse(msg["message"])
            elif unsaved is not None:
                # The relay could not store the move (a full disk, say: protocol.md, server_busy), so
                # it was not played; the connection closes and the client resumes. The move is kept
                # and sent again with its ply once back, where the ply rule judges it afresh.
                self._hold(*unsaved, why=UNSAVED_MOVE)
            elif msg["code"] == "server_busy" and self._held is not None:
                self.status.emit(STILL_UNSAVED)  # a resume refused while the relay still cannot save
            elif msg["code"] != "replaced":  # the connection's end, right after, says it in full
                self.status.emit(sentence(msg["message"]))
        elif kind == "presence":
            self._names = self._read_names()
            labels = self._read_labels()
            if labels != self._labels:
                self._labels = labels
                self.labels_changed.emit(labels)
            if self.client.result is None:
                self.status.emit(self._with_move(self._presence_text()))
        elif kind == "chat":
            self._show_chat([*self._chat_shown, msg])
        elif kind == "countdown":
            self._on_countdown(msg["countdown"])
        elif kind == "clock":
            self._on_clock(msg["clock"])
        elif kind == "rematch":
            self._on_rematch_offer(msg["offered"])
        elif kind == "finished":
            self._finish(msg["result"])

    def _follow_turns(self, view: dict[str, Any], *, fresh: bool) -> None:
        """Count the turns of the per-turn clock as the relay does (protocol.turns_ended), from
        the views: every action is an update of its own, so whoever left the deciding seats
        decided. ``fresh``: a snapshot, from which the count begins again."""
        before = self._deciding
        deciding = [s for s in view.get("to_move", ()) if s in (0, 1)]
        self._deciding = deciding
        if fresh:
            self._picking = frozenset(deciding) if len(deciding) == 2 else frozenset()
            self._turn_over, self._same_decision = frozenset(), False
            return
        gone = [s for s in before if s not in deciding]
        actor = before[0] if len(before) == 1 else gone[0] if len(gone) == 1 else -1
        self._turn_over, self._picking = turns_ended(actor, deciding, self._picking)
        # The other seat's secret choice leaves this seat's decision as it was (the relay's ply rule).
        self._same_decision = actor != self._seat and actor in before and self._seat in before

    def _show(self, view: dict[str, Any], events: list[dict[str, Any]], *, fresh: bool = False) -> None:
        """``fresh``: the view this screen comes in on (a snapshot: joining, resuming, back after a
        lost connection); its events may tell what happened long before."""
        told = self._computer_played(view, events, fresh=fresh)
        if self._replaced or not self.client.connected:
            # Played in the other window, or the connection is down as this view is shown (the
            # screen opening while the client reconnects): this board offers nothing. A board
            # offering this seat's moves when the connection drops keeps them unless a move is
            # already on its way, and one made there is kept for the resume (_on_connection, _hold).
            view = {**view, "legal": []}
        self.view_changed.emit(view, [{k: v for k, v in e.items() if k != "ply"} for e in [*events, *told]])
        mine = self._decides(view)
        # A match may end before its rules say so (resigned, abandoned): the view of the seat back
        # in the room after resigning still has a side to move, and nobody is waited for.
        over = bool(view["terminal"]) or self.client.result is not None
        self.busy.emit(not over and not mine)
        if not over:
            self.status.emit(self._with_move(""))
        self._tell_about(view["score"], over=over)
        # A turn of its own begins when this seat's secret choice ended the last one, or a new
        # secret choice begins: the relay's ``clock`` message right behind this update gives its
        # time (and "Your turn"), so it is not called the rest of the last one meanwhile.
        if (
            mine
            and self._seat not in self._turn_over
            and self._seat in self._clock_ends
            and self._seat is not None
            and view["ply"] > self._clock_ply
            and not self._same_decision
        ):
            # A new decision of a turn whose clock runs on: the time left is the turn's, not this
            # decision's (protocol.md, "Per-turn clock").
            left = self._clock_ends[self._seat] - time.monotonic()
            self._clock_words = "Rest of your turn"
            self.timer_changed.emit("clock", self._clock_words, max(0.0, left))
        elif self._seat is not None and self._seat in self._autoplayed and self._seat in view["to_move"]:
            self.timer_changed.emit("clock", "Time ran out: the computer finishes your turn", -1.0)

    def _computer_played(
        self, view: dict[str, Any], events: list[dict[str, Any]], *, fresh: bool = False
    ) -> list[dict[str, Any]]:
        """Read the relay's ``computer`` events (a decision its bot made for a seat): keep the
        seats whose turn it finishes, word the status, and tell a player back from an absence
        what was played for them (returned: a line for the log).

        ``fresh`` (a snapshot): the events may be long past; only a turn the computer is finishing
        now is told, one whose seat has no clock running (the relay runs none for it meanwhile)."""
        self._computer_note = ""
        to_move = set(view.get("to_move", ()))
        away: list[int] = []
        for event in events:
            if event.get("kind") != "computer":
                continue
            data = event.get("data") or {}
            seat, why = data.get("seat"), data.get("why")
            if seat not in (0, 1):
                continue
            whom = "you" if seat == self._seat else short_name(self._names[seat])
            if why == "clock":
                if fresh and str(seat) in self.client.clock:
                    # A timeout long past (QA online audit 2: "Time ran out" for a seat with 0:30 left).
                    continue
                self._autoplayed.add(seat)
                self._computer_note = f"Time ran out: the computer chose for {whom}"
            else:
                self._computer_note = "" if fresh else f"The computer played for {whom}"
                if seat == self._seat:
                    away.append(event.get("ply", -1))
        # The computer finishes the turn whose time ran out, not the next one: a secret choice it
        # made ended that turn (protocol.turns_ended), and the seat decides on by itself. (The
        # relay's ``clock`` for the new turn, right behind, says so too: see ``_on_clock``.)
        self._autoplayed &= to_move - self._turn_over
        if fresh and not self._autoplayed:
            self._computer_note = ""  # the turn it finished is over: nothing is happening now
        if not away or self._seat is None:
            return []
        played = [
            e for e in events if e.get("ply") in away and e.get("kind") != "computer" and self._sees(e.get("audience"))
        ]
        hidden = retold(played, self._sees)
        tell = self.event_words or (lambda e: name_seats(str(e.get("text", "")), self._names, self.game.id))
        words = [tell(e) for i, e in enumerate(played) if i not in hidden]
        said = " ".join(w for w in words if w) or "a move"
        self._computer_note = f"While you were away the computer played for you: {said}"
        return [{"kind": "computer-away", "text": self._computer_note, "data": {"seat": self._seat}}]

    def _tell_about(self, score: Any, *, over: bool) -> None:
        if self.about is None or self._seat is None:
            return
        opponent = self._names[1 - self._seat]
        mine, theirs = score[self._seat], score[1 - self._seat]
        self.about(f"{self.game.title} with {short_name(opponent)}, {mine}–{theirs}{OVER if over else ''}")

    def _sees(self, audience: Any) -> bool:
        return audience is None or self._seat in audience

    def _move_status(self) -> str:
        """What this screen's player does now, in a few words (empty once the match is over)."""
        view = self.client.view
        if view is None or view["terminal"] or self.client.result is not None:
            return ""
        if self._seat is None:
            return "Watching"
        if self._seat in self._autoplayed and self._seat in view["to_move"]:
            return "Time ran out: the computer finishes your turn"
        if self._seat in view["to_move"]:
            return "Your move"
        other = 1 - self._seat
        name = short_name(self._names[other])
        player = next((p for p in self.client.players if p["seat"] == other), {})
        if player.get("bot"):
            return f"The computer plays for {name}"
        if other in self._autoplayed:
            return f"Time ran out: the computer finishes {name}'s turn"
        return f"Waiting for {name}"

    def _with_move(self, news: str) -> str:
        """``news`` (presence, the connection, what the computer did) beside what to do now: a
        message about who is here never hides "Your move" (QA: "Bob is here" stayed instead)."""
        note, move = self._computer_note, self._move_status()
        if note.startswith("Time ran out: ") and move.startswith("Time ran out: "):
            move = sentence(move.removeprefix("Time ran out: "))
        # "Connected again" before what became of a move kept meanwhile: the news of the link first
        parts = [note, news, self._held_news, move]
        seen: list[str] = []
        for part in parts:
            if part and part not in seen and not any(part in other for other in parts if other != part):
                seen.append(part)
        return " · ".join(seen)

    def _finish(self, result: dict[str, Any]) -> None:
        if self._finished_sent or not self._started:
            return
        self._finished_sent = True
        view = self.client.view or {}
        self._ending = ending_words(result, self._names, self._seat)
        self._autoplayed.clear()
        self.busy.emit(False)
        self.timer_changed.emit("clock", "", -1.0)
        self.timer_changed.emit("away", "", -1.0)
        self.status.emit(self._ending or "Full time")
        self._tell_about(result["score"], over=True)
        self.finished.emit(
            {
                "game": self.game.id,
                "title": self.game.title,
                "score": list(result["score"]),
                "winner": result["winner"],
                "names": list(self._names),
                "plies": view.get("ply", 0),
                "local_seats": list(self.local_seats()),
                "reason": result["reason"],
                "details": result["details"] if isinstance(result.get("details"), dict) else {},
                "ending": self._ending,
            }
        )

    def _show_chat(self, history: list[dict[str, Any]]) -> None:
        """Emit the lines of ``history`` (the room's latest lines) this screen has not shown yet.

        The relay keeps the last 50 lines; after a reconnection its history overlaps what
        was shown, so the longest end of what was shown that starts ``history`` is skipped.
        """
        said = [(line["seat"], line["name"], line["text"]) for line in history]
        shown = [(line["seat"], line["name"], line["text"]) for line in self._chat_shown]
        overlap = next((k for k in range(min(len(said), len(shown)), 0, -1) if said[:k] == shown[-k:]), 0)
        for _seat, name, text in said[overlap:]:
            self.chat_received.emit(name, text)
        self._chat_shown = list(history[-CHAT_REMEMBERED:])

    def _on_countdown(self, countdown: dict[str, Any] | None) -> None:
        """Rules of the room: the absent player's countdown, shown ticking; at its end, the claim."""
        if countdown is None:
            self.timer_changed.emit("away", "", -1.0)
            if self._started and self.client.view is not None and self.client.result is None:
                self.status.emit(self._with_move(self._presence_text()))
            return
        full = self._names[countdown["seat"]]
        name = short_name(full)
        if countdown["seat"] == self._seat:
            return
        if countdown["expired"]:
            self.timer_changed.emit("away", f"{name} has not come back", -1.0)
            self.status.emit(f"{name} has not come back")
            if self._seat is not None:
                self.claim_offered.emit(full)
        else:
            self.timer_changed.emit("away", f"{name} is away", float(countdown["seconds"]))
            if self._seat is not None:
                self.status.emit(f"{name} is away; you may claim the win when the countdown ends")

    def _on_clock(self, clock: dict[str, float]) -> None:
        """The per-turn clock: this seat's own time first, else the opponent's."""
        now = time.monotonic()
        self._clock_ply = (self.client.view or {}).get("ply", -1)
        before = None if self._seat is None else self._clock_ends.get(self._seat)
        self._clock_ends = {int(seat): now + float(seconds) for seat, seconds in clock.items()}
        # The relay runs no clock for a seat its computer plays: one timed here decides by itself
        # again (a secret choice the computer made for it ended its turn, protocol.turns_ended).
        timed = {int(seat) for seat in clock}
        if self._autoplayed & timed:
            self._autoplayed -= timed
            self._refresh_move()
        mine = None if self._seat is None else clock.get(str(self._seat))
        if mine is not None:
            # The opponent's clock started or stopped while this seat's runs on: its words stay.
            goes_on = before is not None and abs(before - (now + float(mine))) < 1.0
            self._clock_words = self._clock_words if goes_on and self._clock_words else "Your turn"
            self.timer_changed.emit("clock", self._clock_words, float(mine))
            return
        for seat, seconds in sorted(clock.items()):
            self.timer_changed.emit("clock", f"{short_name(self._names[int(seat)])}'s turn", float(seconds))
            return
        if self._seat is not None and self._seat in self._autoplayed:
            self.timer_changed.emit("clock", "Time ran out: the computer finishes your turn", -1.0)
            return
        self.timer_changed.emit("clock", "", -1.0)

    def _on_rematch_offer(self, offered: list[int]) -> None:
        if self._seat is None or set(offered) == {0, 1}:
            return
        other = self._names[1 - self._seat]
        if self._seat in offered:
            self.status.emit(f"Rematch offered; waiting for {other}")
        else:
            self.status.emit(f"{other} offers a rematch (seats swapped): press Rematch to accept")

    def _new_match(self) -> None:
        """The rematch began (seats swapped): a fresh session takes over the connection."""
        if self._handed_over:
            return
        self._handed_over = True
        nxt = RemoteSession(
            self.game,
            self.client,
            hosted=self.hosted,
            on_rematch=self.on_rematch,
            lan_guest=self.lan_guest,
            about=self.about,
            seat_lock=self.seat_lock,
            parent=self.parent(),
        )
        if self.on_rematch is not None:
            self.on_rematch(nxt)

    def _refresh_move(self) -> None:
        """Say again whether this screen's player decides now (after the autoplayed seats changed)."""
        view = self.client.view
        if not self._started or view is None or view["terminal"] or self.client.result is not None:
            return
        mine = self._decides(view)
        self.busy.emit(not mine)
        self.status.emit(self._with_move(""))

    def offline_words(self) -> str:
        """Why nothing can be sent now ("" when the relay is there): the client reconnects by
        itself, or it has stopped. The match screen says it for a click on the board meanwhile."""
        if self.client.connected:
            return ""
        if self.client.status.startswith("lost"):
            why = self.client.status.removeprefix("lost: ")
            return f"Not sent: the connection to the relay is closed ({why}). Home leaves this screen."
        if self._held is not None:
            return f"{RECONNECTING} {self._held_why}"
        return "Not sent: the connection to the relay is lost. You can move again once the connection is back."

    def _offer_nothing(self) -> None:
        """Take the moves off the board (the relay is away, or the seat is played elsewhere)."""
        view = self.client.view
        if self._started and view is not None:
            self.view_changed.emit({**view, "legal": []}, [])

    def _seat_taken(self) -> None:
        """Another connection resumed this seat (another window on this profile, or another
        computer with its token): the match goes on there, and this screen stops playing it.
        It does not reconnect (that would take the seat back and forth between the two)."""
        self._replaced = (
            "This match is now played in another window (or on another computer), which took over "
            "your seat: play on there. Home leaves this screen."
        )
        self._let_go_of_seat()
        self._autoplayed.clear()
        self.timer_changed.emit("clock", "", -1.0)
        self.timer_changed.emit("away", "", -1.0)
        self.busy.emit(False)
        self._offer_nothing()
        self.status.emit(self._replaced)
        self.taken_over.emit(self._replaced)

    def _let_go_of_seat(self) -> None:
        """This screen no longer plays its seat: the window that plays it now may hold its lock."""
        if self.seat_lock is not None:
            self.seat_lock.release()

    def _on_connection(self, status: str) -> None:
        if self._closed:
            return
        if status.startswith("lost") and self.client.fatal_code == "replaced":
            self._seat_taken()
            return
        if status == "reconnecting":
            # A move chosen now is kept and sent once the connection is back (QA online audit 1).
            # One sent before the drop is answered by the snapshot on resuming: the board offers
            # nothing until then.
            self._opponent_here, self._presence_news = None, ""  # told afresh once back ("Connected again")
            view = self.client.view or {}
            mine = self._decides(view) and self.client.result is None
            if mine and self._in_flight is None and self._held is None:
                self.status.emit(
                    f"{RECONNECTING} You can still make your move: it is sent once the connection is back."
                )
            else:
                self._offer_nothing()
                self.status.emit(self.offline_words() if self._held is not None else RECONNECTING)
            self.busy.emit(True)
        elif status == "connected":
            if self._held_chat:
                lines, self._held_chat = self._held_chat, []
                _spawn(self._send_chat(lines), self._tasks)
            self.status.emit(self._with_move("Connected again"))
        elif (
            status.startswith("lost")
            and self.lan_guest
            and (self.client.gave_up or self.client.fatal_code == "host_left")
        ):
            host = next((p["name"] for p in self.client.players if p.get("host")), "") or "The host"
            text = f"{host} has left: the game on their computer is closed{self._give_back_held()}"
            self.busy.emit(False)
            self.status.emit(text)
            self.host_left.emit(text)
        elif status.startswith("lost"):
            self._offer_nothing()
            self.busy.emit(False)
            self.status.emit(f"Disconnected: {status.removeprefix('lost: ')}{self._give_back_held()}")

    # --- helpers -------------------------------------------------------------------------------

    def _read_names(self) -> tuple[str, str]:
        names = ["Home", "Away"]
        for p in self.client.players:
            if p.get("name"):
                names[p["seat"]] = p["name"]
        return names[0], names[1]

    def _read_labels(self) -> tuple[str, str]:
        bots = {p["seat"] for p in self.client.players if p.get("name") and p.get("bot")}
        labels = [name + (" (computer)" if seat in bots else "") for seat, name in enumerate(self._names)]
        return labels[0], labels[1]

    def _presence_text(self) -> str:
        if self._seat is None:
            return "Watching"
        other = next((p for p in self.client.players if p["seat"] != self._seat), None)
        if other is None or not other["name"]:
            return "Waiting for a friend to join"
        name = short_name(other["name"])
        if other.get("bot"):
            return f"The computer plays for {name}"
        here = bool(other["connected"])
        if here != self._opponent_here:
            if not here:
                self._presence_news = f"{name} lost the connection"
            elif self._opponent_here is False:
                self._presence_news = f"{name} is here"
            self._opponent_here = here
        return self._presence_news

    async def _send(self, request: Coroutine[Any, Any, Any]) -> None:
        try:
            await request
        except RelayError as exc:
            self._in_flight = None
            if not self._closed:
                self._refuse(exc.message)

    def _refuse(self, reason: str) -> None:
        """Say why something was not done, as a sentence (the relay's reasons are lower case)."""
        self.refused.emit(sentence(reason))

    async def _shutdown(self) -> None:
        await self.client.close()
        if self.hosted is not None:
            await self.hosted.stop()


_BACKGROUND: set[asyncio.Task[Any]] = set()
"""Shutdown tasks of closed sessions (kept referenced until done)."""

RECONNECTING = "Connection lost — reconnecting…"
HELD_NOT_PLAYED = "Your kept move was not played"
KEPT = "Your move is kept: it is sent as soon as the connection is back."
UNSAVED_MOVE = (
    "The relay could not save your move, so it was not played: it is kept and sent again once the connection is back."
)
STILL_UNSAVED = "The relay cannot save anything right now; your move is kept and sent once it can"
HELD_CHAT_LINES = 5
"""Chat lines kept while the relay is away; a line beyond them stays in the box, said not sent."""


# --- the dialog ---------------------------------------------------------------------------------

AnnouncerFactory = Callable[[], LanAnnouncer]
BrowserFactory = Callable[[Callable[[list[LanGame]], None]], LanBrowser]


def _default_browser(on_change: Callable[[list[LanGame]], None]) -> LanBrowser:
    return LanBrowser(on_change)


class OnlineDialog(QDialog):
    """Host, join or play online; the lobby until both seats are taken.

    Signals:
        session_ready(object): a started-to-be :class:`RemoteSession` for the window.
    """

    session_ready = Signal(object)

    def __init__(
        self,
        kind: str,
        settings: AppSettings,
        *,
        default_game: str | None = None,
        bind_host: str = "0.0.0.0",
        port: int | None = None,
        announcer_factory: AnnouncerFactory = LanAnnouncer,
        browser_factory: BrowserFactory = _default_browser,
        lan_address: str | None = None,
        parent: QWidget | None = None,
    ) -> None:
        """``bind_host``/``port``: where a hosted relay listens (tests: 127.0.0.1, 0).
        ``announcer_factory``/``browser_factory``: the mDNS parts (tests pass quiet ones).
        ``lan_address``: the address shown to the friend (default: this machine's first LAN address)."""
        super().__init__(parent)
        if kind not in ("host", "join", "online"):
            raise ValueError(f"kind is host, join or online, not {kind!r}")
        self.kind = kind
        self.settings = settings
        self.bind_host = bind_host
        self.port = LAN_PORT if port is None else port
        self.announcer_factory = announcer_factory
        self.browser_factory = browser_factory
        self.lan_address = lan_address
        self.client: RelayClient | None = None
        self.hosted: HostedGame | None = None
        self.browser: LanBrowser | None = None
        self.session: RemoteSession | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._early_events: list[dict[str, Any]] = []  # for the session's log
        self._hand_over_on_snapshot = False  # joined, the match's snapshot not in yet
        self._handed = False
        self._reconnecting = False  # the connection dropped and the client is trying again
        self._resuming = False  # the player takes a seat of theirs back (the session says they are back)
        self._seat_lock: SeatLock | None = None  # of the seat being resumed, for the session
        self.setWindowTitle({"host": "Host a LAN game", "join": "Join a game", "online": "Play online"}[kind])
        self.setObjectName(f"online-{kind}")
        self.setMinimumWidth(460)

        self.pages = QStackedWidget()
        self.status_label = QLabel("")
        self.status_label.setObjectName("online-status")
        self.status_label.setWordWrap(True)
        self.name_edit = QLineEdit(str(settings.get("online/name", "")))
        self.name_edit.setPlaceholderText("Your name")
        self.name_edit.setMaxLength(40)
        self.game_combo = QComboBox()
        self.game_combo.setObjectName("online-game")
        self.options_holder = QVBoxLayout()
        self.options_form: OptionsForm | None = None
        for game_id in GAMES:
            with contextlib.suppress(Exception):  # a game whose rules do not load is not offered
                self.game_combo.addItem(get_game(game_id).title, game_id)
        self.game_combo.currentIndexChanged.connect(self._game_changed)
        if default_game is not None and self.game_combo.findData(default_game) >= 0:
            self.game_combo.setCurrentIndex(self.game_combo.findData(default_game))
        self._game_changed()

        self.form_page = self._build_form()
        self.lobby_page = self._build_lobby()
        self.pages.addWidget(self.form_page)
        self.pages.addWidget(self.lobby_page)
        layout = QVBoxLayout(self)
        layout.addWidget(self.pages)
        layout.addWidget(self.status_label)
        self._fit_to_screen()
        if kind == "join":
            self.browser = browser_factory(self._lan_games_changed)
            _spawn(self._browse(), self._tasks)

    # --- pages --------------------------------------------------------------------------

    def _build_form(self) -> QWidget:
        """The form of this dialog's kind: host; join (LAN list or address); online (create or join).
        The form scrolls on a screen too short for it; Cancel (and Host, Resume) stay under it."""
        fields = QWidget()
        form = QFormLayout(fields)
        if self.kind == "online":
            self.url_edit = QLineEdit(str(self.settings.get("online/relay_url", DEFAULT_RELAY_URL)))
            self.url_edit.setObjectName("online-url")
            form.addRow("Relay", self.url_edit)
        form.addRow("Your name", self.name_edit)
        if self.kind in ("host", "online"):
            if self.kind == "online":
                form.addRow(QLabel("<b>Start a new room</b>"))
            form.addRow("Game", self.game_combo)
            holder = QWidget()
            holder.setLayout(self.options_holder)
            form.addRow(holder)
            self.side_combo = side_box(
                "Which side you play; your friend plays the other. With “Toss for it” the game"
                " server tosses a coin for the sides when the room opens.",
                toss=True,
            )
            kept = str(self.settings.get("online/side", "toss"))
            self.side_combo.setCurrentIndex(SIDE_KEPT.index(kept) if kept in SIDE_KEPT else SIDE_KEPT.index("toss"))
            form.addRow("You play", self.side_combo)
            self.spectators_box = QCheckBox("Allow spectators")
            self.spectators_box.setChecked(True)
            form.addRow(self.spectators_box)
            self.clock_combo = QComboBox()
            for label, seconds in CLOCK_CHOICES:
                self.clock_combo.addItem(label, seconds)
            self.clock_combo.setToolTip(
                "A turn is the decisions you make in a row; a secret pick (Soccer-Go's passes and shots, a"
                " penalty) is a turn of its own. When a turn's time runs out, the computer finishes that turn."
            )
            form.addRow("Clock", self.clock_combo)
        if self.kind == "host":
            self.port_spin = QSpinBox()
            self.port_spin.setRange(0, 65535)
            self.port_spin.setValue(self.port)
            self.port_spin.setToolTip("0 picks any free port")
            form.addRow("Port", self.port_spin)
            self.announce_box = QCheckBox("Show this game to everyone on the local network")
            self.announce_box.setChecked(True)
            form.addRow(self.announce_box)
            self.go_button = QPushButton("Host")
            self.go_button.clicked.connect(lambda: _spawn(self._host(), self._tasks))
        if self.kind == "online":
            self.go_button = QPushButton("Create a room")
            self.go_button.clicked.connect(lambda: _spawn(self._create_online(), self._tasks))
            form.addRow(_right(self.go_button))
        if self.kind in ("host", "online"):
            self.go_button.setObjectName("online-go")
            self.go_button.setDefault(True)
        if self.kind in ("join", "online"):
            if self.kind == "online":
                form.addRow(QLabel("<b>Or join a friend's room</b>"))
            else:
                self.lan_list = QListWidget()
                self.lan_list.setObjectName("online-lan-games")
                self.lan_list.itemDoubleClicked.connect(lambda _item: self._join_clicked())
                self.lan_list.currentItemChanged.connect(self._lan_game_picked)
                form.addRow(QLabel("Games on your network"))
                form.addRow(self.lan_list)
                self.address_edit = QLineEdit("")
                self.address_edit.setObjectName("online-address")
                self.address_edit.setPlaceholderText("host:port, e.g. 192.168.1.20:8765")
                form.addRow("Address", self.address_edit)
            self.code_edit = QLineEdit("")
            self.code_edit.setObjectName("online-code")
            self.code_edit.setPlaceholderText("the 6-character code")
            self.code_edit.setMaxLength(16)
            form.addRow("Code", self.code_edit)
            self.watch_box = QCheckBox("Only watch")
            form.addRow(self.watch_box)
            self.join_button = QPushButton("Join")
            self.join_button.setObjectName("online-join")
            self.join_button.clicked.connect(self._join_clicked)
            form.addRow(_right(self.join_button))
            # Enter presses the button of what the player is doing: with a code typed (or the
            # code box in hand) that is Join, not Create a room (QA: a friend who typed the code
            # and pressed Enter opened a room of their own instead).
            self.code_edit.textChanged.connect(self._follow_the_player)
            self.watch_box.toggled.connect(self._follow_the_player)
            self.code_edit.installEventFilter(self)
            self.watch_box.installEventFilter(self)
            self._follow_the_player()
        buttons = QHBoxLayout()
        cancel = QPushButton("Cancel")
        cancel.clicked.connect(self.reject)
        buttons.addWidget(cancel)
        buttons.addStretch(1)
        seats = remembered_seats(self.settings) if self.kind in ("join", "online") else []
        self.resume_button: QPushButton | None = None  # made only when seats are kept
        if len(seats) == 1:
            button = QPushButton("Resume my last match")
            button.clicked.connect(lambda: self._resume_clicked(seats[0]))
        elif seats:
            # Two app windows on one computer (or two players of one account) each left a seat:
            # the player says which is theirs, by name (the last one saved may be the other's).
            button = QPushButton("Resume a match…")
            menu = QMenu(button)
            for seat in seats:
                action = menu.addAction(seat_words(self.settings, seat))
                action.setData(seat.key)
                action.triggered.connect(lambda _=False, seat=seat: self._resume_clicked(seat))
            button.setMenu(menu)
        if seats:
            button.setObjectName("online-resume")
            buttons.addWidget(button)
            self.resume_button = button
        if self.kind == "host":
            buttons.addWidget(self.go_button)
            cancel.setAutoDefault(False)  # the first button of the dialog took Enter from Host (keyboard audit 4)
        # The buttons line up with the fields above them.
        edges = form.contentsMargins()
        form.setContentsMargins(edges.left(), edges.top(), edges.right(), 0)
        buttons.setContentsMargins(edges.left(), 0, edges.right(), edges.bottom())
        page = QWidget()
        column = QVBoxLayout(page)
        column.setContentsMargins(0, 0, 0, 0)
        self.form_scroll = FormScroll(fields)
        column.addWidget(self.form_scroll)
        column.addLayout(buttons)
        return page

    def _joining(self) -> bool:
        """Whether the player is joining a friend's room rather than starting one: a code is
        typed, "Only watch" is ticked, or the keyboard is in the code box or on that tick box."""
        return (
            bool(self.code_edit.text().strip())
            or self.watch_box.isChecked()
            or self.code_edit.hasFocus()
            or self.watch_box.hasFocus()
        )

    def _follow_the_player(self) -> None:
        """Make the button Enter presses the one of what the player is doing (see :meth:`_joining`)."""
        if self.kind != "online":
            self.join_button.setDefault(True)  # a LAN guest's dialog has nothing else to do
            return
        joining = self._joining()
        self.go_button.setDefault(not joining)
        self.join_button.setDefault(joining)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt API)
        if event.type() in (QEvent.Type.FocusIn, QEvent.Type.FocusOut) and watched in (
            getattr(self, "code_edit", None),
            getattr(self, "watch_box", None),
        ):
            self._follow_the_player()
        return super().eventFilter(watched, event)

    def _build_lobby(self) -> QWidget:
        page = QWidget()
        box = QVBoxLayout(page)
        self.code_label = QLabel("")
        self.code_label.setObjectName("online-room-code")
        self.code_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.code_label.setStyleSheet("font-size: 28px; font-weight: bold; letter-spacing: 4px;")
        self.address_label = QLabel("")
        self.address_label.setObjectName("online-host-address")
        self.address_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.players_list = QListWidget()
        self.players_list.setObjectName("online-players")
        leave = QPushButton("Cancel")
        leave.setObjectName("online-lobby-cancel")
        leave.setToolTip("Close this room: its code no longer works")
        leave.clicked.connect(self.reject)
        box.addWidget(QLabel("Give your friend this code:"))
        box.addWidget(self.code_label)
        box.addWidget(self.address_label)
        box.addWidget(QLabel("In the room:"))
        box.addWidget(self.players_list)
        box.addWidget(leave, 0, Qt.AlignmentFlag.AlignRight)
        return page

    def _game_changed(self) -> None:
        game_id = self.game_combo.currentData()
        if self.options_form is not None:
            self.options_form.hide()  # out of the dialog's size at once, not when it is deleted
            self.options_form.deleteLater()
            self.options_form = None
        if game_id is not None:
            self.options_form = OptionsForm(get_game(game_id))
            self.options_holder.addWidget(self.options_form)

    def focusNextPrevChild(self, next: bool) -> bool:  # noqa: N802 (Qt API)
        moved = super().focusNextPrevChild(next)
        # Tab from Cancel (under the form) round to its first field: the form scrolls back to it.
        focused = self.focusWidget()
        if focused is not None and self.form_scroll.widget().isAncestorOf(focused):
            self.form_scroll.ensureWidgetVisible(focused)
        return moved

    def event(self, event: QEvent) -> bool:
        done = super().event(event)
        if (
            event.type() == QEvent.Type.LayoutRequest
            and self.isVisible()
            and self.pages.currentWidget() is self.form_page
        ):
            self._fit_to_screen()  # the form grew (another game's options): so does the dialog, on the screen
        return done

    def _fit_to_screen(self) -> None:
        """Take the size the form asks for, within the screen (title bar included): a form taller
        than the screen scrolls. Shown already (another game's options came), the dialog only
        grows, and stays on the screen."""
        screen = (self.parentWidget() or self).screen().availableGeometry()
        shown = self.isVisible()
        frame = self.frameGeometry().height() - self.height() if shown else 0
        room = screen.height() - max(frame, FRAME_ROOM.height())
        wanted = self.sizeHint()
        if shown:
            wanted = wanted.expandedTo(self.size())
        self.resize(wanted.width(), min(wanted.height(), room))
        if shown:
            outer = self.frameGeometry()
            top = max(screen.top(), min(outer.top(), screen.bottom() + 1 - outer.height()))
            left = max(screen.left(), min(outer.left(), screen.right() + 1 - outer.width()))
            self.move(left, top)

    # --- actions ----------------------------------------------------------------------------

    def _new_client(self, url: str) -> RelayClient:
        name = self.name_edit.text().strip()
        self.settings.set("online/name", name)
        lan = self.kind == "join"  # a friend's app holds the game: when it is gone, do not wait forever
        self.client = RelayClient(
            url,
            name=name,
            on_message=self._on_message,
            on_status=self._on_status,
            pauses=LAN_RECONNECT_PAUSES if lan else RECONNECT_PAUSES,
            max_attempts=LAN_RECONNECT_TRIES if lan else None,
        )
        return self.client

    async def _host(self) -> None:
        """Start the relay here, create the room, announce it, wait in the lobby."""
        self.go_button.setEnabled(False)
        self._say("Starting the game server…")
        data_dir = Path(self.settings.data_dir)
        try:
            relay = await start_relay(
                RelaySettings(
                    host=self.bind_host,
                    port=self.port_spin.value(),
                    db=str(data_dir / "lan-relay.sqlite3"),
                    host_app=True,
                )
            )
        except OSError as exc:
            self.go_button.setEnabled(True)
            self._say(
                f"Cannot listen on port {self.port_spin.value()}: {exc.strerror or exc}. Try another port (0 = any)."
            )
            return
        self.hosted = HostedGame(relay)
        client = self._new_client(f"ws://127.0.0.1:{relay.port}/ws")
        try:
            await client.connect()
            joined = await self._create(client)
        except RelayError as exc:
            self.go_button.setEnabled(True)
            self._say(f"The game server did not start: {exc.message}")
            await self._cleanup()
            return
        found = [self.lan_address] if self.lan_address else lan_addresses() or ["127.0.0.1"]
        address = found[0]
        # A computer on several networks (wired, Wi-Fi, a VPN) is reachable at each address.
        others = "".join(f", or {a}:{relay.port}" for a in found[1:3])
        self.address_label.setText(f"Address: {address}:{relay.port}{others}")
        if self.announce_box.isChecked():
            announcer = self.announcer_factory()
            name = f"{client.name or 'Host'} – {self.game_combo.currentText()}"
            try:
                await announcer.start(LanGame(name, address, relay.port, joined["room"], joined["game"]))
                self.hosted.announcer = announcer
            except Exception as exc:  # no multicast here: the address and code still work
                log.warning("cannot announce on the LAN: %s", exc)
                self._say("This game could not be shown on the network; give your friend the address and code.")
        self._lobby(joined["room"])

    async def _create(self, client: RelayClient) -> dict[str, Any]:
        options = self.options_form.values() if self.options_form is not None else {}
        self.settings.set("online/side", SIDE_KEPT[self.side_combo.currentIndex()])
        return await client.create(
            self.game_combo.currentData(),
            options,
            seat=self.side_combo.currentData(),
            spectators=self.spectators_box.isChecked(),
            turn_seconds=self.clock_combo.currentData(),
        )

    def _relay_url(self) -> str | None:
        """The relay's URL from the address typed (``host:port`` is read as ``ws://host:port/ws``);
        ``None`` (and why, said) if it is not an address. A relay's address ("Play online") is
        remembered for next time; a LAN host's is not."""
        online = self.kind == "online"
        try:
            url = parse_address((self.url_edit if online else self.address_edit).text())
        except ValueError as exc:
            self._say(str(exc))
            return None
        if online:
            self.settings.set("online/relay_url", url)
        return url

    async def _create_online(self) -> None:
        url = self._relay_url()
        if url is None:
            return
        self.go_button.setEnabled(False)
        client = self._new_client(url)
        try:
            self._say(f"Connecting to {url}…")
            await client.connect()
            joined = await self._create(client)
        except RelayError as exc:
            self.go_button.setEnabled(True)
            self._say(exc.message)
            await client.close()
            return
        self.address_label.setText(f"Relay: {url}")
        self._lobby(joined["room"])

    def _join_clicked(self) -> None:
        _spawn(self._join(), self._tasks)

    async def _join(self) -> None:
        url = self._relay_url()
        if url is None:
            return
        try:
            code = typed_code(self.code_edit.text())
        except ValueError as exc:  # said as what a code looks like, not as the relay's field check
            self._say(str(exc))
            return
        self.join_button.setEnabled(False)
        client = self._new_client(url)
        try:
            self._say(f"Connecting to {url}…")
            await client.connect()
            await (client.spectate(code) if self.watch_box.isChecked() else client.join(code))
        except RelayError as exc:
            self.join_button.setEnabled(True)
            self._say(self._held_seat_words(url, code) if exc.code == "room_full" else exc.message)
            await client.close()
            return
        self._remember(url)
        self._hand_over()

    def _held_seat_words(self, url: str, code: str) -> str:
        """What to say to a player who typed the code of a full room: a room where this app keeps
        their seat is resumed, not watched (QA online audit 8: "you may spectate" to its player)."""
        seats = [s for s in remembered_seats(self.settings) if s.room == code and s.url == url]
        button = self.resume_button
        if not seats or button is None:
            return f"Room {code} already has two players. Tick “Only watch” to follow the match."
        how = "press “Resume my last match”" if button.menu() is None else "pick it under “Resume a match…”"
        return f"You already have a seat in room {code}: {how} to take it back."

    def _resume_clicked(self, seat: RememberedSeat) -> None:
        """Resume ``seat``; when another soccerdesk window plays it now, ask first: resuming
        takes the seat from that window, which then stops offering moves."""
        lock = SeatLock(seat_lock_path(Path(self.settings.data_dir), seat.room, seat.token))
        holder = lock.try_take()
        if holder is None:
            _spawn(self._resume(seat, lock), self._tasks)
            return
        where = f" (process {holder})" if holder > 0 else ""
        ask_first(
            self,
            "online-seat-elsewhere",
            "This match is open in another window",
            f"This match is being played in another soccerdesk window{where}: {seat_words(self.settings, seat)}.",
            details="Take it over here? That window stops offering moves and says the match moved. "
            "Cancel changes nothing: play on there.",
            go="Take it over here",
            stay="Cancel",
            on_go=lambda: _spawn(self._resume(seat, lock), self._tasks),
        )

    def resume_seat(self, seat: RememberedSeat) -> None:
        """Take ``seat`` back as its "Resume" does here (the home screen's list of matches
        waiting online resumes through this dialog, in one click)."""
        self._resume_clicked(seat)

    async def _resume(self, seat: RememberedSeat, lock: SeatLock) -> None:
        """Take ``seat`` back; ``lock`` (held, or still the other window's) goes to the session."""
        button = self.resume_button
        if button is not None:
            button.setEnabled(False)  # a second click would resume the seat from this very window
        self._resuming = True
        self._seat_lock = lock
        self.name_edit.setText(seat.name)
        if self.kind == "online":
            self.url_edit.setText(seat.url)  # the relay asked now (the seat's, which may not be the usual one)
        self._say(f"Taking your seat back in room {seat.room}…")
        client = self._new_client(seat.url)
        try:
            await client.connect()
            await client.resume(seat.room, seat.token)
        except RelayError as exc:
            lock.release()
            self._seat_lock = None
            self._resuming = False
            if exc.code in SEAT_GONE:
                # Nothing to go back to: the seat is no longer offered, here or on the home screen.
                forget_seat(self.settings, seat)
                self._drop_resume_choice(seat)
                self._say(
                    f"That match cannot be resumed: {exc.message.rstrip('.')}. "
                    "It is no longer listed among your matches to resume."
                )
            else:
                self._say(f"That match cannot be resumed: {exc.message}")
            if button is not None:
                button.setEnabled(True)
            await client.close()
            return
        self._hand_over()

    def _drop_resume_choice(self, seat: RememberedSeat) -> None:
        """Take a forgotten seat off "Resume my last match" / "Resume a match…"."""
        button = self.resume_button
        if button is None:
            return
        menu = button.menu()
        if menu is not None:
            for action in menu.actions():
                if action.data() == seat.key:
                    menu.removeAction(action)
        if menu is None or not menu.actions():
            button.hide()

    def _remember(self, url: str) -> None:
        client = self.client
        if client is not None and client.token and client.room:
            remember_seat(self.settings, RememberedSeat(url, client.room, client.token, client.name or ""))

    def _lobby(self, code: str) -> None:
        self.code_label.setText(code)
        self.pages.setCurrentWidget(self.lobby_page)
        self._say(WAITING_WORDS)
        self._show_players()

    # --- from the relay / the network -----------------------------------------------------------

    def _on_message(self, msg: dict[str, Any]) -> None:
        client = self.client
        if client is None or self._handed:
            return
        if msg["type"] == "snapshot":
            self._early_events = list(msg["events"])
            if self._hand_over_on_snapshot:
                self._hand_over()
                return
        elif msg["type"] == "update":
            self._early_events.extend(msg["events"])
        if msg["type"] in ("presence", "snapshot"):
            self._show_players()
            if client.host and all(p["name"] for p in client.players):
                if self.hosted is None:  # a LAN host's relay stops with its app: nothing to resume then
                    self._remember(client.url)
                self._hand_over()

    def _on_status(self, status: str) -> None:
        """The connection's ups and downs, said while the dialog waits (the lobby, a join).

        A drop is said as such while the client tries again; once through again the lobby
        says so and waits on; a loss for good (the room is gone, the friend's app stopped
        answering) says why, without a promise of reconnecting."""
        if self._handed:
            return
        if status == "reconnecting":
            self._reconnecting = True
            self._say("Connection to the game server lost; reconnecting…")
        elif status == "connected" and self._reconnecting:
            self._reconnecting = False
            waiting = self.pages.currentWidget() is self.lobby_page
            self._say("Connected again." + (f" {WAITING_WORDS}" if waiting else ""))
        elif status.startswith("lost: ") and (self._reconnecting or self.pages.currentWidget() is self.lobby_page):
            self._reconnecting = False  # (a failed connect or create says its own error)
            why = status.removeprefix("lost: ")
            self._say(f"Connection to the game server lost for good: {why}. Cancel, then start again.")
            self.code_label.setEnabled(False)  # greyed: not a code to give a friend any more
            self.players_list.clear()  # nobody is "here" in a room this window has lost

    def _show_players(self) -> None:
        self.players_list.clear()
        if self.client is None:
            return
        sides = RULES_SIDE_NAMES.get(self.client.game or "", ("", ""))
        for p in self.client.players:
            if p["name"]:
                where = "here" if p["connected"] else "away"
                # People never chose a seat number: the side they play, and its colour's name.
                side = ("Home", "Away")[p["seat"]] + (f" ({sides[p['seat']]})" if sides[p["seat"]] else "")
                QListWidgetItem(f"{p['name']} — {side} ({where})", self.players_list)

    def _lan_games_changed(self, games: list[LanGame]) -> None:
        self.lan_list.clear()
        for game in games:
            try:
                title = get_game(game.game).title
            except Exception:
                title = game.game
            item = QListWidgetItem(f"{game.name} — {title} ({game.address}:{game.port})", self.lan_list)
            item.setData(Qt.ItemDataRole.UserRole, game)

    def _lan_game_picked(self, item: QListWidgetItem | None) -> None:
        if item is None:
            return
        game: LanGame = item.data(Qt.ItemDataRole.UserRole)
        self.address_edit.setText(f"{game.address}:{game.port}")
        self.code_edit.setText(game.room)

    async def _browse(self) -> None:
        if self.browser is None:
            return
        try:
            await self.browser.start()
        except Exception as exc:  # no multicast on this network: typing the address still works
            log.warning("cannot look for LAN games: %s", exc)
            self._say("Cannot look for games on this network; type the address and code.")

    def _hand_over(self) -> None:
        """Both seats are taken (or we joined): the window gets the session, the dialog closes.

        Not before the match's snapshot is in: a session made without it took the snapshot
        for a new match (a rematch), and its screen lost what had happened so far (a
        spectator's log stayed empty). The snapshot's arrival calls this again."""
        client = self.client
        if client is None or self._handed or client.game is None:
            return
        if client.view is None:
            self._hand_over_on_snapshot = True
            return
        self._handed = True
        seat_lock, self._seat_lock = self._seat_lock, None
        if seat_lock is None and client.seat is not None and client.room and client.token:
            seat_lock = SeatLock(seat_lock_path(Path(self.settings.data_dir), client.room, client.token))
        self.session = RemoteSession(
            get_game(client.game),
            client,
            hosted=self.hosted,
            events=self._early_events,
            lan_guest=self.kind == "join" and client.max_attempts is not None,
            about=partial(remember_about, self.settings, about_key(client.room or "", client.token or "")),
            seat_lock=seat_lock,
            back=self._resuming,
        )
        self.hosted = None  # the session owns it now
        self.session_ready.emit(self.session)
        self.accept()

    def _say(self, text: str) -> None:
        self.status_label.setText(sentence(text))

    async def _cleanup(self) -> None:
        client = self.client
        if (
            client is not None
            and client.host
            and client.room is not None
            and client.connected
            and not any(p["name"] for p in client.players if p["seat"] != client.seat)
        ):
            # The host leaves the room nobody joined: the relay closes it and its code is dead
            # (protocol.md, "Leaving"), rather than keeping a room a friend could still join.
            with contextlib.suppress(RelayError):
                await client.leave()
        if client is not None:
            await client.close()
        if self.hosted is not None:
            await self.hosted.stop()
            self.hosted = None

    def done(self, result: int) -> None:  # QDialog: accept/reject/close all end here
        if self.browser is not None:
            _spawn(self.browser.stop(), _BACKGROUND)
            self.browser = None
        if not self._handed:
            if self._seat_lock is not None:
                self._seat_lock.release()
                self._seat_lock = None
            _spawn(self._cleanup(), _BACKGROUND)
        super().done(result)


def open_online_dialog(
    window: Any, *, kind: str, settings: AppSettings, resume: RememberedSeat | None = None, **overrides: Any
) -> OnlineDialog:
    """The main window's hook: show the dialog; its session goes to ``window.show_session``.

    Returns the dialog (not a session: the match begins only once both seats are taken).
    ``resume``: a remembered seat to take back at once (the home screen's one click).
    ``overrides`` go to :class:`OnlineDialog` (tests bind the relay to 127.0.0.1 and pass
    quiet mDNS parts).
    """
    home = getattr(window, "home", None)
    dialog = OnlineDialog(kind, settings, default_game=getattr(home, "game_id", None), parent=window, **overrides)

    def show(session: RemoteSession) -> None:
        session.on_rematch = show
        session.claim_offered.connect(lambda name, s=session: _ask_claim(window, s, name))
        session.host_left.connect(lambda text: _tell_host_left(window, text))
        session.taken_over.connect(lambda text: _tell_taken_over(window, text))
        window.show_session(session)

    dialog.session_ready.connect(show)
    dialog.setWindowModality(Qt.WindowModality.WindowModal)
    dialog.open()
    if resume is not None:
        dialog.resume_seat(resume)
    return dialog


def _tell_host_left(window: QWidget, text: str) -> None:
    box = QMessageBox(window)
    box.setObjectName("online-host-left")
    box.setIcon(QMessageBox.Icon.Information)
    box.setWindowTitle("The host has left")
    box.setText(f"{text}. The match cannot go on; it stays on screen until you go home.")
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.open()


def _tell_taken_over(window: QWidget, text: str) -> None:
    """The seat of this window's match was resumed elsewhere: say so, with the way home."""
    box = QMessageBox(window)
    box.setObjectName("online-taken-over")
    box.setIcon(QMessageBox.Icon.Information)
    box.setWindowTitle("Your match moved to another window")
    box.setText(text)
    home = box.addButton("Home", QMessageBox.ButtonRole.AcceptRole)
    box.addButton("Stay on this screen", QMessageBox.ButtonRole.RejectRole)
    box.setDefaultButton(home)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    go_home = getattr(window, "go_home", None)
    box.buttonClicked.connect(lambda button: go_home() if button is home and callable(go_home) else None)
    box.open()


def _ask_claim(window: QWidget, session: RemoteSession, name: str) -> None:
    box = QMessageBox(window)
    box.setObjectName("online-claim")
    box.setWindowTitle("Your opponent has left")
    box.setText(f"{name} has not come back. Take the win, or let the computer play on for them?")
    win = box.addButton("Take the win", QMessageBox.ButtonRole.AcceptRole)
    box.addButton("Computer plays on", QMessageBox.ButtonRole.RejectRole)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.buttonClicked.connect(lambda button: session.claim("win" if button is win else "bot"))
    box.open()


def take_online_screenshot(game_id: str, path: Path, size: tuple[int, int] = (1280, 800)) -> None:
    """``soccerdesk --screenshot online:GAME PATH``: the Play online dialog, GAME chosen.

    The installers' smoke test draws it: a frozen build that left network play out (it is
    reached by name only, see ``packaging/soccerdesk.spec``) fails here. The dialog keeps its
    own size (``size`` is the window's, wider than a dialog needs) and its settings are a
    throwaway profile's; nothing connects anywhere.
    """
    import tempfile

    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from soccerdesk.ui.screenshot import ScreenshotError, save_picture

    if QApplication.instance() is None:
        raise ScreenshotError("a QApplication must exist first")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        settings = AppSettings(QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat), folder)
        dialog = OnlineDialog("online", settings, default_game=game_id)
        dialog.resize(min(dialog.sizeHint().width(), size[0]), min(dialog.sizeHint().height(), size[1]))
        dialog.show()
        save_picture(dialog, None, path)
        dialog.deleteLater()


__all__ = [
    "HostedGame",
    "OnlineDialog",
    "RememberedSeat",
    "RemoteSession",
    "open_online_dialog",
    "parse_address",
    "take_online_screenshot",
    "remember_seat",
    "remembered_seats",
]
