"""Pawn Soccer rules, one test per rule, each on a small position.

"Rulebook" is ``shared/rules/pawn-soccer.txt``; "Ruling n" is the Pawn Soccer section of
``shared/rules/RULINGS.md``. Blue (seat 0) defends rows 1-5 and attacks up the board,
Orange (seat 1) defends rows 7-11.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

import pytest

from soccerdesk.resources import load_game_data
from soccerdesk.rules import CHANCE, IllegalAction, State, decided_words, get_game
from soccerdesk.rules.pawn_soccer import PawnDataError, PawnSoccer, PawnState, make_game

_game = get_game("pawn-soccer")
assert isinstance(_game, PawnSoccer)
GAME: PawnSoccer = _game
BLUE, ORANGE = 0, 1


def pos(blue: list[str], orange: list[str], ball: str | None, side: int = BLUE, **kw: Any) -> PawnState:
    """A position with both substitutes already used (so no after-turn window), unless given."""
    kw.setdefault("substitute", (False, False))
    return GAME.position(blue, orange, ball, side, **kw)


def legal(state: State, seat: int) -> set[str]:
    return {str(a) for a in state.legal_actions(seat)}


def play(state: State, seat: int, *texts: str) -> PawnState:
    return play_in(GAME, state, seat, *texts)


def play_in(game: PawnSoccer, state: State, seat: int, *texts: str) -> PawnState:
    """Apply the actions ``texts`` of ``seat`` in turn."""
    for text in texts:
        state = state.apply(seat, game.parse_action(text))
    assert isinstance(state, PawnState)
    return state


def sq(name: str) -> int:
    return GAME.board.index[name]


def pawn_at(state: PawnState, name: str) -> int | None:
    """The seat whose pawn stands on ``name``, or None."""
    cell = state.cells[sq(name)]
    return (cell & 3) - 1 if cell else None


def yellow_at(state: PawnState, name: str) -> bool:
    return bool(state.cells[sq(name)] & 4)


# --- set-up ------------------------------------------------------------------------


def test_setup_is_one_pawn_at_a_time_alternating_sides() -> None:
    """Rulebook, Setup: each team places 6 pawns; here one at a time, Blue first."""
    s = GAME.new_match(seed=1)
    assert s.current_players() == (BLUE,)
    s = play(s, BLUE, "place D1")
    assert s.current_players() == (ORANGE,)
    s = play(s, ORANGE, "place D11")
    assert s.current_players() == (BLUE,)
    assert s.view(None)["state"]["to_place"] == [{"clean": 5, "yellow": 0}, {"clean": 5, "yellow": 0}]


def test_setup_only_in_own_half_and_never_on_special_spaces() -> None:
    """Rulebook, Setup: own half, not sprint zones or long-pass spaces; the centre row is off-limits."""
    s = GAME.new_match(seed=1)
    blue = legal(s, BLUE)
    assert "place D5" in blue and "place A1" in blue  # an X square is allowed
    for forbidden in ("place D6", "place D7", "place A3", "place G5", "place B4", "place F4"):
        assert forbidden not in blue
    assert len(blue) == 5 * 7 - 6 - 2
    with pytest.raises(IllegalAction, match="sprint zones or long-pass"):
        play(s, BLUE, "place A4")
    with pytest.raises(IllegalAction, match="own half"):
        play(s, BLUE, "place D6")


def test_setup_allows_one_goalkeeper_in_the_goal_kick_area() -> None:
    """Rulebook, Setup: only 1 pawn in the goal-kick area, as goalkeeper."""
    s = play(GAME.new_match(seed=1), BLUE, "place D1")
    s = play(s, ORANGE, "place D11")
    assert not {"place C1", "place E1"} & legal(s, BLUE)
    assert "place C2" in legal(s, BLUE)


def test_coin_toss_is_chance_and_the_winner_kicks_off_from_the_centre_with_a_pass() -> None:
    """Rulebook, Setup: the toss winner puts the ball on a pawn and starts from the centre with a pass."""
    s = GAME.new_match(seed=1, quick_setup=True)
    assert s.current_players() == (CHANCE,)
    assert sorted((str(a), p) for a, p in s.chance_outcomes()) == [("toss blue", 0.5), ("toss orange", 0.5)]
    s = s.apply(CHANCE, GAME.parse_action("toss orange"))
    assert s.current_players() == (ORANGE,)
    assert "kickoff C9" in legal(s, ORANGE)
    s = play(s, ORANGE, "kickoff C9")
    assert pawn_at(s, "C9") is None and pawn_at(s, "D6") == ORANGE and s.ball == sq("D6")
    verbs = {a.split()[0] for a in legal(s, ORANGE)}
    assert verbs == {"pass", "kick", "sub"}  # no move, steal or shot at goal from the kick-off
    assert "pass D6-D7" in legal(s, ORANGE) and "kick D6-D8" in legal(s, ORANGE)
    with pytest.raises(IllegalAction, match="kick-off must be a pass"):
        play(s, ORANGE, "move D7-D8")


def test_quick_setup_places_a_legal_default_formation() -> None:
    """Issue 4, item 2: the quick-setup option places both formations at once."""
    s = GAME.new_match(seed=1, quick_setup=True)
    assert isinstance(s, PawnState)
    assert len(s.team_squares(BLUE)) == len(s.team_squares(ORANGE)) == 6
    assert s.keeper_square(BLUE) == sq("D1") and s.keeper_square(ORANGE) == sq("D11")
    for seat in (BLUE, ORANGE):
        assert all(GAME.board.may_set_up(seat, square) for square in s.team_squares(seat))


# --- move and sprint ---------------------------------------------------------------


def test_move_one_square_in_any_direction_carrying_the_ball() -> None:
    """Rulebook, Moving: one pawn, one space, any direction; Ruling 2: the ball goes with it."""
    s = pos(["C4", "E2"], ["D11"], "C4")
    moves = {a for a in legal(s, BLUE) if a.startswith("move C4-")}
    assert moves == {f"move C4-{t}" for t in ("B3", "C3", "D3", "B5", "C5", "D5", "B4", "D4")}
    s = play(s, BLUE, "move C4-D5")
    assert s.ball == sq("D5") and pawn_at(s, "D5") == BLUE
    assert s.current_players() == (ORANGE,)


def test_moving_onto_a_loose_ball_takes_it() -> None:
    """Ruling 2: moving onto a loose ball takes it."""
    s = pos(["C4"], ["D11"], "C5")
    assert s.holder() == -1
    s = play(s, BLUE, "move C4-C5")
    assert s.holder() == BLUE


def test_sprint_goes_straight_forward_up_to_three_inside_the_zone() -> None:
    """Rulebook, Moving / Ruling 3: from a sprint square, forward 1-3 squares staying inside the zone."""
    s = pos(["A3", "A7", "A9"], ["G9", "D11"], None)
    blue = legal(s, BLUE)
    assert "move A3-A5" in blue and "move A7-A9" not in blue  # A9 is taken
    assert "move A9-A7" not in blue  # never backwards
    assert not any(a.startswith("move A3-A6") for a in blue)  # the zone ends at A5
    orange = legal(pos(["D1"], ["G9", "D11"], None, ORANGE), ORANGE)
    assert "move G9-G7" in orange  # Orange's forward is down the board
    s = play(s, BLUE, "move A3-A5")
    assert pawn_at(s, "A5") == BLUE and s.events[0].kind == "sprint"


def test_sprint_needs_empty_squares_and_entering_a_zone_is_an_ordinary_move() -> None:
    """Ruling 3: all squares empty; entering the zone is an ordinary move."""
    blocked = pos(["A3"], ["A4", "D11"], None)
    assert "move A3-A5" not in legal(blocked, BLUE)
    s = pos(["B2"], ["D11"], None)
    assert "move B2-A3" in legal(s, BLUE) and "move B2-A5" not in legal(s, BLUE)
    with pytest.raises(IllegalAction, match="sprint"):
        play(s, BLUE, "move B2-B4")


def test_sprint_on_entry_variant_runs_on_from_the_landing_square() -> None:
    """Variant ``sprint_on_entry``: the move that lands in a zone may continue forward inside it."""
    s = pos(["B2"], ["D11"], None, options={"sprint_on_entry": True})
    assert {"move B2-A4", "move B2-A5"} <= legal(s, BLUE)
    blocked = pos(["B2"], ["A4", "D11"], None, options={"sprint_on_entry": True})
    assert "move B2-A5" not in legal(blocked, BLUE)
    assert "move B2-A4" not in legal(pos(["B2"], ["D11"], None), BLUE)


def test_sprint_on_entry_takes_the_open_way_when_two_landing_squares_lead_to_the_same_end() -> None:
    """From B3, A5 is reached by landing on A3 and running A4-A5, or by landing on A4 (a
    diagonal step) and running to A5: a pawn on A3 closes only the first way. Both sides alike
    (found by an independent audit: Blue kept only the longer way)."""
    options = {"sprint_on_entry": True}
    for on_a3 in (["A3"], []):
        assert "move B3-A5" in legal(pos(["B3", "D1"], ["D11", *on_a3], "D11", options=options), BLUE)
    # Orange's mirror: from B9 over A8 to A7, with A9 taken.
    assert "move B9-A7" in legal(pos(["D1", "A9"], ["B9", "D11"], "D1", ORANGE, options=options), ORANGE)
    assert "move B3-A5" not in legal(pos(["B3", "D1"], ["D11", "A4"], "D11", options=options), BLUE)


# --- passes ------------------------------------------------------------------------


def test_pass_reaches_a_team_mate_within_two_squares_over_other_pawns() -> None:
    """Rulebook, Pass / Ruling 4: receiver within 2 (king distance); passes fly over pawns."""
    s = pos(["C4", "E6", "C7"], ["D5", "D11"], "C4")
    assert "pass C4-E6" in legal(s, BLUE)
    assert "pass C4-C7" not in legal(s, BLUE)
    with pytest.raises(IllegalAction, match="at most 2 squares"):
        play(s, BLUE, "pass C4-C7")


def test_chain_pass_hops_until_stop_and_each_pawn_receives_once() -> None:
    """Rulebook, Chain pass / Ruling 6: several hops of at most 2, each pawn receives once."""
    s = pos(["C4", "C6", "C8", "E6"], ["G11", "D11"], "C4")
    s = play(s, BLUE, "pass C4-C6")
    assert s.current_players() == (BLUE,)
    assert legal(s, BLUE) == {"pass C6-C8", "pass C6-E6", "pass C6-C4", "stop"}
    s = play(s, BLUE, "pass C6-C8")
    assert "pass C8-C6" not in legal(s, BLUE)  # C6 has received already
    assert "pass C8-E6" in legal(s, BLUE)
    s = play(s, BLUE, "pass C8-E6")
    # From E6 every team-mate in reach has received (C4 is 2 away and has not): one more hop or stop.
    assert legal(s, BLUE) == {"pass E6-C4", "stop"}
    s = play(s, BLUE, "stop")
    assert s.current_players() == (ORANGE,) and s.ball == sq("E6")


def test_a_pass_without_a_further_receiver_ends_the_turn() -> None:
    """Ruling 6: a chain needs a team-mate in reach; otherwise the pass is the whole turn."""
    s = play(pos(["C4", "C6"], ["D11"], "C4"), BLUE, "pass C4-C6")
    assert legal(s, BLUE) == {"pass C6-C4", "stop"}
    s = play(pos(["C4", "C6"], ["D11"], "C4"), BLUE, "pass C4-C6", "pass C6-C4")
    assert s.current_players() == (ORANGE,)


def test_long_pass_reaches_its_half_and_the_centre_row() -> None:
    """Rulebook, Long pass / Ruling 5: from a long-pass space to a team-mate or empty square of that half or the centre row."""
    s = pos(["B4", "F1"], ["D7", "D11"], "B4")
    blue = legal(s, BLUE)
    assert {"long B4-F1", "long B4-G6", "long B4-E3"} <= blue
    assert "long B4-D8" not in blue and "long B4-D7" not in blue
    s = play(s, BLUE, "long B4-G6")
    assert s.holder() == -1 and s.ball == sq("G6")
    assert s.current_players() == (ORANGE,)  # never part of a chain


def test_long_pass_variant_reaches_the_opposite_half() -> None:
    """Ruling 5 variant ``long_pass=opposite_half``."""
    s = pos(["B4", "F1"], ["D7", "D11"], "B4", options={"long_pass": "opposite_half"})
    blue = legal(s, BLUE)
    assert {"long B4-D8", "long B4-G6"} <= blue and "long B4-F1" not in blue
    assert not any(a.startswith("long") for a in legal(pos(["C4"], ["D11"], "C4"), BLUE))


# --- kicks -------------------------------------------------------------------------


def test_kick_to_an_empty_square_within_two_leaves_the_ball_loose() -> None:
    """Rulebook, Kick: to any empty space within 2."""
    s = pos(["C4", "C5"], ["D11"], "C4")
    blue = legal(s, BLUE)
    assert "kick C4-C6" in blue and "kick C4-C5" not in blue and "kick C4-C7" not in blue
    s = play(s, BLUE, "kick C4-C6")
    assert s.ball == sq("C6") and s.holder() == -1


def test_kick_at_goal_needs_the_squares_between_empty() -> None:
    """Rulebook, Kick / Ruling 4: the spaces between must be empty, goalkeeper included."""
    s = pos(["D10"], ["D11"], "D10")
    assert not {"kick D10-C12", "kick D10-D12", "kick D10-E12"} & legal(s, BLUE)
    s = pos(["D10"], ["C11"], "D10")
    assert {"kick D10-D12", "kick D10-E12"} <= legal(s, BLUE)
    assert "kick D10-C12" not in legal(s, BLUE)  # this kick runs past C11 and D11
    s = play(s, BLUE, "kick D10-E12")
    assert s.goals == (1, 0)


def test_no_goal_can_be_scored_from_an_x_square() -> None:
    """Rulebook, Blocked spaces: X squares cannot be used to score."""
    s = pos(["A10"], ["D4"], "A10")
    assert not any(a.endswith("12") for a in legal(s, BLUE))
    s = pos(["B11"], ["D4"], "B11")
    assert not any(a.endswith("12") for a in legal(s, BLUE))
    with pytest.raises(IllegalAction, match="X square"):
        play(s, BLUE, "kick B11-C12")
    assert "kick B10-C12" in legal(pos(["B10"], ["D4"], "B10"), BLUE)


def test_moving_the_ball_into_the_goal_scores_and_the_board_is_reset() -> None:
    """Rulebook, Scoring: moving the ball into the goal; after a goal both sides set up again
    and the side that conceded kicks off."""
    s = pos(["D11", "C4"], ["E9", "F8"], "D11", yellow=["C4"])
    s = play(s, BLUE, "move D11-D12")
    assert s.goals == (1, 0)
    assert s.phase == 0 and s.current_players() == (BLUE,)  # set-up, the scorer places first
    assert s.kicker == ORANGE
    assert s.view(None)["state"]["to_place"] == [{"clean": 1, "yellow": 1}, {"clean": 2, "yellow": 0}]
    assert "place C3 yellow" in legal(s, BLUE)
    assert [e.kind for e in s.events][-2:] == ["goal", "restart"]
    assert "Orange will kick off" in s.events[-1].text


# --- steals and cards --------------------------------------------------------------


def test_orthogonal_steal_swaps_the_pawns_and_the_victim_cannot_steal_back() -> None:
    """Rulebook, Steal / Ruling 7: swap places, the stealer takes the ball; no steal back next turn."""
    s = pos(["D4"], ["D5", "E4", "D11"], "D5")
    s = play(s, BLUE, "steal D4-D5")
    assert pawn_at(s, "D5") == BLUE and pawn_at(s, "D4") == ORANGE and s.holder() == BLUE
    assert not yellow_at(s, "D5")
    orange = legal(s, ORANGE)
    assert "steal D4-D5" not in orange and "steal E4-D5" in orange
    with pytest.raises(IllegalAction, match="cannot steal it back"):
        play(s, ORANGE, "steal D4-D5")
    s = play(
        s,
        ORANGE,
        "move D11-C11",
    )
    s = play(s, BLUE, "move D5-D6")
    assert "steal D4-D5" not in legal(s, ORANGE)  # the bar lasted one turn; D5 is simply empty now
    assert s.barred == -1


def test_diagonal_steal_gives_a_yellow_card() -> None:
    """Rulebook, Diagonal steal: allowed, with a yellow card on the stealer."""
    s = play(pos(["C4"], ["D5", "D11"], "D5"), BLUE, "steal C4-D5")
    assert pawn_at(s, "D5") == BLUE and yellow_at(s, "D5") and s.holder() == BLUE
    # The log tells the steal first, then the card it drew.
    assert [e.kind for e in s.events] == ["steal", "yellow_card"]


def test_second_diagonal_steal_is_a_red_card_and_leaves_the_ball_loose() -> None:
    """Rulebook, Red card / Ruling 7: the pawn is sent off, the ball stays where it was;
    the victim may not take it next turn."""
    s = play(pos(["C4", "B2"], ["D5", "E6", "D11"], "D5", yellow=["C4"]), BLUE, "steal C4-D5")
    assert s.reds == (1, 0)
    assert pawn_at(s, "D5") is None and s.ball == sq("D5") and s.holder() == -1
    assert pawn_at(s, "C4") == ORANGE
    orange = legal(s, ORANGE)
    assert "move C4-D5" not in orange and "move E6-D5" in orange
    assert len(s.team_squares(BLUE)) == 1
    # The log tells the steal, the red card, then where the ball lies and who may not take it.
    assert [e.kind for e in s.events] == ["steal", "red_card", "loose_ball"]
    assert "loose on D5" in s.events[2].text and "C4 may not take it" in s.events[2].text


def test_diagonal_steal_in_own_penalty_area_is_a_penalty() -> None:
    """Rulebook, Diagonal steal / Ruling 7-8: inside the stealer's own penalty area it is a penalty."""
    s = play(pos(["D2", "D1"], ["C3", "D11"], "C3"), BLUE, "steal D2-C3")
    assert yellow_at(s, "D2")
    assert pawn_at(s, "D3") == ORANGE and s.ball == sq("D3")  # the fouled pawn takes it from the spot
    assert s.current_players() == (0, 1)
    assert legal(s, BLUE) == legal(s, ORANGE) == {"penalty 1", "penalty 2", "penalty 3"}


