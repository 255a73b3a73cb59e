"""The match review: each side's chance of winning at every position of a match.

The estimate at a position is the search bot's own judgement of it (the evaluation its
search gives the positions it reaches: ``tanh(goal_weight * advantage)``, seat 0's value in
``[-1, 1]``), turned into a chance ``(1 + value) / 2``. It is judged **from both chairs**, each
in worlds its seat cannot tell apart from the real one (``state.determinize``), and the two
judgements are averaged: neither knows more than its player did. (Until QA pass 17 a position
was judged from the chair of the seat deciding there only, and from both at a die roll or a
shared secret pick, so the line moved when the judge changed, by up to ten points where the two
hands differ, and a one-chair position had half the trial games.) A finished match is exact:
the winner's chance is 1, a draw is 0.5 each.

A position reached by a move the other side could not see (a face-down pick, not shown yet:
"Home has chosen") keeps the estimate of the position before it (:func:`judged_position`,
:func:`carried_positions`). Nothing public has changed there; judging it afresh only added
noise and, worse, judged the hidden pick as a random one, so the chart dipped and recovered
at every face-down pick.

An estimate is the mean of trial games, :data:`ROUND` from each chair at a time, until its
standard error is :data:`TARGET_ERROR` or :data:`WORLDS` games a chair are played. Near the
end of a match nearly every trial game ends in a win or a loss, and a dozen of them leave the
chance uncertain by ten points either way; such a position gets more games (they are short).
Even so one estimate may be a few points off. The turning points are therefore the biggest
swings **that last** (:func:`lasting_swing`): a step counts only as far as the chance after it
(the median of the next :data:`TURN_WINDOW` estimates) differs from the chance before it (the
median of the previous ones), so a dip that is undone at once is no swing. A position that
keeps the estimate before it is no estimate of its own there: in QA pass 17 one low estimate
after a Pass Re-Take, with the face-down pick after it keeping it, filled three of five places
of a median, and the step back up was called the match's biggest turning point.

A review is worked out in slices (:func:`estimate_slice`, a module-level function the bot
process can run) so the window can show progress, and is kept with the match record under
``"review"`` (:func:`attach`), so opening the record again shows it at once. Every estimate
depends only on the record and the position's index (its random worlds are seeded from
both), so slices may be computed in any order, in any process, with the same result.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from statistics import fmean, median, pvariance
from typing import Any

from soccerdesk.rules import CHANCE, HIDDEN, Action, State, get_game, sample_chance

REVIEW_VERSION = 3
"""2: face-down picks keep the estimate before them; turning points are swings that last.
3: every position judged from both chairs; a kept estimate counts once in the medians."""

WORLDS = 48
"""At most this many trial games (each in a world of its own) per chair for one estimate."""

ROUND = 8
"""Trial games per chair played at a time, until the estimate is known to :data:`TARGET_ERROR`."""

TARGET_ERROR = 0.03
"""The standard error (in chance of winning) an estimate is worked out to, when :data:`WORLDS`
games allow it: then the noise of the medians a swing is measured by stays well under
:data:`MIN_SWING`."""

TURNING_POINTS = 3
"""How many turning points a review marks at most."""

MIN_SWING = 0.1
"""A swing smaller than this (in chance of winning, see :func:`lasting_swing`) is not a turning
point: an estimate's own noise makes smaller ones."""

TURN_WINDOW = 5
"""Estimates on each side of a step whose median is the chance before and after it
(:func:`lasting_swing`): a dip of up to two estimates moves neither median."""

TURNING_GAP = 4
"""Turning points are at least this many positions apart (one swing is not marked twice)."""

SLICE = 40
"""Positions per slice when the window works a review out in the background."""

SLICES: dict[str, int] = {"soccer-go": 8}
"""Games whose positions cost more to judge, with a smaller slice. The bot process does one
thing at a time, so a computer opponent's move waits for the slice in progress: a Soccer-Go
slice of 40 positions took 3.5-7 s on a busy 2-core machine (its judge plays out whole
guessing rounds), one of Big Time Soccer, Pawn Soccer or Soccero about 1 s."""


