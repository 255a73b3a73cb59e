"""How long the learning features take: a whole match review and one hint, per game.

    .venv/bin/python benchmarks/learn_speed.py
    .venv/bin/python benchmarks/learn_speed.py --games soccer-go --matches 3 --hints 20

For each game it plays ``--matches`` seeded heuristic-vs-heuristic matches and works out each
match's review as the app does (``soccerdesk.learn.review.review_match``: every position, from
both sides' views, with more trial games where their results are mixed), then asks ``--hints`` hints at positions of those
matches where one seat decides among several actions (``soccerdesk.learn.hint.suggest``: the
hard level's playouts). Times are CPU seconds of this process (the app runs both in its bot
process, one call at a time), so another busy process on the machine does not inflate them.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence

from soccerdesk.bots import make_bot
from soccerdesk.learn import hint, review
from soccerdesk.rules import CHANCE, GAMES, get_game
from soccerdesk.sim import percentile, play_match


def measure(game_id: str, matches: int, hints: int) -> dict[str, float]:
    game = get_game(game_id)
    review_s: list[float] = []
    positions: list[int] = []
    candidates = []
    for seed in range(1, matches + 1):
        result = play_match(game_id, [make_bot("heuristic", game_id) for _ in (0, 1)], seed, False, {})
        assert result.record is not None
        start = time.process_time()
        review.review_match(result.record)
        review_s.append(time.process_time() - start)
        states = game.replay(result.record)
        positions.append(len(states))
        for state in states:
            players = state.current_players()
            if len(players) == 1 and players[0] != CHANCE and len(state.legal_actions(players[0])) > 1:
                candidates.append((state, players[0]))
    rng = random.Random(0)
    hint_s: list[float] = []
    for state, seat in rng.sample(candidates, min(hints, len(candidates))):
        start = time.process_time()
        hint.suggest(state, seat, rng.randrange(2**31))
        hint_s.append(time.process_time() - start)
    total_positions = sum(positions)
    return {
        "positions": total_positions / len(positions),
        "review_s": statistics.mean(review_s),
        "ms_per_position": 1000 * sum(review_s) / total_positions,
        "hint_p50_s": percentile(hint_s, 50),
        "hint_p95_s": percentile(hint_s, 95),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=list(GAMES))
    parser.add_argument("--matches", type=int, default=2)
    parser.add_argument("--hints", type=int, default=12)
    args = parser.parse_args(argv)
    print(f"review: {review.WORLDS} worlds per chair; hint: the hard level's playouts")
    print(f"{'game':<16} {'positions':>9} {'review s':>9} {'ms/pos':>7} {'hint p50':>9} {'hint p95':>9}")
    for game_id in args.games:
        f = measure(game_id, args.matches, args.hints)
        print(
            f"{game_id:<16} {f['positions']:>9.0f} {f['review_s']:>9.2f} {f['ms_per_position']:>7.1f} "
            f"{f['hint_p50_s']:>9.3f} {f['hint_p95_s']:>9.3f}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
