"""The search bot's mechanics on tiny games made for the test: chance by its
probabilities, simultaneous secret picks without peeking, look-ahead, caps and the clock."""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import pytest

from soccerdesk.bots.search import SearchBot, SearchSettings, TurnLookahead, goal_difference, state_value
from soccerdesk.rules.api import CHANCE, Event, Game, IllegalAction, State


def _bind(state_class: type[State], game_id: str, start: State) -> Game:
    """A throw-away Game for a test state class whose matches begin at ``start``."""

    class ToyGame(Game):
        id = game_id
        title = game_id

        def _initial_state(self, options: Mapping[str, Any]) -> State:
            return start

        def parse_action(self, text: str) -> Any:
            raise IllegalAction(text)

    game = ToyGame()
    state_class.game = game
    return game


def _settings(**changes: Any) -> SearchSettings:
    return SearchSettings(time_budget=None, max_iterations=400, rollout_random=1.0).with_changes(**changes)


# --- chance: a short shot scores 60% of the time, a long one 30% ------------------------


@dataclass(frozen=True, slots=True)
class ShotState(State):
    """Seat 0 picks "short" (goal 0.6, post 0.2, miss 0.2) or "long" (goal 0.3, miss 0.7).

    Counting outcomes instead of weighing them would prefer "long" (1 of 2 vs 1 of 3)."""

    pick: str | None
    goals: tuple[int, int]

    def current_players(self) -> tuple[int, ...]:
        if sum(self.goals):
            return ()
        return (0,) if self.pick is None else (CHANCE,)

    def _legal_actions(self, seat: int) -> list[Any]:
        return ["short", "long"]

    def _chance_outcomes(self) -> list[tuple[Any, float]]:
        if self.pick == "short":
            return [("goal", 0.6), ("post", 0.2), ("miss", 0.2)]
        return [("goal", 0.3), ("miss", 0.7)]

    def _scores(self, outcome: Any) -> bool:
        return bool(outcome == "goal")

    def _apply(self, seat: int, action: Any, events: list[Event]) -> State:
        if seat == CHANCE:
            return replace(self, goals=(1, 0) if self._scores(action) else (0, 1))
        return replace(self, pick=action)

    @property
    def score(self) -> tuple[int, int]:
        return self.goals

    def _view(self, seat: int | None) -> dict[str, Any]:
        return {"pick": self.pick}


SHOT = _bind(ShotState, "shot", ShotState(None, (0, 0)))


def test_chance_outcomes_count_by_their_probability() -> None:
    bot = SearchBot("shot", _settings(max_iterations=600))
    state = SHOT.new_match(seed=1)
    assert bot.decide(state, 0, random.Random(3)) == "short"
    visits, mean = bot.last_statistics["short"]
    assert mean == pytest.approx(0.2, abs=0.15)  # 0.6 - 0.4
    assert visits > bot.last_statistics["long"][0]


def test_a_clearly_better_action_overrules_the_policy() -> None:
    def always_long(state: State, seat: int, legal: list[Any], rng: random.Random) -> Any:
        return "long"

    bot = SearchBot("shot", _settings(max_iterations=400), policy=always_long)
    assert bot.decide(SHOT.new_match(seed=1), 0, random.Random(4)) == "short"


def _paired(**changes: Any) -> SearchSettings:
    return _settings(max_depth=1, paired=True, min_visits=4, confidence=2.0, min_gain=0.0).with_changes(**changes)


def test_paired_rounds_play_every_action_on_the_same_luck() -> None:
    def always_long(state: State, seat: int, legal: list[Any], rng: random.Random) -> Any:
        return "long"

    bot = SearchBot("shot", _paired(max_iterations=400), policy=always_long)
    assert bot.decide(SHOT.new_match(seed=1), 0, random.Random(4)) == "short"
    assert bot.last_iterations == 400  # 200 rounds of both actions
    (short_rounds, short_mean), (long_rounds, long_mean) = bot.last_statistics["short"], bot.last_statistics["long"]
    assert short_rounds == long_rounds == 200
    assert short_mean == pytest.approx(0.2, abs=0.15) and long_mean == pytest.approx(-0.4, abs=0.15)


