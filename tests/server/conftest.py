"""Fixtures of the relay tests: a real relay on 127.0.0.1 (port 0) and its clients.

The toy game and the helpers live in ``relay_helpers`` (a uniquely named module, so that
test modules can import them whichever conftest is loaded first).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from relay_helpers import TOY, SpotKicks, relay_settings

from server.relay import RunningRelay, start_relay
from soccerdesk import rules
from soccerdesk.net.client import RelayClient
from soccerdesk.rules.api import Game


@pytest.fixture(autouse=True)
def toy_game(monkeypatch: pytest.MonkeyPatch) -> Game:
    """Register the toy game for this test (the registry's cache is the lookup path)."""
    game = SpotKicks()
    monkeypatch.setitem(rules._loaded, TOY, game)
    return game


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "relay.sqlite3"


@pytest.fixture
async def relay(db_path: Path) -> AsyncIterator[RunningRelay]:
    running = await start_relay(relay_settings(db_path))
    try:
        yield running
    finally:
        await running.stop()


@pytest.fixture
async def clients(relay: RunningRelay) -> AsyncIterator[list[RelayClient]]:
    """A list to put clients in; all are closed at the end."""
    made: list[RelayClient] = []
    try:
        yield made
    finally:
        for client in made:
            await client.close()
