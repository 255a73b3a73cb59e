"""The basic rules: set-up, kick-off, turns, moving players, stealing, carrying, kicking.

Every function takes a :class:`SocceroState` and returns a new one; the extended rules
(set pieces, fouls, headers, offside) live in :mod:`.set_pieces` and are called from here
only when the match option ``extended`` is on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from soccerdesk.rules.api import Event, IllegalAction, uniform
from soccerdesk.rules.soccero import set_pieces
from soccerdesk.rules.soccero.actions import Aim, Die, KickChoice, KickRoll, Path, SquareChoice, Step, Word
from soccerdesk.rules.soccero.board import EXIT_GOAL, EXIT_TOUCHLINE, HIGH, LOW, Board, Exit
from soccerdesk.rules.soccero.state import (
    CHANCE_PHASES,
    NOBODY,
    PLAYERS,
    SocceroState,
    evolve,
    goalkeeper,
    team_of,
    team_players,
)

S = SocceroState
After = Callable[[S], S]

# Two distance dice: how many of the 36 throws give each total.
_TWO_DICE = {t: 6 - abs(t - 7) for t in range(2, 13)}


# --- names for events and the view ---------------------------------------------------


def sq_name(s: S, sq: int) -> str:
    return s.board.names[sq] if sq >= 0 else "-"


def player_name(s: S, p: int) -> str:
    team = team_of(p)
    number = p - team * PLAYERS + 1
    return f"{'goalkeeper' if number == 1 else 'player ' + str(number)} of seat {team}"


def player_title(s: S, p: int) -> str:
    """:func:`player_name` at the start of a sentence."""
    name = player_name(s, p)
    return name[0].upper() + name[1:]


# --- dispatch (the contract hooks of SocceroState) -------------------------------------


def chance_outcomes(s: S) -> list[tuple[Any, float]]:
    acts = s.game.actions  # type: ignore[attr-defined]
    phase = s.phase
    if phase == "toss":
        return uniform([acts.dice[("toss", 0)], acts.dice[("toss", 1)]])
    if phase == "save":
        return uniform([acts.dice[("keeper", n)] for n in range(1, 7)])
    if phase == "kick-roll":
        return s.game.kick_roll_outcomes[s.kick[1]]  # type: ignore[attr-defined]
    return uniform([acts.dice[("roll", n)] for n in range(1, 7)])


def legal_actions(s: S) -> list[Any]:
    acts = s.game.actions  # type: ignore[attr-defined]
    phase = s.phase
    if phase == "moving":
        return movement_steps(s)
    if phase == "turn":
        out = [acts.words["move"]] + [
            acts.kicks[(shot, d, False)] for shot in (False, True) for d in s.board.rules.distance_dice
        ]
        if s.cfg.extended and set_pieces.may_punt(s):
            out.append(acts.words["punt"])
        return out
    if phase == "kick-path":
        return kick_paths(s)
    if phase == "air-stop":
        return [acts.words["stop"], acts.words["let"]]
    if phase == "setup":
        place = acts.place
        return [place[sq] for sq in placement_squares(s, s.pending[0])]
    if phase == "ends":
        return [acts.dice[("defend", 1)], acts.dice[("defend", s.board.rows)]]
    if phase == "fetch":
        return [acts.squares[("pick", s.pos[p])] for p in s.pending]
    return set_pieces.legal_actions(s)


def apply(s: S, action: Any, events: list[Event]) -> S:
    phase = s.phase
    if phase == "moving":
        return apply_step(s, action, events)
    if phase == "roll":
        return apply_movement_roll(s, action.value, events)
    if phase == "turn":
        if action is s.game.actions.words["move"]:  # type: ignore[attr-defined]
            return evolve(s, phase="roll")
        if isinstance(action, KickChoice):
            return evolve(s, phase="kick-roll", kick=(action.shot, action.dice, ""))
        return set_pieces.announce_punt(s, events)
    if phase == "kick-roll":
        return apply_kick_roll(s, action, events)
    if phase == "kick-path":
        return apply_path(s, action, events)
    if phase == "air-stop":
        return apply_air_stop(s, action.word == "stop", events)
    if phase == "save":
        return apply_save(s, action.value, events)
    if phase == "fetch":
        return fetch_ball(s, next(p for p in s.pending if s.pos[p] == action.square), events)
    if phase == "toss":
        events.append(
            Event(
                "toss",
                f"Seat {action.value} wins the toss and kicks off; seat {1 - action.value} chooses the end.",
                {"seat": action.value},
            )
        )
        return evolve(s, phase="ends", kickoff_team=action.value, decider=1 - action.value, team=1 - action.value)
    if phase == "ends":
        low = s.decider if action.value == 1 else 1 - s.decider
        events.append(Event("ends", f"Seat {low} defends row 1, seat {1 - low} row {s.board.rows}.", {"low_team": low}))
        return begin_kickoff(evolve(s, low_team=low), s.kickoff_team, events)
    if phase == "setup":
        return apply_placement(s, action.square, events)
    return set_pieces.apply(s, action, events)


# --- set-up and kick-off ---------------------------------------------------------------


def kickoff_square(s: S, team: int) -> int:
    """The square next to the centre mark in ``team``'s own half."""
    b = s.board
    row = b.halfway_after_row - 1 if s.defends(team) == LOW else b.halfway_after_row
    return row * b.columns + b.centre_column


def begin_kickoff(s: S, kicker_team: int, events: list[Event]) -> S:
    """Clear the field for a kick-off by ``kicker_team`` (start, second half, after a goal)."""
    s = evolve(
        s,
        pos=(-1,) * (2 * PLAYERS),
        ball=-1,
        holder=NOBODY,
        red=NOBODY,
        forced=NOBODY,
        moved=0,
        points=0,
        kick=(),
        path=(),
        setpiece=(),
        steal=(),
        banned=NOBODY,
        offside=0,
        back_pass=NOBODY,
        team=kicker_team,
        decider=kicker_team,
    )
    if s.cfg.quick_setup:
        pos = tuple(formation_square(s, p) for p in range(2 * PLAYERS))
        return kickoff(evolve(s, pos=pos), kicker_team, events)
    # Rulebook "Initial Formation": the team with the ball places all its players first;
    # its centre pair first, so the rest can keep their distance from them.
    order = [kicker_team * PLAYERS + i for i in (10, 9, *range(9))]
    order += [(1 - kicker_team) * PLAYERS + i for i in range(PLAYERS)]
    events.append(Event("setup", f"Seat {kicker_team} sets up first (it has the kick-off).", {"seat": kicker_team}))
    return evolve(s, phase="setup", pending=tuple(order))


def formation_square(s: S, p: int) -> int:
    """Player ``p``'s square in the Quick set-up's formation (``soccero.toml``, written for a
    team defending row 1), at the end his team defends, for a kick-off by the turn team."""
    team = team_of(p)
    square: int = s.game.formation["kickoff" if team == s.team else "receiving"][p - team * PLAYERS]  # type: ignore[attr-defined]
    return square if s.defends(team) == LOW else s.board.mirror(square)


def placement_squares(s: S, p: int) -> list[int]:
    """Where the next player of the initial formation may stand (rulebook "Initial Formation")."""
    b = s.board
    team = team_of(p)
    kicking = team == s.team  # begin_kickoff makes the kicking-off team the turn team
    number = p - team * PLAYERS
    ko = kickoff_square(s, team)
    if kicking and number == 10:
        return [ko]
    if kicking and number == 9:
        return [sq for sq in (ko - 1, ko + 1)]
    # At least one empty square between team-mates; the centre pair is exempt between them.
    taken = {n for q in team_players(team) if s.pos[q] >= 0 for n in (s.pos[q], *b.neighbours[s.pos[q]])}
    if kicking:
        taken.update((ko, ko - 1, ko + 1))
    else:
        taken.update(b.centre_circle)
    # Only the goalkeeper may stand in the penalty area (precomputed per half).
    allowed = s.game.half_squares[s.defends(team)] if number == 0 else s.game.field_squares[s.defends(team)]  # type: ignore[attr-defined]
    return [sq for sq in allowed if sq not in taken]


