"""Soccero rules, one small real position per rule (rulebook section or RULINGS Soccero N in each name).

Positions are built with :func:`position`: seat 0 defends row 1 (attacks row 32); players
not named stand out of the way (seat 0 on S2, S4 .. S22; seat 1 on U2, U4 .. U22).
Player ids: 0..10 seat 0 (0 = goalkeeper), 11..21 seat 1 (11 = goalkeeper).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import pytest

from soccerdesk.rules import CHANCE, IllegalAction, get_game, sample_chance
from soccerdesk.rules.soccero.board import BoardDataError
from soccerdesk.rules.soccero.state import SocceroState

GAME = get_game("soccero")
B = GAME.board  # type: ignore[attr-defined]
PARK = {0: 18, 1: 20}  # columns (0-based) where unnamed players wait


def sq(name: str) -> int:
    return B.square(name)


def position(
    players: dict[int, str],
    *,
    ball: str | None = None,
    holder: int | None = None,
    phase: str = "turn",
    team: int = 0,
    extended: bool = False,
    game: Any = GAME,
    **fields: Any,
) -> SocceroState:
    """A mid-match position: named players where given, the ball on ``ball`` (or with ``holder``)."""
    start = game.new_match(seed=0, extended=extended)
    pos = []
    for p in range(22):
        t = p // 11
        pos.append(sq(players[p]) if p in players else (1 + 2 * (p % 11)) * B.columns + PARK[t])
    ball_sq = pos[holder] if holder is not None else (sq(ball) if ball else -1)
    s = replace(
        start,
        phase=phase,
        team=team,
        decider=fields.pop("decider", team),
        pos=tuple(pos),
        ball=ball_sq,
        holder=-1 if holder is None else holder,
        low_team=0,
        **{"kickoff_team": 0, **fields},
    )
    s._set_meta(start.info, None, ())
    return s


def meta(old: SocceroState, new: SocceroState) -> SocceroState:
    """``new`` (made by a rules function called directly) as part of ``old``'s match."""
    new._set_meta(old.info, None, ())
    return new


def edit(s: SocceroState, **fields: Any) -> SocceroState:
    """``s`` with some fields changed (a test shortcut to a position)."""
    out = replace(s, **fields)
    out._set_meta(s.info, None, ())
    return out


def texts(s: SocceroState) -> set[str]:
    return {str(a) for a in s.legal_actions(s.current_players()[0])}


def act(s: Any, text: str) -> Any:
    seat = s.current_players()[0]
    return s.apply(seat, GAME.parse_action(text))


def roll(s: Any, text: str) -> Any:
    assert s.current_players() == (CHANCE,), s.phase
    return s.apply(CHANCE, GAME.parse_action(text))


# --- board (RULINGS Soccero "Board") ----------------------------------------------------


def test_board_is_21_by_32_with_the_rulings_areas() -> None:
    assert (B.columns, B.rows) == (21, 32)
    assert len(B.goal_area[0]) == 14 and sq("H1") in B.goal_area[0] and sq("N32") in B.goal_area[1]
    assert len(B.penalty_area[0]) == 55 and sq("P5") in B.penalty_area[0] and sq("F28") in B.penalty_area[1]
    assert B.penalty_spot == (sq("K4"), sq("K29"))
    assert len(B.centre_circle) == 5 + 7 + 7 + 7 + 7 + 5
    assert sq("J7") in B.penalty_arc[0] and sq("J26") in B.penalty_arc[1]
    assert B.distance(sq("A1"), sq("C9")) == 8  # king moves


def test_distance_table_matches_king_moves() -> None:
    table = B.distances
    assert len(table) == B.size and all(len(row) == B.size for row in table)
    for a in range(0, B.size, 5):
        assert all(table[a][b] == B.distance(a, b) for b in range(B.size))
    assert table[sq("A1")][sq("U32")] == 31


def _rect(cols: str, rows: range) -> set[int]:
    return {sq(f"{c}{r}") for c in cols for r in rows}


def test_board_areas_are_exactly_the_rulings_named_squares() -> None:
    """RULINGS Soccero "Board", every entry; the penalty area is the named F–P (11 wide),
    not the "13×5" of the same line (see docs/rulings.md, Soccero, "Penalty area width")."""
    assert B.goal_area[0] == _rect("HIJKLMN", range(1, 3)) and B.goal_area[1] == _rect("HIJKLMN", range(31, 33))
    assert B.penalty_area[0] == _rect("FGHIJKLMNOP", range(1, 6))
    assert B.penalty_area[1] == _rect("FGHIJKLMNOP", range(28, 33))
    assert B.penalty_arc[0] == _rect("IJKLM", range(6, 7)) | _rect("JKL", range(7, 8))
    assert B.penalty_arc[1] == _rect("IJKLM", range(27, 28)) | _rect("JKL", range(26, 27))
    assert B.centre_circle == (
        _rect("IJKLM", range(14, 15)) | _rect("HIJKLMN", range(15, 19)) | _rect("IJKLM", range(19, 20))
    )
    assert [B.names[g] for g in B.goal_mouth(0)] == ["J1", "K1", "L1"]
    assert [B.names[g] for g in B.goal_mouth(1)] == ["J32", "K32", "L32"]


def test_bad_board_data_is_refused_with_a_reason() -> None:
    from soccerdesk.resources import load_game_data
    from soccerdesk.rules.soccero import make_game

    data = dict(load_game_data("soccero"))
    data["areas"] = {**data["areas"], "penalty_spot": {"low": "Z99", "high": "K29"}}
    with pytest.raises(BoardDataError, match="Z99"):
        make_game(data)


SHIPPED_OPTIONS = type(GAME).options


@contextmanager
def game_from(**changes: dict[str, Any]) -> Iterator[Any]:
    """Soccero made from soccero.toml with some ``[section]`` numbers changed; the shipped game
    is put back afterwards (a game sets its options and the state class's game when made)."""
    from soccerdesk.resources import load_game_data
    from soccerdesk.rules.soccero import SocceroGame, make_game

    data = {k: dict(v) if isinstance(v, dict) else v for k, v in load_game_data("soccero").items()}
    for section, numbers in changes.items():
        data[section].update(numbers)
    try:
        yield make_game(data)
    finally:
        SocceroGame.options = SHIPPED_OPTIONS
        SocceroState.game, SocceroState.board = GAME, B


def play_randomly(game: Any, seed: int, **options: Any) -> SocceroState:
    rng = random.Random(seed)
    s = game.new_match(seed=seed, quick_setup=True, **options)
    while not s.is_terminal():
        seat = s.current_players()[0]
        s = s.apply(seat, sample_chance(s, rng) if seat == CHANCE else rng.choice(s.legal_actions(seat)))
    return s


def test_match_numbers_come_from_the_data_file() -> None:
    """RULINGS.md: reconstructed numbers live in soccero.toml so a real value can replace them.
    QA: turns_per_half, halves and adjacent_in_line were read but changed nothing."""
    assert GAME.option("turns").default == 30 and GAME.option("adjacent_limit").default == 4
    assert GAME.option("adjacent_limit").choices == (3, 4)
    with game_from(match={"turns_per_half": 2, "halves": 3}, restrictions={"adjacent_in_line": 5}) as game:
        assert game.option("turns").default == 2
        assert game.option("adjacent_limit").default == 5 and game.option("adjacent_limit").choices == (3, 5)
        s = play_randomly(game, 3)
        assert dict(s.options)["turns"] == 2 and s.cfg.adjacent_limit == 5
        assert s.half == 3 and s.is_terminal()
        # The end of half 2 of 3: the ends change again and the first half's kicker kicks off.
        s = position({5: "K10"}, ball="A30", phase="moving", points=1, turns=(1, 2), half=2, game=game)
        s = s.apply(0, game.parse_action("move K10-K11"))
        assert s.half == 3 and s.low_team == 1 and s.team == 0 and s.phase == "setup"
        assert "End of half 2: 0-0. The teams change ends." in [e.text for e in s.events]
    with game_from(match={"halves": 1}) as game:
        s = position({5: "K10"}, ball="A30", phase="moving", points=1, turns=(29, 30), game=game)
        assert s.apply(0, game.parse_action("move K10-K11")).is_terminal()
    assert GAME.option("turns").default == 30 and get_game("soccero") is GAME
    assert SocceroState.game is GAME


def test_bad_match_numbers_in_the_data_file_are_refused() -> None:
    for section, numbers in [
        ("match", {"halves": 0}),
        ("match", {"turns_per_half": 0}),
        ("restrictions", {"adjacent_in_line": 1}),
    ]:
        with pytest.raises(BoardDataError, match=next(iter(numbers))), game_from(**{section: numbers}):
            pass


# --- starting the game and the initial formation ---------------------------------------------


def _to_setup(seed: int = 0) -> Any:
    s = GAME.new_match(seed=seed)
    s = roll(s, "toss 0")  # seat 0 kicks off, seat 1 chooses the end
    assert s.current_players() == (1,)
    return act(s, "defend 32")  # seat 1 defends row 32, so seat 0 row 1


def test_toss_winner_kicks_off_and_the_other_chooses_the_end() -> None:
    s = _to_setup()
    assert s.low_team == 0 and s.phase == "setup" and s.current_players() == (0,)


def test_kicking_team_places_its_centre_pair_first() -> None:
    """Rulebook "Initial Formation" (A): one player next to the centre mark, one beside him."""
    s = _to_setup()
    assert texts(s) == {"place K16"}
    s = act(s, "place K16")
    assert texts(s) == {"place J16", "place L16"}


def test_formation_keeps_team_mates_apart_and_field_players_out_of_the_penalty_area() -> None:
    s = act(act(_to_setup(), "place K16"), "place J16")
    legal = texts(s)  # the goalkeeper next: he may stand in the penalty area
    assert "place K2" in legal and "place K17" not in legal
    assert "place K15" not in legal and "place I15" not in legal  # next to the centre pair
    s = act(s, "place K2")
    legal = texts(s)
    assert "place K4" not in legal and "place G3" not in legal  # penalty area: keeper only
    assert "place A6" in legal and "place L2" not in legal


