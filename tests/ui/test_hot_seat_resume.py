"""A hot-seat match, resumed and handed over, as the players at the screen meet it.

Issue 13 (items 4 and 11), found again by QA in a real window: the resumed match's hand-over
cover showed an empty "What happened" and the game's name where the phase belongs; and the
first click on the board after "I am … — show my screen" only ended the deal's animation.
Played as people play: the game, the opponent and Kick off clicked on the home screen, every
action clicked on the board, Ctrl+H sent to the window, the match chosen in Recent and
"Resume / replay" clicked.
"""

from __future__ import annotations

import random

import pytest
from clicking import (
    WAIT_MS,
    assert_targets_reachable,
    click,
    click_path,
    deciding,
    on_handover,
    on_summary,
    start_match,
)
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtTest import QTest

from soccerdesk.ui.main_window import MainWindow
from soccerdesk.ui.match_view import MatchView

HOT_SEAT = ("human", None)
SHORT = {
    "soccer-go": {"rounds": 1},
    "soccero": {"turns": 3, "quick_setup": True},
    "pawn-soccer": {"goals": 1, "quick_setup": True},
    "big-time-soccer": {},
}
"""Options that keep a match short (a real match is the same code, only longer)."""


def take_screen(qtbot, view: MatchView) -> None:
    """Click the hand-over cover's button if it shows; wait until the board waits for a click."""
    qtbot.waitUntil(lambda: on_handover(view) or deciding(view), timeout=WAIT_MS)
    if on_handover(view):
        click(qtbot, view.handover_page.button, what="the hand-over button")
    qtbot.waitUntil(lambda: deciding(view), timeout=WAIT_MS)


def click_and_wait(qtbot, view: MatchView, rng: random.Random) -> None:
    """Click one legal action on the board (checked to be played) and wait for what follows."""
    shown = view.view_data
    assert shown is not None
    click_path(qtbot, view, rng.choice(sorted(shown["legal"])))
    qtbot.waitUntil(lambda: view.view_data is not shown or not deciding(view), timeout=WAIT_MS)


def play_a_few(qtbot, view: MatchView, decisions: int, rng: random.Random) -> None:
    """Take the screen and click ``decisions`` legal actions, ending with the board waiting."""
    for _ in range(decisions):
        take_screen(qtbot, view)
        assert view.view_data is not None
        click_and_wait(qtbot, view, rng)
    take_screen(qtbot, view)


def go_home_and_resume(qtbot, window: MainWindow) -> MatchView:
    """Ctrl+H to the window, the newest match clicked in Recent, then "Resume / replay"."""
    window.activateWindow()
    QTest.keyClick(window.windowHandle(), Qt.Key.Key_H, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.match_view is None and window.home.isVisible(), timeout=WAIT_MS)
    recent = window.home.recent
    click(qtbot, recent.viewport(), recent.visualItemRect(recent.item(0)).center(), "the newest recent match")
    click(qtbot, window.home.resume_button, what="Resume / replay")
    resumed = window.match_view
    assert resumed is not None
    return resumed


@pytest.mark.parametrize("game_id", sorted(SHORT))
def test_a_resumed_hot_seat_match_shows_what_happened_and_the_phase(qtbot, window: MainWindow, game_id: str) -> None:
    view = start_match(qtbot, window, game_id, HOT_SEAT, SHORT[game_id])
    play_a_few(qtbot, view, 4, random.Random(7))
    # What a live hand-over shows: nobody's secrets, zones named as the next player's board does.
    public = {seat: view.log_lines_for(None, seat) for seat in (0, 1)}
    assert public[0], "a few moves leave lines in the log"
    phase = view.phase_label.text()
    assert phase and phase != window.session.game.title
    resumed = go_home_and_resume(qtbot, window)
    assert resumed is not view
    qtbot.waitUntil(lambda: on_handover(resumed) or deciding(resumed), timeout=WAIT_MS)
    if on_handover(resumed):
        # The cover of a resumed match reads as a live hand-over does.
        assert resumed.board.view_data is None, "no hand is drawn under the cover"
        assert window.session.state.current_players()  # the seat handed to: the one deciding
        assert resumed.log_lines() == public[window.session.state.current_players()[0]]
        assert resumed.phase_label.text() == phase
        click(qtbot, resumed.handover_page.button, what="the hand-over button")
        qtbot.waitUntil(lambda: deciding(resumed), timeout=WAIT_MS)
    else:
        # Only a position where both players see the same board resumes without a cover.
        state = window.session.state
        assert state.view(0)["state"] == state.view(1)["state"], f"{game_id} has secrets: it resumes on the cover"
    # The player at the screen reads the whole log (their own secrets too) and the phase.
    # (A live screen logs a player's secret when they next take the screen; the resumed one
    # where it happened: the same lines, the public ones in the same order.)
    seat = resumed.view_data["seat"]
    lines = resumed.log_lines()
    live = view.log_lines_for(seat, seat)
    assert sorted(lines) == sorted(live)
    assert [line for line in lines if line in public] == [line for line in live if line in public]
    assert resumed.phase_label.text() == phase
    assert_targets_reachable(resumed)


