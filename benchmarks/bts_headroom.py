"""How much any Big Time Soccer player could win from the heuristic, by the search's own judgement.

The performance difference lemma: against a fixed opponent, what a player gains over the
heuristic in a match is the sum, over the decisions it makes, of the *advantage* of its choice:
how much better the heuristic's own continuation does after that choice than after the
heuristic's pick. No player, however it thinks, gains more per decision than the best
advantage on offer there. This script plays ``normal`` against ``normal`` and, at every
decision with a choice, judges each of the heuristic's ``--cap`` most promising actions (its
own ranking) exactly as the search does (paired rollouts of the heuristic to the end of the
possession or, in the last cards, to the final whistle, the position then judged as the search
judges it, the opponent's hand sampled from the cards not seen), ``--rounds`` rounds each, the
first roll stratified. Per side and match it sums:

- ``best``: the largest advantage measured at each decision (biased upwards: the largest of
  a dozen noisy estimates is picked; an upper bound on the greedy player's gain);
- ``checked``: the advantage of the action that looked best on half the rounds, measured on the
  other half (and the other way round, averaged): unbiased for what the greedy one-step player
  (the search with these many rollouts) would gain by this judgement;
- ``confident``: the same, but leaving the heuristic's pick only for a lead of
  the search's margin (its ``confidence`` standard errors and ``min_gain``) on the half it is
  chosen on, as the search does.

and prints both as goals a match with their standard errors, split by phase, beside what a
60% share of decided matches asks for in goals (from the measured goal counts, assuming the
two sides' goals are independent Poisson counts). A match's other decisions are the
heuristic's, so the figures are for a player who faces the heuristic and meets the positions
the heuristic's play leads to.

    benchmarks/bts_headroom.py --matches 24 --seed 5 --jobs 2
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from soccerdesk.bots import Bot, make_bot  # noqa: E402
from soccerdesk.bots.levels import GAME_TUNING, search_bot  # noqa: E402
from soccerdesk.bots.search import SearchBot  # noqa: E402
from soccerdesk.rules.api import Action, State  # noqa: E402
from soccerdesk.sim import mean_and_error, play_match  # noqa: E402

GAME = "big-time-soccer"

SETTINGS = GAME_TUNING[GAME]
"""The search's settings: its margin for leaving the heuristic's pick is what ``confident`` asks for."""


class Probe(Bot):
    """Plays as the heuristic and, at each decision with a choice, measures every short-listed
    action's advantage over the heuristic's pick with the search's paired rollouts."""

    def __init__(self, rounds: int, cap: int) -> None:
        super().__init__(GAME)
        self.heuristic = make_bot("normal", GAME)
        self.search: SearchBot = search_bot(GAME, None, "hard", max_iterations=1)  # only its rollouts are used
        self.rounds = rounds
        self.cap = cap
        self.notes: list[tuple[int, str, float, float, float]] = []  # (seat, phase, best, checked, confident)

    def choose(self, state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
        pick = self.heuristic.choose(state, seat, legal, rng)
        if len(legal) > 1:
            self.notes.append((seat, state.phase, *self.measure(state, seat, legal, pick, rng)))  # type: ignore[attr-defined]
        return pick

    def measure(
        self, state: State, seat: int, legal: list[Action], pick: Action, rng: random.Random
    ) -> tuple[float, float, float]:
        ranked = self.heuristic.ranked(state, seat, legal)  # type: ignore[attr-defined]
        actions = [pick, *[a for a in ranked if a != pick][: self.cap - 1]]
        search = self.search
        search._searcher = seat
        first_face = rng.randrange(720720)
        leads: list[dict[Action, float]] = []
        for r in range(self.rounds):
            world = state.determinize(seat, rng)
            seed = rng.getrandbits(64)
            values = {a: search._value_after(world, seat, a, random.Random(seed), first_face + r) for a in actions}
            leads.append({a: v - values[pick] for a, v in values.items()})
        mean = {a: sum(lead[a] for lead in leads) / self.rounds for a in actions}
        best = max(mean.values())
        halves = (leads[0::2], leads[1::2])
        checked = confident = 0.0
        for chosen_on, judged_on in (halves, halves[::-1]):
            chosen = max(actions, key=lambda a: (sum(lead[a] for lead in chosen_on), a == pick))
            gain = sum(lead[chosen] for lead in judged_on) / len(judged_on) / 2
            checked += gain
            if _confident_lead([lead[chosen] for lead in chosen_on]):
                confident += gain
        return best, checked, confident


def _confident_lead(leads: list[float]) -> bool:
    """Whether ``leads`` (an action's over the pick, round by round) average above zero by the
    search's own margin (:meth:`SearchSettings.clear_gain`)."""
    return SETTINGS.clear_gain(*mean_and_error(leads))


def _one_match(job: tuple[int, int, int, bool]) -> dict[str, Any]:
    seed, rounds, cap, swap = job
    probe = Probe(rounds, cap)
    result = play_match(GAME, [probe, probe], seed, swap=swap, options={})
    sums: dict[tuple[int, str], list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0, 0.0])
    for seat, phase, best, checked, confident in probe.notes:
        for key in ((seat, phase), (seat, "all")):
            sums[key][0] += best
            sums[key][1] += checked
            sums[key][2] += confident
            sums[key][3] += 1
    goals = sum(result.score)
    return {"sums": dict(sums), "goals": goals}


