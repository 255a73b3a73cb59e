"""The match screen: board, score, phase and clock, event log, animations, hand-over, summary.

It shows what a :class:`~soccerdesk.ui.session.MatchSession` emits and sends back the action
texts the board reports. It holds no state of the match and decides nothing about legality.

Views from the session are shown in order: the events of each are logged, animated (dice,
cards, goals; skippable, speed from the settings), and only then is the board redrawn, so
a fast bot cannot make the screen jump past what a person should see.

Keyboard: Tab / Shift+Tab cycle the legal actions the board offers (previewed on the board),
Enter plays the previewed action, Escape skips an animation, Ctrl+Z undoes.

Signals:
    home_requested(): leave the match for the home screen.
    rematch_requested(): start the same match again.
    replay_requested(dict): open the replay viewer on this match record.
    help_requested(): show the rules of this game.
"""

from __future__ import annotations

import html
import math
import time
from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING, Any

import shiboken6
from PySide6.QtCore import QEvent, QObject, QSizeF, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QHideEvent, QImage, QKeyEvent, QPainter, QResizeEvent, QTextCursor
from PySide6.QtWidgets import (
    QFrame,
    QGraphicsView,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QStackedLayout,
    QVBoxLayout,
    QWidget,
)

from soccerdesk.learn.words import name_seats
from soccerdesk.rules import decided_words
from soccerdesk.ui.animation import DIE_SIDES, Animation, EventAnimation, animation_for
from soccerdesk.ui.boards import BoardConfig, BoardScene, TeamColours, make_board
from soccerdesk.ui.hint import HintControl
from soccerdesk.ui.keys import ENTER_KEYS, press_focused_button
from soccerdesk.ui.session import NO_ANSWER, LocalSession, MatchSession, against_the_computer
from soccerdesk.ui.settings import ANIMATION_SPEEDS, text_colour_on, time_played_words

if TYPE_CHECKING:
    from soccerdesk.rules import Game

MAX_ANIMATIONS = 3
"""At most this many animations before one position is shown (the latest ones, and the last
goal or half-time banner among those before them)."""

BANNERS = frozenset({"goal", "banner"})

WAIT_FOR_SHOW = "Wait for the last move to finish showing."
FULL_TIME_HINT = "Full time: the match is over. Result shows the score, a rematch and the replay."


@dataclass(frozen=True)
class LogEntry:
    """A line of "What happened": ``audience`` the seats that may read it (``None``: all),
    ``ply`` the actions played when it happened (``None``: not known, never taken back).

    A line written for an event keeps the ``event`` (``Event.to_json()``): it is told again in
    the words of whoever reads the log (a hot-seat board names zones from its reader's side).
    ``batch`` numbers the views the lines came with: the events of one action when no ``ply``
    says so.
    """

    text: str
    audience: tuple[int, ...] | None = None
    ply: int | None = None
    event: dict[str, Any] | None = None
    batch: int = 0
    told: dict[int | None, str] = field(default_factory=dict, compare=False, repr=False)  # reader -> words

    def visible_to(self, seat: int | None) -> bool:
        return self.audience is None or seat in self.audience

    def as_event(self) -> dict[str, Any]:
        """What :func:`retold` looks at: the event's kind, data and audience."""
        return {**(self.event or {}), "audience": self.audience}


def merge_repeats(lines: Sequence[str]) -> list[str]:
    """``lines`` with each run of one line told once with its count: six "Away draws a card"
    at the deal read "Away draws 6 cards", other repeats "... (×3)"."""
    merged: list[str] = []
    run = 0
    for i, line in enumerate(lines):
        run += 1
        if i + 1 < len(lines) and lines[i + 1] == line:
            continue
        if run == 1:
            merged.append(line)
        elif line.endswith(" a card"):
            merged.append(f"{line[: -len(' a card')]} {run} cards")
        else:
            merged.append(f"{line} (×{run})")
        run = 0
    return merged


def _action_of(entry: LogEntry) -> Any:
    """The action a line tells of: its ply, else the view it came with."""
    return entry.ply if entry.ply is not None else ("view", entry.batch)


def _twin_key(event: Mapping[str, Any]) -> tuple[str, Any]:
    """What a secret and its public telling share: the kind's family ("draw-back" and "draw",
    "swap" and "swap-detail") and the seat it is about (a secret's own seat if its data has none)."""
    data = event.get("data") or {}
    audience = event.get("audience")
    seat = data.get("seat")
    if seat is None and audience is not None and len(audience) == 1:
        seat = audience[0]
    return str(event.get("kind", "")).split("-")[0], seat


def retold(events: Sequence[Mapping[str, Any]], sees: Callable[[Sequence[int]], bool]) -> set[int]:
    """Indexes of the public events of one action that tell again, without the secret, a
    private event whose audience ``sees`` accepts.

    The rules tell a secret twice: in full to its owner (``audience`` set: "Home draws Dribble.")
    and to everyone without it ("Home draws an attacking card."). A reader of the private line
    reads only it, else the log would read as two draws. Each secret hides one public line of
    its family about the same seat, the nearest; the other seat's public lines stay.
    """
    public = [i for i, event in enumerate(events) if event.get("audience") is None]
    hidden: set[int] = set()
    for i, event in enumerate(events):
        audience = event.get("audience")
        if audience is None or not sees(audience):
            continue
        key = _twin_key(event)
        twins = [j for j in public if j not in hidden and _twin_key(events[j]) == key]
        if twins:
            hidden.add(min(twins, key=lambda j: abs(j - i)))
    return hidden


NAME_ROOM = 20
"""Characters of a player's name the scoreboard, the boards' panels and the status lines show
(names may have 40, protocol.md "Limits"): a longer one ends in "…", never cut mid-word unseen."""


def short_name(name: str, room: int = NAME_ROOM) -> str:
    """``name`` cut to ``room`` characters, its end shown as "…" when cut."""
    name = name.strip()
    return name if len(name) <= room else name[: room - 1].rstrip() + "…"


def side_names(names: Sequence[str], local: Sequence[int], room: int = NAME_ROOM) -> tuple[str, str]:
    """The two sides as a screen shows them: cut to ``room``, and when both players chose the
    same name, the one at this screen (a single local seat) marked "(you)"."""
    shown = [short_name(name, room) for name in names]
    if len(local) == 1 and names[0].strip() == names[1].strip():
        shown[local[0]] = f"{short_name(names[local[0]], room - 6)} (you)"
    return shown[0], shown[1]


def ending_words(result: Mapping[str, Any], names: Sequence[str], seat: int | None) -> str:
    """How a match that did not reach full time ended, for the screen of ``seat`` (``None``: a
    spectator): "You win: Bob did not come back." Empty for a match played out.

    The relay's ``finished`` says ``abandoned`` (the winner claimed it after the other's
    countdown) or ``resigned`` (the other left the match); protocol.md, "Messages from the relay".
    """
    reason, winner = result.get("reason"), result.get("winner")
    if reason not in ("abandoned", "resigned") or winner not in (0, 1):
        return ""
    loser = 1 - winner
    what = "did not come back" if reason == "abandoned" else "resigned"
    if seat == winner:
        return f"You win: {short_name(names[loser])} {what}."
    if seat == loser:
        return f"{short_name(names[winner])} wins: you {what}."
    return f"{short_name(names[winner])} wins: {short_name(names[loser])} {what}."


def next_pick(actions: Sequence[str], index: int, step: int, seldom: AbstractSet[str], first: str | None = None) -> int:
    """The action Tab (``step`` 1) or Shift+Tab (-1) picks among ``actions``, ``index`` being
    the one picked (-1: none yet). Nothing picked, ``first`` comes first if offered; else Tab
    starts at the first action and Shift+Tab at the last one that is not a choice seldom meant
    (verbs in ``seldom``: it began one before the last, and a player reaching for "End turn"
    used the substitute instead; the board lists those last, see ``KEYBOARD_LAST``)."""
    if index >= 0:
        return (index + step) % len(actions)
    if first is not None and first in actions:
        return list(actions).index(first)
    if step > 0:
        return 0
    usual = [i for i, text in enumerate(actions) if text.partition(" ")[0] not in seldom]
    return usual[-1] if usual else len(actions) - 1


def enter_plays(board: Any, actions: Sequence[str], index: int) -> str:
    """The keyboard's pick in words (rich text): "Enter plays: **Move …**  (3/19)"."""
    words = html.escape(board.describe(actions[index]))
    return f"Enter plays: <b>{words}</b>  ({index + 1}/{len(actions)})"


KEYS_OFFERED = "Keyboard: Tab or the arrow keys pick an action, Enter plays it."
"""What the keyboard line says while a decision waits and nothing is picked."""

