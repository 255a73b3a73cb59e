"""What a match window talks to: a :class:`MatchSession`, local or online.

The window never holds a :class:`~soccerdesk.rules.State` and never decides legality. It
shows the views a session emits, and hands back the action text the user picked. Two
sessions implement the contract:

* :class:`LocalSession` (this module): the state, the dice and the bots live in this
  process — matches against a bot and hot-seat matches on one screen.
* ``RemoteSession`` (``soccerdesk/ui/online.py``): the relay holds the state; the session
  forwards actions and relays views.

The contract, for anyone writing a session
-------------------------------------------

Signals (all emitted on the UI thread):

``view_changed(dict view, list events)``
    A new position to show. ``view`` is ``State.view(seat)`` of the seat this screen shows
    now (see :meth:`MatchSession.viewer`); ``events`` are the ``Event.to_json()`` dicts
    that happened since the previous ``view_changed`` and that this seat may see, oldest
    first (the window writes them to the log and animates dice and cards). An event meant
    for one seat only carries ``"audience": [seat]`` as well, so that a hot-seat screen can
    hide it from the other player. An event may carry ``"ply"``, the number of actions played
    when it happened: after an undo (a view with a lower ``ply`` than events already shown) the
    window drops the events of the plies taken back. A resumed match sends the events of
    every past action with its first view, so its log reads as if it had never stopped. Emitted after
    :meth:`MatchSession.start`, after every applied action, after undo and after
    :meth:`MatchSession.take_over`.
``refused(str reason)``
    An action submitted from this screen was not applied; ``reason`` says why in words
    (the ``IllegalAction`` reason, or "the connection is lost" ...). Nothing changed.
``status(str text)``
    A one-line status for the status bar ("Home (hard) to play", "Waiting for Alice").
``busy(bool)``
    ``True`` while a player that is not on this screen (a bot, the remote opponent) is
    deciding and this screen has nothing to do; ``False`` when that is over.
``handover(int seat, str name)``
    Hot-seat: the screen must pass to the player of ``seat`` before their secret cards
    may be shown. The session holds back the next ``view_changed`` until the window calls
    :meth:`MatchSession.take_over` (the window shows a cover until then). A resumed hot-seat
    match with secrets begins with ``handover``, before any view.
``undo_available(bool)``
    Whether :meth:`MatchSession.undo` would do anything now.
``finished(dict summary)``
    The match is over. ``summary`` has ``game`` (id), ``title``, ``score`` ([goals seat 0,
    goals seat 1]), ``winner`` (0, 1 or None), ``names`` ([name seat 0, name seat 1]),
    ``plies`` (actions played, chance included) and ``local_seats``. Emitted once, after
    the final ``view_changed``.

Methods: :meth:`start`, :meth:`submit`, :meth:`local_seats`, :meth:`player_names`,
:meth:`viewer`, :meth:`take_over`, :meth:`can_undo`, :meth:`undo`, :meth:`record`,
:meth:`rematch`, :meth:`time_played`, :meth:`close`. A session that cannot do something (undo online, save a
match the relay holds) returns ``False`` from ``can_undo`` / ``None`` from ``record``.
A session that writes its match to a file as it goes names it in ``autosave`` and says through
:meth:`unsaved_reason`, :meth:`save_now` and :meth:`flush_autosave` whether that file holds it;
one without a file (``autosave`` ``None``: an online match) keeps the defaults, and the window
keeps its record in Recent matches once the match is over.
A session may also carry ``players`` (two :class:`Player`): the window then uses their
team colours.

The signals carrying dicts and lists are declared ``Signal(object, ...)``: PySide6 passes the
very objects, without converting them to Qt containers and back.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import time
import traceback
from abc import abstractmethod
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QLockFile, QObject, QTimer, Signal

from soccerdesk.bots import Bot, make_bot
from soccerdesk.learn.hint import HINTS_KEY, hints_used
from soccerdesk.rules import CHANCE, Event, Game, IllegalAction, RulesError, State, sample_chance
from soccerdesk.ui import bot_pool as bot_pool_module
from soccerdesk.ui.settings import match_result
from soccerdesk.ui.settings import played_seconds as saved_seconds

APP_KEY = "app"
"""Key of the app's own data (players, names) inside a saved match record.

