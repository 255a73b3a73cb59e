"""Two people at one screen: what the hand-over cover lets through, and how far Undo goes.

Hot-seat audit: Ctrl+Z on the cover took back the leaving player's move, showed that player's
hand to whoever sat there and then locked the match; a second Enter after a move made with the
keys took the screen in the other player's name; Undo in Big Time Soccer took back the other
player's forced "let it go" together with the card they had seen; a resumed cover offered a
face-down pick back only when Home had made it. Played as people play: clicks on the board and
the cover's buttons, keys sent to the window.
"""

from __future__ import annotations

import json
import random
import time

import pytest
from clicking import WAIT_MS, click, click_path, deciding, on_handover, on_summary, start_match
from PySide6.QtCore import QEvent, QPoint, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from test_hot_seat_resume import HOT_SEAT, SHORT, click_and_wait

from soccerdesk.rules import CHANCE, get_game, sample_chance
from soccerdesk.ui.main_window import MainWindow
from soccerdesk.ui.match_view import HANDOVER_KEY_PAUSE_S, MatchView
from soccerdesk.ui.session import APP_KEY, LocalSession, Player


def wait_for_the_next_screen(qtbot, view: MatchView) -> None:
    qtbot.waitUntil(lambda: on_handover(view) or deciding(view) or on_summary(view), timeout=WAIT_MS)


def play_until(qtbot, view: MatchView, seed: int, found, prefer: str = "", limit: int = 600) -> None:
    """Take the screen whenever the cover asks and click legal actions (``prefer`` when legal,
    else one at random) until ``found()`` holds, checked on every screen shown."""
    rng = random.Random(seed)
    for _ in range(limit):
        wait_for_the_next_screen(qtbot, view)
        if found():
            return
        assert not on_summary(view), "full time came first"
        if on_handover(view):
            click(qtbot, view.handover_page.button, what="the hand-over button")
            qtbot.waitUntil(lambda: deciding(view), timeout=WAIT_MS)
            continue
        shown = view.view_data
        legal = sorted(shown["legal"])
        click_path(qtbot, view, prefer if prefer in legal else rng.choice(legal))
        qtbot.waitUntil(lambda shown=shown: view.view_data is not shown or not deciding(view), timeout=WAIT_MS)
    raise AssertionError("the position looked for never came")


