"""Big Time Soccer's search levels drawing worlds as a ChoiceBelief (or, with ``--particles N``,
a ParticleBelief) does, in matches.

    .venv/bin/python benchmarks/bts_choice_strength.py --window 8 --pool 100 -- \
        --games big-time-soccer --pairs hard:normal --seed 61 --matches 200 --iterations hard=240 --jobs 2

``bot_strength.py`` (everything after ``--`` is its own arguments), with hard and expert
keeping a :class:`bts_belief.ChoiceBelief` (worlds weighed by how many of the opponent's
recent decisions the heuristic holding them would have taken), or with ``--particles N`` a
:class:`~soccerdesk.bots.bts_particles.ParticleBelief` of N hands (``--slack``), in place of
the shipped ParticleBelief. With ``--real-hand`` the search levels plan on the opponent's
real hand instead (every world is the match itself; the pile's order is drawn at each draw, so
nothing else is seen): the most any guess of the hand can give. With ``--knowing-leaf`` the
search judges where a rollout stops by the opponent's hand as its world deals it (its worth
and whether it holds an Inside shot), not by the unseen cards' counts, so that a guess of the
hand counts at the end of a rollout too. An experiment, not a level:
see docs/bots.md, "What is left".
Matches in parallel (``--jobs``) are forked processes, which keep the swap.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import bot_strength  # noqa: E402
from bts_belief import CHOICE_POOL, CHOICE_WINDOW, ChoiceBelief  # noqa: E402

from soccerdesk.bots import Bot, big_time_soccer, levels  # noqa: E402
from soccerdesk.bots.bts_particles import PARTICLE_SLACK, ParticleBelief  # noqa: E402
from soccerdesk.bots.search import Belief, Evaluation  # noqa: E402
from soccerdesk.rules.big_time_soccer.state import BigTimeState  # noqa: E402


def _knowing_context(state: BigTimeState, seat: int) -> big_time_soccer._Context:
    """What the seat knows, and the opponent's hand as the world holds it: the heuristic's card
    counting is given that hand as the cards it has not seen, which the opponent holds all of."""
    context = big_time_soccer._Context(state, seat, shared=False)
    hand = state.hands[1 - seat]
    context.unseen = [hand.count(k) for k in range(len(context.unseen))]
    context.unseen_total = len(hand)
    return context


def _knowing_evaluation(heuristic: Bot) -> Evaluation:
    """The search's evaluation, judging the opponent's hand as the world holds it."""
    return levels._big_time_soccer_evaluation(heuristic, _knowing_context)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    ours, theirs = (argv[: argv.index("--")], argv[argv.index("--") + 1 :]) if "--" in argv else (argv, [])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--window", type=int, default=CHOICE_WINDOW)
    parser.add_argument("--pool", type=int, default=CHOICE_POOL)
    parser.add_argument("--stories", type=int, default=1)
    parser.add_argument("--on-declines", action="store_true")
    parser.add_argument("--particles", type=int, default=0, help="draw as a ParticleBelief of N hands instead")
    parser.add_argument("--slack", type=float, default=PARTICLE_SLACK, help="the ParticleBelief's slack")
    parser.add_argument("--real-hand", action="store_true", help="plan on the opponent's real hand (a ceiling)")
    parser.add_argument(
        "--knowing-leaf", action="store_true", help="judge rollouts' ends by the opponent's hand as the world deals it"
    )
    args = parser.parse_args(ours)
    if args.knowing_leaf:
        levels.EVALUATIONS["big-time-soccer"] = _knowing_evaluation
        print("Rollouts' ends judged by the opponent's hand as the world deals it", flush=True)
    if args.real_hand:
        # The seat's world is the match itself: the heuristic (normal) reads only public counts,
        # so only the search levels, whose worlds these are, see the hand.
        BigTimeState._determinize = lambda self, seat, rng: self  # type: ignore[method-assign]
        levels._belief = lambda game_id: None
        print("Planning on the opponent's real hand", flush=True)
        return bot_strength.main(theirs)
    shipped = levels._belief

    def belief(game_id: str) -> Belief | None:
        if game_id != "big-time-soccer":
            return shipped(game_id)
        if args.particles:
            return ParticleBelief(args.particles, args.slack)
        return ChoiceBelief(args.window, args.pool, args.on_declines, args.stories)

    levels._belief = belief
    if args.particles:
        print(f"ParticleBelief: {args.particles} hands, slack {args.slack}", flush=True)
        return bot_strength.main(theirs)
    print(
        f"ChoiceBelief: window {args.window}, pool {args.pool}, stories {args.stories}"
        + (", on declines" if args.on_declines else ""),
        flush=True,
    )
    return bot_strength.main(theirs)


if __name__ == "__main__":
    raise SystemExit(main())
