"""How much stronger each difficulty level is than the ones below it, per game.

    .venv/bin/python benchmarks/bot_strength.py --games soccer-go --matches 200
    .venv/bin/python benchmarks/bot_strength.py --matches 40 --budget hard=0.2 --budget expert=0.5 --jobs 2

For every game and every pair (higher level, lower level) among random < easy < normal <
hard < expert it plays ``--matches`` matches with seats alternating (the simulator's
``play_match``), then prints the higher level's wins, losses and draws, its win rate of
the decided matches with a 95% Wilson interval, and each side's decision time p95.
The levels are the real ones (``soccerdesk.bots.levels``: ``hard`` and ``expert`` are an
iteration cap per game under a 1 s / 3 s clock). To try other settings,
``--budget LEVEL=SECONDS`` gives a search level a clock only, and ``--iterations LEVEL=N``
an iteration cap only (results then do not depend on how busy the machine is); the
table shows the CPU time the search spent per decision. ``--slips X`` gives ``easy`` that
share of random decisions instead of its own (``EASY_SLIPS``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from itertools import combinations
from typing import Any

from soccerdesk.bots import Bot, make_bot
from soccerdesk.bots.levels import (
    EASY_SLIPS,
    EXPERT_BUDGET,
    EXPERT_ITERATIONS,
    HARD_BUDGET,
    HARD_ITERATIONS,
    EasyBot,
    search_bot,
)
from soccerdesk.rules import GAMES, Action, State
from soccerdesk.sim import MatchResult, percentile, play_match, wilson

LADDER = ("random", "easy", "normal", "hard", "expert")
"""The levels from weakest to strongest."""

SEARCH_LEVELS = {"hard": (HARD_BUDGET, HARD_ITERATIONS), "expert": (EXPERT_BUDGET, EXPERT_ITERATIONS)}


class _CpuTimed(Bot):
    """A bot that also notes the CPU seconds of each decision (a busy machine inflates wall time)."""

    def __init__(self, inner: Bot) -> None:
        super().__init__(inner.game_id)
        self.inner = inner
        self.name = inner.name
        self.cpu: list[float] = []

    def decide(self, state: State, seat: int, rng: random.Random) -> Action:
        t0 = time.process_time()
        try:
            return self.inner.decide(state, seat, rng)
        finally:
            self.cpu.append(time.process_time() - t0)

    def choose(self, state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
        return self.inner.choose(state, seat, legal, rng)


Limits = dict[str, tuple[float | None, int | None]]
"""Search level -> (seconds a decision, iteration cap), where the command line overrides the
level; under :data:`SLIPS`, easy's share of random decisions."""

SLIPS = "slips"


def _bot(name: str, game_id: str, limits: Limits) -> Bot:
    if name in limits:
        budget, iterations = limits[name]
        return search_bot(game_id, budget, name, max_iterations=iterations)
    if name == "easy" and SLIPS in limits:
        return EasyBot(game_id, slips=limits[SLIPS][0])
    return make_bot(name, game_id)


def _one_match(job: tuple[str, str, str, Limits, int, bool]) -> tuple[MatchResult, list[float]]:
    game_id, higher, lower, limits, seed, swap = job
    timed = _CpuTimed(_bot(higher, game_id, limits))
    result = play_match(game_id, [timed, _bot(lower, game_id, limits)], seed, swap=swap, options={})
    result.record = None  # not needed here, and large to send between processes
    return result, timed.cpu


def measure(
    game_id: str, higher: str, lower: str, matches: int, seed: int, limits: Limits, jobs: int, first: int = 0
) -> dict[str, Any]:
    """Play ``matches`` matches of ``higher`` against ``lower``; the higher level's record.
    ``first`` skips that many of them: a long run can be played in parts (same seeds and seats)."""
    seeds = random.Random(f"{seed}:{game_id}:{higher}:{lower}")
    work = [(game_id, higher, lower, limits, seeds.randrange(2**31), i % 2 == 1) for i in range(matches)][first:]
    matches = len(work)
    start = time.perf_counter()
    played: list[tuple[MatchResult, list[float]]] = []
    with contextlib.ExitStack() as stack:
        if jobs > 1:
            results_in_order = stack.enter_context(ProcessPoolExecutor(jobs)).map(_one_match, work)
        else:
            results_in_order = map(_one_match, work)
        for result in results_in_order:
            played.append(result)
            if len(played) % 10 == 0:  # a long run says how far it has come (matches in order)
                won = sum(1 for r, _ in played if r.winner == 0)
                lost = sum(1 for r, _ in played if r.winner == 1)
                print(f"    ... {len(played)}/{matches}: {won}-{lost}", file=sys.stderr, flush=True)
    results = [r for r, _ in played]
    cpu = [t for _, times in played for t in times]
    wins = sum(1 for r in results if r.winner == 0)
    losses = sum(1 for r in results if r.winner == 1)
    decided = wins + losses
    lo, hi = wilson(wins, decided)
    return {
        "game": game_id,
        "higher": higher,
        "lower": lower,
        "matches": matches,
        "wins": wins,
        "losses": losses,
        "draws": matches - decided,
        "win_rate_decided": wins / decided if decided else None,
        "ci95": [lo, hi],
        "decision_ms_p95": [1000 * percentile([t for r in results for t in r.decision_s[i]], 95) for i in (0, 1)],
        "cpu_ms_mean": 1000 * sum(cpu) / len(cpu) if cpu else 0.0,
        "cpu_ms_p95": 1000 * percentile(cpu, 95),
        "seconds": time.perf_counter() - start,
    }


