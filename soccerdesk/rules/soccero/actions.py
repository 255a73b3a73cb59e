"""Soccero actions: small values with a text form that parses back.

Every action is interned: one object per text, so the rules compare actions by identity
(fast on a board with hundreds of legal moves) and ``parse_action(str(a)) is a``.

Texts (``SQ`` is a square like ``K16``; ``DIR`` one of N NE E SE S SW W NW)::

    toss 0 | toss 1                 chance: the coin toss (winner kicks off)
    defend 1 | defend 32            choose the goal line to defend
    place SQ                        set up the next player of the formation
    move                            the team with the ball moves players this turn
    kick D | shoot D                kick (declared shot) with D = 1 or 2 distance dice
    kick D normal | shoot D normal  set pieces: kick under the normal kicking rules
    punt                            extended: the goalkeeper picks the ball up to punt it
    roll N                          chance: a die (movement, header, throw-in length)
    keeper N                        chance: the goalkeeper's save die
    kick-roll SYMBOL N              chance: kick die symbol (direct/curve/air) and distance
    move SQ-SQ [ball SQ]            one straight-line player move; ``ball``: where the ball ends
    path SQ DIRn [DIRn] [out|goal]  the ball's route: legs of a kick, out = over a line
    stop | let                      an air ball over one of your players: stop it or not
    header | no-header              a ball arriving in the air: head it on or keep it
    head DIR | throw DIR            the direction of a header / a throw-in
    pick SQ                         choose the player (or corner, spot) on that square
    to SQ                           free move / wall: the chosen player goes there
    done                            no more free moves (or wall players)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

from soccerdesk.rules.api import IllegalAction
from soccerdesk.rules.soccero.board import DIRECTION_INDEX, DIRECTIONS, Board

_A = TypeVar("_A")

WORDS = ("move", "punt", "stop", "let", "header", "no-header", "done")
SQUARE_VERBS = ("place", "pick", "to")
DIE_KINDS = ("toss", "roll", "keeper", "defend")
AIM_VERBS = ("head", "throw")
SYMBOLS = ("direct", "curve", "air")
FINISHES = ("", "out", "goal")


@dataclass(frozen=True, slots=True, eq=False)
class Word:
    """A decision that is a single word: ``move``, ``punt``, ``stop``, ``let``, ..."""

    word: str

    def __str__(self) -> str:
        return self.word


@dataclass(frozen=True, slots=True, eq=False)
class Die:
    """A number: a die or coin (``roll 4``, ``keeper 6``, ``toss 1``) or ``defend 32``."""

    kind: str
    value: int

    def __str__(self) -> str:
        return f"{self.kind} {self.value}"


@dataclass(frozen=True, slots=True, eq=False)
class KickChoice:
    """Kick instead of moving: ``dice`` distance dice, ``shot`` declared, ``normal`` rules at a set piece."""

    shot: bool
    dice: int
    normal: bool = False

    def __str__(self) -> str:
        return f"{'shoot' if self.shot else 'kick'} {self.dice}" + (" normal" if self.normal else "")


@dataclass(frozen=True, slots=True, eq=False)
class KickRoll:
    """Chance: the kick die's symbol and the distance dice total."""

    symbol: str
    total: int

    def __str__(self) -> str:
        return f"kick-roll {self.symbol} {self.total}"


@dataclass(frozen=True, slots=True, eq=False)
class Step:
    """One player moves in a straight line from ``start`` to ``end``; the ball ends on ``ball`` (-1: not carried)."""

    start: int
    end: int
    ball: int
    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True, eq=False)
class Path:
    """The ball's route from ``start``: ``legs`` of (direction, squares); ``finish`` out/goal/''."""

    start: int
    legs: tuple[tuple[int, int], ...]
    finish: str
    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True, eq=False)
class Aim:
    """The direction of a header or a throw-in."""

    verb: str
    direction: int

    def __str__(self) -> str:
        return f"{self.verb} {DIRECTIONS[self.direction][0]}"


@dataclass(frozen=True, slots=True, eq=False)
class SquareChoice:
    """A decision naming a square: ``place K16``, ``pick A1``, ``to K12``."""

    verb: str
    square: int
    text: str

    def __str__(self) -> str:
        return self.text


