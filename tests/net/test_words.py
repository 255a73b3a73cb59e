"""Wrong codes and addresses are answered in words a player can act on (QA pass 16, finding 7):
never in the protocol's jargon ("join: field 'room' has a bad value"), and never with the
address again as the reason why it cannot be reached."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from aiohttp import web

from soccerdesk.net.client import RelayClient, RelayError
from soccerdesk.net.protocol import CODE_ALPHABET, ProtocolError, decode, typed_code


def test_a_code_is_read_as_people_type_it() -> None:
    assert typed_code("ymdqug") == "YMDQUG"
    assert typed_code(" YMD-QUG ") == "YMDQUG"  # a dash or a blank put in to read it out
    assert typed_code("ymd qug") == "YMDQUG"


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("", "Type the code your friend gave you: 6 letters and digits, such as CA24T4."),
        ("ab", "'ab' is not a room code: a code is 6 letters and digits, such as CA24T4."),
        ("YMD/QUG", "'YMD/QUG' is not a room code: a code is 6 letters and digits, such as CA24T4."),
        ("ABCDEFG", "'ABCDEFG' is not a room code: a code is 6 letters and digits, such as CA24T4."),
        ("ÄBCDEF", "'ÄBCDEF' is not a room code: a code is 6 letters and digits, such as CA24T4."),
        ("YMDQU0", "No room code has 0: codes leave out 0, O, 1, I and L, which are easily mixed up."),
        ("OI1QUG", "No room code has 1 or I or O: codes leave out 0, O, 1, I and L"),
    ],
)
def test_a_code_that_cannot_be_one_says_what_a_code_looks_like(typed: str, said: str) -> None:
    with pytest.raises(ValueError) as caught:
        typed_code(typed)
    assert str(caught.value).startswith(said)
    assert "field" not in str(caught.value)


def test_every_code_a_relay_makes_is_one_a_player_can_type() -> None:
    assert typed_code(CODE_ALPHABET[:6].lower()) == CODE_ALPHABET[:6]
    assert not set("0O1IL") & set(CODE_ALPHABET)


def test_the_relay_too_says_what_a_code_looks_like() -> None:
    """A client other than the app sends the relay a bad code: its refusal says what a code is."""
    with pytest.raises(ProtocolError) as caught:
        decode('{"type": "join", "room": "YMD-QUG"}')
    assert caught.value.code == "bad_message"
    assert caught.value.message.endswith(
        "a room code is 4 to 16 letters and digits (a relay makes codes of 6, such as CA24T4)"
    )


@pytest.fixture
async def web_page() -> AsyncIterator[str]:
    """A web server on 127.0.0.1 that is no relay: it has a page at / and nothing at /ws."""

    async def page(request: web.Request) -> web.Response:
        return web.Response(text="a web page")

    app = web.Application()
    app.router.add_get("/", page)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        yield f"ws://127.0.0.1:{runner.addresses[0][1]}/ws"
    finally:
        await runner.cleanup()


async def _why(url: str) -> str:
    client = RelayClient(url, reconnect=False)
    try:
        with pytest.raises(RelayError) as caught:
            await client.connect()
    finally:
        await client.close()
    assert caught.value.code == "unreachable"
    prefix = f"cannot reach the relay at {url}: "
    assert caught.value.message.startswith(prefix)
    return caught.value.message.removeprefix(prefix)


async def test_an_address_the_app_cannot_use_is_not_given_as_its_own_reason() -> None:
    """QA: "cannot reach the relay at ws://[http://…]:8765/ws: ws://[http://…]:8765/ws"."""
    for url in ("ws://[http://127.0.0.1:18716/]:8765/ws", "ws://127.0.0.1:99999/ws"):
        why = await _why(url)
        assert url not in why and "not an address the app can connect to" in why


async def test_a_web_server_that_is_no_relay_is_told_apart_from_nothing_answering(web_page: str) -> None:
    assert await _why(web_page) == "something answers there, but it is not a soccerdesk relay (it said HTTP 404)"
