"""How well Big Time Soccer's search levels guess the opponent's defensive cards.

    .venv/bin/python benchmarks/bts_belief.py --matches 200 --seed 60000

Plays ``--matches`` matches of two ``normal`` bots. One seat (alternating from match to match)
keeps a :class:`~soccerdesk.bots.big_time_soccer.DeclineBelief`, as hard and expert do, told of
each of its decisions. At each of that seat's decisions with the ball where the belief knows a
declined answer, it draws ``--worlds`` worlds of its view twice, as every hidden card is as
likely as the public counts make it ("uniform") and as the belief draws them, and notes the
share of worlds in which the opponent holds (a) a card of the kinds it declined to answer with
last time, (b) any defensive card (Challenge, Intercept, Star). The real hand says which is
true. It prints, per question and way of drawing, the mean forecast, how often it was true,
the Brier score (mean squared error of the forecast; lower is better) and the log loss.
With ``--cards`` it also prints, per card, how many copies the opponent held on the mean at
those decisions, against the mean count in each way's worlds: what the opponent's own play
has done to its hand (the cards it spends first are rarer than the counts say, the ones it
keeps more common), which neither way of drawing knows. With ``--fit`` it fits, over every
decision of the watched seat, a tilt per card (how much likelier than the counts the opponent
holds it) under which drawn hands hold each card as often as the real ones did, and prints it.
With ``--choices`` a third way draws as a :class:`ChoiceBelief` does: worlds weighed by how
many of the opponent's recent decisions the heuristic holding them would have taken otherwise
(``--window``, ``--pool``, ``--stories``, ``--on-declines``), and the time its weighing took
is printed. ``bts_choice_strength.py`` plays matches with it; docs/bots.md, "What is left".
With ``--particles N`` a fourth way draws as a :class:`ParticleBelief` of N hands does: the
opponent's possible hands carried forward through the match, weighed at each of its decisions
(``--slack``; every one since the start of the match, as a bot kept through its match weighs
them), and the time it took to catch up with the match at each forecast is printed.

The measure is of the guess, not of play: whether a better guess wins matches is what
``bot_strength.py`` says.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from collections.abc import Sequence

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from soccerdesk.bots import Bot, make_bot  # noqa: E402
from soccerdesk.bots.big_time_soccer import DEFENSIVE, DeclineBelief, HeuristicBot, spent_card  # noqa: E402
from soccerdesk.bots.bts_particles import (  # noqa: E402
    PARTICLE_SLACK,
    ParticleBelief,
    SeatReplay,
    heuristic_agrees,
)
from soccerdesk.bots.search import Worlds  # noqa: E402
from soccerdesk.rules import CHANCE, Action, State, get_game  # noqa: E402
from soccerdesk.rules.api import HIDDEN  # noqa: E402
from soccerdesk.rules.big_time_soccer import BigTimeState  # noqa: E402
from soccerdesk.sim import play_match  # noqa: E402

CHOICE_SLACK = 0.1
"""How much a world is believed for each of the opponent's decisions the heuristic holding
that world's hand would have taken otherwise (against 1 for one it would have taken): a
person may play otherwise, as :data:`~soccerdesk.bots.big_time_soccer.DECLINE_SLACK`."""

CHOICE_WINDOW = 8
"""The opponent's last decisions weighed (none from before the last stoppage roll, when
both hands were shown)."""

CHOICE_POOL = 100
"""Worlds drawn per searched decision; the search then draws from them by weight."""


class ChoiceReplay(SeatReplay):
    """The seat's replay, keeping the story of the opponent's hand for :class:`ChoiceBelief`:
    its decisions, the cards it played and its draws, from the last stoppage roll on (when
    both hands were shown)."""

    def _begin(self, history: Sequence[tuple[int, Action]] = ()) -> None:
        super()._begin(history)
        self.events: list[tuple[str, int]] = []
        """The opponent's hand's story: ("decide", decision), ("spend", card), ("draw", 0)."""
        self.start = 0
        """The first event after the last stoppage roll (when both hands were shown)."""
        self.began = True

    def update(self, state: BigTimeState) -> bool:  # type: ignore[override]
        """As :meth:`SeatReplay.update`; True if it began again (a new match, or this one
        rewound), so that earlier decisions' numbers mean others."""
        self.began = False
        super().update(state)
        return self.began

    def _stepped(self, before: BigTimeState, who: int, action: Action, after: BigTimeState) -> None:
        if who == CHANCE:
            if action is HIDDEN:
                self.events.append(("draw", 0))
            elif before.roll is not None and before.roll[0] == "stoppage":
                self.start = len(self.events)
        elif who == 1 - self.seat:
            self.events.append(("decide", len(self.decisions) - 1))
            spent = spent_card(before.game.t, action)  # type: ignore[attr-defined]
            if spent is not None:
                self.events.append(("spend", spent))

    def hands_then(
        self, hand: Sequence[int], known: Sequence[int], wanted: int, rng: random.Random
    ) -> dict[int, tuple[int, ...]] | None:
        """The opponent's hand at each of its last ``wanted`` decisions, if it holds ``hand``
        now: back from now, each card it played put back, each card it drew taken out (one
        of those then held, at random; not one of the ``known`` cards, held since the
        stoppage roll). None if ``hand`` cannot be made to fit."""
        held = list(hand)
        kept = list(known)
        out: dict[int, tuple[int, ...]] = {}
        for kind, value in reversed(self.events[self.start :]):
            if kind == "spend":
                held.append(value)
            elif kind == "draw":
                free = list(held)
                for k in kept:
                    if k in free:
                        free.remove(k)
                if not free:
                    return None
                held.remove(free[rng.randrange(len(free))])
            else:
                out[value] = tuple(sorted(held))
                if len(out) >= wanted:
                    break
        return out


