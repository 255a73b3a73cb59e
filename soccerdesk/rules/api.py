"""The rules contract every game implements.

A game is a :class:`Game` (stateless, holds validated content data) that creates
immutable :class:`State` values. A state says who must decide
(:meth:`State.current_players`), what they may do (:meth:`State.legal_actions`,
:meth:`State.chance_outcomes`) and returns a *new* state from :meth:`State.apply`.

Games implement the underscored hooks (``_apply``, ``_legal_actions``, ``_view``...);
this module supplies validation, the match history, caching, the view envelope,
match records (``dump``/``load``) and chance sampling, once for every game.

Seats are ``0`` and ``1``; :data:`CHANCE` (``-1``) is the seat of dice, draws and
shuffles. A match record is the game id, the options, the seed and the list of
``(seat, action text)`` pairs: replaying it gives the same state, dice included.
"""

from __future__ import annotations

import dataclasses
import hmac
import itertools
import math
import random
import secrets
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

CHANCE = -1
"""The seat of chance: a die roll, a card draw, a coin toss."""

SEATS = (0, 1)

RECORD_FORMAT = "soccerdesk-match"
RECORD_VERSION = 1


class RulesError(ValueError):
    """Base class of every error the rules raise on bad input."""


class IllegalAction(RulesError):
    """An action that the rules do not allow now. ``reason`` says why, in words."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class UnknownGame(RulesError, KeyError):
    """A game id that is not registered."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


class BadOption(RulesError):
    """An unknown game option or a value of the wrong kind."""


class CorruptRecord(RulesError):
    """A match record (save file, replay, wire snapshot) that cannot be replayed.

    ``replayable``: when the record is sound up to an action the rules refuse (a record saved
    under rules that have changed since, or edited), how many of its actions do replay; else
    ``None``."""

    def __init__(self, message: str, replayable: int | None = None) -> None:
        super().__init__(message)
        self.replayable = replayable


Action = Hashable
"""Actions are small immutable values with a text form: ``str(a)`` parses back."""


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened in one ``apply``, for the log and for animation.

    ``audience`` is ``None`` when every seat and spectator may see it, or the tuple
    of seats that may (a card drawn into a hand is seen by its owner only).
    """

    kind: str
    text: str
    data: Mapping[str, Any] = field(default_factory=dict)
    audience: tuple[int, ...] | None = None

    def visible_to(self, seat: int | None) -> bool:
        return self.audience is None or (seat is not None and seat in self.audience)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "data": dict(self.data)}


@dataclass(frozen=True, slots=True)
class Option:
    """A game variant option accepted by :meth:`Game.new_match`."""

    name: str
    default: Any
    label: str
    help: str = ""
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None

    def coerce(self, value: Any) -> Any:
        """Return ``value`` as this option's type, or raise :class:`BadOption`.

        Text (from a command line or a settings file) is converted: ``"true"``,
        ``"7"``, ``"cup"``.
        """
        kind = type(self.default)
        if isinstance(value, str) and kind is not str:
            text = value.strip().lower()
            if kind is bool:
                if text in ("1", "true", "yes", "on"):
                    value = True
                elif text in ("0", "false", "no", "off"):
                    value = False
                else:
                    raise BadOption(f"option {self.name!r} takes true or false, not {value!r}")
            elif kind is int:
                try:
                    value = int(text)
                except ValueError:
                    raise BadOption(f"option {self.name!r} takes a whole number, not {value!r}") from None
        if kind is int and isinstance(value, bool) or not isinstance(value, kind):
            raise BadOption(f"option {self.name!r} takes a {kind.__name__}, not {value!r}")
        if self.choices and value not in self.choices:
            allowed = ", ".join(map(str, self.choices))
            raise BadOption(f"option {self.name!r} must be one of {allowed}, not {value!r}")
        if self.minimum is not None and value < self.minimum:
            raise BadOption(f"option {self.name!r} must be at least {self.minimum}, not {value}")
        if self.maximum is not None and value > self.maximum:
            raise BadOption(f"option {self.name!r} must be at most {self.maximum}, not {value}")
        return value


@dataclass(frozen=True, slots=True)
class MatchInfo:
    """What a match was created with; shared by every state of that match.

    A determinized world (:meth:`State.determinize`) carries the match's *world info* instead:
    the same game and options, ``world`` true, and for ``seed`` a stand-in, negative, that two
    matches share when their real seeds are the same and that tells nothing else: a keyed hash
    of the real one under a key drawn when this process started. The real seed would let a bot
    replay the match's chance draws (a local match rolls its dice from it)."""

    game_id: str
    seed: int
    options: Mapping[str, Any]
    world: bool = False
    _world_info: MatchInfo | None = field(default=None, compare=False, repr=False)

    def for_worlds(self) -> MatchInfo:
        """The info every determinized world of this match carries (itself in a world): one
        object per match, equal for equal infos, so a bot can tell its matches apart by it."""
        if self.world:
            return self
        found = self._world_info
        if found is None:
            with _WORLD_INFO_LOCK:
                found = self._world_info
                if found is None:
                    stand_in = hmac.digest(_WORLD_KEY, str(self.seed).encode(), "sha256")
                    seed = -1 - int.from_bytes(stand_in[:7], "big")
                    found = MatchInfo(self.game_id, seed, self.options, world=True)
                    object.__setattr__(self, "_world_info", found)
        return found


