"""The rules contract (ARCHITECTURE.md), checked by seeded random playouts of every game.

Every registered game gets these tests for free; a game's own rules are tested in
``tests/rules/test_<game>.py``.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from soccerdesk.rules import CHANCE, GAMES, CorruptRecord, IllegalAction, State, UnknownGame, get_game
from soccerdesk.rules.api import check_probabilities, sample_chance

# Option sets each game is checked with besides its defaults.
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "big-time-soccer": [{}, {"mode": "cup"}],
    "pawn-soccer": [
        {},
        {
            "closed_goal_area": True,
            "long_pass": "opposite_half",
            "quick_setup": True,
            "sprint_on_entry": True,
            "length": "golden_goal",
        },
    ],
    "soccero": [{}, {"extended": True}],
    "soccer-go": [{}, {"rounds": 1, "joker_blocks": "either"}],
}

CASES = [
    pytest.param(g, opts, id=g + "".join(f"-{k}={v}" for k, v in opts.items())) for g in GAMES for opts in VARIANTS[g]
]

PLAYOUTS = 3
DEEP_CHECK_PLIES = 150  # check every ply up to here, then every DEEP_CHECK_EVERY-th
DEEP_CHECK_EVERY = 25


class _Bogus:
    def __str__(self) -> str:
        return "bogus"


def _step(state: State, rng: random.Random) -> tuple[int, Any]:
    seat = state.current_players()[0]
    if seat == CHANCE:
        return seat, sample_chance(state, rng)
    legal = state.legal_actions(seat)
    return seat, legal[rng.randrange(len(legal))]


def _check_hidden_information(state: State, k: int) -> None:
    spectator = state.view(None)
    for seat in (0, 1):
        mine = state.view(seat)
        r1 = random.Random(k)
        d1 = state.determinize(seat, r1)
        # A determinization looks the same from the seat's chair ...
        assert d1.view(seat) == mine, f"determinize({seat}) changed what seat {seat} sees"
        # ... and reveals nothing to a spectator.
        assert d1.view(None) == spectator, "view(None) depends on hidden information"
        # ... nor carries an event meant for the other seat only (its draw, the card it put aside).
        assert all(e.visible_to(seat) for e in d1.events), f"determinize({seat}) kept another seat's event"
        # determinize depends only on what the seat knows (and the rng):
        other = state.determinize(seat, random.Random(k + 1000))
        r2 = random.Random(k)
        d2 = other.determinize(seat, r2)
        assert d2 == d1, f"determinize({seat}) depends on information seat {seat} cannot see"
        assert r1.getstate() == r2.getstate(), "determinize consumed the rng differently for hidden variants"
        # The seat's own choices cannot depend on hidden things either.
        if seat in state.current_players():
            assert [str(a) for a in d1.legal_actions(seat)] == mine["legal"]


def _check_state(state: State, game_id: str, ply: int) -> None:
    players = state.current_players()
    assert isinstance(players, tuple)
    assert state.is_terminal() == (players == ())
    if players == (CHANCE,):
        outcomes = state.chance_outcomes()
        assert check_probabilities(outcomes), "chance probabilities must be positive and sum to 1"
        for action, _ in outcomes:
            assert str(get_game(game_id).parse_action(str(action))) == str(action)
    else:
        assert CHANCE not in players
        assert set(players) <= {0, 1}
        for seat in players:
            legal = state.legal_actions(seat)
            assert legal, f"seat {seat} must decide but has no legal action"
            assert len(set(legal)) == len(legal), "legal actions contain duplicates"
            game = get_game(game_id)
            for action in legal:
                parsed = game.parse_action(str(action))
                assert parsed == action and str(parsed) == str(action), f"{action!r} does not round-trip"
        for seat in {0, 1} - set(players):
            with pytest.raises(IllegalAction):
                state.legal_actions(seat)
    for seat in (None, 0, 1):
        view = state.view(seat)
        assert json.loads(json.dumps(view)) == view, "view must be JSON-able"
    for event in state.events:
        assert isinstance(event.text, str) and event.text
        json.dumps(event.to_json())
        assert event.audience is None or set(event.audience) <= {0, 1}
    s0, s1 = state.score
    assert s0 >= 0 and s1 >= 0
    details = state.result_details()
    assert json.loads(json.dumps(details)) == details
    assert set(details) <= {"extra_time", "shootout", "turn_limit", "forfeit"}
    if state.is_milestone():  # shown on its own before the dice go on
        assert state.current_players() == (CHANCE,)
    if state.is_terminal():
        assert state.winner in (0, 1, None)
        if state.winner is not None and state.score[0] == state.score[1]:
            assert {"shootout", "forfeit"} & set(details), "a level score decided: the details say how"
    else:
        assert state.winner is None and not details


def _check_illegal(state: State, game_id: str) -> None:
    before = get_game(game_id).dump(state)
    snapshot = (state, hash(state))
    players = state.current_players()
    for seat in {0, 1, CHANCE} - set(players):
        with pytest.raises(IllegalAction):
            state.apply(seat, _Bogus())
    for seat in players:
        with pytest.raises(IllegalAction):
            state.apply(seat, _Bogus())
    assert state == snapshot[0] and hash(state) == snapshot[1]
    assert get_game(game_id).dump(state) == before


def _playout(game_id: str, options: dict[str, Any], seed: int, deep: bool = True) -> State:
    game = get_game(game_id)
    state = game.new_match(seed=seed, **options)
    rng = random.Random(seed)
    ply = 0
    while not state.is_terminal():
        check = deep and (ply < DEEP_CHECK_PLIES or ply % DEEP_CHECK_EVERY == 0)
        if check:
            _check_state(state, game_id, ply)
            _check_hidden_information(state, seed * 7919 + ply)
            _check_illegal(state, game_id)
        seat, action = _step(state, rng)
        frozen = (hash(state), game.dump(state) if check else None)
        nxt = state.apply(seat, action)
        assert nxt is not state
        assert hash(state) == frozen[0], "apply mutated its input"
        if check:
            assert game.dump(state) == frozen[1], "apply mutated its input"
        state = nxt
        ply += 1
        assert ply < 200_000, "playout does not end"
    _check_state(state, game_id, ply)
    return state


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_random_playouts_end_and_keep_the_contract(game_id: str, options: dict[str, Any]) -> None:
    for seed in range(PLAYOUTS):
        final = _playout(game_id, options, seed)
        assert final.is_terminal()
        assert final.current_players() == ()


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_same_seed_and_actions_give_equal_states(game_id: str, options: dict[str, Any]) -> None:
    game = get_game(game_id)
    final = _playout(game_id, options, 11, deep=False)
    record = game.dump(final)
    assert json.loads(json.dumps(record)) == record
    states = game.replay(record)
    assert states[-1] == final
    assert game.load(json.loads(json.dumps(record))) == final
    # Midway states round-trip too.
    mid = len(record["actions"]) // 2
    assert game.dump(states[mid]) == {**record, "actions": record["actions"][:mid]}


@pytest.mark.parametrize("game_id", GAMES)
def test_corrupt_records_are_refused_with_a_reason(game_id: str) -> None:
    game = get_game(game_id)
    state = game.new_match(seed=3)
    rng = random.Random(3)
    for _ in range(20):
        if state.is_terminal():
            break
        state = state.apply(*_step(state, rng))
    record = game.dump(state)
    bad_records: list[Any] = [
        "not a record",
        {**record, "format": "chess-pgn"},
        {**record, "version": 99},
        {**record, "game": "other-game"},
        {**record, "actions": "x"},
        {**record, "actions": [*record["actions"], [0, "no such action"]]},
        {**record, "actions": [[5, "x"]]},
        {**record, "options": {"no_such_option": 1}},
    ]
    if record["actions"]:
        seat, text = record["actions"][0]
        bad_records.append({**record, "actions": [[1 - seat if seat in (0, 1) else 0, text]]})
    for bad in bad_records:
        with pytest.raises(CorruptRecord) as excinfo:
            game.load(bad)
        assert str(excinfo.value)


@pytest.mark.parametrize("game_id", GAMES)
def test_unknown_options_are_refused(game_id: str) -> None:
    game = get_game(game_id)
    with pytest.raises(ValueError, match="no option"):
        game.new_match(seed=1, surely_not_an_option=3)


@pytest.mark.parametrize("game_id", GAMES)
def test_game_identity(game_id: str) -> None:
    game = get_game(game_id)
    assert game.id == game_id
    assert game.title and game.summary
    assert get_game(game_id) is game


def test_unknown_game_lists_known_ids() -> None:
    with pytest.raises(UnknownGame) as excinfo:
        get_game("subbuteo")
    for game_id in GAMES:
        assert game_id in str(excinfo.value)


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_action_sequence_keeps_invariants(game_id: str, data: st.DataObject) -> None:
    """Hypothesis picks the actions (and dice) for the first plies of a match."""
    game = get_game(game_id)
    state = game.new_match(seed=data.draw(st.integers(0, 10_000)))
    for _ in range(data.draw(st.integers(1, 120))):
        if state.is_terminal():
            break
        seat = state.current_players()[0]
        choices = [a for a, _ in state.chance_outcomes()] if seat == CHANCE else state.legal_actions(seat)
        action = choices[data.draw(st.integers(0, len(choices) - 1))]
        state = state.apply(seat, action)
    _check_state(state, game_id, state.ply)
    _check_hidden_information(state, 5)
    _check_illegal(state, game_id)
    assert game.load(game.dump(state)) == state
