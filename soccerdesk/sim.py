"""Headless bot-vs-bot matches: ``soccerdesk-sim --game soccer-go --players heuristic random``.

Seats alternate between matches so neither player keeps the first move. Every match
gets its own seed drawn from ``--seed``; chance and each bot use their own
``random.Random`` so a recorded match replays exactly.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from soccerdesk.bots import bot_names, make_bot
from soccerdesk.rules import GAMES, Action, RulesError, State, get_game, play_out
from soccerdesk.rules.api import NoEnd


@dataclass
class MatchResult:
    seed: int
    seats: tuple[int, int]  # seats[i] = seat of the i-th named player
    score: tuple[int, int]  # goals of the first and the second named player
    winner: int | None  # 0 = first named player, 1 = second, None = draw
    actions: int
    decision_s: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))
    record: dict[str, Any] | None = None


class Player(Protocol):
    """What :func:`play_match` asks of a player (every :class:`Bot` is one)."""

    def decide(self, state: State, seat: int, rng: random.Random) -> Action: ...


def play_match(
    game_id: str,
    bots: Sequence[Player],
    seed: int,
    swap: bool,
    options: dict[str, Any],
    max_plies: int | None = 200_000,
    *,
    watch: Callable[[int, State, State], None] | None = None,
    stop: Callable[[State], bool] | None = None,
) -> MatchResult:
    """One match; ``bots[0]`` sits at seat 1 when ``swap``.

    ``watch(seat, before, after)`` is told of every action, chance included; ``stop(state)``,
    asked before every action, may end the match unfinished (no winner); ``max_plies=None``
    plays without a limit (see :func:`soccerdesk.rules.api.play_out`).
    """
    game = get_game(game_id)
    state: State = game.new_match(seed=seed, **options)
    seat_of = (1, 0) if swap else (0, 1)
    player_at = {seat_of[0]: 0, seat_of[1]: 1}
    bot_rngs = {seat: random.Random(seed * 2 + 1 + seat) for seat in (0, 1)}
    times: tuple[list[float], list[float]] = ([], [])

    def decide(now: State, seat: int) -> Action:
        who = player_at[seat]
        t0 = time.perf_counter()
        action = bots[who].decide(now, seat, bot_rngs[seat])
        times[who].append(time.perf_counter() - t0)
        return action

    try:
        state = play_out(state, decide, random.Random(seed), max_plies, stop=stop, watch=watch)
    except NoEnd:
        raise RuntimeError(f"{game_id} seed {seed}: no end after {max_plies} actions") from None
    s = state.score
    winner = state.winner
    return MatchResult(
        seed=seed,
        seats=seat_of,
        score=(s[seat_of[0]], s[seat_of[1]]),
        winner=None if winner is None else player_at[winner],
        actions=state.ply,
        decision_s=times,
        record=game.dump(state),
    )


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, math.ceil(q / 100 * len(ordered)) - 1))
    return ordered[k]


def mean_and_error(values: Sequence[float]) -> tuple[float, float]:
    """The mean of ``values`` (at least one) and its standard error (0 for a single value)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(variance / n)


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def summarise(results: Sequence[MatchResult], elapsed: float, players: Sequence[str]) -> dict[str, Any]:
    wins = [sum(1 for r in results if r.winner == i) for i in (0, 1)]
    draws = sum(1 for r in results if r.winner is None)
    decided = wins[0] + wins[1]
    goals = [sum(r.score[i] for r in results) for i in (0, 1)]
    n = len(results)
    return {
        "players": list(players),
        "matches": n,
        "wins": wins,
        "draws": draws,
        "win_rate_decided": wins[0] / decided if decided else None,
        "win_rate_ci95": list(wilson(wins[0], decided)) if decided else None,
        "goals": goals,
        "goals_per_match": [g / n if n else 0.0 for g in goals],
        "mean_actions": sum(r.actions for r in results) / n if n else 0.0,
        "matches_per_s": n / elapsed if elapsed > 0 else 0.0,
        "decision_ms_p95": [1000 * percentile([t for r in results for t in r.decision_s[i]], 95) for i in (0, 1)],
        "decision_ms_max": [1000 * max((t for r in results for t in r.decision_s[i]), default=0.0) for i in (0, 1)],
        "seconds": elapsed,
    }