def apply_placement(s: S, sq: int, events: list[Event]) -> S:
    p = s.pending[0]
    pos = list(s.pos)
    pos[p] = sq
    rest = s.pending[1:]
    events.append(
        Event("place", f"{player_title(s, p)} set up on {sq_name(s, sq)}.", {"player": p, "square": sq_name(s, sq)})
    )
    s = evolve(s, pos=tuple(pos), pending=rest)
    if rest:
        return evolve(s, decider=team_of(rest[0]))
    return kickoff(s, s.team, events)


def kickoff(s: S, team: int, events: list[Event]) -> S:
    """Rulebook "Kickoff": the ball goes from the centre player to the one beside him."""
    partner = team * PLAYERS + 9
    events.append(
        Event(
            "kickoff",
            f"Kick-off: seat {team} passes to {sq_name(s, s.pos[partner])}.",
            {"seat": team, "square": sq_name(s, s.pos[partner])},
        )
    )
    s = evolve(s, ball=s.pos[partner], holder=partner, pending=())
    return start_turn(s, team)


# --- turns ---------------------------------------------------------------------------


def start_turn(s: S, team: int) -> S:
    """A new turn: the team with the ball chooses move or kick; the other just rolls."""
    has_ball = s.holder >= 0 and team_of(s.holder) == team
    return evolve(
        s,
        phase="turn" if has_ball else "roll",
        team=team,
        decider=team,
        moved=0,
        points=0,
        kick=(),
        path=(),
        pending=(),
        setpiece=(),
    )


def end_turn(s: S, events: list[Event], after: After | None = None, *, awarded: bool = False) -> S:
    """Close the turn of ``s.team``; then ``after`` (a set piece, a kick-off) or the other team's turn.

    ``awarded``: ``after`` is a free kick or a penalty for an offence. One awarded in the last
    turn of a half is still taken (its kick is then the half's last turn), as a referee lets a
    penalty be taken after time is up; a restart for a ball out of play or a kick-off is not.
    """
    if s.turn_team >= 0:
        # An opponent's header happened in this turn: the turn was still its owner's.
        s = evolve(s, team=s.turn_team, turn_team=NOBODY)
    if after is None and s.cfg.extended:
        sanction = set_pieces.position_sanction(s, events)
        if sanction is not None:
            after, awarded = sanction, True
    # The player who lost the ball stays obliged to move off first until he has left (he may
    # have had no free square to go to this turn).
    forced = s.forced if s.forced >= 0 and shares_square(s.pos, s.forced) else NOBODY
    played = (s.turns[0] + (s.team == 0), s.turns[1] + (s.team == 1))
    s = evolve(
        s,
        turns=played,
        forced=forced,
        moved=0,
        points=0,
        kick=(),
        path=(),
        pending=(),
        offside=0,
        taker_square=(),
    )
    # RULINGS Soccero 1: the half is over once each manager has played his turns.
    if min(played) >= s.cfg.turns and not (awarded and after is not None):
        if s.half < s.board.rules.halves:  # RULINGS Soccero 1: the halves of soccero.toml
            pause = "Half-time" if s.half == 1 else f"End of half {s.half}"
            events.append(
                Event(
                    "half-time",
                    f"{pause}: {s.goals[0]}-{s.goals[1]}. The teams change ends.",
                    {"score": list(s.goals)},
                )
            )
            s = evolve(s, half=s.half + 1, turns=(0, 0), low_team=1 - s.low_team)
            # The team that kicked off the first half kicks off the odd halves, the other the even.
            return begin_kickoff(s, s.kickoff_team if s.half % 2 else 1 - s.kickoff_team, events)
        events.append(Event("full-time", f"Full time: {s.goals[0]}-{s.goals[1]}.", {"score": list(s.goals)}))
        return evolve(s, phase="over", decider=NOBODY)
    if after is not None:
        # A restart is taken even by a team that has played all its turns: the ball must be
        # back in play for the other team's remaining ones (docs/rulings.md, Soccero, "Turns").
        return after(s)
    # A team that has played all its turns sits out while the other plays its remaining ones.
    other = 1 - s.team
    return start_turn(s, other if played[other] < s.cfg.turns else s.team)


# --- moving players --------------------------------------------------------------------


def shared_square(s: S) -> int:
    """The square two players share after a steal, else -1."""
    return s.pos[s.forced] if s.forced >= 0 else -1


def position_cache(s: S) -> dict[Any, Any]:
    """The dict in which facts about ``s``'s position (its players and ball, not the phase) are
    kept once worked out; made on first use. Callers read ``s._shape or position_cache(s)``
    so that the common case stays one attribute read."""
    cache = s._shape
    if cache is None:
        cache = {}
        object.__setattr__(s, "_shape", cache)
    return cache


def team_shape(s: S, team: int) -> tuple[frozenset[int], tuple[int, int]]:
    """(squares of ``team``'s players, its field players in the LOW and HIGH penalty areas); cached."""
    cache = s._shape or position_cache(s)
    found = cache.get(team)
    if found is None:
        line_up = s.pos[team * PLAYERS : team * PLAYERS + PLAYERS]
        memo = shape_memo(s)
        found = memo.get(line_up)
        if found is None:
            area = s.board.penalty_area_of
            squares = [sq for sq in line_up if sq >= 0]
            field_areas = [area[sq] for sq in line_up[1:] if sq >= 0]
            found = memo[line_up] = (frozenset(squares), (field_areas.count(LOW), field_areas.count(HIGH)))
        cache[team] = found
    return found


def shape_memo(s: S) -> dict[Any, Any]:
    """A game-wide memo of facts that depend only on where one team's players stand (speed only)."""
    memo: dict[Any, Any] = s.game.shape_memo  # type: ignore[attr-defined]
    if len(memo) > 200_000:
        memo.clear()
    return memo


def restriction_ok(s: S, p: int, sq: int) -> bool:
    """Rulebook "Restrictions on Player Positions During Play" for ``p`` ending on ``sq``."""
    b = s.board
    team = team_of(p)
    keeper = p == team * PLAYERS
    ga = b.goal_area_of[sq]
    if ga >= 0 and not (keeper and s.defends(team) == ga):
        return False
    mates, in_area = team_shape(s, team)
    origin = s.pos[p]
    pa = b.penalty_area_of[sq]
    if pa >= 0 and not keeper:
        inside = in_area[pa] - (1 if origin >= 0 and b.penalty_area_of[origin] == pa else 0)
        if inside >= b.rules.penalty_area_field_players:
            return False
    limit = s.cfg.adjacent_limit
    rays = b.rays[sq]
    for a, c in ((2, 6), (0, 4)):  # E/W: the row; N/S: the column
        run = 1
        for n in rays[a]:
            if n not in mates or n == origin:
                break
            run += 1
        for n in rays[c]:
            if n not in mates or n == origin:
                break
            run += 1
        if run > limit:
            return False
    return True


def crowded_squares(s: S, team: int) -> frozenset[int]:
    """Squares where one more player of ``team`` would make a too-long row or column; cached.

    Only squares next to a team-mate in a row or column can be crowded, so few are checked.
    """
    cache = s._shape
    key = team + 2
    if cache is not None and key in cache:
        return cache[key]
    mates, _ = team_shape(s, team)
    memo_key = (mates, s.cfg.adjacent_limit)
    memo = shape_memo(s)
    found = memo.get(memo_key)
    if found is None:
        found = memo[memo_key] = _crowded(s, mates)
    position_cache(s)[key] = found
    return found


def crowded_lines(s: S, team: int) -> tuple[frozenset[int], frozenset[int]]:
    """Rows and columns (board indices) with more than ``adjacent_limit`` - 2 players of ``team``:
    where two more of them might make a line too long; cached (worked out with :func:`_crowded`)."""
    cache = s._shape
    key = ("lines", team)
    if cache is not None and key in cache:
        return cache[key]
    mates, _ = team_shape(s, team)
    memo = shape_memo(s)
    found = memo.get(("lines", mates, s.cfg.adjacent_limit))
    if found is None:
        _crowded(s, mates)
        found = memo[("lines", mates, s.cfg.adjacent_limit)]
    position_cache(s)[key] = found
    return found


