"""Network play in the app (offscreen): one app window hosts a LAN game, another joins it.

The host's relay runs in-process on 127.0.0.1 (port 0). No mDNS leaves the machine: the
host's announcer only records what it would announce, and that record is injected into
the joining window's game list, as the real browser would deliver it.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest
import qasync
from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QSpinBox

from soccerdesk.net.discovery import LanAnnouncer, LanBrowser, LanGame
from soccerdesk.ui.boards import board_available
from soccerdesk.ui.main_window import MainWindow
from soccerdesk.ui.online import OnlineDialog, RemoteSession, open_online_dialog, parse_address, remembered_seats
from soccerdesk.ui.settings import AppSettings, replay_match_file

GAME, SHORT = "soccer-go", {"rounds": 1}


class RecordingAnnouncer(LanAnnouncer):
    """Keeps the announcement instead of sending it."""

    announced: list[LanGame] = []

    async def start(self, game: LanGame) -> None:
        RecordingAnnouncer.announced.append(game)

    async def stop(self) -> None:
        RecordingAnnouncer.announced.clear()


class InjectedBrowser(LanBrowser):
    """A browser that listens to nothing: the test adds what was announced."""

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        return None


def run_on_qt_loop(scenario: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Run ``scenario`` on a qasync loop, as the app does (Qt and asyncio on one thread)."""
    loop = qasync.QEventLoop(QApplication.instance())
    asyncio.set_event_loop(loop)
    try:
        loop.run_until_complete(scenario())
    finally:
        loop.run_until_complete(asyncio.sleep(0.2))  # sessions' shutdown tasks
        loop.close()
        asyncio.set_event_loop(None)


async def until(predicate: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        await asyncio.sleep(0.01)


def test_typed_addresses_become_relay_urls() -> None:
    assert parse_address("192.168.1.20:9000") == "ws://192.168.1.20:9000/ws"
    assert parse_address("alice-pc") == "ws://alice-pc:8765/ws"
    assert parse_address("[fe80::1]:9000") == "ws://[fe80::1]:9000/ws"
    assert parse_address("ws://relay.example.org") == "ws://relay.example.org/ws"
    with pytest.raises(ValueError):
        parse_address("host:port")


def open_lan_host(window: MainWindow) -> OnlineDialog:
    """Host LAN game in ``window``: its relay on 127.0.0.1 (any free port), announced to no one."""
    return open_online_dialog(
        window,
        kind="host",
        settings=window.settings,
        bind_host="127.0.0.1",
        port=0,
        announcer_factory=RecordingAnnouncer,
        lan_address="127.0.0.1",
    )


def test_enter_in_the_lan_hosts_name_field_presses_host_not_cancel(qtbot, window: MainWindow) -> None:
    """Keyboard audit 4: Cancel was the Host LAN game dialog's default button, so a player who
    typed their name and pressed Enter lost the dialog."""
    host = open_lan_host(window)
    qtbot.waitUntil(host.isVisible)
    host.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is host)
    host.name_edit.setFocus()
    host.name_edit.selectAll()
    QTest.keyClicks(host.name_edit, "Alice")
    with qtbot.waitSignal(host.go_button.clicked, timeout=2_000):
        QTest.keyClick(host.windowHandle(), Qt.Key.Key_Return)
    assert host.isVisible()
    host.reject()


