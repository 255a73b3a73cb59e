"""Hint: the search bot's suggestion for the seat to move, with one line of why.

The suggestion is what the search bot (the ``hard`` level's search, with a fixed number of
playouts and no clock) would play in the seat's place. Like every bot it decides from
``state.determinize(seat, rng)``: a world the seat cannot tell apart from the real one, so a
hint never uses the opponent's hidden cards or secret pick. The same view and the same seed
give the same hint.

The line of why is worked out from the same things: whether the action scores, how the
search bot's playouts went with it against the next best action it tried, and how its
evaluation of the seat's position changes with it (in a world the seat could imagine).

:func:`hint_for_record` is module-level and takes plain values, so the app's bot process runs
it (``pool.submit(hint_for_record, game_id, record, seat, seed)``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from soccerdesk.rules import Action, State, get_game

CLEAR_GAIN = 0.03
"""A lead in the search bot's playouts (chance of winning) worth telling the learner about."""

TRIAL_GAMES = "in trial games played on from here"
"""The search's playouts, as a player would say it (QA pass 10: "the search bot's playouts" is jargon)."""

FELT_CHANGE = 0.05
"""A change of the evaluation (goals' worth) worth telling the learner about."""


@dataclass(frozen=True, slots=True)
class Hint:
    """The suggested action (its text), why in one line, and the seat's chance of winning with it
    as the search bot's playouts saw it (``None`` when it decided without playouts)."""

    action: str
    why: str
    chance: float | None = None


def _bot(game_id: str) -> Any:
    """The levels' search with ``HINT_ITERATIONS`` playouts and no clock (a hint takes about as
    long as a ``hard`` move; in Soccero as long as an ``expert`` one, about a tenth of a second)."""
    from soccerdesk.bots.levels import HINT_ITERATIONS, search_bot

    return search_bot(game_id, None, "hint", max_iterations=HINT_ITERATIONS.get(game_id, 100))


def suggest(state: State, seat: int, seed: int) -> Hint:
    """The search bot's suggestion for ``seat`` at ``state`` (see the module docstring).

    Raises :class:`soccerdesk.rules.IllegalAction` when ``seat`` does not decide now.
    """
    legal = state.legal_actions(seat)
    bot = _bot(state.game.id)
    bot.last_statistics = {}
    action = bot.decide(state, seat, random.Random(seed))
    statistics: dict[Action, tuple[int, float]] = dict(bot.last_statistics)
    if len(legal) == 1:
        return Hint(str(action), "It is the only thing you can do here.")
    world = state.determinize(seat, random.Random(seed))
    return Hint(str(action), *_why(world, seat, action, statistics, bot.evaluation))


def _why(
    world: State, seat: int, action: Action, statistics: Mapping[Action, tuple[int, float]], evaluation: Any
) -> tuple[str, float | None]:
    """One line of why, and the chance the playouts gave the action (for ``seat``)."""
    chance: float | None = None
    search_line = ""
    clear = False
    if action in statistics:
        chance = (1.0 + statistics[action][1]) / 2.0
        others = [(1.0 + v) / 2.0 for a, (_, v) in statistics.items() if a != action]
        clear = bool(others) and chance - max(others) >= CLEAR_GAIN
        if clear:
            search_line = (
                f"{TRIAL_GAMES}, this one won {chance:.0%} of them, "
                f"{(chance - max(others)) * 100:.0f} points more than the next best choice"
            )
        elif others:
            search_line = f"{TRIAL_GAMES}, no other choice did better (this one won {chance:.0%} of them)"
    after = _after(world, seat, action)
    sign = 1.0 if seat == 0 else -1.0
    effect = ""
    if after is not None:
        if after.score[seat] > world.score[seat]:
            effect = "it scores"
        elif after.is_terminal():
            effect = "it ends the match"
        else:
            change = sign * (evaluation(after, seat) - evaluation(world, seat))
            if change >= FELT_CHANGE:
                effect = f"it improves your position by about {change:.1f} of a goal"
            elif change <= -FELT_CHANGE and clear:
                effect = f"it costs {-change:.1f} of a goal for now but pays off later"
    parts = [p for p in (effect, search_line) if p]
    if not parts:
        parts = ["the game's rules of thumb rank it first here"]
    line = "; ".join(parts)
    return line[:1].upper() + line[1:] + ".", chance


def _after(world: State, seat: int, action: Action) -> State | None:
    """``world`` after ``seat`` plays ``action``, when that is a move of its own (not a pick made
    at the same time as the opponent's, whose effect depends on the other pick)."""
    if world.current_players() != (seat,):
        return None
    return world.apply(seat, action)


def hint_for_record(game_id: str, record: Mapping[str, Any], seat: int, seed: int) -> tuple[str, str, float | None]:
    """:func:`suggest` at the position ``record`` reaches, as plain values (for the bot process)."""
    found = suggest(get_game(game_id).load(record), seat, seed)
    return found.action, found.why, found.chance


HINTS_KEY = "hints"
"""Where a match record counts the hints each seat used: ``record["hints"] == [home, away]``."""


def hints_used(record: Mapping[str, Any]) -> tuple[int, int]:
    """The hints each seat used in ``record`` (``(0, 0)`` when it says nothing)."""
    found = record.get(HINTS_KEY)
    if found is None:
        return (0, 0)
    if not isinstance(found, list) or len(found) != 2 or not all(isinstance(n, int) and n >= 0 for n in found):
        raise ValueError("the record's hint count is damaged")
    return (found[0], found[1])


def count_hint(record: Mapping[str, Any], seat: int) -> dict[str, Any]:
    """A copy of ``record`` with one more hint used by ``seat``."""
    used = list(hints_used(record))
    used[seat] += 1
    return {**record, HINTS_KEY: used}


__all__ = ["HINTS_KEY", "Hint", "count_hint", "hint_for_record", "hints_used", "suggest"]
