"""Resigning an online match from the Match menu (QA pass 10, finding 6).

protocol.md, "Leaving": ``leave`` sent by a player during a match resigns it; the other seat
wins, and everyone gets ``record`` and ``finished`` with reason ``resigned``. The player asks for
it as a person would (Ctrl+Shift+R to the window, the question's button clicked), and both
windows show the result at once, with no abandonment countdown. Each test runs a real relay on
127.0.0.1 (port 0) and the app's windows on a qasync loop.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QMessageBox, QPushButton
from test_online import (  # the online tests' game, loop, players, waiting
    GAME,
    SHORT,
    run_on_qt_loop,
    two_players,
    until,
)

from soccerdesk.rules import get_game
from soccerdesk.ui.home import MatchSetup
from soccerdesk.ui.main_window import MainWindow
from soccerdesk.ui.online import RemoteSession
from soccerdesk.ui.session import Player
from soccerdesk.ui.settings import AppSettings


def second_window(qtbot: Any, tmp_path: Path) -> MainWindow:
    """The opponent's window, with settings of its own."""
    settings = AppSettings(QSettings(str(tmp_path / "b.ini"), QSettings.Format.IniFormat), tmp_path / "b")
    settings.animation_speed = "off"
    win = MainWindow(settings)
    qtbot.addWidget(win)
    win.show()
    return win


def resign_from_the_keyboard(qtbot: Any, window: MainWindow, answer: str) -> Any:
    """Ctrl+Shift+R to the window; the question comes up and ``answer`` (a button) is clicked."""
    window.activateWindow()
    QTest.keyClick(
        window.windowHandle(), Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    )

    async def click() -> None:
        await until(lambda: window.findChild(QMessageBox, "resign") is not None, timeout=6)
        box = window.findChild(QMessageBox, "resign")
        assert box.text() == "Resign this match? Your opponent wins."
        button = next(b for b in box.findChildren(QPushButton) if b.text() == answer)
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
        await until(lambda: window.findChild(QMessageBox, "resign") is None)

    return click()


def test_resign_ends_the_match_on_both_screens_at_once(qtbot, window: MainWindow, tmp_path: Path) -> None:
    """Match → Resign… asks first; "Keep playing" changes nothing. "Resign" ends the match: the
    player's result page says "Bob wins: you resigned.", the opponent's "You win: Alice resigned."
    at once (no countdown), and the resigner's seat stays in the room for a rematch."""
    friend = second_window(qtbot, tmp_path)

    async def scenario() -> None:
        relay, alice, bob = await two_players(tmp_path)
        try:
            window.show_session(RemoteSession(get_game(GAME), alice))
            friend.show_session(RemoteSession(get_game(GAME), bob))
            mine, theirs = window.match_view, friend.match_view
            assert mine is not None and theirs is not None
            await until(lambda: mine.view_data is not None and theirs.view_data is not None)
            menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Match")
            assert window.resign_action in menu.actions()
            assert window.resign_action.isEnabled() and friend.resign_action.isEnabled()
            assert not window.undo_action.isEnabled()  # nothing is taken back online: greyed, not refused

            await resign_from_the_keyboard(qtbot, window, "Keep playing")
            assert alice.result is None and window.resign_action.isEnabled()

            # Resigned while the opponent is deciding: afterwards nobody is waited for.
            await until(lambda: alice.view is not None and bool(alice.view["to_move"]))
            if 0 in alice.view["to_move"]:  # type: ignore[index]
                mine.play(alice.view["legal"][0])  # type: ignore[index]
            await until(lambda: alice.view is not None and alice.view["to_move"] == [1])
            await until(lambda: mine.thinking_label.text().startswith("Bob is deciding"))
            told: list[str] = []  # what the relay tells the resigner from now on
            handler = alice.on_message
            assert handler is not None
            alice.on_message = lambda msg: (told.append(msg["type"]), handler(msg))
            await resign_from_the_keyboard(qtbot, window, "Resign")
            await until(lambda: mine.stack.currentWidget() is mine.summary_page)
            await until(lambda: theirs.stack.currentWidget() is theirs.summary_page)
            page, other = mine.summary_page.label.text(), theirs.summary_page.label.text()
            assert "Bob wins: you resigned." in page and "Full time" not in page
            assert "You win: Alice resigned." in other and "Full time" not in other
            assert "Bob wins: you resigned." in mine.log_lines()
            assert "You win: Alice resigned." in theirs.log_lines()
            assert bob.countdown is None  # the opponent waits for nothing
            assert theirs.timer_label.text() == "" and theirs.thinking_label.text() == ""
            assert not window.resign_action.isEnabled() and not friend.resign_action.isEnabled()

            # The seat is still the resigner's, on the same connection: seated, not reconnecting
            # into nothing, nobody waited for, and a rematch offer reaches the opponent.
            await until(lambda: "snapshot" in told)
            assert told.index("finished") < told.index("joined")
            assert alice.room is not None and alice.token is not None and alice.seat == 0 and alice.connected
            await asyncio.sleep(0.1)  # the snapshot's view shown
            assert mine.stack.currentWidget() is mine.summary_page and mine.thinking_label.text() == ""
            assert window.session is not None and window.session.record() is not None  # saved, replayable
            said: list[str] = []
            friend.session.status.connect(said.append)
            qtbot.mouseClick(mine.summary_page.rematch, Qt.MouseButton.LeftButton)
            await until(lambda: any("offers a rematch" in s for s in said))

            # QA pass 16: Recent matches said "full time, Alice resigned" of a match resigned in its
            # first minute, and its replay ended on "Alice may answer…" without a word of it.
            window.go_home()
            recent = window.home.recent
            entry = next(recent.item(i) for i in range(recent.count()) if "resigned" in recent.item(i).text())
            assert "Alice resigned" in entry.text() and "full time" not in entry.text(), entry.text()
            qtbot.mouseClick(recent.viewport(), Qt.MouseButton.LeftButton, pos=recent.visualItemRect(entry).center())
            qtbot.mouseClick(window.home.resume_button, Qt.MouseButton.LeftButton)
            replay = window.replay_view
            assert replay is not None
            replay.setFocus()
            QTest.keyClick(window.windowHandle(), Qt.Key.Key_End)  # the last position, as its button says
            assert replay.index == replay.slider.maximum()
            assert "Alice resigned" in replay.header.text(), replay.header.text()
            assert replay.log.item(replay.log.count() - 1).text() == "Alice resigned."
        finally:
            window.go_home()
            friend.go_home()
            await relay.stop()

    run_on_qt_loop(scenario)