def test_the_pawn_on_the_penalty_spot_makes_room_for_the_kicker() -> None:
    """Ruling 8 (our reading): a pawn on the spot moves to the fouled pawn's square."""
    s = play(pos(["D2", "D1", "D3"], ["C3", "D11"], "C3"), BLUE, "steal D2-C3")
    assert pawn_at(s, "D3") == ORANGE and pawn_at(s, "C3") == BLUE
    s = play(pos(["D2", "D3"], ["C1", "D11"], "C1"), BLUE, "steal D2-C1")
    assert pawn_at(s, "D3") == ORANGE and s.keeper_square(BLUE) == sq("C1")  # it becomes the goalkeeper
    assert s.current_players() == (0, 1)


def test_penalty_is_a_secret_simultaneous_choice() -> None:
    """Rulebook, Penalty kick / Ruling 8: different numbers score, equal numbers are a save."""
    s = play(pos(["D2", "D1"], ["C3", "D11"], "C3"), BLUE, "steal D2-C3")
    s = play(s, BLUE, "penalty 2")
    assert s.current_players() == (ORANGE,)
    assert s.view(ORANGE)["state"]["penalty"] == {"taker": ORANGE, "chosen": [True, False], "mine": None}
    assert s.view(BLUE)["state"]["penalty"]["mine"] == 2
    assert "2" not in str(s.view(None)["state"]["penalty"])
    guesses = {s.determinize(ORANGE, random.Random(k)).view(BLUE)["state"]["penalty"]["mine"] for k in range(30)}
    assert guesses == {1, 2, 3}
    scored = play(s, ORANGE, "penalty 3")
    assert scored.goals == (0, 1) and scored.kicker == BLUE
    # The log names the goal squares the players clicked (Blue's goal C0-E0), not 1-3.
    assert any(e.text == "Penalty: Orange shoots at E0, Blue guards D0: goal!" for e in scored.events), scored.events
    saved = play(s, ORANGE, "penalty 2")
    assert saved.goals == (0, 0)
    assert any(e.text == "Penalty: both chose D0: saved, the goalkeeper has the ball." for e in saved.events)
    assert saved.ball == sq("D1") and saved.current_players() == (BLUE,)


