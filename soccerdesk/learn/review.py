"""The match review: each side's chance of winning at every position of a match.

The estimate at a position is the search bot's own judgement of it (the evaluation its
search gives the positions it reaches: ``tanh(goal_weight * advantage)``, seat 0's value in
``[-1, 1]``), turned into a chance ``(1 + value) / 2``. It is judged **from the chair of the
seat that decides there**, in worlds that seat cannot tell apart from the real one
(``state.determinize``): the review never knows more than the player did. At a die roll or a
shared secret choice both seats' estimates are averaged. A finished match is exact: the
winner's chance is 1, a draw is 0.5 each.

A position reached by a move that its chairs could not see (the other side's face-down pick,
not shown yet: "Home has chosen") keeps the estimate of the position before it
(:func:`judged_position`). Nothing the judging seat can see has changed there; judging it
afresh only added noise (a few trial games more or less lucky) and, worse, judged the hidden
pick as a random one, so the chart dipped and recovered at every face-down pick.

An estimate is the mean of :data:`WORLDS` trial games, so it is only good to a few points:
one position may come out ten points too high or too low. The turning points are therefore
the biggest swings **that last** (:func:`lasting_swing`): a step counts only as far as the
chance after it (the median of the next :data:`TURN_WINDOW` positions) differs from the chance
before it (the median of the previous ones), so a dip that is undone at once is no swing.

A review is worked out in slices (:func:`estimate_slice`, a module-level function the bot
process can run) so the window can show progress, and is kept with the match record under
``"review"`` (:func:`attach`), so opening the record again shows it at once. Every estimate
depends only on the record and the position's index (its random worlds are seeded from
both), so slices may be computed in any order, in any process, with the same result.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from statistics import median
from typing import Any

from soccerdesk.rules import CHANCE, HIDDEN, Action, State, get_game, sample_chance

REVIEW_VERSION = 2
"""2: face-down picks keep the estimate before them; turning points are swings that last."""

WORLDS = 12
"""Worlds judged per chair at a position where something is hidden from that chair."""

TURNING_POINTS = 3
"""How many turning points a review marks at most."""

MIN_SWING = 0.1
"""A swing smaller than this (in chance of winning, see :func:`lasting_swing`) is not a turning
point: an estimate's own noise makes smaller ones."""

TURN_WINDOW = 5
"""Positions on each side of a step whose median is the chance before and after it
(:func:`lasting_swing`): a dip of up to two positions moves neither median."""

TURNING_GAP = 4
"""Turning points are at least this many positions apart (one swing is not marked twice)."""

SLICE = 40
"""Positions per slice when the window works a review out in the background."""


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

    def chance(self, seat: int, index: int) -> float:
        """``seat``'s chance of winning at position ``index``."""
        value = self.home[index]
        return value if seat == 0 else 1.0 - value

    def swing(self, index: int) -> float:
        """The lasting change of seat 0's chance made by the action leading to position
        ``index`` (:func:`lasting_swing`)."""
        return lasting_swing(self.home, index)

    def levels(self, index: int) -> tuple[float, float]:
        """Seat 0's chance before and after the action leading to position ``index`` (:func:`levels`)."""
        return levels(self.home, index)

    def smoothed(self) -> tuple[float, ...]:
        """Seat 0's chance as the chart draws it (:func:`smoothed`)."""
        return smoothed(self.home)

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


def seat_value(state: State, seat: int, rng: random.Random, worlds: int = WORLDS) -> float:
    """Seat 0's value of ``state`` in ``[-1, 1]`` as ``seat`` can judge it: the mean of ``worlds``
    playouts, each from a world ``seat`` cannot tell apart from ``state``."""
    return sum(playout_value(state.determinize(seat, rng), seat, rng) for _ in range(worlds)) / worlds


def chairs(state: State) -> tuple[int, ...]:
    """The seats whose view judges ``state``: the one deciding, or both at a die roll or a shared pick."""
    players = tuple(p for p in state.current_players() if p != CHANCE)
    return players if len(players) == 1 else (0, 1)


def home_chance(state: State, rng: random.Random, worlds: int = WORLDS) -> float:
    """Seat 0's chance of winning at ``state`` (see the module docstring)."""
    if state.is_terminal():
        winner = state.winner
        return 0.5 if winner is None else (1.0 if winner == 0 else 0.0)
    seats = chairs(state)
    value = sum(seat_value(state, seat, rng, worlds) for seat in seats) / len(seats)
    return (1.0 + value) / 2.0


