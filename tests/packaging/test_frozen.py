"""The frozen app (PyInstaller bundle in dist/soccerdesk) starts and reports its version.

Building takes minutes, so this test checks a bundle that ``scripts/build-installer``
made; set SOCCERDESK_BUILD_FROZEN=1 to have the test build one first.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BUNDLE = ROOT / "dist" / "soccerdesk"
sys.path.insert(0, str(ROOT / "packaging"))


@pytest.mark.slow
def test_frozen_app_starts_and_reports_its_version() -> None:
    if os.environ.get("SOCCERDESK_BUILD_FROZEN") == "1":
        subprocess.run([sys.executable, str(ROOT / "scripts" / "build-installer"), "--no-test"], check=True, cwd=ROOT)
    if not BUNDLE.is_dir():
        pytest.skip("no frozen bundle in dist/ (run scripts/build-installer, or set SOCCERDESK_BUILD_FROZEN=1)")
    from smoke import smoke_test

    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    smoke_test(BUNDLE, version)


@pytest.mark.slow
def test_the_deb_declares_its_glibc_and_carries_its_copyright() -> None:
    """Debian Policy 8.6 and 12.5 (packaging audit 4 and 6), on the .deb scripts/build-installer made."""
    debs = sorted((ROOT / "dist").glob("soccerdesk_*.deb"))
    if not debs or shutil.which("dpkg-deb") is None:
        pytest.skip("no .deb in dist/ (run scripts/build-installer on Linux)")
    depends = subprocess.run(["dpkg-deb", "-f", str(debs[-1]), "Depends"], capture_output=True, text=True).stdout
    assert re.match(r"libc6 \(>= 2\.\d+\), ", depends), depends
    files = subprocess.run(["dpkg-deb", "-c", str(debs[-1])], capture_output=True, text=True).stdout
    for path in (
        "./usr/share/doc/soccerdesk/copyright",
        "/_internal/licenses/LGPL-3.txt",
        "/_internal/licenses/LICENSE",
    ):
        assert path in files, path
