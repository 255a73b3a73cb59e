"""Defects a QA engineer found playing the app in a real window, each driven as a person does:
clicks on the screen, keys to the window."""

from __future__ import annotations

from pathlib import Path

import pytest
from clicking import click, start_match
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