def test_a_penalty_needs_a_goalkeeper_in_the_goal_kick_area() -> None:
    """Rulebook, Penalty kick note: with no goalkeeper another pawn must take its place first."""
    s = play(pos(["D2", "B3"], ["C3", "D11"], "C3", yellow=["D2"]), BLUE, "steal D2-C3")
    assert s.reds == (1, 0) and pawn_at(s, "D2") is None
    assert legal(s, BLUE) == {"keeper B3-C1", "keeper B3-D1", "keeper B3-E1"}
    s = play(s, BLUE, "keeper B3-C1")
    assert s.keeper_square(BLUE) == sq("C1") and s.current_players() == (0, 1)
    assert s.events[0].text == "Blue moves the pawn on B3 to C1 as goalkeeper."


@pytest.fixture
def small_area_game() -> Iterator[PawnSoccer]:
    """A board whose penalty areas do not surround the goal-kick areas (to reach the red-card replacement)."""
    data = copy.deepcopy(load_game_data("pawn-soccer"))
    data["ends"][0]["penalty_area"] = ["C3:E3"]
    data["ends"][1]["penalty_area"] = ["C9:E9"]
    game = make_game(data)
    yield game
    PawnState.game = GAME  # make_game binds its state class to the new game


def test_a_goalkeeper_sent_off_may_be_replaced_before_the_next_turn(small_area_game: PawnSoccer) -> None:
    """Rulebook, Red card: if the goalkeeper is expelled, any pawn may move to the goal position."""
    game = small_area_game
    s = game.position(["C1", "E4"], ["B2", "D11"], "B2", yellow=["C1"], substitute=(False, False))
    s = play_in(game, s, BLUE, "steal C1-B2")
    assert s.reds == (1, 0) and s.current_players() == (BLUE,)
    options = {str(a) for a in s.legal_actions(BLUE)}
    assert options == {"keeper E4-D1", "keeper E4-E1", "keeper none"}  # C1 holds the Orange pawn now
    s = play_in(game, s, BLUE, "keeper E4-D1")
    assert s.current_players() == (ORANGE,) and s.keeper_square(BLUE) == game.board.index["D1"]


