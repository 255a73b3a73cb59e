"""The pitch colours the game boards and the app's own pictures share.

A module of its own so the home screen's pictures (:mod:`soccerdesk.ui.art`) get them
without loading the boards' drawing code at start-up.
"""

from __future__ import annotations

from PySide6.QtGui import QColor

GRASS_DARK = QColor("#2f7d3b")
GRASS_LIGHT = QColor("#388a45")
LINE = QColor("#f4f7f2")
