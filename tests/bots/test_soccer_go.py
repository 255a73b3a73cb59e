"""The Soccer-Go heuristic bot: card timing, answers, swaps, numbers, and that it beats random."""

from __future__ import annotations

import random

import pytest

from soccerdesk.bots import make_bot
from soccerdesk.bots.guessing import exploitability, solve
from soccerdesk.bots.levels import search_bot
from soccerdesk.bots.soccer_go import (
    OPPONENTS,
    GuessingPlayer,
    HeuristicBot,
    TurnPlanner,
    fresh_gains,
    guessing_matrix,
    open_counts,
    revealed_pick,
)
from soccerdesk.rules import CHANCE, sample_chance
from soccerdesk.rules.soccer_go import Mark, PassTo, Play, Retire, SoccerGoState
from tests.rules.test_soccer_go import GAME, act, arrange, kick_off, pass_, passes, shot

BOT = HeuristicBot("soccer-go")
DATA = kick_off().rules.data


def decide(state: SoccerGoState, seat: int, seed: int = 0) -> str:
    return str(BOT.decide(state, seat, random.Random(seed)))


def test_takes_the_pass_retake_after_a_late_mark_and_keeps_it_after_an_early_one() -> None:
    """Re-taking the 7th pass is worth more than holding the card; re-taking the 1st is not."""
    s = kick_off(att0=("att-pass-retake", "att-bogey"))
    assert decide(pass_(passes(s, [1, 2, 3, 4, 5, 6]), 7, 7), 0) == "play att-pass-retake"
    assert decide(pass_(s, 5, 5), 0) == "no card"


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


def test_planner_without_cards_is_the_chain_of_uniform_marks() -> None:
    """Seven passes against a uniform marker, the goalkeeper used first (open 11, 10 .. 5), then 2 in 3 shots score."""
    planner = TurnPlanner(DATA, 0, {}, ())
    start = open_counts(kick_off())
    survive = 1.0
    for open_numbers in range(11, 4, -1):
        survive *= 1 - 1 / open_numbers
    assert planner.attack(0, 7, start, False, 0, ()) == pytest.approx(survive * 2 / 3)


def test_counter_attack_then_shoot_is_planned_as_one_attack() -> None:
    """COUNTER ATTACK on pass 1 puts the attack at pass 4, where SHOOT is playable: a sure shot."""
    s = kick_off(att0=("counter-attack", "shoot"))
    s = arrange(s, turn=7)  # the last turn, seat 0 attacking: nothing is worth keeping
    assert decide(s, 0) == "play counter-attack"
    planner = TurnPlanner(DATA, 0, {}, ())
    combo = planner.attack(0, 7, open_counts(s), False, 0, ("counter-attack", "shoot"))
    assert combo == pytest.approx(2 / 3)


def test_keeping_a_card_is_worth_nothing_after_the_sides_last_turn() -> None:
    s = kick_off(att0=("corner", "shoot"), def0=("tackle", "deep-press"))
    assert all(v > 0 for v in BOT.keep_values(s, 0).values())
    last_defence = s._r(turn=6)  # seat 0 attacks turns 0, 2, 5 and 7 (half-time reverses the order)
    keep = BOT.keep_values(last_defence, 0)
    assert keep["tackle"] == keep["deep-press"] == 0.0 and keep["corner"] > 0


def test_answer_cards_are_worth_more_the_more_turns_they_can_wait() -> None:
    """A re-take is only played when its moment comes, so an unplayed one carries over."""
    one, four = fresh_gains(DATA, 1), fresh_gains(DATA, 4)
    assert four["att-shot-retake"] > 2 * one["att-shot-retake"]
    assert all(four[c] >= one[c] - 1e-12 for c in one)


# --- the guessing game of the search levels ----------------------------------------------


def test_a_marked_pass_is_worth_less_to_the_attacker_than_any_pass_made() -> None:
    s = passes(kick_off(att0=("att-bogey", "att-shot-retake")), [2, 3])
    rows, columns, values = guessing_matrix([s], 0, BOT, seed=1)
    assert [str(a) for a in rows] == [f"pass {n}" for n in s.available()]
    assert [str(a) for a in columns] == [f"mark {n}" for n in s.available()]
    for i, row in enumerate(values):
        made = [v for j, v in enumerate(row) if j != i]
        assert row[i] < min(made) - 0.1  # marked: the attack is over
        assert max(made) - min(made) < 1e-9  # where the mark fell does not matter once the pass is made