def test_four_red_cards_forfeit_the_match() -> None:
    """Rulebook, Forfeit match: a team with 4 pawns expelled loses."""
    s = pos(["C4", "B2"], ["D5", "D11"], "D5", yellow=["C4"], reds=(3, 0), goals=(2, 0))
    s = play(s, BLUE, "steal C4-D5")
    assert s.is_terminal() and s.winner == ORANGE and s.score == (2, 0)
    assert s.view(None)["state"]["forfeit"] == ORANGE
    # The result says why the side behind on goals won.
    assert s.result_details() == {"forfeit": True} and decided_words(s.result_details()) == "by forfeit"


# --- substitution -------------------------------------------------------------------


def test_substitution_before_the_turn_is_free_and_brings_a_fresh_pawn() -> None:
    """Rulebook, Substitutions / Ruling 1: free action; the sub takes the replaced pawn's square."""
    s = pos(["C4", "D1"], ["D11"], "C4", yellow=["C4"], substitute=(True, True))
    assert "sub C4" in legal(s, BLUE)
    s = play(s, BLUE, "sub C4")
    assert s.current_players() == (BLUE,)  # the turn is still to be played
    assert not yellow_at(s, "C4") and s.holder() == BLUE and s.substitute == (False, True)
    assert not any(a.startswith("sub") for a in legal(s, BLUE))


