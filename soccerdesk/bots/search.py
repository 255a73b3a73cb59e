"""A search bot for every game: information-set Monte Carlo tree search over the rules contract.

Each iteration plays one imagined continuation of the match:

1. **Determinize**: a fresh world the seat cannot tell apart from the real one,
   ``state.determinize(seat, rng)`` (hidden hands, deck order, a pending secret pick
   resampled), or as the bot's :class:`Belief` draws it from what the opponent's play has
   shown (Big Time Soccer: its decisions, as the heuristic holding each guessed hand would
   have made them). The tree is shared by all worlds (single-observer ISMCTS): it is keyed by
   the actions taken, and an action's statistics count how often it was *available*, so
   actions that exist only in some worlds are not unfairly favoured.
2. **Select** down the tree. A seat's decision uses UCB1 with availability counts; a
   die, draw or toss is *sampled by its probability* and gets one child per outcome;
   a simultaneous secret choice (``current_players() == (0, 1)``) is handled by
   *decoupled UCT*: each seat selects from its own statistics without knowing the other's
   pick, and only then are both picks applied (a pick that acts at once, like a Soccer-Go
   power card, goes first and public; a pick it made impossible is dropped).
3. **Expand** one new action, chosen first by the game's heuristic (the rollout policy),
   and at most ``action_cap`` actions per node — long turns made of small steps (Soccero)
   stay searchable, one step per tree level.
4. **Roll out** with the rollout policy (the game's heuristic, with some random moves)
   for at most ``rollout_turns`` changes of the deciding seat, then **evaluate**: a
   finished match is worth +1 / -1 / 0; an unfinished one ``tanh(goal_weight * advantage)``,
   where the advantage is seat 0's lead in goals, or the game's own judgement of it in
   goal-sized units when one is given (the ball's position, possession, cards in hand).
5. **Back up** the value along the path.

The decision is the heuristic's own pick unless the most visited action beats it clearly
(by ``confidence`` standard errors and ``min_gain``): a second of rollouts is noisy, and a
search that follows noise plays worse than the heuristic it starts from. At a secret pick
the heuristic's pick is itself drawn from its mixed strategy, so the bot stays hard to read.

A seat that must make its secret pick after the opponent already made theirs sees that
pick resampled by ``determinize`` (the game decides how); the search then answers that
spread of picks rather than a decoupled opponent.

Where a game's heuristic already plays well, a full tree learns less in a fraction of a
second than the heuristic knows, and its noise overrules good moves. There the tree is cut to
one level (``max_depth = 1``): the *rollout algorithm*, which tries each action and lets the
heuristic play both sides on from there, so the bot answers how the opponent is likely to
reply; with ``paired`` every action is tried on the same sampled world and the same dice.

A decision is bounded by ``time_budget`` seconds of wall-clock time (measured from the
call to :meth:`SearchBot.decide`) and by ``max_iterations``. Tests give no time budget and
an iteration cap: then the same view and the same ``rng`` always give the same decision.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace

from soccerdesk.bots import Bot, RandomBot
from soccerdesk.rules import CHANCE, Action, State, sample_chance

Policy = Callable[[State, int, list[Action], random.Random], Action]
"""A rollout policy: pick one of ``legal`` (two or more) for ``seat`` in ``state``."""

Evaluation = Callable[[State, int], float]
"""Seat 0's advantage in an unfinished state, in goals: the goal difference plus the worth
of the position (a ball about to be shot might be worth +0.4), judged from the chair of the
seat given (the one searching: in a determinized world the opponent's cards are a guess, so a
game may price them by what that seat knows, as its heuristic does)."""

Mixer = Callable[[State, int, list[Action], random.Random], Action | None]
"""A game's own answer at some decisions (a mixed face-down pick, say), or ``None`` to search."""

Shortlist = Callable[[State, int, list[Action]], list[Action]]
"""Legal actions ordered from the most to the least promising by a game's rules of thumb."""

Stop = Callable[[State, State], bool]
"""``stop(start, now)``: the rollout that began at ``start`` has reached a position worth
judging (the end of a possession, say)."""


