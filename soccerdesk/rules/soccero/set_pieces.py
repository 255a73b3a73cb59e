"""The extended rules: fouls, offside, headers, weak shots, saves for corners and every set piece.

A set piece is prepared step by step (rulebook "Rules for all special situations"):
``sp-spot`` (where, when the rulebook lets the team choose) → ``sp-taker`` (who) → ``wall``
(free kicks: the defenders place up to three players) → ``wall-clear`` (attackers the wall
displaced are placed elsewhere) → ``free`` (free moves, taking team
first, alternately) → ``sp-kick`` (how to kick) or ``throw-roll``/``throw-aim`` → the kick.
``setpiece`` holds ``(kind, team, spot, taker, direct)``; kinds: ``goal-kick``, ``corner``,
``throw-in``, ``free-kick``, ``penalty``, ``punt``.
"""

from __future__ import annotations

from typing import Any

from soccerdesk.rules.api import Event
from soccerdesk.rules.soccero import play
from soccerdesk.rules.soccero.actions import Path, SquareChoice
from soccerdesk.rules.soccero.board import DIRECTIONS, EXIT_TOUCHLINE, HIGH, LOW, Exit
from soccerdesk.rules.soccero.state import NOBODY, PLAYERS, SocceroState, evolve, goalkeeper, team_of, team_players

S = SocceroState

PHASE_WANTS = {
    "header": "'header' or 'no-header'",
    "header-roll": "the header die",
    "header-aim": "a header direction 'head DIR'",
    "block": "'pick SQ': which nearest defender blocks the weak shot",
    "sp-spot": "'pick SQ': where the set piece is taken",
    "sp-taker": "'pick SQ': who takes the set piece",
    "wall": "'pick SQ' / 'to SQ' for a wall player, or 'done'",
    "wall-clear": "'pick SQ' / 'to SQ': a player the wall displaced goes to a permitted square",
    "free": "'pick SQ' / 'to SQ' for a free move, or 'done'",
    "sp-kick": "'kick D' or 'shoot D' (add 'normal' for the normal kicking rules)",
    "throw-roll": "the throw-in die",
    "throw-aim": "a throw direction 'throw DIR'",
}

_NAMES = {
    "goal-kick": "goal kick",
    "corner": "corner kick",
    "throw-in": "throw-in",
    "free-kick": "free kick",
    "penalty": "penalty kick",
    "punt": "goalkeeper's punt",
}


# --- fouls ---------------------------------------------------------------------------


def foul(s: S, fouling_team: int, square: int, direct: bool, events: list[Event]) -> S:
    """A free kick for the other team at ``square`` (rulebook "Fouls and Sanctions").

    A direct free kick inside the fouling team's own penalty area is a penalty kick.
    """
    other = 1 - fouling_team
    if direct and s.board.penalty_area_of[square] == s.defends(fouling_team):
        return start(s, "penalty", other, s.board.penalty_spot[s.defends(fouling_team)], False, events)
    return start(s, "free-kick", other, square, direct, events)


def steal_foul(s: S, events: list[Event]) -> S:
    """RULINGS Soccero 9: the victim team's first movement roll is a 6."""
    victim, square, stealer = s.steal
    events.append(
        Event(
            "foul",
            f"A 6: the steal by {play.player_name(s, stealer)} was a foul.",
            {"player": stealer, "square": play.sq_name(s, square)},
        )
    )
    return foul(evolve(s, steal=()), team_of(stealer), square, True, events)


def position_sanction(s: S, events: list[Event]) -> play.After | None:
    """Rulebook "Fouls and Sanctions": breaking the position restrictions at the end of a turn."""
    b = s.board
    mates, _ = play.team_shape(s, s.team)
    rows = [b.ys[m] for m in mates]
    cols = [b.xs[m] for m in mates]
    limit = s.cfg.adjacent_limit
    # Only with more than ``limit`` team-mates in one row or column can a line be too long;
    # otherwise only goal-area and full penalty-area squares need the exact check.
    lines_ok = max(map(rows.count, rows), default=0) <= limit and max(map(cols.count, cols), default=0) <= limit
    for p in team_players(s.team):
        sq = s.pos[p]
        if sq < 0 or (p, sq) == s.taker_square:
            continue  # the set-piece taker, where the rules put him for this turn's kick
        if lines_ok and sq not in play.doubtful_squares(s, p):
            continue
        if not play.restriction_ok(s, p, sq):
            events.append(
                Event(
                    "foul",
                    f"{play.player_title(s, p)} breaks the position restrictions on {play.sq_name(s, sq)}.",
                    {"player": p, "square": play.sq_name(s, sq)},
                )
            )
            team = s.team
            return lambda st: foul(st, team, sq, True, events)
    return None


