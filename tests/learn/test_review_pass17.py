"""QA pass 17, finding 3: the review's biggest turning point read backwards. In a Soccer-Go
match Home's chance fell from 55% to 41% at "Home plays Pass Re-Take" (a card that helps Home),
stayed there three positions and "rose" at Away's next pass, which the caption called Home's
biggest rise. The block reply after the card was judged from one chair with half the trial
games, two low estimates in a row were kept by the face-down pick after them, and the medians
counted the kept copy as a third estimate."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest

from soccerdesk.bots import make_bot
from soccerdesk.learn import review
from soccerdesk.rules import get_game
from soccerdesk.sim import play_match

RETAKE = 53
"""In :func:`_normal_vs_easy`, the position after Home's (normal's) defending Pass Re-Take; Away
(easy) then answers "no card", as in QA's match."""


@cache
def _normal_vs_easy(seed: int = 73) -> dict[str, Any]:
    bots = [make_bot("normal", "soccer-go"), make_bot("easy", "soccer-go")]
    result = play_match("soccer-go", bots, seed, swap=False, options={})
    assert result.record is not None
    return result.record


def test_a_pass_re_take_is_judged_like_the_positions_around_it() -> None:
    record = _normal_vs_easy()
    assert record["actions"][RETAKE - 1] == [0, "play def-pass-retake"]
    assert record["actions"][RETAKE] == [1, "no card"]  # the block reply is a position of its own
    before, card, reply = review.estimate_slice("soccer-go", record, RETAKE - 1, RETAKE + 2)
    # The card takes Away's unmarked pass back: Home's chance does not fall. Judged as before
    # this pass (one chair at the block reply, twelve trial games) it fell 8 points here.
    assert card >= before - 0.05 and reply >= before - 0.05


def test_every_position_is_judged_from_both_chairs() -> None:
    """The block reply is Away's decision; Home's view of it counts as much (it knows its own hand)."""
    record = _normal_vs_easy()
    state = get_game("soccer-go").replay(record)[RETAKE]
    assert state.current_players() == (1,)
    rng = random.Random(5)
    values = [review.seat_value(state, seat, rng, 8) for seat in (0, 1)]
    assert review.home_chance(state, random.Random(5), worlds=8) == pytest.approx((1 + sum(values) / 2) / 2)


def test_face_down_picks_and_secret_swaps_keep_the_estimate_before_them() -> None:
    """What the other side cannot see keeps the estimate before it: the first pick of a pair
    laid face down, the card put aside. The pick that shows both, a card drawn (its receiver
    sees it) and a card played are judged afresh."""
    record = _normal_vs_easy()
    carried = set(review.carried_positions("soccer-go", record))
    verbs = {index: action.split()[0] for index, (_, action) in enumerate(record["actions"], start=1)}
    assert {verbs[i] for i in carried} <= {"pass", "mark", "shoot", "save", "show", "swap", "keep"}
    picks = [i for i in verbs if verbs[i] in ("pass", "mark")]
    laid = [i for i in picks if i in carried]
    assert len(laid) > 20 and all(i + 1 not in carried for i in laid)  # the next one shows the pair
    assert len(laid) >= len(picks) // 2 - 3  # a card played may take a laid pick back
    assert all(i not in carried for i in verbs if verbs[i] in ("draw", "play", "no"))
    assert RETAKE not in carried and RETAKE + 1 not in carried


# QA pass 17's own estimates at its positions 60-86 (its match file). Away's face-down passes
# keep the estimate before them; 74 is "Home plays Pass Re-Take", 75 Away's "no card", 77
# "The 2nd pass reaches number 5", which the caption called Home's biggest rise.
QA_HOME = [0.6646, 0.5966, 0.5966, 0.6186, 0.59, 0.617, 0.514, 0.5861, 0.5813, 0.5813, 0.5535, 0.5535, 0.549]
QA_HOME += [0.549, 0.3868, 0.4064, 0.4064, 0.5791, 0.5791, 0.5799, 0.5799, 0.5038, 0.5038, 0.5422, 0.5422]
QA_HOME += [0.4629, 0.4629]
QA_CARRIED = (2, 6, 8, 9, 11, 13, 16, 18, 20, 22, 24, 26)
QA_RISE = 77 - 60


def test_two_low_estimates_and_a_kept_copy_are_no_turning_point() -> None:
    assert QA_HOME[QA_RISE] - QA_HOME[QA_RISE - 1] > 0.17
    # Counted as positions, the dip filled three places of five and both its steps "lasted".
    assert QA_RISE in review.turning_points(QA_HOME)
    # Counted as estimates, it is two of five: undone at once, no swing either way.
    assert review.lasting_swing(QA_HOME, QA_RISE, carried=QA_CARRIED) == 0.0
    assert abs(review.lasting_swing(QA_HOME, QA_RISE - 3, carried=QA_CARRIED)) < review.MIN_SWING
    assert review.turning_points(QA_HOME, carried=QA_CARRIED) == ()
    # The chart's line drops it too.
    line = review.smoothed(QA_HOME, carried=QA_CARRIED)
    assert min(line) > 0.5


def test_a_kept_position_is_no_estimate_of_its_own() -> None:
    values, owner = review.estimates([0.5, 0.5, 0.4, 0.4, 0.6], carried=(1, 3))
    assert values == [0.5, 0.4, 0.6] and owner == [0, 0, 1, 1, 2]
    assert review.levels([0.5, 0.5, 0.4, 0.4, 0.6], 4, carried=(1, 3)) == (0.45, 0.6)
    assert review.lasting_swing([0.5, 0.5, 0.4, 0.4, 0.6], 3, carried=(1, 3)) == 0.0  # no step of its own


def test_the_kept_positions_are_kept_with_the_review() -> None:
    home = [0.5] * 6
    record = {"game": "soccer-go", "seed": 0, "options": {}, "actions": [[0, "x"]] * 5}
    kept = review.attach(record, review.build(record, home, carried=(2, 4)))
    found = review.stored(kept)
    assert found is not None and found.carried == (2, 4)
    broken = {**kept, "review": {**kept["review"], "carried": [9]}}
    with pytest.raises(review.ReviewError):
        review.stored(broken)
    old = {**kept, "review": {**kept["review"], "version": 2}}
    with pytest.raises(review.ReviewError):  # worked out again: its estimates were judged the old way
        review.stored(old)


@pytest.mark.parametrize(
    "outcome, per_chair",
    [
        (lambda k: 0.2, review.ROUND),  # trial games that agree: one round is enough
        (lambda k: -1.0, 24),  # all lost: not proof of a sure loss; played on until sure enough
        (lambda k: 1.0 if k % 2 else -1.0, review.WORLDS),  # a coin toss: as many as allowed
    ],
)
def test_an_uncertain_estimate_gets_more_trial_games(monkeypatch, outcome, per_chair: int) -> None:
    record = _normal_vs_easy()
    state = get_game("soccer-go").replay(record)[RETAKE]
    played: list[int] = []

    def playout(world: Any, searcher: int, rng: random.Random) -> float:
        played.append(searcher)
        return outcome(len(played))

    monkeypatch.setattr(review, "playout_value", playout)
    review.home_chance(state, random.Random(1))
    assert played.count(0) == played.count(1) == per_chair
