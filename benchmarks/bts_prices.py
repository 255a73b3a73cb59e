"""The Big Time Soccer heuristic with other prices, against the shipped one.

The heuristic (``soccerdesk/bots/big_time_soccer.py``) judges its options by a handful of
numbers: what the ball is worth in each row (``ROW_VALUE``), a ball in the box with an Inside
shot in hand (``BOX_WITH_INSIDE_SHOT``), how much of the opponent's chance a stalled attack
gives away (``STUCK_LOSS``), how much each card still needed to reach the box discounts it
(``PATH_DISCOUNT``), ... This script loads a second copy of that module, changes some of its
numbers, and plays that copy against the shipped heuristic, seats alternating; it prints the
copy's wins, losses and draws, its share of the decided matches with a 95% Wilson interval,
and the goals. The two heuristics are fast (about five matches a second), so a few thousand
matches tell a change of two or three points.

    benchmarks/bts_prices.py --matches 1500 --seed 7 --set "ROW_VALUE=tuple(2 * v for v in ROW_VALUE)"
    benchmarks/bts_prices.py --matches 1200 --seed 8 --set STUCK_LOSS=0.9 --set PATH_DISCOUNT=0.85

Each ``--set NAME=EXPRESSION`` is worked out in the copy's own namespace (so it may use the
module's numbers), in the order given. ``docs/bots.md`` has what was tried.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import time
from types import ModuleType
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from soccerdesk.bots import Bot, make_bot  # noqa: E402
from soccerdesk.bots import big_time_soccer as shipped  # noqa: E402
from soccerdesk.sim import play_match, summarise  # noqa: E402

GAME = "big-time-soccer"


def repriced(settings: list[tuple[str, str]]) -> ModuleType:
    """A second copy of the heuristic's module with ``settings`` (name, expression) applied."""
    spec = importlib.util.spec_from_file_location("bts_repriced", shipped.__file__)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for name, expression in settings:
        if not hasattr(module, name):
            raise SystemExit(f"the heuristic has no number called {name}")
        setattr(module, name, eval(expression, vars(module)))  # noqa: S307 - the user's own expression
    return module


def parse_setting(text: str) -> tuple[str, str]:
    name, sep, expression = text.partition("=")
    if not sep or not name.strip().isidentifier() or not expression.strip():
        raise argparse.ArgumentTypeError(f"expected NAME=EXPRESSION, not {text!r}")
    return name.strip(), expression.strip()


def duel(variant: Bot, base: Bot, matches: int, seed: int) -> dict[str, Any]:
    """``variant`` against ``base``, seats alternating: :func:`soccerdesk.sim.summarise` of the
    matches, the variant first."""
    results = []
    start = time.perf_counter()
    for i in range(matches):
        result = play_match(GAME, [variant, base], seed + i, i % 2 == 1, {})
        result.record = None  # not needed, and large over thousands of matches
        results.append(result)
    return summarise(results, time.perf_counter() - start, ["repriced", "shipped"])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0, help="the first match's seed")
    parser.add_argument("--set", dest="settings", type=parse_setting, action="append", default=[], metavar="NAME=EXPR")
    parser.add_argument("--json", action="store_true", help="also print the figures as one JSON line")
    args = parser.parse_args(argv)
    variant = repriced(args.settings).HeuristicBot(GAME)
    out = duel(variant, make_bot("normal", GAME), args.matches, args.seed)
    changes = ", ".join(f"{n} = {e}" for n, e in args.settings) or "no change"
    (wins, losses), share = out["wins"], out["win_rate_decided"]
    print(f"repriced heuristic ({changes}) vs the shipped one, {args.matches} matches from seed {args.seed}:")
    if share is None:
        decided = "none decided"
    else:
        low, high = out["win_rate_ci95"]
        decided = f"{100 * share:.1f}% of decided ({100 * low:.1f}-{100 * high:.1f})"
    scored, conceded = out["goals"]
    print(f"  {wins}-{losses}, {out['draws']} draws; {decided}; goals {scored}:{conceded}; {out['seconds']:.0f} s")
    if args.json:
        print(json.dumps({"settings": args.settings, **out}))


if __name__ == "__main__":
    main()