def press(window: MainWindow, key: Qt.Key, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    QTest.keyClick(window.windowHandle(), key, modifier)


def test_undo_waits_while_the_cover_waits_for_the_next_player(qtbot, window: MainWindow) -> None:
    """Audit 1: Match → Undo was enabled on the cover after a Big Time Soccer "let it go": Ctrl+Z
    took it back, showed the leaving player's hand without the cover, and every click after
    was refused with "wait: it is not your turn yet"."""
    view = start_match(qtbot, window, "big-time-soccer", HOT_SEAT, {})
    session = window.session
    assert isinstance(session, LocalSession)
    # A cover after a move its player might take back were they still at the screen.
    play_until(qtbot, view, 11, lambda: on_handover(view) and session._undo_target() is not None, "reply none")
    ply, called = session.state.ply, session.state.current_players()
    assert not view.undo_button.isEnabled() and not window.undo_action.isEnabled()
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=WAIT_MS)
    press(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # the shortcut
    window.undo_action.trigger()  # Match → Undo
    QTest.keyClick(view.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # the board's own Ctrl+Z
    QTest.qWait(100)
    assert on_handover(view) and session.state.ply == ply
    # The player called takes the screen, and plays on.
    click(qtbot, view.handover_page.button, what="the hand-over button")
    qtbot.waitUntil(lambda: deciding(view), timeout=WAIT_MS)
    assert (view.view_data["seat"],) == called
    click_and_wait(qtbot, view, random.Random(1))
    assert session.state.ply > ply


def test_a_second_enter_after_a_keyboard_move_does_not_take_the_screen(qtbot, window: MainWindow) -> None:
    """Audit 2: the cover gave its "I am … — show my screen" button the focus inside the Enter
    that played the move: a double Enter, or an Enter held down, showed the other player's
    cards to the one who had just moved."""
    view = start_match(qtbot, window, "soccer-go", HOT_SEAT, SHORT["soccer-go"])
    session = window.session
    assert isinstance(session, LocalSession)
    play_until(qtbot, view, 4, lambda: deciding(view) and len(session.state.current_players()) == 2)
    me = session.viewer()
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=WAIT_MS)
    QTest.mouseClick(view.view.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(2, 2))  # nothing there
    press(window, Qt.Key.Key_Tab)
    press(window, Qt.Key.Key_Return)  # the face-down pick
    assert on_handover(view)
    press(window, Qt.Key.Key_Return)  # a double tap
    press(window, Qt.Key.Key_Tab)
    press(window, Qt.Key.Key_Return)
    assert on_handover(view) and session.viewer() == me
    # An Enter held down repeats, for as long as it is held.
    QTest.qWait(int(HANDOVER_KEY_PAUSE_S * 1000) + 100)
    held = QKeyEvent(QEvent.Type.KeyPress, Qt.Key.Key_Return, Qt.KeyboardModifier.NoModifier, "\r", True)
    QApplication.sendEvent(QApplication.focusWidget(), held)
    assert on_handover(view) and session.viewer() == me
    # The next player presses on purpose: Tab to their button, then Enter.
    for _ in range(3):
        if view.handover_page.button.hasFocus():
            break
        press(window, Qt.Key.Key_Tab)
    assert view.handover_page.button.hasFocus()
    press(window, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: deciding(view), timeout=WAIT_MS)
    assert session.viewer() == 1 - me and view.view_data["seat"] == 1 - me


def test_undo_stops_at_the_other_players_forced_let_it_go(qtbot, window: MainWindow) -> None:
    """Audit 3: Away played a card, Home saw it and could only let it go; back at the screen,
    Away's Undo took back Home's answer and Away's card together."""
    view = start_match(qtbot, window, "big-time-soccer", HOT_SEAT, {})
    session = window.session
    assert isinstance(session, LocalSession)

    def after_the_others_forced_move() -> bool:
        """At the screen again just after the other player's only answer to this player's choice."""
        states, me = session._states, session.viewer()
        if not deciding(view) or len(states) < 3:
            return False
        seat, mine = states[-1].history()[-1][0], states[-2].history()[-1][0]
        forced = seat == 1 - me and len(states[-2].legal_actions(seat)) == 1
        return forced and mine == me and len(states[-3].legal_actions(me)) > 1

    play_until(qtbot, view, 3, after_the_others_forced_move, "reply none")
    ply = session.state.ply
    assert not view.undo_button.isEnabled() and not window.undo_action.isEnabled()
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=WAIT_MS)
    press(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    QTest.qWait(100)
    assert session.state.ply == ply and deciding(view)


def _soccer_go_after_one_pick(picker: int) -> dict:
    """A hot-seat Soccer-Go record in which ``picker`` has chosen face down and the other seat
    has still to choose."""
    game = get_game("soccer-go")
    for seed in range(50):
        rng = random.Random(seed)
        state = game.new_match(seed=seed, **SHORT["soccer-go"])
        while not state.is_terminal():
            players = state.current_players()
            if players == (CHANCE,):
                state = state.apply(CHANCE, sample_chance(state, rng))
                continue
            seat = picker if picker in players else players[0]
            state = state.apply(seat, rng.choice(state.legal_actions(seat)))
            if len(players) == 2 and state.current_players() == (1 - picker,):
                record = game.dump(state)
                names = [Player("human", "Ann").to_json(), Player("human", "Bob").to_json()]
                record[APP_KEY] = {"players": names, "score": list(state.score), "saved": time.time()}
                return record
    raise AssertionError("no face-down pick")


@pytest.mark.parametrize("picker", [0, 1])
def test_a_resumed_cover_offers_the_pending_pick_back_to_whoever_made_it(
    qtbot, window: MainWindow, picker: int
) -> None:
    """Audit 4: resumed with a face-down pick pending, the cover offered "take back my pick"
    only when Home had picked."""
    folder = window.settings.autosave_dir
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "soccer-go-pick.json").write_text(json.dumps(_soccer_go_after_one_pick(picker)))
    home = window.home
    home.refresh_recent()
    recent = home.recent
    qtbot.waitUntil(lambda: recent.count() > 0, timeout=WAIT_MS)
    click(qtbot, recent.viewport(), recent.visualItemRect(recent.item(0)).center(), "the match in Recent")
    click(qtbot, home.resume_button, what="Resume / replay")
    view = window.match_view
    assert view is not None
    qtbot.waitUntil(lambda: on_handover(view), timeout=WAIT_MS)
    session = window.session
    ply = session.state.ply
    name = ("Ann", "Bob")[picker]
    assert view.handover_page.button.text() == f"I am {('Ann', 'Bob')[1 - picker]} — show my screen"
    back = view.handover_page.take_back_button
    assert back.isVisible() and back.text() == f"{name}: take back my pick"
    click(qtbot, back, what="take back my pick")
    qtbot.waitUntil(lambda: deciding(view), timeout=WAIT_MS)
    # The picker's own screen, the pick undone, both to choose again.
    assert session.viewer() == picker and view.view_data["seat"] == picker
    assert session.state.ply == ply - 1 and len(session.state.current_players()) == 2
    assert view.view_data["state"]["my_choice"] is None