def test_receiving_team_stays_out_of_the_centre_circle() -> None:
    """Rulebook "Initial Formation" (C)."""
    s = _to_setup()
    for name in ("K16", "J16", "K2", "A8", "C8", "E8", "G8", "I8", "K8", "M8", "O8"):
        s = act(s, f"place {name}")
    assert s.current_players() == (1,)
    legal = texts(s)
    assert "place K31" in legal  # the keeper of seat 1 first
    s = act(s, "place K31")
    legal = texts(s)
    assert "place K17" not in legal and "place H18" not in legal and "place M19" not in legal
    assert "place G18" in legal


def test_kickoff_passes_to_the_partner_and_the_kicking_team_takes_a_turn() -> None:
    """Rulebook "Kickoff"."""
    s = GAME.new_match(seed=0, quick_setup=True)
    s = act(roll(s, "toss 1"), "defend 1")
    assert s.holder == 11 + 9 and s.pos[20] == sq("J17") and s.pos[21] == sq("K17")
    assert s.phase == "turn" and s.current_players() == (1,)


def test_quick_setup_formations_are_legal() -> None:
    s = GAME.new_match(seed=0)
    s = act(roll(s, "toss 0"), "defend 32")
    for name in GAME.formation["kickoff"][10:] + GAME.formation["kickoff"][9:10] + GAME.formation["kickoff"][:9]:  # type: ignore[attr-defined]
        s = act(s, f"place {B.names[name]}")
    for name in GAME.formation["receiving"]:  # type: ignore[attr-defined]
        s = act(s, f"place {B.names[B.mirror(name)]}")
    assert s.phase == "turn"


@pytest.mark.parametrize(("toss", "end"), [("toss 0", "defend 32"), ("toss 1", "defend 1"), ("toss 1", "defend 32")])
def test_the_set_up_view_tells_the_quick_set_ups_square_and_who_kicks_off(toss: str, end: str) -> None:
    """UI review s28, 2: the board's "Place the rest for me" worked out the Quick set-up's squares
    and guessed which team kicks off itself. The set-up view tells both: placing every player on
    his ``formation_square`` is legal throughout and ends as the Quick set-up option starts."""
    s = act(roll(GAME.new_match(seed=0), toss), end)
    quick = act(roll(GAME.new_match(seed=0, quick_setup=True), toss), end)
    kicker = s.team
    while s.phase == "setup":
        state = s.view(0)["state"]
        assert state["kicking_off"] == kicker
        s = act(s, f"place {state['formation_square']}")
    assert s.pos == quick.pos and s.phase == quick.phase == "turn"
    assert "formation_square" not in s.view(0)["state"]


# --- turns and moving players (rulebook "Turns", "Moving Players", RULINGS 3) --------------


def test_the_team_with_the_ball_chooses_move_or_kick_before_the_roll() -> None:
    s = position({5: "K10"}, holder=5)
    assert texts(s) == {"move", "kick 1", "kick 2", "shoot 1", "shoot 2"}
    other = position({5: "K10"}, holder=5, team=1, phase="turn")
    other = edit(other, phase="roll")
    assert other.current_players() == (CHANCE,)


def test_moves_are_straight_lines_that_do_not_pass_through_players() -> None:
    s = position({5: "K10", 6: "K12", 15: "M12"}, ball="A30", phase="moving", points=3)
    legal = texts(s)
    assert "move K10-K11" in legal and "move K10-K13" not in legal  # K12 is in the way
    assert "move K10-M12" not in legal and "move K10-L11" in legal  # no landing on a player
    assert not any(t.startswith("move K10-L12") for t in legal)  # not a straight line


def test_the_die_is_used_exactly_when_possible() -> None:
    """RULINGS Soccero 3: every move must leave a total the others can still use."""
    players = {p: f"{'ACEGIKMOQSU'[p % 11]}{3 + 2 * (p % 11) if p else 1}" for p in range(11)}
    players.update({0: "K1", 1: "A20", 2: "A22"})
    s = position(players, ball="U30", phase="moving", points=6)
    s = edit(s, moved=sum(1 << p for p in range(3, 11)) | 1)  # only players 1 and 2 may move
    legal = texts(s)
    assert "move A20-A19" in legal  # 1 + 5 (A22 can go 5)
    assert "move A20-B21" in legal
    assert {t for t in legal if t.startswith("move A20-")} >= {"move A20-A18", "move A20-A15"}


def test_the_largest_total_is_used_when_the_roll_cannot_be() -> None:
    """RULINGS Soccero 3: a blocked team moves as far as it can."""
    s = position({1: "A1", 12: "A4", 13: "B2", 14: "D1"}, ball="K20", phase="roll")
    s = edit(s, moved=sum(1 << p for p in range(11) if p != 1))  # only player 1 may still move
    s = roll(s, "roll 6")
    assert s.points == 2 and texts(s) == {"move A1-A3", "move A1-C1"}
    assert any(e.kind == "short-move" for e in s.events)


def test_a_player_moves_once_per_turn() -> None:
    s = position({5: "K10"}, ball="A30", phase="moving", points=4)
    s = act(s, "move K10-K11")
    assert s.phase == "moving" and not any(t.startswith("move K11-") for t in texts(s))


# --- stealing the ball ----------------------------------------------------------------------


def test_steal_lands_exactly_on_the_holder_and_the_loser_moves_off_first() -> None:
    """Rulebook "Stealing the Ball": exact number; the loser uses the first point to leave."""
    s = position({15: "K13", 5: "K10"}, holder=15, phase="moving", team=0, points=3)
    s = act(s, "move K10-K13")
    assert s.holder == 5 and s.pos[15] == s.pos[5] and s.forced == 15
    s = roll(s, "roll 4")  # seat 1's turn: the loser must move first
    assert s.team == 1 and {t.split("-")[0] for t in texts(s)} == {"move K13"}
    assert "move K13-K13" not in texts(s)
    s = act(s, "move K13-L14")
    assert s.forced == -1 and s.holder == 5


@pytest.mark.parametrize(("stealer", "loser", "kicker", "team"), [(12, 1, 13, 1), (1, 12, 2, 0)])
def test_a_ball_stopping_on_a_shared_square_goes_to_the_stealer(
    stealer: int, loser: int, kicker: int, team: int
) -> None:
    """docs/rulings.md, Soccero, "Steal": of the two players on the square after a steal, a ball
    that stops there is the one's who is not obliged to leave. QA: it always went to seat 0's."""
    players = {stealer: "K12", loser: "K12", kicker: "K8"}
    s = position(players, holder=kicker, team=team, forced=loser)
    s = act(roll(act(s, "kick 1"), "kick-roll direct 6"), "path K8 N4")
    assert s.holder == stealer and s.ball == sq("K12") and s.forced == loser
    s = position(players, holder=kicker, team=team, forced=loser)
    s = act(roll(act(s, "kick 1"), "kick-roll air 4"), "path K8 N4")  # lands there in the air
    assert s.holder == stealer


def test_no_landing_on_a_player_without_the_ball() -> None:
    s = position({15: "K13", 5: "K10"}, ball="A30", phase="moving", team=0, points=3)
    assert "move K10-K13" not in texts(s)


# --- carrying the ball ------------------------------------------------------------------------


def test_carrying_turns_the_red_side_up() -> None:
    """Rulebook "Carrying the Ball": a player who carried it may not carry it again."""
    s = position({5: "K10"}, holder=5, phase="moving", points=2)
    legal = texts(s)
    assert {"move K10-K12 ball K12", "move K10-K12 ball K11", "move K10-K12"} <= legal
    s = act(s, "move K10-K12 ball K12")
    assert s.holder == 5 and s.red == 5 and s.ball == sq("K12")
    s = edit(s, phase="moving", points=2, moved=0, team=0, decider=0)
    legal = texts(s)
    assert "move K12-K14" in legal and not any("ball" in t for t in legal if t.startswith("move K12-"))


def test_leaving_the_ball_on_a_crossed_square_and_picking_it_up() -> None:
    s = position({5: "K10", 6: "C10"}, holder=5, phase="moving", points=6)
    s = act(s, "move K10-K13 ball K11")
    assert s.holder == -1 and s.ball == sq("K11") and s.red == -1
    s = position({6: "K8"}, ball="K10", phase="moving", points=4)
    legal = texts(s)
    assert "move K8-K12 ball K12" in legal and "move K8-K12 ball K11" in legal
    s = act(s, "move K8-K12 ball K12")
    assert s.holder == 6 and s.red == 6


@pytest.mark.parametrize(
    ("players", "holder", "ball", "text", "reason"),
    [
        ({1: "K10", 2: "C3"}, 2, None, "move K10-K12 ball K12", "he does not have the ball"),
        ({1: "K10"}, None, "C3", "move K10-K12 ball K12", "he does not have the ball, and does not cross it"),
        ({1: "K10"}, None, "K12", "move K10-K12 ball K12", "he takes the ball by ending his move on it (K12)"),
        (
            {1: "K10"},
            None,
            "K11",
            "move K10-K12 ball K10",
            "he picks the ball up on K11: he can only leave it on a later",
        ),
        ({2: "C3"}, 2, None, "move C3-C5 ball C6", "the ball can only be left on a square he crosses or on his end"),
        ({2: "C3"}, 2, None, "move C3-C5 ball D4", "the ball can only be left on a square he crosses or on his end"),
        ({2: "C3"}, 2, None, "move C3-C5 ball C3", "the ball can only be left on a square he crosses or on his end"),
    ],
)
def test_a_wrong_carry_is_refused_with_the_carrying_reason(
    players: dict[int, str], holder: int | None, ball: str | None, text: str, reason: str
) -> None:
    """Rulebook "Carrying the Ball": the move without its 'ball' part is legal, so the reason is
    the carry, not the die. QA: these were refused with "the die must be used exactly"."""
    s = position(players, holder=holder, ball=ball, phase="moving", points=2)
    assert text.rsplit(" ball ", 1)[0] in texts(s)
    with pytest.raises(IllegalAction, match=re.escape(reason)):
        act(s, text)


def test_stepping_onto_the_loose_ball_takes_it() -> None:
    s = position({6: "K8"}, ball="K10", phase="moving", points=2)
    s = act(s, "move K8-K10")
    assert s.holder == 6 and s.red == -1


