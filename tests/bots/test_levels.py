"""The difficulty levels: registered for every game, honest about hidden information,
usable from the simulator."""

from __future__ import annotations

import importlib.util
import random

import pytest

from soccerdesk.bots import LEVELS, bot_names, make_bot
from soccerdesk.bots import levels as levels_module
from soccerdesk.bots.levels import EXPERT_BUDGET, EXPERT_ITERATIONS, HARD_BUDGET, HARD_ITERATIONS, EasyBot, search_bot
from soccerdesk.bots.search import SearchBot
from soccerdesk.rules import _MODULES as RULE_MODULES
from soccerdesk.rules import CHANCE, GAMES, State, get_game, sample_chance
from soccerdesk.sim import run


def _require_game(game_id: str) -> None:
    if importlib.util.find_spec(RULE_MODULES[game_id]) is None:
        pytest.skip(f"{game_id} is not written yet")


def test_the_four_levels_are_registered() -> None:
    assert {"easy", "normal", "hard", "expert"} <= set(LEVELS)
    assert bot_names()[:2] == ["random", "heuristic"]
    assert {"easy", "normal", "hard", "expert"} <= set(bot_names())


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_has_every_level(game_id: str) -> None:
    _require_game(game_id)
    hard, expert = make_bot("hard", game_id), make_bot("expert", game_id)
    assert isinstance(hard, SearchBot) and isinstance(expert, SearchBot)
    assert hard.settings.time_budget == HARD_BUDGET == 1.0
    assert expert.settings.time_budget == EXPERT_BUDGET == 3.0
    # Strength comes from an iteration cap (the same on every machine); the clock is a ceiling.
    assert hard.settings.max_iterations == HARD_ITERATIONS[game_id]
    assert expert.settings.max_iterations == EXPERT_ITERATIONS[game_id] > HARD_ITERATIONS[game_id]
    assert isinstance(make_bot("easy", game_id), EasyBot)
    assert type(make_bot("normal", game_id)) is type(make_bot("heuristic", game_id))


def _positions(game_id: str, plies: int) -> list[tuple[State, int]]:
    """Decision points of a random match: ``(state, seat)``."""
    game = get_game(game_id)
    state = game.new_match(seed=5)
    rng = random.Random(5)
    out = []
    for _ in range(plies):
        players = state.current_players()
        if not players:
            break
        seat = players[0]
        if seat == CHANCE:
            state = state.apply(seat, sample_chance(state, rng))
            continue
        legal = state.legal_actions(seat)
        if len(legal) > 1:
            out.append((state, seat))
        state = state.apply(seat, legal[rng.randrange(len(legal))])
    return out


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("level", ["hard", "expert"])
def test_search_levels_cannot_see_hidden_information(game_id: str, level: str) -> None:
    """Same view + same rng => same decision, whatever the hidden cards (iteration cap, no clock)."""
    _require_game(game_id)
    bot = search_bot(game_id, None, level, max_iterations=6)
    checked = 0
    for index, (state, seat) in enumerate(_positions(game_id, 300)[::7][:8]):
        other = state.determinize(seat, random.Random(index + 1000))
        assert other.view(seat) == state.view(seat)
        a = bot.decide(state, seat, random.Random(index))
        b = bot.decide(other, seat, random.Random(index))
        assert a == b, f"{level} decided differently on hidden information in {game_id}"
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize("game_id", GAMES)
def test_easy_without_slips_is_the_heuristic(game_id: str) -> None:
    _require_game(game_id)
    steady = EasyBot(game_id, slips=0.0)
    heuristic = make_bot("heuristic", game_id)
    for index, (state, seat) in enumerate(_positions(game_id, 200)[:10]):
        assert steady.decide(state, seat, random.Random(index)) == heuristic.decide(state, seat, random.Random(index))


@pytest.mark.parametrize("game_id", GAMES)
def test_simulator_plays_hard_against_normal(
    game_id: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _require_game(game_id)
    monkeypatch.setattr(levels_module, "HARD_BUDGET", 0.01)  # a quick search for the test
    summary = run(["--game", game_id, "--players", "hard", "normal", "--matches", "2", "--seed", "2", "--json"])
    assert sum(summary["wins"]) + summary["draws"] == 2
    if summary["win_rate_decided"] is not None:
        lo, hi = summary["win_rate_ci95"]
        assert lo <= summary["win_rate_decided"] <= hi
