"""The home screen shows an online match that may still be waiting for its player (online audit, left item).

After a crash (or Home from an online seat) the match goes on at the relay, its clock and the
opponent's claim with it, but the home screen said nothing: the only way back was Play online →
Resume my last match. Now the home screen lists each remembered seat whose match was not seen to
end, with a Resume button that takes the seat back through the online dialog's own resume. The
entry goes once the match is over, and is not shown while this window plays the match; a room
gone from the relay is said when resuming, and its entry removed. Nothing is asked of a relay to
draw the home screen. Each test runs a real relay on 127.0.0.1 (port 0) on a qasync loop; the
player clicks and presses keys as a person does.
"""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

from clicking import widget_under
from other_process import holding_elsewhere
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton
from test_online import run_on_qt_loop, two_players, until  # the online tests' loop, players, waiting

from soccerdesk.ui.main_window import MainWindow
from soccerdesk.ui.online import OnlineDialog, RemoteSession
from soccerdesk.ui.seats import (
    RememberedSeat,
    about_key,
    remember_about,
    remember_seat,
    remembered_seats,
    seat_lock_path,
)
from soccerdesk.ui.settings import AppSettings


def reopened(qtbot: Any, settings: AppSettings) -> MainWindow:
    """The app started again on ``settings`` (after a crash): its window, shown."""
    window = MainWindow(settings)
    qtbot.addWidget(window)
    window.resize(1200, 780)
    window.move(0, 0)
    window.show()
    return window


async def press(qtbot: Any, button: QPushButton) -> None:
    """A click on ``button`` where it shows, once nothing lies on top of it there (a row just
    made is laid out on the next turn of the loop). Sent to the button, which runs no other
    events meanwhile: the scenario runs on the same loop."""
    await until(lambda: widget_under(button, button.rect().center()) is button, timeout=3)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


WAITING = "Online match not finished: it may still be waiting for you on the relay"


def waiting_texts(window: MainWindow) -> tuple[str, list[str]] | None:
    """What the home screen's frame of online matches says: its heading and the matches (the
    one beside Resume, or those of the drop-down); ``None`` while it is hidden."""
    home = window.home
    if not home.waiting.isVisible():
        return None
    if home.waiting_choice.isVisible():
        assert not home.waiting_words.isVisible()
        return home.waiting_heading.text(), [
            home.waiting_choice.itemText(i) for i in range(home.waiting_choice.count())
        ]
    return home.waiting_heading.text(), [home.waiting_words.text()]


def online_dialog(window: MainWindow) -> OnlineDialog | None:
    shown = [d for d in window.findChildren(OnlineDialog) if d.isVisible()]
    return shown[-1] if shown else None


def crashed_with_a_seat(settings: AppSettings, url: str, room: str, token: str, about: str = "") -> RememberedSeat:
    """What a window that played Alice's seat left in the settings when it crashed: the seat, and
    the line about its match as that window last saw it."""
    seat = RememberedSeat(url, room, token, "Alice")
    remember_seat(settings, seat)
    if about:
        remember_about(settings, about_key(room, token), about)
    return seat


async def key(
    window: MainWindow, which: Qt.Key, modifiers: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier
) -> None:
    """A key pressed in ``window`` (made the active window first): to the widget that has the
    keyboard, shortcuts included. (Not through the window system: that would run the event loop
    inside this step of the scenario, which runs on it.)"""
    window.activateWindow()
    await until(window.isActiveWindow)
    QTest.keyClick(QApplication.focusWidget() or window, which, modifiers)


async def leave_for_home(qtbot: Any, window: MainWindow) -> None:
    """Ctrl+H from an online seat, and "Leave" in the question (the seat stays the player's)."""
    await key(window, Qt.Key.Key_H, Qt.KeyboardModifier.ControlModifier)
    if True:
        await until(lambda: window.findChild(QMessageBox, "leave-seat") is not None, timeout=6)
        box = window.findChild(QMessageBox, "leave-seat")
        qtbot.mouseClick(
            next(b for b in box.findChildren(QPushButton) if b.text() == "Leave"), Qt.MouseButton.LeftButton
        )
        await until(lambda: window.pages.currentWidget() is window.home)


