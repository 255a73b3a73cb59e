"""The relay client: pure asyncio + aiohttp, no Qt (the app bridges it to signals).

    client = RelayClient("ws://127.0.0.1:8765/ws", name="Alice")
    await client.connect()
    joined = await client.create("soccer-go", options={})
    print(joined["room"])               # the code to give a friend
    msg = await client.next("update")   # or pass on_message=... to get every message
    await client.act(msg["view"]["legal"][0])

The client keeps what it was told: :attr:`room`, :attr:`seat`, :attr:`token`,
:attr:`view`, :attr:`players`... When the connection drops while it holds a seat (or
watches), it reconnects by itself with growing pauses, resumes with its token and the
last ply it saw, and the relay answers with a full snapshot plus the events it missed.
With ``max_attempts`` it gives up after that many tries (:attr:`RelayClient.gave_up`).
``on_status`` is told ``"connecting"``, ``"connected"``, ``"reconnecting"``,
``"closed"`` or ``"lost: <why>"``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Coroutine, Iterable
from typing import Any

import aiohttp

from soccerdesk.net.protocol import PROTOCOL_VERSION, SERVER_MESSAGES, ProtocolError, apply_patch, decode, encode

log = logging.getLogger("soccerdesk.net")

CLIENT_NAME = "soccerdesk"
RECONNECT_PAUSES = (0.2, 0.5, 1.0, 2.0, 3.0, 5.0)
"""Seconds between reconnection attempts; the last one repeats."""

REQUEST_TIMEOUT = 15.0
"""Seconds to wait for the answer to hello, create, join, resume or spectate."""

FATAL_CODES = frozenset({"version", "no_room", "bad_token", "replaced", "no_spectators", "host_left"})
"""Errors after which reconnecting cannot help."""

OWN_ATTEMPT_WINDOW = 30.0
"""Seconds after giving up on a live connection during which a ``replaced`` on the next one is
taken for that abandoned attempt seated late, once: the client resumes again instead of
stopping (see :meth:`RelayClient._abandon`)."""


def unreachable_words(exc: BaseException) -> str:
    """Why a connection to a relay failed, in words for a player: never the socket library's
    text, which may be nothing but the address again (an address aiohttp cannot use)."""
    if isinstance(exc, aiohttp.InvalidURL):
        return "that is not an address the app can connect to (type host:port, such as 192.168.1.20:8765)"
    if isinstance(exc, aiohttp.ClientSSLError):
        return (
            "the secure connection (wss://) failed: is the address right, and does the server have a valid certificate?"
        )
    if isinstance(exc, getattr(aiohttp, "ClientConnectorDNSError", ())):  # aiohttp 3.10+
        return "no computer has that name"
    if isinstance(exc, (aiohttp.ClientConnectorError, ConnectionRefusedError)):
        return "nothing answers there: is the relay running, and is the port right?"
    if isinstance(exc, aiohttp.WSServerHandshakeError):
        # A web server answered, but no relay: a wrong port or path, or a proxy without WebSockets.
        return f"something answers there, but it is not a soccerdesk relay (it said HTTP {exc.status})"
    if isinstance(exc, (aiohttp.ServerTimeoutError, TimeoutError)):
        return "no answer in time: is the address right?"
    if isinstance(exc, aiohttp.ServerDisconnectedError):
        return "something answers there, but it hung up: is it a soccerdesk relay, and is ws:// or wss:// right?"
    if isinstance(exc, OSError) and exc.strerror:
        return f"the connection failed: {exc.strerror}"
    return f"the connection failed ({type(exc).__name__})"


class RelayError(Exception):
    """The relay refused a request (an ``error`` message) or the connection failed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{message} ({code})")
        self.code = code
        self.message = message


MessageHandler = Callable[[dict[str, Any]], None]
StatusHandler = Callable[[str], None]


