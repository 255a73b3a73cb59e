"""The Soccer-Go board: player cards, face-down choices that turn over, the pass count,
the goal with its three directions, and the power cards in hand.

Drawn from the ``"state"`` part of a Soccer-Go view (keys documented in
:mod:`soccerdesk.rules.soccer_go`). Every legal action text becomes a click path:

* ``pass N`` / ``mark N`` / ``retire N``: the player card N (three cards in any order after
  CORNER or DEEP PRESS: ``pass A+B+C``);
* ``shoot D`` / ``save D`` / ``remove D``: the direction D in the goal;
* ``play CARD`` / ``swap CARD``: the power card; ``play JOKER as CARD``: the Joker, then the
  card it copies;
* anything else (``no card``, ``keep hand``, ``show rock``...): a button.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QPointF, QRectF, QSizeF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QLinearGradient, QPainter, QPen

from soccerdesk.resources import load_game_data
from soccerdesk.ui.boards.drawing import (
    CARD_FACE,
    MUTED_TEXT,
    PANEL_TEXT,
    PREVIEW,
    SELECTED,
    TARGET,
    TARGET_EDGE,
    AnyOrderPaths,
    ClickBoard,
    ClickPaths,
    Key,
    Painted,
    fit_within,
    listed,
    text_extent,
    ui_font,
)
from soccerdesk.ui.palette import LINE

WIDTH = 1000.0
STATUS_BAND = 56.0  # the band above the table with what to do now
CARD_W, CARD_H = 62.0, 88.0
ATTACKING_BACK = QColor("#6a3fa0")  # purple, as the rulebook's attacking power cards
# Dark brown: far from every team colour on offer (settings.TEAM_COLOURS, Okabe & Ito's palette)
# and from the purple, also as protan, deutan and tritan eyes see them (tests/ui/test_board_soccer_go.py).
DEFENDING_BACK = QColor("#663311")  # the defending power cards
# Words only: the hand signs' symbols (U+270A, U+270B) are missing from common fonts and
# showed as empty boxes.
SIGN_LABELS = {"rock": "Rock", "paper": "Paper", "scissors": "Scissors"}
DIRECTION_VERBS = {
    "shoot": "Shoot {direction}",
    "save": "Dive {direction}",
    "remove": "Close the {direction} for this shot",
}
PERIOD_LABELS = {
    "first-half": "First half",
    "second-half": "Second half",
    "extra-time": "Extra time",
    "shootout": "Penalty shootout",
    "full-time": "Full time",
}
CARDS_PERIODS = ("first-half", "second-half")
"""Periods in which power cards are played (rulebook 10 and 11: none in extra time or the shootout)."""
NO_CARDS_NOTE = {
    "extra-time": "No power cards in extra time.",
    "shootout": "No power cards in the shootout.",
    "full-time": "The match is over.",
}
SCORED, MISSED = QColor("#009e73"), QColor("#d55e00")  # a shootout kick: Okabe & Ito's green and vermilion


TIMING_WORDS = {
    "matched-pass": "after a marked pass",
    "unmatched-pass": "after a pass is made",
    "saved-shot": "after a save",
    "scored-shot": "after a goal",
    "final-pass": "after the final pass",
    "shot": "when the shot comes",
    "reply": "answers a named card",
    "copies": "copies a discarded card",
}


def power_cards() -> dict[str, dict[str, Any]]:
    """Card id -> the power card's content data (name, timing, passes...)."""
    data = load_game_data("soccer-go")
    return {card["id"]: dict(card) for side in ("attacking", "defending") for card in data.get(side, [])}


POWER_CARD = QRectF(0, 0, 276, 69)
"""A power card in the hand panel: a hand of four (the most a player holds) fills the panel, so
its text reads in a laptop's window (56 high, the text was 7 px there)."""
POWER_CARD_GAP = 4.0
"""Space between two power cards in the hand panel."""
DRAWN_LABEL = 16.0
"""Room for the line over a card just drawn ("Drawn — keep it by swapping a card out:")."""
POWER_TEXT_MARGINS = (12, 22, -8, -8)
"""Where a power card's text is written: ``QRectF.adjusted`` of the card's rectangle. Two
pixels inside the card's face (its border ends 6 in): the last line ran onto the border."""
TEXT_SIZES = (9.0, 8.75, 8.5, 8.25, 8.0, 7.75, 7.5, 7.25, 7.0, 6.75, 6.5, 6.25, 6.0)
"""Font sizes a power card's text may take, largest first: the largest that shows it whole."""


FULL_TABLE = QSizeF(WIDTH + 12, 640 + STATUS_BAND + 12)
"""The full table's size in a view, with the view's margin (:meth:`SoccerGoBoard.fit_to`)."""
FULL_TABLE_FROM = 4 / 3
"""The least scale on screen the full table is shown at: its smallest text (a long power card's,
6 points) reads at 8 there. A smaller view shows the compact table."""
COMPACT_WIDTH = 726.0
"""The compact table's width: at the smallest window (a board view of 738 x 450 pixels) it is
shown at its own size, so that its texts, 8 points or more, read at that size on screen."""
COMPACT_HEIGHT = 436.0
COMPACT_TABLE = QSizeF(COMPACT_WIDTH + 12, COMPACT_HEIGHT + 12)
"""The compact table's size in a view, with the view's margin."""
COMPACT_SMALLEST = 8.0
"""The smallest text of the compact table, in scene units (points on screen, or more)."""
COMPACT_POWER_PANEL = QRectF(478, 6, 242, 294)
"""The compact table's hand of power cards: the whole right column above the player cards (the
prompt and the opponent's row are left of it), so that any hand of four shows each card's whole
text at 8 points (UI audit: cut with "…" at 1000 x 540, the whole text only in the tooltip)."""
COMPACT_DRAWN_PANEL = QRectF(222, 90, 250, 116)
"""The compact table's card just drawn, in the goal's place (no shot is taken or saved while a
card is drawn; the last reveal under it still says how the turn ended): beside a hand of four in
the power cards' panel, the five texts were cut with "…" at 1000 x 540 (UI audit)."""
COMPACT_FACE = (9, 4, -8, -6)
"""Where a power card's face is written on the compact table: ``QRectF.adjusted`` of the card."""
COMPACT_TEXT_SIZES = tuple(size for size in TEXT_SIZES if size <= COMPACT_SMALLEST)
"""Sizes a compact power card's text may take, largest first, down to 8 points on screen."""


def card_lines(text: str, font: QFont, width: float, most: int | None = None) -> list[str]:
    """``text`` broken into lines no wider than ``width`` in ``font``, at most ``most`` of them
    (all if ``None``); the last one ends in "…" when the text goes on (its whole text is in the
    card's tooltip)."""
    metrics = QFontMetricsF(font)
    lines: list[str] = []
    for word in text.split():
        if lines and metrics.horizontalAdvance(f"{lines[-1]} {word}") <= width:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    if most is not None and len(lines) > most:
        lines = lines[: most - 1] + [" ".join(lines[most - 1 :])] if most > 0 else []
    return [metrics.elidedText(line, Qt.TextElideMode.ElideRight, width) for line in lines]


