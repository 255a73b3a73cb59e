"""Soccer-Go: passing and marking with secret Player Cards, shots against saves, power cards.

Rulebook ``../shared/rules/soccer-go.txt``; rulings ``RULINGS.md`` (Soccer-Go section) and the
project's own ``docs/rulings.md``. Content (numbers, directions, the 26 power cards with their
timing windows and blocks) comes from ``resources/games/soccer-go.toml``.

How a match runs as actions
---------------------------
* chance ``toss S``: seat S attacks first (Rulings, Soccer-Go 3); then chance deals the power
  cards one by one (``draw CARD``, seen only by the receiver): 2 attacking + 2 defending each.
* A turn is a chain of passes. Before each pass both seats choose at the same time and in
  secret: the attacker ``pass N`` (``pass A+B+C`` after CORNER), the defender ``mark N``
  (``mark A+B+C`` after DEEP PRESS). Instead of choosing, a seat may ``play CARD`` (or
  ``play JOKER as CARD``) when the card's window is open; a played card is public at once and
  takes back any face-down choice of the other seat, so both choose again.
* After enough passes (7, more after SLOW BUILD-UP) comes the shot: ``shoot DIR`` against
  ``save DIR`` at the same time.
* When a card that a BLOCK answers is named, the other seat (if it holds a card of its side)
  replies ``play BLOCK`` or ``no card`` before the card takes effect.
* After a marked pass, a saved shot or a goal, the seat that may answer with a re-take card
  (if it holds any card of its side) plays it or says ``no card``; if its card is blocked, it
  is asked again while it still holds a card of its side.
* COUNTER ATTACK: the attacker then ``retire N`` three times. NARROW SHOT: the defender
  ``remove DIR``. TACKLE: both ``show rock|paper|scissors`` in secret.
* End of a turn (regulation, not after the last one): chance ``draw CARD`` for the previous
  attacker from the attacking pile, who then ``swap CARD`` (gives CARD up for the drawn one)
  or ``keep hand``; then the same for the previous defender from the defending pile.
* Extra time and the shootout are ``pass``/``mark`` and ``shoot``/``save`` only.

Options: ``rounds`` (4), ``extra_time`` (true), ``power_cards`` (true), ``joker_blocks``
(``joker``: which BLOCK answers a JOKER). Decisions beyond the rulings: ``docs/rulings.md``.

View (the ``"state"`` part of ``view(seat)``), keys:
``phase`` (``toss deal pass shot block counter narrow tackle pass-reply shot-reply draw swap
kick over``), ``period`` (``first-half second-half extra-time shootout full-time``),
``round`` (1-based, extra time counts on), ``turn`` (0-based), ``first_attacker``,
``attacker``, ``defender`` (seats or null), ``goals`` [seat0, seat1],
``passes`` (made this turn), ``passes_needed``, ``retired`` (numbers, in retiring order),
``available`` (numbers the next pass may use), ``restriction`` (list or null),
``modifiers`` (active card effects for the next pass: ``through-ball dribble corner
deep-press attacking-gk`` and ``high-press``), ``chances_left`` (chances the attacker has
left this turn to reach the shot: 2 at the start of an extra-time attack, else 1), ``chosen`` [bool, bool] (face-down choice
made), ``my_choice`` (own face-down choice as action text, or null), ``directions``
(shot directions still open), ``narrowed`` (removed direction or null), ``hand`` (own card
ids, sorted; [] for a spectator), ``hand_counts`` [[attacking, defending] per seat],
``drawn`` (own drawn card waiting for a swap decision, or null), ``drawing`` (seat deciding
a swap or null), ``piles`` / ``swapped`` ({"attacking": n, "defending": n} counts),
``discards`` ({"attacking": [ids], "defending": [ids]} in play order), ``named`` (card
awaiting a block reply: {"seat", "card", "as"} or null), ``reply`` (seat that may answer
with a re-take, or null), ``retires_left`` (COUNTER ATTACK), ``retake_possible`` (the last
pass may be re-taken by the defender), ``last`` (the last reveal: {"kind", "attacker"/
"defender" texts, "result"} or null), ``shootout`` ([[bool per kick] per seat]),
``shootout_kicks`` (kicks each before sudden death), ``rounds`` (regulation rounds, the option),
``kicker`` (seat to shoot in the shootout or null), ``cards`` (catalogue: id -> {"name",
"side", "text", "timing", "passes" ([first, last] or null), "blocks" (ids), "count"}).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

from soccerdesk.rules.api import (
    CHANCE,
    Action,
    Event,
    Game,
    IllegalAction,
    Option,
    State,
    uniform,
    weighted,
)

# --- content ----------------------------------------------------------------------------

ATTACKING, DEFENDING = 0, 1
SIDE_NAMES = ("attacking", "defending")
A_SIDE = ("an attacking", "a defending")

TIMINGS = frozenset(
    {"passes", "matched-pass", "unmatched-pass", "saved-shot", "scored-shot", "final-pass", "shot", "reply", "copies"}
)
EFFECTS = frozenset(
    {
        "block",
        "joker",
        "bogey",
        "pass-retake",
        "shot-retake",
        "attacking-gk",
        "through-ball",
        "shoot",
        "counter-attack",
        "dribble",
        "corner",
        "slow-build-up",
        "high-press",
        "narrow-shot",
        "clearance",
        "tackle",
        "deep-press",
    }
)


class SoccerGoDataError(ValueError):
    """``resources/games/soccer-go.toml`` is missing something or contradicts itself."""


@dataclass(frozen=True, slots=True)
class PowerCard:
    """One power card of the catalogue. ``effect`` names what it does in the rules."""

    id: str
    name: str
    side: int  # ATTACKING or DEFENDING
    count: int
    timing: str
    passes: tuple[int, int]
    blocks: frozenset[str]
    text: str

    @property
    def effect(self) -> str:
        if self.timing == "reply":
            return "block"
        if self.timing == "copies":
            return "joker"
        return self.id.removeprefix("att-").removeprefix("def-")

    @property
    def label(self) -> str:
        """The name people read; a side's three BLOCKs are told apart by what they cancel."""
        if self.timing == "reply":
            return f"{self.name} ({self.text.removeprefix('Cancels ').split(' as it')[0]})"
        return self.name


@dataclass(frozen=True, slots=True)
class SoccerGoData:
    """Validated content of ``soccer-go.toml``."""

    rounds: int
    extra_time_rounds: int
    extra_time_chances: int
    shootout_kicks: int
    players: tuple[int, ...]
    goalkeeper: int
    passes_to_shoot: int
    directions: tuple[str, ...]
    deal: tuple[int, int]
    through_ball_numbers: frozenset[int]
    high_press_numbers: frozenset[int]
    counter_attack_passes: int
    dribble_passes: int
    clearance_passes: int
    corner_cards: int
    deep_press_cards: int
    tackle_signs: tuple[str, str, str]
    cards: Mapping[str, PowerCard]


def _need(table: Mapping[str, Any], key: str, kind: type, where: str) -> Any:
    if key not in table:
        raise SoccerGoDataError(f"soccer-go.toml: {where} lacks {key!r}")
    value = table[key]
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise SoccerGoDataError(f"soccer-go.toml: {where}.{key} must be a whole number, not {value!r}")
    if not isinstance(value, kind):
        raise SoccerGoDataError(f"soccer-go.toml: {where}.{key} must be a {kind.__name__}, not {value!r}")
    return value


def _numbers(table: Mapping[str, Any], key: str, where: str) -> tuple[int, ...]:
    values = _need(table, key, list, where)
    if not values or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise SoccerGoDataError(f"soccer-go.toml: {where}.{key} must be a list of whole numbers")
    return tuple(values)


