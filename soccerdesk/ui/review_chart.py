"""The match review on screen: a chart of each side's chance of winning, under the replay.

:class:`ReviewChart` draws a :class:`soccerdesk.learn.review.Review` with QPainter in the
board's colours (grass, chalk lines, the team colours): the home side's chance as a line over
the pitch green (smoothed: the median of five estimates, :func:`soccerdesk.learn.review.smoothed`;
each raw estimate, noisy by its trial games, faint behind it), the home side's colour under the
line (its height is the home side's chance) and the away side's over it, the 50% line, the
turning points as rings and the replay's current position as an upright line, with each side's
chance there on a tag of its colour in its own area (beside the line where that area is too
thin for it, as at 0% and 100%). Clicking the chart (or pressing a key while it has the focus)
asks the replay to go there: :attr:`ReviewChart.position_chosen`.

:class:`ReviewPanel` works the review out in the background, a slice of positions at a time in
the bot process (:func:`soccerdesk.ui.bot_pool.shared_bot_pool`), shows a progress bar while it
does, then the chart and one line on the biggest turning point. A record that already keeps its
review (``record["review"]``) shows at once; a newly worked out review is handed back with the
record (:attr:`ReviewPanel.ready`) and written into the match file when one is given, so
opening it again is instant.

:func:`attach_review` puts a panel under a :class:`soccerdesk.ui.replay.ReplayViewer` and
links the two: the chart follows the replay, and a click on the chart moves the replay.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QKeyEvent, QMouseEvent, QPainter, QPainterPath, QPaintEvent, QPen
from PySide6.QtWidgets import QLabel, QProgressBar, QSizePolicy, QVBoxLayout, QWidget

from soccerdesk.learn import review as reviews
from soccerdesk.learn.review import Review
from soccerdesk.learn.words import said
from soccerdesk.ui.hint import BotWork
from soccerdesk.ui.palette import GRASS_DARK, GRASS_LIGHT, LINE
from soccerdesk.ui.session import disk_words, write_match_file

if TYPE_CHECKING:
    from soccerdesk.ui.replay import ReplayViewer

HOME_COLOUR = QColor("#1f5fbf")
AWAY_COLOUR = QColor("#e07b00")
"""The boards' default team colours (:class:`soccerdesk.ui.boards.TeamColours`)."""

MARGIN = 8
AXIS = 44
"""Pixels kept left of the plot for the 0/50/100% labels."""


