"""Start soccerdesk: the QApplication, the one qasync event loop, the main window.

soccerdesk                          # the app
soccerdesk MATCH.json               # the app, resuming (or replaying) a saved match, as Match → Open match… does
soccerdesk --screenshot GAME PATH   # render a mid-match position of GAME offscreen to a PNG
soccerdesk --screenshot learn:GAME PATH    # the guided match's first step and its coach panel
soccerdesk --screenshot review:GAME PATH   # the review (win-chance chart) of a seeded bot match
soccerdesk --screenshot online:GAME PATH   # the Play online dialog, GAME chosen for a new room
soccerdesk --version
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from soccerdesk import __version__

if TYPE_CHECKING:
    from PySide6.QtWidgets import QApplication
from soccerdesk.rules import GAMES

SCREENSHOT_KINDS = {
    "": ("soccerdesk.ui.screenshot", "take_screenshot"),
    "learn": ("soccerdesk.ui.coach", "take_learn_screenshot"),
    "review": ("soccerdesk.ui.review_chart", "take_review_screenshot"),
    "online": ("soccerdesk.ui.online", "take_online_screenshot"),
}
"""``--screenshot [KIND:]GAME``: the module and function that draw each kind of picture."""

QT_OPTIONS = {
    **dict.fromkeys(
        ("-style", "-stylesheet", "-platform", "-platformpluginpath", "-platformtheme", "-plugin", "-session"), True
    ),
    **dict.fromkeys(("-qwindowgeometry", "-qwindowicon", "-qwindowtitle", "-display", "-geometry"), True),
    **dict.fromkeys(("-reverse", "-widgetcount", "-nograb", "-dograb", "-sync"), False),
}
"""Qt's own command-line options that any Qt app takes (desktops and launchers may pass them),
and whether each is followed by a value; they go to Qt, the rest to soccerdesk's parser."""


