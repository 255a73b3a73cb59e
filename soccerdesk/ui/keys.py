"""Keys the app gives a meaning that Qt's widgets do not."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QPushButton, QWidget

ENTER_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter)
"""The Return key and the number pad's Enter."""


def press_focused_button(event: QKeyEvent, focused: QWidget | None, among: Callable[[QPushButton], bool]) -> bool:
    """Enter presses the button that has the focus, as Space does: outside a dialog Qt's buttons
    take only Space, and "Tab to it, then Enter" did nothing. ``focused`` is the window's focus
    widget; ``among`` says whether a button is one of those this screen lets Enter press. True
    (and the event accepted) when Enter pressed a button."""
    if event.key() not in ENTER_KEYS or not isinstance(focused, QPushButton) or not focused.isEnabled():
        return False
    if not among(focused):
        return False
    focused.click()
    event.accept()
    return True