@dataclass(frozen=True, slots=True)
class SearchSettings:
    """How hard and how long the search thinks. Levels and per-game tuning set these.

    ``time_budget`` is the wall-clock limit of one decision in seconds (``None``: no clock,
    then ``max_iterations`` must be set). ``exploration`` is the UCB1 constant on values in
    ``[-1, 1]``. ``rollout_turns`` counts changes of the deciding seat before the rollout
    stops and the position is evaluated; ``rollout_plies`` caps its actions (chance included).
    ``rollout_random`` is the share of random moves in rollouts. ``action_cap`` limits how many
    actions of one node the tree considers. ``goal_weight`` scales the goal difference in the
    evaluation of an unfinished match. The policy's own pick gets a bonus of ``policy_bias``
    (fading with visits) in the tree, at least ``policy_share`` of the visits of the most
    visited action at the root, and is the decision unless the most visited action
    is better by ``confidence`` standard errors and by at least ``min_gain``, with at least
    ``min_visits`` visits; below the root the policy is asked for its
    pick only when ``policy_in_tree`` (a slow heuristic is better kept for the root).
    ``rollout_turns = 0`` judges each new node by the evaluation alone. ``reserve`` is the share of the budget kept back
    for the last iteration, the final choice and the caller's own work.

    ``max_depth`` limits the tree to that many seat decisions below the root; past it, the
    rollout policy plays on. With ``max_depth = 1`` the search is the *rollout algorithm*:
    each root action is judged by how the match goes when both sides then follow the
    policy (an opponent's secret pick at the root is drawn from the policy too), which
    improves on the policy when the policy models the opponent well, and spends no
    iterations on replies the policy would never play.

    ``paired`` makes that one-deep search compare the root actions on common random
    numbers: each round draws one world and one seed of chance, then plays every candidate
    action in it, so the actions are told apart by what they do, not by the luck of
    different dice. An iteration is then one rollout; the decision is the policy's pick
    unless another action's mean lead over it in the same rounds is ``confidence`` standard
    errors (and ``min_gain``) above nothing. With ``stratify_first_roll`` the first die roll
    (a chance node whose outcomes are all equally likely) after each root action is not drawn
    at random but stratified over the rounds (round ``r`` of ``n`` faces gets face ``(r + k) mod
    n``), so a few rounds already weigh every face of that die by its exact chance; the later
    rolls of a round come from a stream of their own, so the k-th roll after every action is
    the same even when the actions lead to different card draws. With ``narrow_after`` (a
    number of rounds) the paired search plays every candidate that many rounds, then spends
    the rest of its iterations on the only comparison the decision rests on: the policy's
    pick against the action leading it (or, when the pick leads, the runner-up).
    """

    time_budget: float | None = 1.0
    max_iterations: int | None = None
    exploration: float = 0.7
    rollout_turns: int = 6
    rollout_plies: int = 200
    rollout_random: float = 0.1
    action_cap: int = 24
    goal_weight: float = 0.5
    confidence: float = 1.6
    policy_share: float = 0.3
    min_gain: float = 0.02
    min_visits: int = 8
    policy_in_tree: bool = True
    policy_bias: float = 0.1
    reserve: float = 0.15
    max_depth: int | None = None
    paired: bool = False
    stratify_first_roll: bool = False
    narrow_after: int = 0

    def __post_init__(self) -> None:
        if self.time_budget is None and self.max_iterations is None:
            raise ValueError("a search needs a time budget or an iteration cap")

    def with_changes(self, **changes: object) -> SearchSettings:
        return replace(self, **changes)  # type: ignore[arg-type]

    def clear_gain(self, gain: float, error: float) -> bool:
        """Whether a mean ``gain`` over the policy's pick, with standard error ``error``, is
        enough to leave the pick: ``confidence`` standard errors and ``min_gain`` above nothing."""
        return gain > max(self.confidence * error, self.min_gain)