@pytest.mark.skipif(not board_available(GAME), reason="the Soccer-Go board is not drawn yet")
def test_host_a_lan_game_in_one_window_and_join_it_from_another(qtbot, window: MainWindow, tmp_path: Path) -> None:
    other_settings = AppSettings(QSettings(str(tmp_path / "b.ini"), QSettings.Format.IniFormat), tmp_path / "b")
    other_settings.animation_speed = "off"
    friend = MainWindow(other_settings)
    qtbot.addWidget(friend)
    friend.show()
    statuses: list[str] = []

    async def scenario() -> None:
        host = open_lan_host(window)
        host.game_combo.setCurrentIndex(host.game_combo.findData(GAME))
        host.name_edit.setText("Alice")
        for name, value in SHORT.items():
            host.options_form.findChild(QSpinBox, f"option-{name}").setValue(value)  # type: ignore[union-attr]
        qtbot.mouseClick(host.go_button, Qt.MouseButton.LeftButton)
        await until(lambda: bool(host.code_label.text()))
        code = host.code_label.text()
        assert host.address_label.text().startswith("Address: 127.0.0.1:")
        assert RecordingAnnouncer.announced[-1].room == code

        join: OnlineDialog = open_online_dialog(
            friend, kind="join", settings=other_settings, browser_factory=lambda cb: InjectedBrowser(cb)
        )
        assert join.browser is not None
        join.browser.add("alice", RecordingAnnouncer.announced[-1])
        assert join.lan_list.count() == 1
        join.lan_list.setCurrentRow(0)
        assert join.code_edit.text() == code
        join.name_edit.setText("Bob")
        qtbot.mouseClick(join.join_button, Qt.MouseButton.LeftButton)
        await until(lambda: window.match_view is not None and friend.match_view is not None)
        a, b = window.session, friend.session
        assert isinstance(a, RemoteSession) and isinstance(b, RemoteSession)
        assert {a.local_seats(), b.local_seats()} == {(0,), (1,)}
        await until(lambda: a.player_names() == b.player_names() and "Bob" in a.player_names())
        assert set(a.player_names()) == {"Alice", "Bob"}
        # The joiner's log starts with what happened before its screen opened (the deal).
        await until(lambda: friend.match_view is not None and friend.match_view.log.toPlainText().strip() != "")

        # The friend's connection drops: the app says so and reconnects by itself.
        b.status.connect(statuses.append)
        await b.client.drop()
        await until(lambda: any(s.startswith("Connected again") for s in statuses))
        assert any(s.startswith("Connection lost — reconnecting…") for s in statuses), statuses

        # Both players play the match to the end from their screens.
        rng = random.Random(3)
        views = [window.match_view, friend.match_view]
        deadline = time.monotonic() + 40
        while not all(v._finished for v in views):  # type: ignore[union-attr]
            assert time.monotonic() < deadline, "the match did not end"
            for view in views:
                assert view is not None
                data = view.view_data
                # The screen waits for this player: a position with choices, nothing still animating.
                if data and data.get("legal") and not view._queue and not view.animation.running and not view._finished:
                    view.play(rng.choice(data["legal"]))
            await asyncio.sleep(0.02)
        summaries = [v._finished for v in views]  # type: ignore[union-attr]
        assert summaries[0]["score"] == summaries[1]["score"]  # type: ignore[index]

        # Over: the relay sent the whole record, so both may save the match and watch the replay.
        for win, session in ((window, a), (friend, b)):
            record = session.record()
            assert record is not None and win.save_action.isEnabled()
            assert win.match_view is not None and win.match_view.summary_page.replay.isEnabled()
            saved = tmp_path / f"online-{session.local_seats()[0]}.soccerdesk.json"
            win.save_to(saved)
            game, loaded, _ = replay_match_file(saved)
            assert game.load(loaded).is_terminal() and list(game.load(loaded).score) == summaries[0]["score"]
            assert [p["name"] for p in loaded["app"]["players"]] == list(session.player_names())
        # Each side keeps the finished match with its autosaves: Recent matches lists it (QA: it
        # said "every match you play is saved here" and showed none of the online ones).
        for win in (window, friend):
            kept = sorted(win.settings.autosave_dir.glob(f"{GAME}-*.json"))
            assert len(kept) == 1, kept
            game, loaded, _ = replay_match_file(kept[0])
            assert list(game.load(loaded).score) == summaries[0]["score"]  # type: ignore[index]
        assert window.match_view.grab().save(str(tmp_path / "online-summary.png"))
        qtbot.mouseClick(window.match_view.summary_page.replay, Qt.MouseButton.LeftButton)
        assert window.replay_view is not None and window.pages.currentWidget() is window.replay_view

        # Rematch from both summary screens: a new match on both screens, seats swapped.
        seats = (a.local_seats(), b.local_seats())
        window.rematch()
        friend.rematch()
        await until(lambda: window.session is not a and friend.session is not b)
        a2, b2 = window.session, friend.session
        assert isinstance(a2, RemoteSession) and isinstance(b2, RemoteSession)
        assert (a2.local_seats(), b2.local_seats()) == (seats[1], seats[0])
        await until(lambda: window.match_view is not None and window.match_view.view_data is not None)
        shown = window.match_view.view_data if window.match_view is not None else None
        assert shown is not None and shown["ply"] < 20  # the new match's first position
        window.go_home()
        friend.go_home()
        # The host's seat is not kept for resuming (nor shown as waiting on its home screen): its
        # match lived in the host's app, whose relay stopped with it. The guest's seat is kept.
        assert remembered_seats(window.settings) == [] and not window.home.waiting.isVisible()
        assert len(remembered_seats(other_settings)) == 1

    run_on_qt_loop(scenario)
    friend.close()