def test_a_match_left_by_a_crash_is_on_the_home_screen_and_one_click_takes_the_seat_back(
    qtbot, settings: AppSettings, tmp_path: Path
) -> None:
    """The app crashed during Alice's match with Bob and is started again: the home screen says
    the match may still be waiting (game, opponent, score, room, her name) and its Resume puts her
    back in her seat. While this window plays it the entry is not shown; Home (seat kept) shows
    it again."""

    async def scenario() -> None:
        relay, alice, bob = await two_players(tmp_path)
        room, token = alice.room or "", alice.token or ""
        try:
            crashed_with_a_seat(settings, relay.url, room, token, "Soccer-Go with Bob, 0–0")
            await alice.close()  # the crash: the connection goes, nothing said to the relay
            window = reopened(qtbot, settings)
            await until(lambda: window.home.loaded, timeout=20)
            assert waiting_texts(window) == (WAITING, [f"Soccer-Go with Bob, 0–0 — room {room} as Alice"])
            await press(qtbot, window.home.waiting_resume)
            await until(lambda: isinstance(window.session, RemoteSession) and window.match_view is not None)
            session = window.session
            assert isinstance(session, RemoteSession) and session.local_seats() == (0,)
            assert session.client.room == room and session.client.connected
            await until(lambda: "Back in the match" in window.match_view.hint_label.text())
            assert online_dialog(window) is None  # the dialog did its work and closed

            # The match this window plays is not offered to it (the home screen, drawn meanwhile).
            window.home.refresh_recent()
            assert not window.home.waiting.isVisibleTo(window.home) and window.home.waiting_matches == []

            # Home, the seat kept: the match waits at the relay, and the home screen says so again.
            await leave_for_home(qtbot, window)
            await until(lambda: waiting_texts(window) is not None)
            assert waiting_texts(window) == (WAITING, [f"Soccer-Go with Bob, 0–0 — room {room} as Alice"])
        finally:
            await bob.close()
            await relay.stop()

    run_on_qt_loop(scenario)  # (the window closes with the test: closed in it, Qt would end the loop)


