"""A Big Time Soccer bot that plays like the rulebook's "Playing Tips".

It values every option by a small expected-goal estimate: where the ball ends up, who has
it, and which cards are left to use it. What it knows about the opponent's hand comes only
from public counts: the cards it has not seen are the pile and the opponent's hand together
(72 minus its own hand minus the discards), which every determinization keeps identical.

The tips it follows:

* counts the squares to a shot: a ball in the opponent's box is worth a lot only with a
  Shot - Inside the Box card in hand; an A zone is worth more with any shot card;
* keeps Inside-shot cards for the box (an Inside card is spent Outside only when it holds
  two or more, or cannot get closer);
* tracks the unseen Shot, defensive and Any cards to price the risk of a Challenge or
  Intercept and the danger of the opponent's next attack;
* saves the C/I+Star cards for its own box and D2 row; never fouls with a normal card in
  its own box (a penalty is 75% a goal);
* tries to hold when one card short of an Inside shot;
* keeps a balanced hand ("one or two Shot cards, one or two defensive cards, and three or 4
  Pass/Dribble cards"): it gives up a spare shot card first, and counts what a card spent or
  discarded is worth against the card drawn in its place, so a hand clogged with shot cards
  is cleared out of play (a discard) or spends a spare shot from outside the box;
* proposes the end of a half only when ending serves it (ahead in the second half, or unable
  to get a shot itself) and never with a shot at hand, once a stoppage time unless the
  opponent has since run out of cards;
* burns time when ahead late (the clock is the deck): no keep-in-play clears (they cost no
  card), goal kicks thrown in, cards discarded;
* chooses the Goal Kick chart or the throw-in by comparing their values for its hand.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from soccerdesk.bots import Bot, next_best
from soccerdesk.bots.search import Belief, Worlds
from soccerdesk.rules import CHANCE, State
from soccerdesk.rules.api import HIDDEN
from soccerdesk.rules.big_time_soccer.actions import Act
from soccerdesk.rules.big_time_soccer.cards import DIE, Card
from soccerdesk.rules.big_time_soccer.state import REPLY_NONE, BigTimeState, Tables

# Rough chance of a goal from having the ball in each row of one's own frame
# (D1 D2 M1 M2 A1 A2), before the hand is taken into account.
ROW_VALUE = (0.010, 0.018, 0.030, 0.045, 0.070, 0.075)
BOX_WITH_INSIDE_SHOT = 0.165  # 18-20 scores, plus corners and recoveries
BOX_WITHOUT_INSIDE_SHOT = 0.012  # the opponent will get a goal kick
CENTRE_BONUS = 1.15
PATH_DEPTH = 2  # cards looked ahead when counting the way to the box
PATH_DISCOUNT = 0.7  # each card still needed: a defensive card may stop it
STUCK_LOSS = 0.6  # share of the opponent's chance conceded when our attack stalls
# How much each card is worth keeping in hand now: the order of a discard among cards the
# hand values price alike, and all of it in stoppage time.
KEEP_SHOT_INSIDE = 1.0
KEEP_SHOT_OUTSIDE = 0.45
KEEP_STAR = 0.6
KEEP_DEFENSE = 0.35
# What one card in hand is worth in goals to the rest of the half, against a Pass or Dribble
# card: fitted on 400 normal-vs-normal matches (the goal difference of the rest of the half
# against both hands and the position's value, every third position with 20+ cards left).
# Shot cards clog a hand: a card that moves the ball is worth more until the ball is in an
# A zone, and the pile hands out shots anyway. The search's evaluation counts both hands by
# these; the heuristic counts what spending or discarding one of its cards does (below).
HAND_WORTH = {"inside": -0.05, "outside": -0.09, "star": 0.06, "challenge": 0.035, "intercept": 0.035, "any": 0.045}
HAND_WORTH_CARDS = 20  # second-half cards left below which a hand is worth less, down to 0 at the end
# The same kind of fit with the hand's make-up (1,500 normal-vs-normal matches, 35,684 new
# possessions): a hand without any shot card loses 0.065 goals more, one without any defensive
# card 0.038, and beyond those first cards each kind is worth about what HAND_WORTH says
# (spare shots did not cost measurably more than the first). So a lone shot card is worth
# keeping and the second and later ones are not: the rulebook's "balanced hand".
DEFENSIVE = ("challenge", "intercept", "star")  # the kinds of card that answer a Pass or Dribble
FIRST_SHOT_WORTH = 0.065
FIRST_DEFENCE_WORTH = 0.038
# How much of the hand's gain the heuristic counts when it spends or discards a card (goals per
# goal of the fit above; the fit is a correlation, so only part of it is taken at its word).
CARD_ECONOMY = 0.5

# Options closer than this (in goals) are worth a search's closer look; a clearer lead is
# beyond what a fraction of a second of rollouts could overturn (a quarter of the decisions).
CLOSE_CALL = 0.03

# ``easy``'s slips: one of the next best choices, at most this much worse (in goals) than the best.
NEAR_MISS = 0.08
NEAR_MISS_CHOICES = 3


def worth_kind(card: Card) -> str:
    """The name :data:`HAND_WORTH` knows ``card`` by: its kind, a shot as "inside" or "outside"."""
    if card.kind == "shot":
        return "inside" if card.inside else "outside"
    return card.kind


_CARD_WORTHS: dict[Tables, tuple[float, ...]] = {}
"""Per game's tables: the :data:`HAND_WORTH` of each card, by index."""