def test_join_errors_are_shown_in_words(qtbot, window: MainWindow, tmp_path: Path) -> None:
    from server.relay import RelaySettings, start_relay

    async def scenario() -> None:
        relay = await start_relay(RelaySettings(host="127.0.0.1", port=0, db=str(tmp_path / "r.sqlite3")))
        try:
            dialog = open_online_dialog(window, kind="online", settings=window.settings)
            dialog.url_edit.setText(relay.url)
            dialog.code_edit.setText("ZZZZZZ")
            qtbot.mouseClick(dialog.join_button, Qt.MouseButton.LeftButton)
            await until(lambda: "No room" in dialog.status_label.text())
            assert dialog.join_button.isEnabled()  # the user may correct the code and try again
            dialog.url_edit.setText("ws://127.0.0.1:9/ws")  # nothing listens there
            qtbot.mouseClick(dialog.join_button, Qt.MouseButton.LeftButton)
            await until(lambda: "Cannot reach the relay" in dialog.status_label.text())
            assert "is the relay running" in dialog.status_label.text()  # in words, not the socket's text
            dialog.reject()
        finally:
            await relay.stop()

    run_on_qt_loop(scenario)


def test_remote_session_offers_the_claim_when_the_opponent_stays_away(
    qtbot, window: MainWindow, tmp_path: Path
) -> None:
    """Rules of the room: after the absent player's countdown, the present one may take the win."""
    from server.relay import RelaySettings, start_relay
    from soccerdesk.net.client import RelayClient
    from soccerdesk.rules import get_game

    offered: list[str] = []
    summaries: list[dict[str, Any]] = []

    async def scenario() -> None:
        relay = await start_relay(
            RelaySettings(host="127.0.0.1", port=0, db=str(tmp_path / "r.sqlite3"), min_seconds=1)
        )
        alice, bob = RelayClient(relay.url, name="Alice"), RelayClient(relay.url, name="Bob", reconnect=False)
        try:
            for c in (alice, bob):
                await c.connect()
            room = await alice.create(GAME, SHORT, seat=0, abandon_seconds=1)
            await bob.join(room["room"])
            await until(lambda: alice.view is not None and len([p for p in alice.players if p["name"]]) == 2)
            session = RemoteSession(get_game(GAME), alice)
            session.claim_offered.connect(offered.append)
            session.finished.connect(summaries.append)
            session.start()
            await until(lambda: alice.view is not None and 1 in alice.view["to_move"])
            await bob.drop()  # Bob owes a decision and is gone
            await until(lambda: offered == ["Bob"], timeout=5)
            session.claim("win")
            await until(lambda: bool(summaries))
            assert summaries[0]["winner"] == 0 and summaries[0]["reason"] == "abandoned"
            # Ended before full time, it is still saved and opened as a finished match: a replay.
            record = session.record()
            assert record is not None and record["app"]["result"]["reason"] == "abandoned"
            saved = tmp_path / "abandoned.soccerdesk.json"
            saved.write_text(json.dumps(record), encoding="utf-8")
            assert window.open_path(saved)
            assert window.replay_view is not None and window.pages.currentWidget() is window.replay_view
            session.close()
        finally:
            await bob.close()
            await relay.stop()

    run_on_qt_loop(scenario)


