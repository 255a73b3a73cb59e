"""The Soccero heuristic bot: shoots in reach, takes the goal route, steals, keeps the keeper home."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from soccerdesk.bots import make_bot
from soccerdesk.rules import CHANCE, get_game, sample_chance
from soccerdesk.rules.soccero.state import SocceroState

GAME = get_game("soccero")
B = GAME.board  # type: ignore[attr-defined]
BOT = make_bot("heuristic", "soccero")


def position(
    players: dict[int, str], *, holder: int | None = None, ball: str | None = None, **fields: Any
) -> SocceroState:
    """Seat 0 defends row 1; unnamed players wait on the S (seat 0) and U (seat 1) columns."""
    start = GAME.new_match(seed=0, **fields.pop("options", {}))
    pos = tuple(
        B.square(players[p]) if p in players else (1 + 2 * (p % 11)) * B.columns + (18 if p < 11 else 20)
        for p in range(22)
    )
    s = replace(
        start,
        pos=pos,
        ball=pos[holder] if holder is not None else B.square(ball) if ball else -1,
        holder=-1 if holder is None else holder,
        low_team=0,
        kickoff_team=0,
        **{"phase": "turn", "team": 0, "decider": 0, **fields},
    )
    s._set_meta(start.info, None, ())
    return s


def decide(s: SocceroState) -> str:
    return str(BOT.decide(s, s.current_players()[0], random.Random(1)))


def test_shoots_when_the_goal_is_in_reach() -> None:
    assert decide(position({5: "K29"}, holder=5)).startswith("shoot")
    assert not decide(position({5: "K12"}, holder=5)).startswith("shoot")


def test_takes_a_route_into_the_goal() -> None:
    s = position({5: "K28"}, holder=5, phase="kick-path", kick=(True, 2, "", "curve", 6, 5))
    assert decide(s).endswith("goal")


def test_passes_to_a_free_team_mate_rather_than_an_opponent() -> None:
    s = position({5: "K10", 6: "K14", 15: "H7"}, holder=5, phase="kick-path", kick=(False, 1, "", "direct", 4, 5))
    assert decide(s) == "path K10 N4"


def test_steals_on_the_exact_number() -> None:
    s = position({5: "K10", 15: "K13"}, holder=15, phase="moving", points=3)
    assert decide(s) == "move K10-K13"


def test_carries_the_ball_forward() -> None:
    """Up the field: all three points, or two and one left for a runner (the move planner)."""
    s = position({5: "K10"}, holder=5, phase="moving", points=3)
    action = decide(s)
    assert action.startswith("move K10-") and " ball " in action
    assert B.ys[B.square(action.split()[-1])] >= B.ys[B.square("K12")]


def test_keeper_stays_near_his_goal() -> None:
    s = position({0: "K8"}, ball="K20", phase="moving", points=4)
    s = replace(s, moved=sum(1 << p for p in range(1, 11)))
    s._set_meta(GAME.new_match(seed=0).info, None, ())
    assert decide(s) == "move K8-K4"


def test_stops_an_opponents_air_ball() -> None:
    s = position({5: "K12", 15: "K10"}, ball="K10", phase="air-stop", team=1, decider=0, path=(5,))
    s = replace(s, pending=(B.square("K16"), "", "", -1, True, tuple(B.square(f"K{r}") for r in range(11, 17))))
    s._set_meta(GAME.new_match(seed=0).info, None, ())
    assert decide(s) == "stop"


def test_avoids_breaking_the_position_restrictions_in_extended_rules() -> None:
    s = position({5: "K8", 0: "A1"}, ball="T30", phase="moving", points=6, options={"extended": True})
    assert decide(s) != "move K8-K2"


def _play(seed: int, options: dict[str, Any]) -> tuple[int, int]:
    rng = random.Random(seed)
    rand = make_bot("random", "soccero")
    s = GAME.new_match(seed=seed, **options)
    while not s.is_terminal():
        seat = s.current_players()[0]
        if seat == CHANCE:
            s = s.apply(seat, sample_chance(s, rng))
        else:
            s = s.apply(seat, (BOT if seat == 0 else rand).decide(s, seat, rng))
    return s.score


def test_beats_random_play_in_short_matches() -> None:
    """(Decision time is measured by benchmarks/match_shape.py, not here.)"""
    goals = [0, 0]
    for seed, extended in ((1, False), (2, True), (3, False), (4, True)):
        score = _play(seed, {"quick_setup": True, "extended": extended})
        goals[0] += score[0]
        goals[1] += score[1]
    assert goals[0] > goals[1]


def test_heads_into_the_goal_when_the_die_allows() -> None:
    s = position({6: "L28", 11: "A32"}, holder=6, phase="header-aim", options={"extended": True})
    s = replace(s, kick=(False, 1, "header", "air", 5, 6), path=(6,))
    s._set_meta(GAME.new_match(seed=0).info, None, ())
    assert decide(s) == "head N"


def test_chooses_the_kick_by_its_expected_route() -> None:
    """A holder who carried the ball last (red side up) must kick; the dice are chosen by the
    expected best route over the distance dice, and a team-mate in reach makes a pass."""
    s = position({5: "K10", 6: "K14", 15: "K9"}, holder=5, red=5)
    from soccerdesk.bots.soccero import _held_value, _kick_values

    values = _kick_values(s, 0, False)
    assert decide(s) == f"kick {max((1, 2), key=lambda d: values[(False, d)])}"
    # Kicking it on (often to the team-mate on K14) beats leaving it beside the opponent on K9.
    assert values[(False, 2)] > _held_value(s, 0, s.ball) + 50


def test_a_defender_heads_the_ball_away_from_his_goal() -> None:
    """Extended "Headers" for either team: seat 1 (defending row 32) heads an opponent's air ball back south."""
    s = position({16: "K28", 11: "K32"}, holder=16, phase="header-aim", team=1, decider=1, options={"extended": True})
    s = replace(s, kick=(False, 1, "header", "air", 4, 16), path=(16,), turn_team=0)
    s._set_meta(GAME.new_match(seed=0).info, None, ())
    assert decide(s) == "head S"