class _Edge:
    """Statistics of one action at one node: visits, value sum (for the seat that acted)
    and how often the action was available when the node was visited."""

    __slots__ = ("visits", "value", "squares", "available", "child")

    def __init__(self) -> None:
        self.visits = 0
        self.value = 0.0
        self.squares = 0.0
        self.available = 0
        self.child: _Node | None = None

    def mean(self) -> float:
        return self.value / self.visits

    def variance(self) -> float:
        """Sample variance of the values backed up through this edge (needs two visits)."""
        n = self.visits
        return max(0.0, (self.squares - self.value * self.value / n) / (n - 1))


class _Node:
    """A point of the tree, reached by a sequence of actions.

    ``edges`` holds the statistics of a single seat's actions keyed by ``(seat, action)``;
    at a simultaneous choice both seats keep their own edges (decoupled UCT) and the child
    reached by the picks that were applied sits in ``joint``; chance outcomes sit in ``outcomes``.
    ``allowed`` is the capped set of actions this node considers, fixed on its first visit;
    ``preferred`` the rollout policy's pick there, tried first.
    """

    __slots__ = ("edges", "joint", "outcomes", "allowed", "preferred")

    def __init__(self) -> None:
        self.edges: dict[tuple[int, Action], _Edge] = {}
        self.joint: dict[tuple[tuple[int, Action], ...], _Node] = {}
        self.outcomes: dict[Action, _Node] = {}
        self.allowed: dict[int, set[Action]] = {}
        self.preferred: dict[int, Action] = {}


class _OutOfTime(Exception):
    pass


_NOTHING = object()

MIN_RESERVE = 0.03
"""Seconds always kept back from a budget: a busy machine may pause the thread that long."""


def goal_difference(state: State, seat: int = 0) -> float:
    """Seat 0's lead in goals: the evaluation when a game offers none of its own."""
    a, b = state.score
    return float(a - b)


def state_value(state: State, evaluation: Evaluation, goal_weight: float, seat: int = 0) -> float:
    """Seat 0's value of ``state`` in ``[-1, 1]``: +1/-1/0 when the match is over,
    otherwise ``tanh(goal_weight * evaluation(state))``."""
    if state.is_terminal():
        winner = state.winner
        return 0.0 if winner is None else (1.0 if winner == 0 else -1.0)
    return math.tanh(goal_weight * evaluation(state, seat))


