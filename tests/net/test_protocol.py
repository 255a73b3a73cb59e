"""The wire protocol's codec: what is accepted, what is refused, and why."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from soccerdesk.net.protocol import (
    CLIENT_MESSAGES,
    ERROR_CODES,
    MAX_FRAME_BYTES,
    SERVER_MESSAGES,
    ProtocolError,
    decode,
    encode,
    error,
)
from soccerdesk.rules import CHANCE, GAMES, get_game
from soccerdesk.rules.api import sample_chance


def test_encode_then_decode_gives_the_message_back() -> None:
    text = encode("create", game="soccer-go", options={"rounds": 2}, seat=None, spectators=False)
    assert decode(text) == {
        "type": "create",
        "game": "soccer-go",
        "options": {"rounds": 2},
        "seat": None,
        "spectators": False,
    }


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("", "malformed"),
        ("{", "malformed"),
        ("[]", "malformed"),
        ("[" * 100_000, "too_big"),
        ("[" * 5000 + "]" * 5000, "too_big"),
        ("[" * 4000 + "]" * 4000, "malformed"),  # deep nesting is not a crash
        ('{"kind": "act"}', "bad_message"),
        ('{"type": 3}', "bad_message"),
        ('{"type": "welcome"}', "unknown_type"),  # a server message is not a client message
        ('{"type": "act"}', "bad_message"),
        ('{"type": "act", "action": ""}', "bad_message"),
        ('{"type": "act", "action": "x", "ply": -1}', "bad_message"),
        ('{"type": "act", "action": "x", "ply": true}', "bad_message"),
        ('{"type": "act", "action": "x", "seat": 0}', "bad_message"),
        ('{"type": "create", "game": "soccero", "seat": 2}', "bad_message"),
        ('{"type": "create", "game": "soccero", "options": {"a": [1]}}', "bad_message"),
        ('{"type": "join", "room": "AB CD"}', "bad_message"),
        ('{"type": "resume", "room": "ABCDEF", "token": "short"}', "bad_message"),
        ('{"type": "claim", "take": "everything"}', "bad_message"),
    ],
)
def test_bad_frames_are_refused_with_a_reason(frame: str, code: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        decode(frame)
    assert caught.value.code == code and caught.value.message
    assert caught.value.code in ERROR_CODES


def test_frames_up_to_the_limit_are_read() -> None:
    text = json.dumps({"type": "chat", "text": "x" * 400})
    padded = text[:-1] + " " * (MAX_FRAME_BYTES - len(text)) + "}"
    assert len(padded) == MAX_FRAME_BYTES and decode(padded)["text"] == "x" * 400


def test_error_frames_name_a_known_code() -> None:
    assert json.loads(error("no_room", "no room ABCDEF")) == {
        "type": "error",
        "code": "no_room",
        "message": "no room ABCDEF",
    }
    with pytest.raises(ValueError):
        error("oops", "not a code")


def test_only_chat_and_rematch_travel_both_ways() -> None:
    # They have different fields each way; every other type belongs to one side, so a client
    # echoing a server message back gets "unknown_type".
    assert set(CLIENT_MESSAGES) & set(SERVER_MESSAGES) == {"chat", "rematch"}


def test_docs_protocol_md_describes_every_message_and_error() -> None:
    """docs/protocol.md is the protocol for people: it must not fall behind the code."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")
    for kind in {*CLIENT_MESSAGES, *SERVER_MESSAGES}:
        assert f"`{kind}`" in text, f"message {kind} is not described"
    for fields in (*CLIENT_MESSAGES.values(), *SERVER_MESSAGES.values()):
        for f in fields:
            assert f"`{f.name}`" in text, f"field {f.name} is not described"
    for code in ERROR_CODES:
        assert f"`{code}`" in text, f"error code {code} is not described"


def test_chat_is_cleaned_to_one_line_of_visible_characters() -> None:
    from soccerdesk.net.protocol import clean_chat

    assert clean_chat("  gg\r\nwell\tplayed  ") == "gg well played"
    assert clean_chat("abc\u202edef\u200bghi") == "abc def ghi"  # no reordering, no hidden marks
    assert clean_chat("<i>olé ⚽</i>") == "<i>olé ⚽</i>"  # markup is text: clients show it as such
    with pytest.raises(ProtocolError) as caught:
        clean_chat("\u2028\x00 \u200d")
    assert caught.value.code == "bad_message"


def test_text_that_is_not_valid_unicode_is_refused_wherever_it_is() -> None:
    from soccerdesk.net.protocol import is_unicode

    assert is_unicode({"a": ["olé", {"b": "⚽"}], "n": 3})
    for bad in ("\ud800", ["x", "\udfff"], {"\ud800": 1}, {"a": {"b": "x\udc00y"}}):
        assert not is_unicode(bad)
    with pytest.raises(ProtocolError) as caught:
        decode('{"type":"chat","text":"hi \\ud83d"}')  # half of an emoji's surrogate pair
    assert caught.value.code == "bad_message" and "not valid Unicode" in caught.value.message
    assert decode('{"type":"chat","text":"hi \\ud83d\\ude00"}')["text"] == "hi 😀"  # a whole pair is fine


def test_names_are_cleaned_like_chat_and_fall_back_to_a_default() -> None:
    from soccerdesk.net.protocol import MAX_NAME_CHARS, clean_name

    assert clean_name("Ann\u202e\x00Lee\n", "Guest") == "Ann Lee"
    assert clean_name("\u200b\u2028 \ud800", "Guest") == "Guest"
    assert len(clean_name("x" * 100, "Guest")) == MAX_NAME_CHARS


