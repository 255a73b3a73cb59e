"""A real ``redis-server`` for the cluster tests (a uniquely named module, so test modules can
import it whichever conftest is loaded first).

The server runs on a free loopback port with its data in a directory of its own, with the
append-only file on and ``appendfsync always`` (see ``conftest.py`` for why).
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import time
from pathlib import Path

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
