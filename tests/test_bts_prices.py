"""benchmarks/bts_prices.py: a repriced copy of the Big Time Soccer heuristic, played against the shipped one."""

from __future__ import annotations

import argparse

import pytest

from soccerdesk.bots import big_time_soccer as shipped
from soccerdesk.bots import make_bot
from soccerdesk.rules import get_game
from tests.benchmark_scripts import load_benchmark

prices = load_benchmark("bts_prices")


def test_a_repriced_copy_judges_by_its_own_numbers_and_leaves_the_shipped_ones_alone() -> None:
    copy = prices.repriced([("ROW_VALUE", "tuple(2 * v for v in ROW_VALUE)"), ("CENTRE_BONUS", "1.0")])
    rows, bonus = copy.ROW_VALUE, copy.CENTRE_BONUS
    assert rows == tuple(2 * v for v in shipped.ROW_VALUE)
    assert bonus == 1.0
    assert pytest.approx(1.15) == shipped.CENTRE_BONUS  # the shipped module is untouched
    state = get_game("big-time-soccer").new_match(seed=1)
    seat, zone = 0, 7
    theirs = copy._Context(state, seat).value_theirs(zone)
    assert theirs != shipped._Context(state, seat).value_theirs(zone)
    board = shipped._Context(state, seat).board
    assert theirs == pytest.approx(2 * shipped.ROW_VALUE[board.own_row[1][zone]])


def test_settings_are_name_equals_expression() -> None:
    assert prices.parse_setting("STUCK_LOSS = 0.9") == ("STUCK_LOSS", "0.9")
    for bad in ("STUCK_LOSS", "=0.9", "STUCK LOSS=1", "X="):
        with pytest.raises(argparse.ArgumentTypeError):
            prices.parse_setting(bad)
    with pytest.raises(SystemExit, match="no number called NOPE"):
        prices.repriced([("NOPE", "1")])


def test_a_duel_counts_every_match_once() -> None:
    variant = prices.repriced([("STUCK_LOSS", "0.9")]).HeuristicBot("big-time-soccer")
    out = prices.duel(variant, make_bot("normal", "big-time-soccer"), 3, 5)
    assert sum(out["wins"]) + out["draws"] == 3
    assert sum(out["goals"]) >= 0 and 0.0 <= out["win_rate_ci95"][0] <= out["win_rate_ci95"][1] <= 1.0