def test_the_first_click_after_taking_the_screen_plays(qtbot, window: MainWindow) -> None:
    """After "I am … — show my screen" the board is under the mouse at once: the player's first
    click on a highlighted target plays it (no deal replayed over the board to eat it)."""
    # Animations on, as a player has them (the tests' settings start with them off).
    [normal] = [action for action in window.findChildren(QAction) if action.text() == "Normal"]
    normal.trigger()
    assert window.settings.animation_speed == "normal"
    view = start_match(qtbot, window, "soccer-go", HOT_SEAT, SHORT["soccer-go"])
    assert view.speed == "normal"
    rng = random.Random(3)
    checked = 0
    for _ in range(6):
        qtbot.waitUntil(lambda: on_handover(view) or deciding(view), timeout=WAIT_MS)
        if on_handover(view):
            click(qtbot, view.handover_page.button, what="the hand-over button")
            # Two turns of the event loop: when an animation would have begun.
            QTest.qWait(0)
            QTest.qWait(0)
            qtbot.waitUntil(lambda: view.view_data is not None and not view._queue, timeout=WAIT_MS)
            assert not view.animating, "an animation covers the board the player just took"
            assert_targets_reachable(view)
            checked += 1
        assert deciding(view)
        click_and_wait(qtbot, view, rng)  # asserts the click played
    assert checked >= 2


def test_a_resumed_cover_names_nobody_elses_secret(qtbot, window: MainWindow) -> None:
    """Under the resumed cover only public lines show; each player's own lines come with their screen."""
    view = start_match(qtbot, window, "soccer-go", HOT_SEAT, SHORT["soccer-go"])
    play_a_few(qtbot, view, 3, random.Random(11))
    secret = set(view.log_lines_for(0, 0)) - set(view.log_lines_for(None, 0))
    resumed = go_home_and_resume(qtbot, window)
    qtbot.waitUntil(lambda: on_handover(resumed), timeout=WAIT_MS)
    assert not secret & set(resumed.log_lines())


def test_a_resumed_pawn_soccer_match_draws_only_the_last_moves(qtbot, window: MainWindow) -> None:
    """QA: after a resume the board drew the trail of every move since the kick-off, a tangle
    of dashed lines, until the next move. It draws each side's last move, as in play."""
    from soccerdesk.ui.boards.pawn_soccer import Board

    view = start_match(qtbot, window, "pawn-soccer", HOT_SEAT, SHORT["pawn-soccer"])
    play_a_few(qtbot, view, 12, random.Random(4))
    resumed = go_home_and_resume(qtbot, window)
    take_screen(qtbot, resumed)
    board = resumed.board
    assert isinstance(board, Board)
    moves = sum(1 for line in resumed.log_lines() if " moves from " in line or " passes from " in line)
    assert moves > 4, "too few moves to tell"
    assert 1 <= len(board.trails) <= 3, board.trails


def test_pawn_soccer_shows_each_sides_last_move_while_playing(qtbot, window: MainWindow) -> None:
    """QA: against the computer no move left a trail (only a pass did): the view that showed the
    computer's move was followed by one with no move of its own (the turn ending), which wiped
    it. Each side's last move stays drawn until that side moves again."""
    # The match's own seed is new each time: three goals to win, so that a random click into
    # the goal does not end it before the eight moves.
    view = start_match(qtbot, window, "pawn-soccer", ("bot", "normal"), {"goals": 3, "quick_setup": True})
    rng = random.Random(4)
    checked = 0
    for _ in range(8):
        if view.stack.currentWidget() is view.summary_page:
            break
        take_screen(qtbot, view)
        click_and_wait(qtbot, view, rng)
        take_screen(qtbot, view)
        lines = view.log_lines()
        last = lines[-1]
        if " moves from " in last and "(normal)" in last:  # the computer's reply was a move
            src, dst = last.split(" moves from ")[1].rstrip(".").split(" to ")[:2]
            assert (src, dst.split()[0]) in view.board.trails, (last, view.board.trails)
            checked += 1
    assert checked >= 3, "too few of the computer's moves to tell"


# --- QA pass 12: what the hand-over cover shows and hides -------------------------------


@pytest.mark.parametrize("game_id", ["soccer-go", "big-time-soccer"])
def test_a_new_hot_seat_match_deals_the_first_hand_under_the_cover(qtbot, window: MainWindow, game_id: str) -> None:
    """Whoever clicked Kick off may be the other player: the first hand waited for no one."""
    view = start_match(qtbot, window, game_id, HOT_SEAT, SHORT[game_id])
    qtbot.waitUntil(lambda: on_handover(view) or deciding(view), timeout=WAIT_MS)
    assert on_handover(view), "the first player's cards were shown at once"
    assert not any("is dealt" in line or " draws " in line and "(" in line for line in view.log_lines())
    assert view.view_data is None or not view.board.legal()
    take_screen(qtbot, view)
    assert view.board.legal()


