"""What an online match screen says and offers while the relay is away, and what it says when a
player comes back (QA online audit, items 1, 2, 5 and 8).

Each test runs a real relay on 127.0.0.1 (port 0) and the app's match screen on a qasync loop;
the player clicks the board's viewport and types into the chat line, as a person does.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clicking import click, deciding, target_spot
from PySide6.QtCore import QPoint, QSettings, Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QWidget
from test_online import GAME, SHORT, run_on_qt_loop, two_players, until  # the online tests' loop, players, waiting
from test_online_truth import screen  # a player's match screen and the statuses it was told

from server.relay import HALL
from soccerdesk.ui.match_view import MatchView
from soccerdesk.ui.online import HELD_NOT_PLAYED, OnlineDialog, RememberedSeat, RemoteSession, remember_seat
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


@dataclass
class AliceAtHerScreen:
    """A relay with Alice and Bob seated (:func:`two_players`), and Alice's match screen."""

    relay: Any
    alice: Any
    bob: Any
    view: MatchView
    said: list[str]


@contextlib.asynccontextmanager
async def alice_at_her_screen(qtbot: Any, tmp_path: Path, **create: Any) -> AsyncIterator[AliceAtHerScreen]:
    """Alice's screen on a relay on 127.0.0.1; her screen, Bob and the relay (``relay``: the one
    running at the end, when a test starts another) are closed afterwards."""
    relay, alice, bob = await two_players(tmp_path, **create)
    view, said = screen(qtbot, alice)
    match = AliceAtHerScreen(relay, alice, bob, view, said)
    try:
        yield match
    finally:
        view.session.close()
        # Her connection is closed in the background: wait for it, or the loop ends with its
        # reader pending (and destroyed outside any loop).
        await until(lambda: alice.status == "closed", timeout=10)
        await bob.close()
        await match.relay.stop()


async def click_a_move(qtbot: Any, view: MatchView) -> str:
    """Play one of the moves the board offers by clicking each spot of its click path (one of
    two clicks or more, when there is one); returns the action."""
    paths = view.board.paths.paths
    assert paths, "the board offers no move"
    action = next((t for t, path in paths.items() if len(path) > 1), next(iter(paths)))
    for step in paths[action]:
        await click_soon(qtbot, view.view.viewport(), target_spot(view, step), f"{step} of {action!r}")
    return action


def test_a_move_and_a_chat_line_made_while_the_relay_is_down_are_kept_and_sent_once_it_is_back(
    qtbot, tmp_path: Path
) -> None:
    """QA online audit, item 1: with the relay gone, a move clicked on the board was let go and
    a chat line sent was cleared, and neither ever arrived. Now the board still offers the move;
    the move clicked is kept, the board says so and offers nothing more, and the chat line is
    kept too; once the relay is back, both go, and the match goes on from the move."""
    from server.relay import RelaySettings, start_relay

    async def scenario() -> None:
        async with alice_at_her_screen(qtbot, tmp_path) as match:
            relay, alice, view = match.relay, match.alice, match.view
            db = str(tmp_path / "r.sqlite3")
            port = relay.port
            await until(lambda: deciding(view) and alice.seat in (alice.view or {}).get("to_move", ()))
            ply = alice.view["ply"]  # type: ignore[index]

            await relay.stop()
            await until(lambda: alice.status == "reconnecting")
            await asyncio.sleep(0.1)
            assert "you can still make your move" in view.hint_label.text().lower(), view.hint_label.text()
            await click_a_move(qtbot, view)  # the board still offers the move while the relay is away
            await until(lambda: "move is kept" in view.hint_label.text())
            assert not (view.view_data or {}).get("legal")  # nothing more to play meanwhile
            assert alice.seq == ply

            assert view.chat_edit is not None
            QTest.mouseClick(view.chat_edit, Qt.MouseButton.LeftButton)
            QTest.keyClicks(view.chat_edit, "are you there?")
            QTest.keyClick(view.chat_edit, Qt.Key.Key_Return)
            await until(lambda: "chat line is kept" in view.hint_label.text())
            assert view.chat_edit.text() == ""
            assert "are you there?" not in view.chat_log.toPlainText()  # type: ignore[union-attr]

            match.relay = await start_relay(RelaySettings(host="127.0.0.1", port=port, db=db))
            await until(lambda: alice.connected and alice.seq > ply, timeout=15)  # the kept move was played
            assert alice.seat not in alice.view["to_move"]  # type: ignore[index]  # her pick is in
            await until(lambda: "Alice: are you there?" in view.chat_log.toPlainText())  # type: ignore[union-attr]
            await until(lambda: "was sent" in view.hint_label.text(), timeout=3)
            assert "not played" not in view.hint_label.text(), view.hint_label.text()

    run_on_qt_loop(scenario)


