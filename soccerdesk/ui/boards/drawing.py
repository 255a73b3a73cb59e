"""Drawing and clicking helpers shared by the game boards.

Two parts:

* :class:`ClickPaths` and :class:`ClickBoard` turn the legal action texts of a view into
  sequences of clicks. A board says, for every legal text, which things the user clicks
  to play it (``move D5-D6`` -> ``("sq", "D5"), ("sq", "D6")``); the scene keeps the
  partial selection, highlights what may be clicked next, plays the text when a path is
  complete and explains a click that leads nowhere through the ``hint`` signal. Every text
  a board cannot place on its art gets a button, and texts that would share a path get a
  small chooser, so every legal action can always be played. A drag from the selected
  piece to a target counts as the second click; the keyboard plays through :meth:`ClickBoard.play`.
  A board draws in three layers: static items kept while :meth:`ClickBoard.static_signature`
  holds (pitch, squares), items rebuilt for each view, and an overlay rebuilt on each
  click (chooser, routes). Items read the marks when they paint, so a click repaints
  instead of rebuilding the board. A board with hundreds of squares gives them no item
  each: it finds them by geometry (:meth:`ClickBoard.grid_key_at`) and one marks layer
  paints the few marked ones.
* Painting helpers (:class:`Painted`, :func:`draw_die`, :func:`draw_token`, colours) so all
  art is drawn in code, in scene coordinates, and stays crisp at any zoom or pixel ratio.

Colours are chosen for colour-blind players: the legal-target marking differs from both team
colours in brightness and shape (a dashed ring with a dot), not only in hue.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, NamedTuple

from PySide6.QtCore import QPointF, QRectF, QSizeF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontInfo,
    QFontMetricsF,
    QLinearGradient,
    QPainter,
    QPainterPath,
    QPen,
    QRadialGradient,
)
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsSceneHelpEvent,
    QGraphicsSceneMouseEvent,
    QStyleOptionGraphicsItem,
    QToolTip,
    QWidget,
)

from soccerdesk.ui.boards.base import BoardConfig, BoardScene

Key = tuple[Any, ...]
"""One clickable thing on a board: ``("sq", "D6")``, ``("card", 2)``, ``("action", text)``."""

KEY_ROLE = 0
"""``QGraphicsItem.data`` slot holding an item's click key."""

LIGHT_MARKS_ABOVE = 40
"""With more legal targets than this, they are marked faintly (a set-up half, a long kick)."""

# --- colours -------------------------------------------------------------------------

TARGET = QColor("#fff35c")  # legal next click: bright, unlike the blue/orange team defaults
TARGET_EDGE = QColor("#1b1b1b")
SELECTED = QColor("#ffffff")
HOVER = QColor(255, 255, 255, 40)  # a legal target under the mouse: lighter, never framed as chosen
PREVIEW = QColor("#d23cf0")  # keyboard preview: a third hue plus a solid (not dashed) ring
PANEL = QColor("#1d2430")
PANEL_EDGE = QColor("#3a4556")
PANEL_TEXT = QColor("#e8edf4")
MUTED_TEXT = QColor("#9aa6b8")
CARD_FACE = QColor("#fbf8ef")
CARD_BACK = QColor("#6b2432")
DANGER = QColor("#c0392b")
WHITE = QColor("#ffffff")
DIE_FACE = QColor("#fdfdf8")
DIE_PIP = QColor("#1d1d1d")