def _crowded(s: S, mates: frozenset[int]) -> frozenset[int]:
    b = s.board
    rays = b.rays
    limit = s.cfg.adjacent_limit
    rows = [b.ys[m] for m in mates]
    cols = [b.xs[m] for m in mates]
    in_row = list(map(rows.count, rows))
    in_column = list(map(cols.count, cols))
    shape_memo(s)[("lines", mates, limit)] = (
        frozenset([y for y, n in zip(rows, in_row, strict=True) if n > limit - 2]),
        frozenset([x for x, n in zip(cols, in_column, strict=True) if n > limit - 2]),
    )
    if max(in_row, default=0) < limit and max(in_column, default=0) < limit:
        return frozenset()  # nobody can make a line of more than ``limit``
    near = {ray[0] for m in mates for d, ray in enumerate(rays[m]) if ray and d % 2 == 0 and ray[0] not in mates}
    crowded = set()
    for sq in near:
        r = rays[sq]
        for a, c in ((2, 6), (0, 4)):
            run = 1
            for d in (a, c):
                for n in r[d]:
                    if n not in mates:
                        break
                    run += 1
            if run > limit:
                crowded.add(sq)
    return frozenset(crowded)


def doubtful_squares(s: S, p: int) -> frozenset[int]:
    """Squares where ``p`` may break a position restriction (checked exactly); cached per team.

    Goal areas, full penalty areas and crowded rows/columns: everywhere else is fine.
    """
    team = team_of(p)
    keeper = p == team * PLAYERS
    key = (team, keeper)
    cache = s._shape
    if cache is not None and key in cache:
        return cache[key]
    b = s.board
    _, in_area = team_shape(s, team)
    doubt = set(crowded_squares(s, team))
    if keeper:
        doubt |= b.goal_area[1 - s.defends(team)]
    else:
        doubt |= b.goal_area[LOW] | b.goal_area[HIGH]
        for end in (LOW, HIGH):
            if in_area[end] >= b.rules.penalty_area_field_players:
                doubt |= b.penalty_area[end]
    found = frozenset(doubt)
    position_cache(s)[key] = found
    return found


Reach = list[tuple[int, int, int, Step]]
"""(squares, direction, end, the plain move) of each straight move of one player."""

Entry = tuple[int, Reach, int, dict[Any, Any]]
"""A movable player, his moves of up to six squares, the lengths within the die as bits, a cache of
lists made from the moves (keyed by the points: the plain moves of at most that many squares)."""


def bits_of(s: S, squares: Any) -> int:
    """The squares of a set (or the keys of a dict) as one bit mask; cached per state and set."""
    cache = s._shape or position_cache(s)
    key = ("bits", id(squares))
    found = cache.get(key)
    if found is None:
        found = 0
        for sq in squares:
            found |= 1 << sq
        cache[key] = found
    return found


def player_reach(s: S, p: int, occ: dict[int, int], limit: int, only_empty: bool) -> tuple[Reach, int]:
    """Every straight move of ``p`` of at most ``limit`` squares, and the bit mask of their lengths.

    No passing through players (rulebook "Moving Players"); the end may be the square of
    an opponent holding the ball (a steal) unless ``only_empty``. In the basic rules the
    position restrictions are kept by refusing moves that break them (docs/rulings.md).
    """
    start = s.pos[p]
    team = team_of(p)
    steal = -1 if only_empty else steal_square(s, team)
    doubt = None if s.cfg.extended else doubtful_squares(s, p)
    doubt_bits = 0 if doubt is None else bits_of(s, doubt)
    taken = s.taken_bits()
    board = s.board
    acts = s.game.actions  # type: ignore[attr-defined]
    if limit == MAX_STEP and not (taken | doubt_bits) & board.reach_bits[start]:
        # Nobody within six squares along any line and nothing to check: every move is open.
        every, lengths = acts.open_moves[start]
        return list(every), lengths
    line_moves = acts.line_moves[start]
    ray_bits = board.ray_bits[start]
    out: Reach = []
    mask = 0
    for d, ray in enumerate(board.rays[start]):
        prefix = ray_bits[d]
        top = limit if limit < len(ray) else len(ray)
        # The free run: squares up to the first player (or the limit).
        blocked = taken & prefix[top]
        if not blocked:
            free = top
        elif ray[0] > start:  # squares numbered upwards along the ray: the lowest bit is the nearest
            free = ray.index((blocked & -blocked).bit_length() - 1)
        else:
            free = ray.index(blocked.bit_length() - 1)
        moves = line_moves[d]
        if not doubt_bits & prefix[free]:
            out.extend(moves[:free])
            mask |= (1 << (free + 1)) - 2
        else:
            for m in moves[:free]:
                if m[2] not in doubt or restriction_ok(s, p, m[2]):  # type: ignore[operator]
                    out.append(m)
                    mask |= 1 << m[0]
        if free < top and ray[free] == steal and (doubt is None or steal not in doubt or restriction_ok(s, p, steal)):
            out.append(moves[free])
            mask |= 1 << (free + 1)
    return out, mask


def _free_run(start: int, ray: tuple[int, ...], prefix: tuple[int, ...], blockers: int, limit: int) -> tuple[int, int]:
    """(free, top): how many squares of ``ray`` from ``start`` are free of ``blockers`` (bit mask) up to
    ``top``, the limit or the edge; ``prefix`` is the ray's :attr:`Board.ray_bits`. (The same steps are
    written out in :func:`player_reach`, the hot path, to save a call per line.)"""
    top = limit if limit < len(ray) else len(ray)
    blocked = blockers & prefix[top]
    if not blocked:
        return top, top
    if ray[0] > start:  # squares numbered upwards along the ray: the lowest bit is the nearest
        return ray.index((blocked & -blocked).bit_length() - 1), top
    return ray.index(blocked.bit_length() - 1), top


def _subset_add(reach: int, mask: int, cap: int) -> int:
    out = reach
    k = 1
    m = mask >> 1
    while m:
        if m & 1:
            out |= reach << k
        m >>= 1
        k += 1
    return out & cap


def movement_plan(s: S, limit: int) -> tuple[list[Entry], list[Entry]]:
    """Who may make the next move and how, and every player who could use the rest of the die.

    The first list is every player who has not moved yet, or only the forced player while
    he must leave the ball's square first and can (rulebook "Stealing the Ball"); the
    second is every unmoved player but the forced one. Lengths are cut to ``limit``;
    cached per state and limit. Which of the moves keep the die usable (RULINGS Soccero 3)
    is :func:`movement_steps`' question.
    """
    cache = s._plan
    if cache is None:
        cache = {}
        object.__setattr__(s, "_plan", cache)
    found = cache.get(limit)
    if found is None:
        found = cache[limit] = _movement_plan(s, limit)
    return found


def steal_square(s: S, team: int) -> int:
    """Where a player of ``team`` could steal the ball now (-1: nowhere)."""
    holder = s.holder
    if holder >= 0 and team_of(holder) != team and s.pos[holder] != shared_square(s):
        return s.pos[holder]
    return -1


def _movement_plan(s: S, limit: int) -> tuple[list[Entry], list[Entry]]:
    occ = s.occupancy()
    moved = s.moved
    forced = s.forced if s.forced >= 0 and team_of(s.forced) == s.team and not moved >> s.forced & 1 else NOBODY
    entries = []
    restriction_key = _restriction_key(s)
    reuse = _reusable_reach(s, restriction_key)
    reach: dict[int, tuple[Reach, int, dict[Any, Any]]] = {}
    full = (1 << (limit + 1)) - 1
    first = None
    for p in team_players(s.team):
        if moved >> p & 1 or s.pos[p] < 0:
            continue
        found: tuple[Reach, int, dict[Any, Any]] | None = reuse(p) if reuse is not None and p != forced else None
        if found is None:
            moves, mask = player_reach(s, p, occ, MAX_STEP, only_empty=p == forced)
            found = (moves, mask, {})
        if p != forced:
            reach[p] = found
        moves, mask, shorter = found
        # The moves stay uncut (movement_steps skips those longer than the points): only
        # their lengths are cut to the die's limit.
        mask &= full
        if mask:
            if p == forced:
                first = (p, moves, mask, shorter)
            else:
                entries.append((p, moves, mask, shorter))
    memo = dict(s._memo) if s._memo else {}
    memo[s.team] = (s.pos, steal_square(s, s.team), restriction_key, reach)
    object.__setattr__(s, "_memo", memo)
    if first is not None:
        return [first], entries
    return entries, entries


