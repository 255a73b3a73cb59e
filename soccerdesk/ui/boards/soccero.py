"""The Soccero board: the 21 x 32 pitch with its markings, the 22 players, the ball (with
its red side up when its carrier may not carry it again), the movement points left and the
kick die.

Drawn only from ``view["state"]`` (format in :mod:`soccerdesk.rules.soccero`); the pitch
markings (areas, spots, arcs, centre circle) come from ``resources/games/soccero.toml``.
The viewer's own goal is at the bottom, so the picture turns round at half-time when the
teams change ends.

Clicks (every text of ``view["legal"]``):

* ``move A-B``: the player on A, then B; when the move can take the ball along
  (``move A-B ball C``), a third click says where the ball ends: B again to take it there,
  the ball's own square to leave it, or a square on the way to drop it there;
* ``path START LEGS``: the square where the ball ends (the goal itself for a shot that
  goes in); when two routes end there, then the square where the ball turns;
* ``place SQ``, ``pick SQ``, ``to SQ``: the square;
* ``defend 1`` / ``defend 32``: the goal to defend;
* ``head DIR`` / ``throw DIR``: an arrow around the ball;
* ``move``, ``kick D``, ``shoot D`` (``normal``), ``punt``, ``stop``, ``let``, ``header``,
  ``no-header``, ``done``: buttons.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt, QTimer
from PySide6.QtGui import QColor, QFont, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem

from soccerdesk.resources import load_game_data
from soccerdesk.ui.boards.base import BoardConfig
from soccerdesk.ui.boards.drawing import (
    DANGER,
    MUTED_TEXT,
    PANEL_TEXT,
    SMALLEST_ON_SCREEN,
    ClickBoard,
    Key,
    Painted,
    ball_outline,
    draw_ball,
    draw_die,
    draw_rimmed_text,
    draw_target_mark,
    draw_team_strip,
    draw_token,
    elided,
    fit_within,
    ink_extent,
    listed,
    piece_font,
    scene_points,
    scene_size,
    text_extent,
    ui_font,
)
from soccerdesk.ui.palette import GRASS_DARK, GRASS_LIGHT, LINE

GAME = "soccero"
SQ = 21.0
ORIGIN = QPointF(34.0, 34.0)
GOAL_DEPTH = SQ * 0.9  # how far a goal stands out behind its goal line
PANEL_W = 270.0
DISC = 0.36  # a player's radius, in squares, where the board is drawn big enough
DISC_MOST = 0.45  # ... and at the most, grown to hold his number while it is drawn small
NUMBER_ON_SCREEN = SMALLEST_ON_SCREEN  # the points on screen a player's number keeps
NARROWEST = 60  # how narrow (per cent of its width) a two-digit number may be drawn to fit
NUMBER_GAP_ON_SCREEN = 3.5  # the pixels at least between the numbers of two players side by side
LETTERS_BELOW_GOAL = 8.0  # the frame's extra depth under the bottom goal for the column letters
DIRECTIONS = {
    "N": (0, 1),
    "NE": (1, 1),
    "E": (1, 0),
    "SE": (1, -1),
    "S": (0, -1),
    "SW": (-1, -1),
    "W": (-1, 0),
    "NW": (-1, 1),
}
WORD_LABELS = {
    "move": "Move players",
    "punt": "Goalkeeper punt",
    "stop": "Stop the ball",
    "let": "Let it fly",
    "header": "Head it on",
    "no-header": "No header",
    "done": "Done",
}
PHASE_PROMPTS = {
    "ends": "Choose the goal you defend: click it.",
    "setup": (
        "Set-up: click a square for the player named above (or Tab, the arrow keys and Enter),"
        " or the button below: the Quick set-up option's places."
    ),
    "turn": "Your turn: move players, or kick (one or two distance dice).",
    "moving": "Move: click a player, then where he goes.",
    "kick-path": "Kick: click where the ball ends (then where it turns, if asked).",
    "block": "Choose the player who blocks the weak shot.",
    "fetch": "Choose the player who goes to the ball.",
    "air-stop": "The ball flies over your player: stop it or let it fly?",
    "header": "The ball reaches your player in the air: head it on?",
    "header-aim": "Head the ball: click an arrow.",
    "throw-aim": "Throw-in: click an arrow.",
    "sp-spot": "Choose the square the set piece is taken from.",
    "sp-taker": "Choose the player who takes the set piece.",
    "free": "Free moves: click a player, then his new square — or Done.",
    "wall": "Wall: click a player, then a wall square — or Done.",
    "wall-clear": "The wall took your player's square: click him, then a free square.",
    "sp-kick": "Set piece: choose the kick.",
}
CHOSEN_PROMPTS = {
    "free": "click the square he moves to.",
    "wall": "click his square in the wall.",
    "wall-clear": "click a free square for him.",
}
"""The prompt once the player to place is chosen (his pick is an action of its own)."""
SET_PIECE_KICKING = {
    False: (
        "Set-piece kicking rules: if the kick die shows a curve along the ground, the ball flies "
        "in the air instead and nobody can stop it before it has gone the whole distance"
    ),
    True: (
        "Normal kicking rules, as in open play: a curve along the ground stays on the ground "
        "and stops at the first player in its way"
    ),
}
"""Rulebook "Kicking the ball in special situations", for a set-piece kick's buttons (keyed by
"normal rules announced")."""
PLACE_REST: Key = ("place-rest",)
"""The set-up's own button: the rest of the team placed as the Quick set-up option places it."""
PLACE_REST_LABEL = "Place the rest for me (P)"
KICKOFF_PAIR = {
    11: "Player 11 takes the kick-off: he stands next to the centre mark.",
    10: (
        "Player 10 takes the kick-off pass, so he must stand beside player 11 (our ruling: the"
        ' rulebook\'s "may choose to be adjacent" is read as must).'
    ),
}
"""Why the kicking team's centre pair may stand on one square or two only, said as each is placed."""
SETPIECE_WORDS = {
    "penalty": "Penalty kick",
    "corner": "Corner kick",
    "goal-kick": "Goal kick",
    "throw-in": "Throw-in",
    "free-kick": "Free kick",
    "punt": "Goalkeeper's punt",
}


def parse_square(name: str) -> tuple[int, int]:
    """``"K16"`` -> (column index from 0, row from 1)."""
    return ord(name[0]) - ord("A"), int(name[1:])


def square_name(col: int, row: int) -> str:
    return f"{chr(ord('A') + col)}{row}"


def expand(ranges: Iterable[str]) -> list[str]:
    """``["H1-N2"]`` -> every square of those rectangles (single squares pass through)."""
    out = []
    for text in ranges:
        a, _, b = text.partition("-")
        (c1, r1), (c2, r2) = parse_square(a), parse_square(b or a)
        for row in range(min(r1, r2), max(r1, r2) + 1):
            for col in range(min(c1, c2), max(c1, c2) + 1):
                out.append(square_name(col, row))
    return out


def route(text: str, columns: int, rows: int) -> tuple[str, str | None, str, list[str]]:
    """A ``path`` action -> (end square on the board, bend square or None, finish, squares on the way)."""
    words = text.split()
    col, row = parse_square(words[1])
    finish = words[-1] if words[-1] in ("out", "goal") else ""
    legs = words[2:-1] if finish else words[2:]
    bend = None
    squares = []
    for index, leg in enumerate(legs):
        name = leg.rstrip("0123456789")
        dc, dr = DIRECTIONS[name]
        for _ in range(int(leg[len(name) :])):
            if 0 <= col + dc < columns and 1 <= row + dr <= rows:
                col, row = col + dc, row + dr
                squares.append(square_name(col, row))
            else:
                break  # the rest flies over the line: the ball is shown on the edge square
        if index == 0 and len(legs) > 1:
            bend = square_name(col, row)
    return square_name(col, row), bend, finish, squares


SAMPLE_SELECTIONS: tuple[tuple[Key, ...], ...] = ((("sq", "M28"),), (("sq", "M28"), ("sq", "M30")))
"""Selections of a move being built, with the longest square names: the prompt's room is kept
for what the board says at each."""


def turns_done(state: dict[str, Any]) -> int:
    """The turns the side to move has played this half (``turn`` is that side in Soccero's
    view): its own count, as a set piece can give a side two turns in a row."""
    each, side = state.get("turns_each"), state.get("turn")
    return each[side] if isinstance(each, list) and side in (0, 1) else 0


def points_left(points: int, *, movement: bool = False) -> str:
    """ "1 point left", "3 movement points left"."""
    kind = "movement point" if movement else "point"
    return f"{points} {kind}{'' if points == 1 else 's'} left"


