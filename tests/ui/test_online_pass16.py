"""Playing online in two windows (QA pass 16, findings 1, 2, 3, 5, 6, 7 and 10).

Each test with a relay runs a real one on 127.0.0.1 (port 0) and the app's dialogs and match
screens on a qasync loop; input is given as a person gives it (clicks on the widgets, keys to
the widget that has the keyboard). Two windows on one profile are two processes, each with its
own copy of the settings: the second is a real second process where it matters.
"""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import QPoint, QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QMessageBox, QPushButton
from test_online import GAME, SHORT, run_on_qt_loop, two_players, until  # the online tests' game, loop, players
from test_online_truth import screen

from server.relay import HALL, RelaySettings, start_relay
from soccerdesk.net.client import RelayClient
from soccerdesk.rules import get_game
from soccerdesk.ui.main_window import MainWindow
from soccerdesk.ui.online import (
    OnlineDialog,
    RememberedSeat,
    RemoteSession,
    _tell_taken_over,
    open_online_dialog,
    parse_address,
    remember_seat,
    remembered_seats,
)
from soccerdesk.ui.settings import AppSettings

URL = "ws://127.0.0.1:8765/ws"


def profile_settings(folder: Path) -> AppSettings:
    """A window's settings on the profile in ``folder`` (``soccerdesk --data-dir folder``)."""
    return AppSettings(QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat), folder)


def other_window_remembers(folder: Path, seat: RememberedSeat) -> None:
    """The other window, a process of its own on the same profile, remembers ``seat``."""
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from PySide6.QtCore import QSettings\n"
        "from soccerdesk.ui.online import RememberedSeat, remember_seat\n"
        "from soccerdesk.ui.settings import AppSettings\n"
        "folder = Path(sys.argv[1])\n"
        "settings = AppSettings(QSettings(str(folder / 'settings.ini'), QSettings.Format.IniFormat), folder)\n"
        "remember_seat(settings, RememberedSeat(*sys.argv[2:]))\n"
    )
    args = [str(folder), seat.url, seat.room, seat.token, seat.name]
    subprocess.run([sys.executable, "-c", code, *args], check=True, timeout=60)


# --- finding 1: two windows on one profile keep both seats ---------------------------------------


def test_two_settings_objects_on_one_profile_keep_each_others_seats(tmp_path: Path) -> None:
    """Both windows of one profile remember a seat of one room; neither loses the other's, and a
    window started afterwards lists both."""
    alice_window, bob_window = profile_settings(tmp_path), profile_settings(tmp_path)
    bob = RememberedSeat(URL, "W5VRX7", "B" * 24, "Bob")
    alice = RememberedSeat(URL, "W5VRX7", "A" * 24, "Alice")
    remember_seat(bob_window, bob)
    remember_seat(alice_window, alice)
    for settings in (alice_window, bob_window, profile_settings(tmp_path)):
        assert {s.name for s in remembered_seats(settings)} == {"Alice", "Bob"}
    assert remembered_seats(alice_window)[0] == alice  # newest first
    # Only the newest six are kept; the oldest goes, with the line about its match.
    bob_window.set("online/about/W5VRX7-BBBBBB", "Soccer-Go with Alice, 0–0")
    for n in range(5):
        remember_seat(alice_window if n % 2 else bob_window, RememberedSeat(URL, f"ROOM{n}X", f"{n}" * 24, "Carol"))
    kept = remembered_seats(profile_settings(tmp_path))
    assert len(kept) == 6 and bob not in kept and alice in kept
    assert profile_settings(tmp_path).get("online/about/W5VRX7-BBBBBB", "") == ""