class RelayClient:
    """One player's (or spectator's) connection to a relay, with automatic reconnection.

    ``on_message(msg)`` receives every message from the relay, in order, after the
    client has updated its own fields. Without it, messages wait in a queue for
    :meth:`next`. ``reconnect=False`` turns automatic reconnection off.
    """

    def __init__(
        self,
        url: str,
        *,
        name: str = "",
        on_message: MessageHandler | None = None,
        on_status: StatusHandler | None = None,
        reconnect: bool = True,
        heartbeat: float = 20.0,
        pauses: Iterable[float] = RECONNECT_PAUSES,
        request_timeout: float = REQUEST_TIMEOUT,
        max_attempts: int | None = None,
    ) -> None:
        """``max_attempts``: reconnection attempts before giving up (``None``: never give up)."""
        self.url = url
        self.name = name
        self.on_message = on_message
        self.on_status = on_status
        self.reconnect = reconnect
        self.heartbeat = heartbeat
        self.pauses = tuple(pauses)
        self.request_timeout = request_timeout
        self.max_attempts = max_attempts
        self.gave_up = False  # reconnecting stopped after max_attempts: the relay is gone
        self.fatal_code: str | None = None  # the error code after which the relay hung up for good
        self.room: str | None = None
        self.seat: int | None = None
        self.token: str | None = None
        self.spectator = False
        self.host = False
        self.game: str | None = None
        self.options: dict[str, Any] = {}
        self.settings: dict[str, Any] = {}
        self.match = 0
        self.seq = -1
        self.view: dict[str, Any] | None = None
        self.players: list[dict[str, Any]] = []
        self.result: dict[str, Any] | None = None
        self.clock: dict[str, float] = {}  # seconds left of the current turn by seat, when the relay said so
        self.countdown: dict[str, Any] | None = None  # the abandonment countdown, when one runs
        # Seconds the match had been played by the relay's clock, and time.monotonic() when told.
        self.played: tuple[float, float] | None = None
        self.record: dict[str, Any] | None = None  # the record of match ``record_match``, once it is over
        self.record_match = 0
        self.chat_lines: list[dict[str, Any]] = []  # the room's chat lines, oldest first (the relay keeps 50)
        self.games: list[str] = []
        self.status = "closed"
        self._session: aiohttp.ClientSession | None = None
        self._ws: aiohttp.ClientWebSocketResponse | None = None
        self._reader: asyncio.Task[None] | None = None
        self._queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._waiters: list[tuple[frozenset[str], asyncio.Future[dict[str, Any]]]] = []
        self._closing = False
        self._fatal: str | None = None  # why the relay hung up for good, if it did
        self._reconnector: asyncio.Task[None] | None = None
        self._acted: tuple[str, int | None] | None = None  # the last act sent: (action, ply)
        self._background: set[asyncio.Task[None]] = set()  # choices sent again, abandoned connections closing
        self._abandoned_at: float | None = None  # time.monotonic() a live connection was given up

    # --- connecting -------------------------------------------------------------------

    async def connect(self) -> dict[str, Any]:
        """Open the WebSocket and say hello; returns the relay's ``welcome``."""
        self._closing = False
        self._fatal = None
        self._set_status("connecting")
        welcome = await self._open()
        self._set_status("connected")
        return welcome

    async def _open(self) -> dict[str, Any]:
        self._abandon()  # a connection this client no longer uses says nothing more
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession()
        try:
            self._ws = await self._session.ws_connect(self.url, heartbeat=self.heartbeat, max_msg_size=4 * 1024 * 1024)
        except (aiohttp.ClientError, OSError, TimeoutError) as exc:
            raise RelayError("unreachable", f"cannot reach the relay at {self.url}: {unreachable_words(exc)}") from None
        self._reader = asyncio.create_task(self._read(self._ws))
        welcome = await self._request("hello", {"welcome"}, version=PROTOCOL_VERSION, client=CLIENT_NAME)
        self.games = list(welcome["games"])
        return welcome

    def _abandon(self) -> None:
        """Close the current connection as one this client no longer uses (a reconnection
        attempt that failed): nothing read on it after this is taken, no request waits on it,
        and its end does not start another reconnection.

        Without this, an attempt whose ``resume`` the relay answered late (a cluster node
        taking over a dead node's room) kept reading: the relay gave that connection the seat,
        the next attempt's ``resume`` took it over, and the first connection's ``replaced``
        was read as this client's own seat taken by another window. Should the relay seat the
        abandoned connection after the next one instead, the next one is told ``replaced``:
        within :data:`OWN_ATTEMPT_WINDOW` of giving up a live connection that is taken for
        this client's own doing, once, and it resumes again."""
        ws, self._ws = self._ws, None
        if ws is not None and not ws.closed:
            self._abandoned_at = time.monotonic()
            # Closed in the background: a relay busy with that connection's request answers
            # the close only when done with it, and the next attempt must not wait for that.
            self._in_background(self._close_quietly(ws))

    @staticmethod
    async def _close_quietly(ws: aiohttp.ClientWebSocketResponse) -> None:
        with contextlib.suppress(Exception):
            await ws.close()

    def _own_late_attempt(self, msg: dict[str, Any]) -> bool:
        """Whether ``msg`` is a ``replaced`` this client's abandoned attempt caused (once)."""
        if msg["type"] != "error" or msg["code"] != "replaced" or self._abandoned_at is None:
            return False
        own = time.monotonic() - self._abandoned_at < OWN_ATTEMPT_WINDOW
        self._abandoned_at = None
        if own:
            log.info("the relay seated an abandoned reconnection attempt late; resuming again")
        return own

    async def close(self) -> None:
        """Leave quietly (no reconnection) and free the connection."""
        self._closing = True
        if self._reconnector is not None and self._reconnector is not asyncio.current_task():
            self._reconnector.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reconnector
            self._reconnector = None
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
        if self._session is not None:
            await self._session.close()
        for task in list(self._background):  # with the session closed, these end at once
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._set_status("closed")

    async def drop(self) -> None:
        """Close the socket as a network failure would (tests: automatic reconnection follows)."""
        if self._ws is not None:
            await self._ws.close(code=1011)

    @property
    def connected(self) -> bool:
        return self._ws is not None and not self._ws.closed

    # --- entering a room --------------------------------------------------------------

    async def create(
        self,
        game: str,
        options: dict[str, Any] | None = None,
        *,
        seat: int | None = None,
        spectators: bool = True,
        turn_seconds: int | None = None,
        abandon_seconds: int | None = None,
    ) -> dict[str, Any]:
        """Open a room as host; returns ``joined`` (``room`` is the code to share)."""
        fields: dict[str, Any] = {"game": game, "options": options or {}, "seat": seat, "spectators": spectators}
        if self.name:
            fields["name"] = self.name
        if turn_seconds is not None:
            fields["turn_seconds"] = turn_seconds
        if abandon_seconds is not None:
            fields["abandon_seconds"] = abandon_seconds
        return await self._request("create", {"joined"}, **fields)

    async def join(self, room: str) -> dict[str, Any]:
        fields = {"room": room, **({"name": self.name} if self.name else {})}
        return await self._request("join", {"joined"}, **fields)

    async def spectate(self, room: str) -> dict[str, Any]:
        return await self._request("spectate", {"joined"}, room=room)

    async def resume(
        self, room: str, token: str, *, match: int | None = None, seq: int | None = None
    ) -> dict[str, Any]:
        """Take a seat back with its token (after a restart of this program, say).

        With the ``match`` and ``seq`` last seen, the snapshot's ``events`` are only those
        missed since; without, all of the current match.
        """
        fields: dict[str, Any] = {"room": room, "token": token}
        if match is not None and seq is not None:
            fields.update(match=match, seq=max(seq, 0))
        return await self._request("resume", {"joined"}, **fields)

    # --- in a room --------------------------------------------------------------------

    async def act(self, action: str, *, ply: int | None = None) -> None:
        """Send an action; the answer comes as ``update`` (applied) or ``refused``.

        When both seats make a simultaneous secret choice at once and the other one lands
        first, the relay refuses this one with the ply to send it again at (``again``): the
        client sends it again by itself and passes on no refusal, as the choice still stands.
        """
        self._acted = (action, ply)
        await self.send("act", action=action, **({} if ply is None else {"ply": ply}))

    async def chat(self, text: str) -> None:
        await self.send("chat", text=text)

    async def offer_rematch(self) -> None:
        await self.send("rematch")

    async def claim(self, take: str) -> None:
        """``take`` is ``"win"`` or ``"bot"`` (after the abandonment countdown ran out)."""
        await self.send("claim", take=take)

    async def allow_spectators(self, allow: bool) -> None:
        await self.send("spectators", allow=allow)

    async def leave(self) -> None:
        """Go out of the room for good: the room and token are forgotten, nothing reconnects
        into it. A player who leaves a running match resigns it; :meth:`resign` keeps the seat."""
        await self.send("leave")
        self.room = self.token = None
        self.seat = None

    async def resign(self) -> None:
        """Resign the match being played and stay in the room, seated.

        The relay ends the match (the other seat wins) and sends ``record`` and ``finished``
        (``reason`` ``resigned``), then takes this connection out of the room; the seat stays
        this token's (protocol.md, "Leaving"). The client takes it back at once, from the ply it
        saw (no event twice), so the result stays on screen, a rematch can be offered, and a
        dropped connection resumes into the room as before. Room and token are kept throughout:
        :meth:`leave` forgets them, and a connection lost then would not reconnect.
        """
        room, token = self.room, self.token
        if room is None or token is None:
            raise RelayError("not_now", "only a player in a room can resign")
        await self.send("leave")
        await self.resume(room, token, match=self.match, seq=self.seq)

    async def send(self, kind: str, **fields: Any) -> None:
        """Send one message (raises RelayError when not connected)."""
        await self.send_raw(encode(kind, **fields))

    async def send_raw(self, text: str) -> None:
        if self._ws is None or self._ws.closed:
            raise RelayError("offline", "not connected to the relay")
        try:
            await self._ws.send_str(text)
        except (aiohttp.ClientError, OSError) as exc:  # the connection is closing: a relay went away
            raise RelayError("offline", "not connected to the relay") from exc

    async def next(self, *kinds: str, timeout: float = 10.0) -> dict[str, Any]:
        """The next queued message of one of ``kinds`` (any kind if none); others are dropped."""
        async with asyncio.timeout(timeout):
            while True:
                msg = await self._queue.get()
                if not kinds or msg["type"] in kinds:
                    return msg

    def pending(self) -> list[dict[str, Any]]:
        """Every queued message, removed from the queue."""
        out = []
        while not self._queue.empty():
            out.append(self._queue.get_nowait())
        return out

    # --- machinery --------------------------------------------------------------------

    async def _request(self, kind: str, answers: set[str], **fields: Any) -> dict[str, Any]:
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiters.append((frozenset(answers), future))
        try:
            await self.send(kind, **fields)
            async with asyncio.timeout(self.request_timeout):
                return await future
        except TimeoutError:
            raise RelayError("timeout", f"the relay did not answer {kind} in {self.request_timeout:g} s") from None
        finally:
            self._waiters = [(a, f) for a, f in self._waiters if f is not future]

    async def _read(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        try:
            async for frame in ws:
                if ws is not self._ws:
                    break  # abandoned (_abandon): what it still brings is not for this client
                if frame.type != aiohttp.WSMsgType.TEXT:
                    continue
                try:
                    msg = decode(frame.data, SERVER_MESSAGES)
                    if msg["type"] == "update" and "view" not in msg:
                        msg["view"] = self._patched(msg)
                except ProtocolError as exc:
                    log.warning("relay sent a bad message: %s", exc)
                    if exc.code == "not_now":  # a patch of a view this client does not have
                        await ws.close(code=1011)  # reconnecting resumes with a full snapshot
                        break
                    continue
                self._take(msg)
        finally:
            if ws is self._ws:  # an abandoned connection's end fails no request of the next one
                self._fail_waiters(RelayError("closed", "the connection to the relay closed"))
                if self._fatal is not None:
                    self._closing = True
                    self._set_status(f"lost: {self._fatal}")
                elif not self._closing:
                    # Dropped with its loop (closed, not cancelled): there is nothing to reconnect for.
                    with contextlib.suppress(RuntimeError):
                        asyncio.get_running_loop().call_soon(self._connection_lost, ws)

    def _patched(self, update: dict[str, Any]) -> dict[str, Any]:
        """The whole view of a protocol 3 ``update``: its patch applied to the view of ply ``base``.

        The app is handed whole views, as from older relays; a patch that does not fit
        raises ``not_now`` (the relay and this client disagree on the view: resume).
        """
        if (
            self.view is None
            or update.get("base") != self.seq
            or update["match"] != self.match
            or "patch" not in update
        ):
            raise ProtocolError("not_now", f"update patches the view of ply {update.get('base')}, not this one")
        try:
            return apply_patch(self.view, update["patch"])
        except ProtocolError as exc:
            raise ProtocolError("not_now", exc.message) from None

    def _take(self, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind == "refused" and self._resend(msg):
            return
        if self._own_late_attempt(msg):
            return  # the connection closes right after: reconnecting resumes the seat again
        if kind == "joined":
            self.room, self.seat, self.token, self.host = msg["room"], msg["seat"], msg["token"], msg["host"]
            self.spectator = msg["seat"] is None
            self.game, self.options, self.settings = msg["game"], msg["options"], msg["settings"]
        elif kind in ("snapshot", "update"):
            self.match, self.seq, self.view = msg["match"], msg["seq"], msg["view"]
            if kind == "snapshot":
                self.players, self.result, self.chat_lines = msg["players"], msg["result"], list(msg["chat"])
                self.clock, self.countdown = msg["clock"], msg["countdown"]
                played = msg.get("played")
                self.played = None if played is None else (float(played), time.monotonic())
        elif kind == "clock":
            self.clock = msg["clock"]
        elif kind == "countdown":
            self.countdown = msg["countdown"]
        elif kind == "presence":
            self.players = msg["players"]
        elif kind == "finished":
            self.result = msg["result"]
        elif kind == "record":
            self.record, self.record_match = msg["record"], msg["match"]
        elif kind == "chat":
            self.chat_lines.append({k: msg[k] for k in ("seat", "name", "text")})
        elif kind == "error" and msg["code"] in FATAL_CODES and (self.room is not None or msg["code"] == "version"):
            self._fatal = msg["message"]  # the relay hangs up for good (room closed, seat taken over): no retry
            self.fatal_code = msg["code"]
        if kind == "error":
            for _, future in self._waiters:
                if not future.done():
                    future.set_exception(RelayError(msg["code"], msg["message"]))
                    break
        else:
            for answers, future in self._waiters:
                if kind in answers and not future.done():
                    future.set_result(msg)
                    break
        if self.on_message is not None:
            self.on_message(msg)
        else:
            self._queue.put_nowait(msg)

    def _resend(self, refused: dict[str, Any]) -> bool:
        """Send a choice again that lost a race only to the other seat's secret choice."""
        again = refused.get("again")
        if again is None or self._acted is None or self._acted[0] != refused["action"] or again != self.seq:
            return False
        self._in_background(self._act_again(refused["action"], again))
        return True

    def _in_background(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` as a task of its own, kept referenced until done (:meth:`close` waits for it)."""
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _act_again(self, action: str, ply: int) -> None:
        try:
            await self.act(action, ply=ply)
        except (RelayError, ConnectionError) as exc:  # offline now: the resumed view asks again
            log.info("could not send %r again: %s", action, exc)

    def _fail_waiters(self, exc: RelayError) -> None:
        for _, future in self._waiters:
            if not future.done():
                future.set_exception(exc)

    def _connection_lost(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        if self._closing or not self.reconnect or self.room is None:
            self._set_status("closed" if self._closing else "lost: the connection to the relay closed")
            return
        self._set_status("reconnecting")
        self._reconnector = asyncio.get_running_loop().create_task(self._reconnect())

    async def _reconnect(self) -> None:
        """Try again (at most ``max_attempts`` times); resume the seat (or the spectator's place) when through."""
        attempt = 0
        while not self._closing:
            if self.max_attempts is not None and attempt >= self.max_attempts:
                self._closing = True
                self.gave_up = True
                self._set_status(f"lost: no answer from the relay after {attempt} tries")
                return
            await asyncio.sleep(self.pauses[min(attempt, len(self.pauses) - 1)])
            attempt += 1
            try:
                await self._open()
                if self.token is not None and self.room is not None:
                    await self.resume(self.room, self.token, match=self.match, seq=self.seq)
                elif self.room is not None:
                    await self._request("spectate", {"joined"}, room=self.room)
            except RelayError as exc:
                if exc.code in FATAL_CODES:
                    self._closing = True
                    self._set_status(f"lost: {exc.message}")
                    return
                log.info("reconnect attempt %d failed: %s", attempt, exc)
                self._abandon()  # its late answers must not be taken for the next attempt's
                continue
            except (TimeoutError, aiohttp.ClientError, OSError) as exc:
                log.info("reconnect attempt %d failed: %s", attempt, exc)
                self._abandon()
                continue
            if self._closing:  # closed by the program while this attempt went through
                await self.close()
                return
            self._set_status("connected")
            return

    def _set_status(self, status: str) -> None:
        self.status = status
        if self.on_status is not None:
            self.on_status(status)


__all__ = ["FATAL_CODES", "RECONNECT_PAUSES", "RelayClient", "RelayError", "unreachable_words"]