def listed(words: Sequence[str], last: str = "and") -> str:
    """Words in a sentence: "7", "3 and 9", "3, 5 and 9" (``last``: the word before the last)."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {last} {words[-1]}"


# Text on the boards and in the pictures is sized in scene units, like the boxes, chips and card
# faces laid out around it: a size is what the text measures in points on a 96-DPI screen (its em
# is size x 96/72 units), whatever the logical DPI. Qt makes a point logicalDpi/72 pixels, and the
# logical DPI is 72 on macOS and 120 or 144 where X11 scales fonts only (Xft.dpi with the Floor or
# Round rounding policy, or high-DPI scaling off): text set in plain points came out 25% short of
# its boxes there, or 25-50% over them. So a size is given to Qt in the points that make as many
# units at the DPI it resolves a new font with, the primary screen's: a QFontMetricsF without a
# device measures with it, and the board view's viewport, a grab and a QImage draw with it. (A view
# on a second screen of another logical DPI would draw its text at that screen's DPI: Qt tells a
# font its device only as it paints.) At 96 DPI the points are the sizes themselves, so nothing
# there is drawn differently from before.
DESIGN_DPI = 96.0
"""The logical DPI at which a size in scene units is that many points."""

_DPI_PROBE_PIXELS = 720


def font_dpi() -> float:
    """The logical DPI Qt gives a font made now (the primary screen's; 96 with ``AA_Use96Dpi``)."""
    probe = QFont()
    probe.setPixelSize(_DPI_PROBE_PIXELS)
    return _DPI_PROBE_PIXELS * 72 / QFontInfo(probe).pointSizeF()


def scene_points(size: float) -> float:
    """The point size that draws text of ``size`` scene units (see :data:`DESIGN_DPI`)."""
    dpi = font_dpi()
    return size if dpi == DESIGN_DPI else size * DESIGN_DPI / dpi


def scene_size(font: QFont) -> float:
    """The size in scene units of a font made by :func:`ui_font` (or sized by :func:`scene_points`);
    its ``pointSizeF()`` is that size at 96 DPI only."""
    points = font.pointSizeF()
    dpi = font_dpi()
    return points if dpi == DESIGN_DPI else points * dpi / DESIGN_DPI


def ui_font(size: float, bold: bool = False) -> QFont:
    """A sans-serif font sized in scene units (scales with the view, the same at every DPI)."""
    font = QFont("DejaVu Sans")
    font.setStyleHint(QFont.StyleHint.SansSerif)
    font.setPointSizeF(scene_points(size))
    font.setBold(bold)
    return font


def piece_font(radius: float) -> QFont:
    """The font a piece of ``radius`` writes its number or letters in (:func:`draw_token`)."""
    return ui_font(radius * 0.8, bold=True)


def text_extent(text: str, size: float, bold: bool = False) -> QSizeF:
    """Width of the widest line of ``text`` and the height of all its lines in :func:`ui_font`
    ``size``, in scene units: measured at size 100 and scaled, since small sizes are measured
    in whole pixels."""
    metrics = QFontMetricsF(ui_font(100, bold))
    lines = text.split("\n")
    scale = size / 100
    return QSizeF(max(metrics.horizontalAdvance(line) for line in lines) * scale, metrics.height() * len(lines) * scale)


def ink_extent(text: str, font: QFont) -> QSizeF:
    """The size of the ink of one line of ``text`` in ``font`` (its glyphs, without the line's
    room above and below them), measured at size 100 and scaled like :func:`text_extent`."""
    big = QFont(font)
    big.setPointSizeF(scene_points(100))
    ink = QFontMetricsF(big).tightBoundingRect(text)
    scale = scene_size(font) / 100
    return QSizeF(ink.width() * scale, ink.height() * scale)


SMALLEST_ON_SCREEN = 8.0
"""The smallest text a board shows, on screen, as a :func:`ui_font` size (8 points on a 96-DPI
screen; as many pixels, so more points, on macOS): a side panel drawn at its own sizes never has
smaller text (its sizes are at least this), and a board's labels are made bigger to stay this
size while the board is drawn small."""

LEGEND_ROW = 19.0
"""The least height of a key's entry (its icon's size and more)."""
LEGEND_WRAP = Qt.AlignmentFlag.AlignVCenter | Qt.TextFlag.TextWordWrap
"""How a key's entry is written: beside its icon, on two lines when too long for one."""
KEY_TITLE = 28.0  # the least height of a panel's key (its title only), with the room under it
KEY_TITLE_LINE = 18.0  # the height of a key's title line
KEY_HOVER = ("KEY: rest the mouse here to read it", "KEY: rest the mouse here", "KEY: mouse here")
"""A key's title where only the title has room: the first that fits (beside a panel's heading)."""
COMPACT_ZOOM = 4 / 3  # a side panel zoomed more than this is drawn in its shorter form
ZOOM_STEP = 0.05  # a panel's zoom is rounded to this: resizing redraws at every step, not every pixel


def panel_zoom(board: QSizeF, panel_width: float, room: QSizeF) -> tuple[float, float]:
    """How a board of natural size ``board`` (scene units) whose side panel is the rightmost
    ``panel_width`` of it is shown in ``room`` (pixels): the board's scale (pixels per scene
    unit) and the panel's zoom (>= 1).

    A board shown at less than its natural size keeps its panel at its natural size on screen
    (zoom x scale >= 1, so the panel's words are never smaller than designed) and the pitch
    takes what is left: a small window shrinks the pitch, not the words beside it.
    """
    whole = min(room.width() / board.width(), room.height() / board.height())
    if whole >= 1 or panel_width <= 0 or panel_width >= board.width():
        return whole, 1.0
    scale = min(room.height() / board.height(), (room.width() - panel_width) / (board.width() - panel_width))
    if scale <= 0:
        return whole, 1.0
    zoom = max(1.0, math.ceil(1 / scale / ZOOM_STEP) * ZOOM_STEP)

    def fitted(zoom: float) -> float:  # the scale of the board with its panel zoomed
        return min(room.height() / board.height(), room.width() / (board.width() + (zoom - 1) * panel_width))

    while zoom * fitted(zoom) < 1 - 1e-9 and zoom < 10:  # rounded up, the panel made the board a little narrower
        zoom += ZOOM_STEP
    return fitted(zoom), round(zoom, 2)


def elided(text: str, size: float, width: float, bold: bool = False) -> str:
    """``text`` as it fits in ``width`` scene units in :func:`ui_font` ``size``: whole, or cut
    short with "…"."""
    metrics = QFontMetricsF(ui_font(size, bold))
    return metrics.elidedText(text, Qt.TextElideMode.ElideRight, width)


def two_lines(text: str, bold: bool = False) -> str:
    """``text`` broken once: before a "+ ..." part if there is one, else at the space that
    makes the wider line narrowest ("Dribble" / "Diagonal Right 1", not "... Right" / "1")."""
    head, plus, tail = text.partition(" + ")
    if plus:
        return f"{head}\n+ {tail}"
    cuts = [f"{text[:i]}\n{text[i + 1 :]}" for i, c in enumerate(text) if c == " "]
    return min(cuts, key=lambda cut: text_extent(cut, 10, bold).width(), default=text)


class Fitted(NamedTuple):
    """Text made to fit a room (:func:`fit_text`, :func:`fit_within`)."""

    font: QFont
    text: str
    size: float  # the font's size in scene units
    whole: bool = True  # False: it fits no way, and is shown at the smallest size all the same


def fit_text(
    text: str, room: QRectF, size: float, smallest: float, *, one_line_down_to: float, bold: bool = False
) -> Fitted:
    """The font and the text to draw in ``room``: on one line at the largest size from ``size``
    down to ``one_line_down_to`` that fits, else on two lines (:func:`two_lines`) at the
    largest size down to ``smallest`` that fits, else at ``smallest`` (``whole`` False)."""
    steps = int(round((size - smallest) / 0.1)) + 1
    sizes = [size - 0.1 * step for step in range(steps)]
    for shown, floor in ((text, one_line_down_to), (two_lines(text, bold), smallest)):
        for points in sizes:
            extent = text_extent(shown, points, bold)
            if points >= floor and extent.width() <= room.width() and extent.height() <= room.height():
                return Fitted(ui_font(points, bold), shown, points)
    return Fitted(ui_font(smallest, bold), two_lines(text, bold), smallest, whole=False)


def fit_within(
    text: str, width: float, height: float, size: float, smallest: float, *, one_line_down_to: float, bold: bool = False
) -> Fitted:
    """The font and the text to write ``text`` within ``width`` x ``height``: whole, made smaller or
    broken in two as :func:`fit_text` does; on one line elided with "…" only if it fits none of
    those ways (a name is never cut off mid-word without the "…")."""
    fitted = fit_text(text, QRectF(0, 0, width, height), size, smallest, one_line_down_to=one_line_down_to, bold=bold)
    if fitted.whole:
        return fitted
    font = ui_font(smallest, bold)
    return Fitted(font, QFontMetricsF(font).elidedText(text, Qt.TextElideMode.ElideRight, width), smallest, False)


def button_face(label: str, rect: QRectF, bold: bool, smallest: float = 6.0) -> tuple[QRectF, QFont, str]:
    """Where a button drawn in ``rect`` writes ``label``, in which font, on one line or two
    (:func:`fit_text`): a long label is made smaller or broken, never cut off (never smaller
    than ``smallest`` on one line, or on two lines while ``smallest`` is 6 or more)."""
    room = rect.adjusted(4, 1, -4, -1)
    size = max(smallest, min(8.8, rect.height() * 0.34))
    fitted = fit_text(label, room, size, smallest, one_line_down_to=max(6.8, smallest), bold=bold)
    return room, fitted.font, fitted.text


# --- selection logic -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ClickResult:
    """What one click did: ``play`` an action, change the ``select``-ion, or ``refuse``."""

    kind: str
    action: str | None = None


class ClickPaths:
    """Legal action texts as click sequences, and the partial selection made so far.

    A click extends the selection when some path continues with it, and completes an
    action when exactly one path ends there (and none goes on). Otherwise, clicking the
    last selected thing again plays the path that ends there, or else unselects it; a
    click that starts a path (another pawn, another card) starts over from it.
    """

    def __init__(self, paths: Mapping[str, Sequence[Key]]) -> None:
        self.paths: dict[str, tuple[Key, ...]] = {text: tuple(path) for text, path in paths.items()}
        self.selection: tuple[Key, ...] = ()
        self._next: dict[tuple[Key, ...], set[Key]] = {}

    def reset(self) -> None:
        self.selection = ()

    def matching(self, prefix: tuple[Key, ...]) -> list[str]:
        n = len(prefix)
        return [text for text, path in self.paths.items() if path[:n] == prefix]

    def rest_of(self, text: str, prefix: tuple[Key, ...]) -> tuple[Key, ...]:
        """The clicks that play ``text`` after ``prefix`` (one of its :meth:`matching`)."""
        return self.paths[text][len(prefix) :]

    def complete(self) -> str | None:
        """The action whose path is exactly the current selection, if any."""
        if not self.selection:
            return None
        for text, path in self.paths.items():
            if path == self.selection:
                return text
        return None

    def next_keys(self) -> set[Key]:
        """Keys that continue the current selection."""
        found = self._next.get(self.selection)
        if found is None:
            n = len(self.selection)
            found = {path[n] for path in self.paths.values() if len(path) > n and path[:n] == self.selection}
            self._next[self.selection] = found
        return found

    def first_keys(self) -> set[Key]:
        """Keys that start some path (clicking one starts over from it)."""
        found = self._next.get(())
        if found is None:
            found = self._next[()] = {path[0] for path in self.paths.values() if path}
        return found

    def click(self, key: Key) -> ClickResult:
        prefix = self.selection + (key,)
        found = self.matching(prefix)
        if found:
            longer = [t for t in found if len(self.paths[t]) > len(prefix)]
            if not longer and len(found) == 1:
                self.selection = ()
                return ClickResult("play", found[0])
            self.selection = prefix
            return ClickResult("select")
        if self.selection and key == self.selection[-1]:
            done = self.complete()
            if done is not None:
                self.selection = ()
                return ClickResult("play", done)
            self.selection = self.selection[:-1]
            return ClickResult("select")
        if self.selection and self.matching((key,)):
            self.selection = ()
            return self.click(key)
        return ClickResult("refuse")

    def ambiguous(self) -> list[tuple[str, str]]:
        """Pairs of actions with the same path (a board bug: one could never be played)."""
        seen: dict[tuple[Key, ...], str] = {}
        out = []
        for text, path in self.paths.items():
            if path in seen:
                out.append((seen[path], text))
            seen[path] = text
        return out


class AnyOrderPaths(ClickPaths):
    """Click paths where a pick of several things of one kind (three numbers to mark) may be
    clicked in any order: such a path counts as a set. A click on a thing already picked
    takes it back. Only where every path of that kind has the same length (else one thing
    could be a whole pick or the start of another); other paths keep their order."""

    def __init__(self, paths: Mapping[str, Sequence[Key]], kind: str) -> None:
        super().__init__(paths)
        picks = [path for path in self.paths.values() if path and all(key[0] == kind for key in path)]
        self._sets = {path: frozenset(path) for path in picks} if len({len(p) for p in picks}) == 1 else {}
        if any(len(path) < 2 or len(self._sets[path]) != len(path) for path in self._sets):
            self._sets = {}  # one thing a pick, or a thing twice: nothing to reorder

    def _fits(self, prefix: tuple[Key, ...], path: tuple[Key, ...]) -> bool:
        chosen = self._sets.get(path)
        if chosen is None:
            return path[: len(prefix)] == prefix
        return len(set(prefix)) == len(prefix) <= len(path) and chosen.issuperset(prefix)

    def matching(self, prefix: tuple[Key, ...]) -> list[str]:
        return [text for text, path in self.paths.items() if self._fits(prefix, path)]

    def rest_of(self, text: str, prefix: tuple[Key, ...]) -> tuple[Key, ...]:
        path = self.paths[text]
        if path in self._sets:  # picked in any order: the things not picked yet
            return tuple(key for key in path if key not in prefix)
        return super().rest_of(text, prefix)

    def complete(self) -> str | None:
        selection = self.selection
        if not selection:
            return None
        return next((t for t, p in self.paths.items() if len(p) == len(selection) and self._fits(selection, p)), None)

    def next_keys(self) -> set[Key]:
        found = self._next.get(self.selection)
        if found is None:
            n, found = len(self.selection), set()
            for path in self.paths.values():
                if len(path) > n and self._fits(self.selection, path):
                    chosen = self._sets.get(path)
                    found |= (chosen - set(self.selection)) if chosen is not None else {path[n]}
            self._next[self.selection] = found
        return found

    def click(self, key: Key) -> ClickResult:
        if key in self.selection[:-1]:  # a number picked before: taken back (the last one, as ever)
            self.selection = tuple(k for k in self.selection if k != key)
            return ClickResult("select")
        return super().click(key)


def settle_paths(paths: Mapping[str, Sequence[Key]], legal: Iterable[str]) -> dict[str, tuple[Key, ...]]:
    """Make every legal text reachable by exactly one click path.

    A text the board did not place gets its own button (``("action", text)``). Where two
    texts share a path, or one path ends where another goes on, each such text gets a
    final ``("action", text)`` click: the board shows a small chooser there.
    """
    out = {text: tuple(paths.get(text, ())) or (("action", text),) for text in legal}
    by_path: dict[tuple[Key, ...], list[str]] = {}
    for text, path in out.items():
        by_path.setdefault(path, []).append(text)
    prefixes = {path[:n] for path in out.values() for n in range(1, len(path))}
    for path, texts in by_path.items():
        if len(texts) > 1 or path in prefixes:
            for text in texts:
                out[text] = path + (("action", text),)
    return out


class ClickBoard(BoardScene):
    """A board whose actions are played by clicking keyed items (see :class:`ClickPaths`).

    Subclasses implement :meth:`click_paths` (action text -> keys), :meth:`draw` (build
    the items for the current view, reading :attr:`targets` and :attr:`selection` to
    highlight) and may improve :meth:`refusal_hint`. Items that do not change from view
    to view go in :meth:`draw_static`, rebuilt only when :meth:`static_signature` changes. Items become clickable with
    :meth:`make_clickable`; boards with a grid may override :meth:`key_at`.
    """

    def __init__(self, config: BoardConfig, parent: Any = None) -> None:
        super().__init__(config, parent)
        self.paths = ClickPaths({})
        self._paths_for: tuple[int, tuple[str, ...]] | None = None
        self._keyed: dict[Key, QGraphicsItem] = {}
        self._static_keyed: dict[Key, QGraphicsItem] = {}
        self._static_for: Any = object()
        self._dynamic: list[QGraphicsItem] = []
        self._recording = False
        self._overlay: list[QGraphicsItem] = []
        self._mark_layers: list[QGraphicsItem] = []
        self._marked: set[Key] = set()  # keys whose marks were painted last
        self._prompt = ""  # the panel's prompt for the position (see place_prompt)
        self._prompt_rect: QRectF | None = None
        self.hovered: Key | None = None
        self._drag_from: Key | None = None
        self.setBackgroundBrush(QBrush(QColor("#121820")))
        self.panel_zoom = 1.0  # how much bigger than designed the side panel is drawn (see fit_to)
        self.screen_scale = 1.0  # pixels per scene unit where the board is shown
        self._zoom_origin: QPointF | None = None  # inside zoomed_panel: the point items grow from
        self._prompt_origin: QPointF | None = None
        self._followed_ply = -1  # the move number of the last view follow_turn was given
        # How much of the side panel's height its content took at the last drawing (1: all):
        # the panel is never zoomed so much that its content would run past its bottom.
        self.panel_fill = 0.0

    own_buttons: frozenset[Key] = frozenset()
    """Keys of the board's own buttons, not on any action's click path (Soccero's "Place the
    rest for me"): a click on one is the board's to handle (:meth:`click`), and it works
    whenever it is drawn."""

    side_panel_width = 0.0
    """A board whose side panel stands along its right edge: the panel's width in scene units
    (its items are drawn in :meth:`zoomed_panel`, its height divided by :attr:`panel_zoom`)."""

    # --- to implement ------------------------------------------------------------------

    def click_paths(self, view: dict[str, Any]) -> dict[str, tuple[Key, ...]]:
        raise NotImplementedError

    def draw(self, view: dict[str, Any], events: list[dict[str, Any]]) -> None:
        raise NotImplementedError

    def make_paths(self, paths: dict[str, tuple[Key, ...]]) -> ClickPaths:
        """The click paths of a view's legal actions (boards whose picks go in any order:
        :class:`AnyOrderPaths`)."""
        return ClickPaths(paths)

    def refusal_hint(self, selection: tuple[Key, ...], key: Key) -> str:
        """Why clicking ``key`` after ``selection`` leads to no legal action."""
        if not self.legal():
            return "It is not your turn to act."
        return "That is not a legal choice now."

    def selection_hint(self, selection: tuple[Key, ...]) -> str:
        """What to do next after a selection (status bar text)."""
        return "Choose where to play it." if selection else ""

    def key_words(self, key: Key) -> str:
        """The clickable thing ``key`` named as the player sees it, to say what to click
        ("D6", 'the card "Pass Ahead 1"', 'the "Stop the chain" button')."""
        kind, *rest = key
        if kind == "action" and rest:
            return f'the "{self.action_label(str(rest[0]))}" button'
        if kind in ("card", "power") and rest:
            return f'the card "{self.card_name(str(rest[0]))}"'
        return " ".join(map(str, rest)) or str(kind)

    # --- state -----------------------------------------------------------------------------

    @property
    def selection(self) -> tuple[Key, ...]:
        return self.paths.selection

    @property
    def targets(self) -> set[Key]:
        """Keys the next click may take (what the board highlights)."""
        return self.paths.next_keys()

    def preview_keys(self) -> set[Key]:
        if self.preview is None:
            return set()
        return set(self.paths.paths.get(self.preview, ()))

    def set_view(self, view: dict[str, Any], events: list[dict[str, Any]] | None = None) -> None:
        if (view.get("ply", 0), tuple(view.get("legal", ()))) != self._paths_for:
            # A new decision: the target the mouse rests on from the last click is not framed
            # until the mouse moves (a shoot-out's "left", just shot at, looked chosen as the dive).
            self.hovered = None
        self.paths = ClickPaths({})
        self._paths_for = None
        ply = int(view.get("ply", 0))
        if ply < self._followed_ply:
            self.forget_turns()  # a position from before: Undo, a replay stepping back
        if ply != self._followed_ply:  # once per position: it is drawn again under an animation, and after it
            self.follow_turn(view, events or [])
            self._followed_ply = ply
        super().set_view(view, events)

    # --- the last turns drawn on the board (trails) ----------------------------------------

    def follow_turn(self, view: dict[str, Any], events: list[dict[str, Any]]) -> None:
        """Carry the memory of the last turns on through ``events``, the events that led to
        ``view``. :meth:`set_view` calls it once per move number (``view["ply"]``), after
        :meth:`forget_turns` when the move number went back; the default remembers nothing."""

    def forget_turns(self) -> None:
        """Drop the memory of the last turns (see :meth:`follow_turn`)."""

    def retrace(self, steps: Iterable[tuple[dict[str, Any], list[dict[str, Any]]]]) -> None:
        """Forget the last turns and follow ``steps`` (each a view and the events that led to
        it, from the start of a match on), without drawing: the next :meth:`set_view`, of the
        position after the last step, shows the last turns as if each position had been shown
        in turn (the replay viewer's jumps: a slider drag, a log row, End). Boards that set
        :attr:`follows_turns` implement :meth:`follow_turn` and :meth:`forget_turns`."""
        self.forget_turns()
        self._followed_ply = -1
        for view, events in steps:
            self.follow_turn(view, events)
            self._followed_ply = int(view.get("ply", 0))

    def render(self, view: dict[str, Any], events: list[dict[str, Any]]) -> None:  # type: ignore[override]  # BoardScene.render by design
        if not view.get("state"):  # nothing to show yet (a match window before its first view)
            self.clear()
            self._keyed, self._static_keyed, self._dynamic, self._overlay = {}, {}, [], []
            self._mark_layers = []
            self._static_for = object()
            self.paths = ClickPaths({})
            return
        stamp = (view.get("ply", 0), tuple(view.get("legal", ())))
        if stamp != self._paths_for:
            self.paths = self.make_paths(settle_paths(self.click_paths(view), view.get("legal", ())))
            self._paths_for = stamp
        signature = self.static_signature(view)
        if signature != self._static_for:
            self.clear()
            self._keyed = {}
            self._dynamic = []
            self._mark_layers = []
            self._static_for = signature
            self.draw_static(view)
            self._static_keyed = dict(self._keyed)
            self._marked = set()
        else:
            for item in self._dynamic:
                self.removeItem(item)
            self._keyed = dict(self._static_keyed)
        self._dynamic = []
        self._overlay = []
        self._prompt_rect = None
        self._recording = True
        try:
            self.draw(view, events)
        finally:
            self._recording = False
        self._draw_overlay_layer()
        self._invalidate_marks()

    def _invalidate_marks(self) -> None:
        # Items may be cached as pixmaps (a board's pitch, the match view's for animations):
        # the ones whose marks were or are shown must be told to repaint, a scene update is
        # not enough. The others are left alone: repainting a whole board on every view
        # costs tens of milliseconds on a big board.
        marked = self.targets | set(self.selection) | self.preview_keys()
        for key in marked | self._marked:
            item = self._keyed.get(key)
            if item is not None:
                item.update()
        self._marked = marked
        for layer in self._mark_layers:
            layer.update()

    def _repaint_key(self, key: Key | None) -> None:
        """Repaint what shows the marks of ``key``: its item, or the marks layer under its grid cell."""
        if key is None:
            return
        item = self._keyed.get(key)
        if item is not None:
            item.update()
            return
        cell = self.grid_rect(key)
        if cell is not None:
            # Through the layers, not a scene update: a layer cached as a pixmap would not repaint.
            for layer in self._mark_layers:
                layer.update(layer.mapRectFromScene(cell))

    def add_marks_layer(self, rect: QRectF) -> QGraphicsItem:
        """One item over ``rect`` that paints the marks of the grid cells (:meth:`grid_rect`).

        For boards with hundreds of clickable squares: the squares need no item each (see
        :meth:`grid_key_at`), and a repaint costs one call for the few marked squares
        instead of one call per square. Add it in :meth:`draw_static`.
        """

        def paint(p: QPainter, r: QRectF) -> None:
            for key in self.targets | set(self.selection) | self.preview_keys():
                cell = self.grid_rect(key)
                if cell is not None:
                    self.paint_marks(p, cell.translated(-rect.topLeft()), key)

        layer = Painted(rect, paint)
        layer.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.addItem(layer)
        self._mark_layers.append(layer)
        return layer

    def grid_key_at(self, pos: QPointF) -> Key | None:
        """The grid cell at a scene position, for boards whose squares have no item each (none by default)."""
        return None

    def grid_rect(self, key: Key) -> QRectF | None:
        """The scene rect of grid cell ``key`` (None: not a grid cell)."""
        return None

    def grid_tooltip(self, key: Key) -> str:
        """The tooltip of grid cell ``key``."""
        return ""

    def helpEvent(self, event: QGraphicsSceneHelpEvent) -> None:  # noqa: N802 (Qt API)
        """Tooltips: an item's own first, else the grid cell's under the mouse."""
        pos = event.scenePos()
        if not any(item.toolTip() for item in self.items(pos)):
            key = self.grid_key_at(pos)
            text = self.grid_tooltip(key) if key is not None else ""
            if text:
                QToolTip.showText(event.screenPos(), text, event.widget())
                event.accept()
                return
        super().helpEvent(event)

    def _draw_overlay_layer(self) -> None:
        start = len(self._dynamic)
        self._recording = True
        try:
            self.draw_overlay()
        finally:
            self._recording = False
        self._overlay = self._dynamic[start:]

    def static_signature(self, view: dict[str, Any]) -> Any:
        """What the static layer (:meth:`draw_static`) depends on; it is redrawn when this changes."""
        return None

    def draw_static(self, view: dict[str, Any]) -> None:
        """Items that stay from view to view (the pitch, the squares); they read the marks when painting."""

    def addItem(self, item: QGraphicsItem) -> None:  # noqa: N802 (Qt API)
        """Add an item; those added by :meth:`draw` are removed again at the next view."""
        super().addItem(item)
        origin = self._zoom_origin
        if origin is not None and self.panel_zoom != 1:
            item.setScale(item.scale() * self.panel_zoom)
            item.setPos(origin + (item.pos() - origin) * self.panel_zoom)
        if self._recording:
            self._dynamic.append(item)

    @contextmanager
    def zoomed_panel(self, origin: QPointF) -> Iterator[float]:
        """Items added inside are the side panel's: drawn :attr:`panel_zoom` times bigger,
        growing from ``origin`` (the panel's top left corner). Yields the zoom: the panel's
        height in scene units is its height on the board divided by it."""
        self._zoom_origin = origin
        try:
            yield self.panel_zoom
        finally:
            self._zoom_origin = None

    @property
    def compact_panel(self) -> bool:
        """The side panel is drawn so much bigger than designed (a small view) that it has under
        3/4 of its height: boards show its shorter form (two teams on one row, a shorter key)."""
        return self.panel_zoom > COMPACT_ZOOM

    def key_place(self, top: float, height: float, bottom: float) -> tuple[float, float]:
        """Where the key of a zoomed side panel (of ``height`` at zoom 1, from ``top``) stands,
        its bottom edge at the panel's foot, and the room the panel leaves it under content that
        ends at ``bottom``; notes how much of the panel the content fills (:attr:`panel_fill`)."""
        self.panel_fill = (bottom - top + KEY_TITLE) / height
        foot = top + height / self.panel_zoom - 10
        return foot, foot - bottom

    def smallest_button_text(self) -> float:
        """The smallest a button's label may be made to fit (:func:`button_face`), in scene units."""
        # In a side panel drawn bigger than designed (a small view), the designed size is the
        # size on screen: no smaller than the smallest text.
        return SMALLEST_ON_SCREEN if self._zoom_origin is not None and self.panel_zoom > 1 else 6.0

    def label_size(self, size: float) -> float:
        """A board label's font size: ``size``, or bigger while the board is drawn so small that
        ``size`` would read under :data:`SMALLEST_ON_SCREEN` points."""
        return max(size, SMALLEST_ON_SCREEN / self.screen_scale)

    def fit_to(self, room: QSizeF, bounds: QRectF) -> bool:
        """Lay the board out for a view of ``room`` pixels showing ``bounds`` (the items' rect
        now): the side panel's zoom (:func:`panel_zoom`) and the labels' size follow the
        scale the board is shown at. True when the board was drawn again for it. Boards
        without a side panel to zoom (:attr:`side_panel_width` 0) are left as they are."""
        if self.side_panel_width <= 0:
            return False
        natural = QSizeF(bounds.width() - (self.panel_zoom - 1) * self.side_panel_width, bounds.height())
        if natural.isEmpty() or room.isEmpty():
            return False
        scale, zoom = panel_zoom(natural, self.side_panel_width, room)
        if self.panel_fill > 0:
            zoom = max(1.0, min(zoom, math.floor(1 / self.panel_fill / ZOOM_STEP) * ZOOM_STEP))
        return self.lay_out(zoom, scale)

    def lay_out(self, zoom: float, scale: float, *, step: float = ZOOM_STEP, force: bool = False) -> bool:
        """Draw the board again for a panel ``zoom`` and a ``scale`` on screen (pixels per
        scene unit; rounded down to a ``step``, so a resize by a few pixels keeps the drawing it
        has) unless it is drawn for them already and not ``force``; True when it was drawn again."""
        scale = max(ZOOM_STEP, math.floor(scale / step) * step)
        if not force and (zoom, scale) == (self.panel_zoom, self.screen_scale):
            return False
        self.panel_zoom, self.screen_scale = zoom, scale
        if self.view_data is None or not self.view_data.get("state"):
            return False
        self._static_for = object()  # the pitch's labels and the key are drawn again too
        self.render(self.view_data, [])
        return True

    def redraw(self) -> None:
        """Show a changed selection or preview: items read the marks when they paint."""
        for item in self._overlay:
            self._keyed.pop(item.data(KEY_ROLE), None)
            self._dynamic.remove(item)
            self.removeItem(item)
        self._draw_overlay_layer()
        self._invalidate_marks()
        self.update()

    def set_preview(self, action_text: str | None) -> None:
        self.preview = action_text
        self.redraw()

    def loose_actions(self) -> list[str]:
        """Legal texts played by a button of their own (no place on the art)."""
        return [text for text, path in self.paths.paths.items() if path == (("action", text),)]

    def action_label(self, text: str) -> str:
        """Short button text for an action (the chooser and the action buttons)."""
        return text

    def draw_overlay(self) -> None:
        """Items that follow the selection and the keyboard preview (rebuilt on every click)."""
        self.draw_chooser()
        if self._prompt_rect is not None:
            prompt = self.selection_hint(self.paths.selection) or self._prompt
            self._zoom_origin = self._prompt_origin
            try:
                self.add_text(
                    self._prompt_rect.topLeft(), prompt, 10, PANEL_TEXT, bold=True, width=self._prompt_rect.width()
                )
            finally:
                self._zoom_origin = None

    def place_prompt(self, pos: QPointF, width: float, prompt: str, longest: Sequence[str] = ()) -> float:
        """The panel's prompt at ``pos`` (call from :meth:`draw`): ``prompt``, or while an action
        is being built click by click, its next step (:meth:`selection_hint`): the prompt follows
        the clicks. Room is kept for the longest of ``prompt`` and ``longest`` (what the steps
        may say); returns that height."""
        metrics = QFontMetricsF(ui_font(10, bold=True))
        wrap = int(Qt.AlignmentFlag.AlignLeft | Qt.TextFlag.TextWordWrap)
        height = max(
            metrics.boundingRect(QRectF(0, 0, width, 10_000), wrap, t).height() + 2 for t in (prompt, *longest)
        )
        self._prompt, self._prompt_rect = prompt, QRectF(pos.x(), pos.y(), width, height)
        self._prompt_origin = self._zoom_origin  # a prompt in a zoomed panel is drawn zoomed
        return height

    def draw_chooser(self) -> None:
        """Buttons beside the last selected thing when several actions end on it."""
        if not self.paths.selection:
            return
        choices = sorted(k[1] for k in self.targets if isinstance(k, tuple) and len(k) == 2 and k[0] == "action")
        anchor = self.pos_of(self.paths.selection[-1])
        if not choices or anchor is None:
            return
        width, height = 118.0, 26.0
        bounds = self.sceneRect()
        x = min(max(anchor.x() + 16, bounds.left()), bounds.right() - width)
        y = min(max(anchor.y() - height * len(choices) / 2, bounds.top()), bounds.bottom() - height * len(choices) - 4)
        for i, text in enumerate(choices):
            item = self.add_button(
                QRectF(x, y + i * (height + 4), width, height), self.action_label(text), ("action", text), tooltip=text
            )
            item.setZValue(50)

    # --- clicking --------------------------------------------------------------------

    def make_clickable(self, item: QGraphicsItem, key: Key, tooltip: str = "") -> QGraphicsItem:
        item.setData(KEY_ROLE, key)
        self._keyed[key] = item
        item.setCursor(Qt.CursorShape.PointingHandCursor)
        if tooltip:
            item.setToolTip(tooltip)
        return item

    def key_at(self, pos: QPointF) -> Key | None:
        """The click key at a scene position (topmost keyed item)."""
        for item in self.items(pos):
            key = item.data(KEY_ROLE)
            if key is not None:
                return key
        return self.grid_key_at(pos)

    def item_for(self, key: Key) -> QGraphicsItem | None:
        return self._keyed.get(key)

    def pos_of(self, key: Key) -> QPointF | None:
        """A scene point where a click means ``key`` (centre of its item)."""
        item = self.item_for(key)
        if item is None:
            cell = self.grid_rect(key)
            return None if cell is None else cell.center()
        return item.mapToScene(item.boundingRect().center())

    def click(self, key: Key) -> None:
        """The user clicked the thing ``key``."""
        before = self.paths.selection
        result = self.paths.click(key)
        if result.kind == "play" and result.action is not None:
            self.redraw()
            self.choose(result.action)
        elif result.kind == "select":
            self.redraw()
            hint = self.selection_hint(self.paths.selection)
            if hint:
                self.hint.emit(hint)
        else:
            self.hint.emit(self.refusal_hint(before, key))

    def click_at(self, pos: QPointF) -> bool:
        """Click at a scene position; False when nothing clickable is there."""
        key = self.key_at(pos)
        if key is None:
            return False
        self.click(key)
        return True

    def play(self, action: str) -> bool:
        """Play ``action`` as a user would: click each thing on its path where it is drawn.

        Keyboard play (Enter on the previewed action) goes through here so it highlights
        and refuses exactly like the mouse. False when a step has nothing drawn to click.
        """
        self.cancel_selection()
        for key in self.paths.paths.get(action, (("action", action),)):
            pos = self.pos_of(key)
            if pos is None or self.key_at(pos) != key:
                return False
            self.click_at(pos)
        return True

    def paint_marks(self, p: QPainter, r: QRectF, key: Key) -> None:
        """Target / selected / preview marks of ``key``, faint when targets cover much of the board;
        a legal target under the mouse gets a bright frame."""
        targets = self.targets
        draw_marks(p, r, key, targets, self.selection, self.preview_keys(), light=len(targets) > LIGHT_MARKS_ABOVE)
        if key == self.hovered and key in targets and key not in self.selection:
            # QA: a white frame here read as the key's "white: chosen", so the square last
            # clicked, the mouse still on it, looked chosen. Under the mouse: lighter, a thin line.
            p.setBrush(HOVER)
            p.setPen(QPen(TARGET, max(1.0, min(r.width(), r.height()) * 0.03)))
            p.drawRect(r.adjusted(1, 1, -1, -1))

    def forget_hover(self) -> None:
        """The mouse has left the board (or the board was covered): no target stays framed as
        under it. A frame kept from before a hot-seat hand-over showed the next player the square
        the last one had just clicked (a keeper's secret penalty dive)."""
        old, self.hovered = self.hovered, None
        self._repaint_key(old)

    def mouseMoveEvent(self, event: QGraphicsSceneMouseEvent) -> None:  # noqa: N802 (Qt API)
        key = self.key_at(event.scenePos())
        if key != self.hovered:
            old, self.hovered = self.hovered, key
            self._repaint_key(old)
            self._repaint_key(key)
        super().mouseMoveEvent(event)

    def show_refusal(self, reason: str) -> None:
        """The rules refused the action: drop the selection and say why."""
        self.cancel_selection()
        self.hint.emit(reason)

    def cancel_selection(self) -> None:
        if self.paths.selection:
            self.paths.reset()
            self.redraw()

    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:  # noqa: N802 (Qt API)
        if event.button() == Qt.MouseButton.RightButton:
            self.cancel_selection()
            event.accept()
            return
        if event.button() == Qt.MouseButton.LeftButton:
            key = self.key_at(event.scenePos())
            if key is not None:
                self.click(key)
                # Dragging from what was just selected to a target plays like a second click.
                self._drag_from = key if self.paths.selection[-1:] == (key,) else None
                event.accept()
                return
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QGraphicsSceneMouseEvent) -> None:  # noqa: N802 (Qt API)
        start, self._drag_from = self._drag_from, None
        if start is not None and event.button() == Qt.MouseButton.LeftButton:
            key = self.key_at(event.scenePos())
            if key is not None and key != start and self.paths.selection[-1:] == (start,):
                self.click(key)
                event.accept()
                return
        super().mouseReleaseEvent(event)

    def keyPressEvent(self, event: Any) -> None:  # noqa: N802 (Qt API)
        if event.key() == Qt.Key.Key_Escape and self.paths.selection:
            self.cancel_selection()
            event.accept()
            return
        super().keyPressEvent(event)

    # --- common pieces -----------------------------------------------------------------

    def add_button(
        self, rect: QRectF, label: str, key: Key, *, tooltip: str = "", accent: QColor | None = None
    ) -> QGraphicsItem:
        """A push button drawn in the scene; highlighted while it is a legal next click (or one
        of :attr:`own_buttons`)."""

        smallest = self.smallest_button_text()

        def paint(p: QPainter, r: QRectF) -> None:
            chosen = key in self.selection
            lit = chosen or key in self.own_buttons or key in self.targets or key in self.paths.first_keys()
            previewed = key in self.preview_keys()
            fill = accent or QColor("#2d6cdf")
            if not lit:
                fill = QColor("#3b4454")
            grad = QLinearGradient(r.topLeft(), r.bottomLeft())
            grad.setColorAt(0, fill.lighter(125))
            grad.setColorAt(1, fill.darker(115))
            p.setBrush(grad)
            edge = SELECTED if chosen else PREVIEW if previewed else (TARGET if lit else PANEL_EDGE)
            p.setPen(QPen(edge, 3.2 if chosen else 2.2 if (lit or previewed) else 1))
            p.drawRoundedRect(r.adjusted(1, 1, -1, -1), 6, 6)
            p.setPen(PANEL_TEXT if lit else MUTED_TEXT)
            room, font, text = button_face(label, r, lit, smallest)
            p.setFont(font)
            p.drawText(room, Qt.AlignmentFlag.AlignCenter, text)

        item = Painted(rect, paint)
        self.addItem(item)
        self.make_clickable(item, key, tooltip or label)
        return item

    def add_route(
        self, points: Sequence[QPointF], *, dashed: bool = False, end_dot: bool = False, alpha: int = 200
    ) -> QGraphicsItem | None:
        """A white line through ``points`` (a ball's route, the last move); not clickable."""
        if len(points) < 2:
            return None
        box = QRectF(points[0], points[0])
        for pt in points:
            box = box.united(QRectF(pt, pt))
        box = box.adjusted(-8, -8, 8, 8)
        local = [pt - box.topLeft() for pt in points]

        def paint(p: QPainter, r: QRectF) -> None:
            pen = QPen(QColor(255, 255, 255, alpha), 2.6, Qt.PenStyle.DashLine if dashed else Qt.PenStyle.SolidLine)
            pen.setCapStyle(Qt.PenCapStyle.RoundCap)
            p.setPen(pen)
            path = QPainterPath(local[0])
            for pt in local[1:]:
                path.lineTo(pt)
            p.drawPath(path)
            if end_dot:
                p.setBrush(QColor(255, 255, 255, alpha))
                p.setPen(Qt.PenStyle.NoPen)
                p.drawEllipse(local[-1], 4, 4)

        item = Painted(box, paint)
        item.setZValue(3)
        item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.addItem(item)
        return item

    def add_legend(
        self,
        bottom_left: QPointF,
        width: float,
        entries: Sequence[
            tuple[Callable[[QPainter, QRectF], None], str] | tuple[Callable[[QPainter, QRectF], None], str, str]
        ],
        room: float = math.inf,
        *,
        short: bool | None = False,
        aside: QRectF | None = None,
    ) -> QGraphicsItem:
        """A "how to read the board" key: one small drawn icon and a line of text per entry,
        standing on ``bottom_left``. An entry may give a shorter text too: a panel drawn in its
        short form (:attr:`compact_panel`, or ``short``; ``None``: where the whole key has not
        ``room``) shows those, two to a row, and the whole key when the mouse rests on it. With less than its height of ``room`` above ``bottom_left``, only
        its title is shown, and the key when the mouse rests on it. With less room than even
        the title's (:data:`KEY_TITLE_LINE`), the title stands in ``aside`` (the room beside the
        panel's heading), right-aligned and in fewer words if need be, not over what is above
        ``bottom_left``."""
        row = LEGEND_ROW
        compact, texts, tops = self._legend_rows(width, entries, bool(short))
        if short is None and tops[-1] > room:
            compact, texts, tops = self._legend_rows(width, entries, True)
        columns = 2 if compact else 1
        column_w = width / columns
        wrap = int(LEGEND_WRAP)
        shown = tops[-1] <= room  # no room above bottom_left: the key's title only
        title = "KEY" if shown else KEY_HOVER[0]
        if shown:
            rect = QRectF(bottom_left.x(), bottom_left.y() - tops[-1], width, tops[-1])
        elif room >= KEY_TITLE_LINE or aside is None:
            rect = QRectF(bottom_left.x(), bottom_left.y() - KEY_TITLE_LINE, width, KEY_TITLE_LINE)
        else:
            fitting = [words for words in KEY_HOVER if text_extent(words, 8, bold=True).width() + 8 <= aside.width()]
            title = fitting[0] if fitting else KEY_HOVER[-1]
            title_w = text_extent(title, 8, bold=True).width() + 8  # a little over: small sizes measure wider
            rect = QRectF(aside.right() - title_w, aside.top(), title_w, KEY_TITLE_LINE)

        def paint(p: QPainter, r: QRectF) -> None:
            p.setPen(MUTED_TEXT)
            p.setFont(ui_font(8, bold=True))
            p.drawText(QRectF(0, 0, r.width(), 14), Qt.AlignmentFlag.AlignLeft, title)
            if not shown:
                return
            for index, ((icon, *_), text) in enumerate(zip(entries, texts, strict=True)):
                left, top = (index % columns) * column_w, tops[index // columns]
                height = tops[index // columns + 1] - top
                p.save()
                icon(p, QRectF(left, top + (height - row) / 2, row - 3, row - 3))
                p.restore()
                p.setPen(MUTED_TEXT)
                p.setFont(ui_font(8))
                p.drawText(QRectF(left + row + 4, top, column_w - row - 4, height - 3), wrap, text)

        item = Painted(rect, paint)
        item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        if compact or not shown:
            item.setToolTip("\n".join(entry[1] for entry in entries))
        self.addItem(item)
        return item

    def _legend_rows(
        self, width: float, entries: Sequence[tuple[Any, ...]], short: bool
    ) -> tuple[bool, list[str], list[float]]:
        """A key's layout: in its short form or not, the texts it shows, and the top of each row
        of entries under its title, the key's height last."""
        compact = (self.compact_panel or short) and all(len(entry) == 3 for entry in entries)
        columns = 2 if compact else 1
        column_w = width / columns
        texts = [str(entry[2] if compact else entry[1]) for entry in entries]
        # Each entry on a line, or on two when it is too long for one (its row is taller).
        metrics = QFontMetricsF(ui_font(8))
        wrap = int(LEGEND_WRAP)
        heights = [
            max(
                LEGEND_ROW, metrics.boundingRect(QRectF(0, 0, column_w - LEGEND_ROW - 4, 1000), wrap, text).height() + 3
            )
            for text in texts
        ]
        tops = [18.0]
        for start in range(0, len(entries), columns):
            tops.append(tops[-1] + max(heights[start : start + columns]))
        return compact, texts, tops

    def add_panel(self, rect: QRectF, title: str = "") -> QGraphicsItem:
        """A dark rounded panel with an optional title (side bars, hands)."""

        def paint(p: QPainter, r: QRectF) -> None:
            p.setBrush(PANEL)
            p.setPen(QPen(PANEL_EDGE, 1.2))
            p.drawRoundedRect(r.adjusted(0.5, 0.5, -0.5, -0.5), 10, 10)
            if title:
                p.setPen(MUTED_TEXT)
                p.setFont(ui_font(8.5, bold=True))
                p.drawText(
                    r.adjusted(10, 4, -10, 0), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, title.upper()
                )

        item = Painted(rect, paint)
        item.setZValue(-5)
        self.addItem(item)
        return item

    def add_text(
        self,
        pos: QPointF,
        text: str,
        size: float = 10,
        colour: QColor = PANEL_TEXT,
        *,
        bold: bool = False,
        width: float = 0,
        align: Qt.AlignmentFlag = Qt.AlignmentFlag.AlignLeft,
    ) -> QGraphicsItem:
        """Text in scene units; ``width`` > 0 wraps within that width."""
        font = ui_font(size, bold)
        metrics = QFontMetricsF(font)
        if width:
            bound = metrics.boundingRect(QRectF(0, 0, width, 10_000), int(align | Qt.TextFlag.TextWordWrap), text)
            rect = QRectF(pos.x(), pos.y(), width, bound.height() + 2)
        else:
            bound = metrics.boundingRect(QRectF(0, 0, 10_000, 10_000), int(align), text)
            rect = QRectF(pos.x(), pos.y(), bound.width() + 4, bound.height() + 2)

        def paint(p: QPainter, r: QRectF) -> None:
            p.setPen(colour)
            p.setFont(font)
            p.drawText(r, align | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap, text)

        item = Painted(rect, paint)
        self.addItem(item)
        return item

    def add_action_buttons(
        self,
        texts: Iterable[str],
        origin: QPointF,
        width: float,
        height: float = 26,
        gap: float = 6,
        columns: int = 1,
        labels: Mapping[str, str] | None = None,
    ) -> float:
        """One button per action text (key ``("action", text)``); returns the y below them."""
        texts = list(texts)
        col_w = (width - gap * (columns - 1)) / columns
        y = origin.y()
        for i, text in enumerate(texts):
            col = i % columns
            if col == 0 and i:
                y += height + gap
            rect = QRectF(origin.x() + col * (col_w + gap), y, col_w, height)
            self.add_button(rect, (labels or {}).get(text, text), ("action", text), tooltip=self.action_tooltip(text))
        return y + (height + gap if texts else 0)

    def action_tooltip(self, action_text: str) -> str:
        """What an action's button says when the mouse rests on it: the action in full words
        (a button's label is short), and boards may add what it can and cannot do."""
        return self.describe(action_text)


# --- painting ----------------------------------------------------------------------------


class Painted(QGraphicsItem):
    """An item that paints itself with a function ``paint(painter, rect)``; rect is local."""

    def __init__(
        self, rect: QRectF, paint: Callable[[QPainter, QRectF], None], parent: QGraphicsItem | None = None
    ) -> None:
        super().__init__(parent)
        self._rect = QRectF(0, 0, rect.width(), rect.height())
        self._paint = paint
        self.setPos(rect.topLeft())

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt API)
        return self._rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        self._paint(painter, self._rect)


def draw_team_strip(p: QPainter, rr: QRectF, colour: QColor, highlighted: bool) -> None:
    """The backdrop of a team's row in a board's panel: a rounded card, brighter when
    ``highlighted`` (that side has the ball or the turn), with the team colour as a bar at its
    left edge. Leaves the pen set for the row's text."""
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor(255, 255, 255, 34 if highlighted else 16))
    p.drawRoundedRect(rr, 8, 8)
    p.setBrush(colour)
    p.drawRoundedRect(QRectF(0, 0, 6, rr.height()), 3, 3)
    p.setPen(PANEL_TEXT)


_PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.27, 0.27), (0.73, 0.73)],
    3: [(0.27, 0.27), (0.5, 0.5), (0.73, 0.73)],
    4: [(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)],
    5: [(0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)],
    6: [(0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)],
}


def draw_die(p: QPainter, r: QRectF, value: int | None, *, face: QColor = DIE_FACE, pip: QColor = DIE_PIP) -> None:
    """A six-sided die showing ``value`` (pips 1-6; other numbers as text; None blank)."""
    grad = QLinearGradient(r.topLeft(), r.bottomRight())
    grad.setColorAt(0, face)
    grad.setColorAt(1, face.darker(118))
    p.setBrush(grad)
    p.setPen(QPen(QColor("#555"), max(0.8, r.width() * 0.03)))
    p.drawRoundedRect(r, r.width() * 0.18, r.width() * 0.18)
    if value is None:
        return
    if value in _PIPS:
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(pip)
        rad = r.width() * 0.09
        for fx, fy in _PIPS[value]:
            p.drawEllipse(QPointF(r.left() + fx * r.width(), r.top() + fy * r.height()), rad, rad)
    else:
        p.setPen(pip)
        p.setFont(ui_font(r.height() * 0.36, bold=True))
        p.drawText(r, Qt.AlignmentFlag.AlignCenter, str(value))


