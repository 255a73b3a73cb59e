"""The Big Time Soccer position and its rules (the state machine behind the contract).

A rulebook turn is a chain of small decisions and chance steps:

* ``play``: the seat in control chooses a card play, a pass-back, a shot, a clear, a hold
  or (stoppage cards all drawn) proposing to end the half;
* ``discard``: the card given up for a hold (optional) or a clear out of play (always; in
  stoppage time for every clear);
* ``reply``: after every answerable Pass, Dribble or hold the defender is asked, whatever
  his hand, whether he plays a defensive card;
* ``goal_kick``, ``free_kick``: the keeper's and the free kicker's choices;
* ``end_offer``: the other seat accepts or declines the end of the half.

Chance acts first whenever something is pending, in this order: a die roll or chit
(``roll``), then replenishment draws (``to_draw``, the offensive card's player first).
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from soccerdesk.rules.api import CHANCE, Event, IllegalAction, State, weighted
from soccerdesk.rules.big_time_soccer.actions import Act
from soccerdesk.rules.big_time_soccer.cards import DIE, Card, Content

_ROLLS = tuple(Act("roll", str(n)) for n in range(1, DIE + 1))
_ROLL_OUTCOMES = [(a, 1.0 / DIE) for a in _ROLLS]
_TOSS_OUTCOMES = [(Act("toss", "0"), 0.5), (Act("toss", "1"), 0.5)]
HOLD = Act("hold")
CLEAR_BOX = Act("clear-box")
GOAL_KICK = Act("goal-kick")
FREE_KICK = Act("free-kick")
PROPOSE_END = Act("propose-end")
ACCEPT_END = Act("accept-end")
DECLINE_END = Act("decline-end")
REPLY_NONE = Act("reply", "none")
DISCARD_NONE = Act("discard", "none")
SHOOT_FREE = Act("shoot", "free")

DECISION_PHASES = ("play", "discard", "reply", "goal_kick", "free_kick", "end_offer")

# What each pending d20 roll decides, as the event text names it (thresholds come from the data).
_ROLL_FOR = {
    "shot": "Shot at Net chart",
    "penalty": "Penalty Kick chart",
    "defense": "defensive card",
    "goal_kick": "Goal Kick chart",
    "stoppage": "Stoppage Time chart",
    "shootout": "shootout kick, Penalty Kick chart",
}


@dataclass(frozen=True, slots=True)
class Variant:
    """The match's rule options, resolved once."""

    cup: bool
    hold_in_own_box: bool  # Rulings 3 variant "opponent-box"
    strict_pass_os: bool  # Rulings 6 variant "strict"


class Tables:
    """Everything precomputed from the content for fast legal-move generation."""

    def __init__(self, content: Content) -> None:
        self.content = content
        board = content.board
        self.board = board
        self.cards = content.cards
        self.by_code = content.by_code
        self.deck = tuple(c.copies for c in content.cards)
        self.deck_size = sum(self.deck)
        n = len(self.cards)
        # moves[card][seat][zone]: (action, target zone) of every legal placement of that card.
        self.moves: list[tuple[tuple[tuple[tuple[Act, int], ...], ...], ...]] = []
        for card in self.cards:
            per_seat = []
            for seat in (0, 1):
                per_zone = []
                for zone in range(len(board.names[0])):
                    per_zone.append(self._placements(card, seat, zone))
                per_seat.append(tuple(per_zone))
            self.moves.append(tuple(per_seat))
        self.clear_in = tuple(
            tuple(
                tuple(
                    (Act("clear-in", board.names[seat][t.zone]), t.zone)
                    for t in board.clears[seat][z]
                    if t.in_play and t.zone is not None
                )
                for z in range(len(board.names[0]))
            )
            for seat in (0, 1)
        )
        self.clear_out = tuple(
            tuple(
                tuple(
                    (Act("clear-out", "goal-line" if t.goal_line else board.names[seat][t.zone or 0]), t)
                    for t in board.clears[seat][z]
                    if not t.in_play
                )
                for z in range(len(board.names[0]))
            )
            for seat in (0, 1)
        )
        self.shoot = tuple(Act("shoot", c.code) for c in self.cards)
        self.passback = tuple(Act("passback", c.code) for c in self.cards)
        self.discard = tuple(Act("discard", c.code) for c in self.cards)
        self.reply = tuple(Act("reply", c.code) for c in self.cards)
        self.draw = tuple(Act("draw", c.code) for c in self.cards)
        self.chit = tuple(Act("chit", str(i + 1)) for i in range(len(content.chits)))
        self.goal_kick_actions = (
            GOAL_KICK,
            *(Act("aimed-kick", z) for z in content.aimed_zones),
            *(Act("throw-in", z) for z in content.throw_in_zones),
        )
        self.zero = (0,) * n

    def _placements(self, card: Card, seat: int, zone: int) -> tuple[tuple[Act, int], ...]:
        board = self.board
        if (
            not card.moves
            or board.own_row[seat][zone] in card.no_play_rows
            or board.names[seat][zone] in card.no_play_zones
        ):
            return ()
        out: list[tuple[Act, int]] = []
        for dr, dc in card.directions:
            # Rulebook: a 2-space card may move the ball just 1 space.
            for dist in range(1, card.distance + 1):
                target = board.step(seat, zone, dr * dist, dc * dist)
                if target is None:
                    break
                act = Act("play", f"{card.code} {board.names[seat][target]}")
                if all(a != act for a, _ in out):
                    out.append((act, target))
        return tuple(out)

    def playable(self, card: Card, seat: int, zone: int) -> bool:
        return (
            self.board.own_row[seat][zone] not in card.no_play_rows
            and self.board.names[seat][zone] not in card.no_play_zones
        )


def _follows(kind: str, next_req: str | None) -> bool:
    # Rulings 2: the small top icon of the last card says which type may follow.
    return next_req is None or next_req == "any" or kind == next_req


def _matches_next(card: Card, next_req: str | None) -> bool:
    return card.kind == "any" or _follows(card.kind, next_req)  # the Any card follows anything