def test_paired_search_answers_the_policys_secret_pick() -> None:
    bot = SearchBot("match", _paired(max_iterations=60, confidence=0.0), policy=_take_one)
    assert bot.decide(MATCH.new_match(seed=1), 0, random.Random(3)) in (2, 3)


# --- simultaneous secret picks: seat 1 wins by matching seat 0's number -----------------


@dataclass(frozen=True, slots=True)
class MatchState(State):
    """Both seats secretly pick 1, 2 or 3; equal picks are a goal for seat 1, else for seat 0."""

    picks: tuple[int | None, int | None]
    goals: tuple[int, int]

    def current_players(self) -> tuple[int, ...]:
        if sum(self.goals):
            return ()
        return tuple(s for s in (0, 1) if self.picks[s] is None)

    def _legal_actions(self, seat: int) -> list[Any]:
        return [1, 2, 3]

    def _apply(self, seat: int, action: Any, events: list[Event]) -> State:
        picks = list(self.picks)
        picks[seat] = action
        if None in picks:
            return replace(self, picks=(picks[0], picks[1]))
        return replace(self, picks=(picks[0], picks[1]), goals=(0, 1) if picks[0] == picks[1] else (1, 0))

    @property
    def score(self) -> tuple[int, int]:
        return self.goals

    def _view(self, seat: int | None) -> dict[str, Any]:
        return {"mine": None if seat is None else self.picks[seat], "chosen": [p is not None for p in self.picks]}

    def _determinize(self, seat: int, rng: random.Random) -> State:
        other = 1 - seat
        picks = list(self.picks)
        guess = rng.choice((1, 2, 3))
        if picks[other] is not None:
            picks[other] = guess
        return replace(self, picks=(picks[0], picks[1]))


MATCH = _bind(MatchState, "match", MatchState((None, None), (0, 0)))


@dataclass(frozen=True, slots=True)
class RushState(MatchState):
    """As MatchState, but seat 0 may also "rush": a goal at once, whatever seat 1 picks.

    Like a power card played at a secret pick, it acts before seat 1's pick is revealed."""

    def _legal_actions(self, seat: int) -> list[Any]:
        return [1, 2, 3, "rush"] if seat == 0 else [1, 2, 3]

    def _apply(self, seat: int, action: Any, events: list[Event]) -> State:
        if action == "rush":
            return replace(self, goals=(1, 0))
        return MatchState._apply(self, seat, action, events)


RUSH = _bind(RushState, "rush", RushState((None, None), (0, 0)))


def test_simultaneous_picks_are_made_without_seeing_the_other() -> None:
    """Seat 0 wins 2 times in 3 against an honest matcher; a peeking matcher would always win."""
    bot = SearchBot("match", _settings(max_iterations=900))
    bot.decide(MATCH.new_match(seed=1), 0, random.Random(5))
    stats = bot.last_statistics
    assert set(stats) == {1, 2, 3}
    visits = sum(v for v, _ in stats.values())
    overall = sum(v * m for v, m in stats.values()) / visits
    assert overall > 0.0  # a peeking seat 1 would drive this to -1


def test_a_pick_that_acts_at_once_drops_the_other_seats_pick() -> None:
    bot = SearchBot("rush", _settings(max_iterations=300))
    assert bot.decide(RUSH.new_match(seed=1), 0, random.Random(6)) == "rush"
    assert bot.last_statistics["rush"][1] == 1.0


def test_a_secret_pick_is_a_mixed_strategy() -> None:
    bot = SearchBot("match", _settings(max_iterations=300))
    state = MATCH.new_match(seed=1)
    picks = {bot.decide(state, 0, random.Random(i)) for i in range(30)}
    assert len(picks) >= 2


