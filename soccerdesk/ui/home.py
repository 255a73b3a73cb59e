"""The home screen: choose a game, the opponent, the options and the teams; resume a match.

Signals:
    start_requested(object): a :class:`MatchSetup` for a new local match.
    resume_requested(object): the ``Path`` of an autosaved match to continue (or replay, if over).
    online_resume_requested(object): a :class:`~soccerdesk.ui.seats.RememberedSeat` to take back
        (an online match this computer keeps a seat in that was not seen to end).
    open_requested(): the user wants to open a saved match file.
    online_requested(str): "host", "join" or "online" (handled by ``soccerdesk.ui.online``).
    help_requested(): show the rules of the selected game.
    learn_requested(str): the game whose guided first match to start (or resume).
    games_loaded(): every game's rules and the bot levels are loaded and each board was drawn
        once offscreen (once; :attr:`HomeScreen.loaded` is true from then on).
"""

from __future__ import annotations

import contextlib
import importlib
import json
import re
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QIcon, QKeyEvent, QPaintEvent, QPixmap, QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSpinBox,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionComboBox,
    QStyleOptionViewItem,
    QStylePainter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from soccerdesk.bots import bot_names
from soccerdesk.learn.coach import has_script
from soccerdesk.learn.words import sentence
from soccerdesk.rules import GAMES, BadOption, CorruptRecord, Game, Option, get_game
from soccerdesk.ui.art import game_pixmap
from soccerdesk.ui.boards import board_available
from soccerdesk.ui.keys import ENTER_KEYS, press_focused_button
from soccerdesk.ui.seats import WaitingMatch, seat_words, waiting_matches
from soccerdesk.ui.settings import (
    TEAM_COLOURS,
    AppSettings,
    SavedMatch,
    UnreadableMatch,
    damaged_words,
    ending_words,
    file_stamp,
    match_result,
    replay_match_file,
    time_played_words,
)

if TYPE_CHECKING:  # loaded once the window is up (see HomeScreen._start_loading): a faster start
    from concurrent.futures import Future

    from soccerdesk.ui.session import Player

CARD_PICTURE = (192, 120)
"""Width and height of the picture on a game card (logical pixels)."""

CARD_PICTURE_LEAST = 0.4
"""The picture on a game card shrinks to this part of :data:`CARD_PICTURE` in a low window
(1024 × 600 laptop screens), so that the title and description under it stay whole."""

SUMMARY_COLUMNS = 30
"""Characters a line of a game card's summary; two lines of this fit the card's smallest width
(a longer line would be elided by Qt in the middle of a word)."""

BLURBS = {
    "big-time-soccer": "Cards move the ball up an 18-zone field; a d20 decides.",
    "pawn-soccer": "Six pawns a side: move, pass, kick or steal the ball.",
    "soccero": "Eleven a side on a squared pitch: move or kick with dice.",
    "soccer-go": "Secret passes and marks, then a shot at the keeper.",
}
"""What each game's card says under its picture: whole, in two lines of :data:`SUMMARY_COLUMNS`
(the rules' longer summary is the card's tooltip)."""

RECENT_ROWS = 8
"""Rows Recent matches asks for when it has that many matches (a low window gives it fewer,
two at the least; a tall one gives the rest of its height to the game cards)."""

PROBLEM_ROLE = Qt.ItemDataRole.UserRole + 1
"""A Recent matches entry's data: why its file cannot be read (none for a match that can)."""

KICK_OFF = "Kick off"
LOADING = "Loading the games…"

LOAD_DELAY_MS = 50
"""The games load this long after the home screen is made (time for its first paint)."""

MATCH_SCREEN_MODULE = "soccerdesk.ui.match_view"
"""Loaded while the home screen waits (see HomeScreen._begin_warm_up), not at start-up."""

LEVEL_ORDER = ("easy", "normal", "hard", "expert")
LEVEL_HELP = {
    "easy": "plays sensibly but misjudges a move now and then",
    "normal": "plays by a solid rule of thumb",
    "hard": "tries each move against the likely replies (well under a second a move)",
    "expert": "thinks longer than hard (up to three seconds a move)",
    "heuristic": "plays by a solid rule of thumb",
    "random": "picks any legal move",
}


CHOICE_WORDS: dict[tuple[str, str, object], str] = {
    ("big-time-soccer", "mode", "league"): "A draw stands (league)",
    ("big-time-soccer", "mode", "cup"): "A shootout decides (cup)",
    ("big-time-soccer", "hold_restriction", "both-boxes"): "Either penalty box",
    ("big-time-soccer", "hold_restriction", "opponent-box"): "The opponent's box only",
    ("big-time-soccer", "pass_os", "any-a-zone"): "Any attacking zone outside the box",
    ("big-time-soccer", "pass_os", "strict"): "A1 only, from M1 or M2",
    ("pawn-soccer", "length", "goal_limit"): "Reaching the goal target",
    ("pawn-soccer", "length", "golden_goal"): "The first goal (golden goal)",
    ("pawn-soccer", "long_pass", "own_half"): "The long-pass space's half",
    ("pawn-soccer", "long_pass", "opposite_half"): "The other half",
    ("soccer-go", "joker_blocks", "joker"): "The Block naming Joker",
    ("soccer-go", "joker_blocks", "copied"): "The Block naming the copied card",
    ("soccer-go", "joker_blocks", "either"): "Either Block",
}
"""Words for option choices whose identifier reads badly as it is (game id, option, choice)."""

OPTION_APPLIES: dict[tuple[str, str], tuple[str, object]] = {
    ("pawn-soccer", "goals"): ("length", "goal_limit"),
}
"""Options that count only while another option has one value (game id, option) -> (the other
option, its value): their editor is greyed out otherwise (a golden goal has no goal target)."""

OPTION_WORDS: dict[tuple[str, str], tuple[str, str]] = {
    ("soccer-go", "joker_blocks"): (
        "Block that stops a Joker",
        "Which Block card may answer a Joker: the one naming Joker, the one naming the card the Joker "
        "copies, or either.",
    ),
}
"""(label, tooltip) for options whose rules' words differ from the board's (game id, option):
the cards are "Block" and "Joker" on screen, not the rulebook's capitals."""


def choice_label(choice: object, game_id: str = "", option: str = "") -> str:
    """A rules option's choice as a person reads it: ``"goal_limit"`` → ``"Goal limit"``.

    The rules name choices as identifiers; the form shows words (:data:`CHOICE_WORDS`, else the
    identifier spelled out) and keeps the identifier as the item's data.
    """
    words = CHOICE_WORDS.get((game_id, option, choice))
    if words is not None:
        return words
    return sentence(str(choice).replace("_", " ").replace("-", " "))


def folder_words(folder: Path) -> str:
    """A folder as a person reads it: the home folder as "~" (``~/.local/share/soccerdesk/autosave``)."""
    home = Path.home()
    try:
        inside = folder.relative_to(home)
    except ValueError:
        return str(folder)
    return str(Path("~") / inside) if inside.parts else "~"