_BY_UNSEEN: dict[tuple[Any, ...], dict[tuple[Any, ...], Any]] = {}
"""Answers that depend only on the unseen cards and the opponent's hand size (the chance it
holds a kind of card, the mix of a card drawn), kept across contexts: a search's rollouts ask
them of thousands of positions with the same few counts. Keyed by (tables, unseen counts,
opponent's hand size); emptied when it grows past :data:`_BY_UNSEEN_SIZE`."""

_BY_UNSEEN_SIZE = 4096

_T = TypeVar("_T")


class _Context:
    """What the bot knows, read once per decision (only public counts and its own hand). With
    ``shared`` False, the answers that depend only on the unseen cards are kept for this
    context alone, not in :data:`_BY_UNSEEN`."""

    def __init__(self, state: BigTimeState, seat: int, shared: bool = True) -> None:
        self.s = state
        self.seat = seat
        self.opp = 1 - seat
        self.t: Tables = state.game.t  # type: ignore[attr-defined]
        self.cards: Sequence[Card] = self.t.cards
        self.board = self.t.board
        self.hand = state.hands[seat]
        self.kinds = sorted(set(self.hand))
        unseen = state.unseen_by(seat)
        self.unseen = unseen
        self.unseen_total = sum(unseen)
        self.opp_hand_size = len(state.hands[self.opp])
        worths = _CARD_WORTHS.get(self.t)
        if worths is None:
            worths = _CARD_WORTHS[self.t] = tuple(HAND_WORTH.get(worth_kind(c), 0.0) for c in self.cards)
        self.worths = worths
        if not shared:
            self._by_unseen: dict[tuple[Any, ...], Any] = {}
        else:
            if len(_BY_UNSEEN) > _BY_UNSEEN_SIZE:
                _BY_UNSEEN.clear()
            self._by_unseen = _BY_UNSEEN.setdefault((self.t, tuple(unseen), self.opp_hand_size), {})
        self.lead = state.goals[seat] - state.goals[self.opp]
        self.late = state.stoppage >= 0 or (state.half == 2 and state.pile_left < 16)
        self.burn_time = self.lead >= 1 and self.late and state.half >= 2
        self.inside_shots = sum(1 for k in self.hand if self.cards[k].kind == "shot" and self.cards[k].inside)
        self.outside_shots = sum(1 for k in self.hand if self.cards[k].kind == "shot" and not self.cards[k].inside)
        self.movers = sum(1 for k in self.hand if self.cards[k].moves)
        self.defenders = sum(1 for k in self.hand if self.cards[k].kind in DEFENSIVE)
        # Values asked for again and again while one decision compares its options (and a
        # search's rollouts ask thousands of times): worked out once per context.
        self._memo: dict[tuple[Any, ...], Any] = {}  # values in goals, and the cheapest card's index

    def _remember(
        self, key: tuple[Any, ...], work: Callable[..., _T], *args: Any, memo: dict[tuple[Any, ...], Any] | None = None
    ) -> _T:
        """``work(*args)``, worked out once under ``key`` in ``memo``: this context's own (the
        default), or ``self._by_unseen`` for what depends only on the unseen cards
        (:data:`_BY_UNSEEN`)."""
        store: dict[tuple[Any, ...], Any] = self._memo if memo is None else memo
        found = store.get(key)
        if found is None:
            found = store[key] = work(*args)
        return found

    # --- card counting -------------------------------------------------------------------

    def p_opponent_holds(self, wanted: Any, key: Any = None) -> float:
        """Chance the opponent holds at least one unseen card satisfying ``wanted(card)``
        (``key``: a name for ``wanted`` under which the answer is kept for every context with
        the same unseen cards; it must name all ``wanted`` depends on besides the card)."""
        if key is not None:
            return self._remember(("holds", key), self.p_opponent_holds, wanted, memo=self._by_unseen)
        k = sum(n for i, n in enumerate(self.unseen) if n and wanted(self.cards[i]))
        u, h = self.unseen_total, self.opp_hand_size
        if k == 0 or h == 0 or u == 0:
            return 0.0
        miss = 1.0
        for i in range(h):
            if u - i <= 0:
                return 1.0
            miss *= max(0.0, (u - k - i) / (u - i))
        return 1.0 - miss

    # --- values ------------------------------------------------------------------------

    def hand_worth(self) -> float:
        """Our hand against the opponent's (guessed from the unseen cards), in goals to the
        rest of the half (:data:`HAND_WORTH`, with :data:`FIRST_SHOT_WORTH` and
        :data:`FIRST_DEFENCE_WORTH`); fading in the last cards of the match. The search's
        judgement of a hand (``levels._big_time_soccer_evaluation``)."""
        fade = self.hand_fade()
        if not fade:
            return 0.0
        ours = sum(self._card_worth(k) for k in self.hand)
        theirs = 0.0
        if self.unseen_total:
            worth = self._remember(("worth",), self._unseen_worth, memo=self._by_unseen)
            theirs = self.opp_hand_size * worth / self.unseen_total
        # The first shot card and the first defensive card are worth more than the next ones,
        # as the heuristic counts them when it spends a card (:meth:`spend_gain`); without it the
        # search gave away a last shot or a last defensive card the heuristic would keep.
        if self.inside_shots + self.outside_shots:
            ours += FIRST_SHOT_WORTH
        if self.defenders:
            ours += FIRST_DEFENCE_WORTH
        theirs += FIRST_SHOT_WORTH * self.p_opponent_holds(lambda c: c.kind == "shot", "shot")
        theirs += FIRST_DEFENCE_WORTH * self.p_opponent_holds(lambda c: c.kind in DEFENSIVE, "defence")
        return fade * (ours - theirs)

    def _card_worth(self, k: int) -> float:
        return self.worths[k]

    def _unseen_worth(self) -> float:
        """The :data:`HAND_WORTH` of all the unseen cards together."""
        worths = self.worths
        return sum(n * worths[k] for k, n in enumerate(self.unseen) if n)

    def spend_gain(self, k: int) -> float:
        """What giving up card ``k`` does to the hand, in goals to the rest of the half: the
        card drawn in its place (the mix of the cards not yet seen) less the card, with the
        worth of a first shot and a first defensive card (:data:`FIRST_SHOT_WORTH`). Positive
        for a spare shot card, negative for the last defensive card."""
        found = self._memo.get(("spend", k))  # asked often: the memo without _remember's call
        if found is None:
            found = self._memo["spend", k] = self._spend_gain(k)
        return found

    def _spend_gain(self, k: int) -> float:
        s = self.s
        card = self.cards[k]
        shots = self.inside_shots + self.outside_shots
        defence = self.defenders
        gain = -self._card_worth(k)
        last_shot = card.kind == "shot" and shots == 1
        last_defence = card.kind in DEFENSIVE and defence == 1
        if last_shot:
            gain -= FIRST_SHOT_WORTH
        if last_defence:
            gain -= FIRST_DEFENCE_WORTH
        # Rulebook "Hand Replenishment": a card played is replaced while the deck (or the
        # stoppage deck) lasts.
        if s.pile_left > 0 and s.stoppage != 0:
            mean, p_shot, p_defence = self._remember(("mix",), self._unseen_mix, memo=self._by_unseen)
            gain += mean
            if last_shot or not shots:
                gain += p_shot * FIRST_SHOT_WORTH
            if last_defence or not defence:
                gain += p_defence * FIRST_DEFENCE_WORTH
        return gain

    def _unseen_mix(self) -> tuple[float, float, float]:
        """The mean :data:`HAND_WORTH` of an unseen card, and the chances it is a shot card
        and a defensive card."""
        total = self.unseen_total or 1
        worth = shots = defence = 0.0
        for k, n in enumerate(self.unseen):
            if n:
                worth += n * self.worths[k]
                kind = self.cards[k].kind
                shots += n * (kind == "shot")
                defence += n * (kind in DEFENSIVE)
        return (worth / total, shots / total, defence / total)

    def card_economy(self, k: int) -> float:
        """The part of :meth:`spend_gain` an option that spends card ``k`` counts, fading as
        the hand values do at the end of the match. Nothing in stoppage time: the cards in hand
        are then what the half is played out with, and few or none come in their place."""
        if self.s.stoppage >= 0:
            return 0.0
        return CARD_ECONOMY * self.hand_fade() * self.spend_gain(k)

    def hand_fade(self) -> float:
        """The share of the hand values still to count: all of it until the last
        :data:`HAND_WORTH_CARDS` cards of the second half, none in its stoppage time."""
        s = self.s
        if s.half >= 2 and (s.stoppage >= 0 or s.pile_left < HAND_WORTH_CARDS):
            return 0.0 if s.stoppage >= 0 else s.pile_left / HAND_WORTH_CARDS
        return 1.0

    def cheapest_card(self) -> int:
        """The card a discard gives up (the hand must not be empty): the one whose loss, with
        its replacement, does the hand most good by :meth:`spend_gain` (a spare shot card
        first), the least useful by :meth:`keep_value` among equals. In stoppage time the cards
        left are the last chances of the half: the least useful now (Inside shots kept)."""
        return self._remember(("cheapest",), self._cheapest_card)

    def _cheapest_card(self) -> int:
        if self.s.stoppage >= 0:
            return min(self.kinds, key=lambda k: (self.keep_value(k), k))
        return min(self.kinds, key=lambda k: (-round(self.spend_gain(k), 9), self.keep_value(k), k))

    def shot_at_hand(self) -> bool:
        """Whether we have the ball and may shoot now (a shot card from an A zone, or the free
        shot of a Pass+O/S card)."""
        s = self.s
        return s.control == self.seat and any(
            isinstance(a, Act) and a.verb == "shoot" for a in s.legal_actions(self.seat)
        )

    def ending_suits(self) -> bool:
        """Whether ending the half now is in our interest. In the second half the score
        decides: ahead, the win is ours (the tip: burn time); behind, only playing on can save
        the match. Level, or in the first half (where a goal counts the same now as after the
        break, so a lead gains nothing from ending), the half is worth playing while we can
        still get a shot: we end it only when we cannot."""
        s = self.s
        if s.half >= 2 and self.lead:
            return self.lead > 0
        return not (self.inside_shots or self.outside_shots or (s.free_shot and s.control == self.seat))

    def value_mine(self, zone: int, hand_bonus: bool = True) -> float:
        """Our goal chance with the ball at ``zone`` (absolute) and a new sequence."""
        found = self._memo.get(("mine", zone, hand_bonus))  # as spend_gain
        if found is None:
            found = self._memo["mine", zone, hand_bonus] = self._value_mine(zone, hand_bonus)
        return found

    def _value_mine(self, zone: int, hand_bonus: bool) -> float:
        seat, board = self.seat, self.board
        if zone == board.box[1 - seat]:
            return BOX_WITH_INSIDE_SHOT if self.inside_shots else BOX_WITHOUT_INSIDE_SHOT
        row, col = board.own_row[seat][zone], board.own_col[seat][zone]
        v = ROW_VALUE[row] * (CENTRE_BONUS if col == 1 else 1.0)
        if hand_bonus:
            if row >= 4 and (self.inside_shots or self.outside_shots):
                v *= 1.35
            # Without cards to move the ball on, the ball is likely lost where it stands.
            progress = min(1.0, 0.35 + 0.17 * self.movers)
            v = progress * v - (1 - progress) * STUCK_LOSS * self.value_theirs(zone)
        return v

    def value_theirs(self, zone: int) -> float:
        """The opponent's goal chance with the ball at ``zone`` (absolute)."""
        found = self._memo.get(("theirs", zone))  # as spend_gain
        if found is None:
            found = self._memo["theirs", zone] = self._value_theirs(zone)
        return found

    def _value_theirs(self, zone: int) -> float:
        board, opp = self.board, self.opp
        if zone == board.box[self.seat]:
            p_inside = self.p_opponent_holds(lambda c: c.kind == "shot" and c.inside, "inside shot")
            return p_inside * BOX_WITH_INSIDE_SHOT + (1 - p_inside) * BOX_WITHOUT_INSIDE_SHOT
        row, col = board.own_row[opp][zone], board.own_col[opp][zone]
        return ROW_VALUE[row] * (CENTRE_BONUS if col == 1 else 1.0)

    def swing(self, mine: bool, zone: int) -> float:
        return self.value_mine(zone) if mine else -self.value_theirs(zone)

    def goal_kick_value(self, kicker_is_me: bool) -> float:
        """Value (for us) of a goal kick on the chart taken by us or by the opponent."""
        return self._remember(("goal kick", kicker_is_me), self._goal_kick_value, kicker_is_me)

    def _goal_kick_value(self, kicker_is_me: bool) -> float:
        c = self.t.content
        kicker = self.seat if kicker_is_me else self.opp
        total = 0.0
        for roll in range(1, DIE + 1):
            row = c.goal_kick_chart[roll]
            team = kicker if row.kicker else 1 - kicker
            total += self.swing(team == self.seat, self.board.zone(team, row.zone))
        best = total / DIE
        if kicker_is_me:
            # We could also throw in to D2.
            best = max(best, max(self.value_mine(self.board.zone(self.seat, z)) for z in c.throw_in_zones))
            return best
        return min(best, -self.value_theirs(self.board.zone(self.opp, "D2C")))

    def shot_value(self, goal_from: int) -> float:
        """Expected value of a roll on the Shot chart by us."""
        return self._remember(("shot", goal_from), self._shot_value, goal_from)

    def _shot_value(self, goal_from: int) -> float:
        c, board, seat = self.t.content, self.board, self.seat
        total = 0.0
        p_goal = (DIE - goal_from + 1) / DIE
        for roll in range(1, goal_from):
            row = c.shot_chart[roll]
            if row.result == "corner":
                total += (DIE - c.goal_from["corner"] + 1) / DIE
            elif row.result in ("offense-control", "offense-throw-in"):
                total += self.value_mine(board.zone(seat, row.zone or "A1C"), hand_bonus=False)
            elif row.result in ("defense-control", "defense-throw-in"):
                total -= self.value_theirs(board.zone(self.opp, row.zone or "D2C"))
            elif row.result == "defense-goal-kick":
                total += self.goal_kick_value(False)
            else:
                total += 1.0
        return p_goal + total / DIE

    def keep_value(self, k: int) -> float:
        """How much card ``k`` is worth keeping in hand now."""
        card = self.cards[k]
        if card.kind == "shot":
            return KEEP_SHOT_INSIDE if card.inside else KEEP_SHOT_OUTSIDE
        if card.kind == "star":
            return KEEP_STAR
        if card.kind in ("challenge", "intercept"):
            return KEEP_DEFENSE / max(1, self.defenders - 1)
        ahead = max((dr for dr, _ in card.directions), default=0) * card.distance
        value = 0.2 + 0.15 * ahead + (0.2 if not card.defensible else 0.0)
        return value


