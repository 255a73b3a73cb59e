"""The replay viewer: step through a match record, with every hidden card shown.

A record replays exactly (``Game.replay``), so the viewer has every full state and can show
the view of either seat at any step — either hand, every secret choice — which a player
never saw during the match. Nothing can be played here.

The log reads as the match screen's log of the same match, every secret told: a row is one
action, in the words the match screen gives its events. An action that tells nothing of itself
(Pawn Soccer's "stop" and the "end" the match screen plays by itself, a Big Time Soccer clear
whose words come with the discard after it) has no line there, so its row is hidden; the log
then keeps the last line told up to the board's step, and none before the first.

Panels put under the board after the viewer is made (the match review, see
:func:`soccerdesk.ui.review_chart.attach_review`) move beside it, under the log, when the window
is too short for both: the board keeps the size at which its text reads.

Signals:
    closed(): the user left the viewer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from itertools import pairwise
from typing import Any

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence, QResizeEvent, QShortcut, QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSlider,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from soccerdesk.learn.words import name_seats
from soccerdesk.rules import Event, Game, State
from soccerdesk.ui.boards import BoardConfig, TeamColours, make_board
from soccerdesk.ui.match_view import BoardView, merge_repeats, phase_text, retold
from soccerdesk.ui.session import LocalSession, told_events
from soccerdesk.ui.settings import EARLY_ENDINGS, ending_words


def revealed(events: Sequence[Event]) -> list[Event]:
    """The events of one action with nothing hidden, each said once.

    A rules module tells a secret twice: in full to its owner (``audience`` set) and in a
    public version ("Home draws an attacking card."). The replay shows every secret, so the
    public version of each is left out (see :func:`~soccerdesk.ui.match_view.retold`).
    """
    told = [{"kind": e.kind, "data": e.data, "audience": e.audience} for e in events]
    hidden = retold(told, lambda _audience: True)
    return [event for i, event in enumerate(events) if i not in hidden]


def holds_cards(state: State) -> bool:
    """Whether the players hold hands of cards the other may not see (Big Time Soccer, Soccer-Go):
    the replay then lets the user choose whose hand the board shows, one side's at a time."""
    return "hand" in state.view(0)["state"]


PLAY_SPEEDS = {"Slow": 1400, "Normal": 700, "Fast": 250}
"""Milliseconds between two steps when the replay plays by itself."""

VIEWER_KEYS = (
    Qt.Key.Key_Escape,
    Qt.Key.Key_Left,
    Qt.Key.Key_Right,
    Qt.Key.Key_Home,
    Qt.Key.Key_End,
    Qt.Key.Key_Space,
)
"""The keys the replay viewer answers wherever the keyboard is in it (:meth:`ReplayViewer.press`)."""

PANELS_UNDER_KEEP = 0.85
"""Panels stay under the board while it is drawn at least this share of its scale with them
beside it (under, a chart runs the whole width; beside, it is narrow but the board bigger)."""

READABLE_SCALE = 0.8
"""A board drawn at this scale or more reads well whatever the panels under it take."""


