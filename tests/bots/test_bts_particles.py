"""Big Time Soccer's search levels' belief (soccerdesk.bots.bts_particles): the opponent's
possible hands carried through the match as the seat saw it, weighed by its decisions."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from soccerdesk.bots import big_time_soccer
from soccerdesk.bots.big_time_soccer import spent_card
from soccerdesk.bots.bts_particles import (
    CATCH_UP,
    ParticleBelief,
    ParticleReplay,
    SeatReplay,
)
from soccerdesk.bots.levels import search_bot
from soccerdesk.rules import Action
from soccerdesk.rules.big_time_soccer import BigTimeState
from tests.match_positions import watched_match


def test_the_replay_of_a_seats_view_has_every_public_count_of_the_match() -> None:
    seen = watched_match(60001, 600)
    replay = SeatReplay(0)
    for state in seen[100::50]:
        replay.update(state.determinize(0, random.Random(1)))
        assert replay.state is not None
        unseen = list(state.pile)
        for k in state.hands[1]:
            unseen[k] += 1
        replayed = list(replay.state.pile)
        for k in replay.state.hands[1]:
            replayed[k] += 1
        assert replayed == unseen
        assert replay.state.hands[0] == state.hands[0]
        assert (replay.state.ball, replay.state.goals, replay.state.phase) == (state.ball, state.goals, state.phase)
        assert len(replay.state.hands[1]) == len(state.hands[1])


def _overlap(hand: tuple[int, ...], real: tuple[int, ...]) -> int:
    """How many cards of ``hand`` are in ``real`` (copies counted)."""
    left = list(real)
    found = 0
    for k in hand:
        if k in left:
            left.remove(k)
            found += 1
    return found


def test_the_particle_hands_stay_the_size_of_the_real_hand_and_within_the_unseen_cards() -> None:
    seen = watched_match(60004, 700)
    replay = ParticleReplay(0, 50, 0.1, ParticleBelief(50)._judge)
    checked = 0
    for state in seen[40::15]:
        replay.update(state.determinize(0, random.Random(1)))
        if not replay.live:
            continue
        unseen = state.unseen_by(0)
        for hand in replay.hands:
            assert len(hand) == len(state.hands[1])
            assert all(hand.count(k) <= unseen[k] for k in hand)
        checked += 1
    assert checked > 20


def test_a_card_the_opponent_plays_is_in_every_particle_hand_when_played_and_leaves_them_after() -> None:
    seen = watched_match(60005, 400)
    judged: list[tuple[int, tuple[int, ...]]] = []
    particles = ParticleBelief(40)

    def judge(
        position: BigTimeState, opp: int, hand: tuple[int, ...], action: object, unseen: Sequence[int]
    ) -> bool | None:
        spent = spent_card(position.game.t, action)
        if spent is not None:
            judged.append((spent, hand))
        return particles._judge(position, opp, hand, action, unseen)

    replay = ParticleReplay(0, 40, 0.1, judge)
    replay.update(seen[-1].determinize(0, random.Random(1)))
    assert len(judged) > 40 * 10
    assert all(spent in hand for spent, hand in judged)
    # After the last card the opponent played, fewer hands hold it than held it then (all).
    last = judged[-1][0]
    assert sum(1 for hand in replay.hands if last in hand) < 40


def test_the_particle_belief_draws_from_the_seats_view_alone_and_the_same_for_a_seed() -> None:
    state = watched_match(60003, 400)[-1]
    seat = state.current_players()[0] if state.current_players() in ((0,), (1,)) else 0
    draws = []
    for view_seed in (1, 2, 3):
        view = state.determinize(seat, random.Random(view_seed))
        worlds = ParticleBelief(30, seed=5 if view_seed < 3 else 6).worlds(view, seat)
        rng = random.Random(9)
        draws.append([worlds(rng).hands[1 - seat] for _ in range(20)])
    assert draws[0] == draws[1]
    assert draws[0] != draws[2]  # another seed, other hands


def test_the_opponents_telling_decisions_bring_the_particle_hands_nearer_its_real_hand() -> None:
    # Weighed by the heuristic's choices, the hands share more cards with the real hand than
    # hands drawn as the counts make them; with every decision believed alike (slack 1), no more.
    seen = watched_match(60006, 900)
    near = {}
    for slack in (0.1, 1.0):
        replay = ParticleReplay(0, 100, slack, ParticleBelief(100)._judge)
        total = drawn = 0.0
        for state in seen[60::10]:
            view = state.determinize(0, random.Random(1))
            replay.update(view)
            if not replay.live or not state.hands[1]:
                continue
            weight = sum(replay.weights)
            total += (
                sum(w * _overlap(h, state.hands[1]) for h, w in zip(replay.hands, replay.weights, strict=True)) / weight
            )
            rng = random.Random(2)
            drawn += sum(_overlap(view.determinize(0, rng).hands[1], state.hands[1]) for _ in range(100)) / 100
        near[slack] = (total, drawn)
    assert near[0.1][0] > 1.1 * near[0.1][1]
    assert near[1.0][0] < 1.05 * near[1.0][1]


@pytest.mark.parametrize("name", ["hard", "expert", "hint"])
def test_the_search_levels_and_hints_draw_the_opponents_hand_from_its_decisions(name: str) -> None:
    assert isinstance(search_bot("big-time-soccer", None, name, max_iterations=8).belief, ParticleBelief)


def _deciding(state: BigTimeState) -> int:
    players = state.current_players()
    return players[0] if players in ((0,), (1,)) else 0


def test_the_worlds_are_the_same_whatever_the_opponent_really_holds() -> None:
    """Bots never see hidden information: two matches alike in all the seat sees, the
    opponent's hand (and so the pile) different, give the same worlds for the same seed."""
    state = watched_match(60003, 400)[-1]
    seat = _deciding(state)
    opp = 1 - seat
    unseen = state.unseen_by(seat)
    rng = random.Random(4)
    while True:
        cards = [k for k, n in enumerate(unseen) for _ in range(n)]
        other_hand = tuple(sorted(rng.sample(cards, len(state.hands[opp]))))
        if other_hand != state.hands[opp]:
            break
    pile = list(unseen)
    for k in other_hand:
        pile[k] -= 1
    other = state.with_hand(opp, other_hand, pile)
    assert other.hands[opp] != state.hands[opp] and other.history() == state.history()
    drawn = []
    for match in (state, other):
        worlds = ParticleBelief(60).worlds(match.determinize(seat, random.Random(1)), seat)
        draw = random.Random(9)
        drawn.append([(w.hands, w.pile) for w in (worlds(draw) for _ in range(30))])  # type: ignore[attr-defined]
    assert drawn[0] == drawn[1]
    assert len({hands for hands, _ in drawn[0]}) > 1  # hands of the filter, not one guess


