"""The Soccero heuristic at set pieces (extended rules): the wall at a direct free kick, the free
moves of both sides, and the header at the end of a set-piece kick.

Positions come from :func:`tests.rules.test_soccero.position`: seat 0 defends row 1 and attacks
row 32; player ids 0..10 seat 0 (0 = goalkeeper), 11..21 seat 1 (11 = goalkeeper); players not
named wait on the S (seat 0) and U (seat 1) columns.
"""

from __future__ import annotations

import random
from typing import Any

from soccerdesk.bots import Bot, make_bot, soccero
from soccerdesk.rules.soccero import set_pieces
from soccerdesk.rules.soccero.state import SocceroState, team_of
from tests.rules.test_soccero import B, act, edit, meta, position, sq

BOT = make_bot("heuristic", "soccero")

DEFENDERS = {11: "K31", 12: "H29", 13: "K29", 14: "N29", 15: "F27", 16: "P27", 17: "J23", 18: "M23", 19: "K18"}
"""Seat 1 (defending row 32) set up around its penalty area; its two other forwards wait on the U column."""

ATTACKERS = {0: "K2", 1: "E16", 2: "K15", 3: "Q16", 4: "D21", 5: "H22", 6: "N22", 7: "R21", 8: "K24", 9: "F24"}


def set_piece(kind: str, spot: str, taker: int, direct: bool = False, **players: str) -> SocceroState:
    """Seat 0's set piece of ``kind`` on ``spot``, ``taker`` placed: the first decision after that
    (the wall at a free kick, else seat 0's first free move)."""
    named = {**DEFENDERS, **ATTACKERS, taker: spot}
    named.update({int(p[1:]): square for p, square in players.items()})
    s = position(named, ball="A20", phase="roll", extended=True)
    end = s.attacks(0)
    s = meta(s, set_pieces.start(s, kind, 0, -1 if kind == "corner" else sq(spot), direct, [], corner_end=end))
    if s.phase == "sp-spot":
        s = act(s, f"pick {spot}")
    return act(s, f"pick {spot}")


def play_preparation(s: SocceroState, bot: Bot = BOT) -> tuple[SocceroState, list[Any]]:
    """``bot`` plays both sides until the kick is due; the log of the preparation."""
    events: list[Any] = []
    while s.phase in ("wall", "wall-clear", "free"):
        seat = s.current_players()[0]
        after = s.apply(seat, bot.decide(s, seat, random.Random(3)))
        assert isinstance(after, SocceroState)
        s = after
        events.extend(s.events)
    return s, events


def wall_of(events: list[Any]) -> list[tuple[int, int]]:
    """(player, square) of each wall player the log names."""
    return [(e.data["player"], sq(e.data["to"])) for e in events if e.kind == "wall"]


def test_a_direct_free_kick_just_outside_the_box_gets_a_wall_between_ball_and_goal() -> None:
    """Rulebook "Free Kicks": the defending manager may place up to three players as a wall
    before the free moves. From two rows outside the penalty area the shot is a real chance,
    so the defenders use it: field players, on wall squares (2 or 3 from the ball) nearer the
    goal than the ball and on the ball's routes into the goal, and the shot's chance drops."""
    s = set_piece("free-kick", "K26", 8, direct=True)
    assert s.phase == "wall" and s.current_players() == (1,)
    before = soccero.shot_chance(s, 0, sq("K26"))
    assert before >= soccero.WALL_CHANCE
    after, events = play_preparation(s)
    wall = wall_of(events)
    assert len(wall) >= 2
    lanes = soccero._shot_lanes(s, 0, sq("K26"))
    for p, square in wall:
        assert team_of(p) == 1 and p != 11  # a field player, not the keeper
        assert 2 <= B.distance(square, sq("K26")) <= 3
        assert B.ys[square] > B.ys[sq("K26")] and lanes >> square & 1  # between the ball and the goal
    # The wall takes most of the chance off (the free moves that follow may add to it).
    assert soccero.shot_chance(after, 0, sq("K26")) < before / 2


def test_no_wall_at_an_indirect_free_kick() -> None:
    """Rulebook "Free Kicks": no shot at goal from an indirect free kick, so no wall either."""
    s = set_piece("free-kick", "K26", 8, direct=False)
    _, events = play_preparation(s)
    assert not wall_of(events)
    assert [e.text for e in events if e.kind == "wall-done"] == ["Seat 1 builds no wall."]


def test_no_wall_at_a_direct_free_kick_far_from_goal() -> None:
    """From the halfway line the shot has no chance: the defenders keep their players."""
    s = set_piece("free-kick", "K17", 8, direct=True)
    assert soccero.shot_chance(s, 0, sq("K17")) < soccero.WALL_CHANCE
    _, events = play_preparation(s)
    assert not wall_of(events)


