"""Run the real app (``soccerdesk.app.main``) for a test that started this file as a subprocess.

    python tests/ui/app_driver.py DATA_DIR think GAME [signal|close|leave]
    python tests/ui/app_driver.py DATA_DIR smoke
    python tests/ui/app_driver.py DATA_DIR open FILE

Nothing of the app is replaced: this script only makes the QApplication first, so that a timer
can watch the window, and then calls the app's own ``main``. It reports what it sees on stdout,
one line each, for the test to read:

- ``think``: kicks off GAME against the expert bot, the bot moving first, with clicks on the home
  screen; prints ``THINKING`` while the bot process works on its decision. Then ``signal`` waits
  for the test's signal, ``close`` closes the window as its title bar's close button does,
  ``leave`` presses Ctrl+H (back Home), kicks off again and closes the window once the bot has
  answered in the new match (``ANSWERED``). ``CLOSED busy=…`` tells whether the bot was still thinking when the
  last window closed.
- ``smoke`` (a real display): for each game prints ``CLICK x y what`` with a screen position for
  the test to click with the real mouse (the game card, Kick off, a legal target on the board),
  and then ``TAKEN game`` or ``NOT-TAKEN game …`` for the board click; ``KEY keys`` for keys to
  press (Ctrl+H to go home between games). ``DONE`` at the end; the test then ends the app.
- ``open``: starts the app as ``soccerdesk FILE`` (a file manager's "Open with"); prints ``OPENED``
  and the class of the page the window shows once it left the home screen, or ``MESSAGE`` and the
  window's message if it stayed home; then closes the window.

The guard below matters: the bot process is started with "spawn", which imports this file again.
That import is also where a long think is made: with ``signal`` and ``close`` the quit must come
while the bot thinks, and even the expert answers some positions in a few milliseconds, so the
bot process (only it) takes a minute over each decision, as a deep search on a slow machine may.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

Wait = Callable[[], bool]
SLOW_BOT = "SOCCERDESK_DRIVER_SLOW_BOT"  # set for the bot process: seconds each decision takes at least
sys.path.insert(0, str(Path(__file__).resolve().parent))  # driving.py, the UI tests' clicking helpers


def say(line: str) -> None:
    print(line, flush=True)


def main(argv: list[str]) -> int:
    data_dir, mode, *rest = argv
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    if mode == "think" and rest[1:2] != ["leave"]:
        os.environ[SLOW_BOT] = "60"  # inherited by the bot process, which starts later
    app = QApplication(sys.argv[:1])
    script = think(app, *rest) if mode == "think" else opened(app) if mode == "open" else smoke(app)
    waiting: list[Wait] = [lambda: True]

    def poll() -> None:
        if waiting and waiting[0]():
            try:
                waiting[0] = next(script)
            except StopIteration:
                waiting.clear()

    timer = QTimer()
    timer.timeout.connect(poll)
    timer.start(20)
    from soccerdesk import app as soccerdesk_app

    code = soccerdesk_app.main(["--data-dir", data_dir, *(rest if mode == "open" else [])])
    say(f"EXIT {code}")
    return code


def _window(app):  # type: ignore[no-untyped-def]
    from soccerdesk.ui.main_window import MainWindow

    found = [w for w in app.topLevelWidgets() if isinstance(w, MainWindow)]
    return found[0] if found else None


def _thinking() -> bool:
    """The bot process is working on a decision (not only loading its game)."""
    from soccerdesk.ui import bot_pool

    pool = bot_pool._pool
    return pool is not None and pool.running == "think"


def _kick_off_by_clicks(window, game_id: str, opponent: str, side: int) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    home = window.home
    QTest.mouseClick(home.cards[game_id], Qt.MouseButton.LeftButton)
    home.set_opponent(opponent)
    home.side.setCurrentIndex(side)
    QTest.mouseClick(home.start_button, Qt.MouseButton.LeftButton)


def _play_by_keys(window) -> bool:  # type: ignore[no-untyped-def]
    """When the player is to decide, step to a legal action with Tab and play it with Enter.

    One key per call (the caller polls): the screen answers each before the next. Returns False.
    """
    from driving import ready
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    view = window.match_view
    if view is None or not ready(view) or view.stack.currentWidget() is not view.board_page:
        return False
    key = Qt.Key.Key_Tab if view.board.preview is None else Qt.Key.Key_Return
    QTest.keyClick(view.view, key)
    return False


def _bot_at_work(app, window) -> bool:  # type: ignore[no-untyped-def]
    """The bot thinks and the window is active; else the player's decision is played. One step a call."""
    active = _active(app, window)
    if _thinking():
        return active
    _play_by_keys(window)
    return False


def _active(app, window) -> bool:  # type: ignore[no-untyped-def]
    """Whether ``window`` is the active window; asks for it when not (a desktop gives it at start)."""
    if app.activeWindow() is not window:
        window.activateWindow()
    return app.activeWindow() is window