TRAILS_END = frozenset({"toss", "ends", "setup", "kickoff", "goal", "half-time", "set-piece"})
"""Events after which no earlier move is news: a new half, a goal's kick-off, a set piece
whose players are put in their places (trails drawn there would lead from squares nobody
left)."""
NO_TRAILS = frozenset({"toss", "ends", "setup"})
"""Phases whose board shows no trails at all (a match resumed in its set-up)."""


@dataclass(frozen=True)
class Trail:
    """One line of a side's last turn: a player's move (from, to), or the ball's route
    (``ball``: a kick's or header's squares, a carry, a throw)."""

    side: int
    squares: tuple[str, ...]
    ball: bool = False


def follow_turns(
    trails: list[Trail], ball: str | None, events: list[dict[str, Any]], seats: list[int]
) -> tuple[list[Trail], str | None]:
    """``trails`` (the last side's moves so far) and ``ball`` (the ball's square before
    ``events``) carried on through ``events``; ``seats``: each player's side, by index.

    A side's moves stay until the other side moves, or until the same side's next movement
    roll (two turns in a row); a new half, a goal's kick-off or a set piece ends them all."""
    trails = list(trails)
    for event in events:
        kind, data = event.get("kind"), event.get("data") or {}
        player = data.get("player")
        side = seats[player] if isinstance(player, int) and 0 <= player < len(seats) else None
        if kind in TRAILS_END:
            trails, ball = [], data.get("square") if kind == "kickoff" else None
            continue
        if kind == "roll" and trails and data.get("seat") == trails[-1].side:
            trails = []  # the side whose moves are drawn begins a new turn
            continue
        if side is None:
            if kind in ("ball", "out") and data.get("square"):
                ball = data["square"]
            continue
        if trails and trails[-1].side != side and kind in ("move", "kick", "header", "throw-in"):
            trails = []
        if kind == "move":
            trails.append(Trail(side, (data["from"], data["to"])))
            if ball and data.get("ball") and data["ball"] != ball:
                trails.append(Trail(side, (ball, data["ball"]), ball=True))  # carried, or picked up and left
            ball = data.get("ball") or ball
        elif kind in ("kick", "header") and data.get("path"):
            if ball:
                trails.append(Trail(side, (ball, *data["path"]), ball=True))
            ball = data["path"][-1]
        elif kind == "throw-in" and data.get("to"):
            if ball:
                trails.append(Trail(side, (ball, data["to"]), ball=True))
            ball = data["to"]
        elif kind in ("fetch", "taker") and data.get("square"):
            ball = data["square"]
    return trails, ball


@dataclass(frozen=True)
class WrittenNumber:
    """A player's number as his piece writes it with its rim, where it is on the board."""

    centre: QPointF  # in the scene
    text: str
    font: QFont
    ink: QColor
    rim: QColor  # the piece's colour
    opacity: float  # a player who has moved is drawn faded


