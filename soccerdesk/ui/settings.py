"""What the app remembers between runs: QSettings for preferences, files for matches.

Preferences (window size, animation speed, names, team colours) live in QSettings.
Matches live as JSON match records in the user data folder (``platformdirs``), or in the
folder named by ``SOCCERDESK_DATA_DIR`` (tests, portable installs):

* ``autosave/`` — one file per match, rewritten after every action;
* ``saves/`` — the default folder of "Save match as…".

A file there that cannot be read is listed as such (:class:`UnreadableMatch`), never deleted.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, QSettings
from PySide6.QtGui import QColor

from soccerdesk.learn.words import name_seats
from soccerdesk.rules import GAMES, CorruptRecord, Game, State, UnknownGame, decided_words, get_game, result_words
from soccerdesk.rules.api import RECORD_FORMAT

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
    early: bool = False  # it ended before full time: a player resigned or did not come back
    played: float | None = None  # seconds played, earlier sittings included (None: the file does not say)
    stamp: tuple[int, int] = (0, 0)  # the file's modification time (ns) and size as it was read


@dataclass(frozen=True)
class UnreadableMatch:
    """A file among the autosaves that holds no match the app can read: the home screen lists
    it, with why and where it is, so that a damaged match is not taken for a lost one."""

    path: Path
    reason: str  # in words, naming the file: what Match → Open match… says of it
    modified: float  # the file's time, for its place in the list


def time_played_words(seconds: float) -> str:
    """How long a match has been played, as the match screen and Recent matches say it."""
    whole = int(seconds)
    return f"Time played {whole // 60:02d}:{whole % 60:02d}"


def match_result(state: State) -> dict[str, Any] | None:
    """How a finished match ended, as the app block of its file keeps it (``"winner"``, the
    seat or ``None``, and ``"details"``, :meth:`State.result_details`); ``None`` while it goes on."""
    return {"winner": state.winner, "details": state.result_details()} if state.is_terminal() else None


def played_seconds(record: Mapping[str, Any]) -> float | None:
    """Seconds a saved match had been played, from its app block (``None`` for files saved
    before the app counted them, or a value that cannot be a time)."""
    app = record.get("app")
    value = app.get("played_seconds") if isinstance(app, Mapping) else None
    if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value < 10**8:
        return float(value)
    return None


def read_match_file(path: Path) -> dict[str, Any]:
    """The match record in a file, not yet checked against its game's rules. Anything wrong
    raises CorruptRecord saying what, in words, and naming the file."""
    try:
        text = path.read_text(encoding="utf-8-sig")  # a byte-order mark (Notepad, PowerShell) is no fault
    except FileNotFoundError:
        raise CorruptRecord(f"{path.name} is not there any more (looked in {path.parent}).") from None
    except UnicodeDecodeError:
        raise CorruptRecord(f"{path.name} is not a soccerdesk match file (it is not text).") from None
    except OSError as exc:
        raise CorruptRecord(f"{path.name} cannot be read: {exc.strerror or exc}.") from None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        # Not JSON (JSONDecodeError is a ValueError), or JSON that Python will not read: a
        # number of thousands of digits (ValueError), lists nested past the parser's depth.
        if not text.strip():
            raise CorruptRecord(f"{path.name} is empty: it holds no match.") from None
        if text.lstrip()[:1] in ("{", "["):
            # Begins as a match file would, then breaks off: a save cut short (a full disk, an
            # interrupted copy) or edited by hand.
            raise CorruptRecord(f"{path.name} is damaged or cut short, so it cannot be opened as a match.") from None
        raise CorruptRecord(f"{path.name} is not a soccerdesk match file.") from None
    if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
        raise CorruptRecord(f"{path.name} is not a soccerdesk match file.")
    return data


def damaged_words(path: Path, error: Exception) -> str:
    """What Recent matches and Open match… say of a file that failed in a way nobody foresaw."""
    return f"{path.name} is damaged: soccerdesk could not read a match in it ({type(error).__name__}: {error})."


def check_header(path: Path, record: Mapping[str, Any], games: Mapping[str, Game]) -> None:
    """Raise CorruptRecord, naming the file, if ``record`` is of no game there is, or if its
    game, when in ``games`` (those loaded), refuses its version, options or kind of actions.
    Its actions are not replayed: that waits until the match is opened."""
    game_id = str(record.get("game"))
    try:
        # An id that is no game fails at once, saying which games there are; a game not yet
        # loaded is not loaded here (the home screen loads them off the UI thread).
        game = games.get(game_id) or (get_game(game_id) if game_id not in GAMES else None)
        if game is not None:
            game.replay(record, upto=0)
    except (UnknownGame, CorruptRecord) as exc:
        raise CorruptRecord(f"{path.name}: {exc}") from None


def replay_match_file(path: Path) -> tuple[Game, dict[str, Any], State]:
    """The game and match record in a file, and the position its actions replay to. Anything
    wrong raises CorruptRecord saying what, in words, and naming the file (with ``replayable``,
    how many actions replay, when the rules refuse one part-way)."""
    data = read_match_file(path)  # the same words as Recent matches for a damaged file
    try:
        game = get_game(str(data.get("game")))
    except UnknownGame as exc:
        raise CorruptRecord(f"{path.name}: {exc}") from None
    try:
        final = game.load(data)  # checks every action
    except CorruptRecord as exc:
        message = f"{path.name}: {_with_team_names(str(exc), data, game.id)}"
        raise CorruptRecord(message, replayable=exc.replayable) from None
    return game, data, final


def _with_team_names(text: str, data: dict[str, Any], game_id: str) -> str:
    """The rules' words for a record's fault ("by seat 1") with the file's team names, where it
    names them, else Home and Away: people never chose a seat number."""
    names = ["Home", "Away"]
    app = data.get("app")
    players = app.get("players") if isinstance(app, dict) else None
    if isinstance(players, list) and len(players) == 2:
        for seat, player in enumerate(players):
            if isinstance(player, dict) and isinstance(player.get("name"), str) and player["name"].strip():
                names[seat] = player["name"]
    return name_seats(text, (names[0], names[1]), game_id)


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

    def remove(self, key: str) -> None:
        """Forget ``key`` (and what lies under it)."""
        self.qsettings.remove(key)

    def keys(self, group: str) -> list[str]:
        """The keys right under ``group`` (``"online/seat"``): those saved and those set here."""
        self.qsettings.beginGroup(group)
        try:
            return list(self.qsettings.childKeys())
        finally:
            self.qsettings.endGroup()

    def reload(self) -> None:
        """Write what this window changed and read what other windows wrote meanwhile.

        Two windows on one profile (``--data-dir``) are two processes, each with its own copy
        of the settings: a key one of them writes reaches the other's copy only through the
        file. QSettings merges key by key (under a lock file), so things two windows both keep
        are kept one key each (the remembered online seats), and read after a reload.
        """
        self.qsettings.sync()

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

    def recent_matches(
        self, limit: int = 12, games: Mapping[str, Game] | None = None
    ) -> list[SavedMatch | UnreadableMatch]:
        """Autosaved matches, newest first, and the files among them that cannot be read (never
        deleted). A record whose game is in ``games`` is checked against its rules too (see
        :func:`check_header`)."""
        found: list[SavedMatch | UnreadableMatch] = []
        if not self.autosave_dir.is_dir():
            return found
        for path in self.autosave_dir.glob("*.json"):
            try:
                stat = path.stat()
            except OSError:
                continue  # gone since the folder was listed: nothing to show
            file_time = stat.st_mtime
            try:
                record = read_match_file(path)
                check_header(path, record, games or {})
                found.append(_saved_match(path, record, file_time, file_stamp(stat)))
            except CorruptRecord as exc:
                found.append(UnreadableMatch(path, str(exc), file_time))
            except Exception as exc:  # noqa: BLE001 (one odd file must not hide the others or stop the app)
                found.append(UnreadableMatch(path, damaged_words(path, exc), file_time))
        found.sort(key=lambda m: m.modified, reverse=True)
        return found[:limit]


def file_stamp(stat: os.stat_result) -> tuple[int, int]:
    """A file's modification time (ns) and size: when either changes, so may what it holds."""
    return stat.st_mtime_ns, stat.st_size


