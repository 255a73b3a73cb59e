"""Driving a match screen in the UI tests: wait until it is ready, click, play to the end."""

from __future__ import annotations

import random
import time

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QWidget

from soccerdesk.ui.main_window import MainWindow
from soccerdesk.ui.match_view import MatchView


def ready(view: MatchView) -> bool:
    """The screen waits for a decision (or the match is over)."""
    if view.stack.currentWidget() is view.summary_page:
        return True
    if view.stack.currentWidget() is view.handover_page:
        return True
    return bool(view.view_data and view.view_data.get("legal")) and not view._queue and not view.animating


def click_on_screen(widget: QWidget, pos: QPoint) -> None:
    """A left click where a person would click: at ``pos`` of ``widget``, delivered to its window.

    Whatever lies on top at that spot gets the click (an overlay over the board would), as with
    a real mouse; ``QTest.mouseClick(widget)`` would hand it to ``widget`` past anything above it.
    """
    top = widget.window()
    handle = top.windowHandle()
    assert handle is not None, "the window is not shown"
    QTest.mouseClick(handle, Qt.MouseButton.LeftButton, pos=widget.mapTo(top, pos))


def click_action(qtbot, view: MatchView, text: str) -> None:
    """Play ``text`` with real mouse clicks on the board, one click per thing on its path."""
    board = view.board
    for key in board.paths.paths[text]:
        scene_pos = board.pos_of(key)
        assert scene_pos is not None, f"{key} of {text!r} is not drawn on the board"
        click_on_screen(view.view.viewport(), view.view.mapFromScene(scene_pos))


def play_to_end(qtbot, window: MainWindow, seed: int, *, clicks: bool, limit_s: float = 40.0) -> dict:
    """Play the match on screen to full time, choosing random legal actions.

    With ``clicks`` every action is made by clicking the board; otherwise through the
    board's own ``play``/``choose`` (what Enter does). Returns the end-of-match summary.
    """
    rng = random.Random(seed)
    view = window.match_view
    assert view is not None
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        qtbot.waitUntil(lambda: ready(view), timeout=15_000)
        if view.stack.currentWidget() is view.summary_page:
            assert view._finished is not None
            return view._finished
        if view.stack.currentWidget() is view.handover_page:
            qtbot.mouseClick(view.handover_page.button, Qt.MouseButton.LeftButton)
            continue
        shown = view.view_data
        assert shown is not None
        text = rng.choice(shown["legal"])
        if clicks and text in getattr(view.board, "paths", None).paths:  # type: ignore[union-attr]
            click_action(qtbot, view, text)
        else:
            view.play(text)
        # Any new position (ours, or a bot's move that came first), or another page, moves on.
        qtbot.waitUntil(
            lambda shown=shown: (
                view.view_data is not shown or not ready(view) or view.stack.currentWidget() is not view.board_page
            ),
            timeout=15_000,
        )
    raise AssertionError("the match did not end in time")
