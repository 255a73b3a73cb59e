"""Soccer-Go rules, one small real position per rule.

Positions are reached through the public contract only: the coin toss and every dealt or
drawn power card are chance actions, so a test deals exactly the hands it needs.
Rulebook: ../shared/rules/soccer-go.txt; rulings: RULINGS.md, Soccer-Go section.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable

import pytest

from soccerdesk.resources import load_game_data
from soccerdesk.rules import CHANCE, IllegalAction, get_game, sample_chance
from soccerdesk.rules.soccer_go import (
    BLOCK as BLOCK_PHASE,
)
from soccerdesk.rules.soccer_go import (
    KEEP,
    NO_CARD,
    Draw,
    Keep,
    Mark,
    PassTo,
    Play,
    Remove,
    Retire,
    Save,
    Shoot,
    Show,
    SoccerGoDataError,
    SoccerGoState,
    Swap,
    Toss,
    load_data,
)
from soccerdesk.rules.soccer_go import (
    PASS as PASS_PHASE,
)

GAME = get_game("soccer-go")

# Fillers for hands a test does not set, first come first served (never a card dealt elsewhere).
FILLERS = {
    "att0": ("att-bogey", "attacking-gk", "att-block-3", "dribble"),
    "def0": ("def-bogey", "high-press", "def-block-3", "narrow-shot"),
    "att1": ("att-block-1", "att-block-2", "att-block-3", "att-bogey", "attacking-gk"),
    "def1": ("def-block-1", "def-block-2", "def-block-3", "def-bogey", "high-press"),
}


def kick_off(
    att0: Iterable[str] | None = None,
    def0: Iterable[str] | None = None,
    att1: Iterable[str] | None = None,
    def1: Iterable[str] | None = None,
    first: int = 0,
    **options: object,
) -> SoccerGoState:
    """Toss and deal (seat 0 attacking cards, seat 1 attacking, seat 0 defending, seat 1 defending)."""
    hands = {"att0": att0, "def0": def0, "att1": att1, "def1": def1}
    used = {c for cards in hands.values() if cards is not None for c in cards}
    for key, cards in hands.items():
        if cards is None:
            cards = [c for c in FILLERS[key] if c not in used][:2]
            used.update(cards)
            hands[key] = cards
    state = GAME.new_match(seed=1, **options).apply(CHANCE, Toss(first))
    if options.get("power_cards", True):
        for key in ("att0", "att1", "def0", "def1"):
            for card in hands[key]:  # type: ignore[union-attr]
                state = state.apply(CHANCE, Draw(card))
    assert isinstance(state, SoccerGoState)
    return state


def pass_(state: SoccerGoState, to: int | tuple[int, ...], mark: int | tuple[int, ...]) -> SoccerGoState:
    """Both secret choices of one pass: the attacker's number(s), the defender's mark(s)."""
    to = (to,) if isinstance(to, int) else to
    mark = (mark,) if isinstance(mark, int) else mark
    nxt = state.apply(state.attacker, PassTo(to)).apply(state.defender, Mark(mark))
    assert isinstance(nxt, SoccerGoState)
    return nxt


def passes(state: SoccerGoState, numbers: Iterable[int]) -> SoccerGoState:
    """Unmarked passes to ``numbers`` (the defender marks another open number each time)."""
    for n in numbers:
        other = next(m for m in state.available() if m != n)
        state = pass_(state, n, other)
    return state


def shot(state: SoccerGoState, shoot: str, save: str) -> SoccerGoState:
    nxt = state.apply(state.attacker, Shoot(shoot)).apply(state.defender, Save(save))
    assert isinstance(nxt, SoccerGoState)
    return nxt


def act(state: SoccerGoState, seat: int, text: str) -> SoccerGoState:
    nxt = state.apply(seat, GAME.parse_action(text))
    assert isinstance(nxt, SoccerGoState)
    return nxt


def arrange(state: SoccerGoState, **changes: object) -> SoccerGoState:
    """The same position with ``changes`` (a pile or discard pile set up for one test).

    Reaching these by play would take a dozen turns; the result is a position the rules
    can reach (cards only move between hands, piles and discards).
    """
    new = state._r(**changes)
    new._set_meta(state.info, state._history, ())
    return new


def play(state: SoccerGoState, seat: int, card: str) -> SoccerGoState:
    """``seat`` plays ``card``; if the other seat may answer with a BLOCK, it declines."""
    state = act(state, seat, f"play {card}")
    if state.phase_name == "block":
        state = act(state, 1 - seat, "no card")
    return state


def texts(state: SoccerGoState, seat: int) -> list[str]:
    return [str(a) for a in state.legal_actions(seat)]


def kinds(state: SoccerGoState) -> list[str]:
    return [e.kind for e in state.events]


# --- set-up, passing and marking ---------------------------------------------------------


def test_coin_toss_picks_first_attacker_and_deal_is_two_plus_two() -> None:
    """Rulings 3 and 5: coin toss; 2 attacking + 2 defending power cards each."""
    s = GAME.new_match(seed=3)
    assert s.current_players() == (CHANCE,)
    assert sorted(str(a) for a, _ in s.chance_outcomes()) == ["toss 0", "toss 1"]
    s = kick_off(first=1)
    assert s.attacker == 1 and s.phase_name == "pass"
    assert s.view(0)["state"]["hand"] == sorted(["att-bogey", "attacking-gk", "def-bogey", "high-press"])
    assert s.view(0)["state"]["hand_counts"] == [[2, 2], [2, 2]]
    assert not set(s.hands[1]) & set(s.view(0)["state"]["hand"])  # the other hand stays hidden
    assert s.view(0)["state"]["piles"] == {"attacking": 9, "defending": 9}


def test_deal_draws_are_weighted_by_what_is_left_in_the_pile() -> None:
    """A draw is a chance node over the remaining cards: no stored pile order."""
    s = GAME.new_match(seed=1).apply(CHANCE, Toss(0)).apply(CHANCE, Draw("shoot"))
    outcomes = dict((str(a), p) for a, p in s.chance_outcomes())
    assert "draw shoot" not in outcomes and len(outcomes) == 12
    assert abs(sum(outcomes.values()) - 1) < 1e-9


def test_pass_and_mark_are_secret_until_both_are_in() -> None:
    """Rulebook 4-5 / Rulings 1: simultaneous face-down choices."""
    s = kick_off()
    assert s.current_players() == (0, 1)
    s = s.apply(1, Mark((4,)))
    assert s.current_players() == (0,)
    assert s.view(0)["state"]["chosen"] == [False, True]
    assert s.view(0)["state"]["my_choice"] is None
    assert s.view(1)["state"]["my_choice"] == "mark 4"
    assert "mark 4" not in str(s.view(None))
    # The attacker's view and determinization never reveal the mark.
    marks = {str(s.determinize(0, random.Random(k)).choice[1]) for k in range(40)}
    assert len(marks) > 3


def test_unmarked_number_is_retired_for_both_players() -> None:
    """Rulebook 5: the unmatched number can't be picked again by either player this turn."""
    s = pass_(kick_off(), 5, 3)
    assert s.passes == 1 and s.retired == (5,)
    assert "pass 5" not in texts(s, 0) and "mark 5" not in texts(s, 1)
    assert "mark 3" in texts(s, 1)  # the defender's card went back to hand
    with pytest.raises(IllegalAction, match="retired"):
        s.apply(0, PassTo((5,)))


