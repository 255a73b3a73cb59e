"""Do bot-vs-bot matches look like soccer? Self-play of each level in each game, measured.

    nice -n 10 .venv/bin/python benchmarks/match_shape.py --matches 100
    nice -n 10 .venv/bin/python benchmarks/match_shape.py --games soccero soccero-extended --levels normal --matches 200
    nice -n 10 .venv/bin/python benchmarks/match_shape.py --levels hard --matches 10

For every game variant and level, a bot of that level plays itself ``--matches`` times
(seeds from ``--seed``; chance and each seat draw from their own ``random.Random`` as in
the simulator, so any match replays). Per variant and level it prints, with 95% intervals:

- goals a match (mean, normal interval) and the share of goalless matches (Wilson);
- shots a match: declared shots (Soccero), kicks at goal and penalties (Pawn Soccer),
  shots at net (Big Time Soccer), shots reached (Soccer-Go);
- cap reached: the share of matches that ran into the turn limit before a side reached
  the goal target (only where there is one: Pawn Soccer first-to-N); ``-`` where matches
  are played to a clock by design;
- repetitions: the share of matches in which some position (the full state without its
  turn counters) occurred three times at a decision, and the mean number of such positions;
- the mean and p95 decision time of the bot, in milliseconds.

Variants: ``soccero`` (basic rules), ``soccero-extended``, ``pawn-soccer`` (first to 3
within the turn limit, the default), ``big-time-soccer``, ``soccer-go``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, fields, is_dataclass
from typing import Any

from soccerdesk.bots import make_bot
from soccerdesk.rules import CHANCE, State
from soccerdesk.sim import mean_and_error, percentile, play_match, wilson

VARIANTS: dict[str, tuple[str, dict[str, Any]]] = {
    "soccero": ("soccero", {}),
    "soccero-extended": ("soccero", {"extended": True}),
    "pawn-soccer": ("pawn-soccer", {}),
    "big-time-soccer": ("big-time-soccer", {}),
    "soccer-go": ("soccer-go", {}),
}
"""Name shown -> (game id, options)."""

LEVELS = ("random", "easy", "normal", "hard", "expert")

TURN_COUNTERS: dict[str, frozenset[str]] = {
    "soccero": frozenset({"turns"}),
    "pawn-soccer": frozenset({"turns"}),
    "soccer-go": frozenset({"turn"}),
    "big-time-soccer": frozenset(),
}
"""State fields that only count turns: left out of a position, so a shuffle repeats it."""

MAX_PLIES = 200_000


def is_shot(game_id: str, state: State) -> int:
    """How many shots the ``apply`` that made ``state`` took (read from its events)."""
    count = 0
    for event in state.events:
        kind = event.kind
        if game_id == "soccero":
            count += kind == "kick-roll" and bool(event.data.get("shot"))
        elif game_id == "pawn-soccer":
            count += kind in ("shot", "penalty") or (kind == "move" and "into the goal" in event.text)
        elif game_id == "big-time-soccer":
            count += kind == "shot_result"
        elif game_id == "soccer-go":
            count += kind == "shot-coming"
    return count


def position_key(game_id: str, state: State) -> Hashable:
    """The position of ``state``: every compared field but the turn counters."""
    skip = TURN_COUNTERS.get(game_id, frozenset())
    assert is_dataclass(state)
    return tuple(getattr(state, f.name) for f in fields(state) if f.compare and f.name not in skip)


def goal_target(game_id: str, options: Mapping[str, Any]) -> int | None:
    """The goals that end a match early, where the match has such a target (else None)."""
    if game_id == "pawn-soccer" and options.get("length") == "goal_limit":
        return int(options["goals"])
    return None


@dataclass
class Shape:
    """What one match looked like."""

    goals: int
    shots: int
    cap: bool | None  # ran into the turn limit before the goal target (None: no target)
    repeated: int  # positions seen three times or more at a decision
    decisions: list[float]


def play(game_id: str, level: str, seed: int, options: Mapping[str, Any]) -> Shape:
    """One self-play match of ``level`` in ``game_id`` with ``options``."""
    seen: Counter[Hashable] = Counter()
    shots = 0
    state: State | None = None  # the last state of the match

    def watch(seat: int, before: State, after: State) -> None:
        nonlocal shots, state
        if seat != CHANCE:
            seen[position_key(game_id, before)] += 1
        shots += is_shot(game_id, after)
        state = after

    bots = [make_bot(level, game_id) for _ in (0, 1)]
    result = play_match(
        game_id, bots, seed, False, dict(options), None, watch=watch, stop=lambda now: now.ply >= MAX_PLIES
    )
    times = result.decision_s[0] + result.decision_s[1]
    assert state is not None  # every match has an action (a toss, a deal, a kick-off)
    resolved = state.options
    target = goal_target(game_id, resolved)
    goals = sum(state.score)
    cap: bool | None = None
    if target is not None:
        cap = max(state.score) < target and getattr(state, "forfeit", -1) < 0
    if state.current_players():
        cap = True  # the simulator's own ply limit
    repeated = sum(1 for n in seen.values() if n >= 3)
    return Shape(goals=goals, shots=shots, cap=cap, repeated=repeated, decisions=times)


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and its 95% normal interval."""
    if not values:
        return (0.0, 0.0, 0.0)
    mean, error = mean_and_error(values)
    half = 1.96 * error
    return (mean, mean - half, mean + half)