def random_policy(state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
    """Uniformly random legal actions: the fallback rollout policy."""
    return legal[rng.randrange(len(legal))]


Worlds = Callable[[random.Random], State]
"""Draws one world (a full state) the searching seat cannot tell apart from its view."""


class Belief:
    """What a search bot has learnt in its match about what it cannot see.

    The default knows nothing beyond the seat's view: a world is ``state.determinize``, every
    hidden card as likely as the public counts make it. A game may know better: an opponent
    who let a pass go most likely held nothing to stop it. :meth:`chose` is told of every
    decision the bot makes through :meth:`SearchBot.decide` (in a world of its view; the
    decisions with a single legal action and those the bot's repetition rule changed
    included); :meth:`worlds` gives, once per searched decision, the way to draw its worlds.
    """

    def chose(self, state: State, seat: int, action: Action) -> None:
        """``seat`` decided ``action`` in ``state`` (a world of its view)."""

    def worlds(self, state: State, seat: int) -> Worlds:
        return lambda rng: state.determinize(seat, rng)


class SearchBot(Bot):
    """Information-set MCTS for any game of the rules contract (see the module docstring).

    ``policy`` is the rollout and expansion policy (usually the game's heuristic bot's
    ``choose``); ``evaluation`` judges unfinished positions (seat 0's advantage in goals).
    Without them the search rolls out at random and judges by the goal difference.
    ``stop`` ends a rollout early, where the game says a position is worth judging.
    ``mixer`` answers the decisions it knows better than a search (face-down picks, which a
    strong player mixes: :class:`soccerdesk.bots.soccer_go.GuessingPlayer`).
    Where ``worth_searching`` says no, the policy decides alone (no search, no wait).
    ``shortlist`` orders a node's actions best first by the game's own judgement; then the
    ``action_cap`` actions a node considers are the first of that list, not a random sample.
    ``belief`` draws the worlds searched (by default every hidden card as likely as the
    public counts make it); it is told of each decision, so it belongs to one bot and match.
    """

    name = "search"

    def __init__(
        self,
        game_id: str,
        settings: SearchSettings,
        policy: Policy | None = None,
        evaluation: Evaluation | None = None,
        name: str = "search",
        stop: Stop | None = None,
        mixer: Mixer | None = None,
        worth_searching: Callable[[State], bool] | None = None,
        shortlist: Shortlist | None = None,
        belief: Belief | None = None,
    ) -> None:
        super().__init__(game_id)
        self.settings = settings
        self.policy = policy or random_policy
        self.evaluation = evaluation or goal_difference
        self.stop = stop
        self.mixer = mixer
        self.worth_searching = worth_searching
        self.shortlist = shortlist
        self.belief = belief or Belief()
        self.name = name
        self._searcher = 0
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
            action = super().decide(state, seat, rng)
        finally:
            self._deadline = None
        # The belief is told in a world of the seat's view, never the match itself: it must not
        # learn what the seat cannot see (a stream of its own, so the bot's draws are unchanged).
        self.belief.chose(state.determinize(seat, random.Random(state.ply)), seat, action)
        return action

    def _deadline_from_now(self) -> float | None:
        budget = self.settings.time_budget
        if budget is None:
            return None
        return time.perf_counter() + budget - max(budget * self.settings.reserve, MIN_RESERVE)

    def _check_clock(self) -> None:
        if self._deadline is not None and time.perf_counter() >= self._deadline:
            raise _OutOfTime

    # --- the search -----------------------------------------------------------------

    def choose(self, state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
        if self.mixer is not None:
            picked = self.mixer(state, seat, legal, rng)
            if picked is not None:
                return picked
        if self.worth_searching is not None and not self.worth_searching(state):
            return self.policy(state, seat, legal, rng)
        if self._deadline is not None:  # called by decide(), whose clock is running
            return self._search(state, seat, legal, rng)
        self._deadline = self._deadline_from_now()
        try:
            return self._search(state, seat, legal, rng)
        finally:
            self._deadline = None

    def _search(self, state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
        self._searcher = seat
        if self.settings.paired:
            return self._search_paired(state, seat, legal, rng)
        root = _Node()
        root.preferred[seat] = self.policy(state, seat, legal, rng)
        root.allowed[seat] = self._candidates(root, state, seat, legal, rng)
        cap = self.settings.max_iterations
        iterations = 0
        worlds = self.belief.worlds(state, seat)
        while cap is None or iterations < cap:
            if iterations and self._deadline is not None and time.perf_counter() >= self._deadline:
                break
            world = worlds(rng)
            try:
                self._iterate(root, world, seat, rng)
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
        """The policy's pick, unless the most visited action beats it with confidence.

        Rollouts are noisy and a second is short: an action is preferred to the heuristic's
        only when its mean value is higher by ``confidence`` standard errors. At a secret
        pick this keeps the heuristic's mixed strategy unless the search finds a clear gain.
        """
        preferred = root.preferred[seat]
        kept = root.edges.get((seat, preferred))
        visited = [(a, e) for a in legal if (e := root.edges.get((seat, a))) is not None and e.visits > 0]
        if kept is None or kept.visits < 2 or not visited:
            return preferred  # too little was learnt to overrule the policy
        action, best = max(visited, key=lambda ae: (ae[1].visits, ae[1].mean()))
        s = self.settings
        if action == preferred or best.visits < max(2, s.min_visits):
            return preferred
        gain = best.mean() - kept.mean()
        error = math.sqrt(best.variance() / best.visits + kept.variance() / kept.visits)
        return action if s.clear_gain(gain, error) else preferred

    def _search_paired(self, state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
        """The one-deep search on common random numbers (``paired``; see the settings)."""
        root = _Node()
        preferred = root.preferred[seat] = self.policy(state, seat, legal, rng)
        allowed = self._candidates(root, state, seat, legal, rng)
        candidates = [a for a in legal if a in allowed]
        cap = self.settings.max_iterations
        sums = dict.fromkeys(candidates, 0.0)
        leads = dict.fromkeys(candidates, 0.0)
        squares = dict.fromkeys(candidates, 0.0)
        played = dict.fromkeys(candidates, 0)
        rounds = iterations = 0
        narrow_after = self.settings.narrow_after
        first_face = rng.randrange(720720) if self.settings.stratify_first_roll else 0  # 720720: divisible by 1..16
        worlds = self.belief.worlds(state, seat)
        while cap is None or rounds == 0 or iterations + len(candidates) <= cap:
            if rounds and self._deadline is not None and time.perf_counter() >= self._deadline:
                break
            world = worlds(rng)
            seed = rng.getrandbits(64)
            face = rounds + first_face if self.settings.stratify_first_roll else None
            try:
                values = {a: self._value_after(world, seat, a, random.Random(seed), face) for a in candidates}
            except _OutOfTime:
                break  # an unfinished round would compare the actions on different luck
            if rounds and self._deadline is not None and time.perf_counter() >= self._deadline:
                break  # the clock may have cut this round's last rollouts short: not a fair comparison
            rounds += 1
            iterations += len(candidates)
            base = values[preferred]
            for a, v in values.items():
                sums[a] += v
                leads[a] += v - base
                squares[a] += (v - base) ** 2
                played[a] += 1
            if rounds == narrow_after and len(candidates) > 2:
                rival = max((a for a in candidates if a != preferred), key=lambda a: leads[a])
                candidates = [a for a in candidates if a in (preferred, rival)]
        self.last_iterations = iterations
        if not rounds:
            self.last_statistics = {}
            return preferred
        self.last_statistics = {a: (played[a], sums[a] / played[a]) for a in played}
        best = max(candidates, key=lambda a: (leads[a], a == preferred))
        if best == preferred or rounds < self.settings.min_visits:
            return preferred
        lead = leads[best] / rounds
        spread = max(0.0, squares[best] / rounds - lead * lead)
        error = math.sqrt(spread / max(1, rounds - 1))
        return best if self.settings.clear_gain(lead, error) else preferred

    def _value_after(
        self, world: State, seat: int, action: Action, rng: random.Random, face: int | None = None
    ) -> float:
        """``seat``'s value of playing ``action`` in ``world``, then following the policy
        (``face``: the stratum of the first die roll, see ``stratify_first_roll``)."""
        players = world.current_players()
        if len(players) > 1:  # a secret pick: the others pick by the policy, unseen
            picks = [(p, action if p == seat else self._rollout_pick(world, p, rng)) for p in players]
            after, _ = _apply_picks(world, picks)
        else:
            after = world.apply_unchecked(seat, action)
        self._check_clock()
        value = self._rollout(after, rng, face, None if face is None else random.Random(face))
        return value if seat == 0 else -value

    def _iterate(self, root: _Node, world: State, searcher: int, rng: random.Random) -> None:
        path: list[tuple[_Edge, int]] = []
        node = root
        state = world
        expanded = False
        depth_left = self.settings.max_depth
        while not expanded:
            players = state.current_players()
            if not players:
                break
            if depth_left is not None and players != (CHANCE,):
                if depth_left <= 0:
                    break  # below the tree's depth: the rollout plays on from here
                depth_left -= 1
            if players == (CHANCE,):
                outcome = sample_chance(state, rng)
                child = node.outcomes.get(outcome)
                if child is None:
                    child = node.outcomes[outcome] = _Node()
                node = child
                state = state.apply_unchecked(CHANCE, outcome)
                continue
            self._check_clock()
            if len(players) == 1:
                seat = players[0]
                action, edge, expanded = self._select(node, root, state, seat, rng)
                path.append((edge, seat))
                state = state.apply_unchecked(seat, action)
                if edge.child is None:
                    edge.child = _Node()
                node = edge.child
                continue
            # Decoupled UCT: every seat picks from its own statistics, then the picks apply.
            # In a depth-limited tree, the seats that are not searching pick by the policy.
            selected: list[tuple[int, Action, _Edge | None, bool]]
            if depth_left is not None:
                selected = [
                    (seat, *self._select(node, root, state, seat, rng))
                    if seat == searcher
                    else (seat, self._rollout_pick(state, seat, rng), None, False)
                    for seat in players
                ]
            else:
                selected = [(seat, *self._select(node, root, state, seat, rng)) for seat in players]
            state, applied = _apply_picks(state, [(seat, action) for seat, action, _, _ in selected])
            for seat, action, picked, new in selected:
                if picked is None:
                    continue  # the policy's pick for a seat the tree does not search
                if (seat, action) in applied:
                    path.append((picked, seat))
                    expanded = expanded or new
                else:
                    picked.available -= 1  # the pick never came to be played
            child = node.joint.get(applied)
            if child is None:
                child = node.joint[applied] = _Node()
            node = child
        value = self._rollout(state, rng)
        for edge, seat in path:
            edge.visits += 1
            edge.value += value if seat == 0 else -value
            edge.squares += value * value

    def _select(
        self, node: _Node, root: _Node, state: State, seat: int, rng: random.Random
    ) -> tuple[Action, _Edge, bool]:
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
        preferred = node.preferred.get(seat, _NOTHING)
        for action in considered:
            edge = node.edges.get((seat, action))
            if edge is None:
                edge = node.edges[(seat, action)] = _Edge()
            edge.available += 1
            if edge.visits == 0:
                untried.append((action, edge))
                continue
            ucb = edge.value / edge.visits + c * math.sqrt(math.log(edge.available) / edge.visits)
            if action == preferred:  # progressive bias towards the policy's pick
                ucb += self.settings.policy_bias / math.sqrt(edge.visits)
            if best is None or ucb > best[0]:
                best = (ucb, action, edge)
        if untried:
            # The policy's own pick first, then the rest in random order.
            if len(considered) > 1 and (node is root or self.settings.policy_in_tree):
                preferred = self._preferred(node, state, seat, considered, rng)
                for action, edge in untried:
                    if action == preferred:
                        return action, edge, True
            action, edge = untried[rng.randrange(len(untried))]
            return action, edge, True
        assert best is not None
        if node is root and preferred is not _NOTHING:
            # The final choice compares the best action with the policy's pick: keep enough
            # visits on the pick for that comparison to mean something.
            kept = node.edges.get((seat, preferred))
            most = max(node.edges[(seat, a)].visits for a in considered)
            if kept is not None and kept.visits < self.settings.policy_share * most:
                return preferred, kept, False
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
        if self.shortlist is not None:
            listed = self.shortlist(state, seat, legal)[:cap]
            preferred = node.preferred.get(seat, _NOTHING)
            return {*listed, preferred} if preferred in legal else set(listed)
        if node.preferred or self.settings.policy_in_tree:
            preferred = self._preferred(node, state, seat, legal, rng)
            others = [a for a in legal if a != preferred]
            return {preferred, *rng.sample(others, cap - 1)}
        return set(rng.sample(legal, cap))

    def _rollout(
        self, state: State, rng: random.Random, face: int | None = None, dice: random.Random | None = None
    ) -> float:
        s = self.settings
        turns = 0
        last_seat: int | None = None
        start = state
        for _ in range(s.rollout_plies):
            players = state.current_players()
            if not players or self.stop is not None and state is not start and self.stop(start, state):
                break
            if players == (CHANCE,):
                outcomes = state.chance_outcomes() if face is not None or dice is not None else None
                if outcomes is not None and len({p for _, p in outcomes}) == 1:
                    if face is not None:
                        # The first die roll, stratified: this round's face (see stratify_first_roll).
                        outcome = outcomes[face % len(outcomes)][0]
                        face = None
                    else:  # later rolls from their own stream: the k-th roll alike for every action
                        outcome = outcomes[dice.randrange(len(outcomes))][0]  # type: ignore[union-attr]
                else:
                    outcome = sample_chance(state, rng)
                state = state.apply_unchecked(CHANCE, outcome)
                continue
            if players != (last_seat,):
                turns += 1
                if turns > s.rollout_turns:
                    break
                last_seat = players[0] if len(players) == 1 else None
            if self._deadline is not None and time.perf_counter() >= self._deadline:
                break  # out of time: judge the position reached so far
            # Simultaneous picks are all made from the same state, before any is applied.
            state, _ = _apply_picks(state, [(seat, self._rollout_pick(state, seat, rng)) for seat in players])
        return state_value(state, self.evaluation, s.goal_weight, self._searcher)

    def _rollout_pick(self, state: State, seat: int, rng: random.Random) -> Action:
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        if rng.random() < self.settings.rollout_random:
            return legal[rng.randrange(len(legal))]
        return self.policy(state, seat, legal, rng)


def _apply_picks(state: State, picks: list[tuple[int, Action]]) -> tuple[State, tuple[tuple[int, Action], ...]]:
    """Apply picks made at the same moment, in seat order, and the picks that were applied.

    A pick is dropped when an earlier one took its seat's decision away or made it illegal:
    an action that is not a secret pick (Soccer-Go's power cards) acts at once and is public.
    """
    applied: list[tuple[int, Action]] = []
    for seat, action in picks:
        if applied and (seat not in state.current_players() or action not in state.legal_actions(seat)):
            continue
        state = state.apply_unchecked(seat, action)
        applied.append((seat, action))
    return state, tuple(applied)


def heuristic_policy(bot: Bot | None) -> Policy:
    """A heuristic bot's ``choose`` as the rollout policy; random play if there is no bot."""
    if bot is None or isinstance(bot, RandomBot):
        return random_policy
    choose = bot.choose

    def policy(state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
        action = choose(state, seat, legal, rng)
        # Offered only some of the legal actions (the others would repeat a position), a rule
        # of thumb may still name one of the others: then any of those offered will do.
        return action if action in legal else legal[rng.randrange(len(legal))]

    return policy


class _Exhausted(Exception):
    pass


class TurnLookahead:
    """Alpha-beta over whole turns, judged by the game's evaluation: a :data:`Mixer`.

    For a game without dice in open play (Pawn Soccer) the one-deep search of ``hard`` assumes
    the opponent answers as the heuristic would, and more rollouts teach it nothing new. This
    looks ``turns`` turns ahead (ours, every reply of the opponent, ours again, ...) and plays
    the action whose worst case is best, so a reply the heuristic would not find (but a
    searching opponent does) is seen.

    ``decides(state)`` says which of the seat's decisions it takes; ``branch(state)`` which
    decisions below the root it branches on (a turn may be several decisions of one seat: it
    ends when the other seat decides); ``play_through(state)`` which ones the policy settles
    on the way (a chain pass played on, ending a turn); every other position (a goal, a
    penalty, chance, the end) is judged as it stands. Actions that ``extra(action)`` names
    (a free substitution alongside a turn's action) are never branched on: the policy's own
    pick is played when it is one of them. A goal scored (or let in) within the look-ahead
    counts ``goal_bonus`` more than the evaluation says: a goal in hand is worth more than the
    chance of one (a threat to shoot next turn may be valued near a goal by a heuristic,
    which then waits instead of shooting). At most ``max_leaves`` positions are
    judged a decision (not the clock: the same view always gives the same decision); when
    they run out, the best root action fully searched so far is played. ``time_budget`` is
    only a ceiling for a very busy machine. Decisions it does not branch on return ``None``
    (the caller searches them as usual).
    """

    def __init__(
        self,
        evaluation: Evaluation,
        policy: Policy,
        decides: Callable[[State], bool],
        branch: Callable[[State], bool],
        play_through: Callable[[State], bool],
        extra: Callable[[Action], bool],
        turns: int,
        max_leaves: int,
        goal_bonus: float = 0.0,
        time_budget: float | None = None,
    ) -> None:
        self.evaluation = evaluation
        self.policy = policy
        self.decides = decides
        self.branch = branch
        self.play_through = play_through
        self.extra = extra
        self.turns = turns
        self.max_leaves = max_leaves
        self.goal_bonus = goal_bonus
        self.time_budget = time_budget
        self.last_leaves = 0
        """Positions judged by the last decision (for benchmarks and tests)."""
        self._seat = 0
        self._leaves = 0
        self._deadline: float | None = None
        self._rng = random.Random(0)
        self._lead = 0

    def __call__(self, state: State, seat: int, legal: list[Action], rng: random.Random) -> Action | None:
        if not self.decides(state):
            return None
        self._seat, self._leaves, self._rng = seat, 0, rng
        self._lead = self._lead_of(state)
        self._deadline = None if self.time_budget is None else time.perf_counter() + self.time_budget
        preferred = self.policy(state, seat, legal, rng)
        if self.extra(preferred):
            return preferred
        best, best_value = preferred, -math.inf
        try:
            children = self._children(state, seat, legal)
            # The policy's pick first (the others must beat it, not tie with it), then the
            # likely best: a good first answer lets alpha-beta cut more of the rest.
            children.sort(key=lambda c: (c[2] != preferred, -c[0]))
            for standing, after, action in children:
                value = self._value(after, seat, self.turns, best_value, math.inf, standing)
                if value > best_value:
                    best, best_value = action, value
        except _Exhausted:
            pass  # the best root action fully searched stands
        self.last_leaves = self._leaves
        return best

    def _judge(self, state: State) -> float:
        """The searching seat's value of a position as it stands."""
        self._leaves += 1
        if state.is_terminal():
            winner = state.winner
            return 0.0 if winner is None else (1e6 if winner == self._seat else -1e6)
        value = self.evaluation(state, self._seat)
        value = value if self._seat == 0 else -value
        return value + self.goal_bonus * (self._lead_of(state) - self._lead)

    def _lead_of(self, state: State) -> int:
        mine, theirs = state.score[self._seat], state.score[1 - self._seat]
        return mine - theirs

    def _settle(self, state: State) -> State:
        """Play the decisions the look-ahead does not branch on (``play_through``)."""
        while self.play_through(state):
            (mover,) = state.current_players()
            legal = state.legal_actions(mover)
            action = legal[0] if len(legal) == 1 else self.policy(state, mover, legal, self._rng)
            state = state.apply_unchecked(mover, action)
        return state

    def _children(self, state: State, mover: int, actions: list[Action]) -> list[tuple[float, State, Action]]:
        """Each action's position (settled) and its value as it stands, for move ordering."""
        return list(self._lazy_children(state, mover, actions))

    def _lazy_children(self, state: State, mover: int, actions: list[Action]) -> Iterator[tuple[float, State, Action]]:
        """As :meth:`_children`, one at a time (a cut-off saves judging the rest)."""
        if self._leaves >= self.max_leaves or (self._deadline is not None and time.perf_counter() > self._deadline):
            raise _Exhausted
        for action in actions:
            if self.extra(action):
                continue
            after = self._settle(state.apply_unchecked(mover, action))
            yield self._judge(after), after, action

    def _value(self, state: State, mover: int, turns_left: int, alpha: float, beta: float, standing: float) -> float:
        """The searching seat's value of ``state`` reached by ``mover``'s action, ``turns_left``
        turns counting the one ``mover`` is playing (alpha-beta window ``alpha``..``beta``);
        ``standing`` is its value as it stands, already judged."""
        players = state.current_players()
        if len(players) != 1 or not self.branch(state):
            return standing  # a leaf: a goal, a penalty, the end
        (now,) = players
        if now != mover:
            turns_left -= 1  # the other seat's turn begins
            if turns_left <= 0:
                return standing
        maximize = now == self._seat
        children: Iterable[tuple[float, State, Action]]
        if turns_left > 1:
            children = self._children(state, now, state.legal_actions(now))
            children.sort(key=lambda c: -c[0] if maximize else c[0])  # likely best first: more cut-offs
        else:  # the last turn: every child is judged as it stands, so ordering would save nothing
            children = self._lazy_children(state, now, state.legal_actions(now))
        best = -math.inf if maximize else math.inf
        for standing_after, after, _action in children:
            value = self._value(after, now, turns_left, alpha, beta, standing_after)
            if maximize:
                best = max(best, value)
                alpha = max(alpha, value)
            else:
                best = min(best, value)
                beta = min(beta, value)
            if alpha >= beta:
                break
        return best