# --- kicking ---------------------------------------------------------------------------------


def _kick(players: dict[int, str], holder: int, symbol: str, total: int, shot: bool = False, **kw: Any) -> Any:
    s = position(players, holder=holder, **kw)
    s = act(s, f"{'shoot' if shot else 'kick'} {2 if total > 6 else 1}")
    return roll(s, f"kick-roll {symbol} {total}")


def test_direct_kick_is_a_straight_line_stopped_by_the_first_player() -> None:
    s = _kick({5: "K10", 15: "K13"}, 5, "direct", 5)
    legal = texts(s)
    assert "path K10 N3" in legal and "path K10 N5" not in legal
    assert not any(len(t.split()) > 3 and "out" not in t and "goal" not in t for t in legal)  # no curves
    s = act(s, "path K10 N3")
    assert s.holder == 15 and s.team == 1


def test_curve_kick_turns_once_by_45_degrees() -> None:
    s = _kick({5: "K10"}, 5, "curve", 4)
    legal = texts(s)
    assert "path K10 N2 NE2" in legal and "path K10 N2 NW2" in legal and "path K10 N2 E2" not in legal
    s = act(s, "path K10 N2 NE2")
    assert s.ball == sq("M14") and s.holder == -1
    # The log names squares (a square "N6" and a leg "N6" read alike; the pitch may be turned).
    assert s.events[0].text == "Player 6 of seat 0 kicks the ball from K10 via K12 to M14."


def test_air_kick_passes_over_players_who_may_stop_it_kickers_side_first() -> None:
    """RULINGS Soccero 4."""
    s = _kick({5: "K10", 6: "K12", 15: "K13"}, 5, "air", 6)
    s = act(s, "path K10 N6")
    assert s.phase == "air-stop" and s.current_players() == (0,)
    s = act(s, "let")
    assert s.current_players() == (1,)
    s = act(s, "let")
    assert s.ball == sq("K16") and s.holder == -1
    s = _kick({5: "K10", 6: "K12", 15: "K13"}, 5, "air", 6)
    s = act(act(act(s, "path K10 N6"), "let"), "stop")
    assert s.holder == 15


def test_ball_over_the_line_goes_to_the_nearest_opponent() -> None:
    """Rulebook "Kicking the Ball" and RULINGS Soccero 5 (basic rules)."""
    s = _kick({5: "B10", 15: "E12"}, 5, "direct", 4)
    s = act(s, "path B10 W2 out")
    assert s.ball == sq("A10") and s.pos[15] == sq("A10") and s.holder == 15 and s.team == 1


def test_nearest_opponents_tied_their_manager_picks() -> None:
    s = _kick({5: "B10", 15: "C8", 16: "C12"}, 5, "direct", 2)
    s = act(s, "path B10 W2 out")
    assert s.phase == "fetch" and texts(s) == {"pick C8", "pick C12"}
    s = act(s, "pick C12")
    assert s.pos[16] == sq("A10") and s.holder == 16


def test_only_a_declared_shot_can_score() -> None:
    """Rulebook "Taking a Shot on Goal": declared before the roll."""
    s = _kick({5: "K28", 11: "A32"}, 5, "direct", 6)
    assert "path K28 N5 out" in texts(s) and "path K28 N5 goal" not in texts(s)
    s = _kick({5: "K28", 11: "A32"}, 5, "direct", 6, shot=True)
    assert texts(s) == {"path K28 N5 goal"}  # the diagonals miss the three-square goal


def test_the_log_says_a_shot_was_declared() -> None:
    """QA: a declared shot read in the log like any kick ("Kick die: ..."), so a reader could
    not tell a shot from a kick."""
    shot = _kick({5: "K28", 11: "A32"}, 5, "direct", 6, shot=True)
    kick = _kick({5: "K28", 11: "A32"}, 5, "direct", 6)
    assert shot.events[0].text == "Shot at goal. Kick die: a direct ground kick, distance 6."
    assert kick.events[0].text == "Kick die: a direct ground kick, distance 6."


def test_goal_then_the_team_that_conceded_kicks_off() -> None:
    s = _kick({5: "K28", 11: "A32"}, 5, "direct", 6, shot=True)
    s = act(s, "path K28 N5 goal")
    assert s.goals == (1, 0) and s.phase == "setup" and s.team == 1
    assert any(e.kind == "goal" for e in s.events)


def test_keeper_on_the_path_stops_a_ground_shot() -> None:
    s = _kick({5: "K28", 11: "K31"}, 5, "direct", 6, shot=True)
    assert "path K28 N5 goal" not in texts(s)


def test_basic_save_beside_the_keeper_on_5_or_6() -> None:
    """RULINGS Soccero 2: a ground shot past the square beside the keeper."""
    s = act(_kick({5: "K28", 11: "L31"}, 5, "direct", 6, shot=True), "path K28 N5 goal")
    assert s.phase == "save"
    saved = roll(s, "keeper 5")
    assert saved.goals == (0, 0) and saved.holder == 11 and saved.team == 1
    missed = roll(s, "keeper 4")
    assert missed.goals == (1, 0)


@pytest.mark.parametrize(
    ("keeper", "shooter", "route"),
    [
        ("K30", "J30", "path J30 N3 goal"),  # the keeper came out; the shooter stands beside him
        ("K30", "L30", "path L30 N3 goal"),
        ("J32", "K32", "path K32 N1 goal"),  # fetched onto the goal line beside the keeper (RULINGS 5)
    ],
)
def test_basic_save_of_a_shot_kicked_from_beside_the_keeper(keeper: str, shooter: str, route: str) -> None:
    """RULINGS Soccero 2: the square the shot starts from counts as one it passes (docs/rulings.md).
    QA: a shot from right beside the keeper was a sure goal, one from a square further back was not."""
    total = int(route.split()[2][1:])
    s = act(_kick({5: shooter, 11: keeper}, 5, "direct", total, shot=True), route)
    assert s.phase == "save" and s.current_players() == (CHANCE,)
    saved = roll(s, "keeper 6")
    assert saved.goals == (0, 0) and saved.holder == 11 and saved.team == 1
    assert roll(s, "keeper 4").goals == (1, 0)


def test_only_a_shot_from_beside_the_keeper_gets_the_save_roll() -> None:
    """The start square counts for shots only, and only beside the keeper in his row: two squares
    away is a plain goal; a pass or an undeclared kick from beside him goes on as before."""
    far = act(_kick({5: "I30", 11: "K30"}, 5, "direct", 3, shot=True), "path I30 NE3 goal")
    assert far.goals == (1, 0) and far.phase == "setup"
    diagonal = act(_kick({5: "J31", 11: "K30"}, 5, "direct", 2, shot=True), "path J31 N2 goal")
    assert diagonal.goals == (1, 0)  # J31 is next to the keeper, but not in his row
    passed = act(_kick({5: "J30", 6: "J26", 11: "K30"}, 5, "direct", 4), "path J30 S4")
    assert passed.holder == 6 and passed.phase == "roll" and passed.team == 1
    out = act(_kick({5: "J30", 11: "K30"}, 5, "direct", 3), "path J30 N3 out")
    assert out.goals == (0, 0) and out.phase != "save" and out.ball == sq("J32")


def test_basic_air_shot_from_beside_the_keeper_is_still_not_saved() -> None:
    s = act(_kick({5: "J30", 11: "K30"}, 5, "air", 3, shot=True), "path J30 N3 goal")
    assert s.goals == (1, 0)


# The stealer (5) shares the square with the keeper (11) he took the ball from: 11 must leave.
ON_KEEPER = {5: "K29", 11: "K29", 6: "K25"}


@pytest.mark.parametrize("extended", [False, True])
@pytest.mark.parametrize(
    ("symbol", "total", "route"), [("direct", 4, "path K29 N4 goal"), ("curve", 4, "path K29 NE1 N3 goal")]
)
def test_a_ground_shot_from_the_keepers_own_square_is_stopped_by_him(
    extended: bool, symbol: str, total: int, route: str
) -> None:
    """RULINGS Soccero 2: a ground shot over the keeper's square is stopped by him; the square it
    is kicked from counts (docs/rulings.md, Soccero). QA: a player who stole the ball from the
    keeper and shot before he stepped off scored for sure, with no save roll at all."""
    s = act(_kick(ON_KEEPER, 5, symbol, total, shot=True, forced=11, extended=extended), route)
    assert s.goals == (0, 0) and s.phase != "save" and not s.setpiece
    assert s.holder == 11 and s.ball == sq("K29") and s.team == 1
    assert s.forced == 11  # he still has to step off the square the two share


def test_an_air_shot_from_the_keepers_own_square_is_saved_as_one_over_him() -> None:
    """Basic: air shots cannot be saved (RULINGS 2). Extended: one over the keeper is saved on a 6."""
    basic = act(_kick(ON_KEEPER, 5, "air", 4, shot=True, forced=11), "path K29 N4 goal")
    assert basic.goals == (1, 0)
    s = act(_kick(ON_KEEPER, 5, "air", 4, shot=True, forced=11, extended=True), "path K29 N4 goal")
    assert s.phase == "save" and s.current_players() == (CHANCE,)
    assert roll(s, "keeper 6").setpiece[0] == "corner" and roll(s, "keeper 5").goals == (1, 0)


def test_only_a_shot_from_the_keepers_own_square_is_stopped_there() -> None:
    """A pass or an undeclared kick from the shared square goes on as before, and a shot from a
    square the keeper does not stand on is not stopped."""
    passed = act(_kick(ON_KEEPER, 5, "direct", 4, forced=11), "path K29 S4")
    assert passed.holder == 6 and passed.team == 1 and passed.forced == 11
    out = act(_kick(ON_KEEPER, 5, "direct", 4, forced=11), "path K29 N4 out")
    assert out.goals == (0, 0) and out.phase != "save" and out.ball == sq("K32")
    assert out.pos[11] == sq("K32")  # RULINGS 5: he, the nearest, fetches it from the edge square
    away = act(_kick({5: "K29", 11: "M29"}, 5, "direct", 4, shot=True), "path K29 N4 goal")
    assert away.goals == (1, 0)


