"""Window sizes that fit the screen a window opens on."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QWidget

FRAME_ROOM = QSize(16, 40)
"""What a window manager's frame takes around a window before it is shown (title bar and
borders), when the frame cannot be measured yet."""


def fitting_size(widget: QWidget, width: int, height: int) -> QSize:
    """``width`` × ``height``, or less where the screen ``widget`` opens on (task bar left out)
    has not the room for it with its frame: a first window of 1280 × 800 ran off a 1366 × 768
    laptop screen, and off a 1920 × 1080 one at 150%. Never below the widget's minimum size."""
    room = widget.screen().availableGeometry().size() - FRAME_ROOM
    return QSize(width, height).boundedTo(room).expandedTo(widget.minimumSize())
