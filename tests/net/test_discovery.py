"""LAN discovery: the announcement's contents, the browser's list, and a real mDNS exchange
inside a private network namespace (never on the machine's own network)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from soccerdesk.net.discovery import LanBrowser, LanGame, lan_game_from, service_info
from soccerdesk.net.protocol import PROTOCOL_VERSION

ROOT = Path(__file__).resolve().parents[2]
GAME = LanGame("Alice – Pawn Soccer", "192.0.2.7", 45678, "K7MPQ2", "pawn-soccer")


def test_the_announcement_carries_address_port_code_and_game() -> None:
    found = lan_game_from(service_info(GAME))
    assert found == GAME
    assert found.url == "ws://192.0.2.7:45678/ws"


def test_long_or_dotted_names_still_make_a_valid_service_name() -> None:
    info = service_info(LanGame("a.b " * 40, "192.0.2.7", 1, "K7MPQ2", "soccero"))
    label = info.name.removesuffix("._soccerdesk._tcp.local.")
    assert "." not in label and len(label.encode()) <= 63


def test_browser_lists_compatible_games_and_forgets_withdrawn_ones() -> None:
    seen: list[list[LanGame]] = []
    browser = LanBrowser(seen.append)
    browser.add("a", GAME)
    browser.add("b", LanGame("Zed", "192.0.2.8", 1, "ZZZZZZ", "soccero", version=PROTOCOL_VERSION + 1))
    assert browser.games == [GAME]  # another protocol version cannot be joined: not listed
    browser.remove("a")
    browser.remove("never-seen")
    assert seen[-1] == [] and len(seen) == 3


def _netns_available() -> bool:
    return sys.platform.startswith("linux") and shutil.which("ip") is not None and os.geteuid() == 0


PROBE = """
import asyncio
from zeroconf.asyncio import AsyncZeroconf
from soccerdesk.net.discovery import LanAnnouncer, LanBrowser, LanGame

async def main():
    only_lo = lambda: AsyncZeroconf(interfaces=["127.0.0.1"])
    announcer = LanAnnouncer(only_lo)
    await announcer.start(LanGame("Alice", "127.0.0.1", 4567, "K7MPQ2", "pawn-soccer"))
    found = asyncio.Event()
    browser = LanBrowser(lambda games: games and found.set(), only_lo)
    await browser.start()
    try:
        await asyncio.wait_for(found.wait(), 15)
        print(repr(browser.games[0]))
    finally:
        await browser.stop()
        await announcer.stop()

asyncio.run(main())
"""


@pytest.mark.skipif(not _netns_available(), reason="needs root and iproute2 to make a private network namespace")
def test_announce_and_browse_over_real_mdns_inside_a_private_network_namespace() -> None:
    """The namespace has only its own loopback: the multicast cannot reach any real network."""
    ns = f"soccerdesk-{uuid.uuid4().hex[:8]}"
    if subprocess.run(["ip", "netns", "add", ns], capture_output=True).returncode != 0:
        pytest.skip("this sandbox does not allow network namespaces")
    try:
        for cmd in (
            ["ip", "link", "set", "lo", "up"],
            ["ip", "link", "set", "lo", "multicast", "on"],
            ["ip", "route", "add", "224.0.0.0/4", "dev", "lo"],
        ):
            subprocess.run(["ip", "netns", "exec", ns, *cmd], check=True)
        out = subprocess.run(
            ["ip", "netns", "exec", ns, sys.executable, "-c", PROBE],
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert out.returncode == 0, out.stderr[-2000:]
        assert "room='K7MPQ2'" in out.stdout and "port=4567" in out.stdout
    finally:
        subprocess.run(["ip", "netns", "del", ns], check=False)
