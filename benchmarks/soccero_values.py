"""What a Soccero position is worth at the start of a turn, measured on normal-vs-normal play.

Plays ``--matches`` matches of two ``normal`` bots (basic rules unless ``--extended``) and, at
every change of the deciding seat (where the search's rollouts stop to judge a position),
notes where the ball is (rows from the mover's own goal line, in bands of two rows), who
controls it (the mover's team, nobody, the opponents) and how many turns are left in the half.
What followed is the mover's goal difference over the next ``--window`` turns (both managers'
turns counted) within the half. It prints, per band and control, the mean of that goal
difference with its standard error, and how much of it is left when the half ends sooner
(the fade). ``docs/bots.md`` ("Soccero: what a position is worth") has the table and what came
of judging the search's rollouts by it.

    benchmarks/soccero_values.py --matches 1000 --seed 1000
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from typing import NamedTuple

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from soccerdesk.bots import make_bot  # noqa: E402
from soccerdesk.rules.api import State  # noqa: E402
from soccerdesk.rules.soccero.state import SocceroState, team_of  # noqa: E402
from soccerdesk.sim import mean_and_error, play_match  # noqa: E402

CONTROLS = ("own", "loose", "opp")
BANDS = 16  # two rows each on the 32-row board


class Sample(NamedTuple):
    """A position where ``mover`` is about to decide, as the values see it."""

    mover: int
    row: int  # rows from the mover's own goal line (-1: no ball on the board)
    control: str  # "own", "loose" or "opp"
    goals: tuple[int, int]
    half: int
    left: int  # turns left in the half, both managers'


def sample(state: SocceroState, mover: int) -> Sample:
    board = state.board
    row = board.rows_from_goal_line(state.ball, state.defends(mover)) if state.ball >= 0 else -1
    control = "loose" if state.holder < 0 else "own" if team_of(state.holder) == mover else "opp"
    left = sum(max(0, state.cfg.turns - played) for played in state.turns)  # turns both managers still have
    return Sample(mover, row, control, state.goals, state.half, left)


def turn_starts(seed: int, extended: bool) -> list[Sample]:
    """One match's samples, at every change of the deciding seat."""
    samples: list[Sample] = []
    last = [-1]

    def watch(seat: int, before: State, after: State) -> None:
        players = after.current_players()
        if len(players) != 1 or players[0] < 0 or players[0] == last[0]:
            return
        last[0] = players[0]
        assert isinstance(after, SocceroState)
        samples.append(sample(after, players[0]))

    bots = [make_bot("normal", "soccero"), make_bot("normal", "soccero")]
    play_match("soccero", bots, seed, seed % 2 == 1, {"extended": extended, "quick_setup": True}, watch=watch)
    return samples


def outcomes(samples: list[Sample], window: int) -> Iterator[tuple[str, int, int, int]]:
    """(control, band, turns left, the mover's goal difference over the window) for each
    sample whose window ends inside the match."""
    for i, r in enumerate(samples):
        if r.row < 0:
            continue
        later = (
            k for k in range(i + 1, len(samples)) if samples[k].half != r.half or samples[k].left <= r.left - window
        )
        end = next(later, None)
        if end is None:
            continue  # the match ended inside the window: its last goals are not in the samples
        (a0, a1), (b0, b1) = r.goals, samples[end].goals
        diff = (b0 - a0) - (b1 - a1)
        yield r.control, r.row // 2, r.left, diff if r.mover == 0 else -diff


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1000, help="the first match's seed")
    parser.add_argument(
        "--window", type=int, default=8, help="turns (both managers) the goal difference is counted over"
    )
    parser.add_argument("--extended", action="store_true", help="the extended rules")
    parser.add_argument("--samples", help="also write each match's samples to this file (JSON lines)")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    cells: dict[tuple[str, int], list[int]] = defaultdict(list)
    late: list[tuple[str, int, int, int]] = []
    with open(args.samples or os.devnull, "w") as out:
        for seed in range(args.seed, args.seed + args.matches):
            samples = turn_starts(seed, args.extended)
            out.write(json.dumps({"seed": seed, "samples": [s._asdict() for s in samples]}) + "\n")
            for control, band, left, diff in outcomes(samples, args.window):
                if left >= args.window:
                    cells[(control, band)].append(diff)
                else:
                    late.append((control, band, left, diff))

    rules = "extended" if args.extended else "basic"
    print(f"soccero {rules}: {args.matches} normal-vs-normal matches from seed {args.seed}, window {args.window} turns")
    print(
        "mean goal difference for the mover over the window (standard error, samples), by rows from his own goal line"
    )
    table: dict[tuple[str, int], float] = {}
    for control in CONTROLS:
        print(f"  ball {control}:")
        for band in range(BANDS):
            values = cells.get((control, band))
            if not values:
                continue
            mean, error = mean_and_error(values)
            table[(control, band)] = mean
            print(f"    rows {2 * band:2d}-{2 * band + 1:2d}: {mean:+.3f} ({error:.3f}, {len(values)})")
    # The fade: the least-squares share of the full window's value that the samples with
    # fewer turns left in the half got.
    fit: dict[int, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    for control, band, left, diff in late:
        value = table.get((control, band))
        if value is not None:
            fit[left][0] += value * diff
            fit[left][1] += value * value
            fit[left][2] += 1
    print("share of the value left with fewer turns left in the half (samples):")
    print("  " + "  ".join(f"{left}: {a / b:.2f} ({n:.0f})" for left, (a, b, n) in sorted(fit.items()) if b > 0))
    print(f"seconds: {time.perf_counter() - started:.0f}")


if __name__ == "__main__":
    main()
