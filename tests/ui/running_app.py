"""The real app in a subprocess (tests/ui/app_driver.py), for the tests that need a whole process:
its exit, its signals, a real display."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

DRIVER = Path(__file__).with_name("app_driver.py")
ROOT = Path(__file__).resolve().parents[2]


class App:
    """The app in a subprocess, read line by line."""

    def __init__(self, tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> None:
        """Start the driver with ``args`` (see app_driver.py), with its own home folder in ``tmp_path``."""
        home = tmp_path / "home"
        home.mkdir(parents=True, exist_ok=True)
        self.env = {
            **os.environ,
            "HOME": str(home),
            "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_DATA_HOME": str(home / ".local" / "share"),
            "QT_QPA_PLATFORM": "offscreen",
            "PYTHONPATH": str(ROOT),
            **(env or {}),
        }
        self.process = subprocess.Popen(
            [sys.executable, str(DRIVER), str(tmp_path / "data"), *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=self.env,
            cwd=ROOT,
        )
        self.lines: list[str] = []
        self._said: queue.Queue[str | None] = queue.Queue()
        self._stderr: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        self._stderr_reader = threading.Thread(target=lambda: self._stderr.extend(self.process.stderr), daemon=True)
        self._stderr_reader.start()

    def _read(self) -> None:
        for line in self.process.stdout:  # type: ignore[union-attr]
            self._said.put(line.rstrip("\n"))
        self._said.put(None)

    def wait_for(self, prefix: str, timeout: float = 60.0) -> str:
        """The next line starting with ``prefix`` (lines before it are kept in ``lines``)."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self._said.get(timeout=left)
            except queue.Empty:
                break
            if line is None:
                break
            self.lines.append(line)
            if line.startswith(prefix):
                return line
        self.close()
        raise AssertionError(f"no {prefix!r} from the app; it said {self.lines}; stderr:\n{''.join(self._stderr)}")

    def finish(self, timeout: float = 30.0) -> tuple[int, str]:
        """Exit code and stderr once the app has ended (it is killed after ``timeout`` seconds)."""
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.close()
            raise
        while (line := self._said.get(timeout=10)) is not None:
            self.lines.append(line)
        self._stderr_reader.join(timeout=10)
        return self.process.returncode, "".join(self._stderr)

    def close(self) -> None:
        """Kill the app if it still runs and close its pipes."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        self._stderr_reader.join(timeout=10)
        for pipe in (self.process.stdout, self.process.stderr):
            if pipe is not None:
                pipe.close()


def launcher() -> Iterator[Callable[..., App]]:
    """A fixture's body: start the app in a subprocess; whatever still runs is killed after the test.

    A test module makes it its ``launch`` fixture: ``pytest.fixture(name="launch")(launcher)``.
    """
    started: list[App] = []

    def start(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> App:
        started.append(App(tmp_path, *args, env=env))
        return started[-1]

    yield start
    for app in started:
        app.close()
