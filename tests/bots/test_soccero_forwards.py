"""The Soccero heuristic's forwards: three players stay up the field whoever has the ball, onside
in the extended rules, and do not run back to chase a ball far behind them."""

from __future__ import annotations

from dataclasses import replace

from soccerdesk.bots import soccero
from soccerdesk.rules.soccero.state import SocceroState
from tests.bots.test_soccero_planner import B, play_out, position


def rows_up(s: SocceroState, sq: int) -> int:
    """Rows from seat 0's goal line (row 1)."""
    return soccero._progress(s, 0, sq)


def theirs_on(s: SocceroState, holder: int) -> SocceroState:
    """``s`` with seat 1's player ``holder`` on the ball where he stands (seat 0 still to move)."""
    out = replace(s, holder=holder, ball=s.pos[holder], red=-1)
    out._set_meta(s.info, None, ())
    return out


def test_forwards_stand_a_long_kick_ahead_of_the_ball_while_their_side_has_it() -> None:
    s = position(3)  # seat 0's player 5 holds the ball on K16; the forwards stand behind it
    ball_row = rows_up(s, s.ball)
    for p in soccero.FORWARDS:
        target = rows_up(s, soccero._role_target(s, 0, p))
        assert ball_row + 8 <= target <= soccero.FORWARD_TOP, p
    midfield = rows_up(s, soccero._role_target(s, 0, 4))
    assert midfield < min(rows_up(s, soccero._role_target(s, 0, p)) for p in soccero.FORWARDS)


def test_forwards_stay_in_the_opponents_half_while_the_other_side_attacks() -> None:
    s = theirs_on(position(3, p21="K8"), 21)  # their player on our penalty area's edge
    assert rows_up(s, s.ball) == 7
    for p in soccero.FORWARDS:
        target = soccero._role_target(s, 0, p)
        assert rows_up(s, target) >= soccero.FORWARD_HOLD
        assert B.half_of(target) != s.defends(0)
    back = soccero._role_target(s, 0, 2)
    assert rows_up(s, back) < rows_up(s, s.ball)  # the back line still drops behind the ball


def test_a_forward_target_is_never_offside_in_the_extended_rules() -> None:
    """RULINGS Soccero 6: seat 1's defence waits on row 20, so the onside line is row 20."""
    deep = {f"p{p}": f"{col}20" for p, col in zip(range(12, 22), "BDFHJLNPRT", strict=True)}
    s = position(3, extended=True, **deep)
    for p in soccero.FORWARDS:
        target = soccero._role_target(s, 0, p)
        assert rows_up(s, target) == 19  # level with the defence: as far up as onside allows
        assert not soccero._offside(s, 0, target, s.ball)
    basic = position(3, **deep)
    assert all(rows_up(basic, soccero._role_target(basic, 0, p)) > 19 for p in soccero.FORWARDS)


def test_a_forward_the_ball_is_well_behind_does_not_chase_it() -> None:
    ahead = theirs_on(position(3, p21="K10", p9="L14"), 21)  # four rows ahead of the ball
    level = theirs_on(position(3, p21="K10", p9="L13"), 21)  # three rows ahead
    assert 9 not in soccero._StepJudge(ahead, 0)._chasing_players()
    assert 9 in soccero._StepJudge(level, 0)._chasing_players()


def test_forwards_keep_their_place_up_the_field_on_a_defending_turn() -> None:
    s = theirs_on(position(6, p21="K10", p8="K22", p9="F22", p10="P22"), 21)
    after = play_out(s)
    assert after.points == 0 or after.phase != "moving"
    moved = [p for p in range(1, 11) if after.pos[p] != s.pos[p]]
    assert moved  # the die was used
    for p in soccero.FORWARDS:
        assert rows_up(after, after.pos[p]) >= rows_up(s, s.pos[p]), p


def test_a_forward_far_short_of_his_place_runs_up_before_the_press() -> None:
    """One die moves the whole team (rulebook "Moving Players"): a forward who only creeps up with
    the points the press leaves over is never there when the ball is won back."""
    s = theirs_on(position(6, p21="L6", p8="K14", p9="D14", p10="R14"), 21)  # the forwards in our half
    after = play_out(s)
    gained = sum(rows_up(after, after.pos[p]) - rows_up(s, s.pos[p]) for p in soccero.FORWARDS)
    assert gained >= 4
