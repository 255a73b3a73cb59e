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
