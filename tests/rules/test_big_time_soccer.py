"""Big Time Soccer rules, one small real position per rule.

Positions are built directly (hands, ball, phase) and driven with ``apply``: chance steps
are applied as the actions a driver would sample (``roll 14``, ``draw DA1D``...). Each test
names the rulebook section or ruling it checks.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
from typing import Any

import pytest

from soccerdesk.resources import load_game_data
from soccerdesk.rules import CHANCE, IllegalAction, get_game, play_out, sample_chance
from soccerdesk.rules.big_time_soccer import Act, BigTimeState
from soccerdesk.rules.big_time_soccer.cards import ContentError, load_content

GAME = get_game("big-time-soccer")
T = GAME.t  # type: ignore[attr-defined]
BOARD = T.board
HOME, AWAY = 0, 1


def idx(code: str) -> int:
    return T.by_code[code].index


def zone(seat: int, name: str) -> int:
    return BOARD.zone(seat, name)


def position(
    *,
    control: int = HOME,
    ball: str = "M1C",
    hands: tuple[list[str], list[str]] = ([], []),
    discards: list[str] = (),  # type: ignore[assignment]
    options: dict[str, Any] | None = None,
    **fields: Any,
) -> BigTimeState:
    """A mid-match position: ``ball`` is named in the frame of the seat in control; the pile
    holds every card not in a hand or on the discard pile."""
    start = GAME.new_match(seed=0, **(options or {}))
    hand_idx = tuple(tuple(sorted(idx(c) for c in h)) for h in hands)
    pile = list(T.deck)
    discard = [0] * len(pile)
    for k in (*hand_idx[0], *hand_idx[1]):
        pile[k] -= 1
    for code in discards:
        pile[idx(code)] -= 1
        discard[idx(code)] += 1
    values: dict[str, Any] = dict(
        first_kicker=HOME,
        ball=zone(control, ball),
        control=control,
        phase="play",
        roll=None,
        hands=hand_idx,
        pile=tuple(pile),
        pile_left=sum(pile),
        discard=tuple(discard),
    )
    values.update(fields)
    state = replace(start, **values)
    state._set_meta(start.info, None, ())
    return state


def run(state: BigTimeState, *steps: tuple[int, str]) -> BigTimeState:
    """Apply ``(seat, action text)`` steps, CHANCE included, checking each is legal."""
    for seat, text in steps:
        state = state.apply(seat, GAME.parse_action(text))
    return state


FILLERS = ("C", "I", "C3", "I3", "STAR", "SOUT")


def settle_draws(state: BigTimeState, *codes: str) -> BigTimeState:
    """Resolve pending replenishment draws with these cards, in order, then fill the hands
    with defensive cards (they add no Pass, Dribble or Shot option to the attacker)."""
    for code in codes:
        assert state.current_players() == (CHANCE,) and state.roll is None and state.to_draw
        state = state.apply(CHANCE, Act("draw", code))
    while state.roll is None and state.to_draw:
        filler = next(c for c in FILLERS if state.pile[idx(c)])
        state = state.apply(CHANCE, Act("draw", filler))
    return state


def legal(state: BigTimeState, seat: int) -> set[str]:
    return {str(a) for a in state.legal_actions(seat)}


def ball_name(state: BigTimeState, seat: int) -> str:
    return BOARD.names[seat][state.ball]


# --- the field and its frames --------------------------------------------------------------


def test_frames_the_box_is_my_d1c_and_the_opponents_a2c() -> None:
    """Rulebook "The Field": your D1C is your opponent's A2C (RULINGS frames)."""
    assert BOARD.box[HOME] == zone(AWAY, "A2C") == zone(HOME, "D1C")
    assert BOARD.box[AWAY] == zone(HOME, "A2C")
    # Away's L is Home's R.
    assert BOARD.names[AWAY][zone(HOME, "M1R")] == "M2L"


def test_data_validation_names_the_faulty_table() -> None:
    data = load_game_data("big-time-soccer")
    bad = {**data, "charts": {**data["charts"], "penalty": {"rows": [{"rolls": [1, 19], "result": "goal"}]}}}
    with pytest.raises(ContentError, match="charts.penalty.*20"):
        load_content(bad)


def test_deck_has_the_72_cards_of_the_rulings_table() -> None:
    """RULINGS deck table: 24 Pass, 21 Dribble, 5 Any, 6 Inside, 8 Outside, 3 C, 3 I, 2 Star."""
    by_kind: dict[str, int] = {}
    for card in T.cards:
        key = f"{card.kind}-{'in' if card.inside else 'out'}" if card.kind == "shot" else card.kind
        by_kind[key] = by_kind.get(key, 0) + card.copies
    assert by_kind == {
        "pass": 24,
        "dribble": 21,
        "any": 5,
        "shot-in": 6,
        "shot-out": 8,
        "challenge": 3,
        "intercept": 3,
        "star": 2,
    }
    assert T.deck_size == 72


# --- set up, kickoff, replenishment -----------------------------------------------------------


def test_kickoff_deal_six_each_kicker_in_own_m1c() -> None:
    """Rulebook "Set Up" and "Kickoff": coin toss, six cards each, ball in the kicker's M1C."""
    state = GAME.new_match(seed=3)
    assert state.current_players() == (CHANCE,)
    state = state.apply(CHANCE, Act("toss", "1"))
    rng = random.Random(3)
    while state.current_players() == (CHANCE,):
        state = state.apply(CHANCE, sample_chance(state, rng))
    assert [len(h) for h in state.hands] == [6, 6]
    assert state.control == AWAY and ball_name(state, AWAY) == "M1C"
    assert state.current_players() == (AWAY,)
    assert state.pile_left == 60


def test_replenishment_offensive_player_draws_first_then_defender() -> None:
    """Rulebook "Hand Replenishment": both replenish after a C/I card, the offense first."""
    state = position(
        ball="M1C", hands=(["PA1P", "DA1D", "SIN", "SOUT", "C", "PA2"], ["I", "DA1P", "PL2", "SIN", "C", "ANY"])
    )
    state = run(state, (HOME, "play PA1P M2C"))
    assert state.to_draw == (HOME,)
    state = settle_draws(state, "DA2")
    assert state.current_players() == (AWAY,)  # asked after the attacker has replenished
    state = run(state, (AWAY, "reply I"), (CHANCE, "roll 8"))  # failed interception
    assert state.to_draw == (AWAY,)
    state = settle_draws(state, "PR2")
    assert len(state.hands[HOME]) == len(state.hands[AWAY]) == 6


# --- offensive play ------------------------------------------------------------------------------


def test_next_icon_dribble_card_requires_a_dribble() -> None:
    """Rulings 2: after a Pass Ahead 2 (Dribble icon on top) only a Dribble (or Any) may follow."""
    state = position(ball="M1C", hands=(["PA2", "PA1P", "DA1D"], []))
    state = run(state, (HOME, "play PA2 A1C"))
    state = settle_draws(state, "PL1P", "PL1D", "PR1P")
    state = run(state, (AWAY, "reply none"))
    moves = {a for a in legal(state, HOME) if a.startswith("play")}
    assert "play DA1D A2C" in moves
    assert not any(m.startswith("play PA1P") or m.startswith("play PL1") for m in moves)


