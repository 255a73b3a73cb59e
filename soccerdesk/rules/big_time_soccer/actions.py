"""Big Time Soccer actions: one small value per decision, with a text form that parses back.

Zones in an action are named in the acting seat's own frame (``play PA2 A1C`` moves the
ball to the mover's A1C). Texts:

=====================  ====================================================================
``toss 0``             chance: seat 0 kicks off the first half
``draw PA2``           chance: the drawing seat gets a Pass Ahead 2
``roll 14``            chance: the d20 shows 14 (every chart, table and shootout kick)
``chit 4``             chance: the fouling player draws yellow-card chit #4
``play PA2 A1C``       play a Pass or Dribble card (or Any) moving the ball to A1C
``passback PA1P``      discard a Pass card to pass to the goalkeeper (a goal kick follows)
``shoot SIN``          play a Shot at Net card (``shoot free``: the Pass+O/S free shot)
``clear-in M2C``       Clear - keep the ball in play, into M2C
``clear-out M1L``      Clear - out of play; the opponent's throw-in at M1L (``goal-line``: goal kick)
``clear-box``          in the opponent's box without a shot: clear, he gets a goal kick
``hold``               attempt to hold the ball
``discard PA2``        the card discarded for a hold or clear (``discard none``: keep all, hold only)
``reply I``            the defender answers with a defensive card (``reply none``: he does not)
``goal-kick``          a goal kick on the Goal Kick chart
``aimed-kick M2C``     an aimed goal kick into M2C
``throw-in D2L``       the goalkeeper throws the ball to D2L
``free-kick``          a free kick played in the ball's zone (like a throw-in)
``propose-end``        propose to end the half (stoppage cards all in hand)
``accept-end``         accept the proposal: the half ends
``decline-end``        decline it: play goes on
=====================  ====================================================================
"""

from __future__ import annotations

from dataclasses import dataclass, field

from soccerdesk.rules.api import IllegalAction

# verb -> kind of argument: "" none, "card", "zone", "card zone", "int", "card|none", ...
VERBS: dict[str, str] = {
    "toss": "seat",
    "draw": "card",
    "roll": "die",
    "chit": "chit",
    "play": "card zone",
    "passback": "card",
    "shoot": "card|free",
    "clear-in": "zone",
    "clear-out": "zone|goal-line",
    "clear-box": "",
    "hold": "",
    "discard": "card|none",
    "reply": "card|none",
    "goal-kick": "",
    "aimed-kick": "zone",
    "throw-in": "zone",
    "free-kick": "",
    "propose-end": "",
    "accept-end": "",
    "decline-end": "",
}


@dataclass(frozen=True, slots=True)
class Act:
    """One Big Time Soccer action: a verb and its argument text (see the module table)."""

    verb: str
    arg: str = ""
    _hash: int = field(init=False, repr=False, compare=False, default=0)

    def __str__(self) -> str:
        return f"{self.verb} {self.arg}" if self.arg else self.verb

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.verb, self.arg)))

    def __hash__(self) -> int:
        # Computed once: chance outcomes are hashed on every apply (the contract's check).
        return self._hash


def parse(text: str, card_codes: frozenset[str], zone_names: frozenset[str], chit_count: int) -> Act:
    """The action written ``text``; anything else raises IllegalAction saying what is wrong."""
    if not isinstance(text, str):
        raise IllegalAction(f"an action is text, not {text!r}")
    verb, _, arg = text.strip().partition(" ")
    kind = VERBS.get(verb)
    if kind is None:
        raise IllegalAction(f"unknown action {text!r}; actions start with one of: {', '.join(VERBS)}")
    arg = arg.strip()

    def bad(expected: str) -> IllegalAction:
        return IllegalAction(f"{verb!r} takes {expected}, not {arg!r}")

    if kind == "":
        if arg:
            raise bad("nothing more")
        return Act(verb)
    if kind == "seat":
        if arg not in ("0", "1"):
            raise bad("a seat 0 or 1")
    elif kind == "die":
        if not arg.isdigit() or not 1 <= int(arg) <= 20 or arg != str(int(arg)):
            raise bad("a roll from 1 to 20")
    elif kind == "chit":
        if not arg.isdigit() or not 1 <= int(arg) <= chit_count or arg != str(int(arg)):
            raise bad(f"a chit number from 1 to {chit_count}")
    elif kind == "card zone":
        code, _, zone = arg.partition(" ")
        if code not in card_codes or zone not in zone_names:
            raise bad("a card code and a zone, e.g. 'PA2 A1C'")
    else:
        options = kind.split("|")
        ok = (
            arg in options[1:]
            or (options[0] == "card" and arg in card_codes)
            or (options[0] == "zone" and arg in zone_names)
        )
        if not ok:
            raise bad(
                " or ".join(
                    ("a card code" if o == "card" else "a zone name" if o == "zone" else repr(o)) for o in options
                )
            )
    return Act(verb, arg)