# No booleans: inside a list view_patch takes 1 and true for the same (views keep a field's type).
json_values = st.recursive(
    st.none() | st.integers(-5, 5) | st.text("ab~/", max_size=3),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text("ab~/", max_size=3), inner, max_size=4),
    max_leaves=12,
)
json_objects = st.dictionaries(st.text("ab~/", max_size=3), json_values, max_size=5)


@given(json_objects, json_objects)
def test_a_view_patch_turns_the_old_view_into_the_new_and_leaves_the_old_alone(
    old: dict[str, Any], new: dict[str, Any]
) -> None:
    from soccerdesk.net.protocol import apply_patch, view_patch

    before = json.dumps(old, sort_keys=True)
    patch = json.loads(json.dumps(view_patch(old, new)))  # it crosses the wire as JSON
    assert json.dumps(apply_patch(old, patch), sort_keys=True) == json.dumps(new, sort_keys=True)
    assert json.dumps(old, sort_keys=True) == before
    assert view_patch(new, new) == []


def test_a_field_that_changes_its_json_type_is_patched() -> None:
    from soccerdesk.net.protocol import view_patch

    assert view_patch({"a": 1, "b": {"c": 0, "d": 1}}, {"a": True, "b": {"c": False, "d": 2}}) == [
        {"op": "replace", "path": "/a", "value": True},
        {"op": "replace", "path": "/b/c", "value": False},
        {"op": "replace", "path": "/b/d", "value": 2},
    ]


def test_a_patch_that_does_not_fit_the_view_is_refused() -> None:
    from soccerdesk.net.protocol import apply_patch

    view = {"a": {"b": 1}, "c": [1, 2]}
    for patch in (
        [{"op": "move", "from": "/a", "path": "/d"}],
        [{"op": "remove", "path": "/x"}],
        [{"op": "replace", "path": "/x", "value": 1}],
        [{"op": "add", "path": "/c/0/d", "value": 1}],
        [{"op": "add", "path": "a", "value": 1}],
        [{"op": "replace", "path": "/c/2", "value": 1}],
        [{"op": "replace", "path": "/c/01", "value": 1}],
        [{"op": "remove", "path": "/c/0"}],
        [{"op": "replace", "path": "/c/²", "value": 1}],
        ["not an operation"],
    ):
        with pytest.raises(ProtocolError):
            apply_patch(view, patch)
    assert apply_patch(view, [{"op": "replace", "path": "/a/b", "value": True}]) == {"a": {"b": True}, "c": [1, 2]}
    assert view == {"a": {"b": 1}, "c": [1, 2]}


def test_a_list_with_one_item_changed_is_patched_item_by_item() -> None:
    from soccerdesk.net.protocol import apply_patch, view_patch

    team = [{"number": n, "row": n, "col": 0} for n in range(11)]
    moved = [dict(p, row=p["row"] + 1) if p["number"] == 7 else p for p in team]
    patch = view_patch({"players": team}, {"players": moved})
    assert patch == [{"op": "replace", "path": "/players/7/row", "value": 8}]
    assert apply_patch({"players": team}, patch) == {"players": moved} and team[7]["row"] == 7
    assert view_patch({"a": [1, 2]}, {"a": [3, 4]}) == [{"op": "replace", "path": "/a", "value": [3, 4]}]


DOCS = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def _doc_section(title: str) -> str:
    text = DOCS.read_text(encoding="utf-8")
    start = text.index(title)
    return text[start : text.index("\n## ", start + 1)]


@pytest.mark.parametrize("game_id", GAMES)
def test_docs_protocol_md_lists_every_option_with_its_values_and_default(game_id: str) -> None:
    game = get_game(game_id)
    section = _doc_section("## Games and their options")
    table = section[section.index(f"**`{game_id}`**") :].split("\n\n")[1]
    rows = {line.split("|")[1].strip(" `"): line.split("|")[2:4] for line in table.splitlines()[2:]}
    assert set(rows) == {o.name for o in game.options}
    for option in game.options:
        values, default = (cell.strip() for cell in rows[option.name])
        shown = {True: "true", False: "false"}.get(option.default, str(option.default))
        assert default.strip("`") == shown, option.name
        if option.choices:
            assert [v.strip(" `") for v in values.split(",")] == [str(c) for c in option.choices], option.name
        elif isinstance(option.default, bool):
            assert values == "true/false", option.name
        else:
            assert values == f"{option.minimum}–{option.maximum}", option.name


@pytest.mark.parametrize("game_id", GAMES)
def test_docs_protocol_md_names_every_field_a_seat_keeps_private(game_id: str) -> None:
    """Random playouts: a field of view(seat)["state"] that is not the same for everyone must be documented."""
    row = next(line for line in _doc_section("### What is private").splitlines() if line.startswith(f"| `{game_id}`"))
    documented = set(re.findall(r"`([a-z_.]+)`:", row))
    rng = random.Random(1)
    for seed in range(2):
        state = get_game(game_id).new_match(seed=seed)
        for _ in range(300):
            if state.is_terminal():
                break
            views = [state.view(seat)["state"] for seat in (0, 1, None)]
            for key in views[2]:
                if not views[0][key] == views[1][key] == views[2][key]:
                    inner = (
                        {f"{key}.{k}" for k, v in views[2][key].items() if v != views[0][key].get(k)}
                        if isinstance(views[2][key], dict)
                        else set()
                    )
                    assert key in documented or inner <= documented and inner, (game_id, key)
            players = state.current_players()
            if players == (CHANCE,):
                state = state.apply(CHANCE, sample_chance(state, rng))
            else:
                state = state.apply(players[0], rng.choice(state.legal_actions(players[0])))