``Game.replay`` ignores unknown keys, so a save file is also a plain match record that the
simulator, the relay and the replay viewer can read.
"""


@dataclass(frozen=True)
class Player:
    """Who sits at a seat: a human on this computer, a bot, or someone far away."""

    kind: str  # "human", "bot" or "remote"
    name: str
    bot: str | None = None  # the bot name given to ``make_bot`` (kind "bot" only)
    colour: str = ""  # team colour as "#rrggbb"; empty: the board's default

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Any) -> Player:
        if not isinstance(data, Mapping) or data.get("kind") not in ("human", "bot", "remote"):
            raise ValueError("a player is an object with kind human, bot or remote")
        bot = data.get("bot")
        return cls(
            str(data["kind"]), str(data.get("name", "")), None if bot is None else str(bot), str(data.get("colour", ""))
        )


class MatchSession(QObject):
    """A match as the window sees it. The module docstring is the full contract."""

    view_changed = Signal(object, object)  # dict view, list of event dicts (object: no copying)
    refused = Signal(str)
    status = Signal(str)
    busy = Signal(bool)
    handover = Signal(int, str)
    undo_available = Signal(bool)
    undone = Signal()  # a move was taken back: the next view is the position before it
    finished = Signal(object)  # dict summary

    def __init__(self, game: Game, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.game = game
        # The file the match is written to as it is played. None: the session keeps no file of
        # its own (an online match: the relay holds it, and the window keeps its record in
        # Recent matches once it is over).
        self.autosave: Path | None = None
        self._played_before = 0.0  # seconds played in earlier sittings (a resumed match)
        self._sitting_began = time.monotonic()
        self._played_until: float | None = None  # monotonic time of full time, once the match is over
        self._paused_at: float | None = None  # monotonic time the clock was paused, while it is

    def time_played(self) -> float:
        """Seconds this match has been played, earlier sittings of a resumed match included;
        the count stops at full time, and while the clock is paused."""
        end = self._played_until if self._played_until is not None else self._paused_at or time.monotonic()
        return self._played_before + max(0.0, end - self._sitting_began)

    def pause_clock(self) -> None:
        """The player looks at something else in this window (another match's replay): the
        time played stops until :meth:`resume_clock`. An online match's time is the relay's,
        which goes on; its session does not pause."""
        if self._paused_at is None and self._played_until is None:
            self._paused_at = time.monotonic()

    def resume_clock(self) -> None:
        if self._paused_at is not None:
            self._sitting_began += time.monotonic() - self._paused_at
            self._paused_at = None

    def _time_played_is(self, seconds: float, over: bool) -> None:
        """Another clock (the relay's) says the match has been played ``seconds``: go on from there."""
        now = time.monotonic()
        self._played_before, self._sitting_began = seconds, now
        self._played_until = now if over else None

    def _stop_clock(self) -> None:
        if self._played_until is None:
            self._played_until = time.monotonic()

    @property
    def game_id(self) -> str:
        return self.game.id

    @abstractmethod
    def start(self) -> None:
        """Begin (or resume): emits the first ``view_changed`` (or ``handover``)."""

    @abstractmethod
    def submit(self, action_text: str) -> None:
        """Play ``action_text`` for the seat on screen. Refusals come back as ``refused``."""

    @abstractmethod
    def local_seats(self) -> tuple[int, ...]:
        """Seats played by people at this screen: ``(0,)``, ``(1,)`` or ``(0, 1)`` (hot-seat)."""

    @abstractmethod
    def player_names(self) -> tuple[str, str]:
        """Display names of seat 0 and seat 1."""

    @abstractmethod
    def viewer(self) -> int | None:
        """The seat whose view is on screen now (``None``: a spectator's view)."""

    def take_over(self) -> None:
        """Hot-seat: the player announced by ``handover`` is at the screen now."""

    def cover_view(self) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        """Hot-seat, under the hand-over cover of a resumed match: the position as nobody's
        secrets show it (nothing to play) and the events not shown yet, or ``None``."""
        return None

    def can_undo(self) -> bool:
        return False

    def undo(self) -> None:
        """Take back this screen's last decision, if :meth:`can_undo`; else refuse."""
        self.refused.emit("undo is not possible in this match")

    def pick_to_take_back(self) -> int | None:
        """Hot-seat, on the hand-over cover: the seat whose face-down pick may still be taken back."""
        return None

    def take_back_pick(self) -> None:
        self.refused.emit("no face-down pick to take back")

    def record(self) -> dict[str, Any] | None:
        """The match record to save (``Game.dump`` plus the app's players), or ``None``."""
        return None

    def rematch(self) -> MatchSession | None:
        """A new session with the same players and options, or ``None`` if not offered."""
        return None

    def save_now(self) -> None:
        """Write the match to :attr:`autosave` again (the player's Try again); nothing without one."""

    def unsaved_reason(self) -> str:
        """Why :attr:`autosave` is behind the match, in words, or "" when it is not (always ""
        for a session that keeps no file: there is nothing to lose by leaving it)."""
        return ""

    def flush_autosave(self) -> None:
        """Wait until the writes of :attr:`autosave` handed off are done; nothing without one."""

    def close(self) -> None:
        """Stop background work; no signal is emitted afterwards."""


# --- local matches ---------------------------------------------------------------------


NO_ANSWER = {"big-time-soccer": "reply none", "soccer-go": "no card"}
"""Per game, the action that answers an opponent's card with none of one's own (Big Time
Soccer's "let it go", Soccer-Go's "no card")."""

NO_ANSWER_SAID = {"big-time-soccer": "reply", "soccer-go": "no-block"}
"""Per game, the kind of event that says a seat answered with none of its own ("Seat 0 does
not defend", "Seat 1 does not block Counter Attack.")."""


def against_the_computer(players: Sequence[Player]) -> bool:
    """Whether one person plays the computer (not two people at one screen, nor online)."""
    return sorted(p.kind for p in players) == ["bot", "human"]


def told_events(before: State, after: State, players: Sequence[Player] | None) -> tuple[Event, ...]:
    """The events of the action from ``before`` to ``after`` as a screen tells them.

    Against the computer, a player asked to answer a card with no card in their hand that can
    has only the no-answer to play (the screen plays it for them, :data:`NO_ANSWER`): its line
    says so, "Seat 0 does not defend (no card could answer)", not the words of a choice they
    never made. The player's own line only (the computer's hand stays its own), and never in
    hot-seat or online (``players`` of another kind, or unknown): there it would tell the
    other player what the hand holds."""
    said = NO_ANSWER_SAID.get(after.game.id)
    events = after.events
    if said is None or players is None or not any(e.kind == said for e in events):
        return events
    if not against_the_computer(players) or len(before.current_players()) != 1:
        return events
    seat = before.current_players()[0]
    if seat == CHANCE or players[seat].kind != "human":  # the computer's hand stays its own
        return events
    if [str(a) for a in before.legal_actions(seat)] != [NO_ANSWER[after.game.id]]:
        return events
    return tuple(
        replace(e, text=_for_want_of_a_card(e.text)) if e.kind == said and e.data.get("seat") == seat else e
        for e in events
    )


def _for_want_of_a_card(text: str) -> str:
    body = text.removesuffix(".")
    return f"{body} (no card could answer){text[len(body) :]}"


@dataclass
class _PendingEvents:
    """Events not yet shown: public ones once, private ones to their own seat only, each
    seat's in the order they happened."""

    public: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    private: dict[int, list[tuple[int, dict[str, Any]]]] = field(default_factory=lambda: {0: [], 1: []})
    told: int = 0  # events added so far: their order

    def add(self, ply: int, events: Sequence[Event], local: Sequence[int]) -> None:
        """The ``events`` of the action that made ply ``ply``."""
        for event in events:
            self.told += 1
            told = {**event.to_json(), "ply": ply}
            if event.audience is None:
                self.public.append((self.told, told))
            else:
                for seat in local:
                    if event.visible_to(seat):
                        self.private[seat].append((self.told, {**told, "audience": list(event.audience)}))

    def take(self, seat: int | None) -> list[dict[str, Any]]:
        out = self.public
        self.public = []
        if seat is not None:
            out = sorted(out + self.private[seat], key=lambda entry: entry[0])
            self.private[seat] = []
        return [event for _order, event in out]

    def take_all(self, seats: Sequence[int]) -> list[dict[str, Any]]:
        """Every event not yet shown, public and each of ``seats``' private ones, in order
        (private ones keep their ``audience``: a screen shows them only to their seats)."""
        out = self.public
        self.public = []
        for seat in seats:
            out = out + self.private[seat]
            self.private[seat] = []
        unique = {order: event for order, event in out}  # a line told to both seats is one line
        return [unique[order] for order in sorted(unique)]


def fresh_match_seed() -> int:
    """The seed of a new match: nobody can foresee it (the UI tests fix it for each test, so a
    failure comes back on the next run; ``tests/ui/conftest.py``)."""
    return random.SystemRandom().randrange(2**31)


class LocalSession(MatchSession):
    """A match played in this process: humans at this screen, bots on a worker thread.

    Chance (dice, draws, shuffles) is sampled with a ``random.Random`` seeded from the
    match seed, so a match started with the same seed and the same decisions replays the
    same. Every applied action is written to ``autosave`` (when given) at once, so a crash
    loses nothing. A write the disk refuses (full, read-only, gone) is told at once by
    ``save_failed(reason)``, and the next action (or :meth:`save_now`) writes the whole match
    again; ``save_failed("")`` tells that a later write worked. :meth:`unsaved_reason` says
    whether the file is behind the match now.

    Undo takes back the last decision of a player at this screen and everything after it,
    but never past a chance step (a die roll, a draw, a shuffle) nor past a reveal (a
    secret choice made while the other seat also chose, which is shown once both are in):
    going back over those would let a player re-roll or change a choice after seeing the
    opponent's. A bot's action whose options depended on its hidden cards (playing a card
    from its hand) counts as a reveal too. Two people at one screen in a game with hidden
    cards each take back only their own last decision.
    """

    save_failed = Signal(str)  # why an autosave failed, in words; "" once one works again

    def __init__(
        self,
        game: Game,
        players: tuple[Player, Player],
        *,
        seed: int | None = None,
        options: Mapping[str, Any] | None = None,
        record: Mapping[str, Any] | None = None,
        autosave: Path | None = None,
        bot_factory: Callable[[str, str], Bot] = make_bot,
        bot_pool: Executor | None = None,
        parent: QObject | None = None,
    ) -> None:
        """A new match (``seed``, ``options``) or one resumed from ``record``.

        ``record`` is a saved match record; it must replay (``CorruptRecord`` otherwise).
        ``autosave`` is locked for this session's life (``MatchFileInUse`` if another running
        soccerdesk has it).
        Bots think in ``bot_pool`` (a process pool, see :mod:`soccerdesk.ui.bot_pool`) when
        given; otherwise on a thread of this process, made by ``bot_factory(name, game_id)``
        (tests pass their own bots that way).
        """
        super().__init__(game, parent)
        if any(p.kind == "remote" for p in players):
            raise ValueError("a local session has no remote players")
        if not any(p.kind == "human" for p in players):
            raise ValueError("a local session needs a player at this screen")
        self.players = players
        self.autosave = autosave
        self._ended_at: float | None = None  # when the match was first saved as over
        if record is not None:
            states = game.replay(record)
            self._played_before = played_seconds(record)
        else:
            if seed is None:
                seed = fresh_match_seed()
            states = [game.new_match(seed=seed, **dict(options or {}))]
        self._states: list[State] = states
        self.hints = list(hints_used(record)) if record is not None else [0, 0]
        """Hints each seat asked for in this match (kept in the record, :data:`HINTS_KEY`)."""
        # One match is open in one window at a time: its file is locked while this session lives.
        self._lock = lock_match_file(autosave) if autosave is not None else None
        start = states[-1]
        # A resumed match continues with fresh dice: its record already holds every past roll.
        salt = f"{start.info.seed}:{start.ply}"
        self._chance_rng = random.Random(salt)
        self._bot_rngs = {seat: random.Random(f"{salt}:{seat}") for seat in (0, 1)}
        self._bot_pool = bot_pool
        self._bot_factory = bot_factory
        bot_seats = [seat for seat, p in enumerate(players) if p.kind == "bot"]
        self._bots: dict[int, Bot | None] = {
            seat: None if bot_pool is not None else bot_factory(self._bot_name(seat), game.id) for seat in bot_seats
        }
        for seat in bot_seats if bot_pool is not None else ():
            try:
                bot_pool.submit(bot_pool_module.warm_up, game.id, self._bot_name(seat))  # type: ignore[union-attr]
            except RuntimeError:
                self._leave_bot_pool()
        self._executor: ThreadPoolExecutor | None = None
        self._generation = 0  # bumps on undo/close so a late bot answer is dropped
        self._thinking: set[int] = set()
        self._events = _PendingEvents()
        for index in range(1, len(states)):  # a resumed match: its log shows every action, as if it had never stopped
            self._tell(index)
        self._viewer: int | None = self.local_seats()[0]
        self._awaiting_takeover: int | None = None
        # A hot-seat match opens on the hand-over cover, new or resumed: whoever sits at the
        # screen now must say who they are before any secret is shown (the first hand too).
        self._cover_first = len(self.local_seats()) > 1
        self._closed = False
        self._finished_sent = False
        self._writer: ThreadPoolExecutor | None = None  # autosaves, written in order off the UI thread
        self._saves: list[Future[None]] = []  # autosaves handed to the writer, oldest first
        self._unsaved = ""  # why the last autosave failed, in words; "" while the file holds the match
        # The writer's outcomes are picked up on the UI thread, as the bots' answers are.
        self._save_poll = QTimer(self)
        self._save_poll.setInterval(50)
        self._save_poll.timeout.connect(self._collect_saves)
        self._hidden_choice: dict[int, bool] = {}  # state index -> a bot's options there were secret
        self._answers: list[tuple[int, int, Future[tuple[str, str]]]] = []
        # Bots think on a worker thread; their answers are picked up here, on the UI thread,
        # because emitting Qt signals from Python worker threads is not safe in every PySide6.
        self._poll = QTimer(self)
        self._poll.setInterval(10)
        self._poll.timeout.connect(self._collect_answers)

    # --- the contract --------------------------------------------------------------

    @property
    def state(self) -> State:
        """The current full state (for tests and the app's own tools; the window never reads it)."""
        return self._states[-1]

    def local_seats(self) -> tuple[int, ...]:
        return tuple(seat for seat, p in enumerate(self.players) if p.kind == "human")

    def player_names(self) -> tuple[str, str]:
        return (self.players[0].name, self.players[1].name)

    def viewer(self) -> int | None:
        return self._viewer

    def start(self) -> None:
        self._advance()

    def submit(self, action_text: str) -> None:
        if self._closed:
            return
        seat = self._viewer
        state = self.state
        if self._awaiting_takeover is not None or seat is None or seat not in self.local_seats():
            self.refused.emit("wait: it is not your turn yet")
            return
        if seat not in state.current_players():
            self.refused.emit("the match is over" if state.is_terminal() else "wait: it is not your turn")
            return
        try:
            action = self.game.parse_action(action_text)
            nxt = state.apply(seat, action)
        except IllegalAction as exc:
            self.refused.emit(exc.reason)
            return
        self._push(nxt)
        self._advance()

    def take_over(self) -> None:
        if self._awaiting_takeover is None:
            return
        self._viewer = self._awaiting_takeover
        self._awaiting_takeover = None
        self._emit_view()

    def cover_view(self) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        if self._awaiting_takeover is None:
            return None
        return self.state.view(None), self._events.take_all(self.local_seats())

    def can_undo(self) -> bool:
        return self._awaiting_takeover is None and self._undo_target() is not None

    def undo(self) -> None:
        if self._awaiting_takeover is not None:
            # The cover waits for the next player: the one leaving has given the screen up, and
            # an undo now would show them their hand again under the other player's call (only a
            # face-down pick may be taken back there, by name: see take_back_pick).
            self.refused.emit("wait: the screen is being handed over")
            return
        target = self._undo_target()
        if target is None:
            self.refused.emit("nothing to undo: a die roll, a draw or a reveal cannot be taken back")
            return
        self._go_back_to(target)

    def pick_to_take_back(self) -> int | None:
        """Hot-seat, on the hand-over cover after a face-down pick: the seat that made it, while
        the other seat has still to choose (nothing is revealed yet), else ``None``.

        The picker is the player leaving the screen, whoever sat there before: a resumed match
        opens on the cover with no one at the screen yet, and offers it to either seat alike."""
        calling, states = self._awaiting_takeover, self._states
        if calling is None or len(states) < 2:
            return None
        seat = states[-1].history()[-1][0]
        before = states[-2].current_players()
        if seat == calling or len(before) < 2 or states[-1].current_players() != tuple(s for s in before if s != seat):
            return None
        return seat

    def take_back_pick(self) -> None:
        """Take back :meth:`pick_to_take_back`'s pick: its player is still at the screen (the
        cover was not taken) and chooses again; refused when there is no such pick."""
        picker = self.pick_to_take_back()
        if picker is None:
            self.refused.emit("no face-down pick to take back")
            return
        self._viewer = picker  # the button named them: the screen is theirs again, no second cover
        self._go_back_to(len(self._states) - 2)

    def _go_back_to(self, target: int) -> None:
        self._awaiting_takeover = None  # whoever the cover called, the position it called them to is gone
        self._generation += 1
        self._thinking.clear()
        del self._states[target + 1 :]
        self._hidden_choice = {i: v for i, v in self._hidden_choice.items() if i <= target}
        self._events = _PendingEvents()
        self._write_autosave()
        self.status.emit("Move taken back")
        self.undone.emit()
        self._advance(after_undo=True)

    def hint_position(self) -> tuple[str, dict[str, Any], int] | None:
        """What a hint may be asked about now: the game, the match record and the seat at the
        screen, when that seat decides (not during a hand-over, never for a bot's seat)."""
        seat, state = self._viewer, self.state
        if self._closed or self._awaiting_takeover is not None or seat is None or seat not in self.local_seats():
            return None
        if seat not in state.current_players():
            return None
        return self.game.id, self.game.dump(state), seat

    def count_hint(self, seat: int) -> None:
        """A hint was shown to ``seat``: the record counts it."""
        self.hints[seat] += 1
        self._write_autosave()

    def record(self) -> dict[str, Any]:
        data = self.game.dump(self.state)
        data[HINTS_KEY] = list(self.hints)
        state = self.state
        saved = time.time()
        if state.is_terminal():
            # Over: the record's time is full time's, however often it is written again.
            self._ended_at = saved = self._ended_at or saved
        data[APP_KEY] = {
            "players": [p.to_json() for p in self.players],
            "score": list(state.score),
            "over": state.is_terminal(),
            "saved": saved,
            "result": match_result(state),
            "played_seconds": round(self.time_played(), 1),
        }
        return data

    def rematch(self) -> LocalSession:
        return LocalSession(
            self.game,
            self.players,
            options=self.state.options,
            autosave=new_autosave_path(self.autosave.parent, self.game.id) if self.autosave else None,
            bot_factory=self._bot_factory,
            bot_pool=self._bot_pool,
            parent=self.parent(),
        )

    def close(self) -> None:
        if not self._closed and not self.state.is_terminal():
            # The thinking time since the last move counts too: save it as the match is left.
            # (Not once it is over: the last move saved it, and the file may since have been
            # given the match's review, which this write would throw away.)
            self._write_autosave()
        self._closed = True
        self._generation += 1
        self._poll.stop()
        for _generation, _seat, future in self._answers:
            future.cancel()  # a decision still queued for the bot process is not needed any more
        self._answers = []
        self._save_poll.stop()
        self.flush_autosave()
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
        if self._lock is not None:
            self._lock.unlock()
            self._lock = None

    @classmethod
    def players_of(cls, record: Mapping[str, Any]) -> tuple[Player, Player] | None:
        """The players saved in a record by :meth:`record`, or ``None`` if it has none."""
        app = record.get(APP_KEY)
        if not isinstance(app, Mapping):
            return None
        found = app.get("players")
        if not isinstance(found, list) or len(found) != 2:
            return None
        try:
            return (Player.from_json(found[0]), Player.from_json(found[1]))
        except ValueError:
            return None

    # --- driving the match ------------------------------------------------------

    def _push(self, state: State) -> None:
        self._states.append(state)
        self._tell(len(self._states) - 1)
        self._write_autosave()

    def _tell(self, index: int) -> None:
        """Queue the events of the action that made state ``index``, for the screen to show."""
        after = self._states[index]
        self._events.add(after.ply, told_events(self._states[index - 1], after, self.players), self.local_seats())

    def _advance(self, after_undo: bool = False) -> None:
        """Resolve chance, start bots, and show the position to the right seat."""
        if self._closed:
            return
        state = self.state
        while state.current_players() == (CHANCE,):
            state = state.apply(CHANCE, sample_chance(state, self._chance_rng))
            self._push(state)
            if state.is_milestone() and state.current_players() == (CHANCE,):
                # Shown before the dice go on (a shootout's start, its kicks played over it).
                self.view_changed.emit(state.view(self._viewer), self._events.take(self._viewer))
        players = state.current_players()
        for seat in players:
            if seat in self._bots and seat not in self._thinking:
                self._start_bot(seat)
        humans = [seat for seat in players if seat in self.local_seats()]
        next_viewer = self._viewer
        if humans:
            next_viewer = self._viewer if self._viewer in humans else humans[0]
        elif not players and len(self.local_seats()) > 1:
            next_viewer = None  # hot-seat match over: both may look, no secret is left to keep
        self.busy.emit(bool(players) and not humans)
        if humans:
            self.status.emit(f"{self.players[next_viewer].name} to play" if next_viewer is not None else "")
        elif players:
            # Only the computer is to move (after a secret pick too, while it still picks); the
            # screen's own busy line says that it is thinking.
            self.status.emit(" and ".join(self.players[seat].name for seat in players) + " to play")
        changes_hands = self._cover_first or (self._viewer is not None and next_viewer != self._viewer)
        self._cover_first = False
        if next_viewer is not None and changes_hands and self._has_secrets(state):
            self._awaiting_takeover = next_viewer
            self.undo_available.emit(False)
            self.handover.emit(next_viewer, self.players[next_viewer].name)
            return
        self._viewer = next_viewer
        self._emit_view()

    def _emit_view(self) -> None:
        state = self.state
        self.view_changed.emit(state.view(self._viewer), self._events.take(self._viewer))
        self.undo_available.emit(self.can_undo())
        if state.is_terminal() and not self._finished_sent:
            self._finished_sent = True
            self._stop_clock()
            self.status.emit("Full time")
            self.finished.emit(
                {
                    "game": self.game.id,
                    "title": self.game.title,
                    "score": list(state.score),
                    "names": list(self.player_names()),
                    "plies": state.ply,
                    "local_seats": list(self.local_seats()),
                    **(match_result(state) or {}),
                }
            )

    @staticmethod
    def _has_secrets(state: State) -> bool:
        """Whether the two seats see different things (then a hand-over hides the screen)."""
        return state.view(0)["state"] != state.view(1)["state"]

    def _undo_target(self) -> int | None:
        """Index of the state to go back to, or ``None``.

        The target is the latest state at which a player at this screen decided, such that
        no chance step and no reveal lies between it and now.
        """
        local = set(self.local_seats())
        states = self._states
        for index in range(len(states) - 1, 0, -1):
            seat = states[index].history()[-1][0]
            if seat == CHANCE or self._is_reveal(index):
                return None
            if len(local) > 1 and seat != self._viewer and self._has_secrets(states[index - 1]):
                # Two people at one screen with cards to hide: the one at the screen takes back
                # only their own moves. The other's, even one they had no choice in (Big Time
                # Soccer's "let it go"), was made with the screen in their hands: they saw what
                # came before it, and undoing it would hand the screen back to them unasked.
                return None
            if seat in local and len(states[index - 1].legal_actions(seat)) > 1:
                return index - 1  # a forced move (one legal action) is no decision to return to
        return None

    def _is_reveal(self, index: int) -> bool:
        """Whether the action that made ``states[index]`` was part of a simultaneous secret
        choice, or showed a hidden card (see :data:`REVEAL_EVENT_KINDS`)."""
        states = self._states
        before = states[index - 1]
        if len(before.current_players()) > 1:
            return True
        if index >= 2:
            earlier = set(states[index - 2].current_players())
            # The second half of a simultaneous choice: the other seat had already chosen in secret.
            if len(earlier) > 1 and set(before.current_players()) < earlier:
                return True
        if any(event.kind in REVEAL_EVENT_KINDS for event in states[index].events):
            return True
        seat = states[index].history()[-1][0]
        return seat not in self.local_seats() and self._choice_showed_hidden(index - 1, seat)

    def _choice_showed_hidden(self, index: int, seat: int) -> bool:
        """Whether what ``seat`` could do at ``states[index]`` depended on things hidden from
        this screen (a card in its hand): then its choice told this screen something."""
        found = self._hidden_choice.get(index)
        if found is None:
            state = self._states[index]
            watcher = 1 - seat
            guess = state.determinize(watcher, random.Random(index))
            try:
                found = set(map(str, guess.legal_actions(seat))) != set(map(str, state.legal_actions(seat)))
            except IllegalAction:
                found = True
            self._hidden_choice[index] = found
        return found

    # --- bots -----------------------------------------------------------------------

    def _bot_name(self, seat: int) -> str:
        return self.players[seat].bot or "heuristic"

    def _start_bot(self, seat: int) -> None:
        self._thinking.add(seat)
        generation, state, rng = self._generation, self.state, self._bot_rngs[seat]
        future: Future[tuple[str, str]] | None = None
        if self._bot_pool is not None:
            record, seed = self.game.dump(state), rng.randrange(2**62)
            try:
                future = self._bot_pool.submit(
                    bot_pool_module.think, self.game.id, record, seat, self._bot_name(seat), seed
                )
            except RuntimeError:  # a broken or shut-down pool (BrokenProcessPool is one)
                self._leave_bot_pool()
        if future is None:
            bot = self._bots[seat]
            assert bot is not None
            if self._executor is None:
                self._executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="soccerdesk-bot")
            future = self._executor.submit(_think, state, seat, bot, rng)
        self._answers.append((generation, seat, future))
        if not self._poll.isActive():
            self._poll.start()

    def _collect_answers(self) -> None:
        """On the UI thread: take the bots' finished answers (no Qt call ever leaves this thread)."""
        done = [entry for entry in self._answers if entry[2].done()]
        self._answers = [entry for entry in self._answers if not entry[2].done()]
        if not self._answers:
            self._poll.stop()
        for generation, seat, future in done:
            if future.cancelled():
                continue
            try:
                text, error = future.result()
            except Exception as exc:  # the bot process died: this decision falls back, the next runs here
                text, error = "", f"the bot process failed: {exc!r}"
                self._leave_bot_pool()
            self._on_bot_decided(generation, seat, text, error)

    def _leave_bot_pool(self) -> None:
        """Think on a thread of this process from now on (the bot process is gone)."""
        if self._bot_pool is None:
            return
        self._bot_pool = None
        for seat in self._bots:
            self._bots[seat] = self._bot_factory(self._bot_name(seat), self.game.id)

    def _on_bot_decided(self, generation: int, seat: int, text: str, error: str) -> None:
        if self._closed or generation != self._generation:
            return
        self._thinking.discard(seat)
        state = self.state
        if seat not in state.current_players():
            return
        legal = state.legal_actions(seat)
        action = None
        if not error:
            try:
                action = self.game.parse_action(text)
            except RulesError:
                error = f"bot answered {text!r}, which does not parse"
        if action is None or action not in legal:
            # The position moved on while the bot thought, or the bot failed: never stall the match.
            if os.environ.get("SOCCERDESK_DEBUG"):
                print(f"bot at seat {seat} fell back to a random move: {error or text}")
            action = legal[self._bot_rngs[seat].randrange(len(legal))]
        self._push(state.apply(seat, action))
        self._advance()

    # --- autosave -----------------------------------------------------------------

    def _write_autosave(self) -> None:
        """Hand the record to the writer thread: the UI thread never waits for the disk."""
        if self.autosave is None:
            return
        if self._writer is None:
            self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="soccerdesk-autosave")
        self._saves.append(self._writer.submit(write_match_file, self.autosave, json.dumps(self.record())))
        if not self._save_poll.isActive():
            self._save_poll.start()

    def save_now(self) -> None:
        """Write the match to its file again (after a failed autosave: the player's Try again)."""
        if not self._closed:
            self._write_autosave()

    def unsaved_reason(self) -> str:
        """Why the match file is behind the match, in words ("no space left on device"), or ""
        when the last autosave that finished worked (see :meth:`flush_autosave` to wait for all)."""
        return self._unsaved

    def _collect_saves(self) -> None:
        """On the UI thread: the outcome of the autosaves the writer has finished, in order."""
        while self._saves and self._saves[0].done():
            error = self._saves.pop(0).exception()
            reason = "" if error is None else disk_words(error)
            if reason != self._unsaved:
                self._unsaved = reason
                if not self._closed:
                    self.save_failed.emit(reason)
        if not self._saves:
            self._save_poll.stop()

    def flush_autosave(self) -> None:
        """Wait until every autosave handed to the writer is on disk (or refused: then
        :meth:`unsaved_reason` says why)."""
        if self._writer is not None:
            self._writer.shutdown(wait=True)
            self._writer = None
        self._collect_saves()