def test_the_keyboard_reaches_resume_and_the_entry_goes_once_the_match_is_over(
    qtbot, settings: AppSettings, tmp_path: Path
) -> None:
    """Two matches are listed (a drop-down says which); Tab from the game cards reaches it, Down
    chooses Alice's match with Bob, Tab reaches Resume and Enter presses it. Alice then resigns
    (Match → Resign…) and goes home: that match is over, so it is no longer listed, and Recent
    matches lists it as finished instead."""

    async def scenario() -> None:
        relay, alice, bob = await two_players(tmp_path)
        room, token = alice.room or "", alice.token or ""
        try:
            crashed_with_a_seat(settings, relay.url, room, token, "Soccer-Go with Bob, 0–0")
            crashed_with_a_seat(settings, relay.url, "QQQQQQ", "q" * 24, "Soccero with Dan, 2–2")  # newer
            await alice.close()
            window = reopened(qtbot, settings)
            await until(lambda: window.home.loaded, timeout=20)
            ours = f"Soccer-Go with Bob, 0–0 — room {room} as Alice"
            assert waiting_texts(window) == (
                "2 online matches not finished: they may still be waiting for you on the relay",
                ["Soccero with Dan, 2–2 — room QQQQQQ as Alice", ours],
            )
            window.activateWindow()
            await until(lambda: QApplication.focusWidget() is not None)
            choice, resume = window.home.waiting_choice, window.home.waiting_resume
            for _ in range(12):  # from the chosen card on, as a person tabs
                if QApplication.focusWidget() is choice:
                    break
                await key(window, Qt.Key.Key_Tab)
            assert QApplication.focusWidget() is choice, "Tab never reached the choice of online matches"
            await key(window, Qt.Key.Key_Down)
            assert choice.currentText() == ours
            await key(window, Qt.Key.Key_Tab)
            assert QApplication.focusWidget() is resume
            await key(window, Qt.Key.Key_Return)
            await until(lambda: isinstance(window.session, RemoteSession) and window.match_view is not None)
            await until(lambda: window.resign_action.isEnabled())

            await key(window, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
            await until(lambda: window.findChild(QMessageBox, "resign") is not None, timeout=6)
            box = window.findChild(QMessageBox, "resign")
            qtbot.mouseClick(
                next(b for b in box.findChildren(QPushButton) if b.text() == "Resign"), Qt.MouseButton.LeftButton
            )
            view = window.match_view
            await until(lambda: view.stack.currentWidget() is view.summary_page)
            assert settings.get(about_key(room, token), "") == "Soccer-Go with Bob, 0–0 (over)"
            await key(window, Qt.Key.Key_H, Qt.KeyboardModifier.ControlModifier)
            await until(lambda: window.pages.currentWidget() is window.home)
            assert waiting_texts(window) == (WAITING, ["Soccero with Dan, 2–2 — room QQQQQQ as Alice"])
            listed = [window.home.recent.item(i).text() for i in range(window.home.recent.count())]
            assert any(line.startswith("Soccer-Go: Alice 0–0 Bob  ·  Alice resigned") for line in listed), listed
        finally:
            await bob.close()
            await relay.stop()

    run_on_qt_loop(scenario)  # (the window closes with the test: closed in it, Qt would end the loop)


def test_a_room_gone_from_the_relay_is_said_and_its_entry_removed(qtbot, settings: AppSettings, tmp_path: Path) -> None:
    """A remembered room the relay no longer has: Resume says the match cannot be resumed and why,
    and the entry is gone from the dialog and, once it is closed, from the home screen. A relay
    that does not answer is said too, and that entry is kept (the relay may come back)."""
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        silent = f"ws://127.0.0.1:{probe.getsockname()[1]}/ws"

    async def scenario() -> None:
        relay, alice, bob = await two_players(tmp_path)
        try:
            crashed_with_a_seat(settings, silent, "QQQQQQ", "s" * 24)
            crashed_with_a_seat(settings, relay.url, "ZZZZZZ", "t" * 24, "Pawn Soccer with Carol, 2–1")
            window = reopened(qtbot, settings)
            await until(lambda: window.home.loaded, timeout=20)
            assert waiting_texts(window) == (
                "2 online matches not finished: they may still be waiting for you on the relay",
                ["Pawn Soccer with Carol, 2–1 — room ZZZZZZ as Alice", "Online match — room QQQQQQ as Alice"],
            )
            await press(qtbot, window.home.waiting_resume)  # the newest, chosen first
            await until(lambda: online_dialog(window) is not None)
            dialog = online_dialog(window)
            await until(lambda: dialog.status_label.text().startswith("That match cannot be resumed"))
            assert dialog.status_label.text() == (
                "That match cannot be resumed: no room has the code 'ZZZZZZ'. "
                "It is no longer listed among your matches to resume."
            )
            assert [seat.room for seat in remembered_seats(settings)] == ["QQQQQQ"]
            assert settings.get(about_key("ZZZZZZ", "t" * 24), "") == ""
            assert dialog.url_edit.text() == relay.url  # the relay asked, the seat's own
            assert dialog.resume_button.menu() is not None
            assert [a.text() for a in dialog.resume_button.menu().actions()] == ["room QQQQQQ as Alice"]
            assert window.session is None
            QTest.keyClick(dialog, Qt.Key.Key_Escape)
            await until(lambda: online_dialog(window) is None)
            await until(lambda: len(window.home.waiting_matches) == 1)
            assert waiting_texts(window) == (WAITING, ["Online match — room QQQQQQ as Alice"])

            # A relay that does not answer: said, and the entry stays for another try.
            await press(qtbot, window.home.waiting_resume)
            await until(lambda: online_dialog(window) is not None)
            dialog = online_dialog(window)
            await until(lambda: dialog.status_label.text().startswith("That match cannot be resumed"))
            assert f"cannot reach the relay at {silent}" in dialog.status_label.text()
            assert [seat.room for seat in remembered_seats(settings)] == ["QQQQQQ"]
            assert dialog.resume_button.isVisible() and dialog.resume_button.isEnabled()
            dialog.reject()
            await until(lambda: online_dialog(window) is None)
            assert waiting_texts(window) == (WAITING, ["Online match — room QQQQQQ as Alice"])
        finally:
            await alice.close()
            await bob.close()
            await relay.stop()

    run_on_qt_loop(scenario)  # (the window closes with the test: closed in it, Qt would end the loop)


def test_a_match_another_soccerdesk_window_plays_is_said_to_be_open_there(qtbot, settings: AppSettings) -> None:
    """Another soccerdesk on this computer (a process of its own) plays Alice's seat: the entry
    says so instead of "waiting" (its Resume asks before taking it over, as Play online's does)."""
    seat = crashed_with_a_seat(settings, "ws://127.0.0.1:9/ws", "ABCDEF", "u" * 24, "Soccero with Dan, 1–1")
    with holding_elsewhere(seat_lock_path(settings.data_dir, seat.room, seat.token)):
        window = reopened(qtbot, settings)
        qtbot.waitUntil(lambda: window.home.loaded, timeout=20_000)
        assert waiting_texts(window) == (
            "Online match open in another soccerdesk window on this computer",
            ["Soccero with Dan, 1–1 — room ABCDEF as Alice"],
        )
        window.close()
