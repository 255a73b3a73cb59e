"""Display audit 5: Qt's own command-line options (``-style``, ``-platform``, ``-reverse``),
which any Qt app takes and desktops and launchers may pass, made soccerdesk stop with a usage
error."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from soccerdesk.app import split_qt_options


def test_qt_options_go_to_qt_and_the_rest_to_soccerdesk() -> None:
    assert split_qt_options(["-style", "fusion", "match.json", "-reverse", "-platformtheme=gtk3"]) == (
        ["match.json"],
        ["-style", "fusion", "-reverse", "-platformtheme=gtk3"],
    )
    assert split_qt_options(["--data-dir", "d", "-style"]) == (
        ["--data-dir", "d", "-style"],
        [],
    )  # no value: ours to refuse
    assert split_qt_options(["-x", "--size", "9x9"]) == (["-x", "--size", "9x9"], [])


def test_the_app_takes_qt_options_and_qt_applies_them(tmp_path: Path) -> None:
    shot = tmp_path / "board.png"
    probe = (
        "import sys; from soccerdesk import app; from PySide6.QtWidgets import QApplication;"
        "app.main(sys.argv[1:]); a = QApplication.instance();"
        "print(a.style().name(), a.layoutDirection().name)"
    )
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    args = ["-style", "fusion", "-reverse", "--screenshot", "pawn-soccer", str(shot), "--size", "1000x540"]
    out = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True, text=True, env=env, timeout=180)
    assert out.returncode == 0, out.stderr
    assert shot.read_bytes()[:4] == b"\x89PNG"
    assert out.stdout.split()[-2:] == ["fusion", "RightToLeft"]