def draw_d20(p: QPainter, r: QRectF, value: int | None) -> None:
    """A twenty-sided die seen from above: a hexagon with a triangle face and the number."""
    c = r.center()
    rad = min(r.width(), r.height()) / 2
    hexagon = QPainterPath()
    for i in range(6):
        ang = math.radians(90 + 60 * i)
        pt = QPointF(c.x() + rad * math.cos(ang), c.y() - rad * math.sin(ang))
        if i == 0:
            hexagon.moveTo(pt)
        else:
            hexagon.lineTo(pt)
    hexagon.closeSubpath()
    grad = QLinearGradient(r.topLeft(), r.bottomRight())
    grad.setColorAt(0, QColor("#e23a4d"))
    grad.setColorAt(1, QColor("#8e1422"))
    p.setBrush(grad)
    p.setPen(QPen(QColor("#4a0a12"), rad * 0.05))
    p.drawPath(hexagon)
    tri = QPainterPath()
    tri.moveTo(c.x(), c.y() - rad * 0.62)
    tri.lineTo(c.x() + rad * 0.62, c.y() + rad * 0.42)
    tri.lineTo(c.x() - rad * 0.62, c.y() + rad * 0.42)
    tri.closeSubpath()
    p.setPen(QPen(QColor(255, 255, 255, 90), rad * 0.035))
    p.setBrush(QColor(255, 255, 255, 28))
    p.drawPath(tri)
    p.setPen(QColor("#ffffff"))
    p.setFont(ui_font(rad * 0.42, bold=True))
    p.drawText(
        QRectF(c.x() - rad, c.y() - rad * 0.35, 2 * rad, rad * 0.75),
        Qt.AlignmentFlag.AlignCenter,
        "–" if value is None else str(value),
    )


