"""The Pawn Soccer board: the 7 x 11 grid with its goals and special spaces, the pawns,
their cards, the ball and the substitutes' bench.

Drawn only from ``view["state"]`` (format in :mod:`soccerdesk.rules.pawn_soccer`); the
grid geometry comes from ``state["board"]``. The viewer's own goal is at the bottom.

Clicks (every action text of ``view["legal"]``):

* set-up ``place X``: click the square (``place X yellow``: first the yellow-card pawn
  in the tray when both kinds are left);
* ``kickoff X``: click the pawn;
* ``move``/``pass``/``long``/``kick``/``steal``/``keeper`` ``A-B``: click the pawn on A,
  then B (where two of these end on the same square a chooser asks which);
* ``sub X``: click the substitute on the bench, then the pawn it replaces;
* ``penalty n``: click the n-th square of the goal (seen from the goal's own team, left to
  right by column letter);
* ``stop``, ``end``, ``wait``, ``keeper none``: buttons in the side panel.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem

from soccerdesk.ui.boards.base import BoardConfig
from soccerdesk.ui.boards.drawing import (
    DANGER,
    MUTED_TEXT,
    PANEL_TEXT,
    ClickBoard,
    Key,
    Painted,
    draw_ball,
    draw_target_mark,
    draw_team_strip,
    draw_token,
    text_extent,
    ui_font,
)
from soccerdesk.ui.palette import GRASS_DARK, GRASS_LIGHT, LINE

SQUARE = 46.0
ORIGIN = QPointF(34.0, 18.0)
PANEL_W = 262.0
TRAY_FRAME = 6.0  # the legal-click frame's edge inside the set-up tray's carded pawn

VERB_LABELS = {
    "move": "Move here",
    "pass": "Pass here",
    "long": "Long pass here",
    "kick": "Kick here",
    "steal": "Steal the ball",
    "keeper": "Make goalkeeper",
}

ACTION_WORDS = {
    "stop": "Stop the chain",
    "end": "End turn",
    "wait": "Wait (nothing possible)",
    "keeper none": "Leave goal empty",
}
MOVE_WORDS = {
    "move": "Move the pawn on {a} to {b}",
    "pass": "Pass from {a} to {b}",
    "long": "Long pass from {a} to {b}",
    "kick": "Kick the ball from {a} to {b}",
    "steal": "Steal the ball: {a} swaps with {b}",
    "keeper": "Move the pawn on {a} to {b} as goalkeeper",
}


def split_squares(text: str) -> tuple[str, str, str]:
    """``"kick D6-D12"`` -> ``("kick", "D6", "D12")``; one-square actions give ``b == ""``."""
    verb, _, rest = text.partition(" ")
    a, _, b = rest.partition("-")
    return verb, a, b


def parse_square(name: str) -> tuple[int, int]:
    """``"D12"`` -> (column index, row)."""
    return ord(name[0]) - ord("A"), int(name[1:])


def turns_finished(state: dict[str, Any]) -> int:
    """Turns both sides have finished, as the view's ``turns`` counts them but for one case:
    the rules count a turn at its move, yet while the side that moved may still substitute
    (``after_turn``) its turn goes on ("Turn 1", not "Turn 2", until it ends)."""
    played = state.get("turns", 0)
    played = played if isinstance(played, int) else 0
    return max(0, played - 1) if state.get("phase") == "after_turn" else played


YELLOW_CARD = QColor("#ffd400")
CARD_RIM_PIXELS = 1.6  # the least rim a card gets, in screen pixels, however small the window


def paint_card(p: QPainter, rect: QRectF, *, red: bool = False, edge: float = 0.8) -> None:
    """A yellow or a red card: a small rounded card on a rim of at least ``edge`` (pawns, team
    rows, key). The rim is near black round a yellow card, near white round a red one, and never
    thinner than :data:`CARD_RIM_PIXELS` on screen: a yellow card on an orange (or yellow) pawn
    once had only a hairline edge to tell it from the pawn at a small window, and a red chip read
    poorly on the dark panel."""
    to_screen = p.deviceTransform()  # scene units to device pixels, the view's zoom included
    scale = math.hypot(to_screen.m11(), to_screen.m12()) / p.device().devicePixelRatio() or 1.0
    rim = max(edge, CARD_RIM_PIXELS / scale)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor("#fff4f0" if red else "#1a1500"))
    p.drawRoundedRect(rect.adjusted(-rim, -rim, rim, rim), 1.5 + rim, 1.5 + rim)
    p.setBrush(DANGER if red else YELLOW_CARD)
    p.drawRoundedRect(rect, 1.5, 1.5)


def paint_barred(p: QPainter, c: QPointF, radius: float) -> None:
    """The mark of a pawn that lost the ball and may not win it back this turn: no steal back,
    nor, after a red card, the loose ball (a pawn of ``radius`` centred on ``c``)."""
    p.setPen(QPen(DANGER, 2))
    p.setBrush(QColor("#ffffff"))
    q = c + QPointF(-radius * 0.85, -radius * 0.8)
    p.drawEllipse(q, radius * 0.3, radius * 0.3)
    p.drawLine(q + QPointF(-radius * 0.2, radius * 0.2), q + QPointF(radius * 0.2, -radius * 0.2))


def paint_received(p: QPainter, c: QPointF, radius: float) -> None:
    """The tick of a pawn that has received in the chain pass under way."""
    p.setPen(QPen(QColor("#ffffff"), 2.2))
    tick = c + QPointF(-radius * 0.95, radius * 0.55)
    p.drawLine(tick, tick + QPointF(radius * 0.2, radius * 0.22))
    p.drawLine(tick + QPointF(radius * 0.2, radius * 0.22), tick + QPointF(radius * 0.55, -radius * 0.25))


def last_turns(moves: list[dict[str, Any]], turns: int = 2) -> list[dict[str, Any]]:
    """The moves of the last ``turns`` runs of one team's moves (a turn, a chain pass and what
    followed it): a resumed match hands the board every move since the start, and only the
    last of each side's are news."""
    kept: list[dict[str, Any]] = []
    runs, team = 0, object()
    for data in reversed(moves):
        if data.get("team") != team:
            runs, team = runs + 1, data.get("team")
            if runs > turns:
                break
        kept.append(data)
    return kept[::-1]