def test_at_a_corner_the_attackers_free_moves_bring_players_into_the_box() -> None:
    """Rulebook "Corner Kick" and "Headers": a ball that comes to a player in the air on the exact
    number may be headed at goal, so the side taking the corner moves players to where the kick
    lands, into the penalty area, and the other side answers by marking them. (The defenders
    stand on the edge of their area; with three of them in it already, the attackers' first
    choice is an unmarked man on the goal line beside it, and a defender goes there too.)"""
    s = set_piece("corner", "A32", 4, p12="G27", p13="K28", p14="O27")
    assert s.phase == "free" and s.current_players() == (0,)
    area = B.penalty_area[s.attacks(0)]
    assert not any(s.pos[p] in area for p in range(1, 11))
    after, events = play_preparation(s)
    moved = {e.data["player"]: sq(e.data["to"]) for e in events if e.kind == "free-move"}
    ours = [square for p, square in moved.items() if p < 11]
    assert any(square in area for square in ours)
    # The defenders' free moves come near the attackers in the box: a straight line of at most
    # two squares, so a steal is likely if the ball goes there.
    theirs = [square for p, square in moved.items() if p >= 11]
    assert theirs and all(soccero._nearest_in_line(after, 1, square) <= 2 for square in ours if square in area)


def test_a_side_whose_free_moves_would_not_help_says_done() -> None:
    """Rulebook "Free moves": each manager *may* move two players. At a penalty the kick is a shot
    that no free move changes, so neither side makes one ("makes no free moves")."""
    players = {**DEFENDERS, **ATTACKERS, 8: "K20"}
    s = position(players, ball="A20", phase="roll", extended=True)
    s = meta(s, set_pieces.start(s, "penalty", 0, sq("K29"), False, []))
    s = act(s, "pick K20")
    assert s.phase == "free"
    after, events = play_preparation(s)
    assert after.phase == "sp-kick"
    assert not [e for e in events if e.kind == "free-move" and e.data["player"] not in set_pieces.misplaced(s, 1)]
    said = [e.text for e in events if e.kind == "free-moves-done"]
    assert "Seat 0 makes no free moves." in said


def test_a_free_move_is_declined_when_its_gain_is_below_the_bar() -> None:
    """The judge's best move is made only when it is worth ``FREE_MOVE_GAIN``: with the bar
    raised out of reach the same position gets ``done``."""
    s = set_piece("corner", "A32", 4)
    legal = s.legal_actions(0)
    assert str(soccero._free_move(s, 0, legal)).startswith("pick ")
    saved = soccero.FREE_MOVE_GAIN
    try:
        soccero.FREE_MOVE_GAIN = 1e9
        assert str(soccero._free_move(s, 0, legal)) == "done"
    finally:
        soccero.FREE_MOVE_GAIN = saved


def test_the_same_decisions_from_the_same_position() -> None:
    """Deterministic: a second bot deciding the same set piece with the same seed does the same."""
    s = set_piece("free-kick", "K26", 8, direct=True)
    first, _ = play_preparation(s)
    second, _ = play_preparation(s, make_bot("heuristic", "soccero"))
    assert second.pos == first.pos


def test_a_header_is_taken_only_when_the_die_can_carry_it_into_the_goal() -> None:
    """Rulebook "Headers": one die, a straight line. Two squares out in front of the goal the header
    scores on most rolls; from midfield it cannot score and would give the ball away."""
    near = position({6: "K30", 11: "K32"}, holder=6, phase="header", extended=True, path=(6,))
    assert str(BOT.decide(near, 0, random.Random(1))) == "header"
    far = position({6: "K16", 11: "K32"}, holder=6, phase="header", extended=True, path=(6,))
    assert str(BOT.decide(far, 0, random.Random(1))) == "no-header"


def test_the_set_piece_taker_is_not_counted_on_to_reach_the_ball_again() -> None:
    """Rulebook "Fouls and Sanctions": the taker may not touch the ball again before another player
    has, so a ball played into space beside him is not his side's."""
    s = set_piece("corner", "A32", 4)
    assert soccero._nearest_in_line(s, 0, sq("B31")) == 7
    after = edit(s, setpiece=(), banned=4, phase="turn", holder=-1, ball=sq("B31"))
    assert soccero._nearest_in_line(after, 0, sq("B31")) == 7
    free = edit(after, banned=-1)
    assert soccero._nearest_in_line(free, 0, sq("B31")) == 1
