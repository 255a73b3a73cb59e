"""benchmarks/bts_choice_strength.py: the experiment that judges rollouts' ends by the opponent's
hand as the world deals it (``--knowing-leaf``)."""

from __future__ import annotations

import pytest

from soccerdesk.bots import levels
from soccerdesk.rules.big_time_soccer.state import BigTimeState
from tests.benchmark_scripts import load_benchmark
from tests.match_positions import watched_match

strength = load_benchmark("bts_choice_strength")


def test_the_knowing_leaf_judges_as_the_search_would_if_the_unseen_cards_were_the_opponents_hand() -> None:
    # With the pile taken away, the cards a seat has not seen are the opponent's hand, so the
    # search's own card counting already knows that hand: both judgements must agree there,
    # and the knowing one must not change when the pile comes back (it reads only the hand).
    heuristic = levels.heuristic_or_none("big-time-soccer")
    shipped = levels.EVALUATIONS["big-time-soccer"](heuristic)  # type: ignore[arg-type]
    knowing = strength._knowing_evaluation(heuristic)
    differ = 0
    positions = [s for s in watched_match(5, 120) if s.half == 1 and s.phase == "play"]
    assert len(positions) > 20
    for state in positions:
        for seat in (0, 1):
            opp = 1 - seat
            bare = state.with_hand(opp, state.hands[opp], [0] * len(state.pile))
            assert isinstance(bare, BigTimeState) and bare.unseen_by(seat) == [
                state.hands[opp].count(k) for k in range(len(state.pile))
            ]
            assert knowing(state, seat) == pytest.approx(shipped(bare, seat))
            assert knowing(bare, seat) == pytest.approx(knowing(state, seat))
            differ += knowing(state, seat) != pytest.approx(shipped(state, seat))
    assert differ > len(positions)  # it does judge otherwise than the card counting, most of the time
