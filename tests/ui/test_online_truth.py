"""An online match's screens tell the truth (QA pass 10, findings 1, 2, 3, 5 and 7).

Who decided (the player, or the relay's computer because the clock ran out or the player
did not come back), how a match that did not reach full time ended, who is who with long or
identical names, and what "Your move" is, whatever the presence messages say. Each test runs
a real relay on 127.0.0.1 (port 0) and the app's match screens on a qasync loop.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton
from test_online import GAME, run_on_qt_loop, two_players, until  # the online tests' game, loop, players, waiting

from soccerdesk.rules import get_game
from soccerdesk.ui.match_view import MatchView
from soccerdesk.ui.online import OnlineDialog, RememberedSeat, RemoteSession, _ask_claim, remember_seat
from soccerdesk.ui.settings import AppSettings

LONG = "Maximiliana Konstantinopoulou-Wertheimer"  # 40 characters, the most a name may have


def screen(
    qtbot: Any, client: Any, events: list[dict[str, Any]] | None = None, game: str = GAME
) -> tuple[MatchView, list[str]]:
    """A player's match screen on ``client`` (animations off) and the statuses it was told;
    ``events``: what the client was told before (as the dialog hands them over)."""
    session = RemoteSession(get_game(game), client, events=events)
    statuses: list[str] = []
    session.status.connect(statuses.append)
    view = MatchView(session, speed="off")
    qtbot.addWidget(view)
    view.resize(1280, 760)
    view.show()
    session.start()
    return view, statuses


def claim_by_clicking(qtbot: Any, view: MatchView, button_text: str) -> None:
    """The claim box comes up as the app shows it; the player clicks one of its buttons."""
    session = view.session
    session.claim_offered.connect(lambda name: _ask_claim(view, session, name))  # type: ignore[attr-defined]

    async def click() -> None:
        await until(lambda: view.findChild(QMessageBox, "online-claim") is not None, timeout=6)
        box = view.findChild(QMessageBox, "online-claim")
        button = next(b for b in box.findChildren(QPushButton) if b.text() == button_text)
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)

    return click()  # type: ignore[return-value]


async def come_back(relay: Any, room: str, token: str) -> Any:
    from soccerdesk.net.client import RelayClient

    back = RelayClient(relay.url, name="Bob")
    back.told = []  # type: ignore[attr-defined]  # the snapshot's events, for the screen's log
    back.on_message = lambda msg: back.told.extend(msg["events"]) if msg["type"] == "snapshot" else None
    await back.connect()
    await back.resume(room, token)
    await until(lambda: back.view is not None)
    return back


def test_when_the_clock_runs_out_both_screens_say_the_computer_chose(qtbot, tmp_path: Path) -> None:
    """protocol.md, "Per-turn clock": the relay's bot finishes a turn whose time ran out. Neither
    screen may say the player chose; both logs say the computer did (QA 10, finding 1)."""

    async def scenario() -> None:
        relay, alice, bob = await two_players(tmp_path, turn_seconds=2)
        try:
            mine, said = screen(qtbot, alice)
            theirs, _ = screen(qtbot, bob)
            line = "Time ran out: the computer chooses for Alice."
            # Bob plays at once; Alice does nothing, and her clock runs out.
            deadline = time.monotonic() + 12
            while line not in mine.log_lines():
                assert time.monotonic() < deadline, mine.log_lines()
                view = bob.view
                if view is not None and bob.seat in view["to_move"] and view["legal"]:
                    await bob.act(view["legal"][0], ply=view["ply"])
                await asyncio.sleep(0.05)
            await until(lambda: line in theirs.log_lines())
            assert any(s.startswith("Time ran out: the computer chose for you") for s in said), said
            assert not any(s.startswith("You chose") for s in said)
        finally:
            mine.session.close()
            theirs.session.close()
            await bob.close()
            await relay.stop()

    run_on_qt_loop(scenario)


def test_computer_plays_on_is_shown_and_the_returning_player_is_told_what_it_played(qtbot, tmp_path: Path) -> None:
    """README: a player who does not come back can be replaced by the computer. The scoreboard
    names the seat "(computer)", the status says so, and the player who comes back reads what
    was played for them (QA 10, finding 2)."""

    async def scenario() -> None:
        relay, alice, bob = await two_players(tmp_path, abandon_seconds=1)
        room, token = bob.room, bob.token
        try:
            mine, said = screen(qtbot, alice)
            await until(lambda: bob.view is not None and bob.seat in bob.view["to_move"])
            await bob.drop()
            await claim_by_clicking(qtbot, mine, "Computer plays on")
            await until(lambda: "Bob (computer)" in mine.score_label.text())
            await until(lambda: any("The computer plays for Bob" in s for s in said))
            await until(lambda: any(line.startswith("The computer plays for Bob") for line in mine.log_lines()))
            await until(lambda: alice.view is not None and bool(alice.view["legal"]))
            mine.play(alice.view["legal"][0])  # type: ignore[index]
            back = await come_back(relay, room, token)
            theirs, told = screen(qtbot, back, back.told)
            await until(lambda: any(s.startswith("While you were away the computer played for you: ") for s in told))
            await until(lambda: any("While you were away the computer played for you" in x for x in theirs.log_lines()))
            await until(lambda: "(computer)" not in mine.score_label.text())  # he is back: his own name again
            theirs.session.close()
            await back.close()
        finally:
            mine.session.close()
            await bob.close()
            await relay.stop()

    run_on_qt_loop(scenario)


def test_a_win_by_abandonment_says_why_on_both_sides(qtbot, tmp_path: Path) -> None:
    """protocol.md: ``finished`` with reason ``abandoned``. The result page, the header and the log
    say the other player did not come back, not "Full time" (QA 10, finding 3)."""

    async def scenario() -> None:
        relay, alice, bob = await two_players(tmp_path, abandon_seconds=1)
        room, token = bob.room, bob.token
        try:
            mine, _ = screen(qtbot, alice)
            await until(lambda: bob.view is not None and bob.seat in bob.view["to_move"])
            await bob.drop()
            await claim_by_clicking(qtbot, mine, "Take the win")
            words = "You win: Bob did not come back."
            await until(lambda: mine.stack.currentWidget() is mine.summary_page)
            page = mine.summary_page.label.text()
            assert words in page and "Match over" in page and "Full time" not in page
            assert mine.phase_label.text() == words  # not "Turn 1 of …"
            assert words in mine.log_lines()
            assert mine.thinking_label.text() == ""  # nobody is waited for any more
            back = await come_back(relay, room, token)
            theirs, _ = screen(qtbot, back, back.told)
            await until(lambda: theirs.stack.currentWidget() is theirs.summary_page)
            assert "Alice wins: you did not come back." in theirs.summary_page.label.text()
            # QA pass 16: on his screen the ending was the log's first line, above the coin toss
            # (it came before the moves waiting to be shown); it is the last, once.
            lines = theirs.log_lines()
            assert lines.count(words := "Alice wins: you did not come back.") == 1 and lines[-1] == words, lines
            assert any(line.startswith("Coin toss") for line in lines[:-1]), lines
            theirs.session.close()
            await back.close()
        finally:
            mine.session.close()
            await bob.close()
            await relay.stop()

    run_on_qt_loop(scenario)


def test_long_and_identical_names_are_cut_with_an_ellipsis_and_your_side_is_marked(qtbot, tmp_path: Path) -> None:
    """protocol.md, "Limits": names of 40 characters. The scoreboard cuts them with "…" and
    keeps its room while the countdown runs; with the same name twice, "(you)" says which side
    is yours (QA 10, finding 5)."""

    async def scenario() -> None:
        relay, alice, bob = await two_players(tmp_path, names=(LONG, LONG), abandon_seconds=20)
        try:
            mine, _ = screen(qtbot, alice)
            await until(lambda: mine.view_data is not None)
            chips = mine.score_label.text()
            assert LONG not in chips and "…" in chips and "(you)" in chips
            await until(lambda: bob.view is not None and bob.seat in bob.view["to_move"])
            await bob.drop()
            await until(lambda: "is away: 0:" in mine.timer_label.text())
            assert "…" in mine.timer_label.text()
            QApplication.processEvents()
            assert mine.score_label.width() >= mine.score_label.minimumSizeHint().width()
            assert mine.thinking_label.wordWrap() or LONG not in mine.thinking_label.text()
            mine.summary_page.show_result(
                {
                    "names": [LONG, LONG],
                    "score": [0, 0],
                    "winner": 1,
                    "local_seats": [0],
                    "title": "Soccer-Go",
                    "plies": 3,
                }
            )
            assert "(you)" in mine.summary_page.label.text()
        finally:
            mine.session.close()
            await bob.close()
            await relay.stop()

    run_on_qt_loop(scenario)


def test_your_move_stays_in_the_status_when_the_opponent_comes_and_goes(qtbot, tmp_path: Path) -> None:
    """A presence message ("Bob is here", "Connected again") never hides "Your move" (QA 10, finding 7)."""

    async def scenario() -> None:
        relay, alice, bob = await two_players(tmp_path, abandon_seconds=60)
        room, token = bob.room, bob.token
        try:
            mine, said = screen(qtbot, alice)
            await until(
                lambda: alice.view is not None and alice.seat in alice.view["to_move"] and bool(alice.view["legal"])
            )
            await bob.drop()
            back = await come_back(relay, room, token)
            await until(lambda: any("Bob is here" in s for s in said))
            assert "Your move" in mine.hint_label.text() and "Bob is here" in mine.hint_label.text()
            await back.close()
        finally:
            mine.session.close()
            await bob.close()
            await relay.stop()

    run_on_qt_loop(scenario)


def test_resume_lists_the_game_and_opponent_and_the_lobby_names_the_sides(qtbot, tmp_path: Path) -> None:
    """ "Resume a match…" says which match each entry is; the waiting room says Home or Away, not
    "seat 2" (QA 10, finding 7)."""
    settings = AppSettings(QSettings(str(tmp_path / "a.ini"), QSettings.Format.IniFormat), tmp_path / "a")

    async def scenario() -> None:
        relay, alice, bob = await two_players(tmp_path)
        try:
            # A session tells the settings about its match as it goes, as the dialog's session does.
            from soccerdesk.ui.seats import about_key, remember_about

            remember_seat(settings, RememberedSeat(relay.url, "OTHER1", "t" * 24, "Bob"))
            remember_seat(settings, RememberedSeat(relay.url, bob.room, bob.token, "Bob"))
            session = RemoteSession(
                get_game(GAME),
                bob,
                about=lambda text: remember_about(settings, about_key(bob.room or "", bob.token or ""), text),
            )
            session.start()
            await until(lambda: bool(settings.get(about_key(bob.room or "", bob.token or ""), "")))
            session.close()
            dialog = OnlineDialog("online", settings)
            qtbot.addWidget(dialog)
            entries = [a.text() for a in dialog.resume_button.menu().actions()]
            assert f"Soccer-Go with Alice, 0–0 — room {bob.room} as Bob" in entries
            dialog.reject()

            host = OnlineDialog("online", settings)
            qtbot.addWidget(host)
            host.url_edit.setText(relay.url)
            host.name_edit.setText("Carol")
            qtbot.mouseClick(host.go_button, Qt.MouseButton.LeftButton)
            await until(lambda: host.players_list.count() == 1)
            assert host.players_list.item(0).text() in {"Carol — Home (here)", "Carol — Away (here)"}
            host.reject()
            if host.client is not None:
                await host.client.close()
        finally:
            await alice.close()
            await bob.close()
            await relay.stop()

    run_on_qt_loop(scenario)
