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
  decisions it owes (chance resolved by the relay in between does not break it). When
  the turn's time runs out the relay's bot makes the remaining decisions of that turn.
* Abandonment: while a seat must decide and its player is disconnected, and the
  opponent is connected, a countdown of ``abandon_seconds`` runs. When it ends the
  opponent may ``claim`` the win or let a bot take over the absent seat (the player
  gets the seat back by resuming with the token).
* ``leave`` before the opponent joins closes the room; during a match it resigns.
* Rematch: once a match is over, each player may offer a rematch; both see the offers,
  and when both have offered a new match starts with the seats swapped.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

from soccerdesk.bots import Bot, RandomBot, make_bot
from soccerdesk.net.protocol import RECORD_SINCE, ProtocolError, clean_chat, encode
from soccerdesk.rules import CHANCE, Game, RulesError, State, get_game
from soccerdesk.rules.api import RECORD_FORMAT, RECORD_VERSION, Event, sample_chance

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""Join-code letters: no 0/O or 1/I/L to misread when a code is read out to a friend."""

CODE_LENGTH = 6
CHAT_HISTORY = 50


def new_code() -> str:
    """A fresh random join code (31**6, about 890 million codes; guesses are rate-limited)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(code: str) -> str:
    """A typed code as stored: upper case, without surrounding blanks."""
    return code.strip().upper()


def chance_rng(chance_seed: int, ply: int) -> random.Random:
    """The RNG that decides the chance node at ``ply``: the seed and the ply are its whole state."""
    return random.Random((chance_seed << 24) ^ ply)


class Store(Protocol):
    """Where rooms are kept: :class:`server.store.RoomStore` implements this."""

    def save_room(self, code: str, doc: dict[str, Any]) -> None: ...

    def append_actions(self, code: str, match: int, first_ply: int, actions: list[tuple[int, str]]) -> None: ...

    def drop_match(self, code: str, match: int) -> None: ...

    def load_room(self, code: str) -> tuple[dict[str, Any], list[list[Any]]] | None: ...

    def delete_room(self, code: str) -> None: ...

    def has_room(self, code: str) -> bool: ...

    def stale_rooms(self, older_than: float) -> list[str]: ...


class Peer(Protocol):
    """One connection as a room sees it: the relay implements this.

    A peer may also have ``version``, the protocol version its ``hello`` named; a peer
    without it is taken to speak version 1 (it is sent no ``record``).
    """

    def send(self, text: str) -> None: ...

    def close(self, code: str, message: str) -> None: ...