@dataclass(frozen=True, slots=True)
class BigTimeState(State):
    """One Big Time Soccer position. Hands are sorted tuples of card indices; piles are counts."""

    half: int  # 1, 2; 3 = shootout
    first_kicker: int  # -1 before the toss
    goals: tuple[int, int]
    ball: int  # absolute zone
    control: int  # the offensive seat
    phase: str  # the decision awaited once chance is done; "over" at the end
    roll: tuple[Any, ...] | None  # the pending die roll / chit / toss and its context
    pending: tuple[Any, ...] | None  # the context of the awaited decision
    next_req: str | None  # None: a new offensive sequence
    passback_used: bool
    hold_blocked: bool
    free_shot: bool
    hands: tuple[tuple[int, ...], tuple[int, ...]]
    pile: tuple[int, ...]  # copies of each card left to draw
    pile_left: int
    discard: tuple[int, ...]
    last_card: int  # the top card of the discard pile, -1 none
    to_draw: tuple[int, ...]  # seats still to replenish, in order
    stoppage: int  # -1 regular time; else cards of the stoppage deck still to draw
    stoppage_minutes: int
    chits: tuple[int, ...]  # face-down chits left, per number
    yellows: tuple[tuple[int, ...], tuple[int, ...]]
    reds: tuple[int, int]
    end_blocked: bool  # an end proposal was declined; none again until a card leaves a hand
    shootout: tuple[int, int, int, int] | None  # goals 0, goals 1, kicks 0, kicks 1
    variant: Variant
    # Per seat, the cards of its hand that both players can name: when the deck runs out every
    # card not in a hand is face up, so each hand is known then; those cards stay known until
    # played (stoppage time). Cards drawn from the stoppage deck are not.
    known: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())

    # --- who decides ----------------------------------------------------------------

    def current_players(self) -> tuple[int, ...]:
        if self.roll is not None or self.to_draw:
            return (CHANCE,)
        phase = self.phase
        if phase == "over":
            return ()
        if phase == "reply" or phase == "end_offer":
            return (1 - self.control,)
        return (self.control,)

    @property
    def score(self) -> tuple[int, int]:
        return self.goals

    @property
    def winner(self) -> int | None:
        if self.phase != "over":
            return None
        a, b = self.goals
        if a != b:
            return 0 if a > b else 1
        if self.shootout is not None and self.shootout[0] != self.shootout[1]:
            return 0 if self.shootout[0] > self.shootout[1] else 1
        return None

    def is_milestone(self) -> bool:
        return self.phase == "shootout" and self.shootout == (0, 0, 0, 0)

    def result_details(self) -> dict[str, Any]:
        if self.phase == "over" and self.shootout is not None:
            return {"shootout": [self.shootout[0], self.shootout[1]]}
        return {}

    def hand_limit(self, seat: int) -> int:
        """Rulings 9: 6 minus the surplus of my red cards over the opponent's, never below 3."""
        c = self.game.t.content  # type: ignore[attr-defined]
        return max(c.hand_minimum, c.hand_size - max(0, self.reds[seat] - self.reds[1 - seat]))

    def stoppage_exhausted(self) -> bool:
        """All stoppage cards are in hand (or the stoppage deck ran dry)."""
        return self.stoppage == 0 or (self.stoppage > 0 and self.pile_left == 0)

    # --- chance -------------------------------------------------------------------------

    _secret_history = True  # the opponent's draws

    def _secret(self, seat: int, action: Any) -> tuple[int, bool] | None:
        """A card drawn is seen by its drawer only (a die roll or a toss by both)."""
        if seat == CHANCE and self.roll is None and self.to_draw:
            return (1 - self.to_draw[0], False)
        return None

    def _chance_outcomes(self) -> list[tuple[Any, float]]:
        roll = self.roll
        t: Tables = self.game.t  # type: ignore[attr-defined]
        if roll is not None:
            if roll[0] == "toss":
                return list(_TOSS_OUTCOMES)
            if roll[0] == "chit":
                return weighted([(t.chit[i], n) for i, n in enumerate(self.chits)])
            return list(_ROLL_OUTCOMES)
        total = self.pile_left
        draw = t.draw
        return [(draw[i], n / total) for i, n in enumerate(self.pile) if n]

    # --- decisions ------------------------------------------------------------------------

    def _legal_actions(self, seat: int) -> list[Any]:
        t: Tables = self.game.t  # type: ignore[attr-defined]
        phase = self.phase
        hand = self.hands[seat]
        kinds = sorted(set(hand))
        if phase == "play":
            return self._play_actions(t, seat, kinds)
        if phase == "reply":
            out = [REPLY_NONE]
            what = self.pending[0]  # type: ignore[index]
            for k in kinds:
                card = t.cards[k]
                if card.answers(what) and t.playable(card, seat, self.ball):
                    out.append(t.reply[k])
            return out
        if phase == "discard":
            out = [t.discard[k] for k in kinds]
            if self.pending[0] == "hold":  # type: ignore[index]
                out.append(DISCARD_NONE)  # Rulebook "Hold": discarding is optional
            return out
        if phase == "goal_kick":
            return list(t.goal_kick_actions)
        if phase == "free_kick":
            return [
                FREE_KICK,
                *(a for a, _ in t.clear_in[seat][self.ball]),
                *(a for a, _ in t.clear_out[seat][self.ball]),
            ]
        if phase == "end_offer":
            return [ACCEPT_END, DECLINE_END]
        raise IllegalAction(f"no decision is pending in phase {phase!r}")

    def _play_actions(self, t: Tables, seat: int, kinds: list[int]) -> list[Any]:
        ball = self.ball
        board = t.board
        row = board.own_row[seat][ball]
        in_opp_box = ball == board.box[1 - seat]
        out: list[Any] = []
        if kinds:
            if not in_opp_box:
                next_req = self.next_req
                for k in kinds:
                    card = t.cards[k]
                    if card.moves and _matches_next(card, next_req):
                        out.extend(a for a, _ in t.moves[k][seat][ball])
                # Rulebook "Passing Directly to Your Goalkeeper": any Pass card from D1/D2, once a sequence.
                if row <= 1 and not self.passback_used:
                    for k in kinds:
                        card = t.cards[k]
                        # the card is played as a Pass (the Any card too), so the icon must allow a Pass
                        if card.can_pass and _follows("pass", next_req):
                            out.append(t.passback[k])
                if not self.hold_blocked and self._hold_zone_ok(board, seat):
                    out.append(HOLD)
            if row >= 4:  # Rulebook "Shoot at Net": from one of your A zones
                for k in kinds:
                    card = t.cards[k]
                    if card.kind == "shot" and (card.inside if in_opp_box else t.playable(card, seat, ball)):
                        out.append(t.shoot[k])
        if self.free_shot:
            out.append(SHOOT_FREE)
        if in_opp_box:
            out.append(CLEAR_BOX)
        else:
            out.extend(a for a, _ in t.clear_in[seat][ball])
            out.extend(a for a, _ in t.clear_out[seat][ball])
        if not self.end_blocked and self.stoppage_exhausted():
            out.append(PROPOSE_END)
        return out

    def _hold_zone_ok(self, board: Any, seat: int) -> bool:
        # Rulings 3: no hold with the ball in either box (variant: only the opponent's box).
        if self.ball == board.box[1 - seat]:
            return False
        return self.variant.hold_in_own_box or self.ball != board.box[seat]

    def explain_illegal(self, seat: int, action: Any) -> str:
        if self.is_terminal():
            return "the match is over"
        if seat not in self.current_players():
            if self.current_players() == (CHANCE,):
                return "wait: a die roll or card draw is pending"
            return f"it is seat {self.current_players()[0]}'s decision, not seat {seat}'s"
        if not isinstance(action, Act):
            return f"{action} is not a Big Time Soccer action"
        return _Explainer(self, seat, action).reason()

    # --- apply ---------------------------------------------------------------------------

    def _apply(self, seat: int, action: Any, events: list[Event]) -> State:
        turn = _Turn(self, events)
        if seat == CHANCE:
            turn.chance(action)
        else:
            turn.decide(seat, action)
        turn.settle()
        return turn.freeze()

    # --- what a seat sees ---------------------------------------------------------------

    def _view(self, seat: int | None) -> dict[str, Any]:
        t: Tables = self.game.t  # type: ignore[attr-defined]
        board = t.board
        cards = t.cards

        def codes(hand: tuple[int, ...]) -> list[str]:
            return [cards[k].code for k in hand]

        pending: dict[str, Any] | None = None
        if self.pending is not None:
            pending = {"kind": self.pending[0]}
            if self.phase == "reply":
                pending["card"] = cards[self.pending[1]].code if self.pending[1] >= 0 else None
            elif self.phase == "discard" and len(self.pending) > 1 and isinstance(self.pending[1], str):
                pending["target"] = self.pending[1]
        view: dict[str, Any] = {
            "half": self.half,
            "first_kicker": self.first_kicker,
            "phase": self.phase,
            "rolling": self.roll[0] if self.roll is not None else None,
            "drawing": self.to_draw[0] if self.to_draw and self.roll is None else None,
            "ball": self.ball,
            "ball_row": self.ball // 3,
            "ball_col": self.ball % 3,
            "ball_zone": [board.names[0][self.ball], board.names[1][self.ball]],
            "control": self.control,
            "next": self.next_req,
            "pass_back_used": self.passback_used,
            "hold_blocked": self.hold_blocked,
            "free_shot": self.free_shot,
            "pending": pending,
            "hand": codes(self.hands[seat]) if seat is not None else None,
            "hand_sizes": [len(self.hands[0]), len(self.hands[1])],
            "hand_limits": [self.hand_limit(0), self.hand_limit(1)],
            "can_reply": bool(
                seat is not None
                and self.phase == "reply"
                and seat != self.control
                and self.roll is None
                and not self.to_draw
                and len(self._legal_actions(seat)) > 1
            ),
            "deck_left": self.pile_left if self.stoppage < 0 else 0,
            "stoppage": None if self.stoppage < 0 else {"minutes": self.stoppage_minutes, "cards_left": self.stoppage},
            "discards": {cards[k].code: n for k, n in enumerate(self.discard) if n},
            "last_card": cards[self.last_card].code if self.last_card >= 0 else None,
            "yellows": [list(self.yellows[0]), list(self.yellows[1])],
            "reds": list(self.reds),
            "chits_left": sum(self.chits),
            "end_offer": self.phase == "end_offer",
            "mode": "cup" if self.variant.cup else "league",
            "shootout": None
            if self.shootout is None
            else {"goals": [self.shootout[0], self.shootout[1]], "kicks": [self.shootout[2], self.shootout[3]]},
        }
        shown = set(view["discards"])
        if view["hand"]:
            shown.update(view["hand"])
        if self.phase == "reply" and self.pending is not None and self.pending[1] >= 0:
            shown.add(cards[self.pending[1]].code)
        view["card_names"] = {code: t.by_code[code].name for code in sorted(shown)}
        return view

    # --- hidden information ----------------------------------------------------------------

    def unseen_by(self, seat: int) -> list[int]:
        """Copies of each card (by index) ``seat`` has not seen: the pile and the other seat's
        hand together. The counts are public; only their split is hidden."""
        pool = list(self.pile)
        for k in self.hands[1 - seat]:
            pool[k] += 1
        return pool

    def with_hand(self, seat: int, hand: tuple[int, ...], pile: Sequence[int]) -> BigTimeState:
        """This position with ``hand`` (sorted) in ``seat``'s hand and ``pile`` to draw from:
        a guess at the split of the cards the other seat has not seen (its
        :meth:`unseen_by` less ``hand``). The history and events are this position's."""
        hands = (hand, self.hands[1]) if seat == 0 else (self.hands[0], hand)
        world = _replace(self, hands=hands, pile=tuple(pile))
        world._set_meta(self._info, self._history, self._events)
        return world

    def _determinize(self, seat: int, rng: random.Random) -> State:
        """Resample the opponent's hand from the cards this seat has not seen (pile + his hand),
        keeping the cards of it this seat can name (in stoppage time, see ``known``)."""
        other = 1 - seat
        known = self.known[other]
        size = len(self.hands[other]) - len(known)
        if size == 0:
            return self
        pool = self.unseen_by(seat)
        for k in known:
            pool[k] -= 1
        total = sum(pool)
        drawn: list[int] = list(known)
        for _ in range(size):
            r = rng.random() * total
            k = 0
            while r >= pool[k] or not pool[k]:
                r -= pool[k]
                if k == len(pool) - 1 or not any(pool[k + 1 :]):
                    break  # float rounding at the very end of the pool: take the last card left
                k += 1
            pool[k] -= 1
            total -= 1
            drawn.append(k)
        drawn.sort()
        return self.with_hand(other, tuple(drawn), pool)


