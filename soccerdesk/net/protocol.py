"""The relay's wire protocol: versioned JSON messages, defined once for server and client.

Every WebSocket text frame is one JSON object with a ``"type"`` naming the message.
The first message a client sends is ``hello`` with :data:`PROTOCOL_VERSION`; the relay
answers ``welcome`` or an ``error`` with code ``"version"`` and closes. The message
types, their fields and their directions are listed in :data:`CLIENT_MESSAGES` and
:data:`SERVER_MESSAGES`; ``docs/protocol.md`` describes them for people, with an
example exchange.

This module is pure (standard library only): the relay, the asyncio client and the
tests all use :func:`decode` and :func:`encode`, so both ends agree on what is valid.

    >>> encode("act", action="move 3")
    '{"type":"act","action":"move 3"}'
    >>> decode('{"type":"act","action":"move 3"}', CLIENT_MESSAGES)
    {'type': 'act', 'action': 'move 3'}
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any

PROTOCOL_VERSION = 3
"""Bumped whenever a message changes incompatibly; client and relay must agree."""

SUPPORTED_VERSIONS = (1, 2, 3)
"""The versions this relay still speaks, oldest first.

A connection speaks the version its ``hello`` named (the relay's ``welcome`` says it
back). Version 2 added one message, ``record``, sent to version 2 connections only.
Version 3 sends an ``update``'s view as a patch of the view before it (:func:`view_patch`)
instead of whole. Older connections are sent what they always were, so their clients
keep playing. A relay answers any other version with an ``error`` ``version``.
"""

RECORD_SINCE = 2
"""The first protocol version whose connections are sent ``record`` at the end of a match."""

PATCH_SINCE = 3
"""The first protocol version whose ``update`` messages carry ``base`` and ``patch``."""

SUBPROTOCOL = "soccerdesk.v1"
"""WebSocket subprotocol name (informative; the ``hello`` version is what is checked)."""

MAX_FRAME_BYTES = 8 * 1024
"""The largest client frame the relay reads; larger ones are refused with ``too_big``."""

MAX_CHAT_CHARS = 500
MAX_NAME_CHARS = 40
MAX_ACTION_CHARS = 200

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""Join-code letters: no 0/O or 1/I/L to misread when a code is read out to a friend."""

CODE_LENGTH = 6
"""The length of the codes a relay makes (the protocol accepts 4 to 16 letters and digits)."""


# --- error codes -----------------------------------------------------------------------

ERROR_CODES: dict[str, str] = {
    "version": "the client speaks a protocol version this relay does not",
    "malformed": "the frame is not a JSON object",
    "too_big": "the frame is larger than the relay reads",
    "unknown_type": "no message has this type",
    "bad_message": "a field is missing, unknown or of the wrong kind",
    "not_ready": "send hello first, then create, join, resume or spectate",
    "no_room": "no room has this code",
    "room_full": "both seats are taken",
    "bad_token": "the seat token does not belong to this room",
    "no_spectators": "the host does not allow spectators",
    "read_only": "spectators may only watch",
    "not_host": "only the host may do that",
    "not_now": "the request does not fit the match right now",
    "rate_limited": "too many messages; slow down",
    "bad_game": "unknown game or bad options",
    "server_busy": "the relay holds as many rooms as it may",
    "replaced": "this seat was taken over by a newer connection with its token",
    "internal": "the relay failed; the match is unchanged",
    "host_left": "the LAN host closed the game: its relay is gone, do not reconnect",
    "timeout": "the connection said no hello in time",
}
"""Every ``error`` code with what it means. An error never changes a match."""


