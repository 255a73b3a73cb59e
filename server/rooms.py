"""Rooms: one match between two seats, its spectators, its chat, clocks and rematches.

The relay is server-authoritative. A :class:`Room` holds the full :class:`State` of its
match, draws every chance outcome itself, validates every action with ``state.apply``
and sends each seat only ``state.view(seat)`` and the events that seat may see
(``Event.visible_to``); spectators get ``view(None)``. Nothing in here knows about
WebSockets: a room talks to :class:`Peer` objects (the relay's connections) through
``send`` and ``close``, and uses asyncio only for its timers.

Rules of the room, as players see them:

* A room is created by its host with a game and options; the host gets a short join
  code to give a friend and a secret seat *token*. The friend joins with the code and
  gets the other seat and a token of their own. A token, not the connection, is the
  seat: a dropped player resumes with it and gets a full snapshot plus the events missed.
* Seat ``0`` or ``1`` may be asked for by the host; otherwise the relay tosses for it.
* Spectators watch with ``view(None)``; they cannot act or chat. The host may refuse them.
* Per-turn clock (optional, ``turn_seconds``): a seat's *turn* is an unbroken run of
  decisions it owes (chance resolved by the relay in between does not break it), except that
  a simultaneous secret choice is a turn of its own for each seat (``turns_ended`` in the
  protocol module). When the turn's time runs out the relay's bot makes the remaining
  decisions of that turn.
* Abandonment: while a seat must decide and its player is disconnected, and the
  opponent is connected, a countdown of ``abandon_seconds`` runs. When it ends the
  opponent may ``claim`` the win or let a bot take over the absent seat (the player
  gets the seat back by resuming with the token).
* ``leave`` before the opponent joins closes the room for good (its code is dead, also after
  a restart); during a match it resigns.
* Rematch: once a match is over, each player may offer a rematch; both see the offers,
  and when both have offered a new match starts with the seats swapped.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Protocol

from server.pace import Pace
from server.thinker import Thinker
from soccerdesk.bots import Bot, RandomBot, make_bot
from soccerdesk.net.protocol import (
    CODE_ALPHABET,
    CODE_LENGTH,
    MAX_CHAT_CHARS,
    PATCH_SINCE,
    RECORD_SINCE,
    ProtocolError,
    clean_chat,
    clean_line,
    clean_name,
    encode,
    turns_ended,
    view_patch,
)
from soccerdesk.rules import CHANCE, Game, RulesError, State, get_game
from soccerdesk.rules.api import RECORD_FORMAT, RECORD_VERSION, Event, sample_chance

log = logging.getLogger("soccerdesk.relay")

CHAT_HISTORY = 50

UNSAVED = "the relay cannot save right now, so the match is back at its last saved move; reconnect to resume"
"""What the people in a room are told when a write of the room failed (a full disk, Redis out
of memory): the room is dropped from memory, and a resume rebuilds it from what was stored."""


def new_code() -> str:
    """A fresh random join code (31**6, about 890 million codes; guesses are rate-limited)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(code: str) -> str:
    """A typed code as stored: upper case, without surrounding blanks."""
    return code.strip().upper()


def hash_token(token: str) -> str:
    """What the store keeps of a seat token: its SHA-256, in hex.

    Tokens are 144 random bits, so a fast hash is enough: nobody can find a token from
    its hash, and whoever reads the database (or a backup of it) cannot take a seat.
    """
    return hashlib.sha256(token.encode()).hexdigest()


def chance_rng(chance_seed: int, ply: int) -> random.Random:
    """The RNG that decides the chance node at ``ply``: the seed and the ply are its whole state."""
    return random.Random((chance_seed << 24) ^ ply)


class Store(Protocol):
    """Where rooms are kept: the seam between the relay and its storage.

    :class:`server.store.RoomStore` (SQLite, one relay) implements it, and so does
    :class:`server.cluster.Journal` (Redis, the nodes of a cluster, :mod:`server.node`). Writes may be batched:
    ``durable()`` returns an awaitable that is done once everything written so far is
    stored for good (``None`` if it already is), and the relay's connections wait on it
    before sending anything, so nothing is acknowledged before it is stored.

    A write that fails for good fails those futures, and ``on_failure(code, error)`` (set by
    the :class:`Hall`) is told of each room whose writes were lost.
    """

    on_failure: Callable[[str, Exception], None] | None

    def durable(self) -> asyncio.Future[None] | None: ...

    def durable_for(self, code: str) -> asyncio.Future[None] | None:
        """The same for the writes of room ``code`` only."""
        ...

    def save_room(self, code: str, doc: dict[str, Any]) -> None: ...

    def append_actions(self, code: str, match: int, first_ply: int, actions: list[tuple[int, str]]) -> None: ...

    def drop_match(self, code: str, match: int) -> None: ...

    def load_room(self, code: str) -> tuple[dict[str, Any], list[list[Any]]] | None: ...

    def delete_room(self, code: str) -> None: ...

    def has_room(self, code: str) -> bool: ...

    def stale_rooms(self, older_than: float) -> list[str]: ...


class Peer(Protocol):
    """One connection as a room sees it: the relay implements this.

    A peer may also have ``version``, the protocol version its ``hello`` named (a peer
    without it is taken to speak version 1: it is sent no ``record``, no patches), and
    ``ip``, the address its messages and the bot moves they cause are counted against.
    """

    def send(self, text: str) -> None: ...

    def close(self, code: str, message: str) -> None: ...


@dataclass
class Player:
    """Whoever holds a seat token. ``peer`` is ``None`` while disconnected.

    Only the token's hash is stored; the token itself is known in memory while its
    holder is connected (the relay made it, or the holder resumed with it).
    """

    token_hash: str
    name: str
    host: bool
    peer: Peer | None = None
    bot: bool = False  # a bot plays the seat after an abandonment claim
    token: str | None = None

    @classmethod
    def new(cls, name: str, host: bool, peer: Peer) -> Player:
        token = secrets.token_urlsafe(18)
        return cls(hash_token(token), name, host, peer, token=token)

    def holds(self, token: str) -> bool:
        return secrets.compare_digest(self.token_hash, hash_token(token))


@dataclass(frozen=True, slots=True)
class RoomSettings:
    """What the host chose for the room (see the module docstring for what each does)."""

    spectators: bool = True
    turn_seconds: int | None = None
    abandon_seconds: int = 120

    def to_json(self) -> dict[str, Any]:
        return {
            "spectators": self.spectators,
            "turn_seconds": self.turn_seconds,
            "abandon_seconds": self.abandon_seconds,
        }