def test_two_windows_sharing_the_settings_each_resume_their_own_seat(qtbot, window: MainWindow, tmp_path: Path) -> None:
    """QA: two app windows on one computer share the settings. The second to take a seat
    overwrote the first's, so a window that crashed and came back resumed the other player's
    seat (her cards on the wrong screen, her connection taken). Both seats are kept now and
    "Resume a match…" names them. An address typed as host:port also reaches the relay."""
    from server.relay import RelaySettings, start_relay

    friend = MainWindow(window.settings)  # the second window: the same settings
    qtbot.addWidget(friend)

    async def scenario() -> None:
        relay = await start_relay(RelaySettings(host="127.0.0.1", port=0, db=str(tmp_path / "r.sqlite3")))
        address = f"127.0.0.1:{relay.port}"  # typed without ws:// and /ws
        try:
            host = open_online_dialog(window, kind="online", settings=window.settings)
            host.url_edit.setText(address)
            host.game_combo.setCurrentIndex(host.game_combo.findData(GAME))
            host.name_edit.setText("Alice")
            qtbot.mouseClick(host.go_button, Qt.MouseButton.LeftButton)
            await until(lambda: bool(host.code_label.text()))
            join = open_online_dialog(friend, kind="online", settings=window.settings)
            join.url_edit.setText(address)
            join.name_edit.setText("Bob")
            join.code_edit.setText(host.code_label.text())
            qtbot.mouseClick(join.join_button, Qt.MouseButton.LeftButton)
            await until(lambda: window.match_view is not None and friend.match_view is not None)
            a, b = window.session, friend.session
            assert isinstance(a, RemoteSession) and isinstance(b, RemoteSession)
            assert window.settings.get("online/relay_url", "") == relay.url  # remembered, written in full
            seats = remembered_seats(window.settings)
            assert [seat.name for seat in seats] == ["Bob", "Alice"] or [seat.name for seat in seats] == [
                "Alice",
                "Bob",
            ]
            alice_seat = a.local_seats()
            await asyncio.sleep(1.5)  # the match has been played a while
            # Alice's window is gone (as after kill -9: no goodbye) and comes back: she picks her own seat.
            await a.client.drop()
            window.go_home()
            again = open_online_dialog(window, kind="online", settings=window.settings)
            assert again.resume_button.text() == "Resume a match…"
            menu = again.resume_button.menu()
            assert menu is not None
            # Each entry names the game, the opponent and the score as this computer last saw them.
            entries = {action.text(): action for action in menu.actions()}
            code = host.code_label.text()
            assert set(entries) == {
                f"Soccer-Go with Bob, 0–0 — room {code} as Alice",
                f"Soccer-Go with Alice, 0–0 — room {code} as Bob",
            }
            entries[f"Soccer-Go with Bob, 0–0 — room {code} as Alice"].trigger()
            await until(lambda: window.session is not a and isinstance(window.session, RemoteSession))
            resumed = window.session
            assert isinstance(resumed, RemoteSession) and resumed.local_seats() == alice_seat
            assert b.client.connected  # Bob kept his seat
            # The time played goes on from the relay's count (it began again at 00:00), as Bob's does.
            await until(lambda: resumed.time_played() >= 1.5)
            assert abs(resumed.time_played() - b.time_played()) < 1.0
            window.go_home()
            friend.go_home()
        finally:
            await relay.stop()

    run_on_qt_loop(scenario)
    friend.close()


