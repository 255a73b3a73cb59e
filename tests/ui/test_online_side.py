"""Who opens a room says which side they play: Home, Away, or a toss by the relay.

The dialog's "You play" is worded as the home screen's; the choice reaches the relay in
``create`` (protocol.md, "Seats, tokens, spectators": the host takes seat 0 or 1, or lets the
relay toss), the lobby and the match show the host on that side, and the friend who joins gets
the other. Every test runs a real relay on 127.0.0.1; its coin is loaded against the side chosen,
so a choice that did not reach it would show.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from clicking import choose_in_combo
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWidget
from test_online import GAME, InjectedBrowser, RecordingAnnouncer, open_lan_host, run_on_qt_loop, until
from test_online_resign import second_window

from soccerdesk.ui.main_window import MainWindow
from soccerdesk.ui.online import OnlineDialog, RemoteSession, open_online_dialog


class LoadedCoin:
    """The relay's coin for the host's seat (``secrets.randbelow(2)``): lands on ``side``, and
    counts its tosses."""

    def __init__(self, side: int) -> None:
        self.side = side
        self.tosses = 0

    def __call__(self, n: int) -> int:
        assert n == 2, "the relay's only randbelow is its toss for the host's seat"
        self.tosses += 1
        return self.side


@pytest.fixture
def friend(qtbot, tmp_path: Path) -> MainWindow:
    """A second window, with settings of its own: the friend who joins."""
    return second_window(qtbot, tmp_path)


def press(qtbot, key: Qt.Key) -> None:
    """A key pressed on the keyboard: it goes to whatever has the focus."""
    focused = QApplication.focusWidget()
    assert focused is not None, "nothing has the keyboard"
    qtbot.keyClick(focused, key)


def tab_to(qtbot, dialog: OnlineDialog, target: QWidget, limit: int = 30) -> list[QWidget]:
    """Press Tab until ``target`` has the keyboard; returns the widgets passed on the way."""
    passed: list[QWidget] = []
    for _ in range(limit):
        if QApplication.focusWidget() is target:
            return passed
        focused = QApplication.focusWidget()
        if focused is not None:
            passed.append(focused)
        press(qtbot, Qt.Key.Key_Tab)
    raise AssertionError(f"Tab never reached {target.objectName()}; passed {[w.objectName() for w in passed]}")


def lobby_lines(dialog: OnlineDialog) -> list[str]:
    return [dialog.players_list.item(i).text() for i in range(dialog.players_list.count())]


def seats(window: MainWindow, friend: MainWindow) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The seats the host's window and the friend's play, both online sessions."""
    a, b = window.session, friend.session
    assert isinstance(a, RemoteSession) and isinstance(b, RemoteSession)
    return a.local_seats(), b.local_seats()


def scoreboard(window: MainWindow) -> str:
    """The match screen's two sides as its scoreboard names them, Home first."""
    assert window.match_view is not None
    return window.match_view.score_label.toolTip()


async def open_a_room_and_join_it(qtbot, host: OnlineDialog, friend: MainWindow, url: str) -> list[str]:
    """Alice creates the room in ``host`` (Play online, the side already chosen) and waits in the
    lobby; Bob, in ``friend``, types its code and joins. Returns, once both have their session,
    the lobby's list of who is in the room as Alice saw it while she waited."""
    host.url_edit.setText(url)
    host.game_combo.setCurrentIndex(host.game_combo.findData(GAME))
    host.name_edit.setText("Alice")
    qtbot.mouseClick(host.go_button, Qt.MouseButton.LeftButton)
    await until(lambda: bool(host.code_label.text()) and bool(lobby_lines(host)))
    waiting = lobby_lines(host)
    join = open_online_dialog(friend, kind="online", settings=friend.settings)
    join.url_edit.setText(url)
    join.name_edit.setText("Bob")
    join.code_edit.setText(host.code_label.text())
    qtbot.mouseClick(join.join_button, Qt.MouseButton.LeftButton)
    await until(lambda: isinstance(host.session, RemoteSession) and isinstance(join.session, RemoteSession))
    return waiting


