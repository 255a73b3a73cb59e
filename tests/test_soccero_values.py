"""benchmarks/soccero_values.py: what followed a position is counted from the mover's chair,
over the window, inside the half."""

from __future__ import annotations

from tests.benchmark_scripts import load_benchmark

values = load_benchmark("soccero_values")


def test_goals_over_the_window_from_the_movers_chair() -> None:
    S = values.Sample
    samples = [
        S(mover=0, row=27, control="own", goals=(0, 0), half=1, left=10),
        S(mover=1, row=4, control="opp", goals=(1, 0), half=1, left=9),  # seat 0 scored
        S(mover=0, row=15, control="own", goals=(1, 0), half=1, left=8),
        S(mover=1, row=15, control="own", goals=(1, 1), half=1, left=2),  # seat 1 scored
        S(mover=0, row=-1, control="loose", goals=(1, 1), half=1, left=1),  # no ball: not counted
        S(mover=1, row=15, control="own", goals=(1, 1), half=2, left=60),
        S(mover=0, row=20, control="opp", goals=(1, 1), half=2, left=59),  # the match ends inside its window
    ]
    got = list(values.outcomes(samples, 8))
    assert got == [
        ("own", 13, 10, 0),  # to the first sample 8 turns on: a goal each
        ("opp", 2, 9, 1),  # seat 1 scored once in its window
        ("own", 7, 8, -1),  # the half ended inside the window: goals to the next half's first sample
        ("own", 7, 2, 0),
    ]  # the second half's samples end with the match inside their windows: not counted