class ProtocolError(ValueError):
    """A message that breaks the protocol. ``code`` is a key of :data:`ERROR_CODES`."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def to_message(self) -> dict[str, Any]:
        """The ``error`` message that reports this to the other end."""
        return {"type": "error", "code": self.code, "message": self.message}


# --- field kinds -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Field:
    """One field of a message: its name, whether it must be there, and what it accepts."""

    name: str
    kind: str
    required: bool = True
    accepts: Callable[[Any], bool] | None = None
    looks: str = ""  # what a good value looks like, in words, for the refusal of a bad one


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _text(limit: int) -> Callable[[Any], bool]:
    return lambda v: isinstance(v, str) and 0 < len(v) <= limit


def _seat_or_none(value: Any) -> bool:
    return value is None or (_is_int(value) and value in (0, 1))


def _nonneg_int_or_none(value: Any) -> bool:
    return value is None or (_is_int(value) and value >= 0)


_KINDS: dict[str, Callable[[Any], bool]] = {
    "int": _is_int,
    "str": lambda v: isinstance(v, str),
    "bool": lambda v: isinstance(v, bool),
    "dict": lambda v: isinstance(v, dict),
    "list": lambda v: isinstance(v, list),
    "seat": _seat_or_none,
    "count": _nonneg_int_or_none,
    "any": lambda v: True,
}


def _code(value: Any) -> bool:
    return isinstance(value, str) and 4 <= len(value) <= 16 and value.isalnum()


_CODE_LOOKS = f"a room code is 4 to 16 letters and digits (a relay makes codes of {CODE_LENGTH}, such as CA24T4)"


def _options(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and len(value) <= 32
        and all(isinstance(k, str) and isinstance(v, (str, int, bool)) for k, v in value.items())
    )


def _token(value: Any) -> bool:
    return isinstance(value, str) and 8 <= len(value) <= 64


def _seconds(low: int, high: int) -> Callable[[Any], bool]:
    return lambda v: v is None or (_is_int(v) and low <= v <= high)


CLIENT_MESSAGES: dict[str, tuple[Field, ...]] = {
    "hello": (Field("version", "int"), Field("client", "str", False, _text(80))),
    "create": (
        Field("game", "str", True, _text(40)),
        Field("options", "dict", False, _options),
        Field("name", "str", False, _text(MAX_NAME_CHARS)),
        Field("seat", "seat", False),  # None: the relay tosses for seats
        Field("spectators", "bool", False),
        Field("turn_seconds", "count", False, _seconds(1, 3600)),  # the relay may raise small values
        Field("abandon_seconds", "count", False, _seconds(1, 3600)),
    ),
    "join": (Field("room", "str", True, _code, _CODE_LOOKS), Field("name", "str", False, _text(MAX_NAME_CHARS))),
    "resume": (
        Field("room", "str", True, _code, _CODE_LOOKS),
        Field("token", "str", True, _token, "a seat token is 8 to 64 characters"),
        Field("match", "count", False),  # the match and ply the client last saw:
        Field("seq", "count", False),  # events after them are sent again
    ),
    "spectate": (Field("room", "str", True, _code, _CODE_LOOKS),),
    "act": (Field("action", "str", True, _text(MAX_ACTION_CHARS)), Field("ply", "count", False)),
    "chat": (Field("text", "str", True, _text(MAX_CHAT_CHARS)),),
    "rematch": (),
    "claim": (Field("take", "str", True, lambda v: v in ("win", "bot")),),
    "spectators": (Field("allow", "bool"),),
    "leave": (),
    "ping": (),
}
"""Messages a client may send, with their fields (``type`` is implied)."""

SERVER_MESSAGES: dict[str, tuple[Field, ...]] = {
    "welcome": (Field("version", "int"), Field("server", "str"), Field("games", "list")),
    "joined": (
        Field("room", "str"),
        Field("seat", "seat"),
        Field("token", "any"),  # str for a player, None for a spectator
        Field("host", "bool"),
        Field("game", "str"),
        Field("options", "dict"),
        Field("settings", "dict"),
    ),
    "snapshot": (
        Field("match", "int"),
        Field("seq", "int"),
        Field("view", "dict"),
        Field("events", "list"),
        Field("players", "list"),
        Field("chat", "list"),
        Field("rematch", "list"),
        Field("result", "any"),
        Field("clock", "dict"),
        Field("countdown", "any"),
        Field(
            "played",
            "any",
            False,
            lambda v: v is None or (isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0),
        ),
    ),
    "update": (
        Field("match", "int"),
        Field("seq", "int"),
        # Up to version 2 always the whole view. Since version 3 either the whole view
        # (the connection had no view of ply ``base`` to patch) or ``base`` and ``patch``.
        Field("view", "dict", False),
        Field("base", "int", False),  # the seq of the view the patch applies to
        Field("patch", "list", False),  # view_patch(view at base, view at seq)
        Field("events", "list"),
        Field("yours", "bool"),  # this update applies an action this seat submitted
    ),
    "presence": (Field("players", "list"), Field("spectators", "int")),
    "chat": (Field("seat", "seat"), Field("name", "str"), Field("text", "str")),
    "clock": (Field("clock", "dict"),),
    "countdown": (Field("countdown", "any"),),
    "rematch": (Field("offered", "list"),),
    "finished": (Field("result", "dict"),),
    # Since version 2: the whole match record (Game.dump), hidden cards included, sent only
    # once the match is over and right before its "finished" (and on joining a finished match).
    "record": (Field("match", "int"), Field("record", "dict")),
    # Since version 3, "again": the ply at which the same action may be sent again, when it
    # was refused only because the other seat's secret choice landed first (a race).
    "refused": (Field("action", "str"), Field("reason", "str"), Field("again", "int", False)),
    "error": (Field("code", "str"), Field("message", "str")),
    "pong": (),
}
"""Messages the relay sends, with their fields."""


def decode(text: str | bytes, allowed: Mapping[str, tuple[Field, ...]] = CLIENT_MESSAGES) -> dict[str, Any]:
    """Parse and check one frame against ``allowed`` message types.

    Returns the message as a dict with optional fields absent when not sent.
    Raises :class:`ProtocolError` (``too_big``, ``malformed``, ``unknown_type``,
    ``bad_message``) saying exactly what is wrong; unknown fields are refused too,
    so a client cannot smuggle a ``seat`` into ``act``.
    """
    if len(text) > MAX_FRAME_BYTES and allowed is CLIENT_MESSAGES:
        raise ProtocolError("too_big", f"frame of {len(text)} characters; the relay reads at most {MAX_FRAME_BYTES}")
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("malformed", "the frame is not valid JSON") from None
    if not isinstance(message, dict):
        raise ProtocolError("malformed", 'a message is a JSON object with a "type"')
    if not is_unicode(message):
        # JSON may spell half of a UTF-16 surrogate pair ("\\ud800"): such text cannot be sent
        # on (UTF-8 has no form for it), so it is refused wherever it is, before it is stored.
        raise ProtocolError("bad_message", "the message holds text that is not valid Unicode")
    kind = message.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("bad_message", 'the message has no "type" text')
    fields = allowed.get(kind)
    if fields is None:
        raise ProtocolError("unknown_type", f"no message of type {kind[:40]!r}; known: {', '.join(allowed)}")
    check_fields(kind, message, fields)
    return message


def check_fields(kind: str, message: Mapping[str, Any], fields: tuple[Field, ...]) -> None:
    """Raise ``bad_message`` unless ``message`` has exactly the right fields."""
    known = {f.name for f in fields}
    extra = [k for k in message if k != "type" and k not in known]
    if extra:
        raise ProtocolError("bad_message", f"{kind}: unknown field {str(extra[0])[:40]!r}")
    for f in fields:
        if f.name not in message:
            if f.required:
                raise ProtocolError("bad_message", f"{kind}: field {f.name!r} is missing")
            continue
        value = message[f.name]
        if not _KINDS[f.kind](value) or (f.accepts is not None and not f.accepts(value)):
            looks = f": {f.looks}" if f.looks else ""
            raise ProtocolError("bad_message", f"{kind}: field {f.name!r} has a bad value{looks}")


def is_unicode(value: Any) -> bool:
    """Whether every text in ``value`` (keys of objects included) can be written as UTF-8."""
    if isinstance(value, str):
        return value.isascii() or _SURROGATE.search(value) is None
    if isinstance(value, dict):
        return all(is_unicode(k) and is_unicode(v) for k, v in value.items())
    if isinstance(value, list):
        return all(is_unicode(v) for v in value)
    return True


_SURROGATE = re.compile("[\ud800-\udfff]")
_HIDDEN = frozenset(("Cc", "Cf", "Cs", "Zl", "Zp"))
"""Character categories shown as nothing or as a line break: controls, format characters
(bidirectional overrides, zero-width marks), surrogates, line and paragraph separators."""


def clean_line(text: str, limit: int) -> str:
    """``text`` as one line of visible characters, at most ``limit`` of them.

    Controls (NUL, newlines, escapes), invisible format characters (bidirectional
    overrides, zero-width marks) and lone surrogates become
    spaces, so a line cannot fake other lines or reorder what is shown; runs of spaces
    shrink to one. May return ``""``.
    """
    kept = "".join(" " if unicodedata.category(c) in _HIDDEN else c for c in text)
    return " ".join(kept.split())[:limit]


def clean_chat(text: str) -> str:
    """Chat text as the relay passes it on: :func:`clean_line`, at most :data:`MAX_CHAT_CHARS`.

    Raises ``bad_message`` when nothing visible is left. Clients still show chat as plain
    text, never as markup.
    """
    line = clean_line(text, MAX_CHAT_CHARS)
    if not line:
        raise ProtocolError("bad_message", "chat: the text has nothing to show")
    return line


def typed_code(text: str) -> str:
    """A room code as a person typed it, as the relay knows it: upper case, without the blanks
    and dashes people put in to read it out ("ymd-qug" is ``YMDQUG``).

    Raises ``ValueError`` saying what a code looks like when ``text`` cannot be one, so a
    player reads that rather than the relay's refusal of the field.
    """
    code = "".join(text.split()).replace("-", "").upper()
    if not code:
        raise ValueError("Type the code your friend gave you: 6 letters and digits, such as CA24T4.")
    if not code.isalnum() or not code.isascii() or len(code) != CODE_LENGTH:
        raise ValueError(
            f"{text.strip()!r} is not a room code: a code is {CODE_LENGTH} letters and digits, such as CA24T4."
        )
    odd = sorted(set(code) - set(CODE_ALPHABET))
    if odd:
        raise ValueError(
            f"No room code has {' or '.join(odd)}: codes leave out 0, O, 1, I and L, which are easily mixed up. "
            "Check the code with your friend."
        )
    return code


def clean_name(text: str, default: str) -> str:
    """A player's name as the relay keeps it: :func:`clean_line`, or ``default`` if nothing is left."""
    return clean_line(text, MAX_NAME_CHARS) or default


