"""The review chart under the replay: worked out in the background with progress, kept with
the record (opening again is instant), clicking the chart moves the replay there."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from clicking import click
from PySide6.QtCore import QPoint, Qt

from soccerdesk.bots import make_bot
from soccerdesk.learn import review
from soccerdesk.rules import get_game
from soccerdesk.sim import play_match
from soccerdesk.ui.replay import ReplayViewer
from soccerdesk.ui.review_chart import ReviewChart, attach_review, turning_line

WORLDS = 2


@cache
def _record(game_id: str = "pawn-soccer", seed: int = 7) -> dict[str, Any]:
    result = play_match(game_id, [make_bot("heuristic", game_id) for _ in (0, 1)], seed, swap=False, options={})
    assert result.record is not None
    return result.record


@cache
def _reviewed(game_id: str = "pawn-soccer") -> dict[str, Any]:
    record = _record(game_id)
    return review.attach(record, review.review_match(record, worlds=WORLDS))


def _viewer(qtbot, record: dict[str, Any]) -> ReplayViewer:
    viewer = ReplayViewer(get_game(str(record["game"])), record)
    qtbot.addWidget(viewer)
    viewer.resize(1000, 760)
    viewer.show()
    qtbot.waitExposed(viewer)
    return viewer


def test_a_kept_review_shows_at_once_and_a_click_moves_the_replay(qtbot) -> None:
    record = _reviewed()
    viewer = _viewer(qtbot, record)
    panel = attach_review(viewer, record, executor=ThreadPoolExecutor(max_workers=1))
    assert panel.review == review.stored(record)  # nothing worked out again
    assert not panel.working and panel.progress.isHidden()
    assert "turning point" in panel.caption.text()
    chart = panel.chart
    qtbot.waitUntil(lambda: chart.isVisible() and chart.height() < 300)
    target = max(panel.review.turning, key=lambda i: abs(panel.review.swing(i)))
    spot = QPoint(round(chart.x_of(target)), chart.height() // 2)
    click(qtbot, chart, spot, "the review chart")
    assert viewer.index == target
    assert viewer.slider.value() == target
    assert chart.current == target  # the chart's marker follows the replay
    viewer.slider.setValue(3)
    assert chart.current == 3
    # Keys: the next turning point, one step back.
    chart.setFocus()
    qtbot.keyClick(chart, Qt.Key.Key_PageDown)
    assert viewer.index == next(i for i in panel.review.turning if i > 3)
    qtbot.keyClick(chart, Qt.Key.Key_Left)
    assert viewer.index == next(i for i in panel.review.turning if i > 3) - 1


def test_worked_out_in_the_background_with_progress_then_kept_in_the_file(qtbot, tmp_path: Path) -> None:
    record = {**_record(), "actions": _record()["actions"][:90]}  # a saved match, cut short to keep this quick
    path = tmp_path / "match.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    viewer = _viewer(qtbot, record)
    seen: list[int] = []
    pool = ThreadPoolExecutor(max_workers=1)
    panel = attach_review(viewer, record, path=path, executor=pool)
    panel.progress.valueChanged.connect(seen.append)
    assert panel.working and not panel.progress.isHidden()
    assert panel.progress.maximum() == len(record["actions"]) + 1
    with qtbot.waitSignal(panel.ready, timeout=60_000) as ready:
        pass
    kept = ready.args[0]
    assert seen == sorted(seen) and len(seen) == len(review.slices(record)) and seen[-1] == panel.progress.maximum()
    assert panel.progress.isHidden() and panel.review is not None
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved == kept and review.stored(saved) == panel.review
    assert get_game("pawn-soccer").load(saved) == get_game("pawn-soccer").load(record)
    # Opening the file again: the review is there at once.
    again = attach_review(_viewer(qtbot, saved), saved, executor=pool)
    assert again.review == panel.review and not again.working
    pool.shutdown()


def test_the_chart_in_the_bot_process(qtbot) -> None:
    """The real path: slices worked out by the app's bot process."""
    from soccerdesk.ui.bot_pool import BotProcess

    record = {**_record("soccer-go"), "actions": _record("soccer-go")["actions"][:30]}
    pool = BotProcess()
    try:
        viewer = _viewer(qtbot, record)
        panel = attach_review(viewer, record, executor=pool)
        with qtbot.waitSignal(panel.ready, timeout=90_000):
            pass
        expected = review.review_match(record)
        assert panel.review == expected  # the same figures in either process
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def test_clicks_on_an_empty_chart_do_nothing(qtbot) -> None:
    chart = ReviewChart()
    qtbot.addWidget(chart)
    chart.resize(400, 120)
    chart.show()
    chosen: list[int] = []
    chart.position_chosen.connect(chosen.append)
    qtbot.mouseClick(chart, Qt.MouseButton.LeftButton, pos=QPoint(200, 60))
    assert chosen == []
    assert chart.index_at(200) == 0