@dataclass
class _Countdown:
    """The abandonment countdown of an absent seat."""

    seat: int
    deadline: float  # loop time
    expired: bool = False
    handle: asyncio.TimerHandle | None = None


def _other(seat: int) -> int:
    return 1 - seat


def _bot_for(game_id: str) -> Bot:
    """The relay's stand-in player: the game's heuristic bot, or random if it has none yet."""
    try:
        return make_bot("heuristic", game_id)
    except (ImportError, AttributeError, ValueError):  # a game without a heuristic bot (yet)
        return RandomBot(game_id)


class Room:
    """One match and the people around it. See the module docstring for its rules."""

    def __init__(
        self,
        code: str,
        game: Game,
        options: dict[str, Any],
        settings: RoomSettings,
        store: Store,
        thinker: Thinker | None = None,
    ) -> None:
        self.code = code
        self.game = game
        self.options = options
        self.settings = settings
        self.seats: list[Player | None] = [None, None]
        self.spectators: set[Peer] = set()
        self.match = 1
        self.chance_seed = secrets.randbits(63)  # never leaves the relay: it decides the dice
        self.state: State = game.new_match(seed=secrets.randbits(31), **options)
        self.log: list[tuple[int, Event]] = []  # (ply, event) of the current match
        self.result: dict[str, Any] | None = None
        self.rematch_offers: set[int] = set()
        self.chat: list[dict[str, Any]] = []
        self.started = False
        # time.time() the current match began and ended (None: not yet): its time played,
        # which a player's screen shows and a resumed screen continues from.
        self.started_at: float | None = None
        self.ended_at: float | None = None
        self.last_active = time.monotonic()
        self.store = store
        self._deadlines: dict[int, float] = {}  # seat -> loop time its turn clock runs out
        self._stored_clocks: dict[int, float] = {}  # seat -> time.time() it ran out, as stored (restored rooms)
        self._clock_handles: dict[int, asyncio.TimerHandle] = {}
        self._autoplay: set[int] = set()  # seats whose turn ran out: the bot finishes it
        # (ply, seat, why) of each decision the relay's bot made for a seat in this match: the
        # log tells it (a ``computer`` event), so nobody reads a bot's move as the player's own.
        self._computer: list[tuple[int, int, str]] = []
        # seat -> the ply since which its decision position is the same (see act())
        self._position: dict[int, int] = {}
        # Seats whose decision now is their part of a simultaneous secret choice, and seats whose
        # turn ended (their secret choice made, or a new one begun) while they owe decisions on:
        # the next clock check gives them a fresh turn (protocol.turns_ended).
        self._picking: frozenset[int] = frozenset()
        self._turn_over: set[int] = set()
        self._countdown: _Countdown | None = None
        self._bot: Bot | None = None
        self.thinker = thinker
        self._thinking: asyncio.Task[None] | None = None  # the bot deciding a seat's move
        self._driver: str | None = None  # the address whose message set the bots going
        # Audience (seat, None for spectators) -> (match, ply, view) last sent to it, and
        # connection -> (match, ply) of the last view it was sent: updates are patches of it.
        self._views: dict[int | None, tuple[int, int, dict[str, Any]]] = {}
        self._seen: dict[Peer, tuple[int, int]] = {}
        self.closed = False
        self.dropped = False  # forgotten by the relay (drop()): it neither writes nor takes messages

    def drop(self, why: str) -> None:
        """Forget this room in memory: a write of it failed (or, on a cluster, another node runs
        it now). Its timers and its bot stop, everyone in it is closed with ``server_busy``
        (``why``), so that their clients resume from what the store holds, and whatever still
        reaches this object is refused and writes nothing."""
        self.dropped = True
        self.stop_timers()
        self._send_everyone_away("server_busy", why)

    # --- persistence ---------------------------------------------------------------

    def to_doc(self) -> dict[str, Any]:
        """Everything but the action list, for :class:`server.store.RoomStore`."""
        return {
            "code": self.code,
            "game": self.game.id,
            "options": self.options,
            "settings": self.settings.to_json(),
            "seats": [
                None if p is None else {"token_hash": p.token_hash, "name": p.name, "host": p.host, "bot": p.bot}
                for p in self.seats
            ],
            "match": self.match,
            "chance_seed": self.chance_seed,
            "record_seed": self.state.info.seed,
            "result": self.result,
            "rematch": sorted(self.rematch_offers),
            "chat": self.chat,
            "started": self.started,
            "started_at": self.started_at,
            "ended_at": self.ended_at,
            "clocks": self._wall_clocks(),
            "computer": [list(entry) for entry in self._computer],
            "closed": self.closed,
        }

    def _save(self) -> None:
        if not self.dropped:
            self.store.save_room(self.code, self.to_doc())

    @classmethod
    def from_doc(
        cls,
        doc: dict[str, Any],
        actions: list[list[Any]],
        store: Store,
        thinker: Thinker | None = None,
    ) -> Room:
        """Restore a room saved by :meth:`to_doc`; the match is replayed with the rules.

        Slow for a long match: the relay calls it in a worker (:class:`server.thinker.Thinker`).
        Names and chat are cleaned again (a database written by an older relay may hold
        text that cannot be sent), and plain tokens of such a database are hashed.
        """
        game = get_game(doc["game"])
        room = cls(doc["code"], game, doc["options"], RoomSettings(**doc["settings"]), store, thinker)
        room.match = doc["match"]
        room.chance_seed = doc["chance_seed"]
        record = {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game": game.id,
            "seed": doc["record_seed"],
            "options": doc["options"],
            "actions": actions,
        }
        states = game.replay(record)
        room.state = states[-1]
        room._computer = [
            (int(ply), int(seat), str(why)) for ply, seat, why in doc.get("computer", []) if int(ply) < len(states)
        ]
        marked = {ply: computer_event(seat, why) for ply, seat, why in room._computer}
        room.log = [
            (ply, ev)
            for ply, s in enumerate(states)
            for ev in ([marked[ply]] if ply in marked else []) + list(s.events)
        ]
        for (seat, _), before, after in zip(room.state.history(), states[:-1], states[1:], strict=True):
            room._moved(before, seat, after)
        room._turn_over = set()  # the stored clocks say what is left of each turn
        room.closed = bool(doc.get("closed", False))  # closed by its host: the code stays dead
        room.seats = [
            None
            if p is None
            else Player(
                p["token_hash"] if "token_hash" in p else hash_token(p["token"]),
                clean_name(p["name"], "Host" if p["host"] else "Guest"),
                p["host"],
                bot=p["bot"],
            )
            for p in doc["seats"]
        ]
        room.result = doc["result"]
        room.rematch_offers = set(doc["rematch"])
        room.chat = [
            {"seat": line["seat"], "name": clean_name(line["name"], "?"), "text": text}
            for line in doc["chat"]
            if (text := clean_line(line["text"], MAX_CHAT_CHARS))
        ]
        room.started = doc["started"]
        room.started_at, room.ended_at = _time_or_none(doc.get("started_at")), _time_or_none(doc.get("ended_at"))
        room._stored_clocks = {int(seat): float(at) for seat, at in doc.get("clocks", {}).items()}
        return room

    # --- who is here ------------------------------------------------------------------

    def seat_of(self, peer: Peer) -> int | None:
        for seat, player in enumerate(self.seats):
            if player is not None and player.peer is peer:
                return seat
        return None

    def has_peers(self) -> bool:
        return bool(self.spectators) or any(p is not None and p.peer is not None for p in self.seats)

    def players_json(self) -> list[dict[str, Any]]:
        return [
            {"seat": seat, "name": p.name, "connected": p.peer is not None, "bot": p.bot, "host": p.host}
            if p is not None
            else {"seat": seat, "name": "", "connected": False, "bot": False, "host": False}
            for seat, p in enumerate(self.seats)
        ]

    def _audience(self) -> list[tuple[Peer, int | None]]:
        out: list[tuple[Peer, int | None]] = [
            (p.peer, seat) for seat, p in enumerate(self.seats) if p is not None and p.peer is not None
        ]
        out.extend((peer, None) for peer in self.spectators)
        return out

    def _broadcast(self, text: str) -> None:
        for peer, _ in self._audience():
            peer.send(text)

    def _presence(self) -> None:
        self._broadcast(encode("presence", players=self.players_json(), spectators=len(self.spectators)))

    # --- entering ---------------------------------------------------------------------

    def seat_host(self, peer: Peer, name: str, seat: int | None) -> Player:
        """Seat the room's creator (``seat`` ``None``: tossed by the relay)."""
        if seat is None:
            seat = secrets.randbelow(2)
        player = Player.new(clean_name(name, "Host"), True, peer)
        self.seats[seat] = player
        self._save()
        self._welcome(peer, seat, player)
        return player

    def join(self, peer: Peer, name: str) -> Player:
        """Seat the second player; the match starts."""
        free = [seat for seat, p in enumerate(self.seats) if p is None]
        if not free or self.closed:
            raise ProtocolError("room_full", f"room {self.code} already has two players; you may spectate")
        seat = free[0]
        player = Player.new(clean_name(name, "Guest"), False, peer)
        self.seats[seat] = player
        self.started = True
        self.started_at = time.time()
        self._save()
        self._welcome(peer, seat, player)
        self._presence()
        self._driver = getattr(peer, "ip", None)
        self._advance([])
        return player

    def resume(self, peer: Peer, token: str, match: int | None, seq: int | None) -> int:
        """Give a seat back to its token holder; a stale connection of that seat is closed."""
        seat = next((s for s, p in enumerate(self.seats) if p is not None and p.holds(token)), None)
        player = None if seat is None else self.seats[seat]
        if seat is None or player is None:
            raise ProtocolError("bad_token", f"that token holds no seat in room {self.code}")
        old = player.peer
        player.peer = peer
        player.token = token
        if old is not None and old is not peer:
            self._seen.pop(old, None)
            old.close("replaced", "this seat was resumed from another connection")
        player.bot = False
        self._driver = getattr(peer, "ip", None)
        self._save()
        self._welcome(peer, seat, player, match, seq)
        self._presence()
        self._after_change()
        return seat

    def spectate(self, peer: Peer) -> None:
        if not self.settings.spectators:
            raise ProtocolError("no_spectators", f"the host of room {self.code} does not allow spectators")
        self.spectators.add(peer)
        self._welcome(peer, None, None)
        self._presence()

    def _welcome(
        self, peer: Peer, seat: int | None, player: Player | None, match: int | None = None, seq: int | None = None
    ) -> None:
        self.last_active = time.monotonic()
        peer.send(
            encode(
                "joined",
                room=self.code,
                seat=seat,
                token=None if player is None else player.token,
                host=player is not None and player.host,
                game=self.game.id,
                options=self.options,
                settings=self.settings.to_json(),
            )
        )
        peer.send(self._snapshot(peer, seat, since=seq if match == self.match else None))
        self._send_record(peer)

    def _snapshot(self, peer: Peer, seat: int | None, since: int | None) -> str:
        """Full view for ``seat``; ``events`` are those after ply ``since`` (all if ``None``).

        The view is the one ``peer``'s next update is a patch of.
        """
        start = -1 if since is None else since
        view = self.state.view(seat)
        self._views[seat] = (self.match, self.state.ply, view)
        self._seen[peer] = (self.match, self.state.ply)
        return encode(
            "snapshot",
            match=self.match,
            seq=self.state.ply,
            view=view,
            events=[_event_json(ply, ev) for ply, ev in self.log if ply > start and ev.visible_to(seat)],
            players=self.players_json(),
            chat=self.chat,
            rematch=sorted(self.rematch_offers),
            result=self.result,
            clock=self._clock_json(),
            countdown=self._countdown_json(),
            played=self.time_played(),
        )

    def time_played(self) -> float | None:
        """Seconds the current match has been played (to full time once it is over), by the
        relay's clock; ``None`` before it starts, or for a room stored by an older relay."""
        if self.started_at is None:
            return None
        end = self.ended_at if self.ended_at is not None else time.time()
        return round(max(0.0, end - self.started_at), 1)

    # --- leaving ----------------------------------------------------------------------

    def disconnected(self, peer: Peer) -> None:
        """A connection ended (dropped or closed)."""
        self.spectators.discard(peer)
        self._seen.pop(peer, None)
        for player in self.seats:
            if player is not None and player.peer is peer:
                player.peer = None
        self.last_active = time.monotonic()
        if not self.closed and not self.dropped:
            self._presence()
            self._after_change()

    def leave(self, peer: Peer) -> None:
        """``leave``: close an unstarted room, resign a running match, or just go."""
        seat = self.seat_of(peer)
        if seat is not None and not self.started:
            player = self.seats[seat]
            assert player is not None
            player.peer = None  # the one leaving keeps its connection (it may create another room)
            self.close_room("the host closed the room")
            return
        if seat is not None and self.result is None:
            self._finish({"winner": _other(seat), "score": list(self.state.score), "reason": "resigned"})
        self.disconnected(peer)

    def stop_timers(self) -> None:
        """Cancel clocks, countdowns and a bot's thinking (the room is closed or unloaded from memory)."""
        if self._thinking is not None:
            self._thinking.cancel()
            self._thinking = None
        for handle in self._clock_handles.values():
            handle.cancel()
        self._clock_handles = {}
        self._deadlines = {}
        if self._countdown is not None and self._countdown.handle is not None:
            self._countdown.handle.cancel()
        self._countdown = None

    def close_room(self, why: str) -> None:
        self.closed = True
        self._save()  # a relay that restarts before the room is swept must not open it again
        self.stop_timers()
        self._send_everyone_away("no_room", why)

    def _send_everyone_away(self, code: str, why: str) -> None:
        """Close every connection in the room with ``error`` ``code``; the seats stay their tokens'."""
        for peer, _ in self._audience():
            peer.close(code, why)
        for player in self.seats:
            if player is not None:
                player.peer = None
        self.spectators.clear()
        self._seen.clear()

    # --- playing ----------------------------------------------------------------------

    def receive(self, peer: Peer, msg: dict[str, Any]) -> None:
        """One checked message of ``peer`` inside the room: ``act``, ``chat``, ``rematch``,
        ``claim``, ``spectators`` or ``leave`` (``protocol.decode`` checked its fields)."""
        kind = msg["type"]
        if self.dropped:
            raise ProtocolError("server_busy", UNSAVED)
        if kind == "act":
            self.act(peer, msg["action"], msg.get("ply"))
        elif kind == "chat":
            self.say(peer, msg["text"])
        elif kind == "rematch":
            self.offer_rematch(peer)
        elif kind == "claim":
            self.claim(peer, msg["take"])
        elif kind == "spectators":
            self.allow_spectators(peer, msg["allow"])
        elif kind == "leave":
            self.leave(peer)
        else:
            raise ProtocolError("unknown_type", f"{kind!r} is not a message inside a room")

    def act(self, peer: Peer, text: str, ply: int | None) -> None:
        """A seat's action: validated by the rules; refused ones change nothing.

        With ``ply`` (the ply of the view it was chosen from), the action is applied only
        at that very ply: a decision never lands on a position it was not made for. The
        refusal says why: a ply the match has not reached; a ply after which only the
        other seat's secret choice was made (the same choice may be sent again with the
        current ply); or a ply after which this seat's position changed (choose again).
        """
        seat = self.seat_of(peer)
        if seat is None:
            raise ProtocolError("read_only", "spectators may only watch")
        if not self.started:
            peer.send(encode("refused", action=text, reason="waiting for an opponent to join"))
            return
        if self.result is not None:
            peer.send(encode("refused", action=text, reason="the match is over"))
            return
        now = self.state.ply
        if ply is not None and ply != now:
            since = self._position.get(seat, 0)
            if ply > now:
                reason = f"ply {ply} has not been reached: the match is at ply {now}; act on the latest view"
            elif ply >= since:
                reason = (
                    f"that was chosen at ply {ply}; since then the other seat made its secret choice "
                    f"(the match is at ply {now}): send your choice again with ply {now} if it stands"
                )
            else:
                reason = (
                    f"that was chosen at ply {ply}, but your position changed at ply {since} "
                    f"(the match is at ply {now}); choose again from the latest view"
                )
            again = {"again": now} if ply >= since and ply < now and getattr(peer, "version", 1) >= PATCH_SINCE else {}
            peer.send(encode("refused", action=text, reason=reason, **again))
            return
        try:
            action = self.game.parse_action(text)
            nxt = self.state.apply(seat, action)
        except RulesError as exc:
            peer.send(encode("refused", action=text, reason=str(exc)))
            return
        self._moved(self.state, seat, nxt)
        self.state = nxt
        self._driver = getattr(peer, "ip", None)
        self._advance([(seat, str(action))], actor=seat)

    def _store_and_tell(
        self, first_ply: int, applied: list[tuple[int, str]], log_start: int, actor: int | None
    ) -> None:
        """Store the actions applied after ``first_ply``, then send everyone the update of the
        events logged from ``log_start`` on (stored first, as every update is)."""
        if self.dropped:
            return
        self.store.append_actions(self.code, self.match, first_ply, applied)
        self._send_update(self.log[log_start:], actor if actor is not None and actor >= 0 else None)

    def _moved(self, before: State, seat: int, after: State) -> None:
        """Keep :attr:`_position` up to date after ``seat`` played ``before`` -> ``after``.

        A seat's position stands while it owes the same decision and the only action
        applied is the other seat's secret choice of a simultaneous decision (the refusal
        of a stale ``act`` then says the choice may simply be sent again).
        """
        deciding = before.current_players()
        still = after.current_players()
        for s in (0, 1):
            if s == seat or not (s in deciding and seat in deciding and s in still):
                self._position[s] = after.ply
        ended, self._picking = turns_ended(seat, still, self._picking)
        self._turn_over |= ended
        # The relay's bot finished a turn whose time ran out; the next turn is the player's own.
        self._autoplay -= ended

    def _advance(self, applied: list[tuple[int, str]], actor: int | None = None, told: int = 0) -> None:
        """Resolve chance, persist, tell everyone, and set the relay's bots thinking.

        ``applied`` holds the action ``actor`` (a seat's player, or a bot) has just had
        applied, if any. Chance is drawn here; a bot's decision is made in a worker
        (:meth:`_think`), which calls this again with the bot's action. ``told``: lines
        the log already holds about that action (the bot's ``computer`` event), sent with it.
        """
        first_ply = self.state.ply - len(applied)
        log_start = len(self.log) - told
        if applied:  # the action already applied by act() or a bot
            self.log.extend((first_ply + 1, ev) for ev in self.state.events)
        thinker: int | None = None
        if self.started:
            while True:
                players = self.state.current_players()
                if players != (CHANCE,):
                    bots = [s for s in players if s in self._autoplay or self._seat_is_bot(s)]
                    thinker = bots[0] if bots else None
                    break
                action = sample_chance(self.state, chance_rng(self.chance_seed, self.state.ply))
                nxt = self.state.apply(CHANCE, action)
                self._moved(self.state, CHANCE, nxt)
                self.state = nxt
                applied.append((CHANCE, str(action)))
                self.log.extend((self.state.ply, ev) for ev in self.state.events)
                if self.state.is_milestone() and self.state.current_players() == (CHANCE,):
                    # An update of its own before the dice go on (a shootout's start).
                    self._store_and_tell(first_ply, applied, log_start, actor)
                    first_ply, applied, log_start, actor = self.state.ply, [], len(self.log), None
            self._autoplay &= set(self.state.current_players())
        if applied:
            self._store_and_tell(first_ply, applied, log_start, actor)
        if self.state.is_terminal() and self.result is None and self.started:
            winner = self.state.winner
            self._finish(
                {
                    "winner": winner,
                    "score": list(self.state.score),
                    "reason": "played out",
                    "details": self.state.result_details(),
                }
            )
        self._after_change()
        if thinker is not None and not self.closed and self._thinking is None:
            self._thinking = asyncio.get_running_loop().create_task(self._think(thinker, self.state))

    async def _think(self, seat: int, state: State) -> None:
        """The relay's bot decides ``seat``'s move at ``state`` in a worker, within the budget.

        A bot that fails or runs out of time is replaced by a random legal move (drawn from
        the room's secret seed, so the record still replays exactly: it holds the moves).
        The answer is dropped if the match moved on meanwhile (its player came back).
        """
        rng = chance_rng(self.chance_seed ^ 0x5EA7, state.ply)
        try:
            try:
                if self.thinker is None:
                    action = self._bot_player().decide(state, seat, rng)
                else:
                    action = await self.thinker.run(self._bot_player().decide, state, seat, rng, address=self._driver)
            except Exception as exc:  # a bot's failure must not stall the match
                log.warning(
                    "room %s: the bot for seat %d gave no move (%s); a random one is played", self.code, seat, exc
                )
                action = rng.choice(state.legal_actions(seat))
        finally:
            self._thinking = None
        if self.closed or self.state is not state or seat not in self._bot_seats():
            if not self.closed:
                self._advance([])  # think again about whatever is to decide now
            return
        try:
            nxt = state.apply(seat, action)
        except RulesError as exc:  # a bot's bug must not stall the match either
            log.error("room %s: the bot for seat %d chose %s, which is illegal (%s)", self.code, seat, action, exc)
            action = rng.choice(state.legal_actions(seat))
            nxt = state.apply(seat, action)
        why = "clock" if seat in self._autoplay else "away"  # asked before the move may end the turn
        self._moved(state, seat, nxt)
        self.state = nxt
        # Told before the decision's own events, and stored before any message tells it.
        self._computer.append((nxt.ply, seat, why))
        self.log.append((nxt.ply, computer_event(seat, why)))
        self._save()
        self._advance([(seat, str(action))], actor=-1, told=1)

    def _bot_seats(self) -> list[int]:
        return [s for s in self.state.current_players() if s in self._autoplay or self._seat_is_bot(s)]

    async def settle(self) -> None:
        """Wait until no bot of this room is thinking (tests, and a relay shutting down)."""
        while self._thinking is not None:
            await asyncio.wait({self._thinking})

    def _send_update(self, fresh: list[tuple[int, Event]], actor: int | None) -> None:
        """One ``update`` per audience: its seat's view (or a patch of the last one) and new events.

        Each frame is encoded once and sent to every connection it fits: a connection that
        speaks protocol 3 and was sent the audience's last view gets a patch of it, any
        other the whole view. ``yours`` is true only in the update to the seat whose
        submitted action it applies, so a client knows its action landed.
        """
        frames: dict[tuple[int | None, bool, bool], str] = {}
        told = [(ev, _event_json(p, ev)) for p, ev in fresh]  # each event in words once, for every audience
        views: dict[int | None, dict[str, Any]] = {}
        ply, match = self.state.ply, self.match
        for peer, seat in self._audience():
            last = self._views.get(seat)
            patched = (
                last is not None
                and getattr(peer, "version", 1) >= PATCH_SINCE
                and self._seen.get(peer) == (last[0], last[1])
                and last[0] == match
            )
            key = (seat, seat is not None and seat == actor, patched)
            text = frames.get(key)
            if text is None:
                view = views.get(seat)
                if view is None:
                    view = views[seat] = self.state.view(seat)
                body: dict[str, Any] = {"match": match, "seq": ply}
                if patched:
                    assert last is not None
                    body.update(base=last[1], patch=view_patch(last[2], view))
                else:
                    body["view"] = view
                events = [said for ev, said in told if ev.visible_to(seat)]
                text = frames[key] = encode("update", **body, events=events, yours=key[1])
            peer.send(text)
            self._seen[peer] = (match, ply)
        for seat, view in views.items():
            self._views[seat] = (match, ply, view)

    def _seat_is_bot(self, seat: int) -> bool:
        player = self.seats[seat]
        return player is not None and player.bot

    def _bot_player(self) -> Bot:
        if self._bot is None:
            self._bot = _bot_for(self.game.id)
        return self._bot

    def _finish(self, result: dict[str, Any]) -> None:
        self.result = result
        self.ended_at = time.time()
        self._save()
        for peer, _ in self._audience():
            self._send_record(peer)
        self._broadcast(encode("finished", result=result))

    def _send_record(self, peer: Peer) -> None:
        """The whole record of a finished match, to a connection that speaks protocol 2 or later.

        Only once the match is over: then nothing is secret any more (its cards, the seed).
        """
        if self.result is not None and getattr(peer, "version", 1) >= RECORD_SINCE:
            peer.send(encode("record", match=self.match, record=self.game.dump(self.state)))

    # --- chat, rematch, claims, settings --------------------------------------------

    def say(self, peer: Peer, text: str) -> None:
        seat = self.seat_of(peer)
        if seat is None:
            raise ProtocolError("read_only", "spectators may only watch")
        player = self.seats[seat]
        assert player is not None
        line = {"seat": seat, "name": player.name, "text": clean_chat(text)}
        self.chat = [*self.chat[-(CHAT_HISTORY - 1) :], line]
        self._save()
        self._broadcast(encode("chat", **line))

    def offer_rematch(self, peer: Peer) -> None:
        seat = self.seat_of(peer)
        if seat is None:
            raise ProtocolError("read_only", "spectators may only watch")
        if self.result is None:
            raise ProtocolError("not_now", "a rematch can be offered once the match is over")
        self.rematch_offers.add(seat)
        self._save()
        self._broadcast(encode("rematch", offered=sorted(self.rematch_offers)))
        if self.rematch_offers == {0, 1}:
            self._start_rematch()

    def _start_rematch(self) -> None:
        """Both players agreed: a new match with the seats swapped (rulings: alternate the first seat)."""
        if not self.dropped:
            self.store.drop_match(self.code, self.match)
        self.match += 1
        self.seats.reverse()
        self.chance_seed = secrets.randbits(63)
        self.state = self.game.new_match(seed=secrets.randbits(31), **self.options)
        self.log = []
        self.result = None
        self.started_at, self.ended_at = time.time(), None
        self.rematch_offers = set()
        self._autoplay = set()
        self._computer = []
        self._position = {}
        self._picking, self._turn_over = frozenset(), set()
        for handle in self._clock_handles.values():
            handle.cancel()
        self._clock_handles = {}
        self._deadlines = {}
        for player in self.seats:
            if player is not None:
                player.bot = False
        self._save()
        for seat, player in enumerate(self.seats):
            if player is not None and player.peer is not None:
                self._welcome(player.peer, seat, player, self.match, 0)
        for peer in self.spectators:
            peer.send(self._snapshot(peer, None, None))
        self._advance([])

    def claim(self, peer: Peer, take: str) -> None:
        """After an abandonment countdown ran out: take the win, or let a bot play the absent seat."""
        seat = self.seat_of(peer)
        if seat is None:
            raise ProtocolError("read_only", "spectators may only watch")
        cd = self._countdown
        if cd is None or not cd.expired or cd.seat == seat:
            raise ProtocolError("not_now", "you can claim only after the opponent's abandonment countdown ran out")
        absent = cd.seat
        self._cancel_countdown()
        if take == "win":
            self._finish({"winner": seat, "score": list(self.state.score), "reason": "abandoned"})
            self._after_change()
            return
        player = self.seats[absent]
        assert player is not None
        player.bot = True
        self._driver = getattr(peer, "ip", None)
        self._save()
        self._presence()
        self._advance([])

    def allow_spectators(self, peer: Peer, allow: bool) -> None:
        seat = self.seat_of(peer)
        player = None if seat is None else self.seats[seat]
        if player is None or not player.host:
            raise ProtocolError("not_host", "only the host may allow or refuse spectators")
        self.settings = RoomSettings(allow, self.settings.turn_seconds, self.settings.abandon_seconds)
        self._save()
        if not allow:
            for spectator in list(self.spectators):
                spectator.close("no_spectators", "the host no longer allows spectators")
            self.spectators.clear()
        self._presence()

    # --- clocks and the abandonment countdown ----------------------------------------

    def _after_change(self) -> None:
        if self.closed or self.dropped:
            return
        self._update_clocks()
        self._update_countdown()

    def _running(self) -> bool:
        return self.started and self.result is None and not self.state.is_terminal()

    def _update_clocks(self) -> None:
        seconds = self.settings.turn_seconds
        turn_over, self._turn_over = self._turn_over, set()
        if seconds is None:
            return
        to_move = set(self.state.current_players()) - set(self._bot_seats()) if self._running() else set()
        changed = False
        loop = asyncio.get_running_loop()
        # A room restored from the store (a restart, another node's takeover) goes on with the
        # turn clocks it had: a seat whose turn was running when the room was stored gets what
        # was left of it, not a fresh turn.
        stored, self._stored_clocks = self._stored_clocks, {}
        for seat in (0, 1):
            if seat in self._deadlines and (seat not in to_move or seat in turn_over):
                # Its turn is over; a seat that owes the next decision too starts a fresh one below.
                del self._deadlines[seat]
                self._clock_handles.pop(seat).cancel()
                changed = True
            if seat in to_move and seat not in self._deadlines:
                left = max(0.0, stored[seat] - time.time()) if seat in stored else seconds
                self._deadlines[seat] = loop.time() + left
                self._clock_handles[seat] = loop.call_at(self._deadlines[seat], self._turn_timed_out, seat)
                changed = True
        if changed:
            self._save()  # the deadlines are stored with the room
            self._broadcast(encode("clock", clock=self._clock_json()))

    def _wall_clocks(self) -> dict[str, float]:
        """The running turn clocks as ``time.time()`` values, to store (``{}``: none runs)."""
        if not self._deadlines:
            return {str(seat): at for seat, at in self._stored_clocks.items()}
        offset = time.time() - asyncio.get_running_loop().time()
        return {str(seat): round(at + offset, 3) for seat, at in self._deadlines.items()}

    def _clock_json(self) -> dict[str, float]:
        if not self._deadlines:
            return {}
        now = asyncio.get_running_loop().time()
        return {str(seat): round(max(0.0, t - now), 1) for seat, t in self._deadlines.items()}

    def _turn_timed_out(self, seat: int) -> None:
        """Rule of the room: a turn whose time ran out is finished by the relay's bot."""
        self._clock_handles.pop(seat, None)
        self._deadlines.pop(seat, None)
        if self.closed or not self._running() or seat not in self.state.current_players():
            return
        self._autoplay.add(seat)
        self._driver = None  # the clock, not a message, set the bot going
        self._advance([])

    def _update_countdown(self) -> None:
        absent = None
        if self._running():
            for seat in self.state.current_players():
                player, other = self.seats[seat], self.seats[_other(seat)]
                if (
                    player is not None
                    and player.peer is None
                    and not player.bot
                    and other is not None
                    and other.peer is not None
                ):
                    absent = seat
                    break
        cd = self._countdown
        if cd is not None and cd.seat == absent:
            return
        if cd is not None:
            self._cancel_countdown()
        if absent is not None:
            loop = asyncio.get_running_loop()
            cd = _Countdown(absent, loop.time() + self.settings.abandon_seconds)
            cd.handle = loop.call_at(cd.deadline, self._countdown_ran_out)
            self._countdown = cd
            self._broadcast(encode("countdown", countdown=self._countdown_json()))

    def _cancel_countdown(self) -> None:
        cd = self._countdown
        if cd is None:
            return
        if cd.handle is not None:
            cd.handle.cancel()
        self._countdown = None
        self._broadcast(encode("countdown", countdown=None))

    def _countdown_ran_out(self) -> None:
        cd = self._countdown
        if cd is None or self.closed:
            return
        cd.expired = True
        cd.handle = None
        self._broadcast(encode("countdown", countdown=self._countdown_json()))

    def _countdown_json(self) -> dict[str, Any] | None:
        cd = self._countdown
        if cd is None:
            return None
        left = max(0.0, cd.deadline - asyncio.get_running_loop().time())
        return {"seat": cd.seat, "seconds": round(left, 1), "expired": cd.expired}