def _position_rng(record: Mapping[str, Any]) -> random.Random:
    # The same stream at every position, so an estimate depends on the record and index only.
    # (Two positions a move apart do not stay on the same luck for long: their trial games
    # draw from it differently, so each estimate keeps its own noise; see the module docstring.)
    return random.Random(f"review:{record.get('seed')}")


def unseen(state: State) -> bool:
    """Whether the move that reached ``state`` is hidden from every chair that judges it
    (:func:`chairs`): the other side's face-down pick before it is shown, or its secret draw."""
    if state.ply == 0 or state.is_terminal():
        return False
    rng = random.Random(0)  # which moves a world hides does not depend on its luck
    return all(state.determinize(seat, rng).history()[-1][1] is HIDDEN for seat in chairs(state))


def judged_position(states: Sequence[State], index: int) -> int:
    """The position whose estimate position ``index`` gets: itself, or, when the move that
    reached it is :func:`unseen` by its chairs, the position before it (and so on back)."""
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


def positions(record: Mapping[str, Any]) -> int:
    """How many positions a review of ``record`` has (one more than its actions)."""
    actions = record.get("actions")
    if not isinstance(actions, list):
        raise ReviewError("the record has no action list")
    return len(actions) + 1


def slices(record: Mapping[str, Any], size: int = SLICE) -> list[tuple[int, int]]:
    """``(start, stop)`` of the slices a review of ``record`` is worked out in."""
    total = positions(record)
    return [(start, min(start + size, total)) for start in range(0, total, size)]


def levels(home: Sequence[float], index: int, window: int = TURN_WINDOW) -> tuple[float, float]:
    """Seat 0's chance before and after the step to position ``index``: the median of the
    ``window`` positions before it and of the ``window`` positions from it on (fewer at the
    ends of the match). ``index`` is 1 to ``len(home) - 1``."""
    if not 0 < index < len(home):
        raise ValueError(f"no step leads to position {index} of {len(home)}")
    return median(home[max(0, index - window) : index]), median(home[index : index + window])


def lasting_swing(home: Sequence[float], index: int, window: int = TURN_WINDOW) -> float:
    """The part of the step to position ``index`` (``home[index] - home[index - 1]``) that lasts.

    That is the change from the chance before the step to the chance after it (:func:`levels`),
    but never more than the step itself, and nothing when the two go opposite ways. A step into
    a dip of one or two positions that is undone at once changes neither median, so it is no
    swing, and neither is the step out of it; a step that the chart keeps afterwards counts in
    full, and only at that step (its neighbours moved little themselves).
    """
    if not 0 < index < len(home):
        return 0.0
    step = home[index] - home[index - 1]
    before, after = levels(home, index, window)
    change = after - before
    if step * change <= 0:
        return 0.0
    return step if abs(step) < abs(change) else change


def smoothed(home: Sequence[float], window: int = TURN_WINDOW) -> tuple[float, ...]:
    """Seat 0's chance along the match as the chart draws it: at each position the median of the
    ``window`` positions centred on it (fewer at the ends). Each estimate carries its trial
    games' noise; a median keeps a lasting step (a goal) where it happened, as sharp as it was,
    and drops a dip of up to two positions that is undone at once, as :func:`lasting_swing`."""
    half = window // 2
    return tuple(median(home[max(0, i - half) : i + half + 1]) for i in range(len(home)))


def turning_points(home: Sequence[float], count: int = TURNING_POINTS) -> tuple[int, ...]:
    """The positions reached by the ``count`` biggest lasting swings (:func:`lasting_swing`, at
    least :data:`MIN_SWING`, at least :data:`TURNING_GAP` apart), in match order."""
    swings = sorted(
        ((abs(lasting_swing(home, i)), i) for i in range(1, len(home))),
        key=lambda si: (-si[0], si[1]),
    )
    chosen: list[int] = []
    for size, index in swings:
        if size < MIN_SWING or len(chosen) >= count:
            break
        if all(abs(index - other) >= TURNING_GAP for other in chosen):
            chosen.append(index)
    return tuple(sorted(chosen))


def build(record: Mapping[str, Any], home: Sequence[float]) -> Review:
    """The review of ``record`` from its estimates (one per position)."""
    if len(home) != positions(record):
        raise ReviewError(f"{len(home)} estimates for a match of {positions(record)} positions")
    rounded = tuple(round(v, 4) for v in home)
    return Review(str(record.get("game")), rounded, turning_points(rounded), fingerprint(record))


def review_match(
    record: Mapping[str, Any],
    progress: Callable[[int, int], None] | None = None,
    size: int = SLICE,
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
    return build(record, home)


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
    return Review(str(data.get("game")), tuple(float(v) for v in home), tuple(turning), str(data["fingerprint"]))


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
    "estimate_slice",
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
