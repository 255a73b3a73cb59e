"""The Big Time Soccer heuristic bot follows the rulebook's playing tips."""

from __future__ import annotations

import random

from soccerdesk.bots import make_bot
from soccerdesk.rules import CHANCE, sample_chance
from soccerdesk.rules.big_time_soccer import BigTimeState
from tests.rules.test_big_time_soccer import AWAY, GAME, HOME, position, run, settle_draws

BOT = make_bot("heuristic", "big-time-soccer")


def decide(state: BigTimeState, seat: int, seed: int = 1) -> str:
    return str(BOT.decide(state, seat, random.Random(seed)))


def test_moves_into_the_box_when_holding_an_inside_shot() -> None:
    """Tip: count the spaces to a shot; the box with an Inside card is the big chance."""
    state = position(ball="A1C", hands=(["SIN", "DA1D", "PL1P", "C", "SOUT", "I"], ["C", "I"]))
    assert decide(state, HOME) == "play DA1D A2C"


def test_shoots_the_inside_card_from_the_box() -> None:
    state = position(ball="A2C", hands=(["SIN", "PA1P", "C"], []))
    assert decide(state, HOME) == "shoot SIN"


def test_keeps_a_single_inside_card_and_holds_when_one_card_short() -> None:
    """Tips: keep Inside cards for the box; hold when a card short of an Inside shot."""
    state = position(ball="A1C", hands=(["SIN", "PA1P", "PL1P", "C", "I", "PR1P"], ["C"]), next_req="dribble")
    assert decide(state, HOME) == "hold"
    state = run(state, (HOME, "hold"))
    assert decide(state, HOME) != "discard SIN"


def test_spends_an_outside_card_rather_than_a_lone_inside_card() -> None:
    state = position(ball="A1L", hands=(["SIN", "SOUT", "C", "I", "PL1P"], []), next_req="dribble", hold_blocked=True)
    assert decide(state, HOME) == "shoot SOUT"


def test_saves_the_star_for_its_own_box_and_never_fouls_there_with_a_normal_card() -> None:
    """Tip: in your own box only the C/I+Star cards are worth playing (a foul is a penalty)."""
    midfield = settle_draws(
        run(position(ball="M1C", hands=(["PA1P"], ["STAR", "SIN"])), (HOME, "play PA1P M2C")), "PA2"
    )
    assert decide(midfield, AWAY) == "reply none"
    box = settle_draws(run(position(ball="A1C", hands=(["DA1D"], ["STAR", "C"])), (HOME, "play DA1D A2C")), "PA2")
    assert decide(box, AWAY) == "reply STAR"
    normal_only = settle_draws(
        run(position(ball="A1C", hands=(["DA1D"], ["C", "SIN"])), (HOME, "play DA1D A2C")), "PA2"
    )
    assert decide(normal_only, AWAY) == "reply none"


def test_challenges_every_hold() -> None:
    """Rulebook: a C card on a hold is an automatic tackle."""
    state = position(ball="M2C", hands=(["PA1P", "C"], ["C", "SIN"]))
    state = run(state, (HOME, "hold"), (HOME, "discard none"))
    assert decide(state, AWAY) == "reply C"


def test_goal_kick_throws_in_with_pass_2_cards_and_uses_the_chart_without_movers() -> None:
    """Tips: "Pass 2" cards are valuable after a goal kick (throw in to D2 and go);
    with few cards to advance, the Goal Kick chart is better."""
    strong = position(ball="D1C", hands=(["PA2", "PDR2", "DA1P", "PA1D", "SIN", "C"], []), phase="goal_kick")
    assert decide(strong, HOME).startswith("throw-in")
    weak = position(ball="D1C", hands=(["SIN", "SOUT", "C", "I", "STAR", "C3"], []), phase="goal_kick")
    assert decide(weak, HOME) == "goal-kick"


def test_burns_time_when_ahead_late() -> None:
    """Tip: ahead late, do not clear keep-in-play and throw the goal kick in."""
    late = dict(half=2, goals=(2, 0), stoppage=4, stoppage_minutes=2)
    state = position(ball="D1C", hands=(["SIN", "SOUT", "C", "I", "STAR", "C3"], []), phase="goal_kick", **late)
    assert decide(state, HOME).startswith("throw-in")
    state = position(ball="M1C", hands=(["C", "I"], []), **late)
    assert not decide(state, HOME).startswith("clear-in")


def test_takes_the_pass_os_free_shot() -> None:
    state = position(ball="M2L", hands=(["PDR2OS", "C"], []))
    state = run(settle_draws(run(state, (HOME, "play PDR2OS A1C")), "PA1P"), (AWAY, "reply none"))
    assert decide(state, HOME) == "shoot free"