def test_marked_pass_wins_possession_and_swaps_roles() -> None:
    """Rulebook 2, 5: a mark ends the turn; the other side attacks next."""
    s = kick_off(att0=("att-bogey", "attacking-gk"))
    s = pass_(s, 6, 6)
    assert s.phase_name == "pass-reply"  # the attacker holds attacking cards: it may answer
    s = act(s, 0, "no card")
    assert "turn-over" in kinds(s)
    assert s.current_players() == (CHANCE,)  # draws first
    s = act(s, CHANCE, "draw shoot")
    s = act(s, 0, "keep hand")
    s = act(s, CHANCE, "draw tackle")
    s = act(s, 1, "keep hand")
    assert s.attacker == 1 and s.turn == 1 and s.passes == 0 and s.retired == ()


def test_goalkeeper_cannot_take_the_seventh_pass() -> None:
    """Rulebook 4, Rulings 2: card 1 is illegal on the final pass (for the mark too)."""
    s = kick_off()
    assert "pass 1" in texts(s, 0)
    s = passes(s, [2, 3, 4, 5, 6, 7])
    assert s.passes == 6
    assert "pass 1" not in texts(s, 0) and "mark 1" not in texts(s, 1)
    assert "ATTACKING GK" in s.explain_illegal(0, PassTo((1,)))


def test_seven_passes_give_a_shot_and_a_match_is_a_save() -> None:
    """Rulebook 6-8: after 7 passes, shoot vs save; same direction = save."""
    s = kick_off(power_cards=False)
    s = passes(s, [2, 3, 4, 5, 6, 7, 8])
    assert s.phase_name == "shot"
    assert texts(s, 0) == ["shoot left", "shoot middle", "shoot right"]
    saved = shot(s, "left", "left")
    assert saved.goals == (0, 0) and "save" in kinds(saved)
    scored = shot(s, "left", "right")
    assert scored.goals == (1, 0) and "goal" in kinds(scored)
    assert scored.attacker == 1  # next turn


def test_half_time_after_round_two_reverses_the_order() -> None:
    """Rulebook 3, 9: four rounds, half-time after two; the first attacker attacks second after it."""
    rules = GAME
    order = [rules.attacker_of(0, t, 4) for t in range(10)]  # type: ignore[attr-defined]
    assert order[:8] == [0, 1, 0, 1, 1, 0, 1, 0]
    assert order[8:] == [0, 1]  # extra time: the first half's order
    s = kick_off(power_cards=False)
    for _ in range(4):
        s = pass_(s, 2, 2)
    assert "half-time" in kinds(s) and s.attacker == 1 and s.turn == 4


# --- power-card economy -------------------------------------------------------------------


def test_draw_after_a_turn_and_swap_keeps_hand_size() -> None:
    """Card Draw 5 / Rulings 5: previous attacker draws attacking, defender defending; swap optional."""
    s = pass_(kick_off(), 6, 6)
    s = act(s, 0, "no card")
    assert s.chance_outcomes()[0][0].card in GAME.data.cards  # type: ignore[attr-defined]
    s = act(s, CHANCE, "draw shoot")
    assert s.current_players() == (0,)
    assert s.view(0)["state"]["drawn"] == "shoot" and s.view(1)["state"]["drawn"] is None
    assert texts(s, 0) == ["swap att-bogey", "swap attacking-gk", "swap def-bogey", "swap high-press", "keep hand"]
    s = act(s, 0, "swap att-bogey")
    assert sorted(s.hands[0]) == sorted(["shoot", "attacking-gk", "def-bogey", "high-press"])
    assert s.swapped == (("att-bogey",), ())
    s = act(s, CHANCE, "draw tackle")
    s = act(s, 1, "swap att-block-1")  # a defending card swapped for an attacking one
    assert s.swapped == (("att-block-1", "att-bogey"), ())
    assert s.hand_counts(1) == (1, 3)


def test_log_lines_say_whose_card_went_aside_and_which_pass_went_where() -> None:
    """Issue 13.13: "You put BOGEY aside." was read in replays by no "you"; "Pass 7 to 7" mixed
    the pass count with the player's number."""
    s = pass_(kick_off(), 6, 6)
    assert s.events[0].text == "The 1st pass, to number 6, is marked (the defender chose number 6)."
    s = act(act(s, 0, "no card"), CHANCE, "draw shoot")
    s = act(s, 0, "swap att-bogey")
    secret = next(e for e in s.events if e.kind == "swap-detail")
    assert secret.text == "Seat 0 puts BOGEY aside." and secret.audience == (0,)
    s = passes(act(act(s, CHANCE, "draw tackle"), 1, "keep hand"), [2, 3])
    made = [e.text for e in s.events if e.kind == "pass"]
    assert made == ["The 2nd pass reaches number 3 (the defender marked number 1)."]


def test_empty_pile_is_refilled_from_swapped_out_cards() -> None:
    """Rulings 5: an empty pile refills from its side's swapped-out cards."""
    s = pass_(kick_off(), 6, 6)
    s = act(s, 0, "no card")
    emptied = arrange(s, piles=((), s.piles[1]), swapped=(("dribble", "shoot"), ()))
    assert sorted(str(a) for a, _ in emptied.chance_outcomes()) == ["draw dribble", "draw shoot"]
    s = act(emptied, CHANCE, "draw shoot")
    assert s.piles[0] == ("dribble",) and s.swapped[0] == ()
    assert "refill" in kinds(s)


def test_no_draw_with_an_empty_hand_or_after_the_last_regulation_turn() -> None:
    """Rulings 5 (a draw never raises hand size) and rulebook 10 (no cards in extra time)."""
    s = kick_off(rounds=1)
    s = pass_(s, 6, 6)
    s = act(s, 0, "no card")
    s = act(s, CHANCE, "draw shoot")
    s = act(s, 0, "keep hand")
    s = act(s, CHANCE, "draw tackle")
    s = act(s, 1, "keep hand")
    s = pass_(s, 6, 6)  # last regulation turn
    s = act(s, 1, "no card")
    assert s.current_players() != (CHANCE,)
    assert s.period_name == "extra-time"


def test_cards_are_played_only_by_their_side() -> None:
    """Usage 3: attacking cards by the attacker, defending cards by the defender."""
    s = kick_off(att0=("dribble", "att-bogey"), def0=("tackle", "def-bogey"))
    assert "play dribble" in texts(s, 0)
    assert not any("tackle" in t for t in texts(s, 0))
    assert "defending cards are played only by the defender" in s.explain_illegal(0, Play("def-bogey"))


# --- attacking power cards ----------------------------------------------------------------


def test_shoot_gives_a_shot_at_once_on_passes_four_to_six() -> None:
    """SHOOT (playable for passes 4-6)."""
    s = kick_off(att0=("shoot", "att-bogey"))
    s = passes(s, [2, 3])
    assert "play shoot" not in texts(s, 0)  # before pass 3: outside the window
    s = passes(s, [4])
    assert "play shoot" in texts(s, 0)
    s = act(s, 0, "play shoot")
    assert s.phase_name == "block"  # seat 1 holds defending cards and may answer
    s = act(s, 1, "no card")
    assert s.phase_name == "shot" and s.passes == 3
    assert s.discards[0] == ("shoot",) and "shoot" not in s.hands[0]


def test_defending_block_three_cancels_shoot() -> None:
    """Defending BLOCK: Joker, Shoot or Pass Re-take (Rulings 6: answered at once)."""
    s = kick_off(att0=("shoot", "att-bogey"), def1=("def-block-3", "def-bogey"))
    s = passes(s, [2, 3, 4])
    s = act(s, 0, "play shoot")
    assert texts(s, 1) == ["play def-block-3", "no card"]
    s = act(s, 1, "play def-block-3")
    assert s.phase_name == "pass" and s.passes == 3 and "blocked" in kinds(s)
    assert s.discards == (("shoot",), ("def-block-3",))