def _report_failed_load(task: asyncio.Task[Room]) -> None:
    if not task.cancelled() and (exc := task.exception()) is not None:
        log.error("loading a room from the store failed", exc_info=exc)


def _detail(exc: Exception) -> str:
    """What went wrong with a write, for the log (a cluster's ``StoreUnavailable`` says it in ``detail``)."""
    return str(getattr(exc, "detail", exc))


def gone_words(code: str) -> str:
    """What a player who asks for a closed room is told (only its host closes a room, by
    leaving it before anyone joined)."""
    return f"room {code} is gone: its host closed it before anyone joined"


def computer_event(seat: int, why: str) -> Event:
    """The public line that comes before a decision the relay's bot made for ``seat``: ``why``
    is ``clock`` (the seat's turn clock ran out) or ``away`` (its player did not come back and
    the opponent let the computer play on). It names no choice: a secret pick stays secret."""
    text = (
        f"Time ran out: the computer chooses for Seat {seat}."
        if why == "clock"
        else f"The computer plays for Seat {seat}, who is away."
    )
    return Event("computer", text, {"seat": seat, "why": why})


def _event_json(ply: int, event: Event) -> dict[str, Any]:
    """An event as the wire carries it. A private event (sent only to the seats it is for) says
    so with ``audience``: the app then leaves out its public twin ("draws a card")."""
    said = {"ply": ply, **event.to_json()}
    if event.audience is not None:
        said["audience"] = list(event.audience)
    return said