def load_data(data: Mapping[str, Any]) -> SoccerGoData:
    """Check the parsed TOML once and return it as frozen values (clear errors otherwise)."""
    match = _need(data, "match", dict, "the file")
    pitch = _need(data, "pitch", dict, "the file")
    power = _need(data, "power", dict, "the file")
    players = _numbers(pitch, "players", "pitch")
    if len(set(players)) != len(players):
        raise SoccerGoDataError("soccer-go.toml: pitch.players repeats a number")
    goalkeeper = _need(pitch, "goalkeeper", int, "pitch")
    if goalkeeper not in players:
        raise SoccerGoDataError("soccer-go.toml: pitch.goalkeeper is not one of pitch.players")
    directions = tuple(_need(pitch, "directions", list, "pitch"))
    if (
        len(directions) < 2
        or len(set(directions)) != len(directions)
        or not all(isinstance(d, str) for d in directions)
    ):
        raise SoccerGoDataError("soccer-go.toml: pitch.directions must be two or more distinct names")
    signs = tuple(_need(power, "tackle_signs", list, "power"))
    if len(signs) != 3 or len(set(signs)) != 3:
        raise SoccerGoDataError(
            "soccer-go.toml: power.tackle_signs must be three names (each beats the next one's loser)"
        )
    cards: dict[str, PowerCard] = {}
    for side, key in enumerate(SIDE_NAMES):
        entries = _need(data, key, list, "the file")
        for i, entry in enumerate(entries):
            where = f"{key}[{i}]"
            card_id = _need(entry, "id", str, where)
            if card_id in cards or " " in card_id:
                raise SoccerGoDataError(f"soccer-go.toml: card id {card_id!r} is repeated or has a space")
            timing = _need(entry, "timing", str, where)
            if timing not in TIMINGS:
                raise SoccerGoDataError(f"soccer-go.toml: {where}.timing {timing!r} is not one of {sorted(TIMINGS)}")
            window = (1, 99)
            if "passes" in entry:
                lo, hi = _numbers(entry, "passes", where)
                window = (lo, hi)
            elif timing in ("passes", "matched-pass", "unmatched-pass"):
                raise SoccerGoDataError(f"soccer-go.toml: {where} needs passes = [first, last]")
            card = PowerCard(
                id=card_id,
                name=_need(entry, "name", str, where),
                side=side,
                count=_need(entry, "count", int, where),
                timing=timing,
                passes=window,
                blocks=frozenset(entry.get("blocks", ())),
                text=_need(entry, "text", str, where),
            )
            if card.effect not in EFFECTS:
                raise SoccerGoDataError(f"soccer-go.toml: card {card_id!r} has no known effect ({card.effect!r})")
            if card.count < 1:
                raise SoccerGoDataError(f"soccer-go.toml: card {card_id!r} needs a count of at least 1")
            if (timing == "reply") != bool(card.blocks):
                raise SoccerGoDataError(
                    f"soccer-go.toml: card {card_id!r}: only BLOCK cards (timing 'reply') list blocks"
                )
            cards[card_id] = card
    deal = (_need(power, "deal_attacking", int, "power"), _need(power, "deal_defending", int, "power"))
    for side in (ATTACKING, DEFENDING):
        if sum(c.count for c in cards.values() if c.side == side) < 2 * deal[side]:
            raise SoccerGoDataError(
                f"soccer-go.toml: too few {SIDE_NAMES[side]} cards to deal {deal[side]} to each seat"
            )
    for card in cards.values():
        for target in card.blocks:
            if target not in cards or cards[target].side == card.side:
                raise SoccerGoDataError(
                    f"soccer-go.toml: {card.id} blocks {target!r}, which is not a card of the other side"
                )
    return SoccerGoData(
        rounds=_need(match, "rounds", int, "match"),
        extra_time_rounds=_need(match, "extra_time_rounds", int, "match"),
        extra_time_chances=_need(match, "extra_time_chances", int, "match"),
        shootout_kicks=_need(match, "shootout_kicks", int, "match"),
        players=players,
        goalkeeper=goalkeeper,
        passes_to_shoot=_need(pitch, "passes_to_shoot", int, "pitch"),
        directions=directions,
        deal=deal,
        through_ball_numbers=frozenset(_numbers(power, "through_ball_numbers", "power")),
        high_press_numbers=frozenset(_numbers(power, "high_press_numbers", "power")),
        counter_attack_passes=_need(power, "counter_attack_passes", int, "power"),
        dribble_passes=_need(power, "dribble_passes", int, "power"),
        clearance_passes=_need(power, "clearance_passes", int, "power"),
        corner_cards=_need(power, "corner_cards", int, "power"),
        deep_press_cards=_need(power, "deep_press_cards", int, "power"),
        tackle_signs=(signs[0], signs[1], signs[2]),
        cards=cards,
    )


# --- actions ----------------------------------------------------------------------------


def _numbers_text(numbers: tuple[int, ...]) -> str:
    return "+".join(map(str, numbers))


def _numbers_words(numbers: Sequence[int]) -> str:
    """Player numbers for the log: "number 7", "numbers 3, 5 and 9"."""
    if len(numbers) == 1:
        return f"number {numbers[0]}"
    return f"numbers {', '.join(map(str, numbers[:-1]))} and {numbers[-1]}"


def _ordinal(n: int) -> str:
    """1 -> "1st", 2 -> "2nd", 11 -> "11th"."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@dataclass(frozen=True, slots=True)
class Toss:
    """Chance: ``first`` attacks first (Rulings, Soccer-Go 3)."""

    first: int

    def __str__(self) -> str:
        return f"toss {self.first}"


@dataclass(frozen=True, slots=True)
class Draw:
    """Chance: the next power card dealt or drawn is ``card``."""

    card: str

    def __str__(self) -> str:
        return f"draw {self.card}"


@dataclass(frozen=True, slots=True)
class PassTo:
    """The attacker's face-down Player Card(s) for the next pass (three after CORNER)."""

    numbers: tuple[int, ...]

    def __str__(self) -> str:
        return f"pass {_numbers_text(self.numbers)}"


@dataclass(frozen=True, slots=True)
class Mark:
    """The defender's face-down Player Card(s) for the next pass (three after DEEP PRESS)."""

    numbers: tuple[int, ...]

    def __str__(self) -> str:
        return f"mark {_numbers_text(self.numbers)}"


@dataclass(frozen=True, slots=True)
class Shoot:
    """The attacker's (or penalty taker's) face-down Shoot card."""

    direction: str

    def __str__(self) -> str:
        return f"shoot {self.direction}"


@dataclass(frozen=True, slots=True)
class Save:
    """The defender's (or goalkeeper's) face-down Save card."""

    direction: str

    def __str__(self) -> str:
        return f"save {self.direction}"


@dataclass(frozen=True, slots=True)
class Play:
    """Play a power card; a JOKER names the discarded card it copies in ``as_card``."""

    card: str
    as_card: str | None = None

    def __str__(self) -> str:
        return f"play {self.card}" if self.as_card is None else f"play {self.card} as {self.as_card}"


@dataclass(frozen=True, slots=True)
class NoCard:
    """Decline to answer with a card (a BLOCK or a re-take)."""

    def __str__(self) -> str:
        return "no card"


@dataclass(frozen=True, slots=True)
class Retire:
    """COUNTER ATTACK: the attacker retires one unused number."""

    number: int

    def __str__(self) -> str:
        return f"retire {self.number}"


@dataclass(frozen=True, slots=True)
class Remove:
    """NARROW SHOT: the defender takes a direction out of both players' choices."""

    direction: str

    def __str__(self) -> str:
        return f"remove {self.direction}"


@dataclass(frozen=True, slots=True)
class Show:
    """TACKLE: a face-down rock, paper or scissors."""

    sign: str

    def __str__(self) -> str:
        return f"show {self.sign}"


@dataclass(frozen=True, slots=True)
class Swap:
    """After a draw: give up ``card`` from the hand and keep the drawn card instead."""

    card: str

    def __str__(self) -> str:
        return f"swap {self.card}"


@dataclass(frozen=True, slots=True)
class Keep:
    """After a draw: keep the hand and put the drawn card aside."""

    def __str__(self) -> str:
        return "keep hand"


NO_CARD = NoCard()
KEEP = Keep()
SecretChoice = PassTo | Mark | Shoot | Save | Show

# --- state ------------------------------------------------------------------------------

# Phases (ints: compared in every legal-move generation).
TOSS, DEAL, PASS, SHOT, BLOCK, COUNTER, NARROW, TACKLE, PASS_REPLY, SHOT_REPLY, DRAW, SWAP, KICK, OVER = range(14)
PHASE_NAMES = (
    "toss",
    "deal",
    "pass",
    "shot",
    "block",
    "counter",
    "narrow",
    "tackle",
    "pass-reply",
    "shot-reply",
    "draw",
    "swap",
    "kick",
    "over",
)
SIMULTANEOUS = frozenset({PASS, SHOT, TACKLE, KICK})

# Modifiers of the next pass set by power cards (bits of ``SoccerGoState.mods``).
ODD = 1  # THROUGH BALL numbers only
THROUGH = 2  # THROUGH BALL: not marked -> shot at once
EVEN = 4  # HIGH PRESS numbers only
DRIBBLE = 8
CORNER = 16
DEEP = 32
GK = 64  # ATTACKING GK: lasts the whole turn
MOD_NAMES = (
    (THROUGH, "through-ball"),
    (EVEN, "high-press"),
    (DRIBBLE, "dribble"),
    (CORNER, "corner"),
    (DEEP, "deep-press"),
    (GK, "attacking-gk"),
)


@dataclass(frozen=True, slots=True)
class SeenAside:
    """What one seat knows of where the cards of one side it put aside are (Rulings, Soccer-Go 5:
    they go to the swapped-out pile, which refills the draw pile when that runs out). The other
    seat sees only the card's back, so its worlds may put these cards nowhere else."""

    swapped: tuple[str, ...] = ()  # put aside since the side's last refill: in the swapped-out pile
    in_pile: tuple[str, ...] = ()  # put aside before it, not drawn back by the seat: in the pile...
    their_draws: int = 0  # ...but for as many as the other seat has drawn from it since