def test_declining_to_block_is_said_in_the_log() -> None:
    """Issue 13.13: a BLOCK not played left no line, and a replay showed the bare "no card"."""
    s = kick_off(att0=("shoot", "att-bogey"), def1=("def-block-3", "def-bogey"))
    s = act(act(passes(s, [2, 3, 4]), 0, "play shoot"), 1, "no card")
    assert s.events[0].text == "Seat 1 does not block SHOOT." and s.events[0].audience is None
    assert s.phase_name != "block"


def test_declining_to_block_a_joker_names_the_joker() -> None:
    """QA s27: under ``joker_blocks=joker`` only the BLOCK naming JOKER answers it, yet the log read
    "does not block CLEARANCE", as if the BLOCK that names CLEARANCE had been held back."""
    s = kick_off(att0=("att-bogey", "att-block-1"), def1=("clearance", "def-joker"))
    s = play(passes(s, [2, 3, 4]), 1, "clearance")
    s = act(passes(s, [2, 3, 4]), 1, "play def-joker as clearance")
    assert texts(s, 0) == ["no card"]
    s = act(s, 0, "no card")
    assert s.events[0].text == "Seat 0 does not block JOKER (as CLEARANCE)."
    s = kick_off(def1=("clearance", "def-joker"), att0=("att-block-3", "att-bogey"))
    s = play(passes(s, [2, 3, 4]), 1, "clearance")
    s = act(act(passes(s, [2, 3, 4]), 1, "play def-joker as clearance"), 0, "play att-block-3")
    assert [e.text for e in s.events][-1] == "JOKER (as CLEARANCE) is blocked."


def test_block_cannot_answer_a_card_it_does_not_name() -> None:
    """Each BLOCK answers its three named cards only; BOGEY can't be blocked."""
    s = kick_off(att0=("shoot", "att-bogey"), def1=("def-block-1", "def-block-2"))
    s = passes(s, [2, 3, 4])
    s = act(s, 0, "play shoot")
    assert texts(s, 1) == ["no card"]
    s = kick_off(att0=("att-bogey", "shoot"), def1=("def-block-3", "def-bogey"))
    s = act(s, 0, "play att-bogey")
    assert s.phase_name == "pass" and s.current_players() == (0, 1)


def test_through_ball_limits_the_pass_and_shoots_when_unmarked() -> None:
    """THROUGH BALL: only 3 5 7 9 for both; not marked -> shot at once (passes 3-6)."""
    s = kick_off(att0=("through-ball", "att-bogey"), def1=("def-bogey", "def-block-1"))
    s = passes(s, [2, 4])
    s = play(s, 0, "through-ball")
    assert texts(s, 0)[:4] == ["pass 3", "pass 5", "pass 7", "pass 9"] and "pass 6" not in texts(s, 0)
    assert [t for t in texts(s, 1) if t.startswith("mark")] == ["mark 3", "mark 5", "mark 7", "mark 9"]
    assert s.view(0)["state"]["restriction"] == [3, 5, 7, 9]
    s = pass_(s, 7, 3)
    assert s.phase_name == "shot" and s.passes == 3


def test_counter_attack_moves_three_passes_and_retires_three_chosen_numbers() -> None:
    """COUNTER ATTACK (passes 1-3): +3 passes; the attacker retires 3 of its unused numbers."""
    s = kick_off(att0=("counter-attack", "att-bogey"), def1=("def-bogey", "def-block-2"))
    s = play(s, 0, "counter-attack")
    assert s.phase_name == "counter" and s.passes == 3
    for n in (1, 10, 11):
        s = act(s, 0, f"retire {n}")
    assert s.phase_name == "pass" and s.retired == (1, 10, 11) and s.passes == 3
    assert "pass 10" not in texts(s, 0)


def test_dribble_counts_three_passes_when_unmarked() -> None:
    """DRIBBLE (passes 1-4): if the next pass is not marked, two more passes are skipped."""
    s = kick_off(att0=("dribble", "att-bogey"), def1=("def-bogey", "def-block-1"))
    s = play(s, 0, "dribble")
    s = pass_(s, 4, 5)
    assert s.passes == 3 and s.retired == (4,)
    # QA s27: the log said nothing of the two passes skipped (the next line read "4th pass").
    made = next(e for e in s.events if e.kind == "pass")
    assert (
        made.text == "The 1st pass reaches number 4 (the defender marked number 5); with DRIBBLE it counts as 3 passes."
    )
    assert made.data["passes"] == 3
    # The effect is for one pass only.
    s = pass_(s, 6, 5)
    assert s.passes == 4


def dribble_then_counter_attack(after: list[int]) -> SoccerGoState:
    """Seat 0 plays DRIBBLE, then COUNTER ATTACK (retiring 9, 10, 11) before the same pass."""
    s = kick_off(att0=("dribble", "counter-attack"), def1=("slow-build-up", "def-bogey"))
    s = passes(s, after)
    s = play(play(s, 0, "dribble"), 0, "counter-attack")
    for n in (9, 10, 11):
        s = act(s, 0, f"retire {n}")
    assert s.phase_name == "pass" and s.passes == len(after) + 3
    return s


def test_a_dribble_after_a_counter_attack_stops_at_the_passes_needed() -> None:
    """docs/rulings.md, DRIBBLE: the count never goes past the passes needed (it went 5 -> 8 of 7),
    so SLOW BUILD-UP is still offered when the dribbled pass completes them."""
    s = pass_(dribble_then_counter_attack([2, 3]), 8, 7)
    assert s.phase_name == "shot" and (s.passes, s.target) == (7, 7)
    made = next(e for e in s.events if e.kind == "pass")
    assert made.text.endswith("; with DRIBBLE it counts as the 2 passes still needed.")
    assert s.view(1)["state"]["passes"] == 7
    assert "play slow-build-up" in texts(s, 1)


def test_the_goalkeeper_cannot_take_a_dribbled_pass_that_completes_the_passes() -> None:
    """Rulings 2 with docs/rulings.md, DRIBBLE: the dribbled pass that reaches the 7th is the final
    pass, so 1 is neither a legal pass nor a legal mark on it."""
    s = dribble_then_counter_attack([2])
    assert "pass 1" not in texts(s, 0) and "mark 1" not in texts(s, 1)
    assert "ATTACKING GK" in s.explain_illegal(0, PassTo((1,)))
    assert pass_(s, 8, 7).passes == 7
    # A dribbled pass that leaves passes to make is not the final one.
    early = play(kick_off(att0=("dribble", "att-bogey")), 0, "dribble")
    assert "pass 1" in texts(early, 0)


def test_corner_attacker_lays_three_and_an_unmarked_corner_is_a_shot() -> None:
    """CORNER (passes 2-5): attacker 3 numbers, defender 1; no match -> shot at once."""
    s = kick_off(att0=("corner", "att-bogey"), def1=("def-bogey", "def-block-2"))
    s = passes(s, [2])
    s = play(s, 0, "corner")
    assert "pass 3+4+5" in texts(s, 0) and "mark 3" in texts(s, 1)
    with pytest.raises(IllegalAction, match="exactly 3"):
        s.apply(0, PassTo((3,)))
    marked = pass_(s, (3, 4, 5), 4)
    assert "marked" in kinds(marked)
    s = pass_(s, (3, 4, 5), 6)
    assert s.phase_name == "shot"


def test_attacking_gk_lets_the_goalkeeper_take_the_seventh_pass() -> None:
    """ATTACKING GK (playable on the 7th pass)."""
    s = kick_off(att0=("attacking-gk", "att-bogey"), def1=("def-bogey", "def-block-2"))
    s = passes(s, [2, 3, 4, 5])
    assert "play attacking-gk" not in texts(s, 0)
    s = passes(s, [6, 7])
    assert "pass 1" not in texts(s, 0)
    s = play(s, 0, "attacking-gk")
    assert "pass 1" in texts(s, 0) and "mark 1" in texts(s, 1)
    s = pass_(s, 1, 8)
    assert s.phase_name == "shot"