def draw_token(
    p: QPainter,
    centre: QPointF,
    radius: float,
    fill: QColor,
    text: str = "",
    text_colour: QColor = WHITE,
    *,
    ring: QColor | None = None,
    square: bool = False,
    font: QFont | None = None,
) -> None:
    """A playing piece with a soft highlight, a dark rim and an optional label.

    ``square``: a rounded square instead of a disc, so two teams differ in shape as well as
    colour (for colour-blind players). ``font``: the label's, when not sized by the piece
    (bold, 0.8 of the radius); such a label is drawn with a rim of the piece's colour, so
    what stands out past the piece still reads on whatever lies under it.
    """
    box = QRectF(centre.x() - radius, centre.y() - radius, 2 * radius, 2 * radius)
    corner = radius * 0.45
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor(0, 0, 0, 70))
    shadow = box.translated(radius * 0.12, radius * 0.16)
    p.drawRoundedRect(shadow, corner, corner) if square else p.drawEllipse(shadow)
    grad = QRadialGradient(centre - QPointF(radius * 0.35, radius * 0.4), radius * 1.5)
    grad.setColorAt(0, fill.lighter(150))
    grad.setColorAt(0.55, fill)
    grad.setColorAt(1, fill.darker(150))
    p.setBrush(grad)
    p.setPen(QPen(ring or fill.darker(220), max(0.8, radius * 0.12)))
    p.drawRoundedRect(box, corner, corner) if square else p.drawEllipse(box)
    if text and font is None:
        p.setPen(text_colour)
        p.setFont(piece_font(radius))
        p.drawText(
            QRectF(centre.x() - radius, centre.y() - radius, 2 * radius, 2 * radius), Qt.AlignmentFlag.AlignCenter, text
        )
    elif text:
        draw_rimmed_text(p, centre, text, font, text_colour, fill)