def test_basic_air_shot_cannot_be_saved_and_keeper_is_not_asked() -> None:
    s = act(_kick({5: "K27", 11: "K31"}, 5, "air", 6, shot=True), "path K27 N6 goal")
    assert s.goals == (1, 0)


# --- match length (RULINGS Soccero 1) ----------------------------------------------------------


def test_half_time_switches_ends_and_the_other_team_kicks_off() -> None:
    s = position({5: "K10"}, ball="A30", phase="moving", points=1, turns=(29, 30), kickoff_team=0)
    s = act(s, "move K10-K11")
    assert s.half == 2 and s.low_team == 1 and s.team == 1 and s.phase == "setup"
    assert texts(s) == {"place K16"}  # seat 1 now defends row 1 and kicks off


def test_match_ends_after_the_second_half() -> None:
    s = position({5: "K10"}, ball="A30", phase="moving", points=1, turns=(29, 30), half=2)
    s = act(s, "move K10-K11")
    assert s.is_terminal() and s.current_players() == ()


def _turn_owners_to_the_break(s: Any) -> tuple[list[int], tuple[int, int], Any]:
    """Play on until the half ends (die faces 1, a waiting player's step where there is one,
    else the first legal action): the seat owning each turn in order, the turns each seat had
    played at the break, and the state after it."""
    half, played = s.half, s.turns
    owners: list[int] = []
    for _ in range(2000):
        seat = s.current_players()[0]
        if seat == CHANCE:
            action = s.chance_outcomes()[0][0]
        else:
            legal = s.legal_actions(seat)
            action = next((a for a in legal if str(a).startswith(("move S", "move U"))), legal[0])
        before, s = s, s.apply(seat, action)
        if s.turns != before.turns or s.half != half:
            owners.append(before.turn_team if before.turn_team >= 0 else before.team)
        if s.half != half or s.is_terminal():
            return owners, played, s
        played = s.turns
    raise AssertionError("the half did not end")


def test_a_corner_after_a_save_late_in_the_half_costs_the_defenders_no_turn() -> None:
    """RULINGS Soccero 1: 30 turns per manager; docs/rulings.md "Turns": the corner is a second
    turn of the shooters in a row. QA (s27, finding 2): the half ended on both managers' turns
    together, so the shooters played 31 and the defenders lost their 30th."""
    s = _kick({5: "K28", 6: "B30", 11: "L31"}, 5, "direct", 6, shot=True, extended=True, turns=(27, 27))
    s = roll(act(s, "path K28 N5 goal"), "keeper 6")
    assert s.setpiece[:2] == ("corner", 0) and s.turns == (28, 27)
    s = act(act(act(act(s, "pick A32"), "pick B30"), "done"), "done")
    s = act(roll(act(s, "kick 1"), "kick-roll direct 4"), "path A32 E4")
    assert s.turns == (29, 27) and s.team == 1
    owners, played, after = _turn_owners_to_the_break(s)
    # Seat 1, seat 0's 30th; then seat 0 has played its turns and seat 1 plays its last two.
    assert owners == [1, 0, 1, 1]
    assert played == (30, 29) and after.half == 2 and after.turns == (0, 0)
    assert "Half-time: 0-0. The teams change ends." in [e.text for e in after.events]


def test_the_view_counts_each_managers_turns() -> None:
    """The view's ``turns_each`` counts each seat's turns of the half, ``turns_played`` their sum;
    the hourglass starts again for each turn, two of the same seat in a row included."""
    s = position({5: "K10"}, ball="A30", phase="moving", points=1, turns=(29, 28))
    s = edit(s, cfg=replace(s.cfg, turn_timer=30))
    s = act(s, "move K10-K11")
    view = s.view(None)["state"]
    assert view["turns_each"] == [30, 28] and view["turns_played"] == 58 and view["turn"] == 1
    assert view["hourglass"] == {"seconds": 30, "seat": 1, "turn": [1, 58]}
    s = act(roll(s, "roll 1"), "move U4-U5")
    view = s.view(None)["state"]
    assert view["turns_each"] == [30, 29] and view["turn"] == 1 and s.half == 1
    assert view["hourglass"] == {"seconds": 30, "seat": 1, "turn": [1, 59]}


def test_an_opponents_header_goal_then_the_kick_off_costs_the_scorers_no_turn() -> None:
    """Extended "Headers": seat 1 heads in during seat 0's turn, and seat 0, having conceded,
    kicks off: two turns of seat 0 in a row (QA s27, a suspicion). Seat 1 still plays all its
    turns of the half."""
    s = _kick({5: "K10", 16: "K5", 0: "A1"}, 5, "air", 5, extended=True, turns=(28, 28))
    s = roll(act(act(s, "path K10 S5"), "header"), "roll 5")
    s = act(s, "head S")
    assert s.goals == (0, 1) and s.team == 0 and s.turns == (29, 28)
    owners, played, after = _turn_owners_to_the_break(s)
    assert owners == [0, 1, 1] and played == (30, 29) and after.half == 2


def test_a_restart_is_taken_by_a_team_that_has_played_its_turns() -> None:
    """docs/rulings.md "Turns": while seat 0 plays its remaining turns, the ball it kicks out
    is thrown in by seat 1 (an extra turn of seat 1: play needs the ball back); seat 0 then
    plays its last turn and the half ends."""
    s = position({5: "B10", 15: "E12"}, holder=5, extended=True, turns=(28, 30))
    s = act(roll(act(s, "kick 1"), "kick-roll direct 4"), "path B10 W2 out")
    assert s.setpiece[:2] == ("throw-in", 1) and s.turns == (29, 30)
    owners, played, after = _turn_owners_to_the_break(s)
    assert owners == [1, 0] and played == (29, 31) and after.half == 2


def test_random_play_ends_within_the_turn_limit() -> None:
    rng = random.Random(4)
    s = GAME.new_match(seed=4, turns=3, quick_setup=True)
    while not s.is_terminal():
        seat = s.current_players()[0]
        s = s.apply(seat, sample_chance(s, rng) if seat == CHANCE else rng.choice(s.legal_actions(seat)))
    assert s.half == 2


# --- position restrictions in the basic rules (docs/rulings.md) ------------------------------


def test_basic_rules_refuse_moves_that_break_the_position_restrictions() -> None:
    """Rulebook "Restrictions on Player Positions During Play"."""
    s = position({5: "K5", 1: "F3", 2: "H4", 3: "J4", 4: "E10"}, ball="A30", phase="moving", points=3)
    legal = texts(s)
    assert "move K5-K3" not in legal  # goal area: keeper only
    assert "move E10-E7" in legal and "move E10-H7" in legal
    s2 = position({1: "F3", 2: "H4", 3: "J4", 4: "G8"}, ball="A30", phase="moving", points=3)
    assert "move G8-G5" not in texts(s2) and "move G8-G6" in texts(s2)  # a fourth field player in the area
    s3 = position({1: "C10", 2: "D10", 3: "E10", 4: "F10", 5: "H12"}, ball="A30", phase="moving", points=2)
    assert "move H12-G10" not in texts(s3) and "move H12-H10" in texts(s3)  # five in a row
    s4 = position({1: "C10", 2: "D10", 3: "E10", 5: "H12"}, ball="A30", phase="moving", points=2)
    s4 = replace(s4, cfg=replace(s4.cfg, adjacent_limit=3))
    assert "move H12-F10" not in texts(s4)  # variant: three at most


def test_a_foul_in_the_last_turn_of_a_half_is_still_punished() -> None:
    """QA: in the extended rules a foul in the half's last turn was announced, and then the
    half ended with no free kick or penalty. The award is taken (its kick is the half's last
    turn), as a referee lets a penalty be taken after time is up; then half-time."""

    def last_turn_foul(turns: tuple[int, int]) -> Any:
        # Home's field player 6 runs into his own goal area (keeper only): a penalty for Away.
        s = position({5: "K5", 0: "A20"}, ball="A30", phase="roll", extended=True, turns=turns)
        s = roll(s, "roll 3")
        return act(s, "move K5-K2")

    earlier = last_turn_foul((29, 29))
    assert earlier.half == 1 and any("penalty kick" in e.text.lower() for e in earlier.events), earlier.events
    last = last_turn_foul((29, 30))
    texts_now = [e.text for e in last.events]
    assert any("breaks the position restrictions" in t for t in texts_now), texts_now
    assert last.half == 1 and not any(e.kind == "half-time" for e in last.events), texts_now
    assert any("penalty kick" in t.lower() for t in texts_now), texts_now
    # The penalty is played out: then the half ends (whatever became of the kick).
    state = last
    for _ in range(200):
        if state.half == 2 or state.phase == "over":
            break
        seat = state.current_players()[0]
        if seat == CHANCE:
            state = state.apply(CHANCE, state.chance_outcomes()[0][0])
        else:
            state = state.apply(seat, state.legal_actions(seat)[0])
    assert state.half == 2


# --- action texts and explanations ------------------------------------------------------------


def test_action_texts_round_trip_and_nonsense_is_refused() -> None:
    for text in (
        "move K10-K13 ball K12",
        "path K10 N2 NE3 goal",
        "kick-roll curve 7",
        "head NE",
        "to A1",
        "shoot 2 normal",
    ):
        assert str(GAME.parse_action(text)) == text
    for bad in ("move K10-L13", "path Z1 N2", "fly", "move K10-K13 ball"):
        with pytest.raises(IllegalAction):
            GAME.parse_action(bad)


def test_illegal_moves_are_explained() -> None:
    s = position({5: "K10", 6: "K12"}, ball="A30", phase="moving", points=2)
    assert "straight line" in s.explain_illegal(0, GAME.parse_action("move K10-K12"))
    assert "points" in s.explain_illegal(0, GAME.parse_action("move K10-K16"))
    with pytest.raises(IllegalAction, match="no player of yours"):
        s.apply(0, GAME.parse_action("move K20-K21"))


def test_view_shows_the_whole_field_and_nothing_hidden() -> None:
    s = position({5: "K10"}, holder=5)
    v = s.view(0)["state"]
    assert v == s.view(1)["state"] == s.view(None)["state"]
    assert v["ball"] == "K10" and v["holder"] == 5 and v["players"][5]["square"] == "K10"
    assert v["defends"] == [1, 32] and v["phase"] == "turn"