def test_attacking_pass_retake_voids_a_marked_pass() -> None:
    """PASS RE-TAKE (attacking, passes 1-7): the marked pass is chosen again."""
    s = kick_off(att0=("att-pass-retake", "att-bogey"), def1=("def-bogey", "def-block-2"))
    s = passes(s, [2, 3])
    s = pass_(s, 4, 4)
    assert texts(s, 0) == ["play att-pass-retake", "no card"]
    s = play(s, 0, "att-pass-retake")
    assert s.phase_name == "pass" and s.attacker == 0 and s.passes == 2 and s.retired == (2, 3)
    assert "pass 4" in texts(s, 0)


def test_attacking_shot_retake_reruns_a_saved_shot() -> None:
    """SHOT RE-TAKE (attacking): a saved shot is taken again."""
    s = kick_off(att0=("att-shot-retake", "att-bogey"), def1=("def-bogey", "def-block-1"))
    s = passes(s, [2, 3, 4, 5, 6, 7, 8])
    s = shot(s, "left", "left")
    assert texts(s, 0) == ["play att-shot-retake", "no card"]
    s = play(s, 0, "att-shot-retake")
    assert s.phase_name == "shot"
    s = shot(s, "left", "right")
    assert s.goals == (1, 0)


def test_defending_block_two_cancels_the_attacking_shot_retake() -> None:
    """Defending BLOCK: Through Ball, Dribble or Shot Re-take."""
    s = kick_off(att0=("att-shot-retake", "att-bogey"), def1=("def-block-2", "def-bogey"))
    s = passes(s, [2, 3, 4, 5, 6, 7, 8])
    s = shot(s, "left", "left")
    s = act(s, 0, "play att-shot-retake")
    s = act(s, 1, "play def-block-2")
    # The attacker still holds BOGEY, so it is asked again (docs/rulings.md); it can only decline.
    assert s.phase_name == "shot-reply" and texts(s, 0) == ["no card"]
    s = act(s, 0, "no card")
    assert "turn-over" in kinds(s) and s.goals == (0, 0)


def test_defending_block_one_cancels_counter_attack() -> None:
    """Defending BLOCK: Attacking GK, Counter Attack or Corner."""
    s = kick_off(att0=("counter-attack", "att-bogey"), def1=("def-block-1", "def-bogey"))
    s = act(s, 0, "play counter-attack")
    s = act(s, 1, "play def-block-1")
    assert s.phase_name == "pass" and s.passes == 0 and s.retired == ()


def test_attacking_joker_copies_a_discarded_attacking_card() -> None:
    """JOKER (Rulings 7): copies a card in its side's discard pile; none there, not playable."""
    s = kick_off(att0=("att-joker", "shoot"), def1=("def-bogey", "def-block-1"))
    s = passes(s, [2, 3, 4])
    assert not any("att-joker" in t for t in texts(s, 0))
    s = play(s, 0, "shoot")
    s = shot(s, "left", "right")
    assert s.goals == (1, 0)
    # Turn 2: seat 1 attacks; draws first.
    s = act(s, 1, "no card")
    s = act(s, CHANCE, "draw dribble")
    s = act(s, 0, "keep hand")
    s = act(s, CHANCE, "draw tackle")
    s = act(s, 1, "keep hand")
    s = pass_(s, 5, 5)
    s = act(s, 1, "no card")
    s = act(s, CHANCE, "draw corner")
    s = act(s, 1, "keep hand")
    s = act(s, CHANCE, "draw clearance")
    s = act(s, 0, "keep hand")
    assert s.attacker == 0
    s = passes(s, [2, 3])
    assert "play att-joker as shoot" not in texts(s, 0)  # Shoot's window: passes 4-6
    s = passes(s, [4])
    s = act(s, 0, "play att-joker as shoot")
    s = act(s, 1, "no card")
    assert s.phase_name == "shot" and s.discards[0] == ("shoot", "att-joker")


def test_a_card_that_is_not_a_joker_is_not_played_as_another() -> None:
    """QA: "play att-bogey as shoot" was refused with the Joker's reason (the copied card not
    discarded), though BOGEY copies nothing."""
    s = passes(kick_off(att0=("att-bogey", "shoot")), [2, 3, 4])
    reason = s.explain_illegal(0, Play("att-bogey", "shoot"))
    assert reason == "only a JOKER is played as another card, and BOGEY is not one"
    with pytest.raises(IllegalAction, match="only a JOKER"):
        act(s, 0, "play att-bogey as shoot")


def test_defending_block_three_cancels_a_joker() -> None:
    """The card named is the JOKER: the BLOCK that names Joker answers it."""
    s = kick_off(att0=("att-joker", "shoot"), def1=("def-block-3", "def-bogey"))
    s = arrange(s, discards=(("dribble",), ()))
    s = act(s, 0, "play att-joker as dribble")
    assert texts(s, 1) == ["play def-block-3", "no card"]
    s = act(s, 1, "play def-block-3")
    assert s.mods == 0


def test_joker_blocks_option_lets_the_copied_cards_block_answer() -> None:
    """Variant ``joker_blocks``: the BLOCK naming the copied card (or either) answers a JOKER."""
    for mode, answering in (("copied", "def-block-2"), ("either", "def-block-2"), ("joker", None)):
        s = kick_off(att0=("att-joker", "shoot"), def1=("def-block-2", "def-bogey"), joker_blocks=mode)
        s = arrange(s, discards=(("dribble",), ()))
        s = act(s, 0, "play att-joker as dribble")
        # The window opens either way (the defender holds defending cards); only the legal answers differ.
        assert texts(s, 1) == ([f"play {answering}"] if answering else []) + ["no card"]


def test_bogey_does_nothing() -> None:
    """BOGEY: no action (it only leaves the hand)."""
    s = kick_off()
    before = (s.passes, s.retired, s.mods)
    s = act(s, 0, "play att-bogey")
    assert (s.passes, s.retired, s.mods) == before and s.current_players() == (0, 1)
    assert s.hand_counts(0) == (1, 2)


def test_bogey_is_played_only_before_passes_one_to_seven() -> None:
    """docs/rulings.md, BOGEY: like the other pass cards, before any of passes 1-7 only; not at
    the shot nor in an answer window (after a marked pass, a save or a goal)."""
    s = kick_off(att0=("att-bogey", "dribble"), def1=("def-bogey", "def-block-1"))
    assert "play att-bogey" in texts(s, 0) and "play def-bogey" in texts(s, 1)
    marked = pass_(s, 2, 2)
    assert marked.phase_name == "pass-reply" and texts(marked, 0) == ["no card"]
    s = passes(s, [2, 3, 4, 5, 6, 7])
    assert "play att-bogey" in texts(s, 0) and "play def-bogey" in texts(s, 1)  # before the 7th pass
    s = pass_(s, 8, 9)
    assert s.phase_name == "shot" and not any(t.startswith("play") for t in texts(s, 0) + texts(s, 1))
    saved = shot(s, "left", "left")
    assert saved.phase_name == "shot-reply" and texts(saved, 0) == ["no card"]


def test_defending_bogey_does_nothing_either() -> None:
    s = kick_off(def1=("def-bogey", "tackle"))
    s = pass_(s, 2, 3)
    s = act(s, 1, "play def-bogey")
    assert s.phase_name == "pass" and s.passes == 1 and s.retired == (2,) and s.discards[1] == ("def-bogey",)