def draw_rimmed_text(p: QPainter, centre: QPointF, text: str, font: QFont, colour: QColor, rim: QColor) -> None:
    """``text`` centred on ``centre`` by its ink (the glyphs themselves, not the line's room
    for accents and descenders), ringed with a thin line of ``rim``."""
    outline = QPainterPath()
    outline.addText(QPointF(0, 0), font, text)
    baseline = centre - outline.boundingRect().center()
    outline.translate(baseline)
    p.setBrush(Qt.BrushStyle.NoBrush)
    width = scene_size(font) * 0.14
    p.setPen(QPen(rim, width, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin))
    p.drawPath(outline)
    p.setPen(colour)
    p.setFont(font)
    p.drawText(baseline, text)


BALL_SHADOW = (0.15, 0.2)
"""Where a ball's shadow lies from the ball, in its radii across and down."""


def ball_outline(centre: QPointF, radius: float) -> QPainterPath:
    """What :func:`draw_ball` covers: the ball with its edge line, and its shadow."""
    outline = QPainterPath()
    edge = radius + max(0.25, radius * 0.05)
    outline.addEllipse(centre, edge, edge)
    shadow = QPainterPath()
    shadow.addEllipse(centre + QPointF(radius * BALL_SHADOW[0], radius * BALL_SHADOW[1]), radius, radius)
    return outline.united(shadow)