MAX_STEP = 6
"""The most squares one player can move: a die's top face."""


def _restriction_key(s: S) -> Any:
    """What the basic rules' restriction checks of the turn team depend on (None: nothing)."""
    if s.cfg.extended:
        return None
    return (team_shape(s, s.team)[1], crowded_squares(s, s.team))


def _reusable_reach(s: S, restriction_key: Any) -> Any:
    """A lookup of players' moves worked out in an earlier position that nothing has changed since.

    A player's straight lines change only where a square within six of him along a line
    changed hands (a player came or went, a steal became possible or not), and in the basic
    rules only if the restriction data of his team is the same. Speed only: the answer is
    the one :func:`player_reach` would give.
    """
    memo = s._memo.get(s.team) if s._memo else None
    if memo is None:
        return None
    pos_then, steal_then, key_then, previous = memo
    if key_then != restriction_key:
        return None
    steal_now = steal_square(s, s.team)
    pos_now = s.pos
    changed = set(pos_then).symmetric_difference(pos_now)
    changed.discard(-1)
    if steal_now != steal_then:
        changed.update((steal_now, steal_then))
        changed.discard(-1)
    # The squares from which a changed square lies within six along a straight line: the board
    # is a rectangle, so that is the changed square's own six-square reach (and itself).
    reach_bits = s.board.reach_bits
    near = 0
    for a in changed:
        near |= reach_bits[a] | 1 << a

    def reuse(p: int) -> tuple[Reach, int, dict[int, Any]] | None:
        found = previous.get(p)
        if found is None:
            return None
        q = pos_now[p]
        if pos_then[p] != q or near >> q & 1:
            return None
        return found

    return reuse


def movement_target(s: S, points: int) -> int:
    """RULINGS Soccero 3: ``points`` if some order of moves uses them exactly, else the largest total that can be."""
    for total in range(points, 0, -1):
        if can_use(s, total):
            return total
    return 0


def can_use(s: S, total: int) -> bool:
    """Can the players who have not moved use exactly ``total`` points, one straight move each?

    Exact (RULINGS Soccero 3): every order of moves is tried, each move on the board the
    earlier ones left, so a player who moves away may open a line for another (or block
    one). A single move that uses it all answers at once; a best case that cannot reach
    the total ends the search. Answers are memoised by position in the game-wide memo,
    so one turn's decisions share their search.
    """
    if total <= 0:
        return total == 0
    entries, _ = movement_plan(s, total)
    for _, _, lengths, _ in entries:
        if lengths >> total & 1:
            return True  # one move uses it all
    key = ("use", s.pos, s.moved, s.holder, s.forced, s.team, s.low_team, s.cfg, total)
    memo = shape_memo(s)
    found = memo.get(key)
    if found is None:
        found = memo[key] = _can_use(s, total, entries)
    return found


def _can_use(s: S, total: int, entries: list[Entry]) -> bool:
    if not best_case_totals(s, total) >> total & 1:
        return False
    for p, moves, _, _ in entries:
        for k, _, end, _ in moves:
            if k < total and can_use(moved_by(s, p, end), total - k):
                return True
    return False


def moved_by(s: S, p: int, end: int) -> S:
    """The position after ``p`` moves to ``end``, as far as moving goes: who stands where, who has moved, who has the ball."""
    pos = list(s.pos)
    pos[p] = end
    holder, forced = s.holder, s.forced
    if holder >= 0 and end == s.pos[holder] and team_of(holder) != s.team:
        holder, forced = p, holder  # a steal
    return evolve(s, pos=tuple(pos), moved=s.moved | 1 << p, holder=holder, forced=forced)


def best_case_totals(s: S, limit: int) -> int:
    """Totals (bit k) the unmoved players might make at best: as if their team-mates who have not
    moved were gone (they may get out of the way) and no position restriction held.

    Opponents and team-mates who moved stay where they are all turn, so this holds every
    total that can really be made (and usually not many more).
    """
    b = s.board
    unmoved = [p for p in team_players(s.team) if not s.moved >> p & 1 and s.pos[p] >= 0]
    blockers = s.taken_bits()
    for p in unmoved:
        blockers &= ~(1 << s.pos[p])
    steal = steal_square(s, s.team)
    cap = (1 << (limit + 1)) - 1
    totals = 1
    for p in unmoved:
        start = s.pos[p]
        mask = 0
        for ray, prefix in zip(b.rays[start], b.ray_bits[start], strict=True):
            free, top = _free_run(start, ray, prefix, blockers, limit)
            mask |= (1 << (free + 1)) - 2
            if free < top and ray[free] == steal:
                mask |= 1 << (free + 1)
        totals = _subset_add(totals, mask, cap)
    return totals


# Directions (bits of DIRECTIONS' indices) whose k-square move ends in the same row / column
# as the start, in the row k above / below, in the column k right / left.
_SAME_ROW, _ROW_UP, _ROW_DOWN = 1 << 2 | 1 << 6, 1 << 0 | 1 << 1 | 1 << 7, 1 << 3 | 1 << 4 | 1 << 5
_SAME_COLUMN, _COLUMN_RIGHT, _COLUMN_LEFT = 1 << 0 | 1 << 4, 1 << 1 | 1 << 2 | 1 << 3, 1 << 5 | 1 << 6 | 1 << 7


class _Rests:
    """Which rests of the die surely stay usable after any one move, and witnesses for the others.

    A witness of a rest L is a plain move of exactly L squares (no steal) by an unmoved player
    that another player's move cannot take away, except by standing on its line: in the basic
    rules it must also end outside the penalty areas, in a row and a column where even two more
    team-mates could not make a line too long. Two players with such moves in two directions
    each make L usable after any first move (bit L of :attr:`sure`): the mover is at most one
    of them, and his end square lies on at most one line of the other. Worked out lazily (most
    rests are settled by the first two players looked at); one per state and points.
    """

    __slots__ = ("board", "pos", "movers", "steal", "basic", "rows", "cols", "sure")

    def __init__(self, s: S, points: int) -> None:
        # No reference to ``s`` is kept: this lives in ``s``'s cache (no cycle, states die young).
        self.board = s.board
        self.pos = s.pos
        _, self.movers = movement_plan(s, points)
        self.steal = steal_square(s, s.team)
        self.basic = not s.cfg.extended
        self.rows, self.cols = crowded_lines(s, s.team) if self.basic else (frozenset(), frozenset())
        self.sure = 1  # a move of all the points leaves nothing to use
        if not (self.rows or self.cols):
            # Nothing to trim: per player, the lengths with witness moves in two directions or more.
            need = (1 << points) - 2
            once = twice = 0
            for entry in self.movers:
                several = (entry[3].get("dirs") or self._dirs(entry))[1]
                twice |= once & several
                once |= several
                if twice & need == need:
                    break  # the players after these need not be looked at
            self.sure |= twice & need
            return
        for rest in range(1, points):
            found = 0
            for entry in self.movers:
                ways = self.ways(entry, rest)
                if ways & (ways - 1):
                    found += 1
                    if found == 2:
                        self.sure |= 1 << rest
                        break

    def _dirs(self, entry: Entry) -> tuple[tuple[int, ...], int]:
        """Per length, the directions of the player's witness moves before trimming; and the lengths
        with two directions or more (bits). Kept with the player's moves (they are reused while valid)."""
        by_length = [0] * (MAX_STEP + 1)
        area = self.board.penalty_area_of
        for k, d, end, _ in entry[1]:
            if end != self.steal and not (self.basic and area[end] >= 0):
                by_length[k] |= 1 << d
        several = sum(1 << k for k, ways in enumerate(by_length) if ways & (ways - 1))
        found = entry[3]["dirs"] = (tuple(by_length), several)
        return found

    def ways(self, entry: Entry, rest: int) -> int:
        """The directions of ``entry``'s player's witness moves of ``rest`` squares (bits)."""
        p = entry[0]
        ways: int = (entry[3].get("dirs") or self._dirs(entry))[0][rest]
        if ways and (self.rows or self.cols):
            b = self.board
            start = self.pos[p]
            x, y, rows, cols = b.xs[start], b.ys[start], self.rows, self.cols
            bad = (_SAME_ROW if y in rows else 0) | (_ROW_UP if y + rest in rows else 0)
            bad |= (_ROW_DOWN if y - rest in rows else 0) | (_SAME_COLUMN if x in cols else 0)
            bad |= (_COLUMN_RIGHT if x + rest in cols else 0) | (_COLUMN_LEFT if x - rest in cols else 0)
            ways &= ~bad
        return ways

    def keeps_usable(self, s: S, p: int, end: int, rest: int) -> bool:
        """After ``p`` moves to ``end`` in ``s``, can the others use exactly ``rest`` points? A witness first, else the search."""
        bits = self.board.ray_bits
        for entry in self.movers:
            if entry[0] != p:
                ways = self.ways(entry, rest)
                start = s.pos[entry[0]]
                while ways:
                    d = (ways & -ways).bit_length() - 1
                    if not bits[start][d][rest] >> end & 1:
                        return True
                    ways &= ways - 1
        return can_use(moved_by(s, p, end), rest)