class ChoiceBelief(DeclineBelief):
    """What all the opponent's decisions say about its hand, if it plays like the heuristic
    (an experiment; docs/bots.md, "What is left").

    Worlds are drawn as the public counts make them (or as :class:`DeclineBelief` draws them,
    ``on_declines``), :data:`CHOICE_POOL` at a time, and each is weighed by how many of the
    opponent's last :data:`CHOICE_WINDOW` decisions the heuristic holding that world's hand
    as it was then (its hand now less the cards drawn since, plus the cards played since)
    would have taken otherwise: :data:`CHOICE_SLACK` for each. On top of the declines, its
    answers to them are then not weighed again."""

    def __init__(
        self, window: int = CHOICE_WINDOW, pool: int = CHOICE_POOL, on_declines: bool = False, stories: int = 1
    ) -> None:
        super().__init__()
        self.stories = stories
        self._agreed: dict[tuple[int, tuple[int, ...]], bool | None] = {}
        """(decision, hand then) -> what :meth:`_agrees` said (kept for the match)."""
        self.window = window
        self.pool = pool
        self.on_declines = on_declines
        self._replay: ChoiceReplay | None = None
        self._heuristic = HeuristicBot("big-time-soccer")
        self.seconds: list[float] = []
        """The time each call of :meth:`worlds` took to weigh its pool."""

    def worlds(self, state: State, seat: int) -> Worlds:
        assert isinstance(state, BigTimeState)
        start = time.perf_counter()
        if self._replay is None or self._replay.seat != seat:
            self._replay = ChoiceReplay(seat)
        replay = self._replay
        if replay.update(state):
            self._agreed.clear()
        base = super().worlds(state, seat) if self.on_declines else (lambda rng: state.determinize(seat, rng))
        rng = random.Random(state.ply)  # the seat's view alone decides the pool
        pool = [base(rng) for _ in range(self.pool)]
        weights = [self._weight(replay, world, seat, rng) for world in pool]
        self.seconds.append(time.perf_counter() - start)
        if not any(weights):
            return base

        def draw(rng: random.Random) -> State:
            return rng.choices(pool, weights)[0]

        return draw

    def _weight(self, replay: ChoiceReplay, world: State, seat: int, rng: random.Random) -> float:
        """The mean over :attr:`stories` ways the world's hand may have come together (which
        of its cards were drawn when) of :data:`CHOICE_SLACK` to the power of the decisions
        the heuristic would have taken otherwise."""
        assert isinstance(world, BigTimeState)
        opp = 1 - seat
        total = 0.0
        for _ in range(self.stories):
            then = replay.hands_then(world.hands[opp], world.known[opp], self.window, rng)
            if then is None:
                continue
            weight = 1.0
            for i, hand in then.items():
                position, action = replay.decisions[i]
                if self.on_declines and position.phase == "reply":
                    continue
                if (i, hand) not in self._agreed:  # (False == 0: a .get default would not tell)
                    self._agreed[i, hand] = self._agrees(position, opp, hand, action)
                agrees = self._agreed[i, hand]
                if agrees is False:
                    weight *= CHOICE_SLACK
            total += weight
        return total / self.stories

    def _agrees(self, position: BigTimeState, opp: int, hand: tuple[int, ...], action: Action) -> bool | None:
        return heuristic_agrees(self._heuristic, position, opp, hand, action, position.unseen_by(1 - opp))


