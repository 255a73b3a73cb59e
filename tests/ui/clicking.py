"""Playing the app with real clicks only, as a person does, in a shown window.

Every click goes through :func:`click`, which first asks Qt which widget is under that spot
(``QApplication.widgetAt``) and fails when it is not the widget meant: a transparent layer
that swallows the mouse is caught here, not only a click that changes nothing. The home
screen is set up by clicking (the game card, the opponent's drop-down and its entry, option
boxes) and typing; a match is played by clicking the board view's viewport at the on-screen
spot of each thing on the chosen action's click path, and animations are either watched to
their end or skipped with a click on them.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from driving import click_on_screen, ready
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QCheckBox, QComboBox, QSpinBox, QWidget

from soccerdesk.ui.main_window import MainWindow
from soccerdesk.ui.match_view import MatchView

WAIT_MS = 20_000
"""Longest wait for one thing to happen on screen (a bot's move, an animation)."""


def widget_under(widget: QWidget, pos: QPoint) -> QWidget | None:
    """The widget a person's click at ``pos`` (in ``widget``'s coordinates) would reach."""
    return QApplication.widgetAt(widget.mapToGlobal(pos))


def bring_on_screen(widget: QWidget, spot: QPoint) -> None:
    """Move the window, as a person drags it, until ``spot`` of ``widget`` is on the screen.

    The offscreen test screen is 800 pixels wide, narrower than the home screen's window;
    Qt finds no widget at all beyond a screen's edge.
    """
    window = widget.window()
    screen = window.screen().availableGeometry().adjusted(8, 8, -8, -8)
    where = widget.mapToGlobal(spot)
    dx = max(0, screen.left() - where.x()) - max(0, where.x() - screen.right())
    dy = max(0, screen.top() - where.y()) - max(0, where.y() - screen.bottom())
    if dx or dy:
        window.move(window.pos() + QPoint(dx, dy))
        QApplication.processEvents()


def assert_reachable(widget: QWidget, pos: QPoint | None = None, what: str = "") -> QPoint:
    """``widget`` is what lies under ``pos`` (default: its centre) on screen; returns ``pos``."""
    spot = widget.rect().center() if pos is None else pos
    assert widget.rect().contains(spot), f"{what or widget.objectName()} at {spot} is outside its widget"
    bring_on_screen(widget, spot)
    found = widget_under(widget, spot)
    assert found is widget, (
        f"a click on {what or widget.objectName() or type(widget).__name__} at {spot} would reach "
        f"{type(found).__name__ if found else None} {found.objectName() if found else ''!r} instead"
    )
    return spot


def click(qtbot, widget: QWidget, pos: QPoint | None = None, what: str = "") -> None:
    """A left click on ``widget`` at ``pos`` (default: its centre), after checking it is on top
    there; delivered to the window, so whatever lies on top would get it, as with a mouse."""
    click_on_screen(widget, assert_reachable(widget, pos, what))


def choose_in_combo(qtbot, combo: QComboBox, data: Any) -> None:
    """Open a drop-down with a click and click the entry whose data is ``data``."""
    found = [i for i in range(combo.count()) if _same(combo.itemData(i), data)]
    assert found, f"{combo.objectName()} offers no {data!r}"
    index = found[0]
    click(qtbot, combo, what=combo.objectName())
    popup = combo.view()
    qtbot.waitUntil(popup.isVisible, timeout=WAIT_MS)
    popup.scrollTo(popup.model().index(index, 0))
    rect = popup.visualRect(popup.model().index(index, 0))
    click(qtbot, popup.viewport(), rect.center(), f"{combo.objectName()} entry {data!r}")
    qtbot.waitUntil(lambda: not popup.isVisible(), timeout=WAIT_MS)
    assert _same(combo.currentData(), data)


def _same(item_data: Any, data: Any) -> bool:
    """Item data compared as given (Qt hands a stored tuple back as a list)."""
    return tuple(item_data) == tuple(data) if isinstance(data, tuple) else item_data == data


def type_number(qtbot, spin: QSpinBox, value: int) -> None:
    """Click into a number box, select what is there and type ``value``."""
    edit = spin.lineEdit()
    click(qtbot, edit, what=spin.objectName())
    qtbot.keyClick(edit, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(edit, str(value))
    qtbot.keyClick(edit, Qt.Key.Key_Tab)
    assert spin.value() == value


def set_ticked(qtbot, box: QCheckBox, on: bool) -> None:
    if box.isChecked() != on:
        # The box itself, not the middle of its label: a person clicks the square.
        square = QPoint(box.style().pixelMetric(box.style().PixelMetric.PM_IndicatorWidth) // 2 + 1, box.height() // 2)
        click(qtbot, box, square, box.objectName())
    assert box.isChecked() == on


def start_match(qtbot, window: MainWindow, game_id: str, opponent: Any, options: dict[str, Any]) -> MatchView:
    """From the home screen: click the game, choose the opponent, set options, click Kick off.

    ``opponent`` is the drop-down's data: ``("bot", level)`` or ``("human", None)``.
    """
    home = window.home
    click(qtbot, home.cards[game_id], what=f"the {game_id} card")
    assert home.game_id == game_id
    if not _same(home.opponent.currentData(), opponent):
        choose_in_combo(qtbot, home.opponent, opponent)
    form = home.options_form
    assert form is not None
    for name, value in options.items():
        if isinstance(value, bool):
            set_ticked(qtbot, form.findChild(QCheckBox, f"option-{name}"), value)
        else:
            type_number(qtbot, form.findChild(QSpinBox, f"option-{name}"), value)
    qtbot.waitUntil(home.start_button.isEnabled, timeout=WAIT_MS)
    click(qtbot, home.start_button, what="Kick off")
    view = window.match_view
    assert view is not None, home.message.text()
    return view


# --- a match ----------------------------------------------------------------------------


def on_summary(view: MatchView) -> bool:
    return view.stack.currentWidget() is view.summary_page


def on_handover(view: MatchView) -> bool:
    return view.stack.currentWidget() is view.handover_page


def deciding(view: MatchView) -> bool:
    """The board waits for the player at the screen (no animation pending or playing)."""
    return view.stack.currentWidget() is view.board_page and ready(view)


def target_spot(view: MatchView, key: Any) -> QPoint:
    """Where on the board view's viewport a person clicks to take ``key``."""
    scene_pos = view.board.pos_of(key)
    assert scene_pos is not None, f"{key} is not drawn on the board"
    return view.view.mapFromScene(scene_pos)


def assert_targets_reachable(view: MatchView) -> int:
    """Every highlighted target of the board lies under the board view's viewport on screen.

    Returns how many targets were checked.
    """
    viewport = view.view.viewport()
    targets = sorted(view.board.targets, key=repr)
    assert targets, "a decision with nothing to click"
    for key in targets:
        assert_reachable(viewport, target_spot(view, key), f"the board's target {key}")
    return len(targets)


def click_path(qtbot, view: MatchView, text: str) -> None:
    """Play ``text`` by clicking each thing on its path where the board draws it."""
    board = view.board
    played: list[str] = []
    board.action_chosen.connect(played.append)
    try:
        path = board.paths.paths[text]
        for step, key in enumerate(path):
            assert key in board.targets, f"{key} (step {step + 1} of {text!r}) is not highlighted"
            click(qtbot, view.view.viewport(), target_spot(view, key), f"{key} of {text!r}")
            if step + 1 < len(path):
                assert board.selection == path[: step + 1], f"the click on {key} did not select it"
    finally:
        board.action_chosen.disconnect(played.append)
    # Pawn Soccer's window after a turn ("sub" or "end") ends by itself unless the player asked
    # for it (View menu): an "end" may follow the action clicked. So may a Soccer-Go "no card"
    # the screen answers by itself against the computer (View → Let it go by itself).
    assert played[:1] == [text] and set(played[1:]) <= {"end", "no card"}, (
        f"clicking the path of {text!r} played {played}"
    )


@dataclass
class Tally:
    """What a match played with clicks went through."""

    decisions: int = 0
    targets_checked: int = 0
    animations_watched: int = 0
    animations_skipped: int = 0
    handovers: int = 0
    after_animation_checks: int = 0
    played: list[str] = field(default_factory=list)


def play_with_clicks(
    qtbot,
    view: MatchView,
    choose: Callable[[list[str], random.Random], str],
    *,
    seed: int,
    watch_animations: int = 3,
    budget_s: float = 240.0,
) -> tuple[dict[str, Any], Tally]:
    """Play the match on screen to full time with clicks only; returns the summary and a tally.

    At every decision each highlighted target is checked to be under the board's viewport.
    The first ``watch_animations`` animations run to their end; later ones are skipped with a
    click on them, as an impatient player does. Fails when the match outlasts ``budget_s``.
    """
    rng = random.Random(seed)
    tally = Tally()
    deadline = time.monotonic() + budget_s
    after_animation = False
    while True:
        assert time.monotonic() < deadline, f"the match did not reach full time in {budget_s} s ({tally})"
        qtbot.waitUntil(
            lambda: on_summary(view) or on_handover(view) or deciding(view) or view.animation.running,
            timeout=WAIT_MS,
        )
        if on_summary(view):
            assert view._finished is not None
            return view._finished, tally
        if view.animation.running:
            after_animation = True
            if tally.animations_watched < watch_animations:
                tally.animations_watched += 1
                qtbot.waitUntil(lambda: not view.animation.running, timeout=WAIT_MS)
            else:
                tally.animations_skipped += 1
                click(qtbot, view.animation, what="the animation (to skip it)")
                qtbot.waitUntil(lambda: not view.animation.running, timeout=WAIT_MS)
            continue
        if on_handover(view):
            tally.handovers += 1
            click(qtbot, view.handover_page.button, what="the hand-over button")
            continue
        shown = view.view_data
        assert shown is not None
        legal = list(shown["legal"])
        missing = [text for text in legal if text not in view.board.paths.paths]
        assert not missing, f"legal actions with nothing to click: {missing}"
        tally.decisions += 1
        tally.targets_checked += assert_targets_reachable(view)
        if after_animation:
            tally.after_animation_checks += 1
            after_animation = False
        text = choose(legal, rng)
        click_path(qtbot, view, text)
        tally.played.append(text)
        # The position moves on (ours, or a bot's move that came first), or another page shows.
        qtbot.waitUntil(
            lambda shown=shown: view.view_data is not shown or not deciding(view),
            timeout=WAIT_MS,
        )
