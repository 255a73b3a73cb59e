"""The app ends cleanly on every way out while the computer is thinking (issue 13, item 12).

The real app runs in a subprocess (tests/ui/app_driver.py calls ``soccerdesk.app.main``),
offscreen, with its own home and data folders. A clean end: exit code 0, the bot process gone,
and nothing on stderr from Python (no traceback, no "Exception in thread", no resource tracker
warning about leaked semaphores).
"""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

DRIVER = Path(__file__).with_name("app_driver.py")
ROOT = Path(__file__).resolve().parents[2]
UNCLEAN = ("leaked semaphore", "Exception in thread", "Traceback", "InvalidStateError", "Error")


class App:
    """The app in a subprocess, read line by line."""

    def __init__(self, tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> None:
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


def _bot_processes(parent: int) -> list[int]:
    """Children of ``parent`` still running (the bot process, the resource tracker)."""
    found = []
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(line.split(":\t", 1) for line in status.read_text().splitlines() if ":\t" in line)
        except OSError:
            continue
        if fields.get("PPid", "").strip() == str(parent):
            found.append(int(status.parent.name))
    return found


def _assert_clean(app: App, code: int, err: str) -> None:
    said = "\n".join(app.lines)
    assert code == 0, f"exit code {code}; stdout:\n{said}\nstderr:\n{err}"
    assert "EXIT 0" in app.lines
    noise = [line for line in err.splitlines() if any(word in line for word in UNCLEAN)]
    assert not noise, err
    assert "CLOSED busy=True" in app.lines, f"the bot had answered before the app was told to end: {said}"


@pytest.fixture
def launch() -> Iterator[Callable[..., App]]:
    """Start the app in a subprocess; whatever is still running is killed after the test."""
    started: list[App] = []

    def start(tmp_path: Path, *args: str) -> App:
        started.append(App(tmp_path, *args))
        return started[-1]

    yield start
    for app in started:
        app.close()


def _quit_while_thinking(
    launch: Callable[..., App], tmp_path: Path, game_id: str, how: str, signum: int | None = None
) -> tuple[App, int, str]:
    """Start a match against the hard bot and end the app while the bot thinks.

    A hard bot answers in a fraction of a second: if it answered before the app ended, the
    attempt says nothing about quitting while it thinks and is made again (three times at most).
    """
    for attempt in range(3):
        app = launch(tmp_path / f"try{attempt}", "think", game_id, how)
        app.wait_for("THINKING")
        if signum is not None:
            app.process.send_signal(signum)
        code, err = app.finish()
        if "CLOSED busy=True" in app.lines or code != 0:
            break
    return app, code, err


pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the signals tested are POSIX ones")


@pytest.mark.parametrize(
    ("game_id", "signum"),
    [("big-time-soccer", signal.SIGTERM), ("soccero", signal.SIGINT), ("pawn-soccer", signal.SIGHUP)],
)
def test_a_signal_while_the_bot_thinks_ends_the_app_cleanly(
    launch: Callable[..., App], tmp_path: Path, game_id: str, signum: int
) -> None:
    """``kill``, Ctrl+C and a closed terminal: the window closes as Quit does, the bot process ends."""
    app, code, err = _quit_while_thinking(launch, tmp_path, game_id, "signal", signum)
    _assert_clean(app, code, err)
    assert not _bot_processes(app.process.pid)


def test_closing_the_window_while_the_bot_thinks_ends_the_app_cleanly(
    launch: Callable[..., App], tmp_path: Path
) -> None:
    """The window's close button while the computer is thinking: no error from the bot pool's thread."""
    app, code, err = _quit_while_thinking(launch, tmp_path, "soccer-go", "close")
    _assert_clean(app, code, err)


def test_leaving_a_match_while_the_bot_thinks_keeps_the_bot_working(launch: Callable[..., App], tmp_path: Path) -> None:
    """Home (Ctrl+H) mid-thought, then a new match: the bot answers there, and the app quits cleanly."""
    app = launch(tmp_path, "think", "pawn-soccer", "leave")
    app.wait_for("THINKING")
    assert app.wait_for("LEFT").endswith("home=True")
    app.wait_for("ANSWERED")
    code, err = app.finish()
    said = "\n".join(app.lines)
    assert code == 0, f"exit code {code}; stdout:\n{said}\nstderr:\n{err}"
    assert not [line for line in err.splitlines() if any(word in line for word in UNCLEAN)], err