def test_the_second_to_pick_cannot_see_the_first_pick() -> None:
    """Seat 0 has picked; whatever it picked, seat 1's search and decision are the same."""
    bot = SearchBot("match", _settings(max_iterations=300))
    start = MATCH.new_match(seed=1)
    decisions = set()
    for hidden in (1, 2, 3):
        state = start.apply(0, hidden)
        assert state.view(1) == start.apply(0, 1).view(1)
        decisions.add(bot.decide(state, 1, random.Random(8)))
        assert all(mean < 0.2 for _, mean in bot.last_statistics.values())  # 1 in 3 matches
    assert len(decisions) == 1


# --- look-ahead: take 1 or 2 from a pile; who takes the last wins ----------------------


@dataclass(frozen=True, slots=True)
class PileState(State):
    pile: int
    mover: int
    goals: tuple[int, int]

    def current_players(self) -> tuple[int, ...]:
        return () if self.pile == 0 else (self.mover,)

    def _legal_actions(self, seat: int) -> list[Any]:
        return [n for n in (1, 2) if n <= self.pile]

    def _apply(self, seat: int, action: Any, events: list[Event]) -> State:
        pile = self.pile - action
        goals = (1, 0) if seat == 0 else (0, 1)
        return PileState(pile, 1 - seat, goals if pile == 0 else self.goals)

    @property
    def score(self) -> tuple[int, int]:
        return self.goals

    def _view(self, seat: int | None) -> dict[str, Any]:
        return {"pile": self.pile}


PILE = _bind(PileState, "pile", PileState(7, 0, (0, 0)))


@pytest.mark.parametrize(("pile", "winning_take"), [(7, 1), (5, 2), (8, 2)])
def test_the_search_looks_ahead_for_both_seats(pile: int, winning_take: int) -> None:
    bot = SearchBot("pile", _settings(max_iterations=1500, exploration=1.0))
    state = PileState(pile, 0, (0, 0))
    state._set_meta(PILE.new_match(seed=1).info, None, ())
    assert bot.decide(state, 0, random.Random(2)) == winning_take


def test_same_view_and_same_rng_give_the_same_decision() -> None:
    bot = SearchBot("pile", _settings(max_iterations=50))
    state = PILE.new_match(seed=4)
    first = bot.decide(state, 0, random.Random(11))
    assert all(bot.decide(state, 0, random.Random(11)) == first for _ in range(5))


def _take_one(state: State, seat: int, legal: list[Any], rng: random.Random) -> Any:
    return 1


def test_a_one_deep_tree_answers_the_policys_play() -> None:
    """From a pile of 4 taking 1 wins against perfect play (the full tree finds it), but
    against a side that always takes 1, taking 2 wins too: the one-deep tree judges each
    action by the policy's continuation, and that continuation takes 1 after either."""
    state = PileState(4, 0, (0, 0))
    state._set_meta(PILE.new_match(seed=1).info, None, ())
    full = SearchBot("pile", _settings(max_iterations=1500, exploration=1.0, rollout_random=0.0), policy=_take_one)
    assert full.decide(state, 0, random.Random(2)) == 1
    flat = SearchBot(
        "pile",
        _settings(max_iterations=40, max_depth=1, rollout_random=0.0, confidence=0.0, min_gain=0.0, min_visits=1),
        policy=_take_one,
    )
    flat.decide(state, 0, random.Random(2))
    assert flat.last_statistics[2][1] == 1.0  # the policy's continuation: we take the last
    assert flat.last_statistics[1][1] == -1.0


def test_a_one_deep_tree_draws_the_opponents_secret_pick_from_the_policy() -> None:
    """Seat 1's policy always picks 1: seat 0 (who scores when the picks differ) never does."""
    flat = SearchBot(
        "match",
        _settings(max_iterations=60, max_depth=1, rollout_random=0.0, confidence=0.0, min_gain=0.0, min_visits=1),
        policy=_take_one,
    )
    assert flat.decide(MATCH.new_match(seed=1), 0, random.Random(3)) in (2, 3)
    assert flat.last_statistics[1][1] == -1.0
    assert flat.last_statistics[2][1] == flat.last_statistics[3][1] == 1.0


def _take_two(state: State, seat: int, legal: list[Any], rng: random.Random) -> Any:
    return 2 if 2 in legal else legal[0]


