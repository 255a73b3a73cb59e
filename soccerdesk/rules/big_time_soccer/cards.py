"""Big Time Soccer content: the action deck, the chart sheet, the defensive tables and the
card chits, read from ``resources/games/big-time-soccer.toml`` and validated once.

Bad data raises :class:`ContentError` naming the table and entry at fault.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from soccerdesk.rules.big_time_soccer.board import Board

DIE = 20
MOVE_KINDS = ("pass", "dribble", "any")
DEFENSE_KINDS = ("challenge", "intercept", "star")
CARD_KINDS = (*MOVE_KINDS, "shot", *DEFENSE_KINDS)
NEXT_TYPES = ("pass", "dribble", "any")
DEFENSE_RESULTS = ("foul-yellow", "foul", "failed", "success")
SHOT_RESULTS = (
    "offense-control",
    "corner",
    "offense-throw-in",
    "defense-control",
    "defense-throw-in",
    "defense-goal-kick",
    "goal",
)
ZONE_RESULTS = ("offense-control", "offense-throw-in", "defense-control", "defense-throw-in")


class ContentError(ValueError):
    """The game data file is wrong; the message says where."""


@dataclass(frozen=True, slots=True)
class Card:
    """One kind of card of the action deck (there may be several copies).

    ``next`` is the type the following card must be (Rulings 2: the small top icon);
    ``no_play_rows``/``no_play_zones`` are in the playing seat's own frame (row numbers 0..5
    and zone names).
    """

    index: int
    code: str
    name: str
    kind: str
    copies: int
    directions: tuple[tuple[int, int], ...] = ()
    distance: int = 0
    next: str | None = None
    defensible: bool = True
    outside_shot: bool = False
    inside: bool = False
    table: str | None = None
    no_play_rows: frozenset[int] = frozenset()
    no_play_zones: frozenset[str] = frozenset()

    @property
    def moves(self) -> bool:
        return self.kind in MOVE_KINDS

    @property
    def can_pass(self) -> bool:
        """A Pass card, or the Any card played as one."""
        return self.kind in ("pass", "any")

    def answers(self, action: str) -> bool:
        """Whether this defensive card may answer a ``pass``, ``dribble`` or ``hold``."""
        if self.kind == "star":
            return True
        if self.kind == "intercept":
            return action == "pass"
        if self.kind == "challenge":
            return action in ("dribble", "hold")
        return False


@dataclass(frozen=True, slots=True)
class ShotRow:
    result: str
    zone: str | None


@dataclass(frozen=True, slots=True)
class GoalKickRow:
    kicker: bool
    zone: str


@dataclass(frozen=True, slots=True)
class StoppageRow:
    minutes: int
    cards: int


@dataclass(frozen=True, slots=True)
class Content:
    """Every number of the game, validated. Charts are indexed by the d20 roll (index 0 unused)."""

    board: Board
    cards: tuple[Card, ...]
    hand_size: int
    hand_minimum: int
    max_reds: int
    clear_control: int
    free_kick_clear_control: int
    hold_control: int
    defense: Mapping[str, tuple[str, ...]]
    chits: tuple[int, ...]  # copies of chit number n at index n - 1
    outright_red_number: int
    outright_red_rolls: frozenset[int]
    shot_chart: tuple[ShotRow, ...]
    goal_from: Mapping[str, int]
    penalty_chart: tuple[ShotRow, ...]
    goal_kick_chart: tuple[GoalKickRow, ...]
    aimed_zones: tuple[str, ...]
    aimed_control: int
    throw_in_zones: tuple[str, ...]
    stoppage_chart: tuple[StoppageRow, ...]
    shootout_kicks: int

    @property
    def by_code(self) -> dict[str, Card]:
        return {card.code: card for card in self.cards}


def _need(table: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in table:
        raise ContentError(f"{where}: missing {key!r}")
    value = table[key]
    if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
        raise ContentError(f"{where}: {key!r} has the wrong type ({value!r})")
    return value


def _die_rows(rows: Any, where: str) -> list[tuple[int, Mapping[str, Any]]]:
    """Expand ``{rolls = [lo, hi], ...}`` rows to one entry per roll 1..20, checking coverage."""
    if not isinstance(rows, list) or not rows:
        raise ContentError(f"{where}: needs a non-empty list of rows")
    by_roll: dict[int, Mapping[str, Any]] = {}
    for i, row in enumerate(rows):
        rolls = row.get("rolls") if isinstance(row, Mapping) else None
        if not (
            isinstance(rolls, list)
            and len(rolls) == 2
            and all(isinstance(r, int) for r in rolls)
            and 1 <= rolls[0] <= rolls[1] <= DIE
        ):
            raise ContentError(f"{where}, row {i + 1}: 'rolls' must be [low, high] within 1-{DIE}")
        for roll in range(rolls[0], rolls[1] + 1):
            if roll in by_roll:
                raise ContentError(f"{where}: roll {roll} appears twice")
            by_roll[roll] = row
    missing = [r for r in range(1, DIE + 1) if r not in by_roll]
    if missing:
        raise ContentError(f"{where}: rolls {missing} have no result")
    return sorted(by_roll.items())


def _rows_of(names: Sequence[str], board: Board, where: str) -> frozenset[int]:
    out = set()
    for name in names:
        if name not in board.row_names:
            raise ContentError(f"{where}: no row {name!r}")
        out.add(board.row_names.index(name))
    return frozenset(out)


def _zone_name(board: Board, name: Any, where: str) -> str:
    if not isinstance(name, str) or name not in board.index[0]:
        raise ContentError(f"{where}: no zone {name!r}")
    return name


def _card(index: int, raw: Mapping[str, Any], board: Board) -> Card:
    where = f"cards[{index + 1}]"
    code = _need(raw, "code", str, where)
    where = f"card {code}"
    kind = _need(raw, "kind", str, where)
    if kind not in CARD_KINDS:
        raise ContentError(f"{where}: kind must be one of {', '.join(CARD_KINDS)}")
    copies = _need(raw, "copies", int, where)
    if copies < 1:
        raise ContentError(f"{where}: copies must be at least 1")
    fields: dict[str, Any] = {
        "index": index,
        "code": code,
        "name": _need(raw, "name", str, where),
        "kind": kind,
        "copies": copies,
        "no_play_rows": _rows_of(raw.get("no_play", []), board, where),
        "no_play_zones": frozenset(_zone_name(board, z, where) for z in raw.get("no_play_zones", [])),
    }
    if kind in MOVE_KINDS:
        dirs = _need(raw, "directions", list, where)
        for d in dirs:
            if d not in board.directions:
                raise ContentError(f"{where}: no direction {d!r}")
        fields["directions"] = tuple(board.directions[d] for d in dirs)
        fields["distance"] = _need(raw, "distance", int, where)
        if fields["distance"] not in (1, 2):
            raise ContentError(f"{where}: distance must be 1 or 2")
        fields["next"] = _need(raw, "next", str, where)
        if fields["next"] not in NEXT_TYPES:
            raise ContentError(f"{where}: next must be one of {', '.join(NEXT_TYPES)}")
        fields["defensible"] = bool(raw.get("defensible", True))
        fields["outside_shot"] = bool(raw.get("outside_shot", False))
    elif kind == "shot":
        fields["inside"] = bool(_need(raw, "inside", bool, where))
    else:
        fields["table"] = _need(raw, "table", str, where)
    return Card(**fields)


def _shot_chart(raw: Any, board: Board, where: str) -> tuple[ShotRow, ...]:
    out = [ShotRow("goal", None)]  # index 0 is never rolled
    for _roll, row in _die_rows(raw, where):
        result = row.get("result")
        if result not in SHOT_RESULTS:
            raise ContentError(f"{where}: unknown result {result!r}")
        zone = _zone_name(board, row.get("zone"), where) if result in ZONE_RESULTS else None
        out.append(ShotRow(result, zone))
    return tuple(out)


def load_content(data: Mapping[str, Any]) -> Content:
    """Validate the parsed TOML and build the game's frozen content."""
    try:
        return _load(data)
    except ContentError:
        raise
    except (KeyError, TypeError, ValueError) as exc:
        raise ContentError(f"big-time-soccer data: {exc}") from None


