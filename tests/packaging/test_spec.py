"""What packaging/soccerdesk.spec asks PyInstaller for, read without building anything.

The spec is run with stand-ins for PyInstaller's Analysis, PYZ, EXE, COLLECT and BUNDLE
that keep their arguments, as on macOS (where it also makes the .app).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from soccerdesk.app import SCREENSHOT_KINDS
from soccerdesk.ui.main_window import ONLINE_MODULE

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "packaging" / "soccerdesk.spec"


@dataclass
class Call:
    kind: str
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    binaries: list[Any] = field(default_factory=list)
    datas: list[Any] = field(default_factory=list)
    pure: list[Any] = field(default_factory=list)
    scripts: list[Any] = field(default_factory=list)


def run_spec(monkeypatch: pytest.MonkeyPatch, platform: str) -> list[Call]:
    calls: list[Call] = []

    def recorder(kind: str):
        def make(*args: Any, **kwargs: Any) -> Call:
            calls.append(Call(kind, args, kwargs))
            return calls[-1]

        return make

    monkeypatch.setattr(sys, "platform", platform)
    names = {kind: recorder(kind) for kind in ("Analysis", "PYZ", "EXE", "COLLECT", "BUNDLE")}
    exec(compile(SPEC.read_text(), str(SPEC), "exec"), {"SPECPATH": str(SPEC.parent), **names})
    return calls


def of(calls: list[Call], kind: str) -> list[Call]:
    return [call for call in calls if call.kind == kind]


def test_the_app_bundles_every_module_it_reaches_by_name_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Network play (and each --screenshot kind) is imported through importlib, which
    PyInstaller's analysis cannot follow: the spec names them, or installers ship without them."""
    app = of(run_spec(monkeypatch, "linux"), "Analysis")[0]
    assert app.args[0][0].endswith("launcher.py")
    hidden = set(app.kwargs["hiddenimports"])
    assert ONLINE_MODULE in hidden
    by_name = {module for module, _function in SCREENSHOT_KINDS.values()}
    statically_imported = {"soccerdesk.ui.screenshot"}  # app.py imports it for ScreenshotError
    assert by_name - statically_imported <= hidden


def test_the_mac_app_is_not_a_background_only_app(monkeypatch: pytest.MonkeyPatch) -> None:
    """The relay (a console program) is the last EXE in COLLECT, so PyInstaller would mark the
    .app LSBackgroundOnly (no Dock icon, no menu bar) unless the spec's Info.plist says no."""
    calls = run_spec(monkeypatch, "darwin")
    exes = of(calls, "EXE")
    assert [exe.kwargs["console"] for exe in exes] == [False, True]
    (bundle,) = of(calls, "BUNDLE")
    assert bundle.kwargs["info_plist"].get("LSBackgroundOnly") is False


def test_the_mac_app_may_use_the_local_network_for_lan_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """macOS 15 asks before an app uses the local network and lets it browse only the DNS-SD
    services its Info.plist names: the LAN games' own service type must be among them."""
    from soccerdesk.net.discovery import SERVICE_TYPE

    (bundle,) = of(run_spec(monkeypatch, "darwin"), "BUNDLE")
    plist = bundle.kwargs["info_plist"]
    assert plist.get("NSLocalNetworkUsageDescription")
    assert SERVICE_TYPE.removesuffix(".local.") in plist.get("NSBonjourServices", [])