NOTHING_TO_PLAY = "Nothing to play now."
"""What the keyboard line says to Tab or Enter while there is no decision (the line above it
says what comes now)."""

ARROWS = {Qt.Key.Key_Left: (-1, 0), Qt.Key.Key_Right: (1, 0), Qt.Key.Key_Up: (0, -1), Qt.Key.Key_Down: (0, 1)}
"""Arrow keys and the way each points on screen (:meth:`KeyboardPick.step_towards`)."""


class KeyboardPick:
    """Tab / Shift+Tab / Enter / Escape and the arrow keys over a board's actions, as the match
    screen and a lesson take them: Tab picks (:func:`next_pick`; ``first()`` first when offered), the pick is
    previewed on the board and said in ``label``; Enter plays it with ``play``; Escape lets go
    of it or of what the mouse began (``let_go``), then ``on_escape``. ``tell`` says a word
    for an Enter with nothing picked."""

    def __init__(
        self,
        board: Any,
        label: QLabel,
        *,
        play: Callable[[str], None],
        let_go: Callable[[], None],
        tell: Callable[[str], None],
        on_escape: Callable[[], None] = lambda: None,
        first: Callable[[], str | None] = lambda: None,
    ) -> None:
        self.board, self.label = board, label
        self._play, self._let_go, self._tell, self._on_escape, self._first = play, let_go, tell, on_escape, first
        self.index = -1  # the action picked, in board.keyboard_actions(); -1: none

    def reset(self) -> None:
        """Nothing picked (a new position, or the screen changing hands)."""
        self.index = -1
        self.label.setText("")

    def keep(self, before: Sequence[str], index: int) -> None:
        """A new view came: the pick ``before[index]`` stays picked if the board offers the very
        same choices (the other side's secret pick arrived), so the next Tab goes on from it, not
        from the first action again (keyboard audit 3)."""
        actions = self.board.keyboard_actions()
        if 0 <= index < len(before) and actions == list(before):
            self._pick(actions, index)

    def offer(self) -> None:
        """The board waits for a decision and nothing is picked: say how the keyboard plays,
        before the first Tab (a player who never pressed one did not know)."""
        if self.index < 0 and self.board.legal():
            self.label.setText(KEYS_OFFERED)

    def handle(self, event: QKeyEvent) -> bool:
        """Tab / Shift+Tab / Enter / Escape. True when the key was used."""
        key = event.key()
        if key == Qt.Key.Key_Escape and (getattr(self.board, "selection", ()) or self.index >= 0):
            # A half-made choice (a card picked, a clear started) or a preview is let go.
            self._let_go()
            self.reset()
            self._on_escape()
            return True
        if key in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab):
            if not self.board.keyboard_actions():
                # Nothing to play (full time, the other side to move): Tab goes on to the
                # buttons beside the board, Result among them (keyboard audit 2).
                return False
            shift = key == Qt.Key.Key_Backtab or event.modifiers() & Qt.KeyboardModifier.ShiftModifier
            self.cycle(-1 if shift else 1)
            return True
        if key in ENTER_KEYS:
            actions = self.board.keyboard_actions()
            if 0 <= self.index < len(actions):
                self._play(actions[self.index])
            elif actions:
                self._tell("Press Tab to pick an action, then Enter to play it.")
            else:
                # The line above says what comes now (full time: where the result, rematch and
                # replay are); "Press Tab to pick an action" there contradicted this (UI audit 7).
                self.label.setText(NOTHING_TO_PLAY)
            return True
        if key in ARROWS and not event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
            return self.step_towards(ARROWS[key])
        return False

    def step_towards(self, direction: tuple[int, int]) -> bool:
        """An arrow key: pick the action whose target lies nearest that way on screen from the
        one picked (the first, if none is): hundreds of squares to place a player on are a few
        presses away, not hundreds of Tabs. True when the key was used."""
        actions = self.board.keyboard_actions()
        if not actions:
            return False
        if not 0 <= self.index < len(actions):
            self.cycle(1)
            return True
        spots = {text: self._spot(text) for text in actions}
        here = spots[actions[self.index]]
        if here is None:
            return True
        dx, dy = direction
        best, best_cost = None, float("inf")
        for number, text in enumerate(actions):
            there = spots[text]
            if there is None or number == self.index:
                continue
            along = (there[0] - here[0]) * dx + (there[1] - here[1]) * dy
            across = abs((there[0] - here[0]) * dy - (there[1] - here[1]) * dx)
            if along <= 0.5 or across > 2 * along:
                continue  # not that way (within a cone either side of it)
            cost = along + 2 * across
            if cost < best_cost:
                best, best_cost = number, cost
        if best is not None:
            self._let_go()
            self._pick(actions, best)
        return True

    def _spot(self, text: str) -> tuple[float, float] | None:
        """Where on screen the last click of ``text`` on the board goes (the square, zone or
        button): a last click on a choice beside the board ("Kick" or "Move") has no place there,
        so the click before it counts (keyboard audit 5)."""
        path = getattr(self.board, "paths", None)
        keys = path.paths.get(text) if path is not None else None
        spots = (self.board.pos_of(key) for key in reversed(keys or ()))
        spot = next((place for place in spots if place is not None), None)
        if spot is None:
            return None
        views = self.board.views()
        if views:  # the board may be drawn turned for its player: the screen's directions count
            point = views[0].mapFromScene(spot)
            return float(point.x()), float(point.y())
        return float(spot.x()), float(spot.y())

    def cycle(self, step: int) -> None:
        """Pick the next (``step`` 1) or previous (-1) action and say it in words."""
        self._let_go()  # the keyboard takes over from a half-made mouse choice
        actions = self.board.keyboard_actions()
        if not actions:
            self.label.setText(NOTHING_TO_PLAY)
            return
        self._pick(actions, next_pick(actions, self.index, step, self.board.KEYBOARD_LAST, self._first()))

    def _pick(self, actions: list[str], index: int) -> None:
        """``actions[index]`` is picked: previewed on the board and said in words."""
        self.index = index
        self.board.set_preview(actions[index])
        self.label.setText(enter_plays(self.board, actions, index))


PHASE_KEYS = (("period", ""), ("half", "Half"), ("round", "Round"), ("turn", "Turn"), ("phase", ""))

HALVES = {1: "1st half", 2: "2nd half", 3: "Shoot-out"}


def _turn_of(played: Any, per_side: Any) -> str:
    """The turn as the boards' panels count it, "Turn 15 of 30 each": ``played`` counts the
    turns the side to move has finished, ``per_side`` a side's."""
    played = played if isinstance(played, int) else 0
    if isinstance(per_side, int) and per_side > 0:
        return f"Turn {min(played + 1, per_side)} of {per_side} each"
    return f"Turn {played + 1}"


def _soccero_phase(state: dict[str, Any]) -> list[str]:
    from soccerdesk.ui.boards.soccero import turns_done  # the board's own count

    return [HALVES.get(state.get("half", 1), ""), _turn_of(turns_done(state), state.get("turns_per_half"))]