class Board(ClickBoard):
    """Soccero board scene (see the module docstring for the click paths)."""

    side_panel_width = PANEL_W + 20  # with the room right of it
    own_buttons = frozenset({PLACE_REST})

    def __init__(self, config: BoardConfig, parent: Any = None) -> None:
        super().__init__(config, parent)
        data = load_game_data(GAME)
        self.columns = int(data["board"]["columns"])
        self.rows = int(data["board"]["rows"])
        self.areas = data["areas"]
        self.halfway = int(data["board"]["halfway_after_row"])
        self.centre_column = parse_square(data["board"]["centre_column"] + "1")[0]
        goal_a, _, goal_b = data["board"]["goal_columns"].partition("-")
        self.goal_columns = (parse_square(goal_a + "1")[0], parse_square(goal_b + "1")[0])
        self.flip = False
        self.routes: dict[str, list[str]] = {}
        self._notes: dict[str, list[str]] = {}
        self.panel_x = ORIGIN.x() + self.columns * SQ + 34
        self.column_labels: list[QGraphicsItem] = []  # the letters A, B... under the pitch
        self.panel_origin = QPointF(self.panel_x, ORIGIN.y() - 20)
        self.panel_height = self.rows * SQ + 40
        self.setSceneRect(QRectF(0, 0, self.panel_x + 290, ORIGIN.y() * 2 + self.rows * SQ + LETTERS_BELOW_GOAL))
        self._placing_rest = False  # the set-up's button was pressed: each view places the next player
        self._rest_placed_at = -1  # the ply of the view whose player it placed last
        self._placing_ply = -1  # the ply of the last view shown
        self.trails: list[Trail] = []  # the last side's moves and ball routes (follow_turns)
        self._trails_ball: str | None = None  # the ball's square in the view they were worked out for

    follows_turns = True

    def follow_turn(self, view: dict[str, Any], events: list[dict[str, Any]]) -> None:
        # The other side's turn is drawn (QA s28, first minutes 1: its players jumped and its
        # kicks left no trace but the log).
        state = view.get("state") or {}
        seats = [player["seat"] for player in state.get("players") or []]
        self.trails, _ = follow_turns(self.trails, self._trails_ball, events, seats)
        self._trails_ball = state.get("ball")

    def forget_turns(self) -> None:
        self.trails, self._trails_ball = [], None

    def set_view(self, view: dict[str, Any], events: list[dict[str, Any]] | None = None) -> None:
        ply = int(view.get("ply", 0))
        if self._placing_rest and ply < self._placing_ply:
            self._placing_rest = False  # an Undo: the player takes the set-up back in hand
        self._placing_ply = ply
        super().set_view(view, events)
        if self._placing_rest:
            if self.may_place_rest():
                QTimer.singleShot(0, self, self._place_next)  # once this view is shown
            else:
                self._placing_rest = False

    # --- placing the rest of the team --------------------------------------------------

    def may_place_rest(self) -> bool:
        """The view is a set-up decision of the viewer's own team (its button is drawn)."""
        view = self.view_data or {}
        state = view.get("state") or {}
        placing = state.get("placing")
        return (
            state.get("phase") == "setup"
            and placing is not None
            and state["players"][placing]["seat"] == view.get("seat")
            and any(text.startswith("place ") for text in view.get("legal", ()))
        )

    def quick_place(self, view: dict[str, Any]) -> str:
        """The ``place`` action for the player to place: his square in the Quick set-up's
        formation (the view's ``formation_square``), or the legal square nearest to it where a
        player placed by hand stands in the way."""
        col, row = parse_square(view["state"]["formation_square"])
        free = [text.split()[1] for text in view["legal"] if text.startswith("place ")]

        def distance(name: str) -> tuple[int, str]:
            c, r = parse_square(name)
            return max(abs(c - col), abs(r - row)), name

        return f"place {min(free, key=distance)}"

    def place_rest(self) -> None:
        """Place the rest of the viewer's team as the Quick set-up option would, one legal
        ``place`` action after another (QA s28, first minutes 2: eleven clicks on small
        squares, the option only on the home screen). Undo, the record and online play see
        the same actions as from clicks."""
        if not self.may_place_rest():
            self.hint.emit("Only while your team is being set up.")
            return
        self._placing_rest = True
        self._place_next()

    def _place_next(self) -> None:
        view = self.view_data
        if not self._placing_rest or view is None or not self.may_place_rest():
            self._placing_rest = False
            return
        if view.get("ply") == self._rest_placed_at:
            return  # this position's player is placed already: his view is on its way
        self._rest_placed_at = view.get("ply", -1)
        self.choose(self.quick_place(view))

    def click(self, key: Key) -> None:
        if key == PLACE_REST:
            self.place_rest()
            return
        super().click(key)

    def show_refusal(self, reason: str) -> None:
        self._placing_rest = False
        super().show_refusal(reason)

    def keyPressEvent(self, event: Any) -> None:  # noqa: N802 (Qt API)
        if event.key() == Qt.Key.Key_P and not event.modifiers() and self.may_place_rest():
            self.place_rest()
            event.accept()
            return
        super().keyPressEvent(event)

    def shown_under_animation(self, view: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any] | None:
        """The position before the movement roll that ends ``events``: the players where the
        last turn left them, the dice still to roll (QA s28, first minutes 1: the next roll
        played over the pitch as it was before the turn's last moves)."""
        kinds = [str(event.get("kind")) for event in events]
        rolls = [i for i, event in enumerate(events) if kinds[i] == "roll" and "seat" in (event.get("data") or {})]
        state = view.get("state") or {}
        if not rolls or rolls[-1] == 0 or state.get("phase") != "moving":
            return None
        if any(kind != "short-move" for kind in kinds[rolls[-1] + 1 :]):
            return None  # the roll moved players on (a foul's free kick): no such position to show
        return {**view, "legal": [], "state": {**state, "phase": "roll", "deciding": None, "points": 0}}

    @property
    def me(self) -> int:
        return 0 if self.config.perspective is None else self.config.perspective

    # --- geometry ----------------------------------------------------------------------

    def square_rect(self, name: str) -> QRectF:
        col, row = parse_square(name)
        if self.flip:
            dc, dr = self.columns - 1 - col, row - 1
        else:
            dc, dr = col, self.rows - row
        return QRectF(ORIGIN.x() + dc * SQ, ORIGIN.y() + dr * SQ, SQ, SQ)

    def goal_rect(self, row: int) -> QRectF:
        """The goal behind goal line ``row`` (1 or the last row)."""
        first, last = self.goal_columns
        a, b = self.square_rect(square_name(first, row)), self.square_rect(square_name(last, row))
        box = a.united(b)
        at_top = box.top() <= ORIGIN.y() + 1
        depth = GOAL_DEPTH
        return QRectF(box.x(), box.top() - depth if at_top else box.bottom(), box.width(), depth)

    def screen_step(self, name: str) -> tuple[int, int]:
        """Compass direction ``name`` as a step on screen (x right, y down): the pitch is drawn
        turned for one of the players."""
        dc, dr = DIRECTIONS[name]
        return (-dc, dr) if self.flip else (dc, -dr)

    def screen_direction(self, name: str) -> str:
        """Compass direction ``name`` in the words of the screen: "up", "down and to the left"."""
        sx, sy = self.screen_step(name)
        vertical = {-1: "up", 1: "down"}.get(sy, "")
        horizontal = {-1: "left", 1: "right"}.get(sx, "")
        if vertical and horizontal:
            return f"{vertical} and to the {horizontal}"
        return vertical or f"to the {horizontal}"

    # --- click paths ---------------------------------------------------------------------

    def click_paths(self, view: dict[str, Any]) -> dict[str, tuple[Key, ...]]:
        state = view["state"]
        defends = state.get("defends")
        self.flip = bool(defends) and defends[self.me] == self.rows
        paths: dict[str, tuple[Key, ...]] = {}
        routes: dict[tuple[Key, ...], list[tuple[str, str | None]]] = {}
        self.routes = {}
        ball_moves: dict[str, int] = {}
        for text in view["legal"]:
            if text.startswith("move ") and " ball " in text:
                ball_moves[text.split()[1]] = ball_moves.get(text.split()[1], 0) + 1
        for text in view["legal"]:
            words = text.split()
            verb = words[0]
            if verb == "move" and len(words) > 1:
                a, _, b = words[1].partition("-")
                if len(words) == 4:
                    paths[text] = (("sq", a), ("sq", b), ("sq", words[3]))
                elif words[1] in ball_moves:
                    # Not taking the ball along: a click on the ball's own square leaves it there.
                    paths[text] = (("sq", a), ("sq", b), ("sq", state["ball"]))
                else:
                    paths[text] = (("sq", a), ("sq", b))
            elif verb == "path":
                end, bend, finish, squares = route(text, self.columns, self.rows)
                self.routes[text] = [words[1], *squares]
                first: Key = ("end", self._goal_row_of(end)) if finish == "goal" else ("sq", end)
                routes.setdefault((first,), []).append((text, bend))
            elif verb in ("place", "pick", "to"):
                paths[text] = (("sq", words[1]),)
            elif verb == "defend":
                paths[text] = (("end", int(words[1])),)
            elif verb in ("head", "throw"):
                paths[text] = (("dir", words[1]),)
        for first, options in routes.items():
            if len(options) == 1:
                paths[options[0][0]] = first
            else:
                for text, bend in options:
                    paths[text] = first + (("sq", bend),) if bend else first
        return paths

    def _goal_row_of(self, square: str) -> int:
        row = parse_square(square)[1]
        return 1 if row <= self.rows // 2 else self.rows

    def action_label(self, text: str) -> str:
        if text in WORD_LABELS:
            return WORD_LABELS[text]
        words = text.split()
        if words[0] in ("kick", "shoot"):
            label = f"{'Shoot' if words[0] == 'shoot' else 'Kick'} · {words[1]} {'die' if words[1] == '1' else 'dice'}"
            # Not "(normal)": a computer opponent's name ends so ("Away (normal)").
            return label + (", normal rules" if len(words) > 2 else "")
        if words[0] == "move" and len(words) == 4:
            return f"Ball to {words[3]}"
        if words[0] == "move":
            return "Leave the ball"
        if words[0] == "path":
            _, bend, finish, _ = route(text, self.columns, self.rows)
            label = f"Via {bend}" if bend else "Straight"
            return label + {"out": " (over the line)", "goal": " (in goal)"}.get(finish, "")
        return text

    def action_tooltip(self, action_text: str) -> str:
        words = action_text.split()
        tip = self.describe(action_text)
        state = (self.view_data or {}).get("state") or {}
        if words[0] in ("kick", "shoot") and state.get("phase") == "sp-kick":
            tip += f". {SET_PIECE_KICKING[len(words) > 2]}"
        if words[0] != "shoot" or len(words) < 2 or not words[1].isdigit() or not state.get("ball"):
            return tip
        # A shot the dice cannot carry to the goal is legal (it falls short, a weak shot), but
        # a player should know before choosing it.
        column, row = parse_square(state["ball"])
        seat = (self.view_data or {}).get("seat")
        defends = state.get("defends") or [1, self.rows]
        goal_row = defends[1 - seat] if seat in (0, 1) else self.rows
        # The ball must go one square past the goal-line row to be in the goal: from 12 rows
        # out, two dice (12 at most) stop on the line (QA pass 17: this said "within reach").
        needed = abs(goal_row - row) + 1
        reach = 6 * int(words[1])
        if reach < needed:
            dice = "1 die carries" if words[1] == "1" else f"{words[1]} dice carry"
            return f"{tip}. Out of reach: the goal is {needed} squares away, {dice} the ball at most {reach}."
        return f"{tip}. The goal is {needed} squares away, within the dice's reach (at most {reach})."

    def _holder_square(self) -> str | None:
        """The square of the player who has the ball in the position shown (the ball's square), if anyone has it."""
        state = (self.view_data or {}).get("state") or {}
        return state.get("ball") if state.get("holder") is not None else None

    def describe(self, action_text: str) -> str:
        words = action_text.split()
        verb = words[0]
        if action_text in WORD_LABELS:
            return WORD_LABELS[action_text]
        if verb in ("kick", "shoot") and len(words) > 1:
            dice = f"{words[1]} distance {'die' if words[1] == '1' else 'dice'}"
            normal = " (normal kicking rules)" if len(words) > 2 else ""
            return f"{'Shoot' if verb == 'shoot' else 'Kick'} with {dice}{normal}"
        if verb == "move" and len(words) > 1:
            start, _, end = words[1].partition("-")
            text = f"Move the player on {start} to {end}"
            if len(words) == 4:
                return f"{text}, the ball to {words[3]}"
            return text + (", leaving the ball" if start == self._holder_square() else "")
        if verb == "path":
            end, bend, finish, _ = route(action_text, self.columns, self.rows)
            text = f"Ball from {words[1]}" + (f" via {bend}" if bend else "")
            return text + {"out": f" over the line at {end}", "goal": " into the goal"}.get(finish, f" to {end}")
        square_verbs = {
            "defend": "Defend the goal line of row {}",
            "place": "Place the next player on {}",
            "pick": "Choose the player on {}",
            "to": "Send the chosen player to {}",
        }
        if verb in ("head", "throw") and len(words) == 2 and words[1] in DIRECTIONS:
            return f"{'Head' if verb == 'head' else 'Throw'} the ball {self.screen_direction(words[1])}"
        if verb in square_verbs and len(words) == 2:
            return square_verbs[verb].format(words[1])
        return super().describe(action_text)

    def key_words(self, key: Key) -> str:
        if key[0] == "sq":
            player = self.piece_at("players", key[1])
            if player is not None and player["seat"] == (self.view_data or {}).get("seat"):
                return f"your player on {key[1]}"
        return super().key_words(key)

    # --- hints -------------------------------------------------------------------------

    def selection_hint(self, selection: tuple[Key, ...]) -> str:
        if not selection or self.view_data is None:
            return ""
        phase = self.view_data["state"]["phase"]
        if phase == "moving" and len(selection) == 1:
            return f"Player on {selection[0][1]}: click a highlighted square ({points_left(self.view_data['state']['points'])})."
        if phase == "moving" and len(selection) == 2:
            ball = self.view_data["state"]["ball"]
            return f"Where does the ball end? Click {selection[1][1]} again to take it there, {ball} to leave it, or a square on the way."
        if phase == "kick-path":
            return "Two routes end there: click the square where the ball turns."
        return ""

    def refusal_hint(self, selection: tuple[Key, ...], key: Key) -> str:
        view = self.view_data
        if not view or not view["legal"]:
            return (
                "It is not your turn." if view and view["state"].get("deciding") is not None else "Wait for the dice."
            )
        state = view["state"]
        phase = state["phase"]
        seat = view["seat"]
        if phase == "moving" and key[0] == "sq":
            player = self.piece_at("players", key[1])
            if not selection:
                if player is None:
                    return "Click one of your players first."
                if player["seat"] != seat:
                    return "That is an opponent; click one of your players."
                if player["moved"]:
                    return "That player has already moved this turn."
                if state.get("forced") is not None and state["players"][state["forced"]]["square"] != key[1]:
                    return "First the player who lost the ball must leave its square."
                return "That player can't move now (blocked in, or the formation rules forbid it)."
            start = selection[0][1]
            (ac, ar), (bc, br) = parse_square(start), parse_square(key[1])
            dc, dr = bc - ac, br - ar
            if dc and dr and abs(dc) != abs(dr):
                return "Players move in a straight line: along a row, a column or a diagonal."
            if max(abs(dc), abs(dr)) > state["points"]:
                return f"Only {points_left(state['points'], movement=True)}."
            if player is not None and player["seat"] == seat:
                return "A square may hold only one player."
            if player is not None:
                return "You can only move onto an opponent with the exact number, to steal the ball from him."
            return "The way is blocked, or the move would break the position rules (penalty area, four in a line)."
        if phase == "kick-path":
            kick = state.get("kick") or {}
            return f"The ball travels exactly {kick.get('total', '?')} squares, unless a player stops it; curves turn once by 45°."
        if phase in ("header-aim", "throw-aim"):
            return "Click one of the arrows around the ball."
        if phase == "free" and (state.get("setpiece") or {}).get("must_move"):
            return self._must_move(state)
        if phase in ("setup", "free", "wall", "wall-clear", "sp-taker", "sp-spot", "block", "fetch"):
            return PHASE_PROMPTS[phase]
        return "Use the buttons in the panel now."

    # --- drawing -----------------------------------------------------------------------

    def static_signature(self, view: dict[str, Any]) -> Any:
        defends = view["state"].get("defends")
        return bool(defends) and defends[self.me] == self.rows

    def draw_static(self, view: dict[str, Any]) -> None:
        self.flip = bool(self.static_signature(view))
        self._draw_pitch()
        self._draw_squares()
        self._draw_goals()

    def _draw_legend(self, bottom: float, room: float) -> None:
        """The key standing on ``bottom``, the panel's foot, in ``room`` under the panel's
        content (:meth:`key_place`)."""
        colours = self.config.colours

        def teams(p: QPainter, r: QRectF) -> None:
            h = r.height()
            draw_token(p, QPointF(r.x() + h * 0.3, r.center().y()), h * 0.28, colours.of(0))
            draw_token(p, QPointF(r.x() + h * 0.75, r.center().y()), h * 0.28, colours.of(1), square=True)

        def keeper(p: QPainter, r: QRectF) -> None:
            radius = r.height() * 0.3
            draw_token(p, r.center(), radius, colours.of(self.me).lighter(135), "1", colours.text_on(self.me))
            p.setPen(QPen(colours.text_on(self.me), 1))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawEllipse(r.center(), radius * 1.15, radius * 1.15)

        def moved(p: QPainter, r: QRectF) -> None:
            p.setOpacity(0.55)
            draw_token(p, r.center(), r.height() * 0.32, colours.of(self.me))

        def red_ball(p: QPainter, r: QRectF) -> None:
            draw_ball(p, r.center(), r.height() * 0.32, red_side=True)

        def warning(p: QPainter, r: QRectF) -> None:
            draw_token(p, r.center(), r.height() * 0.28, colours.of(self.me))
            p.setPen(QPen(DANGER, 1.6, Qt.PenStyle.DotLine))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawEllipse(r.center(), r.height() * 0.42, r.height() * 0.42)

        def target(p: QPainter, r: QRectF) -> None:
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(GRASS_DARK)
            p.drawRect(r)
            draw_target_mark(p, r)

        def trail(p: QPainter, r: QRectF) -> None:
            for y, style in ((0.3, Qt.PenStyle.DashLine), (0.7, Qt.PenStyle.SolidLine)):
                pen = QPen(QColor(255, 255, 255, 170), 1.6, style)
                p.setPen(pen)
                p.drawLine(
                    QPointF(r.left() + 1, r.top() + y * r.height()), QPointF(r.right() - 1, r.top() + y * r.height())
                )

        entries = [
            (target, "a legal click now (white: chosen)", "legal click"),
            (
                trail,
                "their last turn: dashed, a player's move from his ring; solid, the ball's way",
                "their last turn",
            ),
            (teams, "discs and squares: the two teams", "the two teams"),
            (keeper, "goalkeeper (number 1, ringed)", "goalkeeper"),
            (moved, "faded: has moved this turn", "has moved"),
            (red_ball, "red side up: may not be carried on", "no carrying on"),
            (warning, "must leave the ball / not touch it yet", "leave the ball"),
        ]
        self.add_legend(QPointF(self.panel_x + 12, bottom), PANEL_W - 24, entries, room)

    def draw(self, view: dict[str, Any], events: list[dict[str, Any]]) -> None:
        state = view["state"]
        self._draw_trails(view)
        self._draw_flight(state)
        self._draw_chosen(state)
        self._draw_ball(state, self._draw_players(state))
        self._draw_arrows(state)
        with self.zoomed_panel(self.panel_origin):
            self._draw_panel(view)

    def _area(self, name: str, end: str) -> QRectF:
        rect = QRectF()
        for sq in expand(self.areas[name][end]):
            r = self.square_rect(sq)
            rect = r if rect.isNull() else rect.united(r)
        return rect

    def _draw_pitch(self) -> None:
        field = QRectF(ORIGIN.x(), ORIGIN.y(), self.columns * SQ, self.rows * SQ)
        boxes = [self._area(kind, end) for kind in ("penalty_area", "goal_area") for end in ("low", "high")]
        spots = [self.square_rect(self.areas["penalty_spot"][end]).center() for end in ("low", "high")]
        arcs = [
            (self.square_rect(self.areas["penalty_spot"][end]).center(), self._area("penalty_area", end))
            for end in ("low", "high")
        ]
        halfway_y = (
            self.square_rect(square_name(0, self.halfway)).top()
            if not self.flip
            else self.square_rect(square_name(0, self.halfway)).bottom()
        )
        centre = QPointF(self.square_rect(square_name(self.centre_column, self.halfway)).center().x(), halfway_y)
        # Deeper below: the column letters sit under the bottom goal, not behind it.
        frame = field.adjusted(-16, -26, 16, 26 + LETTERS_BELOW_GOAL)

        def paint(p: QPainter, r: QRectF) -> None:
            off = -frame.topLeft()
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QColor("#22302a"))
            p.drawRoundedRect(r, 12, 12)
            stripes = 8
            for i in range(stripes):
                p.setBrush(GRASS_LIGHT if i % 2 else GRASS_DARK)
                h = field.height() / stripes
                p.drawRect(QRectF(field.x(), field.y() + i * h, field.width(), h).translated(off))
            p.setPen(QPen(QColor(0, 0, 0, 28), 0.6))
            for c in range(1, self.columns):
                x = field.x() + c * SQ + off.x()
                p.drawLine(QPointF(x, field.top() + off.y()), QPointF(x, field.bottom() + off.y()))
            for rr in range(1, self.rows):
                y = field.y() + rr * SQ + off.y()
                p.drawLine(QPointF(field.left() + off.x(), y), QPointF(field.right() + off.x(), y))
            line = QPen(LINE, 2)
            p.setPen(line)
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRect(field.translated(off))
            p.drawLine(QPointF(field.left(), halfway_y) + off, QPointF(field.right(), halfway_y) + off)
            p.drawEllipse(centre + off, SQ * 3, SQ * 3)
            for box in boxes:
                p.drawRect(box.translated(off))
            for spot, area in arcs:
                # The arc: the part of a circle round the spot that lies outside the penalty area.
                circle = QPainterPath()
                circle.addEllipse(spot + off, SQ * 3.2, SQ * 3.2)
                outside = QPainterPath()
                outside.addRect(QRectF(field.translated(off)))
                inside = QPainterPath()
                inside.addRect(area.translated(off))
                p.drawPath(circle.intersected(outside.subtracted(inside)))
            p.setBrush(LINE)
            for spot in [*spots, centre]:
                p.drawEllipse(spot + off, 2.4, 2.4)

        item: QGraphicsItem = Painted(frame, paint)
        item.setZValue(-10)
        # The pitch never changes within a half: painted once per zoom, then copied.
        item.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.addItem(item)
        self.column_labels = []
        # Bigger on a small screen, to stay readable (no smaller than SMALLEST_ON_SCREEN).
        size = self.label_size(6.5)
        for col in range(self.columns):
            rect = self.square_rect(square_name(col, 1))
            label = chr(ord("A") + col)
            item = self.add_text(
                QPointF(rect.x() - 2, ORIGIN.y() + self.rows * SQ + GOAL_DEPTH + 1),
                label,
                size,
                MUTED_TEXT,
                width=SQ + 4,
                align=Qt.AlignmentFlag.AlignHCenter,
            )
            self.column_labels.append(item)
        extent = text_extent(str(self.rows), size)
        number_w = max(18.0, extent.width() + 4)
        for row in range(1, self.rows + 1, 1):
            rect = self.square_rect(square_name(0, row))
            self.add_text(
                QPointF(ORIGIN.x() - 16 - number_w, rect.center().y() - extent.height() / 2 - 1),
                str(row),
                size,
                MUTED_TEXT,
                width=number_w,
                align=Qt.AlignmentFlag.AlignRight,
            )

    def _square_notes(self) -> dict[str, list[str]]:
        notes: dict[str, list[str]] = {}
        for end in ("low", "high"):
            for sq in expand(self.areas["penalty_area"][end]):
                notes.setdefault(sq, []).append("Penalty area: at most 3 field players of a team, plus the goalkeeper.")
            for sq in expand(self.areas["goal_area"][end]):
                notes.setdefault(sq, []).append("Goal area: only the goalkeeper may stand here.")
            notes.setdefault(self.areas["penalty_spot"][end], []).append("Penalty spot.")
            for sq in expand(self.areas["penalty_arc"][end]):
                notes.setdefault(sq, []).append("Penalty arc: kept clear during a penalty kick.")
        for sq in expand(self.areas["centre_circle"]):
            notes.setdefault(sq, []).append("Centre circle: closed to the team without the ball at kick-off.")
        return notes

    def _draw_squares(self) -> None:
        # 672 squares: no item each (building and indexing them cost more than the whole
        # rest of a view); they are found by geometry and one layer paints the marked ones.
        self._notes = self._square_notes()
        self.add_marks_layer(QRectF(ORIGIN.x(), ORIGIN.y(), self.columns * SQ, self.rows * SQ))

    def grid_key_at(self, pos: QPointF) -> Key | None:
        dc, dr = math.floor((pos.x() - ORIGIN.x()) / SQ), math.floor((pos.y() - ORIGIN.y()) / SQ)
        if not (0 <= dc < self.columns and 0 <= dr < self.rows):
            return None
        col, row = (self.columns - 1 - dc, dr + 1) if self.flip else (dc, self.rows - dr)
        return ("sq", square_name(col, row))

    def grid_rect(self, key: Key) -> QRectF | None:
        if key[0] != "sq" or not isinstance(key[1], str) or len(key[1]) < 2:
            return None
        col, row = parse_square(key[1])
        return self.square_rect(key[1]) if 0 <= col < self.columns and 1 <= row <= self.rows else None

    def grid_tooltip(self, key: Key) -> str:
        return "\n".join([key[1], *self._notes.get(key[1], [])])

    def _draw_goals(self) -> None:
        for row in (1, self.rows):
            key = ("end", row)
            rect = self.goal_rect(row)

            def paint(p: QPainter, r: QRectF, key: Key = key) -> None:
                p.setBrush(QColor("#dfe6ea"))
                p.setPen(QPen(LINE, 1.5))
                p.drawRect(r)
                p.setPen(QPen(QColor("#9aa8b0"), 0.7))
                step = r.height() / 3
                x = r.left() + step
                while x < r.right():
                    p.drawLine(QPointF(x, r.top()), QPointF(x, r.bottom()))
                    x += step
                for i in (1, 2):
                    p.drawLine(QPointF(r.left(), r.top() + i * step), QPointF(r.right(), r.top() + i * step))
                self.paint_marks(p, r.adjusted(-4, -4, 4, 4), key)

            item = Painted(rect, paint)
            item.setZValue(1)
            self.addItem(item)
            self.make_clickable(item, key, f"The goal behind row {row}.")

    def draw_overlay(self) -> None:
        """The ball's route for the previewed kick, or for the routes left by the selection."""
        super().draw_overlay()
        texts = [self.preview] if self.preview in self.routes else []
        if not texts and self.selection:
            texts = [t for t in self.paths.matching(self.selection) if t in self.routes]
        for text in texts[:4]:
            self.add_route([self.square_rect(sq).center() for sq in self.routes[text]], dashed=True, end_dot=True)

    def _draw_trails(self, view: dict[str, Any]) -> None:
        """The other side's last turn (:func:`follow_turns`), as the other boards draw the last
        move: a dashed line for each player who moved, a solid one for the ball's route. The
        viewer's own moves are not drawn (his faded players say who moved); a spectator sees
        the side that moved last."""
        if view["state"].get("phase") in NO_TRAILS:
            return
        for trail in self.trails:
            if trail.side == view.get("seat"):
                continue
            points = [self.square_rect(square).center() for square in trail.squares]
            self.add_route(points, dashed=not trail.ball, end_dot=True, alpha=170)
            if not trail.ball:
                # A dashed ring where he stood: a move of one square hides most of its line.
                item = Painted(self.square_rect(trail.squares[0]), paint_left_square)
                item.setZValue(3)
                item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
                item.setToolTip(f"{self.config.team_names[trail.side]}'s last turn: a player left {trail.squares[0]}")
                self.addItem(item)

    def _draw_flight(self, state: dict[str, Any]) -> None:
        """The ball's route: the pending flight, or the previewed kick."""
        squares: list[str] = []
        flight = state.get("flight")
        if flight:
            squares = [state["ball"], *flight["squares"]] if state.get("ball") else list(flight["squares"])
        if not squares:
            return
        points = [self.square_rect(sq).center() for sq in squares if sq]
        self.add_route(points, dashed=bool(flight and flight.get("air")))

    def _draw_players(self, state: dict[str, Any]) -> list[WrittenNumber]:
        """Every player on the pitch; returns the numbers written with their rims (for the ball)."""
        holder, ball = state.get("holder"), state.get("ball")
        # Two players share a square only just after a steal: both are drawn, smaller, one in
        # each half of the square (drawn over each other, the away player hid the home one),
        # or one over the other (or side by side) where their numbers are too big for that.
        sharing: dict[str, list[int]] = {}
        for index, player in enumerate(state["players"]):
            if player["square"]:
                sharing.setdefault(player["square"], []).append(index)
        written: list[WrittenNumber] = []
        for square, together in sharing.items():
            together.sort(key=lambda i: i == holder)  # the ball is drawn low right: its holder goes there
            numbers = [str(state["players"][index]["number"]) for index in together]
            share = 0.66 if len(together) > 1 else 1.0
            # Measured once, not at every repaint.
            faces = [self.player_face(number, share, rimmed=square == ball) for number in numbers]
            apart = QPointF()
            if len(together) > 1:
                # Side by side only where fewer players stand beside the square than over and
                # under it: what spills from a square goes where it hides the fewest numbers.
                col, row = parse_square(square)
                beside = sum(square_name(col + d, row) in sharing for d in (-1, 1))
                above = sum(square_name(col, row + d) in sharing for d in (-1, 1))
                apart = self.apart(numbers, faces, side_by_side=beside < above)
            for slot, (index, face) in enumerate(zip(together, faces, strict=True)):
                offset = apart * (slot - (len(together) - 1) / 2)
                number = self._draw_player(state, index, offset, face, shared=len(together) > 1)
                if number is not None:
                    written.append(number)
        return written

    def _draw_player(
        self, state: dict[str, Any], index: int, offset: QPointF, face: tuple[float, QFont | None], shared: bool
    ) -> WrittenNumber | None:
        """Player ``index`` of the view, his centre ``offset`` from his square's, his disc and
        number as ``face`` says (:meth:`player_face`); ``shared``: with another player on his
        square. Returns his number as it is written with its rim (None: in the piece's own
        font, without)."""
        colours = self.config.colours
        holder, red, forced, banned = state.get("holder"), state.get("red"), state.get("forced"), state.get("banned")
        air = (state.get("air_stop") or {}).get("player")
        player = state["players"][index]
        seat = player["seat"]
        keeper = player["goalkeeper"]
        fill = colours.of(seat).lighter(135) if keeper else colours.of(seat)
        radius, font = face
        opacity = 0.55 if player["moved"] else 1.0

        def paint(p: QPainter, r: QRectF) -> None:
            c = r.center() + offset
            p.setOpacity(opacity)
            draw_token(p, c, radius, fill, str(player["number"]), colours.text_on(seat), square=seat == 1, font=font)
            p.setOpacity(1)
            if player["goalkeeper"]:
                # Goalkeepers wear a second ring so they stand out without colour.
                p.setPen(QPen(colours.text_on(seat), 1.1))
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawEllipse(c, radius * 1.12, radius * 1.12)
            if index in (forced, banned):
                p.setPen(QPen(DANGER, 1.8, Qt.PenStyle.DotLine))
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawEllipse(c, radius * 1.25, radius * 1.25)
            if index == air:
                p.setPen(QPen(QColor("#fff35c"), 2))
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawEllipse(c, radius * 1.35, radius * 1.35)

        rect = self.square_rect(player["square"])
        item = Painted(rect, paint)
        # Two players on one square are the ones to move next (the robbed player first): over
        # the others where their numbers stand out of the square.
        item.setZValue(5.5 if shared else 5)
        item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        names = self.config.team_names
        tip = [f"{names[seat]} {'goalkeeper' if keeper else 'player'} {player['number']} on {player['square']}"]
        if player["moved"]:
            tip.append("has moved this turn")
        if index == holder:
            tip.append("has the ball" + (" (red side up: may not carry it again)" if index == red else ""))
        if index == forced:
            tip.append("lost the ball: must leave this square first")
        if index == banned:
            tip.append("took the set piece: may not touch the ball until another player has")
        item.setToolTip("\n".join(tip))
        self.addItem(item)
        if font is None:
            return None
        return WrittenNumber(rect.center() + offset, str(player["number"]), font, colours.text_on(seat), fill, opacity)

    def player_face(self, number: str, share: float = 1.0, rimmed: bool = False) -> tuple[float, QFont | None]:
        """A player's radius and the font of his ``number`` (None: the piece's own, 0.8 of its
        radius), in scene units, for a player drawn ``share`` of his full size; ``rimmed``: a
        font even where the piece's own would do, so that the number is drawn with its rim
        (on the ball's square, where it is written over the ball too).

        Soccero is played by number (the set-up order, the log), so while the board is drawn
        small the number keeps :data:`NUMBER_ON_SCREEN` points on screen: bold, narrowed
        (down to :data:`NARROWEST`) and then smaller where that is too wide for its square, on a
        disc grown towards the square's edge to hold it. Two players sharing a square (just
        after a steal) keep their numbers that big, on their smaller discs, which the numbers
        stand out past with their rims (UI audit: at half size, 4.4 points at 1000 x 540)."""
        radius = SQ * DISC * share
        least = NUMBER_ON_SCREEN / self.screen_scale
        if radius * 0.8 >= least:
            return radius, piece_font(radius) if rimmed else None
        font = ui_font(least, bold=True)
        ink = ink_extent(number, font)
        # A gap to the number on the next square: at 1000 x 540 a fifth of a square, 2 pixels,
        # ran the kick-off pair's "10" and "11" together into "1011" (QA s28, first minutes 6).
        room = SQ - max(SQ * 0.2, NUMBER_GAP_ON_SCREEN / self.screen_scale)
        stretch = 100
        while ink.width() > room and stretch > NARROWEST:
            stretch = max(NARROWEST, min(stretch - 1, math.floor(stretch * room / ink.width())))
            font.setStretch(stretch)
            ink = ink_extent(number, font)
        if ink.width() > room:
            font.setPointSizeF(scene_points(least * room / ink.width()))
            ink = ink_extent(number, font)
        if share < 1:
            return radius, font
        held = math.hypot(ink.width(), ink.height()) / 2 + SQ * 0.04
        return min(SQ * DISC_MOST, max(radius, held)), font

    @staticmethod
    def apart(numbers: list[str], faces: list[tuple[float, QFont | None]], side_by_side: bool = False) -> QPointF:
        """How far apart, across and down, the centres of two players sharing a square stand:
        along its diagonal, one in each half, where each number then stays clear of the other
        piece; else one over the other (``side_by_side``: beside it) as far as that takes, their
        numbers kept at :data:`NUMBER_ON_SCREEN` points on screen in a small window, standing
        out a little beyond the square's edges there, never the other way."""
        diagonal = SQ * 0.4
        fonts = [font or piece_font(radius) for radius, font in faces]
        inks = [ink_extent(number, font) for number, font in zip(numbers, fonts, strict=True)]
        wide, tall = max(ink.width() for ink in inks), max(ink.height() for ink in inks)
        body = max(radius for radius, _font in faces) * 1.1  # the piece with its edge line
        gap = max(scene_size(font) for font in fonts) * 0.2  # for half a number's rim, and a pixel
        clear_across, clear_down = max(wide, wide / 2 + body) + gap, max(tall, tall / 2 + body) + gap
        across, down = min(diagonal, max(0.0, SQ - wide)), min(diagonal, max(0.0, SQ - tall))
        if across >= clear_across or down >= clear_down:
            return QPointF(diagonal, diagonal)
        if side_by_side:
            return QPointF(max(diagonal, clear_across), down)
        return QPointF(across, max(diagonal, clear_down))

    def _draw_ball(self, state: dict[str, Any], written: list[WrittenNumber]) -> None:
        """The ball; ``written``: the players' numbers with their rims (written again over it)."""
        ball = state.get("ball")
        if not ball:
            return
        red = state.get("red") is not None and state.get("red") == state.get("holder")
        carried = state.get("holder") is not None
        # QA pass 14: a loose ball lies on players only while a set piece waits for its taker;
        # drawn in the middle it hid them, the one to click too. It goes small into the corner
        # that the players' places (middle, or the two diagonal halves) leave free.
        # Just after a steal the stealer holds it beside the robbed player, each in half the
        # square: drawn at the holder's feet it hid the stealer (QA, 7 December), so it goes
        # into the free corner too.
        on_square = sum(1 for player in state["players"] if player["square"] == ball)
        crowded = on_square > (1 if carried else 0)
        rect = self.square_rect(ball)
        area = rect.adjusted(-4, -4, 4, 4)
        # Numbers on the ball's square and the next ones, whose ink the ball may lie on.
        around = area.adjusted(-SQ, -SQ, SQ, SQ)
        near = [number for number in written if around.contains(number.centre)]

        def paint(p: QPainter, r: QRectF) -> None:
            if crowded:
                c, radius = r.center() + QPointF(r.width() * 0.34, -r.height() * 0.34), r.width() * 0.16
            else:
                c = r.center() + (QPointF(r.width() * 0.3, r.height() * 0.3) if carried else QPointF())
                radius = r.width() * (0.24 if carried else 0.3)
            draw_ball(p, c, radius, red_side=red)
            # UI audit: the ball in a corner covered part of a "10" or "11" drawn big in a small
            # window. The numbers it lies on are written again over it, there only: each the
            # same as its piece writes it, with its rim (drawn twice, its edge would thicken).
            if not near:
                return
            p.save()
            p.setClipPath(ball_outline(c, radius))
            for number in near:
                p.setOpacity(number.opacity)
                draw_rimmed_text(p, number.centre - area.topLeft(), number.text, number.font, number.ink, number.rim)
            p.restore()

        item = Painted(area, paint)
        item.setZValue(6)
        item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        item.setToolTip("The ball" + (": red side up — its carrier must kick it or leave it" if red else ""))
        self.addItem(item)

    def _draw_chosen(self, state: dict[str, Any]) -> None:
        """The white "chosen" frame round the player picked for a free move or the wall: the
        pick is an action of its own there, so it shows in the view, not in the selection."""
        chosen = (state.get("setpiece") or {}).get("selected")
        square = state["players"][chosen]["square"] if chosen is not None else None
        if not square:
            return
        item = Painted(self.square_rect(square), lambda p, r: draw_target_mark(p, r, selected=True))
        item.setZValue(1)  # over the marks of the squares, under the players
        item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.addItem(item)

    def _draw_arrows(self, state: dict[str, Any]) -> None:
        """Clickable arrows round the ball for a header or a throw-in direction."""
        dirs = [k[1] for k in self.paths.first_keys() if k[0] == "dir"]
        setpiece = state.get("setpiece") or {}
        origin = state.get("ball") or setpiece.get("spot")
        if not dirs or not origin:
            return
        centre = self.square_rect(origin).center()
        for name in dirs:
            sx, sy = self.screen_step(name)
            pos = centre + QPointF(sx * SQ * 1.6, sy * SQ * 1.6)
            key = ("dir", name)
            rect = QRectF(pos.x() - SQ * 0.7, pos.y() - SQ * 0.7, SQ * 1.4, SQ * 1.4)

            def paint(p: QPainter, r: QRectF, sx: int = sx, sy: int = sy, key: Key = key) -> None:
                c = r.center()
                p.setBrush(QColor(255, 243, 92, 230))
                p.setPen(QPen(QColor("#1b1b1b"), 1.2))
                p.drawEllipse(c, r.width() * 0.45, r.width() * 0.45)
                length = (sx * sx + sy * sy) ** 0.5
                ux, uy = sx / length, sy / length
                tip = c + QPointF(ux * r.width() * 0.3, uy * r.width() * 0.3)
                tail = c - QPointF(ux * r.width() * 0.3, uy * r.width() * 0.3)
                pen = QPen(QColor("#1b1b1b"), 2.2)
                pen.setCapStyle(Qt.PenCapStyle.RoundCap)
                p.setPen(pen)
                p.drawLine(tail, tip)
                p.drawLine(tip, tip + QPointF(-ux * 5 - uy * 4, -uy * 5 + ux * 4))
                p.drawLine(tip, tip + QPointF(-ux * 5 + uy * 4, -uy * 5 - ux * 4))
                if key in self.preview_keys():
                    p.setPen(QPen(QColor("#d23cf0"), 2))
                    p.setBrush(Qt.BrushStyle.NoBrush)
                    p.drawEllipse(c, r.width() * 0.5, r.width() * 0.5)

            item = Painted(rect, paint)
            item.setZValue(20)
            self.addItem(item)
            self.make_clickable(item, key, f"Direction: {self.screen_direction(name)}")

    # --- side panel ------------------------------------------------------------------

    def _draw_panel(self, view: dict[str, Any]) -> None:
        state = view["state"]
        names = self.config.team_names
        colours = self.config.colours
        x, w = self.panel_x, PANEL_W
        top = self.panel_origin.y()
        self.add_panel(QRectF(x, top, w, self.panel_height / self.panel_zoom))
        score = view["score"]
        y = top + 10
        half = state.get("half", 1)
        played = turns_done(state)
        per_half = state.get("turns_per_half", 0)
        mode = "extended rules" if state.get("extended") else "basic rules"
        self.add_text(
            QPointF(x + 12, y),
            f"SOCCERO · {'1ST' if half == 1 else '2ND'} HALF · {mode.upper()}",
            8,
            MUTED_TEXT,
            bold=True,
        )
        y += 24
        them = 1 - self.me
        # A small window (the panel drawn bigger, shorter): the two teams side by side, their
        # names cut with "…" if need be; the match screen's header has them in full.
        compact = self.compact_panel
        strip_w, strip_h = ((w - 26) / 2, 34.0) if compact else (w - 20, 40.0)
        name_size, score_size, score_w = (9.5, 15, 30) if compact else (10.5, 18, 50)
        for index, side in enumerate((them, self.me)):
            r = QRectF(x + 10 + (index * (strip_w + 6) if compact else 0), y, strip_w, strip_h)
            to_move = state.get("turn") == side and state.get("phase") not in ("over", "toss", "ends", "setup")

            # The name fitted once, not at every repaint (the strip's size is fixed here).
            room = QRectF(14, 0, strip_w - 10 - score_w, strip_h)
            name = names[side] + (("  ◀" if compact else "  ◀ turn") if to_move else "")
            if compact:
                # Half a row: a long name ("Away (normal)": the level is the point) goes
                # smaller, then onto two lines, before it is cut.
                font, name, *_ = fit_within(
                    name, room.width(), room.height(), name_size, SMALLEST_ON_SCREEN, one_line_down_to=8.5, bold=True
                )
            else:
                font, name = ui_font(name_size, bold=True), elided(name, name_size, room.width(), bold=True)

            def paint(
                p: QPainter,
                rr: QRectF,
                side: int = side,
                to_move: bool = to_move,
                room: QRectF = room,
                font: QFont = font,
                name: str = name,
            ) -> None:
                draw_team_strip(p, rr, colours.of(side), to_move)
                p.setFont(font)
                p.drawText(room, Qt.AlignmentFlag.AlignVCenter, name)
                p.setFont(ui_font(score_size, bold=True))
                p.drawText(
                    QRectF(rr.width() - score_w, 0, score_w - 8, rr.height()),
                    Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                    str(score[side]),
                )

            item = Painted(r, paint)
            item.setToolTip(f"{names[side]}: {score[side]}" + (" (to play)" if to_move else ""))
            self.addItem(item)
            if not compact:
                y += strip_h + 6
        if compact:
            y += strip_h + 6
        timer = state.get("turn_timer") or 0
        turn_text = f"Turn {min(played + 1, per_half)} of {per_half} each this half"
        if timer:
            turn_text += f" · ⏳ {timer} s a turn"  # Rulings, Soccero 1: the optional hourglass
        self.add_text(QPointF(x + 12, y), turn_text, 8.5, MUTED_TEXT)
        y += 22
        y = self._draw_dice(QRectF(x + 10, y, w - 20, 74), state) + 8
        setpiece = state.get("setpiece")
        if setpiece:
            text = SETPIECE_WORDS.get(setpiece["kind"], setpiece["kind"].replace("-", " ").title())
            text += f" for {names[setpiece['seat']]}"
            # Rulebook: no direct goal from an indirect free kick or a corner (no Shoot buttons).
            if setpiece["kind"] == "free-kick":
                text += " (direct)" if setpiece.get("direct") else " (indirect: no shot at goal)"
            elif setpiece["kind"] == "corner":
                text += " (no direct goal)"
            free = setpiece.get("free_moves_left")
            if free:
                text += f"\nFree moves left: {names[self.me]} {free[self.me]}, {names[them]} {free[them]}"
            if setpiece.get("wall_left") is not None:
                text += f"\nWall players left: {setpiece['wall_left']}"
            must = self._must_move(state)
            if must:
                text += f"\n{must}"
            item = self.add_text(QPointF(x + 12, y), text, 9, PANEL_TEXT, width=w - 24)
            y += item.boundingRect().height() + 8
        placing = state.get("placing")
        if state.get("phase") == "setup" and placing is not None:
            player = state["players"][placing]
            who = "goalkeeper" if player["goalkeeper"] else f"player {player['number']}"
            self.add_text(QPointF(x + 12, y), f"Placing: {names[player['seat']]} {who}", 9, PANEL_TEXT)
            y += 20
            if state.get("kicking_off") == player["seat"] and player["number"] in KICKOFF_PAIR:
                item = self.add_text(QPointF(x + 12, y), KICKOFF_PAIR[player["number"]], 8.5, MUTED_TEXT, width=w - 24)
                y += item.boundingRect().height() + 6
        # The prompt follows the clicks of a move being built.
        steps = []
        if view["legal"] and state["phase"] in ("moving", "kick-path"):
            steps = [self.selection_hint(sample) for sample in SAMPLE_SELECTIONS]
        y += self.place_prompt(QPointF(x + 12, y), w - 24, self._status(view), steps) + 12
        if self.may_place_rest():
            self.add_button(
                QRectF(x + 12, y, w - 24, 30 if self.compact_panel else 26),
                PLACE_REST_LABEL,
                PLACE_REST,
                tooltip="Places the rest of your team where the Quick set-up option would: one player after another, each as if clicked",
            )
            y += 36
        loose = self.loose_actions()
        if loose:
            # A set-piece kick's buttons name their kicking rules: one to a row, so that every
            # label fits on one line at the same size (QA pass 14); in the panel's short form
            # two to a row, taller, a long label on two lines.
            columns = 2 if len(loose) > 3 and state["phase"] != "sp-kick" else 1
            if self.compact_panel and len(loose) > 1:
                columns = 2
            y = self.add_action_buttons(
                loose,
                QPointF(x + 12, y),
                w - 24,
                height=30 if self.compact_panel else 26,
                columns=columns,
                labels={t: self.action_label(t) for t in loose},
            )
        self._draw_legend(*self.key_place(top, self.panel_height, y))

    def _draw_dice(self, r: QRectF, state: dict[str, Any]) -> float:
        """The movement points left and the kick die face with its distance."""
        points = state.get("points", 0) if state.get("phase") == "moving" else None
        kick = state.get("kick") or {}
        symbol, total = kick.get("symbol"), kick.get("total")

        def paint(p: QPainter, rr: QRectF) -> None:
            p.setPen(MUTED_TEXT)
            p.setFont(ui_font(8, bold=True))
            p.drawText(QRectF(0, 0, 100, 14), Qt.AlignmentFlag.AlignLeft, "MOVES LEFT")
            draw_die(p, QRectF(0, 18, 44, 44), points if points is not None and 1 <= points <= 6 else None)
            if points is not None and (points > 6 or points == 0):
                p.setPen(QColor("#1d1d1d"))
                p.setFont(ui_font(15, bold=True))
                p.drawText(QRectF(0, 18, 44, 44), Qt.AlignmentFlag.AlignCenter, str(points))
            p.setPen(MUTED_TEXT)
            p.setFont(ui_font(8, bold=True))
            p.drawText(QRectF(106, 0, 130, 14), Qt.AlignmentFlag.AlignLeft, "KICK DIE")
            face = QRectF(106, 18, 44, 44)
            # A header flies straight: its face is the straight arrow, whatever the die's symbol.
            paint_kick_face(p, face, "direct" if kick.get("mode") == "header" else symbol)
            p.setPen(PANEL_TEXT)
            p.setFont(ui_font(9, bold=True))
            words = {"direct": "direct, ground", "curve": "curve, ground", "air": "curve, in the air"}
            if kick.get("mode") == "set":
                # Rulebook "Kicking the ball in special situations".
                words["curve"] = "curve, flies over all"
            if symbol:
                p.drawText(
                    QRectF(156, 18, rr.width() - 156, 22),
                    Qt.AlignmentFlag.AlignVCenter,
                    f"{total} square{'' if total == 1 else 's'}",
                )
                p.setFont(ui_font(8))
                p.drawText(
                    QRectF(156, 36, rr.width() - 156, rr.height() - 36),
                    Qt.AlignmentFlag.AlignVCenter | Qt.TextFlag.TextWordWrap,
                    # A header (or a throw-in) flies straight: its die gives only the length.
                    str(
                        {"header": "header, straight", "throw": "throw-in, in the air"}.get(
                            str(kick.get("mode")), words.get(str(symbol), str(symbol))
                        )
                    )
                    # The rules roll two distance dice as their sum (a record keeps only that).
                    + (", two dice" if kick.get("dice") == 2 and kick.get("mode") not in ("header", "throw") else ""),
                )
            elif kick:
                p.setFont(ui_font(8))
                p.drawText(
                    QRectF(156, 18, rr.width() - 156, 44),
                    Qt.AlignmentFlag.AlignVCenter | Qt.TextFlag.TextWordWrap,
                    f"{'shot' if kick.get('shot') else 'kick'}, {kick.get('dice')} dice",
                )

        item = Painted(r, paint)
        self.addItem(item)
        item.setToolTip(
            "Movement points left this turn, and the last kick die: direct (straight on the ground), curve (one 45° turn on the ground) or air (one turn, over the players)."
            " A set-piece kick taken under the set-piece rules reads a curve on the ground as a curve in the air that nobody can stop."
        )
        return r.bottom()

    def _must_move(self, state: dict[str, Any]) -> str:
        """Who must be moved first at free moves, and the set piece's rule that says so
        (rulebook "Free moves": players on forbidden squares are moved first)."""
        setpiece = state["setpiece"]
        must = setpiece.get("must_move") or []
        if not must:
            return ""
        numbers = [str(state["players"][p]["number"]) for p in must]
        who = f"Player{'s' if len(numbers) > 1 else ''} {listed(numbers)}"
        team = state["players"][must[0]]["seat"]
        if team != self.me or self.config.perspective is None:
            who += f" of {self.config.team_names[team]}"
        kind, theirs = setpiece["kind"], team != setpiece["seat"]
        if kind == "penalty":
            rule = "nobody else may stand in the penalty area, in the arc or as near the goal line as the spot"
        elif kind in ("goal-kick", "punt"):
            rule = "no field player may stand in a penalty area"
        elif kind == "corner" and theirs:
            rule = "no defender may stand on or next to the corner"
        elif kind == "free-kick" and theirs:
            rule = "no opponent may stand next to the ball"
            if self._in_own_penalty_area(setpiece["spot"], setpiece["seat"], state):
                rule += " or in the kicking team's penalty area"
        else:
            rule = "they break the limits on where players may stand"
        return f"{who} must be moved first: {rule}."

    def _in_own_penalty_area(self, square: str | None, seat: int, state: dict[str, Any]) -> bool:
        defends = state.get("defends")
        if not square or not defends:
            return False
        return square in expand(self.areas["penalty_area"]["low" if defends[seat] == 1 else "high"])

    def _status(self, view: dict[str, Any]) -> str:
        state = view["state"]
        names = self.config.team_names
        phase = state["phase"]
        if view.get("terminal") or phase == "over":
            return self.full_time_words(view)
        if view["legal"]:
            if phase == "kick-path" and (state.get("kick") or {}).get("shot"):
                return "Shot: click where the ball ends (in the goal, if it can reach it)."
            chosen = (state.get("setpiece") or {}).get("selected")
            if phase in CHOSEN_PROMPTS and chosen is not None:
                player = state["players"][chosen]
                who = f"{'Goalkeeper' if player['goalkeeper'] else 'Player ' + str(player['number'])} on {player['square']}"
                if view["legal"] == ["done"]:
                    return f"{who} has nowhere to go: click Done."
                return f"{who}: {CHOSEN_PROMPTS[phase]}"
            if phase == "free" and "done" not in view["legal"]:
                return "Free moves: click a highlighted player, then his new square."  # see _must_move
            forced = state.get("forced")
            if phase == "moving" and forced is not None and state["players"][forced]["seat"] == view["seat"]:
                # The rulebook's steal: the robbed player steps off first (QA, 7 December: the
                # screen said only "click a player" while one player alone could move).
                player = state["players"][forced]
                return (
                    f"Move: your player {player['number']} lost the ball on {player['square']} and must"
                    " step off it first: click him, then where he goes."
                )
            return PHASE_PROMPTS.get(phase, "Your decision.")
        deciding = state.get("deciding")
        if deciding is None:
            return "Rolling…"
        return f"{names[deciding]} decides…"