# === extended rules ===========================================================================


def test_extended_save_deflects_for_a_corner() -> None:
    """Extended "Goalkeeper's Attempt to Save a Shot": 5 or 6 → corner kick."""
    s = act(_kick({5: "K28", 11: "L31"}, 5, "direct", 6, shot=True, extended=True), "path K28 N5 goal")
    s = roll(s, "keeper 6")
    assert s.setpiece[0] == "corner" and s.setpiece[1] == 0 and s.phase == "sp-spot"
    assert texts(s) == {"pick A32", "pick U32"}  # over the goal: the team picks the corner


def test_extended_air_save_only_on_a_6() -> None:
    s = act(_kick({5: "K27", 11: "K31"}, 5, "air", 6, shot=True, extended=True), "path K27 N6 goal")
    assert s.phase == "save"
    assert roll(s, "keeper 5").goals == (1, 0)
    assert roll(s, "keeper 6").setpiece[0] == "corner"


def test_extended_saves_of_shots_and_headers_from_beside_the_keeper() -> None:
    """Extended "Goalkeeper's Attempt to Save a Shot": a ball that goes through a square beside
    the keeper; the square it is kicked or headed from counts (docs/rulings.md, Soccero)."""
    ground = act(_kick({5: "J30", 11: "K30"}, 5, "direct", 3, shot=True, extended=True), "path J30 N3 goal")
    assert ground.phase == "save"
    assert roll(ground, "keeper 5").setpiece[0] == "corner" and roll(ground, "keeper 4").goals == (1, 0)
    air = act(_kick({5: "L30", 11: "K30"}, 5, "air", 3, shot=True, extended=True), "path L30 N3 goal")
    assert air.phase == "save"
    assert roll(air, "keeper 5").goals == (1, 0) and roll(air, "keeper 6").setpiece[0] == "corner"
    # A header from beside him: C31 keeps J30 onside when J20 plays the ball to him.
    s = act(_kick({5: "J20", 6: "J30", 11: "K30", 12: "C31"}, 5, "air", 10, extended=True), "path J20 N10")
    assert s.phase == "header" and s.holder == 6
    header = act(roll(act(s, "header"), "roll 3"), "head N")
    assert header.phase == "save"
    assert roll(header, "keeper 6").setpiece[0] == "corner" and roll(header, "keeper 5").goals == (1, 0)


def test_weak_shot_goes_towards_goal_and_the_nearest_defender_blocks() -> None:
    """Extended "Weak Shots"."""
    s = _kick({5: "K20", 11: "K32", 15: "F25", 16: "P25"}, 5, "direct", 3, shot=True, extended=True)
    assert texts(s) == {"path K20 N3"}
    s = act(s, "path K20 N3")
    assert s.phase == "block" and texts(s) == {"pick F25", "pick P25"}
    s = act(s, "pick P25")
    assert s.pos[16] == sq("K23") and s.holder == 16 and s.team == 1


def test_weak_shot_into_the_goal_area_is_blocked_by_the_keeper() -> None:
    s = _kick({5: "K28", 11: "A32", 15: "L30", 12: "C31"}, 5, "direct", 3, shot=True, extended=True)
    assert texts(s) == {"path K28 N3"}
    s = act(s, "path K28 N3")
    assert s.pos[11] == sq("K31") and s.holder == 11  # not the nearer field player on L30


def test_header_from_an_air_ball_on_the_exact_number() -> None:
    """Extended "Headers": in the same turn, one die, straight, over players; may score."""
    s = _kick({5: "K20", 6: "K27", 11: "A32", 12: "C29"}, 5, "air", 7, extended=True)
    s = act(s, "path K20 N7")
    assert s.phase == "header" and texts(s) == {"header", "no-header"}
    s = roll(act(s, "header"), "roll 6")
    assert len(texts(s)) == 8
    s = act(s, "head N")
    assert s.goals == (1, 0)


def test_an_opponent_may_head_an_air_ball_that_lands_on_him() -> None:
    """Extended "Headers": "the player" the air ball comes to, of either team, in the same turn."""
    s = _kick({5: "K10", 16: "K17", 11: "A32"}, 5, "air", 7, extended=True)
    s = act(s, "path K10 N7")
    assert s.phase == "header" and s.current_players() == (1,)
    s = act(s, "header")
    assert s.team == 1 and s.turn_team == 0  # the ball is seat 1's, the turn still seat 0's
    view = s.view(None)["state"]
    assert view["turn"] == 0 and view["heading_team"] == 1
    s = roll(s, "roll 6")
    assert s.current_players() == (1,) and len(texts(s)) == 8
    s = act(s, "head S")
    # The ball stops on the empty K11; seat 0's turn is over and seat 1 plays the next one.
    assert s.ball == sq("K11") and s.holder == -1
    assert s.team == 1 and s.turn_team == -1 and s.phase == "roll" and s.turns == (1, 0)


def test_an_opponents_header_into_the_goal_he_attacks_scores_for_his_team() -> None:
    """Extended "Headers": the ball "may also be aimed on the goal" by either team's header."""
    s = _kick({5: "K10", 16: "K5", 0: "A1"}, 5, "air", 5, extended=True)
    s = act(s, "path K10 S5")
    s = roll(act(s, "header"), "roll 5")
    s = act(s, "head S")  # K4..K1, then over the goal line between the posts
    assert s.goals == (0, 1)
    assert s.team == 0 and s.turn_team == -1 and s.phase == "setup"  # seat 0 conceded: it kicks off


def test_a_defenders_header_over_his_own_goal_line_is_a_corner() -> None:
    """Extended "Headers" + "Corner Kick": the header is the last touch; no own goal (our ruling)."""
    s = _kick({5: "K20", 16: "K30", 11: "A32"}, 5, "air", 10, extended=True)
    s = act(s, "path K20 N10")
    s = roll(act(s, "header"), "roll 3")
    s = act(s, "head N")
    assert s.goals == (0, 0)
    assert s.setpiece[0] == "corner" and s.setpiece[1] == 0 and s.team == 0 and s.turn_team == -1


@pytest.mark.parametrize(("column", "corner"), [("J", "A32"), ("L", "U32")])
def test_a_ball_over_the_goal_but_not_its_middle_gives_the_nearest_corner(column: str, corner: str) -> None:
    """Rulebook "Corner Kick": the corner square nearest to where the ball crosses; the team
    chooses only when it crosses in the middle over the goal (K; J and L each have a nearer
    corner). QA found J and L also let the team choose."""
    s = _kick({5: f"{column}20", 16: f"{column}30", 11: "A32"}, 5, "air", 10, extended=True)
    s = act(s, f"path {column}20 N10")
    s = act(roll(act(s, "header"), "roll 3"), "head N")
    assert s.setpiece[0] == "corner" and s.setpiece[2] == sq(corner) and s.phase == "sp-taker"


def test_offside_is_judged_when_a_team_mate_heads_the_ball_on() -> None:
    """RULINGS Soccero 6 applied to headers: the header plays the ball on like a kick."""
    players = {5: "K10", 6: "K21", 7: "K27", 11: "K31", 12: "C25"}
    s = act(_kick(players, 5, "air", 11, extended=True), "path K10 N11")
    assert s.holder == 6 and s.phase == "header" and not s.setpiece  # K21 was onside at the kick
    s = roll(act(s, "header"), "roll 6")
    s = act(s, "head N")  # onto K27, ahead of the ball and of the second-last defender on C25
    assert s.setpiece[:3] == ("free-kick", 1, sq("K27")) and s.setpiece[4] is False
    s = act(_kick(players, 5, "air", 11, extended=True), "path K10 N11")
    s = roll(act(s, "header"), "roll 5")
    s = act(s, "head N")  # onto the empty K26: nobody received it, no offence
    assert s.ball == sq("K26") and not s.setpiece


def test_view_gives_a_ui_what_it_needs_to_run_the_hourglass() -> None:
    """RULINGS Soccero 1: the hourglass is the UI's clock; the view says how long, for whom and
    which turn, and a header chain inside the turn keeps the same hourglass (rulebook "Headers")."""
    s = GAME.new_match(seed=0, hourglass=True, quick_setup=True)
    assert s.view(None)["state"]["hourglass"] is None  # the coin toss is not a turn
    while s.phase != "turn":
        seat = s.current_players()[0]
        s = s.apply(seat, s.legal_actions(seat)[0]) if seat != CHANCE else roll(s, "toss 0")
    glass = s.view(None)["state"]["hourglass"]
    assert glass == {"seconds": 30, "seat": s.team, "turn": [1, 0]}
    assert GAME.new_match(seed=0).view(None)["state"]["hourglass"] is None  # off by default
    k = _kick({5: "K10", 16: "K17", 11: "A32"}, 5, "air", 7, extended=True)
    k = edit(k, cfg=replace(k.cfg, turn_timer=30))
    before = k.view(None)["state"]["hourglass"]
    k = act(act(k, "path K10 N7"), "header")  # seat 1 heads in seat 0's turn
    assert k.view(None)["state"]["hourglass"] == before == {"seconds": 30, "seat": 0, "turn": [1, 0]}


def test_steal_foul_on_the_victims_first_roll_of_6() -> None:
    """RULINGS Soccero 9 / extended "Fouls when stealing the ball"."""
    s = position({15: "K13", 5: "K10"}, holder=15, phase="moving", points=3, extended=True)
    s = act(s, "move K10-K13")
    assert s.steal == (1, sq("K13"), 5)
    fouled = roll(s, "roll 6")
    assert fouled.setpiece[:3] == ("free-kick", 1, sq("K13")) and fouled.setpiece[4] is True
    clean = roll(s, "roll 5")
    assert not clean.steal and clean.phase == "moving"


def test_steal_foul_in_the_stealers_penalty_area_is_a_penalty() -> None:
    s = position({15: "K4", 5: "K7"}, holder=15, phase="moving", points=3, extended=True)
    s = act(s, "move K7-K4")
    s = roll(s, "roll 6")
    assert s.setpiece[0] == "penalty" and s.setpiece[2] == sq("K4")
    s = act(s, "pick K4")  # the fouled seat-1 player takes it
    assert s.pos[15] == sq("K4") and s.pos[0] == sq("K1")


