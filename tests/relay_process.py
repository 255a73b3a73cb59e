"""A relay in a process of its own, for tests that kill it or starve it (a full disk, say)."""

from __future__ import annotations

import os
import resource
import signal
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_relay_process(port: int, db: Path) -> subprocess.Popen[str]:
    """A relay in a process of its own (``python -m server``), listening once this returns."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "server",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--db",
            str(db),
            "--log-level",
            "WARNING",
            "--message-rate",
            "5000",
            "--ip-message-rate",
            "20000",
        ],  # bots play faster than people
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    assert "listening" in proc.stdout.readline()
    return proc


def kill_process(proc: subprocess.Popen[str]) -> None:
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    if proc.stdout is not None:
        proc.stdout.close()


def disk_full(proc: subprocess.Popen[str], full: bool) -> None:
    """Make every write of the relay process fail past a file's first byte, or work again."""
    resource.prlimit(proc.pid, resource.RLIMIT_FSIZE, (1 if full else resource.RLIM_INFINITY, resource.RLIM_INFINITY))


class RelayProcess:
    """A relay in a process of its own on one database file, which a test may restart."""

    def __init__(self, db: Path) -> None:
        self.db, self.port = db, free_port()
        self.proc = start_relay_process(self.port, db)

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def kill_and_restart(self) -> None:
        kill_process(self.proc)
        self.proc = start_relay_process(self.port, self.db)