# --- turns of the per-turn clock -------------------------------------------------------


def turns_ended(
    actor: int, deciding: Collection[int], picking: frozenset[int]
) -> tuple[frozenset[int], frozenset[int]]:
    """Where the per-turn clock's turns end around simultaneous secret choices (protocol.md,
    "Per-turn clock"); the relay runs its clocks by it, and the app words its clock with it.

    ``actor`` (a seat, or -1 for the relay's dice) has just decided, and the seats in
    ``deciding`` owe a decision now; ``picking`` holds the seats whose decision was their part
    of a simultaneous choice (both seats owed a secret choice at once). Returns the seats whose
    turn is over, though they may owe the next decision (that decision starts a fresh clock),
    and the seats picking now.

    A seat's secret choice ends its turn; and a new simultaneous choice is a turn of its own for
    both seats, also for one that was deciding just before. Otherwise a turn goes on while its
    seat owes decisions: in Soccer-Go, a match of secret picks, the seat that picked last would
    otherwise never see its turn end, and a pass could begin with two seconds left.
    """
    ended = {actor} & picking
    now = set(deciding)
    if {0, 1} <= now:
        return frozenset(ended | {0, 1}), frozenset({0, 1})
    return frozenset(ended), frozenset((picking & now) - {actor})


# --- view patches (protocol 3) --------------------------------------------------------