class ReviewChart(QWidget):
    """Seat 0's chance of winning along a match (see the module docstring)."""

    position_chosen = Signal(int)

    def __init__(
        self,
        names: tuple[str, str] = ("Home", "Away"),
        colours: tuple[QColor, QColor] = (HOME_COLOUR, AWAY_COLOUR),
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("review-chart")
        self.setMinimumHeight(110)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.names = names
        self.colours = colours
        self.review: Review | None = None
        self.line: tuple[float, ...] = ()  # the review's smoothed line, worked out once per review
        self.current = 0
        self.setToolTip(
            f"Each side's chance of winning, as the computer judged it from trial games: {names[0]}'s"
            f" below the line, {names[1]}'s above it. The line follows the middle of five estimates,"
            " the faint one each estimate. Click to go there."
        )

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt API)
        return QSize(640, 140)

    # --- what it shows --------------------------------------------------------------

    def set_review(self, review: Review | None) -> None:
        self.review = review
        self.line = review.smoothed() if review is not None else ()
        self.update()

    def set_current(self, index: int) -> None:
        self.current = index
        self.update()

    # --- geometry (public so tests can click where a person would) -------------------

    def plot_rect(self) -> QRectF:
        return QRectF(AXIS, MARGIN, max(1, self.width() - AXIS - MARGIN), max(1, self.height() - 2 * MARGIN))

    def x_of(self, index: int) -> float:
        """The x coordinate of position ``index`` on the chart."""
        plot = self.plot_rect()
        last = max(1, len(self.review.home) - 1) if self.review is not None else 1
        return plot.left() + plot.width() * index / last

    def y_of(self, chance: float) -> float:
        """The y coordinate of a home chance of ``chance``."""
        plot = self.plot_rect()
        return plot.bottom() - plot.height() * chance

    def index_at(self, x: float) -> int:
        """The position nearest to ``x``."""
        if self.review is None:
            return 0
        plot = self.plot_rect()
        last = len(self.review.home) - 1
        return max(0, min(last, round((x - plot.left()) / plot.width() * last)))

    # --- input ------------------------------------------------------------------------

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt API)
        if self.review is None or event.button() != Qt.MouseButton.LeftButton:
            super().mousePressEvent(event)
            return
        self.position_chosen.emit(self.index_at(event.position().x()))

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt API)
        """Left/Right: one position; Page Up/Down or T: the previous/next turning point."""
        if self.review is None:
            super().keyPressEvent(event)
            return
        key = event.key()
        last = len(self.review.home) - 1
        turning = self.review.turning
        target: int | None = None
        if key == Qt.Key.Key_Left:
            target = max(0, self.current - 1)
        elif key == Qt.Key.Key_Right:
            target = min(last, self.current + 1)
        elif key in (Qt.Key.Key_PageDown, Qt.Key.Key_T):
            target = next((i for i in turning if i > self.current), turning[0] if turning else None)
        elif key == Qt.Key.Key_PageUp:
            target = next((i for i in reversed(turning) if i < self.current), turning[-1] if turning else None)
        if target is None:
            super().keyPressEvent(event)
            return
        self.position_chosen.emit(target)

    # --- drawing ----------------------------------------------------------------------

    def tag_rects(self, level: float, x: float) -> tuple[QRectF, QRectF]:
        """The home and the away side's tags for a home chance of ``level``, beside the upright
        line at ``x`` (on its right unless that leaves the plot). Public so tests can look."""
        plot = self.plot_rect()
        away_top, home_top = tag_places(plot.top(), self.y_of(level), plot.bottom())
        width = max(self.fontMetrics().horizontalAdvance(f"{name} 100%") for name in self.names) + 12.0
        left = x + TAG_GAP if x + TAG_GAP + width <= plot.right() else x - TAG_GAP - width
        left = max(plot.left(), left)
        return QRectF(left, home_top, width, TAG_HEIGHT), QRectF(left, away_top, width, TAG_HEIGHT)

    def tag_texts(self, level: float) -> tuple[str, str]:
        """The home and the away side's tags for a home chance of ``level``: whole percentages
        that add up to 100."""
        home = round(100 * level)
        return f"{self.names[0]} {home}%", f"{self.names[1]} {100 - home}%"

    def _draw_tags(self, painter: QPainter, level: float, x: float) -> None:
        """Each side's chance at the current position, on a tag of its colour in its own area."""
        for seat, (rect, text) in enumerate(zip(self.tag_rects(level, x), self.tag_texts(level), strict=True)):
            painter.setPen(QPen(LINE, 1))
            painter.setBrush(self.colours[seat])
            painter.drawRoundedRect(rect, 4, 4)
            painter.setPen(QColor("#ffffff"))
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)
        painter.setBrush(Qt.BrushStyle.NoBrush)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt API)
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.fillRect(self.rect(), GRASS_DARK)
        plot = self.plot_rect()
        painter.fillRect(plot, GRASS_LIGHT)
        faint = QColor(LINE)
        faint.setAlpha(110)
        painter.setPen(QPen(faint, 1, Qt.PenStyle.DashLine))
        painter.drawLine(QPointF(plot.left(), self.y_of(0.5)), QPointF(plot.right(), self.y_of(0.5)))
        painter.setPen(LINE)
        for chance, label in ((1.0, "100%"), (0.5, "50%"), (0.0, "0%")):
            top = min(max(0.0, self.y_of(chance) - 8), self.height() - 16.0)  # inside the widget at both ends
            painter.drawText(QRectF(0, top, AXIS - 4, 16), Qt.AlignmentFlag.AlignRight, label)
        painter.setPen(QPen(LINE, 1))
        painter.drawRect(plot)
        if self.review is None or len(self.review.home) < 2:
            painter.end()
            return
        raw = self.review.home
        estimates = QPainterPath(QPointF(self.x_of(0), self.y_of(raw[0])))
        for index in range(1, len(raw)):
            estimates.lineTo(self.x_of(index), self.y_of(raw[index]))
        home = self.line  # not worked out again at every repaint (each step of the replay)
        line = QPainterPath(QPointF(self.x_of(0), self.y_of(home[0])))
        for index in range(1, len(home)):
            line.lineTo(self.x_of(index), self.y_of(home[index]))
        # The line is the home side's chance: the area under it (as high as that chance) is the
        # home side's, the area over it the away side's (QA pass 17: they were the other way round).
        for colour, edge in ((self.colours[0], plot.bottom()), (self.colours[1], plot.top())):
            area = QPainterPath(line)
            area.lineTo(plot.right(), edge)
            area.lineTo(plot.left(), edge)
            area.closeSubpath()
            fill = QColor(colour)
            fill.setAlpha(90)
            painter.fillPath(area, fill)
        noisy = QColor(LINE)
        noisy.setAlpha(90)
        painter.setPen(QPen(noisy, 1))
        painter.drawPath(estimates)
        painter.setPen(QPen(LINE, 2))
        painter.drawPath(line)
        for index in self.review.turning:
            centre = QPointF(self.x_of(index), self.y_of(home[index]))
            painter.setPen(QPen(QColor("#111111"), 3))
            painter.drawEllipse(centre, 6, 6)
            painter.setPen(QPen(QColor("#ffd23f"), 2))
            painter.drawEllipse(centre, 6, 6)
        x = self.x_of(min(self.current, len(home) - 1))
        painter.setPen(QPen(QColor("#ffffff"), 2))
        painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()))
        self._draw_tags(painter, home[min(self.current, len(home) - 1)], x)
        painter.end()