@dataclass
class Hall:
    """Every room of one relay in memory, backed by a :class:`Store`.

    Rooms not in memory are looked up in the store (after a restart, or after being
    unloaded while idle) and replayed in a worker of ``thinker``.

    ``max_rooms`` caps the *live* rooms: open rooms with someone connected. An empty or
    closed room holds no slot (it stays in memory a while, so a dropped player is back
    at once, and makes way when the cap is reached). The cap holds for rooms created
    and for rooms loaded from the store alike.
    """

    store: Store
    max_rooms: int = 10_000
    thinker: Thinker | None = None
    load_budget: float = 10.0  # seconds a client waits for a room to be loaded (0: no limit)
    rooms: dict[str, Room] = field(default_factory=dict)
    _loading: dict[str, asyncio.Task[Room]] = field(default_factory=dict)
    _closing: set[str] = field(default_factory=set)  # closed rooms the store refused to forget (said once)
    _stale_refused: Pace = field(default_factory=lambda: Pace(3600.0))  # old rooms' deletes failing

    def __post_init__(self) -> None:
        self.store.on_failure = self._write_failed

    def _write_failed(self, code: str, exc: Exception) -> None:
        """A write of room ``code`` is lost (the store's commit failed): its players must not go
        on from a position that is not stored, so the room is dropped (see :meth:`drop`).

        A room its host closed is kept instead: the store may still hold it open, and the host has
        gone believing it closed (the app hangs up right after ``leave``), so loading it again
        would open it to whoever comes. It stays in memory, closed (:func:`dispatch` refuses to
        enter it), until the store has deleted it (see :meth:`_forget`)."""
        room = self.rooms.get(code)
        if room is not None and room.closed:
            self._refused(code, exc)
            return
        log.error("room %s: a write of it was not stored (%s); it goes back to what is stored", code, _detail(exc))
        self.drop(code, UNSAVED)

    def drop(self, code: str, why: str) -> None:
        """Forget a room in memory (:meth:`Room.drop`); a resume loads it from the store again."""
        self._closing.discard(code)
        room = self.rooms.pop(code, None)
        if room is not None:
            room.drop(why)

    def _refused(self, code: str, exc: Exception) -> None:
        if code not in self._closing:
            self._closing.add(code)
            log.warning(
                "room %s, closed by its host, could not be deleted (%s); it is kept closed in memory and "
                "tried again at each sweep",
                code,
                _detail(exc),
            )

    def forget_refused(self) -> None:
        """Try once more to delete the closed rooms the store refused to forget (the relay stops)."""
        for code in sorted(self._closing):
            if (room := self.rooms.get(code)) is not None:
                self._forget(room)

    def _forget(self, room: Room) -> None:
        """Delete a closed room from the store; it leaves memory once the store has forgotten it,
        not before (see :meth:`_write_failed`)."""
        room.stop_timers()
        try:
            self.store.delete_room(room.code)
        except Exception as exc:
            self._refused(room.code, exc)
            return
        done = self.store.durable_for(room.code)
        if done is None:
            self._forgotten(room)
        else:
            done.add_done_callback(partial(self._delete_written, room))

    def _delete_written(self, room: Room, done: asyncio.Future[None]) -> None:
        if not done.cancelled() and done.exception() is None:
            self._forgotten(room)

    def _forgotten(self, room: Room) -> None:
        if self.rooms.get(room.code) is room:
            self._unload(room)
        if room.code in self._closing:
            self._closing.discard(room.code)
            log.info("room %s, closed by its host, is deleted", room.code)

    def closes_lost(self) -> None:
        """Name in the log the closed rooms the store refused to forget until the relay stopped:
        the store may hold each open, to come back open after a restart, its host gone."""
        for code in sorted(self._closing & self.rooms.keys()):
            log.error(
                "room %s: its host's close is lost (the store refused it until the relay stopped); "
                "it may come back open after a restart",
                code,
            )

    def live_rooms(self) -> int:
        return sum(1 for room in self.rooms.values() if not room.closed and room.has_peers())

    def _make_room(self) -> None:
        """Raise ``server_busy`` if the live rooms fill the cap; else unload empty rooms beyond it."""
        if len(self.rooms) >= self.max_rooms and self.live_rooms() >= self.max_rooms:
            raise ProtocolError("server_busy", "the relay holds as many rooms as it may; try again later")
        idle = [r for r in self.rooms.values() if r.closed or not r.has_peers()]
        if len(self.rooms) >= self.max_rooms and idle:
            # Memory holds at most about max_rooms rooms: the emptiest go (back to the store).
            for room in sorted(idle, key=lambda r: r.last_active)[: len(self.rooms) - self.max_rooms + 1]:
                self._put_away(room)

    def _put_away(self, room: Room) -> None:
        """Take a room nobody is in out of memory; a closed one once the store has forgotten it."""
        if room.closed:
            self._forget(room)
        else:
            self._unload(room)  # reloaded from the store when someone comes back

    def _unload(self, room: Room) -> None:
        room.stop_timers()
        self.rooms.pop(room.code, None)

    def create(
        self, peer: Peer, game: Game, options: dict[str, Any], settings: RoomSettings, name: str, seat: int | None
    ) -> Room:
        """A new room under a free code, for the game and options :meth:`prepare` gave."""
        code = new_code()
        while code in self.rooms or self.store.has_room(code):
            code = new_code()
        return self.open(code, game, options, settings, peer, name, seat)

    def prepare(self, game_id: str, options: dict[str, Any]) -> tuple[Game, dict[str, Any]]:
        """Before a room is made: room for it (else ``server_busy``), its game and its options
        resolved, which :meth:`create` is then given."""
        self._make_room()
        try:
            game = get_game(game_id)
            return game, game.resolve_options(options)
        except RulesError as exc:
            raise ProtocolError("bad_game", str(exc)) from None

    def open(
        self,
        code: str,
        game: Game,
        options: dict[str, Any],
        settings: RoomSettings,
        peer: Peer,
        name: str,
        seat: int | None,
    ) -> Room:
        """A new room under a free ``code``, its creator seated."""
        room = Room(code, game, options, settings, self.store, self.thinker)
        self.rooms[code] = room
        room.seat_host(peer, name, seat)
        return room

    async def find(self, code: str) -> Room:
        """The room with ``code``, loaded from the store if it is not in memory (one its host
        closed too: :func:`dispatch` refuses to enter it).

        Loading replays the match in a worker; meanwhile the event loop serves everyone
        else, and others asking for the same room wait for the same load. Whoever waits
        longer than ``load_budget`` seconds is told ``server_busy`` (try again); the load
        goes on, and a later try finds the room loaded or joins the wait.
        """
        code = normalize_code(code)
        room = self.rooms.get(code)
        if room is None:
            loading = self._loading.get(code)
            if loading is None:
                loaded = self.store.load_room(code)
                if loaded is None:
                    raise ProtocolError("no_room", f"no room has the code {code!r}")
                self._make_room()
                loading = self._start_load(code, *loaded)
            room = await self._wait_load(code, loading)
        return room

    def _start_load(self, code: str, doc: dict[str, Any], actions: list[list[Any]]) -> asyncio.Task[Room]:
        """Replay a stored room in a worker; whoever asks for it meanwhile waits for the same load."""
        loading = self._loading[code] = asyncio.get_running_loop().create_task(self._load(code, doc, actions))
        loading.add_done_callback(_report_failed_load)
        return loading

    async def _wait_load(self, code: str, loading: asyncio.Task[Room]) -> Room:
        """The room being loaded, or ``server_busy`` after ``load_budget`` seconds (the load goes on)."""
        try:
            async with asyncio.timeout(self.load_budget or None):
                return await asyncio.shield(loading)
        except TimeoutError:
            raise ProtocolError("server_busy", f"room {code} is still being loaded; try again") from None

    async def _load(self, code: str, doc: dict[str, Any], actions: list[list[Any]]) -> Room:
        try:
            if self.thinker is None:
                room = Room.from_doc(doc, actions, self.store)
            else:
                room = await self.thinker.run(Room.from_doc, doc, actions, self.store, self.thinker, budget=0)
            room._save()  # names cleaned and tokens hashed, if an older relay wrote it
            return self.rooms.setdefault(code, room)
        finally:
            del self._loading[code]

    def sweep(self, idle_seconds: float, keep_seconds: float) -> None:
        """Unload rooms nobody is in (idle ``idle_seconds``); delete closed rooms and stored
        rooms untouched for ``keep_seconds``. An old room whose delete fails (a full disk) is
        tried again at the next sweep, which finds it old still."""
        self._sweep_memory(idle_seconds)
        stale = self.store.stale_rooms(time.time() - keep_seconds)
        for code in sorted(set(stale) - self.rooms.keys() - self._loading.keys()):
            try:
                self.store.delete_room(code)
            except Exception as exc:
                if failed := self._stale_refused.happened():
                    log.warning("old rooms could not be deleted (%s, %d times); tried again at each sweep", exc, failed)
                return
        if self._stale_refused.happening:
            self._stale_refused.reset()
            log.info("old rooms are deleted again")

    def _sweep_memory(self, idle_seconds: float) -> None:
        """Delete closed rooms (they leave memory once deleted) and unload rooms nobody is in
        (idle ``idle_seconds``)."""
        now = time.monotonic()
        for room in list(self.rooms.values()):
            if room.closed or (not room.has_peers() and now - room.last_active > idle_seconds):
                self._put_away(room)

    async def settle(self) -> None:
        """Wait until no room's bot is thinking."""
        for room in list(self.rooms.values()):
            await room.settle()