SPENDS_CARD = frozenset({"play", "passback", "shoot", "discard", "reply"})
"""The verbs of the actions that take a card from the hand (bar ``none`` and ``free``)."""


def spent_card(t: Tables, action: Any) -> int | None:
    """The card ``action`` takes from its player's hand, face up for both to see (a play,
    shot, passback, discard or answer with a card), if any."""
    if not isinstance(action, Act) or action.verb not in SPENDS_CARD or action.arg in ("none", "free"):
        return None
    return t.by_code[action.arg.split(" ")[0]].index


def offered_already(state: BigTimeState, seat: int) -> bool:
    """Whether ``seat`` proposed the end of the half since the stoppage deck ran out (no card
    drawn since), and the opponent has not played his last card since (the match's history, as
    the seat saw it)."""
    played = 0  # the opponent's cards played since, newest first
    for who, action in reversed(state.history()):
        if not isinstance(action, Act):
            if who == CHANCE:
                break  # a card drawn out of the seat's sight: the stoppage deck was not used up
            continue
        if who == CHANCE:
            if action.verb == "draw":
                break
        elif who == seat:
            if action.verb == "propose-end":
                return not (played and not state.hands[1 - seat])
        elif spent_card(state.game.t, action) is not None:  # type: ignore[attr-defined]
            played += 1
    return False


