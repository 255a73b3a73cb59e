"""A heuristic Soccero manager: carry and pass the ball up the field, shoot when it pays, press.

It scores each legal action with plain football sense instead of searching:

- the ball is worth more the further up the field it is and the better the shot from
  there (every route into the goal over the kick die and the distance dice, the keeper's
  save counted), less the chance that an opponent steps onto it on his next roll (he
  needs a clear straight line no longer than the die);
- with the ball: a movement turn is valued by the best square the holder can carry it to
  (averaged over the die) and, when he may not carry, by team-mates running up to be
  passed to; each kick choice (shot or not, one die or two) by its expected best route
  over the dice, so shots come when the goal is in reach;
- moving with the ball: team-mates run up the field, towards squares a kick reaches
  along a clear line, and step into an opponent's line to the holder to block the steal;
- without it: the nearest players press the ball (and steal it on the exact number), the
  others keep a shape that follows the ball; the goalkeeper stays home;
- three forwards stay up the field whoever has the ball: a long kick ahead of it while we
  attack, in the opponents' half while we defend (onside in the extended rules), so a ball
  won back has somebody to go to; one far short of his place runs there before the press;
- air balls are stopped by our players unless our own kick is going somewhere better;
- set pieces (extended rules): the nearest player takes them; a direct free kick with a real
  chance of a goal gets a wall on the ball's routes to goal; free moves put team-mates where
  the kick may land (into the box at a corner, for a header), or mark the opponents who would
  get it, and are declined when none does the set piece real good;
- a header is taken only when it may go in; otherwise the player keeps the ball.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from soccerdesk.bots import Bot, next_best
from soccerdesk.rules import State
from soccerdesk.rules.soccero import set_pieces
from soccerdesk.rules.soccero.actions import Aim, KickChoice, Path, SquareChoice, Step, Word
from soccerdesk.rules.soccero.board import DIRECTIONS, EXIT_GOAL, LOW
from soccerdesk.rules.soccero.play import (
    BESIDE_KEEPER,
    OVER_KEEPER,
    all_paths,
    doubtful_squares,
    flight,
    near_keeper,
    position_cache,
    restriction_ok,
    walk,
)
from soccerdesk.rules.soccero.set_pieces import permitted, second_last_row
from soccerdesk.rules.soccero.state import PLAYERS, SocceroState, evolve, goalkeeper, team_of, team_players


class HeuristicBot(Bot):
    """Soccero's rule-of-thumb manager (see the module docstring)."""

    name = "heuristic"

    def choose(self, state: State, seat: int, legal: list[Any], rng: random.Random) -> Any:
        s = state
        assert isinstance(s, SocceroState)
        phase = s.phase
        if phase == "moving":
            planned = _plan_with_ball(s, seat, legal)
            if planned is not None:
                return planned
        value = _values(s, seat)
        if value is not None:
            return _best(legal, value, rng)
        if phase in ("turn", "sp-kick"):
            return _turn_choice(s, seat, legal)
        if phase == "air-stop":
            return _air_stop(s, seat, legal)
        if phase == "header":
            return _header_choice(s, seat, legal)
        if phase in ("free", "wall", "wall-clear"):
            return _set_piece_choice(s, seat, legal)
        return legal[0] if phase in ("ends", "fetch", "block") else rng.choice(legal)

    def near_misses(self, state: State, seat: int, legal: list[Any]) -> list[Any]:
        """The choices a beginner might take instead of this bot's (``easy``'s slips): in a
        player's steps and a kick's path, the next best few within :data:`NEAR_MISS` points of
        the best. None where it decides by a rule (set-ups, the kick or move of a turn, set
        pieces, stopping an air ball): a random choice there set the keeper up in midfield or
        had him shoot from his own goal area."""
        s = state
        assert isinstance(s, SocceroState)
        if s.phase not in ("moving", "kick-path"):
            return []
        value = _values(s, seat)
        planned = _plan_with_ball(s, seat, legal) if s.phase == "moving" else None
        if planned is not None:
            # The carrier's planned step is the pick: the near misses are the steps the step
            # judge puts close to its own best.
            top = max(value(a) for a in legal) + 1.0
            step_value = value

            def value(a: Any) -> float:
                return top if a == planned else step_value(a)

        return next_best(legal, value, NEAR_MISS_CHOICES, NEAR_MISS)

    def ranked(self, state: State, seat: int, legal: list[Any]) -> list[Any]:
        """``legal`` from the most to the least promising by the values ``choose`` goes by (the
        search's shortlist: a movement decision has some 200 steps, most of them idle, and a
        search that tries a random dozen of them learns little). The planned step of a player
        on the ball comes first; in a phase decided by other rules, the heuristic's pick, then the
        rest in the rules' order."""
        s = state
        assert isinstance(s, SocceroState)
        value = _values(s, seat)
        if value is None:
            picked = self.choose(s, seat, legal, random.Random(0))
            return [picked, *(a for a in legal if a != picked)]
        order = sorted(legal, key=value, reverse=True)  # a stable sort: ties keep the rules' order
        planned = _plan_with_ball(s, seat, legal) if s.phase == "moving" else None
        if planned is not None:
            order.remove(planned)
            order.insert(0, planned)
        return order


NEAR_MISS = 200.0
"""``easy``'s slips: one of the next best steps or kick paths, at most this many points (a fifth
of a goal) worse than the best (with 60 normal beat easy in only 55% of 75 matches)."""
NEAR_MISS_CHOICES = 3


def _values(s: SocceroState, seat: int) -> Any:
    """How the heuristic values each action in this phase (higher is better), or ``None`` where
    it picks by another rule (a turn's kick or move, a stop of an air ball, a free move)."""
    phase = s.phase
    if phase == "moving":
        return _StepJudge(s, seat).value
    if phase == "kick-path":
        return lambda a: _path_value(s, seat, a)
    if phase == "setup":
        to_home = s.board.distances[_placement_home(s)]
        return lambda a: -to_home[a.square]
    if phase in ("header-aim", "throw-aim"):
        return lambda a: _aim_value(s, seat, a)
    if phase == "sp-spot":
        goal = _goal_squares(s, seat)
        return lambda a: -min(s.board.distance(a.square, g) for g in goal)
    if phase == "sp-taker":
        spot = s.setpiece[2]
        return lambda a: -s.board.distance(a.square, spot) - (50 if _is_keeper_square(s, seat, a.square) else 0)
    return None


# --- helpers -------------------------------------------------------------------------------


def _best(legal: list[Any], value: Any, rng: random.Random) -> Any:
    best_value = None
    best: list[Any] = []
    for a in legal:
        v = value(a)
        if best_value is None or v > best_value:
            best_value, best = v, [a]
        elif v == best_value:
            best.append(a)
    return best[rng.randrange(len(best))]


def _goal_squares(s: SocceroState, seat: int) -> tuple[int, ...]:
    return s.board.goal_mouth(s.attacks(seat))


def _goal_distance(s: SocceroState, seat: int, sq: int) -> int:
    """King moves from ``sq`` into the opponents' goal (one more than to the goal line)."""
    b = s.board
    return min(b.distance(sq, g) for g in _goal_squares(s, seat)) + 1


def _progress(s: SocceroState, seat: int, sq: int) -> int:
    """How far up the field ``sq`` is for ``seat`` (0 at its own goal line)."""
    return s.board.rows_from_goal_line(sq, s.defends(seat))


def _is_keeper_square(s: SocceroState, seat: int, sq: int) -> bool:
    return s.pos[goalkeeper(seat)] == sq


def _nearest_opponent(s: SocceroState, seat: int, sq: int) -> int:
    row = s.board.distances[sq]
    return min((row[s.pos[q]] for q in team_players(1 - seat) if s.pos[q] >= 0), default=99)


# --- what the ball is worth where it lies ------------------------------------------------

GOAL = 1000.0
"""A goal, in the points every value below is counted in."""

PROGRESS = 6.0
"""Per row the ball is up the field, held safely."""

CHANCE_WEIGHT = 0.6
"""Share of a shot's chance from a square that holding the ball there is worth."""

OUT = -150.0
"""The ball over a line (the other side's throw, goal kick or fetch)."""

WEAK_SHOT = -80.0
"""Extended rules: a shot the dice cannot carry into the goal (the defenders get the ball)."""

CORNER = 60.0
"""Extended rules: a shot the keeper saves (a corner kick for the shooters)."""

DANGER = 1.0
"""How much of an opponent's chance to step onto the ball the attack fears."""

CHASERS = 3
"""Players, besides the nearest, that go for the ball while the other side has it."""

ATTACK_SHIFT = 6
"""Rows the team's shape moves up the field, past the ball's row, while it has the ball."""

DEFENCE_SHIFT = 0
"""Rows the team's shape drops back, behind the ball's row, while the other side has it."""


