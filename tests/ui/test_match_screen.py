"""The match screen as a person meets it (issue 13): every click on the board answered, keys
reach the board, an honest log. Input is given as a person gives it: mouse clicks on the board
view's viewport at the on-screen spot of a target, keys sent to the window."""

from __future__ import annotations

import json
import random
import re
import subprocess
from pathlib import Path

import pytest
from driving import click_action, click_on_screen, ready
from other_process import hold_lock_elsewhere
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QCheckBox, QScrollBar, QSpinBox, QStyle, QStyleOptionSlider

from soccerdesk.rules import CHANCE, GAMES, get_game, sample_chance
from soccerdesk.ui.animation import Animation, EventAnimation, animation_for
from soccerdesk.ui.main_window import MainWindow
from soccerdesk.ui.match_view import MatchView, merge_repeats, retold
from soccerdesk.ui.session import LocalSession, Player, told_events
from soccerdesk.ui.settings import AppSettings


def fit_on_screen(window: MainWindow) -> None:
    """All of the window on the (offscreen: 800 × 800) screen: nothing is found under a spot
    beyond the screen's edge."""
    screen = window.screen().availableGeometry()
    window.setGeometry(screen.x(), screen.y(), min(1200, screen.width()), min(780, screen.height()))


def kick_off(qtbot, window: MainWindow, game_id: str, opponent: str | None = "normal") -> MatchView:
    """From the home screen as a person does: click the game's card, the opponent, Kick off."""
    fit_on_screen(window)
    home = window.home
    qtbot.mouseClick(home.cards[game_id], Qt.MouseButton.LeftButton)
    home.set_opponent(opponent)
    qtbot.mouseClick(home.start_button, Qt.MouseButton.LeftButton)
    view = window.match_view
    assert view is not None, home.message.text()
    return view


def target_spots(view: MatchView) -> list[QPoint]:
    """The on-screen (global) spot of every target the board offers now."""
    spots = []
    for key in view.board.targets:
        scene_pos = view.board.pos_of(key)
        assert scene_pos is not None, key
        spots.append(view.view.viewport().mapToGlobal(view.view.mapFromScene(scene_pos)))
    assert spots, "the board offers nothing to click"
    return spots


def assert_board_under_every_target(view: MatchView) -> None:
    viewport = view.view.viewport()
    for spot in target_spots(view):
        under = QApplication.widgetAt(spot)
        assert under is viewport, f"{under!r} ({under.objectName() if under else ''}) lies over the board at {spot}"


def play_one_by_clicks(qtbot, view: MatchView, rng: random.Random | None = None) -> None:
    """Play a legal action (the first, or one drawn by ``rng``) by clicking the board, and wait
    until the position moved on."""
    shown = view.view_data
    actions = view.board.keyboard_actions()
    click_action(qtbot, view, rng.choice(actions) if rng else actions[0])
    qtbot.waitUntil(
        lambda: (
            view.view_data is not shown
            or view.animating
            or not ready(view)
            or view.stack.currentWidget() is not view.board_page
        ),
        timeout=15_000,
    )


@pytest.mark.parametrize("game_id", GAMES)
def test_the_board_answers_the_mouse_at_the_first_decision_and_after_animations(
    qtbot, window: MainWindow, game_id: str
) -> None:
    """Issue 13.1: at kick-off an idle animation layer lay over the board and took every click."""
    window.settings.animation_speed = "fast"
    view = kick_off(qtbot, window, game_id)
    qtbot.waitUntil(lambda: ready(view), timeout=15_000)
    assert not view.animation.isVisible()
    assert_board_under_every_target(view)
    # A real click on the board plays: the position moves on (or an animation begins).
    ply = view.view_data["ply"]
    play_one_by_clicks(qtbot, view)
    assert window.session.state.ply > ply  # type: ignore[union-attr]
    # Play on by clicks until an animation has played, then the board must take clicks again.
    animated = []
    view.animation.done.connect(lambda: animated.append(True))
    rng = random.Random(7)
    for _ in range(400):  # Pawn Soccer animates goals only
        qtbot.waitUntil(lambda: ready(view), timeout=20_000)
        if animated or view.stack.currentWidget() is not view.board_page:
            break
        play_one_by_clicks(qtbot, view, rng)
    assert animated, "no animation in 400 actions"
    if view.stack.currentWidget() is view.board_page:
        assert not view.animation.isVisible()
        assert_board_under_every_target(view)
        shown = view.view_data
        play_one_by_clicks(qtbot, view)
        assert view.view_data is not shown or view.animating or not ready(view)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_first_tab_sent_to_the_window_reaches_the_board(qtbot, window: MainWindow, game_id: str) -> None:
    """Issue 13.1: the first Tab went to the idle animation layer instead of previewing an action."""
    window.settings.animation_speed = "fast"
    view = kick_off(qtbot, window, game_id)
    qtbot.waitUntil(lambda: ready(view), timeout=15_000)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=5_000)
    # A person clicks the board where nothing can be played (its top-left corner), then presses Tab.
    click_on_screen(view.view.viewport(), QPoint(2, 2))
    QTest.keyClick(window.windowHandle(), Qt.Key.Key_Tab)
    first = view.board.keyboard_actions()[0]
    assert view.board.preview == first
    assert "Enter plays" in view.keyboard_label.text()
    ply = view.view_data["ply"]
    QTest.keyClick(window.windowHandle(), Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.session.state.ply > ply, timeout=10_000)  # type: ignore[union-attr]