def test_two_space_card_may_move_one_space() -> None:
    """Rulebook: a 2-space card may move the ball just 1 space."""
    state = position(ball="M1C", hands=(["PA2"], []))
    assert {"play PA2 M2C", "play PA2 A1C"} <= legal(state, HOME)


def test_no_play_rows_dribble_ahead_2_not_in_defence() -> None:
    """RULINGS deck table: Dribble Ahead 2 cannot be played from D1/D2."""
    state = position(ball="D2C", hands=(["DA2"], []))
    assert not any(a.startswith("play DA2") for a in legal(state, HOME))
    state = position(ball="M1C", hands=(["DA2"], []))
    assert "play DA2 A1C" in legal(state, HOME)


def test_alan_throws_to_d2l_then_diagonal_right_2_and_dribble_ahead() -> None:
    """Rulebook example (Alan and Bob): Bob's shot, roll 14 = Save! Goal kick; Alan throws to
    D2L, plays Pass Diagonal-Right 2 to M2R, then the Dribble - Ahead he drew to A1R."""
    state = position(
        control=AWAY, ball="A1C", hands=(["PDR2", "SOUT", "C", "I", "SIN", "PL2"], ["SOUT", "DA1D", "PA1P"])
    )
    state = run(state, (AWAY, "shoot SOUT"), (CHANCE, "roll 14"))
    assert state.phase == "goal_kick" and state.control == HOME and ball_name(state, HOME) == "D1C"
    state = settle_draws(state, "DR1P")
    state = run(state, (HOME, "throw-in D2L"), (HOME, "play PDR2 M2R"))
    state = settle_draws(state, "DA1P")  # "fortunately his replacement card is a Dribble - Ahead"
    state = run(state, (AWAY, "reply none"))
    assert state.next_req == "dribble"
    state = run(state, (HOME, "play DA1P A1R"))
    assert ball_name(state, HOME) == "A1R"
    state = settle_draws(state, "PA1D")
    state = run(state, (AWAY, "reply none"))
    assert "shoot SIN" in legal(state, HOME)  # the Shot card can be played Outside from A1R


def test_alan_passes_back_to_the_goalkeeper_once_per_sequence() -> None:
    """Rulebook example: with only a Pass Left 1 in D1L, Alan passes back; goal kick follows.
    A second pass-back needs losing and regaining the ball."""
    state = position(ball="D1L", hands=(["PL1P", "C", "I", "SIN", "SOUT", "STAR"], []))
    assert "passback PL1P" in legal(state, HOME)
    state = run(state, (HOME, "passback PL1P"))
    assert state.current_players() == (CHANCE,)  # no Intercept may answer a pass-back
    state = settle_draws(state, "PA1P")
    assert state.phase == "goal_kick" and ball_name(state, HOME) == "D1C"
    state = run(state, (HOME, "throw-in D2C"))
    assert not any(a.startswith("passback") for a in legal(state, HOME))


def test_a_pass_back_fits_the_next_icon_even_with_the_any_card() -> None:
    """docs/rulings.md, Pass-back: the card goes back as a Pass, so after a card whose icon asks
    for a Dribble neither a Pass card nor the Any card may pass back (the Any card may still be
    played on as a Dribble)."""
    state = position(ball="D1L", hands=(["PR1D", "ANY", "PA1P", "I", "SOUT", "SIN"], []))
    state = run(state, (HOME, "play PR1D D1C"))
    state = settle_draws(state, "PA1D")
    state = run(state, (AWAY, "reply none"))
    assert state.next_req == "dribble"
    actions = legal(state, HOME)
    assert not any(a.startswith("passback") for a in actions)
    assert any(a.startswith("play ANY") for a in actions)
    for card in ("ANY", "PA1P"):
        with pytest.raises(IllegalAction, match="a Pass card the last card allows"):
            run(state, (HOME, f"passback {card}"))


def test_hold_then_dribble_into_box_and_inside_shot_scores_on_18() -> None:
    """Rulebook example: ball in A1C after Pass Ahead 2, no Dribble: hold, keep (roll 1-10),
    draw a Dribble - Ahead, dribble into the box, Inside shot: 18-20 is a goal."""
    state = position(ball="A1C", hands=(["SIN", "PA1P", "C", "I", "SOUT"], []), next_req="dribble", hold_blocked=False)
    assert "hold" in legal(state, HOME)
    state = run(state, (HOME, "hold"), (HOME, "discard C"))
    state = settle_draws(state, "DA1D")
    state = run(state, (AWAY, "reply none"), (CHANCE, "roll 10"))
    assert state.control == HOME and state.hold_blocked and "hold" not in legal(state, HOME)
    state = run(state, (HOME, "play DA1D A2C"))
    state = settle_draws(state, "PL2")
    state = run(state, (AWAY, "reply none"))
    assert {a for a in legal(state, HOME) if a.startswith("shoot")} == {"shoot SIN"}
    scored = run(state, (HOME, "shoot SIN"), (CHANCE, "roll 18"))
    assert scored.score == (1, 0)
    assert scored.control == AWAY and ball_name(scored, AWAY) == "M1C"  # kickoff for the conceding team


def test_inside_shot_17_is_a_save_and_goal_kick() -> None:
    state = position(ball="A2C", hands=(["SIN"], []))
    state = run(state, (HOME, "shoot SIN"), (CHANCE, "roll 17"))
    assert state.score == (0, 0) and state.phase == "goal_kick" and state.control == AWAY


def test_outside_shot_scores_only_on_20_and_not_from_the_box() -> None:
    """Rulebook "Shot at Net - Outside the Box": 20 scores; an Outside card cannot be played in the box."""
    state = position(ball="A1L", hands=(["SOUT"], []))
    assert run(state, (HOME, "shoot SOUT"), (CHANCE, "roll 19")).score == (0, 0)
    assert run(state, (HOME, "shoot SOUT"), (CHANCE, "roll 20")).score == (1, 0)
    in_box = position(ball="A2C", hands=(["SOUT", "PA1P"], []))
    assert legal(in_box, HOME) == {"clear-box"}


def test_inside_card_played_as_an_outside_shot_from_a1c_scores_only_on_20() -> None:
    """Rulebook example ("Shooting the Ball"): after a Pass Ahead 2 into A1C with no Dribble
    card, the Inside card may be played from A1C as an Outside shot, with less chance."""
    state = position(ball="A1C", hands=(["SIN", "PA1P"], []), next_req="dribble")
    assert "shoot SIN" in legal(state, HOME)
    assert run(state, (HOME, "shoot SIN"), (CHANCE, "roll 18")).score == (0, 0)
    assert run(state, (HOME, "shoot SIN"), (CHANCE, "roll 20")).score == (1, 0)
    assert "shoot SIN" not in legal(position(ball="M2C", hands=(["SIN"], [])), HOME)