def _parse_options(pairs: Sequence[str]) -> dict[str, str]:
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise SystemExit(f"--option takes key=value, not {pair!r}")
        out[key.strip()] = value.strip()
    return out


def _progress(done: int, total: int, start: float) -> None:
    width = 30
    filled = width * done // total
    rate = done / max(1e-9, time.perf_counter() - start)
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}  {rate:.1f} matches/s")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def run(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(prog="soccerdesk-sim", description="Play bot-vs-bot matches headless.")
    parser.add_argument("--game", required=True, choices=GAMES)
    parser.add_argument("--players", nargs=2, default=["heuristic", "random"], metavar=("FIRST", "SECOND"))
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a game option")
    parser.add_argument("--json", action="store_true", help="print one JSON object, no progress bar")
    parser.add_argument("--record", type=Path, metavar="DIR", help="write each match record here")
    args = parser.parse_args(argv)

    names = bot_names()
    for player in args.players:
        if player not in names:
            parser.error(f"unknown player {player!r}; choose from {', '.join(names)}")
    if args.matches < 1:
        parser.error("--matches must be at least 1")
    game = get_game(args.game)
    try:
        options = game.resolve_options(_parse_options(args.option))
    except RulesError as exc:
        parser.error(str(exc))
    bots = [make_bot(args.players[0], args.game), make_bot(args.players[1], args.game)]
    if args.record:
        args.record.mkdir(parents=True, exist_ok=True)

    seeds = random.Random(args.seed)
    show_progress = not args.json and sys.stderr.isatty()
    results = []
    start = time.perf_counter()
    for i in range(args.matches):
        result = play_match(args.game, bots, seeds.randrange(2**31), swap=i % 2 == 1, options=options)
        results.append(result)
        if args.record:
            path = args.record / f"{args.game}-{args.seed}-{i + 1:04d}.json"
            path.write_text(json.dumps(result.record, indent=1))
        if show_progress:
            _progress(i + 1, args.matches, start)
    summary = summarise(results, time.perf_counter() - start, args.players)
    summary["game"] = args.game
    summary["options"] = options
    if args.json:
        print(json.dumps(summary))
    else:
        _print_table(summary)
    return summary


def _print_table(s: dict[str, Any]) -> None:
    a, b = s["players"]
    n = s["matches"]
    print(f"{s['game']}: {a} vs {b}, {n} matches, options {s['options']}")
    print(
        f"  {a:>12} wins {s['wins'][0]:5d} ({100 * s['wins'][0] / n:5.1f}%)   goals {s['goals'][0]:5d} ({s['goals_per_match'][0]:.2f}/match)"
    )
    print(
        f"  {b:>12} wins {s['wins'][1]:5d} ({100 * s['wins'][1] / n:5.1f}%)   goals {s['goals'][1]:5d} ({s['goals_per_match'][1]:.2f}/match)"
    )
    print(f"  {'draws':>12}      {s['draws']:5d} ({100 * s['draws'] / n:5.1f}%)")
    if s["win_rate_decided"] is not None:
        lo, hi = s["win_rate_ci95"]
        print(
            f"  {a} wins {100 * s['win_rate_decided']:.1f}% of decided matches (95% CI {100 * lo:.1f}–{100 * hi:.1f}%)"
        )
    print(f"  mean actions/match {s['mean_actions']:.1f}   matches/s {s['matches_per_s']:.2f}")
    print(f"  decision p95: {a} {s['decision_ms_p95'][0]:.2f} ms, {b} {s['decision_ms_p95'][1]:.2f} ms")


def main(argv: Sequence[str] | None = None) -> int:
    run(argv)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
