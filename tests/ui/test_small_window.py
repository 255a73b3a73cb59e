"""The screens at the window's smallest size (QA pass 11, findings 4 and 5): every home-screen
option reads whole, and a replay with its review draws the board nearly as big as a match does.

UI audit, item 3: the smallest window fits a 1024 × 600 laptop screen; there, and at 1024 × 600,
each game card keeps its whole description, and the match screens of the four games and a
lesson keep their buttons, panel and board targets on screen."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from clicking import WAIT_MS, assert_reachable, assert_targets_reachable, click, deciding, start_match
from painting import texts_on_screen
from PySide6.QtCore import QPoint, QSize
from PySide6.QtWidgets import QComboBox, QLabel, QPushButton, QScrollArea

from soccerdesk.bots import make_bot
from soccerdesk.learn import review
from soccerdesk.rules import GAMES, get_game
from soccerdesk.sim import play_match
from soccerdesk.ui.boards.drawing import SMALLEST_ON_SCREEN
from soccerdesk.ui.home import BLURBS, ChoiceBox, GameCard, OptionsForm
from soccerdesk.ui.main_window import MainWindow
from soccerdesk.ui.review_chart import ReviewPanel


def _smallest(qtbot, window: MainWindow) -> None:
    _sized(qtbot, window, window.minimumSize())


def _sized(qtbot, window: MainWindow, size: QSize) -> None:
    window.resize(size)
    qtbot.waitUntil(lambda: window.size() == size, timeout=2_000)
    qtbot.wait(50)  # the layouts settle


SMALL_LAPTOP = QSize(1024, 600)
"""A common small-laptop screen."""


def test_the_smallest_window_fits_a_small_laptop_screen_with_its_frame_and_task_bar(qtbot, window: MainWindow) -> None:
    """Audit 3: the smallest window was 1024 × 680, taller than a 1024 × 600 screen. A window
    asked to be smaller than the smallest (300 × 200: buttons overlapped) stays at the smallest."""
    smallest = window.minimumSize()
    assert smallest.width() <= SMALL_LAPTOP.width() - 16 and smallest.height() <= SMALL_LAPTOP.height() - 56
    window.resize(300, 200)
    qtbot.wait(50)
    assert window.width() >= smallest.width() and window.height() >= smallest.height()


@pytest.mark.parametrize("size", [QSize(500, 400), QSize(300, 200)])
def test_a_window_system_that_makes_the_window_smaller_gets_the_smallest_back(
    qtbot, window: MainWindow, size: QSize
) -> None:
    """Audit 3: with no window manager to keep the window to its smallest size (the tester's X
    server), a window dragged to 500 × 400 cut the match panel off, at 300 × 200 the buttons
    piled up. The window takes its smallest size back."""
    handle = window.windowHandle()
    handle.resize(size)  # as the window system does it, past the widget's own minimum
    qtbot.waitUntil(lambda: window.size() == window.minimumSize(), timeout=2_000)


def _description_whole(card: GameCard) -> None:
    """The card's title and both lines of its description fit under its picture."""
    lines = card.text().split("\n")
    assert len(lines) == 3 and " ".join(lines[1:]) == BLURBS[card.game_id], card.text()
    text_height = card.fontMetrics().lineSpacing() * len(lines)
    room = card.contentsRect().height() - card.iconSize().height()
    assert room >= text_height, f"{card.game_id}: {room} px under the picture for {text_height} px of text"
    widest = max(card.fontMetrics().horizontalAdvance(line) for line in lines)
    assert widest <= card.contentsRect().width(), f"{card.game_id}: a line of {widest} px in {card.width()}"


@pytest.mark.parametrize("size", ["smallest", "1024x600"])
def test_every_game_card_shows_its_whole_description(qtbot, window: MainWindow, size: str) -> None:
    """Audit 3: at 1024 × 600 each card's description was cut mid-sentence ("Cards move the
    ball up an"): in a low window the picture shrinks, never the text."""
    _sized(qtbot, window, window.minimumSize() if size == "smallest" else SMALL_LAPTOP)
    for card in window.home.cards.values():
        _description_whole(card)
    # The Recent matches list and its buttons are still there, under the cards.
    assert window.home.recent.height() >= 2 * window.home.recent.fontMetrics().lineSpacing()
    assert_reachable(window.home.resume_button, what="Resume / replay")