def test_in_the_opponents_box_without_inside_shot_clear_gives_goal_kick() -> None:
    """Rulebook: no Inside shot card in the box: a Clear action gives the opponent a goal kick.
    docs/rulings.md: in regular time it costs no card (the keep-in-play clear costs none); in
    stoppage time it costs one, like every clear."""
    state = position(ball="A2C", hands=(["PA1P", "C"], []))
    cleared = run(state, (HOME, "clear-box"))
    assert cleared.phase == "goal_kick" and cleared.control == AWAY and len(cleared.hands[HOME]) == 2
    late = position(ball="A2C", hands=(["PA1P", "C"], []), stoppage=4, stoppage_minutes=2)
    late = run(late, (HOME, "clear-box"))
    assert late.phase == "discard" and legal(late, HOME) == {"discard PA1P", "discard C"}
    late = run(late, (HOME, "discard C"))
    assert late.phase == "goal_kick" and late.control == AWAY


# --- shot chart row families ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("roll", "control", "zone_name", "phase"),
    [
        (1, HOME, "A1C", "play"),  # Blocked - Offense gets Ball Control A1C
        (6, HOME, "A1L", "play"),  # Offense Throw-In A1L
        (7, HOME, "A1R", "play"),  # Offense Throw-In A1R
        (8, AWAY, "D2L", "play"),  # Defense gets Ball Control D2L (its own frame)
        (10, AWAY, "D1L", "play"),  # Defense Throw-In D1L
        (12, AWAY, "D2C", "play"),  # Defense gets Ball Control D2C
        (15, AWAY, "D1C", "goal_kick"),  # Save! Defense gets Goal Kick
    ],
)
def test_shot_chart_rows(roll: int, control: int, zone_name: str, phase: str) -> None:
    """Chart sheet "Shot at Net": zones read in the frame of the team named (RULINGS)."""
    state = position(ball="A1R", hands=(["SOUT"], []))
    state = run(state, (HOME, "shoot SOUT"), (CHANCE, f"roll {roll}"))
    assert state.control == control and ball_name(state, control) == zone_name and state.phase == phase
    assert state.next_req is None


def test_corner_kick_loops_back_into_the_shot_chart() -> None:
    """Rulings 7: the corner result rolls the Shot chart again; 20 scores."""
    state = position(ball="A1R", hands=(["SOUT"], []))
    state = run(state, (HOME, "shoot SOUT"), (CHANCE, "roll 4"))
    assert state.roll == ("shot", 20)
    again = run(state, (CHANCE, "roll 3"))
    assert again.roll == ("shot", 20)  # a corner from the corner
    assert run(again, (CHANCE, "roll 20")).score == (1, 0)


# --- goal kicks ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("roll", "team", "zone_name"),
    [(1, HOME, "A1L"), (5, HOME, "M2C"), (8, HOME, "M1R"), (9, AWAY, "M2L"), (15, AWAY, "M1C"), (20, AWAY, "D2C")],
)
def test_goal_kick_chart(roll: int, team: int, zone_name: str) -> None:
    """Chart sheet "Goal Kicks": 1-8 the goalie's team, 9-20 the other team in its own zones."""
    state = position(ball="D1C", hands=(["PA1P"], []), phase="goal_kick")
    state = run(state, (HOME, "goal-kick"), (CHANCE, f"roll {roll}"))
    assert state.control == team and ball_name(state, team) == zone_name
    # QA pass 14: a screen names the zone in its reader's frame, which alone does not say whose
    # ball it is: the line says who controls it.
    said = [e.text for e in state.events if e.kind == "goal_kick_result"]
    assert said == [f"Goal kick lands in seat {team}'s {zone_name}: seat {team} controls the ball"]


def test_aimed_goal_kick_1_to_4_keeps_else_opponent_in_same_zone() -> None:
    """Rulings 8: aimed kick into own M1/M2; 1-4 kicker controls, 5-20 the other team there."""
    state = position(ball="D1C", hands=(["PA1P"], []), phase="goal_kick")
    assert {a for a in legal(state, HOME) if a.startswith("aimed")} == {
        f"aimed-kick {z}" for z in ("M1L", "M1C", "M1R", "M2L", "M2C", "M2R")
    }
    kept = run(state, (HOME, "aimed-kick M2R"), (CHANCE, "roll 4"))
    assert kept.control == HOME and ball_name(kept, HOME) == "M2R"
    lost = run(state, (HOME, "aimed-kick M2R"), (CHANCE, "roll 5"))
    assert lost.control == AWAY and lost.ball == zone(HOME, "M2R")


def test_goal_kick_throw_in_to_d2_uses_up_the_pass_back() -> None:
    """Rulebook "Goal Kicks" / Rulings 8."""
    state = position(ball="D1C", hands=(["PA1P"], []), phase="goal_kick")
    state = run(state, (HOME, "throw-in D2R"))
    assert ball_name(state, HOME) == "D2R" and state.passback_used
    assert "passback PA1P" not in legal(state, HOME)


# --- clears ---------------------------------------------------------------------------------------


def test_clear_targets_never_go_backward() -> None:
    """Rulings 4: diagonal 1, ahead 1-2, across 1-2, knight with a forward part."""
    state = position(ball="M1C", hands=(["C"], []))
    ins = {a.split()[1] for a in legal(state, HOME) if a.startswith("clear-in")}
    assert ins == {"M2L", "M2R", "M2C", "A1C", "M1L", "M1R", "A1L", "A1R"}
    outs = {a.split()[1] for a in legal(state, HOME) if a.startswith("clear-out")}
    assert outs == {"M1L", "M1R", "M2L", "M2R"}  # across 2 and the flat knights leave the field


def test_clear_in_play_1_2_keeps_3_20_loses() -> None:
    """Rulebook "Clear the Ball - Keep It In Play"."""
    state = position(ball="M1C", hands=(["C"], []))
    kept = run(state, (HOME, "clear-in A1C"), (CHANCE, "roll 2"))
    assert kept.control == HOME and ball_name(kept, HOME) == "A1C"
    lost = run(state, (HOME, "clear-in A1C"), (CHANCE, "roll 3"))
    assert lost.control == AWAY and ball_name(lost, AWAY) == "D2C"
    # Third rules audit: the log told who has the ball after a lost clear, not where.
    said = [e.text for e in lost.events if e.kind == "control"]
    assert said == [f"Seat {AWAY} gains control of the ball in its D2C"]


def test_clear_in_play_into_the_box_lost_is_a_goal_kick_kept_needs_inside_shot() -> None:
    state = position(ball="A1C", hands=(["SIN", "PA1P"], []))
    lost = run(state, (HOME, "clear-in A2C"), (CHANCE, "roll 3"))
    assert lost.phase == "goal_kick" and lost.control == AWAY
    kept = run(state, (HOME, "clear-in A2C"), (CHANCE, "roll 1"))
    assert legal(kept, HOME) == {"shoot SIN", "clear-box"}


def test_clear_out_of_play_discards_and_gives_a_throw_in_at_the_edge() -> None:
    """Rulebook "Clear the Ball - Out of Play" / Rulings 5."""
    state = position(ball="M1L", hands=(["C", "PA1P"], []))
    state = run(state, (HOME, "clear-out M2L"))
    assert state.phase == "discard" and "discard none" not in legal(state, HOME)
    state = run(state, (HOME, "discard C"))
    state = settle_draws(state, "PA2")
    assert state.control == AWAY and ball_name(state, HOME) == "M2L"