def draw_ball(p: QPainter, centre: QPointF, radius: float, *, red_side: bool = False) -> None:
    """A football: white with dark pentagon patches; ``red_side`` paints the marked half red."""
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor(0, 0, 0, 80))
    p.drawEllipse(centre + QPointF(radius * BALL_SHADOW[0], radius * BALL_SHADOW[1]), radius, radius)
    grad = QRadialGradient(centre - QPointF(radius * 0.3, radius * 0.35), radius * 1.4)
    grad.setColorAt(0, QColor("#ffffff"))
    grad.setColorAt(1, QColor("#c9ccd1"))
    p.setBrush(grad)
    p.setPen(QPen(QColor("#222"), max(0.5, radius * 0.1)))
    p.drawEllipse(centre, radius, radius)
    if red_side:
        half = QPainterPath()
        half.moveTo(centre)
        half.arcTo(QRectF(centre.x() - radius, centre.y() - radius, 2 * radius, 2 * radius), 180, 180)
        half.closeSubpath()
        p.setBrush(QColor("#d6262f"))
        p.setPen(Qt.PenStyle.NoPen)
        p.drawPath(half)
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.setPen(QPen(QColor("#222"), max(0.5, radius * 0.1)))
        p.drawEllipse(centre, radius, radius)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor("#23262b"))
    p.drawEllipse(centre, radius * 0.34, radius * 0.34)


