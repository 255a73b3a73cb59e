"""Defects a QA engineer found playing the app in a real window, each driven as a person does:
clicks on the screen, keys to the window."""

from __future__ import annotations

from pathlib import Path

import pytest
from clicking import click, click_path, start_match
from driving import ready
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QFileDialog

from soccerdesk.ui.main_window import MainWindow


def test_the_side_choice_does_not_promise_the_kick_off(qtbot, window: MainWindow) -> None:
    """Kick-off is a coin toss in every game: "Home (kicks off first half)" was not true."""
    side = window.home.side
    click(qtbot, side, what="You play")
    popup = side.view()
    qtbot.waitUntil(popup.isVisible, timeout=5_000)
    entries = [side.itemText(i) for i in range(side.count())]
    assert entries == ["Home", "Away"]
    assert "coin toss" in side.toolTip()
    qtbot.keyClick(popup, Qt.Key.Key_Escape)


@pytest.mark.parametrize(("typed", "written"), [("my match", "my match.json"), ("cup.JSON", "cup.JSON")])
def test_save_as_without_json_adds_it(
    qtbot, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, typed: str, written: str
) -> None:
    """The Open dialog lists *.json only: a save typed without it must still be found there."""
    view = start_match(qtbot, window, "soccer-go", ("human", None), {"rounds": 1})
    qtbot.waitUntil(lambda: ready(view), timeout=10_000)
    asked: list[str] = []

    def person_types_a_name(parent, caption, directory, filters):  # noqa: ANN001, ANN202
        asked.append(filters)
        return str(tmp_path / typed), filters

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(person_types_a_name))
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=5_000)
    QTest.keyClick(window.windowHandle(), Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)  # Save match as…
    assert asked == ["soccerdesk matches (*.json)"]
    assert [p.name for p in tmp_path.iterdir() if p.is_file() and p.suffix.lower() == ".json"] == [written]
    assert window.open_path(tmp_path / written)


def test_time_played_keeps_the_thinking_since_the_last_move_when_resumed(qtbot, window: MainWindow) -> None:
    """QA: 00:43 played before leaving, 00:35 after resuming from Recent (only moves saved it)."""
    view = start_match(qtbot, window, "soccer-go", ("human", None), {"rounds": 1})
    qtbot.waitUntil(lambda: ready(view), timeout=10_000)
    if view.stack.currentWidget() is view.handover_page:  # the first player takes the screen
        click(qtbot, view.handover_page.button, what="the hand-over button")
        qtbot.waitUntil(lambda: view.view_data is not None and ready(view), timeout=10_000)
    shown = view.view_data
    click_path(qtbot, view, shown["legal"][0])
    qtbot.waitUntil(
        lambda: view.view_data is not shown or view.stack.currentWidget() is view.handover_page, timeout=10_000
    )
    # The player thinks (the clock runs from when the position is shown), then leaves without moving.
    qtbot.waitUntil(lambda: window.session.time_played() >= 1.5, timeout=10_000)
    before = window.session.time_played()
    click(qtbot, view.home_button, what="Home")
    recent = window.home.recent
    assert recent.count() >= 1 and recent.item(0).data(Qt.ItemDataRole.UserRole) is not None
    click(qtbot, recent.viewport(), recent.visualItemRect(recent.item(0)).center(), "the newest recent match")
    click(qtbot, window.home.resume_button, what="Resume")
    assert window.match_view is not None
    resumed = window.session.time_played()
    assert before - 0.1 <= resumed < before + 1.0