def _danger(s: SocceroState, seat: int, sq: int, vacated: int = -1, filled: int = -1) -> float:
    """The chance that an opponent can step onto ``sq`` on his next movement roll.

    A player moves in a straight line and needs at least the distance on the die (the
    rest is used by team-mates), so the nearest opponent with a clear line of ``d <= 6``
    squares gets there on ``7 - d`` faces of six (rulebook "Stealing the Ball").

    ``vacated`` and ``filled``: a team-mate's move from one square to another, looked at
    before it is made (he may stand in an opponent's line and block it).
    """
    return DANGER * (7 - _nearest_in_line(s, 1 - seat, sq, vacated, filled)) / 6


def _nearest_in_line(s: SocceroState, team: int, sq: int, vacated: int = -1, filled: int = -1) -> int:
    """Squares to ``sq`` from the nearest player of ``team`` with a clear straight line of at
    most six squares to it (7: nobody), the player who must leave a shared square and the
    set-piece taker left out (``_barred``). ``vacated``, ``filled``: see ``_danger``."""
    if vacated < 0 and filled < 0:
        return _in_line_map(s, team)[sq]
    occ = s.occupancy()
    barred = _barred(s)
    nearest = 7
    for ray in s.board.rays[sq]:
        for d, t in enumerate(ray[:6], 1):
            if d >= nearest or t == filled:
                break
            q = occ.get(t)
            if q is None or t == vacated:
                continue
            if team_of(q) == team and q != s.forced and q != barred:
                nearest = d
            break
    return nearest


def _barred(s: SocceroState) -> int:
    """Extended rules, "Fouls and Sanctions": the set-piece taker, who may not touch the ball
    again (step onto it, take it off a player) until another player has; -1: nobody."""
    if s.banned >= 0:
        return s.banned
    return s.setpiece[3] if s.setpiece else -1


def _in_line_map(s: SocceroState, team: int) -> list[int]:
    """``_nearest_in_line`` for every square at once, with nobody moved; cached per state.

    Walks out from each of ``team``'s players instead of in from each square: a line is as
    clear one way as the other, so the distances are the same, and the search asks about many
    squares of one position."""
    cache = s._shape or position_cache(s)
    barred = _barred(s)
    key = ("in-line", team, barred)
    found = cache.get(key)
    if found is None:
        found = [7] * s.board.size
        occ = s.occupancy()
        rays = s.board.rays
        for start, q in occ.items():
            if team_of(q) != team or q == s.forced or q == barred:
                continue
            for ray in rays[start]:
                for d, t in enumerate(ray[:6], 1):
                    if d < found[t]:
                        found[t] = d
                    if t in occ:
                        break
        cache[key] = found
    return found


def _shot_routes(s: SocceroState, seat: int, start: int) -> list[tuple[int, bool, bool, bool, float, float]]:
    """Every route of at most 12 squares from ``start`` into the goal ``seat`` attacks:
    (least total that gets there, straight, clear on the ground, clear in the air, chance a
    ground shot is saved, chance an air shot is saved). Overshooting still scores."""
    b = s.board
    end = s.attacks(seat)
    keeper = s.pos[goalkeeper(1 - seat)]
    taken = s.taken_bits()
    theirs = 0
    for q in team_players(1 - seat):
        if s.pos[q] >= 0 and q != goalkeeper(1 - seat):
            theirs |= 1 << s.pos[q]
    saves = {near: _save_chances(s, near) for near in (0, BESIDE_KEEPER, OVER_KEEPER)}
    out = []

    def route(squares: tuple[int, ...], bits: int, total: int, straight: bool) -> None:
        if total > 12:
            return
        ground_save, air_save = saves[near_keeper(b, keeper, start, squares)]
        out.append((total, straight, not taken & bits, not theirs & bits, ground_save, air_save))

    for d1 in range(8):
        ray = b.rays[start][d1]
        bits1 = b.ray_bits[start][d1]
        ex = b.exits[start][d1]
        if ex.kind == EXIT_GOAL and ex.end == end:
            route(ray, bits1[len(ray)], len(ray) + 1, True)
        for n1 in range(1, min(len(ray), 11) + 1):
            corner = ray[n1 - 1]
            for d2 in ((d1 + 1) % 8, (d1 - 1) % 8):
                ex2 = b.exits[corner][d2]
                if ex2.kind != EXIT_GOAL or ex2.end != end:
                    continue
                ray2 = b.rays[corner][d2]
                route(ray[:n1] + ray2, bits1[n1] | b.ray_bits[corner][d2][len(ray2)], n1 + len(ray2) + 1, False)
    return out


def _shot_table(s: SocceroState, seat: int, start: int) -> tuple[dict[int, float], dict[int, float]]:
    """Per distance total: the chance of a goal, and of a route into the goal at all, over the kick die."""
    routes = _shot_routes(s, seat, start)
    faces = dict(s.board.rules.kick_die)
    goal: dict[int, float] = {}
    route_at: dict[int, float] = {}
    for total in range(1, 13):
        direct = curve = air = 0.0
        reach_direct = reach_curve = reach_air = False
        for least, straight, ground_clear, air_clear, ground_save, air_save in routes:
            if least > total:
                continue
            if ground_clear:
                curve = max(curve, 1 - ground_save)
                reach_curve = True
                if straight:
                    direct = max(direct, 1 - ground_save)
                    reach_direct = True
            if air_clear:
                air = max(air, 1 - air_save)
                reach_air = True
        goal[total] = (faces.get("direct", 0) * direct + faces.get("curve", 0) * curve + faces.get("air", 0) * air) / 6
        route_at[total] = (
            faces.get("direct", 0) * reach_direct
            + faces.get("curve", 0) * reach_curve
            + faces.get("air", 0) * reach_air
        ) / 6
    return goal, route_at


_ONE_DIE = {t: 1 / 6 for t in range(1, 7)}
_TWO_DICE = {t: (6 - abs(t - 7)) / 36 for t in range(2, 13)}


def shot_chance(s: SocceroState, seat: int, start: int) -> float:
    """The chance a declared shot from ``start`` scores with the better of one or two dice."""
    goal, _ = _shot_table(s, seat, start)
    return max(sum(p * goal[t] for t, p in chances.items()) for chances in (_ONE_DIE, _TWO_DICE))


_OPEN_CHANCE: dict[tuple[int, int, bool], float] = {}


def _open_chance(s: SocceroState, seat: int, sq: int) -> float:
    """``shot_chance`` from ``sq`` on an empty field but for the keeper at home: a cheap,
    cached measure of how dangerous a square is."""
    end = s.attacks(seat)
    key = (end, sq, s.cfg.extended)
    found = _OPEN_CHANCE.get(key)
    if found is None:
        b = s.board
        if _goal_distance(s, seat, sq) > 13:
            found = 0.0
        else:
            line = 1 if end == LOW else b.rows - 2
            keeper_home = line * b.columns + b.centre_column
            pos = [-1] * len(s.pos)
            pos[goalkeeper(1 - seat)] = keeper_home
            empty = evolve(s, pos=tuple(pos), holder=-1, forced=-1)
            found = shot_chance(empty, seat, sq)
        _OPEN_CHANCE[key] = found
    return found


def _attack_value(s: SocceroState, seat: int, sq: int) -> float:
    """What the ball at ``sq`` is worth to ``seat`` while it keeps it."""
    return PROGRESS * _progress(s, seat, sq) + CHANCE_WEIGHT * GOAL * _open_chance(s, seat, sq)


_ATTACK_TABLES: dict[tuple[int, int, bool], list[float]] = {}


def _attack_table(s: SocceroState, seat: int) -> list[float]:
    """``_attack_value`` of every square for ``seat``, worked out once per end of the field."""
    key = (id(s.board), s.attacks(seat), s.cfg.extended)
    found = _ATTACK_TABLES.get(key)
    if found is None:
        found = _ATTACK_TABLES[key] = [_attack_value(s, seat, sq) for sq in range(s.board.size)]
    return found


def _held_value(s: SocceroState, seat: int, sq: int, vacated: int = -1, filled: int = -1) -> float:
    """The ball held by ``seat`` at ``sq`` when the other side moves next (it may steal);
    ``vacated``, ``filled``: a team-mate's move looked at before it is made (see ``_danger``)."""
    p = _danger(s, seat, sq, vacated, filled)
    return (1 - p) * _attack_value(s, seat, sq) - p * (0.5 * _attack_value(s, 1 - seat, sq) + 40)


# --- the turn: move, pass or shoot -----------------------------------------------------------


def _turn_choice(s: SocceroState, seat: int, legal: list[Any]) -> Any:
    kicks = {(a.shot, a.dice, a.normal): a for a in legal if isinstance(a, KickChoice)}
    words = {a.word: a for a in legal if isinstance(a, Word)}
    if "punt" in words:
        return words["punt"]
    normal = not any(not key[2] for key in kicks)
    values = _kick_values(s, seat, normal)
    options = [(key, values[(key[0], key[1])]) for key in kicks if key[2] == normal]
    best_key, best = max(options, key=lambda kv: kv[1])
    if "move" in words and _move_value(s, seat, best) > best:
        return words["move"]
    return kicks[best_key]