def test_determinize_resamples_the_other_hand_with_the_same_card_backs() -> None:
    """The other seat's hand is redrawn from the unseen cards, side by side."""
    s = kick_off(att0=("shoot", "corner"), def0=("tackle", "clearance"))
    seen = set()
    for k in range(30):
        d = s.determinize(0, random.Random(k))
        assert d.hands[0] == s.hands[0] and d.hand_counts(1) == s.hand_counts(1)
        assert not set(d.hands[1]) & {"shoot", "corner", "tackle", "clearance"}
        assert len(d.piles[0]) == len(s.piles[0]) and len(d.piles[1]) == len(s.piles[1])
        seen.add(d.hands[1])
    assert len(seen) > 20


def test_a_world_leaves_the_card_a_seat_put_aside_in_the_swapped_out_pile() -> None:
    """Rulings 5: the card put aside goes to the swapped-out pile, and its seat saw which it was;
    QA s27: worlds made for that seat still dealt it to the other seat (365 of 2,000)."""
    s = kick_off(att0=("shoot", "corner"), first=0)
    s = act(pass_(s, 2, 2), 0, "no card")
    s = act(act(s, CHANCE, "draw att-joker"), 0, "swap shoot")
    s = act(act(s, CHANCE, "draw slow-build-up"), 1, "keep hand")
    for k in range(300):
        world = s.determinize(0, random.Random(k))
        assert "shoot" in world.swapped[0] and "shoot" not in world.hands[1]
        assert world.view(0) == s.view(0)


def test_worlds_put_no_card_where_its_seat_knows_it_is_not() -> None:
    """api.py: a world is one its seat cannot tell apart from the real one. Rulings 5: a card a
    seat put aside lies in the swapped-out pile until that pile refills the draw pile, and then in
    the pile, unless the other seat drew it since. Checked over whole matches long enough to
    refill, against a record of what each seat saw kept here."""
    cards = GAME.data.cards  # type: ignore[attr-defined]
    worlds = refills = 0
    for seed in range(6):
        rng = random.Random(seed)
        s = GAME.new_match(seed=seed, rounds=10)
        # By seat, then side: put aside since the side's refill; put aside before it and not drawn
        # back by the seat; the other seat's draws since the refill.
        aside: list[list[list[str]]] = [[[], []], [[], []]]
        before: list[list[list[str]]] = [[[], []], [[], []]]
        their_draws = [[0, 0], [0, 0]]
        while not s.is_terminal():
            players = s.current_players()
            if players == (CHANCE,):
                action = sample_chance(s, rng)
                if s.phase_name == "draw":
                    side = cards[action.card].side
                    if not s.piles[side]:
                        refills += 1
                        for seat in (0, 1):
                            before[seat][side], aside[seat][side], their_draws[seat][side] = aside[seat][side], [], 0
                    for seat in (0, 1):
                        if seat != s.drawer:
                            their_draws[seat][side] += 1
                        elif action.card in before[seat][side]:
                            before[seat][side].remove(action.card)
                s = s.apply(CHANCE, action)
                continue
            seat = players[rng.randrange(len(players))]
            for k in range(4):
                world = s.determinize(seat, random.Random(k))
                worlds += 1
                for side in (0, 1):
                    assert Counter(aside[seat][side]) <= Counter(world.swapped[side])
                    assert not set(aside[seat][side]) & set(world.hands[1 - seat])
                    gone = [c for c in before[seat][side] if c not in world.piles[side]]
                    assert len(gone) <= their_draws[seat][side]
            legal = s.legal_actions(seat)
            action = legal[rng.randrange(len(legal))]
            if s.phase_name == "swap":
                out = action.card if isinstance(action, Swap) else s.drawn
                aside[seat][cards[out].side].append(out)
            s = s.apply(seat, action)
    assert refills >= 3 and worlds > 1000


def test_a_world_keeps_only_the_events_its_seat_saw() -> None:
    """QA: a world made right after the deal still named the other seat's last dealt card in its
    events, though its hand had been resampled."""
    s = kick_off(att0=("shoot", "corner"), def1=("tackle", "clearance"))
    assert [e.text for e in s.events if e.audience == (1,)] == ["Seat 1 is dealt CLEARANCE."]
    world = s.determinize(0, random.Random(0))
    assert all(e.visible_to(0) for e in world.events)
    assert [e.kind for e in world.events] == [e.kind for e in s.events if e.visible_to(0)]
    assert "Seat 1 is dealt CLEARANCE." in [e.text for e in s.determinize(1, random.Random(0)).events]


def test_a_played_card_takes_back_the_other_seats_face_down_choice() -> None:
    """A card played before the reveal voids the other's hidden choice: both choose again."""
    s = kick_off(att0=("dribble", "att-bogey"), def1=("def-bogey", "def-block-1"))
    s = s.apply(1, Mark((4,)))
    s = play(s, 0, "dribble")
    assert s.current_players() == (0, 1) and s.choice == (None, None)


# --- defending power cards ----------------------------------------------------------------


def test_high_press_limits_the_next_pass_to_even_numbers() -> None:
    """HIGH PRESS (passes 2-5): only 2 4 6 8 for the next pass."""
    s = kick_off(def1=("high-press", "def-bogey"), att0=("att-bogey", "corner"))
    s = passes(s, [3])
    s = act(s, 1, "play high-press")
    assert s.phase_name == "block"  # seat 0 holds attacking cards
    s = act(s, 0, "no card")
    assert [t for t in texts(s, 0) if t.startswith("pass")] == ["pass 2", "pass 4", "pass 6", "pass 8"]
    s = pass_(s, 2, 4)
    assert s.passes == 2 and s.mods == 0


def test_attacking_block_two_cancels_high_press() -> None:
    """Attacking BLOCK: High Press, Tackle ("Tight Defense") or Shot Re-take."""
    s = kick_off(att0=("att-block-2", "att-bogey"), def1=("high-press", "def-bogey"))
    s = passes(s, [3])
    s = act(s, 1, "play high-press")
    s = act(s, 0, "play att-block-2")
    assert "pass 3" not in texts(s, 0) and "pass 5" in texts(s, 0)


def test_deep_press_defender_marks_three() -> None:
    """DEEP PRESS (passes 3-6): defender 3 numbers, attacker 1; unmarked = a normal pass."""
    s = kick_off(def1=("deep-press", "def-bogey"))
    s = passes(s, [2, 3])
    s = act(s, 1, "play deep-press")
    s = act(s, 0, "no card")
    assert "mark 4+5+6" in texts(s, 1) and "pass 4" in texts(s, 0)
    assert "marked" in kinds(pass_(s, 5, (4, 5, 6)))
    s = pass_(s, 7, (4, 5, 6))
    assert s.passes == 3 and s.retired == (2, 3, 7)


def test_an_unmarked_deep_pressed_pass_under_dribble_counts_three() -> None:
    """docs/rulings.md, DRIBBLE with DEEP PRESS: "one normal pass" (Rulings 9) means a pass, not a
    shot, so the DRIBBLE played before it still adds its skipped passes."""
    s = kick_off(att0=("dribble", "att-bogey"), def1=("deep-press", "def-bogey"))
    s = passes(s, [2, 3])
    s = play(play(s, 0, "dribble"), 1, "deep-press")
    assert s.view(None)["state"]["modifiers"] == ["dribble", "deep-press"]
    assert "marked" in kinds(pass_(s, 5, (4, 5, 6)))
    s = pass_(s, 4, (5, 6, 7))
    assert s.phase_name == "pass" and s.passes == 5 and s.retired == (2, 3, 4)


def test_attacking_block_one_cancels_deep_press() -> None:
    """Attacking BLOCK: Slow Build-Up, Deep Press or Clearance."""
    s = kick_off(att0=("att-block-1", "att-bogey"), def1=("deep-press", "def-bogey"))
    s = passes(s, [2, 3])
    s = act(s, 1, "play deep-press")
    s = act(s, 0, "play att-block-1")
    assert "mark 4" in texts(s, 1) and "mark 4+5+6" not in texts(s, 1)


