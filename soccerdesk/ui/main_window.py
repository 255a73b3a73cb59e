"""The main window: home screen, match screen and replay viewer as pages, with the menus.

It wires pages to sessions and files and owns nothing of a match itself. What it needs
(settings, folders) is passed in; nothing is looked up through the application object.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QSize, Qt, QTimer
from PySide6.QtGui import QAction, QActionGroup, QKeySequence, QResizeEvent
from PySide6.QtWidgets import QMainWindow, QStackedWidget, QWidget

from soccerdesk import __version__
from soccerdesk.rules import CorruptRecord, Game, RulesError, get_game
from soccerdesk.ui.art import app_icon
from soccerdesk.ui.boards import BoardMissing
from soccerdesk.ui.home import HomeScreen, MatchSetup, copy_path
from soccerdesk.ui.placement import fitting_size
from soccerdesk.ui.settings import ANIMATION_SPEEDS, AppSettings, damaged_words, read_match_file, replay_match_file

# Loaded when first needed, not at start-up (the window should paint as soon as it can): the
# match sessions and the bot process, dialogs, and Qt's namespace of enums (building its
# ninety-odd enum classes costs some 20 ms).
if TYPE_CHECKING:
    from concurrent.futures import Executor

    from PySide6.QtGui import QCloseEvent
    from PySide6.QtWidgets import QDialog

    from soccerdesk.ui.match_view import MatchView
    from soccerdesk.ui.review_chart import ReviewPanel
    from soccerdesk.ui.seats import RememberedSeat
    from soccerdesk.ui.session import MatchSession

ONLINE_MODULE = "soccerdesk.ui.online"


MINIMUM_WINDOW = (1000, 540)
"""The smallest window (width, height) every screen works in: it fits a 1024 × 600 laptop screen
with a task bar and the window's frame (1024 × 680 did not)."""