def test_places_a_player_the_wall_displaced() -> None:
    """Extended "Free Kicks": the attackers' manager puts a displaced player on a permitted square."""
    from soccerdesk.rules.soccero import set_pieces

    s = position({5: "K20", 6: "K23", 16: "K23"}, holder=5, phase="wall-clear", options={"extended": True})
    s = replace(s, setpiece=("free-kick", 0, B.square("K20"), 5, True), pending=(0, -1))
    s._set_meta(GAME.new_match(seed=0).info, None, ())
    assert decide(s) == "pick K23"
    s = replace(s, pending=(0, 6))
    s._set_meta(GAME.new_match(seed=0).info, None, ())
    choice = decide(s)
    assert choice.startswith("to ") and B.square(choice[3:]) in set_pieces.free_targets(s, 6)


def test_danger_is_the_nearest_opponent_with_a_clear_line() -> None:
    """An opponent four squares away in a straight line steps onto the ball on a 4, 5 or 6; a
    team-mate in between blocks him (rulebook "Moving Players": no passing through players)."""
    from soccerdesk.bots import soccero

    s = position({5: "K10", 15: "K14"}, holder=5)
    assert soccero._danger(s, 0, B.square("K10")) == soccero.DANGER * 3 / 6
    blocked = position({5: "K10", 6: "K12", 15: "K14"}, holder=5)
    assert soccero._danger(blocked, 0, B.square("K10")) == 0.0
    # The same, looked at before the team-mate moves in.
    assert soccero._danger(s, 0, B.square("K10"), B.square("M12"), B.square("K12")) == 0.0


def test_shot_chance_grows_near_goal_and_a_wall_of_defenders_costs_it() -> None:
    from soccerdesk.bots.soccero import shot_chance

    s = position({5: "K26", 11: "K31"}, holder=5)
    near, far = shot_chance(s, 0, B.square("K26")), shot_chance(s, 0, B.square("K21"))
    assert 0.2 < near < 1 and 0 < far < near
    wall = position({5: "K26", 11: "K31", 12: "I28", 13: "J28", 14: "K28", 15: "L28", 16: "M28"}, holder=5)
    assert shot_chance(wall, 0, B.square("K26")) < near


def test_the_bot_expects_a_save_of_a_shot_from_beside_the_keeper() -> None:
    """RULINGS Soccero 2 as the rules read it (docs/rulings.md): the square the shot is kicked
    from counts, so the bot no longer takes a shot from beside the keeper for a sure goal."""
    from soccerdesk.bots.soccero import _save_chance, shot_chance

    beside = position({5: "J30", 11: "K30"}, holder=5)
    away = position({5: "J30", 11: "O30"}, holder=5)
    assert shot_chance(beside, 0, B.square("J30")) < shot_chance(away, 0, B.square("J30"))
    aim = replace(beside, phase="kick-path", kick=(True, 1, "", "direct", 3, 5))
    aim._set_meta(beside.info, None, ())
    assert _save_chance(aim, 0, GAME.parse_action("path J30 N3 goal")) == 2 / 6