def test_the_first_shift_tab_picks_the_last_action(qtbot, window: MainWindow) -> None:
    """QA: with nothing picked, Shift+Tab began one before the last action: a player reaching
    for "End turn" (Pawn Soccer's last choice after a turn) used the substitute instead."""
    window.settings.animation_speed = "fast"
    view = kick_off(qtbot, window, "soccer-go")
    qtbot.waitUntil(lambda: ready(view), timeout=15_000)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=5_000)
    click_on_screen(view.view.viewport(), QPoint(2, 2))
    actions = view.board.keyboard_actions()
    assert len(actions) > 2
    QTest.keyClick(window.windowHandle(), Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    assert view.board.preview == actions[-1]
    assert f"({len(actions)}/{len(actions)})" in view.keyboard_label.text()
    QTest.keyClick(window.windowHandle(), Qt.Key.Key_Tab)
    assert view.board.preview == actions[0]  # and on round: after the last comes the first


def test_the_first_tab_never_picks_a_substitution_nor_agreeing_to_end_the_half(qtbot, window: MainWindow) -> None:
    """QA: Pawn Soccer's first Tab choice was "Substitute the pawn on D1" (a Tab-Enter player
    spent the one substitute by accident); in Big Time Soccer it was agreeing to end the half."""
    window.settings.animation_speed = "fast"
    view = start(qtbot, window, "pawn-soccer", "normal", speed="fast")
    rng = random.Random(3)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=5_000)

    def play_on_keeping_the_substitute() -> None:
        """Clicks on, never substituting, until a substitution is offered again."""
        for _ in range(60):
            qtbot.waitUntil(lambda: ready(view), timeout=20_000)
            legal = view.board.legal()
            if any(a.startswith("sub ") for a in legal):
                return
            click_action(qtbot, view, rng.choice(legal))
        raise AssertionError("no substitution offered in 60 moves")

    for key in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab):  # each the first key, at a position of its own
        play_on_keeping_the_substitute()
        click_on_screen(view.view.viewport(), QPoint(2, 2))
        QTest.keyClick(window.windowHandle(), key)
        assert view.board.preview is not None and not view.board.preview.startswith("sub "), view.board.preview
        click_action(qtbot, view, rng.choice([a for a in view.board.legal() if not a.startswith("sub ")]))
    play_on_keeping_the_substitute()
    actions = view.board.keyboard_actions()
    subs = [i for i, a in enumerate(actions) if a.startswith("sub ")]
    assert subs == list(range(len(actions) - len(subs), len(actions)))  # all after the rest
    # Big Time Soccer, answering an offer to end the half: playing on comes first.
    from soccerdesk.ui.boards import BoardConfig, make_board

    board = make_board(BoardConfig("big-time-soccer", perspective=0))
    board.view_data = {"legal": ["accept-end", "decline-end"]}
    assert board.keyboard_actions() == ["decline-end", "accept-end"]
    board.view_data = {"legal": ["propose-end", "clear-in M2R", "hold"]}
    assert board.keyboard_actions() == ["clear-in M2R", "hold", "propose-end"]


def test_an_idle_animation_layer_stays_hidden_whoever_shows_it(qtbot) -> None:
    """Nothing lies over the board unless it is showing something (ARCHITECTURE.md)."""
    from PySide6.QtWidgets import QWidget

    page = QWidget()
    qtbot.addWidget(page)
    layer = EventAnimation(page)
    page.resize(400, 300)
    page.show()
    layer.show()  # a layout or a careless caller asks: an idle layer refuses
    assert not layer.isVisible()
    assert layer.testAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
    assert layer.focusPolicy() == Qt.FocusPolicy.NoFocus
    assert layer.geometry() == page.rect()
    with qtbot.waitSignal(layer.done, timeout=2_000):
        layer.play([Animation("die", "The die shows 3", 3)], speed=50.0)
        assert layer.isVisible() and not layer.testAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        page.resize(500, 350)
        assert layer.geometry() == page.rect()  # it follows what it covers
        qtbot.mouseClick(layer, Qt.MouseButton.LeftButton)  # a click skips it
    assert not layer.isVisible() and layer.focusPolicy() == Qt.FocusPolicy.NoFocus


# --- helpers for the tests below ---------------------------------------------------------


def set_options(window: MainWindow, options: dict) -> None:
    """Tick and set the home screen's option editors as a person would."""
    form = window.home.options_form
    for name, value in options.items():
        if isinstance(value, bool):
            form.findChild(QCheckBox, f"option-{name}").setChecked(value)
        else:
            form.findChild(QSpinBox, f"option-{name}").setValue(value)


def start(
    qtbot, window: MainWindow, game_id: str, opponent: str | None, options: dict | None = None, speed: str = "off"
) -> MatchView:
    window.settings.animation_speed = speed
    fit_on_screen(window)
    qtbot.mouseClick(window.home.cards[game_id], Qt.MouseButton.LeftButton)
    window.home.set_opponent(opponent)
    set_options(window, options or {})
    qtbot.mouseClick(window.home.start_button, Qt.MouseButton.LeftButton)
    view = window.match_view
    assert view is not None, window.home.message.text()
    qtbot.waitUntil(lambda: ready(view), timeout=15_000)
    return view


def resume_the_newest(qtbot, window: MainWindow) -> MatchView:
    """From the home screen as a person does: click the newest match in Recent matches, then
    Resume; the match screen once it waits for the player."""
    recent = window.home.recent
    qtbot.mouseClick(recent.viewport(), Qt.MouseButton.LeftButton, pos=recent.visualItemRect(recent.item(0)).center())
    qtbot.mouseClick(window.home.resume_button, Qt.MouseButton.LeftButton)
    resumed = window.match_view
    assert resumed is not None
    qtbot.waitUntil(lambda: ready(resumed), timeout=10_000)
    return resumed


def play_clicks(qtbot, view: MatchView, count: int, rng: random.Random) -> None:
    """``count`` actions of the player(s) at this screen, each by clicks on the board."""
    for _ in range(count):
        qtbot.waitUntil(lambda: ready(view), timeout=20_000)
        if view.stack.currentWidget() is view.handover_page:
            qtbot.mouseClick(view.handover_page.button, Qt.MouseButton.LeftButton)
            continue
        if view.stack.currentWidget() is not view.board_page:
            return
        play_one_by_clicks(qtbot, view, rng)
    qtbot.waitUntil(lambda: ready(view), timeout=20_000)