TAG_HEIGHT = 18
TAG_GAP = 6
"""A tag's height and its distance from the current position's upright line, in pixels."""


def tag_places(top: float, level: float, bottom: float, height: float = TAG_HEIGHT) -> tuple[float, float]:
    """Where the away and the home side's tags go (their top edges) in a plot from ``top`` to
    ``bottom`` whose line is at ``level`` (a y coordinate): each in the middle of its own side's
    area (the away side's above the line, the home side's below it), moved only as far as it must
    to stay inside the plot and off the other tag. At 0% or 100% one area has no height: its tag
    then sits beside the line, on the line's side of the other tag."""
    away = min(max(top, (top + level) / 2 - height / 2), bottom - 2 * height)
    home = max(min(bottom - height, (level + bottom) / 2 - height / 2), away + height)
    return away, home


def turning_line(review: Review, names: tuple[str, str], describe: list[str] | None = None) -> str:
    """One line on the match's biggest turning point, in words (``describe[i]``: what action i did).

    "Biggest turning point, step 172: The 5th pass reaches number 6 (the defender marked number
    8). Home's chance of winning rose from about 42% to about 88%. Rings mark…": the step's own
    words are sentences of their own, so brackets in them are never nested in the line's. The
    chances are the ones before and after the step (:meth:`Review.levels`), not one noisy
    estimate each."""
    index = review.biggest_turn()
    if index is None:
        return "No single action changed the match much: it was decided bit by bit."
    gainer = 0 if review.swing(index) > 0 else 1
    before, after = (v if gainer == 0 else 1.0 - v for v in review.levels(index))
    words = step_words(describe[index - 1]) if describe and 0 < index <= len(describe) else ""
    return (
        f"Biggest turning point, step {index}: {words}{' ' if words else ''}{names[gainer]}'s chance of "
        f"winning rose from about {before:.0%} to about {after:.0%}. "
        + (f"Rings mark the {len(review.turning)} biggest swings" if len(review.turning) > 1 else "The ring marks it")
        + "; click the chart to go there."
    )


def step_words(text: str) -> str:
    """A replay log line as sentences: each of its lines starts with a capital and ends with a stop."""
    sentences = []
    for line in text.splitlines():
        line = line.strip()
        if line:
            sentences.append(said(line))
    return " ".join(sentences)


