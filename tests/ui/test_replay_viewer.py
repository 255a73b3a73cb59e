"""The replay viewer as a person uses it: the log agrees with the board at every step (QA pass 12,
finding 5), reads as the match screen's log of the same match, and the choice of whose cards the
board shows is offered only in games where the players hold cards (finding 9)."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest
from clicking import click, start_match
from driving import click_on_screen, ready
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QListWidgetItem, QPushButton, QStyle, QStyleOptionSlider

from soccerdesk.rules import Action, State, get_game, play_out
from soccerdesk.ui.main_window import MainWindow
from soccerdesk.ui.match_view import MatchView
from soccerdesk.ui.replay import ReplayViewer

CARDS = {"big-time-soccer": True, "soccer-go": True, "pawn-soccer": False, "soccero": False}
"""Whether the players of each game hold hands of cards the other may not see."""


def _pawn_soccer_turn_ender(rng: random.Random):
    """A Pawn Soccer player who passes when it can, stops the chain and ends the turn without
    substituting: the actions that tell nothing of themselves, many times in a match."""

    def choose(state: State, seat: int) -> Action:
        legal = state.legal_actions(seat)
        for wanted in ("stop", "end", "pass"):
            found = [action for action in legal if str(action).split()[0] == wanted]
            if found:
                return rng.choice(found)
        return rng.choice(legal)

    return choose


@cache
def _record(game_id: str, seed: int = 3, plies: int | None = None) -> dict[str, Any]:
    """A match of ``game_id`` played out by chance (to full time unless ``plies`` says how far)."""
    game = get_game(game_id)
    rng = random.Random(seed)
    choose = _pawn_soccer_turn_ender(rng) if game_id == "pawn-soccer" else None
    stop = None if plies is None else (lambda state: state.ply >= plies)
    state = play_out(game.new_match(seed=seed), choose, rng, stop=stop)
    return game.dump(state)


def _viewer(qtbot, record: dict[str, Any]) -> ReplayViewer:
    viewer = ReplayViewer(get_game(str(record["game"])), record)
    qtbot.addWidget(viewer)
    viewer.resize(780, 640)  # all of it on the offscreen screen (800 pixels), to be clicked
    viewer.show()
    qtbot.waitExposed(viewer)
    viewer.activateWindow()
    viewer.setFocus()
    return viewer


def _button(viewer: ReplayViewer, label: str) -> QPushButton:
    found = [button for button in viewer.findChildren(QPushButton) if button.text() == label]
    assert len(found) == 1, label
    return found[0]


def _choose_cards_of(qtbot, viewer: ReplayViewer, seat: int) -> None:
    """Open "Show the cards of" with a click and click the entry of ``seat``."""
    click(qtbot, viewer.seat_box, what="whose cards")
    popup = viewer.seat_box.view()
    qtbot.waitUntil(popup.isVisible)
    entry = popup.visualRect(popup.model().index(seat, 0))
    click(qtbot, popup.viewport(), QPoint(popup.viewport().width() // 2, entry.center().y()), f"entry {seat}")
    qtbot.waitUntil(lambda: not popup.isVisible())


def _click(qtbot, view: MatchView, text: str) -> None:
    """Play ``text`` with mouse clicks on the board: each thing on its path, or its button."""
    board = view.board
    for key in board.paths.paths.get(text, (("action", text),)):
        scene_pos = board.pos_of(key)
        assert scene_pos is not None, f"{key} of {text!r} is not drawn on the board"
        click_on_screen(view.view.viewport(), view.view.mapFromScene(scene_pos))


def _highlighted(viewer: ReplayViewer) -> list[int]:
    return [viewer.log.row(item) for item in viewer.log.selectedItems()]


def _in_sight(viewer: ReplayViewer, item: QListWidgetItem) -> bool:
    """The whole line is inside the log's visible area."""
    return viewer.log.viewport().rect().contains(viewer.log.visualItemRect(item))


def _last_told_row(viewer: ReplayViewer, step: int) -> int | None:
    """The log row of the last action up to ``step`` that the log tells (row k: action k + 1)."""
    told = [row for row in range(step) if not viewer.log.item(row).isHidden()]
    return told[-1] if told else None


