"""A real ``redis-server`` for the cluster tests, a client connection as the relay sends to
it, and :func:`until` (a uniquely named module, so test modules can import it whichever conftest is loaded first).

The server runs on a free loopback port with its data in a directory of its own, with the
append-only file on and ``appendfsync always`` (see ``conftest.py`` for why).
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import shutil
import socket
import subprocess
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

from tests.relay_process import free_port

REDIS_SERVER = shutil.which("redis-server") or next(
    (p for p in ("/usr/bin/redis-server", "/usr/sbin/redis-server") if Path(p).exists()), None
)


@contextlib.contextmanager
def running_redis(directory: Path) -> Iterator[RedisServer]:
    """A started :class:`RedisServer` with its data in ``directory`` (made if missing), stopped
    at the end; the test is skipped, saying why, where ``redis-server`` is not installed."""
    import pytest

    if REDIS_SERVER is None:
        pytest.skip("redis-server is not installed (Debian package redis-server; .ci/run installs it as root)")
    directory.mkdir(parents=True, exist_ok=True)
    server = RedisServer(directory)
    server.start()
    try:
        yield server
    finally:
        server.stop()


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


class Connection:
    """A client connection as the relay's ``Connection`` sends to it: frames in order, each only
    once every write made before it is in Redis (``durable()``, as ``server.relay`` waits on its
    store's); if those writes failed, the connection closes instead (the client would resume).

    ``on_frame(frame)``, if given, looks at each frame as it goes out.
    """

    def __init__(self, name: str, durable: Any, on_frame: Any = None) -> None:
        self.name = name
        self.version = 2
        self.ip = "198.51.100.9"
        self.durable = durable
        self.on_frame = on_frame
        self.frames: list[dict[str, Any]] = []
        self.closed: tuple[str, str] | None = None
        self._queue: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        self._writer = asyncio.get_running_loop().create_task(self._write())

    def send(self, text: str) -> None:
        self._queue.put_nowait(("text", text))

    def close(self, code: str, message: str) -> None:
        self._queue.put_nowait(("close", (code, message)))

    async def _write(self) -> None:
        while True:
            kind, payload = await self._queue.get()
            try:
                if self.closed is not None:
                    continue
                committed = self.durable()
                if committed is not None:
                    try:
                        await asyncio.shield(committed)
                    except Exception as exc:
                        self.closed = ("internal", f"not stored: {exc}")
                        continue
                if kind == "close":
                    self.closed = payload
                else:
                    frame = json.loads(payload)
                    if self.on_frame is not None:
                        self.on_frame(self, frame)
                    self.frames.append(frame)
            finally:
                self._queue.task_done()

    async def drained(self) -> None:
        """Until every frame given so far has gone out (or been dropped)."""
        await self._queue.join()

    def stop(self) -> None:
        self._writer.cancel()

    def views(self) -> list[dict[str, Any]]:
        return [f for f in self.frames if f["type"] in ("update", "snapshot")]

    def last_view(self) -> dict[str, Any] | None:
        views = self.views()
        return views[-1]["view"] if views else None

    def token(self) -> str:
        return str(next(f["token"] for f in self.frames if f["type"] == "joined"))


async def until(check: Callable[[], bool | Awaitable[bool]], timeout: float = 20.0, what: str = "") -> None:
    """Wait until ``check()`` (a coroutine function too) holds, or fail after ``timeout`` seconds."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        held = check()
        if inspect.isawaitable(held):
            held = await held
        if held:
            return
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting: {what}")
        await asyncio.sleep(0.01)