class ReplayViewer(QWidget):
    """Shows ``game.replay(record)`` one state at a time. See the module docstring."""

    closed = Signal()

    def __init__(
        self,
        game: Game,
        record: Mapping[str, Any],
        *,
        names: tuple[str, str] = ("Home", "Away"),
        colours: TeamColours | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("replay-viewer")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.game = game
        self.states: list[State] = game.replay(record)  # CorruptRecord propagates: the caller explains it
        self.names = names
        app = record.get("app")
        result = app.get("result") if isinstance(app, Mapping) else None
        # A match that ended before full time ("Alice resigned"): said at its last step, as the
        # match screen said it (QA pass 16: the replay ended on "Alice may answer…").
        self.ending = (
            ending_words(result, names)
            if isinstance(result, Mapping)
            and result.get("reason") in EARLY_ENDINGS
            and not self.states[-1].is_terminal()
            else ""
        )
        self.seat = 0
        self.index = 0
        self._board_step = -1  # the step the board was last given
        config = BoardConfig(
            game.id, perspective=0, colours=colours or TeamColours(), team_names=names, reveal_all=True
        )
        self.board = make_board(config)
        self.board.setParent(self)
        self.view = BoardView(self.board)

        self.header = QLabel("")
        self.header.setObjectName("replay-header")
        self.header.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setObjectName("replay-slider")
        self.slider.setRange(0, len(self.states) - 1)
        self.slider.setToolTip("Drag to any step of the match")
        self.slider.valueChanged.connect(self.show_step)
        self.seat_label = QLabel("Show the cards of")
        self.seat_box = QComboBox()
        self.seat_box.setObjectName("replay-seat")
        self.seat_box.addItem(names[0], 0)
        self.seat_box.addItem(names[1], 1)
        self.seat_box.setToolTip("Whose hand the board shows: one side's at a time")
        self.seat_box.currentIndexChanged.connect(lambda _i: self.set_seat(self.seat_box.currentData()))
        self.seat_label.setBuddy(self.seat_box)
        self.log = QListWidget()
        self.log.setObjectName("replay-log")
        self.log.setWordWrap(True)
        self.log.setAlternatingRowColors(True)  # a row is one action: shaded rows show where each begins
        self.log.setToolTip("Click a line to jump to the position after that action")
        self.log.currentRowChanged.connect(self._log_row_chosen)
        # A click on the line already highlighted goes there too (the board may be at a later
        # step whose action the log does not tell).
        self.log.itemClicked.connect(lambda item: self._log_row_chosen(self.log.row(item)))

        self._timer = QTimer(self)
        self._timer.setInterval(PLAY_SPEEDS["Normal"])
        self._timer.timeout.connect(self._advance)
        controls = QHBoxLayout()
        for label, tip, slot in (
            ("|◀", "First position (Home)", lambda: self.slider.setValue(0)),
            ("◀", "One step back (Left arrow)", lambda: self.slider.setValue(self.index - 1)),
            ("▶", "One step on (Right arrow)", lambda: self.slider.setValue(self.index + 1)),
            ("▶|", "Last position (End)", lambda: self.slider.setValue(len(self.states) - 1)),
        ):
            button = QPushButton(label)
            button.setToolTip(tip)
            button.setMaximumWidth(48)
            # Clicking a button must not take the keyboard away from the viewer's arrow keys.
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            button.clicked.connect(slot)
            controls.addWidget(button)
        self.play_button = QPushButton("Play")
        self.play_button.setObjectName("replay-play")
        self.play_button.setToolTip("Play the match step by step (Space)")
        self.play_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.play_button.setCheckable(True)
        self.play_button.toggled.connect(self._toggle_play)
        controls.addWidget(self.play_button)
        self.speed_box = QComboBox()
        self.speed_box.setObjectName("replay-speed")
        for label, interval_ms in PLAY_SPEEDS.items():
            self.speed_box.addItem(label, interval_ms)
        self.speed_box.setCurrentText("Normal")
        self.speed_box.setToolTip("How fast Play steps through the match")
        self.speed_box.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.speed_box.currentIndexChanged.connect(lambda _i: self._timer.setInterval(self.speed_box.currentData()))
        controls.addWidget(self.speed_box)
        controls.addWidget(self.slider, 1)
        controls.addWidget(self.seat_label)
        controls.addWidget(self.seat_box)
        if not holds_cards(self.states[0]):
            # Nothing is hidden from either side (Pawn Soccer, Soccero): the choice would change nothing.
            self.seat_label.hide()
            self.seat_box.hide()
        back = QPushButton("Close replay")
        back.clicked.connect(self.closed)
        controls.addWidget(back)

        side = QWidget()
        self._side = QVBoxLayout(side)
        self._side.setContentsMargins(0, 0, 0, 0)
        self._side.addWidget(self.log, 1)
        self.splitter = QSplitter()
        self.splitter.addWidget(self.view)
        self.splitter.addWidget(side)
        self.splitter.setStretchFactor(0, 4)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([900, 300])
        self._layout = QVBoxLayout(self)
        self._layout.addWidget(self.header)
        self._layout.addWidget(self.splitter, 1)
        self._layout.addLayout(controls)

        players = LocalSession.players_of(record)
        for before, state in pairwise(self.states):
            lines = self.action_lines(told_events(before, state, players))
            # An action the match's log does not tell keeps a row, hidden: row k is still the
            # action that made state k + 1, and says what it was to the match review, whose
            # caption of a turning point reads the rows (review_chart.attach_review).
            seat, action = state.history()[-1]
            whose = f"{self.names[seat]}: " if seat in (0, 1) else ""
            untold = name_seats(f"{whose}{self.board.describe(str(action))}", self.names, game.id)
            item = QListWidgetItem("\n".join(lines) or untold)
            self.log.addItem(item)
            item.setHidden(not lines)
        if self.ending:
            # After the last action's row, which row k = action k + 1 leaves free.
            self.log.addItem(QListWidgetItem(f"{self.ending}."))
        self._add_keys()
        self.show_step(0)

    def action_lines(self, events: Sequence[Event]) -> list[str]:
        """What the match screen's log says of an action's ``events``, every secret told:
        in the board's words (zones as this board labels them, cards by name), the sides by
        the players' names, a run of one line told once with its count."""
        lines = (
            name_seats(self.board.event_text(event.to_json()), self.names, self.game.id) for event in revealed(events)
        )
        return merge_repeats([line for line in lines if line])

    # --- panels under or beside the board ------------------------------------------------

    def panels(self) -> list[QWidget]:
        """Widgets put under the board by others (the match review), wherever they are now."""
        under = [self._layout.itemAt(i).widget() for i in range(self._layout.count())]
        beside = [self._side.itemAt(i).widget() for i in range(self._side.count())]
        return [w for w in under + beside if w is not None and w not in (self.header, self.splitter, self.log)]

    @property
    def panels_beside(self) -> bool:
        """The panels are beside the board, under the log (the window is short)."""
        return any(self._side.indexOf(panel) >= 0 for panel in self.panels())

    def _board_scale(self, height: int) -> float:
        """The scale the board is drawn at in a view of the view's width and ``height``."""
        rect = self.view.sceneRect()
        if rect.isEmpty():
            return 1.0
        return min(self.view.width() / rect.width(), height / rect.height())

    def _place_panels(self) -> None:
        """Under the board, or beside it when under they would shrink it too much (a short window)."""
        panels = self.panels()
        if not panels or not self.isVisible():
            return
        spacing = max(0, self._layout.spacing())
        # Every panel counts, shown or not: one moved to another parent is hidden until Qt shows it again.
        wanted = sum(max(p.sizeHint().height(), p.minimumSizeHint().height()) + spacing for p in panels)
        rest = sum(
            self._layout.itemAt(i).sizeHint().height() + spacing
            for i in range(self._layout.count())
            if self._layout.itemAt(i).widget() not in [self.splitter, *panels]
        )
        margins = self._layout.contentsMargins()
        alone = self.height() - margins.top() - margins.bottom() - rest  # the board's height with the panels beside
        under, beside = self._board_scale(alone - wanted), self._board_scale(alone)
        go_beside = under < min(READABLE_SCALE, PANELS_UNDER_KEEP * beside)
        if go_beside == self.panels_beside:
            return
        for panel in panels:
            if go_beside:
                self._layout.removeWidget(panel)
                self._side.addWidget(panel)
            else:
                self._side.removeWidget(panel)
                self._layout.insertWidget(self._layout.count() - 1, panel)  # above the controls

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt API)
        super().resizeEvent(event)
        self._place_panels()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt API)
        super().showEvent(event)
        self._place_panels()

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.LayoutRequest:  # a panel was put under the board
            self._place_panels()
        return super().event(event)

    def _add_keys(self) -> None:
        """The viewer's keys (:meth:`press`) wherever the keyboard is in it: the board, the log,
        the seat box and Close replay took them for themselves after one Tab, and Space on
        Close replay closed the replay (keyboard audit 6)."""
        for key in VIEWER_KEYS:
            shortcut = QShortcut(QKeySequence(key), self)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(partial(self.press, key))

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt API)
        if event.key() in VIEWER_KEYS:
            self.press(Qt.Key(event.key()))
            event.accept()
        else:
            super().keyPressEvent(event)

    def press(self, key: Qt.Key) -> None:
        """Left / Right step, Home / End jump, Space plays or pauses, Escape closes the replay."""
        if key == Qt.Key.Key_Escape:
            self.closed.emit()
        elif key in (Qt.Key.Key_Left, Qt.Key.Key_Right):
            self.show_step(self.index + (1 if key == Qt.Key.Key_Right else -1))
        elif key in (Qt.Key.Key_Home, Qt.Key.Key_End):
            self.show_step(0 if key == Qt.Key.Key_Home else len(self.states) - 1)
        elif key == Qt.Key.Key_Space:
            self.play_button.toggle()

    def _log_row_chosen(self, row: int) -> None:
        if row >= 0:
            self.slider.setValue(row + 1)  # log row k is the action that made state k + 1

    def set_seat(self, seat: int) -> None:
        self.seat = seat
        self.show_step(self.index)

    def show_step(self, index: int) -> None:
        """Show the position after ``index`` actions (0 = the start)."""
        index = max(0, min(index, len(self.states) - 1))
        self.index = index
        if self.slider.value() != index:
            self.slider.setValue(index)
        state = self.states[index]
        view = state.view(self.seat)
        view["legal"] = []  # nothing is played in a replay
        # The record knows the other seat's secrets too (a face-down pick): boards made with
        # reveal_all may show them instead of "still choosing".
        view["opponent_state"] = state.view(1 - self.seat)["state"]
        events = [e.to_json() for e in state.events]
        remember = getattr(self.board, "remember_rolls", None)
        if remember is not None:
            # The die shows the last roll up to this step, whichever way the replay moved.
            rolled = next(
                (s for s in reversed(self.states[: index + 1]) if any(e.kind == "roll" for e in s.events)), None
            )
            remember([e.to_json() for e in rolled.events] if rolled is not None else [], anew=True)
        if self.board.follows_turns and index not in (self._board_step, self._board_step + 1):
            # A jump (the slider dragged, a log row, End, a step back): the last turns are drawn
            # as stepping here one action at a time draws them, not from this step's events alone.
            self.board.retrace((s.view(self.seat), [e.to_json() for e in s.events]) for s in self.states[:index])
        self.board.set_view(view, events)
        self._board_step = index
        self.view.fit()
        a, b = state.score
        self.header.setText(
            f"<b>Replay — {self.game.title}</b>: {self.names[0]} {a} – {b} {self.names[1]}"
            f" · {self.ending if self.ending and index == len(self.states) - 1 else phase_text(view)}"
            f" · step {index} of {len(self.states) - 1}"
        )
        self._follow_in_log(index)

    def _follow_in_log(self, index: int) -> None:
        """Highlight the last line the log tells up to step ``index``: at the start, or before
        the first line, none, the log at its top (as the replay opens)."""
        row = index - 1
        while row >= 0 and self.log.isRowHidden(row):
            row -= 1
        self.log.blockSignals(True)  # the board is there already: no jump back to the line's step
        if row < 0:
            self.log.setCurrentRow(-1)
            self.log.clearSelection()
            self.log.scrollToTop()
        else:
            if self.log.currentRow() != row:
                self.log.setCurrentRow(row)
            self.log.scrollToItem(self.log.item(row))
        self.log.blockSignals(False)

    def _toggle_play(self, on: bool) -> None:
        self.play_button.setText("Pause" if on else "Play")
        if on:
            if self.index >= len(self.states) - 1:
                self.show_step(0)  # Play at the last step watches the match again from the start
            self._timer.start()
        else:
            self._timer.stop()

    def _advance(self) -> None:
        if self.index >= len(self.states) - 1:
            self.play_button.setChecked(False)
            return
        self.slider.setValue(self.index + 1)
