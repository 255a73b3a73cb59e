"""Soccero set pieces (extended rules) as QA pass 14 played them: who makes room for the taker
and where he goes, and what the log says when a side ends its free moves or its wall.

Positions come from :func:`tests.rules.test_soccero.position`: seat 0 defends row 1; player
ids 0..10 seat 0 (0 = goalkeeper), 11..21 seat 1 (11 = goalkeeper).
"""

from __future__ import annotations

import random

import pytest

from soccerdesk.rules import CHANCE, sample_chance
from soccerdesk.rules.soccero import set_pieces
from soccerdesk.rules.soccero.state import SocceroState
from tests.rules.test_soccero import GAME, B, act, edit, meta, position, roll, sq, texts


def _steal_foul(victim_square: str, stealer_from: str, points: int) -> SocceroState:
    """Seat 0's player 5 steals from seat 1's player 15 on ``victim_square``; seat 1 then rolls a 6
    (RULINGS Soccero 9): a direct free kick for seat 1 where the steal was, both players on it."""
    s = position({15: victim_square, 5: stealer_from}, holder=15, phase="moving", points=points, extended=True)
    s = roll(act(s, f"move {stealer_from}-{victim_square}"), "roll 6")
    assert s.phase == "sp-taker" and s.setpiece[:3] == ("free-kick", 1, sq(victim_square))
    assert s.pos[5] == s.pos[15] == sq(victim_square)
    return s


def _where_he_may_stand(s: SocceroState, p: int) -> bool:
    return set_pieces.permitted(s, p, s.pos[p], s.occupancy())


def test_an_opponent_on_the_free_kick_square_makes_room_off_the_squares_next_to_it() -> None:
    """Rulebook "Free Kicks": "no player from the opposing team is allowed on the free kick
    square or on its adjacent squares". QA pass 14, finding 2: the stealer went to the nearest
    free square (J12, next to the ball), without a log line, and his side spent a free move
    taking him off it."""
    s = act(_steal_foul("K13", "K10", 3), "pick K13")  # the fouled player takes the kick
    assert s.pos[15] == sq("K13") and s.phase == "wall"
    assert B.distance(s.pos[5], sq("K13")) == 2 and _where_he_may_stand(s, 5)
    assert s.pos[5] == sq("I11")  # the nearest such square, the first in board order
    room = [e for e in s.events if e.kind == "make-room"]
    assert [e.text for e in room] == ["Player 6 of seat 0 makes room: K13-I11."]
    assert room[0].data == {"player": 5, "from": "K13", "to": "I11"}
    s = act(s, "done")  # no wall
    assert s.phase == "free" and s.view(None)["state"]["setpiece"]["free_moves_left"] == [2, 2]
    s = act(s, "done")  # seat 1 makes no free moves; seat 0 has nobody to put right
    assert "done" in texts(s) and s.view(None)["state"]["setpiece"]["must_move"] == []


def test_a_free_kick_from_the_own_penalty_area_sends_the_opponent_out_of_it() -> None:
    """Rulebook "Free Kicks Awarded from ... Penalty Area": no opponent inside that penalty area
    (QA pass 14, steps B: the stealer was put on a square next to the ball, in the area)."""
    s = act(_steal_foul("K29", "K26", 3), "pick K29")
    assert B.penalty_area_of[s.pos[5]] < 0 and B.distance(s.pos[5], sq("K29")) > 1
    assert _where_he_may_stand(s, 5) and s.pos[5] == sq("I27")


def test_a_player_on_the_penalty_keepers_square_makes_room_out_of_the_area() -> None:
    """Rulebook "Penalty Kicks": the keeper goes to the middle of his goal line; nobody else may
    be in the penalty area or the arc, or as near the byline as the spot. The one standing on
    the keeper's square went to the square nearest the spot, inside the area."""
    s = position({3: "K1", 0: "A1", 16: "E30", 11: "A32"}, ball="A30", phase="roll", team=1, extended=True)
    s = meta(s, set_pieces.start(s, "penalty", 1, sq("K4"), False, []))
    s = act(s, "pick E30")
    assert s.pos[0] == sq("K1") and s.pos[16] == sq("K4")
    assert _where_he_may_stand(s, 3) and 3 not in set_pieces.misplaced(s, 0)
    assert any(e.kind == "make-room" and e.data["player"] == 3 for e in s.events)


@pytest.mark.parametrize("seed", [1, 6, 12, 22])
def test_whoever_makes_room_for_a_taker_stands_where_the_set_piece_lets_him(seed: int) -> None:
    """Random extended matches (these seeds reach a corner, penalties and a throw-in where a
    player stood on the taker's square): every player the placing of the taker moved may stand
    where he was put, and the log says each move."""
    rng = random.Random(seed)
    s = GAME.new_match(seed=seed, extended=True, quick_setup=True, turns=30)
    made_room = 0
    while not s.is_terminal():
        seat = s.current_players()[0]
        before = s
        s = s.apply(seat, sample_chance(s, rng) if seat == CHANCE else rng.choice(s.legal_actions(seat)))
        if any(e.kind == "taker" for e in s.events):
            moved = {p for p in range(22) if s.pos[p] != before.pos[p]} - set(set_pieces.fixed_players(s))
            for p in moved:
                made_room += 1
                assert _where_he_may_stand(s, p), (p, B.names[s.pos[p]], s.setpiece)
            said = {e.data["player"] for e in s.events if e.kind == "make-room"}
            assert said == moved, [e.text for e in s.events]
    assert made_room


