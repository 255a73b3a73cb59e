"""What an online match screen says and offers while the relay is away, and what it says when a
player comes back (QA online audit, items 1, 2, 5 and 8).

Each test runs a real relay on 127.0.0.1 (port 0) and the app's match screen on a qasync loop;
the player clicks the board's viewport and types into the chat line, as a person does.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from clicking import click, deciding, target_spot
from PySide6.QtCore import QPoint, QSettings, Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QWidget
from test_online import run_on_qt_loop, two_players, until  # the online tests' loop, players, waiting
from test_online_truth import screen  # a player's match screen and the statuses it was told

from server.relay import HALL
from soccerdesk.ui.match_view import MatchView
from soccerdesk.ui.online import OnlineDialog, RememberedSeat, RemoteSession, remember_seat
from soccerdesk.ui.settings import AppSettings


async def click_soon(qtbot: Any, widget: QWidget, pos: QPoint, what: str) -> None:
    """:func:`clicking.click`, from the Qt event loop rather than inside the test's task: a move
    sent by the click is a task of its own, which may not start inside another task's step."""
    done = asyncio.Event()

    def now() -> None:
        click(qtbot, widget, pos, what)
        done.set()

    QTimer.singleShot(0, now)
    await done.wait()
    await asyncio.sleep(0.05)


def test_while_the_relay_is_down_the_board_offers_nothing_and_a_chat_line_is_kept(qtbot, tmp_path: Path) -> None:
    """QA online audit, item 1: with the relay gone, the board offered the whole turn and let go
    of a move clicked; a chat line sent then was cleared and never arrived. Now the board offers
    nothing and says the player moves again once the connection is back; the chat line stays in
    the box, said not sent, and goes once the relay is back."""
    from server.relay import RelaySettings, start_relay

    async def scenario() -> None:
        db = str(tmp_path / "r.sqlite3")
        relay, alice, bob = await two_players(tmp_path)
        port = relay.port
        view, _said = screen(qtbot, alice)
        try:
            await until(lambda: deciding(view) and alice.seat in (alice.view or {}).get("to_move", ()))
            paths = view.board.paths.paths
            action = next((t for t, path in paths.items() if len(path) > 1), next(iter(paths)))
            path = paths[action]
            if len(path) > 1:  # half a move: the card is picked, its target not yet
                click(qtbot, view.view.viewport(), target_spot(view, path[0]), f"{path[0]} of {action!r}")
                assert view.board.selection == path[:1]
            spot = target_spot(view, path[-1])
            ply = alice.view["ply"]  # type: ignore[index]

            await relay.stop()
            await until(lambda: alice.status == "reconnecting")
            await until(lambda: not view.board.targets and not (view.view_data or {}).get("legal"))
            assert view.board.selection == ()
            assert "once the connection is back" in view.hint_label.text(), view.hint_label.text()
            QTest.mouseClick(view.view.viewport(), Qt.MouseButton.LeftButton, pos=spot)  # nothing is on offer
            assert "once the connection is back" in view.hint_label.text(), view.hint_label.text()

            assert view.chat_edit is not None
            QTest.mouseClick(view.chat_edit, Qt.MouseButton.LeftButton)
            QTest.keyClicks(view.chat_edit, "are you there?")
            QTest.keyClick(view.chat_edit, Qt.Key.Key_Return)
            await until(lambda: "not sent" in view.hint_label.text().lower())
            assert view.chat_edit.text() == "are you there?"
            assert "are you there?" not in view.chat_log.toPlainText()  # type: ignore[union-attr]

            relay = await start_relay(RelaySettings(host="127.0.0.1", port=port, db=db))
            await until(lambda: alice.connected and deciding(view), timeout=15)
            assert alice.view is not None and alice.view["ply"] == ply  # the move was never sent
            assert "once the connection is back" not in view.hint_label.text()
            QTest.mouseClick(view.chat_edit, Qt.MouseButton.LeftButton)
            QTest.keyClick(view.chat_edit, Qt.Key.Key_Return)
            await until(lambda: "Alice: are you there?" in view.chat_log.toPlainText())  # type: ignore[union-attr]
            assert view.chat_edit.text() == ""
            for step in path:  # the move, played again once the relay is back, is played
                await click_soon(qtbot, view.view.viewport(), target_spot(view, step), f"{step} of {action!r}")
            await until(lambda: alice.seq > ply)
        finally:
            view.session.close()
            await bob.close()
            await relay.stop()

    run_on_qt_loop(scenario)


def screens_of(qtbot: Any, dialog: OnlineDialog, screens: list[MatchView]) -> None:
    """The match screen the dialog's session gets, as the main window makes it (added to
    ``screens`` once the dialog hands the session over)."""

    def show(session: RemoteSession) -> None:
        view = MatchView(session, speed="off")
        qtbot.addWidget(view)
        view.resize(1280, 760)
        view.show()
        session.start()
        screens.append(view)

    dialog.session_ready.connect(show)