@dataclass
class Player:
    """Whoever holds a seat token. ``peer`` is ``None`` while disconnected."""

    token: str
    name: str
    host: bool
    peer: Peer | None = None
    bot: bool = False  # a bot plays the seat after an abandonment claim


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
        self.last_active = time.monotonic()
        self.store = store
        self._deadlines: dict[int, float] = {}
        self._clock_handles: dict[int, asyncio.TimerHandle] = {}
        self._autoplay: set[int] = set()  # seats whose turn ran out: the bot finishes it
        self._decided: dict[int, int] = {}  # seat -> ply reached by its latest decision
        self._countdown: _Countdown | None = None
        self._bot: Bot | None = None
        self.closed = False

    # --- persistence ---------------------------------------------------------------

    def to_doc(self) -> dict[str, Any]:
        """Everything but the action list, for :class:`server.store.RoomStore`."""
        return {
            "code": self.code,
            "game": self.game.id,
            "options": self.options,
            "settings": self.settings.to_json(),
            "seats": [
                None if p is None else {"token": p.token, "name": p.name, "host": p.host, "bot": p.bot}
                for p in self.seats
            ],
            "match": self.match,
            "chance_seed": self.chance_seed,
            "record_seed": self.state.info.seed,
            "result": self.result,
            "rematch": sorted(self.rematch_offers),
            "chat": self.chat,
            "started": self.started,
        }

    def _save(self) -> None:
        self.store.save_room(self.code, self.to_doc())

    @classmethod
    def from_doc(
        cls,
        doc: dict[str, Any],
        actions: list[list[Any]],
        store: Store,
    ) -> Room:
        """Restore a room saved by :meth:`to_doc`; the match is replayed with the rules."""
        game = get_game(doc["game"])
        room = cls(doc["code"], game, doc["options"], RoomSettings(**doc["settings"]), store)
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
        room.log = [(ply, ev) for ply, s in enumerate(states) for ev in s.events]
        for ply, (seat, _) in enumerate(room.state.history(), start=1):
            if seat != CHANCE:
                room._decided[seat] = ply
        room.seats = [
            None if p is None else Player(p["token"], p["name"], p["host"], bot=p["bot"]) for p in doc["seats"]
        ]
        room.result = doc["result"]
        room.rematch_offers = set(doc["rematch"])
        room.chat = doc["chat"]
        room.started = doc["started"]
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
        player = Player(secrets.token_urlsafe(18), name or "Host", True, peer)
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
        player = Player(secrets.token_urlsafe(18), name or "Guest", False, peer)
        self.seats[seat] = player
        self.started = True
        self._save()
        self._welcome(peer, seat, player)
        self._presence()
        self._advance([])
        return player

    def resume(self, peer: Peer, token: str, match: int | None, seq: int | None) -> int:
        """Give a seat back to its token holder; a stale connection of that seat is closed."""
        seat = next(
            (s for s, p in enumerate(self.seats) if p is not None and secrets.compare_digest(p.token, token)), None
        )
        player = None if seat is None else self.seats[seat]
        if seat is None or player is None:
            raise ProtocolError("bad_token", f"that token holds no seat in room {self.code}")
        old = player.peer
        player.peer = peer
        if old is not None and old is not peer:
            old.close("replaced", "this seat was resumed from another connection")
        player.bot = False
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
        peer.send(self._snapshot(seat, since=seq if match == self.match else None))
        self._send_record(peer)

    def _snapshot(self, seat: int | None, since: int | None) -> str:
        """Full view for ``seat``; ``events`` are those after ply ``since`` (all if ``None``)."""
        start = -1 if since is None else since
        return encode(
            "snapshot",
            match=self.match,
            seq=self.state.ply,
            view=self.state.view(seat),
            events=[_event_json(ply, ev) for ply, ev in self.log if ply > start and ev.visible_to(seat)],
            players=self.players_json(),
            chat=self.chat,
            rematch=sorted(self.rematch_offers),
            result=self.result,
            clock=self._clock_json(),
            countdown=self._countdown_json(),
        )

    # --- leaving ----------------------------------------------------------------------

    def disconnected(self, peer: Peer) -> None:
        """A connection ended (dropped or closed)."""
        self.spectators.discard(peer)
        for player in self.seats:
            if player is not None and player.peer is peer:
                player.peer = None
        self.last_active = time.monotonic()
        if not self.closed:
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
        """Cancel clocks and countdowns (the room is closed or unloaded from memory)."""
        for handle in self._clock_handles.values():
            handle.cancel()
        self._clock_handles = {}
        self._deadlines = {}
        if self._countdown is not None and self._countdown.handle is not None:
            self._countdown.handle.cancel()
        self._countdown = None

    def close_room(self, why: str) -> None:
        self.closed = True
        self.stop_timers()
        for peer, _ in self._audience():
            peer.close("no_room", why)
        for player in self.seats:
            if player is not None:
                player.peer = None
        self.spectators.clear()

    # --- playing ----------------------------------------------------------------------

    def act(self, peer: Peer, text: str, ply: int | None) -> None:
        """A seat's action: validated by the rules; refused ones change nothing."""
        seat = self.seat_of(peer)
        if seat is None:
            raise ProtocolError("read_only", "spectators may only watch")
        if not self.started:
            peer.send(encode("refused", action=text, reason="waiting for an opponent to join"))
            return
        if self.result is not None:
            peer.send(encode("refused", action=text, reason="the match is over"))
            return
        if ply is not None and (ply > self.state.ply or ply < self._decided.get(seat, 0)):
            # The action was chosen at a position this seat has already answered (a double
            # click, a resend after reconnecting): playing it now could land on another decision.
            peer.send(encode("refused", action=text, reason=f"that was chosen at ply {ply}; the match has moved on"))
            return
        try:
            action = self.game.parse_action(text)
            nxt = self.state.apply(seat, action)
        except RulesError as exc:
            peer.send(encode("refused", action=text, reason=str(exc)))
            return
        self.state = nxt
        self._decided[seat] = nxt.ply
        self._advance([(seat, str(action))], actor=seat)

    def _advance(self, applied: list[tuple[int, str]], actor: int | None = None) -> None:
        """Resolve chance and bot-played decisions, then persist and tell everyone.

        ``applied`` holds the action ``actor`` (a seat's player) has just had applied, if any.
        """
        first_ply = self.state.ply - len(applied)
        log_start = len(self.log)
        if applied:  # the seat's own action, already applied by act()
            self.log.extend((first_ply + 1, ev) for ev in self.state.events)
        if self.started:
            while True:
                players = self.state.current_players()
                if not players:
                    break
                if players == (CHANCE,):
                    seat, action = CHANCE, sample_chance(self.state, chance_rng(self.chance_seed, self.state.ply))
                else:
                    bots = [s for s in players if s in self._autoplay or self._seat_is_bot(s)]
                    if not bots:
                        break
                    seat = bots[0]
                    action = self._bot_player().decide(
                        self.state, seat, chance_rng(self.chance_seed ^ 0x5EA7, self.state.ply)
                    )
                self.state = self.state.apply(seat, action)
                if seat != CHANCE:
                    self._decided[seat] = self.state.ply
                applied.append((seat, str(action)))
                self.log.extend((self.state.ply, ev) for ev in self.state.events)
            self._autoplay &= set(self.state.current_players())
        if applied:
            self.store.append_actions(self.code, self.match, first_ply, applied)
            self._send_update(self.log[log_start:], actor)
        if self.state.is_terminal() and self.result is None and self.started:
            winner = self.state.winner
            self._finish({"winner": winner, "score": list(self.state.score), "reason": "played out"})
        self._after_change()

    def _send_update(self, fresh: list[tuple[int, Event]], actor: int | None) -> None:
        """One ``update`` per connection: its seat's view and the new events it may see.

        ``yours`` is true only in the update to the seat whose submitted action it applies,
        so a client knows its action landed (it says nothing about anyone else).
        """
        frames: dict[tuple[int | None, bool], str] = {}
        for peer, seat in self._audience():
            key = (seat, seat is not None and seat == actor)
            text = frames.get(key)
            if text is None:
                text = frames[key] = encode(
                    "update",
                    match=self.match,
                    seq=self.state.ply,
                    view=self.state.view(seat),
                    events=[_event_json(ply, ev) for ply, ev in fresh if ev.visible_to(seat)],
                    yours=key[1],
                )
            peer.send(text)

    def _seat_is_bot(self, seat: int) -> bool:
        player = self.seats[seat]
        return player is not None and player.bot

    def _bot_player(self) -> Bot:
        if self._bot is None:
            self._bot = _bot_for(self.game.id)
        return self._bot

    def _finish(self, result: dict[str, Any]) -> None:
        self.result = result
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
        self.store.drop_match(self.code, self.match)
        self.match += 1
        self.seats.reverse()
        self.chance_seed = secrets.randbits(63)
        self.state = self.game.new_match(seed=secrets.randbits(31), **self.options)
        self.log = []
        self.result = None
        self.rematch_offers = set()
        self._autoplay = set()
        self._decided = {}
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
            peer.send(self._snapshot(None, None))
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
        if self.closed:
            return
        self._update_clocks()
        self._update_countdown()

    def _running(self) -> bool:
        return self.started and self.result is None and not self.state.is_terminal()

    def _update_clocks(self) -> None:
        seconds = self.settings.turn_seconds
        if seconds is None:
            return
        to_move = set(self.state.current_players()) if self._running() else set()
        changed = False
        loop = asyncio.get_running_loop()
        for seat in (0, 1):
            if seat in to_move and seat not in self._deadlines:
                self._deadlines[seat] = loop.time() + seconds
                self._clock_handles[seat] = loop.call_at(self._deadlines[seat], self._turn_timed_out, seat)
                changed = True
            elif seat not in to_move and seat in self._deadlines:
                del self._deadlines[seat]
                self._clock_handles.pop(seat).cancel()
                changed = True
        if changed:
            self._broadcast(encode("clock", clock=self._clock_json()))

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