def _poisson(lam: float, k: int) -> float:
    return math.exp(-lam) * lam**k / math.factorial(k)


def decided_share(goals: float, edge: float) -> float:
    """The share of decided matches won by a side that scores ``edge`` goals a match more than
    its opponent, ``goals`` being the two sides' total, both counts independent Poisson."""
    ours, theirs = (goals + edge) / 2, (goals - edge) / 2
    win = lose = 0.0
    for a in range(30):
        for b in range(30):
            p = _poisson(ours, a) * _poisson(theirs, b)
            if a > b:
                win += p
            elif b > a:
                lose += p
    return win / (win + lose) if win + lose else 0.5


def edge_for(goals: float, share: float) -> float:
    """The goals a match a side must score more than its opponent to win ``share`` of the
    decided matches (bisection on :func:`decided_share`)."""
    low, high = 0.0, goals
    for _ in range(60):
        mid = (low + high) / 2
        if decided_share(goals, mid) < share:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=24)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=48, help="paired rollouts of each action a decision")
    parser.add_argument("--cap", type=int, default=12, help="actions judged a decision (the heuristic's best)")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    seeds = random.Random(f"{args.seed}:headroom")
    work = [(seeds.randrange(2**31), args.rounds, args.cap, i % 2 == 1) for i in range(args.matches)]
    start = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            played = list(pool.map(_one_match, work))
    else:
        played = [_one_match(job) for job in work]
    # Each side of each match is one sample of a player's sums.
    phases = sorted({phase for match in played for (_, phase) in match["sums"]} - {"all"})
    goals = sum(match["goals"] for match in played) / len(played)
    print(f"Big Time Soccer headroom over the heuristic: {args.matches} matches of normal vs normal, seed {args.seed},")
    print(
        f"{args.rounds} paired rounds of the {args.cap} most promising actions a decision ({time.perf_counter() - start:.0f} s)"
    )
    print(f"goals a match (both sides): {goals:.2f}")
    print(
        f"{'phase':<12} {'decisions':>10} {'best (upper)':>16} {'checked':>16} {'confident':>16}"
        "   (goals a side and match, standard error)"
    )
    for phase in [*phases, "all"]:
        rows = [match["sums"].get((seat, phase), [0.0] * 4) for match in played for seat in (0, 1)]
        figures = " ".join("{:>+9.3f} ({:.3f})".format(*mean_and_error([r[k] for r in rows])) for k in (0, 1, 2))
        print(f"{phase:<12} {sum(r[3] for r in rows) / len(rows):>10.1f} {figures}")
    if not goals:
        print("no goals in these matches: what a share of decided matches asks for cannot be worked out")
    for share in (0.55, 0.60) if goals else ():
        print(
            f"a {share:.0%} share of decided matches asks for {edge_for(goals, share):+.3f} goals a match more than the opponent"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
