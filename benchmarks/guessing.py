"""How much a best-answering opponent wins from each bot's face-down picks in Soccer-Go.

    .venv/bin/python benchmarks/guessing.py --matches 10 --worlds 12

Soccer-Go's passes, marks, shots, saves and tackle signs are picked face down by both
players at once: a guessing game. This script plays ``--matches`` matches between two
``normal`` bots and, at every face-down pick, builds the guessing game's matrix from the
deciding seat's chair (``soccer_go.guessing_matrix``: each pair of picks played on by the
heuristic to the next pick and judged in expected goals, averaged over ``--worlds``
determinizations). It then asks, for each way of mixing: if the opponent knew the mix (not
the draw made from it) and answered it as well as possible, how many goals would it win
beyond the game's value (the *exploitability*; 0 for an equilibrium mix)?

Mixes compared: ``uniform`` (every pick alike, the random bot's), ``heuristic`` (the
``normal`` bot's weights), ``hard`` and ``expert`` (the search levels' own mixes, computed
from their own fewer worlds, so they carry their sampling error), and ``equilibrium`` (the
matrix's own solution: the floor). It prints the mean per pick and the sum per match, by
kind of pick, with a 95% interval of the mean over the picks.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import defaultdict
from collections.abc import Sequence

from soccerdesk.bots import make_bot
from soccerdesk.bots.guessing import exploitability, row_payoffs, solve
from soccerdesk.bots.levels import GUESSING
from soccerdesk.bots.soccer_go import GuessingPlayer, HeuristicBot, guessing_matrix, open_picks
from soccerdesk.rules import CHANCE, get_game, sample_chance
from soccerdesk.rules.soccer_go import SIMULTANEOUS, Mark, PassTo, Save, Shoot, SoccerGoState
from soccerdesk.sim import mean_and_error

MIXES = ("uniform", "heuristic", "hard", "expert", "equilibrium")


def _kind(action: object) -> str:
    if isinstance(action, PassTo):
        return "pass"
    if isinstance(action, Mark):
        return "mark"
    if isinstance(action, Shoot):
        return "shot"
    if isinstance(action, Save):
        return "save"
    return "sign"


def _mean_ci(values: Sequence[float]) -> tuple[float, float]:
    mean, error = mean_and_error(values)
    return mean, 1.96 * error


def _world(state: SoccerGoState, seat: int, rng: random.Random) -> SoccerGoState:
    world = state.determinize(seat, rng)
    assert isinstance(world, SoccerGoState)
    return world


Found = dict[str, dict[str, list[float]]]


def measure(matches: int, worlds: int, seed: int) -> tuple[Found, Found]:
    """Exploitability of each mix at every face-down pick, grouped by kind of pick, and what
    each mix wins beyond the game's value against the heuristic's own mix (normal's habits)."""
    game = get_game("soccer-go")
    heuristic = HeuristicBot("soccer-go")
    players = {name: GuessingPlayer(heuristic, *GUESSING[name]) for name in ("hard", "expert")}
    found: Found = defaultdict(lambda: defaultdict(list))
    gained: Found = defaultdict(lambda: defaultdict(list))
    for m in range(matches):
        state = game.new_match(seed=seed + m)
        rng = random.Random(seed + m)
        bots = [make_bot("normal", "soccer-go"), make_bot("normal", "soccer-go")]
        picks_in_match: dict[str, float] = defaultdict(float)
        while state.current_players():
            seat = state.current_players()[0]
            if seat == CHANCE:
                state = state.apply(CHANCE, sample_chance(state, rng))
                continue
            assert isinstance(state, SoccerGoState)
            if state.phase in SIMULTANEOUS:
                reference = [_world(state, seat, rng) for _ in range(worlds)]
                chair = reference[0]
                rows, columns, values = guessing_matrix(reference, seat, heuristic, rng.getrandbits(32))
                if len(rows) > 1 and len(columns) > 1:
                    game_value = solve(values)
                    weights = heuristic.pick_weights(open_picks(chair), seat, rows)
                    mixes = {
                        "uniform": [1.0 / len(rows)] * len(rows),
                        "heuristic": [w / sum(weights) for w in weights],
                        "equilibrium": list(game_value.rows),
                    }
                    for name, player in players.items():
                        own_rows, own_mix = player.mix(chair, seat, random.Random(rng.getrandbits(32)))
                        share = dict(zip(own_rows, own_mix, strict=True))
                        mixes[name] = [share.get(a, 0.0) for a in rows]
                    kind = _kind(rows[0])
                    habits = heuristic.pick_weights(open_picks(chair), 1 - seat, columns)
                    against_habits = row_payoffs(values, [w / sum(habits) for w in habits])
                    for name, mix in mixes.items():
                        gain = sum(p * v for p, v in zip(mix, against_habits, strict=True)) - game_value.value
                        gained[name][kind].append(gain)
                        gained[name]["all"].append(gain)
                        gap = exploitability(values, mix, game_value.value)
                        found[name][kind].append(gap)
                        found[name]["all"].append(gap)
                        picks_in_match[name] += gap
            state = state.apply(seat, bots[seat].decide(state, seat, rng))
        for name, total in picks_in_match.items():
            found[name]["per match"].append(total)
        print(f"  match {m + 1}/{matches}: score {state.score}", flush=True)
    return found, gained


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--worlds", type=int, default=12, help="determinizations of the reference matrix")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    found, gained = measure(args.matches, args.worlds, args.seed)
    print(
        f"Soccer-Go guessing games: {args.matches} normal-vs-normal matches, seed {args.seed}, "
        f"reference matrix over {args.worlds} worlds ({time.perf_counter() - start:.0f} s)"
    )
    print("exploitability in goals (mean ± 95% half-interval); 'per match' sums both seats' picks")
    _table(found, ["all", "pass", "mark", "shot", "save", "sign", "per match"])
    print("gain in goals a pick beyond the game's value against the heuristic's own mix (normal's habits)")
    _table(gained, ["all", "pass", "mark", "shot", "save", "sign"])
    return 0


def _table(found: Found, kinds: list[str]) -> None:
    print(f"  {'mix':<12}" + "".join(f"{k:>22}" for k in kinds))
    for name in MIXES:
        cells = []
        for kind in kinds:
            values = found[name].get(kind, [])
            if values:
                mean, half = _mean_ci(values)
                cells.append(f"{mean:.4f}±{half:.4f} ({len(values)})")
            else:
                cells.append("-")
        print(f"  {name:<12}" + "".join(f"{c:>22}" for c in cells))


if __name__ == "__main__":
    raise SystemExit(main())
