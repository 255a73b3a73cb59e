"""The frozen app (PyInstaller bundle in dist/soccerdesk) starts and reports its version.

Building takes minutes, so this test checks a bundle that ``scripts/build-installer``
made; set SOCCERDESK_BUILD_FROZEN=1 to have the test build one first.
"""

from __future__ import annotations

import os
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
