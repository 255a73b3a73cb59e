"""A question asked before a step that cannot be taken back (resign, take a match over)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget


def ask_first(
    parent: QWidget,
    name: str,
    title: str,
    text: str,
    *,
    go: str,
    stay: str,
    on_go: Callable[[], object],
    details: str = "",
) -> QMessageBox:
    """Ask ``text`` (and ``details`` under it) in a box named ``name``, window-modal on ``parent``.

    The box does not block the event loop: the match, its clocks and the network go on while it
    is open. The button ``go`` calls ``on_go``; ``stay`` is the default and Escape's answer, and
    changes nothing.
    """
    box = QMessageBox(parent)
    box.setObjectName(name)
    box.setIcon(QMessageBox.Icon.Question)
    box.setWindowTitle(title)
    box.setText(text)
    if details:
        box.setInformativeText(details)
    go_button = box.addButton(go, QMessageBox.ButtonRole.AcceptRole)
    stay_button = box.addButton(stay, QMessageBox.ButtonRole.RejectRole)
    box.setDefaultButton(stay_button)
    box.setEscapeButton(stay_button)
    box.setWindowModality(Qt.WindowModality.WindowModal)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.buttonClicked.connect(lambda button: on_go() if button is go_button else None)
    box.open()
    return box