def test_offside_is_punished_only_when_the_player_receives() -> None:
    """RULINGS Soccero 6: nearer the goal line than the ball and the second-last opponent."""
    players = {5: "K20", 6: "K27", 11: "K31", 12: "C25"}
    s = act(_kick(players, 5, "direct", 7, extended=True), "path K20 N7")
    assert s.setpiece[:3] == ("free-kick", 1, sq("K27")) and s.setpiece[4] is False
    level = {5: "K20", 6: "K25", 11: "K31", 12: "C25"}
    s = act(_kick(level, 5, "direct", 5, extended=True), "path K20 N5")
    assert s.holder == 6 and not s.setpiece  # level with the second-last opponent: onside


def test_no_offside_from_a_goal_kick_throw_in_or_corner() -> None:
    s = position({0: "K2", 6: "K27", 11: "K31", 12: "C25"}, holder=0, extended=True)
    s = edit(s, setpiece=("goal-kick", 0, sq("K2"), 0, False))
    from soccerdesk.rules.soccero import set_pieces

    assert set_pieces.offside_mask(s) == 0
    s = edit(s, setpiece=("free-kick", 0, sq("K2"), 0, False))
    assert set_pieces.offside_mask(s) == 1 << 6


def test_offside_applies_at_a_punt_and_no_direct_goal_from_a_corner() -> None:
    """Rulebook "Goalkeeper's Punt Kick" (offside applied) and "Corner Kick" (no direct goal)."""
    from soccerdesk.rules.soccero import set_pieces

    s = position({0: "K2", 6: "K27", 11: "K31", 12: "C25"}, holder=0, extended=True)
    s = edit(s, setpiece=("punt", 0, sq("K2"), 0, False))
    assert set_pieces.offside_mask(s) == 1 << 6
    corner = edit(s, setpiece=("corner", 0, sq("A32"), 5, False), phase="sp-kick")
    assert texts(corner) == {"kick 1", "kick 2", "kick 1 normal", "kick 2 normal"}


def test_set_piece_taker_may_not_touch_the_ball_again_first() -> None:
    s = position({5: "K10", 15: "A30"}, ball="K12", phase="moving", points=2, extended=True, banned=5)
    s = act(s, "move K10-K12")
    assert s.setpiece[0] == "free-kick" and s.setpiece[1] == 1 and s.setpiece[4] is False


def test_position_violation_is_a_direct_free_kick() -> None:
    """Extended "Fouls and Sanctions": restrictions broken at the end of a turn."""
    s = position({5: "K10"}, ball="A30", phase="moving", points=6, extended=True)
    s = act(s, "move K10-K16")
    assert not s.setpiece
    s = position({5: "K20", 11: "A32"}, ball="A25", phase="moving", points=6, extended=True)
    s = act(s, "move K20-K26")
    assert not s.setpiece
    s = position({5: "K8", 0: "A1"}, ball="A25", phase="moving", points=6, extended=True)
    s = act(s, "move K8-K2")  # a field player in his own goal area: a penalty for seat 1
    assert s.setpiece[0] == "penalty" and s.setpiece[1] == 1


def test_free_moves_two_each_alternating_taking_team_first() -> None:
    """Rulebook "Free moves"."""
    s = position({5: "B10", 15: "E12"}, holder=5, extended=True)
    s = act(s, "kick 1")
    s = act(roll(s, "kick-roll direct 4"), "path B10 W2 out")
    assert s.setpiece[0] == "throw-in" and s.team == 1 and s.phase == "sp-taker"
    s = act(s, "pick E12")
    assert s.pos[15] == sq("A10") and s.phase == "free" and s.current_players() == (1,)
    s = act(act(s, "pick U4"), "to T4")
    assert s.current_players() == (0,) and s.pos[12] == sq("T4")
    s = act(s, "done")
    s = act(act(s, "pick U6"), "to T6")
    assert s.phase == "throw-roll"


def test_throw_in_one_die_three_directions_over_players() -> None:
    """Rulebook "Throw-In" and RULINGS Soccero 7."""
    s = position({15: "A10", 16: "C13", 5: "B11"}, holder=15, team=1, extended=True, phase="throw-roll")
    s = edit(s, setpiece=("throw-in", 1, sq("A10"), 15, False))
    s = roll(s, "roll 3")
    assert texts(s) == {"throw E", "throw NE", "throw SE"}
    s = act(s, "throw NE")
    assert s.holder == 16 and s.phase == "header"  # arrived in the air on the exact number


def test_throw_of_one_straight_in_lands_on_the_edge_square_and_the_thrower_steps_off() -> None:
    """Rulebook "Throw-In": the thrower is beyond the line, so a 1 straight in reaches the edge
    square; "after the throw-in the thrower is moved to the nearest free square" (not a second
    touch by the taker)."""
    s = position({15: "A10", 5: "B11"}, holder=15, team=1, extended=True, phase="throw-roll")
    s = edit(s, setpiece=("throw-in", 1, sq("A10"), 15, False))
    s = act(roll(s, "roll 1"), "throw E")
    assert s.ball == sq("A10") and s.holder == -1 and not s.setpiece
    assert s.pos[15] == sq("A9")  # nearest free square to his place beyond the line, first in board order
    assert s.team == 0 and s.phase == "roll"


def test_goal_kick_after_an_attacker_kicks_over_the_byline() -> None:
    s = _kick({5: "K28", 11: "A32"}, 5, "direct", 6, extended=True)
    s = act(s, "path K28 N5 out")
    assert s.setpiece[0] == "goal-kick" and s.setpiece[1] == 1 and s.phase == "sp-spot"
    assert len(texts(s)) == 14
    s = act(s, "pick K31")
    assert s.pos[11] == sq("K31") and s.holder == 11 and s.phase == "free"
    assert s.current_players() == (1,)


def test_goal_kick_clears_field_players_from_both_penalty_areas() -> None:
    from soccerdesk.rules.soccero import set_pieces

    s = position({5: "K29", 11: "K31"}, holder=11, team=1, extended=True)
    s = edit(s, setpiece=("goal-kick", 1, sq("K31"), 11, False))
    assert set_pieces.misplaced(s, 0) == [5]
    s = meta(s, set_pieces.begin_free_moves(s))
    s = act(s, "done")  # seat 1 has nobody to move
    assert texts(s) == {"pick K29"}  # seat 0 must first move its player out


def test_corner_after_a_defender_kicks_over_his_own_byline() -> None:
    s = _kick({5: "C3", 11: "A32"}, 5, "direct", 3, extended=True)
    s = act(s, "path C3 S3 out")
    assert s.setpiece[0] == "corner" and s.setpiece[1] == 1 and s.setpiece[2] == sq("A1")
    assert s.phase == "sp-taker"
    s = act(s, sorted(texts(s))[0])
    assert s.ball == sq("A1")
    while s.phase == "free":
        s = (
            act(s, "done")
            if "done" in texts(s)
            else act(act(s, sorted(texts(s))[0]), sorted(texts(act(s, sorted(texts(s))[0])))[0])
        )
    assert s.phase == "sp-kick"
    assert texts(s) == {"kick 1", "kick 2", "kick 1 normal", "kick 2 normal"}  # no direct goal
    assert all(B.distance(s.pos[p], sq("A1")) > 1 for p in range(11))


def test_free_kick_wall_and_shot_rules() -> None:
    """Rulebook "Free Kicks": a wall of up to three, nobody adjacent, direct may shoot."""
    from soccerdesk.rules.soccero import set_pieces

    s = position({5: "K20", 15: "K21", 16: "M24"}, ball="A30", phase="roll", team=1, extended=True)
    events: list[Any] = []
    s = meta(s, set_pieces.start(s, "free-kick", 0, sq("K20"), True, events))
    s = act(s, "pick K20")
    assert s.phase == "wall" and s.current_players() == (1,)
    s = act(s, "pick M24")
    wall = texts(s)
    assert "to K23" in wall and "to K22" in wall and "to K21" not in wall and "to K25" not in wall
    s = act(act(s, "to K22"), "done")
    assert s.phase == "free" and s.current_players() == (0,)
    assert "pick K21" in texts(act(s, "done"))  # seat 1's player next to the ball must leave
    s2 = edit(s, phase="sp-kick", decider=0, pending=())
    assert "shoot 2" in texts(s2)
    s3 = edit(s2, setpiece=(*s2.setpiece[:4], False))
    assert "shoot 2" not in texts(s3)


def test_wall_may_take_an_attackers_square_and_he_is_placed_elsewhere() -> None:
    """Rulebook "Free Kicks": opponents on the wall squares are placed by their manager after
    the wall stands, on permitted squares, before the free moves (which they do not use up)."""
    from soccerdesk.rules.soccero import set_pieces

    s = position({5: "K20", 6: "K23", 7: "L23", 16: "M26"}, ball="A30", phase="roll", team=1, extended=True)
    s = meta(s, set_pieces.start(s, "free-kick", 0, sq("K20"), True, []))
    s = act(act(s, "pick K20"), "pick M26")
    assert "to K23" in texts(s)  # held by seat 0's player 6
    s = act(s, "to K23")
    assert s.pos[16] == s.pos[6] == sq("K23")
    s = act(s, "done")
    assert s.phase == "wall-clear" and s.current_players() == (0,) and texts(s) == {"pick K23"}
    s = act(s, "pick K23")
    targets = texts(s)
    assert "to K23" not in targets and "to L23" not in targets  # both taken
    assert "to K26" in targets
    s = act(s, "to K26")
    assert s.pos[6] == sq("K26") and s.pos[16] == sq("K23")
    assert s.phase == "free" and s.current_players() == (0,)
    assert s.view(None)["state"]["setpiece"]["free_moves_left"] == [2, 2]