def test_clear_out_of_play_from_a2_is_a_goal_kick() -> None:
    state = position(ball="A2L", hands=(["C", "PA1P"], []))
    assert {a for a in legal(state, HOME) if a.startswith("clear-out")} == {"clear-out goal-line"}
    state = run(state, (HOME, "clear-out goal-line"), (HOME, "discard C"))
    state = settle_draws(state, "PA2")
    assert state.phase == "goal_kick" and state.control == AWAY


# --- hold ---------------------------------------------------------------------------------------


def test_hold_11_20_loses_the_ball_in_place() -> None:
    state = position(ball="M2C", hands=(["C", "PA1P"], []))
    state = run(state, (HOME, "hold"), (HOME, "discard none"), (AWAY, "reply none"), (CHANCE, "roll 11"))
    assert state.control == AWAY and state.ball == zone(HOME, "M2C")


def test_hold_answered_by_a_challenge_is_an_automatic_tackle() -> None:
    """Rulebook "Attempt to Hold the Ball": a valid C card tackles, no die."""
    state = position(ball="M2C", hands=(["C", "PA1P"], ["C", "I"]))
    state = run(state, (HOME, "hold"), (HOME, "discard none"))
    assert legal(state, AWAY) == {"reply none", "reply C"}  # an Intercept does not answer a hold
    state = run(state, (AWAY, "reply C"))
    assert state.control == AWAY and state.roll is None


def test_after_a_successful_hold_only_a_pass_or_dribble_card_allows_another_hold() -> None:
    """Rulings 3 ("hold is illegal until a Pass or Dribble card has been played") and the
    rulebook's "There must be an intervening Pass or Dribble card": a kept clear or a shot the
    holder gets back is no such card; losing the ball and winning it back starts afresh."""
    state = position(ball="M2C", hands=(["C", "PL1P", "SOUT"], ["C3"]))
    held = run(state, (HOME, "hold"), (HOME, "discard none"), (AWAY, "reply none"), (CHANCE, "roll 10"))
    assert held.hold_blocked and "hold" not in legal(held, HOME)
    cleared = run(held, (HOME, "clear-in A1C"), (CHANCE, "roll 2"))
    assert cleared.control == HOME and "hold" not in legal(cleared, HOME)
    recovered = settle_draws(run(cleared, (HOME, "shoot SOUT"), (CHANCE, "roll 1")))
    assert recovered.control == HOME and ball_name(recovered, HOME) == "A1C"
    assert "hold" not in legal(recovered, HOME)
    passed = run(recovered, (HOME, "play PL1P A1L"))
    passed = run(settle_draws(passed), (AWAY, "reply none"))
    assert "hold" in legal(passed, HOME)
    lost = run(held, (HOME, "clear-in A1C"), (CHANCE, "roll 3"))
    assert lost.control == AWAY and not lost.hold_blocked


@pytest.mark.parametrize(("restriction", "allowed"), [("both-boxes", False), ("opponent-box", True)])
def test_hold_not_allowed_in_a_box(restriction: str, allowed: bool) -> None:
    """Rulings 3 and its variant ``hold_restriction``."""
    own_box = position(ball="D1C", hands=(["C"], []), options={"hold_restriction": restriction})
    assert ("hold" in legal(own_box, HOME)) is allowed


# --- defensive play -----------------------------------------------------------------------------


def test_defender_is_asked_even_without_a_playable_card() -> None:
    """Issue: the defender is always asked, so asking reveals nothing; the view says he cannot answer."""
    state = position(ball="M1C", hands=(["PA1P"], ["SIN", "C"]))
    state = run(state, (HOME, "play PA1P M2C"))
    state = settle_draws(state, "SOUT")
    assert state.current_players() == (AWAY,)
    assert legal(state, AWAY) == {"reply none"}
    assert state.view(AWAY)["state"]["can_reply"] is False
    assert "can_reply" in state.view(HOME)["state"] and state.view(HOME)["state"]["can_reply"] is False


def test_any_direction_card_cannot_be_defended_and_either_type_follows() -> None:
    """Rulebook "Special Cards": the Any card, no defense; Pass or Dribble may follow."""
    state = position(ball="M1C", hands=(["ANY", "PA1P", "DA1D"], ["I", "C"]))
    assert {"play ANY M1L", "play ANY M2L", "play ANY M2C", "play ANY M2R", "play ANY M1R"} <= legal(state, HOME)
    state = run(state, (HOME, "play ANY M2C"))
    state = settle_draws(state, "SIN")
    assert state.current_players() == (HOME,)  # no reply asked
    assert {"play PA1P A1C", "play DA1D A1C"} <= legal(state, HOME)


@pytest.mark.parametrize(
    ("card", "roll", "result"),
    [
        ("I", 2, "foul-yellow"),
        ("I", 5, "foul"),
        ("I", 11, "failed"),
        ("I", 12, "success"),
        ("STAR", 1, "foul-yellow"),
        ("STAR", 2, "foul"),
        ("STAR", 9, "failed"),
        ("STAR", 10, "success"),
    ],
)
def test_defensive_tables(card: str, roll: int, result: str) -> None:
    """RULINGS defensive die tables (normal and Star), played on a pass in midfield."""
    state = position(ball="M1C", hands=(["PA1P", "C"], [card, "C"]))
    state = run(state, (HOME, "play PA1P M2C"))
    state = settle_draws(state, "DA1D")
    state = run(state, (AWAY, f"reply {card}"), (CHANCE, f"roll {roll}"))
    if result == "success":
        assert state.control == AWAY and state.ball == zone(HOME, "M2C")
    elif result == "failed":
        assert state.control == HOME and state.next_req is None  # a new offensive sequence
    elif result == "foul":
        assert state.phase == "free_kick" and state.control == HOME
    else:
        assert state.roll == ("chit",)


@pytest.mark.parametrize(("roll", "result"), [(2, "foul-yellow"), (4, "foul"), (9, "failed"), (10, "success")])
def test_own_third_table_and_its_zones(roll: int, result: str) -> None:
    """RULINGS: the own-third C/I is playable only in the defender's D1/D2 rows, better table."""
    mid = position(ball="M1C", hands=(["DA1D"], ["C3"]))
    mid = settle_draws(run(mid, (HOME, "play DA1D M2C")), "PA1P")
    assert legal(mid, AWAY) == {"reply none"}  # M2C of Home is Away's M1C
    deep = position(ball="M2C", hands=(["DA1D"], ["C3"]))
    deep = settle_draws(run(deep, (HOME, "play DA1D A1C")), "PA1P")
    state = run(deep, (AWAY, "reply C3"), (CHANCE, f"roll {roll}"))
    outcome = {
        "success": state.control == AWAY,
        "failed": state.control == HOME and state.phase == "play",
        "foul": state.roll == ("shot", 19),
        "foul-yellow": state.roll == ("chit",),
    }
    assert outcome[result]


def test_successful_tackle_in_own_box_is_a_goal_kick() -> None:
    """Rulebook "Defensive Play": a successful tackle in his box gives the defender a goal kick."""
    state = position(ball="A1C", hands=(["DA1D"], ["STAR"]))
    state = settle_draws(run(state, (HOME, "play DA1D A2C")), "PA1P")
    state = run(state, (AWAY, "reply STAR"), (CHANCE, "roll 15"))
    assert state.phase == "goal_kick" and state.control == AWAY


