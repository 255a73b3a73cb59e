"""Display audit 1: on a first run the window opened at 1280 × 800 whatever the screen, so on a
1366 × 768 laptop (and on 1920 × 1080 at 150%, 1280 × 720 to Qt) its bottom — the network
buttons, Resume and the status bar — was off screen, and on 1366 × 768 at 125% (1093 × 614)
the help's Close button too."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# A fresh app on a screen of the given size (Qt's offscreen platform takes its screens from a
# file), with no saved window place: what the main window and the help open at.
OPEN = """
import sys
from pathlib import Path
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
from soccerdesk.rules import get_game
from soccerdesk.ui.help import HelpDialog
from soccerdesk.ui.main_window import MainWindow
from soccerdesk.ui.settings import AppSettings

app = QApplication([])
folder = sys.argv[1]
window = MainWindow(AppSettings(QSettings(folder + "/s.ini", QSettings.Format.IniFormat), Path(folder) / "data"))
rules = HelpDialog(get_game("pawn-soccer"), window)
print(window.width(), window.height(), rules.width(), rules.height())
"""


@pytest.mark.parametrize(
    ("screen", "window", "rules"),
    [
        ((1920, 1080), (1280, 800), (760, 720)),
        ((1366, 768), (1280, 728), (760, 720)),
        ((1280, 720), (1264, 680), (760, 680)),
        ((1093, 614), (1077, 574), (760, 574)),
    ],
)
def test_the_first_window_and_the_rules_fit_the_screen(tmp_path: Path, screen, window, rules) -> None:
    config = tmp_path / "screens.json"
    config.write_text(json.dumps({"screens": [{"name": "s", "x": 0, "y": 0, "width": screen[0], "height": screen[1]}]}))
    env = {**os.environ, "QT_QPA_PLATFORM": f"offscreen:configfile={config}"}
    out = subprocess.run(
        [sys.executable, "-c", OPEN, str(tmp_path)], capture_output=True, text=True, env=env, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert [int(n) for n in out.stdout.split()] == [*window, *rules]
