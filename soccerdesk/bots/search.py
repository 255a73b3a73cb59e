"""A search bot for every game: information-set Monte Carlo tree search over the rules contract.

Each iteration plays one imagined continuation of the match:

1. **Determinize**: a fresh world the seat cannot tell apart from the real one,
   ``state.determinize(seat, rng)`` (hidden hands, deck order, a pending secret pick
   resampled). The tree is shared by all worlds (single-observer ISMCTS): it is keyed by
   the actions taken, and an action's statistics count how often it was *available*, so
   actions that exist only in some worlds are not unfairly favoured.
2. **Select** down the tree. A seat's decision uses UCB1 with availability counts; a
   die, draw or toss is *sampled by its probability* and gets one child per outcome;
   a simultaneous secret choice (``current_players() == (0, 1)``) is handled by
   *decoupled UCT*: each seat selects from its own statistics without knowing the other's
   pick, and only then are both picks applied.
3. **Expand** one new action, chosen first by the game's heuristic (the rollout policy),
   and at most ``action_cap`` actions per node — long turns made of small steps (Soccero)
   stay searchable.
4. **Roll out** with the rollout policy (the game's heuristic, with some random moves)
   for at most ``rollout_turns`` changes of the deciding seat, then **evaluate**: a
   finished match is worth +1 / -1 / 0; an unfinished one is the goal difference plus,
   when the game's heuristic bot offers ``evaluate(state, seat)``, its judgement.
5. **Back up** the value along the path.

The decision is the most visited action; at a simultaneous secret choice it is drawn in
proportion to the visits (a mixed strategy), because a predictable pick is easy to read.

A decision is bounded by ``time_budget`` seconds of wall-clock time (measured from the
call to :meth:`SearchBot.decide`) and by ``max_iterations``. Tests give no time budget and
an iteration cap: then the same view and the same ``rng`` always give the same decision.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Protocol

from soccerdesk.bots import Bot, RandomBot
from soccerdesk.rules import CHANCE, Action, State, sample_chance

Policy = Callable[[State, int, list[Action], random.Random], Action]
"""A rollout policy: pick one of ``legal`` (two or more) for ``seat`` in ``state``."""

Evaluation = Callable[[State], float]
"""The value of an unfinished state for seat 0, in ``[-1, 1]`` (seat 1's value is its negation)."""


class _Evaluator(Protocol):
    def evaluate(self, state: State, seat: int) -> float: ...


@dataclass(frozen=True, slots=True)
class SearchSettings:
    """How hard and how long the search thinks. Levels and per-game tuning set these.

    ``time_budget`` is the wall-clock limit of one decision in seconds (``None``: no clock,
    then ``max_iterations`` must be set). ``exploration`` is the UCB1 constant on values in
    ``[-1, 1]``. ``rollout_turns`` counts changes of the deciding seat before the rollout
    stops and the position is evaluated; ``rollout_plies`` caps its actions (chance included).
    ``rollout_random`` is the share of random moves in rollouts. ``action_cap`` limits how many
    actions of one node the tree considers. ``goal_weight`` scales the goal difference in the
    evaluation of an unfinished match. The policy's own pick is kept unless another action
    has more than ``1 / keep_policy_pick`` times its visits. ``reserve`` is the share of the budget kept back
    for the last iteration, the final choice and the caller's own work.
    """

    time_budget: float | None = 1.0
    max_iterations: int | None = None
    exploration: float = 0.7
    rollout_turns: int = 6
    rollout_plies: int = 200
    rollout_random: float = 0.1
    action_cap: int = 24
    goal_weight: float = 0.5
    mixed_secret_choice: bool = True
    keep_policy_pick: float = 0.8
    reserve: float = 0.1

    def __post_init__(self) -> None:
        if self.time_budget is None and self.max_iterations is None:
            raise ValueError("a search needs a time budget or an iteration cap")

    def with_changes(self, **changes: object) -> SearchSettings:
        return replace(self, **changes)  # type: ignore[arg-type]


class _Edge:
    """Statistics of one action at one node: visits, value sum (for the seat that acted)
    and how often the action was available when the node was visited."""

    __slots__ = ("visits", "value", "available", "child")

    def __init__(self) -> None:
        self.visits = 0
        self.value = 0.0
        self.available = 0
        self.child: _Node | None = None


class _Node:
    """A point of the tree, reached by a sequence of actions.

    ``edges`` holds the statistics of a single seat's actions keyed by ``(seat, action)``;
    at a simultaneous choice both seats keep their own edges (decoupled UCT) and the child
    reached by the pair of picks sits in ``joint``; chance outcomes sit in ``outcomes``.
    ``allowed`` is the capped set of actions this node considers, fixed on its first visit;
    ``preferred`` the rollout policy's pick there, tried first.
    """

    __slots__ = ("edges", "joint", "outcomes", "allowed", "preferred")

    def __init__(self) -> None:
        self.edges: dict[tuple[int, Action], _Edge] = {}
        self.joint: dict[tuple[Action, Action], _Node] = {}
        self.outcomes: dict[Action, _Node] = {}
        self.allowed: dict[int, set[Action]] = {}
        self.preferred: dict[int, Action] = {}


class _OutOfTime(Exception):
    pass


_NOTHING = object()


def goal_value(state: State, goal_weight: float) -> float:
    """Seat 0's value of ``state`` from the score alone: +1/-1/0 when the match is over,
    otherwise ``tanh(goal_weight * goal difference)``."""
    if state.is_terminal():
        winner = state.winner
        return 0.0 if winner is None else (1.0 if winner == 0 else -1.0)
    a, b = state.score
    return math.tanh(goal_weight * (a - b))


def random_policy(state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
    """Uniformly random legal actions: the fallback rollout policy."""
    return legal[rng.randrange(len(legal))]


class SearchBot(Bot):
    """Information-set MCTS for any game of the rules contract (see the module docstring).

    ``policy`` is the rollout and expansion policy (usually the game's heuristic bot's
    ``choose``); ``evaluation`` judges unfinished positions for seat 0 and is blended with
    the goal difference. Both default to what the game offers: a missing heuristic bot
    falls back to random rollouts and the score alone.
    """

    name = "search"

    def __init__(
        self,
        game_id: str,
        settings: SearchSettings,
        policy: Policy | None = None,
        evaluation: Evaluation | None = None,
        name: str = "search",
    ) -> None:
        super().__init__(game_id)
        self.settings = settings
        self.policy = policy or random_policy
        self.evaluation = evaluation
        self.name = name
        self._deadline: float | None = None
        self.last_iterations = 0
        """Iterations of the last search (for benchmarks and tests)."""
        self.last_statistics: dict[Action, tuple[int, float]] = {}
        """Root actions of the last search: visits and mean value for the deciding seat."""

    # --- the clock ------------------------------------------------------------------

    def decide(self, state: State, seat: int, rng: random.Random) -> Action:
        """As :meth:`Bot.decide`; the time budget counts from this call."""
        self._deadline = self._deadline_from_now()
        try:
            return super().decide(state, seat, rng)
        finally:
            self._deadline = None

    def _deadline_from_now(self) -> float | None:
        budget = self.settings.time_budget
        return None if budget is None else time.perf_counter() + budget * (1.0 - self.settings.reserve)

    def _check_clock(self) -> None:
        if self._deadline is not None and time.perf_counter() >= self._deadline:
            raise _OutOfTime

    # --- the search -----------------------------------------------------------------

    def choose(self, state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
        if self._deadline is not None:  # called by decide(), whose clock is running
            return self._search(state, seat, legal, rng)
        self._deadline = self._deadline_from_now()
        try:
            return self._search(state, seat, legal, rng)
        finally:
            self._deadline = None

    def _search(self, state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
        root = _Node()
        root.preferred[seat] = self.policy(state, seat, legal, rng)
        root.allowed[seat] = self._candidates(root, state, seat, legal, rng)
        cap = self.settings.max_iterations
        iterations = 0
        while cap is None or iterations < cap:
            if iterations and self._deadline is not None and time.perf_counter() >= self._deadline:
                break
            world = state.determinize(seat, rng)
            try:
                self._iterate(root, world, rng)
            except _OutOfTime:
                break
            iterations += 1
        self.last_iterations = iterations
        self.last_statistics = {
            action: (edge.visits, edge.value / edge.visits)
            for (who, action), edge in root.edges.items()
            if who == seat and edge.visits
        }
        return self._final_choice(root, state, seat, legal, rng)

    def _final_choice(self, root: _Node, state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
        edges = [(a, root.edges.get((seat, a))) for a in legal if a in root.allowed[seat]]
        visited = [(a, e) for a, e in edges if e is not None and e.visits > 0]
        preferred = root.preferred[seat]
        if not visited:  # not one iteration finished in time: trust the policy
            return preferred
        if self.settings.mixed_secret_choice and state.current_players() == (0, 1):
            # A secret pick drawn in proportion to visits; rarely tried picks are noise.
            best = max(e.visits for _, e in visited)
            pool = [(a, e.visits) for a, e in visited if e.visits * 4 >= best]
            total = sum(v for _, v in pool)
            r = rng.random() * total
            for action, v in pool:
                r -= v
                if r < 0:
                    return action
            return pool[-1][0]
        action, edge = max(visited, key=lambda ae: (ae[1].visits, ae[1].value / ae[1].visits))
        kept = root.edges.get((seat, preferred))
        if kept is not None and kept.visits >= self.settings.keep_policy_pick * edge.visits:
            return preferred  # the search found nothing clearly better than the policy's pick
        return action

    def _iterate(self, root: _Node, world: State, rng: random.Random) -> None:
        path: list[tuple[_Edge, int]] = []
        node = root
        state = world
        expanded = False
        while not expanded:
            players = state.current_players()
            if not players:
                break
            if players == (CHANCE,):
                outcome = sample_chance(state, rng)
                child = node.outcomes.get(outcome)
                if child is None:
                    child = node.outcomes[outcome] = _Node()
                node = child
                state = state.apply_unchecked(CHANCE, outcome)
                continue
            self._check_clock()
            picks: list[tuple[int, Action]] = []
            for seat in players:
                action, edge, new = self._select(node, state, seat, rng)
                picks.append((seat, action))
                path.append((edge, seat))
                expanded = expanded or new
            for seat, action in picks:
                state = state.apply_unchecked(seat, action)
            if len(picks) == 1:
                edge = path[-1][0]
                if edge.child is None:
                    edge.child = _Node()
                node = edge.child
            else:
                key = (picks[0][1], picks[1][1])
                child = node.joint.get(key)
                if child is None:
                    child = node.joint[key] = _Node()
                node = child
        value = self._rollout(state, rng)
        for edge, seat in path:
            edge.visits += 1
            edge.value += value if seat == 0 else -value

    def _select(self, node: _Node, state: State, seat: int, rng: random.Random) -> tuple[Action, _Edge, bool]:
        """One seat's pick at ``node`` by UCB1 with availability; ``True`` if it was untried."""
        legal = state.legal_actions(seat)
        allowed = node.allowed.get(seat)
        if allowed is None:
            allowed = node.allowed[seat] = self._candidates(node, state, seat, legal, rng)
        considered = [a for a in legal if a in allowed]
        if not considered:  # this world offers none of the actions seen before
            node.preferred.pop(seat, None)
            allowed.update(self._candidates(node, state, seat, legal, rng))
            considered = [a for a in legal if a in allowed]
        untried: list[tuple[Action, _Edge]] = []
        best: tuple[float, Action, _Edge] | None = None
        c = self.settings.exploration
        for action in considered:
            edge = node.edges.get((seat, action))
            if edge is None:
                edge = node.edges[(seat, action)] = _Edge()
            edge.available += 1
            if edge.visits == 0:
                untried.append((action, edge))
                continue
            ucb = edge.value / edge.visits + c * math.sqrt(math.log(edge.available) / edge.visits)
            if best is None or ucb > best[0]:
                best = (ucb, action, edge)
        if untried:
            # The policy's own pick first, then the rest in random order.
            if len(considered) > 1:
                preferred = self._preferred(node, state, seat, considered, rng)
                for action, edge in untried:
                    if action == preferred:
                        return action, edge, True
            action, edge = untried[rng.randrange(len(untried))]
            return action, edge, True
        assert best is not None
        return best[1], best[2], False

    def _preferred(self, node: _Node, state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
        """The policy's pick at ``node`` among ``legal`` (two or more), asked once per node."""
        found = node.preferred.get(seat, _NOTHING)
        if found is _NOTHING or found not in legal:
            found = node.preferred[seat] = self.policy(state, seat, legal, rng)
        return found

    def _candidates(self, node: _Node, state: State, seat: int, legal: list[Action], rng: random.Random) -> set[Action]:
        """At most ``action_cap`` of ``legal``, the policy's pick always among them."""
        cap = self.settings.action_cap
        if len(legal) <= cap:
            return set(legal)
        preferred = self._preferred(node, state, seat, legal, rng)
        others = [a for a in legal if a != preferred]
        return {preferred, *rng.sample(others, cap - 1)}

    def _rollout(self, state: State, rng: random.Random) -> float:
        s = self.settings
        turns = 0
        last_seat: int | None = None
        for _ in range(s.rollout_plies):
            players = state.current_players()
            if not players:
                break
            if players == (CHANCE,):
                state = state.apply_unchecked(CHANCE, sample_chance(state, rng))
                continue
            if players != (last_seat,):
                turns += 1
                if turns > s.rollout_turns:
                    break
                last_seat = players[0] if len(players) == 1 else None
            if self._deadline is not None and time.perf_counter() >= self._deadline:
                break  # out of time: judge the position reached so far
            # Simultaneous picks are all made from the same state, before any is applied.
            picks = [(seat, self._rollout_pick(state, seat, rng)) for seat in players]
            for seat, action in picks:
                state = state.apply_unchecked(seat, action)
        return self._value(state)

    def _rollout_pick(self, state: State, seat: int, rng: random.Random) -> Action:
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        if rng.random() < self.settings.rollout_random:
            return legal[rng.randrange(len(legal))]
        return self.policy(state, seat, legal, rng)

    def _value(self, state: State) -> float:
        score = goal_value(state, self.settings.goal_weight)
        if state.is_terminal() or self.evaluation is None:
            return score
        judged = max(-1.0, min(1.0, self.evaluation(state)))
        return max(-1.0, min(1.0, score + (1.0 - abs(score)) * judged))


def heuristic_parts(bot: Bot | None) -> tuple[Policy, Evaluation | None]:
    """The rollout policy and evaluation a heuristic bot offers.

    Its ``choose`` is the policy (random play if there is no bot). If it has
    ``evaluate(state, seat) -> float`` (in ``[-1, 1]`` for ``seat``), that is the evaluation.
    """
    if bot is None or isinstance(bot, RandomBot):
        return random_policy, None
    evaluator = getattr(bot, "evaluate", None)
    evaluation: Evaluation | None = None
    if callable(evaluator):
        judge: _Evaluator = bot  # type: ignore[assignment]

        def evaluation(state: State) -> float:
            return judge.evaluate(state, 0)

    return bot.choose, evaluation