def draw_target_mark(
    p: QPainter, r: QRectF, *, selected: bool = False, preview: bool = False, light: bool = False
) -> None:
    """Mark a square/zone: dashed ring + dot = a legal next click; solid = selected/preview.

    ``light``: a faint tint and dot only, for when most of the board is a legal target.
    """
    if light and not (selected or preview):
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(TARGET.red(), TARGET.green(), TARGET.blue(), 38))
        p.drawRect(r)
        p.setPen(QPen(TARGET_EDGE, 0.6))
        p.setBrush(TARGET)
        dot = min(r.width(), r.height()) * 0.09
        p.drawEllipse(r.center(), dot, dot)
        return
    inset = min(r.width(), r.height()) * 0.08
    box = r.adjusted(inset, inset, -inset, -inset)
    width = max(1.2, min(r.width(), r.height()) * 0.065)
    if selected or preview:
        colour = SELECTED if selected else PREVIEW
        p.setBrush(QColor(colour.red(), colour.green(), colour.blue(), 55))
        p.setPen(QPen(TARGET_EDGE, width * 1.6))
        p.drawRoundedRect(box, inset * 1.5, inset * 1.5)
        p.setPen(QPen(colour, width))
        p.drawRoundedRect(box, inset * 1.5, inset * 1.5)
        return
    p.setBrush(QColor(TARGET.red(), TARGET.green(), TARGET.blue(), 45))
    p.setPen(QPen(TARGET_EDGE, width * 1.5))
    p.drawRoundedRect(box, inset * 1.5, inset * 1.5)
    pen = QPen(TARGET, width)
    pen.setStyle(Qt.PenStyle.DashLine)
    p.setPen(pen)
    p.drawRoundedRect(box, inset * 1.5, inset * 1.5)
    p.setPen(QPen(TARGET_EDGE, width * 0.5))
    p.setBrush(TARGET)
    dot = min(r.width(), r.height()) * 0.075
    p.drawEllipse(r.center(), dot, dot)


def mark_states(key: Key, targets: set[Key], selection: Sequence[Key], preview: set[Key]) -> tuple[bool, bool, bool]:
    """(legal target, selected, previewed) for one key."""
    return key in targets, key in selection, key in preview


def draw_marks(
    p: QPainter,
    r: QRectF,
    key: Key,
    targets: set[Key],
    selection: Sequence[Key],
    preview: set[Key],
    *,
    light: bool = False,
) -> None:
    """Draw whichever of target / selected / preview marks apply to ``key`` (``light``: see draw_target_mark)."""
    lit, chosen, shown = mark_states(key, targets, selection, preview)
    if lit and not chosen:
        draw_target_mark(p, r, light=light)
    # Over the target's dashed ring (its dot still shows): the piece to pick first is pointed
    # at as well as where it goes (QA: a lesson's magenta showed only the destination).
    if shown:
        draw_target_mark(p, r, preview=True)
    if chosen:
        draw_target_mark(p, r, selected=True)
