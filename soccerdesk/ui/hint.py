"""The Hint button of a match against the computer or in hot-seat (never online).

:class:`HintControl` is a button and one line of text. A click asks the bot process for the
search bot's suggestion for the seat to move (:func:`soccerdesk.learn.hint.hint_for_record`,
which sees only that seat's view); while it thinks the UI goes on. The answer is shown on the
board as the board's own preview of that action (the places to click are marked, as for the
keyboard's "Enter plays") and in words with one line of why. An answer for a position the
match has left meanwhile is dropped.

The owner says what to ask about: ``request()`` returns ``(game_id, record, seat)`` for the
seat to move on this screen, or ``None`` when no hint may be given (an online match, a bot's
turn, the end). :attr:`HintControl.given` tells it a hint was shown, to count it in the record
(:func:`soccerdesk.learn.hint.count_hint`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from typing import Any

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from soccerdesk.learn.hint import hint_for_record
from soccerdesk.ui.boards import BoardScene

Request = Callable[[], tuple[str, Mapping[str, Any], int] | None]


class BotWork:
    """Calls run in the app's bot process (or the executor given), and on a thread of this
    process once that process is gone. Hints and the match review share it."""

    def __init__(self, executor: Executor | None = None, name: str = "soccerdesk-learn") -> None:
        self._executor = executor
        self._own: ThreadPoolExecutor | None = None
        self._name = name

    def submit(self, fn: Callable[..., Any], /, *args: Any) -> Future[Any]:
        if self._executor is None:
            from soccerdesk.ui.bot_pool import shared_bot_pool

            self._executor = shared_bot_pool()
        try:
            return self._executor.submit(fn, *args)
        except RuntimeError:  # the bot process is gone (shut down or died)
            if self._own is None:
                self._own = ThreadPoolExecutor(max_workers=1, thread_name_prefix=self._name)
            self._executor = self._own
            return self._own.submit(fn, *args)

    def close(self) -> None:
        """Drop the calls queued on this process's own thread (the bot process is not ours to end)."""
        if self._own is not None:
            self._own.shutdown(wait=False, cancel_futures=True)
            self._own = None


class HintControl(QWidget):
    """A Hint button and the hint's line (see the module docstring). Signal ``given(int)``: the seat."""

    given = Signal(int)

    POLL_MS = 40

    def __init__(
        self,
        board: BoardScene,
        request: Request,
        executor: Executor | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("hint-control")
        self.board = board
        self.request = request
        self._work = BotWork(executor, "soccerdesk-hint")
        self._pending: tuple[Future[tuple[str, str, float | None]], int, int, str] | None = None
        self._rng = random.Random()
        self.button = QPushButton("Hint")
        self.button.setObjectName("hint-button")
        self.button.setToolTip("What would the computer play here? (counted in the match record)")
        self.button.clicked.connect(self.ask)
        self.line = QLabel("")
        self.line.setObjectName("hint-line")
        self.line.setWordWrap(True)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.button)
        layout.addWidget(self.line, 1)
        self._poll = QTimer(self)
        self._poll.setInterval(self.POLL_MS)
        self._poll.timeout.connect(self._collect)
        self.action: str | None = None
        """The action of the hint shown now, if any."""
        self.refresh()

    def refresh(self) -> None:
        """The position changed: drop a hint shown or asked for, offer the button when one may be given."""
        self._pending = None
        self._poll.stop()
        if self.action is not None and self.board.preview == self.action:
            self.board.set_preview(None)
        self.action = None
        self.line.setText("")
        self.button.setEnabled(self.request() is not None)

    def ask(self) -> None:
        asked = self.request()
        if asked is None:
            self.button.setEnabled(False)
            return
        game_id, record, seat = asked
        ply = len(record.get("actions", ()))
        seed = self._rng.randrange(2**62)
        future = self._work.submit(hint_for_record, game_id, dict(record), seat, seed)
        self._pending = (future, seat, ply, game_id)
        self.button.setEnabled(False)
        self.line.setText("Thinking about a hint…")
        self._poll.start()

    def _collect(self) -> None:
        """On the UI thread: show the answer if it is still about the position on screen."""
        if self._pending is None:
            self._poll.stop()
            return
        future, seat, ply, game_id = self._pending
        if not future.done():
            return
        self._pending = None
        self._poll.stop()
        asked = self.request()
        if asked is None or asked[2] != seat or len(asked[1].get("actions", ())) != ply or asked[0] != game_id:
            self.refresh()  # the match moved on while the bot thought
            return
        try:
            action, why, _chance = future.result()
        except Exception as exc:  # noqa: BLE001 - a hint is a help, never a reason to stop the match
            self.line.setText(f"No hint this time: {exc}")
            self.button.setEnabled(True)
            return
        self.action = action
        self.board.set_preview(action)
        self.line.setText(f"Hint: {self.board.describe(action)}. {why}")
        self.button.setEnabled(True)
        self.given.emit(seat)

    def close_work(self) -> None:
        self._pending = None
        self._poll.stop()
        self._work.close()
