"""server/deploy/nginx.conf in a real nginx on loopback, in front of two real relay processes:
WebSocket connections pass through, are spread over both nodes, and a node killed with SIGKILL
is skipped at once."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from redis_helpers import free_port

from soccerdesk.net.protocol import PROTOCOL_VERSION

REPO = Path(__file__).resolve().parents[2]
GAMES: list[str] = []  # what the latest welcome offered
NGINX = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if Path(p).exists()), None)


class RelayNode:
    """``python -m server`` on a free loopback port (its rooms in memory unless ``options`` say)."""

    def __init__(self, *options: str) -> None:
        self.port = free_port()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", str(self.port)]
            + list(options or ("--db", ":memory:"))
            + ["--trust-proxy", "--log-level", "WARNING"],
            cwd=REPO,
            stdout=subprocess.PIPE,
            text=True,
            # Tracing the test's own allocations (PYTHONTRACEMALLOC) would slow the relays it
            # starts many times over, past the time limits of the tests that play through them.
            env={k: v for k, v in os.environ.items() if k != "PYTHONTRACEMALLOC"},
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert f":{self.port}/ws" in line, line

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(10)
        if self.process.stdout is not None:
            self.process.stdout.close()


def site_conf(ports: list[int], listen: int) -> str:
    """The shipped nginx.conf with this test's ports (the only lines changed)."""
    text = (REPO / "server" / "deploy" / "nginx.conf").read_text()
    listed = iter(ports)
    text, count = re.subn(r"(?m)^( *server 127\.0\.0\.1:)\d+", lambda m: f"{m.group(1)}{next(listed)}", text)
    assert count == len(ports) == 2, "nginx.conf lists two example nodes"
    text = text.replace("    listen 80;\n", f"    listen 127.0.0.1:{listen};\n")
    return text.replace("    listen [::]:80;\n", "")


@pytest.fixture
def nodes() -> Iterator[list[RelayNode]]:
    made = [RelayNode(), RelayNode()]
    try:
        yield made
    finally:
        for node in made:
            node.kill()


@contextlib.contextmanager
def serve_nginx(directory: Path, ports: list[int]) -> Iterator[int]:
    """nginx running the shipped configuration in front of the relays on ``ports``; its port."""
    if NGINX is None:
        pytest.skip("nginx is not installed (Debian package nginx; .ci/run installs it as root)")
    port = free_port()
    (directory / "site.conf").write_text(site_conf(ports, port))
    temp = {name: directory / name for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi")}
    (directory / "nginx.conf").write_text(
        f"daemon off;\nworker_processes 1;\npid {directory}/nginx.pid;\nerror_log {directory}/error.log info;\n"
        "events { worker_connections 256; }\n"
        "http {\n"
        f"    access_log {directory}/access.log;\n"
        + "".join(f"    {name}_temp_path {path};\n" for name, path in temp.items()).replace(
            "body_temp", "client_body_temp"
        )
        + f"    include {directory}/site.conf;\n}}\n"
    )
    command = [str(NGINX), "-p", str(directory), "-c", str(directory / "nginx.conf")]
    checked = subprocess.run([*command, "-t"], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    process = subprocess.Popen(command, stderr=subprocess.PIPE)
    try:
        yield port
    finally:
        process.terminate()
        process.wait(10)
        if process.stderr is not None:
            process.stderr.close()


@pytest.fixture
def nginx(tmp_path: Path, nodes: list[RelayNode]) -> Iterator[int]:
    with serve_nginx(tmp_path, [node.port for node in nodes]) as port:
        yield port


@pytest.fixture
async def session() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as made:
        yield made


async def greeted(session: aiohttp.ClientSession, port: int) -> aiohttp.ClientWebSocketResponse:
    """A WebSocket through nginx that has said hello and been welcomed (retried while nginx starts)."""
    for _ in range(100):
        try:
            ws = await session.ws_connect(f"ws://127.0.0.1:{port}/ws")
            break
        except aiohttp.ClientConnectorError:
            await asyncio.sleep(0.05)
    else:
        raise AssertionError("nginx did not accept connections")
    await ws.send_str(json.dumps({"type": "hello", "version": PROTOCOL_VERSION, "client": "test"}))
    welcome = json.loads((await ws.receive(timeout=10)).data)
    assert welcome["type"] == "welcome", welcome
    GAMES[:] = welcome["games"]
    return ws


async def health(session: aiohttp.ClientSession, port: int) -> dict[str, Any]:
    async with session.get(f"http://127.0.0.1:{port}/health") as response:
        assert response.status == 200
        return dict(await response.json())


async def test_websockets_through_nginx_spread_and_skip_a_dead_node(
    nginx: int, nodes: list[RelayNode], session: aiohttp.ClientSession
) -> None:
    first = await greeted(session, nginx)
    second = await greeted(session, nginx)
    # least_conn: one long-lived connection on each node.
    assert [(await health(session, node.port))["connections"] for node in nodes] == [1, 1]
    assert "rooms" in await health(session, nginx)  # /health passes through too

    # A room is created through nginx like on a relay of its own.
    await first.send_str(json.dumps({"type": "create", "game": GAMES[0], "name": "Alice", "seat": 0}))
    joined = json.loads((await first.receive(timeout=10)).data)
    assert joined["type"] == "joined" and joined["seat"] == 0 and len(joined["room"]) == 6

    # SIGKILL one node: its client's connection ends; every new connection reaches the other node.
    nodes[0].kill()
    closed = [ws for ws in (first, second) if (await _ended(ws))]
    assert len(closed) == 1
    for _ in range(6):
        ws = await greeted(session, nginx)
        await ws.close()
    assert (await health(session, nodes[1].port))["connections"] == 1  # the survivor's first client
    for ws in (first, second):
        await ws.close()


async def _ended(ws: aiohttp.ClientWebSocketResponse) -> bool:
    """Whether the connection closes within a second (frames still waiting are read past)."""
    deadline = asyncio.get_running_loop().time() + 1.0
    while not ws.closed:
        left = deadline - asyncio.get_running_loop().time()
        if left <= 0:
            return False
        try:
            message = await ws.receive(timeout=left)
        except TimeoutError:
            return False
        if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING):
            return True
    return True
