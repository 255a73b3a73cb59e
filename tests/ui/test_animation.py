"""Dice and card animations: what gets animated, skipping, and the speed setting."""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import Qt

from soccerdesk.rules import CHANCE, GAMES, get_game
from soccerdesk.rules.api import sample_chance
from soccerdesk.ui.animation import ROLLING, Animation, EventAnimation, animation_for, caption_at


def test_rolls_reveals_and_goals_are_animated_other_events_only_logged() -> None:
    roll = animation_for({"kind": "roll", "text": "The die shows 17", "data": {"roll": 17}}, die_sides=20)
    assert roll == Animation("die", "The die shows 17", 17, 20)
    six = animation_for({"kind": "roll", "text": "Seat 0 rolls 4 to move.", "data": {"value": 4}})
    assert six is not None and (six.value, six.sides) == (4, 6)
    reveal = animation_for({"kind": "marked", "text": "Pass 3 is marked.", "data": {"attacker": [5], "defender": [5]}})
    assert reveal is not None and reveal.faces == ("5", "5")
    assert animation_for({"kind": "goal", "text": "Goal!", "data": {}}).kind == "goal"  # type: ignore[union-attr]
    assert animation_for({"kind": "chosen", "text": "Seat 1 has chosen.", "data": {}}) is None


def test_a_die_names_its_number_only_once_it_has_settled_on_it() -> None:
    """While the die tumbles it shows other faces: the words under it wait for the real one."""
    roll = Animation("die", "The die shows 7 (clear: 1-2 keeps the ball)", 7, 20)
    assert caption_at(roll, 0.0) == caption_at(roll, ROLLING - 0.01) == "Rolling…"
    assert caption_at(roll, ROLLING) == caption_at(roll, 1.0) == roll.text
    card = Animation("card", "Away draws Challenge", faces=("Challenge",))
    assert caption_at(card, 0.0) == card.text


def test_an_animation_can_be_skipped_with_a_click(qtbot) -> None:
    layer = EventAnimation()
    qtbot.addWidget(layer)
    layer.resize(400, 300)
    with qtbot.waitSignal(layer.done, timeout=1_000):
        layer.play([Animation("die", "rolls", 3), Animation("goal", "Goal")], speed=50.0)  # would take a minute
        assert layer.running
        qtbot.mouseClick(layer, Qt.MouseButton.LeftButton)
    assert not layer.running and not layer.isVisible()


def test_speed_off_plays_nothing(qtbot) -> None:
    layer = EventAnimation()
    qtbot.addWidget(layer)
    with qtbot.waitSignal(layer.done, timeout=100):
        layer.play([Animation("card", "a card", faces=("7",))], speed=0.0)
    assert not layer.running


def test_an_animation_ends_by_itself(qtbot) -> None:
    layer = EventAnimation()
    qtbot.addWidget(layer)
    layer.resize(400, 300)
    with qtbot.waitSignal(layer.done, timeout=2_000):
        layer.play([Animation("card", "Pass 1 to 5", faces=("5", "3"))], speed=0.2)


def _kinds_met_in_play(game_id: str, seeds: int = 3) -> set[str]:
    """Every event kind random seeded matches of a game produce."""
    kinds: set[str] = set()
    for seed in range(seeds):
        state = get_game(game_id).new_match(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            seat = state.current_players()[0]
            action = sample_chance(state, rng) if seat == CHANCE else rng.choice(state.legal_actions(seat))
            state = state.apply(seat, action)
            kinds.update(event.kind for event in state.events)
    return kinds


@pytest.mark.parametrize("game_id", GAMES)
def test_only_a_goal_gets_the_goal_banner(game_id: str) -> None:
    kinds = _kinds_met_in_play(game_id) | {"goal", "goal_kick", "goal_kick_result", "goal-kick", "goalkeeper"}
    for kind in sorted(kinds):
        shown = animation_for({"kind": kind, "text": f"a {kind} event", "data": {}})
        assert (shown is not None and shown.kind == "goal") == (kind == "goal"), kind


@pytest.mark.parametrize("game_id", [g for g in GAMES if g != "pawn-soccer"])  # Pawn Soccer has no halves
def test_half_time_gets_a_banner_in_every_game_with_halves(game_id: str, qtbot) -> None:
    """QA: in Big Time Soccer the second half began at once, with nothing but a log line to say
    the first one was over. The event that ends a half now gets a HALF-TIME banner."""
    kinds = _kinds_met_in_play(game_id, seeds=1)
    half_time = [kind for kind in kinds if kind.replace("_", "-") == "half-time"]
    assert half_time, sorted(kinds)
    shown = animation_for({"kind": half_time[0], "text": "Half-time: 1-1", "data": {}})
    assert shown is not None and shown.kind == "banner" and shown.faces == ("HALF-TIME",)
    assert banner_word_pixels(qtbot, shown) > 50  # the banner's word is painted


def banner_word_pixels(qtbot, animation: Animation) -> int:
    """Pixels of the banner's yellow word, sampled on a 400 × 300 layer playing ``animation``."""
    layer = EventAnimation()
    qtbot.addWidget(layer)
    layer.resize(400, 300)
    layer.play([animation], speed=1.0)
    qtbot.wait(300)
    image = layer.grab().toImage()
    layer.skip()
    return sum(
        1
        for x in range(0, 400, 2)
        for y in range(0, 300, 2)
        if (c := image.pixelColor(x, y)).red() > 200 and c.green() > 200 and c.blue() < 120
    )
