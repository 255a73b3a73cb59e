"""What the opponent's play in a Big Time Soccer match says about its hidden hand: the
search levels' belief (:class:`ParticleBelief`).

The match is replayed as the searching seat saw it (:class:`SeatReplay`), and guesses of the
opponent's hand are carried forward through it: each draws when the opponent draws, holds the
cards it plays, and is weighed at each of its decisions by whether the heuristic
(:class:`~soccerdesk.bots.big_time_soccer.HeuristicBot`) holding it would have made it (a
particle filter; docs/bots.md, "What is left"). Everything comes from the seat's view (its
history) and the filter's own random numbers: the same view makes the same worlds, whatever
the opponent really holds.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import accumulate
from typing import Any

from soccerdesk.bots.big_time_soccer import DeclineBelief, HeuristicBot, spent_card
from soccerdesk.bots.search import Worlds
from soccerdesk.rules import CHANCE, Action, State
from soccerdesk.rules.api import HIDDEN
from soccerdesk.rules.big_time_soccer import BigTimeState
from soccerdesk.rules.big_time_soccer.state import Tables


def _most_left(pile: Sequence[int]) -> int:
    """The card of which ``pile`` holds the most copies (the first such)."""
    return max(range(len(pile)), key=lambda k: pile[k])


class SeatReplay:
    """The match replayed as one seat saw it, to recall the positions of the opponent's
    decisions. The opponent's draws, which the seat did not see, are replayed as stand-ins
    (the card of which most copies are left), swapped for the right card whenever the
    opponent plays one it does not hold in the replay or the seat draws one the stand-ins
    took: the replay's pile and opponent's hand together are always the cards the seat has
    not seen, so every public count is the real one; only the split between them is made up
    (and is replaced by each world's own hand)."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self._begin()

    def _begin(self, history: Sequence[tuple[int, Action]] = ()) -> None:
        """Forget the match replayed so far (about to replay ``history``)."""
        self.info: Any = None
        self.items: list[tuple[int, Action]] = []
        self.state: BigTimeState | None = None
        self.decisions: list[tuple[BigTimeState, Action]] = []
        """Per decision of the opponent: the replayed position and what it chose."""

    def update(self, state: BigTimeState) -> None:
        """Replay up to ``state`` (a world of the seat's view), from the start again for a new
        match or a rewound one."""
        history = state.history()
        n = len(self.items)
        again = self.state is None or self.info != state.info or len(history) < n or history[:n] != self.items
        if again:
            self._begin(history)
            self.info = state.info
            self.state = state.game.new_match(seed=state.info.seed, **state.info.options)  # type: ignore[assignment]
            n = 0
        for who, action in history[n:]:
            self._step(who, action)
            self.items.append((who, action))

    def _step(self, who: int, action: Action) -> None:
        s = self.state
        assert s is not None  # update() began the replay
        t: Tables = s.game.t  # type: ignore[attr-defined]
        opp = 1 - self.seat
        if who == CHANCE:
            if action is not HIDDEN and s.roll is None and s.to_draw:  # the seat's own draw
                k = t.by_code[action.arg].index  # type: ignore[attr-defined]
                if not s.pile[k]:
                    s = self._swap(s, opp, k, _most_left(s.pile))
        elif who == opp:
            spent = spent_card(t, action)
            if spent is not None and spent not in s.hands[opp]:
                s = self._swap(s, opp, s.hands[opp][0], spent)
            self.decisions.append((s, action))
        shown = action
        if who == CHANCE and action is HIDDEN:
            action = t.draw[_most_left(s.pile)]
        after = s.apply_unchecked(who, action)
        assert isinstance(after, BigTimeState)
        self._stepped(s, who, shown, after)
        self.state = after

    def _stepped(self, before: BigTimeState, who: int, action: Action, after: BigTimeState) -> None:
        """Told of each step replayed: ``who`` did ``action`` (:data:`HIDDEN` for the
        opponent's draw) in ``before``, which led to ``after``."""

    @staticmethod
    def _swap(s: BigTimeState, opp: int, out: int, into: int) -> BigTimeState:
        """``s`` with card ``out`` of the opponent's hand (a stand-in) traded for a copy of
        ``into`` from the pile."""
        hand = list(s.hands[opp])
        pile = list(s.pile)
        hand.remove(out)
        hand.append(into)
        pile[into] -= 1
        pile[out] += 1
        return s.with_hand(opp, tuple(sorted(hand)), pile)


def heuristic_agrees(
    bot: HeuristicBot,
    position: BigTimeState,
    opp: int,
    hand: tuple[int, ...],
    action: Action,
    unseen: Sequence[int],
) -> bool | None:
    """Whether the heuristic ``bot`` holding ``hand`` at ``position`` would have chosen
    ``action`` (one of its best, ties counted), None if the hand does not fit the position
    (``unseen``: the cards the other seat has not seen there) or ``action`` was the only one."""
    pile = _less(unseen, hand)
    if pile is None:
        return None
    world = position.with_hand(opp, hand, pile)
    legal = world.legal_actions(opp)
    if action not in legal:
        return False
    if len(legal) == 1:
        return None
    return action in bot.best_choices(world, opp, legal)


PARTICLES = 200
"""Hands the :class:`ParticleBelief` carries through the match."""

PARTICLE_SLACK = 0.03
"""How much a hand is believed for each of the opponent's decisions the heuristic holding it
would have taken otherwise (against 1 for one it would have taken). Chosen on 20 matches from
seed 70,000, apart from the 100 the guesses are judged on: 0.03, 0.05 and 0.1 gave a
defensive-card Brier score of 0.1146, 0.1193 and 0.1211 with 200 hands (docs/bots.md)."""

RESAMPLE_BELOW = 0.5
"""The effective share of the hands (weights alike: all of them) below which they are drawn
afresh by weight."""

CATCH_UP = 12
"""The opponent's decisions a filter that begins in the middle of a match weighs at most: the
last ones (its hands dealt, as the public counts make them, at the first). Weighing one costs
some 12-18 ms of CPU after a deal (200 hands, all different, each asked of the heuristic), so
a fresh filter caught up with a whole match in about 1.5 s (123 decisions, at the end of a
normal-vs-normal match: ``soccerdesk.sim --seed 5``), on top of the search. A hint builds a
new search bot each time, and a resumed match or an undo begins the replay again; with 12,
over that match every 15 actions and for both seats, the first decision's catch-up took 0.16 s
of CPU on the mean, 0.26 s at the 95th percentile and 0.31 s at most (16: 0.21, 0.31, 0.36 s),
on a 2-core machine busy with a benchmark. A bot kept through its match (the app's bot
process, the benchmarks) catches up a few decisions at a time and weighs all of them."""


def _less(unseen: Sequence[int], hand: tuple[int, ...]) -> list[int] | None:
    """The pile left when ``hand`` is held of the ``unseen`` cards; None if it cannot be."""
    pile = list(unseen)
    for k in hand:
        pile[k] -= 1
        if pile[k] < 0:
            return None
    return pile


def _draw_card(pool: Sequence[int], total: int, rng: random.Random) -> int:
    """A card of ``pool`` (copies per kind, ``total`` of them), each copy alike."""
    r = rng.randrange(total)
    for k, n in enumerate(pool):
        if r < n:
            return k
        r -= n
    raise ValueError("the pool is smaller than its total")


class ParticleReplay(SeatReplay):
    """The seat's replay, carrying :attr:`count` guesses of the opponent's hand forward
    through it (a particle filter). Each hand draws from its own unseen cards when the
    opponent draws; holds the card the opponent plays (one of its cards swapped for it, if
    not) and gives it up; gives back a card the seat draws that it cannot hold (swapped for
    another); and is weighed at each of the opponent's decisions by whether the heuristic
    holding it would have made it (``judge``; :data:`PARTICLE_SLACK` if not). The hands are
    drawn afresh by weight when few carry the weight. From the stoppage roll to the end of
    the half, when the hands are shown and the rules' own draw keeps what is known, they
    stand still (:attr:`live` False). Everything comes from the seat's view and the filter's
    own random numbers (``seed``), so the same view makes the same hands.

    With ``catch_up``, a replay that begins (a new match, a rewound one, or one met halfway: a
    resumed match, a hint) weighs at most the opponent's last ``catch_up`` decisions: the
    hands are dealt, as the public counts make them, at the first of those (:data:`CATCH_UP`).
    Without it, every decision since the start of the match."""

    def __init__(
        self,
        seat: int,
        count: int,
        slack: float,
        judge: Callable[[BigTimeState, int, tuple[int, ...], Action, Sequence[int]], bool | None],
        seed: int = 0,
        catch_up: int | None = None,
    ) -> None:
        self.count = count
        self.slack = slack
        self.judge = judge
        self.seed = seed
        self.catch_up = catch_up
        super().__init__(seat)

    def _begin(self, history: Sequence[tuple[int, Action]] = ()) -> None:
        super()._begin(history)
        self.rng = random.Random(self.seed)
        self.hands: list[tuple[int, ...]] = [()] * self.count
        self.weights = [1.0] * self.count
        self.live = True
        opp = 1 - self.seat
        decided = sum(1 for who, _ in history if who == opp)
        self.first = 0 if self.catch_up is None else max(0, decided - self.catch_up)
        """The opponent's first decision weighed: the hands are followed from there on."""
        self.following = not self.first

    def _stepped(self, before: BigTimeState, who: int, action: Action, after: BigTimeState) -> None:
        opp = 1 - self.seat
        if after.half != before.half:  # half-time: the cards are dealt anew
            self.hands = [()] * self.count
            self.weights = [1.0] * self.count
            self.live = True
            return
        if after.stoppage >= 0:
            self.live = False
        if not self.live:
            return
        if not self.following:
            if who != opp or len(self.decisions) <= self.first:
                return  # replayed only: the hands are dealt at the first decision weighed
            self._deal(before.unseen_by(self.seat), len(before.hands[opp]))
        if who == CHANCE:
            if action is HIDDEN:
                self._opponent_draws(before.unseen_by(self.seat))
            elif before.roll is None and before.to_draw:
                self._seat_draws(after.unseen_by(self.seat))
        elif who == opp:
            spent = spent_card(before.game.t, action)  # type: ignore[attr-defined]
            if spent is not None:
                self._holds(spent)
            self._weigh(before, opp, action)
            if spent is not None:
                self.hands = [_without(hand, spent) for hand in self.hands]

    def _deal(self, unseen: list[int], size: int) -> None:
        """Every hand drawn afresh: ``size`` of the ``unseen`` cards, each copy alike."""
        self.hands = [()] * self.count
        self.weights = [1.0] * self.count
        for _ in range(size):
            self._opponent_draws(list(unseen))
        self.following = True

    def _opponent_draws(self, unseen: list[int]) -> None:
        total = sum(unseen)
        drawn = []
        for hand in self.hands:
            for k in hand:
                unseen[k] -= 1
            drawn.append(tuple(sorted((*hand, _draw_card(unseen, total - len(hand), self.rng)))))
            for k in hand:
                unseen[k] += 1
        self.hands = drawn

    def _seat_draws(self, unseen: list[int]) -> None:
        """The seat drew a card: a hand holding more copies of it than are left unseen gives
        one back for a card of its own unseen ones."""
        total = sum(unseen)
        for i, hand in enumerate(self.hands):
            over = next((k for k in set(hand) if hand.count(k) > unseen[k]), None)
            if over is None:
                continue
            rest = _without(hand, over)
            pool = list(unseen)
            for k in rest:
                pool[k] -= 1
            self.hands[i] = tuple(sorted((*rest, _draw_card(pool, total - len(rest), self.rng))))

    def _holds(self, spent: int) -> None:
        """The opponent played ``spent``: a hand without it trades one of its cards for it."""
        for i, hand in enumerate(self.hands):
            if spent not in hand and hand:
                out = hand[self.rng.randrange(len(hand))]
                self.hands[i] = tuple(sorted((*_without(hand, out), spent)))

    def _weigh(self, position: BigTimeState, opp: int, action: Action) -> None:
        said: dict[tuple[int, ...], bool | None] = {}
        unseen = position.unseen_by(self.seat)
        weights = self.weights
        for i, hand in enumerate(self.hands):
            if hand not in said:
                said[hand] = self.judge(position, opp, hand, action, unseen)
            agrees = said[hand]
            if agrees is False:
                weights[i] *= self.slack
        total = sum(weights)
        if total <= 0:
            self.weights = [1.0] * self.count
            return
        scale = self.count / total
        self.weights = [w * scale for w in weights]
        # Weights averaging 1: the effective share is count / sum of squares.
        if self.count / sum(w * w for w in self.weights) < RESAMPLE_BELOW:
            self._resample()

    def _resample(self) -> None:
        """Systematic resampling: each hand kept about as often as its weight says."""
        step = sum(self.weights) / self.count
        at = self.rng.random() * step
        kept: list[tuple[int, ...]] = []
        acc = 0.0
        i = 0
        for hand, w in zip(self.hands, self.weights, strict=True):
            acc += w
            while at < acc and i < self.count:
                kept.append(hand)
                at += step
                i += 1
        while len(kept) < self.count:  # float rounding at the very end
            kept.append(self.hands[-1])
        self.hands = kept
        self.weights = [1.0] * self.count


def _without(hand: tuple[int, ...], k: int) -> tuple[int, ...]:
    """``hand`` less one copy of ``k``."""
    i = hand.index(k)
    return hand[:i] + hand[i + 1 :]


class ParticleBelief(DeclineBelief):
    """The opponent's possible hands carried forward through the match and weighed by all its
    decisions, as the heuristic holding them would have made them (:class:`ParticleReplay`;
    docs/bots.md, "What is left"): the search levels' belief. A world is the seat's view with
    one of the hands, drawn by weight. In stoppage time, and wherever the hands do not fit the
    view, worlds are drawn as :class:`DeclineBelief` draws them. A filter met halfway through a
    match weighs only the opponent's last :data:`CATCH_UP` decisions (``catch_up``; None: all)."""

    def __init__(
        self, count: int = PARTICLES, slack: float = PARTICLE_SLACK, seed: int = 0, catch_up: int | None = CATCH_UP
    ) -> None:
        super().__init__()
        self.count = count
        self.slack = slack
        self.seed = seed
        self.catch_up = catch_up
        self._heuristic = HeuristicBot("big-time-soccer", shares_answers=False)
        self._replay: ParticleReplay | None = None

    def _judge(
        self, position: BigTimeState, opp: int, hand: tuple[int, ...], action: Action, unseen: Sequence[int]
    ) -> bool | None:
        return heuristic_agrees(self._heuristic, position, opp, hand, action, unseen)

    def _follow(self, state: BigTimeState, seat: int) -> ParticleReplay:
        """The filter, caught up with ``state`` (a world of ``seat``'s view)."""
        if self._replay is None or self._replay.seat != seat:
            self._replay = ParticleReplay(seat, self.count, self.slack, self._judge, self.seed, self.catch_up)
        self._replay.update(state)
        return self._replay

    def chose(self, state: State, seat: int, action: Any) -> None:
        """As :meth:`DeclineBelief.chose`, and a filter begun early keeps up with the match at
        each of the seat's decisions, searched or not: a bot kept through its match weighs
        every decision of the opponent, however late its first search comes. A filter not yet
        begun when the opponent has made more than :data:`CATCH_UP` decisions (a hint's new
        bot, a resumed match) is left to its first search, which may never come (a forced
        move, a decision hard does not search): it would weigh the same last ones then."""
        super().chose(state, seat, action)
        assert isinstance(state, BigTimeState)
        replay = self._replay
        if replay is None or replay.seat != seat or replay.info != state.info:
            opp = 1 - seat
            if self.catch_up is not None and sum(1 for who, _ in state.history() if who == opp) > self.catch_up:
                return
        self._follow(state, seat)

    def worlds(self, state: State, seat: int) -> Worlds:
        assert isinstance(state, BigTimeState)
        replay = self._follow(state, seat)
        opp = 1 - seat
        size = len(state.hands[opp])
        if not replay.live or not size or any(len(hand) != size for hand in replay.hands):
            return super().worlds(state, seat)
        unseen = state.unseen_by(seat)
        worlds: dict[tuple[int, ...], BigTimeState] = {}
        for hand in replay.hands:
            if hand not in worlds:
                pile = _less(unseen, hand)
                if pile is None:
                    return super().worlds(state, seat)
                worlds[hand] = state.with_hand(opp, hand, pile)
        made = [worlds[hand] for hand in replay.hands]
        cumulative = list(accumulate(replay.weights))

        def draw(rng: random.Random) -> State:
            return rng.choices(made, cum_weights=cumulative)[0]

        return draw