def test_the_search_levels_mix_their_shots_evenly_and_spread_their_passes() -> None:
    """A fixed best guess is easy to read: the mixes give a best answer almost nothing."""
    player = GuessingPlayer(BOT, worlds=2, slack=0.01)
    s = passes(kick_off(att0=("att-bogey", "att-shot-retake")), [2, 3, 4, 5, 6, 7, 8])
    assert s.phase_name == "shot"
    rows, mix = player.mix(s, 0, random.Random(1))
    assert mix == pytest.approx([1 / 3] * 3, abs=0.02)
    start = passes(kick_off(att0=("att-bogey", "att-shot-retake")), [2])
    picks = {str(player(start, 0, start.legal_actions(0), random.Random(seed))) for seed in range(30)}
    assert len(picks) >= 5
    _, mix = player.mix(start, 0, random.Random(2))
    assert player.last_mix is not None
    _, _, values = player.last_mix
    game = solve(values)
    assert exploitability(values, mix, game.value) <= 0.01 + 1e-6


def test_hard_plays_a_card_the_heuristic_would_play_before_its_face_down_pick() -> None:
    s = kick_off(att0=("shoot", "att-bogey"))
    s = passes(s, [1, 10, 11])
    assert str(make_bot("hard", "soccer-go").decide(s, 0, random.Random(1))) == "play shoot"


def test_expert_reads_the_opponents_pick_only_once_both_picks_are_shown() -> None:
    """The belief about the opponent uses rounds already shown, never a pick still face down."""
    player = GuessingPlayer(BOT, worlds=2, slack=0.03, depth=2)
    start = kick_off(att0=("att-bogey", "att-shot-retake"))
    laid = {n: start.apply(1, Mark((n,))) for n in (1, 5)}  # the defender has laid first
    mixes = {n: player.mix(s, 0, random.Random(3)) for n, s in laid.items()}
    assert mixes[1] == mixes[5]  # the mark face down changes nothing
    assert player.belief(laid[1], 0) == {"heuristic": 0.5, "level 1": 0.5}
    ply = laid[1].ply
    for n, s in laid.items():
        player.mix(s, 0, random.Random(3))
        _, columns, predicted = player._predictions[0][ply]
        shown = s.apply(0, PassTo((2,)))
        assert revealed_pick(shown.history(), ply, 1, laid=True) == Mark((n,))
        belief = player.belief(shown, 0)
        j = columns.index(Mark((n,)))
        likelier = max(OPPONENTS, key=lambda name: predicted[name][j])
        assert belief[likelier] > 0.5
        assert sum(belief.values()) == pytest.approx(1.0)


def test_a_pick_laid_second_is_found_after_the_seats_own_pick() -> None:
    s = kick_off()
    ply = s.ply
    shown = s.apply(0, PassTo((4,))).apply(1, Mark((7,)))
    assert revealed_pick(shown.history(), ply, 1, laid=False) == Mark((7,))
    assert revealed_pick(s.apply(0, PassTo((4,))).history(), ply, 1, laid=False) is None


def test_the_belief_never_reads_a_pick_taken_back_by_a_card() -> None:
    """docs/rulings.md: a card played instead of the second pick takes the first back unseen, so
    that round shows no pick of the opponent (neither the hidden one nor one of another round)."""
    s = pass_(kick_off(att0=("att-bogey", "dribble"), def1=("def-bogey", "def-block-1")), 2, 3)
    ours = s.ply  # we lay first; the defender plays a card instead of marking
    s = act(act(s, 0, "pass 4"), 1, "play def-bogey")
    answered = s.ply + 1  # the defender lays first; we play a card instead of passing
    s = act(act(s, 1, "mark 5"), 0, "play att-bogey")
    s = pass_(s, 6, 7)
    history = s.determinize(0, random.Random(1)).history()
    assert revealed_pick(history, ours, 1, laid=False) is None
    assert revealed_pick(history, answered, 1, laid=True) is None
    assert revealed_pick(history, s.ply - 2, 1, laid=False) == Mark((7,))


def _expert_belief_against(opponent: str, seed: int, picks: int) -> dict[str, float]:
    """What expert believes of ``opponent`` after ``picks`` of its own face-down picks in a match."""
    expert = search_bot("soccer-go", None, "expert", max_iterations=8)
    other = (
        search_bot("soccer-go", None, opponent, max_iterations=8)
        if opponent == "hard"
        else make_bot(opponent, "soccer-go")
    )
    mixer = expert.mixer
    assert isinstance(mixer, GuessingPlayer)
    state = GAME.new_match(seed=seed)
    rng = random.Random(seed)
    made = 0
    while made < picks and not state.is_terminal():
        seat = state.current_players()[0]
        if seat == CHANCE:
            state = state.apply(seat, sample_chance(state, rng))
            continue
        if seat == 0:
            before = mixer.last_mix
            action = expert.decide(state, 0, rng)
            made += mixer.last_mix is not before
        else:
            action = other.decide(state, 1, rng)
        state = state.apply(seat, action)
    return mixer.last_belief


@pytest.mark.parametrize("seed", [1, 2])
def test_expert_learns_whether_it_faces_the_heuristic_or_a_level_one_player(seed: int) -> None:
    assert _expert_belief_against("normal", seed, 20)["heuristic"] > 0.8
    assert _expert_belief_against("hard", seed, 20)["level 1"] > 0.8