_FIELDS = tuple(BigTimeState.__dataclass_fields__)
_GET_FIELDS = attrgetter(*_FIELDS)


def _replace(state: BigTimeState, **changes: Any) -> BigTimeState:
    return BigTimeState(**{name: changes.get(name, getattr(state, name)) for name in _FIELDS})


class _Explainer:
    """Why an action is not legal now, in the words of the rulebook."""

    def __init__(self, state: BigTimeState, seat: int, action: Act) -> None:
        self.s = state
        self.seat = seat
        self.a = action
        self.t: Tables = state.game.t  # type: ignore[attr-defined]

    def reason(self) -> str:
        s, a, t = self.s, self.a, self.t
        phase = s.phase
        expected = {
            "reply": "answer the pass, dribble or hold: 'reply <card>' or 'reply none'",
            "discard": "choose the card to discard",
            "goal_kick": "take the goal kick: goal-kick, aimed-kick <M zone> or throw-in <D2 zone>",
            "free_kick": "take the free kick: free-kick, clear-in <zone> or clear-out <zone>",
            "end_offer": "accept-end or decline-end",
        }
        if phase != "play" and a.verb not in {str(x).split(" ")[0] for x in s.legal_actions(self.seat)}:
            return f"now you must {expected.get(phase, 'wait')}"
        card = t.by_code.get(a.arg.split(" ")[0])
        hand = s.hands[self.seat]
        if card is not None and card.index not in hand and a.verb in ("play", "passback", "shoot", "discard", "reply"):
            return f"you do not hold the card {card.name}"
        board = t.board
        row = board.own_row[self.seat][s.ball]
        in_opp_box = s.ball == board.box[1 - self.seat]
        if a.verb == "play" and card is not None:
            if in_opp_box:
                return "in the opponent's box you must shoot (Inside) or clear the ball"
            if not card.moves:
                return f"{card.name} is not a Pass or Dribble card"
            if not _matches_next(card, s.next_req):
                return f"the last card asks for a {s.next_req} card next"
            if not t.playable(card, self.seat, s.ball):
                return f"{card.name} cannot be played from {board.names[self.seat][s.ball]}"
            return f"{card.name} cannot move the ball to {a.arg.split(' ')[-1]}"
        if a.verb == "shoot":
            if a.arg == "free":
                if s.variant.strict_pass_os:
                    return "a free shot needs a Pass+O/S card played from an M zone into an A1 zone just before"
                return "a free shot needs a Pass+O/S card played into a non-box A zone just before"
            if row < 4:
                return "shots are taken from your A zones only"
            if card is not None and card.kind != "shot":
                return f"{card.name} is not a Shot at Net card"
            if in_opp_box:
                return "from inside the box only a Shot - Inside the Box card can be played"
            return "an Outside shot cannot be played from the box"
        if a.verb == "passback":
            if s.passback_used:
                return "you may pass to your goalkeeper only once until you lose and regain the ball"
            if row > 1:
                return "a pass to the goalkeeper is made from your D1 or D2 zones only"
            return "a pass to the goalkeeper needs a Pass card the last card allows"
        if a.verb == "hold":
            if s.hold_blocked:
                return "after a successful hold a Pass or Dribble card must be played before holding again"
            if not hand:
                return "with no cards in hand you must clear the ball"
            return "you may not hold the ball in a box"
        if a.verb in ("clear-in", "clear-out", "clear-box"):
            if in_opp_box and a.verb != "clear-box":
                return "in the opponent's box a clear is 'clear-box' (he gets a goal kick)"
            if a.verb == "clear-box":
                return "'clear-box' is the clear from the opponent's box; elsewhere clear in or out of play"
            return f"a clear cannot reach {a.arg} from {board.names[self.seat][s.ball]}"
        if a.verb == "propose-end":
            if s.end_blocked:
                return "the end of the half was just declined; play a card first"
            return "the half can be ended only once all stoppage cards are in hand"
        if a.verb == "discard" and a.arg == "none":
            return "this clear costs a card: choose the card to discard"
        if a.verb == "reply" and card is not None:
            return f"{card.name} cannot answer this play here"
        return f"{a} is not a legal action now"