class Board(ClickBoard):
    """Pawn Soccer board scene (see the module docstring for the click paths)."""

    KEYBOARD_LAST = frozenset({"sub"})

    def __init__(self, config: BoardConfig, parent: Any = None) -> None:
        super().__init__(config, parent)
        self._recent: list[dict[str, Any]] = []  # each side's last moves, drawn as trails
        self.columns, self.rows = 7, 11  # RULINGS board; replaced by the view's own "board" data
        self._squares: set[str] = set()  # every square's name, goal squares included
        self._notes: dict[str, list[str]] = {}  # square -> what is special about it
        self._fit_scene()

    side_panel_width = PANEL_W + 14  # with the room right of it

    def _fit_scene(self) -> None:
        self.panel_x = ORIGIN.x() + self.columns * SQUARE + 30
        self.setSceneRect(QRectF(0, 0, self.panel_x + PANEL_W + 14, ORIGIN.y() * 2 + (self.rows + 2) * SQUARE))

    def render(self, view: dict[str, Any], events: list[dict[str, Any]]) -> None:  # type: ignore[override]
        board = view.get("state", {}).get("board")
        if board and (len(board["columns"]), board["rows"]) != (self.columns, self.rows):
            self.columns, self.rows = len(board["columns"]), int(board["rows"])
            self._fit_scene()
        super().render(view, events)

    # --- geometry ----------------------------------------------------------------------

    @property
    def me(self) -> int:
        return 0 if self.config.perspective is None else self.config.perspective

    def _flip(self) -> bool:
        return self.me == 1

    def square_rect(self, name: str) -> QRectF:
        """A square (goal rows 0 and rows + 1 included); the viewer's own goal is at the bottom."""
        col, row = parse_square(name)
        if self._flip():
            dc, dr = self.columns - 1 - col, row
        else:
            dc, dr = col, self.rows + 1 - row
        return QRectF(ORIGIN.x() + dc * SQUARE, ORIGIN.y() + dr * SQUARE, SQUARE, SQUARE)

    # --- click paths -------------------------------------------------------------------

    def click_paths(self, view: dict[str, Any]) -> dict[str, tuple[Key, ...]]:
        state = view["state"]
        seat = view.get("seat")
        paths: dict[str, tuple[Key, ...]] = {}
        legal = view["legal"]
        has_clean = any(t.startswith("place ") and not t.endswith(" yellow") for t in legal)
        goal_of_keeper = self._penalty_goal(state)
        for text in legal:
            verb, a, b = split_squares(text)
            if verb == "place":
                square, _, kind = a.partition(" ")
                if kind == "yellow" and has_clean:
                    paths[text] = (("tray", "yellow"), ("sq", square))
                else:
                    paths[text] = (("sq", square),)
            elif verb == "kickoff":
                paths[text] = (("sq", a),)
            elif verb == "sub":
                paths[text] = (("bench", seat), ("sq", a))
            elif verb == "penalty" and goal_of_keeper:
                paths[text] = (("sq", goal_of_keeper[int(a) - 1]),)
            elif b and a != "none":
                paths[text] = (("sq", a), ("sq", b))
        return paths

    def _penalty_goal(self, state: dict[str, Any]) -> list[str]:
        """The goal squares of a penalty in column order, or [] when none is on."""
        penalty = state.get("penalty")
        if not penalty:
            return []
        keeper_side = 1 - penalty["taker"]
        return sorted(state["board"]["ends"][keeper_side]["goal"], key=parse_square)

    def action_label(self, text: str) -> str:
        verb, a, b = split_squares(text)
        if verb in VERB_LABELS and b:
            return VERB_LABELS[verb]
        return ACTION_WORDS.get(text, text)

    def describe(self, action_text: str) -> str:
        verb, a, b = split_squares(action_text)
        if verb in MOVE_WORDS and b:
            return MOVE_WORDS[verb].format(a=a, b=b)
        if verb == "place":
            square, _, kind = a.partition(" ")
            return f"Place a pawn{' with a yellow card' if kind else ''} on {square}"
        if verb == "toss":
            seat = 0 if a == "blue" else 1
            return f"Coin toss: {self.config.team_names[seat]} kicks off"
        if verb == "penalty":
            state = (self.view_data or {}).get("state") or {}
            goal = self._penalty_goal(state)
            square = goal[int(a) - 1] if goal and a.isdigit() and int(a) <= len(goal) else f"place {a}"
            shooting = (state.get("penalty") or {}).get("taker") == (self.view_data or {}).get("seat")
            return f"Shoot the penalty at {square}" if shooting else f"Guard {square}"
        labels = {"kickoff": "Kick off with the pawn on {a}", "sub": "Substitute the pawn on {a}"}
        if verb in labels:
            return labels[verb].format(a=a)
        return self.action_label(action_text) if action_text in ACTION_WORDS else super().describe(action_text)

    def key_words(self, key: Key) -> str:
        if key[0] == "sq":
            pawn = self.piece_at("pawns", key[1])
            if pawn is not None and pawn["team"] == (self.view_data or {}).get("seat"):
                return f"your pawn on {key[1]}"
        if key[0] == "bench":
            return "your substitute on the bench"
        if key == ("tray", "yellow"):
            return "the pawn with a yellow card (beside the board)"
        return super().key_words(key)

    # --- hints -------------------------------------------------------------------------

    def selection_hint(self, selection: tuple[Key, ...]) -> str:
        if not selection:
            return ""
        if selection[0] == ("tray", "yellow"):
            return "Choose a square for the pawn with the yellow card."
        if selection[0][0] == "bench":
            return "Choose the pawn the substitute replaces, or click the bench again to keep it there."
        verbs = sorted({split_squares(t)[0] for t in self.paths.matching(selection)})
        words = {
            "move": "move",
            "pass": "pass",
            "long": "long pass",
            "kick": "kick",
            "steal": "steal",
            "keeper": "go in goal",
        }
        what = ", ".join(words.get(v, v) for v in verbs)
        hint = f"Pawn on {selection[0][1]}: click a highlighted square ({what})."
        diagonal = [
            t
            for t in self.paths.matching(selection)
            if split_squares(t)[0] == "steal" and self._diagonal(*split_squares(t)[1:])
        ]
        if diagonal:
            # Rulebook: a diagonal steal earns a yellow card (a second one, a red); inside the
            # stealer's own penalty area it is also a penalty.
            pawn = self.piece_at("pawns", selection[0][1])
            if pawn is not None and pawn.get("yellow"):
                # The costly one said plainly before the click, not only in the pawn's tooltip.
                hint += (
                    " This pawn has a yellow card: a diagonal steal is its second, a red card, and sends it"
                    " off (a penalty too inside your own penalty area)."
                )
            else:
                hint += " A diagonal steal earns a yellow card, and a penalty inside your own penalty area."
        return hint

    @staticmethod
    def _diagonal(a: str, b: str) -> bool:
        (ac, ar), (bc, br) = parse_square(a), parse_square(b)
        return ac != bc and ar != br

    def refusal_hint(self, selection: tuple[Key, ...], key: Key) -> str:
        view = self.view_data
        if not view or not view["legal"]:
            return "It is not your turn."
        state = view["state"]
        phase = state["phase"]
        seat = view["seat"]
        if not (isinstance(key, tuple) and key[0] == "sq"):
            return "That can't be used now."
        square = key[1]
        pawn = self.piece_at("pawns", square)
        if phase == "setup":
            end = state["board"]["ends"][seat]
            row = parse_square(square)[1]
            if not end["half"][0] <= row <= end["half"][1]:
                return f"Set your pawns up in your own half (rows {end['half'][0]}–{end['half'][1]})."
            special = {s for zone in end["sprint_zones"] for s in zone} | set(end["long_pass_spaces"])
            if square in special:
                return "Pawns can't be set up on sprint zones or long-pass spaces."
            if pawn:
                return f"{square} is taken."
            return "Your goal-kick area already has its one goalkeeper."
        if phase == "penalty":
            return "Click one of the three goal squares."
        if not selection or selection[0][0] != "sq":
            if pawn is None:
                return "Choose one of your pawns first (the highlighted ones can act)."
            if pawn["team"] != seat:
                return "That pawn is the other team's; choose one of yours."
            if phase == "kickoff":
                return "That pawn can't kick off."
            return f"The pawn on {square} has nothing it may do now."
        return self._why_not(state, seat, selection[0][1], square)

    def _why_not(self, state: dict[str, Any], seat: int, start: str, square: str) -> str:
        """Why the chosen pawn on ``start`` may not act on ``square``, in the board's words.

        First the action the click would have made (the phase's own one, a play of the ball,
        a steal, a move), then that action's conditions in the order the rules'
        ``explain_illegal`` checks them (:meth:`soccerdesk.rules.pawn_soccer._Rules.explain`),
        so a refusal names the rule that really bars it (QA, pawn audit 3: a steal barred by
        the goal-kick area was told it was not next to the ball; the pawn robbed by a red card
        was told of the goal-kick area; a keeper before a penalty was told of steals)."""
        phase = state["phase"]
        if phase == "keeper":
            return "Choose a free square of your goal-kick area."
        if phase == "penalty_keeper":
            return "Before the penalty a pawn must go into goal: choose a free square of your goal-kick area."
        mover = self.piece_at("pawns", start)
        pawn = self.piece_at("pawns", square)
        (ac, ar), (bc, br) = parse_square(start), parse_square(square)
        distance = max(abs(ac - bc), abs(ar - br))
        if mover and mover["ball"]:
            if pawn and pawn["team"] == seat and distance > 2:
                return "A pass reaches at most 2 squares."
            if pawn and pawn["team"] == seat and square in (state.get("chain_received") or ()):
                return "In a chain pass each pawn receives the ball only once."
            if distance > 2:
                return "The ball reaches at most 2 squares (a long pass only from a long-pass space)."
            if state.get("kickoff_turn"):
                return "The kick-off must be a pass or a kick to an empty square."
            if phase == "chain":
                return "In a chain pass the ball goes on only to a team-mate; or stop the chain."
            if square in self._goal_squares(state, seat):
                return "The squares between the ball and the goal must be empty, and no goal from an X square."
            return f"The ball can't go from {start} to {square} now."
        if pawn and pawn["team"] != seat:
            if not pawn["ball"]:
                return "You can only steal from the pawn that has the ball."
            if distance != 1:
                return "A steal is made from a square next to the ball."
            if mover and mover["barred"]:
                return "This pawn lost the ball last turn and can't steal it back now."
            return self._swap_refused(state, seat, start, square)
        if pawn:
            return f"{square} is taken."
        ends = state["board"]["ends"]
        if any(square in end["goal"] for end in ends):
            return "Only the pawn with the ball can go into a goal."
        if square == state.get("ball") and mover and mover["barred"]:
            # Rulebook, Red card: the pawn the ball was stolen from cannot get it in the next turn.
            return "This pawn lost the ball to a red card: it can't take the loose ball this turn."
        if distance > 1:
            return "A pawn moves one square (further only as a sprint, straight ahead inside a sprint zone)."
        if square in ends[1 - seat]["goal_kick_area"]:
            return "The other side's goal-kick area is closed to your pawns in this match."
        return f"The pawn on {start} can't go to {square}: your goal-kick area holds one goalkeeper only."

    def _swap_refused(self, state: dict[str, Any], seat: int, start: str, ball: str) -> str:
        """Why a steal from next to the ball is refused when nothing else bars it: a steal swaps
        the two pawns, and each must be allowed where it lands (docs/rulings.md, Goal-kick area)."""
        ends = state["board"]["ends"]

        def crowded(side: int, into: str, leaving: str) -> bool:
            area = ends[side]["goal_kick_area"]
            return into in area and leaving not in area

        if crowded(seat, ball, start):
            return "A steal swaps the two pawns: yours would join your goalkeeper in your goal-kick area (one only)."
        if crowded(1 - seat, start, ball):
            return "A steal swaps the two pawns: theirs would join its goalkeeper in its goal-kick area (one only)."
        return "A steal swaps the two pawns: one would land in a goal-kick area closed to its side in this match."

    @staticmethod
    def _goal_squares(state: dict[str, Any], seat: int) -> set[str]:
        return set(state["board"]["ends"][1 - seat]["goal"])

    # --- drawing -----------------------------------------------------------------------

    def static_signature(self, view: dict[str, Any]) -> Any:
        return repr(view["state"]["board"])

    def draw_static(self, view: dict[str, Any]) -> None:
        board = view["state"]["board"]
        self._draw_pitch(board)
        self._draw_squares(board)

    def _draw_legend(self, bottom: float, room: float) -> None:
        """The key standing on ``bottom``, the panel's foot, in ``room`` under the panel's
        content (:meth:`key_place`)."""
        colours = self.config.colours

        def grass(p: QPainter, r: QRectF) -> None:
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(GRASS_DARK)
            p.drawRect(r)

        def sprint(p: QPainter, r: QRectF) -> None:
            grass(p, r)
            self._paint_sprint(p, r, 1 if not self._flip() else -1)

        def long_pass(p: QPainter, r: QRectF) -> None:
            grass(p, r)
            self._paint_long_pass(p, r)

        def blocked(p: QPainter, r: QRectF) -> None:
            grass(p, r)
            p.setPen(QPen(QColor(255, 255, 255, 170), 1.6))
            m = r.width() * 0.25
            p.drawLine(r.topLeft() + QPointF(m, m), r.bottomRight() - QPointF(m, m))
            p.drawLine(r.topRight() + QPointF(-m, m), r.bottomLeft() + QPointF(m, -m))

        def yellow(p: QPainter, r: QRectF) -> None:
            draw_token(p, r.center(), r.width() * 0.38, colours.of(self.me))
            paint_card(p, QRectF(r.center().x() + 2, r.top(), r.width() * 0.3, r.height() * 0.42))

        def red(p: QPainter, r: QRectF) -> None:
            # The card alone, as big as the team rows' chips: a pawn sent off has left the board.
            w, h = r.width() * 0.42, r.height() * 0.62
            paint_card(p, QRectF(r.center().x() - w / 2, r.center().y() - h / 2, w, h), red=True)

        def pawn_with(mark: Callable[[QPainter, QPointF, float], None]) -> Callable[[QPainter, QRectF], None]:
            def icon(p: QPainter, r: QRectF) -> None:
                # The mark sits at the pawn's edge: a smaller pawn, shifted, keeps it inside the icon.
                c, radius = r.center() + QPointF(r.width() * 0.1, r.width() * 0.05), r.width() * 0.3
                draw_token(p, c, radius, colours.of(self.me))
                mark(p, c, radius)

            return icon

        def target(p: QPainter, r: QRectF) -> None:
            grass(p, r)
            draw_target_mark(p, r)

        entries = [
            (target, "a legal click now (white: chosen)", "legal click"),
            (sprint, "sprint zone: run ahead to its end, any side", "sprint zone"),
            (long_pass, "long-pass space", "long pass"),
            (blocked, "X: no goal from here", "no goal here"),
            (yellow, "yellow card (a 2nd is a red)", "yellow card"),
            (red, "red card: a pawn sent off", "red card"),
            (pawn_with(paint_barred), "lost the ball: can't win it back this turn", "can't win back"),
            (pawn_with(paint_received), "has received in this chain pass", "has received"),
        ]
        self.add_legend(QPointF(self.panel_x + 12, bottom), PANEL_W - 24, entries, room)

    def draw(self, view: dict[str, Any], events: list[dict[str, Any]]) -> None:
        state = view["state"]
        self._draw_last_move(view)
        self._draw_pawns(state)
        with self.zoomed_panel(QPointF(self.panel_x, ORIGIN.y())):
            self._draw_panel(view)

    def _special(self, board: dict[str, Any]) -> dict[str, list[str]]:
        """What is special about each square (for art and tooltips)."""
        notes: dict[str, list[str]] = {}
        names = self.config.team_names
        for side, end in enumerate(board["ends"]):
            team = names[side]
            for sq in end["goal"]:
                notes.setdefault(sq, []).append(
                    f"{team}'s goal: carry or kick the ball in here to score against {team}."
                )
            for sq in end["goal_kick_area"]:
                notes.setdefault(sq, []).append(f"{team}'s goal-kick area: only {team}'s goalkeeper may stand here.")
            for sq in end["penalty_area"]:
                notes.setdefault(sq, []).append(
                    f"{team}'s penalty area: a diagonal steal here by {team} gives a penalty."
                )
            notes.setdefault(end["penalty_spot"], []).append("Penalty spot: the penalty taker stands here.")
            for sq in end["blocked"]:
                notes.setdefault(sq, []).append("X square: no goal can be scored from here.")
            for zone in end["sprint_zones"]:
                for sq in zone:
                    notes.setdefault(sq, []).append(
                        "Sprint zone: a pawn starting its move here may run straight ahead, as far as the"
                        " end of the zone (its three squares hold two steps); either side may use it."
                    )
            for sq in end["long_pass_spaces"]:
                notes.setdefault(sq, []).append(
                    "Long-pass space: from here the ball may go to any team-mate or empty square of this half or the centre row."
                )
        notes.setdefault(board["kickoff"], []).append("Kick-off square: the match restarts here after a goal.")
        return notes

    def _draw_pitch(self, board: dict[str, Any]) -> None:
        rows, columns = board["rows"], len(board["columns"])
        field = QRectF(ORIGIN.x(), ORIGIN.y() + SQUARE, columns * SQUARE, rows * SQUARE)
        centre_row = board["centre_row"]
        ends = board["ends"]
        areas = [self._area_rect(end["penalty_area"]) for end in ends]
        kick_areas = [self._area_rect(end["goal_kick_area"]) for end in ends]
        spots = [self.square_rect(end["penalty_spot"]).center() for end in ends]
        centre = self.square_rect(board["kickoff"]).center()

        def paint(p: QPainter, r: QRectF) -> None:
            off = QPointF(-ORIGIN.x() + 14, -ORIGIN.y() + 4)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QColor("#22302a"))
            p.drawRoundedRect(r, 12, 12)
            for i in range(rows):
                p.setBrush(GRASS_LIGHT if i % 2 else GRASS_DARK)
                p.drawRect(QRectF(field.x(), field.y() + i * SQUARE, field.width(), SQUARE).translated(off))
            line = QPen(LINE, 2.2)
            p.setPen(line)
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRect(field.translated(off))
            # The halfway line runs through the middle of the neutral centre row.
            mid = self.square_rect(f"A{centre_row}").center().y() + off.y()
            p.drawLine(QPointF(field.left() + off.x(), mid), QPointF(field.right() + off.x(), mid))
            p.drawEllipse(centre + off, SQUARE * 1.1, SQUARE * 1.1)
            p.setBrush(LINE)
            p.drawEllipse(centre + off, 3, 3)
            p.setBrush(Qt.BrushStyle.NoBrush)
            for area in areas + kick_areas:
                p.drawRect(area.translated(off))
            p.setBrush(LINE)
            for spot in spots:
                p.drawEllipse(spot + off, 3, 3)

        item = Painted(QRectF(ORIGIN.x() - 14, ORIGIN.y() - 4, columns * SQUARE + 28, (rows + 2) * SQUARE + 8), paint)
        item.setZValue(-10)
        # The pitch never changes within a match: painted once per zoom, then copied.
        item.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.addItem(item)
        # Coordinates along the edges, from the viewer's side.
        for letter in board["columns"]:
            rect = self.square_rect(f"{letter}1")
            self.add_text(
                QPointF(rect.x(), ORIGIN.y() + (rows + 2) * SQUARE + 2),
                letter,
                self.label_size(7.5),
                MUTED_TEXT,
                width=SQUARE,
                align=Qt.AlignmentFlag.AlignHCenter,
            )
        for row in range(1, rows + 1):
            rect = self.square_rect(f"A{row}")
            self.add_text(
                QPointF(ORIGIN.x() - 32, rect.center().y() - text_extent("1", self.label_size(7.5)).height() / 2),
                str(row),
                self.label_size(7.5),
                MUTED_TEXT,
                width=26,
                align=Qt.AlignmentFlag.AlignHCenter,
            )

    def _area_rect(self, squares: list[str]) -> QRectF:
        rect = QRectF()
        for sq in squares:
            rect = rect.united(self.square_rect(sq)) if not rect.isNull() else self.square_rect(sq)
        return rect

    def _draw_squares(self, board: dict[str, Any]) -> None:
        """The squares: special-space art, highlight marks, tooltips, click keys."""
        notes = self._special(board)
        ends = board["ends"]
        blocked = {sq for end in ends for sq in end["blocked"]}
        sprint = {sq: side for side, end in enumerate(ends) for zone in end["sprint_zones"] for sq in zone}
        long_pass = {sq for end in ends for sq in end["long_pass_spaces"]}
        goals = {sq: side for side, end in enumerate(ends) for sq in end["goal"]}
        squares = [f"{c}{r}" for r in range(1, board["rows"] + 1) for c in board["columns"]] + list(goals)
        # The squares' art is painted once into a cached layer and their marks by one marks
        # layer; the squares are found by geometry (no item each: a pawn moving over them
        # would repaint every square it crosses).
        self._squares = set(squares)
        self._notes = notes
        area = QRectF(ORIGIN.x(), ORIGIN.y(), self.columns * SQUARE, (self.rows + 2) * SQUARE)
        # Drawn past its edges by half a pen (the goals' team lines): the cache must hold that too.
        margin = 4.0
        origin = area.topLeft() - QPointF(margin, margin)

        def paint(p: QPainter, r: QRectF) -> None:
            for name in squares:
                rect = self.square_rect(name).translated(-origin)
                if name in goals:
                    self._paint_goal(p, rect, goals[name])
                elif name in sprint:
                    self._paint_sprint(p, rect, ends[sprint[name]]["forward"])
                if name in long_pass:
                    self._paint_long_pass(p, rect)
                if name in blocked:
                    pen = QPen(QColor(255, 255, 255, 120), 2.4)
                    p.setPen(pen)
                    m = rect.width() * 0.28
                    p.drawLine(rect.topLeft() + QPointF(m, m), rect.bottomRight() - QPointF(m, m))
                    p.drawLine(rect.topRight() + QPointF(-m, m), rect.bottomLeft() + QPointF(m, -m))
                p.setPen(QPen(QColor(0, 0, 0, 40), 0.8))
                p.setBrush(Qt.BrushStyle.NoBrush)
                if name not in goals:
                    p.drawRect(rect)

        art = Painted(area.adjusted(-margin, -margin, margin, margin), paint)
        art.setZValue(-9)
        art.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        art.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.addItem(art)
        self.add_marks_layer(area)

    def grid_key_at(self, pos: QPointF) -> Key | None:
        dc, dr = math.floor((pos.x() - ORIGIN.x()) / SQUARE), math.floor((pos.y() - ORIGIN.y()) / SQUARE)
        col, row = (self.columns - 1 - dc, dr) if self._flip() else (dc, self.rows + 1 - dr)
        name = f"{chr(ord('A') + col)}{row}" if col >= 0 else ""
        return ("sq", name) if name in self._squares else None

    def grid_rect(self, key: Key) -> QRectF | None:
        return self.square_rect(key[1]) if key[0] == "sq" and key[1] in self._squares else None

    def grid_tooltip(self, key: Key) -> str:
        return "\n".join([key[1], *self._notes.get(key[1], [])])

    def _paint_goal(self, p: QPainter, r: QRectF, side: int) -> None:
        p.setBrush(QColor("#dfe6ea"))
        p.setPen(Qt.PenStyle.NoPen)
        p.drawRect(r)
        p.setPen(QPen(QColor("#9aa8b0"), 0.8))
        step = r.width() / 6
        for i in range(1, 6):
            p.drawLine(QPointF(r.left() + i * step, r.top()), QPointF(r.left() + i * step, r.bottom()))
            p.drawLine(QPointF(r.left(), r.top() + i * step), QPointF(r.right(), r.top() + i * step))
        team = self.config.colours.of(side)
        p.setPen(QPen(team, 3))
        p.drawLine(r.topLeft(), r.topRight()) if self._goal_at_top(side) else p.drawLine(
            r.bottomLeft(), r.bottomRight()
        )

    def _goal_at_top(self, side: int) -> bool:
        return side != self.me

    def _paint_sprint(self, p: QPainter, r: QRectF, forward: int) -> None:
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(255, 255, 255, 34))
        p.drawRect(r)
        # Chevrons point the way the zone's own team runs (towards the far goal).
        sign = -1 if (forward == 1) != self._flip() else 1
        pen = QPen(QColor(255, 255, 255, 150), 2)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        p.setPen(pen)
        cx, w, h = r.center().x(), r.width(), r.height()
        for k in (-0.14, 0.1):
            y = r.center().y() + k * h * -sign
            p.drawLine(QPointF(cx - 0.16 * w, y - sign * 0.08 * h), QPointF(cx, y + sign * 0.08 * h))
            p.drawLine(QPointF(cx, y + sign * 0.08 * h), QPointF(cx + 0.16 * w, y - sign * 0.08 * h))

    def _paint_long_pass(self, p: QPainter, r: QRectF) -> None:
        p.setPen(QPen(QColor("#fff6c8"), 2))
        p.setBrush(QColor(255, 230, 120, 50))
        p.drawEllipse(r.center(), r.width() * 0.34, r.width() * 0.34)
        path = QPainterPath()
        c = r.center()
        w = r.width()
        path.moveTo(c + QPointF(-0.2 * w, 0.12 * w))
        path.quadTo(c + QPointF(0, -0.32 * w), c + QPointF(0.2 * w, 0.02 * w))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawPath(path)
        tip = c + QPointF(0.2 * w, 0.02 * w)
        p.drawLine(tip, tip + QPointF(-0.09 * w, -0.02 * w))
        p.drawLine(tip, tip + QPointF(0.0, -0.09 * w))

    def _draw_last_move(self, view: dict[str, Any]) -> None:
        """An arrow for each side's last move, pass, kick or steal (:meth:`set_view` keeps them)."""
        for data in self._recent:
            try:
                a, b = self.square_rect(data["from"]).center(), self.square_rect(data["to"]).center()
            except (ValueError, KeyError, IndexError):
                continue
            self.add_route([a, b], dashed=True, end_dot=True, alpha=170)

    follows_turns = True

    def follow_turn(self, view: dict[str, Any], events: list[dict[str, Any]]) -> None:
        # Each side's last moves stay drawn until that side moves again: a view often comes
        # with no move of its own (a turn ended, a substitute offered), and the bot's move came
        # one view before. A new set-up starts afresh; so do the moves after a goal, for a
        # match resumed from its whole event list (QA, pawn audit 3: a save opened in a set-up
        # showed the arrows of the moves before the goal).
        phase = (view.get("state") or {}).get("phase")
        if phase in ("setup", "toss", "kickoff"):
            self._recent = []
            return
        moves: list[dict[str, Any]] = []
        for event in events:
            data = event.get("data") or {}
            if event.get("kind") == "goal" and phase != "over":  # the match over: its last moves stay
                self._recent, moves = [], []
            elif "from" in data and "to" in data:
                moves.append(data)
        self._recent = last_turns(self._recent + moves)

    def forget_turns(self) -> None:
        self._recent = []

    @property
    def trails(self) -> list[tuple[str, str]]:
        """The moves drawn as each side's last ones, (from, to)."""
        return [(data["from"], data["to"]) for data in self._recent]

    def _draw_pawns(self, state: dict[str, Any]) -> None:
        colours = self.config.colours
        received = set(state.get("chain_received") or ())
        for pawn in state["pawns"]:
            rect = self.square_rect(pawn["square"])
            team = pawn["team"]
            done = pawn["square"] in received

            def paint(p: QPainter, r: QRectF, pawn: dict[str, Any] = pawn, team: int = team, done: bool = done) -> None:
                c = r.center()
                radius = r.width() * 0.34
                draw_token(p, c, radius, colours.of(team), "GK" if pawn["keeper"] else "", colours.text_on(team))
                # Team told apart by shape as well as colour: the away side's pawns carry a notch ring.
                if team == 1:
                    p.setPen(QPen(colours.text_on(team), 1.2, Qt.PenStyle.DotLine))
                    p.setBrush(Qt.BrushStyle.NoBrush)
                    p.drawEllipse(c, radius * 0.84, radius * 0.84)
                if pawn["yellow"]:
                    # Up at the pawn's edge, so that the card's rim leaves a keeper's "GK" whole.
                    paint_card(
                        p, QRectF(c.x() + radius * 0.35, c.y() - radius * 1.3, radius * 0.55, radius * 0.75), edge=1
                    )
                if pawn["barred"]:
                    paint_barred(p, c, radius)
                if pawn["ball"]:
                    draw_ball(p, c + QPointF(radius * 0.75, radius * 0.7), radius * 0.42)
                if done:
                    paint_received(p, c, radius)  # Rulings, Pawn Soccer 6: each pawn receives once in a chain pass

            item = Painted(rect, paint)
            item.setZValue(5)
            item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
            tip = [f"{self.config.team_names[team]} pawn on {pawn['square']}"]
            if pawn["keeper"]:
                tip.append("goalkeeper")
            if pawn["yellow"]:
                tip.append("yellow card: another diagonal steal is a red card")
            if pawn["barred"]:
                # Rulebook, Red card: after one the ball stays loose, and the bar is on taking it.
                tip.append(
                    "lost the ball to a red card: may not take it this turn"
                    if state.get("ball_loose")
                    else "lost the ball: may not steal it back this turn"
                )
            if pawn["ball"]:
                tip.append("has the ball")
            if done:
                tip.append("has received in this chain pass: cannot receive again")
            item.setToolTip("\n".join(tip))
            self.addItem(item)
        ball = state.get("ball")
        if ball and state.get("ball_loose"):
            rect = self.square_rect(ball)

            def paint_ball(p: QPainter, r: QRectF) -> None:
                draw_ball(p, r.center(), r.width() * 0.2)

            item = Painted(rect, paint_ball)
            item.setZValue(6)
            item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
            item.setToolTip("The ball is loose: a pawn moving onto it takes it.")
            self.addItem(item)

    # --- side panel ------------------------------------------------------------------

    def _draw_panel(self, view: dict[str, Any]) -> None:
        state = view["state"]
        x, w = self.panel_x, PANEL_W
        top = ORIGIN.y()
        height = (self.rows + 2) * SQUARE
        self.add_panel(QRectF(x, top, w, height / self.panel_zoom))
        score = view["score"]
        them = 1 - self.me
        y = top + 12
        self.add_text(QPointF(x + 12, y), "PAWN SOCCER", 8.5, MUTED_TEXT, bold=True)
        y += 20
        self._team_row(QRectF(x + 10, y, w - 20, 54), them, state, score[them])
        y += 60
        self._team_row(QRectF(x + 10, y, w - 20, 54), self.me, state, score[self.me])
        y += 66
        goals = state.get("goals_to_win")
        limit = state.get("turn_limit")
        info = []
        if goals:
            info.append("Golden goal" if goals == 1 else f"First to {goals} goals")
        if limit:
            info.append(f"turn {min(turns_finished(state) // 2 + 1, limit)} of {limit} each")
        self.add_text(QPointF(x + 12, y), " · ".join(info), 8.5, MUTED_TEXT, width=w - 24)
        y += 26
        # The prompt follows the clicks (a pawn chosen, the bench chosen), as in the side line:
        # room is kept for what any first click of this position makes it say.
        steps = [self.selection_hint((key,)) for key in self.paths.first_keys()]
        y += max(56.0, self.place_prompt(QPointF(x + 12, y), w - 24, self._status(view), steps)) + 6
        tray = state["to_place"][view["seat"]] if state["phase"] == "setup" and view.get("seat") in (0, 1) else None
        if tray and (tray["clean"] or tray["yellow"]):
            y = self._draw_tray(QPointF(x + 12, y), tray, view["seat"]) + 8
        loose = self.loose_actions()
        if loose:
            y = self.add_action_buttons(
                loose, QPointF(x + 12, y), w - 24, labels={t: self.action_label(t) for t in loose}
            )
        self._draw_legend(*self.key_place(top, height, y))

    def _team_row(self, r: QRectF, side: int, state: dict[str, Any], goals: int) -> None:
        colours, names = self.config.colours, self.config.team_names
        bench_key = ("bench", side)
        substitute = state["substitute"][side]
        reds, yellows = state["reds"][side], state["yellows"][side]
        to_move = state.get("side_to_move") == side

        def paint(p: QPainter, rr: QRectF) -> None:
            draw_team_strip(p, rr, colours.of(side), to_move)
            p.setFont(ui_font(11, bold=True))
            label = names[side] + ("  ◀" if to_move else "")
            p.drawText(
                QRectF(14, 4, rr.width() - 70, 22), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, label
            )
            p.setFont(ui_font(20, bold=True))
            p.drawText(
                QRectF(rr.width() - 52, 0, 44, rr.height()),
                Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                str(goals),
            )

        panel = Painted(r, paint)
        self.addItem(panel)
        if reds or yellows:
            # The side's cards as little card shapes, with words on them under the mouse; the
            # item leaves room round them for their rims.
            def paint_chips(p: QPainter, rr: QRectF) -> None:
                for i in range(reds + yellows):
                    paint_card(p, QRectF(3 + i * 12, 3, 9, 13), red=i < reds)

            chips = Painted(QRectF(r.x() + 11, r.y() + 29, (reds + yellows) * 12 + 3, 19), paint_chips)
            chips.setZValue(2)
            chips.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
            words = []
            if reds:
                words.append(f"{reds} red card{'s' if reds > 1 else ''}: {'pawns' if reds > 1 else 'a pawn'} sent off")
            if yellows:
                words.append(
                    f"{yellows} yellow card{'s' if yellows > 1 else ''} on the pitch: another diagonal steal is a red"
                )
            chips.setToolTip(f"{names[side]}: " + "; ".join(words) + ".")
            self.addItem(chips)
        # The bench: the substitute pawn, clickable while a substitution is legal.
        bench = QRectF(r.x() + r.width() - 138, r.y() + 27, 80, 24)

        def paint_bench(p: QPainter, rr: QRectF) -> None:
            p.setPen(QPen(QColor(255, 255, 255, 60), 1))
            p.setBrush(QColor(0, 0, 0, 60))
            p.drawRoundedRect(rr, 5, 5)
            if substitute:
                draw_token(
                    p,
                    QPointF(rr.height() / 2 + 2, rr.height() / 2),
                    rr.height() * 0.36,
                    colours.of(side),
                    "S",
                    colours.text_on(side),
                )
            p.setPen(MUTED_TEXT if substitute else QColor("#666"))
            p.setFont(ui_font(8))
            # Right of the middle, where a legal click's dot goes (QA: it sat on the word, "be•nch").
            left = rr.width() / 2 + 5 if substitute else rr.height() + 2
            p.drawText(
                QRectF(left, 0, rr.width() - left, rr.height()),
                Qt.AlignmentFlag.AlignVCenter,
                "bench" if substitute else "sub used",
            )
            if bench_key in self.targets or bench_key in self.selection:
                self.paint_marks(p, rr, bench_key)

        item = Painted(bench, paint_bench)
        item.setZValue(3)
        self.addItem(item)
        tip = (
            "Substitute on the bench: once a match, before or after your turn, it can replace a pawn (not an expelled one)."
            if substitute
            else "The substitute has been used."
        )
        self.make_clickable(item, bench_key, tip)

    def _draw_tray(self, origin: QPointF, tray: dict[str, int], seat: int) -> float:
        """Pawns still to set up; the yellow-card pawn is clickable when both kinds are left."""
        colours = self.config.colours
        key = ("tray", "yellow")
        self.add_text(
            origin,
            f"To place: {tray['clean']} pawn(s)" + (f", {tray['yellow']} with a yellow card" if tray["yellow"] else ""),
            8.5,
            MUTED_TEXT,
            width=PANEL_W - 24,
        )
        if not tray["yellow"] or not tray["clean"]:
            return origin.y() + 20
        rect = QRectF(origin.x(), origin.y() + 22, 200, 30)

        def paint(p: QPainter, r: QRectF) -> None:
            draw_token(p, QPointF(15, 15), 11, colours.of(seat))
            paint_card(p, QRectF(20, 2, 8, 11), edge=1)
            p.setPen(PANEL_TEXT)
            p.setFont(ui_font(8))
            # Right of the middle, where a legal click's dot goes, and short of the dashed frame
            # (QA, pawn audit 3: "place a•carded pawr", as the bench was once "be•nch").
            left = r.width() / 2 + 6
            p.drawText(
                QRectF(left, 0, r.width() - left - TRAY_FRAME, r.height()), Qt.AlignmentFlag.AlignVCenter, "carded pawn"
            )
            self.paint_marks(p, r, key)

        item = Painted(rect, paint)
        self.addItem(item)
        self.make_clickable(item, key, "A pawn that keeps its yellow card: click it, then a square.")
        return rect.bottom()

    def _status(self, view: dict[str, Any]) -> str:
        state = view["state"]
        names = self.config.team_names
        phase = state["phase"]
        mine = bool(view["legal"])
        side = state.get("side_to_move")
        who = names[side] if side in (0, 1) else ""
        if view.get("terminal") or phase == "over":
            if state.get("forfeit") is not None:
                return f"{names[state['forfeit']]} wins by forfeit."
            return self.full_time_words(view)
        if phase == "penalty":
            penalty = state["penalty"]
            if mine:
                aim = "aim your shot." if penalty["taker"] == view["seat"] else "where your keeper dives."
                return f"Penalty! Click a goal square: {aim}"
            if penalty.get("mine"):
                return f"Penalty: you chose goal square {penalty['mine']}; waiting for the other side…"
            return "Penalty: waiting for the choices…"
        texts = {
            "setup": "Set-up: click squares in your half to place your pawns."
            if mine
            else f"Set-up: {who} places a pawn.",
            "toss": "Coin toss for the kick-off…",
            "kickoff": "Kick-off: click the pawn that takes the ball to the centre."
            if mine
            else f"{who} chooses the kick-off pawn.",
            "turn": (
                "Kick-off: pass or kick to an empty square."
                if state.get("kickoff_turn")
                else "Your turn: click a pawn, then a highlighted square."
            )
            + (
                " Your substitute may come on first: bench, then a pawn."
                if any(t.startswith("sub ") for t in view.get("legal") or [])
                else ""
            )
            if mine
            else f"{who} to play.",
            "chain": "Chain pass: pass again from the receiver, or stop." if mine else f"{who} is passing.",
            "after_turn": "Substitute now (bench, then a pawn) or end the turn." if mine else f"{who} may substitute.",
            "keeper": "Your goalkeeper was sent off: move a pawn into the goal-kick area, or leave it empty."
            if mine
            else f"{who} replaces the goalkeeper.",
            "penalty_keeper": "Move a pawn into goal to face the penalty." if mine else f"{who} puts a pawn in goal.",
        }
        return texts.get(phase, "")