def summarise(shapes: Sequence[Shape]) -> dict[str, Any]:
    """The figures of one variant and level."""
    n = len(shapes)
    goalless = sum(1 for s in shapes if s.goals == 0)
    capped = [s.cap for s in shapes if s.cap is not None]
    with_repeats = sum(1 for s in shapes if s.repeated)
    times = [t for s in shapes for t in s.decisions]
    return {
        "matches": n,
        "goals": mean_interval([s.goals for s in shapes]),
        "goalless": (goalless / n if n else 0.0, *wilson(goalless, n)),
        "shots": mean_interval([s.shots for s in shapes]),
        "cap": (sum(capped) / len(capped), *wilson(sum(capped), len(capped))) if capped else None,
        "repetition_share": (with_repeats / n if n else 0.0, *wilson(with_repeats, n)),
        "repeated": mean_interval([s.repeated for s in shapes]),
        "decision_ms_mean": 1000 * sum(times) / len(times) if times else 0.0,
        "decision_ms_p95": 1000 * percentile(times, 95),
    }


def measure(variant: str, level: str, matches: int, seed: int) -> dict[str, Any]:
    game_id, options = VARIANTS[variant]
    seeds = random.Random(f"{seed}-{variant}-{level}")
    shapes = [play(game_id, level, seeds.randrange(2**31), options) for _ in range(matches)]
    return summarise(shapes)


def _ci(triple: tuple[float, float, float], digits: int = 2, scale: float = 1.0) -> str:
    value, lo, hi = (scale * x for x in triple)
    return f"{value:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def format_row(variant: str, level: str, r: dict[str, Any]) -> str:
    cap = _ci(r["cap"], 0, 100) + "%" if r["cap"] is not None else "-"
    return (
        f"{variant:<17} {level:<7} n={r['matches']:<4} goals {_ci(r['goals'])}  "
        f"goalless {_ci(r['goalless'], 0, 100)}%  shots {_ci(r['shots'])}  cap {cap}  "
        f"repeats {_ci(r['repetition_share'], 0, 100)}% ({r['repeated'][0]:.2f}/match)  "
        f"decision {r['decision_ms_mean']:.2f} ms mean, {r['decision_ms_p95']:.2f} ms p95"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=list(VARIANTS), choices=list(VARIANTS))
    parser.add_argument("--levels", nargs="+", default=["random", "easy", "normal"], choices=LEVELS)
    parser.add_argument("--matches", type=int, default=100, help="matches per variant and level")
    parser.add_argument(
        "--search-matches",
        type=int,
        default=None,
        help="matches for hard and expert (a smaller sample: they are slow); default --matches",
    )
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.matches < 1:
        parser.error("--matches must be at least 1")
    print(f"match shape: self-play, seed {args.seed}", flush=True)
    for variant in args.games:
        for level in args.levels:
            n = args.search_matches if level in ("hard", "expert") and args.search_matches else args.matches
            t0 = time.perf_counter()
            result = measure(variant, level, n, args.seed)
            print(format_row(variant, level, result) + f"  ({time.perf_counter() - t0:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