_WORLD_KEY = secrets.token_bytes(16)
_WORLD_INFO_LOCK = threading.Lock()  # bots determinize in worker threads (the app's, the relay's)


class _History:
    """A persistent list of ``(seat, action)``: appending is O(1) and shares the tail.

    ``world`` is true in the history of a determinized state (:class:`_Masked` below), whose
    past shows only what its seat saw."""

    __slots__ = ("previous", "seat", "action", "length", "world")

    previous: _History | None
    seat: int
    action: Action
    length: int
    world: bool

    def __init__(self, previous: _History | None, seat: int, action: Action) -> None:
        self.previous = previous
        self.seat = seat
        self.action = action
        if previous is None:
            self.length, self.world = 1, False
        else:
            self.length, self.world = previous.length + 1, previous.world

    def items(self) -> list[tuple[int, Action]]:
        out: list[tuple[int, Action]] = []
        node: _History | None = self
        while node is not None:
            if type(node) is _Masked:
                out.reverse()
                return node.masked_items() + out
            out.append((node.seat, node.action))
            node = node.previous
        out.reverse()
        return out


class _HiddenAction:
    """What a determinized state's history shows in place of an action its seat did not see."""

    __slots__ = ()

    def __str__(self) -> str:
        return "hidden"

    def __repr__(self) -> str:
        return "HIDDEN"


HIDDEN: Action = _HiddenAction()
"""In :meth:`State.history` of a determinized state: an action its seat did not see (the
opponent's draw, a card put aside face down, a face-down pick not shown yet)."""


_Entries = tuple[tuple[int, Action], ...]


class _Masked(_History):
    """The history of a match as one seat saw it: the real one with :data:`HIDDEN` in place of
    what that seat did not see. Made in O(1) by :meth:`State.determinize`; which actions were
    hidden is worked out on first use, by replaying the match and asking each position
    :meth:`State._secret` (cached, so a bot asking move after move replays only the new ones).
    Its seat's copy made, it lets go of the real history: from then on nothing in the world
    leads to what its seat did not see."""

    __slots__ = ("_source", "_for", "_info", "_chain", "_entries")

    def __init__(self, source: _History, seat: int, info: MatchInfo) -> None:
        self._source: _History | None = source
        self._for = seat
        self._info = info  # the world's: a match starts the same whatever its seed
        self._chain: _History | None = None
        self._entries: _Entries = ()
        self.length = source.length
        self.world = True

    def masked_items(self) -> list[tuple[int, Action]]:
        self._node()
        return list(self._entries)

    def _node(self) -> _History:
        chain = self._chain
        if chain is None:
            source = self._source
            if source is None:  # another thread made it meanwhile
                chain = self._chain
                assert chain is not None
                return chain
            # The copy first, then the real history let go: a thread that finds the history
            # gone finds the copy.
            chain, self._entries = _masked_chain(source, self._for, self._info)
            self._chain = chain
            self._source = None
        return chain

    # The last entry, read like any node's (a bot's position memory walks the nodes; the
    # search and the bots' own reading of the history ask ``items``).
    previous = property(lambda self: self._node().previous)
    seat = property(lambda self: self._node().seat)
    action = property(lambda self: self._node().action)