def reply_preference(state: BigTimeState, seat: int, kinds: Iterable[int]) -> list[int]:
    """The card kinds of ``kinds`` this bot would answer the pending pass, dribble or hold
    with, best first (it plays the first it holds; none of them: it lets the ball go).

    The tips: a Challenge on a hold always tackles; in one's own box only a Star is worth
    playing (a foul there is a penalty); comfortably ahead with two yellow cards, no tackle
    outside the back rows; own-third cards before the others (a better table); a Star only
    in the back rows (D1, D2). What the search levels learn from a declined answer
    (:class:`DeclineBelief`) comes from the same rule."""
    t: Tables = state.game.t  # type: ignore[attr-defined]
    board = t.board
    what = state.pending[0] if state.pending else "pass"
    usable = [k for k in kinds if t.cards[k].answers(what) and t.playable(t.cards[k], seat, state.ball)]
    stars = [k for k in usable if t.cards[k].kind == "star"]
    normal = [k for k in usable if t.cards[k].kind != "star"]
    if what == "hold":
        return normal + stars
    if state.ball == board.box[seat]:
        return stars
    row = board.own_row[seat][state.ball]  # the defender's own frame: 0 = D1
    lead = state.goals[seat] - state.goals[1 - seat]
    if lead >= 2 and len(state.yellows[seat]) >= 2 and row >= 2:
        return []
    normal.sort(key=lambda k: t.cards[k].table != "own-third")
    return normal + (stars if row <= 1 else [])


