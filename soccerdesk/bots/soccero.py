"""A heuristic Soccero manager: push the ball forward, support it, mark, shoot when in reach.

It scores each legal action with plain football sense instead of searching:

- with the ball: carry it towards the opponents' goal while out of shooting range; else
  kick: each choice (shot or not, one die or two) is valued by the best route it would
  allow, averaged over the distance dice, so shots come when the goal is in reach and the
  dice follow the distances to the goal, team-mates and lines;
- without it: the nearest players chase the ball (and steal it on the exact number),
  the others hold a shape between the ball and their own goal; the goalkeeper stays home;
- air balls are stopped by our players unless our own kick is going somewhere better;
- set pieces: the nearest player takes them, free moves are declined unless forced.
"""

from __future__ import annotations

import random
from typing import Any

from soccerdesk.bots import Bot
from soccerdesk.rules import State
from soccerdesk.rules.soccero.actions import Aim, KickChoice, Path, SquareChoice, Step, Word
from soccerdesk.rules.soccero.board import DIRECTIONS, LOW
from soccerdesk.rules.soccero.play import all_paths, flight, restriction_ok, walk
from soccerdesk.rules.soccero.state import PLAYERS, SocceroState, goalkeeper, team_of, team_players


class HeuristicBot(Bot):
    """Soccero's rule-of-thumb manager (see the module docstring)."""

    name = "heuristic"

    def choose(self, state: State, seat: int, legal: list[Any], rng: random.Random) -> Any:
        s = state
        assert isinstance(s, SocceroState)
        phase = s.phase
        if phase == "moving":
            return _best(legal, _StepJudge(s, seat).value, rng)
        if phase in ("turn", "sp-kick"):
            return _turn_choice(s, seat, legal)
        if phase == "kick-path":
            return _best(legal, lambda a: _path_value(s, seat, a), rng)
        if phase == "air-stop":
            return _air_stop(s, seat, legal)
        if phase == "setup":
            to_home = s.board.distances[_placement_home(s)]
            return _best(legal, lambda a: -to_home[a.square], rng)
        if phase == "header":
            return next(a for a in legal if str(a) == "header")
        if phase in ("header-aim", "throw-aim"):
            return _best(legal, lambda a: _aim_value(s, seat, a), rng)
        if phase in ("sp-spot",):
            goal = _goal_squares(s, seat)
            return _best(legal, lambda a: -min(s.board.distance(a.square, g) for g in goal), rng)
        if phase == "sp-taker":
            spot = s.setpiece[2]
            return _best(
                legal,
                lambda a: -s.board.distance(a.square, spot) - (50 if _is_keeper_square(s, seat, a.square) else 0),
                rng,
            )
        if phase in ("free", "wall", "wall-clear"):
            return _free_move(s, seat, legal, rng)
        return legal[0] if phase in ("ends", "fetch", "block") else rng.choice(legal)


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


# --- the turn: move, pass or shoot -----------------------------------------------------------


def _turn_choice(s: SocceroState, seat: int, legal: list[Any]) -> Any:
    kicks = {(a.shot, a.dice, a.normal): a for a in legal if isinstance(a, KickChoice)}
    words = {a.word: a for a in legal if isinstance(a, Word)}
    if "punt" in words:
        return words["punt"]
    holder = s.holder
    pressed = _nearest_opponent(s, seat, s.ball) <= 2
    if "move" in words and holder != s.red and not pressed and _goal_distance(s, seat, s.ball) > 12:
        return words["move"]  # out of shooting range and free to carry the ball on
    # Score each kick (shot or not, one die or two) by its expected best route, the dice
    # read as straight lines (cheap to walk); then compare with keeping the ball.
    normal = not any(not key[2] for key in kicks)
    values = _kick_values(s, seat, normal)
    options = [(key, values[(key[0], key[1])]) for key in kicks if key[2] == normal]
    best_key, best = max(options, key=lambda kv: kv[1])
    if "move" in words and holder != s.red and not pressed and best < 1000:
        return words["move"]
    return kicks[best_key]


_ONE_DIE = {t: 1 / 6 for t in range(1, 7)}
_TWO_DICE = {t: (6 - abs(t - 7)) / 36 for t in range(2, 13)}


def _kick_values(s: SocceroState, seat: int, normal: bool) -> dict[tuple[bool, int], float]:
    """Expected value of the best route, per (shot, dice), over the distance dice.

    Routes are read as straight lines (the direct face; curves only add options) and each
    distance is walked once, serving all four choices.
    """
    ground = normal or s.phase == "turn"  # set-piece rules fly a curve over everybody
    out = {(shot, dice): 0.0 for shot in (False, True) for dice in (1, 2)}
    for total in range(1, 13):
        routes = all_paths(s, s.ball, total, ground, False, True)
        goal = any(finish == "goal" for finish, _, _ in routes.values())
        kick = max(
            _landing_value(s, seat, "out" if finish == "goal" else finish, squares, s.ball)
            for finish, squares, _ in routes.values()
        )
        # Extended rules: a shot that cannot reach is a weak shot, the defenders' ball.
        shot = 10_000.0 if goal else -300.0 if s.cfg.extended else kick
        for dice, chances in ((1, _ONE_DIE), (2, _TWO_DICE)):
            p = chances.get(total, 0.0)
            out[(False, dice)] += p * kick
            out[(True, dice)] += p * shot
    return out


