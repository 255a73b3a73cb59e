"""The screens at the window's smallest size (QA pass 11, findings 4 and 5): every home-screen
option reads whole, and a replay with its review draws the board nearly as big as a match does."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QComboBox, QLabel, QScrollArea

from soccerdesk.bots import make_bot
from soccerdesk.learn import review
from soccerdesk.rules import GAMES, get_game
from soccerdesk.sim import play_match
from soccerdesk.ui.home import ChoiceBox, OptionsForm
from soccerdesk.ui.main_window import MainWindow
from soccerdesk.ui.review_chart import ReviewPanel


def _smallest(qtbot, window: MainWindow) -> None:
    window.resize(window.minimumSize())
    qtbot.waitUntil(lambda: window.size() == window.minimumSize(), timeout=2_000)
    qtbot.wait(50)  # the layouts settle


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
