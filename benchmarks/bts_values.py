"""What a Big Time Soccer possession is worth where it starts, measured on normal-vs-normal play.

Plays ``--matches`` matches of two ``normal`` bots and, wherever the search's rollouts stop (the
other side has just won the ball, or a goal was scored), with at least ``--cards`` cards left in
the half's pile and not in stoppage time, notes from the chair of the side now in control: the
phase, the row of the ball in that side's own frame (0: its D1 ... 5: its A2; 9: the attackers'
box), the cards of each kind in its hand, and the opponent's hand size and the unseen cards.
What followed is that side's goal difference over the rest of the half.

It fits that goal difference by least squares to one worth per (phase, row) with 30 or more
samples plus one worth per card kind in hand (a Pass or Dribble card counts 0; the opponent's
hand counts as its size times the unseen cards' mix, with the opposite sign), and prints each
worth with its standard error; beside each row, the heuristic's own price of the same
positions (``value_mine``), which is all the search had before. ``docs/bots.md`` has the
table; ``soccerdesk.bots.levels.BIG_TIME_SOCCER_POSSESSION`` holds the rows the search uses.

    benchmarks/bts_values.py --matches 1000 --seed 30000
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from collections import Counter, defaultdict
from typing import NamedTuple

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from soccerdesk.bots import make_bot  # noqa: E402
from soccerdesk.bots.big_time_soccer import HAND_WORTH, _Context, worth_kind  # noqa: E402
from soccerdesk.rules.api import State  # noqa: E402
from soccerdesk.rules.big_time_soccer import BigTimeState  # noqa: E402
from soccerdesk.sim import play_match  # noqa: E402

KINDS = tuple(HAND_WORTH)
"""Card kinds given a worth of their own, as the search's hand values name them (a shot "inside"
or "outside"); Pass and Dribble cards are the zero they are measured from."""

BOX = 9
MIN_SAMPLES = 30


class Sample(NamedTuple):
    """A possession just started, from the chair of the side in control."""

    half: int
    seat: int
    goals: tuple[int, int]
    phase: str
    row: int
    cards: tuple[float, ...]  # per KINDS: our cards of that kind less the opponent's expected ones
    heuristic: float  # the heuristic's price of the position (value_mine)


def sample(state: BigTimeState) -> Sample:
    seat = state.control
    ctx = _Context(state, seat)
    board = ctx.board
    row = BOX if state.ball == board.box[1 - seat] else board.own_row[seat][state.ball]
    own = Counter(worth_kind(ctx.cards[k]) for k in ctx.hand)
    unseen: Counter[str] = Counter()
    for k, n in enumerate(ctx.unseen):
        if n:
            unseen[worth_kind(ctx.cards[k])] += n
    share = ctx.opp_hand_size / ctx.unseen_total if ctx.unseen_total else 0.0
    cards = tuple(own[name] - share * unseen[name] for name in KINDS)
    return Sample(state.half, seat, state.goals, state.phase, row, cards, ctx.value_mine(state.ball))


def possession_starts(seed: int, cards: int) -> tuple[list[Sample], dict[int, tuple[int, int]]]:
    """One match's samples, and the score at the end of each half."""
    samples: list[Sample] = []
    at_end: dict[int, tuple[int, int]] = {}

    def watch(seat: int, before: State, after: State) -> None:
        assert isinstance(before, BigTimeState) and isinstance(after, BigTimeState)
        at_end[after.half] = after.goals
        if after.phase == "over":
            return
        started = after.control != before.control or after.goals != before.goals
        if started and after.stoppage < 0 and after.pile_left >= cards:
            samples.append(sample(after))

    bots = [make_bot("normal", "big-time-soccer"), make_bot("normal", "big-time-soccer")]
    play_match("big-time-soccer", bots, seed, seed % 2 == 1, {}, watch=watch)
    return samples, at_end


def rest_of_half(s: Sample, at_end: dict[int, tuple[int, int]]) -> int:
    """The goal difference of the rest of the half, from the chair of ``s.seat``."""
    end = at_end[s.half]
    return (end[s.seat] - s.goals[s.seat]) - (end[1 - s.seat] - s.goals[1 - s.seat])