def _noting(belief: ParticleBelief, judged: set[int]) -> ParticleBelief:
    """``belief``, noting in ``judged`` each position at which it weighs the hands."""
    judge = belief._judge

    def noting(
        position: BigTimeState, who: int, hand: tuple[int, ...], action: Action, unseen: Sequence[int]
    ) -> bool | None:
        judged.add(id(position))
        return judge(position, who, hand, action, unseen)

    belief._judge = noting  # type: ignore[method-assign]
    return belief


def test_a_filter_met_late_in_a_match_weighs_only_the_opponents_last_decisions() -> None:
    """A hint, a resumed match or an undo begins the replay at a late position: the filter
    weighs the opponent's last CATCH_UP decisions, not the whole match (a second and a half
    of CPU at the end of one), from hands dealt as the public counts make them then."""
    state = watched_match(60007, 450)[-1]
    seat = _deciding(state)
    opp = 1 - seat
    decided = sum(1 for who, _ in state.history() if who == opp)
    assert decided > 3 * CATCH_UP
    judged: set[int] = set()
    belief = _noting(ParticleBelief(40), judged)
    belief.worlds(state.determinize(seat, random.Random(1)), seat)
    replay = belief._replay
    assert replay is not None and replay.first == decided - CATCH_UP
    assert 0 < len(judged) <= CATCH_UP
    if replay.live:
        unseen = state.unseen_by(seat)
        for hand in replay.hands:
            assert len(hand) == len(state.hands[opp]) and all(hand.count(k) <= unseen[k] for k in hand)
    # Without the bound (a filter kept from the start of the match) every decision is weighed.
    judged.clear()
    whole = _noting(ParticleBelief(40, catch_up=None), judged)
    whole.worlds(state.determinize(seat, random.Random(1)), seat)
    assert len(judged) > 2 * CATCH_UP


def test_a_kept_filter_told_of_every_decision_weighs_the_whole_match_however_late_it_first_searches() -> None:
    """The app keeps one bot through a match, and hard searches only its close calls: the
    filter keeps up at each of the seat's decisions (``chose``), so when the first search
    comes late it holds what a filter that weighed every decision of the opponent holds,
    not one met halfway (CATCH_UP bounds only a hint, a resumed match or an undo)."""
    seen = watched_match(60007, 450)
    seat = _deciding(seen[-1])
    opp = 1 - seat
    assert sum(1 for who, _ in seen[-1].history() if who == opp) > 3 * CATCH_UP
    kept = ParticleBelief(40)
    for before, after in zip(seen, seen[1:], strict=False):
        who, action = after.history()[-1]
        if who == seat:
            kept.chose(before.determinize(seat, random.Random(before.ply)), seat, action)
    whole = ParticleBelief(40, catch_up=None)
    late = seen[-1].determinize(seat, random.Random(1))
    kept.worlds(late, seat)
    whole.worlds(late, seat)
    assert kept._replay is not None and whole._replay is not None
    assert kept._replay.first == 0
    assert (kept._replay.hands, kept._replay.weights) == (whole._replay.hands, whole._replay.weights)


