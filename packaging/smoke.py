"""Smoke test of a frozen soccerdesk bundle: it starts, knows its version, draws a board and
opens the Play online dialog (network play is reached by name only, so a build can leave it out)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

# soccerdesk's licence (MIT), and Qt's and PySide6's (LGPLv3, which asks for the GPLv3 beside it).
LICENCE_TEXTS = ("LICENSE", "THIRD-PARTY-NOTICES.txt", "LGPL-3.txt", "GPL-3.txt", "zeroconf/COPYING")


def executable(bundle: Path, name: str = "soccerdesk") -> Path:
    if sys.platform == "win32":
        return bundle / f"{name}.exe"
    return bundle / name


def smoke_test(bundle: Path, version: str, game: str = "soccer-go") -> None:
    """Raise AssertionError unless the frozen app reports ``version`` and renders ``game``."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    exe = executable(bundle)
    out = subprocess.run([str(exe), "--version"], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, f"--version failed: {out.stderr}"
    assert version in out.stdout, f"--version printed {out.stdout!r}, expected {version}"
    with tempfile.TemporaryDirectory() as tmp:
        for target, what in ((game, "the board"), (f"online:{game}", "the online dialog")):
            png = Path(tmp) / f"{target.replace(':', '-')}.png"
            shot = subprocess.run(
                [str(exe), "--screenshot", target, str(png)], capture_output=True, text=True, env=env, timeout=180
            )
            assert shot.returncode == 0, f"{what} does not draw in the frozen app: {shot.stderr}"
            assert png.exists() and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", f"no PNG of {what} written"
    assert any(bundle.rglob("docs/rulings.md")), "docs/rulings.md is not in the bundle (the help's rulings)"
    for licence in LICENCE_TEXTS:
        assert any(bundle.rglob(f"licenses/{licence}")), f"licenses/{licence} is not in the bundle"
    relay = executable(bundle, "soccerdesk-relay")
    out = subprocess.run([str(relay), "--help"], capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == 0, f"relay --help failed: {out.stderr}"
