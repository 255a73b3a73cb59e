"""benchmarks/openspiel_sparring.py: our rules as a pyspiel game, and an ISMCTS sparring partner
that sees only its seat. Skipped where open_spiel is not installed: it is a benchmark tool, not
a dependency of the app or of the tests."""

from __future__ import annotations

import random

import pytest

pytest.importorskip(
    "pyspiel", reason="open_spiel is not installed (optional: pip install open_spiel for the sparring benchmark)"
)

from soccerdesk.rules import CHANCE, GAMES, State, get_game, sample_chance  # noqa: E402
from tests.benchmark_scripts import load_benchmark  # noqa: E402

sparring = load_benchmark("openspiel_sparring")


def _midgame(game_id: str, seed: int, plies: int) -> State:
    """A position ``plies`` random actions into a match where a seat (not chance) decides
    between two or more actions."""
    rng = random.Random(seed)
    state = get_game(game_id).new_match(seed=seed)
    for n in range(100_000):
        players = state.current_players()
        assert players, "the match ended before a position was found"
        seat = players[0]
        if seat == CHANCE:
            state = state.apply(seat, sample_chance(state, rng))
            continue
        legal = state.legal_actions(seat)
        if n >= plies and len(legal) > 1:
            return state
        state = state.apply(seat, legal[rng.randrange(len(legal))])
    raise AssertionError("no position found")


@pytest.mark.parametrize("game_id", GAMES)
def test_the_pyspiel_game_follows_our_rules_through_a_whole_match(game_id: str) -> None:
    game = sparring.load(game_id, 3, {})
    spiel = game.new_initial_state()
    ours: State = get_game(game_id).new_match(seed=3)
    rng = random.Random(3)
    while not ours.is_terminal():
        seat = ours.current_players()[0]
        if seat == CHANCE:
            assert spiel.is_chance_node()
            outcomes = spiel.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            action = sample_chance(ours, rng)
        else:
            assert spiel.current_player() == seat
            legal = ours.legal_actions(seat)
            texts = sorted(spiel.action_to_string(seat, a) for a in spiel.legal_actions())
            assert texts == sorted(str(a) for a in legal)
            action = legal[rng.randrange(len(legal))]
        copy = spiel.clone()
        spiel.apply_action(game.numbers.number(action))
        assert copy.inner is not spiel.inner  # a clone is a state of its own
        ours = ours.apply(seat, action)
        assert spiel.inner == ours
    assert spiel.is_terminal()
    winner = ours.winner
    assert spiel.returns() == ([0.0, 0.0] if winner is None else [1.0, -1.0] if winner == 0 else [-1.0, 1.0])


def test_soccer_go_second_seat_does_not_see_the_first_pick() -> None:
    """Rulebook: face-down picks are revealed together. Played one after the other, seat 1's
    information state is the same whatever seat 0 laid face down."""
    game = sparring.load("soccer-go", 0, {})
    rng = random.Random(0)
    state = game.initial
    while state.current_players() != (0, 1):
        seat = state.current_players()[0]
        legal = state.legal_actions(seat) if seat != CHANCE else None
        state = state.apply(seat, sample_chance(state, rng) if legal is None else legal[rng.randrange(len(legal))])
    spiel = game.wrap(state)
    assert spiel.current_player() == 0
    seen = []
    for action in spiel.legal_actions():
        after = spiel.clone()
        after.apply_action(action)
        if after.current_player() == 1:  # a face-down pick (a power card is public, and both choose again)
            seen.append(after.information_state_string(1))
    assert len(seen) > 1
    assert len(set(seen)) == 1


@pytest.mark.parametrize(("game_id", "seed"), [("soccer-go", 1), ("soccer-go", 2), ("big-time-soccer", 1)])
def test_ismcts_decides_the_same_in_worlds_its_seat_cannot_tell_apart(game_id: str, seed: int) -> None:
    """The sparring bot reads only what its seat may see: the real position and another world
    with the hidden cards resampled give the same decision (iteration cap, no clock)."""
    differ = 0
    for plies in (5, 40, 90):
        state = _midgame(game_id, seed, plies)
        seat = state.current_players()[0]
        world = state.determinize(seat, random.Random(seed + 99))
        differ += world != state
        choices = [
            sparring.SparringBot(sparring.load(game_id, seed, {}), 7).decide(s, seat, None, cap=16)
            for s in (state, world)
        ]
        assert choices[0] == choices[1]
        assert choices[0] in state.legal_actions(seat)
    assert differ, "the worlds never differed: the test would prove nothing"


def test_a_spent_budget_still_plays_a_legal_action_after_the_fewest_simulations() -> None:
    state = _midgame("pawn-soccer", 4, 10)
    seat = state.current_players()[0]
    bot = sparring.SparringBot(sparring.load("pawn-soccer", 4, {}), 1)
    action = bot.decide(state, seat, 0.0)
    assert action in state.legal_actions(seat)
    assert bot.simulations == [sparring.MIN_SIMULATIONS]


def test_a_match_records_both_sides_time_and_the_budgets_follow_the_level() -> None:
    match = sparring.play("soccer-go", "normal", 5, 1, {}, [0.5])
    assert match.level_seat == 1
    assert match.level_s and match.ismcts_s
    assert len(match.ismcts_budget) == len(match.ismcts_s) == len(match.simulations)
    assert all(n >= sparring.MIN_SIMULATIONS for n in match.simulations)
    # A budget follows the level's mean so far (here 0.5 s from earlier matches before its
    # first decision), at most CATCH_UP times it.
    assert max(match.ismcts_budget) <= sparring.CATCH_UP * max([0.5, *match.level_s])
    row = sparring.summarise("soccer-go", "normal", [match], 1.0)
    assert row["wins"] + row["losses"] + row["draws"] == 1
    assert row["goals"] == list(match.score)


def test_equal_time_keeps_the_mean_per_decision_equal() -> None:
    equal_time = sparring.equal_time
    assert equal_time([], []) == 0.0
    assert equal_time([0.1, 0.3], []) == pytest.approx(0.2)  # the level's mean
    assert equal_time([0.1, 0.3], [0.1]) == pytest.approx(0.3)  # short by 0.1 before
    assert equal_time([0.1, 0.3], [0.5]) == 0.0  # overran: nothing now
    assert equal_time([0.1, 0.3], [0.0, 0.0, 0.0]) == pytest.approx(sparring.CATCH_UP * 0.2)
