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
    label = host.form_page.layout().labelForField(host.side_combo)  # type: ignore[attr-defined]
    home_label = window.home._match_form.labelForField(window.home.side)
    assert label is not None and label.text() == home_label.text() == "You play"
    choose_in_combo(qtbot, host.side_combo, 1)

    async def scenario() -> None:
        relay = await start_relay(RelaySettings(host="127.0.0.1", port=0, db=str(tmp_path / "r.sqlite3")))
        try:
            waiting = await open_a_room_and_join_it(qtbot, host, friend, relay.url)
            assert waiting[0].startswith("Alice — Away"), waiting
            await until(lambda: window.match_view is not None and friend.match_view is not None)
            a, b = window.session, friend.session
            assert isinstance(a, RemoteSession) and isinstance(b, RemoteSession)
            assert (a.local_seats(), b.local_seats()) == ((1,), (0,))
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
        a, b = window.session, friend.session
        assert isinstance(a, RemoteSession) and isinstance(b, RemoteSession)
        assert (a.local_seats(), b.local_seats()) == ((0,), (1,))
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
            a, b = window.session, friend.session
            assert isinstance(a, RemoteSession) and isinstance(b, RemoteSession)
            assert (a.local_seats(), b.local_seats()) == ((toss,), (1 - toss,))
            window.go_home()
            friend.go_home()
        finally:
            await relay.stop()

    run_on_qt_loop(scenario)
    assert window.settings.get("online/side", "") == "toss"