DECLINE_SLACK = 0.1
"""How much a world is believed in which the opponent let a pass, dribble or hold go while
holding a card :func:`reply_preference` says it would have answered with (against 1 for a
world that fits): this bot never does so, a person sometimes might."""

DECLINE_TRIES = 40
"""Worlds drawn at most for one that fits the opponent's declines (else the best drawn)."""


class DeclineBelief(Belief):
    """What the opponent's declined answers say about its hand (the search levels' draw where
    their :class:`~soccerdesk.bots.bts_particles.ParticleBelief` has no hands to offer:
    stoppage time, a hand that does not fit the view).

    The defender is always asked for an answer, whatever it holds, so the question itself
    tells nothing; but a defender playing as :func:`reply_preference` does lets a pass go
    only without a card to answer it. Worlds are drawn as the public counts make them and
    then kept by how well they fit every decline since: the cards held since a decline (its
    hand now less the cards drawn after it, those drawn earliest among them, in a random
    order of age) are unlikely to include one it would have answered with.
    """

    def __init__(self) -> None:
        self._asked: dict[int, tuple[Any, frozenset[int]]] = {}
        """Ply of our play -> (the play, the card kinds the opponent would have answered with)."""
        self._match: Any = None
        """The match the plays noted belong to (a bot may be kept from one match to the next)."""

    def chose(self, state: State, seat: int, action: Any) -> None:
        assert isinstance(state, BigTimeState)
        after = state.apply_unchecked(seat, action)
        assert isinstance(after, BigTimeState)
        if after.phase != "reply":  # the opponent answers (after our draw to refill the hand)
            return
        t: Tables = state.game.t  # type: ignore[attr-defined]
        kinds = frozenset(reply_preference(after, 1 - seat, range(len(t.cards))))
        if kinds:
            self._forget_other_matches(state)
            self._asked[state.ply] = (action, kinds)

    def _forget_other_matches(self, state: State) -> None:
        match = getattr(state, "info", None)
        if match != self._match:
            self._asked.clear()
            self._match = match

    def declines(self, state: State, seat: int) -> list[tuple[int, frozenset[int]]]:
        """Per decline still telling something: how many of the opponent's cards now were in
        its hand at the time, and the kinds it would have answered with."""
        self._forget_other_matches(state)
        if not self._asked:
            return []
        history = state.history()
        held = len(state.hands[1 - seat])  # type: ignore[attr-defined]
        found: list[tuple[int, frozenset[int]]] = []
        for ply, (action, kinds) in sorted(self._asked.items()):
            # The answer comes after our play and our draw to refill the hand.
            answer = None
            if ply < len(history) and history[ply] == (seat, action):
                answer = next((i for i in range(ply + 1, len(history)) if history[i][0] != CHANCE), None)
            if answer is None:
                del self._asked[ply]  # the match was rewound
                continue
            if history[answer] != (1 - seat, REPLY_NONE):
                del self._asked[ply]  # it answered: the rest of its hand is anyone's guess
                continue
            drawn = sum(1 for who, a in history[answer + 1 :] if who == CHANCE and a is HIDDEN)
            if held - drawn <= 0:
                del self._asked[ply]  # every card it held then has been played since
                continue
            found.append((held - drawn, kinds))
        return found

    def worlds(self, state: State, seat: int) -> Worlds:
        declines = self.declines(state, seat)
        if not declines:
            return super().worlds(state, seat)
        other = 1 - seat

        def draw(rng: random.Random) -> State:
            best: tuple[int, State] | None = None
            for _ in range(DECLINE_TRIES):
                world = state.determinize(seat, rng)
                hand = list(world.hands[other])  # type: ignore[attr-defined]
                rng.shuffle(hand)  # the oldest cards first
                misses = sum(1 for old, kinds in declines if any(k in kinds for k in hand[:old]))
                if not misses or rng.random() < DECLINE_SLACK**misses:
                    return world
                if best is None or misses < best[0]:
                    best = (misses, world)
            assert best is not None
            return best[1]

        return draw