def copy_path(path: Path, actions: int) -> Path:
    """The file of a copy of a match that goes on after its first ``actions`` actions (the
    original no longer replays to its end): Recent matches tells it by its name."""
    return path.with_name(f"{path.stem}-from-action-{actions}{path.suffix}")


def copied_from_action(path: Path) -> int | None:
    """The action a copy made by :func:`copy_path` goes on from (``None``: not such a copy)."""
    found = re.search(r"-from-action-(\d+)$", path.stem)
    return int(found[1]) if found else None


@dataclass(frozen=True)
class Replayed:
    """What a match file's actions replay to, worked out once per version of the file (its
    :func:`~soccerdesk.ui.settings.file_stamp` when it was replayed)."""

    stamp: tuple[int, int]
    score: tuple[int, int] | None = None  # None: the actions do not replay to their end
    over: bool = False
    result: dict[str, Any] | None = None  # a finished match's winner and details, as the app block keeps them
    problem: str = ""  # why the actions do not replay, naming the file: what Resume says of it
    replayable: int | None = None  # how many of them do, when the rules refuse one part-way


def replayed_scores(files: Iterable[Path]) -> dict[Path, Replayed]:
    """What each match file's actions replay to (off the UI thread: a long record takes a tenth
    of a second or more). A file that is gone since it was listed is left out."""
    found: dict[Path, Replayed] = {}
    for path in files:
        try:
            stamp = file_stamp(path.stat())  # before reading: a file rewritten meanwhile is replayed again
        except OSError:
            continue
        try:
            _game, _record, final = replay_match_file(path)
        except CorruptRecord as exc:
            found[path] = Replayed(stamp, problem=str(exc), replayable=exc.replayable)
        except Exception as exc:  # noqa: BLE001 (one odd file must not hide what the others replay to)
            found[path] = Replayed(stamp, problem=damaged_words(path, exc))
        else:
            found[path] = Replayed(stamp, final.score, final.is_terminal(), match_result(final))
    return found


def bot_levels() -> list[tuple[str, str]]:
    """``(label, bot name)`` of each computer opponent on offer, easiest first.

    The difficulty levels when they are registered; until then ``normal`` is the heuristic
    bot and ``easy`` the random one.
    """
    names = bot_names()
    levels = [(level, level) for level in LEVEL_ORDER if level in names]
    if levels:
        return levels
    return [("easy", "random"), ("normal", "heuristic")]


def side_box(tooltip: str, *, toss: bool = False) -> QComboBox:
    """The "You play" drop-down: Home (data 0, the seat) or Away (1), and with ``toss`` a third
    choice, "Toss for it" (data ``None``: chance picks the seat). Its ``objectName`` is ``side``."""
    box = QComboBox()
    box.setObjectName("side")
    box.addItem("Home", 0)
    box.addItem("Away", 1)
    if toss:
        box.addItem("Toss for it", None)
    box.setToolTip(tooltip)
    return box


@dataclass
class MatchSetup:
    """Everything needed to start a local match."""

    game_id: str
    players: tuple[Player, Player]
    options: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None


class ChoiceBox(QComboBox):
    """A drop-down of an option's choices that may be narrower than its longest choice.

    Narrower than its text (the home screen at the window's smallest), it shows the start of
    the choice with "…", and its tooltip then begins with the whole choice.
    """

    SHRINKS_TO = 10
    """Characters of a choice shown at the least (then "…")."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.help = ""
        # The size hint follows the choices as they are added: the longest choice, whole.
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.setMinimumWidth(self.fontMetrics().averageCharWidth() * self.SHRINKS_TO + 40)
        self.currentIndexChanged.connect(lambda _index: self._explain())

    def set_help(self, text: str) -> None:
        self.help = text
        self._explain()

    def _text_room(self, option: QStyleOptionComboBox) -> int:
        room = self.style().subControlRect(
            QStyle.ComplexControl.CC_ComboBox, option, QStyle.SubControl.SC_ComboBoxEditField, self
        )
        icon = 0 if option.currentIcon.isNull() else option.iconSize.width() + 4
        return room.width() - icon - 2

    @property
    def elided(self) -> bool:
        """The current choice does not fit: it is shown cut with "…"."""
        option = QStyleOptionComboBox()
        self.initStyleOption(option)
        return self.fontMetrics().horizontalAdvance(self.currentText()) > self._text_room(option)

    def _explain(self) -> None:
        whole = self.currentText()
        self.setToolTip("\n\n".join(t for t in (whole, self.help) if t) if self.elided else self.help)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt API)
        super().resizeEvent(event)
        self._explain()

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt API)
        """As a combo box paints itself, with the choice elided to its room (Qt cuts it mid-letter)."""
        painter = QStylePainter(self)
        option = QStyleOptionComboBox()
        self.initStyleOption(option)
        option.currentText = self.fontMetrics().elidedText(
            option.currentText, Qt.TextElideMode.ElideRight, self._text_room(option)
        )
        painter.drawComplexControl(QStyle.ComplexControl.CC_ComboBox, option)
        painter.drawControl(QStyle.ControlElement.CE_ComboBoxLabel, option)


class OptionsForm(QWidget):
    """Editors generated from a game's :class:`~soccerdesk.rules.Option` list.

    Each label sits left of its editor. Where a drop-down's longest choice does not fit beside
    the labels (the home screen at the window's smallest), every drop-down goes under its label
    across the whole width instead: the choices are read whole and no scroll bar is needed
    sideways. Narrower still, a drop-down elides its choice (see :class:`ChoiceBox`).
    """

    def __init__(self, game: Game, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.game = game
        self._readers: dict[str, Callable[[], Any]] = {}
        self._editors: dict[str, QWidget] = {}
        self._rows: list[tuple[QLabel, QWidget]] = []
        self.stacked = False
        """The drop-downs are under their labels (the form is too narrow to have them beside)."""
        self._grid = QGridLayout(self)
        self._grid.setContentsMargins(0, 0, 0, 0)
        self._grid.setColumnStretch(1, 1)
        for option in game.options:
            editor, reader = self._editor(game.id, option)
            editor.setObjectName(f"option-{option.name}")
            words, tip = OPTION_WORDS.get((game.id, option.name), (option.label, option.help))
            if isinstance(editor, ChoiceBox):
                editor.set_help(tip)
            elif tip:
                editor.setToolTip(tip)
            label = QLabel(words)
            label.setToolTip(tip)
            label.setBuddy(editor)
            self._rows.append((label, editor))
            self._readers[option.name] = reader
            self._editors[option.name] = editor
        if not game.options:
            self._grid.addWidget(QLabel("This game has no options."), 0, 0, 1, 2)
        self._arrange()
        for (game_id, name), (other, value) in OPTION_APPLIES.items():
            editor, chooser = self._editors.get(name), self._editors.get(other)
            if game_id != game.id or editor is None or not isinstance(chooser, QComboBox):
                continue

            def follow(
                _index: int = 0, editor: QWidget = editor, chooser: QComboBox = chooser, value: object = value
            ) -> None:
                editor.setEnabled(chooser.currentData() == value)

            chooser.currentIndexChanged.connect(follow)
            follow()

    def editors(self) -> list[QWidget]:
        """The options' editors, top to bottom."""
        return [editor for _label, editor in self._rows]

    def fits_beside(self, width: int) -> bool:
        """Every label and every drop-down's longest choice fit side by side in ``width``."""
        choices = [editor.sizeHint().width() for _label, editor in self._rows if isinstance(editor, QComboBox)]
        if not choices:
            return True
        labels = max(label.sizeHint().width() for label, _editor in self._rows)
        spacing = self.style().pixelMetric(QStyle.PixelMetric.PM_LayoutHorizontalSpacing)
        return labels + max(spacing, 6) + max(choices) <= width

    def _arrange(self) -> None:
        """Put each row in the grid: a drop-down beside its label, or under it when stacked."""
        row = 0
        for label, editor in self._rows:
            self._grid.removeWidget(label)
            self._grid.removeWidget(editor)
            if self.stacked and isinstance(editor, QComboBox):
                self._grid.addWidget(label, row, 0, 1, 2)
                self._grid.addWidget(editor, row + 1, 0, 1, 2)
                row += 2
            else:
                self._grid.addWidget(label, row, 0)
                self._grid.addWidget(editor, row, 1)
                row += 1
        # The rows keep together at the top (an empty last row takes the rest of the height).
        for other in range(self._grid.rowCount()):
            self._grid.setRowStretch(other, 1 if other == row else 0)
        if row >= self._grid.rowCount():
            self._grid.setRowStretch(row, 1)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt API)
        super().resizeEvent(event)
        stacked = not self.fits_beside(event.size().width())
        if stacked != self.stacked:
            self.stacked = stacked
            self._arrange()

    @staticmethod
    def _editor(game_id: str, option: Option) -> tuple[QWidget, Callable[[], Any]]:
        if option.choices:
            combo = ChoiceBox()
            for choice in option.choices:
                combo.addItem(choice_label(choice, game_id, option.name), choice)
            combo.setCurrentIndex(max(0, list(option.choices).index(option.default)))
            return combo, combo.currentData
        if isinstance(option.default, bool):
            box = QCheckBox()
            box.setChecked(option.default)
            return box, box.isChecked
        if isinstance(option.default, int):
            spin = QSpinBox()
            spin.setRange(
                option.minimum if option.minimum is not None else -999,
                option.maximum if option.maximum is not None else 999,
            )
            spin.setValue(option.default)
            return spin, spin.value
        line = QLineEdit(str(option.default))
        return line, line.text

    def values(self) -> dict[str, Any]:
        return {name: read() for name, read in self._readers.items()}

    def set_values(self, values: Mapping[str, Any]) -> None:
        """Show ``values`` (options chosen last time); a name or value the game no longer
        accepts is left at its default."""
        for option in self.game.options:
            if option.name not in values:
                continue
            try:
                value = option.coerce(values[option.name])
            except BadOption:  # a stale or hand-edited setting: keep the default
                continue
            editor = self._editors[option.name]
            if isinstance(editor, QComboBox):
                index = editor.findData(value)
                if index >= 0:
                    editor.setCurrentIndex(index)
            elif isinstance(editor, QCheckBox):
                editor.setChecked(bool(value))
            elif isinstance(editor, QSpinBox):
                if editor.minimum() <= int(value) <= editor.maximum():
                    editor.setValue(int(value))
            elif isinstance(editor, QLineEdit):
                editor.setText(str(value))