QUESTIONS = ("declined kinds", "any defensive card")
WAYS = ("uniform", "belief", "choices", "particles")


class Forecasts:
    """Forecast and outcome pairs per (question, way of drawing); per card, the copies held
    summed over the forecasts, in the real hand ("held") and on the mean of each way's worlds."""

    def __init__(self) -> None:
        self.pairs: dict[tuple[str, str], list[tuple[float, bool]]] = {(q, w): [] for q in QUESTIONS for w in WAYS}
        self.copies: dict[str, dict[int, float]] = {way: {} for way in ("held", *WAYS)}
        self.hands = 0
        self.seen: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
        """At every decision of the watched seat: the cards it has not seen (the pile and the
        opponent's hand, per kind) and the opponent's real hand, for ``--fit``."""

    def count(self, way: str, hands: Sequence[Sequence[int]]) -> None:
        """Add the mean copies of each card over ``hands`` to ``way``'s sums."""
        sums = self.copies[way]
        for hand in hands:
            for k in hand:
                sums[k] = sums.get(k, 0.0) + 1 / len(hands)

    def add(self, question: str, way: str, forecast: float, truth: bool) -> None:
        self.pairs[(question, way)].append((forecast, truth))


class Watched(Bot):
    """``normal``, with a belief beside it that is told of every decision and asked for
    forecasts (on its own random stream: the bot plays as it would alone)."""

    def __init__(
        self,
        worlds: int,
        forecasts: Forecasts,
        seed: int,
        choices: ChoiceBelief | None = None,
        particles: ParticleBelief | None = None,
    ) -> None:
        super().__init__("big-time-soccer")
        self.inner = make_bot("normal", "big-time-soccer")
        self.name = "normal"
        self.belief = DeclineBelief()
        self.choices = choices
        self.particles = particles
        self.worlds = worlds
        self.forecasts = forecasts
        self.rng = random.Random(seed)
        self.choice_rng = random.Random(-seed - 1)  # the other ways draw as without it
        self.particle_rng = random.Random(-seed - 2)
        self.caught_up: list[float] = []
        """The time each forecast's call of the particles' ``worlds`` took (its catch-up)."""

    def decide(self, state: State, seat: int, rng: random.Random) -> Action:
        assert isinstance(state, BigTimeState)
        view = state.determinize(seat, self.rng)
        if state.hands[1 - seat]:
            self.forecasts.seen.append((tuple(state.unseen_by(seat)), state.hands[1 - seat]))
        if state.phase == "play" and state.control == seat:
            self._forecast(state, view, seat)
        action = self.inner.decide(state, seat, rng)
        self.belief.chose(view, seat, action)
        for belief in (self.choices, self.particles):
            if belief is not None:
                belief.chose(view, seat, action)
        return action

    def choose(self, state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
        return self.inner.choose(state, seat, legal, rng)

    def _forecast(self, state: BigTimeState, view: State, seat: int) -> None:
        declines = self.belief.declines(view, seat)
        if not declines:
            return
        cards = state.game.t.cards  # type: ignore[attr-defined]
        declined = declines[-1][1]
        defensive = frozenset(k for k, card in enumerate(cards) if card.kind in DEFENSIVE)
        asks = {"declined kinds": declined, "any defensive card": defensive}
        real = set(state.hands[1 - seat])
        self.forecasts.hands += 1
        self.forecasts.count("held", [state.hands[1 - seat]])
        draws = {"uniform": lambda rng: view.determinize(seat, rng), "belief": self.belief.worlds(view, seat)}
        if self.choices is not None:
            choices = self.choices.worlds(view, seat)
            draws["choices"] = lambda rng: choices(self.choice_rng)
        if self.particles is not None:
            start = time.perf_counter()
            particles = self.particles.worlds(view, seat)
            self.caught_up.append(time.perf_counter() - start)
            draws["particles"] = lambda rng: particles(self.particle_rng)
        for way, draw in draws.items():
            drawn = [draw(self.rng).hands[1 - seat] for _ in range(self.worlds)]  # type: ignore[attr-defined]
            self.forecasts.count(way, drawn)
            hands = [set(hand) for hand in drawn]
            for question, kinds in asks.items():
                share = sum(1 for hand in hands if hand & kinds) / len(hands)
                self.forecasts.add(question, way, share, bool(real & kinds))


def scores(pairs: Sequence[tuple[float, bool]]) -> tuple[float, float, float, float]:
    """Mean forecast, share true, Brier score and log loss (forecasts kept off 0 and 1)."""
    n = len(pairs)
    brier = sum((f - t) ** 2 for f, t in pairs) / n
    eps = 1e-3
    loss = -sum(math.log(min(1 - eps, max(eps, f if t else 1 - f))) for f, t in pairs) / n
    return sum(f for f, _ in pairs) / n, sum(1 for _, t in pairs if t) / n, brier, loss


def tilted_hand(pool: Sequence[int], size: int, tilt: Sequence[float], rng: random.Random) -> list[int]:
    """``size`` cards drawn one by one from ``pool`` (copies per kind), each kind as likely as
    its copies times its ``tilt``: a hand as an opponent who spends some cards sooner and keeps
    others longer holds it (all tilts 1: every card alike, as the public counts make it).
    (The search levels drew their worlds so for a while; docs/bots.md, "what a hand keeps".)"""
    pool = list(pool)
    weights = [n * w for n, w in zip(pool, tilt, strict=True)]
    total = sum(weights)
    hand: list[int] = []
    last = len(weights) - 1
    for _ in range(size):
        r = rng.random() * total
        k = 0
        while k < last and (r >= weights[k] or not weights[k]):
            r -= weights[k]
            k += 1
        while not pool[k]:  # float rounding at the end of the pool: the last kind left
            k -= 1
        hand.append(k)
        pool[k] -= 1
        total -= weights[k] - pool[k] * tilt[k]
        weights[k] = pool[k] * tilt[k]
    hand.sort()
    return hand


def fit_tilt(
    seen: Sequence[tuple[tuple[int, ...], tuple[int, ...]]], draws: int, rounds: int, seed: int
) -> tuple[list[float], list[float], list[float]]:
    """The tilt per card kind (:func:`tilted_hand`) under which the hands drawn hold each kind
    as often on the mean as the real hands did, at the decisions ``seen``: iterative
    proportional fitting, each round ``draws`` hands drawn per decision (on the same random
    numbers every round). Returns the tilt, the copies held on the mean, and the copies in
    hands drawn with the tilt."""
    seen = seen[:: max(1, len(seen) // 20000)]  # at most some 20,000 decisions, spread
    kinds = len(seen[0][0])
    held = [0.0] * kinds
    for _, hand in seen:
        for k in hand:
            held[k] += 1 / len(seen)
    tilt = [1.0] * kinds
    drawn = [0.0] * kinds
    for _ in range(rounds):
        rng = random.Random(seed)
        drawn = [0.0] * kinds
        for pool, hand in seen:
            for _ in range(draws):
                for k in tilted_hand(pool, len(hand), tilt, rng):
                    drawn[k] += 1 / (draws * len(seen))
        # (a kind never held is shrunk, not to nothing: an opponent may yet hold it)
        tilt = [
            w * ((h / d) ** 0.8 if h > 0 else 0.2) if d > 0 else w for w, h, d in zip(tilt, held, drawn, strict=True)
        ]
        mean = sum(tilt) / kinds
        tilt = [w / mean for w in tilt]
    return tilt, held, drawn


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--seed", type=int, default=60000)
    parser.add_argument("--worlds", type=int, default=200, help="worlds drawn per forecast")
    parser.add_argument("--cards", action="store_true", help="also the copies of each card held, real and drawn")
    parser.add_argument(
        "--fit", action="store_true", help="fit the tilt per card that makes drawn hands hold what real ones did"
    )
    parser.add_argument(
        "--choices",
        action="store_true",
        help="also draw as a ChoiceBelief does: worlds weighed by the opponent's recent decisions",
    )
    parser.add_argument("--window", type=int, default=CHOICE_WINDOW, help="the ChoiceBelief's decisions weighed")
    parser.add_argument("--pool", type=int, default=CHOICE_POOL, help="the ChoiceBelief's worlds weighed a decision")
    parser.add_argument(
        "--on-declines", action="store_true", help="the ChoiceBelief weighs worlds drawn as the DeclineBelief does"
    )
    parser.add_argument(
        "--stories", type=int, default=1, help="the ChoiceBelief's ways a hand came together, per world"
    )
    parser.add_argument(
        "--particles",
        type=int,
        default=0,
        help="also draw as a ParticleBelief of this many hands does (carried through the match)",
    )
    parser.add_argument(
        "--slack", type=float, default=PARTICLE_SLACK, help="the ParticleBelief's weight for a decision not matched"
    )
    args = parser.parse_args(argv)
    forecasts = Forecasts()
    start = time.perf_counter()
    seconds: list[float] = []
    caught_up: list[float] = []
    for i in range(args.matches):
        seed = args.seed + i
        choices = ChoiceBelief(args.window, args.pool, args.on_declines, args.stories) if args.choices else None
        # Every decision since the start weighed, however late the first forecast (a bot kept
        # through its match first asks at its first search, seldom many decisions in).
        particles = ParticleBelief(args.particles, args.slack, catch_up=None) if args.particles else None
        watched = Watched(args.worlds, forecasts, seed, choices, particles)
        play_match("big-time-soccer", [watched, make_bot("normal", "big-time-soccer")], seed, i % 2 == 1, {})
        if choices is not None:
            seconds += choices.seconds
        caught_up += watched.caught_up
    print(
        f"Big Time Soccer, {args.matches} normal-vs-normal matches from seed {args.seed}, {args.worlds} worlds a forecast"
    )
    print(f"{'question':<20} {'worlds':<8} {'forecasts':>9} {'mean':>6} {'true':>6} {'Brier':>7} {'log loss':>8}")
    for (question, way), pairs in forecasts.pairs.items():
        if not pairs:
            continue
        mean, true, brier, loss = scores(pairs)
        print(f"{question:<20} {way:<8} {len(pairs):>9} {mean:>6.3f} {true:>6.3f} {brier:>7.4f} {loss:>8.4f}")
    if args.cards and forecasts.hands:
        cards = get_game("big-time-soccer").t.cards  # type: ignore[attr-defined]
        print(f"copies held on the mean at those {forecasts.hands} decisions (real hand, then each way's worlds):")
        ways = [way for way in WAYS if forecasts.copies[way]]
        print(f"{'card':<8} {'held':>6}" + "".join(f" {way:>8}" for way in ways))
        for k, card in enumerate(cards):
            copies = (forecasts.copies[way].get(k, 0.0) / forecasts.hands for way in ("held", *ways))
            print(f"{card.code:<8}" + "".join(f" {n:>8.3f}" for n in copies))
    if args.fit and forecasts.seen:
        tilt, held, drawn = fit_tilt(forecasts.seen, draws=4, rounds=12, seed=args.seed)
        cards = get_game("big-time-soccer").t.cards  # type: ignore[attr-defined]
        print(f"tilt fitted at {len(forecasts.seen)} decisions (every decision of the watched seat):")
        print(f"{'card':<8} {'held':>6} {'drawn':>6} {'tilt':>6}")
        for k, card in enumerate(cards):
            print(f"{card.code:<8} {held[k]:>6.3f} {drawn[k]:>6.3f} {tilt[k]:>6.3f}")
        print(
            "tilt by card code = {" + ", ".join(f'"{card.code}": {tilt[k]:.2f}' for k, card in enumerate(cards)) + "}"
        )
    if seconds:
        seconds.sort()
        print(
            f"ChoiceBelief (window {args.window}, pool {args.pool}, stories {args.stories}"
            f"{', on declines' if args.on_declines else ''}):"
            f" {len(seconds)} pools weighed, {1000 * sum(seconds) / len(seconds):.0f} ms mean,"
            f" {1000 * seconds[int(0.95 * (len(seconds) - 1))]:.0f} ms p95, {1000 * seconds[-1]:.0f} ms most"
        )
    if caught_up:
        caught_up.sort()
        print(
            f"ParticleBelief ({args.particles} hands, slack {args.slack}):"
            f" {len(caught_up)} catch-ups, {1000 * sum(caught_up) / len(caught_up):.1f} ms mean,"
            f" {1000 * caught_up[int(0.95 * (len(caught_up) - 1))]:.1f} ms p95, {1000 * caught_up[-1]:.0f} ms most"
        )
    print(f"({time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
