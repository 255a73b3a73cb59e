"""The contract machinery in soccerdesk.rules.api, on a tiny game made for the test.

"Odds and evens": a coin toss picks the kicker; both seats secretly show 1 or 2;
an odd sum is a goal for the kicker. First to 2 goals.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import pytest

from soccerdesk.rules.api import (
    CHANCE,
    BadOption,
    CorruptRecord,
    Event,
    Game,
    IllegalAction,
    NoEnd,
    Option,
    State,
    play_out,
    random_action,
    sample_chance,
    uniform,
    weighted,
)


@dataclass(frozen=True, slots=True)
class Show:
    seat: int | None  # None: the coin toss
    value: int

    def __str__(self) -> str:
        return f"coin {self.value}" if self.seat is None else f"show {self.value}"


@dataclass(frozen=True, slots=True)
class OddsState(State):
    kicker: int | None
    shown: tuple[int | None, int | None]
    goals: tuple[int, int]
    target: int

    def current_players(self) -> tuple[int, ...]:
        if max(self.goals) >= self.target:
            return ()
        if self.kicker is None:
            return (CHANCE,)
        return tuple(s for s in (0, 1) if self.shown[s] is None)

    def _legal_actions(self, seat: int) -> list[Any]:
        return [Show(0, 1), Show(0, 2)]

    def _chance_outcomes(self) -> list[tuple[Any, float]]:
        return uniform([Show(None, 0), Show(None, 1)])

    def _apply(self, seat: int, action: Any, events: list[Event]) -> State:
        if seat == CHANCE:
            events.append(Event("toss", f"seat {action.value} kicks"))
            return replace(self, kicker=action.value)
        shown = list(self.shown)
        shown[seat] = action.value
        events.append(Event("chosen", f"seat {seat} has chosen"))
        if None in shown:
            return replace(self, shown=(shown[0], shown[1]))
        goals = list(self.goals)
        if (shown[0] + shown[1]) % 2:  # type: ignore[operator]
            goals[self.kicker] += 1  # type: ignore[index]
        return replace(self, shown=(None, None), goals=(goals[0], goals[1]))

    @property
    def score(self) -> tuple[int, int]:
        return self.goals

    def _view(self, seat: int | None) -> dict[str, Any]:
        mine = self.shown[seat] if seat is not None else None
        return {"kicker": self.kicker, "mine": mine, "chosen": [v is not None for v in self.shown]}

    def _determinize(self, seat: int, rng: random.Random) -> State:
        other = 1 - seat
        shown = list(self.shown)
        pick = rng.choice((1, 2))
        if shown[other] is not None:
            shown[other] = pick
        return replace(self, shown=(shown[0], shown[1]))


class OddsGame(Game):
    id = "odds"
    title = "Odds and evens"
    summary = "A test game."
    options = (Option("target", 2, "Goals to win", minimum=1, maximum=9),)

    def _initial_state(self, options: Mapping[str, Any]) -> State:
        return OddsState(None, (None, None), (0, 0), options["target"])

    def parse_action(self, text: str) -> Any:
        word, _, num = text.partition(" ")
        if word in ("coin", "show") and num in ("0", "1", "2"):
            return Show(None if word == "coin" else 0, int(num))
        raise IllegalAction(f"not an action: {text!r}")


OddsState.game = OddsGame()
GAME = OddsState.game


def _random_playout(seed: int) -> State:
    rng = random.Random(seed)
    return play_out(GAME.new_match(seed=seed), lambda s, seat: rng.choice(s.legal_actions(seat)), rng)


def test_apply_returns_new_state_and_records_history() -> None:
    s0 = GAME.new_match(seed=4)
    s1 = s0.apply(CHANCE, Show(None, 1))
    assert s0.kicker is None and s1.kicker == 1
    assert s1.history() == [(CHANCE, Show(None, 1))]
    assert s0.history() == []
    assert s1.events[0].kind == "toss"


def test_illegal_actions_raise_with_a_reason() -> None:
    s = GAME.new_match(seed=4)
    with pytest.raises(IllegalAction, match="seat 0 does not decide"):
        s.apply(0, Show(0, 1))
    with pytest.raises(IllegalAction, match="not a possible outcome"):
        s.apply(CHANCE, Show(None, 2))
    s = s.apply(CHANCE, Show(None, 0))
    with pytest.raises(IllegalAction, match="not a legal action"):
        s.apply(0, Show(0, 3))


def test_simultaneous_choice_hidden_until_both_are_in() -> None:
    s = GAME.new_match(seed=1).apply(CHANCE, Show(None, 0)).apply(1, Show(0, 2))
    assert s.current_players() == (0,)
    assert s.view(0)["state"]["mine"] is None
    assert s.view(0)["state"]["chosen"] == [False, True]
    assert s.view(1)["state"]["mine"] == 2
    assert s.view(0)["legal"] == ["show 1", "show 2"]
    assert s.view(1)["legal"] == []


def test_dump_and_load_replay_exactly() -> None:
    final = _random_playout(9)
    record = GAME.dump(final)
    assert GAME.load(record) == final
    assert GAME.load(record).history() == final.history()
    assert len(GAME.replay(record)) == len(record["actions"]) + 1


def test_replay_resolves_the_record_options_once(monkeypatch: pytest.MonkeyPatch) -> None:
    record = GAME.dump(_random_playout(4))
    resolved: list[dict[str, Any]] = []
    real = GAME.resolve_options

    def counted(given: Mapping[str, Any]) -> dict[str, Any]:
        resolved.append(dict(given))
        return real(given)

    monkeypatch.setattr(GAME, "resolve_options", counted)
    states = GAME.replay(record)
    assert resolved == [record["options"]] and states[-1] == GAME.load(record)
    with pytest.raises(CorruptRecord, match="seed must be a whole number"):
        GAME.replay({**record, "seed": True})


def test_corrupt_record_is_refused() -> None:
    record = GAME.dump(_random_playout(2))
    with pytest.raises(CorruptRecord, match="action 1"):
        GAME.load({**record, "actions": [[0, "show 1"]]})
    with pytest.raises(CorruptRecord, match="not a soccerdesk match record"):
        GAME.load({"format": "x"})


def test_options_are_checked_and_converted() -> None:
    assert GAME.new_match(seed=1, target="3").options["target"] == 3
    with pytest.raises(BadOption, match="at most 9"):
        GAME.new_match(seed=1, target=10)
    with pytest.raises(BadOption, match="no option"):
        GAME.new_match(seed=1, length=10)
    with pytest.raises(BadOption, match="whole number"):
        GAME.new_match(seed=1, target="many")


def test_sample_chance_follows_probabilities() -> None:
    rng = random.Random(0)
    s = GAME.new_match(seed=0)
    counts = {0: 0, 1: 0}
    for _ in range(2000):
        counts[sample_chance(s, rng).value] += 1
    assert 900 < counts[0] < 1100


def test_weighted_drops_empty_piles() -> None:
    assert weighted({"a": 3, "b": 0, "c": 1}) == [("a", 0.75), ("c", 0.25)]


def test_winner_follows_score() -> None:
    final = _random_playout(5)
    assert final.is_terminal()
    assert final.winner == (0 if final.score[0] > final.score[1] else 1)


def test_random_action_draws_once_from_the_generator() -> None:
    s = GAME.new_match(seed=2)
    a, b = random.Random(9), random.Random(9)
    assert random_action(s, CHANCE, a) == sample_chance(s, b)  # chance: by its probabilities
    s = s.apply(CHANCE, Show(None, 0))
    legal = s.legal_actions(0)
    assert random_action(s, 0, a) == legal[b.randrange(len(legal))]
    assert a.random() == b.random()  # one draw each: the generators are still in step
    assert {random_action(s, 0, a) for _ in range(50)} == set(legal)


def test_play_out_without_a_chooser_plays_random_legal_actions() -> None:
    """``choose=None`` is the random player: the same match as drawing each action by hand."""
    rng = random.Random(3)
    final = play_out(GAME.new_match(seed=3), None, rng)
    by_hand, hand_rng = GAME.new_match(seed=3), random.Random(3)
    while not by_hand.is_terminal():
        seat = by_hand.current_players()[0]
        by_hand = by_hand.apply(seat, random_action(by_hand, seat, hand_rng))
    assert final.history() == by_hand.history() and final.is_terminal()


def test_play_out_stops_where_told_and_tells_every_action() -> None:
    seen: list[tuple[int, int, int]] = []
    stopped = play_out(
        GAME.new_match(seed=1, target=9),
        None,
        random.Random(1),
        stop=lambda s: s.ply >= 5,
        watch=lambda seat, before, after: seen.append((seat, before.ply, after.ply)),
    )
    assert stopped.ply == 5 and not stopped.is_terminal()
    assert [seat for seat, _ in stopped.history()] == [seat for seat, _, _ in seen]
    assert [(b, a) for _, b, a in seen] == [(i, i + 1) for i in range(5)]


def test_play_out_limit_and_unchecked_apply() -> None:
    with pytest.raises(NoEnd, match="no end after 3 plies"):
        play_out(GAME.new_match(seed=1), None, random.Random(1), max_plies=3)
    assert issubclass(NoEnd, RuntimeError)
    checked = play_out(GAME.new_match(seed=6), None, random.Random(6), None)
    unchecked = play_out(GAME.new_match(seed=6), None, random.Random(6), None, checked=False)
    assert checked.history() == unchecked.history()
    # Unchecked, an action that is not legal goes through (search vouches for its actions).
    wrong = play_out(
        GAME.new_match(seed=6), lambda s, seat: Show(0, 7), random.Random(6), checked=False, stop=lambda s: s.ply >= 3
    )
    assert Show(0, 7) in [a for _, a in wrong.history()]
    with pytest.raises(IllegalAction):
        play_out(GAME.new_match(seed=6), lambda s, seat: Show(0, 7), random.Random(6))