class OneLineEntries(QStyledItemDelegate):
    """Each entry of a list on one line, cut with "…" at the list's width (its whole words in
    its tooltip), every row as high as one with an icon."""

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:  # noqa: N802 (Qt API)
        height = super().sizeHint(option, index).height()
        view = self.parent()
        icon = view.iconSize().height() + 2 if isinstance(view, QListWidget) else 0
        return QSize(1, max(height, icon))  # as wide as the list, whatever the words


class WholeRowsList(QListWidget):
    """A list that shows whole rows only: the room under the last one that fits is left
    blank, not filled by half a line of the next (new-user audit, 7 December: at 1000 × 540
    Recent matches showed one and a half entries, the second's date cut across).

    It asks for a row per entry, up to ``rows_wanted`` (an empty list leaves its room to what
    is around it), and for ``show_at_least`` rows whatever it holds."""

    def __init__(self, rows_wanted: int) -> None:
        super().__init__()
        self.rows_wanted = rows_wanted
        self._least = 1
        self.setItemDelegate(OneLineEntries(self))
        self.setWordWrap(False)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setUniformItemSizes(True)
        model = self.model()
        model.rowsInserted.connect(self._show_whole_rows)
        model.rowsRemoved.connect(self._show_whole_rows)
        model.modelReset.connect(self._show_whole_rows)

    def row_height(self) -> int:
        return self.sizeHintForRow(0) if self.count() else 0

    def _rows_height(self, rows: int) -> int:
        row = self.row_height() or max(self.fontMetrics().height() + 2, self.iconSize().height() + 2)
        return rows * row + 2 * self.frameWidth()

    def show_at_least(self, rows: int) -> None:
        """Keep room for ``rows`` whole rows."""
        self._least = rows
        self.setMinimumHeight(self._rows_height(rows))

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt API)
        rows = min(max(self.count(), self._least), max(self.rows_wanted, self._least))
        return QSize(super().sizeHint().width(), self._rows_height(rows))

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt API)
        super().resizeEvent(event)
        self._show_whole_rows()

    def _show_whole_rows(self) -> None:
        self.updateGeometry()  # a row more or less to ask for
        row = self.row_height()
        room = self.height() - 2 * self.frameWidth()
        self.setViewportMargins(0, 0, 0, room % row if 0 < row <= room else 0)