def _move_value(s: SocceroState, seat: int, kick_now: float) -> float:
    """What a movement turn is worth with the ball: the holder carries it to the best
    square in reach (if he may carry), averaged over the die; team-mates come up too.

    A holder who may not carry must kick next turn anyway: moving is then worth that kick
    a turn later (``kick_now``, a little less: the opponents close in) plus the pass a runner
    sets up, if the ball is not stolen meanwhile."""
    holder = s.holder
    here = _held_value(s, seat, s.ball)
    if holder < 0 or holder == s.red or s.pos[holder] != s.ball or s.forced >= 0:
        p = _danger(s, seat, s.ball)
        return (1 - p) * (WAIT * kick_now + _runner_setup(s, seat)) - p * (
            0.5 * _attack_value(s, 1 - seat, s.ball) + 40
        )
    b = s.board
    occ = s.occupancy()
    best_by_length = [here] * 7
    for ray in b.rays[s.ball]:
        for k, t in enumerate(ray[:6], 1):
            if t in occ:
                break
            if s.cfg.extended is False and not restriction_ok(s, holder, t):
                continue
            v = _held_value(s, seat, t)
            if v > best_by_length[k]:
                best_by_length[k] = v
    total = 0.0
    reach = here
    for k in range(1, 7):
        reach = max(reach, best_by_length[k])
        total += reach / 6
    return total + 10.0


WAIT = 0.9
"""What a kick put off for a turn is still worth, as a share of kicking now."""

RUN = 8.0
"""Per row a team-mate runs up the field while his side has the ball (until he is well ahead of it)."""


def _kick_values(s: SocceroState, seat: int, normal: bool) -> dict[tuple[bool, int], float]:
    """Expected value, per (shot, dice), over the distance dice and the kick die.

    Passes are read as straight lines (the direct face; curves only add options), each
    distance walked once; shots count every route into the goal, saves included.
    """
    ground = normal or s.phase == "turn"  # set-piece rules fly a curve over everybody
    goal, route_at = _shot_table(s, seat, s.ball)
    extended = s.cfg.extended
    out = {(shot, dice): 0.0 for shot in (False, True) for dice in (1, 2)}
    straight_share = dict(s.board.rules.kick_die).get("direct", 0) / 6
    bent = _bent_passes(s, seat) if ground else []
    for total in range(1, 13):
        routes = all_paths(s, s.ball, total, ground, False, False)
        kick = max(
            _landing_value(s, seat, finish, squares, s.ball, not ground) for finish, squares, _ in routes.values()
        )
        # The curve faces also reach team-mates round a corner.
        turned = max((v for d, v in bent if d <= total), default=kick)
        kick = straight_share * kick + (1 - straight_share) * max(kick, turned)
        shot = _shot_worth(goal[total], route_at[total], extended, kick)
        for dice, chances in ((1, _ONE_DIE), (2, _TWO_DICE)):
            p = chances.get(total, 0.0)
            out[(False, dice)] += p * kick
            out[(True, dice)] += p * shot
    return out


def _shot_worth(scored: float, reach: float, extended: bool, kick: float) -> float:
    """A declared shot at one distance total: ``scored`` the chance of a goal, ``reach`` the
    chance of a route into the goal (the rest of it saved), ``kick`` what the same total is
    worth as a kick (the basic rules play a shot with no route as a kick)."""
    saved = reach - scored
    # Saved: the keeper's ball (basic) or a corner for us (extended). No route: the
    # basic rules play it as a kick, the extended rules make it a weak shot (their ball).
    return scored * GOAL + saved * (CORNER if extended else -40.0) + (1 - reach) * (WEAK_SHOT if extended else kick)


def _bent_passes(s: SocceroState, seat: int) -> list[tuple[int, float]]:
    """(distance, value) of the team-mates a kick from the ball reaches only with a turn."""
    b = s.board
    taken = s.taken_bits()
    out = []
    for q in team_players(seat):
        sq = s.pos[q]
        if q == s.holder or sq < 0 or sq == s.ball or b.distance(s.ball, sq) > PASS_REACH:
            continue
        if _route(b, taken, s.ball, sq) == BENT:
            out.append((b.distance(s.ball, sq), _landing_value(s, seat, "", [sq], s.ball)))
    return out


def _path_value(s: SocceroState, seat: int, path: Path) -> float:
    if path.finish == "goal":
        return GOAL * (1 - _save_chance(s, seat, path))
    ground, _, _ = flight(s)
    _, finish, squares, _ = walk(s, path.start, path.legs, ground, s.kick[0])
    return _landing_value(s, seat, finish, squares, path.start, not ground)


def _save_chance(s: SocceroState, seat: int, path: Path) -> float:
    """The keeper's chance to save a shot along ``path`` (RULINGS Soccero 2, extended saves)."""
    ground, _, _ = flight(s)
    _, _, squares, _ = walk(s, path.start, path.legs, ground, True)
    b = s.board
    ground_save, air_save = _save_chances(s, near_keeper(b, s.pos[goalkeeper(1 - seat)], path.start, squares))
    return ground_save if ground else air_save


def _save_chances(s: SocceroState, near: int) -> tuple[float, float]:
    """The keeper's chances to save a ground and an air shot that passes him as ``near`` says
    (:func:`near_keeper`: not at all, beside him, or kicked from his own square)."""
    if not near:
        return 0.0, 0.0
    rules = s.board.rules
    if s.cfg.extended:
        ground, air = len(rules.save_ground_extended) / 6, len(rules.save_air_extended) / 6
    else:
        ground, air = len(rules.save_beside_basic) / 6, 0.0
    return (1.0 if near == OVER_KEEPER else ground), air  # kicked from his square: he stops it on the ground


def _landing_value(s: SocceroState, seat: int, finish: str, squares: list[int], start: int, air: bool = False) -> float:
    """How good it is for ``seat`` that the ball ends after passing ``squares`` (``air``: it
    arrives in the air, so a team-mate there may head it on)."""
    if finish == "goal":
        return GOAL
    end = squares[-1] if squares else start
    if finish == "out":
        return OUT + _progress(s, seat, end)
    q = s.occupancy().get(end)
    if q is not None:
        if team_of(q) == seat and q != s.holder:
            if s.cfg.extended and _offside(s, seat, end, start):
                return -0.5 * _attack_value(s, 1 - seat, end) - 60  # their free kick
            held = _held_value(s, seat, end)
            if air and s.cfg.extended:
                return max(held, _header_value(s, seat, end))
            return held
        return -0.5 * _attack_value(s, 1 - seat, end) - 60
    # A loose ball: the other side moves first; then our nearest player may reach it (the
    # kicker too: a ball played into space and run onto is a dribble). Either side's player
    # needs a clear straight line to it, no longer than the die (rulebook "Moving Players").
    p_theirs = _danger(s, seat, end)
    p_ours = (7 - _nearest_in_line(s, seat, end)) / 6
    return (1 - p_theirs) * p_ours * _attack_value(s, seat, end) - p_theirs * (
        0.5 * _attack_value(s, 1 - seat, end) + 40
    )


FAILED_HEADER = OUT
"""Extended rules: a header at goal the die cannot carry there (headed on towards the goal line:
mostly over it, or to a defender)."""


def _header_value(s: SocceroState, seat: int, sq: int) -> float:
    """Extended rules, "Headers": what a header at goal from ``sq`` is worth to ``seat``. The die
    (one, rolled before the direction is chosen) must carry the ball along a straight line into
    the goal; it flies over every player, and the keeper saves it on a 6 when it passes over him
    or beside him (a corner)."""
    b = s.board
    end = s.attacks(seat)
    keeper = s.pos[goalkeeper(1 - seat)]
    save = len(b.rules.save_air_extended) / 6
    best = reach = 0.0
    for d in range(8):
        ex = b.exits[sq][d]
        ray = b.rays[sq][d]
        if ex.kind != EXIT_GOAL or ex.end != end or len(ray) >= 6:
            continue
        chance = (6 - len(ray)) / 6  # the die must reach the line beyond the last square
        saved = save if near_keeper(b, keeper, sq, ray) else 0.0
        best = max(best, chance * ((1 - saved) * GOAL + saved * CORNER))
        reach = max(reach, chance)
    return best + (1 - reach) * FAILED_HEADER


def _header_choice(s: SocceroState, seat: int, legal: list[Any]) -> Any:
    """Head the ball at goal when that is worth more than keeping it (a header that cannot score
    gives the ball away)."""
    p = s.path[0]
    sq = s.pos[p]
    head = _header_value(s, seat, sq) > _held_value(s, seat, sq)
    return next(a for a in legal if str(a) == ("header" if head else "no-header"))


def _air_stop(s: SocceroState, seat: int, legal: list[Any]) -> Any:
    stop = next(a for a in legal if str(a) == "stop")
    let = next(a for a in legal if str(a) == "let")
    end, finish, *_ = s.pending
    if s.team != seat:
        return stop  # an opponent's kick over our player: take it
    if finish == "goal":
        return let
    q = s.occupancy().get(end)
    if q is not None and team_of(q) == seat:
        return let
    return stop


