"""Guessing games: two secret picks made at once, solved as a small zero-sum matrix game.

A pass against a mark, a shot against a dive, a tackle sign against a sign: each seat
picks face down, then both picks are shown. A strong player does not pick the one best
guess (an opponent who learns it wins every time) but *mixes*: it picks at random with
chances chosen so that no answer of the opponent gains more than the game is worth.

``values[i][j]`` is the row player's value (in goals) when it picks ``i`` and the column
player picks ``j``; the column player's value is its negative.

    >>> game = solve([[1.0, -1.0], [-1.0, 1.0]])      # matching pennies
    >>> [round(p, 2) for p in game.rows], round(game.value, 3)
    ([0.5, 0.5], 0.0)

:func:`solve` runs regret matching+ (each pick's regret for not having been played,
floored at zero, sets its chance in the next round; the average of the rounds, later ones
weighted more, approaches an equilibrium). :func:`exploitability` says how much an
opponent who knows a mix (not the draw made from it) wins by answering it best, beyond the
game's value: 0 for an equilibrium mix.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from operator import mul

Matrix = Sequence[Sequence[float]]

ROUNDS = 400
"""Regret-matching rounds of :func:`solve`: on the games of our four rulebooks (at most a
few dozen picks a side) the mix is then within about a thousandth of a goal of an equilibrium."""


@dataclass(frozen=True, slots=True)
class Solution:
    """An (approximate) equilibrium: each side's mix and the row player's value of the game."""

    rows: tuple[float, ...]
    columns: tuple[float, ...]
    value: float


def row_payoffs(values: Matrix, columns: Sequence[float]) -> list[float]:
    """The row player's value of each pick against the column mix ``columns``."""
    return [sum(map(mul, row, columns)) for row in values]


def column_payoffs(values: Matrix, rows: Sequence[float]) -> list[float]:
    """The row player's value against each column pick, when it plays the mix ``rows``."""
    out = [0.0] * len(values[0])
    for p, row in zip(rows, values, strict=True):
        if p:
            for j, v in enumerate(row):
                out[j] += p * v
    return out


def _regret_mix(regrets: list[float]) -> list[float]:
    total = sum(regrets)
    if total <= 0.0:
        return [1.0 / len(regrets)] * len(regrets)
    return [r / total for r in regrets]


def solve(values: Matrix, rounds: int = ROUNDS) -> Solution:
    """An approximate equilibrium of the zero-sum game ``values`` (row player maximises)."""
    if not values or not values[0]:
        raise ValueError("a matrix game needs at least one pick for each side")
    n, m = len(values), len(values[0])
    if any(len(row) != m for row in values):
        raise ValueError("every row of a matrix game needs the same number of columns")
    row_regret, col_regret = [0.0] * n, [0.0] * m
    row_sum, col_sum = [0.0] * n, [0.0] * m
    for t in range(1, rounds + 1):
        # Alternating updates (the columns answer the rows' current mix), weights growing with t.
        p = _regret_mix(row_regret)
        q = _regret_mix(col_regret)
        payoff = row_payoffs(values, q)
        mean = sum(map(mul, p, payoff))
        row_regret = [max(0.0, r + u - mean) for r, u in zip(row_regret, payoff, strict=True)]
        p = _regret_mix(row_regret)
        against = column_payoffs(values, p)
        mean = sum(map(mul, q, against))
        col_regret = [max(0.0, r + mean - u) for r, u in zip(col_regret, against, strict=True)]
        q = _regret_mix(col_regret)
        for i in range(n):
            row_sum[i] += t * p[i]
        for j in range(m):
            col_sum[j] += t * q[j]
    rows = tuple(x / sum(row_sum) for x in row_sum)
    columns = tuple(x / sum(col_sum) for x in col_sum)
    value = 0.5 * (min(column_payoffs(values, rows)) + max(row_payoffs(values, columns)))
    return Solution(rows, columns, value)


def exploitability(values: Matrix, rows: Sequence[float], value: float) -> float:
    """How much more than the game's ``value`` a best answer to the row mix ``rows`` wins
    (in the units of ``values``): ``value - min over columns of the mix's payoff``."""
    return max(0.0, value - min(column_payoffs(values, rows)))


def best_answer(values: Matrix, columns: Sequence[float]) -> int:
    """The row pick that scores most against the column mix ``columns`` (first of equals)."""
    payoff = row_payoffs(values, columns)
    return max(range(len(payoff)), key=lambda i: (payoff[i], -i))


def transposed(values: Matrix) -> list[list[float]]:
    """The same game from the column player's chair: its picks as rows, its values (the
    negatives) as entries."""
    return [[-values[i][j] for i in range(len(values))] for j in range(len(values[0]))]


def swapped(game: Solution) -> Solution:
    """The solution of :func:`transposed` ``values`` when ``game`` solves ``values``."""
    return Solution(game.columns, game.rows, -game.value)


def blend(safe: Sequence[float], greedy: Sequence[float], share: float) -> tuple[float, ...]:
    """``share`` of the mix ``greedy`` and the rest ``safe``."""
    return tuple((1.0 - share) * a + share * b for a, b in zip(safe, greedy, strict=True))


def safe_exploit(
    values: Matrix, model: Sequence[float], slack: float, steps: int = 10, game: Solution | None = None
) -> tuple[float, ...]:
    """A row mix that scores well against the column mix ``model`` (the opponent as we expect
    it to play) yet gives a best-answering opponent at most ``slack`` more than the game's
    value: the equilibrium blended with the best answer to ``model``, as far towards it as
    ``slack`` allows (the exploitability of the blend grows with the share, so the largest
    share of ``steps`` that stays within ``slack`` is taken). ``game``: the solution of
    ``values`` when it is already known."""
    if game is None:
        game = solve(values)
    pure = [0.0] * len(values)
    pure[best_answer(values, model)] = 1.0
    best = game.rows
    for k in range(1, steps + 1):
        mix = blend(game.rows, pure, k / steps)
        if exploitability(values, mix, game.value) > slack:
            break
        best = mix
    return best


__all__ = [
    "Solution",
    "best_answer",
    "blend",
    "column_payoffs",
    "exploitability",
    "row_payoffs",
    "safe_exploit",
    "solve",
    "swapped",
    "transposed",
]
