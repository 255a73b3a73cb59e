"""A bot decides from what its seat may see: same view + same rng => same decision,
whatever the opponent's hidden cards or secret choice (ARCHITECTURE.md, Bots).

Every bot name and every game is checked, the search levels with a small iteration cap
and no clock (so the decision depends on nothing but the view and the rng). The bots play
a real match here, so the positions they remember (repetitions) are checked too."""

from __future__ import annotations

import random

import pytest

from soccerdesk.bots import Bot, bot_names, make_bot
from soccerdesk.bots.levels import search_bot
from soccerdesk.rules import CHANCE, GAMES, get_game, sample_chance

SEARCH_LEVELS = ("hard", "expert")


def _bot(name: str, game_id: str) -> Bot:
    if name in SEARCH_LEVELS:
        return search_bot(game_id, None, name, max_iterations=8)
    return make_bot(name, game_id)


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("bot_name", bot_names())
def test_hidden_information_does_not_change_the_decision(game_id: str, bot_name: str) -> None:
    game = get_game(game_id)
    bot = _bot(bot_name, game_id)
    search = bot_name in SEARCH_LEVELS
    state = game.new_match(seed=21)
    rng = random.Random(21)
    checked = decisions = 0
    for ply in range(100 if search else 400):
        players = state.current_players()
        if not players:
            break
        seat = players[0]
        if seat == CHANCE:
            state = state.apply(seat, sample_chance(state, rng))
            continue
        decisions += 1
        if decisions % (5 if search else 3) == 1:  # counted in decisions: chance plies vary with the play
            # Another world that this seat cannot tell apart from the real one.
            other = state.determinize(seat, random.Random(ply + 99))
            assert other.view(seat) == state.view(seat)
            a = bot.decide(state, seat, random.Random(ply))
            b = bot.decide(other, seat, random.Random(ply))
            assert a == b, f"{bot_name} decided differently on hidden information at ply {ply}"
            checked += 1
        state = state.apply(seat, bot.decide(state, seat, rng))
    assert checked > 5