def test_a_move_kept_while_away_that_the_computer_made_meanwhile_is_said_not_played(qtbot, tmp_path: Path) -> None:
    """QA online audit, item 1: a move kept while the connection is down may no longer stand
    when it is back. Alice's connection drops; she picks; her turn clock runs out at the relay
    meanwhile and the computer picks for her. Back, her kept pick is not sent, and her screen
    says why."""

    async def scenario() -> None:
        async with alice_at_her_screen(qtbot, tmp_path, turn_seconds=2) as match:
            relay, alice, view = match.relay, match.alice, match.view
            room = alice.room or ""
            await until(lambda: deciding(view) and alice.seat in (alice.view or {}).get("to_move", ()))
            alice.pauses = (5.0,)  # she comes back after the relay's clock ran out
            await alice.drop()
            await until(lambda: alice.status == "reconnecting")
            await click_a_move(qtbot, view)
            await until(lambda: "move is kept" in view.hint_label.text())
            await until(lambda: any(e[1] == 0 for e in relay.app[HALL].rooms[room]._computer), timeout=8)
            await until(lambda: alice.connected, timeout=10)
            await until(lambda: "was not played" in view.hint_label.text())
            said = view.hint_label.text()
            assert "time ran out" in said and "computer chose for you" in said, said

    run_on_qt_loop(scenario)


def test_a_secret_pick_kept_while_away_still_stands_after_the_other_players_pick(qtbot, tmp_path: Path) -> None:
    """Soccer-Go's picks are made by both players at once. Alice's connection drops; she picks,
    and her pick is kept; Bob picks meanwhile, so the match moved on a ply. Her pick still fits
    her position (the relay's ply rule: only the other seat's secret choice came between), so it
    is sent and played once she is back, not thrown away."""

    async def scenario() -> None:
        async with alice_at_her_screen(qtbot, tmp_path) as match:
            alice, bob, view = match.alice, match.bob, match.view
            await until(lambda: deciding(view) and alice.seat in (alice.view or {}).get("to_move", ()))
            await until(lambda: bool(bob.view and bob.seat in bob.view["to_move"]))  # a pick of both at once
            ply = alice.seq
            alice.pauses = (2.0,)
            await alice.drop()
            await until(lambda: alice.status == "reconnecting")
            await click_a_move(qtbot, view)
            await until(lambda: "move is kept" in view.hint_label.text())
            await bob.act(bob.view["legal"][0], ply=bob.seq)  # type: ignore[index]
            await until(lambda: bob.seq == ply + 1)
            await until(lambda: alice.connected and alice.seq > ply + 1, timeout=10)  # hers landed after his (ply + 2)
            await asyncio.sleep(0.2)
            assert "not played" not in view.hint_label.text(), view.hint_label.text()

    run_on_qt_loop(scenario)


