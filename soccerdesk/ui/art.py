"""Pictures the app draws itself: one per game for the home screen and the help; the app icon.

Everything is painted with QPainter in a 320 × 200 design space and scaled, so the art is
crisp at any size and pixel ratio, and nothing is copied from a rulebook or a publisher.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QIcon, QLinearGradient, QPainter, QPainterPath, QPen, QPixmap

from soccerdesk.resources import resource_path
from soccerdesk.ui.boards.drawing import piece_font, ui_font
from soccerdesk.ui.palette import GRASS_DARK, GRASS_LIGHT, LINE

WIDTH, HEIGHT = 320.0, 200.0
GRASS, GRASS_STRIPE = GRASS_DARK, GRASS_LIGHT
HOME = QColor("#0072b2")
AWAY = QColor("#e69f00")


def art_font(size: float, bold: bool = True) -> QFont:
    """The boards' font (``drawing.ui_font``) in the design space's units, bold unless asked."""
    return ui_font(size, bold)


def _grass(p: QPainter, r: QRectF, stripes: int = 8, vertical: bool = False) -> None:
    p.fillRect(r, GRASS)
    for i in range(0, stripes, 2):
        if vertical:
            w = r.width() / stripes
            p.fillRect(QRectF(r.left() + i * w, r.top(), w, r.height()), GRASS_STRIPE)
        else:
            h = r.height() / stripes
            p.fillRect(QRectF(r.left(), r.top() + i * h, r.width(), h), GRASS_STRIPE)


def _ball(p: QPainter, c: QPointF, radius: float) -> None:
    p.setPen(QPen(QColor("#222222"), radius * 0.12))
    p.setBrush(QColor("#ffffff"))
    p.drawEllipse(c, radius, radius)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor("#222222"))
    p.drawEllipse(c, radius * 0.36, radius * 0.36)


def _token(p: QPainter, c: QPointF, radius: float, fill: QColor, label: str = "") -> None:
    p.setPen(QPen(fill.darker(200), radius * 0.15))
    p.setBrush(fill)
    p.drawEllipse(c, radius, radius)
    if label:
        p.setPen(QColor("#ffffff") if fill.lightness() < 140 else QColor("#000000"))
        p.setFont(piece_font(radius))
        p.drawText(QRectF(c.x() - radius, c.y() - radius, 2 * radius, 2 * radius), Qt.AlignmentFlag.AlignCenter, label)


INK = QColor("#1d1d1d")


def draw_card(p: QPainter, r: QRectF, face: QColor, label: str, ink: QColor = INK, angle: float = 0.0) -> None:
    """A playing card with a shadow and a big centred label, turned by ``angle`` degrees."""
    p.save()
    p.translate(r.center())
    p.rotate(angle)
    box = QRectF(-r.width() / 2, -r.height() / 2, r.width(), r.height())
    p.setPen(QPen(QColor(0, 0, 0, 90), 1))
    p.setBrush(QColor(0, 0, 0, 60))
    p.drawRoundedRect(box.translated(2, 3), 6, 6)
    p.setBrush(face)
    p.setPen(QPen(face.darker(160), 1.4))
    p.drawRoundedRect(box, 6, 6)
    p.setPen(ink)
    p.setFont(art_font(box.height() * 0.32))
    p.drawText(box, Qt.AlignmentFlag.AlignCenter, label)
    p.restore()


def paint_big_time_soccer(p: QPainter) -> None:
    """The 18-zone field (6 rows × 3 columns) with the ball in one zone and a d20."""
    field = QRectF(70, 12, 180, 176)
    _grass(p, field, stripes=6)
    p.setPen(QPen(LINE, 2))
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawRect(field)
    for row in range(1, 6):
        y = field.top() + row * field.height() / 6
        p.setPen(QPen(LINE, 2 if row == 3 else 0.8, Qt.PenStyle.SolidLine if row == 3 else Qt.PenStyle.DashLine))
        p.drawLine(QPointF(field.left(), y), QPointF(field.right(), y))
    for col in (1, 2):
        x = field.left() + col * field.width() / 3
        p.setPen(QPen(LINE, 0.8, Qt.PenStyle.DashLine))
        p.drawLine(QPointF(x, field.top()), QPointF(x, field.bottom()))
    p.setPen(QPen(LINE, 2))
    p.drawRect(QRectF(130, 12, 60, 16))
    p.drawRect(QRectF(130, 172, 60, 16))
    zone = QRectF(field.left() + 60, field.top() + 2 * field.height() / 6, 60, field.height() / 6)
    p.fillRect(zone.adjusted(2, 2, -2, -2), QColor(255, 243, 92, 90))
    _ball(p, zone.center(), 8)
    hexagon = QPainterPath()
    c, rad = QPointF(285, 150), 26.0
    for i in range(6):
        pt = QPointF(
            c.x() + rad * 0.866 * (1 if i in (1, 2) else -1 if i in (4, 5) else 0),
            c.y() + rad * (-1 if i == 0 else 1 if i == 3 else -0.5 if i in (1, 5) else 0.5),
        )
        if i == 0:
            hexagon.moveTo(pt)
        else:
            hexagon.lineTo(pt)
    hexagon.closeSubpath()
    p.setPen(QPen(QColor("#4a0a12"), 1.5))
    p.setBrush(QColor("#c62f3f"))
    p.drawPath(hexagon)
    p.setPen(QColor("#ffffff"))
    p.setFont(art_font(15))
    p.drawText(QRectF(c.x() - rad, c.y() - rad, 2 * rad, 2 * rad), Qt.AlignmentFlag.AlignCenter, "17")
    for i, label in enumerate(("P", "D", "I")):
        draw_card(p, QRectF(12 + i * 8, 40 + i * 30, 40, 56), QColor("#fbf8ef"), label, angle=-8 + 8 * i)


def paint_pawn_soccer(p: QPainter) -> None:
    """The upright 7 × 11 board as a match starts: goals at both ends, the no-goal corners,
    sprint lanes and long-pass spaces, six pawns and a keeper a side, the ball at the centre;
    beside it a substitute on the bench and a yellow card."""
    cols, rows, cell = 7, 11, 15.5
    left, top = (WIDTH - cols * cell) / 2, (HEIGHT - rows * cell) / 2

    def square(c: int, r: int) -> QRectF:  # c 0..6 (A..G), r 1..11 from the bottom
        return QRectF(left + c * cell, top + (rows - r) * cell, cell, cell)

    for r in range(1, rows + 1):
        for c in range(cols):
            p.fillRect(square(c, r), GRASS if (r + c) % 2 else GRASS_STRIPE)
    # No goal from the corners; sprint lanes up the wings; long-pass spaces.
    p.setPen(QPen(QColor(255, 255, 255, 150), 1.1))
    for c, r in ((0, 1), (1, 1), (5, 1), (6, 1), (0, 2), (6, 2), (0, 10), (6, 10), (0, 11), (1, 11), (5, 11), (6, 11)):
        q = square(c, r).adjusted(3.5, 3.5, -3.5, -3.5)
        p.drawLine(q.topLeft(), q.bottomRight())
        p.drawLine(q.topRight(), q.bottomLeft())
    for c in (0, 6):
        for r in (3, 4, 5, 7, 8, 9):
            q = square(c, r)
            p.fillRect(q.adjusted(0.5, 0.5, -0.5, -0.5), QColor(255, 255, 255, 40))
            tip = -3.0 if r < 6 else 3.0  # the home side sprints up, the away side down
            mid = q.center()
            p.drawLine(mid + QPointF(-3, -tip / 2), mid + QPointF(0, tip / 2))
            p.drawLine(mid + QPointF(3, -tip / 2), mid + QPointF(0, tip / 2))
    for c, r in ((1, 4), (5, 4), (1, 8), (5, 8)):
        p.setBrush(QColor(250, 246, 200))
        p.drawEllipse(square(c, r).center(), cell * 0.33, cell * 0.33)
        p.setBrush(Qt.BrushStyle.NoBrush)
    # Lines: the touch lines, halfway, the centre circle, both penalty areas and goal areas.
    p.setPen(QPen(LINE, 1.4))
    p.drawRect(QRectF(left, top, cols * cell, rows * cell))
    mid_y = top + 5.5 * cell
    p.drawLine(QPointF(left, mid_y), QPointF(left + cols * cell, mid_y))
    p.drawEllipse(QPointF(left + 3.5 * cell, mid_y), cell * 1.1, cell * 1.1)
    for low, high in ((1, 3), (9, 11)):
        p.drawRect(square(1, high).united(square(5, low)))
    for r in (1, 11):
        p.drawRect(square(2, r).united(square(4, r)))
    # The goals, a net beyond each goal line.
    for y in (top - 9, top + rows * cell):
        net = QRectF(left + 2 * cell, y, 3 * cell, 9)
        p.fillRect(net, QColor("#dfe6ee"))
        p.setPen(QPen(QColor("#9aa7b4"), 0.6))
        for i in range(1, 9):
            x = net.left() + i * net.width() / 9
            p.drawLine(QPointF(x, net.top()), QPointF(x, net.bottom()))
    # Six pawns and a keeper a side, set up as a quick set-up places them; the ball at the centre.
    home = ((3, 1, "GK"), (2, 3, ""), (4, 3, ""), (2, 5, ""), (3, 5, ""), (4, 5, ""))
    away = ((3, 11, "GK"), (2, 9, ""), (4, 9, ""), (2, 7, ""), (3, 7, ""), (4, 7, ""))
    for team, colour in ((home, HOME), (away, AWAY)):
        for c, r, label in team:
            _token(p, square(c, r).center(), cell * 0.4, colour, label)
    _ball(p, QPointF(left + 3.5 * cell, mid_y), 3.6)
    # The bench: one substitute a side; and a yellow card (a second one is a red).
    _token(p, QPointF(75, 150), 11, HOME, "S")
    _token(p, QPointF(75, 50), 11, AWAY, "S")
    p.setFont(art_font(8, bold=False))
    p.setPen(QColor("#c9d3de"))
    p.drawText(QRectF(45, 163, 60, 14), Qt.AlignmentFlag.AlignCenter, "bench")
    p.drawText(QRectF(45, 63, 60, 14), Qt.AlignmentFlag.AlignCenter, "bench")
    card = QRectF(232, 82, 26, 36)
    p.save()
    p.translate(card.center())
    p.rotate(12)
    box = QRectF(-card.width() / 2, -card.height() / 2, card.width(), card.height())
    p.setPen(QPen(QColor("#5a4a00"), 1.2))
    p.setBrush(QColor("#ffd400"))
    p.drawRoundedRect(box, 3, 3)
    p.restore()


def paint_soccero(p: QPainter) -> None:
    """A full pitch with its markings, twenty-two players and the ball with its red side."""
    pitch = QRectF(14, 14, 292, 172)
    _grass(p, pitch, stripes=12, vertical=True)
    p.setPen(QPen(LINE, 1.6))
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawRect(pitch)
    mid = pitch.center().x()
    p.drawLine(QPointF(mid, pitch.top()), QPointF(mid, pitch.bottom()))
    p.drawEllipse(pitch.center(), 24, 24)
    for x, w in ((pitch.left(), 44), (pitch.right() - 44, 44)):
        p.drawRect(QRectF(x, pitch.center().y() - 44, w, 88))
    for x, w in ((pitch.left(), 16), (pitch.right() - 16, 16)):
        p.drawRect(QRectF(x, pitch.center().y() - 20, w, 40))
    home = [
        (30, 100),
        (70, 50),
        (70, 85),
        (70, 115),
        (70, 150),
        (110, 40),
        (110, 80),
        (110, 120),
        (110, 160),
        (145, 80),
        (145, 120),
    ]
    for i, (x, y) in enumerate(home):
        _token(p, QPointF(x, y), 6.5, HOME, str(i + 1))
        # At a kick-off the other side's pair keeps clear of the centre circle.
        _token(
            p,
            QPointF(WIDTH - x + (14 if i > 8 else 0), HEIGHT - y + (12 if i == 9 else -12 if i == 10 else 0)),
            6.5,
            AWAY,
            str(i + 1),
        )
    c = QPointF(mid - 8, 100)  # with the side kicking off
    _ball(p, c, 6)
    half = QPainterPath()
    half.moveTo(c)
    half.arcTo(QRectF(c.x() - 6, c.y() - 6, 12, 12), 90, 180)
    half.closeSubpath()
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor("#d6262f"))
    p.drawPath(half)


def paint_soccer_go(p: QPainter) -> None:
    """Numbered player cards face up and face down, a goal and a power card."""
    p.fillRect(QRectF(0, 0, WIDTH, HEIGHT), QColor("#1f3a2a"))
    goal = QRectF(100, 10, 120, 44)
    p.setPen(QPen(LINE, 3))
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawRect(goal)
    p.setPen(QPen(QColor(255, 255, 255, 90), 0.8))
    for i in range(1, 12):
        p.drawLine(QPointF(goal.left() + i * 10, goal.top()), QPointF(goal.left() + i * 10, goal.bottom()))
    for i in range(1, 4):
        p.drawLine(QPointF(goal.left(), goal.top() + i * 11), QPointF(goal.right(), goal.top() + i * 11))
    _ball(p, QPointF(182, 40), 7)
    for i, number in enumerate((2, 4, 7, 9, 11)):
        draw_card(p, QRectF(34 + i * 36, 112, 40, 58), HOME, str(number), QColor("#ffffff"), angle=-14 + 7 * i)
    back = QColor("#6b2432")
    for i in range(3):
        draw_card(p, QRectF(228 + i * 10, 70 + i * 6, 38, 54), back, "?", QColor("#f3d4d9"), angle=6)
    draw_card(p, QRectF(250, 128, 48, 64), QColor("#7b4fb8"), "⚡", QColor("#ffffff"), angle=10)
    p.setPen(QColor("#ffffff"))
    p.setFont(art_font(11))
    p.drawText(QRectF(10, 62, 120, 20), Qt.AlignmentFlag.AlignLeft, "pass 5 / 7")


PAINTERS: dict[str, Callable[[QPainter], None]] = {
    "big-time-soccer": paint_big_time_soccer,
    "pawn-soccer": paint_pawn_soccer,
    "soccero": paint_soccero,
    "soccer-go": paint_soccer_go,
}


def paint_game(p: QPainter, rect: QRectF, game_id: str) -> None:
    """Paint the picture of ``game_id`` into ``rect`` (aspect kept, centred)."""
    scale = min(rect.width() / WIDTH, rect.height() / HEIGHT)
    p.save()
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    p.translate(rect.center().x() - WIDTH * scale / 2, rect.center().y() - HEIGHT * scale / 2)
    p.scale(scale, scale)
    p.setClipRect(QRectF(0, 0, WIDTH, HEIGHT))
    back = QLinearGradient(0, 0, 0, HEIGHT)
    back.setColorAt(0, QColor("#223044"))
    back.setColorAt(1, QColor("#131b26"))
    p.fillRect(QRectF(0, 0, WIDTH, HEIGHT), QBrush(back))
    PAINTERS.get(game_id, paint_soccer_go)(p)
    p.restore()


def game_pixmap(game_id: str, width: int, height: int, pixel_ratio: float = 1.0) -> QPixmap:
    """The picture of a game as a pixmap of ``width`` × ``height`` logical pixels."""
    pixmap = QPixmap(int(width * pixel_ratio), int(height * pixel_ratio))
    pixmap.setDevicePixelRatio(pixel_ratio)
    pixmap.fill(QColor("#131b26"))
    painter = QPainter(pixmap)
    paint_game(painter, QRectF(0, 0, width, height), game_id)
    painter.end()
    return pixmap


def app_icon() -> QIcon:
    """The app's icon: ``resources/icons/soccerdesk.svg`` (drawn by the project)."""
    return QIcon(str(resource_path("icons", "soccerdesk.svg")))
