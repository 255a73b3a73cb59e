"""Board and picture text is sized in scene units at every logical DPI (scale audit, finding 2).

Qt turns a point into logicalDpi/72 pixels. The boards' boxes, chips and card faces and the
home screen pictures are laid out in scene units, so text sized in points outgrew them where
the logical DPI is above 96 (X11 scaling fonts only: Xft.dpi 120 or 144 with the Floor rounding
policy or with high-DPI scaling off) and fell short of them, and of the 8-point least size, on
macOS, whose logical DPI is 72. Each DPI is set in a process of its own
(``tests/ui/font_dpi_probe.py``), offscreen, and every text the four boards and the four pictures
draw must have the extent it has at 96 DPI, measured both for the board view's viewport and for
an offscreen image."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
PROBE = HERE / "font_dpi_probe.py"

SETTINGS: dict[str, dict[str, str]] = {
    "96 dpi": {"QT_FONT_DPI": "96"},
    "72 dpi (macOS)": {"QT_FONT_DPI": "72"},
    "120 dpi (high-DPI scaling off)": {"QT_FONT_DPI": "120", "QT_ENABLE_HIGHDPI_SCALING": "0"},
    "144 dpi (Floor rounding)": {"QT_FONT_DPI": "144", "QT_SCALE_FACTOR_ROUNDING_POLICY": "Floor"},
}
OTHER_DPIS = [name for name in SETTINGS if name != "96 dpi"]
SCALING = ("QT_FONT_DPI", "QT_ENABLE_HIGHDPI_SCALING", "QT_SCALE_FACTOR", "QT_SCREEN_SCALE_FACTORS")
SCALING += ("QT_SCALE_FACTOR_ROUNDING_POLICY", "QT_USE_PHYSICAL_DPI")
GAMES = ("big-time-soccer", "pawn-soccer", "soccero", "soccer-go")
SAME_WITHIN = 0.01


@cache
def drawn(setting: str) -> dict[str, Any]:
    """What the probe prints in a process with the logical DPI of ``setting``."""
    env = {name: value for name, value in os.environ.items() if name not in SCALING}
    env.update(SETTINGS[setting], QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, str(PROBE)], env=env, cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    found: dict[str, Any] = json.loads(done.stdout)
    dpi = float(SETTINGS[setting]["QT_FONT_DPI"])
    # The setting really is font-only scaling: else the test would compare 96 with 96.
    assert (found["dpi"], found["pixel_ratio"]) == (dpi, 1.0), f"{setting}: Qt used {found['dpi']} dpi"
    return found


def differences(designed: list[dict[str, Any]], seen: list[dict[str, Any]]) -> list[str]:
    """Where the texts drawn at another DPI (``seen``) are not those drawn at 96 (``designed``),
    or have another extent (more than :data:`SAME_WITHIN` of it) on either device."""
    words, seen_words = [t["text"] for t in designed], [t["text"] for t in seen]
    if words != seen_words:
        return [f"other texts: {sorted(set(words) ^ set(seen_words))[:6]}"]
    found = []
    for one, other in zip(designed, seen, strict=True):
        for device in ("screen", "image"):
            for side, size, seen_size in zip(("wide", "tall"), one[device], other[device], strict=True):
                if abs(seen_size - size) > SAME_WITHIN * size:
                    found.append(f"{one['text']!r} on the {device}: {seen_size:.1f} {side}, not {size:.1f}")
    return found


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("setting", OTHER_DPIS)
def test_a_board_text_has_its_96_dpi_extent_at_any_dpi(setting: str, game_id: str) -> None:
    """Each board, small (its side panel zoomed, its labels made bigger) and large."""
    designed, seen = drawn("96 dpi")["boards"], drawn(setting)["boards"]
    boards = [name for name in designed if name.startswith(f"{game_id} ")]
    assert len(boards) == 2
    found = {board: differences(designed[board], seen[board]) for board in boards}
    assert not any(found.values()), found


@pytest.mark.parametrize("setting", OTHER_DPIS)
def test_a_home_screen_picture_text_has_its_96_dpi_extent_at_any_dpi(setting: str) -> None:
    """The four pictures of the home screen and the help (``art.py``): the card numbers stay on
    their cards, "GK" in its disc."""
    designed, seen = drawn("96 dpi")["pictures"], drawn(setting)["pictures"]
    found = {game_id: differences(designed[game_id], seen[game_id]) for game_id in GAMES}
    assert not any(found.values()), found