def test_the_lobby_says_when_the_relay_is_back_and_when_the_room_is_gone(
    qtbot, window: MainWindow, tmp_path: Path
) -> None:
    """QA: the lobby said "lost; reconnecting…" on every drop and kept saying it after the
    client was through again, and said the same when the room was gone for good. Now it
    says each: a restarted relay still holds the room (the friend joins with the code), and
    a relay that lost its rooms ends the wait with the reason."""
    from server.relay import RelaySettings, start_relay

    friend = MainWindow(window.settings)
    qtbot.addWidget(friend)

    async def scenario() -> None:
        db = str(tmp_path / "r.sqlite3")
        relay = await start_relay(RelaySettings(host="127.0.0.1", port=0, db=db))
        port = relay.port
        try:
            host = open_online_dialog(window, kind="online", settings=window.settings)
            host.url_edit.setText(relay.url)
            host.game_combo.setCurrentIndex(host.game_combo.findData(GAME))
            host.name_edit.setText("Alice")
            qtbot.mouseClick(host.go_button, Qt.MouseButton.LeftButton)
            await until(lambda: bool(host.code_label.text()))
            assert host.status_label.text() == "Waiting for your friend to join…"
            await relay.stop()
            await until(lambda: "reconnecting" in host.status_label.text())
            relay = await start_relay(RelaySettings(host="127.0.0.1", port=port, db=db))
            await until(lambda: "Connected again" in host.status_label.text(), timeout=15)
            assert "Waiting for your friend to join" in host.status_label.text()
            assert host.pages.currentWidget() is host.lobby_page
            join = open_online_dialog(friend, kind="online", settings=window.settings)
            join.url_edit.setText(relay.url)
            join.name_edit.setText("Bob")
            join.code_edit.setText(host.code_label.text())
            qtbot.mouseClick(join.join_button, Qt.MouseButton.LeftButton)
            await until(lambda: window.match_view is not None and friend.match_view is not None)
            window.go_home()
            friend.go_home()

            # A room the relay no longer has: the wait ends, with why.
            second = open_online_dialog(window, kind="online", settings=window.settings)
            second.url_edit.setText(relay.url)
            second.name_edit.setText("Alice")
            qtbot.mouseClick(second.go_button, Qt.MouseButton.LeftButton)
            await until(lambda: bool(second.code_label.text()))
            await relay.stop()
            await until(lambda: "reconnecting" in second.status_label.text())
            fresh = str(tmp_path / "fresh.sqlite3")  # the relay came back without its rooms
            relay = await start_relay(RelaySettings(host="127.0.0.1", port=port, db=fresh))
            await until(lambda: "lost for good" in second.status_label.text(), timeout=15)
            assert "reconnecting" not in second.status_label.text(), second.status_label.text()
            assert second.client is not None and second.client.status.startswith("lost: ")
            assert not second.code_label.isEnabled() and second.players_list.count() == 0
            second.reject()
        finally:
            await relay.stop()

    run_on_qt_loop(scenario)
    friend.close()


