"""The Soccer-Go heuristic bot: card timing, answers, swaps, numbers, and that it beats random."""

from __future__ import annotations

import random

from soccerdesk.bots import make_bot
from soccerdesk.bots.soccer_go import HeuristicBot
from soccerdesk.rules import CHANCE, sample_chance
from soccerdesk.rules.soccer_go import Mark, PassTo, Play, Retire, SoccerGoState
from tests.rules.test_soccer_go import GAME, act, arrange, kick_off, pass_, passes, shot

BOT = HeuristicBot("soccer-go")


def decide(state: SoccerGoState, seat: int, seed: int = 0) -> str:
    return str(BOT.decide(state, seat, random.Random(seed)))


def test_takes_the_pass_retake_after_a_mark() -> None:
    s = kick_off(att0=("att-pass-retake", "att-bogey"))
    s = pass_(passes(s, [2, 3, 4]), 5, 5)
    assert decide(s, 0) == "play att-pass-retake"


def test_takes_the_shot_retake_after_a_save_and_the_defender_after_a_goal() -> None:
    s = kick_off(att0=("att-shot-retake", "att-bogey"), def1=("def-shot-retake", "def-bogey"))
    s = passes(s, [2, 3, 4, 5, 6, 7, 8])
    assert decide(shot(s, "left", "left"), 0) == "play att-shot-retake"
    assert decide(shot(s, "left", "right"), 1) == "play def-shot-retake"


def test_shoots_with_the_shoot_card_as_soon_as_its_window_opens() -> None:
    s = kick_off(att0=("shoot", "att-bogey"))
    s = passes(s, [1, 10, 11])
    assert s.passes + 1 == 4
    assert decide(s, 0) == "play shoot"


def test_never_plays_a_bogey() -> None:
    s = kick_off(att0=("att-bogey", "shoot"))
    for seed in range(10):
        assert decide(s, 0, seed).startswith("pass")


def test_counter_attack_retires_the_goalkeeper_first() -> None:
    s = kick_off(att0=("counter-attack", "shoot"))
    s = act(act(s, 0, "play counter-attack"), 1, "no card")
    assert s.phase_name == "counter"
    assert BOT.decide(s, 0, random.Random(1)) == Retire(1)


def test_defender_keeps_tackle_until_the_last_pass_of_its_window() -> None:
    s = kick_off(def1=("tackle", "def-bogey"))
    s = passes(s, [2, 3])  # before pass 3: first pass of the window
    assert not decide(s, 1).startswith("play")
    s = passes(s, [4, 5, 6])  # before pass 6: last pass of the window
    assert decide(s, 1) == "play tackle"


def test_blocks_a_shoot_card() -> None:
    s = kick_off(att0=("shoot", "att-bogey"), def1=("def-block-3", "def-bogey"))
    s = act(passes(s, [2, 3, 4]), 0, "play shoot")
    assert decide(s, 1) == "play def-block-3"


def test_swaps_the_weakest_card_for_a_better_draw_and_keeps_a_worse_one() -> None:
    s = pass_(kick_off(), 6, 6)
    s = act(s, 0, "no card")
    better = act(s, CHANCE, "draw shoot")
    assert decide(better, 0) in ("swap att-bogey", "swap def-bogey")
    s2 = act(s, CHANCE, "draw att-block-3")
    s2 = arrange(s2, hands=(("clearance", "corner", "dribble", "tackle"), s2.hands[1]))
    assert decide(s2, 0) == "keep hand"


def test_attacker_passes_to_the_goalkeeper_most_often_early() -> None:
    s = kick_off(att0=("att-bogey", "attacking-gk"))
    picks = [BOT.choose(s, 0, s.legal_actions(0), random.Random(k)) for k in range(300)]
    share = sum(1 for p in picks if p == PassTo((1,))) / len(picks)
    assert share > 0.15  # uniform would be 1/11
    marks = [BOT.choose(s, 1, s.legal_actions(1), random.Random(k)) for k in range(300)]
    assert len({m for m in marks if isinstance(m, Mark)}) >= 8  # the mark stays mixed


def test_decision_ignores_the_opponents_hidden_cards() -> None:
    """Same view, different opponent hands: same decision for the same rng."""
    a = kick_off(att0=("shoot", "att-bogey"), def1=("tackle", "clearance"))
    b = kick_off(att0=("shoot", "att-bogey"), def1=("def-block-3", "narrow-shot"))
    a, b = passes(a, [2, 3, 4]), passes(b, [2, 3, 4])
    assert a.view(0) == b.view(0)
    for seed in range(5):
        assert BOT.decide(a, 0, random.Random(seed)) == BOT.decide(b, 0, random.Random(seed))


def test_evaluate_is_bounded_and_follows_the_score() -> None:
    s = kick_off(power_cards=False)
    assert BOT.evaluate(s, 0) > 0 > BOT.evaluate(s, 1)  # seat 0 is attacking
    scored = shot(passes(s, [2, 3, 4, 5, 6, 7, 8]), "left", "right")
    assert 0 < BOT.evaluate(scored, 0) <= 1


def test_heuristic_beats_random_over_a_short_series() -> None:
    heuristic, rnd = make_bot("heuristic", "soccer-go"), make_bot("random", "soccer-go")
    wins = losses = 0
    for seed in range(40):
        state = GAME.new_match(seed=seed)
        rng = random.Random(seed)
        seat_of_heuristic = seed % 2
        while not state.is_terminal():
            seat = state.current_players()[0]
            if seat == CHANCE:
                action = sample_chance(state, rng)
            else:
                bot = heuristic if seat == seat_of_heuristic else rnd
                action = bot.decide(state, seat, rng)
                if bot is heuristic and isinstance(action, Play):
                    assert not action.card.endswith("bogey")
            state = state.apply(seat, action)
        wins += state.winner == seat_of_heuristic
        losses += state.winner == 1 - seat_of_heuristic
    assert wins > 1.5 * losses
