"""Big Time Soccer (rulebook ``big-time-soccer.txt``, RULINGS.md Big Time Soccer section).

Modules: :mod:`.board` (the 18 zones in both frames), :mod:`.cards` (deck, charts, tables,
chits from the TOML data), :mod:`.actions` (action values and their texts),
:mod:`.state` (the position and the rules), :mod:`.game` (options, parsing).

Frames: zones are numbered 0..17 on the home seat's grid, ``row * 3 + col`` with rows
D1 D2 M1 M2 A1 A2 = 0..5 and columns L C R = 0..2 as seat 0 sees them; seat 1 sees the
grid turned half round. Action texts name zones in the acting seat's own frame.

The game part of ``view(seat)`` (keys are stable; new ones may be added):

``half``            1, 2, or 3 during a cup shootout
``first_kicker``    seat that kicked off the first half (-1 before the toss)
``phase``           decision awaited once pending chance is done: ``play``, ``discard``,
                    ``reply``, ``goal_kick``, ``free_kick``, ``end_offer``, ``shootout``, ``over``
``rolling``         the pending die/chit/toss (``toss``, ``shot``, ``penalty``, ``defense``,
                    ``chit``, ``red``, ``hold``, ``clear``, ``goal_kick``, ``aimed``,
                    ``stoppage``, ``shootout``) or null
``drawing``         seat about to draw a replenishment card, or null
``ball``            absolute zone 0..17; ``ball_row`` 0..5 and ``ball_col`` 0..2 on seat 0's grid
``ball_zone``       the ball's zone name in seat 0's and in seat 1's frame, e.g. ``["A1C", "D2C"]``
``control``         seat with ball control (the offensive player)
``next``            type the next Pass/Dribble card must be (``pass``, ``dribble``, ``any``),
                    null at the start of an offensive sequence
``pass_back_used``  the pass to the goalkeeper is used up for this possession
``hold_blocked``    a hold just succeeded: no hold before a Pass or Dribble card
``free_shot``       the Pass+O/S free Outside shot is available (``shoot free``)
``pending``         context of the awaited decision or roll: ``{"kind": "pass"|"dribble"|"hold"
                    |"clear-in"|"clear-out"|"clear-box", "card": code?, "target": zone?}`` or null
``hand``            the seat's own card codes (null for a spectator); never the opponent's
``hand_sizes``      cards in each hand; ``hand_limits``: each seat's hand size after red cards
``can_reply``       true when this seat is asked to reply and holds a card that may answer
                    (lets a UI offer "auto-pass when I hold none")
``deck_left``       cards left in the regular deck (0 once stoppage time began)
``stoppage``        null, or ``{"minutes": m, "cards_left": n}`` of the stoppage deck
``discards``        ``{code: count}`` of the face-up discard pile; ``last_card`` its top card
``yellows``         yellow chit numbers each seat holds; ``reds``: red cards of each seat
``chits_left``      face-down chits left in the pool
``end_offer``       the seat in control proposed to end the half; the other must answer
``mode``            ``league`` or ``cup``
``shootout``        null, or ``{"goals": [g0, g1], "kicks": [k0, k1]}``
``card_names``      ``{code: name}`` of every card code this view mentions

Card codes and names are in :attr:`BigTimeSoccer.content` (``cards``) and in
``resources/games/big-time-soccer.toml``.
"""

from soccerdesk.rules.big_time_soccer.actions import Act
from soccerdesk.rules.big_time_soccer.game import BigTimeSoccer, make_game
from soccerdesk.rules.big_time_soccer.state import BigTimeState

__all__ = ["Act", "BigTimeSoccer", "BigTimeState", "make_game"]