class GameCard(QToolButton):
    """A checkable card: the game's picture, its title and its one-line summary.

    Made from the game id at once (the picture needs nothing else); :meth:`fill` adds the
    title and summary when the game's rules have loaded.
    """

    def __init__(self, game_id: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.game_id = game_id
        self.setObjectName(f"game-{game_id}")
        self.setCheckable(True)
        self.setAutoExclusive(True)
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextUnderIcon)
        # The picture is painted at the first resize, when its real size is known (painting it
        # here too doubled the home screen's start-up drawing).
        self._drawn: QSize | None = None
        self.setIconSize(QSize(*CARD_PICTURE))
        self.setText(f"{game_id}\nloading…")
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        # A click takes the keyboard too: the focus ring stayed on the card Tab left it on,
        # and a keyboard user saw two current games (UI audit 9).
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        # The height follows the picture and three lines of text, so the home screen fits a
        # 1366 × 768 laptop screen with its task bar.
        self.setMinimumWidth(260)
        self.setStyleSheet(
            "QToolButton { border: 2px solid #3a4556; border-radius: 10px; padding: 6px; background: #1d2430;"
            " color: #e8edf4; font-size: 11pt; }"
            "QToolButton:checked { border: 3px solid #f0e442; background: #26344a; }"
            # The keyboard's place is a dashed sky-blue frame, never the chosen card's yellow.
            "QToolButton:focus { border: 3px dashed #56b4e9; }"
            # The chosen card with the keyboard on it: yellow and dashed (it looked unfocused).
            "QToolButton:checked:focus { border: 3px dashed #f0e442; outline: none; }"
        )

    def _draw_picture(self, size: QSize) -> None:
        pixmap = game_pixmap(self.game_id, size.width(), size.height(), self.devicePixelRatioF() or 1.0)
        self.setIcon(QIcon(pixmap))
        self.setIconSize(size)
        self._drawn = size

    def _text_height(self) -> int:
        return self.fontMetrics().lineSpacing() * (self.text().count("\n") + 1)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt API)
        """Room for the smallest picture and the whole text (not the grown picture, or the
        window could never shrink again)."""
        return QSize(260, int(CARD_PICTURE[1] * CARD_PICTURE_LEAST) + self._text_height() + 28)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt API)
        return self.minimumSizeHint()  # the cards take the room left (they stretch)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt API)
        """The picture grows with the card (a big window shows big pictures, not empty frames)."""
        super().resizeEvent(event)
        self._fit_picture(event.size())

    def _fit_picture(self, card: QSize) -> None:
        """Draw the picture as large as the card allows above its text. The text comes first:
        in a low window the picture shrinks (a picture of its full size pushed the description
        out of the card, cut mid-sentence at 1024 × 600)."""
        room_w = card.width() - 24
        room_h = card.height() - self._text_height() - 28
        base_w, base_h = CARD_PICTURE
        scale = max(CARD_PICTURE_LEAST, min(room_w / base_w, room_h / base_h))
        wanted = QSize(int(base_w * scale), int(base_h * scale))
        # Redrawn when it no longer fits, or could grow visibly (a window dragged larger sends
        # many resizes).
        drawn = self._drawn
        if drawn is None or wanted.width() < drawn.width() or wanted.width() - drawn.width() >= 12:
            self._draw_picture(wanted)

    def fill(self, game: Game | None, problem: str = "") -> None:
        """Show the loaded game's title and summary (or why it cannot be played)."""
        import textwrap

        if game is None:
            self.setText(f"{self.game_id}\n(not available: {problem})")
            return
        summary = game.summary or ""
        ready = board_available(game.id)
        # Two lines fit under the picture, and a blurb is written to fit them whole (never cut
        # with "…"); the whole summary is the tooltip.
        blurb = BLURBS.get(game.id, "") if ready else "(board coming soon)"
        wrapped = "\n".join(textwrap.wrap(blurb, SUMMARY_COLUMNS)[:2])
        self.setText(f"{game.title}\n{wrapped}")
        self.setToolTip(summary)
        # The text may have grown by a line since the picture was sized: leave room for it.
        self._fit_picture(self.size())