def _rests(s: S, points: int) -> _Rests:
    cache = s._plan
    assert cache is not None  # movement_plan made it
    found = cache.get(("rests", points))
    if found is None:
        found = cache[("rests", points)] = _Rests(s, points)
    return found


def movement_steps(s: S) -> list[Step]:
    """The legal player moves now: one straight line each, keeping the die usable exactly (RULINGS 3)."""
    acts = s.game.actions  # type: ignore[attr-defined]
    points = s.points
    entries, _ = movement_plan(s, points)
    rests = _rests(s, points)
    sure = rests.sure
    ok = 0  # bit k: every move of k squares keeps the die usable
    for k in range(1, points + 1):
        ok |= (sure >> (points - k) & 1) << k
    holder, ball = s.holder, s.ball
    board = s.board
    rays, xs, ys = board.rays, board.xs, board.ys
    # Only a loose ball can be picked up on the way: then the king-move distance to it matters.
    loose = holder < 0 and ball >= 0
    bx, by = (xs[ball], ys[ball]) if loose else (0, 0)
    pos = s.pos
    out: list[Step] = []
    for p, moves, lengths, store in entries:
        start = pos[p]
        if (
            ok & lengths == lengths
            and p != holder
            and (not loose or max(abs(xs[start] - bx), abs(ys[start] - by)) > points)
        ):
            # Every move within the points keeps the die usable: the list is kept.
            plain = store.get(points)
            if plain is None:
                plain = store[points] = [m[3] for m in moves if m[0] <= points]
            out.extend(plain)
            continue
        for k, d, end, step in moves:
            if k > points or not (ok >> k & 1 or rests.keeps_usable(s, p, end, points - k)):
                continue
            out.append(step)
            if p == holder or loose:
                out.extend(acts.step(start, end, q) for q in ball_drops(s, p, rays[start][d], k))
    return out


def ball_drops(s: S, p: int, ray: tuple[int, ...], k: int) -> tuple[int, ...]:
    """Where ``p``, moving ``k`` squares along ``ray``, may leave the ball (rulebook "Carrying the
    Ball"): the holder on any square he crosses or his end square, unless the red side is up
    (no second carry); a player crossing the loose ball on any later square of his move."""
    if p == s.holder:
        return ray[:k] if p != s.red else ()
    if s.holder < 0 and s.ball in ray[: k - 1]:
        return ray[ray.index(s.ball) + 1 : k]
    return ()


def carry_refusal(s: S, p: int, ray: tuple[int, ...], k: int) -> str:
    """Why ``p`` may not leave the ball where a ``move ... ball SQ`` says (it is not in :func:`ball_drops`)."""
    if p == s.red:
        return "this player carried the ball last time: he must kick it or leave it"
    if p == s.holder:
        return "the ball can only be left on a square he crosses or on his end square"
    if s.holder >= 0:
        return "he does not have the ball"
    if s.ball == ray[k - 1]:
        return f"he takes the ball by ending his move on it ({sq_name(s, s.ball)}): the move has no 'ball' part"
    if s.ball not in ray[:k]:
        return "he does not have the ball, and does not cross it on this move"
    return f"he picks the ball up on {sq_name(s, s.ball)}: he can only leave it on a later square of his move"


def apply_movement_roll(s: S, value: int, events: list[Event]) -> S:
    events.append(Event("roll", f"Seat {s.team} rolls {value} to move.", {"seat": s.team, "value": value}))
    if s.steal:
        if s.cfg.extended and s.steal[0] == s.team and value in s.board.rules.steal_foul:
            return set_pieces.steal_foul(s, events)
        if s.steal[0] == s.team:
            s = evolve(s, steal=())
    target = movement_target(s, value)
    if target == 0:
        events.append(Event("no-move", f"Seat {s.team} has no move.", {"seat": s.team}))
        return end_turn(s, events)
    if target != value:
        events.append(Event("short-move", f"Only {target} of the {value} points can be used.", {"points": target}))
    return keep_caches(evolve(s, phase="moving", points=target), s)


def keep_caches(new: S, old: S) -> S:
    """Hand ``old``'s position caches to ``new`` (same players, ball, moves: only the phase changed)."""
    object.__setattr__(new, "_occ", old._occ)
    object.__setattr__(new, "_taken", old._taken)
    object.__setattr__(new, "_shape", old._shape)
    object.__setattr__(new, "_plan", old._plan)
    return new


def mover_of(s: S, start: int) -> int:
    for p in team_players(s.team):
        if s.pos[p] == start and not s.moved >> p & 1:
            return p
    raise IllegalAction(f"no player of seat {s.team} on {sq_name(s, start)} may move")


def apply_step(s: S, step: Step, events: list[Event]) -> S:
    b = s.board
    p = mover_of(s, step.start)
    occ = s.occupancy()
    k = b.distance(step.start, step.end)
    pos = list(s.pos)
    pos[p] = step.end
    holder, red, ball, forced, steal = s.holder, s.red, s.ball, s.forced, s.steal
    if forced == p:
        forced = NOBODY
    touched = False
    toucher = p  # who touched the ball, if anybody did
    touched_on = s.ball  # and where
    text = f"{player_title(s, p)} moves {sq_name(s, step.start)}-{sq_name(s, step.end)}"
    target = occ.get(step.end)
    if target is not None and target == holder and team_of(target) != s.team:
        # Rulebook "Stealing the Ball": the loser must move off first on his next turn.
        holder, forced, red, touched = p, target, NOBODY, True
        text += f" and steals the ball from {player_name(s, target)}"
        if s.cfg.extended:
            steal = (team_of(target), step.end, p)
    elif step.ball >= 0:
        touched = True
        if step.ball == step.end:
            holder = p
            red = p  # it moved with the ball: the red side comes up
            text += " with the ball"
        else:
            holder, red = NOBODY, NOBODY
            text += f", leaving the ball on {sq_name(s, step.ball)}"
        ball = step.ball
    elif p == holder:
        holder, red = NOBODY, NOBODY
        text += ", leaving the ball"
        others = [q for q in s.players_on(step.start) if q != p]
        if others:  # the player left on the ball's square has it now
            holder = toucher = others[0]
            touched = True
            if forced == holder:
                forced = NOBODY
    elif step.end == ball and holder < 0:
        holder, red, touched = p, NOBODY, True
        text += " onto the ball"
    if forced >= 0 and not shares_square(tuple(pos), forced):
        forced = NOBODY  # he is alone on his square now
    # Rulebook "Goalkeeper's Punt Kick": a ball a team-mate kicked to the keeper stays one until
    # another player touches it; his own carrying, leaving and picking it up again do not end that.
    back_pass = s.back_pass
    if touched and not (toucher == back_pass and s.holder in (toucher, NOBODY)):
        back_pass = NOBODY
    events.append(
        Event(
            "move",
            text + ".",
            {"player": p, "from": sq_name(s, step.start), "to": sq_name(s, step.end), "ball": sq_name(s, ball)},
        )
    )
    s = evolve(
        s,
        pos=tuple(pos),
        holder=holder,
        red=red,
        ball=ball,
        forced=forced,
        steal=steal,
        moved=s.moved | 1 << p,
        points=s.points - k,
        back_pass=back_pass,
    )
    if s.cfg.extended and touched:
        # The ball is touched where it lay before the move (picked up, stepped onto, stolen).
        s, sanction = set_pieces.touch(s, toucher, events, touched_on)
        if sanction is not None:
            return end_turn(s, events, sanction, awarded=True)
    if s.points > 0:
        return s  # the moves offered keep the rest usable (movement_steps)
    return end_turn(s, events)