def split_qt_options(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    """``argv`` (without the program) as soccerdesk's arguments and Qt's options: ``-style
    fusion``, ``-style=fusion`` and ``-reverse`` go to Qt; a Qt option missing its value is left
    to soccerdesk's parser, which says what is wrong."""
    ours: list[str] = []
    qt: list[str] = []
    rest = list(argv)
    while rest:
        arg = rest.pop(0)
        takes_value = QT_OPTIONS.get(arg.split("=", 1)[0])
        if takes_value is None or takes_value and "=" not in arg and not rest:
            ours.append(arg)
        elif takes_value and "=" not in arg:
            qt += [arg, rest.pop(0)]
        else:
            qt.append(arg)
    return ours, qt


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="soccerdesk", description="Tabletop soccer games on your desktop.")
    parser.add_argument("--version", action="version", version=f"soccerdesk {__version__}")
    parser.add_argument(
        "match",
        nargs="?",
        type=Path,
        help="a saved match to open, as Match → Open match… does: resumed, or replayed if it is over",
    )
    parser.add_argument(
        "--screenshot",
        nargs=2,
        metavar=("GAME", "PATH"),
        help=f"render a mid-match position of GAME ({', '.join(GAMES)}) to the PNG file PATH, without a screen; "
        "learn:GAME draws the guided match's first step, review:GAME the review of a seeded bot match, "
        "online:GAME the Play online dialog",
    )
    parser.add_argument("--size", default="1280x800", help="window size for --screenshot (default 1280x800)")
    parser.add_argument(
        "--data-dir",
        type=Path,
        help="a profile of its own: autosaves, saved matches and settings in this folder "
        "(default: the user data folder, settings where the system keeps them)",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    if getattr(sys, "frozen", False):  # a PyInstaller build: let the bot process start from the executable
        import multiprocessing

        multiprocessing.freeze_support()
    ours, qt_options = split_qt_options(sys.argv[1:] if argv is None else argv)
    args = _parser().parse_args(ours)
    if args.screenshot:
        what, path = args.screenshot
        kind, _, game_id = what.rpartition(":")
        if kind not in SCREENSHOT_KINDS:
            print(
                f"soccerdesk: --screenshot takes GAME, learn:GAME, review:GAME or online:GAME, not {what!r}",
                file=sys.stderr,
            )
            return 2
        if game_id not in GAMES:
            print(f"soccerdesk: no game {game_id!r}; known games: {', '.join(GAMES)}", file=sys.stderr)
            return 2
        try:
            width, height = (int(n) for n in args.size.lower().split("x"))
        except ValueError:
            print(f"soccerdesk: --size takes WIDTHxHEIGHT, not {args.size!r}", file=sys.stderr)
            return 2
        # Offscreen: a screenshot needs no display (CI, a server, a README build).
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        import importlib

        from soccerdesk.ui.screenshot import ScreenshotError

        module, function = SCREENSHOT_KINDS[kind]
        take = getattr(importlib.import_module(module), function)
        app = _application(qt_options)
        _quiet_offscreen()
        try:
            take(game_id, Path(path), (width, height))
        except ScreenshotError as exc:
            print(f"soccerdesk: cannot take a screenshot of {game_id}: {exc}", file=sys.stderr)
            return 1
        finally:
            app.processEvents()
        print(f"wrote {path}")
        return 0
    return run_app(args.data_dir, args.match, qt_options)


def _application(qt_options: Sequence[str] = ()) -> QApplication:
    from PySide6.QtWidgets import QApplication

    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication([*sys.argv[:1], *qt_options])
    app.setApplicationName("soccerdesk")
    app.setOrganizationName("soccerdesk")
    app.setApplicationVersion(__version__)
    return app


def _quiet_offscreen() -> None:
    """Drop the offscreen platform's notice that it cannot size windows; pass on the rest."""
    from PySide6.QtCore import QtMsgType, qInstallMessageHandler

    def handler(kind: QtMsgType, context: object, message: str) -> None:
        if "propagateSizeHints" not in message:
            print(message, file=sys.stderr)

    qInstallMessageHandler(handler)


def tune_gc() -> None:
    """Keep garbage collection pauses short while a match is on screen.

    Everything alive now (modules, the games' content) is moved out of the collector's sight
    (``gc.freeze``), and the youngest generation is collected less often: full collections
    over a big heap otherwise stall the window for tens of milliseconds.
    """
    gc.set_threshold(5000, 10, 10)
    gc.freeze()


def run_app(data_dir: Path | None = None, match: Path | None = None, qt_options: Sequence[str] = ()) -> int:
    """The desktop app, until its window closes; ``match``: a match file to open first (a file
    manager's "Open with soccerdesk", the desktop entry's ``%f``); ``qt_options``: Qt's own
    command-line options (``-style fusion``)."""
    import qasync
    from PySide6.QtCore import QSettings

    from soccerdesk.ui.art import app_icon
    from soccerdesk.ui.main_window import MainWindow
    from soccerdesk.ui.settings import AppSettings, default_data_dir

    app = _application(qt_options)
    app.setWindowIcon(app_icon())
    # One event loop for Qt and asyncio (the network client runs on it).
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    # Each --data-dir is a profile of its own, settings included: two windows on one computer
    # (say, both players of an online match) then remember their own names and seats.
    qsettings = (
        QSettings() if data_dir is None else QSettings(str(data_dir / "settings.ini"), QSettings.Format.IniFormat)
    )
    settings = AppSettings(qsettings, data_dir or default_data_dir())
    window = MainWindow(settings)
    window.home.games_loaded.connect(tune_gc)
    tune_gc()
    closed = asyncio.Event()
    app.lastWindowClosed.connect(closed.set)
    _quit_on_signals(loop, app)
    window.show()
    if match is not None:
        # On the running loop, as a menu's Open would be: a bad file gets the same message.
        loop.call_soon(window.open_path, match)
    with loop:
        loop.run_until_complete(closed.wait())
        # The window has closed its match (and saved it): a decision the bot process is still
        # thinking about is not needed, so the process is ended now rather than waited for.
        if window.bot_pool is not None:
            window.bot_pool.shutdown(wait=True, cancel_futures=True)
    return 0


QUIT_SIGNALS = ("SIGTERM", "SIGINT", "SIGHUP")
"""Signals that end the app the way its Quit menu does: the match is saved, the bot process ended."""


def _quit_on_signals(loop: asyncio.AbstractEventLoop, app: QApplication) -> None:
    """Close every window when asked to end by a signal (``kill``, Ctrl+C, a closed terminal).

    Left to Python's defaults, SIGTERM ends the process on the spot (no autosave flush, the bot
    process left for its watchdog) and SIGINT raises KeyboardInterrupt inside whatever Qt callback
    runs. The event loop's own signal handling wakes it through a pipe, so the handler runs on the
    UI thread between two events.
    """
    for name in QUIT_SIGNALS:
        signum = getattr(signal, name, None)
        if signum is None:  # SIGHUP on Windows
            continue
        try:
            loop.add_signal_handler(signum, app.closeAllWindows)
        except (NotImplementedError, RuntimeError, ValueError):  # an event loop without signal support
            signal.signal(signum, lambda *_: loop.call_soon_threadsafe(app.closeAllWindows))


if __name__ == "__main__":
    raise SystemExit(main())