def _assert_at_the_start(viewer: ReplayViewer) -> None:
    """As when the replay opens: step 0, no line highlighted, the log at its top."""
    assert viewer.index == 0 and viewer.slider.value() == 0
    assert "step 0 of" in viewer.header.text()
    assert _highlighted(viewer) == []
    assert viewer.log.verticalScrollBar().value() == 0


def test_home_and_the_first_button_take_the_log_back_to_its_top(qtbot) -> None:
    """QA 12.5: after End, Home (or |◀) showed step 0 while the log stayed at the end with the
    full-time lines highlighted; ← from step 1 left "Coin toss: …" highlighted."""
    viewer = _viewer(qtbot, _record("soccer-go"))
    last = viewer.log.count() - 1
    assert viewer.log.verticalScrollBar().maximum() > 0  # the log is longer than its panel
    _assert_at_the_start(viewer)

    QTest.keyClick(viewer, Qt.Key.Key_End)
    assert viewer.index == last + 1
    assert _highlighted(viewer) == [_last_told_row(viewer, viewer.index)]
    assert _in_sight(viewer, viewer.log.item(_highlighted(viewer)[0]))
    assert "Full time" in viewer.log.item(_highlighted(viewer)[0]).text()

    QTest.keyClick(viewer, Qt.Key.Key_Home)
    _assert_at_the_start(viewer)

    QTest.keyClick(viewer, Qt.Key.Key_End)
    assert viewer.log.verticalScrollBar().value() > 0
    click(qtbot, _button(viewer, "|◀"), what="the first-position button")
    _assert_at_the_start(viewer)

    QTest.keyClick(viewer, Qt.Key.Key_Right)
    assert viewer.index == 1 and _highlighted(viewer) == [0]
    assert viewer.log.item(0).text().startswith("Coin toss: ")
    QTest.keyClick(viewer, Qt.Key.Key_Left)
    _assert_at_the_start(viewer)

    click(qtbot, _button(viewer, "▶"), what="the one-step-on button")
    assert viewer.index == 1 and _highlighted(viewer) == [0]
    click(qtbot, _button(viewer, "◀"), what="the one-step-back button")
    _assert_at_the_start(viewer)


def test_at_every_step_the_log_highlights_the_last_line_told_up_to_the_board(qtbot) -> None:
    """Stepping on and back with the arrow keys through a Pawn Soccer match full of actions the
    log does not tell ("stop", "end"): the highlighted line is always the last one told up to
    the board's step, in sight, and none at the start."""
    viewer = _viewer(qtbot, _record("pawn-soccer", plies=160))
    steps = len(viewer.states) - 1
    untold = [row + 1 for row in range(viewer.log.count()) if viewer.log.item(row).isHidden()]
    assert len(untold) > 10  # the test means something: many steps the log does not tell
    walk = [*range(1, steps + 1), *range(steps - 1, -1, -1)]
    for step, key in zip(walk, [Qt.Key.Key_Right] * steps + [Qt.Key.Key_Left] * steps, strict=True):
        QTest.keyClick(viewer, key)
        assert viewer.index == step
        row = _last_told_row(viewer, step)
        if row is None:  # nothing told yet: as at the start
            assert _highlighted(viewer) == [] and viewer.log.verticalScrollBar().value() == 0, step
        else:
            assert _highlighted(viewer) == [row], step
            assert _in_sight(viewer, viewer.log.item(row)), step
    _assert_at_the_start(viewer)

    # At a step the log does not tell, a click on the line it highlights goes to that line's step.
    step = next(s for s in untold if _last_told_row(viewer, s) is not None)
    viewer.slider.setValue(step)
    row = _last_told_row(viewer, step)
    assert row is not None and _highlighted(viewer) == [row]
    click(qtbot, viewer.log.viewport(), viewer.log.visualItemRect(viewer.log.item(row)).center(), "the line")
    assert viewer.index == row + 1 and _highlighted(viewer) == [row]


