"""The Soccero match state (the rules: :mod:`.play`; the extended rules: :mod:`.set_pieces`).

A state is a frozen value. ``phase`` says what is owed next:

``toss`` (chance) → ``ends`` → ``setup`` (one ``place`` per player) → kick-off →
``turn`` (the team with the ball: move or kick) → ``roll`` (chance) → ``moving`` (one
straight-line move per action until the die is used) — or ``kick-roll`` (chance) →
``kick-path`` → ``air-stop`` / ``save`` / ``fetch`` → the other team's turn.
Extended rules add ``header``, ``header-roll``, ``header-aim``, ``block`` and the set-piece
phases ``sp-spot``, ``sp-taker``, ``wall``, ``wall-clear``, ``free``, ``sp-kick``, ``throw-roll``, ``throw-aim``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from soccerdesk.rules.api import CHANCE, Event, State
from soccerdesk.rules.soccero.board import HIGH, LOW, Board

PLAYERS = 11
"""Players per team; player 0 of a team (index ``team * 11``) is its goalkeeper."""

NOBODY = -1


@dataclass(frozen=True, slots=True)
class Config:
    """Options of one match, kept in every state (they change what is legal)."""

    extended: bool
    adjacent_limit: int
    turns: int
    quick_setup: bool
    turn_timer: int


def team_of(player: int) -> int:
    return 0 if player < PLAYERS else 1


def goalkeeper(team: int) -> int:
    return team * PLAYERS


def team_players(team: int) -> range:
    return range(team * PLAYERS, team * PLAYERS + PLAYERS)


@dataclass(frozen=True, slots=True)
class SocceroState(State):
    """One position of a Soccero match (see the module docstring for the phases).

    ``pos`` holds the square of each of the 22 players (-1: not yet set up); players
    0..10 are seat 0's (0 = goalkeeper), 11..21 seat 1's. ``holder`` controls the ball
    (-1: loose). ``red`` carried the ball on his last move and may not carry it again
    (rulebook "Carrying the Ball"). ``forced`` lost the ball in a steal, shares the
    square and must move off first (rulebook "Stealing the Ball").
    """

    cfg: Config
    phase: str
    team: int  # the team whose turn it is
    decider: int  # the seat that owes the decision now (in chance phases: unused)
    pos: tuple[int, ...]
    ball: int
    holder: int
    red: int
    points: int  # movement points still to use this turn
    moved: int  # bit per player who moved this turn
    forced: int
    goals: tuple[int, int]
    half: int
    # Turns each team has completed in this half (docs/rulings.md, Soccero, "Turns"): a set
    # piece can give a team two turns in a row, so the half ends on both counts, not their sum.
    turns: tuple[int, int]
    low_team: int  # the team defending row 1 this half
    kickoff_team: int  # the team that kicked off the first half
    kick: tuple[Any, ...] = ()  # (shot, dice, mode, symbol, total, kicker): the kick under way
    path: tuple[int, ...] = ()  # players still to be asked about an air ball / pending squares
    pending: tuple[Any, ...] = ()  # phase-specific data (placement queue, candidates, ...)
    setpiece: tuple[Any, ...] = ()  # (kind, team, spot, taker, direct) while one is prepared
    steal: tuple[int, ...] = ()  # extended: (victim team, square, stealer) until that team rolls
    banned: int = NOBODY  # extended: the set-piece taker who may not touch the ball yet
    # Extended: (taker, square) of the set piece kicked in this turn. The rules put him on that
    # square, so the turn's end does not judge him there (docs/rulings.md); end_turn clears it.
    taker_square: tuple[int, ...] = ()
    offside: int = 0  # extended: bit per player in an offside position at the last kick
    back_pass: int = NOBODY  # extended: a goalkeeper who got the ball kicked to him by a team-mate
    # Extended: the team whose turn it is while ``team`` is the team of a player heading the
    # ball in that turn (NOBODY otherwise); end_turn gives ``team`` back to it.
    turn_team: int = NOBODY
    # Speed only, never part of the position: moves worked out earlier, carried to the next
    # states (with the positions they hold for) so unchanged players need no new work.
    board: ClassVar[Board]  # the game's board, set with ``game`` when the game is made

    _memo: dict[int, Any] | None = field(default=None, compare=False, repr=False)
    _occ: dict[int, int] | None = field(default=None, init=False, compare=False, repr=False)
    _taken: int | None = field(default=None, init=False, compare=False, repr=False)
    _shape: dict[Any, Any] | None = field(default=None, init=False, compare=False, repr=False)
    _plan: dict[Any, Any] | None = field(default=None, init=False, compare=False, repr=False)

    # --- small lookups ---------------------------------------------------------------

    def occupancy(self) -> dict[int, int]:
        """square → player on it. For the square two players share after a steal: the one
        holding the ball, else the one not obliged to leave it (``forced``), so a ball that
        stops there is his (docs/rulings.md, Soccero, "Steal")."""
        occ = self._occ
        if occ is None:
            occ = {}
            bits = 0
            holder, forced = self.holder, self.forced
            for p, sq in enumerate(self.pos):
                if sq < 0:
                    continue
                q = occ.get(sq)
                if q is None or p == holder or (q == forced and q != holder):
                    occ[sq] = p
                    bits |= 1 << sq
            object.__setattr__(self, "_occ", occ)
            object.__setattr__(self, "_taken", bits)
        return occ

    def taken_bits(self) -> int:
        """The occupied squares as one bit mask (bit ``sq``)."""
        if self._occ is None:
            self.occupancy()
        return self._taken  # type: ignore[return-value]

    def players_on(self, sq: int) -> list[int]:
        return [p for p, s in enumerate(self.pos) if s == sq]

    def defends(self, team: int) -> int:
        """The end (LOW or HIGH) whose goal ``team`` defends this half."""
        return LOW if team == self.low_team else HIGH

    def attacks(self, team: int) -> int:
        return HIGH if team == self.low_team else LOW

    # --- the contract ----------------------------------------------------------------

    def current_players(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == "over":
            return ()
        if phase in CHANCE_PHASES:
            return (CHANCE,)
        return (self.decider,)

    @property
    def score(self) -> tuple[int, int]:
        return self.goals

    def _chance_outcomes(self) -> list[tuple[Any, float]]:
        return play.chance_outcomes(self)

    def _legal_actions(self, seat: int) -> list[Any]:
        return play.legal_actions(self)

    def _apply(self, seat: int, action: Any, events: list[Event]) -> State:
        return play.apply(self, action, events)

    def _view(self, seat: int | None) -> dict[str, Any]:
        return play.view(self)

    def explain_illegal(self, seat: int, action: Any) -> str:
        return play.explain_illegal(self, seat, action)


def _make_evolve() -> Any:
    """Build ``evolve(state, **changes)``: ``dataclasses.replace`` without its checks (hot path).

    Written out field by field once, so a new state costs one attribute copy per field;
    the caches start empty, as in a new state. A name that is no field raises TypeError.
    """
    names = [f.name for f in fields(SocceroState) if f.init]
    caches = [f.name for f in fields(SocceroState) if not f.init]
    # One keyword-only parameter per field, defaulting to "unchanged": each field is set once.
    # The slots' own setters skip the frozen class's __setattr__ and the lookup by name.
    lines = [f"def evolve(s, *, {', '.join(f'{name}=_same' for name in names)}):", "    new = _new(_cls)"]
    lines += [f"    _set_{name}(new, s.{name} if {name} is _same else {name})" for name in names]
    lines += [f"    _set_{name}(new, None)" for name in caches]
    lines += ["    return new"]
    scope: dict[str, Any] = {"_new": object.__new__, "_cls": SocceroState, "_same": object()}
    scope.update({f"_set_{name}": getattr(SocceroState, name).__set__ for name in names + caches})
    exec("\n".join(lines), scope)  # noqa: S102  (generated from the dataclass fields above)
    return scope["evolve"]


evolve = _make_evolve()
"""``evolve(state, **changes)``: a copy of ``state`` with some fields changed (like ``dataclasses.replace``)."""

CHANCE_PHASES = frozenset({"toss", "roll", "kick-roll", "save", "header-roll", "throw-roll"})

from soccerdesk.rules.soccero import play  # noqa: E402  (play needs the names above)
