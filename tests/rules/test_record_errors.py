"""What a match record's error says when its options or actions are missing or of the wrong kind.

QA pass 12, finding 8: a file whose "actions" was the text "hello" was said to have its
"options or actions missing"; they were there, only not a list. The message says which part
is wrong, and whether it is missing or of the wrong kind.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from soccerdesk.rules import CHANCE, GAMES, CorruptRecord, get_game, random_action, sample_chance


def a_real_record(game_id: str, moves: int = 6) -> dict[str, Any]:
    """The record of a match of ``game_id`` a few moves in (random legal moves, dice rolled)."""
    game = get_game(game_id)
    rng = random.Random(4)
    state = game.new_match(seed=4)
    for _ in range(moves):
        if state.is_terminal():
            break
        seats = state.current_players()
        if seats == (CHANCE,):
            state = state.apply(CHANCE, sample_chance(state, rng))
        else:
            state = state.apply(seats[0], random_action(state, seats[0], rng))
    record = game.dump(state)
    assert game.load(record) == state  # the record is sound before it is spoiled below
    return record


def refusal(game_id: str, record: dict[str, Any]) -> str:
    with pytest.raises(CorruptRecord) as refused:
        get_game(game_id).load(record)
    return str(refused.value)


@pytest.mark.parametrize("game_id", GAMES)
def test_actions_that_are_text_are_said_to_be_no_list_not_missing(game_id: str) -> None:
    record = a_real_record(game_id)
    said = refusal(game_id, {**record, "actions": "hello"})
    assert said == "the record's actions are not a list (they are text)"
    assert "missing" not in said and "options" not in said


@pytest.mark.parametrize(
    ("value", "kind"), [({"1": "pass"}, "a JSON object"), (7, "a number"), (None, "null"), (True, "true or false")]
)
def test_actions_of_another_kind_say_which_kind(value: object, kind: str) -> None:
    record = a_real_record("soccer-go")
    assert (
        refusal("soccer-go", {**record, "actions": value}) == f"the record's actions are not a list (they are {kind})"
    )


def test_missing_actions_are_said_to_be_missing() -> None:
    record = a_real_record("pawn-soccer")
    del record["actions"]
    assert refusal("pawn-soccer", record) == "the record's actions are missing"


def test_options_that_are_a_list_are_said_to_be_no_json_object() -> None:
    record = a_real_record("soccero")
    said = refusal("soccero", {**record, "options": ["turns", 3]})
    assert said == "the record's options are not a JSON object (they are a list)"


def test_missing_options_are_said_to_be_missing() -> None:
    record = a_real_record("big-time-soccer")
    del record["options"]
    assert refusal("big-time-soccer", record) == "the record's options are missing"


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("name", ["seed", "self"])
def test_an_option_named_like_new_matchs_own_arguments_is_no_option_of_the_game(game_id: str, name: str) -> None:
    """Files audit, finding 2: options holding "seed" or "self" raised TypeError (a second
    argument of that name for new_match), which stopped the home screen; it is a bad option."""
    record = a_real_record(game_id)
    said = refusal(game_id, {**record, "options": {**record["options"], name: 3}})
    assert said.startswith(f"bad options in record: {get_game(game_id).title} has no option {name!r}")
