"""scripts/dev.py's check of the system libraries Qt needs (issue 13, item 15).

A first ``python3 scripts/dev.py play`` on a bare Linux must find the libraries the xcb platform
plugin (a real window) needs — not only what an offscreen Qt needs — and install them with
apt-get as root, or print the exact command to run.
"""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("soccerdesk_dev_script", ROOT / "scripts" / "dev.py")
assert _spec is not None and _spec.loader is not None
dev = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(dev)

# What ldd printed for PySide6's libqxcb.so on the bare Debian 12 of issue 13 (trimmed).
LDD_QXCB = """\
\tlinux-vdso.so.1 (0x00007eff58c7d000)
\tlibQt6XcbQpa.so.6 => /venv/PySide6/Qt/plugins/platforms/../../lib/libQt6XcbQpa.so.6 (0x00007eff58baf000)
\tlibGL.so.1 => /lib/x86_64-linux-gnu/libGL.so.1 (0x00007eff58b1f000)
\tlibxkbcommon-x11.so.0 => /lib/x86_64-linux-gnu/libxkbcommon-x11.so.0 (0x00007eff58b12000)
\tlibxcb-cursor.so.0 => /lib/x86_64-linux-gnu/libxcb-cursor.so.0 (0x00007eff57fb3000)
\tlibxcb-icccm.so.4 => not found
\tlibxcb-util.so.1 => /lib/x86_64-linux-gnu/libxcb-util.so.1 (0x00007eff57fab000)
\tlibxcb-keysyms.so.1 => not found
\tlibxcb-randr.so.0 => /lib/x86_64-linux-gnu/libxcb-randr.so.0 (0x00007eff57f98000)
\tlibxcb-icccm.so.4 => not found
\tlibxcb-keysyms.so.1 => not found
\t/lib64/ld-linux-x86-64.so.2 (0x00007eff58c7f000)
"""
EXPECTED_LINE = "sudo apt-get install -y --no-install-recommends libxcb-icccm4 libxcb-keysyms1"


def test_missing_libraries_in_ldd_output_map_to_debian_packages() -> None:
    missing = dev.missing_sonames(LDD_QXCB)
    assert missing == ["libxcb-icccm.so.4", "libxcb-keysyms.so.1"]
    assert dev.apt_packages(missing) == ["libxcb-icccm4", "libxcb-keysyms1"]
    assert dev.missing_sonames(LDD_QXCB.replace("not found", "/lib/x86_64-linux-gnu/found.so")) == []


@pytest.mark.parametrize(
    ("soname", "package"),
    [
        ("libxcb-cursor.so.0", "libxcb-cursor0"),
        ("libxcb-render-util.so.0", "libxcb-render-util0"),
        ("libxkbcommon-x11.so.0", "libxkbcommon-x11-0"),  # a name ending in a digit takes a dash
        ("libX11-xcb.so.1", "libx11-xcb1"),
        ("libX11.so.6", "libx11-6"),
        ("libGL.so.1", "libgl1"),
        ("libEGL.so.1", "libegl1"),
        ("libdbus-1.so.3", "libdbus-1-3"),
        ("libfontconfig.so.1", "libfontconfig1"),
        ("libglib-2.0.so.0", "libglib2.0-0"),
        ("libgthread-2.0.so.0", "libglib2.0-0"),
        ("libz.so.1", "zlib1g"),
        ("libGLdispatch.so.0", "libglvnd0"),
    ],
)
def test_a_library_is_found_in_the_debian_package_that_ships_it(soname: str, package: str) -> None:
    assert dev.debian_package(soname) == package


def test_the_platform_checked_is_the_one_the_command_uses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    assert dev.qt_platform("play", []) == "xcb"  # a real window
    assert dev.qt_platform("setup", []) == "xcb"
    assert dev.qt_platform("test", []) == "offscreen"  # the tests need no display and no xcb libraries
    assert dev.qt_platform("play", ["--screenshot", "soccero", "x.png"]) == "offscreen"
    assert dev.qt_platform("sim", []) is None  # no Qt at all
    monkeypatch.setenv("QT_QPA_PLATFORM", "wayland")
    assert dev.qt_platform("play", []) == "wayland"


@pytest.fixture
def fake_venv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A .venv with PySide6's files where dev.py looks for them (their contents do not matter)."""
    venv = tmp_path / ".venv"
    pyside = venv / "lib" / "python3.11" / "site-packages" / "PySide6"
    (pyside / "Qt" / "plugins" / "platforms").mkdir(parents=True)
    for name in ("QtCore.abi3.so", "QtGui.abi3.so", "QtWidgets.abi3.so"):
        (pyside / name).write_bytes(b"")
    for name in ("libqxcb.so", "libqoffscreen.so"):
        (pyside / "Qt" / "plugins" / "platforms" / name).write_bytes(b"")
    (venv / "lib" / "python3.11" / "site-packages" / "PySide6_Essentials-6.11.3.dist-info").mkdir()
    monkeypatch.setattr(dev, "VENV", venv)
    monkeypatch.setattr(dev, "STAMP", venv / ".soccerdesk-installed")
    dev.STAMP.write_text("installed")
    monkeypatch.setattr(dev.shutil, "which", lambda name: f"/usr/bin/{name}")
    return venv


