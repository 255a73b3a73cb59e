"""The guided first match on screen: the board, and beside it the coach panel.

:class:`GuidedMatch` plays a :class:`soccerdesk.learn.coach.Coach` script. The board offers
only the step's taught actions (the others are not highlighted and a click on them does
nothing), and shows the action the coach points at as the board's own preview (its places
marked). The coach panel says what to do in our own words, counts the steps, and has
"Show me again" (the pointed places blink back on) and "Leave" (the match so far is kept in
``path`` and resumes where it was left, its "What just happened" told again: :meth:`GuidedMatch.start`).

Keyboard, as in a match (README "Keyboard"): Tab / Shift+Tab step through the actions the
lesson offers (the first Tab lands on the one the coach points at), each said in words
("Enter plays: …"), Enter plays it, Escape lets go. The Tab keys stay with the board, so the
coach's buttons take no focus: they are clicked or reached by their Alt shortcuts.

The other side's moves, dice and draws come from the coach (scripted replies, stacked
outcomes, then a gentle bot) on the UI thread: the bots it falls back on answer in
milliseconds. Once the steps are done the learner plays on freely against the gentle bot.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence, QShowEvent
from PySide6.QtWidgets import QGridLayout, QLabel, QPushButton, QSplitter, QVBoxLayout, QWidget

from soccerdesk.learn.coach import Coach, ScriptError, load_script
from soccerdesk.learn.words import name_seats, said
from soccerdesk.rules import Event, IllegalAction, RulesError, State
from soccerdesk.ui.boards import BoardConfig, make_board
from soccerdesk.ui.boards.drawing import ClickBoard
from soccerdesk.ui.match_view import BoardView, KeyboardPick, retold
from soccerdesk.ui.session import write_match_file

HAPPENED_LINES = 8
"""Lines of "What just happened" shown at most (the latest)."""

OTHERS_DELAY_MS = 350
"""A pause before the other side answers, so the learner sees one move at a time."""


class CoachPanel(QWidget):
    """What the coach says: the title, the step count, the words, the keyboard's pick, what
    just happened, and three buttons."""

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("coach-panel")
        self.setMinimumWidth(260)
        self.title = QLabel(title)
        self.title.setObjectName("coach-title")
        self.title.setStyleSheet("font-size: 16pt; font-weight: bold;")
        self.title.setWordWrap(True)  # "Learn Big Time Soccer" in a narrow panel: two lines, not cut
        self.count = QLabel("")
        self.count.setObjectName("coach-count")
        self.words = QLabel("")
        self.words.setObjectName("coach-words")
        self.words.setWordWrap(True)
        self.words.setTextFormat(Qt.TextFormat.PlainText)
        self.words.setStyleSheet("font-size: 12pt;")
        self.keyboard = QLabel("")
        self.keyboard.setObjectName("keyboard")  # as the match screen's: "Enter plays: …"
        self.keyboard.setWordWrap(True)
        self.keyboard.setTextFormat(Qt.TextFormat.RichText)
        self.keyboard.setToolTip("Tab steps through the actions on offer, Enter plays the one shown")
        self.happened = QLabel("")
        self.happened.setObjectName("coach-happened")
        self.happened.setWordWrap(True)
        self.happened.setTextFormat(Qt.TextFormat.PlainText)
        # QA: Tab went round these buttons and never reached the board. They take no focus
        # (Tab stays with the board's actions); a click or their Alt shortcut presses them.
        self.show_me = QPushButton("&Show me again")
        self.show_me.setObjectName("coach-show-me")
        self.leave = QPushButton("&Leave (resume later)")
        self.leave.setObjectName("coach-leave")
        self.restart = QPushButton("Start &again")
        self.restart.setObjectName("coach-restart")
        for button, key, tip in (
            (self.show_me, "Alt+S", "Point again at what to do"),
            (self.leave, "Alt+L", "Back to the home screen; Learn to play resumes here"),
            (self.restart, "Alt+A", "The lesson from its first step, in a new match"),
        ):
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            # Set as well as underlined: macOS has no "&" shortcuts, and there Alt is Option.
            sequence = QKeySequence(key)
            button.setShortcut(sequence)
            button.setToolTip(f"{tip} ({sequence.toString(QKeySequence.SequenceFormat.NativeText)})")
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.count)
        layout.addWidget(self.words)
        layout.addStretch(1)
        layout.addWidget(self.keyboard)
        layout.addWidget(QLabel("What just happened:"))
        layout.addWidget(self.happened)
        # Two rows: three buttons side by side were cut ("ave (resume late") in a narrow panel.
        buttons = QGridLayout()
        buttons.addWidget(self.show_me, 0, 0)
        buttons.addWidget(self.restart, 0, 1)
        buttons.addWidget(self.leave, 1, 0, 1, 2)
        layout.addLayout(buttons)


class GuidedMatch(QWidget):
    """A guided match (see the module docstring). Signal ``left(dict)``: the record when the learner leaves.

    ``past``: the positions that led to ``state`` (a resumed lesson), told again in "What just
    happened" and shown on the board (its die, its last route) as a resumed match is.
    """

    left = Signal(object)

    def __init__(
        self,
        coach: Coach,
        state: State | None = None,
        *,
        past: Sequence[State] = (),
        path: Path | None = None,
        others_delay_ms: int = OTHERS_DELAY_MS,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("guided-match")
        self.coach = coach
        self.path = path
        self.names = ("Home", "Away") if coach.script.learner == 0 else ("Away", "Home")
        # Every game's board is drawn and clicked alike (the lesson uses its selection and clicks).
        self.board = cast(ClickBoard, make_board(BoardConfig(coach.script.game, perspective=coach.script.learner)))
        self.board.setParent(self)
        self.view = BoardView(self.board)
        self.view.installEventFilter(self)
        self._happened = ""  # the log as last told (a click's prompt may stand in for it a while)
        self._queued: tuple[str, State] | None = None  # a pick made before the other side answered
        self.panel = CoachPanel(coach.script.title)
        self.keys = KeyboardPick(
            self.board,
            self.panel.keyboard,
            play=self._play_text,
            let_go=self._let_go,
            tell=self.panel.keyboard.setText,
            on_escape=self._show_me,  # back to what the coach points at
            # What the step teaches comes first; the lesson's actions are the board's only ones.
            first=lambda: self.coach.pointed(self.state) if self.waiting else None,
        )
        splitter = QSplitter()
        splitter.addWidget(self.view)
        splitter.addWidget(self.panel)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(splitter)
        self.board.action_chosen.connect(self._chosen)
        self.board.hint.connect(self.panel.happened.setText)  # a click's prompt or refusal, in the log's place
        self._narrowed = False  # the lesson offers fewer actions than the rules allow here
        self._fresh: list[dict[str, Any]] = []  # events since the board was last drawn (its die, its trace)
        self._mine: list[str] = []  # the learner's last move in words, told before the answer to it
        rules_refusal = self.board.refusal_hint

        def lesson_refusal(selection: tuple[Any, ...], key: Any) -> str:
            # QA: the square the coach points at, clicked before the pawn or card that goes
            # there, was refused as "not in this lesson": say what comes first, by its name.
            before = self._clicks_before(selection, key)
            if before:
                return f"First click {', then '.join(before)}."
            # The board reasons from the actions it was given: where the lesson offers only
            # the one it teaches, "this card can't move the ball" would blame the rules.
            if self._narrowed:
                pointed = self._clicks_before(selection, None)
                if pointed:
                    return f"Not in this lesson: click {', then '.join(pointed)} (Show me again points at it)."
                return "Not in this lesson: click what is highlighted (Show me again points at it)."
            return rules_refusal(selection, key)

        self.board.refusal_hint = lesson_refusal  # type: ignore[method-assign]
        self.panel.show_me.clicked.connect(self._show_me)
        self.panel.leave.clicked.connect(self.leave)
        self.panel.restart.clicked.connect(self.restart)
        self._others = QTimer(self)
        self._others.setSingleShot(True)
        self._others.setInterval(others_delay_ms)
        self._others.timeout.connect(self._other_moves)
        self.state = coach.new_match() if state is None else state
        # A resumed lesson reads on from what happened before it was left (QA: its log was empty).
        told = [line for position in past for line in self._said(position, again=True)][-HAPPENED_LINES:]
        for position in past:
            self._keep_fresh(position.events)
        self._mine = told  # any answer still to come is told after them
        self._tell(told)
        self._other_moves()
        self._mine = []

    @classmethod
    def start(cls, game_id: str, *, path: Path | None = None, **kwargs: Any) -> GuidedMatch:
        """The guided match of ``game_id`` left in ``path``, or a new one (when there is none, it
        ended, or it cannot be resumed: a damaged file, a script changed since)."""
        if path is not None and path.is_file():
            try:
                coach, states = Coach.follow(json.loads(path.read_text(encoding="utf-8")))
            except (ValueError, RulesError, OSError):  # ScriptError, CorruptRecord, bad JSON are ValueErrors
                coach, states = None, []
            if coach is not None and coach.script.game == game_id and not states[-1].is_terminal():
                return cls(coach, states[-1], past=states[1:], path=path, **kwargs)
        return cls(Coach(load_script(game_id)), path=path, **kwargs)

    # --- the learner ---------------------------------------------------------------------

    @property
    def waiting(self) -> bool:
        """The board waits for the learner (the other side has answered)."""
        return not self._others.isActive() and self.coach.learner_decides(self.state)

    def _chosen(self, text: str) -> None:
        if not self.waiting:
            self._play_later(text, "Your click")  # as Enter's pick there (keyboard audit 7)
            return
        try:
            self.state = self.coach.play(self.state, text)
        except IllegalAction as exc:
            self.panel.happened.setText(said(str(exc)))
            return
        self._keep_fresh(self.state.events)
        # What the click did, in place of the prompt that led to it ("click a highlighted
        # square"); the other side's answer is told after it, not instead of it.
        self._mine = [*self._mine, *self._said(self.state)][-HAPPENED_LINES:]
        self._tell(self._mine)
        self._show()
        self._save()
        self._others.start()

    def _clicks_before(self, selection: tuple[Any, ...], key: Any) -> list[str]:
        """The clicks, in words, that play the lesson's action from ``selection`` up to ``key``
        where ``key`` is one of its later clicks (the pawn, then the square): the one the coach
        points at first, else another the step teaches. ``key`` None: all the pointed one's."""
        pointed = self.coach.pointed(self.state) if self.waiting else None
        paths = self.board.paths
        for text in sorted(paths.matching(selection), key=lambda text: text != pointed):
            rest = paths.rest_of(text, selection)
            if key is None and text == pointed:
                return [self.board.key_words(k) for k in rest]
            if key is not None and key in rest[1:]:
                return [self.board.key_words(k) for k in rest[: rest.index(key) + 1]]
        return []

    def _show_me(self) -> None:
        pointed = self.coach.pointed(self.state) if self.waiting else None
        self.board.set_preview(pointed)

    def restart(self) -> None:
        """The lesson again from its first step, in a new match (the one left behind is dropped)."""
        self._others.stop()
        self._queued = None
        self.coach = Coach(load_script(self.coach.script.game))
        self.state = self.coach.new_match()
        self._tell([])
        self._other_moves()

    def leave(self) -> None:
        self._others.stop()
        self._save()
        self.left.emit(self.coach.record(self.state))

    # --- the other side ------------------------------------------------------------------

    def _other_moves(self) -> None:
        """Play the other side's answer (and dice, draws) up to the learner's next decision."""
        events: list[str] = []
        for _ in range(10_000):
            found = self.coach.next_other(self.state)
            if found is None:
                break
            seat, action = found
            self.state = self.state.apply(seat, action)
            self.coach.after(seat, action)
            events.extend(self._told(self.state.events))
            self._keep_fresh(self.state.events)
        if events:  # the answer, told after the learner's moves that led to it
            events, self._mine = [*self._mine, *events], []
            self._tell(events[-HAPPENED_LINES:])
        self._show()
        self._save()
        queued, self._queued = self._queued, None
        if queued is not None:
            text, where = queued
            if where is self.state and self.waiting and text in self.board.legal():
                self._play_text(text)
            else:
                self.panel.keyboard.setText("The other side moved before your pick was played: pick again.")

    def _tell(self, lines: Sequence[str]) -> None:
        """Show ``lines`` (the rules' words, seats not yet named) under "What just happened"."""
        self._happened = name_seats("\n".join(lines), self.names, self.coach.script.game)
        self.panel.happened.setText(self._happened)

    def _keep_fresh(self, events: Sequence[Event]) -> None:
        learner = self.coach.script.learner
        self._fresh.extend(e.to_json() for e in events if e.visible_to(learner))

    def _said(self, state: State, *, again: bool = False) -> list[str]:
        """The events of the action that led to ``state``, in words (:meth:`_told`); the
        learner's action that tells nothing of itself ("stop" a chain) is said by its button's
        words. ``again``: told again from a resumed lesson's record, where such an action the
        coach plays for the learner (``auto``) stays untold, as it was then."""
        told = self._told(state.events)
        history = state.history()
        if told or not history or history[-1][0] != self.coach.script.learner:
            return told
        text = str(history[-1][1])
        if again and self.coach.plays_itself(text):
            return told
        return [f"{self.names[self.coach.script.learner]}: {self.board.describe(text)}."]

    def _told(self, events: Sequence[Event]) -> list[str]:
        """The events the learner may see, in the board's words; a public line ("Home draws a
        card") is left out where the learner's own line tells it in full (as in a match's log)."""
        learner = self.coach.script.learner
        seen = [
            {**e.to_json(), "audience": None if e.audience is None else list(e.audience)}
            for e in events
            if e.visible_to(learner)
        ]
        twins = retold(seen, lambda audience: learner in audience)
        told = (self.board.event_text(e, learner) for i, e in enumerate(seen) if i not in twins)
        return [w for w in told if w]

    # --- the screen ----------------------------------------------------------------------

    def _show(self) -> None:
        learner = self.coach.script.learner
        if self.coach.stuck(self.state):
            self.coach.let_go()
        view = self.state.view(learner)
        allowed = view["legal"]
        view["legal"] = self.coach.taught(self.state)
        # What the board says of the position ("no card of yours can be played here") is said
        # of everything the rules allow, not only the lesson's pick among it.
        view["rules_legal"] = allowed
        self._narrowed = len(view["legal"]) < len(allowed)
        # With what happened since: the board shows a die's number, a ball's last route.
        fresh, self._fresh = self._fresh, []
        self.board.set_view(view, fresh)
        self.keys.reset()  # a new position: Tab starts again from the coach's pick
        step = self.coach.step
        script = self.coach.script
        if self.state.is_terminal():
            words = self.board.full_time_words(view) + " " + script.finish
        elif self.coach.strayed:
            words = (
                "The match went another way than this lesson's. Play on as you like, "
                "or click Start again for the lesson from its first step."
            )
        elif step is None:
            words = script.finish
        else:
            words = step.say if self.coach.index else f"{script.intro}\n\n{step.say}"
        self.panel.words.setText(words)
        total = len(script.steps)
        if step is not None:
            count = f"Step {self.coach.index + 1} of {total}"
        else:
            count = "Off the lesson's path" if self.coach.strayed else f"All {total} steps done"
        self.panel.count.setText(count)
        self.view.fit()
        self._show_me()
        if view["legal"]:
            self.view.setFocus()  # the keys play on the board (nothing else here takes the focus)

    # --- the keyboard (as the match screen's, over the lesson's actions) -------------------

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt API)
        super().showEvent(event)
        self.view.setFocus()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt API)
        if watched is self.view and event.type() == QEvent.Type.KeyPress:
            return self.handle_key(event)  # type: ignore[arg-type]
        return super().eventFilter(watched, event)

    def handle_key(self, event: QKeyEvent) -> bool:
        """Tab / Shift+Tab / Enter / Escape on the board (:class:`KeyboardPick`). True when used."""
        return self.keys.handle(event)

    def cycle(self, step: int) -> None:
        """Pick the next (``step`` 1) or previous (-1) action on offer and say it in words."""
        self.keys.cycle(step)

    def _play_text(self, text: str) -> None:
        if not self.waiting:
            self._play_later(text, "Enter")
            return
        # Through the board's own clicks, so it highlights and refuses as the mouse does.
        if not self.board.play(text):
            self.board.choose(text)

    def _play_later(self, text: str, by: str) -> None:
        """``text``, picked (``by`` "Enter" or "Your click") in the pause before the other side
        answers, is played once that pause is over if the position is still the same
        (:meth:`_other_moves`), and said meanwhile. Played at once it was half-played (the
        board took its first click, the lesson refused the action; keyboard audit 7), and a
        click there was dropped without a word."""
        self._queued = (text, self.state)
        self.panel.keyboard.setText(f"{by} plays <b>{html.escape(self.board.describe(text))}</b> in a moment.")
        self.panel.happened.setText(self._happened)  # not the prompt of the click before it

    def _let_go(self) -> None:
        """Drop what the mouse began, and its prompt ("click a highlighted square") with it."""
        if self.board.selection:
            self.board.cancel_selection()
            self.panel.happened.setText(self._happened)

    def _save(self) -> None:
        if self.path is not None:
            write_match_file(self.path, json.dumps(self.coach.record(self.state)))


def take_learn_screenshot(game_id: str, path: Path, size: tuple[int, int] = (1280, 800)) -> None:
    """``soccerdesk --screenshot learn:GAME PATH``: the guided match's first step and its coach panel."""
    from PySide6.QtWidgets import QApplication

    from soccerdesk.ui.screenshot import ScreenshotError, save_picture

    app = QApplication.instance()
    if app is None:
        raise ScreenshotError("a QApplication must exist first")
    try:
        screen = GuidedMatch.start(game_id, others_delay_ms=0)
    except ScriptError as exc:
        raise ScreenshotError(str(exc)) from None
    screen.resize(*size)
    screen.show()
    save_picture(screen, screen.view, path)
    # Deleted by Qt, not left to Python's garbage collector: freed there, its board's items
    # could update the board's view already deleted (a crash, seen in the UI tests).
    screen.deleteLater()