_MASKS: dict[tuple[int, int], tuple[_History, list[tuple[int, Action]], State, list[int], _History, _Entries]] = {}
"""(id of a real history node, seat) -> (the node, its entries with the seat's forever-hidden ones
masked, the replayed position, the indices of face-down picks not shown yet, and the seat's copy
of the history that worlds get, in nodes and as entries): where the last replays stopped. The
node is kept, so its id is not reused while the entry lives. Worlds of one position share their
copy (its nodes never change); a later position's copy goes on from it unless a pick not shown
yet could change its past."""

_MASKS_KEPT = 64
_MASKS_LOCK = threading.Lock()  # bots think in worker threads (the app's, the relay's)


def _masked_chain(source: _History, seat: int, info: MatchInfo) -> tuple[_History, _Entries]:
    """``source`` as ``seat`` saw it (see :class:`_Masked`), in nodes of its own and as entries."""
    suffix: list[tuple[int, Action]] = []
    node: _History | None = source
    found = None
    with _MASKS_LOCK:
        while node is not None:
            found = _MASKS.get((id(node), seat))
            if found is not None and found[0] is node:
                break
            found = None
            suffix.append((node.seat, node.action))
            node = node.previous
    if found is not None and not suffix:
        return found[4], found[5]
    suffix.reverse()
    base: _History | None = None
    if found is None:
        from soccerdesk.rules import get_game  # the registry imports this module

        items: list[tuple[int, Action]] = []
        # A match starts the same whatever its seed (only drivers draw from it): a world's
        # info, which has not the real one, replays it as well.
        state: State = get_game(info.game_id).new_match(seed=info.seed, **info.options)
        unshown: list[int] = []
    else:
        _, kept, state, kept_unshown, kept_chain, _ = found
        items, unshown = list(kept), list(kept_unshown)
        if not unshown:
            base = kept_chain  # its entries are final: nothing still face down can change them
    try:
        for who, action in suffix:
            secret = state._secret(who, action)
            if secret is not None and secret[0] == seat:
                if secret[1]:
                    unshown.append(len(items))
                    items.append((who, action))
                else:
                    items.append((who, HIDDEN))
            else:
                items.append((who, action))
            state = state.apply_unchecked(who, action)
            if unshown and not state._pick_pending(seat):
                if secret is None or not secret[1]:
                    # Ended by something other than the seat's own pick (a card played instead
                    # takes the picks back): they were never shown, so they stay hidden for good.
                    for i in unshown:
                        items[i] = (items[i][0], HIDDEN)
                unshown = []
    except Exception:  # noqa: BLE001 - a history that does not replay from the match's start
        # (a position set up by hand): show the seat its own actions only.
        own = tuple((who, action if who == seat else HIDDEN) for who, action in source.items())
        return _chain(None, own), own
    shown = items[base.length :] if base is not None else list(items)
    offset = len(items) - len(shown)
    for i in unshown:
        shown[i - offset] = (shown[i - offset][0], HIDDEN)
    chain = _chain(base, shown)
    entries = (found[5] if base is not None and found is not None else ()) + tuple(shown)
    with _MASKS_LOCK:
        if len(_MASKS) >= _MASKS_KEPT:
            _MASKS.pop(next(iter(_MASKS)))
        _MASKS[(id(source), seat)] = (source, items, state, unshown, chain, entries)
    return chain, entries


def _chain(base: _History | None, entries: Iterable[tuple[int, Action]]) -> _History:
    """Nodes of a world's history: ``entries`` after ``base``."""
    node = base
    for seat, action in entries:
        node = _History(node, seat, action)
        node.world = True
    assert node is not None
    return node


