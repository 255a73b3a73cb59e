"""Reading what a board paints: the texts its painted items draw (a scene's text items are
found directly; much of a board's lettering is drawn by ``Painted`` items' own painters); and a
board shown in a view of its own, to be clicked on as a person does."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QRect, QRectF
from PySide6.QtGui import QFontMetricsF, QImage, QPainter
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene, QGraphicsView, QStyleOptionGraphicsItem

from soccerdesk.ui.boards.drawing import Painted


class NotingPainter(QPainter):
    """A painter on an image that notes every text drawn with it."""

    def __init__(self, image: QImage) -> None:
        super().__init__(image)
        self.texts: list[str] = []

    def drawText(self, *args: Any) -> None:  # type: ignore[override]  # noqa: N802 (Qt API)
        self.texts.extend(arg for arg in args if isinstance(arg, str))
        super().drawText(*args)


@dataclass(frozen=True)
class ScreenText:
    """A text as a board's item paints it in a view: its size in points on screen, and whether
    it fits the rectangle it was given (texts drawn at a point have no rectangle: they fit)."""

    text: str
    points: float
    fits: bool
    on_a_disc: bool  # the number or letters on a piece (drawing.draw_token): as big as its disc allows
    width: float = 0.0  # on screen, in pixels


class MeasuringPainter(QPainter):
    """A painter on an image that notes each text's size on screen and whether it fits."""

    def __init__(self, image: QImage) -> None:
        super().__init__(image)
        self.texts: list[ScreenText] = []

    def drawText(self, *args: Any) -> None:  # type: ignore[override]  # noqa: N802 (Qt API)
        text = next((arg for arg in args if isinstance(arg, str)), "")
        if text.strip():
            world = self.worldTransform()
            scale = math.hypot(world.m11(), world.m12())
            fits, on_a_disc = True, False
            if isinstance(args[0], QRectF | QRect) and len(args) == 3:
                room = QRectF(args[0])
                needed = QFontMetricsF(self.font()).boundingRect(room, int(args[1]), text)
                fits = needed.width() <= room.width() + 0.5 and needed.height() <= room.height() + 0.5
                radius = room.width() / 2
                on_a_disc = room.width() == room.height() and abs(self.font().pointSizeF() - radius * 0.8) < 0.01
            width = QFontMetricsF(self.font()).horizontalAdvance(text) * scale
            self.texts.append(ScreenText(text, self.font().pointSizeF() * scale, fits, on_a_disc, width))
        super().drawText(*args)


def texts_on_screen(view: QGraphicsView, only: Callable[[QGraphicsItem], bool] = bool) -> list[ScreenText]:
    """Every text the visible ``Painted`` items of ``view``'s scene (those that pass ``only``)
    paint where ``view`` shows them."""
    viewport = view.viewport()
    image = QImage(viewport.width(), viewport.height(), QImage.Format.Format_ARGB32)
    painter = MeasuringPainter(image)
    shown = view.mapToScene(viewport.rect()).boundingRect()
    for item in view.scene().items(shown):
        if isinstance(item, Painted) and item.isVisible() and only(item):
            painter.save()
            painter.setWorldTransform(item.deviceTransform(view.viewportTransform()))
            item.paint(painter, QStyleOptionGraphicsItem(), None)
            painter.restore()
    painter.end()
    return painter.texts


SMALLEST_BOARD = (738, 450)
"""A board's room on the match screen at the smallest window (1000 × 540)."""


def unreadable_texts(
    qtbot: Any, board: QGraphicsScene, views: list[dict[str, Any]], size: tuple[int, int]
) -> list[str]:
    """What ``board`` shows in a match screen's board view of ``size`` pixels, over ``views``
    (at most 150 of them, evenly spread), that reads under ``SMALLEST_ON_SCREEN`` points or
    does not fit its room; numbers and letters on the pieces left out (as big as a piece
    allows, and named in its tooltip)."""
    from soccerdesk.ui.boards.drawing import SMALLEST_ON_SCREEN
    from soccerdesk.ui.match_view import BoardView

    view = BoardView(board)  # type: ignore[arg-type]
    qtbot.addWidget(view)
    view.resize(*size)
    view.show()
    found: set[str] = set()
    for seen in views[:: max(1, len(views) // 150)]:
        board.set_view(seen)  # type: ignore[attr-defined]
        view.fit()
        for text in texts_on_screen(view):
            if text.points < SMALLEST_ON_SCREEN - 0.05 and not text.on_a_disc:
                found.add(f"{text.text!r} at {text.points:.1f} pt")
            if not text.fits:
                found.add(f"{text.text!r} cut")
    return sorted(found)


def painted_texts(board: QGraphicsScene) -> list[str]:
    """Every text the board's items paint, top to bottom, left to right."""
    image = QImage(1200, 900, QImage.Format.Format_ARGB32)
    painter = NotingPainter(image)
    items = sorted(board.items(), key=lambda item: (item.scenePos().y(), item.scenePos().x()))
    for item in items:
        if isinstance(item, Painted) and item.isVisible():
            item.paint(painter, QStyleOptionGraphicsItem(), None)
    painter.end()
    return painter.texts


def shown(qtbot: Any, board: QGraphicsScene, size: tuple[int, int] | None = None) -> QGraphicsView:
    """``board`` in a QGraphicsView on screen (``size`` if given), whose viewport takes clicks."""
    gview = QGraphicsView(board)
    qtbot.addWidget(gview)
    if size is not None:
        gview.resize(*size)
    gview.show()
    return gview
