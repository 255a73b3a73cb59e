"""The Soccero field as data: squares, areas, straight lines, validated once at load.

Squares are numbered ``row * columns + column`` with column 0 = ``A`` and row 0 = row ``1``
(the goal line of the *low* end). Directions are the eight king directions, ``N`` being
towards row 32; a 45-degree turn is one step round :data:`DIRECTIONS`.
"""

from __future__ import annotations

import functools
import string
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

DIRECTIONS: tuple[tuple[str, int, int], ...] = (
    ("N", 0, 1),
    ("NE", 1, 1),
    ("E", 1, 0),
    ("SE", 1, -1),
    ("S", 0, -1),
    ("SW", -1, -1),
    ("W", -1, 0),
    ("NW", -1, 1),
)
"""(name, column step, row step); index order is clockwise, so index ±1 is a 45° turn."""

DIRECTION_INDEX = {name: i for i, (name, _, _) in enumerate(DIRECTIONS)}

LOW, HIGH = 0, 1
"""The two ends: LOW is behind row 1, HIGH behind the last row."""

# What lies past the edge of a straight line.
EXIT_TOUCHLINE = "touchline"
EXIT_BYLINE = "byline"
EXIT_GOAL = "goal"


MAX_TURNS_PER_HALF = 200
"""The most turns per manager per half a match may have (data file and option ``turns``)."""


class BoardDataError(ValueError):
    """The soccero.toml board data is inconsistent."""


@dataclass(frozen=True, slots=True)
class Exit:
    """Where a straight line leaves the field: the kind of line and which end (byline, goal)."""

    kind: str
    end: int  # LOW or HIGH for a byline or goal; -1 for a touchline


@dataclass(frozen=True, slots=True)
class Rules:
    """The numbers of soccero.toml that are not geometry."""

    kick_die: tuple[tuple[str, int], ...]
    distance_dice: tuple[int, ...]
    save_beside_basic: frozenset[int]
    save_ground_extended: frozenset[int]
    save_air_extended: frozenset[int]
    steal_foul: frozenset[int]
    penalty_area_field_players: int
    adjacent_in_line: int
    free_moves: int
    wall_players: int
    wall_distance: tuple[int, int]
    turns_per_half: int
    halves: int
    turn_timer_seconds: int


