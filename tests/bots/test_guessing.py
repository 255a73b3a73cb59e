"""Guessing games (face-down picks made at once): the matrix-game solver and its measures."""

from __future__ import annotations

import pytest

from soccerdesk.bots.guessing import best_answer, exploitability, safe_exploit, solve, swapped, transposed


def test_matching_pennies_is_a_fifty_fifty_mix_worth_nothing() -> None:
    game = solve([[1.0, -1.0], [-1.0, 1.0]])
    assert game.rows == pytest.approx((0.5, 0.5), abs=1e-3)
    assert game.columns == pytest.approx((0.5, 0.5), abs=1e-3)
    assert game.value == pytest.approx(0.0, abs=1e-3)


def test_a_pass_guessing_game_uses_the_weaker_numbers_more_and_the_marker_marks_the_better_ones() -> None:
    """A marked pass is worth F, a pass made to number i is worth M[i]: the passer must not
    favour its best number (the marker would wait there), so it uses it least."""
    made = [0.40, 0.45, 0.50]
    marked = 0.0
    values = [[marked if i == j else made[i] for j in range(3)] for i in range(3)]
    game = solve(values, rounds=3000)
    # Equilibrium: p_i proportional to 1 / (M_i - F); marks make every pass worth the value.
    inverse = [1 / (m - marked) for m in made]
    assert game.rows == pytest.approx([x / sum(inverse) for x in inverse], abs=0.01)
    assert game.columns[2] > game.columns[0]
    assert exploitability(values, game.rows, game.value) < 0.002


def test_exploitability_of_a_fixed_guess_is_what_the_best_answer_wins() -> None:
    values = [[1.0, -1.0], [-1.0, 1.0]]
    assert exploitability(values, [1.0, 0.0], 0.0) == pytest.approx(1.0)
    assert exploitability(values, [0.75, 0.25], 0.0) == pytest.approx(0.5)
    assert best_answer(values, [0.25, 0.75]) == 1


def test_safe_exploit_leans_towards_the_best_answer_only_within_its_slack() -> None:
    values = [[1.0, -1.0], [-1.0, 1.0]]
    leaning_opponent = [0.8, 0.2]  # plays the first column too often
    mix = safe_exploit(values, leaning_opponent, slack=0.2)
    assert mix[0] > 0.5
    assert exploitability(values, mix, 0.0) <= 0.2 + 1e-9
    assert safe_exploit(values, leaning_opponent, slack=0.0) == pytest.approx((0.5, 0.5), abs=1e-3)


def test_bad_matrices_are_refused() -> None:
    with pytest.raises(ValueError, match="at least one pick"):
        solve([])
    with pytest.raises(ValueError, match="same number of columns"):
        solve([[1.0, 2.0], [3.0]])


def test_the_game_from_the_column_players_chair_has_the_same_solution_swapped() -> None:
    values = [[0.0, 0.4, 0.4], [0.45, 0.0, 0.45], [0.5, 0.5, 0.0]]
    game = solve(values, rounds=3000)
    theirs = solve(transposed(values), rounds=3000)
    mirrored = swapped(game)
    assert theirs.rows == pytest.approx(mirrored.rows, abs=0.01)
    assert theirs.columns == pytest.approx(mirrored.columns, abs=0.01)
    assert theirs.value == pytest.approx(mirrored.value, abs=0.005)
    model = [0.6, 0.2, 0.2]
    assert safe_exploit(values, model, 0.05, game=solve(values)) == safe_exploit(values, model, 0.05)