@pytest.mark.parametrize("x, expected", [(0, 0), (10_000, 99)])
def test_index_at_stays_inside_the_match(qtbot, x: int, expected: int) -> None:
    chart = ReviewChart()
    qtbot.addWidget(chart)
    chart.resize(400, 120)
    record = {"game": "pawn-soccer", "seed": 0, "options": {}, "actions": [[0, "x"]] * 99}
    chart.set_review(review.build(record, [0.5] * 100))
    assert chart.index_at(x) == expected
    assert chart.index_at(chart.x_of(40)) == 40


def _made_up(home: list[float]) -> review.Review:
    record = {"game": "soccer-go", "seed": 0, "options": {}, "actions": [[0, "x"]] * (len(home) - 1)}
    return review.build(record, home)


def test_the_turning_point_line_names_the_swing_that_lasted_in_plain_sentences() -> None:
    """Pass 11, finding 1: an estimate that dips for one step and comes back is not the
    biggest turning point, and the step's own words (brackets and all) are sentences of their
    own, never nested in the line's brackets."""
    # Step 5 dips (Home's chance 50% -> 10%) and step 6 undoes it; step 9 is Away's goal.
    home = [0.5, 0.5, 0.52, 0.5, 0.5, 0.1, 0.5, 0.52, 0.5, 0.2, 0.22, 0.2, 0.21, 0.2]
    found = _made_up(home)
    assert found.turning == (9,) and found.biggest_turn() == 9
    describe = ["Home has chosen."] * (len(home) - 1)
    describe[8] = "The 7th pass reaches number 2 (the defender marked number 4).\nAway shoots\ngoal for Away! 0-1."
    line = turning_line(found, ("Home", "Away"), describe)
    assert line == (
        "Biggest turning point, step 9: The 7th pass reaches number 2 (the defender marked number 4). "
        "Away shoots. Goal for Away! 0-1. Away's chance of winning rose from about 50% to about 80%. "
        "The ring marks it; click the chart to go there."
    )
    depth = 0
    for char in line:
        depth += {"(": 1, ")": -1}.get(char, 0)
        assert 0 <= depth <= 1  # no bracket inside another
    assert ".)" not in line and "):" not in line
    # Without the step's words, and with several turning points.
    several = _made_up([0.5] * 6 + [0.9] * 6 + [0.3] * 6)
    assert several.turning == (6, 12)
    assert turning_line(several, ("Ann", "Bob")) == (
        "Biggest turning point, step 12: Bob's chance of winning rose from about 10% to about 70%. "
        "Rings mark the 2 biggest swings; click the chart to go there."
    )
    assert turning_line(_made_up([0.5] * 8), ("Ann", "Bob")).startswith("No single action changed the match much")


def test_the_screenshot_command_draws_a_review(tmp_path: Path) -> None:
    from soccerdesk.app import main

    path = tmp_path / "review.png"
    assert main(["--screenshot", "review:soccer-go", str(path), "--size", "900x700"]) == 0
    assert path.stat().st_size > 10_000