def _saved_match(path: Path, record: Mapping[str, Any], file_time: float, stamp: tuple[int, int]) -> SavedMatch:
    """What the home screen shows about a readable match file. Its app block (players, score,
    result) is the app's own: what is missing or odd there falls back to plain words."""
    app = record.get("app")
    app = app if isinstance(app, Mapping) else {}
    players = app.get("players")
    names = ["Home", "Away"]
    if isinstance(players, list) and len(players) == 2:
        for seat, player in enumerate(players):
            if isinstance(player, Mapping) and "name" in player:
                names[seat] = str(player["name"])
    score = app.get("score")
    goals = (
        (score[0], score[1])
        if isinstance(score, list) and len(score) == 2 and all(type(g) is int for g in score)
        else None
    )
    # When the match was last played (a review added to the file later changes neither its
    # date nor its place in the list); the file's time for old files (and odd values).
    saved = app.get("saved")
    when = file_time
    if isinstance(saved, (int, float)) and not isinstance(saved, bool) and 0 <= saved < 10**11:
        when = float(saved)
    actions = record.get("actions")
    return SavedMatch(
        path=path,
        game_id=str(record.get("game")),
        names=(names[0], names[1]),
        score=goals,
        over=bool(app.get("over", False)),
        actions=len(actions) if isinstance(actions, list) else 0,
        modified=when,
        ending=ending_words(app.get("result"), (names[0], names[1])),
        early=isinstance(app.get("result"), dict) and app["result"].get("reason") in EARLY_ENDINGS,
        played=played_seconds(record),
        stamp=stamp,
    )


EARLY_ENDINGS = ("resigned", "abandoned")
"""The relay's reasons for a match that ended before full time."""


def ending_words(result: Any, names: tuple[str, str]) -> str:
    """How a saved match ended beyond its score, from its app block's ``result`` (a local
    match's winner and details, or the relay's result): "" when the score says it all."""
    if not isinstance(result, dict):
        return ""
    winner = result.get("winner")
    reason = result.get("reason")
    if winner in (0, 1) and reason in EARLY_ENDINGS:
        return f"{names[1 - winner]} {'resigned' if reason == 'resigned' else 'left'}"
    details = result.get("details")
    if not (isinstance(details, dict) and decided_words(details)):
        return ""  # the score says it all
    return result_words(names[winner] if winner in (0, 1) else None, details)