def _load(data: Mapping[str, Any]) -> Content:
    field = data["field"]
    directions = {name: (int(v[0]), int(v[1])) for name, v in data["directions"].items()}
    clear = data["clear"]
    board = Board(
        field["rows"],
        field["columns"],
        field["box"],
        field["kickoff"],
        directions,
        [(int(m[0]), int(m[1])) for m in clear["moves"]],
    )
    cards = tuple(_card(i, raw, board) for i, raw in enumerate(data["cards"]))
    codes = [c.code for c in cards]
    if len(set(codes)) != len(codes):
        raise ContentError("cards: two cards share a code")
    tables = {}
    for name, table in data["defense"].items():
        results = [""]
        for _roll, row in _die_rows(table["rows"], f"defense.{name}"):
            if row.get("result") not in DEFENSE_RESULTS:
                raise ContentError(f"defense.{name}: unknown result {row.get('result')!r}")
            results.append(row["result"])
        tables[name] = tuple(results)
    for card in cards:
        if card.table is not None and card.table not in tables:
            raise ContentError(f"card {card.code}: no defense table {card.table!r}")
    chit_numbers = [int(n) for n in data["chits"]["numbers"]]
    top = max(chit_numbers)
    charts = data["charts"]
    goal_kick = []
    for _roll, row in _die_rows(charts["goal_kick"]["rows"], "charts.goal_kick"):
        if row.get("team") not in ("kicker", "other"):
            raise ContentError("charts.goal_kick: team must be kicker or other")
        goal_kick.append(GoalKickRow(row["team"] == "kicker", _zone_name(board, row.get("zone"), "charts.goal_kick")))
    stoppage = [
        StoppageRow(int(row["minutes"]), int(row["cards"]))
        for _r, row in _die_rows(charts["stoppage"]["rows"], "charts.stoppage")
    ]
    goal_from = {k: int(v) for k, v in charts["shot"]["goal_from"].items()}
    for key in ("outside", "inside", "free_kick", "free_kick_a1c", "corner"):
        if not 1 <= goal_from.get(key, 0) <= DIE:
            raise ContentError(f"charts.shot.goal_from: {key!r} must be a roll 1-{DIE}")
    hand = data["hand"]
    red = data["chits"]
    return Content(
        board=board,
        cards=cards,
        hand_size=int(hand["size"]),
        hand_minimum=int(hand["minimum"]),
        max_reds=int(hand["max_reds"]),
        clear_control=int(clear["keep_in_play_control"]),
        free_kick_clear_control=int(clear["free_kick_control"]),
        hold_control=int(data["hold"]["keep_control"]),
        defense=tables,
        chits=tuple(chit_numbers.count(n) for n in range(1, top + 1)),
        outright_red_number=int(red["outright_red_number"]),
        outright_red_rolls=frozenset(range(int(red["outright_red_rolls"][0]), int(red["outright_red_rolls"][1]) + 1)),
        shot_chart=_shot_chart(charts["shot"]["rows"], board, "charts.shot"),
        goal_from=goal_from,
        penalty_chart=_shot_chart(charts["penalty"]["rows"], board, "charts.penalty"),
        goal_kick_chart=(GoalKickRow(True, board.names[0][0]), *goal_kick),
        aimed_zones=tuple(_zone_name(board, z, "charts.aimed_goal_kick") for z in charts["aimed_goal_kick"]["zones"]),
        aimed_control=int(charts["aimed_goal_kick"]["kicker_control"]),
        throw_in_zones=tuple(
            _zone_name(board, z, "charts.goal_kick_throw_in") for z in charts["goal_kick_throw_in"]["zones"]
        ),
        stoppage_chart=(StoppageRow(0, 0), *stoppage),
        shootout_kicks=int(data["shootout"]["kicks"]),
    )