class HomeScreen(QWidget):
    """The first screen. See the module docstring for its signals."""

    start_requested = Signal(object)
    resume_requested = Signal(object)
    online_resume_requested = Signal(object)
    open_requested = Signal()
    online_requested = Signal(str)
    help_requested = Signal()
    learn_requested = Signal(str)
    games_loaded = Signal()

    def __init__(self, settings: AppSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.games: dict[str, Game] = {}  # filled as the rules load (see _collect_loaded)
        self.levels: list[tuple[str, str]] | None = None
        self.cards: dict[str, GameCard] = {}
        self.options_form: OptionsForm | None = None

        outer = QHBoxLayout(self)
        left = QVBoxLayout()
        title = QLabel("<h1>soccerdesk</h1><p>Four tabletop soccer games. Pick one, pick an opponent, kick off.</p>")
        left.addWidget(title)
        grid = QGridLayout()
        for index, game_id in enumerate(GAMES):
            card = GameCard(game_id)
            card.toggled.connect(lambda on, gid=game_id: self._card_toggled(gid, on))
            self.cards[game_id] = card
            grid.addWidget(card, index // 2, index % 2)
        left.addLayout(grid, 1)
        # Between the cards and Recent matches, the online matches whose seat may be waiting for
        # this player (after a crash, or left for home): the relay's clock and the opponent's
        # claim go on without them. An item of its own, of its own height: inside the Recent
        # matches box it made that box ask for more, and a low window (1024 x 600) cut the cards.
        self.waiting = QFrame()
        self.waiting.setObjectName("waiting-online")
        self.waiting.setStyleSheet("QFrame#waiting-online { border: 2px solid #e69f00; border-radius: 6px; }")
        waiting_layout = QVBoxLayout(self.waiting)
        waiting_layout.setContentsMargins(8, 4, 8, 4)
        waiting_layout.setSpacing(2)
        self.waiting_heading = QLabel("")
        self.waiting_heading.setObjectName("waiting-heading")
        self.waiting_heading.setStyleSheet("font-weight: bold;")
        self.waiting_heading.setWordWrap(True)
        self.waiting_heading.setTextFormat(Qt.TextFormat.PlainText)
        waiting_layout.addWidget(self.waiting_heading)
        waiting_row = QHBoxLayout()
        self.waiting_words = QLabel("")  # the one match (several: the drop-down beside it says which)
        self.waiting_words.setObjectName("waiting-words")
        self.waiting_words.setWordWrap(True)
        self.waiting_words.setTextFormat(Qt.TextFormat.PlainText)  # names are the players' own
        self.waiting_choice = QComboBox()
        self.waiting_choice.setObjectName("waiting-choice")
        self.waiting_choice.setToolTip("Which online match to take back")
        self.waiting_resume = QPushButton("Resume")
        self.waiting_resume.setObjectName("waiting-resume")
        self.waiting_resume.clicked.connect(self._resume_waiting)
        self.waiting_choice.currentIndexChanged.connect(lambda _index: self._explain_waiting_resume())
        waiting_row.addWidget(self.waiting_words, 1)
        waiting_row.addWidget(self.waiting_choice, 1)
        waiting_row.addWidget(self.waiting_resume)
        waiting_layout.addLayout(waiting_row)
        self.waiting_matches: list[WaitingMatch] = []
        self.waiting.hide()
        left.addWidget(self.waiting)
        recent_box = QGroupBox("Recent matches")
        recent_layout = QVBoxLayout(recent_box)
        self.recent = WholeRowsList(RECENT_ROWS)
        self.recent.setObjectName("recent")
        self.recent.itemActivated.connect(self._resume_item)
        self.recent.setIconSize(QSize(16, 16))  # the warning sign of an unreadable file's entry: a line high
        # Two entries at the least, so that the online matches above it fit a 1024 x 600 screen.
        # An entry is one line, cut with "…" where the list is narrower: its tooltip has it whole.
        self.recent.show_at_least(2)
        # The score an entry gives is the one its actions replay to, as the match opens with:
        # the file's own may be stale (edited, or saved under rules mended since). Replaying
        # every file at each refresh cost up to 0.4 s, so a worker replays those not replayed
        # since they last changed, and their entries are corrected as it finishes.
        self._listed: dict[Path, SavedMatch] = {}
        self._replayed: dict[Path, Replayed] = {}
        self._replaying: Future[dict[Path, Replayed]] | None = None
        self._listed_while_replaying = False
        self._replay_poll = QTimer(self)
        self._replay_poll.setInterval(30)
        self._replay_poll.timeout.connect(self._collect_replayed)
        recent_layout.addWidget(self.recent)
        row = QHBoxLayout()
        self.resume_button = QPushButton("Resume / replay")
        self.resume_button.setObjectName("resume")
        self.resume_button.clicked.connect(lambda: self._resume_item(self.recent.currentItem()))
        self.recent.currentItemChanged.connect(lambda _now, _before: self._update_resume_button())
        open_button = QPushButton("Open a saved match…")
        open_button.clicked.connect(self.open_requested)
        row.addWidget(self.resume_button)
        row.addWidget(open_button)
        recent_layout.addLayout(row)
        # Recent matches asks for a row per match (up to RECENT_ROWS) and the cards take the
        # height left: in a low window the cards' pictures shrink first, then the list, to two
        # rows (first-minute audit, s28: with the list held to a quarter of the height it showed
        # 4 of 5 matches at 1366 × 768 and 2 at 1000 × 540, the cards' pictures at full size).
        left.addWidget(recent_box)
        outer.addLayout(left, 3)

        right = QVBoxLayout()
        setup = QGroupBox("Match")
        form = QFormLayout(setup)
        self.opponent = QComboBox()
        self.opponent.setObjectName("opponent")
        # The levels on offer are known before the bots load: the player's last choice shows
        # from the first moment (it must not read "A friend" for a few seconds, then change).
        self._offer_levels([(level, level) for level in LEVEL_ORDER])
        self.opponent.addItem("A friend on this computer (hot-seat)", ("human", None))
        self._choose_remembered_opponent()
        self.opponent.setToolTip("Who plays the other team")
        form.addRow("Opponent", self.opponent)
        self.side = side_box("Which seat you take against the computer (a coin toss decides who kicks off)")
        self.side.setCurrentIndex(min(1, max(0, int(settings.get("home/side", 0)))))
        form.addRow("You play", self.side)
        self._match_form = form
        self.opponent.currentIndexChanged.connect(lambda _index: self._show_side())
        self._show_side()
        self.names: list[QLineEdit] = []
        self.colours: list[QComboBox] = []
        defaults = (("Home", "Blue"), ("Away", "Orange"))
        for seat, (default_name, default_colour) in enumerate(defaults):
            name = QLineEdit(str(settings.get(f"teams/name{seat}", default_name)))
            name.setObjectName(f"name{seat}")
            name.setMaxLength(24)
            colour = QComboBox()
            colour.setObjectName(f"colour{seat}")
            for label, hex_code in TEAM_COLOURS.items():
                swatch = QPixmap(16, 16)
                swatch.fill(QColor(hex_code))
                colour.addItem(QIcon(swatch), label, hex_code)
            saved = settings.get(f"teams/colour{seat}", TEAM_COLOURS[default_colour])
            colour.setCurrentIndex(max(0, colour.findData(saved)))
            colour.setToolTip("Colours from a palette that colour-blind players can tell apart")
            row_widget = QWidget()
            row_layout = QHBoxLayout(row_widget)
            row_layout.setContentsMargins(0, 0, 0, 0)
            row_layout.addWidget(name, 2)
            row_layout.addWidget(colour, 1)
            form.addRow("Home team" if seat == 0 else "Away team", row_widget)
            self.names.append(name)
            self.colours.append(colour)
        right.addWidget(setup)
        self.options_box = QGroupBox("Options")
        self.options_layout = QVBoxLayout(self.options_box)
        scroll = QScrollArea()
        scroll.setObjectName("options-scroll")
        scroll.setWidgetResizable(True)
        # The form fits any width (see OptionsForm): a sideways scroll bar would hide the labels.
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # Not a Tab stop of its own: it showed no focus, and Enter there did nothing (the
        # options inside it are the stops).
        scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        scroll.setWidget(self.options_box)
        right.addWidget(scroll, 1)
        self.message = QLabel("")
        self.message.setObjectName("home-message")
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #d55e00;")
        right.addWidget(self.message)
        self.start_button = QPushButton(LOADING)
        self.start_button.setObjectName("kick-off")
        self.start_button.setDefault(True)
        self.start_button.setMinimumHeight(44)
        # The default button always wears its frame, so the keyboard's place needs its own mark:
        # the dashed sky-blue of the game cards.
        self.start_button.setStyleSheet(
            "QPushButton { font-size: 14pt; font-weight: bold; }"
            "QPushButton:focus { border: 3px dashed #56b4e9; border-radius: 6px; padding: 4px; }"
        )
        self.start_button.clicked.connect(self._start)
        right.addWidget(self.start_button)
        rules = QPushButton("How to play this game")
        rules.setObjectName("how-to-play")
        rules.clicked.connect(self.help_requested)
        right.addWidget(rules)
        self.learn_button = QPushButton("Learn to play: a guided first match")
        self.learn_button.setObjectName("learn-to-play")
        self.learn_button.setToolTip("A short match with a coach who shows each step (you can leave and come back)")
        self.learn_button.clicked.connect(self._learn)
        right.addWidget(self.learn_button)
        online = QGroupBox("Play over the network")
        online_row = QHBoxLayout(online)
        for label, kind in (("Host LAN game", "host"), ("Join", "join"), ("Play online", "online")):
            button = QPushButton(label)
            button.setObjectName(f"online-{kind}")
            button.clicked.connect(lambda _=False, k=kind: self.online_requested.emit(k))
            online_row.addWidget(button)
        right.addWidget(online)
        outer.addLayout(right, 2)

        self.refresh_recent()
        self.start_button.setEnabled(False)
        self.learn_button.setEnabled(False)
        # The rules of the four games take a moment to load: the window shows at once and
        # the cards fill in as each game arrives from a worker thread.
        # The loading starts just after the first paint, so the two do not compete.
        self._loading: dict[str, Future[Any]] = {}
        self._levels_future: Future[list[tuple[str, str]]] | None = None
        self._poll = QTimer(self)
        self._poll.setInterval(30)
        self._poll.timeout.connect(self._collect_loaded)
        self._warm_up: list[Callable[[], object]] | None = None  # None: not begun; see _begin_warm_up
        QTimer.singleShot(LOAD_DELAY_MS, self._start_loading)

    def _start_loading(self) -> None:
        from concurrent.futures import ThreadPoolExecutor

        loader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="soccerdesk-load")
        self._loading = {gid: loader.submit(get_game, gid) for gid in GAMES}
        self._levels_future = loader.submit(bot_levels)
        loader.shutdown(wait=False)
        self._poll.start()

    @property
    def games_ready(self) -> bool:
        """Every game and the bot levels are loaded."""
        return self._levels_future is not None and not self._loading and self.levels is not None

    @property
    def loaded(self) -> bool:
        """The games are loaded and the match screen warmed up (the Kick off button works)."""
        return self.games_ready and self._warm_up == []

    def _begin_warm_up(self) -> None:
        """Draw each board once offscreen, a step per event-loop turn, before Kick off works.

        A match's first picture would otherwise also pay for everything drawn for the first
        time in the program (some 10-20 ms more at once, a visible hitch in the opening
        animation). A step is one board: the home screen stays responsive meanwhile.
        """
        width, height = max(640, self.width() * 4 // 5), max(480, self.height() - 90)

        def draw(game: Game) -> None:
            from soccerdesk.ui.match_view import draw_board_offscreen

            draw_board_offscreen(game, width, height)

        steps: list[Callable[[], object]] = [partial(importlib.import_module, MATCH_SCREEN_MODULE)]
        steps += [partial(draw, game) for game_id, game in self.games.items() if board_available(game_id)]
        self._warm_up = steps
        QTimer.singleShot(0, self._warm_up_step)

    def _warm_up_step(self) -> None:
        if self._warm_up:
            step = self._warm_up.pop(0)
            # Only a head start: a board that fails here fails (and says why) when a match opens it.
            with contextlib.suppress(Exception):
                step()
        if self._warm_up:
            QTimer.singleShot(0, self._warm_up_step)
        else:
            self._update_start_button()
            # After the warm-up: what it loaded for good (the match screen's and the boards'
            # code) is then in place when the app tunes its garbage collection on this signal.
            self.games_loaded.emit()

    def _offer_levels(self, levels: list[tuple[str, str]]) -> None:
        """Put ``levels`` (label, bot name) first in the opponent list, in place of those there."""
        while self.opponent.count() and self.opponent.itemData(0)[0] == "bot":
            self.opponent.removeItem(0)
        for index, (label, name) in enumerate(levels):
            self.opponent.insertItem(index, f"Computer — {label}", ("bot", name))
            self.opponent.setItemData(index, LEVEL_HELP.get(name, ""), Qt.ItemDataRole.ToolTipRole)
        self._offered = list(levels)

    def _choose_remembered_opponent(self) -> None:
        chosen = self.opponent.findText(str(self.settings.get("home/opponent", "")))
        self.opponent.setCurrentIndex(chosen if chosen >= 0 else max(0, self.opponent.findText("Computer — normal")))

    def _learn(self) -> None:
        if self.game_id is not None:
            self.learn_requested.emit(self.game_id)

    def _update_start_button(self) -> None:
        self.start_button.setEnabled(self.loaded and self.game_id in self.games)
        self.learn_button.setEnabled(self.loaded and self.game_id in self.games and has_script(self.game_id or ""))
        # While loading the button says so (greyed out, "Kick off" would look broken).
        self.start_button.setText(KICK_OFF if self.loaded else LOADING)

    def _show_side(self) -> None:
        """Show "You play" (and its label) only against the computer: with a friend at the
        screen both seats are people's, and the seat would mean nothing."""
        chosen = self.opponent.currentData()
        hot_seat = chosen is not None and chosen[0] == "human"
        self._match_form.setRowVisible(self.side, not hot_seat)

    def _update_resume_button(self) -> None:
        item = self.recent.currentItem()
        path = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        match = self._listed.get(path) if path is not None else None
        replayed = self._replay_of(match) if match is not None else None
        self.resume_button.setEnabled(path is not None)
        if item is not None and item.data(PROBLEM_ROLE):
            tip = "See why this match cannot be read, and where its file is"
        elif replayed is not None and replayed.problem:
            tip = "See where this match stops replaying, and go on from there"
        elif match is not None:
            tip = f"{'Replay' if self._over(match) else 'Continue'} the match chosen in the list (or double-click one)"
        elif any(self._listed_paths()):
            tip = "Choose a match in the list first (or double-click it)"
        else:
            tip = "No matches yet: every match you play is listed here, to continue or replay"
        self.resume_button.setToolTip(tip)

    def _collect_loaded(self) -> None:
        for game_id, future in list(self._loading.items()):
            if not future.done():
                continue
            del self._loading[game_id]
            try:
                self.games[game_id] = future.result()
                self.cards[game_id].fill(self.games[game_id])
            except Exception as exc:  # a game whose rules fail to load is shown as unavailable, not fatal
                self.cards[game_id].fill(None, str(exc) or type(exc).__name__)
                self.cards[game_id].setEnabled(False)
        if self.levels is None and self._levels_future is not None and self._levels_future.done():
            self.levels = self._levels_future.result()
            if self.levels != self._offered:  # only if the bots offer other levels than expected
                shown = self.opponent.currentText()
                self._offer_levels(self.levels)
                found = self.opponent.findText(shown)
                if found >= 0:
                    self.opponent.setCurrentIndex(found)
                else:
                    self._choose_remembered_opponent()
        if self.game_id is None:
            playable = [g for g in GAMES if g in self.games and board_available(g)]
            last = str(self.settings.get("home/game", ""))
            if last in playable or (playable and not self._loading):
                self.cards[last if last in playable else playable[0]].setChecked(True)
        self._update_start_button()
        if self.games_ready and self._warm_up is None:
            self._poll.stop()
            self._list_recent()  # now with the games' titles (the waiting seats name none)
            self._begin_warm_up()

    # --- state -------------------------------------------------------------------

    @property
    def game_id(self) -> str | None:
        for game_id, card in self.cards.items():
            if card.isChecked():
                return game_id
        return None

    def _card_toggled(self, game_id: str, on: bool) -> None:
        if on:
            self.select_game(game_id)

    def select_game(self, game_id: str) -> None:
        if not self.cards[game_id].isChecked():
            self.cards[game_id].setChecked(True)
            return
        if game_id not in self.games:
            self.message.setText("This game is still loading…")
            return
        if self.options_form is not None:
            self.options_form.deleteLater()
        self.options_form = OptionsForm(self.games[game_id])
        try:
            saved = json.loads(str(self.settings.get(f"options/{game_id}", "") or "{}"))
        except ValueError:
            saved = {}
        if isinstance(saved, dict):
            self.options_form.set_values(saved)  # the options of this game's last kick-off
        self.options_layout.addWidget(self.options_form)
        # Tab reaches the options where they stand, between the teams and Kick off (added
        # last, they came after the network buttons).
        before: QWidget = self.colours[-1]
        for editor in self.options_form.editors():
            QWidget.setTabOrder(before, editor)
            before = editor
        QWidget.setTabOrder(before, self.start_button)
        self.options_box.setTitle(f"Options — {self.games[game_id].title}")
        self.message.setText("" if board_available(game_id) else "The board of this game is not drawn yet.")
        self.settings.set("home/game", game_id)
        self._update_start_button()
        self._ring_on_chosen_card()

    def _ring_on_chosen_card(self) -> None:
        """Where the keyboard is on a game card, it is on the chosen one (the game remembered
        from last time is chosen after the first card took the focus)."""
        game_id = self.game_id
        focused = self.window().focusWidget()
        if game_id is not None and isinstance(focused, GameCard) and focused is not self.cards[game_id]:
            self.cards[game_id].setFocus(Qt.FocusReason.OtherFocusReason)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt API)
        super().showEvent(event)
        self._ring_on_chosen_card()  # back from a match or a lesson

    def set_opponent(self, bot: str | None) -> None:
        """Choose the opponent: a bot name, or ``None`` for hot-seat (also used by tests)."""
        wanted = ("human", None) if bot is None else ("bot", bot)
        for index in range(self.opponent.count()):
            if tuple(self.opponent.itemData(index)) == wanted:
                self.opponent.setCurrentIndex(index)
                return
        raise ValueError(f"no opponent {bot!r} on offer")

    def setup(self) -> MatchSetup:
        """The match the form describes now."""
        from soccerdesk.ui.session import Player

        game_id = self.game_id
        if game_id is None:
            raise ValueError("choose a game first")
        kind, bot = self.opponent.currentData()
        names = [n.text().strip() or ("Home", "Away")[seat] for seat, n in enumerate(self.names)]
        colours = [c.currentData() for c in self.colours]
        players: list[Player] = []
        human_seat = self.side.currentData()
        for seat in (0, 1):
            if kind == "bot" and seat != human_seat:
                level = self.opponent.currentText().split("—")[-1].strip()
                players.append(Player("bot", f"{names[seat]} ({level})", bot, colours[seat]))
            else:
                players.append(Player("human", names[seat], None, colours[seat]))
        options = self.options_form.values() if self.options_form is not None else {}
        return MatchSetup(game_id, (players[0], players[1]), options)

    def _start(self) -> None:
        colours = [c.currentData() for c in self.colours]
        if colours[0] == colours[1]:
            self.message.setText("The two teams need different colours.")
            return
        game_id = self.game_id
        if game_id is None or game_id not in self.games or not self.loaded:
            self.message.setText("Still loading the games: a moment, please.")
            return
        if not board_available(game_id):
            self.message.setText("The board of this game is not drawn yet: choose another game.")
            return
        for seat in (0, 1):
            self.settings.set(f"teams/name{seat}", self.names[seat].text())
            self.settings.set(f"teams/colour{seat}", colours[seat])
        self.settings.set("home/opponent", self.opponent.currentText())
        self.settings.set("home/side", self.side.currentIndex())
        if self.options_form is not None:
            self.settings.set(f"options/{game_id}", json.dumps(self.options_form.values()))
        self.message.setText("")
        self.start_requested.emit(self.setup())

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt API)
        # "Tab to How to play, then Enter" did nothing.
        focused = self.focusWidget()
        if press_focused_button(event, focused, self.isAncestorOf):
            return
        enter = event.key() in ENTER_KEYS
        if enter and isinstance(focused, GameCard) and focused.isEnabled() and self.isAncestorOf(focused):
            # Enter on a game kicks it off with the options shown (keyboard audit 8: it did
            # nothing, and Kick off was 11 to 16 Tabs away).
            focused.setChecked(True)
            self.start_button.click()
            event.accept()
            return
        super().keyPressEvent(event)

    def refresh_waiting(self) -> None:
        """Show the online matches this computer keeps a seat in and has not seen end, with a
        button that takes the seat back (several: a drop-down says which); hide the frame when
        there are none. One frame of two lines, however many: it fits a 1024 x 600 screen.

        Read from the settings and the seats' lock files, never from a relay: whether the room is
        still there is said as "may", and the resume tells if it is gone (and forgets it)."""
        matches = waiting_matches(self.settings, Path(self.settings.data_dir))
        self.waiting_matches = matches
        self.waiting.setVisible(bool(matches))
        if not matches:
            return
        elsewhere = "open in another soccerdesk window on this computer"
        if len(matches) == 1:
            match = matches[0]
            heading = (
                f"Online match {elsewhere}"
                if match.elsewhere
                else ("Online match not finished: it may still be waiting for you on the relay")
            )
        else:
            heading = f"{len(matches)} online matches not finished: they may still be waiting for you on the relay"
        self.waiting_heading.setText(heading)
        self.waiting_choice.blockSignals(True)
        self.waiting_choice.clear()
        for match in matches:
            self.waiting_choice.addItem(self._waiting_words(match) + (f" ({elsewhere})" if match.elsewhere else ""))
        self.waiting_choice.setCurrentIndex(0)
        self.waiting_choice.blockSignals(False)
        self.waiting_words.setText(self._waiting_words(matches[0]))
        self.waiting_words.setVisible(len(matches) == 1)
        self.waiting_choice.setVisible(len(matches) > 1)
        self._explain_waiting_resume()

    def _waiting_words(self, match: WaitingMatch) -> str:
        words = seat_words(self.settings, match.seat)
        return words if match.about else f"Online match — {words}"

    def _chosen_waiting(self) -> WaitingMatch | None:
        index = self.waiting_choice.currentIndex() if len(self.waiting_matches) > 1 else 0
        return self.waiting_matches[index] if 0 <= index < len(self.waiting_matches) else None

    def _explain_waiting_resume(self) -> None:
        match = self._chosen_waiting()
        if match is not None:
            self.waiting_resume.setToolTip(
                f"Take your seat back in room {match.seat.room}: the relay shows the match as it stands"
                " now (and says so if it is over, or gone)"
            )

    def _resume_waiting(self) -> None:
        match = self._chosen_waiting()
        if match is not None:
            self.online_resume_requested.emit(match.seat)

    def refresh_recent(self) -> None:
        """List the autosaved matches; a file that cannot be read is listed too, with why
        (checked against the rules of the games loaded so far). The online matches that may
        be waiting for this player come first (:meth:`refresh_waiting`)."""
        self.refresh_waiting()
        self._list_recent()

    def _list_recent(self) -> None:
        """Recent matches only: the autosaved matches, and the unreadable files with why.

        The newest entry is chosen, so that Resume works at once (it was grey until a row was
        clicked, and nothing said so: first-minute audit, s28); the one the player chose stays
        chosen while no newer match comes to the top (back from a match, the one just left is)."""
        paths = self._listed_paths()
        before = self.recent.currentItem()
        chosen = before.data(Qt.ItemDataRole.UserRole) if before is not None else None
        self.recent.clear()
        self._listed = {}
        for match in self.settings.recent_matches(games=self.games):
            if isinstance(match, UnreadableMatch):
                self.recent.addItem(self._unreadable_item(match))
                continue
            self._listed[match.path] = match
            item = QListWidgetItem()
            item.setData(Qt.ItemDataRole.UserRole, match.path)
            self._fill_entry(item, match)
            self.recent.addItem(item)
        if self.recent.count() == 0:
            # An empty white box reads as broken: say what will appear here.
            hint = QListWidgetItem("No matches yet: every match you play is saved here automatically.")
            hint.setFlags(Qt.ItemFlag.NoItemFlags)
            self.recent.addItem(hint)
        rows = self._listed_paths()
        kept = chosen is not None and chosen in rows and rows[:1] == paths[:1]
        self.recent.setCurrentRow(rows.index(chosen) if kept else 0 if rows[0] is not None else -1)
        self._update_resume_button()
        self._replay_listed()

    def _listed_paths(self) -> list[Path | None]:
        """The file of each Recent matches entry, top to bottom (``None``: the "no matches" line)."""
        return [self.recent.item(row).data(Qt.ItemDataRole.UserRole) for row in range(self.recent.count())]

    def _entry_words(self, match: SavedMatch) -> str:
        """A Recent matches entry: the game, the players and the score, how far it went, the
        time played and when."""
        title = self.games[match.game_id].title if match.game_id in self.games else match.game_id
        replayed = self._replay_of(match)
        goals = replayed.score if replayed is not None and replayed.score is not None else match.score
        score = f"{goals[0]}–{goals[1]}" if goals else ""
        when = time.strftime("%d %b %H:%M", time.localtime(match.modified))
        # Not "N actions" (a programmer's count, QA pass 17) nor "full time" for a match a
        # player resigned early (QA pass 16): how far it went, in a player's words.
        state = "full time" if self._over(match) else "unfinished"
        ending = match.ending or (ending_words(replayed.result, match.names) if replayed is not None else "")
        if ending:
            state = ending if match.early else f"{state}, {ending}"
        # A copy that goes on from where its file stopped replaying: not a second row
        # looking just like the match it came from (UI audit 8).
        copied = copied_from_action(match.path)
        if copied is not None:
            title = f"{title} (copy from action {copied})"
        parts = [f"{title}: {match.names[0]} {score} {match.names[1]}", state]
        if match.played is not None:
            parts.append(time_played_words(match.played))
        return "  ·  ".join([*parts, when])

    def _replay_of(self, match: SavedMatch) -> Replayed | None:
        """What ``match``'s actions replay to, if replayed since its file last changed."""
        replayed = self._replayed.get(match.path)
        return replayed if replayed is not None and replayed.stamp == match.stamp else None

    def _over(self, match: SavedMatch) -> bool:
        """The match is over, by its app block or by its actions: a file the app did not write
        (a simulator's record, a file copied in) has no app block to say so (docs audit s28, 2:
        a finished 3–0 record was listed "unfinished" and Resume opened its replay)."""
        replayed = self._replay_of(match)
        return match.over or (replayed is not None and replayed.over)

    def _replay_listed(self) -> None:
        """Replay, on a worker, the listed matches not replayed since their file last changed
        (those of a game loaded so far)."""
        if self._replaying is not None:
            self._listed_while_replaying = True  # looked at again when the worker is done
            return
        files = [
            path
            for path, match in self._listed.items()
            if match.game_id in self.games and self._replay_of(match) is None
        ]
        if not files:
            return
        from concurrent.futures import ThreadPoolExecutor

        worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="soccerdesk-recent")
        self._replaying = worker.submit(replayed_scores, files)
        worker.shutdown(wait=False)
        self._replay_poll.start()

    def _fill_entry(self, item: QListWidgetItem, match: SavedMatch) -> None:
        """A readable match's row and its tooltip, with the score as known now; a match whose
        actions do not replay is listed as damaged, with what is wrong and where (README)."""
        replayed = self._replay_of(match)
        if replayed is not None and replayed.problem:
            go_on = replayed.replayable
            self._show_damaged(
                item,
                "Could not replay a match",
                replayed.problem,
                match.path,
                # Resume offers to go on from where it stops (main window): no box of ours first.
                explain=not go_on,
                more=f"Resume offers to go on from action {go_on}." if go_on else "",
            )
            return
        item.setText(self._entry_words(match))
        item.setToolTip(f"{item.text()}\n{'Replay' if self._over(match) else 'Continue this match'}")

    def _collect_replayed(self) -> None:
        if self._replaying is None or not self._replaying.done():
            return
        self._replay_poll.stop()
        replaying, self._replaying = self._replaying, None
        with contextlib.suppress(Exception):  # replayed_scores answers for every file; the list stays as it is
            self._replayed.update(replaying.result())
        for row in range(self.recent.count()):
            item = self.recent.item(row)
            match = self._listed.get(item.data(Qt.ItemDataRole.UserRole))
            if match is not None:
                self._fill_entry(item, match)
        self._update_resume_button()
        if self._listed_while_replaying:
            self._listed_while_replaying = False
            self._replay_listed()

    def _unreadable_item(self, match: UnreadableMatch) -> QListWidgetItem:
        item = QListWidgetItem()
        self._show_damaged(item, "Could not read a match", match.reason, match.path)
        return item

    def _show_damaged(
        self, item: QListWidgetItem, heading: str, reason: str, path: Path, *, explain: bool = True, more: str = ""
    ) -> None:
        """Make ``item`` the entry of a file that holds no match to open as it is: what is wrong
        and where the file is, as the README promises (the name alone could not be found; the
        whole path is in the tooltip and in the box Resume opens, when ``explain``)."""
        words = f"{heading}: {reason.rstrip('.')}. It is in {folder_words(path.parent)}"
        item.setIcon(self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning))
        item.setText(words)
        item.setForeground(QColor("#d55e00"))  # the home screen's colour for what went wrong
        item.setData(Qt.ItemDataRole.UserRole, path)
        item.setData(PROBLEM_ROLE, reason if explain else None)
        item.setToolTip("\n".join(line for line in (words, reason, f"The file is still at {path}", more) if line))

    def _resume_item(self, item: QListWidgetItem | None) -> None:
        if item is None or item.data(Qt.ItemDataRole.UserRole) is None:
            return  # the "no matches yet" line carries no file
        path, reason = item.data(Qt.ItemDataRole.UserRole), item.data(PROBLEM_ROLE)
        if reason:
            self._explain_unreadable(path, str(reason))
        else:
            self.resume_requested.emit(path)

    def _explain_unreadable(self, path: Path, reason: str) -> None:
        """Why a listed match file cannot be read and where it is, so it can be found (to
        repair it, or put a good copy in its place). A window-modal box that does not block
        the event loop, as the main window's messages."""
        box = QMessageBox(
            QMessageBox.Icon.Warning, "This match cannot be read", reason, QMessageBox.StandardButton.Ok, self
        )
        box.setObjectName("unreadable-match")
        box.setInformativeText(f"Nothing was deleted: the file is still at\n{path}")
        box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)  # the path can be copied
        box.setWindowModality(Qt.WindowModality.WindowModal)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()