def _aim_value(s: SocceroState, seat: int, aim: Aim) -> float:
    if aim.verb == "head":
        _, finish, _, _ = walk(s, s.pos[s.path[0]], ((aim.direction, s.kick[4]),), False, True)
        if finish == "goal":
            return 1000.0
    _, dx, dy = DIRECTIONS[aim.direction]
    forward = dy if s.defends(seat) == LOW else -dy
    return forward * 10 - abs(dx)


# --- the move planner: the die points the carrier does not need go to a runner -------------

PASS_WEIGHT = 1.5
"""Weight of the best pass a movement plan sets up for the next turn, against the ball's worth
where the plan leaves it. Above one: the opponents may close the lane first, but a pass up the
field also takes the attack past the players who stand between. (Self-play, extended rules,
100 matches each: 0.8, 1.5 and 2.5 gave 0.99, 1.12 and 0.93 goals a match, all within noise.)"""

PASS_REACH = 12
"""Squares a pass reaches at most (two dice)."""

_AT_LEAST = tuple(sum(6 - abs(t - 7) for t in range(max(d, 2), 13)) / 36 for d in range(PASS_REACH + 1))
"""The chance two dice make at least ``d``: a pass that far along a clear route to a team-mate
reaches him (the first player in its path stops the ball)."""

_BENT = 4 / 6
"""Share of kick-die faces that can play a route with one 45-degree turn (curve on the ground, curve in the air)."""


def _plan_with_ball(s: SocceroState, seat: int, legal: list[Any]) -> Step | None:
    """The first step of the best plan for a movement turn with the ball, or None when no plan
    beats leaving it to the step judge.

    A plan is the carrier's move (carrying the ball none to all of the points) and a runner who
    spends the rest. It is worth the ball where the carrier leaves it plus, if the opponents do
    not steal it first, the best pass it sets up for next turn (weighted ``PASS_WEIGHT``): a
    team-mate up the field the ball reaches along a clear route, counted at the chance the
    dice carry it there (RULINGS Soccero 6: never one who would be offside). Planned again at every step, so after the carrier's move the rest of
    the points go to the runner the plan chose (or a better one the move opened).
    """
    holder = s.holder
    if holder < 0 or team_of(holder) != seat or s.forced >= 0 or s.ball < 0:
        return None
    b = s.board
    points = s.points
    steps = {(a.start, a.end, a.ball): a for a in legal}
    occ = s.occupancy()
    ball = s.ball
    held_at = _HeldValues(s, seat)
    carries: list[tuple[int, int]] = [(0, ball)]  # (points the carrier uses, the ball's square after)
    if not s.moved >> holder & 1 and holder != s.red and s.pos[holder] == ball:
        best_at: dict[int, int] = {}
        for ray in b.rays[ball]:
            for k, t in enumerate(ray[:points], 1):
                if t in occ:
                    break
                if (ball, t, t) in steps and (k not in best_at or held_at(t) > held_at(best_at[k])):
                    best_at[k] = t
        carries.extend(best_at.items())
    mates = _field_mates(s, seat)
    runners = [p for p in mates if not s.moved >> p & 1]
    best_value = None
    best_step: Step | None = None
    for k, square in carries:
        rest = points - k
        here = held_at(square)
        taken = s.taken_bits()
        if k:
            taken = taken & ~(1 << ball) | 1 << square
        gains = _passes_on(s, seat, square, taken, here, held_at, mates)
        # A pass is played next turn only if the ball is not stolen first.
        risk = _danger(s, seat, square)
        base = here + (1 - risk) * PASS_WEIGHT * (gains[0][0] if gains else 0.0)  # the rest to the step judge
        if k and (best_value is None or base > best_value):
            best_value, best_step = base, steps.get((ball, square, square))
        if rest == 0:
            continue
        near = frozenset(t for ray in b.rays[square] for t in ray[:6])
        for p in runners:
            start = s.pos[p]
            kept = next((g for g, q in gains if q != p), 0.0)
            for ray in b.rays[start]:
                if len(ray) < rest:
                    continue
                end = ray[rest - 1]
                if any(t in occ and t != ball or t == square for t in ray[:rest]) or (not k and ball in ray[:rest]):
                    continue
                if k == 0 and (start, end, -1) not in steps:
                    continue
                if s.cfg.extended and not restriction_ok(s, p, end):
                    continue
                hold, safe = here, 1 - risk
                if start in near or end in near:  # he may open or close an opponent's line to the ball
                    hold = _held_value(s, seat, square, start, end)
                    safe = 1 - _danger(s, seat, square, start, end)
                after = taken & ~(1 << start) | 1 << end
                value = hold + safe * PASS_WEIGHT * max(kept, _pass_gain(s, seat, square, after, end, here, held_at))
                if value > base + 1e-9 and (best_value is None or value > best_value):
                    best_value = value
                    best_step = steps.get((ball, square, square)) if k else steps.get((start, end, -1))
    return best_step


def _runner_setup(s: SocceroState, seat: int) -> float:
    """What a movement turn adds to the next kick, over the die: the best pass one runner
    sets up with the points rolled (see ``_plan_with_ball``), beyond the passes already on."""
    b = s.board
    ball = s.ball
    occ = s.occupancy()
    taken = s.taken_bits()
    held_at = _HeldValues(s, seat)
    here = held_at(ball)
    mates = _field_mates(s, seat)
    gains = _passes_on(s, seat, ball, taken, here, held_at, mates)
    base = gains[0][0] if gains else 0.0
    best = [0.0] * 7
    for p in mates:
        start = s.pos[p]
        kept = next((g for g, q in gains if q != p), 0.0)
        for ray in b.rays[start]:
            for r, end in enumerate(ray[:6], 1):
                if end in occ:
                    break
                after = taken & ~(1 << start) | 1 << end
                gain = max(kept, _pass_gain(s, seat, ball, after, end, here, held_at)) - base
                if gain > best[r]:
                    best[r] = gain
    return PASS_WEIGHT * sum(best) / 6


class _HeldValues:
    """``_held_value`` of squares for one seat in one position, each worked out once."""

    __slots__ = ("s", "seat", "found")

    def __init__(self, s: SocceroState, seat: int) -> None:
        self.s, self.seat = s, seat
        self.found: dict[int, float] = {}

    def __call__(self, sq: int) -> float:
        value = self.found.get(sq)
        if value is None:
            value = self.found[sq] = _held_value(self.s, self.seat, sq)
        return value


def _field_mates(s: SocceroState, seat: int) -> list[int]:
    """``seat``'s field players on the board but the ball's holder."""
    keeper = goalkeeper(seat)
    return [q for q in team_players(seat) if q not in (keeper, s.holder) and s.pos[q] >= 0]


def _passes_on(
    s: SocceroState, seat: int, ball: int, taken: int, here: float, held_at: _HeldValues, mates: list[int]
) -> list[tuple[float, int]]:
    """(gain, player) of the passes from ``ball`` to ``mates`` where they stand, best first."""
    return sorted(((_pass_gain(s, seat, ball, taken, s.pos[q], here, held_at), q) for q in mates), reverse=True)


def _pass_gain(
    s: SocceroState, seat: int, ball: int, taken: int, target: int, here: float, held_at: _HeldValues
) -> float:
    """What a pass from ``ball`` to a team-mate on ``target`` would add (``taken``: the
    occupied squares), counted at the chance the kick gets there; 0 when it would not help."""
    if _attack_value(s, seat, target) <= here:
        return 0.0  # no further up the field than the ball's worth (a held ball is worth less still)
    gain = held_at(target) - here
    if gain <= 0:
        return 0.0
    chance = _reach_chance(s.board, taken, ball, target)
    if not chance or (s.cfg.extended and _offside(s, seat, target, ball)):
        return 0.0
    return chance * gain


def _reach_chance(b: Any, taken: int, start: int, target: int) -> float:
    """The chance a kick from ``start`` reaches a player on ``target``: the distance dice make
    it, and the kick die allows a route no other player blocks."""
    d = b.distance(start, target)
    if d > PASS_REACH:
        return 0.0
    route = _route(b, taken, start, target)
    return _AT_LEAST[d] * (1.0 if route == STRAIGHT else _BENT if route == BENT else 0.0)


STRAIGHT, BENT = 1, 2
"""Routes of :func:`_route`: a straight line (every kick-die face), one 45-degree turn (the curve faces)."""