def test_wall_squares_held_by_the_taker_or_a_defender_are_not_offered() -> None:
    from soccerdesk.rules.soccero import set_pieces

    s = position({5: "K20", 15: "K22", 16: "M26"}, ball="A30", phase="roll", team=1, extended=True)
    s = meta(s, set_pieces.start(s, "free-kick", 0, sq("K20"), True, []))
    s = act(act(s, "pick K20"), "pick M26")
    assert "to K22" not in texts(s) and "to K20" not in texts(s)
    assert "taken" in s.explain_illegal(1, GAME.parse_action("to K22"))


def test_indirect_free_kick_in_the_opponents_goal_area_moves_out() -> None:
    from soccerdesk.rules.soccero import set_pieces

    s = position({}, ball="A30", phase="roll", team=1, extended=True)
    s = meta(s, set_pieces.start(s, "free-kick", 0, sq("K31"), False, []))
    assert s.setpiece[2] == sq("K30")


def test_free_kick_from_own_goal_area_any_square_and_must_leave_the_penalty_area() -> None:
    from soccerdesk.rules.soccero import set_pieces

    s = position({5: "E10"}, ball="A30", phase="roll", team=1, extended=True)
    s = meta(s, set_pieces.start(s, "free-kick", 0, sq("K2"), True, []))
    assert s.phase == "sp-spot" and len(texts(s)) == 14
    s = act(act(s, "pick K2"), "pick E10")
    s = edit(
        s, phase="sp-kick", decider=0, pending=(), pos=tuple(sq("K2") if p == 5 else q for p, q in enumerate(s.pos))
    )
    s = act(s, "kick 1 normal")
    retaken = roll(s, "kick-roll direct 2")
    assert retaken.phase == "sp-kick" and any(e.kind == "retake" for e in retaken.events)
    s = roll(s, "kick-roll direct 4")
    assert "path K2 N4" in texts(s) and "path K2 NE4" in texts(s) and "path K2 E4" not in texts(s)


def test_penalty_kick_placement() -> None:
    """Rulebook "Penalty Kicks": others outside the area and arc and further from the byline."""
    from soccerdesk.rules.soccero import set_pieces

    s = position({5: "K7", 15: "I6", 16: "E30", 11: "A32"}, ball="A30", phase="roll", team=1, extended=True)
    s = meta(s, set_pieces.start(s, "penalty", 1, sq("K4"), False, []))
    s = act(s, "pick E30")
    assert s.pos[16] == sq("K4") and s.pos[0] == sq("K1")
    assert {1, 5} <= set(set_pieces.misplaced(s, 0)) and 15 in set_pieces.misplaced(s, 1)
    assert 0 not in set_pieces.misplaced(s, 0) and 16 not in set_pieces.misplaced(s, 1)  # keeper and taker stay


def test_set_piece_curve_kick_flies_unstopped_unless_normal_rules_announced() -> None:
    """Rulebook "Kicking the ball in special situations"."""
    s = position({5: "K10", 6: "K12", 15: "K13"}, holder=5, extended=True, phase="sp-kick")
    s = edit(s, setpiece=("free-kick", 0, sq("K10"), 5, False))
    flying = roll(act(s, "kick 1"), "kick-roll curve 4")
    assert "path K10 N4" in texts(flying)
    landed = act(flying, "path K10 N4")
    assert landed.ball == sq("K14") and landed.banned == 5
    ground = roll(act(s, "kick 1 normal"), "kick-roll curve 4")
    assert "path K10 N2" in texts(ground) and "path K10 N4" not in texts(ground)


def test_goalkeeper_punt_not_after_a_back_pass() -> None:
    """Extended "Goalkeeper's Punt Kick"."""
    s = position({0: "K3", 5: "K6", 15: "F4"}, holder=0, extended=True)
    assert "punt" in texts(s)
    assert "punt" not in texts(edit(s, back_pass=0))
    s = act(s, "punt")
    assert s.setpiece[0] == "punt" and s.phase == "free"
    assert 15 in __import__("soccerdesk.rules.soccero.set_pieces", fromlist=["x"]).misplaced(s, 1)


def test_a_shot_at_the_own_goal_is_just_out_over_the_byline() -> None:
    s = _kick({5: "K3", 0: "A1", 11: "A32"}, 5, "direct", 4, shot=True)
    assert not any(t.endswith("goal") for t in texts(s)) and "path K3 S3 out" in texts(s)


def test_keeper_who_wins_the_ball_himself_may_punt() -> None:
    s = position({0: "K3", 15: "K5"}, holder=15, phase="moving", points=2, extended=True, back_pass=0)
    s = act(s, "move K3-K5")
    assert s.holder == 0 and s.back_pass == -1


@pytest.mark.parametrize(
    ("receiver", "ball_at", "offside"),
    [
        ("K27", "K20", True),  # ahead of the ball and of the second-last defender
        ("K25", "K20", False),  # level with the second-last defender (C25): onside
        ("K27", "K28", False),  # behind the ball
        ("K14", "K10", False),  # in his own half
    ],
)
def test_offside_position_cases(receiver: str, ball_at: str, offside: bool) -> None:
    """RULINGS Soccero 6."""
    from soccerdesk.rules.soccero import set_pieces

    s = position({5: ball_at, 6: receiver, 11: "K31", 12: "C25", 13: "A10"}, holder=5, extended=True)
    s = edit(s, pos=tuple(sq("C12") if p == 12 and receiver == "K14" else q for p, q in enumerate(s.pos)))
    assert bool(set_pieces.offside_mask(s) >> 6 & 1) == offside


def test_free_kick_taker_in_his_own_goal_area_is_not_punished_for_standing_there() -> None:
    s = position({5: "K2", 15: "K20"}, holder=5, extended=True, phase="sp-kick")
    s = edit(s, setpiece=("free-kick", 0, sq("K2"), 5, True))
    s = act(roll(act(s, "kick 2"), "kick-roll air 9"), "path K2 N9")
    assert not s.setpiece and s.team == 1 and s.ball == sq("K11")


def test_every_move_keeps_the_rest_of_the_die_usable() -> None:
    """RULINGS Soccero 3: two boxed-in players who can go 2 squares each use 4 of a 5."""
    boxes = ["A9", "B9", "C9", "A10", "A11", "B11", "C11", "E10"]  # B10 may only go east, 2 squares
    walls = {12 + i: name for i, name in enumerate(boxes)}
    mates = ["L9", "M9", "N9", "L10", "N10", "L11", "N11", "M13"]  # M10 may only go north, 2
    walls.update({3 + i: name for i, name in enumerate(mates)})
    s = position({1: "B10", 2: "M10", **walls}, ball="K20", phase="roll")
    s = edit(s, moved=sum(1 << p for p in range(11) if p not in (1, 2)))
    s = roll(s, "roll 5")
    assert s.points == 4
    assert texts(s) == {"move B10-D10", "move M10-M12"}  # one square would strand a point


def test_kick_roll_probabilities_follow_the_dice() -> None:
    """Rulebook "Kicking the Ball": kick die 2 direct, 3 curve, 1 air; one or two distance dice."""
    s = position({5: "K10"}, holder=5)
    s = act(s, "kick 2")
    outcomes = {str(a): p for a, p in s.chance_outcomes()}
    assert outcomes["kick-roll curve 7"] == pytest.approx(3 / 6 * 6 / 36)
    assert outcomes["kick-roll air 2"] == pytest.approx(1 / 6 * 1 / 36)
    assert sum(outcomes.values()) == pytest.approx(1)
    assert "kick-roll direct 1" not in outcomes


def test_kickers_team_mate_on_the_fetch_square_makes_room() -> None:
    """RULINGS Soccero 5: two share a square only at a steal, so the one standing there steps aside."""
    s = _kick({5: "B10", 6: "A10", 15: "C12"}, 5, "air", 4)
    s = act(act(s, "path B10 W2 out"), "let")  # over player 6 on A10 and out there
    assert s.pos[15] == sq("A10") and s.holder == 15 and s.pos[6] == sq("A9") and s.forced == -1
    assert [e.kind for e in s.events][:2] == ["out", "make-room"]
    assert s.events[1].text == "Player 7 of seat 0 makes room: A10-A9."


def test_issue_14_a_second_fetch_leaves_nobody_sharing_a_square() -> None:
    """Issue 14 item 3: two fetches in a row once left two players on A20 with nobody obliged to move."""
    s = position({5: "A20", 6: "C25", 15: "C21"}, holder=5)
    s = act(roll(act(s, "kick 1"), "kick-roll direct 1"), "path A20 W1 out")
    assert s.pos[15] == sq("A20") and s.pos[5] != sq("A20") and s.team == 1
    s = act(roll(act(s, "kick 1"), "kick-roll curve 5"), "path A20 N4 NW1 out")
    assert s.pos[6] == sq("A24") and s.holder == 6
    assert len(set(s.pos)) == len(s.pos) and s.forced == -1


def test_the_player_who_lost_the_ball_stays_obliged_until_he_has_left() -> None:
    """Rulebook "Stealing the Ball": boxed in on A1 he cannot leave in his team's turn; he still
    shares the square, so he must go first in the next one (the obligation used to lapse)."""
    s = position({5: "C3", 6: "B3", 15: "A1", 16: "A2", 17: "B1"}, holder=15, phase="moving", points=3)
    s = act(act(s, "move C3-A1"), "move B3-B2")  # the steal, then A1's last free neighbour is taken
    assert s.team == 1 and s.forced == 15 and s.holder == 5
    s = roll(s, "roll 1")
    assert not any(t.startswith("move A1") for t in texts(s))
    s = act(s, "move U4-U5")
    assert s.team == 0 and s.forced == 15
    s = act(roll(act(s, "move"), "roll 1"), "move B2-C2")
    s = roll(s, "roll 2")
    assert s.team == 1 and {t.split("-")[0] for t in texts(s)} == {"move A1"}
    s = act(s, "move A1-B2")
    assert s.forced == -1


def test_forbidden_free_move_is_explained() -> None:
    s = position({5: "C3", 11: "A32", 15: "K20"}, holder=5, extended=True)
    s = act(roll(act(s, "kick 1"), "kick-roll direct 3"), "path C3 S3 out")  # a corner for seat 1
    s = act(act(s, "pick K20"), "done")  # seat 1 takes it with player 15, then no free moves
    s = act(s, "pick S4")  # seat 0 moves a defender: not next to the corner square
    assert "may not stand there" in s.explain_illegal(0, GAME.parse_action("to B2"))
    assert "taken" in s.explain_illegal(0, GAME.parse_action("to S6"))


