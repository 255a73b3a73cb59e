"""Positions of real matches that tests of several layers start from (the app, the relay)."""

from __future__ import annotations

import random

from soccerdesk.bots import make_bot
from soccerdesk.rules import CHANCE, State, get_game, sample_chance
from soccerdesk.rules.big_time_soccer import BigTimeState
from soccerdesk.sim import play_match


def cup_match_before_its_shootout(seed: int = 0) -> tuple[dict, str]:
    """A Big Time Soccer cup match two normal bots played level to full time, kept up to the
    home side's last decision (after it only dice until the shootout), and that decision."""
    game = get_game("big-time-soccer")
    bots = [make_bot("normal", game.id), make_bot("normal", game.id)]
    rng = random.Random(seed)
    state = game.new_match(seed=seed, mode="cup")
    states = [state]
    while state.phase != "shootout":
        seat = state.current_players()[0]
        if seat == CHANCE:
            action = sample_chance(state, rng)
        else:
            action = bots[seat].choose(state, seat, state.legal_actions(seat), rng)
        state = state.apply(seat, action)
        states.append(state)
    history = state.history()
    last = max(i for i, (seat, _action) in enumerate(history) if seat != CHANCE)
    seat, action = history[last]
    assert seat == 0, "the match's last decision before the shootout should be the home side's"
    return game.dump(states[last]), str(action)


def watched_match(seed: int, plies: int) -> list[BigTimeState]:
    """The positions of the first ``plies`` actions of a normal-vs-normal match."""
    seen: list[BigTimeState] = []

    def watch(seat: int, before: State, after: State) -> None:
        assert isinstance(before, BigTimeState)
        seen.append(before)

    bots = [make_bot("normal", "big-time-soccer"), make_bot("normal", "big-time-soccer")]
    play_match("big-time-soccer", bots, seed, False, {}, watch=watch, stop=lambda state: len(seen) >= plies)
    return seen