class ReviewPanel(QWidget):
    """The review of one match record, worked out in the background (see the module docstring).

    Signals: ``ready(dict)``, the record keeping its review, once it is worked out;
    ``failed(str)``, why it could not be.
    """

    ready = Signal(object)
    failed = Signal(str)

    POLL_MS = 40

    def __init__(
        self,
        record: Mapping[str, Any],
        *,
        names: tuple[str, str] = ("Home", "Away"),
        colours: tuple[QColor, QColor] = (HOME_COLOUR, AWAY_COLOUR),
        path: Path | None = None,
        executor: Executor | None = None,
        describe: list[str] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("review-panel")
        self.record = dict(record)
        self.names = names
        self.path = path
        self.describe = describe
        self.chart = ReviewChart(names, colours)
        self.progress = QProgressBar()
        self.progress.setObjectName("review-progress")
        self.progress.setFormat("Working out the review… %p%")
        self.caption = QLabel("")
        self.caption.setObjectName("review-caption")
        self.caption.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.chart)
        layout.addWidget(self.progress)
        # A quiet line under the caption, when the review could not be kept in the match file.
        self.note = QLabel("")
        self.note.setObjectName("review-note")
        self.note.setWordWrap(True)
        self.note.setStyleSheet("font-style: italic;")
        self.note.hide()
        layout.addWidget(self.caption)
        layout.addWidget(self.note)
        self._work = BotWork(executor, "soccerdesk-review")
        self._pending: Future[Any] | None = None
        self._slices: list[tuple[int, int]] = []
        self._home: list[float] = []
        self._carried: tuple[int, ...] | None = None  # asked for first, with the first slice after it
        self._poll = QTimer(self)
        self._poll.setInterval(self.POLL_MS)
        self._poll.timeout.connect(self._collect)
        self.review: Review | None = None
        try:
            kept = reviews.stored(self.record)
        except reviews.ReviewError:
            kept = None  # damaged: worked out again below
        if kept is not None:
            self._show(kept)
        else:
            self.caption.setText("The computer is judging every position of the match, as each side saw it…")
            self.progress.setRange(0, reviews.positions(self.record))
            self.progress.setValue(0)
            self._slices = reviews.slices(self.record)
            self._poll.start()
            self._submit_next()

    @property
    def working(self) -> bool:
        return self.review is None and self._poll.isActive()

    def _submit_next(self) -> None:
        game = str(self.record.get("game"))
        if self._carried is None:
            self._pending = self._work.submit(reviews.carried_positions, game, self.record)
            return
        start, stop = self._slices[0]
        self._pending = self._work.submit(reviews.estimate_slice, game, self.record, start, stop)

    def _collect(self) -> None:
        """On the UI thread: take a finished slice, ask for the next one."""
        future = self._pending
        if future is None or not future.done():
            return
        self._pending = None
        try:
            part = future.result()
        except Exception as exc:  # noqa: BLE001 - shown to the user, the replay stays usable
            self._poll.stop()
            self.progress.hide()
            self.caption.setText(f"The review could not be worked out: {exc}")
            self.failed.emit(str(exc))
            return
        if self._carried is None:
            self._carried = tuple(part)
        else:
            self._home.extend(part)
            self._slices.pop(0)
            self.progress.setValue(len(self._home))
        if self._slices:
            self._submit_next()
            return
        self._poll.stop()
        found = reviews.build(self.record, self._home, self._carried or ())
        self.record = reviews.attach(self.record, found)
        # Shown first: minutes of work are not lost to a file that cannot be written (a
        # read-only folder, a full disk); keeping it there only saves the work next time.
        self._show(found)
        if self.path is not None:
            try:
                write_match_file(self.path, json.dumps(self.record, indent=1))
            except OSError as exc:
                self.note.setText(
                    f"The review could not be kept in {self.path.name} ({disk_words(exc)}): it is worked out"
                    " again the next time the match is opened."
                )
                self.note.show()
        self.ready.emit(self.record)

    def _show(self, found: Review) -> None:
        self.review = found
        self.progress.hide()
        self.chart.set_review(found)
        self.caption.setText(turning_line(found, self.names, self.describe))

    def close_work(self) -> None:
        """Stop working (the viewer closes): a slice being worked out is dropped."""
        self._poll.stop()
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
        self._work.close()


def attach_review(
    viewer: ReplayViewer,
    record: Mapping[str, Any],
    *,
    path: Path | None = None,
    executor: Executor | None = None,
) -> ReviewPanel:
    """A :class:`ReviewPanel` for ``record`` under ``viewer``'s board, linked to its slider."""
    colours = (viewer.board.config.colours.home, viewer.board.config.colours.away)
    describe = [viewer.log.item(i).text() for i in range(viewer.log.count())]
    panel = ReviewPanel(record, names=viewer.names, colours=colours, path=path, executor=executor, describe=describe)
    layout = viewer.layout()
    assert isinstance(layout, QVBoxLayout)
    layout.insertWidget(layout.count() - 1, panel)  # above the replay's controls
    panel.chart.set_current(viewer.index)
    panel.chart.position_chosen.connect(viewer.slider.setValue)
    viewer.slider.valueChanged.connect(panel.chart.set_current)
    viewer.closed.connect(panel.close_work)
    return panel


def take_review_screenshot(game_id: str, path: Path, size: tuple[int, int] = (1280, 860), seed: int = 7) -> None:
    """``soccerdesk --screenshot review:GAME PATH``: the review of a seeded bot-vs-bot match of
    ``game_id`` (chart and board, the replay at the biggest turning point) drawn into a PNG."""
    from PySide6.QtWidgets import QApplication

    from soccerdesk.rules import get_game
    from soccerdesk.ui.replay import ReplayViewer
    from soccerdesk.ui.screenshot import ScreenshotError, bot_match, save_picture

    app = QApplication.instance()
    if app is None:
        raise ScreenshotError("a QApplication must exist first")
    game = get_game(game_id)
    record = game.dump(bot_match(game, seed))
    record = reviews.attach(record, reviews.review_match(record))
    viewer = ReplayViewer(game, record)
    panel = attach_review(viewer, record)
    assert panel.review is not None
    biggest = panel.review.biggest_turn()
    if biggest is not None:
        viewer.slider.setValue(biggest)
    viewer.resize(*size)
    viewer.show()
    save_picture(viewer, viewer.view, path)