def test_accepts_the_end_of_the_half_only_when_ahead() -> None:
    """Tip: burn time when ahead; level or behind, the cards still in hand are chances."""
    ahead = position(ball="M1C", hands=(["C"], ["C"]), stoppage=0, goals=(0, 1), phase="end_offer")
    assert decide(ahead, AWAY) == "accept-end"
    level = position(ball="M1C", hands=(["C"], ["C"]), stoppage=0, goals=(1, 1), phase="end_offer")
    assert decide(level, AWAY) == "decline-end"
    behind = position(ball="M1C", hands=(["C"], ["C"]), stoppage=0, goals=(1, 0), phase="end_offer")
    assert decide(behind, AWAY) == "decline-end"


def test_level_with_a_free_shot_it_shoots_rather_than_proposing_the_end() -> None:
    """A replayed match had the bot propose the end at 0-0 with the Pass+O/S free shot open."""
    level = position(ball="A2R", hands=(["C"], ["C"]), stoppage=0, free_shot=True)
    assert "propose-end" in {str(a) for a in level.legal_actions(HOME)}
    assert decide(level, HOME) == "shoot free"
    ahead = position(ball="M1C", hands=(["C"], ["C"]), stoppage=0, goals=(1, 0))
    assert decide(ahead, HOME) == "propose-end"


def test_outscores_random_play() -> None:
    """A few whole matches: the heuristic scores more than a random player (fast smoke check)."""
    random_bot = make_bot("random", "big-time-soccer")
    goals = [0, 0]
    for seed in range(4):
        state = GAME.new_match(seed=seed)
        rng = random.Random(seed)
        heuristic_seat = seed % 2
        while not state.is_terminal():
            seat = state.current_players()[0]
            if seat == CHANCE:
                action = sample_chance(state, rng)
            else:
                bot = BOT if seat == heuristic_seat else random_bot
                action = bot.decide(state, seat, rng)
            state = state.apply(seat, action)
        goals[0] += state.score[heuristic_seat]
        goals[1] += state.score[1 - heuristic_seat]
    assert goals[0] > goals[1]


def test_counts_the_cards_to_the_box_respecting_the_next_icons() -> None:
    """Tip: count the spaces to a shot. From M2L only the Pass Ahead 1 (then Pass) and the
    Pass Diagonal Right 1 (then Dribble) open a two-card way into the box with this hand."""
    state = position(ball="M2L", hands=(["SIN", "PA1P", "DA1D", "PDR1D", "C", "I"], ["C"]))
    assert decide(state, HOME) in {"play PDR1D A1C", "play PA1P A1L"}


def test_the_search_looks_closer_only_at_close_calls_and_lists_the_heuristics_best_first() -> None:
    """A shot from the box with an Inside card is far ahead of anything else: no close call."""
    bot = make_bot("heuristic", "big-time-soccer")
    box = position(ball="A2C", hands=(["SIN", "PL1P", "C"], []), next_req="shot")
    assert decide(box, HOME) == "shoot SIN"
    legal = box.legal_actions(HOME)
    assert bot.ranked(box, HOME, legal)[0] == GAME.parse_action("shoot SIN")  # type: ignore[attr-defined]
    assert sorted(map(str, bot.ranked(box, HOME, legal))) == sorted(map(str, legal))  # type: ignore[attr-defined]
    assert not bot.close_call(box)  # type: ignore[attr-defined]


def test_the_search_counts_what_each_hand_is_worth_and_forgets_it_at_the_whistle() -> None:
    """The search's evaluation values a hand of movers and defensive cards above one clogged
    with shot cards (fitted on normal-vs-normal matches), judges the opponent's hand only by
    the cards not yet seen, and gives hands no worth once the match is in stoppage time."""
    from soccerdesk.bots.big_time_soccer import _Context

    movers = position(ball="M1C", hands=(["PA1P", "DA1D", "C", "I", "ANY", "PL1P"], ["C"]))
    shots = position(ball="M1C", hands=(["SIN", "SIN", "SOUT", "SOUT", "PA1P", "PL1P"], ["C"]))
    assert _Context(movers, HOME).hand_worth() > _Context(shots, HOME).hand_worth()
    # The opponent's single card is guessed from the unseen cards: the same whatever it is.
    other = position(ball="M1C", hands=(["PA1P", "DA1D", "C", "I", "ANY", "PL1P"], ["SIN"]))
    assert _Context(other, HOME).hand_worth() == _Context(movers, HOME).hand_worth()
    stoppage = position(ball="M1C", hands=(["PA1P", "DA1D", "C", "I", "ANY", "PL1P"], ["C"]), half=2, stoppage=2)
    assert _Context(stoppage, HOME).hand_worth() == 0.0