NOTHING_ASIDE = SeenAside()
_Aside = tuple[tuple[SeenAside, SeenAside], tuple[SeenAside, SeenAside]]  # by seat, then side


@dataclass(frozen=True, slots=True)
class SoccerGoState(State):
    """A Soccer-Go position. Cards are ids; hands and piles are sorted tuples (no pile order)."""

    phase: int
    first: int  # seat that attacked first; -1 before the toss
    turn: int  # 0-based: regulation turns, then extra time
    goals: tuple[int, int]
    passes: int
    target: int  # passes needed for the shot this turn
    retired: tuple[int, ...]
    mods: int
    chances: int  # marked passes the attacker may still survive (extra time: 2)
    choice: tuple[SecretChoice | None, SecretChoice | None]
    narrowed: str | None
    retake: tuple[tuple[int, ...], int, int, int] | None  # last unmarked pass: numbers, passes, mods, pass no.
    named: tuple[int, str, str | None, int] | None  # seat, card, copied card, phase it came from
    step: int  # deal step / draw step (0 attacker, 1 defender) / re-take replier / retires left
    hands: tuple[tuple[str, ...], tuple[str, ...]]
    piles: tuple[tuple[str, ...], tuple[str, ...]]  # draw piles, attacking and defending
    swapped: tuple[tuple[str, ...], tuple[str, ...]]  # swapped-out cards, by side
    discards: tuple[tuple[str, ...], tuple[str, ...]]  # played cards, in order
    drawn: str | None
    kicks: tuple[tuple[bool, ...], tuple[bool, ...]]  # shootout: True = scored
    last: tuple[str, str, str, str] | None  # last reveal: kind, attacker text, defender text, result
    aside: _Aside

    def _r(self, **changes: Any) -> SoccerGoState:
        """A copy with ``changes``, keeping the match info (options) for the rest of ``_apply``.

        Hand-written rather than ``dataclasses.replace``: it is the hot path of every apply,
        and the values are known to be valid here.
        """
        return _copy_state(self, changes)

    # --- who is who ---------------------------------------------------------------------

    @property
    def rules(self) -> SoccerGoRules:
        return self.game  # type: ignore[return-value]

    @property
    def attacker(self) -> int:
        """The attacking seat of the current turn (the kicker in the shootout)."""
        if self.phase == KICK or (self.phase == OVER and self.kicks != ((), ())):
            return self.kicker
        return self.rules.attacker_of(self.first, self.turn, self.options["rounds"])

    @property
    def defender(self) -> int:
        return 1 - self.attacker

    @property
    def drawer(self) -> int:
        """The seat drawing a card back after a turn (DRAW, SWAP): the attacker first, then the defender."""
        return self.attacker if self.step == 0 else self.defender

    @property
    def kicker(self) -> int:
        """Shootout: the first attacker of the match shoots first (Rulings, Soccer-Go 4)."""
        return self.first if len(self.kicks[self.first]) == len(self.kicks[1 - self.first]) else 1 - self.first

    @property
    def extra_time(self) -> bool:
        return self.turn >= 2 * self.options["rounds"]

    @property
    def cards_allowed(self) -> bool:
        """Power cards are used in regulation only (rulebook 10 and 11)."""
        return bool(self.options["power_cards"]) and not self.extra_time and self.phase != KICK

    @property
    def phase_name(self) -> str:
        """The phase as the view names it (``pass``, ``shot``, ``block``...)."""
        return PHASE_NAMES[self.phase]

    @property
    def period_name(self) -> str:
        """``first-half``, ``second-half``, ``extra-time``, ``shootout`` or ``full-time``."""
        return self._period()

    def hand_counts(self, seat: int) -> tuple[int, int]:
        """How many attacking and defending cards ``seat`` holds (public: the backs show it)."""
        return self.side_count(seat, ATTACKING), self.side_count(seat, DEFENDING)

    def side_count(self, seat: int, side: int) -> int:
        cards = self.rules.data.cards
        return sum(1 for c in self.hands[seat] if cards[c].side == side)

    def _may_answer(self, seat: int) -> bool:
        """Whether an answer window (after a marked pass, a save or a goal) opens for ``seat``:
        it holds a card of its side. Public: both sides' counts are seen."""
        return self.cards_allowed and bool(self.side_count(seat, ATTACKING if seat == self.attacker else DEFENDING))

    # --- contract hooks ------------------------------------------------------------------

    def current_players(self) -> tuple[int, ...]:
        phase = self.phase
        if phase in SIMULTANEOUS:
            c0, c1 = self.choice
            if c0 is None:
                return (0, 1) if c1 is None else (0,)
            return (1,)
        if phase in (TOSS, DEAL, DRAW):
            return (CHANCE,)
        if phase == OVER:
            return ()
        if phase == BLOCK:
            return (1 - self.named[0],)  # type: ignore[index]
        if phase == COUNTER:
            return (self.attacker,)
        if phase == NARROW:
            return (self.defender,)
        if phase == PASS_REPLY:
            return (self.attacker,)
        if phase == SHOT_REPLY:
            return (self.step,)
        # SWAP: the drawer
        return (self.drawer,)

    @property
    def score(self) -> tuple[int, int]:
        return self.goals

    @property
    def winner(self) -> int | None:
        """By goals; a match level after extra time is decided by the shootout."""
        if self.phase != OVER:
            return None
        a, b = self.goals
        if a == b:
            a, b = sum(self.kicks[0]), sum(self.kicks[1])
        return 0 if a > b else 1 if b > a else None

    def result_details(self) -> dict[str, Any]:
        if self.phase != OVER:
            return {}
        details: dict[str, Any] = {}
        if self.options["extra_time"] and self.extra_time:  # the last turn played was past regulation
            details["extra_time"] = True
        if self.kicks != ((), ()):
            details["shootout"] = [sum(self.kicks[0]), sum(self.kicks[1])]
        return details

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.phase == TOSS:
            return uniform([Toss(0), Toss(1)])
        side = self.rules.deal_order[self.step][0] if self.phase == DEAL else self.step
        pile = self.piles[side] or self.swapped[side]  # Rulings, Soccer-Go 5: refill from swapped-out cards
        return weighted(_counts(pile))

    def _legal_actions(self, seat: int) -> list[Action]:
        phase = self.phase
        if phase == PASS:
            actions: list[Action] = self._pass_choices(seat)
            if self.cards_allowed:
                actions.extend(self._card_plays(seat))
            return actions
        if phase == SHOT:
            actions = self._shot_choices(seat)
            if self.cards_allowed and seat == self.defender:
                actions.extend(self._card_plays(seat))
            return actions
        if phase == KICK:
            return self._shot_choices(seat)
        if phase == TACKLE:
            return [Show(s) for s in self.rules.data.tackle_signs]
        if phase in (BLOCK, PASS_REPLY, SHOT_REPLY):
            return [*self._card_plays(seat), NO_CARD]
        if phase == COUNTER:
            return [Retire(n) for n in self._retire_choices()]
        if phase == NARROW:
            return [Remove(d) for d in self.rules.data.directions]
        if phase == SWAP:
            return [*(Swap(c) for c in sorted(set(self.hands[seat]))), KEEP]
        raise IllegalAction("no decision is pending")

    # --- choices -------------------------------------------------------------------------

    def available(
        self, mods: int | None = None, passes: int | None = None, target: int | None = None
    ) -> tuple[int, ...]:
        """Numbers the next pass may use (for both seats), with hypothetical modifiers if given."""
        data = self.rules.data
        mods = self.mods if mods is None else mods
        passes = self.passes if passes is None else passes
        target = self.target if target is None else target
        retired = self.retired
        numbers = [n for n in data.players if n not in retired]
        if mods & ODD:
            numbers = [n for n in numbers if n in data.through_ball_numbers]
        if mods & EVEN:
            numbers = [n for n in numbers if n in data.high_press_numbers]
        gained = data.dribble_passes if mods & DRIBBLE else 1
        if passes + gained >= target and not mods & GK:
            # Rulings, Soccer-Go 2: the goalkeeper can't take the final pass without ATTACKING GK;
            # a DRIBBLE that completes the passes needed makes the final pass (docs/rulings.md).
            numbers = [n for n in numbers if n != data.goalkeeper]
        return tuple(numbers)

    def _pass_choices(self, seat: int) -> list[Action]:
        numbers = self.available()
        attacking = seat == self.attacker
        laid = self.rules.data.corner_cards if attacking and self.mods & CORNER else 1
        if not attacking and self.mods & DEEP:
            laid = self.rules.data.deep_press_cards
        kind = PassTo if attacking else Mark
        if laid == 1:
            return [kind((n,)) for n in numbers]
        return [kind(combo) for combo in itertools.combinations(numbers, laid)]

    def _shot_choices(self, seat: int) -> list[Action]:
        kind = Shoot if seat == self.attacker else Save
        return [kind(d) for d in self.rules.data.directions if d != self.narrowed]

    def _retire_choices(self) -> list[int]:
        """COUNTER ATTACK numbers that still leave the next pass a legal number."""
        unused = [n for n in self.rules.data.players if n not in self.retired]
        open_numbers = set(self.available())
        left = self.step
        need = self._laid_need(self.mods)
        if self.passes >= self.target:
            return unused
        others = len(unused) - len(open_numbers)
        out = []
        for n in unused:
            if n in open_numbers:
                ok = len(open_numbers) - 1 - max(0, left - 1 - others) >= need
            else:
                ok = len(open_numbers) - max(0, left - 1 - (others - 1)) >= need
            if ok:
                out.append(n)
        return out

    def _laid_need(self, mods: int) -> int:
        data = self.rules.data
        if mods & CORNER:
            return data.corner_cards
        if mods & DEEP:
            return data.deep_press_cards
        return 1

    # --- power cards ---------------------------------------------------------------------

    def _card_plays(self, seat: int) -> list[Action]:
        """Power cards ``seat`` may play now (its own side only: rulebook, Usage 3)."""
        cards = self.rules.data.cards
        side = ATTACKING if seat == self.attacker else DEFENDING
        if self.phase == BLOCK:
            side = 1 - cards[self.named[1]].side  # type: ignore[index]
        out: list[Action] = []
        for card_id in sorted(set(self.hands[seat])):
            card = cards[card_id]
            if card.side != side:
                continue
            if card.effect == "joker":
                # Rulings, Soccer-Go 7: a Joker copies a card in its side's discard pile.
                for copied in sorted(set(self.discards[side])):
                    effect = cards[copied].effect
                    if effect not in ("joker", "bogey") and self.can_play(cards[copied]):
                        out.append(Play(card_id, copied))
            elif self.can_play(card):
                out.append(Play(card_id))
        return out

    def can_play(self, card: PowerCard) -> bool:
        """Whether ``card``'s timing window is open now and its effect can take place."""
        phase = self.phase
        timing = card.timing
        if timing == "reply":
            return phase == BLOCK and self._answers(card, self.named)  # type: ignore[arg-type]
        if timing == "passes":
            if phase != PASS:
                return False
            lo, hi = card.passes
            if not lo <= self.passes + 1 <= hi:
                return False
            return self._effect_possible(card.effect)
        if timing == "matched-pass":
            return phase == PASS_REPLY and card.passes[0] <= self.passes + 1 <= card.passes[1]
        if timing == "unmatched-pass":
            return (
                phase in (PASS, SHOT) and self.retake is not None and card.passes[0] <= self.retake[3] <= card.passes[1]
            )
        if timing == "saved-shot":
            return phase == SHOT_REPLY and self.step == self.attacker
        if timing == "scored-shot":
            return phase == SHOT_REPLY and self.step == self.defender
        if timing == "final-pass":
            # Rulings, Soccer-Go 9: one more pass; only if that pass has a legal number.
            return (
                phase == SHOT
                and self.passes == self.target
                and bool(self.available(self.mods & GK, self.passes, self.target + 1))
            )
        if timing == "shot":
            return phase == SHOT and self.narrowed is None
        return False

    def _answers(self, block: PowerCard, named: tuple[int, str, str | None, int]) -> bool:
        """Whether ``block`` answers the ``named`` card (option ``joker_blocks`` for a JOKER)."""
        _, card_id, copied, _ = named
        if copied is None:
            return card_id in block.blocks
        mode = self.options["joker_blocks"]
        # Rulings, Soccer-Go 6-7: the card named is the JOKER; "copied"/"either" are variants.
        if mode == "joker":
            return card_id in block.blocks
        if mode == "copied":
            return copied in block.blocks
        return card_id in block.blocks or copied in block.blocks

    def _effect_possible(self, effect: str) -> bool:
        """A pass-window card that would leave the next pass without legal choices is not playable."""
        mods = self.mods
        if effect == "through-ball":
            return not mods & (ODD | THROUGH) and len(self.available(mods | ODD)) >= self._laid_need(mods)
        if effect == "high-press":
            return not mods & EVEN and len(self.available(mods | EVEN)) >= self._laid_need(mods)
        if effect == "corner":
            return not mods & (CORNER | DEEP) and len(self.available()) >= self.rules.data.corner_cards
        if effect == "deep-press":
            return not mods & (CORNER | DEEP) and len(self.available()) >= self.rules.data.deep_press_cards
        if effect == "dribble":
            return not mods & DRIBBLE
        if effect == "attacking-gk":
            return not mods & GK
        if effect == "counter-attack":
            trial = self._r(
                passes=self.passes + self.rules.data.counter_attack_passes, step=self.rules.data.counter_attack_passes
            )
            return (
                len(trial._retire_choices()) > 0
                and len([n for n in self.rules.data.players if n not in self.retired]) >= trial.step
            )
        return True

    # --- apply ---------------------------------------------------------------------------

    def _apply(self, seat: int, action: Action, events: list[Event]) -> State:
        if seat == CHANCE:
            return self._apply_chance(action, events)
        if isinstance(action, Play):
            return self._name_card(seat, action, events)
        phase = self.phase
        if phase in SIMULTANEOUS:
            choice = list(self.choice)
            choice[seat] = action  # type: ignore[call-overload]
            if choice[1 - seat] is None:
                events.append(Event("chosen", f"Seat {seat} has chosen.", {"seat": seat}))
                return self._r(choice=(choice[0], choice[1]))
            att, dfn = choice[self.attacker], choice[self.defender]
            if phase == PASS:
                return self._reveal_pass(att, dfn, events)  # type: ignore[arg-type]
            if phase == TACKLE:
                return self._reveal_tackle(att, dfn, events)  # type: ignore[arg-type]
            return self._reveal_shot(att, dfn, events)  # type: ignore[arg-type]
        if phase in (BLOCK, PASS_REPLY, SHOT_REPLY):  # NoCard
            return self._decline(seat, events)
        if phase == COUNTER:
            assert isinstance(action, Retire)
            events.append(
                Event("retire", f"Seat {seat} retires number {action.number}.", {"seat": seat, "number": action.number})
            )
            nxt = self._r(retired=(*self.retired, action.number), step=self.step - 1)
            if nxt.step > 0:
                return nxt
            return nxt._r(phase=SHOT if nxt.passes >= nxt.target else PASS)
        if phase == NARROW:
            assert isinstance(action, Remove)
            events.append(
                Event("narrow", f"The {action.direction} is closed for this shot.", {"direction": action.direction})
            )
            return self._r(phase=SHOT, narrowed=action.direction)
        # SWAP
        return self._swap(seat, action, events)

    def _apply_chance(self, action: Action, events: list[Event]) -> State:
        if isinstance(action, Toss):
            events.append(Event("toss", f"Coin toss: seat {action.first} attacks first.", {"first": action.first}))
            nxt = self._r(first=action.first)
            if not self.options["power_cards"]:
                return nxt._start_turn(0, events)
            return nxt._r(phase=DEAL, step=0)
        assert isinstance(action, Draw)
        cards = self.rules.data.cards
        side = cards[action.card].side
        piles, swapped = list(self.piles), list(self.swapped)
        if not piles[side]:
            # Rulings, Soccer-Go 5: an empty pile is refilled from its side's swapped-out cards.
            piles[side], swapped[side] = swapped[side], ()
            events.append(
                Event("refill", f"The {SIDE_NAMES[side]} pile is refilled from the swapped-out cards.", {"side": side})
            )
        piles[side] = _without(piles[side], action.card)
        if self.phase == DEAL:
            receiver = self.rules.deal_order[self.step][1]
            hands = list(self.hands)
            hands[receiver] = tuple(sorted((*hands[receiver], action.card)))
            events.append(_drawn_event(receiver, cards[action.card], "is dealt"))
            nxt = self._r(piles=(piles[0], piles[1]), hands=(hands[0], hands[1]), step=self.step + 1)
            if nxt.step < len(self.rules.deal_order):
                return nxt
            return nxt._start_turn(0, events)
        drawer = self.drawer
        events.append(Event("draw-back", f"Seat {drawer} draws {A_SIDE[side]} card.", {"seat": drawer, "side": side}))
        events.append(_drawn_event(drawer, cards[action.card], "draws"))
        return self._r(
            phase=SWAP,
            piles=(piles[0], piles[1]),
            swapped=(swapped[0], swapped[1]),
            drawn=action.card,
            aside=self._aside_after_draw(side, drawer, action.card, refilled=not self.piles[side]),
        )

    def _aside_after_draw(self, side: int, drawer: int, card: str, refilled: bool) -> _Aside:
        """What each seat knows of its put-aside cards of ``side`` once ``drawer`` draws ``card``."""
        aside = self.aside
        for seat in (0, 1):
            seen = self.aside[seat][side]
            if refilled:  # the swapped-out pile is the draw pile now
                seen = SeenAside(in_pile=seen.swapped)
            if seen.in_pile and seat == drawer and card in seen.in_pile:
                seen = replace(seen, in_pile=_without(seen.in_pile, card))
            elif seen.in_pile and seat != drawer:
                seen = replace(seen, their_draws=seen.their_draws + 1)  # a card it can't see
            aside = _with_aside(aside, seat, side, seen)
        return aside

    def _reveal_pass(self, att: PassTo, dfn: Mark, events: list[Event]) -> State:
        number = self.passes + 1
        marked = bool(set(att.numbers) & set(dfn.numbers))
        a_text, d_text = _numbers_text(att.numbers), _numbers_text(dfn.numbers)
        cleared = self._r(choice=(None, None), retake=None)
        if marked:
            last = ("pass", a_text, d_text, "marked")
            events.append(
                Event(
                    "marked",
                    f"The {_ordinal(number)} pass, to {_numbers_words(att.numbers)}, is marked"
                    f" (the defender chose {_numbers_words(dfn.numbers)}).",
                    {"pass": number, "attacker": list(att.numbers), "defender": list(dfn.numbers)},
                )
            )
            if self.chances > 1:
                # Rulings, Soccer-Go 4: extra time gives a second chance, count and retired numbers kept.
                events.append(
                    Event("second-chance", "Extra time: the attacker keeps the ball for a second chance.", {})
                )
                return cleared._r(chances=self.chances - 1, mods=self.mods & GK, last=last)
            if self._may_answer(self.attacker):
                return cleared._r(phase=PASS_REPLY, last=last)
            return cleared._r(last=last)._end_turn(events, "marked")
        data = self.rules.data
        # docs/rulings.md: the count stops at the passes needed (DRIBBLE after COUNTER ATTACK).
        gained = min(data.dribble_passes if self.mods & DRIBBLE else 1, self.target - self.passes)
        dribbled = ""
        if self.mods & DRIBBLE:
            # Said in the line, or the next pass's number jumps with nothing to tell why.
            if gained == data.dribble_passes:
                dribbled = f"; with DRIBBLE it counts as {gained} passes"
            else:
                dribbled = (
                    f"; with DRIBBLE it counts as the {'one pass' if gained == 1 else f'{gained} passes'} still needed"
                )
        events.append(
            Event(
                "pass",
                f"The {_ordinal(number)} pass reaches {_numbers_words(att.numbers)}"
                f" (the defender marked {_numbers_words(dfn.numbers)}){dribbled}.",
                {"pass": number, "attacker": list(att.numbers), "defender": list(dfn.numbers), "passes": gained},
            )
        )
        nxt = cleared._r(
            passes=self.passes + gained,
            retired=(*self.retired, *att.numbers),
            mods=self.mods & GK,
            retake=(att.numbers, self.passes, self.mods, number),
            last=("pass", a_text, d_text, "made"),
        )
        if self.mods & (THROUGH | CORNER) or nxt.passes >= nxt.target:
            return nxt._to_shot(events)
        return nxt

    def _to_shot(self, events: list[Event]) -> SoccerGoState:
        events.append(Event("shot-coming", f"Seat {self.attacker} shoots.", {"seat": self.attacker}))
        return self._r(phase=SHOT, choice=(None, None), mods=self.mods & GK)

    def _reveal_shot(self, att: Shoot, dfn: Save, events: list[Event]) -> State:
        saved = att.direction == dfn.direction
        last = ("shot" if self.phase == SHOT else "kick", att.direction, dfn.direction, "saved" if saved else "goal")
        if self.phase == KICK:
            return self._reveal_kick(saved, last, events)
        cleared = self._r(choice=(None, None), retake=None, last=last)
        attacker = self.attacker
        if saved:
            events.append(
                Event(
                    "save",
                    f"Saved: shot {att.direction}, dive {dfn.direction}.",
                    {"shot": att.direction, "save": dfn.direction},
                )
            )
            if self._may_answer(attacker):
                return cleared._r(phase=SHOT_REPLY, step=attacker)
            return cleared._end_turn(events, "saved")
        goals = list(self.goals)
        goals[attacker] += 1
        events.append(
            Event(
                "goal",
                f"Goal for seat {attacker}: shot {att.direction}, dive {dfn.direction}.",
                {"seat": attacker, "shot": att.direction, "save": dfn.direction},
            )
        )
        scored = cleared._r(goals=(goals[0], goals[1]))
        if self._may_answer(1 - attacker):
            return scored._r(phase=SHOT_REPLY, step=1 - attacker)
        return scored._end_turn(events, "goal")

    def _reveal_tackle(self, att: Show, dfn: Show, events: list[Event]) -> State:
        signs = self.rules.data.tackle_signs
        a, d = signs.index(att.sign), signs.index(dfn.sign)
        cleared = self._r(choice=(None, None), last=("tackle", att.sign, dfn.sign, ""))
        if a == d:
            events.append(
                Event("tackle", f"Tackle: both show {att.sign}; again.", {"attacker": att.sign, "defender": dfn.sign})
            )
            return cleared
        # Each sign beats the one before it in the list: paper beats rock, scissors paper, rock scissors.
        defender_wins = (d - a) % 3 == 1
        result = "defender" if defender_wins else "attacker"
        events.append(
            Event(
                "tackle",
                f"Tackle: {att.sign} against {dfn.sign}, the {result} wins.",
                {"attacker": att.sign, "defender": dfn.sign, "winner": result},
            )
        )
        cleared = cleared._r(last=("tackle", att.sign, dfn.sign, result))
        if defender_wins:
            return cleared._end_turn(events, "tackled")
        return cleared._r(phase=PASS)

    def _reveal_kick(self, saved: bool, last: tuple[str, str, str, str], events: list[Event]) -> State:
        kicker = self.kicker
        kicks = list(self.kicks)
        kicks[kicker] = (*kicks[kicker], not saved)
        _kind, shot, dive, _result = last
        events.append(
            Event(
                "kick",
                f"Penalty by seat {kicker}: shot {shot}, dive {dive}, {'saved' if saved else 'scored'}.",
                {"seat": kicker, "scored": not saved, "shot": shot, "dive": dive},
            )
        )
        nxt = self._r(choice=(None, None), kicks=(kicks[0], kicks[1]), last=last)
        if _shootout_decided(nxt.kicks, self.rules.data.shootout_kicks):
            return nxt._full_time(events)
        return nxt

    def _decline(self, seat: int, events: list[Event]) -> State:
        phase = self.phase
        if phase == BLOCK:
            origin = self.named[3]  # type: ignore[index]
            # Said in the log, so a replay's step for this choice is not a bare "no card".
            events.append(Event("no-block", f"Seat {seat} does not block {self._named_words()}.", {"seat": seat}))
            return self._r(phase=origin)._take_effect(events)
        # No re-take: the marked pass, the save or the goal stands.
        return self._end_turn(events, self._reply_result(phase))

    def _named_words(self) -> str:
        """The card awaiting a BLOCK as the log names it: a JOKER by itself, then what it copies
        (under ``joker_blocks=joker`` the BLOCK naming JOKER answers it, not the copied card's)."""
        _, card, as_card, _ = self.named  # type: ignore[misc]
        cards = self.rules.data.cards
        return cards[card].name if as_card is None else f"{cards[card].name} (as {cards[as_card].name})"

    def _reply_result(self, window: int) -> str:
        """What stands when the answer ``window`` closes: the marked pass, the save or the goal."""
        if window == PASS_REPLY:
            return "marked"
        return "saved" if self.step == self.attacker else "goal"

    def _name_card(self, seat: int, play: Play, events: list[Event]) -> State:
        cards = self.rules.data.cards
        card = cards[play.card]
        hands = list(self.hands)
        hands[seat] = _without(hands[seat], play.card)
        discards = list(self.discards)
        discards[card.side] = (*discards[card.side], play.card)
        copied = f" as {cards[play.as_card].name}" if play.as_card else ""
        events.append(
            Event(
                "card", f"Seat {seat} plays {card.name}{copied}.", {"seat": seat, "card": play.card, "as": play.as_card}
            )
        )
        other = 1 - seat
        if self.choice[other] is not None:
            # A card is public at once and takes back the face-down choice already made
            # (docs/rulings.md): say so, or the pick vanishes unexplained. Which one stays hidden.
            events.append(
                Event(
                    "taken-back", f"Seat {other}'s face-down choice is taken back: both choose again.", {"seat": other}
                )
            )
        nxt = self._r(hands=(hands[0], hands[1]), discards=(discards[0], discards[1]), choice=(None, None))
        effect = cards[play.as_card or play.card].effect
        if self.phase == BLOCK:
            # Rulings, Soccer-Go 6: the named card is cancelled; a BLOCK can't itself be blocked.
            named_seat, named_card, _, origin = self.named  # type: ignore[misc]
            events.append(Event("blocked", f"{self._named_words()} is blocked.", {"card": named_card}))
            nxt = nxt._r(named=None)
            # docs/rulings.md, "A blocked card returns play to where it was played": the window
            # the card was played in opens again, so a JOKER may copy the blocked card. For the
            # defending PASS RE-TAKE that window is the unmarked pass it named (``retake``, kept
            # when the card was named); an answer window after a marked pass, a save or a goal
            # opens on the same public condition as the first time: a card of the blocked side held.
            if origin in (PASS_REPLY, SHOT_REPLY) and not nxt._may_answer(named_seat):
                return nxt._end_turn(events, self._reply_result(origin))
            return nxt._r(phase=origin)
        assert effect != "block"
        named = (seat, play.card, play.as_card, self.phase)
        if effect != "pass-retake" or card.side == ATTACKING:
            nxt = nxt._r(retake=None)
        blocker = 1 - seat
        blockable = any(self._answers(c, named) for c in cards.values() if c.timing == "reply")
        if blockable and self.side_count(blocker, 1 - card.side):
            return nxt._r(phase=BLOCK, named=named)
        return nxt._r(named=named)._take_effect(events)

    def _take_effect(self, events: list[Event]) -> State:
        """Apply the named card's effect (it was not blocked). Rulings, Soccer-Go 9."""
        data = self.rules.data
        seat, card_id, as_card, origin = self.named  # type: ignore[misc]
        card = data.cards[as_card or card_id]
        effect = card.effect
        s = self._r(named=None)
        if effect == "bogey":
            return s._r(phase=origin)
        if effect == "attacking-gk":
            return s._r(phase=PASS, mods=s.mods | GK)
        if effect == "through-ball":
            return s._r(phase=PASS, mods=s.mods | ODD | THROUGH)
        if effect == "high-press":
            return s._r(phase=PASS, mods=s.mods | EVEN)
        if effect == "dribble":
            return s._r(phase=PASS, mods=s.mods | DRIBBLE)
        if effect == "corner":
            return s._r(phase=PASS, mods=s.mods | CORNER)
        if effect == "deep-press":
            return s._r(phase=PASS, mods=s.mods | DEEP)
        if effect == "shoot":
            return s._to_shot(events)
        if effect == "counter-attack":
            gained = data.counter_attack_passes
            events.append(Event("counter-attack", f"Counter attack: {gained} passes forward.", {"passes": gained}))
            return s._r(phase=COUNTER, passes=s.passes + gained, step=gained)
        if effect == "clearance":
            back = data.clearance_passes
            returned = s.retired[-back:] if back else ()
            events.append(
                Event(
                    "clearance",
                    f"Clearance: {back} passes back; {', '.join(map(str, returned)) or 'no numbers'} may be used again.",
                    {"passes": back, "returned": list(returned)},
                )
            )
            return s._r(phase=PASS, passes=max(0, s.passes - back), retired=s.retired[: len(s.retired) - len(returned)])
        if effect == "tackle":
            return s._r(phase=TACKLE)
        if effect == "narrow-shot":
            return s._r(phase=NARROW)
        if effect == "slow-build-up":
            events.append(
                Event("slow-build-up", "One more pass is needed before the shot.", {"passes_needed": s.target + 1})
            )
            return s._r(phase=PASS, target=s.target + 1)
        if effect == "pass-retake":
            if card.side == ATTACKING:
                events.append(Event("pass-retake", "The marked pass is taken again.", {}))
                return s._r(phase=PASS)
            numbers, passes, mods, number = s.retake  # type: ignore[misc]
            events.append(
                Event(
                    "pass-retake",
                    f"The {_ordinal(number)} pass is taken again; {_numbers_words(numbers)}"
                    f" {'is' if len(numbers) == 1 else 'are'} back in play.",
                    {"pass": number},
                )
            )
            return s._r(
                phase=PASS, passes=passes, mods=mods, retired=s.retired[: len(s.retired) - len(numbers)], retake=None
            )
        if effect == "shot-retake":
            if card.side == ATTACKING:
                events.append(Event("shot-retake", "The shot is taken again.", {}))
                return s._r(phase=SHOT)
            goals = list(s.goals)
            goals[s.attacker] -= 1
            events.append(
                Event(
                    "shot-retake",
                    f"Seat {s.attacker}'s goal is taken off ({s.goals[0]}-{s.goals[1]} becomes"
                    f" {goals[0]}-{goals[1]}) and the shot is taken again.",
                    {"goals": goals},
                )
            )
            return s._r(phase=SHOT, goals=(goals[0], goals[1]))
        raise AssertionError(f"no effect {effect!r}")

    # --- turns, draws, periods -------------------------------------------------------------

    def _end_turn(self, events: list[Event], result: str) -> State:
        rounds = self.options["rounds"]
        events.append(
            Event(
                "turn-over",
                f"End of seat {self.attacker}'s attack ({result}).",
                {"attacker": self.attacker, "result": result},
            )
        )
        base = self._r(phase=DRAW, named=None, retake=None, narrowed=None, mods=0, choice=(None, None))
        # Rulebook, Card Draw 5: draws after each turn; none in or before extra time (no cards there).
        if self.options["power_cards"] and self.turn < 2 * rounds - 1:
            for step in (0, 1):
                if base._may_draw(step):
                    return base._r(step=step)
        return base._start_turn(self.turn + 1, events)

    def _may_draw(self, step: int) -> bool:
        drawer = self.attacker if step == 0 else self.defender
        # Rulings, Soccer-Go 5: a draw never raises hand size, so an empty hand does not draw.
        return bool(self.hands[drawer]) and bool(self.piles[step] or self.swapped[step])

    def _swap(self, seat: int, action: Action, events: list[Event]) -> State:
        cards = self.rules.data.cards
        drawn = self.drawn
        assert drawn is not None
        hands, swapped = list(self.hands), list(self.swapped)
        if isinstance(action, Swap):
            hands[seat] = tuple(sorted((*_without(hands[seat], action.card), drawn)))
            out = action.card
        else:
            out = drawn
        side = cards[out].side
        swapped[side] = tuple(sorted((*swapped[side], out)))
        events.append(Event("swap", f"Seat {seat} puts {A_SIDE[side]} card aside.", {"seat": seat, "side": side}))
        events.append(
            Event("swap-detail", f"Seat {seat} puts {cards[out].label} aside.", {"card": out}, audience=(seat,))
        )
        seen = self.aside[seat][side]
        aside = _with_aside(self.aside, seat, side, replace(seen, swapped=tuple(sorted((*seen.swapped, out)))))
        nxt = self._r(hands=(hands[0], hands[1]), swapped=(swapped[0], swapped[1]), drawn=None, aside=aside)
        if self.step == 0 and nxt._may_draw(1):
            return nxt._r(phase=DRAW, step=1)
        return nxt._start_turn(self.turn + 1, events)

    def _start_turn(self, turn: int, events: list[Event]) -> State:
        rounds = self.options["rounds"]
        data = self.rules.data
        regulation = 2 * rounds
        extra = 2 * data.extra_time_rounds if self.options["extra_time"] else 0
        level = self.goals[0] == self.goals[1]
        if turn == regulation:
            events.append(
                Event("full-time", f"End of normal time: {self.goals[0]}-{self.goals[1]}.", {"goals": list(self.goals)})
            )
            if not level:
                return self._full_time(events)
            if extra:
                events.append(Event("extra-time", "Extra time: no power cards, two chances to reach the shot.", {}))
        if turn == regulation + extra and turn >= regulation:
            if not level:
                return self._full_time(events)
            kicks = data.shootout_kicks
            events.append(
                Event("shootout", f"Penalty shootout: {kicks} kicks each, then sudden death.", {"kicks": kicks})
            )
            return self._r(
                phase=KICK, turn=turn, passes=0, retired=(), mods=0, choice=(None, None), narrowed=None, retake=None
            )
        if turn == 2 * self.rules.half_time(rounds) and turn < regulation:
            events.append(Event("half-time", "Half-time: the sides swap attacking order.", {}))
        nxt = self._r(
            phase=PASS,
            turn=turn,
            passes=0,
            target=data.passes_to_shoot,
            retired=(),
            mods=0,
            chances=data.extra_time_chances if turn >= regulation else 1,
            choice=(None, None),
            narrowed=None,
            retake=None,
            named=None,
            step=0,
        )
        events.append(Event("kick-off", f"Seat {nxt.attacker} attacks.", {"attacker": nxt.attacker, "turn": turn}))
        return nxt

    def _full_time(self, events: list[Event]) -> State:
        end = self._r(phase=OVER, choice=(None, None))
        winner, details = end.winner, end.result_details()
        text = "Full time: a draw." if winner is None else f"Full time: seat {winner} wins."
        if winner is not None and "shootout" in details:
            kicks = details["shootout"][winner], details["shootout"][1 - winner]
            text = f"Full time: seat {winner} wins the shootout {kicks[0]}-{kicks[1]}."
        elif details.get("extra_time"):
            text = text.replace("Full time:", "Full time after extra time:")
        events.append(Event("match-over", text, {"winner": winner, "goals": list(self.goals)}))
        return end

    # --- what a seat may know ------------------------------------------------------------

    def _view(self, seat: int | None) -> dict[str, Any]:
        data = self.rules.data
        started = self.first >= 0
        playing = started and self.phase not in (TOSS, DEAL)
        attacker = self.attacker if playing else None
        named = None
        if self.named is not None:
            named = {"seat": self.named[0], "card": self.named[1], "as": self.named[2]}
        mine = None
        if seat is not None and self.phase in SIMULTANEOUS and self.choice[seat] is not None:
            mine = str(self.choice[seat])
        drawing = None
        if self.phase == SWAP:
            drawing = self.drawer
        restriction = None
        if self.mods & ODD:
            restriction = sorted(data.through_ball_numbers)
        elif self.mods & EVEN:
            restriction = sorted(data.high_press_numbers)
        return {
            "phase": PHASE_NAMES[self.phase],
            "period": self._period(),
            "round": self.turn // 2 + 1,
            "turn": self.turn,
            "first_attacker": self.first if started else None,
            "attacker": attacker,
            "defender": None if attacker is None else 1 - attacker,
            "goals": list(self.goals),
            "passes": self.passes,
            "passes_needed": self.target,
            "retired": list(self.retired),
            "available": list(self.available()) if self.phase == PASS else [],
            "restriction": restriction,
            "modifiers": [name for bit, name in MOD_NAMES if self.mods & bit],
            "chances_left": self.chances,
            "chosen": [c is not None for c in self.choice] if self.phase in SIMULTANEOUS else [False, False],
            "my_choice": mine,
            "directions": [d for d in data.directions if d != self.narrowed],
            "narrowed": self.narrowed,
            "hand": list(self.hands[seat]) if seat is not None else [],
            "hand_counts": [[self.side_count(s, ATTACKING), self.side_count(s, DEFENDING)] for s in (0, 1)],
            "drawn": self.drawn if seat is not None and seat == drawing else None,
            "drawing": drawing,
            "piles": {SIDE_NAMES[i]: len(self.piles[i]) for i in (0, 1)},
            "swapped": {SIDE_NAMES[i]: len(self.swapped[i]) for i in (0, 1)},
            "discards": {SIDE_NAMES[i]: list(self.discards[i]) for i in (0, 1)},
            "named": named,
            "reply": self.step if self.phase == SHOT_REPLY else (attacker if self.phase == PASS_REPLY else None),
            "retires_left": self.step if self.phase == COUNTER else 0,
            "retake_possible": self.retake is not None,
            "last": None
            if self.last is None
            else {"kind": self.last[0], "attacker": self.last[1], "defender": self.last[2], "result": self.last[3]},
            "shootout": [list(self.kicks[0]), list(self.kicks[1])],
            "shootout_kicks": data.shootout_kicks,
            "rounds": self.options["rounds"],
            "kicker": self.kicker if self.phase == KICK else None,
            "cards": self.rules.catalogue,
        }

    def _period(self) -> str:
        if self.phase == OVER:
            return "full-time"
        if self.phase == KICK:
            return "shootout"
        rounds = self.options["rounds"]
        if self.turn >= 2 * rounds:
            return "extra-time"
        return "first-half" if self.turn < 2 * self.rules.half_time(rounds) else "second-half"

    _secret_history = True  # the cards dealt and drawn, the card put aside

    def _secret(self, seat: int, action: Action) -> tuple[int, bool] | None:
        """A card dealt or drawn is seen by the seat that gets it, the card put aside by the
        seat that puts it aside; a face-down pick is shown once both are laid."""
        phase = self.phase
        if seat == CHANCE:
            if phase == DEAL:
                return (1 - self.rules.deal_order[self.step][1], False)
            if phase == DRAW:
                return (1 - self.drawer, False)
            return None
        if phase == SWAP:
            return (1 - seat, False)
        if phase in SIMULTANEOUS and not isinstance(action, Play):
            return (1 - seat, True)
        return None

    def _pick_pending(self, seat: int) -> bool:
        return self.phase in SIMULTANEOUS and self.choice[1 - seat] is not None

    def _determinize(self, seat: int, rng: random.Random) -> State:
        """Resample the other seat's hand, its drawn card, both piles and its face-down choice.

        The cards ``seat`` put aside stay where it knows they are (:class:`SeenAside`); the other
        seat's record of its own is remade from the world, so nothing real of it is handed on.
        """
        other = 1 - seat
        cards = self.rules.data.cards
        drawer = None
        if self.phase == SWAP:
            drawer = self.drawer
        hands = [list(self.hands[0]), list(self.hands[1])]
        new_other: list[str] = []
        piles, swapped = list(self.piles), list(self.swapped)
        theirs_aside = [NOTHING_ASIDE, NOTHING_ASIDE]
        drawn = self.drawn
        for side in (ATTACKING, DEFENDING):
            theirs = [c for c in self.hands[other] if cards[c].side == side]
            pool = [*self.piles[side], *self.swapped[side], *theirs]
            hidden_drawn = drawer == other and drawn is not None and cards[drawn].side == side
            if hidden_drawn:
                pool.append(drawn)  # type: ignore[arg-type]
            pool.sort()
            seen = self.aside[seat][side]
            kept_aside = _take(pool, seen.swapped) if seen.swapped else []
            in_pile = _take(pool, seen.in_pile) if seen.in_pile else []
            n_pile = len(self.piles[side])
            stay = in_pile
            if in_pile:
                # Each of the other seat's draws since the refill may have taken one of them (one it
                # played since is not in the pool: that draw is spent); a random draw order says which.
                draws = seen.their_draws - (len(seen.in_pile) - len(in_pile))
                slots = rng.sample(range(n_pile + max(draws, len(in_pile) - n_pile, 0)), len(in_pile))
                stay = [c for c, slot in zip(in_pile, slots, strict=True) if slot < n_pile]
                pool.extend(c for c, slot in zip(in_pile, slots, strict=True) if slot >= n_pile)
            rng.shuffle(pool)
            k = len(theirs)
            new_other.extend(pool[:k])
            rest = pool[k:]
            if hidden_drawn:
                drawn, rest = rest[0], rest[1:]
            n_swapped = len(self.swapped[side]) - len(kept_aside)
            swapped[side] = tuple(sorted((*kept_aside, *rest[:n_swapped])))
            piles[side] = tuple(sorted((*stay, *rest[n_swapped:])))
            if n_swapped:
                theirs_aside[side] = SeenAside(swapped=tuple(sorted(rest[:n_swapped])))
        hands[other] = new_other
        aside = list(self.aside)
        aside[other] = (theirs_aside[0], theirs_aside[1])
        choice = list(self.choice)
        if self.phase in SIMULTANEOUS and choice[other] is not None:
            options = self._choices_of(other)
            choice[other] = options[rng.randrange(len(options))]
        return self._r(
            hands=(tuple(sorted(hands[0])), tuple(sorted(hands[1]))),
            piles=(piles[0], piles[1]),
            swapped=(swapped[0], swapped[1]),
            drawn=drawn,
            choice=(choice[0], choice[1]),
            aside=(aside[0], aside[1]),
        )

    def _choices_of(self, seat: int) -> list[Any]:
        """The face-down choices (not card plays) open to ``seat`` in a simultaneous phase."""
        if self.phase == PASS:
            return self._pass_choices(seat)
        if self.phase == TACKLE:
            return [Show(s) for s in self.rules.data.tackle_signs]
        return self._shot_choices(seat)

    def explain_illegal(self, seat: int, action: Action) -> str:
        if seat not in self.current_players():
            return self._not_your_turn(seat)
        phase = self.phase
        if isinstance(action, (PassTo, Mark)):
            if phase != PASS:
                return "no pass is being chosen now"
            if (seat == self.attacker) != isinstance(action, PassTo):
                return "the attacker passes and the defender marks"
            wanted = (
                self._laid_need(self.mods)
                if (self.mods & CORNER and seat == self.attacker) or (self.mods & DEEP and seat != self.attacker)
                else 1
            )
            if len(action.numbers) != wanted:
                return f"lay exactly {wanted} number{'s' if wanted > 1 else ''} for this pass"
            open_numbers = self.available()
            for n in action.numbers:
                if n in self.retired:
                    return f"number {n} is retired for the rest of this turn"
                if n not in open_numbers:
                    if n == self.rules.data.goalkeeper:
                        return "the goalkeeper (1) can't take the final pass unless ATTACKING GK is played"
                    return f"number {n} is not allowed for this pass ({', '.join(map(str, open_numbers))} are)"
        if isinstance(action, Play):
            if not self.cards_allowed:
                return "no power cards are played in extra time or the shootout"
            if action.card not in self.hands[seat]:
                return f"{action.card} is not in your hand"
            card = self.rules.data.cards[action.card]
            own_side = ATTACKING if seat == self.attacker else DEFENDING
            if phase != BLOCK and card.side != own_side:
                return f"{SIDE_NAMES[card.side]} cards are played only by the {SIDE_NAMES[card.side][:-3]}er"
            if action.as_card is not None and card.effect != "joker":
                return f"only a JOKER is played as another card, and {card.name} is not one"
            if action.as_card is not None and action.as_card not in self.discards[card.side]:
                return f"a Joker copies only a card in the discard pile, and {action.as_card} is not there"
            return f"{card.name} can't be played now ({card.text.rstrip('.')}; timing: {card.timing}{'' if card.passes == (1, 99) else f' {card.passes[0]}-{card.passes[1]}'})"
        if isinstance(action, (Shoot, Save)) and action.direction == self.narrowed:
            return f"the {action.direction} is closed by NARROW SHOT"
        return f"{action} is not a legal action now (legal: {', '.join(map(str, self.legal_actions(seat)))})"