def disk_words(error: BaseException) -> str:
    """What went wrong with a write (or a read), as a player reads it: "no space left on device"."""
    words = (error.strerror if isinstance(error, OSError) else None) or str(error) or type(error).__name__
    return words[:1].lower() + words[1:]


def write_match_file(path: Path, text: str) -> None:
    """Replace ``path`` by ``text`` atomically: a crash mid-write keeps the previous save."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()  # a write cut short (a full disk) leaves no half file beside the match
        raise


def _think(state: State, seat: int, bot: Bot, rng: random.Random) -> tuple[str, str]:
    """On a worker thread: the bot's action text, or ``("", traceback)`` if the bot failed."""
    try:
        return str(bot.decide(state, seat, rng)), ""
    except Exception:  # a bot bug must not end the match: the UI thread falls back
        return "", traceback.format_exc(limit=3)


REVEAL_EVENT_KINDS = frozenset({"reveal", "flip", "reveal_choices", "shootout_reveal"})
"""Event kinds after which undo must stop even outside a simultaneous choice.

A game that shows a hidden card outside a simultaneous choice names that event one of these.
"""


def new_autosave_path(folder: Path, game_id: str) -> Path:
    """A fresh autosave file name in ``folder`` for a new match of ``game_id``."""
    return folder / f"{game_id}-{time.strftime('%Y%m%d-%H%M%S')}-{int(time.time() * 1000) % 1000:03d}.json"


