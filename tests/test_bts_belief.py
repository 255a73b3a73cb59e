"""benchmarks/bts_belief.py: forecasts of the opponent's defensive cards, scored against its hand."""

from __future__ import annotations

import math
import random

import pytest

from soccerdesk.bots.bts_particles import SeatReplay
from tests.benchmark_scripts import load_benchmark
from tests.match_positions import watched_match

belief = load_benchmark("bts_belief")


def test_a_sure_right_forecast_scores_zero_and_a_coin_toss_a_quarter() -> None:
    assert belief.scores([(1.0, True), (0.0, False)]) == pytest.approx((0.5, 0.5, 0.0, -math.log(1 - 1e-3)))
    mean, true, brier, loss = belief.scores([(0.5, True), (0.5, False)])
    assert (mean, true, brier) == pytest.approx((0.5, 0.5, 0.25))
    assert loss == pytest.approx(math.log(2))


def test_two_matches_give_forecasts_of_both_kinds_and_the_belief_guesses_the_declined_kinds_better(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert belief.main(["--matches", "2", "--seed", "60000", "--worlds", "40"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = {(line[:20].strip(), line[21:29].strip()): line.split()[-4:] for line in lines[2:-1]}
    assert set(rows) == {(q, w) for q in belief.QUESTIONS for w in ("uniform", "belief")}
    brier = {key: float(values[2]) for key, values in rows.items()}
    assert brier[("declined kinds", "belief")] < brier[("declined kinds", "uniform")]


def test_copies_are_counted_as_the_mean_over_the_worlds_drawn() -> None:
    forecasts = belief.Forecasts()
    forecasts.count("uniform", [(3, 3, 5), (5,)])
    assert forecasts.copies["uniform"] == pytest.approx({3: 1.0, 5: 1.0})


def test_with_cards_every_card_is_listed_with_the_copies_held_and_guessed(capsys: pytest.CaptureFixture[str]) -> None:
    assert belief.main(["--matches", "1", "--seed", "60000", "--worlds", "20", "--cards"]) == 0
    lines = capsys.readouterr().out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("card "))
    rows = {line.split()[0]: [float(x) for x in line.split()[1:]] for line in lines[start + 1 : -1]}
    cards = belief.get_game("big-time-soccer").t.cards
    assert set(rows) == {card.code for card in cards}
    # Each way's copies add up to the mean hand size at those decisions: one to six cards.
    for column in range(3):
        assert 1.0 <= sum(values[column] for values in rows.values()) <= 6.0


def test_the_fitted_tilt_makes_drawn_hands_hold_what_real_ones_did() -> None:
    # Three kinds, three copies each, one card in hand: the real hand is kind 0 three times in four.
    seen = [((3, 3, 3), (0,))] * 3 + [((3, 3, 3), (2,))]
    tilt, held, drawn = belief.fit_tilt(seen, draws=200, rounds=12, seed=1)
    assert held == pytest.approx([0.75, 0.0, 0.25])
    assert drawn == pytest.approx(held, abs=0.05)
    assert tilt[0] > 2 * tilt[2] > 0 and 0 < tilt[1] < tilt[2] / 100  # a kind never held is all but ruled out
    assert sum(tilt) / 3 == pytest.approx(1.0)


def test_fit_prints_a_tilt_for_every_card(capsys: pytest.CaptureFixture[str]) -> None:
    assert belief.main(["--matches", "1", "--seed", "60000", "--worlds", "5", "--fit"]) == 0
    out = capsys.readouterr().out
    line = next(line for line in out.splitlines() if line.startswith("tilt by card code = "))
    cards = belief.get_game("big-time-soccer").t.cards
    assert all(f'"{card.code}": ' in line for card in cards)


def test_a_hand_now_is_taken_back_through_the_cards_played_and_drawn() -> None:
    replay = belief.ChoiceReplay(0)
    replay.events = [("decide", 0), ("spend", 5), ("draw", 0), ("decide", 1), ("spend", 7), ("draw", 0)]
    then = replay.hands_then((1, 2, 3), (), 2, random.Random(3))
    assert then is not None and set(then) == {0, 1}
    assert 7 in then[1] and len(then[1]) == 3 and len(set(then[1]) - {1, 2, 3, 7}) == 0
    assert 5 in then[0] and len(then[0]) == 3
    # A card shown in stoppage time was held all along: never the one drawn.
    for seed in range(20):
        kept = replay.hands_then((1, 2, 3), (1, 2), 1, random.Random(seed))
        assert kept is not None and kept[1] == (1, 2, 7)
    # Cards known only since the stoppage roll: nothing before it is weighed.
    replay.start = 3
    assert set(replay.hands_then((1, 2, 3), (), 5, random.Random(3)) or {}) == {1}


def test_at_each_replayed_decision_the_hand_then_held_makes_the_heuristic_choose_what_it_chose() -> None:
    # The replay's positions are right in all the heuristic reads: given the opponent's real
    # hand of the time (here taken from the match, which no belief may do), it agrees.
    seen = watched_match(60002, 500)
    real_hands = [s.hands[1] for s in seen if s.current_players() == (1,)]
    replay = SeatReplay(0)
    replay.update(seen[-1].determinize(0, random.Random(1)))
    choices = belief.ChoiceBelief()
    assert len(replay.decisions) == len(real_hands) > 50
    said = [
        choices._agrees(position, 1, hand, action)
        for (position, action), hand in zip(replay.decisions, real_hands, strict=True)
    ]
    assert False not in said
    assert said.count(True) > 20


def test_the_choice_belief_draws_from_the_seats_view_alone() -> None:
    state = watched_match(60003, 400)[-1]
    seat = state.current_players()[0] if state.current_players() in ((0,), (1,)) else 0
    draws = []
    for view_seed in (1, 2):
        view = state.determinize(seat, random.Random(view_seed))
        worlds = belief.ChoiceBelief(pool=30).worlds(view, seat)
        rng = random.Random(9)
        draws.append([worlds(rng).hands[1 - seat] for _ in range(20)])
    assert draws[0] == draws[1]


def test_with_choices_a_third_way_is_scored_and_its_cost_printed(capsys: pytest.CaptureFixture[str]) -> None:
    assert belief.main(["--matches", "1", "--seed", "60000", "--worlds", "20", "--choices", "--pool", "20"]) == 0
    out = capsys.readouterr().out
    assert "declined kinds       choices" in out and "any defensive card   choices" in out
    assert "ChoiceBelief (window 8, pool 20, stories 1): " in out and " ms p95" in out


def test_with_particles_a_fourth_way_is_scored_and_its_cost_printed(capsys: pytest.CaptureFixture[str]) -> None:
    assert belief.main(["--matches", "1", "--seed", "60000", "--worlds", "20", "--particles", "20"]) == 0
    out = capsys.readouterr().out
    assert "declined kinds       particles" in out and "any defensive card   particles" in out
    assert "ParticleBelief (20 hands, slack 0.03): " in out and " ms p95" in out