def test_the_bot_expects_the_keeper_to_stop_a_ground_shot_from_his_own_square() -> None:
    """docs/rulings.md, Soccero: a shot kicked from the keeper's square passes over him; on the
    ground he stops it, in the air (extended) he saves it on a 6."""
    from soccerdesk.bots.soccero import _save_chance, shot_chance

    shared = position({5: "K29", 11: "K29"}, holder=5, forced=11)
    assert shot_chance(shared, 0, B.square("K29")) < shot_chance(position({5: "K29"}, holder=5), 0, B.square("K29"))
    ground = replace(shared, phase="kick-path", kick=(True, 1, "", "direct", 4, 5))
    ground._set_meta(shared.info, None, ())
    assert _save_chance(ground, 0, GAME.parse_action("path K29 N4 goal")) == 1.0
    ext = position({5: "K29", 11: "K29"}, holder=5, forced=11, options={"extended": True})
    air = replace(ext, phase="kick-path", kick=(True, 1, "", "air", 4, 5))
    air._set_meta(ext.info, None, ())
    assert _save_chance(air, 0, GAME.parse_action("path K29 N4 goal")) == 1 / 6


def test_a_team_mate_steps_into_the_line_of_the_opponent_who_would_steal() -> None:
    """The holder carried the ball last turn (red side up); a team-mate covers him instead."""
    s = position({5: "K10", 6: "M12", 15: "K14"}, holder=5, red=5, phase="moving", points=2)
    assert decide(s) == "move M12-K12"


def test_the_keeper_leaves_the_pressing_to_field_players() -> None:
    """The opponents have the ball at the halfway line; the keeper is as near to it as any of
    his team-mates but stays home (only field players press)."""
    s = position({0: "K6", 5: "M13", 15: "K12"}, holder=15, phase="moving", points=3)
    for seed in range(5):
        action = str(BOT.decide(s, 0, random.Random(seed)))
        assert not action.startswith("move K6-") or B.ys[B.square(action.split("-")[1])] < B.ys[B.square("K6")]


def test_the_map_of_clear_lines_agrees_with_looking_from_each_square() -> None:
    """``_in_line_map`` (walking out from the players, cached per position) gives for every square
    what walking in from that square gives, in positions of real matches, steals included."""
    from soccerdesk.bots import soccero
    from soccerdesk.rules.api import play_out

    def walked_in(s: SocceroState, team: int, sq: int) -> int:
        occ = s.occupancy()
        taker = s.banned if s.banned >= 0 else s.setpiece[3] if s.setpiece else -1  # may not touch the ball
        for d in range(1, 7):
            for ray in B.rays[sq]:
                if len(ray) >= d and all(t not in occ for t in ray[: d - 1]):
                    q = occ.get(ray[d - 1])
                    if q is not None and q // 11 == team and q not in (s.forced, taker):
                        return d
        return 7

    seen: list[SocceroState] = []

    def note(s: SocceroState) -> bool:
        seen.append(s)
        return len(seen) % 300 == 0  # 300 positions of each match

    for seed, extended in ((3, False), (4, True)):
        bot_rng = random.Random(seed)
        play_out(
            GAME.new_match(seed=seed, extended=extended),
            lambda s, seat, rng=bot_rng: BOT.decide(s, seat, rng),
            random.Random(seed),
            stop=note,
        )
    assert any(s.forced >= 0 for s in seen)  # a steal's shared square is among them
    for s in seen[::5]:
        for team in (0, 1):
            assert soccero._in_line_map(s, team) == [walked_in(s, team, sq) for sq in range(B.size)]


def test_the_searchs_shortlist_is_every_legal_action_best_first() -> None:
    """``ranked`` (the hard and expert search's candidates) orders all legal actions by the values
    the heuristic decides by: what the heuristic plays is first, or tied with the first."""
    from soccerdesk.bots import soccero
    from soccerdesk.rules.api import play_out

    checked: dict[str, int] = {}

    def choose(s: SocceroState, seat: int) -> Any:
        legal = s.legal_actions(seat)
        picked = BOT.choose(s, seat, legal, random.Random(s.ply))
        order = BOT.ranked(s, seat, legal)
        assert sorted(map(str, order)) == sorted(map(str, legal))
        value = soccero._values(s, seat)
        if order[0] != picked:
            assert value is not None and value(order[0]) == value(picked)
        if value is not None:
            values = [value(a) for a in order[1:]]
            assert values == sorted(values, reverse=True) or s.phase == "moving"  # a plan goes first
            checked[s.phase] = checked.get(s.phase, 0) + 1
        return picked

    play_out(GAME.new_match(seed=5), choose, random.Random(5), stop=lambda s: s.ply > 1500)
    assert checked.get("moving", 0) > 50 and checked.get("kick-path", 0) > 3
