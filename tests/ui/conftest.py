"""Fixtures for the desktop app tests: a main window with its own settings and data folder."""

from __future__ import annotations

import gc
import random
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings

from soccerdesk.ui import session as session_module
from soccerdesk.ui.main_window import MainWindow
from soccerdesk.ui.settings import AppSettings


@pytest.fixture(autouse=True)
def _collect_qt_garbage_here() -> Iterator[None]:
    """After each test, free its left-over scenes and widgets on the GUI thread.

    Left to the garbage collector, a scene a test dropped can be freed later on another thread
    while one of its Qt timers is due: a crash in whatever test runs then (seen after the board
    tests' every-legal-action runs)."""
    yield
    gc.collect()


@pytest.fixture(autouse=True)
def _match_seeds_of_this_test(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """New matches started in a test draw their seeds from the test's own name: the same
    matches on every run (a test that failed on one match in three fails every time, on the
    same match), different ones in different tests."""
    rng = random.Random(zlib.crc32(request.node.nodeid.encode()))
    monkeypatch.setattr(session_module, "fresh_match_seed", lambda: rng.randrange(2**31))


@pytest.fixture
def settings(tmp_path: Path) -> AppSettings:
    qsettings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    app_settings = AppSettings(qsettings, tmp_path / "data")
    app_settings.animation_speed = "off"
    return app_settings


@pytest.fixture
def window(qtbot, settings: AppSettings) -> Iterator[MainWindow]:
    win = MainWindow(settings)
    qtbot.addWidget(win)
    win.resize(1200, 780)
    win.show()
    qtbot.waitUntil(lambda: win.home.loaded, timeout=20_000)
    yield win
    win.close()