class HeuristicBot(Bot):
    """Rule-of-thumb Big Time Soccer player (see the module docstring)."""

    name = "heuristic"

    def __init__(self, game_id: str, *, shares_answers: bool = True) -> None:
        super().__init__(game_id)
        self.shares_answers = shares_answers
        """Whether its answers that depend only on the unseen cards are kept for other
        positions with the same ones (:data:`_BY_UNSEEN`): not for the particle filter's,
        whose every guessed hand leaves the holder other unseen cards, so that its hundreds
        of guesses per decision would empty the store a search's rollouts read from."""

    def choose(self, state: State, seat: int, legal: list[Any], rng: random.Random) -> Any:
        ties = self.best_choices(state, seat, legal)
        return ties[rng.randrange(len(ties))] if len(ties) > 1 else ties[0]

    def best_choices(self, state: State, seat: int, legal: list[Any]) -> list[Any]:
        """The choices of ``legal`` this bot likes best (:meth:`choose` takes one of them at
        random): those its estimates value alike at the top, or the one its rule gives at a
        defender's reply, a discard or an end offer."""
        assert isinstance(state, BigTimeState)
        ctx = _Context(state, seat, self.shares_answers)
        phase = state.phase
        if phase == "reply":
            return [self._reply(ctx, legal)]
        if phase == "discard":
            return [self._discard(ctx, legal)]
        if phase == "end_offer":
            # Rulebook "Stoppage Time": the half ends when both players concede they cannot get
            # a shot; we concede when ending serves us.
            return [Act("accept-end") if ctx.ending_suits() else Act("decline-end")]
        scored = [(self._value(ctx, a), a) for a in legal]
        best = max(v for v, _ in scored)
        return [a for v, a in scored if v >= best - 1e-12]

    def close_call(self, state: State) -> bool:
        """Whether this bot's two best options are within :data:`CLOSE_CALL` goals of each
        other by its estimates (replies, discards and end offers always count as close): the
        decisions where a closer look may find the better one."""
        assert isinstance(state, BigTimeState)
        players = state.current_players()
        if state.phase in ("reply", "discard", "end_offer") or len(players) != 1:
            return True
        ctx = _Context(state, players[0])
        legal: list[Any] = state.legal_actions(players[0])
        values = sorted((self._value(ctx, a) for a in legal), reverse=True)
        return len(values) > 1 and values[0] - values[1] < CLOSE_CALL

    def near_misses(self, state: State, seat: int, legal: list[Any]) -> list[Any]:
        """The choices a beginner might take instead of this bot's: the next best few, each
        within :data:`NEAR_MISS` goals of the best by its estimates (``easy``'s slips). None
        at a defender's reply, a discard or an end offer, which this bot decides by rule (a
        random answer there accepted the end of a half while behind); elsewhere the margin
        keeps out what no beginner plays, such as clearing over the goal line from the attack."""
        assert isinstance(state, BigTimeState)
        if state.phase in ("reply", "discard", "end_offer"):
            return []
        ctx = _Context(state, seat)
        return next_best(legal, lambda a: self._value(ctx, a), NEAR_MISS_CHOICES, NEAR_MISS)

    def ranked(self, state: State, seat: int, legal: list[Any]) -> list[Any]:
        """``legal`` from the most to the least promising by this bot's estimates (its own
        pick first): the short list a search looks at more closely."""
        assert isinstance(state, BigTimeState)
        ctx = _Context(state, seat)
        if state.phase in ("reply", "discard", "end_offer"):
            first = self.choose(state, seat, legal, random.Random(0))
            return [first, *(a for a in legal if a != first)]
        return sorted(legal, key=lambda a: -self._value(ctx, a))

    # --- the defender's answer ---------------------------------------------------------

    def _reply(self, ctx: _Context, legal: list[Any]) -> Any:
        held = {ctx.t.by_code[a.arg].index: a for a in legal if a.arg != "none"}
        for k in reply_preference(ctx.s, ctx.seat, held):
            return held[k]
        return REPLY_NONE

    # --- which card to give up ------------------------------------------------------------

    def _discard(self, ctx: _Context, legal: list[Any]) -> Any:
        # Tips: a hold usually discards the worst card, and a balanced hand has one or two
        # shot cards (a spare one goes before the last mover or defender); the clock is the
        # deck, so when ahead late every card given up brings the end nearer. In stoppage time
        # with the deck used up, a discard is also what brings the half to its end.
        if not ctx.hand:
            return legal[0]
        return ctx.t.discard[ctx.cheapest_card()]

    # --- everything else: compare values --------------------------------------------------

    def _value(self, ctx: _Context, a: Act) -> float:
        s, t, board, seat = ctx.s, ctx.t, ctx.board, ctx.seat
        verb = a.verb
        c = t.content
        if verb == "play":
            code, zone_name = a.arg.split(" ")
            card = t.by_code[code]
            target = board.zone(seat, zone_name)
            v = ctx.value_mine(target)
            if card.defensible:
                answers = "pass" if card.kind == "pass" else "dribble"
                p = ctx.p_opponent_holds(lambda d, w=answers: d.answers(w), answers)
                win = 0.45 if target != board.box[ctx.opp] else 0.55
                v = (1 - 0.8 * p * win) * v - 0.8 * p * win * ctx.value_theirs(target)
            v += 0.004 * self._follow_up(ctx, card, target)
            if ctx.inside_shots and target != board.box[ctx.opp]:
                # Tip: count the spaces to a shot. A path to the box with the cards still in hand.
                rest = list(ctx.hand)
                rest.remove(card.index)
                plays = self._cards_to_box(ctx, target, card.next, tuple(rest), PATH_DEPTH)
                if plays:
                    v = max(v, BOX_WITH_INSIDE_SHOT * PATH_DISCOUNT**plays)
            if card.outside_shot and target != board.box[ctx.opp] and board.own_row[seat][target] >= 4:
                v += 0.02
            v -= 0.002 * ctx.keep_value(card.index)
            return v + ctx.card_economy(card.index)
        if verb == "shoot":
            if a.arg == "free":
                return ctx.shot_value(c.goal_from["outside"]) + 0.01
            card = t.by_code[a.arg]
            inside = s.ball == board.box[ctx.opp]
            v = ctx.shot_value(c.goal_from["inside" if inside else "outside"])
            if card.inside and not inside:
                # Keep Inside cards for the box unless we hold two or more.
                v -= 0.01 if ctx.inside_shots >= 2 else 0.045
            # Tip: with two or three shot cards one can be spent from outside the box.
            return v + ctx.card_economy(card.index)
        if verb == "hold":
            p_tackle = 0.8 * ctx.p_opponent_holds(
                lambda d: d.answers("hold") and t.playable(d, ctx.opp, s.ball), ("hold", ctx.opp, s.ball)
            )
            keep = c.hold_control / DIE
            here_mine = ctx.value_mine(s.ball)
            here_theirs = ctx.value_theirs(s.ball)
            v = (1 - p_tackle) * (keep * here_mine - (1 - keep) * here_theirs) - p_tackle * here_theirs
            row = board.own_row[seat][s.ball]
            if ctx.inside_shots and row >= 4:
                v += 0.03  # Tip: one card short of an Inside shot, try to hold
            return v + ctx.card_economy(ctx.cheapest_card())  # the hold's discard
        if verb == "clear-in":
            target = board.zone(seat, a.arg)
            keep = (c.free_kick_clear_control if s.phase == "free_kick" else c.clear_control) / DIE
            if target == board.box[ctx.opp]:
                v = keep * ctx.value_mine(target) + (1 - keep) * ctx.goal_kick_value(False)
            else:
                v = keep * ctx.value_mine(target) - (1 - keep) * ctx.value_theirs(target)
            return v - (0.05 if ctx.burn_time else 0.0)
        if verb == "clear-out":
            # Rulebook: a clear out of play costs a card, the one way to change a clogged hand
            # without the ball in an A zone.
            spent = ctx.card_economy(ctx.cheapest_card()) if ctx.hand else 0.0
            if a.arg == "goal-line":
                return ctx.goal_kick_value(False) - 0.002 + spent
            return -ctx.value_theirs(board.zone(seat, a.arg)) - 0.002 + spent
        if verb == "clear-box":
            return ctx.goal_kick_value(False) - 0.003
        if verb == "passback":
            k = t.by_code[a.arg].index
            return ctx.goal_kick_value(True) - 0.001 * ctx.keep_value(k) + ctx.card_economy(k)
        if verb == "goal-kick":
            v = 0.0
            for roll in range(1, DIE + 1):
                row = c.goal_kick_chart[roll]
                team = seat if row.kicker else ctx.opp
                v += ctx.swing(team == seat, board.zone(team, row.zone))
            return v / DIE - (0.05 if ctx.burn_time else 0.0)
        if verb == "aimed-kick":
            zone = board.zone(seat, a.arg)
            keep = c.aimed_control / DIE
            return keep * ctx.value_mine(zone) - (1 - keep) * ctx.value_theirs(zone)
        if verb == "throw-in":
            zone = board.zone(seat, a.arg)
            return ctx.value_mine(zone) + 0.002 * self._reach(ctx, zone)
        if verb == "free-kick":
            return ctx.value_mine(s.ball)
        if verb == "propose-end":
            # Rulebook "Stoppage Time": proposing is conceding we cannot get a shot, so never
            # with one at hand; and a human is asked each time, so not again after a decline
            # unless the opponent has since played his last card (he cannot get one either).
            if not ctx.ending_suits() or ctx.shot_at_hand() or offered_already(s, seat):
                return -1.0
            return 1.0
        return -1.0

    def _follow_up(self, ctx: _Context, played: Card, target: int) -> int:
        """How many cards left in hand could follow ``played`` forward from ``target``."""
        count = 0
        used = False
        for k in ctx.hand:
            card = ctx.cards[k]
            if k == played.index and not used:
                used = True
                continue
            follows = played.next in (None, "any") or card.kind in ("any", played.next)
            row = ctx.board.own_row[ctx.seat]
            if card.moves and follows and any(row[z] > row[target] for _, z in ctx.t.moves[k][ctx.seat][target]):
                count += 1
        return count

    def _cards_to_box(self, ctx: _Context, zone: int, next_req: str | None, hand: tuple[int, ...], depth: int) -> int:
        """Fewest card plays (up to ``depth``) from ``zone`` into the opponent's box, 0 if none."""
        if depth == 0:
            return 0
        box = ctx.board.box[ctx.opp]
        best = 0
        tried = set()
        for i, k in enumerate(hand):
            card = ctx.cards[k]
            if k in tried or not card.moves or not (next_req in (None, "any") or card.kind in ("any", next_req)):
                continue
            tried.add(k)
            targets = [z for _, z in ctx.t.moves[k][ctx.seat][zone]]
            if box in targets:
                return 1
            if depth > 1:
                rest = hand[:i] + hand[i + 1 :]
                for z in targets:
                    found = self._cards_to_box(ctx, z, card.next, rest, depth - 1)
                    if found and (not best or found + 1 < best):
                        best = found + 1
        return best

    def _reach(self, ctx: _Context, zone: int) -> int:
        """Rows the best card in hand would gain from ``zone``."""
        row = ctx.board.own_row[ctx.seat][zone]
        best = 0
        for k in ctx.kinds:
            for _, z in ctx.t.moves[k][ctx.seat][zone]:
                best = max(best, ctx.board.own_row[ctx.seat][z] - row)
        return best