# --- kicking ---------------------------------------------------------------------------


def kick_roll_outcomes(faces: tuple[tuple[str, int], ...], acts: Any) -> dict[int, list[tuple[KickRoll, float]]]:
    """Chance outcomes of the kick die with one or two distance dice (rulebook "Kicking the Ball")."""
    out: dict[int, list[tuple[KickRoll, float]]] = {}
    for dice in (1, 2):
        totals = {t: 1 / 6 for t in range(1, 7)} if dice == 1 else {t: n / 36 for t, n in _TWO_DICE.items()}
        out[dice] = [(acts.kick_rolls[(sym, t)], n / 6 * p) for sym, n in faces if n for t, p in totals.items()]
    return out


def apply_kick_roll(s: S, roll: KickRoll, events: list[Event]) -> S:
    shot, dice, mode = s.kick[:3]
    what = {
        "direct": "a direct ground kick",
        "curve": "a curve kick along the ground",
        "air": "a curve kick in the air",
    }[roll.symbol]
    if mode == "set" and roll.symbol == "curve":
        what += " (a set-piece kick: it flies over every player and nobody can stop it)"  # see flight()
    events.append(
        Event(
            "kick-roll",
            f"{'Shot at goal. ' if shot else ''}Kick die: {what}, distance {roll.total}.",
            {"symbol": roll.symbol, "total": roll.total, "shot": shot},
        )
    )
    s = evolve(s, phase="kick-path", kick=(shot, dice, mode, roll.symbol, roll.total, s.holder))
    if s.cfg.extended and mode and not set_pieces.kick_can_be_taken(s):
        return set_pieces.retake(s, events)
    return s


def flight(s: S) -> tuple[bool, bool, bool]:
    """(ground, curve, stoppable) of the kick under way."""
    symbol, mode = s.kick[3], s.kick[2]
    if symbol == "direct":
        return True, False, False
    if symbol == "curve":
        # Rulebook "Kicking the ball in special situations": curve-on-the-ground reads as
        # curve-in-the-air that nobody may stop, unless normal rules were announced.
        if mode in ("", "normal"):
            return True, True, False
        return False, True, False
    return False, True, True


def walk(
    s: S, start: int, legs: tuple[tuple[int, int], ...], ground: bool, can_goal: bool
) -> tuple[tuple[tuple[int, int], ...], str, list[int], Exit | None]:
    """Follow the ball: legs taken, finish ('', 'out', 'goal'), squares passed, the line left."""
    b = s.board
    occ = s.occupancy()
    cur = start
    squares: list[int] = []
    taken = []
    for d, n in legs:
        ray = b.rays[cur][d]
        for i in range(n):
            if i >= len(ray):
                ex = b.exits[cur][d]
                taken.append((d, i + 1))
                # Only the opponents' goal is shot at; over the own goal line is just out.
                scores = ex.kind == EXIT_GOAL and can_goal and ex.end == s.attacks(s.team)
                return tuple(taken), "goal" if scores else "out", squares, ex
            sq = ray[i]
            squares.append(sq)
            if ground and sq in occ:  # a ground ball stops at the first player in its path
                taken.append((d, i + 1))
                return tuple(taken), "", squares, None
        taken.append((d, n))
        cur = ray[n - 1]
    return tuple(taken), "", squares, None


def all_paths(
    s: S, start: int, total: int, ground: bool, curve: bool, can_goal: bool
) -> dict[Path, tuple[str, list[int], Exit | None]]:
    acts = s.game.actions  # type: ignore[attr-defined]
    found: dict[Path, tuple[str, list[int], Exit | None]] = {}
    for d1 in range(8):
        plans: list[tuple[tuple[int, int], ...]] = [((d1, total),)]
        if curve:
            for n1 in range(1, total):
                plans.append(((d1, n1), ((d1 + 1) % 8, total - n1)))
                plans.append(((d1, n1), ((d1 - 1) % 8, total - n1)))
        for legs in plans:
            taken, finish, squares, ex = walk(s, start, legs, ground, can_goal)
            path = acts.path(start, taken, finish)
            if path not in found:
                found[path] = (finish, squares, ex)
    return found


def kick_paths(s: S) -> list[Path]:
    """The routes the kicker may give the ball (rulebook "Kicking the Ball", "Taking a Shot")."""
    shot, _, mode, _, total, _ = s.kick
    ground, curve, _ = flight(s)
    found = all_paths(s, s.ball, total, ground, curve, shot)
    goal = [p for p, (finish, _, _) in found.items() if finish == "goal"]
    if shot and goal:
        return goal
    if s.cfg.extended:
        return set_pieces.restrict_paths(s, found)
    return list(found)


def apply_path(s: S, path: Path, events: list[Event]) -> S:
    shot = s.kick[0]
    ground, _, stoppable = flight(s)
    taken, finish, squares, ex = walk(s, path.start, path.legs, ground, shot)
    kicker = s.holder
    events.append(
        Event(
            "kick",
            f"{player_title(s, kicker)} kicks the ball {route_text(s, path.start, taken, squares, finish)}.",
            {"player": kicker, "path": [sq_name(s, q) for q in squares], "finish": finish},
        )
    )
    offside = set_pieces.offside_mask(s) if s.cfg.extended else 0
    # docs/rulings.md, Soccero: nobody stops a free kick inside the penalty area it must leave.
    area = set_pieces.area_to_leave(s) if s.cfg.extended else frozenset()
    end = squares[-1] if squares else path.start
    flight_info = (end, finish, ex.kind if ex else "", ex.end if ex else -1, not ground, tuple(squares))
    # A new kick: whoever gets the ball is judged afresh for a back-pass (receive_and_end).
    s = evolve(s, holder=NOBODY, red=NOBODY, offside=offside, pending=flight_info, back_pass=NOBODY)
    if s.setpiece:
        # Rulebook "Kicking the ball in special situations": the taker may not touch the ball
        # again before another player has.
        s = evolve(s, banned=kicker, taker_square=(kicker, s.pos[kicker]), setpiece=())
    if stoppable:
        askers = air_askers(s, squares, finish, kicker, area)
        if askers:
            return evolve(s, phase="air-stop", path=askers, decider=team_of(askers[0]))
    return land(s, events)


def route_text(s: S, start: int, legs: tuple[tuple[int, int], ...], squares: list[int], finish: str) -> str:
    """The ball's route in words, by squares ("from K10 via K14 to M16", "... towards the goal").

    Squares, not compass words: the pitch is drawn turned for one of the players.
    """
    out = f"from {sq_name(s, start)}"
    if len(legs) > 1 and len(squares) > legs[0][1]:
        out += f" via {sq_name(s, squares[legs[0][1] - 1])}"
    if finish == "goal":
        return out + " towards the goal"
    if finish == "out":
        return out + " out of play"
    return out + f" to {sq_name(s, squares[-1] if squares else start)}"


