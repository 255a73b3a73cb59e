"""benchmarks/bts_headroom.py: the advantage over the heuristic's pick at each decision, and the
goals a share of decided matches asks for."""

from __future__ import annotations

import random

import pytest

from soccerdesk.rules import CHANCE, get_game, sample_chance
from tests.benchmark_scripts import load_benchmark

headroom = load_benchmark("bts_headroom")


def _decision(plies: int = 60) -> tuple[object, int]:
    """A Big Time Soccer position where a side has a choice, some way into a random match."""
    state = get_game("big-time-soccer").new_match(seed=4)
    rng = random.Random(4)
    while True:
        seat = state.current_players()[0]
        legal = state.legal_actions(seat) if seat != CHANCE else []
        if state.ply >= plies and seat != CHANCE and len(legal) > 2:
            return state, seat
        state = state.apply(seat, sample_chance(state, rng) if seat == CHANCE else rng.choice(legal))


def test_even_sides_share_the_decided_matches_and_a_goal_more_wins_more() -> None:
    assert headroom.decided_share(2.2, 0.0) == pytest.approx(0.5)
    shares = [headroom.decided_share(2.2, edge) for edge in (0.1, 0.2, 0.4)]
    assert 0.5 < shares[0] < shares[1] < shares[2] < 1.0
    # Poisson sides at 1.1 goals each: 30% more goals than conceded wins about 60% of decided matches.
    edge = headroom.edge_for(2.2, 0.60)
    assert headroom.decided_share(2.2, edge) == pytest.approx(0.60, abs=1e-6)
    assert (2.2 + edge) / (2.2 - edge) == pytest.approx(1.3, abs=0.02)


def test_the_heuristics_own_pick_has_no_advantage_over_itself() -> None:
    state, seat = _decision()
    probe = headroom.Probe(rounds=4, cap=1)
    legal = state.legal_actions(seat)
    pick = probe.heuristic.choose(state, seat, legal, random.Random(0))
    assert probe.measure(state, seat, legal, pick, random.Random(1)) == (0.0, 0.0, 0.0)


def test_the_best_advantage_is_never_below_the_checked_one_nor_below_zero() -> None:
    state, seat = _decision()
    probe = headroom.Probe(rounds=6, cap=4)
    legal = state.legal_actions(seat)
    pick = probe.heuristic.choose(state, seat, legal, random.Random(0))
    best, checked, confident = probe.measure(state, seat, legal, pick, random.Random(1))
    assert best >= 0.0  # the pick itself is among the actions judged
    # The action picked on one half and judged on the other scores at most its own mean over
    # both halves (it beat every other on the half it was picked on), which is at most the best.
    assert best >= checked
    assert best >= confident


def test_a_lead_counts_as_confident_only_well_above_its_noise() -> None:
    assert headroom._confident_lead([0.1, 0.1, 0.1, 0.1])  # no noise at all
    assert not headroom._confident_lead([0.3, -0.2, 0.25, -0.3])
    assert not headroom._confident_lead([-0.1, -0.1, -0.1])