def test_foul_in_the_box_is_a_penalty_6_20_scores() -> None:
    """Rulebook "Penalty Kick": 6-20 is a goal; 3-5 a corner; 1-2 a goal kick."""
    state = position(ball="A1C", hands=(["DA1D"], ["C"]))
    state = settle_draws(run(state, (HOME, "play DA1D A2C")), "PA1P")
    state = run(state, (AWAY, "reply C"), (CHANCE, "roll 4"))
    assert state.roll == ("penalty",)
    assert run(state, (CHANCE, "roll 6")).score == (1, 0)
    assert run(state, (CHANCE, "roll 3")).roll == ("shot", 20)
    assert run(state, (CHANCE, "roll 2")).phase == "goal_kick"


def test_bob_fouls_with_yellow_alan_free_kick_from_a1c_roll_10() -> None:
    """Rulebook example: Alan's Pass Ahead 2 from M1C to A1C; Bob's I card rolls 2 = foul + yellow;
    Bob draws chit 4 (he already had a 2): a yellow. Alan's free kick from A1C scores on 19-20;
    he rolls 10: throw-in for Bob into his D1L."""
    state = position(ball="M1C", hands=(["PA2", "SIN"], ["I", "C"]), yellows=((), (2,)), chits=(2, 1, 2, 2, 2, 2))
    state = settle_draws(run(state, (HOME, "play PA2 A1C")), "PL2")
    state = run(state, (AWAY, "reply I"), (CHANCE, "roll 2"), (CHANCE, "chit 4"))
    assert state.yellows[AWAY] == (2, 4) and state.reds == (0, 0)
    assert state.roll == ("shot", 19)  # 19 also scores from A1C
    assert run(state, (CHANCE, "roll 19")).score == (1, 0)
    after = run(state, (CHANCE, "roll 10"))
    assert after.control == AWAY and ball_name(after, AWAY) == "D1L"


def test_free_kick_from_a_non_box_a_zone_other_than_a1c_needs_20() -> None:
    state = position(ball="M2L", hands=(["DA1D"], ["C"]))
    state = settle_draws(run(state, (HOME, "play DA1D A1L")), "PA1P")
    state = run(state, (AWAY, "reply C"), (CHANCE, "roll 4"))
    assert state.roll == ("shot", 20)


def test_free_kick_in_midfield_take_in_place_or_clear_1_10() -> None:
    """Rulebook "Free Kicks" from a D or M zone: three choices; a clear in play keeps on 1-10."""
    state = position(ball="M1C", hands=(["DA1D", "SIN"], ["C"]))
    state = settle_draws(run(state, (HOME, "play DA1D M2C")), "PA1P")
    state = run(state, (AWAY, "reply C"), (CHANCE, "roll 3"))
    settled = settle_draws(state, "PA2")
    assert settled.phase == "free_kick" and "free-kick" in legal(settled, HOME)
    assert any(a.startswith("clear-out") for a in legal(settled, HOME))
    in_place = run(settled, (HOME, "free-kick"))
    assert in_place.phase == "play" and in_place.control == HOME and ball_name(in_place, HOME) == "M2C"
    kept = run(settled, (HOME, "clear-in A1C"), (CHANCE, "roll 10"))
    assert kept.control == HOME
    lost = run(settled, (HOME, "clear-in A1C"), (CHANCE, "roll 11"))
    assert lost.control == AWAY


# --- yellow and red cards ------------------------------------------------------------------------


def test_second_yellow_of_the_same_number_is_a_red_and_shrinks_the_hand() -> None:
    """Rulebook "Fouls and Yellow Cards" / Rulings 9: 5-card hand from the next replenishment."""
    state = position(ball="M1C", hands=(["PA1P"], ["I", "C", "SIN", "SOUT", "PA2", "PL2"]), yellows=((), (3,)))
    state = settle_draws(run(state, (HOME, "play PA1P M2C")), "DA1D")
    state = run(state, (AWAY, "reply I"), (CHANCE, "roll 1"), (CHANCE, "chit 3"))
    assert state.reds == (0, 1) and state.yellows[AWAY] == ()
    assert state.hand_limit(AWAY) == 5 and state.hand_limit(HOME) == 6
    assert state.to_draw == () or len(state.hands[AWAY]) == 5  # no replenishment to 6


def test_chit_1_then_die_1_is_an_outright_red() -> None:
    """Rulebook "Red Cards": drawing #1, roll the die; a 1 is a red instead of a yellow."""
    state = position(ball="M1C", hands=(["PA1P"], ["I"]))
    state = settle_draws(run(state, (HOME, "play PA1P M2C")), "DA1D")
    state = run(state, (AWAY, "reply I"), (CHANCE, "roll 1"), (CHANCE, "chit 1"))
    assert state.roll == ("red", 1)
    red = run(state, (CHANCE, "roll 1"))
    assert red.reds == (0, 1) and red.yellows[AWAY] == ()
    yellow = run(state, (CHANCE, "roll 2"))
    assert yellow.reds == (0, 0) and yellow.yellows[AWAY] == (1,)


def test_no_chits_left_yellow_is_ignored() -> None:
    state = position(ball="M1C", hands=(["PA1P"], ["I"]), chits=(0, 0, 0, 0, 0, 0))
    state = settle_draws(run(state, (HOME, "play PA1P M2C")), "DA1D")
    state = run(state, (AWAY, "reply I"), (CHANCE, "roll 1"))
    assert state.phase == "free_kick" and state.yellows == ((), ())


def test_hand_limit_after_reds_never_below_three() -> None:
    state = position(reds=(3, 0))
    assert state.hand_limit(0) == 3 and state.hand_limit(1) == 6
    assert position(reds=(2, 2)).hand_limit(0) == 6


# --- Pass+O/S -----------------------------------------------------------------------------------


def test_pass_plus_os_free_shot_after_the_pass_into_a_non_box_a_zone() -> None:
    """Rulebook "Pass+O/S Cards" / Rulings 6: a free Outside shot without a Shot card."""
    state = position(ball="M2L", hands=(["PDR2OS"], ["C"]))
    state = settle_draws(run(state, (HOME, "play PDR2OS A1C")), "PA1P")
    state = run(state, (AWAY, "reply none"))
    assert state.free_shot and "shoot free" in legal(state, HOME)
    shot = run(state, (HOME, "shoot free"))
    assert shot.roll == ("shot", 20) and shot.discard == state.discard  # no Shot card spent


def test_pass_plus_os_successful_intercept_cancels_the_shot() -> None:
    state = position(ball="M2L", hands=(["PDR2OS"], ["I"]))
    state = settle_draws(run(state, (HOME, "play PDR2OS A1C")), "PA1P")
    state = run(state, (AWAY, "reply I"), (CHANCE, "roll 20"))
    assert state.control == AWAY and not state.free_shot


