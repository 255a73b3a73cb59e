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
- set pieces: the nearest player takes them, free moves are declined unless forced.
"""

from __future__ import annotations

import random
from typing import Any

from soccerdesk.bots import Bot
from soccerdesk.rules import State
from soccerdesk.rules.soccero.actions import Aim, KickChoice, Path, SquareChoice, Step, Word
from soccerdesk.rules.soccero.board import DIRECTIONS, EXIT_GOAL, LOW
from soccerdesk.rules.soccero.play import all_paths, flight, position_cache, restriction_ok, walk
from soccerdesk.rules.soccero.set_pieces import second_last_row
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
            return next(a for a in legal if str(a) == "header")
        if phase in ("free", "wall", "wall-clear"):
            return _free_move(s, seat, legal, rng)
        return legal[0] if phase in ("ends", "fetch", "block") else rng.choice(legal)

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
    most six squares to it (7: nobody), the player who must leave a shared square left out.
    ``vacated``, ``filled``: see ``_danger``."""
    if vacated < 0 and filled < 0:
        return _in_line_map(s, team)[sq]
    occ = s.occupancy()
    nearest = 7
    for ray in s.board.rays[sq]:
        for d, t in enumerate(ray[:6], 1):
            if d >= nearest or t == filled:
                break
            q = occ.get(t)
            if q is None or t == vacated:
                continue
            if team_of(q) == team and q != s.forced:
                nearest = d
            break
    return nearest


def _in_line_map(s: SocceroState, team: int) -> list[int]:
    """``_nearest_in_line`` for every square at once, with nobody moved; cached per state.

    Walks out from each of ``team``'s players instead of in from each square: a line is as
    clear one way as the other, so the distances are the same, and the search asks about many
    squares of one position."""
    cache = s._shape or position_cache(s)
    key = ("in-line", team)
    found = cache.get(key)
    if found is None:
        found = [7] * s.board.size
        occ = s.occupancy()
        rays = s.board.rays
        for start, q in occ.items():
            if team_of(q) != team or q == s.forced:
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
    beside = {q for q in (keeper - 1, keeper + 1) if keeper >= 0 and 0 <= q < b.size and b.ys[q] == b.ys[keeper]}
    taken = s.taken_bits()
    theirs = 0
    for q in team_players(1 - seat):
        if s.pos[q] >= 0 and q != goalkeeper(1 - seat):
            theirs |= 1 << s.pos[q]
    extended = s.cfg.extended
    rules = b.rules
    ground_save = len(rules.save_ground_extended if extended else rules.save_beside_basic) / 6
    air_save = len(rules.save_air_extended) / 6 if extended else 0.0
    out = []

    def route(squares: tuple[int, ...], bits: int, total: int, straight: bool) -> None:
        if total > 12:
            return
        passes_keeper = keeper in squares
        near = passes_keeper or bool(beside.intersection(squares))
        out.append(
            (
                total,
                straight,
                not taken & bits,
                not theirs & bits,
                ground_save if near else 0.0,
                air_save if near else 0.0,
            )
        )

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
        kick = max(_landing_value(s, seat, finish, squares, s.ball) for finish, squares, _ in routes.values())
        # The curve faces also reach team-mates round a corner.
        turned = max((v for d, v in bent if d <= total), default=kick)
        kick = straight_share * kick + (1 - straight_share) * max(kick, turned)
        reach = route_at[total]
        scored = goal[total]
        saved = reach - scored
        # Saved: the keeper's ball (basic) or a corner for us (extended). No route: the
        # basic rules play it as a kick, the extended rules make it a weak shot (their ball).
        shot = scored * GOAL + saved * (CORNER if extended else -40.0) + (1 - reach) * (WEAK_SHOT if extended else kick)
        for dice, chances in ((1, _ONE_DIE), (2, _TWO_DICE)):
            p = chances.get(total, 0.0)
            out[(False, dice)] += p * kick
            out[(True, dice)] += p * shot
    return out


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
    return _landing_value(s, seat, finish, squares, path.start)


def _save_chance(s: SocceroState, seat: int, path: Path) -> float:
    """The keeper's chance to save a shot along ``path`` (RULINGS Soccero 2, extended saves)."""
    ground, _, _ = flight(s)
    _, _, squares, _ = walk(s, path.start, path.legs, ground, True)
    b = s.board
    keeper = s.pos[goalkeeper(1 - seat)]
    if keeper < 0:
        return 0.0
    beside = {q for q in (keeper - 1, keeper + 1) if 0 <= q < b.size and b.ys[q] == b.ys[keeper]}
    near = bool(beside.intersection(squares)) or keeper in squares
    if not near:
        return 0.0
    rules = b.rules
    if ground:
        return len(rules.save_ground_extended if s.cfg.extended else rules.save_beside_basic) / 6
    return len(rules.save_air_extended) / 6 if s.cfg.extended else 0.0


def _landing_value(s: SocceroState, seat: int, finish: str, squares: list[int], start: int) -> float:
    """How good it is for ``seat`` that the ball ends after passing ``squares``."""
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
            return _held_value(s, seat, end)
        return -0.5 * _attack_value(s, 1 - seat, end) - 60
    # A loose ball: the other side moves first; then our nearest player may reach it (the
    # kicker too: a ball played into space and run onto is a dribble). Either side's player
    # needs a clear straight line to it, no longer than the die (rulebook "Moving Players").
    p_theirs = _danger(s, seat, end)
    p_ours = (7 - _nearest_in_line(s, seat, end)) / 6
    return (1 - p_theirs) * p_ours * _attack_value(s, seat, end) - p_theirs * (
        0.5 * _attack_value(s, 1 - seat, end) + 40
    )


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
        weight = 5.0
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


def _free_move(s: SocceroState, seat: int, legal: list[Any], rng: random.Random) -> Any:
    done = next((a for a in legal if str(a) == "done"), None)
    squares = [a for a in legal if isinstance(a, SquareChoice)]
    if not squares:
        return done if done is not None else legal[0]
    if squares[0].verb == "to":
        selected = s.pending[4] if s.phase == "free" else s.pending[1]
        target = _role_target(s, seat, selected)
        return _best(squares, lambda a: -s.board.distance(a.square, target), rng)
    if done is not None:
        return done
    return squares[0]