def _event_json(ply: int, event: Event) -> dict[str, Any]:
    return {"ply": ply, **event.to_json()}


@dataclass
class Hall:
    """Every room of one relay in memory, backed by a :class:`Store`.

    Rooms not in memory are looked up in the store (after a restart, or after being
    unloaded while idle).
    """

    store: Store
    max_rooms: int = 10_000
    rooms: dict[str, Room] = field(default_factory=dict)

    def create(
        self, peer: Peer, game_id: str, options: dict[str, Any], settings: RoomSettings, name: str, seat: int | None
    ) -> Room:
        if len(self.rooms) >= self.max_rooms:
            raise ProtocolError("server_busy", "the relay holds as many rooms as it may; try again later")
        try:
            game = get_game(game_id)
            resolved = game.resolve_options(options)
        except RulesError as exc:
            raise ProtocolError("bad_game", str(exc)) from None
        code = new_code()
        while code in self.rooms or self.store.has_room(code):
            code = new_code()
        room = Room(code, game, resolved, settings, self.store)
        self.rooms[code] = room
        room.seat_host(peer, name, seat)
        return room

    def find(self, code: str) -> Room:
        code = normalize_code(code)
        room = self.rooms.get(code)
        if room is None:
            loaded = self.store.load_room(code)
            if loaded is None:
                raise ProtocolError("no_room", f"no room has the code {code!r}")
            doc, actions = loaded
            room = Room.from_doc(doc, actions, self.store)
            self.rooms[code] = room
        if room.closed:
            raise ProtocolError("no_room", f"room {code} was closed")
        return room

    def sweep(self, idle_seconds: float, keep_seconds: float) -> None:
        """Unload rooms nobody is in (idle ``idle_seconds``); delete closed rooms and stored
        rooms untouched for ``keep_seconds``."""
        now = time.monotonic()
        for code, room in list(self.rooms.items()):
            if room.closed:
                self.store.delete_room(code)
                del self.rooms[code]
            elif not room.has_peers() and now - room.last_active > idle_seconds:
                room.stop_timers()  # it is reloaded from the store when someone comes back
                del self.rooms[code]
        for code in self.store.stale_rooms(time.time() - keep_seconds):
            if code not in self.rooms:
                self.store.delete_room(code)


__all__ = ["CODE_ALPHABET", "Hall", "Peer", "Store", "Player", "Room", "RoomSettings", "chance_rng", "new_code"]