def air_askers(
    s: S, squares: list[int], finish: str, kicker: int, area: frozenset[int] = frozenset()
) -> tuple[int, ...]:
    """RULINGS Soccero 4: the players under an air ball, in path order, kicker's side first;
    none on the squares of ``area`` (the penalty area a free kick must leave)."""
    passed = squares if finish else squares[:-1]
    keeper = goalkeeper(1 - s.team) if finish == "goal" else NOBODY
    out = []
    for sq in passed:
        if sq in area:
            continue
        here = [p for p in s.players_on(sq) if p != kicker and p != keeper]
        here.sort(key=lambda p: team_of(p) != s.team)
        out.extend(here)
    return tuple(out)


def apply_air_stop(s: S, stop: bool, events: list[Event]) -> S:
    p = s.path[0]
    if stop:
        events.append(Event("stop", f"{player_title(s, p)} stops the ball on {sq_name(s, s.pos[p])}.", {"player": p}))
        return receive_and_end(evolve(s, path=()), p, False, events)
    rest = s.path[1:]
    if rest:
        return evolve(s, path=rest, decider=team_of(rest[0]))
    return land(evolve(s, path=()), events)


def land(s: S, events: list[Event]) -> S:
    """The ball's flight is over: a goal (perhaps a save first), out of play, or a landing."""
    end, finish, exit_kind, exit_end, air, squares = s.pending
    if finish == "goal":
        return shot_on_goal(s, exit_end, air, squares, events)
    if finish == "out":
        return ball_out(s, end, exit_kind, exit_end, events)
    q = s.occupancy().get(end)
    if q is not None:
        return receive_and_end(s, q, air, events)
    if s.cfg.extended and s.kick and s.kick[0]:
        return set_pieces.weak_shot_block(s, end, events)
    events.append(Event("ball", f"The ball stops on {sq_name(s, end)}.", {"square": sq_name(s, end)}))
    s = evolve(s, ball=end, holder=NOBODY, red=NOBODY)
    return end_turn(s, events)


def receive_and_end(s: S, p: int, air: bool, events: list[Event]) -> S:
    """``p`` gets the ball at the end of a kick; the kicking team's turn is over."""
    back_pass = p if p % PLAYERS == 0 and team_of(p) == s.team else NOBODY
    s = evolve(s, ball=s.pos[p], holder=p, red=NOBODY, pending=(), back_pass=back_pass)
    events.append(Event("receive", f"{player_title(s, p)} has the ball on {sq_name(s, s.pos[p])}.", {"player": p}))
    if s.cfg.extended:
        s, sanction = set_pieces.touch(s, p, events)
        if sanction is not None:
            return end_turn(s, events, sanction, awarded=True)
        if air:
            # Rulebook "Headers": any player the air ball comes to on the exact number.
            return set_pieces.offer_header(s, p)
    return end_turn(s, events)


# How a shot passes the goalkeeper (near_keeper): not near him, beside him, over his square.
BESIDE_KEEPER, OVER_KEEPER = 1, 2


def near_keeper(b: Board, keeper: int, start: int, squares: Sequence[int]) -> int:
    """How a shot kicked from ``start`` over ``squares`` passes the goalkeeper on ``keeper``:
    ``OVER_KEEPER`` (over his square), ``BESIDE_KEEPER`` (over a square beside him in his row)
    or 0 (RULINGS Soccero 2, extended "Goalkeeper's Attempt to Save a Shot"). The square it is
    kicked from counts as one it passes: a shot from beside him may be saved like one that
    crosses that square, and one from his own square (kicked by the player who stole the ball
    from him, before he stepped off) passes over him like one that crosses it (docs/rulings.md,
    Soccero)."""
    if keeper < 0:
        return 0
    if start == keeper or keeper in squares:
        return OVER_KEEPER
    beside = b.beside[keeper]
    return BESIDE_KEEPER if start in beside or not beside.isdisjoint(squares) else 0


def shot_on_goal(s: S, end: int, air: bool, squares: tuple[int, ...], events: list[Event]) -> S:
    """RULINGS Soccero 2 (basic) and the extended "Goalkeeper's Attempt to Save a Shot".

    The shot was kicked (or headed) from ``s.ball``: the ball stays there until it lands.
    A ground shot reaching the goal crossed the keeper only if it started on his square:
    anywhere else walk() has stopped it on him.
    """
    keeper = goalkeeper(1 - s.team)
    near = near_keeper(s.board, s.pos[keeper], s.ball, squares)
    if near == OVER_KEEPER and not air:
        # He stops a ground shot over his square, as one that crosses it stops on him.
        text = f"{player_title(s, keeper)} stops the shot on {sq_name(s, s.pos[keeper])}."
        events.append(Event("stop", text, {"player": keeper}))
        return receive_and_end(s, keeper, False, events)
    # Basic rules: an air shot cannot be saved.
    if near and (not air or s.cfg.extended):
        events.append(Event("save-attempt", f"The goalkeeper of seat {1 - s.team} dives.", {"seat": 1 - s.team}))
        return evolve(s, phase="save", decider=1 - s.team)
    return score_goal(s, events)


def apply_save(s: S, value: int, events: list[Event]) -> S:
    rules = s.board.rules
    air = s.pending[4]
    keeper = goalkeeper(1 - s.team)
    if s.cfg.extended:
        if value in (rules.save_air_extended if air else rules.save_ground_extended):
            events.append(Event("save", f"Keeper rolls {value}: saved, deflected over the byline.", {"value": value}))
            return set_pieces.deflected_corner(s, events)
    elif value in rules.save_beside_basic:
        events.append(Event("save", f"Keeper rolls {value}: saved.", {"value": value}))
        s = evolve(s, ball=s.pos[keeper], holder=keeper, red=NOBODY, pending=(), decider=s.team)
        return end_turn(s, events)
    events.append(Event("no-save", f"Keeper rolls {value}: no save.", {"value": value}))
    return score_goal(evolve(s, decider=s.team), events)


def score_goal(s: S, events: list[Event]) -> S:
    goals = list(s.goals)
    goals[s.team] += 1
    events.append(Event("goal", f"GOAL for seat {s.team}! {goals[0]}-{goals[1]}.", {"seat": s.team, "score": goals}))
    s = evolve(s, goals=(goals[0], goals[1]), holder=NOBODY, pending=())
    conceded = 1 - s.team
    return end_turn(s, events, lambda st: begin_kickoff(st, conceded, events))


def ball_out(s: S, edge: int, exit_kind: str, exit_end: int, events: list[Event]) -> S:
    """The ball went past a line. Basic rules: RULINGS Soccero 5; extended: set pieces."""
    line = "touchline" if exit_kind == EXIT_TOUCHLINE else "goal line"
    events.append(
        Event(
            "out",
            f"The ball goes over the {line} at {sq_name(s, edge)}.",
            {"square": sq_name(s, edge), "line": exit_kind},
        )
    )
    s = evolve(s, ball=edge, holder=NOBODY, pending=())
    if s.cfg.extended:
        return set_pieces.ball_out(s, edge, exit_kind, exit_end, events)
    other = 1 - s.team
    dist = {p: s.board.distance(s.pos[p], edge) for p in team_players(other)}
    best = min(dist.values())
    nearest = tuple(p for p, d in dist.items() if d == best)
    if len(nearest) > 1:
        return evolve(s, phase="fetch", decider=other, pending=nearest)
    return fetch_ball(s, nearest[0], events)


def fetch_ball(s: S, p: int, events: list[Event]) -> S:
    """RULINGS Soccero 5: ``p`` is moved onto the ball; a kicking-team player standing there makes room."""
    edge = s.ball
    for q in s.players_on(edge):
        if q != p:
            s = make_room(s, q, events)
    pos = list(s.pos)
    pos[p] = edge
    events.append(
        Event(
            "fetch",
            f"{player_title(s, p)} takes the ball on {sq_name(s, edge)}.",
            {"player": p, "square": sq_name(s, edge)},
        )
    )
    s = evolve(s, pos=tuple(pos), holder=p, red=NOBODY, pending=(), decider=s.team)
    return end_turn(s, events)


