#!/usr/bin/env python3
"""Set up a virtual environment and run soccerdesk or its tests, in one command.

    python3 scripts/dev.py setup     # set up only: .venv with soccerdesk and what its tests use
    python3 scripts/dev.py play      # set up, then launch the app
    python3 scripts/dev.py test      # set up, then run every test (extra args go to pytest)
    python3 scripts/dev.py sim ...   # set up, then run soccerdesk-sim with these args

Needs only Python 3.11+. The environment lives in ``.venv`` beside pyproject.toml and is
reinstalled when pyproject.toml changes. On Linux the system libraries Qt needs are
checked; when missing they are installed with apt-get (as root) or named for you.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import signal
import subprocess
import sys
import venv
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".soccerdesk-installed"

# Debian's package for a shared library is named after it (libxcb-icccm.so.4 -> libxcb-icccm4,
# libdbus-1.so.3 -> libdbus-1-3), except these.
SONAME_PACKAGES = {
    "libz.so.1": "zlib1g",
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "libgobject-2.0.so.0": "libglib2.0-0",
    "libgio-2.0.so.0": "libglib2.0-0",
    "libGLdispatch.so.0": "libglvnd0",
    "libbrotlidec.so.1": "libbrotli1",
    "libbrotlicommon.so.1": "libbrotli1",
    "libgcc_s.so.1": "libgcc-s1",
    "libstdc++.so.6": "libstdc++6",
    "libc.so.6": "libc6",
    "libm.so.6": "libc6",
    "libdl.so.2": "libc6",
    "libpthread.so.0": "libc6",
    "librt.so.1": "libc6",
}


def debian_package(soname: str) -> str:
    """The Debian/Ubuntu package that ships the shared library ``soname`` (``libfoo.so.N``)."""
    if soname in SONAME_PACKAGES:
        return SONAME_PACKAGES[soname]
    name, found, version = soname.partition(".so.")
    if not found:
        return soname.lower()
    major = version.split(".")[0]
    return f"{name}{'-' if name[-1].isdigit() else ''}{major}".lower()


def missing_sonames(ldd_output: str) -> list[str]:
    """The libraries ``ldd`` reports as ``not found``, each once, in the order listed."""
    found: list[str] = []
    for line in ldd_output.splitlines():
        name, arrow, where = line.strip().partition("=>")
        if arrow and where.strip() == "not found" and name.strip() not in found:
            found.append(name.strip())
    return found


def apt_packages(sonames: list[str]) -> list[str]:
    """The Debian packages for ``sonames``, each once."""
    return list(dict.fromkeys(debian_package(soname) for soname in sonames))


def qt_platform(command: str, rest: list[str]) -> str | None:
    """The Qt platform ``command`` will use: its libraries are the ones to check (None: no Qt)."""
    if command == "sim":
        return None
    if command == "test" or "--screenshot" in rest:  # tests and screenshots draw offscreen
        return "offscreen"
    return (os.environ.get("QT_QPA_PLATFORM") or "xcb").split(";")[0].split(":")[0] or "xcb"


def qt_binaries(platform: str) -> list[Path]:
    """The Qt modules the app loads and ``platform``'s plugin, as installed in .venv."""
    found = sorted(VENV.glob("lib/python3*/site-packages/PySide6"))
    if not found:
        return []
    pyside = found[-1]
    modules = [next(iter(pyside.glob(f"{name}.*.so")), None) for name in ("QtCore", "QtGui", "QtWidgets")]
    plugin = pyside / "Qt" / "plugins" / "platforms" / f"libq{platform}.so"
    return [path for path in (*modules, plugin) if path is not None and path.exists()]


def _ldd(path: Path) -> str:
    return subprocess.run(["ldd", str(path)], capture_output=True, text=True).stdout


def qt_missing_libraries(platform: str, ldd: Callable[[Path], str] = _ldd) -> list[str]:
    """The shared libraries the Qt ``platform`` needs that the system does not have.

    Asked of the dynamic loader (``ldd`` lists every library a file needs, and those it needs in
    turn), not of Qt: a Qt started offscreen loads none of the xcb libraries a window needs,
    and a Qt that fails to load its xcb plugin names only the first library it missed.
    """
    missing: list[str] = []
    for path in qt_binaries(platform):
        missing += [soname for soname in missing_sonames(ldd(path)) if soname not in missing]
    return missing


def _qt_stamp(platform: str) -> tuple[Path, str]:
    """Where the check of ``platform`` is remembered, and the venv it was made for."""
    installed = STAMP.read_text() if STAMP.exists() else ""
    pyside = sorted(p.name for p in VENV.glob("lib/python3*/site-packages/PySide6*.dist-info"))
    return VENV / f".soccerdesk-qt-{platform}", "\n".join([installed, *pyside])