class ReviewError(ValueError):
    """A stored review that does not belong to the record or is damaged."""


@dataclass(frozen=True, slots=True)
class Review:
    """Seat 0's chance of winning after each action of a match (``home[0]`` is the start).

    ``turning`` lists the indices of the positions reached by the biggest lasting swings
    (:func:`turning_points`), in match order.
    """

    game: str
    home: tuple[float, ...]
    turning: tuple[int, ...]
    fingerprint: str
    carried: tuple[int, ...] = ()
    """The positions that keep the estimate before them (:func:`carried_positions`)."""

    def chance(self, seat: int, index: int) -> float:
        """``seat``'s chance of winning at position ``index``."""
        value = self.home[index]
        return value if seat == 0 else 1.0 - value

    def swing(self, index: int) -> float:
        """The lasting change of seat 0's chance made by the action leading to position
        ``index`` (:func:`lasting_swing`)."""
        return lasting_swing(self.home, index, carried=self.carried)

    def levels(self, index: int) -> tuple[float, float]:
        """Seat 0's chance before and after the action leading to position ``index`` (:func:`levels`)."""
        return levels(self.home, index, carried=self.carried)

    def smoothed(self) -> tuple[float, ...]:
        """Seat 0's chance as the chart draws it (:func:`smoothed`)."""
        return smoothed(self.home, carried=self.carried)

    def biggest_turn(self) -> int | None:
        """The biggest turning point (the first of equals), or ``None`` when there is none."""
        return max(self.turning, key=lambda i: abs(self.swing(i))) if self.turning else None

    def to_json(self) -> dict[str, Any]:
        return {
            "version": REVIEW_VERSION,
            "game": self.game,
            "fingerprint": self.fingerprint,
            "home": [round(v, 4) for v in self.home],
            "turning": list(self.turning),
            "carried": list(self.carried),
        }