class _Turn:
    """A mutable working copy of a state for one ``apply``; ``freeze`` makes the new state."""

    half: int
    first_kicker: int
    goals: tuple[int, int]
    ball: int
    control: int
    phase: str
    roll: tuple[Any, ...] | None
    pending: tuple[Any, ...] | None
    next_req: str | None
    passback_used: bool
    hold_blocked: bool
    free_shot: bool
    hands: tuple[tuple[int, ...], tuple[int, ...]]
    pile: tuple[int, ...]
    pile_left: int
    discard: tuple[int, ...]
    last_card: int
    to_draw: tuple[int, ...]
    stoppage: int
    stoppage_minutes: int
    chits: tuple[int, ...]
    yellows: tuple[tuple[int, ...], tuple[int, ...]]
    reds: tuple[int, int]
    end_blocked: bool
    shootout: tuple[int, int, int, int] | None
    variant: Variant
    known: tuple[tuple[int, ...], tuple[int, ...]]
    ev: list[Event]
    t: Tables
    c: Content

    def __init__(self, s: BigTimeState, events: list[Event]) -> None:
        # One C-level copy of every field (this runs once per apply: keep it cheap).
        self.__dict__.update(zip(_FIELDS, _GET_FIELDS(s), strict=True))
        self.ev = events
        self.t = s.game.t  # type: ignore[attr-defined]
        self.c = self.t.content

    def freeze(self) -> BigTimeState:
        return BigTimeState(*_GET_FIELDS(self))

    # --- helpers -------------------------------------------------------------------

    def say(self, kind: str, text: str, audience: tuple[int, ...] | None = None, **data: Any) -> None:
        self.ev.append(Event(kind, text, data, audience))

    def zname(self, seat: int, zone: int) -> str:
        return self.t.board.names[seat][zone]

    def take_card(self, seat: int, k: int) -> None:
        """A card leaves ``seat``'s hand face up onto the discard pile; he will replenish."""
        hand = list(self.hands[seat])
        hand.remove(k)
        self.hands = (tuple(hand), self.hands[1]) if seat == 0 else (self.hands[0], tuple(hand))
        if k in self.known[seat]:
            known = list(self.known[seat])
            known.remove(k)
            self.known = (tuple(known), self.known[1]) if seat == 0 else (self.known[0], tuple(known))
        discard = list(self.discard)
        discard[k] += 1
        self.discard = tuple(discard)
        self.last_card = k
        self.end_blocked = False
        if seat not in self.to_draw:
            self.to_draw = (*self.to_draw, seat)

    def new_sequence(self, seat: int, zone: int, phase: str = "play") -> None:
        """``seat`` has the ball in ``zone`` and begins a new offensive sequence.

        A seat that keeps the ball keeps a blocked hold: Rulings 3 lifts it only with a Pass
        or Dribble card, not with a clear kept or a shot recovered. A change of control lifts it.
        """
        if seat != self.control:
            self.passback_used = False  # Rulebook: once until you lose ball control and gain it back
            self.hold_blocked = False
            self.say("control", f"Seat {seat} gains control of the ball in its {self.zname(seat, zone)}", seat=seat)
        self.control = seat
        self.ball = zone
        self.next_req = None
        self.free_shot = False
        self.pending = None
        self.phase = phase

    def goal_kick_for(self, seat: int) -> None:
        self.new_sequence(seat, self.t.board.box[seat], "goal_kick")
        self.say("goal_kick", f"Goal kick for seat {seat}", seat=seat)

    def goal(self, scorer: int) -> None:
        goals = list(self.goals)
        goals[scorer] += 1
        self.goals = (goals[0], goals[1])
        self.say(
            "goal", f"GOAL! Seat {scorer} scores ({self.goals[0]}-{self.goals[1]})", seat=scorer, score=list(self.goals)
        )
        # Rulebook "Kickoff": the team scored upon kicks off and has ball control.
        loser = 1 - scorer
        self.new_sequence(loser, self.t.board.kickoff[loser])
        self.hold_blocked = False

    # --- chance ----------------------------------------------------------------------

    def chance(self, action: Act) -> None:
        if self.roll is not None:
            kind = self.roll[0]
            value = int(action.arg)
            if kind not in ("toss", "chit"):
                self.say("roll", f"The die shows {value} ({self.roll_purpose()})", roll=value, chart=kind)
            getattr(self, "roll_" + kind)(value, self.roll)
            return
        self.draw(self.to_draw[0], self.t.by_code[action.arg].index)

    def roll_purpose(self) -> str:
        """What the pending d20 roll decides, for the event text."""
        kind, c = self.roll[0], self.c  # type: ignore[index]
        if kind == "hold":
            return f"hold: 1-{c.hold_control} keeps the ball"
        if kind == "clear":
            return f"clear: 1-{self.roll[2]} keeps the ball"  # type: ignore[index]
        if kind == "aimed":
            return f"aimed goal kick: 1-{c.aimed_control} keeps the ball"
        if kind == "red":
            return f"{min(c.outright_red_rolls)} is an outright red card"
        return _ROLL_FOR[kind]

    def draw(self, seat: int, k: int) -> None:
        pile = list(self.pile)
        pile[k] -= 1
        self.pile = tuple(pile)
        self.pile_left -= 1
        hand = list(self.hands[seat])
        insort(hand, k)
        self.hands = (tuple(hand), self.hands[1]) if seat == 0 else (self.hands[0], tuple(hand))
        self.say("draw", f"Seat {seat} draws {self.t.cards[k].name}", (seat,), seat=seat, card=self.t.cards[k].code)
        self.say("draw", f"Seat {seat} draws a card", seat=seat)
        if self.stoppage > 0:
            self.stoppage -= 1
        elif self.stoppage < 0 and self.pile_left == 0:
            # Rulebook "Stoppage Time": when the last card of the deck is drawn, roll on the chart.
            self.roll = ("stoppage",)

    def roll_toss(self, value: int, roll: tuple[Any, ...]) -> None:
        self.roll = None
        self.first_kicker = value
        self.say("toss", f"Seat {value} kicks off", seat=value)
        self.kickoff(value)

    def kickoff(self, seat: int) -> None:
        self.control = seat
        self.passback_used = False
        self.hold_blocked = False
        self.new_sequence(seat, self.t.board.kickoff[seat])
        self.to_draw = (seat, 1 - seat)

    def roll_stoppage(self, value: int, roll: tuple[Any, ...]) -> None:
        self.roll = None
        row = self.c.stoppage_chart[value]
        # The deck is out: every card not in a hand is face up, so each hand can be named.
        self.known = self.hands
        # Keep the top discard; shuffle the rest into a small stoppage deck.
        pile = list(self.discard)
        top = self.last_card
        if top >= 0:
            pile[top] -= 1
        self.pile = tuple(pile)
        self.pile_left = sum(pile)
        self.discard = tuple(1 if k == top else 0 for k in range(len(pile)))
        self.stoppage = min(row.cards, self.pile_left)
        self.stoppage_minutes = row.minutes
        self.say(
            "stoppage",
            f"Stoppage time: {row.minutes} minute{'' if row.minutes == 1 else 's'},"
            f" {self.stoppage} more card{'' if self.stoppage == 1 else 's'} to draw",
            minutes=row.minutes,
            cards=self.stoppage,
        )

    def roll_hold(self, value: int, roll: tuple[Any, ...]) -> None:
        self.roll = None
        holder = self.control
        if value <= self.c.hold_control:
            self.say("hold", f"Seat {holder} holds the ball", seat=holder)
            self.new_sequence(holder, self.ball)
            self.hold_blocked = True  # Rulings 3: no second hold before a Pass or Dribble card
        else:
            self.say("hold", f"Seat {1 - holder} steals the ball", seat=1 - holder)
            self.new_sequence(1 - holder, self.ball)

    def roll_clear(self, value: int, roll: tuple[Any, ...]) -> None:
        _, target, keep = roll
        self.roll = None
        kicker = self.control
        if value <= keep:
            self.say("clear", f"Seat {kicker} keeps the cleared ball", seat=kicker)
            self.new_sequence(kicker, target)
        elif target == self.t.board.box[1 - kicker]:
            self.goal_kick_for(1 - kicker)  # Rulebook: his goalie grabs it
        else:
            self.new_sequence(1 - kicker, target)

    def roll_shot(self, value: int, roll: tuple[Any, ...]) -> None:
        goal_from = roll[1]
        self.roll = None
        self.chart_result(value, self.c.shot_chart[value], value >= goal_from)

    def roll_penalty(self, value: int, roll: tuple[Any, ...]) -> None:
        self.roll = None
        row = self.c.penalty_chart[value]
        self.chart_result(value, row, row.result == "goal")

    def chart_result(self, value: int, row: Any, scored: bool) -> None:
        shooter = self.control
        board = self.t.board
        if scored:
            self.goal(shooter)
            return
        result = row.result
        if result == "corner":
            # Rulings 7: the corner kick loops back into the shot chart.
            self.say("corner", f"Corner kick for seat {shooter} ({self.c.goal_from['corner']}+ scores)", seat=shooter)
            self.roll = ("shot", self.c.goal_from["corner"])
        elif result in ("offense-control", "offense-throw-in", "defense-control", "defense-throw-in"):
            # Chart zones are read in the frame of the team the result names (RULINGS frames).
            team = shooter if result.startswith("offense") else 1 - shooter
            text = (
                f"Blocked: seat {team} {'keeps' if team == shooter else 'gets'} the ball in its {row.zone}"
                if result.endswith("control")
                else f"Blocked, out of play: throw-in for seat {team} in its {row.zone}"
            )
            self.say("shot_result", text, seat=team)
            self.new_sequence(team, board.zone(team, row.zone))
        elif result == "defense-goal-kick":
            self.say("shot_result", f"Save! Goal kick for seat {1 - shooter}", seat=1 - shooter)
            self.goal_kick_for(1 - shooter)
        else:  # "goal" rows below the threshold cannot happen; a goal row always scores
            self.goal(shooter)

    def roll_goal_kick(self, value: int, roll: tuple[Any, ...]) -> None:
        self.roll = None
        kicker = self.control
        row = self.c.goal_kick_chart[value]
        team = kicker if row.kicker else 1 - kicker
        # Who has it said in words: the zone is named in the reader's frame, which alone does
        # not tell whose half it is (9-20 give the ball to the other team).
        self.say(
            "goal_kick_result", f"Goal kick lands in seat {team}'s {row.zone}: seat {team} controls the ball", seat=team
        )
        self.new_sequence(team, self.t.board.zone(team, row.zone))

    def roll_aimed(self, value: int, roll: tuple[Any, ...]) -> None:
        self.roll = None
        kicker = self.control
        team = kicker if value <= self.c.aimed_control else 1 - kicker  # Rulings 8
        self.say("goal_kick_result", f"Aimed goal kick: seat {team} controls the ball", seat=team)
        self.new_sequence(team, roll[1])

    def roll_defense(self, value: int, roll: tuple[Any, ...]) -> None:
        self.roll = None
        table = roll[1]
        result = self.c.defense[table][value]
        defender = 1 - self.control
        what, _card, free_shot_ok = self.pending  # type: ignore[misc]
        if result == "success":
            self.say("defense", f"Seat {defender} wins the ball", seat=defender, result=result)
            if self.ball == self.t.board.box[defender]:
                self.goal_kick_for(defender)  # Rulebook: his goalkeeper grabs it
            else:
                self.new_sequence(defender, self.ball)
        elif result == "failed":
            self.say(
                "defense", f"Seat {defender} fails; seat {self.control} keeps the ball", seat=defender, result=result
            )
            self.new_sequence(self.control, self.ball)
            self.free_shot = free_shot_ok  # Rulings 6: only a successful Intercept cancels it
        else:
            self.say("foul", f"Foul by seat {defender}", seat=defender, yellow=result == "foul-yellow")
            if result == "foul-yellow" and any(self.chits):
                self.roll = ("chit",)
            else:
                if result == "foul-yellow":
                    self.say("yellow", "No yellow-card chits are left: the yellow card is ignored")
                self.free_kick()

    def roll_chit(self, number: int, roll: tuple[Any, ...]) -> None:
        self.roll = None
        fouler = 1 - self.control
        chits = list(self.chits)
        chits[number - 1] -= 1
        self.chits = tuple(chits)
        mine = self.yellows[fouler]
        if number in mine:
            # Rulebook "Fouls and Yellow Cards": a second yellow of the same number is a red card.
            self.set_yellows(fouler, tuple(n for n in mine if n != number))
            self.red_card(fouler, f"second yellow card #{number}")
        elif number == self.c.outright_red_number:
            self.say(
                "yellow", f"Seat {fouler} draws yellow card #{number}: roll for a red card", seat=fouler, chit=number
            )
            self.roll = ("red", number)
            return
        else:
            self.set_yellows(fouler, tuple(sorted((*mine, number))))
            self.say("yellow", f"Yellow card #{number} for seat {fouler}", seat=fouler, chit=number)
        self.free_kick()

    def roll_red(self, value: int, roll: tuple[Any, ...]) -> None:
        self.roll = None
        fouler = 1 - self.control
        number = roll[1]
        if value in self.c.outright_red_rolls:
            self.red_card(fouler, f"outright red on yellow card #{number}")
        else:
            self.set_yellows(fouler, tuple(sorted((*self.yellows[fouler], number))))
            self.say("yellow", f"Yellow card #{number} for seat {fouler}", seat=fouler, chit=number)
        self.free_kick()

    def set_yellows(self, seat: int, yellows: tuple[int, ...]) -> None:
        self.yellows = (yellows, self.yellows[1]) if seat == 0 else (self.yellows[0], yellows)

    def red_card(self, seat: int, why: str) -> None:
        reds = list(self.reds)
        if reds[seat] < self.c.max_reds:  # Rulebook: ignore a fourth red card
            reds[seat] += 1
        self.reds = (reds[0], reds[1])
        self.say("red", f"RED CARD for seat {seat} ({why})", seat=seat)

    def free_kick(self) -> None:
        """Rulebook "Free Kicks": the three zone cases, for the seat in control."""
        kicker = self.control
        board = self.t.board
        zone = self.ball
        self.new_sequence(kicker, zone)
        if zone == board.box[1 - kicker]:
            self.say("penalty", f"Penalty kick for seat {kicker}", seat=kicker)
            self.roll = ("penalty",)
        elif board.own_row[kicker][zone] >= 4:
            a1c = board.names[kicker][zone] == "A1C"
            goal_from = self.c.goal_from["free_kick_a1c" if a1c else "free_kick"]
            self.say(
                "free_kick",
                f"Free kick at goal for seat {kicker} from {board.names[kicker][zone]} ({goal_from}+ scores)",
                seat=kicker,
            )
            self.roll = ("shot", goal_from)
        else:
            self.phase = "free_kick"
            self.say("free_kick", f"Free kick for seat {kicker} from {board.names[kicker][zone]}", seat=kicker)

    def roll_shootout(self, value: int, roll: tuple[Any, ...]) -> None:
        g0, g1, k0, k1 = self.shootout  # type: ignore[misc]
        first = self.first_kicker
        kicks = [k0, k1]
        goals = [g0, g1]
        shooter = first if kicks[first] == kicks[1 - first] else 1 - first
        kicks[shooter] += 1
        # Rulings 11: a "Save! Corner" counts as a miss.
        if self.c.penalty_chart[value].result == "goal":
            goals[shooter] += 1
            outcome = "scores"
        else:
            outcome = "misses"
        tally = f"seat 0 {goals[0]}/{kicks[0]}, seat 1 {goals[1]}/{kicks[1]}"
        self.say(
            "shootout",
            f"Shootout: seat {shooter} {outcome} ({tally})",
            seat=shooter,
            scored=outcome == "scores",
            goals=list(goals),
            kicks=list(kicks),
        )
        self.shootout = (goals[0], goals[1], kicks[0], kicks[1])
        if kicks[0] == kicks[1] and kicks[0] >= self.c.shootout_kicks and goals[0] != goals[1]:
            self.roll = None
            self.phase = "over"
            winner = 0 if goals[0] > goals[1] else 1
            self.say("end", f"Seat {winner} wins the shootout {goals[winner]}-{goals[1 - winner]}", winner=winner)

    # --- decisions ----------------------------------------------------------------------

    def decide(self, seat: int, a: Act) -> None:
        getattr(self, "do_" + a.verb.replace("-", "_"))(seat, a)

    def card_of(self, a: Act) -> Card:
        return self.t.by_code[a.arg.split(" ")[0]]

    def do_play(self, seat: int, a: Act) -> None:
        card = self.card_of(a)
        target = self.t.board.zone(seat, a.arg.split(" ")[1])
        origin = self.ball
        self.take_card(seat, card.index)
        self.ball = target
        self.next_req = card.next
        self.hold_blocked = False
        self.free_shot = False
        self.say(
            "play",
            f"Seat {seat} plays {card.name} to {a.arg.split(' ')[1]}",
            seat=seat,
            card=card.code,
            zone=a.arg.split(" ")[1],
        )
        shot_ok = card.outside_shot and self.pass_os_ok(seat, origin, target)
        if card.defensible:
            # Ask the defender whatever he holds, so the attacker learns nothing.
            self.phase = "reply"
            self.pending = ("pass" if card.kind == "pass" else "dribble", card.index, shot_ok)
        else:
            self.phase = "play"
            self.free_shot = shot_ok

    def pass_os_ok(self, seat: int, origin: int, target: int) -> bool:
        board = self.t.board
        row = board.own_row[seat][target]
        if row < 4 or target == board.box[1 - seat]:
            return False
        if self.variant.strict_pass_os:  # Rulebook wording: from M1/M2 into a non-box A1 zone
            return row == 4 and board.own_row[seat][origin] in (2, 3)
        return True  # Rulings 6: any non-box A zone

    def do_passback(self, seat: int, a: Act) -> None:
        card = self.card_of(a)
        self.take_card(seat, card.index)
        self.say("passback", f"Seat {seat} passes back to the goalkeeper", seat=seat, card=card.code)
        self.passback_used = True
        self.hold_blocked = False  # Rulings 3: the pass-back is a Pass card played
        self.goal_kick_for(seat)

    def do_shoot(self, seat: int, a: Act) -> None:
        board = self.t.board
        if a.arg == "free":
            self.free_shot = False
            self.say(
                "shot",
                f"Seat {seat} takes the Pass+O/S free Outside shot from {self.zname(seat, self.ball)}"
                f" ({self.c.goal_from['outside']}+ scores)",
                seat=seat,
                inside=False,
            )
            self.roll = ("shot", self.c.goal_from["outside"])
            return
        card = self.card_of(a)
        self.take_card(seat, card.index)
        inside = self.ball == board.box[1 - seat]
        self.free_shot = False
        goal_from = self.c.goal_from["inside" if inside else "outside"]
        self.say(
            "shot",
            f"Seat {seat} shoots {'inside' if inside else 'outside'} the box from"
            f" {self.zname(seat, self.ball)} with {card.name} ({goal_from}+ scores)",
            seat=seat,
            card=card.code,
            inside=inside,
        )
        self.roll = ("shot", goal_from)

    def must_discard_first(self, seat: int, pending: tuple[Any, ...]) -> bool:
        """Rulebook: clear out of play always costs a card; in stoppage time every clear does."""
        if not self.hands[seat]:
            return False
        if pending[0] == "hold" or pending[0] == "clear-out" or self.stoppage >= 0:
            self.phase = "discard"
            self.pending = pending
            return True
        return False

    def do_clear_in(self, seat: int, a: Act) -> None:
        keep = self.c.free_kick_clear_control if self.phase == "free_kick" else self.c.clear_control
        if not self.must_discard_first(seat, ("clear-in", a.arg, keep)):
            self.clear_in(seat, a.arg, keep)

    def clear_in(self, seat: int, name: str, keep: int) -> None:
        target = self.t.board.zone(seat, name)
        self.say("clear", f"Seat {seat} clears the ball to {name}", seat=seat, zone=name, in_play=True)
        self.ball = target
        self.phase = "play"
        self.pending = None
        self.roll = ("clear", target, keep)

    def do_clear_out(self, seat: int, a: Act) -> None:
        if not self.must_discard_first(seat, ("clear-out", a.arg)):
            self.clear_out(seat, a.arg)

    def clear_out(self, seat: int, name: str) -> None:
        if name == "goal-line":
            self.say("clear", f"Seat {seat} kicks the ball out over the goal line", seat=seat, zone=name, in_play=False)
            self.goal_kick_for(1 - seat)
        else:
            zone = self.t.board.zone(seat, name)
            self.say("clear", f"Seat {seat} kicks the ball out of play at {name}", seat=seat, zone=name, in_play=False)
            self.say("throw_in", f"Throw-in for seat {1 - seat} in its {self.zname(1 - seat, zone)}", seat=1 - seat)
            self.new_sequence(1 - seat, zone)

    def do_clear_box(self, seat: int, a: Act) -> None:
        if not self.must_discard_first(seat, ("clear-box",)):
            self.clear_box(seat)

    def clear_box(self, seat: int) -> None:
        self.say("clear", f"Seat {seat} clears from the box", seat=seat)
        self.goal_kick_for(1 - seat)

    def do_hold(self, seat: int, a: Act) -> None:
        self.say("hold", f"Seat {seat} tries to hold the ball", seat=seat)
        self.must_discard_first(seat, ("hold",))

    def do_discard(self, seat: int, a: Act) -> None:
        pending = self.pending
        assert pending is not None
        if a.arg != "none":
            card = self.card_of(a)
            self.take_card(seat, card.index)
            self.say("discard", f"Seat {seat} discards {card.name}", seat=seat, card=card.code)
        what = pending[0]
        self.pending = None
        if what == "hold":
            self.phase = "reply"
            self.pending = ("hold", -1, False)
        elif what == "clear-in":
            self.clear_in(seat, pending[1], pending[2])
        elif what == "clear-out":
            self.clear_out(seat, pending[1])
        else:
            self.clear_box(seat)

    def do_reply(self, seat: int, a: Act) -> None:
        what, _k, shot_ok = self.pending  # type: ignore[misc]
        if a.arg == "none":
            self.say("reply", f"Seat {seat} does not defend", seat=seat)
            if what == "hold":
                self.phase = "play"
                self.roll = ("hold",)
            else:
                self.phase = "play"
                self.pending = None
                self.free_shot = shot_ok
            return
        card = self.card_of(a)
        self.take_card(seat, card.index)
        self.say("reply", f"Seat {seat} plays {card.name}", seat=seat, card=card.code)
        if what == "hold":
            # Rulebook "Hold": a valid C card tackles automatically, no die.
            self.say("defense", f"Seat {seat} tackles and wins the ball", seat=seat, result="success")
            if self.ball == self.t.board.box[seat]:
                self.goal_kick_for(seat)
            else:
                self.new_sequence(seat, self.ball)
            return
        self.phase = "play"
        self.roll = ("defense", card.table)

    def do_goal_kick(self, seat: int, a: Act) -> None:
        self.say("goal_kick", f"Seat {seat} takes a goal kick on the chart", seat=seat)
        self.phase = "play"
        self.roll = ("goal_kick",)

    def do_aimed_kick(self, seat: int, a: Act) -> None:
        zone = self.t.board.zone(seat, a.arg)
        self.say("goal_kick", f"Seat {seat} aims the goal kick at {a.arg}", seat=seat, zone=a.arg)
        self.ball = zone
        self.phase = "play"
        self.roll = ("aimed", zone)

    def do_throw_in(self, seat: int, a: Act) -> None:
        self.say("throw_in", f"Seat {seat}'s goalkeeper throws the ball to {a.arg}", seat=seat, zone=a.arg)
        self.new_sequence(seat, self.t.board.zone(seat, a.arg))
        self.passback_used = True  # Rulings 8: the throw-in uses up the pass-back

    def do_free_kick(self, seat: int, a: Act) -> None:
        self.say("free_kick", f"Seat {seat} plays the free kick in place", seat=seat)
        self.new_sequence(seat, self.ball)

    def do_propose_end(self, seat: int, a: Act) -> None:
        self.say("end_offer", f"Seat {seat} proposes to end the half", seat=seat)
        self.phase = "end_offer"

    def do_accept_end(self, seat: int, a: Act) -> None:
        self.say("end_offer", f"Seat {seat} agrees to end the half", seat=seat)
        self.end_half()

    def do_decline_end(self, seat: int, a: Act) -> None:
        self.say("end_offer", f"Seat {seat} declines: play goes on", seat=seat)
        self.phase = "play"
        self.end_blocked = True

    # --- after every step ---------------------------------------------------------------

    def settle(self) -> None:
        """Drop replenishments that cannot happen; end the half when both hands are played out."""
        if self.phase == "over":
            return
        while self.to_draw:
            s = self.to_draw[0]
            limit = max(self.c.hand_minimum, self.c.hand_size - max(0, self.reds[s] - self.reds[1 - s]))
            can_draw = self.roll == ("stoppage",) or (self.pile_left > 0 and self.stoppage != 0)
            if len(self.hands[s]) < limit and can_draw:
                break
            self.to_draw = self.to_draw[1:]
        if (
            self.roll is None
            and not self.to_draw
            and self.stoppage >= 0
            and not self.hands[0]
            and not self.hands[1]
            and (self.stoppage == 0 or self.pile_left == 0)
            and not self.free_shot
            and self.phase in ("play", "goal_kick", "free_kick")
        ):
            # Rulebook "Stoppage Time": both players have played all their cards.
            self.say("hands_out", "Both hands are played out: the half ends")
            self.end_half()

    def end_half(self) -> None:
        if self.half == 1:
            self.say("half_time", f"Half-time: {self.goals[0]}-{self.goals[1]}", score=list(self.goals))
            # Rulings 10: gather and reshuffle all 72 cards, deal anew; score and chits carry over.
            self.half = 2
            self.hands = ((), ())
            self.pile = self.t.deck
            self.pile_left = self.t.deck_size
            self.discard = self.t.zero
            self.last_card = -1
            self.stoppage = -1
            self.stoppage_minutes = 0
            self.known = ((), ())
            self.end_blocked = False
            # Rulebook "Kickoff": the other side has the ball first in the second half.
            self.say("kickoff", f"Seat {1 - self.first_kicker} kicks off the second half", seat=1 - self.first_kicker)
            self.kickoff(1 - self.first_kicker)
            self.settle()
            return
        self.say("full_time", f"Full time: {self.goals[0]}-{self.goals[1]}", score=list(self.goals))
        self.to_draw = ()
        self.pending = None
        if self.variant.cup and self.goals[0] == self.goals[1]:
            self.half = 3
            self.shootout = (0, 0, 0, 0)
            self.phase = "shootout"
            self.roll = ("shootout",)
            self.say(
                "shootout",
                f"The cup match goes to a shootout: {self.c.shootout_kicks} kicks each, then one each until a side leads",
                kicks=self.c.shootout_kicks,
            )
        else:
            self.phase = "over"
