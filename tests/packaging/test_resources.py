"""One helper finds resources/ in a checkout, an installed wheel and a frozen build."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from soccerdesk import resources

ROOT = Path(__file__).resolve().parents[2]


def _fake_resources(base: Path) -> Path:
    (base / "games").mkdir(parents=True)
    (base / "games" / "x.toml").write_text("answer = 42\n")
    return base


@pytest.fixture(autouse=True)
def _fresh_cache():
    resources.resource_dir.cache_clear()
    resources.load_game_data.cache_clear()
    yield
    resources.resource_dir.cache_clear()
    resources.load_game_data.cache_clear()


def test_checkout_layout_is_found() -> None:
    assert resources.resource_dir() == ROOT / "resources"


def test_installed_wheel_layout_is_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "site-packages" / "soccerdesk"
    _fake_resources(package / "_resources")
    monkeypatch.setattr(resources, "_PACKAGE_DIR", package)
    assert resources.resource_dir() == package / "_resources"
    assert resources.load_game_data("x") == {"answer": 42}


def test_frozen_layout_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    frozen = _fake_resources(tmp_path / "bundle" / "_internal" / "resources")
    monkeypatch.setattr(sys, "_MEIPASS", str(frozen.parent), raising=False)
    monkeypatch.setattr(resources, "_PACKAGE_DIR", tmp_path / "nowhere" / "soccerdesk")
    assert resources.resource_dir() == frozen


def test_missing_resources_say_where_they_were_looked_for(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(resources, "_PACKAGE_DIR", tmp_path / "a" / "soccerdesk")
    with pytest.raises(FileNotFoundError, match="looked in"):
        resources.resource_dir()


@pytest.mark.slow
def test_the_wheel_carries_the_resources(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("soccerdesk-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    for game in ("soccer-go", "pawn-soccer", "soccero", "big-time-soccer"):
        assert f"soccerdesk/_resources/games/{game}.toml" in names
    assert "soccerdesk/_resources/icons/soccerdesk.svg" in names
    assert "soccerdesk/docs/rulings.md" in names  # the help's "Our rulings" (docs audit, 7 December)
    assert any(n.startswith("server/") for n in names)
    # MIT: the notice goes with every copy (packaging audit 4).
    assert f"soccerdesk-{wheel.name.split('-')[1]}.dist-info/licenses/LICENSE" in names
