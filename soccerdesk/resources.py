"""Finding the ``resources/`` folder in a checkout, an installed wheel or a frozen build."""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path
from typing import Any

_PACKAGE_DIR = Path(__file__).resolve().parent


def _candidates() -> list[Path]:
    found = []
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:  # PyInstaller unpacks data next to the executable's internals
        found.append(Path(frozen) / "resources")
    found.append(_PACKAGE_DIR.parent / "resources")  # a source checkout / editable install
    found.append(_PACKAGE_DIR / "_resources")  # a wheel (pyproject force-include)
    return found


@cache
def resource_dir() -> Path:
    """The folder holding ``games/``, ``images/`` and ``icons/``."""
    for path in _candidates():
        if (path / "games").is_dir():
            return path
    tried = ", ".join(str(p) for p in _candidates())
    raise FileNotFoundError(f"soccerdesk resources not found (looked in {tried})")


def resource_path(*parts: str) -> Path:
    return resource_dir().joinpath(*parts)


@cache
def load_game_data(game_id: str) -> dict[str, Any]:
    """The parsed ``resources/games/<id>.toml`` of a game (validated by the game itself)."""
    import tomllib  # here, not at the top: the app's window opens before any game data is read

    path = resource_path("games", f"{game_id}.toml")
    with path.open("rb") as fh:
        return tomllib.load(fh)