@pytest.mark.parametrize("waiting", [1, 2])
@pytest.mark.parametrize("size", ["smallest", "1024x600"])
def test_online_matches_waiting_on_the_home_screen_leave_the_cards_whole(
    qtbot, settings, size: str, waiting: int
) -> None:
    """The frame of online matches that may still be waiting (above Recent matches) takes its
    room from the list, not the cards: at 1024 × 600 with it inside the Recent matches box the
    cards' descriptions were cut. Its Resume and the list's buttons stay reachable."""
    from soccerdesk.ui.seats import RememberedSeat, about_key, remember_about, remember_seat

    for n in range(waiting):
        remember_seat(settings, RememberedSeat("ws://127.0.0.1:9/ws", f"ROOM{n}X", str(n) * 24, "Alice"))
        remember_about(settings, about_key(f"ROOM{n}X", str(n) * 24), f"Soccer-Go with Player {n}, 0–0")
    window = MainWindow(settings)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.home.loaded, timeout=20_000)
    _sized(qtbot, window, window.minimumSize() if size == "smallest" else SMALL_LAPTOP)
    assert window.home.waiting.isVisible()
    for card in window.home.cards.values():
        _description_whole(card)
    assert_reachable(window.home.waiting_resume, what="Resume (online)")
    assert_reachable(window.home.resume_button, what="Resume / replay")
    assert window.home.recent.height() >= 2 * window.home.recent.fontMetrics().lineSpacing()
    window.close()


def _panel_whole(view) -> None:
    """The match screen's side panel and header are on screen and not cut."""
    window = view.window()
    for button in (view.undo_button, view.rules_button, view.home_button):
        assert_reachable(button, what=button.text())
        right = button.mapTo(window, QPoint(button.width(), button.height()))
        assert right.x() <= window.width() and right.y() <= window.height(), button.text()
    for label in (view.hint_label, view.keyboard_label):
        right = label.mapTo(window, QPoint(label.width(), 0)).x()
        assert right <= window.width(), f"{label.objectName()} runs off the right edge"
    assert view.score_label.width() >= view.score_label.sizeHint().width(), view.score_label.text()


@pytest.mark.parametrize("game_id", GAMES)
def test_a_match_screen_works_at_the_smallest_window(qtbot, window: MainWindow, game_id: str) -> None:
    """Audit 3: at 500 × 400 the side panel was cut off ("Away (n"). At the smallest window the
    header, the side panel's buttons and every highlighted target of the board are on screen."""
    _smallest(qtbot, window)
    view = start_match(qtbot, window, game_id, ("bot", "normal"), {})
    qtbot.waitUntil(lambda: deciding(view), timeout=WAIT_MS)
    assert window.size() == window.minimumSize()
    _panel_whole(view)
    assert assert_targets_reachable(view) >= 1


def test_a_lesson_works_at_the_smallest_window(qtbot, window: MainWindow) -> None:
    """Audit 3: the guided first match at the smallest window: its words, its buttons and the
    board's highlighted targets are on screen."""
    _smallest(qtbot, window)
    click(qtbot, window.home.cards["pawn-soccer"], what="the Pawn Soccer card")
    click(qtbot, window.home.learn_button, what="Learn to play")
    qtbot.waitUntil(lambda: window.learn_view is not None and window.learn_view.isVisible(), timeout=WAIT_MS)
    lesson = window.learn_view
    for name in ("coach-show-me", "coach-leave", "coach-restart"):
        assert_reachable(lesson.findChild(QPushButton, name), what=name)
    words = lesson.findChild(QLabel, "coach-words")
    assert words.height() >= words.heightForWidth(words.width()), "the step's words are cut"
    assert assert_targets_reachable(lesson) >= 1  # the board's targets: what the lesson asks to click


@pytest.mark.parametrize("game_id", GAMES)
def test_every_option_reads_whole_at_the_smallest_window(qtbot, window: MainWindow, game_id: str) -> None:
    """QA 11.4: at 1024 × 680 the Options box scrolled sideways and cut "Any attacking zone
    outside t…"; scrolled right, it hid the labels."""
    _smallest(qtbot, window)
    window.home.cards[game_id].setChecked(True)
    form = window.home.options_form
    assert form is not None
    scroll = window.home.findChild(QScrollArea, "options-scroll")
    qtbot.waitUntil(lambda: form.isVisible() and form.width() <= scroll.viewport().width(), timeout=2_000)
    qtbot.wait(50)
    assert not scroll.horizontalScrollBar().isVisible()
    viewport = scroll.viewport()
    for widget in form.findChildren(QLabel) + form.findChildren(QComboBox):
        right = widget.mapTo(viewport, QPoint(widget.width(), 0)).x()
        assert right <= viewport.width(), f"{widget.objectName() or widget.text()} runs off the right edge"
        if isinstance(widget, QLabel):
            assert widget.width() >= widget.sizeHint().width(), widget.text()
    for combo in form.findChildren(QComboBox):
        for index in range(combo.count()):
            combo.setCurrentIndex(index)
            whole = combo.width() >= combo.sizeHint().width()
            assert whole or combo.currentText() in combo.toolTip(), combo.currentText()


