"""benchmarks/bts_values.py: the goal difference of the rest of the half from the chair of the
side in control, and the least-squares fit of the worths."""

from __future__ import annotations

import pytest

from tests.benchmark_scripts import load_benchmark

values = load_benchmark("bts_values")


def _sample(half: int, seat: int, goals: tuple[int, int]) -> object:
    return values.Sample(half, seat, goals, "play", 2, (0.0,) * len(values.KINDS), 0.0)


def test_the_rest_of_the_half_is_counted_from_the_chair_of_the_side_in_control() -> None:
    at_end = {1: (2, 1), 2: (3, 3)}
    assert values.rest_of_half(_sample(1, 0, (1, 0)), at_end) == 0  # 1-0 became 2-1
    assert values.rest_of_half(_sample(1, 1, (0, 0)), at_end) == -1
    assert values.rest_of_half(_sample(2, 1, (2, 1)), at_end) == 1  # 2-1 after half time became 3-3


def test_least_squares_finds_the_worths_that_made_the_data() -> None:
    # y = 0.2 in cell A, -0.1 in cell B, plus 0.05 a card: exact data gives exact worths.
    rows, targets = [], []
    for cell in (0, 1):
        for cards in range(4):
            rows.append([1.0 if cell == 0 else 0.0, 1.0 if cell == 1 else 0.0, float(cards)])
            targets.append((0.2 if cell == 0 else -0.1) + 0.05 * cards)
    beta, errors = values.least_squares(rows, targets)
    assert beta == pytest.approx([0.2, -0.1, 0.05])
    assert errors == pytest.approx([0.0, 0.0, 0.0], abs=1e-6)


def test_least_squares_refuses_samples_that_cannot_tell_two_worths_apart() -> None:
    with pytest.raises(ValueError, match="singular"):
        values.least_squares([[1.0, 1.0], [2.0, 2.0]], [1.0, 2.0])


def test_errors_grow_when_the_rows_of_a_group_share_their_luck() -> None:
    """Two copies of every sample in one group tell no more than one: the cluster-robust error
    is about the one-copy error, where the independent-sample error would shrink."""
    rows = [[1.0, float(k % 3)] for k in range(12)]
    targets = [0.1 * (k % 5) for k in range(12)]
    _, alone = values.least_squares(rows, targets, list(range(12)))
    _, doubled = values.least_squares(rows + rows, targets + targets, list(range(12)) * 2)
    _, naive = values.least_squares(rows + rows, targets + targets)
    assert doubled[0] == pytest.approx(alone[0])
    assert naive[0] < 0.8 * doubled[0]