def paint_left_square(p: QPainter, r: QRectF) -> None:
    """The dashed ring on the square a player of the other side's last turn left."""
    pen = QPen(QColor(255, 255, 255, 170), max(1.2, r.width() * 0.07), Qt.PenStyle.DashLine)
    p.setPen(pen)
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawEllipse(r.center(), r.width() * 0.3, r.width() * 0.3)


def paint_kick_face(p: QPainter, r: QRectF, symbol: str | None) -> None:
    """The kick die's face: a straight arrow (direct), a bent arrow (curve) or a lofted arc (air)."""
    draw_die(p, r, None, face=QColor("#f4f0dc"))
    if not symbol:
        return
    pen = QPen(QColor("#b3261e") if symbol == "air" else QColor("#1d1d1d"), r.width() * 0.07)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    p.setPen(pen)
    p.setBrush(Qt.BrushStyle.NoBrush)
    w, h = r.width(), r.height()
    start = QPointF(r.x() + 0.2 * w, r.y() + 0.75 * h)
    path = QPainterPath(start)
    if symbol == "direct":
        tip = QPointF(r.x() + 0.8 * w, r.y() + 0.25 * h)
        path.lineTo(tip)
        back = (QPointF(-0.22 * w, 0.02 * h), QPointF(-0.02 * w, 0.22 * h))
    elif symbol == "curve":
        bend = QPointF(r.x() + 0.5 * w, r.y() + 0.45 * h)
        tip = QPointF(r.x() + 0.5 * w, r.y() + 0.18 * h)
        path.lineTo(bend)
        path.lineTo(tip)
        back = (QPointF(-0.12 * w, 0.12 * h), QPointF(0.12 * w, 0.12 * h))
    else:
        tip = QPointF(r.x() + 0.82 * w, r.y() + 0.72 * h)
        path.quadTo(QPointF(r.x() + 0.5 * w, r.y() - 0.1 * h), tip)
        back = (QPointF(-0.04 * w, -0.2 * h), QPointF(-0.2 * w, -0.04 * h))
    p.drawPath(path)
    p.drawLine(tip, tip + back[0])
    p.drawLine(tip, tip + back[1])