def test_the_log_says_when_a_side_makes_no_free_moves_or_is_done_with_them() -> None:
    """Rulebook "Free moves": each manager *may* move two players. QA pass 14, finding 3: after
    'done' the other side's count fell to 0 with nothing in the log."""
    s = position({5: "B10", 15: "E12"}, holder=5, extended=True)
    s = act(roll(act(s, "kick 1"), "kick-roll direct 4"), "path B10 W2 out")
    s = act(s, "pick E12")  # seat 1's throw-in: seat 1 moves first
    s = act(s, "done")
    assert [(e.kind, e.text) for e in s.events] == [("free-moves-done", "Seat 1 makes no free moves.")]
    s = act(act(s, "pick S4"), "to R4")
    s = act(s, "done")
    assert [e.text for e in s.events] == ["Seat 0 is done with its free moves."]
    assert s.events[0].data == {"seat": 0, "used": 1} and s.phase == "throw-roll"


def test_the_log_says_how_big_a_wall_is_or_that_there_is_none() -> None:
    """Rulebook "Free Kicks": the defending manager *may* place up to three players as a wall."""
    s = position({5: "K20", 16: "M26", 17: "N26", 18: "O26"}, ball="A30", phase="roll", team=1, extended=True)
    s = act(meta(s, set_pieces.start(s, "free-kick", 0, sq("K20"), True, [])), "pick K20")
    assert s.phase == "wall"
    assert [e.text for e in act(s, "done").events] == ["Seat 1 builds no wall."]
    one = act(act(act(s, "pick M26"), "to K23"), "done")
    assert [e.text for e in one.events] == ["Seat 1 builds a wall of 1 player."]
    full = act(act(act(act(s, "pick M26"), "to K23"), "pick N26"), "to L23")
    full = act(act(full, "pick O26"), "to J23")  # the third wall player ends the wall
    assert [e.text for e in full.events] == [
        "Player 8 of seat 1 joins the wall: O26-J23.",
        "Seat 1 builds a wall of 3 players.",
    ]
    assert full.phase == "free"


def test_a_defender_in_the_wall_is_not_placed_again_so_three_placings_are_three_players() -> None:
    """Third Soccero audit, finding 1: a wall player could be picked again and moved, using a
    second of the three places, and the log then told of a wall of 3 with 2 players in it."""
    s = position({5: "K20", 16: "M26", 17: "N26", 18: "O26"}, ball="A30", phase="roll", team=1, extended=True)
    s = act(meta(s, set_pieces.start(s, "free-kick", 0, sq("K20"), True, [])), "pick K20")
    s = act(act(s, "pick M26"), "to K23")
    assert "pick K23" not in texts(s) and {"pick N26", "pick O26", "done"} <= texts(s)
    s = act(act(act(act(s, "pick N26"), "to L23"), "pick O26"), "to J23")
    assert [e.text for e in s.events][-1] == "Seat 1 builds a wall of 3 players."
    assert {sq("K23"), sq("L23"), sq("J23")} <= set(s.pos)


def test_the_view_names_the_players_who_must_leave_forbidden_squares_first() -> None:
    """Rulebook "Free moves": players on forbidden squares are moved first (QA pass 14,
    finding 6: the panel could not say why only some players were offered)."""
    players = {1: "R11", 5: "K7", 6: "J3", 15: "I6", 12: "T11", 16: "E30", 11: "A32"}
    s = position(players, ball="A30", phase="roll", team=1, extended=True)
    s = act(meta(s, set_pieces.start(s, "penalty", 1, sq("K4"), False, [])), "pick E30")
    seat1 = s.view(None)["state"]["setpiece"]
    assert s.current_players() == (1,) and seat1["must_move"] == [15]
    s = act(act(s, "pick I6"), "to I12")
    seat0 = s.view(None)["state"]["setpiece"]
    assert s.current_players() == (0,) and seat0["must_move"] == [5, 6]
    assert texts(s) == {"pick K7", "pick J3"}  # no 'done' and nobody else until they have gone
    s = act(act(s, "pick K7"), "to K12")
    assert s.view(None)["state"]["setpiece"]["must_move"] == []  # seat 1's turn: nobody of its own
    s = act(act(s, "pick T11"), "to T13")
    assert s.view(None)["state"]["setpiece"]["must_move"] == [6]


def test_the_log_says_a_set_piece_curve_on_the_ground_flies() -> None:
    """Rulebook "Kicking the ball in special situations": the roll's log line says what it means."""
    s = position({5: "K10", 6: "K12", 15: "K13"}, holder=5, extended=True, phase="sp-kick")
    s = edit(s, setpiece=("free-kick", 0, sq("K10"), 5, False))
    flying = roll(act(s, "kick 1"), "kick-roll curve 4")
    assert "flies over every player and nobody can stop it" in flying.events[0].text
    ground = roll(act(s, "kick 1 normal"), "kick-roll curve 4")
    assert "flies" not in ground.events[0].text