def test_a_hint_never_shows_beside_the_hand_over(qtbot, window: MainWindow) -> None:
    """A hint tells what the player asking might do ("Pass to number 2") or holds ("Answer with
    Challenge"): it stayed on screen beside "Pass the screen to …", and Hint could be pressed
    there."""
    view = start_match(qtbot, window, "soccer-go", HOT_SEAT, SHORT["soccer-go"])
    take_screen(qtbot, view)
    hint = view.hint_control
    assert hint is not None and hint.button.isEnabled()
    click(qtbot, hint.button, what="Hint")
    qtbot.waitUntil(lambda: hint.line.text().startswith("Hint:"), timeout=30_000)
    click_and_wait(qtbot, view, random.Random(2))
    qtbot.waitUntil(lambda: on_handover(view), timeout=WAIT_MS)
    assert hint.line.text() == "" and not hint.button.isEnabled()
    assert view.board.preview is None


def test_at_the_hand_over_the_side_panel_is_current_and_undo_is_the_players_own(qtbot, window: MainWindow) -> None:
    """Beside the cover the score and the log were the last player's: zones named as their
    board names them. Undo on the next player's screen took back the other player's move."""
    view = start_match(qtbot, window, "big-time-soccer", HOT_SEAT, SHORT["big-time-soccer"])
    rng = random.Random(5)
    session = window.session
    for _ in range(60):
        qtbot.waitUntil(lambda: on_handover(view) or deciding(view), timeout=WAIT_MS)
        if on_handover(view):
            nxt = session.state.current_players()[0]
            # Nobody's secrets, zones as the next player's board names them; the score as it is.
            assert view.log_lines() == view.log_lines_for(None, nxt)
            assert f"{session.state.score[0]} – {session.state.score[1]}" in view.score_label.text()
            click(qtbot, view.handover_page.button, what="the hand-over button")
            qtbot.waitUntil(lambda: deciding(view), timeout=WAIT_MS)
            last = session.state.history()[-1][0]
            if last in (0, 1) and last != session.viewer():
                # The other player's move: not this player's to take back.
                assert not view.undo_button.isEnabled() and not window.undo_action.isEnabled()
                return
        click_and_wait(qtbot, view, rng)
    raise AssertionError("no hand-over after the other player's move")


def test_a_face_down_pick_can_be_taken_back_until_the_other_player_takes_the_screen(qtbot, window: MainWindow) -> None:
    """QA pass 12: a mis-clicked face-down number could not be taken back, though nothing was
    revealed yet: Undo is greyed on the hand-over cover (the other player must not undo it).
    The cover now offers the player who just picked to take it back; once both have picked it
    is gone."""
    view = start_match(qtbot, window, "soccer-go", HOT_SEAT, SHORT["soccer-go"])
    session = window.session
    rng = random.Random(4)
    for _ in range(20):
        take_screen(qtbot, view)
        if len(session.state.current_players()) == 2:
            break
        click_and_wait(qtbot, view, rng)
    else:
        raise AssertionError("no face-down pick for both")
    me = session.viewer()
    before, ply = view.log_lines(), session.state.ply
    first = sorted(view.view_data["legal"])[0]
    click_path(qtbot, view, first)
    qtbot.waitUntil(lambda: on_handover(view), timeout=WAIT_MS)
    back = view.handover_page.take_back_button
    assert back.isVisible() and back.text() == f"{view.names[me]}: take back my pick"
    click(qtbot, back, what="take back my pick")
    qtbot.waitUntil(lambda: deciding(view) and session.state.ply == ply, timeout=WAIT_MS)
    assert session.viewer() == me and first in view.board.legal()
    assert view.log_lines() == before  # "… has chosen" taken back with the pick
    # Another face-down number, not a power card (played face up before the pick, it hands
    # nothing over; the match's seed decides whether one is on offer).
    other = sorted(t for t in view.view_data["legal"] if t.split()[0] == first.split()[0])[-1]
    click_path(qtbot, view, other)
    qtbot.waitUntil(lambda: on_handover(view), timeout=WAIT_MS)
    assert str(session.state.history()[-1][1]) == other
    take_screen(qtbot, view)  # the other player takes the screen and picks
    assert session.viewer() != me
    click_and_wait(qtbot, view, rng)
    qtbot.waitUntil(lambda: on_handover(view) or deciding(view) or on_summary(view), timeout=WAIT_MS)
    assert not view.handover_page.take_back_button.isVisible()  # revealed: nothing to take back