def test_substitution_after_the_turn_and_only_once_a_match() -> None:
    """Ruling 1: before or after the turn, one per team per match."""
    s = pos(["C4", "D1"], ["D11"], "C4", substitute=(True, True))
    s = play(s, BLUE, "move C4-C5")
    assert s.current_players() == (BLUE,) and legal(s, BLUE) == {"sub C5", "sub D1", "end"}
    after_end = play(s, BLUE, "end")
    assert after_end.current_players() == (ORANGE,)
    s = play(s, BLUE, "sub D1")
    assert s.current_players() == (ORANGE,)
    s = play(s, ORANGE, "sub D11", "move D11-C11")
    assert s.current_players() == (BLUE,)  # no after-turn window: Orange's substitute is used


def test_a_saved_penalty_is_the_takers_turn_and_its_substitute_may_follow() -> None:
    """Rulebook, Substitutions: "before or after their turn"; the penalty is the taker's turn,
    so after a save the taker may still bring its substitute on before the keeper's side plays."""
    s = pos(["D2", "D1"], ["C3", "D11"], "C3", substitute=(True, True))
    s = play(s, BLUE, "steal D2-C3")
    assert s.current_players() == (0, 1)  # a penalty offers no substitution
    s = play(play(s, BLUE, "penalty 2"), ORANGE, "penalty 2")
    assert s.goals == (0, 0) and s.ball == sq("D1")
    assert s.current_players() == (ORANGE,) and legal(s, ORANGE) == {"sub D3", "sub D11", "end"}
    s = play(s, ORANGE, "end")
    assert s.current_players() == (BLUE,) and s.holder() == BLUE


