"""What the app remembers between runs: QSettings for preferences, files for matches.

Preferences (window size, animation speed, names, team colours) live in QSettings.
Matches live as JSON match records in the user data folder (``platformdirs``), or in the
folder named by ``SOCCERDESK_DATA_DIR`` (tests, portable installs):

* ``autosave/`` — one file per match, rewritten after every action;
* ``saves/`` — the default folder of "Save match as…".
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, QSettings
from PySide6.QtGui import QColor

from soccerdesk.rules import decided_words, result_words

ANIMATION_SPEEDS: dict[str, float] = {"off": 0.0, "fast": 0.45, "normal": 1.0, "slow": 1.8}
"""Animation speed name → factor applied to every animation's duration (0 = no animations)."""

# Okabe & Ito's palette: distinguishable with every common colour-vision deficiency.
TEAM_COLOURS: dict[str, str] = {
    "Blue": "#0072b2",
    "Orange": "#e69f00",
    "Vermilion": "#d55e00",
    "Sky blue": "#56b4e9",
    "Bluish green": "#009e73",
    "Yellow": "#f0e442",
    "Reddish purple": "#cc79a7",
    "Black": "#000000",
}


def text_colour_on(background: str) -> QColor:
    """Black or white, whichever reads better on ``background``."""
    c = QColor(background)
    luminance = 0.2126 * c.redF() + 0.7152 * c.greenF() + 0.0722 * c.blueF()
    return QColor("#000000") if luminance > 0.45 else QColor("#ffffff")


def default_data_dir() -> Path:
    override = os.environ.get("SOCCERDESK_DATA_DIR")
    import platformdirs  # only the app itself needs it, not every module that reads settings

    return Path(override) if override else Path(platformdirs.user_data_dir("soccerdesk", appauthor=False))


@dataclass(frozen=True)
class SavedMatch:
    """A match file found on disk, with what the home screen shows about it."""

    path: Path
    game_id: str
    names: tuple[str, str]
    score: tuple[int, int] | None
    over: bool
    actions: int
    modified: float
    ending: str = ""  # how a finished match ended beyond its score: "Away wins on penalties, 4–3"


class AppSettings:
    """Typed access to the app's QSettings and match folders. Pass one into whoever needs it."""

    def __init__(self, qsettings: QSettings, data_dir: Path) -> None:
        self.qsettings = qsettings
        self.data_dir = data_dir

    @property
    def autosave_dir(self) -> Path:
        return self.data_dir / "autosave"

    @property
    def saves_dir(self) -> Path:
        return self.data_dir / "saves"

    def get(self, key: str, default: Any) -> Any:
        value = self.qsettings.value(key, default)
        if isinstance(default, bool):
            return value in (True, "true", "1", 1)
        if isinstance(default, int) and not isinstance(default, bool):
            try:
                return int(str(value))
            except (TypeError, ValueError):
                return default
        return value if value is not None else default

    def set(self, key: str, value: Any) -> None:
        self.qsettings.setValue(key, value)

    @property
    def animation_speed(self) -> str:
        speed = str(self.get("match/animation_speed", "normal"))
        return speed if speed in ANIMATION_SPEEDS else "normal"

    @animation_speed.setter
    def animation_speed(self, value: str) -> None:
        self.set("match/animation_speed", value if value in ANIMATION_SPEEDS else "normal")

    @property
    def ask_after_turn(self) -> bool:
        """Pawn Soccer: whether the window after each turn (substitute now, or end the turn)
        waits for the player; off, it ends at once (the substitute is offered before every turn)."""
        return bool(self.get("match/ask_substitute_after_turn", False))

    @ask_after_turn.setter
    def ask_after_turn(self, value: bool) -> None:
        self.set("match/ask_substitute_after_turn", bool(value))

    @property
    def let_go_by_itself(self) -> bool:
        """Big Time Soccer against the computer: whether the app lets the opponent's card go for
        the player when no card in their hand can answer it (on by default)."""
        return bool(self.get("match/let_go_by_itself", True))

    @let_go_by_itself.setter
    def let_go_by_itself(self, value: bool) -> None:
        self.set("match/let_go_by_itself", bool(value))

    def geometry(self) -> QByteArray | None:
        value = self.qsettings.value("window/geometry")
        return value if isinstance(value, QByteArray) else None

    def save_geometry(self, geometry: QByteArray) -> None:
        self.qsettings.setValue("window/geometry", geometry)

    def recent_matches(self, limit: int = 12) -> list[SavedMatch]:
        """Autosaved matches, newest first. Unreadable files are skipped, not deleted."""
        found: list[SavedMatch] = []
        if not self.autosave_dir.is_dir():
            return found
        for path in self.autosave_dir.glob("*.json"):
            try:
                data = json.loads(path.read_text())
                app = data.get("app", {})
                players = app.get("players", [{}, {}])
                names = (str(players[0].get("name", "Home")), str(players[1].get("name", "Away")))
                score = app.get("score")
                # When the match was last played (a review added to the file later changes
                # neither its date nor its place in the list); the file's time for old files.
                saved = app.get("saved")
                when = float(saved) if isinstance(saved, (int, float)) and not isinstance(saved, bool) else None
                found.append(
                    SavedMatch(
                        path=path,
                        game_id=str(data["game"]),
                        names=names,
                        score=(int(score[0]), int(score[1])) if isinstance(score, list) and len(score) == 2 else None,
                        over=bool(app.get("over", False)),
                        actions=len(data.get("actions", [])),
                        modified=when if when is not None else path.stat().st_mtime,
                        ending=_ending(app.get("result"), names),
                    )
                )
            except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError):
                continue
        found.sort(key=lambda m: m.modified, reverse=True)
        return found[:limit]


def _ending(result: Any, names: tuple[str, str]) -> str:
    """How a saved match ended beyond its score, from its app block's ``result`` (a local
    match's winner and details, or the relay's result): "" when the score says it all."""
    if not isinstance(result, dict):
        return ""
    winner = result.get("winner")
    reason = result.get("reason")
    if winner in (0, 1) and reason in ("resigned", "abandoned"):
        return f"{names[1 - winner]} {'resigned' if reason == 'resigned' else 'left'}"
    details = result.get("details")
    if not (isinstance(details, dict) and decided_words(details)):
        return ""  # the score says it all
    return result_words(names[winner] if winner in (0, 1) else None, details)