class State(ABC):
    """An immutable position of one match. Subclasses are frozen dataclasses.

    Equality and hashing come from the subclass's fields only: two states reached
    by different action lists are equal if the positions are.

    Fields declared with ``compare=False`` are not part of the position: those whose
    names start with ``_`` are caches (speed only); any other is data the match's
    options determine (the same in every state of the match). ``copy.copy`` and
    ``copy.deepcopy`` return the state itself (it never changes); pickling carries
    the position, the match info, the history and the last events, and starts the
    caches empty (see :meth:`__reduce__`).
    """

    __slots__ = ("_info", "_history", "_events", "_legal")

    game: ClassVar[Game]
    _info: MatchInfo
    _history: _History | None
    _events: tuple[Event, ...]
    _legal: dict[int, list[Action]]

    # --- hooks a game implements -------------------------------------------------

    @abstractmethod
    def current_players(self) -> tuple[int, ...]:
        """Seats that owe a decision: ``(0,)``, ``(1,)``, ``(0, 1)``, ``(CHANCE,)`` or ``()``."""

    @abstractmethod
    def _legal_actions(self, seat: int) -> list[Action]:
        """Legal actions of a deciding seat (not CHANCE); never empty."""

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        """``(action, probability)`` pairs when CHANCE must act."""
        raise IllegalAction("chance does not act in this game")

    @abstractmethod
    def _apply(self, seat: int, action: Action, events: list[Event]) -> State:
        """Return the next state; the action is known to be legal. Append events."""

    @property
    @abstractmethod
    def score(self) -> tuple[int, int]:
        """Goals of seat 0 and seat 1."""

    @abstractmethod
    def _view(self, seat: int | None) -> dict[str, Any]:
        """JSON-able game part of :meth:`view` (everything ``seat`` may know)."""

    _secret_history: ClassVar[bool] = False
    """Whether a match may hold actions one seat never sees (a draw, a card put aside face down):
    then every determinization shows its seat a masked history (:meth:`determinize`)."""

    def _secret(self, seat: int, action: Action) -> tuple[int, bool] | None:
        """Whether ``action``, about to be played here by ``seat`` (CHANCE too), is kept from a seat:
        ``(that seat, whether it is shown later)`` (a face-down pick is shown once both are laid,
        see :meth:`_pick_pending`; one taken back before that, by anything else the other seat
        does, is never shown), or ``None`` when both seats see it. Games with hidden
        actions implement it; :meth:`determinize` masks those in the history it hands on."""
        return None

    def _pick_pending(self, seat: int) -> bool:
        """Whether the other seat has a face-down pick laid here that ``seat`` has not seen."""
        return False

    def _determinize(self, seat: int, rng: random.Random) -> State:
        """A state ``seat`` cannot tell apart from this one, hidden things resampled.

        The result must depend only on what ``seat`` may know and on ``rng``: a test
        checks ``s.determinize(k, Random(i)) == s.determinize(k, Random(j)).determinize(k, Random(i))``.
        Games without hidden information keep this default.
        """
        return self

    @property
    def winner(self) -> int | None:
        """0 or 1 once the match is over and decided; ``None`` otherwise."""
        if not self.is_terminal():
            return None
        a, b = self.score
        return 0 if a > b else 1 if b > a else None

    def is_milestone(self) -> bool:
        """A position worth showing before the chance steps after it are drawn: the start of a
        penalty shootout decided by dice alone, whose kicks a screen then plays over it. The
        app's session and the relay send a view of it on its own. Default: none."""
        return False

    def result_details(self) -> dict[str, Any]:
        """How a finished match was decided besides its score: ``{"extra_time": True}`` when
        extra time was played, ``{"shootout": [goals 0, goals 1]}`` when a penalty shootout
        decided it (both may be there), ``{"turn_limit": turns a side}`` when a turn limit
        ended it before the goals that win, ``{"forfeit": True}`` when a side forfeited;
        empty otherwise, and in games that have none.
        JSON-ready: the relay sends it with a match's result (docs/protocol.md)."""
        return {}

    # --- the contract, implemented once ----------------------------------------

    def is_terminal(self) -> bool:
        return not self.current_players()

    def legal_actions(self, seat: int) -> list[Action]:
        """Legal actions of ``seat``. Raises IllegalAction if that seat does not decide now."""
        try:
            cache = self._legal
        except AttributeError:
            cache = {}
            object.__setattr__(self, "_legal", cache)
        found = cache.get(seat)
        if found is None:
            if seat not in self.current_players() or seat == CHANCE:
                raise IllegalAction(self._not_your_turn(seat))
            found = self._legal_actions(seat)
            cache[seat] = found
        return list(found)

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.current_players() != (CHANCE,):
            raise IllegalAction("no die, draw or toss is pending")
        return self._chance_outcomes()

    def apply(self, seat: int, action: Action) -> State:
        """Return the state after ``seat`` plays ``action``. Illegal: raise IllegalAction."""
        if seat == CHANCE:
            if self.current_players() != (CHANCE,):
                raise IllegalAction("no die, draw or toss is pending")
            known = [a for a, _ in self._chance_outcomes()]
        elif seat not in self.current_players():
            raise IllegalAction(self._not_your_turn(seat))
        else:
            known = self.legal_actions(seat)
        try:
            # The game's own action object, not merely one equal to it (a plain tuple equals a
            # named tuple but lacks its fields): found and checked in one pass.
            action = known[known.index(action)]
        except ValueError:
            reason = f"{action} is not a possible outcome now" if seat == CHANCE else self.explain_illegal(seat, action)
            raise IllegalAction(reason) from None
        return self.apply_unchecked(seat, action)

    def apply_unchecked(self, seat: int, action: Action) -> State:
        """:meth:`apply` without the legality check, for search over known-legal actions."""
        events: list[Event] = []
        nxt = self._apply(seat, action, events)
        nxt._set_meta(self._info, _History(self._history, seat, action), tuple(events))
        return nxt

    def explain_illegal(self, seat: int, action: Action) -> str:
        """Why ``action`` is illegal for ``seat`` now. Games may give better reasons."""
        return f"{action} is not a legal action now"

    def _not_your_turn(self, seat: int | None) -> str:
        if self.is_terminal():
            return "the match is over"
        if seat == CHANCE:
            return "it is not chance's turn"
        return f"seat {seat} does not decide now"

    @property
    def events(self) -> tuple[Event, ...]:
        """Events of the ``apply`` that made this state (empty for a new match)."""
        return self._events

    @property
    def info(self) -> MatchInfo:
        return self._info

    @property
    def options(self) -> Mapping[str, Any]:
        return self._info.options

    def history(self) -> list[tuple[int, Action]]:
        """Every ``(seat, action)`` since the match began, chance included. In a determinized
        state, what its seat did not see is :data:`HIDDEN` (the entries keep their places)."""
        return [] if self._history is None else self._history.items()

    @property
    def ply(self) -> int:
        return 0 if self._history is None else self._history.length

    def view(self, seat: int | None) -> dict[str, Any]:
        """A JSON-able dict of everything ``seat`` may know (``None``: a spectator).

        The envelope is the same for every game; ``"state"`` is the game's own part.
        ``"legal"`` lists the action texts of ``seat`` when it must decide.
        """
        players = self.current_players()
        deciding = seat is not None and seat in players
        return {
            "game": self.game.id,
            "seat": seat,
            "ply": self.ply,
            "to_move": list(players),
            "terminal": not players,
            "score": list(self.score),
            "winner": self.winner,
            "details": self.result_details(),
            "legal": [str(a) for a in self.legal_actions(seat)] if seat is not None and deciding else [],
            "state": self._view(seat),
        }

    def determinize(self, seat: int, rng: random.Random) -> State:
        """A full state that ``seat`` cannot tell apart from this one (hidden things resampled),
        its history and its events (:attr:`events`) as that seat saw them."""
        if seat not in SEATS:
            raise ValueError(f"determinize needs seat 0 or 1, not {seat!r}")
        out = self._determinize(seat, rng)
        # The last apply's events as the seat saw them: never the other seat's private draw.
        events = tuple(e for e in self._events if e.visible_to(seat))
        # Never the match's own info: its seed would tell the real draws and the dice to come.
        info = self._info.for_worlds()
        history = self._history
        if out is self and not self._secret_history and len(events) == len(self._events):
            if info is self._info:
                return out  # a world already, and nothing in it hidden from this seat
        elif history is not None and not history.world:
            # What the seat did not see stays out of the history too (a world made from a world
            # keeps the first one's: it is already the seat's own).
            history = _Masked(history, seat, info)
        if out is self:
            out = _same_position(self)
        out._set_meta(info, history, events)
        return out

    def _set_meta(self, info: MatchInfo, history: _History | None, events: tuple[Event, ...]) -> None:
        object.__setattr__(self, "_info", info)
        object.__setattr__(self, "_history", history)
        object.__setattr__(self, "_events", events)

    # --- copying and pickling ------------------------------------------------------

    def __copy__(self) -> State:
        return self  # immutable: a copy would be the same value

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle support (the dataclass one would keep only the subclass's own fields).

        Carried: every position field, the match info, the history (as action texts, so
        the actions come back as the game's own parsed values) and the last events.
        Not carried: caches (``_``-named fields, the legal-action cache), which start
        empty, and the option-derived ``compare=False`` fields, which the game makes
        again for the match's options. The history is a flat list, not the linked one,
        so a long match pickles without deep recursion.
        """
        position = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.compare}  # type: ignore[arg-type]
        history = [(seat, str(action)) for seat, action in self.history()]
        return (_unpickle_state, (type(self), self._info, position, history, self._events))


def _unpickle_state(
    cls: type[State],
    info: MatchInfo,
    position: Mapping[str, Any],
    history: Sequence[tuple[int, str]],
    events: tuple[Event, ...],
) -> State:
    """The state :meth:`State.__reduce__` pickled, in this process (the game is loaded if need be)."""
    from soccerdesk.rules import get_game  # the registry imports this module

    game = get_game(info.game_id)
    derived: State | None = None
    state = object.__new__(cls)
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        if f.compare:
            value = position[f.name]
        elif f.name.startswith("_"):
            value = f.default_factory() if f.default_factory is not dataclasses.MISSING else f.default
            if value is dataclasses.MISSING:
                value = None
        else:
            if derived is None:
                derived = game._initial_state(info.options)
            value = getattr(derived, f.name)
        object.__setattr__(state, f.name, value)
    node: _History | None = None
    masked = False  # a determinized state's history (HIDDEN in it) stays one
    for seat, text in history:
        hidden = text == str(HIDDEN)
        masked = masked or hidden
        node = _History(node, seat, HIDDEN if hidden else game.parse_action(text))
        node.world = masked
    state._set_meta(info, node, tuple(events))
    return state


def _same_position(state: State) -> State:
    """A second object with ``state``'s fields (to carry other match metadata)."""
    new = object.__new__(type(state))
    for f in dataclasses.fields(state):  # type: ignore[arg-type]
        try:
            object.__setattr__(new, f.name, getattr(state, f.name))
        except AttributeError:  # a cache not made yet
            continue
    return new


def _whole_seed(seed: Any) -> int:
    """``seed``, if it is a whole number (``True`` is not one)."""
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise BadOption(f"seed must be a whole number, not {seed!r}")
    return seed


class Game(ABC):
    """One game's rules: its id, its options and how a match starts.

    A game is created once by the registry with its validated content data.
    """

    id: ClassVar[str]
    title: ClassVar[str]
    summary: ClassVar[str] = ""
    options: ClassVar[tuple[Option, ...]] = ()

    # --- hooks -------------------------------------------------------------------

    @abstractmethod
    def _initial_state(self, options: Mapping[str, Any]) -> State:
        """The state before the first decision (a coin toss is usually a chance node)."""

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """The action whose ``str`` is ``text``. Unknown text: raise IllegalAction."""

    # --- implemented once --------------------------------------------------------

    def option(self, name: str) -> Option:
        for opt in self.options:
            if opt.name == name:
                return opt
        known = ", ".join(o.name for o in self.options) or "none"
        raise BadOption(f"{self.title} has no option {name!r} (options: {known})")

    def resolve_options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Defaults filled in, every value checked and converted."""
        values = {o.name: o.default for o in self.options}
        for name, value in given.items():
            values[name] = self.option(name).coerce(value)
        return values

    def new_match(self, seed: int = 0, **options: Any) -> State:
        """A new match. ``seed`` is recorded; drivers sample chance with ``random.Random(seed)``."""
        return self._start(_whole_seed(seed), self.resolve_options(options))  # the seed checked first

    def _start(self, seed: int, resolved: dict[str, Any]) -> State:
        """A new match under options :meth:`resolve_options` gave and a checked ``seed``."""
        state = self._initial_state(resolved)
        state._set_meta(MatchInfo(self.id, seed, resolved), None, ())
        return state

    def dump(self, state: State) -> dict[str, Any]:
        """The match record of ``state``: JSON-able, replays to an equal state."""
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game": self.id,
            "seed": state.info.seed,
            "options": dict(state.options),
            "actions": [[seat, str(action)] for seat, action in state.history()],
        }

    def load(self, record: Any, *, upto: int | None = None) -> State:
        """Replay a match record. Anything wrong raises CorruptRecord saying what."""
        return self.replay(record, upto=upto)[-1]

    def replay(self, record: Any, *, upto: int | None = None) -> list[State]:
        """Every state of a match record, first to last (or to ``upto`` actions)."""
        if not isinstance(record, Mapping):
            raise CorruptRecord("a match record is a JSON object")
        if record.get("format") != RECORD_FORMAT:
            raise CorruptRecord("this is not a soccerdesk match record")
        version = record.get("version")
        if version != RECORD_VERSION:
            raise CorruptRecord(
                f"match record version {version!r} is not supported (this build reads {RECORD_VERSION})"
            )
        if record.get("game") != self.id:
            raise CorruptRecord(f"this record is of the game {record.get('game')!r}, not {self.id!r}")
        seed, options, actions = record.get("seed"), record.get("options"), record.get("actions")
        if "options" not in record:
            raise CorruptRecord("the record's options are missing")
        if not isinstance(options, Mapping):
            raise CorruptRecord(f"the record's options are not a JSON object (they are {_json_kind(options)})")
        if "actions" not in record:
            raise CorruptRecord("the record's actions are missing")
        if not isinstance(actions, list):
            raise CorruptRecord(f"the record's actions are not a list (they are {_json_kind(actions)})")
        try:
            # Resolved by name, never passed on as keywords: an option named "seed" (or "self")
            # is no option of this game, not a second seed. Options are checked before the seed.
            resolved = self.resolve_options(options)
            state = self._start(_whole_seed(seed if isinstance(seed, int) else 0), resolved)
        except RulesError as exc:
            raise CorruptRecord(f"bad options in record: {exc}") from None
        states = [state]
        for index, entry in enumerate(actions[:upto] if upto is not None else actions):
            if (
                not isinstance(entry, (list, tuple))
                or len(entry) != 2
                or not isinstance(entry[0], int)
                or not isinstance(entry[1], str)
            ):
                raise CorruptRecord(f"action {index + 1} is not a [seat, text] pair")
            seat, text = entry
            try:
                state = state.apply(seat, self.parse_action(text))
            except RulesError as exc:
                raise CorruptRecord(
                    f"action {index + 1} ({text!r} by seat {seat}) cannot be replayed: {exc}", replayable=index
                ) from None
            states.append(state)
        return states

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id!r}>"


def _json_kind(value: Any) -> str:
    """What a JSON value is, in a record's error message: "text", "a number", …"""
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, Mapping):
        return "a JSON object"
    if isinstance(value, (list, tuple)):
        return "a list"
    return "null" if value is None else type(value).__name__


# --- helpers for drivers (controller, simulator, relay) ------------------------------


def sample_chance(state: State, rng: random.Random) -> Action:
    """Pick one chance outcome of ``state`` with its probability."""
    outcomes = state.chance_outcomes()
    r = rng.random()
    total = 0.0
    for action, p in outcomes:
        total += p
        if r < total:
            return action
    return outcomes[-1][0]


def check_probabilities(outcomes: Sequence[tuple[Action, float]]) -> bool:
    return (
        bool(outcomes)
        and all(p > 0 for _, p in outcomes)
        and math.isclose(sum(p for _, p in outcomes), 1.0, abs_tol=1e-9)
    )


def uniform(actions: Iterable[Action]) -> list[tuple[Action, float]]:
    """Equal chance for each action."""
    items = list(actions)
    p = 1.0 / len(items)
    return [(a, p) for a in items]


def weighted(counts: Mapping[Action, int] | Iterable[tuple[Action, int]]) -> list[tuple[Action, float]]:
    """Chance in proportion to counts (drawing one card from a pile of copies)."""
    pairs = list(counts.items() if isinstance(counts, Mapping) else counts)
    pairs = [(a, n) for a, n in pairs if n > 0]
    total = sum(n for _, n in pairs)
    return [(a, n / total) for a, n in pairs]


def random_action(state: State, seat: int, rng: random.Random) -> Action:
    """A random action of ``seat``: a chance outcome by its probability, or one of the seat's
    legal actions, every one alike (one draw from ``rng`` either way)."""
    if seat == CHANCE:
        return sample_chance(state, rng)
    legal = state.legal_actions(seat)
    return legal[rng.randrange(len(legal))]


class NoEnd(RuntimeError):
    """:func:`play_out` made its most actions and the match had not ended."""


def play_out(
    state: State,
    choose: Callable[[State, int], Action] | None,
    rng: random.Random,
    max_plies: int | None = 1_000_000,
    *,
    stop: Callable[[State], bool] | None = None,
    watch: Callable[[int, State, State], None] | None = None,
    checked: bool = True,
) -> State:
    """Play to the end: ``choose(state, seat)`` for seats (``None``: a random legal action
    drawn from ``rng``), ``rng`` for chance.

    ``stop(state)``, asked before every action, ends the play early where it says so.
    ``watch(seat, before, after)`` is told of every action played, chance included.
    ``checked=False`` applies the actions without the legality check
    (:meth:`State.apply_unchecked`, for search over actions known to be legal).
    More than ``max_plies`` actions (``None``: no limit) raise :class:`NoEnd`.
    """
    plies = range(max_plies) if max_plies is not None else itertools.repeat(None)
    for _ in plies:
        players = state.current_players()
        if not players or stop is not None and stop(state):
            return state
        seat = players[0]
        if seat == CHANCE:
            action = sample_chance(state, rng)
        elif choose is None:
            action = random_action(state, seat, rng)
        else:
            action = choose(state, seat)
        after = state.apply(seat, action) if checked else state.apply_unchecked(seat, action)
        if watch is not None:
            watch(seat, state, after)
        state = after
    raise NoEnd(f"{state.game.id}: no end after {max_plies} plies")


def decided_words(details: Mapping[str, Any]) -> str:
    """How a match was decided, in words, from :meth:`State.result_details` (or the same dict
    from a relay or a saved record): "after extra time", "on penalties, 4–3", both, "at the
    turn limit (30 turns a side)", or ""."""
    words = []
    limit = details.get("turn_limit")
    if type(limit) is int:
        words.append(f"at the turn limit ({limit} turns a side)")
    if details.get("forfeit") is True:
        words.append("by forfeit")
    if details.get("extra_time") is True:
        words.append("after extra time")
    shootout = details.get("shootout")
    if isinstance(shootout, (list, tuple)) and len(shootout) == 2 and all(type(g) is int for g in shootout):
        high, low = max(shootout), min(shootout)
        words.append(f"on penalties, {high}–{low}")
    return ", ".join(words)


def result_words(winner: str | None, details: Any) -> str:
    """A result in words: "Away wins on penalties, 4–3", "a draw at the turn limit (5 turns a
    side)", "Home wins" (``winner``: the winning side's name, ``None`` for a draw; ``details``
    as :func:`decided_words` reads them, anything else read as none)."""
    how = decided_words(details) if isinstance(details, Mapping) else ""
    said = "a draw" if winner is None else f"{winner} wins"
    return f"{said} {how}" if how else said