def _pawn_soccer_phase(state: dict[str, Any]) -> list[str]:
    if state.get("phase") == "setup":
        return ["Lining up"]
    from soccerdesk.ui.boards.pawn_soccer import turns_finished  # the board's own count

    return [_turn_of(turns_finished(state) // 2, state.get("turn_limit"))]


def _soccer_go_phase(state: dict[str, Any]) -> list[str]:
    from soccerdesk.ui.boards.soccer_go import period_parts  # the board's own words

    kicks = state.get("shootout_kicks")
    return period_parts(state, kicks if isinstance(kicks, int) else 3)


def _big_time_soccer_phase(state: dict[str, Any]) -> list[str]:
    return [HALVES.get(state.get("half", 1), "")]


GAME_PHASES: dict[str, Callable[[dict[str, Any]], list[str]]] = {
    "soccero": _soccero_phase,
    "pawn-soccer": _pawn_soccer_phase,
    "soccer-go": _soccer_go_phase,
    "big-time-soccer": _big_time_soccer_phase,
}
"""Each game's half / round / turn in the words and numbers its board's panel uses, so the
header and the board never tell two different turn numbers."""


def phase_text(view: dict[str, Any]) -> str:
    """Half / round / turn and the game clock in words (a game's own words where it has them,
    see :data:`GAME_PHASES`; else from a view's common keys)."""
    state = view.get("state") or {}
    if view.get("terminal"):
        details = view.get("details")
        how = decided_words(details) if isinstance(details, dict) else ""
        return f"Full time, {how}" if how else "Full time"
    own = GAME_PHASES.get(str(view.get("game", "")))
    if own is not None:
        return " · ".join(part for part in own(state) if part)
    parts: list[str] = []
    for key, label in PHASE_KEYS:
        value = state.get(key)
        if value is None or isinstance(value, (dict, list)):
            continue
        text = str(value + 1 if key == "turn" and isinstance(value, int) else value).replace("-", " ")
        parts.append(f"{label} {text}".strip() if label else text.capitalize())
    for key in ("minute", "clock", "time"):
        value = state.get(key)
        if isinstance(value, (int, float, str)) and not isinstance(value, bool):
            parts.append(f"{value}′" if isinstance(value, (int, float)) else str(value))
            break
    return " · ".join(parts)


def team_colours(colours: tuple[str, str]) -> TeamColours:
    """Board colours from the players' chosen colours (defaults where none was chosen)."""
    default = TeamColours()
    home = QColor(colours[0]) if colours[0] else default.home
    away = QColor(colours[1]) if colours[1] else default.away
    return TeamColours(home, away, text_colour_on(home.name()), text_colour_on(away.name()))


class BoardView(QGraphicsView):
    """A QGraphicsView that keeps the whole board in sight at any window size."""

    def __init__(self, scene: BoardScene, parent: QWidget | None = None) -> None:
        super().__init__(scene, parent)
        self.setObjectName("board")
        self.setRenderHints(
            QPainter.RenderHint.Antialiasing
            | QPainter.RenderHint.TextAntialiasing
            | QPainter.RenderHint.SmoothPixmapTransform
        )
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setMinimumSize(320, 240)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

    def fit(self) -> None:
        scene = self.scene()
        if scene is None:
            return
        rect = scene.itemsBoundingRect().adjusted(-6, -6, 6, 6)
        if rect.isEmpty():
            return
        # A board drawn small makes its panel and labels bigger for it (ClickBoard.fit_to).
        # A few times at most: bigger labels make the board bigger, so drawn a little smaller;
        # a panel whose content needs more room is zoomed less.
        fit_to = getattr(scene, "fit_to", None)
        for _ in range(3):
            if fit_to is None or not fit_to(QSizeF(self.viewport().size()), rect):
                break
            rect = scene.itemsBoundingRect().adjusted(-6, -6, 6, 6)
        scene.setSceneRect(rect)
        self.fitInView(rect, Qt.AspectRatioMode.KeepAspectRatio)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt API)
        super().resizeEvent(event)
        self.fit()

    def leaveEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt API)
        self._forget_hover()
        super().leaveEvent(event)

    def hideEvent(self, event: QHideEvent) -> None:  # noqa: N802 (Qt API)
        # Covered (a hand-over, a pause): the mouse is no longer over any square of the board.
        self._forget_hover()
        super().hideEvent(event)

    def _forget_hover(self) -> None:
        forget = getattr(self.scene(), "forget_hover", None)  # boards that frame the target under the mouse
        if forget is not None:
            forget()


def draw_board_offscreen(game: Game, width: int, height: int) -> QImage:
    """Draw a board of ``game`` in its opening position once, as the match screen would but
    into an image nobody sees (returned).

    A board's first drawing in a program pays for what is done once: the board's module,
    Qt's classes and enums its drawing code meets, the glyphs of its font sizes. Done while
    the home screen waits (see ``HomeScreen``), a match's first picture costs no more than
    its later ones, so the animation and the clock do not stutter when a match begins.
    """
    board = make_board(BoardConfig(game.id, perspective=0))
    view = BoardView(board)
    try:
        view.resize(width, height)
        board.set_view(game.new_match(seed=1).view(0), [])
        view.fit()
        return view.grab().toImage()
    finally:
        view.deleteLater()
        board.deleteLater()


class CoverPage(QWidget):
    """A page laid over the board: a centred message and a row of buttons."""

    def __init__(self, name: str, buttons: list[tuple[str, str]], parent: QWidget | None = None) -> None:
        """``buttons``: (object name, label) of each button, left to right."""
        super().__init__(parent)
        self.setObjectName(name)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # the page itself may hold the focus
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.setStyleSheet(
            f"#{name} {{ background: #131b26; }} QLabel {{ color: #e8edf4; background: transparent; }}"
            " QPushButton { font-size: 12pt; padding: 6px 18px; }"
        )
        layout = QVBoxLayout(self)
        layout.addStretch(1)
        self.label = QLabel("")
        self.label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.label.setWordWrap(True)
        layout.addWidget(self.label)
        row = QHBoxLayout()
        row.addStretch(1)
        self.buttons: dict[str, QPushButton] = {}
        for object_name, label in buttons:
            button = QPushButton(label)
            button.setObjectName(object_name)
            button.setMinimumHeight(42)
            row.addWidget(button)
            self.buttons[object_name] = button
        row.addStretch(1)
        layout.addLayout(row)
        layout.addStretch(1)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt API)
        # "Tab to a button, then Enter" works on these pages too.
        if not press_focused_button(event, self.focusWidget(), lambda button: button in self.buttons.values()):
            super().keyPressEvent(event)


HANDOVER_KEY_PAUSE_S = 0.5
"""How long keys do nothing once the hand-over cover is up: a double Enter, or an Enter held
down, from the player who just moved is not the next player taking the screen."""


class HandOver(CoverPage):
    """Covers the board in a hot-seat match until the next player says they are at the screen."""

    ready = Signal()

    take_back = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("handover", [("take-back", ""), ("take-over", "")], parent)
        self._announced_at = -math.inf
        self.label.setStyleSheet("font-size: 18pt;")
        self.button = self.buttons["take-over"]
        self.button.clicked.connect(self.ready)
        self.take_back_button = self.buttons["take-back"]
        self.take_back_button.clicked.connect(self.take_back)
        self.take_back_button.hide()

    def offer_take_back(self, name: str | None) -> None:
        """Offer the player who is leaving the screen to take back their face-down pick (``None``: no)."""
        self.take_back_button.setVisible(name is not None)
        if name is not None:
            self.take_back_button.setText(f"{name}: take back my pick")

    def announce(self, name: str) -> None:
        self.label.setText(
            f"Pass the screen to <b>{name}</b>.<br><small>What only they may see (cards in hand, a secret"
            " choice) stays hidden until they are ready.</small>"
        )
        self.button.setText(f"I am {name} — show my screen")
        # The page holds the focus, not the button: the player arriving at the screen presses it
        # on purpose (a click, or Tab to it and Enter), and keys still coming from the player
        # who just moved do nothing (see event).
        self.setFocus()
        self._announced_at = time.monotonic()

    def event(self, event: QEvent) -> bool:  # noqa: N802 (Qt API)
        # Keys reach the page from the page itself and from its buttons (which pass Enter on).
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent) and self._too_soon(event):
            event.accept()
            return True
        return super().event(event)

    def _too_soon(self, key: QKeyEvent) -> bool:
        """Whether ``key`` may still come from the player who just moved."""
        return key.isAutoRepeat() or time.monotonic() - self._announced_at < HANDOVER_KEY_PAUSE_S