def test_a_seat_taken_in_another_process_survives_this_windows_next_seat(qtbot, tmp_path: Path) -> None:
    """QA steps: window B (another process) takes Bob's seat after window A took Alice's; A then
    lists both, and A's next write (a resume, another room) keeps Bob's. Before, each window
    wrote its own copy of one list of seats, and the last writer dropped the other's."""
    alice_window = profile_settings(tmp_path)
    alice = RememberedSeat(URL, "W5VRX7", "A" * 24, "Alice")
    remember_seat(alice_window, alice)
    bob = RememberedSeat(URL, "W5VRX7", "B" * 24, "Bob")
    other_window_remembers(tmp_path, bob)
    dialog = OnlineDialog("online", alice_window)  # "Play online" in window A
    qtbot.addWidget(dialog)
    entries = [action.text() for action in dialog.resume_button.menu().actions()]
    assert entries == ["room W5VRX7 as Bob", "room W5VRX7 as Alice"]
    remember_seat(alice_window, alice)  # Alice resumes her seat in window A
    after_restart = remembered_seats(profile_settings(tmp_path))
    assert [s.name for s in after_restart] == ["Alice", "Bob"]


def test_seats_kept_by_an_earlier_version_are_still_offered_and_kept(tmp_path: Path) -> None:
    old = profile_settings(tmp_path)
    old.set("online/seats", f"{URL} OLD111 {'o' * 24} Olga\n{URL} OLD222 {'p' * 24} Pat")
    old.reload()
    settings = profile_settings(tmp_path)
    assert [s.name for s in remembered_seats(settings)] == ["Olga", "Pat"]
    remember_seat(settings, RememberedSeat(URL, "NEW333", "n" * 24, "Nina"))
    assert [s.name for s in remembered_seats(profile_settings(tmp_path))] == ["Nina", "Olga", "Pat"]
    assert settings.get("online/seats", "") == ""  # each seat now has a key of its own


# --- finding 2: Enter in the code box joins ----------------------------------------------------


def test_enter_in_the_code_box_joins_the_friends_room(qtbot, window: MainWindow, tmp_path: Path) -> None:
    """The friend types the code and presses Enter: that joins the room, it does not open one."""

    async def scenario() -> None:
        relay = await start_relay(RelaySettings(host="127.0.0.1", port=0, db=str(tmp_path / "r.sqlite3")))
        host = RelayClient(relay.url, name="Alice")
        try:
            await host.connect()
            code = (await host.create(GAME, SHORT))["room"]
            dialog = open_online_dialog(window, kind="online", settings=window.settings)
            dialog.url_edit.setText(relay.url)
            dialog.name_edit.setText("Bob")
            assert dialog.go_button.isDefault()  # nothing typed yet: Enter creates a room
            qtbot.mouseClick(dialog.code_edit, Qt.MouseButton.LeftButton)
            QTest.keyClicks(dialog.code_edit, code.lower())
            assert dialog.join_button.isDefault() and not dialog.go_button.isDefault()
            QTest.keyClick(dialog.code_edit, Qt.Key.Key_Return)
            await until(lambda: isinstance(window.session, RemoteSession))
            assert window.session.local_seats() in ((0,), (1,))  # type: ignore[union-attr]
            assert list(relay.app[HALL].rooms) == [code]  # no second room was opened
            window.go_home()
        finally:
            await host.close()
            await relay.stop()

    run_on_qt_loop(scenario)


