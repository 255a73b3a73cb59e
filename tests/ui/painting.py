"""Reading what a board paints: the texts its painted items draw (a scene's text items are
found directly; much of a board's lettering is drawn by ``Painted`` items' own painters); and a
board shown in a view of its own, to be clicked on as a person does."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QGraphicsScene, QGraphicsView, QStyleOptionGraphicsItem

from soccerdesk.ui.boards.drawing import Painted


class NotingPainter(QPainter):
    """A painter on an image that notes every text drawn with it."""

    def __init__(self, image: QImage) -> None:
        super().__init__(image)
        self.texts: list[str] = []

    def drawText(self, *args: Any) -> None:  # type: ignore[override]  # noqa: N802 (Qt API)
        self.texts.extend(arg for arg in args if isinstance(arg, str))
        super().drawText(*args)


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
