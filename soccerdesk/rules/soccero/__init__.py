"""Soccero (Second Edition): basic and extended rules on a 21×32 board.

``get_game("soccero").new_match(seed, extended=True)`` — options: ``extended`` (the
extended rules), ``turns`` (turns per manager per half, RULINGS Soccero 1; default
``turns_per_half`` of soccero.toml), ``adjacent_limit`` (RULINGS Soccero 8: the data's
``adjacent_in_line``, 4, or the variant 3), ``quick_setup`` (the default formation instead
of placing players one by one), ``hourglass`` (a real-time turn timer shown to the UI; the
rules do not enforce it). The number of halves is the data's ``halves`` (2).

View (``view(seat)["state"]``; Soccero hides nothing, so every seat sees the same):

- ``columns``, ``rows``: board size (squares are named ``A1``..``U32``; row 1 is the low end).
- ``extended``, ``phase``, ``turn`` (seat whose turn it is), ``deciding`` (seat owing the
  decision, ``None`` while a die is due), ``half``, ``turns_played`` (both managers together,
  this half), ``turns_each`` (``[seat 0's, seat 1's]`` turns completed this half: the half ends
  once both reach ``turns_per_half``), ``turns_per_half`` (per manager), ``turn_timer``
  (seconds, 0 = off).
- ``defends``: goal-line row each seat defends (``[1, 32]`` or ``[32, 1]``), ``kickoff_team``.
- ``players``: 22 dicts ``{seat, number (1 = goalkeeper), goalkeeper, square, moved}``; index
  ``p`` of this list is the player id used by ``holder``, ``red``, ``forced``, ``banned``, ``placing``.
- ``ball`` (square), ``holder`` (player id or ``None``: loose), ``red`` (the holder who may not
  carry again), ``forced`` (a player who must leave the square he shares after a steal first), ``points``
  (movement points left this turn).
- ``kick``: ``{shot, dice, mode ('play'/'set'/'normal'/'header'/'throw'), symbol, total}`` or ``None``.
- ``flight``: ``{squares, finish ('', 'out', 'goal'), air}`` while an air ball or a save is pending.
- ``air_stop``: ``{player, square}`` — who is asked to stop the air ball.
- ``candidates``: squares of the players to pick from (``fetch``, ``block``).
- ``setpiece``: ``{kind, seat, spot, taker, direct, spots, free_moves_left, wall_left, selected}``;
  during free moves also ``must_move``: the deciding seat's player ids that must leave squares
  the set piece forbids before it may move anyone else or say ``done``.
- ``banned`` (extended: the set-piece taker who may not touch the ball yet), ``steal_pending``
  (extended: ``{victim, square}`` until the victim team's first movement roll),
  ``placing`` (setup: the player id to place next), ``kicking_off`` (setup: the seat whose
  kick-off is being set up; it places all its players first) and ``formation_square`` (setup:
  where the Quick set-up's formation puts ``placing``, at the end his team defends; not a
  legal place when a player placed by hand stands on it or too close to it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from soccerdesk.rules.api import Game, Option, State
from soccerdesk.rules.soccero.actions import Actions
from soccerdesk.rules.soccero.board import HIGH, LOW, MAX_TURNS_PER_HALF, Board, BoardDataError, Rules
from soccerdesk.rules.soccero.play import kick_roll_outcomes
from soccerdesk.rules.soccero.state import NOBODY, PLAYERS, Config, SocceroState

ADJACENT_VARIANT = 3
"""RULINGS Soccero 8: the variant line limit offered beside the data file's."""


class SocceroGame(Game):
    """Soccero: move players by one die, kick with the kick die, score more goals."""

    id = "soccero"
    title = "Soccero"
    summary = "Move your eleven with one die or kick with the kick die and one or two distance dice; extended rules add set pieces, fouls and offside."

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.board = Board(data)
        self.actions = Actions(self.board)
        self.kick_roll_outcomes = kick_roll_outcomes(self.board.rules.kick_die, self.actions)
        b = self.board
        self.half_squares = (
            tuple(sq for sq in range(b.size) if b.half_of(sq) == LOW),
            tuple(sq for sq in range(b.size) if b.half_of(sq) == HIGH),
        )
        # Each half without its penalty area: where field players may be set up.
        self.field_squares = tuple(tuple(sq for sq in half if b.penalty_area_of[sq] < 0) for half in self.half_squares)
        try:
            self.formation = {
                name: tuple(b.square(n) for n in data["formation"][name]) for name in ("kickoff", "receiving")
            }
        except KeyError as exc:
            raise BoardDataError(f"soccero.toml: [formation] needs {exc}") from None
        for name, squares in self.formation.items():
            if len(squares) != PLAYERS or len(set(squares)) != PLAYERS or any(b.half_of(sq) != LOW for sq in squares):
                raise BoardDataError(
                    f"soccero.toml: formation {name!r} needs {PLAYERS} different squares in the low half"
                )
        self.shape_memo: dict[Any, Any] = {}  # see play.shape_memo
        type(self).options = soccero_options(b.rules)  # defaults from the data file
        SocceroState.game = self
        SocceroState.board = self.board

    def _initial_state(self, options: Mapping[str, Any]) -> State:
        cfg = Config(
            extended=options["extended"],
            adjacent_limit=options["adjacent_limit"],
            turns=options["turns"],
            quick_setup=options["quick_setup"],
            turn_timer=self.board.rules.turn_timer_seconds if options["hourglass"] else 0,
        )
        return SocceroState(
            cfg=cfg,
            phase="toss",
            team=0,
            decider=0,
            pos=(-1,) * (2 * PLAYERS),
            ball=-1,
            holder=NOBODY,
            red=NOBODY,
            points=0,
            moved=0,
            forced=NOBODY,
            goals=(0, 0),
            half=1,
            turns=(0, 0),
            low_team=-1,
            kickoff_team=-1,
        )

    def parse_action(self, text: str) -> Any:
        return self.actions.parse(text)


def soccero_options(rules: Rules) -> tuple[Option, ...]:
    """The match options; turns per half and the line limit default to soccero.toml's numbers
    (RULINGS Soccero 1 and 8), so a real value there changes them."""
    return (
        Option(
            "extended",
            False,
            "Extended rules",
            "Adds set pieces, fouls, offside, headers, weak shots and saves from corner kicks.",
        ),
        Option(
            "turns",
            rules.turns_per_half,
            "Turns per half",
            "How many turns each manager plays in each half.",
            minimum=1,
            maximum=MAX_TURNS_PER_HALF,
        ),
        Option(
            "adjacent_limit",
            rules.adjacent_in_line,
            "Most team-mates side by side",
            "The most players of one team that may stand next to each other in a row or a column.",
            choices=tuple(sorted({rules.adjacent_in_line, ADJACENT_VARIANT})),
        ),
        Option(
            "quick_setup",
            False,
            "Quick set-up",
            "Both teams start in the standard formation instead of placing their players one by one.",
        ),
        Option("hourglass", False, "Turn timer", "Each turn must be played within a time limit shown on screen."),
    )


def make_game(data: Mapping[str, Any]) -> SocceroGame:
    """The Soccero game from the parsed ``resources/games/soccero.toml``."""
    return SocceroGame(data)