@pytest.mark.parametrize(("mode", "free"), [("any-a-zone", True), ("strict", False)])
def test_pass_plus_os_strict_variant_only_from_midfield_into_a1(mode: str, free: bool) -> None:
    """Rulings 6 variant ``pass_os=strict``: only M1/M2 into a non-box A1 zone."""

    def after_pass(start: str, target: str) -> BigTimeState:
        state = position(ball=start, hands=(["PDR2OS"], []), options={"pass_os": mode})
        state = settle_draws(run(state, (HOME, f"play PDR2OS {target}")), "PA1P")
        return run(state, (AWAY, "reply none"))

    assert after_pass("M2L", "A1C").free_shot  # M2 into A1: both readings allow it
    assert not after_pass("A1L", "A2C").free_shot  # never into the box
    assert after_pass("M2L", "A2R").free_shot is free  # ends in A2: only the default reading


def test_free_shot_refusal_names_the_rule_in_play() -> None:
    """Under the strict reading a pass that ended in A2 earns no free shot, and the refusal
    says what the strict rule asks, not the default one (which that pass met)."""
    state = position(ball="A1C", hands=(["PDR2OS"], ["C"]), options={"pass_os": "strict"})
    state = run(settle_draws(run(state, (HOME, "play PDR2OS A2R"))), (AWAY, "reply none"))
    with pytest.raises(IllegalAction, match="from an M zone into an A1 zone"):
        run(state, (HOME, "shoot free"))


def test_free_shot_outlasts_an_offer_to_end_the_half() -> None:
    """docs/rulings.md: the free shot lapses with the next action that plays on; an offer to
    end the half, and its refusal, do not use it up (stoppage time, every card in hand)."""
    every = [c.code for c in T.cards for _ in range(c.copies)]
    held = (["PDR2OS", "PA1P"], ["C"])
    for code in (*held[0], *held[1]):
        every.remove(code)
    state = position(hands=held, discards=every, ball="M1L", stoppage=0, stoppage_minutes=1, last_card=idx("DA2"))
    state = run(settle_draws(run(state, (HOME, "play PDR2OS A1R"))), (AWAY, "reply none"))
    assert {"shoot free", "propose-end"} <= legal(state, HOME)
    state = run(state, (HOME, "propose-end"), (AWAY, "decline-end"))
    assert "shoot free" in legal(state, HOME)


def test_refusal_of_a_card_not_held_reads_as_english() -> None:
    state = settle_draws(run(position(ball="M1C", hands=(["DA1P", "C"], ["C", "SOUT"])), (HOME, "play DA1P M2C")))
    for text, name in (("reply I", "Intercept"), ("reply ANY", "Any Direction 1")):
        with pytest.raises(IllegalAction, match=f"you do not hold the card {name}"):
            run(state, (AWAY, text))


# --- stoppage time and the end of a half ----------------------------------------------------------


def _last_card_in_pile() -> BigTimeState:
    """Home is about to play a Pass with one Any card left in the deck; the rest are discards."""
    state = position(
        ball="M1C",
        hands=(["PA1P", "C", "I", "SIN", "SOUT", "STAR"], ["PA2"] * 4 + ["C", "I"]),
    )
    keep = idx("ANY")
    pile = tuple(1 if k == keep else 0 for k in range(len(T.cards)))
    discard = tuple(n - 1 if k == keep else n for k, n in enumerate(state.pile))
    state = replace(state, pile=pile, pile_left=1, discard=discard)
    state._set_meta(GAME.new_match(seed=0).info, None, ())
    return state


def test_last_card_drawn_rolls_stoppage_and_builds_the_mini_deck_from_the_discards() -> None:
    """Rulebook "Stoppage Time": roll the chart; keep the top discard; shuffle the rest into a
    small deck of the charted size (11-14: 3 minutes, 6 cards)."""
    state = run(_last_card_in_pile(), (HOME, "play PA1P M2C"), (CHANCE, "draw ANY"))
    assert state.roll == ("stoppage",) and state.pile_left == 0
    state = run(state, (CHANCE, "roll 12"))
    assert state.stoppage == 6 and state.stoppage_minutes == 3
    assert state.discard[idx("PA1P")] == 1 and sum(state.discard) == 1  # the top card stays out
    assert state.pile_left == 72 - 12 - 1
    assert state.view(HOME)["state"]["stoppage"] == {"minutes": 3, "cards_left": 6}
    # Only the six stoppage cards can be drawn, then the pile is closed.
    assert state.to_draw == () and state.current_players() == (AWAY,)


@pytest.mark.parametrize(
    ("roll", "minutes", "cards"), [(1, 1, 2), (10, 2, 4), (14, 3, 6), (15, 4, 8), (19, 5, 10), (20, 6, 12)]
)
def test_stoppage_chart(roll: int, minutes: int, cards: int) -> None:
    state = run(_last_card_in_pile(), (HOME, "play PA1P M2C"), (CHANCE, "draw ANY"), (CHANCE, f"roll {roll}"))
    assert (state.stoppage_minutes, state.stoppage) == (minutes, cards)


def test_stoppage_deck_runs_out_after_its_cards() -> None:
    state = run(_last_card_in_pile(), (HOME, "play PA1P M2C"), (CHANCE, "draw ANY"), (CHANCE, "roll 1"))
    state = run(state, (AWAY, "reply none"), (HOME, "play ANY A1C"), (CHANCE, "draw DA1D"))
    assert state.stoppage == 1
    state = run(state, (HOME, "play DA1D A2C"), (CHANCE, "draw PL2"))
    assert state.stoppage == 0 and "propose-end" not in legal(state, AWAY)
    state = run(state, (AWAY, "reply none"))
    assert "propose-end" in legal(state, HOME)
    state = run(state, (HOME, "shoot SIN"), (CHANCE, "roll 14"))
    assert len(state.hands[HOME]) == 5 and state.to_draw == ()  # nothing left to draw


def _stoppage(**fields: Any) -> BigTimeState:
    base = dict(stoppage=0, stoppage_minutes=1)
    base.update(fields)
    return position(**base)


def test_stoppage_clears_must_discard_and_no_cards_means_clear() -> None:
    """Rulebook: in stoppage time either Clear costs a card; with none in hand you must clear."""
    state = _stoppage(ball="M1C", hands=(["C", "PA1P"], ["SIN"]))
    state = run(state, (HOME, "clear-in A1C"))
    assert state.phase == "discard" and legal(state, HOME) == {"discard C", "discard PA1P"}
    empty = _stoppage(ball="M1C", hands=([], ["SIN"]))
    assert all(a.startswith("clear") or a == "propose-end" for a in legal(empty, HOME))
    # docs/rulings.md: a goal kick uses no card, so it is taken as usual; then he must clear.
    keeper = _stoppage(ball="D1C", hands=([], ["SIN"]), phase="goal_kick")
    assert {"goal-kick", "throw-in D2L", "aimed-kick M2C"} <= legal(keeper, HOME)
    thrown = run(keeper, (HOME, "throw-in D2L"))
    assert legal(thrown, HOME) and all(a.startswith("clear") or a == "propose-end" for a in legal(thrown, HOME))