class Summary(CoverPage):
    """End of the match: the score, who won, and what next."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(
            "summary",
            [("rematch", "Rematch"), ("replay", "Replay and review"), ("board", "Look at the board"), ("home", "Home")],
            parent,
        )
        self.rematch, self.replay = self.buttons["rematch"], self.buttons["replay"]
        # QA pass 17: "Watch the replay" said nothing of the review a newcomer should find there.
        self.replay.setToolTip(
            "Step through the match again, with a chart of each side's chance of winning and where"
            " the match turned (worked out in the background)"
        )
        self.board, self.home = self.buttons["board"], self.buttons["home"]
        # Tab reaches Rematch last: a Tab and Enter still in the rhythm of play when the final
        # whistle goes looks at the board, not into a new match before the result was read.
        QWidget.setTabOrder(self.board, self.replay)
        QWidget.setTabOrder(self.replay, self.home)
        QWidget.setTabOrder(self.home, self.rematch)

    def show_result(self, summary: dict[str, Any]) -> None:
        local = summary.get("local_seats", [])
        names = [html.escape(name) for name in side_names(summary["names"], local, 24)]
        a, b = summary["score"]
        winner = summary["winner"]
        if winner is None:
            headline = "A draw."
        elif len(local) == 1:
            headline = "You win!" if winner in local else f"{names[winner]} wins."
        else:
            headline = f"{names[winner]} wins!"
        details = summary.get("details")
        how = decided_words(details) if isinstance(details, dict) else ""
        if details is None and winner is not None and a == b:
            how = "on penalties"  # level but decided, from a relay that sends no details: a shootout
        if how:
            headline = f"{headline.rstrip('!.')} {how}{headline[-1]}" if winner is not None else f"A draw {how}."
        ending = summary.get("ending") or ""
        over = "Full time"
        if ending:  # it did not reach full time: say why (QA: a 0–0 "You win!" looked like a bug)
            headline, over = html.escape(ending), "Match over"
        self.label.setText(
            f"<p style='font-size:14pt'>{over} — {summary['title']}</p>"
            f"<p style='font-size:28pt'><b>{names[0]} {a} – {b} {names[1]}</b></p>"
            f"<p style='font-size:18pt'>{headline}</p>"
            + (f"<p>{time_played_words(summary['played'])}</p>" if summary.get("played") is not None else "")
        )


class MatchView(QWidget):
    """One match on screen. See the module docstring."""

    home_requested = Signal()
    rematch_requested = Signal()
    replay_requested = Signal(object)
    help_requested = Signal()

    def __init__(
        self,
        session: MatchSession,
        *,
        speed: str = "normal",
        ask_after_turn: bool = True,
        let_go_by_itself: bool = True,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.session = session
        self.speed = speed
        # Pawn Soccer offers the substitute again after every turn of a side whose substitute
        # is unused ("sub" or "end"). When not asked, this screen ends that window for the
        # player at once: the substitute is offered before every turn anyway.
        self.ask_after_turn = ask_after_turn
        # Big Time Soccer asks the defender after every card that could be answered, whatever
        # his hand. Against the computer nobody reads anything into a quick answer, so when no
        # card can answer this screen lets it go for the player.
        self.let_go_by_itself = let_go_by_itself
        self._undone = False  # the next view shown comes from an Undo
        self._kept_at: Any = None  # the ply of the position an Undo went back to
        self.game = session.game
        self.names = session.player_names()  # the log tells of the players by these
        labels = getattr(session, "side_labels", None)
        self.labels = labels() if callable(labels) else self.names  # the scoreboard's ("Bob (computer)")
        colours = tuple(getattr(p, "colour", "") for p in getattr(session, "players", ())) or ("", "")
        self.colours = team_colours((colours[0], colours[1]))
        local = session.local_seats()
        self.board: BoardScene = make_board(
            BoardConfig(
                self.game.id,
                perspective=local[0] if len(local) == 1 else 0,
                colours=self.colours,
                team_names=side_names(self.labels, local),
                hot_seat=len(local) == 2,
            )
        )
        self.board.setParent(self)
        self._queue: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
        self._ending_to_log = ""  # how the match ended, logged once its last moves are shown
        self._finished: dict[str, Any] | None = None
        self._animation_pending = False
        self._animation_token = 0
        self._taking_over = False  # the next view is the one a player takes the screen for
        self._pump_scheduled = False
        self._log_entries: list[LogEntry] = []
        self._log_shown: list[str] = []  # the lines the log shows now
        self._log_batch = 0  # views whose events were logged (see LogEntry.batch)
        self._log_seat: int | None = local[0] if local else None
        # Whose board the log's words follow: the reader's, or while nobody has the screen
        # (a hot-seat hand-over) the last reader's, which the board still shows.
        self._log_frame: int | None = self._log_seat
        self._log_follows = True  # the log shows its newest line unless the player scrolled up
        self._logged: list[dict[str, Any]] | None = None  # the events last written to the log
        self._log_rebuilding = False
        self._log_follow_due = False
        self._status_text = ""  # the session's last word on what to do now
        self.view_data: dict[str, Any] | None = None

        # --- header: names, score, phase, clock
        self.score_label = QLabel("")
        self.score_label.setObjectName("score")
        self.score_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.score_label.setTextFormat(Qt.TextFormat.RichText)
        self.phase_label = QLabel("")
        self.phase_label.setObjectName("phase")
        self.phase_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.clock_label = QLabel("")
        self.clock_label.setObjectName("clock")
        self.clock_label.setToolTip("Time played in this match (earlier sittings included)")
        header = QHBoxLayout()
        header.addWidget(self.phase_label, 1)
        header.addWidget(self.score_label, 2)
        # Turn clock and abandonment countdown of a remote match, counted down here between
        # the relay's messages (it sends the seconds left when a timer starts or stops).
        self.timer_label = QLabel("")
        self.timer_label.setObjectName("turn-timer")
        self.timer_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.timer_label.setWordWrap(True)  # a countdown's words wrap; they never squeeze the names
        self._timers: dict[str, tuple[str, float | None]] = {}  # kind -> (words, deadline or None)
        header.addWidget(self.timer_label, 1)
        header.addWidget(self.clock_label, 1, Qt.AlignmentFlag.AlignRight)

        # --- the board, with cover pages stacked over it
        self.view = BoardView(self.board)
        self.view.installEventFilter(self)
        self.board_page = QWidget()
        board_layout = QVBoxLayout(self.board_page)
        board_layout.setContentsMargins(0, 0, 0, 0)
        board_layout.addWidget(self.view)
        # Laid over the board page by itself (in no layout): hidden whenever it plays nothing.
        self.animation = EventAnimation(self.board_page)
        self.animation.done.connect(self._after_animation)
        self.stack = QStackedLayout()
        self.handover_page = HandOver()
        self.handover_page.ready.connect(self._take_over)
        self.handover_page.take_back.connect(self._take_back_pick)
        self.summary_page = Summary()
        self.summary_page.rematch.clicked.connect(self.rematch_requested)
        self.summary_page.home.clicked.connect(self.home_requested)
        self.summary_page.replay.clicked.connect(self._replay)
        self.summary_page.board.clicked.connect(lambda: self.stack.setCurrentWidget(self.board_page))
        self.stack.addWidget(self.board_page)
        self.stack.addWidget(self.handover_page)
        self.stack.addWidget(self.summary_page)
        stack_holder = QWidget()
        stack_holder.setLayout(self.stack)

        # --- side: hint, log, buttons
        self.hint_label = QLabel("")
        self.hint_label.setObjectName("hint")
        self.hint_label.setWordWrap(True)
        self.hint_label.setMinimumHeight(44)
        self.hint_label.setStyleSheet("font-weight: bold;")
        self.thinking_label = QLabel("")
        self.thinking_label.setObjectName("thinking")
        self.thinking_label.setWordWrap(True)
        self.keyboard_label = QLabel("")
        self.keyboard_label.setObjectName("keyboard")
        self.keyboard_label.setWordWrap(True)
        self.keyboard_label.setToolTip("Tab cycles the legal actions, Enter plays the one shown")
        self.keys = KeyboardPick(
            self.board,
            self.keyboard_label,
            play=self.play,
            let_go=self._drop_selection,
            tell=self.hint_label.setText,
            on_escape=lambda: self.board.set_preview(None),
        )
        # A plain-text log: appending a line costs the same at the 1000th line as at the first.
        self.log = QPlainTextEdit()
        self.log.setObjectName("log")
        self.log.setReadOnly(True)
        self.log.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        log_bar = self.log.verticalScrollBar()
        # Only the player's own scrolling (wheel, scroll bar, keys) decides whether the log follows:
        # the log moves its scroll bar itself too, while it lays lines out.
        log_bar.actionTriggered.connect(self._log_scrolled)
        # Lines are laid out (wrapped) lazily, so the bottom moves after a line is added: follow it.
        log_bar.rangeChanged.connect(self._log_range_changed)
        self.undo_button = QPushButton("Undo")
        self.undo_button.setObjectName("undo")
        self.undo_button.setToolTip("Take back your last move (never past a die roll, a draw or a reveal) — Ctrl+Z")
        self.undo_button.setEnabled(False)
        self.undo_button.clicked.connect(self.undo)
        self.home_button = QPushButton("Home")
        self.home_button.clicked.connect(self.home_requested)
        self.rules_button = QPushButton("Rules")
        self.rules_button.setToolTip("How to play this game, and our rulings (F1)")
        self.rules_button.clicked.connect(self.help_requested)
        # After full time, in Undo's place: back to the result (and its Rematch and Replay) from
        # "Look at the board".
        self.result_button = QPushButton("Result")
        self.result_button.setObjectName("result")
        self.result_button.setToolTip("The final score, a rematch and the replay")
        self.result_button.clicked.connect(self._back_to_result)
        self.result_button.hide()
        self.hint_control: HintControl | None = None
        if isinstance(session, LocalSession):  # vs the computer and hot-seat; never online
            self.hint_control = HintControl(self.board, session.hint_position)
            self.hint_control.given.connect(session.count_hint)
        buttons = QHBoxLayout()
        buttons.addWidget(self.undo_button)
        buttons.addWidget(self.result_button)
        buttons.addWidget(self.rules_button)
        buttons.addWidget(self.home_button)
        side = self.side = QWidget()
        side_layout = QVBoxLayout(side)
        # Beside the board, not over it: the board does not move under a click as it shows.
        self.save_warning = self._build_save_warning(session)
        side_layout.addWidget(self.save_warning)
        side_layout.addWidget(self.hint_label)
        side_layout.addWidget(self.thinking_label)
        side_layout.addWidget(self.keyboard_label)
        side_layout.addWidget(QLabel("<b>What happened</b>"))
        side_layout.addWidget(self.log, 1)
        self.chat_log: QPlainTextEdit | None = None
        self.chat_edit: QLineEdit | None = None
        if hasattr(session, "chat_received"):  # a remote match: the two players may talk
            side_layout.addWidget(QLabel("<b>Chat</b>"))
            side_layout.addWidget(self._build_chat(session))
        if hasattr(session, "timer_changed"):
            session.timer_changed.connect(self.set_timer)
        if hasattr(session, "labels_changed"):
            session.labels_changed.connect(self._on_labels)
        if self.hint_control is not None:
            side_layout.addWidget(self.hint_control)
        side_layout.addLayout(buttons)
        side.setMinimumWidth(240)

        splitter = QSplitter()
        splitter.addWidget(stack_holder)
        splitter.addWidget(side)
        splitter.setStretchFactor(0, 4)
        splitter.setStretchFactor(1, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(header)
        layout.addWidget(splitter, 1)

        # --- the thinking indicator and the clock tick on the UI thread: they also show it never freezes
        self._dots = 0
        self._busy = False
        self._ticker = QTimer(self)
        self._ticker.setInterval(250)
        self._ticker.timeout.connect(self._tick)
        self._ticker.start()

        self.board.action_chosen.connect(self._on_action_chosen)
        self.board.hint.connect(self._on_board_hint)
        session.view_changed.connect(self._on_view)
        session.refused.connect(self._on_refused)
        if hasattr(session, "event_words"):
            # An online session's own lines (what the computer played while the player was away)
            # tell its moves in this board's words, as the log does.
            session.event_words = self.event_words
        session.status.connect(self._on_status)
        session.busy.connect(self._on_busy)
        session.handover.connect(self._on_handover)
        session.undo_available.connect(self.undo_button.setEnabled)
        session.undone.connect(self._on_undone)
        session.finished.connect(self._on_finished)
        self._update_header(None)

    def _build_save_warning(self, session: MatchSession) -> QFrame:
        """The warning beside the board that the match file is behind the match (a full disk, a
        folder that refuses writes), with Try again; it stays until a save works."""
        frame = QFrame()
        frame.setObjectName("save-warning")
        frame.setStyleSheet("#save-warning { background: #fff3bf; border: 1px solid #d9480f; }")
        self.save_warning_label = QLabel("")
        self.save_warning_label.setObjectName("save-warning-text")
        self.save_warning_label.setWordWrap(True)
        self.save_warning_label.setStyleSheet("color: #000000;")
        self.save_again = QPushButton("Try again")
        self.save_again.setObjectName("save-again")
        self.save_again.setToolTip("Write the match to its file now")
        column = QVBoxLayout(frame)
        column.addWidget(self.save_warning_label)
        column.addWidget(self.save_again, 0, Qt.AlignmentFlag.AlignRight)
        frame.hide()
        if isinstance(session, LocalSession):
            self.save_again.clicked.connect(session.save_now)
            session.save_failed.connect(self._on_save_failed)
        return frame

    def _on_save_failed(self, reason: str) -> None:
        """An autosave failed (``reason`` in words), or one worked again (``""``)."""
        self.save_warning.setVisible(bool(reason))
        if reason:
            again = "when you click Try again" if self._finished else "with your next move"
            self.save_warning_label.setText(
                f"This match could not be saved: {reason}. soccerdesk will try again {again}. "
                "To keep it somewhere else, use Match → Save match as…"
            )

    def _build_chat(self, session: Any) -> QWidget:
        """The chat box of a remote match: lines said so far, and a line to say something."""
        box = QWidget()
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 0, 0)
        # Plain text on purpose: what the other player types is shown, never interpreted as markup.
        self.chat_log = QPlainTextEdit()
        self.chat_log.setObjectName("chat-log")
        self.chat_log.setReadOnly(True)
        self.chat_log.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.chat_log.setMaximumHeight(120)
        self.chat_edit = QLineEdit()
        self.chat_edit.setObjectName("chat-edit")
        self.chat_edit.setMaxLength(int(getattr(session, "chat_limit", 500)))
        self.chat_edit.setPlaceholderText("Say something…" if session.local_seats() else "Watching: no chat")
        self.chat_edit.setEnabled(bool(session.local_seats()))
        self.chat_edit.returnPressed.connect(self.send_chat)
        send = QPushButton("Send")
        send.setObjectName("chat-send")
        send.setEnabled(bool(session.local_seats()))
        send.clicked.connect(self.send_chat)
        row = QHBoxLayout()
        row.addWidget(self.chat_edit, 1)
        row.addWidget(send)
        layout.addWidget(self.chat_log)
        layout.addLayout(row)
        session.chat_received.connect(self._on_chat)
        session.chat_unsent.connect(self._on_chat_unsent)
        return box

    def set_timer(self, kind: str, words: str, seconds: float) -> None:
        """Show timer ``kind`` as ``words`` with ``seconds`` counting down (< 0: words alone; no words: gone)."""
        if not words:
            self._timers.pop(kind, None)
        else:
            self._timers[kind] = (words, time.monotonic() + seconds if seconds >= 0 else None)
        self._show_timers()

    def _show_timers(self) -> None:
        now = time.monotonic()
        parts, urgent = [], False
        for words, deadline in self._timers.values():
            if deadline is None:
                parts.append(words)
                continue
            left = max(0, math.ceil(deadline - now))
            urgent = urgent or left <= 10
            parts.append(f"{words}: {left // 60}:{left % 60:02d}")
        self.timer_label.setText(" · ".join(parts))
        self.timer_label.setStyleSheet(f"font-weight: bold; color: {'#d9480f' if urgent else 'palette(text)'};")

    def send_chat(self) -> None:
        """Send what the chat line holds to the other player, and clear the line (a line that
        cannot go now comes back to it)."""
        if self.chat_edit is None:
            return
        text = self.chat_edit.text().strip()
        self.chat_edit.clear()  # before it goes: a line that cannot go comes back (chat_unsent)
        if text:
            self.session.chat(text)  # type: ignore[attr-defined]  # only sessions with chat build the box

    def _on_chat_unsent(self, text: str, why: str) -> None:
        """A line that did not go (the relay is away) is given back to the player, said so."""
        if self.chat_edit is not None and not self.chat_edit.text():
            self.chat_edit.setText(text)
        self.hint_label.setText(why)

    def _on_chat(self, name: str, text: str) -> None:
        if self.chat_log is not None:
            self.chat_log.appendPlainText(f"{name}: {text}")

    # --- from the session ------------------------------------------------------------

    def _on_view(self, view: dict[str, Any], events: list[dict[str, Any]]) -> None:
        if self.hint_control is not None:
            self.hint_control.refresh()  # a hint is about one position: a new one drops it
        self._queue.append((view, events))
        if self.hint_label.text() == self._status_text:
            # The status may come before the position it is about ("Home to play" before the
            # computer's move is shown): it is said again once that has been shown (_show).
            self.hint_label.setText("")
        if not self.animating and not self._pump_scheduled:
            # Drawn from the event loop: the session's own work for this move and the drawing
            # of the board are then two short pieces of work, not one long one.
            self._pump_scheduled = True
            QTimer.singleShot(0, self._scheduled_pump)

    def _scheduled_pump(self) -> None:
        self._pump_scheduled = False
        self._pump()

    def _pump(self) -> None:
        """Show queued views in order; an animation pauses the queue until it is done."""
        while self._queue and not self.animating:
            view, events = self._queue.pop(0)
            if (
                self.view_data is not None
                and view.get("seat") != self.view_data.get("seat")
                and not (view.get("terminal") and view.get("seat") is None)
            ):
                # Another player took the screen: their view replaces the last one before any
                # animation, so the previous player's cards are never shown to them. (Not the
                # end of a hot-seat match, seen by both with nothing secret left: its last
                # moves, a shoot-out's kicks, still play over the board before it.)
                self._show(view, events)
            animations = [] if self._taking_over else self._animations_for(events)
            self._taking_over = False
            self._pending_view = (view, events)
            factor = ANIMATION_SPEEDS.get(self.speed, 1.0)
            # The very first position is shown at once: the deal before it is no show.
            if animations and factor > 0 and self.view_data is not None:
                under = self.board.shown_under_animation(view, events)
                if under is not None:
                    # The moves before a die are shown before it rolls (Soccero: the next
                    # roll played over the pitch as it was before the last player moved).
                    self.board.set_view(under, events)
                # Started two turns of the event loop from now: the still picture of the board it
                # needs costs a full drawing, which should add neither to the work done now nor
                # to a repaint of the board already asked for (each gets a turn of its own; a
                # first view and an animation just after it drew the board twice in one turn).
                self._animation_pending = True
                self._after_two_turns(partial(self._begin_animation, animations, factor, self._animation_token))
                return
            self._show(view, events)
        if not self._queue and self._finished is not None and not self.animating:
            self._log_ending()
            self._show_summary()

    def _animations_for(self, events: list[dict[str, Any]]) -> list[Animation]:
        """The animations of ``events`` (the latest few), captioned and labelled in the board's words."""
        sides = DIE_SIDES.get(self.game.id, 6)
        found = []
        shootout = -1  # where a penalty shootout's animations begin: all of them are played
        for index, event in enumerate(events):
            animation = animation_for(event, sides, card_name=self.board.card_name)
            if animation is None:
                continue
            text = self.event_words(event)
            outcome = (events[index + 1].get("data") or {}) if index + 1 < len(events) else {}
            if animation.kind == "die" and "scored" in outcome:
                # A shootout kick's die: captioned by what came of it and the running tally.
                text = self.event_words(events[index + 1])
                shootout = len(found) if shootout < 0 else shootout
            elif event.get("kind") == "shootout" and shootout < 0:
                shootout = len(found)
            found.append(replace(animation, text=text))
        if shootout >= 0 and len(found) - shootout > MAX_ANIMATIONS:
            return found[shootout:]
        latest = found[-MAX_ANIMATIONS:]
        skipped = [a for a in found[: len(found) - len(latest)] if a.kind in BANNERS]
        if skipped:
            # A goal or half-time is never lost behind what followed it (the second half's deal).
            latest = [skipped[-1], *latest[1:]]
        return latest

    def event_words(self, event: dict[str, Any]) -> str:
        """An event as this screen tells it: in the board's words, the sides by the players' names."""
        return name_seats(self.board.event_text(event), self.names, self.game.id)

    def _after_two_turns(self, slot: Callable[[], object]) -> None:
        """Call ``slot`` two turns of the event loop from now: after what this turn asked Qt
        to do (a repaint) has had a turn of its own. Not at all if this screen is gone by then."""

        def hop(turns_left: int) -> None:
            if not shiboken6.isValid(self):
                return
            if turns_left:
                QTimer.singleShot(0, partial(hop, turns_left - 1))
            else:
                slot()

        QTimer.singleShot(0, partial(hop, 1))

    def _paint_board(self) -> None:
        self.view.viewport().setUpdatesEnabled(True)

    @property
    def animating(self) -> bool:
        """An animation plays or is about to start (the queue of views waits for it)."""
        return self._animation_pending or self.animation.running

    def _begin_animation(self, animations: list[Animation], factor: float, token: int) -> None:
        if token != self._animation_token or not self._animation_pending:
            return  # skipped before it began
        self._animation_pending = False
        # The animation paints over a still picture of the board, so the board's many items
        # are not repainted for every frame.
        self.animation.play(animations, factor, backdrop=self.view.grab(), take_focus=not self._typing_chat())

    def skip_animation(self) -> None:
        """End the animation now (or the one about to start) and show the position."""
        if self._animation_pending:
            self._animation_pending = False
            self._animation_token += 1
            self._after_animation()
        else:
            self.animation.skip()

    def _after_animation(self) -> None:
        view, events = self._pending_view
        self._show(view, events)
        self._pump()

    def _on_undone(self) -> None:
        self._undone = True

    def _show(self, view: dict[str, Any], events: list[dict[str, Any]]) -> None:
        first = self.view_data is None
        # A position reached by Undo: Pawn Soccer's window after a turn then waits (ending it
        # again at once, Undo could never go back past it).
        if self._undone:
            self._undone, self._kept_at = False, view.get("ply")
        elif view.get("ply") != self._kept_at:
            self._kept_at = None  # played on from there
        undone = self._kept_at is not None  # the same position may be shown again
        self._show_log_for(view.get("seat"))
        if events is not self._logged:
            # Logged with the position they lead to, after their animation: the log does not
            # tell how a die fell while it still rolls.
            self._logged = events
            self._forget_undone(view.get("ply"))
            self.log_events(events)
        picked, before = self.keys.index, self.board.keyboard_actions() if self.keys.index >= 0 else []
        self.view_data = view
        self.keys.reset()
        if first:
            # The first picture of a board is its costliest (every item, and the caches of
            # its pitch): it is painted two event-loop turns after its items are made, not
            # in the same turn.
            self.view.viewport().setUpdatesEnabled(False)
            self._after_two_turns(self._paint_board)
        self.board.set_view(view, events)
        self.keys.keep(before, picked)
        self.keys.offer()
        self.view.fit()
        self._update_header(view)
        if self.hint_label.text() in (WAIT_FOR_SHOW, "") and not self._queue:
            self.hint_label.setText(self._status_text)  # the moves have been shown: say what to do now
        if self.stack.currentWidget() is not self.summary_page:
            self.stack.setCurrentWidget(self.board_page)
        if view.get("legal") and not (self._typing_chat() and self.chat_edit and self.chat_edit.text()):
            self.view.setFocus()  # from an empty chat line too: the keys play (QA online, keyboard)
        answer = None if undone else self._answered_for_the_player(view)
        if answer is not None:
            # At once: the next position is queued before anything can be clicked (after an
            # undo the decision waits, or undo could never go back past it).
            self.board.choose(answer)

    def _answered_for_the_player(self, view: dict[str, Any]) -> str | None:
        """The action this screen plays for the player at ``view``, if any: a decision with
        nothing to decide, as the player set it under View.

        Pawn Soccer's window after a turn (substitute or end), unless the player asked to be
        offered it; Big Time Soccer's "let it go" when no card can answer (against the computer
        only). Undo steps back over these (see :meth:`undo`)."""
        if self._ends_the_window_after_a_turn(view):
            return "end"
        if self._lets_it_go(view):
            return NO_ANSWER[str(view.get("game"))]
        return None

    def _ends_the_window_after_a_turn(self, view: dict[str, Any]) -> bool:
        state = view.get("state") or {}
        return (
            not self.ask_after_turn
            and view.get("game") == "pawn-soccer"
            and state.get("phase") == "after_turn"
            and "end" in (view.get("legal") or [])
        )

    def _lets_it_go(self, view: dict[str, Any]) -> bool:
        """Against the computer, asked to answer a card with no card that can (Big Time Soccer's
        "let it go", Soccer-Go's "no card"); the log then says no card could answer
        (:func:`~soccerdesk.ui.session.told_events`).

        Never with a friend on this screen or online: there a quick answer would tell the other
        player what the hand holds, which is why the rules ask every time."""
        answer = NO_ANSWER.get(str(view.get("game")))
        if not self.let_go_by_itself or answer is None or view.get("legal") != [answer]:
            return False
        return against_the_computer(getattr(self.session, "players", ()))

    def set_let_go_by_itself(self, let_go: bool) -> None:
        """Whether "let it go" (Big Time Soccer) or "no card" (Soccer-Go), when it is the only
        answer, is played for the player against the computer."""
        self.let_go_by_itself = let_go
        self._answer_if_answered_for_the_player()

    def set_ask_after_turn(self, ask: bool) -> None:
        """Whether Pawn Soccer's window after a turn (substitute or end) waits for the player."""
        self.ask_after_turn = ask
        self._answer_if_answered_for_the_player()

    def _answer_if_answered_for_the_player(self) -> None:
        """A View setting changed: the decision on screen may now be one the screen answers."""
        answer = None if self.view_data is None else self._answered_for_the_player(self.view_data)
        if answer is not None:
            self.board.choose(answer)

    def _typing_chat(self) -> bool:
        """Whether the player is in the chat line: a new position must not take their typing away.

        Asked of the window, not of the keyboard: while the player is in another window the chat
        line has no focus, but it is still where their typing goes when they come back."""
        return self.chat_edit is not None and self.chat_edit.window().focusWidget() is self.chat_edit

    def _on_refused(self, reason: str) -> None:
        reason = name_seats(reason, self.names, self.game.id)
        self.board.show_refusal(reason)
        self.hint_label.setText(reason)

    def _on_status(self, text: str) -> None:
        if text:
            self._status_text = text
            # Said once the moves before it have been shown: "Home to play" beside the
            # computer's moves still being shown contradicted them (see _show).
            self.hint_label.setText("" if self._queue or self.animating else text)

    def _can_rematch(self) -> bool:
        """Whether this screen may offer a rematch (an online spectator's may not)."""
        can = getattr(self.session, "can_rematch", None)
        return bool(can()) if callable(can) else True

    def _on_board_hint(self, text: str) -> None:
        if self._finished is not None:
            # Whatever the board would say about a click ("Wait for the dice."), nothing is
            # played any more.
            text = self._status_text  # how it ended, and what Result shows (set at the end)
        offline = getattr(self.session, "offline_words", None)
        if callable(offline) and offline() and not self.board.legal():
            text = offline()  # an online match whose relay is away: not "it is not your decision"
        self.hint_label.setText(text)

    def _on_busy(self, busy: bool) -> None:
        self._busy = busy
        self._tick()

    def _on_handover(self, seat: int, name: str) -> None:
        # Flush what is queued first: it belongs to the player who is leaving the screen.
        self.skip_animation()
        self._pump()
        # The log tells what happened up to the hand-over (the move just played too) as
        # nobody's secrets show it; each player reads their own private lines once at the
        # screen. A resumed match opens on the cover, before any view: the header shows the
        # phase too, and no board is drawn under it: nobody has the screen yet.
        cover = self.session.cover_view()
        if cover is not None:
            view, events = cover
            self._forget_undone(view.get("ply"))  # an undo that handed the screen over: its lines go
            self._logged = events
            self.log_events(events)
            self._update_header(view)  # the score of a goal just scored, as nobody's secrets show it
        if self.view_data is not None:
            self.board.set_view(self._covered_view(), [])
        # Nobody's private lines while the screen changes hands, the zones named as the next
        # player's board names them.
        self._show_log_for(None, frame=seat)
        # The keyboard preview may name the leaving player's secret pick ("Enter plays: pass 5"),
        # and a hint the leaving player asked for tells what they might do or hold.
        self.keys.reset()
        if self.hint_control is not None:
            self.hint_control.refresh()
        self.handover_page.announce(name)
        leaving = self.session.pick_to_take_back()
        self.handover_page.offer_take_back(self.names[leaving] if leaving is not None else None)
        self.stack.setCurrentWidget(self.handover_page)

    def _covered_view(self) -> dict[str, Any]:
        """The last view with nothing to play, while the screen waits for the next player."""
        view = dict(self.view_data or {})
        view["legal"] = []
        return view if view else {"legal": [], "state": {}}

    def _take_back_pick(self) -> None:
        """The player leaving the screen took back a face-down pick: they choose again."""
        self.handover_page.offer_take_back(None)
        self.session.take_back_pick()

    def _take_over(self) -> None:
        # The player who takes the screen is shown the position at once, ready to be clicked:
        # what happened while the cover was up is in the log, not replayed over the board
        # (a click on the board would only have ended that show).
        self._taking_over = True
        self.stack.setCurrentWidget(self.board_page)
        self.session.take_over()

    def _on_labels(self, labels: tuple[str, str]) -> None:
        """The sides' names changed (the computer took over an absent player's seat)."""
        self.labels = (labels[0], labels[1])
        self.board.config = replace(self.board.config, team_names=side_names(self.labels, self.session.local_seats()))
        if self.view_data is not None:
            self.board.set_view(self.view_data, [])
        self._update_header(self.view_data)

    def _log_ending(self) -> None:
        """How the match ended beyond its score ("Bob resigned"), once, below its last move."""
        if self._ending_to_log:
            self.log_text(self._ending_to_log)
            self._ending_to_log = ""
            self._update_header(self.view_data)

    def is_over(self) -> bool:
        """Whether the match has ended (its result is in)."""
        return self._finished is not None

    def _on_finished(self, summary: dict[str, Any]) -> None:
        self._finished = summary
        self._tick()  # the clock shows the time played to the end, then stops
        self._ticker.stop()
        self._busy = False
        self.thinking_label.setText("")
        ending = summary.get("ending") or ""
        offers = "the score, a rematch and the replay" if self._can_rematch() else "the score and the replay"
        self._status_text = f"{ending or 'Full time: the match is over.'} Result shows {offers}."
        if not self._can_rematch():
            self.result_button.setToolTip("The final score and the replay")
        # Logged after the moves still waiting to be shown (a resumed match's whole history):
        # "Alice wins: you did not come back." came above the coin toss.
        self._ending_to_log = ending
        if not self._queue and not self.animating:
            self._log_ending()
        self._timers.clear()  # nothing runs out once the match is over
        self._show_timers()
        if not self._queue and not self.animating:
            self.hint_label.setText(self._status_text)
            self._show_summary()
        else:
            # The last moves (a whole shootout, say) still show: "the match is over" beside
            # kicks still being taken would tell the end before it is seen.
            self.hint_label.setText(WAIT_FOR_SHOW)

    def _show_summary(self) -> None:
        if self._finished is None:
            return
        played = getattr(self.session, "time_played", None)
        # The time played, where "N actions played" said nothing to a player (QA pass 17).
        self.summary_page.show_result({**self._finished, "played": played() if callable(played) else None})
        self.hint_label.setText(self._status_text)
        # The page, not its first button, takes the focus: an Enter meant for the last move
        # must not start a rematch (QA: Tab and Enter through a match went on into a new one).
        self.summary_page.setFocus()
        self.summary_page.replay.setEnabled(self.session.record() is not None)
        # A spectator (or a window whose seat another took) may not offer a rematch.
        rematch = self.summary_page.rematch
        rematch.setEnabled(self._can_rematch())
        rematch.setVisible(self._can_rematch())
        self.stack.setCurrentWidget(self.summary_page)
        self.undo_button.setEnabled(False)
        self.undo_button.hide()
        self.result_button.show()

    def _back_to_result(self) -> None:
        self.stack.setCurrentWidget(self.summary_page)
        self.summary_page.setFocus()  # Tab goes on to its buttons, as at full time

    def _replay(self) -> None:
        record = self.session.record()
        if record is not None:
            self.replay_requested.emit(record)

    # --- to the session ---------------------------------------------------------------

    def undo(self) -> None:
        """Take back the player's last move (the button, Ctrl+Z, Edit → Undo).

        A decision this screen answered for the player (Pawn Soccer's window after a turn, Big
        Time Soccer's "let it go" when no card could answer) is no move of theirs: an Undo that
        lands there goes on back to the move they made."""
        self.session.undo()
        while self._queue and self._answered_for_the_player(self._queue[-1][0]) is not None and self.session.can_undo():
            self.session.undo()

    def _on_action_chosen(self, text: str) -> None:
        if self._queue or self.animating:
            self.hint_label.setText(WAIT_FOR_SHOW)
            return
        self.keys.reset()  # played: the next decision starts afresh, even if its choices look the same
        self.session.submit(text)

    def play(self, text: str) -> None:
        """Play ``text`` as the user would: through the board's own clicks when it has them."""
        play = getattr(self.board, "play", None)
        if callable(play) and play(text):
            return
        self.board.choose(text)

    # --- keyboard ---------------------------------------------------------------------

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt API)
        if watched is self.view and event.type() == QEvent.Type.KeyPress:
            return self.handle_key(event)  # type: ignore[arg-type]
        return super().eventFilter(watched, event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt API)
        # Enter presses a focused button beside the board: Tab from the board to Result, then Enter.
        if not press_focused_button(event, self.focusWidget(), self.side.isAncestorOf):
            super().keyPressEvent(event)

    def handle_key(self, event: QKeyEvent) -> bool:
        """Tab / Shift+Tab / Enter / Escape (:class:`KeyboardPick`) and Ctrl+Z on the board;
        after full time, Escape goes back to the result. True when the key was used."""
        if self.keys.handle(event):
            return True
        if event.key() == Qt.Key.Key_Escape and self.result_button.isVisible():
            self.result_button.click()  # after "Look at the board", back to the result
            return True
        if event.key() == Qt.Key.Key_Z and event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            self.undo()
            return True
        return False

    def _drop_selection(self) -> None:
        """Let go of what the mouse began (its prompt too: "Clear (in play): click a zone")."""
        if getattr(self.board, "selection", ()):
            self.board.cancel_selection()  # type: ignore[attr-defined]  # every board is a ClickBoard
            self.hint_label.setText(self._status_text)

    def cycle(self, step: int) -> None:
        """Preview the next (``step`` 1) or previous (-1) legal action."""
        self.keys.cycle(step)

    # --- header --------------------------------------------------------------------------

    def _update_header(self, view: dict[str, Any] | None) -> None:
        score = view.get("score", [0, 0]) if view else [0, 0]
        if self._finished is not None and "score" in self._finished:
            score = self._finished["score"]  # ended early by the relay: its word, not the last view's
        chips = []
        names = side_names(self.labels, self.session.local_seats())
        for seat in (0, 1):
            colour = self.colours.of(seat).name()
            ink = self.colours.text_on(seat).name()
            name = html.escape(names[seat])
            chips.append(f"<span style='background:{colour}; color:{ink}; padding:2px 8px;'>&nbsp;{name}&nbsp;</span>")
        self.score_label.setText(
            f"<span style='font-size:16pt'>{chips[0]} <b>{score[0]} – {score[1]}</b> {chips[1]}</span>"
        )
        self.score_label.setToolTip(" – ".join(self.labels))  # the names in full
        ending = (self._finished or {}).get("ending") or ""
        self.phase_label.setText(ending or (phase_text(view) if view else self.game.title))
        self.phase_label.setWordWrap(bool(ending))

    def _tick(self) -> None:
        if self._timers:
            self._show_timers()
        self.clock_label.setText(time_played_words(self.session.time_played()))
        if self._busy:
            self._dots = (self._dots + 1) % 4
            self.thinking_label.setText(self._busy_text() + "." * self._dots)
        else:
            self.thinking_label.setText("")

    def _busy_text(self) -> str:
        """Who the screen waits for: a session that knows (a remote person) says so itself."""
        busy_text = getattr(self.session, "busy_text", None)
        return busy_text() if callable(busy_text) else "The computer is thinking"

    def log_event(self, event: dict[str, Any]) -> None:
        """Add an event (``Event.to_json()``, with the session's ``audience`` and ``ply``) to the log."""
        self.log_events([event])

    def log_events(self, events: list[dict[str, Any]]) -> None:
        """Add the events that came with one view to the log, in order."""
        self._log_batch += 1
        for event in events:
            audience = event.get("audience")
            self._log_entries.append(
                LogEntry(
                    "",
                    tuple(audience) if audience is not None else None,
                    event.get("ply"),
                    {key: value for key, value in event.items() if key not in ("audience", "ply")},
                    self._log_batch,
                )
            )
        self._refresh_log()

    def log_text(self, text: str, audience: list[int] | None = None, ply: int | None = None) -> None:
        """Add a line to the event log (seat numbers become names).

        A line with an ``audience`` is shown only while one of those seats has the screen; a
        line with a ``ply`` goes when an undo takes that ply back.
        """
        if text:
            self._log_batch += 1
            self._log_entries.append(
                LogEntry(text, tuple(audience) if audience is not None else None, ply, batch=self._log_batch)
            )
            self._refresh_log()

    def _words(self, entry: LogEntry, reader: int | None) -> str:
        """A line as ``reader`` reads it: an event in the words of their board, the sides by name."""
        words = entry.told.get(reader)
        if words is None:
            text = entry.text if entry.event is None else self.board.event_text(entry.event, reader)
            words = entry.told[reader] = name_seats(text, self.names, self.game.id) if text else ""
        return words

    def log_lines_for(self, reader: int | None, frame: int | None = None) -> list[str]:
        """The log as ``reader`` (a seat, or ``None``: nobody's secrets) reads it: the lines they
        may see, a public line left out where they read the secret it retells (:func:`retold`),
        in the words of ``frame``'s board (default: the reader's)."""
        frame = reader if reader is not None else frame
        entries = self._log_entries
        hidden: set[int] = set()
        secret = {_action_of(e) for e in entries if reader is not None and e.audience and reader in e.audience}
        if secret:
            actions: dict[Any, list[int]] = {key: [] for key in secret}
            for i, entry in enumerate(entries):
                key = _action_of(entry)
                if key in actions:
                    actions[key].append(i)
            for members in actions.values():
                twins = retold([entries[i].as_event() for i in members], lambda audience: reader in audience)
                hidden.update(members[j] for j in twins)
        lines = (
            self._words(entry, frame) for i, entry in enumerate(entries) if i not in hidden and entry.visible_to(reader)
        )
        return merge_repeats([line for line in lines if line])

    def _refresh_log(self) -> None:
        """Show the log as the player at the screen reads it: new lines added at the end, or the
        whole log written again when lines above changed (an undo, another reader)."""
        lines = self.log_lines_for(self._log_seat, self._log_frame)
        shown = self._log_shown
        kept = len(shown)
        if shown and len(lines) >= kept and lines[: kept - 1] == shown[:-1] and lines[kept - 1] != shown[-1]:
            # Only the last line changed: a repeat joined it ("draws 2 cards"); written again in place.
            cursor = QTextCursor(self.log.document())
            cursor.movePosition(QTextCursor.MoveOperation.End)
            cursor.movePosition(QTextCursor.MoveOperation.StartOfBlock, QTextCursor.MoveMode.KeepAnchor)
            cursor.insertText(lines[kept - 1])
            shown = [*shown[:-1], lines[kept - 1]]
        if len(lines) >= len(shown) and lines[: len(shown)] == shown:
            for line in lines[len(shown) :]:
                self.log.appendPlainText(line)
            if len(lines) > len(shown) or shown != self._log_shown:
                self._follow_log_soon()
        else:
            self._log_rebuilding = True  # emptied and filled again: no end moving to where the player is
            self.log.setPlainText("\n".join(lines))
            self._log_rebuilding = False
            self._follow_log()
        self._log_shown = lines

    def _forget_undone(self, ply: Any) -> None:
        """A view from before lines already logged (an undo): the lines of the plies taken back go."""
        if not isinstance(ply, int):
            return
        kept = [e for e in self._log_entries if e.ply is None or e.ply <= ply]
        if len(kept) != len(self._log_entries):
            self._log_entries = kept
            self._refresh_log()

    def _show_log_for(self, seat: int | None, frame: int | None = None) -> None:
        """The log for the player at the screen (hot-seat: without the other's private lines,
        zones named as the new reader's board labels them; ``frame``: as that seat's board
        names them, for nobody's log while the screen changes hands)."""
        frame = seat if frame is None else frame
        if seat == self._log_seat and frame in (None, self._log_frame):
            return
        self._log_seat = seat
        if frame is not None:
            self._log_frame = frame
        self._refresh_log()

    def _log_scrolled(self, _action: int) -> None:
        # Scrolled up to read: the log stays there; back at the bottom: it follows again.
        bar = self.log.verticalScrollBar()
        self._log_follows = bar.sliderPosition() >= bar.maximum()

    def _log_range_changed(self, _minimum: int, maximum: int) -> None:
        # Changed while the log lays itself out (a resize, lines laid out late): followed once
        # that is over, from the event loop.
        if not self._log_rebuilding:
            if self.log.verticalScrollBar().value() >= maximum:
                self._log_follows = True  # the end came to where the player had scrolled
            self._follow_log_soon()

    def _follow_log_soon(self) -> None:
        """Show the log's end from the event loop's next turn (once for many lines added)."""
        if self._log_follows and not self._log_follow_due:
            self._log_follow_due = True
            QTimer.singleShot(0, self._follow_log)

    def _follow_log(self) -> None:
        self._log_follow_due = False
        if not shiboken6.isValid(self.log) or not self._log_follows:
            return  # gone, or the player scrolled up to read since this was asked for
        # QPlainTextEdit lays a line out when it first paints it, and until then counts a
        # wrapped line as one: the scroll bar's end then falls short of the last line. The
        # lines that fit at the bottom are laid out first, so its end is the log's end.
        document = self.log.document()
        layout = document.documentLayout()
        block, height, room = document.lastBlock(), 0.0, self.log.viewport().height() * 1.5
        while block.isValid() and height < room:
            height += layout.blockBoundingRect(block).height()
            block = block.previous()
        bar = self.log.verticalScrollBar()
        bar.setValue(bar.maximum())

    def log_follows(self) -> bool:
        """Whether the log keeps its newest line in sight (the player has not scrolled up)."""
        return self._log_follows

    def log_lines(self) -> list[str]:
        """The lines of the event log as shown now."""
        text = self.log.toPlainText()
        return text.split("\n") if text else []

    def set_speed(self, speed: str) -> None:
        self.speed = speed

    def closeEvent(self, event: Any) -> None:  # noqa: N802 (Qt API)
        self._ticker.stop()
        super().closeEvent(event)
