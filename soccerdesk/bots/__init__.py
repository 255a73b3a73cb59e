"""Computer players. A bot sees only its seat: it decides from ``state.determinize(seat, rng)``.

    >>> bot = make_bot("heuristic", "soccer-go")
    >>> action = bot.decide(state, seat, rng)

Names: ``random``, ``heuristic`` (one per game, in ``soccerdesk.bots.<game module>``),
and the difficulty levels in :data:`LEVELS`.

Every bot remembers the positions its match has been through, as its seat saw them
(:func:`position_key`), and never plays into a third occurrence of a position when another
legal action avoids it: a bot that is stuck tries something else.
"""

from __future__ import annotations

import importlib
import json
import random
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable
from typing import Any

from soccerdesk.rules import _MODULES as _RULE_MODULES
from soccerdesk.rules import GAMES, Action, IllegalAction, State

CLOCKS: dict[str, frozenset[str]] = {
    "pawn-soccer": frozenset({"turns"}),
    "soccero": frozenset({"turns_played", "turns_each"}),
}
"""Entries of a game's view that only count time. A position is the same position whatever
they say: the same pawns on the same squares at turn 40 and at turn 44 is a repetition."""

REPEATS_ALLOWED = 2
"""How often a position may occur before a bot avoids walking into it again (when it can)."""


def position_key(state: State, seat: int) -> str:
    """The position as ``seat`` knows it: the game's view for that seat (hidden cards stay
    hidden) and who is to decide, without the turn counters of :data:`CLOCKS`.

    For a game without hidden information (Pawn Soccer, Soccero) this is the full state
    apart from the clock; two equal states always give equal keys."""
    view = state._view(seat)
    clocks = CLOCKS.get(state.game.id)
    if clocks:
        view = {k: v for k, v in view.items() if k not in clocks}
    return json.dumps([state.current_players(), view], sort_keys=True, separators=(",", ":"))


class PositionMemory:
    """How often each position of one match occurred, from one seat's chair.

    :meth:`counts` replays the match's actions (its record) and counts the seat's
    :func:`position_key` of every position reached, the current one included. It keeps its
    place, so a bot asked move after move in the same match replays only the new actions.
    """

    __slots__ = ("seat", "_node", "_state", "_counts")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self._node: Any = None  # the match history (rules.api._History) counted up to
        self._state: State | None = None
        self._counts: Counter[str] = Counter()

    def counts(self, state: State) -> Counter[str]:
        history: Any = getattr(state, "_history", _UNKNOWN)
        if history is _UNKNOWN or getattr(state, "_info", None) is None:
            return Counter([position_key(state, self.seat)])  # a state made outside a match
        suffix: list[tuple[int, Action]] = []
        node = history
        known = self._node
        floor = 0 if known is None else known.length
        while node is not None and node is not known and node.length > floor:
            suffix.append((node.seat, node.action))
            node = node.previous
        if self._state is None or node is not known:  # another match, or the match was rewound
            start = state.game.new_match(seed=state.info.seed, **state.options)
            self._state, self._counts = start, Counter([position_key(start, self.seat)])
            suffix = state.history()[::-1]
        replayed: State | None = self._state
        try:
            for seat, action in reversed(suffix):
                replayed = replayed.apply_unchecked(seat, action)  # type: ignore[union-attr]
                self._counts[position_key(replayed, self.seat)] += 1
        except Exception:  # noqa: BLE001 - the actions do not fit this game's rules from the start
            replayed = None
        if replayed is None or suffix and position_key(replayed, self.seat) != position_key(state, self.seat):
            # The record does not lead to this state (a position set up by hand): trust only it.
            self._node, self._state = None, None
            return Counter([position_key(state, self.seat)])
        self._node, self._state = history, replayed
        return self._counts

    def fresh_actions(self, state: State, world: State, legal: list[Action]) -> list[Action]:
        """The actions of ``legal`` that do not make a position occur a third time (judged in
        ``world``, a determinization for this seat); all of ``legal`` when none avoids it."""
        counts = self.counts(state)
        worn = {key for key, n in counts.items() if n >= REPEATS_ALLOWED}
        if not worn:
            return legal
        fresh = [a for a in legal if position_key(world.apply_unchecked(self.seat, a), self.seat) not in worn]
        return fresh or legal


_UNKNOWN = object()


