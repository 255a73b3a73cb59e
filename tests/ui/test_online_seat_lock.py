"""Resuming an online seat that another soccerdesk window plays now asks first (QA leftover).

The relay gives a seat to its newest connection (protocol.md, close code 1000 ``replaced``): a
window that resumed a seat open in another window took it over without a word. The window that
plays a seat holds its lock in the data folder; the one that resumes it asks "Take it over
here" or "Cancel" while another running soccerdesk holds that lock, and asks nothing when the
other window is gone. Each test runs a real relay on 127.0.0.1 (port 0) and the app's windows on
a qasync loop; the player clicks and presses keys as a person does. Another process on the
profile is a small process of its own (``other_process``), or a second window of this one.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from other_process import holding_elsewhere, lock_holder_seen_elsewhere
from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QMessageBox, QPushButton
from test_online import GAME, run_on_qt_loop, two_players, until  # the online tests' game, loop, players

from server.relay import RelaySettings, start_relay
from soccerdesk.net.client import RelayClient
from soccerdesk.ui.main_window import MainWindow
from soccerdesk.ui.online import OnlineDialog, RememberedSeat, RemoteSession, remember_seat, seat_lock_path
from soccerdesk.ui.settings import AppSettings


def play_online(qtbot: Any, window: MainWindow) -> OnlineDialog:
    """**Play online** clicked on the home screen; the dialog it opens."""
    qtbot.mouseClick(window.home.findChild(QPushButton, "online-online"), Qt.MouseButton.LeftButton)
    return next(d for d in reversed(window.findChildren(OnlineDialog)) if d.isVisible())


def question(dialog: OnlineDialog) -> QMessageBox | None:
    """The "open in another window" question, while it is on screen."""
    boxes = [b for b in dialog.findChildren(QMessageBox, "online-seat-elsewhere") if b.isVisible()]
    return boxes[0] if boxes else None


def button(box: QMessageBox, text: str) -> QPushButton:
    return next(b for b in box.findChildren(QPushButton) if b.text() == text)


@asynccontextmanager
async def alices_seat_remembered(window: MainWindow, tmp_path: Path) -> AsyncIterator[tuple[Any, Any, Path]]:
    """A relay with Alice and Bob seated, for a block; Alice's seat is remembered on ``window``'s
    profile (the other window took it there). Gives Alice's and Bob's connections and the seat's
    lock file; afterwards the window goes home and the relay stops."""
    relay, alice, bob = await two_players(tmp_path)
    room, token = alice.room or "", alice.token or ""
    remember_seat(window.settings, RememberedSeat(relay.url, room, token, "Alice"))
    try:
        yield alice, bob, seat_lock_path(window.settings.data_dir, room, token)
    finally:
        window.go_home()
        await alice.close()
        await bob.close()
        await relay.stop()


def test_a_seat_open_in_another_process_is_not_taken_when_the_player_cancels(
    qtbot, window: MainWindow, tmp_path: Path
) -> None:
    """Another soccerdesk (a process of its own) plays Alice's seat; this window's "Resume my last
    match" asks, and Escape or Enter (Cancel is the default) leave everything as it was."""

    async def scenario() -> None:
        # Alice's connection and the process holding the lock: the other window, playing her seat.
        async with alices_seat_remembered(window, tmp_path) as (alice, _bob, lock_path):
            room = alice.room or ""
            assert (alice.token or "") not in lock_path.name and room in lock_path.name
            with holding_elsewhere(lock_path) as holder:
                dialog = play_online(qtbot, window)
                assert dialog.resume_button.text() == "Resume my last match"
                for key in (Qt.Key.Key_Escape, Qt.Key.Key_Return):
                    qtbot.mouseClick(dialog.resume_button, Qt.MouseButton.LeftButton)
                    box = question(dialog)
                    assert box is not None
                    assert box.windowTitle() == "This match is open in another window"
                    assert box.text() == (
                        f"This match is being played in another soccerdesk window (process {holder.pid}): "
                        f"room {room} as Alice."
                    )
                    assert "Take it over here?" in box.informativeText()
                    assert [b.text() for b in box.buttons()] == ["Take it over here", "Cancel"]
                    assert box.defaultButton() is button(box, "Cancel") is box.escapeButton()
                    QTest.keyClick(box.windowHandle(), key)
                    await until(lambda: question(dialog) is None)
                await asyncio.sleep(0.5)  # what a resume would have done had time to happen
                assert dialog.client is None  # this window never reached the relay
                assert alice.connected and alice.fatal_code is None  # the other window plays on
                assert dialog.isVisible() and window.session is None and window.pages.currentWidget() is window.home
                assert holder.poll() is None and lock_holder_seen_elsewhere(lock_path) == holder.pid
                dialog.reject()

    run_on_qt_loop(scenario)