def test_propose_accept_ends_the_half_and_second_half_kicks_off_with_the_other_seat() -> None:
    """Rulings 10: propose/accept ends the half; all 72 are reshuffled, six dealt, score kept."""
    state = _stoppage(ball="M1C", hands=(["C"], ["SIN"]), goals=(1, 0))
    assert "propose-end" in legal(state, HOME)
    state = run(state, (HOME, "propose-end"))
    assert state.current_players() == (AWAY,) and legal(state, AWAY) == {"accept-end", "decline-end"}
    declined = run(state, (AWAY, "decline-end"))
    assert "propose-end" not in legal(declined, HOME)  # not again until a card is played
    second = run(state, (AWAY, "accept-end"))
    assert second.half == 2 and second.goals == (1, 0)
    assert second.control == AWAY and ball_name(second, AWAY) == "M1C"  # the first kicker was Home
    assert second.pile_left == 72 and second.to_draw == (AWAY, HOME)
    assert any(e.kind == "half_time" for e in second.events)
    # Third rules audit, finding 1: the log said nothing of who has the ball after half-time.
    said = [(e.kind, e.text, e.data.get("seat")) for e in second.events if e.kind in ("half_time", "kickoff")]
    assert said == [("half_time", "Half-time: 1-0", None), ("kickoff", f"Seat {AWAY} kicks off the second half", AWAY)]


def test_half_ends_when_both_hands_are_played_out() -> None:
    """Rulebook: play continues until both players have played all their cards."""
    state = _stoppage(ball="A1C", hands=(["SOUT"], []))
    state = run(state, (HOME, "shoot SOUT"), (CHANCE, "roll 12"))
    assert state.half == 2
    # Third rules audit, finding 1: the half ended with no word of why.
    kinds = [e.kind for e in state.events]
    assert kinds.index("hands_out") < kinds.index("half_time")
    assert next(e.text for e in state.events if e.kind == "hands_out") == "Both hands are played out: the half ends"


def test_league_match_ends_after_the_second_half_draw_possible() -> None:
    state = _stoppage(ball="M1C", hands=(["C"], []), half=2, goals=(2, 2))
    state = run(state, (HOME, "propose-end"), (AWAY, "accept-end"))
    assert state.is_terminal() and state.winner is None and state.score == (2, 2)


def test_cup_tie_goes_to_a_shootout_first_kicker_first() -> None:
    """Rulings 11: five alternate Penalty-chart rolls each, then sudden death; a corner is a miss."""
    state = _stoppage(ball="M1C", hands=(["C"], []), half=2, goals=(1, 1), first_kicker=AWAY, options={"mode": "cup"})
    state = run(state, (HOME, "propose-end"), (AWAY, "accept-end"))
    assert state.roll == ("shootout",) and not state.is_terminal()
    # Away (first kicker) scores all; Home misses (3 = "Save! Corner" counts as a miss) all.
    for _ in range(4):
        state = run(state, (CHANCE, "roll 6"), (CHANCE, "roll 3"))
    assert not state.is_terminal()
    state = run(state, (CHANCE, "roll 6"), (CHANCE, "roll 1"))
    assert state.is_terminal() and state.winner == AWAY and state.score == (1, 1)
    assert state.shootout == (0, 5, 5, 5)


def test_cup_shootout_sudden_death() -> None:
    state = _stoppage(ball="M1C", hands=(["C"], []), half=2, goals=(0, 0), options={"mode": "cup"})
    state = run(state, (HOME, "propose-end"), (AWAY, "accept-end"))
    for _ in range(5):
        state = run(state, (CHANCE, "roll 10"), (CHANCE, "roll 10"))
    assert not state.is_terminal()
    state = run(state, (CHANCE, "roll 1"), (CHANCE, "roll 20"))
    assert state.is_terminal() and state.winner == AWAY
    assert state.result_details() == {"shootout": [5, 6]}


def test_a_shootout_says_how_long_it_lasts_and_each_kick_carries_the_running_tally() -> None:
    """The screen captions each kick with the tally (the whole shootout plays at once)."""
    state = _stoppage(ball="M1C", hands=(["C"], []), half=2, goals=(0, 0), first_kicker=AWAY, options={"mode": "cup"})
    state = run(state, (HOME, "propose-end"), (AWAY, "accept-end"))
    assert "5 kicks each" in state.events[-1].text and state.events[-1].data["kicks"] == 5
    assert state.result_details() == {}  # not decided yet
    state = run(state, (CHANCE, "roll 6"))
    kick = state.events[-1]
    assert kick.kind == "shootout" and kick.data == {"seat": AWAY, "scored": True, "goals": [0, 1], "kicks": [0, 1]}
    assert kick.text == "Shootout: seat 1 scores (seat 0 0/0, seat 1 1/1)"
    state = run(state, (CHANCE, "roll 3"))  # a corner: a miss
    assert state.events[-1].text == "Shootout: seat 0 misses (seat 0 0/1, seat 1 1/1)"


# --- hidden information, view, actions ------------------------------------------------------------


def test_view_hides_the_opponents_hand_and_determinize_resamples_it() -> None:
    state = position(ball="M1C", hands=(["PA1P", "SIN"], ["STAR", "STAR", "C"]))
    mine = state.view(HOME)["state"]
    assert mine["hand"] == ["PA1P", "SIN"] and mine["hand_sizes"] == [2, 3]
    assert state.view(None)["state"]["hand"] is None
    assert "STAR" not in str(state.view(HOME))
    seen = set()
    for i in range(20):
        d = state.determinize(HOME, random.Random(i))
        assert d.hands[HOME] == state.hands[HOME] and len(d.hands[AWAY]) == 3
        assert sum(d.pile) + len(d.hands[AWAY]) == sum(state.pile) + 3
        seen.add(d.hands[AWAY])
    assert len(seen) > 1


def test_in_stoppage_time_a_world_keeps_the_cards_of_the_opponents_hand_that_can_be_counted() -> None:
    """When the deck runs out every card not in a hand is face up, so each side can name the
    other's hand; a world drawn for a seat keeps those cards until they are played, and only
    the cards drawn from the stoppage deck are a guess (found by an independent audit: worlds
    drew the whole hand from the reshuffled discards)."""
    state = run(_last_card_in_pile(), (HOME, "play PA1P M2C"), (CHANCE, "draw ANY"), (CHANCE, "roll 12"))
    away = state.hands[AWAY]
    assert state.known == state.hands
    for i in range(20):
        assert state.determinize(HOME, random.Random(i)).hands[AWAY] == away
        assert state.determinize(AWAY, random.Random(i)).hands[HOME] == state.hands[HOME]
    # Away wins the ball with its Intercept and draws from the stoppage deck: five cards are
    # still known, the sixth is anyone's guess among the cards Home has not seen.
    state = run(state, (AWAY, "reply I"), (CHANCE, "roll 5"))
    state = settle_draws(state, "DA1P")
    assert sorted(state.known[AWAY]) == sorted(idx(c) for c in ["PA2"] * 4 + ["C"])
    guesses = set()
    for i in range(40):
        world = state.determinize(HOME, random.Random(i))
        hand = list(world.hands[AWAY])
        for k in state.known[AWAY]:
            hand.remove(k)
        assert len(hand) == 1 and sum(world.pile) == sum(state.pile)
        guesses.add(hand[0])
    assert len(guesses) > 3
    assert state.view(HOME)["state"]["hand_sizes"] == [len(state.hands[HOME]), 6]