def press(window: MainWindow, key: Qt.Key, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    """A key pressed by a person: to the window, delivered to whatever has the focus."""
    QTest.keyClick(window.windowHandle(), key, modifier)


def click_scroll_bar_page(bar: QScrollBar, down: bool) -> None:
    """Click a scroll bar's groove above (``down`` False) or below its handle: a page up or down."""
    option = QStyleOptionSlider()
    bar.initStyleOption(option)
    part = QStyle.SubControl.SC_ScrollBarAddPage if down else QStyle.SubControl.SC_ScrollBarSubPage
    groove = bar.style().subControlRect(QStyle.ComplexControl.CC_ScrollBar, option, part, bar)
    assert not groove.isEmpty(), "nothing to scroll that way"
    click_on_screen(bar, groove.center())


def newest_line_in_sight(view: MatchView) -> bool:
    """The end of the log's last line lies inside the log's visible box."""
    log = view.log
    end = QTextCursor(log.document())
    end.movePosition(QTextCursor.MoveOperation.End)
    return log.viewport().rect().contains(log.cursorRect(end))


# --- the log ---------------------------------------------------------------------------


def test_the_log_follows_the_newest_line_unless_the_player_scrolled_up(qtbot, window: MainWindow) -> None:
    """Issue 13.2: the newest lines fell below the visible part of "What happened"."""
    view = start(qtbot, window, "soccero", "easy", {"quick_setup": True})
    rng = random.Random(3)
    bar = view.log.verticalScrollBar()
    for _ in range(40):
        play_clicks(qtbot, view, 1, rng)
        qtbot.waitUntil(lambda: newest_line_in_sight(view), timeout=1_000)  # at once, to a person
        if bar.maximum() > 3 * bar.pageStep() and view.stack.currentWidget() is view.board_page:
            break
    assert bar.maximum() > 0, "the log never outgrew its box"
    # The player scrolls up to read (a click in the scroll bar above its handle): it stays there.
    click_scroll_bar_page(bar, down=False)
    read_at = bar.value()
    assert read_at < bar.maximum() and not view.log_follows()
    lines = len(view.log_lines())
    for _ in range(20):
        play_clicks(qtbot, view, 1, rng)
        if len(view.log_lines()) > lines:
            break
    assert len(view.log_lines()) > lines
    qtbot.wait(100)
    assert bar.value() == read_at and not newest_line_in_sight(view)
    # Back at the bottom (a click below the handle until it gets there), the log follows again.
    for _ in range(50):
        if bar.value() == bar.maximum():
            break
        click_scroll_bar_page(bar, down=True)
    assert view.log_follows()
    lines = len(view.log_lines())
    for _ in range(20):
        play_clicks(qtbot, view, 1, rng)
        if len(view.log_lines()) > lines:
            break
    qtbot.waitUntil(lambda: newest_line_in_sight(view), timeout=1_000)


def test_a_line_repeated_is_told_once_with_its_count(qtbot, window: MainWindow) -> None:
    """Big Time Soccer's deal read "Away draws a card" six times over: a run of one line reads
    once with its count, and a repeat that comes later joins the line above it in place."""
    assert merge_repeats(["A", "B draws a card", "B draws a card", "C", "C", "C", "B draws a card"]) == [
        "A",
        "B draws 2 cards",
        "C (×3)",
        "B draws a card",
    ]
    view = start(qtbot, window, "pawn-soccer", None, {"quick_setup": True})
    before = view.log_lines()
    away = view.names[1]
    view.log_text("Seat 1 draws a card")
    assert view.log_lines() == [*before, f"{away} draws a card"]
    view.log_text("Seat 1 draws a card")
    view.log_text("Seat 1 draws a card")
    assert view.log_lines() == [*before, f"{away} draws 3 cards"]
    view.log_text("Seat 0 kicks")
    assert view.log_lines() == [*before, f"{away} draws 3 cards", f"{view.names[0]} kicks"]


def test_undo_takes_the_undone_moves_out_of_the_log_and_the_replay(qtbot, window: MainWindow) -> None:
    """Issue 13.3: the log shows what the match is, not what was tried."""
    view = start(qtbot, window, "pawn-soccer", None, {"quick_setup": True})
    before = view.log_lines()
    ply = view.view_data["ply"]
    # Nothing to take back yet: Edit → Undo is greyed like the button, not enabled to refuse.
    assert not view.undo_button.isEnabled() and not window.undo_action.isEnabled()
    click_action(qtbot, view, view.board.keyboard_actions()[0])
    qtbot.waitUntil(lambda: view.view_data["ply"] > ply and ready(view), timeout=10_000)
    tried = view.log_lines()[len(before) :]
    assert tried, "the move wrote nothing in the log"
    assert view.undo_button.isEnabled() and window.undo_action.isEnabled()
    press(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: view.view_data["ply"] == ply, timeout=10_000)
    assert view.log_lines() == before
    assert not window.undo_action.isEnabled()
    # Another move instead: the log and the replay tell it, and never the one taken back.
    other = view.board.keyboard_actions()[-1]
    click_action(qtbot, view, other)
    qtbot.waitUntil(lambda: view.view_data["ply"] > ply and ready(view), timeout=10_000)
    played = view.log_lines()[len(before) :]
    assert played and played != tried
    from soccerdesk.ui.replay import ReplayViewer

    replay = ReplayViewer(window.session.game, window.session.record(), names=window.session.player_names())
    qtbot.addWidget(replay)
    rows = "\n".join(replay.log.item(i).text() for i in range(replay.log.count()))
    assert all(line in rows for line in played)
    assert not any(line in rows for line in tried if line not in played)


def test_a_resumed_match_shows_its_whole_log_and_the_time_played_goes_on(
    qtbot, window: MainWindow, settings: AppSettings
) -> None:
    """Issue 13.4: a resumed match showed an empty log and "Time played 00:00"."""
    view = start(qtbot, window, "soccer-go", "normal")
    play_clicks(qtbot, view, 3, random.Random(1))
    session = window.session
    # Left while only the player owes a choice, once the screen shows all that happened.
    qtbot.waitUntil(
        lambda: session.state.current_players() == (0,) and ready(view) and view.view_data["ply"] == session.state.ply,
        timeout=10_000,
    )
    lines = view.log_lines()
    assert len(lines) > 3
    autosave = window.session.autosave
    window.go_home()  # the autosave is written and the match file left
    # As if the first sitting had lasted 2 min 5 s.
    record = json.loads(autosave.read_text())
    record["app"]["played_seconds"] = 125
    autosave.write_text(json.dumps(record))
    resumed = resume_the_newest(qtbot, window)
    assert resumed is not view
    assert resumed.log_lines() == lines
    qtbot.waitUntil(lambda: resumed.clock_label.text().startswith("Time played 02:0"), timeout=2_000)
    assert window.session.record()["app"]["played_seconds"] >= 125
    # A file saved before the time was kept resumes too, from 00:00.
    window.go_home()
    record = json.loads(autosave.read_text())
    del record["app"]["played_seconds"]
    autosave.write_text(json.dumps(record))
    assert window.open_path(autosave)
    qtbot.waitUntil(lambda: window.match_view.clock_label.text().startswith("Time played 00:0"), timeout=2_000)


def test_resuming_a_hot_seat_match_opens_on_the_hand_over_cover(qtbot, window: MainWindow) -> None:
    """Issue 13.11: a resumed hot-seat match showed Home's cards to whoever sat at the screen."""
    view = start(qtbot, window, "soccer-go", None)
    play_clicks(qtbot, view, 3, random.Random(2))
    autosave = window.session.autosave
    window.go_home()
    assert window.open_path(autosave)
    resumed = window.match_view
    qtbot.waitUntil(lambda: resumed.stack.currentWidget() is resumed.handover_page, timeout=5_000)
    assert resumed.handover_page.isVisible() and not resumed.board_page.isVisible()
    assert resumed.view_data is None and resumed.board.view_data is None  # no hand was drawn
    qtbot.mouseClick(resumed.handover_page.button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: ready(resumed) and resumed.view_data is not None, timeout=5_000)
    assert resumed.board_page.isVisible()


# --- one turn number, full time ----------------------------------------------------------


def test_soccero_header_and_panel_tell_the_same_turn(qtbot, window: MainWindow) -> None:
    """Issue 13.5: the header said "Turn 2" (the side to move) beside the panel's "Turn 15 of 30"."""
    view = start(qtbot, window, "soccero", "easy", {"quick_setup": True})
    rng = random.Random(5)
    seen = set()
    for _ in range(30):
        state = view.view_data["state"]
        if state.get("phase") not in ("over", "toss", "ends", "setup"):
            played, per_half = state["turns_each"][state["turn"]], state["turns_per_half"]
            # The board's panel counts "Turn {played + 1} of {per_half} each this half": the
            # turns of the side to move (a set piece can give a side two turns in a row).
            assert f"Turn {min(played + 1, per_half)} of {per_half} each" in view.phase_label.text()
            seen.add(played + 1)
        play_clicks(qtbot, view, 1, rng)
        if len(seen) >= 2 or view.stack.currentWidget() is not view.board_page:
            break
    assert len(seen) >= 2, seen


def test_after_full_time_a_click_on_the_board_says_the_match_is_over(qtbot, window: MainWindow) -> None:
    """Issue 13.6: after full time a click said "Wait for the dice." and a stale "Wait for the last
    move to finish showing." stayed on screen."""
    view = start(qtbot, window, "soccero", "easy", {"quick_setup": True, "turns": 1}, speed="fast")
    play_clicks(qtbot, view, 400, random.Random(4))
    qtbot.waitUntil(lambda: view.stack.currentWidget() is view.summary_page, timeout=20_000)
    assert view.phase_label.text() == "Full time"
    # QA pass 15: a Tab and Enter still in the rhythm of play started a rematch at once; Tab
    # reaches Rematch last now, after Look at the board, Replay and review and Home.
    window.activateWindow()
    order = []
    for _ in range(4):
        press(window, Qt.Key.Key_Tab)
        order.append(QApplication.focusWidget())
    page = view.summary_page
    assert order == [page.board, page.replay, page.home, page.rematch]
    qtbot.mouseClick(view.summary_page.board, Qt.MouseButton.LeftButton)
    assert view.board_page.isVisible()
    click_on_screen(view.view.viewport(), view.view.viewport().rect().center())
    hint = view.hint_label.text()
    assert hint.startswith("Full time") and "Wait" not in hint, hint
    click_on_screen(view.view.viewport(), QPoint(5, 5))
    assert view.hint_label.text().startswith("Full time")
    # The result, with its Rematch and Replay, is one click away again.
    assert not view.undo_button.isVisible()
    click_on_screen(view.result_button, view.result_button.rect().center())
    assert view.summary_page.isVisible() and view.summary_page.rematch.isEnabled()


# --- animations in words ---------------------------------------------------------------


@pytest.mark.parametrize("game_id", ["big-time-soccer", "soccer-go"])
def test_animations_show_cards_by_name_not_by_code(qtbot, window: MainWindow, game_id: str) -> None:
    """Issue 13.7: card faces read "DDR1P" (Big Time Soccer) and "DEF BLOCK 3" (Soccer-Go)."""
    view = start(qtbot, window, game_id, "easy", speed="fast")
    shown: list[tuple[Animation, list]] = []
    play = view.animation.play

    lines_at: list[tuple[int, int]] = []  # (lines when an animation began, its events' count)

    def spy(animations, speed, backdrop=None, **options):
        events = list(view._pending_view[1])
        shown.extend((a, events) for a in animations)
        # The lines these events add: the log tells a secret's public twin only to the other seat.
        twins = retold(events, lambda audience: view._log_seat in audience)
        told = [e for i, e in enumerate(events) if i not in twins and view.event_words(e)]
        lines_at.append((len(view.log_lines()), len(told)))
        play(animations, speed, backdrop, **options)

    view.animation.play = spy
    spoiled = []
    # The log tells what the animation shows only once it is over (not "Home wins the ball"
    # while the die still rolls).
    view.animation.done.connect(lambda: spoiled.append(len(view.log_lines()) - lines_at[-1][0] < lines_at[-1][1]))
    rng = random.Random(6)
    for _ in range(120):
        play_clicks(qtbot, view, 1, rng)
        if sum(a.kind == "card" for a, _events in shown) >= 3 or view.stack.currentWidget() is not view.board_page:
            break
    cards = [(a, events) for a, events in shown if a.kind == "card"]
    assert cards, "no card was animated"
    assert spoiled and not any(spoiled)
    for animation, events in cards:
        codes = {str(v) for e in events for v in (e.get("data") or {}).values() if isinstance(v, str)}
        codes |= {c.replace("-", " ").upper() for c in codes}
        assert not set(animation.faces) & codes, (animation.faces, codes)
        assert animation.text in [view.event_words(e) for e in events]


def test_a_half_time_banner_is_not_lost_behind_the_second_halfs_deal(qtbot, window: MainWindow) -> None:
    """Big Time Soccer deals twelve cards right after half-time, and only the last few
    animations of one position are played: the HALF-TIME banner (and a goal) stays among them."""
    view = start(qtbot, window, "big-time-soccer", "easy")
    half_time = {"kind": "half_time", "text": "Half-time: 1-1", "data": {}}
    deal = [{"kind": "draw", "text": "Seat 0 draws a card", "data": {"seat": 0}} for _ in range(12)]
    shown = view._animations_for([half_time, *deal])
    assert [a.kind for a in shown] == ["banner", "card", "card"]
    goal = {"kind": "goal", "text": "GOAL! Seat 0 scores", "data": {}}
    assert [a.kind for a in view._animations_for([goal, half_time, *deal])][0] == "banner"  # the later one
    assert [a.kind for a in view._animations_for(deal)] == ["card"] * 3  # nothing else changes


def test_a_card_face_is_named_by_the_board() -> None:
    named = {"DDR1P": "Dribble Right 1", "def-block-3": "BLOCK"}
    face = animation_for(
        {"kind": "reveal", "text": "x", "data": {"attacker": "DDR1P", "defender": ["def-block-3", 4]}},
        card_name=lambda code: named.get(code, code),
    )
    assert face is not None and face.faces == ("Dribble Right 1", "BLOCK+4")
    drawn = animation_for({"kind": "draw", "text": "y", "data": {"card": "def-block-3"}})
    assert drawn is not None and drawn.faces == ("Def block 3",)


# --- one match, one window ----------------------------------------------------------------


def _hold_lock(path: Path) -> subprocess.Popen[str]:
    """Another running soccerdesk holding the lock of the match file ``path`` (until it is killed)."""
    return hold_lock_elsewhere(Path(f"{path}.lock"))


def test_a_match_open_in_one_window_is_refused_in_another(qtbot, window: MainWindow, settings: AppSettings) -> None:
    """Issue 13.10: a second copy resumed the first one's open match; the two overwrote each other."""
    view = start(qtbot, window, "soccer-go", "normal")
    play_clicks(qtbot, view, 1, random.Random(1))
    autosave = window.session.autosave
    second = MainWindow(AppSettings(settings.qsettings, settings.data_dir))
    qtbot.addWidget(second)
    second.show()
    qtbot.waitUntil(lambda: second.home.loaded, timeout=20_000)
    recent = second.home.recent
    assert recent.item(0).data(Qt.ItemDataRole.UserRole) == autosave
    qtbot.mouseClick(recent.viewport(), Qt.MouseButton.LeftButton, pos=recent.visualItemRect(recent.item(0)).center())
    qtbot.mouseClick(second.home.resume_button, Qt.MouseButton.LeftButton)
    assert second.match_view is None
    assert second.last_message.startswith("This match is being played in another soccerdesk window")
    assert second.last_message.endswith(f"Match file: {autosave.name}")
    # Once the first window leaves the match, the second may take it up.
    window.go_home()
    qtbot.mouseClick(second.home.resume_button, Qt.MouseButton.LeftButton)
    assert second.match_view is not None
    second.close()


def test_the_lock_of_a_copy_that_is_gone_is_taken_over(qtbot, window: MainWindow, tmp_path: Path) -> None:
    view = start(qtbot, window, "soccer-go", "normal")
    play_clicks(qtbot, view, 1, random.Random(1))
    autosave = window.session.autosave
    window.go_home()
    with _hold_lock(autosave) as holder:
        try:
            assert not window.open_path(autosave)
            assert f"process {holder.pid}" in window.last_message
        finally:
            holder.kill()  # the other copy dies without unlocking (a crash)
            holder.wait()
    assert Path(str(autosave) + ".lock").exists()
    assert window.open_path(autosave)
    assert window.match_view is not None


def test_a_long_match_opened_from_a_file_shows_the_end_of_its_log(qtbot, window: MainWindow, tmp_path: Path) -> None:
    """Issue 13.2 with many lines at once (a resumed match): wrapped lines not yet painted once
    made the log's scroll range fall short of its last line."""
    from soccerdesk.rules import get_game
    from soccerdesk.ui.screenshot import SEED, middle_position
    from soccerdesk.ui.session import APP_KEY

    fit_on_screen(window)
    game = get_game("soccer-go")
    record = middle_position(game, SEED)
    record[APP_KEY] = {"players": [{"kind": "human", "name": "Home"}, {"kind": "human", "name": "Away"}]}
    path = tmp_path / "long.json"
    path.write_text(json.dumps(record))
    assert window.open_path(path)
    view = window.match_view
    qtbot.waitUntil(lambda: view.stack.currentWidget() is view.handover_page, timeout=10_000)
    qtbot.mouseClick(view.handover_page.button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: ready(view) and view.view_data is not None, timeout=10_000)
    qtbot.wait(300)
    assert view.log.verticalScrollBar().maximum() > 0 and len(view.log_lines()) > 40
    assert newest_line_in_sight(view)


def test_pawn_soccer_header_keeps_the_turn_while_the_side_that_moved_may_substitute() -> None:
    """QA: the header said "Turn 2 of 100 each" while Home could still substitute in its turn 1;
    the header and the board's panel tell one turn number."""
    from soccerdesk.rules import get_game
    from soccerdesk.ui.boards.pawn_soccer import turns_finished
    from soccerdesk.ui.match_view import phase_text

    game = get_game("pawn-soccer")
    state = game.new_match(seed=5)
    rng = random.Random(5)
    shown_in_turn: dict[int, str] = {}
    after_turns = 0
    while not state.is_terminal() and state.ply < 400:
        seat = state.current_players()[0]
        if seat >= 0:
            view = state.view(0)
            inner = view["state"]
            header = phase_text(view)
            assert inner.get("phase") == "setup" or f"Turn {turns_finished(inner) // 2 + 1} of" in header, header
            if inner.get("phase") == "after_turn":
                after_turns += 1
                assert header == shown_in_turn[inner["side_to_move"]]
            elif inner.get("phase") in ("turn", "chain"):
                shown_in_turn[inner["side_to_move"]] = header
            state = state.apply(seat, rng.choice(state.legal_actions(seat)))
        else:
            outcomes = state.chance_outcomes()
            state = state.apply(seat, rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
    assert after_turns > 0


def test_tab_or_escape_lets_go_of_a_clear_begun_with_the_mouse(qtbot, window: MainWindow) -> None:
    """QA: after clicking "Clear (in play)", Tab previewed a card play while the prompt still said
    "Clear (in play): click a highlighted zone", and Escape did nothing."""
    view = start(qtbot, window, "big-time-soccer", "normal", speed="fast")
    rng = random.Random(2)
    for _ in range(60):
        qtbot.waitUntil(lambda: ready(view), timeout=20_000)
        if any(a.startswith("clear-in ") for a in view.board.legal()):
            break
        play_clicks(qtbot, view, 1, rng)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=5_000)
    before = view.hint_label.text()
    click_on_screen(view.view.viewport(), view.view.mapFromScene(view.board.pos_of(("mode", "clear-in"))))
    assert view.board.selection == (("mode", "clear-in"),) and view.hint_label.text() != before
    QTest.keyClick(window.windowHandle(), Qt.Key.Key_Escape)
    assert view.board.selection == () and view.hint_label.text() == before
    click_on_screen(view.view.viewport(), view.view.mapFromScene(view.board.pos_of(("mode", "clear-in"))))
    QTest.keyClick(window.windowHandle(), Qt.Key.Key_Tab)
    assert view.board.selection == () and view.hint_label.text() == before and view.board.preview


def _play_until(qtbot, view: MatchView, stop, rng: random.Random, limit: int = 200) -> None:
    """Play random legal actions with clicks on the board until ``stop()`` holds when the screen
    waits for a decision (the match over stops too)."""
    for _ in range(limit):
        qtbot.waitUntil(lambda: ready(view), timeout=20_000)
        if stop() or view.stack.currentWidget() is view.summary_page:
            return
        ply = view.view_data["ply"]
        click_action(qtbot, view, rng.choice(view.view_data["legal"]))
        qtbot.waitUntil(lambda ply=ply: view.view_data["ply"] != ply, timeout=20_000)
    raise AssertionError("the moment never came")


def test_big_time_soccer_lets_it_go_by_itself_against_the_computer(qtbot, window: MainWindow) -> None:
    """Asked to answer the computer's card with no card that can, the player had to click "Let
    it go" every time, about every other card of the opponent's. Against the computer the
    screen now lets it go by itself (View menu, on by default); switched off, it waits for
    the click. With a friend on this screen it always asks: a quick answer would tell."""
    assert window.settings.let_go_by_itself and window.let_go_action.isChecked()
    view = start(qtbot, window, "big-time-soccer", "normal")
    me = view.session.local_seats()[0]
    let_go: list[int] = []  # plies where the screen was asked, with "Let it go" the only answer
    view.session.view_changed.connect(
        lambda v, _e: let_go.append(v["ply"]) if v.get("legal") == ["reply none"] and v.get("seat") == me else None
    )
    rng = random.Random(3)
    # Never does the screen wait with "Let it go" as the only answer...
    _play_until(qtbot, view, lambda: len(let_go) >= 2 or view.view_data["legal"] == ["reply none"], rng)
    assert view.view_data["legal"] != ["reply none"] and len(let_go) >= 2
    assert sum("does not defend" in line for line in view.log_lines()) >= 2  # ...the log tells it
    # Switched off in the View menu, the screen waits for the click.
    window.let_go_action.trigger()
    assert not window.settings.let_go_by_itself
    _play_until(qtbot, view, lambda: view.view_data["legal"] == ["reply none"], rng)
    ply = view.view_data["ply"]
    qtbot.wait(300)
    assert view.view_data["ply"] == ply and view.view_data["legal"] == ["reply none"]
    click_action(qtbot, view, "reply none")
    qtbot.waitUntil(lambda: view.view_data["ply"] != ply, timeout=20_000)
    window.go_home()
    # A friend on this screen: asked every time, whatever the setting.
    window.let_go_action.trigger()
    friends = start(qtbot, window, "big-time-soccer", None)
    assert window.settings.let_go_by_itself and friends.let_go_by_itself
    assert not friends._lets_it_go({"game": "big-time-soccer", "legal": ["reply none"]})


def test_soccer_go_answers_no_card_by_itself_against_the_computer(qtbot, window: MainWindow) -> None:
    """QA pass 17: against the computer the prompt said "none of your cards blocks it — click No
    card" and still waited for the click, 7 times in a match. As in Big Time Soccer, the screen
    now answers for the player (the same View setting); with a friend it still asks."""
    assert window.settings.let_go_by_itself
    view = start(qtbot, window, "soccer-go", "normal")
    me = view.session.local_seats()[0]
    asked: list[str] = []  # the phases where "no card" was this player's only answer
    view.session.view_changed.connect(
        lambda v, _e: (
            asked.append(v["state"]["phase"]) if v.get("legal") == ["no card"] and v.get("seat") == me else None
        )
    )
    rng = random.Random(5)
    _play_until(qtbot, view, lambda: len(asked) >= 2 or view.view_data["legal"] == ["no card"], rng, limit=400)
    assert view.view_data["legal"] != ["no card"] and len(asked) >= 2, asked
    said = view.log_lines()
    if "block" in asked:  # a declined re-take is told by its result (the pass marked, the save)
        assert any("does not block" in line for line in said), said[-20:]
    window.go_home()
    friends = start(qtbot, window, "soccer-go", None)
    assert not friends._lets_it_go({"game": "soccer-go", "legal": ["no card"]})


NO_CARD_COULD_ANSWER = re.compile(r"^Home does not defend \(no card could answer\)( \(×\d+\))?$")
LET_IT_GO = re.compile(r"^Home does not defend( \(×\d+\))?$")


def test_the_log_says_when_the_screen_let_it_go_because_no_card_could_answer(qtbot, window: MainWindow) -> None:
    """QA s28 (first minutes): against the computer the screen lets the computer's card go for
    the player when no card in their hand can answer, and the log said "Home does not defend",
    the words of a Let it go clicked on purpose: on the first kick-off a new player read two
    choices they never made before a goal against them. That line now says no card could
    answer, in the match, after a resume and in the replay; a Let it go clicked while holding a
    card that could answer reads as before. Hot-seat never says it (it would tell what the
    hand holds)."""
    view = start(qtbot, window, "big-time-soccer", "easy")
    assert view.session.local_seats() == (0,) and view.names[0] == "Home"
    forced: list[int] = []  # plies where the screen answered for the player
    view.session.view_changed.connect(
        lambda v, _e: forced.append(v["ply"]) if v.get("legal") == ["reply none"] and v.get("seat") == 0 else None
    )
    chosen = False  # a Let it go clicked with a card that could answer
    rng = random.Random(4)
    for _ in range(400):
        qtbot.waitUntil(lambda: ready(view), timeout=20_000)
        if forced and chosen or view.stack.currentWidget() is view.summary_page:
            break
        legal, ply = view.view_data["legal"], view.view_data["ply"]
        chose_now = not chosen and "reply none" in legal and len(legal) > 1
        click_action(qtbot, view, "reply none" if chose_now else rng.choice(legal))
        qtbot.waitUntil(lambda ply=ply: view.view_data["ply"] != ply, timeout=20_000)
        chosen = chosen or chose_now
    assert forced and chosen, (forced, chosen)

    def said(lines: list[str]) -> tuple[int, int]:
        return sum(bool(NO_CARD_COULD_ANSWER.match(x)) for x in lines), sum(bool(LET_IT_GO.match(x)) for x in lines)

    lines = view.log_lines()
    assert all(n >= 1 for n in said(lines)), lines
    assert not any("could answer" in line for line in lines if not line.startswith("Home"))  # the computer's hand
    # Resumed from Recent matches, the log reads the same.
    autosave = window.session.autosave
    window.go_home()
    resumed = resume_the_newest(qtbot, window)
    assert resumed is not view
    assert said(resumed.log_lines()) == said(lines)
    window.go_home()
    # The replay tells it as the match did.
    record = json.loads(autosave.read_text())
    game = get_game("big-time-soccer")

    def replayed(record: dict) -> tuple[int, int]:
        window.show_replay(game, record, ("Home", "Away"))
        log = window.replay_view.log
        return said("\n".join(log.item(i).text() for i in range(log.count())).split("\n"))

    assert all(n >= 1 for n in replayed(record))
    # The same match as two people's at one screen: their line never says what the hand held.
    record["app"]["players"][1] = {"kind": "human", "name": "Away"}
    assert replayed(record)[0] == 0 and replayed(record)[1] >= 1
    hot_seat = LocalSession(game, (Player("human", "Home"), Player("human", "Away")), record=record)
    told = hot_seat._events.take_all((0, 1))
    hot_seat.close()
    assert any(e["kind"] == "reply" for e in told) and not any("could answer" in e["text"] for e in told)


def test_the_log_says_when_the_screen_answered_no_card_in_soccer_go() -> None:
    """As in Big Time Soccer: a Block the player could not answer, answered "no card" for them
    against the computer, says so in the log; the computer's own does not."""
    game = get_game("soccer-go")
    players = (Player("human", "Home"), Player("bot", "normal"))
    found: set[tuple[bool, int]] = set()
    for seed in range(40):
        rng = random.Random(seed)
        state = game.new_match(seed=seed)
        while not state.is_terminal() and (True, 0) not in found:
            seat = state.current_players()[0]
            action = sample_chance(state, rng) if seat == CHANCE else rng.choice(state.legal_actions(seat))
            after = state.apply(seat, action)
            for event in told_events(state, after, players):
                if event.kind == "no-block":
                    only = [str(a) for a in state.legal_actions(seat)] == ["no card"]
                    assert ("(no card could answer)." in event.text) == (only and seat == 0), event.text
                    found.add(("could answer" in event.text, seat))
            state = after
    assert (True, 0) in found


def test_to_play_is_said_once_the_computers_moves_have_been_shown(qtbot, window: MainWindow) -> None:
    """QA pass 17: while the computer's moves were still being shown ("Away (easy) draws a card",
    the die rolling), the status already said "Home to play"."""
    view = start(qtbot, window, "big-time-soccer", "easy", speed="normal")
    rng = random.Random(2)
    seen_while_showing: list[str] = []
    for _ in range(40):
        qtbot.waitUntil(lambda: ready(view), timeout=20_000)
        if view.stack.currentWidget() is view.summary_page:
            break
        ply = view.view_data["ply"]
        click_action(qtbot, view, rng.choice(view.view_data["legal"]))
        qtbot.waitUntil(lambda ply=ply: view.animating or view.view_data["ply"] != ply, timeout=20_000)
        while view.animating or view._queue:
            if view.animating:
                seen_while_showing.append(view.hint_label.text())
            qtbot.wait(20)
        if len(seen_while_showing) > 20:
            break
    assert seen_while_showing, "nothing was animated"
    assert not any(text.endswith("to play") for text in seen_while_showing), set(seen_while_showing)
    qtbot.waitUntil(lambda: ready(view), timeout=20_000)
    assert view.hint_label.text().endswith("to play")  # said once the moves have been shown


def test_time_played_stops_while_another_matchs_replay_is_open(
    qtbot, window: MainWindow, monkeypatch, tmp_path
) -> None:
    """QA pass 12: watching another match's replay (Match → Open match…) over a match in
    progress added the time watched to that match's "Time played"; going home pauses it."""
    import time as real_time

    from PySide6.QtWidgets import QPushButton

    from soccerdesk.rules import get_game, play_out
    from soccerdesk.ui import session as session_module

    class Clock:
        """The session's ``time`` module with a monotonic clock that moves when told to."""

        now = 1000.0

        def monotonic(self) -> float:
            return self.now

        def __getattr__(self, name: str) -> object:
            return getattr(real_time, name)

    clock = Clock()
    monkeypatch.setattr(session_module, "time", clock)
    view = start(qtbot, window, "pawn-soccer", "easy", {"quick_setup": True})
    clock.now += 10
    assert window.session.time_played() == pytest.approx(10)
    game = get_game("pawn-soccer")
    rng = random.Random(1)
    final = play_out(game.new_match(seed=1, goals=1), lambda s, seat: rng.choice(s.legal_actions(seat)), rng)
    path = tmp_path / "other.soccerdesk.json"
    path.write_text(json.dumps(game.dump(final)), encoding="utf-8")
    assert window.open_path(path)  # what Match → Open match… does with the file chosen
    assert window.replay_view is not None and window.pages.currentWidget() is window.replay_view
    clock.now += 100  # watching the other match
    close = next(b for b in window.replay_view.findChildren(QPushButton) if b.text() == "Close replay")
    qtbot.mouseClick(close, Qt.MouseButton.LeftButton)
    assert window.pages.currentWidget() is view
    clock.now += 5
    assert window.session.time_played() == pytest.approx(15)


def test_arrow_keys_pick_the_nearest_target_that_way_on_screen(qtbot, window: MainWindow) -> None:
    """QA pass 15: placing a player by keyboard took up to 300 Tabs (every legal square in turn).
    An arrow key now picks the target nearest that way on screen from the one picked."""
    view = start(qtbot, window, "pawn-soccer", "normal", {"quick_setup": False})
    qtbot.waitUntil(lambda: len(view.board.keyboard_actions()) > 20, timeout=20_000)
    board = view.board

    def spot() -> QPoint:
        text = board.keyboard_actions()[view.keys.index]
        assert board.preview == text
        return view.view.mapFromScene(board.pos_of(board.paths.paths[text][-1]))

    press(window, Qt.Key.Key_Right)  # nothing picked yet: the first, as Tab
    assert view.keys.index == 0
    moves = {Qt.Key.Key_Right: (1, 0), Qt.Key.Key_Down: (0, 1), Qt.Key.Key_Left: (-1, 0), Qt.Key.Key_Up: (0, -1)}
    moved = 0
    for key, (dx, dy) in moves.items():
        before = spot()
        press(window, key)
        after = spot()
        if after != before:
            moved += 1
            along = (after.x() - before.x()) * dx + (after.y() - before.y()) * dy
            across = abs((after.x() - before.x()) * dy - (after.y() - before.y()) * dx)
            assert along > 0 and across <= 2 * along, (key, before, after)
            assert "Enter plays:" in view.keyboard_label.text()
    assert moved >= 3  # a set-up offers squares every way from the first
    ply = view.view_data["ply"]
    press(window, Qt.Key.Key_Return)  # and Enter plays the one picked
    qtbot.waitUntil(lambda: view.view_data["ply"] > ply, timeout=20_000)


def test_the_keyboard_line_says_how_to_play_before_the_first_tab(qtbot, window: MainWindow) -> None:
    """QA pass 15: "Press Tab to pick an action…" appeared only once a key had been pressed."""
    from soccerdesk.ui.match_view import KEYS_OFFERED

    view = start(qtbot, window, "pawn-soccer", "normal", {"quick_setup": True})
    qtbot.waitUntil(lambda: bool(view.board.legal()), timeout=20_000)
    assert view.keyboard_label.text() == KEYS_OFFERED
    press(window, Qt.Key.Key_Tab)
    assert view.keyboard_label.text().startswith("Enter plays:")