def touch(s: S, p: int, events: list[Event], where: int = NOBODY) -> tuple[S, play.After | None]:
    """``p`` touches the ball: offside (RULINGS Soccero 6) or the set-piece taker's second touch.

    ``where``: the square he touched it on, when not the one he stands on (he picked it up
    during a move); the taker's free kick is given there.
    """
    square = s.pos[p]
    if s.offside >> p & 1:
        events.append(
            Event(
                "offside",
                f"Offside: {play.player_name(s, p)} was in an offside position.",
                {"player": p, "square": play.sq_name(s, square)},
            )
        )
        team = team_of(p)
        return evolve(s, offside=0), lambda st: foul(st, team, square, False, events)
    if s.banned == p:
        events.append(
            Event(
                "foul", f"{play.player_title(s, p)} touched the ball again after taking the set piece.", {"player": p}
            )
        )
        team = team_of(p)
        site = square if where < 0 else where
        return evolve(s, offside=0, banned=NOBODY), lambda st: foul(st, team, site, False, events)
    return evolve(s, offside=0, banned=NOBODY), None


def second_last_row(s: S, team: int) -> int:
    """RULINGS Soccero 6: rows between the goal line ``team`` attacks and the second-last
    opponent on the pitch (the offside line); ``board.rows`` if fewer than two are left."""
    b = s.board
    end = s.attacks(team)
    rows = sorted(b.rows_from_goal_line(s.pos[q], end) for q in team_players(1 - team) if s.pos[q] >= 0)
    return rows[1] if len(rows) > 1 else b.rows


def offside_mask(s: S) -> int:
    """RULINGS Soccero 6: team-mates in an offside position when the ball is kicked."""
    kind = s.setpiece[0] if s.setpiece else ""
    if kind in ("goal-kick", "throw-in", "corner"):
        return 0
    b = s.board
    end = s.attacks(s.team)
    ball_row = b.rows_from_goal_line(s.ball, end)
    second_last = second_last_row(s, s.team)
    mask = 0
    for p in team_players(s.team):
        sq = s.pos[p]
        if sq < 0 or p == s.holder or b.half_of(sq) != end:
            continue
        r = b.rows_from_goal_line(sq, end)
        if r < ball_row and r < second_last:
            mask |= 1 << p
    return mask


# --- shots: weak shots, deflections, the punt --------------------------------------------


def area_to_leave(s: S) -> frozenset[int]:
    """The kicking team's own penalty area while it takes a free kick from inside it (else empty):
    rulebook "Free Kicks Awarded from ... Penalty Area", the ball must be kicked out of it."""
    b = s.board
    sp = s.setpiece
    if sp and sp[0] == "free-kick" and b.penalty_area_of[sp[2]] == s.defends(s.team):
        return b.penalty_area[s.defends(s.team)]
    return frozenset()