def test_what_was_kept_is_given_back_when_the_client_stops_reconnecting(qtbot, tmp_path: Path) -> None:
    """QA online audit, item 1: a move and a chat line kept while the relay is away are not lost
    silently when the app gives up on the relay: the screen says the move was not sent, and the
    chat line comes back to the box, said not sent."""

    async def scenario() -> None:
        async with alice_at_her_screen(qtbot, tmp_path) as match:
            relay, alice, view = match.relay, match.alice, match.view
            await until(lambda: deciding(view) and alice.seat in (alice.view or {}).get("to_move", ()))
            alice.pauses, alice.max_attempts = (0.3,), 3
            await relay.stop()
            await until(lambda: alice.status == "reconnecting")
            await click_a_move(qtbot, view)
            await until(lambda: "move is kept" in view.hint_label.text())
            assert view.chat_edit is not None
            QTest.mouseClick(view.chat_edit, Qt.MouseButton.LeftButton)
            QTest.keyClicks(view.chat_edit, "still there?")
            QTest.keyClick(view.chat_edit, Qt.Key.Key_Return)
            assert view.chat_edit.text() == ""
            await until(lambda: alice.gave_up, timeout=10)
            await until(lambda: view.chat_edit is not None and view.chat_edit.text() == "still there?")
            assert "not sent" in view.hint_label.text().lower(), view.hint_label.text()
            said = " / ".join(match.said)
            assert "Disconnected:" in said and "your kept move was not sent" in said, said

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


async def keep_a_move(qtbot: Any, match: AliceAtHerScreen, send_by: Callable[[str], Awaitable[None]]) -> None:
    """Alice's connection drops and she makes a move on her board, which is kept; her client
    sends from then on through ``send_by`` (a test's way up: slow, or cut behind a frame) and
    comes back after 0.2 s."""
    alice = match.alice
    alice.send_raw = send_by  # type: ignore[method-assign]
    alice.pauses = (0.2,)
    await alice.drop()
    await until(lambda: alice.status == "reconnecting")
    await click_a_move(qtbot, match.view)
    await until(lambda: "move is kept" in match.view.hint_label.text())


def test_a_kept_move_refused_after_the_opponents_move_came_in_is_still_said_not_played(qtbot, tmp_path: Path) -> None:
    """QA online audit, item 1, a race: Alice's kept pick is sent once she is back, and is slow on
    its way up. Meanwhile Bob picks (his update reaches her first) and her turn clock runs out,
    so the relay's computer picks for her; her kept pick then arrives and is refused. The update
    of Bob's pick did not settle her kept move, so the refusal still says it is the move made
    while the connection was down that was not played, not a refusal of a move just made."""

    async def scenario() -> None:
        async with alice_at_her_screen(qtbot, tmp_path, turn_seconds=4) as match:
            relay, alice, bob, view = match.relay, match.alice, match.bob, match.view
            room = alice.room or ""
            refusals: list[str] = []
            view.session.refused.connect(refusals.append)
            await until(lambda: deciding(view) and alice.seat in (alice.view or {}).get("to_move", ()))
            await until(lambda: bool(bob.view and bob.seat in bob.view["to_move"]))  # a pick of both at once
            ply = alice.seq

            # A slow way up: an act leaves Alice's app and waits on the way until let through.
            through = asyncio.Event()
            send_raw = alice.send_raw

            async def slow_send(text: str) -> None:
                if json.loads(text)["type"] == "act":
                    await through.wait()
                await send_raw(text)

            await keep_a_move(qtbot, match, send_by=slow_send)
            await until(lambda: alice.connected and "was sent" in view.hint_label.text())

            await bob.act(bob.view["legal"][0], ply=bob.seq)  # type: ignore[index]
            await until(lambda: alice.seq > ply)  # Bob's pick has reached Alice's screen
            await until(lambda: any(e[1] == 0 for e in relay.app[HALL].rooms[room]._computer), timeout=10)
            through.set()  # her kept pick arrives, on a position that changed
            await until(lambda: bool(refusals))
            assert refusals[-1].startswith(HELD_NOT_PLAYED + ": "), refusals
            assert "position changed" in refusals[-1], refusals
            assert HELD_NOT_PLAYED in view.hint_label.text(), view.hint_label.text()

    run_on_qt_loop(scenario)