def test_the_substitute_cannot_replace_a_sent_off_pawn_or_fill_its_place() -> None:
    """Rulebook, Substitutions: pawns with red cards cannot be substituted and the substitute
    cannot fill an expelled pawn's empty space: only pawns still on the board can be replaced."""
    s = pos(["C4", "B2"], ["D5", "E6", "D11"], "D5", yellow=["C4"], substitute=(True, True))
    s = play(s, BLUE, "steal C4-D5")
    assert s.reds == (1, 0) and pawn_at(s, "D5") is None
    assert legal(s, BLUE) == {"sub B2", "end"}  # the after-turn window: D5 is empty, C4 is Orange's
    with pytest.raises(IllegalAction):
        play(s, BLUE, "sub D5")
    s = play(s, BLUE, "end")
    assert len(s.team_squares(BLUE)) == 1


# --- goal-kick area -----------------------------------------------------------------


def test_goal_kick_area_holds_one_pawn_of_its_side() -> None:
    """Rulebook, Setup: only 1 pawn in the goal-kick area at any moment; opponents may enter."""
    s = pos(["D1", "C2"], ["E2", "D11"], None)
    assert "move C2-C1" not in legal(s, BLUE) and "move D1-C1" in legal(s, BLUE)
    s = pos(["D1", "C2"], ["E2", "D11"], None, ORANGE)
    assert "move E2-E1" in legal(s, ORANGE)


def test_a_steal_that_would_put_a_second_pawn_in_a_goal_kick_area_is_refused() -> None:
    """docs/rulings.md, Goal-kick area (default rules): the swap may not give the victim's side a
    second pawn in its own area, so the steal is refused rather than the victim moved elsewhere."""
    for keeper in ("D11", "E11"):
        s = pos(["C11", "A5"], [keeper, "C10"], "C10")
        assert "steal C11-C10" not in legal(s, BLUE)
        assert "goal-kick area" in s.explain_illegal(BLUE, GAME.parse_action("steal C11-C10"))
    s = pos(["C11", "A5"], ["C10"], "C10")  # no Orange keeper: the swap is allowed
    assert "steal C11-C10" in legal(s, BLUE)


def test_closed_goal_area_variant_keeps_opponents_out() -> None:
    """Variant ``closed_goal_area``: only the side's own goalkeeper may stand in its goal-kick area."""
    s = pos(["D1"], ["E2", "D3", "D11"], "D3", ORANGE, options={"closed_goal_area": True})
    assert "move E2-E1" not in legal(s, ORANGE)
    s = pos(["D1"], ["D2", "D11"], "D1", ORANGE, options={"closed_goal_area": True})
    assert "steal D2-D1" not in legal(s, ORANGE)  # the swap would put Orange in Blue's area


# --- match length ------------------------------------------------------------------


def test_first_to_the_goal_target_wins() -> None:
    """Rulebook, Goal limit (default: first to 3)."""
    s = play(pos(["D10"], ["C11"], "D10", goals=(2, 1)), BLUE, "kick D10-D12")
    assert s.is_terminal() and s.winner == BLUE and s.score == (3, 1)


def test_golden_goal_ends_at_the_first_goal() -> None:
    """Rulebook, Golden goal option."""
    s = play(pos(["D10"], ["C11"], "D10", options={"length": "golden_goal"}), BLUE, "kick D10-D12")
    assert s.is_terminal() and s.winner == BLUE