def test_a_host_online_who_chooses_away_plays_away(
    qtbot, window: MainWindow, friend: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Play online → Create a room with "You play: Away" (clicked in its drop-down): the relay
    seats the host Away (its toss would have said Home), the lobby says so, the friend who joins
    plays Home, and the next room offers Away again."""
    from server.relay import RelaySettings, start_relay

    coin = LoadedCoin(0)
    monkeypatch.setattr("server.rooms.secrets.randbelow", coin)
    host = open_online_dialog(window, kind="online", settings=window.settings)
    qtbot.waitUntil(host.isVisible)
    assert host.side_combo.currentText() == "Toss for it"  # never chosen: as before, the relay tosses
    assert [host.side_combo.itemText(i) for i in range(host.side_combo.count())] == ["Home", "Away", "Toss for it"]
    # Worded as the home screen's own "You play".
    label = host.side_combo.parentWidget().layout().labelForField(host.side_combo)  # type: ignore[attr-defined]
    home_label = window.home._match_form.labelForField(window.home.side)
    assert label is not None and label.text() == home_label.text() == "You play"
    choose_in_combo(qtbot, host.side_combo, 1)

    async def scenario() -> None:
        relay = await start_relay(RelaySettings(host="127.0.0.1", port=0, db=str(tmp_path / "r.sqlite3")))
        try:
            waiting = await open_a_room_and_join_it(qtbot, host, friend, relay.url)
            assert waiting[0].startswith("Alice — Away"), waiting
            await until(lambda: window.match_view is not None and friend.match_view is not None)
            assert seats(window, friend) == ((1,), (0,))
            await until(lambda: scoreboard(window) == "Bob – Alice" and scoreboard(friend) == "Bob – Alice")
            assert coin.tosses == 0
            window.go_home()
            friend.go_home()
        finally:
            await relay.stop()

    run_on_qt_loop(scenario)
    assert window.settings.get("online/side", "") == "away"
    again = open_online_dialog(window, kind="online", settings=window.settings)
    assert again.side_combo.currentText() == "Away"
    again.reject()


def test_a_lan_host_who_chooses_home_with_the_keys_plays_home(
    qtbot, window: MainWindow, friend: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Host LAN game: Tab reaches "You play" after the game and its options and before "Allow
    spectators"; the arrow keys choose Home (the relay's toss would have said Away). The host
    plays Home, the friend who joins from the LAN list Away."""
    coin = LoadedCoin(1)
    monkeypatch.setattr("server.rooms.secrets.randbelow", coin)
    host = open_lan_host(window)
    qtbot.waitUntil(host.isVisible)
    host.activateWindow()
    host.name_edit.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is host.name_edit)
    passed = tab_to(qtbot, host, host.side_combo)
    assert host.game_combo in passed
    assert host.spectators_box not in passed and host.clock_combo not in passed
    assert host.side_combo.currentText() == "Toss for it"
    press(qtbot, Qt.Key.Key_Up)
    press(qtbot, Qt.Key.Key_Up)
    assert host.side_combo.currentText() == "Home"
    press(qtbot, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is host.spectators_box

    async def scenario() -> None:
        host.name_edit.setText("Alice")
        qtbot.mouseClick(host.go_button, Qt.MouseButton.LeftButton)
        await until(lambda: bool(host.code_label.text()) and bool(lobby_lines(host)))
        assert lobby_lines(host)[0].startswith("Alice — Home"), lobby_lines(host)
        join: OnlineDialog = open_online_dialog(
            friend, kind="join", settings=friend.settings, browser_factory=lambda cb: InjectedBrowser(cb)
        )
        assert join.browser is not None
        join.browser.add("alice", RecordingAnnouncer.announced[-1])
        join.lan_list.setCurrentRow(0)
        join.name_edit.setText("Bob")
        qtbot.mouseClick(join.join_button, Qt.MouseButton.LeftButton)
        await until(lambda: window.match_view is not None and friend.match_view is not None)
        assert seats(window, friend) == ((0,), (1,))
        await until(lambda: scoreboard(window) == "Alice – Bob" and scoreboard(friend) == "Alice – Bob")
        assert coin.tosses == 0
        friend.go_home()
        window.go_home()

    run_on_qt_loop(scenario)
    assert window.settings.get("online/side", "") == "home"


@pytest.mark.parametrize("toss", [0, 1])
def test_toss_for_it_leaves_the_side_to_the_relay(
    qtbot, window: MainWindow, friend: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toss: int
) -> None:
    """Toss for it (chosen again after Away was kept) sends no seat: the relay tosses, and the
    host plays the side its coin fell on."""
    from server.relay import RelaySettings, start_relay

    coin = LoadedCoin(toss)
    monkeypatch.setattr("server.rooms.secrets.randbelow", coin)
    window.settings.set("online/side", "away")
    host = open_online_dialog(window, kind="online", settings=window.settings)
    qtbot.waitUntil(host.isVisible)
    assert host.side_combo.currentText() == "Away"
    choose_in_combo(qtbot, host.side_combo, None)

    async def scenario() -> None:
        relay = await start_relay(RelaySettings(host="127.0.0.1", port=0, db=str(tmp_path / "r.sqlite3")))
        try:
            waiting = await open_a_room_and_join_it(qtbot, host, friend, relay.url)
            assert coin.tosses == 1
            assert waiting[0].startswith(f"Alice — {('Home', 'Away')[toss]}"), waiting
            assert seats(window, friend) == ((toss,), (1 - toss,))
            window.go_home()
            friend.go_home()
        finally:
            await relay.stop()

    run_on_qt_loop(scenario)
    assert window.settings.get("online/side", "") == "toss"


SMALL_SCREEN = """
import json, sys
from pathlib import Path
from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractButton, QApplication
from soccerdesk.ui.main_window import MainWindow
from soccerdesk.ui.online import open_online_dialog
from soccerdesk.ui.settings import AppSettings

folder, game, kind = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
app = QApplication([])
settings = AppSettings(QSettings(str(folder / "s.ini"), QSettings.Format.IniFormat), folder / "data")
settings.set("home/game", game)
window = MainWindow(settings)
window.resize(1024, 600)
window.show()
for _ in range(400):  # the games load in the background; the dialog opens on the home screen's
    if window.home.loaded:
        break
    QTest.qWait(50)
dialog = open_online_dialog(window, kind=kind, settings=settings, bind_host="127.0.0.1", port=0)
QTest.qWaitForWindowExposed(dialog)
QTest.qWait(200)
screen = dialog.screen().availableGeometry()
frame = dialog.frameGeometry()
report = {"game": dialog.game_combo.currentData(), "screen": [screen.width(), screen.height()],
          "frame": [frame.x(), frame.y(), frame.width(), frame.height()], "stops": [], "hidden": []}
dialog.activateWindow()
dialog.name_edit.setFocus()
QTest.qWait(50)
passed = []
for _ in range(60):  # a person pressing Tab through the whole dialog, once round
    widget = QApplication.focusWidget()
    if widget in passed:
        break
    passed.append(widget)
    name = widget.text() if isinstance(widget, QAbstractButton) else widget.objectName()
    report["stops"].append(name or type(widget).__name__)
    found = QApplication.widgetAt(widget.mapToGlobal(widget.rect().center()))
    if found is not widget and not widget.isAncestorOf(found):
        report["hidden"].append(name)
    QTest.keyClick(widget, Qt.Key.Key_Tab)
    QTest.qWait(20)
print(json.dumps(report))
"""


@pytest.mark.parametrize("kind", ["online", "host"])
def test_the_hosts_dialog_fits_a_small_laptop_screen(tmp_path: Path, kind: str) -> None:
    """On a 1024 × 600 screen, with Pawn Soccer's seven options (the most of the four games), the
    dialog and its title bar (about 30 pixels on common desktops; the offscreen screen draws
    none) fit on the screen: Play online's was 591 pixels tall, and its Cancel button fell below
    the screen's edge. Every field, tick box and button is reached with Tab, and each is on
    screen, where a click reaches it, when it has the keyboard (the form scrolls to it)."""
    import json
    import os
    import subprocess
    import sys

    config = tmp_path / "screen.json"
    config.write_text(json.dumps({"screens": [{"name": "laptop", "x": 0, "y": 0, "width": 1024, "height": 600}]}))
    env = {**os.environ, "QT_QPA_PLATFORM": f"offscreen:configfile={config}"}
    run = subprocess.run(
        [sys.executable, "-c", SMALL_SCREEN, str(tmp_path), "pawn-soccer", kind],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert report["game"] == "pawn-soccer" and report["screen"] == [1024, 600]
    x, y, width, height = report["frame"]
    assert width <= 1024 and height + 30 <= 600, report  # a window manager keeps a window that fits on screen
    assert 0 <= x <= 1024 - width and 0 <= y <= 600 - height, report
    go = "Create a room" if kind == "online" else "Host"
    assert {"side", "Allow spectators", go, "Cancel"} <= set(report["stops"]), report
    assert report["hidden"] == [], report


def test_another_games_options_grow_the_dialog_where_the_screen_has_room(qtbot, window: MainWindow) -> None:
    """The form scrolls only on a screen too short for it: on the 800 × 800 test screen, picking
    Pawn Soccer (seven options) after Soccer-Go (four) makes the dialog taller, with nothing to
    scroll, and keeps it on the screen."""
    host = open_online_dialog(window, kind="online", settings=window.settings)
    qtbot.waitUntil(host.isVisible)
    choose_in_combo(qtbot, host.game_combo, GAME)
    before = host.height()
    choose_in_combo(qtbot, host.game_combo, "pawn-soccer")
    qtbot.waitUntil(lambda: host.height() > before)
    qtbot.waitUntil(lambda: host.form_scroll.verticalScrollBar().maximum() == 0)
    assert host.screen().availableGeometry().contains(host.frameGeometry())
    host.reject()
