#!/usr/bin/env python3
"""Does the window stay responsive while a bot thinks and animations run? Does it start fast?

Two measurements, offscreen, in one run:

1. **Stall**: a match of GAME against a search bot (level ``hard`` by default) at normal
   animation speed; the human side plays a random legal action whenever it may. A QTimer
   heartbeat on the UI thread every 5 ms records the longest gap between two beats, minus
   the 5 ms (the time the human's own action takes is not counted). Goal: ≤ 50 ms. Also
   printed: the most CPU time the UI thread used between two beats (and the five largest)
   — on a busy shared machine the wall-clock gap includes time the system gave to other
   processes — and the 99th percentile of the gaps.
2. **Start-up**: seconds from a fresh interpreter to a shown, painted window — soccerdesk's
   main window against a bare PySide6 ``QMainWindow`` — each the median of ``--starts``
   runs, the two taking turns. Goal: soccerdesk ≤ 2 × bare.

    python benchmarks/ui_responsiveness.py [--game soccer-go] [--bot hard] [--seconds 10] [--starts 3]

Exit status 0 when both goals are met, 1 otherwise. Machines are shared and noisy: the
start-up figure is a ratio measured in the same run for that reason.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

STALL_GOAL_MS = 50.0
STARTUP_GOAL_RATIO = 2.0
HEARTBEAT_MS = 5

BARE = """
import time; t0 = time.perf_counter()
from PySide6.QtWidgets import QApplication, QMainWindow
app = QApplication([])
window = QMainWindow(); window.resize(1280, 800); window.show()
app.processEvents(); window.grab()
print(time.perf_counter() - t0)
"""

SOCCERDESK = """
import time; t0 = time.perf_counter()
import sys
from pathlib import Path
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
from soccerdesk.ui.main_window import MainWindow
from soccerdesk.ui.settings import AppSettings
app = QApplication([])
folder = Path(sys.argv[1])
window = MainWindow(AppSettings(QSettings(str(folder / "s.ini"), QSettings.Format.IniFormat), folder))
window.resize(1280, 800); window.show()
app.processEvents(); window.grab()
print(time.perf_counter() - t0)
"""


def startup_seconds(codes: list[str], runs: int, folder: str) -> list[float]:
    """Median seconds, interpreter start excluded, to a shown and painted window, for each of ``codes``.

    The programs take turns (one start of each, ``runs`` times over), so a machine that gets
    busier or quieter during the measurement weighs on all of them alike.

    Byte-code is cached (in a folder of its own, one warm-up run of each first) as in an
    installed app: where PYTHONDONTWRITEBYTECODE is set, soccerdesk would otherwise be compiled
    from source at every start while PySide6 is not.
    """
    times: list[list[float]] = [[] for _ in codes]
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "QT_LOGGING_RULES": "*.warning=false"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(Path(folder) / "pycache")
    for code in codes:
        subprocess.run([sys.executable, "-c", code, folder], capture_output=True, check=True, env=env)
    for _ in range(runs):
        for index, code in enumerate(codes):
            out = subprocess.run(
                [sys.executable, "-c", code, folder], capture_output=True, text=True, check=True, env=env
            )
            times[index].append(float(out.stdout.strip().splitlines()[-1]))
    return [statistics.median(each) for each in times]


@dataclass
class Stalls:
    wall_ms: float  # longest heartbeat gap beyond the beat, by the clock on the wall
    cpu_ms: float  # most UI-thread CPU time spent between two beats (what the app itself did)
    cpu_top: list[float]  # the five largest of those, largest first
    wall_p99_ms: float  # the 99th percentile of the gaps beyond the beat
    played: int  # human actions played
    bot_turns: int
    beats: int


def longest_stall_ms(game_id: str, bot: str, seconds: float, folder: Path) -> Stalls:
    """Play for ``seconds`` against ``bot`` with a heartbeat on the UI thread; see :class:`Stalls`."""
    from PySide6.QtCore import QElapsedTimer, QSettings, QTimer
    from PySide6.QtWidgets import QApplication

    from soccerdesk.app import tune_gc
    from soccerdesk.rules import get_game
    from soccerdesk.ui.main_window import MainWindow
    from soccerdesk.ui.session import LocalSession, Player
    from soccerdesk.ui.settings import AppSettings

    app = QApplication.instance() or QApplication([])
    settings = AppSettings(QSettings(str(folder / "s.ini"), QSettings.Format.IniFormat), folder)
    settings.animation_speed = "normal"
    window = MainWindow(settings)
    window.home.games_loaded.connect(tune_gc)  # as soccerdesk.app.run_app does
    tune_gc()
    window.resize(1280, 800)
    window.show()
    while not window.home.loaded:  # a player starts a match once the home screen is ready
        app.processEvents()
        time.sleep(0.005)
    game = get_game(game_id)
    session = LocalSession(
        game, (Player("human", "You"), Player("bot", "Bot", bot)), seed=5, bot_pool=window._bot_pool()
    )
    window.show_session(session)
    view = window.match_view
    assert view is not None
    rng = random.Random(5)
    worst = 0.0
    clock = QElapsedTimer()
    clock.start()
    last = [clock.elapsed()]
    bot_turns = [0]
    session.busy.connect(lambda busy: busy and bot_turns.__setitem__(0, bot_turns[0] + 1))

    gaps: list[float] = []
    busy: list[float] = []  # UI-thread CPU time spent in each gap
    cpu_last = [time.thread_time()]

    def beat() -> None:
        nonlocal worst
        now, cpu = clock.elapsed(), time.thread_time()
        gaps.append(now - last[0] - HEARTBEAT_MS)
        busy.append((cpu - cpu_last[0]) * 1000)
        worst = max(worst, gaps[-1])
        last[0], cpu_last[0] = now, cpu

    heartbeat = QTimer()
    heartbeat.setInterval(HEARTBEAT_MS)
    heartbeat.timeout.connect(beat)
    heartbeat.start()
    played = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.001)
        legal = (view.view_data or {}).get("legal") or []
        ready = legal and not view._queue and not view.animating
        if view.stack.currentWidget() is view.summary_page:
            break
        if ready:
            view.play(rng.choice(legal))
            played += 1
            last[0], cpu_last[0] = clock.elapsed(), time.thread_time()  # our own click is the user's time, not a stall
    heartbeat.stop()
    session.close()
    window.close()
    top = sorted(busy, reverse=True)[:5]
    p99 = sorted(gaps)[int(len(gaps) * 0.99)] if gaps else 0.0
    return Stalls(worst, max(busy, default=0.0), top, p99, played, bot_turns[0], len(gaps))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="soccer-go")
    parser.add_argument("--bot", default="hard")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--starts", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        stalls = longest_stall_ms(args.game, args.bot, args.seconds, Path(folder))
        bare, ours = startup_seconds([BARE, SOCCERDESK], args.starts, folder)
    ratio = ours / bare
    stall = stalls.wall_ms
    print(
        f"{args.game} against bot {args.bot!r}, {args.seconds:.0f} s: {stalls.played} human actions,"
        f" {stalls.bot_turns} bot turns, {stalls.beats} heartbeats; load average {os.getloadavg()[0]:.1f}"
    )
    print(
        f"  longest UI-thread stall: {stall:.1f} ms (goal <= {STALL_GOAL_MS:.0f} ms);"
        f" 99th percentile gap {stalls.wall_p99_ms:.1f} ms"
    )
    print(
        f"  most UI-thread CPU between two beats: {stalls.cpu_ms:.1f} ms (the app's own work; the rest is the machine);"
        f" five largest: {', '.join(f'{ms:.0f}' for ms in stalls.cpu_top)} ms"
    )
    print(
        f"  start-up: bare PySide6 {bare * 1000:.0f} ms, soccerdesk {ours * 1000:.0f} ms, ratio {ratio:.2f} (goal <= {STARTUP_GOAL_RATIO})"
    )
    ok = stall <= STALL_GOAL_MS and ratio <= STARTUP_GOAL_RATIO
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