def test_taking_the_seat_over_plays_it_here_and_the_other_window_is_told(
    qtbot, window: MainWindow, tmp_path: Path
) -> None:
    """Window A created the room and plays Alice's seat; window B, on the same profile, resumes it,
    is asked, and takes it over: B plays, A says the match moved and lets go of the seat's lock,
    which B then holds, so a third window would be asked in turn. (Both windows are of this
    process: a lock file held by a running process counts as held for every other lock object,
    in this process as in another.)"""
    profile = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)  # the window's own
    other = MainWindow(AppSettings(profile, window.settings.data_dir))
    other.settings.animation_speed = "off"
    qtbot.addWidget(other)
    other.show()

    async def scenario() -> None:
        relay = await start_relay(RelaySettings(host="127.0.0.1", port=0, db=str(tmp_path / "r.sqlite3")))
        bob = RelayClient(relay.url, name="Bob", reconnect=False)
        try:
            host = play_online(qtbot, window)
            host.url_edit.setText(relay.url)
            host.game_combo.setCurrentIndex(host.game_combo.findData(GAME))
            host.name_edit.setText("Alice")
            qtbot.mouseClick(host.go_button, Qt.MouseButton.LeftButton)
            await until(lambda: bool(host.code_label.text()))
            await bob.connect()
            await bob.join(host.code_label.text())
            await until(lambda: isinstance(window.session, RemoteSession) and window.match_view is not None)
            first = window.session
            assert isinstance(first, RemoteSession) and first.seat_lock is not None and first.seat_lock.held
            room, token = first.client.room or "", first.client.token or ""
            lock_path = seat_lock_path(window.settings.data_dir, room, token)
            assert lock_holder_seen_elsewhere(lock_path) == os.getpid()

            dialog = play_online(qtbot, other)
            qtbot.mouseClick(dialog.resume_button, Qt.MouseButton.LeftButton)
            box = question(dialog)
            assert box is not None
            assert f"another soccerdesk window (process {os.getpid()})" in box.text()
            assert box.text().endswith(f"room {room} as Alice.")
            qtbot.mouseClick(button(box, "Take it over here"), Qt.MouseButton.LeftButton)

            await until(lambda: isinstance(other.session, RemoteSession) and other.match_view is not None)
            second = other.session
            assert isinstance(second, RemoteSession) and second.local_seats() == first.local_seats()
            await until(lambda: window.findChild(QMessageBox, "online-taken-over") is not None)
            told = window.findChild(QMessageBox, "online-taken-over")
            assert told.windowTitle() == "Your match moved to another window"
            assert "now played in another window" in told.text()
            assert not first.seat_lock.held
            await until(lambda: second.seat_lock is not None and second.seat_lock.held)
            assert lock_holder_seen_elsewhere(lock_path) == os.getpid()  # a third window is asked too
            view = other.match_view
            assert view is not None
            await until(lambda: bool(view.view_data) and second.client.connected)
            assert bob.connected and window.pages.currentWidget() is window.match_view  # A stays until Home

            qtbot.mouseClick(button(told, "Home"), Qt.MouseButton.LeftButton)
            assert window.pages.currentWidget() is window.home
            other.go_home()  # B leaves the match: nobody holds the seat
            assert lock_holder_seen_elsewhere(lock_path) == 0
        finally:
            window.go_home()
            other.go_home()
            await bob.close()
            await relay.stop()

    run_on_qt_loop(scenario)
    other.close()


def test_a_seat_whose_window_crashed_is_resumed_without_a_question(qtbot, window: MainWindow, tmp_path: Path) -> None:
    """The other soccerdesk playing Alice's seat died (its lock file names a dead process, its
    connection is gone): "Resume my last match" goes straight back into the match."""

    async def scenario() -> None:
        async with alices_seat_remembered(window, tmp_path) as (alice, _bob, lock_path):
            with holding_elsewhere(lock_path) as holder:
                holder.kill()  # a crash: no unlock
            await alice.close()  # its connection went with it
            assert lock_path.exists()
            dialog = play_online(qtbot, window)
            qtbot.mouseClick(dialog.resume_button, Qt.MouseButton.LeftButton)
            assert question(dialog) is None
            await until(lambda: isinstance(window.session, RemoteSession) and window.match_view is not None)
            session = window.session
            assert isinstance(session, RemoteSession) and session.local_seats() == (0,)
            assert session.seat_lock is not None and session.seat_lock.held
            assert lock_holder_seen_elsewhere(lock_path) == os.getpid()

    run_on_qt_loop(scenario)


def test_the_window_that_took_over_holds_the_seat_once_the_other_process_lets_go(
    qtbot, window: MainWindow, tmp_path: Path
) -> None:
    """Taken over from another process, the seat is played here at once; its lock follows when
    that process lets go of it (its window closed), so that a third window is asked in turn."""

    async def scenario() -> None:
        async with alices_seat_remembered(window, tmp_path) as (alice, _bob, lock_path):
            with holding_elsewhere(lock_path) as holder:
                dialog = play_online(qtbot, window)
                qtbot.mouseClick(dialog.resume_button, Qt.MouseButton.LeftButton)
                box = question(dialog)
                assert box is not None
                qtbot.mouseClick(button(box, "Take it over here"), Qt.MouseButton.LeftButton)
                await until(lambda: isinstance(window.session, RemoteSession) and window.match_view is not None)
                session = window.session
                assert isinstance(session, RemoteSession) and session.seat_lock is not None
                await until(lambda: alice.fatal_code == "replaced")  # the other window is told by the relay
                await asyncio.sleep(1.0)  # tried again, twice: the other process still holds the lock
                assert not session.seat_lock.held and lock_holder_seen_elsewhere(lock_path) == holder.pid
                holder.communicate("")  # the other window closes: its lock is let go
                await until(lambda: session.seat_lock is not None and session.seat_lock.held, timeout=5)
                assert lock_holder_seen_elsewhere(lock_path) == os.getpid()

    run_on_qt_loop(scenario)