def test_the_default_button_follows_the_code_box(qtbot, settings: AppSettings) -> None:
    dialog = OnlineDialog("online", settings)
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.go_button.isDefault()
    QTest.keyClicks(dialog.code_edit, "CA24T4")
    assert dialog.join_button.isDefault()
    dialog.code_edit.clear()
    assert dialog.go_button.isDefault() or dialog.code_edit.hasFocus()
    box = dialog.watch_box  # "Only watch", ticked on its box: joining, as a spectator
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=QPoint(6, box.height() // 2))
    assert box.isChecked()
    assert dialog.join_button.isDefault()
    lan = OnlineDialog("join", settings, browser_factory=lambda cb: _QuietBrowser(cb))
    qtbot.addWidget(lan)
    assert lan.join_button.isDefault()


class _QuietBrowser:
    """A LAN browser that looks for nothing (no mDNS in tests)."""

    def __init__(self, on_change: Any) -> None:
        self.on_change = on_change

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        return None


# --- finding 3: Cancel on the waiting screen closes the room -------------------------------------


def test_cancel_while_waiting_closes_the_room_and_its_code_is_dead(qtbot, window: MainWindow, tmp_path: Path) -> None:
    async def scenario() -> None:
        relay = await start_relay(RelaySettings(host="127.0.0.1", port=0, db=str(tmp_path / "r.sqlite3")))
        try:
            host = open_online_dialog(window, kind="online", settings=window.settings)
            host.url_edit.setText(relay.url)
            host.name_edit.setText("Bob")
            qtbot.mouseClick(host.go_button, Qt.MouseButton.LeftButton)
            await until(lambda: bool(host.code_label.text()))
            code = host.code_label.text()
            cancel = host.findChild(QPushButton, "online-lobby-cancel")
            qtbot.mouseClick(cancel, Qt.MouseButton.LeftButton)
            await until(lambda: relay.app[HALL].rooms[code].closed)
            carol = open_online_dialog(window, kind="online", settings=window.settings)
            carol.url_edit.setText(relay.url)
            carol.name_edit.setText("Carol")
            carol.code_edit.setText(code)
            qtbot.mouseClick(carol.join_button, Qt.MouseButton.LeftButton)
            await until(lambda: "is gone" in carol.status_label.text())
            assert carol.status_label.text() == f"Room {code} is gone: its host closed it before anyone joined"
            assert window.session is None  # no match against a host who left
            carol.reject()
        finally:
            await relay.stop()

    run_on_qt_loop(scenario)


# --- finding 5: Soccer-Go's clock gives each pick a fresh turn ----------------------------------


def test_the_seat_that_picks_last_gets_the_whole_time_for_its_next_decision(qtbot, tmp_path: Path) -> None:
    """Alice picks at once, Bob takes a while: Bob's next decision has the whole 30 s again, and
    his clock never says "Rest of your turn" for it (before: "Your turn: 0:02" in red)."""

    async def scenario() -> None:
        relay, alice, bob = await two_players(tmp_path, turn_seconds=30)
        try:
            view, _said = screen(qtbot, bob)
            clocks: list[tuple[str, float]] = []
            view.session.timer_changed.connect(  # type: ignore[attr-defined]
                lambda kind, words, seconds: clocks.append((words, seconds)) if kind == "clock" else None
            )
            await until(lambda: bool(bob.view and bob.view["legal"]) and bool(alice.view and alice.view["legal"]))
            await until(lambda: view.timer_label.text().startswith("Your turn: 0:"))
            await alice.act(alice.view["legal"][0], ply=alice.view["ply"])  # type: ignore[index]
            await until(lambda: bob.view is not None and bob.view["to_move"] == [1])
            await asyncio.sleep(1.5)
            clocks.clear()
            ply = bob.view["ply"]  # type: ignore[index]
            view.play(bob.view["legal"][0])  # type: ignore[index]
            await until(lambda: bob.seq > ply)
            deadline = time.monotonic() + 10
            while not (bob.view and 1 in bob.view["to_move"] and bob.view["legal"]):
                assert time.monotonic() < deadline, "Bob's next decision did not come"
                if alice.view and alice.view["legal"] and 0 in alice.view["to_move"]:
                    await alice.act(alice.view["legal"][0], ply=alice.view["ply"])
                await asyncio.sleep(0.05)
            await until(lambda: view.timer_label.text().startswith("Your turn: 0:"))
            left = int(view.timer_label.text().split("Your turn: 0:")[1][:2])
            assert left >= 28, view.timer_label.text()
            assert not [words for words, _ in clocks if words == "Rest of your turn"], clocks
            assert any(words == "Your turn" and seconds >= 29 for words, seconds in clocks), clocks
            view.session.close()
        finally:
            await alice.close()
            await bob.close()
            await relay.stop()

    run_on_qt_loop(scenario)


def test_after_the_computer_picked_for_a_late_player_the_next_decision_is_theirs(qtbot, tmp_path: Path) -> None:
    """Bob lets his pick run out of time: the computer picks for him, once. His next decision is
    his own again, with the whole time (before: "Time ran out" before four of his decisions in a
    row, though he was at the screen)."""

    async def scenario() -> None:
        relay, alice, bob = await two_players(tmp_path, turn_seconds=3)
        try:
            view, said = screen(qtbot, bob)
            await until(lambda: bool(bob.view and bob.view["legal"]) and bool(alice.view and alice.view["legal"]))
            await alice.act(alice.view["legal"][0], ply=alice.view["ply"])  # type: ignore[index]
            await until(lambda: any("the computer chose for you" in s for s in said), timeout=8)
            deadline = time.monotonic() + 10
            while not (bob.view and 1 in bob.view["to_move"] and bob.view["legal"]):
                assert time.monotonic() < deadline, "Bob's next decision did not come"
                if alice.view and alice.view["legal"] and 0 in alice.view["to_move"]:
                    await alice.act(alice.view["legal"][0], ply=alice.view["ply"])
                await asyncio.sleep(0.05)
            await until(lambda: "Your move" in view.hint_label.text())
            assert "finishes your turn" not in view.hint_label.text()
            await until(lambda: view.timer_label.text().startswith("Your turn: 0:0"))
            ply = bob.view["ply"]  # type: ignore[index]
            view.play(bob.view["legal"][0])  # type: ignore[index]
            await until(lambda: bob.seq > ply)
            # Never said that the computer goes on for him, not even for a moment.
            assert not [s for s in said if "finishes your turn" in s], said
            made_for_bob = [entry for entry in relay.app[HALL].rooms[bob.room or ""]._computer if entry[1] == 1]
            assert len(made_for_bob) == 1, made_for_bob
            view.session.close()
        finally:
            await alice.close()
            await bob.close()
            await relay.stop()

    run_on_qt_loop(scenario)


# --- finding 6: a window whose seat another window took stops playing ----------------------------


def test_a_window_whose_seat_was_taken_over_says_where_the_match_went(
    qtbot, window: MainWindow, tmp_path: Path
) -> None:
    async def scenario() -> None:
        relay, alice, bob = await two_players(tmp_path)
        other = RelayClient(relay.url, name="Alice")
        try:
            session = RemoteSession(get_game(GAME), alice)
            session.taken_over.connect(lambda text: _tell_taken_over(window, text))
            window.show_session(session)
            view = window.match_view
            assert view is not None
            await until(lambda: bool(view.view_data and view.view_data["legal"]))
            await other.connect()  # another window resumes Alice's seat
            await other.resume(alice.room or "", alice.token or "")
            await until(lambda: window.findChild(QMessageBox, "online-taken-over") is not None)
            assert "now played in another window" in view.hint_label.text()
            await until(lambda: not view.board.legal())  # no moves are offered any more
            session.submit(str((other.view or {}).get("legal", ["pass 1"])[0]))  # as a late click would
            assert "now played in another window" in view.hint_label.text()
            assert "reconnecting" not in view.hint_label.text() and "Reconnecting" not in view.thinking_label.text()
            await asyncio.sleep(0.5)
            assert alice.status.startswith("lost") and not alice.connected  # it does not take the seat back
            assert other.connected
            box = window.findChild(QMessageBox, "online-taken-over")
            home = next(b for b in box.findChildren(QPushButton) if b.text() == "Home")
            qtbot.mouseClick(home, Qt.MouseButton.LeftButton)
            assert window.pages.currentWidget() is window.home
        finally:
            await other.close()
            await alice.close()
            await bob.close()
            await relay.stop()

    run_on_qt_loop(scenario)


# --- finding 7: codes and addresses in words ---------------------------------------------------------


def test_an_address_copied_from_a_browser_reaches_the_relay() -> None:
    assert parse_address("http://127.0.0.1:18716/") == "ws://127.0.0.1:18716/ws"
    assert parse_address("https://relay.example.org/") == "wss://relay.example.org/ws"
    assert parse_address("ws://127.0.0.1:18716/ws/") == "ws://127.0.0.1:18716/ws"
    assert parse_address("127.0.0.1:18716/ws") == "ws://127.0.0.1:18716/ws"


def test_a_bad_code_or_address_is_said_in_words(qtbot, window: MainWindow, tmp_path: Path) -> None:
    async def scenario() -> None:
        relay = await start_relay(RelaySettings(host="127.0.0.1", port=0, db=str(tmp_path / "r.sqlite3")))
        try:
            dialog = open_online_dialog(window, kind="online", settings=window.settings)
            dialog.url_edit.setText(relay.url)
            dialog.code_edit.setText("ab")
            qtbot.mouseClick(dialog.join_button, Qt.MouseButton.LeftButton)
            await until(lambda: "room code" in dialog.status_label.text())
            assert (
                dialog.status_label.text() == "'ab' is not a room code: a code is 6 letters and digits, such as CA24T4."
            )
            dialog.code_edit.setText("YMD-QUG")  # read out in two halves: the code YMDQUG
            qtbot.mouseClick(dialog.join_button, Qt.MouseButton.LeftButton)
            await until(lambda: "No room has the code 'YMDQUG'" in dialog.status_label.text())
            # The relay's address as a browser shows it: read as its WebSocket, and the room opens.
            dialog.url_edit.setText(f"http://127.0.0.1:{relay.port}/")
            qtbot.mouseClick(dialog.go_button, Qt.MouseButton.LeftButton)
            await until(lambda: bool(dialog.code_label.text()))
            assert window.settings.get("online/relay_url", "") == relay.url
            dialog.reject()
        finally:
            await relay.stop()

    run_on_qt_loop(scenario)


# --- finding 10: a spectator is offered no rematch, and is told who decides ----------------------


def test_a_spectator_reads_who_decides_and_cannot_offer_a_rematch(qtbot, tmp_path: Path) -> None:
    async def scenario() -> None:
        relay, alice, bob = await two_players(tmp_path)
        carol = RelayClient(relay.url, name="Carol")
        try:
            await carol.connect()
            await carol.spectate(alice.room or "")
            await until(lambda: carol.view is not None and carol.view["to_move"] == [0, 1])
            view, _said = screen(qtbot, carol)
            session = view.session
            assert isinstance(session, RemoteSession)
            await until(lambda: "Alice and Bob are deciding" in view.thinking_label.text())
            await until(lambda: view.view_data is not None)
            assert view.board.status(view.view_data or {}) == "Waiting for Alice and Bob…"  # the board agrees
            assert not session.can_rematch()
            refused: list[str] = []
            session.refused.connect(refused.append)
            session.rematch()
            assert refused == ["Only the players can ask for a rematch; if they play one, it is shown here."]
            # The players play on to full time: the spectator's result offers the replay, no Rematch.
            pick = random.Random(7)  # not always the first: "shoot left" against "save left" never ends
            for _ in range(600):
                if view.stack.currentWidget() is view.summary_page:
                    break
                player = next((c for c in (alice, bob) if c.view and c.view["legal"]), None)
                if player is None:
                    await asyncio.sleep(0.02)
                    continue
                ply = player.view["ply"]
                await player.act(pick.choice(player.view["legal"]), ply=ply)
                await until(lambda player=player, ply=ply: player.view["ply"] > ply or not player.view["legal"])
            await until(lambda: view.stack.currentWidget() is view.summary_page)
            assert not view.summary_page.rematch.isVisible() and view.summary_page.replay.isVisible()
            assert view.hint_label.text().endswith("Result shows the score and the replay."), view.hint_label.text()
            session.close()
        finally:
            await carol.close()
            await alice.close()
            await bob.close()
            await relay.stop()

    run_on_qt_loop(scenario)