def least_squares(
    rows: list[list[float]], targets: list[float], groups: list[object] | None = None
) -> tuple[list[float], list[float]]:
    """The coefficients minimising the squared error of ``rows @ b - targets``, with their
    standard errors (normal equations, solved by Gauss-Jordan elimination with pivoting).

    With ``groups`` (one label per row) the errors allow for rows of one group sharing their
    luck (cluster-robust, the "sandwich"): here every possession of one half is judged by the
    same goals, so errors that took them for independent samples would be too small."""
    n = len(rows[0])
    xtx = [[0.0] * n for _ in range(n)]
    xty = [0.0] * n
    for x, y in zip(rows, targets, strict=True):
        for i, xi in enumerate(x):
            if xi:
                xty[i] += xi * y
                row = xtx[i]
                for j, xj in enumerate(x):
                    row[j] += xi * xj
    # Invert X'X (its inverse also gives the standard errors).
    a = [row[:] + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(xtx)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-12:
            raise ValueError("the samples do not tell the worths apart (a singular system)")
        a[col], a[pivot] = a[pivot], a[col]
        p = a[col][col]
        a[col] = [v / p for v in a[col]]
        for r in range(n):
            if r != col and a[r][col]:
                f = a[r][col]
                a[r] = [v - f * w for v, w in zip(a[r], a[col], strict=True)]
    inverse = [row[n:] for row in a]
    beta = [sum(inverse[i][j] * xty[j] for j in range(n)) for i in range(n)]
    residuals = [y - sum(b * v for b, v in zip(beta, x, strict=True)) for x, y in zip(rows, targets, strict=True)]
    if groups is None:
        variance = sum(e * e for e in residuals) / max(1, len(rows) - n)
        return beta, [math.sqrt(max(0.0, variance * inverse[i][i])) for i in range(n)]
    scores: dict[object, list[float]] = {}
    for x, e, g in zip(rows, residuals, groups, strict=True):
        total = scores.setdefault(g, [0.0] * n)
        for i, xi in enumerate(x):
            if xi:
                total[i] += xi * e
    meat = [[sum(v[i] * v[j] for v in scores.values()) for j in range(n)] for i in range(n)]
    errors = []
    for i in range(n):
        left = inverse[i]
        errors.append(math.sqrt(max(0.0, sum(left[a] * meat[a][b] * left[b] for a in range(n) for b in range(n)))))
    return beta, errors


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--seed", type=int, default=30000, help="the first match's seed")
    parser.add_argument("--cards", type=int, default=20, help="the fewest cards left in the half's pile")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    data: list[tuple[Sample, int, tuple[int, int]]] = []
    for seed in range(args.seed, args.seed + args.matches):
        samples, at_end = possession_starts(seed, args.cards)
        data.extend((s, rest_of_half(s, at_end), (seed, s.half)) for s in samples)
    counts = Counter((s.phase, s.row) for s, _, _ in data)
    cells = sorted(cell for cell, n in counts.items() if n >= MIN_SAMPLES)
    rows: list[list[float]] = []
    targets: list[float] = []
    heuristic: dict[tuple[str, int], float] = defaultdict(float)
    groups: list[object] = []
    for s, diff, half in data:
        cell = (s.phase, s.row)
        if counts[cell] < MIN_SAMPLES:
            continue
        rows.append([1.0 if cell == c else 0.0 for c in cells] + list(s.cards))
        targets.append(float(diff))
        groups.append(half)
        heuristic[cell] += s.heuristic
    beta, errors = least_squares(rows, targets, groups)

    print(
        f"big-time-soccer: {args.matches} normal-vs-normal matches from seed {args.seed}; {len(rows)} possessions "
        f"started with {args.cards}+ cards left in the half"
    )
    print(
        "worth of a possession to the side in control, in goals over the rest of the half "
        "(standard error, counting the possessions of one half as sharing their luck; samples)"
    )
    for (phase, row), b, e in zip(cells, beta[: len(cells)], errors[: len(cells)], strict=True):
        where = "box" if row == BOX else f"row {row}"
        price = heuristic[(phase, row)] / counts[(phase, row)]
        print(f"  {phase:10} {where:6} {b:+.3f} ({e:.3f}, {counts[(phase, row)]})   heuristic's price {price:+.3f}")
    print("worth of one card in hand against a Pass or Dribble card (the opponent's hand counts against)")
    for name, b, e in zip(KINDS, beta[len(cells) :], errors[len(cells) :], strict=True):
        print(f"  {name:12} {b:+.3f} ({e:.3f})")
    print(f"seconds: {time.perf_counter() - started:.0f}")


if __name__ == "__main__":
    main()