def test_a_finished_match_file_opens_in_the_replay_with_its_review(qtbot, window, tmp_path: Path) -> None:
    """The app's own path: Open a finished match -> replay with the review worked out in the bot
    process and written into the file; opening it again shows the review at once."""
    from soccerdesk.ui.review_chart import ReviewPanel

    record = _record("soccer-go")
    path = tmp_path / "finished.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert window.open_path(path)
    panel = window.replay_view.findChild(ReviewPanel)
    assert panel is not None and panel.working
    qtbot.waitUntil(lambda: panel.review is not None, timeout=120_000)
    assert review.stored(json.loads(path.read_text(encoding="utf-8"))) == panel.review
    window.go_home()
    assert window.open_path(path)
    again = window.replay_view.findChild(ReviewPanel)
    assert again is not panel and again.review == panel.review and not again.working


def test_a_review_that_cannot_be_kept_in_its_file_is_shown_all_the_same(qtbot, tmp_path: Path) -> None:
    """Files audit, finding 4: a replay opened from a place that cannot be written (here the
    file's temporary file cannot be made) never showed its review, the bar stuck at 100 %. The
    review shows; a quiet line says that it could not be kept, and the file is unchanged."""
    record = {**_record(), "actions": _record()["actions"][:60]}
    path = tmp_path / "friend-match.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    path.with_suffix(".tmp").mkdir()  # the write fails part-way, as in a read-only folder
    viewer = _viewer(qtbot, record)
    pool = ThreadPoolExecutor(max_workers=1)
    panel = attach_review(viewer, record, path=path, executor=pool)
    with qtbot.waitSignal(panel.ready, timeout=60_000):
        pass
    assert panel.review is not None and panel.progress.isHidden() and panel.chart.isVisible()
    assert "turning point" in panel.caption.text()
    assert panel.note.isVisible()
    assert panel.note.text() == (
        "The review could not be kept in friend-match.json (is a directory): it is worked out again"
        " the next time the match is opened."
    )
    assert json.loads(path.read_text(encoding="utf-8")) == record
    pool.shutdown()


class _Recording(ThreadPoolExecutor):
    """The bot process as the window sees it, noting what is asked of it."""

    def __init__(self) -> None:
        super().__init__(max_workers=1)
        self.asked: list[str] = []

    def submit(self, fn, /, *args, **kwargs):  # type: ignore[no-untyped-def, override]
        self.asked.append(fn.__name__)
        return super().submit(fn, *args, **kwargs)


@pytest.mark.parametrize("leave", ["home", "quit"])
def test_leaving_a_replay_by_home_or_quit_stops_its_review(qtbot, settings, leave: str) -> None:
    """The review works in slices in the one bot process, which does one thing at a time: a
    review left running behind Home (the menu's, which does not go through the replay's own
    Back) went on asking for slices, and the next match's computer opponent waited behind
    them (a Soccer-Go slice took seconds). Leaving stops it; its slices are small enough that
    the one in progress ends soon."""
    from test_home_saves import choose_entry, entry_of

    from soccerdesk.ui.main_window import MainWindow

    record = _record("soccer-go", 3)
    assert all(stop - start <= review.SLICES["soccer-go"] for start, stop in review.slices(record))
    settings.autosave_dir.mkdir(parents=True, exist_ok=True)
    path = settings.autosave_dir / "finished.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    pool = _Recording()
    window = MainWindow(settings, bot_pool=pool)
    qtbot.addWidget(window)
    window.resize(1200, 780)
    window.show()
    qtbot.waitUntil(lambda: window.home.loaded, timeout=20_000)
    choose_entry(qtbot, window, entry_of(window, path))
    click(qtbot, window.home.resume_button, what="Resume / replay")
    qtbot.waitUntil(lambda: window.replay_view is not None and "estimate_slice" in pool.asked, timeout=20_000)
    if leave == "home":
        window.home_action.trigger()  # Match → Home
        qtbot.waitUntil(lambda: window.pages.currentWidget() is window.home, timeout=5_000)
    else:
        window.close()
    asked = len(pool.asked)
    qtbot.wait(3 * 200 + 1500)  # several of the panel's polls, and a slice's time
    assert len(pool.asked) == asked, pool.asked[asked:]
    pool.shutdown(wait=True, cancel_futures=True)
