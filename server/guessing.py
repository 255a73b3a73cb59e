"""Wrong guesses of room codes and tokens: what each refusal counts against, and when a
``resume`` is answered ``rate_limited``. Shared by a single relay (:mod:`server.relay`) and a
cluster node (:mod:`server.cluster`), and free of Redis: a relay without the ``cluster``
extra imports it too.
"""

from __future__ import annotations

from typing import Protocol


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


__all__ = ["GUESSING", "Guesses", "guess_key", "resume_limited", "tokens_key"]
