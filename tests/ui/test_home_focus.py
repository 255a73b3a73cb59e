"""The home screen's keyboard place and its chosen game are one card (UI audit, item 9).

After choosing a game with the mouse, or coming back from a lesson, the dashed focus ring
stayed on another card than the yellow "chosen" frame: a keyboard user saw two current games.
"""

from __future__ import annotations

from clicking import WAIT_MS, click
from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from soccerdesk.ui.home import GameCard
from soccerdesk.ui.main_window import MainWindow
from soccerdesk.ui.settings import AppSettings


def focused_card(window: MainWindow) -> str | None:
    focused = QApplication.focusWidget()
    return focused.game_id if isinstance(focused, GameCard) else None


def test_a_card_clicked_takes_the_keyboard_with_it(qtbot, window: MainWindow) -> None:
    """A click on a card chooses it and puts the keyboard's ring on it; the arrow keys then
    go on from there and the ring and the chosen frame stay together."""
    window.activateWindow()
    for game_id in ("soccer-go", "pawn-soccer", "soccero"):
        click(qtbot, window.home.cards[game_id], what=game_id)
        assert window.home.game_id == game_id
        assert focused_card(window) == game_id
    QTest.keyClick(window.windowHandle(), Qt.Key.Key_Right)
    assert focused_card(window) == window.home.game_id == "soccer-go"


def test_back_from_a_lesson_the_ring_is_on_the_chosen_game(qtbot, window: MainWindow) -> None:
    """Audit 9 (121-view-menu.png): Soccer-Go had the ring, Big Time Soccer was chosen, after a
    lesson chosen by mouse and left with Alt+L."""
    window.activateWindow()
    QTest.keyClick(window.windowHandle(), Qt.Key.Key_Tab)  # the keyboard somewhere on the screen
    click(qtbot, window.home.cards["pawn-soccer"], what="the Pawn Soccer card")
    click(qtbot, window.home.learn_button, what="Learn to play")
    qtbot.waitUntil(lambda: window.learn_view is not None and window.learn_view.isVisible(), timeout=WAIT_MS)
    QTest.keyClick(window.windowHandle(), Qt.Key.Key_L, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(lambda: window.home.isVisible(), timeout=WAIT_MS)
    assert window.home.game_id == "pawn-soccer"
    card = focused_card(window)
    assert card in (None, "pawn-soccer"), f"the ring is on {card}, the chosen game is Pawn Soccer"


def test_the_game_remembered_from_last_time_has_the_ring(qtbot, tmp_path) -> None:
    """The app started again chooses the last game played: the keyboard starts on that card,
    not on the first one."""
    settings = AppSettings(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat), tmp_path / "data")
    settings.set("home/game", "soccer-go")
    window = MainWindow(settings)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.home.loaded, timeout=20_000)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is not None, timeout=WAIT_MS)
    assert window.home.game_id == "soccer-go"
    assert focused_card(window) == "soccer-go"
    window.close()


def test_enter_on_a_game_card_kicks_that_game_off(qtbot, window: MainWindow) -> None:
    """Keyboard audit 8: Enter on the chosen game card did nothing, and Kick off was 11 to 16
    Tabs away; README "Playing" says Enter on a game kicks it off."""
    window.activateWindow()
    qtbot.waitUntil(lambda: window.home.loaded, timeout=WAIT_MS)
    click(qtbot, window.home.cards["soccer-go"], what="soccer-go")
    for arrow in (Qt.Key.Key_Right, Qt.Key.Key_Left, Qt.Key.Key_Down, Qt.Key.Key_Up):
        QTest.keyClick(window.windowHandle(), arrow)  # the arrows choose the game
        chosen = focused_card(window)
        if chosen != "soccer-go":
            break
    assert chosen is not None and chosen != "soccer-go" and window.home.game_id == chosen
    QTest.keyClick(window.windowHandle(), Qt.Key.Key_Space)  # Space only chooses it
    assert window.match_view is None
    QTest.keyClick(window.windowHandle(), Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.match_view is not None and window.match_view.isVisible(), timeout=WAIT_MS)
    assert window.match_view.session.game_id == chosen