class Board:
    """Geometry of the field, computed once: every lookup the rules need is a table."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        try:
            b = data["board"]
            self.columns: int = int(b["columns"])
            self.rows: int = int(b["rows"])
        except (KeyError, TypeError, ValueError) as exc:
            raise BoardDataError(f"soccero.toml [board] is incomplete: {exc}") from None
        if not (3 <= self.columns <= 26 and 4 <= self.rows <= 99):
            raise BoardDataError("soccero.toml: the board must be 3..26 columns and 4..99 rows")
        self.size = self.columns * self.rows
        self.names = tuple(self._name(sq) for sq in range(self.size))
        self.index = {n: i for i, n in enumerate(self.names)}
        self.xs = tuple(sq % self.columns for sq in range(self.size))
        self.ys = tuple(sq // self.columns for sq in range(self.size))
        self.goal_columns = self._column_range(b["goal_columns"])
        self.halfway_after_row = int(b["halfway_after_row"])
        self.centre_column = self._column(b["centre_column"])
        if not 1 <= self.halfway_after_row < self.rows:
            raise BoardDataError("soccero.toml: halfway_after_row is off the board")
        areas = data["areas"]
        self.goal_area = (self._squares(areas["goal_area"]["low"]), self._squares(areas["goal_area"]["high"]))
        self.penalty_area = (self._squares(areas["penalty_area"]["low"]), self._squares(areas["penalty_area"]["high"]))
        self.penalty_spot = (self.square(areas["penalty_spot"]["low"]), self.square(areas["penalty_spot"]["high"]))
        self.penalty_arc = (self._squares(areas["penalty_arc"]["low"]), self._squares(areas["penalty_arc"]["high"]))
        self.centre_circle = self._squares(areas["centre_circle"])
        for end in (LOW, HIGH):
            if not self.goal_area[end] <= self.penalty_area[end]:
                raise BoardDataError("soccero.toml: a goal area must lie inside its penalty area")
        # Area of each square: which end's penalty / goal area it is in (-1: none).
        self.penalty_area_of = tuple(
            LOW if sq in self.penalty_area[LOW] else HIGH if sq in self.penalty_area[HIGH] else -1
            for sq in range(self.size)
        )
        self.goal_area_of = tuple(
            LOW if sq in self.goal_area[LOW] else HIGH if sq in self.goal_area[HIGH] else -1 for sq in range(self.size)
        )
        # rays[sq][d]: the squares met walking from sq in direction d, up to the edge.
        rays: list[tuple[tuple[int, ...], ...]] = []
        exits: list[tuple[Exit, ...]] = []
        for sq in range(self.size):
            per_dir = []
            per_exit = []
            for _, dx, dy in DIRECTIONS:
                x, y = self.xs[sq], self.ys[sq]
                line = []
                while True:
                    x, y = x + dx, y + dy
                    if not (0 <= x < self.columns and 0 <= y < self.rows):
                        break
                    line.append(y * self.columns + x)
                per_dir.append(tuple(line))
                per_exit.append(self._exit(x, y))
            rays.append(tuple(per_dir))
            exits.append(tuple(per_exit))
        self.rays: tuple[tuple[tuple[int, ...], ...], ...] = tuple(rays)
        # ray_bits[sq][d][k]: bit mask of the first k squares of rays[sq][d] (fast "any player there?").
        self.ray_bits = tuple(
            tuple(tuple(sum(1 << q for q in line[:k]) for k in range(len(line) + 1)) for line in per_dir)
            for per_dir in rays
        )
        # reach_bits[sq]: every square at most six (a die's top face) straight squares from sq.
        self.reach_bits = tuple(sum(bits[min(6, len(bits) - 1)] for bits in per_dir) for per_dir in self.ray_bits)
        self.exits: tuple[tuple[Exit, ...], ...] = tuple(exits)
        self.neighbours = tuple(tuple(r[0] for r in rays[sq] if r) for sq in range(self.size))
        # beside[sq]: the squares left and right of sq in its row (a goalkeeper's save squares).
        self.beside = tuple(
            frozenset(q for q in (sq - 1, sq + 1) if 0 <= q < self.size and self.ys[q] == self.ys[sq])
            for sq in range(self.size)
        )
        self.rules = self._rules(data)

    # --- names ---------------------------------------------------------------------

    def _name(self, sq: int) -> str:
        return string.ascii_uppercase[sq % self.columns] + str(sq // self.columns + 1)

    def square(self, name: str) -> int:
        """The square named like ``K16``. Unknown names raise BoardDataError."""
        try:
            return self.index[name.strip().upper()]
        except KeyError:
            raise BoardDataError(f"no square {name!r} on a {self.columns}x{self.rows} board") from None

    def _column(self, letter: str) -> int:
        col = string.ascii_uppercase.find(letter.strip().upper())
        if not 0 <= col < self.columns or len(letter.strip()) != 1:
            raise BoardDataError(f"no column {letter!r}")
        return col

    def _column_range(self, text: str) -> frozenset[int]:
        first, _, last = text.partition("-")
        a, b = self._column(first), self._column(last or first)
        return frozenset(range(min(a, b), max(a, b) + 1))

    def _squares(self, ranges: list[str]) -> frozenset[int]:
        """The squares of rectangles written ``"H1-N2"`` (or single squares ``"K4"``)."""
        found: set[int] = set()
        if not isinstance(ranges, list):
            raise BoardDataError(f"soccero.toml: expected a list of square ranges, got {ranges!r}")
        for text in ranges:
            first, _, last = str(text).partition("-")
            a, b = self.square(first), self.square(last or first)
            for y in range(min(self.ys[a], self.ys[b]), max(self.ys[a], self.ys[b]) + 1):
                for x in range(min(self.xs[a], self.xs[b]), max(self.xs[a], self.xs[b]) + 1):
                    found.add(y * self.columns + x)
        return frozenset(found)

    def _exit(self, x: int, y: int) -> Exit:
        if 0 <= y < self.rows:
            return Exit(EXIT_TOUCHLINE, -1)
        end = LOW if y < 0 else HIGH
        return Exit(EXIT_GOAL if x in self.goal_columns else EXIT_BYLINE, end)

    def _rules(self, data: Mapping[str, Any]) -> Rules:
        try:
            dice, res, sp, match = data["dice"], data["restrictions"], data["set_pieces"], data["match"]
            kick_die = tuple((str(k), int(v)) for k, v in dice["kick_die"].items())
            if sorted(k for k, _ in kick_die) != ["air", "curve", "direct"] or sum(v for _, v in kick_die) != 6:
                raise BoardDataError("soccero.toml: the kick die has direct, curve and air faces, six in all")
            rules = Rules(
                kick_die=kick_die,
                distance_dice=tuple(int(n) for n in dice["distance_dice"]),
                save_beside_basic=frozenset(int(n) for n in dice["save_beside_basic"]),
                save_ground_extended=frozenset(int(n) for n in dice["save_ground_extended"]),
                save_air_extended=frozenset(int(n) for n in dice["save_air_extended"]),
                steal_foul=frozenset(int(n) for n in dice["steal_foul"]),
                penalty_area_field_players=int(res["penalty_area_field_players"]),
                adjacent_in_line=int(res["adjacent_in_line"]),
                free_moves=int(sp["free_moves"]),
                wall_players=int(sp["wall_players"]),
                wall_distance=(int(sp["wall_distance"][0]), int(sp["wall_distance"][1])),
                turns_per_half=int(match["turns_per_half"]),
                halves=int(match["halves"]),
                turn_timer_seconds=int(match["turn_timer_seconds"]),
            )
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            if isinstance(exc, BoardDataError):
                raise
            raise BoardDataError(f"soccero.toml: missing or bad number: {exc}") from None
        for faces in (rules.save_beside_basic, rules.save_ground_extended, rules.save_air_extended, rules.steal_foul):
            if not faces <= set(range(1, 7)):
                raise BoardDataError("soccero.toml: die faces are 1..6")
        if not set(rules.distance_dice) <= {1, 2}:
            raise BoardDataError("soccero.toml: distance_dice are 1 and/or 2")
        if not 1 <= rules.turns_per_half <= MAX_TURNS_PER_HALF or rules.halves < 1:
            raise BoardDataError(
                f"soccero.toml: [match] needs turns_per_half 1..{MAX_TURNS_PER_HALF} and halves 1 or more"
            )
        if not 2 <= rules.adjacent_in_line <= 11:
            raise BoardDataError("soccero.toml: [restrictions] adjacent_in_line is 2..11 players")
        return rules

    # --- geometry --------------------------------------------------------------------

    def distance(self, a: int, b: int) -> int:
        """King-move distance (RULINGS Soccero: distances count king moves)."""
        return max(abs(self.xs[a] - self.xs[b]), abs(self.ys[a] - self.ys[b]))

    @functools.cached_property
    def distances(self) -> tuple[bytes, ...]:
        """``distances[a][b]`` is :meth:`distance` ``(a, b)``, as a table for hot loops
        (bots value hundreds of squares a decision); built on first use."""
        columns, rows = range(self.columns), range(self.rows)
        table = []
        for a in range(self.size):
            xa, ya = self.xs[a], self.ys[a]
            across = [abs(xa - x) for x in columns] * self.rows
            along = [abs(ya - y) for y in rows for _ in columns]
            table.append(bytes(map(max, across, along)))
        return tuple(table)

    def mirror(self, sq: int) -> int:
        """The same square seen from the other end (rows reversed)."""
        return (self.rows - 1 - self.ys[sq]) * self.columns + self.xs[sq]

    def half_of(self, sq: int) -> int:
        """LOW for rows up to the halfway line, HIGH beyond it."""
        return LOW if self.ys[sq] < self.halfway_after_row else HIGH

    def rows_from_goal_line(self, sq: int, end: int) -> int:
        """Rows between ``sq`` and the goal line of ``end`` (0 on the line's own row)."""
        return self.ys[sq] if end == LOW else self.rows - 1 - self.ys[sq]

    def goal_mouth(self, end: int) -> tuple[int, ...]:
        """The goal-line squares in front of the goal of ``end``."""
        row = 0 if end == LOW else self.rows - 1
        return tuple(row * self.columns + x for x in sorted(self.goal_columns))