def fingerprint(record: Mapping[str, Any]) -> str:
    """What a review is of: the game, seed, options and actions of the record, hashed."""
    key = {k: record.get(k) for k in ("game", "seed", "options", "actions")}
    return hashlib.sha256(json.dumps(key, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:20]


@cache
def _search_bot(game_id: str) -> Any:
    """The search bot whose judgement the review uses (its policy, evaluation and settings)."""
    from soccerdesk.bots.levels import search_bot

    return search_bot(game_id, None, "review", max_iterations=1)


def playout_value(world: State, searcher: int, rng: random.Random) -> float:
    """Seat 0's value (in ``[-1, 1]``) of one playout from ``world``, as the search bot plays one:
    both sides follow its rollout policy (chance by its odds) for ``rollout_turns`` changes of
    the deciding seat (or to where its ``stop`` says a position is worth judging, or the end),
    then the position is judged by its evaluation from ``searcher``'s chair."""
    from soccerdesk.bots.search import state_value

    bot = _search_bot(world.game.id)
    settings = bot.settings
    state, start = world, world
    turns = 0
    last: tuple[int, ...] = ()
    for _ in range(settings.rollout_plies):
        players = state.current_players()
        if not players or bot.stop is not None and state is not start and bot.stop(start, state):
            break
        if players == (CHANCE,):
            state = state.apply_unchecked(CHANCE, sample_chance(state, rng))
            continue
        if players != last:
            turns += 1
            if turns > settings.rollout_turns:
                break
            last = players
        picks = [(seat, _pick(bot, state, seat, rng)) for seat in players]  # all from the same position
        for seat, action in picks:
            if seat in state.current_players() and action in state.legal_actions(seat):
                state = state.apply_unchecked(seat, action)
    return state_value(state, bot.evaluation, settings.goal_weight, searcher)


def _pick(bot: Any, state: State, seat: int, rng: random.Random) -> Action:
    legal = state.legal_actions(seat)
    if len(legal) == 1:
        return legal[0]
    if rng.random() < bot.settings.rollout_random:
        return legal[rng.randrange(len(legal))]
    action: Action = bot.policy(state, seat, legal, rng)
    return action


def playouts(state: State, seat: int, rng: random.Random, worlds: int = WORLDS) -> list[float]:
    """Seat 0's value (in ``[-1, 1]``) of ``worlds`` playouts from ``state`` as ``seat`` can judge
    it, each from a world ``seat`` cannot tell apart from ``state``."""
    return [playout_value(state.determinize(seat, rng), seat, rng) for _ in range(worlds)]


def seat_value(state: State, seat: int, rng: random.Random, worlds: int = WORLDS) -> float:
    """Seat 0's value of ``state`` in ``[-1, 1]`` as ``seat`` can judge it: the mean of ``worlds``
    playouts (:func:`playouts`)."""
    return sum(playouts(state, seat, rng, worlds)) / worlds


CHAIRS = (0, 1)
"""Every position is judged from both chairs (see the module docstring)."""


def spread(values: Sequence[float]) -> float:
    """The variance of one chair's playout ``values``. When every trial game ended in the same
    side's win it is no proof that the other side cannot win: the spread is then that of a
    chance of one in ``len(values) + 2`` (Laplace's rule: one won and one lost game more)."""
    variance = pvariance(values)
    if variance == 0.0 and abs(values[0]) == 1.0:
        p = 1.0 / (len(values) + 2)
        variance = 4.0 * p * (1.0 - p)  # a game worth +1 or -1 with chance p of the other
    return variance


def error(values: Mapping[int, Sequence[float]]) -> float:
    """The standard error of the chance that the playouts ``values`` (per chair) give: half the
    standard error of the mean of the chairs' mean values."""
    variance = sum(spread(v) / len(v) for v in values.values()) / len(values) ** 2
    return math.sqrt(variance) / 2


def home_chance(state: State, rng: random.Random, worlds: int = WORLDS) -> float:
    """Seat 0's chance of winning at ``state`` (see the module docstring): playouts from each
    chair, :data:`ROUND` at a time (chair 0's, then chair 1's), until the chance is known to
    :data:`TARGET_ERROR` or each chair has played ``worlds``."""
    if state.is_terminal():
        winner = state.winner
        return 0.5 if winner is None else (1.0 if winner == 0 else 0.0)
    values: dict[int, list[float]] = {seat: [] for seat in CHAIRS}
    while len(values[0]) < worlds:
        more = min(ROUND, worlds - len(values[0]))
        for seat in CHAIRS:
            values[seat].extend(playouts(state, seat, rng, more))
        if error(values) <= TARGET_ERROR:
            break
    value = sum(fmean(v) for v in values.values()) / len(CHAIRS)
    return (1.0 + value) / 2.0


def _position_rng(record: Mapping[str, Any]) -> random.Random:
    # The same stream at every position, so an estimate depends on the record and index only.
    # (Two positions a move apart do not stay on the same luck for long: their trial games
    # draw from it differently, so each estimate keeps its own noise; see the module docstring.)
    return random.Random(f"review:{record.get('seed')}")


def unseen(state: State) -> bool:
    """Whether the move that reached ``state`` is a player's own secret: a face-down pick not
    shown yet, or a card put aside face down, which the other side cannot see."""
    if state.ply == 0 or state.is_terminal():
        return False
    mover = state.history()[-1][0]
    if mover not in CHAIRS:
        return False  # chance: a draw its receiver sees is judged afresh (by both chairs)
    rng = random.Random(0)  # which moves a world hides does not depend on its luck
    return state.determinize(1 - mover, rng).history()[-1][1] is HIDDEN


def judged_position(states: Sequence[State], index: int) -> int:
    """The position whose estimate position ``index`` gets: itself, or, when the move that
    reached it is :func:`unseen`, the position before it (and so on back)."""
    while index > 0 and unseen(states[index]):
        index -= 1
    return index


def estimate_slice(game_id: str, record: Mapping[str, Any], start: int, stop: int, worlds: int = WORLDS) -> list[float]:
    """Seat 0's chance of winning at positions ``start`` to ``stop - 1`` of ``record``.

    Module-level and plain-valued so the bot process can run it (``pool.submit``).
    """
    game = get_game(game_id)
    states = game.replay(record)
    if not 0 <= start <= stop <= len(states):
        raise ValueError(f"positions {start}..{stop} are outside this match (0..{len(states)})")
    judged: dict[int, float] = {}
    for i in range(start, stop):
        j = judged_position(states, i)
        if j not in judged:
            judged[j] = home_chance(states[j], _position_rng(record), worlds)
        judged[i] = judged[j]
    return [judged[i] for i in range(start, stop)]


def carried_positions(game_id: str, record: Mapping[str, Any]) -> tuple[int, ...]:
    """The positions of ``record`` that keep the estimate before them (:func:`judged_position`).

    Module-level and plain-valued so the bot process can run it (``pool.submit``)."""
    states = get_game(game_id).replay(record)
    return tuple(i for i in range(1, len(states)) if unseen(states[i]))


def positions(record: Mapping[str, Any]) -> int:
    """How many positions a review of ``record`` has (one more than its actions)."""
    actions = record.get("actions")
    if not isinstance(actions, list):
        raise ReviewError("the record has no action list")
    return len(actions) + 1


def slices(record: Mapping[str, Any], size: int | None = None) -> list[tuple[int, int]]:
    """``(start, stop)`` of the slices a review of ``record`` is worked out in (``size``
    positions each; by default the game's, :data:`SLICES`)."""
    total = positions(record)
    if size is None:
        size = SLICES.get(str(record.get("game")), SLICE)
    return [(start, min(start + size, total)) for start in range(0, total, size)]


def estimates(home: Sequence[float], carried: Iterable[int] = ()) -> tuple[list[float], list[int]]:
    """The match's estimates, each once, and for each position the index of its estimate: a
    position in ``carried`` keeps the estimate before it, so it is no estimate of its own."""
    kept = set(carried)
    values: list[float] = []
    owner: list[int] = []
    for index, value in enumerate(home):
        if index == 0 or index not in kept:
            values.append(value)
        owner.append(len(values) - 1)
    return values, owner


def levels(
    home: Sequence[float], index: int, window: int = TURN_WINDOW, carried: Iterable[int] = ()
) -> tuple[float, float]:
    """Seat 0's chance before and after the step to position ``index``: the median of the
    ``window`` estimates before it and of the ``window`` estimates from it on (fewer at the
    ends of the match). A carried position (:func:`carried_positions`) is no estimate of its
    own: a face-down pick and the position before it count once. ``index`` is 1 to
    ``len(home) - 1``."""
    if not 0 < index < len(home):
        raise ValueError(f"no step leads to position {index} of {len(home)}")
    values, owner = estimates(home, carried)
    last = owner[index - 1]
    return median(values[max(0, last - window + 1) : last + 1]), median(values[owner[index] : owner[index] + window])


def lasting_swing(home: Sequence[float], index: int, window: int = TURN_WINDOW, carried: Iterable[int] = ()) -> float:
    """The part of the step to position ``index`` (``home[index] - home[index - 1]``) that lasts.

    That is the change from the chance before the step to the chance after it (:func:`levels`),
    but never more than the step itself, and nothing when the two go opposite ways. A step into
    a dip of one or two estimates that is undone at once changes neither median, so it is no
    swing, and neither is the step out of it; a step that the chart keeps afterwards counts in
    full, and only at that step (its neighbours moved little themselves).
    """
    if not 0 < index < len(home):
        return 0.0
    step = home[index] - home[index - 1]
    before, after = levels(home, index, window, carried)
    change = after - before
    if step * change <= 0:
        return 0.0
    return step if abs(step) < abs(change) else change


def smoothed(home: Sequence[float], window: int = TURN_WINDOW, carried: Iterable[int] = ()) -> tuple[float, ...]:
    """Seat 0's chance along the match as the chart draws it: at each position the median of the
    ``window`` estimates centred on its own (fewer at the ends). Each estimate carries its trial
    games' noise; a median keeps a lasting step (a goal) where it happened, as sharp as it was,
    and drops a dip of up to two estimates that is undone at once, as :func:`lasting_swing`."""
    values, owner = estimates(home, carried)
    half = window // 2
    line = [median(values[max(0, e - half) : e + half + 1]) for e in range(len(values))]
    return tuple(line[e] for e in owner)


def turning_points(home: Sequence[float], count: int = TURNING_POINTS, carried: Iterable[int] = ()) -> tuple[int, ...]:
    """The positions reached by the ``count`` biggest lasting swings (:func:`lasting_swing`, at
    least :data:`MIN_SWING`, at least :data:`TURNING_GAP` apart), in match order."""
    kept = tuple(carried)
    swings = sorted(
        ((abs(lasting_swing(home, i, carried=kept)), i) for i in range(1, len(home))),
        key=lambda si: (-si[0], si[1]),
    )
    chosen: list[int] = []
    for size, index in swings:
        if size < MIN_SWING or len(chosen) >= count:
            break
        if all(abs(index - other) >= TURNING_GAP for other in chosen):
            chosen.append(index)
    return tuple(sorted(chosen))


def build(record: Mapping[str, Any], home: Sequence[float], carried: Iterable[int] = ()) -> Review:
    """The review of ``record`` from its estimates (one per position) and the positions that
    keep the estimate before them (:func:`carried_positions`)."""
    if len(home) != positions(record):
        raise ReviewError(f"{len(home)} estimates for a match of {positions(record)} positions")
    rounded = tuple(round(v, 4) for v in home)
    kept = tuple(sorted(set(carried)))
    return Review(str(record.get("game")), rounded, turning_points(rounded, carried=kept), fingerprint(record), kept)


def review_match(
    record: Mapping[str, Any],
    progress: Callable[[int, int], None] | None = None,
    size: int | None = None,
    worlds: int = WORLDS,
) -> Review:
    """The whole review of ``record`` in this process, ``progress(done, total)`` after each slice."""
    game_id = str(record.get("game"))
    total = positions(record)
    home: list[float] = []
    for start, stop in slices(record, size):
        home.extend(estimate_slice(game_id, record, start, stop, worlds))
        if progress is not None:
            progress(stop, total)
    return build(record, home, carried_positions(game_id, record))


def stored(record: Mapping[str, Any]) -> Review | None:
    """The review kept with ``record``, or ``None`` when it has none or one for another match.

    A damaged review raises :class:`ReviewError`.
    """
    data = record.get("review")
    if data is None:
        return None
    if not isinstance(data, Mapping) or data.get("version") != REVIEW_VERSION:
        raise ReviewError("the stored review is not one this build reads")
    if data.get("fingerprint") != fingerprint(record):
        return None  # the record changed (a match played on): the review must be worked out again
    home, turning = data.get("home"), data.get("turning")
    if not isinstance(home, list) or not all(isinstance(v, (int, float)) and 0.0 <= v <= 1.0 for v in home):
        raise ReviewError("the stored review's chances are damaged")
    if len(home) != positions(record):
        raise ReviewError("the stored review does not cover the whole match")
    if not isinstance(turning, list) or not all(isinstance(i, int) and 0 < i < len(home) for i in turning):
        raise ReviewError("the stored review's turning points are damaged")
    carried = data.get("carried")
    if not isinstance(carried, list) or not all(isinstance(i, int) and 0 < i < len(home) for i in carried):
        raise ReviewError("the stored review's carried positions are damaged")
    return Review(
        str(data.get("game")), tuple(float(v) for v in home), tuple(turning), str(data["fingerprint"]), tuple(carried)
    )


def attach(record: Mapping[str, Any], review: Review) -> dict[str, Any]:
    """A copy of ``record`` that keeps ``review`` (``Game.replay`` ignores the extra key)."""
    if review.fingerprint != fingerprint(record):
        raise ReviewError("this review is of another match")
    return {**record, "review": review.to_json()}


__all__ = [
    "REVIEW_VERSION",
    "Review",
    "ReviewError",
    "attach",
    "build",
    "carried_positions",
    "estimate_slice",
    "estimates",
    "fingerprint",
    "home_chance",
    "judged_position",
    "lasting_swing",
    "levels",
    "review_match",
    "slices",
    "stored",
    "turning_points",
]
