"""The match screen as a person meets it (issue 13): every click on the board answered, keys
reach the board, an honest log. Input is given as a person gives it: mouse clicks on the board
view's viewport at the on-screen spot of a target, keys sent to the window."""

from __future__ import annotations

import pytest
from driving import click_action, click_on_screen, ready
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from soccerdesk.rules import GAMES
from soccerdesk.ui.animation import Animation, EventAnimation
from soccerdesk.ui.main_window import MainWindow
from soccerdesk.ui.match_view import MatchView


def kick_off(qtbot, window: MainWindow, game_id: str, opponent: str | None = "normal") -> MatchView:
    """From the home screen as a person does: click the game's card, the opponent, Kick off."""
    # All of the window on the (offscreen) screen, or nothing is found under a spot beyond its edge.
    screen = window.screen().availableGeometry()
    window.setGeometry(screen.x(), screen.y(), min(1200, screen.width()), min(780, screen.height()))
    home = window.home
    qtbot.mouseClick(home.cards[game_id], Qt.MouseButton.LeftButton)
    home.set_opponent(opponent)
    qtbot.mouseClick(home.start_button, Qt.MouseButton.LeftButton)
    view = window.match_view
    assert view is not None, home.message.text()
    return view


def target_spots(view: MatchView) -> list[QPoint]:
    """The on-screen (global) spot of every target the board offers now."""
    spots = []
    for key in view.board.targets:
        scene_pos = view.board.pos_of(key)
        assert scene_pos is not None, key
        spots.append(view.view.viewport().mapToGlobal(view.view.mapFromScene(scene_pos)))
    assert spots, "the board offers nothing to click"
    return spots


def assert_board_under_every_target(view: MatchView) -> None:
    viewport = view.view.viewport()
    for spot in target_spots(view):
        under = QApplication.widgetAt(spot)
        assert under is viewport, f"{under!r} ({under.objectName() if under else ''}) lies over the board at {spot}"


def play_one_by_clicks(qtbot, view: MatchView) -> None:
    """Play the first legal action by clicking the board, and wait until the position moved on."""
    shown = view.view_data
    click_action(qtbot, view, view.board.keyboard_actions()[0])
    qtbot.waitUntil(lambda: view.view_data is not shown or view.animating or not ready(view), timeout=15_000)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_board_answers_the_mouse_at_the_first_decision_and_after_animations(
    qtbot, window: MainWindow, game_id: str
) -> None:
    """Issue 13.1: at kick-off an idle animation layer lay over the board and took every click."""
    window.settings.animation_speed = "fast"
    view = kick_off(qtbot, window, game_id)
    qtbot.waitUntil(lambda: ready(view), timeout=15_000)
    assert not view.animation.isVisible()
    assert_board_under_every_target(view)
    # A real click on the board plays: the position moves on (or an animation begins).
    ply = view.view_data["ply"]
    play_one_by_clicks(qtbot, view)
    assert window.session.state.ply > ply  # type: ignore[union-attr]
    # Play on by clicks until an animation has played, then the board must take clicks again.
    animated = []
    view.animation.done.connect(lambda: animated.append(True))
    for _ in range(60):
        qtbot.waitUntil(lambda: ready(view), timeout=20_000)
        if animated or view.stack.currentWidget() is not view.board_page:
            break
        play_one_by_clicks(qtbot, view)
    assert animated, "no animation in 60 actions"
    if view.stack.currentWidget() is view.board_page:
        assert not view.animation.isVisible()
        assert_board_under_every_target(view)
        shown = view.view_data
        play_one_by_clicks(qtbot, view)
        assert view.view_data is not shown or view.animating or not ready(view)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_first_tab_sent_to_the_window_reaches_the_board(qtbot, window: MainWindow, game_id: str) -> None:
    """Issue 13.1: the first Tab went to the idle animation layer instead of previewing an action."""
    window.settings.animation_speed = "fast"
    view = kick_off(qtbot, window, game_id)
    qtbot.waitUntil(lambda: ready(view), timeout=15_000)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=5_000)
    # A person clicks the board where nothing can be played (its top-left corner), then presses Tab.
    click_on_screen(view.view.viewport(), QPoint(2, 2))
    QTest.keyClick(window.windowHandle(), Qt.Key.Key_Tab)
    first = view.board.keyboard_actions()[0]
    assert view.board.preview == first
    assert "Enter plays" in view.keyboard_label.text()
    ply = view.view_data["ply"]
    QTest.keyClick(window.windowHandle(), Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.session.state.ply > ply, timeout=10_000)  # type: ignore[union-attr]


def test_an_idle_animation_layer_stays_hidden_whoever_shows_it(qtbot) -> None:
    """Nothing lies over the board unless it is showing something (ARCHITECTURE.md)."""
    from PySide6.QtWidgets import QWidget

    page = QWidget()
    qtbot.addWidget(page)
    layer = EventAnimation(page)
    page.resize(400, 300)
    page.show()
    layer.show()  # a layout or a careless caller asks: an idle layer refuses
    assert not layer.isVisible()
    assert layer.testAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
    assert layer.focusPolicy() == Qt.FocusPolicy.NoFocus
    assert layer.geometry() == page.rect()
    with qtbot.waitSignal(layer.done, timeout=2_000):
        layer.play([Animation("die", "The die shows 3", 3)], speed=50.0)
        assert layer.isVisible() and not layer.testAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        page.resize(500, 350)
        assert layer.geometry() == page.rect()  # it follows what it covers
        qtbot.mouseClick(layer, Qt.MouseButton.LeftButton)  # a click skips it
    assert not layer.isVisible() and layer.focusPolicy() == Qt.FocusPolicy.NoFocus
