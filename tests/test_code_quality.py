"""House style (STYLE.md 6): ruff clean and ruff-formatted everywhere; mypy clean on rules, bots, learn, net and server."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent))
    if found is None:
        pytest.skip(f"{name} is not installed (pip install -e '.[test]')")
    return found


def test_ruff_finds_nothing() -> None:
    out = subprocess.run(
        [_tool("ruff"), "check", "--output-format", "concise", "."], cwd=ROOT, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stdout + out.stderr


def test_ruff_format_leaves_every_file_as_it_is() -> None:
    out = subprocess.run([_tool("ruff"), "format", "--check", "."], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


@pytest.mark.slow
def test_mypy_is_clean_on_the_pure_layers_and_the_relay() -> None:
    out = subprocess.run(
        [_tool("mypy"), "soccerdesk/rules", "soccerdesk/bots", "soccerdesk/learn", "soccerdesk/net", "server"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stdout + out.stderr