ENTERING = frozenset({"join", "resume", "spectate"})  # what a client sends to enter a room it names


def dispatch(room: Any, peer: Peer, msg: dict[str, Any]) -> None:
    """What a client asks of its room: entering it and going away here, every message inside
    it through the room's own ``receive`` (one table of message types, in ``Room.receive``).

    Every way into a room passes here (a relay's own connections, and on a cluster the owner's
    and those forwarded by other nodes), so this is where a room its host closed is refused:
    a ``join``, ``spectate`` or ``resume`` of it gets ``no_room``."""
    kind = msg["type"]
    if kind in ENTERING and room.closed:
        raise ProtocolError("no_room", gone_words(room.code))
    if room.dropped:  # dropped while it was being loaded for this message
        raise ProtocolError("server_busy", UNSAVED)
    if kind == "join":
        room.join(peer, msg.get("name", ""))
    elif kind == "resume":
        room.resume(peer, msg["token"], msg.get("match"), msg.get("seq"))
    elif kind == "spectate":
        room.spectate(peer)
    elif kind == "gone":
        room.disconnected(peer)
    else:
        room.receive(peer, msg)


__all__ = [
    "ENTERING",
    "dispatch",
    "CODE_ALPHABET",
    "Hall",
    "Peer",
    "Player",
    "Room",
    "RoomSettings",
    "Store",
    "UNSAVED",
    "chance_rng",
    "gone_words",
    "hash_token",
    "new_code",
]


def _time_or_none(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None