def _pile_lookahead(turns: int, max_leaves: int = 1000) -> TurnLookahead:
    return TurnLookahead(
        goal_difference,
        _take_two,
        decides=lambda state: True,
        branch=lambda state: True,
        play_through=lambda state: False,
        extra=lambda action: False,
        turns=turns,
        max_leaves=max_leaves,
    )


def test_a_turn_look_ahead_sees_every_reply_of_the_opponent() -> None:
    """From a pile of 4 the greedy policy takes 2, and the opponent takes the last two. Two
    turns ahead (ours and every reply) taking 1 is the only action no reply wins against;
    three turns ahead it wins whatever the reply."""
    state = PileState(4, 0, (0, 0))
    state._set_meta(PILE.new_match(seed=1).info, None, ())
    assert _pile_lookahead(1)(state, 0, [1, 2], random.Random(1)) == 2  # nothing seen: the policy's pick
    assert _pile_lookahead(2)(state, 0, [1, 2], random.Random(1)) == 1
    deep = _pile_lookahead(3)
    assert deep(state, 0, [1, 2], random.Random(1)) == 1
    assert deep.last_leaves < 2 + 4 + 8  # every position of the three turns: alpha-beta cut some
    # Out of positions to judge before anything beat the policy's pick: the pick stands.
    assert _pile_lookahead(3, max_leaves=1)(state, 0, [1, 2], random.Random(1)) == 2


# --- many actions: a node considers at most action_cap, the policy's pick among them -------


@dataclass(frozen=True, slots=True)
class TargetState(State):
    """Seat 0 names a number 0..79; 42 scores."""

    named: int | None

    def current_players(self) -> tuple[int, ...]:
        return (0,) if self.named is None else ()

    def _legal_actions(self, seat: int) -> list[Any]:
        return list(range(80))

    def _apply(self, seat: int, action: Any, events: list[Event]) -> State:
        return TargetState(action)

    @property
    def score(self) -> tuple[int, int]:
        return (1, 0) if self.named == 42 else (0, 0 if self.named is None else 1)

    def _view(self, seat: int | None) -> dict[str, Any]:
        return {"named": self.named}


TARGET = _bind(TargetState, "target", TargetState(None))


def test_action_cap_keeps_the_policys_pick() -> None:
    def knows_the_target(state: State, seat: int, legal: list[Any], rng: random.Random) -> Any:
        return 42 if 42 in legal else legal[0]

    bot = SearchBot("target", _settings(max_iterations=60, action_cap=6), policy=knows_the_target)
    assert bot.decide(TARGET.new_match(seed=1), 0, random.Random(1)) == 42
    assert len(bot.last_statistics) <= 6


# --- the clock ------------------------------------------------------------------------


def test_a_decision_keeps_within_its_time_budget() -> None:
    def slow_policy(state: State, seat: int, legal: list[Any], rng: random.Random) -> Any:
        time.sleep(0.002)  # a heuristic that takes its time
        return legal[rng.randrange(len(legal))]

    settings = SearchSettings(time_budget=0.15, rollout_turns=1000, rollout_plies=1000, rollout_random=0.0)
    bot = SearchBot("pile", settings, policy=slow_policy)
    state = PileState(400, 0, (0, 0))
    state._set_meta(PILE.new_match(seed=1).info, None, ())
    for i in range(5):
        t0 = time.perf_counter()
        bot.decide(state, 0, random.Random(i))
        assert time.perf_counter() - t0 <= 0.15
        assert bot.last_iterations >= 1


def test_a_search_needs_a_clock_or_a_cap() -> None:
    with pytest.raises(ValueError, match="time budget or an iteration cap"):
        SearchSettings(time_budget=None, max_iterations=None)


def test_unfinished_matches_are_judged_by_goal_difference() -> None:
    state = PileState(3, 0, (2, 0))
    state._set_meta(PILE.new_match(seed=1).info, None, ())
    assert 0.5 < state_value(state, goal_difference, 0.5) < 1.0
    assert state_value(PileState(0, 0, (0, 1)), goal_difference, 0.5) == -1.0