def test_clear_box_outside_the_box_says_what_it_is_for() -> None:
    state = position(ball="M1C", hands=(["PA1P"], ["C"]))
    with pytest.raises(IllegalAction, match="'clear-box' is the clear from the opponent's box"):
        state.apply(HOME, GAME.parse_action("clear-box"))


def test_draw_event_shows_the_card_to_its_owner_only() -> None:
    state = position(ball="M1C", hands=(["PA1P"], []))
    state = run(state, (HOME, "play PA1P M2C"), (CHANCE, "draw SIN"))
    private = [e for e in state.events if e.audience == (HOME,)]
    assert private and "Inside" in private[0].text
    assert all("Inside" not in e.text for e in state.events if e.audience is None)


def test_event_texts_say_what_a_roll_decides_and_where_a_throw_in_is() -> None:
    """A replayed match reads as a player would tell it: every die roll names its chart or
    its threshold, shots say where from and what scores, throw-ins name their zone."""
    rolls = run(position(ball="M1C", hands=(["C"], [])), (HOME, "clear-in A1C"), (CHANCE, "roll 3"))
    assert [e.text for e in rolls.events if e.kind == "roll"] == ["The die shows 3 (clear: 1-2 keeps the ball)"]
    shot = run(position(ball="A1L", hands=(["SOUT"], [])), (HOME, "shoot SOUT"))
    assert [e.text for e in shot.events] == [
        "Seat 0 shoots outside the box from A1L with Shot at Net - Outside the Box (20+ scores)"
    ]
    shot = run(shot, (CHANCE, "roll 6"))
    assert [e.text for e in shot.events] == [
        "The die shows 6 (Shot at Net chart)",
        "Blocked, out of play: throw-in for seat 0 in its A1L",
    ]
    out = run(position(ball="M1L", hands=(["C", "PA1P"], [])), (HOME, "clear-out M2L"), (HOME, "discard C"))
    assert "Throw-in for seat 1 in its M1R" in [e.text for e in out.events]


def test_action_texts_round_trip_and_bad_texts_are_refused() -> None:
    for text in (
        "play PA2 A1C",
        "roll 20",
        "draw SIN",
        "chit 6",
        "clear-out goal-line",
        "discard none",
        "reply none",
        "shoot free",
        "aimed-kick M2C",
        "throw-in D2L",
        "propose-end",
        "toss 1",
    ):
        assert str(GAME.parse_action(text)) == text
    for bad in ("play PA2", "roll 21", "roll 01", "shoot XX", "kick", "hold now", "chit 7", "toss 2"):
        with pytest.raises(IllegalAction):
            GAME.parse_action(bad)


def test_explain_illegal_gives_the_rule() -> None:
    state = position(ball="A1C", hands=(["PA1P", "SOUT", "DA1D"], []), next_req="dribble", hold_blocked=True)
    with pytest.raises(IllegalAction, match="dribble card next"):
        state.apply(HOME, GAME.parse_action("play PA1P A2C"))
    with pytest.raises(IllegalAction, match="Pass or Dribble card must be played before holding"):
        state.apply(HOME, GAME.parse_action("hold"))
    with pytest.raises(IllegalAction, match="do not hold"):
        state.apply(HOME, GAME.parse_action("shoot SIN"))
    with pytest.raises(IllegalAction, match="does not decide"):
        state.apply(AWAY, GAME.parse_action("reply none"))
    clearing = run(position(ball="M1L", hands=(["C"], [])), (HOME, "clear-out M1L"))
    with pytest.raises(IllegalAction, match="costs a card"):
        clearing.apply(HOME, GAME.parse_action("discard none"))
    mid = position(ball="M1C", hands=(["SOUT"], []))
    with pytest.raises(IllegalAction, match="A zones"):
        mid.apply(HOME, GAME.parse_action("shoot SOUT"))


def test_view_has_every_documented_key_and_says_when_a_reply_is_possible() -> None:
    """The module docstring lists the view keys the UI builds on."""
    import soccerdesk.rules.big_time_soccer as package

    documented = set(re.findall(r"^``(\w+)``\s", package.__doc__ or "", re.MULTILINE))
    state = position(ball="M1C", hands=(["PA1P"], ["I", "SIN"]))
    state = settle_draws(run(state, (HOME, "play PA1P M2C")), "DA1D")
    view = state.view(AWAY)["state"]
    assert documented <= set(view)
    assert view["can_reply"] is True and view["pending"] == {"kind": "pass", "card": "PA1P"}
    assert view["card_names"]["I"] == "Intercept" and "PA1P" in view["card_names"]
    assert view["ball_zone"] == ["M2C", "M1C"]


def test_random_matches_keep_all_72_cards_and_hand_limits() -> None:
    """Every card is always in exactly one place: a hand, the pile or the discard pile."""

    def check(_: int, state: BigTimeState, after: BigTimeState) -> None:
        total = sum(state.pile) + sum(state.discard) + len(state.hands[0]) + len(state.hands[1])
        assert total == 72 and state.pile_left == sum(state.pile)
        for seat in (0, 1):
            assert len(state.hands[seat]) <= 6
            if state.current_players() != (CHANCE,) and state.stoppage < 0:
                assert len(state.hands[seat]) >= state.hand_limit(seat) - 1

    for seed in range(3):
        final = play_out(GAME.new_match(seed=seed, mode="cup"), None, random.Random(seed), watch=check)
        assert final.winner in (0, 1)  # cup: always decided


def test_the_cards_a_seat_has_not_seen_are_the_pile_and_the_other_hand_whatever_their_split() -> None:
    """The pile and the opponent's hand are public together (72 cards less the seat's hand and
    the discards), only their split is hidden: every guess at it (``with_hand``, a
    determinized world) keeps the same unseen cards, the seat's view and the match's history."""
    rng = random.Random(11)
    state = GAME.new_match(seed=11)
    for _ in range(80):
        seat = state.current_players()[0]
        legal = state.legal_actions(seat) if seat != CHANCE else None
        state = state.apply(seat, sample_chance(state, rng) if legal is None else legal[rng.randrange(len(legal))])
    assert isinstance(state, BigTimeState) and state.hands[0] and state.hands[1]
    for seat in (HOME, AWAY):
        other = 1 - seat
        unseen = state.unseen_by(seat)
        assert sum(unseen) == sum(state.pile) + len(state.hands[other])
        assert all(unseen[k] >= state.hands[other].count(k) for k in state.hands[other])
        cards = [k for k, n in enumerate(unseen) for _ in range(n)]
        hand = tuple(sorted(rng.sample(cards, len(state.hands[other]))))
        pile = list(unseen)
        for k in hand:
            pile[k] -= 1
        guess = state.with_hand(other, hand, pile)
        assert guess.hands[other] == hand and guess.hands[seat] == state.hands[seat]
        assert guess.pile == tuple(pile) and guess.unseen_by(seat) == unseen
        assert guess.history() == state.history() and guess.view(seat) == state.view(seat)
        world = state.determinize(seat, random.Random(2))
        assert isinstance(world, BigTimeState) and world.unseen_by(seat) == unseen