def test_clearance_moves_back_three_passes_and_returns_the_last_three_numbers() -> None:
    """CLEARANCE (passes 4-7): -3 passes; the last 3 retired numbers are open again."""
    s = kick_off(def1=("clearance", "def-bogey"))
    s = passes(s, [2, 3, 4, 5])
    s = act(s, 1, "play clearance")
    s = act(s, 0, "no card")
    assert s.passes == 1 and s.retired == (2,)
    assert "pass 5" in texts(s, 0)


def test_tackle_is_rock_paper_scissors_ties_replay() -> None:
    """TACKLE (passes 3-6): defender wins -> possession; attacker wins -> play on."""
    s = kick_off(def1=("tackle", "def-bogey"), att0=("att-bogey", "shoot"))
    s = passes(s, [2, 3])
    s = act(s, 1, "play tackle")
    s = act(s, 0, "no card")
    assert s.phase_name == "tackle" and s.current_players() == (0, 1)
    tie = s.apply(0, Show("rock")).apply(1, Show("rock"))
    assert tie.phase_name == "tackle"
    kept = s.apply(0, Show("rock")).apply(1, Show("scissors"))
    assert kept.phase_name == "pass" and kept.passes == 2
    lost = s.apply(0, Show("rock")).apply(1, Show("paper"))
    assert "turn-over" in kinds(lost)


def test_slow_build_up_needs_one_more_pass_before_the_shot() -> None:
    """SLOW BUILD-UP (after the 7th pass): an 8th pass; card 1 is illegal on it."""
    s = kick_off(def1=("slow-build-up", "def-bogey"))
    s = passes(s, [1, 3, 4, 5, 6])
    assert "play slow-build-up" not in texts(s, 1)
    s = passes(s, [7, 8])
    assert s.phase_name == "shot"
    s = act(s, 1, "play slow-build-up")
    s = act(s, 0, "no card")
    assert s.phase_name == "pass" and s.target == 8 and s.passes == 7
    s = pass_(s, 9, 10)
    assert s.phase_name == "shot"


def test_narrow_shot_removes_one_direction_for_both() -> None:
    """NARROW SHOT: both players discard the same direction card."""
    s = kick_off(def1=("narrow-shot", "def-bogey"))
    s = passes(s, [2, 3, 4, 5, 6, 7, 8])
    s = act(s, 1, "play narrow-shot")
    s = act(s, 0, "no card")
    assert s.phase_name == "narrow"
    s = s.apply(1, Remove("middle"))
    assert texts(s, 0) == ["shoot left", "shoot right"]
    assert [t for t in texts(s, 1) if t.startswith("save")] == ["save left", "save right"]
    assert "closed" in s.explain_illegal(0, Shoot("middle"))


def test_attacking_block_three_cancels_narrow_shot() -> None:
    s = kick_off(att0=("att-block-3", "att-bogey"), def1=("narrow-shot", "def-bogey"))
    s = passes(s, [2, 3, 4, 5, 6, 7, 8])
    s = act(s, 1, "play narrow-shot")
    s = act(s, 0, "play att-block-3")
    assert s.phase_name == "shot" and s.narrowed is None


def test_defending_pass_retake_voids_an_unmarked_pass() -> None:
    """PASS RE-TAKE (defending): the pass is re-taken and its number is not retired."""
    s = kick_off(def1=("def-pass-retake", "def-bogey"))
    s = passes(s, [2, 3])
    assert "play def-pass-retake" in texts(s, 1)
    s = act(s, 1, "play def-pass-retake")
    s = act(s, 0, "no card")
    assert s.passes == 1 and s.retired == (2,) and "pass 3" in texts(s, 0)


def test_defending_pass_retake_of_the_pass_that_earned_the_shot() -> None:
    s = kick_off(def1=("def-pass-retake", "def-bogey"), att0=("att-bogey", "attacking-gk"))
    s = passes(s, [2, 3, 4, 5, 6, 7, 8])
    assert s.phase_name == "shot"
    s = act(s, 1, "play def-pass-retake")
    s = act(s, 0, "no card")
    assert s.phase_name == "pass" and s.passes == 6 and 8 not in s.retired


def test_defending_shot_retake_strikes_off_a_goal_and_retakes() -> None:
    """SHOT RE-TAKE (defending): a goal is taken again."""
    s = kick_off(def1=("def-shot-retake", "def-bogey"), att0=("att-bogey", "attacking-gk"))
    s = passes(s, [2, 3, 4, 5, 6, 7, 8])
    s = shot(s, "left", "right")
    assert s.goals == (1, 0) and texts(s, 1) == ["play def-shot-retake", "no card"]
    s = act(s, 1, "play def-shot-retake")
    s = act(s, 0, "no card")
    assert s.goals == (0, 0) and s.phase_name == "shot"
    # QA s27: the log said only "The shot is taken again." while the score went back.
    retaken = next(e for e in s.events if e.kind == "shot-retake")
    assert retaken.text == "Seat 0's goal is taken off (1-0 becomes 0-0) and the shot is taken again."
    s = shot(s, "middle", "middle")
    assert s.goals == (0, 0)


def test_attacking_block_two_keeps_the_goal_against_a_shot_retake() -> None:
    s = kick_off(def1=("def-shot-retake", "def-bogey"), att0=("att-block-2", "attacking-gk"))
    s = passes(s, [2, 3, 4, 5, 6, 7, 8])
    s = shot(s, "left", "right")
    s = act(s, 1, "play def-shot-retake")
    s = act(s, 0, "play att-block-2")
    assert s.goals == (1, 0) and s.phase_name == "shot-reply" and texts(s, 1) == ["no card"]
    s = act(s, 1, "no card")
    assert s.goals == (1, 0) and "turn-over" in kinds(s)


def test_a_blocked_pass_retake_reopens_the_window_for_a_joker() -> None:
    """docs/rulings.md: a BLOCK after a marked pass returns to that answer window, as in the pass
    step, so a JOKER may copy the PASS RE-TAKE just blocked (Rulings, Soccer-Go 7)."""
    s = kick_off(att0=("att-pass-retake", "att-joker"), def1=("def-block-3", "def-bogey"))
    s = passes(s, [2, 3])
    s = pass_(s, 4, 4)
    s = act(s, 0, "play att-pass-retake")
    s = act(s, 1, "play def-block-3")
    assert "turn-over" not in kinds(s) and s.phase_name == "pass-reply" and s.attacker == 0
    assert texts(s, 0) == ["play att-joker as att-pass-retake", "no card"]
    s = play(s, 0, "att-joker as att-pass-retake")
    assert s.phase_name == "pass" and s.attacker == 0 and s.passes == 2 and s.retired == (2, 3)


def test_a_blocked_shot_retake_after_a_goal_reopens_the_window_for_a_joker() -> None:
    """docs/rulings.md: after a blocked defending SHOT RE-TAKE the goal stands for now and the
    defender may still strike it off with a JOKER copying the re-take."""
    s = kick_off(att0=("att-block-2", "att-bogey"), def1=("def-shot-retake", "def-joker"))
    s = passes(s, [2, 3, 4, 5, 6, 7, 8])
    s = shot(s, "left", "right")
    s = act(s, 1, "play def-shot-retake")
    s = act(s, 0, "play att-block-2")
    assert s.goals == (1, 0) and s.phase_name == "shot-reply" and s.current_players() == (1,)
    assert texts(s, 1) == ["play def-joker as def-shot-retake", "no card"]
    s = play(s, 1, "def-joker as def-shot-retake")
    assert s.goals == (0, 0) and s.phase_name == "shot" and s.attacker == 0


