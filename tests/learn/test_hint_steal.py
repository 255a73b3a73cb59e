"""Help audit, finding 1.1: the hint said a Pawn Soccer steal "wins the ball" whatever it led to.
A diagonal steal in the stealer's own penalty area gives a penalty away with no swap (Rulings,
Pawn Soccer 7-8), and a second diagonal steal is a red card that leaves the ball loose (Rulebook,
Red card): the hint now says what the steal leads to, read from the position after it."""

from __future__ import annotations

from soccerdesk.learn import hint
from soccerdesk.rules import get_game

PAWN = get_game("pawn-soccer")


def _pawn(text: str):  # noqa: ANN202 - a Pawn Soccer action
    return PAWN.parse_action(text)


def test_a_diagonal_steal_in_your_own_penalty_area_gives_a_penalty_away() -> None:
    state = PAWN.position(["D2", "D1"], ["C3", "D11"], "C3", 0, substitute=(False, False))
    does, costs = hint.reading(state, 0, _pawn("steal D2-C3"))
    after = state.apply(0, _pawn("steal D2-C3"))
    assert after.view(0)["state"]["phase"] == "penalty"  # the engine's outcome the words describe
    assert does == (
        "it does not win the ball: a diagonal steal inside your own penalty area is a foul, so the pawns do not"
        " swap and your opponent shoots a penalty from D3"
    )
    assert costs == "a diagonal steal costs a yellow card (a second one is a red)"


def test_the_hint_that_suggests_such_a_foul_says_it_gives_a_penalty_away() -> None:
    """The audit's position: Orange carries the ball on D1, Blue's only steal is the foul."""
    state = PAWN.position(["C2", "A5"], ["D1", "D11"], "D1", 0, substitute=(False, False))
    found = hint.suggest(state, 0, seed=1)
    assert found.action == "steal C2-D1"
    assert found.why.startswith("It does not win the ball: a diagonal steal inside your own penalty area is a foul")
    assert "wins the ball" not in found.why


def test_a_second_diagonal_steal_leaves_the_ball_loose() -> None:
    state = PAWN.position(["C4", "B2"], ["D5", "E6", "D11"], "D5", 0, yellow=["C4"], substitute=(False, False))
    after = state.apply(0, _pawn("steal C4-D5"))
    view = after.view(0)["state"]
    assert view["ball"] == "D5" and view["ball_loose"]
    assert hint.reading(state, 0, _pawn("steal C4-D5")) == (
        "it does not win the ball: the ball stays loose on D5, and the pawn it was taken from may not pick it up"
        " next turn",
        "a second diagonal steal is a red card: the pawn is sent off",
    )


def test_a_red_card_foul_with_no_pawn_left_to_keep_goal_concedes_the_penalty() -> None:
    state = PAWN.position(["B4"], ["C3", "D11"], "C3", 0, yellow=["B4"], substitute=(False, False))
    assert state.apply(0, _pawn("steal B4-C3")).score == (0, 1)
    does, _ = hint.reading(state, 0, _pawn("steal B4-C3"))
    assert does.endswith("shoots a penalty from D3, which goes in: no pawn of yours can take the goalkeeper's place")


def test_a_red_card_that_forfeits_the_match_says_so() -> None:
    state = PAWN.position(
        ["C4", "B2"], ["D5", "E6", "D11"], "D5", 0, yellow=["C4"], substitute=(False, False), reds=(3, 0)
    )
    assert state.apply(0, _pawn("steal C4-D5")).winner == 1
    assert hint.reading(state, 0, _pawn("steal C4-D5")) == (
        "it loses the match: it is a red card, and a side with 4 pawns sent off forfeits",
        "",
    )


def test_a_clean_steal_still_wins_the_ball() -> None:
    state = PAWN.position(["D4", "C2"], ["D5", "E9"], "D5", 0)
    assert hint.reading(state, 0, _pawn("steal D4-D5")) == ("it wins the ball", "")