def restrict_paths(s: S, found: dict[Path, tuple[str, list[int], Exit | None]]) -> list[Path]:
    """Extended limits on the ball's route: weak shots and free kicks from the own penalty area."""
    b = s.board
    paths = list(found)
    area = area_to_leave(s)
    if area:
        # Rulebook: a free kick from the own penalty area must leave it, else it is retaken.
        paths = [p for p in paths if (found[p][1] or [p.start])[-1] not in area]
    if s.kick[0] and paths:
        # Rulebook "Weak Shots": the ball must go towards the goal as far as the dice say.
        mouth = b.goal_mouth(s.attacks(s.team))
        centre = mouth[len(mouth) // 2]

        def gap(p: Path) -> int:  # squared straight-line distance to the middle of the goal
            last = (found[p][1] or [p.start])[-1]
            return (b.xs[last] - b.xs[centre]) ** 2 + (b.ys[last] - b.ys[centre]) ** 2

        best = min(gap(p) for p in paths)
        paths = [p for p in paths if gap(p) == best]
    return paths


def weak_shot_block(s: S, end: int, events: list[Event]) -> S:
    """Rulebook "Weak Shots": the nearest defender is moved onto the ball (the keeper in his goal area)."""
    b = s.board
    defenders = 1 - s.team
    s = evolve(s, ball=end, holder=NOBODY, red=NOBODY)
    if b.goal_area_of[end] == s.defends(defenders):
        nearest: tuple[int, ...] = (goalkeeper(defenders),)
    else:
        dist = {p: b.distance(s.pos[p], end) for p in team_players(defenders)}
        best = min(dist.values())
        nearest = tuple(p for p, d in dist.items() if d == best)
    if len(nearest) > 1:
        return evolve(s, phase="block", decider=defenders, path=nearest)
    return block(s, nearest[0], events)


def block(s: S, p: int, events: list[Event]) -> S:
    pos = list(s.pos)
    pos[p] = s.ball
    events.append(
        Event("block", f"{play.player_title(s, p)} blocks the weak shot on {play.sq_name(s, s.ball)}.", {"player": p})
    )
    s = evolve(s, pos=tuple(pos), holder=p, path=(), pending=(), decider=s.team)
    # The blocker touches the ball: the set-piece taker's ban is over (rulebook "Fouls and Sanctions").
    s, sanction = touch(s, p, events)
    return play.end_turn(s, events, sanction, awarded=sanction is not None)


def deflected_corner(s: S, events: list[Event]) -> S:
    """Extended save: the keeper turns the ball over the byline, a corner for the shooters."""
    end = s.attacks(s.team)
    team = s.team
    s = evolve(s, pending=(), decider=s.team)
    return play.end_turn(s, events, lambda st: start(st, "corner", team, -1, False, events, corner_end=end))


def may_punt(s: S) -> bool:
    """Rulebook "Goalkeeper's Punt Kick": the keeper controls the ball inside his penalty area."""
    keeper = goalkeeper(s.team)
    return (
        s.holder == keeper
        and s.board.penalty_area_of[s.ball] == s.defends(s.team)
        and s.back_pass != keeper
        and s.forced < 0
    )


def announce_punt(s: S, events: list[Event]) -> S:
    events.append(Event("punt", f"The goalkeeper of seat {s.team} picks the ball up for a punt.", {"seat": s.team}))
    return start(s, "punt", s.team, s.ball, False, events)


# --- the ball out of play ---------------------------------------------------------------


def ball_out(s: S, edge: int, exit_kind: str, exit_end: int, events: list[Event]) -> S:
    """Throw-in, goal kick or corner for the team that did not touch the ball last."""
    other = 1 - s.team
    if exit_kind == EXIT_TOUCHLINE:
        return play.end_turn(s, events, lambda st: start(st, "throw-in", other, edge, False, events))
    if s.defends(s.team) == exit_end:
        return play.end_turn(
            s, events, lambda st: start(st, "corner", other, -1, False, events, corner_end=exit_end, crossed=edge)
        )
    return play.end_turn(s, events, lambda st: start(st, "goal-kick", other, -1, False, events))


def corners(s: S, end: int, crossed: int) -> list[int]:
    """The corner square nearest to where the ball crossed the byline; both when it crossed in
    the middle over the goal (the middle column) or, for a keeper's deflection, is not known."""
    b = s.board
    row = 0 if end == LOW else b.rows - 1
    left, right = row * b.columns, row * b.columns + b.columns - 1
    if crossed >= 0:
        x, middle = b.xs[crossed], (b.columns - 1) / 2
        if x < middle:
            return [left]
        if x > middle:
            return [right]
    return [left, right]


# --- preparing a set piece ---------------------------------------------------------------


def start(
    s: S, kind: str, team: int, spot: int, direct: bool, events: list[Event], corner_end: int = -1, crossed: int = -1
) -> S:
    """Award a set piece of ``kind`` to ``team`` at ``spot`` (-1: the team chooses)."""
    b = s.board
    s = evolve(
        s,
        phase="sp-taker",
        team=team,
        decider=team,
        holder=NOBODY,
        red=NOBODY,
        # A player who still has to leave a square he shares after a steal stays obliged
        # until the taker is placed (place_taker).
        forced=s.forced if s.forced >= 0 and play.shares_square(s.pos, s.forced) else NOBODY,
        steal=(),
        offside=0,
        moved=0,
        points=0,
        kick=(),
        path=(),
        pending=(),
        back_pass=NOBODY,
        banned=NOBODY,  # a new set piece: the last taker's ban is over
    )
    label = _NAMES[kind] if kind != "free-kick" else ("direct" if direct else "indirect") + " free kick"
    own = s.defends(team)
    spots: list[int] = []
    if kind == "goal-kick":
        spots = sorted(b.goal_area[own])
    elif kind == "corner":
        spots = corners(s, corner_end, crossed)
    elif kind == "free-kick":
        if b.goal_area_of[spot] == own:
            spots = sorted(b.goal_area[own])  # rulebook: from any square of the own goal area
        elif b.goal_area_of[spot] == s.attacks(team) and not direct:
            # Rulebook: from the nearest square outside the goal area in the same column.
            step = 1 if own == LOW else -1
            while b.goal_area_of[spot] >= 0:
                spot -= step * b.columns
    text = (
        f"{label[0].upper()}{label[1:]} for seat {team}"
        + (f" on {play.sq_name(s, spot)}" if spot >= 0 and len(spots) != 1 and not spots else "")
        + "."
    )
    events.append(
        Event(
            "set-piece",
            text,
            {"kind": kind, "seat": team, "direct": direct, "square": play.sq_name(s, spot) if spot >= 0 else None},
        )
    )
    if len(spots) == 1:
        spot, spots = spots[0], []
    s = evolve(s, setpiece=(kind, team, spot, NOBODY, direct))
    if spots:
        return evolve(s, phase="sp-spot", pending=tuple(spots))
    return choose_taker(s, events)


def choose_taker(s: S, events: list[Event]) -> S:
    kind, team = s.setpiece[0], s.setpiece[1]
    if kind in ("goal-kick", "punt"):
        return place_taker(s, goalkeeper(team), events)
    return evolve(s, phase="sp-taker", decider=team, pending=())


def penalty_keeper_square(s: S, team: int) -> int:
    """Where the keeper facing ``team``'s penalty stands: the middle of his goal line."""
    b = s.board
    return (0 if s.attacks(team) == LOW else b.rows - 1) * b.columns + b.centre_column


def place_taker(s: S, taker: int, events: list[Event]) -> S:
    """The taker stands on the spot with the ball; anybody else there makes room."""
    kind, team, spot, _, direct = s.setpiece
    pos = list(s.pos)
    keeper = goalkeeper(1 - team) if kind == "penalty" else NOBODY
    # Rulebook "Penalty Kicks": the keeper stands in the middle of his goal line (and stays
    # there: he is not one of those who make room, even if he stood on the spot).
    line = penalty_keeper_square(s, team) if kind == "penalty" else spot
    movers = [p for p in range(2 * PLAYERS) if p not in (taker, keeper) and pos[p] in (spot, line)]
    pos[taker] = spot
    if keeper >= 0:
        pos[keeper] = line
    events.append(
        Event(
            "taker",
            f"{play.player_title(s, taker)} takes the {_NAMES[kind]} on {play.sq_name(s, spot)}.",
            {"player": taker, "square": play.sq_name(s, spot)},
        )
    )
    s = evolve(s, pos=tuple(pos), ball=spot, holder=taker, setpiece=(kind, team, spot, taker, direct))
    for p in movers:
        s = make_room(s, p, events)
    if s.forced >= 0 and play.shares_square(s.pos, s.forced):
        # Set pieces have no movement turns: one who had to leave a square he shares makes room now.
        s = make_room(s, s.forced, events)
    s = evolve(s, forced=NOBODY)
    if kind == "free-kick":
        return evolve(s, phase="wall", decider=1 - team, pending=(s.board.rules.wall_players, NOBODY))
    return begin_free_moves(s)


def make_room(s: S, p: int, events: list[Event]) -> S:
    """``p`` leaves his square for the nearest free square where he may stand while this set
    piece is taken: the position restrictions and the set piece's own placing rules (a free
    kick's opponents off the squares next to the ball, say), so that no free move is spent
    putting right where he was put (docs/rulings.md, Soccero: "Making room for the taker")."""
    doubt = play.doubtful_squares(s, p)
    return play.make_room(s, p, events, lambda q: permitted(s, p, q, {}, doubt))


def permitted(s: S, p: int, sq: int, occ: dict[int, int], doubt: frozenset[int] | None = None) -> bool:
    """May ``p`` stand on ``sq`` while this set piece is taken (restrictions + its own rules)?

    ``doubt``: :func:`play.doubtful_squares` of ``p``, when the caller checks many squares.
    """
    q = occ.get(sq)
    if q is not None and q != p:
        return False
    if sq in forbidden_zone(s, p):
        return False
    return not ((doubt is None or sq in doubt) and not play.restriction_ok(s, p, sq))


def forbidden_zone(s: S, p: int) -> frozenset[int]:
    """Squares this set piece keeps ``p`` off (rulebook, each set piece's placing rules); memoized."""
    kind, team, spot, taker, _ = s.setpiece
    mine = team_of(p) == team
    keeper = p % PLAYERS == 0
    fixed = p in fixed_players(s)
    key = ("zone", kind, team, spot, mine, keeper, fixed, s.low_team)
    memo = play.shape_memo(s)
    found = memo.get(key)
    if found is None:
        found = memo[key] = frozenset(_zone(s, mine, keeper, fixed))
    return found


def _zone(s: S, mine: bool, keeper: bool, fixed: bool) -> set[int]:
    kind, team, spot, _, _ = s.setpiece
    b = s.board
    if fixed:
        return set()
    zone = {spot}  # the taker's square
    if kind in ("goal-kick", "punt"):
        if not keeper:
            zone |= b.penalty_area[LOW] | b.penalty_area[HIGH]
    elif kind == "corner":
        if not mine:
            zone.update(b.neighbours[spot])
    elif kind == "free-kick":
        if not mine:
            zone.update(b.neighbours[spot])
            own_area = b.penalty_area_of[spot]
            if own_area >= 0 and own_area == s.defends(team):
                zone |= b.penalty_area[own_area]
    elif kind == "penalty":
        end = s.attacks(team)
        depth = b.rows_from_goal_line(spot, end)
        zone |= b.penalty_area[end] | b.penalty_arc[end]
        zone.update(sq for sq in range(b.size) if b.rows_from_goal_line(sq, end) <= depth)
    return zone


def explain_placing(s: S, sq: int) -> str:
    """Why the selected player may not be put on ``sq`` now ('' if he may)."""
    selected = s.pending[4] if s.phase == "free" else s.pending[1]
    if selected < 0:
        return "first pick the player to move ('pick SQ')"
    if sq in s.occupancy() and not (s.phase == "wall" and attacker_makes_room(s, sq)):
        return "that square is taken"
    if s.phase == "wall":
        near, far = s.board.rules.wall_distance
        if not near <= s.board.distance(sq, s.setpiece[2]) <= far:
            return f"wall players stand {near} to {far} squares from the ball"
    if sq in forbidden_zone(s, selected):
        return f"during this {_NAMES[s.setpiece[0]]} that player may not stand there"
    if not play.restriction_ok(s, selected, sq):
        return "that square breaks the position restrictions (goal area, penalty area or too many in a line)"
    return ""


def fixed_players(s: S) -> tuple[int, ...]:
    kind, team, _, taker, _ = s.setpiece
    return (taker, goalkeeper(1 - team)) if kind == "penalty" else (taker,)


def misplaced(s: S, team: int) -> list[int]:
    occ = s.occupancy()
    fixed = fixed_players(s)
    return [p for p in team_players(team) if p not in fixed and not permitted(s, p, s.pos[p], occ)]


def begin_free_moves(s: S) -> S:
    """Rulebook "Free moves": two players each (more if players must leave forbidden squares).

    ``pending``: (moves left seat 0, seat 1, seat 0 still moving, seat 1 still moving, the
    player picked, the moves each team had).
    """
    team = s.setpiece[1]
    cap = max(s.board.rules.free_moves, len(misplaced(s, 0)), len(misplaced(s, 1)))
    return evolve(s, phase="free", decider=team, pending=(cap, cap, True, True, NOBODY, cap))


def free_targets(s: S, p: int) -> list[int]:
    occ = s.occupancy()
    doubt = play.doubtful_squares(s, p)
    zone = forbidden_zone(s, p)
    return [
        sq
        for sq in range(s.board.size)
        if sq not in occ and sq not in zone and (sq not in doubt or play.restriction_ok(s, p, sq))
    ]


def wall_targets(s: S, p: int) -> list[int]:
    """Permitted wall squares for defender ``p``: empty, or held by one opponent who will make room.

    Rulebook "Free Kicks": opposing players on the wall squares are placed elsewhere by
    their manager once the wall stands (see :func:`displaced`).
    """
    b = s.board
    spot = s.setpiece[2]
    near, far = b.rules.wall_distance
    occ = s.occupancy()
    out = []
    for sq in range(b.size):
        if not near <= b.distance(sq, spot) <= far:
            continue
        if sq in occ:
            if not attacker_makes_room(s, sq) or not permitted(s, p, sq, {}):
                continue
        elif not permitted(s, p, sq, occ):
            continue
        out.append(sq)
    return out


def attacker_makes_room(s: S, sq: int) -> bool:
    """Is ``sq`` held by exactly one attacker other than the taker (a square a wall may take)?"""
    here = s.players_on(sq)
    return len(here) == 1 and team_of(here[0]) == s.setpiece[1] and here[0] != s.setpiece[3]


def displaced(s: S) -> list[int]:
    """Attackers standing on a square the wall took, who must be placed elsewhere."""
    defenders = 1 - s.setpiece[1]
    wall = {s.pos[q] for q in team_players(defenders)}
    return [p for p in team_players(s.setpiece[1]) if s.pos[p] in wall]


def log_wall(s: S, left: int, events: list[Event]) -> None:
    """The defenders end their wall ('done', or its last player placed; ``left`` places were not
    used): the log says how big it is, or that there is none (rulebook "Free Kicks": the
    defending manager *may* place up to three players)."""
    team = s.decider
    size = s.board.rules.wall_players - left
    players = f"{size} player{'' if size == 1 else 's'}"
    text = f"Seat {team} builds no wall." if size == 0 else f"Seat {team} builds a wall of {players}."
    events.append(Event("wall-done", text, {"seat": team, "players": size}))


def after_wall(s: S) -> S:
    """The wall stands: the attackers it displaced are placed first, then the free moves."""
    if displaced(s):
        return evolve(s, phase="wall-clear", decider=s.setpiece[1], pending=(0, NOBODY))
    return begin_free_moves(evolve(s, pending=()))


def _after_free_move(s: S, team: int, used: bool, events: list[Event]) -> S:
    left0, left1, act0, act1, _, cap = s.pending
    left = [left0, left1]
    active = [act0, act1]
    if used:
        left[team] -= 1
        if left[team] <= 0:
            active[team] = False
    else:
        # 'done': the log says so, or the other side's count dropping to 0 looks like the app
        # skipped them (rulebook "Free moves": each manager *may* move his players).
        active[team] = False
        what = "makes no free moves" if left[team] == cap else "is done with its free moves"
        events.append(Event("free-moves-done", f"Seat {team} {what}.", {"seat": team, "used": cap - left[team]}))
    s = evolve(s, pending=(left[0], left[1], active[0], active[1], NOBODY, cap))
    if active[1 - team]:
        return evolve(s, decider=1 - team)
    if active[team]:
        return evolve(s, decider=team)
    return ready_to_kick(s, events)


def ready_to_kick(s: S, events: list[Event]) -> S:
    kind, team = s.setpiece[0], s.setpiece[1]
    if kind == "throw-in":
        return evolve(s, phase="throw-roll", decider=team, pending=())
    return evolve(s, phase="sp-kick", decider=team, pending=())


def may_shoot(s: S) -> bool:
    """No direct goal from a corner or an indirect free kick; throw-ins are thrown."""
    kind, _, _, _, direct = s.setpiece
    return kind in ("penalty", "goal-kick", "punt") or (kind == "free-kick" and direct)


def kick_can_be_taken(s: S) -> bool:
    return bool(play.kick_paths(s))


def retake(s: S, events: list[Event]) -> S:
    events.append(
        Event("retake", "The ball cannot leave the penalty area with that roll: the free kick is taken again.", {})
    )
    return evolve(s, phase="sp-kick", decider=s.team, kick=())


def throw_targets(s: S, length: int) -> list[tuple[int, int]]:
    """Rulings Soccero 7: (direction, landing square) straight in or at 45° into the field."""
    b = s.board
    spot = s.setpiece[2]
    x, y = b.xs[spot], b.ys[spot]
    inward = 1 if x == 0 else -1
    out_x = x - inward  # the thrower stands beyond the touchline
    found = []
    for d, (_, dx, dy) in enumerate(DIRECTIONS):
        if dx != inward:
            continue
        lx, ly = out_x + dx * length, y + dy * length
        if 0 <= lx < b.columns and 0 <= ly < b.rows:
            found.append((d, ly * b.columns + lx))
    return found


def thrower_square(s: S, landing: int) -> int:
    """The free square nearest to the thrower's place beyond the touchline (not the ball's)."""
    b = s.board
    spot = s.setpiece[2]
    out_x = b.xs[spot] + (-1 if b.xs[spot] == 0 else 1)
    y = b.ys[spot]
    occ = s.occupancy()
    free = [q for q in range(b.size) if q not in occ and q != landing]
    return min(free, key=lambda q: (max(abs(b.xs[q] - out_x), abs(b.ys[q] - y)), q))


# --- headers ------------------------------------------------------------------------------


def offer_header(s: S, p: int) -> S:
    """Rulebook "Headers": a ball arriving in the air on the exact number may be headed on."""
    return evolve(s, phase="header", decider=team_of(p), path=(p,))


# --- the contract hooks for the extended phases ----------------------------------------------


def legal_actions(s: S) -> list[Any]:
    acts = s.game.actions  # type: ignore[attr-defined]
    phase = s.phase
    if phase == "free":
        selected = s.pending[4]
        if selected >= 0:
            # A player with nowhere to go ends the team's free moves ('done').
            return [acts.squares[("to", sq)] for sq in free_targets(s, selected)] or [acts.words["done"]]
        must = misplaced(s, s.decider)
        if must:
            return [acts.squares[("pick", s.pos[p])] for p in must]
        fixed = fixed_players(s)
        return [acts.words["done"]] + [
            acts.squares[("pick", s.pos[p])] for p in team_players(s.decider) if p not in fixed
        ]
    if phase == "header":
        return [acts.words["header"], acts.words["no-header"]]
    if phase == "header-aim":
        return [acts.aims[("head", d)] for d in range(8)]
    if phase == "throw-aim":
        return [acts.aims[("throw", d)] for d, _ in throw_targets(s, s.kick[4])]
    if phase == "sp-kick":
        shots = (False, True) if may_shoot(s) else (False,)
        return [acts.kicks[(shot, d, n)] for shot in shots for d in s.board.rules.distance_dice for n in (False, True)]
    if phase == "sp-taker":
        return [acts.squares[("pick", s.pos[p])] for p in team_players(s.team)]
    if phase == "sp-spot":
        return [acts.squares[("pick", sq)] for sq in s.pending]
    if phase == "block":
        return [acts.squares[("pick", s.pos[p])] for p in s.path]
    if phase == "wall-clear":
        selected = s.pending[1]
        if selected >= 0:
            return [acts.squares[("to", sq)] for sq in free_targets(s, selected)]
        return [acts.squares[("pick", s.pos[p])] for p in displaced(s)]
    if phase == "wall":
        left, selected, *placed = s.pending
        if selected >= 0:
            return [acts.squares[("to", sq)] for sq in wall_targets(s, selected)] or [acts.words["done"]]
        out = [acts.words["done"]]
        if left > 0:  # a player already in the wall stays where he was put: one place each
            out += [acts.squares[("pick", s.pos[p])] for p in team_players(s.decider) if p not in placed]
        return out
    raise AssertionError(f"no decision in phase {phase}")


def _player_on(s: S, sq: int, team: int) -> int:
    return next(p for p in team_players(team) if s.pos[p] == sq)


_RELOCATION_TEXTS = {
    "free-move": "moves freely",
    "wall": "joins the wall",
    "make-room": "makes room for the wall",
    "thrower": "comes onto the field after the throw",
}


def _relocate(s: S, p: int, sq: int, events: list[Event], why: str) -> S:
    pos = list(s.pos)
    events.append(
        Event(
            why,
            f"{play.player_title(s, p)} {_RELOCATION_TEXTS[why]}: {play.sq_name(s, pos[p])}-{play.sq_name(s, sq)}.",
            {"player": p, "from": play.sq_name(s, pos[p]), "to": play.sq_name(s, sq)},
        )
    )
    pos[p] = sq
    return evolve(s, pos=tuple(pos))


def apply(s: S, action: Any, events: list[Event]) -> S:
    phase = s.phase
    if phase == "free":
        if isinstance(action, SquareChoice) and action.verb == "pick":
            return evolve(s, pending=(*s.pending[:4], _player_on(s, action.square, s.decider), s.pending[5]))
        if isinstance(action, SquareChoice):
            s = _relocate(s, s.pending[4], action.square, events, "free-move")
            return _after_free_move(s, s.decider, True, events)
        return _after_free_move(s, s.decider, False, events)
    if phase == "header":
        if action.word == "header":
            header_team = team_of(s.path[0])
            if header_team != s.team:
                # An opponent heads the ball in this turn: while the ball is his, goal, save,
                # offside and out of play count from his team ("team"); end_turn gives the
                # turn back to its owner.
                owner = s.team if s.turn_team < 0 else s.turn_team
                s = evolve(s, team=header_team, turn_team=owner)
            return evolve(s, phase="header-roll", decider=s.team)
        return play.end_turn(evolve(s, path=()), events)
    if phase == "header-roll":
        events.append(Event("roll", f"Header die: {action.value}.", {"value": action.value}))
        p = s.path[0]
        return evolve(s, phase="header-aim", decider=team_of(p), kick=(False, 1, "header", "air", action.value, p))
    if phase == "header-aim":
        p = s.path[0]
        # RULINGS Soccero 6: a header plays the ball on like a kick, so team-mates of the
        # header nearer the goal line than the ball and the second-last opponent are offside.
        s = evolve(s, offside=offside_mask(s))
        legs, finish, squares, ex = play.walk(s, s.pos[p], ((action.direction, s.kick[4]),), False, True)
        events.append(
            Event(
                "header",
                f"{play.player_title(s, p)} heads the ball {play.route_text(s, s.pos[p], legs, squares, finish)}.",
                {"player": p, "path": [play.sq_name(s, q) for q in squares]},
            )
        )
        end = squares[-1] if squares else s.pos[p]
        flight = (end, finish, ex.kind if ex else "", ex.end if ex else -1, True, tuple(squares))
        return play.land(evolve(s, holder=NOBODY, red=NOBODY, path=(), pending=flight, back_pass=NOBODY), events)
    if phase == "throw-roll":
        events.append(Event("roll", f"Throw-in die: {action.value}.", {"value": action.value}))
        return evolve(s, phase="throw-aim", kick=(False, 1, "throw", "air", action.value, s.holder))
    if phase == "throw-aim":
        landing = dict(throw_targets(s, s.kick[4]))[action.direction]
        taker = s.setpiece[3]
        events.append(
            Event(
                "throw-in",
                f"{play.player_title(s, taker)} throws the ball to {play.sq_name(s, landing)}.",
                {"player": taker, "to": play.sq_name(s, landing)},
            )
        )
        if s.pos[taker] == landing:
            # Rulebook "Throw-In": after the throw the thrower comes onto the nearest free
            # square. He stands on the edge square for the throw, so only a throw of one
            # straight in lands where he is; then he steps to the free square nearest to
            # where he threw from (beyond the line), never onto the ball.
            s = _relocate(s, taker, thrower_square(s, landing), events, "thrower")
        s = evolve(
            s,
            holder=NOBODY,
            red=NOBODY,
            banned=taker,
            taker_square=(taker, s.pos[taker]),
            setpiece=(),
            pending=(landing, "", "", -1, True, (landing,)),
        )
        return play.land(s, events)
    if phase == "sp-kick":
        mode = "normal" if action.normal else "set"
        return evolve(s, phase="kick-roll", kick=(action.shot, action.dice, mode))
    if phase == "sp-taker":
        return place_taker(s, _player_on(s, action.square, s.team), events)
    if phase == "sp-spot":
        kind, team, _, taker, direct = s.setpiece
        return choose_taker(evolve(s, setpiece=(kind, team, action.square, taker, direct), pending=()), events)
    if phase == "block":
        return block(s, next(p for p in s.path if s.pos[p] == action.square), events)
    if phase == "wall":
        left, selected, *placed = s.pending
        if isinstance(action, SquareChoice) and action.verb == "pick":
            return evolve(s, pending=(left, _player_on(s, action.square, s.decider), *placed))
        if isinstance(action, SquareChoice):
            s = _relocate(s, selected, action.square, events, "wall")
            left -= 1
            if left > 0:
                return evolve(s, pending=(left, NOBODY, *placed, selected))
        log_wall(s, left, events)
        return after_wall(s)
    if phase == "wall-clear":
        if action.verb == "pick":
            return evolve(s, pending=(0, _player_on(s, action.square, s.decider)))
        s = _relocate(s, s.pending[1], action.square, events, "make-room")
        return after_wall(s)
    raise AssertionError(f"no decision in phase {phase}")


def describe(s: S) -> dict[str, Any]:
    """The set piece under way, for the view."""
    kind, team, spot, taker, direct = s.setpiece
    out: dict[str, Any] = {
        "kind": kind,
        "seat": team,
        "spot": play.sq_name(s, spot) if spot >= 0 else None,
        "taker": taker if taker >= 0 else None,
        "direct": direct,
        "spots": [play.sq_name(s, q) for q in s.pending] if s.phase == "sp-spot" else [],
    }
    if s.phase == "free":
        out["free_moves_left"] = [s.pending[0] if s.pending[2] else 0, s.pending[1] if s.pending[3] else 0]
        out["selected"] = s.pending[4] if s.pending[4] >= 0 else None
        # Rulebook "Free moves": players on squares this set piece forbids are moved first.
        out["must_move"] = misplaced(s, s.decider)
    if s.phase == "wall":
        out["wall_left"] = s.pending[0]
        out["selected"] = s.pending[1] if s.pending[1] >= 0 else None
    if s.phase == "wall-clear":
        out["displaced"] = displaced(s)
        out["selected"] = s.pending[1] if s.pending[1] >= 0 else None
    return out