def _state_copier() -> Any:
    """Compile ``_copy_state(state, changes)``: one line per field, no loop, no ``getattr``."""
    lines = ["def _copy_state(self, c):", "    new = _new(_cls)"]
    for f in fields(SoccerGoState):
        lines.append(f"    _set(new, {f.name!r}, c[{f.name!r}] if {f.name!r} in c else self.{f.name})")
    lines += ["    _set(new, '_info', self._info)", "    return new"]
    namespace: dict[str, Any] = {"_new": object.__new__, "_set": object.__setattr__, "_cls": SoccerGoState}
    exec("\n".join(lines), namespace)  # the source is built above from the dataclass fields only
    return namespace["_copy_state"]


_copy_state = _state_copier()


def _counts(pile: Sequence[str]) -> list[tuple[Action, int]]:
    out: dict[str, int] = {}
    for card in pile:
        out[card] = out.get(card, 0) + 1
    return [(Draw(c), n) for c, n in out.items()]


def _without(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


def _with_aside(aside: _Aside, seat: int, side: int, seen: SeenAside) -> _Aside:
    """``aside`` (by seat, then side) with what ``seat`` knows of its put-aside cards of ``side``
    now ``seen``."""
    pair = (seen, aside[seat][1]) if side == 0 else (aside[seat][0], seen)
    return (pair, aside[1]) if seat == 0 else (aside[0], pair)


def _take(pool: list[str], cards: Sequence[str]) -> list[str]:
    """Remove ``cards`` from ``pool`` where they are in it; return those removed."""
    taken = []
    for card in cards:
        if card in pool:
            pool.remove(card)
            taken.append(card)
    return taken


def _drawn_event(seat: int, card: PowerCard, verb: str) -> Event:
    # The receiver sees the card; the other seat only its side (the back colour).
    return Event("draw", f"Seat {seat} {verb} {card.label}.", {"seat": seat, "card": card.id}, audience=(seat,))


def _shootout_decided(kicks: tuple[tuple[bool, ...], tuple[bool, ...]], regular: int) -> bool:
    """Best of ``regular`` kicks each, stopping once one side can't be caught; then sudden death."""
    n0, n1 = len(kicks[0]), len(kicks[1])
    g0, g1 = sum(kicks[0]), sum(kicks[1])
    if n0 <= regular and n1 <= regular and max(n0, n1) <= regular:
        left0, left1 = regular - n0, regular - n1
        if g0 + left0 < g1 or g1 + left1 < g0:
            return True
        if n0 < regular or n1 < regular:
            return False
    return n0 == n1 and g0 != g1


# --- game ---------------------------------------------------------------------------------


class SoccerGoRules(Game):
    """Soccer-Go: the rules, with content from ``soccer-go.toml``."""

    id = "soccer-go"
    title = "Soccer-Go"
    summary = "Pass and mark with secret player cards, then shoot against the keeper; power cards bend the rules."

    def __init__(self, data: SoccerGoData) -> None:
        self.data = data
        SoccerGoRules.options = (
            Option(
                "rounds",
                data.rounds,
                "Rounds",
                "In a round each side attacks once; half-time comes halfway through.",
                minimum=1,
                maximum=10,
            ),
            Option(
                "extra_time",
                True,
                "Extra time",
                "A level match gets a round of extra time before penalties (off: straight to penalties).",
            ),
            Option("power_cards", True, "Power cards", "Play with the attacking and defending power cards."),
            Option(
                "joker_blocks",
                "joker",
                "BLOCK that stops a JOKER",
                "Which BLOCK card may answer a JOKER: the one naming JOKER, the one naming the card the JOKER copies, or either.",
                choices=("joker", "copied", "either"),
            ),
        )
        order: list[tuple[int, int]] = []
        for side in (ATTACKING, DEFENDING):
            for seat in (0, 1):
                order.extend([(side, seat)] * data.deal[side])
        self.deal_order: tuple[tuple[int, int], ...] = tuple(order)
        self.catalogue = {
            c.id: {
                "name": c.name,
                "side": SIDE_NAMES[c.side],
                "text": c.text,
                "timing": c.timing,
                "passes": list(c.passes) if c.timing in ("passes", "matched-pass", "unmatched-pass") else None,
                "blocks": sorted(c.blocks),
                "count": c.count,
            }
            for c in data.cards.values()
        }
        self._initial_piles = tuple(
            tuple(sorted(c.id for c in data.cards.values() if c.side == side for _ in range(c.count)))
            for side in (ATTACKING, DEFENDING)
        )
        self._parse_cache: dict[str, Action] = {}
        self._attackers: dict[tuple[int, int, int], int] = {}
        SoccerGoState.game = self

    @staticmethod
    def half_time(rounds: int) -> int:
        """Rounds before half-time: half of them, rounded up (rulebook 3: after round 2 of 4)."""
        return (rounds + 1) // 2

    def attacker_of(self, first: int, turn: int, rounds: int) -> int:
        """Rulebook 9: the first half's order is reversed after half-time; extra time as the first half."""
        key = (first, turn, rounds)
        found = self._attackers.get(key)
        if found is None:
            found = self._attackers[key] = self._order(first, turn, rounds)
        return found

    def _order(self, first: int, turn: int, rounds: int) -> int:
        if first < 0:
            return 0
        regulation = 2 * rounds
        half = 2 * self.half_time(rounds)
        if turn < half:
            return first if turn % 2 == 0 else 1 - first
        if turn < regulation:
            return 1 - first if (turn - half) % 2 == 0 else first
        return first if (turn - regulation) % 2 == 0 else 1 - first

    def _initial_state(self, options: Mapping[str, Any]) -> State:
        piles = self._initial_piles
        return SoccerGoState(
            phase=TOSS,
            first=-1,
            turn=0,
            goals=(0, 0),
            passes=0,
            target=self.data.passes_to_shoot,
            retired=(),
            mods=0,
            chances=1,
            choice=(None, None),
            narrowed=None,
            retake=None,
            named=None,
            step=0,
            hands=((), ()),
            piles=(piles[0], piles[1]),
            swapped=((), ()),
            discards=((), ()),
            drawn=None,
            kicks=((), ()),
            last=None,
            aside=((NOTHING_ASIDE, NOTHING_ASIDE), (NOTHING_ASIDE, NOTHING_ASIDE)),
        )

    def parse_action(self, text: str) -> Action:
        found = self._parse_cache.get(text)
        if found is None:
            found = self._parse(text)
            if len(self._parse_cache) < 10_000:
                self._parse_cache[text] = found
        return found

    def _parse(self, text: str) -> Action:
        words = text.split()
        bad = IllegalAction(f"not a Soccer-Go action: {text!r}")
        if not words:
            raise bad
        head, rest = words[0], words[1:]
        data = self.data
        if text == "no card":
            return NO_CARD
        if text == "keep hand":
            return KEEP
        if len(rest) == 1:
            arg = rest[0]
            if head == "toss" and arg in ("0", "1"):
                return Toss(int(arg))
            if head == "draw" and arg in data.cards:
                return Draw(arg)
            if head == "swap" and arg in data.cards:
                return Swap(arg)
            if head == "play" and arg in data.cards:
                return Play(arg)
            if head in ("pass", "mark"):
                try:
                    numbers = tuple(int(n) for n in arg.split("+"))
                except ValueError:
                    raise bad from None
                if (
                    all(n in data.players for n in numbers)
                    and len(set(numbers)) == len(numbers)
                    and list(numbers) == sorted(numbers)
                ):
                    return PassTo(numbers) if head == "pass" else Mark(numbers)
            if head == "retire" and arg.isdigit() and int(arg) in data.players:
                return Retire(int(arg))
            if arg in data.directions:
                if head == "shoot":
                    return Shoot(arg)
                if head == "save":
                    return Save(arg)
                if head == "remove":
                    return Remove(arg)
            if head == "show" and arg in data.tackle_signs:
                return Show(arg)
        if head == "play" and len(rest) == 3 and rest[1] == "as" and rest[0] in data.cards and rest[2] in data.cards:
            return Play(rest[0], rest[2])
        raise bad


def make_game(data: Mapping[str, Any]) -> Game:
    """The Soccer-Go game from the parsed ``resources/games/soccer-go.toml``."""
    return SoccerGoRules(load_data(data))
