"""The Big Time Soccer :class:`Game`: options, the opening position and action parsing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from soccerdesk.rules.api import Game, Option, State
from soccerdesk.rules.big_time_soccer.actions import Act, parse
from soccerdesk.rules.big_time_soccer.cards import Content, load_content
from soccerdesk.rules.big_time_soccer.state import BigTimeState, Tables, Variant


class BigTimeSoccer(Game):
    """Big Time Soccer: a card-driven soccer game on an 18-zone field, two halves."""

    id = "big-time-soccer"
    title = "Big Time Soccer"
    summary = (
        "Play Pass, Dribble and Shot cards to carry the ball up an 18-zone field; "
        "answer with Challenge and Intercept cards, roll the d20 on the chart sheet."
    )
    options = (
        Option(
            "mode",
            "league",
            "A level match",
            "League: a level score at full time is a draw. Cup: a penalty shootout decides it.",
            choices=("league", "cup"),
        ),
        Option(
            "hold_restriction",
            "both-boxes",
            "No holding the ball in",
            "The usual rule: in neither penalty box. Variant: only in the opponent's box, so you may hold in your own.",
            choices=("both-boxes", "opponent-box"),
        ),
        Option(
            "pass_os",
            "any-a-zone",
            "Free outside shot after a pass into",
            "Where a pass card marked O/S must end to earn a free outside shot. The usual rule: any "
            "attacking zone outside the box. Strict: only a pass from M1 or M2 into A1.",
            choices=("any-a-zone", "strict"),
        ),
    )

    def __init__(self, content: Content) -> None:
        self.content = content
        self.t = Tables(content)
        self._codes = frozenset(c.code for c in content.cards)
        self._zones = frozenset(content.board.names[0])
        BigTimeState.game = self

    def _initial_state(self, options: Mapping[str, Any]) -> State:
        c = self.content
        variant = Variant(
            cup=options["mode"] == "cup",
            hold_in_own_box=options["hold_restriction"] == "opponent-box",
            strict_pass_os=options["pass_os"] == "strict",
        )
        return BigTimeState(
            half=1,
            first_kicker=-1,
            goals=(0, 0),
            ball=c.board.kickoff[0],
            control=0,
            phase="play",
            roll=("toss",),
            pending=None,
            next_req=None,
            passback_used=False,
            hold_blocked=False,
            free_shot=False,
            hands=((), ()),
            pile=self.t.deck,
            pile_left=self.t.deck_size,
            discard=self.t.zero,
            last_card=-1,
            to_draw=(),
            stoppage=-1,
            stoppage_minutes=0,
            chits=c.chits,
            yellows=((), ()),
            reds=(0, 0),
            end_blocked=False,
            shootout=None,
            variant=variant,
        )

    def parse_action(self, text: str) -> Act:
        return parse(text, self._codes, self._zones, len(self.content.chits))


def make_game(data: Mapping[str, Any]) -> BigTimeSoccer:
    """The game built from the parsed ``resources/games/big-time-soccer.toml``."""
    return BigTimeSoccer(load_content(data))
