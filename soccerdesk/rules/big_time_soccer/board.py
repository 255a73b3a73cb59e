"""The Big Time Soccer field: 18 zones seen from both players' frames.

Zones are numbered once on an absolute grid (RULINGS, Big Time Soccer "Field"): the home
seat's frame, rows D1 D2 M1 M2 A1 A2 = 0..5 and columns L C R = 0..2, zone ``row * 3 + col``.
The away seat sees the same grid rotated half a turn (its D1 is row 5, its L column 2).
Everything a rule needs (names in each frame, steps, clear targets) is computed here once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

ROWS = 6
COLUMNS = 3
ZONES = ROWS * COLUMNS


def to_absolute(seat: int, row: int, col: int) -> int:
    """The absolute zone of ``(row, col)`` in ``seat``'s own frame (0-based)."""
    if seat == 1:
        row, col = ROWS - 1 - row, COLUMNS - 1 - col
    return row * COLUMNS + col


@dataclass(frozen=True, slots=True)
class ClearTarget:
    """Where one clear direction takes the ball from one zone, for one seat.

    ``zone`` is the absolute zone the ball lands in (in play), or for a ball that leaves the
    field the edge zone of the throw-in; ``goal_line`` is true when it goes over the
    opponent's goal line (a goal kick for him).
    """

    zone: int | None
    in_play: bool
    goal_line: bool


class Board:
    """Zone names, frames and precomputed geometry. Built once from the ``[field]`` data."""

    def __init__(
        self,
        row_names: Sequence[str],
        column_names: Sequence[str],
        box: str,
        kickoff: str,
        directions: Mapping[str, tuple[int, int]],
        clear_moves: Sequence[tuple[int, int]],
    ) -> None:
        if len(row_names) != ROWS or len(column_names) != COLUMNS:
            raise ValueError(f"the field must have {ROWS} rows and {COLUMNS} columns")
        self.row_names = tuple(row_names)
        self.column_names = tuple(column_names)
        # names[seat][zone] and index[seat][name]
        self.names: tuple[tuple[str, ...], tuple[str, ...]] = tuple(  # type: ignore[assignment]
            tuple(self._name(seat, z) for z in range(ZONES)) for seat in (0, 1)
        )
        self.index: tuple[dict[str, int], dict[str, int]] = tuple(  # type: ignore[assignment]
            {name: z for z, name in enumerate(self.names[seat])} for seat in (0, 1)
        )
        # own_row[seat][zone], own_col[seat][zone]: the zone in that seat's own frame.
        self.own_row = tuple(tuple(self._own(seat, z)[0] for z in range(ZONES)) for seat in (0, 1))
        self.own_col = tuple(tuple(self._own(seat, z)[1] for z in range(ZONES)) for seat in (0, 1))
        self.box = (self.zone(0, box), self.zone(1, box))
        self.kickoff = (self.zone(0, kickoff), self.zone(1, kickoff))
        self.directions = dict(directions)
        self.clear_moves = tuple(clear_moves)
        for dr, _dc in self.clear_moves:
            if dr < 0:
                raise ValueError("Rulings 4: clears never go backward")
        # clears[seat][zone]: the distinct outcomes of every clear direction.
        self.clears: tuple[tuple[tuple[ClearTarget, ...], ...], ...] = tuple(
            tuple(self._clear_targets(seat, z) for z in range(ZONES)) for seat in (0, 1)
        )

    def _own(self, seat: int, zone: int) -> tuple[int, int]:
        row, col = divmod(zone, COLUMNS)
        if seat == 1:
            row, col = ROWS - 1 - row, COLUMNS - 1 - col
        return row, col

    def _name(self, seat: int, zone: int) -> str:
        row, col = self._own(seat, zone)
        return self.row_names[row] + self.column_names[col]

    def zone(self, seat: int, name: str) -> int:
        """The absolute zone named ``name`` in ``seat``'s frame; unknown names raise ValueError."""
        try:
            return self.index[seat][name]
        except KeyError:
            raise ValueError(
                f"no zone {name!r} (zones are a row {'/'.join(self.row_names)} "
                f"and a column {'/'.join(self.column_names)}, e.g. M1C)"
            ) from None

    def step(self, seat: int, zone: int, dr: int, dc: int) -> int | None:
        """The zone ``dr`` rows ahead and ``dc`` columns right of ``zone`` for ``seat``, or None off the field."""
        row = self.own_row[seat][zone] + dr
        col = self.own_col[seat][zone] + dc
        if 0 <= row < ROWS and 0 <= col < COLUMNS:
            return to_absolute(seat, row, col)
        return None

    def _clear_targets(self, seat: int, zone: int) -> tuple[ClearTarget, ...]:
        row, col = self.own_row[seat][zone], self.own_col[seat][zone]
        out: list[ClearTarget] = []
        for dr, dc in self.clear_moves:
            r, c = row + dr, col + dc
            if 0 <= r < ROWS and 0 <= c < COLUMNS:
                target = ClearTarget(to_absolute(seat, r, c), True, False)
            elif r >= ROWS or row == ROWS - 1:
                # Rulebook: out of play from one of your A2 zones is a goal kick (over the goal line);
                # Rulings 5: so is a ball going past the opponent's goal line from A1.
                target = ClearTarget(None, False, True)
            else:
                # Rulings 5: the throw-in is at the edge zone where the ball crossed the touch line.
                target = ClearTarget(to_absolute(seat, r, min(max(c, 0), COLUMNS - 1)), False, False)
            if target not in out:
                out.append(target)
        return tuple(out)