# --- exact chance at the first roll, short lists, hooks ------------------------------------


@dataclass(frozen=True, slots=True)
class DieState(ShotState):
    """Seat 0 picks "bold" (a d20: 1-6 scores, else concedes) or "calm" (1-9 scores, else concedes)."""

    def _legal_actions(self, seat: int) -> list[Any]:
        return ["bold", "calm"]

    def _chance_outcomes(self) -> list[tuple[Any, float]]:
        return [(face, 1 / 20) for face in range(1, 21)]

    def _scores(self, outcome: Any) -> bool:
        return bool(outcome <= (6 if self.pick == "bold" else 9))


DIE = _bind(DieState, "die", DieState(None, (0, 0)))


def test_stratified_rounds_weigh_every_face_of_the_first_roll_by_its_exact_chance() -> None:
    """Twenty paired rounds meet each face of the d20 once: the means are the chart's own."""
    bot = SearchBot("die", _paired(max_iterations=40, stratify_first_roll=True, confidence=0.0))
    assert bot.decide(DIE.new_match(seed=1), 0, random.Random(5)) == "calm"
    assert bot.last_statistics["bold"] == (20, pytest.approx((6 - 14) / 20))
    assert bot.last_statistics["calm"] == (20, pytest.approx((9 - 11) / 20))


def test_a_short_list_sets_the_actions_a_node_considers() -> None:
    def from_the_top(state: State, seat: int, legal: list[Any]) -> list[Any]:
        return sorted(legal, key=lambda n: abs(n - 42))

    bot = SearchBot("target", _paired(max_iterations=30, action_cap=3), policy=_first, shortlist=from_the_top)
    assert bot.decide(TARGET.new_match(seed=1), 0, random.Random(1)) == 42
    assert set(bot.last_statistics) == {41, 42, 43, 0}  # the short list and the policy's own pick


def _first(state: State, seat: int, legal: list[Any], rng: random.Random) -> Any:
    return legal[0]


def test_where_searching_is_not_worth_it_the_policy_decides_alone() -> None:
    bot = SearchBot("target", _settings(max_iterations=30), policy=_first, worth_searching=lambda state: False)
    assert bot.decide(TARGET.new_match(seed=1), 0, random.Random(1)) == 0


def test_a_mixer_answers_the_decisions_it_knows() -> None:
    def names_seven(state: State, seat: int, legal: list[Any], rng: random.Random) -> Any:
        return 7

    bot = SearchBot("target", _settings(max_iterations=30), policy=_first, mixer=names_seven)
    assert bot.decide(TARGET.new_match(seed=1), 0, random.Random(1)) == 7


def test_narrowing_spends_the_later_rounds_on_the_policys_pick_and_its_rival() -> None:
    """After ``narrow_after`` rounds of every candidate, only the pick and the leader play on."""

    def names_forty(state: State, seat: int, legal: list[Any], rng: random.Random) -> Any:
        return 40

    def around_42(state: State, seat: int, legal: list[Any]) -> list[Any]:
        return sorted(legal, key=lambda n: abs(n - 42))

    settings = _paired(max_iterations=60, action_cap=4, narrow_after=5)
    bot = SearchBot("target", settings, policy=names_forty, shortlist=around_42)
    assert bot.decide(TARGET.new_match(seed=1), 0, random.Random(1)) == 42
    rounds = {action: played for action, (played, _) in bot.last_statistics.items()}
    # 5 rounds of the four candidates (20 rollouts), then 20 more rounds of the pick and 42.
    assert rounds == {42: 25, 40: 25, 41: 5, 43: 5}
    assert bot.last_iterations == 60


def test_a_gain_leaves_the_policys_pick_only_above_its_noise_and_the_least_gain() -> None:
    settings = SearchSettings(max_iterations=10, confidence=1.5, min_gain=0.05)
    assert settings.clear_gain(0.06, 0.0)
    assert not settings.clear_gain(0.04, 0.0)  # below the least gain however sure
    assert not settings.clear_gain(0.12, 0.1)  # under 1.5 standard errors
    assert settings.clear_gain(0.16, 0.1)
