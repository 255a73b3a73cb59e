"""The Soccer-Go heuristic bot.

It decides from a determinized state (its own hand is real, the opponent's is a sample it
does not rely on) and reasons with public facts only: numbers still open, passes made and
needed, the cards in the discard piles, how many attacks each side has left.

* Face-down choices are mixed (a predictable bot is easy to mark), but weighted: the
  attacker retires the goalkeeper early (it can't take the final pass anyway, so using it
  first keeps one more number open on the last pass) and numbers that no card restricts
  to (10, 11) before those its own THROUGH BALL would need; the defender leans on the
  same picks a sensible attacker makes (the opponent's likely choices).
* Power cards are played when their gain in expected goals, estimated from the chance of
  surviving the remaining passes against a uniform marker, beats the worth of keeping the
  card for a later attack or defence (a hand never grows back, Rulings Soccer-Go 5). In a
  side's last regulation turn any gain is taken: cards are dead in extra time.
* Attacking cards are timed by a small planner (the best pass of each card's window, with
  the rest of the hand: COUNTER ATTACK now and SHOOT at pass 4, say); defending pass-window
  cards wait for the last pass of their window, since the attacker may be marked before.
* Shot re-takes are always taken; a pass re-take when the attack it saves is worth more than
  keeping the card; blocks answer every card that matters; after a draw the weakest card of
  the hand is swapped out for a better one.

Against a uniformly random opponent no choice of number or direction helps (every mark is a
1-in-n guess), so the bot's edge comes from the four power-card plays a side gets in a match
and the goalkeeper rule.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from soccerdesk.bots import Bot
from soccerdesk.rules import Action, State
from soccerdesk.rules.soccer_go import (
    ATTACKING,
    CORNER,
    DEEP,
    DRIBBLE,
    EVEN,
    GK,
    NARROW,
    ODD,
    OVER,
    PASS,
    PASS_REPLY,
    SHOT,
    SHOT_REPLY,
    SWAP,
    THROUGH,
    Keep,
    Mark,
    NoCard,
    PassTo,
    Play,
    Retire,
    SoccerGoState,
    Swap,
)

CARD_WORTH: dict[str, float] = {
    # Expected goals a card is worth over a match when kept for its best moment (rough,
    # from playing the effects against a uniform opponent); drives swaps and the
    # "keep it for later" side of every play decision.
    "shoot": 0.30,
    "att-pass-retake": 0.25,
    "att-shot-retake": 0.25,
    "corner": 0.22,
    "counter-attack": 0.20,
    "through-ball": 0.18,
    "dribble": 0.14,
    "att-joker": 0.15,
    "attacking-gk": 0.02,
    "att-bogey": 0.0,
    "def-shot-retake": 0.22,
    "tackle": 0.18,
    "clearance": 0.18,
    "def-pass-retake": 0.16,
    "deep-press": 0.15,
    "slow-build-up": 0.12,
    "narrow-shot": 0.12,
    "high-press": 0.10,
    "def-joker": 0.14,
    "def-bogey": 0.0,
}
BLOCK_WORTH = 0.10
NOT_WORTH_BLOCKING = frozenset({"attacking-gk", "att-bogey", "def-bogey"})


class HeuristicBot(Bot):
    """Soccer-Go heuristic: card timing by expected goals, weighted mixed passes and marks."""

    name = "heuristic"
    keep_factor = 1.0
    """Scales how much holding a card for a later turn is worth against playing it now."""

    def choose(self, state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
        assert isinstance(state, SoccerGoState)
        phase = state.phase
        if phase in (PASS, SHOT, PASS_REPLY, SHOT_REPLY) or any(isinstance(a, Play) for a in legal):
            play = self._best_play(state, seat, legal)
            if play is not None:
                return play
            if phase in (PASS_REPLY, SHOT_REPLY) or any(isinstance(a, NoCard) for a in legal):
                return next(a for a in legal if isinstance(a, NoCard))
        choices = [a for a in legal if not isinstance(a, Play)]
        if phase == PASS:
            return self._pick_number(state, seat, choices, rng)
        if phase == SWAP:
            return self._swap(state, seat, choices)
        if isinstance(choices[0], Retire):
            return self._retire(state, choices)
        # Shots, saves, tackle signs, narrowed directions: uniform is the safe mix.
        return choices[rng.randrange(len(choices))]

    # --- estimates ----------------------------------------------------------------------

    @staticmethod
    def chain(open_count: int, passes: int, upto: int, target: int, keeper_open: bool) -> float:
        """Chance to make passes ``passes + 1`` .. ``upto`` against a uniform marker.

        Each made pass retires one number; the goalkeeper is shut out of pass ``target``.
        """
        p = 1.0
        n = open_count
        for k in range(passes + 1, upto + 1):
            a = n - (1 if k == target and keeper_open else 0)
            if a <= 0:
                return 0.0
            p *= 1 - 1 / a
            n -= 1
        return p

    @staticmethod
    def score_chance(state: SoccerGoState) -> float:
        """Chance that a shot scores: the keeper guesses one open direction of several."""
        open_dirs = len(state.rules.data.directions) - (1 if state.narrowed else 0)
        return 1 - 1 / open_dirs

    def plan_value(
        self, state: SoccerGoState, passes: int, open_count: int, keeper_open: bool, cards: Sequence[str]
    ) -> float:
        """Expected goals of an attack with ``passes`` made and ``open_count`` numbers open,
        using at best one of the attacking ``cards`` (effect card ids) at its best pass."""
        data = state.rules.data
        target = state.target
        scoring = self.score_chance(state)
        if passes >= target:
            return scoring
        best = self.chain(open_count, passes, target, target, keeper_open) * scoring
        odd_open = len([n for n in data.through_ball_numbers if n not in state.retired])
        for card_id in cards:
            card = data.cards[card_id]
            if card.timing != "passes":
                continue
            lo, hi = card.passes
            effect = card.effect
            for n in range(max(lo, passes + 1), min(hi, target) + 1):
                reach = self.chain(open_count, passes, n - 1, target, keeper_open)
                a = open_count - (n - 1 - passes) - (1 if n == target and keeper_open else 0)
                if a <= 0:
                    break
                value = self._card_at(state, effect, n - 1, a, keeper_open, odd_open, ())
                best = max(best, reach * value)
        return best

    def _card_at(
        self,
        state: SoccerGoState,
        effect: str,
        passes: int,
        a: int,
        keeper_open: bool,
        odd_open: int,
        rest: Sequence[str],
    ) -> float:
        """Expected goals when the attacker plays ``effect`` with ``passes`` made and ``a`` numbers open."""
        data = state.rules.data
        scoring = self.score_chance(state)
        if effect == "shoot":
            return scoring
        if effect == "corner":
            return max(0.0, 1 - data.corner_cards / a) * scoring
        if effect == "through-ball":
            k = min(a, odd_open)
            return (1 - 1 / k) * scoring if k else 0.0
        if effect == "counter-attack":
            # The goalkeeper is among the numbers a counter attack retires (see _retire).
            return self.plan_value(
                state, passes + data.counter_attack_passes, a - data.counter_attack_passes, False, rest
            )
        if effect == "dribble":
            return (1 - 1 / a) * self.plan_value(state, passes + data.dribble_passes, a - 1, keeper_open, rest)
        return self.plan_value(state, passes, a, keeper_open, rest)

    def attack_value(self, state: SoccerGoState, cards: Sequence[str] = ()) -> float:
        """Expected goals of the attack in progress, the attacker holding ``cards``."""
        data = state.rules.data
        keeper_open = data.goalkeeper not in state.retired and not state.mods & GK
        open_count = len(data.players) - len(state.retired)
        return self.plan_value(state, state.passes, open_count, keeper_open, cards)

    def _keep_worth(self, state: SoccerGoState, seat: int, card: str) -> float:
        """What holding ``card`` is worth: nothing once this side has no more turns with cards."""
        attacking = state.rules.data.cards[card].side == ATTACKING
        left = self._turns_left(state, seat, attacking)
        return self.keep_factor * self._worth(state, card) * min(1.0, left / 2)

    @staticmethod
    def _turns_left(state: SoccerGoState, seat: int, attacking: bool) -> int:
        """Regulation turns after this one in which ``seat`` attacks (or defends)."""
        rules = state.rules
        rounds = state.options["rounds"]
        count = 0
        for turn in range(state.turn + 1, 2 * rounds):
            if (rules.attacker_of(state.first, turn, rounds) == seat) == attacking:
                count += 1
        return count

    # --- power cards --------------------------------------------------------------------

    def _effects_in_hand(self, state: SoccerGoState, seat: int, side: int) -> list[str]:
        """Card ids whose effect ``seat`` could use: its own cards, and a Joker's discarded copies."""
        cards = state.rules.data.cards
        out: list[str] = []
        for card_id in state.hands[seat]:
            card = cards[card_id]
            if card.side != side:
                continue
            if card.effect == "joker":
                out.extend(c for c in state.discards[side] if cards[c].effect not in ("joker", "bogey"))
            else:
                out.append(card_id)
        return out

    def _best_play(self, state: SoccerGoState, seat: int, legal: Sequence[Action]) -> Action | None:
        best: Action | None = None
        best_margin = 0.0
        for action in legal:
            if not isinstance(action, Play):
                continue
            gain = self._gain(state, seat, action)
            margin = gain - self._keep_worth(state, seat, action.card)
            if margin > best_margin:
                best, best_margin = action, margin
        return best

    def _gain(self, state: SoccerGoState, seat: int, play: Play) -> float:
        """Expected goals gained (attacker) or prevented (defender) by playing ``play`` now;
        0 when a later moment of this turn is better."""
        data = state.rules.data
        card = play.as_card or play.card
        effect = data.cards[card].effect
        scoring = self.score_chance(state)
        if effect == "block":
            named = state.named[1] if state.named else ""
            return 0.0 if named in NOT_WORTH_BLOCKING else 1.0
        if state.phase == PASS_REPLY:  # attacking Pass Re-take: possession back
            return self._pass_value(state)
        if state.phase == SHOT_REPLY:  # Shot Re-take: the shot again
            return scoring if seat == state.attacker else 1 - scoring
        if seat == state.attacker:
            return self._attack_gain(state, seat, play, card)
        return self._defence_gain(state, card)

    def _attack_gain(self, state: SoccerGoState, seat: int, play: Play, card: str) -> float:
        data = state.rules.data
        effect = data.cards[card].effect
        hand = self._effects_in_hand(state, seat, ATTACKING)
        rest = list(hand)
        if play.card in rest:
            rest.remove(play.card)
        elif card in rest:  # a Joker: its copy is no longer available either
            rest.remove(card)
        open_count = len(data.players) - len(state.retired)
        keeper_open = data.goalkeeper not in state.retired and not state.mods & GK
        odd_open = len(state.available(state.mods | ODD))
        a = len(state.available())
        if effect == "attacking-gk":
            if not keeper_open or state.passes + 1 != state.target or not a:
                return 0.0
            return ((1 - 1 / (a + 1)) - (1 - 1 / a)) * self.score_chance(state)
        if effect not in ("shoot", "corner", "through-ball", "counter-attack", "dribble"):
            return 0.0
        if not a:
            return 0.0
        after = self._card_at(
            state, effect, state.passes, a if effect != "counter-attack" else open_count, keeper_open, odd_open, rest
        )
        now_all = self.plan_value(state, state.passes, open_count, keeper_open, hand)
        if after < now_all - 1e-9:
            return 0.0  # a later pass of this turn is a better moment
        return after - self.plan_value(state, state.passes, open_count, keeper_open, rest)

    def _defence_gain(self, state: SoccerGoState, card: str) -> float:
        data = state.rules.data
        effect = data.cards[card].effect
        scoring = self.score_chance(state)
        now = self._pass_value(state) if state.phase == PASS else scoring
        if effect == "pass-retake":
            numbers, passes, mods, _ = state.retake  # type: ignore[misc]
            before = state._r(
                passes=passes, mods=mods, retired=state.retired[: len(state.retired) - len(numbers)], phase=PASS
            )
            return max(0.0, now - self._pass_value(before))
        if effect == "slow-build-up":
            a = len(state.available(state.mods & GK, state.passes, state.target + 1))
            return scoring / a if a else 0.0
        if effect == "narrow-shot":
            directions = len(data.directions) - (1 if state.narrowed else 0)
            return (1 - 1 / directions) - (1 - 1 / (directions - 1)) if directions > 2 else 0.0
        if effect not in ("tackle", "deep-press", "high-press", "clearance"):
            return 0.0
        # Pass-window cards: wait for the last pass of the window, since the attacker may well
        # be marked before and the card is then kept; play earlier only if the next unmarked
        # pass would jump past the window or straight to a shot.
        lo, hi = data.cards[card].passes
        n = state.passes + 1
        jump = data.dribble_passes if state.mods & DRIBBLE else 1
        last_chance = n >= hi or n >= state.target or bool(state.mods & (THROUGH | CORNER)) or n + jump > hi
        if not last_chance:
            return 0.0
        a = len(state.available())
        if effect == "tackle":
            return 0.5 * now
        if effect == "deep-press":
            squeezed = state._r(mods=state.mods | DEEP)
            return now - self._pass_value(squeezed) if a else 0.0
        if effect == "high-press":
            squeezed = state._r(mods=state.mods | EVEN)
            return now - self._pass_value(squeezed)
        back = min(data.clearance_passes, state.passes)
        returned = state.retired[len(state.retired) - min(back, len(state.retired)) :]
        cleared = state._r(passes=state.passes - back, retired=state.retired[: len(state.retired) - len(returned)])
        return now - self._pass_value(cleared)

    def _pass_value(self, state: SoccerGoState) -> float:
        """Expected goals of the attack just before a pass is chosen (modifiers included),
        the attacker playing no more cards."""
        a = len(state.available())
        if not a:
            return 0.0
        data = state.rules.data
        scoring = self.score_chance(state)
        mods = state.mods
        if mods & CORNER:
            return max(0.0, 1 - data.corner_cards / a) * scoring
        survive = 1 - (data.deep_press_cards if mods & DEEP else 1) / a
        if mods & THROUGH:
            return survive * scoring
        gained = data.dribble_passes if mods & DRIBBLE else 1
        after = state._r(passes=state.passes + gained, mods=mods & GK)
        open_after = len(data.players) - len(state.retired) - 1
        keeper_open = data.goalkeeper not in state.retired and not mods & GK
        return survive * self.plan_value(after, after.passes, open_after, keeper_open, ())

    # --- numbers ------------------------------------------------------------------------

    def _number_weight(self, state: SoccerGoState, seat: int, n: int) -> float:
        """How readily an attacker uses number ``n`` now (a defender expects the same)."""
        data = state.rules.data
        if n == data.goalkeeper:
            return 4.0  # never available on the final pass, so use it early
        keep_odd = any(data.cards[c].effect == "through-ball" for c in state.hands[seat]) and seat == state.attacker
        if n not in data.through_ball_numbers and n not in data.high_press_numbers:
            return 2.0
        if keep_odd and n in data.through_ball_numbers:
            return 0.5
        return 1.0

    def _pick_number(self, state: SoccerGoState, seat: int, choices: list[Action], rng: random.Random) -> Action:
        attacking = seat == state.attacker
        weights = []
        for action in choices:
            assert isinstance(action, (PassTo, Mark))
            w = 1.0
            for n in action.numbers:
                w *= self._number_weight(state, seat, n)
            # The defender's guess follows the attacker's likely picks, but only half-heartedly:
            # against a uniform passer any mark is as good as another.
            weights.append(w if attacking else 1.0 + (w - 1.0) * 0.5)
        return rng.choices(choices, weights)[0]

    def _retire(self, state: SoccerGoState, choices: list[Action]) -> Action:
        seat = state.attacker

        def cost(action: Action) -> float:
            assert isinstance(action, Retire)
            return -self._number_weight(state, seat, action.number) + action.number / 100

        return min(choices, key=cost)

    def _swap(self, state: SoccerGoState, seat: int, choices: list[Action]) -> Action:
        drawn = state.drawn
        assert drawn is not None
        worth = {c: self._worth(state, c) for c in state.hands[seat]}
        weakest = min(worth, key=lambda c: (worth[c], c))
        if self._worth(state, drawn) > worth[weakest] + 1e-9:
            return Swap(weakest)
        return next(a for a in choices if isinstance(a, Keep))

    @staticmethod
    def _worth(state: SoccerGoState, card: str) -> float:
        """A card's rough worth over a match (a Joker: its best discarded copy)."""
        worth = CARD_WORTH.get(card, BLOCK_WORTH)
        if state.rules.data.cards[card].effect == "joker":
            side = state.rules.data.cards[card].side
            copies = [
                CARD_WORTH.get(c, BLOCK_WORTH)
                for c in state.discards[side]
                if state.rules.data.cards[c].effect not in ("joker", "bogey")
            ]
            worth = max([worth * 0.5, *copies])
        return worth

    # --- for search bots -----------------------------------------------------------------

    def evaluate(self, state: State, seat: int) -> float:
        """A value in [-1, 1] for ``seat``: goal difference, plus the attack in progress."""
        assert isinstance(state, SoccerGoState)
        if state.phase == OVER:
            w = state.winner
            return 0.0 if w is None else (1.0 if w == seat else -1.0)
        diff: float = state.goals[seat] - state.goals[1 - seat]
        if state.first >= 0 and state.phase in (PASS, SHOT, NARROW):
            lead = self.attack_value(state)
            diff += lead if state.attacker == seat else -lead
        return max(-1.0, min(1.0, diff / 2))
