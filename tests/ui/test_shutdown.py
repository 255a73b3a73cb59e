"""The app ends cleanly on every way out while the computer is thinking (issue 13, item 12).

The real app runs in a subprocess (tests/ui/app_driver.py calls ``soccerdesk.app.main``),
offscreen, with its own home and data folders. A clean end: exit code 0, the bot process gone,
and nothing on stderr from Python (no traceback, no "Exception in thread", no resource tracker
warning about leaked semaphores).
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from running_app import App, launcher

_launch = pytest.fixture(name="launch")(launcher)
UNCLEAN = ("leaked semaphore", "Exception in thread", "Traceback", "InvalidStateError", "Error")


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


def _quit_while_thinking(
    launch: Callable[..., App], tmp_path: Path, game_id: str, how: str, signum: int | None = None
) -> tuple[App, int, str]:
    """Start a match against the expert bot and end the app while the bot thinks.

    The driver makes the bot process take a minute over each decision (the expert answers some
    positions in milliseconds, which once let it answer before a signal arrived); the app must
    end at once all the same.
    """
    app = launch(tmp_path, "think", game_id, how)
    app.wait_for("THINKING")
    if signum is not None:
        app.process.send_signal(signum)
    code, err = app.finish()
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
    # --data-dir is a profile of its own: the home screen's choices are kept in it, not in the
    # settings every other window of the user shares (QA: a second window's online seat
    # overwrote the first's there).
    kept = (tmp_path / "data" / "settings.ini").read_text(encoding="utf-8")
    assert "game=soccer-go" in kept
    assert not list((tmp_path / "home" / ".config").rglob("soccerdesk*"))


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
