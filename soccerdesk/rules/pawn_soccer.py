"""Pawn Soccer: two teams of pawns on a 7 x 11 board (rulebook ``pawn-soccer.txt``).

The board is the one RULINGS.md (Pawn Soccer) reconstructs; it is loaded from
``resources/games/pawn-soccer.toml``. Seat 0 is **Blue** (defends rows 1-5 and the goal
C0-E0, attacks upwards), seat 1 is **Orange** (defends rows 7-11 and C12-E12).

How a match runs, as decisions of the rules contract:

* **Set-up**: the sides place their pawns one at a time, alternating (``place C3``;
  ``place C3 yellow`` puts a pawn that carries a yellow card). Then a coin toss
  (chance: ``toss blue`` / ``toss orange``) and the kick-off: the kicking side chooses the
  pawn that takes the ball to the centre (``kickoff C5``). With the ``quick_setup`` option
  both formations are placed at once from the data file.
* **A turn** is one of ``move A-B`` (a sprint is a longer ``move``; moving the ball onto a
  goal square scores), ``pass A-B``, ``long A-B``, ``kick A-B`` (to a goal square or an empty
  square) or ``steal A-B`` (the pawn on A takes the ball from the pawn on B). A pass may be
  continued as a chain with further ``pass`` hops from the receiver, ended by ``stop``.
  ``wait`` exists only when a side has nothing else it may do.
* **Substitution** (``sub C4``) is free: offered alongside the turn's actions before the
  turn, and in a window after it (``sub C4`` or ``end``) while the substitute is unused.
* **Cards**: a diagonal steal gives the stealer a yellow card, a second one a red card.
  After a red card to the goalkeeper its side may move a pawn into the goal-kick area
  (``keeper A-B`` or ``keeper none``).
* **Penalty**: both seats secretly choose ``penalty 1`` .. ``penalty 3``
  (``current_players() == (0, 1)``); different numbers score, equal numbers are a save.

Options (``new_match(**options)``): ``length`` (``goal_limit`` / ``golden_goal``), ``goals``,
``turn_limit`` (turns a side; at the limit the higher score wins, level is a draw),
``long_pass`` (``own_half`` / ``opposite_half``), ``closed_goal_area``, ``sprint_on_entry``
and ``quick_setup``. ``docs/rulings.md`` says what each changes.

``view(seat)["state"]`` keys (JSON):

``board``
    static geometry: ``columns`` (letters), ``rows`` (pitch rows, 1..rows), ``kickoff``,
    ``centre_row`` and ``ends`` (list of two, index = seat that defends that end) with
    ``goal``, ``goal_kick_area``, ``penalty_area``, ``penalty_spot``, ``blocked``,
    ``sprint_zones`` (list of lists), ``long_pass_spaces``, ``half`` ([first, last] row),
    ``forward`` (+1: that team attacks towards higher rows).
``pawns``
    list of ``{"square", "team", "yellow", "ball", "keeper", "barred"}``, ``team`` = seat.
``ball``
    square of the ball or ``null`` before the kick-off; ``ball_loose``: true when no pawn holds it.
``phase``
    ``"setup"``, ``"toss"``, ``"kickoff"``, ``"turn"``, ``"chain"``, ``"after_turn"``,
    ``"keeper"`` (optional replacement after a red card), ``"penalty_keeper"`` (a keeper
    must be placed before a penalty), ``"penalty"``, ``"over"``.
``side_to_move``
    seat deciding now, or ``null`` (toss, penalty, match over).
``kickoff_turn``
    true while the turn is the kick-off (only a pass or a kick to an empty square).
``kicker``
    seat that kicks off after the set-up, or ``null``.
``to_place``
    per seat: ``{"clean": n, "yellow": n}`` pawns still to place in the set-up.
``chain_received``
    squares whose pawns already received the ball in the current chain pass.
``substitute``
    per seat: true while that side's substitute is still on the bench.
``reds``, ``yellows``
    per seat: red cards so far, pawns on the board carrying a yellow card.
``turns``, ``turn_limit``, ``goals_to_win``
    team turns played so far (both sides together), the turns a side before full time,
    and the goals that win the match (1 for golden goal).
``penalty``
    ``null`` or ``{"taker": seat, "chosen": [bool, bool], "mine": n or null}``: only the
    viewing seat's own pick is shown.
``forfeit``
    seat that won by forfeit (four red cards of the other side), or ``null``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any, NamedTuple

from soccerdesk.rules.api import CHANCE, Event, Game, IllegalAction, Option, State, uniform

TEAM_NAMES = ("Blue", "Orange")

# Phases of a match (State.phase).
SETUP, TOSS, KICKOFF, TURN, CHAIN, AFTER, KEEPER, PENALTY_KEEPER, PENALTY, OVER = range(10)
PHASE_NAMES = ("setup", "toss", "kickoff", "turn", "chain", "after_turn", "keeper", "penalty_keeper", "penalty", "over")

# A cell of the board: 0 empty, else the pawn's team + 1, with YELLOW added for a yellow card.
EMPTY = 0
YELLOW = 4


class PawnDataError(ValueError):
    """The Pawn Soccer data file is inconsistent; the message says where."""


# --- board --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class End:
    """One end of the board, described for the team that defends it."""

    team: str
    half: tuple[int, int]
    forward: int  # +1: this team attacks towards higher rows
    goal: frozenset[int]
    goal_kick_area: frozenset[int]
    penalty_area: frozenset[int]
    penalty_spot: int
    blocked: frozenset[int]
    sprint_zones: tuple[tuple[int, ...], ...]
    long_pass_spaces: frozenset[int]
    formation: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RuleNumbers:
    pawns_on_board: int
    substitutes: int
    goalkeepers: int
    pass_range: int
    kick_range: int
    sprint_length: int
    penalty_choices: int
    reds_to_forfeit: int
    goals_to_win: int
    turn_limit: int


class Board:
    """The validated board and everything precomputed from it once.

    Squares are numbered ``row * width + column`` with rows 0..rows+1 (the goal rows
    included), so a square name such as ``D6`` maps to one small int.
    """

    def __init__(self, data: Mapping[str, Any]) -> None:
        board = _table(data, "board")
        self.columns: str = _get(board, "columns", str, "board")
        self.rows: int = _get(board, "rows", int, "board")
        if (
            not self.columns.isalpha()
            or len(set(self.columns)) != len(self.columns)
            or not 3 <= len(self.columns) <= 26
        ):
            raise PawnDataError("board.columns must be distinct letters")
        if self.rows < 3:
            raise PawnDataError("board.rows must be at least 3")
        self.width = len(self.columns)
        self.size = self.width * (self.rows + 2)
        self.names = tuple(self.columns[i % self.width] + str(i // self.width) for i in range(self.size))
        self.index = {name: i for i, name in enumerate(self.names)}
        self.centre_row: int = _get(board, "centre_row", int, "board")
        self.kickoff_square = self.square(_get(board, "kickoff_square", str, "board"), "board.kickoff_square")
        if self.row(self.kickoff_square) != self.centre_row:
            raise PawnDataError("board.kickoff_square must be on the centre row")
        self.pitch = tuple(i for i in range(self.size) if 1 <= self.row(i) <= self.rows)
        self.pitch_set = frozenset(self.pitch)

        ends = data.get("ends")
        if not isinstance(ends, list) or len(ends) != 2:
            raise PawnDataError("the data needs exactly two [[ends]] (Blue's, then Orange's)")
        self.ends = (self._end(ends[0], 0), self._end(ends[1], 1))
        if self.ends[0].forward == self.ends[1].forward:
            raise PawnDataError("the two ends must face each other")

        rules = _table(data, "rules")
        match = _table(data, "match")
        rule_names = ("pawns_on_board", "substitutes", "goalkeepers", "pass_range", "kick_range", "sprint_length")
        more_names = ("penalty_choices", "reds_to_forfeit")
        self.numbers = RuleNumbers(
            **{name: _get(rules, name, int, "rules") for name in rule_names + more_names},
            goals_to_win=_get(match, "goals_to_win", int, "match"),
            turn_limit=_get(match, "turn_limit", int, "match"),
        )
        n = self.numbers
        if n.goalkeepers != 1:
            raise PawnDataError("rules.goalkeepers: only one goalkeeper per side is supported")
        if n.substitutes not in (0, 1):
            raise PawnDataError("rules.substitutes must be 0 or 1")
        if min(n.pass_range, n.kick_range, n.sprint_length, n.penalty_choices, n.pawns_on_board, n.reds_to_forfeit) < 1:
            raise PawnDataError("rules numbers must be at least 1")
        for seat, end in enumerate(self.ends):
            if len(end.formation) < n.pawns_on_board:
                raise PawnDataError(f"ends[{seat}].formation needs at least {n.pawns_on_board} squares")
            if len(set(end.formation)) != len(end.formation) or any(
                not self.may_set_up(seat, sq) for sq in end.formation
            ):
                raise PawnDataError(
                    f"ends[{seat}].formation has a square where set-up is not allowed, or a repeated one"
                )
            if len(end.goal_kick_area & set(end.formation)) > n.goalkeepers:
                raise PawnDataError(f"ends[{seat}].formation puts more than one pawn in the goal-kick area")
        self.blocked = self.ends[0].blocked | self.ends[1].blocked
        self.sprint_squares = frozenset(sq for end in self.ends for zone in end.sprint_zones for sq in zone)
        self.long_pass_squares = self.ends[0].long_pass_spaces | self.ends[1].long_pass_spaces
        self._precompute()

    # --- loading helpers

    def square(self, name: Any, where: str) -> int:
        if not isinstance(name, str) or name not in self.index:
            raise PawnDataError(f"{where}: {name!r} is not a square of the board")
        return self.index[name]

    def squares(self, names: Any, where: str) -> list[int]:
        """Square names and ``"B1:F3"`` rectangles, in order."""
        if not isinstance(names, list):
            raise PawnDataError(f"{where} must be a list of squares")
        out: list[int] = []
        for name in names:
            if isinstance(name, str) and ":" in name:
                a, b = (self.square(part, where) for part in name.split(":", 1))
                rows = range(min(self.row(a), self.row(b)), max(self.row(a), self.row(b)) + 1)
                cols = range(min(self.col(a), self.col(b)), max(self.col(a), self.col(b)) + 1)
                out.extend(r * self.width + c for r in rows for c in cols)
            else:
                out.append(self.square(name, where))
        return out

    def _end(self, raw: Any, seat: int) -> End:
        where = f"ends[{seat}]"
        if not isinstance(raw, Mapping):
            raise PawnDataError(f"{where} must be a table")
        half = raw.get("half")
        if not (
            isinstance(half, list)
            and len(half) == 2
            and all(isinstance(h, int) for h in half)
            and 1 <= half[0] <= half[1] <= self.rows
        ):
            raise PawnDataError(f"{where}.half must be [first row, last row] on the pitch")
        goal = self.squares(raw.get("goal"), f"{where}.goal")
        goal_rows = {self.row(sq) for sq in goal}
        if goal_rows not in ({0}, {self.rows + 1}):
            raise PawnDataError(f"{where}.goal must lie on row 0 or row {self.rows + 1}")
        forward = 1 if goal_rows == {0} else -1
        pitch = lambda key: frozenset(self._on_pitch(self.squares(raw.get(key), f"{where}.{key}"), f"{where}.{key}"))  # noqa: E731
        zones = raw.get("sprint_zones")
        if not isinstance(zones, list):
            raise PawnDataError(f"{where}.sprint_zones must be a list of lists of squares")
        sprint_zones = []
        for k, zone in enumerate(zones):
            squares = self._on_pitch(self.squares(zone, f"{where}.sprint_zones[{k}]"), f"{where}.sprint_zones[{k}]")
            if len({self.col(sq) for sq in squares}) != 1:
                raise PawnDataError(f"{where}.sprint_zones[{k}] must be one column (sprints go straight forward)")
            sprint_zones.append(tuple(sorted(squares)))
        spot = self.square(raw.get("penalty_spot"), f"{where}.penalty_spot")
        return End(
            team=str(raw.get("team", TEAM_NAMES[seat])),
            half=(half[0], half[1]),
            forward=forward,
            goal=frozenset(goal),
            goal_kick_area=pitch("goal_kick_area"),
            penalty_area=pitch("penalty_area"),
            penalty_spot=self._on_pitch([spot], f"{where}.penalty_spot")[0],
            blocked=pitch("blocked"),
            sprint_zones=tuple(sprint_zones),
            long_pass_spaces=pitch("long_pass_spaces"),
            formation=tuple(self.squares(raw.get("formation"), f"{where}.formation")),
        )

    def _on_pitch(self, squares: list[int], where: str) -> list[int]:
        for sq in squares:
            if not 1 <= self.row(sq) <= self.rows:
                raise PawnDataError(f"{where}: {self.names[sq]} is not on the pitch")
        return squares

    # --- geometry

    def row(self, sq: int) -> int:
        return sq // self.width

    def col(self, sq: int) -> int:
        return sq % self.width

    def distance(self, a: int, b: int) -> int:
        """King-move distance (Rulings, Pawn Soccer: a diagonal step counts 1)."""
        return max(abs(self.row(a) - self.row(b)), abs(self.col(a) - self.col(b)))

    def may_set_up(self, seat: int, sq: int) -> bool:
        """Rulebook, Setup: own half, never a sprint zone or long-pass space (the centre row is no one's half)."""
        end = self.ends[seat]
        special = {s for e in self.ends for z in e.sprint_zones for s in z} | {
            s for e in self.ends for s in e.long_pass_spaces
        }
        return end.half[0] <= self.row(sq) <= end.half[1] and sq not in special

    def _within(self, sq: int, reach: int) -> list[int]:
        return [t for t in self.pitch if t != sq and self.distance(sq, t) <= reach]

    def _path(self, a: int, b: int) -> tuple[int, ...]:
        """Squares a kick from ``a`` to ``b`` crosses (both ends excluded).

        Straight and diagonal lines cross the squares on the line; a knight-like
        offset such as (1, 2) runs along the corner of two squares and crosses both.
        """
        dr, dc = self.row(b) - self.row(a), self.col(b) - self.col(a)
        steps = max(abs(dr), abs(dc))
        out: list[int] = []
        for k in range(1, steps):
            r = self.row(a) + dr * k / steps
            c = self.col(a) + dc * k / steps
            for rr in {int(r), int(-(-r // 1))}:
                for cc in {int(c), int(-(-c // 1))}:
                    sq = rr * self.width + cc
                    if sq not in out:
                        out.append(sq)
        return tuple(out)

    def _precompute(self) -> None:
        n = self.numbers
        size = self.size
        self.neighbours: list[tuple[int, ...]] = [
            tuple(self._within(sq, 1)) if sq in self.pitch_set else () for sq in range(size)
        ]
        self.pass_reach: list[tuple[int, ...]] = [
            tuple(self._within(sq, n.pass_range)) if sq in self.pitch_set else () for sq in range(size)
        ]
        self.kick_reach: list[tuple[int, ...]] = [
            tuple(self._within(sq, n.kick_range)) if sq in self.pitch_set else () for sq in range(size)
        ]
        self.diagonal = [[False] * size for _ in range(size)]
        for a in self.pitch:
            for b in self.neighbours[a]:
                self.diagonal[a][b] = self.row(a) != self.row(b) and self.col(a) != self.col(b)
        # Per attacking seat: shots at the goal it attacks (goal square, squares between),
        # and goal squares one step away (scoring by moving). Rulebook: X squares cannot score.
        self.shots: list[list[tuple[tuple[int, tuple[int, ...]], ...]]] = []
        self.goal_steps: list[list[tuple[int, ...]]] = []
        for seat in (0, 1):
            target = self.ends[1 - seat].goal
            shots: list[tuple[tuple[int, tuple[int, ...]], ...]] = []
            steps: list[tuple[int, ...]] = []
            for sq in range(size):
                if sq not in self.pitch_set or sq in self.ends[0].blocked | self.ends[1].blocked:
                    shots.append(())
                    steps.append(())
                    continue
                shots.append(
                    tuple((g, self._path(sq, g)) for g in sorted(target) if self.distance(sq, g) <= n.kick_range)
                )
                steps.append(tuple(g for g in sorted(target) if self.distance(sq, g) == 1))
            self.shots.append(shots)
            self.goal_steps.append(steps)
        # Rulings, Pawn Soccer 3: from a sprint square straight forward 1..3 squares inside the zone.
        self.sprints: list[list[tuple[tuple[int, tuple[int, ...]], ...]]] = []
        for seat in (0, 1):
            fwd = self.ends[seat].forward
            table: list[tuple[tuple[int, tuple[int, ...]], ...]] = [() for _ in range(size)]
            for end in self.ends:
                for zone in end.sprint_zones:
                    for sq in zone:
                        runs = []
                        for k in range(2, n.sprint_length + 1):  # 1 square is an ordinary move
                            dest = sq + fwd * k * self.width
                            between = tuple(sq + fwd * j * self.width for j in range(1, k))
                            if dest in zone:
                                runs.append((dest, between))
                        table[sq] = tuple(runs)
            self.sprints.append(table)
        # Variant sprint_on_entry: the move that lands on a sprint square may run on forward
        # inside the zone (squares passed: the landing square and those after it).
        self.entry_sprints: list[list[tuple[tuple[int, tuple[int, ...]], ...]]] = []
        zone_of = {sq: zone for end in self.ends for zone in end.sprint_zones for sq in zone}
        for seat in (0, 1):
            fwd = self.ends[seat].forward
            entry_table: list[tuple[tuple[int, tuple[int, ...]], ...]] = [() for _ in range(size)]
            for sq in self.pitch:
                if sq in zone_of:
                    continue
                found: dict[int, tuple[int, ...]] = {}
                for entry in self.neighbours[sq]:
                    if entry not in zone_of:
                        continue
                    for k in range(1, n.sprint_length):
                        dest = entry + fwd * k * self.width
                        if dest in zone_of[entry] and dest not in self.neighbours[sq]:
                            # Several landing squares may lead to the same end: the one nearest
                            # it passes the fewest squares (the others pass those too).
                            path = tuple(entry + fwd * j * self.width for j in range(k))
                            if dest not in found or len(path) < len(found[dest]):
                                found[dest] = path
                entry_table[sq] = tuple(sorted(found.items()))
            self.entry_sprints.append(entry_table)
        # Rulings, Pawn Soccer 5: long-pass targets, per variant.
        self.long_targets: dict[str, list[tuple[int, ...]]] = {
            "own_half": [() for _ in range(size)],
            "opposite_half": [() for _ in range(size)],
        }
        for seat, end in enumerate(self.ends):
            own_rows = range(end.half[0], end.half[1] + 1)
            other = self.ends[1 - seat].half
            other_rows = range(other[0], other[1] + 1)
            for sq in end.long_pass_spaces:
                for variant, rows in (("own_half", own_rows), ("opposite_half", other_rows)):
                    self.long_targets[variant][sq] = tuple(
                        t for t in self.pitch if t != sq and (self.row(t) in rows or self.row(t) == self.centre_row)
                    )
        # Zones of a square as seen by each seat's own end.
        self.own_area = [end.goal_kick_area for end in self.ends]
        self.goal_kick_squares = self.own_area[0] | self.own_area[1]
        self.own_penalty_area = [end.penalty_area for end in self.ends]
        self.setup_squares = [tuple(sq for sq in self.pitch if self.may_set_up(seat, sq)) for seat in (0, 1)]
        # Look-up tables for bots: king distance between any two squares, and how far up the
        # board a square is for each seat (1 = its own goal line row, rows = the far one).
        self.distances = [[self.distance(a, b) for b in range(size)] for a in range(size)]
        self.progress = [
            [self.row(sq) if end.forward > 0 else self.rows + 1 - self.row(sq) for sq in range(size)]
            for end in self.ends
        ]

    def to_json(self) -> dict[str, Any]:
        names = self.names
        sort = lambda squares: sorted(squares)  # noqa: E731
        return {
            "columns": self.columns,
            "rows": self.rows,
            "centre_row": self.centre_row,
            "kickoff": names[self.kickoff_square],
            "ends": [
                {
                    "team": end.team,
                    "half": list(end.half),
                    "forward": end.forward,
                    "goal": [names[s] for s in sort(end.goal)],
                    "goal_kick_area": [names[s] for s in sort(end.goal_kick_area)],
                    "penalty_area": [names[s] for s in sort(end.penalty_area)],
                    "penalty_spot": names[end.penalty_spot],
                    "blocked": [names[s] for s in sort(end.blocked)],
                    "sprint_zones": [[names[s] for s in zone] for zone in end.sprint_zones],
                    "long_pass_spaces": [names[s] for s in sort(end.long_pass_spaces)],
                }
                for end in self.ends
            ],
        }


def _table(data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = data.get(key)
    if not isinstance(value, Mapping):
        raise PawnDataError(f"the data needs a [{key}] table")
    return value


def _get(table: Mapping[str, Any], key: str, kind: type, where: str) -> Any:
    value = table.get(key)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise PawnDataError(f"{where}.{key} must be a {kind.__name__}, not {value!r}")
    return value


# --- actions ------------------------------------------------------------------------


class PawnAction(NamedTuple):
    """One decision: a ``verb`` and up to two words, usually square names.

    A tuple (not a dataclass) so that looking an action up in a legal list compares in C,
    which bot search needs. ``str`` gives the text form that ``parse_action`` reads back:
    ``move C4-C5``, ``place C3 yellow``, ``toss blue``, ``penalty 2``, ``keeper none``, ``stop``.
    """

    verb: str
    a: str = ""
    b: str = ""

    def __str__(self) -> str:
        verb, a, b = self
        if b and verb != "place":
            return f"{verb} {a}-{b}"
        if b:
            return f"place {a} yellow"
        return f"{verb} {a}" if a else verb


END = PawnAction("end")
STOP = PawnAction("stop")
WAIT = PawnAction("wait")
KEEPER_NONE = PawnAction("keeper", "none")


# --- state --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PawnState(State):
    """A Pawn Soccer position. ``cells[sq]`` is 0, or team + 1 (+4 with a yellow card)."""

    phase: int
    side: int  # seat deciding (not meaningful in TOSS, PENALTY, OVER)
    cells: tuple[int, ...]
    ball: int  # square of the ball, -1 before the kick-off; held when a pawn stands on it
    goals: tuple[int, int]
    turns: int  # team turns played
    kicker: int  # seat kicking off after the set-up, -1 until the toss
    reserve: tuple[int, int, int, int]  # still to place: Blue clean, Blue yellow, Orange clean, Orange yellow
    substitute: tuple[bool, bool]  # substitute still on the bench
    reds: tuple[int, int]
    barred: int  # square of the pawn that may not steal back / take the ball this turn, -1
    received: int  # bit set of squares that received in the current chain pass
    kickoff_turn: bool
    picks: tuple[int, int]  # penalty picks, 0 = not chosen
    taker: int  # seat taking the penalty, -1
    forfeit: int  # seat that won by forfeit, -1
    rules: _Rules = field(compare=False, repr=False)  # the rules under this match's options

    # --- contract hooks

    def current_players(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == OVER:
            return ()
        if phase == TOSS:
            return (CHANCE,)
        if phase == PENALTY:
            return tuple(s for s in (0, 1) if not self.picks[s])
        return (self.side,)

    @property
    def score(self) -> tuple[int, int]:
        return self.goals

    @property
    def winner(self) -> int | None:
        if self.phase != OVER:
            return None
        if self.forfeit >= 0:
            return self.forfeit
        a, b = self.goals
        return 0 if a > b else 1 if b > a else None

    def result_details(self) -> dict[str, Any]:
        """Ended by the turn limit (no side reached the goals that win): said with the result,
        a draw under golden goal being otherwise a surprise."""
        if self.phase != OVER or max(self.goals) >= self.rules.goals_to_win and self.forfeit < 0:
            return {}
        if self.forfeit >= 0:
            return {"forfeit": True}  # four red cards (rulebook, Forfeit match)
        return {"turn_limit": self.rules.turn_limit}

    def _chance_outcomes(self) -> list[tuple[Any, float]]:
        return uniform(self.rules.toss)

    def _legal_actions(self, seat: int) -> list[Any]:
        return self.rules.legal(self, seat)

    def _apply(self, seat: int, action: Any, events: list[Event]) -> State:
        return self.rules.apply(self, seat, action, events)

    def _view(self, seat: int | None) -> dict[str, Any]:
        return self.rules.view(self, seat)

    def _secret(self, seat: int, action: Any) -> tuple[int, bool] | None:
        """A penalty pick is laid face down and shown once both are in."""
        return (1 - seat, True) if self.phase == PENALTY and seat != CHANCE else None

    def _pick_pending(self, seat: int) -> bool:
        return self.phase == PENALTY and bool(self.picks[1 - seat])

    def _determinize(self, seat: int, rng: random.Random) -> State:
        # The only hidden thing is the other side's pending penalty pick.
        other = 1 - seat
        if self.phase == PENALTY and self.picks[other]:
            pick = rng.randrange(1, self.rules.board.numbers.penalty_choices + 1)
            picks = (pick, self.picks[1]) if other == 0 else (self.picks[0], pick)
            return replace(self, picks=picks)
        return self

    def explain_illegal(self, seat: int, action: Any) -> str:
        return self.rules.explain(self, seat, action)

    def evolve(self, **changes: Any) -> PawnState:
        """A copy with some fields changed: ``dataclasses.replace`` without its generality (the hot path)."""
        new = object.__new__(PawnState)
        setter = object.__setattr__
        for name in _FIELD_NAMES:
            setter(new, name, changes[name] if name in changes else getattr(self, name))
        return new

    # --- helpers for bots and tests

    def team_squares(self, seat: int) -> list[int]:
        """Squares of ``seat``'s pawns on the board."""
        code = seat + 1
        cells = self.cells
        return [sq for sq in self.rules.board.pitch if cells[sq] & 3 == code]

    def pawn_squares(self) -> tuple[list[int], list[int]]:
        """Squares of Blue's and of Orange's pawns, in one pass over the board."""
        teams: tuple[list[int], list[int]] = ([], [])
        cells = self.cells
        for sq in self.rules.board.pitch:
            cell = cells[sq]
            if cell:
                teams[(cell & 3) - 1].append(sq)
        return teams

    def holder(self) -> int:
        """Seat whose pawn holds the ball, or -1 (loose or no ball)."""
        if self.ball < 0:
            return -1
        cell = self.cells[self.ball]
        return (cell & 3) - 1 if cell else -1

    def keeper_square(self, seat: int) -> int:
        """Square of ``seat``'s goalkeeper (its pawn in its own goal-kick area), or -1."""
        code = seat + 1
        for sq in self.rules.board.own_area[seat]:
            if self.cells[sq] & 3 == code:
                return sq
        return -1


_FIELD_NAMES = tuple(f.name for f in fields(PawnState))


# --- the rules ----------------------------------------------------------------------


class ActionTables:
    """Every action object made once per board, looked up by square numbers."""

    def __init__(self, board: Board) -> None:
        A = PawnAction
        names = board.names
        everywhere = range(board.size)

        def pairs(verb: str) -> list[list[PawnAction]]:
            return [[A(verb, names[x], names[y]) for y in everywhere] for x in everywhere]

        self.move = pairs("move")
        # One-square moves of each square, with their actions, for the move generator.
        self.steps = [tuple((t, self.move[x][t]) for t in board.neighbours[x]) for x in everywhere]
        self.passes = pairs("pass")
        self.kick = pairs("kick")
        self.long = pairs("long")
        self.steal = pairs("steal")
        self.keeper = pairs("keeper")
        self.sub = [A("sub", names[x]) for x in everywhere]
        self.kickoff = [A("kickoff", names[x]) for x in everywhere]
        self.place = [(A("place", names[x]), A("place", names[x], "yellow")) for x in everywhere]
        self.penalty = [A("penalty", str(k)) for k in range(1, board.numbers.penalty_choices + 1)]
        self.toss = [A("toss", TEAM_NAMES[seat].lower()) for seat in (0, 1)]


class _Rules:
    """Legal actions, their effects, views and explanations, for one board and one set of options."""

    def __init__(self, board: Board, tables: ActionTables, options: Mapping[str, Any]) -> None:
        self.board = board
        self.board_json = board.to_json()
        # The shared action tables, bound here for short look-ups in the move generator.
        self.move, self.steps, self.passes, self.kick = tables.move, tables.steps, tables.passes, tables.kick
        self.long, self.steal, self.keeper, self.sub = tables.long, tables.steal, tables.keeper, tables.sub
        self.kickoff, self.place, self.penalty, self.toss = tables.kickoff, tables.place, tables.penalty, tables.toss
        self.goals_to_win: int = 1 if options["length"] == "golden_goal" else options["goals"]
        self.turn_limit: int = options["turn_limit"]
        self.long_variant: str = options["long_pass"]
        self.closed_area: bool = options["closed_goal_area"]
        self.quick_setup: bool = options["quick_setup"]
        self.sprint_runs = board.sprints
        if options["sprint_on_entry"]:
            self.sprint_runs = [
                [runs + entry for runs, entry in zip(board.sprints[seat], board.entry_sprints[seat], strict=True)]
                for seat in (0, 1)
            ]

    # --- legal actions

    def legal(self, s: PawnState, seat: int) -> list[Any]:
        phase = s.phase
        if phase == TURN:
            return self._turn(s, seat)
        if phase == CHAIN:
            return self._chain_hops(s, seat, s.ball) + [STOP]
        if phase == SETUP:
            return self._placements(s, seat)
        if phase == AFTER:
            return [self.sub[sq] for sq in s.team_squares(seat)] + [END]
        if phase == PENALTY:
            return list(self.penalty)
        if phase == KICKOFF:
            return [self.kickoff[sq] for sq in s.team_squares(seat)]
        if phase in (KEEPER, PENALTY_KEEPER):
            moves = self._keeper_moves(s, seat)
            return moves + [KEEPER_NONE] if phase == KEEPER else moves
        raise IllegalAction("no decision is due")  # pragma: no cover - current_players guards this

    def _placements(self, s: PawnState, seat: int) -> list[Any]:
        clean, yellow = s.reserve[2 * seat], s.reserve[2 * seat + 1]
        cells = s.cells
        out = []
        for sq in self.board.setup_squares[seat]:
            if cells[sq] or not self._may_enter(cells, seat, -1, sq):
                continue
            if clean:
                out.append(self.place[sq][0])
            if yellow:
                out.append(self.place[sq][1])
        return out

    def _may_enter(self, cells: Sequence[int], seat: int, frm: int, to: int) -> bool:
        """Goal-kick area: one pawn of its own side at most; opponents only when the area is open."""
        area = self.board.own_area[seat]
        if to in area and frm not in area:
            code = seat + 1
            for sq in area:
                if cells[sq] & 3 == code and sq != frm:
                    return False
        return not (self.closed_area and to in self.board.own_area[1 - seat])

    def _turn(self, s: PawnState, seat: int) -> list[Any]:
        b = self.board
        cells = s.cells
        ball = s.ball
        code = seat + 1
        own = [sq for sq in b.pitch if cells[sq] & 3 == code]
        out: list[Any] = []
        # The substitution is free: it is offered, but a side that can do nothing else may
        # still wait and keep its substitute.
        subs = [self.sub[sq] for sq in own] if s.substitute[seat] else []
        holder_cell = cells[ball] if ball >= 0 else 0
        mine = holder_cell & 3 == code
        if mine:
            passes = self.passes[ball]
            out.extend(passes[t] for t in b.pass_reach[ball] if cells[t] & 3 == code)
            kicks = self.kick[ball]
            out.extend(kicks[t] for t in b.kick_reach[ball] if not cells[t])
            if s.kickoff_turn:  # Rulebook, Setup: the match starts from the centre with a pass
                return subs + (out or [WAIT])
            for goal, between in b.shots[seat][ball]:
                if not any(cells[t] for t in between):  # Rulings, Pawn Soccer 4: the squares between empty
                    out.append(kicks[goal])
            if ball in b.long_pass_squares:
                longs = self.long[ball]
                out.extend(
                    longs[t] for t in b.long_targets[self.long_variant][ball] if not cells[t] or cells[t] & 3 == code
                )
            moves = self.move[ball]
            out.extend(moves[g] for g in b.goal_steps[seat][ball])
        elif holder_cell:  # the other side holds the ball: pawns beside it may steal
            steals = self.steal
            for sq in b.neighbours[ball]:
                if cells[sq] & 3 == code and sq != s.barred and self._may_swap(cells, seat, sq, ball):
                    out.append(steals[sq][ball])
        restricted = b.goal_kick_squares
        steps = self.steps
        for sq in own:
            for t, move in steps[sq]:
                if not cells[t] and (t not in restricted or self._may_enter(cells, seat, sq, t)):
                    out.append(move)
            for dest, between in self.sprint_runs[seat][sq]:
                if (
                    not cells[dest]
                    and not any(cells[t] or t == ball for t in between)
                    and (dest not in restricted or self._may_enter(cells, seat, sq, dest))
                ):
                    out.append(self.move[sq][dest])
        barred = s.barred
        if barred >= 0 and ball >= 0 and not holder_cell:
            # Rulebook, Red card: the pawn the ball was taken from cannot get it on its next turn.
            out = [a for a in out if a[1] != b.names[barred] or a[2] != b.names[ball]]
        return subs + (out or [WAIT])

    def _may_swap(self, cells: Sequence[int], seat: int, stealer: int, victim: int) -> bool:
        """A steal swaps the two pawns: both must be allowed on their new squares."""
        return self._may_enter(cells, seat, stealer, victim) and self._may_enter(cells, 1 - seat, victim, stealer)

    def _chain_hops(self, s: PawnState, seat: int, frm: int) -> list[Any]:
        # Rulings, Pawn Soccer 6: each pawn receives at most once in a chain.
        code = seat + 1
        cells = s.cells
        passes = self.passes[frm]
        received = s.received
        return [passes[t] for t in self.board.pass_reach[frm] if cells[t] & 3 == code and not received >> t & 1]

    def _keeper_moves(self, s: PawnState, seat: int) -> list[Any]:
        free = [sq for sq in sorted(self.board.own_area[seat]) if not s.cells[sq] and sq != s.ball]
        keeper = self.keeper
        return [keeper[sq][t] for sq in s.team_squares(seat) for t in free]

    # --- effects

    def apply(self, s: PawnState, seat: int, action: PawnAction, events: list[Event]) -> PawnState:
        handler = getattr(self, "_do_" + action.verb)
        result: PawnState = handler(s, seat, action, events)
        return result

    def _do_toss(self, s: PawnState, seat: int, action: PawnAction, events: list[Event]) -> PawnState:
        kicker = 0 if action.a == self.toss[0].a else 1
        events.append(Event("toss", f"Coin toss: {TEAM_NAMES[kicker]} kicks off.", {"kicker": kicker}))
        return s.evolve(phase=KICKOFF, side=kicker, kicker=kicker)

    def _do_place(self, s: PawnState, seat: int, action: PawnAction, events: list[Event]) -> PawnState:
        sq, yellow = self.board.index[action.a], 1 if action.b else 0
        cells = list(s.cells)
        cells[sq] = seat + 1 + (YELLOW if yellow else 0)
        reserve = list(s.reserve)
        reserve[2 * seat + yellow] -= 1
        names = self.board.names
        events.append(
            Event(
                "place",
                f"{TEAM_NAMES[seat]} places a pawn{' (yellow card)' if yellow else ''} on {names[sq]}.",
                {"team": seat, "square": names[sq], "yellow": bool(yellow)},
            )
        )
        return self._after_placing(
            s.evolve(cells=tuple(cells), reserve=(reserve[0], reserve[1], reserve[2], reserve[3])), seat
        )

    def _after_placing(self, s: PawnState, last: int) -> PawnState:
        left = (s.reserve[0] + s.reserve[1], s.reserve[2] + s.reserve[3])
        other = 1 - last
        if left[other]:
            return s.evolve(side=other)
        if left[last]:
            return s.evolve(side=last)
        if s.kicker < 0:
            return s.evolve(phase=TOSS, side=-1)
        return s.evolve(phase=KICKOFF, side=s.kicker)

    def _do_kickoff(self, s: PawnState, seat: int, action: PawnAction, events: list[Event]) -> PawnState:
        centre = self.board.kickoff_square
        frm = self.board.index[action.a]
        cells = list(s.cells)
        cells[centre], cells[frm] = cells[frm], EMPTY
        names = self.board.names
        events.append(
            Event(
                "kickoff",
                f"{TEAM_NAMES[seat]} kicks off: the pawn from {names[frm]} takes the ball to {names[centre]}.",
                {"team": seat, "from": names[frm], "square": names[centre]},
            )
        )
        return s.evolve(phase=TURN, side=seat, cells=tuple(cells), ball=centre, kickoff_turn=True, kicker=-1)

    def _do_sub(self, s: PawnState, seat: int, action: PawnAction, events: list[Event]) -> PawnState:
        # Rulings, Pawn Soccer 1: the substitute takes the replaced pawn's square (and its ball).
        # It is a fresh pawn: the replaced pawn's yellow card and steal-back bar leave with it.
        sq = self.board.index[action.a]
        cells = list(s.cells)
        had_yellow = bool(cells[sq] & YELLOW)
        cells[sq] = seat + 1
        substitute = (False, s.substitute[1]) if seat == 0 else (s.substitute[0], False)
        name = self.board.names[sq]
        events.append(
            Event(
                "substitution",
                f"{TEAM_NAMES[seat]} substitutes the pawn on {name}{' (its yellow card goes with it)' if had_yellow else ''}.",
                {"team": seat, "square": name, "yellow_cleared": had_yellow},
            )
        )
        nxt = s.evolve(cells=tuple(cells), substitute=substitute, barred=-1 if s.barred == sq else s.barred)
        if s.phase == AFTER:
            return nxt.evolve(phase=TURN, side=1 - seat)
        return nxt

    def _do_end(self, s: PawnState, seat: int, action: PawnAction, events: list[Event]) -> PawnState:
        return s.evolve(phase=TURN, side=1 - seat)

    def _do_wait(self, s: PawnState, seat: int, action: PawnAction, events: list[Event]) -> PawnState:
        events.append(Event("wait", f"{TEAM_NAMES[seat]} cannot move and waits.", {"team": seat}))
        return self._end_turn(s, seat, -1, events)

    def _do_move(self, s: PawnState, seat: int, action: PawnAction, events: list[Event]) -> PawnState:
        frm, to = self.board.index[action.a], self.board.index[action.b]
        names = self.board.names
        if to not in self.board.pitch_set:  # a goal square: the ball is moved into the goal
            events.append(
                Event(
                    "move",
                    f"{TEAM_NAMES[seat]} moves the ball from {names[frm]} into the goal.",
                    {"team": seat, "from": names[frm], "to": names[to], "ball": True},
                )
            )
            return self._goal(s, seat, events, f"{TEAM_NAMES[seat]} walks the ball into the goal")
        cells = list(s.cells)
        cells[to], cells[frm] = cells[frm], EMPTY
        ball = s.ball
        carries = ball == frm
        takes = ball == to
        if carries:
            ball = to
        what = " with the ball" if carries else " and takes the loose ball" if takes else ""
        kind = "sprint" if self.board.distances[frm][to] > 1 else "move"
        events.append(
            Event(
                kind,
                f"{TEAM_NAMES[seat]} {'sprints' if kind == 'sprint' else 'moves'} from {names[frm]} to {names[to]}{what}.",
                {"team": seat, "from": names[frm], "to": names[to], "ball": carries or takes},
            )
        )
        return self._end_turn(s, seat, -1, events, cells=tuple(cells), ball=ball)

    def _do_pass(self, s: PawnState, seat: int, action: PawnAction, events: list[Event]) -> PawnState:
        frm, to = self.board.index[action.a], self.board.index[action.b]
        names = self.board.names
        received = s.received | 1 << to
        chained = s.phase == CHAIN
        events.append(
            Event(
                "pass",
                f"{TEAM_NAMES[seat]} {'passes on' if chained else 'passes'} from {names[frm]} to {names[to]}.",
                {"team": seat, "from": names[frm], "to": names[to], "chain": chained},
            )
        )
        nxt = s.evolve(ball=to, received=received, kickoff_turn=False, phase=CHAIN)
        if self._chain_hops(nxt, seat, to):
            return nxt
        return self._end_turn(nxt, seat, -1, events)

    def _do_stop(self, s: PawnState, seat: int, action: PawnAction, events: list[Event]) -> PawnState:
        return self._end_turn(s, seat, -1, events)

    def _do_long(self, s: PawnState, seat: int, action: PawnAction, events: list[Event]) -> PawnState:
        frm, to = self.board.index[action.a], self.board.index[action.b]
        names = self.board.names
        loose = not s.cells[to]
        events.append(
            Event(
                "long_pass",
                f"{TEAM_NAMES[seat]} plays a long pass from {names[frm]} to {names[to]}{' (into space)' if loose else ''}.",
                {"team": seat, "from": names[frm], "to": names[to], "loose": loose},
            )
        )
        return self._end_turn(s, seat, -1, events, ball=to)

    def _do_kick(self, s: PawnState, seat: int, action: PawnAction, events: list[Event]) -> PawnState:
        frm, to = self.board.index[action.a], self.board.index[action.b]
        names = self.board.names
        if to not in self.board.pitch_set:
            events.append(
                Event(
                    "shot",
                    f"{TEAM_NAMES[seat]} shoots from {names[frm]} into {names[to]}.",
                    {"team": seat, "from": names[frm], "to": names[to]},
                )
            )
            return self._goal(s, seat, events, f"{TEAM_NAMES[seat]} scores from {names[frm]}")
        events.append(
            Event(
                "kick",
                f"{TEAM_NAMES[seat]} kicks the ball from {names[frm]} to the empty square {names[to]}.",
                {"team": seat, "from": names[frm], "to": names[to]},
            )
        )
        return self._end_turn(s, seat, -1, events, ball=to)

    def _do_steal(self, s: PawnState, seat: int, action: PawnAction, events: list[Event]) -> PawnState:
        b = self.board
        stealer, victim = b.index[action.a], b.index[action.b]
        names = b.names
        cells = list(s.cells)
        diagonal = b.diagonal[stealer][victim]
        reds = s.reds
        expelled = False
        was_keeper = stealer in b.own_area[seat]
        card: Event | None = None
        if diagonal:
            # Rulebook, Steal: a diagonal steal is a yellow card, a second one a red card.
            if cells[stealer] & YELLOW:
                expelled = True
                reds = (reds[0] + 1, reds[1]) if seat == 0 else (reds[0], reds[1] + 1)
                card = Event(
                    "red_card",
                    f"Red card: {TEAM_NAMES[seat]}'s pawn from {names[stealer]} already had a yellow card and is sent off.",
                    {"team": seat, "square": names[stealer], "reds": reds[seat]},
                )
            else:
                cells[stealer] |= YELLOW
                card = Event(
                    "yellow_card",
                    f"Yellow card: {TEAM_NAMES[seat]}'s pawn from {names[stealer]} stole diagonally.",
                    {"team": seat, "square": names[stealer]},
                )
        if card is not None and victim in b.own_penalty_area[seat]:  # a diagonal steal (it drew a card)
            events.append(card)
            return self._foul_in_area(s, seat, stealer, victim, cells, reds, expelled, events)
        cells[victim], cells[stealer] = cells[stealer], cells[victim]
        events.append(
            Event(
                "steal",
                f"{TEAM_NAMES[seat]} steals the ball{' diagonally' if diagonal else ''}: {names[stealer]} swaps with {names[victim]}.",
                {"team": seat, "from": names[stealer], "to": names[victim], "diagonal": diagonal},
            )
        )
        if card is not None:
            events.append(card)  # told after the steal, which happened first
        if expelled:
            # Rulebook, Red card: the ball stays loose where the expelled pawn stood.
            cells[victim] = EMPTY
            events.append(
                Event(
                    "loose_ball",
                    f"The ball stays loose on {names[victim]}; {TEAM_NAMES[1 - seat]}'s pawn on {names[stealer]} may not take it next turn.",
                    {"square": names[victim], "barred": names[stealer]},
                )
            )
        nxt = s.evolve(cells=tuple(cells), ball=victim, reds=reds)
        if reds[seat] >= b.numbers.reds_to_forfeit:
            return self._forfeit(nxt, seat, events)
        if expelled and was_keeper and self._keeper_moves(nxt, seat):
            # Rulebook, Red card: a pawn may move into the goalkeeper's position before the next turn.
            return nxt.evolve(phase=KEEPER, side=seat, barred=stealer)
        return self._end_turn(nxt, seat, stealer, events)

    def _foul_in_area(
        self,
        s: PawnState,
        seat: int,
        stealer: int,
        victim: int,
        cells: list[int],
        reds: tuple[int, int],
        expelled: bool,
        events: list[Event],
    ) -> PawnState:
        """Rulings, Pawn Soccer 7-8: a diagonal steal in the stealer's own penalty area is a penalty.

        No swap happens: the fouled pawn takes the ball to the penalty spot (a pawn standing
        there moves to the fouled pawn's square).
        """
        b = self.board
        names = b.names
        taker = 1 - seat
        spot = b.ends[seat].penalty_spot
        if expelled:
            cells[stealer] = EMPTY
        if spot != victim:
            # A pawn on the spot takes the fouled pawn's square. That never breaks the goal-kick
            # area rule: a fouled pawn in a goal-kick area means the stealer could enter it,
            # so its side has no goalkeeper there yet.
            cells[spot], cells[victim] = cells[victim], cells[spot]
        events.append(
            Event(
                "penalty_awarded",
                f"Penalty to {TEAM_NAMES[taker]}: diagonal steal inside {TEAM_NAMES[seat]}'s penalty area. The kicker goes to {names[spot]}.",
                {"taker": taker, "foul": names[victim], "spot": names[spot]},
            )
        )
        nxt = s.evolve(
            cells=tuple(cells), ball=spot, reds=reds, turns=s.turns + 1, received=0, barred=-1, kickoff_turn=False
        )
        if reds[seat] >= b.numbers.reds_to_forfeit:
            return self._forfeit(nxt, seat, events)
        return self._penalty_keeper(nxt, seat, events)

    def _penalty_keeper(self, s: PawnState, keeper_side: int, events: list[Event]) -> PawnState:
        taker = 1 - keeper_side
        if s.keeper_square(keeper_side) >= 0:
            return s.evolve(phase=PENALTY, side=-1, picks=(0, 0), taker=taker)
        if self._keeper_moves(s, keeper_side):
            # Rulebook, Penalty: another pawn must take the goalkeeper's place first.
            return s.evolve(phase=PENALTY_KEEPER, side=keeper_side, taker=taker)
        events.append(
            Event(
                "penalty_unguarded",
                f"{TEAM_NAMES[keeper_side]} cannot put a goalkeeper in the goal-kick area: the penalty goes in.",
                {"taker": taker},
            )
        )
        return self._goal(
            s.evolve(taker=-1),
            taker,
            events,
            f"{TEAM_NAMES[taker]} scores the penalty into an empty goal",
            count_turn=True,
        )

    def _do_keeper(self, s: PawnState, seat: int, action: PawnAction, events: list[Event]) -> PawnState:
        names = self.board.names
        if action == KEEPER_NONE:
            events.append(
                Event(
                    "keeper",
                    f"{TEAM_NAMES[seat]} leaves the goal-kick area empty.",
                    {"team": seat, "from": None, "to": None},
                )
            )
            return self._end_turn(s, seat, s.barred, events)
        frm, to = self.board.index[action.a], self.board.index[action.b]
        cells = list(s.cells)
        cells[to], cells[frm] = cells[frm], EMPTY
        events.append(
            Event(
                "keeper",
                f"{TEAM_NAMES[seat]} moves the pawn on {names[frm]} to {names[to]} as goalkeeper.",
                {"team": seat, "from": names[frm], "to": names[to]},
            )
        )
        nxt = s.evolve(cells=tuple(cells))
        if s.phase == PENALTY_KEEPER:
            return nxt.evolve(phase=PENALTY, side=-1, picks=(0, 0))
        return self._end_turn(nxt, seat, s.barred, events)

    def _do_penalty(self, s: PawnState, seat: int, action: PawnAction, events: list[Event]) -> PawnState:
        pick = int(action.a)
        picks = (pick, s.picks[1]) if seat == 0 else (s.picks[0], pick)
        events.append(Event("penalty_chosen", f"{TEAM_NAMES[seat]} has chosen.", {"team": seat}))
        if not (picks[0] and picks[1]):
            return s.evolve(picks=picks)
        taker = s.taker
        keeper_side = 1 - taker
        shot, dive = picks[taker], picks[keeper_side]
        # The n-th choice is the n-th square of the keeper's goal, left to right on the board.
        board = self.board
        goal = sorted(board.ends[keeper_side].goal)
        at, to = board.names[goal[shot - 1]], board.names[goal[dive - 1]]
        if shot != dive:
            events.append(
                Event(
                    "penalty",
                    f"Penalty: {TEAM_NAMES[taker]} shoots at {at}, {TEAM_NAMES[keeper_side]} guards {to}: goal!",
                    {"taker": taker, "shot": shot, "guard": dive, "goal": True},
                )
            )
            return self._goal(
                s.evolve(picks=(0, 0), taker=-1),
                taker,
                events,
                f"{TEAM_NAMES[taker]} scores the penalty",
                count_turn=True,
            )
        keeper = s.keeper_square(keeper_side)
        events.append(
            Event(
                "penalty",
                f"Penalty: both chose {at}: saved, the goalkeeper has the ball.",
                {"taker": taker, "shot": shot, "guard": dive, "goal": False},
            )
        )
        # The penalty was the taker's turn (Ruling 1: its substitute may still come on after
        # it, as after any turn); the goalkeeper's side plays next.
        nxt = s.evolve(picks=(0, 0), taker=-1, ball=keeper)
        return self._end_turn(nxt, taker, -1, events)

    # --- turn flow

    def _end_turn(self, s: PawnState, seat: int, barred: int, events: list[Event], **changes: Any) -> PawnState:
        """The side ``seat`` has finished its turn (``changes`` are what the turn changed);
        ``barred`` is set for the other side's turn."""
        turns = s.turns + 1
        if turns >= 2 * self.turn_limit:
            score = f"{s.goals[0]}-{s.goals[1]}"
            events.append(
                Event(
                    "full_time",
                    f"Full time: the turn limit is reached ({self.turn_limit} turns a side), {score}.",
                    {"turns": turns, "score": list(s.goals)},
                )
            )
            return s.evolve(**changes, phase=OVER, side=-1, turns=turns, received=0, barred=-1, kickoff_turn=False)
        if s.substitute[seat]:
            phase, side = AFTER, seat
        else:
            phase, side = TURN, 1 - seat
        return s.evolve(**changes, phase=phase, side=side, turns=turns, received=0, barred=barred, kickoff_turn=False)

    def _goal(self, s: PawnState, scorer: int, events: list[Event], text: str, count_turn: bool = True) -> PawnState:
        goals = (s.goals[0] + 1, s.goals[1]) if scorer == 0 else (s.goals[0], s.goals[1] + 1)
        turns = s.turns + 1 if count_turn else s.turns
        events.append(Event("goal", f"Goal! {text}. {goals[0]}-{goals[1]}.", {"team": scorer, "score": list(goals)}))
        if goals[scorer] >= self.goals_to_win or turns >= 2 * self.turn_limit:
            events.append(Event("full_time", f"Full time: {goals[0]}-{goals[1]}.", {"score": list(goals)}))
            return s.evolve(phase=OVER, side=-1, goals=goals, turns=turns, received=0, barred=-1, kickoff_turn=False)
        # Rulebook, Scoring: both sides set up again; the side that conceded kicks off.
        events.append(
            Event(
                "restart",
                f"Both sides set up again; {TEAM_NAMES[1 - scorer]} will kick off.",
                {"kicker": 1 - scorer},
            )
        )
        return self.reset(s.evolve(goals=goals, turns=turns), first=scorer, kicker=1 - scorer, events=events)

    def _forfeit(self, s: PawnState, loser: int, events: list[Event]) -> PawnState:
        events.append(
            Event(
                "forfeit",
                f"{TEAM_NAMES[loser]} has {self.board.numbers.reds_to_forfeit} pawns sent off and forfeits the match.",
                {"team": loser},
            )
        )
        return s.evolve(phase=OVER, side=-1, forfeit=1 - loser, received=0, barred=-1)

    def reset(self, s: PawnState, first: int, kicker: int, events: list[Event]) -> PawnState:
        """Clear the board for a new set-up; ``first`` places first, ``kicker`` kicks off (-1: toss)."""
        reserve = [0, 0, 0, 0]
        for sq in self.board.pitch:
            cell = s.cells[sq]
            if cell:
                reserve[2 * ((cell & 3) - 1) + (1 if cell & YELLOW else 0)] += 1
        s = s.evolve(
            phase=SETUP,
            side=first,
            cells=(EMPTY,) * self.board.size,
            ball=-1,
            kicker=kicker,
            reserve=(reserve[0], reserve[1], reserve[2], reserve[3]),
            received=0,
            barred=-1,
            kickoff_turn=False,
            picks=(0, 0),
            taker=-1,
        )
        if self.quick_setup:
            return self.quick_formation(s, events)
        return s

    def quick_formation(self, s: PawnState, events: list[Event]) -> PawnState:
        """Place both sides' pawns from the data file's formations (the quick_setup option)."""
        cells = list(s.cells)
        for seat in (0, 1):
            clean, yellow = s.reserve[2 * seat], s.reserve[2 * seat + 1]
            kinds = [seat + 1] * clean + [seat + 1 + YELLOW] * yellow
            for sq, cell in zip(self.board.ends[seat].formation, kinds, strict=False):
                cells[sq] = cell
        events.append(Event("formation", "Both sides take their default formation.", {}))
        return self._after_placing(s.evolve(cells=tuple(cells), reserve=(0, 0, 0, 0)), 0)

    # --- view

    def view(self, s: PawnState, seat: int | None) -> dict[str, Any]:
        b = self.board
        names = b.names
        cells = s.cells
        keepers = {s.keeper_square(0), s.keeper_square(1)}
        pawns = [
            {
                "square": names[sq],
                "team": (cells[sq] & 3) - 1,
                "yellow": bool(cells[sq] & YELLOW),
                "ball": sq == s.ball,
                "keeper": sq in keepers,
                "barred": sq == s.barred,
            }
            for sq in b.pitch
            if cells[sq]
        ]
        penalty = None
        if s.phase in (PENALTY, PENALTY_KEEPER):
            mine = s.picks[seat] if seat is not None and s.picks[seat] else None
            penalty = {"taker": s.taker, "chosen": [bool(p) for p in s.picks], "mine": mine}
        return {
            "board": self.board_json,
            "pawns": pawns,
            "ball": names[s.ball] if s.ball >= 0 else None,
            "ball_loose": s.ball >= 0 and not cells[s.ball],
            "phase": PHASE_NAMES[s.phase],
            "side_to_move": s.side if s.phase not in (TOSS, PENALTY, OVER) else None,
            "kickoff_turn": s.kickoff_turn,
            "kicker": s.kicker if s.kicker >= 0 else None,
            "to_place": [{"clean": s.reserve[2 * k], "yellow": s.reserve[2 * k + 1]} for k in (0, 1)],
            "chain_received": [names[sq] for sq in b.pitch if s.received >> sq & 1],
            "substitute": list(s.substitute),
            "reds": list(s.reds),
            "yellows": [sum(1 for sq in b.pitch if cells[sq] & 3 == k + 1 and cells[sq] & YELLOW) for k in (0, 1)],
            "turns": s.turns,
            "turn_limit": self.turn_limit,
            "goals_to_win": self.goals_to_win,
            "penalty": penalty,
            "forfeit": s.forfeit if s.forfeit >= 0 else None,
        }

    # --- explanations

    def explain(self, s: PawnState, seat: int, action: Any) -> str:
        if s.phase == OVER:
            return "the match is over"
        if seat not in s.current_players():
            return f"{TEAM_NAMES[seat] if seat in (0, 1) else 'chance'} does not decide now"
        if not isinstance(action, PawnAction):
            return f"{action} is not a Pawn Soccer action"
        phase = s.phase
        verb = action.verb
        expected = {
            SETUP: "place a pawn (set-up)",
            KICKOFF: "choose the pawn that kicks off",
            CHAIN: "pass again in the chain or stop",
            AFTER: "substitute a pawn or end the turn",
            KEEPER: "move a pawn into goal or leave it empty",
            PENALTY_KEEPER: "move a pawn into goal before the penalty",
            PENALTY: "choose 1, 2 or 3 for the penalty",
        }
        allowed = {
            SETUP: {"place"},
            KICKOFF: {"kickoff"},
            CHAIN: {"pass", "stop"},
            AFTER: {"sub", "end"},
            KEEPER: {"keeper"},
            PENALTY_KEEPER: {"keeper"},
            PENALTY: {"penalty"},
            TURN: {"move", "pass", "long", "kick", "steal", "sub", "wait"},
        }
        if verb not in allowed.get(phase, set()):
            return f"now you must {expected.get(phase, 'play your turn')}, not {verb}"
        b = self.board
        names = b.names
        cells = s.cells
        code = seat + 1
        a = b.index.get(action.a, -1)
        t = b.index.get(action.b, -1)
        if verb == "place":
            if a not in b.pitch_set:
                return "that is not a square of the pitch"
            end = b.ends[seat]
            if not end.half[0] <= b.row(a) <= end.half[1]:
                return f"pawns are set up in your own half (rows {end.half[0]}-{end.half[1]})"
            if a in b.sprint_squares or a in b.long_pass_squares:
                return "pawns cannot be set up on sprint zones or long-pass spaces"
            if cells[a]:
                return f"{names[a]} is taken"
            if a in b.own_area[seat]:
                return "your goal-kick area already has its one goalkeeper"
            return "you have no pawn of that kind left to place"
        if verb == "penalty":
            return f"choose a number from 1 to {b.numbers.penalty_choices}"
        if verb in ("stop", "end", "wait"):
            return "nothing else is possible now" if verb != "wait" else "you can still do something this turn"
        if a < 0 or cells[a] & 3 != code:
            return f"{action.a or 'that square'} holds none of your pawns"
        if verb in ("sub", "kickoff"):
            return "your substitute has already been used" if verb == "sub" else "that pawn cannot kick off"
        if t < 0:
            return "that is not a square of the board"
        if verb == "keeper":
            return f"{names[t]} is not a free square of your goal-kick area"
        holds = a == s.ball
        if s.kickoff_turn and verb not in ("pass", "kick"):
            return "the kick-off must be a pass or a kick to an empty square"
        if verb in ("pass", "long", "kick") and not holds:
            return f"the pawn on {names[a]} does not have the ball"
        if verb == "pass":
            if cells[t] & 3 != code:
                return f"{names[t]} holds none of your pawns"
            if b.distance(a, t) > b.numbers.pass_range:
                return f"a pass reaches at most {b.numbers.pass_range} squares"
            if s.received >> t & 1:
                return "in a chain pass each pawn receives the ball only once"
            return "you cannot pass now"
        if verb == "long":
            if a not in b.long_pass_squares:
                return "a long pass starts from a long-pass space"
            return f"a long pass goes to a team-mate or empty square of {'that' if self.long_variant == 'own_half' else 'the other'} half or the centre row"
        if verb == "kick":
            if b.distance(a, t) > b.numbers.kick_range:
                return f"a kick reaches at most {b.numbers.kick_range} squares"
            if t not in b.pitch_set:
                if a in b.blocked:
                    return "no goal can be scored from an X square"
                if t not in b.ends[1 - seat].goal:
                    return "you can only shoot at the opponent's goal"
                if s.kickoff_turn:
                    return "the kick-off cannot be a shot"
                return "the squares between the ball and the goal must be empty"
            return f"{names[t]} is not empty"
        if verb == "steal":
            if s.holder() != 1 - seat or t != s.ball:
                return "you can only steal the ball from an opposing pawn that has it"
            if b.distance(a, t) != 1:
                return "a steal is made from a square next to the ball"
            if a == s.barred:
                return "this pawn lost the ball last turn and cannot steal it back now"
            return "after the swap a goal-kick area would hold a pawn it may not"
        if verb == "move":
            if t not in b.pitch_set:
                if not holds:
                    return "only the pawn with the ball can move into the goal"
                if a in b.blocked:
                    return "no goal can be scored from an X square"
                return "the goal is not next to that pawn, or it is your own"
            if cells[t]:
                return f"{names[t]} is taken"
            if t == s.ball and a == s.barred:
                return "this pawn lost the ball and cannot take it back this turn"
            dist = b.distance(a, t)
            if dist > 1:
                if a not in b.sprint_squares:
                    return "a pawn moves one square (further only as a sprint from a sprint zone)"
                return "a sprint goes straight forward inside the zone over empty squares"
            return "that square is not open to this pawn (goal-kick area: one goalkeeper)"
        return f"{action} is not a legal action now"


# --- the game -----------------------------------------------------------------------


class PawnSoccer(Game):
    """Pawn Soccer (rulebook ``pawn-soccer.txt``, board from RULINGS.md)."""

    id = "pawn-soccer"
    title = "Pawn Soccer"
    summary = "Six pawns a side on a 7 x 11 board: move, pass, kick or steal, one action a turn."

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.board = Board(data)
        n = self.board.numbers
        type(self).options = (  # defaults from the data file
            Option(
                "length",
                "goal_limit",
                "Match won by",
                "Goal limit: the first side to reach the goal target wins. Golden goal: the first goal wins.",
                choices=("goal_limit", "golden_goal"),
            ),
            Option("goals", n.goals_to_win, "Goal target", "Goals that win a goal-limit match.", minimum=1, maximum=20),
            Option(
                "turn_limit",
                n.turn_limit,
                "Turns per side",
                "Turns each side plays before full time; then the higher score wins, and a level score is a draw.",
                minimum=1,
                maximum=10_000,
            ),
            Option(
                "long_pass",
                "own_half",
                "Long passes land in",
                "The usual rule: the half that holds the long-pass space. Variant: the other half. The centre row counts for both.",
                choices=("own_half", "opposite_half"),
            ),
            Option(
                "closed_goal_area",
                False,
                "Keep attackers out of goal-kick areas",
                "No pawn may enter the other side's goal-kick area, so every goal comes from a kick.",
            ),
            Option(
                "sprint_on_entry",
                False,
                "Sprint straight after entering",
                "A pawn may run on forward in a sprint zone in the same move that brings it there "
                "(usually only a pawn that starts its move in the zone sprints).",
            ),
            Option(
                "quick_setup",
                False,
                "Quick set-up",
                "Both sides start in the standard formation instead of placing their pawns one by one.",
            ),
        )
        self.tables = ActionTables(self.board)
        self._rules: dict[tuple[Any, ...], _Rules] = {}
        PawnState.game = self

    def rules_for(self, options: Mapping[str, Any]) -> _Rules:
        """The rules under one set of resolved options (made once per set: the tables are shared)."""
        key = tuple(sorted(options.items()))
        rules = self._rules.get(key)
        if rules is None:
            rules = self._rules[key] = _Rules(self.board, self.tables, options)
        return rules

    def _initial_state(self, options: Mapping[str, Any]) -> State:
        rules = self.rules_for(options)
        n = self.board.numbers
        state = PawnState(
            phase=SETUP,
            side=0,
            cells=(EMPTY,) * self.board.size,
            ball=-1,
            goals=(0, 0),
            turns=0,
            kicker=-1,
            reserve=(n.pawns_on_board, 0, n.pawns_on_board, 0),
            substitute=(n.substitutes > 0, n.substitutes > 0),
            reds=(0, 0),
            barred=-1,
            received=0,
            kickoff_turn=False,
            picks=(0, 0),
            taker=-1,
            forfeit=-1,
            rules=rules,
        )
        if rules.quick_setup:
            return rules.quick_formation(state, [])
        return state

    def position(
        self,
        blue: Iterable[str],
        orange: Iterable[str],
        ball: str | None,
        side: int = 0,
        *,
        yellow: Iterable[str] = (),
        barred: str | None = None,
        phase: str = "turn",
        seed: int = 0,
        options: Mapping[str, Any] | None = None,
        **fields: Any,
    ) -> PawnState:
        """A position built from square names, ``side`` to play (for tests, puzzles and analysis).

        ``yellow`` lists squares whose pawns carry a yellow card; ``fields`` sets further
        :class:`PawnState` fields (``goals``, ``turns``, ``substitute``, ``reds``, ...).
        Set-up reserves are empty. The result has no history: a record of it replays
        from a new match, so it is not for saving.
        """
        start = self.new_match(seed=seed, **(options or {}))
        assert isinstance(start, PawnState)
        index = self.board.index
        cells = [EMPTY] * self.board.size
        for seat, squares in enumerate((blue, orange)):
            for name in squares:
                cells[index[name]] = seat + 1
        for name in yellow:
            cells[index[name]] |= YELLOW
        state = replace(
            start,
            phase=PHASE_NAMES.index(phase),
            side=side,
            cells=tuple(cells),
            ball=index[ball] if ball else -1,
            reserve=(0, 0, 0, 0),
            barred=index[barred] if barred else -1,
            **fields,
        )
        state._set_meta(start.info, None, ())
        return state

    def parse_action(self, text: str) -> Any:
        bad = IllegalAction(f"not a Pawn Soccer action: {text!r}")
        if not isinstance(text, str):
            raise bad
        words = text.split()
        squares = self.board.index
        if not words or " ".join(words) != text:
            raise bad
        verb = words[0]
        if len(words) == 1 and verb in ("end", "stop", "wait"):
            return PawnAction(verb)
        if len(words) == 2 and verb in ("move", "pass", "long", "kick", "steal", "keeper"):
            if verb == "keeper" and words[1] == "none":
                return KEEPER_NONE
            a, sep, b = words[1].partition("-")
            if sep and a in squares and b in squares:
                return PawnAction(verb, a, b)
            raise bad
        if verb == "place" and len(words) in (2, 3) and words[1] in squares and words[2:] in ([], ["yellow"]):
            return PawnAction("place", words[1], "yellow" if len(words) == 3 else "")
        if verb in ("sub", "kickoff") and len(words) == 2 and words[1] in squares:
            return PawnAction(verb, words[1])
        if verb == "toss" and len(words) == 2 and words[1] in ("blue", "orange"):
            return PawnAction("toss", words[1])
        if (
            verb == "penalty"
            and len(words) == 2
            and words[1] in {str(k) for k in range(1, self.board.numbers.penalty_choices + 1)}
        ):
            return PawnAction("penalty", words[1])
        raise bad


def make_game(data: Mapping[str, Any]) -> PawnSoccer:
    """The Pawn Soccer game over the validated ``resources/games/pawn-soccer.toml``."""
    return PawnSoccer(data)