def shares_square(pos: tuple[int, ...], p: int) -> bool:
    """Does another player stand on ``p``'s square?"""
    return pos[p] >= 0 and pos.count(pos[p]) > 1


def nearest_free(
    s: S, sq: int, occupied: set[int], p: int = NOBODY, may_stand: Callable[[int], bool] | None = None
) -> int:
    """The free square nearest to ``sq`` (ties: the first in board order); with ``p``, one where
    he may stand, if there is any: where ``may_stand`` allows, by default where the position
    restrictions let him."""
    b = s.board
    allowed = may_stand or (lambda q: restriction_ok(s, p, q))

    def rank(q: int) -> tuple[bool, int, int]:
        return (p >= 0 and not allowed(q), b.distance(q, sq), q)

    return min((q for q in range(b.size) if q not in occupied), key=rank)


def make_room(s: S, p: int, events: list[Event], may_stand: Callable[[int], bool] | None = None) -> S:
    """``p`` leaves the square he shares for the nearest free square where he may stand (see
    :func:`nearest_free`; a set piece adds its own limits through ``may_stand``)."""
    start = s.pos[p]
    to = nearest_free(s, start, set(s.pos), p, may_stand)
    events.append(
        Event(
            "make-room",
            f"{player_title(s, p)} makes room: {sq_name(s, start)}-{sq_name(s, to)}.",
            {"player": p, "from": sq_name(s, start), "to": sq_name(s, to)},
        )
    )
    pos = list(s.pos)
    pos[p] = to
    return evolve(s, pos=tuple(pos), forced=NOBODY if s.forced == p else s.forced)


# --- the view --------------------------------------------------------------------------


_NO_TURN_PHASES = frozenset({"toss", "ends", "setup", "over"})


def view(s: S) -> dict[str, Any]:
    """The game part of ``view(seat)``: Soccero hides nothing, so it is the same for every seat."""
    name = s.board.names

    def n(sq: int) -> str | None:
        return name[sq] if sq >= 0 else None

    out: dict[str, Any] = {
        "columns": s.board.columns,
        "rows": s.board.rows,
        "extended": s.cfg.extended,
        "phase": s.phase,
        "turn": s.team if s.turn_team < 0 else s.turn_team,
        "heading_team": s.team if s.turn_team >= 0 else None,
        "deciding": s.decider if s.phase != "over" and s.phase not in CHANCE_PHASES else None,
        "half": s.half,
        "turns_played": s.turns[0] + s.turns[1],
        "turns_each": list(s.turns),
        "turns_per_half": s.cfg.turns,
        "turn_timer": s.cfg.turn_timer,
        # The hourglass is the UI's or relay's clock (RULINGS Soccero 1): what it needs to run
        # one, or None when it is off or no turn is being played (toss, ends, set-up, over).
        "hourglass": (
            {
                "seconds": s.cfg.turn_timer,
                "seat": s.team if s.turn_team < 0 else s.turn_team,
                "turn": [s.half, s.turns[0] + s.turns[1]],
            }
            if s.cfg.turn_timer and s.phase not in _NO_TURN_PHASES
            else None
        ),
        "defends": [1 if s.defends(t) == LOW else s.board.rows for t in (0, 1)] if s.low_team >= 0 else None,
        "kickoff_team": s.kickoff_team if s.kickoff_team >= 0 else None,
        "players": [
            {
                "seat": team_of(p),
                "number": p % PLAYERS + 1,
                "goalkeeper": p % PLAYERS == 0,
                "square": n(sq),
                "moved": bool(s.moved >> p & 1),
            }
            for p, sq in enumerate(s.pos)
        ],
        "ball": n(s.ball),
        "holder": s.holder if s.holder >= 0 else None,
        "red": s.red if s.red >= 0 else None,
        "forced": s.forced if s.forced >= 0 else None,
        "points": s.points,
        "kick": None,
        "flight": None,
        "air_stop": None,
        "setpiece": None,
        "candidates": [],
        "banned": s.banned if s.banned >= 0 else None,
        "steal_pending": {"victim": s.steal[0], "square": n(s.steal[1])} if s.steal else None,
    }
    if s.kick:
        k = s.kick
        out["kick"] = {
            "shot": k[0],
            "dice": k[1],
            "mode": k[2] or "play",
            "symbol": k[3] if len(k) > 3 else None,
            "total": k[4] if len(k) > 4 else None,
        }
    if s.phase in ("air-stop", "save", "block") and len(s.pending) == 6:
        end, finish, exit_kind, exit_end, air, squares = s.pending
        out["flight"] = {"squares": [name[q] for q in squares], "finish": finish, "air": air}
    if s.phase == "air-stop":
        out["air_stop"] = {"player": s.path[0], "square": n(s.pos[s.path[0]])}
    if s.phase in ("fetch", "block"):
        out["candidates"] = [n(s.pos[p]) for p in (s.pending if s.phase == "fetch" else s.path)]
    if s.setpiece:
        out["setpiece"] = set_pieces.describe(s)
    if s.phase == "setup":
        out["placing"] = s.pending[0]
        out["kicking_off"] = s.team  # begin_kickoff makes the kicking-off team the turn team
        out["formation_square"] = n(formation_square(s, s.pending[0]))
    return out


# --- why an action is illegal ----------------------------------------------------------

_PHASE_WANTS = {
    "toss": "the coin toss",
    "ends": "a choice of end ('defend 1' or 'defend 32')",
    "setup": "a 'place SQ' for the next player of the formation",
    "turn": "'move', 'kick 1|2' or 'shoot 1|2'",
    "roll": "the movement die",
    "moving": "a straight-line player move 'move SQ-SQ'",
    "kick-roll": "the kick die",
    "kick-path": "the ball's route 'path ...'",
    "air-stop": "'stop' or 'let' for the air ball",
    "save": "the goalkeeper's save die",
    "fetch": "'pick SQ': which nearest player fetches the ball",
}


def explain_illegal(s: S, seat: int, action: Any) -> str:
    """A precise reason for the UI when ``action`` is not legal now."""
    wants = _PHASE_WANTS.get(s.phase) or set_pieces.PHASE_WANTS.get(s.phase, s.phase)
    if s.phase == "moving" and isinstance(action, Step):
        b = s.board
        players = [p for p in team_players(s.team) if s.pos[p] == action.start]
        if not players:
            return f"there is no player of yours on {sq_name(s, action.start)}"
        p = players[0]
        if s.moved >> p & 1:
            return "a player may only move once per turn"
        if s.forced >= 0 and team_of(s.forced) == s.team and not s.moved >> s.forced & 1 and p != s.forced:
            return f"the player who lost the ball must first leave {sq_name(s, s.pos[s.forced])}"
        k = b.distance(action.start, action.end)
        if k > s.points:
            return f"that move is {k} squares but only {s.points} points are left"
        reach = {m[2]: m for m in player_reach(s, p, s.occupancy(), s.points, False)[0]}
        if action.end not in reach:
            return "players move in a straight line and may not pass through or land on other players (except to steal the ball), nor break the position restrictions"
        ray = b.rays[action.start][reach[action.end][1]]
        if action.ball >= 0 and action.ball not in ball_drops(s, p, ray, k):
            return carry_refusal(s, p, ray, k)
        return f"the die must be used exactly ({s.points} points left): that move leaves points no other player can use"
    if s.phase == "turn" and isinstance(action, Word) and action.word == "punt":
        return "the goalkeeper may punt only when he controls the ball inside his penalty area and it was not kicked to him by a team-mate"
    if s.phase in ("free", "wall", "wall-clear") and isinstance(action, SquareChoice) and action.verb == "to":
        reason = set_pieces.explain_placing(s, action.square)
        if reason:
            return reason
    if s.phase == "kick-path" and isinstance(action, Path) and s.kick[0]:
        return "a declared shot that can reach the goal must be aimed into it (or, extended rules, a weak shot must go towards it)"
    if isinstance(action, (Step, Path, KickChoice, KickRoll, Die, Aim, SquareChoice, Word)):
        return f"{action} is not legal now: the match waits for {wants}"
    return f"{action!r} is not a Soccero action"
