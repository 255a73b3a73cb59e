"""The Soccero heuristic's move planner: die points the carrier does not need go to a runner
who gives the next turn a pass up the field."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from soccerdesk.bots import make_bot, soccero
from soccerdesk.rules import get_game
from soccerdesk.rules.soccero.state import SocceroState

GAME = get_game("soccero")
B = GAME.board  # type: ignore[attr-defined]

SHAPE = {
    # Seat 0 defends row 1 and has the ball on K16; nobody of its side is up the field.
    0: "K2", 1: "C8", 2: "G8", 3: "O8", 4: "S8", 5: "K16", 6: "F14", 7: "P14", 8: "D11", 9: "R11", 10: "K12",
    # Seat 1 waits deep in its own half.
    11: "K31", 12: "C28", 13: "G28", 14: "O28", 15: "S28", 16: "E26", 17: "J28", 18: "N26", 19: "Q24", 20: "H24",
    21: "L24",
}  # fmt: skip


def position(points: int, *, red: int = -1, extended: bool = False, **moves: str) -> SocceroState:
    """SHAPE (with players moved as ``moves`` says, ``p6="F20"``), seat 0 to move ``points``."""
    start = GAME.new_match(seed=0, extended=extended)
    squares = {**SHAPE, **{int(k[1:]): v for k, v in moves.items()}}
    pos = tuple(B.square(squares[p]) for p in range(22))
    s = replace(
        start,
        pos=pos,
        ball=pos[5],
        holder=5,
        red=red,
        low_team=0,
        kickoff_team=0,
        phase="moving",
        team=0,
        decider=0,
        points=points,
    )
    s._set_meta(start.info, None, ())
    return s


def play_out(s: SocceroState) -> SocceroState:
    """Seat 0's bot spends all the points, one step after another."""
    bot = make_bot("heuristic", "soccero")
    while s.phase == "moving":
        s = s.apply(0, bot.decide(s, 0, random.Random(1)))
    return s


def pass_options(s: SocceroState) -> list[int]:
    """Seat 0's field players up the field (at least two rows past the ball) whom a kick from the
    ball reaches along an open route."""
    taken = s.taken_bits()
    return [
        q
        for q in range(1, 11)
        if q != s.holder and B.ys[s.pos[q]] >= B.ys[s.ball] + 2 and soccero._route(B, taken, s.ball, s.pos[q])
    ]


def test_a_team_mate_runs_up_to_be_passed_to_when_the_carrier_may_not_carry() -> None:
    """The holder carried last turn (red side up): the die goes to a runner, not a shuffle."""
    for points in (4, 5, 6):
        s = position(points, red=5)
        assert pass_options(s) == []
        after = play_out(s)
        assert pass_options(after), points
        assert after.pos[5] == s.pos[5]  # the holder stays on the ball


def test_a_carry_into_space_uses_all_the_points() -> None:
    """With open field ahead, a row of carrying is worth more than a runner's pass option."""
    s = position(6)
    after = play_out(s)
    assert after.holder == 5 and B.ys[after.ball] == B.ys[s.ball] + 6


def test_a_team_mate_round_a_corner_makes_the_kick_worth_more() -> None:
    """The kick's value counts the curve faces' passes with a turn, not only straight lines."""
    alone = position(3, red=5, p6="A1")
    s = position(3, red=5, p6="M22")  # six rows up, two columns over: only a curve gets there
    assert soccero._route(B, s.taken_bits(), s.ball, B.square("M22")) == soccero.BENT
    with_mate = soccero._kick_values(s, 0, False)[(False, 2)]
    without = soccero._kick_values(alone, 0, False)[(False, 2)]
    assert with_mate > without + 5


def test_a_pass_counts_the_chance_the_dice_and_the_kick_die_reach_the_team_mate() -> None:
    s = position(3)
    taken = s.taken_bits()
    ball = B.square("K16")
    assert soccero._reach_chance(B, taken, ball, B.square("K20")) == 33 / 36  # two dice make 4 or more
    assert soccero._reach_chance(B, taken, ball, B.square("M20")) == pytest.approx(4 / 6 * 33 / 36)  # a turn
    assert soccero._reach_chance(B, taken, ball, B.square("K23")) == pytest.approx(21 / 36)  # 7 or more
    blocked = position(3, p21="K21").taken_bits()
    assert soccero._route(B, blocked, ball, B.square("K23")) == 0  # a straight line only, and K21 is in the way
    assert soccero._reach_chance(B, blocked, ball, B.square("K23")) == 0.0


def test_no_runner_is_set_up_offside_in_the_extended_rules() -> None:
    """RULINGS Soccero 6: a team-mate past the ball and the second-last defender is no option."""
    deep = {
        f"p{p}": sq
        for p, sq in zip(
            range(12, 22), ("C27", "G27", "O27", "S27", "E27", "J27", "N27", "Q27", "H27", "L27"), strict=True
        )
    }
    s = position(3, extended=True, **deep)
    ball = s.ball
    assert not soccero._offside(s, 0, B.square("K20"), ball)  # level with nobody, but in front of the defence
    assert soccero._offside(s, 0, B.square("K29"), ball)  # past the second-last defender (on row 27)
    assert not soccero._offside(s, 0, B.square("K27"), ball)  # level with him
    assert not soccero._offside(s, 0, B.square("K14"), ball)  # behind the ball

    def held_at(sq: int) -> float:
        return soccero._held_value(s, 0, sq)

    here = held_at(ball)
    taken = s.taken_bits()
    assert soccero._pass_gain(s, 0, ball, taken, B.square("K28"), here, held_at) == 0.0
    assert soccero._pass_gain(s, 0, ball, taken, B.square("K22"), here, held_at) > 0.0


def test_the_kicker_may_run_onto_his_own_kick() -> None:
    """A ball played into open space two squares ahead of a lone carrier is his to run onto
    next turn (rulebook "Carrying the Ball": any player crossing the ball's square picks it up)."""
    alone = {f"p{p}": sq for p, sq in zip(range(6, 11), ("A1", "C1", "E1", "G1", "I1"), strict=True)}
    s = position(3, red=5, **alone)
    ahead = B.square("K18")
    assert soccero._landing_value(s, 0, "", [B.square("K17"), ahead], s.ball) > 0.5 * soccero._attack_value(s, 0, ahead)


def test_a_loose_ball_off_every_straight_line_of_the_team_is_not_theirs_to_run_onto() -> None:
    """Rulebook "Moving Players": players move in straight lines, so a ball a knight's move from
    the lone carrier (two squares by king moves) is out of his reach next turn."""
    alone = {f"p{p}": sq for p, sq in zip(range(6, 11), ("A1", "C1", "E1", "G1", "I1"), strict=True)}
    s = position(3, red=5, **alone)
    off_line = B.square("L18")
    assert B.distance(s.ball, off_line) == 2
    assert soccero._landing_value(s, 0, "", [B.square("K17"), off_line], s.ball) <= 0.0
