"""Fixtures of the cluster tests: a real ``redis-server`` on a free loopback port.

Each test gets its own server in its own temporary directory, with the append-only file on
and ``appendfsync always``: Redis writes and fsyncs each command to the AOF before it answers,
so whatever a client was told is stored survives a ``SIGKILL`` of the server (and a power cut).
That is the guarantee the relay gives players ("an action is acknowledged once it is in
Redis"), so the tests run Redis as production must (server/deploy/README.md); ``everysec``
may lose the last second of acknowledged writes when the machine fails.

The tests are skipped, saying why, only where ``redis-server`` is not installed (Debian
package ``redis-server``; ``.ci/run`` installs it when it runs as root).
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

REDIS_SERVER = shutil.which("redis-server") or next(
    (p for p in ("/usr/bin/redis-server", "/usr/sbin/redis-server") if Path(p).exists()), None
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class RedisServer:
    """One ``redis-server`` process on 127.0.0.1 with its data in ``directory``."""

    def __init__(self, directory: Path) -> None:
        assert REDIS_SERVER is not None
        self.directory = directory
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start the server (on the same port as before, if it ran before) and wait until it answers."""
        for attempt in range(5):
            port = self.port or free_port()
            log = open(self.directory / "redis.log", "ab")  # noqa: SIM115 (closed when the process ends)
            self.process = subprocess.Popen(
                [
                    str(REDIS_SERVER),
                    "--bind",
                    "127.0.0.1",
                    "--port",
                    str(port),
                    "--dir",
                    str(self.directory),
                    "--appendonly",
                    "yes",
                    "--appendfsync",
                    "always",
                    "--save",
                    "",
                    "--daemonize",
                    "no",
                    "--logfile",
                    "",
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
            )
            log.close()
            if self._wait_ready(port):
                self.port = port
                return
            self.kill()
            if self.port and attempt >= 2:
                break
        raise RuntimeError(f"redis-server did not start; see {self.directory / 'redis.log'}")

    def _wait_ready(self, port: int) -> bool:
        deadline = time.monotonic() + 10.0
        while time.monotonic() < deadline:
            if self.process is None or self.process.poll() is not None:
                return False
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5) as s:
                s.sendall(b"PING\r\n")
                if s.recv(64).startswith(b"+PONG"):
                    return True
            time.sleep(0.02)
        return False

    def kill(self) -> None:
        """``SIGKILL``: the server gets no chance to flush or save anything."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)
        self.process = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self.process = None


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    if REDIS_SERVER is None:
        pytest.skip("redis-server is not installed (Debian package redis-server; .ci/run installs it as root)")
    server = RedisServer(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
async def redis_client(redis_server: RedisServer) -> AsyncIterator[object]:
    """An asyncio client of the test's server (closed at the end)."""
    from redis.asyncio import Redis

    client = Redis.from_url(redis_server.url, socket_timeout=2.0, socket_connect_timeout=2.0)
    try:
        yield client
    finally:
        await client.aclose()
