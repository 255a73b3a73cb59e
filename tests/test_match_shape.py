"""benchmarks/match_shape.py: the figures it prints come out of what the matches really did."""

from __future__ import annotations

import random

import pytest

from soccerdesk.rules import CHANCE, get_game, sample_chance
from tests.benchmark_scripts import load_benchmark

shape = load_benchmark("match_shape")


def test_summary_figures_and_intervals() -> None:
    Shape = shape.Shape
    shapes = [
        Shape(goals=0, shots=2, cap=True, repeated=0, decisions=[0.001, 0.003]),
        Shape(goals=2, shots=4, cap=False, repeated=1, decisions=[0.002]),
        Shape(goals=4, shots=6, cap=False, repeated=3, decisions=[0.002]),
        Shape(goals=2, shots=4, cap=False, repeated=0, decisions=[0.004]),
    ]
    r = shape.summarise(shapes)
    assert r["matches"] == 4
    mean, lo, hi = r["goals"]
    assert mean == 2.0 and lo < 2.0 < hi
    # Sample sd of 0, 2, 4, 2 is sqrt(8/3): the interval is 1.96 sd / sqrt(4) either side.
    assert hi - mean == pytest.approx(1.96 * (8 / 3) ** 0.5 / 2)
    assert r["goalless"][0] == 0.25 and r["goalless"][1] < 0.25 < r["goalless"][2]
    assert r["shots"][0] == 4.0
    assert r["cap"][0] == 0.25
    assert r["repetition_share"][0] == 0.5 and r["repeated"][0] == 1.0
    assert r["decision_ms_mean"] == pytest.approx(2.4)
    assert r["decision_ms_p95"] == pytest.approx(4.0)
    assert "goals 2.00 [" in shape.format_row("pawn-soccer", "normal", r)


def test_timed_games_report_no_cap() -> None:
    r = shape.summarise([shape.Shape(goals=1, shots=1, cap=None, repeated=0, decisions=[])])
    assert r["cap"] is None
    assert " cap - " in shape.format_row("soccero", "normal", r)


def test_a_position_leaves_out_the_turn_counters_only() -> None:
    game = get_game("pawn-soccer")
    s = game.new_match(seed=3, quick_setup=True)
    later = s.evolve(turns=s.turns + 40)  # type: ignore[attr-defined]
    assert shape.position_key("pawn-soccer", later) == shape.position_key("pawn-soccer", s)
    moved = s.evolve(ball=s.ball + 1)  # type: ignore[attr-defined]
    assert shape.position_key("pawn-soccer", moved) != shape.position_key("pawn-soccer", s)


def test_a_match_is_counted_as_played() -> None:
    """A short Soccero match of random play: goals, shots and repetitions as the match had them."""
    options = {"turns": 3, "quick_setup": True}
    result = shape.play("soccero", "random", 11, options)
    # Replay the same match by hand (same seeds as the benchmark) and count.
    game = get_game("soccero")
    from soccerdesk.bots import make_bot

    state = game.new_match(seed=11, **options)
    bots = {seat: make_bot("random", "soccero") for seat in (0, 1)}
    chance, rngs = random.Random(11), {seat: random.Random(23 + seat) for seat in (0, 1)}
    shots = decisions = 0
    while not state.is_terminal():
        seat = state.current_players()[0]
        if seat == CHANCE:
            action = sample_chance(state, chance)
        else:
            action = bots[seat].decide(state, seat, rngs[seat])
            decisions += 1
            shots += str(action).startswith("shoot")
        state = state.apply(seat, action)
    assert result.goals == sum(state.score)
    assert result.shots == shots
    assert len(result.decisions) == decisions
    assert result.cap is None  # Soccero is played to the clock


def test_pawn_soccer_cap_is_the_turn_limit_before_the_goal_target() -> None:
    assert shape.goal_target("pawn-soccer", get_game("pawn-soccer").resolve_options({})) == 3
    result = shape.play("pawn-soccer", "random", 5, {"turn_limit": 4, "quick_setup": True})
    assert result.cap is True  # nobody scores three in four turns a side
