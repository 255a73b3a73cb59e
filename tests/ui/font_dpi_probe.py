"""Print, as JSON, every text the four boards and the home screen pictures draw, with its extent
in the units it was laid out in, for a test that started this file as a subprocess:

    python tests/ui/font_dpi_probe.py

The process's logical DPI is whatever its environment sets (``QT_FONT_DPI`` and the scaling
variables); the output says which DPI Qt used. Each board shows the mid-match position of
``--screenshot``, in a board view of each of :data:`SIZES`. A text's extent is measured in its item's own
units twice: with the device a board view draws on (its viewport) and with an offscreen image
(what ``--screenshot`` and an item cached as a pixmap draw on), each with the DPI Qt uses there.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from PySide6.QtCore import QRect, QRectF
from PySide6.QtGui import QFontMetricsF, QImage, QPaintDevice, QPainter
from PySide6.QtWidgets import QApplication, QStyleOptionGraphicsItem

GAMES = ("big-time-soccer", "pawn-soccer", "soccero", "soccer-go")
SIZES = ((738, 450), (1400, 900))
"""The boards' views: as at the smallest window (side panels zoomed, labels made bigger) and large."""


class ExtentPainter(QPainter):
    """A painter on an image that notes each text's extent in its local units, measured for the
    image and for ``screen`` (a widget that shows the same items)."""

    def __init__(self, image: QImage, screen: QPaintDevice) -> None:
        super().__init__(image)
        self.screen = screen
        self.texts: list[dict[str, Any]] = []

    def _extent(self, device: QPaintDevice, args: tuple[Any, ...], text: str) -> list[float]:
        metrics = QFontMetricsF(self.font(), device)
        if isinstance(args[0], QRectF | QRect) and len(args) >= 3 and isinstance(args[1], int):
            box = metrics.boundingRect(QRectF(args[0]), args[1], text)
        else:
            box = metrics.boundingRect(text)
        return [box.width(), box.height()]

    def drawText(self, *args: Any) -> None:  # type: ignore[override]  # noqa: N802 (Qt API)
        text = next((arg for arg in args if isinstance(arg, str)), "")
        if text.strip():
            self.texts.append(
                {
                    "text": text,
                    "image": self._extent(self.device(), args, text),
                    "screen": self._extent(self.screen, args, text),
                }
            )
        super().drawText(*args)


def board_texts(game_id: str, size: tuple[int, int]) -> list[dict[str, Any]]:
    from soccerdesk.rules import get_game
    from soccerdesk.ui.boards import make_board
    from soccerdesk.ui.boards.drawing import Painted
    from soccerdesk.ui.match_view import BoardView, MatchView
    from soccerdesk.ui.screenshot import middle_position
    from soccerdesk.ui.session import LocalSession, Player

    app = QApplication.instance()
    assert app is not None
    game = get_game(game_id)
    players = (Player("human", "Home", colour="#0072b2"), Player("human", "Away", colour="#e69f00"))
    session = LocalSession(game, players, record=middle_position(game))
    match = MatchView(session, speed="off")
    match.show()
    session.start()
    session.take_over()
    app.processEvents()
    view_data, config = match.view.scene().view_data, match.view.scene().config
    match.close()
    session.close()
    # The board alone in a view of its own size: the match screen's buttons and words beside the
    # board follow the DPI (as they should), which would change the board's room.
    board = make_board(config)
    view = BoardView(board)
    view.resize(*size)
    view.show()
    board.set_view(view_data)
    view.fit()
    app.processEvents()
    image = QImage(400, 400, QImage.Format.Format_ARGB32)
    painter = ExtentPainter(image, view.viewport())
    for item in sorted(board.items(), key=lambda item: (item.scenePos().y(), item.scenePos().x(), item.zValue())):
        if isinstance(item, Painted) and item.isVisible():
            item.paint(painter, QStyleOptionGraphicsItem(), None)
    painter.end()
    view.close()
    return painter.texts


def picture_texts(game_id: str) -> list[dict[str, Any]]:
    from soccerdesk.ui.art import HEIGHT, WIDTH, paint_game

    image = QImage(int(WIDTH), int(HEIGHT), QImage.Format.Format_ARGB32)
    painter = ExtentPainter(image, image)
    paint_game(painter, QRectF(0, 0, WIDTH, HEIGHT), game_id)
    painter.end()
    return painter.texts


def main() -> None:
    app = QApplication(sys.argv[:1])
    screen = app.primaryScreen()
    found: dict[str, Any] = {
        "dpi": screen.logicalDotsPerInchY(),
        "pixel_ratio": screen.devicePixelRatio(),
        "boards": {f"{game_id} {w}x{h}": board_texts(game_id, (w, h)) for game_id in GAMES for w, h in SIZES},
        "pictures": {game_id: picture_texts(game_id) for game_id in GAMES},
    }
    print(json.dumps(found))


if __name__ == "__main__":
    main()