def view_patch(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The JSON Patch (RFC 6902: ``add``, ``remove``, ``replace`` only) that turns ``old`` into ``new``.

    Objects are compared key by key, down to any depth. A list of the same length whose
    items changed in at most half of its places is patched item by item (a player who
    moved is one small operation, not the whole team); any other changed list, and any
    other changed value, is replaced whole. Paths are JSON Pointers (RFC 6901). A field
    that never changes (Soccer-Go's card table) is never in a patch, so it crosses the
    wire once per connection, in the ``snapshot``.

    Values of the same type are compared with Python's ``==`` first, which is fast but
    takes ``1``, ``1.0`` and ``true`` for the same inside an object or a list; a value
    whose own type changes is always patched. Views keep each field's JSON type, so
    nothing is missed.
    """
    ops: list[dict[str, Any]] = []
    _diff(old, new, "", ops)
    return ops


def _diff(old: Mapping[str, Any], new: Mapping[str, Any], path: str, ops: list[dict[str, Any]]) -> None:
    for key, value in new.items():
        if key not in old:
            ops.append({"op": "add", "path": f"{path}/{_pointer_token(key)}", "value": value})
            continue
        before = old[key]
        if before is not value and (type(before) is not type(value) or before != value):
            _changed(before, value, f"{path}/{_pointer_token(key)}", ops)
    if old.keys() != new.keys():
        ops.extend({"op": "remove", "path": f"{path}/{_pointer_token(key)}"} for key in old if key not in new)


def _changed(before: Any, value: Any, path: str, ops: list[dict[str, Any]]) -> None:
    """Patch ``path`` from ``before`` to ``value``, which differ."""
    if type(before) is type(value):
        if isinstance(value, dict):
            _diff(before, value, path, ops)
            return
        if isinstance(value, list) and len(value) == len(before):
            changed = [
                i
                for i, (a, b) in enumerate(zip(before, value, strict=True))
                if a is not b and (type(a) is not type(b) or a != b)
            ]
            if 2 * len(changed) <= len(value):
                for i in changed:
                    _changed(before[i], value[i], f"{path}/{i}", ops)
                return
    ops.append({"op": "replace", "path": path, "value": value})


def _pointer_token(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def apply_patch(doc: dict[str, Any], patch: list[Any]) -> dict[str, Any]:
    """A new document: ``doc`` with a :func:`view_patch` applied. ``doc`` itself is not changed.

    Only the objects and lists on the patched paths are copied; the rest is shared with
    ``doc``. Raises :class:`ProtocolError` ``bad_message`` for an operation that does not fit.
    """
    out = dict(doc)
    copied = {id(out)}
    for op in patch:
        if not isinstance(op, dict) or op.get("op") not in ("add", "remove", "replace"):
            raise ProtocolError("bad_message", f"update: a patch operation is not add, remove or replace: {op!r:.80}")
        path = op.get("path")
        if not isinstance(path, str) or not path.startswith("/"):
            raise ProtocolError("bad_message", f"update: bad patch path {path!r:.80}")
        *parents, last = [t.replace("~1", "/").replace("~0", "~") for t in path[1:].split("/")]
        target: Any = out
        for token in parents:
            key = _slot(target, token, path)
            child = target[key]
            if not isinstance(child, (dict, list)):
                raise ProtocolError("bad_message", f"update: patch path {path!r:.80} does not lead to an object")
            if id(child) not in copied:
                child = target[key] = type(child)(child)
                copied.add(id(child))
            target = child
        if isinstance(target, list):  # items of a list are only ever replaced
            if op["op"] != "replace" or "value" not in op:
                raise ProtocolError("bad_message", f"update: patch operation on {path!r:.80} does not fit the view")
            target[_slot(target, last, path)] = op["value"]
        elif op["op"] == "remove":
            if last not in target:
                raise ProtocolError("bad_message", f"update: patch removes {path!r:.80}, which is not there")
            del target[last]
        elif "value" not in op or (op["op"] == "replace" and last not in target):
            raise ProtocolError("bad_message", f"update: patch operation on {path!r:.80} does not fit the view")
        else:
            target[last] = op["value"]
    return out


def _slot(container: dict[str, Any] | list[Any], token: str, path: str) -> Any:
    """The key (object) or index (list) ``token`` names in ``container``; it must be there."""
    if isinstance(container, list):
        if (
            not (token.isascii() and token.isdigit())
            or int(token) >= len(container)
            or (token != "0" and token.startswith("0"))
        ):
            raise ProtocolError("bad_message", f"update: patch path {path!r:.80} names no item of a list")
        return int(token)
    if token not in container:
        raise ProtocolError("bad_message", f"update: patch path {path!r:.80} does not lead to an object")
    return token


def encode(kind: str, **fields: Any) -> str:
    """One frame of message ``kind`` (compact JSON, ``type`` first)."""
    return json.dumps({"type": kind, **fields}, separators=(",", ":"), ensure_ascii=False)


def error(code: str, message: str) -> str:
    """An ``error`` frame; ``code`` must be one of :data:`ERROR_CODES`."""
    if code not in ERROR_CODES:
        raise ValueError(f"unknown error code {code!r}")
    return encode("error", code=code, message=message)


__all__ = [
    "CLIENT_MESSAGES",
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "ERROR_CODES",
    "MAX_CHAT_CHARS",
    "MAX_FRAME_BYTES",
    "PROTOCOL_VERSION",
    "RECORD_SINCE",
    "SERVER_MESSAGES",
    "SUBPROTOCOL",
    "SUPPORTED_VERSIONS",
    "Field",
    "ProtocolError",
    "check_fields",
    "PATCH_SINCE",
    "apply_patch",
    "clean_chat",
    "clean_line",
    "clean_name",
    "decode",
    "is_unicode",
    "turns_ended",
    "typed_code",
    "view_patch",
    "encode",
    "error",
]