def test_turn_limit_higher_score_wins_and_level_is_a_draw() -> None:
    """Issue 4: at the turn limit the higher score wins, level is a draw."""
    last = 2 * 100 - 1
    ahead = play(pos(["C4"], ["D11"], None, turns=last, goals=(1, 0)), BLUE, "move C4-C5")
    assert ahead.is_terminal() and ahead.winner == BLUE
    level = play(pos(["C4"], ["D11"], None, turns=last, goals=(1, 1)), BLUE, "move C4-C5")
    assert level.is_terminal() and level.winner is None
    assert level.events[-1].text == "Full time: the turn limit is reached (100 turns a side), 1-1."
    # The result says why it ended short of the goals that win (a golden goal's draw surprises).
    assert level.result_details() == ahead.result_details() == {"turn_limit": 100}
    golden = play(pos(["C4"], ["D11"], None, turns=last, options={"length": "golden_goal"}), BLUE, "move C4-C5")
    assert golden.winner is None and decided_words(golden.result_details()) == "at the turn limit (100 turns a side)"
    won = play(pos(["D10"], ["C11"], "D10", options={"length": "golden_goal"}), BLUE, "kick D10-D12")
    assert won.result_details() == {}
    short = play(
        pos(["C4"], ["D11"], None, options={"turn_limit": 1}),
        BLUE,
        "move C4-C5",
    )
    assert not short.is_terminal()
    assert play(short, ORANGE, "move D11-D10").is_terminal()


def test_after_a_goal_with_quick_setup_the_conceding_side_kicks_off() -> None:
    """Rulebook, Scoring: formations restart and the side that did not score starts from the centre."""
    s = play(pos(["D10"], ["C11"], "D10", options={"quick_setup": True}), BLUE, "kick D10-D12")
    assert s.goals == (1, 0) and s.current_players() == (ORANGE,)
    assert s.view(None)["state"]["phase"] == "kickoff"
    assert len(s.team_squares(BLUE)) == 1 and len(s.team_squares(ORANGE)) == 1


def test_a_side_that_cannot_act_waits() -> None:
    """Every decision has an action: a boxed-in side plays ``wait`` and the turn passes."""
    s = pos(["A1"], ["A2", "B1", "B2", "D11"], "D11")
    assert legal(s, BLUE) == {"wait"}
    assert play(s, BLUE, "wait").current_players() == (ORANGE,)


def test_a_side_that_cannot_act_may_wait_and_keep_its_substitute() -> None:
    """The substitution is free, never forced: a boxed-in side with its substitute on the
    bench may bring it on or wait (found by an independent audit: only ``sub A1`` was offered)."""
    s = pos(["A1"], ["A2", "B1", "B2", "D11"], "D11", substitute=(True, True))
    assert legal(s, BLUE) == {"sub A1", "wait"}
    waited = play(s, BLUE, "wait")
    assert waited.substitute == (True, True)
    assert legal(play(s, BLUE, "sub A1"), BLUE) == {"wait"}


def test_a_penalty_given_on_the_last_turn_is_still_taken() -> None:
    """Our ruling: a foul in the last turn of the match still gives its penalty, taken as one
    more turn of the fouled side; the match ends after it."""
    last = pos(["D2", "D1"], ["C3", "D11"], "C3", options={"turn_limit": 5}, turns=2 * 5 - 1)
    assert play(last, BLUE, "move D2-E2").is_terminal()
    fouled = play(last, BLUE, "steal D2-C3")
    assert not fouled.is_terminal() and fouled.current_players() == (BLUE, ORANGE)
    scored = play(play(fouled, BLUE, "penalty 1"), ORANGE, "penalty 2")
    assert scored.is_terminal() and scored.goals == (0, 1) and scored.winner == ORANGE


# --- actions, views, data -----------------------------------------------------------


def test_apply_plays_the_games_own_action_when_given_an_equal_tuple() -> None:
    """A plain tuple equal to a legal action (a named tuple) is played as that action (found by
    an independent audit: it passed the check, then failed inside the rules)."""
    s = pos(["C4", "D1"], ["D11"], "C4")
    move = next(a for a in s.legal_actions(BLUE) if str(a) == "move D1-C1")
    after = s.apply(BLUE, tuple(move))
    assert type(after.history()[-1][1]) is type(move) and pawn_at(after, "C1") == BLUE


def test_action_texts_round_trip() -> None:
    for text in (
        "move C4-C5",
        "pass A1-B3",
        "long B4-G6",
        "kick D10-D12",
        "steal C4-D5",
        "keeper B3-C1",
        "keeper none",
        "place C3",
        "place C3 yellow",
        "sub C4",
        "kickoff D5",
        "toss blue",
        "penalty 3",
        "stop",
        "end",
        "wait",
    ):
        assert str(GAME.parse_action(text)) == text
    for bad in ("move C4", "move Z4-C5", "place C3 red", "penalty 4", "toss green", "", "move  C4-C5", "fly C4-C5"):
        with pytest.raises(IllegalAction):
            GAME.parse_action(bad)