@pytest.mark.parametrize(
    ("seed", "plies", "catch_up", "hands", "weights", "drawn"),
    [
        (
            60008,
            300,
            None,
            [(7, 17, 17, 23, 31, 33), (1, 7, 17, 31, 33, 34), (3, 8, 10, 19, 29, 32), (8, 10, 23, 29, 33, 35)],
            [1.292546, 0.038776, 0.038776, 1.292546],
            [(0, 1, 7, 16, 17, 19), (1, 8, 19, 30, 31, 33), (3, 4, 8, 16, 29, 31)],
        ),
        (
            60009,
            420,
            CATCH_UP,
            [(0, 9, 15, 19, 23, 24), (0, 2, 6, 15, 19, 25), (2, 6, 9, 15, 19, 25), (2, 6, 9, 19, 24, 31)],
            [1.941748, 0.058252, 0.058252, 0.058252],
            [(9, 15, 23, 24, 25, 30), (0, 6, 9, 23, 24, 25), (6, 9, 15, 23, 24, 25)],
        ),
    ],
)
def test_the_filters_hands_for_a_view_and_seed_stay_the_same(
    seed: int,
    plies: int,
    catch_up: int | None,
    hands: list[tuple[int, ...]],
    weights: list[float],
    drawn: list[tuple[int, ...]],
) -> None:
    """Pinned hands of seeded matches: a change to how the filter is computed (not what it
    computes) leaves the search levels' worlds as they were."""
    state = watched_match(seed, plies)[-1]
    seat = _deciding(state)
    belief = ParticleBelief(30, seed=2, catch_up=catch_up)
    worlds = belief.worlds(state.determinize(seat, random.Random(1)), seat)
    replay = belief._replay
    assert replay is not None and replay.live
    assert replay.hands[:4] == hands
    assert replay.weights[:4] == pytest.approx(weights, abs=1e-6)
    rng = random.Random(3)
    assert [worlds(rng).hands[1 - seat] for _ in range(3)] == drawn  # type: ignore[attr-defined]


def test_a_filter_begun_late_leaves_its_catch_up_to_its_first_search() -> None:
    """A hint's new bot, or one met halfway through a match, told of a decision it did not
    search (a forced move, a clear choice hard does not search) weighs nothing then; its first
    search weighs the opponent's last CATCH_UP decisions, as a filter that began there does."""
    seen = watched_match(60007, 450)
    at = max(i for i, s in enumerate(seen[:-1]) if s.current_players() in ((0,), (1,)))
    state = seen[at]
    seat = state.current_players()[0]
    assert sum(1 for who, _ in state.history() if who == 1 - seat) > CATCH_UP
    judged: set[int] = set()
    late = _noting(ParticleBelief(40), judged)
    view = state.determinize(seat, random.Random(1))
    late.chose(view, seat, seen[at + 1].history()[-1][1])
    assert not judged and late._replay is None
    late.worlds(view, seat)
    fresh = ParticleBelief(40)
    fresh.worlds(view, seat)
    assert late._replay is not None and fresh._replay is not None
    assert (late._replay.hands, late._replay.weights) == (fresh._replay.hands, fresh._replay.weights)


def test_weighing_the_hands_leaves_the_heuristics_shared_answers_alone() -> None:
    """Every guessed hand leaves the opponent other unseen cards: kept in the heuristic's
    shared answers (_BY_UNSEEN), a catch-up's thousands of guesses emptied the store a
    search's rollouts read from, at each of its decisions."""
    state = watched_match(60007, 300)[-1]
    seat = _deciding(state)
    kept = dict(big_time_soccer._BY_UNSEEN)
    big_time_soccer._BY_UNSEEN.clear()
    try:
        belief = ParticleBelief(40, catch_up=None)
        belief.worlds(state.determinize(seat, random.Random(1)), seat)
        assert belief._replay is not None and len(belief._replay.decisions) > 2 * CATCH_UP
        assert big_time_soccer._BY_UNSEEN == {}
    finally:
        big_time_soccer._BY_UNSEEN.clear()
        big_time_soccer._BY_UNSEEN.update(kept)
