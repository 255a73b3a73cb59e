"""Layer rules of ARCHITECTURE.md: rules, bots and the protocol stay free of Qt and aiohttp;
the relay never imports Qt."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

PURE = [
    "soccerdesk.rules",
    "soccerdesk.bots",
    "soccerdesk.net.protocol",
    "soccerdesk.sim",
    "soccerdesk.learn.review",
    "soccerdesk.learn.hint",
    "soccerdesk.learn.coach",
    "soccerdesk.learn.words",
]


def _loaded_after_import(module: str, extra: str = "") -> set[str]:
    code = (
        f"import sys, importlib\nimportlib.import_module({module!r})\n{extra}\nprint('\\n'.join(sorted(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    return {line.split(".")[0] for line in out.split()}


@pytest.mark.parametrize("module", PURE)
def test_pure_layers_import_neither_qt_nor_aiohttp(module: str) -> None:
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{module} is not written yet")
    extra = (
        "from soccerdesk.rules import all_games\n"
        "all_games()\n"
        "from soccerdesk.bots import make_bot, bot_names\n"
        "from soccerdesk.rules import GAMES\n"
        "[make_bot(n, g) for g in GAMES for n in bot_names()]"
    )
    loaded = _loaded_after_import(module, extra)
    assert not loaded & {"PySide6", "shiboken6", "aiohttp", "qasync"}


def test_relay_does_not_import_qt() -> None:
    if importlib.util.find_spec("server.relay") is None:
        pytest.skip("the relay is not written yet")
    loaded = _loaded_after_import("server.relay")
    assert not loaded & {"PySide6", "shiboken6", "qasync"}


def test_a_damaged_match_file_is_read_without_the_match_screen(tmp_path) -> None:
    """UI review s28, 3: the words for a damaged file's fault (team names for "seat 1") came
    from the match screen's module, so reading Recent matches off the UI thread loaded the
    match screen, the sessions and the bots (some 0.12 s). The settings layer stays below it."""
    code = (
        "import json, sys\n"
        "from pathlib import Path\n"
        "from soccerdesk.rules import CorruptRecord, get_game\n"
        "from soccerdesk.ui.settings import replay_match_file\n"
        "game = get_game('soccer-go')\n"
        "state = game.new_match(seed=1)\n"
        "record = game.dump(state)\n"
        "record['actions'] = [[0, 'no such action']]\n"
        f"path = Path({str(tmp_path / 'damaged.json')!r})\n"
        "path.write_text(json.dumps(record))\n"
        "try:\n"
        "    replay_match_file(path)\n"
        "except CorruptRecord as exc:\n"
        "    print('fault:', exc)\n"
        "print('\\n'.join(sorted(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert "fault:" in out
    assert not {line for line in out.split() if line.startswith("soccerdesk.ui.")} - {"soccerdesk.ui.settings"}