def ensure_qt_libraries(platform: str = "offscreen", ldd: Callable[[Path], str] = _ldd) -> None:
    """Make sure the system has the libraries Qt's ``platform`` loads; install them or say how.

    Once a check passed it is not made again until .venv changes (a new PySide6).
    """
    stamp, key = _qt_stamp(platform)
    if stamp.exists() and stamp.read_text() == key:
        return
    if shutil.which("ldd") is None:  # not a glibc system: nothing to ask; Qt will say what it misses
        return
    missing = qt_missing_libraries(platform, ldd)
    if missing:
        packages = apt_packages(missing)
        apt_install(packages, f"Qt ({platform}) needs system libraries this machine lacks: {', '.join(missing)}.")
        still = qt_missing_libraries(platform, ldd)
        if still:
            raise SystemExit(f"Qt ({platform}) still lacks {', '.join(still)} after installing {' '.join(packages)}.")
    stamp.write_text(key)


def install_line(packages: list[str], sudo: bool = False) -> str:
    """The apt-get command that installs ``packages`` (``sudo`` first when not run as root)."""
    words = ["sudo"] if sudo else []
    return " ".join([*words, "apt-get", "install", "-y", "--no-install-recommends", *packages])


def _run(cmd: list[str], **kw: object) -> None:
    subprocess.run(cmd, check=True, cwd=ROOT, **kw)  # type: ignore[call-overload]


def _as_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def apt_install(packages: list[str], why: str) -> None:
    """Install Debian ``packages`` with apt-get when run as root; else stop with the line to run."""
    apt = shutil.which("apt-get")
    if apt is None:
        raise SystemExit(f"{why} Install them with your system's package manager.")
    if not _as_root():
        raise SystemExit(f"{why}\nInstall them, then run this again:\n  {install_line(packages, sudo=True)}")
    print(f"installing {' '.join(packages)} (apt-get) ...", flush=True)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    _run([apt, "update", "-q"], stdout=subprocess.DEVNULL, env=env)
    _run([apt, *install_line(packages).split()[1:]], stdout=subprocess.DEVNULL, env=env)


def ensure_env(extras: str = "test", platform: str | None = "offscreen") -> None:
    """Create or update .venv; on Linux check the system libraries Qt's ``platform`` needs."""
    if sys.version_info < (3, 11):  # noqa: UP036 - this script may be started by an older python3
        raise SystemExit(f"soccerdesk needs Python 3.11 or newer; this is {sys.version.split()[0]}")
    if not PYTHON.exists():
        if importlib.util.find_spec("ensurepip") is None:  # Debian's python3 without python3-venv
            apt_install(["python3-venv"], "Python's venv module cannot install pip here (no ensurepip).")
        print("creating .venv ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + extras.encode()).hexdigest()
    if not STAMP.exists() or STAMP.read_text() != wanted:
        print("installing soccerdesk and its dependencies into .venv ...", flush=True)
        _run([str(PYTHON), "-m", "pip", "install", "--disable-pip-version-check", "-q", "--upgrade", "pip"])
        target = f".[{extras}]" if extras else "."
        _run([str(PYTHON), "-m", "pip", "install", "--disable-pip-version-check", "-q", "-e", target])
        STAMP.write_text(wanted)
        print("set up: .venv is ready", flush=True)  # what follows (the app, the tests) is not the setup
    if sys.platform.startswith("linux") and platform is not None:
        ensure_qt_libraries(platform)


def main(argv: list[str]) -> int:
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__)
        return 0
    if not argv or argv[0] not in ("play", "test", "sim", "setup"):
        print(__doc__)
        return 2
    command, rest = argv[0], argv[1:]
    ensure_env(platform=qt_platform(command, rest))
    if command == "setup":
        return 0
    if command == "test":
        env = {**os.environ, "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen")}
        return run_child([str(PYTHON), "-m", "pytest", *rest], env=env)
    if command == "sim":
        return run_child([str(PYTHON), "-m", "soccerdesk.sim", *rest])
    # play: the desktop app (extra args go to it, e.g. --screenshot GAME PATH)
    return run_child([str(PYTHON), "-m", "soccerdesk", *rest])


def run_child(cmd: list[str], env: dict[str, str] | None = None) -> int:
    """Run ``cmd`` to its end and return its exit code; the way it is asked to end is its own.

    Ctrl+C in a terminal reaches the child as well as this script: the child ends in its own way
    (the app saves the match and ends its bot process, pytest prints its summary) and this script
    only waits — it would otherwise stop with a KeyboardInterrupt and kill the child a quarter
    of a second later. A SIGTERM or SIGHUP sent to this script alone is passed on to the child.
    """
    # The handlers go in before the child starts: a signal that comes while it is starting is
    # kept and passed on once it has (the default action would end this script and leave the
    # child running).
    children: list[subprocess.Popen[bytes]] = []
    early: list[int] = []

    def pass_on(signum: int, _frame: object) -> None:
        if children:
            children[0].send_signal(signum)
        else:
            early.append(signum)

    handlers: dict[str, Callable[[int, object], None]] = {
        "SIGINT": lambda _signum, _frame: None,
        "SIGTERM": pass_on,
        "SIGHUP": pass_on,
    }
    before = {}
    for name, handler in handlers.items():
        if hasattr(signal, name):  # no SIGHUP on Windows
            before[getattr(signal, name)] = signal.signal(getattr(signal, name), handler)
    try:
        child = subprocess.Popen(cmd, cwd=ROOT, env=env)
        children.append(child)
        for signum in early:
            child.send_signal(signum)
        return child.wait()
    finally:
        for signum, previous in before.items():
            signal.signal(signum, previous)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