class MainWindow(QMainWindow):
    """soccerdesk's one window."""

    def __init__(self, settings: AppSettings, bot_pool: Executor | None = None, parent: QWidget | None = None) -> None:
        """``bot_pool``: where bots think (default: the app's bot process, :mod:`soccerdesk.ui.bot_pool`)."""
        super().__init__(parent)
        self.settings = settings
        self.bot_pool = bot_pool
        self.setWindowTitle("soccerdesk")
        self.setWindowIcon(app_icon())
        self.pages = QStackedWidget()
        self.setCentralWidget(self.pages)
        self.home = HomeScreen(settings)
        self.home.start_requested.connect(self.start_match)
        self.home.resume_requested.connect(self.open_path)
        self.home.open_requested.connect(self.open_dialog)
        self.home.online_requested.connect(self.open_online)
        self.home.online_resume_requested.connect(self.resume_online)
        self.home.help_requested.connect(self.show_help)
        self.home.learn_requested.connect(self.show_learn)
        self.pages.addWidget(self.home)
        self.session: MatchSession | None = None
        self.match_view: MatchView | None = None
        self.replay_view: QWidget | None = None
        self._review: ReviewPanel | None = None  # the replay's review, worked out in the bot process
        self.learn_view: QWidget | None = None
        self.help_dialog: QDialog | None = None
        self.last_message = ""  # the text of the last message box (for tests and the status bar)
        self._regrown_from: QSize | None = None  # a size below the smallest the window was grown from
        self._quit_unsaved = False  # the player chose to quit although the match is not saved
        self._build_menus()
        # Narrower, the boards' lettering shrinks past reading and option lists run off the
        # right edge (QA at 900 × 650); lower, the game cards' descriptions lose their room.
        self.setMinimumSize(MINIMUM_WINDOW[0], MINIMUM_WINDOW[1])
        geometry = settings.geometry()
        if geometry is not None:
            self.restoreGeometry(geometry)
        else:
            self.resize(fitting_size(self, 1280, 800))
        self.statusBar().showMessage(f"soccerdesk {__version__}")

    # --- menus -----------------------------------------------------------------------

    def _build_menus(self) -> None:
        menu = self.menuBar().addMenu("&Match")
        self.home_action = self._action(menu, "&Home", self.ask_home, "Ctrl+H")
        self._action(menu, "&Open match…", self.open_dialog, QKeySequence.StandardKey.Open)
        self.save_action = self._action(menu, "&Save match as…", self.save_dialog, QKeySequence.StandardKey.Save)
        self.undo_action = self._action(menu, "&Undo", self._undo, QKeySequence.StandardKey.Undo)
        # The Hint button beside the board, from the keyboard (Tab steps through the board's actions).
        self.hint_action = self._action(menu, "&Hint", self._hint, "Ctrl+I")
        # Two modifiers, and a question before anything is sent: never given up by a slip of a key.
        self.resign_action = self._action(menu, "&Resign…", self.ask_resign, "Ctrl+Shift+R")
        self.resign_action.setStatusTip("Give up this online match: your opponent wins")
        menu.addSeparator()
        self._action(menu, "&Quit", self.close, QKeySequence.StandardKey.Quit)
        view = self.menuBar().addMenu("&View")
        speed_menu = view.addMenu("Animation &speed")
        group = QActionGroup(self)
        for name in ANIMATION_SPEEDS:
            action = QAction(name.capitalize(), self, checkable=True)
            action.setChecked(name == self.settings.animation_speed)
            action.triggered.connect(lambda _=False, n=name: self.set_speed(n))
            group.addAction(action)
            speed_menu.addAction(action)
        self.ask_after_turn_action = QAction(
            "Pawn Soccer: offer the substitute &after each turn too", self, checkable=True
        )
        self.ask_after_turn_action.setToolTip(
            "Off: the turn ends at once; the substitute is offered before every turn of yours anyway."
        )
        self.ask_after_turn_action.setChecked(self.settings.ask_after_turn)
        self.ask_after_turn_action.toggled.connect(self.set_ask_after_turn)
        view.addAction(self.ask_after_turn_action)
        self.let_go_action = QAction("&Let it go by itself when no card can answer", self, checkable=True)
        self.let_go_action.setToolTip(
            "Big Time Soccer and Soccer-Go, against the computer only. With a friend on this screen "
            "or online you are asked every time, so that a quick answer tells nothing about your hand."
        )
        self.let_go_action.setChecked(self.settings.let_go_by_itself)
        self.let_go_action.toggled.connect(self.set_let_go_by_itself)
        view.addAction(self.let_go_action)
        help_menu = self.menuBar().addMenu("&Help")
        self._action(help_menu, "&Rules of this game", self.show_help, QKeySequence.StandardKey.HelpContents)
        self._action(help_menu, "&About soccerdesk", self._about)
        self._update_actions()

    def _action(self, menu: Any, text: str, slot: Any, shortcut: Any = None) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    def _update_actions(self) -> None:
        in_match = self.session is not None and self.pages.currentWidget() is self.match_view
        self.save_action.setEnabled(in_match and self.session is not None and self.session.record() is not None)
        # Edit → Undo follows the match's Undo button: greyed where nothing can be taken back
        # (an online match, a die roll just made), not enabled only to refuse.
        self.undo_action.setEnabled(in_match and self.session is not None and self.session.can_undo())
        # Greyed at full time as the Hint button is (it said "when it is your move" over the
        # line saying where the result is: end-of-match audit 3).
        self.hint_action.setEnabled(
            in_match
            and self.match_view is not None
            and self.match_view.hint_control is not None
            and not self.match_view.is_over()
        )
        self.resign_action.setEnabled(in_match and self._can_resign())

    def _can_resign(self) -> bool:
        """An online match still being played, from a seat on this screen (a local match, a
        spectator's screen or a match over: no)."""
        can_resign = getattr(self.session, "can_resign", None)
        return callable(can_resign) and bool(can_resign())

    def set_speed(self, name: str) -> None:
        self.settings.animation_speed = name
        if self.match_view is not None:
            self.match_view.set_speed(name)

    def set_ask_after_turn(self, ask: bool) -> None:
        self.settings.ask_after_turn = ask
        if self.match_view is not None:
            self.match_view.set_ask_after_turn(ask)

    def set_let_go_by_itself(self, let_go: bool) -> None:
        self.settings.let_go_by_itself = let_go
        if self.match_view is not None:
            self.match_view.set_let_go_by_itself(let_go)

    # --- starting and ending matches ---------------------------------------------------

    def start_match(self, setup: MatchSetup) -> None:
        """A new local match from the home screen's setup."""
        from soccerdesk.ui.session import LocalSession, MatchFileInUse, new_autosave_path

        try:
            session = LocalSession(
                get_game(setup.game_id),
                setup.players,
                seed=setup.seed,
                options=setup.options,
                autosave=new_autosave_path(self.settings.autosave_dir, setup.game_id),
                bot_pool=self._bot_pool(),
            )
        except (RulesError, MatchFileInUse) as exc:
            self._error("This match cannot start", str(exc))
            return
        self.show_session(session)

    def show_session(self, session: MatchSession) -> None:
        """Put a session (local or online) on screen and start it."""
        from soccerdesk.ui.match_view import MatchView  # the match screen's code loads with the first match

        self._close_match()
        try:
            view = MatchView(
                session,
                speed=self.settings.animation_speed,
                ask_after_turn=self.settings.ask_after_turn,
                let_go_by_itself=self.settings.let_go_by_itself,
            )
        except BoardMissing as exc:
            session.close()
            self._error("No board for this game yet", str(exc))
            return
        self.session = session
        self.match_view = view
        view.home_requested.connect(self.ask_home)
        view.rematch_requested.connect(self.rematch)
        view.help_requested.connect(self.show_help)
        view.replay_requested.connect(lambda record: self._replay_of(session, record))
        self.pages.addWidget(view)
        self.pages.setCurrentWidget(view)
        self.setWindowTitle(f"soccerdesk — {session.game.title}")
        # An online match's record arrives when it ends: Save becomes possible then, and the
        # match is kept with the others in Recent matches.
        session.finished.connect(lambda _summary: self._update_actions())
        session.undo_available.connect(lambda _can: self._update_actions())
        if hasattr(session, "can_resign"):
            # Resign… is offered while the relay can be told: the status follows the connection.
            session.status.connect(lambda _text: self._update_actions())
        if session.autosave is None:
            session.finished.connect(lambda _summary, session=session: self._keep_record(session))
        session.start()
        self._update_actions()

    def _bot_pool(self) -> Executor:
        from soccerdesk.ui.bot_pool import shared_bot_pool

        if self.bot_pool is None:
            self.bot_pool = shared_bot_pool()
        return self.bot_pool

    def rematch(self) -> None:
        if self.session is None:
            return
        nxt = self.session.rematch()
        if nxt is not None:
            self.show_session(nxt)

    def ask_home(self) -> None:
        """Home, as the player asks for it (the button, the menu, Ctrl+H): from a seat in an
        online match still being played, asked first, since the opponent may claim the win while
        the seat is empty (online audit, 7 December: one click left the seat unasked)."""
        from soccerdesk.ui.questions import ask_first

        session = self.session
        if session is not None and self._ask_before_leaving_unsaved(
            "leave-unsaved", "Leave without saving", lambda: self.go_home(unsaved_told=True)
        ):
            return
        if session is None or self.pages.currentWidget() is not self.match_view or not self._can_resign():
            self.go_home()
            return
        ask_first(
            self,
            "leave-seat",
            "Leave the match",
            "Leave this match for the home screen?",
            details=(
                "Your seat stays yours: the home screen lists the match, and its Resume takes it back. While you"
                " are away the match waits for you, and when its countdown runs out your opponent may"
                " claim the win. To end the match now, use Match → Resign… instead."
            ),
            go="Leave",
            stay="Keep playing",
            on_go=lambda: self.go_home() if session is self.session else None,
        )

    def _ask_before_leaving_unsaved(self, name: str, go: str, leave: Callable[[], object]) -> bool:
        """When the match on screen is not all in its file (its autosaves fail), ask before it
        is left, and return ``True`` (``leave`` is called if the player says ``go``); else
        ``False``, with nothing asked. A failing save is tried once more first."""
        session = self.session
        if session is None:
            return False
        session.flush_autosave()
        if session.unsaved_reason():
            session.save_now()
            session.flush_autosave()
        reason = session.unsaved_reason()
        if not reason:
            return False
        from soccerdesk.ui.questions import ask_first

        ask_first(
            self,
            name,
            "This match is not saved",
            f"This match could not be saved: {reason}.",
            details=(
                f"Its file ({session.autosave}) holds it as it was at its last save that"
                " worked: what was played since is lost if you leave now. Match → Save match as… keeps"
                " it somewhere else."
            ),
            go=go,
            stay="Keep playing",
            on_go=lambda: leave() if session is self.session else None,
        )
        return True

    def go_home(self, unsaved_told: bool = False) -> None:
        """The home screen. ``unsaved_told``: the player was told that the match is not saved
        and chose to leave it (no second message about it)."""
        self._close_match(unsaved_told)
        self._close_replay()
        self._close_learn()
        self.home.refresh_recent()
        self.pages.setCurrentWidget(self.home)
        self.setWindowTitle("soccerdesk")
        self._update_actions()

    def _close_match(self, unsaved_told: bool = False) -> None:
        session = self.session
        if session is not None:
            session.close()
            session.deleteLater()
            self.session = None
            reason = session.unsaved_reason()
            if reason and not unsaved_told:
                # Its last write, as it was left, failed: the player must not believe it kept.
                self._error(
                    "This match was not saved",
                    f"The match you left could not be saved: {reason}. Its file"
                    f" ({session.autosave}) holds it as it was at its last save that worked.",
                )
        if self.match_view is not None:
            self.pages.removeWidget(self.match_view)
            self.match_view.deleteLater()
            self.match_view = None

    def _close_replay(self) -> None:
        if self._review is not None:
            # Home, another match or quitting leaves the replay without its own "closed": its
            # review must stop asking the bot process for slices, or the next match's computer
            # opponent waits behind them.
            self._review.close_work()
            self._review = None
        if self.replay_view is not None:
            self.pages.removeWidget(self.replay_view)
            self.replay_view.deleteLater()
            self.replay_view = None

    def _hint(self) -> None:
        hint = self.match_view.hint_control if self.match_view is not None else None
        if hint is not None and hint.button.isEnabled() and self.pages.currentWidget() is self.match_view:
            hint.button.click()
        elif self.match_view is not None:
            self.match_view.hint_label.setText(
                "No hint now: a hint is given when it is your move against the computer or a friend on this screen."
            )

    def _undo(self) -> None:
        if self.match_view is not None and self.pages.currentWidget() is self.match_view:
            self.match_view.undo()

    def ask_resign(self) -> None:
        """Match → Resign…: asked first, as the opponent wins at once and it cannot be taken back.

        The box is window-modal and does not block the event loop (the match and its clocks go
        on while it is open); "Keep playing" is its default and Escape's answer."""
        from soccerdesk.ui.questions import ask_first

        session = self.session
        if session is None or not self._can_resign():
            return
        ask_first(
            self,
            "resign",
            "Resign",
            "Resign this match? Your opponent wins.",
            go="Resign",
            stay="Keep playing",
            on_go=lambda: self._resign(session),
        )

    def _resign(self, session: MatchSession) -> None:
        # The match may have ended, or another begun, while the question was open.
        if session is self.session and self._can_resign():
            session.resign()  # type: ignore[attr-defined]  # a RemoteSession (see _can_resign)
            self._update_actions()

    # --- files ---------------------------------------------------------------------------

    def save_dialog(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        record = self.session.record() if self.session is not None else None
        if record is None:
            return
        self.settings.saves_dir.mkdir(parents=True, exist_ok=True)
        suggested = self.settings.saves_dir / f"{record['game']}.soccerdesk.json"
        path, _ = QFileDialog.getSaveFileName(self, "Save match", str(suggested), "soccerdesk matches (*.json)")
        if path:
            chosen = Path(path)
            # The Open dialog lists *.json only: a name typed without it would hide the save.
            self.save_to(chosen if chosen.suffix.lower() == ".json" else chosen.with_name(chosen.name + ".json"))

    def _replay_of(self, session: MatchSession, record: Mapping[str, Any]) -> None:
        """The replay of the match just played, in its teams' colours (as from Recent matches)."""
        from soccerdesk.ui.session import LocalSession

        players = LocalSession.players_of(record)
        colours = (players[0].colour, players[1].colour) if players else ("", "")
        self.show_replay(session.game, record, session.player_names(), colours, path=session.autosave)

    def _keep_record(self, session: MatchSession) -> None:
        """Write a finished online match's record with the autosaves (a local match saves
        itself as it goes), so that Recent matches lists it for its replay."""
        from soccerdesk.ui.session import new_autosave_path, write_match_file

        record = session.record()
        if record is None:
            return
        try:
            write_match_file(
                new_autosave_path(self.settings.autosave_dir, session.game.id), json.dumps(record, indent=1)
            )
        except OSError as exc:
            self.statusBar().showMessage(f"The match could not be kept in Recent matches: {exc}", 8000)

    def save_to(self, path: Path) -> None:
        """Write the current match record to ``path``, whole or not at all (an earlier save
        there is kept when the disk refuses: see :func:`write_match_file`)."""
        from soccerdesk.ui.session import disk_words, write_match_file

        record = self.session.record() if self.session is not None else None
        if record is None:
            raise RuntimeError("this match cannot be saved here")
        try:
            write_match_file(path, json.dumps(record, indent=1))
        except OSError as exc:
            self._error("This match could not be saved", f"The match could not be saved to {path}: {disk_words(exc)}.")
            return
        self.statusBar().showMessage(f"Saved to {path}", 5000)

    def open_dialog(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        start = self.settings.saves_dir if self.settings.saves_dir.is_dir() else Path.home()
        path, _ = QFileDialog.getOpenFileName(
            self, "Open match", str(start), "soccerdesk matches (*.json);;All files (*)"
        )
        if path:
            self.open_path(Path(path))

    def open_path(self, path: Path) -> bool:
        """Resume a match file (or replay it, if it is over). A bad file gets a clear message."""
        from soccerdesk.ui.session import APP_KEY, LocalSession, MatchFileInUse, Player, new_autosave_path

        try:
            game, record, final = replay_match_file(Path(path))
        except CorruptRecord as exc:
            if exc.replayable:
                self._offer_what_replays(Path(path), str(exc), exc.replayable)
            else:
                self._error("This file cannot be opened", str(exc))
            return False
        except Exception as exc:  # noqa: BLE001 (a file odd in a way nobody foresaw is refused, in words)
            self._error("This file cannot be opened", damaged_words(Path(path), exc))
            return False
        players = LocalSession.players_of(record) or (Player("human", "Home"), Player("human", "Away"))
        names = (players[0].name, players[1].name)
        app = record.get(APP_KEY)
        # An online match may end before the rules say so (resigned, abandoned): over is over.
        over = isinstance(app, Mapping) and app.get("over") is True
        # A record with nobody at this screen to go on (the computer's match against itself,
        # or an edited file) is shown as far as it goes.
        nobody_here = all(player.kind != "human" for player in players)
        if over or nobody_here or final.is_terminal():
            # (A match resumed is written again by its session, which locks its file first.)
            self._mend_listed_score(Path(path), record, final.score)
            self.show_replay(game, record, names, (players[0].colour, players[1].colour), path=Path(path))
            return True
        autosave = (
            Path(path)
            if Path(path).parent == self.settings.autosave_dir
            else new_autosave_path(self.settings.autosave_dir, game.id)
        )
        try:
            session = LocalSession(game, players, record=record, autosave=autosave, bot_pool=self._bot_pool())
        except MatchFileInUse as exc:
            self._error("This match is open in another window", str(exc))
            return False
        except (RulesError, ValueError) as exc:
            self._error("This match cannot be resumed", f"{Path(path).name}: {exc}")
            return False
        self.show_session(session)
        return True

    def _mend_listed_score(self, path: Path, record: dict[str, Any], score: tuple[int, int]) -> None:
        """Recent matches lists a match with the score its file's app block gives (reading it
        is quick; replaying every file is not). A file whose actions replay to another score
        (edited, or saved under rules mended since) is given the score that opens, so that the
        list says what the player saw the next time."""
        from soccerdesk.ui.session import APP_KEY, write_match_file

        app = record.get(APP_KEY)
        if path.parent != self.settings.autosave_dir or not isinstance(app, dict) or "score" not in app:
            return
        if app["score"] == list(score):
            return
        app["score"] = list(score)
        with contextlib.suppress(OSError):  # the list keeps the old score; the match opens all the same
            write_match_file(path, json.dumps(record, indent=1))

    def _offer_what_replays(self, path: Path, why: str, replayable: int) -> None:
        """A match whose record replays up to an action the rules now refuse (saved under rules
        mended since, or edited): offer to go on from the position before that action. The
        file is kept as it is (an autosave is renamed out of Recent matches, not deleted)."""
        from PySide6.QtCore import Qt
        from PySide6.QtWidgets import QMessageBox

        box = QMessageBox(
            QMessageBox.Icon.Warning,
            "This match cannot be replayed to its end",
            f"{why.rstrip('.')}.\n\nIts first {replayable} actions replay. Go on from the position after them?",
            QMessageBox.StandardButton.NoButton,
            self,
        )
        box.setObjectName("resume-what-replays")
        box.setInformativeText(
            "A rule may have been mended since the match was saved. The file is kept as it is"
            + (" (renamed out of Recent matches)." if path.parent == self.settings.autosave_dir else ".")
        )
        go_on = box.addButton(f"Go on from action {replayable}", QMessageBox.ButtonRole.AcceptRole)
        cancel = box.addButton("Cancel", QMessageBox.ButtonRole.RejectRole)
        # Enter leaves things as they are: going on starts a copy of the match (one Enter
        # meant for the error boxes before this one started it; UI audit 8).
        box.setDefaultButton(cancel)
        box.setEscapeButton(cancel)
        box.setWindowModality(Qt.WindowModality.WindowModal)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.buttonClicked.connect(
            lambda button: self._resume_what_replays(path, replayable) if button is go_on else None
        )
        self.last_message = why
        box.open()

    def _resume_what_replays(self, path: Path, replayable: int) -> None:
        from soccerdesk.ui.session import disk_words, new_autosave_path, write_match_file

        try:
            record = read_match_file(path)
        except CorruptRecord as exc:
            self._error("This file cannot be opened", str(exc))
            return
        record["actions"] = list(record.get("actions") or [])[:replayable]
        record.pop("review", None)  # a review of the whole record: worked out again
        copy = copy_path(new_autosave_path(self.settings.autosave_dir, str(record.get("game"))), replayable)
        try:
            write_match_file(copy, json.dumps(record, indent=1))
            if path.parent == self.settings.autosave_dir:
                path.rename(path.with_name(f"{path.name}.unreplayable"))
        except OSError as exc:
            self._error("This match cannot be resumed", f"{path.name}: {disk_words(exc)}.")
            return
        self.open_path(copy)

    def show_replay(
        self,
        game: Game,
        record: Mapping[str, Any],
        names: tuple[str, str],
        colours: tuple[str, str] = ("", ""),
        path: Path | None = None,
    ) -> None:
        """The replay viewer with the match review under it (worked out in the bot process and
        kept in the match file ``path``, when there is one, so it shows at once next time)."""
        from soccerdesk.ui.match_view import team_colours
        from soccerdesk.ui.replay import ReplayViewer  # imported when first needed: a faster start
        from soccerdesk.ui.review_chart import attach_review

        self._close_replay()
        try:
            viewer = ReplayViewer(game, record, names=names, colours=team_colours(colours))
        except (CorruptRecord, BoardMissing) as exc:
            self._error("This replay cannot be shown", str(exc))
            return
        self._review = attach_review(viewer, record, path=path, executor=self._bot_pool())
        viewer.closed.connect(self._leave_replay)
        if self.session is not None:
            self.session.pause_clock()  # a match left under another's replay: its time stops
        self.replay_view = viewer
        self.pages.addWidget(viewer)
        self.pages.setCurrentWidget(viewer)
        self._update_actions()

    def show_learn(self, game_id: str) -> None:
        """The guided first match of ``game_id``, resumed where the learner left it (kept in the
        data folder's ``learn/`` folder, apart from the matches listed on the home screen)."""
        from soccerdesk.learn.coach import ScriptError
        from soccerdesk.ui.coach import GuidedMatch

        self._close_learn()
        try:
            screen = GuidedMatch.start(game_id, path=self.settings.data_dir / "learn" / f"{game_id}.json")
        except (ScriptError, RulesError, BoardMissing, OSError, ValueError) as exc:
            self._error("This guided match cannot start", str(exc))
            return
        screen.left.connect(lambda _record: self.go_home())
        self.learn_view = screen
        self.pages.addWidget(screen)
        self.pages.setCurrentWidget(screen)
        self.setWindowTitle(f"soccerdesk — {screen.coach.script.title}")
        self._update_actions()

    def _close_learn(self) -> None:
        if self.learn_view is not None:
            self.pages.removeWidget(self.learn_view)
            self.learn_view.deleteLater()
            self.learn_view = None

    def _leave_replay(self) -> None:
        back = self.match_view if self.match_view is not None else self.home
        self._close_replay()
        if self.session is not None:
            self.session.resume_clock()
        if back is self.home:
            self.home.refresh_recent()
        self.pages.setCurrentWidget(back)
        self._update_actions()

    # --- online (the relay engineer's module, when it is there) ---------------------------

    def open_online(self, kind: str, **how: Any) -> None:
        """The online dialog of ``kind`` (``how``: more for it, such as a seat to ``resume``).
        Once it closes, the home screen lists again the online matches that may be waiting."""
        if importlib.util.find_spec(ONLINE_MODULE) is None:
            self._info("Not available yet", "Network play is not part of this build yet.")
            return
        online = importlib.import_module(ONLINE_MODULE)
        opener = getattr(online, "open_online_dialog", None)
        if opener is None:
            self._info("Not available yet", "Network play is not part of this build yet.")
            return
        opened = opener(self, kind=kind, settings=self.settings, **how)
        from PySide6.QtWidgets import QDialog

        from soccerdesk.ui.session import MatchSession

        if isinstance(opened, MatchSession):
            self.show_session(opened)
        elif isinstance(opened, QDialog):
            opened.finished.connect(lambda _result: self.home.refresh_waiting())

    def resume_online(self, seat: RememberedSeat) -> None:
        """Take back the seat of an online match the home screen lists as waiting: Play online's
        own resume, begun at once (it asks first when another window plays the seat, and says
        so when the match is gone)."""
        self.open_online("online", resume=seat)

    # --- help and messages ----------------------------------------------------------------

    def show_help(self) -> None:
        game_id = self.session.game.id if self.session is not None else self.home.game_id
        if game_id is None:
            return
        from PySide6.QtCore import Qt

        from soccerdesk.ui.help import HelpDialog  # imported when first asked for: a faster start

        dialog = HelpDialog(get_game(game_id), self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.help_dialog = dialog
        dialog.open()

    def _about(self) -> None:
        """Help → About: the version, and Qt's notice (LGPLv3 §4 asks for it), with Qt's own
        About box a click away. Window-modal, not blocking (bots and tests go on)."""
        from PySide6.QtWidgets import QMessageBox

        text = (
            f"<b>soccerdesk {__version__}</b><br>Four tabletop soccer games against the computer, a friend, or online."
            "<br>All art is drawn by the app itself."
            "<br><br>soccerdesk is free software under the MIT licence. It uses Qt and PySide6 under the"
            " GNU Lesser General Public License, version 3; their licence texts come with the app"
            " (the licenses folder of the program)."
        )
        box = QMessageBox(QMessageBox.Icon.NoIcon, "About soccerdesk", text, QMessageBox.StandardButton.Ok, self)
        box.setObjectName("about")
        box.setIconPixmap(app_icon().pixmap(64, 64))
        about_qt = box.addButton("About Qt", QMessageBox.ButtonRole.ActionRole)
        about_qt.setObjectName("about-qt")
        about_qt.clicked.connect(lambda: QMessageBox.aboutQt(self, "About Qt"))
        box.setWindowModality(Qt.WindowModality.WindowModal)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.last_message = text
        box.open()

    def _error(self, title: str, text: str) -> None:
        self._message("Warning", title, text)

    def _info(self, title: str, text: str) -> None:
        self._message("Information", title, text)

    def _message(self, icon: str, title: str, text: str) -> None:
        """A window-modal message that does not block the event loop (bots and tests go on).

        ``icon``: the name of a ``QMessageBox.Icon``."""
        from PySide6.QtCore import Qt
        from PySide6.QtWidgets import QMessageBox

        box = QMessageBox(QMessageBox.Icon[icon], title, text, QMessageBox.StandardButton.Ok, self)
        box.setObjectName("message")
        box.setWindowModality(Qt.WindowModality.WindowModal)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.last_message = text
        box.open()

    def _quit(self) -> None:
        self._quit_unsaved = True
        self.close()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt API)
        """Back to the smallest size when the window system made the window smaller still.

        A window manager keeps a window to its smallest size; without one (a bare X server, a
        kiosk) nothing did: at 500 × 400 the match panel was cut off, at 300 × 200 the buttons
        piled up (UI audit 3). Asked once for a size: a window system that gives the same size
        again (a screen too small for the window) has the last word."""
        super().resizeEvent(event)
        smallest = self.minimumSize()
        size = event.size()
        if size.width() >= smallest.width() and size.height() >= smallest.height():
            self._regrown_from = None
            return
        if size != self._regrown_from:
            self._regrown_from = size
            QTimer.singleShot(0, lambda: self.resize(self.size().expandedTo(smallest)))

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt API)
        if not self._quit_unsaved and self._ask_before_leaving_unsaved(
            "quit-unsaved", "Quit without saving", self._quit
        ):
            event.ignore()  # asked first: the match is not all in its file
            return
        self.settings.save_geometry(self.saveGeometry())
        self._close_match(unsaved_told=self._quit_unsaved)
        self._close_replay()
        super().closeEvent(event)
