"""Dice and card animations painted over the board, skippable with a click or a key.

An :class:`EventAnimation` shows what the rules reported in their events — a die roll, a
card drawn or turned, a goal — for a moment, then says ``done``. It never changes the
match: the board already knows the outcome; the animation only lets a person see it happen.

Signals:
    done(): the animation ended (ran out or was skipped).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import shiboken6
from PySide6.QtCore import QElapsedTimer, QEvent, QObject, QPointF, QRect, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QKeyEvent, QMouseEvent, QPainter, QPaintEvent, QPen, QPixmap
from PySide6.QtWidgets import QApplication, QWidget

from soccerdesk.learn.words import spelled_out
from soccerdesk.ui.boards.drawing import draw_d20, draw_die, ui_font

BASE_MS = {"die": 900, "card": 800, "goal": 1300, "banner": 1500}
"""How long each kind of animation lasts at normal speed."""

ROLLING = 0.6
"""Share of a die animation in which the die tumbles before it settles on the real face."""

_DIE_KEYS = ("roll", "die", "d20", "value", "face", "result", "kick_die")


@dataclass(frozen=True)
class Animation:
    """One thing to animate: ``kind`` is ``die``, ``card``, ``goal`` or ``banner``.

    A card animation turns over ``faces`` (one card, or two side by side when both players
    showed one: the attacker's and the defender's); a banner shows its one word, ``faces[0]``
    ("HALF-TIME").
    """

    kind: str
    text: str
    value: int | None = None
    sides: int = 6
    faces: tuple[str, ...] = ()


def _face(value: Any, card_name: Callable[[str], str]) -> str:
    """A card face: numbers as they are, a card code by its name."""
    if isinstance(value, list):
        return "+".join(_face(v, card_name) for v in value)
    return card_name(value) if isinstance(value, str) else str(value)


DIE_SIDES: dict[str, int] = {"big-time-soccer": 20}
"""Faces of the die each game rolls (six unless named here)."""


def animation_for(
    event: dict[str, Any], die_sides: int = 6, *, card_name: Callable[[str], str] = spelled_out
) -> Animation | None:
    """The animation an event deserves, or ``None`` (most events are only logged).

    Events are the rules' ``Event.to_json()`` dicts: a kind naming a roll or a die gets a
    rolling die (the number found in its data), a draw or a reveal of cards gets a card turn,
    a goal (the kind ``goal`` in every game) a banner. Cards are shown by ``card_name(code)`` (the board's names for them),
    never by their codes.
    """
    kind = str(event.get("kind", "")).lower()
    data = event.get("data") or {}
    text = str(event.get("text", ""))
    if kind == "goal":  # only a goal: not "goal_kick", "goal_kick_result" nor Soccero's "goal-kick"
        return Animation("goal", text)
    if kind.replace("_", "-") == "half-time":  # the break: the match does not just run on
        return Animation("banner", text, faces=("HALF-TIME",))
    if kind.replace("_", "-") == "extra-time":
        return Animation("banner", text, faces=("EXTRA TIME",))
    if kind == "shootout" and "scored" not in data:  # its start; its kicks carry "scored"
        return Animation("banner", text, faces=("SHOOT-OUT",))
    if any(word in kind for word in ("roll", "dice", "die", "d20")):
        value = next(
            (data[k] for k in _DIE_KEYS if isinstance(data.get(k), int) and not isinstance(data.get(k), bool)), None
        )
        sides = 20 if die_sides == 20 or "d20" in kind or (value is not None and value > 6) else 6
        return Animation("die", text, value, sides)
    if kind == "penalty" and data.get("goal") is False:  # Pawn Soccer: the keeper guarded the square shot at
        return Animation("banner", text, faces=("SAVED!",))
    for first, second in (("attacker", "defender"), ("shot", "save")):
        if first in data and second in data:
            return Animation("card", text, faces=(_face(data[first], card_name), _face(data[second], card_name)))
    if any(word in kind for word in ("draw", "reveal", "flip")):
        card = data.get("card")
        return Animation("card", text, faces=(card_name(card) if isinstance(card, str) else "?",))
    return None


def caption_at(animation: Animation, t: float) -> str:
    """The words under ``animation`` at ``t`` (0 to 1 of its length): a die's result only once
    it has settled, so the words never name a number the tumbling die does not show."""
    if animation.kind == "die" and t < ROLLING:
        return "Rolling…"
    return animation.text


class EventAnimation(QWidget):
    """A layer laid over a widget (the board) that plays a list of :class:`Animation`.

    Nothing lies over the board unless it is showing something: while no animation plays the
    layer is hidden, lets the mouse through and takes no focus, whatever shows its parent. It
    is not part of any layout: it follows the size of the widget it covers by itself.
    """

    done = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        """``parent``: the widget to cover while an animation plays (sized as it is)."""
        super().__init__(parent)
        self.setObjectName("animation")
        self.setAttribute(Qt.WidgetAttribute.WA_TranslucentBackground)
        self.setToolTip("Click or press any key to skip")
        self._queue: list[Animation] = []
        self._backdrop: QPixmap | None = None
        self._current: Animation | None = None
        self._duration = 0
        self._speed = 1.0
        self._focus_before: QWidget | None = None
        self._clock = QElapsedTimer()
        self._frame = QTimer(self)
        self._frame.setInterval(33)  # 30 frames a second: smooth enough, half the painting
        self._frame.timeout.connect(self._tick)
        self._set_idle(True)
        if parent is not None:
            parent.installEventFilter(self)
            self.setGeometry(parent.rect())

    @property
    def running(self) -> bool:
        return self._current is not None

    def setVisible(self, visible: bool) -> None:  # noqa: N802 (Qt API)
        # Whoever asks (a layout, a parent being shown, show() by mistake), an idle layer stays
        # hidden: shown while idle it would take the board's clicks and its first Tab.
        super().setVisible(visible and self.running)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt API)
        if watched is self.parentWidget() and event.type() == QEvent.Type.Resize:
            self.setGeometry(self.parentWidget().rect())
        return False

    def _set_idle(self, idle: bool) -> None:
        """Idle: hidden, transparent to the mouse, out of the focus chain. Playing: the opposite."""
        if idle and self.hasFocus():
            # Given back to where it was taken from before hiding: hidden with the focus, the
            # layer let Qt pass it on to the next widget in the window (online, the chat line,
            # where a keyboard player's next keys went).
            before = self._focus_before
            if before is not None and shiboken6.isValid(before) and before.isVisible():
                before.setFocus(Qt.FocusReason.OtherFocusReason)
            elif self.parentWidget() is not None:
                self.parentWidget().setFocus(Qt.FocusReason.OtherFocusReason)
        self._focus_before = None
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents, idle)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus if idle else Qt.FocusPolicy.StrongFocus)
        self.setVisible(not idle)

    def play(
        self, animations: list[Animation], speed: float, backdrop: QPixmap | None = None, *, take_focus: bool = True
    ) -> None:
        """Play ``animations`` one after another at ``speed`` (duration factor; 0 = skip).

        ``backdrop``: a picture of what lies below, painted first, so the widgets underneath
        need no repainting while the animation runs. ``take_focus``: take the keyboard (any key
        skips); not while the player types elsewhere, whose keys must go on where they went.
        """
        if speed <= 0 or not animations:
            self.done.emit()
            return
        self._speed = speed
        self._backdrop = backdrop
        self.setAttribute(Qt.WidgetAttribute.WA_TranslucentBackground, backdrop is None)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent, backdrop is not None)
        self._queue = list(animations)
        self._next()
        self._set_idle(False)
        self.raise_()
        if take_focus:
            self._focus_before = QApplication.focusWidget()
            self.setFocus()

    def skip(self) -> None:
        """End every queued animation now."""
        if self._current is None:
            return
        self._queue.clear()
        self._finish()

    def _next(self) -> None:
        if not self._queue:
            self._finish()
            return
        self._current = self._queue.pop(0)
        self._duration = int(BASE_MS[self._current.kind] * self._speed)
        self._clock.start()
        self._frame.start()
        self.update()

    def _finish(self) -> None:
        self._frame.stop()
        self._current = None
        self._backdrop = None
        self._set_idle(True)
        self.done.emit()

    def _tick(self) -> None:
        if self._clock.elapsed() >= self._duration:
            self._next()
        else:
            # Only the middle moves: repainting just it keeps the board below from being redrawn.
            self.update(self._moving_rect())

    def _moving_rect(self) -> QRect:
        side = min(self.width(), self.height()) * 0.28
        return QRect(0, int(self.height() / 2 - side * 1.0), self.width(), int(side * 2.2))

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt API)
        self.skip()
        event.accept()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt API)
        self.skip()
        event.accept()

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt API)
        current = self._current
        if current is None:
            return
        t = min(1.0, self._clock.elapsed() / max(1, self._duration))
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        if self._backdrop is not None:
            p.drawPixmap(self.rect(), self._backdrop)
        p.fillRect(self.rect(), QColor(8, 12, 18, 130))
        side = min(self.width(), self.height()) * 0.28
        centre = QPointF(self.width() / 2, self.height() / 2 - side * 0.2)
        if current.kind == "die":
            self._paint_die(p, current, t, centre, side)
        elif current.kind == "card":
            self._paint_card(p, current, t, centre, side)
        else:
            self._paint_goal(p, t, centre, side, current.faces[0] if current.kind == "banner" else "GOAL!")
        p.setPen(QColor("#ffffff"))
        font = ui_font(max(10.0, side * 0.1), bold=True)
        p.setFont(font)
        caption = QRectF(0, centre.y() + side * 0.75, self.width(), side * 0.5)
        p.drawText(
            caption,
            Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap,
            caption_at(current, t),
        )
        p.end()

    @staticmethod
    def _paint_die(p: QPainter, a: Animation, t: float, centre: QPointF, side: float) -> None:
        rolling = t < ROLLING
        # While it rolls, the face changes every few frames; then it settles on the real value.
        face = (int(t * 40) * 7 % a.sides) + 1 if rolling else a.value
        angle = (1 - min(1.0, t / ROLLING)) * 540
        p.save()
        p.translate(centre)
        p.rotate(angle)
        box = QRectF(-side / 2, -side / 2, side, side)
        if a.sides == 20:
            draw_d20(p, box, face)
        else:
            draw_die(p, box, face if face is None or face <= 6 else None)
        p.restore()

    @staticmethod
    def _paint_card(p: QPainter, a: Animation, t: float, centre: QPointF, side: float) -> None:
        # Cards turning over: each one's width shrinks to nothing and grows back showing the face.
        turn = min(1.0, t / 0.5)
        width_factor = abs(math.cos(turn * math.pi))
        face_up = turn >= 0.5
        faces = a.faces or ("",)
        w, h = side * 0.6 * max(0.04, width_factor), side * 0.9
        gap = side * 0.75
        for i, label in enumerate(faces):
            x = centre.x() + (i - (len(faces) - 1) / 2) * gap
            box = QRectF(x - w / 2, centre.y() - h / 2, w, h)
            p.setPen(QPen(QColor("#1b1b1b"), 2))
            p.setBrush(QColor("#fbf8ef") if face_up else QColor("#6b2432"))
            p.drawRoundedRect(box, 8, 8)
            if face_up and width_factor > 0.3:
                p.setPen(QColor("#1b1b1b"))
                font = ui_font(max(8.0, side * (0.2 if len(label) <= 3 else 0.07)), bold=True)
                p.setFont(font)
                p.drawText(box.adjusted(4, 4, -4, -4), Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, label)

    @staticmethod
    def _paint_goal(p: QPainter, t: float, centre: QPointF, side: float, word: str = "GOAL!") -> None:
        scale = 0.6 + 0.4 * min(1.0, t * 3)
        font = ui_font(side * (0.38 if len(word) <= 5 else 0.22) * scale, bold=True)
        p.setFont(font)
        box = QRectF(centre.x() - side * 2, centre.y() - side * 0.5, side * 4, side)
        p.setPen(QPen(QColor("#000000"), 3))
        p.setPen(QColor("#f0e442"))
        p.drawText(box, Qt.AlignmentFlag.AlignCenter, word)