def test_a_pawn_soccer_replay_log_reads_as_the_match_screens_log(qtbot, window: MainWindow) -> None:
    """QA 12.9: the replay's log had "Home: Stop the chain" and "Home: End turn" after every
    turn, which the match screen never logs (it plays the window after a turn by itself). The
    replay now tells each action in the match screen's words, line for line, and nothing more.

    Two friends at one screen play both sides, so either may pass and stop the chain; a goal
    target out of reach, since at full time the match screen adds a line of its own."""
    view = start_match(qtbot, window, "pawn-soccer", ("human", None), {"goals": 20, "quick_setup": True})
    rng = random.Random(5)
    session = window.session
    assert session is not None
    played: list[str] = []
    for _ in range(300):
        qtbot.waitUntil(lambda: ready(view), timeout=20_000)
        if view.stack.currentWidget() is view.handover_page:
            click(qtbot, view.handover_page.button, what="I am …")
            continue
        assert view.stack.currentWidget() is view.board_page, view.log_lines()[-3:]
        played = [text for _seat, text in session.record()["actions"]]
        if "stop" in played and "end" in played and len(played) > 30:
            break
        legal = view.view_data["legal"]
        passes = [text for text in legal if text.startswith("pass ")]
        text = "stop" if "stop" in legal else rng.choice(passes or legal)
        shown = view.view_data
        _click(qtbot, view, text)
        qtbot.waitUntil(lambda shown=shown: view.view_data is not shown or not ready(view), timeout=20_000)
    # "Stop the chain" is a player's click, "end" the window after a turn the app closes by
    # itself: the old replay told both as lines of their own.
    assert "stop" in played and "end" in played, played
    record = session.record()

    replay = ReplayViewer(session.game, record, names=session.player_names())
    qtbot.addWidget(replay)
    rows = [replay.log.item(i) for i in range(replay.log.count())]
    told = [line for item in rows if not item.isHidden() for line in item.text().split("\n")]
    assert told == view.log_lines()
    assert not any(line.endswith(("Stop the chain", "End turn")) for line in told), told
    # Every action keeps its row, so a row is still the action it follows (the review reads them so).
    assert len(rows) == len(record["actions"])


@pytest.mark.parametrize("game_id", sorted(CARDS))
def test_whose_cards_is_offered_only_where_the_players_hold_cards(qtbot, game_id: str) -> None:
    """QA 12.9: Pawn Soccer's replay offered "Home's cards / Away's cards" though nobody holds a
    card. Where players do, the choice says it picks whose cards the board shows."""
    viewer = _viewer(qtbot, _record(game_id, plies=40))
    if not CARDS[game_id]:
        assert not viewer.seat_box.isVisible() and not viewer.seat_label.isVisible()
        return
    assert viewer.seat_box.isVisible() and viewer.seat_label.isVisible()
    assert viewer.seat_label.text() == "Show the cards of"
    assert [viewer.seat_box.itemText(i) for i in range(viewer.seat_box.count())] == ["Home", "Away"]
    QTest.keyClick(viewer, Qt.Key.Key_End)  # the cards are dealt by then
    step = viewer.index
    hands = [viewer.states[step].view(seat)["state"]["hand"] for seat in (0, 1)]
    assert hands[0] != hands[1] and viewer.board.view_data["state"]["hand"] == hands[0]
    _choose_cards_of(qtbot, viewer, 1)
    assert viewer.seat == 1 and viewer.index == step
    assert viewer.board.view_data["state"]["hand"] == hands[1]
    _choose_cards_of(qtbot, viewer, 0)
    assert viewer.seat == 0 and viewer.board.view_data["state"]["hand"] == hands[0]


def test_escape_closes_the_replay(qtbot) -> None:
    """QA pass 15: only "Close replay" or Ctrl+H left the replay; Escape did nothing."""
    viewer = _viewer(qtbot, _record("soccer-go"))
    with qtbot.waitSignal(viewer.closed, timeout=2_000):
        QTest.keyClick(viewer, Qt.Key.Key_Escape)


