#!/usr/bin/env python3
"""Set up a virtual environment and run soccerdesk or its tests, in one command.

    python3 scripts/dev.py play      # set up, then launch the app
    python3 scripts/dev.py test      # set up, then run every test (extra args go to pytest)
    python3 scripts/dev.py sim ...   # set up, then run soccerdesk-sim with these args

Needs only Python 3.11+. The environment lives in ``.venv`` beside pyproject.toml and is
reinstalled when pyproject.toml changes. On Linux the system libraries Qt needs are
checked; when missing they are installed with apt-get (as root) or named for you.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".soccerdesk-installed"

# Debian/Ubuntu packages that PySide6 wheels load at run time (xcb for a real screen).
QT_DEBIAN_PACKAGES = [
    "libgl1",
    "libegl1",
    "libxkbcommon0",
    "libxkbcommon-x11-0",
    "libfontconfig1",
    "libdbus-1-3",
    "libglib2.0-0",
    "libxcb-cursor0",
    "libxcb-icccm4",
    "libxcb-keysyms1",
    "libxcb-shape0",
    "libxcb-xinerama0",
    "libxcb-randr0",
    "libxcb-render-util0",
    "libxcb-image0",
]


def _run(cmd: list[str], **kw: object) -> None:
    subprocess.run(cmd, check=True, cwd=ROOT, **kw)  # type: ignore[call-overload]


def ensure_env(extras: str = "test") -> None:
    if sys.version_info < (3, 11):  # noqa: UP036 - this script may be started by an older python3
        raise SystemExit(f"soccerdesk needs Python 3.11 or newer; this is {sys.version.split()[0]}")
    if not PYTHON.exists():
        print("creating .venv ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + extras.encode()).hexdigest()
    if not STAMP.exists() or STAMP.read_text() != wanted:
        print("installing soccerdesk and its dependencies into .venv ...", flush=True)
        _run([str(PYTHON), "-m", "pip", "install", "--disable-pip-version-check", "-q", "--upgrade", "pip"])
        target = f".[{extras}]" if extras else "."
        _run([str(PYTHON), "-m", "pip", "install", "--disable-pip-version-check", "-q", "-e", target])
        STAMP.write_text(wanted)
    if sys.platform.startswith("linux"):
        ensure_qt_libraries()


def ensure_qt_libraries() -> None:
    probe = [str(PYTHON), "-c", "from PySide6 import QtGui, QtWidgets"]
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    if subprocess.run(probe, cwd=ROOT, env=env, capture_output=True).returncode == 0:
        return
    apt = shutil.which("apt-get")
    if apt and hasattr(os, "geteuid") and os.geteuid() == 0:
        print("installing the system libraries Qt needs (apt-get) ...", flush=True)
        _run([apt, "update", "-q"], stdout=subprocess.DEVNULL)
        _run([apt, "install", "-y", "-q", "--no-install-recommends", *QT_DEBIAN_PACKAGES], stdout=subprocess.DEVNULL)
        return
    raise SystemExit(
        "Qt cannot load its system libraries. On Debian or Ubuntu run:\n  sudo apt-get install "
        + " ".join(QT_DEBIAN_PACKAGES)
    )


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("play", "test", "sim", "setup"):
        print(__doc__)
        return 2
    command, rest = argv[0], argv[1:]
    ensure_env()
    if command == "setup":
        return 0
    if command == "test":
        env = {**os.environ, "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen")}
        return subprocess.run([str(PYTHON), "-m", "pytest", *rest], cwd=ROOT, env=env).returncode
    if command == "sim":
        return subprocess.run([str(PYTHON), "-m", "soccerdesk.sim", *rest], cwd=ROOT).returncode
    # play: the desktop app once it exists, else a bot-vs-bot match in the simulator
    try:
        subprocess.run([str(PYTHON), "-c", "import soccerdesk.app"], cwd=ROOT, check=True, capture_output=True)
    except subprocess.CalledProcessError:
        return subprocess.run(
            [
                str(PYTHON),
                "-m",
                "soccerdesk.sim",
                "--game",
                "soccer-go",
                "--players",
                "heuristic",
                "random",
                "--matches",
                "20",
                *rest,
            ],
            cwd=ROOT,
        ).returncode
    return subprocess.run([str(PYTHON), "-m", "soccerdesk", *rest], cwd=ROOT).returncode


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