def test_a_blocked_defending_pass_retake_may_be_copied_by_the_defenders_joker() -> None:
    """docs/rulings.md, "A blocked card returns play to where it was played": the defender's window
    for the PASS RE-TAKE comes back too, so its JOKER may copy the re-take just blocked (QA s27:
    the BLOCK closed the window, though the attacking re-take's copy was offered)."""
    s = kick_off(att0=("att-block-3", "att-bogey"), def1=("def-pass-retake", "def-joker"))
    s = pass_(s, 2, 3)
    s = act(s, 1, "play def-pass-retake")
    s = act(s, 0, "play att-block-3")
    assert s.phase_name == "pass" and s.passes == 1 and s.retired == (2,)
    assert "play def-joker as def-pass-retake" in texts(s, 1)
    s = play(s, 1, "def-joker as def-pass-retake")
    assert s.phase_name == "pass" and s.passes == 0 and s.retired == () and s.hand_counts(1)[1] == 0


def test_a_blocked_retake_ends_the_turn_when_no_card_of_its_side_is_left() -> None:
    """With no card of its side left, the blocked side is not asked again: the marked pass stands."""
    s = kick_off(att0=("att-pass-retake", "att-bogey"), def1=("def-block-3", "def-bogey"))
    s = act(s, 0, "play att-bogey")
    s = passes(s, [2, 3])
    s = pass_(s, 4, 4)
    s = act(s, 0, "play att-pass-retake")
    s = act(s, 1, "play def-block-3")
    assert "turn-over" in kinds(s) and s.phase_name != "pass-reply" and s.hand_counts(0)[0] == 0


def test_defending_joker_copies_a_discarded_defending_card() -> None:
    s = kick_off(def1=("def-joker", "def-bogey"))
    s = arrange(s, discards=((), ("tackle",)))
    s = passes(s, [2, 3])
    s = act(s, 1, "play def-joker as tackle")
    s = act(s, 0, "no card")
    assert s.phase_name == "tackle"


def test_attacking_block_three_cancels_the_defending_joker() -> None:
    s = kick_off(def1=("def-joker", "def-bogey"), att0=("att-block-3", "att-bogey"))
    s = arrange(s, discards=((), ("tackle",)))
    s = passes(s, [2, 3])
    s = act(s, 1, "play def-joker as tackle")
    s = act(s, 0, "play att-block-3")
    assert s.phase_name == "pass"


def test_joker_can_copy_a_discarded_block() -> None:
    """A Joker copying a BLOCK answers a named card; a block can't be blocked."""
    s = kick_off(att0=("shoot", "att-bogey"), def1=("def-joker", "def-bogey"))
    s = arrange(s, discards=((), ("def-block-3",)))
    s = passes(s, [2, 3, 4])
    s = act(s, 0, "play shoot")
    assert texts(s, 1) == ["play def-joker as def-block-3", "no card"]
    s = act(s, 1, "play def-joker as def-block-3")
    assert s.phase_name == "pass" and s.current_players() == (0, 1)


# --- extra time and shootout --------------------------------------------------------------


def level_after_regulation(**options: object) -> SoccerGoState:
    s = kick_off(rounds=1, power_cards=False, **options)
    s = pass_(s, 2, 2)
    return pass_(s, 2, 2)


def level_after_extra_time() -> SoccerGoState:
    """Both extra-time attacks end on their second mark."""
    s = level_after_regulation()
    for _ in range(4):
        s = pass_(s, 2, 2)
    return s


def test_extra_time_has_no_power_cards_and_two_chances() -> None:
    """Rulebook 10 / Rulings 4: one round; a first mark keeps the count and retired numbers."""
    s = kick_off(rounds=1)
    s = pass_(s, 2, 2)
    s = act(s, 0, "no card")
    s = act(s, CHANCE, "draw shoot")
    s = act(s, 0, "keep hand")
    s = act(s, CHANCE, "draw tackle")
    s = act(s, 1, "keep hand")
    s = pass_(s, 2, 2)
    s = act(s, 1, "no card")
    assert s.period_name == "extra-time" and "extra-time" in kinds(s)
    assert s.attacker == 0 and s.chances == 2
    assert not any(t.startswith("play") for t in texts(s, 0) + texts(s, 1))
    s = passes(s, [3, 4])
    s = pass_(s, 5, 5)
    assert "second-chance" in kinds(s) and s.attacker == 0
    assert s.passes == 2 and s.retired == (3, 4) and s.chances == 1
    s = pass_(s, 6, 6)
    assert s.attacker == 1 and s.passes == 0


def test_extra_time_goal_wins_the_match() -> None:
    s = level_after_regulation()
    s = passes(s, [2, 3, 4, 5, 6, 7, 8])
    s = shot(s, "left", "right")
    s = pass_(pass_(s, 2, 2), 2, 2)
    assert s.is_terminal() and s.winner == 0 and s.score == (1, 0)


def test_shootout_three_kicks_then_sudden_death() -> None:
    """Rulebook 11 / Rulings 4: 3 kicks each, first attacker first, then sudden-death pairs."""
    s = level_after_extra_time()
    assert s.period_name == "shootout" and s.kicker == 0
    assert texts(s, 0)[0].startswith("shoot") and texts(s, 1)[0].startswith("save")
    for _ in range(3):  # 3 each, all scored
        s = shot(s, "left", "right")
        assert s.kicker == 1
        s = shot(s, "left", "right")
    assert not s.is_terminal() and s.kicks == ((True,) * 3, (True,) * 3)
    s = shot(s, "left", "left")  # seat 0 misses in sudden death
    assert not s.is_terminal()
    s = shot(s, "left", "middle")
    assert s.is_terminal() and s.winner == 1 and s.score == (0, 0)


def test_shootout_stops_when_one_side_cannot_catch_up() -> None:
    s = level_after_extra_time()
    s = shot(s, "left", "right")  # 1-0
    s = shot(s, "left", "left")  # 1-0
    s = shot(s, "left", "right")  # 2-0
    assert not s.is_terminal()
    s = shot(s, "left", "left")  # 2-0 after two each: seat 1's last kick can't catch up
    assert s.is_terminal() and s.winner == 0 and s.kicks == ((True, True), (False, False))


def test_without_extra_time_a_level_match_goes_to_penalties() -> None:
    s = pass_(pass_(kick_off(rounds=1, power_cards=False, extra_time=False), 2, 2), 2, 2)
    assert s.period_name == "shootout"


def test_how_a_match_was_decided_is_told_besides_its_score() -> None:
    """The result screen and the relay's result say "after extra time" and the shootout's
    score; the log's last line names the shootout, whose goals the score leaves out."""
    s = kick_off(rounds=1, power_cards=False)
    s = passes(s, [2, 3, 4, 5, 6, 7, 8])
    s = shot(s, "left", "right")  # a goal in regulation
    s = pass_(s, 2, 2)
    assert s.is_terminal() and s.result_details() == {}
    s = level_after_regulation()
    assert "3 kicks each, then sudden death" in " ".join(e.text for e in level_after_extra_time().events)
    s = passes(s, [2, 3, 4, 5, 6, 7, 8])
    s = shot(s, "left", "right")
    s = pass_(pass_(s, 2, 2), 2, 2)
    assert s.is_terminal() and s.result_details() == {"extra_time": True}
    assert s.events[-1].text == "Full time after extra time: seat 0 wins."
    s = level_after_extra_time()
    assert s.result_details() == {}  # not over yet
    s = shot(s, "left", "right")  # 1-0
    s = shot(s, "left", "left")  # 1-0
    s = shot(s, "left", "right")  # 2-0
    s = shot(s, "left", "left")  # 2-0: decided
    assert s.result_details() == {"extra_time": True, "shootout": [2, 0]}
    assert s.events[-1].text == "Full time: seat 0 wins the shootout 2-0."
    s = pass_(pass_(kick_off(rounds=1, power_cards=False, extra_time=False), 2, 2), 2, 2)
    for _ in range(3):
        s = shot(s, "left", "right")
        s = shot(s, "left", "right")
    s = shot(s, "left", "left")
    s = shot(s, "left", "right")  # sudden death: seat 1 wins 4-3
    assert s.is_terminal() and s.result_details() == {"shootout": [3, 4]}
    assert s.events[-1].text == "Full time: seat 1 wins the shootout 4-3."


