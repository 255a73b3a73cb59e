"""States of every game copy and pickle whole (issue 14 item 5).

``copy``/``deepcopy`` give the state itself (states never change). A pickle round trip
gives a state equal to the original in every way a caller can see: the position, the
match info, ``ply`` and the history, the last events, every seat's view, the legal
actions (the game's own action values) and what applying them gives, and the record.
Each game is checked mid-match at a position with hidden information where it has any.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random
import subprocess
import sys
from typing import Any

import pytest

from soccerdesk.rules import CHANCE, GAMES, State, get_game, sample_chance

VARIANTS: dict[str, list[dict[str, Any]]] = {
    "big-time-soccer": [{}, {"mode": "cup"}],
    "pawn-soccer": [{}],
    "soccero": [{}, {"extended": True}],
    "soccer-go": [{}],
}
CASES = [
    pytest.param(g, opts, id=g + "".join(f"-{k}={v}" for k, v in opts.items())) for g in GAMES for opts in VARIANTS[g]
]
HIDDEN = {"big-time-soccer", "pawn-soccer", "soccer-go"}  # games with something a seat may not see


def _step(state: State, rng: random.Random) -> State:
    seat = state.current_players()[0]
    action = sample_chance(state, rng) if seat == CHANCE else rng.choice(state.legal_actions(seat))
    return state.apply(seat, action)


def _hides_something(state: State) -> bool:
    return state.view(0)["state"] != state.view(1)["state"]


def _mid_match(game_id: str, options: dict[str, Any]) -> State:
    """A seeded random match past its 40th ply, at a position with hidden information if the game has any."""
    game = get_game(game_id)
    for seed in range(60):
        rng = random.Random(seed)
        state = game.new_match(seed=seed, **options)
        while not state.is_terminal():
            state = _step(state, rng)
            if state.ply > 40 and (game_id not in HIDDEN or _hides_something(state)):
                return state
    raise AssertionError(f"no mid-match position found for {game_id}")


def _assert_same(a: State, b: State) -> None:
    game = get_game(a.info.game_id)
    assert b == a and hash(b) == hash(a)
    assert type(b) is type(a)
    for f in dataclasses.fields(a):  # type: ignore[arg-type]
        if not f.compare and not f.name.startswith("_"):  # match data made from the options: shared again
            assert getattr(b, f.name) is getattr(a, f.name), f.name
    assert b.info == a.info and b.ply == a.ply
    assert [(seat, str(x)) for seat, x in b.history()] == [(seat, str(x)) for seat, x in a.history()]
    assert b.events == a.events
    assert game.dump(b) == game.dump(a)
    for seat in (None, 0, 1):
        assert b.view(seat) == a.view(seat)
    assert b.current_players() == a.current_players()
    players = a.current_players()
    if players == (CHANCE,):
        assert b.chance_outcomes() == a.chance_outcomes()
    for seat in players:
        if seat != CHANCE:
            assert b.legal_actions(seat) == a.legal_actions(seat)


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_copy_and_deepcopy_give_the_state_itself(game_id: str, options: dict[str, Any]) -> None:
    state = _mid_match(game_id, options)
    assert copy.copy(state) is state
    assert copy.deepcopy(state) is state
    box = copy.deepcopy({"states": [state, state]})
    assert box["states"][0] is state and box["states"][1] is state
    assert copy.deepcopy(state).view(0) == state.view(0) and copy.copy(state).ply == state.ply


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_pickled_state_mid_match_is_the_same_state(game_id: str, options: dict[str, Any]) -> None:
    state = _mid_match(game_id, options)
    if game_id in HIDDEN:
        assert _hides_something(state)
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(state, protocol))
        assert back is not state
        _assert_same(state, back)
    back = pickle.loads(pickle.dumps(state))
    # The unpickled state plays on exactly like the original, chance included.
    game = get_game(game_id)
    for seat in state.current_players():
        choices = [a for a, _ in state.chance_outcomes()] if seat == CHANCE else state.legal_actions(seat)
        for action in choices[:25]:
            _assert_same(state.apply(seat, action), back.apply(seat, game.parse_action(str(action))))
    rng_a, rng_b = random.Random(5), random.Random(5)
    a, b = state, back
    for _ in range(30):
        if a.is_terminal():
            break
        a, b = _step(a, rng_a), _step(b, rng_b)
    _assert_same(a, b)


@pytest.mark.parametrize("game_id", sorted(HIDDEN))
def test_a_pickled_determinization_keeps_its_sampled_hidden_things(game_id: str) -> None:
    state = _mid_match(game_id, {})
    world = next(w for k in range(20) for s in (0, 1) if (w := state.determinize(s, random.Random(k))) != state)
    back = pickle.loads(pickle.dumps(world))
    _assert_same(world, back)
    assert back != state  # the sampled world, not the match replayed from its history


def test_a_whole_soccero_match_pickles_without_deep_recursion() -> None:
    game = get_game("soccero")
    rng = random.Random(2)
    state = game.new_match(seed=2, turns=150)
    while not state.is_terminal():
        state = _step(state, rng)
    assert state.ply > 1000
    _assert_same(state, pickle.loads(pickle.dumps(state)))


def test_states_unpickle_in_a_fresh_process() -> None:
    """What multiprocessing does: the other process has not loaded any game yet."""
    states = [_mid_match(g, {}) for g in GAMES]
    code = (
        "import pickle, sys\n"
        "states = pickle.loads(sys.stdin.buffer.read())\n"
        "out = [(s.info.game_id, s.ply, s.view(0), [str(a) for a in s.legal_actions(s.current_players()[0])]"
        " if -1 not in s.current_players() else None, type(s).game.dump(s)) for s in states]\n"
        "sys.stdout.buffer.write(pickle.dumps(out))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], input=pickle.dumps(states), capture_output=True, check=True, timeout=120
    )
    seen = pickle.loads(done.stdout)
    for state, (game_id, ply, view, legal, record) in zip(states, seen, strict=True):
        seat = state.current_players()[0]
        assert game_id == state.info.game_id and ply == state.ply and view == state.view(0)
        assert legal == (None if seat == CHANCE else [str(a) for a in state.legal_actions(seat)])
        assert record == get_game(game_id).dump(state)