def test_a_spectator_who_joins_mid_match_reads_what_happened_so_far(
    qtbot, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """QA: a spectator's "What happened" stayed empty though the relay had sent the match's
    public events. When the relay's snapshot came after the join's answer had been handled,
    the screen was made without it and took it for a new match. Here the snapshot is held
    back a moment, as a slow machine would."""
    from soccerdesk.net.client import RelayClient

    take = RelayClient._take

    def late_snapshot(client: RelayClient, msg: dict[str, Any]) -> None:
        if msg["type"] == "snapshot" and client.spectator and client.view is None:
            asyncio.get_event_loop().call_later(0.3, take, client, msg)
            return
        take(client, msg)

    async def scenario() -> None:
        relay, alice, bob = await two_players(tmp_path)
        try:
            for _ in range(3):  # a few passes and marks, so there is something to read
                await until(lambda: alice.view is not None and bob.view is not None)
                for c in (alice, bob):
                    if c.view and c.view["legal"]:
                        await c.act(c.view["legal"][0], ply=c.view["ply"])
                await asyncio.sleep(0.1)
            monkeypatch.setattr(RelayClient, "_take", late_snapshot)
            watch = open_online_dialog(window, kind="online", settings=window.settings)
            watch.url_edit.setText(relay.url)
            watch.code_edit.setText(alice.room)
            watch.watch_box.setChecked(True)
            qtbot.mouseClick(watch.join_button, Qt.MouseButton.LeftButton)
            await until(lambda: window.match_view is not None and bool(window.match_view.log_lines()))
            assert any("Coin toss" in line for line in window.match_view.log_lines())
            session = window.session
            assert isinstance(session, RemoteSession) and session.match == alice.match
            window.go_home()
        finally:
            await bob.close()
            await alice.close()
            await relay.stop()

    run_on_qt_loop(scenario)


async def two_players(tmp_path: Path, names: tuple[str, str] = ("Alice", "Bob"), **create: Any) -> tuple[Any, Any, Any]:
    """A relay on 127.0.0.1 (port 0) with Alice (seat 0, the host) and Bob seated in a Soccer-Go
    room (``names``: theirs)."""
    from server.relay import RelaySettings, start_relay
    from soccerdesk.net.client import RelayClient

    relay = await start_relay(RelaySettings(host="127.0.0.1", port=0, db=str(tmp_path / "r.sqlite3"), min_seconds=1))
    alice, bob = RelayClient(relay.url, name=names[0]), RelayClient(relay.url, name=names[1], reconnect=False)
    for c in (alice, bob):
        await c.connect()
    room = await alice.create(GAME, SHORT, seat=0, **create)
    await bob.join(room["room"])
    await until(lambda: alice.view is not None and len([p for p in alice.players if p["name"]]) == 2)
    return relay, alice, bob


def remote_match_view(qtbot: Any, client: Any, speed: str = "off") -> Any:
    """Alice's match screen on a :class:`RemoteSession`, started (animations ``speed``)."""
    from soccerdesk.rules import get_game
    from soccerdesk.ui.match_view import MatchView

    session = RemoteSession(get_game(GAME), client)
    view = MatchView(session, speed=speed)
    qtbot.addWidget(view)
    view.resize(1100, 720)
    view.show()
    session.start()
    return view


def test_the_screen_names_the_remote_person_who_is_deciding(qtbot, tmp_path: Path) -> None:
    """Waiting for a person online is not the computer thinking: the screen names the opponent."""

    async def scenario() -> None:
        relay, alice, bob = await two_players(tmp_path)
        try:
            view = remote_match_view(qtbot, alice)
            await until(lambda: alice.view is not None and 0 in alice.view["to_move"] and bool(alice.view["legal"]))
            await alice.act(alice.view["legal"][0], ply=alice.view["ply"])
            await until(lambda: "Bob is deciding" in view.thinking_label.text())
            assert "computer" not in view.thinking_label.text()
            view.session.close()
        finally:
            await bob.close()
            await relay.stop()

    run_on_qt_loop(scenario)


def test_the_online_match_screen_has_a_plain_text_chat(qtbot, tmp_path: Path) -> None:
    """Both players talk in the match screen; what is typed is shown as text, never as markup."""

    async def scenario() -> None:
        relay, alice, bob = await two_players(tmp_path)
        try:
            await bob.chat("good luck")  # said before Alice's screen opened: shown from the history
            await until(lambda: len(alice.chat_lines) == 1)
            view = remote_match_view(qtbot, alice)
            assert view.chat_log is not None and view.chat_edit is not None
            assert view.chat_log.toPlainText() == "Bob: good luck"
            view.chat_edit.setText("<b>thanks</b> <img src=x>")
            qtbot.keyClick(view.chat_edit, Qt.Key.Key_Return)
            assert view.chat_edit.text() == ""
            await until(lambda: "thanks" in view.chat_log.toPlainText())
            assert view.chat_log.toPlainText().splitlines()[-1] == "Alice: <b>thanks</b> <img src=x>"
            await until(lambda: bob.chat_lines[-1]["text"] == "<b>thanks</b> <img src=x>")
            assert view.chat_edit.maxLength() == 500
            # Alice's connection drops while Bob talks: back again, she reads it once, nothing twice.
            await alice.drop()
            await bob.chat("are you there?")
            await until(lambda: alice.connected and "are you there?" in view.chat_log.toPlainText())
            assert view.chat_log.toPlainText().splitlines() == [
                "Bob: good luck",
                "Alice: <b>thanks</b> <img src=x>",
                "Bob: are you there?",
            ]
            assert view.grab().save(str(tmp_path / "online-chat.png"))  # renders offscreen without error
            view.session.close()
        finally:
            await bob.close()
            await relay.stop()

    run_on_qt_loop(scenario)


@pytest.mark.parametrize(
    ("looks_away", "speed"),
    [(False, "off"), (True, "off"), (False, "normal")],
    ids=["stays", "in-another-window", "stays-while-animated"],
)
def test_a_new_position_does_not_take_the_chat_line_away_from_a_player_typing(
    qtbot, tmp_path: Path, looks_away: bool, speed: str
) -> None:
    """Alice is typing when Bob's move arrives: her cursor and her half-typed line stay where they
    were, also when she was in another window meanwhile and comes back, and also when Bob's
    move is shown by an animation first (which she may skip with a click, not with her typing)."""
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QWidget

    async def scenario() -> None:
        relay, alice, bob = await two_players(tmp_path)
        try:
            view = remote_match_view(qtbot, alice, speed)
            view.activateWindow()
            await until(lambda: alice.view is not None and 0 in alice.view["to_move"] and bool(alice.view["legal"]))
            await until(lambda: view.view.hasFocus())  # her turn: the board has the keyboard
            assert view.chat_edit is not None
            QTest.mouseClick(view.chat_edit, Qt.MouseButton.LeftButton)
            QTest.keyClicks(view.chat_edit, "nice ")
            ply = alice.view["ply"]
            await alice.act(alice.view["legal"][0], ply=ply)
            elsewhere = QWidget()
            qtbot.addWidget(elsewhere)
            if looks_away:
                elsewhere.show()
                elsewhere.activateWindow()
                await until(lambda: not view.isActiveWindow())
            # Bob plays until Alice has a decision to make again in a position of its own.
            await until(lambda: alice.view["ply"] > ply)
            while not alice.view["legal"]:
                await until(lambda: bool(bob.view["legal"]) or bool(alice.view["legal"]))
                if bob.view["legal"] and not alice.view["legal"]:
                    moved = bob.view["ply"]
                    await bob.act(bob.view["legal"][0], ply=moved)
                    await until(lambda moved=moved: bob.view["ply"] > moved)
            await until(lambda: view.view_data is not None and view.view_data["ply"] == alice.view["ply"])
            assert view.view_data["legal"] and view.view_data["ply"] > ply
            if looks_away:
                view.activateWindow()
                await until(lambda: view.isActiveWindow())
            assert view.chat_edit.hasFocus()
            QTest.keyClicks(QApplication.focusWidget(), "move")
            assert view.chat_edit.text() == "nice move"
            view.session.close()
        finally:
            await bob.close()
            await relay.stop()

    run_on_qt_loop(scenario)


def test_turn_clock_and_abandonment_countdown_tick_on_screen(qtbot, tmp_path: Path) -> None:
    """Rules of the room: the per-turn clock and the absent player's countdown are shown counting down."""

    async def scenario() -> None:
        relay, alice, bob = await two_players(tmp_path, turn_seconds=30, abandon_seconds=20)
        try:
            view = remote_match_view(qtbot, alice)
            await until(lambda: alice.view is not None and 0 in alice.view["to_move"] and bool(alice.view["legal"]))
            await until(lambda: view.timer_label.text().startswith("Your turn: 0:"))
            first = view.timer_label.text()
            await until(lambda: view.timer_label.text() != first, timeout=3)  # it ticks between messages
            await alice.act(alice.view["legal"][0], ply=alice.view["ply"])
            await until(lambda: view.timer_label.text().startswith("Bob's turn: 0:"))
            await bob.drop()  # Bob owes a decision and is gone: his countdown runs on Alice's screen
            await until(lambda: "Bob is away: 0:" in view.timer_label.text())
            assert view.timer_label.text().split(" · ")[-1] in {f"Bob is away: 0:{s}" for s in ("20", "19", "18")}
            await until(lambda: "Waiting for Bob to come back" in view.thinking_label.text())
            assert view.grab().save(str(tmp_path / "online-timers.png"))
            view.session.close()
        finally:
            await bob.close()
            await relay.stop()

    run_on_qt_loop(scenario)


@pytest.mark.parametrize("told", [True, False], ids=["app-closed", "no-answer"])
def test_a_lan_guest_is_told_the_host_has_left(qtbot, tmp_path: Path, told: bool) -> None:
    """The host closes the app: its relay tells the guest at once (``told``); a host that
    vanished without a word (crash, network gone) is given up after a few tries. Either way
    the guest's screen says the host has left, and stops trying."""
    from server.relay import RelaySettings, start_relay
    from soccerdesk.net.client import RelayClient
    from soccerdesk.rules import get_game
    from soccerdesk.ui.match_view import MatchView

    left: list[str] = []
    statuses: list[str] = []

    async def scenario() -> None:
        relay = await start_relay(
            RelaySettings(host="127.0.0.1", port=0, db=str(tmp_path / "r.sqlite3"), host_app=told)
        )
        alice = RelayClient(relay.url, name="Alice", reconnect=False)
        bob = RelayClient(relay.url, name="Bob", pauses=(0.05, 0.1), max_attempts=3)
        try:
            for c in (alice, bob):
                await c.connect()
            room = await alice.create(GAME, SHORT, seat=0)
            await bob.join(room["room"])
            await until(lambda: bob.view is not None and len([p for p in bob.players if p["name"]]) == 2)
            session = RemoteSession(get_game(GAME), bob, lan_guest=True)
            view = MatchView(session, speed="off")
            qtbot.addWidget(view)
            session.host_left.connect(left.append)
            to_session = bob.on_status
            assert to_session is not None

            def tell(status: str) -> None:
                statuses.append(status)
                to_session(status)

            bob.on_status = tell
            session.start()
            if not told:
                await alice.close()  # the host's own connection goes first: only the guest's is told
            await relay.stop()  # the host's app closes: its relay goes with it
            await until(lambda: bool(left), timeout=10)
            assert left == ["Alice has left: the game on their computer is closed"]
            assert view.hint_label.text() == left[0] and view.thinking_label.text() == ""
            if told:  # no waiting at all
                assert not bob.gave_up and "reconnecting" not in statuses and bob.fatal_code == "host_left"
            else:
                assert bob.gave_up and statuses.count("reconnecting") == 1
            assert statuses[-1].startswith("lost")
            await asyncio.sleep(0.3)
            assert statuses[-1].startswith("lost")  # no more tries after giving up
            session.close()
        finally:
            await alice.close()
            await bob.close()
            await relay.stop()

    run_on_qt_loop(scenario)


def test_a_local_match_still_says_the_computer_is_thinking(qtbot) -> None:
    """Only a remote person "is deciding": against a bot at this screen the old words stay."""
    from soccerdesk.rules import get_game
    from soccerdesk.ui.match_view import MatchView
    from soccerdesk.ui.session import LocalSession, Player

    session = LocalSession(get_game(GAME), (Player("human", "Ann"), Player("bot", "Robo", bot="random")), seed=1)
    view = MatchView(session, speed="off")
    qtbot.addWidget(view)
    session.busy.emit(True)
    assert view.thinking_label.text().startswith("The computer is thinking")
    assert view.chat_log is None and view.timer_label.text() == ""  # no chat, no clocks in a local match
    session.close()


def test_the_screenshot_command_draws_the_play_online_dialog(tmp_path: Path) -> None:
    """The installers' smoke test runs this in the frozen app: it fails where a build left network play out."""
    from PySide6.QtGui import QImage

    from soccerdesk.app import main

    path = tmp_path / "online.png"
    assert main(["--screenshot", "online:soccero", str(path)]) == 0
    picture = QImage(str(path))
    assert picture.width() >= 400 and picture.height() >= 300
    assert main(["--screenshot", "online:chess", str(tmp_path / "none.png")]) == 2
