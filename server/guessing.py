"""Wrong guesses of room codes and tokens: what each refusal counts against, and when a
``resume`` is answered ``rate_limited``. Shared by a single relay (:mod:`server.relay`) and a
cluster node (:mod:`server.cluster`), and free of Redis: a relay without the ``cluster``
extra imports it too.
"""

from __future__ import annotations

from typing import Protocol

from soccerdesk.net.protocol import ProtocolError


class Guesses(Protocol):
    """Where wrong guesses are counted: a single relay's limits or a cluster's (:class:`ClusterLimits`)."""

    async def may_guess(self, key: str) -> bool: ...

    async def wrong_guess(self, key: str) -> None: ...


GUESSING = "too many wrong room codes or tokens; wait a minute"


def tokens_key(ip: str, code: str) -> str:
    """What wrong tokens of room ``code`` from address ``ip`` count against."""
    return f"{ip} {code}"


def guess_key(refusal: str, ip: str, code: str) -> str | None:
    """What a refused ``join``, ``spectate`` or ``resume`` of room ``code`` counts against: a wrong
    room code (``no_room``) the address, a wrong token (``bad_token``) the address and room, so that
    a neighbour behind the same NAT guessing the tokens of one room locks nobody out of another;
    ``None`` for any other refusal, which is no guess."""
    if refusal == "no_room":
        return ip
    if refusal == "bad_token":
        return tokens_key(ip, code)
    return None


async def resume_limited(limits: Guesses, ip: str, code: str) -> bool:
    """Whether a wrong ``resume`` of room ``code`` from ``ip`` is answered ``rate_limited`` (not
    ``no_room`` or ``bad_token``): the address used up its wrong room codes, or its wrong tokens
    of this room. The right code and token always get in, so the answer says nothing about them."""
    return not await limits.may_guess(ip) or not await limits.may_guess(tokens_key(ip, code))


async def count_refusal(limits: Guesses, refusal: ProtocolError, kind: str, ip: str, code: str) -> ProtocolError:
    """What a refused ``join``, ``spectate`` or ``resume`` (``kind``) of room ``code`` from ``ip``
    is answered, once counted: a refusal that is a guess (:func:`guess_key`) counts against its
    key, and a wrong ``resume`` from an address out of guesses (:func:`resume_limited`, asked
    before this one is counted) is told ``rate_limited``; anything else is answered as it is.
    Only a refused resume asks the limits: a right token costs no look-up."""
    key = guess_key(refusal.code, ip, code)
    if key is None:
        return refusal
    limited = kind == "resume" and await resume_limited(limits, ip, code)
    await limits.wrong_guess(key)
    return ProtocolError("rate_limited", GUESSING) if limited else refusal


__all__ = ["GUESSING", "Guesses", "count_refusal", "guess_key", "resume_limited", "tokens_key"]