def test_a_timeout_long_past_is_not_told_to_a_screen_that_comes_in_later(qtbot, tmp_path: Path) -> None:
    """QA online audit, item 2: after Alice's pick had run out of time once, a screen that came in
    later (Bob resuming, Carol watching) said "Time ran out: the computer is finishing Alice's
    turn" (and "alice's"), while Alice had her whole time for the pick she was making. Only a
    timeout happening now is told."""
    settings = AppSettings(QSettings(str(tmp_path / "b.ini"), QSettings.Format.IniFormat), tmp_path / "b")

    async def scenario() -> None:
        relay, alice, bob = await two_players(tmp_path, turn_seconds=6)
        room, token = bob.room or "", bob.token or ""
        remember_seat(settings, RememberedSeat(relay.url, room, token, "Bob"))
        screens: list[MatchView] = []
        try:
            # Bob picks at once; Alice does not, and the computer picks for her.
            await until(lambda: bool(bob.view and bob.view["legal"]))
            await bob.act(bob.view["legal"][0], ply=bob.view["ply"])  # type: ignore[index]
            await until(lambda: any(e[1] == 0 for e in relay.app[HALL].rooms[room]._computer), timeout=12)
            # Her next pick is her own, with a fresh clock; Bob's app is gone meanwhile (no goodbye).
            await until(lambda: bool(alice.view and alice.view["legal"]) and "0" in alice.clock)
            await bob.drop()

            back = OnlineDialog("online", settings)
            qtbot.addWidget(back)
            back.show()
            screens_of(qtbot, back, screens)
            qtbot.mouseClick(back.resume_button, Qt.MouseButton.LeftButton)
            watch = OnlineDialog("online", settings)
            qtbot.addWidget(watch)
            watch.show()
            screens_of(qtbot, watch, screens)
            watch.url_edit.setText(relay.url)
            watch.name_edit.setText("Carol")
            QTest.keyClicks(watch.code_edit, room)
            box = watch.watch_box
            qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=QPoint(8, box.height() // 2))  # its tick box
            assert box.isChecked()
            qtbot.mouseClick(watch.join_button, Qt.MouseButton.LeftButton)
            await until(lambda: len(screens) == 2 and all(s.view_data is not None for s in screens))
            await asyncio.sleep(0.3)
            assert "0" in alice.clock and 0 in alice.view["to_move"]  # type: ignore[index]  # still her own pick
            for view in screens:
                said = f"{view.hint_label.text()} / {view.thinking_label.text()}"
                assert "Time ran out" not in said and "alice's" not in said, said
        finally:
            for view in screens:
                view.session.close()
            await alice.close()
            await bob.close()
            await relay.stop()

    run_on_qt_loop(scenario)


def test_the_relays_words_are_sentences_and_a_player_who_types_their_own_room_is_sent_to_resume(
    qtbot, tmp_path: Path
) -> None:
    """QA online audit, item 8: the relay's messages were shown in lower case ("no room has the
    code …"), and Bob, back after a crash, typed his own room's code and read "room … already has
    two players; you may spectate", though the app keeps his seat there."""
    settings = AppSettings(QSettings(str(tmp_path / "b.ini"), QSettings.Format.IniFormat), tmp_path / "b")
    home = QWidget()  # the app's window stays open (its last window closed would end the loop)
    qtbot.addWidget(home)
    home.show()

    async def scenario() -> None:
        relay, alice, bob = await two_players(tmp_path)
        room, token = bob.room or "", bob.token or ""
        try:
            dialog = OnlineDialog("online", settings)
            qtbot.addWidget(dialog)
            dialog.show()
            dialog.url_edit.setText(relay.url)
            QTest.keyClicks(dialog.code_edit, "ZZZZZZ" if room != "ZZZZZZ" else "YYYYYY")
            qtbot.mouseClick(dialog.join_button, Qt.MouseButton.LeftButton)
            await until(lambda: "room" in dialog.status_label.text())
            assert dialog.status_label.text().startswith("No room has the code"), dialog.status_label.text()

            await bob.drop()  # Bob's app is gone (no goodbye); it keeps his seat
            remember_seat(settings, RememberedSeat(relay.url, room, token, "Bob"))
            again = OnlineDialog("online", settings)
            qtbot.addWidget(again)
            again.show()
            again.url_edit.setText(relay.url)
            QTest.keyClicks(again.code_edit, room)
            qtbot.mouseClick(again.join_button, Qt.MouseButton.LeftButton)
            await until(lambda: room in again.status_label.text())
            said = again.status_label.text()
            assert "Resume my last match" in said and "spectate" not in said, said
            again.reject()
            dialog.reject()
        finally:
            await alice.close()
            await bob.close()
            await relay.stop()

    run_on_qt_loop(scenario)


def test_the_player_who_comes_back_reads_back_in_the_match_not_that_the_opponent_is_here(qtbot, tmp_path: Path) -> None:
    """QA online audit, item 5: Alice came back with "Resume my last match" and read "Bob is here ·
    Your move", though Bob had never left. She reads that she is back; Bob reads that she is."""
    settings = AppSettings(QSettings(str(tmp_path / "a.ini"), QSettings.Format.IniFormat), tmp_path / "a")

    async def scenario() -> None:
        relay, alice, bob = await two_players(tmp_path, abandon_seconds=60)
        room, token = alice.room or "", alice.token or ""
        remember_seat(settings, RememberedSeat(relay.url, room, token, "Alice"))
        theirs, said = screen(qtbot, bob)
        screens: list[MatchView] = []
        try:
            await alice.close()  # Alice's app is gone
            await until(lambda: any("Alice lost the connection" in s for s in said))
            back = OnlineDialog("online", settings)
            qtbot.addWidget(back)
            back.show()
            screens_of(qtbot, back, screens)
            qtbot.mouseClick(back.resume_button, Qt.MouseButton.LeftButton)
            await until(lambda: bool(screens) and screens[0].view_data is not None)
            mine = screens[0]
            await until(lambda: "Back in the match" in mine.hint_label.text())
            await asyncio.sleep(0.3)  # the relay's presence message after the resume changes nothing
            assert "Back in the match" in mine.hint_label.text(), mine.hint_label.text()
            assert "Bob is here" not in mine.hint_label.text()
            await until(lambda: "Alice is here" in theirs.hint_label.text())
        finally:
            for view in screens:
                view.session.close()
            theirs.session.close()
            await alice.close()
            await relay.stop()

    run_on_qt_loop(scenario)
