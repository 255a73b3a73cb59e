"""Issue 13: whole matches played the way a person plays them, with real clicks only.

Each match starts on the home screen (the game's card, the opponent's drop-down, Kick off),
and every decision is made by a mouse click on the board view's viewport at the on-screen
spot of a highlighted target. Before every click, Qt is asked which widget lies under each
legal target (``QApplication.widgetAt``): it must be the board's viewport, at the first
decision, after an animation ran to its end and after one was skipped with a click. The
window is shown (offscreen platform) and animations are on, so a layer left over the board
(issue 13, item 1) fails here even though the scene itself would still take the click.

Matches are shortened with the games' own options where they have one (Big Time Soccer has
none: its player offers to end each half, and plays cards rather than holding the ball) and
each is played to full time within a time budget.
"""

from __future__ import annotations

import gc
import random
from collections.abc import Iterator
from typing import Any

import pytest
from clicking import assert_targets_reachable, deciding, play_with_clicks, start_match
from PySide6.QtCore import QSettings

from soccerdesk.rules import GAMES
from soccerdesk.ui.main_window import MainWindow
from soccerdesk.ui.settings import AppSettings

SHORT = {
    "soccer-go": {"rounds": 1},
    "soccero": {"turns": 2, "quick_setup": True},
    "pawn-soccer": {"goals": 2, "turn_limit": 40, "quick_setup": True},
    "big-time-soccer": {},
}
"""Options a person sets on the home screen to play a short match."""

BUDGET_S = {"big-time-soccer": 300.0}
"""Time allowed for a whole match (the default for the others)."""


def choose(game_id: str):
    """How the test player picks among legal actions: at random, with Big Time Soccer's
    player ending halves early (propose, accept) and moving cards through the deck."""

    def pick(legal: list[str], rng: random.Random) -> str:
        if game_id == "big-time-soccer":
            for eager in ("accept-end", "propose-end"):
                if eager in legal:
                    return eager
            plays = [text for text in legal if text.split()[0] in ("play", "shoot", "discard", "clear-out")]
            if plays and rng.random() < 0.85:
                return rng.choice(plays)
        return rng.choice(legal)

    return pick


@pytest.fixture
def shown_window(qtbot, tmp_path) -> Iterator[MainWindow]:
    """The app's main window, shown, with animations on (fast) and a fresh settings file."""
    # Boards left by earlier tests (scenes in reference cycles with their items' paint
    # functions) are freed here, on the GUI thread. Left to the cyclic collector, one could be
    # freed on a bot or loader thread, where Qt cannot stop its timers: a crash later on.
    gc.collect()
    qsettings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    settings = AppSettings(qsettings, tmp_path / "data")
    settings.animation_speed = "fast"
    window = MainWindow(settings)
    qtbot.addWidget(window)
    window.show()
    # All of the window on the (offscreen) screen: nothing is found under a spot beyond its edge.
    screen = window.screen().availableGeometry()
    window.setGeometry(screen.x(), screen.y(), min(1280, screen.width()), min(800, screen.height()))
    qtbot.waitExposed(window)
    qtbot.waitUntil(lambda: window.home.loaded, timeout=30_000)
    yield window
    window.close()


@pytest.mark.parametrize("game_id", GAMES)
def test_a_whole_match_against_the_computer_with_real_clicks(qtbot, shown_window: MainWindow, game_id: str) -> None:
    """Issue 13, items 1 and "How it must be tested": home screen → Kick off → full time,
    every move a click on the board where its target is drawn, every target on top."""
    view = start_match(qtbot, shown_window, game_id, ("bot", "easy"), SHORT[game_id])
    # What the screen was asked to animate (watched, not driven): Pawn Soccer animates only
    # goals, so a goalless match of it has nothing to see; the other games roll or turn up
    # something every few moves.
    started: list[int] = []
    play_animations = view.animation.play

    def noting_play(animations: list, speed: float, backdrop=None, **options: Any) -> None:
        if speed > 0 and animations:
            started.append(len(animations))
        play_animations(animations, speed, backdrop, **options)

    view.animation.play = noting_play  # type: ignore[method-assign]
    # The first decision, before any animation has played: the board must take the mouse.
    qtbot.waitUntil(lambda: deciding(view), timeout=20_000)
    assert assert_targets_reachable(view) > 0
    summary, tally = play_with_clicks(qtbot, view, choose(game_id), seed=13, budget_s=BUDGET_S.get(game_id, 150.0))
    assert summary["game"] == game_id and summary["local_seats"] == [0]
    assert tally.decisions > 3 and tally.targets_checked >= tally.decisions
    if game_id != "pawn-soccer":
        assert started, "nothing was animated"
    if started:
        assert tally.animations_watched + tally.animations_skipped > 0, "an animation played unseen"
    if game_id != "pawn-soccer" or len(started) > 1:  # a first goal of two is followed by play
        assert tally.after_animation_checks > 0, "no decision came after an animation"
    assert view.summary_page.isVisible()


def test_a_whole_hot_seat_soccer_go_match_with_real_clicks(qtbot, shown_window: MainWindow) -> None:
    """Issue 13, item 1 (hot-seat): both players click, the hand-over cover is clicked away,
    and the board takes the mouse after every hand-over."""
    view = start_match(qtbot, shown_window, "soccer-go", ("human", None), SHORT["soccer-go"])
    summary, tally = play_with_clicks(qtbot, view, choose("soccer-go"), seed=7)
    assert summary["game"] == "soccer-go" and sorted(summary["local_seats"]) == [0, 1]
    assert tally.handovers > 2
    assert tally.decisions > 10
    assert tally.after_animation_checks > 0
