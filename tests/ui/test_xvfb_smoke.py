"""Smoke test in a real X window (issue 13): the app as a person meets it, under Xvfb.

The other UI tests run offscreen and hand their clicks to Qt. Here the real app runs on Qt's
xcb platform against an X server this test starts (Xvfb), and each click is a real mouse click
made by xdotool at a screen position: whatever window or widget lies on top there gets it. For
each game: choose its card, Kick off against the computer, click once on a legal target of the
board; the app (tests/ui/app_driver.py) reports whether the board took the click.

Skips only where Xvfb or xdotool is not installed, or Qt's xcb platform lacks system libraries
(``.ci/run`` installs all three as root; ``python3 scripts/dev.py setup`` installs the last).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from running_app import ROOT, App, launcher

from soccerdesk.rules import GAMES

_launch = pytest.fixture(name="launch")(launcher)

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Xvfb and xdotool are X11 tools")


def _xcb_missing() -> list[str]:
    """The system libraries Qt's xcb platform needs and lacks (scripts/dev.py's own check)."""
    spec = importlib.util.spec_from_file_location("soccerdesk_dev_script", ROOT / "scripts" / "dev.py")
    assert spec is not None and spec.loader is not None
    dev = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dev)
    missing: list[str] = dev.qt_missing_libraries("xcb")
    if missing:
        pytest.skip(
            f"Qt's xcb platform lacks {', '.join(missing)}: "
            f"{dev.install_line(dev.apt_packages(missing), sudo=os.geteuid() != 0)}"
        )
    return missing


@pytest.fixture
def display() -> Iterator[str]:
    """An X server of this test's own (Xvfb, on the first free display number it finds)."""
    xvfb = shutil.which("Xvfb")
    if xvfb is None or shutil.which("xdotool") is None:
        pytest.skip("needs Xvfb and xdotool (apt-get install xvfb xdotool; .ci/run installs them as root)")
    _xcb_missing()
    read, write = os.pipe()
    server = subprocess.Popen(
        [xvfb, "-displayfd", str(write), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as told:
        number = told.readline().strip()  # Xvfb writes its display number once it accepts clients
    try:
        assert number, "Xvfb did not start"
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(timeout=10)


def _xdotool(display: str, *args: str) -> None:
    subprocess.run(["xdotool", *args], env={**os.environ, "DISPLAY": display}, check=True, timeout=30)


def test_each_game_kicks_off_and_takes_a_real_click(launch: Callable[..., App], tmp_path: Path, display: str) -> None:
    app = launch(tmp_path, "smoke", env={"DISPLAY": display, "QT_QPA_PLATFORM": "xcb"})
    results: dict[str, str] = {}
    while True:
        line = app.wait_for("", timeout=90)
        word, _, rest = line.partition(" ")
        if word == "CLICK":
            x, y, _what = rest.split(" ", 2)
            _xdotool(display, "mousemove", "--sync", x, y, "click", "1")
        elif word == "KEY":
            # No window manager gives the window the keyboard: focus it, as a click on it would.
            _xdotool(display, "search", "--onlyvisible", "--name", "soccerdesk", "windowfocus", "--sync")
            _xdotool(display, "key", rest)
        elif word in ("TAKEN", "NOT-TAKEN"):
            results[rest.split(" ")[0]] = line
        elif word == "DONE":
            break
    app.process.send_signal(signal.SIGTERM)
    code, err = app.finish()
    # The widget under the target is the board's (no layer above it), and the board took the click.
    assert results == {game_id: f"TAKEN {game_id} on-board=True" for game_id in GAMES}, "\n".join(app.lines)
    assert code == 0, err
    assert "Traceback" not in err, err
