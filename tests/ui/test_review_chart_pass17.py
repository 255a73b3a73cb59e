"""QA pass 17, finding 3 (b): the review chart's labels sat in the wrong areas. The line is the
home side's chance, yet the home side's colour filled the area over it and "Home 45%" was
printed there, "Away 55%" in the area under the line; at full time, with the line at 0%,
"Away 100%" stood over an area of no height while the home side's colour filled the chart."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from functools import cache
from typing import Any

import pytest
from clicking import click
from PySide6.QtCore import QPoint
from PySide6.QtGui import QColor

from soccerdesk.bots import make_bot
from soccerdesk.learn import review
from soccerdesk.rules import get_game
from soccerdesk.sim import play_match
from soccerdesk.ui.replay import ReplayViewer
from soccerdesk.ui.review_chart import AWAY_COLOUR, HOME_COLOUR, TAG_HEIGHT, attach_review, tag_places, turning_line


@cache
def _record() -> dict[str, Any]:
    result = play_match("pawn-soccer", [make_bot("heuristic", "pawn-soccer") for _ in (0, 1)], 7, False, {})
    assert result.record is not None
    return result.record


def _lost_by_home() -> tuple[dict[str, Any], list[float]]:
    """The match with a review in which the home side's chance sinks from an even start to 25%,
    then to 0% at full time (made up: the drawing is under test, not the estimates)."""
    record = _record()
    total = len(record["actions"]) + 1
    third = total // 3
    home = [0.5] * third + [0.25] * third + [0.0] * (total - 2 * third)
    return review.attach(record, review.build(record, home)), home


def _close(colour: QColor, expected: QColor, slack: int = 8) -> bool:
    return all(abs(a - b) <= slack for a, b in zip(colour.getRgb()[:3], expected.getRgb()[:3], strict=True))


def test_each_side_has_its_own_area_and_its_tag_in_it_up_to_full_time(qtbot) -> None:
    record, home = _lost_by_home()
    viewer = ReplayViewer(get_game("pawn-soccer"), record)
    qtbot.addWidget(viewer)
    viewer.resize(1000, 760)
    viewer.show()
    qtbot.waitExposed(viewer)
    panel = attach_review(viewer, record, executor=ThreadPoolExecutor(max_workers=1))
    chart = panel.chart
    qtbot.waitUntil(lambda: chart.isVisible() and chart.height() < 300)
    plot = chart.plot_rect()

    # A step where the home side has 25%: a click there, as a person reads the chart.
    middle = len(home) // 2
    click(qtbot, chart, QPoint(round(chart.x_of(middle)), chart.height() // 2), "the review chart")
    assert viewer.index == middle and chart.current == middle
    image = chart.grab().toImage()
    x = round(chart.x_of(middle - 8))  # away from the tags beside the upright line
    line = chart.y_of(0.25)
    under, over = (
        image.pixelColor(x, round((line + plot.bottom()) / 2)),
        image.pixelColor(x, round((plot.top() + line) / 2)),
    )
    assert under.blue() > over.blue() + 30 and over.red() > under.red() + 30  # blue home under, orange away over
    home_tag, away_tag = chart.tag_rects(0.25, chart.x_of(middle))
    assert chart.tag_texts(0.25) == ("Home 25%", "Away 75%")
    assert line <= home_tag.top() and home_tag.bottom() <= plot.bottom()  # in the home side's area
    assert plot.top() <= away_tag.top() and away_tag.bottom() <= line  # in the away side's area
    assert _close(image.pixelColor(round(home_tag.left()) + 3, round(home_tag.center().y())), HOME_COLOUR)
    assert _close(image.pixelColor(round(away_tag.left()) + 3, round(away_tag.center().y())), AWAY_COLOUR)

    # Full time: the home side has 0%, its area no height; its tag sits on the line at the bottom.
    last = len(home) - 1
    click(qtbot, chart, QPoint(round(chart.x_of(last)) - 1, chart.height() // 2), "the review chart")
    assert viewer.index == last
    image = chart.grab().toImage()
    home_tag, away_tag = chart.tag_rects(0.0, chart.x_of(last))
    assert chart.tag_texts(0.0) == ("Home 0%", "Away 100%")
    assert home_tag.bottom() == pytest.approx(plot.bottom())  # beside the line's end
    assert away_tag.bottom() <= home_tag.top() and plot.top() <= away_tag.top()
    assert home_tag.right() <= plot.right() and plot.left() <= home_tag.left()  # left of the upright line
    over = image.pixelColor(round(chart.x_of(last - 8)), round(plot.center().y()))
    assert over.red() > over.blue() + 30  # the away side's colour fills the chart: it won
    assert _close(image.pixelColor(round(away_tag.left()) + 3, round(away_tag.center().y())), AWAY_COLOUR)


@pytest.mark.parametrize("chance", [0.0, 0.02, 0.1, 0.25, 0.5, 0.75, 0.9, 0.98, 1.0])
def test_the_tags_read_right_at_every_level(chance: float) -> None:
    top, bottom = 8.0, 132.0
    line = bottom - (bottom - top) * chance
    away, home = tag_places(top, line, bottom)
    assert top <= away and away + TAG_HEIGHT <= home and home + TAG_HEIGHT <= bottom + 1e-9
    if line - top >= TAG_HEIGHT:
        assert away + TAG_HEIGHT <= line  # the away side's tag inside its area, over the line
    if bottom - line >= TAG_HEIGHT:
        assert home >= line  # the home side's tag inside its area, under the line
    if bottom - line < TAG_HEIGHT:
        assert home + TAG_HEIGHT == pytest.approx(bottom)  # beside the line, as low as it goes


def test_the_tags_add_up_to_a_hundred(qtbot) -> None:
    from soccerdesk.ui.review_chart import ReviewChart

    chart = ReviewChart(("Ann", "Bob"))
    qtbot.addWidget(chart)
    assert chart.tag_texts(0.925) == ("Ann 92%", "Bob 8%") or chart.tag_texts(0.925) == ("Ann 93%", "Bob 7%")
    assert chart.tag_texts(0.075) in (("Ann 7%", "Bob 93%"), ("Ann 8%", "Bob 92%"))


def test_a_dip_kept_by_a_face_down_pick_is_not_named_on_screen() -> None:
    """QA pass 17: the caption named the step back up from two low estimates (after a Pass
    Re-Take) that the face-down pick after them kept for a third position."""
    home = [0.55] * 9 + [0.39, 0.41, 0.41] + [0.58] * 9
    record = {"game": "soccer-go", "seed": 0, "options": {}, "actions": [[0, "x"]] * (len(home) - 1)}
    assert review.build(record, home).biggest_turn() == 12  # counted as positions: the rise "lasted"
    found = review.build(record, home, carried=(2, 4, 6, 8, 11, 14, 16, 18, 20))
    assert found.turning == ()
    assert turning_line(found, ("Home", "Away")).startswith("No single action changed the match much")
