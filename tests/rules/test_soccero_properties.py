"""Soccero properties over random matches (issue 14): what every position of a match must keep.

- The set-piece taker's ban ends with any touch by another player: nobody holds the ball while
  a taker is still banned (he loses the ban, or it is a foul, the moment the ball is held).
- A penalty's goalkeeper stands on the middle of his goal line from the taker's placing to the kick.
- No two players share a square at the end of a decision unless a steal is under way (the one
  who lost the ball shares the square and must leave it) or a free-kick wall took an attacker's
  square and he is still to be placed elsewhere (rulebook "Free Kicks").
- The die is used exactly (RULINGS Soccero 3): a move never leaves points that can no longer be
  used, and the total used is the roll whenever some order of moves can use it; checked against
  a brute-force search of its own on crowded positions.
- Log lines start with a capital letter.

The quick tests run a few matches of each mode; ``-m slow`` runs 200 matches of each.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, cast

import pytest

from soccerdesk.rules import CHANCE, get_game, sample_chance
from soccerdesk.rules.soccero import set_pieces
from soccerdesk.rules.soccero.actions import Step
from soccerdesk.rules.soccero.board import DIRECTIONS, LOW
from soccerdesk.rules.soccero.play import restriction_ok
from soccerdesk.rules.soccero.state import PLAYERS, SocceroState, goalkeeper, team_of, team_players

GAME = get_game("soccero")
B = GAME.board  # type: ignore[attr-defined]


def invariant_breaches(prev: SocceroState, action: Any, s: SocceroState) -> list[str]:
    """What ``s`` (reached from ``prev`` by ``action``) breaks of the properties above; [] if nothing."""
    out = []
    if any(not e.text[:1].isupper() for e in s.events):
        out.append(f"a log line starts in lower case: {[e.text for e in s.events]}")
    if s.banned >= 0 and s.holder >= 0:
        out.append(f"player {s.holder} holds the ball while set-piece taker {s.banned} is still banned")
    if s.setpiece and s.setpiece[0] == "penalty" and s.setpiece[3] >= 0:
        keeper = goalkeeper(1 - s.setpiece[1])
        line = 0 if s.defends(1 - s.setpiece[1]) == LOW else B.rows - 1
        if s.pos[keeper] != line * B.columns + B.centre_column:  # the middle of his goal line
            out.append(f"the penalty keeper stands on {B.names[s.pos[keeper]]}")
    if s.phase not in ("toss", "ends", "setup"):
        squares: dict[int, list[int]] = {}
        for p, sq in enumerate(s.pos):
            squares.setdefault(sq, []).append(p)
        for sq, here in squares.items():
            if len(here) < 2:
                continue
            steal = len(here) == 2 and s.forced in here and s.holder in (*here, -1)
            wall = (
                s.phase in ("wall", "wall-clear")
                and len(here) == 2
                and {team_of(p) for p in here} == {0, 1}
                and any(p in set_pieces.displaced(s) for p in here)
            )
            if not (steal or wall):
                out.append(f"players {here} share {B.names[sq]} in phase {s.phase} (forced: {s.forced})")
    if s.holder >= 0 and s.pos[s.holder] != s.ball:
        out.append("the holder is not on the ball")
    if prev.phase == "moving" and isinstance(action, Step):
        k = B.distance(action.start, action.end)
        if s.phase == "moving" and (s.team, s.points) != (prev.team, prev.points - k):
            out.append(f"{prev.points} points, a move of {k}, then {s.points} left")
        sanction = s.setpiece or any(e.kind in ("foul", "offside") for e in s.events)  # (perhaps at full time)
        if s.phase != "moving" and k != prev.points and not sanction:
            out.append(f"the turn ended with {prev.points - k} of its points unused")
    return out


def _choose(s: Any, seat: int, rng: random.Random, outward: bool) -> Any:
    """A random legal action; ``outward``: three times in four, a move onto the ball (a steal, a
    loose ball), a kick rather than a move, a route over a line (so the ball is won, kicked and
    out of play often: fetches, steals, throw-ins, corners, goal kicks)."""
    legal = s.legal_actions(seat)
    if outward and rng.random() < 0.75:
        if s.phase == "moving":
            legal = [a for a in legal if a.end == s.ball] or legal
        elif s.phase == "turn":
            legal = [a for a in legal if str(a) != "move"] or legal
        elif s.phase == "kick-path":
            legal = [a for a in legal if str(a).endswith(" out")] or legal
    return rng.choice(legal)


def play_checked(seed: int, extended: bool, turns: int | None = None) -> list[str]:
    """One seeded random match, every position checked; the breaches found. Odd seeds kick
    the ball out of play often (see :func:`_choose`)."""
    rng = random.Random(seed)
    options: dict[str, Any] = {"extended": extended, "quick_setup": seed % 4 < 2}
    if turns is not None:
        options["turns"] = turns
    s: Any = GAME.new_match(seed=seed, **options)
    found = []
    while not s.is_terminal():
        seat = s.current_players()[0]
        action = sample_chance(s, rng) if seat == CHANCE else _choose(s, seat, rng, seed % 2 == 1)
        nxt = s.apply(seat, action)
        found += [f"seed {seed} ply {nxt.ply}: {text}" for text in invariant_breaches(s, action, nxt)]
        s = nxt
    return found


@pytest.mark.parametrize("extended", [False, True], ids=["basic", "extended"])
def test_random_matches_keep_the_properties(extended: bool) -> None:
    breaches = [b for seed in range(10) for b in play_checked(seed, extended, turns=30)]
    assert not breaches, breaches[:5]


@pytest.mark.slow
@pytest.mark.parametrize("extended", [False, True], ids=["basic", "extended"])
def test_200_random_matches_keep_the_properties(extended: bool) -> None:
    breaches = [b for seed in range(200) for b in play_checked(seed, extended)]
    assert not breaches, (len(breaches), breaches[:5])


def test_a_penalty_keeper_stands_on_the_middle_of_his_goal_line_whoever_stood_where() -> None:
    """Penalties awarded in random crowded positions round the box (the keeper often on the spot
    or on his line's middle square): the keeper is on the middle of his goal line once the taker
    is placed and stays there through the free moves, and nobody shares a square."""
    rng = random.Random(29)
    start = cast(SocceroState, GAME.new_match(seed=0, extended=True))
    box = [y * B.columns + x for y in range(0, 9) for x in range(5, 16)]  # F1..P9, seat 0 defends row 1
    for _ in range(60):
        pos = rng.sample(box, 2 * PLAYERS)
        keeper_square = rng.choice([B.penalty_spot[LOW], B.centre_column, rng.choice(box)])
        if keeper_square in pos:
            pos[pos.index(keeper_square)] = pos[0]
        pos[0] = keeper_square
        s: Any = replace(start, phase="roll", team=1, decider=1, pos=tuple(pos), low_team=0, kickoff_team=0)
        s._set_meta(start.info, None, ())
        prev = s
        s = set_pieces.start(s, "penalty", 1, B.penalty_spot[LOW], False, [])
        s._set_meta(start.info, None, ())
        while s.phase in ("sp-taker", "free"):
            seat = s.current_players()[0]
            action = rng.choice(s.legal_actions(seat))
            prev, s = s, s.apply(seat, action)
            assert not invariant_breaches(prev, action, s), invariant_breaches(prev, action, s)
        assert s.phase == "sp-kick" and s.pos[0] == B.centre_column


# --- exact use of the die, against a brute-force search ----------------------------------------


def _crowded_position(rng: random.Random, extended: bool) -> SocceroState:
    """22 players packed in a 7x7 window, a few of one team still to move, the ball with somebody."""
    start = cast(SocceroState, GAME.new_match(seed=0, extended=extended))
    x0, y0 = rng.randrange(0, B.columns - 7), rng.randrange(6, B.rows - 13)
    window = [(y0 + y) * B.columns + x0 + x for y in range(7) for x in range(7)]
    pos = rng.sample(window, 2 * PLAYERS)
    team = rng.randrange(2)
    movers = rng.sample(list(team_players(team)), rng.randrange(2, 5))
    holder = rng.randrange(2 * PLAYERS)
    s = replace(
        start,
        phase="roll",
        team=team,
        decider=team,
        pos=tuple(pos),
        ball=pos[holder],
        holder=holder,
        low_team=0,
        kickoff_team=0,
        moved=sum(1 << p for p in team_players(team) if p not in movers),
    )
    s._set_meta(start.info, None, ())
    return s


Config = tuple[tuple[int, ...], int, int]
"""What moving changes: (where each player stands, who has moved (bits), who has the ball)."""


def _geometric_moves(s: SocceroState, c: Config, points: int) -> list[tuple[int, int, int]]:
    """(player, end, length) of every straight move the rulebook allows the unmoved players of ``c``."""
    pos, moved, holder = c
    occupied: dict[int, list[int]] = {}
    for p, sq in enumerate(pos):
        occupied.setdefault(sq, []).append(p)
    here_now = s if pos == s.pos else replace(s, pos=pos)  # for the basic rules' restrictions
    out = []
    for p in team_players(s.team):
        if moved >> p & 1:
            continue
        x, y = B.xs[pos[p]], B.ys[pos[p]]
        for _, dx, dy in DIRECTIONS:
            for k in range(1, points + 1):
                cx, cy = x + k * dx, y + k * dy
                if not (0 <= cx < B.columns and 0 <= cy < B.rows):
                    break
                end = cy * B.columns + cx
                here = occupied.get(end, [])
                steal = here == [holder] and team_of(holder) != s.team
                if (not here or steal) and (s.cfg.extended or restriction_ok(here_now, p, end)):
                    out.append((p, end, k))
                if here:
                    break
    return out


def _after(c: Config, p: int, end: int) -> Config:
    pos, moved, holder = c
    if holder >= 0 and pos[holder] == end:
        holder = p  # a steal
    return (pos[:p] + (end,) + pos[p + 1 :], moved | 1 << p, holder)


def _totals(s: SocceroState, c: Config, points: int, memo: dict[Any, int]) -> int:
    """Bit t: some order of moves from ``c`` uses exactly t points (brute force, every order)."""
    key = (c, points)
    if key not in memo:
        found = 1
        for p, end, k in _geometric_moves(s, c, points):
            found |= _totals(s, _after(c, p, end), points - k, memo) << k
        memo[key] = found
    return memo[key]


@pytest.mark.parametrize("extended", [False, True], ids=["basic", "extended"])
def test_exact_die_use_matches_a_brute_force_search_on_crowded_positions(extended: bool) -> None:
    rng = random.Random(14 + extended)
    checked = 0
    for _ in range(40):
        s = _crowded_position(rng, extended)
        roll = rng.randint(1, 6)
        memo: dict[Any, int] = {}
        start: Config = (s.pos, s.moved, s.holder)
        best = _totals(s, start, roll, memo)
        want = roll if best >> roll & 1 else best.bit_length() - 1
        after = s.apply(CHANCE, GAME.parse_action(f"roll {roll}"))
        got = after.points if after.phase == "moving" else 0  # type: ignore[attr-defined]
        assert got == want, (s.pos, s.moved, s.holder, roll)
        if got == 0:
            continue
        legal = {(a.start, a.end) for a in after.legal_actions(s.team)}  # type: ignore[attr-defined]
        for p, end, k in _geometric_moves(s, start, want):
            keeps = bool(_totals(s, _after(start, p, end), want - k, memo) >> (want - k) & 1)
            assert ((s.pos[p], end) in legal) == keeps, (s.pos, s.moved, s.holder, roll, B.names[end])
        checked += 1
    assert checked > 20