class Actions:
    """The interned actions of one board, built once; :meth:`parse` is ``Game.parse_action``."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self._by_text: dict[str, object] = {}
        self._carries: dict[tuple[int, int, int], Step] = {}
        self._paths: dict[tuple[int, tuple[tuple[int, int], ...], str], Path] = {}
        self.words = {w: self._intern(Word(w)) for w in WORDS}
        self.dice = {
            (k, v): self._intern(Die(k, v))
            for k in ("toss", "roll", "keeper")
            for v in range(0 if k == "toss" else 1, 2 if k == "toss" else 7)
        }
        for row in (1, board.rows):
            self.dice[("defend", row)] = self._intern(Die("defend", row))
        self.kicks = {
            (s, d, n): self._intern(KickChoice(s, d, n)) for s in (False, True) for d in (1, 2) for n in (False, True)
        }
        self.kick_rolls = {(sym, t): self._intern(KickRoll(sym, t)) for sym in SYMBOLS for t in range(1, 13)}
        self.aims = {(v, d): self._intern(Aim(v, d)) for v in AIM_VERBS for d in range(8)}
        self.squares = {
            (v, sq): self._intern(SquareChoice(v, sq, f"{v} {board.names[sq]}"))
            for v in SQUARE_VERBS
            for sq in range(board.size)
        }
        self.place = tuple(self.squares[("place", sq)] for sq in range(board.size))
        # Plain steps (no ball) for every straight move of up to 6 squares.
        self.steps: dict[tuple[int, int], Step] = {}
        for sq in range(board.size):
            for ray in board.rays[sq]:
                for end in ray[:6]:
                    self.steps[(sq, end)] = self._intern(
                        Step(sq, end, -1, f"move {board.names[sq]}-{board.names[end]}")
                    )
        # line_moves[sq][d][k - 1]: (k, d, end square, plain move) for k squares from sq in direction d.
        self.line_moves = tuple(
            tuple(
                tuple((k, d, end, self.steps[(sq, end)]) for k, end in enumerate(ray[:6], 1))
                for d, ray in enumerate(board.rays[sq])
            )
            for sq in range(board.size)
        )
        # open_moves[sq]: every move of up to 6 squares from sq in line_moves order, and the bit
        # mask of their lengths: the reach of a player with nobody within six squares of him.
        self.open_moves = tuple(
            (
                tuple(m for line in lines for m in line),
                sum(1 << k for k in {m[0] for line in lines for m in line}),
            )
            for lines in self.line_moves
        )

    def _intern(self, action: _A) -> _A:
        self._by_text[str(action)] = action
        return action

    def step(self, start: int, end: int, ball: int = -1) -> Step:
        """The move ``start``-``end`` leaving the ball on ``ball`` (-1: the mover does not take it)."""
        if ball < 0:
            return self.steps[(start, end)]
        key = (start, end, ball)
        found = self._carries.get(key)
        if found is None:
            names = self.board.names
            text = f"move {names[start]}-{names[end]} ball {names[ball]}"
            found = self._by_text.get(text)  # type: ignore[assignment]
            if found is None:
                found = self._intern(Step(start, end, ball, text))
            self._carries[key] = found
        return found

    def path(self, start: int, legs: tuple[tuple[int, int], ...], finish: str) -> Path:
        """The ball route from ``start`` along ``legs``; ``finish`` is '', 'out' or 'goal'."""
        key = (start, legs, finish)
        found = self._paths.get(key)
        if found is None:
            text = (
                "path "
                + self.board.names[start]
                + "".join(f" {DIRECTIONS[d][0]}{n}" for d, n in legs)
                + (f" {finish}" if finish else "")
            )
            found = self._by_text.get(text)  # type: ignore[assignment]
            if found is None:
                found = self._intern(Path(start, legs, finish, text))
            self._paths[key] = found
        return found

    def parse(self, text: str) -> object:
        """The action written ``text``. Text that is no Soccero action raises IllegalAction."""
        if not isinstance(text, str):
            raise IllegalAction(f"not a Soccero action: {text!r}")
        found = self._by_text.get(text)
        if found is not None:
            return found
        words = text.split(" ")
        try:
            if words[0] == "move" and len(words) in (2, 4) and words[1].count("-") == 1:
                a, b = (self.board.square(w) for w in words[1].split("-"))
                if b not in self.board.rays[a] and not any(b in r for r in self.board.rays[a]):
                    raise ValueError("not a straight line")
                if len(words) == 4 and words[2] == "ball":
                    return self.step(a, b, self.board.square(words[3]))
                if len(words) == 2:
                    return self.step(a, b)
            if words[0] == "path" and len(words) >= 3:
                finish = words[-1] if words[-1] in ("out", "goal") else ""
                legs_text = words[2 : len(words) - (1 if finish else 0)]
                if 1 <= len(legs_text) <= 2:
                    legs = []
                    for leg in legs_text:
                        name = leg.rstrip("0123456789")
                        legs.append((DIRECTION_INDEX[name], int(leg[len(name) :])))
                    if all(0 <= n <= 40 for _, n in legs):
                        return self.path(self.board.square(words[1]), tuple(legs), finish)
        except (ValueError, KeyError):
            pass
        raise IllegalAction(f"not a Soccero action: {text!r}")
