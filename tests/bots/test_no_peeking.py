"""A bot decides from what its seat may see: same view + same rng => same decision,
whatever the opponent's hidden cards or secret choice (ARCHITECTURE.md, Bots)."""

from __future__ import annotations

import random

import pytest

from soccerdesk.bots import bot_names, make_bot
from soccerdesk.rules import CHANCE, GAMES, get_game, sample_chance

FAST_BOTS = ["random", "heuristic", "easy", "normal"]


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("bot_name", FAST_BOTS)
def test_hidden_information_does_not_change_the_decision(game_id: str, bot_name: str) -> None:
    if bot_name not in bot_names():
        pytest.skip(f"no {bot_name} bot yet")
    game = get_game(game_id)
    bot = make_bot(bot_name, game_id)
    state = game.new_match(seed=21)
    rng = random.Random(21)
    checked = 0
    for ply in range(400):
        players = state.current_players()
        if not players:
            break
        seat = players[0]
        if seat == CHANCE:
            state = state.apply(seat, sample_chance(state, rng))
            continue
        if ply % 3 == 0:
            # Another world that this seat cannot tell apart from the real one.
            other = state.determinize(seat, random.Random(ply + 99))
            assert other.view(seat) == state.view(seat)
            a = bot.decide(state, seat, random.Random(ply))
            b = bot.decide(other, seat, random.Random(ply))
            assert a == b, f"{bot_name} decided differently on hidden information at ply {ply}"
            checked += 1
        state = state.apply(seat, bot.decide(state, seat, rng))
    assert checked > 5