def _route(b: Any, taken: int, start: int, target: int) -> int:
    """How a kick from ``start`` can reach ``target`` with no player of ``taken`` (a bit mask)
    on the way: STRAIGHT, BENT, or 0 (every route blocked)."""
    dx, dy = b.xs[target] - b.xs[start], b.ys[target] - b.ys[start]
    d = max(abs(dx), abs(dy))
    if d == 0:
        return 0
    sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
    m = min(abs(dx), abs(dy))
    diagonal = _DIRECTION_OF[(sx, sy)]
    if m == d or m == 0:
        return 0 if taken & b.ray_bits[start][diagonal][d - 1] else STRAIGHT
    straight = _DIRECTION_OF[(sx, 0) if abs(dx) > abs(dy) else (0, sy)]
    for first, n1, second in ((diagonal, m, straight), (straight, d - m, diagonal)):
        corner = b.rays[start][first][n1 - 1]
        if not taken & (b.ray_bits[start][first][n1] | b.ray_bits[corner][second][d - n1 - 1]):
            return BENT
    return 0


_DIRECTION_OF = {(dx, dy): i for i, (_, dx, dy) in enumerate(DIRECTIONS)}


def _offside(s: SocceroState, seat: int, target: int, ball: int) -> bool:
    """Extended rules (RULINGS Soccero 6): would a team-mate on ``target`` be offside when
    ``seat`` kicks from ``ball``? In the opponents' half, nearer their goal line than both the
    ball and the second-last opponent."""
    b = s.board
    end = s.attacks(seat)
    if b.half_of(target) != end:
        return False
    row = b.rows_from_goal_line(target, end)
    if row >= b.rows_from_goal_line(ball, end):
        return False
    return row < second_last_row(s, seat)


# --- moving players ------------------------------------------------------------------------