def _key(window, key: str) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    QTest.keyClick(window.windowHandle(), getattr(Qt.Key, f"Key_{key}"), Qt.KeyboardModifier.ControlModifier)


def opened(app) -> Iterator[Wait]:  # type: ignore[no-untyped-def]
    started = time.monotonic()
    yield lambda: _window(app) is not None and _window(app).home.loaded
    window = _window(app)
    yield (
        lambda: (
            window.pages.currentWidget() is not window.home
            or bool(getattr(window, "last_message", ""))
            or time.monotonic() - started > 20
        )
    )
    page = window.pages.currentWidget()
    if page is window.home:
        say(f"MESSAGE {getattr(window, 'last_message', '')}")
    else:
        say(f"OPENED {type(page).__name__}")
    window.close()


def think(app, game_id: str, then: str = "signal") -> Iterator[Wait]:  # type: ignore[no-untyped-def]
    yield lambda: _window(app) is not None and _window(app).home.loaded
    window = _window(app)
    app.lastWindowClosed.connect(lambda: say(f"CLOSED busy={_thinking()}"))
    _kick_off_by_clicks(window, game_id, "expert", side=1)  # the player is Away: the bot kicks off
    # The player may have the first decisions (who starts can be drawn): they are made with the
    # keyboard until the bot is at work. Keys reach the window's shortcuts (Ctrl+Q, Ctrl+H) once
    # it is the active window.
    yield lambda: window.session is not None and _bot_at_work(app, window)
    say("THINKING")
    if then == "close":
        # What the window manager does when the title bar's close button is clicked. (Quit's
        # standard key, Ctrl+Q on X11, is not bound on the offscreen platform.)
        window.windowHandle().close()
    elif then == "leave":
        _key(window, "H")
        say(f"LEFT busy={_thinking()} home={window.pages.currentWidget() is window.home}")
        _kick_off_by_clicks(window, game_id, "expert", side=1)
        first = window.session
        yield lambda: window.session is first and len(first.record()["actions"]) > 0
        say("ANSWERED")
        window.windowHandle().close()


def smoke(app) -> Iterator[Wait]:  # type: ignore[no-untyped-def]
    from soccerdesk.rules import GAMES

    yield lambda: _window(app) is not None and _window(app).home.loaded
    window = _window(app)
    for game_id in GAMES:
        yield from _smoke_game(window, game_id)
    say("DONE")


def _smoke_game(window, game_id: str) -> Iterator[Wait]:  # type: ignore[no-untyped-def]
    """Choose ``game_id`` and Kick off with clicks, click once on the board, go back Home."""
    from driving import ready
    from PySide6.QtWidgets import QApplication

    home = window.home
    card = home.cards[game_id]
    centre = card.mapToGlobal(card.rect().center())
    say(f"CLICK {centre.x()} {centre.y()} card-{game_id}")
    yield lambda: home.game_id == game_id
    home.set_opponent("normal")
    home.side.setCurrentIndex(0)
    button = home.start_button
    yield button.isEnabled
    centre = button.mapToGlobal(button.rect().center())
    say(f"CLICK {centre.x()} {centre.y()} kick-off")
    yield lambda: window.match_view is not None and window.pages.currentWidget() is window.match_view
    view = window.match_view
    # The player's first decision (the bot may move first).
    yield lambda: ready(view) and bool(view.board.paths.next_keys())
    board = view.board
    key = sorted(board.paths.next_keys(), key=repr)[0]
    where = view.view.viewport().mapToGlobal(view.view.mapFromScene(board.pos_of(key)))
    under = QApplication.widgetAt(where)
    shown, selection = view.view_data, board.paths.selection
    on_board = under is view.view.viewport()
    say(f"CLICK {where.x()} {where.y()} {game_id}-{key!r} on-board={on_board}")
    deadline = time.monotonic() + 10.0

    def taken() -> bool:
        return view.view_data is not shown or board.paths.selection != selection

    yield lambda: taken() or time.monotonic() > deadline
    if taken():
        say(f"TAKEN {game_id} on-board={on_board}")
    else:
        say(f"NOT-TAKEN {game_id} on-board={on_board} under={type(under).__name__}")
    say("KEY ctrl+h")
    yield lambda: window.pages.currentWidget() is window.home


def _slow_think() -> None:
    """In the bot process: each decision takes at least ``$SOCCERDESK_DRIVER_SLOW_BOT`` seconds.

    The app sends the worker the function by name (``soccerdesk.ui.bot_pool.think``), so the
    worker runs whatever that name holds in its own process: here, the real ``think`` and a wait.
    """
    from soccerdesk.ui import bot_pool

    real, least = bot_pool.think, float(os.environ[SLOW_BOT])

    def think(*args, **kwargs):  # type: ignore[no-untyped-def]
        start = time.monotonic()
        answer = real(*args, **kwargs)
        time.sleep(max(0.0, least - (time.monotonic() - start)))
        return answer

    bot_pool.think = think  # type: ignore[assignment]


if __name__ == "__mp_main__" and os.environ.get(SLOW_BOT):
    _slow_think()

if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