def test_a_drop_down_too_narrow_for_its_choice_has_it_whole_in_its_tooltip(qtbot) -> None:
    form = OptionsForm(get_game("big-time-soccer"))
    qtbot.addWidget(form)
    form.show()
    combo = form.findChild(ChoiceBox, "option-pass_os")
    combo.setCurrentIndex(combo.findData("any-a-zone"))
    assert not combo.elided and "Any attacking zone" not in combo.toolTip()
    form.resize(combo.minimumWidth() + 10, form.height())
    qtbot.waitUntil(lambda: combo.width() < combo.sizeHint().width(), timeout=2_000)
    assert form.stacked  # the drop-downs went under their labels first
    assert combo.elided and combo.toolTip().startswith("Any attacking zone outside the box")


@cache
def _reviewed_record(game_id: str, seed: int = 5) -> dict[str, Any]:
    result = play_match(game_id, [make_bot("heuristic", game_id) for _ in (0, 1)], seed, swap=False, options={})
    assert result.record is not None
    return review.attach(result.record, review.review_match(result.record, worlds=2))


@pytest.mark.parametrize("game_id", ["soccer-go", "soccero"])
def test_a_replay_with_its_review_keeps_the_board_readable_at_the_smallest_window(
    qtbot, window: MainWindow, game_id: str
) -> None:
    """QA 11.5: at 1024 × 680 the review chart under the replay drew the board at about 60%, its
    panel text about 7 px high. The board is drawn at no less than 3/4 of a match screen's scale."""
    _smallest(qtbot, window)
    window.home.cards[game_id].setChecked(True)
    window.home.set_opponent("normal")
    window.home.start_button.click()
    match = window.match_view
    assert match is not None
    qtbot.waitUntil(lambda: match.view.isVisible() and match.view.transform().m11() < 1.5, timeout=5_000)
    qtbot.wait(100)
    in_match = match.view.transform().m11()
    window.go_home()

    record = _reviewed_record(game_id)
    window.show_replay(get_game(game_id), record, ("Home", "Away"))
    replay = window.replay_view
    assert replay is not None
    qtbot.waitUntil(lambda: replay.view.isVisible(), timeout=2_000)
    qtbot.wait(100)
    assert window.size() == window.minimumSize()
    panel = replay.findChild(ReviewPanel)
    assert panel.review is not None and panel.isVisible()  # the chart is shown, not hidden away
    assert replay.view.transform().m11() >= 0.75 * in_match

    window.resize(1600, 1000)  # room enough: the chart goes back under the board, the whole width
    qtbot.waitUntil(lambda: not replay.panels_beside, timeout=2_000)
    qtbot.waitUntil(lambda: panel.width() > replay.view.width(), timeout=2_000)


@pytest.mark.parametrize("size", ["smallest", "1920x1080"])
def test_the_soccero_match_screen_reads_at_8_points_at_the_smallest_window(
    qtbot, window: MainWindow, size: str
) -> None:
    """UI audit, left item: at 1000 × 540 the Soccero board's side panel and key read at about
    4 points, its row numbers and column letters at 4. Now the panel keeps its own size on
    screen and the pitch takes the rest: every text of the board is at least 8 points and
    fits its room; the key is in its short form, two entries to a row, the whole key in its
    tooltip. At 1920 × 1080 the panel and key are as before (the key's long form)."""
    _sized(qtbot, window, window.minimumSize() if size == "smallest" else QSize(1920, 1080))
    view = start_match(qtbot, window, "soccero", ("bot", "normal"), {})
    qtbot.waitUntil(lambda: deciding(view), timeout=WAIT_MS)
    qtbot.wait(50)
    texts = texts_on_screen(view.view)
    small = [(t.text, round(t.points, 1)) for t in texts if t.points < SMALLEST_ON_SCREEN - 0.05 and not t.on_a_disc]
    assert not small
    assert all(t.fits for t in texts), [t.text for t in texts if not t.fits]
    said = {t.text for t in texts}
    assert (
        {"KEY", "legal click", "goalkeeper"} <= said
        if size == "smallest"
        else {"KEY", "goalkeeper (number 1, ringed)"} <= said
    )
    assert {str(row) for row in range(1, 33)} | {"A", "U"} <= said  # every row number, the column letters
    if size == "smallest":
        key = next(i for i in view.board.items() if "a legal click now (white: chosen)" in i.toolTip())
        assert view.view.mapFromScene(key.sceneBoundingRect()).boundingRect().bottom() <= view.view.viewport().height()
