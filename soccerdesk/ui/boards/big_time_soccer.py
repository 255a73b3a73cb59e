"""The Big Time Soccer board: the 18-zone field seen from the viewer's side, the ball, the
viewer's hand of action cards, the piles, the yellow/red chits and the last d20 roll.

Drawn only from ``view["state"]`` (format in :mod:`soccerdesk.rules.big_time_soccer`); what
each card code means (type, direction, next, defence, no-play rows) is read from the game's
content file ``resources/games/big-time-soccer.toml``, which every client has.

Zones are named in the viewer's own frame (D1 at the bottom, L on the left), like the
action texts. Clicks (every text of ``view["legal"]``):

* ``play CARD ZONE``: the card in the hand, then a highlighted zone;
* ``passback CARD``: a Pass card, then your goalkeeper (your goal, at the bottom);
* ``shoot CARD``: a Shot card, then the opponent's goal (``shoot free``: the goal alone);
* ``clear-in ZONE`` / ``clear-out ZONE``: the clear button, then a zone (``clear-out
  goal-line``: then the opponent's goal line);
* ``discard CARD``, ``reply CARD``: the card;
* ``aimed-kick ZONE``, ``throw-in ZONE``: the zone;
* ``hold``, ``clear-box``, ``goal-kick``, ``free-kick``, ``discard none``, ``reply none``,
  ``propose-end``, ``accept-end``, ``decline-end``: buttons.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import QPointF, QRectF, QSizeF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QLinearGradient, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem

from soccerdesk.resources import load_game_data
from soccerdesk.ui.boards.base import BoardConfig
from soccerdesk.ui.boards.drawing import (
    CARD_BACK,
    CARD_FACE,
    DANGER,
    KEY_TITLE_LINE,
    MUTED_TEXT,
    PANEL_TEXT,
    PREVIEW,
    SELECTED,
    SMALLEST_ON_SCREEN,
    TARGET,
    ZOOM_STEP,
    ClickBoard,
    Key,
    Painted,
    draw_ball,
    draw_d20,
    draw_target_mark,
    draw_team_strip,
    text_extent,
    ui_font,
)
from soccerdesk.ui.palette import GRASS_DARK, GRASS_LIGHT, LINE

GAME = "big-time-soccer"
ROWS = ("D1", "D2", "M1", "M2", "A1", "A2")
COLUMNS = ("L", "C", "R")
ZONE_W, ZONE_H = 118.0, 70.0
FIELD = QRectF(44.0, 46.0, 3 * ZONE_W, 6 * ZONE_H)
GOAL_DEPTH = 22.0
HAND_ORIGIN = QPointF(FIELD.x() - 30, FIELD.bottom() + GOAL_DEPTH + 14)  # the hand's title, its cards under it
HAND_TITLE = 20.0
PANEL = QRectF(FIELD.right() + 30, 14.0, 300.0, HAND_ORIGIN.y() + HAND_TITLE - 6 - 14)
"""The side panel at its own size; a board drawn small makes it wider (:meth:`Board.panel_rect`)."""
BUTTON = QSizeF((PANEL.width() - 24 - 6) / 2, 30.0)  # the panel's buttons, two a row
BUTTON_LEAST = 118.0  # a wider panel (a small window) has more buttons a row, none narrower than this
FACE = QSizeF(111.0, 86.0)
"""A hand card lies on its side: the card's little field on the left, its icons and name on
the right, its name on up to four lines at 8 points (upright, a card 92 wide had its name at
3 to 7 points; wide enough for 8, a hand of six was wider than a small window)."""
HAND_GAP = 2.0
CHOSEN_LIFT = 3.0  # how far a chosen card in the hand stands up out of its row
TEAMS_SIDE_BY_SIDE = 400.0  # a panel at least this wide (at its own size) shows the teams on one row

KIND_COLOURS = {
    "pass": QColor("#2f6fd1"),
    "dribble": QColor("#2b8f4e"),
    "any": QColor("#7b4fc9"),
    "shot": QColor("#c23b2b"),
    "challenge": QColor("#444c58"),
    "intercept": QColor("#444c58"),
    "star": QColor("#a0781a"),
}
NO_PLAY = QColor("#9b4a2c")  # the rulebook's red-brown "not here" area
KIND_WORDS = {
    "pass": "Pass",
    "dribble": "Dribble",
    "any": "Any direction",
    "shot": "Shot at Net",
    "challenge": "Challenge",
    "intercept": "Intercept",
    "star": "Challenge/Intercept + Star",
}
DIRECTION_STEPS = {
    "ahead": (1, 0),
    "diagonal-left": (1, -1),
    "diagonal-right": (1, 1),
    "left": (0, -1),
    "right": (0, 1),
}
BUTTON_LABELS = {
    "hold": "Hold the ball",
    "clear-box": "Clear (goal kick to them)",
    "goal-kick": "Goal Kick chart",
    "free-kick": "Take it here",
    "discard none": "Keep all cards",
    "reply none": "Let it go",
    "propose-end": "Propose to end the half",
    "accept-end": "Accept: end the half",
    "decline-end": "Decline: play on",
    "shoot free": "Free Outside shot",
}
MODE_LABELS = {"clear-in": "Clear (in play)", "clear-out": "Clear (out of play)"}
LONGEST_STEPS = (
    "Pass Diagonal Right 2 + Outside Shot: click a highlighted zone or your goalkeeper (pass back) or the goal to shoot.",
)
"""The longest prompt a chosen card or clear may bring (:meth:`Board.selection_hint`): the panel
keeps room for it."""
RESTARTS = frozenset({"goal", "end", "toss", "kickoff"})
"""Events after which the ball is set for a kick-off (a goal, the toss, the second half's) or
the match has ended (a shootout's end)."""
BALL_PLAYS = ("play ", "shoot", "hold", "passback")
"""Actions of the side in control besides the clears (and an offer to end the half)."""

ZONE_VERBS = {**MODE_LABELS, "aimed-kick": "Aimed kick", "throw-in": "Throw in"}
CARD_VERBS = {
    "passback": "Pass back to the keeper with {}",
    "shoot": "Shoot with the {} card",
    "discard": "Discard {}",
    "reply": "Answer with {}",
}
NEXT_CARD_IN_NAME = re.compile(r", then (Pass|Dribble)(?: \(([^)]*)\))?")
"""The tail of a card's name that names the next card's kind (and where the card may not be
played, in brackets after it, for four dribbles)."""

SIDE_WORDS = {"L": "left", "C": "centre", "R": "right"}
# A zone named in an event text, with the words that tie it to the mover's own frame
# ("in its D1L", "in seat 1's M2C"): the board names it in the reader's frame instead.
ZONE_IN_TEXT = re.compile(r"(?:\b(?:its|[Ss]eat [01]'s) )?\b((?:D|M|A)[12])([LCR])\b")


ROLL_WORDS = {
    "aimed": "aimed goal kick",
    "defense": "defence",
    "red": "red card?",
    "stoppage": "stoppage time",
    "shootout": "shoot-out kick",
}


def roll_words(chart: str) -> str:
    """What a d20 roll decides, in words ("goal_kick" -> "goal kick", "red" -> "red card?")."""
    return ROLL_WORDS.get(chart, chart.replace("_", " "))


def zone_words(zone: str) -> str:
    """``"A1C"`` -> ``"A1 centre"`` (the zone's row, then its side of the field)."""
    return f"{zone[:2]} {SIDE_WORDS[zone[2]]}" if len(zone) == 3 and zone[2] in SIDE_WORDS else zone


def load_cards() -> dict[str, dict[str, Any]]:
    """Card code -> its description from the content file."""
    return {card["code"]: dict(card) for card in load_game_data(GAME)["cards"]}


def card_tooltip(card: Mapping[str, Any]) -> str:
    """What a card does, in words, for its tooltip."""
    kind = card["kind"]
    lines = [card["name"]]
    if kind in ("pass", "dribble", "any"):
        dirs = ", ".join(d.replace("-", " ") for d in card.get("directions", ()))
        distance = card.get("distance", 1)
        lines.append(f"Moves the ball {dirs} {'1 or 2 zones' if distance == 2 else '1 zone'}.")
        nxt = card.get("next", "any")
        lines.append("Next card: either type." if nxt == "any" else f"Next card must be a {nxt.title()}.")
        if not card.get("defensible", True):
            lines.append("No defence may answer it.")
        else:
            lines.append("An Intercept may answer it." if kind == "pass" else "A Challenge may answer it.")
        if card.get("outside_shot"):
            lines.append("Ending in a non-box A zone, it allows a free Outside shot.")
    elif kind == "shot":
        lines.append(
            "Only from your A zones; "
            + ("from the box, or as an Outside shot." if card.get("inside") else "not from the box (A2C).")
        )
    elif kind == "star":
        lines.append("Answers a Pass or a Dribble; fewer fouls. Best used in your own box.")
    else:
        lines.append(f"Answers your opponent's {'Dribble' if kind == 'challenge' else 'Pass'} after the ball moves.")
    if card.get("no_play"):
        lines.append("Not playable in your " + ", ".join(card["no_play"]) + ".")
    return "\n".join(lines)


class Board(ClickBoard):
    """Big Time Soccer board scene (see the module docstring for the click paths)."""

    KEYBOARD_LAST = frozenset({"accept-end", "propose-end"})

    def __init__(self, config: BoardConfig, parent: Any = None) -> None:
        super().__init__(config, parent)
        self.cards = load_cards()
        self._tips: dict[str, str] = {}
        self.last_roll: tuple[int, str] | None = None
        self.viewer = 0 if config.perspective is None else config.perspective
        self._ball_before: int | None = None
        self._ball_now: int | None = None
        self.setSceneRect(QRectF(QPointF(0, 0), self._extent(1.0)))

    @property
    def me(self) -> int:
        """The seat whose frame the field is drawn in: the view's own seat (hot-seat: whoever
        acts, since action texts name zones in the actor's frame), else the configured side."""
        return self.viewer

    def render(self, view: dict[str, Any], events: list[dict[str, Any]]) -> None:  # type: ignore[override]
        seat = view.get("seat")
        self.viewer = seat if seat in (0, 1) else (self.config.perspective or 0)
        super().render(view, events)

    def static_signature(self, view: dict[str, Any]) -> Any:
        return self.viewer

    # --- layout for the size the board is shown at -------------------------------------

    # The hand's cards lie on their side (``FACE``), in one row under the field and the side
    # panel. A board shown under its own size (:meth:`fit_to`) draws the hand and the panel
    # :attr:`panel_zoom` times bigger: on screen they keep their own size while the field takes
    # what is left. (Upright, a card's name had to be drawn at 3 to 7 points.)

    def smallest_button_text(self) -> float:
        # The panel's buttons are tall enough for two lines at 8 points; at zoom 1 the board is
        # shown at its own size or bigger.
        return SMALLEST_ON_SCREEN

    def _hand_extent(self) -> QSizeF:
        """The hand's size at zoom 1, its title included: six cards (or more) in a row."""
        state = (self.view_data or {}).get("state") or {}
        cards = max(6, len(state.get("hand") or []))
        return QSizeF(cards * (FACE.width() + HAND_GAP), HAND_TITLE + FACE.height())

    def panel_rect(self) -> QRectF:
        """Where the side panel stands on the board (scene units): right of the field, above the
        hand's cards, as wide as the hand reaches (zoomed, a panel wider than its own size)."""
        return self._panel_rect(self.panel_zoom, self._hand_extent())

    @staticmethod
    def _panel_rect(zoom: float, hand: QSizeF) -> QRectF:
        width = max(PANEL.width() * zoom, HAND_ORIGIN.x() + zoom * hand.width() - PANEL.x())
        # Down to the cards: the hand's title stands under the field, left of the panel.
        return QRectF(PANEL.x(), PANEL.y(), width, PANEL.height() + (zoom - 1) * HAND_TITLE)

    def _extent(self, zoom: float) -> QSizeF:
        """The board's size (scene units) at ``zoom``."""
        hand = self._hand_extent()
        panel = self._panel_rect(zoom, hand)
        return QSizeF(panel.right() + 4, HAND_ORIGIN.y() + zoom * hand.height() + 10)

    def fit_to(self, room: QSizeF, bounds: QRectF) -> bool:
        """The layout for a view of ``room`` pixels: the least zoom of the hand and the panel
        that keeps them at their own size on screen (1 where the board is shown at its own
        size or bigger); the field's labels grow to stay readable while it is drawn small."""
        if room.isEmpty():
            return False

        def scale(zoom: float) -> float:
            extent = self._extent(zoom)
            # With the view's margins, and the row names, which grow left of x = 0 (a small window).
            return min(room.width() / (extent.width() + 30), room.height() / (extent.height() + 12))

        zoom = 1.0
        while zoom * scale(zoom) < 1 and zoom < 6:
            zoom = round(zoom + ZOOM_STEP, 2)
        return self.lay_out(zoom, scale(zoom), step=0.01)

    # --- geometry: absolute zone (seat 0's grid) <-> the viewer's frame -------------------

    def own(self, absolute: int) -> tuple[int, int]:
        """(row, column) of an absolute zone in the viewer's frame."""
        row, col = divmod(absolute, 3)
        return (row, col) if self.me == 0 else (5 - row, 2 - col)

    def zone_name(self, row: int, col: int) -> str:
        return ROWS[row] + COLUMNS[col]

    def zone_rect(self, name: str) -> QRectF:
        """Rectangle of a zone named in the viewer's frame (own D1 at the bottom)."""
        row, col = ROWS.index(name[:2]), COLUMNS.index(name[2])
        return QRectF(FIELD.x() + col * ZONE_W, FIELD.y() + (5 - row) * ZONE_H, ZONE_W, ZONE_H)

    def mirrored(self, zone: str, seat: int, reader: int | None = None) -> str:
        """A zone named in ``seat``'s frame, named in the frame of ``reader`` (default: the
        viewer's frame the field is drawn in; the other frame is the field turned round)."""
        if seat == (self.me if reader is None else reader) or len(zone) != 3:
            return zone
        return ROWS[5 - ROWS.index(zone[:2])] + COLUMNS[2 - COLUMNS.index(zone[2])]

    def event_text(self, event: dict[str, Any], reader: int | None = None) -> str:
        """The rules name zones in the frame of the team the event is about ("Seat 1 plays
        Pass Ahead 2 to A1C"); the reader sees them on this board, in the viewer's frame
        ("... to D2 centre"), or in ``reader``'s frame when given."""
        # A card's name ends with the kind of card that must follow ("Pass Right 1, then
        # Dribble"): in a sentence that read as a second card played.
        # One bracket, not two in a row, for a card that also says where it may not be played.
        text = NEXT_CARD_IN_NAME.sub(
            lambda m: f" (next: {m.group(1)}{'; ' + m.group(2) if m.group(2) else ''})", str(event.get("text", ""))
        )
        seat = (event.get("data") or {}).get("seat")
        if seat not in (0, 1):
            return text
        return ZONE_IN_TEXT.sub(lambda m: zone_words(self.mirrored(m.group(1) + m.group(2), seat, reader)), text)

    def remember_rolls(self, events: list[dict[str, Any]], *, anew: bool = False) -> None:
        """The die shows the last roll among ``events`` (``anew``: and none before them: a
        replay stepping back must not show a roll still to come)."""
        if anew:
            self.last_roll = None
        for event in events:
            if event.get("kind") == "roll" and "roll" in event.get("data", {}):
                self.last_roll = (int(event["data"]["roll"]), str(event["data"].get("chart", "")))

    def card_name(self, code: str) -> str:
        card = self.cards.get(code)
        return short_name(card) if card else super().card_name(code)

    def key_words(self, key: Key) -> str:
        if key == ("goal",):
            return "the goal"
        if key == ("keeper",):
            return "your goalkeeper"
        if key[0] == "mode":
            return f'the "{MODE_LABELS.get(key[1], key[1])}" button'
        return super().key_words(key)

    # --- click paths ---------------------------------------------------------------------

    def click_paths(self, view: dict[str, Any]) -> dict[str, tuple[Key, ...]]:
        paths: dict[str, tuple[Key, ...]] = {}
        for text in view["legal"]:
            verb, _, arg = text.partition(" ")
            if verb == "play":
                code, _, zone = arg.partition(" ")
                paths[text] = (("card", code), ("zone", zone))
            elif verb == "passback":
                paths[text] = (("card", arg), ("keeper",))
            elif verb == "shoot":
                paths[text] = (("goal",),) if arg == "free" else (("card", arg), ("goal",))
            elif verb in ("clear-in", "clear-out"):
                paths[text] = (("mode", verb), ("goal",) if arg == "goal-line" else ("zone", arg))
            elif verb in ("discard", "reply") and arg != "none":
                paths[text] = (("card", arg),)
            elif verb in ("aimed-kick", "throw-in"):
                paths[text] = (("zone", arg),)
        return paths

    def action_label(self, text: str) -> str:
        if text in BUTTON_LABELS:
            return BUTTON_LABELS[text]
        verb, _, arg = text.partition(" ")
        if verb == "passback":
            return "Pass back to keeper"
        if verb == "shoot":
            return "Shoot" if arg != "free" else BUTTON_LABELS["shoot free"]
        if verb == "play":
            return f"Play to {arg.split()[-1]}"
        return text

    def describe(self, action_text: str) -> str:
        if action_text in BUTTON_LABELS:
            return BUTTON_LABELS[action_text]
        words = action_text.split()
        verb = words[0]
        card = self.cards.get(words[1]) if len(words) > 1 else None
        name = short_name(card) if card else ""
        if verb == "shoot" and card:
            name = str(card.get("name", "")).split(" - ")[-1]  # "Shot at Net - Inside the Box"
        if verb == "play" and card and len(words) == 3:
            return f"Play {name} to {zone_words(words[2])}"
        if verb in ("clear-in", "clear-out", "aimed-kick", "throw-in") and len(words) == 2:
            where = "the goal line" if words[1] == "goal-line" else zone_words(words[1])
            return f"{ZONE_VERBS[verb]} to {where}"
        if card and verb in CARD_VERBS:
            return CARD_VERBS[verb].format(name)
        return super().describe(action_text)

    # --- hints -------------------------------------------------------------------------

    def selection_hint(self, selection: tuple[Key, ...]) -> str:
        if not selection:
            return ""
        head = selection[0]
        if head[0] == "mode":
            return f"{MODE_LABELS[head[1]]}: click a highlighted zone" + (
                " or the goal line." if ("goal",) in self.targets else "."
            )
        if head[0] == "card":
            name = self.cards.get(head[1], {}).get("name", head[1])
            places = []
            if any(k[0] == "zone" for k in self.targets):
                places.append("a highlighted zone")
            if ("keeper",) in self.targets:
                places.append("your goalkeeper (pass back)")
            if ("goal",) in self.targets:
                places.append("the goal to shoot")
            return f"{name}: click " + " or ".join(places) + "."
        return ""

    def refusal_hint(self, selection: tuple[Key, ...], key: Key) -> str:
        view = self.view_data
        if not view or not view["legal"]:
            if view and view["state"].get("rolling"):
                return "Wait for the die."
            return "It is not your turn."
        state = view["state"]
        phase = state["phase"]
        ball = self.zone_name(*self.own(state["ball"]))
        if key[0] == "card":
            card = self.cards.get(key[1], {})
            kind = card.get("kind", "")
            if phase == "reply":
                played = (state.get("pending") or {}).get("card")
                played_kind = self.cards.get(played, {}).get("kind", "") if played else ""
                if kind not in ("challenge", "intercept", "star"):
                    return "Only a defensive card (C, I or Star) can answer, or let it go."
                if played_kind == "any":
                    return "No defence may answer an Any Direction card."
                if (
                    kind == "challenge"
                    and played_kind != "dribble"
                    and (state.get("pending") or {}).get("kind") != "hold"
                ):
                    return "A Challenge answers a Dribble (or a hold), not a Pass."
                if kind == "intercept" and played_kind != "pass":
                    return "An Intercept answers a Pass, not a Dribble."
                return f"That card can't be played with the ball in {ball}."
            if phase != "play":
                return "Choose one of the highlighted options now."
            if kind in ("challenge", "intercept", "star"):
                return "Defensive cards are played in reply to your opponent's Pass or Dribble."
            if kind == "shot":
                if not ball.startswith("A"):
                    return "Shots are taken only from your A zones."
                return "An Outside shot can't be taken from the box (A2C)."
            nxt = state.get("next")
            if nxt in ("pass", "dribble") and kind not in (nxt, "any"):
                return f"Your last card calls for a {nxt.title()} card next."
            if ball[:2] in card.get("no_play", ()):
                return f"This card can't be played from your {ball[:2]}."
            return f"This card can't move the ball from {ball} anywhere on the field."
        if key[0] in ("zone", "goal", "keeper"):
            if selection and selection[0][0] == "card":
                name = self.cards.get(selection[0][1], {}).get("name", "That card")
                if key[0] == "goal":
                    return "Only a Shot card shoots, from your A zones."
                if key[0] == "keeper":
                    return "A pass back needs a Pass card, from your D1 or a non-box D2 zone, once per possession."
                return f"{name} can't take the ball to {key[1]}."
            if selection and selection[0][0] == "mode":
                return "A clear goes 1 diagonal forward, 1–2 ahead or across, or a knight's move forward."
            if key[0] == "goal" and phase == "play":
                return "Choose a Shot card first (from your A zones)."
            return "Choose a card from your hand first (or a clear)."
        return "That can't be used now."

    # --- drawing -----------------------------------------------------------------------

    def set_view(self, view: dict[str, Any], events: list[dict[str, Any]] | None = None) -> None:
        self.remember_rolls(events or [])
        ball = view.get("state", {}).get("ball")
        if ball != self._ball_now:
            # Remember where the ball came from, to trace its last move on the field.
            self._ball_before, self._ball_now = self._ball_now, ball
        if any(e.get("kind") in RESTARTS for e in events or []):
            self._ball_before = None  # put on the centre spot again: nobody passed it there
        super().set_view(view, events)

    def draw_static(self, view: dict[str, Any]) -> None:
        self._draw_field()

    def draw(self, view: dict[str, Any], events: list[dict[str, Any]]) -> None:
        state = view["state"]
        before = self._ball_before
        self.traced: tuple[str, str] | None = None  # the ball's last move drawn (zones as shown)
        if before is not None and self._ball_now == state["ball"]:
            names = [self.zone_name(*self.own(zone)) for zone in (before, state["ball"])]
            self.traced = (names[0], names[1])
            self.add_route([self.zone_rect(name).center() + QPointF(0, 4) for name in names], end_dot=False, alpha=90)
        self._draw_ball(state)
        self._draw_hand(view)
        self._draw_panel(view)

    def _draw_field(self) -> None:
        colours = self.config.colours
        them = 1 - self.me

        def paint(p: QPainter, r: QRectF) -> None:
            field = QRectF(
                FIELD.x() - 14, FIELD.y() - GOAL_DEPTH - 10, FIELD.width() + 28, FIELD.height() + 2 * GOAL_DEPTH + 20
            )
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QColor("#22302a"))
            p.drawRoundedRect(field.translated(-self._field_origin()), 12, 12)
            for i in range(12):
                p.setBrush(GRASS_LIGHT if i % 2 else GRASS_DARK)
                p.drawRect(
                    QRectF(FIELD.x(), FIELD.y() + i * ZONE_H / 2, FIELD.width(), ZONE_H / 2).translated(
                        -self._field_origin()
                    )
                )
            p.setPen(QPen(LINE, 2.2))
            p.setBrush(Qt.BrushStyle.NoBrush)
            f = FIELD.translated(-self._field_origin())
            p.drawRect(f)
            p.drawLine(QPointF(f.left(), f.center().y()), QPointF(f.right(), f.center().y()))
            p.drawEllipse(f.center(), ZONE_H * 0.55, ZONE_H * 0.55)
            # The boxes: each side's D1C zone.
            for top in (True, False):
                box = QRectF(f.x() + ZONE_W, f.top() if top else f.bottom() - ZONE_H, ZONE_W, ZONE_H)
                p.drawRect(box.adjusted(-8, 0, 8, 0))
            # Zone grid, faint.
            p.setPen(QPen(QColor(255, 255, 255, 60), 1, Qt.PenStyle.DashLine))
            for c in (1, 2):
                p.drawLine(QPointF(f.x() + c * ZONE_W, f.top()), QPointF(f.x() + c * ZONE_W, f.bottom()))
            for rr in range(1, 6):
                p.drawLine(QPointF(f.left(), f.top() + rr * ZONE_H), QPointF(f.right(), f.top() + rr * ZONE_H))
            # Goals: the opponent's at the top, the viewer's own at the bottom.
            for top, side in ((True, them), (False, self.me)):
                goal = QRectF(f.x() + ZONE_W + 18, f.top() - GOAL_DEPTH if top else f.bottom(), ZONE_W - 36, GOAL_DEPTH)
                p.setBrush(QColor("#dfe6ea"))
                p.setPen(QPen(colours.of(side), 3))
                p.drawRect(goal)

        origin = self._field_origin()
        item = Painted(QRectF(origin, QPointF(FIELD.right() + 14, FIELD.bottom() + GOAL_DEPTH + 10)), paint)
        item.setZValue(-10)
        # The pitch never changes within a match: painted once per zoom, then copied.
        item.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.addItem(item)
        # Row and column names in the viewer's frame.
        label = self.label_size(8)
        for name in ROWS:
            rect = self.zone_rect(name + "L")
            # Right-aligned at the field's frame: drawn big (a small window), it grows leftwards.
            extent = text_extent(name, label, bold=True)
            self.add_text(
                QPointF(28 - extent.width() - 4, rect.center().y() - extent.height() / 2),
                name,
                label,
                MUTED_TEXT,
                bold=True,
                width=extent.width() + 4,
                align=Qt.AlignmentFlag.AlignRight,
            )
        for col, name in enumerate(COLUMNS):
            rect = self.zone_rect("A2" + name)
            if col != 1:
                self.add_text(
                    QPointF(rect.x(), FIELD.y() - GOAL_DEPTH - 4 - text_extent(name, label, bold=True).height() / 2),
                    name,
                    label,
                    MUTED_TEXT,
                    bold=True,
                    width=ZONE_W,
                    align=Qt.AlignmentFlag.AlignHCenter,
                )
        self._draw_zone_items()
        self._draw_goal_items()

    def _field_origin(self) -> QPointF:
        return QPointF(FIELD.x() - 14, FIELD.y() - GOAL_DEPTH - 10)

    def _draw_zone_items(self) -> None:
        """A clickable item per zone with its name, tooltip and marks."""
        size = self.label_size(7.5)
        for row in range(6):
            for col in range(3):
                name = self.zone_name(row, col)
                key = ("zone", name)
                rect = self.zone_rect(name)

                def paint(p: QPainter, r: QRectF, name: str = name, key: Key = key, size: float = size) -> None:
                    p.setPen(QColor(255, 255, 255, 120))
                    p.setFont(ui_font(size, bold=True))
                    # Inset past the box lines, which stand 8 units into the side zones.
                    p.drawText(r.adjusted(12, 5, -6, -4), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, name)
                    self.paint_marks(p, r, key)

                item = Painted(rect, paint)
                self.addItem(item)
                tip = [name]
                if name == "D1C":
                    tip.append("Your box: a foul here gives your opponent a penalty.")
                elif name == "A2C":
                    tip.append("Opponent's box: Inside shots are taken from here.")
                elif name.startswith("A"):
                    tip.append("Attack zone: Outside shots are taken from here.")
                self.make_clickable(item, key, "\n".join(tip))

    def _draw_goal_items(self) -> None:
        """The opponent's goal (shots, clears over the goal line) and your goalkeeper (pass back)."""
        f = FIELD
        for key, rect, tip in (
            (
                ("goal",),
                QRectF(f.x() + ZONE_W + 18, f.top() - GOAL_DEPTH, ZONE_W - 36, GOAL_DEPTH),
                "The opponent's goal: shoot here; a clear out over this line gives a goal kick.",
            ),
            (
                ("keeper",),
                QRectF(f.x() + ZONE_W + 18, f.bottom(), ZONE_W - 36, GOAL_DEPTH),
                "Your goalkeeper: discard a Pass card to pass back to him (then a goal kick).",
            ),
        ):

            def paint(p: QPainter, r: QRectF, key: Key = key) -> None:
                p.setPen(QPen(QColor("#9aa8b0"), 0.8))
                step = r.height() / 3
                for i in range(1, int(r.width() / step)):
                    p.drawLine(QPointF(r.left() + i * step, r.top()), QPointF(r.left() + i * step, r.bottom()))
                for i in (1, 2):
                    p.drawLine(QPointF(r.left(), r.top() + i * step), QPointF(r.right(), r.top() + i * step))
                if key == ("keeper",):
                    p.setPen(Qt.PenStyle.NoPen)
                    p.setBrush(self.config.colours.of(self.me).darker(130))
                    p.drawEllipse(r.center(), r.height() * 0.34, r.height() * 0.34)
                self.paint_marks(p, r.adjusted(-6, -6, 6, 6), key)

            item = Painted(rect, paint)
            item.setZValue(1)
            self.addItem(item)
            self.make_clickable(item, key, tip)

    def draw_overlay(self) -> None:
        """Lines from the ball to the zones the selected card or clear (or the previewed action) reaches."""
        super().draw_overlay()
        if self.view_data is None:
            return
        zones = []
        if self.preview is not None:
            zones = [k[1] for k in self.paths.paths.get(self.preview, ()) if k[0] == "zone"]
        elif self.selection and self.selection[0][0] in ("card", "mode"):
            zones = sorted(k[1] for k in self.targets if k[0] == "zone")
        ball = self.zone_rect(self.zone_name(*self.own(self.view_data["state"]["ball"]))).center() + QPointF(0, 4)
        for zone in zones:
            self.add_route([ball, self.zone_rect(zone).center()], dashed=True, end_dot=True, alpha=180)

    def _draw_ball(self, state: dict[str, Any]) -> None:
        row, col = self.own(state["ball"])
        rect = self.zone_rect(self.zone_name(row, col))
        control = state.get("control")
        colours = self.config.colours

        def paint(p: QPainter, r: QRectF) -> None:
            c = r.center() + QPointF(0, 4)
            if control in (0, 1):
                p.setPen(QPen(colours.of(control), 4))
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawEllipse(c, 19, 19)
            draw_ball(p, c, 13)

        item = Painted(rect, paint)
        item.setZValue(4)
        item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        if control in (0, 1):
            item.setToolTip(f"The ball, controlled by {self.config.team_names[control]}")
        self.addItem(item)

    # --- cards -------------------------------------------------------------------------

    def _draw_hand(self, view: dict[str, Any]) -> None:
        state = view["state"]
        hand = state.get("hand") or []
        seat = view.get("seat")
        if seat is None:
            title = "HANDS ARE HIDDEN"
        elif seat == self.me and not self.config.reveal_all:  # a replay is nobody's: names
            title = "YOUR HAND"
        else:  # the replay viewer shows either hand from one side of the field
            title = f"{self.config.team_names[seat].upper()}'S HAND"
        limit = state["hand_limits"][seat] if seat is not None else 0
        slots = limit if limit and len(hand) < limit and state["phase"] != "over" else len(hand)
        with self.zoomed_panel(HAND_ORIGIN):
            # High enough that a chosen card, lifted with its frame, stays clear of it (it ran
            # through "YOUR HAND": new-user audit, 7 December).
            self.add_text(HAND_ORIGIN + QPointF(0, 1), title, 8, MUTED_TEXT, bold=True)
            for index in range(slots):
                rect = self._card_slot(index)
                if index >= len(hand):
                    self.addItem(Painted(rect, paint_slot))
                    continue
                code = hand[index]
                key = ("card", code)
                card = self.cards.get(code, {"code": code, "name": code, "kind": "pass"})

                def paint(p: QPainter, r: QRectF, card: dict[str, Any] = card, key: Key = key) -> None:
                    lit = key in self.targets
                    chosen = key in self.selection
                    shown = key in self.preview_keys()
                    if chosen:
                        p.translate(0, -CHOSEN_LIFT)
                    paint_card_on_its_side(p, r, card)
                    edge = SELECTED if chosen else PREVIEW if shown else TARGET if lit else None
                    if edge is not None:
                        pen = QPen(edge, 3.2)
                        if lit and not chosen and not shown:
                            pen.setStyle(Qt.PenStyle.DashLine)
                        p.setPen(pen)
                        p.setBrush(Qt.BrushStyle.NoBrush)
                        p.drawRoundedRect(r.adjusted(-2, -2, 2, 2), 9, 9)

                item = Painted(rect, paint)
                item.setZValue(10)
                self.addItem(item)
                self.make_clickable(item, key, self._card_tip(code, card))

    def _card_slot(self, index: int) -> QRectF:
        """Where the hand's ``index``-th card lies, at zoom 1 from ``HAND_ORIGIN``."""
        return QRectF(
            HAND_ORIGIN.x() + index * (FACE.width() + HAND_GAP),
            HAND_ORIGIN.y() + HAND_TITLE,
            FACE.width(),
            FACE.height(),
        )

    def _card_tip(self, code: str, card: Mapping[str, Any]) -> str:
        tip = self._tips.get(code)
        if tip is None:
            tip = self._tips[code] = card_tooltip(card)
        return tip

    # --- side panel ---------------------------------------------------------------------

    def _draw_panel(self, view: dict[str, Any]) -> None:
        panel = self.panel_rect()
        with self.zoomed_panel(panel.topLeft()) as zoom:
            self._draw_panel_content(view, QRectF(panel.topLeft(), panel.size() / zoom))

    def _draw_panel_content(self, view: dict[str, Any], panel: QRectF) -> None:
        """The side panel in ``panel`` (at zoom 1, from its top left corner)."""
        state = view["state"]
        names = self.config.team_names
        x, y, w = panel.x(), panel.y(), panel.width()
        self.add_panel(panel)
        score = view["score"]
        them = 1 - self.me
        half = state.get("half", 1)
        header = {1: "1st half", 2: "2nd half", 3: "Shoot-out"}.get(half, f"half {half}")
        heading = f"BIG TIME SOCCER · {header.upper()} · {state.get('mode', '').upper()}"
        self.add_text(QPointF(x + 12, y + 8), heading, 8, MUTED_TEXT, bold=True)
        # Where the key's title has no room at the panel's foot, it goes right of the heading.
        heading_w = text_extent(heading, 8, bold=True).width() + 12
        beside_heading = QRectF(x + 12 + heading_w, y + 8, w - 24 - heading_w, KEY_TITLE_LINE)
        y += 30
        # A panel made wider (a small window: as wide as the hand under it) saves height with
        # the two teams on one row.
        beside = w >= TEAMS_SIDE_BY_SIDE
        team_w = (w - 26) / 2 if beside else w - 20
        for index, side in enumerate((them, self.me)):
            left = x + 10 + (index * (team_w + 6) if beside else 0)
            self._team_line(QRectF(left, y, team_w, 44), side, state, score[side])
            y += 0 if beside and index == 0 else 50
        shootout = state.get("shootout")
        if shootout:
            self.add_text(
                QPointF(x + 12, y),
                f"Shoot-out: {names[0]} {shootout['goals'][0]}/{shootout['kicks'][0]} · {names[1]} {shootout['goals'][1]}/{shootout['kicks'][1]}",
                9,
                PANEL_TEXT,
                width=w - 24,
            )
            y += 20
        # Piles and the die.
        self._draw_piles(QRectF(x + 10, y + 4, min(w, PANEL.width()) - 20, 96), state)
        y += 108
        # The prompt follows the clicks: a card chosen, it asks where it goes.
        y += self.place_prompt(QPointF(x + 12, y), w - 24, self._status(view), LONGEST_STEPS) + 8
        nxt = state.get("next")
        control = state.get("control")
        if nxt and control in (0, 1):
            yours = control == view.get("seat") and not self.config.reveal_all
            whose = "Your" if yours else f"{names[control]}'s"
            kind = "Pass or Dribble" if nxt == "any" else nxt.title()
            self.add_text(QPointF(x + 12, y), f"{whose} next card must be: {kind}", 9, MUTED_TEXT)
            y += 18
        notes = []
        if control == view.get("seat"):
            if state.get("free_shot"):
                notes.append("Free Outside shot available: click the goal.")
            if state.get("hold_blocked"):
                notes.append("No hold before a Pass or Dribble card (you just held).")
            if state.get("pass_back_used"):
                notes.append("Pass back to the keeper used for this possession.")
        for note in notes:
            y += self.add_text(QPointF(x + 12, y), note, 8.5, MUTED_TEXT, width=w - 24).boundingRect().height() + 2
        modes = sorted({path[0][1] for path in self.paths.paths.values() if path and path[0][0] == "mode"})
        loose = self.loose_actions()
        buttons = [("mode", m) for m in modes] + [("action", t) for t in loose]
        # Two to a row; three in a panel made wider (a small window), where a row is less high.
        columns = max(2, int((w - 24 + 6) // (BUTTON_LEAST + 6)))
        col_w = (w - 24 - 6 * (columns - 1)) / columns
        for i, key in enumerate(buttons):
            row, column = divmod(i, columns)
            rect = QRectF(x + 12 + column * (col_w + 6), y + row * (BUTTON.height() + 6), col_w, BUTTON.height())
            label = MODE_LABELS[key[1]] if key[0] == "mode" else self.action_label(key[1])
            self._mode_or_action_button(rect, label, key)
        y += -(-len(buttons) // columns) * (BUTTON.height() + 6)
        entries = self._legend_entries()
        room = panel.bottom() - 18 - y
        # Where the whole key does not fit, its short words two to a row (the whole in its tooltip).
        self.add_legend(QPointF(x + 12, panel.bottom() - 8), w - 24, entries, room, short=None, aside=beside_heading)

    def _legend_entries(self) -> list[tuple[Any, str, str]]:
        """How to read a card, for the panel's key."""

        def target(p: QPainter, r: QRectF) -> None:
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(GRASS_DARK)
            p.drawRect(r)
            draw_target_mark(p, r)

        def types(p: QPainter, r: QRectF) -> None:
            paint_type_icon(p, r.adjusted(0, 2, 0, -2), "dribble")

        def next_icon(p: QPainter, r: QRectF) -> None:
            p.setBrush(CARD_FACE)
            p.setPen(QPen(KIND_COLOURS["pass"], 1.2))
            p.drawRoundedRect(r, 2, 2)
            paint_type_icon(p, QRectF(r.x() + 2, r.y() + 2, r.width() * 0.45, r.height() * 0.45), "dribble")

        def defence(p: QPainter, r: QRectF) -> None:
            p.setPen(DANGER)
            p.setFont(ui_font(SMALLEST_ON_SCREEN, bold=True))
            p.drawText(r, Qt.AlignmentFlag.AlignCenter, "I?")

        def no_play(p: QPainter, r: QRectF) -> None:
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QColor("#5b9b5f"))
            p.drawRect(r)
            p.setBrush(NO_PLAY)
            p.drawRect(QRectF(r.x(), r.center().y(), r.width(), r.height() / 2))

        return [
            (target, "a legal click now (white: chosen)", "legal click"),
            (types, "big icon: the card's type (Pass, Dribble…)", "card's type"),
            (next_icon, "small icon: what the next card must be", "next card's type"),
            (defence, "I? / C?: an Intercept / Challenge may answer", "may be answered"),
            (no_play, "red-brown: not playable from those rows", "not from those rows"),
        ]

    def _mode_or_action_button(self, rect: QRectF, label: str, key: Key) -> None:
        item = self.add_button(rect, label, key)
        if key[0] == "mode":
            state = (self.view_data or {}).get("state") or {}
            # A free kick's clear keeps the ball on 1–10, an open-play clear on 1–2; in stoppage
            # time every clear costs a card.
            keep = "1–10" if state.get("phase") == "free_kick" else "1–2"
            card = "discard a card (stoppage time)" if state.get("stoppage") else "no card"
            item.setToolTip(
                f"Clear, keep in play: {card}; roll {keep} to keep the ball."
                if key[1] == "clear-in"
                else "Clear out of play: discard a card; the opponent throws in."
            )
        elif key == ("action", "hold"):
            # QA pass 17: the tooltip only said its name again.
            keep = int(load_game_data(GAME).get("hold", {}).get("keep_control", 10))
            item.setToolTip(
                "You may first swap one card for a new one. If your opponent answers with a Challenge,"
                f" he takes the ball at once; otherwise roll 1–{keep} to keep it."
            )

    def _team_line(self, r: QRectF, side: int, state: dict[str, Any], goals: int) -> None:
        colours, names = self.config.colours, self.config.team_names
        # Nobody has the ball before the kick-off nor in a shootout (its kickers alternate).
        control = state.get("control") == side and state.get("phase") not in ("shootout", "over")
        control = control and state.get("half", 1) in (1, 2) and state.get("ball") is not None
        yellows = state["yellows"][side]
        reds = state["reds"][side]
        hand = state["hand_sizes"][side]

        def paint(p: QPainter, rr: QRectF) -> None:
            draw_team_strip(p, rr, colours.of(side), control)
            p.setFont(ui_font(10.5, bold=True))
            p.drawText(
                QRectF(14, 2, rr.width() - 60, 20),
                Qt.AlignmentFlag.AlignVCenter,
                names[side] + ("  ● ball" if control else ""),
            )
            p.setFont(ui_font(18, bold=True))
            p.drawText(
                QRectF(rr.width() - 50, 0, 42, rr.height()),
                Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                str(goals),
            )
            # Chits: yellow discs with their number, red cards as red rectangles; hand size as card backs.
            cx = 16.0
            for number in yellows:
                p.setBrush(QColor("#ffd400"))
                p.setPen(QPen(QColor("#5a4a00"), 0.8))
                p.drawEllipse(QPointF(cx + 7, 32), 8.5, 8.5)
                p.setPen(QColor("#222"))
                p.setFont(ui_font(SMALLEST_ON_SCREEN, bold=True))
                p.drawText(QRectF(cx - 2, 23, 18, 18), Qt.AlignmentFlag.AlignCenter, str(number))
                cx += 20
            for _ in range(reds):
                p.setBrush(DANGER)
                p.setPen(QPen(QColor("#3a0000"), 0.8))
                p.drawRoundedRect(QRectF(cx, 25, 10, 14), 1.5, 1.5)
                cx += 14
            for i in range(hand):
                p.setBrush(CARD_BACK)
                p.setPen(QPen(QColor("#f0e6d0"), 0.8))
                p.drawRoundedRect(QRectF(rr.width() - 130 + i * 9, 24, 10, 15), 1.5, 1.5)

        item = Painted(r, paint)
        self.addItem(item)
        tip = f"{names[side]}: {hand} card(s) in hand"
        if yellows:
            tip += f"; yellow chits {', '.join(map(str, yellows))} (the same number again is a red card)"
        if reds:
            tip += f"; {reds} red card(s): hand limit {state['hand_limits'][side]}"
        item.setToolTip(tip)

    def _draw_piles(self, r: QRectF, state: dict[str, Any]) -> None:
        deck = state.get("deck_left", 0)
        stoppage = state.get("stoppage")
        discards = state.get("discards") or {}
        top = state.get("last_card")
        chits = state.get("chits_left", 0)
        roll = self.last_roll
        rolling = state.get("rolling")
        top_card = self.cards.get(top) if top else None

        def paint(p: QPainter, rr: QRectF) -> None:
            small = QRectF(0, 4, 48, 68)
            # Deck: a stack of card backs.
            for i in range(min(4, max(1, deck // 12 + 1)) if deck else 0):
                paint_card_back(p, small.translated(i * 1.5, -i * 1.5))
            if not deck:
                p.setPen(QPen(QColor(255, 255, 255, 60), 1, Qt.PenStyle.DashLine))
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawRoundedRect(small, 5, 5)
            caption(p, QRectF(-9, 74, 66, 16), f"deck {deck}")
            # Stoppage deck.
            sx = 64
            if stoppage:
                for i in range(min(3, stoppage["cards_left"])):
                    paint_card_back(p, small.translated(sx + i * 1.5, -i * 1.5), stoppage=True)
                caption(p, QRectF(sx - 9, 74, 66, 16), f"+{stoppage['minutes']}′ · {stoppage['cards_left']} left")
            else:
                caption(p, QRectF(sx - 9, 70, 66, 26), "no stoppage")
            # Discard pile: its top card face up.
            dx = 128
            if top_card:
                paint_card(p, QRectF(dx, 4, 48, 68), top_card)
            caption(p, QRectF(dx - 9, 74, 66, 16), f"discards {sum(discards.values())}")
            # The d20.
            die = QRectF(rr.width() - 62, 2, 58, 58)
            draw_d20(p, die, roll[0] if roll else None)
            label = "rolling…" if rolling else (roll_words(roll[1]) if roll and roll[1] else "d20")
            caption(p, QRectF(rr.width() - 92, 62, 92, 14), label)
            caption(p, QRectF(rr.width() - 92, 76, 92, 14), f"{chits} chits left")

        item = Painted(r, paint)
        self.addItem(item)
        tips = [f"Deck: {deck} card(s) left."]
        if stoppage:
            tips.append(f"Stoppage time: {stoppage['minutes']} minute(s), {stoppage['cards_left']} card(s) left.")
        if top_card:
            tips.append(f"Discard pile top: {top_card['name']}.")
        tips.append(f"Yellow-card chits left in the pool: {chits}.")
        if roll:
            tips.append(f"Last d20 roll: {roll[0]}.")
        item.setToolTip("\n".join(tips))

    def _status(self, view: dict[str, Any]) -> str:
        state = view["state"]
        names = self.config.team_names
        mine = bool(view["legal"])
        phase = state["phase"]
        control = state.get("control")
        other = names[1 - control] if control in (0, 1) else ""
        if view.get("terminal") or phase == "over":
            return self.full_time_words(view)
        if state.get("rolling"):
            return f"Rolling the die ({roll_words(state['rolling'])})…"
        pending = state.get("pending") or {}
        if phase == "reply":
            card = pending.get("card")
            # The card by the name on its face: "Pass Ahead 1", not "..., then Pass" (read as two cards).
            named = short_name(self.cards[card]) if card in self.cards else card
            what = f"played {named}" if card else "tries to hold the ball"
            if mine and any(a.startswith("reply ") and a != "reply none" for a in view["legal"]):
                return f"Defend? Your opponent {what}. Click a highlighted defensive card to answer, or let it go."
            if mine:
                return f"Your opponent {what}. No card in your hand can answer: click Let it go."
            return f"{other} may answer…"
        if phase == "discard":
            if mine and pending.get("kind") == "hold":
                # The discard of a hold is a swap, and may be declined (QA pass 17).
                return "Discard a card to draw a new one, or Keep all cards."
            if mine:
                return "Choose the card to discard."
            # By name: a replay or a spectator (or the screen under an animation) is nobody's side.
            discarding = [names[s] for s in view.get("to_move", ()) if s in (0, 1)]
            return f"{discarding[0]} discards a card…" if discarding else "A card is discarded…"
        if phase == "goal_kick":
            return (
                "Goal kick: roll on the chart, aim at an M zone, or throw to a D2 zone."
                if mine
                else f"{names[control]} takes a goal kick…"
            )
        if phase == "free_kick":
            return "Free kick: take it here, or clear." if mine else f"{names[control]} takes a free kick…"
        if phase == "end_offer":
            if mine:
                return "Your opponent proposes to end the half."
            answering = [names[s] for s in view.get("to_move", ()) if s in (0, 1)]
            return f"Waiting for {answering[0]} to answer the proposal to end the half…" if answering else ""
        if phase == "shootout":
            return "Shoot-out kick." if mine else "Shoot-out…"
        # A lesson narrows the choices on offer ("legal"); what the position allows is the rules'.
        legal = view.get("rules_legal", view["legal"])
        if mine and all(text.startswith("clear-box") for text in legal):
            return "In their box without an Inside shot card: you must clear (their goal kick)."
        if mine and phase == "play" and not any(t.startswith(BALL_PLAYS) for t in legal):
            end = " or propose to end the half" if "propose-end" in legal else ""
            return f"No card of yours can be played here and you may not hold: clear the ball{end}."
        if mine:
            # Only what may be done here (no hold in either box, no shot outside the A rows).
            others = [
                word
                for word, there in (
                    ("shoot", any(t.startswith("shoot") for t in legal)),
                    ("clear", any(t.startswith("clear") for t in legal)),
                    ("hold", "hold" in legal),
                )
                if there
            ]
            rest = ", ".join(others[:-1]) + (" or " if len(others) > 1 else "") + (others[-1] if others else "")
            if any(t.startswith("play ") for t in legal):
                return "Your ball: choose a card, then a zone" + (f" — or {rest}." if rest else ".")
            # What can be done first ("... can be played here — or shoot" read as if shooting
            # could not be done either); a shot is played with a card too.
            return f"Your ball: no Pass or Dribble card fits here. You may {rest}." if rest else "Your ball."
        return f"{names[control]} has the ball…" if control in (0, 1) else ""


def paint_slot(p: QPainter, r: QRectF) -> None:
    """An empty place in the hand (a card short of the hand's limit)."""
    p.setPen(QPen(QColor(255, 255, 255, 50), 1.4, Qt.PenStyle.DashLine))
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawRoundedRect(r.adjusted(1, 1, -1, -1), 8, 8)


def caption(p: QPainter, r: QRectF, text: str) -> None:
    p.setPen(MUTED_TEXT)
    p.setFont(ui_font(SMALLEST_ON_SCREEN))
    p.drawText(r, Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, text)


def paint_card_back(p: QPainter, r: QRectF, stoppage: bool = False) -> None:
    """The back of an action card (the stoppage deck's in a different shade)."""
    grad = QLinearGradient(r.topLeft(), r.bottomRight())
    base = QColor("#2e4a7a") if stoppage else CARD_BACK
    grad.setColorAt(0, base.lighter(130))
    grad.setColorAt(1, base.darker(120))
    p.setBrush(grad)
    p.setPen(QPen(QColor("#f0e6d0"), 1.2))
    p.drawRoundedRect(r, 5, 5)
    p.setPen(QPen(QColor(255, 255, 255, 70), 1))
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawEllipse(r.center(), r.width() * 0.25, r.width() * 0.25)


def paint_card(p: QPainter, r: QRectF, card: Mapping[str, Any]) -> None:
    """An action card upright, too small to read (the discard pile's top card): the next
    card's type at the top, the small field showing where the ball goes (no-play rows in
    red-brown), the card's own type at the bottom; its words are in the pile's tooltip."""
    u = r.width() / 92.0  # drawn at 92 wide; everything scales
    paint_card_body(p, r, card, u)
    nxt = card.get("next")
    if nxt:
        paint_type_icon(p, QRectF(r.x() + 7 * u, r.y() + 7 * u, 18 * u, 18 * u), nxt, letters=False)
    paint_card_field(p, QRectF(r.center().x() - 16 * u, r.y() + 28 * u, 32 * u, 45 * u), card, u)
    paint_type_icon(p, QRectF(r.center().x() - 12 * u, r.y() + 76 * u, 24 * u, 19 * u), card["kind"], letters=False)


def paint_card_on_its_side(p: QPainter, r: QRectF, card: Mapping[str, Any]) -> None:
    """A hand card on its side (``FACE``): the same marks as upright, the small field on the
    left, the card's type, the next card's type and the defence mark along the top, the name
    under them."""
    u = r.height() / FACE.height()
    paint_card_body(p, r, card, u)
    # An arrow two zones to the side ends a little outside the small field: clear of the name.
    paint_card_field(p, QRectF(r.x() + 5 * u, r.center().y() - 21 * u, 21 * u, 42 * u), card, u)
    paint_type_icon(p, QRectF(r.x() + 35 * u, r.y() + 7 * u, 28 * u, 20 * u), card.get("kind", "pass"))
    nxt = card.get("next")
    if nxt:  # smaller than the card's own type, big enough for "P/D"
        paint_type_icon(p, QRectF(r.x() + 66 * u, r.y() + 8 * u, 21 * u, 19 * u), nxt)
    paint_defence_mark(p, QRectF(r.right() - 22 * u, r.y() + 7 * u, 19 * u, 18 * u), card, u)
    p.setPen(QColor("#222"))
    room = side_name_rect(r, card)
    font, name = side_name_text(card, room.size(), u)
    p.setFont(font)
    p.drawText(room, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter | Qt.TextFlag.TextWordWrap), name)


def side_name_rect(r: QRectF, card: Mapping[str, Any]) -> QRectF:
    """Where a card on its side writes its name: right of its small field, under its icons,
    well clear of the inner red line of a Pass + Outside Shot card."""
    u = r.height() / FACE.height()
    right = 9 * u if card.get("outside_shot") else 6 * u
    return QRectF(r.x() + 33 * u, r.y() + 28 * u, r.width() - 33 * u - right, r.height() - 34 * u)


NAME_LETTER_SPACINGS = (100.0, 96.0, 92.0)
"""How close a card's name may draw its letters (per cent of the font's own spacing) when its
longest word does not fit otherwise ("Outside Shot" ran to the edge of its card)."""


def side_name_text(card: Mapping[str, Any], room: QSizeF, u: float) -> tuple[QFont, str]:
    """A card on its side's name and font: bold where it fits ``room``, else plain, else
    plain with its letters a little closer (never under 8 points at the card's own size).
    A name may break after a "/" too ("Challenge/" "Intercept + Star"), never before its
    last number."""
    # Never a number alone on a line ("Pass Ahead" / "2"): it stays with the word before it.
    name = re.sub(r" (\d)$", "\u00a0\\1", short_name(card).replace("/", "/\u200b"))
    wrap = int(Qt.AlignmentFlag.AlignLeft | Qt.TextFlag.TextWordWrap)
    for bold, spacing in ((True, 100.0), *((False, spacing) for spacing in NAME_LETTER_SPACINGS)):
        font = ui_font(SMALLEST_ON_SCREEN * u, bold)
        font.setLetterSpacing(QFont.SpacingType.PercentageSpacing, spacing)
        metrics = QFontMetricsF(font)
        needed = metrics.boundingRect(QRectF(0, 0, room.width(), 10_000), wrap, name)
        if needed.width() <= room.width() and needed.height() <= room.height():
            return font, name
    return font, name


def paint_card_body(p: QPainter, r: QRectF, card: Mapping[str, Any], u: float) -> None:
    """A card's shadow, face and border in its type's colour (two-tone for the Pass+O/S cards)."""
    colour = KIND_COLOURS.get(card.get("kind", "pass"), QColor("#555"))
    radius = min(r.width(), r.height()) * 0.09
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor(0, 0, 0, 80))
    p.drawRoundedRect(r.translated(2, 3), radius, radius)
    p.setBrush(CARD_FACE)
    p.setPen(QPen(colour, 5.5 * u))
    p.drawRoundedRect(r.adjusted(1, 1, -1, -1), radius, radius)
    if card.get("outside_shot"):
        p.setPen(QPen(KIND_COLOURS["shot"], 2.8 * u))
        p.drawRoundedRect(r.adjusted(4, 4, -4, -4), radius * 0.7, radius * 0.7)


def paint_defence_mark(p: QPainter, mark: QRectF, card: Mapping[str, Any], u: float) -> None:
    """ "I?" / "C?": what may answer the card; struck through when no defence is allowed."""
    kind = card.get("kind", "pass")
    if kind not in ("pass", "dribble", "any"):
        return
    letter = "I?" if kind == "pass" else "C?" if kind == "dribble" else "C/I"
    p.setPen(DANGER)
    p.setFont(ui_font(8.5 * u, bold=True))
    p.drawText(mark, Qt.AlignmentFlag.AlignCenter, letter)
    if not card.get("defensible", True):
        p.setPen(QPen(QColor("#111"), 2 * u))
        p.drawLine(mark.bottomLeft() + QPointF(2 * u, -4 * u), mark.topRight() + QPointF(-2 * u, 4 * u))


def paint_card_field(p: QPainter, grid: QRectF, card: Mapping[str, Any], u: float) -> None:
    """A card's small field in the player's own frame: its no-play rows, where the ball goes."""
    kind = card.get("kind", "pass")
    zw, zh = grid.width() / 3, grid.height() / 6
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor("#5b9b5f"))
    p.drawRect(grid)
    no_play = set(card.get("no_play", ()))
    no_zone = set(card.get("no_play_zones", ()))
    for row in range(6):
        for col in range(3):
            name = ROWS[row] + COLUMNS[col]
            if ROWS[row] in no_play or name in no_zone:
                p.setBrush(NO_PLAY)
                p.drawRect(QRectF(grid.x() + col * zw, grid.y() + (5 - row) * zh, zw, zh))
    p.setPen(QPen(QColor(255, 255, 255, 140), 0.6 * u))
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawRect(grid)
    for c in (1, 2):
        p.drawLine(QPointF(grid.x() + c * zw, grid.top()), QPointF(grid.x() + c * zw, grid.bottom()))
    for rr in range(1, 6):
        p.drawLine(QPointF(grid.left(), grid.top() + rr * zh), QPointF(grid.right(), grid.top() + rr * zh))
    if kind in ("pass", "dribble", "any"):
        start = QPointF(grid.x() + 1.5 * zw, grid.y() + 3.5 * zh)
        arrow = QPen(QColor("#111") if kind != "any" else QColor("#3a1f6e"), 1.6 * u)
        arrow.setCapStyle(Qt.PenCapStyle.RoundCap)
        for direction in card.get("directions", ()):
            dr, dc = DIRECTION_STEPS.get(direction, (1, 0))
            dist = card.get("distance", 1)
            end = start + QPointF(dc * zw * dist, -dr * zh * dist)
            p.setPen(arrow)
            p.drawLine(start, end)
            p.setBrush(arrow.color())
            p.drawEllipse(end, 1.8 * u, 1.8 * u)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor("#ffffff"))
        p.drawEllipse(start, 2.6 * u, 2.6 * u)
    elif kind == "shot":
        goal = QRectF(grid.center().x() - 7 * u, grid.top() - 4 * u, 14 * u, 4 * u)
        p.setBrush(QColor("#ffffff"))
        p.setPen(QPen(QColor("#111"), 0.6 * u))
        p.drawRect(goal)


def short_name(card: Mapping[str, Any]) -> str:
    name = str(card.get("name", card.get("code", "")))
    return name.split(",")[0].split(" (")[0]


def paint_type_icon(p: QPainter, r: QRectF, kind: str, letters: bool = True) -> None:
    """Pass: a curved arrow; Dribble: a zig-zag; Any: both; Shot: a goal; C/I/Star: letters
    (left out with ``letters`` False: an icon too small to read them)."""
    colour = KIND_COLOURS.get(kind, QColor("#444"))
    p.setBrush(colour)
    p.setPen(Qt.PenStyle.NoPen)
    p.drawRoundedRect(r, r.height() * 0.3, r.height() * 0.3)
    white = QPen(QColor("#ffffff"), max(1.0, r.height() * 0.1))
    white.setCapStyle(Qt.PenCapStyle.RoundCap)
    white.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    p.setPen(white)
    p.setBrush(Qt.BrushStyle.NoBrush)
    w, h = r.width(), r.height()
    if kind == "pass":
        path = QPainterPath()
        path.moveTo(r.x() + 0.2 * w, r.y() + 0.72 * h)
        path.quadTo(r.x() + 0.45 * w, r.y() + 0.1 * h, r.x() + 0.8 * w, r.y() + 0.4 * h)
        p.drawPath(path)
        p.drawLine(QPointF(r.x() + 0.8 * w, r.y() + 0.4 * h), QPointF(r.x() + 0.62 * w, r.y() + 0.34 * h))
        p.drawLine(QPointF(r.x() + 0.8 * w, r.y() + 0.4 * h), QPointF(r.x() + 0.74 * w, r.y() + 0.58 * h))
    elif kind == "dribble":
        path = QPainterPath()
        path.moveTo(r.x() + 0.18 * w, r.y() + 0.5 * h)
        for i, dy in enumerate((-0.22, 0.22, -0.22, 0.22)):
            path.lineTo(r.x() + (0.3 + 0.13 * i) * w, r.y() + (0.5 + dy) * h)
        path.lineTo(r.x() + 0.84 * w, r.y() + 0.5 * h)
        p.drawPath(path)
    elif kind == "shot":
        goal = QRectF(r.x() + 0.22 * w, r.y() + 0.25 * h, 0.56 * w, 0.5 * h)
        p.drawRect(goal)
        thin = QPen(QColor(255, 255, 255, 150), max(0.6, h * 0.04))
        p.setPen(thin)
        for i in (1, 2, 3):
            p.drawLine(
                QPointF(goal.x() + goal.width() * i / 4, goal.top()),
                QPointF(goal.x() + goal.width() * i / 4, goal.bottom()),
            )
    elif letters:
        text = {"any": "P/D", "challenge": "C", "intercept": "I", "star": "C/I★"}.get(kind, kind[:1].upper())
        p.setPen(QColor("#ffffff"))
        p.setFont(ui_font(h * (0.42 if len(text) > 2 else 0.62), bold=True))
        p.drawText(r, Qt.AlignmentFlag.AlignCenter, text)