def test_resign_is_not_offered_on_one_screen_or_to_a_spectator(qtbot, window: MainWindow, tmp_path: Path) -> None:
    """Only a player of an online match can resign: not in a hot-seat match, not a spectator."""
    window.start_match(MatchSetup(GAME, (Player("human", "Home"), Player("human", "Away")), dict(SHORT), seed=1))
    assert window.match_view is not None
    assert not window.resign_action.isEnabled()
    window.go_home()
    watcher = second_window(qtbot, tmp_path)

    async def scenario() -> None:
        from soccerdesk.net.client import RelayClient

        relay, alice, bob = await two_players(tmp_path)
        carol = RelayClient(relay.url, name="Carol")
        try:
            await carol.connect()
            await carol.spectate(alice.room or "")
            await until(lambda: carol.view is not None)
            watcher.show_session(RemoteSession(get_game(GAME), carol))
            assert watcher.match_view is not None and not watcher.resign_action.isEnabled()
            watcher.ask_resign()  # the shortcut of a disabled action does nothing; nor does this
            assert watcher.findChild(QMessageBox, "resign") is None
        finally:
            watcher.go_home()
            await alice.close()
            await bob.close()
            await relay.stop()

    run_on_qt_loop(scenario)


def test_home_from_an_online_seat_asks_first_and_keep_playing_changes_nothing(
    qtbot, window: MainWindow, tmp_path: Path
) -> None:
    """Online audit, 7 December: Home left an online seat with one click, and the opponent could
    claim the win two minutes later. Ctrl+H (and the Home button) now ask first; "Keep playing"
    stays, "Leave" goes home with the seat kept for Resume. A local match goes home at once."""
    window.start_match(MatchSetup(GAME, (Player("human", "Home"), Player("human", "Away")), dict(SHORT), seed=1))
    window.activateWindow()
    QTest.keyClick(window.windowHandle(), Qt.Key.Key_H, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.match_view is None and window.home.isVisible(), timeout=6000)
    assert window.findChild(QMessageBox, "leave-seat") is None

    async def scenario() -> None:
        relay, alice, bob = await two_players(tmp_path)
        try:
            window.show_session(RemoteSession(get_game(GAME), alice))
            view = window.match_view
            assert view is not None

            async def answer(text: str) -> None:
                window.activateWindow()
                QTest.keyClick(window.windowHandle(), Qt.Key.Key_H, Qt.KeyboardModifier.ControlModifier)
                await until(lambda: window.findChild(QMessageBox, "leave-seat") is not None, timeout=6)
                box = window.findChild(QMessageBox, "leave-seat")
                assert "the home screen lists the match, and its Resume takes it back" in box.informativeText()
                button = next(b for b in box.findChildren(QPushButton) if b.text() == text)
                qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
                await until(lambda: window.findChild(QMessageBox, "leave-seat") is None)

            await answer("Keep playing")
            assert window.pages.currentWidget() is view and alice.connected
            await answer("Leave")
            await until(lambda: window.pages.currentWidget() is window.home)
        finally:
            window.go_home()
            await bob.close()
            await relay.stop()

    run_on_qt_loop(scenario)
