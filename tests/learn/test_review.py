"""The match review: chances from each chair's view, exact at full time, agreeing with the
search bot's own evaluation, turning points, kept with the record."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest

from soccerdesk.bots import make_bot
from soccerdesk.bots.levels import search_bot
from soccerdesk.bots.search import state_value
from soccerdesk.learn import review
from soccerdesk.rules import CHANCE, GAMES, get_game
from soccerdesk.sim import play_match

WORLDS = 3
"""Worlds per chair in these tests (the app judges more; fewer keep the tests quick)."""


@cache
def _match(game_id: str, seed: int = 7) -> dict[str, Any]:
    bots = [make_bot("heuristic", game_id) for _ in (0, 1)]
    result = play_match(game_id, bots, seed, swap=False, options={})
    assert result.record is not None
    return result.record


@cache
def _review(game_id: str) -> review.Review:
    return review.review_match(_match(game_id), worlds=WORLDS)


@pytest.mark.parametrize("game_id", GAMES)
def test_full_time_is_the_result(game_id: str) -> None:
    record = _match(game_id)
    final = get_game(game_id).load(record)
    found = _review(game_id)
    assert len(found.home) == len(record["actions"]) + 1
    winner = final.winner
    expected = 0.5 if winner is None else 1.0 if winner == 0 else 0.0
    assert found.home[-1] == expected
    if winner is not None:
        assert found.chance(winner, len(found.home) - 1) == 1.0
        assert found.chance(1 - winner, len(found.home) - 1) == 0.0
    assert all(0.0 <= v <= 1.0 for v in found.home)
    # Before the kick-off nobody leads: the search bot sees an even match.
    assert found.home[0] == pytest.approx(0.5, abs=0.1)


@pytest.mark.parametrize("game_id", GAMES)
def test_estimates_agree_with_the_search_bots_evaluation(game_id: str) -> None:
    """Where the search bot's evaluation (what it judges the end of a playout by) says one side
    is clearly ahead, the review gives that side the better chance (at the positions judged
    for themselves, not after a face-down pick; from each chair that judges them)."""
    record = _match(game_id)
    states = get_game(game_id).replay(record)
    found = _review(game_id)
    bot = search_bot(game_id, None, "hard", max_iterations=1)
    judged: list[tuple[float, int]] = []
    for index, state in enumerate(states[:-1]):
        if review.judged_position(states, index) != index or CHANCE in state.current_players():
            continue  # a carried estimate, or a die roll (judged by the dice to come)
        seats = review.CHAIRS
        worlds = [(seat, state.determinize(seat, random.Random(index))) for seat in seats]
        value = sum(state_value(w, bot.evaluation, bot.settings.goal_weight, seat) for seat, w in worlds) / len(seats)
        judged.append((value, index))
    # The positions the evaluation finds least close (its top quarter, and not a near tie).
    cut = max(0.05, sorted(abs(v) for v, _ in judged)[3 * len(judged) // 4])
    clear = [(v, i) for v, i in judged if abs(v) >= cut]
    agree = sum((v > 0) == (found.home[i] > 0.5) for v, i in clear if found.home[i] != 0.5)
    disagree = sum((v > 0) == (found.home[i] < 0.5) for v, i in clear if found.home[i] != 0.5)
    assert agree >= 10
    assert agree >= 3 * disagree  # an even estimate (common with a few worlds) is neither


def test_an_estimate_is_the_mean_of_the_search_bots_playouts() -> None:
    record = _match("big-time-soccer")
    states = get_game("big-time-soccer").replay(record)
    index = next(i for i, s in enumerate(states) if s.current_players() == (1,) and s.score == (0, 0) and i > 20)
    rng = random.Random(3)
    worlds = [states[index].determinize(1, rng) for _ in range(3)]
    assert any(w != states[index] for w in worlds)  # the other side's hand is a guess
    rng = random.Random(3)
    expected = [
        sum(review.playout_value(states[index].determinize(s, rng), s, rng) for _ in range(3)) / 3 for s in (0, 1)
    ]
    assert review.seat_value(states[index], 0, random.Random(3), worlds=3) == pytest.approx(expected[0])
    # Both chairs judge it (the one deciding and the other), each from what it may see.
    assert review.home_chance(states[index], random.Random(3), worlds=3) == pytest.approx((1 + sum(expected) / 2) / 2)


@pytest.mark.parametrize("game_id", ["soccer-go", "big-time-soccer"])
def test_each_chair_never_knows_what_its_seat_could_not_see(game_id: str) -> None:
    record = _match(game_id)
    states = get_game(game_id).replay(record)
    differed = 0
    for index in range(1, len(states) - 1, 7):
        state = states[index]
        for seat in review.CHAIRS:
            other = state.determinize(seat, random.Random(index + 1000))
            assert other.view(seat) == state.view(seat)
            differed += other != state
            assert review.seat_value(other, seat, random.Random(index), 4) == pytest.approx(
                review.seat_value(state, seat, random.Random(index), 4)
            )
    assert differed > 3  # the check met positions with something hidden


def test_slices_in_any_order_give_the_same_review() -> None:
    record = _match("pawn-soccer")
    parts = review.slices(record, size=50)
    assert parts[0][0] == 0 and parts[-1][1] == len(record["actions"]) + 1
    home: dict[int, list[float]] = {}
    for start, stop in reversed(parts):
        home[start] = review.estimate_slice("pawn-soccer", record, start, stop, WORLDS)
    joined = [v for start, _ in parts for v in home[start]]
    carried = review.carried_positions("pawn-soccer", record)  # asked for first, as the panel does
    assert review.build(record, joined, carried) == _review("pawn-soccer")


def test_progress_is_reported_slice_by_slice() -> None:
    finished = _match("soccer-go")
    record = {**finished, "actions": finished["actions"][:70]}  # a match saved before its end
    seen: list[tuple[int, int]] = []
    review.review_match(record, progress=lambda done, total: seen.append((done, total)), size=30, worlds=1)
    total = len(record["actions"]) + 1
    assert seen[-1] == (total, total)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    assert len(seen) == len(review.slices(record, 30))


def test_turning_points_are_the_biggest_swings_apart() -> None:
    home = [0.5, 0.5, 0.52, 0.9, 0.88, 0.86, 0.84, 0.4, 0.42, 0.41, 0.45, 0.6, 1.0]
    # Swings: 0.36 at 3, 0.44 at 7, 0.40 at 12 (the last step: full time is exact), 0.15 at 11 (too near 12).
    assert review.turning_points(home) == (3, 7, 12)
    assert review.turning_points(home, count=1) == (7,)
    # A swing that goes on over two steps, then back: one turning point, the bigger step.
    assert review.turning_points([0.5] * 5 + [0.8, 0.3] + [0.3] * 5, count=2) == (6,)
    assert review.turning_points([0.5, 0.52, 0.5, 0.53]) == ()  # no swing big enough
    found = _review("big-time-soccer")
    biggest = max(abs(found.swing(i)) for i in range(1, len(found.home)))
    assert found.turning and max(abs(found.swing(i)) for i in found.turning) == biggest
    assert found.biggest_turn() in found.turning and abs(found.swing(found.biggest_turn())) == biggest


def test_a_dip_undone_at_once_is_no_turning_point() -> None:
    """Pass 11, finding 1: an estimate one step too low, then back, is noise; the turning
    point is the step after which the chance stays changed."""
    home = [0.5, 0.5, 0.52, 0.5, 0.15, 0.5, 0.52, 0.5, 0.5, 0.8, 0.82, 0.8, 0.81, 0.8]
    assert review.turning_points(home) == (9,)
    assert review.lasting_swing(home, 4) == review.lasting_swing(home, 5) == 0.0
    assert review.lasting_swing(home, 9) == pytest.approx(0.3)
    assert review.levels(home, 9) == (0.5, 0.8)
    # A dip of two positions (a face-down pick keeps the estimate before it) is no swing either.
    paired = [0.5] * 5 + [0.1, 0.1] + [0.5] * 4 + [0.75] * 5
    assert review.turning_points(paired) == (11,)
    # A swing in noisy estimates: it counts at its own step, as far as it lasts.
    noisy = [0.5, 0.55, 0.45, 0.5, 0.42, 0.55, 0.5, 0.8, 0.72, 0.85, 0.78, 0.8, 0.75]
    assert review.turning_points(noisy) == (7,)
    assert review.Review("x", tuple(noisy), (7,), "f").biggest_turn() == 7


def test_a_face_down_pick_keeps_the_estimate_before_it() -> None:
    """Soccer-Go: the defender cannot see the attacker's face-down pick (and the other way
    round); the position it reaches is judged as the one before it, so a quiet stretch of
    passes and marks no longer zig-zags up and down at every pick."""
    record = _match("soccer-go")
    states = get_game("soccer-go").replay(record)
    home = _review("soccer-go").home
    actions = [str(action) for _, action in record["actions"]]
    picks = [i for i in range(1, len(states)) if states[i].phase_name == "pass" and states[i].choice.count(None) == 1]
    assert len(picks) > 30
    quiet = [
        i for i in range(2, len(home) - 1) if all(a.startswith(("pass ", "mark ")) for a in actions[i - 2 : i + 1])
    ]
    assert len(quiet) > 30
    zigzags = [i for i in quiet if (home[i] - home[i - 1]) * (home[i + 1] - home[i]) < 0]
    assert zigzags == []
    assert all(home[i] == home[i - 1] for i in picks)
    assert all(review.judged_position(states, i) == review.judged_position(states, i - 1) for i in picks)
    # Every other position is judged as ever.
    assert review.judged_position(states, picks[0] + 1) == picks[0] + 1


def test_kept_with_the_record_and_read_back() -> None:
    record = _match("soccer-go")
    found = _review("soccer-go")
    kept = review.attach(record, found)
    assert review.stored(kept) == found
    assert review.stored(record) is None
    assert get_game("soccer-go").load(kept) == get_game("soccer-go").load(record)  # replays as before
    # A match that went on since: the review is not its review.
    shorter = {**kept, "actions": kept["actions"][:-1]}
    assert review.stored(shorter) is None
    with pytest.raises(review.ReviewError):
        review.attach(shorter, found)


@pytest.mark.parametrize(
    "damage",
    [
        {"version": 99},
        {"home": [2.0]},
        {"home": "many"},
        {"turning": [0]},
        {"turning": ["x"]},
    ],
)
def test_a_damaged_review_is_refused(damage: dict[str, Any]) -> None:
    record = _match("soccer-go")
    kept = review.attach(record, _review("soccer-go"))
    broken = {**kept, "review": {**kept["review"], **damage}}
    if "home" in damage and damage["home"] == [2.0]:
        broken["review"]["home"] = [*kept["review"]["home"][:-1], 2.0]
    with pytest.raises(review.ReviewError):
        review.stored(broken)


def test_estimates_for_a_position_outside_the_match_are_refused() -> None:
    record = _match("soccer-go")
    with pytest.raises(ValueError, match="outside"):
        review.estimate_slice("soccer-go", record, 0, len(record["actions"]) + 5)
    with pytest.raises(review.ReviewError):
        review.build(record, [0.5])


def test_the_chart_line_drops_a_short_dip_and_keeps_a_lasting_step_where_it_was() -> None:
    """The chart drew the raw estimates, each noisy by its twelve trial games (about ±0.10): the
    line zig-zagged. It now follows the median of five positions."""
    home = [0.5, 0.52, 0.48, 0.9, 0.5, 0.51, 0.49, 0.85, 0.86, 0.84, 0.87, 0.85]
    line = review.smoothed(home)
    assert len(line) == len(home)
    assert all(abs(v - 0.5) <= 0.02 for v in line[:6])  # a one-position dip of the noise is gone
    assert line[7] >= 0.84 and line[6] <= 0.51  # the lasting rise still at the step to position 7
    assert line[-1] == pytest.approx(0.85)
    assert review.smoothed([0.3]) == (0.3,) and review.smoothed([]) == ()