# --- actions, views, data ------------------------------------------------------------------


def test_every_action_text_round_trips() -> None:
    for text in [
        "toss 1",
        "draw shoot",
        "pass 7",
        "pass 3+5+7",
        "mark 2+4+6",
        "shoot left",
        "save right",
        "play att-joker as shoot",
        "play tackle",
        "no card",
        "retire 4",
        "remove middle",
        "show paper",
        "swap corner",
        "keep hand",
    ]:
        assert str(GAME.parse_action(text)) == text
    assert (
        GAME.parse_action("no card") is NO_CARD and isinstance(GAME.parse_action("keep hand"), Keep) and Keep() == KEEP
    )
    for bad in ["pass 12", "pass 5+3", "play nothing", "shoot up", "toss 2", "", "retire x"]:
        with pytest.raises(IllegalAction):
            GAME.parse_action(bad)
    assert isinstance(GAME.parse_action("swap dribble"), Swap) and isinstance(GAME.parse_action("retire 3"), Retire)


def test_spectator_view_has_no_hand_and_no_choice() -> None:
    s = kick_off().apply(0, PassTo((4,)))
    spectator = s.view(None)["state"]
    assert spectator["hand"] == [] and spectator["my_choice"] is None and spectator["chosen"] == [True, False]
    assert spectator["cards"]["shoot"]["name"] == "SHOOT"


def test_bad_content_is_refused_with_a_clear_error() -> None:
    data = load_game_data("soccer-go")
    broken = {**data, "attacking": [{**data["attacking"][0], "blocks": ["no-such-card"]}, *data["attacking"][1:]]}
    with pytest.raises(SoccerGoDataError, match="no-such-card"):
        load_data(broken)
    with pytest.raises(SoccerGoDataError, match="pitch"):
        load_data({k: v for k, v in data.items() if k != "pitch"})


# --- the data file against the rulebook's card list ----------------------------------------

DATA = kick_off().rules.data
RULEBOOK_WINDOWS = {
    # Appendix, Card List: "playable on passes a-b" (Rulings, Soccer-Go 8).
    "att-pass-retake": (1, 7),
    "attacking-gk": (7, 7),
    "through-ball": (3, 6),
    "shoot": (4, 6),
    "counter-attack": (1, 3),
    "dribble": (1, 4),
    "corner": (2, 5),
    "def-pass-retake": (1, 7),
    "high-press": (2, 5),
    "clearance": (4, 7),
    "tackle": (3, 6),
    "deep-press": (3, 6),
}
RULEBOOK_BLOCKS = {
    # Appendix, Card List, the three BLOCKs of each pack ("Tight Defense" = TACKLE and
    # "Jokerr" = JOKER by Rulings, Soccer-Go 6; a Shot/Pass Re-Take named by a BLOCK is the
    # other pack's).
    "att-block-1": {"slow-build-up", "deep-press", "clearance"},
    "att-block-2": {"high-press", "tackle", "def-shot-retake"},
    "att-block-3": {"def-joker", "narrow-shot", "def-pass-retake"},
    "def-block-1": {"attacking-gk", "counter-attack", "corner"},
    "def-block-2": {"through-ball", "dribble", "att-shot-retake"},
    "def-block-3": {"att-joker", "shoot", "att-pass-retake"},
}


def test_card_list_matches_the_rulebook_appendix() -> None:
    """Appendix: 13 attacking and 13 defending Power Cards, one of each, with their windows and blocks."""
    cards = DATA.cards
    for side in (0, 1):
        assert sum(c.count for c in cards.values() if c.side == side) == 13
    assert all(c.count == 1 for c in cards.values())
    for card_id, window in RULEBOOK_WINDOWS.items():
        assert cards[card_id].passes == window, card_id
    for card_id, named in RULEBOOK_BLOCKS.items():
        assert cards[card_id].blocks == named, card_id
    assert DATA.through_ball_numbers == {3, 5, 7, 9} and DATA.high_press_numbers == {2, 4, 6, 8}
    assert DATA.players == tuple(range(1, 12)) and len(DATA.directions) == 3


@pytest.mark.parametrize(("block", "named"), [(b, n) for b, ns in sorted(RULEBOOK_BLOCKS.items()) for n in sorted(ns)])
def test_each_block_is_offered_against_each_card_it_names(block: str, named: str) -> None:
    """Rulings, Soccer-Go 6: BLOCK is played at once in answer to a card it names."""
    s = kick_off()  # seat 0 attacks: a named attacking card is seat 0's, a defending one seat 1's
    player = DATA.cards[named].side
    hands = tuple((block,) if seat == 1 - player else () for seat in (0, 1))
    s = arrange(s, phase=BLOCK_PHASE, named=(player, named, None, PASS_PHASE), hands=hands)
    assert s.legal_actions(1 - player) == [Play(block), NO_CARD]


def test_tackle_won_by_the_attacker_keeps_the_effects_in_force() -> None:
    """docs/rulings.md, TACKLE: after the attacker wins, the same pass is chosen with DRIBBLE still on."""
    s = kick_off(att0=("dribble", "att-bogey"), def1=("tackle", "def-bogey"))
    s = passes(s, [2, 3])
    s = play(s, 0, "dribble")
    s = play(s, 1, "tackle")
    kept = s.apply(0, Show("paper")).apply(1, Show("rock"))
    assert kept.phase_name == "pass" and kept.view(0)["state"]["modifiers"] == ["dribble"]
    assert pass_(kept, 4, 5).passes == 2 + 3


def test_a_card_played_after_a_face_down_choice_says_it_is_taken_back() -> None:
    """QA: the defender had marked, the attacker then played SHOOT, and the mark vanished with no
    line in the log. The taking back is said, publicly, without saying what the choice was."""
    s = kick_off(att0=("shoot", "att-bogey"))
    s = passes(s, [2, 3, 4])
    other = next(m for m in s.available() if m != 5)
    s = act(s, 1, f"mark {other}")
    s = act(s, 0, "play shoot")
    taken = [e for e in s.events if e.kind == "taken-back"]
    assert len(taken) == 1 and taken[0].audience is None and taken[0].data == {"seat": 1}
    assert str(other) not in taken[0].text.replace("Seat 1", "")  # which number stays hidden
    fresh = act(passes(kick_off(att0=("shoot", "att-bogey")), [2, 3, 4]), 0, "play shoot")
    assert "taken-back" not in kinds(fresh)  # nothing chosen yet, nothing taken back


def test_a_shootout_kick_is_logged_with_its_shot_and_dive() -> None:
    """QA pass 12: open play logs "Goal for …: shot right, dive left."; a shoot-out kick said only
    "scored" or "saved", so the shoot-out could not be read back from the log."""
    s = level_after_extra_time()
    s = shot(s, "left", "right")
    assert s.events[-1].kind == "kick" and s.events[-1].text == "Penalty by seat 0: shot left, dive right, scored."
    s = shot(s, "middle", "middle")
    assert s.events[-1].text == "Penalty by seat 1: shot middle, dive middle, saved."
    assert s.events[-1].data == {"seat": 1, "scored": False, "shot": "middle", "dive": "middle"}