@dataclass(frozen=True)
class CompactFace:
    """A power card's face as the compact table writes it: the name (half a point bigger than
    the text, bold) and when it is played on the first line, or the timing on a line of its own
    when it is too long to stand beside the name; then the text's lines."""

    size: float  # the text's, in points
    name_width: float
    first: float  # the height of the name's line, and of the timing's line of its own if any
    timing_apart: bool
    lines: tuple[str, ...]
    line: float  # the height of a line of the text

    @property
    def height(self) -> float:
        """The face's height that shows it all."""
        return self.first + len(self.lines) * self.line

    @staticmethod
    def of(name: str, timing: str, text: str, width: float, size: float, height: float | None = None) -> CompactFace:
        """The face, ``width`` wide, in ``size`` points: whole if ``height`` (the face's) has room
        for it, or is not given; else as many lines of the text as fit, the last ending in "…"."""
        name_metrics = QFontMetricsF(ui_font(size + 0.5, bold=True))
        line = QFontMetricsF(ui_font(size)).height()
        first = name_metrics.height() + 1
        name_width = name_metrics.horizontalAdvance(name) + 2
        too_long = QFontMetricsF(ui_font(size, bold=True)).horizontalAdvance(timing) > width - name_width - 10
        whole = CompactFace(
            size,
            name_width,
            first + (line if too_long else 0),
            too_long,
            tuple(card_lines(text, ui_font(size), width - 2)),
            line,
        )
        if height is None or whole.height <= height:
            return whole
        # Cut: the timing has a line of its own only on a card tall enough for two of the text.
        apart = too_long and height - first >= 3 * line
        first += line if apart else 0
        lines = card_lines(text, ui_font(size), width - 2, int((height - first) // line))
        return CompactFace(size, name_width, first, apart, tuple(lines), line)


def wrapped_height(text: str, width: float, size: float, bold: bool = False) -> float:
    """Height of ``text`` word-wrapped within ``width`` in :func:`ui_font` ``size``."""
    flags = int(Qt.AlignmentFlag.AlignLeft | Qt.TextFlag.TextWordWrap)
    return QFontMetricsF(ui_font(size, bold)).boundingRect(QRectF(0, 0, width, 10_000), flags, text).height()


def power_text_size(text: str, rect: QRectF = POWER_CARD) -> float:
    """The largest of :data:`TEXT_SIZES` in which ``text`` fits a power card whole (never cut).

    Measured a few pixels narrower than the card's text box: a painter's wrapping may differ
    from the metrics' by a pixel or two.
    """
    box = rect.adjusted(*POWER_TEXT_MARGINS)
    return next((s for s in TEXT_SIZES if wrapped_height(text, box.width() - 4, s) <= box.height()), TEXT_SIZES[-1])


def match_data() -> dict[str, Any]:
    """The ``[match]`` table of the game's content data (rounds, extra time, shootout kicks)."""
    return dict(load_game_data("soccer-go").get("match", {}))


def elided_title(title: str, width: float) -> str:
    """A panel title (written in capitals, 8.5 bold) ending in "…" if it is wider than ``width``."""
    return QFontMetricsF(ui_font(8.5, bold=True)).elidedText(title.upper(), Qt.TextElideMode.ElideRight, width)


def timing_windows() -> dict[str, str]:
    """Card id -> when it may be played, in words, from the game's content data."""
    out: dict[str, str] = {}
    for card_id, card in power_cards().items():
        timing, passes = card.get("timing", ""), card.get("passes")
        if timing == "passes" and passes:
            words = f"pass {passes[0]}" if passes[0] == passes[1] else f"passes {passes[0]}–{passes[1]}"
        else:
            words = TIMING_WORDS.get(timing, timing.replace("-", " "))
            if passes and list(passes) != [1, 7]:  # 1-7 is any pass: nothing to add
                words += f" (passes {passes[0]}–{passes[1]})"
        out[card_id] = words
    return out


def mark_card(p: QPainter, r: QRectF, lit: bool, selected: bool, previewed: bool) -> None:
    """Outline a card that may be clicked (yellow, dashed), is selected (white) or previewed (magenta).

    Outlines only, never a fill: the card's number must stay readable. Each state differs in
    brightness and line style as well as hue, for colour-blind players.
    """
    if not (lit or selected or previewed):
        return
    box = r.adjusted(1, 1, -1, -1)
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.setPen(QPen(TARGET_EDGE, 7))
    p.drawRoundedRect(box, 9, 9)
    colour = PREVIEW if previewed else SELECTED if selected else TARGET
    pen = QPen(colour, 4)
    if lit and not (selected or previewed):
        pen.setStyle(Qt.PenStyle.DashLine)
    p.setPen(pen)
    p.drawRoundedRect(box, 9, 9)


def deciding_seats(state: dict[str, Any]) -> list[int]:
    """The seats whose decision the position waits for (a spectator's board names them)."""
    phase = state.get("phase")
    if phase in ("pass", "shot", "tackle", "kick"):
        chosen = state.get("chosen") or [False, False]
        return [seat for seat in (0, 1) if not chosen[seat]]
    named_by = (state.get("named") or {}).get("seat")
    seat = {
        "block": 1 - named_by if named_by in (0, 1) else None,
        "pass-reply": state.get("reply"),
        "shot-reply": state.get("reply"),
        "swap": state.get("drawing"),
        "counter": state.get("attacker"),
        "narrow": state.get("defender"),
    }.get(str(phase))
    return [seat] if seat in (0, 1) else []


def in_words(printed: str) -> str:
    """A card name printed in capitals, in ordinary type ("PASS RE-TAKE" -> "Pass Re-Take");
    two-letter abbreviations stay ("ATTACKING GK" -> "Attacking GK")."""
    return " ".join(
        word if len(word) <= 2 else "-".join(part.capitalize() for part in word.split("-")) for word in printed.split()
    )


def path_of(text: str) -> tuple[Key, ...]:
    """The clicks that play an action text on this board."""
    words = text.split()
    if len(words) == 2 and words[0] in ("pass", "mark"):
        return tuple(("num", int(n)) for n in words[1].split("+"))
    if len(words) == 2 and words[0] == "retire":
        return (("num", int(words[1])),)
    if len(words) == 2 and words[0] in ("shoot", "save", "remove"):
        return (("dir", words[1]),)
    if len(words) == 2 and words[0] in ("play", "swap"):
        return (("power", words[1]),)
    if len(words) == 4 and words[0] == "play" and words[2] == "as":
        return (("power", words[1]), ("as", words[3]))
    return (("action", text),)


def period_parts(state: dict[str, Any], kicks_each: int = 3) -> list[str]:
    """Where the match stands, in parts: ["First half", "round 2 of 4"], ["Extra time"],
    ["Penalty shootout", "kick 2 of 3"] (the board's panel and the match screen's header)."""
    period = str(state.get("period", ""))
    label = PERIOD_LABELS.get(period, period)
    kicks = state.get("shootout") or [[], []]
    if period == "shootout":
        kicker = state.get("kicker")
        taken = len(kicks[kicker]) if kicker in (0, 1) else min(len(kicks[0]), len(kicks[1]))
        return [label, f"kick {taken + 1} of {kicks_each}" if taken < kicks_each else "sudden death"]
    if period == "full-time":
        return [label, "after penalties"] if any(kicks) else [label]
    if period == "extra-time":
        # Extra time counts the rounds on: "round 2" of a one-round match reads as regulation.
        return [label]
    total = state.get("rounds")  # the option; a view without it gets no total
    number = state.get("round", 1)
    if total == 1:
        return ["Round 1 of 1"]  # one round has no halves
    return [label, f"round {number} of {total}" if total else f"round {number}"]


class SoccerGoBoard(ClickBoard):
    """The Soccer-Go table seen from one seat."""

    def __init__(self, config: Any, parent: Any = None) -> None:
        super().__init__(config, parent)
        self._watching = False  # set by each drawing: a spectator's view
        self.windows = timing_windows()
        self.card_names = {card_id: str(card["name"]) for card_id, card in power_cards().items()}
        # The printed names in the rules' log texts ("Seat 1 plays PASS RE-TAKE."), longest first.
        printed = sorted(set(self.card_names.values()), key=len, reverse=True)
        self._printed = re.compile(r"\b(?:" + "|".join(map(re.escape, printed)) + r")\b")
        self.opponent_status = ""  # what the opponent's panel says of their pick ("has chosen")
        self.match = match_data()
        self.compact = False  # the compact table, for a view too small for the full one (fit_to)

    def fit_to(self, room: QSizeF, bounds: QRectF) -> bool:
        """The full table where it reads at :data:`FULL_TABLE_FROM` of its size or more, the
        compact one in a smaller view (the smallest window shows it at its own size), drawn for
        the scale it is shown at; True when the board was drawn again for it."""
        if room.isEmpty():
            return False
        full = min(room.width() / FULL_TABLE.width(), room.height() / FULL_TABLE.height())
        compact = full < FULL_TABLE_FROM
        table = COMPACT_TABLE if compact else FULL_TABLE
        scale = min(room.width() / table.width(), room.height() / table.height())
        changed, self.compact = compact != self.compact, compact
        return self.lay_out(self.panel_zoom, scale, force=changed)  # another table: drawn again whatever the scale

    def smallest_button_text(self) -> float:
        return COMPACT_SMALLEST if self.compact else super().smallest_button_text()

    def make_paths(self, paths: dict[str, tuple[Key, ...]]) -> ClickPaths:
        return AnyOrderPaths(paths, "num")  # three marks (DEEP PRESS) or passes (CORNER) in any order

    def click_paths(self, view: dict[str, Any]) -> dict[str, tuple[Key, ...]]:
        return {text: path_of(text) for text in view.get("legal", [])}

    def keyboard_actions(self) -> list[str]:
        # Player cards in number order first, then directions, the tackle's signs as the
        # buttons show them (rock, paper, scissors: not alphabetical), cards and the rest.
        legal = self.legal()

        def order(text: str) -> tuple[int, str]:
            head = text.split()[0]
            rank = {"pass": 0, "mark": 0, "retire": 0, "shoot": 1, "save": 1, "remove": 1, "show": 1}
            rank |= {"play": 2, "swap": 2}
            number = text.split()[1] if len(text.split()) > 1 else ""
            if head == "show":
                return rank[head], f"{legal.index(text):03d}"  # the rules' order, the buttons'
            return rank.get(head, 3), number.zfill(3) if number.isdigit() else text

        return sorted(legal, key=order)

    # --- whose table --------------------------------------------------------------------

    def seat(self, view: dict[str, Any]) -> int:
        seat = view.get("seat")
        if isinstance(seat, int):
            return seat
        return self.config.perspective if self.config.perspective is not None else 0

    def name(self, seat: int) -> str:
        return self.config.team_names[seat]

    def action_label(self, text: str) -> str:
        """A button's text: the sign's name for a tackle, else the action spelled with a capital
        ("Keep hand", "No card")."""
        if text.startswith("show "):
            return SIGN_LABELS.get(text.split()[-1], text.capitalize())
        return text.capitalize()

    def describe(self, action_text: str) -> str:
        words = action_text.split()
        verb, arg = words[0], words[1] if len(words) > 1 else ""
        if verb in ("pass", "mark"):
            numbers = arg.split("+")
            what = f"number{'s' if len(numbers) > 1 else ''} {listed(numbers)}"
            return f"Pass to {what}" if verb == "pass" else f"Mark {what}"
        if verb == "retire":
            return f"Retire number {arg}"
        if verb in DIRECTION_VERBS:
            return DIRECTION_VERBS[verb].format(direction=arg)
        if verb == "play" and len(words) == 4:
            return f"Play {self.card_name(arg)} as {self.card_name(words[3])}"
        if verb == "play":
            return f"Play {self.card_name(arg)}"
        if verb == "swap":
            return f"Give up {self._told_apart(arg)} for the card drawn"
        if verb == "show":
            return f"Show {SIGN_LABELS.get(arg, arg).lower()}"
        return {"no card": "Play no card", "keep hand": "Keep your hand (the card drawn goes back)"}.get(
            action_text, super().describe(action_text)
        )

    def event_text(self, event: dict[str, Any], reader: int | None = None) -> str:
        """The rules' text with card names in ordinary type, as the board says them elsewhere."""
        return self._printed.sub(lambda m: in_words(m.group(0)), super().event_text(event, reader))

    def _told_apart(self, code: str) -> str:
        """A power card by its name, and for a BLOCK the cards it answers: two Blocks in one hand
        are different cards ("Block (against Through Ball, Dribble or Shot Re-Take)")."""
        name = self.card_name(code)
        blocks = power_cards().get(code, {}).get("blocks") or []
        if not blocks:
            return name
        return f"{name} (against {listed([self.card_name(str(card)) for card in blocks], 'or')})"

    def card_name(self, code: str) -> str:
        """A power card by its name, as written in a sentence ("def-block-3" -> "Block",
        "attacking-gk" -> "Attacking GK"); the cards themselves print it in capitals."""
        printed = self.card_names.get(code)
        return in_words(printed) if printed else super().card_name(code)

    # --- hints ----------------------------------------------------------------------------

    def selection_hint(self, selection: tuple[Key, ...]) -> str:
        if selection and selection[0][0] == "num":
            left = 3 - len(selection)
            picked = ", ".join(str(key[1]) for key in selection)
            return f"Picked {picked}: choose {left} more number{'s' if left > 1 else ''} (any order; click one again to take it back)."
        if selection and selection[0][0] == "power":
            return "Choose the discarded card the Joker copies."
        return ""

    def key_words(self, key: Key) -> str:
        if key[0] == "num":
            return f"number {key[1]}"
        if key[0] == "dir":
            return f"{key[1]} in the goal"
        return super().key_words(key)

    def refusal_hint(self, selection: tuple[Key, ...], key: Key) -> str:
        state = (self.view_data or {}).get("state", {})
        if not self.legal():
            return "Wait: it is not your decision now."
        kind, value = key if isinstance(key, tuple) and len(key) == 2 else ("", None)
        if kind == "num" and not any(first[0] == "num" for first in self.paths.first_keys()):
            # QA: in the save, a crossed-out number answered "Number 4 is retired…", not where to click.
            return f"No number is picked now. {self.status(self.view_data or {})}"
        if kind == "num":
            if value in state.get("retired", []):
                return f"Number {value} is retired for the rest of this turn."
            if state.get("restriction") and value not in state["restriction"]:
                allowed = " ".join(map(str, state["restriction"]))
                return f"Only {allowed} may be chosen for this pass."
            if value == 1:
                return "The goalkeeper (1) cannot take the final pass unless Attacking GK is played."
            return "That number cannot be chosen now."
        if kind == "power":
            return "That card's timing window is not open now."
        if kind == "dir":
            return (
                "There is no shot to take or save now."
                if state.get("phase") not in ("shot", "kick")
                else "That direction is closed."
            )
        return "That is not a legal choice now."

    # --- drawing --------------------------------------------------------------------------

    def draw(self, view: dict[str, Any], events: list[dict[str, Any]]) -> None:
        state = view.get("state") or {}
        me = self.seat(view)
        other = 1 - me
        # A spectator sits with neither player: the lower half is one player's side, not "yours".
        self._watching = view.get("seat") is None and not self.config.reveal_all
        if self.compact:
            # The compact table (a small window): the same parts in less room, at its own
            # size on screen or bigger; fewer and bigger words.
            self.add_panel(QRectF(0, 0, COMPACT_WIDTH, COMPACT_HEIGHT))
            prompt, width = self.status(view), COMPACT_POWER_PANEL.left() - 24
            # On two lines at most, above the opponent's panel, left of the power cards.
            size = next(
                (s for s in (11.0, 10.5, 10.0, 9.5, 9.0, 8.5) if wrapped_height(prompt, width, s, True) <= 36), 8.0
            )
            self.add_text(QPointF(12, 3), prompt, size, PANEL_TEXT, bold=True, width=width)
        else:
            self.add_panel(QRectF(0, -STATUS_BAND, WIDTH, 640 + STATUS_BAND))
            # What to do now, above the table (the other three boards say it in their side panel).
            self.add_text(QPointF(24, 12 - STATUS_BAND), self.status(view), 13, PANEL_TEXT, bold=True, width=WIDTH - 48)
        self._draw_opponent(state, other, view.get("opponent_state") if self.config.reveal_all else None)
        self._draw_info(view, me)
        if self.compact and state.get("drawn"):
            self._draw_drawn(state)
        else:
            self._draw_goal(state, me)
        self._draw_last(state, me)
        self._draw_power(state, me)
        self._draw_numbers(state, me)
        self._draw_buttons(view)

    def _draw_opponent(self, state: dict[str, Any], other: int, revealed: dict[str, Any] | None) -> None:
        """``revealed``: the opponent's own view of the position (replays), whose pick is shown face up."""
        named = self._watching or self.config.reveal_all
        compact = self.compact
        colour = self.config.colours.of(other)
        role = self._role(state, other)
        title = f"{self.name(other)} · {role}" if role else self.name(other)
        if compact:  # one row left of the power cards, the panel's title said in the row's
            self.add_panel(QRectF(6, 40, COMPACT_POWER_PANEL.left() - 12, 46))
            # The role goes under the name, with what the opponent is doing: a computer's name
            # ("Away (normal)") left no room for it on one line ("· at…").
            title = self.name(other) if named else f"Opponent: {self.name(other)}"
            fitted = fit_within(title, 196, 22, 11, COMPACT_SMALLEST, one_line_down_to=COMPACT_SMALLEST, bold=True)
            self.add_text(QPointF(16, 43), fitted.text, fitted.size, PANEL_TEXT, bold=True, width=200)
        else:
            self.add_panel(QRectF(10, 10, WIDTH - 20, 96), self.name(other) if named else "Opponent")
            self.add_text(QPointF(24, 34), title, 15, PANEL_TEXT, bold=True, width=420)
        counts = (state.get("hand_counts") or [[0, 0], [0, 0]])[other]
        dimmed = state.get("period") in NO_CARDS_NOTE
        back_rect = QRectF(222, 45, 28, 36) if compact else QRectF(470, 30, 40, 58)
        for side, back in ((0, ATTACKING_BACK), (1, DEFENDING_BACK)):
            for _ in range(counts[side]):
                self._card_back(
                    back_rect,
                    back,
                    "⚡",
                    f"{'Attacking' if side == 0 else 'Defending'} power card (hidden)",
                    dimmed=dimmed,
                )
                back_rect = back_rect.translated(22 if compact else 30, 0)
            back_rect = back_rect.translated(12 if compact else 18, 0)
        pick_rect = QRectF(406, 44, 58, 38) if compact else QRectF(860, 22, 48, 72)
        chosen = state.get("chosen") or [False, False]
        self.opponent_status = ""
        if revealed is not None:
            # A replay: nobody is choosing any more; a pick the record knows is shown face up.
            pick = revealed.get("my_choice") if chosen[other] else None
            if pick:
                self.opponent_status = f"picked: {self.describe(pick)}"
                self._face_card(
                    pick_rect,
                    colour,
                    pick.split(" ", 1)[-1],
                    f"{self.name(other)} {self.opponent_status}",
                )
        elif chosen[other]:
            self.opponent_status = "has chosen"
            self._card_back(pick_rect, colour.darker(140), "?", f"{self.name(other)} has chosen, face down")
        elif state.get("phase") in ("pass", "shot", "tackle", "kick"):
            # At one screen the other side picks after the hand-over, not meanwhile.
            self.opponent_status = "waits for the screen" if self.config.hot_seat else "choosing…"
        under_name = " · ".join(words for words in (role, self.opponent_status.split(":")[0]) if words)
        if under_name and compact:
            self.add_text(QPointF(16, 66), under_name, 8.5, MUTED_TEXT, width=200)
        elif self.opponent_status:
            self.add_text(QPointF(770, 44), self.opponent_status.split(":")[0], 10, MUTED_TEXT, width=90)

    def status(self, view: dict[str, Any]) -> str:
        """What the player at this board does now (or waits for), in a sentence."""
        state = view.get("state") or {}
        legal = list(view.get("legal") or [])
        phase = state.get("phase")
        other = self.name(1 - self.seat(view))
        if view.get("terminal") or phase == "over":
            return self.full_time_words(view)
        if not legal:
            if self.config.reveal_all:
                return "Replay: each step shows the position after one action (← and → step through it)."
            if state.get("my_choice"):
                return f"Your pick: {self.describe(state['my_choice'])}. Waiting for {other}…"
            if phase in ("toss", "deal", "draw"):
                return "Dealing the cards…" if phase != "draw" else "A power card is drawn…"
            waiting = " and ".join(self.name(seat) for seat in deciding_seats(state))
            return f"Waiting for {waiting or other}…"
        or_card = ", or play a power card" if any(t.startswith("play ") for t in legal) else ""
        verbs = {t.split()[0] for t in legal}
        if "pass" in verbs:
            passes, needed = int(state.get("passes", 0)) + 1, int(state.get("passes_needed", 7))
            which = "three numbers" if any("+" in t for t in legal) else "the number"
            return f"Your attack, pass {passes} of {needed}: click {which} you pass to{or_card}."
        if "mark" in verbs:
            which = "three numbers" if any("+" in t for t in legal) else "the number"
            return f"Defend: click {which} you mark{or_card}."
        if "shoot" in verbs:
            return "Shoot: click left, middle or right in the goal."
        if "save" in verbs:
            return "Save: click the side of the goal you dive to."
        if "retire" in verbs:
            return f"Counter attack: click a number to retire ({state.get('retires_left', 1)} left)."
        if "remove" in verbs:
            return "Narrow shot: click the side of the goal to close for this shot."
        if "show" in verbs:
            return "Tackle: show rock, paper or scissors."
        if "swap" in verbs:
            drawn = self.card_name(str(state.get("drawn") or ""))
            return f"You drew {drawn}: click a card to give up for it, or keep your hand."
        if phase == "block":
            named = state.get("named") or {}
            card, copied = str(named.get("card") or ""), named.get("as")
            # A Joker is named as what it copies: which BLOCK answers it may hang on its being a Joker.
            name = f"{self.card_name(card)} as {self.card_name(str(copied))}" if copied else self.card_name(card)
            if or_card:
                return f"{other} plays {name}: block it with your BLOCK card, or click No card."
            return f"{other} plays {name}: none of your cards blocks it — click No card."
        if phase in ("pass-reply", "shot-reply"):
            what = {"pass-reply": "the marked pass", "shot-reply": "the shot"}[phase]
            if or_card:
                return f"Take {what} again with your re-take card, or click No card."
            return f"None of your cards takes {what} again — click No card."
        return "Your decision: click a highlighted choice."

    def _role(self, state: dict[str, Any], seat: int) -> str:
        if state.get("phase") == "over":
            return ""
        if state.get("phase") == "kick":
            return "takes the penalty" if state.get("kicker") == seat else "in goal"
        if state.get("attacker") == seat:
            return "attacks"
        if state.get("defender") == seat:
            return "defends"
        return ""

    def kicks_each(self, state: dict[str, Any]) -> int:
        """Kicks each side takes in the shootout before sudden death (rulebook 11: 3)."""
        return int(state.get("shootout_kicks") or self.match.get("shootout_kicks", 3))

    def period_words(self, view: dict[str, Any]) -> str:
        """Where the match stands: "First half · round 2 of 4", "Extra time", "Penalty shootout · kick 2 of 3"."""
        state = view.get("state") or {}
        return " · ".join(period_parts(state, self.kicks_each(state)))

    def _draw_info(self, view: dict[str, Any], me: int) -> None:
        state = view.get("state") or {}
        compact = self.compact
        # The compact table's panel: smaller, its words 8 points or more on screen.
        box = QRectF(6, 90, 210, 210) if compact else QRectF(10, 118, 300, 322)
        left, width, top = box.left() + 14, box.width() - 28, box.top()
        big, small = (10.5, COMPACT_SMALLEST) if compact else (12.0, 9.0)
        self.add_panel(box, "Match")
        # On one line, above the score: made smaller rather than wrapped onto it.
        line = text_extent("X", big, bold=True).height() * 1.5
        fitted = fit_within(self.period_words(view), width, line, big, small, one_line_down_to=small, bold=True)
        self.add_text(QPointF(left, top + 22), fitted.text, fitted.size, PANEL_TEXT, bold=True, width=width + 8)
        goals = state.get("goals", [0, 0])
        # Long team names: smaller, then on two lines, never over the pass count below.
        score = f"{self.name(0)} {goals[0]} – {goals[1]} {self.name(1)}"
        score_sizes = (9.5, COMPACT_SMALLEST, COMPACT_SMALLEST) if compact else (11.0, 7.5, 9.0)
        fitted = fit_within(score, width, 28, score_sizes[0], score_sizes[1], one_line_down_to=score_sizes[2])
        self.add_text(
            QPointF(left, top + (42 if compact else 48)), fitted.text, fitted.size, PANEL_TEXT, width=width + 8
        )
        period = state.get("period")
        kicks = state.get("shootout") or [[], []]
        lines = []
        track = top + (70 if compact else 76)
        if period == "shootout" or any(kicks):
            # No passes in the shootout: its kicks take the place of the pass count.
            self._draw_shootout(state, QRectF(left, track, width, 48 if compact else 56))
            if period == "shootout":
                regular = self.kicks_each(state)
                if min(len(kicks[0]), len(kicks[1])) < regular:
                    lines.append(f"{regular} kicks each; if still level, sudden death.")
                else:
                    lines.append("Sudden death: a kick each until one scores and the other misses.")
        elif state.get("phase") != "over":
            self._draw_passes(state, QPointF(left, track + (0 if compact else 2)), width)
        lines += self._turn_lines(state)
        more = []
        if period in CARDS_PERIODS:
            piles = state.get("piles") or {}
            more.append(f"Piles: attacking {piles.get('attacking', 0)}, defending {piles.get('defending', 0)}")
            discards = state.get("discards") or {}
            # The discard pile of the whole match (a Joker copies from it), not the cards of this turn.
            played = [self.card_name(c) for side in ("attacking", "defending") for c in discards.get(side, [])]
            if played:
                more.append("Discard pile: " + ", ".join(played[-6:]))
        size = 8.5 if compact else 9.5
        lines_top = top + (122 if compact else 140)
        room = box.bottom() - 6 - lines_top
        # The compact panel shows what holds for this attack; the piles when there is room,
        # else when the mouse rests on the panel (as everything else it says).
        shown = lines + more
        while compact and shown and wrapped_height("\n".join(shown), width + 4, size) > room:
            shown.pop()
        text = self.add_text(QPointF(left, lines_top), "\n".join(shown), size, MUTED_TEXT, width=width + 4)
        if len(shown) < len(lines + more):
            text.setToolTip("\n".join(lines + more))

    def _draw_passes(self, state: dict[str, Any], pos: QPointF, width: float) -> None:
        """The pass count of the attack under way and its track of pips."""
        passes, needed = int(state.get("passes", 0)), int(state.get("passes_needed", 7))
        compact = self.compact
        count = f"Passes: {passes} of {needed}"
        self.add_text(pos, count, 10 if compact else 11, PANEL_TEXT, bold=True, width=width + 8)
        attacker = state.get("attacker")
        colour = self.config.colours.of(attacker) if attacker in (0, 1) else QColor("#888888")
        number_size = COMPACT_SMALLEST if compact else 7.0

        def pips(p: QPainter, r: QRectF) -> None:
            step = r.width() / max(needed, 1)
            for i in range(needed):
                c = QPointF(r.left() + step * (i + 0.5), r.center().y())
                p.setPen(QPen(LINE, 1.5))
                p.setBrush(colour if i < passes else QColor(255, 255, 255, 25))
                p.drawEllipse(c, min(10.0, step * 0.38), min(10.0, step * 0.38))
                p.setPen(PANEL_TEXT)
                p.setFont(ui_font(number_size))
                p.drawText(QRectF(c.x() - 10, c.y() - 10, 20, 20), Qt.AlignmentFlag.AlignCenter, str(i + 1))

        item = Painted(QRectF(pos.x(), pos.y() + (22 if compact else 26), width, 24 if compact else 26), pips)
        item.setToolTip("Passes made this turn; the shot comes after the last one")
        self.addItem(item)

    def _turn_lines(self, state: dict[str, Any]) -> list[str]:
        """What holds for the attack under way, and nothing of an earlier pass or turn."""
        lines = []
        retired = state.get("retired") or []
        if retired:
            lines.append("Retired this turn: " + " ".join(map(str, retired)))
        modifiers = ", ".join(self.card_name(m) for m in state.get("modifiers") or [])
        named = state.get("named") or {}
        copied = str(named.get("as") or named.get("card") or "")
        retaking = state.get("phase") == "pass-reply" or (
            state.get("phase") == "block"
            and ((state.get("cards") or {}).get(copied) or {}).get("timing") == "matched-pass"
        )
        if retaking:
            # The view's "modifiers" still holds the marked pass's cards while a re-take is open
            # (a re-taken pass keeps them, docs/rulings.md): they are on no next pass.
            if modifiers:
                lines.append(f"On the marked pass: {modifiers} (again if it is re-taken).")
        else:
            if state.get("restriction"):
                lines.append("Next pass only: " + " ".join(map(str, state["restriction"])))
            if modifiers:
                lines.append("In effect: " + modifiers)
        if state.get("chances_left", 1) > 1:
            lines.append(f"Chances left: {state['chances_left']}")
        if named:
            # Only the side that may block is asked; the side that played it is told.
            asked = state.get("phase") == "block" and bool((self.view_data or {}).get("legal"))
            lines.append(
                f"Named card: {self.card_name(copied)}" + (" — block it?" if asked else " (it may be blocked)")
            )
        return lines

    def _draw_shootout(self, state: dict[str, Any], rect: QRectF) -> None:
        """The shootout's kicks, a row a side: scored ✓, missed ✗, a ring for each regular kick to come."""
        kicks = state.get("shootout") or [[], []]
        regular = self.kicks_each(state)
        slots = max(regular, len(kicks[0]), len(kicks[1]))
        row = rect.height() / 2
        score_w = 28.0
        names = [self.name(seat) for seat in (0, 1)]
        # The names take the room they need, short of what the kicks need (the compact table's
        # kicks a little closer, and its names down to 8 points on one line: at 1000 x 540 the
        # computer taking its kick, in bold, read "Away (nor…").
        least_step, one_line_down_to = (16.0, COMPACT_SMALLEST) if self.compact else (18.0, 8.5)
        wanted = max(text_extent(name, 10.5, bold=True).width() for name in names) + 18
        name_w = max(64.0, min(wanted, rect.width() - score_w - slots * least_step))
        step = min(24.0, (rect.width() - score_w - name_w) / slots)
        radius = min(9.0, step * 0.4)
        kicker = state.get("kicker")
        room = name_w - 16  # from the team's stripe to a gap before the first kick
        smallest = COMPACT_SMALLEST if self.compact else 7.0
        faces = [
            fit_within(name, room, row, 10.5, smallest, one_line_down_to=one_line_down_to, bold=seat == kicker)
            for seat, name in enumerate(names)
        ]

        def paint(p: QPainter, r: QRectF) -> None:
            for seat in (0, 1):
                top = seat * row
                p.setPen(QPen(self.config.colours.of(seat), 4))
                p.drawLine(QPointF(1, top + 5), QPointF(1, top + row - 5))
                font, shown, *_ = faces[seat]
                p.setPen(PANEL_TEXT)
                p.setFont(font)
                p.drawText(QRectF(8, top, room, row), Qt.AlignmentFlag.AlignVCenter, shown)
                for i in range(slots):
                    c = QPointF(name_w + step * (i + 0.5), top + row / 2)
                    if i >= len(kicks[seat]):
                        if i < regular:  # a regular kick still to come
                            p.setPen(QPen(MUTED_TEXT, 1.2))
                            p.setBrush(Qt.BrushStyle.NoBrush)
                            p.drawEllipse(c, radius, radius)
                        continue
                    scored = kicks[seat][i]
                    p.setPen(QPen(LINE, 1))
                    p.setBrush(SCORED if scored else MISSED)
                    p.drawEllipse(c, radius, radius)
                    p.setPen(QColor("#000000"))
                    p.setFont(ui_font(max(radius, smallest) if self.compact else radius, bold=True))
                    box = QRectF(c.x() - radius, c.y() - radius, 2 * radius, 2 * radius)
                    p.drawText(box, Qt.AlignmentFlag.AlignCenter, "✓" if scored else "✗")
                p.setPen(PANEL_TEXT)
                p.setFont(ui_font(12, bold=True))
                score = QRectF(r.width() - score_w, top, score_w, row)
                p.drawText(score, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight, str(sum(kicks[seat])))
            if slots > regular:  # sudden death begins after the regular kicks
                p.setPen(QPen(MUTED_TEXT, 1, Qt.PenStyle.DotLine))
                x = name_w + step * regular
                p.drawLine(QPointF(x, 2), QPointF(x, r.height() - 2))

        item = Painted(rect, paint)
        told = [
            f"{name}: {sum(kicks[seat])} of {len(kicks[seat])}"
            + (f" ({', '.join('scored' if k else 'missed' for k in kicks[seat])})" if kicks[seat] else "")
            for seat, name in enumerate(names)
        ]
        item.setToolTip(f"Penalty shootout, {regular} kicks each then sudden death — " + "; ".join(told))
        self.addItem(item)

    def _draw_goal(self, state: dict[str, Any], me: int) -> None:
        compact = self.compact
        goal = QRectF(228, 92, 244, 94) if compact else QRectF(340, 130, 320, 150)
        open_dirs = state.get("directions") or ["left", "middle", "right"]
        narrowed = state.get("narrowed")

        def frame(p: QPainter, r: QRectF) -> None:
            grad = QLinearGradient(r.topLeft(), r.bottomLeft())
            grad.setColorAt(0, QColor("#2f7d3b"))
            grad.setColorAt(1, QColor("#225c2b"))
            p.fillRect(r, grad)
            p.setPen(QPen(QColor(255, 255, 255, 60), 0.8))
            for i in range(1, 16):
                p.drawLine(
                    QPointF(r.left() + i * r.width() / 16, r.top()), QPointF(r.left() + i * r.width() / 16, r.bottom())
                )
            for i in range(1, 7):
                p.drawLine(
                    QPointF(r.left(), r.top() + i * r.height() / 7), QPointF(r.right(), r.top() + i * r.height() / 7)
                )
            p.setPen(QPen(LINE, 6))
            p.drawLine(r.bottomLeft(), r.topLeft())
            p.drawLine(r.topLeft(), r.topRight())
            p.drawLine(r.topRight(), r.bottomRight())

        self.addItem(Painted(goal, frame))
        # Directions as the shooter sees them: left is left for the player at this screen.
        for i, direction in enumerate(("left", "middle", "right")):
            rect = QRectF(goal.left() + i * goal.width() / 3, goal.top(), goal.width() / 3, goal.height())
            key = ("dir", direction)
            closed = direction not in open_dirs or direction == narrowed

            def paint(
                p: QPainter, r: QRectF, direction: str = direction, key: Key = key, closed: bool = closed
            ) -> None:
                if closed:
                    p.fillRect(r.adjusted(4, 4, -4, -4), QColor(0, 0, 0, 110))
                p.setPen(PANEL_TEXT if not closed else MUTED_TEXT)
                p.setFont(ui_font(11 if compact else 12, bold=True))
                p.drawText(
                    r.adjusted(0, 6 if compact else 8, 0, 0),
                    Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop,
                    direction if not closed else f"{direction}\n(closed)",
                )
                self.paint_marks(p, r.adjusted(6, 26 if compact else 30, -6, -6), key)

            item = Painted(rect, paint)
            self.addItem(item)
            verb = next((t.split()[0] for t in self.legal() if path_of(t) == (key,)), "")
            tip = DIRECTION_VERBS.get(verb, "The {direction} of the goal").format(direction=direction)
            self.make_clickable(item, key, tip)
        my_choice = state.get("my_choice")
        if my_choice and my_choice.split()[0] in ("shoot", "save"):
            whose = f"{self.name(me)}'s" if self.config.reveal_all else "Your"
            self.add_text(
                QPointF(goal.left(), goal.bottom() + 3),
                f"{whose} card, face down: {my_choice}",
                9 if compact else 10,
                PANEL_TEXT,
                width=goal.width(),
                align=Qt.AlignmentFlag.AlignHCenter,
            )

    def _draw_last(self, state: dict[str, Any], me: int) -> None:
        last = state.get("last")
        kicks = state.get("shootout") or [[], []]
        compact = self.compact
        box = QRectF(222, 212, 250, 88) if compact else QRectF(340, 306, 320, 134)
        note_at, note_size = box.topLeft() + (QPointF(12, 26) if compact else QPointF(16, 34)), 9 if compact else 10
        if (state.get("period") == "shootout" or any(kicks)) and not any(kicks) and last:
            # No kick taken yet: the reveal that sent the match to penalties (extra time's last).
            self.add_panel(box, "Reveal before the shootout" if compact else "Last reveal · before the shootout")
        elif state.get("period") == "shootout" or any(kicks):
            # The shootout's own reveals only.
            if not last or last.get("kind") != "kick":
                self.add_panel(box, "Last kick")
                self.add_text(note_at, "No kick taken yet.", note_size, MUTED_TEXT, width=box.width() - 30)
                return
            first = state.get("first_attacker")
            first = first if first in (0, 1) else 0
            # The first attacker kicks first (Rulings, Soccer-Go 4): level counts mean the other kicked last.
            kicker = first if len(kicks[first]) > len(kicks[1 - first]) else 1 - first
            self.add_panel(box, elided_title(f"Last kick: {self.name(kicker)}", box.width() - 24))
        elif self._before_this_attack(state, last):
            self.add_panel(box, "Last reveal · the attack before")
        else:
            self.add_panel(box, "Last reveal")
        if not last:
            self.add_text(note_at, "Nothing turned over yet.", note_size, MUTED_TEXT, width=box.width() - 30)
            return
        # The view does not say which seat attacked in that reveal (the turn may have passed
        # on since), so the cards are told apart by role, not by team colour.
        kind = str(last.get("kind", ""))
        roles = {
            "pass": ("pass", "mark"),
            "shot": ("shot", "dive"),
            "kick": ("shot", "dive"),
            "tackle": ("attacker", "defender"),
        }
        first, second = roles.get(kind, ("attacker", "defender"))
        card = QRectF(8, 20, 58, 48) if compact else QRectF(30, 24, 56, 72)
        gap = 24 if compact else 36  # between the two cards, for the "vs"
        caption, big = (8.0, 9.5) if compact else (8.5, 12.0)
        for role, seat_key, left in ((first, "attacker", card.left()), (second, "defender", card.right() + gap)):
            face = QRectF(box.left() + left, box.top() + card.top(), card.width(), card.height())
            self._face_card(face, CARD_FACE, str(last.get(seat_key, "")), f"The {seat_key}'s {role}")
            self.add_text(
                QPointF(face.left() - 5, face.bottom() + (1 if compact else 2)),
                role,
                caption,
                MUTED_TEXT,
                width=face.width() + 10,
                align=Qt.AlignmentFlag.AlignHCenter,
            )
        self.add_text(
            QPointF(box.left() + card.right() + 4, box.top() + card.center().y() - 14),
            "vs",
            big,
            PANEL_TEXT,
            bold=True,
            width=gap - 4,
        )
        result = str(last.get("result", "")).replace("-", " ")
        if kind == "tackle" and not result:
            result = "a tie, again"  # both showed the same sign
        left = card.right() * 2 + gap - card.left() + 12
        self.add_text(
            QPointF(box.left() + left, box.top() + card.top() + 8 if compact else box.top() + 44),
            f"{last.get('kind', '')}:\n{result}",
            big,
            PANEL_TEXT,
            bold=True,
            width=box.width() - left - 8,
        )

    def _before_this_attack(self, state: dict[str, Any], last: dict[str, Any] | None) -> bool:
        """Whether ``last`` was turned over before the attack under way (the view does not date it)."""
        if not last:
            return False
        # Sure only in extra time: with no cards, nothing but a pass is turned over, and the
        # first one costs a chance (marked) or counts (made).
        full = int(self.match.get("extra_time_chances", 2))
        return (
            state.get("period") == "extra-time"
            and state.get("phase") == "pass"
            and not state.get("passes")
            and state.get("chances_left") == full
        )

    def _draw_power(self, state: dict[str, Any], me: int) -> None:
        period = str(state.get("period", ""))
        compact = self.compact
        box = QRectF(COMPACT_POWER_PANEL) if compact else QRectF(690, 118, 300, 322)
        left, width = box.left() + (8 if compact else 12), box.width() - (16 if compact else 24)
        words = 9.0 if compact else 10.0
        # Rulebook 10 and 11: the cards are still the player's, but count for nothing now.
        note = NO_CARDS_NOTE.get(period, "")
        first_line = box.top() + (20 if compact else 22)
        top = first_line + (18 if compact else 24) if note else first_line
        if self._watching:
            # Hidden from a spectator too: the backs, as many as the player holds of each side.
            self.add_panel(box, f"{self.name(me)}'s power cards")
            counts = (state.get("hand_counts") or [[0, 0], [0, 0]])[me]
            if note and sum(counts):
                self.add_text(QPointF(left, first_line), note, words, MUTED_TEXT, bold=True, width=width)
            back = QRectF(left, top + 4, 30, 42) if compact else QRectF(left, top + 4, 40, 58)
            for side, colour in ((0, ATTACKING_BACK), (1, DEFENDING_BACK)):
                for _ in range(counts[side]):
                    label = f"{'Attacking' if side == 0 else 'Defending'} power card (hidden)"
                    self._card_back(back, colour, "⚡", label, dimmed=bool(note))
                    back = back.translated(back.width() + 6, 0)
            if not sum(counts):
                self.add_text(QPointF(left, first_line), "No power cards.", words, MUTED_TEXT, width=width)
            return
        # A replay shows one side's cards to whoever watches it: by the side's name.
        self.add_panel(box, f"{self.name(me)}'s power cards" if self.config.reveal_all else "Your power cards")
        hand = list(state.get("hand") or [])
        drawn = state.get("drawn")
        if note and hand:
            self.add_text(QPointF(left, first_line), note, words, MUTED_TEXT, bold=True, width=width)
        y = top
        # The full table shows a card drawn under the hand (the compact one in a panel of its
        # own, :meth:`_draw_drawn`): every card a little lower, so that all of them stay inside
        # the panel (it stood over the panel's edge and the next panel's).
        beside = drawn if not compact else None
        room = box.bottom() - 4 - top - (DRAWN_LABEL if beside else 0.0)
        shown = [*hand, *([beside] if beside else [])]
        if compact:
            laid = self._compact_faces(state, shown, width, room)
            cards = [QRectF(0, 0, width, height) for _face, height in laid]
            faces: list[CompactFace | None] = [face for face, _height in laid]
        else:
            height = min(POWER_CARD.height(), room / len(shown) - POWER_CARD_GAP) if shown else 0.0
            cards = [QRectF(0, 0, POWER_CARD.width(), height) for _ in shown]
            faces = [None for _ in shown]
        for code, card, face in zip(hand, cards, faces, strict=False):
            self._power_card(card.translated(left, y), state, code, not note, bool(note), face)
            y += card.height() + POWER_CARD_GAP
        if beside:
            self.add_text(QPointF(left, y), "Drawn — keep it by swapping a card out:", 9, MUTED_TEXT, width=width)
            self._power_card(cards[-1].translated(left, y + DRAWN_LABEL), state, beside, False)
        if not hand and not drawn:
            self.add_text(QPointF(left, y), "No power cards.", words, MUTED_TEXT, width=width)

    def _draw_drawn(self, state: dict[str, Any]) -> None:
        """The compact table's card just drawn, in a panel of its own left of the hand: the hand
        keeps the whole of its panel, so five cards' texts show whole at 8 points on screen."""
        box = QRectF(COMPACT_DRAWN_PANEL)
        left, width, top = box.left() + 8, box.width() - 16, box.top() + 20
        self.add_panel(box, "Card drawn")
        self.add_text(QPointF(left, top), "Swap a card out to keep it", 8.5, MUTED_TEXT, width=width)
        top += 14
        drawn = str(state.get("drawn"))
        [(face, height)] = self._compact_faces(state, [drawn], width, box.bottom() - 4 - top)
        self._power_card(QRectF(left, top, width, height), state, drawn, False, False, face)

    def _compact_faces(
        self, state: dict[str, Any], codes: list[str], width: float, room: float
    ) -> list[tuple[CompactFace, float]]:
        """The faces of the compact table's power cards ``codes`` and the cards' heights, all
        ``width`` wide and in ``room`` high: whole, in the largest text that lets them (8 points
        on screen at the least), all as high as the tallest when that fits too; cut with "…"
        only if they do not fit in the smallest, each card then an equal share of the room."""
        if not codes:
            return []
        cards = state.get("cards") or {}
        words = [
            (str(cards.get(c, {}).get("name", c)), self.windows.get(c, ""), self._card_text(state, c)) for c in codes
        ]
        inside = width - COMPACT_FACE[0] + COMPACT_FACE[2]
        inset = COMPACT_FACE[1] - COMPACT_FACE[3]
        faces_room = room - (POWER_CARD_GAP + inset) * len(codes)
        smallest = COMPACT_SMALLEST / max(1.0, self.screen_scale)
        sizes = [size for size in COMPACT_TEXT_SIZES if size >= smallest - 0.01]
        for size in sizes:
            faces = [CompactFace.of(*card, inside, size) for card in words]
            if sum(face.height for face in faces) <= faces_room:
                tallest = max(face.height for face in faces)
                if len(faces) * tallest <= faces_room:
                    return [(face, tallest + inset) for face in faces]
                return [(face, face.height + inset) for face in faces]
        share = faces_room / max(1, len(codes))
        return [(CompactFace.of(*card, inside, sizes[-1], share), share + inset) for card in words]

    def draw_overlay(self) -> None:
        """After the Joker is clicked: the cards it may copy (redrawn on every click)."""
        super().draw_overlay()
        state = (self.view_data or {}).get("state") or {}
        joker = [t for t in self.legal() if t.startswith("play ") and " as " in t]
        if joker and self.selection and self.selection[0][0] == "power":
            self._draw_copies(state, sorted({t.split()[3] for t in joker if t.split()[1] == self.selection[0][1]}))

    def _draw_copies(self, state: dict[str, Any], copies: list[str]) -> None:
        """The cards a selected Joker may copy, laid over the middle of the table."""
        box = QRectF(222, 150, 250, 150) if self.compact else QRectF(340, 296, 320, 150)
        panel = self.add_panel(box, "The Joker copies…")
        panel.setZValue(20)
        column = (box.width() - 24) / 2
        for i, card in enumerate(copies):
            rect = QRectF(box.left() + 12 + (i % 2) * (column + 4), box.top() + 26 + (i // 2) * 30, column - 2, 26)
            button = self.add_button(rect, self.card_name(card), ("as", card), tooltip=self._card_text(state, card))
            button.setZValue(21)

    def _power_card(
        self,
        rect: QRectF,
        state: dict[str, Any],
        card: str,
        clickable: bool = True,
        dimmed: bool = False,
        face: CompactFace | None = None,
    ) -> None:
        """``dimmed``: held but not playable in this period (extra time, the shootout); ``face``:
        how the compact table writes it (:meth:`_compact_faces`), none on the full table."""
        info = (state.get("cards") or {}).get(card, {})
        side = info.get("side", "attacking")
        back = ATTACKING_BACK if side == "attacking" else DEFENDING_BACK
        key = ("power", card)
        name = info.get("name", card)
        window = self.windows.get(card, "")

        def paint(p: QPainter, r: QRectF) -> None:
            p.setPen(QPen(back.darker(160), 1.5))
            p.setBrush(back)
            p.drawRoundedRect(r.adjusted(1, 1, -1, -1), 6, 6)
            p.setBrush(CARD_FACE)
            if face is not None:
                p.drawRoundedRect(r.adjusted(4, 4, -4, -4), 3, 3)
                self._paint_compact_face(p, r.adjusted(*COMPACT_FACE), face, name, window, back)
                if clickable:
                    self._mark_card(p, r, key)
                return
            p.drawRoundedRect(r.adjusted(6, 6, -6, -6), 4, 4)
            p.setPen(QColor("#1d1d1d"))
            p.setFont(ui_font(10, bold=True))
            p.drawText(r.adjusted(12, 7, -8, 0), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, name)
            p.setFont(ui_font(8, bold=True))
            p.setPen(back.darker(130))
            p.drawText(r.adjusted(12, 9, -12, 0), Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop, window)
            p.setPen(QColor("#1d1d1d"))
            text = info.get("text", "")
            p.setFont(ui_font(power_text_size(text, r)))
            # Not clipped: a view's zoom may lay the text out a pixel taller than measured, and a
            # cut line reads worse than one on the face's margin (QA: "passes." cut in half).
            flags = Qt.AlignmentFlag.AlignLeft | Qt.TextFlag.TextWordWrap | Qt.TextFlag.TextDontClip
            p.drawText(r.adjusted(*POWER_TEXT_MARGINS), flags, text)
            if clickable:
                self._mark_card(p, r, key)

        item = Painted(rect, paint)
        self.addItem(item)
        tip = f"{name} ({side}): {info.get('text', '')} Playable: {window}."
        if dimmed:
            item.setOpacity(0.4)
            tip = f"{name} ({side}): {NO_CARDS_NOTE.get(str(state.get('period')), '')} {info.get('text', '')}"
        if clickable:
            self.make_clickable(item, key, tip)
        else:
            item.setToolTip(tip)

    @staticmethod
    def _paint_compact_face(p: QPainter, r: QRectF, face: CompactFace, name: str, timing: str, back: QColor) -> None:
        """A power card's face on the compact table, in ``r``, as ``face`` lays it out."""
        top_left = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop
        line = face.line
        name_line = face.first - (line if face.timing_apart else 0)
        p.setPen(QColor("#1d1d1d"))
        p.setFont(ui_font(face.size + 0.5, bold=True))
        p.drawText(QRectF(r.left(), r.top(), face.name_width, name_line), top_left, name)
        if face.timing_apart:
            room = QRectF(r.left(), r.top() + name_line, r.width(), line + 1)
        else:
            room = QRectF(r.left() + face.name_width + 8, r.top() + 1, r.width() - face.name_width - 8, name_line)
        timing_font = ui_font(face.size, bold=True)
        timing = QFontMetricsF(timing_font).elidedText(timing, Qt.TextElideMode.ElideRight, room.width() - 2)
        if timing.strip("…"):
            p.setFont(timing_font)
            p.setPen(back.darker(130))
            p.drawText(room, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop, timing)
        p.setPen(QColor("#1d1d1d"))
        p.setFont(ui_font(face.size))
        for i, words in enumerate(face.lines):
            p.drawText(QRectF(r.left(), r.top() + face.first + i * line, r.width(), line + 1), top_left, words)

    def _draw_numbers(self, state: dict[str, Any], me: int) -> None:
        role = self._role(state, me) or ("full time" if state.get("phase") == "over" else "waiting")
        compact = self.compact
        self.add_panel(
            QRectF(6, 306, COMPACT_WIDTH - 12, 92) if compact else QRectF(10, 452, WIDTH - 20, 132),
            f"{self.name(me)} — {'player' if self._watching or self.config.reveal_all else 'your player'} cards  ({role})",
        )
        colour = self.config.colours.of(me)
        ink = self.config.colours.text_on(me)
        retired = set(state.get("retired") or [])
        mine = state.get("my_choice") or ""
        # Nothing to pass or mark in the shootout or after full time: the cards stand faded.
        idle = state.get("period") in ("shootout", "full-time") or state.get("phase") == "over"
        chosen_numbers: set[int] = set()
        if mine.split()[0:1] and mine.split()[0] in ("pass", "mark"):
            chosen_numbers = {int(n) for n in mine.split()[1].split("+")}
        for number in range(1, 12):
            key = ("num", number)
            lifted = number in chosen_numbers
            if compact:
                # 58 wide on a step of 64: the outlines of two cards that may be clicked keep
                # a gap between them (they reach 2.5 past the card; display audit 3).
                rect = QRectF(15 + (number - 1) * 64, 326 - (6 if lifted else 0), 58, 66)
            else:
                rect = QRectF(28 + (number - 1) * 86, 484 - (14 if lifted else 0), CARD_W + 10, CARD_H)
            gone = number in retired

            def paint(
                p: QPainter, r: QRectF, number: int = number, gone: bool = gone, key: Key = key, lifted: bool = lifted
            ) -> None:
                if idle:
                    p.setOpacity(0.35)
                face = QColor(colour) if not gone else QColor("#5a606b")
                p.setPen(QPen(face.darker(170), 2))
                p.setBrush(face)
                p.drawRoundedRect(r.adjusted(2, 2, -2, -2), 8, 8)
                p.setPen(ink if not gone else QColor("#c8ccd4"))
                p.setFont(ui_font(20 if compact else 24, bold=True))
                p.drawText(r, Qt.AlignmentFlag.AlignCenter, str(number))
                p.setFont(ui_font(COMPACT_SMALLEST if compact else 7))
                label = "keeper" if number == 1 else ("retired" if gone else "")
                if lifted:
                    label = "face down"
                bottom = r.adjusted(0, 0, 0, -4 if compact else -6)
                p.drawText(bottom, Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignBottom, label)
                if gone:
                    p.setPen(QPen(QColor("#1d1d1d"), 3))
                    p.drawLine(r.topLeft() + QPointF(8, 8), r.bottomRight() - QPointF(8, 8))
                self._mark_card(p, r, key)

            item = Painted(rect, paint)
            self.addItem(item)
            verb = "Pass to" if state.get("attacker") == me else "Mark"
            tip = f"{verb} number {number}"
            if gone:
                tip = f"Number {number} is retired for this turn"
            if idle:
                tip = "No passes or marks in the shootout" if state.get("period") == "shootout" else "The match is over"
            self.make_clickable(item, key, tip)

    def _draw_buttons(self, view: dict[str, Any]) -> None:
        placed = {"num", "dir", "power", "as"}
        rest = [t for t in view.get("legal", []) if path_of(t)[0][0] not in placed]
        if not rest:
            return
        labels = {t: self.action_label(t) for t in rest}
        origin, width, height = (
            (QPointF(12, 404), COMPACT_WIDTH - 24, 28) if self.compact else (QPointF(20, 596), WIDTH - 40, 34)
        )
        self.add_action_buttons(rest, origin, width, height=height, columns=min(4, len(rest)), labels=labels)

    # --- small pieces -------------------------------------------------------------------

    def _mark_card(self, p: QPainter, r: QRectF, key: Key) -> None:
        """The marks of a card, read when it is painted (a click changes them without a redraw)."""
        mark_card(p, r, key in self.targets, key in self.selection, key in self.preview_keys())

    def _card_text(self, state: dict[str, Any], card: str) -> str:
        return str(((state.get("cards") or {}).get(card, {})).get("text", ""))

    def _card_back(self, rect: QRectF, back: QColor, mark: str, tooltip: str, dimmed: bool = False) -> None:
        def paint(p: QPainter, r: QRectF) -> None:
            p.setPen(QPen(back.darker(170), 1.5))
            p.setBrush(back)
            p.drawRoundedRect(r.adjusted(1, 1, -1, -1), 5, 5)
            p.setPen(QPen(QColor(255, 255, 255, 90), 1))
            p.drawRoundedRect(r.adjusted(5, 5, -5, -5), 3, 3)
            p.setPen(QColor("#ffffff"))
            p.setFont(ui_font(r.height() * 0.25, bold=True))
            p.drawText(r, Qt.AlignmentFlag.AlignCenter, mark)

        item = Painted(rect, paint)
        item.setToolTip(tooltip)
        if dimmed:
            item.setOpacity(0.4)
        self.addItem(item)

    def _face_card(self, rect: QRectF, colour: QColor, label: str, tooltip: str) -> None:
        def paint(p: QPainter, r: QRectF) -> None:
            p.setPen(QPen(colour.darker(170), 2))
            p.setBrush(colour)
            p.drawRoundedRect(r.adjusted(1, 1, -1, -1), 7, 7)
            p.setPen(QColor("#000000") if colour.lightness() > 140 else QColor("#ffffff"))
            # "9+10+11" at 8 points on the compact table's narrower cards.
            p.setFont(ui_font(14 if len(label) < 4 else COMPACT_SMALLEST if self.compact else 8.5, bold=True))
            p.drawText(r, Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, label)

        item = Painted(rect, paint)
        item.setToolTip(tooltip)
        self.addItem(item)