def test_a_kept_move_whose_answer_went_with_the_connection_is_settled_by_the_next_snapshot(
    qtbot, tmp_path: Path
) -> None:
    """The kept pick is sent once Alice is back, and the connection goes again right after it left:
    the relay plays it, but its update is lost with the connection. The snapshot she gets on coming
    back shows her pick played; no answer about it will come on the new connection, so the mark of
    a kept move on its way goes (a later refusal is not told as that of her kept move)."""

    async def scenario() -> None:
        async with alice_at_her_screen(qtbot, tmp_path) as match:
            alice, view = match.alice, match.view
            session = view.session
            await until(lambda: deciding(view) and alice.seat in (alice.view or {}).get("to_move", ()))
            ply = alice.seq

            # The connection goes right after an act leaves, before anything comes back on it.
            send_raw = alice.send_raw
            cut: list[str] = []

            async def send_then_cut(text: str) -> None:
                await send_raw(text)
                if json.loads(text)["type"] == "act" and not cut:
                    cut.append(text)
                    await alice.drop()

            await keep_a_move(qtbot, match, send_by=send_then_cut)
            await until(lambda: bool(cut))  # sent on resuming, and the connection went behind it
            await until(lambda: alice.connected and alice.seq > ply, timeout=10)  # back: her pick was played
            assert alice.seat not in alice.view["to_move"]  # type: ignore[index]
            assert session._held_sent is None  # type: ignore[attr-defined]

    run_on_qt_loop(scenario)


def test_a_move_the_relay_could_not_save_is_said_not_played_kept_and_played_once_it_can(qtbot, tmp_path: Path) -> None:
    """Relay audit 2, finding 1: the relay's disk is full when Alice clicks her move. The relay
    cannot store it, so it is not played (the board does not show it), and her screen says so;
    the move is kept, and once the relay can save again her app resumes and sends it, and the
    match goes on from it. The relay runs in a process of its own, whose disk is made full
    (``tests.relay_process.disk_full``)."""
    from soccerdesk.net.client import RelayClient
    from tests.relay_process import RelayProcess, disk_full, kill_process

    relay = RelayProcess(tmp_path / "relay.sqlite3")

    async def scenario() -> None:
        alice = RelayClient(relay.url, name="Alice", pauses=(0.2, 0.3))
        bob = RelayClient(relay.url, name="Bob", pauses=(0.2, 0.3))
        for c in (alice, bob):
            await c.connect()
        room = await alice.create(GAME, SHORT, seat=0)
        await bob.join(room["room"])
        await until(lambda: alice.view is not None and len([p for p in alice.players if p["name"]]) == 2)
        view, said = screen(qtbot, alice)
        try:
            await until(lambda: deciding(view) and alice.seat in (alice.view or {}).get("to_move", ()))
            ply = alice.seq
            disk_full(relay.proc, True)
            await click_a_move(qtbot, view)
            await until(lambda: any("could not save your move" in line for line in said), timeout=3)
            assert any("not played" in line for line in said), said
            await until(lambda: alice.status == "reconnecting")
            await asyncio.sleep(0.6)  # resumes refused while the disk is full
            assert alice.seq == ply and (view.view_data or {}).get("ply") == ply  # not shown as played
            assert not (view.view_data or {}).get("legal")  # kept: nothing more to play meanwhile
            assert "kept" in view.hint_label.text(), view.hint_label.text()  # also while it cannot save

            disk_full(relay.proc, False)
            await until(lambda: alice.connected and alice.seq > ply, timeout=15)  # the kept move was played
            assert alice.seat not in alice.view["to_move"]  # type: ignore[index]
            await until(lambda: "was sent" in view.hint_label.text(), timeout=3)
            assert "not played" not in view.hint_label.text(), view.hint_label.text()
        finally:
            view.session.close()
            await until(lambda: alice.status == "closed", timeout=10)
            await bob.close()

    try:
        run_on_qt_loop(scenario)
    finally:
        kill_process(relay.proc)