def played_seconds(record: Mapping[str, Any]) -> float:
    """Seconds a saved match had been played (0 for files saved before the app counted them)."""
    return saved_seconds(record) or 0.0


class MatchFileInUse(Exception):
    """Another running soccerdesk has this match open (its file is locked).

    ``path``: the match file; ``pid``: the process that has it (0 if not known).
    """

    def __init__(self, message: str, path: Path, pid: int = 0) -> None:
        super().__init__(message)
        self.path = path
        self.pid = pid


class LockHeld(Exception):
    """Another running process holds a lock file: ``pid`` (0 if not known)."""

    def __init__(self, path: Path, pid: int = 0) -> None:
        super().__init__(f"{path} is locked by process {pid or 'unknown'}")
        self.path = path
        self.pid = pid


def hold_lock(lock_path: Path) -> QLockFile:
    """Lock ``lock_path`` (the lock file itself) for this process and return the held lock.

    Raises :class:`LockHeld` while a running process holds it, and ``OSError`` when it cannot be
    written. The lock of a process that is gone (a crash, a kill) is taken over; that of a running
    one is never, however old (no time-out: a match may stay open for hours).
    """
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    lock = QLockFile(str(lock_path))
    lock.setStaleLockTime(0)
    if lock.tryLock(0):
        return lock
    if lock.error() == QLockFile.LockError.LockFailedError:
        info = lock.getLockInfo()  # PySide6: (pid, host name, program name)
        pid = info[0] if isinstance(info, tuple) and info and isinstance(info[0], int) else 0
        raise LockHeld(lock_path, max(0, pid))
    raise OSError(f"{lock_path.name} cannot be locked in {lock_path.parent}")


def lock_match_file(path: Path) -> QLockFile:
    """Lock the match file ``path`` for this process (a ``.lock`` file beside it, see
    :func:`hold_lock`), or raise :class:`MatchFileInUse` saying who has it."""
    try:
        return hold_lock(Path(f"{path}.lock"))
    except LockHeld as exc:
        holder = f" (process {exc.pid})" if exc.pid > 0 else ""
        raise MatchFileInUse(
            f"This match is being played in another soccerdesk window{holder}. "
            f"Go on with it there, or close that window and try again.\n\nMatch file: {path.name}",
            path,
            exc.pid,
        ) from None
    except OSError:
        raise MatchFileInUse(
            f"{path.name} cannot be locked in {path.parent}: check that the folder is writable.", path
        ) from None