def _level_text(name: str, limits: Limits, game_id: str) -> str:
    if name == "easy":
        slips = limits[SLIPS][0] if SLIPS in limits else EASY_SLIPS[game_id]
        return f"easy ({slips:.0%} slips)"
    if name not in limits:
        if name in SEARCH_LEVELS:
            seconds, caps = SEARCH_LEVELS[name]
            return f"{name} ({caps[game_id]} it, ≤{seconds:g} s)"
        return name
    budget, iterations = limits[name]
    return f"{name} ({budget:g} s)" if iterations is None else f"{name} ({iterations} it)"


def print_row(row: dict[str, Any], limits: Limits) -> None:
    game_id = row["game"]
    pair = f"{_level_text(row['higher'], limits, game_id)} vs {_level_text(row['lower'], limits, game_id)}"
    decided = row["wins"] + row["losses"]
    if row["win_rate_decided"] is None:
        rate = "no decided match"
    else:
        lo, hi = row["ci95"]
        rate = (
            f"{100 * row['win_rate_decided']:5.1f}% of {decided:3d} decided (95% CI {100 * lo:4.1f}–{100 * hi:4.1f}%)"
        )
    p95 = row["decision_ms_p95"]
    print(
        f"  {pair:<34} {row['wins']:4d}-{row['losses']:<4d} draws {row['draws']:3d}  {rate}"
        f"  p95 {p95[0]:7.1f} / {p95[1]:6.1f} ms  (cpu {row['cpu_ms_mean']:.0f} ms mean,"
        f" {row['cpu_ms_p95']:.0f} ms p95)",
        flush=True,
    )


def _parse_limits(budgets: Sequence[str], iterations: Sequence[str]) -> Limits:
    limits: Limits = {}
    for text, is_cap in [(b, False) for b in budgets] + [(i, True) for i in iterations]:
        level, sep, number = text.partition("=")
        if not sep or level not in SEARCH_LEVELS:
            raise SystemExit(f"--budget / --iterations take hard=N or expert=N, not {text!r}")
        limits[level] = (None, int(number)) if is_cap else (float(number), None)
    return limits


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=list(GAMES), choices=GAMES)
    parser.add_argument("--levels", nargs="+", default=list(LADDER), choices=LADDER, help="levels to compare")
    parser.add_argument("--pairs", nargs="+", metavar="HIGH:LOW", help="only these pairs, e.g. hard:normal")
    parser.add_argument("--matches", type=int, default=200, help="matches per pair (seats alternate)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", action="append", default=[], metavar="LEVEL=SECONDS")
    parser.add_argument("--iterations", action="append", default=[], metavar="LEVEL=N", help="cap, no clock")
    parser.add_argument("--jobs", type=int, default=1, help="matches played in parallel processes")
    parser.add_argument("--slips", type=float, help="easy's share of random decisions (default: EASY_SLIPS)")
    parser.add_argument("--first", type=int, default=0, help="skip the first N of the matches (a run in parts)")
    parser.add_argument("--json", action="store_true", help="also print one JSON line per pair")
    args = parser.parse_args(argv)
    limits = _parse_limits(args.budget, args.iterations)
    if args.slips is not None:
        if not 0.0 <= args.slips <= 1.0:
            raise SystemExit(f"--slips takes a share between 0 and 1, not {args.slips}")
        limits[SLIPS] = (args.slips, None)
    levels = [name for name in LADDER if name in args.levels]
    pairs = [(high, low) for low, high in combinations(levels, 2)]
    if args.pairs:
        wanted = {tuple(p.split(":", 1)) for p in args.pairs}
        pairs = [p for p in pairs if p in wanted]
    for game_id in args.games:
        print(f"{game_id}: {args.matches} matches per pair, seats alternating, seed {args.seed}")
        for high, low in pairs:
            row = measure(game_id, high, low, args.matches, args.seed, limits, args.jobs, args.first)
            print_row(row, limits)
            if args.json:
                print(json.dumps(row), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