def _path_value(s: SocceroState, seat: int, path: Path) -> float:
    if path.finish == "goal":
        return 10_000.0
    ground, _, _ = flight(s)
    _, finish, squares, _ = walk(s, path.start, path.legs, ground, s.kick[0])
    return _landing_value(s, seat, finish, squares, path.start)


def _landing_value(s: SocceroState, seat: int, finish: str, squares: list[int], start: int) -> float:
    """How good it is for ``seat`` that the ball ends after passing ``squares``."""
    if finish == "goal":
        return 10_000.0
    b = s.board
    end = squares[-1] if squares else start
    if finish == "out":
        return -500.0 + _progress(s, seat, end)
    q = s.occupancy().get(end)
    forward = _progress(s, seat, end)
    if q is not None:
        if team_of(q) == seat:
            return 300.0 + 3 * forward + 5 * min(_nearest_opponent(s, seat, end), 4)
        return -300.0 + forward
    to_end = b.distances[end]
    mine = min(to_end[s.pos[p]] for p in team_players(seat) if p != s.holder)
    theirs = _nearest_opponent(s, seat, end)
    return 2 * forward + 20 * (theirs - mine)


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


# --- moving players ------------------------------------------------------------------------


def _role_target(s: SocceroState, seat: int, p: int) -> int:
    """Where player ``p`` wants to be: keeper home, chasers on the ball, the rest in shape."""
    b = s.board
    ball = s.ball if s.ball >= 0 else s.pos[p]
    own = s.defends(seat)
    if p == goalkeeper(seat):
        line = 1 if own == LOW else b.rows - 2
        x = min(max(b.xs[ball], min(b.goal_columns)), max(b.goal_columns))
        return line * b.columns + x
    have_ball = s.holder >= 0 and team_of(s.holder) == seat
    home = s.game.formation["receiving"][p % PLAYERS]  # type: ignore[attr-defined]
    home = home if own == LOW else b.mirror(home)
    bx, by = b.xs[ball], b.ys[ball]
    hx, hy = b.xs[home], b.ys[home]
    # Shift the shape towards the ball: up the field when attacking, back when defending.
    step = 1 if own == LOW else -1
    shift = (by - (b.rows // 2)) + (6 * step if have_ball else -2 * step)
    y = min(max(hy + shift, 0), b.rows - 1)
    x = min(max((hx * 2 + bx) // 3, 0), b.columns - 1)
    return y * b.columns + x


class _StepJudge:
    """Values the single-square steps of one ``moving`` decision.

    Everything that does not depend on the step (who stands where, which players chase the
    ball, each player's target square, the opponents' distance to a square) is worked out
    once per decision instead of once per step: a decision often has 80 steps or more.
    """

    __slots__ = ("s", "seat", "board", "_movers", "_chasers", "_targets", "_pressure")

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

    def value(self, step: Step) -> float:
        s = self.s
        p = self._movers[step.start]
        value = self._gain(p, step)
        if s.cfg.extended and not restriction_ok(s, p, step.end):
            value -= 2000.0  # a direct free kick (or a penalty) for the opponents
        return value

    def _nearest_opponent(self, sq: int) -> int:
        found = self._pressure.get(sq)
        if found is None:
            found = self._pressure[sq] = _nearest_opponent(self.s, self.seat, sq)
        return found

    def _chasing_players(self) -> frozenset[int]:
        """The second and third nearest of our players to the ball (the nearest may be the
        one already on it or about to reach it by another step)."""
        if self._chasers is None:
            s = self.s
            to_ball = self.board.distances[s.ball]
            ranked = sorted(team_players(self.seat), key=lambda q: to_ball[s.pos[q]])
            self._chasers = frozenset(ranked[1:3])
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
            value = 100 + 12 * (_progress(s, seat, end_ball) - _progress(s, seat, s.ball))
            if step.ball != step.end:
                value -= 150
            value += 4 * min(self._nearest_opponent(end_ball), 3)
            return float(value)
        if step.ball >= 0 and step.ball == step.end:
            return 500.0 + _progress(s, seat, step.ball)
        if holder < 0 and step.end == s.ball:
            return 600.0
        chasing = holder < 0 or team_of(holder) != seat
        if chasing and s.ball >= 0 and p in self._chasing_players():
            to_ball = b.distances[s.ball]
            before = to_ball[step.start]
            after = to_ball[step.end]
            return 50.0 + 10 * (before - after) - (30 if after == 0 else 0)
        to_target = b.distances[self._target(p)]
        return 5.0 * (to_target[step.start] - to_target[step.end])


def _placement_home(s: SocceroState) -> int:
    """The formation square of the player being placed (``pending[0]``), seen from its end."""
    p = s.pending[0]
    team = team_of(p)
    name = "kickoff" if team == s.team else "receiving"
    home = s.game.formation[name][p % PLAYERS]  # type: ignore[attr-defined]
    return home if s.defends(team) == LOW else s.board.mirror(home)


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