class FakeLdd:
    """ldd as the system answers it: the xcb libraries missing until they are installed."""

    def __init__(self) -> None:
        self.installed = False
        self.asked: list[str] = []

    def __call__(self, path: Path) -> str:
        self.asked.append(path.name)
        if path.name == "libqxcb.so" and not self.installed:
            return LDD_QXCB
        return "\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007eff56e1e000)\n"


def test_without_root_the_exact_install_line_is_printed(fake_venv: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dev.os, "geteuid", lambda: 1000)
    ran: list[list[str]] = []
    monkeypatch.setattr(dev, "_run", lambda cmd, **kw: ran.append(cmd))
    with pytest.raises(SystemExit) as stop:
        dev.ensure_qt_libraries("xcb", FakeLdd())
    message = str(stop.value)
    assert "libxcb-icccm.so.4, libxcb-keysyms.so.1" in message
    assert message.splitlines()[-1].strip() == EXPECTED_LINE
    assert ran == []  # nothing was installed
    assert not (fake_venv / ".soccerdesk-qt-xcb").exists()  # and the next run checks again


def test_as_root_the_packages_are_installed_and_the_check_is_remembered(
    fake_venv: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(dev.os, "geteuid", lambda: 0)
    ldd = FakeLdd()
    ran: list[list[str]] = []

    def run(cmd: list[str], **kw: object) -> None:
        ran.append(cmd)
        if "install" in cmd:
            ldd.installed = True

    monkeypatch.setattr(dev, "_run", run)
    dev.ensure_qt_libraries("xcb", ldd)
    assert ran == [
        ["/usr/bin/apt-get", "update", "-q"],
        ["/usr/bin/apt-get", *EXPECTED_LINE.split()[2:]],
    ]
    assert "libqxcb.so" in ldd.asked
    # The warm path: checked once for this venv, not again.
    ldd.asked.clear()
    dev.ensure_qt_libraries("xcb", ldd)
    assert ldd.asked == []
    # A changed venv (a new PySide6) is checked again.
    dev.STAMP.write_text("installed again")
    dev.ensure_qt_libraries("xcb", ldd)
    assert "libqxcb.so" in ldd.asked


def test_the_offscreen_check_does_not_ask_for_the_xcb_libraries(
    fake_venv: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``dev.py test`` runs offscreen: a machine without the xcb libraries runs the tests."""
    monkeypatch.setattr(dev.os, "geteuid", lambda: 1000)
    ldd = FakeLdd()
    dev.ensure_qt_libraries("offscreen", ldd)
    assert "libqxcb.so" not in ldd.asked and "libqoffscreen.so" in ldd.asked


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ldd and Qt's platform plugins are Linux things")
def test_this_machine_has_what_the_offscreen_tests_need() -> None:
    """The real check, with the real ldd on this checkout's .venv (the tests run offscreen here)."""
    assert dev.qt_missing_libraries("offscreen") == []


# A child that takes a moment to end cleanly, as the app does (it saves, ends its bot process).
CHILD = """
import os, signal, sys, time
def end(signum, frame):
    time.sleep(0.5)
    # os.write: the signal may come while print("ready") is still inside stdout's buffer
    os.write(1, f"child ended cleanly on {signal.Signals(signum).name}\\n".encode())
    os._exit(3)
signal.signal(signal.SIGINT, end)
signal.signal(signal.SIGTERM, end)
print("ready", flush=True)
time.sleep(60)
"""
PARENT = f"""
import importlib.util, sys
spec = importlib.util.spec_from_file_location("dev", {str(ROOT / "scripts" / "dev.py")!r})
dev = importlib.util.module_from_spec(spec)
spec.loader.exec_module(dev)
sys.exit(dev.run_child([sys.executable, "-c", {CHILD!r}]))
"""


@pytest.mark.skipif(sys.platform == "win32", reason="process groups and SIGTERM are POSIX")
@pytest.mark.parametrize(
    ("how", "signum"),
    [("ctrl-c", signal.SIGINT), ("kill", signal.SIGTERM)],
)
def test_dev_py_lets_its_child_end_in_its_own_way(how: str, signum: int) -> None:
    """``dev.py play`` and Ctrl+C (the terminal signals the whole group) or ``kill`` of dev.py alone:
    the app gets the signal once and all the time it needs; dev.py returns its exit code, quietly."""
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        assert parent.stdout is not None and parent.stdout.readline().strip() == "ready"
        if how == "ctrl-c":
            os.killpg(parent.pid, signum)
        else:
            parent.send_signal(signum)
        out, err = parent.communicate(timeout=30)
    finally:
        if parent.poll() is None:
            os.killpg(parent.pid, signal.SIGKILL)
            parent.communicate()
    assert parent.returncode == 3, err
    assert out.splitlines() == [f"child ended cleanly on {signal.Signals(signum).name}"]
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help_lists_every_command_and_succeeds(flag: str) -> None:
    """.ci/run and server/README.md send people to ``dev.py setup``: --help names it (audit 8)."""
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "dev.py"), flag], capture_output=True, text=True)
    assert out.returncode == 0
    for command in ("setup", "play", "test", "sim"):
        assert f"scripts/dev.py {command}" in out.stdout
    assert (
        subprocess.run([sys.executable, str(ROOT / "scripts" / "dev.py"), "bogus"], capture_output=True).returncode == 2
    )
