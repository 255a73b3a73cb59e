"""The wire protocol's codec: what is accepted, what is refused, and why."""

from __future__ import annotations

import json

import pytest

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