def _role_target(s: SocceroState, seat: int, p: int) -> int:
    """Where player ``p`` wants to be: keeper home, forwards up the field, the rest in shape."""
    b = s.board
    ball = s.ball if s.ball >= 0 else s.pos[p]
    own = s.defends(seat)
    if p == goalkeeper(seat):
        line = 1 if own == LOW else b.rows - 2
        x = min(max(b.xs[ball], min(b.goal_columns)), max(b.goal_columns))
        return line * b.columns + x
    have_ball = s.holder >= 0 and team_of(s.holder) == seat
    number = p % PLAYERS
    home = _home(s, number)
    home = home if own == LOW else b.mirror(home)
    bx, by = b.xs[ball], b.ys[ball]
    hx, hy = b.xs[home], b.ys[home]
    x = min(max((hx * 2 + bx) // 3, 0), b.columns - 1)
    step = 1 if own == LOW else -1
    if number in FORWARDS:
        # Forwards stay up the field whoever has the ball: ahead of it when we attack (a pass
        # away), past the halfway line when we defend (a long ball away when we win it back).
        ball_row = _progress(s, seat, ball)
        lead = FORWARD_LEAD[FORWARDS.index(number)] - (0 if have_ball else FORWARD_DROP)
        row = min(max(ball_row + lead, FORWARD_HOLD), FORWARD_TOP)
        if s.cfg.extended:
            row = min(row, max(_onside_row(s, seat), ball_row))
        y = row if own == LOW else b.rows - 1 - row
        return y * b.columns + x
    # Shift the shape towards the ball: up the field when attacking, back when defending.
    shift = (by - (b.rows // 2)) + (ATTACK_SHIFT * step if have_ball else -DEFENCE_SHIFT * step)
    y = min(max(hy + shift, 0), b.rows - 1)
    return y * b.columns + x


FORWARDS = (8, 9, 10)
"""Player numbers (0 = keeper) who stay up the field: the one behind the centre circle and the
two beside it in the formation. One die moves the whole team about 3.5 squares a turn, so
team-mates who only come up once the ball is won arrive after it is lost again: these three
are already there, a kick of 8 to 10 squares ahead of the ball."""

FORWARD_LEAD = (10, 8, 8)
"""Rows ahead of the ball each forward runs to while his side has the ball (by ``FORWARDS``)."""

FORWARD_DROP = 6
"""Rows less of lead while the other side has the ball."""

FORWARD_HOLD = 21
"""Rows from the own goal line a forward never drops behind: five rows into the opponents'
half (extended rules: no further than the onside line allows)."""

FORWARD_TOP = 29
"""Rows from the own goal line a forward goes no further than: two rows off the opponents'
goal line, in front of their goal area. (How these values were chosen, and what they
score: docs/bots.md, "Matches that look like soccer".)"""

FORWARD_PULL = 30.0
"""Points per square a forward earns for closing on his place while he is ``FORWARD_LAG`` rows
or more short of it (other players' steps to their places: 5). One die moves the whole team,
about 3.5 squares a turn, and the press took nearly all of it: after every kick-off the
forwards stood 5 to 10 rows short of their places (in the extended rules, of the onside
line), and the carrier attacked alone. At 30 a run of three squares or more comes before a
chaser's step of the same length (50 + 10 a square)."""

FORWARD_LAG = 8
"""Rows short of his place from which a forward's run comes before the press. Nearer, he
waits for the points the press leaves over: the run right up to his place (2 rows, or 5)
scored more but did worse against the heuristic before it (not significantly). (Figures:
docs/bots.md, "Matches that look like soccer".)"""

FORWARD_CHASE = 3
"""Rows a forward may be ahead of the ball and still chase it while the other side has it;
further ahead he stays up for the counter-attack."""


def _onside_row(s: SocceroState, seat: int) -> int:
    """The furthest row up the field (from ``seat``'s goal line) a team-mate is onside on:
    level with the second-last opponent (RULINGS Soccero 6)."""
    line = second_last_row(s, seat)  # counted from the other end
    return s.board.rows - 1 - line if line < s.board.rows else s.board.rows - 1


class _StepJudge:
    """Values the single-square steps of one ``moving`` decision.

    Everything that does not depend on the step (who stands where, which players chase the
    ball, each player's target square, the opponents' distance to a square) is worked out
    once per decision instead of once per step: a decision often has 80 steps or more.
    """

    __slots__ = ("s", "seat", "board", "_movers", "_chasers", "_targets", "_pressure", "_holding", "_lanes", "_lines")

    def __init__(self, s: SocceroState, seat: int) -> None:
        self.s = s
        self.seat = seat
        self.board = s.board
        # Who would move from each square: the first unmoved player of ours standing there.
        movers: dict[int, int] = {}
        for q in team_players(seat):
            if not s.moved >> q & 1:
                movers.setdefault(s.pos[q], q)
        self._movers = movers
        self._chasers: frozenset[int] | None = None
        self._targets: dict[int, int] = {}
        self._pressure: dict[int, int] = {}
        self._holding: dict[int, float] = {}
        self._lanes: frozenset[int] | None = None
        self._lines: frozenset[int] | None = None

    def value(self, step: Step) -> float:
        s = self.s
        p = self._movers[step.start]
        value = self._gain(p, step)
        if s.cfg.extended and not restriction_ok(s, p, step.end):
            value -= 2000.0  # a direct free kick (or a penalty) for the opponents
        return value

    def _held(self, sq: int) -> float:
        found = self._holding.get(sq)
        if found is None:
            found = self._holding[sq] = _held_value(self.s, self.seat, sq)
        return found

    def _nearest_opponent(self, sq: int) -> int:
        found = self._pressure.get(sq)
        if found is None:
            found = self._pressure[sq] = _nearest_opponent(self.s, self.seat, sq)
        return found

    def _chasing_players(self) -> frozenset[int]:
        """The field players ranked second to ``1 + CHASERS`` nearest to the ball (the nearest
        may be the one already on it or about to reach it by another step)."""
        if self._chasers is None:
            s = self.s
            to_ball = self.board.distances[s.ball]
            ball_row = _progress(s, self.seat, s.ball)
            field = [
                q
                for q in team_players(self.seat)
                if q != goalkeeper(self.seat)  # the keeper stays home
                # and a forward the ball is well behind stays up for the counter-attack
                and not (q % PLAYERS in FORWARDS and _progress(s, self.seat, s.pos[q]) > ball_row + FORWARD_CHASE)
            ]
            ranked = sorted(field, key=lambda q: to_ball[s.pos[q]])
            self._chasers = frozenset(ranked[1 : 1 + CHASERS])
        return self._chasers

    def _target(self, p: int) -> int:
        found = self._targets.get(p)
        if found is None:
            found = self._targets[p] = _role_target(self.s, self.seat, p)
        return found

    def _gain(self, p: int, step: Step) -> float:
        s, seat, b = self.s, self.seat, self.board
        holder = s.holder
        # A steal: the exact number onto the ball carrier.
        if holder >= 0 and team_of(holder) != seat and s.pos[holder] == step.end:
            return 1000.0
        if p == holder:
            if step.ball < 0:
                return -200.0  # never leave the ball behind for nothing
            end_ball = step.ball
            value = 100 + 2 * (self._held(end_ball) - self._held(s.ball))
            if step.ball != step.end:
                value -= 150
            return value
        keeper = p == goalkeeper(seat)
        if keeper and b.penalty_area_of[s.ball] != s.defends(seat):
            pass  # a loose ball outside his own penalty area is for the field players
        elif step.ball >= 0 and step.ball == step.end:
            return 500.0 + 2 * self._held(step.ball)  # a loose ball picked up and carried on
        elif holder < 0 and step.end == s.ball:
            return 520.0 + 2 * self._held(s.ball)  # stepping onto it keeps the carry for later
        chasing = holder < 0 or team_of(holder) != seat
        if chasing and s.ball >= 0 and p in self._chasing_players():
            to_ball = b.distances[s.ball]
            before = to_ball[step.start]
            after = to_ball[step.end]
            return 50.0 + 10 * (before - after) - (30 if after == 0 else 0)
        target = self._target(p)
        to_target = b.distances[target]
        weight = PLACE_STEP
        if p % PLAYERS in FORWARDS and _progress(s, seat, target) - _progress(s, seat, step.start) >= FORWARD_LAG:
            weight = FORWARD_PULL
        value = weight * (to_target[step.start] - to_target[step.end])
        if not chasing and holder >= 0 and not keeper:
            if _progress(s, seat, step.start) < _progress(s, seat, s.ball) + 6:
                value += RUN * (_progress(s, seat, step.end) - _progress(s, seat, step.start))
            # Support: a team-mate the ball can reach along a clear line, where no opponent
            # will step in next roll, is a pass waiting to be played.
            value += SUPPORT * (self._receiving(step.end) - self._receiving(step.start))
            # Cover: a team-mate standing in an opponent's line to the ball blocks the steal.
            near = self._near_ball()
            if step.start in near or step.end in near:
                risk_before = _danger(s, seat, s.ball)
                risk_after = _danger(s, seat, s.ball, step.start, step.end)
                value += 2 * (risk_before - risk_after) * self._loss()
        return value

    def _near_ball(self) -> frozenset[int]:
        """Squares on the straight lines within six of the ball (where a player changes who can reach it)."""
        near = self._lines
        if near is None:
            near = self._lines = frozenset(t for ray in self.board.rays[self.s.ball] for t in ray[:6])
        return near

    def _loss(self) -> float:
        """What losing the ball where it lies costs (our attack and their counter)."""
        s, seat = self.s, self.seat
        return _attack_value(s, seat, s.ball) + 0.5 * _attack_value(s, 1 - seat, s.ball) + 40

    def _receiving(self, sq: int) -> float:
        """What a team-mate on ``sq`` is worth as a receiver of the next kick."""
        lanes = self._lanes
        if lanes is None:
            lanes = self._lanes = _open_lanes(self.s, self.s.ball)
        if sq not in lanes:
            return 0.0
        return max(0.0, self._held(sq))


SUPPORT = 0.3
"""Weight of a team-mate's worth as a receiver when he moves while his side has the ball."""

PLACE_STEP = 5.0
"""Points per square a player earns for closing on his place (``_role_target``) with a step that
nothing else gives a value; a free move that takes him further from it costs as much a square."""


def _open_lanes(s: SocceroState, ball: int) -> frozenset[int]:
    """Squares a ground kick from ``ball`` reaches along a straight line (2 to 12 squares)
    before it meets a player, the first player's square included."""
    occ = s.occupancy()
    out = set()
    for ray in s.board.rays[ball]:
        for k, t in enumerate(ray[:12], 1):
            if k >= 2:
                out.add(t)
            if t in occ:
                break
    return frozenset(out)


FORMATION = ("K2", "E9", "K9", "Q9", "D13", "H12", "N12", "R13", "K13", "F16", "P16")
"""Where the bot's players stand, by player number, for a team defending row 1 (the other
end mirrors it): a keeper, three at the back, four across the middle, one behind and two
beside the centre circle. Players move three or four squares a turn between them, so the
set-up decides much of the shape: this one has team-mates ahead of the ball to pass to and
players near the other goal to win the ball back high up. The centre pair of the team
kicking off stands where the rules put it."""


def _home(s: SocceroState, number: int) -> int:
    """The formation square of player ``number`` (0 = keeper) of a team defending row 1."""
    homes = _HOMES.get(id(s.board))
    if homes is None:
        homes = _HOMES[id(s.board)] = tuple(s.board.square(name) for name in FORMATION)
    return homes[number]


_HOMES: dict[int, tuple[int, ...]] = {}


def _placement_home(s: SocceroState) -> int:
    """The formation square of the player being placed (``pending[0]``), seen from its end."""
    p = s.pending[0]
    home = _home(s, p % PLAYERS)
    return home if s.defends(team_of(p)) == LOW else s.board.mirror(home)


# --- set pieces: the wall and the free moves -------------------------------------------------

WALL_CHANCE = 0.1
"""A direct free kick gets a wall when a shot from its spot (``shot_chance``, before the wall)
scores at least this often: about nine rows from the goal line and nearer (docs/bots.md,
"Soccero set pieces"). Further out the players stay where they are more use."""

WALL_GAIN = 0.02
"""The least a wall player must take off the shot's chance to be placed."""

FREE_MOVE_GAIN = 10.0
"""Points a free move must be worth to be made (1% of a goal); below it the side says ``done``."""

FREE_MOVE_TARGETS = 6
"""Squares, by a first rough value, that the free-move judge weighs exactly for each player."""


def _set_piece_choice(s: SocceroState, seat: int, legal: list[Any]) -> Any:
    """The wall (phase ``wall``), free moves (``free``) and the attackers the wall displaced
    (``wall-clear``)."""
    if s.phase == "wall":
        return _wall_choice(s, seat, legal)
    return _free_move(s, seat, legal)


# The wall.


def _wall_choice(s: SocceroState, seat: int, legal: list[Any]) -> Any:
    """Rulebook "Free Kicks": up to three defenders stand in the way of a direct free kick's
    shot, on the wall squares that take most off its chance (see ``_wall_plan``)."""
    squares = [a for a in legal if isinstance(a, SquareChoice)]
    if not squares:
        return legal[0]
    if squares[0].verb == "to":
        p = s.pending[1]
        planned = _wall_plan(s, p)
        if planned is not None:
            found = next((a for a in squares if a.square == planned[1]), None)
            if found is not None:
                return found
        # Picked but no longer worth placing (not the bot's own pick): the square nearest the goal.
        to_goal = s.board.distances[_goal_squares(s, s.setpiece[1])[1]]
        return min(squares, key=lambda a: (to_goal[a.square], a.square))
    planned = _wall_plan(s)
    if planned is None:
        return next((a for a in legal if isinstance(a, Word)), squares[0])
    player, _ = planned
    return next(a for a in squares if a.square == s.pos[player])


def _wall_plan(s: SocceroState, selected: int = -1) -> tuple[int, int] | None:
    """The next wall player and his square (``selected``: the player already picked), or None
    when the wall is not worth (another) player.

    A wall stands only where the shot is a real chance (``shot_chance`` from the spot at least
    ``WALL_CHANCE``, judged before its first player is placed). Its squares are the permitted
    ones on a route the shot can still take into the goal, and they are chosen together: two
    routes either side of a defender need two players, and either of them alone takes nothing
    off. Each player must take ``WALL_GAIN`` off the chance. The players are the field players
    nearest their squares (not the keeper; forwards last: they stay up for the counter-attack);
    those already standing in the way where a wall stands are left there."""
    kind, team, spot, _, direct = s.setpiece
    if kind != "free-kick" or not direct:
        return None
    b = s.board
    now = shot_chance(s, team, spot)
    left = s.pending[0]
    if left == b.rules.wall_players and now < WALL_CHANCE:
        return None
    near, far = b.rules.wall_distance
    occ = s.occupancy()
    taken = s.taken_bits()
    theirs = sum(1 << s.pos[q] for q in team_players(1 - team) if q != goalkeeper(1 - team) and s.pos[q] >= 0)
    lanes = 0
    for route in _goal_routes(s, team, spot):
        if not taken & route or not theirs & route:  # open on the ground or in the air
            lanes |= route
    squares = [q for q in range(b.size) if lanes >> q & 1 and q not in occ and near <= b.distance(q, spot) <= far]
    every_lane = _shot_lanes(s, team, spot)
    free = [
        p
        for p in team_players(1 - team)
        if p not in (goalkeeper(1 - team), selected)
        and p not in s.pending[2:]  # placed in the wall already: not offered again
        and not (every_lane >> s.pos[p] & 1 and near <= b.distance(s.pos[p], spot) <= far)
    ]
    best: tuple[float, int, int] | None = None
    for size in range(1, left + 1):
        for wall in combinations(squares, size):
            moved = _wall_players(s, wall, free, selected, occ)
            if moved is None:
                continue
            pos = list(s.pos)
            for p, sq in moved:
                pos[p] = sq
            chance = shot_chance(evolve(s, pos=tuple(pos)), team, spot)
            score = now - chance - WALL_GAIN * size
            if score >= 0 and (best is None or score > best[0]):
                best = (score, *moved[0])
    return None if best is None else (best[1], best[2])


def _wall_players(
    s: SocceroState, wall: tuple[int, ...], free: list[int], selected: int, occ: dict[int, int]
) -> list[tuple[int, int]] | None:
    """(player, square) for each square of ``wall``: ``selected`` (if any) on the first one he may
    stand on, the rest by the nearest of ``free`` (forwards last); the first pair is the one to
    place now. None if some square gets nobody."""
    b = s.board
    out: list[tuple[int, int]] = []
    rest = list(wall)
    if selected >= 0:
        mine = next((sq for sq in rest if permitted(s, selected, sq, occ)), None)
        if mine is None:
            return None
        out.append((selected, mine))
        rest.remove(mine)
    used: set[int] = set()
    for sq in rest:
        to_sq = b.distances[sq]
        ranked = sorted((p for p in free if p not in used), key=lambda p: (p % PLAYERS in FORWARDS, to_sq[s.pos[p]], p))
        player = next((p for p in ranked if permitted(s, p, sq, occ)), None)
        if player is None:
            return None
        used.add(player)
        out.append((player, sq))
    return out


_ROUTES: dict[tuple[int, int], tuple[int, ...]] = {}


def _goal_routes(s: SocceroState, seat: int, start: int) -> tuple[int, ...]:
    """The squares (bits) of each route ``_shot_routes`` counts from ``start`` into the goal
    ``seat`` attacks, players or not; cached."""
    end = s.attacks(seat)
    key = (end, start)
    found = _ROUTES.get(key)
    if found is None:
        b = s.board
        routes = []
        for d1 in range(8):
            ray = b.rays[start][d1]
            ex = b.exits[start][d1]
            if ex.kind == EXIT_GOAL and ex.end == end and len(ray) + 1 <= 12:
                routes.append(b.ray_bits[start][d1][len(ray)])
            for n1 in range(1, min(len(ray), 11) + 1):
                corner = ray[n1 - 1]
                for d2 in ((d1 + 1) % 8, (d1 - 1) % 8):
                    ex2 = b.exits[corner][d2]
                    ray2 = b.rays[corner][d2]
                    if ex2.kind == EXIT_GOAL and ex2.end == end and n1 + len(ray2) + 1 <= 12:
                        routes.append(b.ray_bits[start][d1][n1] | b.ray_bits[corner][d2][len(ray2)])
        found = _ROUTES[key] = tuple(routes)
    return found


def _shot_lanes(s: SocceroState, seat: int, start: int) -> int:
    """The squares (bits) of every route into the goal from ``start``: where a player may change
    a shot's chance."""
    lanes = 0
    for route in _goal_routes(s, seat, start):
        lanes |= route
    return lanes


# Free moves.


def _free_move(s: SocceroState, seat: int, legal: list[Any]) -> Any:
    """Rulebook "Free moves": the move that does the set piece most good for ``seat`` (see
    :class:`_SetPieceJudge`), or ``done`` when none is worth ``FREE_MOVE_GAIN``. Also the
    square of an attacker the wall displaced (``wall-clear``)."""
    done = next((a for a in legal if isinstance(a, Word)), None)
    squares = [a for a in legal if isinstance(a, SquareChoice)]
    if not squares:
        return done if done is not None else legal[0]
    judge = _SetPieceJudge(s, seat)
    if squares[0].verb == "to":
        p = s.pending[4] if s.phase == "free" else s.pending[1]
        allowed = {a.square: a for a in squares}
        best = judge.best_move([p], allowed)
        if best is None:
            # None of the squares the judge looked at: the one nearest his place.
            target = _role_target(s, seat, p)
            return min(squares, key=lambda a: (s.board.distance(a.square, target), a.square))
        return allowed[best[2]]
    movers = {a.square: a for a in squares}  # a player's square -> the pick of him
    players = [p for p in team_players(seat) if s.pos[p] in movers]
    if done is not None:
        players = [p for p in players if p != goalkeeper(seat)]  # the keeper stays in his goal
    best = judge.best_move(players, None)
    if best is None or (done is not None and best[0] < FREE_MOVE_GAIN):
        if done is not None:
            return done
        return movers[s.pos[players[0]]] if players else squares[0]
    return movers[s.pos[best[1]]]


class _SetPieceJudge:
    """What the set piece being prepared is worth to the side taking it, and what one free move
    changes of that (the side taking it wants more, the other side less), in the points the rest
    of this module counts in.

    The kick is read as ``_kick_values`` reads one: for each total the dice may show, the best
    square the ball can be played to at that distance (a set-piece kick flies, so every square
    that far, one turn allowed), valued as ``_landing_value`` values it: a team-mate there keeps
    it unless an opponent can step onto him next roll; an opponent there has won it; an empty
    square is a race between the nearest players in a straight line. The kicker takes one die or
    two, whichever is worth more, or shoots when that is worth more still. A throw-in lands on one
    of three squares per face of its die.

    A team-mate the ball reaches in the air (a set-piece kick but for the direct face, a throw-in)
    may head it at goal (``_header_value``): what brings attackers into the box at a corner.

    A free move changes the worth of the two squares it empties and fills and of the squares on
    straight lines through them within a die's reach (who can step there next turn): a forward
    who stands where the ball may land makes that landing ours; a defender next to him makes it
    a likely steal, or standing on the landing square wins the ball. A player taken further from
    his place (``_role_target``) costs ``PLACE_STEP`` a square, as getting back would earn in open
    play: the set piece must pay for the hole he leaves.
    """

    __slots__ = (
        "s",
        "seat",
        "attackers",
        "defenders",
        "spot",
        "occ",
        "reach",
        "group_of",
        "weights",
        "order",
        "best",
        "totals",
        "value",
        "attack",
        "counter",
        "holders",
        "offside",
        "taker_square",
        "shot",
        "lanes",
        "worth",
        "top",
        "ceiling",
        "header",
        "air",
        "_places",
    )

    def __init__(self, s: SocceroState, seat: int) -> None:
        self.s, self.seat = s, seat
        kind, team, spot, taker, direct = s.setpiece
        b = s.board
        self.attackers, self.defenders = team, 1 - team
        self.spot = spot
        self.occ = s.occupancy()
        self.taker_square = s.pos[taker] if taker >= 0 else -1
        # Who can step onto each square next roll: the nearest of each side in a straight line.
        self.reach = (_in_line_map(s, 0), _in_line_map(s, 1))
        # The landing squares, one group per total of the dice (a throw-in: per face of its
        # die), each with its chance under each choice of dice (a throw-in has one).
        groups: list[tuple[tuple[float, ...], list[int]]]
        self.air = 1.0
        if kind == "penalty":
            # A penalty is a shot: no free move sets up a pass instead (the free moves only put
            # right who stands where the penalty forbids).
            groups = []
        elif kind == "throw-in":
            groups = [((1 / 6,), [q for _, q in set_pieces.throw_targets(s, n)]) for n in range(1, 7)]
        else:
            rings = _rings(b, spot)
            groups = [((_ONE_DIE.get(t, 0.0), _TWO_DICE.get(t, 0.0)), rings[t]) for t in range(1, PASS_REACH + 1)]
            # Rulebook "Kicking the ball in special situations": only the direct face stays on the ground.
            self.air = 1 - dict(b.rules.kick_die).get("direct", 0) / 6
        self.weights = [w for w, _ in groups]
        self.group_of: dict[int, int] = {}
        self.attack = _attack_table(s, team)
        self.counter = _attack_table(s, 1 - team)
        self.holders: dict[int, int] = {}
        self.offside: set[int] = set()
        self.header: dict[int, float] = {}
        # RULINGS Soccero 6: no offside at goal kicks, throw-ins and corners.
        judge_offside = kind not in ("goal-kick", "throw-in", "corner")
        end = s.attacks(team)
        spot_row = b.rows_from_goal_line(spot, end)
        line = second_last_row(s, team)
        for g, (_, squares) in enumerate(groups):
            for q in squares:
                self.group_of[q] = g
                self.holders[q] = self._holder(q)
                row = b.rows_from_goal_line(q, end)
                if row < 6:  # a header can reach the goal only from here
                    self.header[q] = _header_value(s, team, q)
                if judge_offside and b.half_of(q) == end and row < spot_row and row < line:
                    self.offside.add(q)
        self.value = {
            q: self._square(q, self.holders[q], self.reach[1 - team][q], self.reach[team][q]) for q in self.group_of
        }
        self.order = [sorted(((self.value[q], q) for q in squares), reverse=True) for _, squares in groups]
        self.best = [order[0][0] if order else 0.0 for order in self.order]
        # The squares that hold their group's best, and the most each square could be worth with
        # no opponent in reach of it (a team-mate on it, or next to it if it is empty).
        self.top = {q for g, order in enumerate(self.order) for v, q in order[:3] if v >= self.best[g]}
        self.ceiling = {
            q: self.value[q] if q in self.offside else max(self.value[q], self.attack[q], self.header.get(q, 0.0))
            for q in self.value
        }
        choices = len(groups[0][0]) if groups else 0
        self.totals = [
            sum(w[c] * best for w, best in zip(self.weights, self.best, strict=True)) for c in range(choices)
        ]
        may_shoot = kind in ("penalty", "goal-kick", "punt") or (kind == "free-kick" and direct)
        self.lanes = _shot_lanes(s, team, spot) if may_shoot else 0
        self.shot = self._shot(s) if may_shoot else float("-inf")
        self.worth = max([*self.totals, self.shot])
        self._places: dict[int, int] = {}

    def _holder(self, q: int) -> int:
        """The team of the player on ``q`` (-1: nobody, or the taker, who may not touch the ball)."""
        p = self.occ.get(q)
        return -1 if p is None or q == self.taker_square else team_of(p)

    def _square(self, q: int, holder: int, theirs: int, ours: int) -> float:
        """The ball landing on ``q`` (``_landing_value``): ``holder`` the team of the player there,
        ``theirs`` / ``ours`` the squares to the nearest defender / attacker in a straight line."""
        attack, counter = self.attack[q], self.counter[q]
        danger = DANGER * (7 - theirs) / 6
        lost = danger * (0.5 * counter + 40)
        if holder == self.attackers:
            if q in self.offside:
                return -0.5 * counter - 60  # their free kick
            held = (1 - danger) * attack - lost
            # In the air he heads it at goal if that is worth more (``_header_choice``).
            return held + self.air * max(0.0, self.header.get(q, FAILED_HEADER) - held)
        if holder == self.defenders:
            return -0.5 * counter - 60
        return (1 - danger) * (7 - ours) / 6 * attack - lost

    def _shot(self, s: SocceroState) -> float:
        """A declared shot from the spot, one die or two, whichever is worth more (``_kick_values``)."""
        goal, route_at = _shot_table(s, self.attackers, self.spot)
        return max(
            sum(p * _shot_worth(goal[t], route_at[t], True, 0.0) for t, p in chances.items())
            for chances in (_ONE_DIE, _TWO_DICE)
        )

    def _place(self, p: int) -> int:
        found = self._places.get(p)
        if found is None:
            found = self._places[p] = _role_target(self.s, team_of(p), p)
        return found

    def best_move(self, players: list[int], allowed: dict[int, Any] | None) -> tuple[float, int, int] | None:
        """(gain, player, square) of the best free move of one of ``players`` to a square the
        judge weighs (``allowed``: only these squares; ``None``: wherever he may stand)."""
        s, b = self.s, self.s.board
        targets = self._targets()
        occ = self.occ
        best: tuple[float, int, int] | None = None
        for p in players:
            start = s.pos[p]
            place = self._place(p)
            squares = list(targets)
            home = self._near_place(p, place, allowed)
            if home >= 0 and home not in squares:
                squares.append(home)
            doubt = doubtful_squares(s, p)
            for r in squares:
                if r == start:
                    continue
                if allowed is not None:
                    if r not in allowed:
                        continue
                elif not permitted(s, p, r, occ, doubt):
                    continue
                gain = self.after(p, r) - self.worth
                if team_of(p) != self.attackers:
                    gain = -gain
                # Leaving his place costs what getting back to it would earn in open play.
                to_place = b.distances[place]
                gain -= PLACE_STEP * max(0, to_place[r] - to_place[start])
                if best is None or gain > best[0]:
                    best = (gain, p, r)
        return best

    def _near_place(self, p: int, place: int, allowed: dict[int, Any] | None) -> int:
        """The empty square nearest ``p``'s place where he may stand (-1: none within two squares)."""
        s, b = self.s, self.s.board
        occ = self.occ
        doubt = doubtful_squares(s, p)
        to_place = b.distances[place]
        if to_place[s.pos[p]] <= 2:
            return -1  # he is there, near enough
        ring = [place] + [q for d in (1, 2) for ray in b.rays[place] for q in ray[d - 1 : d]]
        for q in sorted(ring, key=lambda q: (to_place[q], q)):
            if (q in allowed) if allowed is not None else permitted(s, p, q, occ, doubt):
                return q
        return -1

    def _targets(self) -> list[int]:
        """The empty squares most likely to do the deciding side good, by a first rough value:
        for the side taking the set piece, a team-mate where the ball may land; for the other
        side, a player on the best landing square or next to the team-mate who would get it."""
        occ = self.occ
        rough: dict[int, float] = {}
        if self.seat == self.attackers:
            theirs = self.reach[self.defenders]
            for q, g in self.group_of.items():
                if q in occ or self.ceiling[q] <= self.best[g]:
                    continue
                w = max(self.weights[g])
                gain = w * (self._square(q, self.attackers, theirs[q], 7) - self.best[g])
                if gain > 0:
                    rough[q] = gain
        else:
            b = self.s.board
            for g, order in enumerate(self.order):
                w = max(self.weights[g])
                if not order or w == 0:
                    continue
                value, q = order[0]
                second = order[1][0] if len(order) > 1 else value
                if value <= second:
                    continue
                if q not in occ:
                    rough[q] = rough.get(q, 0.0) + w * (value - max(second, self._square(q, self.defenders, 7, 7)))
                holder = self.holders[q]
                ours = self.reach[self.attackers][q]
                for ray in b.rays[q]:
                    for k, t in enumerate(ray[:6], 1):
                        if t in occ:
                            break
                        if k < self.reach[self.defenders][q]:
                            marked = self._square(q, holder, k, ours)
                            rough[t] = rough.get(t, 0.0) + w * (value - max(second, marked))
        ranked = sorted(rough, key=lambda q: (-rough[q], q))
        return ranked[:FREE_MOVE_TARGETS]

    def after(self, p: int, r: int) -> float:
        """The set piece's worth to the side taking it once ``p`` has moved to ``r``."""
        s, b = self.s, self.s.board
        occ = self.occ
        team = team_of(p)
        other = 1 - team
        a = s.pos[p]
        mine = self.reach[team]  # p's side: the lines he leaves and joins
        yours = self.reach[other]
        # The squares p can step onto from r: a is empty by then.
        from_r: dict[int, int] = {}
        for ray in b.rays[r]:
            for k, t in enumerate(ray[:6], 1):
                from_r[t] = k
                if t in occ and t != a:
                    break
        # The squares on the lines from a, where p may have been the nearest of his side.
        from_a: dict[int, int] = {}
        for ray in b.rays[a]:
            for k, t in enumerate(ray[:6], 1):
                from_a[t] = k
                if t in occ:
                    break
        changed: dict[int, float] = {}
        seen: set[int] = set()
        group_of = self.group_of
        value, best, top = self.value, self.best, self.top
        attacking = team == self.attackers
        for q in (a, r, *from_a, *from_r):
            if q in seen or q not in group_of:
                continue
            seen.add(q)
            if q == r:
                holder = team
            elif q == a:
                holder = -1
            else:
                holder = self.holders[q]
                if holder == self.defenders:
                    continue  # an opponent there wins the ball, whoever is near
                # Leaving a square's lines makes it worse for p's side, joining them better: a
                # square that gets worse for the attackers matters only if it is its group's
                # best, one that gets better only if it could beat the best.
                worse = (q in from_a) if attacking else (q in from_r)
                better = (q in from_r) if attacking else (q in from_a)
                if not (better and self.ceiling[q] > best[group_of[q]] or worse and q in top):
                    continue
            near = mine[q]
            if q == a or from_a.get(q) == near:
                near = _nearest_in_line(s, team, q, a, r)  # without p
            near = min(near, from_r.get(q, 7))
            far = yours[q]
            if attacking and holder == team:
                # A receiver: p may have stood in a defender's line to him, or may now.
                far = _nearest_in_line(s, other, q, a, r)
            theirs, ours = (far, near) if attacking else (near, far)
            new = self._square(q, holder, theirs, ours)
            if new != value[q]:
                changed[q] = new
        shot = self.shot
        if self.lanes and (self.lanes >> a & 1 or self.lanes >> r & 1):
            pos = list(s.pos)
            pos[p] = r
            shot = self._shot(evolve(s, pos=tuple(pos)))
        return self._total(changed, shot)

    def _total(self, changed: dict[int, float], shot: float) -> float:
        """The worth with the squares of ``changed`` at their new values."""
        group_of = self.group_of
        new_best: dict[int, float] = {}
        for q, v in changed.items():
            g = group_of[q]
            if g not in new_best:
                new_best[g] = next((value for value, sq in self.order[g] if sq not in changed), float("-inf"))
            if v > new_best[g]:
                new_best[g] = v
        worth = shot
        for c, total in enumerate(self.totals):
            for g, value in new_best.items():
                total += self.weights[g][c] * (value - self.best[g])
            worth = max(worth, total)
        return worth


_RINGS: dict[tuple[int, int], list[list[int]]] = {}


def _rings(b: Any, spot: int) -> list[list[int]]:
    """``rings[t]``: the squares ``t`` king moves from ``spot`` (t = 0 .. PASS_REACH)."""
    key = (id(b), spot)
    found = _RINGS.get(key)
    if found is None:
        found = [[] for _ in range(PASS_REACH + 1)]
        for q, d in enumerate(b.distances[spot]):
            if d <= PASS_REACH:
                found[d].append(q)
        _RINGS[key] = found
    return found