@pytest.mark.parametrize("extended", [False, True])
def test_random_play_keeps_the_field_consistent(extended: bool) -> None:
    """Never three on a square, two only as the rulebook allows, the holder on the ball."""
    rng = random.Random(8)
    s = GAME.new_match(seed=8, extended=extended, quick_setup=True)
    goals = (0, 0)
    while not s.is_terminal():
        if s.phase not in ("setup", "toss", "ends") and all(q >= 0 for q in s.pos):
            counts: dict[int, int] = {}
            for q in s.pos:
                counts[q] = counts.get(q, 0) + 1
            assert max(counts.values()) <= 2
            shared = [q for q, n in counts.items() if n == 2]
            assert not shared or (s.forced >= 0 and shared == [s.pos[s.forced]] == [s.ball])
            if s.holder >= 0:
                assert s.pos[s.holder] == s.ball
            assert s.goals[0] >= goals[0] and s.goals[1] >= goals[1]
            goals = s.goals
        seat = s.current_players()[0]
        s = s.apply(seat, sample_chance(s, rng) if seat == CHANCE else rng.choice(s.legal_actions(seat)))


# --- issue 14: the independent check's reproductions -------------------------------------------


def test_issue_14_a_weak_shot_block_is_a_touch_that_ends_the_takers_ban() -> None:
    """Rulebook "Fouls and Sanctions": the taker may touch the ball again once another player has;
    the defender who blocks a weak shot has. So the taker's later steal is no foul."""
    s = position({5: "K20", 15: "K24"}, holder=5, extended=True, phase="sp-kick")
    s = edit(s, setpiece=("free-kick", 0, sq("K20"), 5, True))
    s = act(roll(act(s, "shoot 1"), "kick-roll direct 2"), "path K20 N2")
    assert s.pos[15] == sq("K22") and s.holder == 15 and s.view(0)["state"]["banned"] is None
    s = act(roll(act(s, "move"), "roll 1"), "move U4-U5")
    s = act(roll(s, "roll 2"), "move K20-K22")
    assert s.holder == 5 and not s.setpiece and s.team == 1 and s.phase == "roll"


def test_issue_14_a_penalty_keeper_who_stood_on_the_spot_goes_to_the_middle_of_his_goal_line() -> None:
    """Rulebook "Penalty Kicks": a steal foul on the victim's roll of 6 in the stealer's area."""
    s = position({0: "K4", 5: "K7", 16: "K5"}, holder=16, phase="moving", points=2, extended=True)
    s = roll(act(s, "move K7-K5"), "roll 6")
    assert s.setpiece[0] == "penalty" and s.view(1)["state"]["forced"] == 16  # still on K5 with the stealer
    s = act(s, "pick K5")
    assert s.pos[0] == sq("K1") and s.pos[16] == sq("K4") and s.forced == -1
    assert len(set(s.pos)) == len(s.pos)
    rng = random.Random(1)
    while s.phase == "free":  # free moves never take the keeper off his line
        s = act(s, str(rng.choice(s.legal_actions(s.current_players()[0]))))
        assert s.pos[0] == sq("K1")
    assert s.phase == "sp-kick"


def _only_movers(players: dict[int, str], movers: tuple[int, ...], points: int) -> SocceroState:
    s = position(players, ball="A30", phase="roll")
    s = edit(s, moved=sum(1 << p for p in range(11) if p not in movers))
    return roll(s, f"roll {points}")


def test_issue_14_exact_die_use_sees_a_move_that_opens_a_line() -> None:
    """RULINGS Soccero 3, the issue's case: K9-K10 frees J8's diagonal, J8-L10 uses the other 2."""
    walls = ["J9", "J10", "K8", "L8", "L9", "K11", "M11", "I7", "I8", "I9", "J7", "K7"]
    players = {1: "K9", 2: "J8"} | {p: name for p, name in zip([*range(3, 11), *range(11, 22)], walls, strict=False)}
    s = _only_movers(players, (1, 2), 3)
    assert s.points == 3 and not any(e.kind == "short-move" for e in s.events)
    assert texts(s) == {"move K9-K10"}  # K9-L10 would take J8's only landing square
    s = act(s, "move K9-K10")
    assert texts(s) == {"move J8-L10"}
    s = act(s, "move J8-L10")
    assert s.team == 1 and s.pos[1] == sq("K10") and s.pos[2] == sq("L10")


def test_issue_14_exact_die_use_refuses_a_move_that_blocks_the_rest() -> None:
    """RULINGS Soccero 3: J10 may go 1 only after K9 has gone 2 past K10 (before, he would block K9's line)."""
    walls = ["J8", "J9", "K8", "L8", "L9", "L10", "K12", "I9", "I10", "I11", "J11", "L12"]
    players = {1: "K9", 2: "J10"} | {p: name for p, name in zip([*range(3, 11), *range(11, 22)], walls, strict=False)}
    s = _only_movers(players, (1, 2), 3)
    assert s.points == 3 and texts(s) == {"move K9-K11"}
    s = act(s, "move K9-K11")
    assert texts(s) == {"move J10-K10", "move J10-K9"}  # K9 is free now


def test_soccero_log_lines_start_with_a_capital_letter() -> None:
    """Issue 13 item 13: "player 4 of seat 0 set up on N8." read as a sentence start in lower case."""
    for extended in (False, True):
        rng = random.Random(4)
        s = GAME.new_match(seed=4, extended=extended, turns=6)
        while not s.is_terminal():
            seat = s.current_players()[0]
            s = s.apply(seat, sample_chance(s, rng) if seat == CHANCE else rng.choice(s.legal_actions(seat)))
            assert all(e.text[0].isupper() for e in s.events), [e.text for e in s.events]


# --- the independent rules audit: its reproductions ------------------------------------------


def test_the_set_piece_taker_is_excused_only_on_his_square_at_the_end_of_the_kicks_turn() -> None:
    """docs/rulings.md, Soccero, "Set-piece taker": a field player made to take a free kick in his
    own goal area is not punished there when his kick's turn ends (even if a team-mate took the
    ball), but he is at the end of his team's next turn; nor is he excused anywhere else in a
    later turn (rulebook "Fouls and Sanctions": breaking the restrictions is a direct free kick)."""
    s = position({5: "K2", 6: "K8", 15: "K20"}, holder=5, extended=True, phase="sp-kick")
    s = edit(s, setpiece=("free-kick", 0, sq("K2"), 5, True))
    s = act(roll(act(s, "kick 1"), "kick-roll direct 6"), "path K2 N6")
    assert s.holder == 6 and not s.setpiece and s.team == 1 and s.phase == "roll"
    s = act(roll(s, "roll 1"), "move U4-U5")
    s = act(roll(act(s, "move"), "roll 1"), "move S6-S7")  # the taker is still in his goal area
    assert s.setpiece[:2] == ("penalty", 1)
    s = position({5: "K25", 15: "K10"}, holder=5, extended=True, phase="sp-kick")
    s = edit(s, setpiece=("free-kick", 0, sq("K25"), 5, False))
    s = act(roll(act(s, "kick 1"), "kick-roll direct 3"), "path K25 W3")  # to the empty H25
    assert s.ball == sq("H25") and s.banned == 5
    s = act(roll(s, "roll 1"), "move U4-U5")
    s = act(roll(s, "roll 6"), "move K25-K31")  # still banned, into the opponents' goal area
    assert s.setpiece[:3] == ("free-kick", 1, sq("K31")) and s.setpiece[4] is True


def test_a_free_kick_from_the_own_penalty_area_is_not_stopped_inside_it() -> None:
    """Rulebook "Free Kicks Awarded from ... Penalty Area": the kick must leave the penalty area,
    so team-mates inside it are not asked to stop the air ball (docs/rulings.md, Soccero); one
    outside it is."""
    s = position({4: "H4", 5: "H5", 6: "H8"}, holder=4, extended=True, phase="sp-kick")
    s = edit(s, setpiece=("free-kick", 0, sq("H4"), 4, True))
    s = act(roll(act(s, "kick 1"), "kick-roll air 6"), "path H4 N6")
    assert s.phase == "air-stop" and s.view(0)["state"]["air_stop"] == {"player": 6, "square": "H8"}
    s = act(s, "let")
    assert s.ball == sq("H10") and s.holder == -1


def test_a_keeper_may_not_punt_a_back_pass_he_has_carried() -> None:
    """Rulebook "Goalkeeper's Punt Kick": not when the ball was kicked to him by a team-mate;
    carrying it on does not change where it came from. His own kick ends that (docs/rulings.md)."""
    s = position({0: "K3", 1: "K8"}, holder=1, extended=True)
    s = act(roll(act(s, "kick 1"), "kick-roll direct 5"), "path K8 S5")
    assert s.holder == 0 and s.back_pass == 0
    s = act(roll(s, "roll 1"), "move U4-U5")
    assert "punt" not in texts(s)
    s = act(roll(act(s, "move"), "roll 1"), "move K3-K4 ball K4")
    s = act(roll(s, "roll 1"), "move U6-U7")
    assert s.holder == 0 and "punt" not in texts(s)
    s = act(roll(act(s, "kick 1"), "kick-roll direct 1"), "path K4 N1")  # he kicks it away himself
    s = act(roll(s, "roll 1"), "move U8-U9")
    s = act(roll(s, "roll 1"), "move K4-K5")  # and steps onto it again
    s = act(roll(s, "roll 1"), "move U10-U11")
    assert s.holder == 0 and "punt" in texts(s)


def test_the_takers_second_touch_is_punished_where_he_touched_the_ball() -> None:
    """Rulebook "Special Situations": an indirect free kick "from the site"; docs/rulings.md:
    where it happened, the square where he picked the ball up, not where his move ended."""
    s = position({5: "K18"}, ball="K20", phase="roll", extended=True, banned=5)
    s = act(roll(s, "roll 4"), "move K18-K22 ball K22")
    assert s.setpiece[:3] == ("free-kick", 1, sq("K20")) and s.setpiece[4] is False