def avoidable_repetitions(state: State) -> int:
    """How often, in the match that led to ``state``, a seat's action made a position occur a
    third time (or more) while another legal action would not have (positions counted by
    :func:`position_key` from the acting seat's chair, the same count a bot keeps)."""
    game = state.game
    replayed = game.new_match(seed=state.info.seed, **state.options)
    counts: tuple[Counter[str], Counter[str]] = (Counter(), Counter())
    for seat in (0, 1):
        counts[seat][position_key(replayed, seat)] += 1
    found = 0
    for seat, action in state.history():
        after = replayed.apply_unchecked(seat, action)
        if seat >= 0:
            mine = counts[seat]
            if mine[position_key(after, seat)] >= REPEATS_ALLOWED:
                others = (a for a in replayed.legal_actions(seat) if a != action)
                if any(mine[position_key(replayed.apply_unchecked(seat, a), seat)] < REPEATS_ALLOWED for a in others):
                    found += 1
        for watcher in (0, 1):
            counts[watcher][position_key(after, watcher)] += 1
        replayed = after
    return found


class Bot(ABC):
    """A computer player for one game.

    :meth:`decide` is the only entry point. It hands :meth:`choose` a
    *determinized* state, so no bot can read what its seat may not see.
    """

    name: str = "bot"

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self._memories: dict[int, PositionMemory] = {}

    def decide(self, state: State, seat: int, rng: random.Random) -> Action:
        legal = state.legal_actions(seat)  # raises IllegalAction when seat does not decide
        if len(legal) == 1:
            return legal[0]
        world = state.determinize(seat, rng)
        memory = self._memories.get(seat)
        if memory is None:
            memory = self._memories[seat] = PositionMemory(seat)
        candidates = memory.fresh_actions(state, world, legal)
        if len(candidates) == 1:
            return candidates[0]
        action = self.choose(world, seat, candidates, rng)
        if action not in candidates:
            if action not in legal:
                raise IllegalAction(f"bot {self.name} chose {action}, which is not legal")
            # A rule of thumb that looked past the actions it was offered: it would repeat.
            action = candidates[rng.randrange(len(candidates))]
        return action

    @abstractmethod
    def choose(self, state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
        """Pick one of ``legal`` (two or more). ``state`` is a determinization for ``seat``."""


class RandomBot(Bot):
    """Uniformly random legal actions: the floor every other bot must beat."""

    name = "random"

    def choose(self, state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
        return legal[rng.randrange(len(legal))]


def next_best(legal: list[Any], value: Callable[[Any], float], count: int, margin: float) -> list[Any]:
    """The ``count`` best actions of ``legal`` by ``value`` below the best (those tied with it
    left out; ties among them in ``legal``'s order), each at most ``margin`` worse than the best:
    a heuristic's near misses, the slips an ``easy`` bot makes."""
    scored = sorted(((value(a), i) for i, a in enumerate(legal)), key=lambda t: (-t[0], t[1]))
    best = scored[0][0]
    worse = [(v, i) for v, i in scored if v < best - 1e-9]
    return [legal[i] for v, i in worse[:count] if v >= best - margin]


BotFactory = Callable[[str], Bot]

LEVELS: dict[str, BotFactory] = {}
"""Difficulty levels (``easy``, ``normal``, ``hard``, ``expert``) registered by the search module."""


def _heuristic(game_id: str) -> Bot:
    module_name = _RULE_MODULES[game_id].replace("soccerdesk.rules.", "soccerdesk.bots.")
    module = importlib.import_module(module_name)
    bot: Bot = module.HeuristicBot(game_id)
    return bot


def bot_names() -> list[str]:
    _load_levels()
    return ["random", "heuristic", *LEVELS]


def _load_levels() -> None:
    try:
        importlib.import_module("soccerdesk.bots.levels")
    except ModuleNotFoundError as exc:  # levels arrive with the search bots
        if exc.name != "soccerdesk.bots.levels":
            raise


def make_bot(name: str, game_id: str) -> Bot:
    """A new bot of this name for this game. Unknown names raise ValueError."""
    if game_id not in GAMES:
        raise ValueError(f"no game {game_id!r}; known games: {', '.join(GAMES)}")
    if name == "random":
        return RandomBot(game_id)
    if name == "heuristic":
        return _heuristic(game_id)
    _load_levels()
    if name in LEVELS:
        return LEVELS[name](game_id)
    raise ValueError(f"no bot {name!r}; known bots: {', '.join(bot_names())}")


__all__ = [
    "CLOCKS",
    "LEVELS",
    "Bot",
    "PositionMemory",
    "RandomBot",
    "avoidable_repetitions",
    "bot_names",
    "make_bot",
    "position_key",
]