def test_the_replays_keys_work_wherever_the_keyboard_is_in_it(qtbot) -> None:
    """Keyboard audit 6: after one Tab (to the board, the log, the seat box or Close replay) Left
    and Right stopped stepping, and Space on the focused Close replay closed the replay."""
    viewer = _viewer(qtbot, _record("soccer-go"))
    qtbot.waitUntil(lambda: QApplication.activeWindow() is viewer)
    closed: list[bool] = []
    viewer.closed.connect(lambda: closed.append(True))
    close = _button(viewer, "Close replay")
    seen = set()
    for _ in range(8):  # Tab through the viewer, as a keyboard player does
        QTest.keyClick(viewer.windowHandle(), Qt.Key.Key_Tab)
        focused = QApplication.focusWidget()
        seen.add(focused)
        viewer.show_step(3)
        for key, step in ((Qt.Key.Key_Right, 4), (Qt.Key.Key_Left, 3), (Qt.Key.Key_End, len(viewer.states) - 1)):
            QTest.keyClick(viewer.windowHandle(), key)
            assert viewer.index == step, (focused, key)
        QTest.keyClick(viewer.windowHandle(), Qt.Key.Key_Home)
        assert viewer.index == 0, focused
        QTest.keyClick(viewer.windowHandle(), Qt.Key.Key_Space)
        assert viewer.play_button.isChecked(), focused
        QTest.keyClick(viewer.windowHandle(), Qt.Key.Key_Space)
        assert not viewer.play_button.isChecked() and not closed, focused
    assert {close, viewer.view, viewer.log} <= seen, seen
    QTest.keyClick(viewer.windowHandle(), Qt.Key.Key_Escape)
    assert closed


@pytest.mark.parametrize("game_id", ["soccero", "pawn-soccer"])
def test_a_jump_shows_the_last_turns_stepping_there_shows(qtbot, game_id: str) -> None:
    """UI review s28, 1: after a jump (End, a log row, a step back, the slider) the board drew
    the last turns from the shown step's events alone, added to those of the step it left: a
    Soccero jump showed moves from before it, a step back showed none at all. Now every way
    to a step draws the trails that stepping there with Right draws."""
    viewer = _viewer(qtbot, _record(game_id, plies=200))
    steps = len(viewer.states) - 1
    stepped = [list(viewer.board.trails)]
    for _ in range(steps):
        QTest.keyClick(viewer, Qt.Key.Key_Right)
        stepped.append(list(viewer.board.trails))
    assert viewer.index == steps
    assert sum(1 for trails in stepped if trails) > steps // 3  # the test means something

    def shows(step: int) -> None:
        assert viewer.index == step
        assert viewer.board.trails == stepped[step], step

    QTest.keyClick(viewer, Qt.Key.Key_Home)
    shows(0)
    QTest.keyClick(viewer, Qt.Key.Key_End)
    shows(steps)
    for _ in range(3):
        QTest.keyClick(viewer, Qt.Key.Key_Left)
        shows(viewer.index)
    told = [row for row in range(viewer.log.count()) if not viewer.log.item(row).isHidden()]
    rng = random.Random(5)
    for row in rng.sample(told, 12):
        item = viewer.log.item(row)
        viewer.log.scrollToItem(item)
        click(qtbot, viewer.log.viewport(), viewer.log.visualItemRect(item).center(), f"log row {row}")
        shows(row + 1)
    slider = viewer.slider
    option = QStyleOptionSlider()
    slider.initStyleOption(option)
    style = slider.style()
    QTest.keyClick(viewer, Qt.Key.Key_Home)
    for _ in range(6):  # the slider's handle dragged somewhere else
        handle = style.subControlRect(
            QStyle.ComplexControl.CC_Slider, option, QStyle.SubControl.SC_SliderHandle, slider
        )
        groove = style.subControlRect(
            QStyle.ComplexControl.CC_Slider, option, QStyle.SubControl.SC_SliderGroove, slider
        )
        to = QPoint(rng.randrange(groove.left(), groove.right()), handle.center().y())
        QTest.mousePress(slider, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, handle.center())
        QTest.mouseMove(slider, (handle.center() + to) / 2)
        QTest.mouseMove(slider, to)
        QTest.mouseRelease(slider, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, to)
        slider.initStyleOption(option)
        assert slider.value() != slider.minimum()
        shows(slider.value())