def test_illegal_actions_are_explained() -> None:
    s = pos(["C4", "D1"], ["D5", "D11"], "D5")
    with pytest.raises(IllegalAction, match="does not have the ball"):
        play(s, BLUE, "pass C4-D1")
    with pytest.raises(IllegalAction, match="holds none of your pawns"):
        play(s, BLUE, "move D5-D6")
    with pytest.raises(IllegalAction, match="must play your turn|set-up|not place"):
        play(s, BLUE, "place C3")
    with pytest.raises(IllegalAction, match="does not decide now"):
        play(s, ORANGE, "move D5-D6")
    chain = play(pos(["C4", "C6", "C8"], ["D11"], "C4"), BLUE, "pass C4-C6")
    with pytest.raises(IllegalAction, match="pass again in the chain or stop"):
        play(chain, BLUE, "move C8-C9")
    with pytest.raises(IllegalAction, match="steal"):
        play(pos(["C4"], ["E5", "D11"], "E5"), BLUE, "steal C4-E5")


def test_view_shows_the_board_and_pawns() -> None:
    s = pos(["C4", "D1"], ["D5", "D11"], "D5", yellow=["C4"])
    view = s.view(BLUE)["state"]
    assert view["phase"] == "turn" and view["side_to_move"] == BLUE
    assert view["ball"] == "D5" and view["ball_loose"] is False
    assert {"square": "C4", "team": 0, "yellow": True, "ball": False, "keeper": False, "barred": False} in view["pawns"]
    assert {"square": "D1", "team": 0, "yellow": False, "ball": False, "keeper": True, "barred": False} in view["pawns"]
    assert view["board"]["ends"][0]["goal"] == ["C0", "D0", "E0"]
    assert view["board"]["ends"][1]["sprint_zones"] == [["A7", "A8", "A9"], ["G7", "G8", "G9"]]
    assert view["yellows"] == [1, 0]


def _rect(corner_a: str, corner_b: str) -> list[str]:
    cols = "ABCDEFG"
    c0, c1 = sorted((cols.index(corner_a[0]), cols.index(corner_b[0])))
    r0, r1 = sorted((int(corner_a[1:]), int(corner_b[1:])))
    return [cols[c] + str(r) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)]


def test_the_board_is_the_one_rulings_reconstructs() -> None:
    """RULINGS.md, Pawn Soccer board table, every entry: 7 x 11, goals, goal-kick areas,
    penalty areas and spots, X squares, sprint zones, long-pass spaces, halves, kick-off D6."""
    board = GAME.board.to_json()
    assert board["columns"] == "ABCDEFG" and board["rows"] == 11
    assert board["centre_row"] == 6 and board["kickoff"] == "D6"
    blue, orange = board["ends"]
    table = {
        "half": ([1, 5], [7, 11]),
        "goal": (["C0", "D0", "E0"], ["C12", "D12", "E12"]),
        "goal_kick_area": (["C1", "D1", "E1"], ["C11", "D11", "E11"]),
        "penalty_area": (_rect("B1", "F3"), _rect("B9", "F11")),
        "penalty_spot": ("D3", "D9"),
        "blocked": (["A1", "B1", "F1", "G1", "A2", "G2"], ["A11", "B11", "F11", "G11", "A10", "G10"]),
        "sprint_zones": ([["A3", "A4", "A5"], ["G3", "G4", "G5"]], [["A7", "A8", "A9"], ["G7", "G8", "G9"]]),
        "long_pass_spaces": (["B4", "F4"], ["B8", "F8"]),
    }
    for key, (blue_value, orange_value) in table.items():
        for end, expected in ((blue, blue_value), (orange, orange_value)):
            if isinstance(expected, list) and expected and isinstance(expected[0], str):
                assert sorted(end[key]) == sorted(expected), key
            else:
                assert end[key] == expected, key
    # "Sprint squares A3/G3/A9/G9 are not part of the penalty area."
    areas = set(blue["penalty_area"]) | set(orange["penalty_area"])
    assert not areas & {"A3", "G3", "A9", "G9"}
    numbers = GAME.board.numbers
    assert (numbers.pawns_on_board, numbers.substitutes, numbers.pass_range, numbers.kick_range) == (6, 1, 2, 2)
    assert (numbers.sprint_length, numbers.penalty_choices, numbers.reds_to_forfeit) == (3, 3, 4)
    assert (numbers.goals_to_win, numbers.turn_limit) == (3, 100)  # issue 4's default match length


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["board"].pop("rows"), "board.rows"),
        (lambda d: d["ends"][0].update(formation=["A3", "D1", "C3", "E3", "D5", "C5"]), "formation"),
        (lambda d: d["ends"][1].update(goal=["C5"]), "goal must lie"),
        (lambda d: d["ends"][0].update(penalty_spot="Q3"), "not a square"),
        (lambda d: d["rules"].update(pass_range=0), "at least 1"),
        (lambda d: d.pop("ends"), "two"),
    ],
)
def test_bad_data_is_refused_with_a_clear_error(change: Any, message: str) -> None:
    data = copy.deepcopy(load_game_data("pawn-soccer"))
    change(data)
    with pytest.raises(PawnDataError, match=message):
        make_game(data)
    assert PawnState.game is GAME
